//! Scripted exchanges between DSDV agents, and single rules on one agent fed updates by
//! hand. The harness is manet-spec §1.10's: an ideal broadcast channel where a packet sent
//! at t reaches every neighbour at t + 1 ms, no loss, no MAC; jitter off (ns-2
//! `be_random_` 0, so full dumps every 0.75·15 = 11.25 s); a unicast over a link the test
//! broke fails at once (MAC feedback). Timers due at the same instant as a delivery run
//! first, lowest node first.

use super::route_table::{judge, Verdict, BIG};
use super::*;
use crate::net::addr::{Addr, IfaceId, NodeId};
use crate::net::control::{ControlMessage, DsdvAdvert};
use crate::net::packet::tests::udp_packet;
use crate::net::packet::PacketFields;
use crate::net::packet::{DropReason, IpHeader, Packet, Payload, Ports};
use crate::routing::{ControlSend, RouteCtx, Routed, RoutingOutput};
use crate::sim::rng::RandomStream;
use crate::sim::SimTime;

fn a(i: usize) -> Addr {
    Addr::nth(i as u32)
}

fn ms(v: u64) -> SimTime {
    SimTime::from_millis(v)
}

/// ns-2 defaults with `be_random_` 0.
fn cfg() -> DsdvConfig {
    DsdvConfig {
        randomize: false,
        ..DsdvConfig::default()
    }
}

/// (destination, metric, sequence number) as manet-spec writes a listed route.
type Route = (usize, u8, u32);

/// An update sent: (time in ms, sender, full dump?, routes, size in octets).
type Sent = (u64, usize, bool, Vec<Route>, u32);

struct Net {
    agents: Vec<DsdvAgent>,
    links: Vec<(usize, usize)>,
    /// Unicasts across these fail; broadcasts do not cross them either.
    broken: Vec<(usize, usize)>,
    /// Packets on the air: (arrival, order, receiver, packet).
    air: Vec<(SimTime, u64, usize, Packet)>,
    order: u64,
    uid: u64,
    now: SimTime,
    sent: Vec<Sent>,
    /// (node, uid) of data delivered.
    delivered: Vec<(usize, u64)>,
    drops: Vec<(u64, DropReason)>,
    /// Unicasts handed to the link: (sender, next hop, uid).
    unicasts: Vec<(usize, usize, u64)>,
    /// Sizes of the unicast data packets put on the air and of those delivered.
    unicast_sizes: Vec<u32>,
    delivered_sizes: Vec<u32>,
    /// (uid, TTL) of the unicasts handed to the link.
    unicast_ttls: Vec<(u64, u8)>,
}

fn with_ctx<R>(i: usize, f: impl FnOnce(&RouteCtx) -> R) -> R {
    let addrs = [a(i)];
    let ifaces = [IfaceId(i as u32)];
    f(&RouteCtx {
        node: NodeId(i as u32),
        addrs: &addrs,
        ifaces: &ifaces,
    })
}

fn routes_of(p: &Packet) -> Option<(bool, Vec<Route>)> {
    match &p.payload {
        Payload::Control(ControlMessage::DsdvUpdate { entries, full }) => Some((
            *full,
            entries
                .iter()
                .map(|e| (e.dst.index(), e.metric, e.seq))
                .collect(),
        )),
        _ => None,
    }
}

impl Net {
    /// `n` agents on `links`, all started at t = 0 (lowest node first).
    fn new(n: usize, links: &[(usize, usize)], cfg: DsdvConfig) -> Self {
        let mut net = Net {
            agents: (0..n)
                .map(|i| DsdvAgent::new(cfg, RandomStream::named(1, &format!("n{i}"))))
                .collect(),
            links: links.to_vec(),
            broken: Vec::new(),
            air: Vec::new(),
            order: 0,
            uid: 1000,
            now: SimTime::ZERO,
            sent: Vec::new(),
            delivered: Vec::new(),
            drops: Vec::new(),
            unicasts: Vec::new(),
            unicast_sizes: Vec::new(),
            delivered_sizes: Vec::new(),
            unicast_ttls: Vec::new(),
        };
        for i in 0..n {
            with_ctx(i, |ctx| net.agents[i].start(SimTime::ZERO, ctx));
        }
        net
    }

    fn linked(&self, i: usize, j: usize) -> bool {
        (self.links.contains(&(i, j)) || self.links.contains(&(j, i)))
            && !self.broken.contains(&(i, j))
            && !self.broken.contains(&(j, i))
    }

