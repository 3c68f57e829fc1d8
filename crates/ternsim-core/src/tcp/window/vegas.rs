//! Vegas window policy, ns-2 `Agent/TCP/Vegas` exactly (tcp-spec §9.2; Brakmo and Peterson,
//! SIGCOMM 1994 / JSAC 1995).
//!
//! Owns: BaseRTT, the per-RTT measurement (`v_begseq_`, `v_begtime_`, sum and count of
//! fine-grained samples), the per-ACK increment `v_incr_` and the every-other-RTT flag, the
//! fine-grained RTT estimator (`v_sa_`, `v_sd_`, `v_timeout_`), and the loss state
//! (`v_worried_`, `v_newcwnd_`, `t_cwnd_changed_`).
//!
//! It composes with the Reno recovery policy (the variant table), whose new-ACK and timeout
//! bookkeeping it shares, and claims every duplicate ACK through the `on_dup_ack` hook: ns-2
//! Vegas retransmits on the first duplicate whose packet has outstayed the fine-grained timeout
//! (or on the 3rd), cuts to `win − floor(win/4)` at most once per window of data, inflates
//! cwnd itself, backs off the coarse timer, and has no Limited Transmit. It does all of that
//! by returning decisions ([`WindowDecision`] with a [`Retransmit`]); the connection applies
//! them. The window floor (ns-2: 2) is `min_cwnd`, the ssthresh it resets to `min_ssthresh`. Send records (time, transmissions) come
//! from the shared connection state. All times are seconds since the first transmission
//! (ns-2 `vegastime()`), as f64, so the float arithmetic matches ns-2's.
//!
//! The measurement and loss machinery is shared with Vegas-W (`super::vegasw`), which owns a
//! `Vegas` and replaces only the per-RTT decision and the per-ACK growth: it calls
//! [`Vegas::start_new_ack`], [`Vegas::measure`] and [`Vegas::finish_new_ack`] around its own
//! rules, and the duplicate-ACK and timeout bookkeeping with its own window floor.
//!
//! ns-2 quirks kept (tcp-spec §9.2): the fine-grained path backs off the coarse RTO;
//! `rttLen <= 1` resets BaseRTT upward; after an RTO followed by more than three duplicates the
//! next new ACK sets cwnd to `v_newcwnd_ = 0`; initial ssthresh is `window_`.

use super::hooks::{DupAckDecision, LossEvent, NewAck};
use crate::sim::SimTime;
use crate::tcp::config::TcpConfig;
use crate::tcp::congestion::{CwndAction, DupacksHold, Retransmit, Slowdown, WindowDecision};
use crate::tcp::conn::Conn;
use crate::tcp::segment::Seq;
use crate::tcp::send_ring::Slot;

#[derive(Clone, Debug)]
pub struct Vegas {
    alpha: f64,
    beta: f64,
    gamma: f64,
    /// Minimum RTT seen (s); ns-2 initial 1e9.
    base_rtt: f64,
    /// Latest fine-grained sample (ns-2 `v_rtt_`, a trace).
    rtt: f64,
    /// 8·srtt and the mean deviation of the fine-grained estimator.
    sa: f64,
    sd: f64,
    /// Fine-grained timeout (ns-2 `v_timeout_`, initial 1000 s).
    timeout: f64,
    sum_rtt: f64,
    cnt_rtt: u32,
    /// First packet of the current measured RTT (`v_begseq_`), and when it was tagged.
    begseq: Seq,
    begtime: f64,
    /// Added to cwnd on each new ACK while the window is used (`v_incr_`).
    incr: f64,
    /// Slow start grows only every other RTT (`v_inc_flag_`).
    inc_flag: bool,
    /// Last throughput measurement, packets/s (`v_actual_`).
    actual: f64,
    /// New ACKs after a retransmission that still check the next packet (`v_worried_`).
    worried: i64,
    /// The reduced window a fast retransmission set, before inflation (`v_newcwnd_`).
    newcwnd: f64,
    /// When cwnd was last reduced (`t_cwnd_changed_`).
    t_cwnd_changed: f64,
    first_ack_seen: bool,
}

