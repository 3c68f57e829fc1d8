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
use crate::wifi::channel::Arp;
use crate::wifi::config::IfqKind;

/// A packet waiting for the MAC and the neighbour it is for.
#[derive(Debug)]
pub struct Queued {
    pub packet: Packet,
    pub next_hop: Addr,
}

/// What waits between the LL and the MAC: a packet, or an ARP frame for receiver `ra`.
/// ns-2's ARP hands its requests and replies to the LL's down target, which is the
/// interface queue (`ARPTable::arprequest`, `ARPTable::arpinput`): they wait in line like
/// data, and a full queue drops them. Neither queue gives them priority (`PriQueue::recv`
/// favours only routing packets; `CMUPriQueue::prq_assign_queue` puts PT_ARP in the normal
/// band), and neither queue's `filter` takes them out for a broken next hop here.
#[derive(Debug)]
pub enum Waiting {
    Packet(Queued),
    Arp { ra: Addr, msg: Arp },
}

impl Waiting {
    fn kind(&self) -> Option<PacketKind> {
        match self {
            Waiting::Packet(q) => Some(q.packet.kind()),
            Waiting::Arp { .. } => None,
        }
    }
}

/// What enqueueing did: the item (or the one it displaced) may have been dropped.
#[derive(Debug)]
pub enum Enqueued {
    Accepted,
    /// The queue was full: this item (the new one, or the tail it pushed out) is dropped.
    Dropped(Waiting),
}

#[derive(Debug)]
pub enum Ifq {
    PriQueue {
        q: VecDeque<Waiting>,
        limit: usize,
    },
    /// Bands: 0 routing, 1 real time (unused: no such traffic), 2 TCP ACKs, 3 the rest
    /// (ARP frames too).
    CmuPriQueue {
        bands: [VecDeque<Waiting>; 4],
        limit: usize,
    },
}

