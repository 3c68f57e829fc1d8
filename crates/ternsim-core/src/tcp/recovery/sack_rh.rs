//! SACK with Rate-Halving, ns-2.35 `Agent/TCP/SackRH` (Mathis, Semke, Mahdavi, Lahey, "The
//! Rate-Halving Algorithm for TCP Congestion Control", draft-mathis-tcp-ratehalving-00,
//! 1999; `tcp/tcp-sack-rh.cc`, whose comments number the draft's sections 7.2-7.15; the
//! per-packet board is `super::packet_board`).
//!
//! Rate-Halving spreads the window reduction over the recovery round trip instead of halving
//! at once: while adjusting, each ACK takes half a packet off cwnd, so the sender sends one
//! packet for every two that leave the network, and the window is bounded at the end. ns-2's
//! agent sends while `int(cwnd) >= t_seqno - fack + retran_data` (7.3), holes first (a hole
//! is due once `numdupacks` ACKs have reported it), then new data up to
//! `last_ack + window_`. Every ACK goes through its `newack` (timer, RTT sample, cumulative
//! ACK), and the state machine then moves:
//! - `Incr` (7.2): the window opens by `opencwnd` when the data outstanding before the ACK
//!   filled it.
//! - `Exact` (7.4): entered on an ECN-Echo or a hole reported for the first time; cwnd loses
//!   half of `fack`'s advance and of the new holes (7.6); ends (7.10) when `fack` reaches the
//!   data sent at the start or a retransmission of this interval is SACKed, with the bound
//!   of 7.14.
//! - `Est` (7.5): entered on a duplicate ACK without SACK blocks (a receiver that does not
//!   SACK: the holes are estimated NewReno style, `fack = last_ack + dupacks + 1`); cwnd
//!   loses half a packet per ACK (7.7) until it is half the window at the start, then
//!   `EstRepair` keeps it (7.12); partial ACKs re-arm the estimate (7.9); ends (7.11) when the
//!   ACK reaches the data sent at the start, with cwnd `(prior_cwnd - retransmissions) / 2`
//!   (7.13) and the bound of 7.14.
//! - Reordering (7.8): with no retransmission and no ECN in the interval, an ACK that shows
//!   the loss was reordering (an exact interval's ACK without SACK blocks, an estimated
//!   interval's new ACK) restores the window and returns to `Incr`.
//! - 7.14 bound: cwnd at most half the window at the start, ssthresh = int(cwnd), at least
//!   a quarter of that window.
//! - Timeout (7.15): an interval in progress is undone (cwnd back to its start), then the
//!   usual halving and restart at 1, every hole due again, and sending resumes after `fack`.
//!
//! ns-2's agent has no Limited Transmit, does not set the initial window on the ACK of the
//! SYN, and does not run ns-2's ECN reaction (`TcpAgent::ecn`): an ECN-Echo enters `Exact`.

use super::base::loss_window;
use super::packet_board::PacketBoard;
use crate::sim::SimTime;
use crate::tcp::congestion::{CwndAction, WindowDecision};
use crate::tcp::conn::Conn;
use crate::tcp::output::{TcpEvent, TcpOutput};
use crate::tcp::segment::{AckSegment, Seq};
use crate::tcp::window::hooks::LossEvent;
use crate::tcp::window::WindowPolicy;

/// The Rate-Halving states (ns-2 `rh_state_`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RhState {
    /// Not adjusting: the window grows (`RH_INCR`).
    Incr,
    /// Adjusting with holes known from SACK blocks (`RH_EXACT`).
    Exact,
    /// Adjusting with holes estimated from duplicate ACKs (`RH_EST`).
    Est,
    /// Estimating, the window already halved (`RH_EST_REPAIR`).
    EstRepair,
}

/// Where an estimated interval stands with its current hole (ns-2 `rh_est_hole_state_`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum EstHole {
    None,
    /// Counting duplicate ACKs for the hole at `last_ack + 1`.
    Counting,
    /// `numdupacks` duplicates seen: `last_ack + 1` is due.
    NewHole,
    /// It was resent.
    Resent,
}

