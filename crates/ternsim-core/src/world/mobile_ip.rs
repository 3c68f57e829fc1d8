//! The world's side of Mobile IP (`crate::mobileip`): giving nodes their roles, asking a
//! node's role about each packet before routing, sending what the roles produce, their
//! timers, the radio links that follow coverage, and telling TCP agents of a care-of address
//! change.
//!
//! A radio link is a scenario link between an agent and a mobile node. It is kept out of the
//! routing graph (its edge stays down), its up/down state follows the mobile node's distance
//! to the agent (crossing times solved from the trajectory at build time and scheduled as
//! events), and routers route the mobile node's home address to its home agent's node (its
//! home network).
//!
//! Over 802.11 (`[wireless]` in the scenario) there are no radio links: each agent and mobile
//! node talks through its NIC on the shared channel, every radio port of a role is that NIC
//! (one per peer, always up), and the channel decides who hears an advertisement or a frame
//! (reception range, carrier sense, collisions). The channel's neighbour edges at a mobile
//! node are kept out of the routing graph, as a radio link is. With DSDV as the scenario's
//! routing (`MipConfig::through_dsdv`) the agents and mobile nodes run it in subnets, the
//! roles' last hop goes through it, and a mobile node's DSDV follows the base station its
//! role names (`crate::mobileip`, "The last hop through DSDV").

use super::{Event, FlowAgents, World};
use crate::mobileip::coverage::coverage_changes;
use crate::mobileip::{
    Correspondent, MipOutput, MipRole, MobileNode, MobilityAgent, RadioPort, Verdict, MIP_PORT,
};
use crate::net::addr::{IfaceId, NodeId};
use crate::net::packet::{Packet, Payload, Ports, IP_HEADER_BYTES};
use crate::routing::dsdv::Subnet;
use crate::routing::{Routed, RoutingProtocol};
use crate::scenario::validate::ResolvedMobileIp;
use crate::scenario::ResolvedScenario;
use crate::sim::{RandomStream, SimTime};

impl World {
    pub(super) fn build_mobile_ip(
        &mut self,
        sc: &ResolvedScenario,
        m: &ResolvedMobileIp,
        seed: u64,
    ) {
        let period = m.cfg.beacon_period.as_nanos();
        let phase = |name: &str, what: &str| {
            let mut rng = RandomStream::named(seed, &format!("mip/{name}/{what}"));
            SimTime(rng.below(period.max(1)))
        };
        for &a in &m.agents {
            let addr = self.nodes[a].primary();
            let homes = m
                .mobiles
                .iter()
                .filter(|mn| mn.home_agent == a)
                .map(|mn| self.nodes[mn.node].primary())
                .collect();
            // ns-2: the first advertisement at a random phase in [0, beacon period).
            let first = phase(&sc.nodes[a].name, "beacon");
            let agent = MobilityAgent::new(addr, m.cfg, homes, first);
            self.nodes[a].mip = Some(MipRole::Agent(Box::new(agent)));
        }
        for mn in &m.mobiles {
            let home = self.nodes[mn.node].primary();
            let ha = self.nodes[mn.home_agent].primary();
            // ns-2 `MIPMHAgent::command` (`beacon-period`): the first registration attempt
            // at U(0, beacon period); the agent list is scanned every period from 0.
            let first = phase(&sc.nodes[mn.node].name, "registration");
            let node = MobileNode::new(home, ha, mn.reverse_tunnel, m.cfg, first);
            self.nodes[mn.node].mip = Some(MipRole::Mobile(Box::new(node)));
            self.home_network[mn.node] = Some(NodeId(mn.home_agent as u32));
        }
        for &c in &m.correspondents {
            let addr = self.nodes[c].primary();
            self.nodes[c].mip = Some(MipRole::Correspondent(Correspondent::new(addr)));
        }
        for &(link, agent, mobile) in &m.radio_links {
            self.radio_links[link] = true;
            self.edges[link].up = false;
            // Wired link i: interface 2i at `a`, 2i+1 at `b`.
            let (agent_iface, mobile_iface) = if sc.links[link].a == agent {
                (IfaceId(2 * link as u32), IfaceId(2 * link as u32 + 1))
            } else {
                (IfaceId(2 * link as u32 + 1), IfaceId(2 * link as u32))
            };
            let (agent_addr, mobile_addr) =
                (self.nodes[agent].primary(), self.nodes[mobile].primary());
            let center = sc.nodes[agent]
                .position
                .expect("validated: agents have positions");
            let path = self.nodes[mobile].mobility.clone();
            let (initially, changes) = coverage_changes(&path, center, m.coverage_m, sc.duration);
            let port = |iface, peer| RadioPort {
                iface,
                peer,
                up: initially,
            };
            if let Some(MipRole::Agent(a)) = &mut self.nodes[agent].mip {
                a.radio.push(port(agent_iface, mobile_addr));
            }
            if let Some(MipRole::Mobile(n)) = &mut self.nodes[mobile].mip {
                n.radio.push(port(mobile_iface, agent_addr));
            }
            if !initially {
                self.set_radio_link(SimTime::ZERO, link, false);
            }
            for (at, up) in changes {
                let link = link as u32;
                self.sched.schedule(at, Event::Coverage { link, up });
            }
        }
        if m.over_wifi {
            self.attach_wifi_last_hop(m);
        }
        if m.cfg.through_dsdv {
            self.attach_dsdv_subnets(m);
        }
        for n in 0..self.nodes.len() {
            self.arm_mip(NodeId(n as u32));
        }
    }

