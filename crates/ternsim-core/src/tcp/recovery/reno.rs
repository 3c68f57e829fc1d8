//! Reno recovery, ns-2 `Agent/TCP/Reno` (tcp-spec §5; RFC 5681 §3.2 with ns-2's differences):
//! fast recovery inflates a separate `dupwnd` (usable window `floor(cwnd) + dupwnd`), any new
//! ACK deflates it and ends recovery, and a second fast retransmit in the same window is
//! refused (bugFix_), so two losses in one window usually end in a timeout.

use super::base::{
    dup_ack_passed, loss_window, new_ack_window, new_window, repeat_reaction, RepeatReaction,
};
use crate::sim::SimTime;
use crate::tcp::congestion::{CwndAction, Slowdown, WindowDecision};
use crate::tcp::conn::Conn;
use crate::tcp::output::{Ns2EventKind, TcpOutput};
use crate::tcp::segment::Seq;
use crate::tcp::traced::TracedVar;
use crate::tcp::variant::RecoveryKind;
use crate::tcp::window::hooks::{AckKind, LossEvent, NewAck};
use crate::tcp::window::WindowPolicy;

pub fn on_ack(c: &mut Conn, w: &mut WindowPolicy, now: SimTime, a: Seq, out: &mut TcpOutput) {
    if a > c.last_ack() {
        // §5 "New ACK": leave recovery (EXITED; ns-2.26 keeps DUPACK, which lets the next
        // 3rd duplicate fast-retransmit again), deflate.
        if c.last_cwnd_action() == CwndAction::DupAck && c.cfg().exit_on_new_ack {
            c.exit_fast_recovery();
        }
        c.set_inflation(0);
        let info = NewAck::before(c, a, AckKind::Normal);
        // ns-2 Vegas sizes the window's start (tcp-spec §9.2 steps 1-2) before its
        // `newack`: a traced cwnd_ or ssthresh_ changes before ack_. `newack` reads neither.
        if let Some(d) = w.vegas_before_newack(c, &info) {
            if d != WindowDecision::hold(c.congestion()) {
                // The deflation assigns cwnd_ before ssthresh_.
                c.trace_transient(TracedVar::Cwnd, d.cwnd);
                c.apply_window(&d, now, out);
            }
        }
        c.newack(now, a, out);
        new_ack_window(c, w, now, &info, out);
    } else if a == c.last_ack() {
        c.count_dup_ack();
        if dup_ack_passed(c, w, now, out) {
            let action = if allowed(c) {
                Threshold::React
            } else {
                Threshold::after_refusal(c, false)
            };
            on_dup_ack(c, w, now, out, action);
        }
    }
    send(c, now, out);
}

/// §5 `dupack_action` permission: a new window, or still in the DUPACK phase.
fn allowed(c: &Conn) -> bool {
    new_window(c) || c.last_cwnd_action() == CwndAction::DupAck
}

/// What the duplicate ACK that reaches the threshold does (ns-2 Reno and NewReno
/// `dupack_action`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Threshold {
    /// Fast retransmit and fast recovery.
    React,
    /// The window an ECN-Echo halved: retransmit and recover without another cut.
    AfterEcn,
    /// One reaction per window (bugFix_).
    Nothing,
}

impl Threshold {
    /// The action once the policy's own permissions said no: ECN's branch first, then
    /// `bugFix_`, whose refusal `bug_fix_exception` (NewReno's `bugFix_ts_`/`bugFix_ack_`
    /// tests) may overrule.
    pub fn after_refusal(c: &Conn, bug_fix_exception: bool) -> Self {
        match repeat_reaction(c) {
            RepeatReaction::AfterEcn => Threshold::AfterEcn,
            RepeatReaction::Allowed => Threshold::React,
            RepeatReaction::Refused if bug_fix_exception => Threshold::React,
            RepeatReaction::Refused => Threshold::Nothing,
        }
    }
}

/// §5 "Dup ACK", shared with NewReno (which differs only in its permissions).
pub fn on_dup_ack(
    c: &mut Conn,
    w: &mut WindowPolicy,
    now: SimTime,
    out: &mut TcpOutput,
    action: Threshold,
) {
    let thresh = c.cfg().dupack_threshold;
    let exit_fast_retrans = c.cfg().exit_fast_retrans;
    if c.dupacks() == thresh {
        match action {
            Threshold::React => dupack_action(c, w, now, out),
            Threshold::AfterEcn => ecn_dupack_action(c, now, out),
            Threshold::Nothing => {}
        }
        // Without exitFastRetrans_ (ns-2.26, or set false): dupwnd_ = 3 even when refused.
        if !exit_fast_retrans {
            c.set_inflation(thresh as i64);
        }
    } else if c.dupacks() > thresh
        && (!exit_fast_retrans || c.last_cwnd_action() == CwndAction::DupAck)
    {
        // Fast recovery: inflate by one per further duplicate. ns-2 NewReno's `recv` writes
        // NEWRENO_FAST_RECOVERY first (Reno writes nothing).
        if newreno(c) {
            c.trace_ns2_event(Ns2EventKind::NewRenoFastRecovery, out);
        }
        c.inflate_one();
    } else if c.dupacks() < thresh && c.cfg().limited_transmit {
        c.send_one(now, out);
    }
}

/// §5 `dupack_action`: halve ssthresh and cwnd, restart the timer without backoff, resend
/// the hole, inflate by the three duplicates.
fn dupack_action(c: &mut Conn, w: &mut WindowPolicy, now: SimTime, out: &mut TcpOutput) {
    // Event trace: before the window changes (ns-2 Reno and NewReno `dupack_action`; NewReno
    // restarts the timer first, which changes neither `t_seqno_` nor cwnd).
    let kind = if newreno(c) {
        Ns2EventKind::NewRenoFastRetx
    } else {
        Ns2EventKind::RenoFastRetx
    };
    c.trace_ns2_event(kind, out);
    c.open_loss_reaction(CwndAction::DupAck);
    loss_window(
        c,
        w,
        now,
        LossEvent::FastRetransmit(Slowdown::HalveBoth),
        out,
    );
    c.reset_rtx_timer(now, true, false, out);
    c.fast_retransmit(c.last_ack() + 1, now, out);
    c.set_inflation(c.cfg().dupack_threshold as i64);
}

/// The ECN branch of ns-2 Reno and NewReno `dupack_action`: the window an ECN-Echo halved
/// is not cut again; `last_cwnd_action_` becomes DUPACK (so recovery proceeds as after a
/// fast retransmit), the timer restarts without backoff, the hole is resent and the window
/// inflated by the three duplicates. No event-trace line.
fn ecn_dupack_action(c: &mut Conn, now: SimTime, out: &mut TcpOutput) {
    c.note_cwnd_action(CwndAction::DupAck);
    c.reset_rtx_timer(now, true, false, out);
    c.fast_retransmit(c.last_ack() + 1, now, out);
    c.set_inflation(c.cfg().dupack_threshold as i64);
}

/// The duplicate ACKs are NewReno's (which shares them with Reno but names its events).
fn newreno(c: &Conn) -> bool {
    c.cfg().variant.spec().recovery == RecoveryKind::NewReno
}

/// §5: send only when `dupacks_ == 0` or `dupacks_ >= 3`.
pub fn send(c: &mut Conn, now: SimTime, out: &mut TcpOutput) {
    if c.dupacks() == 0 || c.dupacks() >= c.cfg().dupack_threshold {
        c.send_much(now, c.cfg().max_burst, out);
    }
}
