//! What the recovery policy tells a window policy at its hooks, and what the policy answers to
//! a duplicate ACK. The window itself is answered with a [`WindowDecision`], which sits below
//! the connection in `congestion` because the connection applies it.

use crate::tcp::congestion::{Slowdown, WindowDecision};
use crate::tcp::conn::Conn;
use crate::tcp::segment::Seq;

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
            prev_last_ack: c.last_ack(),
            prev_dupacks: c.dupacks(),
        }
    }
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
    /// ECN (`crate::tcp::ecn`): ns-2 `slowdown` with these flags, for an ECN-Echo
    /// (`HalveBoth`) or a loss in the window an ECN-Echo already halved (`CwndOne`).
    Ecn(Slowdown),
}

/// The answer to a duplicate ACK.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum DupAckDecision {
    /// The recovery policy applies its own rules (threshold, Limited Transmit, inflation).
    Pass,
    /// The window policy takes the duplicate over entirely (ns-2 Vegas: its own detection and
    /// inflation, no Limited Transmit); the recovery applies this decision and nothing else.
    Claimed(WindowDecision),
}
