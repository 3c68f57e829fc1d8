//! The world's side of wired DV routing ([`crate::routing::dv`]): it starts the network's
//! DV state with the run, wakes each node for its periodic updates at ns-2's exact times,
//! turns the updates into packets on the links, hands the ones that arrive back to DV,
//! tells DV of links going down and up, and installs DV's routes in each node's static
//! table.

use super::{Event, World};
use crate::net::addr::NodeId;
use crate::net::control::ControlMessage;
use crate::net::packet::{Packet, Payload, Ports};
use crate::routing::dv::{DvConfig, DvLink, DvNetwork, DvOutput};
use crate::routing::static_routes::Route;
use crate::routing::{RoutingOutput, RoutingProtocol};
use crate::sim::SimTime;

/// A node's DV state as the world keeps it: the network and the port each node's DV agent
/// is bound to.
pub(super) struct DvRouting {
    pub(super) net: DvNetwork,
    /// Per node, the port ns-2 gives its `Agent/rtProto/DV`: attached at `$ns run`, after
    /// the node's own agents and its `Agent/rtProto/Direct`.
    ports: Vec<u16>,
}

impl World {
    /// Starts DV on every node (ns-2's `$ns run` with `rtproto DV`): the routes to the
    /// neighbours, and each node's first periodic update, drawn in node order.
    pub(super) fn start_dv(&mut self, cfg: DvConfig, agents_on_node: &[u16]) {
        let mut links: Vec<Vec<DvLink>> = vec![Vec::new(); self.nodes.len()];
        for e in &self.edges {
            links[e.a.ix()].push(DvLink {
                neighbor: e.b,
                iface: e.a_iface,
                cost: 1,
            });
            links[e.b.ix()].push(DvLink {
                neighbor: e.a,
                iface: e.b_iface,
                cost: 1,
            });
        }
        let (net, first) = DvNetwork::start(cfg, &links);
        let ports = agents_on_node.iter().map(|n| n + 1).collect();
        self.dv = Some(Box::new(DvRouting { net, ports }));
        for node in 0..self.nodes.len() {
            self.install_dv_routes(NodeId(node as u32));
        }
        for (node, t) in first.into_iter().enumerate() {
            self.schedule_dv_update(NodeId(node as u32), t);
        }
    }

    fn schedule_dv_update(&mut self, node: NodeId, exact: f64) {
        let at = SimTime::from_secs_f64(exact);
        self.sched
            .schedule_exact(at, exact, Event::DvUpdate(node.0));
    }

    /// `node`'s periodic update is due.
    pub(super) fn on_dv_update(&mut self, node: NodeId) {
        let now_exact = self.sched.now_exact();
        let now = self.sched.now();
        let Some(dv) = self.dv.as_deref_mut() else {
            return;
        };
        let mut out = DvOutput::default();
        let next = dv.net.periodic_update(node, now_exact, &mut out);
        self.drain_dv(now, out);
        self.schedule_dv_update(node, next);
    }

    /// A DV update reached `node`: DV reads it, and sends and reroutes as it decides.
    /// Returns the packet if it is not one (or DV is not running).
    pub(super) fn dv_receive(
        &mut self,
        now: SimTime,
        node: NodeId,
        packet: Packet,
    ) -> Option<Packet> {
        let Payload::Control(ControlMessage::DvUpdate { metrics }) = &packet.payload else {
            return Some(packet);
        };
        let from = self
            .addr_owner
            .get(packet.ip.src.index())
            .copied()
            .flatten();
        let (Some(dv), Some(from)) = (self.dv.as_deref_mut(), from) else {
            return Some(packet);
        };
        let mut out = DvOutput::default();
        dv.net.receive(node, from, metrics, &mut out);
        self.accounting.delivered += 1;
        self.accounting.delivered_by_kind[packet.kind().index()] += 1;
        self.spend(packet);
        self.drain_dv(now, out);
        None
    }

    /// Link `link`'s chosen directions went down or up (already done to the wires): DV
    /// hears of each, then both ends recompute, `b` first if `b_first`, each sending its
    /// updates before the other hears (ns-2's `rtModel notify`).
    pub(super) fn dv_link_state(
        &mut self,
        now: SimTime,
        link: usize,
        directions: [bool; 2],
        up: bool,
        b_first: bool,
    ) {
        let e = self.edges[link];
        let Some(dv) = self.dv.as_deref_mut() else {
            return;
        };
        if directions[0] {
            dv.net.set_link(e.a, e.b, up);
        }
        if directions[1] {
            dv.net.set_link(e.b, e.a, up);
        }
        // The interfaces' state changed what the installed routes can carry.
        self.install_dv_routes(e.a);
        self.install_dv_routes(e.b);
        let order = if b_first { [e.b, e.a] } else { [e.a, e.b] };
        for node in order {
            let mut out = DvOutput::default();
            if let Some(dv) = self.dv.as_deref_mut() {
                dv.net.interfaces_changed(node, &mut out);
            }
            self.drain_dv(now, out);
        }
    }

    /// Installs the routes DV changed, then sends its updates, in order.
    fn drain_dv(&mut self, now: SimTime, out: DvOutput) {
        for &node in &out.routes_changed {
            self.install_dv_routes(node);
        }
        for send in out.sends {
            let Some(dv) = self.dv.as_deref() else {
                return;
            };
            let ports = Ports {
                src: dv.ports[send.from.ix()],
                dst: dv.ports[send.to.ix()],
            };
            let (src, dst) = (
                self.nodes[send.from.ix()].primary(),
                self.nodes[send.to.ix()].primary(),
            );
            let msg = ControlMessage::DvUpdate {
                metrics: send.metrics,
            };
            // ns-2's agent sets the packet's size to the number of entries (`size_`).
            let size = msg.body_bytes();
            let packet = self.new_packet(now, None, src, dst, ports, size, Payload::Control(msg));
            self.originate(now, send.from, packet);
        }
    }

    /// `node`'s forwarding table from DV's installed routes. A route through an interface
    /// that is down carries nothing: ns-2's downed link discards what it is given, untraced.
    fn install_dv_routes(&mut self, node: NodeId) {
        let Some(dv) = self.dv.as_deref() else {
            return;
        };
        let routes: Vec<Option<Route>> = self
            .addr_owner
            .iter()
            .map(|owner| {
                let (iface, next) = dv.net.route(node, (*owner)?)?;
                self.ifaces[iface.ix()].up.then(|| Route {
                    iface,
                    next_hop: self.nodes[next.ix()].primary(),
                })
            })
            .collect();
        if let RoutingProtocol::Static(s) = &mut self.nodes[node.ix()].routing {
            let mut out = RoutingOutput::default();
            s.set_table(routes, &mut out);
            debug_assert!(out.is_empty(), "DV nodes hold no packets");
        }
    }
}
