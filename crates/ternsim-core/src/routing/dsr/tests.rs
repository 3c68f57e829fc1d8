//! Scripted exchanges between DSR agents on small topologies, and single-rule checks on one
//! agent. The network in these tests is instantaneous and loss-free except for links the
//! test breaks: a unicast over a broken link comes straight back as a transmit failure;
//! a unicast is overheard by every other neighbour of the sender (tap); a broadcast
//! reaches every neighbour. Addresses print as node indices.

use super::*;
use crate::net::addr::{Addr, IfaceId, NodeId};
use crate::net::control::ControlMessage;
use crate::net::iface::TxFailureCause;
use crate::net::packet::tests::udp_packet;
use crate::net::packet::PacketFields;
use crate::net::packet::{DropReason, Header, IpHeader, Packet, Payload, Ports, SourceRoute};
use crate::routing::{ControlSend, RouteCtx, Routed, RoutingOutput};
use crate::sim::rng::RandomStream;
use crate::sim::SimTime;

fn a(i: usize) -> Addr {
    Addr::nth(i as u32)
}

fn ms(v: u64) -> SimTime {
    SimTime::from_millis(v)
}

fn list(v: &[Addr]) -> String {
    v.iter()
        .map(|x| x.index().to_string())
        .collect::<Vec<_>>()
        .join(",")
}

/// ns-2 defaults without jitter (requests and replies, send buffer timer), so that the
/// hand-worked times are exact: the send buffer is checked at 30, 60, 90 ... ms. Data
/// packets carry plain source routes (no flow state, no extra IP header); the flow state
/// tests turn those on.
fn cfg() -> DsrConfig {
    DsrConfig {
        rreq_jitter: SimTime::ZERO,
        buffer_check_jitter: false,
        flow_state: None,
        data_ip_overhead: 0,
        ..DsrConfig::default()
    }
}

struct Net {
    agents: Vec<DsrAgent>,
    addrs: Vec<[Addr; 1]>,
    ifaces: Vec<[IfaceId; 1]>,
    links: Vec<(usize, usize)>,
    broken: Vec<(usize, usize)>,
    uid: u64,
    now: SimTime,
    log: Vec<String>,
}

impl Net {
    fn new(n: usize, links: &[(usize, usize)], cfg: DsrConfig) -> Self {
        Net {
            agents: (0..n)
                .map(|i| DsrAgent::new(cfg, RandomStream::named(1, &format!("n{i}"))))
                .collect(),
            addrs: (0..n).map(|i| [a(i)]).collect(),
            ifaces: (0..n).map(|i| [IfaceId(i as u32)]).collect(),
            links: links.to_vec(),
            broken: Vec::new(),
            uid: 1000,
            now: SimTime::ZERO,
            log: Vec::new(),
        }
    }

    fn neighbours(&self, i: usize) -> Vec<usize> {
        let mut v: Vec<usize> = self
            .links
            .iter()
            .filter_map(|&(x, y)| {
                if x == i {
                    Some(y)
                } else if y == i {
                    Some(x)
                } else {
                    None
                }
            })
            .collect();
        v.sort();
        v
    }

    fn describe(p: &Packet) -> String {
        let sr = p
            .source_route()
            .map(|s| format!(" sr={}", list(&s.path)))
            .unwrap_or_default();
        let what = match &p.payload {
            Payload::Control(ControlMessage::DsrRouteRequest {
                id,
                route,
                hop_limit,
                target,
                ..
            }) => format!(
                "rreq id={id} t={} route={} hl={hop_limit}",
                target.index(),
                list(route)
            ),
            Payload::Control(ControlMessage::DsrRouteReply { route, .. }) => {
                format!("rrep route={}", list(route))
            }
            Payload::Control(ControlMessage::DsrRouteError { from, to, .. }) => {
                format!("rerr {}-{}", from.index(), to.index())
            }
            _ => format!("data uid={}", p.uid),
        };
        format!("{what}{sr} {}B", p.size)
    }

    fn log(&mut self, s: String) {
        self.log.push(format!("{:.3} {s}", self.now.as_secs_f64()));
    }

    /// A control message becomes a packet as the world makes it: 20-octet IP header + body,
    /// and the source route pushed.
    fn control_packet(&mut self, c: ControlSend) -> (Packet, Addr) {
        self.uid += 1;
        let mut p = Packet::new(PacketFields {
            uid: self.uid,
            ns2_uid: self.uid,
            num_forwards: 0,
            flow: None,
            ip: IpHeader {
                src: c.src,
                dst: c.dst,
                ttl: 64,
            },
            ports: Ports::default(),
            headers: Vec::new(),
            size: 20 + c.msg.body_bytes(),
            created: self.now,
            payload: Payload::Control(c.msg),
        });
        if let Some(sr) = c.source_route {
            p.push_header(Header::SourceRoute(sr));
        }
        (p, c.via.expect("DSR control goes on an interface").1)
    }

    fn drain(&mut self, i: usize, out: RoutingOutput) {
        for (p, why) in out.drops {
            self.log(format!("n{i} drop uid={} {}", p.uid, why.name()));
        }
        for (p, _, nh) in out.send {
            self.transmit(i, p, nh);
        }
        for c in out.control {
            let (p, nh) = self.control_packet(c);
            self.transmit(i, p, nh);
        }
    }

    fn apply(&mut self, i: usize, r: Routed) {
        match r {
            Routed::Forward {
                packet, next_hop, ..
            } => self.transmit(i, packet, next_hop),
            Routed::Deliver(p) => self.log(format!("n{i} deliver uid={} {}B", p.uid, p.size)),
            Routed::Drop(p, why) => self.log(format!("n{i} drop uid={} {}", p.uid, why.name())),
            Routed::Held | Routed::Consumed(_) => {}
        }
    }

    fn transmit(&mut self, i: usize, p: Packet, next_hop: Addr) {
        let now = self.now;
        if next_hop.is_broadcast() {
            self.log(format!("n{i}>* {}", Self::describe(&p)));
            for j in self.neighbours(i) {
                let (addrs, ifaces) = (self.addrs[j], self.ifaces[j]);
                let ctx = RouteCtx {
                    node: NodeId(j as u32),
                    addrs: &addrs,
                    ifaces: &ifaces,
                };
                let r = self.agents[j].route_input(now, &ctx, ifaces[0], p.clone());
                self.apply(j, r);
            }
            return;
        }
        let j = next_hop.index();
        assert!(self.neighbours(i).contains(&j), "n{i} -> n{j} not a link");
        if self.broken.contains(&(i, j)) {
            self.log(format!("n{i}>n{j} FAIL {}", Self::describe(&p)));
            let mut out = RoutingOutput::default();
            let (addrs, ifaces) = (self.addrs[i], self.ifaces[i]);
            let ctx = RouteCtx {
                node: NodeId(i as u32),
                addrs: &addrs,
                ifaces: &ifaces,
            };
            self.agents[i].on_tx_failure(
                now,
                &ctx,
                ifaces[0],
                next_hop,
                TxFailureCause::RetryLimit,
                p,
                &mut out,
            );
            self.drain(i, out);
            return;
        }
        self.log(format!("n{i}>n{j} {}", Self::describe(&p)));
        for k in self.neighbours(i) {
            if k == j {
                continue;
            }
            let mut out = RoutingOutput::default();
            let (addrs, ifaces) = (self.addrs[k], self.ifaces[k]);
            let ctx = RouteCtx {
                node: NodeId(k as u32),
                addrs: &addrs,
                ifaces: &ifaces,
            };
            self.agents[k].on_overheard(now, &ctx, ifaces[0], &p, &mut out);
            self.drain(k, out);
        }
        let (addrs, ifaces) = (self.addrs[j], self.ifaces[j]);
        let ctx = RouteCtx {
            node: NodeId(j as u32),
            addrs: &addrs,
            ifaces: &ifaces,
        };
        let r = self.agents[j].route_input(now, &ctx, ifaces[0], p);
        self.apply(j, r);
    }

    /// Node `i` originates a 1000-byte UDP packet to node `dst` at the current time.
    fn send_data(&mut self, i: usize, dst: usize) -> u64 {
        self.uid += 1;
        let uid = self.uid;
        let mut p = udp_packet(uid, dst as u32, 1000);
        p.ip.src = a(i);
        let (addrs, ifaces) = (self.addrs[i], self.ifaces[i]);
        let ctx = RouteCtx {
            node: NodeId(i as u32),
            addrs: &addrs,
            ifaces: &ifaces,
        };
        let r = self.agents[i].route_output(self.now, &ctx, p);
        self.apply(i, r);
        uid
    }

    /// Runs the agents' timers up to and including `until`, lowest node first on ties.
    fn run_until(&mut self, until: SimTime) {
        loop {
            let next = (0..self.agents.len())
                .filter_map(|i| self.agents[i].next_timer().map(|t| (t, i)))
                .min();
            match next {
                Some((t, i)) if t <= until => {
                    self.now = t;
                    let mut out = RoutingOutput::default();
                    self.agents[i].on_timer(t, &mut out);
                    self.drain(i, out);
                }
                _ => break,
            }
        }
        self.now = until;
    }

    fn take_log(&mut self) -> Vec<String> {
        std::mem::take(&mut self.log)
    }
}

fn paths(v: &[&[usize]]) -> Vec<Vec<Addr>> {
    v.iter()
        .map(|p| p.iter().map(|&i| a(i)).collect())
        .collect()
}

