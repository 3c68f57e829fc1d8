//! The world: builds the network of a resolved scenario and runs its event loop.
//!
//! The world owns every component in arenas (`nodes`, `links`, `flows`) addressed by index,
//! and events are plain values addressed to an index. Protocol state machines never see the
//! world: it hands them `now` and a segment and routes what they return.
//!
//! Packet accounting: every packet created ends delivered to an agent, dropped with a
//! [`DropReason`], or still held by a link or a bearer when the run ends;
//! `RunSummary::packets` proves it.
//!
//! Files: this one builds the world, runs the loop and forwards packets; [`agents`] drives
//! the TCP senders, sinks and applications; [`bearers`] drives the UMTS radio bearers;
//! [`summary`] turns the final state into the run summary.

mod agents;
mod bearers;
mod summary;

pub use summary::{BearerSummary, FlowSummary, LinkSummary, PacketSummary, RunOutput, RunSummary};

use std::collections::HashMap;
use std::time::Instant;

use crate::app::{ByteToPacket, FtpBulk};
use crate::net::packet::{DropReason, IpHeader, Packet, Payload};
use crate::net::routing::StaticRoutes;
use crate::net::wired::{Enqueued, WiredDirection};
use crate::net::Interface;
use crate::scenario::{ResolvedFlow, ResolvedScenario};
use crate::sim::{RandomStream, Scheduler, SimTime};
use crate::tcp::{SinkOutput, TcpOutput, TcpSender, TcpSink};
use crate::trace::{Cell, FlowStats, RunningStats, TraceSet};
use crate::umts::{BearerOutput, RadioBearer, SduId, Side};

const DEFAULT_TTL: u8 = 64;

#[derive(Clone, Copy, Debug)]
enum Event {
    /// A wired link direction finished serialising its current packet.
    TxDone(u32),
    /// The oldest packet in a wired link direction's pipe reaches the far node.
    Arrive(u32),
    SenderTimer(u32),
    SinkTimer(u32),
    FlowStart(u32),
    FlowStop(u32),
    /// The trace-driven application of a flow writes its next record.
    AppWrite(u32),
    /// A radio bearer has something due (TTI boundary, block arrival, RLC timer).
    BearerWake(u32),
}

/// When a component (a TCP agent, a radio bearer) will be woken: the earliest wake-up
/// event already in the queue for it. Components only report deadlines; the world schedules
/// an event unless one is pending at or before the deadline. A wake-up that finds the
/// deadline moved later simply re-arms, so stale events are harmless.
#[derive(Clone, Copy, Debug, Default)]
struct Wake {
    pending: Option<SimTime>,
}

impl Wake {
    /// The wake-up event scheduled for `now` fired.
    fn fired(&mut self, now: SimTime) {
        if self.pending == Some(now) {
            self.pending = None;
        }
    }

    /// Schedules `event` at `deadline` unless a wake-up at or before it is pending.
    fn request(&mut self, sched: &mut Scheduler<Event>, deadline: Option<SimTime>, event: Event) {
        if let Some(t) = deadline {
            if self.pending.is_none_or(|p| t < p) {
                self.pending = Some(t);
                sched.schedule(t, event);
            }
        }
    }
}

/// A radio bearer and the packets inside it. The bearer sees only SDU ids and sizes; the
/// packets themselves wait here until the bearer delivers or discards their SDU.
struct BearerRuntime {
    bearer: RadioBearer,
    ue: usize,
    rnc: usize,
    wake: Wake,
    /// Packets inside the bearer by SDU id, with the time they entered.
    sdus: HashMap<SduId, (Packet, SimTime)>,
    next_sdu: SduId,
    /// SDU delay across the bearer, per direction (0 = downlink, 1 = uplink).
    sdu_delay: [RunningStats; 2],
}

struct FlowRuntime {
    spec: ResolvedFlow,
    sender: TcpSender,
    sink: TcpSink,
    sender_wake: Wake,
    sink_wake: Wake,
    stats: FlowStats,
    /// Trace-driven application: index of the next write, and the byte-to-packet count.
    next_write: usize,
    app_packets: ByteToPacket,
}

#[derive(Default, Clone, Copy)]
struct Accounting {
    created: u64,
    delivered: u64,
    dropped: [u64; DropReason::ALL.len()],
}

/// Runs `scenario` with `seed` to its end.
pub fn run(scenario: &ResolvedScenario, seed: u64) -> RunOutput {
    let wall = Instant::now();
    let mut world = World::build(scenario, seed);
    world.run_until(scenario.duration);
    world.finish(scenario, seed, wall.elapsed().as_secs_f64())
}

struct World {
    sched: Scheduler<Event>,
    routes: StaticRoutes,
    /// `links[2 i]` is link i's a→b direction, `links[2 i + 1]` its b→a direction.
    links: Vec<WiredDirection>,
    link_ends: Vec<(usize, usize)>,
    bearers: Vec<BearerRuntime>,
    bearer_out: BearerOutput,
    flows: Vec<FlowRuntime>,
    traces: TraceSet,
    accounting: Accounting,
    next_uid: u64,
    tcp_out: TcpOutput,
    sink_out: SinkOutput,
}

