//! A mobility agent (ns-2 `Agent/MIPBS`, `mobile/mip.cc`, `mip-reg.cc`): home agent of the
//! mobile nodes whose home it is, foreign agent for the others.
//!
//! Home agent (RFC 3344 §3.8): accepts registrations for its mobile nodes and keeps a
//! binding (home address → care-of address, valid for the granted lifetime; a registration
//! with care-of address = home address or lifetime 0 removes it); intercepts packets for a
//! bound home address and tunnels them IP in IP (RFC 2003, a 20-byte outer header) to the
//! care-of address; delivers packets for a mobile node at home on its radio link;
//! decapsulates reverse-tunnelled packets (RFC 3024 §5.2) and forwards the inner packet.
//! With route optimization (draft-ietf-mobileip-optim §5) it remembers each correspondent
//! whose packets it tunnelled and sends it a Binding Update: at once, and again with every
//! registration it accepts (a new care-of address, a refresh, or lifetime 0 on the return
//! home), and in answer to a Binding Warning.
//!
//! Foreign agent (RFC 3344 §3.7): relays a visitor's registration request to its home agent
//! and keeps a pending entry; the accepted reply installs the visitor entry (valid for the
//! granted lifetime) and is relayed to the visitor on its radio link. A packet tunnelled to
//! the agent is decapsulated and handed to the visitor; for a destination that is not a
//! visitor it is dropped (`mip_no_visitor`) and, with route optimization, a Binding Warning
//! naming the tunnel's source goes to the mobile node's home agent (learned from its last
//! registration here). Packets from a visitor that registered with the T flag are tunnelled
//! to its home agent (reverse tunnelling, RFC 3024 §5.1); others are routed normally
//! (triangular routing).
//!
//! Advertisements go out every beacon period on every radio link that is up (the first at a
//! random phase in [0, period), ns-2), and at once on the link a solicitation came from.
//! Over 802.11 all radio ports are the one NIC, so one broadcast per period goes out on it.

use super::{mip_message, Carried, MipConfig, MipOutput, MipSend, RadioPort, Verdict};
use crate::net::addr::{Addr, IfaceId};
use crate::net::control::ControlMessage;
use crate::net::packet::{DropReason, IpHeader, Packet};
use crate::sim::SimTime;

/// TTL of the outer header of a tunnel (ns-2 encapsulator: 32).
pub const TUNNEL_TTL: u8 = 32;

/// Puts `outer` on a packet this agent forwards into a tunnel (the home agent towards the
/// care-of address, the foreign agent back to the home agent): the inner header first loses
/// one unit of TTL, as in ns-2's `MIPEncapsulator::recv` (and RFC 2003 §3.1 for a tunnel
/// entry that forwards); false, and nothing put on, when none is left (the caller drops it).
/// The decapsulator restores the inner header as it is, so a segment tunnelled to a foreign
/// agent reaches the host one unit lower than one the home agent delivers itself.
fn encapsulate_forwarded(packet: &mut Packet, outer: IpHeader) -> bool {
    let ttl = packet.routing_ttl_mut();
    *ttl = ttl.saturating_sub(1);
    if *ttl == 0 {
        return false;
    }
    packet.encapsulate(outer);
    true
}

/// The port both ends of a tunnel's outer header name (ns-2: the encapsulator's `port_` and
/// the decapsulator's, `Node/MobileNode set DECAP_PORT 1`, `ns-mobilenode.tcl` `attach-encap`
/// and `attach-decap`). Only an ns-2 trace line prints it.
pub const TUNNEL_PORT: u16 = 1;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Binding {
    pub home: Addr,
    pub care_of: Addr,
    pub expires: SimTime,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Visitor {
    pub home: Addr,
    pub home_agent: Addr,
    pub iface: IfaceId,
    pub reverse_tunnel: bool,
    pub expires: SimTime,
}

/// Counters for the run summary.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AgentStats {
    pub advertisements: u64,
    /// Registrations accepted as home agent.
    pub registrations: u64,
    /// Packets encapsulated (home agent → care-of address, or reverse tunnel → home agent).
    pub tunnelled: u64,
    pub decapsulated: u64,
    pub binding_updates: u64,
    pub binding_warnings: u64,
}

