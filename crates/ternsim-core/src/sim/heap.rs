//! A binary min-heap ordered by a `u128` key that every element carries.
//!
//! The event queue and the 802.11 channel's deadline agenda pop once or twice per event from
//! small heaps (a dozen entries, a few dozen at most). `std::collections::BinaryHeap` pays
//! there for its generality: `Ord` through `Reverse`, `Option` juggling on every pop and a
//! sift to the bottom and back up. This heap compares plain integers and sifts down only as
//! far as needed. Keys are unique in both users (time and insertion sequence), so the pop
//! order is fully determined by the keys: the same order any correct heap would give.
//!
//! **The vacant root.** Both users pop an element and, while handling it, push its
//! successor, which is often the next to pop (an 802.11 channel's next deadline, its next
//! wake-up). A pop therefore only takes the root and leaves its place vacant; the next push
//! fills the vacancy from the top, where an element smaller than the root's children stays
//! at once (no sift at all, where a pop and a push cost one sift down and one up the whole
//! height), and a larger one sinks as the last element would have. Only a peek or pop that
//! finds the root still vacant moves the last element there, the work the pop put off. The
//! elements and keys are those of a plain heap, so the pop order is unchanged.

/// An element ordered by its key (smallest first).
pub trait Keyed {
    fn key(&self) -> u128;
}

pub struct MinHeap<T> {
    /// The heap, its root `v[0]` vacant (a stale copy of the element last popped) while
    /// `vacant` is set.
    v: Vec<T>,
    vacant: bool,
}

