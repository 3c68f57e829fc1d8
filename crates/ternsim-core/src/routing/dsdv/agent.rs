//! The DSDV agent of one node (ns-2 `DSDV_Agent`, manet-spec §1): start-up, full dumps and
//! triggered updates, update processing, neighbour timeouts, MAC-failure link breaks and the
//! data path.
//!
//! ns-2 runs each of these off its own scheduler event: the periodic timer, one trigger and
//! one neighbour timeout per table entry, and the jittered transmissions. Here they are
//! timers on the agent, each stamped with the order it was armed in, and `on_timer` fires
//! those due in (time, order) order, as ns-2's scheduler would.

use super::route_table::{judge, RouteEntry, RouteTable, Timer, Verdict, BIG};
use super::subnet::Subnet;
use super::DsdvConfig;
use crate::net::addr::{Addr, IfaceId};
use crate::net::control::{ControlMessage, DsdvAdvert};
use crate::net::packet::{DropReason, Header, Packet, Payload};
use crate::routing::{ControlSend, RouteCtx, Routed, RoutingOutput};
use crate::sim::rng::RandomStream;
use crate::sim::SimTime;

use std::cell::RefCell;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

/// A placeholder entry is not advertised before "next week" (ns-2 `now + 604800`).
const PLACEHOLDER_HOLD_OFF: SimTime = SimTime(604_800_000_000_000);

/// Per-node DSDV counters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct DsdvStats {
    /// Full dumps sent: periodic, promoted from a triggered update, or forced by hearing
    /// this node called unreachable.
    pub full_updates_sent: u64,
    /// Triggered (incremental) updates sent.
    pub triggered_updates_sent: u64,
    /// Routes listed, summed over every update sent.
    pub routes_advertised: u64,
    /// Updates received from neighbours.
    pub updates_received: u64,
    /// Triggers put off because the last update was less than
    /// `min_triggered_update_period` ago.
    pub triggers_deferred: u64,
    /// Full dumps sent at once because a neighbour listed this node as unreachable.
    pub forced_full_updates: u64,
    /// Neighbours lost by silence (`min_update_periods` periods without an update).
    pub neighbour_timeouts: u64,
    /// Routes this node set to the infinite metric (timeouts and link breaks).
    pub routes_broken: u64,
    /// 802.11 transmit failures acted upon as link breaks (`use_mac`).
    pub link_breaks: u64,
    /// 802.11 transmit failures whose packet was dropped without a routing action (ns-2
    /// `use_mac_` 0: drop reason `CBK`).
    pub mac_failures_dropped: u64,
    /// Data packets queued for a destination without a usable route.
    pub queued: u64,
    /// Queued packets dropped, oldest first, beyond `queue_per_destination`.
    pub queue_overflows: u64,
    /// Packets for another subnet a mobile node dropped for want of a route to its base
    /// station (ns-2's "Route to base_stn not known").
    pub no_base_station_route: u64,
    /// Packets for a visiting mobile node a Mobile IP base station had no DSDV route to
    /// (ns-2 sends them to the station's own address: lost untraced).
    pub sent_to_itself: u64,
    /// Updates that drained an unreachable entry's queue without installing their route,
    /// then overwrote the entry with it (`stale_update_drain`, ns-2.35's `processUpdate`).
    pub stale_drains: u64,
    /// Packets of this node's own caught in such a drain: ns-2.35 would loop forever on
    /// them; here they stay queued for the overwritten route.
    pub stale_drain_own_packets: u64,
}

/// ns-2 `DSDV_Agent::recv`'s test for a packet the node originates (source address its
/// own and not yet forwarded): it gets a fresh TTL instead of losing a unit.
fn originated_here(p: &Packet, me: Addr) -> bool {
    p.routing_header().src == me && p.num_forwards == 0
}

#[derive(Clone, Debug)]
enum Delayed {
    Control(ControlSend),
    Send(Packet, IfaceId, Addr),
    Drop(Packet, DropReason),
}

/// What is due next in `on_timer`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Due {
    Pending,
    Periodic,
    Trigger(Addr),
    Timeout(Addr),
}

/// One node's DSDV instance.
#[derive(Clone, Debug)]
pub struct DsdvAgent {
    cfg: DsdvConfig,
    rng: RandomStream,
    me: Addr,
    iface: Option<IfaceId>,
    started: bool,
    /// The node's own sequence number counter (even; +2 per full dump).
    seq: u32,
    table: RouteTable,
    periodic: Timer,
    /// When the last update (of either kind) was built (ns-2 `lasttup_`, initially −10 s:
    /// `None`, long ago).
    last_update: Option<SimTime>,
    /// Jittered transmissions, released packets and drops, by (time, order).
    pending: Vec<(SimTime, u64, Delayed)>,
    order: u64,
    /// Every trigger and neighbour timeout armed in the table, by (time, order): pushed when
    /// armed and dropped when found cancelled or re-armed, so the earliest timer is found
    /// without a scan of the table (which is called after every packet, and a table has
    /// an entry per node). A cache of the table, hence the cell: reading the next deadline
    /// drops stale heads.
    table_timers: TableTimers,
    stats: DsdvStats,
    /// The node's base station or mobile-node role in a wired-cum-wireless network.
    subnet: Option<Box<Subnet>>,
}

