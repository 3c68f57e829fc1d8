//! Per-flow metrics. Each has exactly one definition, stated here and in the README:
//!
//! - **active period**: from the flow's start to its end, where the end is the time the last
//!   application byte was delivered for a finite transfer that completed, else the earlier of
//!   the flow's stop time and the end of the run.
//! - **throughput_bps**: bits of TCP data packets (on-the-wire size, duplicates included)
//!   received by the destination node during the run, divided by the active period.
//! - **goodput_bps**: application payload bits delivered in order to the receiving
//!   application (each byte once), divided by the active period.
//! - **delivered_bytes**: those application payload bytes.
//! - **retransmitted_segments**: data segments the sender sent more than once (every resend
//!   counts), **timeouts**: retransmission-timer expiries, **fast_retransmits**: retransmits
//!   triggered by duplicate ACKs or Vegas's fine-grained checks.
//! - **spurious_timeouts**: retransmission-timer expiries whose timed-out segment had in fact
//!   reached the receiver: it had been received when the timer fired, or its original
//!   (never-retransmitted) transmission arrived afterwards (the Eifel notion, RFC 3522 §1).
//! - **redundant_retransmissions**: retransmitted data segments that arrived at a receiver
//!   which already had that segment.
//! - **mean_cwnd**: time average of cwnd (packets) over the active period.
//! - **rtt_*_s**, **rtt_samples**: over every ACK that acknowledges new data, `now - sent_at`
//!   of the data segment that triggered the ACK (an exact timestamp echo, RFC 7323 style, so
//!   samples exist for retransmissions too and include any delayed-ACK wait). The ACK of an
//!   emulated SYN (a 40-byte packet 0) is not a data RTT and is left out.
//! - **max_cwnd**: the largest cwnd (packets) the sender reached.
//! - **dropped_packets**: packets of the flow (data and ACKs) dropped anywhere, any reason.
//! - **delay_mean_s**: mean one-way delay of data packets from the sender's transmission to
//!   arrival at the destination node (every arrival, duplicates included).
//! - **jitter_s**: mean absolute difference between the one-way delays of consecutive data
//!   packets arriving at the destination (IPDV, RFC 3393 §4.5 with mean |D(i) - D(i-1)|), in
//!   arrival order. This is the jitter of the ns-2 awk scripts of MANET papers, which walk the
//!   `r ... AGT` lines in order and average the absolute change of the delay.
//! - **data_packets_sent**: data packets the source's transport agent put into the network,
//!   every retransmission counted (TCP: every segment transmission; UDP: every datagram): the
//!   `s ... AGT` lines of an ns-2 trace.
//! - **data_packets_received**: data packets arriving at the destination node's agent,
//!   duplicates included: the `r ... AGT` lines.
//! - **packet_delivery_ratio**: data_packets_received / data_packets_sent (`None` before the
//!   first send), the ns-2 awk definition; packets still in the network at the end of the
//!   run count as sent and not received.
//! - **loss_rate**: (data_packets_sent - data_packets_received) / data_packets_sent, i.e.
//!   1 - packet_delivery_ratio: the awk scripts count a packet as dropped when a `s` line has
//!   no `r` line, so the two add up to one (as in the arunakumari-manet tables).
//! - The run's totals (`traffic` in the summary) add the counts over flows; its delay and
//!   jitter are the means over every flow's arrivals (and every flow's consecutive pairs).
//! - Over time: see [`crate::trace::flow_series`].

use super::flow_series::FlowSeries;
use crate::sim::SimTime;

/// Count, sum, min and max of a series.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RunningStats {
    pub n: u64,
    pub sum: f64,
    pub min: f64,
    pub max: f64,
}

impl Default for RunningStats {
    fn default() -> Self {
        RunningStats {
            n: 0,
            sum: 0.0,
            min: f64::INFINITY,
            max: f64::NEG_INFINITY,
        }
    }
}

