//! The DSR agent of one node: route discovery (RFC 4728 §8.2), forwarding of source-routed
//! packets (§8.1.3), the promiscuous tap (§8.3.4-8.3.5 snooping, gratuitous replies) and the
//! timers that drive them, as ns-2's `DSRAgent` does (link-spec §4.2). Route maintenance is
//! in [`super::maintenance`].
//!
//! Sends that cannot go out at once — anything decided inside `route_output` or
//! `route_input`, which return a single [`Routed`], and jittered requests and target replies —
//! wait in a small queue ordered by (time, insertion) and leave through `on_timer`; those
//! due at `now` make [`DsrAgent::next_timer`] return `now`.

use super::flow_state::SourceFlows;
use super::log::{DsrLog, DsrLogEntry};
use super::request_table::{cycle_gap, Discoveries, RequestTable};
use super::route_cache::{Lookup, RouteCache};
use super::send_buffer::SendBuffer;
use super::DsrConfig;
use crate::net::addr::{Addr, IfaceId};
use crate::net::control::ControlMessage;
use crate::net::packet::{DropReason, FlowHeader, Packet, Payload, SourceRoute};
use crate::routing::{ControlSend, PassedOn, RouteCtx, Routed, RoutingOutput};
use crate::sim::rng::RandomStream;

/// The IP TTL ns-2.35's DSR gives a route reply (`returnSrcRouteToRequestor`,
/// `replyFromRouteCache`: `ttl() = 255`).
const DSR_REPLY_TTL: u8 = 255;
use crate::sim::SimTime;

/// Per-node DSR counters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct DsrStats {
    /// Route requests this node originated (ring-zero and propagating).
    pub rreq_originated: u64,
    /// Route requests this node re-broadcast.
    pub rreq_forwarded: u64,
    /// Route requests received and discarded: already seen, listing this node, or at their
    /// hop limit.
    pub rreq_suppressed: u64,
    /// Route replies this node originated as the target of a request.
    pub rrep_originated: u64,
    /// Route replies originated from the route cache (RFC 4728 §8.2.3).
    pub rrep_from_cache: u64,
    /// Gratuitous route replies (route shortening, RFC 4728 §8.4.3).
    pub rrep_gratuitous: u64,
    /// Route replies forwarded along their source route.
    pub rrep_forwarded: u64,
    /// Route errors originated after a link-layer transmit failure.
    pub rerr_originated: u64,
    /// Route errors forwarded along their source route.
    pub rerr_forwarded: u64,
    /// Packets salvaged onto another cached route.
    pub salvaged: u64,
    /// Route cache lookups for data that found a route.
    pub cache_hits: u64,
    /// Route cache lookups for data that found none.
    pub cache_misses: u64,
    /// Packets dropped from the send buffer on timeout.
    pub send_buffer_timeouts: u64,
    /// Packets evicted from a full send buffer.
    pub send_buffer_overflows: u64,
    /// Packets this node sent on an established flow without a source route that the
    /// link layer gave back after the flow had died (ns-2.35 `xmitFlowFailed` finds no
    /// live flow): lost untraced with `DsrConfig::flow_failure_by_flow_table`, else
    /// handled as any failure.
    pub dead_flow_failures: u64,
}

/// What a delayed entry sends.
#[derive(Clone, Debug)]
pub(super) enum Delayed {
    Control(ControlSend),
    Send(Packet, IfaceId, Addr),
    Drop(Packet, DropReason),
}

/// One node's DSR instance.
#[derive(Clone, Debug)]
pub struct DsrAgent {
    pub(super) cfg: DsrConfig,
    rng: RandomStream,
    /// The node's primary address and its wireless interface, from the last call with a
    /// context (timers have none).
    pub(super) me: Addr,
    pub(super) iface: Option<IfaceId>,
    pub(super) send_buffer: SendBuffer,
    pub(super) requests: RequestTable,
    pub(super) discoveries: Discoveries,
    pub(super) cache: RouteCache,
    /// The flows this node sources (flow state on).
    pub(super) flows: SourceFlows,
    next_request_id: u16,
    /// When the send buffer is checked next (armed while it holds packets).
    buffer_check_at: Option<SimTime>,
    /// The node's send buffer timer as ns-2 runs it, a periodic timer from t = 0: the
    /// latest tick computed. Only the ticks while the buffer holds packets become events;
    /// the others are drawn when the buffer fills again ([`DsrAgent::arm_buffer_check`]).
    last_check_tick: Option<SimTime>,
    /// The last route error addressed to this node (when it came, the broken link), to ride
    /// on its next route requests (`propagate_last_error`).
    held_error: Option<(SimTime, Addr, Addr)>,
    /// Sends waiting for their time, ordered by (time, insertion).
    pending: Vec<(SimTime, u64, Delayed)>,
    pending_seq: u64,
    /// Gratuitous replies sent: (the route that was shortened, when).
    grat_sent: Vec<(Vec<Addr>, SimTime)>,
    /// The last route error sent: (when, broken link from, to, originator).
    pub(super) last_rerr: Option<(SimTime, Addr, Addr, Addr)>,
    pub(super) stats: DsrStats,
    /// ns-2's DSR log lines, while a wireless ns-2 trace is written.
    pub(super) log: DsrLog,
    /// The uids the tap has processed (`DsrConfig::filter_tap`), [`TAP_CACHE_SIZE`] slots,
    /// allocated at the first overheard packet.
    tap_seen: Vec<u64>,
}

