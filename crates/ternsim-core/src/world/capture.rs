//! Packet capture points: the pcap tap (traffic-queues-traces.md §8) and the ns-2 trace
//! (§7). Both are off unless a run asks for them ([`CaptureSpec`]), and then cost one branch
//! per packet event.
//!
//! Where the points sit, and why:
//! - **pcap** at a node's interfaces: a frame is written when the node hands a packet to one
//!   of its interfaces (before the queue, like a capture on the host's own NIC), and when a
//!   packet arrives on one of them. Capturing a flow means capturing its sender's node,
//!   filtered to the flow: Wireshark then sees every segment the sender emitted and every
//!   ACK the sender got, which is what its TCP analysis needs to classify retransmissions and
//!   duplicate ACKs exactly as the sender counts them (§8.5).
//! - **ns-2 wired trace** on each link direction: `+` when a packet is handed to the direction
//!   (a packet the queue refuses gets its `+` then its `d`), `-` when its transmission starts,
//!   `r` when it reaches the far node, `d` when the direction drops it (ns-2
//!   `SimpleLink instproc trace`).
//! - **ns-2 wireless trace** (old CMU format) at the agent and routing layers: `s AGT` when an
//!   agent sends, `r AGT` when a packet reaches its agent, `s RTR` when the originating node
//!   hands a packet to its interface, `f RTR` when another node forwards it, `r RTR` when a
//!   packet not for the node's agents arrives, `D` with a layer and reason for every drop.
//!
//! TCP on the wire (§8.4): packet-counted sequence numbers become bytes. With ISN_s the
//! sender's initial sequence number, MSS the flow's packet size and D = 1 when packet 0 is an
//! emulated SYN: packet 0 is the SYN at ISN_s, packet k ≥ D starts at ISN_s + D + (k − D)·MSS,
//! the cumulative ACK a acknowledges up to the start of packet a + 1, a SACK block [l, r) in
//! packets covers [start(l), start(r)) in bytes, and ACK 0 answering the SYN is the SYN/ACK.
//! The advertised window is a constant 65535 so Wireshark's duplicate-ACK test sees an
//! unchanged window. Lengths are true lengths: payload = the segment's payload bytes, headers
//! with their real options (a SACK option is 4 + 8n bytes, ns-2 counts 8n).

use std::collections::HashMap;

use super::{Device, World};
use crate::net::addr::{Addr, IfaceId, NodeId};
use crate::net::control::ControlMessage;
use crate::net::iface::TxFailureCause;
use crate::net::packet::{DropReason, Header, Packet, Payload, IP_HEADER_BYTES};
use crate::routing::dsr::DsrLogEntry;
use crate::routing::RoutingProtocol;
use crate::scenario::{FlowTransport, ResolvedScenario, TrafficSpec};
use crate::sim::SimTime;
use crate::tcp::{Ns2Event, Seq};
use crate::trace::ns2::{
    AodvPart, DsrLogRecord, DsrPart, EventRecord, MacFields, NewTraceFields, WiredRecord,
    WirelessProto, WirelessRecord,
};
use crate::trace::pcap::{self, IpPacket, PcapWriter, Transport};
use crate::wifi::{MacFrameKind, MacLogEntry};

/// What a run should capture besides its summary and traces.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CaptureSpec {
    /// pcap of a flow (its sender's interfaces, that flow only) or of a node (all its
    /// interfaces): a flow or node name, optionally prefixed `flow:` or `node:`.
    pub pcap: Option<String>,
    /// An ns-2 trace: the wired format, or the old wireless format for 802.11 scenarios.
    pub ns2_trace: bool,
    /// Layers of the wireless trace (`AGT`, `RTR`) whose send, receive and forward lines are
    /// left out; their drop lines are still written. The ns-2 front end asks for this when
    /// a script traces neither layer (ns-2 then writes only drops), so that the lines it
    /// would discard are never formatted: at a few hundred nodes nearly every line is an
    /// `r RTR` line of a broadcast.
    pub ns2_omit: Vec<String>,
    /// Write the MAC lines of the wireless trace (ns-2 `-macTrace ON`): every frame sent,
    /// received and dropped by the 802.11 MAC. Off by default: they outnumber the others
    /// several times over.
    pub ns2_mac: bool,
    /// Write ns-2's event-trace lines (`$ns eventtrace-all`: TCP's `E` lines, one per fast
    /// retransmit, timeout and slow start) into the ns-2 trace, for every TCP flow. Off by
    /// default: the senders then record nothing for it.
    pub ns2_events: bool,
    /// End each wired line with a 13th field, the event's exact time in seconds (the
    /// shortest text of the double): ns-2's nam trace prints its times with `%.15g` of the
    /// double (`1.23499999999999` for a CBR send 0.005 s × 147 after 0.5 s), where the
    /// trace-all line prints it rounded to the microsecond. The ns-2 front end asks for it
    /// when a script writes a nam trace, and takes the field off again.
    pub ns2_exact_times: bool,
    /// Write the wireless trace in ns-2's new format (`$ns use-newtrace`: `-t time -Hs ...`
    /// fields, `CMUTrace`'s `newtrace_` branches) instead of the old CMU one.
    pub ns2_newtrace: bool,
}

/// What the capture points produced.
#[derive(Clone, Debug, Default)]
pub struct CaptureOutput {
    /// The pcap file's bytes.
    pub pcap: Option<Vec<u8>>,
    /// The ns-2 trace text.
    pub ns2_trace: Option<String>,
}

/// The advertised TCP window written in every segment (§8.4).
const TCP_WINDOW: u16 = 65_535;

/// How a flow's packets look on the wire.
struct FlowWire {
    /// TCP: payload bytes per full segment, and whether packet 0 is a SYN.
    mss: u32,
    syn: bool,
    isn_s: u32,
    isn_r: u32,
    /// The ns-2 packet type of its datagrams (`cbr`, `exp`, `pareto`).
    udp_type: &'static str,
}

impl FlowWire {
    fn new(index: usize, transport: &FlowTransport) -> Self {
        // Distinct, arbitrary non-zero initial sequence numbers per flow and direction.
        let isn_s = 0x1000_0000u32.wrapping_add((index as u32).wrapping_mul(0x0101_0101));
        let isn_r = isn_s ^ 0x8000_0000;
        match transport {
            FlowTransport::Tcp { tcp, .. } => FlowWire {
                mss: tcp.packet_size,
                syn: tcp.packet0_is_syn(),
                isn_s,
                isn_r,
                udp_type: "udp",
            },
            FlowTransport::FullTcp { a, .. } => FlowWire {
                mss: a.segsize,
                syn: false,
                isn_s,
                isn_r,
                udp_type: "udp",
            },
            FlowTransport::Ping { .. } => FlowWire {
                mss: 0,
                syn: false,
                isn_s,
                isn_r,
                udp_type: "ping",
            },
            FlowTransport::Udp { traffic } => FlowWire {
                mss: 0,
                syn: false,
                isn_s,
                isn_r,
                udp_type: match traffic {
                    TrafficSpec::Cbr { .. } => "cbr",
                    TrafficSpec::Exponential { .. } => "exp",
                    TrafficSpec::Pareto { .. } => "pareto",
                },
            },
        }
    }

    /// First byte of packet `k` (§8.4).
    fn start(&self, k: Seq) -> u32 {
        let d = i64::from(self.syn);
        if self.syn && k == 0 {
            return self.isn_s;
        }
        let off = d + (k - d) * i64::from(self.mss);
        self.isn_s.wrapping_add(off as u32)
    }
}

struct PcapTap {
    node: NodeId,
    flow: Option<u32>,
    writer: PcapWriter,
}

pub(super) struct Capture {
    flows: Vec<FlowWire>,
    pcap: Option<PcapTap>,
    /// The ns-2 trace text and whether it is the wireless format.
    ns2: Option<(String, bool)>,
    /// Wireless layers whose s/r/f lines are left out (see [`CaptureSpec::ns2_omit`]).
    omit_agt: bool,
    omit_rtr: bool,
    /// Write MAC lines (see [`CaptureSpec::ns2_mac`]).
    pub(super) mac: bool,
    /// Write event-trace lines (see [`CaptureSpec::ns2_events`]).
    pub(super) events: bool,
    /// End wired lines with their exact time (see [`CaptureSpec::ns2_exact_times`]).
    exact_times: bool,
    /// The wireless trace's new format (see [`CaptureSpec::ns2_newtrace`]).
    newtrace: bool,
    /// The MAC part of the last 802.11 frame that carried each packet (by uid): ns-2's
    /// packet keeps its MAC header after reception, so every later line about it (`r`, `f`,
    /// `D` at the routing and agent layers) prints that header.
    last_mac: HashMap<u64, MacFields>,
    /// The next hop each packet was handed to an 802.11 interface for (by uid), until it
    /// arrives or is dropped: ns-2's link layer writes the frame's MAC header before the
    /// interface queue, so an `IFQ` drop line shows it (`[0 next-hop me 800]`).
    ifq_hop: HashMap<u64, Addr>,
    /// The packet an 802.11 interface is handing back to routing, while routing handles
    /// the failure (see [`TxFailed`]).
    pub(super) tx_failed: Option<TxFailed>,
    /// The node that handed the packet to the device call being drained, if any: names the
    /// node of an 802.11 interface-queue drop in the wireless trace.
    pub(super) submitter: Option<NodeId>,
    /// The DSR flow id of each packet a source sent under flow state (by uid), for the
    /// `SFf` lines of the nodes that forward it: ternsim's packets keep their path instead
    /// of a flow id, which only the trace prints.
    dsr_flow_ids: HashMap<u64, u16>,
}

