//! A first-in first-out queue of `Copy` elements in a growable ring buffer: what a lane of
//! the event queue keeps its waiting events in.
//!
//! `VecDeque` would do, but its `push_back` stays a call (it carries the growth path), and
//! an element built in registers by the caller then goes through the stack into the call,
//! which reads it back at once with wider loads than the stores that wrote it: the
//! processor cannot forward such stores, and every push of a wired arrival stalled (perf).
//! Here the push is inlined and the growth is a separate cold function.

pub struct Ring<T> {
    /// The slots; `buf.len()` is the capacity, zero or a power of two.
    buf: Vec<T>,
    /// The slot of the first element.
    head: usize,
    len: usize,
}

impl<T: Copy> Default for Ring<T> {
    fn default() -> Self {
        Ring {
            buf: Vec::new(),
            head: 0,
            len: 0,
        }
    }
}

impl<T: Copy> Ring<T> {
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline(always)]
    pub fn push_back(&mut self, x: T) {
        if self.len == self.buf.len() {
            self.grow(x);
        }
        let mask = self.buf.len() - 1;
        self.buf[(self.head + self.len) & mask] = x;
        self.len += 1;
    }

    #[inline]
    pub fn pop_front(&mut self) -> Option<T> {
        if self.len == 0 {
            return None;
        }
        let x = self.buf[self.head];
        self.head = (self.head + 1) & (self.buf.len() - 1);
        self.len -= 1;
        Some(x)
    }

    /// Doubles the capacity (at least 8 slots), the elements moved to the front in order;
    /// `fill` fills the new slots (any element will do: they are never read before written).
    #[cold]
    #[inline(never)]
    fn grow(&mut self, fill: T) {
        let cap = (self.buf.len() * 2).max(8);
        let mut buf = Vec::with_capacity(cap);
        let mask = self.buf.len().wrapping_sub(1);
        buf.extend((0..self.len).map(|k| self.buf[(self.head + k) & mask]));
        buf.resize(cap, fill);
        self.buf = buf;
        self.head = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::VecDeque;

    /// Interleaved pushes and pops, across several growths and wrap-arounds, come out as
    /// from a `VecDeque`.
    #[test]
    fn behaves_as_a_vecdeque() {
        let mut rng = crate::sim::RandomStream::named(5, "ring-test");
        let mut ring = Ring::default();
        let mut reference = VecDeque::new();
        for i in 0..20_000u32 {
            if rng.uniform() < 0.55 {
                ring.push_back(i);
                reference.push_back(i);
            } else {
                assert_eq!(ring.pop_front(), reference.pop_front());
            }
            assert_eq!(ring.len(), reference.len());
            assert_eq!(ring.is_empty(), reference.is_empty());
        }
        while let Some(x) = reference.pop_front() {
            assert_eq!(ring.pop_front(), Some(x));
        }
        assert_eq!(ring.pop_front(), None);
    }
}
