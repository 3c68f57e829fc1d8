//! Random Early Detection (Floyd & Jacobson, "Random Early Detection Gateways for Congestion
//! Avoidance", IEEE/ACM ToN 1(4), 1993; "RED93") with ns-2's semantics (`queue/red.cc`,
//! traffic-queues-traces.md §5).
//!
//! A sans-IO estimator and drop decision: the link direction tells it of each arrival (with the
//! queue length before the arrival, not counting the packet on the wire) and of the moment the
//! queue goes idle; it answers enqueue, early drop or forced drop. The uniform draw comes from
//! the caller, one per `drop_early` call, as ns-2 draws.
//!
//! ns-2 details kept (§5.2, §5.3): the idle decay is (1 − w_q)^(m+1) with m = int(ptc · idle
//! time), ptc = link rate / (8 · mean_pktsize) (RED93 uses m, ns-2 applies one more factor);
//! no early test while one packet or less waits; the first arrival after the average crosses
//! min_th sets count = 1 untested; `wait_` spaces drops uniformly in [1/p_b, 2/p_b]; byte
//! mode (`bytes_`) uses count_bytes / mean_pktsize as the count and scales p_a by
//! size / mean_pktsize; `queue_in_bytes_` measures the queue, the thresholds (× mean_pktsize)
//! and the limit in bytes. Above max_th (2·max_th with `gentle_`) an arrival is a forced drop,
//! as in RED93 and ns-2 before `use_mark_p_` (ns-2.29); with `use_mark_p` (ns-2.35's default)
//! that test is skipped and such an arrival goes through the early test, where p_b is 1 and
//! the packet is dropped as an early ("unforced") drop.
//!
//! ECN (RFC 3168 §5; ns-2 `setbit_`): an early drop of an ECN-capable packet becomes a mark
//! (congestion experienced) and the packet is queued, with `use_mark_p_` (ns-2.35's
//! default) only while the base probability is below `mark_p_` (so not above max_th), as
//! ns-2's `REDQueue::drop_early` decides. Forced drops are never marks. The caller sets the mark.

use crate::sim::SimTime;

/// A moment as RED reads it: the simulation time, and the same instant in seconds as ns-2's
/// double clock has it (`sim::scheduler`'s exact time). The idle decay's m = int(ptc · (now
/// − idle since)) is taken from the exact seconds, so that a product that is a whole number
/// in nanoseconds but just below it in doubles truncates as in ns-2.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RedClock {
    pub at: SimTime,
    pub exact: f64,
}

impl From<SimTime> for RedClock {
    /// A time whose exact seconds are its nanoseconds (tests, a clock without exact times).
    fn from(at: SimTime) -> Self {
        RedClock {
            at,
            exact: at.as_nanos() as f64 / 1e9,
        }
    }
}

/// A RED variable a script traces (ns-2 `$redq trace curq_` / `ave_`, `REDQueue::trace`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RedTracedVar {
    /// `curq_`: the queue an arrival finds (packets, or bytes in byte-queue mode).
    Curq,
    /// `ave_`: the average queue after the arrival's estimator step.
    Ave,
}

impl RedTracedVar {
    pub fn name(self) -> &'static str {
        match self {
            RedTracedVar::Curq => "curq_",
            RedTracedVar::Ave => "ave_",
        }
    }

    pub fn from_name(name: &str) -> Option<RedTracedVar> {
        match name {
            "curq_" => Some(RedTracedVar::Curq),
            "ave_" => Some(RedTracedVar::Ave),
            _ => None,
        }
    }
}

/// The traced RED variables of one queue: as tclcl's traced variables, an assignment that
/// changes a value is recorded (ns-2 assigns `ave_` by the estimator, then `curq_`, at every
/// arrival).
#[derive(Clone, Debug, Default)]
pub struct RedVarTrace {
    curq: Option<f64>,
    ave: Option<f64>,
    /// Changes not yet taken: time, variable, new value.
    pub changes: Vec<(SimTime, RedTracedVar, f64)>,
}

