//! Scripted exchanges between AODV agents on small topologies, and single-rule checks on
//! one agent. The network is instantaneous and loss-free except for links the test breaks
//! (a unicast over a broken link comes straight back as a transmit failure); a broadcast
//! reaches every neighbour; forwarding decrements the IP TTL as the world does.

use super::route_table::RouteState;
use super::*;
use crate::net::addr::{Addr, IfaceId, NodeId};
use crate::net::control::ControlMessage;
use crate::net::packet::tests::udp_packet;
use crate::net::packet::PacketFields;
use crate::net::packet::{IpHeader, Packet, Payload, Ports};
use crate::routing::{ControlSend, RouteCtx, Routed, RoutingOutput};
use crate::sim::rng::RandomStream;
use crate::sim::SimTime;

fn a(i: usize) -> Addr {
    Addr::nth(i as u32)
}

fn ms(v: u64) -> SimTime {
    SimTime::from_millis(v)
}

/// ns-2 defaults without jitter, so that the hand-worked times are exact.
/// ns-2's defaults without broadcast jitter, and without the IP header ns-2 counts on
/// originated non-TCP packets, so that data keeps the size it was sent with (the test of
/// that header turns it on).
fn cfg() -> AodvConfig {
    AodvConfig {
        broadcast_jitter: SimTime::ZERO,
        originated_ip_header: false,
        ..AodvConfig::default()
    }
}

struct Net {
    agents: Vec<AodvAgent>,
    addrs: Vec<[Addr; 1]>,
    ifaces: Vec<[IfaceId; 1]>,
    links: Vec<(usize, usize)>,
    broken: Vec<(usize, usize)>,
    uid: u64,
    now: SimTime,
    log: Vec<String>,
}

