//! The interface queue between routing and the MAC (link-spec §3.6).
//!
//! The MAC takes one packet at a time; the rest wait here with the next hop routing chose.
//! Both kinds can hand back every packet for a next hop (ns-2 `ifq->filter`, used when a
//! link breaks).
//!
//! Limits follow ns-2's code, not its parameter name: `Queue/DropTail/PriQueue` drops a
//! packet when the queue *would reach* `qlim_` with it (`length + 1 >= qlim_`), so with
//! `ifqlen 50` at most 49 wait while the 50th is inside the MAC; a routing packet put at
//! the head pushes out the tail packet in the same way. `CMUPriQueue` keeps up to the limit
//! in each band.

use std::collections::VecDeque;

use crate::net::addr::Addr;
use crate::net::packet::{Packet, PacketKind};
use crate::wifi::config::IfqKind;

/// A packet waiting for the MAC and the neighbour it is for.
#[derive(Debug)]
pub struct Queued {
    pub packet: Packet,
    pub next_hop: Addr,
}

/// What enqueueing did: the packet (or the one it displaced) may have been dropped.
#[derive(Debug)]
pub enum Enqueued {
    Accepted,
    /// The queue was full: this packet (the new one, or the tail it pushed out) is dropped.
    Dropped(Queued),
}

#[derive(Debug)]
pub enum Ifq {
    PriQueue {
        q: VecDeque<Queued>,
        limit: usize,
    },
    /// Bands: 0 routing, 1 real time (unused: no such traffic), 2 TCP ACKs, 3 the rest.
    CmuPriQueue {
        bands: [VecDeque<Queued>; 4],
        limit: usize,
    },
}

/// `CMUPriQueue` band of a packet (link-spec §3.6).
fn cmu_band(kind: PacketKind) -> usize {
    match kind {
        PacketKind::Control => 0,
        PacketKind::TcpAck => 2,
        PacketKind::TcpData | PacketKind::Udp | PacketKind::Ping => 3,
    }
}

impl Ifq {
    pub fn new(kind: IfqKind, limit: usize) -> Ifq {
        match kind {
            IfqKind::PriQueue => Ifq::PriQueue {
                q: VecDeque::new(),
                limit,
            },
            IfqKind::CmuPriQueue => Ifq::CmuPriQueue {
                bands: Default::default(),
                limit,
            },
        }
    }

