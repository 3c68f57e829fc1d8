//! Distance-vector routing on wired nodes as ns-2.35 runs `$ns rtproto DV`
//! (`tcl/rtglib/route-proto.tcl`, `routing/rtProtoDV.{h,cc}`).
//!
//! ns-2 gives every node an `rtObject` that chooses, per destination, among the routes its
//! protocols offer: `Agent/rtProto/Direct` (a route to each neighbour over the link to it,
//! preference 100) and `Agent/rtProto/DV` (routes learnt from the neighbours' vectors,
//! preference 120). Lower preference wins, then lower metric. The chosen routes are what the
//! node's classifier forwards on. ternsim keeps the same three tables per node, so the
//! quirks that show in ns-2's traces (which update goes out when, a stale DV route kept
//! over a downed link until a better one is heard) come out the same.
//!
//! [`DvNetwork`] owns the routing state of every node and the one random stream they share
//! (ns-2's `rtglibRNG`, `seed 1`): each node's first periodic update is drawn
//! U(0, 0.5) s in node order at the start, each later one `advertInterval`·U(0.9, 1.1) after
//! the last, drawn when it is sent, so the draws interleave across nodes in time order.
//!
//! Messages: a node sends each neighbour its whole vector, one metric per node of the
//! network (its own 0, no route `infinity`), poisoned in reverse: a destination routed
//! through that neighbour is advertised `infinity` (split horizon with poisoned reverse,
//! `send-to-peer`). A periodic update goes to every neighbour whose link is up; a change of
//! the chosen routes sends to every neighbour at once (triggered); a change that only brought
//! links up sends to those neighbours. The receiver adds its link's cost, caps at
//! `infinity`, and recomputes when a neighbour's metric changed (`recv-update`).
//!
//! What it does not do: move packets (the world turns [`DvSend`]s into packets of ns-2 type
//! `rtProtoDV` whose size in bytes is the number of entries, as `rtProtoDV::sendpkt` sets it,
//! and installs [`DvNetwork::route`] in each node's forwarding table), multipath
//! (`multiPath_` 0, ns-2's default), or ns-2's tie-break among equal routes to a new
//! destination: ns-2 takes the first link in its Tcl array's hash order, ternsim the
//! neighbour with the lowest node id. A route that stays the best of a tie is kept in both.

#[cfg(test)]
mod tests;

use crate::net::addr::{IfaceId, NodeId};
use crate::sim::mrg32k3a::Mrg32k3a;

/// DV parameters; defaults are ns-2.35's (`tcl/lib/ns-default.tcl`, `route-proto.tcl`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DvConfig {
    /// Base period of the periodic updates in seconds (`Agent/rtProto/DV set
    /// advertInterval 2`); each period is this times U(0.9, 1.1).
    pub advert_interval: f64,
    /// The metric that means unreachable (`INFINITY`, ns-2's `Agent set ttl_` 32).
    pub infinity: u32,
    /// Preference of DV's routes (`Agent/rtProto/DV set preference_ 120`).
    pub preference: u32,
    /// Preference of the routes to the neighbours over the links to them
    /// (`Agent/rtProto/Direct set preference_ 100`).
    pub direct_preference: u32,
    /// Seed of the shared random stream (ns-2: `$rtglibRNG seed 1`, MRG32k3a).
    pub seed: u32,
}

impl Default for DvConfig {
    fn default() -> Self {
        DvConfig {
            advert_interval: 2.0,
            infinity: 32,
            preference: 120,
            direct_preference: 100,
            seed: 1,
        }
    }
}

/// ns-2's worst preference (`rtObject set maxpref_ 255`): no route.
const MAX_PREF: u32 = 255;
/// ns-2's metric of no route (`rtObject set unreach_ -1`).
const UNREACH: i64 = -1;

/// A link from a node to a neighbour, as the world gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DvLink {
    pub neighbor: NodeId,
    /// The interface the node sends on towards the neighbour.
    pub iface: IfaceId,
    /// The link's cost (ns-2 `$link cost?`, 1 by default), added to what the neighbour
    /// advertises.
    pub cost: u32,
}