#[derive(Clone, Debug)]
pub struct SackRh {
    state: RhState,
    /// ns-2 `fack_`.
    fack: Seq,
    /// Retransmissions still in the network (ns-2 `retran_data_`).
    retran_data: i64,
    /// Duplicate ACKs without SACK blocks in this interval (ns-2 `num_dupacks_`).
    num_dupacks: i64,
    /// cwnd and `t_seqno` when the interval began (ns-2 `prior_cwnd_`, `prior_max_seq_`).
    prior_cwnd: f64,
    prior_max_seq: Seq,
    /// The interval's id and the highest id used (ns-2 `rh_id_`, `rh_max_`).
    rh_id: u32,
    rh_max: u32,
    est_hole: EstHole,
    /// Estimated holes resent in this interval (ns-2 `num_retrans_`).
    num_retrans: i64,
    /// A retransmission or an ECN-Echo in this interval (ns-2 `rh_retran_flag_`,
    /// `rh_ecn_flag_`): no undo on reordering.
    retran_flag: bool,
    ecn_flag: bool,
    sb: PacketBoard,
}

impl Default for SackRh {
    fn default() -> Self {
        SackRh {
            state: RhState::Incr,
            fack: -1,
            retran_data: 0,
            num_dupacks: 0,
            prior_cwnd: 0.0,
            prior_max_seq: 0,
            rh_id: 0,
            rh_max: 0,
            est_hole: EstHole::None,
            num_retrans: 0,
            retran_flag: false,
            ecn_flag: false,
            sb: PacketBoard::default(),
        }
    }
}

impl SackRh {
    pub fn state(&self) -> RhState {
        self.state
    }
    pub fn fack(&self) -> Seq {
        self.fack
    }
    pub fn retran_data(&self) -> i64 {
        self.retran_data
    }

    /// Test fixture: the forward ACK where ACKs up to `highest_ack` would have left it.
    #[cfg(test)]
    pub(crate) fn warp(&mut self, highest_ack: Seq) {
        self.fack = highest_ack;
    }
    pub fn prior_cwnd(&self) -> f64 {
        self.prior_cwnd
    }

    fn estimating(&self) -> bool {
        matches!(self.state, RhState::Est | RhState::EstRepair)
    }

    fn dupthresh(c: &Conn) -> i64 {
        i64::from(c.cfg().dupack_threshold)
    }

    fn set_cwnd(c: &mut Conn, cwnd: f64, now: SimTime, out: &mut TcpOutput) {
        let d = WindowDecision {
            cwnd,
            ..WindowDecision::hold(c.congestion())
        };
        c.apply_window(&d, now, out);
    }

    /// ns-2 `rhclear`: the interval's bookkeeping back to zero.
    fn clear_interval(&mut self) {
        self.rh_id = 0;
        self.prior_max_seq = 0;
        self.num_dupacks = 0;
        self.est_hole = EstHole::None;
        self.ecn_flag = false;
        self.num_retrans = 0;
        self.retran_flag = false;
        self.prior_cwnd = 0.0;
    }

    /// ns-2 `computefack`: from the board when holes are known, else estimated from the
    /// duplicates.
    fn compute_fack(&mut self, c: &Conn) {
        self.fack = if self.estimating() {
            c.last_ack() + self.num_dupacks + 1
        } else {
            self.sb.fack(c.last_ack())
        };
    }

    /// 7.14: cwnd at most half the window at the start; ssthresh its integer part, at least
    /// a quarter of that window.
    fn bound(&self, c: &mut Conn, now: SimTime, out: &mut TcpOutput) {
        let half = self.prior_cwnd / 2.0;
        let cwnd = c.cwnd().min(half);
        let mut ssthresh = cwnd.trunc();
        if ssthresh < self.prior_cwnd / 4.0 {
            ssthresh = (self.prior_cwnd / 4.0).trunc();
        }
        let d = WindowDecision {
            cwnd,
            ssthresh,
            retransmit: None,
        };
        c.apply_window(&d, now, out);
    }

