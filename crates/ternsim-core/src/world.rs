//! The world: builds the network of a resolved scenario and runs its event loop.
//!
//! The world owns every component in arenas (`nodes`, `links`, `flows`) addressed by index,
//! and events are plain values addressed to an index. Protocol state machines never see the
//! world: it hands them `now` and a segment and routes what they return.
//!
//! Packet accounting: every packet created ends delivered to an agent, dropped with a
//! [`DropReason`], or still held by a link when the run ends; `RunSummary::packets` proves it.

use std::collections::HashMap;
use std::time::Instant;

use serde::Serialize;

use crate::app::{ByteToPacket, FtpBulk};
use crate::net::packet::{DropReason, IpHeader, Packet, Payload};
use crate::net::routing::StaticRoutes;
use crate::net::wired::{Enqueued, WiredDirection};
use crate::net::Interface;
use crate::scenario::{ResolvedFlow, ResolvedScenario};
use crate::sim::{RandomStream, Scheduler, SimTime};
use crate::tcp::{AckSegment, DataSegment, SinkOutput, TcpEvent, TcpOutput, TcpSender, TcpSink};
use crate::trace::{Cell, FlowStats, RunningStats, Table, TraceSet};
use crate::umts::{BearerEvent, BearerOutput, Direction, RadioBearer, SduId, Side};

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

/// A radio bearer and the packets inside it. The bearer sees only SDU ids and sizes; the
/// packets themselves wait here until the bearer delivers or discards their SDU.
struct BearerRuntime {
    bearer: RadioBearer,
    ue: usize,
    rnc: usize,
    armed: Option<SimTime>,
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
    /// Time of the earliest pending timer event for the sender / sink, if any.
    sender_armed: Option<SimTime>,
    sink_armed: Option<SimTime>,
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

/// One flow's results (definitions in `crate::trace::flow_stats`).
#[derive(Clone, Debug, Serialize)]
pub struct FlowSummary {
    pub name: String,
    pub tcp: String,
    pub src: String,
    pub dst: String,
    pub start_s: f64,
    pub stop_s: f64,
    pub throughput_bps: f64,
    pub goodput_bps: f64,
    pub delivered_bytes: u64,
    pub segments_sent: u64,
    pub retransmitted_segments: u64,
    pub timeouts: u64,
    pub fast_retransmits: u64,
    pub spurious_timeouts: u64,
    pub redundant_retransmissions: u64,
    pub dropped_packets: u64,
    pub mean_cwnd: Option<f64>,
    pub max_cwnd: f64,
    pub rtt_samples: u64,
    pub rtt_min_s: Option<f64>,
    pub rtt_mean_s: Option<f64>,
    pub rtt_max_s: Option<f64>,
    pub delay_mean_s: Option<f64>,
    pub jitter_s: Option<f64>,
}

/// One link direction's counters.
#[derive(Clone, Debug, Serialize)]
pub struct LinkSummary {
    pub name: String,
    pub direction: String,
    pub packets_sent: u64,
    pub bytes_sent: u64,
    pub drops_queue: u64,
    pub drops_error: u64,
    /// Fraction of the run the transmitter was busy.
    pub utilization: f64,
}

/// One bearer direction's counters.
#[derive(Clone, Debug, Serialize)]
pub struct BearerSummary {
    pub name: String,
    /// `downlink` (RNC to UE) or `uplink`.
    pub direction: String,
    pub transport_blocks: u64,
    pub block_errors: u64,
    pub data_pdus: u64,
    pub retransmitted_pdus: u64,
    pub polls: u64,
    pub status_pdus: u64,
    pub sdus_delivered: u64,
    pub sdus_discarded: u64,
    pub sdus_refused: u64,
    pub bytes_delivered: u64,
    pub sdu_delay_mean_s: Option<f64>,
    pub sdu_delay_max_s: Option<f64>,
}

/// Where every packet ended.
#[derive(Clone, Debug, Serialize)]
pub struct PacketSummary {
    pub created: u64,
    pub delivered: u64,
    pub dropped: u64,
    pub in_flight: u64,
    pub drops_by_reason: std::collections::BTreeMap<String, u64>,
    /// created == delivered + dropped + in_flight, with in_flight counted in the queues.
    pub balanced: bool,
}

#[derive(Clone, Debug, Serialize)]
pub struct RunSummary {
    pub scenario: String,
    pub seed: u64,
    pub version: String,
    pub sim_seconds: f64,
    pub wall_seconds: f64,
    pub events: u64,
    pub flows: Vec<FlowSummary>,
    pub links: Vec<LinkSummary>,
    pub bearers: Vec<BearerSummary>,
    pub packets: PacketSummary,
}

/// What a run returns: the summary and the traces the scenario asked for.
pub struct RunOutput {
    pub summary: RunSummary,
    pub tables: Vec<Table>,
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
                armed: None,
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
                sender_armed: None,
                sink_armed: None,
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

