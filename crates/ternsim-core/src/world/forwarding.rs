//! Moving packets: from an agent into its node's routing protocol, from routing onto an
//! interface, from an interface to the next node, and up to the agent bound to the
//! destination port. Every drop goes through [`World::drop_packet`], so the accounting and
//! the `drops` trace see each one, with the node and interface where it happened.

use std::collections::VecDeque;

use super::{Agent, AgentSide, Event, World, DEFAULT_TTL};
use crate::channel::drop_stage::DropPoint;
use crate::net::addr::{Addr, IfaceId, NodeId};
use crate::net::iface::{IfaceOutput, TxFailure};
use crate::net::packet::{
    DropReason, Header, IpHeader, Packet, PacketFields, PacketKind, Payload, Ports,
};
use crate::net::wired::{Offered, StageVerdict, WiredDirection, Woken};
use crate::routing::static_routes::{shortest_paths, Route};
use crate::routing::{ControlSend, Routed, RoutingOutput, RoutingProtocol};
use crate::sim::scheduler::exact_of;
use crate::sim::SimTime;

/// Where a held packet comes back.
#[derive(Clone, Copy, Debug)]
pub(super) enum HeldAt {
    /// Before the queue of `iface`'s device, on its way to `next_hop`.
    Enqueue { iface: IfaceId, next_hop: Addr },
    /// At the far end of wired device `device`, port `port`.
    Arrival { device: u32, port: u16 },
}

/// A packet a drop stage holds back (ns-2 `delay_pkt_`).
pub(super) struct HeldPacket {
    at: HeldAt,
    /// How many stages at that point it has passed.
    resume: usize,
    packet: Packet,
}

