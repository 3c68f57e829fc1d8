//! The TCP sender: ns-2's one-way agents (tcp-spec §0-§9) as one sans-IO state machine.
//!
//! Owns, through [`Conn`]: the packet-counted sequence space, the
//! retransmission timer, RTT sampling and the RTO estimator (`super::rto`), and the send
//! loop. Behaviour varies along two composed axes, both closed enums dispatched by `match`
//! (no trait objects, no allocation per packet):
//! - loss recovery (`super::recovery`): Tahoe, Reno, NewReno, Sack1 (ns-2's scoreboard with
//!   a pipe counter), FACK and SACK with Rate-Halving (ns-2's per-packet scoreboard);
//! - window policy (`super::window`): AIMD (with `increase_num`, so FeW is NewReno + AIMD
//!   with alpha), Vegas and Vegas-W, called through hooks at well-named moments (ACK received, new
//!   ACK, duplicate ACK, loss, own timer) and answering with decisions.
//!
//! The variant table (`super::variant`) says which of each a variant uses. At the end of every
//! call the sender lets the window policy's pacer send one packet when a window below one
//! packet makes one due (`super::window::pacing`); the pacing deadline is part of
//! [`TcpSender::next_timer`].
//!
//! The host hands it `now` and ACKs, drains [`TcpOutput`] after each call and wakes it at
//! [`TcpSender::next_timer`]. Window trace events are emitted once per call when cwnd or
//! ssthresh ended the call different from where it started.

use super::config::TcpConfig;
use super::conn::{Conn, DelayedSend};
use super::output::{TcpEvent, TcpOutput};
use super::recovery::Recovery;
use super::segment::{AckSegment, Seq};
use super::window::WindowPolicy;
use crate::sim::SimTime;

/// The counters' type, where callers of [`TcpSender::stats`] have always found it.
pub use super::conn::SenderStats;

#[derive(Clone, Debug)]
pub struct TcpSender {
    conn: Conn,
    recovery: Recovery,
    window: WindowPolicy,
    /// (cwnd, ssthresh, dupwnd) last reported in a Window event.
    reported: (f64, f64, i64),
}

impl TcpSender {
    /// `tick_phase` is ns-2's `boot_time`, uniform in [0, tick), drawn by the host.
    pub fn new(cfg: TcpConfig, tick_phase: SimTime) -> Self {
        let conn = Conn::new(cfg, tick_phase);
        let reported = (conn.cwnd(), conn.ssthresh(), conn.dupwnd());
        TcpSender {
            recovery: Recovery::for_config(&cfg),
            window: WindowPolicy::for_config(&cfg),
            conn,
            reported,
        }
    }

    pub fn config(&self) -> &TcpConfig {
        self.conn.cfg()
    }

    /// Total application data packets (`None` = unlimited FTP). When packet 0 is an emulated
    /// SYN it comes on top (ns-2 `curseq_ + 1`); ns-2 Vegas sends no SYN, so its packet 0 is
    /// the first of the `limit` data packets.
    pub fn set_app_packets(&mut self, limit: Option<u64>) {
        self.conn.set_app_limit(limit);
    }

    /// The application offers `packets` more data packets (ns-2 `advanceby`), as a
    /// trace-driven source does; sends what the window allows. No effect when unlimited.
    pub fn add_app_packets(&mut self, now: SimTime, packets: u64, out: &mut TcpOutput) {
        if self.conn.offer_app_packets(packets) {
            let burst = self.conn.cfg().max_burst;
            self.conn.send_much(now, burst, out);
        }
        self.finish_call(now, out);
    }

    /// ns-2 FTP `produce N` (`more` false: `advance N`) or `producemore N` (`advanceby N`):
    /// the application's offer changes, then `send_much` sends what the window allows.
    pub fn produce(&mut self, now: SimTime, packets: u64, more: bool, out: &mut TcpOutput) {
        if more {
            self.conn.app_advance_by(packets);
        } else {
            self.conn.app_advance(packets);
        }
        let burst = self.conn.cfg().max_burst;
        self.conn.send_much(now, burst, out);
        self.finish_call(now, out);
    }

