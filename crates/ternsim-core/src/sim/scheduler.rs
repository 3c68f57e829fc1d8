//! The event queue: a binary min-heap ([`super::heap`]) ordered by (time, insertion sequence).
//!
//! Two events scheduled for the same instant run in the order they were scheduled, which is
//! what makes a run a pure function of its scenario and seed. `push` and `pop` are O(log n);
//! the heap leaves a popped event's place vacant for the next event scheduled, which when it
//! is the next to run (as a popped event's successor often is) costs no sift at all (see
//! [`super::heap`]); `peek_time` is O(1) but after a pop, when it does the sift the pop put off.
//!
//! **Exact times.** An event has its time in whole nanoseconds (what the models read) and,
//! for ordering, the time in seconds as a double. Most events give only the first, and their
//! double is that many nanoseconds in seconds. A wired link gives the double it computed the
//! way ns-2's double clock does (`clock + 8 * size / bandwidth`, `+ delay`: see
//! `net::wired`), so that two of its events that round to the same nanosecond run in ns-2's
//! order, not in scheduling order: which of a packet reaching a full queue and the link
//! freeing a place comes first decides a drop, and ns-2 decides it by those doubles.
//! Ordering by the double never reverses two events whose nanosecond times differ: the
//! nanoseconds are the double rounded, and rounding is monotonic.
//!
//! **Lanes.** Many events come in streams already in order: the arrivals at the far end of
//! a link leave its propagation pipe in the order they entered. A stream can be scheduled
//! in a [`Lane`]: only its earliest event sits in the heap, the rest wait in a FIFO and the
//! next one enters the heap when the one before it is popped. Keys are given at scheduling
//! time as always, and the heap holds the minimum of every lane, so the pop order is exactly
//! the order without lanes; the heap is only smaller (a long fat pipe holds hundreds of
//! packets, each an arrival event), and a lane's next event replaces the one popped at the
//! top of the heap in one sift instead of a pop and a push. An event scheduled in a lane earlier than the lane's
//! last (a shortened link delay can overtake) goes to the heap directly.

use super::heap::{Keyed, MinHeap};
use super::ring::Ring;
use super::time::SimTime;

// The queue's methods are `#[inline]`: they run once or twice per event, and whether the
// compiler inlines them on its own changes with unrelated code elsewhere in the crate.

/// No lane: an event scheduled directly in the heap.
const NO_LANE: u32 = u32::MAX;

/// An event with its key: the time in the high 64 bits (the bits of the exact time in
/// seconds, a non-negative double, which order as the doubles do) and the insertion sequence
/// in the low 64, so that ordering by (time, sequence) is one 128-bit comparison.
#[derive(Clone, Copy)]
#[repr(C)]
struct Entry<E> {
    key: u128,
    /// The lane this event heads, or [`NO_LANE`].
    lane: u32,
    event: E,
}

impl<E> Entry<E> {
    fn at(&self) -> SimTime {
        time_of_key(self.key)
    }
}

/// The time in nanoseconds of an event's key: its exact time rounded, which gives back the
/// nanoseconds of an event scheduled in nanoseconds (the double nearest to n / 1e9, times
/// 1e9, rounds to n) and a wired link's rounded time (it rounds its exact time so).
#[inline]
fn time_of_key(key: u128) -> SimTime {
    SimTime(super::time::round_to_u64(
        f64::from_bits((key >> 64) as u64) * 1e9,
    ))
}

/// `exact` if it rounds to `at`, else `at`'s own exact time: the event runs at the time its
/// exact time rounds to, and a sum that rounds to a neighbouring nanosecond (a timer set at
/// an exact instant plus a whole number of nanoseconds, half a nanosecond off) gives way.
#[inline]
fn fit(at: SimTime, exact: f64) -> f64 {
    if time_of_key(u128::from(exact.to_bits()) << 64) == at {
        exact
    } else {
        exact_of(at)
    }
}

/// The exact time in seconds of an event given only in nanoseconds: the double nearest to
/// it (a division, correctly rounded; a product with 1e-9 is often one unit off), which is
/// the double a script's `$ns at 0.1` or a link's `10ms` gives in ns-2.
#[inline]
pub fn exact_of(at: SimTime) -> f64 {
    at.0 as f64 / 1e9
}

