//! Packets: an IP header, transport ports, a stack of further headers, and a payload.
//!
//! The header stack holds what tunnels and source routing add: an outer [`IpHeader`] per
//! IP-in-IP encapsulation (RFC 2003, 20 bytes) and a DSR source-route header of variable
//! length (ns-2 `hdr_sr`, link-spec §4.2). Forwarding always looks at the outermost IP
//! header. `size` is the bytes on the wire and grows and shrinks with every header pushed
//! and popped, so tunnels and source routes cost air time and queue space.
//!
//! Packets are moved, never shared: one owner at a time (a queue, an interface, a routing
//! protocol's hold buffer, a node), so accounting can prove that every packet ends somewhere.

use crate::net::addr::Addr;
use crate::net::control::ControlMessage;
use crate::sim::SimTime;
use crate::tcp::{AckSegment, DataSegment};

/// IPv4 header size: the cost of one IP-in-IP encapsulation.
pub const IP_HEADER_BYTES: u32 = 20;

/// UDP header size (RFC 768).
pub const UDP_HEADER_BYTES: u32 = 8;

/// The fields of an IP header that the simulator routes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IpHeader {
    pub src: Addr,
    pub dst: Addr,
    pub ttl: u8,
}

/// Transport ports: the world delivers a packet to the agent bound to `dst` at the node
/// holding the destination address.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ports {
    pub src: u16,
    pub dst: u16,
}

/// A DSR source route (RFC 4728 §6.7 as ns-2's `hdr_sr` sizes it): the full path from the
/// originator to the target, and the index of the next hop to visit.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct SourceRoute {
    pub path: Vec<Addr>,
    /// Index in `path` of the node the packet is travelling to.
    pub next: usize,
    /// Times the packet has been salvaged onto another route (RFC 4728 §6.7 "Salvage"
    /// field, §8.4.1); carried in the fixed 4 octets, so it does not change the size.
    pub salvaged: u8,
    /// How the packet travels under DSR flow state (ns-2.35's `dsragent_enable_flowstate`).
    pub flow: FlowHeader,
    /// The id of the flow its source sent it on (ns-2 `hdr_sr::flow_id`), 0 without flow
    /// state. Read only at the source, which looks the flow up when the link layer gives
    /// the packet back (`DsrAgent::on_tx_failure`); it costs no octets of its own.
    pub flow_id: u16,
    /// Octets the DSR agent adds to a packet it carries for a transport agent: ns-2.35
    /// counts a second IP header (`IP_HDR_LEN`, 20) on them, on top of the agent's own
    /// size; they go with the source route at the destination.
    pub ip_overhead: u8,
}

/// DSR flow state as a packet carries it (ns-2.35 `dsr/flowstruct.h`, the DSR flow state
/// draft): the source sends the first packets of a flow, and one every few seconds, with
/// the full source route and a flow id ("establishing"), which every node on the route
/// records; the others carry only the flow id, and on the default flow not even that.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FlowHeader {
    /// A plain source route (no flow state: control packets, salvaged packets of other
    /// nodes, or flow state off).
    #[default]
    None,
    /// The source route plus the flow id and flow timeout options (+8 octets).
    Establishing,
    /// A packet of an established default flow: no DSR header on the wire (0 octets) and
    /// nothing to snoop. Its path stays in the packet because every node on it recorded
    /// that path for the flow from the establishing packets (ns-2 forwards it from its
    /// flow table, to the same next hop).
    Established,
    /// A packet of an established flow that is not the default one: only the flow id
    /// option (4 fixed + 4 octets), nothing to snoop.
    EstablishedFlowId,
}

/// `clone_from` copies the path into the existing one's buffer (see [`Packet::copied_into`]).
impl Clone for SourceRoute {
    fn clone(&self) -> Self {
        let mut copy = SourceRoute {
            path: Vec::new(),
            ..*self
        };
        copy.path.clone_from(&self.path);
        copy
    }