/// `best` or timer `t` (due for `d`), whichever is earlier by (time, order).
fn earlier(best: Option<(SimTime, u64, Due)>, t: Timer, d: Due) -> Option<(SimTime, u64, Due)> {
    match (best, t) {
        (Some((bt, bo, _)), Some((at, o))) if (bt, bo) <= (at, o) => best,
        (_, Some((at, o))) => Some((at, o, d)),
        (best, None) => best,
    }
}

/// Armed route-entry timers, earliest first: (time, order, destination, which).
type TableTimers = RefCell<BinaryHeap<Reverse<(SimTime, u64, Addr, TableTimer)>>>;

/// Which timer of a route entry a [`DsdvAgent::table_timers`] item is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum TableTimer {
    Trigger,
    Timeout,
}

impl DsdvAgent {
    /// An agent with configuration `cfg` drawing its jitter from `rng` (the world names it
    /// `node/<name>/dsdv`).
    pub fn new(cfg: DsdvConfig, rng: RandomStream) -> Self {
        DsdvAgent {
            cfg,
            rng,
            me: Addr(0),
            iface: None,
            started: false,
            seq: 0,
            table: RouteTable::default(),
            periodic: None,
            last_update: None,
            pending: Vec::new(),
            order: 0,
            table_timers: RefCell::new(BinaryHeap::new()),
            stats: DsdvStats::default(),
            subnet: None,
        }
    }

    /// Makes this node a base station or a mobile node of a wired-cum-wireless network
    /// ([`Subnet`]): DSDV keeps to `subnet.wifi`, whatever interface a packet came in on.
    pub fn set_subnet(&mut self, subnet: Subnet) {
        self.iface = Some(subnet.wifi);
        self.subnet = Some(Box::new(subnet));
    }

    pub fn subnet(&self) -> Option<&Subnet> {
        self.subnet.as_deref()
    }

    /// A mobile node's new base station (ns-2 `MobileNode::set_base_stn`, which
    /// `MIPMHAgent::recv` calls on an advertisement from an agent it had not heard): packets
    /// for other subnets now go to it. Nothing at a base station or outside a subnet.
    pub fn set_base_station(&mut self, base_station: Addr) {
        if let Some(s) = self.subnet.as_deref_mut() {
            if s.base_station.is_some() {
                s.base_station = Some(base_station);
            }
        }
    }

    /// At a base station: the routes over the wired links, by destination address index.
    pub fn set_wired_routes(&mut self, routes: Vec<Option<crate::routing::Route>>) {
        if let Some(s) = &mut self.subnet {
            s.wired = routes;
        }
    }

    pub fn config(&self) -> &DsdvConfig {
        &self.cfg
    }

    pub fn stats(&self) -> DsdvStats {
        self.stats
    }

    pub fn route_table(&self) -> &RouteTable {
        &self.table
    }

    /// The node's own sequence number counter.
    pub fn own_seq(&self) -> u32 {
        self.seq
    }

    /// When the next full dump is due.
    pub fn next_periodic(&self) -> Option<SimTime> {
        self.periodic.map(|(t, _)| t)
    }

    /// Packets the agent holds: the per-destination queues and packets waiting in its send
    /// queue.
    pub fn held(&self) -> usize {
        self.table.iter().map(|e| e.queue.len()).sum::<usize>()
            + self
                .pending
                .iter()
                .filter(|(_, _, d)| matches!(d, Delayed::Send(..)))
                .count()
    }

    fn note_ctx(&mut self, ctx: &RouteCtx, iface: Option<IfaceId>) {
        if let Some(&a) = ctx.addrs.first() {
            self.me = a;
        }
        if let Some(s) = &self.subnet {
            self.iface = Some(s.wifi);
            return;
        }
        self.iface = iface.or_else(|| ctx.ifaces.first().copied()).or(self.iface);
    }

    /// A timer at `at`, after every timer armed before it for the same instant.
    fn stamp(&mut self, at: SimTime) -> (SimTime, u64) {
        self.order += 1;
        (at, self.order)
    }

