//! The per-packet scoreboard of ns-2's FACK and SACK-with-Rate-Halving agents (ns-2.35
//! `tcp/scoreboard.cc` `ScoreBoard`, as the Pittsburgh Supercomputing Center modified it for
//! FACK, and its copy `tcp/scoreboard-rh.cc` `ScoreBoardRH`).
//!
//! Owns: one slot per packet from `first` (the lowest packet not cumulatively acknowledged
//! when the board was last advanced) up to the highest packet a SACK block reported, each
//! slot saying whether the packet was SACKed, whether it was retransmitted in this recovery
//! and what `t_seqno` was then (`snd_nxt`: a SACK for data sent after the retransmission,
//! with the retransmission still missing, means it was lost again), and for Rate-Halving how
//! many ACKs have reported it as a hole (`sack_cnt`). Unlike Sack1's range board
//! (`super::scoreboard`), a retransmitted hole is a flag on its slot, cleared when the packet
//! is SACKed or acknowledged, which is how both agents count `retran_data_`, the
//! retransmissions still in the network.
//!
//! The two ns-2 boards differ in the order of their update steps and in what they count; the
//! two update methods keep each one's order ([`PacketBoard::update_fack`],
//! [`PacketBoard::update_rh`]). When the cumulative ACK passes every slot, `first` stays one
//! past the last slot: ns-2's Rate-Halving board then grows its next slots from there (its
//! circular array keeps the last slot's number), which this keeps.

use std::collections::VecDeque;

use crate::tcp::segment::{SackBlock, Seq};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Slot {
    sacked: bool,
    retran: bool,
    /// `t_seqno` when the packet was retransmitted (ns-2 `snd_nxt_`).
    snd_nxt: Seq,
    /// ACKs with SACK blocks above this hole (ns-2 `sack_cnt_`, Rate-Halving only).
    sack_cnt: u32,
}

#[derive(Clone, Debug, Default)]
pub struct PacketBoard {
    /// The packet of the first slot.
    first: Seq,
    slots: VecDeque<Slot>,
    /// Rate-Halving: the adjustment interval in which a retransmission was last SACKed or
    /// acknowledged (ns-2 `retran_sacked_`).
    retran_sacked: u32,
}

impl PacketBoard {
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// One past the last slot.
    fn end(&self) -> Seq {
        self.first + self.slots.len() as Seq
    }

    fn slot_mut(&mut self, seq: Seq) -> Option<&mut Slot> {
        if seq < self.first {
            return None;
        }
        self.slots.get_mut((seq - self.first) as usize)
    }

    /// ns-2 `ClearScoreBoard`.
    pub fn clear(&mut self) {
        self.slots.clear();
    }

    /// Start an empty board at `seq` (ns-2 "if there is no scoreboard, create one").
    fn start_at(&mut self, seq: Seq) {
        self.slots.clear();
        self.first = seq;
        self.slots.push_back(Slot::default());
    }

    /// Drop the slots at or below `last_ack`; returns how many were retransmissions.
    fn advance(&mut self, last_ack: Seq) -> i64 {
        let mut decr = 0;
        while self.first <= last_ack {
            let Some(s) = self.slots.pop_front() else {
                break;
            };
            self.first += 1;
            decr += i64::from(s.retran);
        }
        decr
    }

    /// Grow slots up to `right - 1`.
    fn extend_to(&mut self, right: Seq) {
        while self.end() < right {
            self.slots.push_back(Slot::default());
        }
    }

    /// Mark `[b.left, b.right)` SACKed; returns how many retransmitted slots it covered.
    fn mark_sacked(&mut self, b: &SackBlock) -> i64 {
        let mut decr = 0;
        for seq in b.left.max(self.first)..b.right.min(self.end()) {
            let s = &mut self.slots[(seq - self.first) as usize];
            s.sacked = true;
            if s.retran {
                s.retran = false;
                s.snd_nxt = 0;
                decr += 1;
            }
        }
        decr
    }

    /// FACK's update (ns-2 `ScoreBoard::UpdateScoreBoard`): advance to `last_ack`, start a
    /// board at `last_ack + 1` if it is empty and SACK blocks came, grow it to the highest
    /// block and mark the blocks. Returns how many retransmissions left the network
    /// (acknowledged or SACKed), which FACK takes off `retran_data_`.
    pub fn update_fack(&mut self, last_ack: Seq, blocks: &[SackBlock]) -> i64 {
        let mut decr = if self.slots.is_empty() {
            0
        } else {
            self.advance(last_ack)
        };
        if self.slots.is_empty() && !blocks.is_empty() {
            self.start_at(last_ack + 1);
        }
        for b in blocks {
            self.extend_to(b.right);
            decr += self.mark_sacked(b);
        }
        decr
    }

