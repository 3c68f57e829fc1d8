//! Forward Acknowledgement, ns-2.35 `Agent/TCP/Fack` (Mathis and Mahdavi, "Forward
//! Acknowledgment: Refining TCP Congestion Control", SIGCOMM 1996; `tcp/tcp-fack.cc`, with
//! the per-packet board of `super::packet_board`).
//!
//! FACK keeps `fack`, the highest packet the receiver is known to hold (the highest SACKed
//! packet, §3), and `retran_data`, its retransmissions still in the network, and estimates
//! the data outstanding as `t_seqno - fack + retran_data` (§3, `awnd`): it sends, holes first
//! (each once), while `t_seqno <= fack + win - retran_data`. What ns-2's agent does, and so
//! this policy:
//! - A new ACK without SACK blocks outside recovery is an ordinary one (`newack`, then
//!   `opencwnd`), and resets `fack`, the board, `retran_data` and the ramp-down trim.
//! - Any other ACK not below `last_ack` (duplicates, and new ACKs with SACK blocks) updates
//!   the board and goes through `oldack`: the cumulative ACK advances without opening the
//!   window, the timer restarts, and its echoed timestamp is an RTT sample. The duplicate
//!   count is the number of packets between the ACK and `fack` (§3.2: recovery starts when
//!   `fack - last_ack > 3` packets, however few ACKs said so); at the threshold: `recover =
//!   t_seqno`, ssthresh halved and cwnd restarted at `wnd_restart_` (1: ns-2's
//!   `CLOSE_CWND_RESTART`), then `last_ack + 1` resent. There is no one-reaction-per-window
//!   test: recovery itself stops a second one.
//! - In recovery every ACK goes through `oldack` and opens the window (`opencwnd`: slow start
//!   back to ssthresh); a SACK block above data sent after a retransmission declares it lost
//!   again (§4.2), which stops sending until the timer expires. Recovery ends at the first
//!   ACK without SACK blocks at or above `recover`.
//! - Options (ns-default.tcl: both off): `ss_div4` (`ss-div4_`) halves cwnd before the
//!   reduction when it ends slow start (a loss in slow start overshot by up to half), and
//!   `rampdown` (`rampdown_`, §4.3 "Rampdown") adds to the window a trim of half (three
//!   quarters with `ss_div4`) the data outstanding at the loss, taken back as `fack` advances,
//!   so that the window comes down gradually.
//! - Timeout: the board and `retran_data` are cleared, the window restarts from 1 after the
//!   usual halving, and sending goes back to `last_ack + 1`; the agent stays in recovery if
//!   it was (ns-2 keeps `fastrecov_` and `recover_`).
//!
//! ns-2's FACK has no Limited Transmit and does not set the initial window on the ACK of the
//! SYN (its `opencwnd` grows cwnd from 1 as on any other ACK).

use super::base::loss_window;
use super::packet_board::PacketBoard;
use crate::sim::SimTime;
use crate::tcp::congestion::{CwndAction, Slowdown, WindowDecision};
use crate::tcp::conn::Conn;
use crate::tcp::output::TcpOutput;
use crate::tcp::segment::{AckSegment, SackBlock, Seq};
use crate::tcp::window::hooks::LossEvent;
use crate::tcp::window::WindowPolicy;

#[derive(Clone, Debug)]
pub struct Fack {
    /// ns-2 `fastrecov_`.
    fastrecov: bool,
    /// A retransmission was lost again: nothing is sent until the timer expires or recovery
    /// ends (ns-2 `timeout_`).
    timeout: bool,
    /// The forward-most packet known to be held by the receiver (ns-2 `fack_`).
    fack: Seq,
    /// Retransmissions still in the network (ns-2 `retran_data_`).
    retran_data: i64,
    /// ns-2 `dupacks_` as FACK sets it: `fack - last_ack - 1` (-1 when nothing is above).
    dupacks: i64,
    /// The ramp-down trim added to the window (ns-2 `wintrim_`) and its factor
    /// (`wintrimmult_`).
    wintrim: f64,
    wintrim_mult: f64,
    sb: PacketBoard,
}

impl Default for Fack {
    fn default() -> Self {
        Fack {
            fastrecov: false,
            timeout: false,
            fack: -1,
            retran_data: 0,
            dupacks: 0,
            wintrim: 0.0,
            wintrim_mult: 0.5,
            sb: PacketBoard::default(),
        }
    }
}