/// A packet an 802.11 interface hands back to routing: ns-2's MAC writes the DATA header
/// (`sendDATA`) as it takes a packet and hands routing a copy of it, so the lines about it
/// (and about a DSR route error made out of it) show that header; ARP writes the receiver
/// only once it knows it.
#[derive(Clone, Copy, Debug)]
pub(super) struct TxFailed {
    pub uid: u64,
    pub cause: TxFailureCause,
    /// The Duration of the MAC's DATA header.
    pub duration_us: u64,
    /// The hop the MAC gave up on.
    pub hop: Addr,
}

impl Capture {
    /// Routing is about to handle `failed`. A packet the addressee had decoded (only its
    /// ACKs were lost) left the queue's record of its hop when it arrived there; the copy
    /// that comes back still has that hop in its header, as ns-2's `pktTx_` copy does.
    pub(super) fn note_tx_failed(&mut self, failed: TxFailed) {
        self.ifq_hop.insert(failed.uid, failed.hop);
        self.tx_failed = Some(failed);
    }

    /// The capture a run asked for, or an error naming an unknown pcap target.
    pub(super) fn new(sc: &ResolvedScenario, spec: &CaptureSpec) -> Result<Option<Self>, String> {
        if spec.pcap.is_none() && !spec.ns2_trace {
            return Ok(None);
        }
        let (mut omit_agt, mut omit_rtr) = (false, false);
        for layer in &spec.ns2_omit {
            match layer.as_str() {
                "AGT" => omit_agt = true,
                "RTR" => omit_rtr = true,
                other => return Err(format!("ns2_omit: unknown layer {other:?}; AGT or RTR")),
            }
        }
        let pcap = match &spec.pcap {
            None => None,
            Some(target) => {
                let (node, flow) = resolve_target(sc, target)?;
                Some(PcapTap {
                    node,
                    flow,
                    writer: PcapWriter::new(),
                })
            }
        };
        Ok(Some(Capture {
            flows: sc
                .flows
                .iter()
                .enumerate()
                .map(|(i, f)| FlowWire::new(i, &f.transport))
                .collect(),
            pcap,
            ns2: spec
                .ns2_trace
                .then(|| (String::new(), sc.wireless.is_some())),
            omit_agt,
            omit_rtr,
            mac: spec.ns2_trace && spec.ns2_mac && sc.wireless.is_some(),
            events: spec.ns2_trace && spec.ns2_events,
            exact_times: spec.ns2_exact_times,
            newtrace: spec.ns2_newtrace,
            last_mac: HashMap::new(),
            ifq_hop: HashMap::new(),
            tx_failed: None,
            submitter: None,
            dsr_flow_ids: HashMap::new(),
        }))
    }

    /// The ns-2 trace text written since the last call, handed over (empty without a trace).
    pub(super) fn take_ns2_trace(&mut self) -> String {
        self.ns2
            .as_mut()
            .map(|(t, _)| std::mem::take(t))
            .unwrap_or_default()
    }

    /// Bytes of ns-2 trace text written since it was last taken.
    pub(super) fn ns2_len(&self) -> usize {
        self.ns2.as_ref().map_or(0, |(t, _)| t.len())
    }

    pub(super) fn finish(self) -> CaptureOutput {
        CaptureOutput {
            pcap: self.pcap.map(|p| p.writer.into_bytes()),
            ns2_trace: self.ns2.map(|(t, _)| t),
        }
    }

    /// Where wired lines go: the trace text in either format. A wired-cum-wireless run
    /// (wired links and an 802.11 channel) writes the wired format for its links and the
    /// wireless format for its channel into the one text, as ns-2 writes both into one
    /// trace-all file.
    fn wired_trace(&mut self) -> Option<&mut String> {
        self.ns2.as_mut().map(|(t, _)| t)
    }

    /// Whether the 802.11 channels must log their MAC events: a wireless ns-2 trace prints
    /// the MAC lines (with `mac`) and the last MAC header of every packet received.
    pub(super) fn wants_mac_log(&self) -> bool {
        matches!(self.ns2, Some((_, true)))
    }

    fn wireless_trace(&mut self) -> Option<&mut String> {
        match &mut self.ns2 {
            Some((t, true)) => Some(t),
            _ => None,
        }
    }

    /// ns-2.35's packet type number (`common/packet.h`: `PT_TCP` 0, `PT_UDP` 1, `PT_CBR` 2,
    /// `PT_ACK` 5, `PT_PARETO` 28, `PT_EXP` 29, `PT_DSR` 37, `PT_AODV` 38, `PT_PING` 44), which
    /// `SSendFailure` prints.
    fn ns2_ptype(&self, p: &Packet) -> u32 {
        match self.type_name(p) {
            "tcp" => 0,
            "udp" => 1,
            "cbr" => 2,
            "ack" => 5,
            "pareto" => 28,
            "exp" => 29,
            "ping" => 44,
            "AODV" => 38,
            _ => 37,
        }
    }