    fn break_link(&mut self, i: usize, j: usize) {
        self.broken.push((i, j));
    }

    fn on_air(&mut self, to: usize, p: Packet) {
        self.order += 1;
        self.air.push((self.now + ms(1), self.order, to, p));
    }

    fn transmit(&mut self, i: usize, p: Packet, next_hop: Addr) {
        if next_hop.is_broadcast() {
            if let Some((full, routes)) = routes_of(&p) {
                self.sent
                    .push((self.now.as_nanos() / 1_000_000, i, full, routes, p.size));
            }
            for j in 0..self.agents.len() {
                if j != i && self.linked(i, j) {
                    self.on_air(j, p.clone());
                }
            }
            return;
        }
        let j = next_hop.index();
        self.unicasts.push((i, j, p.uid));
        self.unicast_sizes.push(p.size);
        self.unicast_ttls.push((p.uid, p.ip.ttl));
        if !self.linked(i, j) {
            let mut out = RoutingOutput::default();
            let now = self.now;
            with_ctx(i, |ctx| {
                self.agents[i].on_tx_failure(now, ctx, IfaceId(i as u32), next_hop, p, &mut out)
            });
            self.drain(i, out);
            return;
        }
        self.on_air(j, p);
    }

    fn drain(&mut self, i: usize, out: RoutingOutput) {
        for (p, why) in out.drops {
            self.drops.push((p.uid, why));
        }
        for (p, _, nh) in out.send {
            self.transmit(i, p, nh);
        }
        for c in out.control {
            let (p, nh) = self.control_packet(c);
            self.transmit(i, p, nh);
        }
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
                ttl: 64,
            },
            ports: Ports::default(),
            headers: Vec::new(),
            size: 20 + c.msg.body_bytes(),
            created: self.now,
            payload: Payload::Control(c.msg),
        });
        (p, c.via.expect("DSDV updates go on the interface").1)
    }

    fn apply(&mut self, i: usize, r: Routed) {
        match r {
            Routed::Forward {
                packet, next_hop, ..
            } => self.transmit(i, packet, next_hop),
            Routed::Deliver(p) => {
                self.delivered_sizes.push(p.size);
                self.delivered.push((i, p.uid));
            }
            Routed::Drop(p, why) => self.drops.push((p.uid, why)),
            Routed::Held | Routed::Consumed(_) => {}
        }
    }

    fn input(&mut self, j: usize, p: Packet) {
        let now = self.now;
        let r = with_ctx(j, |ctx| {
            self.agents[j].route_input(now, ctx, IfaceId(j as u32), p)
        });
        self.apply(j, r);
    }

    /// Node `i` originates a 1000-byte UDP packet to node `dst` now.
    fn send_data(&mut self, i: usize, dst: usize) -> u64 {
        self.uid += 1;
        let uid = self.uid;
        let mut p = udp_packet(uid, dst as u32, 1000);
        p.ip.src = a(i);
        let now = self.now;
        let r = with_ctx(i, |ctx| self.agents[i].route_output(now, ctx, p));
        self.apply(i, r);
        uid
    }

    /// A unicast UDP packet from node `src` to node `dst` that has crossed `hops` hops
    /// arrives at node `at` with TTL `ttl` (as the link delivered it, before `at` routes it).
    fn arrive(&mut self, at: usize, src: usize, dst: usize, hops: u32, ttl: u8) -> u64 {
        self.uid += 1;
        let uid = self.uid;
        let mut p = udp_packet(uid, dst as u32, 1000);
        p.ip.src = a(src);
        p.ip.ttl = ttl;
        p.num_forwards = hops;
        self.input(at, p);
        uid
    }

    /// Node `to` hears an update from a node `from` outside the harness.
    fn hear(&mut self, to: usize, from: usize, routes: &[Route]) {
        let msg = ControlMessage::DsdvUpdate {
            entries: routes
                .iter()
                .map(|&(d, metric, seq)| DsdvAdvert {
                    dst: a(d),
                    metric,
                    seq,
                })
                .collect(),
            full: true,
        };
        let (p, _) = self.control_packet(ControlSend {
            msg,
            src: a(from),
            dst: Addr::BROADCAST,
            via: Some((IfaceId(from as u32), Addr::BROADCAST)),
            source_route: None,
            passes_on: None,
        });
        self.input(to, p);
        let now = self.now;
        self.run_until(now);
    }

    /// Runs timers and deliveries up to and including `until` (in ms).
    fn run_to(&mut self, until_ms: u64) {
        self.run_until(ms(until_ms));
    }

    fn run_until(&mut self, until: SimTime) {
        loop {
            let timer = (0..self.agents.len())
                .filter_map(|i| self.agents[i].next_timer().map(|t| (t, i)))
                .min();
            let air = self
                .air
                .iter()
                .enumerate()
                .min_by_key(|(_, (t, o, _, _))| (*t, *o))
                .map(|(k, (t, _, _, _))| (*t, k));
            match (timer, air) {
                (Some((t, i)), air) if t <= until && air.is_none_or(|(ta, _)| t <= ta) => {
                    self.now = t;
                    let mut out = RoutingOutput::default();
                    self.agents[i].on_timer(t, &mut out);
                    self.drain(i, out);
                }
                (_, Some((t, k))) if t <= until => {
                    self.now = t;
                    let (_, _, j, p) = self.air.remove(k);
                    self.input(j, p);
                }
                _ => break,
            }
        }
        self.now = until;
    }

    /// Updates sent in [from_ms, to_ms].
    fn sent_between(&self, from_ms: u64, to_ms: u64) -> Vec<Sent> {
        self.sent
            .iter()
            .filter(|s| (from_ms..=to_ms).contains(&s.0))
            .cloned()
            .collect()
    }

    /// (next hop, metric, seq) of node `i`'s entry for `dst`.
    fn route(&self, i: usize, dst: usize) -> Option<(usize, u8, u32)> {
        self.agents[i]
            .route_table()
            .get(a(dst))
            .map(|e| (e.next_hop.index(), e.metric, e.seq))
    }

    /// (weighted settling time, advertise_ok_at in ms, pending trigger in ms).
    fn settling(&self, i: usize, dst: usize) -> (f64, u64, Option<u64>) {
        let e = self.agents[i].route_table().get(a(dst)).expect("entry");
        (
            e.wst,
            e.advertise_ok_at.as_nanos() / 1_000_000,
            e.trigger.map(|(t, _)| t.as_nanos() / 1_000_000),
        )
    }
}

