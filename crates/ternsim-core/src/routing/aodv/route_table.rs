//! The AODV route table (RFC 3561 §6.1-6.2, ns-2 `aodv_rtable`): one entry per destination,
//! valid or not, with the discovery state ns-2 keeps on the same entry.

use crate::net::addr::{Addr, IfaceId};
use crate::sim::SimTime;
use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};

/// `a` is fresher than `b` under 32-bit rollover (RFC 3561 §6.1: signed difference).
pub fn seq_newer(a: u32, b: u32) -> bool {
    (a.wrapping_sub(b) as i32) > 0
}

/// The lifetime an intermediate node puts in its reply for a route that expires at
/// `expire`, as ns-2.35's `recvRequest` computes it: `(u_int32_t)(rt_expire - now)`, the
/// remaining seconds truncated towards zero to a whole number (a route with 9.8 s left is
/// offered for 9 s, one with 0.4 s left for 0 s). A route in repair has `rt_expire` 0
/// (`sendRequest` clears it), so the difference is negative; on the x86-64 machines ns-2
/// runs on the conversion goes through a 64-bit signed integer and keeps its low 32 bits,
/// so −78.009 s becomes 2^32 − 78 = 4294967218 s (ns-2's trace prints that lifetime).
pub fn ns2_reply_lifetime(expire: SimTime, now: SimTime) -> SimTime {
    let diff_ns = i128::from(expire.as_nanos()) - i128::from(now.as_nanos());
    let whole_secs = (diff_ns / 1_000_000_000) as i64; // truncates towards zero, as C does
    let wrapped = whole_secs as u32; // the low 32 bits
    SimTime::from_nanos(u64::from(wrapped) * 1_000_000_000)
}

/// State of an entry (ns-2 `RTF_UP`, `RTF_DOWN`, `RTF_IN_REPAIR`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RouteState {
    Valid,
    Invalid,
    InRepair,
}

/// ns-2 AODV's infinite hop count (`INFINITY2`, 0xff): the hop count of an entry that has
/// no route and never had one.
pub const INFINITY2: u8 = 0xff;

#[derive(Clone, Debug, PartialEq)]
pub struct RouteEntry {
    pub dst: Addr,
    /// Destination sequence number (0 = unknown).
    pub seq: u32,
    pub state: RouteState,
    pub hops: u8,
    pub next_hop: Addr,
    pub iface: Option<IfaceId>,
    /// A valid route is invalidated at the first purge tick after this time (ns-2
    /// `rt_purge`: `rt_expire < now`).
    pub expire: SimTime,
    /// Neighbours that forward to `dst` through this node (RFC 3561 §2).
    pub precursors: Vec<Addr>,
    /// Hop count the route had when it was last invalidated (ns-2 `rt_last_hop_count`).
    pub last_hops: u8,
    // Discovery state (ns-2 `rt_req_*`).
    /// TTL of the last RREQ for this destination (0: none since the last route).
    pub req_last_ttl: u8,
    /// Network-wide RREQs sent since the last route.
    pub req_count: u32,
    /// No new RREQ before this time.
    pub req_timeout: SimTime,
    /// Measured discovery latency per hop of the last (≤ 3) discoveries.
    pub latency: Vec<SimTime>,
}

impl RouteEntry {
    /// A fresh entry, as ns-2's `aodv_rt_entry` constructor makes it: no route, and both
    /// hop counts infinite (`INFINITY2`). The infinite `rt_last_hop_count` is what makes
    /// ns-2.35's first request for a destination network-wide: `sendRequest` takes
    /// max(last TTL 0, last hop count 255) as the ring to grow, which is past
    /// `TTL_THRESHOLD`, so the expanding ring search only starts after a route was known.
    pub fn new(dst: Addr) -> Self {
        RouteEntry {
            dst,
            seq: 0,
            state: RouteState::Invalid,
            hops: INFINITY2,
            next_hop: Addr::BROADCAST,
            iface: None,
            expire: SimTime::ZERO,
            precursors: Vec::new(),
            last_hops: INFINITY2,
            req_last_ttl: 0,
            req_count: 0,
            req_timeout: SimTime::ZERO,
            latency: Vec::new(),
        }
    }