/// Slots of the tap's cache of processed uids (ns-2.35 `TAP_CACHE_SIZE`).
const TAP_CACHE_SIZE: usize = 1024;

impl DsrAgent {
    /// An agent with configuration `cfg` drawing its jitter from `rng` (the world names it
    /// `node/<name>/dsr`).
    pub fn new(cfg: DsrConfig, rng: RandomStream) -> Self {
        DsrAgent {
            cfg,
            rng,
            me: Addr(0),
            iface: None,
            send_buffer: SendBuffer::new(cfg.send_buffer_size, cfg.send_buffer_timeout),
            requests: RequestTable::new(cfg.request_table_size),
            discoveries: Discoveries::new(cfg.request_table_size),
            cache: RouteCache::new(cfg.primary_cache_size, cfg.secondary_cache_size),
            flows: SourceFlows::default(),
            next_request_id: 0,
            buffer_check_at: None,
            last_check_tick: None,
            held_error: None,
            pending: Vec::new(),
            pending_seq: 0,
            grat_sent: Vec::new(),
            last_rerr: None,
            stats: DsrStats::default(),
            log: DsrLog::default(),
            tap_seen: Vec::new(),
        }
    }

    pub fn config(&self) -> &DsrConfig {
        &self.cfg
    }

    pub fn stats(&self) -> DsrStats {
        self.stats
    }

    /// The agent's log of ns-2's DSR trace lines (off until enabled).
    pub fn log_mut(&mut self) -> &mut DsrLog {
        &mut self.log
    }

    pub fn route_cache(&self) -> &RouteCache {
        &self.cache
    }

    /// Packets in the send buffer.
    pub fn buffered(&self) -> usize {
        self.send_buffer.len()
    }

    /// Packets the agent holds: the send buffer and packets waiting in its send queue.
    pub fn held(&self) -> usize {
        self.send_buffer.len()
            + self
                .pending
                .iter()
                .filter(|(_, _, d)| !matches!(d, Delayed::Control(_)))
                .count()
    }

    pub(super) fn note_ctx(&mut self, ctx: &RouteCtx, iface: Option<IfaceId>) {
        if let Some(&a) = ctx.addrs.first() {
            self.me = a;
        }
        self.iface = iface.or_else(|| ctx.ifaces.first().copied()).or(self.iface);
    }

    pub(super) fn later(&mut self, at: SimTime, d: Delayed) {
        self.pending_seq += 1;
        let key = (at, self.pending_seq);
        let i = self.pending.partition_point(|(t, s, _)| (*t, *s) <= key);
        self.pending.insert(i, (at, self.pending_seq, d));
    }

    fn jitter(&mut self) -> SimTime {
        let j = self.cfg.rreq_jitter.as_nanos();
        if j == 0 {
            SimTime::ZERO
        } else {
            SimTime::from_nanos(self.rng.below(j))
        }
    }

    /// Moves the sends due at or before `now` into `out`.
    pub(super) fn flush(&mut self, now: SimTime, out: &mut RoutingOutput) {
        let n = self.pending.partition_point(|(t, _, _)| *t <= now);
        for (_, _, d) in self.pending.drain(..n) {
            match d {
                Delayed::Control(c) => out.control.push(c),
                Delayed::Send(p, i, nh) => out.send.push((p, i, nh)),
                Delayed::Drop(p, why) => out.drops.push((p, why)),
            }
        }
    }