fn close(x: f64, y: f64) -> bool {
    (x - y).abs() < 1e-9
}

/// manet-spec §1.10, first run (values there come from an independent model of ns-2's
/// `dsdv.cc`): A–B–C, all started at 0.
#[test]
fn three_node_chain_follows_the_spec_timeline() {
    let mut net = Net::new(3, &[(0, 1), (1, 2)], cfg());
    // t = 0: every node sends a full dump listing only itself, with sequence number 4.
    net.run_to(0);
    assert_eq!(
        net.sent_between(0, 0),
        vec![
            (0, 0, true, vec![(0, 0, 4)], 32),
            (0, 1, true, vec![(1, 0, 4)], 32),
            (0, 2, true, vec![(2, 0, 4)], 32),
        ]
    );
    // t = 0.001: neighbours learned at metric 1, seq 4, wst 6, advertisable (and a trigger)
    // at 12.001.
    net.run_to(1);
    assert_eq!(net.route(0, 1), Some((1, 1, 4)));
    assert_eq!(net.route(1, 0), Some((0, 1, 4)));
    assert_eq!(net.route(1, 2), Some((2, 1, 4)));
    assert_eq!(net.route(0, 2), None);
    let (wst, ok, trig) = net.settling(0, 1);
    assert!(close(wst, 6.0));
    assert_eq!((ok, trig), (12_001, Some(12_001)));
    // t = 11.25: full dumps still list only the sender (seq 6): the neighbours settle.
    net.run_to(11_250);
    assert_eq!(
        net.sent_between(11_250, 11_250)
            .iter()
            .map(|s| s.3.clone())
            .collect::<Vec<_>>(),
        vec![vec![(0, 0, 6)], vec![(1, 0, 6)], vec![(2, 0, 6)]]
    );
    // t = 11.251: fresh seq 6 → wst 5.25, advertisable at 21.751, trigger unchanged.
    net.run_to(11_251);
    let (wst, ok, trig) = net.settling(0, 1);
    assert!(close(wst, 5.25));
    assert_eq!((ok, trig), (21_751, Some(12_001)));
    // t = 12.001: the triggers are deferred to 12.25 (1 s after the dump); then nothing is
    // eligible: no packet until the next dumps.
    net.run_to(22_499);
    assert!(net.sent_between(11_251, 22_499).is_empty());
    assert_eq!(net.agents[1].stats().triggers_deferred, 1);
    // t = 22.5.
    net.run_to(22_500);
    assert_eq!(
        net.sent_between(22_500, 22_500),
        vec![
            (22_500, 0, true, vec![(0, 0, 8), (1, 1, 6)], 44),
            (22_500, 1, true, vec![(0, 1, 6), (1, 0, 8), (2, 1, 6)], 56),
            (22_500, 2, true, vec![(1, 1, 6), (2, 0, 8)], 44),
        ]
    );
    // t = 22.501: all tables complete; A's route to C via B, wst 6, advertisable at 34.501;
    // A's wst for B is 0.875·5.25 = 4.59375.
    net.run_to(22_501);
    assert_eq!(net.route(0, 2), Some((1, 2, 6)));
    assert_eq!(net.route(2, 0), Some((1, 2, 6)));
    let (wst, ok, _) = net.settling(0, 2);
    assert!(close(wst, 6.0));
    assert_eq!(ok, 34_501);
    assert!(close(net.settling(0, 1).0, 4.59375));
    // A first advertises C in its full dump at 45.0 (seq 8, heard at 33.751).
    net.run_to(45_000);
    let a_dumps: Vec<Sent> = net
        .sent_between(22_501, 45_000)
        .into_iter()
        .filter(|s| s.1 == 0)
        .collect();
    assert_eq!(
        a_dumps.last().unwrap().3,
        vec![(0, 0, 12), (1, 1, 10), (2, 2, 8)]
    );
    assert!(a_dumps[..a_dumps.len() - 1]
        .iter()
        .all(|s| s.3.iter().all(|r| r.0 != 2)));

    // Break, timeout mode: B–C disappears at 60; the last B↔C updates arrived at 56.251.
    net.run_to(60_000);
    net.break_link(1, 2);
    net.run_to(101_250);
    assert_eq!(net.route(1, 2), Some((2, 1, 14)));
    assert_eq!(
        net.sent_between(67_500, 67_500)[1].3,
        vec![(0, 1, 14), (1, 0, 16), (2, 1, 14)]
    );
    // 101.251: both timeouts expire.
    net.run_to(101_251);
    assert_eq!(net.route(1, 2), Some((2, BIG, 15)));
    assert_eq!(net.route(2, 1), Some((1, BIG, 15)));
    assert_eq!(net.route(2, 0), Some((1, BIG, 13)));
    // Deferred by the 1 s rule to 102.25.
    net.run_to(102_250);
    assert_eq!(
        net.sent_between(101_251, 102_250),
        vec![
            (102_250, 1, false, vec![(2, BIG, 15)], 32),
            (102_250, 2, false, vec![(0, BIG, 13), (1, BIG, 15)], 44),
        ]
    );
    // A installs the broken route silently and repeats it in its dump at 112.5.
    net.run_to(102_251);
    assert_eq!(net.route(0, 2), Some((1, BIG, 15)));
    assert!(net.agents[0]
        .route_table()
        .get(a(2))
        .unwrap()
        .trigger
        .is_none());
    net.run_to(112_500);
    let last = net.sent_between(102_252, 112_500);
    assert_eq!(
        (last[0].0, last[0].1, last[0].3.clone()),
        (112_500, 0, vec![(0, 0, 24), (1, 1, 22), (2, BIG, 15)])
    );
    assert_eq!(net.agents[1].stats().neighbour_timeouts, 1);
    assert_eq!(net.agents[2].stats().routes_broken, 2);
}

