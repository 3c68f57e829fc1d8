//! DV driven by hand: updates are delivered in the order they were sent, as if every link
//! had the same delay, so each test reads as the conversation ns-2's agents would have.

use std::collections::VecDeque;

use super::*;

const INF: u32 = 32;

/// A network of duplex links `(a, b)` of cost 1; node a's interface towards b is numbered
/// 2i, b's towards a 2i + 1 (link i), as the world numbers them.
fn network(n: usize, pairs: &[(u32, u32)]) -> (DvNetwork, Vec<f64>) {
    let mut links = vec![Vec::new(); n];
    for (i, &(a, b)) in pairs.iter().enumerate() {
        links[a as usize].push(DvLink {
            neighbor: NodeId(b),
            iface: IfaceId(2 * i as u32),
            cost: 1,
        });
        links[b as usize].push(DvLink {
            neighbor: NodeId(a),
            iface: IfaceId(2 * i as u32 + 1),
            cost: 1,
        });
    }
    DvNetwork::start(DvConfig::default(), &links)
}

/// Delivers `sends` and everything they trigger, in order; returns how many were delivered.
fn deliver(net: &mut DvNetwork, sends: Vec<DvSend>) -> usize {
    let mut pending: VecDeque<DvSend> = sends.into();
    let mut n = 0;
    while let Some(s) = pending.pop_front() {
        n += 1;
        let mut out = DvOutput::default();
        net.receive(s.to, s.from, &s.metrics, &mut out);
        pending.extend(out.sends);
    }
    n
}

/// Every node sends its periodic update, in node order, and the exchange runs out.
fn periodic_round(net: &mut DvNetwork) -> usize {
    let mut delivered = 0;
    for i in 0..net.len() {
        let mut out = DvOutput::default();
        net.periodic_update(NodeId(i as u32), 0.0, &mut out);
        delivered += deliver(net, out.sends);
    }
    delivered
}

fn next_hop(net: &DvNetwork, node: u32, dst: u32) -> Option<u32> {
    net.route(NodeId(node), NodeId(dst)).map(|(_, n)| n.0)
}

fn metrics(net: &DvNetwork, node: u32) -> Vec<i64> {
    (0..net.len())
        .map(|d| net.metric(NodeId(node), NodeId(d as u32)))
        .collect()
}

/// Both directions of the link between `a` and `b` go down (or up), then `a`, then `b`,
/// hears of it; returns what they sent.
fn set_link(net: &mut DvNetwork, a: u32, b: u32, up: bool) -> Vec<DvSend> {
    net.set_link(NodeId(a), NodeId(b), up);
    net.set_link(NodeId(b), NodeId(a), up);
    let mut out = DvOutput::default();
    net.interfaces_changed(NodeId(a), &mut out);
    net.interfaces_changed(NodeId(b), &mut out);
    out.sends
}

/// ns-2.35's `rtglibRNG` (`seed 1`), as `ns` prints `[$r uniform 0.0 0.5]` seven times (the
/// first update of the seven nodes of Greis's example3) and then `uniform 0.9 1.1` on a
/// fresh one; the next periodic update of a node at 0.5 s falls 2·that later.
#[test]
fn first_update_times_are_ns2s_draws() {
    let (mut net, first) = network(7, &[(0, 1)]);
    // As `ns` prints them (`%.17g`).
    let ns2: Vec<f64> = [
        "0.0001697884873346372",
        "0.27794035793186184",
        "0.0071023302185825683",
        "0.044061335522710035",
        "0.22058669092160962",
        "0.39957772679607279",
        "0.15648088588215453",
    ]
    .iter()
    .map(|x| x.parse().unwrap())
    .collect();
    assert_eq!(first, ns2);
    let (mut fresh, _) = network(0, &[]);
    let u = fresh.uniform(0.9, 1.1);
    assert_eq!(u, "0.90006791539493392".parse::<f64>().unwrap());
    // The eighth draw of the shared stream sets node 0's next update, 2·U(0.9, 1.1) after
    // 0.5 s (ns-2: `expr 0.5 + (2 * [$r uniform 0.9 1.1])` after the seven).
    let mut out = DvOutput::default();
    let next = net.periodic_update(NodeId(0), 0.5, &mut out);
    assert_eq!(next, "2.626590420644074".parse::<f64>().unwrap());
}