impl Vegas {
    pub fn new(cfg: &TcpConfig) -> Self {
        Vegas {
            alpha: cfg.vegas.alpha,
            beta: cfg.vegas.beta,
            gamma: cfg.vegas.gamma,
            base_rtt: 1e9,
            rtt: 0.0,
            sa: 0.0,
            sd: 0.0,
            timeout: 1000.0,
            sum_rtt: 0.0,
            cnt_rtt: 0,
            begseq: 0,
            begtime: 0.0,
            incr: 0.0,
            inc_flag: true,
            actual: 0.0,
            worried: 0,
            newcwnd: 0.0,
            t_cwnd_changed: 0.0,
            first_ack_seen: false,
        }
    }

    pub fn base_rtt(&self) -> f64 {
        self.base_rtt
    }

    /// Forgets BaseRTT (back to ns-2's initial 1e9 s), so the next RTT sample defines it
    /// (Demo-Vegas's re-measurement, `super::demo_vegas`).
    /// The samples gathered so far in the current per-RTT block are dropped too: they were
    /// taken on the old path, and the block's mean would otherwise become the new BaseRTT.
    pub fn forget_base_rtt(&mut self) {
        self.base_rtt = 1e9;
        self.sum_rtt = 0.0;
        self.cnt_rtt = 0;
    }
    pub fn fine_timeout(&self) -> f64 {
        self.timeout
    }
    pub fn incr(&self) -> f64 {
        self.incr
    }
    pub fn newcwnd(&self) -> f64 {
        self.newcwnd
    }
    pub fn last_rtt(&self) -> f64 {
        self.rtt
    }

    /// Test fixture: fine-grained estimator as after a first ACK and one sample of `rtt`
    /// (BaseRTT = rtt, v_timeout = 1.0625·(0.1375/0.1)·rtt), next per-RTT block at `begseq`.
    #[cfg(test)]
    pub fn prime(&mut self, rtt: f64, begseq: Seq) {
        self.first_ack_seen = true;
        self.init_estimator(rtt);
        self.fine_sample(rtt);
        self.sum_rtt = 0.0;
        self.cnt_rtt = 0;
        self.begseq = begseq;
    }

    /// Test fixture: as [`Vegas::prime`], with the current block tagged at `begtime` (s), so
    /// that an ACK of `begseq` with no sample in between measures `now − begtime`.
    #[cfg(test)]
    pub fn prime_at(&mut self, rtt: f64, begseq: Seq, begtime: f64) {
        self.prime(rtt, begseq);
        self.begtime = begtime;
    }

    /// ns-2 `vegastime()`: seconds since the first transmission.
    pub(super) fn vt(c: &Conn, t: SimTime) -> f64 {
        (t.saturating_sub(c.first_sent().unwrap_or(t))).as_secs_f64()
    }

    /// What ns-2 Vegas reads for packet `seq`: its slot of the send ring (`v_sendtime_`,
    /// `v_transmits_`, with their quirks: see [`crate::tcp::send_ring`]). A connection made
    /// mid-flow by a test fixture, which never sent packet 0, has no ring: its send records
    /// stand in (the packet's own time and count, None if it was not sent).
    fn send_slot(c: &Conn, seq: Seq) -> Option<Slot> {
        match c.send_ring() {
            Some(r) => Some(r.slot(seq)),
            None => Self::record_slot(c, seq),
        }
    }

    fn record_slot(c: &Conn, seq: Seq) -> Option<Slot> {
        c.record(seq).filter(|r| r.transmits > 0).map(|r| Slot {
            sent_at: Self::vt(c, r.sent_at),
            transmits: r.transmits,
        })
    }

