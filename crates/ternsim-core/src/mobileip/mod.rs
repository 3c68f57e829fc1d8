//! Mobile IP (RFC 3344 / RFC 5944) as ns-2 models it (link-spec §7), with reverse tunnelling
//! (RFC 3024) and route optimization (Perkins and Johnson, "Route Optimization in Mobile IP",
//! draft-ietf-mobileip-optim).
//!
//! **The seam.** As in ns-3, where Mobile IP is not a routing protocol but a layer of the
//! node's IP stack that sees packets before and after the routing decision, each node may
//! carry one Mobile IP role ([`MipRole`]) that the world asks about every packet the node
//! originates ([`MipRole::on_output`]) or receives ([`MipRole::on_input`]) *before* its
//! routing protocol. The role answers with a [`Verdict`]: pass the packet on to routing
//! unchanged; route a packet it changed (encapsulated or decapsulated: routing then sees the
//! outermost header); send it on one of its radio interfaces to a next hop; consume it (a
//! Mobile IP message); or drop it with a reason. Routing stays unaware of mobility (static
//! shortest paths in the paper's topology), exactly as Mobile IP needs no routing changes in
//! the Internet: routers route the home address to the home network, and the agents do the
//! rest. The roles are sans-IO state machines: they are handed `now` and a packet, produce
//! control messages to send in a [`MipOutput`], report their next timer, and never see the
//! world.
//!
//! **Roles.**
//! - [`agent::MobilityAgent`] (ns-2 `Agent/MIPBS`): a base station that is the home agent of
//!   the mobile nodes whose home it is and a foreign agent for visitors. It advertises on its
//!   radio interfaces every beacon period, answers solicitations, relays registrations,
//!   keeps bindings (home agent) and visitor entries (foreign agent), tunnels to care-of
//!   addresses (IP in IP, 20 bytes), decapsulates, reverse-tunnels, and sends binding
//!   updates and warnings when route optimization is on.
//! - [`mobile::MobileNode`] (ns-2 `Agent/MIPMH`): hears advertisements, switches eagerly,
//!   registers with lifetime and retransmission, solicits when it has lost every agent, and
//!   sends everything through its current agent. It reports each change of its care-of
//!   address (the world tells the node's TCP agents: Demo-Vegas's signal).
//! - [`correspondent::Correspondent`]: a correspondent that supports route optimization keeps
//!   a binding cache fed by binding updates and tunnels directly to the care-of address.
//!
//! **Care-of addresses** are foreign-agent care-of addresses (ns-2's model): the care-of
//! address is the foreign agent's own address, so the foreign agent decapsulates and hands
//! the inner packet to the visitor on its radio link. A mobile node at home has no care-of
//! address ("cancelled", in the seed paper's words).
//!
//! **The last hop and coverage.** Each agent has a radio link to each mobile node (a
//! point-to-point link whose every frame takes one fixed air time: the seed's "multiple of
//! 8 ms"); the link is up exactly while the mobile node is within the agent's coverage
//! radius ([`coverage`] computes the crossing times from the node's trajectory), and it is
//! not part of the routing graph. An advertisement is heard only over an up link; a packet
//! on a link that goes down is lost (`link_down`); a packet tunnelled to a foreign agent that
//! no longer has the visitor is lost as `mip_no_visitor`.
//!
//! **The last hop over 802.11** (a scenario with `[wireless]`, issue 9 item 5). The agents
//! and the mobile node have positions, hence NICs on the one shared channel
//! ([`crate::wifi`]); the wired nodes have none. Each role's radio ports are then all its
//! NIC (one port per peer, always up), so nothing in the roles changes: an advertisement is a
//! broadcast DATA frame on the channel, heard by whoever is within the reception range
//! (`wireless.rx_range`, the coverage radius); a mobile node walking out of range stops
//! hearing its agent and forgets it after one beacon period, and one walking into another
//! agent's range switches on the first advertisement it decodes. Unicast to and from the
//! mobile node is one hop (agent and mobile node are channel neighbours; ARP resolves the
//! peer), with DCF timing, MAC retransmission and loss. A frame to a mobile node that has left
//! range fails after the retry limit and is dropped by routing as `link_failure` (the
//! fixed-link model's `link_down`). The air time is that of the packet's size, so a tunnel
//! header counts wherever one is on the air; with foreign-agent care-of addresses the foreign
//! agent decapsulates before the last hop, so none is (the 20 bytes count on the wired links).
//!
//! **The last hop through DSDV** (`[routing] protocol = "dsdv"` with `[wireless]`,
//! [`MipConfig::through_dsdv`]; what `ternsim ns2` gives ns-2's wired-cum-wireless Mobile IP
//! scripts). In ns-2 the agents and the mobile hosts are mobile nodes running DSDV, and
//! their Mobile IP agents send through the node, not on an interface (`mip-reg.cc`: `get-link`
//! is empty for a mobile node; `ns-mobilenode.tcl`: an agent's target is the node's entry,
//! whose default target is DSDV). So here each agent is a DSDV base station whose subnet is
//! itself and its home mobile nodes, each mobile node a member of its home agent's subnet
//! (`crate::routing::dsdv::subnet`), and:
//! - everything a mobile node originates (registration requests, solicitations, TCP ACKs)
//!   is routed by its DSDV, which adds ns-2's 20-byte IP header and sends a packet for
//!   another subnet only on a route to the destination or to its base station, else drops it
//!   ("Route to base_stn not known: dropping pkt", `dsdv.cc` `forwardPacket`); the base
//!   station is the agent of the last advertisement from an agent not in its list
//!   (`MIPMHAgent::recv` → `set_base_stn`, [`MipOutput::base_station`]). A registration with
//!   a new foreign agent therefore leaves only once the host has heard the agent's DSDV
//!   update, up to a DSDV period (15 s) after its first advertisement;
//! - the agents' advertisements and solicitations are broadcasts the node originates (DSDV
//!   sends them after U(0, 10 ms), `sendOutBCastPkt`, with the 20-byte header); the unicast
//!   answer to a solicitation is routed as the node routes it (towards the host's home
//!   network, over the wire);
//! - a foreign agent hands the registration reply and the decapsulated packets for a visitor
//!   straight to its DSDV (`MIPBSAgent::recv`'s `ragent_`; the decapsulator's default target,
//!   `ns-mip.tcl` `decap-route`: [`MipSend::to_routing_agent`], [`Verdict::ToRoutingAgent`]),
//!   which sends them only on a route to the visitor: without one ns-2's base station sends
//!   them to its own `base_stn`, itself, and they are lost untraced. A packet tunnelled to
//!   the foreign agent for a mobile node whose visitor entry has lapsed goes to DSDV too
//!   (ns-2's base station keeps no visitor entry), not dropped as `mip_no_visitor`;
//! - a home agent without a binding leaves a packet for its mobile node to its DSDV (queued
//!   until a route is known).