/// Chain 0-1-2-3-4, node 0 sends a 1000-byte packet to node 4 at t = 0 with empty caches.
/// - 0.000: cache miss, the packet waits in the send buffer; the ring-zero request (hop
///   limit 1, 20 + 12 = 32 B) reaches node 1, which has no cached route and does not
///   re-broadcast it.
/// - 0.030: the send buffer check finds the ring-zero request 30 ms old, not more than
///   30 ms (ns-2 `time - last_arp > arp_timeout`): nothing goes.
/// - 0.060: the next check sends the propagating request (id 2, hop limit 16). Each node
///   appends itself and re-broadcasts; ns-2.35 adds the whole new DSR header (4 + 4 per
///   address after the first + 8) to the size each time: 32 + 16 = 48, + 20 = 68, + 24 =
///   92 B; the previous node hears the copy and discards it
///   (it is listed in the route; node 0 started it).
/// - node 4 answers over the reversed route: reply body 5 + 4·5 = 25 → 28, source route
///   4 + 4·4 = 20, + 20 IP = 68 B; at node 0 the route enters the cache and the buffered
///   packet leaves with source route 0,1,2,3,4: 1000 + 20 = 1020 B, delivered at node 4.
#[test]
fn discovery_over_a_chain() {
    let mut net = Net::new(5, &[(0, 1), (1, 2), (2, 3), (3, 4)], cfg());
    let uid = net.send_data(0, 4);
    assert_eq!(net.agents[0].buffered(), 1);
    assert_eq!(net.agents[0].next_timer(), Some(SimTime::ZERO));
    net.run_until(SimTime::ZERO);
    assert_eq!(
        net.take_log(),
        vec!["0.000 n0>* rreq id=1 t=4 route=0 hl=1 32B"]
    );
    assert_eq!(net.agents[1].stats().rreq_suppressed, 1);
    assert_eq!(net.agents[0].next_timer(), Some(ms(30)));
    net.run_until(ms(30));
    assert!(net.take_log().is_empty());
    assert_eq!(net.agents[0].next_timer(), Some(ms(60)));
    net.run_until(ms(60));
    let d = format!("data uid={uid} sr=0,1,2,3,4 1020B");
    assert_eq!(
        net.take_log(),
        vec![
            "0.060 n0>* rreq id=2 t=4 route=0 hl=16 32B".to_string(),
            "0.060 n1>* rreq id=2 t=4 route=0,1 hl=16 48B".into(),
            "0.060 n2>* rreq id=2 t=4 route=0,1,2 hl=16 68B".into(),
            "0.060 n3>* rreq id=2 t=4 route=0,1,2,3 hl=16 92B".into(),
            "0.060 n4>n3 rrep route=0,1,2,3,4 sr=4,3,2,1,0 68B".into(),
            "0.060 n3>n2 rrep route=0,1,2,3,4 sr=4,3,2,1,0 68B".into(),
            "0.060 n2>n1 rrep route=0,1,2,3,4 sr=4,3,2,1,0 68B".into(),
            "0.060 n1>n0 rrep route=0,1,2,3,4 sr=4,3,2,1,0 68B".into(),
            format!("0.060 n0>n1 {d}"),
            format!("0.060 n1>n2 {d}"),
            format!("0.060 n2>n3 {d}"),
            format!("0.060 n3>n4 {d}"),
            format!("0.060 n4 deliver uid={uid} 1000B"),
        ]
    );
    // Node 0: the discovered route in the primary cache, the buffer empty, no timer.
    let s0 = net.agents[0].stats();
    assert_eq!(
        (s0.rreq_originated, s0.cache_misses, s0.cache_hits),
        (2, 1, 1)
    );
    assert_eq!(
        net.agents[0].route_cache().paths().0,
        paths(&[&[0, 1, 2, 3, 4]])
    );
    assert_eq!(
        (net.agents[0].held(), net.agents[0].next_timer()),
        (0, None)
    );
    // Node 4 cached the reversed route; node 2 snooped its parts of the reply's source
    // route (towards 0) and of the reply route (towards 4).
    assert_eq!(
        net.agents[4].route_cache().paths().0,
        paths(&[&[4, 3, 2, 1, 0]])
    );
    assert_eq!(
        net.agents[2].route_cache().paths().1,
        paths(&[&[2, 1, 0], &[2, 3, 4]])
    );
    assert_eq!(net.agents[4].stats().rrep_originated, 1);
    assert_eq!(
        (1..=3)
            .map(|i| net.agents[i].stats().rreq_forwarded)
            .collect::<Vec<_>>(),
        vec![1, 1, 1]
    );
    // A second packet finds the route at once.
    let uid2 = net.send_data(0, 4);
    assert_eq!(net.log.len(), 5);
    assert_eq!(net.log[4], format!("0.060 n4 deliver uid={uid2} 1000B"));
}

/// Chain 0-1-2-3 with node 4 hanging off node 1 (its tap off, or it would have snooped the
/// route from node 1's transmissions). After node 0 discovered 3, node 1 has snooped
/// [1,2,3] from the reply it forwarded; node 4's ring-zero request for 3 is answered by node 1 from its cache
/// with route 4,1,2,3 (reply 5 + 16 = 21 → 24, source route 1,4: 8, IP 20 → 52 B), so node
/// 4 never sends a propagating request.
#[test]
fn reply_from_cache_by_an_intermediate_node() {
    let mut net = Net::new(5, &[(0, 1), (1, 2), (2, 3), (1, 4)], cfg());
    let no_tap = DsrConfig {
        tap: false,
        ..cfg()
    };
    net.agents[4] = DsrAgent::new(no_tap, RandomStream::named(1, "n4"));
    net.send_data(0, 3);
    net.run_until(ms(60));
    assert_eq!(
        net.agents[1].route_cache().paths().1,
        paths(&[&[1, 0], &[1, 2, 3]])
    );
    net.take_log();
    let uid = net.send_data(4, 3);
    net.run_until(ms(100));
    let d = format!("data uid={uid} sr=4,1,2,3 1016B");
    assert_eq!(
        net.take_log(),
        vec![
            "0.060 n4>* rreq id=1 t=3 route=4 hl=1 32B".to_string(),
            "0.060 n1>n4 rrep route=4,1,2,3 sr=1,4 52B".into(),
            format!("0.060 n4>n1 {d}"),
            format!("0.060 n1>n2 {d}"),
            format!("0.060 n2>n3 {d}"),
            format!("0.060 n3 deliver uid={uid} 1000B"),
        ]
    );
    assert_eq!(net.agents[1].stats().rrep_from_cache, 1);
    assert_eq!(net.agents[4].stats().rreq_originated, 1);
    assert_eq!(
        net.agents[4].route_cache().paths().0,
        paths(&[&[4, 1, 2, 3]])
    );
}

/// Square 0-1-2-3 with a detour 1-4-3. Node 1 knows [1,2,3] and [1,4,3]; node 0 sends over
/// 0,1,2,3 and the link 1→2 fails (retry limit). Node 1 removes the link (its route via 2
/// is gone), sends a route error 1-2 to node 0 over the reversed prefix 1,0 (20 + 16 +
/// 8 = 44 B), which removes the link from node 0's cache, and salvages the packet onto
/// 1,4,3 (source route 12 B: 1012 B, salvage count 1). A second packet handed back at the
/// same instant is salvaged too without a second error.
#[test]
fn route_error_and_salvage_when_a_link_breaks() {
    let mut net = Net::new(5, &[(0, 1), (1, 2), (2, 3), (1, 4), (4, 3)], cfg());
    net.agents[0]
        .cache
        .add_primary(paths(&[&[0, 1, 2, 3]]).remove(0));
    net.agents[1]
        .cache
        .add_primary(paths(&[&[1, 2, 3]]).remove(0));
    net.agents[1]
        .cache
        .add_primary(paths(&[&[1, 4, 3]]).remove(0));
    net.broken.push((1, 2));
    let uid = net.send_data(0, 3);
    assert_eq!(
        net.take_log(),
        vec![
            format!("0.000 n0>n1 data uid={uid} sr=0,1,2,3 1016B"),
            format!("0.000 n1>n2 FAIL data uid={uid} sr=0,1,2,3 1016B"),
            format!("0.000 n1>n4 data uid={uid} sr=1,4,3 1012B"),
            format!("0.000 n4>n3 data uid={uid} sr=1,4,3 1012B"),
            format!("0.000 n3 deliver uid={uid} 1000B"),
            "0.000 n1>n0 rerr 1-2 sr=1,0 44B".into(),
        ]
    );
    assert_eq!(net.agents[1].route_cache().paths().0, paths(&[&[1, 4, 3]]));
    assert_eq!(net.agents[0].route_cache().paths().0, paths(&[&[0, 1]]));
    let s1 = net.agents[1].stats();
    assert_eq!((s1.rerr_originated, s1.salvaged), (1, 1));
    // At 5 ms two more packets of node 0 fail at node 1 at the same instant (the MAC hands back
    // what it had queued for node 2): both salvaged, one route error only.
    net.agents[1]
        .cache
        .add_primary(paths(&[&[1, 2, 3]]).remove(0));
    let mut out = RoutingOutput::default();
    for uid in [7, 8] {
        let mut p = udp_packet(uid, 3, 1000);
        p.set_source_route(SourceRoute {
            path: paths(&[&[0, 1, 2, 3]]).remove(0),
            next: 2,
            salvaged: 0,
            ..SourceRoute::default()
        });
        let (addrs, ifaces) = (net.addrs[1], net.ifaces[1]);
        let ctx = RouteCtx {
            node: NodeId(1),
            addrs: &addrs,
            ifaces: &ifaces,
        };
        net.agents[1].on_tx_failure(
            ms(5),
            &ctx,
            ifaces[0],
            a(2),
            TxFailureCause::RetryLimit,
            p,
            &mut out,
        );
    }
    assert_eq!(out.control.len(), 1);
    let sent: Vec<(u64, Vec<Addr>, u8)> = out
        .send
        .iter()
        .map(|(p, _, nh)| {
            let sr = p.source_route().unwrap();
            assert_eq!(*nh, a(4));
            (p.uid, sr.path.clone(), sr.salvaged)
        })
        .collect();
    let via4 = paths(&[&[1, 4, 3]]).remove(0);
    assert_eq!(sent, vec![(7, via4.clone(), 1), (8, via4, 1)]);
}

fn ctx_of<'a>(addrs: &'a [Addr; 1], ifaces: &'a [IfaceId; 1]) -> RouteCtx<'a> {
    RouteCtx {
        node: NodeId(0),
        addrs,
        ifaces,
    }
}

/// With RFC 4728's salvaging (`salvage_max_requests = 0`), salvage at an intermediate node
/// without another route drops the packet (`salvage_no_route`); a packet already salvaged
/// 15 times is dropped (`salvage_limit`) even with a route; the source's own packet goes
/// back into the send buffer and a new ring-zero request leaves. The route error goes out
/// in the first two cases only.
#[test]
fn salvage_drops_and_the_source_rebuffers() {
    let (addrs, ifaces) = ([a(1)], [IfaceId(1)]);
    let ctx = ctx_of(&addrs, &ifaces);
    let rfc = DsrConfig {
        salvage_max_requests: 0,
        ..cfg()
    };
    let mut d = DsrAgent::new(rfc, RandomStream::named(1, "x"));
    let failed = |uid: u64, path: &[usize], next: usize, salvaged: u8| {
        let mut p = udp_packet(uid, 3, 1000);
        p.ip.src = a(path[0]);
        p.set_source_route(SourceRoute {
            path: path.iter().map(|&i| a(i)).collect(),
            next,
            salvaged,
            ..SourceRoute::default()
        });
        p
    };
    let mut out = RoutingOutput::default();
    d.on_tx_failure(
        ms(1),
        &ctx,
        ifaces[0],
        a(2),
        TxFailureCause::RetryLimit,
        failed(1, &[0, 1, 2, 3], 2, 0),
        &mut out,
    );
    assert_eq!(
        (out.drops[0].0.uid, out.drops[0].1),
        (1, DropReason::SalvageNoRoute)
    );
    assert_eq!(out.control.len(), 1);
    d.cache.add_primary(paths(&[&[1, 4, 3]]).remove(0));
    let mut out = RoutingOutput::default();
    d.on_tx_failure(
        ms(2),
        &ctx,
        ifaces[0],
        a(2),
        TxFailureCause::RetryLimit,
        failed(2, &[0, 1, 2, 3], 2, 15),
        &mut out,
    );
    assert_eq!(
        (out.drops[0].0.uid, out.drops[0].1),
        (2, DropReason::SalvageLimit)
    );
    assert_eq!(out.control.len(), 1);
    // Node 1's own packet over 1,2,3 fails: no error (it is the source), the cache has no
    // other route once 1-4 breaks too, so the packet is re-buffered (source route removed).
    let mut out = RoutingOutput::default();
    d.on_tx_failure(
        ms(3),
        &ctx,
        ifaces[0],
        a(4),
        TxFailureCause::RetryLimit,
        failed(3, &[1, 4, 3], 1, 0),
        &mut out,
    );
    assert!(out.drops.is_empty() && out.send.is_empty());
    assert_eq!(d.buffered(), 1);
    assert_eq!(out.control.len(), 1);
    assert!(matches!(
        out.control[0].msg,
        ControlMessage::DsrRouteRequest { hop_limit: 1, .. }
    ));
    assert_eq!(d.stats().rerr_originated, 2);
}