    /// The ns-2 packet type name.
    fn type_name(&self, p: &Packet) -> &'static str {
        match &p.payload {
            Payload::TcpData(_) => "tcp",
            Payload::TcpAck(_) => "ack",
            // ns-2 `FullTcpAgent::listen` makes the passive opener's packets `ack`s.
            Payload::FullTcp(s) if s.listener => "ack",
            Payload::FullTcp(_) => "tcp",
            Payload::Ping(_) => "ping",
            Payload::Udp(_) => p
                .flow
                .and_then(|f| self.flows.get(f as usize))
                .map_or("udp", |w| w.udp_type),
            Payload::Control(m) => {
                let k = m.kind();
                if k.starts_with("aodv") {
                    "AODV"
                } else if k.starts_with("dsr") {
                    "DSR"
                } else if k == "dv_update" {
                    "rtProtoDV"
                } else if m.protocol() == "mobile_ip" {
                    // ns-2's Mobile IP agents are `Agent(PT_UDP)` (`mobile/mip-reg.cc`).
                    "udp"
                } else {
                    "message"
                }
            }
        }
    }

    /// The IPv4 packet `p` is on the wire, outermost header first.
    fn ip_packet(&self, p: &Packet) -> IpPacket {
        let inner = IpPacket {
            src: p.ip.src.0,
            dst: p.ip.dst.0,
            ttl: p.ip.ttl,
            ident: p.uid as u16,
            transport: self.transport(p),
        };
        // Outer tunnel headers wrap the packet, innermost first (RFC 2003).
        p.headers.iter().fold(inner, |pkt, h| match h {
            Header::Ip(outer) => IpPacket {
                src: outer.src.0,
                dst: outer.dst.0,
                ttl: outer.ttl,
                ident: p.uid as u16,
                transport: Transport::Tunnel(Box::new(pkt)),
            },
            // A DSR source route has no IPv4 encoding here, and ns-2's extra IP header
            // exists in its size only; their bytes are left out.
            Header::SourceRoute(_) | Header::RoutingIpCopy => pkt,
        })
    }

    fn transport(&self, p: &Packet) -> Transport {
        let flow = p.flow.and_then(|f| self.flows.get(f as usize));
        match (&p.payload, flow) {
            (Payload::TcpData(seg), Some(w)) => {
                let syn = w.syn && seg.seq == 0;
                Transport::Tcp {
                    src_port: p.ports.src,
                    dst_port: p.ports.dst,
                    seq: w.start(seg.seq),
                    ack: if syn {
                        0
                    } else {
                        w.isn_r.wrapping_add(u32::from(w.syn))
                    },
                    flags: if syn { pcap::TCP_SYN } else { pcap::TCP_ACK },
                    window: TCP_WINDOW,
                    options: if syn {
                        pcap::syn_options(w.mss.min(u32::from(u16::MAX)) as u16)
                    } else {
                        Vec::new()
                    },
                    payload_len: if syn { 0 } else { seg.payload_bytes },
                }
            }
            (Payload::TcpAck(a), Some(w)) => {
                let syn_ack = w.syn && a.ack == 0 && a.echo_seq == 0;
                let blocks: Vec<(u32, u32)> = a
                    .sack_blocks()
                    .iter()
                    .map(|b| (w.start(b.left), w.start(b.right)))
                    .collect();
                let mut options = pcap::sack_option(&blocks);
                if syn_ack {
                    options = pcap::syn_options(w.mss.min(u32::from(u16::MAX)) as u16);
                }
                Transport::Tcp {
                    src_port: p.ports.src,
                    dst_port: p.ports.dst,
                    seq: if syn_ack {
                        w.isn_r
                    } else {
                        w.isn_r.wrapping_add(u32::from(w.syn))
                    },
                    ack: w.start(a.ack + 1),
                    flags: if syn_ack {
                        pcap::TCP_SYN | pcap::TCP_ACK
                    } else {
                        pcap::TCP_ACK
                    },
                    window: TCP_WINDOW,
                    options,
                    payload_len: 0,
                }
            }
            // A FullTcp segment carries its own byte numbers, offset by each side's ISN.
            (Payload::FullTcp(s), Some(w)) => {
                let (own, peer) = if s.listener {
                    (w.isn_r, w.isn_s)
                } else {
                    (w.isn_s, w.isn_r)
                };
                let mut flags = 0;
                for (bit, wire) in [
                    (crate::tcp::full::TH_SYN, pcap::TCP_SYN),
                    (crate::tcp::full::TH_ACK, pcap::TCP_ACK),
                ] {
                    if s.flags & bit != 0 {
                        flags |= wire;
                    }
                }
                Transport::Tcp {
                    src_port: p.ports.src,
                    dst_port: p.ports.dst,
                    seq: own.wrapping_add(s.seq as u32),
                    ack: if s.ack < 0 {
                        0
                    } else {
                        peer.wrapping_add(s.ack as u32)
                    },
                    flags,
                    window: TCP_WINDOW,
                    options: Vec::new(),
                    payload_len: s.datalen,
                }
            }
            (Payload::Udp(d), _) => Transport::Udp {
                src_port: p.ports.src,
                dst_port: p.ports.dst,
                payload_len: d.payload_bytes,
            },
            // A ping is an ICMP echo (RFC 792) of the packet's size; its identifier is the
            // flow's port, which both ends share.
            (Payload::Ping(e), _) => Transport::IcmpEcho {
                reply: e.reply,
                ident: p.ports.src,
                seq: e.seq as u16,
                data_len: p.size.saturating_sub(IP_HEADER_BYTES + 8),
            },
            _ => Transport::Raw {
                protocol: pcap::IPPROTO_EXPERIMENTAL,
                payload_len: p.size.saturating_sub(IP_HEADER_BYTES),
            },
        }
    }
}

/// Resolves a pcap target: `flow:NAME`, `node:NAME`, or a bare name (a flow first).
fn resolve_target(sc: &ResolvedScenario, target: &str) -> Result<(NodeId, Option<u32>), String> {
    let flow = |name: &str| {
        sc.flows
            .iter()
            .position(|f| f.name == name)
            .map(|i| (NodeId(sc.flows[i].src as u32), Some(i as u32)))
    };
    let node = |name: &str| {
        sc.nodes
            .iter()
            .position(|n| n.name == name)
            .map(|i| (NodeId(i as u32), None))
    };
    let found = if let Some(name) = target.strip_prefix("flow:") {
        flow(name)
    } else if let Some(name) = target.strip_prefix("node:") {
        node(name)
    } else {
        flow(target).or_else(|| node(target))
    };
    found.ok_or_else(|| {
        let flows: Vec<&str> = sc.flows.iter().map(|f| f.name.as_str()).collect();
        let nodes: Vec<&str> = sc.nodes.iter().map(|n| n.name.as_str()).collect();
        format!(
            "pcap: no flow or node named {target:?} (flows: {}; nodes: {})",
            flows.join(", "),
            nodes.join(", ")
        )
    })
}

/// The ns-2 wireless layer and reason code of a drop (ns-2 `cmu-trace.h`).
fn wireless_drop_code(why: DropReason) -> (&'static str, &'static str) {
    match why {
        DropReason::IfqOverflow
        | DropReason::QueueOverflow
        | DropReason::RedEarly
        | DropReason::RedForced => ("IFQ", "---"),
        DropReason::ArpReplaced => ("IFQ", "ARP"),
        DropReason::EndOfSimulation => ("IFQ", "END"),
        DropReason::NoRoute => ("RTR", "NRTE"),
        DropReason::TtlExpired => ("RTR", "TTL"),
        // ns-2's DSR drops a packet its full send buffer evicts through the same
        // `dropSendBuff` as one that waited too long: `DROP_RTR_QTIMEOUT` for both.
        DropReason::HoldTimeout
        | DropReason::SendBufferTimeout
        | DropReason::SendBufferOverflow => ("RTR", "TOUT"),
        DropReason::HoldOverflow => ("RTR", "IFQ"),
        DropReason::LinkFailure => ("RTR", "CBK"),
        // ns-2: `DROP_RTR_SALVAGE` past the salvage limit, `DROP_RTR_NO_ROUTE` without one.
        DropReason::SalvageLimit => ("RTR", "SAL"),
        DropReason::SalvageNoRoute => ("RTR", "NRTE"),
        // Not written (see `tap_drop`).
        DropReason::DeadFlow => ("RTR", "---"),
        DropReason::NoAgent => ("AGT", "---"),
        // A Mobile IP agent or mobile node dropped it at the network layer.
        DropReason::MipNoVisitor | DropReason::MipNoAgent => ("RTR", "---"),
        // Not written (see `tap_drop`).
        DropReason::NoBaseStationRoute | DropReason::BaseStationToItself => ("RTR", "NRTE"),
        DropReason::ChannelError | DropReason::NoReceiver => ("MAC", "ERR"),
        DropReason::LinkDown | DropReason::RlcBufferOverflow | DropReason::RlcDiscard => {
            ("MAC", "---")
        }
    }
}

impl World {
    /// The ns-2 node number of an address: the node holding it, -1 for broadcast.
    fn ns2_node(&self, a: Addr) -> i64 {
        if a.is_broadcast() {
            return -1;
        }
        self.addr_owner
            .get(a.index())
            .copied()
            .flatten()
            .map_or(-1, |n| i64::from(n.0))
    }

    /// The ns-2 MAC address of an address's node: its 802.11 interface's index among the
    /// stations (ns-2 numbers its Mac objects in creation order, `MacIndex`, so a wired node
    /// of a wired-cum-wireless script takes none); -1 for broadcast.
    /// The MAC header ns-2 shows on packet `uid` at node `n` once it went down to the link
    /// layer for next hop `hop` and came back out of the interface queue or the MAC:
    /// `LL::sendDown` writes the source and the type over the header the packet arrived
    /// with, ARP the receiver once resolved. The Duration is the last one a MAC wrote: this
    /// node's DATA header for the packet its MAC gave up on, else the previous hop's (0 for
    /// a packet originated here). A packet ARP did not resolve a next hop for (replaced
    /// while held, `arp_replaced`, or failed with its requests unanswered) keeps the
    /// receiver of the frame that brought it (0 if none).
    fn link_layer_header(&self, n: i64, uid: u64, hop: Addr, arp_replaced: bool) -> MacFields {
        let (failed, prior) = match self.capture.as_deref() {
            Some(c) => (c.tx_failed, c.last_mac.get(&uid).copied()),
            None => (None, None),
        };
        let cause = failed
            .filter(|f| f.uid == uid)
            .map(|f| (f.cause, f.duration_us));
        let duration_us = match cause {
            Some((TxFailureCause::RetryLimit, d)) => d,
            _ => prior.map_or(0, |m| m.duration_us),
        };
        let unresolved = arp_replaced || matches!(cause, Some((TxFailureCause::ArpUnresolved, _)));
        let ra = if unresolved {
            prior.map_or(0, |m| m.ra)
        } else {
            self.ns2_mac(hop)
        };
        MacFields {
            duration_us,
            ra,
            ta: self.ns2_mac_of(n).max(0),
            ether_type: 0x800,
        }
    }

