//! Traces and statistics: columnar tables ([`table`]), the run's trace set ([`TraceSet`]) with
//! one typed table per trace, and per-flow metrics with one documented definition each
//! ([`flow_stats`]).
//!
//! Each trace is declared once, below, as its column names and Rust types: the declaration
//! is the table's schema and the signature of its `push`, so a row that does not fit its
//! table does not compile. A trace the scenario leaves off is `None` and costs one branch.

pub mod flow_series;
pub mod flow_stats;
pub mod ns2;
pub mod pcap;
pub mod table;

pub use flow_stats::{FlowStats, RunningStats};
pub use table::{Column, Kind, Table};

use crate::scenario::schema::TraceSpec;

/// A Rust type a trace column can hold.
pub trait ColumnValue {
    const KIND: Kind;
    fn push_into(self, col: &mut Column);
}

impl ColumnValue for f64 {
    const KIND: Kind = Kind::F64;
    fn push_into(self, col: &mut Column) {
        if let Column::F64(v) = col {
            v.push(self);
        }
    }
}

impl ColumnValue for i64 {
    const KIND: Kind = Kind::I64;
    fn push_into(self, col: &mut Column) {
        if let Column::I64(v) = col {
            v.push(self);
        }
    }
}

impl ColumnValue for bool {
    const KIND: Kind = Kind::U8;
    fn push_into(self, col: &mut Column) {
        if let Column::U8(v) = col {
            v.push(u8::from(self));
        }
    }
}

impl ColumnValue for &str {
    const KIND: Kind = Kind::Str;
    fn push_into(self, col: &mut Column) {
        if let Column::Str(v) = col {
            v.push(self.to_string());
        }
    }
}

macro_rules! trace_tables {
    ($(
        $(#[$doc:meta])*
        $field:ident: $ty:ident { $($col:ident: $cty:ty),+ $(,)? }
    )+) => {
        $(
            $(#[$doc])*
            #[derive(Clone, Debug)]
            pub struct $ty(Table);

            impl $ty {
                pub fn new() -> Self {
                    $ty(Table::new(
                        stringify!($field),
                        &[$((stringify!($col), <$cty as ColumnValue>::KIND)),+],
                    ))
                }

                /// Appends one row.
                #[allow(clippy::too_many_arguments)]
                pub fn push(&mut self, $($col: $cty),+) {
                    let mut cols = self.0.columns.iter_mut();
                    $( ColumnValue::push_into($col, &mut cols.next().expect("declared column").1); )+
                }

                pub fn table(&self) -> &Table {
                    &self.0
                }
            }

            impl Default for $ty {
                fn default() -> Self {
                    Self::new()
                }
            }
        )+

        /// The traces a run records: each is present only if the scenario switched it on.
        #[derive(Clone, Debug, Default)]
        pub struct TraceSet {
            $( pub $field: Option<$ty>, )+
        }

        impl TraceSet {
            pub fn from_spec(spec: &TraceSpec) -> Self {
                TraceSet {
                    $( $field: spec.$field.then($ty::new), )+
                }
            }

            /// The recorded tables, in declaration order.
            pub fn into_tables(self) -> Vec<Table> {
                let mut tables = Vec::new();
                $( if let Some(t) = self.$field { tables.push(t.0); } )+
                tables
            }
        }
    };
}

trace_tables! {
    /// cwnd, ssthresh and the fast-recovery inflation dupwnd (packets) after every change.
    cwnd: CwndTrace { time_s: f64, flow: i64, cwnd: f64, ssthresh: f64, dupwnd: i64 }
    /// One RTT sample per ACK of new data (exact echo of the triggering segment's send time).
    rtt: RttTrace { time_s: f64, flow: i64, seq: i64, rtt_s: f64 }
    /// The RTO estimator after every update.
    rto: RtoTrace { time_s: f64, flow: i64, srtt_s: f64, rttvar_s: f64, rto_s: f64 }
    /// Every data segment a TCP sender emits.
    segments: SegmentsTrace { time_s: f64, flow: i64, seq: i64, bytes: i64, retransmission: bool }
    /// Every ACK reaching a TCP sender.
    acks: AcksTrace { time_s: f64, flow: i64, ack: i64, n_sack: i64 }
    /// Timeouts, fast retransmits and spurious timeouts.
    tcp_events: TcpEventsTrace { time_s: f64, flow: i64, event: &str, seq: i64 }
    /// Queue length of a wired link direction after each enqueue, dequeue and drop.
    queues: QueuesTrace { time_s: f64, link: &str, direction: &str, queue_len: i64, event: &str }
    /// Every dropped packet: where (node, interface or "" if none), why, and what it was.
    drops: DropsTrace {
        time_s: f64, node: &str, iface: &str, reason: &str, flow: i64, kind: &str, seq: i64
    }
    /// RLC PDU transmissions, retransmissions, polls, STATUS PDUs and block errors.
    rlc: RlcTrace {
        time_s: f64, bearer: &str, direction: &str, event: &str, sn: i64,
        retransmission: bool, poll: bool, nacks: i64
    }
    /// RLC transmission buffer occupancy (octets) per side.
    rlc_buffer: RlcBufferTrace { time_s: f64, bearer: &str, side: &str, bytes: i64 }
    /// Delay of each SDU across a radio bearer.
    sdu_delay: SduDelayTrace {
        time_s: f64, bearer: &str, direction: &str, bytes: i64, delay_s: f64
    }
    /// Every UDP datagram received: its one-way delay.
    datagrams: DatagramsTrace { time_s: f64, flow: i64, seq: i64, bytes: i64, delay_s: f64 }
    /// Scheduled topology and flow events as they happen.
    topology: TopologyTrace { time_s: f64, event: &str, target: &str }
    /// Per flow and bin (`[traces] flow_series_bin`, default 1 s) from time 0 to the end:
    /// data packets and bytes arriving at the destination, throughput, mean delay and mean
    /// jitter (`crate::trace::flow_series`); `time_s` is the bin's start.
    flow_series: FlowSeriesTrace {
        time_s: f64, flow: i64, packets: i64, bytes: i64, throughput_bps: f64, delay_s: f64,
        jitter_s: f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_typed_trace_pushes_rows_into_its_declared_columns() {
        let mut t = TcpEventsTrace::new();
        t.push(1.5, 0, "timeout", 7);
        t.push(2.0, 1, "fast_retransmit", 9);
        let table = t.table();
        assert_eq!(table.name, "tcp_events");
        assert_eq!(table.rows(), 2);
        assert_eq!(table.column("seq"), Some(&Column::I64(vec![7, 9])));
        assert_eq!(
            table.column("event"),
            Some(&Column::Str(vec![
                "timeout".into(),
                "fast_retransmit".into()
            ]))
        );
    }

    #[test]
    fn only_switched_on_traces_are_recorded() {
        let spec = TraceSpec {
            rtt: true,
            drops: true,
            ..TraceSpec::default()
        };
        let set = TraceSet::from_spec(&spec);
        assert!(set.cwnd.is_none());
        let names: Vec<&str> = set.into_tables().iter().map(|t| t.name).collect();
        assert_eq!(names, vec!["rtt", "drops"]);
    }
}
