//! The congestion state of one sender (cwnd, ssthresh, `dupwnd`, `dupacks`, `recover`,
//! `last_cwnd_action`) and the window decision through which it changes.
//!
//! Why it sits at the bottom of `tcp/`: the connection (`conn`) owns a [`CongestionState`]
//! and applies [`WindowDecision`]s to it, and the policies above the connection (the loss
//! recovery in `recovery`, the window policy in `window`) read it and answer with decisions.
//! With these plain values below all of them, every import points one way: policies ->
//! connection -> congestion state, as in neqo's layered congestion controllers. This module
//! imports only `config` and `segment`, and knows no policy.
//!
//! Every field is private: the state changes only through methods named after the protocol
//! step they perform, and cwnd and ssthresh only in [`CongestionState::apply`].

use super::config::{TcpConfig, WindowOption};
use super::segment::Seq;

/// ns-2 `last_cwnd_action_`: what last changed the window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CwndAction {
    None,
    DupAck,
    Timeout,
    /// An ECN-Echo halved the window (ns-2 `CWND_ACTION_ECN`, `TcpAgent::ecn`).
    Ecn,
    Exited,
}

/// What ns-2 `slowdown(how)` does to ssthresh and cwnd (tcp-spec §2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slowdown {
    /// `CLOSE_SSTHRESH_HALF | CLOSE_CWND_HALF` (Reno, NewReno, Sack1 fast retransmit).
    HalveBoth,
    /// `CLOSE_SSTHRESH_HALF | CLOSE_CWND_ONE` (Tahoe fast retransmit).
    HalveSsthreshCwndOne,
    /// `CLOSE_SSTHRESH_HALF | CLOSE_CWND_RESTART` (timeout; `wnd_restart_` = 1).
    HalveSsthreshRestart,
    /// `CLOSE_CWND_ONE` alone: ssthresh kept (a Tahoe fast retransmit or a timeout in the
    /// window an ECN-Echo already halved: ns-2 `dupack_action`, `timeout`).
    CwndOne,
}

impl Slowdown {
    /// Whether ns-2 `slowdown` assigns ssthresh (`CLOSE_SSTHRESH_HALF`).
    pub fn halves_ssthresh(self) -> bool {
        !matches!(self, Slowdown::CwndOne)
    }
}

/// A retransmission a window policy asks for (ns-2 Vegas's fine-grained checks, tcp-spec §9.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Retransmit {
    pub seq: Seq,
    /// Open a loss reaction first: `recover = maxseq`, `last_cwnd_action = DUPACK`, so the
    /// one-reaction-per-window rule (bugFix_) covers it.
    pub opens_reaction: bool,
    /// ns-2 `reset_rtx_timer(1, 1)` before resending: back off and restart the coarse timer
    /// and stop RTT timing, without go-back-N (Vegas quirk (i), tcp-spec §9.2).
    pub backs_off_timer: bool,
    /// Whether and when to set `dupacks_` to the threshold, so that further duplicates
    /// inflate and the send rule (`dupacks == 0 || dupacks >= 3`) lets packets out (ns-2
    /// Vegas).
    pub hold_dupacks: DupacksHold,
}

/// When a Vegas retransmission holds `dupacks_` at the threshold (ns-2 `VegasTcpAgent::recv`):
/// its new-ACK check sets it before it resends, its duplicate-ACK check after. Sending does
/// not read it; a traced `dupacks_` shows the order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DupacksHold {
    No,
    BeforeResend,
    AfterResend,
}

/// What a window policy answers: a decision, not an action. The policy reads the connection
/// and says what the window should become after one of its hooks and whether (and what) to
/// retransmit; the connection applies the answer (`Conn::apply_window`), the one place where
/// cwnd and ssthresh change. This keeps recovery state (`dupacks`, `recover`,
/// `last_cwnd_action`) and output in the connection and the recovery policy (DESIGN 6).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WindowDecision {
    pub cwnd: f64,
    pub ssthresh: f64,
    pub retransmit: Option<Retransmit>,
}

impl WindowDecision {
    /// Keep the window as it is (the starting point every policy edits).
    pub fn hold(s: &CongestionState) -> Self {
        WindowDecision {
            cwnd: s.cwnd,
            ssthresh: s.ssthresh,
            retransmit: None,
        }
    }
}

/// The window and the loss-recovery bookkeeping of one sender (ns-2 names).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CongestionState {
    /// Congestion window in packets (ns-2 `cwnd_`, a double).
    cwnd: f64,
    /// ns-2 `ssthresh_` (an int in ns-2; integer-valued here unless `min_ssthresh` is not).
    ssthresh: f64,
    /// Reno/NewReno window inflation during fast recovery (ns-2 `dupwnd_`).
    dupwnd: i64,
    /// ns-2 `initial_window()`: cwnd after the SYN is acknowledged; drops to 1 if the SYN
    /// timed out.
    window_init: f64,
    /// ns-2 `wnd_init_` (`windowInit_`), what a window chosen from the segment size falls
    /// back to after such a timeout.
    window_init_static: f64,
    /// ns-2 `wnd_init_option_` is 2 (the window from the segment size).
    by_size: bool,
    dupacks: u32,
    /// ns-2 `recover_`: `maxseq` at the last loss reaction (0 initially).
    recover: Seq,
    last_cwnd_action: CwndAction,
    /// ns-2 `first_decrease_`: no `slowdown` has cut the window yet (the first cut halves
    /// whatever `decrease_num_`).
    first_decrease: bool,
}