    fn clone_from(&mut self, source: &Self) {
        let SourceRoute {
            path,
            next,
            salvaged,
            flow,
            flow_id,
            ip_overhead,
        } = source;
        self.path.clone_from(path);
        self.next = *next;
        self.salvaged = *salvaged;
        self.flow = *flow;
        self.flow_id = *flow_id;
        self.ip_overhead = *ip_overhead;
    }
}

impl SourceRoute {
    /// ns-2 `hdr_sr::size()`: 4 octets fixed plus 4 per address after the first for a
    /// source route (link-spec §4.2), +4 for the flow id and +4 for the flow timeout of an
    /// establishing packet, nothing for a packet of an established default flow; plus the
    /// IP header ns-2's DSR adds to the packets it carries for agents (`ip_overhead`).
    pub fn size(&self) -> u32 {
        let route = 4 + 4 * (self.path.len().max(1) as u32 - 1);
        let dsr = match self.flow {
            FlowHeader::None => route,
            FlowHeader::Establishing => route + 8,
            FlowHeader::Established => 0,
            FlowHeader::EstablishedFlowId => 8,
        };
        dsr + u32::from(self.ip_overhead)
    }

    /// Whether the path is visible on the wire, for nodes that snoop routes.
    pub fn carries_path(&self) -> bool {
        matches!(self.flow, FlowHeader::None | FlowHeader::Establishing)
    }
}

/// A header pushed onto a packet after its own IP header.
#[derive(Debug, PartialEq, Eq)]
pub enum Header {
    /// An outer IP header (IP-in-IP tunnel, RFC 2003).
    Ip(IpHeader),
    SourceRoute(SourceRoute),
    /// The IP header ns-2.35's routing agents count on the packets they originate for
    /// agents (`IP_HDR_LEN`): DSDV on every packet (a second one on TCP, whose agent size
    /// already holds one), AODV on all but TCP's. Octets on the air only, taken off at the
    /// destination.
    RoutingIpCopy,
}

/// `clone_from` of a source route over a source route keeps the path's buffer.
impl Clone for Header {
    fn clone(&self) -> Self {
        match self {
            Header::Ip(ip) => Header::Ip(*ip),
            Header::SourceRoute(sr) => Header::SourceRoute(sr.clone()),
            Header::RoutingIpCopy => Header::RoutingIpCopy,
        }
    }

    fn clone_from(&mut self, source: &Self) {
        match (self, source) {
            (Header::SourceRoute(to), Header::SourceRoute(from)) => to.clone_from(from),
            (to, from) => *to = from.clone(),
        }
    }
}

impl Header {
    pub fn size(&self) -> u32 {
        match self {
            Header::Ip(_) | Header::RoutingIpCopy => IP_HEADER_BYTES,
            Header::SourceRoute(sr) => sr.size(),
        }
    }
}

/// A UDP datagram (ns-2 `Agent/UDP`): its sequence number within the flow and its payload.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Datagram {
    pub seq: u64,
    pub payload_bytes: u32,
    /// When the application handed it to UDP (for one-way delay).
    pub sent_at: SimTime,
}

/// What the packet carries.
#[derive(Clone, Debug, PartialEq)]
pub enum Payload {
    TcpData(DataSegment),
    TcpAck(AckSegment),
    /// A segment of an ns-2 FullTcp agent (either end: data, pure ACK, SYN or FIN).
    FullTcp(crate::tcp::full::FullSegment),
    Udp(Datagram),
    /// A routing or mobility protocol's own message.
    Control(ControlMessage),
    /// An echo request or reply of a ping agent (ns-2 `Agent/Ping`).
    Ping(crate::app::Echo),
}

