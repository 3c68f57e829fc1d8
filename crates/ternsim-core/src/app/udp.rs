//! ns-2 `Agent/UDP` on the sending side (`apps/udp.cc`, `UdpAgent::sendmsg`) and per-flow
//! datagram statistics, sans-IO.
//!
//! **Packetisation.** An application write of n bytes becomes floor(n / S) datagrams of S bytes
//! (S = `packetSize_`, default 1000), then one of n mod S bytes if that is positive, all in the
//! same event, in that order. Each takes the agent's next sequence number, starting at 0.
//!
//! **Size on the wire.** A datagram's size is its payload size, exactly: ns-2's UDP agent adds
//! neither the 8-byte UDP nor the 20-byte IP header, and wired links add nothing, so a 1000-byte
//! write is a 1000-byte packet in the trace and on the link. (On wireless nodes the routing
//! agent adds its IP bytes when the packet is originated; that is the host's business.)
//!
//! **Statistics** ([`DatagramStats`]), with one definition each:
//! - **lost**: datagrams the network dropped, as the host reports them ([`DatagramStats::
//!   on_dropped`]). Neither alternative is right when the run ends with datagrams in flight:
//!   `sent - received` counts those as lost, and sequence gaps (ns-2 `Agent/LossMonitor`) miss
//!   tail losses and anything lost before the first arrival. **in flight** at the end is
//!   `sent - received - lost`. LossMonitor's `nlost_` is kept too, for comparison with ns-2
//!   scripts ([`DatagramStats::loss_monitor_nlost`]).
//! - **delivery ratio**: received / (received + lost), over datagrams whose fate is known at
//!   the end of the run (in-flight ones are left out of both).
//! - **one-way delay**: receive time minus send time of every arriving datagram; mean, min, max.
//! - **IPDV jitter** (`jitter_ipdv_s`): mean of |D(i) - D(i-1)| over consecutive arrivals,
//!   D = one-way delay (RFC 3393 §4.5 with consecutive packets as the selection function). It is
//!   what the TCP flow metrics call `jitter_s` (`trace/flow_stats.rs`).
//! - **RFC 3550 jitter** (`jitter_rfc3550_s`): the interarrival jitter estimator of RFC 3550
//!   §6.4.1, J += (|D(i-1, i)| - J) / 16 with J = 0 before the second arrival, where
//!   D(i-1, i) = (R_i - R_{i-1}) - (S_i - S_{i-1}) = D(i) - D(i-1) for consecutive arrivals in
//!   arrival order; the value at the end of the run. Computed in seconds, not RTP units.
//!
//! Delays are kept in integer nanoseconds and the running values in nanoseconds as `f64`, so
//! sums of whole-nanosecond delays stay exact; the `_s` accessors convert.

use crate::sim::SimTime;
use crate::trace::RunningStats;

/// One datagram the agent emits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UdpDatagram {
    /// ns-2 `hdr_rtp::seqno`.
    pub seqno: u64,
    /// Bytes on the wire (= payload, no headers added).
    pub size: u32,
    /// RTP marker: the application passed `NEW_BURST` (Exponential on/off source).
    pub marker: bool,
}

/// The sending UDP agent.
#[derive(Clone, Debug)]
pub struct UdpAgent {
    packet_size: u32,
    next_seqno: u64,
}

impl UdpAgent {
    /// `packet_size` is `packetSize_`, the largest datagram the agent emits.
    pub fn new(packet_size: u32) -> Result<Self, String> {
        // udp.cc asserts size_ > 0: the split divides by it.
        if packet_size == 0 {
            return Err("UDP packet size must be > 0".into());
        }
        Ok(UdpAgent {
            packet_size,
            next_seqno: 0,
        })
    }

    /// ns-2.35 default `packetSize_` 1000.
    pub fn ns2_default() -> Self {
        UdpAgent {
            packet_size: 1000,
            next_seqno: 0,
        }
    }