    /// ns-2 `vegas_expire`: the slot's time is at least `v_timeout_` old (tcp-spec §9.2 dup
    /// ACK "expired", new ACK step 8). A cleared slot (time -1) always is.
    fn expired(&self, slot: Option<Slot>, now: f64) -> bool {
        slot.is_some_and(|s| now - s.sent_at >= self.timeout)
    }

    /// tcp-spec §9.2 "On the first ACK ever": initialise the fine-grained estimator from t1,
    /// the time from the first transmission to this ACK.
    pub fn on_ack_received(&mut self, c: &Conn, now: SimTime) {
        if !self.first_ack_seen {
            self.first_ack_seen = true;
            let t1 = Self::vt(c, now);
            self.init_estimator(t1);
        }
    }

    fn init_estimator(&mut self, t1: f64) {
        self.base_rtt = t1;
        self.rtt = t1;
        self.sa = 8.0 * t1;
        self.sd = t1;
        self.timeout = (self.sa / 4.0 + self.sd) / 2.0;
    }

    /// tcp-spec §9.2 step 7: one fine-grained sample r (s).
    fn fine_sample(&mut self, r: f64) {
        self.sum_rtt += r;
        self.cnt_rtt += 1;
        if r > 0.0 {
            self.rtt = r;
            if r < self.base_rtt {
                self.base_rtt = r;
            }
            let n = r - self.sa / 8.0;
            self.sa += n;
            self.sd += n.abs() - self.sd / 4.0;
            self.timeout = (self.sa / 4.0 + self.sd) / 2.0;
            self.timeout += self.timeout / 16.0;
        }
    }

    /// tcp-spec §9.2 "On a new ACK", steps 1, 2 and 4-8 (step 3, newack, was done by the
    /// recovery policy just before).
    pub fn on_new_ack(&mut self, c: &Conn, now: SimTime, a: &NewAck) -> WindowDecision {
        let t = Self::vt(c, now);
        let mut d = self.start_new_ack(c, a);
        // Step 4: once per RTT, when the tagged packet is acknowledged.
        if let Some(delta) = self.measure(c, a, t) {
            self.decide(&mut d, delta, c.cfg().min_cwnd, c.cfg().min_ssthresh);
        }
        // Step 5: slow-start increments stop at ssthresh.
        if self.incr == 1.0 && d.cwnd >= d.ssthresh {
            self.incr = 0.0;
        }
        // Step 6: grow only if the window is being used.
        if self.incr > 0.0 && Self::window_used(c, d.cwnd) {
            d.cwnd = c.capped(d.cwnd + self.incr);
        }
        self.finish_new_ack(c, a, t, &mut d);
        d
    }

    /// Steps 1 and 2 of a new ACK: the window it starts from.
    pub(super) fn start_new_ack(&self, c: &Conn, a: &NewAck) -> WindowDecision {
        let mut d = WindowDecision::hold(c.congestion());
        // Step 1: ns-2 tests `last_ack_ == 0` before processing, so cwnd = windowInit_ on the
        // first new ACK after ack 0.
        if a.prev_last_ack == 0 && c.cfg().delay_growth {
            d.cwnd = c.window_init();
        }
        // Step 2: deflate an inflated window only after more than dupthresh duplicates.
        if a.prev_dupacks > c.cfg().dupack_threshold && d.cwnd > self.newcwnd {
            d.cwnd = self.newcwnd;
            d.ssthresh = c.cfg().min_ssthresh;
        }
        d
    }

    /// Step 6's condition: the window is being used, `cwnd − (t_seqno − last_ack) <= 2`.
    pub(super) fn window_used(c: &Conn, cwnd: f64) -> bool {
        cwnd - (c.t_seqno() - c.last_ack()) as f64 <= 2.0
    }

