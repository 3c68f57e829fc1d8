//! The network layer: packets with a header stack ([`packet`]), wired point-to-point link
//! directions ([`wired`]), routing ([`routing`]) and the interface seam ([`Interface`]).

pub mod packet;
pub mod routing;
pub mod wired;

pub use packet::{DropReason, IpHeader, Packet, Payload};

/// How a node reaches the medium. Every variant takes a packet from the node and eventually
/// delivers it to a neighbour; the world dispatches on it. Wired links, UMTS radio bearers
/// (PDCP/RLC/MAC-d/DCH) /// and shared 802.11 channels are further variants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interface {
    /// One direction of a wired duplex link: the index of its `WiredDirection`.
    Wired(usize),
    /// A UMTS radio bearer, entered at the RNC or the UE side.
    Bearer {
        bearer: usize,
        side: crate::umts::Side,
    },
}
