//! Shared connection state and machinery of the one-way ns-2 sender (tcp-spec §2).
//!
//! Owns: the packet-counted sequence space (`t_seqno`, `maxseq`, `last_ack`, `highest_ack`),
//! `cwnd`/`ssthresh`/`dupwnd`, `dupacks`, `recover`, `last_cwnd_action`, the one timed packet
//! (Karn), the retransmission-timer deadline, the RTO estimator, the per-packet send records
//! of outstanding packets, and the primitive actions every variant is built from: `output`,
//! `send_much`, `send_one` (Limited Transmit), `newack`, `slowdown`, `reset_rtx_timer` and the
//! base timeout.
//!
//! Invariants: `highest_ack <= maxseq`, `t_seqno <= maxseq + 1`, `last_ack <= highest_ack`
//! (equal except inside Sack1 recovery); the timer is armed while data is outstanding or the
//! application has more to send; `records` holds packets `records_base..=maxseq`.
//!
//! Does not decide: when to fast-retransmit or how to leave recovery (`recovery`), or how the
//! window grows and shrinks (`window`).

use std::collections::VecDeque;

use super::config::TcpConfig;
use super::output::{TcpEvent, TcpOutput};
use super::rto::RtoEstimator;
use super::segment::{DataSegment, Seq};
use super::sender::SenderStats;
use crate::sim::SimTime;

/// Seconds for trace events, correctly rounded (0.3 s reads 0.3, not 0.30000000000000004).
fn secs(t: SimTime) -> f64 {
    t.as_nanos() as f64 / 1e9
}

/// ns-2 `last_cwnd_action_`: what last changed the window (ECN is not modelled).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CwndAction {
    None,
    DupAck,
    Timeout,
    Exited,
}

/// What ns-2 `slowdown(how)` does to ssthresh and cwnd (tcp-spec §2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slowdown {
    /// `CLOSE_SSTHRESH_HALF | CLOSE_CWND_HALF` (Reno, NewReno, Sack1 fast retransmit).
    HalveBoth,
    /// `CLOSE_SSTHRESH_HALF | CLOSE_CWND_ONE` (Tahoe fast retransmit).
    HalveSsthreshCwndOne,
    /// `CLOSE_SSTHRESH_HALF | CLOSE_CWND_RESTART` (timeout; `wnd_restart_` = 1).
    HalveSsthreshRestart,
}

/// When and how many times one outstanding packet was sent (ns-2 Vegas `v_sendtime_`,
/// `v_transmits_`; kept for every variant).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SendRecord {
    /// Time of the latest transmission.
    pub sent_at: SimTime,
    pub transmits: u32,
}

#[derive(Clone, Debug)]
pub struct Conn {
    pub cfg: TcpConfig,
    /// Congestion window in packets (ns-2 `cwnd_`, a double).
    pub cwnd: f64,
    /// ns-2 `ssthresh_` (an int in ns-2; always integer-valued here too).
    pub ssthresh: f64,
    /// Reno/NewReno window inflation during fast recovery (ns-2 `dupwnd_`).
    pub dupwnd: i64,
    /// ns-2 `wnd_init_`: cwnd after the SYN is acknowledged; drops to 1 if the SYN timed out.
    pub window_init: f64,
    /// Next new packet to send (rewound to `highest_ack + 1` by go-back-N).
    pub t_seqno: Seq,
    /// Highest packet sent.
    pub maxseq: Seq,
    pub last_ack: Seq,
    pub highest_ack: Seq,
    pub dupacks: u32,
    /// ns-2 `recover_`: `maxseq` at the last loss reaction (0 initially).
    pub recover: Seq,
    pub last_cwnd_action: CwndAction,
    /// ns-2 `curseq_`: packets below this exist (the SYN included); `Seq::MAX` = unlimited.
    pub curseq: Seq,
    /// Packet 0 is a 40-byte SYN (cfg.syn, except ns-2 Vegas which never emulates it).
    pub packet0_is_syn: bool,
    /// Time of the very first transmission (ns-2 `firstsent_`).
    pub first_sent: Option<SimTime>,
    rtt_active: bool,
    rtt_seq: Seq,
    rtt_ts: SimTime,
    pub rto: RtoEstimator,
    rtx_deadline: Option<SimTime>,
    records: VecDeque<SendRecord>,
    records_base: Seq,
    pub stats: SenderStats,
}

impl Conn {
    pub fn new(cfg: TcpConfig, tick_phase: SimTime) -> Self {
        let packet0_is_syn = cfg.packet0_is_syn();
        Conn {
            cfg,
            // ns-2 `set_initial_window`: cwnd 1 until the SYN is acknowledged when `syn_`
            // (with `delay_growth_`, also for Vegas), else `windowInit_`.
            cwnd: if cfg.syn { 1.0 } else { cfg.window_init as f64 },
            // tcp-spec §0: initial ssthresh = window_.
            ssthresh: cfg.window as f64,
            dupwnd: 0,
            window_init: cfg.window_init as f64,
            t_seqno: 0,
            maxseq: -1,
            last_ack: -1,
            highest_ack: -1,
            dupacks: 0,
            recover: 0,
            last_cwnd_action: CwndAction::None,
            curseq: Seq::MAX,
            packet0_is_syn,
            first_sent: None,
            rtt_active: false,
            rtt_seq: -1,
            rtt_ts: SimTime::ZERO,
            rto: RtoEstimator::new(cfg.rto, tick_phase),
            rtx_deadline: None,
            records: VecDeque::new(),
            records_base: 0,
            stats: SenderStats::default(),
        }
    }

