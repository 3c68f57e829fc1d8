//! Stochastic Fairness Queueing (McKenney, INFOCOM 1990) as ns-2.35's `Queue/SFQ` runs it
//! (`queue/sfq.cc`, contributed by Curtis Villamizar): packets hash by their source and
//! destination addresses into `buckets` FIFO queues, served one packet per bucket in turn.
//!
//! ns-2's choices kept here: the hash is of the two node addresses alone (not ports, not the
//! flow id) and never perturbed; an arrival is refused when its bucket already holds half of
//! the room left in the whole queue or more, or when less room than one packet per bucket is
//! left and the bucket holds more than its fair share (`limit / buckets`), or when nothing is
//! left; a bucket that becomes busy joins the round just before the bucket about to be
//! served, and a bucket that empties leaves it.

use std::collections::VecDeque;

use crate::net::packet::Packet;

/// ns-2.35's `Queue/SFQ` defaults: `maxqueue_` 40, `buckets_` 16.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SfqConfig {
    /// Packets waiting in all buckets together at most (ns-2 `maxqueue_`).
    pub limit: u32,
    pub buckets: u32,
}

impl Default for SfqConfig {
    fn default() -> Self {
        SfqConfig {
            limit: 40,
            buckets: 16,
        }
    }
}

/// The buckets and the round over the busy ones.
#[derive(Debug)]
pub struct Sfq {
    cfg: SfqConfig,
    buckets: Vec<VecDeque<Packet>>,
    /// The busy buckets in service order, the one served next first.
    round: VecDeque<usize>,
    /// Packets waiting in all buckets.
    occupied: u32,
}

impl Sfq {
    pub fn new(cfg: SfqConfig) -> Self {
        Sfq {
            cfg,
            buckets: (0..cfg.buckets).map(|_| VecDeque::new()).collect(),
            round: VecDeque::new(),
            occupied: 0,
        }
    }

    pub fn len(&self) -> usize {
        self.occupied as usize
    }

    pub fn is_empty(&self) -> bool {
        self.occupied == 0
    }

    /// ns-2 `SFQ::hash` of two node addresses, in C `int` arithmetic (`%` truncates toward
    /// zero; `~` is the bitwise complement), then the bucket (`% buckets_`).
    pub fn bucket_of(&self, src: u32, dst: u32) -> usize {
        let k = (src as i32).wrapping_add(dst as i32);
        let h = k.wrapping_add(k >> 8).wrapping_add(!(k >> 4)) % ((2 << 19) - 1);
        // A negative hash would index before ns-2's array; node numbers never make one.
        (h % self.cfg.buckets as i32).rem_euclid(self.cfg.buckets as i32) as usize
    }

    /// Whether an arrival for `bucket` is refused (ns-2 `SFQ::enque`'s drop test).
    pub fn refuses(&self, bucket: usize) -> bool {
        let used = self.buckets[bucket].len() as i64;
        let left = i64::from(self.cfg.limit) - i64::from(self.occupied);
        let fair_share = i64::from(self.cfg.limit / self.cfg.buckets);
        used >= left >> 1 || (left < i64::from(self.cfg.buckets) && used > fair_share) || left <= 0
    }

    /// Puts `packet` in `bucket` (the caller checked [`Sfq::refuses`]).
    pub fn enqueue(&mut self, bucket: usize, packet: Packet) {
        self.buckets[bucket].push_back(packet);
        self.occupied += 1;
        if self.buckets[bucket].len() == 1 {
            // ns-2 `activate`: just before the bucket served next, i.e. last in the round.
            self.round.push_back(bucket);
        }
    }

    /// The next packet: the head of the bucket whose turn it is; the turn passes on.
    pub fn dequeue(&mut self) -> Option<Packet> {
        let bucket = self.round.pop_front()?;
        let packet = self.buckets[bucket]
            .pop_front()
            .expect("busy buckets hold packets");
        self.occupied -= 1;
        if !self.buckets[bucket].is_empty() {
            self.round.push_back(bucket);
        }
        Some(packet)
    }

    /// Everything waiting, bucket by bucket in service order (the link went down).
    pub fn drain(&mut self) -> Vec<Packet> {
        let mut out = Vec::with_capacity(self.len());
        while let Some(p) = self.dequeue() {
            out.push(p);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::packet::tests::udp_packet;

    fn pkt(uid: u64) -> Packet {
        udp_packet(uid, 1, 500)
    }

    /// ns-2's hash by hand: nodes 0 and 3, k = 3: 3 + 0 + ~0 = 2, bucket 2; nodes 1 and 3,
    /// k = 4: bucket 3; nodes 20 and 40, k = 60: 60 + 0 + ~3 = 56, 56 % 16 = 8.
    #[test]
    fn the_hash_is_ns2s() {
        let q = Sfq::new(SfqConfig::default());
        assert_eq!(q.bucket_of(0, 3), 2);
        assert_eq!(q.bucket_of(1, 3), 3);
        assert_eq!(q.bucket_of(20, 40), 8);
    }

    /// Limit 40, 16 buckets (fair share 2): one bucket alone takes packets while it holds
    /// less than half the room left: after 13 it holds 13 and 27 are left (13 >= 27 >> 1 =
    /// 13): the 14th is refused. Another bucket still takes some.
    #[test]
    fn a_bucket_may_hold_at_most_half_the_room_left() {
        let mut q = Sfq::new(SfqConfig::default());
        let mut taken = 0;
        for uid in 0..20 {
            if q.refuses(2) {
                break;
            }
            q.enqueue(2, pkt(uid));
            taken += 1;
        }
        assert_eq!(taken, 13);
        assert!(!q.refuses(3));
    }

    /// With less room left than buckets, a bucket above its fair share (2) is refused even
    /// when it holds less than half the room left: limit 8, 16 buckets, fair share 0: a
    /// bucket with one packet is refused (left 7 < 16 and 1 > 0).
    #[test]
    fn below_one_packet_per_bucket_only_the_fair_share_is_kept() {
        let mut q = Sfq::new(SfqConfig {
            limit: 8,
            buckets: 16,
        });
        assert!(!q.refuses(5));
        q.enqueue(5, pkt(1));
        assert!(q.refuses(5));
        assert!(!q.refuses(6));
    }

    /// Buckets are served one packet each in turn, a newly busy bucket joining the end of
    /// the round (just before the bucket served next). A holds 1, 2, 3 and B 4, 5: round
    /// [A, B]; 1 leaves, the turn passes to B: [B, A]; C gets 6 and joins: [B, A, C]; then
    /// 4 (B), 2 (A), 6 (C, now idle), 5 (B), 3 (A).
    #[test]
    fn buckets_take_turns_and_a_new_one_joins_the_end_of_the_round() {
        let mut q = Sfq::new(SfqConfig::default());
        let (a, b, c) = (1, 2, 3);
        for uid in [1, 2, 3] {
            q.enqueue(a, pkt(uid));
        }
        for uid in [4, 5] {
            q.enqueue(b, pkt(uid));
        }
        assert_eq!(q.dequeue().unwrap().uid, 1);
        q.enqueue(c, pkt(6));
        let order: Vec<u64> = std::iter::from_fn(|| q.dequeue()).map(|p| p.uid).collect();
        assert_eq!(order, vec![4, 2, 6, 5, 3]);
        assert!(q.is_empty());
    }
}