impl<E> Keyed for Entry<E> {
    #[inline]
    fn key(&self) -> u128 {
        self.key
    }
}

/// A stream of events in nondecreasing time order (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lane(u32);

struct LaneQueue<E> {
    /// Events behind the one in the heap, in key order.
    waiting: Ring<(u128, E)>,
    /// Whether the lane's earliest event is in the heap.
    head_in_heap: bool,
    /// The key of the lane's latest event.
    tail: u128,
}

pub struct Scheduler<E> {
    heap: MinHeap<Entry<E>>,
    lanes: Vec<LaneQueue<E>>,
    /// Events waiting in lanes (not in the heap).
    in_lanes: usize,
    next_seq: u64,
    now: SimTime,
    /// The exact time of the event most recently popped, in seconds.
    now_exact: f64,
    /// The key of the event most recently popped (0 before the first).
    now_key: u128,
    popped: u64,
}

impl<E: Copy> Default for Scheduler<E> {
    fn default() -> Self {
        Self::new()
    }
}

impl<E: Copy> Scheduler<E> {
    pub fn new() -> Self {
        Scheduler {
            heap: MinHeap::with_capacity(1024),
            lanes: Vec::new(),
            in_lanes: 0,
            next_seq: 0,
            now: SimTime::ZERO,
            now_exact: 0.0,
            now_key: 0,
            popped: 0,
        }
    }

    /// A new lane for a stream of events in time order.
    pub fn add_lane(&mut self) -> Lane {
        self.lanes.push(LaneQueue {
            waiting: Ring::default(),
            head_in_heap: false,
            tail: 0,
        });
        Lane((self.lanes.len() - 1) as u32)
    }

    /// The time of the event most recently popped.
    pub fn now(&self) -> SimTime {
        self.now
    }

    /// The exact time in seconds of the event most recently popped (see the module
    /// documentation).
    pub fn now_exact(&self) -> f64 {
        self.now_exact
    }

    /// Number of events executed so far.
    pub fn events_executed(&self) -> u64 {
        self.popped
    }

    /// The key of an event scheduled now at `at`, exactly `exact` seconds, which rounds to
    /// `at` (at `now` if `at` is in the past).
    #[inline]
    fn next_key(&mut self, at: SimTime, exact: f64) -> u128 {
        debug_assert!(at >= self.now, "event scheduled in the past");
        // `exact.max(self.now_exact)` without its NaN handling (some five instructions on
        // every scheduling): the same value for every time, and a NaN still gives `now`.
        let exact = if exact >= self.now_exact {
            exact
        } else {
            self.now_exact
        };
        let seq = self.next_seq;
        self.next_seq += 1;
        (u128::from(exact.to_bits()) << 64) | u128::from(seq)
    }

    /// Schedules `event` at absolute time `at`. Scheduling in the past is a logic error and
    /// panics in debug builds; in release builds the event runs at `now`.
    #[inline]
    pub fn schedule(&mut self, at: SimTime, event: E) {
        self.push(at, exact_of(at), event);
    }

    /// Schedules `event` at `at`, exactly `exact` seconds. (Always inlined: on the 802.11
    /// path it runs for every frame, and with more callers the compiler stopped inlining it.)
    #[inline(always)]
    pub fn schedule_exact(&mut self, at: SimTime, exact: f64, event: E) {
        self.push(at, fit(at, exact), event);
    }

    #[inline(always)]
    fn push(&mut self, at: SimTime, exact: f64, event: E) {
        let key = self.next_key(at, exact);
        self.heap.push(Entry {
            key,
            event,
            lane: NO_LANE,
        });
    }

    /// Schedules `event` at `at` in `lane`: the same order as [`Scheduler::schedule`], with
    /// the event kept out of the heap until the lane's earlier events have run.
    #[inline]
    pub fn schedule_in_lane(&mut self, lane: Lane, at: SimTime, event: E) {
        self.push_in_lane(lane, at, exact_of(at), event);
    }

    /// [`Scheduler::schedule_in_lane`] with the exact time in seconds.
    #[inline]
    pub fn schedule_in_lane_exact(&mut self, lane: Lane, at: SimTime, exact: f64, event: E) {
        self.push_in_lane(lane, at, fit(at, exact), event);
    }

