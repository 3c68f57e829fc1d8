//! The run summary: per-flow metrics (definitions in `crate::trace::flow_stats`), per-link
//! and per-bearer counters, and the packet accounting, built from the world's final state.

use std::collections::BTreeMap;

use serde::Serialize;

use super::{Device, FlowAgents, World};
use crate::net::packet::{DropReason, PacketKind};
use crate::routing::aodv::AodvStats;
use crate::routing::dsdv::DsdvStats;
use crate::routing::dsr::DsrStats;
use crate::scenario::ResolvedScenario;
use crate::trace::Table;
use crate::wifi::WifiStats;

/// One flow's results (definitions in `crate::trace::flow_stats`).
#[derive(Clone, Debug, Serialize)]
pub struct FlowSummary {
    pub name: String,
    /// `tcp` or `udp`.
    pub transport: String,
    /// The TCP variant; `None` for UDP flows.
    pub tcp: Option<String>,
    pub src: String,
    pub dst: String,
    pub start_s: f64,
    pub stop_s: f64,
    pub throughput_bps: f64,
    pub goodput_bps: f64,
    pub delivered_bytes: u64,
    pub segments_sent: u64,
    pub retransmitted_segments: u64,
    pub timeouts: u64,
    pub fast_retransmits: u64,
    /// ACKs reaching the sender that repeat the previous cumulative ACK it received (the
    /// definition Wireshark's `tcp.analysis.duplicate_ack` applies at the sender).
    pub dup_acks_received: u64,
    pub spurious_timeouts: u64,
    pub redundant_retransmissions: u64,
    pub dropped_packets: u64,
    pub mean_cwnd: Option<f64>,
    pub max_cwnd: f64,
    pub rtt_samples: u64,
    pub rtt_min_s: Option<f64>,
    pub rtt_mean_s: Option<f64>,
    pub rtt_max_s: Option<f64>,
    pub delay_mean_s: Option<f64>,
    pub jitter_s: Option<f64>,
    /// UDP flows: datagrams sent, received, and lost (dropped anywhere); those still in the
    /// network at the end count as neither.
    pub packets_sent: Option<u64>,
    pub packets_received: Option<u64>,
    pub packets_lost: Option<u64>,
    /// received / (received + lost).
    pub delivery_ratio: Option<f64>,
    pub delay_min_s: Option<f64>,
    pub delay_max_s: Option<f64>,
    /// RFC 3550 §6.4.1 interarrival jitter estimate at the end of the run.
    pub jitter_rfc3550_s: Option<f64>,
    /// Data packets the source's agent sent, retransmissions included (`s ... AGT` lines).
    pub data_packets_sent: u64,
    /// Data packets arriving at the destination's agent, duplicates included (`r ... AGT`).
    pub data_packets_received: u64,
    /// data_packets_received / data_packets_sent: the ns-2 awk delivery ratio, for TCP and
    /// UDP flows alike (`delivery_ratio` above is UDP's fate-known ratio).
    pub packet_delivery_ratio: Option<f64>,
    /// 1 - packet_delivery_ratio: sent packets with no arrival, over packets sent.
    pub loss_rate: Option<f64>,
    /// Demo-Vegas: times the sender re-measured BaseRTT (SIG flips and its own care-of
    /// address changes); `None` for other variants.
    pub base_rtt_remeasures: Option<u64>,
}

/// A node: its addresses and interfaces, by name.
#[derive(Clone, Debug, Serialize)]
pub struct NodeSummary {
    pub name: String,
    pub addresses: Vec<String>,
    pub interfaces: Vec<String>,
    pub position: Option<[f64; 2]>,
    /// 802.11 MAC counters of the node's NIC (`WifiStats`), on a wireless channel.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mac: Option<WifiStats>,
    /// DSR counters (requests, replies, errors, salvages, cache hits), under DSR.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dsr: Option<DsrStats>,
    /// AODV counters (requests, replies, errors, queued packets, local repairs), under AODV.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub aodv: Option<AodvStats>,
    /// DSDV counters (full and triggered updates, routes advertised, broken routes, queued
    /// packets), under DSDV.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dsdv: Option<DsdvStats>,
}

/// Routing overhead: control packets put on a link, every hop counted (a route request
/// flooded through 7 nodes is 7 transmissions), by message type.
#[derive(Clone, Debug, Serialize)]
pub struct RoutingSummary {
    pub transmissions: u64,
    pub transmissions_by_type: BTreeMap<String, u64>,
    /// Routing transmissions per data packet (TCP data and UDP) delivered to its
    /// destination: the normalized routing load of the MANET literature (Broch et al.,
    /// MobiCom 1998; Das et al., INFOCOM 2000). `None` when no data packet arrived.
    pub normalized_routing_overhead: Option<f64>,
}

