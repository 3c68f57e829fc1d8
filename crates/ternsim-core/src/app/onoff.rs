//! Exponential and Pareto on/off sources: ns-2 `Application/Traffic/Exponential`
//! (`tools/expoo.cc`) and `Application/Traffic/Pareto` (`tools/pareto.cc`), both driven by the
//! generic `TrafficGenerator` start/timeout of `tools/trafgen.cc`; sans-IO.
//!
//! ns-2 counts bursts in packets, not seconds. At start the source fixes the burst interval
//! I = 8 * packetSize_ / rate_ and the mean burst length μ = burst_time_ / I packets, and sets
//! the packets left in the burst to 0. Every gap is I, except that when no packets are left a
//! new burst begins: draw a length X (packets, mean μ) and round it half up to an integer
//! (at least 1), then draw an idle time Y (seconds, mean idle_time_) and make this gap I + Y.
//! So the source starts idle (its first packet leaves at start + I + Y₁), bursts are N packets
//! I apart, and one on/off cycle lasts N·I + Y. Draw order per burst: length, then idle.
//!
//! Exponential: X ~ Exp(μ), Y ~ Exp(idle_time_). Pareto with shape k: scales
//! μ(k-1)/k and idle_time_(k-1)/k, so the means are μ and idle_time_
//! ([`RandomStream::pareto`]).
//!
//! Same driving contract as [`crate::app::cbr::Cbr`]: [`OnOff::start`], then
//! [`OnOff::on_send`] at each [`OnOff::next_send`], [`OnOff::stop`]; the schedule is an `f64`
//! sum of gaps as in ns-2. There is no packet limit; the sources run until stopped.

use super::draws::SourceDraws;
use crate::sim::SimTime;

/// Distribution of burst lengths and idle times.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum OnOffLaw {
    Exponential,
    /// Pareto with shape `shape_` (> 1; ns-2 default 1.5).
    Pareto {
        shape: f64,
    },
}

/// On/off parameters (ns-2 names in brackets).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OnOffConfig {
    /// Bytes per send [`packetSize_`].
    pub packet_size: u32,
    /// Sending rate during a burst, bit/s [`rate_`].
    pub rate_bps: f64,
    /// Mean burst duration, seconds [`burst_time_`].
    pub burst_time_s: f64,
    /// Mean idle duration, seconds [`idle_time_`].
    pub idle_time_s: f64,
}

impl OnOffConfig {
    /// ns-2.35 `ns-default.tcl` for both Exponential and Pareto: 210 B, 64 kb/s, 0.5 s on,
    /// 0.5 s off (Pareto shape_ 1.5).
    pub fn ns2_default() -> Self {
        OnOffConfig {
            packet_size: 210,
            rate_bps: 64_000.0,
            burst_time_s: 0.5,
            idle_time_s: 0.5,
        }
    }
}

/// An exponential or Pareto on/off source.
#[derive(Clone, Debug)]
pub struct OnOff {
    cfg: OnOffConfig,
    law: OnOffLaw,
    /// I, fixed at start (unlike CBR, not recomputed per packet).
    interval_s: f64,
    /// μ = burst_time_ / I, fixed at start.
    mean_burst_packets: f64,
    /// ns-2 `rem_`: packets of the current burst still to schedule.
    rem: u64,
    /// The gap that scheduled the pending packet (ns-2 `nextPkttime_`).
    gap_s: f64,
    next_at_s: Option<f64>,
    new_burst: bool,
    bursts: u64,
    sent: u64,
}