/// An update to send: `from`'s vector to neighbour `to` over `iface`, one metric per node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DvSend {
    pub from: NodeId,
    pub iface: IfaceId,
    pub to: NodeId,
    pub metrics: Vec<u32>,
}

/// What a call produced: updates to send, in order, and the nodes whose chosen routes
/// changed (their forwarding tables are to be installed again).
#[derive(Debug, Default)]
pub struct DvOutput {
    pub sends: Vec<DvSend>,
    pub routes_changed: Vec<NodeId>,
}

/// A route one protocol (or the node's choice) has to a destination: the peer (index into
/// the node's peers) it goes through, its preference and metric (ns-2's `nextHop_`,
/// `rtpref_`, `metric_`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Choice {
    via: Option<usize>,
    pref: u32,
    metric: i64,
}

/// The two protocols an `rtObject` chooses among, in the order ns-2 consults them (its Tcl
/// array `rtProtos_`: Tcl 8.6 lists "DV" before "Direct").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Proto {
    Dv,
    Direct,
}

/// A neighbour as one node sees it (ns-2's `rtPeer` and the link to it).
#[derive(Clone, Debug)]
struct Peer {
    link: DvLink,
    /// The link towards the neighbour is up now (`$link up?`).
    up: bool,
    /// DV's record of the link's state (`ifstat_`), brought up to date by `intf-changed`.
    seen_up: bool,
    /// What the neighbour last advertised per destination, plus the link cost, capped at
    /// `infinity` (`infinity` until heard).
    metric: Vec<u32>,
}

/// One node's routing state.
#[derive(Clone, Debug)]
struct DvNode {
    id: NodeId,
    /// The neighbours in ns-2's order (`lsort -dictionary` of the node objects: node order).
    peers: Vec<Peer>,
    /// Per destination: the route over the link to it (`Agent/rtProto/Direct`).
    direct: Vec<Choice>,
    direct_changed: u32,
    /// Per destination: the route learnt from the peers (`Agent/rtProto/DV`).
    dv: Vec<Choice>,
    dv_changed: u32,
    /// Per destination: the node's choice (`rtObject`) and which protocol gave it.
    chosen: Vec<Choice>,
    chosen_from: Vec<Option<Proto>>,
    /// Per destination: the peer the node forwards to (the classifier's slot, as ns-2's
    /// `add-routes` / `delete-routes` leave it; `None`: ns-2's null agent, dropped).
    installed: Vec<Option<usize>>,
    /// Peers whose links came up since the last update (`ifsUp_`).
    came_up: Vec<usize>,
}

/// Every node's DV state and the random stream they share.
#[derive(Clone, Debug)]
pub struct DvNetwork {
    cfg: DvConfig,
    nodes: Vec<DvNode>,
    rng: Mrg32k3a,
}

