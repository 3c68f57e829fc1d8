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

// --- Mobile IP over DSDV (ns-2's wired-cum-wireless Mobile IP) ----------------------------
// Node 0 is the home agent (base station of 0, 1, 2), node 1 the mobile host, node 5 a
// foreign agent: the base station of a subnet of its own.

/// A foreign agent: the base station of subnet {5}, its wired routes to 7 and to the mobile
/// host's home network (node 1's address routed towards its home agent), both via router 6.
fn foreign_agent() -> DsdvAgent {
    let mut d = DsdvAgent::new(
        DsdvConfig {
            randomize: false,
            ..DsdvConfig::default()
        },
        RandomStream::named(0, "subnet-test"),
    );
    let mut wired = vec![None; 8];
    for dst in [1, 7] {
        wired[dst] = Some(Route {
            iface: WIRED,
            next_hop: a(6),
        });
    }
    d.set_subnet(Subnet {
        wifi: WIFI,
        members: vec![a(5)],
        base_station: None,
        wired,
    });
    with_ctx(5, |ctx| d.start(SimTime::ZERO, ctx));
    d
}

/// The mobile host moves from its home agent 0 to foreign agent 5 (ns-2 `dsdv.cc`
/// `forwardPacket`; `mip-reg.cc` `MIPMHAgent::recv` naming the new agent the base station).
/// At 1 s it has heard HA's full dump. At 10 s FA's advertisement makes 5 its base station;
/// its registration request to 5 (and its ACK to wired host 7) leave the subnet and find
/// no DSDV route to 5 nor to the base station, 5: both dropped at once, although the route
/// to its home agent is still usable. At 11 s it hears FA's full dump; at 11.5 s the
/// retransmitted request leaves on the NIC straight to 5 with ns-2's second IP header
/// (74 + 20 bytes), and the ACK to 7 goes to 5 too (40 + 20).
#[test]
fn a_mobile_ip_host_reaches_a_new_agent_only_once_dsdv_has_a_route_to_it() {
    let t = SimTime::from_secs_f64;
    let mut d = agent(1, Some(0));
    hear(&mut d, 1, 0, &[(0, 0, 4)], t(1.0));
    d.set_base_station(a(5));
    assert_eq!(d.subnet().unwrap().base_station, Some(a(5)));
    let req = |size| {
        let mut p = udp_packet(1, 5, size);
        p.ip.src = a(1);
        p
    };
    let r = with_ctx(1, |ctx| d.route_output(t(10.0), ctx, req(74)));
    assert!(matches!(r, Routed::Drop(_, DropReason::NoBaseStationRoute)));
    let r = with_ctx(1, |ctx| d.route_output(t(10.0), ctx, data(1, 7)));
    assert!(matches!(r, Routed::Drop(_, DropReason::NoBaseStationRoute)));
    assert_eq!((d.stats().no_base_station_route, d.held()), (2, 0));
    hear(&mut d, 1, 5, &[(5, 0, 2)], t(11.0));
    let r = with_ctx(1, |ctx| d.route_output(t(11.5), ctx, req(74)));
    assert_eq!(forwarded(r), (WIFI, a(5), 94));
    let mut ack = udp_packet(1, 7, 40);
    ack.ip.src = a(1);
    let r = with_ctx(1, |ctx| d.route_output(t(11.5), ctx, ack));
    assert_eq!(forwarded(r), (WIFI, a(5), 60));
    // A base station ignores a base-station change: it is its own.
    let mut ha = agent(0, None);
    ha.set_base_station(a(5));
    assert_eq!(ha.subnet().unwrap().base_station, None);
}

