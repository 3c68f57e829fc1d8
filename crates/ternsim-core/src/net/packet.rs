//! Packets: an IP header, an optional stack of outer headers, and a transport payload.
//!
//! Encapsulation (IP in IP for Mobile IP tunnels) pushes an outer [`IpHeader`]; forwarding
//! always looks at the outermost one. Sizes are on-the-wire bytes and grow by 20 bytes per
//! pushed header. Packets are moved, never shared: one owner at a time (a queue, a link, a
//! node), so accounting can prove that every packet ends somewhere.

use crate::net::routing::NodeIx;
use crate::sim::SimTime;
use crate::tcp::{AckSegment, DataSegment};

/// IPv4 header size used for encapsulation overhead.
pub const IP_HEADER_BYTES: u32 = 20;

/// The fields of an IP header that the simulator routes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IpHeader {
    pub src: NodeIx,
    pub dst: NodeIx,
    pub ttl: u8,
}

/// What the packet carries for the transport layer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Payload {
    TcpData(DataSegment),
    TcpAck(AckSegment),
}

/// A packet in flight.
#[derive(Clone, Debug, PartialEq)]
pub struct Packet {
    /// Unique id within the run (creation order).
    pub uid: u64,
    /// The flow (index in the world's flow list) the packet belongs to.
    pub flow: u32,
    /// Innermost (end-to-end) IP header.
    pub ip: IpHeader,
    /// Outer headers pushed by tunnels, innermost first; empty for ordinary packets.
    pub outer: Vec<IpHeader>,
    /// Bytes on the wire including all headers.
    pub size: u32,
    pub created: SimTime,
    pub payload: Payload,
}

impl Packet {
    /// The header that forwarding uses.
    pub fn routing_header(&self) -> &IpHeader {
        self.outer.last().unwrap_or(&self.ip)
    }

    /// Wraps the packet in an outer header (IP in IP, RFC 2003).
    pub fn encapsulate(&mut self, outer: IpHeader) {
        self.outer.push(outer);
        self.size += IP_HEADER_BYTES;
    }

    /// Removes the outermost header, returning it.
    pub fn decapsulate(&mut self) -> Option<IpHeader> {
        let h = self.outer.pop()?;
        self.size -= IP_HEADER_BYTES;
        Some(h)
    }
}

/// Why a packet was dropped. Every drop carries one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DropReason {
    /// The drop-tail queue was full.
    QueueOverflow,
    /// The link's error model corrupted it.
    ChannelError,
    /// The forwarding node had no route to the destination.
    NoRoute,
    /// The TTL reached zero (a routing loop).
    TtlExpired,
    /// It arrived for a flow whose agent no longer exists.
    NoAgent,
    /// The RLC SDU buffer of a radio bearer was full.
    RlcBufferOverflow,
    /// The RLC gave up on it (MaxDAT discard, or an incomplete SDU in unacknowledged mode).
    RlcDiscard,
}

impl DropReason {
    pub const ALL: [DropReason; 7] = [
        DropReason::QueueOverflow,
        DropReason::ChannelError,
        DropReason::NoRoute,
        DropReason::TtlExpired,
        DropReason::NoAgent,
        DropReason::RlcBufferOverflow,
        DropReason::RlcDiscard,
    ];
    pub fn name(self) -> &'static str {
        match self {
            DropReason::QueueOverflow => "queue_overflow",
            DropReason::ChannelError => "channel_error",
            DropReason::NoRoute => "no_route",
            DropReason::TtlExpired => "ttl_expired",
            DropReason::NoAgent => "no_agent",
            DropReason::RlcBufferOverflow => "rlc_buffer_overflow",
            DropReason::RlcDiscard => "rlc_discard",
        }
    }
    pub fn index(self) -> usize {
        self as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tcp::DataSegment;

    #[test]
    fn encapsulation_adds_and_removes_an_outer_header() {
        let seg = DataSegment {
            seq: 0,
            wire_bytes: 1040,
            payload_bytes: 1000,
            retransmission: false,
            sent_at: SimTime::ZERO,
        };
        let mut p = Packet {
            uid: 1,
            flow: 0,
            ip: IpHeader {
                src: 0,
                dst: 5,
                ttl: 64,
            },
            outer: Vec::new(),
            size: 1040,
            created: SimTime::ZERO,
            payload: Payload::TcpData(seg),
        };
        p.encapsulate(IpHeader {
            src: 1,
            dst: 7,
            ttl: 64,
        });
        assert_eq!(p.routing_header().dst, 7);
        assert_eq!(p.size, 1060);
        assert_eq!(p.decapsulate().unwrap().dst, 7);
        assert_eq!(p.routing_header().dst, 5);
        assert_eq!(p.size, 1040);
    }
}