    fn later(&mut self, at: SimTime, d: Delayed) {
        let key = self.stamp(at);
        let i = self.pending.partition_point(|(t, s, _)| (*t, *s) <= key);
        self.pending.insert(i, (key.0, key.1, d));
    }

    /// U(0, `max`) when randomizing, else 0 (ns-2 `jitter`).
    fn jitter(&mut self, max: SimTime) -> SimTime {
        if !self.cfg.randomize || max == SimTime::ZERO {
            SimTime::ZERO
        } else {
            SimTime::from_nanos(self.rng.below(max.as_nanos()))
        }
    }

    /// perup·(0.75 + U(0, 0.25)) (ns-2 `helper_callback`).
    fn periodic_interval(&mut self) -> SimTime {
        let perup = self.cfg.periodic_update_interval.as_nanos();
        let base = SimTime::from_nanos(perup / 4 * 3 + perup % 4 * 3 / 4);
        base + self.jitter(SimTime::from_nanos(perup / 4))
    }

    // ---- Start-up -----------------------------------------------------------------------

    /// ns-2 `start-dsdv` / `startUp`: the node's own entry (metric 0, sequence number 0,
    /// both flags set, advertisable at once), the counter at 2, and the first full dump
    /// after U(0, `startup_jitter`).
    pub fn start(&mut self, now: SimTime, ctx: &RouteCtx) {
        self.note_ctx(ctx, None);
        if self.started {
            return;
        }
        self.started = true;
        self.seq = 2;
        let mut own = RouteEntry::new(self.me);
        own.advert_seqnum = true;
        own.advert_metric = true;
        own.iface = self.iface;
        self.table.insert(own);
        let at = now + self.jitter(self.cfg.startup_jitter);
        self.periodic = Some(self.stamp(at));
    }

    // ---- Timers -------------------------------------------------------------------------

    fn earliest(&self) -> Option<(SimTime, u64, Due)> {
        let mut best = self.earliest_own();
        let mut heap = self.table_timers.borrow_mut();
        while let Some(&Reverse((at, o, dst, which))) = heap.peek() {
            let entry = self.table.get(dst);
            let (armed, due) = match which {
                TableTimer::Trigger => (entry.and_then(|e| e.trigger), Due::Trigger(dst)),
                TableTimer::Timeout => (entry.and_then(|e| e.timeout), Due::Timeout(dst)),
            };
            if armed == Some((at, o)) {
                best = earlier(best, armed, due);
                break;
            }
            heap.pop(); // cancelled or re-armed since
        }
        drop(heap);
        debug_assert_eq!(best, self.earliest_by_scan(), "table_timers lost a timer");
        best
    }

    /// The earlier of the next pending release and the next periodic update.
    fn earliest_own(&self) -> Option<(SimTime, u64, Due)> {
        let pending = self.pending.first().map(|(t, o, _)| (*t, *o));
        earlier(
            earlier(None, pending, Due::Pending),
            self.periodic,
            Due::Periodic,
        )
    }

    /// The earliest timer by a scan of everything: what `table_timers` must agree with
    /// (checked in debug builds).
    fn earliest_by_scan(&self) -> Option<(SimTime, u64, Due)> {
        self.table.iter().fold(self.earliest_own(), |best, e| {
            let best = earlier(best, e.trigger, Due::Trigger(e.dst));
            earlier(best, e.timeout, Due::Timeout(e.dst))
        })
    }

    /// Records that the `which` timer of `dst`'s entry was armed at `t`.
    fn armed(heap: &TableTimers, t: (SimTime, u64), dst: Addr, which: TableTimer) {
        heap.borrow_mut().push(Reverse((t.0, t.1, dst, which)));
    }

    pub fn next_timer(&self) -> Option<SimTime> {
        self.earliest().map(|(t, _, _)| t)
    }

    pub fn on_timer(&mut self, now: SimTime, out: &mut RoutingOutput) {
        while let Some((at, _, due)) = self.earliest() {
            if at > now {
                break;
            }
            match due {
                Due::Pending => match self.pending.remove(0).2 {
                    Delayed::Control(c) => out.control.push(c),
                    Delayed::Send(p, i, nh) => out.send.push((p, i, nh)),
                    Delayed::Drop(p, why) => out.drops.push((p, why)),
                },
                Due::Periodic => self.periodic_update(now),
                Due::Trigger(dst) => self.triggered_update(now, dst),
                Due::Timeout(nbr) => {
                    if let Some(e) = self.table.get_mut(nbr) {
                        e.timeout = None;
                    }
                    self.stats.neighbour_timeouts += 1;
                    self.lose_neighbour(now, nbr);
                }
            }
        }
    }

