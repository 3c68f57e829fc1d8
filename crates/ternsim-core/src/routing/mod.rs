//! Routing protocols: one instance per node, asked about every packet the node originates
//! ([`RoutingProtocol::route_output`]) or receives ([`RoutingProtocol::route_input`]), as
//! ns-3's `Ipv4RoutingProtocol` is with `RouteOutput` / `RouteInput`.
//!
//! The answer ([`Routed`]) is one of: forward on an interface to a next hop, deliver
//! locally, hold (the protocol keeps the packet, bounded and with a timeout, while it looks
//! for a route), or drop with a reason. The protocol owns what it holds until it releases or
//! drops it, and the world counts held packets as in flight.
//!
//! The protocol hears: link-layer transmit failures with the packet handed back
//! ([`RoutingProtocol::on_tx_failure`], for salvage and route maintenance), interfaces going
//! down and up, and address changes. It has its own timers (`next_timer` / `on_timer`) through
//! the world's wake mechanism. What it produces goes into a [`RoutingOutput`]: packets to send
//! (released from its buffer or salvaged), control messages to originate (the world makes
//! them packets that travel the same path as data and are counted by kind), and drops.
//!
//! A proactive protocol also gets [`RoutingProtocol::start`] at the start of the run, to
//! learn its node and arm its first timers before any packet exists.
//!
//! Implementations: [`static_routes`] (shortest path, recomputed on topology events, explicit
//! routes); [`dsr`] (Dynamic Source Routing as ns-2 runs it: send buffer, route discovery,
//! path cache, route maintenance by link-layer feedback, snooping); [`aodv`] (RFC 3561 as
//! ns-2 runs it: route queue, expanding ring discovery, sequence-numbered route table with
//! precursors, local repair); [`dsdv`] (Destination-Sequenced Distance Vector as ns-2's
//! `dsdv/` runs it: periodic full dumps and rate-limited triggered updates, even/odd
//! destination sequence numbers, weighted settling time, neighbour timeouts, optional
//! MAC-feedback link breaks); [`dv`] (ns-2's wired `rtproto DV`, run by the world for all
//! nodes at once, its routes installed in static tables). A protocol's messages are variants of
//! [`crate::net::control::ControlMessage`].

pub mod aodv;
pub mod dsdv;
pub mod dsr;
pub mod dv;
pub mod hold;
pub mod static_routes;

use crate::net::addr::{Addr, IfaceId, NodeId};
use crate::net::control::ControlMessage;
use crate::net::iface::TxFailureCause;
use crate::net::packet::{DropReason, Packet, SourceRoute};
use crate::sim::rng::RandomStream;
use crate::sim::SimTime;

pub use aodv::{AodvAgent, AodvConfig, AodvStats};
pub use dsdv::{DsdvAgent, DsdvConfig, DsdvStats};
pub use dsr::{DsrAgent, DsrConfig, DsrStats};
pub use dv::{DvConfig, DvNetwork};
pub use hold::{HoldBuffer, HoldConfig};
pub use static_routes::{Route, StaticRouting};

/// What a protocol may know of its node when it decides.
#[derive(Clone, Copy, Debug)]
pub struct RouteCtx<'a> {
    pub node: NodeId,
    /// The node's addresses, primary first.
    pub addrs: &'a [Addr],
    /// The node's interfaces (a wireless node has one: its NIC on the channel).
    pub ifaces: &'a [IfaceId],
}

impl RouteCtx<'_> {
    #[inline]
    pub fn is_local(&self, dst: Addr) -> bool {
        self.addrs.contains(&dst)
    }
}

/// A routing decision for one packet.
#[derive(Debug)]
pub enum Routed {
    Forward {
        packet: Packet,
        iface: IfaceId,
        next_hop: Addr,
    },
    /// The packet is for this node.
    Deliver(Packet),
    /// The protocol keeps the packet while it discovers a route.
    Held,
    /// The packet was for the protocol itself (a control message it processed, e.g. a route
    /// request or reply): it ends here, counted as delivered.
    Consumed(Packet),
    Drop(Packet, DropReason),
}

impl Routed {
    /// A broadcast a node originates goes out on its (single wireless) interface to
    /// every neighbour; a node without an interface has nowhere to send it.
    pub fn broadcast(packet: Packet, iface: Option<IfaceId>) -> Routed {
        match iface {
            Some(iface) => Routed::Forward {
                packet,
                iface,
                next_hop: Addr::BROADCAST,
            },
            None => Routed::Drop(packet, DropReason::NoRoute),
        }
    }
}