    /// [`Scheduler::schedule_in_lane_exact`] with an exact time the caller made sure rounds
    /// to `at` (a wired link computes its wake-ups so): the rounding that checks it, on the
    /// path of every packet hop, is skipped.
    #[inline]
    pub fn schedule_in_lane_fitted(&mut self, lane: Lane, at: SimTime, exact: f64, event: E) {
        debug_assert_eq!(fit(at, exact).to_bits(), exact.to_bits());
        self.push_in_lane(lane, at, exact, event);
    }

    /// [`Scheduler::schedule_exact`] with an exact time that rounds to `at` (see
    /// [`Scheduler::schedule_in_lane_fitted`]).
    #[inline]
    pub fn schedule_fitted(&mut self, at: SimTime, exact: f64, event: E) {
        debug_assert_eq!(fit(at, exact).to_bits(), exact.to_bits());
        self.push(at, exact, event);
    }

    #[inline(always)]
    fn push_in_lane(&mut self, lane: Lane, at: SimTime, exact: f64, event: E) {
        let key = self.next_key(at, exact);
        let q = &mut self.lanes[lane.0 as usize];
        if !q.head_in_heap {
            q.head_in_heap = true;
            q.tail = key;
            self.heap.push(Entry {
                key,
                event,
                lane: lane.0,
            });
        } else if key > q.tail {
            q.tail = key;
            q.waiting.push_back((key, event));
            self.in_lanes += 1;
        } else {
            // Out of the lane's order: an ordinary event.
            self.heap.push(Entry {
                key,
                event,
                lane: NO_LANE,
            });
        }
    }

    /// **Reserved events.** The key an event scheduled now at `at`, exactly `exact` seconds,
    /// would get ([`Scheduler::schedule_exact`]), taken without putting anything in the
    /// queue: the owner may settle the event itself when it is known to have passed (a key
    /// below [`Scheduler::now_key`]), count it with [`Scheduler::count_settled`], or still
    /// schedule it with [`Scheduler::schedule_reserved`], where it runs exactly where it
    /// would have run had it been scheduled at once. Every other event keeps the key it
    /// would have had, so a run is the same event for event either way.
    #[inline]
    pub fn reserve_exact(&mut self, at: SimTime, exact: f64) -> u128 {
        self.next_key(at, fit(at, exact))
    }

    /// [`Scheduler::reserve_exact`] with an exact time that rounds to `at` (see
    /// [`Scheduler::schedule_in_lane_fitted`]).
    #[inline]
    pub fn reserve_fitted(&mut self, at: SimTime, exact: f64) -> u128 {
        debug_assert_eq!(fit(at, exact).to_bits(), exact.to_bits());
        self.next_key(at, exact)
    }

    /// Puts a reserved event (its key from [`Scheduler::reserve_exact`]) in the queue.
    #[inline]
    pub fn schedule_reserved(&mut self, key: u128, event: E) {
        debug_assert!(
            key > self.now_key,
            "a reserved event scheduled after it passed"
        );
        self.heap.push(Entry {
            key,
            event,
            lane: NO_LANE,
        });
    }

    /// The key of the event most recently popped: a reserved event whose key is below it
    /// would have run by now.
    #[inline]
    pub fn now_key(&self) -> u128 {
        self.now_key
    }

    /// Counts `n` reserved events their owner settled without the queue as executed, so
    /// [`Scheduler::events_executed`] counts the same events whichever way they ran.
    #[inline]
    pub fn count_settled(&mut self, n: u64) {
        self.popped += n;
    }

    /// The exact time in seconds of a key.
    #[inline]
    pub fn exact_of_key(key: u128) -> f64 {
        f64::from_bits((key >> 64) as u64)
    }

    /// Schedules `event` after `delay` from now.
    pub fn schedule_in(&mut self, delay: SimTime, event: E) {
        let at = self.now + delay;
        self.schedule(at, event);
    }

    #[inline]
    pub fn peek_time(&mut self) -> Option<SimTime> {
        self.heap.peek().map(Entry::at)
    }

