//! ns-2's traced variables of a TCP sender (`$tcp attach $chan; $tcp trace cwnd_`).
//!
//! In ns-2.35 these variables are tclcl `TracedInt`/`TracedDouble`s: an assignment that
//! changes the value calls `TcpAgent::traceVar`, which writes one line with the new value
//! (an assignment of the value already held writes nothing, measured against ns-2.35: a
//! `dupacks_ = 0` on every new ACK leaves no line). Several assignments in one call give
//! several lines, in the order the C++ makes them.
//!
//! The sender does not call a tracer at each assignment: it reports *checkpoints*
//! ([`VarTracer::checkpoint`]) at the boundaries of ns-2's steps (after `newack` advances
//! the ACK, after its RTT sample, around each window change and each `output`), and the
//! tracer compares the values then with those last reported and records the changed ones in
//! [`TRACE_ORDER`]. Between two checkpoints ns-2 assigns the variables in that order
//! (`newack`: `dupacks_`, `ack_`, `t_seqno_`; the RTT update: `backoff_`, `rtt_`, `srtt_`,
//! `rttvar_`; `timeout`: `nrexmit_`, then `slowdown`'s `ncwndcuts_`, `ssthresh_`, `cwnd_`,
//! then `reset_rtx_timer`'s `backoff_` and `t_seqno_`; `output`: `ndatapack_`, `ndatabytes_`,
//! then `maxseq_` or `nrexmitpack_`/`nrexmitbytes_`, then `send_much`'s `t_seqno_++`), so the
//! lines come out as ns-2 writes them.
//!
//! Knows nothing of the connection: the caller passes the current values.

/// One traced variable, by ns-2's name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TracedVar {
    Dupacks,
    Ack,
    Nrexmit,
    Ncwndcuts,
    Ssthresh,
    Cwnd,
    Backoff,
    Rtt,
    Srtt,
    Rttvar,
    Ndatapack,
    Ndatabytes,
    Maxseq,
    Nrexmitpack,
    Nrexmitbytes,
    TSeqno,
}

/// Number of traced variables.
pub const TRACED_VARS: usize = 16;

/// The order in which changes found at one checkpoint are recorded (see the module comment).
pub const TRACE_ORDER: [TracedVar; TRACED_VARS] = [
    TracedVar::Dupacks,
    TracedVar::Ack,
    TracedVar::Nrexmit,
    TracedVar::Ncwndcuts,
    TracedVar::Ssthresh,
    TracedVar::Cwnd,
    TracedVar::Backoff,
    TracedVar::Rtt,
    TracedVar::Srtt,
    TracedVar::Rttvar,
    TracedVar::Ndatapack,
    TracedVar::Ndatabytes,
    TracedVar::Maxseq,
    TracedVar::Nrexmitpack,
    TracedVar::Nrexmitbytes,
    TracedVar::TSeqno,
];

/// [`TRACE_ORDER`] for the Vegas family, whose `VegasTcpAgent::output` counts
/// `ndatabytes_` before `ndatapack_`.
pub const TRACE_ORDER_VEGAS: [TracedVar; TRACED_VARS] = {
    let mut order = TRACE_ORDER;
    order[10] = TracedVar::Ndatabytes;
    order[11] = TracedVar::Ndatapack;
    order
};

impl TracedVar {
    /// ns-2's variable name (`cwnd_`, ...).
    pub fn name(self) -> &'static str {
        match self {
            TracedVar::Dupacks => "dupacks_",
            TracedVar::Ack => "ack_",
            TracedVar::Nrexmit => "nrexmit_",
            TracedVar::Ncwndcuts => "ncwndcuts_",
            TracedVar::Ssthresh => "ssthresh_",
            TracedVar::Cwnd => "cwnd_",
            TracedVar::Backoff => "backoff_",
            TracedVar::Rtt => "rtt_",
            TracedVar::Srtt => "srtt_",
            TracedVar::Rttvar => "rttvar_",
            TracedVar::Ndatapack => "ndatapack_",
            TracedVar::Ndatabytes => "ndatabytes_",
            TracedVar::Maxseq => "maxseq_",
            TracedVar::Nrexmitpack => "nrexmitpack_",
            TracedVar::Nrexmitbytes => "nrexmitbytes_",
            TracedVar::TSeqno => "t_seqno_",
        }
    }

    /// The variable of ns-2 name `name`, if it is one of these.
    pub fn from_name(name: &str) -> Option<TracedVar> {
        TRACE_ORDER.iter().copied().find(|v| v.name() == name)
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// One traced assignment: the variable and its new value (ints as whole numbers; `rtt_`,
/// `srtt_`, `rttvar_` as ns-2's bound integers: ticks, 8 × ticks, 4 × ticks).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct VarChange {
    pub var: TracedVar,
    pub value: f64,
    /// Segments the call had sent when the assignment was made: its trace line goes after
    /// theirs and before the next one's (ns-2's `output` raises `t_seqno_` after it sends).
    pub before_segment: usize,
}

/// The values of every traced variable at one moment, indexed by [`TracedVar`].
pub type VarValues = [f64; TRACED_VARS];

/// Which variables a sender traces and the values it last reported for them.
#[derive(Clone, Debug, PartialEq)]
pub struct VarTracer {
    traced: [bool; TRACED_VARS],
    last: VarValues,
    order: &'static [TracedVar; TRACED_VARS],
}

impl VarTracer {
    /// Tracing starts from `now`: nothing is reported until a value differs from it.
    /// `order` is [`TRACE_ORDER`] or [`TRACE_ORDER_VEGAS`].
    pub fn new(now: &VarValues, order: &'static [TracedVar; TRACED_VARS]) -> Self {
        VarTracer {
            traced: [false; TRACED_VARS],
            last: *now,
            order,
        }
    }