#[derive(Clone, Debug)]
pub struct MobilityAgent {
    pub addr: Addr,
    cfg: MipConfig,
    /// Radio links, one per mobile node.
    pub radio: Vec<RadioPort>,
    /// Home addresses this agent is the home agent of.
    homes: Vec<Addr>,
    bindings: Vec<Binding>,
    visitors: Vec<Visitor>,
    /// Registrations relayed to a home agent, awaiting the reply.
    pending: Vec<Visitor>,
    /// Correspondents told (or to be told) of a mobile node's binding: (home, correspondent).
    correspondents: Vec<(Addr, Addr)>,
    next_beacon: SimTime,
    seq: u16,
    pub stats: AgentStats,
}

impl MobilityAgent {
    /// An agent at `addr` whose first advertisement goes out at `first_beacon`.
    pub fn new(addr: Addr, cfg: MipConfig, homes: Vec<Addr>, first_beacon: SimTime) -> Self {
        MobilityAgent {
            addr,
            cfg,
            radio: Vec::new(),
            homes,
            bindings: Vec::new(),
            visitors: Vec::new(),
            pending: Vec::new(),
            correspondents: Vec::new(),
            next_beacon: first_beacon,
            seq: 0,
            stats: AgentStats::default(),
        }
    }

    /// The binding of `home` valid at `now`.
    pub fn binding(&self, home: Addr, now: SimTime) -> Option<Binding> {
        self.bindings
            .iter()
            .find(|b| b.home == home && b.expires > now)
            .copied()
    }

    /// The visitor entry of `home` valid at `now`.
    pub fn visitor(&self, home: Addr, now: SimTime) -> Option<Visitor> {
        self.visitors
            .iter()
            .find(|v| v.home == home && v.expires > now)
            .copied()
    }

    pub fn next_timer(&self) -> Option<SimTime> {
        Some(self.next_beacon)
    }

    pub fn on_timer(&mut self, now: SimTime, out: &mut MipOutput) {
        if now >= self.next_beacon {
            for iface in up_ifaces(&self.radio) {
                self.advertise(iface, None, out);
            }
            self.next_beacon = now + self.cfg.beacon_period;
        }
    }

    /// An advertisement: broadcast on `iface`, or with `to` a unicast answer to a
    /// solicitation from `to`. Through DSDV both are sent as packets the node originates
    /// (ns-2 `MIPBSAgent::send_ads`: `get-link` is empty for a mobile node, so the packet
    /// goes to the agent's target, the node's entry): the broadcast through DSDV's jittered
    /// broadcast, the unicast by the node's routes (to a visitor's home network, as ns-2's
    /// hierarchical classifier sends it).
    fn advertise(&mut self, iface: IfaceId, to: Option<Addr>, out: &mut MipOutput) {
        self.seq = self.seq.wrapping_add(1);
        self.stats.advertisements += 1;
        out.control.push(MipSend {
            msg: ControlMessage::MipAdvertisement {
                agent: self.addr,
                seq: self.seq,
                lifetime: self.cfg.advertisement_lifetime,
                home_agent: !self.homes.is_empty(),
                foreign_agent: true,
            },
            src: self.addr,
            dst: to.unwrap_or(Addr::BROADCAST),
            via: match (self.cfg.through_dsdv, to) {
                (true, _) => None,
                (false, to) => Some((iface, to.unwrap_or(Addr::BROADCAST))),
            },
            to_routing_agent: false,
            carried: None,
        });
    }

    fn port_to(&self, peer: Addr) -> Option<RadioPort> {
        self.radio.iter().find(|p| p.peer == peer).copied()
    }

    fn is_radio(&self, iface: Option<IfaceId>) -> bool {
        iface.is_some_and(|i| self.radio.iter().any(|p| p.iface == i))
    }