impl OnOff {
    pub fn new(cfg: OnOffConfig, law: OnOffLaw) -> Result<Self, String> {
        if cfg.packet_size == 0 {
            return Err("on/off packet size must be > 0".into());
        }
        if !(cfg.rate_bps > 0.0 && cfg.rate_bps.is_finite()) {
            return Err("on/off rate must be > 0".into());
        }
        if !(cfg.burst_time_s >= 0.0 && cfg.idle_time_s >= 0.0) {
            return Err("on/off burst and idle times must be >= 0".into());
        }
        if let OnOffLaw::Pareto { shape } = law {
            // Shape <= 1 has no finite mean, and ns-2's scale mean*(k-1)/k would be <= 0.
            if !(shape > 1.0 && shape.is_finite()) {
                return Err("Pareto shape must be > 1".into());
            }
        }
        Ok(OnOff {
            cfg,
            law,
            interval_s: 0.0,
            mean_burst_packets: 0.0,
            rem: 0,
            gap_s: 0.0,
            next_at_s: None,
            new_burst: false,
            bursts: 0,
            sent: 0,
        })
    }

    pub fn law(&self) -> OnOffLaw {
        self.law
    }

    /// I = 8 * packetSize_ / rate_, seconds.
    pub fn interval_s(&self) -> f64 {
        f64::from(self.cfg.packet_size) * 8.0 / self.cfg.rate_bps
    }

    /// Mean burst length μ in packets.
    pub fn mean_burst_packets(&self) -> f64 {
        self.cfg.burst_time_s / self.interval_s()
    }

    /// `init` then one `next_interval` (trafgen.cc start): the first packet waits a full gap,
    /// which opens a burst, so it includes an idle time.
    pub fn start(&mut self, now: SimTime, rng: &mut impl SourceDraws) {
        let law = self.law;
        let (mu, idle) = (self.mean_burst_packets(), self.cfg.idle_time_s);
        self.start_with(now, || draw(law, mu, idle, rng));
    }

    pub fn next_send(&self) -> Option<SimTime> {
        self.next_at_s.map(SimTime::from_secs_f64)
    }

    /// The same, exactly, in seconds.
    pub fn next_send_exact(&self) -> Option<f64> {
        self.next_at_s
    }

    /// Sends the packet due now and schedules the next; returns the bytes for the agent.
    pub fn on_send(&mut self, now: SimTime, rng: &mut impl SourceDraws) -> u32 {
        let law = self.law;
        let (mu, idle) = (self.mean_burst_packets, self.cfg.idle_time_s);
        self.on_send_with(now, || draw(law, mu, idle, rng))
    }

    pub fn stop(&mut self) {
        self.next_at_s = None;
    }

    /// Whether the packet the last `on_send` returned carries ns-2's `NEW_BURST` flag (the
    /// agent's RTP marker). Only the Exponential source sets it (expoo.cc `timeout`): when the
    /// gap that scheduled the packet differs from I, i.e. included an idle time.
    pub fn new_burst(&self) -> bool {
        self.new_burst
    }

    /// Bursts begun so far, counting the one the pending packet belongs to; packets sent while
    /// this value is b belong to burst b.
    pub fn bursts(&self) -> u64 {
        self.bursts
    }

    pub fn packets_sent(&self) -> u64 {
        self.sent
    }

    pub fn is_running(&self) -> bool {
        self.next_at_s.is_some()
    }

    pub fn packet_size(&self) -> u32 {
        self.cfg.packet_size
    }

    fn start_with(&mut self, now: SimTime, burst_and_idle: impl FnOnce() -> (f64, f64)) {
        // burst_time_ and rate_ changes take effect only here, at the next start (expoo.cc
        // and pareto.cc `init`).
        self.interval_s = self.interval_s();
        self.mean_burst_packets = self.cfg.burst_time_s / self.interval_s;
        self.rem = 0;
        self.gap_s = self.next_interval(burst_and_idle);
        self.next_at_s = Some(now.as_secs_exact() + self.gap_s);
    }

