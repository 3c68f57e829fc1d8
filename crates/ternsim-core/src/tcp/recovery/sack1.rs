//! SACK recovery, ns-2 `Agent/TCP/Sack1` (tcp-spec §7.3; Fall and Floyd 1996). This is ns-2's
//! scoreboard with a **pipe counter**, not RFC 6675: `pipe` is set to
//! `maxseq − highest_ack − 3` on entry, decremented once per ACK (twice per partial ACK) and
//! incremented per packet sent; packets go out while `pipe < floor(cwnd)`, holes first (each
//! once, no `IsLost` test), then new data up to `highest_ack + window_`. A duplicate ACK
//! counts only if its SACK blocks reported new data. The timer restarts on every partial ACK;
//! the exit ACK does not open cwnd; the scoreboard is discarded on RTO.

use super::base::{
    dup_ack_passed, loss_window, new_ack_window, new_window, repeat_reaction, RepeatReaction,
};
use super::scoreboard::Scoreboard;
use crate::sim::SimTime;
use crate::tcp::congestion::{CwndAction, Slowdown};
use crate::tcp::conn::Conn;
use crate::tcp::output::{Ns2EventKind, TcpOutput};
use crate::tcp::segment::{AckSegment, Seq};
use crate::tcp::window::hooks::{AckKind, LossEvent, NewAck};
use crate::tcp::window::WindowPolicy;

#[derive(Clone, Debug, Default)]
pub struct Sack1 {
    /// In fast recovery (ns-2 `fastrecov_`).
    fastrecov: bool,
    /// Packets estimated in flight during recovery (ns-2 `pipe_`).
    pipe: i64,
    /// An RTO happened: duplicates are ignored until the next new ACK (ns-2 `timeout_`).
    timeout: bool,
    sb: Scoreboard,
    /// `partial_ack_`: the next packet a partial ACK sends (ns-2 `next_pkt_`, never reset).
    next_pkt: Seq,
    /// `partial_ack_`: a partial ACK has restarted the timer since the last new ACK outside
    /// recovery (ns-2 `firstpartial_`).
    first_partial: bool,
}

impl Sack1 {
    pub fn in_recovery(&self) -> bool {
        self.fastrecov
    }
    pub fn pipe(&self) -> i64 {
        self.pipe
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
        let was_in_recovery = self.fastrecov;
        if !self.fastrecov {
            if a > c.last_ack() {
                // Regular new ACK: newack + opencwnd, clear the board.
                self.first_partial = false;
                let info = NewAck::before(c, a, AckKind::Normal);
                c.newack(now, a, out);
                new_ack_window(c, w, now, &info, out);
                self.sb.clear();
                self.timeout = false;
            } else if a == c.last_ack() && !self.timeout {
                // A duplicate only if the scoreboard changed.
                if self.sb.update(c.highest_ack(), ack.sack_blocks()) {
                    let dupacks = c.count_dup_ack();
                    if dup_ack_passed(c, w, now, out) {
                        // ns-2 `numdupacks(cwnd_)` (numdupacksFrac_).
                        let thresh = c.cfg().dupack_threshold_at(c.cwnd());
                        if dupacks == thresh {
                            self.dupack_action(c, w, now, out);
                        } else if dupacks < thresh && c.cfg().limited_transmit {
                            c.send_one(now, out);
                        }
                    }
                }
            }
        } else {
            // In recovery every ACK first takes one packet out of the pipe.
            self.pipe -= 1;
            if a >= c.recover() {
                // Recovery over: newack without opencwnd, clear the board.
                c.clear_recover();
                self.fastrecov = false;
                let info = NewAck::before(c, a, AckKind::RecoveryExit);
                c.newack(now, a, out);
                new_ack_window(c, w, now, &info, out);
                self.timeout = false;
                self.sb.clear();
            } else if a > c.highest_ack() && c.cfg().partial_ack {
                // Partial ACK with `partial_ack_`: highest_ack advances, the next two
                // packets not SACKed go at once, one packet goes back into the pipe, and
                // only the first partial ACK restarts the timer (backoff 1).
                let info = NewAck::before(c, a, AckKind::Partial);
                c.advance_highest_ack(a);
                self.sb.update(a, ack.sack_blocks());
                self.partial_ack_action(c, now, out);
                self.pipe += 1;
                if !self.first_partial {
                    c.newtimer(now, a);
                    c.reset_rto_backoff();
                    self.first_partial = true;
                }
                new_ack_window(c, w, now, &info, out);
            } else if a > c.highest_ack() {
                // Partial ACK (partial_ack_ false): highest_ack advances, last_ack does not;
                // a second packet leaves the pipe; the timer restarts with backoff 1.
                self.pipe -= 1;
                let info = NewAck::before(c, a, AckKind::Partial);
                c.advance_highest_ack(a);
                self.sb.update(a, ack.sack_blocks());
                c.newtimer(now, a);
                c.reset_rto_backoff();
                new_ack_window(c, w, now, &info, out);
            } else if !self.timeout
                && self.sb.update(c.highest_ack(), ack.sack_blocks())
                && c.dupacks() > 0
            {
                c.count_dup_ack();
            }
        }
        // ns-2 sends from the branch the ACK entered: outside recovery only with no
        // duplicates pending (so not on the ACK that starts recovery), in recovery always.
        if was_in_recovery {
            self.send(c, now, out);
        } else if c.dupacks() == 0 {
            c.send_much(now, c.cfg().max_burst, out);
        }
    }