/// One link direction's counters.
#[derive(Clone, Debug, Serialize)]
pub struct LinkSummary {
    pub name: String,
    pub direction: String,
    pub packets_sent: u64,
    pub bytes_sent: u64,
    pub drops_queue: u64,
    pub drops_error: u64,
    /// Packets dropped because the direction was down.
    pub drops_down: u64,
    /// RED queues: drops by the early test and forced drops (both within `drops_queue`), and
    /// the mean and maximum of RED's average queue over arrivals (packets, or bytes in
    /// byte-queue mode).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub red: Option<RedLinkSummary>,
    /// Fraction of the run the transmitter was busy.
    pub utilization: f64,
}

/// A RED queue's counters.
#[derive(Clone, Debug, Serialize)]
pub struct RedLinkSummary {
    pub drops_early: u64,
    pub drops_forced: u64,
    pub avg_queue_mean: Option<f64>,
    pub avg_queue_max: Option<f64>,
}

/// One bearer direction's counters.
#[derive(Clone, Debug, Serialize)]
pub struct BearerSummary {
    pub name: String,
    /// `downlink` (RNC to UE) or `uplink`.
    pub direction: String,
    pub transport_blocks: u64,
    pub block_errors: u64,
    pub data_pdus: u64,
    pub retransmitted_pdus: u64,
    pub polls: u64,
    pub status_pdus: u64,
    pub sdus_delivered: u64,
    pub sdus_discarded: u64,
    pub sdus_refused: u64,
    pub bytes_delivered: u64,
    pub sdu_delay_mean_s: Option<f64>,
    pub sdu_delay_max_s: Option<f64>,
}

/// Where every packet ended.
#[derive(Clone, Debug, Serialize)]
pub struct PacketSummary {
    pub created: u64,
    pub delivered: u64,
    pub dropped: u64,
    pub in_flight: u64,
    pub drops_by_reason: std::collections::BTreeMap<String, u64>,
    /// created == delivered + dropped + in_flight, with in_flight counted in the interfaces
    /// and routing buffers.
    pub balanced: bool,
    /// Created, delivered and dropped packets by kind (tcp_data, tcp_ack, udp, control).
    pub by_kind: std::collections::BTreeMap<String, KindCounts>,
}

#[derive(Clone, Copy, Debug, Serialize)]
pub struct KindCounts {
    pub created: u64,
    pub delivered: u64,
    pub dropped: u64,
}

/// The data traffic of all flows together (definitions in `crate::trace::flow_stats`): what
/// the awk scripts of MANET papers compute over all `AGT` lines of a trace.
#[derive(Clone, Debug, Serialize)]
pub struct TrafficSummary {
    pub data_packets_sent: u64,
    pub data_packets_received: u64,
    pub packet_delivery_ratio: Option<f64>,
    pub loss_rate: Option<f64>,
    /// Mean one-way delay over every data packet arriving at its destination.
    pub delay_mean_s: Option<f64>,
    /// Mean |D(i) - D(i-1)| over consecutive arrivals of the same flow, all flows pooled.
    pub jitter_s: Option<f64>,
}

#[derive(Clone, Debug, Serialize)]
pub struct RunSummary {
    pub scenario: String,
    pub seed: u64,
    pub version: String,
    pub sim_seconds: f64,
    pub wall_seconds: f64,
    pub events: u64,
    pub nodes: Vec<NodeSummary>,
    pub flows: Vec<FlowSummary>,
    pub links: Vec<LinkSummary>,
    pub bearers: Vec<BearerSummary>,
    pub packets: PacketSummary,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub routing: Option<RoutingSummary>,
    /// Totals over the flows (absent without flows).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub traffic: Option<TrafficSummary>,
    /// Connections of `[traffic]` that start at or after the end of the run (absent if none).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub never_started: Vec<crate::scenario::NeverStarted>,
}

/// What a run returns: the summary and the traces the scenario asked for.
pub struct RunOutput {
    pub summary: RunSummary,
    pub tables: Vec<Table>,
    /// The pcap file and ns-2 trace, when the run asked for them (`run_with`).
    pub capture: super::CaptureOutput,
}

