//! DSR route maintenance (RFC 4728 §8.3, §8.4) as ns-2 does it (link-spec §4.2): the 802.11
//! MAC's retry-limit failure is the only link feedback (`xmitFailed`). For the packet the
//! link layer gave up on:
//! 0. a packet this node sent on an established flow, without its source route on the air,
//!    is first looked up in the flow table (ns-2.35 `xmitFlowFailed`, see
//!    `DsrConfig::flow_failure_by_flow_table`): its flow dead, it is lost untraced and
//!    nothing below happens; alive, the flow's route is the one that failed;
//! 1. the link this node → next hop is removed from the route cache;
//! 2. a route error goes to the source of the packet's route along the reversed prefix of
//!    that route, unless this node is that source, the packet is itself a route error, or
//!    the same error (link, source) was already sent at this instant;
//! 3. the packet is salvaged as ns-2 `undeliverablePkt` does, control packets (route
//!    replies, route errors) as well as data: a packet this node originated goes out on
//!    another cached route or back into the send buffer with a new discovery
//!    (`handlePktWithoutSR`); a packet of another node takes another cached route with its
//!    salvage count raised, at most `max_salvage_count` times (else `salvage_limit`) —
//!    a route reply whose route uses the broken link is dropped instead
//!    (`dsragent_dont_salvage_bad_replies`, `link_failure`); without a cached route it
//!    waits in the send buffer for a ring-zero discovery of its own (ns-2's
//!    `NEW_SALVAGE_LOGIC`, `dsr_salvage_max_requests`; see
//!    `DsrAgent::check_send_buffer`), or is dropped at once (`salvage_no_route`) when
//!    `salvage_max_requests` is 0;
//! 4. the packets waiting in the interface queue for the same next hop are taken out and
//!    come back one by one (`TxFailureCause::Queued`; ns-2 `xmitFailed`'s
//!    `prq_get_nexthop` loop), each only salvaged (step 3).

use super::agent::DsrAgent;
use super::log::DsrLogEntry;
use super::route_cache::Lookup;
use crate::net::addr::{Addr, IfaceId};
use crate::net::control::ControlMessage;
use crate::net::iface::TxFailureCause;
use crate::net::packet::{DropReason, Packet, Payload, SourceRoute};
use crate::routing::{ControlSend, RouteCtx, RoutingOutput};
use crate::sim::SimTime;

/// What the flow table makes of a packet the link layer gave back
/// ([`DsrAgent::on_tx_failure`]).
enum FlowFailure {
    /// It carried its source route (or flow state is off, or it is not this node's).
    NotAFlowPacket,
    /// Its flow is dead: lost untraced (ns-2.35 `xmitFlowFailed` returns).
    Lost,
    /// Its flow is alive: the failure is that of the flow's route, whose next hop this is.
    OnRoute(Addr),
}

