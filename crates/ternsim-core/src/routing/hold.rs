//! A bounded buffer of packets waiting for a route, each with a deadline: the send buffer of
//! on-demand routing (DSR's `SendBuffer`, AODV's `aodv_rqueue`: link-spec §4-5) and the
//! optional hold of static routing while the topology has no path.
//!
//! Packets leave in three ways, each accounted for: released when a route to their
//! destination appears, dropped with [`DropReason::HoldTimeout`] when their deadline passes,
//! or refused with [`DropReason::HoldOverflow`] when the buffer is full (ns-2 drops the new
//! packet, not the oldest: the caller gets the packet back).

use std::collections::VecDeque;

use crate::net::addr::Addr;
#[cfg(doc)]
use crate::net::packet::DropReason;
use crate::net::packet::Packet;
use crate::sim::SimTime;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HoldConfig {
    /// Packets the buffer holds at most.
    pub capacity: usize,
    /// How long a packet may wait for a route.
    pub timeout: SimTime,
}

#[derive(Clone, Debug)]
pub struct HoldBuffer {
    cfg: HoldConfig,
    /// Packets in arrival order, with their deadlines (so the front expires first).
    packets: VecDeque<(SimTime, Packet)>,
}

impl HoldBuffer {
    pub fn new(cfg: HoldConfig) -> Self {
        HoldBuffer {
            cfg,
            packets: VecDeque::new(),
        }
    }

    pub fn len(&self) -> usize {
        self.packets.len()
    }

    pub fn is_empty(&self) -> bool {
        self.packets.is_empty()
    }

    /// Holds `packet` until `now + timeout`; a full buffer hands it back (to be dropped
    /// with [`DropReason::HoldOverflow`]).
    pub fn hold(&mut self, now: SimTime, packet: Packet) -> Option<Packet> {
        if self.packets.len() >= self.cfg.capacity {
            return Some(packet);
        }
        self.packets.push_back((now + self.cfg.timeout, packet));
        None
    }

    /// The earliest deadline.
    pub fn next_deadline(&self) -> Option<SimTime> {
        self.packets.front().map(|(t, _)| *t)
    }

    /// Packets whose deadline is at or before `now`, removed, oldest first.
    pub fn expire(&mut self, now: SimTime) -> Vec<Packet> {
        let mut gone = Vec::new();
        while self.packets.front().is_some_and(|(t, _)| *t <= now) {
            gone.push(self.packets.pop_front().expect("front checked").1);
        }
        gone
    }

    /// Removes and returns, oldest first, the packets for which `routable(dst)` is true.
    pub fn release(&mut self, mut routable: impl FnMut(Addr) -> bool) -> Vec<Packet> {
        let mut out = Vec::new();
        let mut kept = VecDeque::with_capacity(self.packets.len());
        for (t, p) in self.packets.drain(..) {
            if routable(p.routing_header().dst) {
                out.push(p);
            } else {
                kept.push_back((t, p));
            }
        }
        self.packets = kept;
        out
    }
}