    pub fn packet_size(&self) -> u32 {
        self.packet_size
    }

    /// Datagrams emitted so far (= the next sequence number).
    pub fn datagrams_sent(&self) -> u64 {
        self.next_seqno
    }

    /// `sendmsg(nbytes)`: the datagrams to put on the wire now, in order. A zero-byte write
    /// emits nothing. `new_burst` sets the marker on every datagram of the write, as udp.cc
    /// flags each packet it builds for that call.
    pub fn sendmsg(&mut self, nbytes: u64, new_burst: bool) -> Vec<UdpDatagram> {
        let size = u64::from(self.packet_size);
        let (full, rest) = (nbytes / size, nbytes % size);
        let sizes = std::iter::repeat_n(self.packet_size, full as usize)
            .chain((rest > 0).then_some(rest as u32));
        sizes
            .map(|size| {
                let seqno = self.next_seqno;
                self.next_seqno += 1;
                UdpDatagram {
                    seqno,
                    size,
                    marker: new_burst,
                }
            })
            .collect()
    }
}

/// Sender- and receiver-side counters of one datagram flow (definitions in the module docs).
#[derive(Clone, Debug, Default)]
pub struct DatagramStats {
    pub sent_packets: u64,
    pub sent_bytes: u64,
    pub received_packets: u64,
    pub received_bytes: u64,
    pub lost_packets: u64,
    /// One-way delays, nanoseconds.
    pub delay_ns: RunningStats,
    /// |D(i) - D(i-1)| over consecutive arrivals, nanoseconds.
    pub ipdv_ns: RunningStats,
    /// RFC 3550 J, nanoseconds.
    pub rfc3550_jitter_ns: f64,
    last_delay_ns: Option<i64>,
    /// When the latest datagram reached the receiver (ns-2 LossMonitor `lastPktTime_`).
    pub last_arrival: Option<SimTime>,
    /// LossMonitor `expected_`: the sequence number the next arrival should carry. It starts
    /// at 0: ns-default.tcl sets `Agent/LossMonitor set expected_ 0`, which overrides the
    /// C++ constructor's -1, so datagrams lost before the first arrival count too.
    expected_seqno: u64,
    loss_monitor_nlost: u64,
}

impl DatagramStats {
    /// The agent put `d` on the wire.
    pub fn on_sent(&mut self, d: &UdpDatagram) {
        self.sent_packets += 1;
        self.sent_bytes += u64::from(d.size);
    }

    /// The network dropped one of the flow's datagrams (any reason, anywhere).
    pub fn on_dropped(&mut self) {
        self.lost_packets += 1;
    }

    /// `d`, sent at `sent_at`, reached the receiving agent at `now`.
    pub fn on_received(&mut self, d: &UdpDatagram, sent_at: SimTime, now: SimTime) {
        self.received_packets += 1;
        self.received_bytes += u64::from(d.size);
        self.last_arrival = Some(now);
        let delay = (now - sent_at).as_nanos() as i64;
        self.delay_ns.add(delay as f64);
        if let Some(prev) = self.last_delay_ns {
            let d_abs = (delay - prev).unsigned_abs() as f64;
            self.ipdv_ns.add(d_abs);
            // RFC 3550 §6.4.1: gain 1/16 smooths noise while keeping a fast response.
            self.rfc3550_jitter_ns += (d_abs - self.rfc3550_jitter_ns) / 16.0;
        }
        self.last_delay_ns = Some(delay);
        // loss-monitor.cc: a gap above the expected number counts as lost, and a late
        // (reordered) arrival moves the expectation back.
        self.loss_monitor_nlost += d.seqno.saturating_sub(self.expected_seqno);
        self.expected_seqno = d.seqno + 1;
    }

    /// Sent, neither received nor reported dropped: still in the network.
    pub fn in_flight(&self) -> u64 {
        self.sent_packets
            .saturating_sub(self.received_packets + self.lost_packets)
    }

