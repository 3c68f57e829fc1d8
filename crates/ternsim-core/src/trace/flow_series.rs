//! Throughput, delay and jitter of one flow over time, in bins of a fixed width (the
//! `flow_series` trace; `[traces] flow_series_bin`, default 1 s), for the "throughput at
//! different simulation times" and "jitter at different simulation times" figures of the
//! MANET literature, which ns-2 users compute with awk over the `r ... AGT` lines of a trace.
//!
//! Each arrival of a data packet at the destination node (duplicates included, as every
//! `r ... AGT` line counts) belongs to the bin holding its arrival time, `floor(t / width)`.
//! For bin `k` covering `[k·w, (k+1)·w)`:
//!
//! - **packets**, **bytes**: data packets and their on-the-wire bytes arriving in the bin;
//! - **throughput_bps**: `bytes · 8 / w`;
//! - **delay_s**: mean one-way delay of those packets (NaN for an empty bin);
//! - **jitter_s**: mean of `|D(i) - D(i-1)|` over the arrivals `i` in the bin, `D(i-1)` being
//!   the delay of the flow's previous arrival, wherever it fell (the same IPDV definition as
//!   the run's `jitter_s`; NaN when no arrival in the bin has a predecessor).

use crate::sim::SimTime;

/// One bin's sums.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SeriesBin {
    pub packets: u64,
    pub bytes: u64,
    pub delay_sum: f64,
    pub jitter_sum: f64,
    pub jitter_n: u64,
}

impl SeriesBin {
    pub fn throughput_bps(&self, width_s: f64) -> f64 {
        self.bytes as f64 * 8.0 / width_s
    }
    pub fn delay_s(&self) -> f64 {
        if self.packets == 0 {
            f64::NAN
        } else {
            self.delay_sum / self.packets as f64
        }
    }
    pub fn jitter_s(&self) -> f64 {
        if self.jitter_n == 0 {
            f64::NAN
        } else {
            self.jitter_sum / self.jitter_n as f64
        }
    }
}

/// The binned series of one flow.
#[derive(Clone, Debug)]
pub struct FlowSeries {
    width: SimTime,
    bins: Vec<SeriesBin>,
}

impl FlowSeries {
    /// An empty series with bins of `width` (> 0, checked by the scenario).
    pub fn new(width: SimTime) -> Self {
        assert!(width > SimTime::ZERO, "a positive bin width");
        FlowSeries {
            width,
            bins: Vec::new(),
        }
    }

    pub fn width(&self) -> SimTime {
        self.width
    }

    /// A data packet of `wire_bytes` arrived at `now` after `delay_s`; `ipdv_s` is
    /// `|D(i) - D(i-1)|` if the flow had an earlier arrival.
    pub fn arrival(&mut self, now: SimTime, wire_bytes: u32, delay_s: f64, ipdv_s: Option<f64>) {
        let k = (now.as_nanos() / self.width.as_nanos()) as usize;
        if self.bins.len() <= k {
            self.bins.resize(k + 1, SeriesBin::default());
        }
        let b = &mut self.bins[k];
        b.packets += 1;
        b.bytes += u64::from(wire_bytes);
        b.delay_sum += delay_s;
        if let Some(j) = ipdv_s {
            b.jitter_sum += j;
            b.jitter_n += 1;
        }
    }

    /// Every bin from time 0 up to the one holding `end` (exclusive when `end` is a bin
    /// boundary), empty bins included, with its start time.
    pub fn bins_until(&self, end: SimTime) -> impl Iterator<Item = (SimTime, SeriesBin)> + '_ {
        let w = self.width.as_nanos();
        let n = end.as_nanos().div_ceil(w) as usize;
        (0..n).map(move |k| {
            let start = SimTime::from_nanos(k as u64 * w);
            (start, self.bins.get(k).copied().unwrap_or_default())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(v: u64) -> SimTime {
        SimTime::from_millis(v)
    }

    /// Arrivals (time ms, delay ms) at 200 (10), 700 (14), 1100 (11), 2900 (20) in 1 s bins:
    /// bin 0 has 2 packets, delays 10 and 14 (mean 12 ms), one IPDV |14 - 10| = 4 ms;
    /// bin 1 has 1 packet, delay 11, IPDV |11 - 14| = 3 ms; bin 2 has 1 packet, delay 20,
    /// IPDV |20 - 11| = 9 ms (its predecessor sits two bins back); a 3.5 s run has 4 bins,
    /// the last one empty.
    #[test]
    fn arrivals_fall_into_the_bin_of_their_arrival_time() {
        let mut s = FlowSeries::new(ms(1000));
        let mut last = None::<f64>;
        for (t, d) in [(200, 0.010), (700, 0.014), (1100, 0.011), (2900, 0.020)] {
            s.arrival(ms(t), 552, d, last.map(|p: f64| (d - p).abs()));
            last = Some(d);
        }
        let bins: Vec<_> = s.bins_until(ms(3500)).collect();
        assert_eq!(bins.len(), 4);
        assert_eq!(
            bins.iter().map(|(t, _)| *t).collect::<Vec<_>>(),
            [ms(0), ms(1000), ms(2000), ms(3000)]
        );
        let (_, b0) = bins[0];
        assert_eq!((b0.packets, b0.bytes), (2, 1104));
        assert!((b0.throughput_bps(1.0) - 8832.0).abs() < 1e-9);
        assert!((b0.delay_s() - 0.012).abs() < 1e-12);
        assert!((b0.jitter_s() - 0.004).abs() < 1e-12);
        let (_, b1) = bins[1];
        assert_eq!(b1.packets, 1);
        assert!((b1.jitter_s() - 0.003).abs() < 1e-12);
        let (_, b2) = bins[2];
        assert!((b2.jitter_s() - 0.009).abs() < 1e-12);
        let (_, b3) = bins[3];
        assert_eq!(b3.packets, 0);
        assert_eq!(b3.throughput_bps(1.0), 0.0);
        assert!(b3.delay_s().is_nan() && b3.jitter_s().is_nan());
        // A run ending on a bin boundary has no bin starting at its end.
        assert_eq!(s.bins_until(ms(3000)).count(), 3);
    }

    /// A 250 ms bin: an arrival at exactly 250 ms opens the second bin; throughput scales
    /// with the width (552 B in 0.25 s = 17 664 b/s).
    #[test]
    fn the_bin_width_sets_the_boundaries_and_the_rate() {
        let mut s = FlowSeries::new(ms(250));
        s.arrival(ms(249), 552, 0.01, None);
        s.arrival(ms(250), 552, 0.01, Some(0.0));
        let bins: Vec<_> = s.bins_until(ms(500)).map(|(_, b)| b).collect();
        assert_eq!((bins[0].packets, bins[1].packets), (1, 1));
        assert!((bins[0].throughput_bps(0.25) - 17_664.0).abs() < 1e-9);
        assert!(bins[0].jitter_s().is_nan());
        assert_eq!(bins[1].jitter_s(), 0.0);
    }
}
