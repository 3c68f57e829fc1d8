//! Addresses and the typed ids of the network's parts.
//!
//! An [`Addr`] is an IPv4 address that a node holds; it is not the node's arena index. A node
//! has a primary address assigned when the world is built and may gain more (a Mobile IP
//! care-of address) or lose them during a run. Ids ([`NodeId`], [`IfaceId`]) index the
//! world's arenas and never appear in packets.

use std::fmt;

/// An IPv4 address. The world hands out primary addresses as 10.0.0.1, 10.0.0.2, ... in
/// node order; any other address (a care-of address) is allocated from the same space, so
/// addresses stay dense and per-destination tables can be vectors indexed by [`Addr::index`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Addr(pub u32);

impl Addr {
    /// The network the world allocates addresses from: 10.0.0.0/8.
    pub const BASE: u32 = 0x0A00_0000;

    /// The `n`-th address the world allocates (n = 0 is 10.0.0.1).
    pub fn nth(n: u32) -> Addr {
        Addr(Self::BASE + n + 1)
    }

    /// Position of this address in the allocation order (inverse of [`Addr::nth`]); dense
    /// tables index on it.
    pub fn index(self) -> usize {
        (self.0.wrapping_sub(Self::BASE + 1)) as usize
    }

    /// The limited broadcast address 255.255.255.255 (flooded control packets: RREQ, HELLO).
    pub const BROADCAST: Addr = Addr(u32::MAX);

    pub fn is_broadcast(self) -> bool {
        self == Self::BROADCAST
    }
}

impl fmt::Display for Addr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b = self.0.to_be_bytes();
        write!(f, "{}.{}.{}.{}", b[0], b[1], b[2], b[3])
    }
}

/// A node: index into the world's node arena.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(pub u32);

/// One of a node's interfaces: index into the world's interface arena. A wired link
/// direction, a side of a radio bearer or (later) an 802.11 NIC.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct IfaceId(pub u32);

impl NodeId {
    pub fn ix(self) -> usize {
        self.0 as usize
    }
}

impl IfaceId {
    pub fn ix(self) -> usize {
        self.0 as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allocated_addresses_are_dense_and_print_dotted() {
        assert_eq!(Addr::nth(0).to_string(), "10.0.0.1");
        assert_eq!(Addr::nth(255).to_string(), "10.0.1.0");
        assert_eq!(Addr::nth(41).index(), 41);
        assert_eq!(Addr::BROADCAST.to_string(), "255.255.255.255");
        assert!(Addr::BROADCAST.is_broadcast());
    }
}