/// Request table and loop checks at node 2 (RFC 4728 §8.2.2): the first copy of (0, 7) is
/// re-broadcast, a second copy (from another neighbour) is discarded, a request that lists
/// node 2 is discarded, a request that already lists 15 addresses cannot grow (MAX_SR_LEN
/// 16 leaves no room for node 2 and the target).
#[test]
fn request_suppression() {
    let (addrs, ifaces) = ([a(2)], [IfaceId(2)]);
    let ctx = ctx_of(&addrs, &ifaces);
    let mut d = DsrAgent::new(cfg(), RandomStream::named(1, "x"));
    let rreq = |initiator: usize, id: u16, route: &[usize]| {
        let mut p = udp_packet(1, 0, 100);
        p.ip.dst = Addr::BROADCAST;
        p.payload = Payload::Control(ControlMessage::DsrRouteRequest {
            initiator: a(initiator),
            target: a(9),
            id,
            route: route.iter().map(|&i| a(i)).collect(),
            hop_limit: 16,
            route_error: None,
        });
        p
    };
    let mut step = |p: Packet| {
        assert!(matches!(
            d.route_input(SimTime::ZERO, &ctx, ifaces[0], p),
            Routed::Consumed(_)
        ));
        let mut out = RoutingOutput::default();
        d.on_timer(SimTime::ZERO, &mut out);
        (out.control, d.stats().rreq_suppressed)
    };
    let (c, s) = step(rreq(0, 7, &[0, 1]));
    assert_eq!(s, 0);
    assert_eq!(c.len(), 1);
    assert_eq!(
        c[0].msg,
        ControlMessage::DsrRouteRequest {
            initiator: a(0),
            target: a(9),
            id: 7,
            route: vec![a(0), a(1), a(2)],
            hop_limit: 16,
            route_error: None,
        }
    );
    assert_eq!(c[0].via, Some((IfaceId(2), Addr::BROADCAST)));
    assert_eq!(step(rreq(0, 7, &[0, 5])), (vec![], 1));
    assert_eq!(step(rreq(0, 6, &[0, 5])), (vec![], 2));
    assert_eq!(step(rreq(3, 1, &[3, 2, 4])), (vec![], 3));
    let long: Vec<usize> = (10..25).collect();
    assert_eq!(step(rreq(10, 1, &long)), (vec![], 4));
    assert_eq!(d.stats().rreq_forwarded, 1);
}

/// Node 0 alone looks for node 9 with ns-2's back-off (link-spec §4.2): a cycle may start
/// min(0.5 s · 4^n, 10 s) after the previous one started (n cycles so far), and cycles
/// start at a send buffer check (every 30 ms from t = 0). So the ring-zero requests go at
/// 0, at the first check ≥ 2 s (2.01), ≥ 10.01 (10.02), ≥ 20.02 (20.04); each cycle's
/// propagating request at the first check more than 30 ms after its ring-zero one: 60 ms
/// after it.
#[test]
fn discovery_cycles_back_off() {
    let c = cfg();
    let mut net = Net::new(1, &[], c);
    net.send_data(0, 9);
    net.run_until(ms(25_000));
    let times = |hl: &str| -> Vec<u64> {
        net.log
            .iter()
            .filter(|l| l.contains("rreq") && l.contains(hl))
            .map(|l| (l.split(' ').next().unwrap().parse::<f64>().unwrap() * 1000.0).round() as u64)
            .collect()
    };
    // The formula, stepped on the 30 ms check grid.
    let tick = c.buffer_check_interval.as_nanos();
    let mut expected = vec![0u64];
    for n in 1..4 {
        let gap = request_table::cycle_gap(c.request_period, c.max_request_period, n);
        let earliest = expected[n as usize - 1] * 1_000_000 + gap.as_nanos();
        expected.push(earliest.div_ceil(tick) * tick / 1_000_000);
    }
    assert_eq!(expected, vec![0, 2_010, 10_020, 20_040]);
    assert_eq!(times("hl=1 "), expected);
    assert_eq!(
        times("hl=16 "),
        expected.iter().map(|t| t + 60).collect::<Vec<_>>()
    );
    assert_eq!(net.agents[0].stats().rreq_originated, 8);
}

/// A packet buffered at 0 and one at 10 ms, no route ever: a packet goes at the first send
/// buffer check at which it has waited *more* than 30 s (ns-2 `sendBufferCheck`,
/// `now - t > send_timeout`). At the check of 30.000 s the first has waited exactly 30 s
/// and stays; the check of 30.030 drops both, in slot order; then the buffer is empty and
/// the agent wants no timer.
#[test]
fn send_buffer_timeout_drop_at_30_s() {
    let mut net = Net::new(1, &[], cfg());
    let u1 = net.send_data(0, 9);
    net.run_until(ms(10));
    let u2 = net.send_data(0, 9);
    net.run_until(ms(29_999));
    assert_eq!(net.agents[0].held(), 2);
    net.take_log();
    net.run_until(ms(31_000));
    let drops: Vec<String> = net
        .take_log()
        .into_iter()
        .filter(|l| l.contains("drop"))
        .collect();
    assert_eq!(
        drops,
        vec![
            format!("30.030 n0 drop uid={u1} send_buffer_timeout"),
            format!("30.030 n0 drop uid={u2} send_buffer_timeout"),
        ]
    );
    assert_eq!(net.agents[0].stats().send_buffer_timeouts, 2);
    assert_eq!(
        (net.agents[0].held(), net.agents[0].next_timer()),
        (0, None)
    );
}

/// A full send buffer (capacity 2 here) evicts its oldest packet (`send_buffer_overflow`).
#[test]
fn send_buffer_overflow_drops_the_oldest() {
    let c = DsrConfig {
        send_buffer_size: 2,
        ..cfg()
    };
    let mut net = Net::new(1, &[], c);
    let u1 = net.send_data(0, 9);
    net.send_data(0, 9);
    net.send_data(0, 9);
    net.run_until(SimTime::ZERO);
    assert!(net
        .take_log()
        .contains(&format!("0.000 n0 drop uid={u1} send_buffer_overflow")));
    assert_eq!(net.agents[0].held(), 2);
    assert_eq!(net.agents[0].stats().send_buffer_overflows, 1);
}

/// Node 0 routes to 3 over 0,1,2,3 but node 2 hears node 0 directly: it sends a gratuitous
/// reply with the shortened route 0,2,3 back over 2,0 (reply 5 + 12 = 17 → 20, source
/// route 8, IP 20 → 48 B); node 0 caches it and the next packet takes 0,2,3.
#[test]
fn gratuitous_reply_shortens_the_route() {
    let mut net = Net::new(4, &[(0, 1), (1, 2), (2, 3), (0, 2)], cfg());
    net.agents[0]
        .cache
        .add_primary(paths(&[&[0, 1, 2, 3]]).remove(0));
    let uid = net.send_data(0, 3);
    net.run_until(SimTime::ZERO);
    let d = format!("data uid={uid} sr=0,1,2,3 1016B");
    assert_eq!(
        net.take_log(),
        vec![
            format!("0.000 n0>n1 {d}"),
            "0.000 n2>n0 rrep route=0,2,3 sr=2,0 48B".to_string(),
            format!("0.000 n1>n2 {d}"),
            format!("0.000 n2>n3 {d}"),
            format!("0.000 n3 deliver uid={uid} 1000B"),
        ]
    );
    assert_eq!(net.agents[2].stats().rrep_gratuitous, 1);
    let uid = net.send_data(0, 3);
    assert_eq!(
        net.log[0],
        format!("0.000 n0>n2 data uid={uid} sr=0,2,3 1012B")
    );
}

/// The gratuitous reply hold-down (1 s per route): overhearing another packet on the same
/// route at 0.5 s sends nothing, at 1.0 s again.
#[test]
fn gratuitous_reply_hold_down() {
    let (addrs, ifaces) = ([a(2)], [IfaceId(2)]);
    let ctx = ctx_of(&addrs, &ifaces);
    let mut d = DsrAgent::new(cfg(), RandomStream::named(1, "x"));
    let mut sent = |t: u64| {
        let mut p = udp_packet(t + 1, 3, 1000);
        p.ns2_uid = t + 1;
        p.set_source_route(SourceRoute {
            path: paths(&[&[0, 1, 2, 3]]).remove(0),
            next: 1,
            salvaged: 0,
            ..SourceRoute::default()
        });
        let mut out = RoutingOutput::default();
        d.on_overheard(ms(t), &ctx, ifaces[0], &p, &mut out);
        out.control.len()
    };
    assert_eq!([sent(0), sent(500), sent(999), sent(1_000)], [1, 0, 0, 1]);
}