    /// The periodic timer: a full dump, sent after the broadcast jitter; the next one in
    /// perup·U(0.75, 1); it counts as the last triggered update too.
    fn periodic_update(&mut self, now: SimTime) {
        self.periodic = None;
        if let Some(msg) = self.make_update(now, true) {
            self.send_update(now, msg);
        }
        let next = now + self.periodic_interval();
        self.periodic = Some(self.stamp(next));
        self.last_update = Some(now);
    }

    /// ns-2 `DSDVTriggerHandler::handle`: the trigger of `dst`'s entry fired. Within
    /// `min_triggered_update_period` of the last update it moves to the end of that period
    /// and every other trigger due before then is cancelled (their flags stay set, so the
    /// deferred update carries them); otherwise a triggered update is built and sent.
    fn triggered_update(&mut self, now: SimTime, dst: Addr) {
        let next_possible = self
            .last_update
            .map(|t| t + self.cfg.min_triggered_update_period);
        if let Some(np) = next_possible.filter(|&np| now < np) {
            self.stats.triggers_deferred += 1;
            let t = self.stamp(np);
            for e in self.table.iter_mut() {
                if e.dst == dst {
                    e.trigger = Some(t);
                    Self::armed(&self.table_timers, t, dst, TableTimer::Trigger);
                } else if e.trigger.is_some_and(|(at, _)| at < np) {
                    e.trigger = None;
                }
            }
            return;
        }
        if let Some(e) = self.table.get_mut(dst) {
            e.trigger = None;
        }
        if let Some(msg) = self.make_update(now, false) {
            if matches!(msg, ControlMessage::DsdvUpdate { full: true, .. }) {
                // Promoted to a full dump: it takes the place of the next periodic one.
                let next = now + self.periodic_interval();
                self.periodic = Some(self.stamp(next));
            }
            self.send_update(now, msg);
            self.last_update = Some(now);
        }
    }

    /// ns-2 `makeUpdate` (manet-spec §1.5). A triggered update lists the entries with a
    /// change to advertise whose settling delay is over; when more than a third of the
    /// table (and more than 3 entries) qualifies it becomes a full dump. A full dump first
    /// raises the own sequence number by 2 and lists every entry past its settling delay,
    /// broken ones included. `None` when nothing qualifies.
    fn make_update(&mut self, now: SimTime, mut full: bool) -> Option<ControlMessage> {
        let size = self.table.len();
        let changed = self
            .table
            .iter()
            .filter(|e| e.has_change_to_advertise(now))
            .count();
        if changed * 3 > size && changed > 3 {
            full = true;
        }
        if full {
            self.seq = self.seq.wrapping_add(2);
            let mut own = RouteEntry::new(self.me);
            own.seq = self.seq;
            own.advert_seqnum = true;
            own.changed_at = now;
            own.new_seqnum_at = now;
            own.iface = self.iface;
            self.table.insert(own);
        }
        let mut entries = Vec::new();
        for e in self.table.iter_mut() {
            let listed = if full {
                e.advertise_ok_at <= now
            } else {
                e.has_change_to_advertise(now)
            };
            if !listed {
                continue;
            }
            entries.push(DsdvAdvert {
                dst: e.dst,
                metric: e.metric,
                seq: e.seq,
            });
            e.last_advertised_metric = e.metric;
            e.advert_seqnum = false;
            if full {
                e.advert_metric = false;
            }
        }
        (!entries.is_empty()).then_some(ControlMessage::DsdvUpdate { entries, full })
    }

    fn send_update(&mut self, now: SimTime, msg: ControlMessage) {
        if let ControlMessage::DsdvUpdate { entries, full } = &msg {
            if *full {
                self.stats.full_updates_sent += 1;
            } else {
                self.stats.triggered_updates_sent += 1;
            }
            self.stats.routes_advertised += entries.len() as u64;
        }
        let at = now + self.jitter(self.cfg.broadcast_jitter);
        let c = ControlSend {
            msg,
            src: self.me,
            dst: Addr::BROADCAST,
            via: self.iface.map(|i| (i, Addr::BROADCAST)),
            source_route: None,
            passes_on: None,
        };
        self.later(at, Delayed::Control(c));
    }

    /// Every usable route through `nbr` breaks (ns-2 timeout branch of `helper_callback`):
    /// infinite metric, odd sequence number, a triggered update at once.
    fn lose_neighbour(&mut self, now: SimTime, nbr: Addr) {
        let via: Vec<Addr> = self
            .table
            .iter()
            .filter(|e| e.next_hop == nbr && e.is_usable() && e.dst != self.me)
            .map(|e| e.dst)
            .collect();
        for dst in via {
            let t = self.stamp(now);
            let e = self.table.get_mut(dst).expect("listed above");
            e.break_route(now);
            e.trigger = Some(t);
            Self::armed(&self.table_timers, t, dst, TableTimer::Trigger);
            self.stats.routes_broken += 1;
        }
    }

