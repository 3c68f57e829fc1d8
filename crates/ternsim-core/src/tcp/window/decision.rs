//! What a window policy answers: decisions, not actions. The policy reads the connection and
//! says what the window should become and whether (and what) to retransmit; the connection
//! applies the answer through [`crate::tcp::conn::Conn::apply_window`], the one place where
//! cwnd and ssthresh change. This keeps recovery state (`dupacks`, `recover`,
//! `last_cwnd_action`) and output in the connection and the recovery policy (DESIGN 6).

use crate::tcp::conn::Conn;
use crate::tcp::segment::Seq;

/// A retransmission a window policy asks for (ns-2 Vegas's fine-grained checks, tcp-spec §9.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Retransmit {
    pub seq: Seq,
    /// Open a loss reaction first: `recover = maxseq`, `last_cwnd_action = DUPACK`, so the
    /// one-reaction-per-window rule (bugFix_) covers it.
    pub opens_reaction: bool,
    /// ns-2 `reset_rtx_timer(1, 1)` before resending: back off and restart the coarse timer
    /// and stop RTT timing, without go-back-N (Vegas quirk (i), tcp-spec §9.2).
    pub backs_off_timer: bool,
    /// Afterwards set `dupacks_` to the threshold, so that further duplicates inflate and the
    /// send rule (`dupacks == 0 || dupacks >= 3`) lets packets out (ns-2 Vegas).
    pub dupacks_to_threshold: bool,
}

/// The window a policy wants after one of its hooks, and an optional retransmission.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WindowDecision {
    pub cwnd: f64,
    pub ssthresh: f64,
    pub retransmit: Option<Retransmit>,
}

impl WindowDecision {
    /// Keep the window as it is (the starting point every policy edits).
    pub fn hold(c: &Conn) -> Self {
        WindowDecision {
            cwnd: c.cwnd(),
            ssthresh: c.ssthresh(),
            retransmit: None,
        }
    }
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
