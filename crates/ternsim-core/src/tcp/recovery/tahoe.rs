//! Tahoe recovery, ns-2 `Agent/TCP` (tcp-spec §4): on the 3rd duplicate ACK halve ssthresh,
//! set cwnd to one and go back N from `highest_ack + 1`; no fast recovery.

use super::new_window;
use crate::sim::SimTime;
use crate::tcp::conn::{Conn, CwndAction, Slowdown};
use crate::tcp::output::{TcpEvent, TcpOutput};
use crate::tcp::segment::Seq;
use crate::tcp::window::{AckKind, DupAckVerdict, LossEvent, NewAck, WindowPolicy};

pub fn on_ack(c: &mut Conn, w: &mut WindowPolicy, now: SimTime, a: Seq, out: &mut TcpOutput) {
    let thresh = c.cfg.dupack_threshold;
    if a > c.last_ack {
        // §4 step 1: newack + opencwnd (+ the packet-0 rule, in the window policy).
        let info = NewAck::before(c, a, AckKind::Normal);
        c.newack(now, a, out);
        w.on_new_ack(c, now, &info, out);
    } else if a == c.last_ack {
        // §4 step 2.
        c.dupacks += 1;
        if w.on_dup_ack(c, now, out) == DupAckVerdict::Pass {
            if c.dupacks == thresh {
                dupack_action(c, w, now, out);
            } else if c.dupacks < thresh && c.cfg.limited_transmit {
                c.send_one(now, out);
            }
        }
    }
    // §4 step 4: always try to send.
    c.send_much(now, c.cfg.max_burst, out);
}

/// §4 step 2, `dupacks_ == 3`: once per window (bugFix_), slow start again from the hole.
fn dupack_action(c: &mut Conn, w: &mut WindowPolicy, now: SimTime, out: &mut TcpOutput) {
    if !new_window(c) {
        return;
    }
    c.recover = c.maxseq;
    c.last_cwnd_action = CwndAction::DupAck;
    w.on_loss(
        c,
        now,
        LossEvent::FastRetransmit(Slowdown::HalveSsthreshCwndOne),
    );
    // reset_rtx_timer(0, 0): restart without backoff, stop timing, t_seqno = highest_ack + 1;
    // the send loop then resends the hole.
    c.reset_rtx_timer(now, false, false, out);
    c.stats.fast_retransmits += 1;
    out.event(TcpEvent::FastRetransmit { seq: c.t_seqno });
}
