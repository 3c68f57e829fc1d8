//! The two Vegas modifications of the `ding-vegasw` seed's Table I, as options on ns-2 Vegas:
//! "minimum window 1" (`min_cwnd = 1`) and "minimum window and ssthresh 1" (`min_cwnd = 1,
//! min_ssthresh = 1`). The minimum window is ns-2 Vegas's floor/restart 2 (tcp-spec §9.2:
//! `v_slowstart_` after an RTO, the floors of the slow-start cut and the congestion-avoidance
//! decrease, and the small-window case of the fast-retransmit reduction); the reset
//! threshold W_th^r is the 2 that ssthresh is set to on leaving slow start and on deflation,
//! and the floor of ssthresh after a timeout. Each case runs the same events with the options
//! off and on: only those values move. (The per-RTT floors are in `window::vegas` tests.)

use super::*;

/// Which of Table I's rows: ns-2 Vegas, minimum window 1, minimum window and ssthresh 1.
fn table1(min_cwnd: f64, min_ssthresh: f64) -> TcpConfig {
    let mut c = cfg(TcpVariant::Vegas);
    assert_eq!(
        (c.min_cwnd, c.min_ssthresh),
        (2.0, 2.0),
        "ns-2 Vegas defaults"
    );
    c.min_cwnd = min_cwnd;
    c.min_ssthresh = min_ssthresh;
    c
}

/// BaseRTT 100 ms, v_timeout 0.14609375 s, highest_ack 20, the window sent at 1.0 s (RTO 3 s).
fn primed(c: TcpConfig, cwnd: f64, ssthresh: f64) -> Run {
    let mut r = Run::new(c);
    r.s.conn_mut().warp(20, cwnd, ssthresh);
    r.s.window_policy_mut()
        .vegas_mut()
        .expect("Vegas")
        .prime(0.1, 31);
    r.start(1_000);
    r
}

/// Two back-to-back RTOs from cwnd 10 (tcp-spec §9.2 "On RTO"). First (4.0 s): ssthresh
/// max(floor, floor(10/2)) = 5 in every row; cwnd = v_slowstart_ = 2 (go-back-N sends 21, 22)
/// or 1 (sends 21). Second (10.0 s, backoff 6 s): the window is 2 or 1, half of it 1 or 0:
/// ssthresh max(2, 1) = 2, max(2, 0) = 2, max(1, 0) = 1.
#[test]
fn timeouts_restart_from_the_minimum_window_and_floor_ssthresh() {
    for (min_cwnd, min_ssthresh, first_sent, second_ssthresh) in [
        (2.0, 2.0, vec![21, 22], 2.0),
        (1.0, 2.0, vec![21], 2.0),
        (1.0, 1.0, vec![21], 1.0),
    ] {
        let mut r = primed(table1(min_cwnd, min_ssthresh), 10.0, 2.0);
        assert_eq!(r.sent(), seqs(21..=30));
        assert_eq!(r.s.next_timer(), Some(ms(4_000)));
        assert_eq!(r.fire(), first_sent);
        assert_eq!((r.cwnd(), r.ssthresh()), (min_cwnd, 5.0));
        assert_eq!(r.s.next_timer(), Some(ms(10_000)));
        assert_eq!(r.fire(), first_sent);
        assert_eq!(
            (r.cwnd(), r.ssthresh()),
            (min_cwnd, second_ssthresh),
            "min_cwnd {min_cwnd}, min_ssthresh {min_ssthresh}"
        );
    }
}

/// Fine-grained retransmit at window 1 (tcp-spec §9.2 dup ACK): cwnd 1, 21 outstanding since
/// 1.0 s, a duplicate at 1.2 s finds it expired (0.2 s >= 0.146 s). ns-2 maps win 1 (<= 3) to
/// 2, so the "reduction" gives v_newcwnd 2 and cwnd 2 + 1 dup = 3 (resend 21, send 22, 23);
/// with minimum window 1 it is v_newcwnd 1, cwnd 2 (resend 21, send 22). ssthresh stays 2.
#[test]
fn fast_retransmit_at_window_one_is_not_raised_with_minimum_window_one() {
    for (min_cwnd, min_ssthresh, sent, cwnd) in [
        (2.0, 2.0, vec![21, 22, 23], 3.0),
        (1.0, 2.0, vec![21, 22], 2.0),
        (1.0, 1.0, vec![21, 22], 2.0),
    ] {
        let mut r = primed(table1(min_cwnd, min_ssthresh), 1.0, 2.0);
        assert_eq!(r.sent(), vec![21]);
        assert_eq!(r.ack(1_200, 20), sent);
        assert_eq!((r.cwnd(), r.ssthresh()), (cwnd, 2.0));
        let v = r.s.window_policy().vegas().unwrap();
        assert_eq!(v.newcwnd(), cwnd - 1.0);
    }
}

/// Deflation after more than three duplicates (tcp-spec §12 T6): the first duplicate at
/// 1.2 s resends 21 (cwnd 8 + 1), the next inflates to 10, ACK 30 deflates to v_newcwnd 8 and
/// resets ssthresh to W_th^r: 2, 2, 1. cwnd 8 and the packets sent (31..38) are the same in
/// every row: win 10 is far above any minimum.
#[test]
fn deflation_resets_ssthresh_to_the_reset_threshold() {
    for (min_cwnd, min_ssthresh) in [(2.0, 2.0), (1.0, 2.0), (1.0, 1.0)] {
        let mut r = primed(table1(min_cwnd, min_ssthresh), 10.0, 2.0);
        assert_eq!(r.ack(1_200, 20), vec![21]);
        assert_eq!(r.cwnd(), 9.0);
        assert_eq!(r.ack(1_210, 20), Vec::<Seq>::new());
        assert_eq!(r.cwnd(), 10.0);
        assert_eq!(r.ack(1_300, 30), seqs(31..=38));
        assert_eq!((r.cwnd(), r.ssthresh()), (8.0, min_ssthresh));
    }
}