    /// The application starts: send what the window allows.
    pub fn start(&mut self, now: SimTime, out: &mut TcpOutput) {
        let burst = self.conn.cfg().max_burst;
        self.conn.send_much(now, burst, out);
        self.finish_call(now, out);
    }

    /// The application starts again after a stop (ns-2 FTP `start`, `send -1`): the
    /// application offers unlimited data again, and the window's worth goes out.
    pub fn resume(&mut self, now: SimTime, out: &mut TcpOutput) {
        self.conn.resume_new_data(None);
        self.start(now, out);
    }

    /// No new data after this (packets already sent may still be retransmitted).
    pub fn stop_new_data(&mut self) {
        self.conn.stop_new_data();
    }

    pub fn on_ack(&mut self, now: SimTime, ack: &AckSegment, out: &mut TcpOutput) {
        self.conn.count_ack_received();
        self.conn.set_ack_ts_echo(ack.ts_echo);
        self.window.on_ack_signal(ack.sig);
        self.window.on_ack_received(&self.conn, now);
        self.recovery
            .on_ack(&mut self.conn, &mut self.window, now, ack, out);
        self.finish_call(now, out);
    }

    /// The sender's node changed (or cancelled) its care-of address (Demo-Vegas re-measures
    /// BaseRTT; other variants ignore it).
    pub fn on_care_of_change(&mut self) {
        self.window.on_local_care_of_change();
    }

    /// Times Demo-Vegas re-measured BaseRTT (0 for other variants).
    pub fn base_rtt_remeasures(&self) -> u64 {
        self.window.demo_vegas().map_or(0, |d| d.remeasures())
    }

    /// Vegas's BaseRTT in seconds (Vegas, Vegas-W, Demo-Vegas), 1e9 before any sample.
    pub fn base_rtt(&self) -> Option<f64> {
        self.window.vegas().map(|v| v.base_rtt())
    }

    /// Handle whatever timers are due at `now`.
    pub fn on_timer(&mut self, now: SimTime, out: &mut TcpOutput) {
        if self.conn.rtx_deadline().is_some_and(|d| d <= now) {
            self.conn.cancel_rtx_timer();
            self.recovery
                .on_timeout(&mut self.conn, &mut self.window, now, out);
        }
        if self.window.timer_deadline().is_some_and(|d| d <= now) {
            self.window.on_timer(&self.conn, now);
            self.recovery.send(&mut self.conn, now, out);
        }
        if matches!(self.conn.delayed_send(), DelayedSend::Armed(t) if t <= now) {
            // ns-2 `TcpAgent::timeout(TCP_TIMER_DELSND)`: `send_much(1, ...)`.
            self.conn.delayed_send_fired();
            let burst = self.conn.cfg().max_burst;
            self.conn.send_much_with(now, burst, true, out);
        }
        self.finish_call(now, out);
    }

    /// Earliest pending deadline: the retransmission timer, the window policy's own timer
    /// (the pacing deadline) or the delayed-send timer (`overhead_`).
    pub fn next_timer(&self) -> Option<SimTime> {
        let delsnd = match self.conn.delayed_send() {
            DelayedSend::Armed(t) => Some(t),
            DelayedSend::Idle | DelayedSend::Requested => None,
        };
        // Two explicit comparisons, not the minimum of a flattened array of the three: asked
        // after every call into the sender, once or twice per ACK (perf: a 1000 s wired run,
        // 1,050.8 M instructions before, 1,040.8 M after).
        earlier(
            earlier(self.conn.rtx_deadline(), self.window.timer_deadline()),
            delsnd,
        )
    }