    /// Removes the earliest event if it is due at or before `end`, advancing `now` to its
    /// time; otherwise leaves the queue as it is.
    #[inline]
    pub fn pop_until(&mut self, end: SimTime) -> Option<(SimTime, E)> {
        let at = self.peek_time()?;
        if at > end {
            return None;
        }
        Some(self.pop_top(at))
    }

    /// Removes the earliest event if it is due at or before `end` and exactly before
    /// `end_exact` seconds (a host's pause at a double time, as ns-2's `$ns at` is: the
    /// events ns-2 runs before that callback).
    #[inline]
    pub fn pop_before(&mut self, end: SimTime, end_exact: f64) -> Option<(SimTime, E)> {
        let top = self.heap.peek()?;
        let at = top.at();
        if at > end || f64::from_bits((top.key >> 64) as u64) >= end_exact {
            return None;
        }
        Some(self.pop_top(at))
    }

    /// Removes the earliest event and advances `now` to its time. The next event of the
    /// popped event's lane takes its place at the top of the heap and sinks from there: one
    /// pass down the heap instead of a pop and a push.
    #[inline]
    pub fn pop(&mut self) -> Option<(SimTime, E)> {
        let at = self.peek_time()?;
        Some(self.pop_top(at))
    }

    /// [`Scheduler::pop`] of a non-empty queue whose earliest event is at `at` (its key's
    /// time, which the callers computed already to compare with their end: rounding a key's
    /// time is a good part of a pop).
    #[inline]
    fn pop_top(&mut self, at: SimTime) -> (SimTime, E) {
        let top = self.heap.peek().expect("pop_top of an empty queue");
        let (key, lane) = (top.key, top.lane);
        let next = if lane == NO_LANE {
            None
        } else {
            let q = &mut self.lanes[lane as usize];
            let next = q.waiting.pop_front();
            if next.is_none() {
                q.head_in_heap = false;
            }
            next
        };
        let event = match next {
            Some((next_key, next_event)) => {
                self.in_lanes -= 1;
                let old = self.heap.replace_top(Entry {
                    key: next_key,
                    event: next_event,
                    lane,
                });
                old.event
            }
            None => self.heap.pop().expect("peeked").event,
        };
        self.now_exact = f64::from_bits((key >> 64) as u64);
        self.now_key = key;
        self.now = at.max(self.now);
        self.popped += 1;
        (self.now, event)
    }