impl RedVarTrace {
    fn assign(&mut self, now: SimTime, var: RedTracedVar, value: f64) {
        let last = match var {
            RedTracedVar::Curq => &mut self.curq,
            RedTracedVar::Ave => &mut self.ave,
        };
        if let Some(l) = last {
            if *l != value {
                *l = value;
                self.changes.push((now, var, value));
            }
        }
    }
}

/// RED parameters in ns-2's vocabulary.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RedConfig {
    /// `thresh_`, `maxthresh_`: in packets (multiplied by `mean_pktsize` in byte-queue mode).
    pub min_thresh: f64,
    pub max_thresh: f64,
    /// `q_weight_`: the EWMA weight w_q of the average queue.
    pub q_weight: f64,
    /// `linterm_`: max_p = 1 / linterm.
    pub linterm: f64,
    /// `gentle_`: p_b rises from max_p at max_th to 1 at 2·max_th instead of jumping to 1.
    pub gentle: bool,
    /// `wait_`: wait between drops (p_a = p_b / (2 − count·p_b)).
    pub wait: bool,
    /// `bytes_`: byte-mode drop probability.
    pub bytes: bool,
    /// `queue_in_bytes_`: average, thresholds and limit in bytes.
    pub queue_in_bytes: bool,
    /// `mean_pktsize_` in bytes.
    pub mean_pktsize: u32,
    /// `use_mark_p_` (ns-2.35 default true): no forced drop on the average alone; above
    /// max_th (2·max_th when gentle) the early test drops with probability 1.
    pub use_mark_p: bool,
    /// `setbit_` (default false): mark ECN-capable packets instead of dropping them early.
    pub setbit: bool,
    /// `mark_p_` (default 0.1): with `use_mark_p`, mark only while p_b is below this.
    pub mark_p: f64,
    /// `drop_rand_` (default false): a forced drop takes a packet drawn uniformly from the
    /// queue, the arrival (already queued) among them, instead of the arrival (ns-2
    /// `REDQueue::pickPacketToDrop`). The caller picks the victim ([`victim_index`]).
    pub drop_rand: bool,
    /// `ns1_compat_` (default false): a forced drop leaves `count` as it is (ns-1), instead
    /// of resetting it.
    pub ns1_compat: bool,
}

/// The place in the queue of a `drop_rand_` forced drop's victim (0 is the head): ns-2
/// enqueues the arrival first and then draws `Random::integer(len)` over the `len` packets
/// waiting, which is its default RNG's next 31-bit integer (`next-random`) modulo `len`.
pub fn victim_index(next_random: u32, len: usize) -> usize {
    debug_assert!(len > 0, "the arrival is queued before the draw");
    (next_random as usize) % len
}

impl Default for RedConfig {
    /// ns-2's classic values (ns-2.29 `ns-default.tcl`: thresh 5, maxthresh 15, q_weight
    /// 0.002, linterm 10; gentle and wait true as in 2.35), in packet mode.
    fn default() -> Self {
        RedConfig {
            min_thresh: 5.0,
            max_thresh: 15.0,
            q_weight: 0.002,
            linterm: 10.0,
            gentle: true,
            wait: true,
            bytes: false,
            queue_in_bytes: false,
            mean_pktsize: 500,
            use_mark_p: false,
            setbit: false,
            mark_p: 0.1,
            drop_rand: false,
            ns1_compat: false,
        }
    }
}

/// What RED does with an arrival.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RedVerdict {
    Enqueue,
    /// Dropped by the random early test (ns-2 "unforced").
    EarlyDrop,
    /// Chosen by the random early test, ECN-capable, and marked instead of dropped
    /// (`setbit`): the caller sets the packet's congestion-experienced bit and queues it.
    Mark,
    /// Dropped because the average was above the maximum threshold (2·max_th when gentle;
    /// not with `use_mark_p`) or the queue was at its physical limit.
    ForcedDrop,
}

