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
//!
//! This module holds the state and the window arithmetic of a cut; the connection (`conn`)
//! runs the steps, as it owns the sequence numbers, the estimator and the window.

use super::congestion::WindowDecision;
use super::segment::Seq;

/// The option's state (ns-2 names in the comments), in clock ticks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Quiescence {
    /// `T_last`: the tick of the last send.
    pub(crate) t_last: i64,
    /// `T_prev`: the tick the window was last full (or last cut for being unused).
    pub(crate) t_prev: i64,
    /// `W_used`: the largest window used since then, in packets.
    pub(crate) w_used: Seq,
    /// RTT counter (`EnblRTTCtr_`): `T_start`, the tick the current count began.
    pub(crate) t_start: i64,
    /// `RTT_count`: rounds counted since `T_start`.
    pub(crate) rtt_count: i64,
    /// `RTT_prev`: the count when the window was last full or cut.
    pub(crate) rtt_prev: i64,
    /// `RTT_goodcount`: rounds per two srtt ticks (at least 1).
    pub(crate) rtt_goodcount: i64,
    /// `F_counting`: a packet is being timed for the count.
    pub(crate) counting: bool,
    /// `W_timed`: the packet timed.
    pub(crate) w_timed: Seq,
    /// `F_full`: the window was full during the count.
    pub(crate) full: bool,
    /// `Backoffs`: application-limited cuts since the last idle spell.
    pub(crate) backoffs: i64,
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
