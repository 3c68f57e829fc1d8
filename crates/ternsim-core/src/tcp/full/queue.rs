//! ns-2's `ReassemblyQueue` (tcp/rq.cc) as FullTcp uses it, twice: the receiver's queue of
//! out-of-order bytes above `rcv_nxt_` (whose blocks `FullTcp/Sack` reports as SACK blocks),
//! and the SACK sender's scoreboard of what the peer reported (`sq_`, above `sack_min_`).
//!
//! Blocks are disjoint, sorted, never adjacent: a segment that overlaps or touches blocks
//! merges with them (`add`). Each block also has a place in ns-2's second list, the LIFO
//! from which `gensack` reports blocks most recent first: a new block goes on top, and a
//! block that a segment extends or that absorbs its neighbours keeps the place of the
//! leftmost existing block that was extended, not covered (rq.cc's left/right merges and
//! `coalesce`), so a growing block is not moved to the top.

/// One block of received (or reported) bytes `[start, end)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Block {
    start: i64,
    end: i64,
    /// OR of the TCP header flags of the segments in it (`pflags_`).
    flags: u8,
    /// Its place in the LIFO: higher is more recent.
    lifo: u64,
}

#[derive(Clone, Debug, Default)]
pub(super) struct ReassemblyQueue {
    blocks: Vec<Block>,
    next_lifo: u64,
}

impl ReassemblyQueue {
    pub(super) fn is_empty(&self) -> bool {
        self.blocks.is_empty()
    }

    /// ns-2 `clear`.
    pub(super) fn clear(&mut self) {
        self.blocks.clear();
    }

    /// ns-2 `total`: the bytes in the blocks.
    pub(super) fn total(&self) -> i64 {
        self.blocks.iter().map(|b| b.end - b.start).sum()
    }

    /// ns-2 `add(start, end, flags)`: insert `[start, end)`, merging what it overlaps or
    /// touches; if the resulting block reaches `next` (the queue's reference: `rcv_nxt_` or
    /// `sack_min_`), move `next` to its end.
    pub(super) fn add(&mut self, start: i64, end: i64, flags: u8, next: &mut i64) {
        // An exact duplicate of a block only adds its flags (rq.cc's "exact overlap").
        if let Some(b) = self
            .blocks
            .iter_mut()
            .find(|b| b.start == start && b.end == end)
        {
            b.flags |= flags;
            return;
        }
        let touching = |b: &Block| !(b.end < start || b.start > end);
        let covered = |b: &Block| start <= b.start && end >= b.end;
        let kept = self
            .blocks
            .iter()
            .filter(|b| touching(b) && !covered(b))
            .min_by_key(|b| b.start)
            .map(|b| b.lifo);
        let lifo = kept.unwrap_or_else(|| {
            self.next_lifo += 1;
            self.next_lifo
        });
        let mut merged = Block {
            start,
            end,
            flags,
            lifo,
        };
        self.blocks.retain(|b| {
            if touching(b) {
                merged.start = merged.start.min(b.start);
                merged.end = merged.end.max(b.end);
                merged.flags |= b.flags;
                false
            } else {
                true
            }
        });
        let at = self.blocks.partition_point(|b| b.start < merged.start);
        self.blocks.insert(at, merged);
        if *next >= merged.start {
            *next = (*next).max(merged.end);
        }
    }

    /// ns-2 `clearto(seq)` (`cleartonxt` with the queue's reference): drop what lies below
    /// `seq`, returning the flags of what it dropped or trimmed.
    pub(super) fn clear_to(&mut self, seq: i64) -> u8 {
        let mut flags = 0;
        self.blocks.retain(|b| {
            if b.end <= seq {
                flags |= b.flags;
                false
            } else {
                true
            }
        });
        if let Some(b) = self.blocks.first_mut() {
            if b.start <= seq {
                b.start = seq;
                flags |= b.flags;
            }
        }
        flags
    }

    /// ns-2 `gensack(max)`: up to `max` blocks, most recent first.
    pub(super) fn sack_blocks(&self, max: usize) -> Vec<(i64, i64)> {
        let mut order: Vec<&Block> = self.blocks.iter().collect();
        order.sort_by_key(|b| std::cmp::Reverse(b.lifo));
        order
            .into_iter()
            .take(max)
            .map(|b| (b.start, b.end))
            .collect()
    }

    /// ns-2 `nexthole(seq)`: the next sequence number at or after `seq` not covered by a
    /// block (`seq` itself, or the end of the block holding it; -1 past the last block),
    /// with the number of blocks and their bytes above it (-1, -1 when none follow).
    pub(super) fn next_hole(&self, seq: i64) -> (i64, i64, i64) {
        let following = |from: usize| {
            let rest = &self.blocks[from..];
            let bytes: i64 = rest.iter().map(|b| b.end - b.start).sum();
            (rest.len() as i64, bytes)
        };
        for (k, b) in self.blocks.iter().enumerate() {
            if b.start > seq {
                let (n, bytes) = following(k);
                return (seq, n, bytes);
            }
            if b.start <= seq && b.end >= seq {
                if k + 1 < self.blocks.len() {
                    let (n, bytes) = following(k + 1);
                    return (b.end, n, bytes);
                }
                return (b.end, -1, -1);
            }
        }
        (-1, -1, -1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The LIFO after ns-2's own rq.cc examples: a block that grows keeps its place; a
    /// segment filling the hole between two blocks joins them under the left one's place.
    #[test]
    fn sack_blocks_come_most_recent_first_and_growing_blocks_keep_their_place() {
        let mut q = ReassemblyQueue::default();
        let mut next = 1;
        q.add(201, 301, 0, &mut next);
        q.add(501, 601, 0, &mut next);
        assert_eq!(q.sack_blocks(3), vec![(501, 601), (201, 301)]);
        q.add(301, 401, 0, &mut next); // extends the older block: it stays second
        assert_eq!(q.sack_blocks(3), vec![(501, 601), (201, 401)]);
        q.add(401, 501, 0, &mut next); // fills the hole: one block, the left one's place
        assert_eq!(q.sack_blocks(3), vec![(201, 601)]);
        assert_eq!(next, 1);
        q.add(1, 201, 0, &mut next);
        assert_eq!(next, 601);
        assert_eq!(q.total(), 600);
        assert_eq!(q.clear_to(next), 0);
        assert!(q.is_empty());
    }

    #[test]
    fn next_hole_skips_reported_blocks() {
        let mut q = ReassemblyQueue::default();
        let mut min = -1;
        q.add(101, 201, 0, &mut min);
        q.add(301, 401, 0, &mut min);
        assert_eq!(q.next_hole(1), (1, 2, 200));
        assert_eq!(q.next_hole(101), (201, 1, 100));
        assert_eq!(q.next_hole(301), (401, -1, -1));
        assert_eq!(q.next_hole(500), (-1, -1, -1));
    }
}
