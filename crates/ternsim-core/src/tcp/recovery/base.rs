//! What every recovery policy shares, as ns-2's `TcpAgent` base class does: the retransmission
//! timeout (tcp-spec §2), the one-reaction-per-window permission, and the three calls through
//! which a recovery policy lets the window policy size the window and the connection apply it.
//!
//! The policies (`tahoe`, `reno`, `newreno`, `sack1`) import this module, not `recovery`
//! itself, which dispatches to them.

use crate::sim::SimTime;
use crate::tcp::congestion::{CwndAction, Slowdown, WindowDecision};
use crate::tcp::conn::Conn;
use crate::tcp::output::{Ns2EventKind, TcpEvent, TcpOutput};
use crate::tcp::segment::Seq;
use crate::tcp::traced::TracedVar;
use crate::tcp::variant::WindowKind;
use crate::tcp::window::hooks::{AckKind, DupAckDecision, LossEvent, NewAck};
use crate::tcp::window::WindowPolicy;

/// tcp-spec §2 "Retransmission timeout" (ns-2 `TcpAgent::timeout`): with data outstanding,
/// `recover = maxseq`, the window policy sizes ssthresh and cwnd, the timer backs off and
/// restarts, timing stops and sending goes back to `highest_ack + 1`. With nothing
/// outstanding (idle, or a window stalled at 0) the policy restarts the window without an
/// ssthresh cut and the timer restarts without backoff.
///
/// Event trace: `TcpAgent::timeout` writes TIMEOUT first, then its `slowdown` SLOW_START
/// (see [`loss_window`]). ns-2 Vegas's own `timeout()` writes no TIMEOUT; it goes back N
/// first and then calls `slowdown`, which sets cwnd to `wnd_restart_` (1) and writes
/// SLOW_START with that window before Vegas raises it to `v_slowstart_`.
///
/// ECN (ns-2 `TcpAgent::timeout`): a window an ECN-Echo left below one packet counts as one
/// first; a timeout in the window an ECN-Echo halved (`last_cwnd_action_` ECN with data
/// outstanding) sets cwnd to 1 and keeps ssthresh, and is not counted in `nrexmit_`.
pub fn base_timeout(c: &mut Conn, w: &mut WindowPolicy, now: SimTime, out: &mut TcpOutput) {
    let aimd = aimd_slowdown(c);
    let outstanding = c.data_outstanding();
    let after_ecn = outstanding && c.last_cwnd_action() == CwndAction::Ecn;
    if !aimd {
        // ns-2 Vegas's own `timeout()` backs off and goes back N before anything else (a
        // traced `backoff_` and `t_seqno_` change before `nrexmit_`); nothing it does next
        // reads `t_seqno_` or the timer.
        c.reset_rtx_timer(now, false, outstanding, out);
        c.trace_checkpoint(out);
    }
    // ns-2's `TcpAgent::timeout` counts `nrexmit_` only with data outstanding: an idle
    // restart is no loss (an FTP stopped at 1.5 s restarts its window at about 1.8 s with
    // `nrexmit_` unchanged, measured against ns-2.35). Vegas's own `timeout()` counts every
    // expiry.
    if (outstanding && !after_ecn) || !aimd {
        c.count_timeout();
    }
    out.event(TcpEvent::Timeout {
        seq: c.highest_ack() + 1,
    });
    if aimd {
        c.trace_ns2_event(Ns2EventKind::Timeout, out);
    }
    if c.cfg().ecn && c.cwnd() < 1.0 {
        let d = WindowDecision {
            cwnd: 1.0,
            ..WindowDecision::hold(c.congestion())
        };
        c.apply_window(&d, now, out);
    }
    if !outstanding && aimd && !c.cfg().slow_start_restart {
        // ns-2 `slow_start_restart_` false: nothing outstanding, nothing done but the timer
        // restart and `last_cwnd_action_ = TIMEOUT` (`recover_` stays).
        c.reset_rtx_timer(now, false, false, out);
        c.note_cwnd_action(CwndAction::Timeout);
    } else if !outstanding {
        // ns-2 `recover_ = maxseq_`, `slowdown(CLOSE_CWND_ONE | NO_OUTSTANDING_DATA)`,
        // `reset_rtx_timer(0, 0)`, then `last_cwnd_action_ = TIMEOUT` (which the next
        // reaction reads: an ECN-Echo is answered after a timeout whatever `recover_`).
        if aimd {
            c.open_loss_reaction(CwndAction::Timeout);
        }
        loss_window(c, w, now, LossEvent::IdleTimeout, out);
        if aimd {
            c.reset_rtx_timer(now, false, false, out);
        }
    } else {
        c.open_loss_reaction(CwndAction::Timeout);
        // tcp-spec §2: the SYN itself timed out → windowInit_ drops to 1 (not in ns-2 Vegas,
        // whose own timeout() lacks the rule: the variant table says which).
        if c.highest_ack() == -1
            && c.cfg().syn
            && c.cfg().variant.spec().syn_timeout_resets_window_init
        {
            c.syn_timed_out();
        }
        let e = if after_ecn {
            LossEvent::Ecn(Slowdown::CwndOne)
        } else {
            LossEvent::Timeout
        };
        loss_window(c, w, now, e, out);
        if aimd {
            c.reset_rtx_timer(now, false, true, out);
        }
    }
    if !aimd {
        out.ns2_event(Ns2EventKind::SlowStart, c.t_seqno(), 1.0);
    }
    c.send_much(now, c.cfg().max_burst, out);
}