impl Payload {
    /// The kind of a packet carrying this payload.
    pub fn kind(&self) -> PacketKind {
        match self {
            Payload::TcpData(_) => PacketKind::TcpData,
            Payload::TcpAck(_) => PacketKind::TcpAck,
            // A FullTcp segment counts as data when it carries some, else as an ACK.
            Payload::FullTcp(s) if s.datalen > 0 => PacketKind::TcpData,
            Payload::FullTcp(_) => PacketKind::TcpAck,
            Payload::Udp(_) => PacketKind::Udp,
            Payload::Control(_) => PacketKind::Control,
            Payload::Ping(_) => PacketKind::Ping,
        }
    }
}

/// The kind of a packet, for accounting and metrics by kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PacketKind {
    TcpData,
    TcpAck,
    Udp,
    Control,
    Ping,
}

impl PacketKind {
    pub const ALL: [PacketKind; 5] = [
        PacketKind::TcpData,
        PacketKind::TcpAck,
        PacketKind::Udp,
        PacketKind::Control,
        PacketKind::Ping,
    ];
    pub fn name(self) -> &'static str {
        match self {
            PacketKind::TcpData => "tcp_data",
            PacketKind::TcpAck => "tcp_ack",
            PacketKind::Udp => "udp",
            PacketKind::Control => "control",
            PacketKind::Ping => "ping",
        }
    }
    pub fn index(self) -> usize {
        self as usize
    }
}

/// A packet in flight: its fields on the heap, so that handing a packet from a queue to a
/// link, a routing protocol or a node moves one pointer, not the whole header stack and
/// payload (a packet is handed on about ten times per hop). Reads and writes go through
/// `Deref` to [`PacketFields`].
#[derive(Clone, Debug, PartialEq)]
pub struct Packet(Box<PacketFields>);

impl Packet {
    pub fn new(fields: PacketFields) -> Self {
        Packet(Box::new(fields))
    }

    /// A new packet in the allocation of `spent`, a packet that has ended (delivered or
    /// dropped): its fields are replaced by `fields`, whose header stack takes over the
    /// spent packet's (emptied) buffer, so no allocation is made.
    ///
    /// Field by field, not `*spent = fields`: that drops the whole old value and copies the
    /// new one in with a call to `memcpy`, twice a packet's size of moves per packet made;
    /// inlined, each field here is one store.
    #[inline(always)]
    pub fn reuse(mut spent: Packet, fields: PacketFields) -> Self {
        let PacketFields {
            uid,
            ns2_uid,
            num_forwards,
            flow,
            ip,
            ports,
            headers,
            size,
            created,
            payload,
        } = fields;
        let f = &mut *spent.0;
        if headers.is_empty() {
            f.headers.clear();
        } else {
            f.headers = headers;
        }
        f.uid = uid;
        f.ns2_uid = ns2_uid;
        f.num_forwards = num_forwards;
        f.flow = flow;
        f.ip = ip;
        f.ports = ports;
        f.size = size;
        f.created = created;
        f.payload = payload;
        spent
    }

    /// A copy of this packet made in the allocation of `spare`, a packet that has ended:
    /// its box, its header stack and a source route's path take the copy, so that copying
    /// a packet (the 802.11 sender's copy of a delivered frame, an overheard frame) makes
    /// no allocation. Equal to `self.clone()`.
    pub fn copied_into(&self, mut spare: Packet) -> Packet {
        let PacketFields {
            uid,
            ns2_uid,
            num_forwards,
            flow,
            ip,
            ports,
            headers,
            size,
            created,
            payload,
        } = &*self.0;
        let to = &mut *spare.0;
        to.uid = *uid;
        to.ns2_uid = *ns2_uid;
        to.num_forwards = *num_forwards;
        to.flow = *flow;
        to.ip = *ip;
        to.ports = *ports;
        to.headers.clone_from(headers);
        to.size = *size;
        to.created = *created;
        to.payload.clone_from(payload);
        spare
    }

    /// The fields, owned (to move the payload out at the receiving agent).
    pub fn into_fields(self) -> PacketFields {
        *self.0
    }
}