    // ---- radio bearers ----------------------------------------------------------------------

    fn arm_bearer(&mut self, b: usize) {
        let br = &mut self.bearers[b];
        if let Some(t) = br.bearer.next_event() {
            if br.armed.is_none_or(|a| t < a) {
                br.armed = Some(t);
                self.sched.schedule(t, Event::BearerWake(b as u32));
            }
        }
    }

    fn on_bearer_wake(&mut self, now: SimTime, b: usize) {
        let br = &mut self.bearers[b];
        if br.armed == Some(now) {
            br.armed = None;
        }
        if br.bearer.next_event().is_none_or(|t| t > now) {
            self.arm_bearer(b);
            return;
        }
        let mut out = std::mem::take(&mut self.bearer_out);
        out.clear();
        br.bearer.advance(now, &mut out);
        for (at, e) in &out.events {
            self.trace_bearer_event(*at, b, e);
        }
        for &(side, id) in &out.discarded {
            if let Some((packet, _)) = self.bearers[b].sdus.remove(&id) {
                let _ = side;
                self.drop_packet(now, None, packet, DropReason::RlcDiscard);
            }
        }
        let delivered = std::mem::take(&mut out.delivered);
        self.bearer_out = out;
        for &(side, id) in &delivered {
            let br = &mut self.bearers[b];
            let Some((packet, entered)) = br.sdus.remove(&id) else {
                continue;
            };
            let delay = (now - entered).as_secs_f64();
            let (node, dir) = match side {
                Side::Ue => (br.ue, 0),
                Side::Rnc => (br.rnc, 1),
            };
            br.sdu_delay[dir].add(delay);
            if let Some(t) = self.traces.sdu_delay.as_mut() {
                t.push(&[
                    Cell::F(now.as_secs_f64()),
                    Cell::I(b as i64),
                    Cell::S(if dir == 0 { "downlink" } else { "uplink" }),
                    Cell::I(i64::from(packet.size)),
                    Cell::F(delay),
                ]);
            }
            self.receive(now, node, packet);
        }
        self.bearer_out.delivered = delivered;
        self.arm_bearer(b);
    }