    // ---- Updates ------------------------------------------------------------------------

    /// ns-2 `processUpdate` (manet-spec §1.6): every route of an update from neighbour
    /// `from`, in order, then the neighbour's timeout.
    fn process_update(&mut self, now: SimTime, from: Addr, iface: IfaceId, routes: &[DsdvAdvert]) {
        self.stats.updates_received += 1;
        for r in routes {
            self.process_route(now, from, iface, r);
        }
        let timeout = self.cfg.neighbour_timeout();
        let t = self.stamp(now + timeout);
        Self::armed(&self.table_timers, t, from, TableTimer::Timeout);
        match self.table.get_mut(from) {
            Some(e) => e.timeout = Some(t),
            None => {
                // The first thing heard from `from` was a triggered update not listing it:
                // a placeholder route keeps the timeout (advertised "next week" only).
                let mut e = RouteEntry::new(from);
                e.next_hop = from;
                e.iface = Some(iface);
                e.metric = 1;
                e.advertise_ok_at = now + PLACEHOLDER_HOLD_OFF;
                e.changed_at = now;
                e.new_seqnum_at = now;
                e.wst = self.cfg.initial_settling_time.as_secs_f64();
                e.timeout = Some(t);
                self.table.insert(e);
            }
        }
    }

    fn process_route(&mut self, now: SimTime, from: Addr, iface: IfaceId, r: &DsdvAdvert) {
        let metric = if r.metric == BIG {
            BIG
        } else {
            r.metric.saturating_add(1).min(BIG)
        };
        if r.dst == self.me {
            // "You have the last word on yourself": called unreachable, send a full dump
            // with a new even number now.
            if r.metric == BIG && self.periodic.is_some() {
                self.stats.forced_full_updates += 1;
                self.periodic = Some(self.stamp(now));
            }
            return;
        }
        let held = self.table.get(r.dst);
        let verdict = judge(held, metric, r.seq);
        // ns-2 drains the queue of any entry an update names with a finite metric, whatever
        // the verdict (step 6 below).
        let drains = metric != BIG && held.is_some_and(|e| !e.queue.is_empty());
        // Weighted settling time (Perkins & Bhagwat §4.6 as ns-2 keeps it): a new sequence
        // number closes the measurement of the last one, the delay between its first copy
        // and the copy finally installed.
        let alpha = self.cfg.settling_alpha;
        let (wst, new_seqnum_at) = match held {
            None => (self.cfg.initial_settling_time.as_secs_f64(), now),
            Some(e) if e.seq == r.seq => (e.wst, e.new_seqnum_at),
            Some(e) => (
                alpha * e.wst
                    + (1.0 - alpha) * e.changed_at.saturating_sub(e.new_seqnum_at).as_secs_f64(),
                now,
            ),
        };
        // Good news waits twice the settling time; bad news, and a route back from
        // unreachable, may be advertised at once.
        let advertise_ok_at = if metric != BIG && held.is_none_or(|e| e.metric != BIG) {
            now + SimTime::from_secs_f64(2.0 * wst)
        } else {
            now
        };
        let install = |e: &mut RouteEntry| {
            e.next_hop = from;
            e.iface = Some(iface);
            e.metric = metric;
            e.seq = r.seq;
            e.changed_at = now;
            e.wst = wst;
            e.new_seqnum_at = new_seqnum_at;
            e.advertise_ok_at = advertise_ok_at;
        };
        let trigger = match verdict {
            Verdict::New => {
                let mut e = RouteEntry::new(r.dst);
                install(&mut e);
                e.advert_metric = metric < BIG;
                self.table.insert(e);
                metric < BIG
            }
            Verdict::Shorter => {
                let e = self.table.get_mut(r.dst).expect("judged held");
                install(e);
                e.advert_metric = metric != e.last_advertised_metric;
                e.advert_metric
            }
            Verdict::Fresher => {
                let e = self.table.get_mut(r.dst).expect("judged held");
                install(e);
                e.advert_seqnum = true;
                e.advert_metric = metric != e.last_advertised_metric;
                self.cfg.trigger_on_fresh_seqnum
            }
            Verdict::StaleBroken => {
                let t = self.stamp(now);
                let e = self.table.get_mut(r.dst).expect("judged held");
                e.advertise_ok_at = now;
                e.advert_metric = true;
                e.trigger = Some(t);
                Self::armed(&self.table_timers, t, r.dst, TableTimer::Trigger);
                false
            }
            Verdict::NotShorter | Verdict::Stale => false,
        };
        if trigger {
            let t = self.stamp(advertise_ok_at);
            if let Some(e) = self.table.get_mut(r.dst) {
                e.trigger = Some(t);
                Self::armed(&self.table_timers, t, r.dst, TableTimer::Trigger);
            }
        }
        let installed_usable = self.table.get(r.dst).is_some_and(|e| e.is_usable());
        if drains && !installed_usable && self.cfg.stale_update_drain {
            // ns-2.35 `processUpdate` drains the queue of the *candidate* (a copy of the
            // entry carrying the update's hop, metric and number) even when the update was
            // ignored (an older sequence number naming a route while this node's is
            // broken): each packet goes back through `recv`, finds the entry still
            // unreachable and is queued again behind the others, one TTL unit lighter per
            // pass, until its TTL runs out. Then the candidate overwrites the entry: the
            // stale route is installed without the sequence-number check (manet-spec
            // §1.6 step 6), which is how ns-2's DSDV forms two-node loops on a chain.
            self.cycle_until_ttl_expiry(now, r.dst);
            let e = self.table.get_mut(r.dst).expect("drains: held");
            install(e);
            self.stats.stale_drains += 1;
        }
        self.release(now, r.dst);
    }