    /// The 802.11 last hop: every agent and mobile node reaches the others through its one
    /// NIC, so each role gets one radio port per peer, all on that NIC and always up (who
    /// hears whom is the channel's business: reception range, collisions). The channel's
    /// neighbour edges that touch a mobile node are taken out of the routing graph, as a
    /// radio link is: routers reach the mobile node through its home network only.
    fn attach_wifi_last_hop(&mut self, m: &ResolvedMobileIp) {
        let nic = |w: &World, node: usize| {
            w.wifi_iface(node)
                .expect("validated: agents and mobile nodes have positions, hence NICs")
        };
        for &agent in &m.agents {
            for mn in &m.mobiles {
                let (agent_iface, mobile_iface) = (nic(self, agent), nic(self, mn.node));
                let (agent_addr, mobile_addr) =
                    (self.nodes[agent].primary(), self.nodes[mn.node].primary());
                if let Some(MipRole::Agent(a)) = &mut self.nodes[agent].mip {
                    a.radio.push(RadioPort {
                        iface: agent_iface,
                        peer: mobile_addr,
                        up: true,
                    });
                }
                if let Some(MipRole::Mobile(n)) = &mut self.nodes[mn.node].mip {
                    n.radio.push(RadioPort {
                        iface: mobile_iface,
                        peer: agent_addr,
                        up: true,
                    });
                }
            }
        }
        for k in 0..self.edges.len() {
            let e = &self.edges[k];
            let on_channel = matches!(
                self.devices[self.ifaces[e.a_iface.ix()].device as usize],
                super::Device::Wifi(_)
            );
            let at_mobile = m
                .mobiles
                .iter()
                .any(|mn| e.a.ix() == mn.node || e.b.ix() == mn.node);
            if on_channel && at_mobile {
                self.edges[k].up = false;
            }
        }
    }

    /// ns-2's wired-cum-wireless Mobile IP runs DSDV on the agents and the mobile nodes
    /// (`crate::routing::dsdv::subnet`): an agent is a base station whose subnet is itself and
    /// the mobile nodes it is the home agent of (ns-2: the hierarchical domain and cluster they
    /// share), and a mobile node belongs to its home agent's subnet, its base station being
    /// its home agent until an advertisement from another agent names that one
    /// (`MipOutput::base_station`).
    fn attach_dsdv_subnets(&mut self, m: &ResolvedMobileIp) {
        for &agent in &m.agents {
            let mut members = vec![self.nodes[agent].primary()];
            for mn in m.mobiles.iter().filter(|mn| mn.home_agent == agent) {
                members.push(self.nodes[mn.node].primary());
            }
            let own = |w: &World, node: usize, base_station| {
                w.wifi_iface(node).map(|wifi| Subnet {
                    wifi,
                    members: members.clone(),
                    base_station,
                    wired: Vec::new(),
                })
            };
            if let Some(s) = own(self, agent, None) {
                if let RoutingProtocol::Dsdv(d) = &mut self.nodes[agent].routing {
                    d.set_subnet(s);
                }
            }
            let ha = self.nodes[agent].primary();
            for mn in m.mobiles.iter().filter(|mn| mn.home_agent == agent) {
                if let Some(s) = own(self, mn.node, Some(ha)) {
                    if let RoutingProtocol::Dsdv(d) = &mut self.nodes[mn.node].routing {
                        d.set_subnet(s);
                    }
                }
            }
        }
    }