    /// Steps 7 and 8 of a new ACK: the fine-grained sample and the check of the next packet
    /// after a retransmission, written into `d`.
    pub(super) fn finish_new_ack(&mut self, c: &Conn, a: &NewAck, t: f64, d: &mut WindowDecision) {
        // Step 7: fine-grained sample from packet `a` if it was sent exactly once (ns-2 reads
        // its slot before clearing the acknowledged ones, and skips a time of exactly 0).
        if let Some(s) = Self::send_slot(c, a.ack) {
            if s.transmits == 1 && (c.send_ring().is_none() || s.sent_at != 0.0) {
                self.fine_sample(t - s.sent_at);
            }
        }
        // Step 8: after a retransmission, the first one or two new ACKs check whether the next
        // packet has expired too (BP94 "new retransmission mechanism" (b)); ns-2 then sets
        // `dupacks_ = 3` so the send loop runs, without a new reaction or timer backoff. ns-2
        // reads the next packet's slot after this ACK cleared its own: a cleared slot, or one
        // still holding the packet a ring earlier, has expired, sent or not.
        if self.worried > 0 {
            self.worried -= 1;
            let next = a.ack + 1;
            let slot = match c.send_ring() {
                Some(r) => Some(r.slot_after_ack(a.prev_last_ack, a.ack, next)),
                None => Self::record_slot(c, next),
            };
            if self.expired(slot, t) {
                d.retransmit = Some(Retransmit {
                    seq: next,
                    opens_reaction: false,
                    backs_off_timer: false,
                    hold_dupacks: DupacksHold::BeforeResend,
                });
            } else {
                self.worried = 0;
            }
        }
    }

    /// tcp-spec §9.2 step 4: Expected vs Actual, delta in packets, and the decision for the
    /// next RTT, written into `d`.
    #[cfg(test)]
    fn per_rtt(&mut self, c: &Conn, d: &mut WindowDecision, t: f64) {
        if let Some(delta) = self.measure_block(c, t) {
            self.decide(d, delta, c.cfg().min_cwnd, c.cfg().min_ssthresh);
        }
    }

    /// Step 4's measurement, when `a` acknowledges the tagged packet (once per RTT): the mean
    /// RTT of the block, BaseRTT, Actual and Expected, and delta rounded to whole packets;
    /// then the next block is tagged. `None` when this ACK does not end a block or the block
    /// measured no time (ns-2 then decides nothing).
    pub(super) fn measure(&mut self, c: &Conn, a: &NewAck, t: f64) -> Option<f64> {
        if a.ack >= self.begseq {
            self.measure_block(c, t)
        } else {
            None
        }
    }

    fn measure_block(&mut self, c: &Conn, t: f64) -> Option<f64> {
        let rtt = if self.cnt_rtt > 0 {
            self.sum_rtt / self.cnt_rtt as f64
        } else {
            t - self.begtime
        };
        self.sum_rtt = 0.0;
        self.cnt_rtt = 0;
        let rtt_len = c.t_seqno() - self.begseq;
        let mut delta = None;
        if rtt > 0.0 {
            // ns-2: a single packet in flight (re)defines BaseRTT, even upward.
            if rtt < self.base_rtt || rtt_len <= 1 {
                self.base_rtt = rtt;
            }
            self.actual = rtt_len as f64 / rtt;
            // Expected uses the outstanding packets plus one (t_seqno − last_ack).
            let expect = (c.t_seqno() - c.last_ack()) as f64 / self.base_rtt;
            // Rounded to an integer as ns-2's int(x + 0.5) does (truncation toward zero).
            delta = Some(((expect - self.actual) * self.base_rtt + 0.5).trunc());
        }
        self.begseq = c.t_seqno();
        self.begtime = t;
        delta
    }