/// The RED state of one queue.
#[derive(Clone, Debug)]
pub struct Red {
    pub cfg: RedConfig,
    /// Packets of mean size the link sends per second (ns-2 `ptc_`).
    ptc: f64,
    /// Thresholds in queue units (packets or bytes).
    min_th: f64,
    max_th: f64,
    /// The average queue (ns-2 `v_ave`).
    pub ave: f64,
    /// Arrivals since the last drop (ns-2 `count`, `count_bytes`).
    pub count: i64,
    pub count_bytes: u64,
    /// Whether the previous arrival found ave ≥ min_th with more than one packet waiting.
    old: bool,
    idle: bool,
    /// When the idle period started, in exact seconds.
    idle_since: f64,
    /// The base and the actual drop probability of the last `drop_early` call.
    pub last_p_b: f64,
    pub last_p_a: f64,
    /// The variables a script traces, if any.
    pub var_trace: Option<Box<RedVarTrace>>,
    /// `curq_`: the queue the last arrival found.
    curq: f64,
}

impl Red {
    /// RED on a link of `rate_bps`, idle since time 0 (ns-2 `reset()`).
    pub fn new(cfg: RedConfig, rate_bps: f64) -> Self {
        let unit = if cfg.queue_in_bytes {
            f64::from(cfg.mean_pktsize)
        } else {
            1.0
        };
        Red {
            cfg,
            ptc: rate_bps / (8.0 * f64::from(cfg.mean_pktsize)),
            min_th: cfg.min_thresh * unit,
            max_th: cfg.max_thresh * unit,
            ave: 0.0,
            count: 0,
            count_bytes: 0,
            old: false,
            idle: true,
            idle_since: 0.0,
            last_p_b: 0.0,
            last_p_a: 0.0,
            var_trace: None,
            curq: 0.0,
        }
    }

    /// Trace `var` from now on (ns-2 `$redq trace VAR`); returns its value now, which the
    /// caller writes at once.
    pub fn trace_var(&mut self, var: RedTracedVar) -> f64 {
        let value = match var {
            RedTracedVar::Curq => self.curq,
            RedTracedVar::Ave => self.ave,
        };
        let t = self.var_trace.get_or_insert_with(Box::default);
        match var {
            RedTracedVar::Curq => t.curq = Some(value),
            RedTracedVar::Ave => t.ave = Some(value),
        }
        value
    }

    /// The link's rate changed: the idle decay uses the new packet time.
    pub fn set_rate(&mut self, rate_bps: f64) {
        self.ptc = rate_bps / (8.0 * f64::from(self.cfg.mean_pktsize));
    }

    /// The queue is empty as the link finishes sending: the idle period starts (ns-2 `deque`
    /// finding nothing).
    pub fn on_idle(&mut self, now: impl Into<RedClock>) {
        self.idle = true;
        self.idle_since = now.into().exact;
    }

    /// max_p = 1 / linterm.
    pub fn max_p(&self) -> f64 {
        1.0 / self.cfg.linterm
    }

    /// An arrival of `size` bytes finding `qlen` waiting (packets, or bytes in byte-queue mode)
    /// on a queue whose physical limit is `qlim` in the same unit. `uniform` is drawn once if
    /// the early test runs (ns-2 `REDQueue::enque`, §5.2). `ect`: the packet is ECN-capable.
    /// A packet marked and then refused at the physical limit is a [`RedVerdict::ForcedDrop`]
    /// whose mark stays (ns-2 marks it in `drop_early`, before the limit test): `marked`
    /// says so.
    pub fn arrival(
        &mut self,
        now: impl Into<RedClock>,
        qlen: f64,
        qlim: f64,
        size: u32,
        ect: bool,
        uniform: &mut dyn FnMut() -> f64,
    ) -> (RedVerdict, bool) {
        // Steps 1-2: idle correction and the average (ns-2 `estimator`).
        let clock = now.into();
        let now = clock.at;
        let m = if self.idle {
            self.idle = false;
            (self.ptc * (clock.exact - self.idle_since)).floor()
        } else {
            0.0
        };
        let w = self.cfg.q_weight;
        self.ave = self.ave * (1.0 - w).powf(m + 1.0) + w * qlen;
        // ns-2 then sets `curq_` to the queue the arrival found (traced variables).
        self.curq = qlen;
        if let Some(t) = self.var_trace.as_deref_mut() {
            t.assign(now, RedTracedVar::Ave, self.ave);
            t.assign(now, RedTracedVar::Curq, qlen);
        }
        // Step 3.
        self.count += 1;
        self.count_bytes += u64::from(size);
        // Step 4.
        let mut verdict = RedVerdict::Enqueue;
        if self.ave >= self.min_th && qlen > 1.0 {
            let forced_above = if self.cfg.gentle {
                2.0 * self.max_th
            } else {
                self.max_th
            };
            if !self.cfg.use_mark_p && self.ave >= forced_above {
                verdict = RedVerdict::ForcedDrop;
            } else if !self.old {
                self.count = 1;
                self.count_bytes = u64::from(size);
                self.old = true;
            } else if self.drop_early(size, uniform) {
                verdict = if self.marks(ect) {
                    RedVerdict::Mark
                } else {
                    RedVerdict::EarlyDrop
                };
            }
        } else {
            self.old = false;
        }
        let marked = verdict == RedVerdict::Mark;
        // Step 5: the physical limit overrides.
        if qlen >= qlim {
            verdict = RedVerdict::ForcedDrop;
        }
        if verdict == RedVerdict::ForcedDrop && !self.cfg.ns1_compat {
            self.count = 0;
            self.count_bytes = 0;
        }
        (verdict, marked)
    }