    /// Usable window in packets: ns-2 `window()`, `min(floor(cwnd) + dupwnd, window_)`.
    pub fn window(&self) -> Seq {
        (self.cwnd.floor() as Seq + self.dupwnd).min(self.cfg.window as Seq)
    }

    /// ns-2 `windowd()`: `min(cwnd + dupwnd, window_)` as a real number.
    pub fn windowd(&self) -> f64 {
        (self.cwnd + self.dupwnd as f64).min(self.cfg.window as f64)
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
        let retransmission = seq <= self.maxseq;
        let (wire_bytes, payload_bytes) = if seq == 0 && self.packet0_is_syn {
            (self.cfg.header_size, 0)
        } else {
            (self.cfg.data_wire_bytes(), self.cfg.packet_size)
        };
        out.segments.push(DataSegment {
            seq,
            wire_bytes,
            payload_bytes,
            retransmission,
            sent_at: now,
            flags: 0,
        });
        self.stats.segments_sent += 1;
        if retransmission {
            self.stats.retransmissions += 1;
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
    }

    fn note_send(&mut self, seq: Seq, now: SimTime) {
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
        let mut sent = 0;
        while self.t_seqno <= self.highest_ack + self.window() && self.t_seqno < self.curseq {
            self.output(self.t_seqno, now, out);
            self.t_seqno += 1;
            sent += 1;
            if maxburst != 0 && sent == maxburst {
                break;
            }
        }
    }

    /// Limited Transmit, ns-2 `send_one` (tcp-spec §2, RFC 3042): one new packet if the
    /// receiver window allows and `t_seqno <= highest_ack + cwnd + dupacks`.
    pub fn send_one(&mut self, now: SimTime, out: &mut TcpOutput) {
        let t = self.t_seqno;
        if t <= self.highest_ack + self.cfg.window as Seq
            && t < self.curseq
            && (t as f64) <= self.highest_ack as f64 + self.cwnd + self.dupacks as f64
        {
            self.output(t, now, out);
            self.t_seqno += 1;
        }
    }

    /// ns-2 `newack` (tcp-spec §2 "New ACK"): advance the cumulative ACK, take the RTT sample
    /// of the timed packet if this ACK covers it (resetting the backoff), then restart the
    /// timer if data is still outstanding, else cancel it.
    pub fn newack(&mut self, now: SimTime, ack: Seq, out: &mut TcpOutput) {
        self.dupacks = 0;
        self.last_ack = ack;
        self.highest_ack = ack;
        self.t_seqno = self.t_seqno.max(ack + 1);
        if self.rtt_active && ack >= self.rtt_seq {
            self.rtt_active = false;
            self.rto.reset_backoff();
            let rtt = now - self.rtt_ts;
            self.rto.sample(self.rtt_ts, rtt);
            out.event(TcpEvent::RttSample {
                seq: self.rtt_seq,
                rtt_s: secs(rtt),
            });
            self.emit_rto(out);
        }
        self.newtimer(now, ack);
    }

    /// ns-2 `newtimer`: restart the timer if packets beyond `ack` were sent or the application
    /// still has data to send; cancel it only once the transfer is complete. (ns-2 restarts
    /// it after every new ACK, which is how its "no outstanding data" timeout, tcp-spec §2,
    /// restarts slow start after an idle RTO and how a window stalled at 0 recovers.)
    pub fn newtimer(&mut self, now: SimTime, ack: Seq) {
        if self.t_seqno > ack + 1 || ack < self.maxseq || self.t_seqno < self.curseq {
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

    /// ns-2 `slowdown(how)` (tcp-spec §2). With `precision_reduce` the window is halved as a
    /// real number (cwnd may become 7.5), else as `floor(floor(W)/2)`; ssthresh is always
    /// `floor(W/2)`, at least 2.
    pub fn slowdown(&mut self, how: Slowdown) {
        let halfwin = if self.cfg.precision_reduce {
            self.windowd() / 2.0
        } else {
            (self.window() / 2) as f64
        };
        self.ssthresh = halfwin.floor();
        self.cwnd = match how {
            Slowdown::HalveBoth => halfwin,
            Slowdown::HalveSsthreshCwndOne | Slowdown::HalveSsthreshRestart => 1.0,
        };
        self.ssthresh = self.ssthresh.max(2.0);
    }

    /// ns-2 `opencwnd()` cap: if `maxcwnd_` is set and `int(cwnd) > maxcwnd_`, clamp.
    pub fn cap_cwnd(&mut self) {
        let max = self.cfg.max_cwnd;
        if max > 0.0 && self.cwnd.floor() > max {
            self.cwnd = max;
        }
    }

    /// Record a fast (or Vegas fine-grained) retransmission of `seq` and send it.
    pub fn fast_retransmit(&mut self, seq: Seq, now: SimTime, out: &mut TcpOutput) {
        self.stats.fast_retransmits += 1;
        out.event(TcpEvent::FastRetransmit { seq });
        self.output(seq, now, out);
    }

    /// Test fixture: place the connection at "everything up to `highest_ack` sent and
    /// acknowledged, first transmission at time 0", with the given window.
    #[cfg(test)]
    pub fn warp(&mut self, highest_ack: Seq, cwnd: f64, ssthresh: f64) {
        self.last_ack = highest_ack;
        self.highest_ack = highest_ack;
        self.maxseq = highest_ack;
        self.t_seqno = highest_ack + 1;
        self.rtt_seq = highest_ack;
        self.records.clear();
        self.records_base = highest_ack + 1;
        self.first_sent = Some(SimTime::ZERO);
        self.cwnd = cwnd;
        self.ssthresh = ssthresh;
    }
}