pub mod agent;
pub mod correspondent;
pub mod coverage;
pub mod mobile;
#[cfg(test)]
mod tests;

use crate::net::addr::{Addr, IfaceId};
use crate::net::control::ControlMessage;
use crate::net::packet::{DropReason, Packet};
use crate::sim::SimTime;

pub use agent::{AgentStats, MobilityAgent};
pub use correspondent::Correspondent;
pub use mobile::{MobileNode, MobileStats};

/// The timing constants of the ns-2 model (link-spec §7.2, `ns-default.tcl`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MipConfig {
    /// Agent advertisement period (`beacon-period`, 1 s); the MN also scans its list of
    /// heard agents with this period and forgets an agent one period after its last
    /// advertisement.
    pub beacon_period: SimTime,
    /// ICMP lifetime of an advertisement (`ad_lifetime_`, 2 s); also the registration
    /// lifetime the agent grants.
    pub advertisement_lifetime: SimTime,
    /// Registration lifetime the MN asks for (`reg_lifetime_`, 2 s): the request carries
    /// min(this, advertised lifetime).
    pub registration_lifetime: SimTime,
    /// Retransmission interval of an unanswered registration request (`reg_rtx_`, 0.5 s).
    pub registration_retransmit: SimTime,
    /// Home agents send binding updates to correspondents, foreign agents binding warnings.
    pub route_optimization: bool,
    /// The last hop goes through the nodes' DSDV, as in ns-2's wired-cum-wireless Mobile IP
    /// (module doc, "The last hop through DSDV"): set for a scenario over 802.11 whose
    /// `[routing]` is DSDV.
    pub through_dsdv: bool,
}

impl Default for MipConfig {
    fn default() -> Self {
        MipConfig {
            beacon_period: SimTime::from_secs_f64(1.0),
            advertisement_lifetime: SimTime::from_secs_f64(2.0),
            registration_lifetime: SimTime::from_secs_f64(2.0),
            registration_retransmit: SimTime::from_secs_f64(0.5),
            route_optimization: false,
            through_dsdv: false,
        }
    }
}

/// One of a node's radio links: its interface and the address at the other end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RadioPort {
    pub iface: IfaceId,
    /// The peer's address: the mobile node's home address (at an agent), the agent's address
    /// (at a mobile node).
    pub peer: Addr,
    /// Whether the link is up (the mobile node is within the agent's coverage).
    pub up: bool,
}

/// What a Mobile IP role decided about one packet.
#[derive(Debug)]
pub enum Verdict {
    /// Not a Mobile IP matter: routing decides, on the unchanged packet.
    Pass(Packet),
    /// The role changed the packet (encapsulated or decapsulated it): route it as a packet
    /// this node originates.
    Route(Packet),
    /// Send it on a radio interface to this next hop.
    Send(Packet, IfaceId, Addr),
    /// A Mobile IP message that ends here.
    Consumed(Packet),
    Drop(Packet, DropReason),
    /// Hand it straight to the node's DSDV agent, past the node's classifier (ns-2: the
    /// decapsulator's default target at a base station is `ragent_`, `ns-mip.tcl`
    /// `decap-route`); not a packet this node originates.
    ToRoutingAgent(Packet),
}