impl DvNetwork {
    /// The network of `links[i]` (node i's links), set up as ns-2's `Agent/rtProto/DV
    /// init-all` does when the run starts: each node's direct routes installed, then each
    /// node's first update time drawn, in node order. Returns the network and those times
    /// (seconds, per node).
    pub fn start(cfg: DvConfig, links: &[Vec<DvLink>]) -> (Self, Vec<f64>) {
        let n = links.len();
        let no_route = Choice {
            via: None,
            pref: MAX_PREF,
            metric: UNREACH,
        };
        let nodes = links
            .iter()
            .enumerate()
            .map(|(i, l)| {
                let mut l = l.clone();
                l.sort_by_key(|x| x.neighbor);
                let peers = l
                    .into_iter()
                    .map(|link| Peer {
                        link,
                        up: true,
                        seen_up: true,
                        metric: vec![cfg.infinity; n],
                    })
                    .collect::<Vec<_>>();
                let mut chosen = vec![no_route; n];
                chosen[i] = Choice {
                    via: None,
                    pref: 0,
                    metric: 0,
                };
                // Direct's preference is its own for the neighbours, the worst elsewhere.
                let mut direct = vec![no_route; n];
                for p in &peers {
                    direct[p.link.neighbor.ix()].pref = cfg.direct_preference;
                }
                DvNode {
                    id: NodeId(i as u32),
                    peers,
                    direct,
                    direct_changed: 0,
                    dv: vec![
                        Choice {
                            via: None,
                            pref: cfg.preference,
                            metric: UNREACH,
                        };
                        n
                    ],
                    dv_changed: 0,
                    chosen,
                    chosen_from: vec![None; n],
                    installed: vec![None; n],
                    came_up: Vec::new(),
                }
            })
            .collect();
        let mut net = DvNetwork {
            cfg,
            nodes,
            rng: Mrg32k3a::ns2_seeded(cfg.seed),
        };
        // `rtObject init`: Direct finds the links; `rtObject init-all`: each node chooses.
        // DV is not attached yet, so nothing is sent.
        for i in 0..n {
            net.nodes[i].direct_compute();
        }
        let mut out = DvOutput::default();
        for i in 0..n {
            net.nodes[i].choose(&net.cfg, &mut out);
        }
        debug_assert!(out.sends.is_empty());
        // `Agent/rtProto/DV init`: the first periodic update at U(0, 0.5) s.
        let first = (0..n).map(|_| net.uniform(0.0, 0.5)).collect();
        (net, first)
    }

    /// ns-2's Tcl `$rtglibRNG uniform a b`.
    fn uniform(&mut self, a: f64, b: f64) -> f64 {
        self.rng.ns2_tcl_uniform(a, b)
    }

    /// Node `node`'s periodic update at `now` (exact seconds): its vector to every
    /// neighbour whose link is up, then the time of the next one (`send-periodic-update`),
    /// which ns-2 schedules with `$ns at`: the event falls at now + (t − now).
    pub fn periodic_update(&mut self, node: NodeId, now: f64, out: &mut DvOutput) -> f64 {
        self.nodes[node.ix()].send_updates(&self.cfg, true, out);
        let t = now + self.cfg.advert_interval * self.uniform(0.9, 1.1);
        now + (t - now)
    }

    /// `node` received `from`'s vector (`recv-update`).
    pub fn receive(&mut self, node: NodeId, from: NodeId, metrics: &[u32], out: &mut DvOutput) {
        let cfg = self.cfg;
        let me = &mut self.nodes[node.ix()];
        let Some(k) = me.peers.iter().position(|p| p.link.neighbor == from) else {
            return;
        };
        let peer = &mut me.peers[k];
        let mut changed = 0;
        for (dst, &m) in metrics.iter().enumerate() {
            let m = m.saturating_add(peer.link.cost).min(cfg.infinity);
            if m != peer.metric[dst] {
                peer.metric[dst] = m;
                changed += 1;
            }
        }
        if changed > 0 {
            me.dv_compute(&cfg);
            me.dv_changed += changed;
            me.choose(&cfg, out);
        }
    }

    /// The link from `node` to `neighbor` went down or came up. Nothing is recomputed until
    /// [`Self::interfaces_changed`]: ns-2 takes every direction of a link down first, then
    /// tells the nodes.
    pub fn set_link(&mut self, node: NodeId, neighbor: NodeId, up: bool) {
        if let Some(p) = self.nodes[node.ix()]
            .peers
            .iter_mut()
            .find(|p| p.link.neighbor == neighbor)
        {
            p.up = up;
        }
    }

    /// `node` hears that its links changed (ns-2 `rtObject intf-changed`): Direct and DV
    /// look at their links and recompute, then the node chooses again and sends.
    pub fn interfaces_changed(&mut self, node: NodeId, out: &mut DvOutput) {
        let cfg = self.cfg;
        let me = &mut self.nodes[node.ix()];
        // `rtProtos_` order: DV first. Its intf-changed forgets what a neighbour behind a
        // downed link said and notes the links that came up.
        me.dv_interfaces_changed(&cfg);
        me.dv_compute(&cfg);
        me.direct_compute();
        me.choose(&cfg, out);
    }