impl std::ops::Deref for Packet {
    type Target = PacketFields;
    fn deref(&self) -> &PacketFields {
        &self.0
    }
}

impl std::ops::DerefMut for Packet {
    fn deref_mut(&mut self) -> &mut PacketFields {
        &mut self.0
    }
}

/// What a packet is made of.
#[derive(Clone, Debug, PartialEq)]
pub struct PacketFields {
    /// Unique id within the run (creation order).
    pub uid: u64,
    /// The id ns-2's traces print (`hdr_cmn::uid_`): agents and most routing protocols
    /// number their packets from 0 in allocation order (`Agent::initpkt`); ns-2.35's AODV
    /// allocates its messages without that numbering, so they all print 0 and take no number.
    pub ns2_uid: u64,
    /// Wireless hops taken (ns-2 `hdr_cmn::num_forwards_`): one more at every station whose
    /// 802.11 MAC receives the frame (`Mac802_11::recvDATA`); the `nf` field of ns-2's
    /// wireless trace lines.
    pub num_forwards: u32,
    /// The flow (index in the scenario's flow list) the packet belongs to; `None` for
    /// routing and mobility control packets.
    pub flow: Option<u32>,
    /// The packet's own (innermost, end-to-end) IP header.
    pub ip: IpHeader,
    pub ports: Ports,
    /// Headers pushed after `ip`, innermost first.
    pub headers: Vec<Header>,
    /// Bytes on the wire including all headers.
    pub size: u32,
    pub created: SimTime,
    pub payload: Payload,
}

impl PacketFields {
    /// The header that forwarding uses: the outermost IP header. Inlined with the test for
    /// no headers at all (most packets), asked several times per hop.
    #[inline]
    pub fn routing_header(&self) -> &IpHeader {
        if self.headers.is_empty() {
            return &self.ip;
        }
        self.headers
            .iter()
            .rev()
            .find_map(|h| match h {
                Header::Ip(ip) => Some(ip),
                Header::SourceRoute(_) | Header::RoutingIpCopy => None,
            })
            .unwrap_or(&self.ip)
    }

    /// The TTL that forwarding decrements: the outermost IP header's.
    #[inline]
    pub fn routing_ttl_mut(&mut self) -> &mut u8 {
        if self.headers.is_empty() {
            return &mut self.ip.ttl;
        }
        let outer = self.headers.iter_mut().rev().find_map(|h| match h {
            Header::Ip(ip) => Some(ip),
            Header::SourceRoute(_) | Header::RoutingIpCopy => None,
        });
        match outer {
            Some(ip) => &mut ip.ttl,
            None => &mut self.ip.ttl,
        }
    }

    /// Pushes a header; the packet grows by its size.
    pub fn push_header(&mut self, h: Header) {
        self.size += h.size();
        self.headers.push(h);
    }

    /// Removes the outermost header; the packet shrinks by its size.
    pub fn pop_header(&mut self) -> Option<Header> {
        let h = self.headers.pop()?;
        self.size -= h.size();
        Some(h)
    }

    /// Wraps the packet in an outer IP header (IP in IP, RFC 2003).
    pub fn encapsulate(&mut self, outer: IpHeader) {
        self.push_header(Header::Ip(outer));
    }

    /// Removes the outermost header if it is an IP header (tunnel exit), returning it.
    pub fn decapsulate(&mut self) -> Option<IpHeader> {
        match self.headers.last() {
            Some(Header::Ip(_)) => match self.pop_header() {
                Some(Header::Ip(h)) => Some(h),
                _ => None,
            },
            _ => None,
        }
    }

    /// Whether an outer IP header is present (the packet is inside a tunnel).
    pub fn is_tunnelled(&self) -> bool {
        self.headers.iter().any(|h| matches!(h, Header::Ip(_)))
    }