/// ns-2.35's tap handles a packet once (`DSR_FILTER_TAP`, 1024 slots by uid). Node 5
/// overhears a route error (uid 7) from node 2 to node 0 reporting 2→3 broken, on the way
/// 2,4,0 — node 5 is not on it, so it learns 5,4,0 (the transmitter, 4, is its neighbour)
/// and forgets 2→3: its route 5,2,3 is cut to 5,2. A discovery brings 5,2,3 back; the same
/// error overheard again (node 4 retransmits it) changes nothing; a packet whose uid takes
/// the same slot (7 + 1024) passes, after which uid 7 passes again and cuts the route.
/// With the filter off the second sight cuts it at once.
#[test]
fn the_tap_handles_each_packet_once_as_ns2_does() {
    for filter in [true, false] {
        let (addrs, ifaces) = ([a(5)], [IfaceId(5)]);
        let ctx = ctx_of(&addrs, &ifaces);
        let config = DsrConfig {
            filter_tap: filter,
            ..cfg()
        };
        let mut d = DsrAgent::new(config, RandomStream::named(1, "x"));
        d.cache.add_primary(paths(&[&[5, 2, 3]]).remove(0));
        let error = |uid: u64| {
            let mut p = udp_packet(uid, 0, 0);
            p.ns2_uid = uid;
            p.ip.src = a(2);
            p.payload = Payload::Control(ControlMessage::DsrRouteError {
                from: a(2),
                to: a(3),
                originator: a(0),
            });
            p.set_source_route(SourceRoute {
                path: paths(&[&[2, 4, 0]]).remove(0),
                next: 2,
                ..SourceRoute::default()
            });
            p
        };
        let hear = |d: &mut DsrAgent, uid: u64| {
            let mut out = RoutingOutput::default();
            d.on_overheard(ms(1), &ctx, ifaces[0], &error(uid), &mut out);
        };
        hear(&mut d, 7);
        assert_eq!(d.route_cache().paths().0, paths(&[&[5, 2]]));
        assert_eq!(d.route_cache().paths().1, paths(&[&[5, 4, 0]]));
        d.cache.add_primary(paths(&[&[5, 2, 3]]).remove(0));
        hear(&mut d, 7);
        let cut = paths(&[&[5, 2]]);
        if !filter {
            assert_eq!(d.route_cache().paths().0, cut);
            continue;
        }
        assert_eq!(d.route_cache().paths().0, paths(&[&[5, 2, 3]]));
        hear(&mut d, 7 + 1024);
        assert_eq!(d.route_cache().paths().0, cut);
        d.cache.add_primary(paths(&[&[5, 2, 3]]).remove(0));
        hear(&mut d, 7);
        assert_eq!(d.route_cache().paths().0, cut);
    }
}

/// Requests and target replies wait U(0, 10 ms): with the default jitter a re-broadcast is
/// scheduled within [now, now + 10 ms).
#[test]
fn forwarded_requests_are_jittered_within_10_ms() {
    let (addrs, ifaces) = ([a(2)], [IfaceId(2)]);
    let ctx = ctx_of(&addrs, &ifaces);
    let mut d = DsrAgent::new(DsrConfig::default(), RandomStream::named(1, "x"));
    for id in 1..50u16 {
        let mut p = udp_packet(1, 0, 100);
        p.payload = Payload::Control(ControlMessage::DsrRouteRequest {
            initiator: a(0),
            target: a(9),
            id,
            route: vec![a(0)],
            hop_limit: 16,
            route_error: None,
        });
        let now = ms(100 * u64::from(id));
        d.route_input(now, &ctx, ifaces[0], p);
        let t = d.next_timer().unwrap();
        assert!(t >= now && t < now + ms(10), "{t:?}");
        let mut out = RoutingOutput::default();
        d.on_timer(t, &mut out);
        assert_eq!(out.control.len(), 1);
    }
}

/// The seam: `RoutingProtocol::Dsr` dispatches to the agent.
#[test]
fn the_routing_seam_dispatches_to_dsr() {
    use crate::routing::{RoutingConfig, RoutingProtocol};
    let mut r = RoutingProtocol::for_node(&RoutingConfig::Dsr(cfg()), 1, "n0");
    let (addrs, ifaces) = ([a(0)], [IfaceId(0)]);
    let ctx = ctx_of(&addrs, &ifaces);
    assert!(matches!(
        r.route_output(SimTime::ZERO, &ctx, udp_packet(1, 3, 100)),
        Routed::Held
    ));
    assert_eq!((r.held(), r.next_timer()), (1, Some(SimTime::ZERO)));
    let mut out = RoutingOutput::default();
    r.on_timer(SimTime::ZERO, &mut out);
    assert_eq!(out.control.len(), 1);
    assert_eq!(out.control[0].msg.kind(), "dsr_rreq");
    assert_eq!(r.dsr_stats().map(|s| s.rreq_originated), Some(1));
}

/// ns-2's `NEW_SALVAGE_LOGIC` (`dsr_salvage_max_requests` 1, no propagating request): node
/// 1 cannot forward node 0's packet to 2 and has no other route. The packet waits in the
/// send buffer at 1 ms (only the route error leaves at once); the send buffer timer's next
/// tick, 30 ms, sends one ring-zero request; no propagating request follows (the packet is
/// not node 1's); the back-off of the next cycle is 2 s (500 ms · 4), so the first check at
/// or after 2.030 s (2.040 s, the checks tick every 30 ms from t = 0) drops the packet
/// (`salvage_no_route`) instead of asking again.
#[test]
fn an_unsalvageable_packet_waits_for_one_ring_zero_discovery_then_is_dropped() {
    let (addrs, ifaces) = ([a(1)], [IfaceId(1)]);
    let ctx = ctx_of(&addrs, &ifaces);
    let mut d = DsrAgent::new(cfg(), RandomStream::named(1, "x"));
    let mut p = udp_packet(7, 3, 1000);
    p.ip.src = a(0);
    p.set_source_route(SourceRoute {
        path: vec![a(0), a(1), a(2), a(3)],
        next: 2,
        salvaged: 0,
        ..SourceRoute::default()
    });
    let mut out = RoutingOutput::default();
    d.on_tx_failure(
        ms(1),
        &ctx,
        ifaces[0],
        a(2),
        TxFailureCause::RetryLimit,
        p,
        &mut out,
    );
    assert!(out.drops.is_empty() && out.send.is_empty());
    assert_eq!(out.control.len(), 1, "the route error only");
    assert!(matches!(
        out.control[0].msg,
        ControlMessage::DsrRouteError { .. }
    ));
    assert_eq!(d.buffered(), 1);
    let requests = |out: &RoutingOutput| {
        out.control
            .iter()
            .filter_map(|c| match c.msg {
                ControlMessage::DsrRouteRequest { hop_limit, .. } => Some(hop_limit),
                _ => None,
            })
            .collect::<Vec<_>>()
    };
    // 30 ms: the first check starts a cycle with a ring-zero request.
    assert_eq!(d.next_timer(), Some(ms(30)));
    let mut out = RoutingOutput::default();
    d.on_timer(ms(30), &mut out);
    assert_eq!(requests(&out), [1]);
    // Every check up to 2.010 s: no propagating request, no new cycle, no drop.
    let mut t = ms(60);
    while t < ms(2_040) {
        let mut out = RoutingOutput::default();
        assert_eq!(d.next_timer(), Some(t));
        d.on_timer(t, &mut out);
        assert!(
            requests(&out).is_empty() && out.drops.is_empty(),
            "at {t:?}"
        );
        t += ms(30);
    }
    // 2.040 s: the second cycle is due and drops the packet.
    let mut out = RoutingOutput::default();
    assert_eq!(d.next_timer(), Some(ms(2_040)));
    d.on_timer(ms(2_040), &mut out);
    assert!(requests(&out).is_empty());
    assert_eq!(
        out.drops
            .iter()
            .map(|(p, r)| (p.uid, *r))
            .collect::<Vec<_>>(),
        [(7, DropReason::SalvageNoRoute)]
    );
    assert_eq!(d.buffered(), 0);
    assert_eq!(d.next_timer(), None);
}

/// A salvaged packet of another node waiting in the send buffer leaves on the first check
/// after a route appears, with the new route and its salvage count unchanged (ns-2 raises
/// the count only when it salvages from the cache).
#[test]
fn a_buffered_salvaged_packet_leaves_with_its_salvage_count() {
    let (addrs, ifaces) = ([a(1)], [IfaceId(1)]);
    let ctx = ctx_of(&addrs, &ifaces);
    let mut d = DsrAgent::new(cfg(), RandomStream::named(1, "x"));
    let mut p = udp_packet(9, 3, 1000);
    p.ip.src = a(0);
    p.set_source_route(SourceRoute {
        path: vec![a(0), a(1), a(2), a(3)],
        next: 2,
        salvaged: 2,
        ..SourceRoute::default()
    });
    let mut out = RoutingOutput::default();
    d.on_tx_failure(
        ms(1),
        &ctx,
        ifaces[0],
        a(2),
        TxFailureCause::RetryLimit,
        p,
        &mut out,
    );
    assert_eq!(d.buffered(), 1);
    d.cache.add_primary(paths(&[&[1, 4, 3]]).remove(0));
    let mut out = RoutingOutput::default();
    assert_eq!(d.next_timer(), Some(ms(30)));
    d.on_timer(ms(30), &mut out);
    assert_eq!(out.send.len(), 1);
    let (sent, _, next_hop) = &out.send[0];
    let sr = sent.source_route().unwrap();
    assert_eq!(
        (sent.uid, *next_hop, list(&sr.path), sr.next, sr.salvaged),
        (9, a(4), "1,4,3".to_string(), 1, 2)
    );
    assert_eq!(d.buffered(), 0);
}

/// A 1000-octet packet `uid` to the last node of `path`, from its first, that node 1
/// (`path[1]`) is forwarding to `path[2]` on that source route.
fn forwarded_by_1(uid: u64, path: &[usize], flow: crate::net::packet::FlowHeader) -> Packet {
    let mut p = udp_packet(uid, path[path.len() - 1] as u32, 1000);
    p.ip.src = a(path[0]);
    p.set_source_route(SourceRoute {
        path: path.iter().map(|&i| a(i)).collect(),
        next: 2,
        flow,
        ..SourceRoute::default()
    });
    p
}

