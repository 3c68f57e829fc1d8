//! Vegas-W through the sender (`ding-vegasw` seed §III-C; `window::vegasw` for the decisions
//! D1-D7 the numbers below follow). Every case starts from a primed Vegas: BaseRTT 100 ms, the
//! current per-RTT block tagged at packet 21 at t = 1.0 s, no sample pending, highest_ack 20,
//! and the window's worth sent at 1.0 s; so the ACK of 21 at 1.0 + r s measures a mean RTT r.
//!
//! With `t_seqno − last_ack` = rttLen = n at that block, ns-2's delta is
//! `int((n/BaseRTT − n/r)·BaseRTT + 0.5)` = `int(n − n·0.1/r + 0.5)` (tcp-spec §9.2 step 4).

use super::*;
use crate::tcp::window::vegasw::Growth;
use crate::tcp::window::VegasW;

const NONE: Vec<Seq> = Vec::new();

fn vw(r: &Run) -> &VegasW {
    r.s.window_policy().vegasw().expect("Vegas-W")
}

fn base_rtt(r: &Run) -> f64 {
    r.s.window_policy().vegas().expect("Vegas").base_rtt()
}

/// Primed start (see the module doc) with `cwnd` and `ssthresh`; returns the run after the
/// window was sent at 1.0 s.
fn vegasw_at(c: TcpConfig, cwnd: f64, ssthresh: f64) -> Run {
    let mut r = Run::new(c);
    r.s.conn_mut().warp(20, cwnd, ssthresh);
    r.s.window_policy_mut()
        .vegas_mut()
        .expect("Vegas")
        .prime_at(0.1, 21, 1.0);
    let w = cwnd.floor() as Seq;
    assert_eq!(r.start(1_000), seqs(21..=20 + w));
    r
}

/// Slower start, eq. (1) with N_s = 10 (D2, D3): at cwnd 1 every ACK is a per-RTT block with
/// rttLen 1, so BaseRTT is redefined to that RTT (ns-2 quirk) and delta = int(0 + 0.5) = 0
/// <= gamma. Each ACK counts (n_s = 1, 2, ..., 10) with the window held at 1; the 11th (ACK
/// 31, n_s = 11 > 10) adds one packet and resets n_s. At cwnd 2 the count goes on per ACK,
/// not per RTT: ACK 32 ends a block (delta 0, n_s 1), ACK 33 does not (n_s 2).
/// ns-2 Vegas would have doubled every other RTT instead.
#[test]
fn slower_start_adds_one_packet_after_n_s_counted_acks() {
    let mut r = vegasw_at(cfg(TcpVariant::VegasW), 1.0, 20.0);
    for k in 21..=30 {
        let t = 1_100 + 100 * (k as u64 - 21);
        assert_eq!(r.ack(t, k), vec![k + 1], "ACK {k}");
        assert_eq!((r.cwnd(), r.ssthresh()), (1.0, 20.0), "ACK {k}");
        assert_eq!(vw(&r).growth(), Growth::SlowStart);
        assert_eq!(vw(&r).n_s(), (k - 20) as u32, "ACK {k}");
        assert!(close(base_rtt(&r), 0.1), "{}", base_rtt(&r));
    }
    // ACK 31 at 2.1 s: n_s 11 > N_s 10 → cwnd 2, n_s 0; window 2 from 31 sends 32, 33.
    assert_eq!(r.ack(2_100, 31), vec![32, 33]);
    assert_eq!((r.cwnd(), r.ssthresh(), vw(&r).n_s()), (2.0, 20.0, 0));
    // ACK 32 at 2.2 s: block (begseq 32), rttLen 34 − 32 = 2, mean RTT 0.1 → delta 0; n_s 1.
    assert_eq!(r.ack(2_200, 32), vec![34]);
    assert_eq!((r.cwnd(), vw(&r).n_s()), (2.0, 1));
    // ACK 33: 33 < begseq 34, no block; the growth mode stays, n_s 2.
    assert_eq!(r.ack(2_200, 33), vec![35]);
    assert_eq!((r.cwnd(), vw(&r).n_s()), (2.0, 2));
    assert!(close(base_rtt(&r), 0.1));
}

