//! The route request table (RFC 4728 §4 "Route Request Table", ns-2 `RequestTable`):
//! - requests this node has seen, so it re-broadcasts a given (initiator, id) once
//!   (RFC 4728 §8.2.2); ns-2 remembers the last id per initiator, 128 initiators;
//! - the discovery state of each target this node looks for: how many discovery cycles it
//!   has started, when the last started, and whether the cycle's propagating request is
//!   still to go (link-spec §4.2: ring-zero request, then the propagating one 30 ms later;
//!   cycles spaced by min(0.5 s · 4^n, 10 s)).

use std::collections::VecDeque;

use crate::net::addr::Addr;
use crate::sim::SimTime;

/// Requests seen, by initiator: the newest id, in 16-bit sequence space.
#[derive(Clone, Debug)]
pub struct RequestTable {
    capacity: usize,
    /// (initiator, newest id seen), least recently inserted first.
    seen: VecDeque<(Addr, u16)>,
}

impl RequestTable {
    pub fn new(capacity: usize) -> Self {
        RequestTable {
            capacity,
            seen: VecDeque::new(),
        }
    }

    /// Whether (`initiator`, `id`) is a request already seen: its id is not newer than the
    /// newest seen from that initiator.
    pub fn is_duplicate(&self, initiator: Addr, id: u16) -> bool {
        self.seen
            .iter()
            .find(|(a, _)| *a == initiator)
            .is_some_and(|&(_, last)| (id.wrapping_sub(last) as i16) <= 0)
    }

    /// Records (`initiator`, `id`); a full table forgets the initiator entered first.
    pub fn insert(&mut self, initiator: Addr, id: u16) {
        if let Some(e) = self.seen.iter_mut().find(|(a, _)| *a == initiator) {
            e.1 = id;
            return;
        }
        if self.capacity == 0 {
            return;
        }
        if self.seen.len() >= self.capacity {
            self.seen.pop_front();
        }
        self.seen.push_back((initiator, id));
    }
}

/// Discovery of one target (ns-2 keeps it in the request table entry of the target).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Discovery {
    pub target: Addr,
    /// Discovery cycles started since the last route to the target arrived.
    pub cycles: u32,
    /// When the last cycle started (its ring-zero request went).
    pub last_cycle: SimTime,
    /// When the ring-zero request of the current cycle went, while the cycle's propagating
    /// request has not gone yet.
    pub ring_zero_at: Option<SimTime>,
}

/// The gap before a new cycle may start after `cycles` cycles: min(period · 4^cycles, max)
/// (link-spec §4.2: ns-2 doubles the request period per request, two requests per cycle).
pub fn cycle_gap(period: SimTime, max: SimTime, cycles: u32) -> SimTime {
    let mut gap = period.as_nanos();
    for _ in 0..cycles {
        gap = gap.saturating_mul(4);
        if gap >= max.as_nanos() {
            return max;
        }
    }
    SimTime::from_nanos(gap.min(max.as_nanos()))
}

/// Discovery state of the targets being looked for; bounded like the request table (the
/// target entered first is forgotten).
#[derive(Clone, Debug)]
pub struct Discoveries {
    capacity: usize,
    entries: VecDeque<Discovery>,
}

impl Discoveries {
    pub fn new(capacity: usize) -> Self {
        Discoveries {
            capacity,
            entries: VecDeque::new(),
        }
    }

    pub fn get(&self, target: Addr) -> Option<&Discovery> {
        self.entries.iter().find(|d| d.target == target)
    }

    pub fn get_mut(&mut self, target: Addr) -> Option<&mut Discovery> {
        self.entries.iter_mut().find(|d| d.target == target)
    }

    /// The entry for `target`, created with no cycle started.
    pub fn entry(&mut self, target: Addr) -> &mut Discovery {
        if let Some(i) = self.entries.iter().position(|d| d.target == target) {
            return &mut self.entries[i];
        }
        if self.entries.len() >= self.capacity.max(1) {
            self.entries.pop_front();
        }
        self.entries.push_back(Discovery {
            target,
            cycles: 0,
            last_cycle: SimTime::ZERO,
            ring_zero_at: None,
        });
        self.entries.back_mut().expect("just pushed")
    }

    /// A route to `target` arrived: its back-off starts over (link-spec §4.2).
    pub fn route_found(&mut self, target: Addr) {
        self.entries.retain(|d| d.target != target);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_is_a_duplicate_once_its_id_or_a_newer_one_was_seen() {
        let mut t = RequestTable::new(2);
        let a = Addr::nth;
        assert!(!t.is_duplicate(a(0), 5));
        t.insert(a(0), 5);
        assert!(t.is_duplicate(a(0), 5));
        assert!(t.is_duplicate(a(0), 4));
        assert!(!t.is_duplicate(a(0), 6));
        assert!(!t.is_duplicate(a(1), 5));
        // Sequence space: 0 is newer than 65535.
        t.insert(a(1), u16::MAX);
        assert!(!t.is_duplicate(a(1), 0));
        // A third initiator evicts the first.
        t.insert(a(2), 1);
        assert!(!t.is_duplicate(a(0), 5));
    }

    /// 0.5 s · 4^n capped at 10 s: 0.5, 2, 8, 10, 10 s.
    #[test]
    fn cycle_gaps_grow_fourfold_up_to_the_cap() {
        let ms = SimTime::from_millis;
        let gaps: Vec<SimTime> = (0..5).map(|n| cycle_gap(ms(500), ms(10_000), n)).collect();
        assert_eq!(
            gaps,
            vec![ms(500), ms(2_000), ms(8_000), ms(10_000), ms(10_000)]
        );
        assert_eq!(cycle_gap(ms(500), ms(10_000), 200), ms(10_000));
    }
}