    /// A new adjustment interval starting from the window now (7.4, 7.5).
    fn begin_interval(&mut self, c: &mut Conn, state: RhState) {
        self.state = state;
        self.prior_cwnd = c.cwnd();
        self.prior_max_seq = c.t_seqno();
        c.note_window_cut();
        self.rh_max += 1;
        self.rh_id = self.rh_max;
    }

    pub fn on_ack(
        &mut self,
        c: &mut Conn,
        w: &mut WindowPolicy,
        now: SimTime,
        ack: &AckSegment,
        out: &mut TcpOutput,
    ) {
        let blocks = ack.sack_blocks();
        let ecnecho = ack.ecn.ece && c.last_ack() != -1;
        let sackpresent = !blocks.is_empty();
        let old_ack = c.last_ack();
        // ns-2 `SackRHTcpAgent::newack` on every ACK, the timer restarted first.
        c.newack_timer(now, ack.ack, true, out);
        if ecnecho {
            self.ecn_flag = true;
        }
        let old_fack = self.fack;
        let old_retran_data = self.retran_data;
        self.retran_data -= self.sb.update_rh(c.last_ack(), blocks, self.rh_id);
        if !sackpresent && old_ack == c.last_ack() {
            self.num_dupacks += 1;
            if self.est_hole == EstHole::Counting && self.num_dupacks == Self::dupthresh(c) {
                self.est_hole = EstHole::NewHole;
            }
        }
        self.compute_fack(c);

        // 7.8: reordering, not loss: undo the interval.
        if !self.retran_flag
            && !self.ecn_flag
            && ((self.state == RhState::Exact && !sackpresent && !ecnecho)
                || (self.state == RhState::Est && c.last_ack() > old_ack))
        {
            self.state = RhState::Incr;
            Self::set_cwnd(c, self.prior_cwnd, now, out);
            self.clear_interval();
            self.compute_fack(c);
        }
        // 7.10: an exact interval ends.
        if self.state == RhState::Exact
            && (self.fack >= self.prior_max_seq || self.sb.retran_sacked(self.rh_id))
        {
            self.bound(c, now, out);
            self.state = RhState::Incr;
            self.clear_interval();
        }
        // 7.11: an estimated interval ends; 7.13 corrects its window.
        if self.estimating() && c.last_ack() >= self.prior_max_seq {
            self.retran_data = 0;
            Self::set_cwnd(
                c,
                (self.prior_cwnd - self.num_retrans as f64) / 2.0,
                now,
                out,
            );
            self.bound(c, now, out);
            self.state = RhState::Incr;
            self.clear_interval();
            self.compute_fack(c);
        }
        // 7.12: the estimate has halved the window.
        if self.state == RhState::Est && c.cwnd() <= self.prior_cwnd / 2.0 {
            self.state = RhState::EstRepair;
        }
        // 7.9: a partial ACK while estimating.
        if self.estimating() && c.last_ack() > old_ack {
            self.retran_data = 0;
            self.num_dupacks -= c.last_ack() - old_ack - 1;
            self.est_hole = if self.num_dupacks >= Self::dupthresh(c) {
                EstHole::NewHole
            } else {
                EstHole::Counting
            };
            self.compute_fack(c);
        }
        // 7.4, 7.5: entering an interval.
        if self.state == RhState::Incr && (ecnecho || self.sb.new_holes() != 0) {
            self.begin_interval(c, RhState::Exact);
        }
        if self.state == RhState::Incr && self.num_dupacks > 0 {
            self.begin_interval(c, RhState::Est);
            self.est_hole = EstHole::Counting;
        }
        if self.state == RhState::Exact && self.num_dupacks > 0 {
            // Holes no longer known: estimate (cwnd and the start kept).
            self.state = RhState::Est;
            self.est_hole = EstHole::Counting;
            self.rh_max += 1;
            self.rh_id = self.rh_max;
        }
        if self.state == RhState::EstRepair && ecnecho {
            self.begin_interval(c, RhState::Est);
        }
        match self.state {
            // 7.2: open the window if the data outstanding filled it.
            RhState::Incr => {
                if c.t_seqno() - old_fack + old_retran_data + 1 >= c.cwnd() as Seq {
                    if let Some(a) = w.aimd() {
                        let cwnd = a.opencwnd(c);
                        Self::set_cwnd(c, cwnd, now, out);
                    }
                }
            }
            // 7.6: half of what left the network and of the new holes.
            RhState::Exact => {
                let gone = (self.fack - old_fack) + i64::from(self.sb.new_holes());
                Self::set_cwnd(c, c.cwnd() - gone as f64 / 2.0, now, out);
            }
            // 7.7: half a packet per ACK.
            RhState::Est => Self::set_cwnd(c, c.cwnd() - 0.5, now, out),
            RhState::EstRepair => {}
        }
        self.send(c, now, out);
    }