    /// Routing of `node` is about to handle packet `uid`, which its interface handed back
    /// (see [`TxFailed`]): the lines routing writes of it from now on (a DSR salvage's
    /// `f RTR`, an AODV or DSDV `D RTR CBK`) show the header the link layer wrote on it,
    /// which it keeps until a MAC sends it again (ns-2 hands routing the packet itself).
    pub(super) fn note_handed_back(&mut self, node: NodeId, uid: u64, hop: Addr) {
        if self.capture.is_none() {
            return;
        }
        let mac = self.link_layer_header(i64::from(node.0), uid, hop, false);
        if let Some(c) = self.capture.as_deref_mut() {
            c.last_mac.insert(uid, mac);
        }
    }

    fn ns2_mac(&self, a: Addr) -> i64 {
        match self.addr_owner.get(a.index()).copied().flatten() {
            Some(n) if !a.is_broadcast() => self.ns2_mac_of(i64::from(n.0)),
            _ => self.ns2_node(a),
        }
    }

    /// Node `node`'s ns-2 MAC address (its station index), or its node number without a
    /// NIC.
    fn ns2_mac_of(&self, node: i64) -> i64 {
        usize::try_from(node)
            .ok()
            .filter(|&n| n < self.nodes.len())
            .and_then(|n| self.wifi_iface(n))
            .map_or(node, |i| i64::from(self.ifaces[i.ix()].port))
    }

    /// A packet's (source, destination) ports as ns-2 numbers its agents; packets of no flow
    /// keep their own.
    fn ns2_ports(&self, p: &Packet) -> (u16, u16) {
        match p.flow.and_then(|f| self.flows.get(f as usize)) {
            Some(f) if matches!(p.payload, Payload::TcpAck(_)) => (f.ns2_ports.1, f.ns2_ports.0),
            // A FullTcp segment from the flow's far end (its listener, or a second opener).
            Some(f) if matches!(p.payload, Payload::FullTcp(_)) && p.ip.src != f.src_addr => {
                (f.ns2_ports.1, f.ns2_ports.0)
            }
            Some(f) => f.ns2_ports,
            None => (p.ports.src, p.ports.dst),
        }
    }

    /// The (from, to) nodes of wired device `device`, if it is one.
    fn wired_ends(&self, device: usize) -> Option<(u32, u32)> {
        match &self.devices[device] {
            Device::Wired { link, dir, .. } => {
                let e = &self.edges[*link];
                Some(if *dir == 0 {
                    (e.a.0, e.b.0)
                } else {
                    (e.b.0, e.a.0)
                })
            }
            _ => None,
        }
    }

    /// The event-trace line of one of flow `f`'s sender moments (ns-2 `TcpAgent::
    /// trace_event`: the sender's node, the receiver's, the flow, `t_seqno_`, `int(cwnd_)`).
    pub(super) fn ns2_event_line(&mut self, now: SimTime, f: usize, e: &Ns2Event) {
        let (src, dst) = (self.flows[f].src, self.flows[f].dst);
        let Some(out) = self.capture.as_deref_mut().and_then(|c| c.wired_trace()) else {
            return;
        };
        EventRecord {
            time: now,
            src: i64::from(src.0),
            dst: i64::from(dst.0),
            event: e.kind.name(),
            fid: f as i64,
            t_seqno: e.t_seqno,
            cwnd: e.cwnd,
        }
        .write(out);
    }

    fn wired_line(&mut self, event: char, now: SimTime, device: usize, p: &Packet) {
        let Some((from, to)) = self.wired_ends(device) else {
            return;
        };
        // ns-2's wired line prints the packet's `hdr_ip`, which inside a tunnel is the outer
        // header the encapsulator wrote (`mip.cc` `MIPEncapsulator::recv`: the inner one is
        // kept aside in `hdr_ipinip`), from and to the tunnel's port at both ends. A packet
        // of no flow (a Mobile IP message) keeps its own source port, by which the ns-2
        // front end knows it.
        let ((src, sport), (dst, dport)) = if p.is_tunnelled() {
            let outer = p.routing_header();
            let port = crate::mobileip::agent::TUNNEL_PORT;
            let sport = if p.flow.is_some() { port } else { p.ports.src };
            (
                (self.ns2_node(outer.src), sport),
                (self.ns2_node(outer.dst), port),
            )
        } else {
            let (sport, dport) = self.ns2_ports(p);
            (
                (self.ns2_node(p.ip.src), sport),
                (self.ns2_node(p.ip.dst), dport),
            )
        };
        let time_exact = self.exact_now(now);
        let exact = self
            .capture
            .as_deref()
            .is_some_and(|c| c.exact_times)
            .then_some(time_exact);
        let Some(cap) = self.capture.as_deref_mut() else {
            return;
        };
        let kind = cap.type_name(p);
        let Some(out) = cap.wired_trace() else {
            return;
        };
        WiredRecord {
            event,
            time: now,
            from,
            to,
            kind,
            size: p.size,
            fid: p.flow.map_or(0, i64::from),
            src: (src.max(0) as u32, sport),
            dst: (dst.max(0) as u32, dport),
            seq: p.trace_seq(),
            uid: p.ns2_uid,
            cong_action: match &p.payload {
                Payload::TcpData(s) => s.cong_action,
                Payload::FullTcp(s) => s.cong_action(),
                _ => false,
            },
            ecn: match &p.payload {
                Payload::TcpData(s) => s.ecn,
                Payload::TcpAck(a) => a.ecn,
                Payload::FullTcp(s) => s.ecn,
                _ => Default::default(),
            },
            tcp_header: match &p.payload {
                Payload::FullTcp(s) => Some((s.ack, s.flags, s.hlen, s.n_sack)),
                _ => None,
            },
            exact,
            time_exact: Some(time_exact),
        }
        .write(out);
    }

    #[allow(clippy::too_many_arguments)]
    fn wireless_line(
        &mut self,
        event: char,
        now: SimTime,
        node: i64,
        layer: &str,
        reason: &str,
        next_hop: i64,
        p: &Packet,
    ) {
        self.wireless_packet_line(
            event,
            now,
            node,
            layer,
            reason,
            next_hop,
            p,
            MacFields::default(),
            p.size,
        );
    }

    /// A wireless trace line about packet `p`, with its MAC part and the size to print.
    #[allow(clippy::too_many_arguments)]
    fn wireless_packet_line(
        &mut self,
        event: char,
        now: SimTime,
        node: i64,
        layer: &str,
        reason: &str,
        next_hop: i64,
        p: &Packet,
        mac: MacFields,
        size: u32,
    ) {
        if event != 'D' {
            let omitted = |c: &Capture| match layer {
                "AGT" => c.omit_agt,
                "RTR" => c.omit_rtr,
                _ => false,
            };
            if self.capture.as_deref().is_some_and(omitted) {
                return;
            }
        }
        let src = self.ns2_node(p.ip.src);
        let own_mac = self.ns2_mac_of(node);
        // ns-2's DSR addresses a route request to its target (`getRouteForPacket`) and
        // broadcasts it by the MAC's next hop; ternsim's goes to the broadcast address.
        let dst = match &p.payload {
            Payload::Control(ControlMessage::DsrRouteRequest { target, .. }) => {
                self.ns2_node(*target)
            }
            _ => self.ns2_node(p.ip.dst),
        };
        let (sport, dport) = self.ns2_ports(p);
        // A routing message's own part (AODV or DSR), worked out once, for control packets
        // only.
        let routing_part = match &p.payload {
            Payload::Control(_) => self
                .aodv_part(p)
                .map(WirelessProto::Aodv)
                .or_else(|| self.dsr_part(p).map(WirelessProto::Dsr)),
            _ => None,
        };
        let position = self.newtrace_position(now, node);
        let Some(cap) = self.capture.as_deref_mut() else {
            return;
        };
        // Above the MAC: the header of the frame that brought the packet here, if any (a
        // packet its node originated has none yet: `[0 0 0 0]`), unless the caller gives
        // the one the link layer wrote (an ether type set).
        let given = mac.ether_type != 0;
        let mac = if layer == "MAC" || given || (event == 's' && layer == "AGT") {
            mac
        } else {
            cap.last_mac.get(&p.uid).copied().unwrap_or(mac)
        };
        // A packet received by unicast still carries the next hop its sender chose, this
        // node (ns-2 `hdr_cmn::next_hop_`), on the lines above the MAC: as it arrives, and
        // if routing drops it before choosing another (`D RTR NRTE`); a DSDV update or DSR
        // route request received by broadcast carries the IP_BROADCAST (-1) its sender set
        // (DSDV_Agent::sendOutBCastPkt, DSRAgent::sendOutRtReq). A packet that came
        // by no frame (its node's own, handed to routing) has none yet (-2).
        let received = event == 'r' || event == 'D';
        let by_frame = mac.ether_type != 0;
        let next_hop = if received && layer != "MAC" && next_hop == -2 && by_frame {
            if mac.ra == own_mac {
                node
            } else if mac.ra == -1
                && matches!(
                    &p.payload,
                    Payload::Control(
                        ControlMessage::DsdvUpdate { .. } | ControlMessage::DsrRouteRequest { .. }
                    )
                )
            {
                -1
            } else {
                next_hop
            }
        } else {
            next_hop
        };
        // ns-2's AODV never sets a route request's or a HELLO's next hop (Packet::alloc
        // leaves -2, kept on every hop: AODV::sendRequest, AODV::sendHello, forward of a
        // broadcast) and sets an error's to 0 (AODV::sendError); only the new format prints
        // it (`-Hd`), the old one's IP part prints a negative next hop as 0.
        let next_hop = match &p.payload {
            Payload::Control(
                ControlMessage::AodvRreq { .. } | ControlMessage::AodvHello { .. },
            ) => -2,
            Payload::Control(ControlMessage::AodvRerr { .. }) => 0,
            _ => next_hop,
        };
        let kind = cap.type_name(p);
        let Some(out) = cap.wireless_trace() else {
            return;
        };
        let proto = match &p.payload {
            Payload::TcpData(s) => WirelessProto::Tcp { seq: s.seq, ack: 0 },
            Payload::TcpAck(a) => WirelessProto::Tcp { seq: a.ack, ack: 0 },
            Payload::FullTcp(s) => WirelessProto::Tcp {
                seq: s.seq,
                ack: s.ack.max(0),
            },
            Payload::Udp(d) if kind == "cbr" => WirelessProto::Rtp { seq: d.seq as i64 },
            Payload::Control(_) => routing_part.unwrap_or(WirelessProto::None),
            _ => WirelessProto::None,
        };
        WirelessRecord {
            event,
            time: now,
            node: node.max(0) as u32,
            layer,
            reason,
            uid: p.ns2_uid,
            kind,
            size,
            src: (src, sport),
            dst: (dst, dport),
            ttl: p.routing_header().ttl,
            next_hop,
            num_forwards: p.num_forwards,
            proto,
            mac,
            newtrace: position.map(|(x, y)| NewTraceFields {
                next_hop,
                x,
                y,
                flow: p.flow.map_or(-1, i64::from),
            }),
        }
        .write(out);
    }