/// ns-2.35 takes a salvaged packet's old source route off its size only when it salvages
/// from the cache: one that waits in the send buffer keeps it and gains the new route's
/// octets on top when it leaves (`undeliverablePkt`, then `sendOutPacketWithRoute`).
/// Node 1 forwards a 1000-octet packet on route 0,1,2,3 (source route 4 + 4·3 = 16
/// octets); the link to 2 breaks, the cache has nothing, and the packet leaves on 1,4,3
/// (4 + 4·2 = 12 octets). Worked by hand from ns-2's size rules:
/// - the packet the MAC gave up on, with its route: 1000 + 16 + 12 = 1028;
/// - the same on an established flow (no route on the air, 1000 octets): ns-2's
///   `xmitFlowFailed` writes the flow's route into it first, so again 1028;
/// - a packet of that flow queued for the broken hop: nothing to keep, 1000 + 12 = 1012;
/// - with the rule off, every packet counts its new route only: 1012.
#[test]
fn a_salvaged_packet_that_waited_keeps_its_old_route_octets_as_ns2_does() {
    use crate::net::packet::FlowHeader;
    let cases = [
        (FlowHeader::None, TxFailureCause::RetryLimit, true, 1028),
        (
            FlowHeader::Established,
            TxFailureCause::RetryLimit,
            true,
            1028,
        ),
        (FlowHeader::Established, TxFailureCause::Queued, true, 1012),
        (FlowHeader::None, TxFailureCause::RetryLimit, false, 1012),
    ];
    for (flow, cause, keeps, released_size) in cases {
        let (addrs, ifaces) = ([a(1)], [IfaceId(1)]);
        let ctx = ctx_of(&addrs, &ifaces);
        let config = DsrConfig {
            buffered_salvage_keeps_old_route_octets: keeps,
            ..cfg()
        };
        let mut d = DsrAgent::new(config, RandomStream::named(1, "x"));
        let p = forwarded_by_1(9, &[0, 1, 2, 3], flow);
        let on_air = if flow == FlowHeader::None { 1016 } else { 1000 };
        assert_eq!(p.size, on_air);
        let mut out = RoutingOutput::default();
        d.on_tx_failure(ms(1), &ctx, ifaces[0], a(2), cause, p, &mut out);
        assert_eq!(d.buffered(), 1);
        d.cache.add_primary(paths(&[&[1, 4, 3]]).remove(0));
        let mut out = RoutingOutput::default();
        d.on_timer(ms(30), &mut out);
        let (sent, _, _) = &out.send[0];
        assert_eq!(list(&sent.source_route().unwrap().path), "1,4,3");
        assert_eq!(sent.size, released_size, "{flow:?} {cause:?} keeps {keeps}");
    }
}

/// ns-2's `xmitFailed` makes one route error, out of the packet the MAC gave up on; the
/// packets queued for the same hop are only salvaged (`undeliverablePkt`), whatever their
/// source. Node 1 loses its link to 2 with a packet of node 0 in the MAC and one of node 5
/// queued behind it: one route error, to 0; nothing goes to 5.
#[test]
fn only_the_failed_packet_makes_a_route_error() {
    use crate::net::packet::FlowHeader;
    let (addrs, ifaces) = ([a(1)], [IfaceId(1)]);
    let ctx = ctx_of(&addrs, &ifaces);
    let mut d = DsrAgent::new(cfg(), RandomStream::named(1, "x"));
    let errors_to = |out: &RoutingOutput| -> Vec<Addr> {
        out.control
            .iter()
            .filter(|c| matches!(c.msg, ControlMessage::DsrRouteError { .. }))
            .map(|c| c.dst)
            .collect()
    };
    let failed = forwarded_by_1(9, &[0, 1, 2, 3], FlowHeader::None);
    let mut out = RoutingOutput::default();
    d.on_tx_failure(
        ms(1),
        &ctx,
        ifaces[0],
        a(2),
        TxFailureCause::RetryLimit,
        failed,
        &mut out,
    );
    assert_eq!(errors_to(&out), [a(0)]);
    let queued = forwarded_by_1(10, &[5, 1, 2, 3], FlowHeader::None);
    let mut out = RoutingOutput::default();
    d.on_tx_failure(
        ms(1),
        &ctx,
        ifaces[0],
        a(2),
        TxFailureCause::Queued,
        queued,
        &mut out,
    );
    assert_eq!(errors_to(&out), []);
    assert_eq!(d.buffered(), 2, "both wait for a route in the send buffer");
}

/// ns-2.35 hands a packet its source sent without a source route (an established flow)
/// to `xmitFlowFailed`, which asks the flow table as it is when the MAC gives up. Node 0
/// sends five packets to 3 over 0,1,2,3 at 1 ms: flow 1, the first three establishing, 4
/// and 5 bare (the default flow). The MAC holds 4, 5 waits behind it.
/// - 5 ms: a route error reports 2→3 broken: flow 1 dies, the cache keeps 0,1,2.
/// - 6 ms: the MAC gives 4 up (next hop 1). The default flow, 1, is dead: 4 is lost
///   untraced (`dead_flow`): no `SSendFailure`, no link removed (the cache still has
///   0,1,2), nothing taken out of the queue, nothing sent.
/// - 7 ms: a discovery brought 0,1,2,3 back; packet 6 starts flow 3 (establishing), now
///   the default.
/// - 8 ms: the MAC gives 5 up (it left bare on flow 1). The default flow is 3, alive, on
///   0,1,2,3: an ordinary failure of that route: 0→1 is removed (the cache is empty), flow
///   3 dies, the packets queued for 1 are to come back (`reclaim_queued`), and 5, node 0's
///   own, waits in the send buffer while a ring-zero request asks for 3. No route error:
///   node 0 is the source.
///
/// With `flow_failure_by_flow_table` off, 4 is handled like 5 at 6 ms (counted all the
/// same).
#[test]
fn a_failed_packet_of_a_dead_flow_is_lost_untraced_as_ns2_does() {
    use crate::net::packet::FlowHeader;
    for by_table in [true, false] {
        let (addrs, ifaces) = ([a(0)], [IfaceId(0)]);
        let ctx = ctx_of(&addrs, &ifaces);
        let config = DsrConfig {
            flow_state: Some(FlowStateConfig::default()),
            flow_failure_by_flow_table: by_table,
            ..cfg()
        };
        let mut d = DsrAgent::new(config, RandomStream::named(1, "x"));
        d.log_mut().enable();
        d.cache.add_primary(paths(&[&[0, 1, 2, 3]]).remove(0));
        let mut sent = Vec::new();
        for uid in 1..=5 {
            let mut p = udp_packet(uid, 3, 1000);
            p.ip.src = a(0);
            match d.route_output(ms(1), &ctx, p) {
                Routed::Forward {
                    packet, next_hop, ..
                } => {
                    assert_eq!(next_hop, a(1));
                    sent.push(packet);
                }
                other => panic!("{other:?}"),
            }
        }
        let flows: Vec<(FlowHeader, u16)> = sent
            .iter()
            .map(|p| {
                let sr = p.source_route().unwrap();
                (sr.flow, sr.flow_id)
            })
            .collect();
        use FlowHeader::*;
        assert_eq!(
            flows,
            [
                (Establishing, 1),
                (Establishing, 1),
                (Establishing, 1),
                (Established, 1),
                (Established, 1)
            ]
        );
        let mut sent = sent.into_iter().skip(3);
        let (four, five) = (sent.next().unwrap(), sent.next().unwrap());
        let r = d.route_input(ms(5), &ctx, ifaces[0], route_error_for_0(2, 3));
        assert!(matches!(r, Routed::Consumed(_)));
        assert_eq!(d.route_cache().paths().0, paths(&[&[0, 1, 2]]));
        d.log_mut().take();

        let mut out = RoutingOutput::default();
        d.on_tx_failure(
            ms(6),
            &ctx,
            ifaces[0],
            a(1),
            TxFailureCause::RetryLimit,
            four,
            &mut out,
        );
        assert_eq!(d.stats().dead_flow_failures, 1);
        let failures: Vec<DsrLogEntry> = d.log_mut().take().into_iter().map(|(_, e)| e).collect();
        if by_table {
            let dropped: Vec<(u64, DropReason)> =
                out.drops.iter().map(|(p, why)| (p.uid, *why)).collect();
            assert_eq!(dropped, [(4, DropReason::DeadFlow)]);
            assert!(out.send.is_empty() && out.control.is_empty());
            assert!(out.reclaim_queued.is_empty(), "the queue is left alone");
            assert!(failures.is_empty(), "no SSendFailure");
            assert_eq!(d.route_cache().paths().0, paths(&[&[0, 1, 2]]));
            assert_eq!(d.buffered(), 0);
        } else {
            assert!(out.drops.is_empty());
            assert_eq!(out.reclaim_queued, [(ifaces[0], a(1))]);
            assert!(matches!(failures[..], [DsrLogEntry::SendFailure { .. }]));
            assert!(d.route_cache().paths().0.is_empty());
            assert_eq!(d.buffered(), 1);
            continue;
        }

        d.cache.add_primary(paths(&[&[0, 1, 2, 3]]).remove(0));
        let mut six = udp_packet(6, 3, 1000);
        six.ip.src = a(0);
        let Routed::Forward { packet: six, .. } = d.route_output(ms(7), &ctx, six) else {
            panic!("a route is cached");
        };
        let sr = six.source_route().unwrap();
        assert_eq!((sr.flow, sr.flow_id), (Establishing, 3));
        d.log_mut().take();

        let mut out = RoutingOutput::default();
        d.on_tx_failure(
            ms(8),
            &ctx,
            ifaces[0],
            a(1),
            TxFailureCause::RetryLimit,
            five,
            &mut out,
        );
        assert_eq!(d.stats().dead_flow_failures, 1);
        assert!(out.drops.is_empty() && out.send.is_empty());
        assert_eq!(out.reclaim_queued, [(ifaces[0], a(1))]);
        let requests = requests_sent(&out);
        assert_eq!(requests.len(), 1);
        assert_eq!(requests[0].0, 1, "a ring-zero request");
        assert_eq!(d.stats().rerr_originated, 0);
        assert!(d.route_cache().paths().0.is_empty());
        assert_eq!(d.buffered(), 1);
        let failures: Vec<DsrLogEntry> = d.log_mut().take().into_iter().map(|(_, e)| e).collect();
        match &failures[..] {
            [DsrLogEntry::SendFailure { to, route, at, .. }, ..] => {
                assert_eq!(
                    (*to, route.clone(), *at),
                    (a(1), paths(&[&[0, 1, 2, 3]]).remove(0), 0)
                );
            }
            other => panic!("{other:?}"),
        }
        // Flow 3 died with the link: the next packet starts flow 5.
        d.cache.add_primary(paths(&[&[0, 1, 2, 3]]).remove(0));
        let mut seven = udp_packet(7, 3, 1000);
        seven.ip.src = a(0);
        let Routed::Forward { packet: seven, .. } = d.route_output(ms(9), &ctx, seven) else {
            panic!("a route is cached");
        };
        assert_eq!(seven.source_route().unwrap().flow_id, 5);
    }
}

/// A route error packet for node 0: the link `from` → `to` broke; source route 1,0.
fn route_error_for_0(from: usize, to: usize) -> Packet {
    let mut p = udp_packet(50, 0, 0);
    p.ip.src = a(from);
    p.payload = Payload::Control(ControlMessage::DsrRouteError {
        from: a(from),
        to: a(to),
        originator: a(0),
    });
    p.set_source_route(SourceRoute {
        path: vec![a(from), a(0)],
        next: 1,
        salvaged: 0,
        ..SourceRoute::default()
    });
    p
}

/// A request as the tests see it: hop limit, the route error riding on it, IP size.
type SentRequest = (u8, Option<(Addr, Addr)>, u32);

