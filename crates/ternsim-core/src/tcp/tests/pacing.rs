//! Rate control below one packet (`window::pacing`): with `pace_below_one` a window of w < 1
//! sends one packet every srtt / w, through the window policy's timer seam (`next_timer`).
//! Without it (every ns-2 variant) a window below one packet sends nothing.

use super::*;

/// Reno with `min_cwnd` 0.5: a timeout leaves cwnd 0.5, which the send loop (floor(cwnd) = 0)
/// cannot use; the pacer sends one packet per srtt / 0.5 = 200 ms instead, go-back-N resends
/// first, and the first new ACK (slow start to 1.5) hands sending back to the window.
#[test]
fn window_below_one_packet_sends_one_packet_per_interval() {
    let mut c = cfg(TcpVariant::Reno);
    c.min_cwnd = 0.5;
    c.pace_below_one = true;
    let mut r = Run::new(c);
    assert_eq!(r.start(0), vec![0]);
    // SYN ACK at 100 ms: sample 10 ticks → srtt 0.1 s, RTO 0.3 s; cwnd 2.
    assert_eq!(r.ack(100, 0), vec![1, 2]);
    assert_eq!(r.s.next_timer(), Some(ms(400)));

    // RTO at 400 ms: ssthresh max(2, floor(2/2)) = 2, cwnd = min_cwnd 0.5, backoff → 0.6 s.
    // floor(0.5) = 0 sends nothing; the pacer has sent nothing yet, so the hole goes at once.
    assert_eq!(r.fire(), vec![1]);
    assert_eq!((r.cwnd(), r.ssthresh()), (0.5, 2.0));
    assert_eq!(r.out.segments[0].sent_at, ms(400));
    assert!(r.out.segments[0].retransmission);
    // Next paced packet at 400 + 0.1 / 0.5 s = 600 ms, before the RTO at 1000 ms.
    assert_eq!(r.s.next_timer(), Some(ms(600)));

    assert_eq!(r.fire(), vec![2]);
    assert_eq!(r.out.segments[0].sent_at, ms(600));
    assert!(r.out.segments[0].retransmission);
    assert_eq!(r.s.next_timer(), Some(ms(800)));

    assert_eq!(r.fire(), vec![3]);
    assert_eq!(r.out.segments[0].sent_at, ms(800));
    assert!(!r.out.segments[0].retransmission, "new data");
    assert_eq!(r.cwnd(), 0.5, "pacing does not change the window");
    // The RTO (1000 ms) and the paced deadline (800 + 200 ms) coincide.
    assert_eq!(r.s.next_timer(), Some(ms(1_000)));

    // Both fire: the timeout goes back to 1 (ssthresh max(2, floor(0.25)) = 2, cwnd 0.5,
    // backoff 4 → 1.2 s), then the due paced packet resends 1.
    assert_eq!(r.fire(), vec![1]);
    assert_eq!((r.cwnd(), r.ssthresh()), (0.5, 2.0));
    assert_eq!(r.s.stats().timeouts, 2);
    assert_eq!(r.s.next_timer(), Some(ms(1_200)));

    // ACK 1 at 1100 ms (no sample: 1 was resent): slow start 0.5 → 1.5, window 1 sends 2 at
    // once; pacing stops, only the retransmission timer (1100 + 1.2 s) remains.
    assert_eq!(r.ack(1_100, 1), vec![2]);
    assert_eq!((r.cwnd(), r.ssthresh()), (1.5, 2.0));
    assert_eq!(r.s.next_timer(), Some(ms(2_300)));
    assert_eq!(r.s.stats().segments_sent, 8);
}

/// Pacing stops when nothing may be sent: with the transfer stopped no paced deadline is
/// armed, only the retransmission timer.
#[test]
fn no_pacing_deadline_without_data_to_send() {
    let mut c = cfg(TcpVariant::Reno);
    c.min_cwnd = 0.5;
    c.pace_below_one = true;
    let mut r = Run::new(c);
    r.start(0);
    assert_eq!(r.ack(100, 0), vec![1, 2]);
    r.s.stop_new_data();
    // RTO: cwnd 0.5; the go-back-N packet 1 still exists, so it is paced at once; 2, the
    // highest sent, does not go again after a stop (ns-2's FTP `stop` is `advance 0`:
    // `curseq_ = maxseq_`), so the next deadline is the RTO (400 + 0.6 s).
    assert_eq!(r.fire(), vec![1]);
    assert_eq!(r.s.next_timer(), Some(ms(1_000)));
}

/// ns-2 semantics (the default): the send loop floors cwnd, so after a timeout to cwnd 0.5
/// nothing is sent, not even the go-back-N hole, and the only deadline is the backed-off RTO.
/// Each further timeout backs off again and still sends nothing; the window never opens.
#[test]
fn without_pacing_a_window_below_one_packet_waits_for_the_timer() {
    let mut c = cfg(TcpVariant::Reno);
    c.min_cwnd = 0.5;
    assert!(!c.pace_below_one, "off by default, as in ns-2");
    let mut r = Run::new(c);
    assert_eq!(r.start(0), vec![0]);
    assert_eq!(r.ack(100, 0), vec![1, 2]);
    assert_eq!(r.s.next_timer(), Some(ms(400)));
    // RTO at 400 ms: cwnd 0.5, ssthresh 2, RTO backed off to 0.6 s; floor(0.5) = 0 sends nothing.
    assert_eq!(r.fire(), Vec::<i64>::new());
    assert_eq!((r.cwnd(), r.ssthresh()), (0.5, 2.0));
    assert_eq!(r.s.next_timer(), Some(ms(1_000)));
    // RTO at 1000 ms: backoff 4 → 1.2 s; still nothing.
    assert_eq!(r.fire(), Vec::<i64>::new());
    assert_eq!(r.s.stats().timeouts, 2);
    assert_eq!(r.s.next_timer(), Some(ms(2_200)));
    assert_eq!(r.s.stats().segments_sent, 3);
}