    /// received / (received + lost); `None` before any datagram's fate is known.
    pub fn delivery_ratio(&self) -> Option<f64> {
        let decided = self.received_packets + self.lost_packets;
        (decided > 0).then(|| self.received_packets as f64 / decided as f64)
    }

    /// ns-2 `Agent/LossMonitor` `nlost_` (sequence-gap count).
    pub fn loss_monitor_nlost(&self) -> u64 {
        self.loss_monitor_nlost
    }

    pub fn delay_mean_s(&self) -> Option<f64> {
        self.delay_ns.mean().map(ns_to_s)
    }

    pub fn delay_min_s(&self) -> Option<f64> {
        self.delay_ns.min().map(ns_to_s)
    }

    pub fn delay_max_s(&self) -> Option<f64> {
        self.delay_ns.max().map(ns_to_s)
    }

    /// Mean |D(i) - D(i-1)| (RFC 3393 IPDV); `None` before two arrivals.
    pub fn jitter_ipdv_s(&self) -> Option<f64> {
        self.ipdv_ns.mean().map(ns_to_s)
    }

    /// RFC 3550 §6.4.1 J at the end; `None` before two arrivals.
    pub fn jitter_rfc3550_s(&self) -> Option<f64> {
        (self.ipdv_ns.n > 0).then(|| ns_to_s(self.rfc3550_jitter_ns))
    }
}