/// Leaving slow start, eq. (1) and Algorithm 1 line 5 (D1, D5): cwnd 16 < ssthresh 20, mean
/// RTT 130 ms, rttLen 16 → delta = int(16 − 16·0.1/0.13 + 0.5) = int(4.19) = 4 > gamma 1:
/// W_th = floor(16) − 1 = 15 (ns-2 Vegas: 2), cwnd = 16 − 16/8 = 14, growth held. 14 < 15, so
/// the next RTT is still slow start. Nothing is sent: window 14 from 21 ends at 35 < 37.
#[test]
fn slow_start_exit_cuts_by_p_and_sets_w_th_to_window_minus_one() {
    let mut r = vegasw_at(cfg(TcpVariant::VegasW), 16.0, 20.0);
    assert_eq!(r.ack(1_130, 21), NONE);
    assert_eq!((r.cwnd(), r.ssthresh()), (14.0, 15.0));
    assert_eq!((vw(&r).growth(), vw(&r).n_s()), (Growth::Hold, 0));
    // The first block is judged (no every-other-RTT freeze, D3; ns-2 Vegas freezes it). At
    // cwnd 8, 120 ms: delta = int(8 − 8·0.1/0.12 + 0.5) = int(1.83) = 1 <= gamma → count n_s 1.
    let mut r = vegasw_at(cfg(TcpVariant::VegasW), 8.0, 20.0);
    assert_eq!(r.ack(1_120, 21), vec![29]);
    assert_eq!((r.cwnd(), r.ssthresh()), (8.0, 20.0));
    assert_eq!((vw(&r).growth(), vw(&r).n_s()), (Growth::SlowStart, 1));
}

/// A p other than 1/8 (`vegasw_p`): p = 1/4 cuts 16 to 12; W_th still 15.
#[test]
fn slow_start_cut_uses_p() {
    let mut c = cfg(TcpVariant::VegasW);
    c.vegasw.p = 0.25;
    let mut r = vegasw_at(c, 16.0, 20.0);
    assert_eq!(r.ack(1_130, 21), NONE);
    assert_eq!((r.cwnd(), r.ssthresh()), (12.0, 15.0));
}

/// Moderate congestion avoidance, eq. (2) with N_CA = 100 (D2): cwnd 4 >= ssthresh 2, mean
/// RTT 100 ms, rttLen 4 → delta 0 < alpha: growth CA. With n_CA already 99, ACK 21 makes it
/// 100 (not > 100, window held); ACK 22 makes it 101 > 100 → cwnd 4 + 1/4 = 4.25, n_CA 0;
/// ACK 23 counts 1 at 4.25. ns-2 Vegas would have added 1/4 on every one of these ACKs.
#[test]
fn moderate_congestion_avoidance_adds_one_over_w_after_n_ca_acks() {
    let mut r = vegasw_at(cfg(TcpVariant::VegasW), 4.0, 2.0);
    r.s.window_policy_mut()
        .vegasw_mut()
        .unwrap()
        .set_state(Growth::Hold, 0, 99, 0, 0.0);
    assert_eq!(r.ack(1_100, 21), vec![25]);
    assert_eq!((r.cwnd(), r.ssthresh()), (4.0, 2.0));
    assert_eq!(
        (vw(&r).growth(), vw(&r).n_ca()),
        (Growth::CongestionAvoidance, 100)
    );
    // Algorithm 1 line 9: delta < alpha leaves ns_CA alone.
    assert_eq!(vw(&r).ns_ca(), 0);
    // ACK 22: no block (begseq 25); window floor(4.25) = 4 from 22 sends 26.
    assert_eq!(r.ack(1_110, 22), vec![26]);
    assert_eq!((r.cwnd(), vw(&r).n_ca()), (4.25, 0));
    assert_eq!(r.ack(1_120, 23), vec![27]);
    assert_eq!((r.cwnd(), vw(&r).n_ca()), (4.25, 1));
}

