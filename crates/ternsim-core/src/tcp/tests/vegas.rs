//! Vegas through the sender (tcp-spec §9.2, §12 T6).

use super::*;
use crate::tcp::window::Vegas;

fn vegas(r: &Run) -> &Vegas {
    r.s.window_policy().vegas().expect("Vegas")
}

/// Vegas at T6's fast-retransmit start: BaseRTT 100 ms and v_timeout 0.14609375 s (first ACK
/// and one sample of 100 ms), cwnd 10, ssthresh 2, highest_ack 20; 21..30 sent at 1.0 s.
fn vegas_at_cwnd10() -> Run {
    let mut r = Run::new(cfg(TcpVariant::Vegas));
    r.s.conn_mut().warp(20, 10.0, 2.0);
    r.s.window_policy_mut()
        .vegas_mut()
        .expect("Vegas")
        .prime(0.1, 31);
    assert_eq!(r.start(1_000), seqs(21..=30));
    assert!(close(vegas(&r).fine_timeout(), 0.14609375));
    r
}

/// Start-up: packet 0 is a full 1000-byte data packet (no SYN, no header); cwnd 2 on the
/// first new ACK after ack 0; slow start grows every other RTT. Hand-worked from ns-2's
/// `VegasTcpAgent::recv`: packet 0 is sent at `vegastime()` 0 exactly, and ns-2 takes no
/// fine-grained sample from a send slot whose time is 0, so the timeout after ack 0 is the
/// first ACK's initial one, ((8 · 0.1) / 4 + 0.1) / 2 = 0.15 s; the samples of packets 1
/// (120 ms) and 2 (100 ms) then give 0.159375 and 0.14775390625 s.
#[test]
fn startup_every_other_rtt_and_fine_grained_timeout() {
    let mut r = Run::new(cfg(TcpVariant::Vegas));
    assert_eq!(r.start(0), vec![0]);
    let d = r.out.segments[0];
    assert_eq!((d.wire_bytes, d.payload_bytes), (1000, 1000));
    assert_eq!(r.cwnd(), 1.0);
    // ack 0 at 100 ms: estimator from t1 = 0.1 (0.15 s); no sample (packet 0's slot time is 0).
    // First per-RTT block: slow-start flag 1 → 0, frozen.
    assert_eq!(r.ack(100, 0), vec![1]);
    assert_eq!(
        (r.cwnd(), vegas(&r).base_rtt(), vegas(&r).incr()),
        (1.0, 0.1, 0.0)
    );
    assert!(close(vegas(&r).fine_timeout(), 0.15));
    // ack 1 at 220 ms: cwnd = windowInit 2 (last_ack was 0); the block has no sample, so it
    // measures 220 − 100 = 120 ms with one packet in flight, which becomes BaseRTT (ns-2's
    // `rttLen <= 1` rule); delta 0, flag → 1, v_incr 1; window used (2 − 1 <= 2) → cwnd 3.
    // Sample 120 ms.
    assert_eq!(r.ack(220, 1), vec![2, 3, 4]);
    assert_eq!((r.cwnd(), vegas(&r).incr()), (3.0, 1.0));
    assert!(close(vegas(&r).base_rtt(), 0.12));
    assert!(close(vegas(&r).fine_timeout(), 0.159375));
    // ack 2 at 320 ms: the next block freezes (flag → 0): cwnd stays 3. Sample 100 ms, the
    // new BaseRTT.
    assert_eq!(r.ack(320, 2), vec![5]);
    assert_eq!((r.cwnd(), vegas(&r).incr()), (3.0, 0.0));
    assert!(close(vegas(&r).base_rtt(), 0.1));
    assert!(close(vegas(&r).fine_timeout(), 0.14775390625));
}

/// T6 fast retransmit: first dup ACK with 21 expired and sent once: v_timeout × 9/8,
/// v_newcwnd 8, cwnd 9, dupacks 3, coarse timer backed off; next dup → 10; next new ACK →
/// cwnd 8, ssthresh 2.
#[test]
fn t6_fine_grained_retransmit_on_first_dup_inflate_deflate() {
    let mut r = vegas_at_cwnd10();
    assert_eq!(r.ack(1_200, 20), vec![21]);
    assert_eq!((r.cwnd(), r.ssthresh()), (9.0, 2.0));
    assert_eq!(vegas(&r).newcwnd(), 8.0);
    assert!(close(vegas(&r).fine_timeout(), 0.16435546875));
    assert_eq!(r.s.conn().dupacks(), 3);
    assert_eq!(
        r.s.next_timer(),
        Some(ms(1_200 + 6_000)),
        "initial 3 s RTO backed off ×2"
    );
    assert_eq!(r.s.stats().fast_retransmits, 1);
    assert_eq!(r.ack(1_210, 20), NONE_V);
    assert_eq!(r.cwnd(), 10.0);
    assert_eq!(r.ack(1_300, 30), seqs(31..=38));
    assert_eq!((r.cwnd(), r.ssthresh()), (8.0, 2.0));
}

const NONE_V: Vec<Seq> = Vec::new();