    /// ns-2 Vegas's per-RTT decision on `delta` (step 4, the slow-start and congestion-
    /// avoidance branches), floored at `min_cwnd`, resetting ssthresh to `min_ssthresh`.
    fn decide(&mut self, d: &mut WindowDecision, delta: f64, min_cwnd: f64, min_ssthresh: f64) {
        if d.cwnd < d.ssthresh {
            // Slow start: grow every other RTT; leave it when delta exceeds gamma, by
            // cutting 1/8 and resetting ssthresh to its floor (ns-2 `ssthresh_ = 2`).
            self.inc_flag = !self.inc_flag;
            if !self.inc_flag {
                self.incr = 0.0;
            } else if delta > self.gamma {
                d.ssthresh = min_ssthresh;
                d.cwnd -= d.cwnd / 8.0;
                if d.cwnd < min_cwnd {
                    d.cwnd = min_cwnd;
                }
                self.incr = 0.0;
            } else {
                self.incr = 1.0;
            }
        } else if delta > self.beta {
            // Congestion avoidance: too many packets queued → −1 once this RTT.
            d.cwnd -= 1.0;
            if d.cwnd < min_cwnd {
                d.cwnd = min_cwnd;
            }
            self.incr = 0.0;
        } else if delta < self.alpha {
            // Too few queued → +1 over the next RTT, 1/cwnd per ACK.
            self.incr = 1.0 / d.cwnd;
        } else {
            self.incr = 0.0;
        }
    }

    /// tcp-spec §9.2 "On a duplicate ACK". Always claims the duplicate (Vegas has its own
    /// detection and inflation and no Limited Transmit); `dupacks` was already incremented.
    pub fn on_dup_ack(&mut self, c: &Conn, now: SimTime) -> DupAckDecision {
        self.dup_ack(c, now, c.cfg().min_cwnd)
    }

    /// [`Vegas::on_dup_ack`] with the window floor `floor` for the reduction.
    pub(super) fn dup_ack(&mut self, c: &Conn, now: SimTime, floor: f64) -> DupAckDecision {
        let t = Self::vt(c, now);
        let thresh = c.cfg().dupack_threshold;
        let seq = c.last_ack() + 1;
        let slot = Self::send_slot(c, seq);
        let mut d = WindowDecision::hold(c.congestion());
        if self.expired(slot, t) || c.dupacks() == thresh {
            // One reaction per window unless the last action was a timeout (ns-2 Vegas's
            // variant of the bugFix_ rule).
            if c.highest_ack() > c.recover() || c.last_cwnd_action() != CwndAction::Timeout {
                self.worried = (c.t_seqno() - c.last_ack()).min(2);
                let transmits = slot.map_or(0, |s| s.transmits);
                // Back off the fine-grained timeout: ×2 for a re-retransmission, else ×9/8.
                if transmits > 1 {
                    self.timeout *= 2.0;
                } else {
                    self.timeout += self.timeout / 8.0;
                }
                // Reduce only if the packet was sent after the last reduction (BP94: losses
                // at an older, higher rate do not count twice).
                if let Some(s) = slot {
                    if self.t_cwnd_changed < s.sent_at {
                        self.newcwnd = reduced_window(c.window(), transmits > 1, floor);
                        d.cwnd = self.newcwnd + c.dupacks() as f64;
                        self.t_cwnd_changed = t;
                    }
                }
                // ssthresh is not changed. ns-2 `reset_rtx_timer(1, 1)`: the coarse timer is
                // backed off and restarted, timing stops, no go-back-N.
                d.retransmit = Some(Retransmit {
                    seq,
                    opens_reaction: true,
                    backs_off_timer: true,
                    hold_dupacks: if transmits == 1 {
                        DupacksHold::AfterResend
                    } else {
                        DupacksHold::No
                    },
                });
            }
        } else if c.dupacks() > thresh {
            // Inflation by one per further duplicate.
            d.cwnd += 1.0;
        }
        DupAckDecision::Claimed(d)
    }

    /// tcp-spec §9.2 "On RTO": ssthresh as every variant, then cwnd = `min_cwnd`
    /// (`v_slowstart_` = 2).
    pub fn on_loss(&mut self, c: &Conn, now: SimTime, e: LossEvent) -> WindowDecision {
        match e {
            // ECN is refused for the Vegas family; a plain `slowdown` if it came.
            LossEvent::FastRetransmit(how) | LossEvent::Ecn(how) => c.slowdown(how),
            // Vegas's timeout does the same with or without outstanding data
            // (slow_start_restart_ true).
            LossEvent::Timeout | LossEvent::IdleTimeout => {
                self.note_timeout(c, now);
                c.slowdown(Slowdown::HalveSsthreshRestart)
            }
        }
    }