    /// Where `node` forwards packets for `dst`: the interface and the neighbour, or `None`
    /// (ns-2's null agent: dropped untraced). The interface may be down: ns-2 keeps a DV
    /// route over a downed link until a better one is heard.
    pub fn route(&self, node: NodeId, dst: NodeId) -> Option<(IfaceId, NodeId)> {
        let me = &self.nodes[node.ix()];
        me.installed[dst.ix()].map(|k| (me.peers[k].link.iface, me.peers[k].link.neighbor))
    }

    /// `node`'s chosen metric to `dst` (-1: none), as `rtObject metric?` answers.
    pub fn metric(&self, node: NodeId, dst: NodeId) -> i64 {
        self.nodes[node.ix()].chosen[dst.ix()].metric
    }

    /// The number of nodes (entries in every update).
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }
}

impl DvNode {
    fn neighbor(&self, k: usize) -> NodeId {
        self.peers[k].link.neighbor
    }

    /// `Agent/rtProto/Direct compute-routes`: a route to each neighbour whose link is up
    /// (metric: the link's cost), none to one whose link is down.
    fn direct_compute(&mut self) {
        self.direct_changed = 0;
        for k in 0..self.peers.len() {
            let (dst, up, cost) = {
                let p = &self.peers[k];
                (p.link.neighbor.ix(), p.up, p.link.cost)
            };
            let d = &mut self.direct[dst];
            if d.via.is_none() && up {
                d.via = Some(k);
                d.metric = i64::from(cost);
                self.direct_changed += 1;
            } else if d.via.is_some() && !up {
                d.via = None;
                d.metric = UNREACH;
                self.direct_changed += 1;
            }
        }
    }

    /// `Agent/rtProto/DV intf-changed`: a neighbour whose link went down is taken to
    /// advertise `infinity` everywhere; one whose link came up is remembered, to be sent to.
    fn dv_interfaces_changed(&mut self, cfg: &DvConfig) {
        self.came_up.clear();
        for (k, p) in self.peers.iter_mut().enumerate() {
            if p.up != p.seen_up {
                p.seen_up = p.up;
                if p.up {
                    self.came_up.push(k);
                } else {
                    p.metric.fill(cfg.infinity);
                }
            }
        }
    }

    /// `Agent/rtProto/DV compute-routes`, per destination: refresh the current route's
    /// metric from its peer, find the peers with the best (preference, metric) below
    /// `infinity`, and take it unless it is worse than the current route. A destination no
    /// peer reaches keeps its route (and the refreshed metric, `infinity`): ns-2 drops it
    /// only when a better one replaces it.
    fn dv_compute(&mut self, cfg: &DvConfig) {
        self.dv_changed = 0;
        let inf = cfg.infinity;
        for dst in 0..self.dv.len() {
            let cur = &mut self.dv[dst];
            if let Some(k) = cur.via {
                cur.metric = i64::from(self.peers[k].metric[dst]);
                cur.pref = cfg.preference;
            }
            // The best (preference, metric), and the first peer offering it.
            let (mut pf, mut mt, mut best) = (MAX_PREF, inf, None);
            let mut tied: Vec<usize> = Vec::new();
            for (k, p) in self.peers.iter().enumerate() {
                let (pmt, ppf) = (p.metric[dst], cfg.preference);
                if pmt >= inf || ppf > pf || pmt > mt {
                    continue;
                }
                if ppf < pf || pmt < mt {
                    pf = ppf;
                    mt = pmt;
                    best = Some(k);
                    tied.clear();
                }
                tied.push(k);
            }
            let Some(first) = best else { continue };
            let cur = &mut self.dv[dst];
            if pf > cur.pref || (cur.metric >= 0 && i64::from(mt) > cur.metric) {
                continue;
            }
            self.dv_changed += 1;
            let better = pf < cur.pref || i64::from(mt) < cur.metric;
            cur.pref = pf;
            cur.metric = i64::from(mt);
            // A route that ties with the best is kept; otherwise the first of the best.
            let keep = cur.via.filter(|k| tied.contains(k));
            cur.via = if better {
                Some(first)
            } else {
                keep.or(Some(first))
            };
        }
    }

