//! Shared connection state and machinery of the one-way ns-2 sender (tcp-spec §2).
//!
//! Owns: the packet-counted sequence space (`t_seqno`, `maxseq`, `last_ack`, `highest_ack`),
//! the congestion state ([`CongestionState`]: `cwnd`/`ssthresh`/`dupwnd`, `dupacks`,
//! `recover`, `last_cwnd_action`), the one timed packet (Karn), the retransmission-timer
//! deadline, the RTO estimator, the per-packet send records of outstanding packets, the
//! counters of the run summary ([`SenderStats`]), and the primitive actions every variant is
//! built from: `output`, `send_much`, `send_one` (Limited Transmit), `newack`, `slowdown`,
//! `reset_rtx_timer`.
//!
//! Every field is private. Policies read it through getters and change it only through
//! methods named after the protocol step they perform; cwnd and ssthresh change only in
//! [`Conn::apply_window`], which applies a window policy's [`WindowDecision`].
//!
//! Sits below the policies: it imports no policy (`recovery`, `window`), nor the sender or
//! the variant table; the policies and the sender above it call it.
//!
//! Invariants: `highest_ack <= maxseq`, `t_seqno <= maxseq + 1`, `last_ack <= highest_ack`
//! (equal except inside Sack1 recovery); the timer is armed while data is outstanding or the
//! application has more to send; `records` holds packets `records_base..=maxseq`.
//!
//! Does not decide: when to fast-retransmit or how to leave recovery (`recovery`), or how the
//! window grows and shrinks (`window`).

use std::collections::VecDeque;

use super::config::TcpConfig;
use super::congestion::{CongestionState, CwndAction, DupacksHold, Slowdown, WindowDecision};
use super::ecn::EcnState;
use super::output::{Ns2EventKind, TcpEvent, TcpOutput};
use super::quiescence::{idle_cut, IdleCut, Quiescence};
use super::rto::RtoEstimator;
use super::segment::{DataSegment, EcnFlags, Seq};
use super::send_ring::SendRing;
use super::traced::{TracedVar, VarTracer, VarValues, TRACED_VARS, TRACE_ORDER, TRACE_ORDER_VEGAS};
use super::variant::{RecoveryKind, WindowKind};
use crate::sim::SimTime;

/// Seconds for trace events, correctly rounded (0.3 s reads 0.3, not 0.30000000000000004).
fn secs(t: SimTime) -> f64 {
    t.as_nanos() as f64 / 1e9
}

/// Slots of ns-2's per-packet send-time table for `bugFix_ts_` (`tss_size_`).
const TSS_SIZE: usize = 100;

/// Counters the sender keeps for the run summary.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SenderStats {
    /// Data segments handed to the network, including retransmissions.
    pub segments_sent: u64,
    /// Of those, retransmissions (any cause).
    pub retransmissions: u64,
    pub timeouts: u64,
    /// Fast retransmissions: dupthresh duplicates, or Vegas's fine-grained checks.
    pub fast_retransmits: u64,
    /// ACKs received (ns-2 `nackpack_`: every variant's `recv` counts each one).
    pub acks_received: u64,
}

/// When and how many times one outstanding packet was sent (ns-2 Vegas `v_sendtime_`,
/// `v_transmits_`; kept for every variant).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SendRecord {
    /// Time of the latest transmission.
    pub sent_at: SimTime,
    pub transmits: u32,
}

/// ns-2's delayed-send timer (`delsnd_timer_`), which `overhead_` uses: idle, asked for
/// (the host has still to draw its delay), or armed until a time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DelayedSend {
    Idle,
    Requested,
    Armed(SimTime),
}

#[derive(Clone, Debug)]
pub struct Conn {
    cfg: TcpConfig,
    /// cwnd, ssthresh, dupwnd, window_init, dupacks, recover, last_cwnd_action.
    congestion: CongestionState,
    /// Next new packet to send (rewound to `highest_ack + 1` by go-back-N).
    t_seqno: Seq,
    /// Highest packet sent.
    maxseq: Seq,
    last_ack: Seq,
    highest_ack: Seq,
    /// ns-2 `prev_highest_ack_`: `highest_ack` before the last new ACK (`newack`).
    prev_highest_ack: Seq,
    /// ns-2 `cong_action_`: the window was cut and no packet has been sent since.
    cong_action: bool,
    /// ns-2 `ect_`, `ecn_backoff_` and the ECN-Echo of the ACK being processed.
    ecn: EcnState,
    /// ns-2 `curseq_`: packets below this exist (the SYN included); `Seq::MAX` = unlimited.
    curseq: Seq,
    /// The application stopped offering new data (ns-2 FTP `stop`): see
    /// [`Self::stop_new_data`].
    app_stopped: bool,
    /// Packet 0 is a 40-byte SYN (cfg.syn, for variants that emulate it).
    packet0_is_syn: bool,
    /// SYNs sent (ns-2 `syn_connects_`), for `max_connects`.
    syn_connects: i64,
    /// ns-2 `firstsent_`: when `send_much` last ran with `t_seqno` 0 (the first transmission,
    /// or a go-back-N to packet 0), the origin of Vegas's `vegastime()`.
    first_sent: Option<SimTime>,
    rtt_active: bool,
    rtt_seq: Seq,
    rtt_ts: SimTime,
    /// The echoed timestamp of the ACK being processed (with `cfg.timestamps`).
    ack_ts_echo: SimTime,
    /// ns-2 `ts_echo_`: the echoed timestamp of the last new ACK (with `cfg.timestamps`).
    last_ts_echo: SimTime,
    /// ns-2 `tss`: with `bug_fix_ts`, the last send time of each packet, by seqno modulo
    /// [`TSS_SIZE`].
    tss: Vec<SimTime>,
    rto: RtoEstimator,
    rtx_deadline: Option<SimTime>,
    records: VecDeque<SendRecord>,
    records_base: Seq,
    /// ns-2 Vegas's slot arrays (`v_sendtime_`, `v_transmits_`): the Vegas family only,
    /// from the first transmission of packet 0.
    send_ring: Option<SendRing>,
    stats: SenderStats,
    /// ns-2 `ndatabytes_` and `nrexmitbytes_`: payload bytes sent and resent (a SYN carries
    /// none).
    data_bytes: i64,
    rexmit_bytes: i64,
    /// ns-2 `ncwndcuts_`: calls of `slowdown` (every loss reaction of the AIMD variants, the
    /// timeouts of the Vegas family).
    cwnd_cuts: i64,
    /// ns-2's quiescence option (`QOption_`), when on (`super::quiescence`).
    quiescence: Option<Quiescence>,
    /// ns-2 `delsnd_timer_` (with `overhead_`).
    delsnd: DelayedSend,
    /// The variables a script traces, if any (`$tcp trace cwnd_`; see `super::traced`).
    tracer: Option<Box<VarTracer>>,
    /// Intermediate values ns-2 assigns within the window change about to be applied, in
    /// its order ([`Self::trace_transient`]).
    transients: Vec<(TracedVar, f64)>,
}