    /// The send loop asked for its delayed-send timer during the last call (ns-2
    /// `overhead_`): the host draws the delay, uniform in [0, overhead) (ns-2
    /// `Random::uniform(overhead_)`, from ns-2's default RNG when it replays it), and arms
    /// it with [`Self::arm_delayed_send`]. Returns `overhead`.
    pub fn delayed_send_requested(&self) -> Option<SimTime> {
        (self.conn.delayed_send() == DelayedSend::Requested).then_some(self.conn.cfg().overhead)
    }

    /// Arm the delayed-send timer the last call asked for, to expire at `at`.
    pub fn arm_delayed_send(&mut self, at: SimTime) {
        self.conn.arm_delayed_send(at);
    }

    pub fn cwnd(&self) -> f64 {
        self.conn.cwnd()
    }

    pub fn ssthresh(&self) -> f64 {
        self.conn.ssthresh()
    }

    pub fn highest_ack(&self) -> Seq {
        self.conn.highest_ack()
    }

    pub fn stats(&self) -> SenderStats {
        self.conn.stats()
    }

    /// The connection state a host may read during the run (ns-2's bound variables).
    pub fn conn(&self) -> &Conn {
        &self.conn
    }

    /// ns-2 `$tcp set window_ W` during the run: the new bound applies from the next send
    /// decision (the next ACK or timer), as in ns-2, where writing the variable sends nothing.
    pub fn set_window(&mut self, window: u32) {
        self.conn.set_window(window);
    }

    /// ns-2 `$tcp trace VAR` (with a channel attached): report `var`'s changes from now on in
    /// [`TcpOutput::var_changes`]; returns its value now, which ns-2 writes at once.
    pub fn trace_var(&mut self, var: super::traced::TracedVar) -> f64 {
        self.conn.trace_var(var)
    }

    /// End of every call: send the paced packet if one is due (and re-arm the pacer), drop
    /// the send records of acknowledged packets, report a window change.
    fn finish_call(&mut self, now: SimTime, out: &mut TcpOutput) {
        if self.window.paced_packet_due(&self.conn, now) {
            self.conn.send_paced(now, out);
            self.window.paced_packet_sent(now);
            // Plan the next one (the deadline is one interval away, so nothing is due now).
            self.window.paced_packet_due(&self.conn, now);
        }
        self.conn.prune_records();
        self.conn.trace_checkpoint(out);
        let now = (self.conn.cwnd(), self.conn.ssthresh(), self.conn.dupwnd());
        if now != self.reported {
            self.reported = now;
            out.event(TcpEvent::Window {
                cwnd: now.0,
                ssthresh: now.1,
                dupwnd: now.2,
            });
        }
    }

    #[cfg(test)]
    pub(crate) fn conn_mut(&mut self) -> &mut Conn {
        &mut self.conn
    }
    /// Test fixture: [`Conn::warp`], with the forward ACK of FACK and Rate-Halving placed at
    /// the cumulative ACK, where their ACKs would have left it.
    #[cfg(test)]
    pub(crate) fn warp(&mut self, highest_ack: Seq, cwnd: f64, ssthresh: f64) {
        self.conn.warp(highest_ack, cwnd, ssthresh);
        match &mut self.recovery {
            Recovery::Fack(f) => f.warp(highest_ack),
            Recovery::SackRh(r) => r.warp(highest_ack),
            _ => {}
        }
    }
    #[cfg(test)]
    pub(crate) fn window_policy(&self) -> &WindowPolicy {
        &self.window
    }
    #[cfg(test)]
    pub(crate) fn window_policy_mut(&mut self) -> &mut WindowPolicy {
        &mut self.window
    }
    #[cfg(test)]
    pub(crate) fn conn_and_window_mut(&mut self) -> (&Conn, &mut WindowPolicy) {
        (&self.conn, &mut self.window)
    }
    #[cfg(test)]
    pub(crate) fn recovery(&self) -> &Recovery {
        &self.recovery
    }
}

/// The earlier of two optional deadlines (`None` is no deadline).
#[inline]
fn earlier(a: Option<SimTime>, b: Option<SimTime>) -> Option<SimTime> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.min(y)),
        (x, None) => x,
        (None, y) => y,
    }
}
