//! FeW (tcp-spec §10): NewReno whose congestion avoidance adds alpha / cwnd per new ACK
//! (`increase_num`, default alpha = 0.01 from the variant table); slow start and recovery are
//! NewReno's.

use super::*;

const NONE: Vec<Seq> = Vec::new();

/// Congestion avoidance from cwnd 10 (ssthresh 5), one new ACK each, cwnd += 0.01 / cwnd:
/// 10 → 10.001 → 10.001 + 0.01/10.001 = 10.0019999000099990 → 10.0029997000599860 →
/// 10.0039994001799360 → 10.0049990003998060. The window stays 10 packets, so each ACK
/// sends one new packet. (NewReno: 10.1 after the first.)
#[test]
fn congestion_avoidance_adds_alpha_over_cwnd_per_ack() {
    let mut r = Run::at_state(cfg(TcpVariant::Few), 20, 10.0, 5.0, 0);
    assert_eq!(r.sent(), seqs(21..=30));
    assert_eq!(r.s.config().increase_num, 0.01);
    let expect = [
        10.001,
        10.001999900009999,
        10.002999700059986,
        10.003999400179936,
        10.004999000399806,
    ];
    for (i, w) in expect.iter().enumerate() {
        let k = 21 + i as Seq;
        assert_eq!(r.ack(100 + 10 * i as u64, k), vec![k + 10]);
        assert!((r.cwnd() - w).abs() < 1e-12, "ACK {k}: {}", r.cwnd());
        assert_eq!(r.ssthresh(), 5.0);
    }
}

/// `increase_num` is FeW's alpha: 0.1 from cwnd 10 gives 10.01.
#[test]
fn alpha_is_increase_num() {
    let mut c = cfg(TcpVariant::Few);
    c.increase_num = 0.1;
    let mut r = Run::at_state(c, 20, 10.0, 5.0, 0);
    r.ack(100, 21);
    assert!(close(r.cwnd(), 10.01));
}

/// Slow start is NewReno's: +1 per ACK below ssthresh (2 → 3 → 4 → 5), then at cwnd 5 =
/// ssthresh 5 congestion avoidance adds 0.01/5: 5.002.
#[test]
fn slow_start_unchanged() {
    let mut r = Run::at_state(cfg(TcpVariant::Few), 20, 2.0, 5.0, 0);
    assert_eq!(r.sent(), vec![21, 22]);
    assert_eq!(r.ack(100, 21), vec![23, 24]);
    assert_eq!(r.cwnd(), 3.0);
    assert_eq!(r.ack(110, 22), vec![25, 26]);
    assert_eq!(r.cwnd(), 4.0);
    assert_eq!(r.ack(200, 23), vec![27, 28]);
    assert_eq!(r.cwnd(), 5.0);
    assert_eq!(r.ack(210, 24), vec![29]);
    assert_eq!(r.cwnd(), 5.002);
}

/// tcp-spec §12 T7 with FeW: recovery is NewReno's step for step (Limited Transmit, ssthresh
/// 5 and cwnd 5.0 at the 3rd dup, partial ACK 24 resends 25), and the full ACK 35 leaves
/// recovery with one congestion-avoidance increment of alpha: cwnd 5 + 0.01/5 = 5.002
/// (NewReno: 5.2).
#[test]
fn t7_recovery_is_newreno() {
    let mut c = cfg(TcpVariant::Few);
    c.window = 100;
    let mut r = Run::at_state(c, 20, 10.0, 5.0, 0);
    assert_eq!(r.ack(100, 20), vec![31]);
    assert_eq!(r.ack(110, 20), vec![32]);
    assert_eq!(r.ack(120, 20), vec![21]);
    assert_eq!((r.cwnd(), r.ssthresh(), r.s.conn().dupwnd()), (5.0, 5.0, 3));
    assert_eq!(r.s.conn().recover(), 32);
    for t in [130, 140, 150, 160] {
        assert_eq!(r.ack(t, 20), NONE);
    }
    assert_eq!(r.ack(170, 20), vec![33]);
    assert_eq!(r.ack(180, 20), vec![34]);
    assert_eq!(r.ack(190, 20), vec![35]);
    assert_eq!(r.ack(200, 24), vec![25, 36]);
    assert_eq!((r.cwnd(), r.s.conn().dupwnd()), (5.0, 7));
    assert_eq!(r.ack(210, 24), vec![37]);
    assert_eq!(r.ack(220, 24), vec![38]);
    assert_eq!(r.ack(230, 24), vec![39]);
    assert_eq!(r.ack(240, 35), vec![40]);
    assert_eq!(
        (r.cwnd(), r.ssthresh(), r.s.conn().dupwnd()),
        (5.002, 5.0, 0)
    );
    assert_eq!(r.s.stats().timeouts, 0);
}
