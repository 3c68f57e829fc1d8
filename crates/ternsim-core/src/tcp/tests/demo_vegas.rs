//! Demo-Vegas (`ho-mobileip` seed §IV-B): the SIG bit flips once per care-of address change
//! at the receiver, and the sender re-measures BaseRTT exactly when an ACK carries the other
//! value or its own care-of address changes.

use super::*;
use crate::tcp::config::SinkConfig;
use crate::tcp::segment::DataSegment;
use crate::tcp::{SinkOutput, TcpSink};

fn ack_sig(r: &mut Run, t_ms: u64, k: Seq, sig: bool) -> Vec<Seq> {
    r.out.clear();
    let a = AckSegment { sig, ..ack(k) };
    r.s.on_ack(ms(t_ms), &a, &mut r.out);
    r.sent()
}

fn base(r: &Run) -> f64 {
    r.s.base_rtt().expect("Vegas machinery")
}

/// The sink sets its SIG on every ACK and flips it once per care-of address change: two ACKs
/// with 0, a change, two ACKs with 1, a change back, one ACK with 0.
#[test]
fn the_sink_flips_sig_once_per_care_of_change_and_sets_it_on_every_ack() {
    let mut sink = TcpSink::new(SinkConfig::default());
    let mut out = SinkOutput::default();
    let seg = |seq| DataSegment {
        seq,
        wire_bytes: 1000,
        payload_bytes: 1000,
        retransmission: false,
        cong_action: false,
        ecn: Default::default(),
        sent_at: SimTime::ZERO,
    };
    let mut sigs = Vec::new();
    for (seq, change_before) in [(0, false), (1, false), (2, true), (3, false), (4, true)] {
        if change_before {
            sink.on_care_of_change();
        }
        out.acks.clear();
        sink.on_segment(ms(10 * seq as u64), &seg(seq), &mut out);
        assert_eq!(out.acks.len(), 1);
        sigs.push(out.acks[0].sig);
    }
    assert_eq!(sigs, vec![false, false, true, true, false]);
}

/// Hand-worked from tcp-spec §9.2 (packets sent at 0 and 100 ms, then 2, 3, 4 at 220 ms):
/// - ack 0 @100 ms, SIG 0: BaseRTT from the first ACK, 0.1 s; no re-measurement.
/// - ack 1 @220 ms, SIG 0: the block ack 0 opened has no sample (ns-2 takes none from packet
///   0, sent at `vegastime()` 0), so it measures 220 − 100 = 120 ms with one packet in
///   flight, which becomes BaseRTT (`rttLen <= 1`); packet 1's sample is 120 ms too.
/// - ack 2 @360 ms, SIG 1: the flip re-measures: BaseRTT forgotten, the block that ack 2 ends
///   (tagged at 220 ms, its old-path samples dropped) measures 360 − 220 = 140 ms, which
///   becomes BaseRTT; packet 2's own sample is also 140 ms.
/// - ack 3 @380 ms, SIG 1: no flip; sample 160 ms does not lower 0.14.
/// - ack 4 @400 ms, SIG 0: flip back, re-measure; packet 4's sample (180 ms) is the new
///   BaseRTT (no block ends: it was tagged at packet 5).
/// - the sender's own care-of address changes: a third re-measurement, BaseRTT forgotten
///   (ns-2's initial 1e9 s) until the next sample.
#[test]
fn the_sender_remeasures_base_rtt_exactly_when_sig_flips_or_its_care_of_changes() {
    let mut r = Run::new(cfg(TcpVariant::DemoVegas));
    let remeasures = |r: &Run| r.s.base_rtt_remeasures();
    assert_eq!(r.start(0), vec![0]);
    assert_eq!(ack_sig(&mut r, 100, 0, false), vec![1]);
    assert_eq!((base(&r), remeasures(&r)), (0.1, 0));
    assert_eq!(ack_sig(&mut r, 220, 1, false), vec![2, 3, 4]);
    assert!(close(base(&r), 0.12), "{}", base(&r));
    assert_eq!(remeasures(&r), 0);
    ack_sig(&mut r, 360, 2, true);
    assert!(close(base(&r), 0.14), "{}", base(&r));
    assert_eq!(remeasures(&r), 1);
    ack_sig(&mut r, 380, 3, true);
    assert!(close(base(&r), 0.14));
    assert_eq!(remeasures(&r), 1);
    ack_sig(&mut r, 400, 4, false);
    assert!(close(base(&r), 0.18), "{}", base(&r));
    assert_eq!(remeasures(&r), 2);
    r.s.on_care_of_change();
    assert_eq!((base(&r), remeasures(&r)), (1e9, 3));
}

/// Plain Vegas ignores the bit: the same ACK sequence keeps BaseRTT at 0.12 s, set by the
/// block ack 1 ends (above); the later samples (140, 180 ms) are longer.
#[test]
fn vegas_ignores_the_sig_bit() {
    let mut r = Run::new(cfg(TcpVariant::Vegas));
    r.start(0);
    ack_sig(&mut r, 100, 0, false);
    ack_sig(&mut r, 220, 1, false);
    ack_sig(&mut r, 360, 2, true);
    ack_sig(&mut r, 400, 4, false);
    r.s.on_care_of_change();
    assert!(close(base(&r), 0.12), "{}", base(&r));
    assert_eq!(r.s.base_rtt_remeasures(), 0);
}