    /// 7.15 (ns-2 `SackRHTcpAgent::timeout`).
    pub fn on_timeout(
        &mut self,
        c: &mut Conn,
        w: &mut WindowPolicy,
        now: SimTime,
        out: &mut TcpOutput,
    ) {
        if !c.data_outstanding() && !c.cfg().slow_start_restart {
            return;
        }
        if c.highest_ack() == -1 && c.cfg().window_init_by_size {
            // "First packet dropped, so don't use larger initial windows."
            c.syn_timed_out();
        }
        if self.state != RhState::Incr {
            // A timeout in the middle of an interval: as if it never began.
            Self::set_cwnd(c, self.prior_cwnd, now, out);
            self.clear_interval();
            self.state = RhState::Incr;
        }
        c.count_timeout();
        out.event(TcpEvent::Timeout {
            seq: c.highest_ack() + 1,
        });
        loss_window(c, w, now, LossEvent::Timeout, out);
        self.retran_data = 0;
        self.sb.timeout_rh(c.t_seqno(), c.cfg().dupack_threshold);
        self.compute_fack(c);
        // Pretend nothing beyond `fack` was sent.
        if c.t_seqno() > self.fack + 1 {
            c.rewind_t_seqno(self.fack + 1);
        }
        c.reset_rtx_timer(now, true, true, out);
        c.note_cwnd_action(CwndAction::Timeout);
        self.send(c, now, out);
    }

    /// 7.3 (ns-2 `SackRHTcpAgent::send_much`): while `int(cwnd) >= t_seqno - fack +
    /// retran_data`: a due hole within `last_ack + window_`, else an estimated hole at
    /// `last_ack + 1`, else new data within `last_ack + window_`.
    pub fn send(&mut self, c: &mut Conn, now: SimTime, out: &mut TcpOutput) {
        let maxburst = c.cfg().max_burst;
        let wnd = Seq::from(c.cfg().window);
        let dupthresh = c.cfg().dupack_threshold;
        let mut sent = 0;
        while c.cwnd() as Seq >= c.t_seqno() - self.fack + self.retran_data {
            let seq = match self.sb.next_retran(Some(dupthresh)) {
                None if self.estimating() && self.est_hole == EstHole::NewHole => {
                    self.est_hole = EstHole::Resent;
                    self.num_retrans += 1;
                    self.retran_data += 1;
                    self.retran_flag = true;
                    c.last_ack() + 1
                }
                None if c.t_seqno() < c.send_limit() && c.t_seqno() <= c.last_ack() + wnd => {
                    c.take_next_seq()
                }
                None => break,
                Some(h) if h <= c.last_ack() + wnd => {
                    self.sb.mark_retran(h, c.t_seqno());
                    self.retran_data += 1;
                    self.retran_flag = true;
                    h
                }
                Some(_) => break,
            };
            c.output(seq, now, out);
            if c.t_seqno() <= seq {
                c.raise_t_seqno(seq + 1);
            }
            sent += 1;
            if maxburst != 0 && sent == maxburst {
                break;
            }
        }
    }
}