/// A 4-node chain 0–1–2–3 (hand-worked from the rules above): neighbours at 0.001, 2-hop
/// routes at 22.501 (first dump after their settling), 3-hop routes at 45.001 (the 2-hop
/// route learned at 22.501 settles 12 s, then its fresh number at 33.751 pushes it to
/// 44.251, so it goes out in the 45.0 dump). Every next hop is the chain neighbour.
#[test]
fn four_node_chain_converges_one_hop_per_settling_round() {
    let mut net = Net::new(4, &[(0, 1), (1, 2), (2, 3)], cfg());
    let table = |net: &Net, i: usize| -> Vec<(usize, u8)> {
        (0..4)
            .filter(|&d| d != i)
            .filter_map(|d| net.route(i, d).map(|(nh, m, _)| (nh, m)))
            .collect()
    };
    net.run_to(1);
    assert_eq!(table(&net, 0), vec![(1, 1)]);
    assert_eq!(table(&net, 1), vec![(0, 1), (2, 1)]);
    net.run_to(22_500);
    assert_eq!(table(&net, 0), vec![(1, 1)]);
    net.run_to(22_501);
    assert_eq!(table(&net, 0), vec![(1, 1), (1, 2)]);
    assert_eq!(table(&net, 1), vec![(0, 1), (2, 1), (2, 2)]);
    assert_eq!(table(&net, 3), vec![(2, 2), (2, 1)]);
    net.run_to(45_000);
    assert_eq!(table(&net, 0), vec![(1, 1), (1, 2)]);
    assert_eq!(
        net.sent_between(45_000, 45_000)[1].3,
        vec![(0, 1, 10), (1, 0, 12), (2, 1, 10), (3, 2, 8)]
    );
    net.run_to(45_001);
    assert_eq!(table(&net, 0), vec![(1, 1), (1, 2), (1, 3)]);
    assert_eq!(table(&net, 1), vec![(0, 1), (2, 1), (2, 2)]);
    assert_eq!(table(&net, 2), vec![(1, 2), (1, 1), (3, 1)]);
    assert_eq!(table(&net, 3), vec![(2, 3), (2, 2), (2, 1)]);
    // Data 0 → 3 now crosses the chain.
    let uid = net.send_data(0, 3);
    net.run_to(45_010);
    assert_eq!(net.delivered, vec![(3, uid)]);
}