    /// Whether the early test's victim is marked rather than dropped (ns-2
    /// `REDQueue::drop_early`): `setbit`, an ECN-capable packet, and, with `use_mark_p`,
    /// p_b below `mark_p`.
    fn marks(&self, ect: bool) -> bool {
        self.cfg.setbit && ect && (!self.cfg.use_mark_p || self.last_p_b < self.cfg.mark_p)
    }

    /// The base probability p_b for the current average (ns-2 `calculate_p_new`, RED93 §4).
    pub fn p_b(&self) -> f64 {
        let max_p = self.max_p();
        // ns-2 `REDQueue::reset` takes a difference of 0 as 1 (equal thresholds: the linear
        // part is never used, an early test needs ave >= min_th = max_th).
        let span = if self.max_th == self.min_th {
            1.0
        } else {
            self.max_th - self.min_th
        };
        let p = if self.ave < self.max_th {
            max_p * (self.ave - self.min_th) / span
        } else if self.cfg.gentle {
            // c·ave + d with c = (1 − max_p)/max_th, d = 2·max_p − 1 (in the queue's unit).
            (1.0 - max_p) / self.max_th * self.ave + 2.0 * max_p - 1.0
        } else {
            1.0
        };
        p.min(1.0)
    }

    /// The count-corrected probability and the drop test (ns-2 `modify_p`, `drop_early`).
    fn drop_early(&mut self, size: u32, uniform: &mut dyn FnMut() -> f64) -> bool {
        let p_b = self.p_b();
        let mean = f64::from(self.cfg.mean_pktsize);
        let c1 = if self.cfg.bytes {
            (self.count_bytes / u64::from(self.cfg.mean_pktsize)) as f64
        } else {
            self.count as f64
        };
        let mut p_a = if self.cfg.wait {
            if c1 * p_b < 1.0 {
                0.0
            } else if c1 * p_b < 2.0 {
                p_b / (2.0 - c1 * p_b)
            } else {
                1.0
            }
        } else if c1 * p_b < 1.0 {
            p_b / (1.0 - c1 * p_b)
        } else {
            1.0
        };
        if self.cfg.bytes && p_a < 1.0 {
            p_a *= f64::from(size) / mean;
        }
        p_a = p_a.min(1.0);
        self.last_p_b = p_b;
        self.last_p_a = p_a;
        let u = uniform();
        if u <= p_a {
            self.count = 0;
            self.count_bytes = 0;
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 5e-7
    }

    /// The hand-worked vector of traffic-queues-traces.md §5.4: packet mode, limit 10,
    /// min_th 2, max_th 6, w_q 0.5, max_p 0.1, not gentle, no wait; 1 Mb/s link (ptc 250);
    /// ten 1000-byte arrivals 0.1 ms apart while the first is on the wire, so the queue before
    /// arrival k is max(0, k − 2), except after the early drop at arrival 7.
    /// Average: ave_k = ave_{k−1}/2 + qlen_k/2 (RED93 §4 with w_q = 1/2). p_b = max_p·(ave −
    /// min_th)/(max_th − min_th); p_a = p_b/(1 − count·p_b) (RED93 §7).
    #[test]
    fn average_and_drop_probability_follow_the_red_equations_step_by_step() {
        let cfg = RedConfig {
            min_thresh: 2.0,
            max_thresh: 6.0,
            q_weight: 0.5,
            linterm: 10.0,
            gentle: false,
            wait: false,
            bytes: false,
            queue_in_bytes: false,
            mean_pktsize: 500,
            use_mark_p: false,
            setbit: false,
            mark_p: 0.1,
            drop_rand: false,
            ns1_compat: false,
        };
        let mut red = Red::new(cfg, 1e6);
        // (qlen before arrival, u if drop_early runs, ave after, count after, p_b, p_a, verdict)
        type Step = (f64, f64, f64, i64, f64, f64, RedVerdict);
        use RedVerdict::*;
        let steps: [Step; 10] = [
            (0.0, 0.0, 0.0, 1, 0.0, 0.0, Enqueue),
            (0.0, 0.0, 0.0, 2, 0.0, 0.0, Enqueue),
            (1.0, 0.0, 0.5, 3, 0.0, 0.0, Enqueue),
            (2.0, 0.0, 1.25, 4, 0.0, 0.0, Enqueue),
            // First crossing of min_th: count set to 1, no test.
            (3.0, 0.0, 2.125, 1, 0.0, 0.0, Enqueue),
            (4.0, 0.5, 3.0625, 2, 0.0265625, 0.0280528, Enqueue),
            (5.0, 0.05, 4.03125, 0, 0.05078125, 0.0599078, EarlyDrop),
            (5.0, 0.9, 4.515625, 1, 0.062890625, 0.0671113, Enqueue),
            (6.0, 0.9, 5.2578125, 2, 0.0814453125, 0.0972935, Enqueue),
            // ave ≥ max_th, not gentle: forced drop, count reset.
            (7.0, 0.5, 6.12890625, 0, 0.0814453125, 0.0972935, ForcedDrop),
        ];
        for (k, &(qlen, u, ave, count, p_b, p_a, verdict)) in steps.iter().enumerate() {
            let now = SimTime::from_micros(100 * k as u64);
            let mut drawn = false;
            let got = red.arrival(now, qlen, 10.0, 1000, false, &mut || {
                drawn = true;
                u
            });
            assert_eq!(got.0, verdict, "arrival {}", k + 1);
            assert_eq!(red.ave, ave, "ave after arrival {}", k + 1);
            assert_eq!(red.count, count, "count after arrival {}", k + 1);
            assert!(
                close(red.last_p_b, p_b),
                "p_b {} at {}",
                red.last_p_b,
                k + 1
            );
            assert!(
                close(red.last_p_a, p_a),
                "p_a {} at {}",
                red.last_p_a,
                k + 1
            );
            assert_eq!(drawn, (6..=9).contains(&(k + 1)), "draw at {}", k + 1);
        }
    }

    /// §5.4 with `wait_`: arrivals 6-8 have count·p_b < 1, so p_a = 0; arrival 9
    /// finds ave 6.0078125 ≥ max_th (forced), arrival 10 ave 6.50390625, again forced.
    #[test]
    fn wait_spaces_drops_until_count_times_p_b_reaches_one() {
        let cfg = RedConfig {
            min_thresh: 2.0,
            max_thresh: 6.0,
            q_weight: 0.5,
            gentle: false,
            wait: true,
            ..RedConfig::default()
        };
        let mut red = Red::new(cfg, 1e6);
        let qlens = [0.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 7.0];
        let mut verdicts = Vec::new();
        for (k, &q) in qlens.iter().enumerate() {
            let now = SimTime::from_micros(100 * k as u64);
            // ns-2 drops when u <= p_a: any u > 0 passes a p_a of 0.
            verdicts.push(red.arrival(now, q, 10.0, 1000, false, &mut || 1e-9).0);
            if (6..=8).contains(&(k + 1)) {
                assert_eq!(red.last_p_a, 0.0, "arrival {}", k + 1);
            }
        }
        use RedVerdict::*;
        assert_eq!(&verdicts[..8], &[Enqueue; 8]);
        assert_eq!(&verdicts[8..], &[ForcedDrop, ForcedDrop]);
        assert_eq!(red.ave, 6.50390625);
    }

    /// §5.4 gentle, no wait, u = 0.99: nothing dropped up to arrival 8; arrival 9: ave
    /// 6.0078125, p_b = 0.15·ave − 0.8 = 0.1011719, count 5, p_a = p_b/(1 − 5·p_b) = 0.2047431;
    /// arrival 10: ave 7.00390625, p_b 0.2505859, count 6, count·p_b ≥ 1 → p_a = 1, dropped.
    #[test]
    fn gentle_rises_linearly_between_max_th_and_twice_max_th() {
        let cfg = RedConfig {
            min_thresh: 2.0,
            max_thresh: 6.0,
            q_weight: 0.5,
            gentle: true,
            wait: false,
            ..RedConfig::default()
        };
        let mut red = Red::new(cfg, 1e6);
        let qlens = [0.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0];
        for (k, &q) in qlens.iter().enumerate() {
            let now = SimTime::from_micros(100 * k as u64);
            let v = red.arrival(now, q, 10.0, 1000, false, &mut || 0.99).0;
            match k + 1 {
                9 => {
                    assert_eq!(v, RedVerdict::Enqueue);
                    assert_eq!(red.ave, 6.0078125);
                    assert!(close(red.last_p_b, 0.1011719));
                    assert!(close(red.last_p_a, 0.2047431));
                }
                10 => {
                    assert_eq!(v, RedVerdict::EarlyDrop);
                    assert_eq!(red.ave, 7.00390625);
                    assert!(close(red.last_p_b, 0.2505859));
                    assert_eq!(red.last_p_a, 1.0);
                }
                _ => assert_eq!(v, RedVerdict::Enqueue),
            }
        }
    }

    /// §5.4 idle check: w_q 0.002, ptc 250 (1 Mb/s, 500-byte mean), ave 5, then idle for
    /// exactly 0.125 s: m = int(31.25) = 31 and ave = 5·0.998^32 = 4.689724 (ns-2's one extra
    /// factor over RED93's (1 − w_q)^m).
    #[test]
    fn an_idle_queue_decays_the_average_by_m_plus_one_factors() {
        let mut red = Red::new(RedConfig::default(), 1e6);
        red.arrival(SimTime::ZERO, 0.0, 50.0, 500, false, &mut || 0.0);
        red.ave = 5.0;
        red.on_idle(SimTime::from_millis(1000));
        red.arrival(
            SimTime::from_millis(1125),
            0.0,
            50.0,
            500,
            false,
            &mut || 0.0,
        );
        assert!(close(red.ave, 5.0 * 0.998f64.powi(32)));
        assert!(close(red.ave, 4.689724));
    }

    /// §5.4 byte mode: p_b = 0.05, count_bytes 3000, mean 500 → c1 = 6, non-wait p_a =
    /// 0.05/0.7 = 0.0714286, scaled by size/mean: 0.1428571 for 1000 bytes, 0.0057143 for 40.
    #[test]
    fn byte_mode_counts_bytes_and_scales_by_packet_size() {
        for (size, want) in [(1000, 0.1428571), (40, 0.0057143)] {
            let cfg = RedConfig {
                min_thresh: 0.0,
                max_thresh: 10.0,
                wait: false,
                bytes: true,
                gentle: false,
                linterm: 2.0, // max_p 0.5: ave 1 → p_b = 0.5·1/10 = 0.05
                ..RedConfig::default()
            };
            let mut red = Red::new(cfg, 1e6);
            red.ave = 1.0;
            red.count_bytes = 3000 - u64::from(size);
            red.cfg.q_weight = 0.0;
            red.old = true;
            red.idle = false;
            red.arrival(SimTime::ZERO, 2.0, 50.0, size, false, &mut || 1.0);
            assert!(close(red.last_p_b, 0.05));
            assert!(close(red.last_p_a, want), "{size}: {}", red.last_p_a);
        }
    }

    /// ns-2.35's `use_mark_p_`: the §5.4 sequence with `wait` off and not gentle, whose
    /// arrival 10 (ave 6.12890625 ≥ max_th) is a forced drop without it. With it the early
    /// test runs instead: p_b = 1 (not gentle, ave ≥ max_th), count 3 after the early drop at
    /// arrival 7, 3·1 ≥ 1 so p_a = 1 and any u drops it, as an early drop; a drop by the
    /// early test resets count as a forced one does. Gentle, between max_th and 2·max_th
    /// nothing changes; above 2·max_th p_b = min(1, c·ave + d) = 1 likewise. The physical
    /// limit still forces.
    #[test]
    fn use_mark_p_turns_drops_on_the_average_into_early_drops() {
        let cfg = RedConfig {
            min_thresh: 2.0,
            max_thresh: 6.0,
            q_weight: 0.5,
            gentle: false,
            wait: false,
            use_mark_p: true,
            ..RedConfig::default()
        };
        let mut red = Red::new(cfg, 1e6);
        let qlens = [0.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 5.0, 6.0, 7.0];
        let draws = [0.0, 0.0, 0.0, 0.0, 0.0, 0.5, 0.05, 0.9, 0.9, 0.999];
        let mut verdicts = Vec::new();
        for (k, (&q, &u)) in qlens.iter().zip(&draws).enumerate() {
            let now = SimTime::from_micros(100 * k as u64);
            verdicts.push(red.arrival(now, q, 10.0, 1000, false, &mut || u).0);
        }
        use RedVerdict::*;
        assert_eq!(verdicts[6], EarlyDrop);
        assert_eq!(verdicts[9], EarlyDrop);
        assert_eq!(red.ave, 6.12890625);
        assert_eq!((red.last_p_b, red.last_p_a), (1.0, 1.0));
        assert_eq!(red.count, 0);
        // Gentle, far above 2·max_th: still an early drop with p_b = 1.
        let mut red = Red::new(
            RedConfig {
                gentle: true,
                ..cfg
            },
            1e6,
        );
        red.ave = 20.0;
        red.old = true;
        red.idle = false;
        red.cfg.q_weight = 0.0;
        red.count = 5;
        assert_eq!(
            red.arrival(SimTime::ZERO, 8.0, 10.0, 1000, false, &mut || 0.999)
                .0,
            EarlyDrop
        );
        assert_eq!(red.last_p_b, 1.0);
        // The physical limit forces a drop whatever use_mark_p says.
        assert_eq!(
            red.arrival(SimTime::ZERO, 10.0, 10.0, 1000, false, &mut || 1.0)
                .0,
            ForcedDrop
        );
    }

    /// The physical limit forces a drop whatever the average (step 5), and resets count.
    #[test]
    fn a_full_queue_forces_a_drop() {
        let mut red = Red::new(RedConfig::default(), 1e6);
        let v = red.arrival(SimTime::ZERO, 3.0, 3.0, 1000, false, &mut || 1.0);
        assert_eq!(v.0, RedVerdict::ForcedDrop);
        assert_eq!(red.count, 0);
    }

    /// `ns1_compat_`: the same forced drop leaves count at 1 (the arrival counted, ns-1's
    /// rule); the next arrival makes it 2.
    #[test]
    fn ns1_compat_keeps_count_after_a_forced_drop() {
        let cfg = RedConfig {
            ns1_compat: true,
            ..RedConfig::default()
        };
        let mut red = Red::new(cfg, 1e6);
        let v = red.arrival(SimTime::ZERO, 3.0, 3.0, 1000, false, &mut || 1.0);
        assert_eq!(v.0, RedVerdict::ForcedDrop);
        assert_eq!((red.count, red.count_bytes), (1, 1000));
        let v = red.arrival(SimTime::ZERO, 3.0, 3.0, 1000, false, &mut || 1.0);
        assert_eq!(v.0, RedVerdict::ForcedDrop);
        assert_eq!((red.count, red.count_bytes), (2, 2000));
    }

    /// `drop_rand_`'s victim: ns-2's `Random::integer(len)`, the 31-bit draw modulo the
    /// number waiting (the arrival, queued last, included).
    #[test]
    fn the_random_victim_is_the_draw_modulo_the_queue() {
        assert_eq!(victim_index(729_236, 4), 0);
        assert_eq!(victim_index(1_193_744_747, 4), 3);
        assert_eq!(victim_index(1_193_744_747, 3), 2);
        assert_eq!(victim_index(7, 1), 0);
    }

    /// ECN (ns-2 `setbit_`, RFC 3168 §5): the §5.4 sequence (wait_ false, not gentle,
    /// use_mark_p_ true) with ECN-capable arrivals. Arrival 7's early test picks it (u 0.05 ≤
    /// p_a 0.0599, p_b 0.0508 < mark_p 0.1): marked and queued, count reset as for a drop.
    /// Arrival 10 finds ave 6.1289 ≥ max_th, p_b = 1, not below mark_p: dropped even though
    /// ECN-capable. A packet that is not ECN-capable at arrival 7 is dropped.
    #[test]
    fn setbit_marks_ecn_capable_packets_while_p_b_is_below_mark_p() {
        let cfg = RedConfig {
            min_thresh: 2.0,
            max_thresh: 6.0,
            q_weight: 0.5,
            gentle: false,
            wait: false,
            bytes: false,
            queue_in_bytes: false,
            use_mark_p: true,
            setbit: true,
            ..RedConfig::default()
        };
        let run = |ect_at_7: bool| {
            let mut red = Red::new(cfg, 1e6);
            let qlens = [0.0, 0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 5.0, 6.0, 7.0];
            let us = [0.9, 0.9, 0.9, 0.9, 0.9, 0.5, 0.05, 0.9, 0.9, 0.5];
            let mut out = Vec::new();
            for (k, (&q, &u)) in qlens.iter().zip(&us).enumerate() {
                let now = SimTime::from_micros(100 * k as u64);
                let ect = k != 6 || ect_at_7;
                out.push(red.arrival(now, q, 10.0, 1000, ect, &mut || u));
                if k == 6 {
                    assert_eq!(red.count, 0, "the mark resets count");
                }
            }
            out
        };
        use RedVerdict::*;
        let marked = run(true);
        assert_eq!(marked[6], (Mark, true));
        assert_eq!(marked[9], (EarlyDrop, false));
        assert!(marked[..6].iter().all(|&v| v == (Enqueue, false)));
        assert_eq!(run(false)[6], (EarlyDrop, false));
    }

    /// A packet marked at the physical limit is still dropped (forced), carrying its mark:
    /// ave 3, p_b = 0.1·3/100 = 0.003 < mark_p, u 0 picks it, qlen 3 = limit 3.
    #[test]
    fn a_marked_packet_at_the_limit_is_a_forced_drop() {
        let cfg = RedConfig {
            min_thresh: 0.0,
            max_thresh: 100.0,
            q_weight: 1.0,
            wait: false,
            gentle: false,
            use_mark_p: true,
            setbit: true,
            ..RedConfig::default()
        };
        let mut red = Red::new(cfg, 1e6);
        red.idle = false;
        red.old = true;
        red.count = 5;
        let v = red.arrival(SimTime::ZERO, 3.0, 3.0, 1000, true, &mut || 0.0);
        assert_eq!(v, (RedVerdict::ForcedDrop, true));
    }

    /// The idle decay's m = int(ptc · (now − idle since)) comes from ns-2's double clock: an
    /// idle period of exactly 4 ms in nanoseconds that the doubles make 0.304 − (0.1 + 0.2)
    /// = 0.00399999999999996 s gives m = int(750 · that) = 2 (ns-2), not 3.
    #[test]
    fn the_idle_decay_truncates_the_exact_seconds() {
        let cfg = RedConfig {
            q_weight: 0.5,
            ..RedConfig::default()
        };
        let mut red = Red::new(cfg, 3e6); // ptc 750 packets of 500 B per second
        red.ave = 1.0;
        red.on_idle(RedClock {
            at: SimTime::from_millis(300),
            exact: 0.1 + 0.2,
        });
        let now = RedClock {
            at: SimTime::from_millis(304),
            exact: 0.304,
        };
        red.arrival(now, 0.0, 50.0, 500, false, &mut || 1.0);
        assert_eq!(red.ave, 0.125, "(1 - 0.5)^(2 + 1)");
    }
}
