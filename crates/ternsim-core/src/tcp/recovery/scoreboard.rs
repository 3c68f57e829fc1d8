//! The Sack1 scoreboard (ns-2 `ScoreBoard`/`ScoreBoardRQ`, tcp-spec §7.3): the packets above
//! the cumulative ACK that SACK blocks reported, and a retransmission pointer.
//!
//! Owns: SACKed ranges as sorted, disjoint, non-adjacent half-open `[left, right)` packet
//! ranges, all above the cumulative ACK; `h_seqno`, the lowest packet not yet retransmitted
//! in this recovery (it only advances, so each hole is resent once). A "hole" is an
//! un-SACKed packet with SACKed data above it; there is no RFC 6675 `IsLost` test. Reneging
//! is handled as ns-2 does: the board is cleared on every new ACK outside recovery and on RTO.
//! The vector is reused, so steady state does not allocate.

use crate::tcp::segment::{SackBlock, Seq};

#[derive(Clone, Debug, Default)]
pub struct Scoreboard {
    ranges: Vec<SackBlock>,
    h_seqno: Seq,
}

impl Scoreboard {
    pub fn clear(&mut self) {
        self.ranges.clear();
        self.h_seqno = 0;
    }

    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    /// ns-2 `UpdateScoreBoard` + `CheckUpdate`: forget everything at or below `highest_ack`,
    /// merge `blocks`; true if any packet became SACKed for the first time.
    pub fn update(&mut self, highest_ack: Seq, blocks: &[SackBlock]) -> bool {
        let floor = highest_ack + 1;
        self.ranges.retain(|r| r.right > floor);
        for r in &mut self.ranges {
            r.left = r.left.max(floor);
        }
        let mut changed = false;
        for b in blocks {
            let left = b.left.max(floor);
            if left >= b.right {
                continue;
            }
            if self
                .ranges
                .iter()
                .any(|r| r.left <= left && b.right <= r.right)
            {
                continue;
            }
            changed = true;
            self.insert(left, b.right);
        }
        changed
    }

    fn insert(&mut self, left: Seq, right: Seq) {
        self.ranges.push(SackBlock { left, right });
        self.ranges.sort_by_key(|r| r.left);
        let mut merged = 0;
        for i in 1..self.ranges.len() {
            let r = self.ranges[i];
            let m = &mut self.ranges[merged];
            if r.left <= m.right {
                m.right = m.right.max(r.right);
            } else {
                merged += 1;
                self.ranges[merged] = r;
            }
        }
        self.ranges.truncate(merged + 1);
    }

    pub fn is_sacked(&self, seq: Seq) -> bool {
        self.ranges.iter().any(|r| r.left <= seq && seq < r.right)
    }

    /// ns-2 `GetNextRetran`: the lowest hole at or above the retransmission pointer.
    pub fn next_hole(&self, highest_ack: Seq) -> Option<Seq> {
        let mut s = self.h_seqno.max(highest_ack + 1);
        for r in &self.ranges {
            if r.right <= s {
                continue;
            }
            if r.left > s {
                return Some(s);
            }
            s = r.right;
        }
        None
    }

    /// ns-2 `GetNextUnacked(seq)` (`ReassemblyQueue::nexthole`): `seq` itself if the first
    /// SACKed range not below it starts above it, the end of the range that holds it, or
    /// None when no range reaches `seq`.
    pub fn next_unacked(&self, seq: Seq) -> Option<Seq> {
        for r in &self.ranges {
            if r.left > seq {
                return Some(seq);
            }
            if r.right >= seq {
                return Some(r.right);
            }
        }
        None
    }

    /// ns-2 `MarkRetran`: `seq` has been retransmitted in this recovery.
    pub fn mark_retran(&mut self, seq: Seq) {
        self.h_seqno = self.h_seqno.max(seq + 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(left: Seq, right: Seq) -> SackBlock {
        SackBlock { left, right }
    }

    #[test]
    fn holes_are_unsacked_packets_below_sacked_data_each_resent_once() {
        let mut sb = Scoreboard::default();
        assert_eq!(sb.next_hole(20), None);
        assert!(sb.update(20, &[b(22, 23)]));
        assert!(!sb.update(20, &[b(22, 23)]), "same block again is no news");
        assert!(sb.update(20, &[b(22, 24), b(26, 28)]));
        assert_eq!(sb.next_hole(20), Some(21));
        sb.mark_retran(21);
        assert_eq!(sb.next_hole(20), Some(24));
        sb.mark_retran(24);
        assert_eq!(sb.next_hole(20), Some(25));
        sb.mark_retran(25);
        assert_eq!(sb.next_hole(20), None, "nothing SACKed above 28");
        // A cumulative ACK to 24 trims the board; 25 stays resent.
        assert!(!sb.update(24, &[b(26, 28)]));
        assert!(!sb.is_sacked(24) && sb.is_sacked(26) && sb.is_sacked(27) && !sb.is_sacked(28));
        assert_eq!(sb.next_hole(24), None);
        // Adjacent blocks merge.
        assert!(sb.update(24, &[b(28, 30)]));
        assert_eq!(sb.ranges, vec![b(26, 30)]);
        // ns-2 `GetNextUnacked`: 25 is below the range 26..30, 27 inside it (its end), 31
        // past every range (none).
        assert_eq!(sb.next_unacked(25), Some(25));
        assert_eq!(sb.next_unacked(27), Some(30));
        assert_eq!(sb.next_unacked(31), None);
        sb.clear();
        assert!(sb.is_empty());
        assert_eq!(sb.next_hole(24), None);
    }
}