impl Conn {
    pub fn new(cfg: TcpConfig, tick_phase: SimTime) -> Self {
        let packet0_is_syn = cfg.packet0_is_syn();
        Conn {
            cfg,
            congestion: CongestionState::new(&cfg),
            t_seqno: 0,
            maxseq: -1,
            last_ack: -1,
            highest_ack: -1,
            prev_highest_ack: -1,
            cong_action: false,
            ecn: EcnState::default(),
            curseq: Seq::MAX,
            app_stopped: false,
            packet0_is_syn,
            syn_connects: 0,
            first_sent: None,
            rtt_active: false,
            rtt_seq: -1,
            rtt_ts: SimTime::ZERO,
            ack_ts_echo: SimTime::ZERO,
            last_ts_echo: SimTime::ZERO,
            tss: if cfg.bug_fix_ts {
                vec![SimTime::ZERO; TSS_SIZE]
            } else {
                Vec::new()
            },
            rto: RtoEstimator::new(cfg.rto, tick_phase),
            rtx_deadline: None,
            records: VecDeque::new(),
            records_base: 0,
            send_ring: None,
            stats: SenderStats::default(),
            data_bytes: 0,
            rexmit_bytes: 0,
            cwnd_cuts: 0,
            // ns-2 `reset()` at the agent's creation, tick 0.
            quiescence: cfg.qoption.then(|| Quiescence::new(0)),
            tracer: None,
            transients: Vec::new(),
            delsnd: DelayedSend::Idle,
        }
    }

    // ns-2's traced variables (`super::traced`).

    /// The value of every traced variable now (ns-2's representation: see
    /// [`super::traced::VarChange`]).
    pub fn traced_values(&self) -> VarValues {
        let (srtt8, rttvar4, rtt) = self.rto.ns2_bound_values();
        let mut v = [0.0; TRACED_VARS];
        let mut put = |var: TracedVar, x: f64| v[var as usize] = x;
        put(TracedVar::Dupacks, f64::from(self.dupacks()));
        put(TracedVar::Ack, self.highest_ack as f64);
        put(TracedVar::Nrexmit, self.stats.timeouts as f64);
        put(TracedVar::Ncwndcuts, self.cwnd_cuts as f64);
        put(TracedVar::Ssthresh, self.ssthresh().trunc());
        put(TracedVar::Cwnd, self.cwnd());
        put(TracedVar::Backoff, self.rto.backoff_multiplier() as f64);
        put(TracedVar::Rtt, rtt as f64);
        put(TracedVar::Srtt, srtt8 as f64);
        put(TracedVar::Rttvar, rttvar4 as f64);
        put(TracedVar::Ndatapack, self.stats.segments_sent as f64);
        put(TracedVar::Ndatabytes, self.data_bytes as f64);
        put(TracedVar::Maxseq, self.maxseq as f64);
        put(TracedVar::Nrexmitpack, self.stats.retransmissions as f64);
        put(TracedVar::Nrexmitbytes, self.rexmit_bytes as f64);
        put(TracedVar::TSeqno, self.t_seqno as f64);
        v
    }

    /// Trace `var` from now on; returns its current value, which ns-2's `trace` command
    /// writes at once.
    pub fn trace_var(&mut self, var: TracedVar) -> f64 {
        let now = self.traced_values();
        let order = if self.cfg.variant.spec().window == WindowKind::Aimd {
            &TRACE_ORDER
        } else {
            &TRACE_ORDER_VEGAS
        };
        self.tracer
            .get_or_insert_with(|| Box::new(VarTracer::new(&now, order)))
            .enable(var, &now);
        now[var as usize]
    }

    /// ns-2 `rtt_update` assigns `t_rtt_` the sample's tick count and then raises it to 1
    /// if it is 0: a traced `rtt_` shows both (after the backoff reset that precedes the
    /// sample).
    fn trace_rtt_floor(&mut self, out: &mut TcpOutput) {
        let raw = self.rto.last_raw_sample_ticks();
        if self.tracer.is_none() || raw >= 1 {
            return;
        }
        let backoff = self.rto.backoff_multiplier() as f64;
        if let Some(t) = self.tracer.as_mut() {
            t.transient(
                TracedVar::Backoff,
                backoff,
                out.segments.len(),
                &mut out.var_changes,
            );
            t.transient(
                TracedVar::Rtt,
                raw as f64,
                out.segments.len(),
                &mut out.var_changes,
            );
        }
    }

    /// The end of one of ns-2's steps: record the traced variables it changed. Inlined: a
    /// sender nothing traces pays one test per call (several per packet).
    #[inline(always)]
    pub fn trace_checkpoint(&mut self, out: &mut TcpOutput) {
        if self.tracer.is_some() {
            self.record_traced_changes(out);
        }
    }

    #[cold]
    fn record_traced_changes(&mut self, out: &mut TcpOutput) {
        let now = self.traced_values();
        if let Some(t) = self.tracer.as_mut() {
            t.checkpoint(&now, out.segments.len(), &mut out.var_changes);
        }
    }

    /// An intermediate value ns-2 assigns to `var` in the window change about to be applied
    /// and overwrites before that change ends: traced by [`Self::apply_window`] after the
    /// changes before it and before the window's final values.
    pub fn trace_transient(&mut self, var: TracedVar, value: f64) {
        if self.tracer.is_some() {
            self.transients.push((var, value));
        }
    }

    /// ns-2 `slowdown` (tcp.cc) about to be applied: it counts `ncwndcuts_`, then assigns
    /// `ssthresh_ = (int) halfwin` or `(int) decreasewin` (when it cuts ssthresh: `halved`,
    /// [`Self::slowdown_ssthresh`]), then `cwnd_` (`slowdown_cwnd`), then raises `ssthresh_`
    /// to 2 if it is less: a traced variable shows each assignment that changed it. A window
    /// policy may change cwnd again after `slowdown` (Vegas's `v_slowstart_`).
    pub fn note_slowdown(&mut self, halved: Option<f64>, slowdown_cwnd: f64) {
        self.cwnd_cuts += 1;
        if self.tracer.is_none() {
            return;
        }
        if let Some(h) = halved {
            self.trace_transient(TracedVar::Ssthresh, h.trunc());
        }
        self.trace_transient(TracedVar::Cwnd, slowdown_cwnd);
        if let Some(h) = halved {
            self.trace_transient(TracedVar::Ssthresh, h.trunc().max(self.cfg.min_ssthresh));
        }
    }

    // Read-only view of the state (ns-2 names).