impl World {
    fn build(sc: &ResolvedScenario, seed: u64) -> Self {
        let mut links = Vec::with_capacity(sc.links.len() * 2);
        for l in &sc.links {
            for (from, to, error, dir) in [
                (l.a, l.b, &l.error_a_to_b, "a_to_b"),
                (l.b, l.a, &l.error_b_to_a, "b_to_a"),
            ] {
                let rng = RandomStream::named(seed, &format!("link/{}/{dir}/error", l.name));
                links.push(WiredDirection::new(
                    from,
                    to,
                    l.rate_bps,
                    l.delay,
                    l.queue,
                    error.clone(),
                    rng,
                ));
            }
        }
        let bearers = sc
            .bearers
            .iter()
            .map(|b| BearerRuntime {
                bearer: RadioBearer::new(
                    b.cfg,
                    b.down_error.clone(),
                    b.up_error.clone(),
                    RandomStream::named(seed, &format!("bearer/{}/downlink/error", b.name)),
                    RandomStream::named(seed, &format!("bearer/{}/uplink/error", b.name)),
                ),
                ue: b.ue,
                rnc: b.rnc,
                wake: Wake::default(),
                sdus: HashMap::new(),
                next_sdu: 0,
                sdu_delay: [RunningStats::default(); 2],
            })
            .collect();
        let bearer_out = BearerOutput {
            trace: sc.traces.rlc || sc.traces.rlc_buffer,
            ..BearerOutput::default()
        };
        let mut sched = Scheduler::new();
        let mut flows = Vec::with_capacity(sc.flows.len());
        for (i, f) in sc.flows.iter().enumerate() {
            let mut rng = RandomStream::named(seed, &format!("flow/{}/tcp", f.name));
            // ns-2 draws a per-agent "boot time" in [0, tick) that phases its RTT clock.
            let tick = f.tcp.rto.tick.as_nanos();
            let phase = SimTime(rng.below(tick.max(1)));
            let mut sender = TcpSender::new(f.tcp, phase);
            sender.set_app_packets(match &f.app_trace {
                Some(_) => Some(0),
                None => FtpBulk { bytes: f.app_bytes }.packets(f.tcp.packet_size),
            });
            flows.push(FlowRuntime {
                spec: f.clone(),
                sender,
                sink: TcpSink::new(f.sink),
                sender_wake: Wake::default(),
                sink_wake: Wake::default(),
                stats: FlowStats::default(),
                next_write: 0,
                app_packets: ByteToPacket::default(),
            });
            sched.schedule(f.start, Event::FlowStart(i as u32));
            // Scheduled after the start, so a write at offset 0 finds the sender started.
            if let Some(writes) = &f.app_trace {
                sched.schedule(f.start + writes[0].at, Event::AppWrite(i as u32));
            }
            if let Some(stop) = f.stop {
                sched.schedule(stop, Event::FlowStop(i as u32));
            }
        }
        let tcp_out = TcpOutput {
            trace: sc.traces.cwnd || sc.traces.rto || sc.traces.tcp_events,
            ..TcpOutput::default()
        };
        World {
            sched,
            routes: sc.routes.clone(),
            links,
            link_ends: sc.links.iter().map(|l| (l.a, l.b)).collect(),
            bearers,
            bearer_out,
            flows,
            traces: TraceSet::from_spec(&sc.traces),
            accounting: Accounting::default(),
            next_uid: 0,
            tcp_out,
            sink_out: SinkOutput::default(),
        }
    }

    fn run_until(&mut self, end: SimTime) {
        while let Some(t) = self.sched.peek_time() {
            if t > end {
                break;
            }
            let (now, event) = self.sched.pop().expect("peeked event");
            match event {
                Event::TxDone(d) => self.on_tx_done(now, d as usize),
                Event::Arrive(d) => {
                    let packet = self.links[d as usize].arrive();
                    let to = self.links[d as usize].to;
                    self.receive(now, to, packet);
                }
                Event::SenderTimer(f) => self.on_sender_timer(now, f as usize),
                Event::SinkTimer(f) => self.on_sink_timer(now, f as usize),
                Event::FlowStart(f) => {
                    let f = f as usize;
                    self.tcp_out.clear();
                    self.flows[f].sender.start(now, &mut self.tcp_out);
                    self.after_sender(now, f);
                }
                Event::FlowStop(f) => self.flows[f as usize].sender.stop_new_data(),
                Event::AppWrite(f) => self.on_app_write(now, f as usize),
                Event::BearerWake(b) => self.on_bearer_wake(now, b as usize),
            }
        }
    }

    // ---- links and forwarding -------------------------------------------------------------

