//! What a FullTcp agent puts on the wire: ns-2's `hdr_tcp` as `FullTcpAgent::sendpacket`
//! fills it, sequence and acknowledgement numbers in bytes.

use crate::sim::SimTime;
use crate::tcp::output::Ns2Event;
use crate::tcp::segment::EcnFlags;

/// TCP header flags (ns-2 `tcp-full.h`, the 4.4BSD values).
pub const TH_FIN: u8 = 0x01;
pub const TH_SYN: u8 = 0x02;
pub const TH_PUSH: u8 = 0x08;
pub const TH_ACK: u8 = 0x10;
/// ECN-Echo (RFC 3168 §6.1; ns-2 `TH_ECE`): in the header flags when `foutput` set it
/// (the ECN-setup SYN and SYN/ACK, and while a CE mark waits for the peer's CWR).
pub const TH_ECE: u8 = 0x40;
/// Congestion window reduced: set on the first new data sent after a window cut, which is
/// also what ns-2's trace shows as the `A` flag (`hdr_flags::cong_action_`).
pub const TH_CWR: u8 = 0x80;

/// One segment a FullTcp agent sends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FullSegment {
    /// First sequence number (bytes; a SYN or FIN takes one).
    pub seq: i64,
    /// Next byte expected from the peer (ns-2 `rcv_nxt_`), -1 before the peer's SYN.
    pub ack: i64,
    /// `TH_*` bits.
    pub flags: u8,
    /// Payload bytes.
    pub datalen: u32,
    /// TCP/IP header bytes (ns-2 `hlen`, `tcpip_base_hdr_size_`).
    pub hlen: u32,
    /// ns-2's packet type: `ack` once the agent listened (`FullTcpAgent::listen` sets
    /// `type_ = PT_ACK`), `tcp` for an active opener.
    pub listener: bool,
    /// When the agent sent it (not a header field: the host's one-way delay metric).
    pub sent_at: SimTime,
    /// SACK blocks `[left, right)` (`FullTcp/Sack`'s receiver), the first `n_sack` of them
    /// (ns-2 `sa_length`); `hlen` counts their option bytes.
    pub sack: [(i64, i64); MAX_SACK_BLOCKS],
    pub n_sack: u8,
    /// The `hdr_flags` ECN bits (RFC 3168; ns-2 `FullTcpAgent::sendpacket`): `ect` on data
    /// once both ends agreed on ECN (and on an ECN-capable SYN/ACK with `ecn_syn_`), `ce`
    /// when a router or error model marked it, `ece` the ECN-Echo bit, which
    /// `sendpacket` may set without `TH_ECE` in `flags` (on a segment it sends itself).
    pub ecn: EcnFlags,
    /// With the timestamp option: when it was sent (ns-2 `ts()`) and the timestamp it
    /// echoes (`ts_echo()`, the sender's `recent_`); zero without it.
    pub ts: SimTime,
    pub ts_echo: SimTime,
}

/// SACK blocks a header holds (ns-2 `NSA`).
pub const MAX_SACK_BLOCKS: usize = 3;

impl FullSegment {
    /// Bytes on the wire: payload plus header (`sendpacket`: `size = datalen + hlen`).
    pub fn wire_bytes(&self) -> u32 {
        self.datalen + self.hlen
    }

    /// The hdr_flags congestion-action bit (`sendpacket` copies `TH_CWR` into it).
    pub fn cong_action(&self) -> bool {
        self.flags & TH_CWR != 0
    }
}

/// What one call into a FullTcp agent produced.
#[derive(Debug, Default)]
pub struct FullOutput {
    pub segments: Vec<FullSegment>,
    /// ns-2 event-trace moments (`trace_event`), when wanted.
    pub ns2_events: Vec<Ns2Event>,
    pub ns2_event_trace: bool,
    /// Payload bytes newly delivered in order to the application (`recvBytes`).
    pub delivered_bytes: u64,
}

impl FullOutput {
    pub fn clear(&mut self) {
        self.segments.clear();
        self.ns2_events.clear();
        self.delivered_bytes = 0;
    }
}