/// The sequence-number rules (Perkins & Bhagwat §4; ns-2 `processUpdate` cases) on one
/// agent fed by neighbours 1 and 2 outside the harness, about destination 5.
#[test]
fn sequence_number_rules() {
    let mut net = Net::new(1, &[], cfg());
    net.run_to(0); // own dump, seq 4
                   // 1 s: new destination: metric 1 + 1, wst 6, advertisable and triggered at 13 s.
    net.run_to(1_000);
    net.hear(0, 1, &[(5, 1, 10)]);
    assert_eq!(net.route(0, 5), Some((1, 2, 10)));
    assert_eq!(
        net.settling(0, 5).1..net.settling(0, 5).2.unwrap() + 1,
        13_000..13_001
    );
    // 2 s: the same number with fewer hops wins; the trigger moves to its new
    // advertise time (wst unchanged within one number).
    net.run_to(2_000);
    net.hear(0, 2, &[(5, 0, 10)]);
    assert_eq!(net.route(0, 5), Some((2, 1, 10)));
    let (wst, ok, trig) = net.settling(0, 5);
    assert!(close(wst, 6.0));
    assert_eq!((ok, trig), (14_000, Some(14_000)));
    // 3 s: the same number with more hops is ignored.
    net.run_to(3_000);
    net.hear(0, 1, &[(5, 1, 10)]);
    assert_eq!(net.route(0, 5), Some((2, 1, 10)));
    // 4 s: a fresher number wins even with more hops; wst = 0.875·6 + 0.125·(2 − 1) =
    // 5.375, advertisable at 4 + 10.75; the pending trigger is left alone (no DSDV-SQ).
    net.run_to(4_000);
    net.hear(0, 1, &[(5, 3, 12)]);
    assert_eq!(net.route(0, 5), Some((1, 4, 12)));
    let (wst, ok, trig) = net.settling(0, 5);
    assert!(close(wst, 5.375));
    assert_eq!((ok, trig), (14_750, Some(14_000)));
    // 5 s: an older number is ignored.
    net.run_to(5_000);
    net.hear(0, 2, &[(5, 0, 10)]);
    assert_eq!(net.route(0, 5), Some((1, 4, 12)));
    // 6 s: an odd (broken) fresher number makes the route unusable; data waits.
    net.run_to(6_000);
    net.hear(0, 1, &[(5, BIG, 13)]);
    assert_eq!(net.route(0, 5), Some((1, BIG, 13)));
    assert_eq!(net.settling(0, 5).1, 6_000);
    let uid = net.send_data(0, 5);
    assert_eq!(net.agents[0].held(), 1);
    // 7 s: a fresher even number from the destination's neighbour 2 restores it, advertisable
    // at once (recovery from unreachable), and releases the packet to 5 directly.
    net.run_to(7_000);
    net.hear(0, 2, &[(5, 0, 14)]);
    assert_eq!(net.route(0, 5), Some((2, 1, 14)));
    assert_eq!(net.settling(0, 5).1, 7_000);
    assert_eq!(net.agents[0].held(), 0);
    assert_eq!(net.unicasts, vec![(0, 5, uid)]);
    // 8 s: an older number saying 5 is unreachable while this node has a route: answered
    // at once with the route (ns-2 "educate"), the trigger moving from 14 s to now.
    net.run_to(8_000);
    net.hear(0, 1, &[(5, BIG, 13)]);
    assert_eq!(net.route(0, 5), Some((2, 1, 14)));
    assert_eq!(
        net.sent_between(8_000, 8_000),
        vec![(8_000, 0, false, vec![(5, 1, 14)], 32)]
    );
    assert_eq!(net.settling(0, 5).2, None);
    // 9 s: hearing itself called unreachable: a full dump at once with the next even
    // number (6), and the periodic timer restarts from now.
    net.run_to(9_000);
    net.hear(0, 1, &[(0, BIG, 5)]);
    assert_eq!(
        net.sent_between(9_000, 9_000)[0],
        (9_000, 0, true, vec![(0, 0, 6), (5, 1, 14)], 44)
    );
    assert_eq!(net.agents[0].next_periodic(), Some(ms(20_250)));
    assert_eq!(net.agents[0].stats().forced_full_updates, 1);
}