fn ns_to_s(ns: f64) -> f64 {
    ns / 1e9
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dg(seqno: u64, size: u32) -> UdpDatagram {
        UdpDatagram {
            seqno,
            size,
            marker: false,
        }
    }

    #[test]
    fn a_1500_byte_write_with_packet_size_1000_is_1000_then_500() {
        // udp.cc: floor(1500 / 1000) = 1 full datagram, then the remainder 500; no headers.
        let mut a = UdpAgent::new(1000).unwrap();
        assert_eq!(a.sendmsg(1500, false), vec![dg(0, 1000), dg(1, 500)]);
        assert_eq!(a.datagrams_sent(), 2);
    }

    #[test]
    fn sequence_numbers_run_across_writes_and_exact_multiples_have_no_tail() {
        let mut a = UdpAgent::ns2_default();
        assert_eq!(a.sendmsg(210, false), vec![dg(0, 210)]);
        assert_eq!(
            a.sendmsg(3000, false),
            vec![dg(1, 1000), dg(2, 1000), dg(3, 1000)]
        );
        assert_eq!(a.sendmsg(0, false), vec![]);
        assert_eq!(a.sendmsg(999, false), vec![dg(4, 999)]);
        assert!(UdpAgent::new(0).is_err());
    }

    #[test]
    fn new_burst_marks_every_datagram_of_the_write() {
        let mut a = UdpAgent::new(100).unwrap();
        let d = a.sendmsg(150, true);
        assert!(d.iter().all(|d| d.marker));
        assert_eq!(d.len(), 2);
        assert!(!a.sendmsg(50, false)[0].marker);
    }

    fn ms(v: u64) -> SimTime {
        SimTime::from_millis(v)
    }

    #[test]
    fn five_datagrams_one_lost_hand_worked() {
        // Sent at 0, 10, 20, 30, 40 ms (seq 0..4, 500 B); seq 2 dropped; the others arrive at
        // 50, 62, 81, 95 ms: delays 50, 52, 51, 55 ms.
        // delivery 4 / (4 + 1) = 0.8; mean delay 208 / 4 = 52 ms, min 50, max 55.
        // |ΔD| = 2, 1, 4 ms: IPDV mean 7/3 ms.
        // RFC 3550, in ns: J = 0 + (2e6 - 0)/16 = 125 000;
        //   J = 125 000 + (1e6 - 125 000)/16 = 179 687.5;
        //   J = 179 687.5 + (4e6 - 179 687.5)/16 = 418 457.031 25.
        let mut s = DatagramStats::default();
        let sent: Vec<_> = (0..5).map(|i| (dg(i, 500), ms(10 * i))).collect();
        for (d, _) in &sent {
            s.on_sent(d);
        }
        assert_eq!((s.sent_packets, s.sent_bytes, s.in_flight()), (5, 2500, 5));
        assert_eq!(s.delivery_ratio(), None);

        s.on_received(&sent[0].0, sent[0].1, ms(50));
        assert_eq!(s.jitter_rfc3550_s(), None);
        assert_eq!(s.jitter_ipdv_s(), None);
        s.on_received(&sent[1].0, sent[1].1, ms(62));
        assert_eq!(s.rfc3550_jitter_ns, 125_000.0);
        s.on_dropped(); // seq 2
        s.on_received(&sent[3].0, sent[3].1, ms(81));
        assert_eq!(s.rfc3550_jitter_ns, 179_687.5);
        assert_eq!(s.loss_monitor_nlost(), 1);
        s.on_received(&sent[4].0, sent[4].1, ms(95));
        assert_eq!(s.rfc3550_jitter_ns, 418_457.031_25);

        assert_eq!((s.received_packets, s.received_bytes), (4, 2000));
        assert_eq!((s.lost_packets, s.in_flight()), (1, 0));
        assert_eq!(s.delivery_ratio(), Some(0.8));
        assert_eq!(s.delay_mean_s(), Some(0.052));
        assert_eq!(s.delay_min_s(), Some(0.050));
        assert_eq!(s.delay_max_s(), Some(0.055));
        assert_eq!((s.ipdv_ns.n, s.ipdv_ns.sum), (3, 7_000_000.0));
        assert_eq!(s.jitter_ipdv_s(), Some(7_000_000.0 / 3.0 / 1e9));
        assert_eq!(s.jitter_rfc3550_s(), Some(418_457.031_25 / 1e9));
        assert_eq!(s.loss_monitor_nlost(), 1);
    }

    #[test]
    fn datagrams_in_flight_at_the_end_are_neither_lost_nor_delivered() {
        // 5 sent; 0, 1, 3 arrive; 2 dropped; 4 still in flight when the run ends.
        // sent - received would say 2 lost (ratio 0.6); the right answer is 1 lost, 1 in
        // flight, ratio 3/4. LossMonitor also says 1 here.
        let mut s = DatagramStats::default();
        for i in 0..5 {
            s.on_sent(&dg(i, 100));
        }
        for i in [0, 1, 3] {
            s.on_received(&dg(i, 100), ms(i), ms(i + 20));
        }
        s.on_dropped();
        assert_eq!((s.lost_packets, s.in_flight()), (1, 1));
        assert_eq!(s.delivery_ratio(), Some(0.75));
        assert_eq!(s.loss_monitor_nlost(), 1);
        // Had seq 4 been dropped instead of in flight, LossMonitor would still say 1.
        s.on_dropped();
        assert_eq!((s.lost_packets, s.in_flight()), (2, 0));
        assert_eq!(s.delivery_ratio(), Some(0.6));
        assert_eq!(s.loss_monitor_nlost(), 1);
    }

    #[test]
    fn loss_monitor_counts_losses_before_the_first_arrival_and_follows_reordering() {
        // loss-monitor.cc with ns-default.tcl's `expected_ 0` (measured with ns-2.35: a CBR
        // flow whose first 729 datagrams found no DSDV route printed nlost_ 729): seq 3
        // first counts 0-2; then 5 adds 1 (seq 4), the late 4 resets expected_ to 5, and 7
        // adds 2 (5 and 6). nlost_ = 6 counts 4 and 5, which arrived.
        let mut s = DatagramStats::default();
        for (seq, n) in [(3, 3), (5, 4), (4, 4), (7, 6)] {
            s.on_received(&dg(seq, 1), ms(seq), ms(seq + 1));
            assert_eq!(s.loss_monitor_nlost(), n, "after seq {seq}");
        }
    }
}