/// Whether loss reactions are ns-2 `TcpAgent::slowdown` calls (every window policy but the
/// Vegas family, whose only `slowdown` is the one of its timeout).
fn aimd_slowdown(c: &Conn) -> bool {
    c.cfg().variant.spec().window == WindowKind::Aimd
}

/// A cumulative-ACK advance (already applied to `c` by the recovery): the window policy
/// sizes the window, the connection applies it (and any retransmission it asks for).
pub fn new_ack_window(
    c: &mut Conn,
    w: &mut WindowPolicy,
    now: SimTime,
    info: &NewAck,
    out: &mut TcpOutput,
) {
    // ns-2 opens the window on the ACK of packet 0 (`opencwnd`) and then sets it to
    // `initial_window()` (`delay_growth_`): a traced cwnd_ shows both values.
    // ns-2 `control_increase_`: the window opens only while it limits the sender.
    let opens = !c.cfg().control_increase || c.network_limited();
    if opens && info.ack == 0 && info.kind == AckKind::Normal && c.cfg().delay_growth {
        if let Some(a) = w.aimd() {
            let opened = a.opencwnd(c);
            c.trace_transient(TracedVar::Cwnd, opened);
        }
    }
    // ns-2 `recv_newack_helper`: an ECN-Echo ACK from an ECN-capable peer does not open
    // the window (`crate::tcp::ecn`); the ACK of packet 0 still sets the initial window.
    let d = if info.kind == AckKind::Normal && (!opens || !c.ecn().opens_window(c.cfg().old_ecn)) {
        let mut d = WindowDecision::hold(c.congestion());
        if info.ack == 0 && c.cfg().delay_growth {
            d.cwnd = c.window_init();
        }
        d
    } else {
        w.on_new_ack(c, now, info)
    };
    // ns-2 Vegas clears the acknowledged send slots after reading them, before the
    // retransmission its check may send (a no-op without the Vegas send ring).
    c.clear_acked_send_slots(info.prev_last_ack, info.ack);
    c.apply_window(&d, now, out);
    if info.kind == AckKind::Normal {
        c.ecn_after_new_ack();
    }
}

/// Offer a counted duplicate ACK to the window policy. True if it passed, so the recovery's
/// own duplicate rules apply; a claimed duplicate's decision is applied here.
pub fn dup_ack_passed(
    c: &mut Conn,
    w: &mut WindowPolicy,
    now: SimTime,
    out: &mut TcpOutput,
) -> bool {
    match w.on_dup_ack(c, now) {
        DupAckDecision::Pass => true,
        DupAckDecision::Claimed(d) => {
            c.apply_window(&d, now, out);
            false
        }
    }
}