    /// The interface `node` uses to reach its next hop towards `dst`.
    fn interface_towards(&self, node: usize, dst: usize) -> Option<Interface> {
        let hop = self.routes.next_hop(node, dst)?;
        if hop.link >= self.link_ends.len() {
            let bearer = hop.link - self.link_ends.len();
            let side = if node == self.bearers[bearer].ue {
                Side::Ue
            } else {
                Side::Rnc
            };
            return Some(Interface::Bearer { bearer, side });
        }
        let (a, _) = self.link_ends[hop.link];
        let dir = if node == a {
            2 * hop.link
        } else {
            2 * hop.link + 1
        };
        Some(Interface::Wired(dir))
    }

    /// `node` sends `packet` towards the destination of its routing header.
    fn forward(&mut self, now: SimTime, node: usize, packet: Packet) {
        let dst = packet.routing_header().dst;
        match self.interface_towards(node, dst) {
            None => self.drop_packet(now, None, packet, DropReason::NoRoute),
            Some(Interface::Wired(d)) => {
                let result = self.links[d].enqueue(now, packet);
                match result {
                    Enqueued::Transmitting(done) => {
                        self.sched.schedule(done, Event::TxDone(d as u32));
                        self.trace_queue(now, d, "enqueue");
                    }
                    Enqueued::Queued => self.trace_queue(now, d, "enqueue"),
                    Enqueued::Dropped(p) => {
                        self.drop_packet(now, Some(d), *p, DropReason::QueueOverflow)
                    }
                }
            }
            Some(Interface::Bearer { bearer, side }) => {
                let br = &mut self.bearers[bearer];
                let id = br.next_sdu;
                br.next_sdu += 1;
                if br.bearer.submit(now, side, id, packet.size) {
                    br.sdus.insert(id, (packet, now));
                    self.arm_bearer(bearer);
                } else {
                    self.drop_packet(now, None, packet, DropReason::RlcBufferOverflow);
                }
            }
        }
    }

    fn on_tx_done(&mut self, now: SimTime, d: usize) {
        let done = self.links[d].transmission_done(now);
        if let Some(at) = done.arrival {
            self.sched.schedule(at, Event::Arrive(d as u32));
        }
        if let Some(next) = done.next_done {
            self.sched.schedule(next, Event::TxDone(d as u32));
            self.trace_queue(now, d, "dequeue");
        }
        if let Some(p) = done.corrupted {
            self.drop_packet(now, Some(d), *p, DropReason::ChannelError);
        }
    }

    /// A packet reaches `node`.
    fn receive(&mut self, now: SimTime, node: usize, mut packet: Packet) {
        if packet.routing_header().dst != node {
            let ttl = match packet.outer.last_mut() {
                Some(h) => &mut h.ttl,
                None => &mut packet.ip.ttl,
            };
            *ttl = ttl.saturating_sub(1);
            if *ttl == 0 {
                self.drop_packet(now, None, packet, DropReason::TtlExpired);
            } else {
                self.forward(now, node, packet);
            }
            return;
        }
        if !packet.outer.is_empty() {
            // Tunnel endpoint: strip the outer header and handle the inner packet here.
            packet.decapsulate();
            self.receive(now, node, packet);
            return;
        }
        self.accounting.delivered += 1;
        let f = packet.flow as usize;
        match packet.payload {
            Payload::TcpData(seg) => self.deliver_data(now, f, &seg),
            Payload::TcpAck(ack) => self.deliver_ack(now, f, &ack),
        }
    }

    fn drop_packet(&mut self, now: SimTime, link: Option<usize>, packet: Packet, why: DropReason) {
        self.accounting.dropped[why.index()] += 1;
        if let Some(flow) = self.flows.get_mut(packet.flow as usize) {
            flow.stats.dropped_packets += 1;
        }
        if let Some(t) = self.traces.drops.as_mut() {
            let seq = match packet.payload {
                Payload::TcpData(s) => s.seq,
                Payload::TcpAck(a) => a.ack,
            };
            t.push(&[
                Cell::F(now.as_secs_f64()),
                Cell::I(link.map_or(-1, |l| l as i64)),
                Cell::S(why.name()),
                Cell::I(i64::from(packet.flow)),
                Cell::I(seq),
            ]);
        }
        if why == DropReason::QueueOverflow {
            if let Some(d) = link {
                self.trace_queue(now, d, "drop");
            }
        }
    }

    fn trace_queue(&mut self, now: SimTime, d: usize, what: &str) {
        if let Some(t) = self.traces.queues.as_mut() {
            t.push(&[
                Cell::F(now.as_secs_f64()),
                Cell::I(d as i64),
                Cell::I(self.links[d].queue_len() as i64),
                Cell::S(what),
            ]);
        }
    }

    fn new_packet(
        &mut self,
        now: SimTime,
        flow: usize,
        src: usize,
        dst: usize,
        size: u32,
        payload: Payload,
    ) -> Packet {
        self.accounting.created += 1;
        self.next_uid += 1;
        Packet {
            uid: self.next_uid,
            flow: flow as u32,
            ip: IpHeader {
                src,
                dst,
                ttl: DEFAULT_TTL,
            },
            outer: Vec::new(),
            size,
            created: now,
            payload,
        }
    }
}