    /// ns-2 `partial_ack_action`: from `next_pkt` (at least `highest_ack + 1`), twice: skip
    /// past a SACKed range that holds it, raise `t_seqno` to it, send it (counted in the
    /// retransmission pointer), move on.
    fn partial_ack_action(&mut self, c: &mut Conn, now: SimTime, out: &mut TcpOutput) {
        self.next_pkt = self.next_pkt.max(c.highest_ack() + 1);
        for _ in 0..2 {
            if let Some(n) = self.sb.next_unacked(self.next_pkt) {
                self.next_pkt = self.next_pkt.max(n);
            }
            c.raise_t_seqno(self.next_pkt);
            c.output(self.next_pkt, now, out);
            self.sb.mark_retran(self.next_pkt);
            self.next_pkt += 1;
        }
    }

    /// §7.3 entry on the 3rd duplicate (once per window).
    fn dupack_action(
        &mut self,
        c: &mut Conn,
        w: &mut WindowPolicy,
        now: SimTime,
        out: &mut TcpOutput,
    ) {
        if !new_window(c) {
            match repeat_reaction(c) {
                RepeatReaction::AfterEcn => {
                    // ns-2 `Sack1TcpAgent::dupack_action`'s ECN branch: recovery without
                    // another cut, `recover_` left where the ECN reaction put it.
                    c.note_cwnd_action(CwndAction::DupAck);
                    c.reset_rtx_timer(now, true, false, out);
                    self.pipe =
                        c.maxseq() - c.highest_ack() - c.cfg().dupack_threshold_at(c.cwnd()) as i64;
                    self.fastrecov = true;
                    self.sb.mark_retran(c.highest_ack() + 1);
                    c.fast_retransmit(c.last_ack() + 1, now, out);
                    return;
                }
                RepeatReaction::Refused => return,
                RepeatReaction::Allowed => {}
            }
        }
        c.open_loss_reaction(CwndAction::DupAck);
        self.pipe = c.maxseq() - c.highest_ack() - c.cfg().dupack_threshold_at(c.cwnd()) as i64;
        // Event trace: FAST_RECOVERY before the window changes (ns-2 `Sack1TcpAgent::
        // dupack_action`; its timer restart before it changes neither `t_seqno_` nor cwnd).
        c.trace_ns2_event(Ns2EventKind::FastRecovery, out);
        loss_window(
            c,
            w,
            now,
            LossEvent::FastRetransmit(Slowdown::HalveBoth),
            out,
        );
        c.reset_rtx_timer(now, true, false, out);
        self.fastrecov = true;
        self.sb.mark_retran(c.highest_ack() + 1);
        c.fast_retransmit(c.last_ack() + 1, now, out);
    }

    /// §7.3 "Timeout": leave recovery, ignore duplicates until a new ACK, discard the board.
    pub fn on_timeout(&mut self, c: &mut Conn) {
        c.forget_dup_acks();
        self.fastrecov = false;
        self.timeout = true;
        c.catch_up_last_ack();
        c.move_recover_to_maxseq();
        self.sb.clear();
    }

    /// ns-2 Sack1 `send_much`: outside recovery the ordinary window loop (only when there are
    /// no duplicates pending); in recovery the pipe loop.
    pub fn send(&mut self, c: &mut Conn, now: SimTime, out: &mut TcpOutput) {
        if !self.fastrecov {
            if c.dupacks() == 0 {
                c.send_much(now, c.cfg().max_burst, out);
            }
            return;
        }
        let maxburst = c.cfg().max_burst;
        let wnd = c.cfg().window as Seq;
        let mut sent = 0;
        while self.pipe < c.cwnd().floor() as i64 {
            let seq = match self.sb.next_hole(c.highest_ack()) {
                Some(h) if c.recover() > 0 && h <= c.highest_ack() + wnd => {
                    self.sb.mark_retran(h);
                    h
                }
                Some(_) => break,
                None if c.t_seqno() <= c.highest_ack() + wnd && c.t_seqno() < c.send_limit() => {
                    c.take_next_seq()
                }
                None => break,
            };
            c.output(seq, now, out);
            self.pipe += 1;
            sent += 1;
            if maxburst != 0 && sent == maxburst {
                break;
            }
        }
    }
}
