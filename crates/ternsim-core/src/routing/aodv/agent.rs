//! The AODV agent of one node: discovery with expanding ring search, RREQ/RREP/RERR
//! processing, forwarding and link-break handling as ns-2's `AODV` agent does (link-spec
//! §5.2).
//!
//! Sends decided inside `route_output` / `route_input` (which return a single [`Routed`]),
//! jittered broadcasts and spaced releases of buffered packets wait in a small queue
//! ordered by (time, insertion) and leave through `on_timer`; those due at `now` make
//! [`AodvAgent::next_timer`] return `now`.

use super::queue::RouteQueue;
use super::route_table::{ns2_reply_lifetime, seq_newer, RouteState, RouteTable};
use super::AodvConfig;
use crate::net::addr::{Addr, IfaceId};
use crate::net::control::ControlMessage;
use crate::net::packet::{DropReason, Header, Packet, Payload};
use crate::routing::{ControlSend, PassedOn, RouteCtx, Routed, RoutingOutput};
use crate::sim::rng::RandomStream;
use crate::sim::SimTime;
use crate::wifi::grid::CellHasher;
use std::collections::{HashSet, VecDeque};
use std::hash::BuildHasherDefault;

/// Per-node AODV counters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct AodvStats {
    /// RREQs this node originated (every ring and retry).
    pub rreq_originated: u64,
    /// RREQs this node re-broadcast.
    pub rreq_forwarded: u64,
    /// RREQs received and discarded: its own, already seen (originator, RREQ ID), or with
    /// no TTL left to re-broadcast.
    pub rreq_suppressed: u64,
    /// RREPs this node originated as the destination.
    pub rrep_originated_dest: u64,
    /// RREPs this node originated as an intermediate node with a fresh enough route.
    pub rrep_originated_intermediate: u64,
    /// RREPs forwarded towards their originator.
    pub rrep_forwarded: u64,
    /// RERRs sent (originated or propagated).
    pub rerr_sent: u64,
    /// Data packets put in the route queue.
    pub queued: u64,
    /// Packets dropped from the route queue on timeout.
    pub queue_timeouts: u64,
    /// Packets evicted from a full route queue.
    pub queue_overflows: u64,
    /// Packets dropped for want of a route (discovery gave up, or no route at a forwarder).
    pub no_route_drops: u64,
    /// Local repairs started.
    pub local_repairs: u64,
    /// Link-layer transmit failures of data packets.
    pub link_breaks: u64,
}

#[derive(Clone, Debug)]
enum Delayed {
    Control(ControlSend),
    Send(Packet, IfaceId, Addr),
    Drop(Packet, DropReason),
    /// Drop what waits in the interface queue for this next hop.
    PurgeQueued(IfaceId, Addr),
}

/// One node's AODV instance.
#[derive(Clone, Debug)]
pub struct AodvAgent {
    cfg: AodvConfig,
    rng: RandomStream,
    me: Addr,
    iface: Option<IfaceId>,
    /// The node's own sequence number (ns-2: even, starts at 2, +2 per RREQ).
    seq: u32,
    next_rreq_id: u32,
    table: RouteTable,
    queue: RouteQueue,
    /// RREQs seen: (originator, id), looked up on every RREQ heard. Hashed by the
    /// multiply-and-rotate hash of the channel's small-key maps, not SipHash: the set is
    /// never iterated, so the hash decides nothing but the cost of a lookup.
    seen: HashSet<(Addr, u32), BuildHasherDefault<CellHasher>>,
    /// The same RREQs with the time each is forgotten, in that order.
    seen_order: VecDeque<(Addr, u32, SimTime)>,
    /// When the first of `seen_order` is forgotten (`SimTime::MAX` with none), kept in the
    /// agent: `sweep` checks it on every packet, and the queue's storage is rarely in cache.
    next_forget: SimTime,
    pending: Vec<(SimTime, u64, Delayed)>,
    pending_seq: u64,
    /// Next purge timer tick (armed while the route queue holds packets).
    purge_at: Option<SimTime>,
    /// Repair timers armed: (destination, when it fires); ns-2 arms one per `local_rt_repair`.
    repairs: Vec<(Addr, SimTime)>,
    /// With HELLOs on: when the next one goes out, and the neighbours heard with the time
    /// each is forgotten (ns-2 `nbhead`).
    hello_at: Option<SimTime>,
    neighbours: Vec<(Addr, SimTime)>,
    stats: AodvStats,
}

impl AodvAgent {
    /// An agent with configuration `cfg` drawing its jitter from `rng` (the world names it
    /// `node/<name>/aodv`).
    pub fn new(cfg: AodvConfig, rng: RandomStream) -> Self {
        AodvAgent {
            cfg,
            rng,
            me: Addr(0),
            iface: None,
            seq: 2,
            next_rreq_id: 1,
            table: RouteTable::default(),
            queue: RouteQueue::new(cfg.queue_size, cfg.queue_timeout),
            seen: HashSet::default(),
            seen_order: VecDeque::new(),
            next_forget: SimTime::MAX,
            pending: Vec::new(),
            pending_seq: 0,
            purge_at: None,
            repairs: Vec::new(),
            hello_at: None,
            neighbours: Vec::new(),
            stats: AodvStats::default(),
        }
    }