    /// FACK's lost-retransmission test (ns-2 `ScoreBoard::CheckSndNxt`): a retransmitted
    /// slot whose `snd_nxt` is below the right edge of a block was lost again (data sent
    /// after it arrived first). Its flag is cleared; true if any was.
    pub fn retransmission_lost_fack(&mut self, blocks: &[SackBlock]) -> bool {
        let Some(right) = blocks.iter().map(|b| b.right).max() else {
            return false;
        };
        self.lost_below(right) > 0
    }

    fn lost_below(&mut self, right: Seq) -> u32 {
        let first = self.first;
        let mut lost = 0;
        for (i, s) in self.slots.iter_mut().enumerate() {
            if first + i as Seq >= right {
                break;
            }
            if s.retran && s.snd_nxt < right {
                s.retran = false;
                s.snd_nxt = 0;
                lost += 1;
            }
        }
        lost
    }

    /// ns-2 `GetNextRetran`: the lowest slot neither SACKed nor retransmitted (Rate-Halving:
    /// also reported as a hole by at least `dupthresh` ACKs).
    pub fn next_retran(&self, dupthresh: Option<u32>) -> Option<Seq> {
        self.slots
            .iter()
            .position(|s| !s.sacked && !s.retran && dupthresh.is_none_or(|d| s.sack_cnt >= d))
            .map(|i| self.first + i as Seq)
    }

    /// ns-2 `MarkRetran(seq, snd_nxt)`; a packet without a slot is not recorded (ns-2 writes
    /// a slot of its circular array that is reset before it is used).
    pub fn mark_retran(&mut self, seq: Seq, snd_nxt: Seq) {
        if let Some(s) = self.slot_mut(seq) {
            s.retran = true;
            s.snd_nxt = snd_nxt;
        }
    }

    /// Rate-Halving's update (ns-2 `ScoreBoardRH::UpdateScoreBoard`): nothing without
    /// blocks and slots; else start a board at `last_ack + 1` if it is empty, advance to
    /// `last_ack`, grow and mark each block (a retransmission SACKed or acknowledged notes
    /// the interval `rh_id`), count one more report for every hole below the highest block,
    /// and clear retransmissions lost again. Returns the retransmissions that left the
    /// network, acknowledged, SACKed or lost.
    pub fn update_rh(&mut self, last_ack: Seq, blocks: &[SackBlock], rh_id: u32) -> i64 {
        if blocks.is_empty() && self.slots.is_empty() {
            return 0;
        }
        if self.slots.is_empty() {
            self.start_at(last_ack + 1);
        }
        let mut decr = self.advance(last_ack);
        let mut sack_max = 0;
        for b in blocks {
            sack_max = sack_max.max(b.right);
            self.extend_to(b.right);
            decr += self.mark_sacked(b);
        }
        if decr > 0 {
            self.retran_sacked = rh_id;
        }
        let first = self.first;
        for (i, s) in self.slots.iter_mut().enumerate() {
            if first + i as Seq >= sack_max {
                break;
            }
            if !s.sacked {
                s.sack_cnt += 1;
            }
        }
        // ns-2 `ScoreBoardRH::CheckSndNxt`: a lost retransmission becomes a hole reported
        // once.
        let first = self.first;
        let mut lost = 0;
        for (i, s) in self.slots.iter_mut().enumerate() {
            if first + i as Seq >= sack_max {
                break;
            }
            if s.retran && s.snd_nxt < sack_max {
                s.retran = false;
                s.snd_nxt = 0;
                s.sack_cnt = 1;
                lost += 1;
            }
        }
        decr + lost
    }

    /// Rate-Halving: the highest packet the board knows of (ns-2 `GetFack`), else `last_ack`.
    pub fn fack(&self, last_ack: Seq) -> Seq {
        if self.slots.is_empty() {
            last_ack
        } else {
            self.end() - 1
        }
    }

    /// Rate-Halving: holes reported for the first time by this ACK (ns-2 `GetNewHoles`).
    pub fn new_holes(&self) -> u32 {
        self.slots
            .iter()
            .filter(|s| !s.sacked && s.sack_cnt == 1)
            .count() as u32
    }

    /// Rate-Halving: a retransmission of interval `rh_id` was SACKed or acknowledged (ns-2
    /// `RetranSacked`).
    pub fn retran_sacked(&self, rh_id: u32) -> bool {
        self.retran_sacked == rh_id
    }

