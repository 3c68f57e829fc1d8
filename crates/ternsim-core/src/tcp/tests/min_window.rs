//! `min_cwnd` and `min_ssthresh` (TcpConfig, defaults from the variant table) and the window
//! decisions of the policies: hooks answer without touching the connection.

use super::*;
use crate::tcp::congestion::{CwndAction, DupacksHold, Slowdown};
use crate::tcp::conn::Conn;
use crate::tcp::window::{DupAckDecision, LossEvent, Retransmit, WindowDecision, WindowPolicy};

/// tcp-spec §2 timeout with `min_cwnd` 2: cwnd restarts at 2, so go-back-N resends two.
#[test]
fn timeout_restarts_from_min_cwnd() {
    let mut c = cfg(TcpVariant::Reno);
    c.min_cwnd = 2.0;
    let mut r = Run::at_state(c, 20, 10.0, 20.0, 0);
    assert_eq!(r.fire(), vec![21, 22]);
    assert_eq!((r.ssthresh(), r.cwnd()), (5.0, 2.0));
}

/// `slowdown` clamps ssthresh to `min_ssthresh`: with 4 (ns-2: 2) the second back-to-back
/// timeout gives max(4, floor(1/2)) = 4 instead of 2.
#[test]
fn back_to_back_timeouts_clamp_ssthresh_to_min_ssthresh() {
    let mut c = cfg(TcpVariant::Tahoe);
    c.min_ssthresh = 4.0;
    let mut r = Run::at_state(c, 20, 10.0, 20.0, 0);
    assert_eq!(r.fire(), vec![21]);
    assert_eq!((r.ssthresh(), r.cwnd()), (5.0, 1.0));
    assert_eq!(r.fire(), vec![21]);
    assert_eq!((r.ssthresh(), r.cwnd()), (4.0, 1.0));
}

/// Tahoe's fast retransmit (ns-2 `CLOSE_CWND_ONE`) also restarts from `min_cwnd`: with 3,
/// the 3rd duplicate resends 21 and go-back-N sends 22, 23 with it.
#[test]
fn tahoe_fast_retransmit_restarts_from_min_cwnd() {
    let mut c = cfg(TcpVariant::Tahoe);
    c.window = 100;
    c.min_cwnd = 3.0;
    let mut r = Run::at_state(c, 20, 10.0, 10.0, 0);
    assert_eq!(r.ack(100, 20), vec![31]);
    assert_eq!(r.ack(110, 20), vec![32]);
    assert_eq!(r.ack(120, 20), vec![21, 22, 23]);
    assert_eq!((r.cwnd(), r.ssthresh()), (3.0, 5.0));
}

/// Vegas's timeout sets cwnd to its `min_cwnd` (ns-2 `v_slowstart_` = 2 by default; here 3).
#[test]
fn vegas_timeout_uses_min_cwnd() {
    let mut c = cfg(TcpVariant::Vegas);
    c.min_cwnd = 3.0;
    let mut r = Run::at_state(c, 20, 10.0, 2.0, 1_000);
    assert_eq!(r.fire(), vec![21, 22, 23]);
    assert_eq!((r.cwnd(), r.ssthresh()), (3.0, 5.0));
}

fn conn(variant: TcpVariant, cwnd: f64, ssthresh: f64) -> Conn {
    let mut c = Conn::new(cfg(variant), SimTime::ZERO);
    c.warp_outstanding(20, 31, cwnd, ssthresh);
    c
}

