//! Drop stages: error models placed at a given point of a wired link direction, counting
//! the packets that reach that point, as ns-2.35's wired error models do.
//!
//! What this module owns: deciding, packet by packet, whether a packet reaching a stage is
//! lost, with the counters of the deterministic models (a list of unit numbers, a periodic
//! pattern) and the draws of the random one, kept per rule.
//!
//! A stage sits at one [`DropPoint`] of a direction: [`DropPoint::Enqueue`] sees every packet
//! handed to the direction, before its queue (ns-2 `$ns lossmodel`, `$link errormodule`: the
//! loss module goes first at the link's head, so a packet it drops is never enqueued and the
//! queue never counts it), [`DropPoint::Arrival`] sees the packets that leave the wire at the
//! far end, after the propagation delay (ns-2 `$ns link-lossmodel`). A stage holds rules; a
//! packet is judged by the first rule whose flows include its flow (no flow list: every
//! packet), and passes when no rule matches. A rule's counter advances only on the packets it
//! judges, so a rule bound to one flow counts that flow's packets only (ns-2's `ErrorModule
//! Fid`, whose hash classifier hands each flow id to its own model).
//!
//! Counting (unit [`DropUnit::Packet`]; [`DropUnit::Byte`] counts bytes instead):
//! - [`RuleModel::List`]: the packets numbered in `drops` are lost, numbering from 0 the
//!   packets the rule judges. In bytes, the next listed number is lost with the packet that
//!   brings the byte count (before it, plus its size) to or past it.
//! - [`RuleModel::Periodic`]: the count grows by one per packet. Before the pattern starts,
//!   the first packet that brings it to `offset` (truncated to an integer) starts it, resets
//!   the count to 0 and is lost; after that a packet that brings it to `period` (truncated)
//!   resets it and is lost, and one that leaves it below `burst` is lost too, so `burst` = b
//!   loses b packets in a row each period. With `default_drop` the sense is reversed: every
//!   packet is lost except the one that starts the pattern and each one that resets the count;
//!   before the start nothing is lost.
//! - [`RuleModel::Iid`]: a packet is lost with probability `rate` (in bytes, 1 − (1 −
//!   rate)^size), one uniform draw per packet judged.
//! - [`RuleModel::Discard`] loses every packet, [`RuleModel::Pass`] none.
//!
//! A rule with a `delay` (ns-2's `delay_pkt_ true` with `delay_`) does not lose the packets
//! its model picks: it holds each of them for the delay and then passes it on, past the
//! stage (ns-2 `ErrorModel::recv` schedules the packet to the model's target, so it is not
//! judged again); the other packets pass at once. This is how ns-2's validation scripts
//! reorder packets.
//!
//! A rule with `mark` (ns-2's `markecn_ true`) does not lose the packets its model picks
//! either: it marks them "congestion experienced" (RFC 3168 §5) and passes them on, to the
//! later stages (ns-2 `ErrorModel::recv` sets the CE bit whether or not the packet is
//! ECN-capable and hands it to its target).
//!
//! Not here: where the stage's drops are traced and counted (the world), and the link's own
//! error model at the end of each transmission ([`crate::channel::ErrorModel`]).

use crate::sim::{RandomStream, SimTime};

/// What a stage does with a packet that reaches it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// It goes on at once.
    Pass,
    /// It is lost.
    Lose,
    /// It is held for this long, then goes on past the stage.
    Delay(SimTime),
    /// It is marked "congestion experienced" and goes on.
    Mark,
}

/// Where on a wired direction a stage judges packets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DropPoint {
    /// Before the queue: every packet handed to the direction.
    Enqueue,
    /// At the far end, after the propagation delay: every packet that left the wire.
    Arrival,
}

/// What a rule counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DropUnit {
    Packet,
    Byte,
}