    pub fn cfg(&self) -> &TcpConfig {
        &self.cfg
    }
    /// The congestion state, for decisions that start from it ([`WindowDecision::hold`]).
    pub fn congestion(&self) -> &CongestionState {
        &self.congestion
    }
    pub fn cwnd(&self) -> f64 {
        self.congestion.cwnd()
    }
    pub fn ssthresh(&self) -> f64 {
        self.congestion.ssthresh()
    }
    pub fn dupwnd(&self) -> i64 {
        self.congestion.dupwnd()
    }
    pub fn window_init(&self) -> f64 {
        self.congestion.window_init()
    }
    pub fn t_seqno(&self) -> Seq {
        self.t_seqno
    }
    pub fn maxseq(&self) -> Seq {
        self.maxseq
    }
    pub fn last_ack(&self) -> Seq {
        self.last_ack
    }
    /// ns-2's timestamp heuristic (`bugFix_ts_`, RFC 6582 §4.2): the last new ACK echoed
    /// the time the packet it acknowledges was last sent, so it was not triggered by an
    /// older copy. False without `bug_fix_ts`.
    pub fn ack_echoes_last_send(&self) -> bool {
        !self.tss.is_empty()
            && self.tss[self.highest_ack.rem_euclid(TSS_SIZE as Seq) as usize] == self.last_ts_echo
    }

    /// How far the last new ACK moved the cumulative ACK (ns-2 `highest_ack_ −
    /// prev_highest_ack_`).
    pub fn last_ack_advance(&self) -> Seq {
        self.highest_ack - self.prev_highest_ack
    }

    pub fn highest_ack(&self) -> Seq {
        self.highest_ack
    }
    pub fn dupacks(&self) -> u32 {
        self.congestion.dupacks()
    }
    pub fn recover(&self) -> Seq {
        self.congestion.recover()
    }
    pub fn last_cwnd_action(&self) -> CwndAction {
        self.congestion.last_cwnd_action()
    }
    pub fn curseq(&self) -> Seq {
        self.curseq
    }
    pub fn packet0_is_syn(&self) -> bool {
        self.packet0_is_syn
    }
    pub fn first_sent(&self) -> Option<SimTime> {
        self.first_sent
    }
    pub fn rto(&self) -> &RtoEstimator {
        &self.rto
    }
    pub fn stats(&self) -> SenderStats {
        self.stats
    }

    /// ns-2's `ndatabytes_`, `nrexmitbytes_` and `ncwndcuts_`: payload bytes sent and resent,
    /// and `slowdown` calls.
    pub fn ns2_counters(&self) -> (i64, i64, i64) {
        (self.data_bytes, self.rexmit_bytes, self.cwnd_cuts)
    }

    /// A host changed the receiver's advertised window (ns-2 `$tcp set window_ W` during the
    /// run): the bound applies from the next send decision.
    pub fn set_window(&mut self, window: u32) {
        self.cfg.window = window;
    }

    /// Usable window in packets: ns-2 `window()`, `min(floor(cwnd) + dupwnd, window_)`.
    pub fn window(&self) -> Seq {
        self.congestion.window(&self.cfg)
    }

    /// ns-2 `windowd()`: `min(cwnd + dupwnd, window_)` as a real number.
    pub fn windowd(&self) -> f64 {
        self.congestion.windowd(&self.cfg)
    }

    /// Packets beyond the cumulative ACK have been sent (and not all acknowledged).
    pub fn data_outstanding(&self) -> bool {
        self.maxseq > self.highest_ack
    }

    pub fn rtx_deadline(&self) -> Option<SimTime> {
        self.rtx_deadline
    }

    /// The send record of `seq`, if it is outstanding (or was just acknowledged by the ACK
    /// being processed: records are pruned only at the end of each call).
    pub fn record(&self, seq: Seq) -> Option<SendRecord> {
        if seq < self.records_base {
            return None;
        }
        self.records
            .get((seq - self.records_base) as usize)
            .copied()
    }

    /// ns-2 Vegas's send slots ([`SendRing`]), for the Vegas family once packet 0 is sent.
    pub fn send_ring(&self) -> Option<&SendRing> {
        self.send_ring.as_ref()
    }

    /// A new ACK from `oldack` to `ack` clears its slots of the send ring (ns-2 Vegas `recv`,
    /// after reading the sample of the acknowledged packet).
    pub fn clear_acked_send_slots(&mut self, oldack: Seq, ack: Seq) {
        if let Some(r) = self.send_ring.as_mut() {
            r.clear_acked(oldack, ack);
        }
    }

    /// Drop the records of cumulatively acknowledged packets.
    pub fn prune_records(&mut self) {
        while self.records_base <= self.highest_ack && !self.records.is_empty() {
            self.records.pop_front();
            self.records_base += 1;
        }
        if self.records.is_empty() {
            self.records_base = self.records_base.max(self.highest_ack + 1);
        }
    }

    /// ns-2 `output(seq)` (tcp-spec §2 "Transmit"): emit the packet, time it if it is new and
    /// nothing is being timed (retransmissions are never timed: Karn), and arm the timer if it
    /// is not running or nothing was outstanding before this send.
    pub fn output(&mut self, seq: Seq, now: SimTime, out: &mut TcpOutput) {
        self.trace_checkpoint(out);
        let retransmission = seq <= self.maxseq;
        let (wire_bytes, payload_bytes) = if seq == 0 && self.packet0_is_syn {
            (self.cfg.header_size, 0)
        } else if seq == 0 && self.cfg.variant.spec().emulates_syn {
            // ns-2 `TcpAgent::output` adds the headers (`useHeaders_`) to every packet but
            // packet 0: without `syn_`, packet 0 is `packetSize_` bytes on the wire.
            (self.cfg.packet_size, self.cfg.packet_size)
        } else {
            (self.cfg.data_wire_bytes(), self.cfg.packet_size)
        };
        // ns-2 `output()`: the first packet after a window cut carries the congestion-action
        // flag, retransmissions included (`SetCWRonRetransmit_` is true in ns-2.35); ns-2
        // Vegas's own `output()` never sets it.
        let cong_action =
            std::mem::take(&mut self.cong_action) && self.cfg.variant.spec().marks_cong_action;
        // ns-2 `max_connects_`: the SYN that would exceed it aborts the connection: nothing
        // more to send and the timer pushed 10000 s away (the packet, already allocated,
        // is freed unsent; its uid is spent).
        if seq == 0 && self.packet0_is_syn {
            self.syn_connects += 1;
            if self.cfg.max_connects > 0 && self.syn_connects > self.cfg.max_connects {
                self.curseq = 0;
                self.rtx_deadline = Some(now + SimTime::from_millis(10_000_000));
                out.unsent_uids += 1;
                return;
            }
        }
        // ns-2 `output()` with `ecn_`: packet 0 asks for ECN (ECN-Echo, not ECN-capable,
        // ns-2's ECN-setup SYN, RFC 3168 §6.1.1); every other packet is ECN-capable.
        let ecn = EcnFlags {
            ect: self.cfg.ecn && seq != 0,
            ce: false,
            ece: self.cfg.ecn && seq == 0,
        };
        out.segments.push(DataSegment {
            seq,
            wire_bytes,
            payload_bytes,
            retransmission,
            cong_action,
            ecn,
            sent_at: now,
        });
        if !self.tss.is_empty() {
            self.tss[seq.rem_euclid(TSS_SIZE as Seq) as usize] = now;
        }
        self.stats.segments_sent += 1;
        self.data_bytes += i64::from(payload_bytes);
        if retransmission {
            self.stats.retransmissions += 1;
            self.rexmit_bytes += i64::from(payload_bytes);
        }
        if self.first_sent.is_none() {
            self.first_sent = Some(now);
        }
        self.note_send(seq, now);
        let nothing_outstanding = self.highest_ack == self.maxseq;
        if seq > self.maxseq {
            self.maxseq = seq;
            if !self.rtt_active && seq > self.rtt_seq {
                self.rtt_active = true;
                self.rtt_seq = seq;
                self.rtt_ts = now;
            }
        }
        if self.rtx_deadline.is_none() || nothing_outstanding {
            self.set_rtx_timer(now);
        }
        self.trace_checkpoint(out);
    }

