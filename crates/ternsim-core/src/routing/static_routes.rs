//! Static routing: per-node next-hop tables computed centrally from the topology, as ns-2's
//! static route logic does (shortest hop count), with explicit `[[routes]]` entries taking
//! precedence. The world recomputes the tables whenever the topology changes (a link goes
//! down or up) and hands each node its own.
//!
//! With no route, a packet is dropped (`no_route`, ns-2's behaviour) unless the scenario
//! gives the protocol a hold buffer, in which case it waits there until a recomputation
//! finds a path or its timeout passes.

use std::collections::VecDeque;

use super::hold::{HoldBuffer, HoldConfig};
use super::{RouteCtx, Routed, RoutingOutput};
use crate::net::addr::{Addr, IfaceId, NodeId};
use crate::net::packet::{DropReason, Packet};
use crate::sim::SimTime;

/// Where a node sends packets for one destination.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Route {
    pub iface: IfaceId,
    pub next_hop: Addr,
}

/// One edge of the routing graph: a duplex link or bearer with the interface each end uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Edge {
    pub a: NodeId,
    pub b: NodeId,
    /// The interface `a` sends on towards `b`, and `b` towards `a`.
    pub a_iface: IfaceId,
    pub b_iface: IfaceId,
    pub up: bool,
}

/// Next-hop node of every node towards every destination node: `table[node][dst]`, the
/// edge used and the neighbour. Shortest hop count over the edges that are up; ties go to
/// the neighbour reached over the edge listed first, so the tables are a pure function of the
/// topology. `explicit` entries `(node, dst, via)` replace the computed next hop of `node`
/// towards `dst` while an edge to `via` is up.
pub fn shortest_paths(
    n_nodes: usize,
    edges: &[Edge],
    explicit: &[(NodeId, NodeId, NodeId)],
) -> Vec<Vec<Option<(usize, NodeId)>>> {
    let mut adjacency: Vec<Vec<(usize, NodeId)>> = vec![Vec::new(); n_nodes];
    for (i, e) in edges.iter().enumerate().filter(|(_, e)| e.up) {
        adjacency[e.a.ix()].push((i, e.b));
        adjacency[e.b.ix()].push((i, e.a));
    }
    let mut table = vec![vec![None; n_nodes]; n_nodes];
    // Breadth-first search outward from each destination: a node first reached from `u`
    // forwards to `u`.
    let mut seen = vec![false; n_nodes];
    let mut queue = VecDeque::new();
    for dst in 0..n_nodes {
        seen.fill(false);
        seen[dst] = true;
        queue.clear();
        queue.push_back(dst);
        while let Some(u) = queue.pop_front() {
            for &(edge, v) in &adjacency[u] {
                if !seen[v.ix()] {
                    seen[v.ix()] = true;
                    table[v.ix()][dst] = Some((edge, NodeId(u as u32)));
                    queue.push_back(v.ix());
                }
            }
        }
    }
    for &(node, dst, via) in explicit {
        if let Some(&(edge, _)) = adjacency[node.ix()].iter().find(|(_, n)| *n == via) {
            table[node.ix()][dst.ix()] = Some((edge, via));
        }
    }
    table
}

/// The node sequence from `src` to `dst` in `table`, or `None` if there is none or it loops.
pub fn path(
    table: &[Vec<Option<(usize, NodeId)>>],
    src: NodeId,
    dst: NodeId,
) -> Option<Vec<NodeId>> {
    let mut path = vec![src];
    let mut at = src;
    while at != dst {
        at = table[at.ix()][dst.ix()]?.1;
        if path.len() > table.len() {
            return None;
        }
        path.push(at);
    }
    Some(path)
}

/// One node's static routing protocol instance.
#[derive(Clone, Debug)]
pub struct StaticRouting {
    /// Route per destination address, indexed by [`Addr::index`].
    table: Vec<Option<Route>>,
    hold: Option<HoldBuffer>,
}

impl StaticRouting {
    pub fn new(hold: Option<HoldConfig>) -> Self {
        StaticRouting {
            table: Vec::new(),
            hold: hold.map(HoldBuffer::new),
        }
    }

    /// Installs a recomputed table and releases held packets that now have a route.
    pub fn set_table(&mut self, table: Vec<Option<Route>>, out: &mut RoutingOutput) {
        self.table = table;
        let Some(hold) = self.hold.as_mut() else {
            return;
        };
        let table = &self.table;
        let lookup = |dst: Addr| table.get(dst.index()).copied().flatten();
        for p in hold.release(|dst| lookup(dst).is_some()) {
            let r = lookup(p.routing_header().dst).expect("released because routable");
            out.send.push((p, r.iface, r.next_hop));
        }
    }

    #[inline]
    pub fn route(&self, dst: Addr) -> Option<Route> {
        self.table.get(dst.index()).copied().flatten()
    }