    /// The world starts the node: with HELLOs on, the first goes out at once (ns-2 starts
    /// its hello timer when the agent starts).
    pub fn start(&mut self, now: SimTime, ctx: &RouteCtx) {
        self.note_ctx(ctx, None);
        if self.cfg.hello {
            self.hello_at = Some(now);
        }
    }

    /// Neighbours currently known from their HELLOs, with the time each is forgotten.
    pub fn hello_neighbours(&self) -> &[(Addr, SimTime)] {
        &self.neighbours
    }

    /// How long a neighbour stays known after a HELLO (ns-2 `nb_insert`).
    fn neighbour_lifetime(&self) -> SimTime {
        let ns =
            self.cfg.hello_interval.as_nanos() as f64 * 1.5 * self.cfg.allowed_hello_loss as f64;
        SimTime::from_nanos(ns.round() as u64)
    }

    /// Sends a HELLO and draws the next one in U(0.75, 1.25) × `hello_interval`.
    fn send_hello(&mut self, now: SimTime) {
        self.broadcast(now, ControlMessage::AodvHello { dst_seq: self.seq }, true);
        let base = self.cfg.hello_interval.as_nanos();
        let spread = base / 2;
        let next = base - base / 4
            + if spread == 0 {
                0
            } else {
                self.rng.below(spread)
            };
        self.hello_at = Some(now + SimTime::from_nanos(next));
    }

    /// A HELLO from `from`: remember it as a neighbour (ns-2 `recvHello`).
    fn on_hello(&mut self, now: SimTime, from: Addr) {
        let until = now + self.neighbour_lifetime();
        match self.neighbours.iter_mut().find(|(a, _)| *a == from) {
            Some(n) => n.1 = until,
            None => self.neighbours.push((from, until)),
        }
    }

    /// Neighbours whose HELLOs stopped are lost links (ns-2 `nb_purge` → `nb_delete`).
    fn purge_neighbours(&mut self, now: SimTime) {
        let lost: Vec<Addr> = self
            .neighbours
            .iter()
            .filter(|(_, t)| *t <= now)
            .map(|(a, _)| *a)
            .collect();
        self.neighbours.retain(|(_, t)| *t > now);
        for nbr in lost {
            self.link_broken(now, nbr);
        }
    }

    pub fn config(&self) -> &AodvConfig {
        &self.cfg
    }

    pub fn stats(&self) -> AodvStats {
        self.stats
    }

    pub fn route_table(&self) -> &RouteTable {
        &self.table
    }

    /// The node's own sequence number.
    pub fn own_seq(&self) -> u32 {
        self.seq
    }

    /// The repair timers armed: (destination, when it fires), in the order armed.
    pub fn repair_timers(&self) -> &[(Addr, SimTime)] {
        &self.repairs
    }

    /// Packets in the route queue.
    pub fn queued(&self) -> usize {
        self.queue.len()
    }

    /// Packets the agent holds: the route queue and packets waiting in its send queue.
    pub fn held(&self) -> usize {
        self.queue.len()
            + self
                .pending
                .iter()
                .filter(|(_, _, d)| matches!(d, Delayed::Send(..) | Delayed::Drop(..)))
                .count()
    }

    fn note_ctx(&mut self, ctx: &RouteCtx, iface: Option<IfaceId>) {
        if let Some(&a) = ctx.addrs.first() {
            self.me = a;
        }
        self.iface = iface.or_else(|| ctx.ifaces.first().copied()).or(self.iface);
    }

    fn later(&mut self, at: SimTime, d: Delayed) {
        self.pending_seq += 1;
        let key = (at, self.pending_seq);
        let i = self.pending.partition_point(|(t, s, _)| (*t, *s) <= key);
        self.pending.insert(i, (at, self.pending_seq, d));
    }

    fn jitter(&mut self) -> SimTime {
        let j = self.cfg.broadcast_jitter.as_nanos();
        if j == 0 {
            SimTime::ZERO
        } else {
            SimTime::from_nanos(self.rng.below(j))
        }
    }

    /// Broadcasts `msg` (TTL 1 for RERR and HELLO). `jittered` as ns-2.35 does it: a
    /// forwarded RREQ and a RERR passed on from `recvError` wait U(0, 10 ms); an originated
    /// RREQ (`sendRequest`) and the RERRs of a link failure or a missing route do not.
    fn broadcast(&mut self, now: SimTime, msg: ControlMessage, jittered: bool) {
        self.broadcast_keeping(now, msg, jittered, None);
    }

