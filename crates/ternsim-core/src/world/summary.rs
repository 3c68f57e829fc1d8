//! The run summary: per-flow metrics (definitions in `crate::trace::flow_stats`), per-link
//! and per-bearer counters, and the packet accounting, built from the world's final state.

use serde::Serialize;

use super::World;
use crate::net::packet::DropReason;
use crate::scenario::ResolvedScenario;
use crate::trace::Table;

/// One flow's results (definitions in `crate::trace::flow_stats`).
#[derive(Clone, Debug, Serialize)]
pub struct FlowSummary {
    pub name: String,
    pub tcp: String,
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
    /// Fraction of the run the transmitter was busy.
    pub utilization: f64,
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
    /// created == delivered + dropped + in_flight, with in_flight counted in the queues.
    pub balanced: bool,
}

#[derive(Clone, Debug, Serialize)]
pub struct RunSummary {
    pub scenario: String,
    pub seed: u64,
    pub version: String,
    pub sim_seconds: f64,
    pub wall_seconds: f64,
    pub events: u64,
    pub flows: Vec<FlowSummary>,
    pub links: Vec<LinkSummary>,
    pub bearers: Vec<BearerSummary>,
    pub packets: PacketSummary,
}

/// What a run returns: the summary and the traces the scenario asked for.
pub struct RunOutput {
    pub summary: RunSummary,
    pub tables: Vec<Table>,
}

impl World {
    pub(super) fn finish(self, sc: &ResolvedScenario, seed: u64, wall_seconds: f64) -> RunOutput {
        let end = sc.duration;
        let flows = self
            .flows
            .iter()
            .map(|fl| {
                let spec = &fl.spec;
                let stop = spec.stop.map_or(end, |s| s.min(end));
                let active_end = fl.stats.completed_at.map_or(stop, |c| c.min(stop));
                let active = active_end.saturating_sub(spec.start).as_secs_f64();
                let per_s = |bits: f64| if active > 0.0 { bits / active } else { 0.0 };
                let st = fl.sender.stats();
                let delivered = match spec.app_bytes {
                    Some(total) => fl.stats.delivered_bytes.min(total),
                    None => fl.stats.delivered_bytes,
                };
                FlowSummary {
                    name: spec.name.clone(),
                    tcp: spec.tcp.variant.name().to_string(),
                    src: sc.nodes[spec.src].name.clone(),
                    dst: sc.nodes[spec.dst].name.clone(),
                    start_s: spec.start.as_secs_f64(),
                    stop_s: active_end.as_secs_f64(),
                    throughput_bps: per_s(fl.stats.data_wire_bytes_received as f64 * 8.0),
                    goodput_bps: per_s(delivered as f64 * 8.0),
                    delivered_bytes: delivered,
                    segments_sent: st.segments_sent,
                    retransmitted_segments: st.retransmissions,
                    timeouts: st.timeouts,
                    fast_retransmits: st.fast_retransmits,
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
                }
            })
            .collect();
        let duration_s = end.as_secs_f64();
        let links = self
            .links
            .iter()
            .enumerate()
            .map(|(d, l)| LinkSummary {
                name: sc.links[d / 2].name.clone(),
                direction: if d % 2 == 0 { "a_to_b" } else { "b_to_a" }.to_string(),
                packets_sent: l.stats.packets_sent,
                bytes_sent: l.stats.bytes_sent,
                drops_queue: l.stats.drops_queue,
                drops_error: l.stats.drops_error,
                utilization: l.stats.busy.as_secs_f64().min(duration_s) / duration_s,
            })
            .collect();
        let mut bearers = Vec::with_capacity(self.bearers.len() * 2);
        for (b, br) in self.bearers.iter().enumerate() {
            let st = br.bearer.stats();
            for (dir, d, name) in [(0, st.down, "downlink"), (1, st.up, "uplink")] {
                bearers.push(BearerSummary {
                    name: sc.bearers[b].name.clone(),
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
        let in_flight: u64 = self
            .links
            .iter()
            .map(|l| l.packets_held() as u64)
            .sum::<u64>()
            + self
                .bearers
                .iter()
                .map(|b| b.sdus.len() as u64)
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
        };
        RunOutput {
            summary: RunSummary {
                scenario: sc.name.clone(),
                seed,
                version: crate::VERSION.to_string(),
                sim_seconds: duration_s,
                wall_seconds,
                events: self.sched.events_executed(),
                flows,
                links,
                bearers,
                packets,
            },
            tables: self.traces.into_tables(),
        }
    }
}
