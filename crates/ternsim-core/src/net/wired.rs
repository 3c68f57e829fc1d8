//! One direction of a duplex point-to-point link: a drop-tail queue, a transmitter that
//! serialises one packet at a time at the link rate, and a propagation pipe.
//!
//! ns-2 semantics: the queue limit counts packets waiting, not the one being transmitted;
//! a packet is lost to the error model when its transmission ends (it still used the link);
//! propagation delay is constant, so the pipe is a FIFO and arrivals need no per-packet key.

use std::collections::VecDeque;

use crate::channel::ErrorModel;
use crate::net::packet::Packet;
use crate::net::routing::NodeIx;
use crate::sim::{RandomStream, SimTime};

/// Counters per link direction.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LinkStats {
    /// Packets whose transmission completed (delivered to the pipe or lost on the wire).
    pub packets_sent: u64,
    pub bytes_sent: u64,
    pub drops_queue: u64,
    pub drops_error: u64,
    /// Total transmitter busy time.
    pub busy: SimTime,
}

/// What happened to a packet offered to the link.
#[derive(Debug)]
pub enum Enqueued {
    /// The transmitter was idle: transmission ends at this time.
    Transmitting(SimTime),
    /// Waiting in the queue.
    Queued,
    /// The queue was full; the packet is handed back for accounting.
    Dropped(Box<Packet>),
}

/// What a completed transmission produced.
#[derive(Debug)]
pub struct TxDone {
    /// `Some(arrival time)` if the packet entered the pipe; `None` if it was corrupted.
    pub arrival: Option<SimTime>,
    /// The corrupted packet, for accounting.
    pub corrupted: Option<Box<Packet>>,
    /// If another packet started transmitting, when it ends.
    pub next_done: Option<SimTime>,
}

pub struct WiredDirection {
    pub from: NodeIx,
    pub to: NodeIx,
    pub rate_bps: f64,
    pub delay: SimTime,
    pub limit: usize,
    queue: VecDeque<Packet>,
    on_wire: Option<Packet>,
    pipe: VecDeque<Packet>,
    pub error: ErrorModel,
    rng: RandomStream,
    pub stats: LinkStats,
    /// Nanoseconds to serialise one byte.
    ns_per_byte: f64,
}

impl WiredDirection {
    pub fn new(
        from: NodeIx,
        to: NodeIx,
        rate_bps: f64,
        delay: SimTime,
        limit: u32,
        error: ErrorModel,
        rng: RandomStream,
    ) -> Self {
        WiredDirection {
            from,
            to,
            rate_bps,
            delay,
            limit: limit as usize,
            queue: VecDeque::new(),
            on_wire: None,
            pipe: VecDeque::new(),
            error,
            rng,
            stats: LinkStats::default(),
            ns_per_byte: 8e9 / rate_bps,
        }
    }

    /// Time to serialise `bytes`, rounded to the nearest nanosecond.
    pub fn tx_time(&self, bytes: u32) -> SimTime {
        SimTime((f64::from(bytes) * self.ns_per_byte).round() as u64)
    }

    /// Packets waiting (not counting the one being transmitted).
    pub fn queue_len(&self) -> usize {
        self.queue.len()
    }

    /// Packets held anywhere in this direction: queue, transmitter and pipe.
    pub fn packets_held(&self) -> usize {
        self.queue.len() + usize::from(self.on_wire.is_some()) + self.pipe.len()
    }

    /// Offers a packet at time `now`.
    pub fn enqueue(&mut self, now: SimTime, packet: Packet) -> Enqueued {
        if self.on_wire.is_none() {
            let done = now + self.tx_time(packet.size);
            self.on_wire = Some(packet);
            Enqueued::Transmitting(done)
        } else if self.queue.len() < self.limit {
            self.queue.push_back(packet);
            Enqueued::Queued
        } else {
            self.stats.drops_queue += 1;
            Enqueued::Dropped(Box::new(packet))
        }
    }