impl World {
    pub(super) fn finish(
        mut self,
        sc: &ResolvedScenario,
        seed: u64,
        wall_seconds: f64,
    ) -> RunOutput {
        let end = sc.duration;
        self.settle_lazy_transmissions(super::end_exact(end));
        let flows = self
            .flows
            .iter()
            .map(|fl| flow_summary(fl, end, sc))
            .collect();
        let duration_s = end.as_secs_f64();
        let traffic = traffic_summary(&self.flows);
        let links = self
            .devices
            .iter()
            .filter_map(|d| match d {
                Device::Wired { wire, link, dir } => Some(LinkSummary {
                    name: sc.links[*link].name.clone(),
                    direction: if *dir == 0 { "a_to_b" } else { "b_to_a" }.to_string(),
                    packets_sent: wire.stats.packets_sent,
                    bytes_sent: wire.stats.bytes_sent,
                    drops_queue: wire.stats.drops_queue,
                    drops_error: wire.stats.drops_error,
                    drops_down: wire.stats.drops_down,
                    red: wire.red_average().map(|ave| RedLinkSummary {
                        drops_early: wire.stats.drops_red_early,
                        drops_forced: wire.stats.drops_red_forced,
                        avg_queue_mean: ave.mean(),
                        avg_queue_max: ave.max(),
                    }),
                    utilization: wire.stats.busy.as_secs_f64().min(duration_s) / duration_s,
                }),
                Device::Bearer(_) | Device::Wifi(_) => None,
            })
            .collect();
        let mut bearers = Vec::with_capacity(sc.bearers.len() * 2);
        for d in &self.devices {
            let Device::Bearer(br) = d else { continue };
            let st = br.bearer.stats();
            for (dir, d, name) in [(0, st.down, "downlink"), (1, st.up, "uplink")] {
                bearers.push(BearerSummary {
                    name: br.name.clone(),
                    direction: name.to_string(),
                    transport_blocks: d.tbs,
                    block_errors: d.tb_errors,
                    data_pdus: d.data_pdus,
                    retransmitted_pdus: d.retransmissions,
                    polls: d.polls,
                    status_pdus: d.status_pdus,
                    sdus_delivered: d.sdus_delivered,
                    sdus_discarded: d.sdus_discarded,
                    sdus_refused: d.sdus_refused,
                    bytes_delivered: d.bytes_delivered,
                    sdu_delay_mean_s: br.sdu_delay[dir].mean(),
                    sdu_delay_max_s: br.sdu_delay[dir].max(),
                });
            }
        }
        let nodes = self
            .nodes
            .iter()
            .map(|n| NodeSummary {
                name: n.name.clone(),
                addresses: n.addrs.iter().map(|a| a.to_string()).collect(),
                interfaces: n
                    .ifaces
                    .iter()
                    .map(|i| self.ifaces[i.ix()].name.clone())
                    .collect(),
                position: n.mobility.position_at(end).map(|p| [p.x, p.y]),
                mac: n.ifaces.iter().find_map(|i| {
                    let iface = &self.ifaces[i.ix()];
                    match &self.devices[iface.device as usize] {
                        Device::Wifi(w) => Some(*w.stats(iface.port)),
                        _ => None,
                    }
                }),
                dsr: n.routing.dsr_stats(),
                aodv: n.routing.aodv_stats(),
                dsdv: n.routing.dsdv_stats(),
            })
            .collect();
        let transmissions: u64 = self.control_tx.values().sum();
        let routing = (transmissions > 0 || sc.wireless.is_some()).then(|| {
            let data_delivered = self.accounting.delivered_by_kind[PacketKind::TcpData.index()]
                + self.accounting.delivered_by_kind[PacketKind::Udp.index()];
            RoutingSummary {
                transmissions,
                transmissions_by_type: self
                    .control_tx
                    .iter()
                    .map(|(k, v)| (k.to_string(), *v))
                    .collect(),
                normalized_routing_overhead: (data_delivered > 0)
                    .then(|| transmissions as f64 / data_delivered as f64),
            }
        });
        let in_flight: u64 = self
            .devices
            .iter()
            .map(|d| d.packets_held() as u64)
            .sum::<u64>()
            + self
                .nodes
                .iter()
                .map(|n| n.routing.held() as u64)
                .sum::<u64>();
        let dropped: u64 = self.accounting.dropped.iter().sum();
        let drops_by_reason = DropReason::ALL
            .iter()
            .filter(|r| self.accounting.dropped[r.index()] > 0)
            .map(|r| (r.name().to_string(), self.accounting.dropped[r.index()]))
            .collect();
        let packets = PacketSummary {
            created: self.accounting.created,
            delivered: self.accounting.delivered,
            dropped,
            in_flight,
            drops_by_reason,
            balanced: self.accounting.created == self.accounting.delivered + dropped + in_flight,
            by_kind: PacketKind::ALL
                .iter()
                .filter(|k| self.accounting.created_by_kind[k.index()] > 0)
                .map(|k| {
                    let i = k.index();
                    let counts = KindCounts {
                        created: self.accounting.created_by_kind[i],
                        delivered: self.accounting.delivered_by_kind[i],
                        dropped: self.accounting.dropped_by_kind[i],
                    };
                    (k.name().to_string(), counts)
                })
                .collect(),
        };
        let mut traces = self.traces;
        if let Some(t) = traces.flow_series.as_mut() {
            push_flow_series(t, &self.flows, end);
        }
        let capture = self.capture.map(|c| c.finish()).unwrap_or_default();
        RunOutput {
            capture,
            summary: RunSummary {
                scenario: sc.name.clone(),
                seed,
                version: crate::VERSION.to_string(),
                sim_seconds: end.as_secs_exact(),
                wall_seconds,
                events: self.sched.events_executed(),
                nodes,
                flows,
                links,
                bearers,
                packets,
                routing,
                traffic,
                never_started: sc.never_started.clone(),
            },
            tables: traces.into_tables(),
        }
    }
}