    /// [`Self::broadcast`] of a message that passes on a received packet: ns-2 forwards a
    /// RREQ as the packet it received (see [`ControlSend::passes_on`]).
    fn broadcast_keeping(
        &mut self,
        now: SimTime,
        msg: ControlMessage,
        jittered: bool,
        passes_on: Option<PassedOn>,
    ) {
        let at = if jittered { now + self.jitter() } else { now };
        let c = ControlSend {
            msg,
            src: self.me,
            dst: Addr::BROADCAST,
            via: self.iface.map(|i| (i, Addr::BROADCAST)),
            source_route: None,
            passes_on,
        };
        self.later(at, Delayed::Control(c));
    }

    fn unicast(&mut self, now: SimTime, msg: ControlMessage, dst: Addr, next_hop: Addr) {
        let c = ControlSend {
            msg,
            src: self.me,
            dst,
            via: self.iface.map(|i| (i, next_hop)),
            source_route: None,
            passes_on: None,
        };
        self.later(now, Delayed::Control(c));
    }

    fn drop_later(&mut self, now: SimTime, p: Packet, why: DropReason) {
        self.later(now, Delayed::Drop(p, why));
    }

    pub fn next_timer(&self) -> Option<SimTime> {
        [
            self.pending.first().map(|(t, _, _)| *t),
            self.purge_at,
            self.queue.next_expiry(),
            self.repairs.iter().map(|(_, t)| *t).min(),
            self.hello_at,
            self.neighbours.iter().map(|(_, t)| *t).min(),
        ]
        .into_iter()
        .flatten()
        .min()
    }

    /// The last tick of ns-2's route cache timer at or before `now`. ns-2 starts every AODV
    /// agent at 0 s (`create-aodv-agent` schedules `start` then), and `start` runs
    /// `rt_purge` at once and then every 0.5 s (`RouteCacheTimer`, FREQUENCY): the ticks of
    /// every node fall on the same grid, multiples of `purge_interval`.
    fn last_purge_tick(&self, now: SimTime) -> SimTime {
        let step = self.cfg.purge_interval.as_nanos();
        if step == 0 {
            return now;
        }
        SimTime::from_nanos(now.as_nanos() / step * step)
    }

    /// The first purge tick after `now`.
    fn next_purge_tick(&self, now: SimTime) -> SimTime {
        let step = self.cfg.purge_interval.as_nanos();
        if step == 0 {
            return now;
        }
        SimTime::from_nanos((now.as_nanos() / step + 1) * step)
    }

    /// Brings the table up to the last purge tick, and forgets expired RREQ IDs. ns-2 looks
    /// at route lifetimes only in `rt_purge`, every 0.5 s: a route whose lifetime ran out
    /// between two ticks is still up (it forwards, and forwarding renews it) until the next
    /// tick finds `rt_expire < now`; then the route goes down with its sequence number
    /// incremented. Done lazily
    /// here, at every call, for the last tick: nothing of the agent changed since the
    /// previous call, so the routes the tick would have found expired are the ones it
    /// finds now. Both are cheap when nothing is due: the table keeps the earliest expiry,
    /// and RREQ IDs are remembered in the order they are forgotten (each for the same
    /// `bcast_id_save`), so the expired ones are a prefix.
    fn sweep(&mut self, now: SimTime) {
        // ns-2 `rt_purge` also drops what the route queue holds for an expired route; here
        // the queue never holds packets for a route that is up (they leave as it comes up).
        let tick = self.last_purge_tick(now);
        self.table.expire_routes(tick);
        if self.next_forget > now {
            return;
        }
        while let Some(&(o, i, t)) = self.seen_order.front() {
            if t > now {
                break;
            }
            self.seen_order.pop_front();
            self.seen.remove(&(o, i));
        }
        self.next_forget = self.seen_order.front().map_or(SimTime::MAX, |e| e.2);
    }

    pub fn on_timer(&mut self, now: SimTime, out: &mut RoutingOutput) {
        self.sweep(now);
        self.purge_neighbours(now);
        if self.hello_at.is_some_and(|t| t <= now) {
            self.send_hello(now);
        }
        let n = self.queue.expire(now, &mut out.drops);
        self.stats.queue_timeouts += n as u64;
        let due: Vec<Addr> = self
            .repairs
            .iter()
            .filter(|(_, t)| *t <= now)
            .map(|(d, _)| *d)
            .collect();
        self.repairs.retain(|(_, t)| *t > now);
        for d in due {
            self.repair_failed(now, d);
        }
        if self.purge_at.is_some_and(|t| t <= now) {
            for d in self.queue.destinations() {
                if self.table.valid(d).is_some() {
                    self.release(now, d);
                } else {
                    self.send_request(now, d);
                }
            }
            self.purge_at = None;
        }
        self.arm_purge(now);
        let n = self.pending.partition_point(|(t, _, _)| *t <= now);
        for (_, _, d) in self.pending.drain(..n) {
            match d {
                Delayed::Control(c) => out.control.push(c),
                Delayed::Send(p, i, nh) => out.send.push((p, i, nh)),
                Delayed::Drop(p, why) => out.drops.push((p, why)),
                Delayed::PurgeQueued(i, nh) => out.purge_queued.push((i, nh)),
            }
        }
    }