    pub fn is_valid(&self) -> bool {
        self.state == RouteState::Valid
    }

    /// Whether the entry has a hop count, as ns-2's `rt_hops != INFINITY2` tests it: a route
    /// that is up or in repair (`local_rt_repair` keeps the hop count and the next hop;
    /// only `rt_down` makes them infinite and none).
    pub fn has_hops(&self) -> bool {
        self.state != RouteState::Invalid
    }

    pub fn add_precursor(&mut self, a: Addr) {
        if !self.precursors.contains(&a) {
            self.precursors.push(a);
        }
    }

    /// Invalidates the route (ns-2 `rt_down`): hop count remembered, next hop forgotten.
    pub fn down(&mut self) {
        if self.state == RouteState::Invalid {
            return;
        }
        self.last_hops = self.hops;
        self.state = RouteState::Invalid;
        self.next_hop = Addr::BROADCAST;
        self.expire = SimTime::ZERO;
    }

    /// Installs a valid route (ns-2 `rt_update`). Only through [`RouteTable::set_route`],
    /// which keeps the table's expiry index.
    fn set(&mut self, seq: u32, hops: u8, next_hop: Addr, iface: Option<IfaceId>, expire: SimTime) {
        self.seq = seq;
        self.hops = hops;
        self.next_hop = next_hop;
        self.iface = iface;
        self.expire = expire;
        self.state = RouteState::Valid;
    }

    /// Whether an offer of (`seq`, `hops`) replaces this entry: a fresher sequence number,
    /// or an equal one with fewer hops, or this entry invalid and the number not older.
    pub fn replaced_by(&self, seq: u32, hops: u8) -> bool {
        // ns-2 `recvReply`: `rt_seqno < seq || (rt_seqno == seq && rt_hops > hops)`; an
        // invalidated route has infinite hops, one in repair keeps its own.
        let live = self.state != RouteState::Invalid;
        seq_newer(seq, self.seq) || (seq == self.seq && (!live || hops < self.hops))
    }
}

/// The routes by destination.
///
/// Expiry index: `expiries` is a min-heap of (time, destination) items such that every
/// valid entry has an item no later than its expiry (a lower bound), the one recorded in
/// its slot's `indexed_at`. An entry becomes valid only through [`RouteTable::set_route`],
/// which adds an item when the entry has none at or before its new expiry; the other
/// changes to a valid entry's expiry only extend it (`forward`, a request's reverse route),
/// which keeps the bound; an entry taken out of service (`down`, in repair) no longer counts.
/// So [`RouteTable::expire_routes`], called on every packet for the last purge tick, finds
/// every route that expired before the tick among the items before it, and only looks at
/// those: its cost does not grow with the table (which holds a route to every originator
/// of a request the node heard, hundreds in a large network).
#[derive(Clone, Debug)]
pub struct RouteTable {
    entries: BTreeMap<Addr, Slot>,
    expiries: BinaryHeap<Reverse<(SimTime, Addr)>>,
    /// The earliest item's time (`SimTime::MAX` with none), kept beside the heap: the
    /// check on every packet then reads the table itself, not the heap's storage, which in
    /// a large network is rarely in cache.
    floor: SimTime,
}

impl Default for RouteTable {
    fn default() -> Self {
        RouteTable {
            entries: BTreeMap::new(),
            expiries: BinaryHeap::new(),
            floor: SimTime::MAX,
        }
    }
}

#[derive(Clone, Debug)]
struct Slot {
    route: RouteEntry,
    /// The time of this entry's current item in the expiry index, if it has one; items of
    /// the entry at other times are stale and dropped when they come up.
    indexed_at: Option<SimTime>,
}

