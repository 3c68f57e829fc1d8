//! A binary min-heap ordered by a `u128` key that every element carries.
//!
//! The event queue and the 802.11 channel's deadline agenda pop once or twice per event from
//! small heaps (a dozen entries, a few dozen at most). `std::collections::BinaryHeap` pays
//! there for its generality: `Ord` through `Reverse`, `Option` juggling on every pop and a
//! sift to the bottom and back up. This heap compares plain integers and sifts down only as
//! far as needed. Keys are unique in both users (time and insertion sequence), so the pop
//! order is fully determined by the keys: the same order any correct heap would give.

/// An element ordered by its key (smallest first).
pub trait Keyed {
    fn key(&self) -> u128;
}

pub struct MinHeap<T> {
    v: Vec<T>,
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
        }
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.v.len()
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.v.is_empty()
    }

    #[inline]
    pub fn peek(&self) -> Option<&T> {
        self.v.first()
    }

    #[inline]
    pub fn push(&mut self, x: T) {
        self.v.push(x);
        self.place_up(self.v.len() - 1, x);
    }

    #[inline]
    pub fn pop(&mut self) -> Option<T> {
        let last = self.v.pop()?;
        if self.v.is_empty() {
            return Some(last);
        }
        let top = self.v[0];
        self.place_down(0, last);
        Some(top)
    }

    /// Pops the top and pushes `x` in one pass down the heap.
    #[inline]
    pub fn replace_top(&mut self, x: T) -> T {
        let top = self.v[0];
        self.place_down(0, x);
        top
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
}