    /// The packets queued for `dst` pass through ns-2's receive path again and again while
    /// the entry stays unreachable (ns-2 `processUpdate`'s `while (q->deque()) recv()`,
    /// which re-queues each at the tail): forwarded packets lose one TTL unit per pass and
    /// are dropped when it reaches 0, in the order that round robin gives. A packet this
    /// node originated gets its TTL reset on every pass, so ns-2 never leaves that loop
    /// (the run hangs); here it stays queued and the overwritten entry sends it.
    fn cycle_until_ttl_expiry(&mut self, now: SimTime, dst: Addr) {
        let me = self.me;
        let Some(e) = self.table.get_mut(dst) else {
            return;
        };
        let mut circling = std::mem::take(&mut e.queue);
        let mut kept = VecDeque::new();
        let mut expired = Vec::new();
        while let Some(mut p) = circling.pop_front() {
            if originated_here(&p, me) {
                self.stats.stale_drain_own_packets += 1;
                kept.push_back(p);
                continue;
            }
            let ttl = p.routing_ttl_mut();
            *ttl = ttl.saturating_sub(1);
            if *ttl == 0 {
                expired.push(p);
            } else {
                circling.push_back(p);
            }
        }
        e.queue = kept;
        for p in expired {
            self.later(now, Delayed::Drop(p, DropReason::TtlExpired));
        }
    }

    /// Sends the packets queued for `dst` once its installed route is usable.
    fn release(&mut self, now: SimTime, dst: Addr) {
        let fallback = self.iface;
        let Some(e) = self.table.get_mut(dst) else {
            return;
        };
        if !e.is_usable() || e.queue.is_empty() {
            return;
        }
        let next_hop = e.hop();
        let Some(iface) = e.iface.or(fallback) else {
            return;
        };
        let queued: Vec<Packet> = e.queue.drain(..).collect();
        let me = self.me;
        for mut p in queued {
            // ns-2 releases them through `recv`, which takes one more TTL unit from a
            // forwarded packet (its arrival here took one already, `forward`).
            if self.cfg.stale_update_drain && !originated_here(&p, me) {
                let ttl = p.routing_ttl_mut();
                *ttl = ttl.saturating_sub(1);
                if *ttl == 0 {
                    self.later(now, Delayed::Drop(p, DropReason::TtlExpired));
                    continue;
                }
            }
            self.later(now, Delayed::Send(p, iface, next_hop));
        }
    }

    // ---- Data ---------------------------------------------------------------------------