    /// The purge timer runs while the route queue holds packets (a tick with nothing queued
    /// has nothing to do but expire routes, which `sweep` does lazily), on ns-2's grid of
    /// ticks: the first one after `now`.
    fn arm_purge(&mut self, now: SimTime) {
        if self.queue.is_empty() {
            self.purge_at = None;
        } else if self.purge_at.is_none() {
            self.purge_at = Some(self.next_purge_tick(now));
        }
    }

    fn enqueue(&mut self, now: SimTime, p: Packet) {
        self.stats.queued += 1;
        if let Some(old) = self.queue.push(now, p) {
            self.stats.queue_overflows += 1;
            self.drop_later(now, old, DropReason::HoldOverflow);
        }
        self.arm_purge(now);
    }

    /// Sends the queued packets for `dst` on its route, spaced by `release_spacing`
    /// (ns-2 `ARP_DELAY`).
    fn release(&mut self, now: SimTime, dst: Addr) {
        let Some(r) = self.table.valid(dst) else {
            return;
        };
        let (nh, iface) = (r.next_hop, r.iface.or(self.iface));
        let Some(iface) = iface else { return };
        let mut at = now;
        for p in self.queue.take(dst) {
            self.later(at, Delayed::Send(p, iface, nh));
            at += self.cfg.release_spacing;
        }
        self.arm_purge(now);
    }

    /// The per-hop time of the discovery wait (ns-2 `PerHopTime`): the mean of the measured
    /// latencies per hop, or `node_traversal_time` without any.
    fn per_hop_time(&self, dst: Addr) -> SimTime {
        let l: Vec<u64> = self
            .table
            .get(dst)
            .map(|e| {
                e.latency
                    .iter()
                    .map(|t| t.as_nanos())
                    .filter(|&n| n > 0)
                    .collect()
            })
            .unwrap_or_default();
        if l.is_empty() {
            self.cfg.node_traversal_time
        } else {
            SimTime::from_nanos(l.iter().sum::<u64>() / l.len() as u64)
        }
    }

    /// ns-2 `sendRequest`: the next RREQ of the expanding ring search for `dst`, unless a
    /// route exists or the last attempt's wait is not over; after `rreq_retries`
    /// network-wide attempts the queued packets for `dst` are dropped instead.
    fn send_request(&mut self, now: SimTime, dst: Addr) {
        let per_hop = self.per_hop_time(dst);
        let cfg = self.cfg;
        let e = self.table.entry(dst);
        if e.is_valid() || e.req_timeout > now {
            return;
        }
        if e.req_count > cfg.rreq_retries {
            e.req_timeout = now + cfg.max_rreq_timeout;
            e.req_count = 0;
            for p in self.queue.take(dst) {
                self.stats.no_route_drops += 1;
                self.drop_later(now, p, DropReason::NoRoute);
            }
            self.arm_purge(now);
            return;
        }
        e.req_last_ttl = e.req_last_ttl.max(e.last_hops);
        let ttl = if e.req_last_ttl == 0 {
            cfg.ttl_start
        } else if e.req_last_ttl < cfg.ttl_threshold {
            e.req_last_ttl + cfg.ttl_increment
        } else {
            e.req_count += 1;
            cfg.network_diameter
        };
        e.req_last_ttl = ttl;
        let mut wait = SimTime::from_nanos(2 * ttl as u64 * per_hop.as_nanos());
        if e.req_count > 0 {
            wait = SimTime::from_nanos(wait.as_nanos() * e.req_count as u64);
        }
        e.req_timeout = now + wait.min(cfg.max_rreq_timeout);
        // ns-2 `sendRequest` also clears the entry's lifetime (`rt_expire = 0`): a route in
        // repair then offers a wrapped-around lifetime in its replies (`ns2_reply_lifetime`).
        e.expire = SimTime::ZERO;
        let dst_seq = e.seq;
        self.seq = self.seq.wrapping_add(2);
        let id = self.next_rreq_id;
        self.next_rreq_id = self.next_rreq_id.wrapping_add(1);
        self.stats.rreq_originated += 1;
        let msg = ControlMessage::AodvRreq {
            id,
            dst,
            dst_seq,
            orig: self.me,
            orig_seq: self.seq,
            hop_count: 0,
            ttl,
            sent: now,
        };
        self.broadcast(now, msg, false);
    }

    /// Forwards `packet` on the valid route to its destination, refreshing the route's
    /// lifetime (ns-2 `forward`).
    fn forward(&mut self, now: SimTime, packet: Packet) -> Result<Routed, Packet> {
        let timeout = self.cfg.active_route_timeout;
        let fallback = self.iface;
        match self.table.get_mut(packet.ip.dst).filter(|e| e.is_valid()) {
            Some(e) => match e.iface.or(fallback) {
                Some(iface) => {
                    e.expire = e.expire.max(now + timeout);
                    Ok(Routed::Forward {
                        next_hop: e.next_hop,
                        iface,
                        packet,
                    })
                }
                None => Err(packet),
            },
            None => Err(packet),
        }
    }