    fn note_send(&mut self, seq: Seq, now: SimTime) {
        // ns-2 `VegasTcpAgent::output`: packet 0 (re)allocates the slots, `window_` of them
        // (the Vegas family only: the variant is looked at once, then the ring's presence
        // says it); each transmission writes `vegastime()` and counts one more.
        if seq == 0 && self.cfg.variant.spec().window != WindowKind::Aimd {
            self.send_ring = Some(SendRing::new(self.cfg.window));
        }
        if let Some(r) = self.send_ring.as_mut() {
            let first = self.first_sent.unwrap_or(now);
            r.note_send(seq, now.saturating_sub(first).as_secs_f64());
        }
        if seq < self.records_base {
            return; // below the cumulative ACK: cannot happen, nothing to record
        }
        let idx = (seq - self.records_base) as usize;
        while self.records.len() <= idx {
            self.records.push_back(SendRecord {
                sent_at: now,
                transmits: 0,
            });
        }
        let r = &mut self.records[idx];
        r.sent_at = now;
        r.transmits += 1;
    }

    /// ns-2 `send_much` (tcp-spec §0): send `t_seqno` while it is inside
    /// `highest_ack + window()` and the application has data; at most `maxburst` packets
    /// (0 = unlimited).
    pub fn send_much(&mut self, now: SimTime, maxburst: u32, out: &mut TcpOutput) {
        self.send_much_with(now, maxburst, false, out);
    }

    /// [`Self::send_much`] as ns-2's `send_much(force, ...)`: with `overhead_` and not
    /// `force`, nothing goes while the delayed-send timer is pending, and the first packet
    /// the window allows asks for the timer instead (`TcpAgent::send_much`); its expiry
    /// sends with `force` what the window then allows.
    pub fn send_much_with(
        &mut self,
        now: SimTime,
        maxburst: u32,
        force: bool,
        out: &mut TcpOutput,
    ) {
        let overhead = self.cfg.overhead > SimTime::ZERO && !force;
        if overhead && self.delsnd != DelayedSend::Idle {
            return;
        }
        // ns-2 `send_much` saves the time "when first packet was sent" (`firstsent_`) every
        // time it runs with `t_seqno_` 0: a timeout of packet 0 moves the origin of Vegas's
        // `vegastime()` to the retransmission, while values taken before (`t_cwnd_changed_`)
        // keep the old origin.
        if self.t_seqno == 0 {
            self.first_sent = Some(now);
        }
        let mut sent = 0;
        let limit = self.send_limit();
        // ns-2 Sack1's own loop sends `t_seqno_++` (the variable moves before `output`), the
        // others `output(t_seqno_)` then `t_seqno_++`: a traced `t_seqno_` shows the order.
        let seq_first = self.cfg.variant.spec().recovery == RecoveryKind::Sack1;
        while self.t_seqno <= self.highest_ack + self.window() && self.t_seqno < limit {
            if overhead {
                self.delsnd = DelayedSend::Requested;
                return;
            }
            if seq_first {
                self.trace_checkpoint(out);
                self.t_seqno += 1;
                self.output(self.t_seqno - 1, now, out);
            } else {
                self.output(self.t_seqno, now, out);
                self.quiescence_after_send(now, out);
                self.t_seqno += 1;
            }
            sent += 1;
            if maxburst != 0 && sent == maxburst {
                break;
            }
        }
    }

    /// The delayed-send timer (`overhead_`).
    pub fn delayed_send(&self) -> DelayedSend {
        self.delsnd
    }

    /// The host drew the delay the last [`DelayedSend::Requested`] asked for: the timer
    /// expires at `at`.
    pub fn arm_delayed_send(&mut self, at: SimTime) {
        self.delsnd = DelayedSend::Armed(at);
    }

    /// The delayed-send timer expired (before its forced `send_much`).
    pub fn delayed_send_fired(&mut self) {
        self.delsnd = DelayedSend::Idle;
    }

    /// Limited Transmit, ns-2 `send_one` (tcp-spec §2, RFC 3042): one new packet if the
    /// receiver window allows and `t_seqno <= highest_ack + cwnd + dupacks`.
    pub fn send_one(&mut self, now: SimTime, out: &mut TcpOutput) {
        let t = self.t_seqno;
        if t <= self.highest_ack + self.cfg.window as Seq
            && t < self.send_limit()
            && (t as f64) <= self.highest_ack as f64 + self.cwnd() + self.dupacks() as f64
        {
            self.output(t, now, out);
            self.quiescence_after_send(now, out);
            self.t_seqno += 1;
        }
    }

    /// The echoed timestamp of the ACK about to be processed (RFC 7323 §4.1; read by
    /// [`Self::newack`] with the timestamp option).
    pub fn set_ack_ts_echo(&mut self, ts_echo: SimTime) {
        self.ack_ts_echo = ts_echo;
    }

    // ECN (`super::ecn`).

    pub fn ecn(&self) -> &EcnState {
        &self.ecn
    }

    /// The ECN-Echo bit of the ACK about to be processed.
    pub fn set_ack_ecn_echo(&mut self, ece: bool) {
        self.ecn.ack_ece = ece;
    }

    /// The end of a new ACK's processing (ns-2 `recv_newack_helper`, see
    /// [`EcnState::after_new_ack`]).
    pub fn ecn_after_new_ack(&mut self) {
        self.ecn.after_new_ack();
    }

    /// ns-2 `TcpAgent::ecn` before its `slowdown`: `recover_ = maxseq_`,
    /// `last_cwnd_action_ = ECN`; with cwnd at one packet or less, a second such reaction
    /// backs the timer off (the first only notes it), otherwise the ECN backoff ends.
    pub fn open_ecn_reaction(&mut self, out: &mut TcpOutput) {
        self.congestion
            .open_loss_reaction(CwndAction::Ecn, self.maxseq);
        if self.cwnd() <= 1.0 {
            if self.ecn.backoff {
                self.rto.backoff();
                self.emit_rto(out);
            } else {
                self.ecn.backoff = true;
            }
        } else {
            self.ecn.backoff = false;
        }
    }