/// What the foreign agent hands its DSDV directly (`route_direct`; ns-2 `ragent_->recv`): at
/// 2 s, with no DSDV route to the visitor 1, the registration reply (originated: 70 bytes)
/// and a decapsulated segment (not originated) both go to the station's own `base_stn`,
/// itself: lost untraced (`BaseStationToItself`). The same reply routed as the node routes
/// what it originates would leave on the wire towards 1's home network (the classifier's
/// path, ns-2's unicast advertisement). At 3 s FA hears the host's full dump; at 3.5 s the
/// reply leaves on the NIC to 1 with ns-2's second IP header (90 bytes) and the segment
/// without one (1000 bytes).
#[test]
fn a_foreign_agent_hands_a_visitor_only_what_its_dsdv_has_a_route_for() {
    let t = SimTime::from_secs_f64;
    let mut d = foreign_agent();
    let reply = || {
        let mut p = udp_packet(1, 1, 50);
        p.size = 70;
        p.ip.src = a(5);
        p
    };
    let r = with_ctx(5, |ctx| d.route_direct(t(2.0), ctx, reply(), true));
    assert!(matches!(
        r,
        Routed::Drop(_, DropReason::BaseStationToItself)
    ));
    let r = with_ctx(5, |ctx| d.route_direct(t(2.0), ctx, data(7, 1), false));
    assert!(matches!(
        r,
        Routed::Drop(_, DropReason::BaseStationToItself)
    ));
    assert_eq!((d.stats().sent_to_itself, d.held()), (2, 0));
    let r = with_ctx(5, |ctx| d.route_output(t(2.0), ctx, reply()));
    assert_eq!(forwarded(r), (WIRED, a(6), 70));
    hear(&mut d, 5, 1, &[(1, 0, 2)], t(3.0));
    let r = with_ctx(5, |ctx| d.route_direct(t(3.5), ctx, reply(), true));
    assert_eq!(forwarded(r), (WIFI, a(1), 90));
    let r = with_ctx(5, |ctx| d.route_direct(t(3.5), ctx, data(7, 1), false));
    assert_eq!(forwarded(r), (WIFI, a(1), 1000));
}

/// A base station routes a tunnelled packet on its outer header (ns-2's encapsulator sends to
/// the node's entry, whose classifier reads the outer destination): the home agent's packet
/// for its own mobile host 2, tunnelled to care-of address 7, leaves on the wire (1000 + 20
/// bytes of tunnel header, no second IP header), not over DSDV towards 2.
#[test]
fn a_base_station_routes_a_tunnelled_packet_on_its_outer_header() {
    let t = SimTime::from_secs_f64;
    let mut d = agent(0, None);
    hear(&mut d, 0, 2, &[(2, 0, 2)], t(1.0));
    let mut p = data(4, 2);
    p.encapsulate(IpHeader {
        src: a(0),
        dst: a(7),
        ttl: 32,
    });
    let r = with_ctx(0, |ctx| d.route_output(t(2.0), ctx, p));
    assert_eq!(forwarded(r), (WIRED, a(6), 1020));
}

/// A broadcast that is not a DSDV update (a Mobile IP advertisement) leaves after
/// U(0, 10 ms) (ns-2 `sendOutBCastPkt`) with the second IP header: held at 4 s, out on the
/// NIC to the broadcast address at 4 s + jitter (0 with `randomize` off).
#[test]
fn an_originated_broadcast_leaves_after_the_broadcast_jitter() {
    let t = SimTime::from_secs_f64;
    let mut d = agent(0, None);
    let mut out = RoutingOutput::default();
    d.on_timer(t(1.0), &mut out); // the start-up dump, out of the way
    let mut ad = udp_packet(1, 0, 48);
    ad.ip.src = a(0);
    ad.ip.dst = Addr::BROADCAST;
    let r = with_ctx(0, |ctx| d.route_output(t(4.0), ctx, ad));
    assert!(matches!(r, Routed::Held));
    assert_eq!(d.next_timer(), Some(t(4.0)));
    let mut out = RoutingOutput::default();
    d.on_timer(t(4.0), &mut out);
    let (p, iface, next_hop) = &out.send[0];
    assert_eq!((*iface, *next_hop, p.size), (WIFI, Addr::BROADCAST, 68));
    // With jitter on: within [4 s, 4.01 s).
    let mut j = DsdvAgent::new(DsdvConfig::default(), RandomStream::named(3, "jitter"));
    j.set_subnet(Subnet {
        wifi: WIFI,
        members: vec![a(0)],
        base_station: None,
        wired: Vec::new(),
    });
    with_ctx(0, |ctx| j.start(t(10.0), ctx));
    let mut ad = udp_packet(1, 0, 48);
    ad.ip.dst = Addr::BROADCAST;
    let r = with_ctx(0, |ctx| j.route_output(t(4.0), ctx, ad));
    assert!(matches!(r, Routed::Held));
    let at = j.next_timer().unwrap();
    assert!(t(4.0) <= at && at < t(4.01), "{at:?}");
}