fn requests_sent(out: &RoutingOutput) -> Vec<SentRequest> {
    out.control
        .iter()
        .filter_map(|c| match &c.msg {
            ControlMessage::DsrRouteRequest {
                hop_limit,
                route_error,
                ..
            } => Some((*hop_limit, *route_error, 20 + c.msg.body_bytes())),
            _ => None,
        })
        .collect()
}

/// Gratuitous route errors (RFC 4728 §8.3.5; ns-2 `dsragent_propagate_last_error`, 1 s
/// hold). Node 0 is told at 0.1 s that link 1→2 broke. Its packet to 3 at 0.1 s finds no
/// route: the ring-zero request carries the error (20 + 12 + 16 = 48 B, as ns-2 traces
/// it) and the error stays held; at the 0.150 s check the request is 50 ms old, more than
/// 30 ms: the propagating request carries it too and the error is spent. The next cycle
/// (back-off 2 s, first check at or after 2.1 s: 2.100) has a plain 32 B request.
#[test]
fn the_last_route_error_rides_on_the_next_requests() {
    let (addrs, ifaces) = ([a(0)], [IfaceId(0)]);
    let ctx = ctx_of(&addrs, &ifaces);
    let mut d = DsrAgent::new(cfg(), RandomStream::named(1, "x"));
    d.cache.add_primary(paths(&[&[0, 1, 2, 3]]).remove(0));
    let r = d.route_input(ms(100), &ctx, ifaces[0], route_error_for_0(1, 2));
    assert!(matches!(r, Routed::Consumed(_)));
    assert!(d.route_cache().paths().0.iter().all(|p| p.len() == 2));
    let mut p = udp_packet(60, 3, 1000);
    p.ip.src = a(0);
    assert!(matches!(d.route_output(ms(100), &ctx, p), Routed::Held));
    let link = Some((a(1), a(2)));
    let mut out = RoutingOutput::default();
    d.on_timer(ms(100), &mut out);
    assert_eq!(requests_sent(&out), [(1, link, 48)]);
    for (t, expected) in [(120, vec![]), (150, vec![(16, link, 48)])] {
        assert_eq!(d.next_timer(), Some(ms(t)));
        let mut out = RoutingOutput::default();
        d.on_timer(ms(t), &mut out);
        assert_eq!(requests_sent(&out), expected, "at {t} ms");
    }
    let mut out = RoutingOutput::default();
    d.on_timer(ms(2_100), &mut out);
    assert_eq!(requests_sent(&out), [(1, None, 32)]);
}

/// The error is held 1 s at most: told at 0 s, a request at exactly 1 s goes without it.
#[test]
fn a_route_error_older_than_the_hold_does_not_ride() {
    let (addrs, ifaces) = ([a(0)], [IfaceId(0)]);
    let ctx = ctx_of(&addrs, &ifaces);
    let mut d = DsrAgent::new(cfg(), RandomStream::named(1, "x"));
    d.route_input(SimTime::ZERO, &ctx, ifaces[0], route_error_for_0(1, 2));
    let mut p = udp_packet(60, 3, 1000);
    p.ip.src = a(0);
    d.route_output(ms(1_000), &ctx, p);
    let mut out = RoutingOutput::default();
    d.on_timer(ms(1_000), &mut out);
    assert_eq!(requests_sent(&out), [(1, None, 32)]);
}

/// Node 4 holds the route 4,1,2,3. A ring-zero request of node 0 for 3 gets a cached reply
/// from it (route 0,4,1,2,3); the same request carrying the error "1→2 broke" makes node 4
/// cut its path to 4,1 first, so it stays silent and node 0 must search further.
#[test]
fn a_request_with_a_route_error_cleans_the_cache_before_a_cached_reply() {
    let (addrs, ifaces) = ([a(4)], [IfaceId(4)]);
    let ctx = ctx_of(&addrs, &ifaces);
    let request = |id: u16, route_error: Option<(Addr, Addr)>| {
        let mut p = udp_packet(70 + u64::from(id), 0, 0);
        p.ip.src = a(0);
        p.ip.dst = Addr::BROADCAST;
        p.payload = Payload::Control(ControlMessage::DsrRouteRequest {
            initiator: a(0),
            target: a(3),
            id,
            route: vec![a(0)],
            hop_limit: 1,
            route_error,
        });
        p
    };
    let replies = |d: &mut DsrAgent, p: Packet| {
        d.route_input(SimTime::ZERO, &ctx, ifaces[0], p);
        let mut out = RoutingOutput::default();
        d.on_timer(SimTime::ZERO, &mut out);
        out.control
            .iter()
            .filter_map(|c| match &c.msg {
                ControlMessage::DsrRouteReply { route, .. } => Some(list(route)),
                _ => None,
            })
            .collect::<Vec<_>>()
    };
    let stale = paths(&[&[4, 1, 2, 3]]).remove(0);
    let mut plain = DsrAgent::new(cfg(), RandomStream::named(1, "x"));
    plain.cache.add_primary(stale.clone());
    assert_eq!(replies(&mut plain, request(1, None)), ["0,4,1,2,3"]);
    let mut told = DsrAgent::new(cfg(), RandomStream::named(1, "x"));
    told.cache.add_primary(stale);
    assert!(replies(&mut told, request(1, Some((a(1), a(2))))).is_empty());
    assert_eq!(told.route_cache().paths().0, paths(&[&[4, 1]]));
}

/// ns-2 `acceptRouteReply` spaces the packets a reply lets go by `arp_timeout`: three
/// packets buffered for node 2, the reply arriving at 0.5 s sends them at 0.5, 0.53 and
/// 0.56 s, in the order they came.
#[test]
fn packets_released_by_a_reply_leave_30_ms_apart() {
    let (addrs, ifaces) = ([a(0)], [IfaceId(0)]);
    let ctx = ctx_of(&addrs, &ifaces);
    let mut d = DsrAgent::new(cfg(), RandomStream::named(1, "x"));
    for (i, t) in [(1u64, 0u64), (2, 10), (3, 20)] {
        let mut p = udp_packet(i, 2, 1000);
        p.ip.src = a(0);
        d.route_output(ms(t), &ctx, p);
    }
    let mut reply = udp_packet(90, 0, 0);
    reply.ip.src = a(2);
    reply.payload = Payload::Control(ControlMessage::DsrRouteReply {
        route: vec![a(0), a(1), a(2)],
        request_id: 0,
        ttl: 255,
    });
    reply.set_source_route(SourceRoute {
        path: vec![a(2), a(1), a(0)],
        next: 2,
        salvaged: 0,
        ..SourceRoute::default()
    });
    d.route_input(ms(500), &ctx, ifaces[0], reply);
    let mut sent = Vec::new();
    while let Some(t) = d.next_timer() {
        let mut out = RoutingOutput::default();
        d.on_timer(t, &mut out);
        sent.extend(
            out.send
                .iter()
                .map(|(p, _, _)| (t.as_nanos() / 1_000_000, p.uid)),
        );
    }
    assert_eq!(sent, [(500, 1), (530, 2), (560, 3)]);
}

/// ns-2 `getRouteForPacket` for a packet the node originates: with the ring-zero request of
/// 0 s unanswered, a packet originated at 45 ms (more than 30 ms later) sends the
/// propagating request at once, before the 60 ms check.
#[test]
fn an_originated_packet_can_send_the_propagating_request() {
    let (addrs, ifaces) = ([a(0)], [IfaceId(0)]);
    let ctx = ctx_of(&addrs, &ifaces);
    let mut d = DsrAgent::new(cfg(), RandomStream::named(1, "x"));
    for (uid, t, expected) in [(1, 0, vec![1u8]), (2, 20, vec![]), (3, 45, vec![16])] {
        let mut p = udp_packet(uid, 5, 1000);
        p.ip.src = a(0);
        d.route_output(ms(t), &ctx, p);
        let mut out = RoutingOutput::default();
        d.flush(ms(t), &mut out);
        let hops: Vec<u8> = requests_sent(&out).iter().map(|r| r.0).collect();
        assert_eq!(hops, expected, "at {t} ms");
        if t == 20 {
            // The 30 ms check in between: the request is exactly 30 ms old, nothing goes.
            let mut out = RoutingOutput::default();
            d.on_timer(ms(30), &mut out);
            assert!(requests_sent(&out).is_empty());
        }
    }
    assert_eq!(d.stats().rreq_originated, 2);
}

/// ns-2's send buffer timer reschedules itself U(30, 60) ms ahead and runs from t = 0
/// whether or not packets wait. Over 200 checks of a buffer that never empties, every gap
/// lies in [30, 60) ms and their mean is within 2 ms of 45 ms (the standard deviation of
/// one gap is 30/√12 ≈ 8.7 ms, of the mean of 200 about 0.6 ms); the first check after a
/// packet buffered at 10 s comes less than 60 ms later.
#[test]
fn the_send_buffer_timer_ticks_every_30_to_60_ms() {
    let (addrs, ifaces) = ([a(0)], [IfaceId(0)]);
    let ctx = ctx_of(&addrs, &ifaces);
    let jittered = DsrConfig {
        buffer_check_jitter: true,
        request_period: SimTime::from_millis(1_000_000),
        max_request_period: SimTime::from_millis(1_000_000),
        ..cfg()
    };
    let mut d = DsrAgent::new(jittered, RandomStream::named(1, "x"));
    let mut p = udp_packet(1, 5, 1000);
    p.ip.src = a(0);
    d.route_output(ms(10_000), &ctx, p);
    let mut out = RoutingOutput::default();
    d.on_timer(ms(10_000), &mut out);
    assert_eq!(requests_sent(&out).len(), 1, "the ring-zero request");
    let first = d.next_timer().expect("a check is armed");
    assert!(first > ms(10_000) && first < ms(10_060), "{first:?}");
    let mut last = first;
    let mut gaps = Vec::new();
    for _ in 0..200 {
        let mut out = RoutingOutput::default();
        d.on_timer(last, &mut out);
        let next = d.next_timer().expect("the packet still waits");
        gaps.push((next.as_nanos() - last.as_nanos()) as f64 / 1e6);
        last = next;
    }
    assert!(gaps.iter().all(|&g| (30.0..60.0).contains(&g)), "{gaps:?}");
    let mean = gaps.iter().sum::<f64>() / gaps.len() as f64;
    assert!((mean - 45.0).abs() < 2.0, "mean gap {mean} ms");
}

