//! The AODV route table (RFC 3561 §6.1-6.2, ns-2 `aodv_rtable`): one entry per destination,
//! valid or not, with the discovery state ns-2 keeps on the same entry.

use crate::net::addr::{Addr, IfaceId};
use crate::sim::SimTime;
use std::collections::BTreeMap;

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
    /// which keeps the table's expiry floor.
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
/// Invariant: no valid entry expires before `floor`. An entry becomes valid only through
/// [`RouteTable::set_route`], which lowers the floor to the new expiry when needed; the
/// other changes to a valid entry's expiry only extend it (`forward`), and an entry taken out
/// of service (`down`, in repair) no longer counts. So [`RouteTable::expire_routes`], called
/// on every packet for the last purge tick, need not scan the table up to `floor`.
#[derive(Clone, Debug)]
pub struct RouteTable {
    entries: BTreeMap<Addr, RouteEntry>,
    floor: SimTime,
}

impl Default for RouteTable {
    fn default() -> Self {
        RouteTable {
            entries: BTreeMap::new(),
            floor: SimTime::MAX,
        }
    }
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
        self.floor = self.floor.min(expire);
        let e = self.entry(dst);
        e.set(seq, hops, next_hop, iface, expire);
        e
    }

    /// Invalidates, as ns-2's `rt_purge` does at the purge tick `tick`, every valid route
    /// whose lifetime ended before the tick (`rt_expire < now`), its sequence number
    /// incremented. Nothing can expire before the floor, so the table is scanned only past
    /// it, and the floor is raised to the earliest expiry still valid.
    pub fn expire_routes(&mut self, tick: SimTime) {
        if tick <= self.floor {
            return;
        }
        let mut floor = SimTime::MAX;
        for e in self.entries.values_mut() {
            if !e.is_valid() {
                continue;
            }
            if e.expire < tick {
                e.seq = e.seq.wrapping_add(1);
                e.down();
            } else {
                floor = floor.min(e.expire);
            }
        }
        self.floor = floor;
    }

    pub fn get(&self, dst: Addr) -> Option<&RouteEntry> {
        self.entries.get(&dst)
    }

    pub fn get_mut(&mut self, dst: Addr) -> Option<&mut RouteEntry> {
        self.entries.get_mut(&dst)
    }

    pub fn entry(&mut self, dst: Addr) -> &mut RouteEntry {
        self.entries
            .entry(dst)
            .or_insert_with(|| RouteEntry::new(dst))
    }

    /// The valid route to `dst`, if any.
    pub fn valid(&self, dst: Addr) -> Option<&RouteEntry> {
        self.entries.get(&dst).filter(|e| e.is_valid())
    }

    pub fn iter(&self) -> impl Iterator<Item = &RouteEntry> {
        self.entries.values()
    }

    pub fn iter_mut(&mut self) -> impl Iterator<Item = &mut RouteEntry> {
        self.entries.values_mut()
    }
}