/// A control message a protocol originates: from `src` to `dst`, sent on `via` (interface
/// and next hop) or, when `via` is `None`, routed like any packet the node originates.
/// With a `source_route` the world pushes it as a header on the new packet (its size counts
/// in the packet's size): DSR replies and errors travel source-routed (RFC 4728 §6.3-6.4).
#[derive(Clone, Debug, PartialEq)]
pub struct ControlSend {
    pub msg: ControlMessage,
    pub src: Addr,
    pub dst: Addr,
    pub via: Option<(IfaceId, Addr)>,
    pub source_route: Option<SourceRoute>,
    /// The packet this message passes on, if it is a received one sent on (a flooded AODV
    /// or DSR request): ns-2 forwards the packet it received, so the message keeps that
    /// packet's ns-2 uid and, on its trace lines, the MAC header it arrived with.
    pub passes_on: Option<PassedOn>,
}

/// A received packet that a routing message passes on (see [`ControlSend::passes_on`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PassedOn {
    pub uid: u64,
    pub ns2_uid: u64,
}

impl PassedOn {
    pub fn of(p: &Packet) -> Self {
        PassedOn {
            uid: p.uid,
            ns2_uid: p.ns2_uid,
        }
    }
}

/// What one call into a routing protocol produced, drained by the world after every call.
#[derive(Debug, Default)]
pub struct RoutingOutput {
    /// Packets to transmit now on an interface to a next hop (released or salvaged).
    pub send: Vec<(Packet, IfaceId, Addr)>,
    pub control: Vec<ControlSend>,
    pub drops: Vec<(Packet, DropReason)>,
    /// Next hops whose packets waiting in the interface queue are to be dropped
    /// (`link_failure`): ns-2.35's AODV does it when a neighbour reports a route through it
    /// broken (`recvError`: `ifqueue->filter`).
    pub purge_queued: Vec<(IfaceId, Addr)>,
    /// Next hops whose packets waiting in the interface queue are to come back to the
    /// protocol as transmit failures (`TxFailureCause::Queued`), in queue order, right
    /// after the failure being handled: ns-2.35's DSR takes them out in `xmitFailed`
    /// (`prq_get_nexthop`) and salvages each.
    pub reclaim_queued: Vec<(IfaceId, Addr)>,
}

impl RoutingOutput {
    pub fn is_empty(&self) -> bool {
        self.send.is_empty()
            && self.control.is_empty()
            && self.drops.is_empty()
            && self.purge_queued.is_empty()
            && self.reclaim_queued.is_empty()
    }
}

/// Global configuration of the routing protocol a scenario runs on every node.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RoutingConfig {
    /// Shortest-path static routing; `hold` keeps packets without a route for a while
    /// instead of dropping them.
    Static { hold: Option<HoldConfig> },
    /// Dynamic Source Routing (RFC 4728 as ns-2's `dsr/` runs it, link-spec §4.2).
    Dsr(DsrConfig),
    /// Ad hoc On-Demand Distance Vector routing (RFC 3561 as ns-2's `aodv/` runs it,
    /// link-spec §5.2).
    Aodv(AodvConfig),
    /// Destination-Sequenced Distance Vector routing (Perkins & Bhagwat 1994 as ns-2's
    /// `dsdv/` runs it, manet-spec §1).
    Dsdv(DsdvConfig),
    /// Wired distance-vector routing as ns-2's `$ns rtproto DV` runs it ([`dv`]): the world
    /// runs the protocol for every node and installs its routes in each node's static
    /// table.
    Dv(DvConfig),
}

impl Default for RoutingConfig {
    fn default() -> Self {
        RoutingConfig::Static { hold: None }
    }
}

/// One node's routing protocol instance.
#[derive(Clone, Debug)]
pub enum RoutingProtocol {
    Static(StaticRouting),
    Dsr(Box<DsrAgent>),
    Aodv(Box<AodvAgent>),
    Dsdv(Box<DsdvAgent>),
}

impl RoutingProtocol {
    /// An instance for a node whose name and run seed do not matter (tests): protocols that
    /// draw random numbers use the stream of seed 0 and an empty node name.
    pub fn new(cfg: &RoutingConfig) -> Self {
        Self::for_node(cfg, 0, "")
    }