/// The totals over all flows; `None` without flows.
fn traffic_summary(flows: &[super::FlowRuntime]) -> Option<TrafficSummary> {
    if flows.is_empty() {
        return None;
    }
    let sent: u64 = flows.iter().map(data_packets_sent).sum();
    let received: u64 = flows.iter().map(|f| f.stats.data_packets_received).sum();
    let (pdr, loss) = crate::trace::flow_stats::delivery(sent, received);
    let mut delay = crate::trace::RunningStats::default();
    let mut jitter = crate::trace::RunningStats::default();
    for f in flows {
        delay.n += f.stats.delay.n;
        delay.sum += f.stats.delay.sum;
        jitter.n += f.stats.jitter.n;
        jitter.sum += f.stats.jitter.sum;
    }
    Some(TrafficSummary {
        data_packets_sent: sent,
        data_packets_received: received,
        packet_delivery_ratio: pdr,
        loss_rate: loss,
        delay_mean_s: delay.mean(),
        jitter_s: jitter.mean(),
    })
}

/// Data packets a flow's source agent sent, retransmissions included.
fn data_packets_sent(fl: &super::FlowRuntime) -> u64 {
    match &fl.agents {
        FlowAgents::Tcp(t) => t.sender.stats().segments_sent,
        FlowAgents::Full(t) => t.ends[0].stats().data_packets,
        FlowAgents::Udp(u) => u.stats.sent_packets,
        FlowAgents::Ping(p) => p.requests(),
    }
}

/// The `flow_series` rows: every flow, every bin from 0 to the end of the run.
fn push_flow_series(
    t: &mut crate::trace::FlowSeriesTrace,
    flows: &[super::FlowRuntime],
    end: crate::sim::SimTime,
) {
    for (i, fl) in flows.iter().enumerate() {
        let Some(series) = fl.stats.series.as_ref() else {
            continue;
        };
        let width = series.width().as_secs_f64();
        for (start, b) in series.bins_until(end) {
            t.push(
                start.as_secs_f64(),
                i as i64,
                b.packets as i64,
                b.bytes as i64,
                b.throughput_bps(width),
                b.delay_s(),
                b.jitter_s(),
            );
        }
    }
}