/// The highest packet a block reports (ns-2 `maxsack`): -2 without blocks.
fn max_sacked(blocks: &[SackBlock]) -> Seq {
    blocks.iter().map(|b| b.right).max().unwrap_or(-1) - 1
}

impl Fack {
    pub fn in_recovery(&self) -> bool {
        self.fastrecov
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
    pub fn wintrim(&self) -> f64 {
        self.wintrim
    }

    /// ns-2 `FackTcpAgent::window`: `int(min(cwnd, window_) + wintrim)`.
    fn window(&self, c: &Conn) -> Seq {
        (c.cwnd().min(f64::from(c.cfg().window)) + self.wintrim) as Seq
    }

    pub fn on_ack(
        &mut self,
        c: &mut Conn,
        w: &mut WindowPolicy,
        now: SimTime,
        ack: &AckSegment,
        out: &mut TcpOutput,
    ) {
        let a = ack.ack;
        let blocks = ack.sack_blocks();
        if self.fastrecov {
            self.recovery_ack(c, w, now, a, blocks, out);
            self.send(c, now, out);
            return;
        }
        if a > c.last_ack() && blocks.is_empty() {
            // An ordinary new ACK (ns-2 `recv_newack_helper`: `newack`, `opencwnd`).
            c.newack(now, a, out);
            self.opencwnd(c, w, now, out);
            self.fack = c.last_ack();
            self.timeout = false;
            self.sb.clear();
            self.retran_data = 0;
            self.wintrim = 0.0;
            self.dupacks = 0;
        } else if a >= c.last_ack() {
            // The board is updated against the cumulative ACK before this one.
            self.retran_data -= self.sb.update_fack(c.highest_ack(), blocks);
            self.oldack(c, now, a, out);
            self.fack = self.fack.max(max_sacked(blocks));
            if self.fack >= c.t_seqno() {
                c.raise_t_seqno(self.fack + 1);
            }
            self.dupacks = self.fack - c.last_ack() - 1;
            if self.dupacks >= i64::from(c.cfg().dupack_threshold) {
                self.fast_retransmit(c, w, now, out);
            }
        }
        // A misordered ACK below `last_ack` is ignored.
        if self.dupacks == 0 {
            self.send(c, now, out);
        }
    }

    /// An ACK in recovery (ns-2 `FackTcpAgent::recv`, `fastrecov_` branch).
    fn recovery_ack(
        &mut self,
        c: &mut Conn,
        w: &mut WindowPolicy,
        now: SimTime,
        a: Seq,
        blocks: &[SackBlock],
        out: &mut TcpOutput,
    ) {
        self.oldack(c, now, a, out);
        let ms = max_sacked(blocks);
        if ms > self.fack {
            // Rampdown: the trim shrinks as data leaves the network.
            if c.cfg().fack_rampdown {
                self.wintrim =
                    (self.wintrim - (ms - self.fack) as f64 * self.wintrim_mult).max(0.0);
            }
            self.fack = ms;
        }
        if self.fack >= c.t_seqno() {
            c.raise_t_seqno(self.fack + 1);
        }
        self.retran_data -= self.sb.update_fack(c.highest_ack(), blocks);
        // §4.2: a retransmission lost again stops sending until the timer expires.
        self.timeout |= self.sb.retransmission_lost_fack(blocks);
        self.opencwnd(c, w, now, out);
        if blocks.is_empty() && c.last_ack() >= c.recover() {
            // No SACK blocks: the receiver holds everything up to the ACK; recovery is over.
            self.fastrecov = false;
            self.timeout = false;
            self.sb.clear();
            self.retran_data = 0;
            self.wintrim = 0.0;
            self.dupacks = 0;
        }
    }

    /// ns-2 `FackTcpAgent::oldack`: the cumulative ACK advances (`fack` with it), the timer
    /// restarts, and the ACK's echoed timestamp is an RTT sample.
    fn oldack(&mut self, c: &mut Conn, now: SimTime, a: Seq, out: &mut TcpOutput) {
        c.advance_partial_ack(a);
        self.fack = self.fack.max(c.highest_ack());
        c.newtimer(now, a);
        c.sample_echoed_timestamp(now, a, out);
    }

    /// ns-2 `TcpAgent::opencwnd` (slow start below ssthresh, else 1/cwnd), capped at
    /// `maxcwnd_`, on every ACK that reaches it.
    fn opencwnd(&self, c: &mut Conn, w: &WindowPolicy, now: SimTime, out: &mut TcpOutput) {
        // The window policy of FACK is AIMD (the variant table).
        if let Some(a) = w.aimd() {
            let d = WindowDecision {
                cwnd: a.opencwnd(c),
                ..WindowDecision::hold(c.congestion())
            };
            c.apply_window(&d, now, out);
        }
    }

    /// The duplicate threshold reached outside recovery (ns-2 `FackTcpAgent::recv`).
    fn fast_retransmit(
        &mut self,
        c: &mut Conn,
        w: &mut WindowPolicy,
        now: SimTime,
        out: &mut TcpOutput,
    ) {
        c.open_loss_reaction_at(CwndAction::DupAck, c.t_seqno());
        // `ss-div4_`: a loss in slow start (cwnd at most ssthresh + 1/2) halves cwnd first;
        // the trim factor is then three quarters.
        if c.cfg().fack_ss_div4 && c.cwnd() <= c.ssthresh() + 0.5 {
            let d = WindowDecision {
                cwnd: c.cwnd() / 2.0,
                ..WindowDecision::hold(c.congestion())
            };
            c.apply_window(&d, now, out);
            self.wintrim_mult = 0.75;
        } else {
            self.wintrim_mult = 0.5;
        }
        loss_window(
            c,
            w,
            now,
            LossEvent::FastRetransmit(Slowdown::HalveSsthreshRestart),
            out,
        );
        if c.cfg().fack_rampdown {
            self.wintrim = (c.t_seqno() - self.fack - 1) as f64 * self.wintrim_mult;
        }
        c.reset_rtx_timer(now, true, false, out);
        self.fastrecov = true;
        let seq = c.last_ack() + 1;
        self.sb.mark_retran(seq, c.t_seqno());
        self.retran_data += 1;
        c.fast_retransmit(seq, now, out);
    }

    /// ns-2 `FackTcpAgent::timeout`. With nothing outstanding and `slow_start_restart`
    /// false nothing happens. Otherwise the board and `retran_data` are cleared, ssthresh is
    /// halved and cwnd restarted at 1 (with nothing outstanding only cwnd goes back to the
    /// initial window), the timer backs off (not when idle), and sending resumes at
    /// `last_ack + 1`. Recovery, if on, stays on.
    pub fn on_timeout(
        &mut self,
        c: &mut Conn,
        w: &mut WindowPolicy,
        now: SimTime,
        out: &mut TcpOutput,
    ) {
        let outstanding = c.data_outstanding();
        if !outstanding && !c.cfg().slow_start_restart {
            return;
        }
        self.timeout = false;
        c.catch_up_last_ack();
        self.retran_data = 0;
        c.count_timeout();
        out.event(crate::tcp::output::TcpEvent::Timeout {
            seq: c.highest_ack() + 1,
        });
        c.note_cwnd_action(CwndAction::Timeout);
        if outstanding {
            loss_window(c, w, now, LossEvent::Timeout, out);
        } else {
            // ns-2 `slowdown(CLOSE_CWND_INIT)`: cwnd = windowInit_, ssthresh at least 2.
            let d = WindowDecision {
                cwnd: f64::from(c.cfg().window_init),
                ssthresh: c.ssthresh().max(c.cfg().min_ssthresh),
                retransmit: None,
            };
            c.note_window_cut();
            c.apply_window(&d, now, out);
        }
        self.sb.clear();
        c.reset_rtx_timer(now, true, outstanding, out);
        self.fack = c.last_ack();
        c.rewind_t_seqno(c.last_ack() + 1);
        self.send(c, now, out);
    }

    /// ns-2 `FackTcpAgent::send_much`: while `t_seqno <= fack + win - retran_data` (and no
    /// retransmission was lost again), the lowest hole not yet resent, else new data (in
    /// recovery only up to `highest_ack + window_`).
    pub fn send(&mut self, c: &mut Conn, now: SimTime, out: &mut TcpOutput) {
        let maxburst = c.cfg().max_burst;
        let wnd = Seq::from(c.cfg().window);
        let mut win = self.window(c);
        let mut sent = 0;
        while c.t_seqno() <= self.fack + win - self.retran_data && !self.timeout {
            let seq = match self.sb.next_retran(None) {
                Some(h) => {
                    self.sb.mark_retran(h, c.t_seqno());
                    self.retran_data += 1;
                    win = self.window(c);
                    h
                }
                None => {
                    if c.t_seqno() >= c.send_limit() {
                        return;
                    }
                    if self.fastrecov && c.t_seqno() > c.highest_ack() + wnd {
                        break;
                    }
                    c.take_next_seq()
                }
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