/// Algorithm 1 lines 14-23, W_th update after NS_CA = 100 stable RTTs: cwnd 4, ssthresh 2,
/// mean RTT 200 ms, rttLen 4 → delta = int(4 − 2 + 0.5) = 2, in [alpha, beta] = [1, 3]:
/// stable, the window held (eq. 2).
/// - W_s 4, ns_CA 100: window not above W_s; ns_CA 101 > 100 → W_th = floor(4) = 4, ns_CA 0.
/// - W_s 3, ns_CA 50: the window 4 > W_s → ns_CA 0, W_s 4, then ns_CA 1; W_th kept.
#[test]
fn w_th_follows_a_window_stable_for_more_than_ns_ca_rtts() {
    let mut r = vegasw_at(cfg(TcpVariant::VegasW), 4.0, 2.0);
    r.s.window_policy_mut()
        .vegasw_mut()
        .unwrap()
        .set_state(Growth::Hold, 0, 0, 100, 4.0);
    assert_eq!(r.ack(1_200, 21), vec![25]);
    assert_eq!((r.cwnd(), r.ssthresh()), (4.0, 4.0));
    assert_eq!(
        (vw(&r).ns_ca(), vw(&r).w_s(), vw(&r).growth()),
        (0, 4.0, Growth::Hold)
    );

    let mut r = vegasw_at(cfg(TcpVariant::VegasW), 4.0, 2.0);
    r.s.window_policy_mut()
        .vegasw_mut()
        .unwrap()
        .set_state(Growth::Hold, 0, 0, 50, 3.0);
    assert_eq!(r.ack(1_200, 21), vec![25]);
    assert_eq!((r.cwnd(), r.ssthresh()), (4.0, 2.0));
    assert_eq!((vw(&r).ns_ca(), vw(&r).w_s()), (1, 4.0));
}

/// Algorithm 1 lines 11-13 and eq. (2)'s decrease (D4): mean RTT 1 s, rttLen 4 → delta =
/// int(4 − 0.4 + 0.5) = 4 > beta 3: ns_CA 50 → 0, cwnd 4 − 1 = 3 once this RTT (as ns-2);
/// W_s and W_th kept; window 3 from 21 sends nothing.
#[test]
fn congestion_avoidance_decrease_resets_ns_ca() {
    let mut r = vegasw_at(cfg(TcpVariant::VegasW), 4.0, 2.0);
    r.s.window_policy_mut()
        .vegasw_mut()
        .unwrap()
        .set_state(Growth::Hold, 0, 7, 50, 4.0);
    assert_eq!(r.ack(2_000, 21), NONE);
    assert_eq!((r.cwnd(), r.ssthresh()), (3.0, 2.0));
    assert_eq!((vw(&r).ns_ca(), vw(&r).w_s(), vw(&r).n_ca()), (0, 4.0, 7));
    assert_eq!(vw(&r).growth(), Growth::Hold);
}

