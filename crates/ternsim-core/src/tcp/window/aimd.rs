//! AIMD window policy: ns-2 `TcpAgent::opencwnd` (windowOption_ 1, or 6: binomial) and
//! `slowdown`.
//!
//! Slow start adds one packet per new ACK while `cwnd < ssthresh` (no byte counting; at
//! equality ns-2 is already in congestion avoidance); congestion avoidance adds
//! `increase_num / cwnd` per new ACK (1 for Tahoe/Reno/NewReno/SACK; FeW's alpha, tcp-spec §10).
//! Loss halves via ns-2 `slowdown` (tcp-spec §2; later cuts by `decrease_num`, see
//! `CongestionState::slowdown`); timeouts restart from `min_cwnd`. Owns no
//! state but `increase_num`; every hook returns a [`WindowDecision`].

use super::hooks::{AckKind, LossEvent, NewAck};
use crate::tcp::config::WindowOption;
use crate::tcp::congestion::{Slowdown, WindowDecision};
use crate::tcp::conn::Conn;

#[derive(Clone, Debug)]
pub struct Aimd {
    /// ns-2 `increase_num_`: the congestion-avoidance increase per RTT, in packets.
    pub increase_num: f64,
}

impl Aimd {
    pub fn new(increase_num: f64) -> Self {
        Aimd { increase_num }
    }

    pub fn on_new_ack(&mut self, c: &Conn, a: &NewAck) -> WindowDecision {
        let mut d = WindowDecision::hold(c.congestion());
        // Partial ACKs (NewReno, Sack1) and the Sack1 exit ACK do not open the window
        // (tcp-spec §6, §7.3).
        if a.kind != AckKind::Normal {
            return d;
        }
        d.cwnd = self.opencwnd(c);
        // tcp-spec §0/§4 step 1: the ACK of packet 0 sets cwnd = windowInit_
        // (ns-2 `delay_growth_`; the SYN's ACK when `syn_`).
        if a.ack == 0 && c.cfg().delay_growth {
            d.cwnd = c.window_init();
        }
        d
    }

    /// tcp-spec §2 `opencwnd()`: the window after one new ACK (slow start below ssthresh,
    /// else the congestion-avoidance increment of `windowOption_`).
    pub fn opencwnd(&self, c: &Conn) -> f64 {
        let cwnd = c.cwnd();
        let opened = if cwnd < c.ssthresh() {
            cwnd + 1.0
        } else {
            cwnd + self.avoidance_increment(cwnd, c.cfg().window_option)
        };
        c.capped(opened)
    }

    /// ns-2 `TcpAgent::opencwnd`'s linear phase: `windowOption_ 1` adds
    /// `increase_num_ / cwnd`; `windowOption_ 6` (binomial controls) adds
    /// `increase_num_ / (cwnd * cwnd^k_parameter_)`.
    fn avoidance_increment(&self, cwnd: f64, option: WindowOption) -> f64 {
        match option {
            WindowOption::Standard => self.increase_num / cwnd,
            WindowOption::Binomial { k, .. } => self.increase_num / (cwnd * cwnd.powf(k)),
        }
    }

    pub fn on_loss(&mut self, c: &Conn, e: LossEvent) -> WindowDecision {
        match e {
            LossEvent::FastRetransmit(how) | LossEvent::Ecn(how) => c.slowdown(how),
            // ssthresh = max(min_ssthresh, floor(min(cwnd, window)/2)), cwnd = min_cwnd.
            LossEvent::Timeout => c.slowdown(Slowdown::HalveSsthreshRestart),
            // tcp-spec §2: nothing outstanding → cwnd = min_cwnd only (restart_bugfix_).
            LossEvent::IdleTimeout => WindowDecision {
                cwnd: c.cfg().min_cwnd,
                ..WindowDecision::hold(c.congestion())
            },
        }
    }
}