/// `CMUPriQueue` band of a packet (link-spec §3.6); an ARP frame (no packet kind) is in the
/// normal band.
fn cmu_band(kind: Option<PacketKind>) -> usize {
    match kind {
        Some(PacketKind::Control) => 0,
        Some(PacketKind::TcpAck) => 2,
        Some(PacketKind::TcpData | PacketKind::Udp | PacketKind::Ping) | None => 3,
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

    /// How many of the waiting items are packets (not ARP frames).
    pub fn packets(&self) -> usize {
        let count =
            |q: &VecDeque<Waiting>| q.iter().filter(|w| matches!(w, Waiting::Packet(_))).count();
        match self {
            Ifq::PriQueue { q, .. } => count(q),
            Ifq::CmuPriQueue { bands, .. } => bands.iter().map(count).sum(),
        }
    }

    pub fn enqueue(&mut self, item: Waiting) -> Enqueued {
        match self {
            Ifq::PriQueue { q, limit } => {
                if item.kind() == Some(PacketKind::Control) {
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
                let b = cmu_band(item.kind());
                if bands[b].len() >= *limit {
                    Enqueued::Dropped(item)
                } else {
                    bands[b].push_back(item);
                    Enqueued::Accepted
                }
            }
        }
    }

    /// The next item for the MAC: the head (PriQueue) or the head of the highest
    /// non-empty band (CMUPriQueue).
    pub fn dequeue(&mut self) -> Option<Waiting> {
        match self {
            Ifq::PriQueue { q, .. } => q.pop_front(),
            Ifq::CmuPriQueue { bands, .. } => bands.iter_mut().find_map(VecDeque::pop_front),
        }
    }

    /// Removes every packet for `next_hop`, in queue order.
    pub fn remove_for(&mut self, next_hop: Addr, out: &mut Vec<Queued>) {
        let mut take = |q: &mut VecDeque<Waiting>| {
            let mut keep = VecDeque::with_capacity(q.len());
            for item in q.drain(..) {
                match item {
                    Waiting::Packet(p) if p.next_hop == next_hop => out.push(p),
                    other => keep.push_back(other),
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

    fn queued(uid: u64, hop: u32) -> Queued {
        Queued {
            packet: udp_packet(uid, 1, 100),
            next_hop: Addr::nth(hop),
        }
    }

    fn item(uid: u64, hop: u32) -> Waiting {
        Waiting::Packet(queued(uid, hop))
    }

    fn control(uid: u64) -> Waiting {
        let mut p = udp_packet(uid, 1, 48);
        p.payload = Payload::Control(ControlMessage::Hello {
            origin: Addr::nth(0),
            seq: 1,
        });
        Waiting::Packet(Queued {
            packet: p,
            next_hop: Addr::BROADCAST,
        })
    }

    fn arp_request(target: u32) -> Waiting {
        Waiting::Arp {
            ra: Addr::BROADCAST,
            msg: Arp::Request {
                target: Addr::nth(target),
            },
        }
    }

    /// A packet's uid; 0 for an ARP frame (ns-2 gives ARP packets uid 0).
    fn uid(w: &Waiting) -> u64 {
        match w {
            Waiting::Packet(q) => q.packet.uid,
            Waiting::Arp { .. } => 0,
        }
    }

    fn drain(q: &mut Ifq) -> Vec<u64> {
        std::iter::from_fn(|| q.dequeue().map(|w| uid(&w))).collect()
    }

    /// ns-2 DropTail: with limit 5, four wait and the fifth is dropped.
    #[test]
    fn priqueue_holds_limit_minus_one() {
        let mut q = Ifq::new(IfqKind::PriQueue, 5);
        for i in 0..4 {
            assert!(matches!(q.enqueue(item(i, 1)), Enqueued::Accepted));
        }
        match q.enqueue(item(4, 1)) {
            Enqueued::Dropped(d) => assert_eq!(uid(&d), 4),
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
            Enqueued::Dropped(d) => assert_eq!(uid(&d), 2),
            Enqueued::Accepted => panic!("no tail drop"),
        }
        assert_eq!(drain(&mut q), vec![9, 0, 1]);
    }

    /// CMUPriQueue serves routing > TCP ACK > rest, each band with its own limit.
    #[test]
    fn cmu_bands_in_strict_priority() {
        let mut q = Ifq::new(IfqKind::CmuPriQueue, 2);
        q.enqueue(item(1, 1));
        q.enqueue(item(2, 1));
        assert!(matches!(q.enqueue(item(3, 1)), Enqueued::Dropped(_)));
        let mut ack = queued(4, 1);
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
        q.enqueue(Waiting::Packet(ack));
        q.enqueue(control(5));
        assert_eq!(drain(&mut q), vec![5, 4, 1, 2]);
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

    /// An ARP request joins the PriQueue's tail like data (a routing packet still goes
    /// ahead of it), takes a place (limit 4: the third item is the last accepted), is not
    /// a packet, and stays when the packets for a broken next hop are taken out.
    #[test]
    fn an_arp_frame_waits_in_line_in_priqueue() {
        let mut q = Ifq::new(IfqKind::PriQueue, 4);
        q.enqueue(item(1, 1));
        q.enqueue(arp_request(2));
        q.enqueue(item(3, 1));
        assert_eq!((q.len(), q.packets()), (3, 2));
        assert!(matches!(
            q.enqueue(arp_request(5)),
            Enqueued::Dropped(Waiting::Arp { .. })
        ));
        let mut out = Vec::new();
        q.remove_for(Addr::nth(1), &mut out);
        assert_eq!(out.len(), 2);
        q.enqueue(item(6, 3));
        q.enqueue(control(7));
        assert_eq!(drain(&mut q), vec![7, 0, 6]);
    }

    /// In CMUPriQueue an ARP frame is in the normal band: after routing packets and TCP
    /// ACKs, in line with data, and dropped when that band is full.
    #[test]
    fn an_arp_frame_is_in_the_normal_band_of_cmupriqueue() {
        let mut q = Ifq::new(IfqKind::CmuPriQueue, 2);
        q.enqueue(item(1, 1));
        q.enqueue(arp_request(2));
        assert!(matches!(
            q.enqueue(arp_request(3)),
            Enqueued::Dropped(Waiting::Arp { .. })
        ));
        q.enqueue(control(4));
        assert_eq!(drain(&mut q), vec![4, 1, 0]);
    }
}