/// Timeouts (D6, D7) and the rate-control timer, with N_s = 2 so the window leaves the
/// fractional regime within a few steps (N_fw 2, TO_ss 2 as in the paper).
///
/// cwnd 4, W_th 10; ACK 21 at 1.1 s gives the coarse RTT sample 100 ms (srtt 0.1 s, RTO 0.3 s)
/// and a slow-start block (delta 0, n_s 1).
/// - RTO 1 at 1.4 s, window 4 (above the minimum): cwnd 1, W_th kept at 10 (ns-2 Vegas would
///   halve to 2), to_ss 1; backoff 0.6 s; go-back-N resends 22.
/// - RTO 2 at 2.0 s, window 1: 1st timeout at the minimum; cwnd 1, to_ss 2; backoff 1.2 s.
/// - RTO 3 at 3.2 s, window 1: 2nd at the minimum = N_fw → fractional, cwnd 0.5; to_ss 3 > 2 →
///   W_th 9, to_ss 0; backoff 2.4 s (deadline 5.6 s). floor(0.5) = 0 sends nothing, so the
///   rate-control timer sends 22 at once and then one packet per srtt / 0.5 = 0.2 s.
/// - ACK 22 at 3.3 s (a retransmission: no sample): n_s 2, window 0.5; timer 3.4 s.
/// - 3.4 s: the timer sends 23.
/// - ACK 23 at 3.5 s: n_s 3 > 2 → cwnd 1.5: out of the fractional regime, window 1 sends 24;
///   the rate-control timer is off, only the RTO (3.5 + 2.4 s) remains.
/// - RTO at 5.9 s, window 1.5 (above the minimum): the run restarts; cwnd 1, not 0.5.
#[test]
fn fractional_window_after_n_fw_timeouts_at_window_one_with_rate_control() {
    let mut c = cfg(TcpVariant::VegasW);
    c.vegasw.n_s = 2;
    let mut r = vegasw_at(c, 4.0, 10.0);
    assert_eq!(r.ack(1_100, 21), vec![25]);
    assert_eq!((r.cwnd(), vw(&r).n_s()), (4.0, 1));
    assert_eq!(r.s.next_timer(), Some(ms(1_400)));

    assert_eq!(r.fire(), vec![22]);
    assert_eq!((r.cwnd(), r.ssthresh()), (1.0, 10.0));
    assert_eq!((vw(&r).to_ss(), vw(&r).timeouts_at_min()), (1, 0));
    assert!(!vw(&r).fractional());
    assert_eq!(r.s.next_timer(), Some(ms(2_000)));

    assert_eq!(r.fire(), vec![22]);
    assert_eq!((r.cwnd(), r.ssthresh()), (1.0, 10.0));
    assert_eq!((vw(&r).to_ss(), vw(&r).timeouts_at_min()), (2, 1));
    assert_eq!(r.s.next_timer(), Some(ms(3_200)));

    assert_eq!(r.fire(), vec![22]);
    assert_eq!(r.out.segments[0].sent_at, ms(3_200));
    assert_eq!((r.cwnd(), r.ssthresh()), (0.5, 9.0));
    assert_eq!((vw(&r).to_ss(), vw(&r).timeouts_at_min()), (0, 2));
    assert!(vw(&r).fractional());
    assert_eq!(r.s.next_timer(), Some(ms(3_400)), "rate-control timer");

    assert_eq!(r.ack(3_300, 22), NONE);
    assert_eq!((r.cwnd(), vw(&r).n_s()), (0.5, 2));
    assert_eq!(r.s.next_timer(), Some(ms(3_400)));

    assert_eq!(r.fire(), vec![23]);
    assert_eq!(r.out.segments[0].sent_at, ms(3_400));
    assert!(r.out.segments[0].retransmission, "go-back-N resend");
    assert_eq!(r.s.next_timer(), Some(ms(3_600)));

    assert_eq!(r.ack(3_500, 23), vec![24]);
    assert_eq!((r.cwnd(), r.ssthresh(), vw(&r).n_s()), (1.5, 9.0, 0));
    assert!(!vw(&r).fractional());
    assert_eq!(vw(&r).timeouts_at_min(), 0);
    assert_eq!(r.s.next_timer(), Some(ms(5_900)), "only the RTO");

    assert_eq!(r.fire(), vec![24]);
    assert_eq!((r.cwnd(), r.ssthresh()), (1.0, 9.0));
    assert_eq!((vw(&r).to_ss(), vw(&r).timeouts_at_min()), (1, 0));
    assert_eq!(r.s.stats().timeouts, 4);
}

/// In the fractional regime a further timeout keeps the window at 0.5 (the floor while
/// fractional, D7); the paced packets keep their spacing from the last one sent.
#[test]
fn fractional_window_survives_further_timeouts() {
    let mut r = vegasw_at(cfg(TcpVariant::VegasW), 1.0, 1.0);
    // ACK 21 at 1.1 s: sample 100 ms, RTO 0.3 s; cwnd 1 = ssthresh: CA, delta 0 → count.
    assert_eq!(r.ack(1_100, 21), vec![22]);
    // RTO at 1.4 s (window 1: 1st at the minimum), at 2.0 s (2nd: fractional, paced 22).
    assert_eq!(r.fire(), vec![22]);
    assert_eq!(r.cwnd(), 1.0);
    assert_eq!(r.fire(), vec![22]);
    assert_eq!(
        (r.cwnd(), r.ssthresh()),
        (0.5, 1.0),
        "W_th floor min_ssthresh 1"
    );
    assert_eq!(r.s.next_timer(), Some(ms(2_200)));
    // Paced 23 at 2.2, 24 at 2.4, ... up to the RTO at 2.0 + 1.2 = 3.2 s, which coincides with
    // the paced deadline: the timeout goes back to 22 (cwnd stays 0.5) and the due paced
    // packet resends it.
    for t in [2_200, 2_400, 2_600, 2_800, 3_000] {
        let sent = r.fire();
        assert_eq!(sent.len(), 1);
        assert_eq!(r.out.segments[0].sent_at, ms(t));
    }
    assert_eq!(r.s.next_timer(), Some(ms(3_200)));
    assert_eq!(r.fire(), vec![22]);
    assert_eq!((r.cwnd(), r.ssthresh()), (0.5, 1.0));
    assert!(vw(&r).fractional());
    assert_eq!(r.s.next_timer(), Some(ms(3_400)));
}