    pub fn next_timer(&self) -> Option<SimTime> {
        let p = self.pending.first().map(|(t, _, _)| *t);
        match (p, self.buffer_check_at) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    pub fn on_timer(&mut self, now: SimTime, out: &mut RoutingOutput) {
        self.flush(now, out);
        if self.buffer_check_at.is_some_and(|t| t <= now) {
            self.check_send_buffer(now, out);
            // The check's requests wait their jitter in the send queue; without jitter they
            // are due now.
            self.flush(now, out);
        }
    }

    /// Sends a route request this node originates after U(0, `rreq_jitter`): ns-2
    /// `sendOutRtReq` hands every request to `sendOutPacketWithRoute`, which jitters all
    /// route requests, its own ones as well as re-broadcasts. The discovery state (back-off,
    /// ring-zero time, the held route error) is that of the decision, `now`.
    fn send_request(&mut self, now: SimTime, c: ControlSend) {
        let at = now + self.jitter();
        self.later(at, Delayed::Control(c));
    }

    // ---- Sending data ------------------------------------------------------------------

    /// Puts `route` (this node first) on `packet` as a plain source route and says where
    /// it goes: RFC 4728 §8.1.1. For a packet of another node (salvaged); its extra IP
    /// header stays with it.
    pub(super) fn source_routed(packet: &mut Packet, route: Vec<Addr>, salvaged: u8) -> Addr {
        let next_hop = route[1];
        let ip_overhead = packet.source_route().map_or(0, |sr| sr.ip_overhead);
        packet.set_source_route(SourceRoute {
            path: route,
            next: 1,
            salvaged,
            flow: FlowHeader::None,
            flow_id: 0,
            ip_overhead,
        });
        next_hop
    }

    /// Sends this node's own data `packet` on `route` (from the cache, this node first):
    /// under flow state the route may be the default flow's instead and the packet carries
    /// the flow's header (ns-2 `sendOutPacketWithRoute` for `p.src == net_id`). Returns the
    /// next hop.
    pub(super) fn route_own(
        &mut self,
        now: SimTime,
        packet: &mut Packet,
        route: Vec<Addr>,
    ) -> Addr {
        let (path, flow) = match &self.cfg.flow_state {
            Some(cfg) => self.flows.stamp(cfg, now, packet.ip.dst, route),
            None => (route, FlowHeader::None),
        };
        let next_hop = path[1];
        if self.cfg.flow_state.is_some() && self.log.enabled() {
            let entry = DsrLogEntry::FlowSend {
                uid: packet.ns2_uid,
                src: packet.ip.src,
                dst: packet.ip.dst,
                flow_id: self.flows.last_id(),
                flow_header: flow != FlowHeader::Established,
                next_hop,
                route: (flow == FlowHeader::Establishing).then(|| path.clone()),
            };
            self.log.push(now, entry);
        }
        let flow_id = match self.cfg.flow_state {
            Some(_) => self.flows.last_id(),
            None => 0,
        };
        packet.set_source_route(SourceRoute {
            path,
            next: 1,
            salvaged: 0,
            flow,
            flow_id,
            ip_overhead: self.cfg.data_ip_overhead,
        });
        next_hop
    }

    /// A link reported broken (a route error, or this node's transmit failure): no cached
    /// route and no flow of this node uses it any more (ns-2 `noticeDeadLink` on the route
    /// cache and the flow table).
    pub(super) fn forget_link(&mut self, now: SimTime, from: Addr, to: Addr) {
        self.cache.remove_link(from, to);
        self.flows.notice_dead_link(now, from, to);
    }

    /// A packet this node originates (RFC 4728 §8.1.1, §8.2.1): source-routed from the
    /// cache, or buffered while a discovery runs.
    pub fn route_output(&mut self, now: SimTime, ctx: &RouteCtx, mut packet: Packet) -> Routed {
        self.note_ctx(ctx, None);
        let dst = packet.ip.dst;
        if ctx.is_local(dst) {
            return Routed::Deliver(packet);
        }
        let Some(iface) = self.iface else {
            return Routed::Drop(packet, DropReason::NoRoute);
        };
        if dst.is_broadcast() {
            return Routed::Forward {
                packet,
                iface,
                next_hop: Addr::BROADCAST,
            };
        }
        if let Some(route) = self.cache.find(dst, Lookup::ForUse) {
            self.stats.cache_hits += 1;
            let next_hop = self.route_own(now, &mut packet, route);
            return Routed::Forward {
                packet,
                iface,
                next_hop,
            };
        }
        self.stats.cache_misses += 1;
        self.buffer_and_discover(now, packet);
        Routed::Held
    }

    /// Buffers a packet without a route and starts a discovery cycle if the back-off
    /// allows (ns-2 `stickPacketInSendBuffer` + `getRouteForPacket`).
    pub(super) fn buffer_and_discover(&mut self, now: SimTime, packet: Packet) {
        let dst = packet.ip.dst;
        if let Some(old) = self.send_buffer.push(now, packet) {
            self.stats.send_buffer_overflows += 1;
            self.later(now, Delayed::Drop(old, DropReason::SendBufferOverflow));
        }
        self.arm_buffer_check(now);
        // ns-2 `getRouteForPacket` for a packet of this node: a new cycle if the back-off
        // allows, else the propagating request if the ring-zero one went unanswered.
        if let Some(c) = self.maybe_start_cycle(now, dst) {
            self.send_request(now, c);
        } else if self.propagating_due(now, dst) {
            let c = self.propagating_request(now, dst);
            self.send_request(now, c);
        }
    }

    /// One period of the send buffer timer: 30 ms, or 30-60 ms with jitter (ns-2
    /// `BUFFER_CHECK + BUFFER_CHECK · uniform(1)`).
    fn check_period(&mut self) -> SimTime {
        let base = self.cfg.buffer_check_interval.as_nanos();
        if self.cfg.buffer_check_jitter && base > 0 {
            SimTime::from_nanos(base + self.rng.below(base))
        } else {
            SimTime::from_nanos(base)
        }
    }

    /// Makes the first tick of the send buffer timer after `now` an event, unless one is
    /// armed. The timer ticks from t = 0 whether or not packets wait (ns-2 starts it with
    /// the agent); the ticks that passed while the buffer was empty are drawn here, which
    /// gives the same tick times as running it all along.
    fn arm_buffer_check(&mut self, now: SimTime) {
        if self.buffer_check_at.is_some() {
            return;
        }
        let mut tick = match self.last_check_tick {
            Some(t) => t,
            None => self.check_period(),
        };
        while tick <= now && self.cfg.buffer_check_interval > SimTime::ZERO {
            tick += self.check_period();
        }
        self.last_check_tick = Some(tick);
        self.buffer_check_at = Some(tick);
    }

    /// Buffers a data packet of another node that could not be salvaged from the cache
    /// (ns-2 `NEW_SALVAGE_LOGIC`): it keeps its source route, whose salvage count goes on
    /// with it, and no request goes until the next send buffer check.
    /// `old_route_octets`: the octets of the source route the packet carried when it came
    /// back (see `DsrConfig::buffered_salvage_keeps_old_route_octets`).
    pub(super) fn buffer_salvaged(
        &mut self,
        now: SimTime,
        mut packet: Packet,
        old_route_octets: u32,
    ) {
        if self.cfg.buffered_salvage_keeps_old_route_octets {
            // They become part of the packet: they stay on it up to the agent at the
            // destination, where only the new route is taken off.
            packet.size += old_route_octets;
        }
        if let Some(old) = self.send_buffer.push(now, packet) {
            self.stats.send_buffer_overflows += 1;
            self.later(now, Delayed::Drop(old, DropReason::SendBufferOverflow));
        }
        self.arm_buffer_check(now);
    }

    /// The periodic send buffer check (ns-2 `sendBufferCheck`, every 30 ms): drop expired
    /// packets, send those that now have a cached route, and drive each target's discovery
    /// as ns-2 `getRouteForPacket` does for the oldest packet waiting for it: a new cycle
    /// (a ring-zero request) once the back-off has passed, else the propagating request once
    /// the ring-zero one is `nonprop_request_timeout` old. For a packet of another node (a
    /// salvaged one) the cycle after the `salvage_max_requests`-th drops it instead, and no
    /// propagating request goes unless `salvage_allow_propagating`.
    fn check_send_buffer(&mut self, now: SimTime, out: &mut RoutingOutput) {
        for p in self.send_buffer.expire(now) {
            self.stats.send_buffer_timeouts += 1;
            out.drops.push((p, DropReason::SendBufferTimeout));
        }
        self.release_routable(now, out);
        let me = self.me;
        for (target, oldest_is_ours) in self.send_buffer.targets_and_oldest(|p| p.ip.src == me) {
            if self.cycle_due(now, target) {
                let d = self.discoveries.entry(target);
                d.cycles += 1;
                d.last_cycle = now;
                if !oldest_is_ours && d.cycles > self.cfg.salvage_max_requests {
                    if let Some(p) = self.send_buffer.take_oldest_to(target) {
                        out.drops.push((p, DropReason::SalvageNoRoute));
                    }
                    continue;
                }
                d.ring_zero_at = Some(now);
                let c = self.new_request(now, target, 1);
                self.send_request(now, c);
                continue;
            }
            let may_propagate = self.cfg.salvage_allow_propagating
                || self.send_buffer.has_packet_to(target, |p| p.ip.src == me);
            if may_propagate && self.propagating_due(now, target) {
                let c = self.propagating_request(now, target);
                self.send_request(now, c);
            }
        }
        // The timer goes on ticking; the next tick is an event only while packets wait.
        self.buffer_check_at = None;
        self.last_check_tick = Some(now);
        if !self.send_buffer.is_empty() {
            self.arm_buffer_check(now);
        }
    }

    /// Whether `target`'s ring-zero request is more than `nonprop_request_timeout` old
    /// with no reply (ns-2: last request LIMIT0 and `time - last_arp > arp_timeout`).
    fn propagating_due(&self, now: SimTime, target: Addr) -> bool {
        self.discoveries
            .get(target)
            .and_then(|d| d.ring_zero_at)
            .is_some_and(|t| now > t + self.cfg.nonprop_request_timeout)
    }

    /// The propagating request of `target`'s current cycle.
    fn propagating_request(&mut self, now: SimTime, target: Addr) -> ControlSend {
        if let Some(d) = self.discoveries.get_mut(target) {
            d.ring_zero_at = None;
        }
        let hop_limit = self.cfg.max_sr_len.min(u8::MAX as usize) as u8;
        self.new_request(now, target, hop_limit)
    }

    /// Whether the back-off lets a new discovery cycle for `target` start now (ns-2
    /// `BackOffTest`: min(period · 4^cycles, max) after the last one).
    fn cycle_due(&self, now: SimTime, target: Addr) -> bool {
        let (period, max) = (self.cfg.request_period, self.cfg.max_request_period);
        self.discoveries
            .get(target)
            .is_none_or(|d| d.cycles == 0 || now >= d.last_cycle + cycle_gap(period, max, d.cycles))
    }

    /// Sends every buffered packet whose destination the cache now reaches.
    fn release_routable(&mut self, now: SimTime, out: &mut RoutingOutput) {
        let Some(iface) = self.iface else { return };
        let cache = &mut self.cache;
        let released = self
            .send_buffer
            .take_routable(|dst| cache.find(dst, Lookup::ForUse));
        let me = self.me;
        for (mut p, route) in released {
            self.stats.cache_hits += 1;
            let nh = if p.ip.src == me && !matches!(p.payload, Payload::Control(_)) {
                self.route_own(now, &mut p, route)
            } else {
                // A salvaged packet of another node keeps its salvage count; a reply or
                // error of this node goes out with a plain source route.
                let salvaged = p.source_route().map_or(0, |sr| sr.salvaged);
                Self::source_routed(&mut p, route, salvaged)
            };
            out.send.push((p, iface, nh));
        }
        if self.send_buffer.is_empty() {
            self.buffer_check_at = None;
        }
    }

    // ---- Route discovery (RFC 4728 §8.2) -----------------------------------------------

    /// Starts a discovery cycle for `target` with a ring-zero request if none is under way
    /// and the back-off since the last cycle has passed (link-spec §4.2).
    fn maybe_start_cycle(&mut self, now: SimTime, target: Addr) -> Option<ControlSend> {
        if !self.cycle_due(now, target) {
            return None;
        }
        let d = self.discoveries.entry(target);
        d.cycles += 1;
        d.last_cycle = now;
        d.ring_zero_at = Some(now);
        Some(self.new_request(now, target, 1))
    }

    /// A route request from this node (RFC 4728 §8.2.1), broadcast on its interface. The
    /// last route error this node was told of rides on it if younger than
    /// `max_error_hold`; it stays held for the next request until a propagating one
    /// carried it (ns-2 `sendOutRtReq`).
    fn new_request(&mut self, now: SimTime, target: Addr, hop_limit: u8) -> ControlSend {
        self.next_request_id = self.next_request_id.wrapping_add(1);
        self.stats.rreq_originated += 1;
        let me = self.me;
        self.requests.insert(me, self.next_request_id);
        let mut route_error = None;
        if let Some((at, from, to)) = self.held_error {
            if self.cfg.propagate_last_error && now < at + self.cfg.max_error_hold {
                route_error = Some((from, to));
                if hop_limit > 1 {
                    self.held_error = None;
                }
            }
        }
        ControlSend {
            msg: ControlMessage::DsrRouteRequest {
                initiator: me,
                target,
                id: self.next_request_id,
                route: vec![me],
                hop_limit,
                route_error,
            },
            src: me,
            dst: Addr::BROADCAST,
            via: self.iface.map(|i| (i, Addr::BROADCAST)),
            source_route: None,
            passes_on: None,
        }
    }

    /// A route reply from this node carrying `reply_route`, sent back along `back` (this
    /// node first, the initiator last).
    /// `request_id`: the request answered (0 for a gratuitous reply); `ttl`:
    /// [`DSR_REPLY_TTL`], less one for the target's own reply (see
    /// [`ControlMessage::DsrRouteReply`]).
    fn reply(
        &self,
        reply_route: Vec<Addr>,
        back: Vec<Addr>,
        iface: IfaceId,
        request_id: u16,
        ttl: u8,
    ) -> ControlSend {
        ControlSend {
            msg: ControlMessage::DsrRouteReply {
                route: reply_route,
                request_id,
                ttl,
            },
            src: self.me,
            dst: *back.last().expect("a route back has two addresses"),
            via: Some((iface, back[1])),
            source_route: Some(SourceRoute {
                path: back,
                next: 1,
                salvaged: 0,
                ..SourceRoute::default()
            }),
            passes_on: None,
        }
    }

    /// A route request arrived (RFC 4728 §8.2.2; ns-2 `handleRouteRequest`).
    fn on_request(&mut self, now: SimTime, ctx: &RouteCtx, iface: IfaceId, packet: &Packet) {
        let Payload::Control(ControlMessage::DsrRouteRequest {
            initiator,
            target,
            id,
            route,
            hop_limit,
            route_error,
        }) = &packet.payload
        else {
            return;
        };
        let (initiator, target, id, hop_limit) = (*initiator, *target, *id, *hop_limit);
        let route_error = *route_error;
        if let Some((from, to)) = route_error {
            // A gratuitous route error on the request: forget the link before anything
            // else, duplicates included (ns-2 `recv` snoops it before the request).
            self.forget_link(now, from, to);
        }
        let me = self.me;
        if ctx.is_local(initiator) || route.iter().any(|a| ctx.is_local(*a)) {
            // Our own request, or one that already went through us: a loop.
            self.stats.rreq_suppressed += 1;
            return;
        }
        if ctx.is_local(target) {
            // The target answers every copy (ns-2: reply-only-to-first off) over the
            // reversed accumulated route, links assumed bidirectional (link-spec §4.2).
            let mut full = route.clone();
            full.push(me);
            let back: Vec<Addr> = full.iter().rev().copied().collect();
            self.cache.add_primary(back.clone());
            self.requests.insert(initiator, id);
            self.stats.rrep_originated += 1;
            let c = self.reply(full, back, iface, id, DSR_REPLY_TTL - 1);
            let at = now + self.jitter();
            self.later(at, Delayed::Control(c));
            return;
        }
        if self.requests.is_duplicate(initiator, id) {
            self.stats.rreq_suppressed += 1;
            return;
        }
        self.requests.insert(initiator, id);
        if self.cfg.reply_from_cache {
            if let Some(cached) = self.cache.find(target, Lookup::Peek) {
                // Cached route reply (RFC 4728 §8.2.3): accumulated route + cached route,
                // only if it has no loop and fits in a source route.
                let mut full = route.clone();
                full.extend_from_slice(&cached);
                let loop_free = full
                    .iter()
                    .enumerate()
                    .all(|(i, a)| !full[i + 1..].contains(a));
                if loop_free && full.len() <= self.cfg.max_sr_len {
                    let mut back: Vec<Addr> = route.iter().rev().copied().collect();
                    back.insert(0, me);
                    // ns-2 `replyFromRouteCache` caches the way back to the initiator.
                    self.cache.add_primary(back.clone());
                    self.stats.rrep_from_cache += 1;
                    // No jitter: ns-2 `replyFromRouteCache` sends the reply at once
                    // (`sendOutPacketWithRoute` jitters only requests), unlike the target's
                    // own reply (`returnSrcRouteToRequestor`, U(0, RREQ_JITTER)).
                    let c = self.reply(full, back, iface, id, DSR_REPLY_TTL);
                    self.later(now, Delayed::Control(c));
                    return;
                }
            }
        }
        // Hop limit (1 for ring-zero) and MAX_SR_LEN: after this node and the target the
        // route must still fit.
        if route.len() >= hop_limit as usize || route.len() + 2 > self.cfg.max_sr_len {
            self.stats.rreq_suppressed += 1;
            return;
        }
        let mut grown = route.clone();
        grown.push(me);
        self.stats.rreq_forwarded += 1;
        let c = ControlSend {
            msg: ControlMessage::DsrRouteRequest {
                initiator,
                target,
                id,
                route: grown,
                hop_limit,
                route_error,
            },
            src: initiator,
            dst: Addr::BROADCAST,
            via: Some((iface, Addr::BROADCAST)),
            source_route: None,
            // ns-2 `handleRouteRequest` re-broadcasts the request it received, grown by
            // this node (`sendOutPacketWithRoute`): the same packet, uid and all.
            passes_on: Some(PassedOn::of(packet)),
        };
        let at = now + self.jitter();
        self.later(at, Delayed::Control(c));
    }

    /// A route reply reached its initiator (RFC 4728 §8.2.4): cache the route, restart the
    /// target's back-off and send what the buffer holds for destinations now reachable.
    /// The packets leave `reply_release_spacing` apart (ns-2 `acceptRouteReply`).
    fn on_reply_at_initiator(&mut self, now: SimTime, route: &[Addr]) {
        self.cache.add_primary(route.to_vec());
        if let Some(&target) = route.last() {
            self.discoveries.route_found(target);
        }
        let mut out = RoutingOutput::default();
        self.release_routable(now, &mut out);
        let mut at = now;
        for (p, i, nh) in out.send {
            self.later(at, Delayed::Send(p, i, nh));
            at += self.cfg.reply_release_spacing;
        }
    }

    // ---- Receiving (RFC 4728 §8.1.4) ---------------------------------------------------

    /// A packet that arrived on `iface`: a broadcast request, or a source-routed packet
    /// whose next hop is this node.
    pub fn route_input(
        &mut self,
        now: SimTime,
        ctx: &RouteCtx,
        iface: IfaceId,
        mut packet: Packet,
    ) -> Routed {
        self.note_ctx(ctx, Some(iface));
        if matches!(
            packet.payload,
            Payload::Control(ControlMessage::DsrRouteRequest { .. })
        ) {
            self.on_request(now, ctx, iface, &packet);
            return Routed::Consumed(packet);
        }
        let Some(sr) = packet.source_route().cloned() else {
            let dst = packet.ip.dst;
            return if ctx.is_local(dst) || dst.is_broadcast() {
                Routed::Deliver(packet)
            } else {
                Routed::Drop(packet, DropReason::NoRoute)
            };
        };
        // Snooping what passes through (MobiCache noticeRouteUsed): our part of the route.
        let me_at = sr
            .path
            .iter()
            .position(|a| ctx.is_local(*a))
            .unwrap_or(sr.next.min(sr.path.len() - 1));
        // A packet of an established flow shows no route (ns-2 forwards it by flow id).
        if self.cfg.tap && sr.carries_path() && me_at + 1 < sr.path.len() {
            self.cache.add_secondary(sr.path[me_at..].to_vec());
        }
        self.process_route_error(now, ctx, &packet);
        if me_at + 1 >= sr.path.len() {
            // Last hop: strip the source route (RFC 4728 §8.1.4).
            packet.remove_source_route();
            return match &packet.payload {
                Payload::Control(ControlMessage::DsrRouteReply { route, .. }) => {
                    let route = route.clone();
                    if route.first().is_some_and(|a| ctx.is_local(*a)) {
                        self.on_reply_at_initiator(now, &route);
                    }
                    Routed::Consumed(packet)
                }
                Payload::Control(_) => Routed::Consumed(packet),
                _ => Routed::Deliver(packet),
            };
        }
        // Intermediate hop (RFC 4728 §8.1.5): the next address of the route.
        let next = me_at + 1;
        let next_hop = sr.path[next];
        if let Some(s) = packet.source_route_mut() {
            s.next = next;
        }
        match &packet.payload {
            // ns-2 `handleForwarding` learns only the packet's own source route (above),
            // not the route a reply carries; the tap skips packets for this node.
            Payload::Control(ControlMessage::DsrRouteReply { .. }) => {
                self.stats.rrep_forwarded += 1;
            }
            Payload::Control(ControlMessage::DsrRouteError { .. }) => {
                self.stats.rerr_forwarded += 1;
            }
            // A packet of an established flow: ns-2 forwards it from its flow table
            // (`handleFlowForwarding`) and logs it.
            _ if !sr.carries_path() => {
                let entry = DsrLogEntry::FlowForward {
                    uid: packet.ns2_uid,
                    src: packet.ip.src,
                    dst: packet.ip.dst,
                    next_hop,
                };
                self.log.push(now, entry);
            }
            _ => {}
        }
        Routed::Forward {
            packet,
            iface,
            next_hop,
        }
    }

    // ---- Promiscuous tap (RFC 4728 §8.3.4-§8.3.5, §8.4.3; ns-2 `DSRAgent::tap`) --------

    /// A frame overheard for another node: learn its route (secondary cache), remove links
    /// its route error reports, and shorten its route with a gratuitous reply when this
    /// node appears in it later than the next hop.
    pub fn on_overheard(
        &mut self,
        now: SimTime,
        ctx: &RouteCtx,
        iface: IfaceId,
        packet: &Packet,
        out: &mut RoutingOutput,
    ) {
        self.note_ctx(ctx, Some(iface));
        if !self.cfg.tap {
            return;
        }
        // ns-2 `tap` ignores this node's own packets.
        if ctx.is_local(packet.ip.src) {
            return;
        }
        // Only a packet with its source route on the air gets further (ns-2 `tap`: one of
        // an established flow goes to `processFlowARS`, not modelled), and with
        // `filter_tap` only once per packet (`DSR_FILTER_TAP`).
        let Some(sr) = packet.source_route().filter(|sr| sr.carries_path()) else {
            return;
        };
        if self.cfg.filter_tap && !self.first_tap_of(packet.ns2_uid) {
            return;
        }
        self.process_route_error(now, ctx, packet);
        // An overheard reply: the part of its route from this node on, if this node is in
        // it (ns-2 `tap` → `noticeRouteUsed` of the reply's route).
        if let Payload::Control(ControlMessage::DsrRouteReply { route, .. }) = &packet.payload {
            if let Some(i) = route.iter().position(|a| ctx.is_local(*a)) {
                if i + 1 < route.len() {
                    self.cache.add_secondary(route[i..].to_vec());
                }
            }
        }
        if sr.next == 0 || sr.next >= sr.path.len() {
            return;
        }
        // The transmitter is path[next - 1]: this node heard it, so it is a neighbour.
        let sender = sr.next - 1;
        match sr.path.iter().position(|a| ctx.is_local(*a)) {
            None => {
                let mut learned = vec![self.me];
                learned.extend_from_slice(&sr.path[sender..]);
                self.cache.add_secondary(learned);
            }
            // On the route: the part from this node on, wherever it is (ns-2
            // `pre_noticeRouteUsed`); a gratuitous reply when it is further down the route
            // than the receiver, for data only.
            Some(j) => {
                if j + 1 < sr.path.len() {
                    self.cache.add_secondary(sr.path[j..].to_vec());
                }
                if j > sr.next && !matches!(packet.payload, Payload::Control(_)) {
                    self.gratuitous_reply(now, iface, &sr.path, sender, j, out);
                }
            }
        }
        self.flush(now, out);
    }

    /// Whether the tap sees packet `uid` for the first time, as ns-2.35's `DSR_FILTER_TAP`
    /// decides it: a cache of 1024 uids, slot `uid mod 1024`, a newer uid taking the slot
    /// over (so a packet can pass again once another took its slot); zeroed at the start,
    /// so uid 0 counts as seen. Records it.
    fn first_tap_of(&mut self, uid: u64) -> bool {
        if self.tap_seen.is_empty() {
            self.tap_seen = vec![0; TAP_CACHE_SIZE];
        }
        let slot = &mut self.tap_seen[(uid % TAP_CACHE_SIZE as u64) as usize];
        if *slot == uid {
            return false;
        }
        *slot = uid;
        true
    }

    /// Automatic route shortening (RFC 4728 §8.4.3): path[sender] reaches this node
    /// (path[j]) directly, so the originator may skip path[sender+1..j]. The reply carries
    /// the shortened route and goes back along the heard prefix; one per route per
    /// `grat_reply_holdoff`.
    fn gratuitous_reply(
        &mut self,
        now: SimTime,
        iface: IfaceId,
        path: &[Addr],
        sender: usize,
        j: usize,
        out: &mut RoutingOutput,
    ) {
        let holdoff = self.cfg.grat_reply_holdoff;
        self.grat_sent.retain(|(_, t)| *t + holdoff > now);
        if self.grat_sent.iter().any(|(r, _)| r == path) {
            return;
        }
        self.grat_sent.push((path.to_vec(), now));
        let mut short = path[..=sender].to_vec();
        short.extend_from_slice(&path[j..]);
        let mut back = vec![self.me];
        back.extend(path[..=sender].iter().rev());
        self.stats.rrep_gratuitous += 1;
        out.control
            .push(self.reply(short, back, iface, 0, DSR_REPLY_TTL));
    }

    /// A route error received, forwarded or overheard (ns-2 `processBrokenRouteError`):
    /// every node it passes removes the link (RFC 4728 §8.3.5); the node it is for holds it
    /// for its next route requests (`route_error_held`).
    fn process_route_error(&mut self, now: SimTime, ctx: &RouteCtx, packet: &Packet) {
        if let Payload::Control(ControlMessage::DsrRouteError {
            from,
            to,
            originator,
        }) = packet.payload
        {
            self.forget_link(now, from, to);
            if ctx.is_local(originator) {
                self.held_error = Some((now, from, to));
            }
        }
    }

    /// Interfaces going down or up: DSR learns of broken links only from transmit
    /// failures (ns-2), so nothing to do.
    pub fn on_interface_change(&mut self, now: SimTime, iface: IfaceId, up: bool) {
        let _ = (now, iface, up);
    }

    /// Address changes: the next call with a context picks up the new primary address.
    pub fn on_address_change(&mut self, now: SimTime, addr: Addr, added: bool) {
        let _ = (now, addr, added);
    }
}