impl RunningStats {
    /// Comparisons, not `f64::min`/`max`, whose NaN handling is some five instructions each
    /// (three samples per data packet and its ACK): the same extremes for every sample,
    /// and a NaN sample leaves them as they are, as `min`/`max` do.
    #[inline]
    pub fn add(&mut self, x: f64) {
        self.n += 1;
        self.sum += x;
        if x < self.min {
            self.min = x;
        }
        if x > self.max {
            self.max = x;
        }
    }
    pub fn mean(&self) -> Option<f64> {
        (self.n > 0).then(|| self.sum / self.n as f64)
    }
    pub fn min(&self) -> Option<f64> {
        (self.n > 0).then_some(self.min)
    }
    pub fn max(&self) -> Option<f64> {
        (self.n > 0).then_some(self.max)
    }
}

/// What the host observes of one flow while the run goes on.
#[derive(Clone, Debug, Default)]
pub struct FlowStats {
    pub data_wire_bytes_received: u64,
    pub data_packets_received: u64,
    pub delivered_bytes: u64,
    pub spurious_timeouts: u64,
    pub redundant_retransmissions: u64,
    pub dropped_packets: u64,
    /// ACKs reaching the sender whose cumulative ACK equals the previous one it received.
    pub dup_acks_received: u64,
    /// The cumulative ACK of the last ACK that reached the sender.
    pub last_ack_received: Option<i64>,
    pub max_cwnd: f64,
    /// Timed-out segments not yet received, whose original may still arrive.
    pub pending_timeouts: Vec<i64>,
    pub rtt: RunningStats,
    pub delay: RunningStats,
    pub jitter: RunningStats,
    last_delay: Option<f64>,
    /// Integral of cwnd over time (packet-seconds) and the last change.
    cwnd_integral: f64,
    cwnd_last: f64,
    cwnd_since: SimTime,
    cwnd_started: bool,
    /// When the last application byte was delivered, for a finite transfer that completed.
    pub completed_at: Option<SimTime>,
    /// The binned series, when the `flow_series` trace is on.
    pub series: Option<FlowSeries>,
}

impl FlowStats {
    /// Stats that also record the `flow_series` bins of `width`.
    pub fn with_series(width: SimTime) -> Self {
        FlowStats {
            series: Some(FlowSeries::new(width)),
            ..FlowStats::default()
        }
    }

    /// Records the arrival of a data packet at the destination node at `now`.
    pub fn data_arrival(&mut self, now: SimTime, wire_bytes: u32, one_way_delay_s: f64) {
        self.data_wire_bytes_received += u64::from(wire_bytes);
        self.data_packets_received += 1;
        self.delay.add(one_way_delay_s);
        let ipdv = self.last_delay.map(|prev| (one_way_delay_s - prev).abs());
        if let Some(j) = ipdv {
            self.jitter.add(j);
        }
        self.last_delay = Some(one_way_delay_s);
        if let Some(s) = self.series.as_mut() {
            s.arrival(now, wire_bytes, one_way_delay_s, ipdv);
        }
    }

    /// Records cwnd after an event that may have changed it (time-weighted average).
    pub fn cwnd_now(&mut self, now: SimTime, cwnd: f64) {
        // A comparison, as in `RunningStats::add`.
        if cwnd > self.max_cwnd {
            self.max_cwnd = cwnd;
        }
        if self.cwnd_started {
            self.cwnd_integral += self.cwnd_last * (now - self.cwnd_since).as_secs_f64();
        }
        self.cwnd_started = true;
        self.cwnd_last = cwnd;
        self.cwnd_since = now;
    }