    pub fn len(&self) -> usize {
        match self {
            Ifq::PriQueue { q, .. } => q.len(),
            Ifq::CmuPriQueue { bands, .. } => bands.iter().map(VecDeque::len).sum(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn enqueue(&mut self, item: Queued) -> Enqueued {
        match self {
            Ifq::PriQueue { q, limit } => {
                if item.packet.kind() == PacketKind::Control {
                    // `Prefer_Routing_Protocols`: routing packets go to the head; if the queue
                    // then reaches the limit the tail packet is dropped.
                    q.push_front(item);
                    if q.len() >= *limit {
                        let tail = q.pop_back().expect("non-empty");
                        return Enqueued::Dropped(tail);
                    }
                    Enqueued::Accepted
                } else if q.len() + 1 >= *limit {
                    Enqueued::Dropped(item)
                } else {
                    q.push_back(item);
                    Enqueued::Accepted
                }
            }
            Ifq::CmuPriQueue { bands, limit } => {
                let b = cmu_band(item.packet.kind());
                if bands[b].len() >= *limit {
                    Enqueued::Dropped(item)
                } else {
                    bands[b].push_back(item);
                    Enqueued::Accepted
                }
            }
        }
    }

    /// The next packet for the MAC: the head (PriQueue) or the head of the highest
    /// non-empty band (CMUPriQueue).
    pub fn dequeue(&mut self) -> Option<Queued> {
        match self {
            Ifq::PriQueue { q, .. } => q.pop_front(),
            Ifq::CmuPriQueue { bands, .. } => bands.iter_mut().find_map(VecDeque::pop_front),
        }
    }

    /// Removes every packet for `next_hop`, in queue order.
    pub fn remove_for(&mut self, next_hop: Addr, out: &mut Vec<Queued>) {
        let mut take = |q: &mut VecDeque<Queued>| {
            let mut keep = VecDeque::with_capacity(q.len());
            for item in q.drain(..) {
                if item.next_hop == next_hop {
                    out.push(item);
                } else {
                    keep.push_back(item);
                }
            }
            *q = keep;
        };
        match self {
            Ifq::PriQueue { q, .. } => take(q),
            Ifq::CmuPriQueue { bands, .. } => bands.iter_mut().for_each(take),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::control::ControlMessage;
    use crate::net::packet::tests::udp_packet;
    use crate::net::packet::Payload;

    fn item(uid: u64, hop: u32) -> Queued {
        Queued {
            packet: udp_packet(uid, 1, 100),
            next_hop: Addr::nth(hop),
        }
    }

    fn control(uid: u64) -> Queued {
        let mut p = udp_packet(uid, 1, 48);
        p.payload = Payload::Control(ControlMessage::Hello {
            origin: Addr::nth(0),
            seq: 1,
        });
        Queued {
            packet: p,
            next_hop: Addr::BROADCAST,
        }
    }

    /// ns-2 DropTail: with limit 5, four wait and the fifth is dropped.
    #[test]
    fn priqueue_holds_limit_minus_one() {
        let mut q = Ifq::new(IfqKind::PriQueue, 5);
        for i in 0..4 {
            assert!(matches!(q.enqueue(item(i, 1)), Enqueued::Accepted));
        }
        match q.enqueue(item(4, 1)) {
            Enqueued::Dropped(d) => assert_eq!(d.packet.uid, 4),
            Enqueued::Accepted => panic!("fifth accepted"),
        }
        assert_eq!(q.len(), 4);
    }

    /// A routing packet jumps to the head and pushes out the tail when the queue is full.
    #[test]
    fn priqueue_routing_packets_go_first() {
        let mut q = Ifq::new(IfqKind::PriQueue, 4);
        for i in 0..3 {
            q.enqueue(item(i, 1));
        }
        match q.enqueue(control(9)) {
            Enqueued::Dropped(d) => assert_eq!(d.packet.uid, 2),
            Enqueued::Accepted => panic!("no tail drop"),
        }
        let order: Vec<u64> = std::iter::from_fn(|| q.dequeue().map(|i| i.packet.uid)).collect();
        assert_eq!(order, vec![9, 0, 1]);
    }

    /// CMUPriQueue serves routing > TCP ACK > rest, each band with its own limit.
    #[test]
    fn cmu_bands_in_strict_priority() {
        let mut q = Ifq::new(IfqKind::CmuPriQueue, 2);
        q.enqueue(item(1, 1));
        q.enqueue(item(2, 1));
        assert!(matches!(q.enqueue(item(3, 1)), Enqueued::Dropped(_)));
        let mut ack = item(4, 1);
        ack.packet.payload = Payload::TcpAck(crate::tcp::AckSegment {
            ack: 0,
            sack: Default::default(),
            n_sack: 0,
            wire_bytes: 40,
            echo_sent_at: crate::sim::SimTime::ZERO,
            echo_seq: 0,
            ts_echo: crate::sim::SimTime::ZERO,
            sig: false,
            ecn: Default::default(),
        });
        q.enqueue(ack);
        q.enqueue(control(5));
        let order: Vec<u64> = std::iter::from_fn(|| q.dequeue().map(|i| i.packet.uid)).collect();
        assert_eq!(order, vec![5, 4, 1, 2]);
    }

    #[test]
    fn packets_for_a_next_hop_come_out_in_order() {
        let mut q = Ifq::new(IfqKind::PriQueue, 50);
        for (uid, hop) in [(1, 1), (2, 2), (3, 1), (4, 3)] {
            q.enqueue(item(uid, hop));
        }
        let mut out = Vec::new();
        q.remove_for(Addr::nth(1), &mut out);
        assert_eq!(out.iter().map(|i| i.packet.uid).collect::<Vec<_>>(), [1, 3]);
        assert_eq!(q.len(), 2);
    }
}
