//! Loss-recovery policies: how duplicate and partial ACKs are read, when to fast-retransmit,
//! how recovery ends and what is sent per ACK. Each composes with any window policy
//! (`super::window`), which sizes every loss reaction and may claim duplicate ACKs.
//!
//! - [`tahoe`]: ns-2 `Agent/TCP` (tcp-spec §4): fast retransmit, then slow start (go-back-N).
//! - [`reno`]: ns-2 `Agent/TCP/Reno` (§5): fast recovery with `dupwnd`, one reaction per window.
//! - [`newreno`]: ns-2 `Agent/TCP/Newreno` (§6, RFC 6582): partial ACKs keep recovery going.
//! - [`sack1`]: ns-2 `Agent/TCP/Sack1` (§7.3): Fall and Floyd's scoreboard with ns-2's
//!   decrement-per-ACK **pipe counter** (not RFC 6675's SetPipe), in [`scoreboard`].
//!
//! All share the base timeout of [`base_timeout`] (tcp-spec §2). Window changes go through
//! the window policy: the helpers [`new_ack_window`], [`dup_ack_passed`] and [`loss_window`]
//! ask it and apply its decision with `Conn::apply_window`; recovery writes only its own state
//! (`dupacks`, `dupwnd`, `recover`, `last_cwnd_action`) through named `Conn` steps.

pub mod newreno;
pub mod reno;
pub mod sack1;
pub mod scoreboard;
pub mod tahoe;

use super::config::TcpConfig;
use super::congestion::CwndAction;
use super::conn::Conn;
use super::output::{TcpEvent, TcpOutput};
use super::segment::AckSegment;
use super::variant::RecoveryKind;
use super::window::{DupAckDecision, LossEvent, NewAck, WindowPolicy};
use crate::sim::SimTime;

pub use newreno::NewReno;
pub use sack1::Sack1;

#[derive(Clone, Debug)]
pub enum Recovery {
    Tahoe,
    Reno,
    NewReno(NewReno),
    Sack1(Sack1),
}

impl Recovery {
    /// The recovery policy the variant table names for `cfg.variant`.
    pub fn for_config(cfg: &TcpConfig) -> Self {
        match cfg.variant.spec().recovery {
            RecoveryKind::Tahoe => Recovery::Tahoe,
            RecoveryKind::Reno => Recovery::Reno,
            RecoveryKind::NewReno => Recovery::NewReno(NewReno::default()),
            RecoveryKind::Sack1 => Recovery::Sack1(Sack1::default()),
        }
    }

    /// Process one ACK and send what it allows.
    pub fn on_ack(
        &mut self,
        c: &mut Conn,
        w: &mut WindowPolicy,
        now: SimTime,
        ack: &AckSegment,
        out: &mut TcpOutput,
    ) {
        match self {
            Recovery::Tahoe => tahoe::on_ack(c, w, now, ack.ack, out),
            Recovery::Reno => reno::on_ack(c, w, now, ack.ack, out),
            Recovery::NewReno(r) => r.on_ack(c, w, now, ack.ack, out),
            Recovery::Sack1(r) => r.on_ack(c, w, now, ack, out),
        }
    }

    /// The retransmission timer expired.
    pub fn on_timeout(
        &mut self,
        c: &mut Conn,
        w: &mut WindowPolicy,
        now: SimTime,
        out: &mut TcpOutput,
    ) {
        match self {
            Recovery::Tahoe => {}
            // tcp-spec §5 "Timeout": dupwnd_ = 0, dupacks_ = 0, recover_ = maxseq_.
            Recovery::Reno | Recovery::NewReno(_) => {
                c.set_inflation(0);
                c.forget_dup_acks();
                c.move_recover_to_maxseq();
            }
            Recovery::Sack1(r) => r.on_timeout(c),
        }
        base_timeout(c, w, now, out);
    }

    /// Send what the current state allows (after a window-policy timer changed cwnd).
    pub fn send(&mut self, c: &mut Conn, now: SimTime, out: &mut TcpOutput) {
        match self {
            Recovery::Tahoe => c.send_much(now, c.cfg().max_burst, out),
            Recovery::Reno => reno::send(c, now, out),
            Recovery::NewReno(_) => newreno::send(c, now, out),
            Recovery::Sack1(r) => r.send(c, now, out),
        }
    }
}

/// tcp-spec §2 "Retransmission timeout" (ns-2 `TcpAgent::timeout`): with data outstanding,
/// `recover = maxseq`, the window policy sizes ssthresh and cwnd, the timer backs off and
/// restarts, timing stops and sending goes back to `highest_ack + 1`. With nothing
/// outstanding (idle, or a window stalled at 0) the policy restarts the window without an
/// ssthresh cut and the timer restarts without backoff.
pub fn base_timeout(c: &mut Conn, w: &mut WindowPolicy, now: SimTime, out: &mut TcpOutput) {
    c.count_timeout();
    out.event(TcpEvent::Timeout {
        seq: c.highest_ack() + 1,
    });
    if !c.data_outstanding() {
        // ns-2 `slowdown(CLOSE_CWND_ONE | NO_OUTSTANDING_DATA)` and `reset_rtx_timer(0, 0)`.
        loss_window(c, w, now, LossEvent::IdleTimeout, out);
        c.reset_rtx_timer(now, false, false, out);
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
        loss_window(c, w, now, LossEvent::Timeout, out);
        c.reset_rtx_timer(now, false, true, out);
    }
    c.send_much(now, c.cfg().max_burst, out);
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
    let d = w.on_new_ack(c, now, info);
    c.apply_window(&d, now, out);
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
    let d = w.on_loss(c, now, e);
    // Every loss reaction is an ns-2 `slowdown()` that closes cwnd; mark before the
    // decision's own retransmission goes out so that it carries the flag.
    c.note_window_cut();
    c.apply_window(&d, now, out);
}

/// ns-2 `dupack_action` permission shared by all variants: a new window of data since the
/// last reaction (`highest_ack > recover`, bugFix_), or the first data packet was lost
/// (`bugfix_ss_`: `highest_ack == 0`).
pub fn new_window(c: &Conn) -> bool {
    c.highest_ack() > c.recover() || c.highest_ack() == 0
}