impl World {
    /// A new packet, counted as created.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn new_packet(
        &mut self,
        now: SimTime,
        flow: Option<u32>,
        src: Addr,
        dst: Addr,
        ports: Ports,
        size: u32,
        payload: Payload,
    ) -> Packet {
        self.make_packet(now, flow, (src, dst), ports, size, payload, None)
    }

    /// [`Self::new_packet`] inlined into its caller, for a one-way TCP agent's segments
    /// and ACKs (one per data packet each): the payload is written once, into the spent
    /// packet's box, where the call passed it through two or three copies on the stack.
    #[inline(always)]
    pub(super) fn new_flow_packet(
        &mut self,
        now: SimTime,
        flow: u32,
        (src, dst): (Addr, Addr),
        ports: Ports,
        size: u32,
        payload: Payload,
    ) -> Packet {
        self.make_packet_inline(now, Some(flow), (src, dst), ports, size, payload, None)
    }

    /// [`Self::new_packet`], or with `ns2_uid` the packet ns-2 would pass on under that uid
    /// (a forwarded request: ns-2 sends the packet it received on, so no new uid is taken).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn make_packet(
        &mut self,
        now: SimTime,
        flow: Option<u32>,
        addrs: (Addr, Addr),
        ports: Ports,
        size: u32,
        payload: Payload,
        ns2_uid: Option<u64>,
    ) -> Packet {
        self.make_packet_inline(now, flow, addrs, ports, size, payload, ns2_uid)
    }

    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn make_packet_inline(
        &mut self,
        now: SimTime,
        flow: Option<u32>,
        (src, dst): (Addr, Addr),
        ports: Ports,
        size: u32,
        payload: Payload,
        ns2_uid: Option<u64>,
    ) -> Packet {
        let uid = self.next_uid;
        self.next_uid += 1;
        // ns-2 numbers packets from 0 in allocation order (`Agent::initpkt`, uidcnt_++),
        // but not every routing message (`ControlMessage::ns2_numbered`); a routing message
        // may carry its own TTL.
        let (ns2_numbered, ttl) = match &payload {
            Payload::Control(m) => (m.ns2_numbered(), m.ip_ttl().unwrap_or(DEFAULT_TTL)),
            _ => (true, DEFAULT_TTL),
        };
        // The kind from the payload as it was handed in: read back from the packet just
        // written, the payload's tag stalled the processor (a store it cannot forward).
        let kind = payload.kind().index();
        let ns2_uid = match (ns2_numbered, ns2_uid) {
            (false, _) => 0,
            (true, Some(passed_on)) => passed_on,
            (true, None) => {
                self.next_ns2_uid += 1;
                self.next_ns2_uid - 1
            }
        };
        let fields = PacketFields {
            uid,
            ns2_uid,
            num_forwards: 0,
            flow,
            ip: IpHeader { src, dst, ttl },
            ports,
            headers: Vec::new(),
            size,
            created: now,
            payload,
        };
        let packet = match self.spent_packets.pop() {
            Some(spent) => Packet::reuse(spent, fields),
            None => Packet::new(fields),
        };
        self.accounting.created += 1;
        self.accounting.created_by_kind[kind] += 1;
        packet
    }

    /// Flow `f`'s agent on `side`, at `node`, sends `packet`: it goes to routing, unless the
    /// agent was detached, whose target is then ns-2's null agent (the packet is made, so
    /// its uid is taken, and absorbed untraced).
    #[inline]
    pub(super) fn agent_send(
        &mut self,
        now: SimTime,
        f: usize,
        side: AgentSide,
        node: NodeId,
        packet: Packet,
    ) {
        if self.flows[f].detached[side as usize] {
            self.absorb(&packet);
            return;
        }
        self.originate(now, node, packet);
    }

    /// ns-2's null agent takes `packet`: counted as delivered, nothing traced.
    fn absorb(&mut self, packet: &Packet) {
        self.accounting.delivered += 1;
        self.accounting.delivered_by_kind[packet.kind().index()] += 1;
    }

    /// `node` originates `packet`: its routing protocol decides.
    #[inline(always)]
    pub(super) fn originate(&mut self, now: SimTime, node: NodeId, packet: Packet) {
        self.tap_originate(now, node, &packet);
        let Some(packet) = self.mip_filter(now, node, None, packet) else {
            return;
        };
        self.route_originated(now, node, packet);
    }

    /// Routing's decision for a packet `node` originates (after Mobile IP passed it on).
    #[inline(always)]
    pub(super) fn route_originated(&mut self, now: SimTime, node: NodeId, packet: Packet) {
        let (routing, ctx) = self.nodes[node.ix()].routing_ctx(node);
        let routed = routing.route_output(now, &ctx, packet);
        self.drain_dsr_log(node);
        self.apply(now, node, None, routed);
        self.arm_routing(node);
    }

    /// `packet` arrived at `node` on `iface`.
    #[inline(always)]
    fn receive(&mut self, now: SimTime, iface: IfaceId, packet: Packet) {
        let node = self.ifaces[iface.ix()].node;
        let Some(packet) = self.mip_filter(now, node, Some(iface), packet) else {
            return;
        };
        let (routing, ctx) = self.nodes[node.ix()].routing_ctx(node);
        let routed = routing.route_input(now, &ctx, iface, packet);
        self.drain_dsr_log(node);
        self.apply(now, node, Some(iface), routed);
        self.arm_routing(node);
    }

    /// Carries out a routing decision taken at `node` (for a packet that arrived on
    /// `in_iface`, or was originated there when `None`).
    pub(super) fn apply(
        &mut self,
        now: SimTime,
        node: NodeId,
        in_iface: Option<IfaceId>,
        routed: Routed,
    ) {
        match routed {
            Routed::Forward {
                mut packet,
                iface,
                next_hop,
            } => {
                // IP forwarding decrements the TTL of the header it routed on, and so does
                // the first wired link of a packet originated here: ns-2 heads every
                // SimpleLink with a TTLChecker, so a wired hop costs one whether or not a
                // node forwarded onto it (a wireless trace shows the difference).
                let onto_wire = || {
                    let device = self.ifaces[iface.ix()].device as usize;
                    matches!(self.devices[device], super::Device::Wired { .. })
                };
                if in_iface.is_some() || onto_wire() {
                    let ttl = packet.routing_ttl_mut();
                    *ttl = ttl.saturating_sub(1);
                    if *ttl == 0 {
                        self.drop_packet(now, Some(node), None, packet, DropReason::TtlExpired);
                        return;
                    }
                }
                self.transmit(now, iface, next_hop, packet);
            }
            Routed::Deliver(packet) => self.deliver_locally(now, node, in_iface, packet),
            Routed::Held => {}
            Routed::Consumed(packet) => {
                self.accounting.delivered += 1;
                self.accounting.delivered_by_kind[packet.kind().index()] += 1;
                self.spend(packet);
            }
            Routed::Drop(packet, why) => self.drop_packet(now, Some(node), None, packet, why),
        }
    }

    /// The packet is for `node`: leave a tunnel, or hand it to the agent on its port.
    fn deliver_locally(
        &mut self,
        now: SimTime,
        node: NodeId,
        in_iface: Option<IfaceId>,
        mut packet: Packet,
    ) {
        // ns-2.35's AODV and DSDV count an IP header on the packets they originate for
        // agents (`Header::RoutingIpCopy`); ns-2 leaves it in the size the agent sees, so
        // its `r AGT` line counts it, but ternsim's agents get the packet without it.
        let ip_copy = packet.remove_routing_ip_copy();
        if packet.decapsulate().is_some() {
            // Tunnel exit: route the inner packet as if it had arrived here.
            let (routing, ctx) = self.nodes[node.ix()].routing_ctx(node);
            let routed = match in_iface {
                Some(i) => routing.route_input(now, &ctx, i, packet),
                None => routing.route_output(now, &ctx, packet),
            };
            self.drain_dsr_log(node);
            self.apply(now, node, in_iface, routed);
            return;
        }
        // A DV update is for the node's DV agent, which the world runs.
        let packet = if self.dv.is_some() {
            match self.dv_receive(now, node, packet) {
                Some(p) => p,
                None => return,
            }
        } else {
            packet
        };
        let Some(agent) = self.nodes[node.ix()].agent(packet.ports.dst) else {
            self.drop_packet(now, Some(node), None, packet, DropReason::NoAgent);
            return;
        };
        // A detached agent's port leads to ns-2's null agent (`Node::detach`).
        let (f, side) = match agent {
            Agent::TcpSender(f) | Agent::UdpSource(f) | Agent::PingSource(f) => {
                (f, AgentSide::Source)
            }
            Agent::TcpSink(f) | Agent::UdpSink(f) | Agent::PingSink(f) => (f, AgentSide::Sink),
        };
        if self.flows[f as usize].detached[side as usize] {
            self.absorb(&packet);
            return;
        }
        self.tap_deliver(now, node, &packet, ip_copy);
        self.accounting.delivered += 1;
        self.accounting.delivered_by_kind[packet.kind().index()] += 1;
        match (agent, &packet.payload) {
            (Agent::TcpSink(f), Payload::TcpData(seg)) => self.deliver_data(now, f as usize, seg),
            (Agent::TcpSender(f), Payload::TcpAck(ack)) => self.deliver_ack(now, f as usize, ack),
            (Agent::TcpSender(f) | Agent::TcpSink(f), Payload::FullTcp(s)) => {
                self.deliver_full(now, f as usize, side, s)
            }
            (Agent::UdpSink(f), Payload::Udp(d)) => {
                self.deliver_datagram(now, f as usize, packet.size, d)
            }
            (Agent::PingSource(f) | Agent::PingSink(f), Payload::Ping(e)) => {
                self.deliver_echo(now, f as usize, side, e)
            }
            // Anything else reaching an agent (a datagram on a TCP port) is consumed there,
            // as a real agent would discard it.
            _ => {}
        }
        self.spend(packet);
    }

    /// `packet` has ended: its allocation is kept for a new packet, up to a few.
    pub(super) fn spend(&mut self, packet: Packet) {
        if self.spent_packets.len() < super::SPENT_PACKETS_KEPT {
            self.spent_packets.push(packet);
        }
    }

    /// Hands `packet` to interface `iface` for `next_hop` and moves what results.
    #[inline(always)]
    pub(super) fn transmit(
        &mut self,
        now: SimTime,
        iface: IfaceId,
        next_hop: Addr,
        packet: Packet,
    ) {
        if let Payload::Control(msg) = &packet.payload {
            *self.control_tx.entry(msg.kind()).or_insert(0) += 1;
        }
        self.enter_device(now, iface, next_hop, packet, 0);
    }

    /// Hands `packet` to the device of `iface` past its first `from` drop stages before the
    /// queue (0: all of them judge it).
    fn enter_device(
        &mut self,
        now: SimTime,
        iface: IfaceId,
        next_hop: Addr,
        mut packet: Packet,
        from: usize,
    ) {
        let device = self.ifaces[iface.ix()].device;
        let d = device as usize;
        // A drop stage before the queue (ns-2's loss module at the link's head) judges the
        // packet before the enqueue trace sees it.
        if let Some(wire) = self.devices[d].wired_mut() {
            match wire.stage_verdict(DropPoint::Enqueue, &mut packet, from) {
                StageVerdict::Pass => {}
                StageVerdict::Lose { traced } => {
                    let node = self.ifaces[iface.ix()].node;
                    self.stage_drop(now, node, iface, packet, traced);
                    return;
                }
                StageVerdict::Hold { delay, resume } => {
                    let at = HeldAt::Enqueue { iface, next_hop };
                    self.hold(now + delay, at, resume, packet);
                    return;
                }
            }
            if self.fast_wired {
                // The lean path: no capture (so no transmit tap), no device traces.
                self.offer_to_wire(now, device, packet);
                return;
            }
        }
        self.tap_transmit(now, iface, next_hop, &packet);
        let exact = self.exact_now(now);
        let port = self.ifaces[iface.ix()].port;
        let mut out = self.iface_out_pool.pop().unwrap_or_default();
        self.devices[d].submit(now, exact, port, packet, next_hop, &mut out);
        self.drain_device(now, device, out);
    }

    /// Hands `packet` to wired direction `device` on the lean path ([`World::fast_wired`]):
    /// what `drain_device` would do with the output of `submit`, straight from the outcome
    /// (a drop, or the wake-ups of a transmission that started).
    #[inline(always)]
    fn offer_to_wire(&mut self, now: SimTime, device: u32, packet: Packet) {
        let d = device as usize;
        let exact = self.exact_now(now);
        let Some(wire) = self.devices[d].wired_mut() else {
            unreachable!("the lean path is taken for wired directions only");
        };
        // A transmission whose end was left unscheduled and has passed: settled now, before
        // the link is used, as its end event would have done.
        if let Some((key, _)) = self.lazy_done[d] {
            if key < self.sched.now_key() {
                wire.settle_transmission();
                self.lazy_done[d] = None;
                self.sched.count_settled(1);
            }
        }
        let offered = wire.offer(now, exact, packet);
        let waits = wire.waiting() > 0;
        match offered {
            Offered::Dropped(packet, why) => {
                // Charged to the sending interface, which wired direction `d` is.
                let iface = IfaceId(device);
                let node = self.ifaces[iface.ix()].node;
                self.drop_packet(now, Some(node), Some(iface), packet, why);
            }
            Offered::Queued => {}
            Offered::Started(wakes) => {
                if let Some((at, tag, exact)) = wakes.arrival {
                    self.schedule_wired_wake(device, at, tag, exact);
                }
                let (at, tag, exact) = wakes.done;
                self.schedule_wired_wake(device, at, tag, exact);
            }
        }
        if waits {
            // A packet waits behind the transmission: its end must run at its time.
            if let Some((key, tag)) = self.lazy_done[d].take() {
                self.sched
                    .schedule_reserved(key, Event::IfaceWake { device, tag });
            }
        }
    }

    /// Keeps `packet` until `at_time`, when it comes back at `at` past `resume` stages.
    fn hold(&mut self, at_time: SimTime, at: HeldAt, resume: usize, packet: Packet) {
        let held = HeldPacket { at, resume, packet };
        let slot = match self.held_free.pop() {
            Some(k) => {
                self.held[k as usize] = Some(held);
                k
            }
            None => {
                self.held.push(Some(held));
                (self.held.len() - 1) as u32
            }
        };
        self.sched.schedule(at_time, Event::StageRelease(slot));
    }

    /// A held packet's time has come: it goes on from where its stage held it.
    pub(super) fn release_held(&mut self, now: SimTime, slot: u32) {
        let Some(h) = self.held[slot as usize].take() else {
            return;
        };
        self.held_free.push(slot);
        match h.at {
            HeldAt::Enqueue { iface, next_hop } => {
                self.enter_device(now, iface, next_hop, h.packet, h.resume)
            }
            HeldAt::Arrival { device, port } => {
                self.leave_wire(now, device, port, h.packet, h.resume)
            }
        }
    }

    pub(super) fn on_device_wake(&mut self, now: SimTime, device: u32, tag: u32) {
        if self.fast_wired {
            if let Some(wire) = self.devices[device as usize].wired_mut() {
                // What `drain_device` would do with the output of `on_wake`, straight from
                // what the wake-up did: an arrival goes on to the far end; the end of a
                // transmission drops the packet lost on the wire, then schedules the next
                // transmission's wake-ups, as `drain_device` moves drops before wake-ups.
                match wire.wake(now, tag) {
                    Woken::Arrival(packet) => self.leave_wire(now, device, 0, packet, 0),
                    Woken::TxEnded { next, lost } => {
                        if let Some(packet) = lost {
                            // Charged to the sending interface, which wired direction
                            // `device` is.
                            let iface = IfaceId(device);
                            let node = self.ifaces[iface.ix()].node;
                            let why = DropReason::ChannelError;
                            self.drop_packet(now, Some(node), Some(iface), packet, why);
                        }
                        if let Some(wakes) = next {
                            if let Some((at, tag, exact)) = wakes.arrival {
                                self.schedule_wired_wake(device, at, tag, exact);
                            }
                            let (at, tag, exact) = wakes.done;
                            self.schedule_wired_wake(device, at, tag, exact);
                        }
                    }
                    Woken::Nothing => {}
                }
                return;
            }
        }
        let mut out = self.iface_out_pool.pop().unwrap_or_default();
        self.devices[device as usize].on_wake(now, tag, &mut out);
        self.drain_device(now, device, out);
    }

    /// Moves what a device call outside `transmit`/`on_wake` produced (a link going down).
    pub(super) fn drain_device_output(&mut self, now: SimTime, device: u32, out: Box<IfaceOutput>) {
        self.drain_device(now, device, out);
    }

    /// Schedules a wake-up wired direction `device` asked for (the lean wired path). Its
    /// exact time rounds to its nanoseconds (`WiredDirection::transmit`), so it is
    /// scheduled without the check.
    #[inline(always)]
    fn schedule_wired_wake(&mut self, device: u32, at: SimTime, tag: u32, exact: f64) {
        let d = device as usize;
        if tag & crate::net::wired::LAZY != 0 {
            // An end of transmission the world settles itself: its place in the queue is
            // reserved (`Scheduler::reserve_exact`), nothing is scheduled.
            let key = self.sched.reserve_fitted(at, exact);
            self.lazy_done[d] = Some((key, tag & !crate::net::wired::LAZY));
            return;
        }
        let event = Event::IfaceWake { device, tag };
        if WiredDirection::is_arrival_tag(tag) {
            self.sched
                .schedule_in_lane_fitted(self.device_lanes[d], at, exact, event);
        } else {
            self.sched.schedule_fitted(at, exact, event);
        }
    }

    /// Drops, transmit failures and arrivals of one device call, then its wake-ups. The
    /// buffer set is this call's own (taken from the pool), so it is drained in place while
    /// the world handles each item; the rare kinds are skipped when empty.
    pub(super) fn drain_device(&mut self, now: SimTime, device: u32, mut out: Box<IfaceOutput>) {
        let d = device as usize;
        // The MAC lines of this call first: its frames went on the air before any packet it
        // hands over is handled.
        if self.capture.as_deref().is_some_and(|c| c.wants_mac_log()) {
            self.drain_mac_log(d);
        }
        // Most calls produce one wake or one arrival and nothing else: each rare kind is
        // tested for emptiness before a drain is set up (a `Drain` costs even when empty).
        if !out.drops.is_empty() {
            self.drain_device_drops(now, device, &mut out);
        }
        if let Some(c) = self.capture.as_deref_mut() {
            c.submitter = None;
        }
        if self.capture.is_some() {
            self.capture_tx_starts(d);
        }
        if !out.tx_failures.is_empty() {
            self.drain_tx_failures(now, device, &mut out);
        }
        // Tested element by element: comparing the array with a zero array is a call to
        // `memcmp`, on every device call.
        if out.copies.iter().any(|&n| n != 0) {
            for (kind, n) in out.copies.iter().enumerate() {
                self.accounting.created += n;
                self.accounting.created_by_kind[kind] += n;
            }
            out.copies = [0; PacketKind::ALL.len()];
        }
        if !out.overheard.is_empty() {
            self.drain_overheard(now, d, &mut out);
        }
        if !out.arrivals.is_empty() {
            for (port, packet) in out.arrivals.drain(..) {
                self.leave_wire(now, device, port, packet, 0);
            }
        }
        self.devices[d].rearm(&mut out);
        if matches!(self.devices[d], super::Device::Wired { .. }) {
            for &(at, tag, exact) in &out.wakes {
                let event = Event::IfaceWake { device, tag };
                // A wired direction's arrivals come in time order: the device's lane of
                // the event queue (`crate::sim::scheduler`).
                if WiredDirection::is_arrival_tag(tag) {
                    self.sched
                        .schedule_in_lane_exact(self.device_lanes[d], at, exact, event);
                } else {
                    self.sched.schedule_exact(at, exact, event);
                }
            }
        } else {
            // An 802.11 channel or a bearer asks to be woken at `at` exactly
            // (`exact_of(at)`), which the queue's fitting would give back unchanged: the
            // rounding that checks it, once per 802.11 event, is skipped.
            for &(at, tag, exact) in &out.wakes {
                debug_assert_eq!(exact.to_bits(), exact_of(at).to_bits());
                self.sched
                    .schedule_fitted(at, exact, Event::IfaceWake { device, tag });
            }
        }
        out.wakes.clear();
        if self.device_traces {
            self.devices[d].drain_traces(&self.link_names, &mut self.traces);
        }
        debug_assert!(out.is_empty());
        self.iface_out_pool.push(out);
    }

    /// A packet leaves the wire of `device` at `port`, past the first `from` drop stages at
    /// the far end. Always inlined: every arrival of a wired run comes here from the event
    /// loop, and the call cost a tenth of the function's work.
    #[inline(always)]
    fn leave_wire(
        &mut self,
        now: SimTime,
        device: u32,
        port: u16,
        mut packet: Packet,
        from: usize,
    ) {
        let d = device as usize;
        // A drop stage at the far end (ns-2's `link-lossmodel`, after the delay) judges the
        // packet before the receive trace sees it.
        if let Some(wire) = self.devices[d].wired_mut() {
            match wire.stage_verdict(DropPoint::Arrival, &mut packet, from) {
                StageVerdict::Pass => {}
                StageVerdict::Lose { traced } => {
                    let sender = IfaceId(device);
                    let node = self.ifaces[sender.ix()].node;
                    self.stage_drop(now, node, sender, packet, traced);
                    return;
                }
                StageVerdict::Hold { delay, resume } => {
                    let at = HeldAt::Arrival { device, port };
                    self.hold(now + delay, at, resume, packet);
                    return;
                }
            }
        }
        let iface = self.arrival_iface[d][port as usize];
        self.tap_arrival(now, d, iface, &packet);
        self.receive(now, iface, packet);
    }

    fn drain_device_drops(&mut self, now: SimTime, device: u32, out: &mut IfaceOutput) {
        let d = device as usize;
        let submitter = self.capture.as_deref_mut().and_then(|c| c.submitter.take());
        for (packet, why) in out.drops.drain(..) {
            // A drop inside a device is charged to the interface that submitted the packet:
            // the sending side of a wired direction or of a bearer.
            let iface = match &self.devices[d] {
                // Wired direction `d` is the sending interface `d` (links come first).
                super::Device::Wired { .. } => Some(IfaceId(device)),
                // An 802.11 drop (interface queue full, a broadcast nobody heard) is counted
                // per station by the channel (`WifiStats`); the packet does not say which.
                super::Device::Bearer(_) | super::Device::Wifi(_) => None,
            };
            let mut node = iface.map(|i| self.ifaces[i.ix()].node);
            let mut at = now;
            if let (super::Device::Wifi(w), DropReason::IfqOverflow) = (&mut self.devices[d], why) {
                // Traced runs: the station and time the channel recorded for the drop.
                if let Some(k) = w.ifq_drop_sites.iter().position(|x| x.0 == packet.uid) {
                    let (_, port, t) = w.ifq_drop_sites.swap_remove(k);
                    node = Some(self.ifaces[self.arrival_iface[d][usize::from(port)].ix()].node);
                    at = SimTime(t);
                }
            }
            if let Some(c) = self.capture.as_deref_mut() {
                c.submitter = submitter;
            }
            self.drop_packet(at, node, iface, packet, why);
        }
    }

    /// Packet capture sees each wired transmission start (the time it went on the wire).
    fn capture_tx_starts(&mut self, d: usize) {
        let starts = self.devices[d]
            .wired_mut()
            .map(|w| std::mem::take(&mut w.tx_starts))
            .unwrap_or_default();
        for (at, p) in &starts {
            self.tap_tx_start(*at, d, p);
        }
    }

    /// Takes the packets waiting in `iface`'s queue for `next_hop` back out, as transmit
    /// failures (routing's `reclaim_queued`); returns the device and its output to drain.
    fn reclaim_queued(
        &mut self,
        now: SimTime,
        iface: IfaceId,
        next_hop: Addr,
    ) -> (u32, Box<IfaceOutput>) {
        let (device, port) = {
            let i = &self.ifaces[iface.ix()];
            (i.device, i.port)
        };
        let mut dev_out = self.iface_out_pool.pop().unwrap_or_default();
        self.devices[device as usize].reclaim_queued(now, port, next_hop, &mut dev_out);
        (device, dev_out)
    }

    fn drain_tx_failures(&mut self, now: SimTime, device: u32, out: &mut IfaceOutput) {
        // The ports whose MAC waits for routing's answer before it takes its next packet:
        // resumed once every failure of this call was handled (with DSR, the packets queued
        // for the lost hop come back first: `reclaim_queued`).
        let mut ports: Vec<u16> = Vec::new();
        // What routing sends in answer (DSR's salvaged packets and route error, AODV's
        // error): ns-2's agents hand it to the link layer through a zero-delay event
        // (`Scheduler::schedule(ll, p, 0)`), so it reaches the interface queue after the MAC
        // has discarded the failed packet and taken its next one. Drops and queue purges
        // happen in the callback itself.
        // Each with the failure it answers, which the trace still needs (a DSR route error's
        // first line shows the failed frame's MAC header).
        let mut answers: Vec<(NodeId, RoutingOutput, Option<super::capture::TxFailed>)> =
            Vec::new();
        let mut failures: VecDeque<TxFailure> = out.tx_failures.drain(..).collect();
        while let Some(failure) = failures.pop_front() {
            if !ports.contains(&failure.port) {
                ports.push(failure.port);
            }
            let Some(iface) = self
                .ifaces
                .iter()
                .position(|i| i.device == device && i.port == failure.port)
                .map(|i| IfaceId(i as u32))
            else {
                continue;
            };
            let node = self.ifaces[iface.ix()].node;
            if let (Some(c), super::Device::Wifi(w)) =
                (self.capture.as_deref_mut(), &self.devices[device as usize])
            {
                c.note_tx_failed(super::capture::TxFailed {
                    uid: failure.packet.uid,
                    cause: failure.cause,
                    duration_us: w.data_duration_us(),
                    hop: failure.next_hop,
                });
                self.note_handed_back(node, failure.packet.uid, failure.next_hop);
            }
            let mut rout = RoutingOutput::default();
            let (routing, ctx) = self.nodes[node.ix()].routing_ctx(node);
            routing.on_tx_failure(
                now,
                &ctx,
                iface,
                failure.next_hop,
                failure.cause,
                failure.packet,
                &mut rout,
            );
            self.drain_dsr_log(node);
            let answer = RoutingOutput {
                send: std::mem::take(&mut rout.send),
                control: std::mem::take(&mut rout.control),
                ..RoutingOutput::default()
            };
            let reclaim = std::mem::take(&mut rout.reclaim_queued);
            self.drain_routing(now, node, rout);
            let failed = self.capture.as_deref_mut().and_then(|c| c.tx_failed.take());
            if !answer.is_empty() {
                answers.push((node, answer, failed));
            }
            // The packets routing takes back out of this device's queue are handled next,
            // in queue order, before any other failure (ns-2 DSR salvages them inside
            // `xmitFailed`); another device's go through its own drain.
            for (iface, next_hop) in reclaim {
                let (d, mut dev_out) = self.reclaim_queued(now, iface, next_hop);
                if d == device {
                    for f in dev_out.tx_failures.drain(..).rev() {
                        failures.push_front(f);
                    }
                }
                self.drain_device(now, d, dev_out);
            }
        }
        for port in ports {
            let mut dev_out = self.iface_out_pool.pop().unwrap_or_default();
            self.devices[device as usize].resume_after_tx_failure(now, port, &mut dev_out);
            self.drain_device(now, device, dev_out);
        }
        for (node, answer, failed) in answers {
            if let Some(c) = self.capture.as_deref_mut() {
                c.tx_failed = failed;
            }
            self.drain_routing(now, node, answer);
            if let Some(c) = self.capture.as_deref_mut() {
                c.tx_failed = None;
            }
        }
    }

    fn drain_overheard(&mut self, now: SimTime, d: usize, out: &mut IfaceOutput) {
        for (port, packet) in out.overheard.drain(..) {
            let iface = self.arrival_iface[d][port as usize];
            let node = self.ifaces[iface.ix()].node;
            let mut rout = RoutingOutput::default();
            let (routing, ctx) = self.nodes[node.ix()].routing_ctx(node);
            routing.on_overheard(now, &ctx, iface, &packet, &mut rout);
            if !rout.is_empty() {
                self.drain_routing(now, node, rout);
            }
            self.arm_routing(node);
            // Read: the channel keeps the copy to take its next one.
            if let super::Device::Wifi(w) = &mut self.devices[d] {
                w.recycle(packet);
            }
        }
    }

    /// Sends, originates and drops what a routing protocol produced.
    pub(super) fn drain_routing(&mut self, now: SimTime, node: NodeId, out: RoutingOutput) {
        for (packet, why) in out.drops {
            self.drop_packet(now, Some(node), None, packet, why);
        }
        for (iface, next_hop) in out.purge_queued {
            let (device, port) = {
                let i = &self.ifaces[iface.ix()];
                (i.device, i.port)
            };
            let mut dev_out = self.iface_out_pool.pop().unwrap_or_default();
            // The packets the purge drops are this node's (the trace's drop lines name it).
            if let Some(c) = self.capture.as_deref_mut() {
                c.submitter = Some(node);
            }
            self.devices[device as usize].purge_queued(now, port, next_hop, &mut dev_out);
            self.drain_device(now, device, dev_out);
        }
        // Outside a transmit failure (where `drain_tx_failures` takes them first): the
        // packets handed back go through the device's own drain.
        for (iface, next_hop) in out.reclaim_queued {
            let (device, dev_out) = self.reclaim_queued(now, iface, next_hop);
            self.drain_device(now, device, dev_out);
        }
        for (packet, iface, next_hop) in out.send {
            self.transmit(now, iface, next_hop, packet);
        }
        for send in out.control {
            let (packet, via) = self.control_packet(now, send);
            match via {
                Some((iface, next_hop)) => self.transmit(now, iface, next_hop, packet),
                None => self.originate(now, node, packet),
            }
        }
        self.arm_routing(node);
    }

    /// The packet a control message becomes (counted as created): IP header + message body,
    /// plus the source route when the protocol gave one (pushed as a header, so its size
    /// counts); and where it goes.
    fn control_packet(
        &mut self,
        now: SimTime,
        send: ControlSend,
    ) -> (Packet, Option<(IfaceId, Addr)>) {
        let ControlSend {
            msg,
            src,
            dst,
            via,
            source_route,
            passes_on,
        } = send;
        let size = crate::net::packet::IP_HEADER_BYTES + msg.body_bytes();
        // A message passing on a received packet is that packet in ns-2: its uid, and the
        // MAC header it arrived with.
        let mut packet = self.make_packet(
            now,
            None,
            (src, dst),
            Ports::default(),
            size,
            Payload::Control(msg),
            passes_on.map(|from| from.ns2_uid),
        );
        if let Some(sr) = source_route {
            packet.push_header(Header::SourceRoute(sr));
        }
        if let Some(from) = passes_on {
            self.keep_mac_header(from.uid, packet.uid);
        }
        (packet, via)
    }

    /// Starts every node's routing protocol (a proactive one arms its first update).
    pub(super) fn start_routing(&mut self, now: SimTime) {
        for i in 0..self.nodes.len() {
            let node = NodeId(i as u32);
            let (routing, ctx) = self.nodes[i].routing_ctx(node);
            routing.start(now, &ctx);
            self.arm_routing(node);
        }
    }

    /// Inlined with its test: it follows every routing decision, and a wired run of static
    /// routes without hold buffers never has a routing timer to arm.
    #[inline]
    pub(super) fn arm_routing(&mut self, node: NodeId) {
        if self.routing_timers {
            self.arm_routing_timer(node);
        }
    }

    fn arm_routing_timer(&mut self, node: NodeId) {
        let n = &mut self.nodes[node.ix()];
        let deadline = n.routing.next_timer();
        n.routing_wake
            .request(&mut self.sched, deadline, Event::RoutingTimer(node.0));
    }

    pub(super) fn on_routing_timer(&mut self, now: SimTime, node: NodeId) {
        let n = &mut self.nodes[node.ix()];
        n.routing_wake.fired(now);
        if n.routing.next_timer().is_some_and(|t| t <= now) {
            let mut out = RoutingOutput::default();
            n.routing.on_timer(now, &mut out);
            self.drain_dsr_log(node);
            self.drain_routing(now, node, out);
        } else {
            self.arm_routing(node);
        }
    }

    /// Recomputes every static routing table over the edges that are up and installs them;
    /// held packets that now have a route leave at once.
    pub(super) fn recompute_static_routes(&mut self, now: SimTime) {
        // Only static routing and DSDV base stations take a table (the loop below skips
        // every other node). Without them there is nothing to compute: a MANET of n nodes
        // would otherwise build an n × n table (16 MB at 1000 nodes) to throw away.
        if !self.nodes.iter().any(|n| takes_static_table(&n.routing)) {
            return;
        }
        let n = self.nodes.len();
        let table = if self.reroute {
            shortest_paths(n, &self.edges, &self.explicit_routes)
        } else {
            // ns-2.35: the routes over every link; those through a downed interface go below.
            let all_up: Vec<_> = self
                .edges
                .iter()
                .map(|e| crate::routing::static_routes::Edge { up: true, ..*e })
                .collect();
            shortest_paths(n, &all_up, &self.explicit_routes)
        };
        for (node, row) in table.iter().enumerate() {
            if !takes_static_table(&self.nodes[node].routing) {
                continue;
            }
            let base_station = matches!(self.nodes[node].routing, RoutingProtocol::Dsdv(_));
            let routes: Vec<Option<Route>> = self
                .addr_owner
                .iter()
                .map(|owner| {
                    let dst = (*owner)?;
                    let dst = self.home_network[dst.ix()].unwrap_or(dst);
                    let (edge, next) = row[dst.ix()]?;
                    let e = &self.edges[edge];
                    let iface = if e.a.ix() == node {
                        e.a_iface
                    } else {
                        e.b_iface
                    };
                    if !self.reroute && !self.ifaces[iface.ix()].up {
                        return None;
                    }
                    Some(Route {
                        iface,
                        next_hop: self.nodes[next.ix()].primary(),
                    })
                })
                .collect();
            if base_station {
                if let RoutingProtocol::Dsdv(d) = &mut self.nodes[node].routing {
                    d.set_wired_routes(routes);
                }
                continue;
            }
            let mut out = RoutingOutput::default();
            let RoutingProtocol::Static(s) = &mut self.nodes[node].routing else {
                continue;
            };
            s.set_table(routes, &mut out);
            if !out.is_empty() {
                self.drain_routing(now, NodeId(node as u32), out);
            }
        }
    }

    /// A packet a drop stage of wired interface `iface` lost: a traced drop, or one the
    /// packet trace does not see (the stage's drops go elsewhere) but the counts do.
    fn stage_drop(&mut self, now: SimTime, node: NodeId, iface: IfaceId, p: Packet, traced: bool) {
        if traced {
            self.drop_packet(now, Some(node), Some(iface), p, DropReason::ChannelError);
        } else {
            self.account_drop(now, Some(node), Some(iface), p, DropReason::ChannelError);
        }
    }

    pub(super) fn drop_packet(
        &mut self,
        now: SimTime,
        node: Option<NodeId>,
        iface: Option<IfaceId>,
        packet: Packet,
        why: DropReason,
    ) {
        self.tap_drop(now, node, iface, &packet, why);
        self.account_drop(now, node, iface, packet, why);
    }

    /// The counts and the `drops` trace of a drop, without the packet trace.
    fn account_drop(
        &mut self,
        now: SimTime,
        node: Option<NodeId>,
        iface: Option<IfaceId>,
        packet: Packet,
        why: DropReason,
    ) {
        self.accounting.dropped[why.index()] += 1;
        self.accounting.dropped_by_kind[packet.kind().index()] += 1;
        if let Some(flow) = packet.flow.and_then(|f| self.flows.get_mut(f as usize)) {
            flow.stats.dropped_packets += 1;
            if let (super::FlowAgents::Udp(u), Payload::Udp(_)) =
                (&mut flow.agents, &packet.payload)
            {
                u.stats.on_dropped();
            }
        }
        if let Some(t) = self.traces.drops.as_mut() {
            let node_name = node.map_or("", |n| self.nodes[n.ix()].name.as_str());
            let iface_name = iface.map_or("", |i| self.ifaces[i.ix()].name.as_str());
            t.push(
                now.as_secs_f64(),
                node_name,
                iface_name,
                why.name(),
                packet.flow.map_or(-1, i64::from),
                packet.kind().name(),
                packet.trace_seq(),
            );
        }
        self.spend(packet);
    }
}