    /// Where node `node` (ns-2's number) is now, for the `-Nx -Ny` of ns-2's new wireless
    /// trace format; None when that format is not written.
    fn newtrace_position(&self, now: SimTime, node: i64) -> Option<(f64, f64)> {
        if !self.capture.as_deref().is_some_and(|c| c.newtrace) {
            return None;
        }
        let pos = usize::try_from(node)
            .ok()
            .and_then(|i| self.nodes.get(i))
            .and_then(|n| n.mobility.position_at(now));
        Some(pos.map_or((0.0, 0.0), |p| (p.x, p.y)))
    }

    /// The DSR part of a DSR message's trace lines (`trace::ns2::DsrPart`).
    fn dsr_part(&self, p: &Packet) -> Option<DsrPart> {
        let Payload::Control(m) = &p.payload else {
            return None;
        };
        let routed = p.source_route().map_or(0, |sr| sr.path.len() as u32);
        Some(match m {
            ControlMessage::DsrRouteRequest {
                id,
                route,
                route_error,
                ..
            } => {
                let (from, to) = route_error.map_or((0, 0), |(f, t)| {
                    (self.ns2_node(f).max(0), self.ns2_node(t).max(0))
                });
                DsrPart {
                    num_addrs: route.len() as u32,
                    request: true,
                    seq: u32::from(*id),
                    error: route_error.is_some(),
                    num_errors: u32::from(route_error.is_some()),
                    from,
                    to,
                    ..DsrPart::default()
                }
            }
            ControlMessage::DsrRouteReply {
                route, request_id, ..
            } => DsrPart {
                num_addrs: routed,
                seq: u32::from(*request_id),
                reply: true,
                reply_len: route.len() as u32,
                reply_first: route.first().map_or(0, |a| self.ns2_node(*a).max(0)),
                reply_last: route.last().map_or(0, |a| self.ns2_node(*a).max(0)),
                ..DsrPart::default()
            },
            ControlMessage::DsrRouteError {
                from,
                to,
                originator,
            } => DsrPart {
                num_addrs: routed,
                error: true,
                num_errors: 1,
                tell: self.ns2_node(*originator).max(0),
                from: self.ns2_node(*from).max(0),
                to: self.ns2_node(*to).max(0),
                ..DsrPart::default()
            },
            _ => return None,
        })
    }

    /// The AODV part of an AODV message's trace lines (`trace::ns2::AodvPart`): ternsim
    /// counts a message's hops from 0 at its originator (RFC 3561), ns-2 from 1.
    fn aodv_part(&self, p: &Packet) -> Option<AodvPart> {
        let Payload::Control(m) = &p.payload else {
            return None;
        };
        Some(match m {
            ControlMessage::AodvRreq {
                id,
                dst,
                dst_seq,
                orig,
                orig_seq,
                hop_count,
                ..
            } => AodvPart::Request {
                hops: u32::from(*hop_count) + 1,
                id: *id,
                dst: self.ns2_node(*dst),
                dst_seq: *dst_seq,
                src: self.ns2_node(*orig),
                src_seq: *orig_seq,
            },
            ControlMessage::AodvRrep {
                dst,
                dst_seq,
                hop_count,
                lifetime,
                ..
            } => AodvPart::Reply {
                hello: false,
                hops: u32::from(*hop_count) + 1,
                dst: self.ns2_node(*dst),
                dst_seq: *dst_seq,
                lifetime_s: lifetime.as_secs_f64(),
            },
            // ns-2 `sendHello`: a reply about the sender, 1 hop, lifetime (1 +
            // ALLOWED_HELLO_LOSS) · HELLO_INTERVAL = 3 s.
            ControlMessage::AodvHello { dst_seq } => AodvPart::Reply {
                hello: true,
                hops: 1,
                dst: self.ns2_node(p.ip.src),
                dst_seq: *dst_seq,
                lifetime_s: 3.0,
            },
            ControlMessage::AodvRerr { unreachable } => AodvPart::Error {
                count: unreachable.len() as u32,
                first: unreachable.first().map_or(0, |u| self.ns2_node(u.0)),
                second: unreachable.get(1).map_or(0, |u| self.ns2_node(u.0)),
            },
            _ => return None,
        })
    }

    /// Writes the MAC events 802.11 channel `device` logged since the last call as the MAC
    /// lines of the wireless trace (`wifi/mac_log.rs`): MAC addresses are ns-2's MAC
    /// numbers (`ns2_mac`), a node's id in a script of wireless nodes only.
    pub(super) fn drain_mac_log(&mut self, device: usize) {
        let log = match &mut self.devices[device] {
            super::Device::Wifi(w) if !w.mac_log.is_empty() => std::mem::take(&mut w.mac_log),
            _ => return,
        };
        for e in &log {
            if let (MacFrameKind::Data, 'r', Some(p)) = (e.kind, e.event, &e.packet) {
                let mac = self.mac_fields(e);
                if let Some(cap) = self.capture.as_deref_mut() {
                    cap.last_mac.insert(p.uid, mac);
                }
            }
            // An ARP frame's `D IFQ` line comes from the queue's drop trace, which ns-2
            // gives every mobile node whatever its trace switches.
            if self.capture.as_deref().is_some_and(|c| c.mac) || e.layer == "IFQ" {
                self.mac_line(device, e);
            }
        }
        if let super::Device::Wifi(w) = &mut self.devices[device] {
            let mut log = log;
            log.clear();
            w.mac_log = log; // keep the allocation
        }
    }

    /// The MAC part of a MAC event's frame.
    fn mac_fields(&self, e: &MacLogEntry) -> MacFields {
        MacFields {
            duration_us: e.duration_us,
            ra: self.ns2_mac(e.ra),
            ta: e.ta.map_or(0, |a| self.ns2_mac(a).max(0)),
            ether_type: match e.kind {
                MacFrameKind::Data => 0x800,
                MacFrameKind::Arp { .. } => 0x806,
                _ => 0,
            },
        }
    }