    fn on_send_with(&mut self, now: SimTime, burst_and_idle: impl FnOnce() -> (f64, f64)) -> u32 {
        let Some(at) = self.next_at_s else {
            debug_assert!(false, "on_send on a stopped on/off source");
            return 0;
        };
        debug_assert_eq!(SimTime::from_secs_f64(at), now, "on_send off schedule");
        self.new_burst = self.law == OnOffLaw::Exponential && self.gap_s != self.interval_s;
        self.sent += 1;
        self.gap_s = self.next_interval(burst_and_idle);
        self.next_at_s = Some(at + self.gap_s);
        self.cfg.packet_size
    }

    /// ns-2 `next_interval`: the draws happen only when the previous burst is used up.
    fn next_interval(&mut self, burst_and_idle: impl FnOnce() -> (f64, f64)) -> f64 {
        let mut gap = self.interval_s;
        if self.rem == 0 {
            let (x, y) = burst_and_idle();
            self.rem = burst_packets(x);
            self.bursts += 1;
            gap += y;
        }
        self.rem -= 1;
        gap
    }
}

/// `int(X + .5)`, then at least 1 (expoo.cc, pareto.cc). The float-to-int cast saturates
/// where ns-2's C conversion of a huge Pareto draw would be undefined.
fn burst_packets(x: f64) -> u64 {
    ((x + 0.5) as u64).max(1)
}

