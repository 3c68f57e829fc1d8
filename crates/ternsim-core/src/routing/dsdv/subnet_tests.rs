//! The wired-cum-wireless rules of `subnet`, one agent at a time, fed updates and packets by
//! hand (ns-2.35 `dsdv.cc` `forwardPacket`, `diff_subnet`; the base station's classifier).
//! Node 0 is the base station, nodes 1 and 2 its mobile nodes, node 5 a node of another
//! subnet on the same channel, node 7 a wired host behind router 6.

use super::route_table::BIG;
use super::*;
use crate::net::addr::{Addr, IfaceId, NodeId};
use crate::net::control::{ControlMessage, DsdvAdvert};
use crate::net::packet::tests::udp_packet;
use crate::net::packet::{DropReason, Header, IpHeader, Packet, PacketFields, Payload, Ports};
use crate::routing::{Route, RouteCtx, Routed, RoutingOutput};
use crate::sim::rng::RandomStream;
use crate::sim::SimTime;

const WIFI: IfaceId = IfaceId(9);
const WIRED: IfaceId = IfaceId(3);

fn a(i: u32) -> Addr {
    Addr::nth(i)
}

fn agent(node: u32, base_station: Option<u32>) -> DsdvAgent {
    let mut d = DsdvAgent::new(
        DsdvConfig {
            randomize: false,
            ..DsdvConfig::default()
        },
        RandomStream::named(0, "subnet-test"),
    );
    let mut wired = vec![None; 8];
    wired[7] = Some(Route {
        iface: WIRED,
        next_hop: a(6),
    });
    d.set_subnet(Subnet {
        wifi: WIFI,
        members: vec![a(0), a(1), a(2)],
        base_station: base_station.map(a),
        wired: if base_station.is_none() {
            wired
        } else {
            Vec::new()
        },
    });
    with_ctx(node, |ctx| d.start(SimTime::ZERO, ctx));
    d
}

/// A base station lists its wired interface first, as the world builds it.
fn with_ctx<R>(node: u32, f: impl FnOnce(&RouteCtx) -> R) -> R {
    let addrs = [a(node)];
    let ifaces = [WIRED, WIFI];
    f(&RouteCtx {
        node: NodeId(node),
        addrs: &addrs,
        ifaces: &ifaces,
    })
}

/// Node `node` hears a full dump from `from` listing (destination, metric, sequence).
fn hear(d: &mut DsdvAgent, node: u32, from: u32, routes: &[(u32, u8, u32)], at: SimTime) {
    let msg = ControlMessage::DsdvUpdate {
        entries: routes
            .iter()
            .map(|&(dst, metric, seq)| DsdvAdvert {
                dst: a(dst),
                metric,
                seq,
            })
            .collect(),
        full: true,
    };
    let p = Packet::new(PacketFields {
        uid: 100,
        ns2_uid: 100,
        num_forwards: 0,
        flow: None,
        ip: IpHeader {
            src: a(from),
            dst: Addr::BROADCAST,
            ttl: 32,
        },
        ports: Ports::default(),
        headers: Vec::new(),
        size: 20 + msg.body_bytes(),
        created: at,
        payload: Payload::Control(msg),
    });
    let r = with_ctx(node, |ctx| d.route_input(at, ctx, WIFI, p));
    assert!(matches!(r, Routed::Consumed(_)));
}

fn data(src: u32, dst: u32) -> Packet {
    let mut p = udp_packet(1, dst, 1000);
    p.ip.src = a(src);
    p
}

fn forwarded(r: Routed) -> (IfaceId, Addr, u32) {
    match r {
        Routed::Forward {
            packet,
            iface,
            next_hop,
        } => (iface, next_hop, packet.size),
        other => panic!("not forwarded: {other:?}"),
    }
}