    fn mac_line(&mut self, device: usize, e: &MacLogEntry) {
        let node = self.ifaces[self.arrival_iface[device][usize::from(e.port)].ix()].node;
        let mac = self.mac_fields(e);
        let ra = mac.ra;
        let now = SimTime(e.time);
        let n = i64::from(node.0);
        if let (MacFrameKind::Data, Some(p)) = (e.kind, &e.packet) {
            // A broadcast's next hop is ns-2's IP_BROADCAST (-1; the old format prints 0).
            let next_hop = if e.ra.is_broadcast() {
                -1
            } else {
                self.ns2_node(e.ra)
            };
            self.wireless_packet_line(
                e.event, now, n, e.layer, e.reason, next_hop, p, mac, e.bytes,
            );
            return;
        }
        let (kind, proto) = match e.kind {
            MacFrameKind::Rts => ("RTS", WirelessProto::MacControl),
            MacFrameKind::Cts => ("CTS", WirelessProto::MacControl),
            MacFrameKind::Ack => ("ACK", WirelessProto::MacControl),
            MacFrameKind::Arp { request, target } => {
                // A request goes from the asker (TA) to everyone for `target`; a reply
                // from the answerer (TA) to the asker (RA).
                let sender = e.ta.map_or(0, |a| self.ns2_node(a).max(0));
                let (target_hw, target) = if request {
                    (0, self.ns2_node(target))
                } else {
                    (ra, self.ns2_node(e.ra))
                };
                let proto = WirelessProto::Arp {
                    request,
                    sender_hw: mac.ta,
                    sender,
                    target_hw,
                    target,
                };
                ("ARP", proto)
            }
            // A DATA frame whose packet the channel no longer holds: nothing to trace.
            MacFrameKind::Data => return,
        };
        let position = self.newtrace_position(now, i64::from(node.0));
        let Some(out) = self.capture.as_deref_mut().and_then(|c| c.wireless_trace()) else {
            return;
        };
        WirelessRecord {
            event: e.event,
            time: now,
            node: node.0,
            layer: e.layer,
            reason: e.reason,
            uid: 0,
            kind,
            size: e.bytes,
            src: (0, 0),
            dst: (0, 0),
            ttl: 0,
            next_hop: 0,
            num_forwards: 0,
            proto,
            mac,
            newtrace: position.map(|(x, y)| NewTraceFields {
                next_hop: -2,
                x,
                y,
                flow: -1,
            }),
        }
        .write(out);
    }

    /// Starts the DSR agents' logs when a wireless ns-2 trace is written, and writes the
    /// configuration lines of node 1 (ns-2 `DSRAgent::command("startdsr")`: only the node
    /// whose address is 1 logs them, at t = 0).
    pub(super) fn start_dsr_log(&mut self, now: SimTime) {
        if !self.capture.as_deref().is_some_and(|c| c.wants_mac_log()) {
            return;
        }
        for i in 0..self.nodes.len() {
            let RoutingProtocol::Dsr(d) = &mut self.nodes[i].routing else {
                continue;
            };
            d.log_mut().enable();
            if i != 1 {
                continue;
            }
            let cfg = *d.config();
            let record = DsrLogRecord::Config {
                time: now,
                tap: cfg.tap,
                grat_error: cfg.propagate_last_error,
                grat_reply: cfg.tap,
                reply_from_cache: cfg.reply_from_cache,
            };
            if let Some(out) = self.capture.as_deref_mut().and_then(|c| c.wireless_trace()) {
                record.write(out);
            }
        }
    }

    /// Writes the log lines `node`'s DSR agent recorded since the last call (see
    /// `routing::dsr::log`); called right after each call into the agent, so that each
    /// line comes before the packet lines of what the call decided, as in ns-2.
    // `inline(always)`: with a plain `inline` the compiler kept it a call (a million calls
    // in a wired run, each some fifteen instructions to test one field).
    #[inline(always)]
    pub(super) fn drain_dsr_log(&mut self, node: NodeId) {
        // Tested here, inlined at every call into a routing agent, so that a run without a
        // capture pays a test and no call.
        if self.capture.is_some() {
            self.write_dsr_log(node);
        }
    }

    #[inline(never)]
    fn write_dsr_log(&mut self, node: NodeId) {
        let entries = match &mut self.nodes[node.ix()].routing {
            RoutingProtocol::Dsr(d) => d.log_mut().take(),
            _ => return,
        };
        let n = i64::from(node.0);
        for (time, entry) in entries {
            let mut line = String::new();
            match entry {
                DsrLogEntry::FlowSend {
                    uid,
                    src,
                    dst,
                    flow_id,
                    flow_header,
                    next_hop,
                    route,
                } => {
                    if let Some(c) = self.capture.as_deref_mut() {
                        c.dsr_flow_ids.insert(uid, flow_id);
                    }
                    let route: Option<Vec<i64>> =
                        route.map(|r| r.iter().map(|a| self.ns2_node(*a)).collect());
                    DsrLogRecord::FlowSend {
                        time,
                        node: n,
                        uid,
                        src: self.ns2_node(src),
                        dst: self.ns2_node(dst),
                        flow_id,
                        flow_header,
                        next_hop: self.ns2_node(next_hop),
                        route: route.as_deref(),
                    }
                    .write(&mut line);
                }
                DsrLogEntry::FlowForward {
                    uid,
                    src,
                    dst,
                    next_hop,
                } => {
                    let flow_id = self
                        .capture
                        .as_deref()
                        .and_then(|c| c.dsr_flow_ids.get(&uid).copied())
                        .unwrap_or(0);
                    DsrLogRecord::FlowForward {
                        time,
                        node: n,
                        uid,
                        src: self.ns2_node(src),
                        dst: self.ns2_node(dst),
                        flow_id,
                        next_hop: self.ns2_node(next_hop),
                    }
                    .write(&mut line);
                }
                DsrLogEntry::SendFailure {
                    packet,
                    from,
                    to,
                    route,
                    at,
                } => {
                    let (sport, dport) = self.ns2_ports(&packet);
                    let route: Vec<i64> = route.iter().map(|a| self.ns2_node(*a)).collect();
                    let ptype = self.capture.as_deref().map_or(0, |c| c.ns2_ptype(&packet));
                    DsrLogRecord::SendFailure {
                        time,
                        node: n,
                        uid: packet.ns2_uid,
                        ptype,
                        src: (self.ns2_node(packet.ip.src), sport),
                        dst: (self.ns2_node(packet.ip.dst), dport),
                        from: self.ns2_node(from),
                        to: self.ns2_node(to),
                        route: &route,
                        at,
                    }
                    .write(&mut line);
                }
                DsrLogEntry::Salvaging {
                    uid,
                    src,
                    dst,
                    route,
                } => {
                    let route: Vec<i64> = route.iter().map(|a| self.ns2_node(*a)).collect();
                    DsrLogRecord::Salvaging {
                        time,
                        node: n,
                        uid,
                        src: self.ns2_node(src),
                        dst: self.ns2_node(dst),
                        route: &route,
                    }
                    .write(&mut line);
                }
                DsrLogEntry::SalvageNoRoute {
                    uid,
                    src,
                    dst,
                    salvaged,
                    buffered,
                } => DsrLogRecord::SalvageNoRoute {
                    time,
                    node: n,
                    uid,
                    src: self.ns2_node(src),
                    dst: self.ns2_node(dst),
                    salvaged,
                    buffered,
                }
                .write(&mut line),
            }
            if let Some(out) = self.capture.as_deref_mut().and_then(|c| c.wireless_trace()) {
                out.push_str(&line);
            }
        }
    }

    fn pcap_frame(&mut self, now: SimTime, node: NodeId, peer: Option<i64>, tx: bool, p: &Packet) {
        let Some(cap) = self.capture.as_deref_mut() else {
            return;
        };
        let Some(tap) = &cap.pcap else { return };
        if tap.node != node || tap.flow.is_some_and(|f| p.flow != Some(f)) {
            return;
        }
        let ip = cap.ip_packet(p);
        let me = pcap::node_mac(node.0);
        let other = match peer {
            Some(n) if n >= 0 => pcap::node_mac(n as u32),
            _ => pcap::BROADCAST_MAC,
        };
        let frame = if tx {
            pcap::ethernet_frame(other, me, &ip)
        } else {
            pcap::ethernet_frame(me, other, &ip)
        };
        if let Some(tap) = &mut cap.pcap {
            tap.writer.record(now, &frame);
        }
    }

    /// An agent at `node` sends `p`. Inlined with its test, as [`World::drain_dsr_log`]
    /// is: left a call, it cost some seventeen instructions per packet sent to test one
    /// field (perf: 6.1 M of a 1000 s wired run's 1,083 M).
    #[inline(always)]
    pub(super) fn tap_originate(&mut self, now: SimTime, node: NodeId, p: &Packet) {
        if self.capture.is_some() {
            self.write_originate(now, node, p);
        }
    }

    #[inline(never)]
    fn write_originate(&mut self, now: SimTime, node: NodeId, p: &Packet) {
        if matches!(p.payload, Payload::Control(_)) {
            return;
        }
        self.wireless_line('s', now, i64::from(node.0), "AGT", "---", -2, p);
        // The agent's packet then enters the routing agent through the node's receive trace
        // point (ns-2 `add-target-rtagent`, and a DSR node's entry point): `r RTR`.
        if !self.nodes[node.ix()].addrs.contains(&p.ip.dst) {
            self.wireless_line('r', now, i64::from(node.0), "RTR", "---", -2, p);
        }
    }

