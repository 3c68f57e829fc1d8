//! How the TCP state machines speak to the host: segments to transmit and trace events.

use super::segment::{AckSegment, DataSegment, Seq};

/// A trace-worthy moment inside the sender. The host stamps each with the current time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TcpEvent {
    /// cwnd (packets, real), ssthresh or the fast-recovery inflation changed. `dupwnd` is
    /// ns-2's `dupwnd_` (Reno/NewReno inflation, packets): the usable window is
    /// min(floor(cwnd) + dupwnd, window).
    Window {
        cwnd: f64,
        ssthresh: f64,
        dupwnd: i64,
    },
    /// One RTT sample used by the RTO estimator (seconds), from the timed segment `seq`.
    RttSample { seq: Seq, rtt_s: f64 },
    /// The RTO estimator's state after a sample or a backoff (seconds).
    Rto {
        srtt_s: f64,
        rttvar_s: f64,
        rto_s: f64,
    },
    /// The retransmission timer expired; `seq` is the first packet resent.
    Timeout { seq: Seq },
    /// A fast retransmission of `seq` (3 duplicate ACKs, or Vegas's fine-grained check).
    FastRetransmit { seq: Seq },
}

/// Buffer the sender fills during one call. The host drains `segments` and `events` after
/// each call; the sender only pushes. `trace` tells the sender whether events are wanted.
#[derive(Debug, Default)]
pub struct TcpOutput {
    pub segments: Vec<DataSegment>,
    pub events: Vec<TcpEvent>,
    pub trace: bool,
}

impl TcpOutput {
    pub fn clear(&mut self) {
        self.segments.clear();
        self.events.clear();
    }
    /// Records `e` if tracing is on. Timeouts are always recorded: the host needs them to
    /// detect spurious timeouts.
    pub fn event(&mut self, e: TcpEvent) {
        if self.trace || matches!(e, TcpEvent::Timeout { .. }) {
            self.events.push(e);
        }
    }
}

/// Buffer the sink fills during one call.
#[derive(Debug, Default)]
pub struct SinkOutput {
    pub acks: Vec<AckSegment>,
    /// Packets newly delivered in order to the application by this call.
    pub delivered_packets: u64,
    /// Payload bytes newly delivered in order to the application by this call.
    pub delivered_bytes: u64,
}

impl SinkOutput {
    pub fn clear(&mut self) {
        self.acks.clear();
        self.delivered_packets = 0;
        self.delivered_bytes = 0;
    }
}