// Elements are `Copy` (an event or a deadline, a few integers): a sift carries the element
// it places in registers and moves each element it passes once, into the hole it leaves,
// writing the carried one once where it stops. A sift by swaps moves every passed element
// twice through memory, and reads back at once what the pop or push before it just wrote
// field by field, which the processor cannot forward from its stores (a stall per pop,
// measured as the costliest instruction of the event loop).
impl<T: Keyed + Copy> MinHeap<T> {
    pub fn with_capacity(n: usize) -> Self {
        MinHeap {
            v: Vec::with_capacity(n),
            vacant: false,
        }
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.v.len() - usize::from(self.vacant)
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The smallest element (`&mut`: a vacant root is filled first).
    #[inline]
    pub fn peek(&mut self) -> Option<&T> {
        self.fill_root();
        self.v.first()
    }

    /// O(1) into a vacant root when `x` is smaller than both children, else O(log n).
    /// (Always inlined: left to itself the compiler made it a call, and the 1000 s wired
    /// run took 0.6 % more instructions by callgrind.)
    #[inline(always)]
    pub fn push(&mut self, x: T) {
        if self.vacant {
            self.vacant = false;
            self.place_down(0, x);
        } else {
            self.v.push(x);
            self.place_up(self.v.len() - 1, x);
        }
    }

    /// O(1): the root is left vacant (see the module documentation).
    #[inline]
    pub fn pop(&mut self) -> Option<T> {
        self.fill_root();
        let top = *self.v.first()?;
        self.vacant = true;
        Some(top)
    }

    /// Pops the top and pushes `x` in one pass down the heap.
    #[inline]
    pub fn replace_top(&mut self, x: T) -> T {
        self.fill_root();
        let top = self.v[0];
        self.place_down(0, x);
        top
    }

    /// Fills a vacant root with the last element, as a pop would have done.
    #[inline(always)]
    fn fill_root(&mut self) {
        if self.vacant {
            self.vacant = false;
            let last = self.v.pop().expect("a vacant root is an element of v");
            if !self.v.is_empty() {
                self.place_down(0, last);
            }
        }
    }

    /// Puts `x` in the hole at `i` or above it: parents greater than `x` move down into
    /// the hole.
    #[inline]
    fn place_up(&mut self, mut i: usize, x: T) {
        let key = x.key();
        while i > 0 {
            let parent = (i - 1) / 2;
            if self.v[parent].key() <= key {
                break;
            }
            self.v[i] = self.v[parent];
            i = parent;
        }
        self.v[i] = x;
    }

    /// Puts `x` in the hole at `i` or below it: the smaller child moves up into the hole
    /// while it is smaller than `x`.
    #[inline]
    fn place_down(&mut self, mut i: usize, x: T) {
        let n = self.v.len();
        let key = x.key();
        loop {
            let left = 2 * i + 1;
            if left >= n {
                break;
            }
            let right = left + 1;
            let mut child = left;
            let mut child_key = self.v[left].key();
            if right < n {
                let right_key = self.v[right].key();
                if right_key < child_key {
                    child = right;
                    child_key = right_key;
                }
            }
            if key <= child_key {
                break;
            }
            self.v[i] = self.v[child];
            i = child;
        }
        self.v[i] = x;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;

    impl Keyed for (u128, u32) {
        fn key(&self) -> u128 {
            self.0
        }
    }

    /// Random pushes, pops and top replacements with unique keys pop exactly as
    /// `std::collections::BinaryHeap` does.
    #[test]
    fn pops_as_the_standard_heap() {
        let mut rng = crate::sim::RandomStream::named(3, "min-heap-test");
        let mut mine: MinHeap<(u128, u32)> = MinHeap::with_capacity(4);
        let mut std_heap = BinaryHeap::new();
        let mut seq = 0u128;
        for i in 0..50_000u32 {
            let r = rng.uniform();
            if r < 0.5 || mine.is_empty() {
                let key = (u128::from(rng.below(100)) << 64) | seq;
                seq += 1;
                mine.push((key, i));
                std_heap.push(Reverse((key, i)));
            } else if r < 0.8 {
                assert_eq!(mine.pop(), std_heap.pop().map(|Reverse(x)| x));
            } else {
                let key = (u128::from(rng.below(100)) << 64) | seq;
                seq += 1;
                let Reverse(want) = std_heap.pop().unwrap();
                std_heap.push(Reverse((key, i)));
                assert_eq!(mine.replace_top((key, i)), want);
            }
            assert_eq!(mine.peek().copied(), std_heap.peek().map(|Reverse(x)| *x));
            assert_eq!(mine.len(), std_heap.len());
        }
        while let Some(Reverse(x)) = std_heap.pop() {
            assert_eq!(mine.pop(), Some(x));
        }
        assert!(mine.pop().is_none());
    }

    /// The vacant root by hand: popping 10 leaves the root vacant; 12, smaller than both
    /// children (15, 20), takes it with no sift; 30 is larger and sinks; a peek with the
    /// root vacant (after popping 12) first moves the last element up.
    #[test]
    fn a_vacant_root_takes_the_next_push() {
        let mut h: MinHeap<(u128, u32)> = MinHeap::with_capacity(8);
        for k in [10u128, 20, 15, 40, 25] {
            h.push((k, 0));
        }
        assert_eq!(h.pop(), Some((10, 0)));
        assert!(h.vacant);
        assert_eq!(h.len(), 4);
        h.push((12, 1));
        assert!(!h.vacant);
        assert_eq!(h.v, vec![(12, 1), (20, 0), (15, 0), (40, 0), (25, 0)]);
        assert_eq!(h.pop(), Some((12, 1)));
        h.push((30, 2));
        assert_eq!(h.v, vec![(15, 0), (20, 0), (30, 2), (40, 0), (25, 0)]);
        assert_eq!(h.pop(), Some((15, 0)));
        assert_eq!(h.peek(), Some(&(20, 0)));
        assert_eq!(h.v, vec![(20, 0), (25, 0), (30, 2), (40, 0)]);
        let order: Vec<u128> = std::iter::from_fn(|| h.pop().map(|x| x.0)).collect();
        assert_eq!(order, vec![20, 25, 30, 40]);
        assert!(h.is_empty() && h.pop().is_none());
    }

    /// The event loop's pattern, against `std::collections::BinaryHeap`: each pop is
    /// followed by zero to three pushes, the first often earlier than everything left (the
    /// popped element's successor) and the others anywhere.
    #[test]
    fn pop_then_push_successor_pops_as_the_standard_heap() {
        let mut rng = crate::sim::RandomStream::named(5, "min-heap-successor");
        let mut mine: MinHeap<(u128, u32)> = MinHeap::with_capacity(4);
        let mut std_heap = BinaryHeap::new();
        let mut seq = 0u128;
        let mut now = 0u128;
        let mut key = |at: u128| {
            seq += 1;
            (at << 64) | seq
        };
        for i in 0..40u32 {
            let k = key(rng.below(50).into());
            mine.push((k, i));
            std_heap.push(Reverse((k, i)));
        }
        for i in 40..60_000u32 {
            let Some(Reverse(want)) = std_heap.pop() else {
                break;
            };
            assert_eq!(mine.pop(), Some(want));
            now = now.max(want.0 >> 64);
            for j in 0..rng.below(4) {
                let at = if j == 0 && rng.uniform() < 0.7 {
                    now + u128::from(rng.below(2))
                } else {
                    now + u128::from(rng.below(200))
                };
                let k = key(at);
                mine.push((k, i));
                std_heap.push(Reverse((k, i)));
            }
            assert_eq!(mine.len(), std_heap.len());
            if rng.uniform() < 0.1 {
                assert_eq!(mine.peek().copied(), std_heap.peek().map(|Reverse(x)| *x));
            }
        }
        while let Some(Reverse(x)) = std_heap.pop() {
            assert_eq!(mine.pop(), Some(x));
        }
        assert!(mine.is_empty());
    }
}