    /// A Mobile IP agent at `node` sends message `p` (ns-2's `Agent/MIPBS` and `Agent/MIPMH`
    /// send through their target, the node's entry, past the agent trace: `s AGT`).
    /// `carried`: `p` is the packet the agent received, sent on, and ns-2's line keeps the
    /// MAC header of the frame that brought it (`s ... AGT --- 12 udp 72 [13a 0 2 800]` at
    /// the home agent answering a request, `mip_handoff.tr` of ns-2.35). `routed`: it enters
    /// the node's routing, whose receive trace point sees it (`r RTR`), as an agent's packet.
    pub(super) fn tap_mip_send(
        &mut self,
        now: SimTime,
        node: NodeId,
        p: &Packet,
        carried: bool,
        routed: bool,
    ) {
        let Some(cap) = self.capture.as_deref() else {
            return;
        };
        let mac = if carried {
            cap.last_mac.get(&p.uid).copied().unwrap_or_default()
        } else {
            MacFields::default()
        };
        let n = i64::from(node.0);
        let hop = self.stale_next_hop(mac);
        self.wireless_packet_line('s', now, n, "AGT", "---", hop, p, mac, p.size);
        if routed && !self.nodes[node.ix()].addrs.contains(&p.ip.dst) {
            self.wireless_line('r', now, n, "RTR", "---", -2, p);
        }
    }

    /// Mobile IP message `p` reaches the Mobile IP agent of `node` (`r AGT`), at the size it
    /// arrived with: ns-2 counts the IP header each DSDV that originated it added
    /// (`r ... _4_ AGT --- 0 udp 68` for a 48-byte advertisement, `mip_handoff.tr`).
    pub(super) fn tap_mip_receive(&mut self, now: SimTime, node: NodeId, p: &Packet) {
        let Some(cap) = self.capture.as_deref() else {
            return;
        };
        let mac = cap.last_mac.get(&p.uid).copied().unwrap_or_default();
        let hop = self.stale_next_hop(mac);
        self.wireless_packet_line(
            'r',
            now,
            i64::from(node.0),
            "AGT",
            "---",
            hop,
            p,
            mac,
            p.size,
        );
    }

    /// The next hop a Mobile IP message's line prints: ns-2 leaves `hdr_cmn::next_hop_` as
    /// the last 802.11 hop set it, the receiver of the frame that brought the packet (its
    /// MAC header's `ra`), over any wired links since (`r ... _2_ AGT --- 6536 udp 72
    /// [13a 1 2 800] ------- [8388608:0 4194304:0 30 8388608]` at the home agent, the
    /// request having come from the foreign agent, MAC 1, over the wire); -2 (none) for a
    /// packet that has crossed no 802.11 hop or came by broadcast.
    fn stale_next_hop(&self, mac: MacFields) -> i64 {
        if mac.ether_type == 0 || mac.ra < 0 {
            return -2;
        }
        (0..self.nodes.len())
            .find(|&n| self.ns2_mac_of(n as i64) == mac.ra && self.wifi_iface(n).is_some())
            .map_or(-2, |n| n as i64)
    }

    /// `p` reaches the agent bound to its port at `node`; `ip_copy`: the routing layer's
    /// extra IP header came off on the way (ns-2 still counts it on the `r AGT` line).
    pub(super) fn tap_deliver(&mut self, now: SimTime, node: NodeId, p: &Packet, ip_copy: bool) {
        if self.capture.is_none() {
            return;
        }
        let size = p.size + if ip_copy { IP_HEADER_BYTES } else { 0 };
        let n = i64::from(node.0);
        let mac = MacFields::default();
        self.wireless_packet_line('r', now, n, "AGT", "---", -2, p, mac, size);
    }

    /// `node` hands `p` to its interface `iface` for `next_hop`.
    pub(super) fn tap_transmit(
        &mut self,
        now: SimTime,
        iface: IfaceId,
        next_hop: Addr,
        p: &Packet,
    ) {
        if self.capture.is_none() {
            return;
        }
        let (node, device) = {
            let i = &self.ifaces[iface.ix()];
            (i.node, i.device as usize)
        };
        let hop = self.ns2_node(next_hop);
        if let Some(cap) = self.capture.as_deref_mut() {
            cap.submitter = Some(node);
        }
        self.pcap_frame(now, node, Some(hop), true, p);
        self.wired_line('+', now, device, p);
        let originated = self.nodes[node.ix()]
            .addrs
            .contains(&p.routing_header().src);
        let event = if originated { 's' } else { 'f' };
        let failed = self.capture.as_deref().and_then(|c| c.tx_failed);
        match failed {
            Some(f)
                if f.cause == TxFailureCause::RetryLimit
                    && matches!(
                        p.payload,
                        Payload::Control(ControlMessage::DsrRouteError { .. })
                    ) =>
            {
                // ns-2's DSR makes its route error out of the packet the MAC gave up on
                // (`xmitFailed`), whose MAC header the MAC had written for the lost hop: the
                // error's first line shows it (its next lines, the header of the new hop).
                let mac = MacFields {
                    duration_us: f.duration_us,
                    ra: self.ns2_mac(f.hop),
                    ta: self.ns2_mac_of(i64::from(node.0)).max(0),
                    ether_type: 0x800,
                };
                self.wireless_packet_line(
                    event,
                    now,
                    i64::from(node.0),
                    "RTR",
                    "---",
                    hop,
                    p,
                    mac,
                    p.size,
                );
            }
            _ => self.wireless_line(event, now, i64::from(node.0), "RTR", "---", hop, p),
        }
        if matches!(self.devices[device], super::Device::Wifi(_)) {
            if let Some(cap) = self.capture.as_deref_mut() {
                cap.ifq_hop.insert(p.uid, next_hop);
            }
        }
    }

    /// A wired direction starts transmitting `p`.
    pub(super) fn tap_tx_start(&mut self, now: SimTime, device: usize, p: &Packet) {
        self.wired_line('-', now, device, p);
    }

    /// `p` arrives at interface `iface` from `device`. Inlined with its test, as the other
    /// taps: it is on the path of every wired arrival, and a run without a capture paid a
    /// call to learn there is none.
    #[inline(always)]
    pub(super) fn tap_arrival(&mut self, now: SimTime, device: usize, iface: IfaceId, p: &Packet) {
        if self.capture.is_some() {
            self.capture_arrival(now, device, iface, p);
        }
    }

    /// [`Self::tap_arrival`] with a capture.
    #[inline(never)]
    fn capture_arrival(&mut self, now: SimTime, device: usize, iface: IfaceId, p: &Packet) {
        let node = self.ifaces[iface.ix()].node;
        if let Some(cap) = self.capture.as_deref_mut() {
            cap.ifq_hop.remove(&p.uid);
        }
        let prev = self
            .wired_ends(device)
            .map(|(from, _)| i64::from(from))
            .unwrap_or_else(|| self.ns2_node(p.routing_header().src));
        self.pcap_frame(now, node, Some(prev), false, p);
        self.wired_line('r', now, device, p);
        let for_me = self.nodes[node.ix()]
            .addrs
            .contains(&p.routing_header().dst);
        // A DSR node's entry point is the routing agent's receive trace: every packet
        // arriving is traced there (ns-2 `SRNodeNew`); other nodes hand packets for their
        // own agents straight to the port demultiplexer.
        let dsr = matches!(self.nodes[node.ix()].routing, RoutingProtocol::Dsr(_));
        if !for_me || dsr || matches!(p.payload, Payload::Control(_)) {
            self.wireless_line('r', now, i64::from(node.0), "RTR", "---", -2, p);
        }
    }

    /// Packet `to` (uid) carries on the MAC header packet `from` arrived with: ns-2 passes
    /// on the packet it received, and every line about it prints that header.
    pub(super) fn keep_mac_header(&mut self, from: u64, to: u64) {
        if let Some(c) = self.capture.as_deref_mut() {
            if let Some(&mac) = c.last_mac.get(&from) {
                c.last_mac.insert(to, mac);
            }
        }
    }