    // ---- Data ---------------------------------------------------------------------------

    /// A packet this node originates: forwarded on a valid route, or queued while a route
    /// is discovered.
    pub fn route_output(&mut self, now: SimTime, ctx: &RouteCtx, mut packet: Packet) -> Routed {
        self.note_ctx(ctx, None);
        self.sweep(now);
        let dst = packet.ip.dst;
        if ctx.is_local(dst) {
            return Routed::Deliver(packet);
        }
        let tcp = matches!(packet.payload, Payload::TcpData(_) | Payload::TcpAck(_));
        if self.cfg.originated_ip_header && !tcp {
            packet.push_header(Header::RoutingIpCopy);
        }
        if dst.is_broadcast() {
            return Routed::broadcast(packet, self.iface);
        }
        // ns-2 `AODV::recv`: a unicast packet this node originates leaves with TTL
        // NETWORK_DIAMETER, whatever its agent set.
        *packet.routing_ttl_mut() = self.cfg.network_diameter;
        match self.forward(now, packet) {
            Ok(r) => r,
            Err(packet) => {
                self.enqueue(now, packet);
                self.send_request(now, dst);
                Routed::Held
            }
        }
    }

    /// A packet that arrived on `iface`.
    pub fn route_input(
        &mut self,
        now: SimTime,
        ctx: &RouteCtx,
        iface: IfaceId,
        packet: Packet,
    ) -> Routed {
        self.note_ctx(ctx, Some(iface));
        self.sweep(now);
        let from = packet.ip.src;
        match &packet.payload {
            Payload::Control(ControlMessage::AodvRreq { .. }) => {
                return self.on_rreq(now, iface, from, packet);
            }
            Payload::Control(ControlMessage::AodvRrep { .. }) => {
                return self.on_rrep(now, iface, packet);
            }
            Payload::Control(ControlMessage::AodvHello { .. }) => {
                self.on_hello(now, from);
                return Routed::Consumed(packet);
            }
            Payload::Control(ControlMessage::AodvRerr { unreachable }) => {
                let u = unreachable.clone();
                self.on_rerr(now, from, &u);
                return Routed::Consumed(packet);
            }
            _ => {}
        }
        let dst = packet.ip.dst;
        if ctx.is_local(dst) || dst.is_broadcast() {
            // The extra IP header ns-2 counts comes off where the node delivers the packet
            // (`World::deliver_locally`), after ns-2's `r AGT` line has counted it.
            return Routed::Deliver(packet);
        }
        match self.forward(now, packet) {
            Ok(r) => r,
            Err(packet) => {
                if self
                    .table
                    .get(dst)
                    .is_some_and(|e| e.state == RouteState::InRepair)
                {
                    self.enqueue(now, packet);
                    return Routed::Held;
                }
                // ns-2 `rt_resolve`: a forwarder without a route reports the destination
                // unreachable to its neighbours and drops the packet.
                let seq = self.table.get(dst).map_or(0, |e| e.seq);
                self.stats.rerr_sent += 1;
                self.broadcast(
                    now,
                    ControlMessage::AodvRerr {
                        unreachable: vec![(dst, seq)],
                    },
                    false,
                );
                self.stats.no_route_drops += 1;
                Routed::Drop(packet, DropReason::NoRoute)
            }
        }
    }

    // ---- Control ------------------------------------------------------------------------