    /// ns-2 `newack` (tcp-spec §2 "New ACK"): advance the cumulative ACK, take the RTT sample
    /// of the timed packet if this ACK covers it (resetting the backoff), then restart the
    /// timer if data is still outstanding, else cancel it. With the timestamp option every
    /// new ACK gives the sample, from its echoed timestamp (RFC 7323 §4.1), and the timed
    /// packet only ends the backoff (ns-2 samples `now - ts_echo` first, then checks
    /// `rtt_seq_`; `ts_resetRTO_` ends the backoff on every sample). The timer restarts after
    /// the sample (`timerfix_`) or, without it, first, with the RTO before the sample.
    pub fn newack(&mut self, now: SimTime, ack: Seq, out: &mut TcpOutput) {
        self.newack_timer(now, ack, !self.cfg.timer_fix, out);
    }

    /// [`Self::newack`] with the timer restarted before the sample when `timer_first`
    /// (ns-2 Rate-Halving's own `newack`, `tcp-sack-rh.cc`, whatever `timerfix_`).
    pub fn newack_timer(&mut self, now: SimTime, ack: Seq, timer_first: bool, out: &mut TcpOutput) {
        if timer_first {
            self.newtimer(now, ack);
        }
        self.congestion.forget_dup_acks();
        self.last_ack = ack;
        self.prev_highest_ack = self.highest_ack;
        self.highest_ack = ack;
        self.t_seqno = self.t_seqno.max(ack + 1);
        // ns-2 traces `dupacks_`, `ack_` and `t_seqno_` before the RTT update's variables.
        self.trace_checkpoint(out);
        if self.cfg.timestamps {
            self.last_ts_echo = self.ack_ts_echo;
            let rtt = now - self.ack_ts_echo;
            self.rto.sample_timestamp(rtt);
            self.trace_rtt_floor(out);
            // ns-2 updates the estimator before `ts_resetRTO_` resets `t_backoff_`.
            self.trace_checkpoint(out);
            self.report_rtt_sample(rtt, ack, out);
            if self.cfg.ts_reset_rto && self.ecn.may_end_backoff() {
                self.rto.reset_backoff();
                self.ecn.backoff = false;
            }
        }
        if self.rtt_active && ack >= self.rtt_seq {
            self.rtt_active = false;
            // ns-2 `newack`: an ECN-Echo ACK does not end a backoff ECN started.
            if self.ecn.may_end_backoff() {
                self.rto.reset_backoff();
                self.ecn.backoff = false;
            }
            if !self.cfg.timestamps {
                let rtt = now - self.rtt_ts;
                self.rto.sample(self.rtt_ts, rtt);
                self.trace_rtt_floor(out);
                self.report_rtt_sample(rtt, self.rtt_seq, out);
            }
        }
        if !timer_first {
            self.newtimer(now, ack);
        }
        self.trace_checkpoint(out);
    }

    /// The RTT sample just taken, reported with `seq`, and the RTO it gave.
    fn report_rtt_sample(&self, rtt: SimTime, seq: Seq, out: &mut TcpOutput) {
        out.event(TcpEvent::RttSample {
            seq,
            rtt_s: secs(rtt),
        });
        self.emit_rto(out);
    }

    /// ns-2 `newtimer`: restart the timer if packets beyond `ack` were sent or the application
    /// still has data to send; cancel it only once the transfer is complete. (ns-2 restarts
    /// it after every new ACK, which is how its "no outstanding data" timeout, tcp-spec §2,
    /// restarts slow start after an idle RTO and how a window stalled at 0 recovers.)
    /// With ECN, a window an ECN-Echo left below one packet keeps the timer too (ns-2's
    /// `cwnd_ < 1` test): only the timer sends again.
    pub fn newtimer(&mut self, now: SimTime, ack: Seq) {
        if self.cfg.idle_rtx_timer {
            // ns-2.35 `TcpAgent::newtimer` as it is: the next packet to send is beyond the
            // ACK (always so once everything sent is acknowledged), packets beyond it were
            // sent, or the window is below one packet.
            if self.t_seqno > ack || ack < self.maxseq || self.cwnd() < 1.0 {
                self.set_rtx_timer(now);
            } else {
                self.rtx_deadline = None;
            }
            return;
        }
        if self.t_seqno > ack + 1
            || ack < self.maxseq
            || self.t_seqno < self.curseq
            || (self.cfg.ecn && self.cwnd() < 1.0)
        {
            self.set_rtx_timer(now);
        } else {
            self.rtx_deadline = None;
        }
    }

    /// A partial ACK that covers the timed packet ends timing without a sample and resets the
    /// backoff (tcp-spec §3.2 last bullet; NewReno `partialnewack`).
    pub fn end_timing_if_covered(&mut self, ack: Seq) {
        if self.rtt_active && ack >= self.rtt_seq {
            self.rtt_active = false;
            self.rto.reset_backoff();
        }
    }

    pub fn set_rtx_timer(&mut self, now: SimTime) {
        self.rtx_deadline = Some(now + self.rto.timeout());
    }

    pub fn cancel_rtx_timer(&mut self) {
        self.rtx_deadline = None;
    }

    /// ns-2 `reset_rtx_timer(mild, backoff)`: optionally back off, restart the timer, stop RTT
    /// timing, and unless `mild` go back N (`t_seqno = highest_ack + 1`).
    pub fn reset_rtx_timer(
        &mut self,
        now: SimTime,
        mild: bool,
        backoff: bool,
        out: &mut TcpOutput,
    ) {
        if backoff {
            self.rto.backoff();
            self.emit_rto(out);
        }
        self.set_rtx_timer(now);
        if !mild {
            self.t_seqno = self.highest_ack + 1;
        }
        self.rtt_active = false;
    }

    pub fn emit_rto(&self, out: &mut TcpOutput) {
        out.event(TcpEvent::Rto {
            srtt_s: self.rto.srtt_s(),
            rttvar_s: self.rto.rttvar_s(),
            rto_s: secs(self.rto.timeout()),
        });
    }

    /// ns-2 `slowdown(how)` (tcp-spec §2) as a decision: with `precision_reduce` the window
    /// is halved as a real number (cwnd may become 7.5), else as `floor(floor(W)/2)`;
    /// ssthresh is `floor(W/2)`, at least `min_ssthresh` (ns-2: 2); "cwnd to one" and
    /// "restart" set cwnd to `min_cwnd` (ns-2: 1, `wnd_restart_`).
    pub fn slowdown(&self, how: Slowdown) -> WindowDecision {
        self.congestion.slowdown(how, &self.cfg)
    }

    /// The ssthresh ns-2 `slowdown(how)` assigns before raising it to 2, or None if `how`
    /// keeps ssthresh ([`CongestionState::slowdown_ssthresh`]).
    pub fn slowdown_ssthresh(&self, how: Slowdown) -> Option<f64> {
        self.congestion.slowdown_ssthresh(how, &self.cfg)
    }

    /// A `slowdown` was applied: ns-2 `first_decrease_ = 0`.
    pub fn note_decrease(&mut self) {
        self.congestion.note_decrease();
    }

    /// ns-2 `slowdown()` closed the window (every `CLOSE_CWND_*` sets `cong_action_`): the
    /// next packet sent carries the congestion-action flag.
    pub fn note_window_cut(&mut self) {
        self.cong_action = true;
    }

