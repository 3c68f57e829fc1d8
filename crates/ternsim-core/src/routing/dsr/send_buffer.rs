//! The DSR send buffer (RFC 4728 §4 "Send Buffer", ns-2 `send_buf` in `dsragent.cc`):
//! data packets the node originates while it has no route to their destination.
//!
//! ns-2 keeps it as an array of `SEND_BUF_SIZE` (64) slots, and the slots decide the order
//! of everything that walks it (`stickPacketInSendBuffer`, `sendBufferCheck`,
//! `acceptRouteReply`), so this buffer keeps them too:
//! - a new packet takes the first empty slot; when none is empty it evicts the packet that
//!   entered earliest (the first such slot) and takes its slot;
//! - packets leave when a route appears ([`SendBuffer::take_routable`]), after waiting more
//!   than the timeout (30 s, [`SendBuffer::expire`]), or by eviction, each walk in slot
//!   order. After evictions and partial releases, slot order is not arrival order: ns-2
//!   then sends the buffered packets out of order, and so does ternsim.
//!
//! The agent drops the evicted and expired packets with their reasons.

use crate::net::addr::Addr;
use crate::net::packet::Packet;
use crate::sim::SimTime;

#[derive(Clone, Debug)]
pub struct SendBuffer {
    timeout: SimTime,
    /// The slots: each empty or holding a packet with the time it entered.
    slots: Vec<Option<(SimTime, Packet)>>,
    /// Occupied slots.
    len: usize,
}

impl SendBuffer {
    pub fn new(capacity: usize, timeout: SimTime) -> Self {
        SendBuffer {
            timeout,
            slots: vec![None; capacity],
            len: 0,
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn waiting(&self) -> impl Iterator<Item = &Packet> {
        self.slots.iter().flatten().map(|(_, p)| p)
    }

    /// Buffers `packet` (ns-2 `stickPacketInSendBuffer`): into the first empty slot, else
    /// into the slot of the packet that entered earliest, which is returned (a
    /// zero-capacity buffer returns `packet` itself).
    pub fn push(&mut self, now: SimTime, packet: Packet) -> Option<Packet> {
        if self.slots.is_empty() {
            return Some(packet);
        }
        if let Some(slot) = self.slots.iter_mut().find(|s| s.is_none()) {
            *slot = Some((now, packet));
            self.len += 1;
            return None;
        }
        // Full: the first slot with the earliest entry time (ns-2 compares with `<`).
        let mut victim = 0;
        for (i, s) in self.slots.iter().enumerate() {
            let (t, _) = s.as_ref().expect("a full buffer");
            let (best, _) = self.slots[victim].as_ref().expect("a full buffer");
            if t < best {
                victim = i;
            }
        }
        self.slots[victim]
            .replace((now, packet))
            .map(|(_, old)| old)
    }

    /// Removes, in slot order, the packets that have waited more than the timeout at
    /// `now` (ns-2 `sendBufferCheck`: `now - t > send_timeout`).
    pub fn expire(&mut self, now: SimTime) -> Vec<Packet> {
        let mut gone = Vec::new();
        for slot in &mut self.slots {
            if slot
                .as_ref()
                .is_some_and(|(t, _)| now.saturating_sub(*t) > self.timeout)
            {
                gone.push(slot.take().expect("checked").1);
            }
        }
        self.len -= gone.len();
        gone
    }

    /// Removes, in slot order, the packets for whose destination `route` finds a route,
    /// each with that route.
    pub fn take_routable(
        &mut self,
        mut route: impl FnMut(Addr) -> Option<Vec<Addr>>,
    ) -> Vec<(Packet, Vec<Addr>)> {
        let mut out = Vec::new();
        for slot in &mut self.slots {
            let Some((_, p)) = slot.as_ref() else {
                continue;
            };
            if let Some(r) = route(p.ip.dst) {
                out.push((slot.take().expect("occupied").1, r));
            }
        }
        self.len -= out.len();
        out
    }

    /// The destinations waiting, in the slot order of their first packet, each with whether
    /// that first packet satisfies `ours` (ns-2 `sendBufferCheck` asks for a route for each
    /// packet in slot order; the first one of a destination decides its discovery).
    pub fn targets_and_oldest(&self, ours: impl Fn(&Packet) -> bool) -> Vec<(Addr, bool)> {
        let mut t: Vec<(Addr, bool)> = Vec::new();
        for p in self.waiting() {
            if !t.iter().any(|(a, _)| *a == p.ip.dst) {
                t.push((p.ip.dst, ours(p)));
            }
        }
        t
    }

    /// Whether a packet to `dst` satisfying `pred` waits.
    pub fn has_packet_to(&self, dst: Addr, pred: impl Fn(&Packet) -> bool) -> bool {
        self.waiting().any(|p| p.ip.dst == dst && pred(p))
    }

    /// Removes the first packet to `dst` in slot order (the one ns-2's check reaches first).
    pub fn take_oldest_to(&mut self, dst: Addr) -> Option<Packet> {
        let slot = self
            .slots
            .iter_mut()
            .find(|s| s.as_ref().is_some_and(|(_, p)| p.ip.dst == dst))?;
        self.len -= 1;
        slot.take().map(|(_, p)| p)
    }

    /// The destinations waiting, in the slot order of their first packet.
    pub fn targets(&self) -> Vec<Addr> {
        self.targets_and_oldest(|_| true)
            .into_iter()
            .map(|(a, _)| a)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::packet::tests::udp_packet;

    /// ns-2's slots, by hand. Capacity 3: A (0.5 s, to 3), B (1 s, to 4), C (1.5 s, to 3)
    /// fill slots 0-2; D (2 s, to 3) evicts A, the earliest, and takes slot 0. A route to 3
    /// releases D before C (slot order, not arrival order). E (3 s) takes the first empty
    /// slot, 0. At 31 s B has waited exactly 30 s and stays (ns-2 drops after *more* than
    /// the timeout); at 31.5 s it goes, E stays.
    #[test]
    fn slots_decide_eviction_release_and_expiry_order() {
        let s = SimTime::from_secs_f64;
        let mut b = SendBuffer::new(3, s(30.0));
        assert!(b.push(s(0.5), udp_packet(1, 3, 100)).is_none());
        assert!(b.push(s(1.0), udp_packet(2, 4, 100)).is_none());
        assert!(b.push(s(1.5), udp_packet(3, 3, 100)).is_none());
        assert_eq!(b.push(s(2.0), udp_packet(4, 3, 100)).unwrap().uid, 1);
        assert_eq!(b.len(), 3);
        assert_eq!(b.targets(), vec![Addr::nth(3), Addr::nth(4)]);
        let out: Vec<u64> = b
            .take_routable(|d| (d == Addr::nth(3)).then(|| vec![Addr::nth(0), d]))
            .iter()
            .map(|(p, _)| p.uid)
            .collect();
        assert_eq!(out, vec![4, 3]);
        assert_eq!(b.len(), 1);
        assert!(b.push(s(3.0), udp_packet(5, 3, 100)).is_none());
        assert_eq!(b.targets(), vec![Addr::nth(3), Addr::nth(4)]);
        assert!(b.expire(s(31.0)).is_empty());
        let gone: Vec<u64> = b.expire(s(31.5)).iter().map(|p| p.uid).collect();
        assert_eq!(gone, vec![2]);
        assert_eq!(b.len(), 1);
        assert_eq!(b.take_oldest_to(Addr::nth(3)).unwrap().uid, 5);
        assert!(b.is_empty());
    }
}