impl DsrAgent {
    /// The link layer of `iface` could not deliver `packet` to `next_hop`: the packet the
    /// MAC or ARP gave up on (ns-2 `xmitFailed`), or, `cause` `Queued`, one that waited in
    /// the interface queue for that hop (ns-2 takes those out and salvages them).
    #[allow(clippy::too_many_arguments)]
    pub fn on_tx_failure(
        &mut self,
        now: SimTime,
        ctx: &RouteCtx,
        iface: IfaceId,
        next_hop: Addr,
        cause: TxFailureCause,
        packet: Packet,
        out: &mut RoutingOutput,
    ) {
        self.note_ctx(ctx, Some(iface));
        let me = self.me;
        let mut packet = packet;
        let mut next_hop = next_hop;
        if cause != TxFailureCause::Queued {
            match self.flow_failure(now, ctx, &mut packet) {
                FlowFailure::NotAFlowPacket => {}
                FlowFailure::Lost => {
                    out.drops.push((packet, DropReason::DeadFlow));
                    self.flush(now, out);
                    return;
                }
                FlowFailure::OnRoute(hop) => next_hop = hop,
            }
            // ns-2 `xmitFailed` takes the packets queued for the lost hop out of the
            // interface queue (`prq_get_nexthop`) once it has salvaged this one; they come
            // back as `Queued` failures.
            out.reclaim_queued.push((iface, next_hop));
        }
        self.forget_link(now, me, next_hop);
        let Some(sr) = packet.source_route().cloned() else {
            out.drops.push((packet, DropReason::LinkFailure));
            self.flush(now, out);
            return;
        };
        let me_at = sr
            .path
            .iter()
            .position(|a| ctx.is_local(*a))
            .unwrap_or(sr.next.saturating_sub(1));
        // ns-2 `xmitFailed` logs the failed packet; the ones queued behind it for the same
        // next hop are only salvaged.
        if self.log.enabled() && self.log.first_failure(now, next_hop) {
            let entry = DsrLogEntry::SendFailure {
                packet: Box::new(packet.clone()),
                from: me,
                to: next_hop,
                route: sr.path.clone(),
                at: me_at,
            };
            self.log.push(now, entry);
        }
        let route_source = sr.path[0];
        let is_error = matches!(
            packet.payload,
            Payload::Control(ControlMessage::DsrRouteError { .. })
        );
        let already_sent = self.last_rerr == Some((now, me, next_hop, route_source));
        // Only the packet the MAC gave up on makes a route error (ns-2 `xmitFailed`); those
        // queued for the same hop are only salvaged, whoever their source.
        let failed_here = cause != TxFailureCause::Queued;
        if failed_here && me_at > 0 && !ctx.is_local(route_source) && !is_error && !already_sent {
            // RFC 4728 §8.3.4: the error goes to the packet's source over the reversed
            // prefix of its route (links assumed bidirectional, link-spec §4.2).
            let back: Vec<Addr> = sr.path[..=me_at].iter().rev().copied().collect();
            self.last_rerr = Some((now, me, next_hop, route_source));
            self.stats.rerr_originated += 1;
            out.control.push(ControlSend {
                msg: ControlMessage::DsrRouteError {
                    from: me,
                    to: next_hop,
                    originator: route_source,
                },
                src: me,
                dst: route_source,
                via: Some((iface, back[1])),
                source_route: Some(SourceRoute {
                    path: back,
                    next: 1,
                    salvaged: 0,
                    ..SourceRoute::default()
                }),
                passes_on: None,
            });
        }
        // The source route the packet carries as ns-2 salvages it, flow state stripped: the
        // packet the MAC gave up on always has one (ns-2 `xmitFlowFailed` fills in its
        // flow's route), a queued packet on an established flow none (4 fixed octets plus
        // 4 per address after the first, ns-2 `hdr_sr::size`).
        let old_route_octets = if cause != TxFailureCause::Queued || sr.carries_path() {
            4 + 4 * (sr.path.len().max(1) as u32 - 1)
        } else {
            0
        };
        self.salvage(now, ctx, iface, packet, next_hop, old_route_octets, out);
        self.flush(now, out);
    }

    /// A packet the link layer gave back (not one queued behind it) that this node sent
    /// without a source route on the air, on one of its established flows: ns-2.35 hands
    /// it to `xmitFlowFailed` instead of `xmitFailed`, which looks the flow up in the flow
    /// table as it is *now* (for a bare packet the destination's current default flow). A
    /// live flow's route goes into the packet, and its next hop is the link reported
    /// broken; a flow that died (a link of its route reported broken, or 60 s unused) or
    /// is unknown makes ns-2 return without a trace: the packet is gone, no link is
    /// removed, no route error goes, the queue is left alone.
    fn flow_failure(&mut self, now: SimTime, ctx: &RouteCtx, packet: &mut Packet) -> FlowFailure {
        if self.cfg.flow_state.is_none() {
            return FlowFailure::NotAFlowPacket;
        }
        let dst = packet.ip.dst;
        let by_table = self.cfg.flow_failure_by_flow_table;
        let own = ctx.is_local(packet.ip.src);
        let Some(sr) = packet.source_route_mut() else {
            return FlowFailure::NotAFlowPacket;
        };
        if sr.carries_path() || !own {
            return FlowFailure::NotAFlowPacket;
        }
        match self
            .flows
            .live_route_of_failed(now, dst, sr.flow, sr.flow_id)
        {
            Some(route) if by_table => {
                if sr.path != route {
                    sr.path = route.to_vec();
                }
                sr.next = 1;
                FlowFailure::OnRoute(sr.path[1])
            }
            Some(_) => FlowFailure::NotAFlowPacket,
            None => {
                self.stats.dead_flow_failures += 1;
                if by_table {
                    FlowFailure::Lost
                } else {
                    FlowFailure::NotAFlowPacket
                }
            }
        }
    }