    /// Rate-Halving after a timeout (ns-2 `ScoreBoardRH::TimeoutScoreBoard`): grow the board
    /// to `t_seqno - 1` and make every hole due for retransmission (and the first slot, if
    /// SACKed: the receiver reneged).
    pub fn timeout_rh(&mut self, t_seqno: Seq, dupthresh: u32) {
        if self.slots.is_empty() {
            return;
        }
        self.extend_to(t_seqno);
        for s in self.slots.iter_mut().filter(|s| !s.sacked) {
            s.retran = false;
            s.snd_nxt = 0;
            s.sack_cnt = dupthresh;
        }
        if let Some(s) = self.slots.front_mut().filter(|s| s.sacked) {
            *s = Slot {
                sack_cnt: dupthresh,
                ..Slot::default()
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(left: Seq, right: Seq) -> SackBlock {
        SackBlock { left, right }
    }

    /// FACK board: packet 14 lost, 15..17 SACKed one by one; 14 resent at t_seqno 30; a
    /// block reaching 31 (data sent after the resend) declares it lost again.
    #[test]
    fn fack_board_counts_retransmissions_and_detects_a_lost_one() {
        let mut sb = PacketBoard::default();
        assert_eq!(sb.update_fack(13, &[]), 0);
        assert!(sb.is_empty());
        assert_eq!(sb.update_fack(13, &[b(15, 16)]), 0);
        assert_eq!((sb.first, sb.end()), (14, 16));
        assert_eq!(sb.next_retran(None), Some(14));
        sb.update_fack(13, &[b(15, 18)]);
        sb.mark_retran(14, 30);
        assert_eq!(sb.next_retran(None), None, "14 resent, 15..17 SACKed");
        assert!(!sb.retransmission_lost_fack(&[b(15, 30)]));
        assert!(sb.retransmission_lost_fack(&[b(15, 31)]));
        assert_eq!(sb.next_retran(None), Some(14), "due again once lost");
        sb.mark_retran(14, 40);
        // The cumulative ACK of 17 acknowledges the retransmission: one leaves the network.
        assert_eq!(sb.update_fack(17, &[]), 1);
        assert!(sb.is_empty());
        // A packet without a slot is not recorded.
        sb.mark_retran(25, 40);
        assert_eq!(sb.update_fack(17, &[b(20, 21)]), 0);
        assert_eq!(sb.next_retran(None), Some(18));
    }

    /// Rate-Halving board: a hole is due after `dupthresh` reports; new holes are those
    /// reported once; a lost retransmission becomes a hole reported once.
    #[test]
    fn rh_board_counts_reports_per_hole() {
        let mut sb = PacketBoard::default();
        assert_eq!(sb.update_rh(13, &[], 1), 0);
        assert!(sb.is_empty());
        sb.update_rh(13, &[b(15, 16)], 1);
        assert_eq!(sb.new_holes(), 1);
        assert_eq!(sb.fack(13), 15);
        assert_eq!(sb.next_retran(Some(3)), None);
        sb.update_rh(13, &[b(15, 17)], 1);
        assert_eq!(sb.new_holes(), 0);
        sb.update_rh(13, &[b(15, 18)], 1);
        assert_eq!(sb.next_retran(Some(3)), Some(14));
        sb.mark_retran(14, 28);
        assert_eq!(sb.next_retran(Some(3)), None);
        // SACK of 28 (sent at the resend's t_seqno 28): 14 lost again, one report.
        assert_eq!(sb.update_rh(13, &[b(28, 29), b(15, 18)], 1), 1);
        assert_eq!(sb.new_holes(), 1 + 10, "14 again and 18..27 reported once");
        // The cumulative ACK passes the board: no slots, `fack` is the ACK.
        assert_eq!(sb.update_rh(28, &[], 2), 0);
        assert!(sb.is_empty());
        assert_eq!(sb.fack(28), 28);
        assert!(!sb.retran_sacked(2));
    }

    #[test]
    fn rh_board_after_a_timeout_makes_every_hole_due() {
        let mut sb = PacketBoard::default();
        sb.update_rh(13, &[b(15, 16)], 1);
        sb.timeout_rh(20, 3);
        assert_eq!(sb.fack(13), 19);
        assert_eq!(sb.next_retran(Some(3)), Some(14));
        sb.mark_retran(14, 20);
        assert_eq!(sb.next_retran(Some(3)), Some(16));
    }
}