/// The verdicts on their own: the receiver's metric is the advertised one + 1 by now.
#[test]
fn judge_compares_sequence_numbers_then_metrics() {
    let mut e = super::route_table::RouteEntry::new(a(5));
    e.metric = 3;
    e.seq = 10;
    assert_eq!(judge(None, 2, 10), Verdict::New);
    assert_eq!(judge(Some(&e), 2, 10), Verdict::Shorter);
    assert_eq!(judge(Some(&e), 3, 10), Verdict::NotShorter);
    assert_eq!(judge(Some(&e), 9, 12), Verdict::Fresher);
    assert_eq!(judge(Some(&e), BIG, 11), Verdict::Fresher);
    assert_eq!(judge(Some(&e), BIG, 9), Verdict::StaleBroken);
    assert_eq!(judge(Some(&e), 1, 8), Verdict::Stale);
    e.metric = BIG;
    assert_eq!(judge(Some(&e), BIG, 9), Verdict::Stale);
}

/// Triggered updates are spaced at least 1 s apart (ns-2 `DSDV_MIN_TUP_PERIOD`): a trigger
/// within 1 s of the last update moves to the end of that second and cancels the others due
/// before then; their routes go out in the deferred update. A triggered update keeps the
/// metric flags, so the next triggered one repeats them (ns-2 clears them only in a full
/// dump).
#[test]
fn triggered_updates_are_rate_limited() {
    let mut net = Net::new(1, &[], cfg());
    net.run_to(100);
    net.hear(0, 1, &[(1, 0, 4), (5, 1, 4), (6, 1, 4)]);
    assert_eq!(net.settling(0, 6).2, Some(12_100));
    net.run_to(11_250); // the periodic dump: only the node itself is past its settling
    assert_eq!(net.sent_between(11_250, 11_250)[0].3, vec![(0, 0, 6)]);
    // 11.5 s: 5 reported broken with an old number → trigger now → deferred to 12.25 s;
    // the triggers of 1 and 6 at 12.1 s are cancelled.
    net.run_to(11_500);
    net.hear(0, 1, &[(5, BIG, 3)]);
    assert_eq!(net.settling(0, 5).2, Some(12_250));
    assert_eq!(net.settling(0, 6).2, None);
    assert_eq!(net.settling(0, 1).2, None);
    // 11.8 s: the same for 6: deferred to 12.25 s too (after 5's).
    net.run_to(11_800);
    net.hear(0, 1, &[(6, BIG, 3)]);
    assert_eq!(net.settling(0, 6).2, Some(12_250));
    net.run_to(22_499);
    assert_eq!(
        net.sent_between(11_251, 22_499),
        vec![
            (12_250, 0, false, vec![(1, 1, 4), (5, 2, 4), (6, 2, 4)], 56),
            (13_250, 0, false, vec![(1, 1, 4), (5, 2, 4), (6, 2, 4)], 56),
        ]
    );
    assert_eq!(net.agents[0].stats().triggers_deferred, 3);
    assert_eq!(net.agents[0].stats().triggered_updates_sent, 2);
}