/// A mobile node sends what leaves its subnet on its route to its base station (two hops
/// via node 2 here), or straight to the destination when it has a route to it (node 5 of
/// another subnet, heard directly); a destination of its own subnet takes DSDV's usual
/// path. Each goes out on the NIC, with ns-2's second IP header (1000 + 20 bytes).
#[test]
fn a_mobile_node_sends_out_of_its_subnet_through_its_base_station() {
    let t = SimTime::from_secs_f64;
    let mut d = agent(1, Some(0));
    hear(&mut d, 1, 2, &[(2, 0, 4), (0, 1, 6)], t(1.0));
    hear(&mut d, 1, 5, &[(5, 0, 2)], t(1.5));
    let out = |d: &mut DsdvAgent, dst| with_ctx(1, |ctx| d.route_output(t(2.0), ctx, data(1, dst)));
    // Wired host 7: no route to it, so to the base station, whose next hop is 2.
    assert_eq!(forwarded(out(&mut d, 7)), (WIFI, a(2), 1020));
    // Node 5 of another subnet, a neighbour: straight to it.
    assert_eq!(forwarded(out(&mut d, 5)), (WIFI, a(5), 1020));
    // Node 2 of the subnet: DSDV's route.
    assert_eq!(forwarded(out(&mut d, 2)), (WIFI, a(2), 1020));
    assert_eq!(d.stats().no_base_station_route, 0);
}

/// Without a usable route to its base station a mobile node drops a packet for another
/// subnet at once: not queued on a placeholder entry as a packet for an unknown node of its
/// own subnet is (ns-2: "Route to base_stn not known: dropping pkt").
#[test]
fn a_mobile_node_without_a_route_to_its_base_station_drops_at_once() {
    let t = SimTime::from_secs_f64;
    let mut d = agent(1, Some(0));
    // The base station's route broken (metric BIG, odd sequence number), as neighbour 5
    // reports.
    hear(&mut d, 1, 0, &[(0, 0, 2)], t(1.0));
    hear(&mut d, 1, 5, &[(0, BIG, 3)], t(2.0));
    let r = with_ctx(1, |ctx| d.route_output(t(3.0), ctx, data(1, 7)));
    assert!(matches!(r, Routed::Drop(_, DropReason::NoBaseStationRoute)));
    assert_eq!((d.stats().no_base_station_route, d.held()), (1, 0));
    // An unknown node of its own subnet waits for a route instead.
    let r = with_ctx(1, |ctx| d.route_output(t(3.0), ctx, data(1, 2)));
    assert!(matches!(r, Routed::Held));
    assert_eq!(d.held(), 1);
}

/// A base station routes what leaves its subnet over the wired links (its own packets
/// without a second IP header: ns-2's classifier takes them before DSDV), drops what has
/// no wired route, and forwards a packet from the wired side to a mobile node over DSDV on
/// its NIC, not back out of the wired interface the packet came in on.
#[test]
fn a_base_station_joins_its_subnet_to_the_wired_routes() {
    let t = SimTime::from_secs_f64;
    let mut d = agent(0, None);
    let r = with_ctx(0, |ctx| d.route_output(t(1.0), ctx, data(0, 7)));
    assert_eq!(forwarded(r), (WIRED, a(6), 1000));
    let r = with_ctx(0, |ctx| d.route_input(t(1.0), ctx, WIFI, data(1, 7)));
    assert_eq!(forwarded(r), (WIRED, a(6), 1000));
    let r = with_ctx(0, |ctx| d.route_input(t(1.0), ctx, WIFI, data(1, 4)));
    assert!(matches!(r, Routed::Drop(_, DropReason::NoRoute)));
    // From the wired side to mobile node 2, two hops away through 1 once heard.
    let r = with_ctx(0, |ctx| d.route_input(t(2.0), ctx, WIRED, data(7, 2)));
    assert!(matches!(r, Routed::Held));
    hear(&mut d, 0, 1, &[(1, 0, 2), (2, 1, 2)], t(3.0));
    let mut out = RoutingOutput::default();
    d.on_timer(t(3.0), &mut out);
    assert_eq!(out.send.len(), 1);
    let (p, iface, next_hop) = &out.send[0];
    assert_eq!((*iface, *next_hop, p.ip.dst), (WIFI, a(1), a(2)));
    assert!(!p.headers.iter().any(|h| matches!(h, Header::RoutingIpCopy)));
    // Its own updates go on the NIC too.
    d.on_timer(t(20.0), &mut out);
    assert!(out
        .control
        .iter()
        .all(|c| c.via == Some((WIFI, Addr::BROADCAST))));
    assert!(!out.control.is_empty());
}
