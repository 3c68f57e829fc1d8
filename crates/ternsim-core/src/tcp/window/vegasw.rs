//! Vegas-W window policy (Ding, Wang, Xu, Zhang, Chen, "Vegas-W: an enhanced TCP-Vegas for
//! wireless ad hoc networks": the `ding-vegasw` seed, §III-C, eq. (1), eq. (2), Algorithm 1).
//!
//! Vegas-W is ns-2 Vegas with four changes (§III-C): a fractional window sent by a rate-control
//! timer, slower start (N_s), moderate congestion avoidance (N_CA) and the W_th (ssthresh)
//! update (NS_CA, TO_ss). It owns a [`Vegas`] for everything it does not change, so BaseRTT,
//! the once-per-RTT measurement of delta, the fine-grained retransmission checks, inflation and
//! deflation are ns-2 Vegas's code (tcp-spec §9.2), not a copy. What it owns itself: the
//! counters n_s, n_CA, ns_CA, to_ss and the timeouts at the minimum window, W_s, the growth
//! mode decided once per RTT, and whether the fractional window is on. The rate-control timer
//! is the window policy's pacer (`super::pacing`, `pace_below_one` on in the variant table).
//!
//! Where the paper's text leaves a choice, the choice is stated where it is made:
//! - **Thresholds** (D1): the comparisons of Algorithm 1 and ns-2 Vegas (`delta > gamma`
//!   leaves slow start; `delta < alpha` grows, `alpha <= delta <= beta` holds, `delta > beta`
//!   shrinks in congestion avoidance), not the `>=`/`<=` of eq. (1) and (2), which contradict
//!   Algorithm 1 at delta = gamma, alpha and beta.
//! - **Counting** (D2): n_s and n_CA count new ACKs, as "the number of received ACKs
//!   satisfying Δ < γ" says, for the delta of the latest per-RTT measurement ("calculated Δ
//!   per RTT"), on the ACKs where ns-2 Vegas would add its increment (window in use, §9.2 step
//!   6). Each counted ACK adds one; when the count exceeds its threshold the window grows and
//!   the count restarts at 0 (as Algorithm 1 lines 19-22 do for ns_CA). So the (N_s + 1)-th
//!   counted ACK adds one packet, the (N_CA + 1)-th adds 1/W. Counts are reset only by the
//!   increase they lead to (the paper names no other reset).
//! - **No every-other-RTT freeze** (D3): eq. (1) is the whole slow-start rule and replaces
//!   "the probing mechanisms of legacy TCP-Vegas"; delta is judged every RTT.
//! - **Decrease** (D4): congestion avoidance shrinks as ns-2 Vegas does, −1 once per RTT.
//!   Eq. (2) writes W − 1/W, but §II-A describes legacy Vegas in the same words, and §III-C 3
//!   says "Other operations is same to Vegas"; tcp-spec §9.2's seed cross-check notes that
//!   ns-2's code does −1 per RTT.
//! - **W_th on leaving slow start** (D5): Algorithm 1 line 5, "W_th ← current window minus 1",
//!   with the window before eq. (1)'s cut, stored as ns-2's integer ssthresh (`floor(W) − 1`),
//!   never below `min_ssthresh` (1). It replaces ns-2 Vegas's `ssthresh_ = 2`.
//! - **W_th on timeout** (D6): "W_th decrement when timeout occurs" replaces the halving: a
//!   timeout does not halve ssthresh; when more than TO_ss consecutive timeouts find the window
//!   below W_th, W_th drops by one (floor `min_ssthresh`). A timeout at or above W_th breaks
//!   the run.
//! - **Fractional window** (D7): "N_fw consecutive timeout events occurring with window equal
//!   to one": the N_fw-th consecutive timeout that finds cwnd at the minimum window (1, or
//!   already fractional) sets cwnd to the fractional window (0.5) instead of the minimum. The
//!   run is broken by a timeout above the minimum or by the window growing above it. While
//!   fractional, 0.5 is the window floor (timeouts and cuts stay there); the window leaves it
//!   through slower start (0.5 + 1 = 1.5). The rate-control timer sends one packet every
//!   srtt / W (the sender's smoothed RTT).

use super::hooks::{DupAckDecision, LossEvent, NewAck};
use super::vegas::Vegas;
use crate::sim::SimTime;
use crate::tcp::config::{TcpConfig, VegasWConfig};
use crate::tcp::congestion::WindowDecision;
use crate::tcp::conn::Conn;

/// How the window may grow on the ACKs of this RTT (decided once per RTT, like ns-2's
/// `v_incr_`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Growth {
    Hold,
    /// Slower start: count toward N_s (eq. 1).
    SlowStart,
    /// Moderate congestion avoidance: count toward N_CA (eq. 2).
    CongestionAvoidance,
}

