//! The network layer's building blocks: addresses and ids ([`addr`]), packets with a header
//! stack ([`packet`]), routing and mobility control messages ([`control`]), the interface
//! seam every link layer implements ([`iface`]) and wired point-to-point link directions
//! ([`wired`]) with drop-tail or RED ([`red`]) queues.
//!
//! Where the rest plugs in (the world composes them; protocol folders import this one and
//! the engine, never each other):
//! - **A link layer** is an interface kind: a sans-IO state machine with ports, driven by
//!   `submit(now, port, packet, next_hop)` and `on_wake(now, tag)`, drained through an
//!   [`iface::IfaceOutput`] (arrivals, drops with reasons, transmit failures with the packet,
//!   wake-ups). Wired directions live here; the UMTS bearer (`crate::umts`) is adapted in
//!   `crate::world::device`; an 802.11 NIC on a shared channel (`wifi/`) is the next variant
//!   of `world::device::Device`, reading node positions as values.
//! - **Routing** (`crate::routing`): one protocol instance per node answering forward /
//!   deliver / hold / drop; DSR, AODV and DSDV add variants and their messages to
//!   [`control::ControlMessage`]; DSR's source route is a [`packet::Header`].
//! - **Mobility** (`crate::mobility`): a node's position at time t.
//! - **Mobile IP** (`mobileip/`): agents are bound to ports like transport agents, change a
//!   node's addresses through the world (routing hears `on_address_change`) and tunnel with
//!   [`packet::Packet::encapsulate`] (20 bytes, counted in size and air time).

pub mod addr;
pub mod control;
pub mod iface;
pub mod packet;
pub mod red;
pub mod sfq;
pub mod wired;

pub use addr::{Addr, IfaceId, NodeId};
pub use packet::{DropReason, IpHeader, Packet, Payload};