impl RouteTable {
    /// Installs a valid route to `dst` (ns-2 `rt_update`) and returns its entry.
    pub fn set_route(
        &mut self,
        dst: Addr,
        seq: u32,
        hops: u8,
        next_hop: Addr,
        iface: Option<IfaceId>,
        expire: SimTime,
    ) -> &mut RouteEntry {
        let slot = self.slot(dst);
        if slot.indexed_at.is_none_or(|t| t > expire) {
            slot.indexed_at = Some(expire);
            self.expiries.push(Reverse((expire, dst)));
            self.floor = self.floor.min(expire);
        }
        let e = &mut self.slot(dst).route;
        e.set(seq, hops, next_hop, iface, expire);
        e
    }

    /// Invalidates, as ns-2's `rt_purge` does at the purge tick `tick`, every valid route
    /// whose lifetime ended before the tick (`rt_expire < now`), its sequence number
    /// incremented. Only the index's items before the tick are looked at: an entry that
    /// is still valid and has not expired (its lifetime was extended) gets an item at its
    /// expiry instead; a stale item, or one of an entry no longer valid, is dropped.
    pub fn expire_routes(&mut self, tick: SimTime) {
        if tick <= self.floor {
            return;
        }
        while let Some(&Reverse((at, dst))) = self.expiries.peek() {
            if at >= tick {
                break;
            }
            self.expiries.pop();
            let Some(slot) = self.entries.get_mut(&dst) else {
                continue;
            };
            if slot.indexed_at != Some(at) {
                continue; // superseded by an earlier item of the same entry
            }
            slot.indexed_at = None;
            let e = &mut slot.route;
            if !e.is_valid() {
                continue; // `set_route` indexes it again when it comes back
            }
            if e.expire < tick {
                e.seq = e.seq.wrapping_add(1);
                e.down();
            } else {
                slot.indexed_at = Some(e.expire);
                self.expiries.push(Reverse((e.expire, dst)));
            }
        }
        self.floor = self.expiries.peek().map_or(SimTime::MAX, |r| r.0 .0);
    }

    fn slot(&mut self, dst: Addr) -> &mut Slot {
        self.entries.entry(dst).or_insert_with(|| Slot {
            route: RouteEntry::new(dst),
            indexed_at: None,
        })
    }

    pub fn get(&self, dst: Addr) -> Option<&RouteEntry> {
        self.entries.get(&dst).map(|s| &s.route)
    }

    pub fn get_mut(&mut self, dst: Addr) -> Option<&mut RouteEntry> {
        self.entries.get_mut(&dst).map(|s| &mut s.route)
    }

    pub fn entry(&mut self, dst: Addr) -> &mut RouteEntry {
        &mut self.slot(dst).route
    }

    /// The valid route to `dst`, if any.
    pub fn valid(&self, dst: Addr) -> Option<&RouteEntry> {
        self.get(dst).filter(|e| e.is_valid())
    }

    pub fn iter(&self) -> impl Iterator<Item = &RouteEntry> {
        self.entries.values().map(|s| &s.route)
    }