/// A rule's model and its state.
#[derive(Clone, Debug, PartialEq)]
pub enum RuleModel {
    /// Unit numbers to lose, sorted and distinct; `next` indexes the next one.
    List {
        drops: Vec<u64>,
        next: usize,
    },
    Periodic {
        period: f64,
        offset: f64,
        burst: f64,
        default_drop: bool,
        started: bool,
    },
    Iid {
        rate: f64,
    },
    Discard,
    Pass,
}

impl RuleModel {
    /// A list model, checked: the numbers must be distinct (ns-2 refuses duplicates).
    pub fn list(mut drops: Vec<u64>) -> Result<Self, String> {
        if drops.is_empty() {
            return Err("the drop list is empty".into());
        }
        drops.sort_unstable();
        if let Some(w) = drops.windows(2).find(|w| w[0] == w[1]) {
            return Err(format!("{} is listed twice", w[0]));
        }
        Ok(RuleModel::List { drops, next: 0 })
    }

    /// A periodic model, checked.
    pub fn periodic(
        period: f64,
        offset: f64,
        burst: f64,
        default_drop: bool,
    ) -> Result<Self, String> {
        for (what, v) in [("period", period), ("offset", offset), ("burst", burst)] {
            if !(v.is_finite() && v >= 0.0) {
                return Err(format!("{what} = {v} is not a number >= 0"));
            }
        }
        Ok(RuleModel::Periodic {
            period,
            offset,
            burst,
            default_drop,
            started: false,
        })
    }
}

/// One rule of a stage: which flows it judges, what it counts, its model.
#[derive(Clone, Debug, PartialEq)]
pub struct DropRule {
    /// The flow indices the rule judges; `None`: every packet.
    pub flows: Option<Vec<u32>>,
    pub unit: DropUnit,
    pub model: RuleModel,
    /// Hold the packets the model picks for this long instead of losing them (ns-2
    /// `delay_pkt_` with `delay_`).
    pub delay: Option<SimTime>,
    /// Mark the packets the model picks instead of losing them (ns-2 `markecn_`).
    pub mark: bool,
    /// Units counted so far (packets or bytes, as the model counts them).
    count: u64,
}

impl DropRule {
    pub fn new(flows: Option<Vec<u32>>, unit: DropUnit, model: RuleModel) -> Self {
        DropRule {
            flows,
            unit,
            model,
            delay: None,
            mark: false,
            count: 0,
        }
    }

    /// The same rule, marking the packets its model picks "congestion experienced" instead
    /// of losing them.
    pub fn marking(mut self) -> Self {
        self.mark = true;
        self
    }

    /// The same rule, holding the packets its model picks for `delay` instead of losing
    /// them.
    pub fn delaying(mut self, delay: SimTime) -> Self {
        self.delay = Some(delay);
        self
    }

    fn matches(&self, flow: Option<u32>) -> bool {
        match &self.flows {
            None => true,
            Some(list) => flow.is_some_and(|f| list.contains(&f)),
        }
    }

    /// Whether the packet of `size` bytes this rule judges is lost; advances its state.
    fn judge(&mut self, size: u32, rng: &mut RandomStream) -> bool {
        let units = match self.unit {
            DropUnit::Packet => 1,
            DropUnit::Byte => u64::from(size),
        };
        match &mut self.model {
            RuleModel::List { drops, next } => {
                let lost = match (drops.get(*next), self.unit) {
                    (Some(&k), DropUnit::Packet) => k == self.count,
                    (Some(&k), DropUnit::Byte) => self.count + units >= k,
                    (None, _) => false,
                };
                if lost {
                    *next += 1;
                }
                self.count += units;
                lost
            }
            RuleModel::Periodic {
                period,
                offset,
                burst,
                default_drop,
                started,
            } => {
                self.count += units;
                // The thresholds are compared as integers (truncated), the burst as a number.
                let threshold = if *started { *period } else { *offset };
                if self.count as f64 >= threshold.trunc() {
                    *started = true;
                    self.count = 0;
                    return !*default_drop;
                }
                if !*started {
                    return false;
                }
                if *default_drop {
                    true
                } else {
                    (self.count as f64) < *burst
                }
            }
            RuleModel::Iid { rate } => {
                let p = match self.unit {
                    DropUnit::Packet => *rate,
                    DropUnit::Byte => 1.0 - (1.0 - *rate).powf(units as f64),
                };
                rng.uniform() < p
            }
            RuleModel::Discard => true,
            RuleModel::Pass => false,
        }
    }
}

