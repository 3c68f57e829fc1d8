//! Constant bit rate source: ns-2 `Application/Traffic/CBR` (`tools/cbr_traffic.cc`,
//! `tools/trafgen.cc`, `tcl/lib/ns-source.tcl`), sans-IO.
//!
//! The host calls [`Cbr::start`], then calls [`Cbr::on_send`] at every instant
//! [`Cbr::next_send`] names and hands the returned byte count to the agent
//! ([`crate::app::udp::UdpAgent::sendmsg`]). [`Cbr::stop`] cancels the pending send. A send due
//! at the same instant as a scripted stop must not happen (ns-2 runs equal-time events in
//! insertion order and the stop was inserted at script time), so the host processes a stop
//! before a send due at the same time.
//!
//! The schedule is kept as an `f64` count of seconds and advanced by adding each gap, as ns-2's
//! double-precision clock does, so non-binary gaps (0.1 s) round exactly as they do in ns-2;
//! [`Cbr::next_send`] rounds that sum to the nearest nanosecond.

use super::draws::SourceDraws;
use crate::sim::SimTime;

/// How the sending rate is given. ns-2 keeps only `rate_`; `interval_` is a Tcl view of it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CbrPacing {
    /// `rate_` in bit/s.
    Rate { bps: f64 },
    /// `interval_` in seconds. `ns-source.tcl` turns `set interval_ X` into
    /// `rate_ = 8 * packetSize_ / X` with the packet size of this config, so a front end that
    /// replays a script which set `interval_` before `packetSize_` must pass the rate instead.
    Interval { secs: f64 },
}

/// The CBR source's parameters (ns-2 names in brackets).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CbrConfig {
    /// Bytes handed to the agent per send [`packetSize_`].
    pub packet_size: u32,
    pub pacing: CbrPacing,
    /// Uniform jitter on every gap [`random_` ≠ 0].
    pub random: bool,
    /// Stop after this many sends in the source's lifetime [`maxpkts_`]; `None` = no limit.
    pub max_packets: Option<u64>,
}

impl CbrConfig {
    /// ns-2.35 `ns-default.tcl`: 448 kb/s, 210 B, no jitter, maxpkts_ 2^28.
    pub fn ns2_default() -> Self {
        CbrConfig {
            packet_size: 210,
            pacing: CbrPacing::Rate { bps: 448_000.0 },
            random: false,
            max_packets: Some(1 << 28),
        }
    }
}

/// A CBR source.
#[derive(Clone, Debug)]
pub struct Cbr {
    packet_size: u32,
    rate_bps: f64,
    random: bool,
    max_packets: Option<u64>,
    /// ns-2's `seqno_`: sends so far, never reset (not even by stop/start).
    sent: u64,
    /// Due time of the next send in seconds; `None` when not running.
    next_at_s: Option<f64>,
}

impl Cbr {
    pub fn new(cfg: CbrConfig) -> Result<Self, String> {
        if cfg.packet_size == 0 {
            return Err("CBR packet size must be > 0".into());
        }
        let rate_bps = match cfg.pacing {
            CbrPacing::Rate { bps } => bps,
            CbrPacing::Interval { secs } if secs > 0.0 && secs.is_finite() => {
                f64::from(cfg.packet_size) * 8.0 / secs
            }
            CbrPacing::Interval { .. } => return Err("CBR interval must be > 0".into()),
        };
        if !(rate_bps > 0.0 && rate_bps.is_finite()) {
            return Err("CBR rate must be > 0".into());
        }
        Ok(Cbr {
            packet_size: cfg.packet_size,
            rate_bps,
            random: cfg.random,
            max_packets: cfg.max_packets,
            sent: 0,
            next_at_s: None,
        })
    }

    /// The nominal gap 8 * packetSize_ / rate_ in seconds, from the current size and rate.
    pub fn interval_s(&self) -> f64 {
        f64::from(self.packet_size) * 8.0 / self.rate_bps
    }

    /// `start` (cbr_traffic.cc): the first packet goes out at `now`, unjittered, unlike the
    /// generic TrafficGenerator start that waits one gap.
    pub fn start(&mut self, now: SimTime) {
        // The double nearest to `now`, as ns-2's clock holds the time of `$ns at 0.2`.
        self.next_at_s = Some(now.as_secs_exact());
    }

    /// When the next packet is due, if the source is running.
    pub fn next_send(&self) -> Option<SimTime> {
        self.next_at_s.map(SimTime::from_secs_f64)
    }

    /// The same, exactly, in seconds (the sum of the gaps, as ns-2's double clock has it).
    pub fn next_send_exact(&self) -> Option<f64> {
        self.next_at_s
    }