impl CongestionState {
    pub fn new(cfg: &TcpConfig) -> Self {
        CongestionState {
            // ns-2 `set_initial_window`: cwnd 1 until the SYN is acknowledged when `syn_`
            // (with `delay_growth_`, also for Vegas), else `windowInit_`.
            cwnd: if cfg.syn && cfg.delay_growth {
                1.0
            } else {
                cfg.initial_window()
            },
            // tcp-spec §0: initial ssthresh = window_.
            ssthresh: cfg.window as f64,
            dupwnd: 0,
            window_init: cfg.initial_window(),
            window_init_static: f64::from(cfg.window_init),
            by_size: cfg.window_init_by_size,
            dupacks: 0,
            recover: 0,
            last_cwnd_action: CwndAction::None,
            first_decrease: true,
        }
    }

    pub fn cwnd(&self) -> f64 {
        self.cwnd
    }
    pub fn ssthresh(&self) -> f64 {
        self.ssthresh
    }
    pub fn dupwnd(&self) -> i64 {
        self.dupwnd
    }
    pub fn window_init(&self) -> f64 {
        self.window_init
    }
    pub fn dupacks(&self) -> u32 {
        self.dupacks
    }
    pub fn recover(&self) -> Seq {
        self.recover
    }
    pub fn last_cwnd_action(&self) -> CwndAction {
        self.last_cwnd_action
    }

    /// Usable window in packets: ns-2 `window()`, `min(floor(cwnd) + dupwnd, window_)`.
    pub fn window(&self, cfg: &TcpConfig) -> Seq {
        (crate::sim::time::floor_f64(self.cwnd) as Seq + self.dupwnd).min(cfg.window as Seq)
    }

    /// ns-2 `windowd()`: `min(cwnd + dupwnd, window_)` as a real number.
    pub fn windowd(&self, cfg: &TcpConfig) -> f64 {
        (self.cwnd + self.dupwnd as f64).min(cfg.window as f64)
    }

    /// ns-2 `slowdown(how)` (tcp-spec §2) as a decision: with `precision_reduce` the window
    /// is cut as a real number (cwnd may become 7.5), else as whole packets of `window()`;
    /// ssthresh is that cut truncated, at least `min_ssthresh` (ns-2: 2); "cwnd to one" and
    /// "restart" set cwnd to `min_cwnd` (ns-2: 1, `wnd_restart_`). The cut is a half
    /// (`halfwin`) or, with another `decrease_num` or the binomial rule, `decreasewin`
    /// ([`Self::slowdown_ssthresh`], [`Self::slowdown_cwnd`]).
    pub fn slowdown(&self, how: Slowdown, cfg: &TcpConfig) -> WindowDecision {
        WindowDecision {
            cwnd: match how {
                Slowdown::HalveBoth => self.slowdown_cwnd(cfg),
                Slowdown::HalveSsthreshCwndOne
                | Slowdown::HalveSsthreshRestart
                | Slowdown::CwndOne => cfg.min_cwnd,
            },
            ssthresh: match self.slowdown_ssthresh(how, cfg) {
                Some(cut) => cut.max(cfg.min_ssthresh),
                None => self.ssthresh.max(cfg.min_ssthresh),
            },
            retransmit: None,
        }
    }

    /// ns-2 `slowdown`'s `halfwin`: half the window, `windowd() / 2` with
    /// `precisionReduce_`, else `(int)(window() / 2)`.
    fn halfwin(&self, cfg: &TcpConfig) -> f64 {
        if cfg.precision_reduce {
            self.windowd(cfg) / 2.0
        } else {
            (self.window(cfg) / 2) as f64
        }
    }

    /// ns-2 `slowdown`'s `decreasewin`: the window after a non-first cut. Standard increase:
    /// `decrease_num_ * W`; binomial (`windowOption_ 6`): `W - (1 - decrease_num_) * W^l`.
    /// W is `windowd()` with `precisionReduce_`, else `window()` and the result truncated.
    fn decreasewin(&self, cfg: &TcpConfig) -> f64 {
        let w = if cfg.precision_reduce {
            self.windowd(cfg)
        } else {
            self.window(cfg) as f64
        };
        let cut = match cfg.window_option {
            WindowOption::Standard => cfg.decrease_num * w,
            WindowOption::Binomial { l, .. } => w - (1.0 - cfg.decrease_num) * w.powf(l),
        };
        if cfg.precision_reduce {
            cut
        } else {
            cut.trunc()
        }
    }

    /// ns-2 "we are in slowstart for sure if cwnd < ssthresh", read by `slowdown` first.
    fn in_slow_start(&self) -> bool {
        self.cwnd < self.ssthresh
    }

