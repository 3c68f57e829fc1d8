//! Tahoe recovery, ns-2 `Agent/TCP` (tcp-spec §4): on the 3rd duplicate ACK halve ssthresh,
//! set cwnd to `min_cwnd` (ns-2: one) and go back N from `highest_ack + 1`; no fast recovery.

use super::base::{
    dup_ack_passed, loss_window, new_ack_window, new_window, repeat_reaction, RepeatReaction,
};
use crate::sim::SimTime;
use crate::tcp::congestion::{CwndAction, Slowdown};
use crate::tcp::conn::Conn;
use crate::tcp::output::{Ns2EventKind, TcpOutput};
use crate::tcp::segment::Seq;
use crate::tcp::window::hooks::{AckKind, LossEvent, NewAck};
use crate::tcp::window::WindowPolicy;

pub fn on_ack(c: &mut Conn, w: &mut WindowPolicy, now: SimTime, a: Seq, out: &mut TcpOutput) {
    let thresh = c.cfg().dupack_threshold;
    if a > c.last_ack() {
        // §4 step 1: newack + opencwnd (+ the packet-0 rule, in the window policy).
        let info = NewAck::before(c, a, AckKind::Normal);
        c.newack(now, a, out);
        new_ack_window(c, w, now, &info, out);
        // `QOption_`: everything acknowledged, the timer stops.
        c.quiescence_after_new_ack();
    } else if a == c.last_ack() {
        // §4 step 2.
        let dupacks = c.count_dup_ack();
        if dup_ack_passed(c, w, now, out) {
            // ns-2 `noFastRetrans_`: the threshold passes without a reaction.
            if dupacks == thresh && !c.cfg().no_fast_retrans {
                dupack_action(c, w, now, out);
            } else if dupacks < thresh && c.cfg().limited_transmit {
                c.send_one(now, out);
            }
        }
    }
    // `QOption_` with `EnblRTTCtr_`: the round count.
    c.quiescence_after_ack(a);
    // §4 step 4: always try to send.
    c.send_much(now, c.cfg().max_burst, out);
}

/// §4 step 2, `dupacks_ == 3`: once per window (bugFix_), slow start again from the hole.
/// In the window an ECN-Echo halved, go back N with cwnd 1 and ssthresh kept (ns-2
/// `TcpAgent::dupack_action`'s ECN branch: no FAST_RETX event, `recover_` not moved).
fn dupack_action(c: &mut Conn, w: &mut WindowPolicy, now: SimTime, out: &mut TcpOutput) {
    if !new_window(c) {
        match repeat_reaction(c) {
            RepeatReaction::AfterEcn => {
                c.note_cwnd_action(CwndAction::DupAck);
                loss_window(c, w, now, LossEvent::Ecn(Slowdown::CwndOne), out);
                c.reset_rtx_timer(now, false, false, out);
                c.count_fast_retransmit(c.t_seqno(), out);
                return;
            }
            RepeatReaction::Refused => return,
            RepeatReaction::Allowed => {}
        }
    }
    // Event trace: FAST_RETX before the window changes (ns-2 `TcpAgent::dupack_action`).
    c.trace_ns2_event(Ns2EventKind::FastRetx, out);
    c.open_loss_reaction(CwndAction::DupAck);
    loss_window(
        c,
        w,
        now,
        LossEvent::FastRetransmit(Slowdown::HalveSsthreshCwndOne),
        out,
    );
    // reset_rtx_timer(0, 0): restart without backoff, stop timing, t_seqno = highest_ack + 1;
    // the send loop then resends the hole.
    c.reset_rtx_timer(now, false, false, out);
    c.count_fast_retransmit(c.t_seqno(), out);
}