#[derive(Clone, Debug)]
pub struct VegasW {
    vegas: Vegas,
    p: VegasWConfig,
    alpha: f64,
    beta: f64,
    gamma: f64,
    growth: Growth,
    /// n_s: counted ACKs in slow start (eq. 1).
    n_s: u32,
    /// n_CA: counted ACKs in congestion avoidance (eq. 2).
    n_ca: u32,
    /// ns_CA: stable RTTs on the window W_s (Algorithm 1).
    ns_ca: u32,
    /// W_s: the stable window (Algorithm 1; 0 before any).
    w_s: f64,
    /// to_ss: consecutive timeouts with the window below W_th.
    to_ss: u32,
    /// Consecutive timeouts at the minimum window (toward N_fw).
    timeouts_at_min: u32,
    /// The fractional window is on (entered after N_fw timeouts at the minimum window).
    fractional: bool,
}

impl VegasW {
    pub fn new(cfg: &TcpConfig) -> Self {
        VegasW {
            vegas: Vegas::new(cfg),
            p: cfg.vegasw,
            alpha: cfg.vegas.alpha,
            beta: cfg.vegas.beta,
            gamma: cfg.vegas.gamma,
            growth: Growth::Hold,
            n_s: 0,
            n_ca: 0,
            ns_ca: 0,
            w_s: 0.0,
            to_ss: 0,
            timeouts_at_min: 0,
            fractional: false,
        }
    }

    /// The ns-2 Vegas machinery underneath (BaseRTT, fine-grained timeout, ...).
    pub fn vegas(&self) -> &Vegas {
        &self.vegas
    }
    #[cfg(test)]
    pub fn vegas_mut(&mut self) -> &mut Vegas {
        &mut self.vegas
    }
    pub fn growth(&self) -> Growth {
        self.growth
    }
    pub fn n_s(&self) -> u32 {
        self.n_s
    }
    pub fn n_ca(&self) -> u32 {
        self.n_ca
    }
    pub fn ns_ca(&self) -> u32 {
        self.ns_ca
    }
    pub fn w_s(&self) -> f64 {
        self.w_s
    }
    pub fn to_ss(&self) -> u32 {
        self.to_ss
    }
    pub fn timeouts_at_min(&self) -> u32 {
        self.timeouts_at_min
    }
    pub fn fractional(&self) -> bool {
        self.fractional
    }

    /// Every arriving ACK: ns-2 Vegas's first-ACK initialisation of its estimator.
    pub fn vegas_on_ack_received(&mut self, c: &Conn, now: SimTime) {
        self.vegas.on_ack_received(c, now);
    }

    /// The smallest window: the fractional window while it is on (D7), else `min_cwnd`.
    fn floor(&self, c: &Conn) -> f64 {
        if self.fractional {
            self.p.fractional_window
        } else {
            c.cfg().min_cwnd
        }
    }

    /// A new ACK: ns-2 Vegas's steps 1-2, the per-RTT measurement, Vegas-W's per-RTT rules
    /// (eq. 1, eq. 2, Algorithm 1), its per-ACK growth, then Vegas's steps 7-8.
    pub fn on_new_ack(&mut self, c: &Conn, now: SimTime, a: &NewAck) -> WindowDecision {
        let t = Vegas::vt(c, now);
        let mut d = self.vegas.start_new_ack(c, a);
        // Algorithm 1 "Initialization: Receiving a new ACK with sequence number equal to or
        // larger than beg_seqno": once per RTT (line 26, the retagging, is in `measure`).
        if let Some(delta) = self.vegas.measure(c, a, t) {
            self.per_rtt(c, &mut d, delta);
        }
        // As ns-2 step 5: slow-start growth stops at ssthresh.
        if self.growth == Growth::SlowStart && d.cwnd >= d.ssthresh {
            self.growth = Growth::Hold;
        }
        // D2: count this ACK where ns-2 Vegas would add its increment (window in use).
        if self.growth != Growth::Hold && Vegas::window_used(c, d.cwnd) {
            match self.growth {
                // Eq. (1): W + 1 once n_s > N_s.
                Growth::SlowStart => {
                    self.n_s += 1;
                    if self.n_s > self.p.n_s {
                        d.cwnd = c.capped(d.cwnd + 1.0);
                        self.n_s = 0;
                    }
                }
                // Eq. (2): W + 1/W once n_CA > N_CA.
                Growth::CongestionAvoidance => {
                    self.n_ca += 1;
                    if self.n_ca > self.p.n_ca {
                        d.cwnd = c.capped(d.cwnd + 1.0 / d.cwnd);
                        self.n_ca = 0;
                    }
                }
                Growth::Hold => {}
            }
        }
        // D7: a window above the minimum ends the fractional window and the run of timeouts.
        if d.cwnd > c.cfg().min_cwnd {
            self.fractional = false;
            self.timeouts_at_min = 0;
        }
        self.vegas.finish_new_ack(c, a, t, &mut d);
        d
    }