/// A route reply that fails is salvaged like data (ns-2 `undeliverablePkt` runs for every
/// failed packet, `PT_DSR` included). At node 1, with 1,0 cached:
/// 1. 1 ms: node 5's reply for route 0,1,4,5, travelling 5,4,1,2,0, fails on 1→2: it
///    leaves on 1,0 with salvage count 1, and a route error (1→2) goes to node 5 over
///    1,4,5;
/// 2. 2 ms: node 5's reply for route 0,2,1,5 (it uses 2→1, the broken link reversed) fails
///    on 1→2: although 1,0 is cached it is dropped (`link_failure`, ns-2
///    `dsragent_dont_salvage_bad_replies`); its route error goes to node 5 too;
/// 3. 3 ms: node 5's reply travelling 5,1,0 fails on 1→0: no route is left, so it waits in
///    the send buffer (route error 3) and the 30 ms check sends a ring-zero request;
/// 4. 40 ms: node 1's own reply (route 0,1) over 1,0 fails: no route error (node 1 is its
///    source); it goes back into the send buffer, its source route removed, and no request
///    leaves (the cycle begun at 30 ms is backing off). A route 1,6,0 appears: the 60 ms
///    check sends both replies on it.
#[test]
fn failed_route_replies_are_salvaged_buffered_or_dropped_as_ns2_does() {
    let (addrs, ifaces) = ([a(1)], [IfaceId(1)]);
    let ctx = ctx_of(&addrs, &ifaces);
    let mut d = DsrAgent::new(cfg(), RandomStream::named(1, "x"));
    let reply = |uid: u64, from: usize, route: &[usize], path: &[usize], next: usize| {
        let mut p = udp_packet(uid, 0, 0);
        p.ip.src = a(from);
        p.ip.dst = a(0);
        p.payload = Payload::Control(ControlMessage::DsrRouteReply {
            route: route.iter().map(|&i| a(i)).collect(),
            request_id: 0,
            ttl: 255,
        });
        p.set_source_route(SourceRoute {
            path: path.iter().map(|&i| a(i)).collect(),
            next,
            salvaged: 0,
            ..SourceRoute::default()
        });
        p
    };
    d.cache.add_primary(paths(&[&[1, 0]]).remove(0));
    // 1. Salvaged on 1,0 with count 1; the route error goes back to node 5 over 1,4,5.
    let mut out = RoutingOutput::default();
    d.on_tx_failure(
        ms(1),
        &ctx,
        ifaces[0],
        a(2),
        TxFailureCause::RetryLimit,
        reply(1, 5, &[0, 1, 4, 5], &[5, 4, 1, 2, 0], 3),
        &mut out,
    );
    assert!(out.drops.is_empty());
    assert_eq!(out.send.len(), 1);
    let (sent, _, next_hop) = &out.send[0];
    let sr = sent.source_route().unwrap();
    assert_eq!(
        (sent.uid, *next_hop, list(&sr.path), sr.next, sr.salvaged),
        (1, a(0), "1,0".to_string(), 1, 1)
    );
    assert_eq!(out.control.len(), 1);
    match (&out.control[0].msg, &out.control[0].source_route) {
        (
            ControlMessage::DsrRouteError {
                from,
                to,
                originator,
            },
            Some(back),
        ) => {
            assert_eq!((*from, *to, *originator), (a(1), a(2), a(5)));
            assert_eq!(list(&back.path), "1,4,5");
        }
        other => panic!("expected a route error, got {other:?}"),
    }
    assert_eq!(d.stats().salvaged, 1);
    // 2. The reply's own route uses 2→1: dropped although 1,0 is cached.
    let mut out = RoutingOutput::default();
    d.on_tx_failure(
        ms(2),
        &ctx,
        ifaces[0],
        a(2),
        TxFailureCause::RetryLimit,
        reply(2, 5, &[0, 2, 1, 5], &[5, 1, 2, 0], 2),
        &mut out,
    );
    assert!(out.send.is_empty());
    assert_eq!(
        out.drops
            .iter()
            .map(|(p, r)| (p.uid, *r))
            .collect::<Vec<_>>(),
        [(2, DropReason::LinkFailure)]
    );
    assert_eq!(d.buffered(), 0);
    // 3. 1→0 breaks: no route to node 0 any more; the reply waits for the next check.
    let mut out = RoutingOutput::default();
    d.on_tx_failure(
        ms(3),
        &ctx,
        ifaces[0],
        a(0),
        TxFailureCause::RetryLimit,
        reply(3, 5, &[0, 1, 5], &[5, 1, 0], 2),
        &mut out,
    );
    assert!(out.send.is_empty() && out.drops.is_empty());
    assert_eq!(d.buffered(), 1);
    assert!(requests_sent(&out).is_empty());
    let mut out = RoutingOutput::default();
    assert_eq!(d.next_timer(), Some(ms(30)));
    d.on_timer(ms(30), &mut out);
    assert_eq!(requests_sent(&out), [(1, None, 32)]);
    // 4. Node 1's own reply fails on 1→0: no route error, back into the send buffer (its
    //    source route removed); the cycle begun at 30 ms holds the next request back.
    let mut out = RoutingOutput::default();
    d.on_tx_failure(
        ms(40),
        &ctx,
        ifaces[0],
        a(0),
        TxFailureCause::RetryLimit,
        reply(4, 1, &[0, 1], &[1, 0], 1),
        &mut out,
    );
    assert!(out.send.is_empty() && out.drops.is_empty() && out.control.is_empty());
    assert_eq!(d.buffered(), 2);
    assert_eq!(d.stats().rerr_originated, 3);
    // The salvaged reply keeps its count (0: it was buffered, not salvaged from the
    // cache); node 1's own goes with a plain source route.
    d.cache.add_primary(paths(&[&[1, 6, 0]]).remove(0));
    let mut out = RoutingOutput::default();
    assert_eq!(d.next_timer(), Some(ms(60)));
    d.on_timer(ms(60), &mut out);
    let sent: Vec<_> = out
        .send
        .iter()
        .map(|(p, _, nh)| {
            let sr = p.source_route().unwrap();
            (p.uid, *nh, list(&sr.path), sr.salvaged)
        })
        .collect();
    assert_eq!(
        sent,
        [
            (3, a(6), "1,6,0".to_string(), 0),
            (4, a(6), "1,6,0".to_string(), 0)
        ]
    );
    assert_eq!(d.buffered(), 0);
}

/// What node 1 learns (ns-2 `handleForwarding`, `tap` → `pre_noticeRouteUsed`,
/// `replyFromRouteCache`), the cache after each step:
/// 1. it forwards node 9's reply for route 0,1,8,9 (source route 9,8,1,0): it learns its
///    part of the source route, 1,0, not the reply's 1,8,9 (secondary: 1,0);
/// 2. it overhears 7→6 of a reply for route 0,3,1,6,7 travelling 7,6,1,3,0: its part of
///    the source route, 1,3,0, and of the reply's route, 1,6,7;
/// 3. it overhears 3→4 of node 2's data over 2,1,3,4, where it is behind the transmitter:
///    1,3,4 (no gratuitous reply);
/// 4. it overhears 3→4 of its own data over 1,3,5: nothing (ns-2 skips its own packets);
/// 5. node 0's ring-zero request for 4 arrives: node 1 replies from the cache (0,1,3,4)
///    and caches the way back, 1,0, as a primary route; the lookup only looked
///    (`findRoute(dest, route, 0)`), so 1,3,4 stays in the secondary set.
#[test]
fn what_forwarding_overhearing_and_cached_replies_teach_the_cache() {
    let (addrs, ifaces) = ([a(1)], [IfaceId(1)]);
    let ctx = ctx_of(&addrs, &ifaces);
    let mut d = DsrAgent::new(cfg(), RandomStream::named(1, "x"));
    let routed =
        |uid: u64, src: usize, dst: usize, path: &[usize], next: usize, reply: &[usize]| {
            let mut p = udp_packet(uid, 0, 100);
            p.ip.src = a(src);
            p.ip.dst = a(dst);
            if !reply.is_empty() {
                p.payload = Payload::Control(ControlMessage::DsrRouteReply {
                    route: reply.iter().map(|&i| a(i)).collect(),
                    request_id: 0,
                    ttl: 255,
                });
            }
            p.set_source_route(SourceRoute {
                path: path.iter().map(|&i| a(i)).collect(),
                next,
                salvaged: 0,
                ..SourceRoute::default()
            });
            p
        };
    // 1.
    let r = d.route_input(
        ms(1),
        &ctx,
        ifaces[0],
        routed(1, 9, 0, &[9, 8, 1, 0], 2, &[0, 1, 8, 9]),
    );
    assert!(matches!(r, Routed::Forward { .. }));
    assert!(d.route_cache().paths().0.is_empty());
    assert_eq!(d.route_cache().paths().1, paths(&[&[1, 0]]));
    // 2.
    let mut out = RoutingOutput::default();
    let p = routed(2, 7, 0, &[7, 6, 1, 3, 0], 1, &[0, 3, 1, 6, 7]);
    d.on_overheard(ms(2), &ctx, ifaces[0], &p, &mut out);
    assert!(out.control.is_empty());
    assert_eq!(
        d.route_cache().paths().1,
        paths(&[&[1, 0], &[1, 6, 7], &[1, 3, 0]])
    );
    // 3.
    let p = routed(3, 2, 4, &[2, 1, 3, 4], 3, &[]);
    d.on_overheard(ms(3), &ctx, ifaces[0], &p, &mut out);
    assert!(out.control.is_empty());
    let learned = paths(&[&[1, 0], &[1, 6, 7], &[1, 3, 0], &[1, 3, 4]]);
    assert_eq!(d.route_cache().paths().1, learned);
    // 4.
    let p = routed(4, 1, 5, &[1, 3, 5], 2, &[]);
    d.on_overheard(ms(4), &ctx, ifaces[0], &p, &mut out);
    assert_eq!(d.route_cache().paths().1, learned);
    // 5.
    let mut req = udp_packet(5, 0, 0);
    req.ip.src = a(0);
    req.ip.dst = Addr::BROADCAST;
    req.payload = Payload::Control(ControlMessage::DsrRouteRequest {
        initiator: a(0),
        target: a(4),
        id: 1,
        route: vec![a(0)],
        hop_limit: 1,
        route_error: None,
    });
    d.route_input(ms(5), &ctx, ifaces[0], req);
    let mut out = RoutingOutput::default();
    d.on_timer(ms(15), &mut out);
    let replies: Vec<_> = out
        .control
        .iter()
        .filter_map(|c| match &c.msg {
            ControlMessage::DsrRouteReply { route, .. } => Some(list(route)),
            _ => None,
        })
        .collect();
    assert_eq!(replies, ["0,1,3,4"]);
    // The way back is the one primary route; the secondary set is as it was.
    assert_eq!(d.route_cache().paths().0, paths(&[&[1, 0]]));
    assert_eq!(d.route_cache().paths().1, learned);
}