/// Chain 0 - 1 - 2. At the start each node routes to its neighbours only (Direct). Node 0's
/// first update tells 1 nothing new, so 1 is silent; 1's update gives 0 a route to 2 and 0
/// answers at once (triggered), poisoning back the routes it has through 1.
#[test]
fn a_chain_learns_and_poisons_in_reverse() {
    let (mut net, _) = network(3, &[(0, 1), (1, 2)]);
    assert_eq!(metrics(&net, 0), [0, 1, -1]);
    assert_eq!(
        (next_hop(&net, 0, 1), next_hop(&net, 0, 2)),
        (Some(1), None)
    );

    let mut out = DvOutput::default();
    net.periodic_update(NodeId(0), 0.0, &mut out);
    assert_eq!(out.sends.len(), 1);
    // To 1: itself 0, 1 poisoned (routed through 1), 2 unknown.
    assert_eq!(out.sends[0].metrics, [0, INF, INF]);
    assert_eq!(out.sends[0].iface, IfaceId(0));
    let mut quiet = DvOutput::default();
    let s = &out.sends[0];
    net.receive(s.to, s.from, &s.metrics, &mut quiet);
    assert!(quiet.sends.is_empty() && quiet.routes_changed.is_empty());

    let mut out = DvOutput::default();
    net.periodic_update(NodeId(1), 0.0, &mut out);
    let to: Vec<(u32, Vec<u32>)> = out
        .sends
        .iter()
        .map(|s| (s.to.0, s.metrics.clone()))
        .collect();
    assert_eq!(to, [(0, vec![INF, 0, 1]), (2, vec![1, 0, INF])]);
    let mut triggered = DvOutput::default();
    let s = &out.sends[0];
    net.receive(s.to, s.from, &s.metrics, &mut triggered);
    assert_eq!(triggered.routes_changed, [NodeId(0)]);
    assert_eq!(
        (next_hop(&net, 0, 2), metrics(&net, 0)),
        (Some(1), vec![0, 1, 2])
    );
    assert_eq!(triggered.sends.len(), 1);
    assert_eq!(triggered.sends[0].metrics, [0, INF, INF]);
}

/// Ring 0 - 1 - 2 - 3 - 4 - 0 (five nodes: no ties). Converged, 1 reaches 2 directly and 0
/// reaches 2 through 1. The 1 - 2 link goes down: 1 keeps its DV route over the downed
/// link (metric infinity) until 0 offers a detour; the routes settle round the other way,
/// and come back when the link is up again.
#[test]
fn a_link_down_moves_the_route_and_up_brings_it_back() {
    let (mut net, _) = network(5, &[(0, 1), (1, 2), (2, 3), (3, 4), (4, 0)]);
    periodic_round(&mut net);
    periodic_round(&mut net);
    assert_eq!(metrics(&net, 1), [1, 0, 1, 2, 2]);
    assert_eq!(
        (next_hop(&net, 1, 2), next_hop(&net, 0, 2)),
        (Some(2), Some(1))
    );

    let sends = set_link(&mut net, 1, 2, false);
    // 1 tells 0 that 2 and 3 are at infinity (0 and 4, routed through 0, are poisoned);
    // 2 tells 3 the same of 1 and 0.
    let told: Vec<(u32, u32, Vec<u32>)> = sends
        .iter()
        .map(|s| (s.from.0, s.to.0, s.metrics.clone()))
        .collect();
    assert_eq!(
        told,
        [
            (1, 0, vec![INF, 0, INF, INF, INF]),
            (2, 3, vec![INF, INF, 0, INF, INF]),
        ]
    );
    // Right after: 1 still forwards to 2 over the downed interface (ns-2 keeps the stale
    // DV route), at metric infinity.
    assert_eq!(
        (next_hop(&net, 1, 2), net.metric(NodeId(1), NodeId(2))),
        (Some(2), 32)
    );
    deliver(&mut net, sends);
    periodic_round(&mut net);
    periodic_round(&mut net);
    assert_eq!(metrics(&net, 1), [1, 0, 4, 3, 2]);
    assert_eq!(
        (next_hop(&net, 1, 2), next_hop(&net, 0, 2)),
        (Some(0), Some(4))
    );

    let sends = set_link(&mut net, 1, 2, true);
    // The link up gives 1 and 2 their direct routes back: a change, sent to every
    // neighbour.
    assert_eq!(sends.len(), 4);
    deliver(&mut net, sends);
    assert_eq!(metrics(&net, 1), [1, 0, 1, 2, 2]);
    assert_eq!(
        (next_hop(&net, 1, 2), next_hop(&net, 0, 2)),
        (Some(2), Some(1))
    );
}

/// Triangle 0, 1, 2 with node 3 hanging off 2. When 2 - 3 goes down, 0 and 1 may each
/// believe the other still reaches 3 (poisoned reverse does not cover a loop of three):
/// they count up, and stop at infinity. Every node ends with no usable route to 3.
#[test]
fn counting_to_infinity_stops_at_infinity() {
    let (mut net, _) = network(4, &[(0, 1), (1, 2), (0, 2), (2, 3)]);
    periodic_round(&mut net);
    periodic_round(&mut net);
    assert_eq!(
        (0..3)
            .map(|i| net.metric(NodeId(i), NodeId(3)))
            .collect::<Vec<_>>(),
        [2, 2, 1]
    );
    let sends = set_link(&mut net, 2, 3, false);
    let mut delivered = deliver(&mut net, sends);
    for _ in 0..40 {
        delivered += periodic_round(&mut net);
    }
    assert!(delivered < 2000, "{delivered} updates");
    for i in 0..3 {
        assert_eq!(net.metric(NodeId(i), NodeId(3)), i64::from(INF), "node {i}");
    }
}

/// An update changes nothing when it repeats what the peer said: no recomputation, nothing
/// sent.
#[test]
fn a_repeated_update_is_silent() {
    let (mut net, _) = network(3, &[(0, 1), (1, 2)]);
    periodic_round(&mut net);
    let mut out = DvOutput::default();
    net.periodic_update(NodeId(1), 0.0, &mut out);
    let mut again = DvOutput::default();
    for s in &out.sends {
        net.receive(s.to, s.from, &s.metrics, &mut again);
    }
    assert!(again.sends.is_empty() && again.routes_changed.is_empty());
}
