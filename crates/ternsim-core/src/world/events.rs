//! Scheduled events: links going down and up or changing parameters, flows starting and
//! stopping, nodes reset. A downed direction drops everything it holds and everything sent onto it with
//! `link_down`; routing hears of the change (interfaces down/up) and static routes are
//! recomputed, so traffic moves to another path if there is one and comes back after.

use super::World;
use crate::net::addr::{IfaceId, NodeId};
use crate::scenario::validate::EventAction;
use crate::sim::SimTime;

impl World {
    pub(super) fn on_scheduled(&mut self, now: SimTime, i: usize) {
        let action = self.events[i].action.clone();
        let (what, target) = match action {
            EventAction::LinkDown {
                link,
                directions,
                b_first,
            } => {
                self.set_link_state(now, link, directions, false, b_first);
                ("link_down", self.link_names[link].clone())
            }
            EventAction::LinkUp {
                link,
                directions,
                b_first,
            } => {
                self.set_link_state(now, link, directions, true, b_first);
                ("link_up", self.link_names[link].clone())
            }
            EventAction::LinkSet {
                link,
                directions,
                rate_bps,
                delay,
                error,
                queue_limit,
                shrink,
            } => {
                for d in (0..2).filter(|&d| directions[d]) {
                    let mut out = self.iface_out_pool.pop().unwrap_or_default();
                    let wire = self.devices[2 * link + d]
                        .wired_mut()
                        .expect("links are the first devices");
                    if let Some(r) = rate_bps {
                        wire.set_rate(r);
                    }
                    if let Some(dl) = delay {
                        wire.set_delay(dl);
                    }
                    if let Some(e) = &error {
                        wire.error = e.clone();
                    }
                    if let Some(limit) = queue_limit {
                        wire.set_limit(limit);
                        if shrink {
                            wire.shrink_queue(now, &mut out);
                        }
                    }
                    self.drain_device_output(now, (2 * link + d) as u32, out);
                }
                ("link_set", self.link_names[link].clone())
            }
            EventAction::FlowStart { flow } => {
                self.start_flow(now, flow);
                ("flow_start", self.flows[flow].spec.name.clone())
            }
            EventAction::FlowStop { flow } => {
                self.stop_flow(flow);
                ("flow_stop", self.flows[flow].spec.name.clone())
            }
            EventAction::FlowProduce {
                flow,
                packets,
                more,
            } => {
                self.produce_flow(now, flow, packets, more);
                ("flow_produce", self.flows[flow].spec.name.clone())
            }
            EventAction::Ping { flow, reverse } => {
                let side = if reverse {
                    super::AgentSide::Sink
                } else {
                    super::AgentSide::Source
                };
                self.ping_send(now, flow, side);
                ("ping", self.flows[flow].spec.name.clone())
            }
            EventAction::NodeReset { node } => {
                self.reset_node(now, NodeId(node as u32));
                ("node_reset", self.nodes[node].name.clone())
            }
        };
        if let Some(t) = self.traces.topology.as_mut() {
            t.push(now.as_secs_f64(), what, &target);
        }
    }

    /// Takes the chosen directions of `link` down or up, tells the routing protocols of
    /// both ends and recomputes static routes. A link carries routes only while both of its
    /// directions are up (TCP needs the way back). Under DV the ends hear of it once every
    /// direction changed, `b` first if `b_first`, and DV's routes replace the static ones.
    fn set_link_state(
        &mut self,
        now: SimTime,
        link: usize,
        directions: [bool; 2],
        up: bool,
        b_first: bool,
    ) {
        for d in (0..2).filter(|&d| directions[d]) {
            let device = 2 * link + d;
            let mut out = self.iface_out_pool.pop().unwrap_or_default();
            let wire = self.devices[device]
                .wired_mut()
                .expect("links are the first devices");
            if up {
                wire.set_up();
            } else {
                wire.set_down(&mut out);
            }
            let iface = IfaceId(device as u32);
            self.ifaces[iface.ix()].up = up;
            let node = self.ifaces[iface.ix()].node;
            self.nodes[node.ix()]
                .routing
                .on_interface_change(now, iface, up);
            self.drain_device_output(now, device as u32, out);
        }
        if self.dv.is_some() {
            self.dv_link_state(now, link, directions, up, b_first);
            return;
        }
        let both_up = (0..2).all(|d| self.ifaces[2 * link + d].up);
        // A Mobile IP radio link never carries routes.
        if !self.radio_links[link] && self.edges[link].up != both_up {
            self.edges[link].up = both_up;
            self.recompute_static_routes(now);
        } else if !self.reroute {
            // One direction changed: the routes through it are withdrawn or restored.
            self.recompute_static_routes(now);
        }
    }
}

impl World {
    /// ns-2 `$node reset`: the packets in the node's 802.11 interface queue are dropped as
    /// `END`, the trace's drop lines naming the node. Nothing else changes.
    pub(super) fn reset_node(&mut self, now: SimTime, node: NodeId) {
        if let Some(nic) = self.wifi_iface(node.ix()) {
            let (device, port) = (self.ifaces[nic.ix()].device, self.ifaces[nic.ix()].port);
            let mut out = self.iface_out_pool.pop().unwrap_or_default();
            if let Some(c) = self.capture.as_deref_mut() {
                c.submitter = Some(node);
            }
            self.devices[device as usize].flush_queue(now, port, &mut out);
            self.drain_device(now, device, out);
        }
    }
}
