//! The route queue (ns-2 `aodv_rqueue`): data packets waiting for a route, first in first
//! out, bounded in length and in waiting time.

use crate::net::addr::Addr;
use crate::net::packet::{DropReason, Packet};
use crate::sim::SimTime;
use std::collections::VecDeque;

#[derive(Clone, Debug)]
pub struct RouteQueue {
    capacity: usize,
    timeout: SimTime,
    /// (packet, when it expires), oldest first.
    q: VecDeque<(Packet, SimTime)>,
}

impl RouteQueue {
    pub fn new(capacity: usize, timeout: SimTime) -> Self {
        RouteQueue {
            capacity,
            timeout,
            q: VecDeque::new(),
        }
    }

    pub fn len(&self) -> usize {
        self.q.len()
    }

    pub fn is_empty(&self) -> bool {
        self.q.is_empty()
    }

    /// Queues `p` at `now`; when full the oldest packet is handed back (ns-2 drops the head).
    pub fn push(&mut self, now: SimTime, p: Packet) -> Option<Packet> {
        let evicted = if self.q.len() >= self.capacity {
            self.q.pop_front().map(|(p, _)| p)
        } else {
            None
        };
        self.q.push_back((p, now + self.timeout));
        evicted
    }

    /// Removes and returns, in order, the packets for `dst`.
    pub fn take(&mut self, dst: Addr) -> Vec<Packet> {
        let (mine, rest): (VecDeque<_>, VecDeque<_>) =
            self.q.drain(..).partition(|(p, _)| p.ip.dst == dst);
        self.q = rest;
        mine.into_iter().map(|(p, _)| p).collect()
    }

    pub fn has(&self, dst: Addr) -> bool {
        self.q.iter().any(|(p, _)| p.ip.dst == dst)
    }

    /// Distinct destinations with packets queued, in order of their oldest packet.
    pub fn destinations(&self) -> Vec<Addr> {
        let mut v: Vec<Addr> = Vec::new();
        for (p, _) in &self.q {
            if !v.contains(&p.ip.dst) {
                v.push(p.ip.dst);
            }
        }
        v
    }

    /// When the oldest packet expires.
    pub fn next_expiry(&self) -> Option<SimTime> {
        self.q.front().map(|(_, t)| *t)
    }

    /// Drops the packets whose time is up at `now`.
    pub fn expire(&mut self, now: SimTime, drops: &mut Vec<(Packet, DropReason)>) -> usize {
        let mut n = 0;
        while self.q.front().is_some_and(|(_, t)| *t <= now) {
            let (p, _) = self.q.pop_front().expect("front");
            drops.push((p, DropReason::HoldTimeout));
            n += 1;
        }
        n
    }
}
