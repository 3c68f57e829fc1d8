//! The DSR send buffer (RFC 4728 §4 "Send Buffer", ns-2 `SendBuffer` in `dsragent.cc`):
//! data packets the node originates while it has no route to their destination.
//!
//! Bounded (64 packets) and each packet has a deadline (30 s after it entered). Unlike
//! [`crate::routing::HoldBuffer`], a full buffer evicts its **oldest** packet to make room
//! for the new one, as ns-2's `stickPacketInSendBuffer` does. Packets leave when a route
//! appears ([`SendBuffer::take_routable`]), on timeout ([`SendBuffer::expire`]) or by
//! eviction; the agent drops the last two with their reasons.

use std::collections::VecDeque;

use crate::net::addr::Addr;
use crate::net::packet::Packet;
use crate::sim::SimTime;

#[derive(Clone, Debug)]
pub struct SendBuffer {
    capacity: usize,
    timeout: SimTime,
    /// Packets in arrival order with their deadlines: the front is the oldest.
    packets: VecDeque<(SimTime, Packet)>,
}

impl SendBuffer {
    pub fn new(capacity: usize, timeout: SimTime) -> Self {
        SendBuffer {
            capacity,
            timeout,
            packets: VecDeque::new(),
        }
    }

    pub fn len(&self) -> usize {
        self.packets.len()
    }

    pub fn is_empty(&self) -> bool {
        self.packets.is_empty()
    }

    /// Buffers `packet` until `now + timeout`; returns the oldest packet if it had to be
    /// evicted to make room (a zero-capacity buffer returns `packet` itself).
    pub fn push(&mut self, now: SimTime, packet: Packet) -> Option<Packet> {
        if self.capacity == 0 {
            return Some(packet);
        }
        let evicted = if self.packets.len() >= self.capacity {
            self.packets.pop_front().map(|(_, p)| p)
        } else {
            None
        };
        self.packets.push_back((now + self.timeout, packet));
        evicted
    }

    /// Removes the packets whose deadline is at or before `now`, oldest first.
    pub fn expire(&mut self, now: SimTime) -> Vec<Packet> {
        let mut gone = Vec::new();
        while self.packets.front().is_some_and(|(t, _)| *t <= now) {
            gone.push(self.packets.pop_front().expect("front checked").1);
        }
        gone
    }

    /// Removes, oldest first, the packets for whose destination `route` finds a route,
    /// each with that route.
    pub fn take_routable(
        &mut self,
        mut route: impl FnMut(Addr) -> Option<Vec<Addr>>,
    ) -> Vec<(Packet, Vec<Addr>)> {
        let mut out = Vec::new();
        let mut kept = VecDeque::with_capacity(self.packets.len());
        for (t, p) in self.packets.drain(..) {
            match route(p.ip.dst) {
                Some(r) => out.push((p, r)),
                None => kept.push_back((t, p)),
            }
        }
        self.packets = kept;
        out
    }

    /// The distinct destinations of the buffered packets, in order of their oldest packet.
    /// The destinations waiting, in the order of their oldest packet, each with whether
    /// that oldest packet satisfies `ours`.
    pub fn targets_and_oldest(&self, ours: impl Fn(&Packet) -> bool) -> Vec<(Addr, bool)> {
        let mut t: Vec<(Addr, bool)> = Vec::new();
        for (_, p) in &self.packets {
            if !t.iter().any(|(a, _)| *a == p.ip.dst) {
                t.push((p.ip.dst, ours(p)));
            }
        }
        t
    }

    /// Whether a packet to `dst` satisfying `pred` waits.
    pub fn has_packet_to(&self, dst: Addr, pred: impl Fn(&Packet) -> bool) -> bool {
        self.packets.iter().any(|(_, p)| p.ip.dst == dst && pred(p))
    }

    /// Removes the oldest packet to `dst`.
    pub fn take_oldest_to(&mut self, dst: Addr) -> Option<Packet> {
        let i = self.packets.iter().position(|(_, p)| p.ip.dst == dst)?;
        self.packets.remove(i).map(|(_, p)| p)
    }

    pub fn targets(&self) -> Vec<Addr> {
        let mut t: Vec<Addr> = Vec::new();
        for (_, p) in &self.packets {
            if !t.contains(&p.ip.dst) {
                t.push(p.ip.dst);
            }
        }
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::packet::tests::udp_packet;

    /// Capacity 2: the third packet evicts the first (the oldest); at 31 s the packets of
    /// 1 s and 2 s have timed out (30 s), the one of 2.5 s stays.
    #[test]
    fn full_buffer_evicts_the_oldest_and_packets_time_out() {
        let s = SimTime::from_secs_f64;
        let mut b = SendBuffer::new(2, s(30.0));
        assert!(b.push(s(0.5), udp_packet(1, 3, 100)).is_none());
        assert!(b.push(s(1.0), udp_packet(2, 4, 100)).is_none());
        assert_eq!(b.push(s(2.0), udp_packet(3, 3, 100)).unwrap().uid, 1);
        assert!(b.push(s(2.5), udp_packet(4, 3, 100)).is_some());
        assert_eq!(b.targets(), vec![Addr::nth(3)]);
        let gone: Vec<u64> = b.expire(s(32.0)).iter().map(|p| p.uid).collect();
        assert_eq!(gone, vec![3]);
        assert_eq!(b.len(), 1);
        let out = b.take_routable(|d| (d == Addr::nth(3)).then(|| vec![Addr::nth(0), d]));
        assert_eq!(out.len(), 1);
        assert!(b.is_empty());
    }
}