fn draw(law: OnOffLaw, mu: f64, idle: f64, rng: &mut impl SourceDraws) -> (f64, f64) {
    match law {
        OnOffLaw::Exponential => {
            let x = rng.exponential(mu);
            (x, rng.exponential(idle))
        }
        OnOffLaw::Pareto { shape } => {
            let x = rng.pareto(mu, shape);
            (x, rng.pareto(idle, shape))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::RandomStream;

    fn source(law: OnOffLaw, cfg: OnOffConfig) -> OnOff {
        OnOff::new(cfg, law).unwrap()
    }

    /// 100-byte packets at 8 kb/s: I = 0.1 s.
    fn tenth_second() -> OnOffConfig {
        OnOffConfig {
            packet_size: 100,
            rate_bps: 8000.0,
            burst_time_s: 0.3,
            idle_time_s: 0.3,
        }
    }

    #[test]
    fn burst_length_rounds_half_up_and_is_at_least_one() {
        assert_eq!(burst_packets(0.0), 1);
        assert_eq!(burst_packets(0.3), 1);
        assert_eq!(burst_packets(1.49), 1);
        assert_eq!(burst_packets(2.49), 2);
        assert_eq!(burst_packets(2.5), 3);
        assert_eq!(burst_packets(1e30), u64::MAX);
    }

    #[test]
    fn hand_worked_schedule_with_given_draws() {
        // I = 0.1. Draws (X, Y): (2.5, 0.3) -> 3 packets; (0.2, 0.05) -> 1; (1.49, 0.5) -> 1.
        // start 0: gap I + 0.3 -> first send 0.4 (source starts idle), then 0.5, 0.6;
        // after 0.6 the burst is used up: gap I + 0.05 -> 0.75; then gap I + 0.5 -> 1.35.
        let mut s = source(OnOffLaw::Exponential, tenth_second());
        s.start_with(SimTime::ZERO, || (2.5, 0.3));
        assert_eq!((s.next_send(), s.bursts(), s.rem), (Some(ms(400)), 1, 2));
        let no_draw = || -> (f64, f64) { panic!("no draw inside a burst") };

        assert_eq!(s.on_send_with(ms(400), no_draw), 100);
        assert!(s.new_burst(), "gap 0.4 != I");
        assert_eq!((s.next_send(), s.rem), (Some(ms(500)), 1));

        s.on_send_with(ms(500), no_draw);
        assert!(!s.new_burst());
        assert_eq!((s.next_send(), s.rem), (Some(ms(600)), 0));

        s.on_send_with(ms(600), || (0.2, 0.05));
        assert!(!s.new_burst());
        assert_eq!((s.next_send(), s.bursts(), s.rem), (Some(ms(750)), 2, 0));

        s.on_send_with(ms(750), || (1.49, 0.5));
        assert!(s.new_burst());
        assert_eq!((s.next_send(), s.bursts(), s.rem), (Some(ms(1350)), 3, 0));
        assert_eq!(s.packets_sent(), 4);

        s.stop();
        assert_eq!(s.next_send(), None);
    }

    #[test]
    fn pareto_never_sets_new_burst_and_restart_reopens_with_idle() {
        let mut s = source(OnOffLaw::Pareto { shape: 1.5 }, tenth_second());
        s.start_with(SimTime::ZERO, || (1.0, 0.2));
        s.on_send_with(ms(300), || (1.0, 0.2));
        assert!(!s.new_burst());
        // A restart resets rem_ and waits I + Y again, mid-burst or not.
        s.start_with(ms(2000), || (4.0, 0.1));
        assert_eq!((s.next_send(), s.rem), (Some(ms(2200)), 3));
    }

    #[test]
    fn draws_come_from_the_stream_length_then_idle() {
        // Exponential: X = Exp(μ = 3), Y = Exp(0.3) drawn in that order.
        let mut s = source(OnOffLaw::Exponential, tenth_second());
        let mut rng = RandomStream::named(2, "onoff");
        let mut mirror = rng.clone();
        s.start(SimTime::ZERO, &mut rng);
        let mu = 0.3 / 0.1;
        assert_eq!(s.mean_burst_packets(), mu);
        let x = mirror.exponential(mu);
        let y = mirror.exponential(0.3);
        assert_eq!(s.rem, burst_packets(x) - 1);
        assert_eq!(s.next_send(), Some(SimTime::from_secs_f64(0.1 + y)));
        // Pareto shape 1.5: same order, scales μ/3 and 0.1.
        let mut p = source(OnOffLaw::Pareto { shape: 1.5 }, tenth_second());
        p.start(SimTime::ZERO, &mut rng);
        let x = mirror.pareto(mu, 1.5);
        let y = mirror.pareto(0.3, 1.5);
        assert!(x >= 1.0 && y >= 0.1);
        assert_eq!(p.rem, burst_packets(x) - 1);
        assert_eq!(p.next_send(), Some(SimTime::from_secs_f64(0.1 + y)));
    }

    #[test]
    fn rejects_bad_parameters() {
        let cfg = OnOffConfig::ns2_default();
        assert!(OnOff::new(cfg, OnOffLaw::Pareto { shape: 1.0 }).is_err());
        assert!(OnOff::new(
            OnOffConfig {
                rate_bps: 0.0,
                ..cfg
            },
            OnOffLaw::Exponential
        )
        .is_err());
    }

    #[test]
    fn same_seed_same_schedule() {
        let sched = |seed| {
            let mut s = source(OnOffLaw::Pareto { shape: 1.5 }, OnOffConfig::ns2_default());
            let mut rng = RandomStream::named(seed, "onoff");
            s.start(SimTime::ZERO, &mut rng);
            (0..500)
                .map(|_| {
                    let t = s.next_send().unwrap();
                    s.on_send(t, &mut rng);
                    t
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(sched(3), sched(3));
        assert_ne!(sched(3), sched(4));
    }

    fn ms(v: u64) -> SimTime {
        SimTime::from_millis(v)
    }

    /// What a long run produced: burst lengths and bits per batch.
    struct LongRun {
        burst_lengths: Vec<u64>,
        batch_bps: Vec<f64>,
    }

    /// Runs `s` for `batches` batches of `batch_s` seconds; only complete bursts are kept.
    fn long_run(mut s: OnOff, seed: u64, batches: usize, batch_s: f64) -> LongRun {
        let mut rng = RandomStream::named(seed, "onoff/long-run");
        let end = SimTime::from_secs_f64(batches as f64 * batch_s);
        let bits = f64::from(s.packet_size()) * 8.0;
        let mut batch_bits = vec![0.0; batches];
        let mut burst_lengths = Vec::new();
        let mut current = (0u64, 0u64); // (burst number, packets so far)
        s.start(SimTime::ZERO, &mut rng);
        while let Some(t) = s.next_send().filter(|&t| t < end) {
            let b = s.bursts();
            if b != current.0 {
                if current.0 != 0 {
                    burst_lengths.push(current.1);
                }
                current = (b, 0);
            }
            current.1 += 1;
            s.on_send(t, &mut rng);
            batch_bits[(t.as_secs_f64() / batch_s) as usize] += bits;
        }
        LongRun {
            burst_lengths,
            batch_bps: batch_bits.iter().map(|b| b / batch_s).collect(),
        }
    }

    /// Mean and 95 % half-width of batch means: 50 batches of 2000 s hold ~2000 on/off cycles
    /// of ~1 s each, so neighbouring batch means are nearly independent and, by the CLT,
    /// nearly normal; the half-width uses Student's t with 49 degrees of freedom (2.0096).
    fn batch_ci(x: &[f64]) -> (f64, f64) {
        let n = x.len() as f64;
        let mean = x.iter().sum::<f64>() / n;
        let var = x.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0);
        (mean, 2.0096 * (var / n).sqrt())
    }

    #[test]
    fn exponential_long_run_rate_and_burst_length_match_renewal_theory() {
        // ns-2 defaults: I = 26.25 ms, μ = 0.5 / I = 19.048 packets, idle mean 0.5 s.
        // Textbook on/off: peak * on / (on + off) = 64 kb/s * 0.5 = 32 kb/s.
        // ns-2's integer bursts: with N = max(1, round(X)), X ~ Exp(μ),
        // E[N] = sum_{n>=1} P(X >= n - 1/2) + P(X < 1/2)
        //      = e^(-1/(2μ)) / (1 - e^(-1/μ)) + 1 - e^(-1/(2μ)) = 19.071,
        // and by the renewal-reward theorem the rate is E[N]·1680 / (E[N]·I + 0.5) = 32.02 kb/s.
        // The two differ by 0.07 %, well inside the 95 % interval of this run (~0.4 %), so
        // both are asserted.
        let s = source(OnOffLaw::Exponential, OnOffConfig::ns2_default());
        let i = s.interval_s();
        assert_eq!(i, 0.02625);
        let mu = 0.5 / i;
        let h = (-0.5 / mu).exp();
        let e_n = h / (1.0 - (-1.0 / mu).exp()) + 1.0 - h;
        assert!((e_n - 19.071).abs() < 5e-4, "E[N] {e_n}");
        let rate = e_n * 1680.0 / (e_n * i + 0.5);
        assert!((rate - 32_020.0).abs() < 5.0, "rate {rate}");

        let run = long_run(s, 1, 50, 2000.0);
        let (mean, hw) = batch_ci(&run.batch_bps);
        assert!((mean - rate).abs() < hw, "{mean} +- {hw} vs {rate}");
        assert!((mean - 32_000.0).abs() < hw, "{mean} +- {hw} vs 32000");

        // Burst lengths: N is a rounded exponential; its variance is within a few % of μ²
        // (rounding adds ~1/12), so the 95 % half-width for the mean is 1.96 μ / sqrt(n)
        // (about 0.12 packets here).
        let n = run.burst_lengths.len() as f64;
        let mean_n = run.burst_lengths.iter().sum::<u64>() as f64 / n;
        let hw_n = 1.96 * (mu * mu + 1.0 / 12.0).sqrt() / n.sqrt();
        assert!((mean_n - e_n).abs() < hw_n, "{mean_n} +- {hw_n} vs {e_n}");
    }

    #[test]
    fn pareto_mean_burst_length_and_rate_match_the_pareto_mean() {
        // Shape k = 3.5 so the burst length has a finite third moment and the CLT (Berry-
        // Esseen) justifies a normal interval; ns-2's default 1.5 has infinite variance and
        // no such interval. μ = 0.5 / I = 19.048, scale x_m = μ(k-1)/k = 13.605 packets,
        // mean k x_m / (k-1) = μ, variance x_m² k / ((k-1)² (k-2)) = 69.1 (σ = 8.31).
        // ns-2 rounds X half up; the minimum 13.6 is > 1/2, so N = round(X) and
        // E[N] = sum_{n>=1} P(X >= n - 1/2) = sum_n min(1, (x_m / (n - 1/2))^k), summed
        // below (the tail beyond 10^6 terms is < x_m^k 10^(6(1-k)) / (k-1) ~ 1e-11).
        let k = 3.5;
        let cfg = OnOffConfig::ns2_default();
        let s = source(OnOffLaw::Pareto { shape: k }, cfg);
        let i = s.interval_s();
        let mu = 0.5 / i;
        let xm = mu * (k - 1.0) / k;
        assert!((k * xm / (k - 1.0) - mu).abs() < 1e-12);
        let e_n: f64 = (1..1_000_000)
            .map(|n| (xm / (n as f64 - 0.5)).powf(k).min(1.0))
            .sum();
        // Rounding moves the mean by about a hundredth of a packet from μ (0.0098).
        assert!((e_n - mu).abs() < 0.02, "E[N] {e_n} vs μ {mu}");
        let sigma = (xm * xm * k / ((k - 1.0).powi(2) * (k - 2.0))).sqrt();
        assert!((sigma - 8.313).abs() < 1e-3, "σ {sigma}");

        let run = long_run(s, 2, 50, 2000.0);
        let n = run.burst_lengths.len() as f64;
        let mean_n = run.burst_lengths.iter().sum::<u64>() as f64 / n;
        // σ of round(X) is σ of X within rounding's ±1/2; 1.96 (σ + 1/2) / sqrt(n) covers it.
        let hw_n = 1.96 * (sigma + 0.5) / n.sqrt();
        assert!((mean_n - e_n).abs() < hw_n, "{mean_n} +- {hw_n} vs {e_n}");
        assert!(
            run.burst_lengths.iter().all(|&b| b >= 14),
            "N >= round(13.6)"
        );

        // Renewal-reward: rate = E[N]·1680 / (E[N]·I + E[Y]), E[Y] = idle_time_ = 0.5 s.
        let rate = e_n * 1680.0 / (e_n * i + 0.5);
        let (mean, hw) = batch_ci(&run.batch_bps);
        assert!((mean - rate).abs() < hw, "{mean} +- {hw} vs {rate}");
    }

    #[test]
    fn pareto_default_shape_respects_its_scales() {
        // Shape 1.5: burst scale μ/3 = 6.35 packets -> every burst has >= round(6.35) = 6
        // packets; idle scale 0.5/3 s -> every inter-burst gap is >= I + 0.1667 s.
        let mut s = source(OnOffLaw::Pareto { shape: 1.5 }, OnOffConfig::ns2_default());
        let mut rng = RandomStream::named(8, "onoff");
        s.start(SimTime::ZERO, &mut rng);
        let i = s.interval_s();
        let (mut last, mut burst, mut len) = (None::<SimTime>, 1, 0);
        for _ in 0..20_000 {
            let t = s.next_send().unwrap();
            if s.bursts() != burst {
                assert!(len >= 6, "burst of {len}");
                let gap = (t - last.unwrap()).as_secs_f64();
                assert!(gap >= i + 0.5 / 3.0 - 1e-9, "idle gap {gap}");
                burst = s.bursts();
                len = 0;
            } else if let Some(l) = last {
                assert!(((t - l).as_secs_f64() - i).abs() < 2e-9);
            }
            len += 1;
            s.on_send(t, &mut rng);
            last = Some(t);
        }
    }
}