    pub fn len(&self) -> usize {
        self.heap.len() + self.in_lanes
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
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

    /// A reserved event keeps the place its key gives it: scheduled later, it still runs
    /// before the events scheduled after its reservation at the same time; settled instead,
    /// it is counted as executed; and the other events' keys are those they would have had.
    #[test]
    fn a_reserved_event_runs_where_it_would_have_run() {
        let mut eager = Scheduler::new();
        eager.schedule(SimTime(10), "a");
        eager.schedule(SimTime(20), "reserved");
        eager.schedule(SimTime(20), "b");
        eager.schedule(SimTime(5), "c");
        let eager_order: Vec<_> = std::iter::from_fn(|| eager.pop().map(|(_, e)| e)).collect();

        let mut lazy = Scheduler::new();
        lazy.schedule(SimTime(10), "a");
        let key = lazy.reserve_exact(SimTime(20), exact_of(SimTime(20)));
        lazy.schedule(SimTime(20), "b");
        lazy.schedule(SimTime(5), "c");
        assert_eq!(lazy.pop().map(|(_, e)| e), Some("c"));
        assert!(key > lazy.now_key(), "not passed yet at 5");
        lazy.schedule_reserved(key, "reserved");
        let mut lazy_order = vec!["c"];
        lazy_order.extend(std::iter::from_fn(|| lazy.pop().map(|(_, e)| e)));
        assert_eq!(lazy_order, eager_order);
        assert_eq!(eager_order, vec!["c", "a", "reserved", "b"]);

        // Settled by its owner once passed: the count is the eager one.
        let mut settled = Scheduler::new();
        let key = settled.reserve_exact(SimTime(20), exact_of(SimTime(20)));
        settled.schedule(SimTime(30), "d");
        assert_eq!(settled.pop().map(|(_, e)| e), Some("d"));
        assert!(key < settled.now_key());
        settled.count_settled(1);
        assert_eq!(settled.events_executed(), 2);
        assert_eq!(Scheduler::<&str>::exact_of_key(key), 20e-9);
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

    /// Lanes change nothing in the order: the same random sequence of schedules, some in
    /// three lanes (mostly in order, sometimes not), pops exactly as with no lanes at all.
    #[test]
    fn lanes_pop_in_the_order_of_a_plain_queue() {
        let mut rng = crate::sim::RandomStream::named(11, "scheduler-lanes");
        let mut plain = Scheduler::new();
        let mut laned = Scheduler::new();
        let lanes = [laned.add_lane(), laned.add_lane(), laned.add_lane()];
        let mut lane_tail = [0u64; 3];
        let mut id = 0u64;
        for _ in 0..30_000 {
            if rng.uniform() < 0.55 || plain.is_empty() {
                let now = plain.now().0;
                let which = rng.below(4) as usize;
                let at = if which < 3 && rng.uniform() < 0.9 {
                    // In order for its lane, as a pipe's arrivals.
                    lane_tail[which] = lane_tail[which].max(now) + rng.below(5);
                    lane_tail[which]
                } else {
                    now + rng.below(40)
                };
                plain.schedule(SimTime(at), id);
                match which {
                    3 => laned.schedule(SimTime(at), id),
                    l => laned.schedule_in_lane(lanes[l], SimTime(at), id),
                }
                id += 1;
            } else {
                assert_eq!(laned.pop(), plain.pop());
            }
            assert_eq!(laned.len(), plain.len());
        }
        while let Some(e) = plain.pop() {
            assert_eq!(laned.pop(), Some(e));
        }
        assert!(laned.is_empty());
    }

    /// Two events that round to the same nanosecond run in the order of their exact times,
    /// whatever order they were scheduled in; equal exact times run in scheduling order; an
    /// event given only in nanoseconds has the double nearest to it (0.615088 s here).
    #[test]
    fn exact_times_order_events_within_a_nanosecond() {
        let mut s = Scheduler::new();
        let ns = SimTime(615_088_000);
        let later = f64::from_bits(0.615088_f64.to_bits() + 1); // the next double up
        s.schedule_exact(ns, later, "link frees a place");
        s.schedule_exact(ns, 0.615088, "packet arrives");
        s.schedule(ns, "timer");
        let order: Vec<_> = std::iter::from_fn(|| s.pop().map(|(_, e)| e)).collect();
        assert_eq!(order, vec!["packet arrives", "timer", "link frees a place"]);
        assert_eq!((s.now(), s.now_exact()), (ns, later));
        assert_eq!(exact_of(ns), 0.615088);
        // An exact time that rounds elsewhere gives way to the nanoseconds given.
        s.schedule_exact(SimTime(700_000_000), 0.700_000_001, "off by one");
        assert_eq!(s.pop(), Some((SimTime(700_000_000), "off by one")));
        assert_eq!(s.now_exact(), 0.7);
    }

    /// A host pausing at an exact time runs the events exactly before it: an event at
    /// 0.49999999999999944 s (rounding to 500,000,000 ns) runs before a pause at 0.5 s, one
    /// at exactly 0.5 s does not.
    #[test]
    fn pop_before_an_exact_time() {
        let mut s = Scheduler::new();
        let ns = SimTime(500_000_000);
        s.schedule_exact(ns, 0.499_999_999_999_999_44, "cbr send");
        s.schedule(ns, "at 0.5");
        assert_eq!(s.pop_before(ns, 0.5), Some((ns, "cbr send")));
        assert_eq!(s.pop_before(ns, 0.5), None);
        assert_eq!(s.pop_before(ns, f64::INFINITY), Some((ns, "at 0.5")));
    }

    /// The successor pattern by hand: each popped event schedules the next to run, which
    /// takes the heap's vacant root (`super::heap`); a tie at 20 still runs in scheduling
    /// order, and an event scheduled after the others at the same time runs after them.
    #[test]
    fn successors_pop_in_time_then_scheduling_order() {
        let mut s = Scheduler::new();
        s.schedule(SimTime(10), "a");
        s.schedule(SimTime(20), "b");
        s.schedule(SimTime(30), "c");
        assert_eq!(s.pop(), Some((SimTime(10), "a")));
        s.schedule(SimTime(15), "a's successor");
        assert_eq!(s.pop(), Some((SimTime(15), "a's successor")));
        s.schedule(SimTime(20), "d");
        s.schedule(SimTime(17), "e");
        assert_eq!(s.len(), 4);
        let order: Vec<_> = std::iter::from_fn(|| s.pop()).collect();
        assert_eq!(
            order,
            vec![
                (SimTime(17), "e"),
                (SimTime(20), "b"),
                (SimTime(20), "d"),
                (SimTime(30), "c")
            ]
        );
        assert_eq!(s.events_executed(), 6);
    }

    /// Against a plain `std::collections::BinaryHeap` of (time, scheduling order): the
    /// world's patterns at random (seeded). After each pop the handler schedules up to three
    /// events, the first often the next to run; some go in two lanes in order; some are
    /// reserved and put in the queue later, or settled. The queue has no cancel: an owner
    /// leaves its stale events in it and ignores them when they run (as the world does with
    /// a wake-up whose deadline moved), so some events are marked stale and both sides pop
    /// them the same.
    #[test]
    fn pops_as_a_plain_binary_heap() {
        use std::cmp::Reverse;
        use std::collections::BinaryHeap;
        let mut rng = crate::sim::RandomStream::named(13, "scheduler-vs-binary-heap");
        let mut s = Scheduler::new();
        let lanes = [s.add_lane(), s.add_lane()];
        let mut lane_tail = [0u64; 2];
        let mut reference: BinaryHeap<Reverse<(u64, u64, u64)>> = BinaryHeap::new();
        let mut stale = std::collections::HashSet::new();
        let mut reserved: Vec<(u128, u64, u64)> = Vec::new(); // (key, time, id)
        let (mut seq, mut id) = (0u64, 0u64);
        let (mut stale_seen, mut settled) = (0u64, 0u64);
        for _ in 0..5 {
            let at = rng.below(100);
            s.schedule(SimTime(at), id);
            reference.push(Reverse((at, seq, id)));
            seq += 1;
            id += 1;
        }
        for _ in 0..40_000 {
            let Some(Reverse((at, _, want))) = reference.pop() else {
                break;
            };
            let (t, got) = s.pop().expect("as many events as the reference");
            assert_eq!((t.0, got), (at, want));
            if stale.remove(&got) {
                stale_seen += 1;
                continue; // a stale wake-up: its owner does nothing
            }
            let now = t.0;
            // Reserved events whose time has passed are settled; one in four of the rest
            // is put in the queue now.
            reserved.retain(|&(key, _, _)| {
                if key < s.now_key() {
                    settled += 1;
                    return false;
                }
                true
            });
            if !reserved.is_empty() && rng.uniform() < 0.25 {
                let (key, at, rid) = reserved.swap_remove(0);
                s.schedule_reserved(key, rid);
                // The low 64 bits of a key are its scheduling order.
                reference.push(Reverse((at, key as u64, rid)));
            }
            for j in 0..rng.below(4) {
                let kind = rng.below(10);
                let at = if j == 0 && rng.uniform() < 0.6 {
                    now + rng.below(3) // the successor, often the next to run
                } else {
                    now + rng.below(300)
                };
                match kind {
                    0 | 1 => {
                        let l = kind as usize;
                        lane_tail[l] = lane_tail[l].max(now) + rng.below(20);
                        s.schedule_in_lane(lanes[l], SimTime(lane_tail[l]), id);
                        reference.push(Reverse((lane_tail[l], seq, id)));
                    }
                    2 => {
                        let key = s.reserve_exact(SimTime(at), exact_of(SimTime(at)));
                        reserved.push((key, at, id));
                    }
                    _ => {
                        s.schedule(SimTime(at), id);
                        reference.push(Reverse((at, seq, id)));
                    }
                }
                if rng.uniform() < 0.1 {
                    stale.insert(id);
                }
                seq += 1;
                id += 1;
            }
            assert_eq!(s.len(), reference.len());
        }
        assert!(stale_seen > 100 && settled > 100, "{stale_seen} {settled}");
        while let Some(Reverse((at, _, want))) = reference.pop() {
            assert_eq!(s.pop(), Some((SimTime(at), want)));
        }
        assert!(s.is_empty());
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