/// AIMD answers a fast retransmit with the halved window (tcp-spec §2 `slowdown`) and a
/// timeout with (floor(W/2), min_cwnd); the connection is unchanged until it applies them.
#[test]
fn aimd_loss_decisions_leave_the_connection_alone() {
    let c = conn(TcpVariant::NewReno, 9.0, 20.0);
    let mut w = WindowPolicy::for_config(c.cfg());
    let d = w.on_loss(&c, ms(0), LossEvent::FastRetransmit(Slowdown::HalveBoth));
    assert_eq!(
        d,
        WindowDecision {
            cwnd: 4.5,
            ssthresh: 4.0,
            retransmit: None
        }
    );
    let d = w.on_loss(&c, ms(0), LossEvent::Timeout);
    assert_eq!((d.cwnd, d.ssthresh, d.retransmit), (1.0, 4.0, None));
    let d = w.on_loss(&c, ms(0), LossEvent::IdleTimeout);
    assert_eq!(
        (d.cwnd, d.ssthresh),
        (1.0, 20.0),
        "no ssthresh cut when idle"
    );
    assert_eq!((c.cwnd(), c.ssthresh()), (9.0, 20.0));
}

/// NewReno's partial deflation (tcp-spec §6) is floored at `min_cwnd` by the window policy;
/// RFC 6582's exit sets min(ssthresh, FlightSize + 1).
#[test]
fn deflation_floors_at_min_cwnd_and_exit_to_flight() {
    let c = conn(TcpVariant::NewReno, 5.0, 5.0);
    let w = WindowPolicy::for_config(c.cfg());
    assert_eq!(w.deflate(&c, 3.0).cwnd, 2.0);
    assert_eq!(w.deflate(&c, 4.5).cwnd, 1.0, "floor: ns-2 1");
    let mut low = cfg(TcpVariant::NewReno);
    low.min_cwnd = 0.25;
    let mut c2 = Conn::new(low, SimTime::ZERO);
    c2.warp_outstanding(20, 31, 5.0, 5.0);
    assert_eq!(w.deflate(&c2, 4.5).cwnd, 0.5);
    assert_eq!(w.deflate(&c2, 6.0).cwnd, 0.25);
    assert_eq!(w.exit_to_flight(&c, 3).cwnd, 3.0);
    assert_eq!(w.exit_to_flight(&c, 8).cwnd, 5.0);
}

/// tcp-spec §12 T6 fast retransmit as a decision: on the first duplicate, with 21 expired and
/// sent once, Vegas asks for cwnd win − floor(win/4) + dupacks = 8 + 1 = 9, ssthresh kept, and a
/// retransmission of 21 that opens a reaction, backs off the coarse timer and holds dupacks at
/// the threshold; dupacks, recover and the last action are still untouched.
#[test]
fn vegas_duplicate_is_claimed_with_a_retransmit_decision() {
    let mut r = Run::new(cfg(TcpVariant::Vegas));
    r.s.conn_mut().warp(20, 10.0, 2.0);
    r.s.window_policy_mut()
        .vegas_mut()
        .expect("Vegas")
        .prime(0.1, 31);
    assert_eq!(r.start(1_000), seqs(21..=30));
    r.s.conn_mut().count_dup_ack();
    let (c, w) = r.s.conn_and_window_mut();
    let d = w.on_dup_ack(c, ms(1_200));
    assert_eq!(
        d,
        DupAckDecision::Claimed(WindowDecision {
            cwnd: 9.0,
            ssthresh: 2.0,
            retransmit: Some(Retransmit {
                seq: 21,
                opens_reaction: true,
                backs_off_timer: true,
                hold_dupacks: DupacksHold::AfterResend,
            }),
        })
    );
    let c = r.s.conn();
    assert_eq!((c.dupacks(), c.recover(), c.cwnd()), (1, 0, 10.0));
    assert_eq!(c.last_cwnd_action(), CwndAction::None);
}

/// AIMD never claims a duplicate: the recovery policy's own rules apply.
#[test]
fn aimd_passes_duplicates_to_recovery() {
    let c = conn(TcpVariant::Reno, 10.0, 10.0);
    let mut w = WindowPolicy::for_config(c.cfg());
    assert_eq!(w.on_dup_ack(&c, ms(0)), DupAckDecision::Pass);
}