/// One flow's summary from its final state (definitions in `crate::trace::flow_stats`).
fn flow_summary(
    fl: &super::FlowRuntime,
    end: crate::sim::SimTime,
    sc: &ResolvedScenario,
) -> FlowSummary {
    let spec = &fl.spec;
    let stop = spec.stop.map_or(end, |s| s.min(end));
    let active_end = fl.stats.completed_at.map_or(stop, |c| c.min(stop));
    let active = active_end.saturating_sub(spec.start).as_secs_f64();
    let per_s = |bits: f64| if active > 0.0 { bits / active } else { 0.0 };
    let mut s = FlowSummary {
        name: spec.name.clone(),
        transport: "tcp".to_string(),
        tcp: None,
        src: sc.nodes[spec.src].name.clone(),
        dst: sc.nodes[spec.dst].name.clone(),
        start_s: spec.start.as_secs_exact(),
        stop_s: active_end.as_secs_exact(),
        throughput_bps: per_s(fl.stats.data_wire_bytes_received as f64 * 8.0),
        goodput_bps: 0.0,
        delivered_bytes: 0,
        segments_sent: 0,
        retransmitted_segments: 0,
        timeouts: 0,
        fast_retransmits: 0,
        dup_acks_received: fl.stats.dup_acks_received,
        spurious_timeouts: fl.stats.spurious_timeouts,
        redundant_retransmissions: fl.stats.redundant_retransmissions,
        dropped_packets: fl.stats.dropped_packets,
        max_cwnd: fl.stats.max_cwnd,
        rtt_samples: fl.stats.rtt.n,
        mean_cwnd: fl.stats.mean_cwnd(spec.start, active_end),
        rtt_min_s: fl.stats.rtt.min(),
        rtt_mean_s: fl.stats.rtt.mean(),
        rtt_max_s: fl.stats.rtt.max(),
        delay_mean_s: fl.stats.delay.mean(),
        jitter_s: fl.stats.jitter.mean(),
        packets_sent: None,
        packets_received: None,
        packets_lost: None,
        delivery_ratio: None,
        delay_min_s: fl.stats.delay.min(),
        delay_max_s: fl.stats.delay.max(),
        jitter_rfc3550_s: None,
        data_packets_sent: data_packets_sent(fl),
        data_packets_received: fl.stats.data_packets_received,
        packet_delivery_ratio: None,
        loss_rate: None,
        base_rtt_remeasures: None,
    };
    (s.packet_delivery_ratio, s.loss_rate) =
        crate::trace::flow_stats::delivery(s.data_packets_sent, s.data_packets_received);
    match &fl.agents {
        FlowAgents::Tcp(t) => {
            let st = t.sender.stats();
            let delivered = match &spec.transport {
                crate::scenario::FlowTransport::Tcp {
                    app_bytes: Some(total),
                    ..
                } => fl.stats.delivered_bytes.min(*total),
                _ => fl.stats.delivered_bytes,
            };
            s.tcp = spec.tcp().map(|c| c.variant.name().to_string());
            s.goodput_bps = per_s(delivered as f64 * 8.0);
            s.delivered_bytes = delivered;
            s.segments_sent = st.segments_sent;
            s.retransmitted_segments = st.retransmissions;
            s.timeouts = st.timeouts;
            s.fast_retransmits = st.fast_retransmits;
            if t.sender.config().variant == crate::tcp::TcpVariant::DemoVegas {
                s.base_rtt_remeasures = Some(t.sender.base_rtt_remeasures());
            }
        }
        FlowAgents::Full(t) => {
            let st = t.ends[0].stats();
            s.transport = "fulltcp".to_string();
            s.goodput_bps = per_s(fl.stats.delivered_bytes as f64 * 8.0);
            s.delivered_bytes = fl.stats.delivered_bytes;
            s.segments_sent = st.data_packets;
            s.retransmitted_segments = st.rexmit_packets;
            s.timeouts = st.timeouts;
            s.fast_retransmits = st.fast_retransmits;
        }
        FlowAgents::Udp(u) => {
            let d = &u.stats;
            s.transport = "udp".to_string();
            s.mean_cwnd = None;
            // ns-2 UDP puts the application bytes on the wire unchanged: payload = datagram.
            s.delivered_bytes = d.received_bytes;
            s.goodput_bps = per_s(d.received_bytes as f64 * 8.0);
            s.segments_sent = d.sent_packets;
            s.packets_sent = Some(d.sent_packets);
            s.packets_received = Some(d.received_packets);
            s.packets_lost = Some(d.lost_packets);
            s.delivery_ratio = d.delivery_ratio();
            s.jitter_rfc3550_s = d.jitter_rfc3550_s();
        }
        FlowAgents::Ping(p) => {
            // Echo requests sent by either end and the replies that came back to it; the
            // flow's RTT statistics are the round trips those replies measured.
            s.transport = "ping".to_string();
            s.mean_cwnd = None;
            let requests = p.requests();
            s.segments_sent = requests;
            s.packets_sent = Some(requests);
            s.packets_received = Some(p.replies);
            s.packets_lost = Some(requests.saturating_sub(p.replies));
            s.data_packets_received = p.replies;
            (s.packet_delivery_ratio, s.loss_rate) =
                crate::trace::flow_stats::delivery(requests, p.replies);
            s.delivery_ratio = s.packet_delivery_ratio;
        }
    }
    s
}