    /// ns-2 `opencwnd()` cap: if `maxcwnd_` is set and `int(cwnd) > maxcwnd_`, clamp.
    pub fn capped(&self, cwnd: f64) -> f64 {
        let max = self.cfg.max_cwnd;
        if max > 0.0 && crate::sim::time::floor_f64(cwnd) > max {
            max
        } else {
            cwnd
        }
    }

    /// Apply a window policy's decision (the one place cwnd and ssthresh change, see
    /// [`WindowDecision`]): open the loss reaction it asks for, set the window, restart the
    /// timer with backoff if asked, retransmit, and hold `dupacks` at the threshold if asked
    /// (ns-2 Vegas order, tcp-spec §9.2 "On a duplicate ACK").
    pub fn apply_window(&mut self, d: &WindowDecision, now: SimTime, out: &mut TcpOutput) {
        if d.retransmit.is_some_and(|r| r.opens_reaction) {
            self.open_loss_reaction(CwndAction::DupAck);
        }
        self.trace_checkpoint(out);
        if let Some(t) = self.tracer.as_mut() {
            for (var, value) in self.transients.drain(..) {
                t.transient(var, value, out.segments.len(), &mut out.var_changes);
            }
        }
        self.congestion.apply(d);
        self.trace_checkpoint(out);
        if let Some(r) = d.retransmit {
            if r.backs_off_timer {
                self.reset_rtx_timer(now, true, true, out);
            }
            if r.hold_dupacks == DupacksHold::BeforeResend {
                self.congestion.set_dup_acks(self.cfg.dupack_threshold);
            }
            self.fast_retransmit(r.seq, now, out);
            if r.hold_dupacks == DupacksHold::AfterResend {
                self.congestion.set_dup_acks(self.cfg.dupack_threshold);
            }
        }
    }

    /// Record a fast (or Vegas fine-grained) retransmission of `seq` and send it.
    pub fn fast_retransmit(&mut self, seq: Seq, now: SimTime, out: &mut TcpOutput) {
        self.count_fast_retransmit(seq, out);
        self.output(seq, now, out);
    }

    /// Count a fast retransmission of `seq` whose packet the send loop will resend (Tahoe's
    /// go-back-N, tcp-spec §4).
    pub fn count_fast_retransmit(&mut self, seq: Seq, out: &mut TcpOutput) {
        self.stats.fast_retransmits += 1;
        out.event(TcpEvent::FastRetransmit { seq });
    }

    /// An ns-2 event-trace line at this moment (ns-2 `TcpAgent::trace_event`, which prints
    /// `t_seqno_` and `int(cwnd_)` as they are when it is called).
    pub fn trace_ns2_event(&self, kind: Ns2EventKind, out: &mut TcpOutput) {
        out.ns2_event(kind, self.t_seqno, self.cwnd());
    }

    // Named protocol steps on the recovery state (tcp-spec §2, §4-§7 vocabulary).

    /// A loss reaction starts (fast retransmit or timeout): ns-2 `recover_ = maxseq_` and
    /// `last_cwnd_action_`, which the one-reaction-per-window rule (bugFix_) reads.
    pub fn open_loss_reaction(&mut self, action: CwndAction) {
        self.congestion.open_loss_reaction(action, self.maxseq);
    }

    /// `last_cwnd_action_` alone: a duplicate-ACK reaction in the window an ECN-Echo
    /// already halved (ns-2 `dupack_action`).
    pub fn note_cwnd_action(&mut self, action: CwndAction) {
        self.congestion.note_cwnd_action(action);
    }

    /// A loss reaction that sets `recover_` to `recover` rather than `maxseq_` (ns-2 FACK's
    /// fast retransmit: `recover_ = t_seqno_`, `tcp-fack.cc` `recv`).
    pub fn open_loss_reaction_at(&mut self, action: CwndAction, recover: Seq) {
        self.congestion.open_loss_reaction(action, recover);
    }

    /// `recover_ = maxseq_` without a cwnd action (Reno/NewReno/Sack1 timeout bookkeeping).
    pub fn move_recover_to_maxseq(&mut self) {
        self.congestion.move_recover_to(self.maxseq);
    }

    /// ns-2 Sack1 leaves recovery with `recover_ = 0` (tcp-spec §7.3).
    pub fn clear_recover(&mut self) {
        self.congestion.clear_recover();
    }

    /// Fast recovery is over (ns-2 `last_cwnd_action_ = CWND_ACTION_EXITED`, exitFastRetrans_).
    pub fn exit_fast_recovery(&mut self) {
        self.congestion.exit_fast_recovery();
    }

    /// One more duplicate ACK; returns the count.
    pub fn count_dup_ack(&mut self) -> u32 {
        self.congestion.count_dup_ack()
    }

    /// A timeout forgets the duplicates seen (tcp-spec §5 "Timeout", §7.3).
    pub fn forget_dup_acks(&mut self) {
        self.congestion.forget_dup_acks();
    }

    /// Set the fast-recovery inflation `dupwnd_` (Reno/NewReno: the threshold on entry, 0 on
    /// exit, NewReno's partial-ACK deflation arithmetic).
    pub fn set_inflation(&mut self, dupwnd: i64) {
        self.congestion.set_inflation(dupwnd);
    }

    /// Fast recovery: one more packet has left the network (tcp-spec §5 `dupwnd_++`).
    pub fn inflate_one(&mut self) {
        self.congestion.inflate_one();
    }

    /// NewReno partial ACK (tcp-spec §6): the cumulative ACK advances without `newack`
    /// (`dupacks_` kept, no RTT sample, timer handled by the caller).
    pub fn advance_partial_ack(&mut self, ack: Seq) {
        self.last_ack = ack;
        self.highest_ack = ack;
        self.t_seqno = self.t_seqno.max(ack + 1);
    }

    /// Sack1 partial ACK (tcp-spec §7.3, `partial_ack_` false): only `highest_ack_` advances.
    pub fn advance_highest_ack(&mut self, ack: Seq) {
        self.highest_ack = ack;
    }

    /// Sack1 timeout: `last_ack_` catches up with `highest_ack_` (tcp-spec §7.3).
    pub fn catch_up_last_ack(&mut self) {
        self.last_ack = self.last_ack.max(self.highest_ack);
    }

    /// `t_seqno_ = seq`, back or forward (ns-2 FACK's and Rate-Halving's timeouts send again
    /// from the packet after their forward ACK).
    pub fn rewind_t_seqno(&mut self, seq: Seq) {
        self.t_seqno = seq;
    }

    /// ns-2 FACK's `oldack` RTT step (`tcp-fack.cc`): the timed packet, if this ACK covers it,
    /// only ends timing and the backoff; then the echoed timestamp of every ACK is a sample
    /// (`rtt_update(now - ts_echo)`, with the tick clock's phase unless the timestamp option
    /// rounds it), and `ts_resetRTO_` ends the backoff.
    pub fn sample_echoed_timestamp(&mut self, now: SimTime, ack: Seq, out: &mut TcpOutput) {
        self.end_timing_if_covered(ack);
        let rtt = now.saturating_sub(self.ack_ts_echo);
        if self.cfg.timestamps {
            self.rto.sample_timestamp(rtt);
        } else {
            self.rto.sample(self.ack_ts_echo, rtt);
        }
        self.trace_rtt_floor(out);
        self.trace_checkpoint(out);
        self.report_rtt_sample(rtt, ack, out);
        if self.cfg.ts_reset_rto {
            self.rto.reset_backoff();
        }
    }