/// The port the Mobile IP messages go from and to (RFC 3344 §3.1: registration is UDP port
/// 434; ns-2 binds its registration agents to port 0, `REGAGENT_PORT`, which the ns-2 front
/// end prints for this one). Not a port any of the world's agents is bound to: the roles
/// take the messages before routing, and a trace tells them from a flow's datagrams by it.
pub const MIP_PORT: u16 = 434;

/// A Mobile IP message to send: from `src` to `dst`, on `via` (interface and next hop) or,
/// when `None`, routed like any packet the node originates.
#[derive(Clone, Debug, PartialEq)]
pub struct MipSend {
    pub msg: ControlMessage,
    pub src: Addr,
    pub dst: Addr,
    pub via: Option<(IfaceId, Addr)>,
    /// With `via` = None: handed straight to the node's DSDV agent as a packet it
    /// originates, past the node's classifier (ns-2 `MIPBSAgent::recv` gives a relayed
    /// registration reply to `ragent_`), instead of routed by the node.
    pub to_routing_agent: bool,
    /// The received packet this message is sent in, when ns-2 turns a packet round instead
    /// of allocating one (`MIPBSAgent::recv`: a foreign agent relays the request and the
    /// reply, a home agent answers the request, all in the packet that arrived): it keeps
    /// that packet's uid, size and TTL. None: a new packet (`allocpkt`).
    pub carried: Option<Carried>,
}

/// What a message sent in a received packet keeps of it (ns-2 `hdr_cmn::uid_`, `size_`,
/// `hdr_ip::ttl_`), and the world's id of that packet (its trace keeps the MAC header of the
/// frame that brought it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Carried {
    pub uid: u64,
    pub ns2_uid: u64,
    pub size: u32,
    pub ttl: u8,
}

impl Carried {
    pub fn of(packet: &Packet) -> Self {
        Carried {
            uid: packet.uid,
            ns2_uid: packet.ns2_uid,
            size: packet.size,
            ttl: packet.routing_header().ttl,
        }
    }
}

/// What one call into a role produced.
#[derive(Debug, Default)]
pub struct MipOutput {
    pub control: Vec<MipSend>,
    /// The node's care-of address changed (or was cancelled on returning home) this many
    /// times during the call.
    pub care_of_changes: u32,
    /// A mobile node's new base station for its DSDV (ns-2 `MobileNode::set_base_stn`, on an
    /// advertisement from an agent not in its list), when the last hop goes through DSDV.
    pub base_station: Option<Addr>,
}

/// A node's Mobile IP role.
#[derive(Clone, Debug)]
pub enum MipRole {
    Agent(Box<MobilityAgent>),
    Mobile(Box<MobileNode>),
    Correspondent(Correspondent),
}

impl MipRole {
    pub fn on_output(&mut self, now: SimTime, packet: Packet, out: &mut MipOutput) -> Verdict {
        match self {
            MipRole::Agent(a) => a.on_packet(now, None, packet, out),
            MipRole::Mobile(m) => m.on_output(now, packet),
            MipRole::Correspondent(c) => c.on_output(now, packet),
        }
    }

    pub fn on_input(
        &mut self,
        now: SimTime,
        iface: IfaceId,
        packet: Packet,
        out: &mut MipOutput,
    ) -> Verdict {
        match self {
            MipRole::Agent(a) => a.on_packet(now, Some(iface), packet, out),
            MipRole::Mobile(m) => m.on_input(now, iface, packet, out),
            MipRole::Correspondent(c) => c.on_input(now, packet),
        }
    }

    pub fn next_timer(&self) -> Option<SimTime> {
        match self {
            MipRole::Agent(a) => a.next_timer(),
            MipRole::Mobile(m) => m.next_timer(),
            MipRole::Correspondent(_) => None,
        }
    }

    pub fn on_timer(&mut self, now: SimTime, out: &mut MipOutput) {
        match self {
            MipRole::Agent(a) => a.on_timer(now, out),
            MipRole::Mobile(m) => m.on_timer(now, out),
            MipRole::Correspondent(_) => {}
        }
    }

    /// A radio link of this node went up or down (the mobile node crossed the coverage edge).
    pub fn on_radio_change(&mut self, iface: IfaceId, up: bool) {
        let ports = match self {
            MipRole::Agent(a) => &mut a.radio,
            MipRole::Mobile(m) => &mut m.radio,
            MipRole::Correspondent(_) => return,
        };
        for p in ports.iter_mut().filter(|p| p.iface == iface) {
            p.up = up;
        }
    }
}

/// The Mobile IP message a packet carries, if any.
pub(crate) fn mip_message(packet: &Packet) -> Option<&ControlMessage> {
    match &packet.payload {
        crate::net::packet::Payload::Control(m) if m.protocol() == "mobile_ip" => Some(m),
        _ => None,
    }
}