    fn trace_bearer_event(&mut self, at: SimTime, b: usize, e: &BearerEvent) {
        let t = at.as_secs_f64();
        let bi = b as i64;
        let dir_name = |d: Direction| match d {
            Direction::Down => "downlink",
            Direction::Up => "uplink",
        };
        let side_name = |s: Side| match s {
            Side::Rnc => "rnc",
            Side::Ue => "ue",
        };
        if let (BearerEvent::BufferOccupancy { side, bytes }, Some(tb)) =
            (e, self.traces.rlc_buffer.as_mut())
        {
            tb.push(&[
                Cell::F(t),
                Cell::I(bi),
                Cell::S(side_name(*side)),
                Cell::I(*bytes as i64),
            ]);
            return;
        }
        let Some(tb) = self.traces.rlc.as_mut() else {
            return;
        };
        // (direction, event, sn, retransmission, poll, nacks)
        let row: (&str, &str, i64, bool, bool, i64) = match e {
            BearerEvent::PduSent {
                dir,
                sn,
                retransmission,
                poll,
            } => (dir_name(*dir), "pdu", *sn as i64, *retransmission, *poll, 0),
            BearerEvent::StatusSent { dir, status } => (
                dir_name(*dir),
                "status_sent",
                status.lsn.map_or(-1, |s| s as i64),
                false,
                false,
                status.nacks.len() as i64,
            ),
            BearerEvent::StatusReceived { dir, status } => (
                dir_name(*dir),
                "status_received",
                status.lsn.map_or(-1, |s| s as i64),
                false,
                false,
                status.nacks.len() as i64,
            ),
            BearerEvent::BlockError { dir, sn } => (
                dir_name(*dir),
                "block_error",
                sn.map_or(-1, |s| s as i64),
                false,
                false,
                0,
            ),
            BearerEvent::PollTimerExpired { side } => (
                dir_name(side.tx_direction()),
                "poll_timer_expired",
                -1,
                false,
                false,
                0,
            ),
            BearerEvent::SduDiscarded { side, sdu } => (
                dir_name(side.tx_direction()),
                "sdu_discarded",
                *sdu as i64,
                false,
                false,
                0,
            ),
            BearerEvent::BufferOccupancy { .. } => return,
        };
        tb.push(&[
            Cell::F(t),
            Cell::I(bi),
            Cell::S(row.0),
            Cell::S(row.1),
            Cell::I(row.2),
            Cell::B(row.3),
            Cell::B(row.4),
            Cell::I(row.5),
        ]);
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

    // ---- TCP agents -------------------------------------------------------------------------

    fn deliver_data(&mut self, now: SimTime, f: usize, seg: &DataSegment) {
        let flow = &mut self.flows[f];
        flow.stats
            .data_arrival(seg.wire_bytes, (now - seg.sent_at).as_secs_f64());
        if seg.retransmission {
            if flow.sink.has_received(seg.seq) {
                flow.stats.redundant_retransmissions += 1;
            }
        } else if let Some(i) = flow
            .stats
            .pending_timeouts
            .iter()
            .position(|&s| s == seg.seq)
        {
            // The original of a timed-out segment arrived: the timeout was spurious.
            flow.stats.pending_timeouts.swap_remove(i);
            flow.stats.spurious_timeouts += 1;
            if let Some(t) = self.traces.tcp_events.as_mut() {
                t.push(&[
                    Cell::F(now.as_secs_f64()),
                    Cell::I(f as i64),
                    Cell::S("spurious_timeout"),
                    Cell::I(seg.seq),
                ]);
            }
        }
        self.sink_out.clear();
        flow.sink.on_segment(now, seg, &mut self.sink_out);
        self.after_sink(now, f);
    }

    fn deliver_ack(&mut self, now: SimTime, f: usize, ack: &AckSegment) {
        let flow = &mut self.flows[f];
        let syn_ack = ack.echo_seq == 0 && flow.spec.tcp.packet0_is_syn();
        if ack.ack > flow.sender.highest_ack() && !syn_ack {
            let rtt = (now - ack.echo_sent_at).as_secs_f64();
            flow.stats.rtt.add(rtt);
            if let Some(t) = self.traces.rtt.as_mut() {
                t.push(&[
                    Cell::F(now.as_secs_f64()),
                    Cell::I(f as i64),
                    Cell::I(ack.echo_seq),
                    Cell::F(rtt),
                ]);
            }
        }
        if let Some(t) = self.traces.acks.as_mut() {
            t.push(&[
                Cell::F(now.as_secs_f64()),
                Cell::I(f as i64),
                Cell::I(ack.ack),
                Cell::I(i64::from(ack.n_sack)),
            ]);
        }
        self.tcp_out.clear();
        flow.sender.on_ack(now, ack, &mut self.tcp_out);
        self.after_sender(now, f);
    }

    fn on_app_write(&mut self, now: SimTime, f: usize) {
        let flow = &mut self.flows[f];
        let Some(writes) = flow.spec.app_trace.as_ref() else {
            return;
        };
        let write = writes[flow.next_write];
        flow.next_write += 1;
        if let Some(next) = writes.get(flow.next_write) {
            self.sched
                .schedule(flow.spec.start + next.at, Event::AppWrite(f as u32));
        }
        let more = flow
            .app_packets
            .write(write.bytes, flow.spec.tcp.packet_size);
        self.tcp_out.clear();
        flow.sender.add_app_packets(now, more, &mut self.tcp_out);
        self.after_sender(now, f);
    }

    fn on_sender_timer(&mut self, now: SimTime, f: usize) {
        let flow = &mut self.flows[f];
        if flow.sender_armed == Some(now) {
            flow.sender_armed = None;
        }
        if flow.sender.next_timer().is_some_and(|t| t <= now) {
            self.tcp_out.clear();
            flow.sender.on_timer(now, &mut self.tcp_out);
            self.after_sender(now, f);
        } else {
            self.arm_sender(f);
        }
    }

    fn on_sink_timer(&mut self, now: SimTime, f: usize) {
        let flow = &mut self.flows[f];
        if flow.sink_armed == Some(now) {
            flow.sink_armed = None;
        }
        if flow.sink.next_timer().is_some_and(|t| t <= now) {
            self.sink_out.clear();
            flow.sink.on_timer(now, &mut self.sink_out);
            self.after_sink(now, f);
        } else {
            self.arm_sink(f);
        }
    }

    /// Schedules a wake-up for the sender's earliest deadline unless one is already pending
    /// at or before it. Later stale wake-ups are harmless: the handler checks the deadline.
    fn arm_sender(&mut self, f: usize) {
        let flow = &mut self.flows[f];
        if let Some(t) = flow.sender.next_timer() {
            if flow.sender_armed.is_none_or(|a| t < a) {
                flow.sender_armed = Some(t);
                self.sched.schedule(t, Event::SenderTimer(f as u32));
            }
        }
    }

    fn arm_sink(&mut self, f: usize) {
        let flow = &mut self.flows[f];
        if let Some(t) = flow.sink.next_timer() {
            if flow.sink_armed.is_none_or(|a| t < a) {
                flow.sink_armed = Some(t);
                self.sched.schedule(t, Event::SinkTimer(f as u32));
            }
        }
    }

    /// Routes what the sender produced during the last call.
    fn after_sender(&mut self, now: SimTime, f: usize) {
        let (src, dst) = (self.flows[f].spec.src, self.flows[f].spec.dst);
        let cwnd = self.flows[f].sender.cwnd();
        self.flows[f].stats.cwnd_now(now, cwnd);
        let segments = std::mem::take(&mut self.tcp_out.segments);
        for seg in &segments {
            if let Some(t) = self.traces.segments.as_mut() {
                t.push(&[
                    Cell::F(now.as_secs_f64()),
                    Cell::I(f as i64),
                    Cell::I(seg.seq),
                    Cell::I(i64::from(seg.wire_bytes)),
                    Cell::B(seg.retransmission),
                ]);
            }
            let p = self.new_packet(now, f, src, dst, seg.wire_bytes, Payload::TcpData(*seg));
            self.forward(now, src, p);
        }
        self.tcp_out.segments = segments;
        if !self.tcp_out.events.is_empty() {
            let events = std::mem::take(&mut self.tcp_out.events);
            for e in &events {
                self.trace_tcp_event(now, f, e);
            }
            self.tcp_out.events = events;
        }
        self.arm_sender(f);
    }

    fn trace_tcp_event(&mut self, now: SimTime, f: usize, e: &TcpEvent) {
        let t = now.as_secs_f64();
        let fi = f as i64;
        match *e {
            TcpEvent::Window { cwnd, ssthresh } => {
                if let Some(tb) = self.traces.cwnd.as_mut() {
                    tb.push(&[Cell::F(t), Cell::I(fi), Cell::F(cwnd), Cell::F(ssthresh)]);
                }
            }
            TcpEvent::Rto {
                srtt_s,
                rttvar_s,
                rto_s,
            } => {
                if let Some(tb) = self.traces.rto.as_mut() {
                    tb.push(&[
                        Cell::F(t),
                        Cell::I(fi),
                        Cell::F(srtt_s),
                        Cell::F(rttvar_s),
                        Cell::F(rto_s),
                    ]);
                }
            }
            TcpEvent::Timeout { seq } => {
                if let Some(tb) = self.traces.tcp_events.as_mut() {
                    tb.push(&[Cell::F(t), Cell::I(fi), Cell::S("timeout"), Cell::I(seq)]);
                }
                let flow = &mut self.flows[f];
                if flow.sink.has_received(seq) {
                    flow.stats.spurious_timeouts += 1;
                    if let Some(tb) = self.traces.tcp_events.as_mut() {
                        tb.push(&[
                            Cell::F(t),
                            Cell::I(fi),
                            Cell::S("spurious_timeout"),
                            Cell::I(seq),
                        ]);
                    }
                } else if !flow.stats.pending_timeouts.contains(&seq) {
                    flow.stats.pending_timeouts.push(seq);
                }
            }
            TcpEvent::FastRetransmit { seq } => {
                if let Some(tb) = self.traces.tcp_events.as_mut() {
                    tb.push(&[
                        Cell::F(t),
                        Cell::I(fi),
                        Cell::S("fast_retransmit"),
                        Cell::I(seq),
                    ]);
                }
            }
            TcpEvent::RttSample { .. } => {}
        }
    }

    /// Routes what the sink produced during the last call.
    fn after_sink(&mut self, now: SimTime, f: usize) {
        let (src, dst) = (self.flows[f].spec.src, self.flows[f].spec.dst);
        {
            let flow = &mut self.flows[f];
            flow.stats.delivered_bytes += self.sink_out.delivered_bytes;
            if let Some(total) = flow.spec.app_bytes {
                if flow.stats.completed_at.is_none() && flow.stats.delivered_bytes >= total {
                    flow.stats.completed_at = Some(now);
                }
            }
        }
        let acks = std::mem::take(&mut self.sink_out.acks);
        for ack in &acks {
            let p = self.new_packet(now, f, dst, src, ack.wire_bytes, Payload::TcpAck(*ack));
            self.forward(now, dst, p);
        }
        self.sink_out.acks = acks;
        self.arm_sink(f);
    }

    // ---- results ----------------------------------------------------------------------------

    fn finish(self, sc: &ResolvedScenario, seed: u64, wall_seconds: f64) -> RunOutput {
        let end = sc.duration;
        let flows = self
            .flows
            .iter()
            .map(|fl| {
                let spec = &fl.spec;
                let stop = spec.stop.map_or(end, |s| s.min(end));
                let active_end = fl.stats.completed_at.map_or(stop, |c| c.min(stop));
                let active = active_end.saturating_sub(spec.start).as_secs_f64();
                let per_s = |bits: f64| if active > 0.0 { bits / active } else { 0.0 };
                let st = fl.sender.stats();
                let delivered = match spec.app_bytes {
                    Some(total) => fl.stats.delivered_bytes.min(total),
                    None => fl.stats.delivered_bytes,
                };
                FlowSummary {
                    name: spec.name.clone(),
                    tcp: spec.tcp.variant.name().to_string(),
                    src: sc.nodes[spec.src].name.clone(),
                    dst: sc.nodes[spec.dst].name.clone(),
                    start_s: spec.start.as_secs_f64(),
                    stop_s: active_end.as_secs_f64(),
                    throughput_bps: per_s(fl.stats.data_wire_bytes_received as f64 * 8.0),
                    goodput_bps: per_s(delivered as f64 * 8.0),
                    delivered_bytes: delivered,
                    segments_sent: st.segments_sent,
                    retransmitted_segments: st.retransmissions,
                    timeouts: st.timeouts,
                    fast_retransmits: st.fast_retransmits,
                    spurious_timeouts: fl.stats.spurious_timeouts,
                    redundant_retransmissions: fl.stats.redundant_retransmissions,
                    dropped_packets: fl.stats.dropped_packets,
                    max_cwnd: fl.stats.max_cwnd,
                    rtt_samples: fl.stats.rtt.n,
                    mean_cwnd: fl.stats.mean_cwnd(spec.start, active_end),
                    rtt_min_s: fl.stats.rtt.min(),
                    rtt_mean_s: fl.stats.rtt.mean(),
                    rtt_max_s: fl.stats.rtt.max(),
                    delay_mean_s: fl.stats.delay.mean(),
                    jitter_s: fl.stats.jitter.mean(),
                }
            })
            .collect();
        let duration_s = end.as_secs_f64();
        let links = self
            .links
            .iter()
            .enumerate()
            .map(|(d, l)| LinkSummary {
                name: sc.links[d / 2].name.clone(),
                direction: if d % 2 == 0 { "a_to_b" } else { "b_to_a" }.to_string(),
                packets_sent: l.stats.packets_sent,
                bytes_sent: l.stats.bytes_sent,
                drops_queue: l.stats.drops_queue,
                drops_error: l.stats.drops_error,
                utilization: l.stats.busy.as_secs_f64().min(duration_s) / duration_s,
            })
            .collect();
        let mut bearers = Vec::with_capacity(self.bearers.len() * 2);
        for (b, br) in self.bearers.iter().enumerate() {
            let st = br.bearer.stats();
            for (dir, d, name) in [(0, st.down, "downlink"), (1, st.up, "uplink")] {
                bearers.push(BearerSummary {
                    name: sc.bearers[b].name.clone(),
                    direction: name.to_string(),
                    transport_blocks: d.tbs,
                    block_errors: d.tb_errors,
                    data_pdus: d.data_pdus,
                    retransmitted_pdus: d.retransmissions,
                    polls: d.polls,
                    status_pdus: d.status_pdus,
                    sdus_delivered: d.sdus_delivered,
                    sdus_discarded: d.sdus_discarded,
                    sdus_refused: d.sdus_refused,
                    bytes_delivered: d.bytes_delivered,
                    sdu_delay_mean_s: br.sdu_delay[dir].mean(),
                    sdu_delay_max_s: br.sdu_delay[dir].max(),
                });
            }
        }
        let in_flight: u64 = self
            .links
            .iter()
            .map(|l| l.packets_held() as u64)
            .sum::<u64>()
            + self
                .bearers
                .iter()
                .map(|b| b.sdus.len() as u64)
                .sum::<u64>();
        let dropped: u64 = self.accounting.dropped.iter().sum();
        let drops_by_reason = DropReason::ALL
            .iter()
            .filter(|r| self.accounting.dropped[r.index()] > 0)
            .map(|r| (r.name().to_string(), self.accounting.dropped[r.index()]))
            .collect();
        let packets = PacketSummary {
            created: self.accounting.created,
            delivered: self.accounting.delivered,
            dropped,
            in_flight,
            drops_by_reason,
            balanced: self.accounting.created == self.accounting.delivered + dropped + in_flight,
        };
        RunOutput {
            summary: RunSummary {
                scenario: sc.name.clone(),
                seed,
                version: crate::VERSION.to_string(),
                sim_seconds: duration_s,
                wall_seconds,
                events: self.sched.events_executed(),
                flows,
                links,
                bearers,
                packets,
            },
            tables: self.traces.into_tables(),
        }
    }
}