    /// Trace `var` from here on (its current value is the caller's to report, as ns-2's
    /// `trace` command writes it at once).
    pub fn enable(&mut self, var: TracedVar, now: &VarValues) {
        self.traced[var.index()] = true;
        self.last[var.index()] = now[var.index()];
    }

    /// Record, in the tracer's order, each traced variable whose value differs from the one
    /// last reported.
    /// `sent`: segments the call has sent so far.
    pub fn checkpoint(&mut self, now: &VarValues, sent: usize, out: &mut Vec<VarChange>) {
        for &var in self.order {
            let i = var.index();
            if self.traced[i] && now[i] != self.last[i] {
                self.last[i] = now[i];
                out.push(VarChange {
                    var,
                    value: now[i],
                    before_segment: sent,
                });
            }
        }
    }

    /// Record an intermediate value ns-2 assigns and overwrites within one step (slowdown's
    /// `ssthresh_ = halfwin` before `if (ssthresh_ < 2) ssthresh_ = 2`), if it is traced and
    /// differs from the value last reported.
    pub fn transient(&mut self, var: TracedVar, value: f64, sent: usize, out: &mut Vec<VarChange>) {
        let i = var.index();
        if self.traced[i] && value != self.last[i] {
            self.last[i] = value;
            out.push(VarChange {
                var,
                value,
                before_segment: sent,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(pairs: &[(TracedVar, f64)]) -> VarValues {
        let mut v = [0.0; TRACED_VARS];
        for &(var, x) in pairs {
            v[var as usize] = x;
        }
        v
    }

    #[test]
    fn names_round_trip_and_order_lists_each_variable_once() {
        for (i, v) in TRACE_ORDER.iter().enumerate() {
            assert_eq!(TracedVar::from_name(v.name()), Some(*v));
            assert_eq!(*v as usize, i);
        }
        assert_eq!(TracedVar::from_name("window_"), None);
        let mut vegas = TRACE_ORDER_VEGAS.to_vec();
        vegas.sort_by_key(|v| *v as usize);
        assert_eq!(vegas, TRACE_ORDER.to_vec());
    }

    /// ns-2's first new ACK of a Reno flow tracing everything (tv4 of the tests, 0.15070 s):
    /// ack_ 0, rtt_, srtt_, rttvar_, cwnd_ 2, then per packet ndatapack_, maxseq_,
    /// t_seqno_. Three checkpoints: after newack's ACK step, after the window change, after
    /// the send.
    #[test]
    fn only_changed_traced_values_in_ns2_order() {
        let start = values(&[
            (TracedVar::Ack, -1.0),
            (TracedVar::Maxseq, 0.0),
            (TracedVar::TSeqno, 1.0),
            (TracedVar::Cwnd, 1.0),
            (TracedVar::Ssthresh, 20.0),
            (TracedVar::Ndatapack, 1.0),
        ]);
        let mut t = VarTracer::new(&start, &TRACE_ORDER);
        for v in [
            TracedVar::Cwnd,
            TracedVar::Ack,
            TracedVar::TSeqno,
            TracedVar::Maxseq,
            TracedVar::Ssthresh,
        ] {
            t.enable(v, &start);
        }
        let mut out = Vec::new();
        // newack: ack_ -1 -> 0; ndatapack_ is not traced, so its change is never reported.
        let mut now = start;
        now[TracedVar::Ack as usize] = 0.0;
        now[TracedVar::Ndatapack as usize] = 5.0;
        t.checkpoint(&now, 0, &mut out);
        assert_eq!(
            out,
            vec![VarChange {
                var: TracedVar::Ack,
                value: 0.0,
                before_segment: 0
            }]
        );
        // opencwnd: cwnd_ 1 -> 2 (ssthresh_ assigned nothing new: no line).
        out.clear();
        now[TracedVar::Cwnd as usize] = 2.0;
        t.checkpoint(&now, 0, &mut out);
        t.checkpoint(&now, 0, &mut out);
        assert_eq!(
            out,
            vec![VarChange {
                var: TracedVar::Cwnd,
                value: 2.0,
                before_segment: 0
            }]
        );
        // output(1) then t_seqno_++: maxseq_ before t_seqno_.
        out.clear();
        now[TracedVar::TSeqno as usize] = 2.0;
        now[TracedVar::Maxseq as usize] = 1.0;
        t.checkpoint(&now, 0, &mut out);
        let got: Vec<_> = out.iter().map(|c| (c.var.name(), c.value)).collect();
        assert_eq!(got, vec![("maxseq_", 1.0), ("t_seqno_", 2.0)]);
    }

    /// slowdown with a window of 2: ns-2 assigns `ssthresh_ = 1`, then raises it to 2: two
    /// lines, the second only because the first changed the value.
    #[test]
    fn transient_value_then_final_value() {
        let start = values(&[(TracedVar::Ssthresh, 20.0)]);
        let mut t = VarTracer::new(&start, &TRACE_ORDER);
        t.enable(TracedVar::Ssthresh, &start);
        let mut out = Vec::new();
        t.transient(TracedVar::Ssthresh, 1.0, 0, &mut out);
        let mut now = start;
        now[TracedVar::Ssthresh as usize] = 2.0;
        t.checkpoint(&now, 0, &mut out);
        let got: Vec<_> = out.iter().map(|c| c.value).collect();
        assert_eq!(got, vec![1.0, 2.0]);
        // Already at 2: the transient 1 and the final 2 both print again.
        out.clear();
        t.transient(TracedVar::Ssthresh, 1.0, 0, &mut out);
        t.checkpoint(&now, 0, &mut out);
        assert_eq!(out.len(), 2);
    }
}