    // `inline(always)`, as are `route_output` and `route_input`: see
    // `RoutingProtocol::route_output`.
    #[inline(always)]
    fn forward_or_hold(&mut self, now: SimTime, packet: Packet) -> Routed {
        if let Some(r) = self.route(packet.routing_header().dst) {
            return Routed::Forward {
                packet,
                iface: r.iface,
                next_hop: r.next_hop,
            };
        }
        match self.hold.as_mut() {
            None => Routed::Drop(packet, DropReason::NoRoute),
            Some(h) => match h.hold(now, packet) {
                None => Routed::Held,
                Some(p) => Routed::Drop(p, DropReason::HoldOverflow),
            },
        }
    }

    #[inline(always)]
    pub fn route_output(&mut self, now: SimTime, ctx: &RouteCtx, packet: Packet) -> Routed {
        if ctx.is_local(packet.routing_header().dst) {
            return Routed::Deliver(packet);
        }
        self.forward_or_hold(now, packet)
    }

    #[inline(always)]
    pub fn route_input(&mut self, now: SimTime, ctx: &RouteCtx, packet: Packet) -> Routed {
        let dst = packet.routing_header().dst;
        if ctx.is_local(dst) || dst.is_broadcast() {
            return Routed::Deliver(packet);
        }
        self.forward_or_hold(now, packet)
    }

    /// Static routing cannot salvage: the packet is dropped with the failure's reason.
    pub fn on_tx_failure(&mut self, packet: Packet, out: &mut RoutingOutput) {
        out.drops.push((packet, DropReason::LinkFailure));
    }

    /// Whether packets without a route wait in a hold buffer (whose expiries are the only
    /// timers of static routing).
    pub fn has_hold_buffer(&self) -> bool {
        self.hold.is_some()
    }

    pub fn next_timer(&self) -> Option<SimTime> {
        self.hold.as_ref().and_then(HoldBuffer::next_deadline)
    }

    pub fn on_timer(&mut self, now: SimTime, out: &mut RoutingOutput) {
        if let Some(h) = self.hold.as_mut() {
            for p in h.expire(now) {
                out.drops.push((p, DropReason::HoldTimeout));
            }
        }
    }

    pub fn held(&self) -> usize {
        self.hold.as_ref().map_or(0, HoldBuffer::len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edge(a: u32, b: u32, i: u32) -> Edge {
        Edge {
            a: NodeId(a),
            b: NodeId(b),
            a_iface: IfaceId(2 * i),
            b_iface: IfaceId(2 * i + 1),
            up: true,
        }
    }

    fn edges(pairs: &[(u32, u32)]) -> Vec<Edge> {
        pairs
            .iter()
            .enumerate()
            .map(|(i, &(a, b))| edge(a, b, i as u32))
            .collect()
    }

    fn n(v: &[u32]) -> Vec<NodeId> {
        v.iter().map(|&i| NodeId(i)).collect()
    }

    #[test]
    fn dumbbell_routes_go_through_the_bottleneck() {
        // s1, s2 -- r1 -- r2 -- d1, d2
        let e = edges(&[(0, 2), (1, 2), (2, 3), (3, 4), (3, 5)]);
        let t = shortest_paths(6, &e, &[]);
        assert_eq!(path(&t, NodeId(0), NodeId(4)), Some(n(&[0, 2, 3, 4])));
        assert_eq!(path(&t, NodeId(5), NodeId(1)), Some(n(&[5, 3, 2, 1])));
        assert_eq!(t[2][4], Some((2, NodeId(3))));
    }

    #[test]
    fn disconnected_nodes_have_no_path() {
        let t = shortest_paths(3, &edges(&[(0, 1)]), &[]);
        assert_eq!(path(&t, NodeId(0), NodeId(2)), None);
    }

    #[test]
    fn explicit_route_overrides_shortest_path_while_its_edge_is_up() {
        // Square 0-1-3, 0-2-3: shortest 0->3 picks the first listed link (via 1).
        let mut e = edges(&[(0, 1), (1, 3), (0, 2), (2, 3)]);
        let t = shortest_paths(4, &e, &[]);
        assert_eq!(path(&t, NodeId(0), NodeId(3)), Some(n(&[0, 1, 3])));
        let explicit = [(NodeId(0), NodeId(3), NodeId(2))];
        let t = shortest_paths(4, &e, &explicit);
        assert_eq!(path(&t, NodeId(0), NodeId(3)), Some(n(&[0, 2, 3])));
        e[2].up = false;
        let t = shortest_paths(4, &e, &explicit);
        assert_eq!(path(&t, NodeId(0), NodeId(3)), Some(n(&[0, 1, 3])));
    }

    /// The square again: the edge 1-3 goes down, routing recomputes over 2; it comes back,
    /// and the first-listed path returns.
    #[test]
    fn a_downed_edge_moves_routes_to_the_other_path_and_back() {
        let mut e = edges(&[(0, 1), (1, 3), (0, 2), (2, 3)]);
        e[1].up = false;
        let t = shortest_paths(4, &e, &[]);
        assert_eq!(path(&t, NodeId(0), NodeId(3)), Some(n(&[0, 2, 3])));
        assert_eq!(path(&t, NodeId(1), NodeId(3)), Some(n(&[1, 0, 2, 3])));
        e[1].up = true;
        let t = shortest_paths(4, &e, &[]);
        assert_eq!(path(&t, NodeId(0), NodeId(3)), Some(n(&[0, 1, 3])));
    }
}