    /// ns-2 `recvRequest`. The request is consumed, except one whose TTL runs out here:
    /// that one is dropped (see the end).
    fn on_rreq(&mut self, now: SimTime, iface: IfaceId, from: Addr, mut packet: Packet) -> Routed {
        let Payload::Control(ControlMessage::AodvRreq {
            id,
            dst,
            dst_seq,
            orig,
            orig_seq,
            hop_count,
            ttl,
            sent,
        }) = packet.payload
        else {
            return Routed::Consumed(packet);
        };
        if orig == self.me || self.seen.contains(&(orig, id)) {
            self.stats.rreq_suppressed += 1;
            return Routed::Consumed(packet);
        }
        let forget = now + self.cfg.bcast_id_save;
        debug_assert!(self.seen_order.back().is_none_or(|&(_, _, t)| t <= forget));
        self.seen.insert((orig, id));
        self.seen_order.push_back((orig, id, forget));
        self.next_forget = self.next_forget.min(forget);
        // Reverse route to the originator.
        // ns-2 `recvRequest`: the entry's lifetime is extended to at least REV_ROUTE_LIFE
        // whether or not the offer replaces it (a valid route only gains time).
        let hops = hop_count.saturating_add(1);
        let rev_life = self.cfg.rev_route_life;
        let rev = self.table.entry(orig);
        rev.expire = rev.expire.max(now + rev_life);
        if rev.replaced_by(orig_seq, hops) {
            // A node that was itself searching for the originator ends its search, and the
            // route, in use forward, lives ACTIVE_ROUTE_TIMEOUT.
            let waiting = rev.req_timeout > SimTime::ZERO;
            let expire = if waiting {
                now + self.cfg.active_route_timeout
            } else {
                rev.expire
            };
            let rev = self
                .table
                .set_route(orig, orig_seq, hops, from, Some(iface), expire);
            if waiting {
                rev.req_count = 0;
                rev.req_timeout = SimTime::ZERO;
                rev.req_last_ttl = hops;
            }
            self.release(now, orig);
        }
        // A reply needs a valid route back; without one the request can only be forwarded.
        let back = self.table.valid(orig).map(|e| e.next_hop);
        if let (true, Some(back)) = (dst == self.me, back) {
            // RFC 3561 §6.6.1 as ns-2: max(own, requested) + 1, rounded up to even.
            let mut s = self.seq.max(dst_seq).wrapping_add(1);
            if s % 2 == 1 {
                s = s.wrapping_add(1);
            }
            self.seq = s;
            self.stats.rrep_originated_dest += 1;
            let msg = ControlMessage::AodvRrep {
                dst: self.me,
                dst_seq: s,
                orig,
                hop_count: 0,
                lifetime: self.cfg.my_route_timeout,
                sent,
                ttl: self.cfg.network_diameter,
                last_hop: self.me,
            };
            self.unicast(now, msg, orig, back);
            return Routed::Consumed(packet);
        }
        // An intermediate node with a fresh enough route answers (RFC 3561 §6.6.2). ns-2
        // `recvRequest` asks only that the route have a hop count (`rt_hops != INFINITY2`):
        // a route in repair keeps its hop count and answers too, with the lifetime its
        // cleared `rt_expire` gives (`ns2_reply_lifetime`: about 2^32 s).
        let offer = self
            .table
            .get(dst)
            .filter(|r| r.state != RouteState::Invalid && !seq_newer(dst_seq, r.seq))
            .cloned();
        if let (Some(r), Some(back)) = (offer, back) {
            self.table.entry(dst).add_precursor(back);
            self.table.entry(orig).add_precursor(r.next_hop);
            self.stats.rrep_originated_intermediate += 1;
            let msg = ControlMessage::AodvRrep {
                dst,
                dst_seq: r.seq,
                orig,
                hop_count: r.hops,
                lifetime: ns2_reply_lifetime(r.expire, now),
                sent,
                ttl: self.cfg.network_diameter,
                last_hop: self.me,
            };
            self.unicast(now, msg, orig, back);
            return Routed::Consumed(packet);
        }
        let ttl = ttl.saturating_sub(1);
        let known = self.table.get(dst).map_or(0, |e| e.seq);
        let dst_seq = if seq_newer(known, dst_seq) {
            known
        } else {
            dst_seq
        };
        let msg = ControlMessage::AodvRreq {
            id,
            dst,
            dst_seq,
            orig,
            orig_seq,
            hop_count: hops,
            ttl,
            sent,
        };
        if ttl == 0 {
            // ns-2 `recvRequest` readies the request for forwarding (its IP source this node,
            // one hop more, the freshest destination sequence number known) before `forward`
            // finds its TTL spent and drops it (`DROP_RTR_TTL`): the trace shows that request,
            // with the MAC header of the frame that brought it, at the time it arrived.
            self.stats.rreq_suppressed += 1;
            packet.payload = Payload::Control(msg);
            packet.ip.src = self.me;
            *packet.routing_ttl_mut() = 0;
            return Routed::Drop(packet, DropReason::TtlExpired);
        }
        self.stats.rreq_forwarded += 1;
        self.broadcast_keeping(now, msg, true, Some(PassedOn::of(&packet)));
        Routed::Consumed(packet)
    }