    /// `rtObject compute-routes`: if a protocol changed, choose per destination the route
    /// of lowest preference (then metric) among the protocols', install what changed, and
    /// send updates: to every neighbour if a route changed, else to the links that came up.
    fn choose(&mut self, cfg: &DvConfig, out: &mut DvOutput) {
        if self.direct_changed == 0 && self.dv_changed == 0 {
            return;
        }
        self.direct_changed = 0;
        self.dv_changed = 0;
        let mut changes = 0;
        for dst in 0..self.chosen.len() {
            if dst == self.id.ix() {
                continue;
            }
            let mut best: Option<(Choice, Proto)> = None;
            let mut mt = UNREACH;
            let mut pf = MAX_PREF;
            for proto in [Proto::Dv, Proto::Direct] {
                let c = self.offer(proto, dst);
                if c.via.is_none() {
                    continue;
                }
                if c.pref < pf || (c.pref == pf && c.metric < mt) || mt < 0 {
                    pf = c.pref;
                    mt = c.metric;
                    best = Some((c, proto));
                }
            }
            let cur = self.chosen[dst];
            match best {
                None => {
                    if cur.via.is_some() {
                        self.installed[dst] = None;
                        self.chosen[dst] = Choice {
                            via: None,
                            pref: pf,
                            metric: mt,
                        };
                        self.chosen_from[dst] = None;
                        changes += 1;
                    }
                }
                Some((c, proto)) if Some(proto) == self.chosen_from[dst] => {
                    // The same protocol still has the best route: take its changes.
                    if c.via != cur.via {
                        self.chosen[dst].via = c.via;
                        self.installed[dst] = c.via;
                        changes += 1;
                    }
                    if c.metric != cur.metric {
                        self.chosen[dst].metric = c.metric;
                        changes += 1;
                    }
                    self.chosen[dst].pref = c.pref;
                }
                Some((c, proto)) => {
                    // Another protocol: compared with what the old one offers now.
                    if let Some(old) = self.chosen_from[dst] {
                        self.chosen[dst] = self.offer(old, dst);
                    }
                    let now = self.chosen[dst];
                    if now.pref != c.pref || now.metric != c.metric {
                        self.chosen[dst] = c;
                        self.chosen_from[dst] = Some(proto);
                        self.installed[dst] = c.via;
                        changes += 1;
                    }
                }
            }
        }
        if changes > 0 && !out.routes_changed.contains(&self.id) {
            out.routes_changed.push(self.id);
        }
        self.send_updates(cfg, changes > 0, out);
    }

    fn offer(&self, proto: Proto, dst: usize) -> Choice {
        match proto {
            Proto::Dv => self.dv[dst],
            Proto::Direct => self.direct[dst],
        }
    }

    /// `Agent/rtProto/DV send-updates`: to every peer (`all`) or to those whose links came
    /// up, each whose link is up now.
    fn send_updates(&mut self, cfg: &DvConfig, all: bool, out: &mut DvOutput) {
        let to: Vec<usize> = if all {
            (0..self.peers.len()).collect()
        } else {
            std::mem::take(&mut self.came_up)
        };
        self.came_up.clear();
        for k in to {
            if self.peers[k].up {
                let metrics = self.vector_for(cfg, k);
                out.sends.push(DvSend {
                    from: self.id,
                    iface: self.peers[k].link.iface,
                    to: self.neighbor(k),
                    metrics,
                });
            }
        }
    }

    /// `send-to-peer`: the chosen metric per destination (none: `infinity`), `infinity`
    /// for the destinations routed through peer `k` (poisoned reverse).
    fn vector_for(&self, cfg: &DvConfig, k: usize) -> Vec<u32> {
        self.chosen
            .iter()
            .map(|c| {
                if c.metric < 0 || c.via == Some(k) {
                    cfg.infinity
                } else {
                    c.metric as u32
                }
            })
            .collect()
    }
}