    /// A packet this node originates (`in_iface` = None) or received on `in_iface`.
    pub fn on_packet(
        &mut self,
        now: SimTime,
        in_iface: Option<IfaceId>,
        mut packet: Packet,
        out: &mut MipOutput,
    ) -> Verdict {
        let dst = packet.routing_header().dst;
        // A message inside a tunnel (a foreign agent's answer to a solicitation, sent to the
        // mobile node's home address and tunnelled back by its home agent) is decapsulated
        // below, not taken as one for this agent.
        if let Some(msg) = mip_message(&packet).filter(|_| !packet.is_tunnelled()) {
            // A broadcast the agent itself sends (through DSDV its advertisements are
            // routed as packets it originates) is not one it receives.
            if dst == self.addr || (dst.is_broadcast() && in_iface.is_some()) {
                let msg = msg.clone();
                self.on_message(now, in_iface, &packet, msg, out);
                return Verdict::Consumed(packet);
            }
        }
        // Tunnel exit: a packet tunnelled to this agent (as care-of address, or reverse
        // tunnelled to it as home agent).
        if dst == self.addr && packet.is_tunnelled() {
            let outer = packet.decapsulate().expect("tunnelled");
            self.stats.decapsulated += 1;
            let inner = packet.routing_header().dst;
            if let Some(v) = self.visitor(inner, now) {
                if self.cfg.through_dsdv {
                    // ns-2: the decapsulator's default target is the DSDV agent, which
                    // needs a route to the visitor (`ns-mip.tcl` `decap-route`).
                    return Verdict::ToRoutingAgent(packet);
                }
                return Verdict::Send(packet, v.iface, inner);
            }
            if self.homes.contains(&inner) {
                // Tunnelled to the home agent for its own mobile node (a correspondent's stale
                // binding pointing home): treat it as a packet for the home address.
                return self.for_home_address(now, packet, out);
            }
            if self.is_known_mobile(inner) {
                if self.cfg.through_dsdv {
                    // ns-2: a base station's decapsulator hands every packet to DSDV (its
                    // default target, `ns-mip.tcl` `decap-route`): no visitor entry expires
                    // there, DSDV's route to the mobile node decides.
                    return Verdict::ToRoutingAgent(packet);
                }
                return self.no_visitor(now, outer, packet, out);
            }
            // A reverse-tunnelled packet: forward the inner packet to its destination.
            return Verdict::Route(packet);
        }
        if self.homes.contains(&dst) {
            return self.for_home_address(now, packet, out);
        }
        // From a visitor on its radio link: reverse tunnel if it asked for one. Not a
        // broadcast (a DSDV update from a visitor that runs DSDV): it is for the link, and a
        // foreign agent reverse-tunnels only what the visitor sends beyond it (RFC 3024 §5.1).
        if self.is_radio(in_iface) && !dst.is_broadcast() {
            let src = packet.routing_header().src;
            if let Some(v) = self.visitor(src, now) {
                if v.reverse_tunnel {
                    let outer = IpHeader {
                        src: self.addr,
                        dst: v.home_agent,
                        ttl: TUNNEL_TTL,
                    };
                    if !encapsulate_forwarded(&mut packet, outer) {
                        return Verdict::Drop(packet, DropReason::TtlExpired);
                    }
                    self.stats.tunnelled += 1;
                    return Verdict::Route(packet);
                }
            }
        }
        Verdict::Pass(packet)
    }

    /// Whether `home` is a mobile node this agent has heard of (its own, a visitor now or
    /// before, or a pending registration).
    fn is_known_mobile(&self, home: Addr) -> bool {
        self.homes.contains(&home)
            || self.visitors.iter().any(|v| v.home == home)
            || self.pending.iter().any(|v| v.home == home)
    }

    /// A packet for one of this home agent's mobile nodes.
    fn for_home_address(
        &mut self,
        now: SimTime,
        mut packet: Packet,
        out: &mut MipOutput,
    ) -> Verdict {
        let home = packet.routing_header().dst;
        if let Some(b) = self.binding(home, now) {
            let correspondent = packet.ip.src;
            let outer = IpHeader {
                src: self.addr,
                dst: b.care_of,
                ttl: TUNNEL_TTL,
            };
            if !encapsulate_forwarded(&mut packet, outer) {
                return Verdict::Drop(packet, DropReason::TtlExpired);
            }
            self.stats.tunnelled += 1;
            if self.cfg.route_optimization
                && correspondent != self.addr
                && !self.correspondents.contains(&(home, correspondent))
            {
                self.correspondents.push((home, correspondent));
                self.binding_update(now, home, correspondent, out);
            }
            return Verdict::Route(packet);
        }
        if self.cfg.through_dsdv {
            // ns-2: the mobile node at home is in the base station's subnet, routed by its
            // DSDV (queued until it has a route, `dsdv.cc` `forwardPacket`).
            return Verdict::Pass(packet);
        }
        match self.port_to(home) {
            Some(p) => Verdict::Send(packet, p.iface, home),
            None => Verdict::Drop(packet, DropReason::NoRoute),
        }
    }