    /// The source route, if the packet carries one.
    pub fn source_route(&self) -> Option<&SourceRoute> {
        self.headers.iter().rev().find_map(|h| match h {
            Header::SourceRoute(sr) => Some(sr),
            Header::Ip(_) | Header::RoutingIpCopy => None,
        })
    }

    /// The source route, mutable (to advance `next`; its size does not depend on `next`).
    pub fn source_route_mut(&mut self) -> Option<&mut SourceRoute> {
        self.headers.iter_mut().rev().find_map(|h| match h {
            Header::SourceRoute(sr) => Some(sr),
            Header::Ip(_) | Header::RoutingIpCopy => None,
        })
    }

    /// Removes the source route (wherever it is in the stack), shrinking `size` by its size.
    pub fn remove_source_route(&mut self) -> Option<SourceRoute> {
        let i = self
            .headers
            .iter()
            .rposition(|h| matches!(h, Header::SourceRoute(_)))?;
        let h = self.headers.remove(i);
        self.size -= h.size();
        match h {
            Header::SourceRoute(sr) => Some(sr),
            Header::Ip(_) | Header::RoutingIpCopy => None,
        }
    }

    /// Removes ns-2's extra routing IP header ([`Header::RoutingIpCopy`]) if the packet has
    /// one, shrinking `size`; whether it had one.
    #[inline]
    pub fn remove_routing_ip_copy(&mut self) -> bool {
        // Most packets carry no header at all: tested inline, before any search.
        !self.headers.is_empty() && self.remove_routing_ip_copy_header()
    }

    fn remove_routing_ip_copy_header(&mut self) -> bool {
        if let Some(i) = self
            .headers
            .iter()
            .rposition(|h| matches!(h, Header::RoutingIpCopy))
        {
            let h = self.headers.remove(i);
            self.size -= h.size();
            return true;
        }
        false
    }

    /// Replaces the packet's source route (or adds one), keeping `size` exact.
    pub fn set_source_route(&mut self, route: SourceRoute) {
        if let Some(i) = self
            .headers
            .iter()
            .rposition(|h| matches!(h, Header::SourceRoute(_)))
        {
            let old = self.headers[i].size();
            self.headers[i] = Header::SourceRoute(route);
            self.size = self.size - old + self.headers[i].size();
        } else {
            self.push_header(Header::SourceRoute(route));
        }
    }

    pub fn kind(&self) -> PacketKind {
        self.payload.kind()
    }

    /// Whether the packet is ECN-capable (RFC 3168 §5; ns-2 `hdr_flags::ect`): the data of
    /// a sender with ECN on (for FullTcp, once both ends agreed on ECN).
    pub fn ecn_capable(&self) -> bool {
        match &self.payload {
            Payload::TcpData(s) => s.ecn.ect,
            Payload::FullTcp(s) => s.ecn.ect,
            _ => false,
        }
    }

    /// A router or an error model marks the packet "congestion experienced" (RFC 3168 §5;
    /// ns-2 `hdr_flags::ce`). Only TCP packets carry the bit in ternsim; the front ends
    /// refuse marking for the others.
    pub fn mark_congestion_experienced(&mut self) {
        match &mut self.payload {
            Payload::TcpData(s) => s.ecn.ce = true,
            Payload::TcpAck(a) => a.ecn.ce = true,
            Payload::FullTcp(s) => s.ecn.ce = true,
            Payload::Udp(_) | Payload::Control(_) | Payload::Ping(_) => {}
        }
    }