/// Whether a node's routing installs the static routes [`World::recompute_static_routes`]
/// computes: static routing itself, and a DSDV base station (its routes to the wired side).
fn takes_static_table(routing: &RoutingProtocol) -> bool {
    match routing {
        RoutingProtocol::Static(_) => true,
        RoutingProtocol::Dsdv(d) => d.subnet().is_some_and(|s| s.is_base_station()),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::control::ControlMessage;
    use crate::net::packet::{PacketKind, SourceRoute};

    const PAIR: &str = r#"
name = "pair"
duration = "1s"
[[nodes]]
name = "a"
[[nodes]]
name = "b"
[[links]]
a = "a"
b = "b"
rate = "10Mbps"
delay = "1ms"
"#;

    /// The wired conformance case (one NewReno flow, a drop-tail bottleneck that overflows)
    /// run to its end, its summary as JSON without the wall time; `general`: every lean path
    /// off (wired calls through `drain_device`, transmission ends scheduled, and the senders'
    /// packets sent through the traced loop of `after_sender`, the segments trace on).
    fn wired_run(general: bool) -> serde_json::Value {
        let text = include_str!("../../../../scenarios/conformance/wired.toml");
        let mut sc = crate::scenario::from_toml(text).unwrap();
        sc.traces.segments = general;
        let mut w = World::build(&sc, 1);
        if general {
            w.fast_wired = false;
            w.set_lazy_tx(false);
        }
        w.run_until(
            sc.duration,
            super::super::end_exact(sc.duration),
            &mut |_, _| {},
        );
        let mut summary = serde_json::to_value(w.finish(&sc, 1, 0.0).summary).unwrap();
        summary["wall_seconds"] = serde_json::Value::Null;
        summary
    }

    /// The lean paths (`offer_to_wire`, the untraced send loop of `after_sender`) change the
    /// world as the general ones do: the same events, packets, drops, flow and link counts.
    #[test]
    fn lean_wired_paths_run_as_the_general_paths() {
        let lean = wired_run(false);
        assert!(
            lean["packets"]["dropped"].as_u64().unwrap() > 0,
            "the queue overflows"
        );
        assert_eq!(lean, wired_run(true));
    }

    /// A DSR route reply listing 2 addresses (body round4(5 + 8) = 16) sent from b to a with
    /// source route b,a (4 + 4 = 8 octets): 20 + 16 + 8 = 44 bytes, the header on the packet;
    /// without a source route 20 + 16 = 36. Each counts as a created control packet.
    #[test]
    fn a_control_send_with_a_source_route_carries_the_header() {
        let sc = crate::scenario::from_toml(PAIR).unwrap();
        let mut w = World::build(&sc, 1);
        let (a, b) = (Addr::nth(0), Addr::nth(1));
        let msg = ControlMessage::DsrRouteReply {
            route: vec![a, b],
            request_id: 0,
            ttl: 255,
        };
        let body = msg.body_bytes();
        assert_eq!(body, 16);
        let send = ControlSend {
            msg: msg.clone(),
            src: b,
            dst: a,
            via: Some((IfaceId(1), a)),
            source_route: Some(SourceRoute {
                path: vec![b, a],
                next: 1,
                salvaged: 0,
                ..SourceRoute::default()
            }),
            passes_on: None,
        };
        let (p, via) = w.control_packet(SimTime::ZERO, send);
        assert_eq!((p.size, via), (20 + 16 + 8, Some((IfaceId(1), a))));
        assert_eq!(p.source_route().unwrap().path, vec![b, a]);
        assert_eq!(p.routing_header().dst, a);
        let plain = ControlSend {
            msg,
            src: b,
            dst: a,
            via: None,
            source_route: None,
            passes_on: None,
        };
        let (p, _) = w.control_packet(SimTime::ZERO, plain);
        assert_eq!((p.size, p.headers.len()), (36, 0));
        assert_eq!(w.accounting.created_by_kind[PacketKind::Control.index()], 2);
    }
}