    /// `p` is dropped at `node`/`iface` (either may be unknown) by `device` if a device
    /// dropped it.
    pub(super) fn tap_drop(
        &mut self,
        now: SimTime,
        node: Option<NodeId>,
        iface: Option<IfaceId>,
        p: &Packet,
        why: DropReason,
    ) {
        let Some(cap) = self.capture.as_deref() else {
            return;
        };
        let node = node.or(cap.submitter);
        if let Some(i) = iface {
            let device = self.ifaces[i.ix()].device as usize;
            self.wired_line('d', now, device, p);
        }
        if matches!(
            why,
            DropReason::NoReceiver
                | DropReason::NoBaseStationRoute
                | DropReason::BaseStationToItself
                | DropReason::DeadFlow
        ) {
            // ternsim's own accounting of a broadcast nobody decoded, and packets ns-2's
            // DSDV frees or loses without a trace (`forwardPacket`, no route to `base_stn`,
            // or a base station's `base_stn` being itself) and those its DSR's
            // `xmitFlowFailed` forgets (a dead flow): no ns-2 event.
            if let Some(c) = self.capture.as_deref_mut() {
                c.ifq_hop.remove(&p.uid);
            }
            return;
        }
        let (layer, reason) = wireless_drop_code(why);
        let n = node.map_or(-1, |n| i64::from(n.0));
        let hop = self
            .capture
            .as_deref_mut()
            .and_then(|c| c.ifq_hop.remove(&p.uid));
        if let Some(hop) = hop.filter(|_| layer == "IFQ" || why == DropReason::LinkFailure) {
            // Out of the interface queue (or handed back by the interface).
            let mac = self.link_layer_header(n, p.uid, hop, why == DropReason::ArpReplaced);
            let next_hop = self.ns2_node(hop);
            self.wireless_packet_line('D', now, n, layer, reason, next_hop, p, mac, p.size);
            return;
        }
        if why == DropReason::LinkFailure
            && matches!(p.payload, Payload::Control(ControlMessage::AodvRrep { .. }))
        {
            // ns-2's AODV gives its own messages no transmit-failure callback (it sets
            // `xmit_failure_` in `rt_resolve`, for data only): a reply the MAC gives up on
            // is dropped by the MAC alone (`D MAC RET`, under the MAC trace).
            return;
        }
        if matches!(
            why,
            DropReason::SendBufferTimeout | DropReason::SendBufferOverflow
        ) && node.is_some_and(|n| self.nodes[n.ix()].routing.dsr_stats().is_some())
        {
            // ns-2 `dropSendBuff` logs the drop just before it traces it.
            let record = DsrLogRecord::SendBufferDrop {
                time: now,
                node: n,
                src: self.ns2_node(p.ip.src),
                dst: self.ns2_node(p.ip.dst),
            };
            if let Some(out) = self.capture.as_deref_mut().and_then(|c| c.wireless_trace()) {
                record.write(out);
            }
        }
        self.wireless_line('D', now, n, layer, reason, -2, p);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::packet::{PacketFields, UDP_HEADER_BYTES};
    use crate::tcp::{AckSegment, DataSegment, SackBlock};

    fn tcp_wire(syn: bool) -> FlowWire {
        FlowWire {
            mss: 1000,
            syn,
            isn_s: 5000,
            isn_r: 9000,
            udp_type: "udp",
        }
    }

    /// §8.4 with D = 1 (emulated SYN), MSS 1000, ISN_s 5000: packet 0 is the SYN at 5000,
    /// packet 1 starts at 5001, packet 3 at 7001; ACK 2 acknowledges up to 7001.
    /// With D = 0: packet 0 at 5000, packet 3 at 8000.
    #[test]
    fn packet_numbers_map_to_byte_sequence_numbers() {
        let w = tcp_wire(true);
        assert_eq!(w.start(0), 5000);
        assert_eq!(w.start(1), 5001);
        assert_eq!(w.start(3), 7001);
        let w = tcp_wire(false);
        assert_eq!(w.start(0), 5000);
        assert_eq!(w.start(3), 8000);
    }

    fn capture(w: FlowWire) -> Capture {
        Capture {
            flows: vec![w],
            pcap: None,
            ns2: None,
            omit_agt: false,
            omit_rtr: false,
            mac: false,
            events: false,
            exact_times: false,
            newtrace: false,
            last_mac: HashMap::new(),
            ifq_hop: HashMap::new(),
            tx_failed: None,
            submitter: None,
            dsr_flow_ids: HashMap::new(),
        }
    }

    fn packet(payload: Payload) -> Packet {
        Packet::new(PacketFields {
            uid: 0x1_0007,
            ns2_uid: 0x1_0007,
            num_forwards: 0,
            flow: Some(0),
            ip: crate::net::packet::IpHeader {
                src: Addr::nth(0),
                dst: Addr::nth(1),
                ttl: 64,
            },
            ports: crate::net::packet::Ports { src: 1, dst: 1 },
            headers: Vec::new(),
            size: 1040,
            created: SimTime::ZERO,
            payload,
        })
    }

    /// A data segment 2 after the SYN: seq 6001, ack ISN_r + 1, ACK flag, 1000 zero bytes;
    /// the SYN itself carries MSS and SACK-permitted and no payload. The IP identification is
    /// the uid's low 16 bits.
    #[test]
    fn data_segments_carry_byte_sequence_numbers() {
        let cap = capture(tcp_wire(true));
        let seg = |seq| DataSegment {
            seq,
            wire_bytes: 1040,
            payload_bytes: if seq == 0 { 0 } else { 1000 },
            retransmission: false,
            cong_action: false,
            ecn: Default::default(),
            sent_at: SimTime::ZERO,
        };
        let ip = cap.ip_packet(&packet(Payload::TcpData(seg(2))));
        assert_eq!(ip.ident, 7);
        assert_eq!(
            ip.transport,
            Transport::Tcp {
                src_port: 1,
                dst_port: 1,
                seq: 6001,
                ack: 9001,
                flags: pcap::TCP_ACK,
                window: 65535,
                options: vec![],
                payload_len: 1000,
            }
        );
        assert_eq!(ip.to_bytes().len(), 1040);
        let Transport::Tcp {
            seq,
            flags,
            options,
            payload_len,
            ..
        } = cap.ip_packet(&packet(Payload::TcpData(seg(0)))).transport
        else {
            panic!("tcp");
        };
        assert_eq!((seq, flags, payload_len), (5000, pcap::TCP_SYN, 0));
        assert_eq!(options, vec![2, 4, 0x03, 0xe8, 1, 1, 4, 2]);
    }

    /// ACK 3 with SACK block [5, 7) (packets 5 and 6 held): ack = start(4) = 8001, SACK edges
    /// start(5) = 9001 and start(7) = 11001, as the receiver sent them. ACK 0 answering the
    /// SYN is the SYN/ACK at ISN_r.
    #[test]
    fn acks_carry_the_receivers_sack_blocks_in_bytes() {
        let cap = capture(tcp_wire(true));
        let mut blocks = [SackBlock::default(); crate::tcp::segment::MAX_SACK_BLOCKS];
        blocks[0] = SackBlock { left: 5, right: 7 };
        let ack = AckSegment {
            ack: 3,
            sack: Some(Box::new(blocks)),
            n_sack: 1,
            wire_bytes: 48,
            echo_sent_at: SimTime::ZERO,
            ts_echo: SimTime::ZERO,
            echo_seq: 6,
            sig: false,
            ecn: Default::default(),
        };
        let Transport::Tcp {
            seq,
            ack: a,
            flags,
            options,
            ..
        } = cap.ip_packet(&packet(Payload::TcpAck(ack))).transport
        else {
            panic!("tcp");
        };
        assert_eq!((seq, a, flags), (9001, 8001, pcap::TCP_ACK));
        let mut want = vec![1, 1, 5, 10];
        want.extend_from_slice(&9001u32.to_be_bytes());
        want.extend_from_slice(&11001u32.to_be_bytes());
        assert_eq!(options, want);
        let syn_ack = AckSegment {
            ack: 0,
            sack: None,
            n_sack: 0,
            wire_bytes: 40,
            echo_sent_at: SimTime::ZERO,
            ts_echo: SimTime::ZERO,
            echo_seq: 0,
            sig: false,
            ecn: Default::default(),
        };
        let Transport::Tcp {
            seq, ack: a, flags, ..
        } = cap.ip_packet(&packet(Payload::TcpAck(syn_ack))).transport
        else {
            panic!("tcp");
        };
        assert_eq!((seq, a, flags), (9000, 5001, pcap::TCP_SYN | pcap::TCP_ACK));
    }

    #[test]
    fn udp_payload_is_the_datagram_payload() {
        let cap = capture(tcp_wire(false));
        let d = crate::net::packet::Datagram {
            seq: 3,
            payload_bytes: 1000 - IP_HEADER_BYTES - UDP_HEADER_BYTES,
            sent_at: SimTime::ZERO,
        };
        let ip = cap.ip_packet(&packet(Payload::Udp(d)));
        assert_eq!(ip.to_bytes().len(), 1000);
    }
}