    /// RFC 4728 §8.4.1 salvaging of a packet whose link to `broken_to` broke (ns-2
    /// `undeliverablePkt`): data and control packets alike.
    #[allow(clippy::too_many_arguments)]
    fn salvage(
        &mut self,
        now: SimTime,
        ctx: &RouteCtx,
        iface: IfaceId,
        mut packet: Packet,
        broken_to: Addr,
        old_route_octets: u32,
        out: &mut RoutingOutput,
    ) {
        let dst = packet.ip.dst;
        let salvaged = packet.source_route().map_or(0, |sr| sr.salvaged);
        let control = matches!(packet.payload, Payload::Control(_));
        if ctx.is_local(packet.ip.src) {
            // Our own packet (data, or a reply or error this node originated): another
            // route, or the send buffer and a new discovery (ns-2 `handlePktWithoutSR`).
            if let Some(route) = self.cache.find(dst, Lookup::ForUse) {
                self.stats.cache_hits += 1;
                let nh = if control {
                    Self::source_routed(&mut packet, route, salvaged)
                } else {
                    self.route_own(now, &mut packet, route)
                };
                out.send.push((packet, iface, nh));
            } else {
                self.stats.cache_misses += 1;
                packet.remove_source_route();
                self.buffer_and_discover(now, packet);
            }
            return;
        }
        if salvaged >= self.cfg.max_salvage_count {
            out.drops.push((packet, DropReason::SalvageLimit));
            return;
        }
        match self.cache.find(dst, Lookup::Peek) {
            Some(route) => {
                // ns-2 `dsragent_dont_salvage_bad_replies`: a reply whose route uses the
                // broken link (either way) has no reason to live (checked only when a
                // salvage route exists, as ns-2 does).
                if let Payload::Control(ControlMessage::DsrRouteReply { route: reply, .. }) =
                    &packet.payload
                {
                    let me = self.me;
                    let bad = reply.windows(2).any(|w| {
                        (w[0] == me && w[1] == broken_to) || (w[0] == broken_to && w[1] == me)
                    });
                    if bad {
                        out.drops.push((packet, DropReason::LinkFailure));
                        return;
                    }
                }
                self.stats.salvaged += 1;
                if self.log.enabled() {
                    let entry = DsrLogEntry::Salvaging {
                        uid: packet.ns2_uid,
                        src: packet.ip.src,
                        dst,
                        route: route.clone(),
                    };
                    self.log.push(now, entry);
                }
                let nh = Self::source_routed(&mut packet, route, salvaged + 1);
                out.send.push((packet, iface, nh));
            }
            // ns-2 `undeliverablePkt` → `stickPacketInSendBuffer`: no request goes now; the
            // next send buffer check starts one if the back-off allows.
            None if self.cfg.salvage_max_requests > 0 => {
                let entry = DsrLogEntry::SalvageNoRoute {
                    uid: packet.ns2_uid,
                    src: packet.ip.src,
                    dst,
                    salvaged,
                    buffered: true,
                };
                self.log.push(now, entry);
                self.buffer_salvaged(now, packet, old_route_octets);
            }
            None => {
                let entry = DsrLogEntry::SalvageNoRoute {
                    uid: packet.ns2_uid,
                    src: packet.ip.src,
                    dst,
                    salvaged,
                    buffered: false,
                };
                self.log.push(now, entry);
                out.drops.push((packet, DropReason::SalvageNoRoute));
            }
        }
    }
}