    /// Sends the packet due now: returns the bytes to hand to the agent and schedules the next
    /// send, or stops the source once `max_packets` have gone out.
    pub fn on_send(&mut self, now: SimTime, rng: &mut impl SourceDraws) -> u32 {
        let Some(at) = self.next_at_s else {
            debug_assert!(false, "on_send on a stopped CBR source");
            return 0;
        };
        debug_assert_eq!(SimTime::from_secs_f64(at), now, "on_send off schedule");
        // `next_interval` recomputes the interval before every packet, so rate or size changes
        // apply from the next gap; the jitter draw comes before the maxpkts_ check, so the last
        // packet also consumes one.
        let interval = self.interval_s();
        let mut gap = interval;
        if self.random {
            gap += interval * rng.uniform_range(-0.5, 0.5);
        }
        self.sent += 1;
        let more = self.max_packets.is_none_or(|max| self.sent < max);
        self.next_at_s = more.then_some(at + gap);
        self.packet_size
    }

    /// Cancels the pending send. A later [`Cbr::start`] sends at once again.
    pub fn stop(&mut self) {
        self.next_at_s = None;
    }

    /// Changes `rate_`; takes effect at the next gap computed.
    pub fn set_rate_bps(&mut self, bps: f64) {
        self.rate_bps = bps;
    }

    /// Changes `packetSize_`; the next send carries it and the next gap uses it.
    pub fn set_packet_size(&mut self, bytes: u32) {
        self.packet_size = bytes;
    }

    pub fn packet_size(&self) -> u32 {
        self.packet_size
    }

    pub fn packets_sent(&self) -> u64 {
        self.sent
    }