    /// `t_backoff_ = 1` (Sack1 partial ACK, tcp-spec §3.2 last bullet).
    pub fn reset_rto_backoff(&mut self) {
        self.rto.reset_backoff();
    }

    /// `t_seqno` raised to `seq` if below (ns-2 Sack1 `partial_ack_action`).
    pub fn raise_t_seqno(&mut self, seq: Seq) {
        if self.t_seqno < seq {
            self.t_seqno = seq;
        }
    }

    /// The next new packet for a send loop of its own (Sack1's pipe loop): returns `t_seqno`
    /// and advances it.
    pub fn take_next_seq(&mut self) -> Seq {
        self.t_seqno += 1;
        self.t_seqno - 1
    }

    /// The SYN itself timed out: `windowInit_` drops to 1 with `bugfix_ss_` (ns-2
    /// `TcpAgent::timeout`, tcp-spec §2).
    pub fn syn_timed_out(&mut self) {
        self.congestion.syn_timed_out(self.cfg.bugfix_ss);
    }

    pub fn count_ack_received(&mut self) {
        self.stats.acks_received += 1;
    }

    pub fn count_timeout(&mut self) {
        self.stats.timeouts += 1;
    }

    // The application side (ns-2 `curseq_`).

    /// Total packets the application offers (`None` = unlimited); the SYN comes on top.
    pub fn set_app_limit(&mut self, limit: Option<u64>) {
        self.curseq = match limit {
            None => Seq::MAX,
            Some(n) => n as Seq + Seq::from(self.packet0_is_syn),
        };
    }

    /// ns-2 `advanceby`: `packets` more; false when the source is unlimited (no change).
    pub fn offer_app_packets(&mut self, packets: u64) -> bool {
        if self.curseq == Seq::MAX {
            return false;
        }
        self.curseq = self.curseq.saturating_add(packets as Seq);
        true
    }

    /// `curseq` as ns-2 holds `curseq_`: ns-2 adds the emulated SYN to `curseq_` only when it
    /// sends it (`TcpAgent::output`, seqno 0 with `syn_`), while `curseq` counts it from the
    /// start; before the SYN goes, an offer of `n` > 0 packets is `n + 1` here.
    fn ns2_curseq(&self) -> Seq {
        if self.curseq == Seq::MAX {
            return Seq::MAX;
        }
        let syn_pending = self.packet0_is_syn && self.maxseq < 0 && self.curseq > 0;
        self.curseq - Seq::from(syn_pending)
    }

    fn set_ns2_curseq(&mut self, seq: Seq) {
        let syn_pending = self.packet0_is_syn && self.maxseq < 0 && seq > 0;
        self.curseq = if seq == Seq::MAX {
            Seq::MAX
        } else {
            seq + Seq::from(syn_pending)
        };
    }

    /// ns-2 `$tcp advance N` (FTP `produce N`, `TcpAgent::command`): `curseq_` becomes N
    /// when N is above the highest packet sent (`maxseq_`), else `maxseq_`; any growth lets
    /// the application send again after a stop (`advanceby`: `closed_ = 0`).
    pub fn app_advance(&mut self, n: u64) {
        let target = (n as Seq).max(self.maxseq);
        let before = self.ns2_curseq();
        self.set_ns2_curseq(target);
        if target > before {
            self.app_stopped = false;
        }
    }

    /// ns-2 `$tcp advanceby N` (FTP `producemore N`): `curseq_` grows by N (an unlimited
    /// source stays unlimited); N > 0 lets the application send again after a stop.
    pub fn app_advance_by(&mut self, n: u64) {
        let before = self.ns2_curseq();
        if before != Seq::MAX {
            self.set_ns2_curseq(before.saturating_add(n as Seq).min(Seq::MAX - 1));
        }
        if n > 0 {
            self.app_stopped = false;
        }
    }

    /// No new data after what was already sent (ns-2 FTP `stop`). What the application
    /// offered stays offered for the retransmission timer, as in ns-2, whose timer keeps
    /// running after a stop with everything acknowledged and then restarts the window from
    /// its initial size each RTO (`timeout` with no outstanding data, `restart_bugfix_`):
    /// measured, an FTP stopped at 1.5 s has cwnd 13.4 at 1.6 s and 1 at 1.9 s, and its first
    /// packet after a start at 2.7 s carries the congestion-action flag.
    pub fn stop_new_data(&mut self) {
        self.app_stopped = true;
    }

    /// The application offers data again after a stop (ns-2 FTP `start`, `send -1`): the
    /// limit `limit` packets as [`Self::set_app_limit`].
    pub fn resume_new_data(&mut self, limit: Option<u64>) {
        self.app_stopped = false;
        self.set_app_limit(limit);
    }

    /// The first packet `send_much` may not send: `curseq`, or after a stop the highest
    /// packet sent. ns-2's FTP `stop` is `advance 0`, which sets `curseq_ = maxseq_`
    /// (`TcpAgent::command`): what was sent below `maxseq_` may go again after a timeout,
    /// `maxseq_` itself never (only a fast retransmit, which does not ask `send_much`).
    pub fn send_limit(&self) -> Seq {
        if self.app_stopped {
            self.curseq.min(self.maxseq)
        } else {
            self.curseq
        }
    }

    // Rate control for a window below one packet (`window::pacing`).

    /// A paced packet may go: the application has `t_seqno` and the receiver window allows it.
    pub fn paced_send_allowed(&self) -> bool {
        self.t_seqno < self.send_limit()
            && self.t_seqno <= self.highest_ack + self.cfg.window as Seq
    }

    /// Send one packet, `t_seqno`, regardless of cwnd (the pacer decided it is due).
    pub fn send_paced(&mut self, now: SimTime, out: &mut TcpOutput) {
        if self.paced_send_allowed() {
            self.output(self.t_seqno, now, out);
            self.t_seqno += 1;
        }
    }

    /// Test fixture: place the connection at "everything up to `highest_ack` sent and
    /// acknowledged, first transmission at time 0", with the given window.
    #[cfg(test)]
    pub fn warp(&mut self, highest_ack: Seq, cwnd: f64, ssthresh: f64) {
        self.warp_outstanding(highest_ack, highest_ack + 1, cwnd, ssthresh);
    }

    /// Test fixture: as [`Conn::warp`], with packets `highest_ack + 1 .. t_seqno` counted as
    /// sent (no send records).
    #[cfg(test)]
    pub fn warp_outstanding(&mut self, highest_ack: Seq, t_seqno: Seq, cwnd: f64, ssthresh: f64) {
        self.last_ack = highest_ack;
        self.highest_ack = highest_ack;
        self.maxseq = t_seqno - 1;
        self.t_seqno = t_seqno;
        self.rtt_seq = highest_ack;
        self.records.clear();
        self.records_base = highest_ack + 1;
        self.first_sent = Some(SimTime::ZERO);
        self.congestion.apply(&WindowDecision {
            cwnd,
            ssthresh,
            retransmit: None,
        });
    }
}

