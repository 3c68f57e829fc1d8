//! DSR route maintenance (RFC 4728 §8.3, §8.4) as ns-2 does it (link-spec §4.2): the 802.11
//! MAC's retry-limit failure is the only link feedback (`xmitFailed`). The MAC hands the
//! failed packets back one by one (it may return several queued for the same next hop);
//! for each:
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
//!    `salvage_max_requests` is 0.

use super::agent::DsrAgent;
use super::log::DsrLogEntry;
use super::route_cache::Lookup;
use crate::net::addr::{Addr, IfaceId};
use crate::net::control::ControlMessage;
use crate::net::iface::TxFailureCause;
use crate::net::packet::{DropReason, Packet, Payload, SourceRoute};
use crate::routing::{ControlSend, RouteCtx, RoutingOutput};
use crate::sim::SimTime;

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
