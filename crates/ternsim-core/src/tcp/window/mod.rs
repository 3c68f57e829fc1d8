//! Window policies: how cwnd and ssthresh move, composed with a loss-recovery policy
//! (`super::recovery`) inside the one sender.
//!
//! A policy is called at these moments (the hooks), each with the shared [`Conn`] so it can
//! read the sequence space and, where its algorithm says so, act on it:
//! - [`WindowPolicy::on_ack_received`]: every arriving ACK, before recovery looks at it (sees
//!   the whole [`AckSegment`], flags included: Demo-Vegas re-measures BaseRTT on SIG_ECHO).
//! - [`WindowPolicy::on_new_ack`]: after the recovery advanced the cumulative ACK, told whether
//!   it was an ordinary new ACK, a partial ACK inside recovery or the ACK that ends recovery,
//!   and what `last_ack`/`dupacks` were before it (Vegas deflates on the latter).
//! - [`WindowPolicy::on_dup_ack`]: after the recovery counted a duplicate ACK; returning
//!   [`DupAckVerdict::Claimed`] takes the duplicate over entirely (Vegas retransmits on the
//!   first expired duplicate, inflates cwnd itself and has no Limited Transmit).
//! - [`WindowPolicy::on_loss`]: the recovery decided to fast-retransmit or the timer expired;
//!   the policy sets ssthresh and cwnd.
//! - [`WindowPolicy::timer_deadline`] / [`WindowPolicy::on_timer`]: a policy-owned timer that
//!   the sender folds into `next_timer()` (Vegas-W's rate-control timer).
//!
//! Policies: [`aimd`] (ns-2 `opencwnd`, with `increase_num` for FeW) and [`vegas`] (ns-2
//! `Agent/TCP/Vegas`).

pub mod aimd;
pub mod vegas;

use super::config::{TcpConfig, TcpVariant};
use super::conn::{Conn, Slowdown};
use super::output::TcpOutput;
use super::segment::{AckSegment, Seq};
use crate::sim::SimTime;

pub use aimd::Aimd;
pub use vegas::Vegas;

/// Which kind of cumulative-ACK advance the recovery policy reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AckKind {
    /// Outside recovery, or the ACK that ends Reno/NewReno recovery (ns-2 `recv_newack_helper`:
    /// the window opens).
    Normal,
    /// NewReno or Sack1 partial ACK: recovery continues, the window does not open.
    Partial,
    /// The ACK that ends Sack1 recovery (ns-2 `newack` without `opencwnd`).
    RecoveryExit,
}

/// A cumulative-ACK advance, with the state just before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NewAck {
    pub ack: Seq,
    pub kind: AckKind,
    /// `last_ack` before this ACK.
    pub prev_last_ack: Seq,
    /// `dupacks` before this ACK reset it.
    pub prev_dupacks: u32,
}

impl NewAck {
    /// The advance to `ack`, taken from the connection state before it is applied.
    pub fn before(c: &Conn, ack: Seq, kind: AckKind) -> Self {
        NewAck {
            ack,
            kind,
            prev_last_ack: c.last_ack,
            prev_dupacks: c.dupacks,
        }
    }
}

/// Whether the window policy handled a duplicate ACK itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DupAckVerdict {
    /// The recovery policy applies its own rules (threshold, Limited Transmit, inflation).
    Pass,
    /// The window policy did everything this duplicate calls for.
    Claimed,
}

/// A loss reaction the recovery policy asks the window policy to size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LossEvent {
    /// Fast retransmit: ns-2 `slowdown` with the recovery's flags (Tahoe: cwnd to one;
    /// Reno, NewReno, Sack1: halve cwnd).
    FastRetransmit(Slowdown),
    /// Retransmission timeout with data outstanding (tcp-spec §2 "Retransmission timeout").
    Timeout,
    /// The timer expired with nothing outstanding (ns-2 slow-start restart after idle).
    IdleTimeout,
}

#[derive(Clone, Debug)]
pub enum WindowPolicy {
    Aimd(Aimd),
    Vegas(Vegas),
}

impl WindowPolicy {
    pub fn for_config(cfg: &TcpConfig) -> Self {
        match cfg.variant {
            TcpVariant::Tahoe | TcpVariant::Reno | TcpVariant::NewReno | TcpVariant::Sack => {
                WindowPolicy::Aimd(Aimd::new(cfg.increase_num))
            }
            TcpVariant::Vegas => WindowPolicy::Vegas(Vegas::new(cfg)),
        }
    }

    pub fn on_ack_received(&mut self, c: &mut Conn, now: SimTime, ack: &AckSegment) {
        match self {
            WindowPolicy::Aimd(_) => {}
            WindowPolicy::Vegas(v) => v.on_ack_received(c, now, ack),
        }
    }

    pub fn on_new_ack(&mut self, c: &mut Conn, now: SimTime, a: &NewAck, out: &mut TcpOutput) {
        match self {
            WindowPolicy::Aimd(p) => p.on_new_ack(c, a),
            WindowPolicy::Vegas(v) => v.on_new_ack(c, now, a, out),
        }
    }

    pub fn on_dup_ack(&mut self, c: &mut Conn, now: SimTime, out: &mut TcpOutput) -> DupAckVerdict {
        match self {
            WindowPolicy::Aimd(_) => DupAckVerdict::Pass,
            WindowPolicy::Vegas(v) => v.on_dup_ack(c, now, out),
        }
    }

    pub fn on_loss(&mut self, c: &mut Conn, now: SimTime, e: LossEvent) {
        match self {
            WindowPolicy::Aimd(p) => p.on_loss(c, e),
            WindowPolicy::Vegas(v) => v.on_loss(c, now, e),
        }
    }

    pub fn timer_deadline(&self) -> Option<SimTime> {
        match self {
            WindowPolicy::Aimd(_) | WindowPolicy::Vegas(_) => None,
        }
    }

    pub fn on_timer(&mut self, c: &mut Conn, now: SimTime, out: &mut TcpOutput) {
        let _ = (c, now, out);
        match self {
            WindowPolicy::Aimd(_) | WindowPolicy::Vegas(_) => {}
        }
    }
}