    /// ns-2 `recvReply`: the route to the reply's destination, then, unless this node asked,
    /// the same packet on towards the originator (one more hop, one less TTL: ns-2 forwards
    /// the reply it received, its IP source still the replier's), after the packets the new
    /// route releases; without a route to the originator it is dropped.
    fn on_rrep(&mut self, now: SimTime, iface: IfaceId, mut packet: Packet) -> Routed {
        let Payload::Control(ControlMessage::AodvRrep {
            dst,
            dst_seq,
            orig,
            hop_count,
            lifetime,
            sent,
            last_hop: from,
            ..
        }) = packet.payload
        else {
            return Routed::Consumed(packet);
        };
        let hops = hop_count.saturating_add(1);
        let me = self.me;
        if !self.table.entry(dst).replaced_by(dst_seq, hops) {
            return Routed::Consumed(packet); // suppressed (ns-2 frees it)
        }
        let e = self
            .table
            .set_route(dst, dst_seq, hops, from, Some(iface), now + lifetime);
        // ns-2 `recvReply` resets the request state and remembers the route's length as the
        // last ring, so a later search starts from it.
        e.req_timeout = SimTime::ZERO;
        e.req_last_ttl = hops;
        e.req_count = 0;
        if orig == me {
            let per_hop = SimTime::from_nanos(now.saturating_sub(sent).as_nanos() / hops as u64);
            e.latency.push(per_hop);
            if e.latency.len() > 3 {
                e.latency.remove(0);
            }
        }
        if self.cfg.local_repair_wait.is_some() {
            // RFC 3561 §6.12: the repair succeeded. ns-2's repair timers stay armed and,
            // when one fires, find the route up and leave it (`LocalRepairTimer::handle`).
            self.repairs.retain(|(d, _)| *d != dst);
        }
        self.release(now, dst);
        if orig == me {
            return Routed::Consumed(packet);
        }
        let (Some(next), Some(out)) = (self.table.valid(orig).map(|r| r.next_hop), self.iface)
        else {
            self.stats.no_route_drops += 1;
            return Routed::Drop(packet, DropReason::NoRoute);
        };
        self.table.entry(dst).add_precursor(next);
        self.stats.rrep_forwarded += 1;
        if let Payload::Control(ControlMessage::AodvRrep {
            hop_count,
            ttl,
            last_hop,
            ..
        }) = &mut packet.payload
        {
            *hop_count = hops;
            *last_hop = me;
            // ns-2 `AODV::recv` takes one off every AODV packet it receives.
            *ttl = ttl.saturating_sub(1);
        }
        let ip_ttl = packet.routing_ttl_mut();
        *ip_ttl = ip_ttl.saturating_sub(1);
        self.later(now, Delayed::Send(packet, out, next));
        Routed::Held
    }

    fn on_rerr(&mut self, now: SimTime, from: Addr, unreachable: &[(Addr, u32)]) {
        let mut report = Vec::new();
        let mut purge = false;
        for &(d, s) in unreachable {
            let Some(e) = self.table.get_mut(d) else {
                continue;
            };
            // ns-2 `recvError` tests `rt_hops != INFINITY2`, not `RTF_UP`: a route in repair
            // through the sender goes down too (its asserts are compiled out in ns-2.35's
            // builds).
            if e.has_hops() && e.next_hop == from && !seq_newer(e.seq, s) {
                e.seq = s;
                e.down();
                // ns-2 `recvError` then drops every packet in the interface queue bound for
                // the neighbour that sent the error, whatever its destination.
                purge = true;
                // ns-2 `recvError`: passed on for the routes someone used through here.
                if !e.precursors.is_empty() {
                    report.push((d, s));
                    e.precursors.clear();
                }
            }
        }
        if purge {
            if let Some(iface) = self.iface {
                self.later(now, Delayed::PurgeQueued(iface, from));
            }
        }
        self.send_error(now, report, true);
    }

    /// Sends a RERR for `unreachable`, as ns-2.35's `sendError` does: always to the IP
    /// broadcast address with TTL 1 (every neighbour hears it; RFC 3561 §6.11's unicast to
    /// a single precursor is not in ns-2), jittered or not as the caller says.
    fn send_error(&mut self, now: SimTime, unreachable: Vec<(Addr, u32)>, jittered: bool) {
        if unreachable.is_empty() {
            return;
        }
        self.stats.rerr_sent += 1;
        let msg = ControlMessage::AodvRerr { unreachable };
        self.broadcast(now, msg, jittered);
    }

    // ---- Link breaks --------------------------------------------------------------------

    /// The link layer of `iface` could not deliver `packet` to `next_hop` (ns-2
    /// `rt_ll_failed`).
    pub fn on_tx_failure(
        &mut self,
        now: SimTime,
        ctx: &RouteCtx,
        iface: IfaceId,
        next_hop: Addr,
        packet: Packet,
        out: &mut RoutingOutput,
    ) {
        self.note_ctx(ctx, Some(iface));
        self.sweep(now);
        if matches!(packet.payload, Payload::Control(_)) || next_hop.is_broadcast() {
            out.drops.push((packet, DropReason::LinkFailure));
            return;
        }
        self.stats.link_breaks += 1;
        let dst = packet.ip.dst;
        // ns-2 `rt_ll_failed` compares the hops the packet has taken (`num_forwards`).
        let hops_so_far = packet.num_forwards;
        match self.table.get(dst).map(|e| (e.state, e.hops)) {
            None => {
                // ns-2 `rt_ll_failed`: no entry for the destination, the packet is dropped
                // and nothing else happens.
                out.drops.push((packet, DropReason::LinkFailure));
            }
            // ns-2 `rt_ll_failed` repairs whenever the packet has come farther than the
            // route still has to go (`num_forwards > rt_hops`). The hop count is that of the
            // route in service or in repair (an invalidated route's is infinite, ns-2
            // `rt_down`: no repair). It does not look at the route's next hop, nor at
            // whether a repair is already under way: a packet that fails during one joins
            // the queue and arms one more repair timer (`local_rt_repair` again).
            Some((state, hops))
                if self.cfg.local_repair
                    && state != RouteState::Invalid
                    && hops_so_far > u32::from(hops) =>
            {
                self.local_repair(now, dst, packet);
            }
            _ => {
                // ns-2 `rt_ll_failed` without a local repair: drop the packet and every one
                // queued for the same next hop, then report the neighbour lost.
                out.drops.push((packet, DropReason::LinkFailure));
                self.later(now, Delayed::PurgeQueued(iface, next_hop));
                self.link_broken(now, next_hop);
            }
        }
        self.on_timer(now, out);
    }

