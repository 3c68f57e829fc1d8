//! Traces and statistics: columnar tables ([`table`]), the run's trace set ([`TraceSet`]) and
//! per-flow metrics with one documented definition each ([`flow_stats`]).

pub mod flow_stats;
pub mod table;

pub use flow_stats::{FlowStats, RunningStats};
pub use table::{Cell, Column, Kind, Table};

use crate::scenario::schema::TraceSpec;

/// The traces a run records: each is present only if the scenario switched it on.
#[derive(Clone, Debug, Default)]
pub struct TraceSet {
    pub cwnd: Option<Table>,
    pub rtt: Option<Table>,
    pub rto: Option<Table>,
    pub segments: Option<Table>,
    pub acks: Option<Table>,
    pub tcp_events: Option<Table>,
    pub queues: Option<Table>,
    pub drops: Option<Table>,
    pub rlc: Option<Table>,
    pub rlc_buffer: Option<Table>,
    pub sdu_delay: Option<Table>,
}

impl TraceSet {
    pub fn from_spec(spec: &TraceSpec) -> Self {
        use Kind::*;
        let on = |flag: bool, name: &'static str, schema: &[(&'static str, Kind)]| {
            flag.then(|| Table::new(name, schema))
        };
        TraceSet {
            cwnd: on(
                spec.cwnd,
                "cwnd",
                &[
                    ("time_s", F64),
                    ("flow", I64),
                    ("cwnd", F64),
                    ("ssthresh", F64),
                    ("dupwnd", I64),
                ],
            ),
            rtt: on(
                spec.rtt,
                "rtt",
                &[("time_s", F64), ("flow", I64), ("seq", I64), ("rtt_s", F64)],
            ),
            rto: on(
                spec.rto,
                "rto",
                &[
                    ("time_s", F64),
                    ("flow", I64),
                    ("srtt_s", F64),
                    ("rttvar_s", F64),
                    ("rto_s", F64),
                ],
            ),
            segments: on(
                spec.segments,
                "segments",
                &[
                    ("time_s", F64),
                    ("flow", I64),
                    ("seq", I64),
                    ("bytes", I64),
                    ("retransmission", U8),
                ],
            ),
            acks: on(
                spec.acks,
                "acks",
                &[
                    ("time_s", F64),
                    ("flow", I64),
                    ("ack", I64),
                    ("n_sack", I64),
                ],
            ),
            tcp_events: on(
                spec.tcp_events,
                "tcp_events",
                &[("time_s", F64), ("flow", I64), ("event", Str), ("seq", I64)],
            ),
            queues: on(
                spec.queues,
                "queues",
                &[
                    ("time_s", F64),
                    ("link", I64),
                    ("queue_len", I64),
                    ("event", Str),
                ],
            ),
            drops: on(
                spec.drops,
                "drops",
                &[
                    ("time_s", F64),
                    ("link", I64),
                    ("reason", Str),
                    ("flow", I64),
                    ("seq", I64),
                ],
            ),
            rlc: on(
                spec.rlc,
                "rlc",
                &[
                    ("time_s", F64),
                    ("bearer", I64),
                    ("direction", Str),
                    ("event", Str),
                    ("sn", I64),
                    ("retransmission", U8),
                    ("poll", U8),
                    ("nacks", I64),
                ],
            ),
            rlc_buffer: on(
                spec.rlc_buffer,
                "rlc_buffer",
                &[
                    ("time_s", F64),
                    ("bearer", I64),
                    ("side", Str),
                    ("bytes", I64),
                ],
            ),
            sdu_delay: on(
                spec.sdu_delay,
                "sdu_delay",
                &[
                    ("time_s", F64),
                    ("bearer", I64),
                    ("direction", Str),
                    ("bytes", I64),
                    ("delay_s", F64),
                ],
            ),
        }
    }

    /// The recorded tables, in a fixed order.
    pub fn into_tables(self) -> Vec<Table> {
        [
            self.cwnd,
            self.rtt,
            self.rto,
            self.segments,
            self.acks,
            self.tcp_events,
            self.queues,
            self.drops,
            self.rlc,
            self.rlc_buffer,
            self.sdu_delay,
        ]
        .into_iter()
        .flatten()
        .collect()
    }
}
