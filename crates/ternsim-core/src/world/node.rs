//! A node: its name, addresses, interfaces, routing protocol instance, mobility model and
//! the transport agents bound to its ports.

use super::Wake;
use crate::mobileip::MipRole;
use crate::mobility::Mobility;
use crate::net::addr::{Addr, IfaceId, NodeId};
use crate::routing::{RouteCtx, RoutingProtocol};

/// A transport agent bound to a port: which flow, and which end of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Agent {
    TcpSender(u32),
    TcpSink(u32),
    UdpSource(u32),
    UdpSink(u32),
    PingSource(u32),
    PingSink(u32),
}

pub struct Node {
    pub name: String,
    /// Addresses, primary first.
    pub addrs: Vec<Addr>,
    pub ifaces: Vec<IfaceId>,
    pub routing: RoutingProtocol,
    pub routing_wake: Wake,
    pub mobility: Mobility,
    /// Agents by destination port (ports are per node; any of the node's addresses). A
    /// node binds few agents, so a short list scanned per packet beats hashing.
    pub agents: Vec<(u16, Agent)>,
    /// The node's Mobile IP role, consulted before routing (`crate::mobileip`).
    pub mip: Option<MipRole>,
    pub mip_wake: Wake,
}

impl Node {
    /// The routing protocol, and what it may know of this node, borrowed together.
    pub fn routing_ctx(&mut self, id: NodeId) -> (&mut RoutingProtocol, RouteCtx<'_>) {
        let Node {
            routing,
            addrs,
            ifaces,
            ..
        } = self;
        (
            routing,
            RouteCtx {
                node: id,
                addrs,
                ifaces,
            },
        )
    }

    pub fn agent(&self, port: u16) -> Option<Agent> {
        self.agents
            .iter()
            .find(|(p, _)| *p == port)
            .map(|(_, a)| *a)
    }

    pub fn bind(&mut self, port: u16, agent: Agent) {
        self.agents.retain(|(p, _)| *p != port);
        self.agents.push((port, agent));
    }

    pub fn primary(&self) -> Addr {
        self.addrs[0]
    }
}

/// One of a node's interfaces: the device and port it is, and names for traces.
pub struct Iface {
    pub node: NodeId,
    pub device: u32,
    pub port: u16,
    /// e.g. `r1-r2/a_to_b` or `ue-rnc/downlink`.
    pub name: String,
    pub up: bool,
}