    /// The transmission in progress ends at `now`.
    pub fn transmission_done(&mut self, now: SimTime) -> TxDone {
        let packet = self
            .on_wire
            .take()
            .expect("transmission_done with nothing on the wire");
        self.stats.packets_sent += 1;
        self.stats.bytes_sent += u64::from(packet.size);
        self.stats.busy += self.tx_time(packet.size);
        let (arrival, corrupted) = if self.error.is_error(&mut self.rng) {
            self.stats.drops_error += 1;
            (None, Some(Box::new(packet)))
        } else {
            self.pipe.push_back(packet);
            (Some(now + self.delay), None)
        };
        let next_done = self.queue.pop_front().map(|next| {
            let done = now + self.tx_time(next.size);
            self.on_wire = Some(next);
            done
        });
        TxDone {
            arrival,
            corrupted,
            next_done,
        }
    }

    /// The oldest packet in the pipe reaches the far end.
    pub fn arrive(&mut self) -> Packet {
        self.pipe
            .pop_front()
            .expect("arrival with an empty propagation pipe")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::packet::{IpHeader, Payload};
    use crate::tcp::DataSegment;

    fn pkt(uid: u64, size: u32) -> Packet {
        Packet {
            uid,
            flow: 0,
            ip: IpHeader {
                src: 0,
                dst: 1,
                ttl: 64,
            },
            outer: Vec::new(),
            size,
            created: SimTime::ZERO,
            payload: Payload::TcpData(DataSegment {
                seq: uid as i64,
                wire_bytes: size,
                payload_bytes: size,
                retransmission: false,
                sent_at: SimTime::ZERO,
            }),
        }
    }

    #[test]
    fn serialisation_time_is_size_over_rate() {
        // 1040 B at 1 Mb/s = 8320 us; at 10 Mb/s = 832 us.
        let l = WiredDirection::new(
            0,
            1,
            1e6,
            SimTime::ZERO,
            10,
            ErrorModel::None,
            RandomStream::from_seed_u64(1),
        );
        assert_eq!(l.tx_time(1040), SimTime::from_micros(8320));
        let l = WiredDirection::new(
            0,
            1,
            10e6,
            SimTime::ZERO,
            10,
            ErrorModel::None,
            RandomStream::from_seed_u64(1),
        );
        assert_eq!(l.tx_time(1040), SimTime::from_micros(832));
    }

    #[test]
    fn drop_tail_limit_excludes_the_packet_on_the_wire() {
        let mut l = WiredDirection::new(
            0,
            1,
            1e6,
            SimTime::from_millis(10),
            2,
            ErrorModel::None,
            RandomStream::from_seed_u64(1),
        );
        assert!(
            matches!(l.enqueue(SimTime::ZERO, pkt(1, 125)), Enqueued::Transmitting(t) if t == SimTime::from_millis(1))
        );
        assert!(matches!(
            l.enqueue(SimTime::ZERO, pkt(2, 125)),
            Enqueued::Queued
        ));
        assert!(matches!(
            l.enqueue(SimTime::ZERO, pkt(3, 125)),
            Enqueued::Queued
        ));
        match l.enqueue(SimTime::ZERO, pkt(4, 125)) {
            Enqueued::Dropped(p) => assert_eq!(p.uid, 4),
            other => panic!("expected a drop, got {other:?}"),
        }
        assert_eq!(l.stats.drops_queue, 1);
        // First transmission ends at 1 ms: arrives at 11 ms, next one ends at 2 ms.
        let done = l.transmission_done(SimTime::from_millis(1));
        assert_eq!(done.arrival, Some(SimTime::from_millis(11)));
        assert_eq!(done.next_done, Some(SimTime::from_millis(2)));
        assert_eq!(l.arrive().uid, 1);
        assert_eq!(l.packets_held(), 2);
    }

    #[test]
    fn corrupted_packets_use_the_link_but_do_not_arrive() {
        let mut l = WiredDirection::new(
            0,
            1,
            1e6,
            SimTime::ZERO,
            2,
            ErrorModel::Iid { p: 1.0 },
            RandomStream::from_seed_u64(1),
        );
        l.enqueue(SimTime::ZERO, pkt(1, 125));
        let done = l.transmission_done(SimTime::from_millis(1));
        assert_eq!(done.arrival, None);
        assert_eq!(done.corrupted.unwrap().uid, 1);
        assert_eq!(l.stats.drops_error, 1);
        assert_eq!(l.stats.bytes_sent, 125);
    }
}