    /// The instance of node `node_name` in the run with seed `seed`; a protocol that jitters
    /// draws from its own stream `node/<name>/<protocol>`.
    pub fn for_node(cfg: &RoutingConfig, seed: u64, node_name: &str) -> Self {
        match *cfg {
            RoutingConfig::Static { hold } => RoutingProtocol::Static(StaticRouting::new(hold)),
            // DV's state lives in the world's `DvNetwork`, which fills this table.
            RoutingConfig::Dv(_) => RoutingProtocol::Static(StaticRouting::new(None)),
            RoutingConfig::Dsr(c) => RoutingProtocol::Dsr(Box::new(DsrAgent::new(
                c,
                RandomStream::named(seed, &format!("node/{node_name}/dsr")),
            ))),
            RoutingConfig::Aodv(c) => RoutingProtocol::Aodv(Box::new(AodvAgent::new(
                c,
                RandomStream::named(seed, &format!("node/{node_name}/aodv")),
            ))),
            RoutingConfig::Dsdv(c) => RoutingProtocol::Dsdv(Box::new(DsdvAgent::new(
                c,
                RandomStream::named(seed, &format!("node/{node_name}/dsdv")),
            ))),
        }
    }

    /// The run starts: a proactive protocol learns its node and arms its first timers
    /// (DSDV's first full dump); on-demand and static routing wait for packets.
    pub fn start(&mut self, now: SimTime, ctx: &RouteCtx) {
        match self {
            RoutingProtocol::Dsdv(d) => d.start(now, ctx),
            RoutingProtocol::Aodv(a) => a.start(now, ctx),
            RoutingProtocol::Static(_) | RoutingProtocol::Dsr(_) => {}
        }
    }

    /// A packet this node originates (transport agents, tunnel entry, its own control).
    /// `inline(always)`, as is `route_input`: with a plain `inline` both stayed calls, and
    /// static routing's under them, a few dozen instructions per packet per hop to reach a
    /// table lookup (perf: a 1000 s wired run, 1,100.2 M instructions before, 1,083.2 M with
    /// these and static routing's inlined).
    #[inline(always)]
    pub fn route_output(&mut self, now: SimTime, ctx: &RouteCtx, packet: Packet) -> Routed {
        match self {
            RoutingProtocol::Static(s) => s.route_output(now, ctx, packet),
            RoutingProtocol::Dsr(d) => d.route_output(now, ctx, packet),
            RoutingProtocol::Aodv(a) => a.route_output(now, ctx, packet),
            RoutingProtocol::Dsdv(d) => d.route_output(now, ctx, packet),
        }
    }

    /// A packet that arrived on `iface`.
    #[inline(always)]
    pub fn route_input(
        &mut self,
        now: SimTime,
        ctx: &RouteCtx,
        iface: IfaceId,
        packet: Packet,
    ) -> Routed {
        match self {
            RoutingProtocol::Static(s) => s.route_input(now, ctx, packet),
            RoutingProtocol::Dsr(d) => d.route_input(now, ctx, iface, packet),
            RoutingProtocol::Aodv(a) => a.route_input(now, ctx, iface, packet),
            RoutingProtocol::Dsdv(d) => d.route_input(now, ctx, iface, packet),
        }
    }

