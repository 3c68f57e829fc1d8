//! ns-2's TCP quiescence option (`QOption_`, ns-2.35 tcp.cc `process_qoption_after_send`,
//! `rtt_counting`, `process_qoption_after_ack`), for ns-2's `Agent/TCP` (Tahoe).
//!
//! After every packet sent the sender looks at the time since its previous send, in whole
//! clock ticks (`tcp_now` = clock / `tcpTick_` rounded to the nearest tick):
//! - idle for at least an RTO (`t_rtxcur_` in whole ticks): ssthresh rises to at least 3/4
//!   of cwnd, then cwnd is halved (integer halving of `window()`, at least 1) once per RTO
//!   of idleness;
//! - then, if this packet is the last the application offered (`t_seqno == curseq − 1`)
//!   and the window has not been full (`t_seqno == highest_ack + window()`) for an RTO
//!   (application-limited), ssthresh again to at least 3/4 cwnd and cwnd halfway down to the
//!   largest window used since (`W_used + (window − W_used)/2`, at least 1).
//!
//! With the RTT counter (`EnblRTTCtr_`) the spells are counted in RTTs instead: the sender
//! times one packet per round (`W_timed`), counts the rounds whose ACK came back
//! (`RTT_count`, also on the duplicate ACK that reaches the threshold), and estimates how
//! many rounds fit in two smoothed RTTs of ticks (`RTT_goodcount`); an idle spell of at least
//! two srtt ticks cuts cwnd once per estimated round (less the application-limited cuts
//! already made, `Backoffs`), an application-limited spell of two counted rounds halfway.
//!
//! Each cut is an ns-2 `slowdown(... | TCP_IDLE)`: it counts in `ncwndcuts_`, raises
//! ssthresh to 2, writes SLOW_START when cwnd ends at 1 or was below ssthresh, and does not
//! flag the next packet's congestion action. With the option on, the retransmission timer is
//! cancelled when every offered packet is acknowledged (`recv_newack_helper`), so no
//! slow-start restart follows an idle period.

use super::Conn;
use crate::sim::SimTime;
use crate::tcp::congestion::WindowDecision;
use crate::tcp::output::{Ns2EventKind, TcpOutput};
use crate::tcp::segment::Seq;

/// The option's state (ns-2 names in the comments), in clock ticks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Quiescence {
    /// `T_last`: the tick of the last send.
    t_last: i64,
    /// `T_prev`: the tick the window was last full (or last cut for being unused).
    t_prev: i64,
    /// `W_used`: the largest window used since then, in packets.
    w_used: Seq,
    /// RTT counter (`EnblRTTCtr_`): `T_start`, the tick the current count began.
    t_start: i64,
    /// `RTT_count`: rounds counted since `T_start`.
    rtt_count: i64,
    /// `RTT_prev`: the count when the window was last full or cut.
    rtt_prev: i64,
    /// `RTT_goodcount`: rounds per two srtt ticks (at least 1).
    rtt_goodcount: i64,
    /// `F_counting`: a packet is being timed for the count.
    counting: bool,
    /// `W_timed`: the packet timed.
    w_timed: Seq,
    /// `F_full`: the window was full during the count.
    full: bool,
    /// `Backoffs`: application-limited cuts since the last idle spell.
    backoffs: i64,
}

impl Quiescence {
    /// ns-2 `reset()` with `QOption_` (and `reset_qoption()` for the RTT counter) at tick
    /// `now`.
    pub fn new(now: i64) -> Self {
        Quiescence {
            t_last: now,
            t_prev: now,
            w_used: 0,
            t_start: now,
            rtt_count: 0,
            rtt_prev: 0,
            rtt_goodcount: 1,
            counting: false,
            w_timed: -1,
            full: false,
            backoffs: 0,
        }
    }
}

/// One of the option's `slowdown` calls.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum IdleCut {
    /// `THREE_QUARTER_SSTHRESH`: ssthresh = int(3 cwnd / 4) if it is less.
    ThreeQuarterSsthresh,
    /// `CWND_HALF_WITH_MIN`: cwnd = int(window() / 2) (`windowd() / 2` with
    /// `precisionReduce_`), at least 1.
    HalfWithMin,
    /// `CLOSE_CWND_HALF_WAY`: cwnd = W_used + (window() − W_used) / 2, at least 1.
    HalfWay(Seq),
}

/// The window after `cut` (ns-2 `slowdown` with `decrease_num_` 0.5): `window` and `windowd`
/// are ns-2's `window()` and `windowd()` before it, `min_ssthresh` its floor of 2.
pub fn idle_cut(
    cut: IdleCut,
    d: WindowDecision,
    window: Seq,
    windowd: f64,
    precision_reduce: bool,
    min_ssthresh: f64,
) -> WindowDecision {
    let mut d = d;
    let win = if precision_reduce {
        windowd
    } else {
        window as f64
    };
    match cut {
        IdleCut::ThreeQuarterSsthresh => {
            let q = 3.0 * d.cwnd / 4.0;
            if d.ssthresh < q {
                d.ssthresh = q.trunc();
            }
        }
        IdleCut::HalfWithMin => {
            let half = if precision_reduce {
                windowd / 2.0
            } else {
                (window / 2) as f64
            };
            d.cwnd = half.max(1.0);
        }
        IdleCut::HalfWay(w_used) => {
            let used = w_used as f64;
            d.cwnd = (used + 0.5 * (win - used)).max(1.0);
        }
    }
    if d.ssthresh < min_ssthresh {
        d.ssthresh = min_ssthresh;
    }
    d
}

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
        if self.cwnd() == 1.0 || slow_start {
            self.trace_ns2_event(Ns2EventKind::SlowStart, out);
        }
    }

    /// ns-2 `process_qoption_after_send`, right after `output(t_seqno)` and before
    /// `t_seqno` moves on.
    pub(crate) fn quiescence_after_send(&mut self, now: SimTime, out: &mut TcpOutput) {
        let Some(mut q) = self.quiescence else {
            return;
        };
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