/// The log of ns-2's DSR trace lines at node 1 (`log.rs`): its own packets under flow state
/// (three establishing with the route, then on the default flow without it: `SFESTs`,
/// `SFs`); a transmit failure logs `SSendFailure` with the route and node 1's place in it,
/// then the salvage (`adding to SB` without another route); a packet handed back for the
/// same next hop at the same instant was queued behind it: its salvage only; with a
/// cached route the salvage goes on it (`salvaging`). Nothing is logged until enabled.
#[test]
fn the_log_records_ns2s_dsr_lines_in_order() {
    let (addrs, ifaces) = ([a(1)], [IfaceId(1)]);
    let ctx = ctx_of(&addrs, &ifaces);
    let flows = DsrConfig {
        flow_state: Some(FlowStateConfig::default()),
        ..cfg()
    };
    let mut d = DsrAgent::new(flows, RandomStream::named(1, "x"));
    let own = |uid: u64| {
        let mut p = udp_packet(uid, 3, 1000);
        p.ip.src = a(1);
        p
    };
    d.cache.add_primary(paths(&[&[1, 5, 3]]).remove(0));
    let _ = d.route_output(ms(1), &ctx, own(1));
    assert!(d.log_mut().take().is_empty(), "off until enabled");
    d.log_mut().enable();
    for uid in 2..5 {
        let _ = d.route_output(ms(1), &ctx, own(uid));
    }
    let sends: Vec<(u64, u16, bool, bool)> = d
        .log_mut()
        .take()
        .into_iter()
        .map(|(_, e)| match e {
            DsrLogEntry::FlowSend {
                uid,
                flow_id,
                flow_header,
                route,
                ..
            } => (uid, flow_id, flow_header, route.is_some()),
            other => panic!("{other:?}"),
        })
        .collect();
    // Packet 1 was the first establishing one (unlogged), 2 and 3 the others.
    assert_eq!(
        sends,
        [(2, 1, true, true), (3, 1, true, true), (4, 1, false, false)]
    );
    let failed = |uid: u64| {
        let mut p = udp_packet(uid, 3, 1000);
        p.set_source_route(SourceRoute {
            path: vec![a(0), a(1), a(2), a(3)],
            next: 2,
            ..SourceRoute::default()
        });
        p
    };
    let mut out = RoutingOutput::default();
    d.cache = route_cache::RouteCache::new(30, 64);
    d.on_tx_failure(
        ms(2),
        &ctx,
        ifaces[0],
        a(2),
        TxFailureCause::RetryLimit,
        failed(7),
        &mut out,
    );
    d.on_tx_failure(
        ms(2),
        &ctx,
        ifaces[0],
        a(2),
        TxFailureCause::RetryLimit,
        failed(8),
        &mut out,
    );
    d.cache.add_primary(paths(&[&[1, 4, 3]]).remove(0));
    d.on_tx_failure(
        ms(3),
        &ctx,
        ifaces[0],
        a(2),
        TxFailureCause::RetryLimit,
        failed(9),
        &mut out,
    );
    let lines: Vec<String> = d
        .log_mut()
        .take()
        .into_iter()
        .map(|(t, e)| match e {
            DsrLogEntry::SendFailure {
                packet,
                from,
                to,
                route,
                at,
                ..
            } => format!(
                "{t:?} failure {} {}->{} {} at {at}",
                packet.ns2_uid,
                list(&[from]),
                list(&[to]),
                list(&route)
            ),
            DsrLogEntry::SalvageNoRoute {
                uid,
                salvaged,
                buffered: true,
                ..
            } => {
                format!("{t:?} buffered {uid} [{salvaged}]")
            }
            DsrLogEntry::Salvaging { uid, route, .. } => {
                format!("{t:?} salvaging {uid} with {}", list(&route))
            }
            other => panic!("{other:?}"),
        })
        .collect();
    let t2 = format!("{:?}", ms(2));
    let t3 = format!("{:?}", ms(3));
    assert_eq!(
        lines,
        [
            format!(
                "{t2} failure 7 {}->{} {} at 1",
                list(&[a(1)]),
                list(&[a(2)]),
                list(&[a(0), a(1), a(2), a(3)])
            ),
            format!("{t2} buffered 7 [0]"),
            format!("{t2} buffered 8 [0]"),
            format!(
                "{t3} failure 9 {}->{} {} at 1",
                list(&[a(1)]),
                list(&[a(2)]),
                list(&[a(0), a(1), a(2), a(3)])
            ),
            format!("{t3} salvaging 9 with {}", list(&[a(1), a(4), a(3)])),
        ]
    );
}

/// ns-2 `sendOutRtReq` hands the node's own requests to `sendOutPacketWithRoute`, which
/// jitters every route request U(0, `RREQ_JITTER`), not only re-broadcasts; the discovery
/// state is that of the decision. Node 0, 10 ms jitter, send buffer checks every 30 ms
/// (no check jitter, so the jitters are the agent's only draws: j1, j2 from its stream):
/// 1. 0 ms: a packet for 5 finds no route: a cycle starts (ring zero at 0 ms), but nothing
///    leaves at 0 ms; the ring-zero request leaves at j1;
/// 2. 30 ms: the check finds the ring-zero request exactly 30 ms old: nothing;
/// 3. 60 ms: it is more than 30 ms old: the propagating request is decided (no ring-zero
///    request pending any more) and leaves at 60 ms + j2.
#[test]
fn originated_requests_wait_the_request_jitter() {
    let (addrs, ifaces) = ([a(0)], [IfaceId(0)]);
    let ctx = ctx_of(&addrs, &ifaces);
    let jittered = DsrConfig {
        rreq_jitter: ms(10),
        ..cfg()
    };
    let mut d = DsrAgent::new(jittered, RandomStream::named(1, "x"));
    let mut twin = RandomStream::named(1, "x");
    let (j1, j2) = (
        SimTime::from_nanos(twin.below(10_000_000)),
        SimTime::from_nanos(twin.below(10_000_000)),
    );
    assert!(j1 > SimTime::ZERO && j2 > SimTime::ZERO);
    let hops =
        |out: &RoutingOutput| -> Vec<u8> { requests_sent(out).iter().map(|r| r.0).collect() };
    // Step 1.
    let mut p = udp_packet(1, 5, 1000);
    p.ip.src = a(0);
    assert!(matches!(d.route_output(ms(0), &ctx, p), Routed::Held));
    let cycle = d.discoveries.get(a(5)).expect("a cycle started");
    assert_eq!(
        (cycle.cycles, cycle.last_cycle, cycle.ring_zero_at),
        (1, ms(0), Some(ms(0)))
    );
    assert_eq!(d.stats().rreq_originated, 1);
    assert_eq!(d.next_timer(), Some(j1));
    let mut out = RoutingOutput::default();
    d.on_timer(ms(0), &mut out);
    assert!(hops(&out).is_empty());
    let mut out = RoutingOutput::default();
    d.on_timer(j1, &mut out);
    assert_eq!(hops(&out), [1]);
    // Step 2.
    assert_eq!(d.next_timer(), Some(ms(30)));
    let mut out = RoutingOutput::default();
    d.on_timer(ms(30), &mut out);
    assert!(hops(&out).is_empty());
    // Step 3.
    assert_eq!(d.next_timer(), Some(ms(60)));
    let mut out = RoutingOutput::default();
    d.on_timer(ms(60), &mut out);
    assert!(hops(&out).is_empty());
    assert_eq!(d.discoveries.get(a(5)).unwrap().ring_zero_at, None);
    assert_eq!(d.stats().rreq_originated, 2);
    assert_eq!(d.next_timer(), Some(ms(60) + j2));
    let mut out = RoutingOutput::default();
    d.on_timer(ms(60) + j2, &mut out);
    assert_eq!(hops(&out), [16]);
    assert_eq!(d.next_timer(), Some(ms(90)));
}

/// ns-2 `replyFromRouteCache` sends its reply through `sendOutPacketWithRoute` at once
/// (only requests are jittered there); the target's own reply waits U(0, `RREQ_JITTER`)
/// (`returnSrcRouteToRequestor`). 10 ms jitter:
/// 1. node 4, holding 4,1,2,3, hears node 0's request for 3 at 100 ms: the reply
///    0,4,1,2,3 is due at 100 ms, and no jitter is drawn for it;
/// 2. node 3 hears node 0's request for itself (route 0,4) at 200 ms: its reply 0,4,3 is
///    due at 200 ms + j1, j1 the first draw of its stream.
#[test]
fn a_cached_reply_leaves_at_once_the_targets_after_its_jitter() {
    let jittered = DsrConfig {
        rreq_jitter: ms(10),
        ..cfg()
    };
    let request = |id: u16, route: &[usize]| {
        let mut p = udp_packet(80 + u64::from(id), 0, 0);
        p.ip.src = a(0);
        p.ip.dst = Addr::BROADCAST;
        p.payload = Payload::Control(ControlMessage::DsrRouteRequest {
            initiator: a(0),
            target: a(3),
            id,
            route: route.iter().map(|&i| a(i)).collect(),
            hop_limit: 16,
            route_error: None,
        });
        p
    };
    let replies = |out: &RoutingOutput| -> Vec<String> {
        out.control
            .iter()
            .filter_map(|c| match &c.msg {
                ControlMessage::DsrRouteReply { route, .. } => Some(list(route)),
                _ => None,
            })
            .collect()
    };
    // Step 1.
    let (addrs, ifaces) = ([a(4)], [IfaceId(4)]);
    let ctx = ctx_of(&addrs, &ifaces);
    let mut cached = DsrAgent::new(jittered, RandomStream::named(1, "x"));
    cached.cache.add_primary(paths(&[&[4, 1, 2, 3]]).remove(0));
    cached.route_input(ms(100), &ctx, ifaces[0], request(1, &[0]));
    assert_eq!(cached.next_timer(), Some(ms(100)));
    let mut out = RoutingOutput::default();
    cached.on_timer(ms(100), &mut out);
    assert_eq!(replies(&out), ["0,4,1,2,3"]);
    assert_eq!(cached.stats().rrep_from_cache, 1);
    assert_eq!(cached.next_timer(), None);
    // Step 2.
    let (addrs, ifaces) = ([a(3)], [IfaceId(3)]);
    let ctx = ctx_of(&addrs, &ifaces);
    let mut target = DsrAgent::new(jittered, RandomStream::named(2, "y"));
    let j1 = SimTime::from_nanos(RandomStream::named(2, "y").below(10_000_000));
    assert!(j1 > SimTime::ZERO);
    target.route_input(ms(200), &ctx, ifaces[0], request(2, &[0, 4]));
    assert_eq!(target.next_timer(), Some(ms(200) + j1));
    let mut out = RoutingOutput::default();
    target.on_timer(ms(200), &mut out);
    assert!(replies(&out).is_empty());
    let mut out = RoutingOutput::default();
    target.on_timer(ms(200) + j1, &mut out);
    assert_eq!(replies(&out), ["0,4,3"]);
    assert_eq!(target.stats().rrep_originated, 1);
}