impl Net {
    fn new(n: usize, links: &[(usize, usize)], cfg: AodvConfig) -> Self {
        Net {
            agents: (0..n)
                .map(|i| AodvAgent::new(cfg, RandomStream::named(1, &format!("n{i}"))))
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
            .filter_map(|&(x, y)| match (x == i, y == i) {
                (true, _) => Some(y),
                (_, true) => Some(x),
                _ => None,
            })
            .collect();
        v.sort();
        v
    }

    fn describe(p: &Packet) -> String {
        let what = match &p.payload {
            Payload::Control(ControlMessage::AodvRreq {
                id,
                dst,
                dst_seq,
                orig_seq,
                hop_count,
                ttl,
                ..
            }) => format!(
                "rreq id={id} d={}:{dst_seq} o={} hc={hop_count} ttl={ttl}",
                dst.index(),
                orig_seq
            ),
            Payload::Control(ControlMessage::AodvRrep {
                dst,
                dst_seq,
                hop_count,
                ttl,
                ..
            }) => format!("rrep d={}:{dst_seq} hc={hop_count} ttl={ttl}", dst.index()),
            Payload::Control(ControlMessage::AodvRerr { unreachable }) => format!(
                "rerr {}",
                unreachable
                    .iter()
                    .map(|(d, s)| format!("{}:{s}", d.index()))
                    .collect::<Vec<_>>()
                    .join(",")
            ),
            _ => format!("data uid={}", p.uid),
        };
        format!("{what} {}B", p.size)
    }

    fn log(&mut self, s: String) {
        self.log.push(format!("{:.3} {s}", self.now.as_secs_f64()));
    }

    fn ctx_of(&self, i: usize) -> ([Addr; 1], [IfaceId; 1]) {
        (self.addrs[i], self.ifaces[i])
    }

    fn control_packet(&mut self, c: ControlSend) -> (Packet, Addr) {
        self.uid += 1;
        let p = Packet::new(PacketFields {
            uid: self.uid,
            ns2_uid: self.uid,
            num_forwards: 0,
            flow: None,
            ip: IpHeader {
                src: c.src,
                dst: c.dst,
                ttl: c.msg.ip_ttl().unwrap_or(32),
            },
            ports: Ports::default(),
            headers: Vec::new(),
            size: 20 + c.msg.body_bytes(),
            created: self.now,
            payload: Payload::Control(c.msg),
        });
        (p, c.via.expect("AODV control goes on an interface").1)
    }

    fn drain(&mut self, i: usize, out: RoutingOutput) {
        for (p, why) in out.drops {
            self.log(format!("n{i} drop uid={} {}", p.uid, why.name()));
        }
        for (_, nh) in out.purge_queued {
            self.log(format!("n{i} purge queued for n{}", nh.index()));
        }
        for (p, _, nh) in out.send {
            self.transmit(i, p, nh);
        }
        for c in out.control {
            let (p, nh) = self.control_packet(c);
            self.transmit(i, p, nh);
        }
    }

    fn apply(&mut self, i: usize, r: Routed, forwarded: bool) {
        match r {
            Routed::Forward {
                mut packet,
                next_hop,
                ..
            } => {
                if forwarded {
                    packet.ip.ttl -= 1;
                }
                self.transmit(i, packet, next_hop)
            }
            Routed::Deliver(p) => self.log(format!("n{i} deliver uid={} {}B", p.uid, p.size)),
            Routed::Drop(p, why) => self.log(format!("n{i} drop uid={} {}", p.uid, why.name())),
            Routed::Held | Routed::Consumed(_) => {}
        }
    }

    fn input(&mut self, j: usize, mut p: Packet) {
        p.num_forwards += 1; // the receiving MAC counts the hop (ns-2 `recvDATA`)
        let (addrs, ifaces) = self.ctx_of(j);
        let ctx = RouteCtx {
            node: NodeId(j as u32),
            addrs: &addrs,
            ifaces: &ifaces,
        };
        let r = self.agents[j].route_input(self.now, &ctx, ifaces[0], p);
        self.apply(j, r, true);
    }

    fn transmit(&mut self, i: usize, p: Packet, next_hop: Addr) {
        if next_hop.is_broadcast() {
            self.log(format!("n{i}>* {}", Self::describe(&p)));
            for j in self.neighbours(i) {
                self.input(j, p.clone());
            }
            return;
        }
        let j = next_hop.index();
        if self.broken.contains(&(i, j)) {
            self.log(format!("n{i}>n{j} FAIL {}", Self::describe(&p)));
            self.tx_failure(i, next_hop, p);
            return;
        }
        assert!(self.neighbours(i).contains(&j), "n{i} -> n{j} not a link");
        self.log(format!("n{i}>n{j} {}", Self::describe(&p)));
        self.input(j, p);
    }

    /// Node `i`'s link layer could not deliver `p` to `next_hop` at the current time.
    fn tx_failure(&mut self, i: usize, next_hop: Addr, p: Packet) {
        let mut out = RoutingOutput::default();
        let (addrs, ifaces) = self.ctx_of(i);
        let ctx = RouteCtx {
            node: NodeId(i as u32),
            addrs: &addrs,
            ifaces: &ifaces,
        };
        self.agents[i].on_tx_failure(self.now, &ctx, ifaces[0], next_hop, p, &mut out);
        self.drain(i, out);
    }

    /// Node `i` originates a 1000-byte UDP packet to node `dst` at the current time.
    fn send_data(&mut self, i: usize, dst: usize) -> u64 {
        self.uid += 1;
        let uid = self.uid;
        let mut p = udp_packet(uid, dst as u32, 1000);
        p.ip.src = a(i);
        let (addrs, ifaces) = self.ctx_of(i);
        let ctx = RouteCtx {
            node: NodeId(i as u32),
            addrs: &addrs,
            ifaces: &ifaces,
        };
        let r = self.agents[i].route_output(self.now, &ctx, p);
        self.apply(i, r, false);
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

    /// (state, seq, hops, next hop, precursors) of node `i`'s entry for `dst`.
    fn route(&self, i: usize, dst: usize) -> (RouteState, u32, u8, usize, Vec<usize>) {
        let e = self.agents[i].route_table().get(a(dst)).expect("entry");
        (
            e.state,
            e.seq,
            e.hops,
            if e.next_hop.is_broadcast() {
                usize::MAX
            } else {
                e.next_hop.index()
            },
            e.precursors.iter().map(|p| p.index()).collect(),
        )
    }
}

use RouteState::{Invalid, Valid};

/// Chain 0-1-2-3, node 0 sends 1000 bytes to node 3 at t = 0.
/// - Node 0 queues the packet, raises its sequence number 2 → 4 and broadcasts RREQ id 1
///   (dst 3, seq unknown 0, 20 + 28 = 48 B) network-wide, TTL 30: ns-2.35's new route entry
///   has an infinite last hop count (`INFINITY2`), so `sendRequest` skips TTL_START and the
///   expanding ring (ns-2's own trace of a 7-hop chain shows TTL 30 on the first request,
///   answered from 7 hops in under 0.1 s). Nodes 1 and 2 set reverse routes
///   to 0 (hops 1, 2; seq 4) and re-broadcast (hop count +1, TTL −1); node 0 drops its own
///   request and node 1 the duplicate from node 2.
/// - Node 3, the destination, sets its sequence number to max(2, 0) + 1 = 3 → even 4 and
///   answers (20 + 24 = 44 B) along the reverse route; every hop installs the forward
///   route (hops 1, 2, 3; seq 4) and records the next hop towards 0 as precursor.
/// - Node 0 releases the queued packet on the new route: delivered at node 3.
#[test]
fn discovery_over_a_chain() {
    let mut net = Net::new(4, &[(0, 1), (1, 2), (2, 3)], cfg());
    let uid = net.send_data(0, 3);
    assert_eq!((net.agents[0].queued(), net.agents[0].own_seq()), (1, 4));
    assert_eq!(net.agents[0].next_timer(), Some(SimTime::ZERO));
    net.run_until(SimTime::ZERO);
    let d = format!("data uid={uid} 1000B");
    assert_eq!(
        net.take_log(),
        vec![
            "0.000 n0>* rreq id=1 d=3:0 o=4 hc=0 ttl=30 48B".to_string(),
            "0.000 n1>* rreq id=1 d=3:0 o=4 hc=1 ttl=29 48B".into(),
            "0.000 n2>* rreq id=1 d=3:0 o=4 hc=2 ttl=28 48B".into(),
            "0.000 n3>n2 rrep d=3:4 hc=0 ttl=30 44B".into(),
            "0.000 n2>n1 rrep d=3:4 hc=1 ttl=29 44B".into(),
            "0.000 n1>n0 rrep d=3:4 hc=2 ttl=28 44B".into(),
            format!("0.000 n0>n1 {d}"),
            format!("0.000 n1>n2 {d}"),
            format!("0.000 n2>n3 {d}"),
            format!("0.000 n3 deliver uid={uid} 1000B"),
        ]
    );
    assert_eq!(net.route(0, 3), (Valid, 4, 3, 1, vec![]));
    assert_eq!(net.route(1, 3), (Valid, 4, 2, 2, vec![0]));
    assert_eq!(net.route(2, 3), (Valid, 4, 1, 3, vec![1]));
    assert_eq!(net.route(3, 0), (Valid, 4, 3, 2, vec![]));
    assert_eq!(net.route(1, 0), (Valid, 4, 1, 0, vec![]));
    assert_eq!(net.agents[3].own_seq(), 4);
    // Lifetimes: the forward route at 0 lives ACTIVE_ROUTE_TIMEOUT (= MY_ROUTE_TIMEOUT,
    // 10 s) from the reply; the reverse route at 3 REV_ROUTE_LIFE 6 s.
    let exp = |i: usize, d: usize| net.agents[i].route_table().get(a(d)).unwrap().expire;
    assert_eq!((exp(0, 3), exp(3, 0)), (ms(10_000), ms(6_000)));
    let s = |i: usize| net.agents[i].stats();
    assert_eq!(
        (
            s(0).rreq_originated,
            s(1).rreq_forwarded,
            s(2).rreq_forwarded
        ),
        (1, 1, 1)
    );
    // Duplicate suppression by (originator, id): 0 its own, 1 the copy from 2.
    assert_eq!(
        (
            s(0).rreq_suppressed,
            s(1).rreq_suppressed,
            s(2).rreq_suppressed
        ),
        (1, 1, 0)
    );
    assert_eq!(
        (
            s(3).rrep_originated_dest,
            s(1).rrep_forwarded,
            s(2).rrep_forwarded
        ),
        (1, 1, 1)
    );
    assert_eq!(
        (net.agents[0].held(), net.agents[0].next_timer()),
        (0, None)
    );
    // ns-2 looks at lifetimes only on the 0.5 s purge ticks (`rt_purge`), and takes down a
    // route whose lifetime ended before the tick (`rt_expire < now`). At 10 s the tick finds
    // the lifetime (10 s) not before it: the route is up, the packet goes on it and renews
    // it (ns-2 `forward`: now + ACTIVE_ROUTE_TIMEOUT = 20 s).
    net.run_until(ms(10_000));
    let uid2 = net.send_data(0, 3);
    assert!(net
        .take_log()
        .contains(&format!("10.000 n3 deliver uid={uid2} 1000B")));
    let exp03 = |net: &Net| net.agents[0].route_table().get(a(3)).unwrap().expire;
    assert_eq!(exp03(&net), ms(20_000));
    // 20.4 s: the lifetime is past, but the last tick (20.0 s) did not find it so: still
    // up; renewed to 30.4 s.
    net.now = ms(20_400);
    let uid3 = net.send_data(0, 3);
    assert!(net
        .take_log()
        .contains(&format!("20.400 n3 deliver uid={uid3} 1000B")));
    assert_eq!((net.route(0, 3).0, exp03(&net)), (Valid, ms(30_400)));
    // 30.9 s: the tick at 30.5 s found 30.4 s past and took the route down, its sequence
    // number incremented (4 → 5); the packet waits for a new discovery, which delivers it.
    net.now = ms(30_900);
    let uid4 = net.send_data(0, 3);
    assert_eq!((net.route(0, 3).0, net.route(0, 3).1), (Invalid, 5));
    assert_eq!(net.agents[0].queued(), 1);
    net.run_until(ms(30_900));
    assert!(net
        .take_log()
        .contains(&format!("30.900 n3 deliver uid={uid4} 1000B")));
}

fn rrep_from(from: usize, dst: usize, seq: u32, hops: u8) -> Packet {
    Packet::new(PacketFields {
        uid: 1,
        ns2_uid: 1,
        num_forwards: 0,
        flow: None,
        ip: IpHeader {
            src: a(from),
            dst: a(0),
            ttl: 64,
        },
        ports: Ports::default(),
        headers: Vec::new(),
        size: 44,
        created: SimTime::ZERO,
        payload: Payload::Control(ControlMessage::AodvRrep {
            dst: a(dst),
            dst_seq: seq,
            orig: a(0),
            hop_count: hops,
            lifetime: ms(10_000),
            sent: SimTime::ZERO,
            ttl: 30,
            last_hop: a(from),
        }),
    })
}

/// Node 0 hears replies for destination 5: (from 1, seq 10, 3 hops) installs; an older
/// seq 8 with 1 hop does not replace it; equal seq 10 with 2 hops (fewer) does; equal seq
/// with equal hops does not; a fresher seq 12 with 6 hops does.
#[test]
fn sequence_number_freshness() {
    let mut ag = AodvAgent::new(cfg(), RandomStream::named(1, "x"));
    let (addrs, ifaces) = ([a(0)], [IfaceId(0)]);
    let ctx = RouteCtx {
        node: NodeId(0),
        addrs: &addrs,
        ifaces: &ifaces,
    };
    let mut hear = |from, seq, hops| {
        let r = ag.route_input(
            SimTime::ZERO,
            &ctx,
            IfaceId(0),
            rrep_from(from, 5, seq, hops),
        );
        assert!(matches!(r, Routed::Consumed(_)));
        let e = ag.route_table().get(a(5)).unwrap();
        (e.seq, e.hops, e.next_hop.index())
    };
    assert_eq!(hear(1, 10, 2), (10, 3, 1));
    assert_eq!(hear(2, 8, 0), (10, 3, 1));
    assert_eq!(hear(2, 10, 1), (10, 2, 2));
    assert_eq!(hear(3, 10, 1), (10, 2, 2));
    assert_eq!(hear(3, 12, 5), (12, 6, 3));
}

/// No destination answers: node 0 (neighbour 1 only) looks for address 9. RREQs go out on
/// the first packet and then on the 0.5 s purge ticks once the previous wait is over.
/// ns-2 `sendRequest`: the ring grows from max(last TTL, last hop count): TTL 5 from 0, +2
/// below 7, else 30 counting network-wide attempts c; wait = min(2·TTL·30 ms·max(c, 1),
/// 10 s); when c > RREQ_RETRIES (3) the queued packets are dropped (`no_route`) and
/// discovery pauses 10 s. A destination never routed to has an infinite last hop count
/// (255), so every request for it is network-wide: at 0 s (c = 1, wait 1.8 s), 2.0 s (c =
/// 2, 3.6 s), 6.0 s (c = 3, 5.4 s), 11.5 s (c = 4, 7.2 s), and at 19.0 s the packet is
/// dropped.
#[test]
fn expanding_ring_ttls_and_waits() {
    let mut net = Net::new(2, &[(0, 1)], cfg());
    let uid = net.send_data(0, 9);
    net.run_until(ms(25_000));
    let log = net.take_log();
    let sent: Vec<(String, u8)> = log
        .iter()
        .filter(|l| l.contains("n0>* rreq"))
        .map(|l| {
            let ttl = l.split("ttl=").nth(1).unwrap().split(' ').next().unwrap();
            (
                l.split(' ').next().unwrap().to_string(),
                ttl.parse().unwrap(),
            )
        })
        .collect();
    // The same rules, worked through on the 0.5 s ticks.
    let mut expect = Vec::new();
    let (mut last, mut count, mut not_before, mut dropped_at) = (255u8, 0u64, 0u64, None);
    for tick in 0..50u64 {
        let t = tick * 500;
        if t < not_before {
            continue;
        }
        if count > 3 {
            dropped_at = Some(t);
            break;
        }
        let ttl = if last == 0 {
            5
        } else if last < 7 {
            last + 2
        } else {
            count += 1;
            30
        };
        last = ttl;
        not_before = t + (2 * ttl as u64 * 30 * count.max(1)).min(10_000);
        expect.push((format!("{:.3}", t as f64 / 1000.0), ttl));
    }
    assert_eq!(
        expect,
        [("0.000", 30), ("2.000", 30), ("6.000", 30), ("11.500", 30)]
            .map(|(t, l)| (t.to_string(), l))
    );
    assert_eq!(sent, expect);
    assert_eq!(dropped_at, Some(19_000));
    assert!(log.contains(&format!("19.000 n0 drop uid={uid} no_route")));
    let e = net.agents[0].route_table().get(a(9)).unwrap();
    assert_eq!((e.req_count, e.req_timeout), (0, ms(29_000)));
    assert_eq!(net.agents[0].stats().rreq_originated, 4);
    // Node 1 re-broadcast each with TTL − 1.
    assert_eq!(net.agents[1].stats().rreq_forwarded, 4);
}

/// After discovery on 0-1-2-3, the link 1→2 breaks under a packet from 0. At node 1 the
/// packet has come 1 hop and the route has 2 more: no local repair. Node 1 drops it
/// (`link_failure`) and whatever its interface queue holds for node 2 (ns-2 `rt_ll_failed`),
/// invalidates its route to 3 (seq 4 → 5) and sends RERR (3:5,
/// 20 + 4 + 8 = 32 B) at once to the IP broadcast address, TTL 1, as ns-2.35's
/// `handle_link_failure` does (not RFC 3561's unicast to a lone precursor): node 2 hears it
/// too and keeps its route, whose next hop is 3, not 1. Node 0 invalidates its route (seq 5),
/// drops what its interface queue holds for node 1 (ns-2 `recvError`'s `ifqueue->filter`)
/// and, with no precursors, sends nothing further.
/// Its next search for 3 grows the ring from the route it had (ns-2 `sendRequest`:
/// max(last TTL = the reply's hop count 3, last hop count 3) + 2 = TTL 5), not network-wide.
#[test]
fn rerr_to_precursors_when_a_link_breaks() {
    let mut net = Net::new(4, &[(0, 1), (1, 2), (2, 3)], cfg());
    net.send_data(0, 3);
    net.run_until(SimTime::ZERO);
    net.take_log();
    net.now = ms(1_000);
    net.broken.push((1, 2));
    let uid = net.send_data(0, 3);
    net.run_until(ms(1_000));
    let d = format!("data uid={uid} 1000B");
    assert_eq!(
        net.take_log(),
        vec![
            format!("1.000 n0>n1 {d}"),
            format!("1.000 n1>n2 FAIL {d}"),
            format!("1.000 n1 drop uid={uid} link_failure"),
            "1.000 n1 purge queued for n2".into(),
            "1.000 n1>* rerr 3:5 32B".into(),
            "1.000 n0 purge queued for n1".into(),
        ]
    );
    // Node 1 keeps node 0 as a precursor: ns-2 only strikes the lost neighbour off.
    assert_eq!(net.route(1, 3), (Invalid, 5, 2, usize::MAX, vec![0]));
    assert_eq!(net.route(0, 3), (Invalid, 5, 3, usize::MAX, vec![]));
    assert_eq!(net.route(2, 3), (Valid, 4, 1, 3, vec![1]));
    assert_eq!(net.agents[1].stats().rerr_sent, 1);
    assert_eq!(net.agents[1].stats().link_breaks, 1);
    assert_eq!(net.agents[0].stats().rerr_sent, 0);
    let e = net.agents[0].route_table().get(a(3)).unwrap();
    assert_eq!((e.req_last_ttl, e.last_hops), (3, 3));
    net.send_data(0, 3);
    net.run_until(ms(1_000));
    let log = net.take_log();
    assert_eq!(
        log[0], "1.000 n0>* rreq id=2 d=3:5 o=6 hc=0 ttl=5 48B",
        "{log:?}"
    );
}

/// 0-1-2-3-4 with a detour 3-5-4, with RFC 3561 §6.12's local repair
/// (`local_repair_fresh_seq`, a 150 ms repair wait). After discovery (route 3→4 direct),
/// the link 3-4 disappears. At node 3 the packet has come 3 hops and the route has 1:
/// local repair. Node 3 queues it, asks for 4 with its sequence number raised (4 → 5),
/// network-wide (TTL 30: the route was never invalidated here, so its last hop count is
/// still a new entry's infinite one, as in ns-2); node 2's route (seq 4) is not fresh
/// enough to answer; node 4 answers via 5 with seq max(4, 5) + 1 → 6; the packet goes
/// 3-5-4. No RERR.
#[test]
fn local_repair_near_the_destination() {
    let links = [(0, 1), (1, 2), (2, 3), (3, 4), (3, 5), (5, 4)];
    let rfc = AodvConfig {
        local_repair_fresh_seq: true,
        local_repair_wait: Some(ms(150)),
        ..cfg()
    };
    let mut net = Net::new(6, &links, rfc);
    net.send_data(0, 4);
    net.run_until(SimTime::ZERO);
    assert_eq!(net.route(3, 4), (Valid, 4, 1, 4, vec![2]));
    net.take_log();
    net.now = ms(1_000);
    net.links.retain(|&l| l != (3, 4));
    net.broken.push((3, 4));
    let uid = net.send_data(0, 4);
    net.run_until(ms(2_000));
    let log = net.take_log();
    assert!(log.contains(&"1.000 n3>* rreq id=1 d=4:5 o=4 hc=0 ttl=30 48B".to_string()));
    assert!(log.contains(&format!("1.000 n5>n4 data uid={uid} 1000B")));
    assert!(log.contains(&format!("1.000 n4 deliver uid={uid} 1000B")));
    assert!(!log.iter().any(|l| l.contains("rerr")));
    let (state, seq, hops, next, _) = net.route(3, 4);
    assert_eq!((state, seq, hops, next), (Valid, 6, 2, 5));
    let s3 = net.agents[3].stats();
    assert_eq!(
        (
            s3.local_repairs,
            s3.rerr_sent,
            s3.rrep_originated_intermediate
        ),
        (1, 0, 0)
    );
    assert_eq!(
        (net.agents[3].held(), net.agents[3].next_timer()),
        (0, None)
    );
}

/// A RREQ of originator 9 (sequence number 4) for node 7, id `id`, with `hop_count` hops so
/// far and TTL `ttl` (in its IP header and its message), as neighbour `from` sent it.
fn rreq_from(from: usize, id: u32, hop_count: u8, ttl: u8) -> Packet {
    Packet::new(PacketFields {
        uid: 1,
        ns2_uid: 1,
        num_forwards: 0,
        flow: None,
        ip: IpHeader {
            src: a(from),
            dst: Addr::BROADCAST,
            ttl,
        },
        ports: Ports::default(),
        headers: Vec::new(),
        size: 48,
        created: SimTime::ZERO,
        payload: Payload::Control(ControlMessage::AodvRreq {
            id,
            dst: a(7),
            dst_seq: 0,
            orig: a(9),
            orig_seq: 4,
            hop_count,
            ttl,
            sent: SimTime::ZERO,
        }),
    })
}

/// A RREQ heard a second time with the same (originator, id), from another neighbour, is
/// suppressed; the next id is processed; after BCAST_ID_SAVE (6 s) the id is forgotten.
#[test]
fn duplicate_rreq_suppression() {
    let mut ag = AodvAgent::new(cfg(), RandomStream::named(1, "x"));
    let (addrs, ifaces) = ([a(0)], [IfaceId(0)]);
    let ctx = RouteCtx {
        node: NodeId(0),
        addrs: &addrs,
        ifaces: &ifaces,
    };
    let rreq = |from: usize, id: u32| rreq_from(from, id, 1, 5);
    let mut feed = |t: u64, from, id| {
        ag.route_input(ms(t), &ctx, IfaceId(0), rreq(from, id));
        let s = ag.stats();
        (s.rreq_forwarded, s.rreq_suppressed)
    };
    assert_eq!(feed(0, 1, 1), (1, 0));
    assert_eq!(feed(1, 2, 1), (1, 1));
    assert_eq!(feed(2, 2, 2), (2, 1));
    assert_eq!(feed(6_001, 3, 1), (3, 1));
}

/// ns-2 `recvRequest` → `forward`: node 0, neither the target (7) nor holding a route to it,
/// receives originator 9's request (id 1, hop count 2) from neighbour 1. With TTL 2 it passes
/// the request on with TTL 1 and hop count 3. With TTL 1 the TTL is spent here: the request
/// is dropped (`DROP_RTR_TTL`, a `D RTR TTL` trace line), as the request this node would have
/// sent: its IP source this node, hop count 3, TTL 0.
#[test]
fn a_rreq_whose_ttl_runs_out_is_dropped_as_the_request_it_would_forward() {
    let mut ag = AodvAgent::new(cfg(), RandomStream::named(1, "x"));
    let (addrs, ifaces) = ([a(0)], [IfaceId(0)]);
    let ctx = RouteCtx {
        node: NodeId(0),
        addrs: &addrs,
        ifaces: &ifaces,
    };
    let rreq = |id: u32, ttl: u8| rreq_from(1, id, 2, ttl);
    assert!(matches!(
        ag.route_input(ms(0), &ctx, IfaceId(0), rreq(1, 2)),
        Routed::Consumed(_)
    ));
    assert_eq!(
        (ag.stats().rreq_forwarded, ag.stats().rreq_suppressed),
        (1, 0)
    );
    let Routed::Drop(p, why) = ag.route_input(ms(1), &ctx, IfaceId(0), rreq(2, 1)) else {
        panic!("a request with its TTL spent is dropped");
    };
    assert_eq!(why, crate::net::packet::DropReason::TtlExpired);
    assert_eq!((p.ip.src, p.ip.ttl), (a(0), 0));
    let Payload::Control(ControlMessage::AodvRreq {
        hop_count,
        ttl,
        orig,
        id,
        ..
    }) = p.payload
    else {
        panic!("still the request");
    };
    assert_eq!((hop_count, ttl, orig, id), (3, 0, a(9), 2));
    assert_eq!(
        (ag.stats().rreq_forwarded, ag.stats().rreq_suppressed),
        (1, 1)
    );
}

/// Queue timeout 1 s, capacity 2: packets queued at 0 and 0.4 s for an unreachable
/// address; a third at 0.6 s evicts the first (`hold_overflow`); the second is dropped at
/// 1.4 s and the third at 1.6 s (`hold_timeout`).
#[test]
fn queue_timeout_and_overflow() {
    let c = AodvConfig {
        queue_timeout: ms(1_000),
        queue_size: 2,
        ..cfg()
    };
    let mut net = Net::new(2, &[(0, 1)], c);
    let u1 = net.send_data(0, 9);
    net.run_until(ms(400));
    let u2 = net.send_data(0, 9);
    net.run_until(ms(600));
    let u3 = net.send_data(0, 9);
    net.run_until(ms(2_000));
    let drops: Vec<String> = net
        .take_log()
        .into_iter()
        .filter(|l| l.contains("drop"))
        .collect();
    assert_eq!(
        drops,
        vec![
            format!("0.600 n0 drop uid={u1} hold_overflow"),
            format!("1.400 n0 drop uid={u2} hold_timeout"),
            format!("1.600 n0 drop uid={u3} hold_timeout"),
        ]
    );
    let s = net.agents[0].stats();
    assert_eq!((s.queued, s.queue_overflows, s.queue_timeouts), (3, 1, 2));
    assert_eq!(
        (net.agents[0].held(), net.agents[0].next_timer()),
        (0, None)
    );
}

/// HELLOs (RFC 3561 §6.9, ns-2 `sendHello`/`recvHello`/`nb_purge`), switched on. Node 0
/// sends its first HELLO when started (t = 0, its own sequence number 2) and the next one
/// U(0.75, 1.25) s later. A HELLO from node 1 at 0.5 s makes 1 a neighbour until
/// 0.5 + 1.5 × 3 × 1 s = 5.0 s. A route to 5 via 1 is then installed (seq 10); when nothing
/// more is heard from 1, at 5.0 s the link is lost: the route goes invalid with its sequence
/// number raised to 11, and node 0 forgets 1.
#[test]
fn hellos_find_neighbours_and_their_absence_breaks_the_link() {
    let mut ag = AodvAgent::new(
        AodvConfig {
            hello: true,
            ..cfg()
        },
        RandomStream::named(1, "x"),
    );
    let (addrs, ifaces) = ([a(0)], [IfaceId(0)]);
    let ctx = RouteCtx {
        node: NodeId(0),
        addrs: &addrs,
        ifaces: &ifaces,
    };
    ag.start(SimTime::ZERO, &ctx);
    assert_eq!(ag.next_timer(), Some(SimTime::ZERO));
    let mut out = RoutingOutput::default();
    ag.on_timer(SimTime::ZERO, &mut out);
    assert_eq!(out.control.len(), 1);
    assert_eq!(out.control[0].msg, ControlMessage::AodvHello { dst_seq: 2 });
    assert_eq!(out.control[0].dst, Addr::BROADCAST);
    let next = ag.next_timer().unwrap();
    assert!(next >= ms(750) && next <= ms(1_250), "{next:?}");

    let mut hello = rrep_from(1, 1, 4, 0);
    hello.ip.dst = Addr::BROADCAST;
    hello.payload = Payload::Control(ControlMessage::AodvHello { dst_seq: 4 });
    let r = ag.route_input(ms(500), &ctx, IfaceId(0), hello);
    assert!(matches!(r, Routed::Consumed(_)));
    assert_eq!(ag.hello_neighbours(), &[(a(1), ms(5_000))]);
    let r = ag.route_input(ms(600), &ctx, IfaceId(0), rrep_from(1, 5, 10, 1));
    assert!(matches!(r, Routed::Consumed(_)));
    assert!(ag.route_table().valid(a(5)).is_some());

    // HELLOs keep going out; the neighbour is still there just before 5.0 s.
    let mut t = ms(600);
    while let Some(due) = ag.next_timer().filter(|&d| d < ms(5_000)) {
        t = due;
        ag.on_timer(t, &mut RoutingOutput::default());
    }
    assert!(t < ms(5_000));
    assert!(ag.route_table().valid(a(5)).is_some());
    ag.on_timer(ms(5_000), &mut RoutingOutput::default());
    assert!(ag.hello_neighbours().is_empty());
    let e = ag.route_table().get(a(5)).unwrap();
    assert!(ag.route_table().valid(a(5)).is_none());
    assert_eq!(e.seq, 11);
}

/// Off by default, as in ns-2: no HELLO timer at all.
#[test]
fn hellos_are_off_by_default() {
    let mut ag = AodvAgent::new(cfg(), RandomStream::named(1, "x"));
    let (addrs, ifaces) = ([a(0)], [IfaceId(0)]);
    let ctx = RouteCtx {
        node: NodeId(0),
        addrs: &addrs,
        ifaces: &ifaces,
    };
    ag.start(SimTime::ZERO, &ctx);
    assert_eq!(ag.next_timer(), None);
    assert!(!AodvConfig::default().hello);
    assert_eq!(AodvConfig::default().allowed_hello_loss, 3);
}

/// The same break with ns-2.35's local repair (the defaults): node 3 asks for 4 with the
/// sequence number it has (4, `d=4:4`); node 2, whose route to 4 has seq 4, answers from
/// its table with 2 hops (`recvRequest`: `rt_seqno >= rq_dst_seqno`), but node 3, which
/// kept its route's hop count (1), takes an equal number only if strictly shorter
/// (`recvReply`), so it ignores that 3-hop reply; node 4's own reply (seq 6) via 5 repairs
/// the route. The request is network-wide (TTL 30, request count 1): `local_rt_repair`
/// leaves the route's last hop count alone, and a route never invalidated at node 3 still
/// has a new entry's infinite one. The repair timer, armed with the absolute
/// `rt_req_timeout` (1 s + 2 · 30 · 30 ms = 2.8 s) as its delay, fires at 3.8 s; the reply
/// does not disarm it, and when it fires the route is up, so it stays.
#[test]
fn ns2_local_repair_keeps_the_sequence_number_and_ignores_equal_replies() {
    let links = [(0, 1), (1, 2), (2, 3), (3, 4), (3, 5), (5, 4)];
    let mut net = Net::new(6, &links, cfg());
    net.send_data(0, 4);
    net.run_until(SimTime::ZERO);
    net.take_log();
    net.now = ms(1_000);
    net.links.retain(|&l| l != (3, 4));
    net.broken.push((3, 4));
    let uid = net.send_data(0, 4);
    net.run_until(ms(1_000));
    let d = format!("data uid={uid} 1000B");
    // Node 2's reply (seq 4, 2 + 1 hops) does not release the packet; node 4's does.
    assert_eq!(
        net.take_log(),
        vec![
            format!("1.000 n0>n1 {d}"),
            format!("1.000 n1>n2 {d}"),
            format!("1.000 n2>n3 {d}"),
            format!("1.000 n3>n4 FAIL {d}"),
            "1.000 n3>* rreq id=1 d=4:4 o=4 hc=0 ttl=30 48B".to_string(),
            // An intermediate node's reply starts at NETWORK_DIAMETER too (`sendReply`).
            "1.000 n2>n3 rrep d=4:4 hc=2 ttl=30 44B".to_string(),
            "1.000 n5>* rreq id=1 d=4:4 o=4 hc=1 ttl=29 48B".to_string(),
            "1.000 n4>n5 rrep d=4:6 hc=0 ttl=30 44B".to_string(),
            "1.000 n5>n3 rrep d=4:6 hc=1 ttl=29 44B".to_string(),
            format!("1.000 n3>n5 {d}"),
            format!("1.000 n5>n4 {d}"),
            format!("1.000 n4 deliver uid={uid} 1000B"),
        ]
    );
    assert_eq!(net.agents[2].stats().rrep_originated_intermediate, 1);
    let (state, seq, hops, next, _) = net.route(3, 4);
    assert_eq!((state, seq, hops, next), (Valid, 6, 2, 5));
    assert_eq!(net.agents[3].held(), 0);
    assert_eq!(net.agents[3].repair_timers(), &[(a(4), ms(3_800))]);
    assert_eq!(net.agents[3].next_timer(), Some(ms(3_800)));
    net.run_until(ms(3_800));
    assert!(net.agents[3].repair_timers().is_empty());
    assert_eq!(net.route(3, 4).0, Valid);
    assert_eq!(net.agents[3].next_timer(), None);
}

/// ns-2.35's `AODV::recv` adds `IP_HDR_LEN` to the packets a node originates unless they
/// are TCP: a 1000-byte UDP packet from 0 to 2 over 0-1-2 crosses both hops as 1020 bytes
/// and is handed to node 2 for delivery as 1020 (the node takes the header off after ns-2's
/// `r AGT` line has counted it, `World::deliver_locally`); the same flow as TCP data stays
/// 1000 bytes throughout.
#[test]
fn originated_non_tcp_packets_carry_ns2s_ip_header_on_the_air() {
    let on = AodvConfig {
        originated_ip_header: true,
        ..cfg()
    };
    let mut net = Net::new(3, &[(0, 1), (1, 2)], on);
    let uid = net.send_data(0, 2);
    net.run_until(SimTime::ZERO);
    let log = net.take_log();
    for hop in ["n0>n1", "n1>n2"] {
        assert!(
            log.contains(&format!("0.000 {hop} data uid={uid} 1020B")),
            "{log:?}"
        );
    }
    assert!(
        log.contains(&format!("0.000 n2 deliver uid={uid} 1020B")),
        "{log:?}"
    );
    // TCP data: the route is known now, the packet leaves at once with its own size.
    let mut p = udp_packet(77, 2, 1000);
    p.ip.src = a(0);
    p.payload = Payload::TcpData(crate::tcp::segment::DataSegment {
        seq: 1,
        wire_bytes: 1000,
        payload_bytes: 960,
        retransmission: false,
        cong_action: false,
        ecn: Default::default(),
        sent_at: SimTime::ZERO,
    });
    let (addrs, ifaces) = net.ctx_of(0);
    let ctx = RouteCtx {
        node: NodeId(0),
        addrs: &addrs,
        ifaces: &ifaces,
    };
    match net.agents[0].route_output(SimTime::ZERO, &ctx, p) {
        Routed::Forward { packet, .. } => assert_eq!(packet.size, 1000),
        other => panic!("not forwarded: {other:?}"),
    }
}

/// ns-2 `recvRequest`: a node that is itself searching for a request's originator takes the
/// reverse route as the end of its search. On 0-1-2 node 0 looks for 3 (no one answers; its
/// next request is not due before 1.8 s). At 0.1 s node 3 appears beside 2 and looks for an
/// address no one has, so its request floods to 0. Node 0 learns the reverse route to 3 (3
/// hops): its search state is reset (count 0, no
/// wait, last TTL 3, where the old search had left 30) and the route lives
/// ACTIVE_ROUTE_TIMEOUT (10 s, to 10.1 s) as a route in use; node 1, not searching, keeps its
/// request state. The packet node 0 held for 3 goes out at once and is delivered.
#[test]
fn a_request_from_the_sought_node_ends_the_search() {
    let mut net = Net::new(4, &[(0, 1), (1, 2)], cfg());
    let uid = net.send_data(0, 3);
    net.run_until(ms(100));
    let e = net.agents[0].route_table().get(a(3)).unwrap();
    assert_eq!(
        (e.req_count, e.req_timeout, e.req_last_ttl),
        (1, ms(1_800), 30)
    );
    net.links.push((2, 3));
    net.take_log();
    net.send_data(3, 9);
    net.run_until(ms(100));
    let e = net.agents[0].route_table().get(a(3)).unwrap();
    assert_eq!(
        (
            e.state,
            e.hops,
            e.req_count,
            e.req_timeout,
            e.req_last_ttl,
            e.expire
        ),
        (Valid, 3, 0, SimTime::ZERO, 3, ms(10_100))
    );
    // Node 1 was not searching: its request state is untouched.
    let e1 = net.agents[1].route_table().get(a(3)).unwrap();
    assert_eq!((e1.hops, e1.req_last_ttl), (2, 0));
    assert!(net
        .take_log()
        .contains(&format!("0.100 n3 deliver uid={uid} 1000B")));
}

/// ns-2 `AODV::recv`: a unicast packet a node originates leaves with TTL NETWORK_DIAMETER
/// (30), whatever its agent set (ns-2's `Agent set ttl_ 32`); a broadcast keeps the
/// agent's. On 0-1 with the route to 1 known, a 1000-byte UDP packet from 0 to 1 and a
/// broadcast one, both made with TTL 32.
#[test]
fn originated_unicast_packets_leave_with_the_network_diameter_as_ttl() {
    let mut net = Net::new(2, &[(0, 1)], cfg());
    net.send_data(0, 1);
    net.run_until(SimTime::ZERO);
    let (addrs, ifaces) = net.ctx_of(0);
    let ctx = RouteCtx {
        node: NodeId(0),
        addrs: &addrs,
        ifaces: &ifaces,
    };
    let mut unicast = udp_packet(77, 1, 1000);
    unicast.ip.src = a(0);
    unicast.ip.ttl = 32;
    let mut broadcast = udp_packet(78, 1, 1000);
    broadcast.ip.src = a(0);
    broadcast.ip.dst = Addr::BROADCAST;
    broadcast.ip.ttl = 32;
    let ttl_out = |r: Routed| match r {
        Routed::Forward { packet, .. } => packet.ip.ttl,
        other => panic!("not sent: {other:?}"),
    };
    let agent = &mut net.agents[0];
    assert_eq!(
        ttl_out(agent.route_output(SimTime::ZERO, &ctx, unicast)),
        30
    );
    assert_eq!(
        ttl_out(agent.route_output(SimTime::ZERO, &ctx, broadcast)),
        32
    );
}

/// ns-2.35's repair timers (`local_rt_repair`, `LocalRepairTimer::handle`) on 0-1-2-3-4
/// with no detour. After discovery the link 3-4 disappears at 1 s.
/// - 1.0 s: data from 0 fails at node 3 (3 hops come, 1 to go): the route goes into repair
///   (hop count 1, seq 4 kept), node 3 asks network-wide (id 1, its seq 2 → 4, TTL 30:
///   the route's last hop count is a new entry's infinite one), request count 1, wait
///   2 · 30 · 30 ms = 1.8 s, so `rt_req_timeout` = 2.8 s, and the first timer is armed
///   2.8 s later: 3.8 s. Node 2 answers from its table (seq 4, 2 + 1 hops), which node 3
///   ignores (not shorter than 1).
/// - 2.0 s: a second packet queued behind the first fails too (as the MAC would try it):
///   it joins the route queue, no request (the wait runs to 2.8 s), and a second timer is
///   armed 2.8 s later: 4.8 s.
/// - 3.0 s: the purge tick finds the wait over: request id 2 (seq 4 → 6), network-wide
///   again, request count 2, wait 3.6 s.
/// - 3.8 s: the first timer finds the route still in repair: invalidated (`rt_down`, no
///   RERR). 4.8 s: the second finds it down and does nothing.
/// - 5.0 s: data from 0 reaches node 3 without a route: dropped, RERR for 4 (seq 4).
#[test]
fn ns2_repair_timers_one_per_failure_the_first_takes_the_route_down() {
    let mut net = Net::new(5, &[(0, 1), (1, 2), (2, 3), (3, 4)], cfg());
    net.send_data(0, 4);
    net.run_until(SimTime::ZERO);
    net.take_log();
    net.now = ms(1_000);
    net.links.retain(|&l| l != (3, 4));
    net.broken.push((3, 4));
    let uid = net.send_data(0, 4);
    net.run_until(ms(1_000));
    let d = format!("data uid={uid} 1000B");
    assert_eq!(
        net.take_log(),
        vec![
            format!("1.000 n0>n1 {d}"),
            format!("1.000 n1>n2 {d}"),
            format!("1.000 n2>n3 {d}"),
            format!("1.000 n3>n4 FAIL {d}"),
            "1.000 n3>* rreq id=1 d=4:4 o=4 hc=0 ttl=30 48B".to_string(),
            "1.000 n2>n3 rrep d=4:4 hc=2 ttl=30 44B".to_string(),
        ]
    );
    assert_eq!(net.route(3, 4), (RouteState::InRepair, 4, 1, 4, vec![2]));
    assert_eq!(net.agents[3].repair_timers(), &[(a(4), ms(3_800))]);
    // A second packet for 4, 3 hops come, fails at node 3 at 2 s.
    net.run_until(ms(2_000));
    let mut p = udp_packet(77, 4, 1000);
    p.ip.src = a(0);
    p.num_forwards = 3;
    net.now = ms(2_000);
    net.tx_failure(3, a(4), p);
    assert!(net.take_log().is_empty());
    assert_eq!(net.agents[3].queued(), 2);
    assert_eq!(
        net.agents[3].repair_timers(),
        &[(a(4), ms(3_800)), (a(4), ms(4_800))]
    );
    net.run_until(ms(3_000));
    assert_eq!(
        net.take_log(),
        vec![
            "3.000 n3>* rreq id=2 d=4:4 o=6 hc=0 ttl=30 48B".to_string(),
            "3.000 n2>n3 rrep d=4:4 hc=2 ttl=30 44B".to_string(),
        ]
    );
    assert_eq!(net.route(3, 4).0, RouteState::InRepair);
    net.run_until(ms(3_800));
    assert_eq!(net.route(3, 4), (Invalid, 4, 1, usize::MAX, vec![2]));
    assert_eq!(net.agents[3].repair_timers(), &[(a(4), ms(4_800))]);
    net.run_until(ms(4_800));
    assert_eq!(net.route(3, 4).0, Invalid);
    assert!(net.agents[3].repair_timers().is_empty());
    assert!(net.take_log().is_empty());
    net.now = ms(5_000);
    let late = net.send_data(0, 4);
    net.run_until(ms(5_000));
    let log = net.take_log();
    assert!(
        log.contains(&format!("5.000 n3 drop uid={late} no_route")),
        "{log:?}"
    );
    assert!(
        log.contains(&"5.000 n3>* rerr 4:4 32B".to_string()),
        "{log:?}"
    );
}

/// ns-2's `handle_link_failure` (and `recvError`) look for routes with `rt_hops !=
/// INFINITY2`, not for `RTF_UP` ones: a route in repair keeps its hop count and next hop,
/// so when the neighbour is then lost it goes down and is reported like an up route.
/// 0-1-2-3-4: at 1 s the link 3-4 breaks under a forwarded packet and node 3 repairs its
/// route to 4 (as above). At 2 s a packet node 3 itself sent to 4 fails as well: it has come
/// no farther than the route goes (0 hops, not more than 1), so no repair: ns-2 drops it,
/// drops what the queue holds for 4 and loses the neighbour, and the route in repair goes
/// down with its sequence number raised (4 → 5) and is reported (RERR 4:5).
#[test]
fn ns2_a_lost_neighbour_takes_down_a_route_in_repair_through_it() {
    let mut net = Net::new(5, &[(0, 1), (1, 2), (2, 3), (3, 4)], cfg());
    net.send_data(0, 4);
    net.run_until(SimTime::ZERO);
    net.now = ms(1_000);
    net.links.retain(|&l| l != (3, 4));
    net.broken.push((3, 4));
    net.send_data(0, 4);
    net.run_until(ms(2_000));
    net.take_log();
    assert_eq!(net.route(3, 4), (RouteState::InRepair, 4, 1, 4, vec![2]));
    let mut p = udp_packet(77, 4, 1000);
    p.ip.src = a(3);
    p.num_forwards = 0;
    net.now = ms(2_000);
    net.tx_failure(3, a(4), p);
    assert_eq!(
        net.take_log(),
        vec![
            "2.000 n3 drop uid=77 link_failure".to_string(),
            "2.000 n3 purge queued for n4".to_string(),
            "2.000 n3>* rerr 4:5 32B".to_string(),
        ]
    );
    assert_eq!(net.route(3, 4), (Invalid, 5, 1, usize::MAX, vec![2]));
}

/// ns-2.35 `recvRequest` puts `(u_int32_t)(rt_expire - now)` in an intermediate node's
/// reply: whole seconds, truncated towards zero, and a negative difference (a route in
/// repair, whose `rt_expire` `sendRequest` cleared) wraps through the low 32 bits of a
/// 64-bit integer. ns-2's own trace of a 7-hop chain shows a node in repair at 78.009 s
/// offering "4294967218.000000" = 2^32 − 78.
#[test]
fn ns2_reply_lifetime_truncates_and_wraps() {
    use super::route_table::ns2_reply_lifetime;
    let s = |v: u64| SimTime::from_millis(v * 1_000);
    assert_eq!(ns2_reply_lifetime(ms(10_800), ms(1_000)), s(9));
    assert_eq!(ns2_reply_lifetime(ms(11_000), ms(1_000)), s(10));
    assert_eq!(ns2_reply_lifetime(ms(1_400), ms(1_000)), s(0));
    // 0.3 s past its lifetime (a route up between two purge ticks): −0.3 truncates to 0.
    assert_eq!(ns2_reply_lifetime(ms(700), ms(1_000)), s(0));
    assert_eq!(
        ns2_reply_lifetime(SimTime::ZERO, ms(78_009)),
        s(4_294_967_218)
    );
    assert_eq!(
        ns2_reply_lifetime(SimTime::ZERO, ms(1_500)),
        s(4_294_967_295)
    );
}

/// Chain 0-1-2-3-4 with node 5 hanging off node 3. Discovery 0 → 4 at 0 s; at 1 s the link
/// 3→4 breaks under a packet from 0 (3 hops come, 1 to go): node 3 repairs locally, its
/// RREQ (seq 4 asked) clears the entry's lifetime (ns-2 `sendRequest`: `rt_expire = 0`), and
/// node 2's equal reply (seq 4, 2 + 1 hops) does not end the repair; node 5 re-broadcasts
/// the request (it knows no route to 4).
/// At 1.5 s node 5 sends to 4: its first RREQ (id 1, its own seq 2 → 4, network-wide,
/// seq 0 asked) reaches node 3, whose
/// route is in repair but keeps its hop count, which is all ns-2's `recvRequest` asks of an
/// intermediate node (`rt_hops != INFINITY2`, seq 4 ≥ 0): node 3 answers, hop count 1 + 1,
/// lifetime (u_int32_t)(0 − 1.5 s) = 2^32 − 1 s. Node 5 installs the route via 3 (seq 4,
/// 2 hops) for that long and sends its packet, which node 3, still in repair, queues.
#[test]
fn ns2_a_route_in_repair_answers_requests_with_a_wrapped_lifetime() {
    let links = [(0, 1), (1, 2), (2, 3), (3, 4), (3, 5)];
    let mut net = Net::new(6, &links, cfg());
    net.send_data(0, 4);
    net.run_until(SimTime::ZERO);
    net.take_log();
    net.now = ms(1_000);
    net.links.retain(|&l| l != (3, 4));
    net.broken.push((3, 4));
    let uid = net.send_data(0, 4);
    net.run_until(ms(1_000));
    let d = format!("data uid={uid} 1000B");
    assert_eq!(
        net.take_log(),
        vec![
            format!("1.000 n0>n1 {d}"),
            format!("1.000 n1>n2 {d}"),
            format!("1.000 n2>n3 {d}"),
            format!("1.000 n3>n4 FAIL {d}"),
            "1.000 n3>* rreq id=1 d=4:4 o=4 hc=0 ttl=30 48B".to_string(),
            "1.000 n2>n3 rrep d=4:4 hc=2 ttl=30 44B".to_string(),
            "1.000 n5>* rreq id=1 d=4:4 o=4 hc=1 ttl=29 48B".to_string(),
        ]
    );
    let e3 = net.agents[3].route_table().get(a(4)).unwrap().clone();
    assert_eq!(
        (e3.state, e3.seq, e3.hops, e3.expire),
        (RouteState::InRepair, 4, 1, SimTime::ZERO)
    );
    net.now = ms(1_500);
    let uid5 = net.send_data(5, 4);
    net.run_until(ms(1_500));
    assert_eq!(
        net.take_log(),
        vec![
            "1.500 n5>* rreq id=1 d=4:0 o=4 hc=0 ttl=30 48B".to_string(),
            "1.500 n3>n5 rrep d=4:4 hc=1 ttl=30 44B".to_string(),
            format!("1.500 n5>n3 data uid={uid5} 1000B"),
        ]
    );
    assert_eq!(net.agents[3].stats().rrep_originated_intermediate, 1);
    let e5 = net.agents[5].route_table().get(a(4)).unwrap().clone();
    let wrapped = SimTime::from_millis(4_294_967_295 * 1_000);
    assert_eq!(
        (e5.state, e5.seq, e5.hops, e5.next_hop, e5.expire),
        (Valid, 4, 2, a(3), ms(1_500) + wrapped)
    );
    // Node 3 holds both packets while its repair lasts.
    assert_eq!(net.agents[3].queued(), 2);
    assert_eq!(net.route(3, 4).0, RouteState::InRepair);
}

/// ns-2's route cache timer ticks at 0, 0.5, 1.0 s … on every node (`start` at 0 s runs
/// `rt_purge` and re-arms it every 0.5 s), and only its ticks re-try a discovery. A packet
/// for an unknown address queued at 0.3 s sends a network-wide RREQ at once (wait 2 × 30 ×
/// 30 ms = 1.8 s, until 2.1 s); the next goes on the first tick after that, 2.5 s (not 0.3
/// + 4 × 0.5 = 2.3 s), and waits 2 × 3.6 s → 6.1 s: the third at 6.5 s.
#[test]
fn ns2_discovery_retries_on_the_purge_tick_grid() {
    let mut net = Net::new(2, &[(0, 1)], cfg());
    net.now = ms(300);
    net.send_data(0, 9);
    assert_eq!(net.agents[0].next_timer(), Some(ms(300)));
    net.run_until(ms(300));
    assert_eq!(net.agents[0].next_timer(), Some(ms(500)));
    net.run_until(ms(7_000));
    let sent: Vec<String> = net
        .take_log()
        .into_iter()
        .filter(|l| l.contains("n0>* rreq"))
        .map(|l| l.split(' ').next().unwrap().to_string())
        .collect();
    assert_eq!(sent, vec!["0.300", "2.500", "6.500"]);
    // The tick at 7.0 s found the wait (until 6.5 + 5.4 = 11.9 s) running; next: 7.5 s.
    assert_eq!(net.agents[0].next_timer(), Some(ms(7_500)));
}

/// ns-2 `recvReply` forwards the reply it received: node 1, with a route to the originator
/// 0, gets node 3's reply (uid 7, 1 hop so far) from node 2 and sends the same packet on to
/// 0 — uid 7, IP source still 3 — with one more hop, one less TTL (message and IP header),
/// and itself as `rp_src`; the route it installs to 3 goes through 2, the reply's last hop,
/// not its IP source.
#[test]
fn a_forwarded_reply_is_the_same_packet() {
    let mut ag = AodvAgent::new(cfg(), RandomStream::named(1, "x"));
    let (addrs, ifaces) = ([a(1)], [IfaceId(0)]);
    let ctx = RouteCtx {
        node: NodeId(1),
        addrs: &addrs,
        ifaces: &ifaces,
    };
    ag.start(SimTime::ZERO, &ctx);
    // A route to the originator 0 (0's own reply about itself, one hop).
    let to_orig = ag.route_input(ms(100), &ctx, IfaceId(0), rrep_from(0, 0, 2, 0));
    assert!(matches!(to_orig, Routed::Held | Routed::Consumed(_)));
    ag.on_timer(ms(100), &mut RoutingOutput::default());
    let mut p = rrep_from(2, 3, 4, 1);
    p.uid = 7;
    p.ip.src = a(3);
    let r = ag.route_input(ms(200), &ctx, IfaceId(0), p);
    assert!(matches!(r, Routed::Held));
    let mut out = RoutingOutput::default();
    ag.on_timer(ms(200), &mut out);
    assert_eq!(out.send.len(), 1);
    let (p, _, next_hop) = &out.send[0];
    assert_eq!((p.uid, p.ip.src, *next_hop, p.ip.ttl), (7, a(3), a(0), 63));
    let Payload::Control(ControlMessage::AodvRrep {
        hop_count,
        ttl,
        last_hop,
        ..
    }) = p.payload
    else {
        panic!("{:?}", p.payload);
    };
    assert_eq!((hop_count, ttl, last_hop), (2, 29, a(1)));
    let route = ag.route_table().valid(a(3)).unwrap();
    assert_eq!((route.next_hop, route.hops), (a(2), 2));
}