    /// Takes both directions of radio link `link` up or down and tells the Mobile IP roles at
    /// its ends. Routing is not told: the link is not in its graph.
    pub(super) fn set_radio_link(&mut self, now: SimTime, link: usize, up: bool) {
        for d in 0..2 {
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
            if let Some(role) = self.nodes[node.ix()].mip.as_mut() {
                role.on_radio_change(iface, up);
            }
            self.drain_device_output(now, device as u32, out);
        }
        if let Some(t) = self.traces.topology.as_mut() {
            let what = if up { "coverage_in" } else { "coverage_out" };
            t.push(now.as_secs_f64(), what, &self.link_names[link]);
        }
    }

    /// Asks `node`'s Mobile IP role (if any) about `packet`, originated there (`in_iface` =
    /// None) or received on `in_iface`; returns the packet when routing should decide.
    /// Inlined so that a node without a role (every node of most scenarios) passes the packet
    /// on without moving it through a call.
    #[inline(always)]
    pub(super) fn mip_filter(
        &mut self,
        now: SimTime,
        node: NodeId,
        in_iface: Option<IfaceId>,
        packet: Packet,
    ) -> Option<Packet> {
        if self.nodes[node.ix()].mip.is_none() {
            return Some(packet);
        }
        self.mip_filter_role(now, node, in_iface, packet)
    }

    fn mip_filter_role(
        &mut self,
        now: SimTime,
        node: NodeId,
        in_iface: Option<IfaceId>,
        packet: Packet,
    ) -> Option<Packet> {
        let mut packet = packet;
        if in_iface.is_some()
            && packet.routing_header().dst.is_broadcast()
            && crate::mobileip::mip_message(&packet).is_some()
            && matches!(self.nodes[node.ix()].routing, RoutingProtocol::Dsdv(_))
        {
            // ns-2 hands a received broadcast to the node's DSDV, which takes one off the TTL
            // of every packet it did not originate before passing a broadcast up to the
            // agents (`dsdv.cc` `DSDV_Agent::recv`): an advertisement reaches the mobile host
            // with TTL 31 (`r ... _4_ AGT --- 0 udp 68 ... [4194304:0 2147483647:0 31 0]`).
            let ttl = packet.routing_ttl_mut();
            *ttl = ttl.saturating_sub(1);
        }
        let Some(role) = self.nodes[node.ix()].mip.as_mut() else {
            return Some(packet);
        };
        let mut out = MipOutput::default();
        let verdict = match in_iface {
            None => role.on_output(now, packet, &mut out),
            Some(i) => role.on_input(now, i, packet, &mut out),
        };
        let pass = match verdict {
            Verdict::Pass(p) => Some(p),
            Verdict::Route(p) => {
                self.route_originated(now, node, p);
                None
            }
            Verdict::Send(p, iface, next_hop) => {
                self.transmit(now, iface, next_hop, p);
                None
            }
            Verdict::Consumed(p) => {
                if in_iface.is_some() {
                    self.tap_mip_receive(now, node, &p);
                }
                self.accounting.delivered += 1;
                self.accounting.delivered_by_kind[p.kind().index()] += 1;
                None
            }
            Verdict::Drop(p, why) => {
                self.drop_packet(now, Some(node), None, p, why);
                None
            }
            Verdict::ToRoutingAgent(p) => {
                // ns-2's DSDV takes a packet whose source is its own node (and that has
                // not been forwarded over the air) as one it originates: a foreign agent's
                // own advertisement, come back through the tunnel, gets DSDV's IP header.
                let own = self.nodes[node.ix()].addrs.contains(&p.ip.src);
                self.hand_to_dsdv(now, node, in_iface, p, own);
                None
            }
        };
        self.drain_mip(now, node, out);
        pass
    }

    /// Sends the messages a role produced and tells the node's TCP agents of care-of address
    /// changes.
    fn drain_mip(&mut self, now: SimTime, node: NodeId, out: MipOutput) {
        // The new base station first: ns-2's `MIPMHAgent::recv` calls `set_base_stn` before
        // `reg()`, so the registration request is routed towards the new agent.
        if let Some(bs) = out.base_station {
            if let RoutingProtocol::Dsdv(d) = &mut self.nodes[node.ix()].routing {
                d.set_base_station(bs);
            }
        }
        for _ in 0..out.care_of_changes {
            self.on_care_of_change(now, node);
        }
        for send in out.control {
            let packet = self.mip_packet(now, &send);
            match send.via {
                Some((iface, next_hop)) => {
                    self.tap_mip_send(now, node, &packet, send.carried.is_some(), false);
                    self.transmit(now, iface, next_hop, packet)
                }
                // ns-2's base station hands the relayed reply to its DSDV agent itself
                // (`MIPBSAgent::recv`, `obj->recv`), past the agent's send trace: no
                // `s AGT` line.
                None if send.to_routing_agent => self.hand_to_dsdv(now, node, None, packet, true),
                None => {
                    // As `originate`, with the agent's `s AGT` line (and the routing
                    // agent's `r RTR`) written here.
                    self.tap_mip_send(now, node, &packet, send.carried.is_some(), true);
                    if let Some(p) = self.mip_filter(now, node, None, packet) {
                        self.route_originated(now, node, p);
                    }
                }
            }
        }
        self.arm_mip(node);
    }

