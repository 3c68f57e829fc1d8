//! The interface seam: what every link layer looks like to a node and to the world.
//!
//! A link layer is a sans-IO state machine owning one or more **ports**, each the interface
//! of one node (a wired link direction has one port at its sending node; a radio bearer has
//! an RNC port and a UE port; an 802.11 NIC is one port on a shared channel). It is driven
//! by two calls and drained through one [`IfaceOutput`]:
//! - `submit(now, port, packet, next_hop, out)`: the node hands a packet to the interface,
//!   naming the neighbour it is for (the link-layer destination);
//! - `on_wake(now, tag, out)`: a wake-up the interface asked for fired.
//!
//! Everything the interface produces goes into the output: packets that reached the far
//! node (`arrivals`), packets it dropped with a reason (`drops`), packets it could not hand to
//! their next hop (`tx_failures`, the link-layer feedback on-demand routing needs, with the
//! packet handed back for salvage) and the wake-ups it needs (`wakes`). A wake carries a tag
//! the interface chooses, so one interface can keep several independent timers (a wired
//! direction's end of transmission and each arrival) without the world knowing what they are.
//! Trace records stay with the interface and are drained by its owner.

use crate::net::addr::Addr;
use crate::net::packet::{DropReason, Packet, PacketKind};
use crate::sim::SimTime;

/// A packet the link layer could not deliver to `next_hop` (e.g. an 802.11 retry limit),
/// handed back to the routing protocol of the node that sent it.
#[derive(Debug)]
pub struct TxFailure {
    pub port: u16,
    pub next_hop: Addr,
    pub packet: Packet,
    pub cause: TxFailureCause,
}

/// Why an interface handed a packet back to routing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TxFailureCause {
    /// The MAC was sending it and gave up at the retry limit.
    RetryLimit,
    /// It waited in the queue for the next hop the MAC just gave up on.
    Queued,
    /// ARP sent its requests for the next hop and none was answered.
    ArpUnresolved,
}

/// What one call into an interface produced. The owner drains it after every call.
#[derive(Debug, Default)]
pub struct IfaceOutput {
    /// Packets that reached the node at the far end, by the port they arrived on.
    pub arrivals: Vec<(u16, Packet)>,
    pub drops: Vec<(Packet, DropReason)>,
    pub tx_failures: Vec<TxFailure>,
    /// Wake-ups to schedule: (time, tag, exact time in seconds). The interface is called
    /// back with the tag. The exact time orders wake-ups that round to the same nanosecond
    /// (`sim::scheduler`, "Exact times"); an interface without one gives
    /// [`crate::sim::scheduler::exact_of`] of the time.
    pub wakes: Vec<(SimTime, u32, f64)>,
    /// Copies of frames a port overheard that were addressed to another node (promiscuous
    /// tap, only when the interface is configured to report them). Read by the routing
    /// protocol of the overhearing node and then discarded: not in the packet accounting.
    pub overheard: Vec<(u16, Packet)>,
    /// Packets this call created by copying, by [`PacketKind::index`]: a broadcast frame
    /// received by k nodes arrives as k packets, k − 1 of them new (with zero receivers the
    /// original is reported as a drop). The world counts them as created.
    pub copies: [u64; PacketKind::ALL.len()],
}

impl IfaceOutput {
    pub fn clear(&mut self) {
        self.arrivals.clear();
        self.drops.clear();
        self.tx_failures.clear();
        self.wakes.clear();
        self.overheard.clear();
        self.copies = [0; PacketKind::ALL.len()];
    }

    pub fn is_empty(&self) -> bool {
        self.arrivals.is_empty()
            && self.drops.is_empty()
            && self.tx_failures.is_empty()
            && self.wakes.is_empty()
            && self.overheard.is_empty()
            && self.copies.iter().all(|&c| c == 0)
    }
}
