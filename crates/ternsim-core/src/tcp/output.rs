//! How the TCP state machines speak to the host: segments to transmit and trace events.

use super::segment::{AckSegment, DataSegment, Seq};
use super::traced::VarChange;

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

/// The kinds of line of ns-2's event trace (`$ns eventtrace-all`): the names ns-2.35's TCP
/// agents pass to `TcpAgent::trace_event` (tcp/tcp.cc, tcp-reno.cc, tcp-newreno.cc,
/// tcp-sack1.cc).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ns2EventKind {
    /// The retransmission timer expired (`TcpAgent::timeout`, before anything changes).
    Timeout,
    /// `TcpAgent::slowdown` left cwnd at 1, or was called in slow start.
    SlowStart,
    /// Tahoe's fast retransmit (`TcpAgent::dupack_action`).
    FastRetx,
    /// Reno's fast retransmit (`RenoTcpAgent::dupack_action`).
    RenoFastRetx,
    /// NewReno's fast retransmit (`NewRenoTcpAgent::dupack_action`).
    NewRenoFastRetx,
    /// A further duplicate ACK inflating NewReno's window (`NewRenoTcpAgent::recv`).
    NewRenoFastRecovery,
    /// Sack1 enters fast recovery (`Sack1TcpAgent::dupack_action`).
    FastRecovery,
}

impl Ns2EventKind {
    /// The event's name in the line.
    pub fn name(self) -> &'static str {
        match self {
            Ns2EventKind::Timeout => "TIMEOUT",
            Ns2EventKind::SlowStart => "SLOW_START",
            Ns2EventKind::FastRetx => "FAST_RETX",
            Ns2EventKind::RenoFastRetx => "RENO_FAST_RETX",
            Ns2EventKind::NewRenoFastRetx => "NEWRENO_FAST_RETX",
            Ns2EventKind::NewRenoFastRecovery => "NEWRENO_FAST_RECOVERY",
            Ns2EventKind::FastRecovery => "FAST_RECOVERY",
        }
    }
}

/// One event-trace moment: what ns-2 prints (`t_seqno_` and `int(cwnd_)` then) and where it
/// falls among the segments of the same call (before segment `before_segment`), so that the
/// host writes it between their packet lines as ns-2 does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ns2Event {
    pub kind: Ns2EventKind,
    pub t_seqno: Seq,
    pub cwnd: i64,
    pub before_segment: usize,
}

/// Buffer the sender fills during one call. The host drains `segments` and `events` after
/// each call; the sender only pushes. `trace` tells the sender whether events are wanted,
/// `ns2_event_trace` whether ns-2's event-trace moments are (`ns2_events`).
#[derive(Debug, Default)]
pub struct TcpOutput {
    pub segments: Vec<DataSegment>,
    pub events: Vec<TcpEvent>,
    pub trace: bool,
    pub ns2_events: Vec<Ns2Event>,
    pub ns2_event_trace: bool,
    /// Changes of the variables a script traces (`$tcp trace cwnd_`), in ns-2's order; filled
    /// only for a sender with a tracer (`Conn::trace_var`).
    pub var_changes: Vec<VarChange>,
    /// Packets ns-2 allocated (taking a uid) but never sent: the SYN a `max_connects_`
    /// abort stops (`TcpAgent::output` returns after `allocpkt`).
    pub unsent_uids: u64,
}

impl TcpOutput {
    pub fn clear(&mut self) {
        self.segments.clear();
        self.events.clear();
        self.ns2_events.clear();
        self.var_changes.clear();
        self.unsent_uids = 0;
    }
    /// Records an event-trace moment if they are wanted (nothing otherwise).
    pub fn ns2_event(&mut self, kind: Ns2EventKind, t_seqno: Seq, cwnd: f64) {
        if self.ns2_event_trace {
            self.ns2_events.push(Ns2Event {
                kind,
                t_seqno,
                // ns-2 prints `int(cwnd_)`: truncation.
                cwnd: cwnd as i64,
                before_segment: self.segments.len(),
            });
        }
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
