//! ns-2's event trace (`$ns eventtrace-all`, ns-2 `TcpAgent::trace_event`): which moments each
//! variant writes, and the `t_seqno_` and `int(cwnd_)` it prints then. Hand-worked from the
//! ns-2.35 sources (tcp.cc `timeout`, `slowdown`, `dupack_action`; tcp-reno.cc,
//! tcp-newreno.cc, tcp-sack1.cc `dupack_action`, NewReno `recv`).

use super::*;
use crate::tcp::output::{Ns2Event, Ns2EventKind};

use Ns2EventKind::*;

/// CA with cwnd 10 and the given ssthresh, 21..30 outstanding (`t_seqno` 31), with
/// event-trace moments recorded.
fn traced(variant: TcpVariant, ssthresh: f64) -> Run {
    let mut c = cfg(variant);
    c.window = 100;
    let mut r = Run::at_state(c, 20, 10.0, ssthresh, 0);
    r.out.ns2_event_trace = true;
    r
}

fn ev(kind: Ns2EventKind, t_seqno: Seq, cwnd: i64, before_segment: usize) -> Ns2Event {
    Ns2Event {
        kind,
        t_seqno,
        cwnd,
        before_segment,
    }
}

/// Reno: the first two duplicates send 31 and 32 (Limited Transmit, `t_seqno` 33); the third
/// writes RENO_FAST_RETX with cwnd 10 before halving (10 >= ssthresh: no SLOW_START) and
/// before the retransmission of 21. Further duplicates write nothing. The timeout writes
/// TIMEOUT with the halved window, then its `slowdown` SLOW_START with cwnd 1, both before
/// `t_seqno` goes back to 21 and before 21 is resent.
#[test]
fn reno_fast_retransmit_then_timeout() {
    let mut r = traced(TcpVariant::Reno, 10.0);
    assert_eq!(r.ack(100, 20), vec![31]);
    assert_eq!(r.ack(110, 20), vec![32]);
    assert!(r.out.ns2_events.is_empty());
    assert_eq!(r.ack(120, 20), vec![21]);
    assert_eq!(r.out.ns2_events, vec![ev(RenoFastRetx, 33, 10, 0)]);
    assert_eq!(r.cwnd(), 5.0);
    r.ack(130, 20);
    assert!(r.out.ns2_events.is_empty());
    assert_eq!(r.fire(), vec![21]);
    assert_eq!(
        r.out.ns2_events,
        vec![ev(Timeout, 33, 5, 0), ev(SlowStart, 33, 1, 0)]
    );
}

/// A fast retransmit in slow start (cwnd 10 < ssthresh 20): `slowdown` also writes
/// SLOW_START, with the halved window.
#[test]
fn a_window_cut_in_slow_start_writes_slow_start() {
    let mut r = traced(TcpVariant::Reno, 20.0);
    r.ack(100, 20);
    r.ack(110, 20);
    assert_eq!(r.ack(120, 20), vec![21]);
    assert_eq!(
        r.out.ns2_events,
        vec![ev(RenoFastRetx, 33, 10, 0), ev(SlowStart, 33, 5, 0)]
    );
}

/// Tahoe: FAST_RETX, then SLOW_START with cwnd 1 and the `t_seqno_` before go-back-N.
#[test]
fn tahoe_fast_retransmit_slow_starts() {
    let mut r = traced(TcpVariant::Tahoe, 10.0);
    r.ack(100, 20);
    r.ack(110, 20);
    assert_eq!(r.ack(120, 20), vec![21]);
    assert_eq!(
        r.out.ns2_events,
        vec![ev(FastRetx, 33, 10, 0), ev(SlowStart, 33, 1, 0)]
    );
}

/// NewReno: NEWRENO_FAST_RETX, then NEWRENO_FAST_RECOVERY for each further duplicate (before
/// the inflation it counts).
#[test]
fn newreno_fast_retransmit_and_recovery() {
    let mut r = traced(TcpVariant::NewReno, 10.0);
    r.ack(100, 20);
    r.ack(110, 20);
    assert_eq!(r.ack(120, 20), vec![21]);
    assert_eq!(r.out.ns2_events, vec![ev(NewRenoFastRetx, 33, 10, 0)]);
    assert_eq!(r.ack(130, 20), Vec::<Seq>::new());
    assert_eq!(r.out.ns2_events, vec![ev(NewRenoFastRecovery, 33, 5, 0)]);
}

/// Sack1: FAST_RECOVERY before the window is halved and 21 resent.
#[test]
fn sack1_fast_recovery() {
    let mut r = traced(TcpVariant::Sack, 10.0);
    assert_eq!(r.ack_sack(100, 20, &[(22, 23)]), vec![31]);
    assert_eq!(r.ack_sack(110, 20, &[(22, 24)]), vec![32]);
    assert_eq!(r.ack_sack(120, 20, &[(22, 25)]), vec![21]);
    assert_eq!(r.out.ns2_events, vec![ev(FastRecovery, 33, 10, 0)]);
}

/// Without the event trace asked for, nothing is recorded.
#[test]
fn nothing_is_recorded_unless_asked() {
    let mut r = traced(TcpVariant::Reno, 10.0);
    r.out.ns2_event_trace = false;
    r.ack(100, 20);
    r.ack(110, 20);
    r.ack(120, 20);
    r.fire();
    assert!(r.out.ns2_events.is_empty());
}

/// Tahoe with `noFastRetrans_`: the third duplicate changes nothing (Limited Transmit sent
/// 31 and 32 on the first two); the loss waits for the timer, which writes TIMEOUT with the
/// whole window, then SLOW_START with cwnd 1.
#[test]
fn tahoe_without_fast_retransmit_times_out() {
    let mut c = cfg(TcpVariant::Tahoe);
    c.window = 100;
    c.no_fast_retrans = true;
    let mut r = Run::at_state(c, 20, 10.0, 10.0, 0);
    r.out.ns2_event_trace = true;
    assert_eq!(r.ack(100, 20), vec![31]);
    assert_eq!(r.ack(110, 20), vec![32]);
    assert_eq!(r.ack(120, 20), Vec::<Seq>::new());
    assert_eq!(r.ack(130, 20), Vec::<Seq>::new());
    assert!(r.out.ns2_events.is_empty());
    assert_eq!((r.cwnd(), r.s.stats().fast_retransmits), (10.0, 0));
    assert_eq!(r.fire(), vec![21]);
    assert_eq!(
        r.out.ns2_events,
        vec![ev(Timeout, 33, 10, 0), ev(SlowStart, 33, 1, 0)]
    );
}
