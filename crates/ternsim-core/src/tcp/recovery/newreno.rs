//! NewReno recovery, ns-2 `Agent/TCP/Newreno` (tcp-spec §6; RFC 6582 with ns-2's
//! differences): Reno's duplicate-ACK handling, but an ACK below `recover` is a partial ACK
//! that resends the next hole at once and deflates `dupwnd` by the amount acknowledged
//! (partial_window_deflation_), keeping recovery going; at most two packets per ACK are sent
//! during recovery; the full ACK deflates to the halved cwnd and opens it by one CA step.

use super::base::{dup_ack_passed, new_ack_window, new_window};
use super::reno::{self, Threshold};
use crate::sim::SimTime;
use crate::tcp::congestion::CwndAction;
use crate::tcp::conn::Conn;
use crate::tcp::output::TcpOutput;
use crate::tcp::segment::Seq;
use crate::tcp::window::hooks::{AckKind, NewAck};
use crate::tcp::window::WindowPolicy;

#[derive(Clone, Debug, Default)]
pub struct NewReno {
    /// ns-2 `firstpartial_`: a partial ACK was seen in this recovery.
    first_partial: bool,
}

impl NewReno {
    pub fn on_ack(
        &mut self,
        c: &mut Conn,
        w: &mut WindowPolicy,
        now: SimTime,
        a: Seq,
        out: &mut TcpOutput,
    ) {
        if a > c.last_ack() {
            if a >= c.recover() || c.last_cwnd_action() != CwndAction::DupAck {
                self.full_ack(c, w, now, a, out);
            } else {
                self.partial_ack(c, w, now, a, out);
            }
        } else if a == c.last_ack() {
            c.count_dup_ack();
            if dup_ack_passed(c, w, now, out) {
                // §6 "Dup ACKs": as Reno, but allowed only in a new window (careful variant).
                // lessCareful_: also when the highest ACK is `recover` itself.
                // bugFix_ts_ and bugFix_ack_ (RFC 6582 §4.2): an ACK that echoes the last
                // send of what it acknowledges, or that advanced little with cwnd > 1, is
                // taken as a loss in the new window rather than a retransmitted copy.
                // ns-2 checks these after ECN's branch (`dupack_action`).
                let cfg = c.cfg();
                let allowed = new_window(c)
                    || (cfg.bug_fix && cfg.newreno.less_careful && c.highest_ack() == c.recover());
                let bug_fix_exception = (cfg.bug_fix_ts && c.ack_echoes_last_send())
                    || (cfg.bug_fix_ack
                        && c.cwnd() > 1.0
                        && c.last_ack_advance() <= cfg.dupack_threshold as Seq);
                let action = if allowed {
                    Threshold::React
                } else {
                    Threshold::after_refusal(c, bug_fix_exception)
                };
                reno::on_dup_ack(c, w, now, out, action);
            }
        }
        send(c, now, out);
    }

    /// §6 normal or full ACK: deflate, leave recovery, newack + opencwnd.
    fn full_ack(
        &mut self,
        c: &mut Conn,
        w: &mut WindowPolicy,
        now: SimTime,
        a: Seq,
        out: &mut TcpOutput,
    ) {
        if c.dupwnd() > 0 {
            c.set_inflation(0);
            if c.last_cwnd_action() == CwndAction::DupAck {
                c.exit_fast_recovery();
                // RFC 6582 §3.2 step 3 option (1): cwnd = min(ssthresh, FlightSize + 1).
                if c.cfg().newreno.exit_recovery_fix {
                    let d = w.exit_to_flight(c, c.maxseq() - a + 1);
                    c.apply_window(&d, now, out);
                }
            }
        }
        self.first_partial = false;
        let info = NewAck::before(c, a, AckKind::Normal);
        c.newack(now, a, out);
        new_ack_window(c, w, now, &info, out);
    }

    /// §6 partial ACK: timer, deflation arithmetic, advance, resend `a + 1`.
    fn partial_ack(
        &mut self,
        c: &mut Conn,
        w: &mut WindowPolicy,
        now: SimTime,
        a: Seq,
        out: &mut TcpOutput,
    ) {
        let nr = c.cfg().newreno;
        if !nr.partial_window_deflation {
            c.set_inflation(0);
        }
        // newreno_changes1_: restart the timer on the first partial ACK only ("impatient").
        if !nr.first_partial_timer_only || !self.first_partial {
            self.first_partial = true;
            c.newtimer(now, a);
        }
        if nr.partial_window_deflation {
            // Deflate by the k packets acknowledged, adding one back: from dupwnd_ first, the
            // rest from cwnd, which the window policy floors at min_cwnd (ns-2: 1).
            let k = a - c.last_ack();
            let from_cwnd = if c.dupwnd() > k {
                c.set_inflation(c.dupwnd() - (k - 1));
                0
            } else {
                let rest = k - c.dupwnd();
                c.set_inflation(1);
                rest
            };
            let d = w.deflate(c, from_cwnd as f64);
            c.apply_window(&d, now, out);
        }
        let info = NewAck::before(c, a, AckKind::Partial);
        // dupacks_ is not reset: later duplicates keep inflating.
        c.advance_partial_ack(a);
        c.end_timing_if_covered(a);
        c.output(a + 1, now, out);
        new_ack_window(c, w, now, &info, out);
    }
}

/// §6 "Sending": unlimited (maxburst_) with no duplicates, at most 2 per ACK in recovery.
pub fn send(c: &mut Conn, now: SimTime, out: &mut TcpOutput) {
    if c.dupacks() == 0 {
        c.send_much(now, c.cfg().max_burst, out);
    } else if c.dupacks() >= c.cfg().dupack_threshold {
        c.send_much(now, 2, out);
    }
}