/// Link break with MAC feedback (`use_mac`) on the diamond 0–1–3, 0–2–3. Converged, 0
/// reaches 3 via 1 (1's updates arrive first, an equal one from 2 is not shorter). At 50 s
/// the 0–1 link breaks and data to 3 fails at 0: routes via 1 get the infinite metric and
/// odd numbers (1: 12 → 13, 3: 10 → 11), a triggered update goes at once (the last one was
/// at 45 s) and the packet waits. Node 2 takes 1's odd number (fresher) but knows a newer
/// number for 3 and answers with its route at once; 0 learns 3 via 2 at 50.002 and the
/// packet is delivered.
#[test]
fn a_link_break_is_advertised_and_the_alternative_route_learned() {
    let mut net = Net::new(
        4,
        &[(0, 1), (0, 2), (1, 3), (2, 3)],
        DsdvConfig {
            use_mac: true,
            ..cfg()
        },
    );
    net.run_to(50_000);
    assert_eq!(net.route(0, 3), Some((1, 2, 10)));
    assert_eq!(net.route(0, 1), Some((1, 1, 12)));
    assert_eq!(net.route(2, 1), Some((0, 2, 10)));
    assert_eq!(net.route(2, 3), Some((3, 1, 12)));
    net.break_link(0, 1);
    let uid = net.send_data(0, 3);
    assert_eq!(net.route(0, 1), Some((1, BIG, 13)));
    assert_eq!(net.route(0, 3), Some((1, BIG, 11)));
    assert_eq!(net.agents[0].held(), 1);
    assert_eq!(
        net.sent_between(50_000, 50_000),
        vec![(50_000, 0, false, vec![(1, BIG, 13), (3, BIG, 11)], 44)]
    );
    net.run_to(50_001);
    assert_eq!(net.route(2, 1), Some((0, BIG, 13)));
    assert_eq!(net.route(2, 3), Some((3, 1, 12)));
    assert_eq!(
        net.sent_between(50_001, 50_001),
        vec![(50_001, 2, false, vec![(1, BIG, 13), (3, 1, 12)], 44)]
    );
    net.run_to(50_002);
    assert_eq!(net.route(0, 3), Some((2, 2, 12)));
    assert_eq!(net.agents[0].held(), 0);
    net.run_to(50_010);
    assert_eq!(net.delivered, vec![(3, uid)]);
    let s = net.agents[0].stats();
    assert_eq!((s.link_breaks, s.routes_broken), (1, 2));
}

/// Without `use_mac` (ns-2's default) a transmit failure only drops the packet: the routes
/// stay until the neighbour times out.
#[test]
fn without_use_mac_a_transmit_failure_only_drops() {
    let mut net = Net::new(4, &[(0, 1), (0, 2), (1, 3), (2, 3)], cfg());
    net.run_to(50_000);
    net.break_link(0, 1);
    let uid = net.send_data(0, 3);
    assert_eq!(net.drops, vec![(uid, DropReason::LinkFailure)]);
    assert_eq!(net.route(0, 3), Some((1, 2, 10)));
    assert_eq!(net.agents[0].stats().mac_failures_dropped, 1);
}

/// No route: packets wait on the destination's entry (a placeholder for an unknown one,
/// never advertised), 5 at most; the oldest goes first (ns-2 `MAX_QUEUE_LENGTH`,
/// `DROP_RTR_QFULL`).
#[test]
fn packets_without_a_route_queue_five_per_destination() {
    let mut net = Net::new(1, &[], cfg());
    net.run_to(0);
    let uids: Vec<u64> = (0..7).map(|_| net.send_data(0, 9)).collect();
    assert_eq!(net.route(0, 9), Some((9, BIG, 0)));
    net.run_to(1);
    assert_eq!(
        net.drops,
        vec![
            (uids[0], DropReason::HoldOverflow),
            (uids[1], DropReason::HoldOverflow)
        ]
    );
    assert_eq!(net.agents[0].held(), 5);
    // The placeholder is not in the next full dump.
    net.run_to(11_250);
    assert_eq!(net.sent_between(11_250, 11_250)[0].3, vec![(0, 0, 6)]);
    let s = net.agents[0].stats();
    assert_eq!((s.queued, s.queue_overflows), (7, 2));
}

