//! What a window policy answers to a duplicate ACK. The window itself is answered with a
//! [`WindowDecision`], which sits below the connection in `congestion` because the connection
//! applies it.

use crate::tcp::congestion::WindowDecision;

/// The answer to a duplicate ACK.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum DupAckDecision {
    /// The recovery policy applies its own rules (threshold, Limited Transmit, inflation).
    Pass,
    /// The window policy takes the duplicate over entirely (ns-2 Vegas: its own detection and
    /// inflation, no Limited Transmit); the recovery applies this decision and nothing else.
    Claimed(WindowDecision),
}