    /// ns-2 `local_rt_repair`: the packet waits in the route queue, the route is marked in
    /// repair (keeping its hop count, and its last hop count: ns-2 does not set
    /// `rt_last_hop_count` here, so a route never invalidated at this node, whose last hop
    /// count is still the infinite one of a new entry, is repaired with a network-wide
    /// request, TTL 30), a request goes out if the last one's wait is over, and a repair
    /// timer is armed. In ns-2 mode the timer's delay is the route's absolute
    /// `rt_req_timeout` (see `AodvConfig::local_repair_wait`) and every call arms one more;
    /// none is cancelled by a reply.
    fn local_repair(&mut self, now: SimTime, dst: Addr, packet: Packet) {
        self.enqueue(now, packet);
        let fresh_seq = self.cfg.local_repair_fresh_seq;
        let e = self.table.entry(dst);
        let starting = e.state != RouteState::InRepair;
        if starting {
            self.stats.local_repairs += 1;
            e.state = RouteState::InRepair;
            if fresh_seq {
                // RFC 3561 §6.12: ask for a fresher destination sequence number, so that
                // upstream nodes do not answer with the broken route.
                e.seq = e.seq.wrapping_add(1);
            }
        }
        self.send_request(now, dst);
        match self.cfg.local_repair_wait {
            // RFC 3561 §6.12: one wait per repair.
            Some(w) => {
                if starting {
                    self.repairs.push((dst, now + w));
                }
            }
            // ns-2: the absolute `rt_req_timeout` used as a delay.
            None => {
                let delay = self.table.entry(dst).req_timeout;
                self.repairs.push((dst, now + delay));
            }
        }
    }

    /// ns-2 `nb_delete` + `handle_link_failure`: every valid route through `nbr` is
    /// invalidated with its sequence number incremented, and reported to its precursors.
    fn link_broken(&mut self, now: SimTime, nbr: Addr) {
        self.seq = self.seq.wrapping_add(2);
        // ns-2 `handle_link_failure`: every route through the lost neighbour is reported,
        // whether or not anyone used it through here (precursors only lose the neighbour),
        // in one RERR sent at once.
        let mut report = Vec::new();
        for e in self.table.iter_mut() {
            // `rt_hops != INFINITY2`, as in `recvError`: a route in repair through the lost
            // neighbour is reported and goes down as well.
            if e.has_hops() && e.next_hop == nbr {
                e.seq = e.seq.wrapping_add(1);
                e.down();
                report.push((e.dst, e.seq));
            }
            e.precursors.retain(|&p| p != nbr);
        }
        self.send_error(now, report, false);
    }

    /// A repair timer for `dst` fired. A route still in repair is invalidated (ns-2
    /// `LocalRepairTimer::handle`: `rt_down` if the route is not up; with RFC 3561's wait
    /// it is also reported to its precursors); a route up again, or already down, is left
    /// alone. The queued packets stay for the ordinary retries.
    fn repair_failed(&mut self, now: SimTime, dst: Addr) {
        let Some(e) = self.table.get_mut(dst) else {
            return;
        };
        if e.state != RouteState::InRepair {
            return;
        }
        e.state = RouteState::Valid;
        if self.cfg.local_repair_wait.is_none() {
            // ns-2 `LocalRepairTimer::handle`: `rt_down` and nothing else.
            e.down();
            return;
        }
        e.seq = e.seq.wrapping_add(1);
        e.down();
        let report = vec![(dst, e.seq)];
        if e.precursors.is_empty() {
            return;
        }
        e.precursors.clear();
        self.send_error(now, report, false);
    }

    /// Not used by AODV (ns-2 AODV does not snoop).
    pub fn on_overheard(
        &mut self,
        _now: SimTime,
        _ctx: &RouteCtx,
        _iface: IfaceId,
        _packet: &Packet,
        _out: &mut RoutingOutput,
    ) {
    }

    /// An interface going down invalidates every route (nothing else changes on up).
    pub fn on_interface_change(&mut self, _now: SimTime, _iface: IfaceId, up: bool) {
        if !up {
            for e in self.table.iter_mut() {
                if e.is_valid() {
                    e.seq = e.seq.wrapping_add(1);
                    e.down();
                }
            }
        }
    }

    pub fn on_address_change(&mut self, _now: SimTime, _addr: Addr, _added: bool) {}
}
