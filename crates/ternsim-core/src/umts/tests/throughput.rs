//! The analytic check: a saturating downlink source over i.i.d. TB errors delivers
//! (1 − e) of the TB slots not used by STATUS PDUs, and persistent ARQ loses nothing.

use super::*;

/// A 558-octet IP packet is a 559-octet SDU: 13 full data fields + 39 octets + one LI,
/// exactly 14 PDUs, so delivered SDUs × 14 = PDUs whose payload reached IP.
const IP_BYTES: u32 = 558;
const PDUS_PER_SDU: u64 = 14;

fn run(e: f64, seconds: u64) -> (f64, f64) {
    // lo-umts (persistent ARQ, missing-PDU STATUS, window 4096) with Timer_Status_Prohibit
    // of 60 ms: longer than the 50 ms a NACKed PDU needs to come back (uplink TTI 20 +
    // downlink boundary wait ≤ 10 + TTI 10, plus one TTI of spill-over), so no PDU is
    // NACKed twice while its retransmission is on the way, and short enough that a PDU lost
    // repeatedly cannot hold VR(R) for a whole 4096-PDU window.
    let mut cfg = BearerConfig::default();
    cfg.rlc.status.timer_status_prohibit = Some(SimTime::from_millis(60));
    let mut b = RadioBearer::new(
        cfg,
        ErrorModel::iid(e).unwrap(),
        ErrorModel::iid(e).unwrap(),
        RandomStream::named(7, "umts/down"),
        RandomStream::named(7, "umts/up"),
    );
    let end = SimTime::from_secs_f64(seconds as f64);
    let mut next_id = 0;
    let mut delivered = Vec::new();
    let mut out = BearerOutput::default();
    let mut now = SimTime::ZERO;
    loop {
        // Saturate: keep at least 20 SDUs waiting for segmentation.
        while b.entity(Side::Rnc).buffered_bytes() < 20 * u64::from(IP_BYTES) {
            assert!(b.submit(now, Side::Rnc, next_id, IP_BYTES));
            next_id += 1;
        }
        let Some(t) = b.next_event().filter(|&t| t <= end) else {
            break;
        };
        out.clear();
        b.advance(t, &mut out);
        now = t;
        assert!(out.discarded.is_empty());
        delivered.extend(out.delivered.iter().map(|&(side, id)| {
            assert_eq!(side, Side::Ue);
            id
        }));
    }
    // In-sequence delivery, nothing lost: exactly 0, 1, 2, ...
    assert!(delivered.iter().enumerate().all(|(i, &id)| id == i as u64));
    let s = b.stats();
    let in_flight = b.dch(crate::umts::Direction::Down).in_flight().count() as u64;
    let slots = s.down.tbs - in_flight;
    let status_slots = s.down.status_pdus;
    let payload_bits = 320.0;
    let secs = end.as_secs_f64();
    let expected = (1.0 - e) * (slots - status_slots) as f64 * payload_bits / secs;
    let measured = (delivered.len() as u64 * PDUS_PER_SDU) as f64 * payload_bits / secs;
    (measured, expected)
}

#[test]
fn saturated_throughput_is_one_minus_bler_of_the_data_slots() {
    for e in [0.0, 0.1, 0.2, 0.3] {
        let (measured, expected) = run(e, 60);
        let ratio = measured / expected;
        assert!(
            (ratio - 1.0).abs() < 0.02,
            "e = {e}: measured {measured:.0} b/s, expected {expected:.0} b/s"
        );
        if e == 0.0 {
            // Error-free: every one of the 12 TBs per 10 ms carries new payload: 384 kb/s
            // less the TTIs still in flight at the end.
            assert!(
                (measured - 384_000.0).abs() / 384_000.0 < 0.005,
                "{measured}"
            );
        }
    }
}
