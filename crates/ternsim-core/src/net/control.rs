//! Control messages of routing and mobility protocols, carried as packet payloads.
//!
//! The message formats live here, at the bottom of the layering, so that every protocol
//! folder (`routing/`, and later `mobileip/`) can build and read them without importing
//! another protocol's folder. A protocol adds its messages as variants; each names itself
//! for packet accounting and metrics by kind (`routing packets by type`).

use crate::net::addr::Addr;

/// A control message and its size on the wire (IP header included).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ControlMessage {
    /// A neighbour announcement (AODV HELLO, RFC 3561 §6.9): the sender's address and
    /// sequence number. The first message kind; on-demand protocols add RREQ, RREP, RERR.
    Hello { origin: Addr, seq: u32 },
}

impl ControlMessage {
    /// The protocol that sent it, for routing-overhead metrics by protocol.
    pub fn protocol(&self) -> &'static str {
        match self {
            ControlMessage::Hello { .. } => "hello",
        }
    }

    /// Bytes of the message after the IP header.
    pub fn body_bytes(&self) -> u32 {
        match self {
            // RFC 3561 §6.9: a HELLO is a RREP (20 octets, §5.2) with TTL 1.
            ControlMessage::Hello { .. } => 20,
        }
    }

    /// The message type, for routing packets by type.
    pub fn kind(&self) -> &'static str {
        match self {
            ControlMessage::Hello { .. } => "hello",
        }
    }
}