    /// Time-average cwnd from the first recorded value to `end`.
    pub fn mean_cwnd(&self, start: SimTime, end: SimTime) -> Option<f64> {
        if !self.cwnd_started || end <= start {
            return None;
        }
        let tail = self.cwnd_last * end.saturating_sub(self.cwnd_since).as_secs_f64();
        Some((self.cwnd_integral + tail) / (end - start).as_secs_f64())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mean_cwnd_is_time_weighted() {
        // cwnd 2 for 1 s, then 4 for 3 s: (2*1 + 4*3)/4 = 3.5.
        let mut s = FlowStats::default();
        s.cwnd_now(SimTime::ZERO, 2.0);
        s.cwnd_now(SimTime::from_millis(1000), 4.0);
        assert_eq!(
            s.mean_cwnd(SimTime::ZERO, SimTime::from_millis(4000)),
            Some(3.5)
        );
    }

    #[test]
    fn jitter_is_mean_absolute_delay_difference() {
        // Delays 10, 12, 11 ms: differences 2 and 1 ms, mean 1.5 ms.
        let mut s = FlowStats::default();
        for d in [0.010, 0.012, 0.011] {
            s.data_arrival(SimTime::ZERO, 1040, d);
        }
        assert!((s.jitter.mean().unwrap() - 0.0015).abs() < 1e-12);
        assert_eq!(s.data_wire_bytes_received, 3120);
        assert!((s.delay.mean().unwrap() - 0.011).abs() < 1e-12);
    }
}

/// Packet delivery ratio and loss rate from sent and received counts (definitions above).
pub fn delivery(sent: u64, received: u64) -> (Option<f64>, Option<f64>) {
    if sent == 0 {
        return (None, None);
    }
    let pdr = received as f64 / sent as f64;
    let lost = sent.saturating_sub(received);
    (Some(pdr), Some(lost as f64 / sent as f64))
}

#[cfg(test)]
mod delivery_tests {
    use super::*;

    /// A TCP source sends segments 1..=10, segment 4 is lost and retransmitted (11
    /// transmissions), and the retransmission of 7 after a spurious timeout arrives as a
    /// duplicate (12 transmissions, 11 arrivals): PDR 11/12, loss rate 1/12, summing to one.
    #[test]
    fn retransmissions_count_as_sent_and_duplicates_as_received() {
        let (pdr, loss) = delivery(12, 11);
        assert!((pdr.unwrap() - 11.0 / 12.0).abs() < 1e-15);
        assert!((loss.unwrap() - 1.0 / 12.0).abs() < 1e-15);
        assert!((pdr.unwrap() + loss.unwrap() - 1.0).abs() < 1e-15);
        assert_eq!(delivery(0, 0), (None, None));
        assert_eq!(delivery(5, 0), (Some(0.0), Some(1.0)));
    }

    /// The arrivals of a flow over 3 s in 1 s bins: delays 100, 300, 200, 200 ms arriving at
    /// 0.5, 0.9, 1.5, 2.5 s. Mean delay 0.2 s; jitter (|300-100| + |200-300| + 0) / 3 = 0.1 s;
    /// the series has 2 packets in bin 0 (jitter 0.2), 1 in bin 1 (0.1), 1 in bin 2 (0).
    #[test]
    fn the_run_and_the_series_see_the_same_arrivals() {
        let mut s = FlowStats::with_series(SimTime::from_millis(1000));
        for (t, d) in [(500, 0.1), (900, 0.3), (1500, 0.2), (2500, 0.2)] {
            s.data_arrival(SimTime::from_millis(t), 552, d);
        }
        assert!((s.delay.mean().unwrap() - 0.2).abs() < 1e-12);
        assert!((s.jitter.mean().unwrap() - 0.1).abs() < 1e-12);
        assert_eq!(s.jitter.n, 3);
        let bins: Vec<_> = s
            .series
            .as_ref()
            .unwrap()
            .bins_until(SimTime::from_millis(3000))
            .map(|(_, b)| b)
            .collect();
        assert_eq!(
            bins.iter().map(|b| b.packets).collect::<Vec<_>>(),
            [2, 1, 1]
        );
        assert!((bins[0].jitter_s() - 0.2).abs() < 1e-12);
        assert!((bins[1].jitter_s() - 0.1).abs() < 1e-12);
        assert_eq!(bins[2].jitter_s(), 0.0);
    }
}