    /// The link layer of `iface` could not deliver `packet` to `next_hop`, for `cause`.
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
        match self {
            RoutingProtocol::Static(s) => s.on_tx_failure(packet, out),
            RoutingProtocol::Dsr(d) => {
                d.on_tx_failure(now, ctx, iface, next_hop, cause, packet, out)
            }
            RoutingProtocol::Aodv(a) => a.on_tx_failure(now, ctx, iface, next_hop, packet, out),
            RoutingProtocol::Dsdv(d) => d.on_tx_failure(now, ctx, iface, next_hop, packet, out),
        }
    }

    /// A frame the interface overheard that was not addressed to this node (promiscuous
    /// tap, for DSR's route snooping and gratuitous replies). The packet is a copy the
    /// protocol may only read; it is not part of the packet accounting.
    pub fn on_overheard(
        &mut self,
        now: SimTime,
        ctx: &RouteCtx,
        iface: IfaceId,
        packet: &Packet,
        out: &mut RoutingOutput,
    ) {
        match self {
            RoutingProtocol::Static(_) => {}
            RoutingProtocol::Dsr(d) => d.on_overheard(now, ctx, iface, packet, out),
            RoutingProtocol::Aodv(a) => a.on_overheard(now, ctx, iface, packet, out),
            RoutingProtocol::Dsdv(d) => d.on_overheard(now, ctx, iface, packet, out),
        }
    }

    /// An interface of this node went down or came up. Static routing is recomputed
    /// centrally by the world (see [`static_routes`]); on-demand protocols purge or repair.
    pub fn on_interface_change(&mut self, now: SimTime, iface: IfaceId, up: bool) {
        match self {
            RoutingProtocol::Static(_) => {}
            RoutingProtocol::Dsr(d) => d.on_interface_change(now, iface, up),
            RoutingProtocol::Aodv(a) => a.on_interface_change(now, iface, up),
            RoutingProtocol::Dsdv(d) => d.on_interface_change(now, iface, up),
        }
    }

    /// An address was added to (or removed from) this node.
    pub fn on_address_change(&mut self, now: SimTime, addr: Addr, added: bool) {
        match self {
            RoutingProtocol::Static(_) => {}
            RoutingProtocol::Dsr(d) => d.on_address_change(now, addr, added),
            RoutingProtocol::Aodv(a) => a.on_address_change(now, addr, added),
            RoutingProtocol::Dsdv(d) => d.on_address_change(now, addr, added),
        }
    }

    #[inline]
    /// Whether [`Self::next_timer`] can ever be `Some`: static routing only with a hold
    /// buffer; the other protocols always may.
    pub fn may_set_timers(&self) -> bool {
        match self {
            RoutingProtocol::Static(s) => s.has_hold_buffer(),
            RoutingProtocol::Dsr(_) | RoutingProtocol::Aodv(_) | RoutingProtocol::Dsdv(_) => true,
        }
    }

    pub fn next_timer(&self) -> Option<SimTime> {
        match self {
            RoutingProtocol::Static(s) => s.next_timer(),
            RoutingProtocol::Dsr(d) => d.next_timer(),
            RoutingProtocol::Aodv(a) => a.next_timer(),
            RoutingProtocol::Dsdv(d) => d.next_timer(),
        }
    }

    pub fn on_timer(&mut self, now: SimTime, out: &mut RoutingOutput) {
        match self {
            RoutingProtocol::Static(s) => s.on_timer(now, out),
            RoutingProtocol::Dsr(d) => d.on_timer(now, out),
            RoutingProtocol::Aodv(a) => a.on_timer(now, out),
            RoutingProtocol::Dsdv(d) => d.on_timer(now, out),
        }
    }

    /// The DSR counters of this node, if it runs DSR.
    pub fn dsr_stats(&self) -> Option<DsrStats> {
        match self {
            RoutingProtocol::Dsr(d) => Some(d.stats()),
            RoutingProtocol::Static(_) | RoutingProtocol::Aodv(_) | RoutingProtocol::Dsdv(_) => {
                None
            }
        }
    }

    /// The AODV counters of this node, if it runs AODV.
    pub fn aodv_stats(&self) -> Option<AodvStats> {
        match self {
            RoutingProtocol::Aodv(a) => Some(a.stats()),
            RoutingProtocol::Static(_) | RoutingProtocol::Dsr(_) | RoutingProtocol::Dsdv(_) => None,
        }
    }

    /// The DSDV counters of this node, if it runs DSDV.
    pub fn dsdv_stats(&self) -> Option<DsdvStats> {
        match self {
            RoutingProtocol::Dsdv(d) => Some(d.stats()),
            RoutingProtocol::Static(_) | RoutingProtocol::Dsr(_) | RoutingProtocol::Aodv(_) => None,
        }
    }

    /// Packets the protocol holds (in flight for the packet accounting).
    pub fn held(&self) -> usize {
        match self {
            RoutingProtocol::Static(s) => s.held(),
            RoutingProtocol::Dsr(d) => d.held(),
            RoutingProtocol::Aodv(a) => a.held(),
            RoutingProtocol::Dsdv(d) => d.held(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::packet::tests::udp_packet;

    const HOLD: HoldConfig = HoldConfig {
        capacity: 2,
        timeout: SimTime(5_000_000_000),
    };

    fn ctx(addrs: &[Addr]) -> RouteCtx<'_> {
        RouteCtx {
            node: NodeId(0),
            addrs,
            ifaces: &[],
        }
    }

    fn table_to(dst: u32, iface: u32, via: u32) -> Vec<Option<Route>> {
        let mut t = vec![None; dst as usize + 1];
        t[dst as usize] = Some(Route {
            iface: IfaceId(iface),
            next_hop: Addr::nth(via),
        });
        t
    }

    /// Without a hold buffer static routing drops at once (ns-2): `no_route`.
    #[test]
    fn no_route_drops_without_a_hold_buffer() {
        let mut r = RoutingProtocol::new(&RoutingConfig::Static { hold: None });
        let own = [Addr::nth(0)];
        match r.route_output(SimTime::ZERO, &ctx(&own), udp_packet(1, 3, 100)) {
            Routed::Drop(p, why) => assert_eq!((p.uid, why), (1, DropReason::NoRoute)),
            other => panic!("{other:?}"),
        }
    }

    /// A packet held at 1 s is released, on the route's interface and next hop, when a
    /// recomputation at 2 s installs a route to its destination; the protocol then holds
    /// nothing and wants no timer.
    #[test]
    fn a_held_packet_is_released_when_a_route_appears() {
        let mut s = StaticRouting::new(Some(HOLD));
        let own = [Addr::nth(0)];
        let t1 = SimTime::from_secs_f64(1.0);
        assert!(matches!(
            s.route_output(t1, &ctx(&own), udp_packet(1, 3, 100)),
            Routed::Held
        ));
        assert_eq!(s.held(), 1);
        assert_eq!(s.next_timer(), Some(SimTime::from_secs_f64(6.0)));
        let mut out = RoutingOutput::default();
        s.set_table(table_to(2, 7, 5), &mut out); // a route, but to another destination
        assert!(out.is_empty());
        s.set_table(table_to(3, 7, 5), &mut out);
        assert_eq!(out.send.len(), 1);
        let (p, iface, nh) = &out.send[0];
        assert_eq!((p.uid, *iface, *nh), (1, IfaceId(7), Addr::nth(5)));
        assert_eq!(s.held(), 0);
        assert_eq!(s.next_timer(), None);
    }

    /// Held at 1 s and 2 s with a 5 s timeout: the timer at 6 s drops the first with
    /// `hold_timeout`, the second stays until 7 s.
    #[test]
    fn a_held_packet_is_dropped_on_timeout() {
        let mut r = RoutingProtocol::new(&RoutingConfig::Static { hold: Some(HOLD) });
        let own = [Addr::nth(0)];
        let s = SimTime::from_secs_f64;
        r.route_output(s(1.0), &ctx(&own), udp_packet(1, 3, 100));
        r.route_output(s(2.0), &ctx(&own), udp_packet(2, 3, 100));
        assert_eq!(r.next_timer(), Some(s(6.0)));
        let mut out = RoutingOutput::default();
        r.on_timer(s(6.0), &mut out);
        assert_eq!(out.drops.len(), 1);
        assert_eq!(
            (out.drops[0].0.uid, out.drops[0].1),
            (1, DropReason::HoldTimeout)
        );
        assert_eq!((r.held(), r.next_timer()), (1, Some(s(7.0))));
    }

    /// Capacity 2: the third packet is refused with `hold_overflow` and handed back.
    #[test]
    fn a_packet_beyond_the_hold_capacity_is_dropped() {
        let mut r = RoutingProtocol::new(&RoutingConfig::Static { hold: Some(HOLD) });
        let own = [Addr::nth(0)];
        for uid in 1..=2 {
            assert!(matches!(
                r.route_output(SimTime::ZERO, &ctx(&own), udp_packet(uid, 3, 100)),
                Routed::Held
            ));
        }
        match r.route_output(SimTime::ZERO, &ctx(&own), udp_packet(3, 3, 100)) {
            Routed::Drop(p, why) => assert_eq!((p.uid, why), (3, DropReason::HoldOverflow)),
            other => panic!("{other:?}"),
        }
        assert_eq!(r.held(), 2);
    }

    /// A transmit failure hands the packet to the protocol; static routing cannot salvage,
    /// so it is dropped with `link_failure`, the same packet.
    #[test]
    fn a_link_failure_is_reported_with_the_packet() {
        let mut r = RoutingProtocol::new(&RoutingConfig::default());
        let own = [Addr::nth(0)];
        let mut out = RoutingOutput::default();
        r.on_tx_failure(
            SimTime::ZERO,
            &ctx(&own),
            IfaceId(1),
            Addr::nth(4),
            TxFailureCause::RetryLimit,
            udp_packet(9, 4, 100),
            &mut out,
        );
        assert_eq!(out.drops.len(), 1);
        assert_eq!(
            (out.drops[0].0.uid, out.drops[0].1),
            (9, DropReason::LinkFailure)
        );
    }

    /// Packets for one of the node's addresses, or broadcast, are delivered locally.
    #[test]
    fn local_and_broadcast_packets_are_delivered() {
        let mut r = RoutingProtocol::new(&RoutingConfig::default());
        let own = [Addr::nth(0), Addr::nth(9)];
        let mut p = udp_packet(1, 9, 100);
        assert!(matches!(
            r.route_input(SimTime::ZERO, &ctx(&own), IfaceId(0), p.clone()),
            Routed::Deliver(_)
        ));
        p.ip.dst = Addr::BROADCAST;
        assert!(matches!(
            r.route_input(SimTime::ZERO, &ctx(&own), IfaceId(0), p),
            Routed::Deliver(_)
        ));
    }
}