    pub fn iter_mut(&mut self) -> impl Iterator<Item = &mut RouteEntry> {
        self.entries.values_mut().map(|s| &mut s.route)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(secs: u64) -> SimTime {
        SimTime::from_millis(secs * 1000)
    }

    fn state_and_seq(t: &RouteTable, dst: u32) -> (RouteState, u32) {
        let e = t.get(Addr(dst)).expect("entry");
        (e.state, e.seq)
    }

    /// Routes expire at the first tick after their lifetime (`rt_expire < now`), each with
    /// its sequence number incremented; a tick equal to the lifetime leaves the route up.
    #[test]
    fn a_route_expires_at_the_first_tick_after_its_lifetime() {
        let mut t = RouteTable::default();
        t.set_route(Addr(1), 10, 1, Addr(1), None, s(3));
        t.set_route(Addr(2), 20, 2, Addr(1), None, s(5));
        t.expire_routes(s(3));
        assert_eq!(state_and_seq(&t, 1), (RouteState::Valid, 10));
        t.expire_routes(s(4));
        assert_eq!(state_and_seq(&t, 1), (RouteState::Invalid, 11));
        assert_eq!(state_and_seq(&t, 2), (RouteState::Valid, 20));
        t.expire_routes(s(6));
        assert_eq!(state_and_seq(&t, 2), (RouteState::Invalid, 21));
        // Nothing left to expire, and nothing expires twice.
        assert!(t.expiries.is_empty());
        t.expire_routes(s(100));
        assert_eq!(state_and_seq(&t, 1), (RouteState::Invalid, 11));
    }

    /// A lifetime extended in place (as forwarding does) keeps the route up past its
    /// first expiry; the index item moves to the new expiry.
    #[test]
    fn an_extended_lifetime_is_found_at_its_new_expiry() {
        let mut t = RouteTable::default();
        t.set_route(Addr(1), 10, 1, Addr(1), None, s(3));
        t.get_mut(Addr(1)).unwrap().expire = s(8);
        t.expire_routes(s(4));
        assert_eq!(state_and_seq(&t, 1), (RouteState::Valid, 10));
        assert_eq!(t.expiries.peek(), Some(&Reverse((s(8), Addr(1)))));
        t.expire_routes(s(8));
        assert_eq!(state_and_seq(&t, 1), (RouteState::Valid, 10));
        t.expire_routes(s(9));
        assert_eq!(state_and_seq(&t, 1), (RouteState::Invalid, 11));
    }

    /// A route installed again with a shorter lifetime expires at the shorter one (the
    /// earlier item stands for it, the later one is dropped as stale); installed again with
    /// a longer one it needs no new item.
    #[test]
    fn a_shorter_reinstall_expires_first_and_a_longer_one_adds_no_item() {
        let mut t = RouteTable::default();
        t.set_route(Addr(1), 10, 1, Addr(1), None, s(9));
        t.set_route(Addr(1), 12, 1, Addr(1), None, s(2));
        assert_eq!(t.expiries.len(), 2);
        t.expire_routes(s(3));
        assert_eq!(state_and_seq(&t, 1), (RouteState::Invalid, 13));
        t.set_route(Addr(1), 14, 1, Addr(1), None, s(6));
        t.set_route(Addr(1), 16, 1, Addr(1), None, s(7));
        // The stale item at 9 s and the one at 6 s; the reinstall at 7 s added none.
        assert_eq!(t.expiries.len(), 2);
        t.expire_routes(s(7));
        assert_eq!(state_and_seq(&t, 1), (RouteState::Valid, 16));
        t.expire_routes(s(8));
        assert_eq!(state_and_seq(&t, 1), (RouteState::Invalid, 17));
        t.expire_routes(s(10));
        assert_eq!(state_and_seq(&t, 1), (RouteState::Invalid, 17));
        assert!(t.expiries.is_empty());
    }

    /// A route taken down (link break) or put in repair before its lifetime ends does not
    /// expire again; brought back by `set_route`, it expires on its new lifetime.
    #[test]
    fn routes_out_of_service_are_skipped_until_installed_again() {
        let mut t = RouteTable::default();
        t.set_route(Addr(1), 10, 1, Addr(1), None, s(3));
        t.set_route(Addr(2), 20, 1, Addr(2), None, s(3));
        t.get_mut(Addr(1)).unwrap().down();
        t.get_mut(Addr(2)).unwrap().state = RouteState::InRepair;
        t.expire_routes(s(4));
        assert_eq!(state_and_seq(&t, 1), (RouteState::Invalid, 10));
        assert_eq!(state_and_seq(&t, 2), (RouteState::InRepair, 20));
        t.set_route(Addr(2), 22, 1, Addr(2), None, s(5));
        t.expire_routes(s(5));
        assert_eq!(state_and_seq(&t, 2), (RouteState::Valid, 22));
        t.expire_routes(s(6));
        assert_eq!(state_and_seq(&t, 2), (RouteState::Invalid, 23));
    }
}
