//! The DSDV route table (ns-2 `dsdv/rtable.{cc,h}`, manet-spec §1.2): one entry per
//! destination, kept in ascending destination order because every update lists its routes
//! in that order.

use crate::net::addr::{Addr, IfaceId};
use crate::net::packet::Packet;
use crate::sim::SimTime;
use std::collections::{BTreeMap, VecDeque};

/// The infinite metric: the destination is unreachable (ns-2 `BIG` 250).
pub const BIG: u8 = 250;

/// A timer of the agent: when it fires, and its place among timers due at the same instant
/// (ns-2's scheduler runs simultaneous events in the order they were scheduled).
pub type Timer = Option<(SimTime, u64)>;

#[derive(Clone, Debug, PartialEq)]
pub struct RouteEntry {
    pub dst: Addr,
    /// The neighbour the route was learned from (the destination itself at one hop).
    pub next_hop: Addr,
    pub iface: Option<IfaceId>,
    /// Hops to the destination; [`BIG`] when it is unreachable.
    pub metric: u8,
    /// The destination's sequence number as last heard (odd: a break, §1.3).
    pub seq: u32,
    /// The route may not be listed in an update before this time (the settling delay).
    pub advertise_ok_at: SimTime,
    /// A new sequence number waits to be advertised.
    pub advert_seqnum: bool,
    /// A metric change waits to be advertised (kept set through triggered updates, cleared
    /// by a full dump: ns-2 repeats a metric change until then).
    pub advert_metric: bool,
    /// The metric this node last put in an update for this destination.
    pub last_advertised_metric: u8,
    /// When the route was last (re)installed from an update.
    pub changed_at: SimTime,
    /// When the current sequence number was first heard.
    pub new_seqnum_at: SimTime,
    /// Weighted settling time, seconds (Perkins & Bhagwat §4.6; ns-2 `wst`).
    pub wst: f64,
    /// The entry's pending triggered update (ns-2 `trigger_event`).
    pub trigger: Timer,
    /// On a neighbour's entry: when the routes through it break unless it is heard again.
    pub timeout: Timer,
    /// Packets waiting for the route to become usable, oldest first.
    pub queue: VecDeque<Packet>,
}

impl RouteEntry {
    /// An entry with ns-2's zeroed fields (`bzero`) for `dst`.
    pub fn new(dst: Addr) -> Self {
        RouteEntry {
            dst,
            next_hop: dst,
            iface: None,
            metric: 0,
            seq: 0,
            advertise_ok_at: SimTime::ZERO,
            advert_seqnum: false,
            advert_metric: false,
            last_advertised_metric: 0,
            changed_at: SimTime::ZERO,
            new_seqnum_at: SimTime::ZERO,
            wst: 0.0,
            trigger: None,
            timeout: None,
            queue: VecDeque::new(),
        }
    }

    /// A route packets can be sent on.
    pub fn is_usable(&self) -> bool {
        self.metric != BIG
    }

    /// The neighbour a packet for this destination goes to: the destination itself at one
    /// hop, else the entry's next hop (ns-2 `forwardPacket`'s `send:`).
    pub fn hop(&self) -> Addr {
        if self.metric > 1 {
            self.next_hop
        } else {
            self.dst
        }
    }

    /// Whether the next update may list it as a change (ns-2 `makeUpdate`'s count).
    pub fn has_change_to_advertise(&self, now: SimTime) -> bool {
        (self.advert_seqnum || self.advert_metric) && self.advertise_ok_at <= now
    }

    /// The route breaks (ns-2 timeout in `helper_callback`): unreachable, the sequence number
    /// made odd, advertisable at once with both flags set. `changed_at` is left alone, so the
    /// settling time does not count the infinite metric as the best of that number.
    pub fn break_route(&mut self, now: SimTime) {
        self.metric = BIG;
        self.seq = self.seq.wrapping_add(1);
        self.advertise_ok_at = now;
        self.advert_seqnum = true;
        self.advert_metric = true;
    }
}

/// How a heard route (destination, metric, sequence number) compares with the entry held
/// for that destination (manet-spec §1.6 step 5; ns-2 `processUpdate`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// No entry: install it (even unreachable).
    New,
    /// Same sequence number, fewer hops: install (standard distance vector).
    Shorter,
    /// Same sequence number, not fewer hops: ignore.
    NotShorter,
    /// A fresher sequence number: always believed, whatever the metric.
    Fresher,
    /// An older sequence number saying the destination is unreachable while this node has
    /// a route: tell the neighbour at once ("educate" it).
    StaleBroken,
    /// An older sequence number otherwise: ignore.
    Stale,
}

/// ns-2 compares sequence numbers with a plain `<` (no wrap-around, manet-spec §1.2).
pub fn judge(held: Option<&RouteEntry>, metric: u8, seq: u32) -> Verdict {
    let Some(e) = held else {
        return Verdict::New;
    };
    if seq == e.seq {
        if metric < e.metric {
            Verdict::Shorter
        } else {
            Verdict::NotShorter
        }
    } else if seq > e.seq {
        Verdict::Fresher
    } else if metric == BIG && e.metric != BIG {
        Verdict::StaleBroken
    } else {
        Verdict::Stale
    }
}

#[derive(Clone, Debug, Default)]
pub struct RouteTable {
    entries: BTreeMap<Addr, RouteEntry>,
}

impl RouteTable {
    pub fn get(&self, dst: Addr) -> Option<&RouteEntry> {
        self.entries.get(&dst)
    }

    pub fn get_mut(&mut self, dst: Addr) -> Option<&mut RouteEntry> {
        self.entries.get_mut(&dst)
    }

    pub fn insert(&mut self, e: RouteEntry) {
        self.entries.insert(e.dst, e);
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The usable route to `dst`, if any.
    pub fn usable(&self, dst: Addr) -> Option<&RouteEntry> {
        self.entries.get(&dst).filter(|e| e.is_usable())
    }

    /// Entries in ascending destination order.
    pub fn iter(&self) -> impl Iterator<Item = &RouteEntry> {
        self.entries.values()
    }

    pub fn iter_mut(&mut self) -> impl Iterator<Item = &mut RouteEntry> {
        self.entries.values_mut()
    }
}