/// ns-2.35's DSDV adds `IP_HDR_LEN` to the packets it originates for agents: a 1000-byte
/// packet from 0 to 2 over 0-1-2 crosses both hops as 1020 bytes and is handed to node 2
/// for delivery as 1020 (the node takes the header off after ns-2's `r AGT` line has counted
/// it, `World::deliver_locally`); with `originated_ip_copy` off it stays 1000 throughout.
#[test]
fn originated_packets_carry_ns2s_second_ip_header_on_the_air() {
    for (on, air) in [(true, 1020), (false, 1000)] {
        let c = DsdvConfig {
            originated_ip_copy: on,
            ..cfg()
        };
        let mut net = Net::new(3, &[(0, 1), (1, 2)], c);
        net.run_to(50_000);
        let uid = net.send_data(0, 2);
        net.run_to(50_010);
        assert_eq!(net.delivered.last(), Some(&(2, uid)));
        assert_eq!(net.unicast_sizes, vec![air, air]);
        assert_eq!(net.delivered_sizes, vec![air]);
    }
}

/// ns-2.35's queue drain on an update it does not believe (`processUpdate`, manet-spec §1.6
/// step 6). Node 0's route to 5 (via 1, seq 10) breaks (fresher odd seq 11); two forwarded
/// packets arrive with TTL 3 and 2 and wait with TTL 2 and 1 (`recv` took a unit), behind
/// them one of node 0's own. Node 2 then lists 5 at metric 3 with the older seq 8: ignored by
/// the sequence-number rule, but the drain runs. Pass 1: the TTL-2 packet goes to 1 and back
/// to the tail, the TTL-1 packet reaches 0 and is dropped, the own packet gets a fresh TTL
/// (ns-2 would loop on it forever; it stays). Pass 2: the first reaches 0 and is dropped.
/// The stale candidate (via 2, metric 4, seq 8) then overwrites the entry, and the own packet
/// leaves on it. Without the rule the three wait and the entry stays broken.
#[test]
fn an_ignored_stale_update_drains_the_queue_and_overwrites_the_entry() {
    for drain in [true, false] {
        let c = DsdvConfig {
            stale_update_drain: drain,
            ..cfg()
        };
        let mut net = Net::new(1, &[], c);
        net.run_to(1_000);
        net.hear(0, 1, &[(5, 1, 10)]);
        net.run_to(2_000);
        net.hear(0, 1, &[(5, BIG, 11)]);
        assert_eq!(net.route(0, 5), Some((1, BIG, 11)));
        let first = net.arrive(0, 7, 5, 3, 3);
        let second = net.arrive(0, 7, 5, 3, 2);
        let own = net.send_data(0, 5);
        assert_eq!(net.agents[0].held(), 3);
        net.run_to(3_000);
        net.hear(0, 2, &[(5, 3, 8)]);
        if drain {
            assert_eq!(
                net.drops,
                vec![
                    (second, DropReason::TtlExpired),
                    (first, DropReason::TtlExpired),
                    // Node 2 is outside the harness: the unicast to it fails (no use_mac).
                    (own, DropReason::LinkFailure)
                ]
            );
            assert_eq!(net.route(0, 5), Some((2, 4, 8)));
            assert_eq!(net.unicasts, vec![(0, 2, own)]);
            assert_eq!(net.agents[0].held(), 0);
            let s = net.agents[0].stats();
            assert_eq!((s.stale_drains, s.stale_drain_own_packets), (1, 1));
        } else {
            assert!(net.drops.is_empty());
            assert_eq!(net.route(0, 5), Some((1, BIG, 11)));
            assert_eq!(net.agents[0].held(), 3);
            assert!(net.unicasts.is_empty());
        }
    }
}

/// A forwarded packet that waits for a route pays one TTL unit when it arrives (ns-2 `recv`)
/// and, with ns-2.35's drain, one more when it is released through `recv` again: it arrives
/// with TTL 5, waits with 4 and leaves with 3 (4 without the rule). One with TTL 1 on
/// arrival is dropped at once (`D RTR TTL`).
#[test]
fn a_released_forwarded_packet_pays_ns2s_second_ttl_unit() {
    for (drain, leaves_with) in [(true, 3), (false, 4)] {
        let c = DsdvConfig {
            stale_update_drain: drain,
            ..cfg()
        };
        let mut net = Net::new(1, &[], c);
        net.run_to(1_000);
        let waiting = net.arrive(0, 7, 5, 2, 5);
        let spent = net.arrive(0, 7, 5, 2, 1);
        assert_eq!(net.drops, vec![(spent, DropReason::TtlExpired)]);
        assert_eq!(net.agents[0].held(), 1);
        net.hear(0, 5, &[(5, 0, 4)]);
        assert_eq!(net.unicast_ttls, vec![(waiting, leaves_with)]);
    }
}
