//! MAC events for the MAC lines of ns-2's wireless trace (`-macTrace ON`).
//!
//! ns-2 puts three trace points around `Mac/802_11` when a node is made with `-macTrace ON`
//! (`tcl/lib/ns-mobilenode.tcl`, `add-interface`): a send trace on the MAC's down target (every
//! frame handed to the radio: `s`), a receive trace on its up target and its log target
//! (a DATA frame passed up, an RTS, CTS or ACK acted on: `r`), and a drop target (`D` with
//! the reason: `COL` collision, `RET` retry limit, `BSY` busy, `DUP` duplicate, `STA` a CTS
//! or ACK not awaited). `mac-802_11.cc` `discard` traces a drop only for a frame that this
//! station sent or that is addressed to it (or broadcast), and never one received in error;
//! the channel applies the same filter before it logs.
//!
//! The channel records these events only when [`super::WifiChannel::trace_mac`] is set; the
//! world formats them (`trace::ns2`), because it knows how addresses map to ns-2 node ids.

use super::channel::{Arp, FrameKind};
use crate::net::addr::Addr;
use crate::net::packet::Packet;

/// The frame an event is about, as the trace names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MacFrameKind {
    Rts,
    Cts,
    Ack,
    /// A DATA frame carrying an IP packet.
    Data,
    /// A DATA frame carrying an ARP request (for `target`) or reply.
    Arp {
        request: bool,
        target: Addr,
    },
}

impl MacFrameKind {
    /// The trace's name for a frame of `kind` carrying `arp` (if any) to `ra`: an ARP reply
    /// is addressed to the requester it answers.
    pub(super) fn of(kind: FrameKind, arp: Option<Arp>, ra: Addr) -> Self {
        match (kind, arp) {
            (FrameKind::Rts, _) => MacFrameKind::Rts,
            (FrameKind::Cts, _) => MacFrameKind::Cts,
            (FrameKind::Ack, _) => MacFrameKind::Ack,
            (FrameKind::Data, None) => MacFrameKind::Data,
            (FrameKind::Data, Some(Arp::Request { target })) => MacFrameKind::Arp {
                request: true,
                target,
            },
            (FrameKind::Data, Some(Arp::Reply)) => MacFrameKind::Arp {
                request: false,
                target: ra,
            },
        }
    }
}

/// One MAC trace event at one station.
#[derive(Clone, Debug)]
pub struct MacLogEntry {
    /// When (ns): a send at the start of the frame, a receive or drop when ns-2 acts on it.
    pub time: u64,
    /// The station (channel port) where it happens.
    pub port: u16,
    /// `s`, `r` or `D`.
    pub event: char,
    /// `---` or the drop reason.
    pub reason: &'static str,
    /// The trace's layer: `MAC`, or `IFQ` for an ARP frame the interface queue dropped
    /// (ns-2 traces those with the queue's drop trace, which every mobile node has).
    pub layer: &'static str,
    pub kind: MacFrameKind,
    /// The size the trace prints: the whole frame with its PLCP (44 for an RTS, IP size +
    /// MAC overhead for DATA), except a DATA frame passed up or given up after the retry
    /// limit, which ns-2 traces after taking the MAC header off (the IP size).
    pub bytes: u32,
    /// The duration field (µs).
    pub duration_us: u64,
    /// Receiver address (broadcast for a broadcast frame).
    pub ra: Addr,
    /// Transmitter address; `None` for a CTS or ACK, which carry none.
    pub ta: Option<Addr>,
    /// The packet of a DATA frame (its IP part is traced).
    pub packet: Option<Packet>,
}