    /// ns-2 `forwardPacket`: on a usable route to the next hop (the destination itself at
    /// one hop); otherwise queued on the destination's entry, a placeholder entry (unreachable,
    /// never advertised) created for an unknown destination.
    fn forward(&mut self, now: SimTime, mut packet: Packet) -> Routed {
        let dst = packet.routing_header().dst;
        if self.subnet.as_ref().is_some_and(|s| !s.contains(dst)) {
            return self.forward_out_of_subnet(packet);
        }
        let fallback = self.iface;
        if let Some(e) = self.table.usable(dst) {
            let next_hop = e.hop();
            return match e.iface.or(fallback) {
                Some(iface) => Routed::Forward {
                    packet,
                    iface,
                    next_hop,
                },
                None => Routed::Drop(packet, DropReason::NoRoute),
            };
        }
        // ns-2's `recv` takes the TTL unit of a forwarded packet before it routes it (the
        // world takes it when it forwards one): a packet that waits here waits with it taken,
        // as ns-2's `D RTR IFQ` lines show.
        if !originated_here(&packet, self.me) {
            let ttl = packet.routing_ttl_mut();
            *ttl = ttl.saturating_sub(1);
            if *ttl == 0 {
                return Routed::Drop(packet, DropReason::TtlExpired);
            }
        }
        if self.table.get(dst).is_none() {
            let mut e = RouteEntry::new(dst);
            e.metric = BIG;
            e.advertise_ok_at = now + PLACEHOLDER_HOLD_OFF;
            e.changed_at = now;
            e.new_seqnum_at = now;
            e.wst = self.cfg.initial_settling_time.as_secs_f64();
            self.table.insert(e);
        }
        let cap = self.cfg.queue_per_destination;
        let e = self.table.get_mut(dst).expect("inserted above");
        e.queue.push_back(packet);
        self.stats.queued += 1;
        let mut over = Vec::new();
        while e.queue.len() > cap {
            over.push(e.queue.pop_front().expect("longer than cap"));
        }
        for p in over {
            self.stats.queue_overflows += 1;
            self.later(now, Delayed::Drop(p, DropReason::HoldOverflow));
        }
        Routed::Held
    }

    /// A packet for a destination outside this node's subnet ([`Subnet`], ns-2
    /// `forwardPacket`'s `diff_subnet` branch): a base station's wired route; at a mobile node
    /// a usable route to the destination, else to the base station, else a drop.
    fn forward_out_of_subnet(&mut self, packet: Packet) -> Routed {
        let sub = self.subnet.as_deref().expect("called with a subnet");
        let dst = packet.routing_header().dst;
        let Some(base_station) = sub.base_station else {
            return match sub.wired_route(dst) {
                Some(r) => Routed::Forward {
                    packet,
                    iface: r.iface,
                    next_hop: r.next_hop,
                },
                None => Routed::Drop(packet, DropReason::NoRoute),
            };
        };
        let wifi = sub.wifi;
        for target in [dst, base_station] {
            if let Some(e) = self.table.usable(target) {
                let next_hop = e.hop();
                return Routed::Forward {
                    packet,
                    iface: wifi,
                    next_hop,
                };
            }
        }
        self.stats.no_base_station_route += 1;
        Routed::Drop(packet, DropReason::NoBaseStationRoute)
    }

    /// A packet this node originates.
    pub fn route_output(&mut self, now: SimTime, ctx: &RouteCtx, mut packet: Packet) -> Routed {
        self.note_ctx(ctx, None);
        let dst = packet.routing_header().dst;
        if ctx.is_local(dst) {
            return Routed::Deliver(packet);
        }
        if let Some(s) = self.subnet.as_deref() {
            if s.is_base_station() && !s.contains(dst) && !dst.is_broadcast() {
                // A base station's own packet for the wired side never meets DSDV in ns-2
                // (the node's classifier routes it): no second IP header.
                return self.forward_out_of_subnet(packet);
            }
        }
        set_originated_ttl(&mut packet);
        if self.cfg.originated_ip_copy {
            packet.push_header(Header::RoutingIpCopy);
        }
        if dst.is_broadcast() {
            return self.broadcast_originated(now, packet);
        }
        self.forward(now, packet)
    }

    /// A broadcast this node originates that is not a DSDV update (a Mobile IP
    /// advertisement or solicitation): ns-2 `DSDV_Agent::recv` hands it to
    /// `sendOutBCastPkt`, which sends it after U(0, `broadcast_jitter`) "to avoid sync".
    fn broadcast_originated(&mut self, now: SimTime, packet: Packet) -> Routed {
        let Some(iface) = self.iface else {
            return Routed::Drop(packet, DropReason::NoRoute);
        };
        let at = now + self.jitter(self.cfg.broadcast_jitter);
        self.later(at, Delayed::Send(packet, iface, Addr::BROADCAST));
        Routed::Held
    }