/// The window policy sizes a loss reaction; the connection applies it.
pub fn loss_window(
    c: &mut Conn,
    w: &mut WindowPolicy,
    now: SimTime,
    e: LossEvent,
    out: &mut TcpOutput,
) {
    // ns-2 `slowdown` is "in slow start" when it starts with cwnd below ssthresh.
    let slow_start = c.cwnd() < c.ssthresh();
    // Every AIMD loss reaction is a `slowdown` call; the Vegas family's only one is in its
    // timeout (idle or not), where `slowdown` restarts cwnd at 1 before Vegas raises it.
    // `halved` is the ssthresh `slowdown` assigns before raising it to 2 (half the window,
    // or `decreasewin` for a later cut with another `decrease_num_`), read before the
    // decision changes anything.
    let slowdown = match e {
        LossEvent::FastRetransmit(how) | LossEvent::Ecn(how) if aimd_slowdown(c) => {
            Some((c.slowdown_ssthresh(how), how))
        }
        LossEvent::FastRetransmit(_) | LossEvent::Ecn(_) => None,
        LossEvent::IdleTimeout if aimd_slowdown(c) => Some((None, Slowdown::HalveSsthreshRestart)),
        LossEvent::Timeout | LossEvent::IdleTimeout => {
            let how = Slowdown::HalveSsthreshRestart;
            Some((c.slowdown_ssthresh(how), how))
        }
    };
    if let Some((halved, how)) = slowdown {
        // ns-2's `slowdown` restarts at `wnd_restart_` (1); the Vegas family's `min_cwnd`
        // is its `v_slowstart_`, set after `slowdown`.
        let slowdown_cwnd = if aimd_slowdown(c) {
            c.slowdown(how).cwnd
        } else {
            1.0
        };
        c.note_slowdown(halved, slowdown_cwnd);
    }
    let d = w.on_loss(c, now, e);
    // Every loss reaction is an ns-2 `slowdown()` that closes cwnd; mark before the
    // decision's own retransmission goes out so that it carries the flag.
    c.note_window_cut();
    c.apply_window(&d, now, out);
    if slowdown.is_some() {
        c.note_decrease();
    }
    // Event trace: `slowdown` ends by writing SLOW_START when it left cwnd at 1 or was
    // called in slow start (tcp/tcp.cc).
    if aimd_slowdown(c) && (c.cwnd() == 1.0 || slow_start) {
        c.trace_ns2_event(Ns2EventKind::SlowStart, out);
    }
}

/// ns-2 `dupack_action` permission shared by all variants: a new window of data since the
/// last reaction (`highest_ack > recover`, bugFix_), or the first data packet was lost
/// (`bugfix_ss_ && highest_ack == 0`); always without `bugFix_` and ECN (`!bug_fix_ &&
/// !ecn_`).
pub fn new_window(c: &Conn) -> bool {
    (!c.cfg().bug_fix && !c.cfg().ecn)
        || c.highest_ack() > c.recover()
        || (c.cfg().bugfix_ss && c.highest_ack() == 0)
}

/// What ns-2 `dupack_action` does at the duplicate-ACK threshold when [`new_window`] did not
/// allow a reaction (the Tahoe, Reno, NewReno and Sack1 truth tables of `tcp/*.cc`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RepeatReaction {
    /// The window was halved by an ECN-Echo: the policy's ECN branch (retransmit, no cut).
    AfterEcn,
    /// `bugFix_`: nothing, one reaction per window.
    Refused,
    /// Without `bugFix_` (but with ECN): the ordinary reaction.
    Allowed,
}

/// The ns-2 `dupack_action` step after [`new_window`] said no (and the policy's own
/// permissions, checked first, also did): ECN's branch, then `bugFix_`.
pub fn repeat_reaction(c: &Conn) -> RepeatReaction {
    if c.cfg().ecn && c.last_cwnd_action() == CwndAction::Ecn {
        RepeatReaction::AfterEcn
    } else if c.cfg().bug_fix {
        RepeatReaction::Refused
    } else {
        RepeatReaction::Allowed
    }
}

/// An ACK carrying ECN-Echo, before anything else is done with it (ns-2 `TcpAgent::ecn`,
/// called at the top of every variant's `recv` when `ecn_` is on; RFC 3168 §6.1.2): once
/// per window of data (the ACK is above `recover`, or the last reaction was a timeout),
/// halve ssthresh and cwnd as a fast retransmit would, without retransmitting.
pub fn ecn_echo(c: &mut Conn, w: &mut WindowPolicy, now: SimTime, ack: Seq, out: &mut TcpOutput) {
    if ack > c.recover() || c.last_cwnd_action() == CwndAction::Timeout {
        c.open_ecn_reaction(out);
        loss_window(c, w, now, LossEvent::Ecn(Slowdown::HalveBoth), out);
    }
}
