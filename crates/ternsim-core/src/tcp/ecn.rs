//! The sender's ECN state (RFC 3168 §6.1) as ns-2's one-way `TcpAgent` keeps it (`tcp/tcp.cc`),
//! with `ecn_` on.
//!
//! What ns-2 does, and so ternsim:
//! - Packet 0 (the emulated SYN) carries ECN-Echo and is not ECN-capable, ns-2's stand-in for
//!   the ECN-setup SYN (RFC 3168 §6.1.1); every other data packet is ECN-capable (`ect`).
//! - The sink answers packet 0 with ECN-Echo, and the sender takes an ECN-Echo ACK without
//!   CWR as the peer's consent: from then on it is [`EcnState::peer_capable`] (ns-2 `ect_`,
//!   learned in `recv_newack_helper`, whatever the sender's own `ecn_`).
//! - An ACK with ECN-Echo, before anything else is done with it, halves ssthresh and cwnd
//!   once per window of data (`TcpAgent::ecn`: only if the ACK is above `recover_`, or after
//!   a timeout), sets `recover_ = maxseq_` and `last_cwnd_action_ = ECN`; the first packet
//!   sent after it carries CWR (`cong_action_`). With cwnd at 1 or less the window becomes
//!   0 and the next such reaction backs the timer off instead (`ecn_backoff_`).
//! - A new ACK with ECN-Echo from an ECN-capable peer does not open the window; one without
//!   it ends the ECN backoff, and an ECN-Echo ACK does not end the timer backoff while the
//!   ECN backoff holds (`newack`).
//! - Later loss reactions in the window an ECN-Echo halved do not halve it again: a third
//!   duplicate ACK only retransmits (Reno, NewReno, Sack1) or goes back N with cwnd 1
//!   (Tahoe), and a timeout sets cwnd to 1 without touching ssthresh (the policies, in
//!   `super::recovery`).
//!
//! With `old_ecn_` the window opens on an ECN-Echo ACK that follows another new ACK with
//! ECN-Echo (`ecn_burst_`), so only the first of a run holds it.
//!
//! Not modelled (refused by the front ends): `SetCWRonRetransmit_` false, the Vegas family.
//! The sink's `ecn_syn_` (its answer to the setup ECN-capable) is the sink's
//! (`super::sink`).
//!
//! Plain values below the connection, which owns an [`EcnState`]; the reaction itself is in
//! `super::recovery::base::ecn_echo`.

/// What the sender knows of ECN on its connection (ns-2 `ect_`, `ecn_backoff_`,
/// `ecn_burst_`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EcnState {
    /// ns-2 `ect_`: the peer echoed the ECN setup, so ECN-Echo ACKs hold the window.
    pub peer_capable: bool,
    /// ns-2 `ecn_backoff_`: an ECN-Echo found the window at one packet or less.
    pub backoff: bool,
    /// ns-2 `ecn_burst_`: the last new ACK from the ECN-capable peer carried ECN-Echo.
    pub burst: bool,
    /// The ECN-Echo bit of the ACK being processed.
    pub ack_ece: bool,
}

impl EcnState {
    /// Whether the ACK being processed may end the timer backoff (ns-2 `newack`: not an
    /// ECN-Echo ACK while the ECN backoff holds).
    pub fn may_end_backoff(&self) -> bool {
        !self.peer_capable || !self.backoff || !self.ack_ece
    }

    /// Whether the new ACK being processed opens the window (ns-2 `recv_newack_helper`: not
    /// an ECN-Echo ACK from an ECN-capable peer, unless `old_ecn` and the previous one
    /// carried ECN-Echo too).
    pub fn opens_window(&self, old_ecn: bool) -> bool {
        !self.peer_capable || !self.ack_ece || (old_ecn && self.burst)
    }

    /// The end of ns-2 `recv_newack_helper`: from an ECN-capable peer, an ACK without
    /// ECN-Echo ends the ECN backoff and `burst` follows the ACK's ECN-Echo; an ECN-Echo ACK
    /// (ns-2's sink never sets CWR on one) makes the peer ECN-capable.
    pub fn after_new_ack(&mut self) {
        if self.peer_capable {
            if !self.ack_ece {
                self.backoff = false;
            }
            self.burst = self.ack_ece;
        }
        if !self.peer_capable && self.ack_ece {
            self.peer_capable = true;
        }
    }
}