    /// A tunnelled packet for a mobile node that is no longer a visitor here.
    fn no_visitor(
        &mut self,
        now: SimTime,
        outer: IpHeader,
        packet: Packet,
        out: &mut MipOutput,
    ) -> Verdict {
        let home = packet.routing_header().dst;
        let home_agent = self
            .visitors
            .iter()
            .chain(self.pending.iter())
            .find(|v| v.home == home)
            .map(|v| v.home_agent);
        if self.cfg.route_optimization {
            if let Some(ha) = home_agent.filter(|&ha| ha != outer.src) {
                self.stats.binding_warnings += 1;
                out.control.push(MipSend {
                    msg: ControlMessage::MipBindingWarning {
                        home,
                        target: outer.src,
                    },
                    src: self.addr,
                    dst: ha,
                    via: None,
                    to_routing_agent: false,
                    carried: None,
                });
            }
        }
        let _ = now;
        Verdict::Drop(packet, DropReason::MipNoVisitor)
    }

    fn binding_update(&mut self, now: SimTime, home: Addr, to: Addr, out: &mut MipOutput) {
        let (care_of, lifetime) = match self.binding(home, now) {
            Some(b) => (b.care_of, b.expires - now),
            None => (home, SimTime::ZERO),
        };
        self.stats.binding_updates += 1;
        out.control.push(MipSend {
            msg: ControlMessage::MipBindingUpdate {
                home,
                care_of,
                lifetime,
            },
            src: self.addr,
            dst: to,
            via: None,
            to_routing_agent: false,
            carried: None,
        });
    }

    fn on_message(
        &mut self,
        now: SimTime,
        in_iface: Option<IfaceId>,
        packet: &Packet,
        msg: ControlMessage,
        out: &mut MipOutput,
    ) {
        match msg {
            ControlMessage::MipSolicitation => {
                // Answered at once on the link it came from (ns-2 `MIPBSAgent::recv`).
                if let Some(iface) = in_iface.filter(|&i| self.is_radio(Some(i))) {
                    // Through DSDV ns-2 answers the solicitation's sender by unicast
                    // (`send_ads(miph->haddr_, ...)`); otherwise on the link it came from.
                    let to = self.cfg.through_dsdv.then_some(packet.ip.src);
                    self.advertise(iface, to, out);
                }
            }
            ControlMessage::MipRegRequest {
                home,
                home_agent,
                care_of,
                lifetime,
                id,
                reverse_tunnel,
            } => {
                if home_agent == self.addr {
                    let carried = Carried::of(packet);
                    self.accept_registration(now, (home, care_of, lifetime, id), carried, out);
                } else if let Some(iface) = in_iface.filter(|&i| self.is_radio(Some(i))) {
                    // Foreign agent: remember the visitor and relay to its home agent.
                    self.pending.retain(|v| v.home != home);
                    self.pending.push(Visitor {
                        home,
                        home_agent,
                        iface,
                        reverse_tunnel,
                        expires: SimTime::MAX,
                    });
                    // ns-2 `MIPBSAgent::recv` re-addresses the request it received and
                    // sends it on: same uid, its size as it arrived.
                    out.control.push(MipSend {
                        msg: packet_msg(packet),
                        src: self.addr,
                        dst: home_agent,
                        via: None,
                        to_routing_agent: false,
                        carried: Some(Carried::of(packet)),
                    });
                }
            }
            ControlMessage::MipRegReply {
                home,
                lifetime,
                code,
                ..
            } => {
                // Foreign agent: the home agent's answer to a relayed request.
                let Some(k) = self.pending.iter().position(|v| v.home == home) else {
                    return;
                };
                let mut v = self.pending.remove(k);
                if code == 0 {
                    v.expires = now + lifetime;
                    self.visitors.retain(|o| o.home != home);
                    self.visitors.push(v);
                }
                // Through DSDV ns-2 hands the reply to the DSDV agent, which needs a route
                // to the visitor (`MIPBSAgent::recv`, `obj = ragent_`).
                let dsdv = self.cfg.through_dsdv;
                out.control.push(MipSend {
                    msg: packet_msg(packet),
                    src: self.addr,
                    dst: home,
                    via: (!dsdv).then_some((v.iface, home)),
                    to_routing_agent: dsdv,
                    carried: Some(Carried::of(packet)),
                });
            }
            ControlMessage::MipBindingWarning { home, target }
                if self.cfg.route_optimization && self.homes.contains(&home) =>
            {
                if !self.correspondents.contains(&(home, target)) {
                    self.correspondents.push((home, target));
                }
                self.binding_update(now, home, target, out);
            }
            _ => {}
        }
    }