/// BP94 (b) / tcp-spec §9.2 step 8: the first new ACK after a retransmission resends the next
/// packet when it has expired; with exactly three dups the inflated cwnd stays.
#[test]
fn retransmit_on_first_new_ack_after_retransmission() {
    let mut r = vegas_at_cwnd10();
    assert_eq!(r.ack(1_200, 20), vec![21]);
    // ACK 22 at 1.3 s: sample 0.3 s of packet 22 → v_timeout 0.253125 · 17/16 = 0.2689453125;
    // packet 23 has been out 0.3 s → resend it; then window 9 from 22 → 31.
    assert_eq!(r.ack(1_300, 22), vec![23, 31]);
    assert!(r.out.segments[0].retransmission);
    assert!(close(vegas(&r).fine_timeout(), 0.2689453125));
    assert_eq!((r.cwnd(), r.ssthresh()), (9.0, 2.0));
    assert_eq!(r.s.stats().fast_retransmits, 2);
    // ACK 30: 31 (sent 1.3 s) has not expired → no resend; window 9 → 32..39.
    assert_eq!(r.ack(1_400, 30), seqs(32..=39));
    assert_eq!(r.s.stats().fast_retransmits, 2);
    assert_eq!(r.cwnd(), 9.0);
}

/// Vegas has no Limited Transmit; the 3rd dup retransmits even if not expired and inflates
/// to win + dupacks = 8 + 3, which opens the window to 20 + 11 = 31 at once.
#[test]
fn no_limited_transmit_and_third_dup() {
    let mut r = vegas_at_cwnd10();
    assert_eq!(r.ack(1_050, 20), NONE_V);
    assert_eq!(r.ack(1_060, 20), NONE_V);
    assert_eq!(r.cwnd(), 10.0);
    assert_eq!(r.ack(1_070, 20), vec![21, 31]);
    assert_eq!((r.cwnd(), r.ssthresh()), (11.0, 2.0));
}

/// tcp-spec §9.2 "On RTO": ssthresh max(2, floor(10/2)) = 5, cwnd 2, go back N.
#[test]
fn rto_sets_cwnd_two() {
    let mut r = vegas_at_cwnd10();
    assert_eq!(r.fire(), vec![21, 22]);
    assert_eq!((r.cwnd(), r.ssthresh()), (2.0, 5.0));
    assert_eq!(r.s.next_timer(), Some(ms(4_000 + 6_000)));
}

/// tcp-spec §9.2 quirk (ii): after an RTO, the 3rd dup may not fast-retransmit (last action
/// TIMEOUT, no new window), the 4th inflates cwnd, and the next new ACK "deflates" to
/// v_newcwnd = 0. Nothing is sent until the timer, which stays armed because the
/// application has data; the idle timeout then restarts at cwnd 2.
#[test]
fn zero_window_after_rto_recovers_at_next_timeout() {
    let mut r = vegas_at_cwnd10();
    assert_eq!(r.fire(), vec![21, 22]);
    for t in [4_010, 4_020, 4_030] {
        assert_eq!(r.ack(t, 20), NONE_V);
    }
    assert_eq!(r.cwnd(), 2.0);
    assert_eq!(r.ack(4_040, 20), vec![23]);
    assert_eq!(r.cwnd(), 3.0);
    assert_eq!(r.ack(4_100, 30), NONE_V);
    assert_eq!((r.cwnd(), r.ssthresh()), (0.0, 2.0));
    // Backoff 2 is kept (no sample: 21..23 were retransmissions): 4.1 s + 6 s.
    assert_eq!(r.s.next_timer(), Some(ms(10_100)));
    assert_eq!(r.fire(), vec![31, 32]);
    assert_eq!((r.cwnd(), r.ssthresh()), (2.0, 2.0));
    assert_eq!(
        r.s.next_timer(),
        Some(ms(10_100 + 6_000)),
        "idle timeout: no backoff"
    );
}

/// ns-2 `send_much` sets `firstsent_` whenever it runs with `t_seqno_` 0: packet 0 lost, its
/// timeout (3 s, the initial RTO) goes back to packet 0 and moves the origin of Vegas's
/// `vegastime()` there; the time of the cut taken just before (`t_cwnd_changed_` = 3 s in
/// the old origin) stays as it was.
#[test]
fn a_timeout_of_packet_0_moves_the_origin_of_vegastime() {
    let mut r = Run::new(cfg(TcpVariant::Vegas));
    assert_eq!(r.start(0), vec![0]);
    assert_eq!(r.s.conn().first_sent(), Some(ms(0)));
    assert_eq!(r.s.next_timer(), Some(ms(3_000)));
    assert_eq!(r.fire(), vec![0, 1]);
    assert_eq!(r.s.conn().first_sent(), Some(ms(3_000)));
    // The slot of the resent packet 0 holds vegastime 0 again (a fresh ring).
    let slot =
        r.s.conn()
            .send_ring()
            .expect("Vegas keeps the ring")
            .slot(0);
    assert_eq!((slot.sent_at, slot.transmits), (0.0, 1));
}
