//! The event queue: a binary heap ordered by (time, insertion sequence).
//!
//! Two events scheduled for the same instant run in the order they were scheduled, which is
//! what makes a run a pure function of its scenario and seed. `push` and `pop` are O(log n);
//! `peek_time` is O(1).

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use super::time::SimTime;

/// An event with its key: the time in the high 64 bits and the insertion sequence in the low
/// 64, so that ordering by (time, sequence) is one 128-bit comparison.
struct Entry<E> {
    key: u128,
    event: E,
}

impl<E> Entry<E> {
    fn at(&self) -> SimTime {
        SimTime((self.key >> 64) as u64)
    }
}

impl<E> PartialEq for Entry<E> {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key
    }
}
impl<E> Eq for Entry<E> {}
impl<E> PartialOrd for Entry<E> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl<E> Ord for Entry<E> {
    // Reversed so that the max-heap pops the earliest (time, seq) first.
    fn cmp(&self, other: &Self) -> Ordering {
        other.key.cmp(&self.key)
    }
}

pub struct Scheduler<E> {
    heap: BinaryHeap<Entry<E>>,
    next_seq: u64,
    now: SimTime,
    popped: u64,
}

impl<E> Default for Scheduler<E> {
    fn default() -> Self {
        Self::new()
    }
}

impl<E> Scheduler<E> {
    pub fn new() -> Self {
        Scheduler {
            heap: BinaryHeap::with_capacity(1024),
            next_seq: 0,
            now: SimTime::ZERO,
            popped: 0,
        }
    }

    /// The time of the event most recently popped.
    pub fn now(&self) -> SimTime {
        self.now
    }

    /// Number of events executed so far.
    pub fn events_executed(&self) -> u64 {
        self.popped
    }

    /// Schedules `event` at absolute time `at`. Scheduling in the past is a logic error and
    /// panics in debug builds; in release builds the event runs at `now`.
    pub fn schedule(&mut self, at: SimTime, event: E) {
        debug_assert!(at >= self.now, "event scheduled in the past");
        let at = at.max(self.now);
        let seq = self.next_seq;
        self.next_seq += 1;
        self.heap.push(Entry {
            key: (u128::from(at.0) << 64) | u128::from(seq),
            event,
        });
    }

    /// Schedules `event` after `delay` from now.
    pub fn schedule_in(&mut self, delay: SimTime, event: E) {
        let at = self.now + delay;
        self.schedule(at, event);
    }

    pub fn peek_time(&self) -> Option<SimTime> {
        self.heap.peek().map(Entry::at)
    }

    /// Removes the earliest event if it is due at or before `end`, advancing `now` to its
    /// time; otherwise leaves the queue as it is.
    pub fn pop_until(&mut self, end: SimTime) -> Option<(SimTime, E)> {
        if self.peek_time()? > end {
            return None;
        }
        self.pop()
    }

    /// Removes the earliest event and advances `now` to its time.
    pub fn pop(&mut self) -> Option<(SimTime, E)> {
        let e = self.heap.pop()?;
        self.now = e.at();
        self.popped += 1;
        Some((self.now, e.event))
    }

    pub fn len(&self) -> usize {
        self.heap.len()
    }

    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pops_in_time_order_and_ties_in_scheduling_order() {
        let mut s = Scheduler::new();
        s.schedule(SimTime(30), "c");
        s.schedule(SimTime(10), "a1");
        s.schedule(SimTime(20), "b");
        s.schedule(SimTime(10), "a2");
        s.schedule(SimTime(10), "a3");
        let order: Vec<_> = std::iter::from_fn(|| s.pop().map(|(_, e)| e)).collect();
        assert_eq!(order, vec!["a1", "a2", "a3", "b", "c"]);
        assert_eq!(s.now(), SimTime(30));
        assert_eq!(s.events_executed(), 5);
    }

    /// Against a sorted list: random times (many equal, as in a simulation), interleaved
    /// pushes and pops that never go back in time, pop in (time, scheduling order).
    #[test]
    fn pops_equal_a_sort_by_time_then_scheduling_order() {
        let mut rng = crate::sim::RandomStream::named(7, "scheduler-test");
        let mut s = Scheduler::new();
        let mut reference: Vec<(u64, u64)> = Vec::new(); // (time, id), pending
        let mut id = 0u64;
        for _ in 0..20_000 {
            if rng.uniform() < 0.55 || reference.is_empty() {
                let at = s.now().0 + rng.below(50);
                s.schedule(SimTime(at), id);
                reference.push((at, id));
                id += 1;
            } else {
                let (i, _) = reference
                    .iter()
                    .enumerate()
                    .min_by_key(|(_, &(t, k))| (t, k))
                    .unwrap();
                let want = reference.remove(i);
                let (t, got) = s.pop().unwrap();
                assert_eq!((t.0, got), want);
            }
        }
        assert_eq!(s.len(), reference.len());
    }

    #[test]
    fn pop_until_leaves_later_events() {
        let mut s = Scheduler::new();
        s.schedule(SimTime(10), 1);
        s.schedule(SimTime(20), 2);
        assert_eq!(s.pop_until(SimTime(15)), Some((SimTime(10), 1)));
        assert_eq!(s.pop_until(SimTime(15)), None);
        assert_eq!((s.len(), s.now()), (1, SimTime(10)));
        assert_eq!(s.pop_until(SimTime(20)), Some((SimTime(20), 2)));
    }

    #[test]
    fn schedule_in_is_relative_to_the_last_popped_event() {
        let mut s = Scheduler::new();
        s.schedule(SimTime(100), 1);
        s.pop();
        s.schedule_in(SimTime(5), 2);
        assert_eq!(s.peek_time(), Some(SimTime(105)));
    }
}