    /// The ssthresh ns-2 `slowdown(how)` assigns before raising it to 2 (`CLOSE_SSTHRESH_HALF`;
    /// None when `how` keeps ssthresh): `(int) halfwin` for the first cut, in slow start or
    /// after a timeout (`last_cwnd_action_` TIMEOUT, set before a timeout's `slowdown`),
    /// else `(int) decreasewin`.
    pub fn slowdown_ssthresh(&self, how: Slowdown, cfg: &TcpConfig) -> Option<f64> {
        if !how.halves_ssthresh() {
            return None;
        }
        let halve = self.first_decrease
            || self.in_slow_start()
            || self.last_cwnd_action == CwndAction::Timeout;
        let cut = if halve {
            self.halfwin(cfg)
        } else {
            self.decreasewin(cfg)
        };
        Some(cut.trunc())
    }

    /// The cwnd ns-2 `slowdown(CLOSE_CWND_HALF)` leaves: `halfwin` for the first cut, in slow
    /// start or with `decrease_num_` 0.5 (even with the binomial rule), else `decreasewin`.
    pub fn slowdown_cwnd(&self, cfg: &TcpConfig) -> f64 {
        if self.first_decrease || self.in_slow_start() || cfg.decrease_num == 0.5 {
            self.halfwin(cfg)
        } else {
            self.decreasewin(cfg)
        }
    }

    /// ns-2 `slowdown` ends with `first_decrease_ = 0`: every later cut may use
    /// `decrease_num_`.
    pub fn note_decrease(&mut self) {
        self.first_decrease = false;
    }

    /// Set the window a decision asks for (its retransmission is the connection's to send).
    pub fn apply(&mut self, d: &WindowDecision) {
        self.cwnd = d.cwnd;
        self.ssthresh = d.ssthresh;
    }

    // Named protocol steps on the recovery state (tcp-spec §2, §4-§7 vocabulary).

    /// A loss reaction starts (fast retransmit or timeout) with `maxseq` the highest packet
    /// sent: ns-2 `recover_ = maxseq_` and `last_cwnd_action_`, which the
    /// one-reaction-per-window rule (bugFix_) reads.
    pub fn open_loss_reaction(&mut self, action: CwndAction, maxseq: Seq) {
        self.recover = maxseq;
        self.last_cwnd_action = action;
    }

    /// `last_cwnd_action_` without moving `recover_` (the duplicate ACKs that follow an ECN
    /// reaction in the same window: ns-2 `dupack_action`).
    pub fn note_cwnd_action(&mut self, action: CwndAction) {
        self.last_cwnd_action = action;
    }

    /// `recover_ = maxseq_` without a cwnd action (Reno/NewReno/Sack1 timeout bookkeeping).
    pub fn move_recover_to(&mut self, maxseq: Seq) {
        self.recover = maxseq;
    }

    /// ns-2 Sack1 leaves recovery with `recover_ = 0` (tcp-spec §7.3).
    pub fn clear_recover(&mut self) {
        self.recover = 0;
    }

    /// Fast recovery is over (ns-2 `last_cwnd_action_ = CWND_ACTION_EXITED`, exitFastRetrans_).
    pub fn exit_fast_recovery(&mut self) {
        self.last_cwnd_action = CwndAction::Exited;
    }

    /// One more duplicate ACK; returns the count.
    pub fn count_dup_ack(&mut self) -> u32 {
        self.dupacks += 1;
        self.dupacks
    }

    /// A timeout forgets the duplicates seen (tcp-spec §5 "Timeout", §7.3); so does a new ACK.
    pub fn forget_dup_acks(&mut self) {
        self.dupacks = 0;
    }

    /// Hold `dupacks_` at the threshold after a Vegas retransmission (tcp-spec §9.2).
    pub fn set_dup_acks(&mut self, dupacks: u32) {
        self.dupacks = dupacks;
    }

    /// Set the fast-recovery inflation `dupwnd_` (Reno/NewReno: the threshold on entry, 0 on
    /// exit, NewReno's partial-ACK deflation arithmetic).
    pub fn set_inflation(&mut self, dupwnd: i64) {
        self.dupwnd = dupwnd;
    }

    /// Fast recovery: one more packet has left the network (tcp-spec §5 `dupwnd_++`).
    pub fn inflate_one(&mut self) {
        self.dupwnd += 1;
    }

    /// The SYN itself timed out (ns-2 `TcpAgent::timeout`, tcp-spec §2): a window chosen
    /// from the segment size (`wnd_init_option_` 2) goes back to `windowInit_`, the option to
    /// 1 ("first packet dropped, so don't use larger initial windows"); else, with
    /// `bugfix_ss_`, `windowInit_` drops to 1.
    pub fn syn_timed_out(&mut self, bugfix_ss: bool) {
        if self.by_size {
            self.by_size = false;
            self.window_init = self.window_init_static;
        } else if bugfix_ss {
            self.window_init = 1.0;
        }
    }
}