    /// A packet a Mobile IP base station hands straight to its DSDV agent, past the node's
    /// classifier (ns-2 `MIPBSAgent::recv` gives a registration reply to `ragent_`, and the
    /// decapsulator's default target is `ragent_`, `ns-mip.tcl` `decap-route`):
    /// `originated` (the reply, whose source the agent set to its own address) gets ns-2's
    /// extra IP header as anything DSDV originates does (`DSDV_Agent::recv`). Then ns-2
    /// `forwardPacket`: a destination in the subnet takes the usual path (queued without a
    /// route); one outside it (a visiting mobile node) leaves on a usable route to it, and
    /// without one goes to the node's `base_stn`, which at a base station is the station
    /// itself (`ns-lib.tcl` names it for `-wiredRouting ON`): a frame addressed to itself
    /// that ARP never resolves and no trace shows. Here it is dropped untraced
    /// ([`DropReason::BaseStationToItself`]).
    pub fn route_direct(
        &mut self,
        now: SimTime,
        ctx: &RouteCtx,
        mut packet: Packet,
        originated: bool,
    ) -> Routed {
        self.note_ctx(ctx, None);
        if originated {
            set_originated_ttl(&mut packet);
        }
        if originated && self.cfg.originated_ip_copy {
            packet.push_header(Header::RoutingIpCopy);
        }
        let dst = packet.routing_header().dst;
        let Some(s) = self.subnet.as_deref() else {
            return self.forward(now, packet);
        };
        if !s.is_base_station() || s.contains(dst) {
            return self.forward(now, packet);
        }
        let wifi = s.wifi;
        if let Some(e) = self.table.usable(dst) {
            let next_hop = e.hop();
            return Routed::Forward {
                packet,
                iface: wifi,
                next_hop,
            };
        }
        self.stats.sent_to_itself += 1;
        Routed::Drop(packet, DropReason::BaseStationToItself)
    }

    /// A packet that arrived on `iface`: an update is processed and ends here; broadcast
    /// data is delivered, not re-broadcast; unicast data for another node is forwarded.
    pub fn route_input(
        &mut self,
        now: SimTime,
        ctx: &RouteCtx,
        iface: IfaceId,
        packet: Packet,
    ) -> Routed {
        self.note_ctx(ctx, Some(iface));
        if let Payload::Control(ControlMessage::DsdvUpdate { entries, .. }) = &packet.payload {
            let from = packet.ip.src;
            if from != self.me && self.started {
                self.process_update(now, from, iface, entries);
            }
            return Routed::Consumed(packet);
        }
        let dst = packet.routing_header().dst;
        if ctx.is_local(dst) || dst.is_broadcast() {
            // The extra IP header ns-2 counts comes off where the node delivers the packet
            // (`World::deliver_locally`), after ns-2's `r AGT` line has counted it.
            return Routed::Deliver(packet);
        }
        self.forward(now, packet)
    }

    // ---- Link breaks --------------------------------------------------------------------

    /// The link layer of `iface` could not deliver `packet` to `next_hop` (ns-2
    /// `lost_link`). Without `use_mac` the packet is dropped and nothing else happens;
    /// with it every route through `next_hop` breaks now and the packet goes back through
    /// the data path (where it waits in its destination's queue).
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
        if matches!(packet.payload, Payload::Control(_)) || next_hop.is_broadcast() {
            out.drops.push((packet, DropReason::LinkFailure));
            return;
        }
        if !self.cfg.use_mac {
            self.stats.mac_failures_dropped += 1;
            out.drops.push((packet, DropReason::LinkFailure));
            return;
        }
        let Some(e) = self.table.get_mut(next_hop) else {
            out.drops.push((packet, DropReason::LinkFailure));
            return;
        };
        self.stats.link_breaks += 1;
        if e.timeout.is_some() || e.is_usable() {
            e.timeout = None;
            self.lose_neighbour(now, next_hop);
        }
        match self.forward(now, packet) {
            Routed::Forward {
                packet,
                iface,
                next_hop,
            } => out.send.push((packet, iface, next_hop)),
            Routed::Drop(p, why) => out.drops.push((p, why)),
            _ => {}
        }
        self.on_timer(now, out);
    }

    /// Not used by DSDV (ns-2 DSDV does not snoop).
    pub fn on_overheard(
        &mut self,
        _now: SimTime,
        _ctx: &RouteCtx,
        _iface: IfaceId,
        _packet: &Packet,
        _out: &mut RoutingOutput,
    ) {
    }

    /// ns-2 DSDV has no interface hook: routes through a dead interface break by timeout.
    pub fn on_interface_change(&mut self, _now: SimTime, _iface: IfaceId, _up: bool) {}

    pub fn on_address_change(&mut self, _now: SimTime, _addr: Addr, _added: bool) {}
}

/// ns-2's DSDV gives a packet its node originates a fresh TTL (`dsdv.cc` `DSDV_Agent::recv`:
/// `iph->ttl_ = IP_DEF_TTL`, 32, with the IP header it counts). A new packet has it already;
/// a Mobile IP message an agent sends on in the packet it received (a foreign agent's
/// relayed registration reply, which arrived over the wire with TTL 28) gets it back:
/// `r ... _4_ AGT --- 6536 udp 92 ... 32 4194305]` at the mobile host (ns-2.35).
fn set_originated_ttl(packet: &mut Packet) {
    *packet.routing_ttl_mut() = IP_DEF_TTL;
}

/// ns-2's `IP_DEF_TTL` (`common/ip.h`).
const IP_DEF_TTL: u8 = 32;