    /// The sequence number traces show: the data segment's, the ACK's cumulative ACK, the
    /// datagram's; -1 for control packets.
    pub fn trace_seq(&self) -> i64 {
        match &self.payload {
            Payload::TcpData(s) => s.seq,
            Payload::TcpAck(a) => a.ack,
            // ns-2 traces a FullTcp segment's byte sequence number (`hdr_tcp::seqno`).
            Payload::FullTcp(s) => s.seq,
            Payload::Udp(d) => d.seq as i64,
            // ns-2's Mobile IP messages are `PT_UDP`, whose trace prints the (unset, 0) RTP
            // sequence number (`trace/trace.cc` `Trace::format`: `udp 72 ------- 0 2.0.0.0
            // 1.0.0.0 0 6536`, ns-2.35's `mip_handoff.tr`).
            Payload::Control(m) if m.protocol() == "mobile_ip" => 0,
            // ns-2 prints no sequence number for a ping (its own header's is not the trace's).
            Payload::Control(_) | Payload::Ping(_) => -1,
        }
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
    /// It arrived at a node with no agent bound to its port.
    NoAgent,
    /// The RLC SDU buffer of a radio bearer was full.
    RlcBufferOverflow,
    /// The RLC gave up on it (MaxDAT discard, or an incomplete SDU in unacknowledged mode).
    RlcDiscard,
    /// It was in, or was sent onto, a link that is down.
    LinkDown,
    /// It waited in a routing protocol's buffer for a route longer than the protocol allows.
    HoldTimeout,
    /// A routing protocol's buffer for packets awaiting a route was full.
    HoldOverflow,
    /// The link layer could not deliver it to the next hop and routing did not salvage it.
    LinkFailure,
    /// DSR: it waited in the send buffer longer than the send buffer timeout (30 s,
    /// link-spec §4.2) without a route being found.
    SendBufferTimeout,
    /// DSR: the send buffer was full (64 packets) and it was the oldest packet there, evicted
    /// for a newer one (ns-2 `stickPacketInSendBuffer`, link-spec §4.2).
    SendBufferOverflow,
    /// DSR: its next link broke and it had already been salvaged the maximum number of times
    /// (MAX_SALVAGE_COUNT 15, RFC 4728 §8.4.1).
    SalvageLimit,
    /// DSR: its next link broke at an intermediate node whose route cache had no other route
    /// to the destination (RFC 4728 §8.4.1).
    SalvageNoRoute,
    /// DSR: the link layer gave back a packet its source had sent on an established flow,
    /// without a source route, after that flow had died (ns-2.35 `xmitFlowFailed` frees
    /// it untraced; `DsrConfig::flow_failure_by_flow_table`).
    DeadFlow,
    /// An 802.11 interface queue was full (ns-2 `IFQ` drop, link-spec §3.6).
    IfqOverflow,
    /// A broadcast 802.11 frame that no station decoded.
    NoReceiver,
    /// 802.11 ARP held it for an unresolved next hop and a newer packet for the same next
    /// hop replaced it (ns-2 `ARPTable::arpresolve`, one held packet per entry, link-spec
    /// §3.5).
    ArpReplaced,
    /// RED's random early test dropped it (ns-2 "unforced" drop, `queue/red.cc`).
    RedEarly,
    /// RED dropped it because the average queue was above the maximum threshold (twice it
    /// when gentle) or the queue was at its limit (ns-2 "forced" drop).
    RedForced,
    /// Mobile IP: a tunnelled packet reached a foreign agent that has no visitor entry for
    /// its destination (a stale care-of address after a handoff; link-spec §7.1).
    MipNoVisitor,
    /// Mobile IP: the mobile node had no mobility agent to send through (between coverage
    /// areas, before it heard an advertisement).
    MipNoAgent,
    /// A wired-cum-wireless mobile node had no DSDV route to its base station for a packet
    /// outside its subnet (ns-2 `forwardPacket`: freed untraced, a warning on stderr).
    NoBaseStationRoute,
    /// A Mobile IP base station's DSDV had no route to a visiting mobile node for a packet
    /// its agent handed it directly (a registration reply, a decapsulated packet): ns-2
    /// `forwardPacket` then sends it to the station's own `base_stn`, itself, where it is
    /// lost untraced.
    BaseStationToItself,
    /// It waited in an interface queue when its node was reset (ns-2 `$node reset` at the
    /// end of a CMU script: `DROP_END_OF_SIMULATION`, `END`).
    EndOfSimulation,
}

impl DropReason {
    pub const ALL: [DropReason; 26] = [
        DropReason::QueueOverflow,
        DropReason::ChannelError,
        DropReason::NoRoute,
        DropReason::TtlExpired,
        DropReason::NoAgent,
        DropReason::RlcBufferOverflow,
        DropReason::RlcDiscard,
        DropReason::LinkDown,
        DropReason::HoldTimeout,
        DropReason::HoldOverflow,
        DropReason::LinkFailure,
        DropReason::SendBufferTimeout,
        DropReason::SendBufferOverflow,
        DropReason::SalvageLimit,
        DropReason::SalvageNoRoute,
        DropReason::DeadFlow,
        DropReason::IfqOverflow,
        DropReason::NoReceiver,
        DropReason::ArpReplaced,
        DropReason::RedEarly,
        DropReason::RedForced,
        DropReason::MipNoVisitor,
        DropReason::MipNoAgent,
        DropReason::NoBaseStationRoute,
        DropReason::BaseStationToItself,
        DropReason::EndOfSimulation,
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
            DropReason::LinkDown => "link_down",
            DropReason::HoldTimeout => "hold_timeout",
            DropReason::HoldOverflow => "hold_overflow",
            DropReason::LinkFailure => "link_failure",
            DropReason::SendBufferTimeout => "send_buffer_timeout",
            DropReason::SendBufferOverflow => "send_buffer_overflow",
            DropReason::SalvageLimit => "salvage_limit",
            DropReason::SalvageNoRoute => "salvage_no_route",
            DropReason::DeadFlow => "dead_flow",
            DropReason::IfqOverflow => "ifq_overflow",
            DropReason::NoReceiver => "no_receiver",
            DropReason::ArpReplaced => "arp_replaced",
            DropReason::RedEarly => "red_early",
            DropReason::RedForced => "red_forced",
            DropReason::MipNoVisitor => "mip_no_visitor",
            DropReason::MipNoAgent => "mip_no_agent",
            DropReason::NoBaseStationRoute => "no_base_station_route",
            DropReason::BaseStationToItself => "base_station_to_itself",
            DropReason::EndOfSimulation => "end_of_simulation",
        }
    }
    pub fn index(self) -> usize {
        self as usize
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A UDP packet of `size` bytes from 10.0.0.1 to 10.0.0.`dst + 1`. A size below the IP
    /// and UDP headers (the shell a routing test fills with its own message) carries no
    /// payload, rather than an underflowed one.
    pub(crate) fn udp_packet(uid: u64, dst: u32, size: u32) -> Packet {
        Packet::new(PacketFields {
            uid,
            ns2_uid: uid,
            num_forwards: 0,
            flow: Some(0),
            ip: IpHeader {
                src: Addr::nth(0),
                dst: Addr::nth(dst),
                ttl: 64,
            },
            ports: Ports { src: 1, dst: 1 },
            headers: Vec::new(),
            size,
            created: SimTime::ZERO,
            payload: Payload::Udp(Datagram {
                seq: uid,
                payload_bytes: size.saturating_sub(IP_HEADER_BYTES + UDP_HEADER_BYTES),
                sent_at: SimTime::ZERO,
            }),
        })
    }

    /// A copy made in a spare packet equals a clone, whatever the spare held: here a
    /// source-routed, tunnelled packet copied over one with a longer route and a different
    /// payload, and a header-less one copied over that.
    #[test]
    fn a_copy_into_a_spare_packet_equals_a_clone() {
        let route = |n: u32| SourceRoute {
            path: (0..n).map(Addr::nth).collect(),
            next: 1,
            salvaged: 1,
            flow: FlowHeader::Establishing,
            flow_id: 3,
            ip_overhead: 20,
        };
        let mut p = udp_packet(3, 2, 512);
        p.push_header(Header::SourceRoute(route(3)));
        p.encapsulate(IpHeader {
            src: Addr::nth(1),
            dst: Addr::nth(2),
            ttl: 9,
        });
        let mut spare = udp_packet(8, 6, 64);
        spare.push_header(Header::SourceRoute(route(6)));
        spare.payload = Payload::Control(crate::net::control::ControlMessage::DsrRouteReply {
            route: vec![Addr::nth(4)],
            request_id: 2,
            ttl: 1,
        });
        let copy = p.copied_into(spare);
        assert_eq!(copy, p.clone());
        let plain = udp_packet(4, 1, 100);
        assert_eq!(plain.copied_into(copy), plain);
    }

    #[test]
    fn encapsulation_adds_and_removes_an_outer_header() {
        let mut p = udp_packet(1, 5, 1040);
        p.encapsulate(IpHeader {
            src: Addr::nth(1),
            dst: Addr::nth(7),
            ttl: 64,
        });
        assert_eq!(p.routing_header().dst, Addr::nth(7));
        assert_eq!(p.size, 1060);
        assert!(p.is_tunnelled());
        assert_eq!(p.decapsulate().unwrap().dst, Addr::nth(7));
        assert_eq!(p.routing_header().dst, Addr::nth(5));
        assert_eq!(p.size, 1040);
        assert_eq!(p.decapsulate(), None);
    }

    /// link-spec §4.2: 4 octets + 4 per address after the first. A 4-hop route lists 5
    /// addresses: 4 + 16 = 20 octets; shortening it to 3 addresses gives 12.
    #[test]
    fn a_source_route_counts_in_the_packet_size() {
        let mut p = udp_packet(1, 4, 1000);
        let path: Vec<Addr> = (0..5).map(Addr::nth).collect();
        p.set_source_route(SourceRoute {
            path,
            next: 1,
            salvaged: 0,
            ..SourceRoute::default()
        });
        assert_eq!(p.size, 1020);
        p.set_source_route(SourceRoute {
            path: vec![Addr::nth(0), Addr::nth(2), Addr::nth(4)],
            next: 1,
            salvaged: 0,
            ..SourceRoute::default()
        });
        assert_eq!(p.size, 1012);
        assert_eq!(p.source_route().unwrap().path.len(), 3);
        // The source route is not an IP header: routing still uses the packet's own.
        assert_eq!(p.routing_header().dst, Addr::nth(4));
        *p.routing_ttl_mut() -= 1;
        assert_eq!(p.ip.ttl, 63);
        p.source_route_mut().unwrap().next = 2;
        assert_eq!(p.source_route().unwrap().next, 2);
        let sr = p.remove_source_route().unwrap();
        assert_eq!((sr.path.len(), p.size), (3, 1000));
        assert_eq!(p.remove_source_route(), None);
        // ns-2.35 flow state: an establishing packet on 3 addresses carries 12 + 8 octets
        // and the extra IP header of DSR-carried data (20); an established one only the 20.
        let flow = |flow| SourceRoute {
            path: vec![Addr::nth(0), Addr::nth(2), Addr::nth(4)],
            next: 1,
            flow,
            ip_overhead: 20,
            ..SourceRoute::default()
        };
        p.set_source_route(flow(FlowHeader::Establishing));
        assert_eq!(p.size, 1040);
        p.set_source_route(flow(FlowHeader::Established));
        assert_eq!(p.size, 1020);
        assert!(!p.source_route().unwrap().carries_path());
        p.remove_source_route();
        assert_eq!(p.size, 1000);
    }
}
/// The packet is moved through every queue and interface: keep it small. A regression
/// here (an inline array in a payload) once cost the wired benchmark a fifth of its speed.
#[cfg(test)]
mod size {
    #[test]
    fn a_packet_stays_within_128_bytes() {
        assert!(std::mem::size_of::<super::Packet>() <= 128);
    }
}