    /// Once per RTT, on ns-2 Vegas's rounded delta: Algorithm 1 (W_th) and the growth mode
    /// of eq. (1) and (2), on the window and ssthresh at the start of the block.
    fn per_rtt(&mut self, c: &Conn, d: &mut WindowDecision, delta: f64) {
        let floor = self.floor(c);
        let min_ssthresh = c.cfg().min_ssthresh;
        if d.cwnd < d.ssthresh {
            // Slower start, eq. (1), with Algorithm 1 lines 3-6 (D1, D3, D5).
            if delta > self.gamma {
                d.ssthresh = (d.cwnd.floor() - 1.0).max(min_ssthresh);
                d.cwnd = (d.cwnd - d.cwnd * self.p.p).max(floor);
                self.growth = Growth::Hold;
            } else {
                self.growth = Growth::SlowStart;
            }
            return;
        }
        // Algorithm 1 lines 8-24: ns_CA counts stable RTTs on W_s; after more than NS_CA of
        // them W_th takes the window (ns-2's integer ssthresh: floor(W)).
        if delta > self.beta {
            self.ns_ca = 0;
        } else if delta >= self.alpha {
            if d.cwnd > self.w_s {
                self.ns_ca = 0;
                self.w_s = d.cwnd;
            }
            self.ns_ca += 1;
            if self.ns_ca > self.p.ns_ca {
                d.ssthresh = d.cwnd.floor().max(min_ssthresh);
                self.ns_ca = 0;
            }
        }
        // Moderate congestion avoidance, eq. (2) (D1, D4).
        if delta > self.beta {
            d.cwnd = (d.cwnd - 1.0).max(floor);
            self.growth = Growth::Hold;
        } else if delta < self.alpha {
            self.growth = Growth::CongestionAvoidance;
        } else {
            self.growth = Growth::Hold;
        }
    }

    /// ns-2 Vegas's duplicate-ACK rules ("Other operations is same to Vegas"), with this
    /// policy's window floor.
    pub fn on_dup_ack(&mut self, c: &Conn, now: SimTime) -> DupAckDecision {
        let floor = self.floor(c);
        self.vegas.dup_ack(c, now, floor)
    }

    /// A timeout: ns-2 Vegas's bookkeeping, then cwnd to the minimum window or, after N_fw
    /// consecutive timeouts at it, the fractional window (D7); ssthresh by TO_ss (D6).
    pub fn on_loss(&mut self, c: &Conn, now: SimTime, e: LossEvent) -> WindowDecision {
        match e {
            LossEvent::FastRetransmit(_) | LossEvent::Ecn(_) => self.vegas.on_loss(c, now, e),
            LossEvent::Timeout => {
                self.vegas.note_timeout(c, now);
                let w = c.cwnd();
                // D7 (§III-C 1).
                if w <= c.cfg().min_cwnd {
                    self.timeouts_at_min += 1;
                    if self.timeouts_at_min >= self.p.n_fw {
                        self.fractional = true;
                    }
                } else {
                    self.timeouts_at_min = 0;
                }
                // D6 (§III-C 4): "When to_ss is larger than a threshold TO_ss, W_th decreases
                // by 1 and to_ss is set to be 0."
                let mut ssthresh = c.ssthresh();
                if w < ssthresh {
                    self.to_ss += 1;
                    if self.to_ss > self.p.to_ss {
                        ssthresh = (ssthresh - 1.0).max(c.cfg().min_ssthresh);
                        self.to_ss = 0;
                    }
                } else {
                    self.to_ss = 0;
                }
                WindowDecision {
                    cwnd: self.floor(c),
                    ssthresh,
                    retransmit: None,
                }
            }
            // Nothing outstanding (no loss): restart from the floor, W_th kept, no counting.
            LossEvent::IdleTimeout => {
                self.vegas.note_timeout(c, now);
                WindowDecision {
                    cwnd: self.floor(c),
                    ..WindowDecision::hold(c.congestion())
                }
            }
        }
    }

    /// Test fixture: set the counters and modes directly.
    #[cfg(test)]
    pub fn set_state(&mut self, growth: Growth, n_s: u32, n_ca: u32, ns_ca: u32, w_s: f64) {
        self.growth = growth;
        self.n_s = n_s;
        self.n_ca = n_ca;
        self.ns_ca = ns_ca;
        self.w_s = w_s;
    }
}