    /// The packet a Mobile IP message goes in: a new one at the message's size (ns-2's for
    /// the messages it has, `ControlMessage::body_bytes`), or the received packet it is sent
    /// in (`MipSend::carried`: ns-2 turns a request round and relays it and its reply in
    /// the packet that arrived), which keeps its uids, its size (with the IP headers the
    /// DSDV agents that originated it counted) and its TTL.
    fn mip_packet(&mut self, now: SimTime, send: &crate::mobileip::MipSend) -> Packet {
        let size = match send.carried {
            Some(c) => c.size,
            None => IP_HEADER_BYTES + send.msg.body_bytes(),
        };
        let mut packet = self.make_packet(
            now,
            None,
            (send.src, send.dst),
            Ports {
                src: MIP_PORT,
                dst: MIP_PORT,
            },
            size,
            Payload::Control(send.msg.clone()),
            send.carried.map(|c| c.ns2_uid),
        );
        if let Some(c) = send.carried {
            // The world's id too: the received packet has ended here, and its trace keeps
            // the MAC header of the frame that brought it (ns-2 prints it on the lines of
            // the packet it sends on).
            packet.uid = c.uid;
            packet.ip.ttl = c.ttl;
        }
        packet
    }

    /// Hands `packet` straight to `node`'s DSDV agent, past the node's classifier (ns-2's
    /// base station giving a registration reply or a decapsulated packet to `ragent_`);
    /// `originated` when the node is its source. A node without DSDV routes it as usual.
    fn hand_to_dsdv(
        &mut self,
        now: SimTime,
        node: NodeId,
        in_iface: Option<IfaceId>,
        packet: Packet,
        originated: bool,
    ) {
        let (routing, ctx) = self.nodes[node.ix()].routing_ctx(node);
        let routed = match routing {
            RoutingProtocol::Dsdv(d) => d.route_direct(now, &ctx, packet, originated),
            _ if originated => {
                self.route_originated(now, node, packet);
                return;
            }
            _ => match in_iface {
                Some(i) => routing.route_input(now, &ctx, i, packet),
                None => routing.route_output(now, &ctx, packet),
            },
        };
        // ns-2's DSDV sends a packet it takes as its own with `IP_DEF_TTL` and without taking
        // one off (`DSDV_Agent::recv`), whatever brought it to the node: a foreign agent's
        // answer to a solicitation, back through the home agent's tunnel, reaches the host with
        // TTL 32, as one it sends straight. Only a wired first hop would cost one (TTLChecker).
        let from = match routed {
            Routed::Forward { .. } if originated => None,
            _ => in_iface,
        };
        self.apply(now, node, from, routed);
        self.arm_routing(node);
    }

    /// Demo-Vegas's signals (`ho-mobileip` seed §IV-B): a sink on the node flips its SIG bit,
    /// a sender on the node re-measures BaseRTT.
    fn on_care_of_change(&mut self, now: SimTime, node: NodeId) {
        for f in &mut self.flows {
            let FlowAgents::Tcp(t) = &mut f.agents else {
                continue;
            };
            if f.dst == node {
                t.sink.on_care_of_change();
            }
            if f.src == node {
                t.sender.on_care_of_change();
            }
        }
        if let Some(tb) = self.traces.topology.as_mut() {
            tb.push(
                now.as_secs_f64(),
                "care_of_change",
                &self.nodes[node.ix()].name,
            );
        }
    }

    fn arm_mip(&mut self, node: NodeId) {
        let n = &mut self.nodes[node.ix()];
        let Some(role) = &n.mip else {
            return;
        };
        let deadline = role.next_timer();
        n.mip_wake
            .request(&mut self.sched, deadline, Event::MipTimer(node.0));
    }

    pub(super) fn on_mip_timer(&mut self, now: SimTime, node: NodeId) {
        let n = &mut self.nodes[node.ix()];
        n.mip_wake.fired(now);
        let Some(role) = n.mip.as_mut() else {
            return;
        };
        if role.next_timer().is_some_and(|t| t <= now) {
            let mut out = MipOutput::default();
            role.on_timer(now, &mut out);
            self.drain_mip(now, node, out);
        } else {
            self.arm_mip(node);
        }
    }
}