    pub fn is_running(&self) -> bool {
        self.next_at_s.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::RandomStream;

    fn cbr(bps: f64, size: u32, random: bool, max: Option<u64>) -> Cbr {
        Cbr::new(CbrConfig {
            packet_size: size,
            pacing: CbrPacing::Rate { bps },
            random,
            max_packets: max,
        })
        .unwrap()
    }

    /// Drives the source and returns its send times.
    fn run(c: &mut Cbr, rng: &mut RandomStream, n: usize) -> Vec<SimTime> {
        let mut times = Vec::new();
        while let Some(t) = c.next_send() {
            if times.len() == n {
                break;
            }
            c.on_send(t, rng);
            times.push(t);
        }
        times
    }

    #[test]
    fn sends_500_byte_packets_at_64_kbps_every_62_5_ms() {
        // 8 * 500 / 64000 = 0.0625 s, a binary fraction: the sum is exact at every step.
        let mut c = cbr(64_000.0, 500, false, None);
        let mut rng = RandomStream::named(1, "cbr");
        c.start(SimTime::from_millis(1000));
        assert_eq!(c.next_send(), Some(SimTime::from_millis(1000)));
        for k in 0..1000u64 {
            let t = c.next_send().unwrap();
            assert_eq!(t, SimTime::from_nanos(1_000_000_000 + k * 62_500_000));
            assert_eq!(c.on_send(t, &mut rng), 500);
        }
        assert_eq!(c.packets_sent(), 1000);
    }

    #[test]
    fn defaults_give_3_75_ms() {
        let c = Cbr::new(CbrConfig::ns2_default()).unwrap();
        assert_eq!(c.interval_s(), 0.00375);
    }

    #[test]
    fn interval_is_turned_into_a_rate_with_the_configured_size() {
        // ns-source.tcl: interval_ 0.25 with 512-byte packets is rate_ 8 * 512 / 0.25.
        let c = Cbr::new(CbrConfig {
            packet_size: 512,
            pacing: CbrPacing::Interval { secs: 0.25 },
            random: false,
            max_packets: None,
        })
        .unwrap();
        assert_eq!(c.rate_bps, 16_384.0);
        assert_eq!(c.interval_s(), 0.25);
        assert!(Cbr::new(CbrConfig {
            pacing: CbrPacing::Interval { secs: 0.0 },
            ..CbrConfig::ns2_default()
        })
        .is_err());
    }

    #[test]
    fn max_packets_counts_over_the_lifetime_and_one_still_sends_one() {
        // maxpkts_ 3: sends at 0, I, 2I, then stops; a restart sends exactly one more.
        let mut c = cbr(8000.0, 100, false, Some(3)); // I = 0.1 s
        let mut rng = RandomStream::named(1, "cbr");
        c.start(SimTime::ZERO);
        let t = run(&mut c, &mut rng, 10);
        assert_eq!(
            t,
            vec![
                SimTime::ZERO,
                SimTime::from_millis(100),
                SimTime::from_millis(200)
            ]
        );
        assert!(!c.is_running());
        c.start(SimTime::from_secs_f64(5.0));
        assert_eq!(run(&mut c, &mut rng, 10), vec![SimTime::from_secs_f64(5.0)]);
        assert_eq!(c.packets_sent(), 4);

        let mut one = cbr(8000.0, 100, false, Some(0));
        one.start(SimTime::ZERO);
        assert_eq!(run(&mut one, &mut rng, 10).len(), 1);
    }

    #[test]
    fn stop_at_1_0_to_10_0_with_quarter_second_gaps_sends_36() {
        // Spec §3: interval 0.25, start 1.0, stop 10.0 -> sends at 1.00 .. 9.75; the send due
        // at 10.0 loses to the stop scheduled earlier at the same instant.
        let mut c = cbr(8.0 * 210.0 / 0.25, 210, false, None);
        let mut rng = RandomStream::named(1, "cbr");
        c.start(SimTime::from_millis(1000));
        let stop = SimTime::from_millis(10_000);
        let mut n = 0;
        while let Some(t) = c.next_send() {
            if t >= stop {
                c.stop();
                break;
            }
            c.on_send(t, &mut rng);
            n += 1;
        }
        assert_eq!(n, 36);
        assert_eq!(c.next_send(), None);
    }

    #[test]
    fn gaps_sum_in_double_precision() {
        // Gap 0.1 s: ten gaps summed in f64 are 0.9999999999999999 s, which rounds to 1 s;
        // the schedule is the f64 sum, not ten rounded SimTime steps.
        let mut c = cbr(8000.0, 100, false, None);
        let mut rng = RandomStream::named(1, "cbr");
        c.start(SimTime::ZERO);
        let t = run(&mut c, &mut rng, 11);
        let mut s = 0.0f64;
        for (k, at) in t.iter().enumerate() {
            assert_eq!(*at, SimTime::from_secs_f64(s), "send {k}");
            s += 0.1;
        }
        assert_eq!(t[10], SimTime::from_millis(1000));
    }

    #[test]
    fn rate_change_applies_from_the_next_gap() {
        let mut c = cbr(8000.0, 100, false, None); // I = 0.1
        let mut rng = RandomStream::named(1, "cbr");
        c.start(SimTime::ZERO);
        c.on_send(SimTime::ZERO, &mut rng);
        assert_eq!(c.next_send(), Some(SimTime::from_millis(100)));
        c.set_rate_bps(16_000.0); // I = 0.05 from the gap after the next send
        c.on_send(SimTime::from_millis(100), &mut rng);
        assert_eq!(c.next_send(), Some(SimTime::from_millis(150)));
        c.set_packet_size(200); // I = 0.1, and the next send carries 200 bytes
        assert_eq!(c.on_send(SimTime::from_millis(150), &mut rng), 200);
        assert_eq!(c.next_send(), Some(SimTime::from_millis(250)));
    }

    #[test]
    fn jitter_is_i_times_uniform_minus_half_per_gap() {
        // Hand-worked: each gap is I + I * (U - 0.5) with U the stream's next uniform, and the
        // gaps accumulate (cbr_traffic.cc next_interval). I = 0.1 s.
        let mut c = cbr(8000.0, 100, true, None);
        let mut rng = RandomStream::named(9, "cbr");
        let mut mirror = rng.clone();
        c.start(SimTime::ZERO);
        assert_eq!(c.next_send(), Some(SimTime::ZERO), "first send unjittered");
        let mut at = 0.0f64;
        for _ in 0..5 {
            c.on_send(SimTime::from_secs_f64(at), &mut rng);
            at += 0.1 + 0.1 * (-0.5 + mirror.uniform());
            assert_eq!(c.next_send(), Some(SimTime::from_secs_f64(at)));
        }
    }

    #[test]
    fn jittered_gaps_stay_in_bounds_and_average_the_nominal_interval() {
        // Gaps are U[0.5 I, 1.5 I): mean I, standard deviation I / sqrt(12). Over n = 100 000
        // independent gaps the sample mean is I within 1.96 * I / sqrt(12 n) at 95 %.
        let n = 100_000usize;
        let mut c = cbr(64_000.0, 500, true, None); // I = 62.5 ms
        let mut rng = RandomStream::named(4, "cbr");
        c.start(SimTime::ZERO);
        let t = run(&mut c, &mut rng, n + 1);
        let i_ns = 62_500_000.0;
        for w in t.windows(2) {
            let gap = (w[1] - w[0]).as_nanos() as f64;
            // +-1 ns: both ends are rounded to the nanosecond.
            assert!(
                gap >= 0.5 * i_ns - 1.0 && gap < 1.5 * i_ns + 1.0,
                "gap {gap}"
            );
        }
        let mean = t[n].as_nanos() as f64 / n as f64;
        let half_width = 1.96 * i_ns / (12.0 * n as f64).sqrt();
        assert!((mean - i_ns).abs() < half_width, "mean gap {mean} ns");
    }

    #[test]
    fn same_seed_same_schedule() {
        let sched = |seed| {
            let mut c = cbr(64_000.0, 500, true, None);
            let mut rng = RandomStream::named(seed, "cbr");
            c.start(SimTime::ZERO);
            run(&mut c, &mut rng, 100)
        };
        assert_eq!(sched(5), sched(5));
        assert_ne!(sched(5), sched(6));
    }
}