/// A stage: its point on the direction, whether its drops are traced, its rules and the
/// stream its random rules draw from.
#[derive(Clone, Debug)]
pub struct DropStage {
    pub point: DropPoint,
    /// Whether a packet it loses is written to the packet trace (ns-2: the loss module's drop
    /// target is the link's drop trace; a script may point it elsewhere, e.g. a null agent).
    pub traced: bool,
    pub rules: Vec<DropRule>,
    rng: RandomStream,
    /// Packets this stage lost.
    pub drops: u64,
    /// Packets this stage held back (rules with a delay).
    pub delayed: u64,
    /// Packets this stage marked (rules with `mark`).
    pub marked: u64,
}

impl DropStage {
    pub fn new(point: DropPoint, traced: bool, rules: Vec<DropRule>, rng: RandomStream) -> Self {
        DropStage {
            point,
            traced,
            rules,
            rng,
            drops: 0,
            delayed: 0,
            marked: 0,
        }
    }

    /// What happens to a packet of flow `flow` and `size` bytes reaching the stage.
    pub fn judge(&mut self, flow: Option<u32>, size: u32) -> Verdict {
        let Some(rule) = self.rules.iter_mut().find(|r| r.matches(flow)) else {
            return Verdict::Pass;
        };
        if !rule.judge(size, &mut self.rng) {
            return Verdict::Pass;
        }
        if rule.mark {
            self.marked += 1;
            return Verdict::Mark;
        }
        match rule.delay {
            Some(d) => {
                self.delayed += 1;
                Verdict::Delay(d)
            }
            None => {
                self.drops += 1;
                Verdict::Lose
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stage(rules: Vec<DropRule>) -> DropStage {
        DropStage::new(DropPoint::Enqueue, true, rules, RandomStream::named(1, "t"))
    }

    fn lost(s: &mut DropStage, packets: &[(Option<u32>, u32)]) -> Vec<usize> {
        packets
            .iter()
            .enumerate()
            .filter(|(_, &(f, size))| s.judge(f, size) == Verdict::Lose)
            .map(|(i, _)| i)
            .collect()
    }

    fn packets(n: usize) -> Vec<(Option<u32>, u32)> {
        vec![(Some(0), 1000); n]
    }

    #[test]
    fn a_list_loses_the_listed_packets_counting_from_zero() {
        // droplist {7 3}: of packets 0..9, exactly packets 3 and 7 are lost.
        let m = RuleModel::list(vec![7, 3]).unwrap();
        let mut s = stage(vec![DropRule::new(None, DropUnit::Packet, m)]);
        assert_eq!(lost(&mut s, &packets(10)), vec![3, 7]);
        assert_eq!(s.drops, 2);
    }

    #[test]
    fn a_marking_periodic_rule_marks_the_packets_it_picks_and_loses_none() {
        // ns-2 `ErrorModel/Periodic` with `offset_ 3`, `period_ 4`, `markecn_ true`: the
        // 3rd packet (index 2) starts the pattern, then every 4th (6, 10): marked, not lost.
        let m = RuleModel::periodic(4.0, 3.0, 0.0, false).unwrap();
        let mut s = stage(vec![
            DropRule::new(Some(vec![0]), DropUnit::Packet, m).marking()
        ]);
        let verdicts: Vec<_> = packets(12).iter().map(|&(f, n)| s.judge(f, n)).collect();
        let marked: Vec<_> = (0..12).filter(|&i| verdicts[i] == Verdict::Mark).collect();
        assert_eq!(marked, vec![2, 6, 10]);
        assert!(verdicts.iter().all(|v| *v != Verdict::Lose));
        assert_eq!((s.marked, s.drops), (3, 0));
    }

    #[test]
    fn a_delaying_list_holds_the_listed_packets_and_loses_none() {
        // ns-2 `delay_pkt_ true`, `delay_ 0.05`, droplist {1 3}: packets 1 and 3 are held
        // 50 ms, the others pass at once, nothing is lost.
        let m = RuleModel::list(vec![1, 3]).unwrap();
        let rule = DropRule::new(None, DropUnit::Packet, m).delaying(SimTime::from_millis(50));
        let mut s = stage(vec![rule]);
        let verdicts: Vec<Verdict> = (0..5).map(|_| s.judge(Some(0), 1000)).collect();
        let held = Verdict::Delay(SimTime::from_millis(50));
        assert_eq!(
            verdicts,
            [Verdict::Pass, held, Verdict::Pass, held, Verdict::Pass]
        );
        assert_eq!((s.drops, s.delayed), (0, 2));
    }

    #[test]
    fn a_list_refuses_duplicates_and_emptiness() {
        assert_eq!(
            RuleModel::list(vec![3, 1, 3]).unwrap_err(),
            "3 is listed twice"
        );
        assert!(RuleModel::list(vec![]).is_err());
    }

    #[test]
    fn a_list_in_bytes_loses_the_packet_reaching_each_number() {
        // Packets of 500 bytes: counts before each are 0, 500, 1000, 1500. Byte 700 is
        // reached by packet 1 (500 + 500 >= 700), byte 1000 by packet 1 as well but one
        // number is consumed per packet, so packet 2 (1000 + 500 >= 1000) takes it.
        let m = RuleModel::list(vec![700, 1000]).unwrap();
        let mut s = stage(vec![DropRule::new(None, DropUnit::Byte, m)]);
        assert_eq!(lost(&mut s, &[(None, 500); 4]), vec![1, 2]);
    }

    #[test]
    fn a_rule_bound_to_a_flow_counts_only_that_flow() {
        // Flow 1's packets are its own 0, 1, 2, ...: list {1} loses flow 1's second packet,
        // which is the fourth packet overall; flow 0 passes through (no rule matches it).
        let m = RuleModel::list(vec![1]).unwrap();
        let mut s = stage(vec![DropRule::new(Some(vec![1]), DropUnit::Packet, m)]);
        let seq = [
            (Some(0), 1000),
            (Some(1), 1000),
            (Some(0), 1000),
            (Some(1), 1000),
            (Some(1), 1000),
        ];
        assert_eq!(lost(&mut s, &seq), vec![3]);
    }

    #[test]
    fn the_first_matching_rule_decides_and_discard_takes_the_rest() {
        let keep = DropRule::new(Some(vec![1]), DropUnit::Packet, RuleModel::Pass);
        let rest = DropRule::new(None, DropUnit::Packet, RuleModel::Discard);
        let mut s = stage(vec![keep, rest]);
        let seq = [(Some(0), 40), (Some(1), 40), (None, 40)];
        assert_eq!(lost(&mut s, &seq), vec![0, 2]);
    }

    #[test]
    fn periodic_defaults_lose_every_packet() {
        // period 1, offset 0: the first packet starts the pattern (lost), then every packet
        // brings the count to 1 >= 1 (lost).
        let m = RuleModel::periodic(1.0, 0.0, 0.0, false).unwrap();
        let mut s = stage(vec![DropRule::new(None, DropUnit::Packet, m)]);
        assert_eq!(lost(&mut s, &packets(4)), vec![0, 1, 2, 3]);
    }

    #[test]
    fn periodic_offset_period_and_burst() {
        // offset 3: counts 1, 2, 3 -> packet 2 starts the pattern (lost), count 0.
        // period 4: packets 3, 4, 5 count 1, 2, 3 (kept), packet 6 counts 4 (lost), and so on:
        // lost 2, 6, 10.
        let m = RuleModel::periodic(4.0, 3.0, 0.0, false).unwrap();
        let mut s = stage(vec![DropRule::new(None, DropUnit::Packet, m)]);
        assert_eq!(lost(&mut s, &packets(12)), vec![2, 6, 10]);
        // burst 2 adds the packet after each period drop (count 1 < 2): 2, 3, 6, 7, 10, 11.
        // The packet after the start counts 1 as well.
        let m = RuleModel::periodic(4.0, 3.0, 2.0, false).unwrap();
        let mut s = stage(vec![DropRule::new(None, DropUnit::Packet, m)]);
        assert_eq!(lost(&mut s, &packets(12)), vec![2, 3, 6, 7, 10, 11]);
        // A fractional period is truncated: 4.9 acts as 4.
        let m = RuleModel::periodic(4.9, 3.0, 0.0, false).unwrap();
        let mut s = stage(vec![DropRule::new(None, DropUnit::Packet, m)]);
        assert_eq!(lost(&mut s, &packets(12)), vec![2, 6, 10]);
    }

    #[test]
    fn periodic_default_drop_keeps_one_packet_per_period() {
        // Before the start (offset 2) nothing is lost: packet 0 (count 1) kept, packet 1
        // (count 2) starts and is kept; then counts 1, 2 lost and 3 (= period) kept.
        let m = RuleModel::periodic(3.0, 2.0, 0.0, true).unwrap();
        let mut s = stage(vec![DropRule::new(None, DropUnit::Packet, m)]);
        assert_eq!(lost(&mut s, &packets(8)), vec![2, 3, 5, 6]);
    }

    #[test]
    fn periodic_in_bytes_counts_sizes() {
        // offset 1000 bytes, period 3000: 1000-byte packets: packet 0 reaches 1000 (start,
        // lost); packets 1, 2 count 1000, 2000; packet 3 reaches 3000 (lost).
        let m = RuleModel::periodic(3000.0, 1000.0, 0.0, false).unwrap();
        let mut s = stage(vec![DropRule::new(None, DropUnit::Byte, m)]);
        assert_eq!(lost(&mut s, &packets(7)), vec![0, 3, 6]);
    }

    #[test]
    fn iid_extremes_and_rate() {
        let mut s = stage(vec![DropRule::new(
            None,
            DropUnit::Packet,
            RuleModel::Iid { rate: 1.0 },
        )]);
        assert_eq!(lost(&mut s, &packets(3)), vec![0, 1, 2]);
        let mut s = stage(vec![DropRule::new(
            None,
            DropUnit::Packet,
            RuleModel::Iid { rate: 0.0 },
        )]);
        assert!(lost(&mut s, &packets(100)).is_empty());
        // 0.1 per packet over 100,000 packets: SE 0.00095, within 5 SE.
        let mut s = stage(vec![DropRule::new(
            None,
            DropUnit::Packet,
            RuleModel::Iid { rate: 0.1 },
        )]);
        let n = lost(&mut s, &packets(100_000)).len() as f64 / 1e5;
        assert!((n - 0.1).abs() < 5.0 * 0.00095, "{n}");
        // In bytes: 1 - (1 - 1e-4)^1000 = 0.0952 per 1000-byte packet.
        let mut s = stage(vec![DropRule::new(
            None,
            DropUnit::Byte,
            RuleModel::Iid { rate: 1e-4 },
        )]);
        let n = lost(&mut s, &packets(100_000)).len() as f64 / 1e5;
        let p = 1.0 - (1.0f64 - 1e-4).powi(1000);
        assert!(
            (n - p).abs() < 5.0 * (p * (1.0 - p) / 1e5).sqrt(),
            "{n} vs {p}"
        );
    }
}
