//! AIMD window policy: ns-2 `TcpAgent::opencwnd` (windowOption_ 1) and `slowdown`.
//!
//! Slow start adds one packet per new ACK while `cwnd < ssthresh` (no byte counting; at
//! equality ns-2 is already in congestion avoidance); congestion avoidance adds
//! `increase_num / cwnd` per new ACK (1 for Tahoe/Reno/NewReno/SACK; FeW's alpha, tcp-spec §10).
//! Loss halves via ns-2 `slowdown` (tcp-spec §2). Owns no state but `increase_num`.

use super::{AckKind, LossEvent, NewAck};
use crate::tcp::conn::{Conn, Slowdown};

#[derive(Clone, Debug)]
pub struct Aimd {
    /// ns-2 `increase_num_`: the congestion-avoidance increase per RTT, in packets.
    pub increase_num: f64,
}

impl Aimd {
    pub fn new(increase_num: f64) -> Self {
        Aimd { increase_num }
    }

    pub fn on_new_ack(&mut self, c: &mut Conn, a: &NewAck) {
        // Partial ACKs (NewReno, Sack1) and the Sack1 exit ACK do not open the window
        // (tcp-spec §6, §7.3).
        if a.kind != AckKind::Normal {
            return;
        }
        self.opencwnd(c);
        // tcp-spec §0/§4 step 1: the ACK of packet 0 sets cwnd = windowInit_
        // (ns-2 `delay_growth_`; the SYN's ACK when `syn_`).
        if a.ack == 0 {
            c.cwnd = c.window_init;
        }
    }

    /// tcp-spec §2 `opencwnd()`.
    pub fn opencwnd(&self, c: &mut Conn) {
        if c.cwnd < c.ssthresh {
            c.cwnd += 1.0;
        } else {
            c.cwnd += self.increase_num / c.cwnd;
        }
        c.cap_cwnd();
    }

    pub fn on_loss(&mut self, c: &mut Conn, e: LossEvent) {
        match e {
            LossEvent::FastRetransmit(how) => c.slowdown(how),
            LossEvent::Timeout => {
                // tcp-spec §2: the SYN itself timed out → windowInit_ drops to 1.
                if c.highest_ack == -1 && c.cfg.syn {
                    c.window_init = 1.0;
                }
                // ssthresh = max(2, floor(min(cwnd, window)/2)), cwnd = 1.
                c.slowdown(Slowdown::HalveSsthreshRestart);
            }
            // tcp-spec §2: nothing outstanding → cwnd = 1 only (restart_bugfix_).
            LossEvent::IdleTimeout => c.cwnd = 1.0,
        }
    }
}