    /// Home agent: a registration request from (or relayed for) `home`.
    /// The reply is the request's packet turned round (ns-2 `MIPBSAgent::recv`: type set to
    /// `MIPT_REG_REPLY`, addresses swapped, sent on): `carried`.
    fn accept_registration(
        &mut self,
        now: SimTime,
        (home, care_of, lifetime, id): (Addr, Addr, SimTime, u64),
        carried: Carried,
        out: &mut MipOutput,
    ) {
        if !self.homes.contains(&home) {
            return;
        }
        self.stats.registrations += 1;
        self.bindings.retain(|b| b.home != home);
        // Home: care-of address = home address or lifetime 0 (RFC 3344), or the home
        // agent's own address (ns-2 `MIPBSAgent::recv`: `ha_ == coa_`, `clear-reg`).
        let at_home = care_of == home || care_of == self.addr || lifetime == SimTime::ZERO;
        let granted = if at_home {
            SimTime::ZERO
        } else {
            let granted = lifetime.min(self.cfg.advertisement_lifetime);
            self.bindings.push(Binding {
                home,
                care_of,
                expires: now + granted,
            });
            granted
        };
        let reply = ControlMessage::MipRegReply {
            home,
            home_agent: self.addr,
            care_of,
            lifetime: granted,
            id,
            code: 0,
        };
        if at_home && self.cfg.through_dsdv {
            // ns-2: the reply goes to the agent's target, the node's entry, and the node's
            // DSDV routes it within its subnet.
            out.control.push(MipSend {
                msg: reply,
                src: self.addr,
                dst: home,
                via: None,
                to_routing_agent: false,
                carried: Some(carried),
            });
        } else if at_home {
            if let Some(p) = self.port_to(home) {
                out.control.push(MipSend {
                    msg: reply,
                    src: self.addr,
                    dst: home,
                    via: Some((p.iface, home)),
                    to_routing_agent: false,
                    carried: Some(carried),
                });
            }
        } else {
            out.control.push(MipSend {
                msg: reply,
                src: self.addr,
                dst: care_of,
                via: None,
                to_routing_agent: false,
                carried: Some(carried),
            });
        }
        if self.cfg.route_optimization {
            let told: Vec<Addr> = self
                .correspondents
                .iter()
                .filter(|(h, _)| *h == home)
                .map(|(_, c)| *c)
                .collect();
            for c in told {
                self.binding_update(now, home, c, out);
            }
        }
    }
}

/// The distinct interfaces of the ports that are up, in port order: over 802.11 every port
/// is the same NIC, and one broadcast on it reaches every peer in range.
pub(super) fn up_ifaces(ports: &[RadioPort]) -> Vec<IfaceId> {
    let mut ifaces: Vec<IfaceId> = Vec::new();
    for p in ports.iter().filter(|p| p.up) {
        if !ifaces.contains(&p.iface) {
            ifaces.push(p.iface);
        }
    }
    ifaces
}

fn packet_msg(packet: &Packet) -> ControlMessage {
    mip_message(packet).expect("a Mobile IP message").clone()
}