    /// tcp-spec §9.2 "On RTO", the bookkeeping part: `v_newcwnd_ = 0`, `t_cwnd_changed_ = now`.
    pub(super) fn note_timeout(&mut self, c: &Conn, now: SimTime) {
        self.newcwnd = 0.0;
        self.t_cwnd_changed = Self::vt(c, now);
    }
}

/// tcp-spec §9.2: the window after a Vegas fast retransmission: 2 if `win <= 3`, half for a
/// re-retransmission, else `win − floor(win/4)` (BP94's 3/4).
///
/// ns-2 writes the small-window case as `win = 2`, its minimum window. With another minimum
/// (`min_cwnd`, the `ding-vegasw` seed's "minimum window 1") a small window still drops to 2
/// but is never raised: `max(floor, min(2, win))`. With ns-2's floor 2 that is exactly 2.
pub fn reduced_window(win: Seq, re_retransmission: bool, floor: f64) -> f64 {
    if win <= 3 {
        (win.min(2) as f64).max(floor)
    } else if re_retransmission {
        (win / 2) as f64
    } else {
        (win - win / 4) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tcp::config::{DefaultsProfile, TcpVariant};
    use crate::tcp::window::hooks::AckKind;

    /// tcp-spec §12 T6 "Fine-grained timeout": first ACK at 100 ms → 0.15 s; then samples
    /// 100, 120, 100 ms → 0.14609375, 0.1494140625, 0.140283203125 s.
    #[test]
    fn t6_fine_grained_timeout_values() {
        let cfg = TcpConfig::from_profile(TcpVariant::Vegas, DefaultsProfile::Ns2_35);
        let mut v = Vegas::new(&cfg);
        assert_eq!(v.fine_timeout(), 1000.0);
        v.init_estimator(0.1);
        assert!((v.fine_timeout() - 0.15).abs() < 1e-15);
        assert_eq!(v.base_rtt(), 0.1);
        for (r, expect) in [
            (0.1, 0.14609375),
            (0.12, 0.1494140625),
            (0.1, 0.140283203125),
        ] {
            v.fine_sample(r);
            assert!(
                (v.fine_timeout() - expect).abs() < 1e-12,
                "{}",
                v.fine_timeout()
            );
        }
        assert_eq!(v.last_rtt(), 0.1);
        assert_eq!(v.base_rtt(), 0.1);
    }

    /// A connection whose cumulative ACK is `last_ack` with packets up to `t_seqno − 1` sent.
    fn conn_at(cwnd: f64, ssthresh: f64, last_ack: Seq, t_seqno: Seq) -> Conn {
        let cfg = TcpConfig::from_profile(TcpVariant::Vegas, DefaultsProfile::Ns2_35);
        let mut c = Conn::new(cfg, SimTime::ZERO);
        c.warp_outstanding(last_ack, t_seqno, cwnd, ssthresh);
        c
    }

    /// BaseRTT 100 ms, one RTT measured with mean `rtt`, tagged at `begseq`.
    fn measured(cfg_rtt: f64, begseq: Seq) -> Vegas {
        let cfg = TcpConfig::from_profile(TcpVariant::Vegas, DefaultsProfile::Ns2_35);
        let mut v = Vegas::new(&cfg);
        v.base_rtt = 0.1;
        v.sum_rtt = cfg_rtt;
        v.cnt_rtt = 1;
        v.begseq = begseq;
        v
    }

    /// One per-RTT decision at t = 5 s, from the connection's window.
    fn per_rtt(v: &mut Vegas, c: &Conn) -> WindowDecision {
        let mut d = WindowDecision::hold(c.congestion());
        v.per_rtt(c, &mut d, 5.0);
        d
    }

    /// tcp-spec §12 T6 CA, cwnd 10, rttLen 10 (= t_seqno − last_ack): mean RTT 105 ms →
    /// delta 0 → v_incr 0.1; 150 ms → delta 3 → hold; 160 ms → delta 4 → cwnd 9.
    #[test]
    fn t6_congestion_avoidance_increase_hold_decrease() {
        let c = conn_at(10.0, 5.0, 30, 40);
        let mut v = measured(0.105, 30);
        let d = per_rtt(&mut v, &c);
        assert!((v.incr() - 0.1).abs() < 1e-15);
        assert_eq!(d.cwnd, 10.0);
        assert_eq!((v.begseq, v.begtime), (40, 5.0));

        let c = conn_at(10.0, 5.0, 30, 40);
        let mut v = measured(0.150, 30);
        v.incr = 0.1;
        let d = per_rtt(&mut v, &c);
        assert_eq!((v.incr(), d.cwnd), (0.0, 10.0));

        let c = conn_at(10.0, 5.0, 30, 40);
        let mut v = measured(0.160, 30);
        let d = per_rtt(&mut v, &c);
        assert_eq!((v.incr(), d.cwnd, d.ssthresh), (0.0, 9.0, 5.0));
    }

    /// tcp-spec §12 T6 SS, cwnd 8 < ssthresh 20, rttLen 8: on a growing RTT 120 ms → delta 1
    /// → v_incr 1; 130 ms → delta 2 > gamma → ssthresh 2, cwnd 8 − 8/8 = 7. The RTT between
    /// is frozen (v_incr 0).
    #[test]
    fn t6_slow_start_every_other_rtt_and_gamma_exit() {
        let c = conn_at(8.0, 20.0, 30, 38);
        let mut v = measured(0.120, 30);
        v.inc_flag = false;
        let d = per_rtt(&mut v, &c);
        assert_eq!((v.incr(), d.cwnd, d.ssthresh), (1.0, 8.0, 20.0));
        assert!(v.inc_flag);

        // The next block toggles back: frozen RTT whatever delta says.
        let c = conn_at(8.0, 20.0, 30, 38);
        let mut v = measured(0.130, 30);
        v.inc_flag = true;
        v.incr = 1.0;
        let d = per_rtt(&mut v, &c);
        assert_eq!((v.incr(), d.cwnd, d.ssthresh), (0.0, 8.0, 20.0));

        let c = conn_at(8.0, 20.0, 30, 38);
        let mut v = measured(0.130, 30);
        v.inc_flag = false;
        let d = per_rtt(&mut v, &c);
        assert_eq!((v.incr(), d.cwnd, d.ssthresh), (0.0, 7.0, 2.0));
    }

    /// A connection as [`conn_at`] with `min_cwnd` and `min_ssthresh` set (seed Table I).
    fn conn_floors(
        min_cwnd: f64,
        min_ssthresh: f64,
        cwnd: f64,
        ssthresh: f64,
        last_ack: Seq,
        t_seqno: Seq,
    ) -> Conn {
        let mut cfg = TcpConfig::from_profile(TcpVariant::Vegas, DefaultsProfile::Ns2_35);
        cfg.min_cwnd = min_cwnd;
        cfg.min_ssthresh = min_ssthresh;
        let mut c = Conn::new(cfg, SimTime::ZERO);
        c.warp_outstanding(last_ack, t_seqno, cwnd, ssthresh);
        c
    }

    /// Seed Table I through the per-RTT decision. Slow start, cwnd 2, rttLen 2, mean RTT
    /// 0.5 s: delta = int((20 − 4)·0.1 + 0.5) = 2 > gamma → cwnd 2 − 2/8 = 1.75, floored to
    /// the minimum window (2 → 2; 1 → 1.75), ssthresh to the reset threshold (2, 2, 1).
    /// Congestion avoidance, cwnd 2.5, rttLen 5, mean RTT 1 s: delta = int((50 − 5)·0.1 + 0.5)
    /// = 5 > beta → cwnd 1.5, floored (2 → 2; 1 → 1.5); ssthresh unchanged.
    #[test]
    fn minimum_window_and_ssthresh_floors_of_the_per_rtt_decision() {
        for (min_cwnd, min_ssthresh, ss_cwnd, ca_cwnd) in [
            (2.0, 2.0, 2.0, 2.0),
            (1.0, 2.0, 1.75, 1.5),
            (1.0, 1.0, 1.75, 1.5),
        ] {
            let c = conn_floors(min_cwnd, min_ssthresh, 2.0, 20.0, 30, 32);
            let mut v = measured(0.5, 30);
            v.inc_flag = false;
            let d = per_rtt(&mut v, &c);
            assert_eq!((d.cwnd, d.ssthresh), (ss_cwnd, min_ssthresh));

            let c = conn_floors(min_cwnd, min_ssthresh, 2.5, 2.0, 30, 35);
            let mut v = measured(1.0, 30);
            let d = per_rtt(&mut v, &c);
            assert_eq!((d.cwnd, d.ssthresh, v.incr()), (ca_cwnd, 2.0, 0.0));
        }
    }

    /// tcp-spec §9.2 step 6: v_incr is added only if cwnd − (t_seqno − last_ack) <= 2.
    #[test]
    fn increment_only_when_window_used() {
        let a = NewAck {
            ack: 30,
            kind: AckKind::Normal,
            prev_last_ack: 29,
            prev_dupacks: 0,
        };
        for (t_seqno, cwnd) in [(37, 10.0), (38, 10.1)] {
            let c = conn_at(10.0, 5.0, 30, t_seqno);
            let mut v = measured(0.1, 100);
            v.incr = 0.1;
            let d = v.on_new_ack(&c, SimTime::from_millis(5_000), &a);
            assert!(
                (d.cwnd - cwnd).abs() < 1e-12,
                "t_seqno {t_seqno}: {}",
                d.cwnd
            );
            assert_eq!((d.ssthresh, d.retransmit), (5.0, None));
        }
    }

    /// tcp-spec §12 T6 win mapping: 3 → 2, 7 → 6, 8 → 6, 10 → 8; re-retransmission 7 → 3;
    /// with ns-2's floor 2 a window of 1 (or 0) also becomes 2.
    #[test]
    fn t6_window_reduction_mapping() {
        assert_eq!(reduced_window(3, false, 2.0), 2.0);
        assert_eq!(reduced_window(2, false, 2.0), 2.0);
        assert_eq!(reduced_window(1, false, 2.0), 2.0);
        assert_eq!(reduced_window(0, false, 2.0), 2.0);
        assert_eq!(reduced_window(7, false, 2.0), 6.0);
        assert_eq!(reduced_window(8, false, 2.0), 6.0);
        assert_eq!(reduced_window(10, false, 2.0), 8.0);
        assert_eq!(reduced_window(7, true, 2.0), 3.0);
        assert_eq!(reduced_window(3, true, 2.0), 2.0);
    }

    /// Minimum window 1 (seed Table I): 3 and 2 still go to 2, 1 stays 1 instead of being
    /// raised to 2, 0 goes to the floor; larger windows are unchanged.
    #[test]
    fn window_reduction_with_minimum_window_one() {
        assert_eq!(reduced_window(3, false, 1.0), 2.0);
        assert_eq!(reduced_window(2, false, 1.0), 2.0);
        assert_eq!(reduced_window(1, false, 1.0), 1.0);
        assert_eq!(reduced_window(0, false, 1.0), 1.0);
        assert_eq!(reduced_window(0, false, 0.5), 0.5);
        assert_eq!(reduced_window(10, false, 1.0), 8.0);
        assert_eq!(reduced_window(7, true, 1.0), 3.0);
    }
}