// ns-2's quiescence option (`QOption_`, `super::quiescence`): the steps tcp.cc runs after a
// send and after an ACK.
impl Conn {
    /// ns-2's `tcp_now`: the clock in whole ticks, rounded to the nearest.
    fn tcp_now(&self, now: SimTime) -> i64 {
        (now.as_secs_f64() / self.cfg.rto.tick.as_secs_f64() + 0.5) as i64
    }

    /// One `slowdown(cut | TCP_IDLE)`, applied at once (the option reads the window again
    /// right after).
    fn quiescence_cut(&mut self, cut: IdleCut, now: SimTime, out: &mut TcpOutput) {
        let slow_start = self.cwnd() < self.ssthresh();
        let d = idle_cut(
            cut,
            WindowDecision::hold(&self.congestion),
            self.window(),
            self.windowd(),
            self.cfg.precision_reduce,
            self.cfg.min_ssthresh,
        );
        self.cwnd_cuts += 1;
        self.apply_window(&d, now, out);
        self.note_decrease();
        if self.cwnd() == 1.0 || slow_start {
            self.trace_ns2_event(Ns2EventKind::SlowStart, out);
        }
    }

    /// ns-2 `process_qoption_after_send`, right after `output(t_seqno)` and before
    /// `t_seqno` moves on. Inlined with its test: it follows every segment sent, and a sender
    /// without `QOption_` (most) has nothing to do (callgrind: a call per segment otherwise).
    #[inline]
    pub(crate) fn quiescence_after_send(&mut self, now: SimTime, out: &mut TcpOutput) {
        if let Some(q) = self.quiescence {
            self.quiescence_step(q, now, out);
        }
    }

    /// [`Self::quiescence_after_send`] with `QOption_` on: `q` is the sender's quiescence
    /// state, written back at the end.
    fn quiescence_step(&mut self, mut q: Quiescence, now: SimTime, out: &mut TcpOutput) {
        let tcp_now = self.tcp_now(now);
        if self.cfg.rtt_counter {
            self.rtt_counting(&mut q, tcp_now, now, out);
        } else {
            // A zero RTO would divide by zero in ns-2; its RTO is never below a tick.
            let rto = self.rto.rtxcur_ticks_ns2().max(1);
            if tcp_now - q.t_last >= rto {
                // Idle: once for ssthresh, then once per RTO idle.
                self.quiescence_cut(IdleCut::ThreeQuarterSsthresh, now, out);
                for _ in 0..(tcp_now - q.t_last) / rto {
                    self.quiescence_cut(IdleCut::HalfWithMin, now, out);
                }
                q.t_prev = tcp_now;
                q.w_used = 0;
            }
            q.t_last = tcp_now;
            if self.t_seqno == self.highest_ack + self.window() {
                q.t_prev = tcp_now;
                q.w_used = 0;
            } else if self.t_seqno == self.ns2_curseq() - 1 {
                // Nothing more to send: application-limited for an RTO?
                q.w_used = q.w_used.max(self.t_seqno - self.highest_ack);
                if tcp_now - q.t_prev >= rto {
                    self.quiescence_cut(IdleCut::ThreeQuarterSsthresh, now, out);
                    self.quiescence_cut(IdleCut::HalfWay(q.w_used), now, out);
                    q.t_prev = tcp_now;
                    q.w_used = 0;
                }
            }
        }
        self.quiescence = Some(q);
    }

    /// ns-2 `rtt_counting` (`EnblRTTCtr_`).
    fn rtt_counting(
        &mut self,
        q: &mut Quiescence,
        tcp_now: i64,
        now: SimTime,
        out: &mut TcpOutput,
    ) {
        let rtt = self.rto.srtt_ticks().max(1);
        if tcp_now - q.t_last >= 2 * rtt {
            // Idle: one cut per estimated round, less the application-limited ones.
            let rtts = (tcp_now - q.t_last) * q.rtt_goodcount / (rtt * 2) - q.backoffs;
            q.backoffs = 0;
            if rtts > 0 {
                self.quiescence_cut(IdleCut::ThreeQuarterSsthresh, now, out);
                for _ in 0..rtts {
                    self.quiescence_cut(IdleCut::HalfWithMin, now, out);
                    q.rtt_prev = q.rtt_count;
                    q.w_used = 0;
                }
            }
        }
        q.t_last = tcp_now;
        if tcp_now - q.t_start >= 2 * rtt {
            if q.rtt_count > q.rtt_goodcount || q.full {
                q.rtt_goodcount = q.rtt_count.max(1);
            }
            q.rtt_prev -= q.rtt_count;
            q.rtt_count = 0;
            q.t_start = tcp_now;
            q.full = false;
        }
        if self.t_seqno == self.highest_ack + self.window() {
            q.w_used = 0;
            q.full = true;
            q.rtt_prev = q.rtt_count;
        } else if self.t_seqno == self.ns2_curseq() - 1 {
            q.w_used = q.w_used.max(self.t_seqno - self.highest_ack);
            if q.rtt_count - q.rtt_prev >= 2 {
                self.quiescence_cut(IdleCut::ThreeQuarterSsthresh, now, out);
                self.quiescence_cut(IdleCut::HalfWay(q.w_used), now, out);
                q.rtt_prev = q.rtt_count;
                q.backoffs += 1;
                q.w_used = 0;
            }
        }
        if !q.counting {
            q.w_timed = self.t_seqno;
            q.counting = true;
        }
    }

    /// ns-2 `process_qoption_after_ack` (`QOption_` with `EnblRTTCtr_`), after an ACK's
    /// new-ACK or duplicate-ACK processing: the timed packet's ACK ends a round, and so does
    /// the duplicate ACK that reaches the threshold.
    pub(crate) fn quiescence_after_ack(&mut self, seqno: Seq) {
        if !self.cfg.rtt_counter {
            return;
        }
        let dupacks = self.dupacks();
        let thresh = self.cfg.dupack_threshold;
        if let Some(q) = self.quiescence.as_mut() {
            if q.counting {
                if seqno >= q.w_timed {
                    q.rtt_count += 1;
                    q.counting = false;
                } else if dupacks == thresh {
                    q.rtt_count += 1;
                }
            }
        }
    }

    /// ns-2 `recv_newack_helper` with `QOption_`: everything offered is acknowledged, the
    /// retransmission timer stops (no slow-start restart after the idle period).
    pub(crate) fn quiescence_after_new_ack(&mut self) {
        if self.quiescence.is_some() && self.ns2_curseq() == self.highest_ack + 1 {
            self.cancel_rtx_timer();
        }
    }

    /// ns-2 `network_limited()` for `control_increase_`: the sender is past the window
    /// (`t_seqno > prev_highest_ack + window()`).
    pub(crate) fn network_limited(&self) -> bool {
        self.t_seqno > self.prev_highest_ack + self.window()
    }
}
