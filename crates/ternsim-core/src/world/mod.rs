//! The world: builds the network of a resolved scenario and runs its event loop.
//!
//! The world owns every part in arenas addressed by typed ids: nodes (each with its
//! addresses, interfaces, routing protocol instance, mobility model and transport agents),
//! interfaces and the devices behind them, flows. Events are plain values addressed to an
//! id. The world moves packets between these parts and the event queue and knows no
//! protocol: state machines are handed `now` and what arrived, and the world routes what they
//! return.
//!
//! Packet accounting: every packet created ends delivered to an agent, dropped with a
//! [`DropReason`], or still held by an interface or a routing protocol when the run ends;
//! `RunSummary::packets` proves it, in total and by packet kind.
//!
//! Files: this one builds the world and runs the loop; [`node`] has nodes and interfaces;
//! [`device`] the interface kinds; [`forwarding`] moves packets between agents, routing and
//! interfaces; [`agents`] drives the TCP senders, sinks and applications; [`udp`] the UDP
//! sources and sinks; [`events`] the scheduled topology and flow events; [`summary`] turns
//! the final state into the run summary.

mod agents;
mod base_station;
mod capture;
mod device;
mod dv;
mod events;
mod forwarding;
mod full_tcp;
mod mobile_ip;
mod node;
mod ping;
mod stepping;
mod summary;
mod udp;

pub use capture::{CaptureOutput, CaptureSpec};
pub use ping::PingReply;
pub use stepping::{FlowState, Simulation};
pub use summary::{
    BearerSummary, FlowSummary, LinkSummary, NodeSummary, PacketSummary, RunOutput, RunSummary,
};

use std::collections::BTreeMap;
use std::time::Instant;

use crate::app::{ByteToPacket, FtpBulk};
use crate::mobility::{pairs_within, Mobility, Position};
use crate::net::addr::{Addr, IfaceId, NodeId};
use crate::net::iface::IfaceOutput;
use crate::net::packet::{DropReason, Packet, PacketKind};
use crate::net::wired::WiredDirection;
use crate::routing::static_routes::Edge;
use crate::routing::RoutingProtocol;
use crate::scenario::{FlowTransport, ResolvedScenario};
use crate::sim::{Lane, RandomStream, Scheduler, SimTime};
use crate::tcp::{SinkOutput, TcpOutput, TcpSender, TcpSink};
use crate::trace::{FlowStats, TraceSet};
use crate::umts::RadioBearer;
use crate::wifi::{StationSpec, WifiChannel};

use device::{BearerDevice, Device, RNC_PORT, UE_PORT};
use node::{Agent, Iface, Node};
use ping::PingAgents;
use udp::UdpAgents;

/// The IP TTL of a packet an agent sends: ns-2.35's `Agent set ttl_ 32` (ns-default.tcl).
/// Routing protocols that set their own (AODV, DSR replies) do so on the way out.
const DEFAULT_TTL: u8 = 32;

/// How many ended packets the world keeps for reuse: packets end about as fast as they are
/// made, so a few suffice; more would only hold memory.
const SPENT_PACKETS_KEPT: usize = 64;

// A `u32` tag and `repr(C)` variants: an event is three aligned words that the event queue
// copies whole. With Rust's default layout (a byte tag, a `bool` or `u8` field packed next
// to it) the copies came out as overlapping 1-, 8- and 4-byte moves, and reading one back
// right after writing it stalled the processor on every pop (perf).
#[derive(Clone, Copy, Debug)]
#[repr(u32)]
enum Event {
    /// A device asked to be woken with this tag.
    IfaceWake {
        device: u32,
        tag: u32,
    },
    SenderTimer(u32),
    SinkTimer(u32),
    FlowStart(u32),
    FlowStop(u32),
    /// The trace-driven application of a flow writes its next record.
    AppWrite(u32),
    /// A UDP traffic source's next packet is due.
    UdpSend(u32),
    /// A node's routing protocol has a timer due.
    RoutingTimer(u32),
    /// The scenario's scheduled event with this index.
    Scheduled(u32),
    /// A node's Mobile IP role has a timer due.
    MipTimer(u32),
    /// A mobile node crossed the coverage edge of the agent at the other end of this radio
    /// link: the link goes up or down.
    Coverage {
        link: u32,
        up: bool,
    },
    /// A packet a drop stage held back (ns-2 `delay_pkt_`) goes on: its slot in
    /// `World::held`.
    StageRelease(u32),
    /// A ping flow's next scheduled echo request is due.
    PingDue(u32),
    /// A node's DV periodic update is due (`$ns rtproto DV`).
    DvUpdate(u32),
    /// A flow's Telnet application timer is due.
    TelnetDue(u32),
    /// A FullTcp agent's delayed-ACK timer (flow, end 0 or 1); its retransmission timer is
    /// `SenderTimer` / `SinkTimer`. Two events, so that each timer keeps the exact time
    /// it was set for.
    FullDelack(u32, u8),
}

/// The exact bound of a run that ends at `duration`: the next double above it, so that the
/// run's events are those exactly at or before `duration` (a CBR send summed to
/// 0.6000000000000001 s is after a 0.6 s run, as it is after ns-2's `$ns at 0.6 "finish"`).
fn end_exact(duration: SimTime) -> f64 {
    let d = crate::sim::scheduler::exact_of(duration);
    f64::from_bits(d.to_bits() + 1)
}

/// When a component (a TCP agent, a routing protocol) will be woken: the earliest wake-up
/// event already in the queue for it. Components only report deadlines; the world schedules
/// an event unless one is pending at or before the deadline. A wake-up that finds the
/// deadline moved later simply re-arms, so stale events are harmless.
#[derive(Clone, Copy, Debug, Default)]
pub struct Wake {
    pending: Option<SimTime>,
    /// The component's deadline as last seen, with its exact time in seconds
    /// ([`Wake::request_exact`]).
    deadline: Option<(SimTime, f64)>,
}

impl Wake {
    /// The wake-up event scheduled for `now` fired.
    fn fired(&mut self, now: SimTime) {
        if self.pending == Some(now) {
            self.pending = None;
        }
    }

    /// The component's deadline `t` falls at exactly `exact` seconds (a delay drawn as a
    /// double, as ns-2 draws `overhead_`'s): the next [`Wake::request_exact`] for `t` uses it.
    fn preset_exact(&mut self, t: SimTime, exact: f64) {
        self.deadline = Some((t, exact));
    }

    /// [`Wake::request`] with the deadline's exact time: a deadline not seen before was set
    /// in the call that just ran, at the scheduler's exact now, as ns-2's `resched(rto)`
    /// sets a timer at `clock + rto` (a TCP retransmission or delayed-ACK timer). A timeout
    /// then falls at ns-2's double, and what it sends starts from it.
    fn request_exact(
        &mut self,
        sched: &mut Scheduler<Event>,
        deadline: Option<SimTime>,
        event: Event,
    ) {
        let Some(t) = deadline else {
            return;
        };
        let exact = match self.deadline {
            Some((d, exact)) if d == t => exact,
            _ => {
                let (now, now_exact) = (sched.now(), sched.now_exact());
                let exact = if t >= now {
                    now_exact + (t - now).0 as f64 / 1e9
                } else {
                    crate::sim::scheduler::exact_of(t)
                };
                self.deadline = Some((t, exact));
                exact
            }
        };
        if self.pending.is_none_or(|p| t < p) {
            self.pending = Some(t);
            sched.schedule_exact(t, exact, event);
        }
    }

    /// Schedules `event` at `deadline` unless a wake-up at or before it is pending.
    /// Inlined: asked after every routing decision, almost always with nothing due.
    #[inline]
    fn request(&mut self, sched: &mut Scheduler<Event>, deadline: Option<SimTime>, event: Event) {
        if let Some(t) = deadline {
            if self.pending.is_none_or(|p| t < p) {
                self.pending = Some(t);
                sched.schedule(t, event);
            }
        }
    }
}

/// The TCP agents of a flow and its application.
struct TcpAgents {
    sender: TcpSender,
    sink: TcpSink,
    sender_wake: Wake,
    sink_wake: Wake,
    /// Trace-driven application: index of the next write, and the byte-to-packet count.
    next_write: usize,
    app_packets: ByteToPacket,
    started: bool,
    /// The FTP or trace application is sending (started and not stopped since); a Telnet
    /// application keeps its own ([`crate::app::Telnet`]).
    running: bool,
    /// A Telnet application (ns-2 `Application/Telnet`), with the stream its gaps draw from
    /// unless ns-2's default RNG is replayed ([`World::ns2_default_rng`]).
    telnet: Option<(crate::app::Telnet, RandomStream)>,
    /// The sender's `overhead_` delays: the flow's own stream (after its boot-time draw), or
    /// ns-2's default RNG when the host replays it ([`World::ns2_default_rng`]).
    overhead_rng: RandomStream,
    /// The delayed-send deadline and its exact time in seconds (`now_exact + delay`).
    delsnd_exact: Option<(SimTime, f64)>,
}

enum FlowAgents {
    Tcp(Box<TcpAgents>),
    Full(Box<full_tcp::FullAgents>),
    Udp(Box<UdpAgents>),
    Ping(Box<PingAgents>),
}

struct FlowRuntime {
    spec: crate::scenario::ResolvedFlow,
    src: NodeId,
    dst: NodeId,
    src_addr: Addr,
    dst_addr: Addr,
    /// The port both ends bind (flow index + 1).
    port: u16,
    /// The ports ns-2 would give the flow's two agents (source, sink), for traces that
    /// number as ns-2 does: each node numbers its agents from 0 in the order they are
    /// attached, taken here as the flow order (source before sink).
    ns2_ports: (u16, u16),
    agents: FlowAgents,
    stats: FlowStats,
    /// Whether the flow's source and sink agents were detached from their nodes during the
    /// run (ns-2 `$ns detach-agent`): what a detached agent sends, and what reaches its port,
    /// goes to ns-2's null agent, which absorbs it untraced.
    detached: [bool; 2],
}

impl FlowRuntime {
    /// End `side`'s node, its own address and its peer's: what a packet it sends carries.
    fn end(&self, side: AgentSide) -> (NodeId, Addr, Addr) {
        match side {
            AgentSide::Source => (self.src, self.src_addr, self.dst_addr),
            AgentSide::Sink => (self.dst, self.dst_addr, self.src_addr),
        }
    }
}

/// A flow's two agents: the source (TCP sender, UDP source, the first ping agent) and the
/// sink (the second ping agent).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AgentSide {
    Source = 0,
    Sink = 1,
}

#[derive(Default, Clone, Copy)]
struct Accounting {
    created: u64,
    delivered: u64,
    dropped: [u64; DropReason::ALL.len()],
    created_by_kind: [u64; PacketKind::ALL.len()],
    delivered_by_kind: [u64; PacketKind::ALL.len()],
    dropped_by_kind: [u64; PacketKind::ALL.len()],
}

/// Runs `scenario` with `seed` to its end.
pub fn run(scenario: &ResolvedScenario, seed: u64) -> RunOutput {
    run_with(scenario, seed, &CaptureSpec::default(), &mut |_, _| {})
        .expect("no capture target to resolve")
}

/// Events between two calls of a progress callback: rare enough to cost nothing per event,
/// often enough (a few times a second at millions of events per second) for a progress line.
pub const PROGRESS_EVERY_EVENTS: u64 = 1 << 18;

/// Runs `scenario` with `seed` to its end, calling `progress(now, events executed)` every
/// [`PROGRESS_EVERY_EVENTS`] events. The callback only observes: the run is the same event
/// for event as [`run`].
pub fn run_with_progress(
    scenario: &ResolvedScenario,
    seed: u64,
    progress: &mut dyn FnMut(SimTime, u64),
) -> RunOutput {
    run_with(scenario, seed, &CaptureSpec::default(), progress)
        .expect("no capture target to resolve")
}

/// Runs `scenario` with `seed`, capturing what `capture` asks for (a pcap of a flow or node,
/// an ns-2 trace) into [`RunOutput::capture`] and calling `progress` as
/// [`run_with_progress`] does. Fails before the run if the pcap target names no flow or node.
pub fn run_with(
    scenario: &ResolvedScenario,
    seed: u64,
    capture: &CaptureSpec,
    progress: &mut dyn FnMut(SimTime, u64),
) -> Result<RunOutput, String> {
    let wall = Instant::now();
    let cap = capture::Capture::new(scenario, capture)?;
    let mut world = World::build(scenario, seed);
    world.attach_capture(cap);
    world.run_until(scenario.duration, end_exact(scenario.duration), progress);
    Ok(world.finish(scenario, seed, wall.elapsed().as_secs_f64()))
}

struct World {
    sched: Scheduler<Event>,
    /// Per device, its lane in the event queue for wake-ups that come in time order.
    device_lanes: Vec<Lane>,
    nodes: Vec<Node>,
    ifaces: Vec<Iface>,
    devices: Vec<Device>,
    /// For each device, the interface a packet arriving at each of its ports reaches.
    arrival_iface: Vec<Vec<IfaceId>>,
    /// Routing graph edges (links then bearers) with their up/down state.
    edges: Vec<Edge>,
    explicit_routes: Vec<(NodeId, NodeId, NodeId)>,
    /// `[routing] reroute` (see `ResolvedScenario::reroute`).
    reroute: bool,
    /// The node holding each address, indexed by `Addr::index`.
    addr_owner: Vec<Option<NodeId>>,
    /// Per node: where routers route its addresses, if not to itself (a mobile node's home
    /// addresses are routed to its home agent's network).
    home_network: Vec<Option<NodeId>>,
    /// Per link: whether it is a Mobile IP radio link (never in the routing graph).
    radio_links: Vec<bool>,
    link_names: Vec<String>,
    flows: Vec<FlowRuntime>,
    /// ns-2's default RNG, replayed for the run when the host asks (`ternsim ns2` on a
    /// script whose draws it can follow): the Telnet applications' gaps draw from it, in
    /// event order, as the RED queues' early tests do.
    ns2_default_rng: Option<std::sync::Arc<std::sync::Mutex<crate::sim::mrg32k3a::Mrg32k3a>>>,
    events: Vec<crate::scenario::validate::ResolvedEvent>,
    traces: TraceSet,
    accounting: Accounting,
    next_uid: u64,
    /// The next `Packet::ns2_uid`: ns-2's numbering, which AODV's messages do not take.
    next_ns2_uid: u64,
    /// Output buffers for interface calls, reused; nested calls take another.
    /// Boxed so that taking one out, handing it around and putting it back moves a pointer,
    /// not the whole buffer set.
    /// Control packets handed to an interface, by message type (routing overhead).
    control_tx: BTreeMap<&'static str, u64>,
    #[allow(clippy::vec_box)] // the point: moving a buffer set is moving a pointer
    iface_out_pool: Vec<Box<IfaceOutput>>,
    /// Packets drop stages hold back until their `Event::StageRelease` (a slot is free when
    /// `None`), and the free slots.
    held: Vec<Option<forwarding::HeldPacket>>,
    held_free: Vec<u32>,
    /// Whether any device records trace rows (queue, RLC or SDU-delay traces): when not,
    /// draining a device skips the trace step.
    device_traces: bool,
    /// Whether calls into wired directions take the lean path (`enter_device` and
    /// `on_device_wake` in `forwarding`), which moves what a call did straight from its
    /// returned outcome instead of an output buffer: nothing is captured (no pcap, ns-2
    /// trace or MAC log hooks) and no device keeps trace rows, so a wired call's output is
    /// only a drop, one arrival or wake-ups.
    fast_wired: bool,
    tcp_out: TcpOutput,
    sink_out: SinkOutput,
    /// The output buffer of FullTcp calls, reused.
    full_out: crate::tcp::full::FullOutput,
    /// The traced TCP variables' changes since the host last took them (ns-2 `$tcp trace
    /// VAR`): time (and its exact seconds, as ns-2's clock reads it), flow, change, and
    /// where in the ns-2 trace text not yet taken it happened (its length then; 0 without a
    /// trace), so that a host writing both into one file can put each change between the
    /// lines ns-2 writes it between.
    var_trace: Vec<(SimTime, f64, u32, crate::tcp::VarChange, usize)>,
    /// Packets that ended (delivered or dropped), kept for their allocations: a new packet
    /// takes one (`Packet::reuse`) instead of a malloc and a free per packet.
    spent_packets: Vec<Packet>,
    /// pcap and ns-2 trace capture points, when the run asked for them.
    capture: Option<Box<capture::Capture>>,
    /// Whether ping replies are kept for the host (a stepped run whose host answers them),
    /// the replies kept, and whether the event just handled asks the run to pause.
    ping_upcalls: bool,
    ping_replies: Vec<PingReply>,
    pause_requested: bool,
    /// Per device: the reserved key and wake tag of a wired transmission end the world
    /// settles itself (`net::wired::LAZY`), if one is pending. Only in a run that nothing
    /// steps or captures, without scheduled link changes (`World::set_lazy_tx`).
    lazy_done: Vec<Option<(u128, u32)>>,
    /// Whether any node's routing protocol can ever set a timer: when none can (static
    /// routes without hold buffers), `arm_routing` has nothing to ask after a decision.
    routing_timers: bool,
    /// Wired distance-vector routing, when the scenario runs it (`[routing] protocol =
    /// "dv"`): every node's DV state; the nodes' static tables hold its routes.
    dv: Option<Box<dv::DvRouting>>,
}

impl World {
    fn build(sc: &ResolvedScenario, seed: u64) -> Self {
        // Random placements and random waypoint paths are drawn here, from the run's seed.
        let mobility: Vec<Mobility> = sc.nodes.iter().map(|n| n.mobility_for_run(seed)).collect();
        // Wired-cum-wireless: base stations routing for their subnets, or Mobile IP whose
        // last hop goes through DSDV (ns-2's wired-cum-wireless Mobile IP).
        let wired_cum_wireless =
            sc.base_stations.is_some() || sc.mobile_ip.as_ref().is_some_and(|m| m.cfg.through_dsdv);
        let mut nodes: Vec<Node> = sc
            .nodes
            .iter()
            .enumerate()
            .map(|(i, n)| Node {
                name: n.name.clone(),
                addrs: vec![Addr::nth(i as u32)],
                ifaces: Vec::new(),
                // A wired node of a wired-cum-wireless network routes statically (ns-2's
                // hierarchical routes); the nodes on the air run the scenario's protocol.
                routing: if wired_cum_wireless && !n.on_air() {
                    RoutingProtocol::Static(crate::routing::StaticRouting::new(None))
                } else {
                    RoutingProtocol::for_node(&sc.routing, seed, &n.name)
                },
                routing_wake: Wake::default(),
                mobility: mobility[i].clone(),
                agents: Vec::new(),
                mip: None,
                mip_wake: Wake::default(),
            })
            .collect();
        let addr_owner = (0..nodes.len()).map(|i| Some(NodeId(i as u32))).collect();
        let mut ifaces = Vec::new();
        let mut devices = Vec::new();
        let mut arrival_iface = Vec::new();
        let mut edges = Vec::new();
        let mut add_iface = |nodes: &mut Vec<Node>, node: usize, device: usize, port, name| {
            let id = IfaceId(ifaces.len() as u32);
            ifaces.push(Iface {
                node: NodeId(node as u32),
                device: device as u32,
                port,
                name,
                up: true,
            });
            nodes[node].ifaces.push(id);
            id
        };
        // Wired link i: device 2i is a→b (interface 2i at a), device 2i+1 is b→a.
        for (i, l) in sc.links.iter().enumerate() {
            let mut ends = [IfaceId(0); 2];
            for (d, (from, error, dir)) in [
                (l.a, &l.error_a_to_b, "a_to_b"),
                (l.b, &l.error_b_to_a, "b_to_a"),
            ]
            .into_iter()
            .enumerate()
            {
                let rng = RandomStream::named(seed, &format!("link/{}/{dir}/error", l.name));
                let queue = l.queue[d];
                let limit = queue.limit.unwrap_or(u32::MAX);
                let mut wire =
                    WiredDirection::new(l.rate_bps[d], l.delay[d], limit, error.clone(), rng);
                if queue != crate::net::wired::QueueConfig::packets(limit) {
                    let red_rng = RandomStream::named(seed, &format!("link/{}/{dir}/red", l.name));
                    wire.set_queue(queue, red_rng);
                }
                wire.trace = sc.traces.queues;
                wire.frame_time = l.frame_time;
                wire.avoid_reordering = l.avoid_reordering;
                wire.stages = l.drop_stages[d]
                    .iter()
                    .enumerate()
                    .map(|(k, st)| {
                        let rng =
                            RandomStream::named(seed, &format!("link/{}/{dir}/stage{k}", l.name));
                        crate::channel::drop_stage::DropStage::new(
                            st.point,
                            st.traced,
                            st.rules.clone(),
                            rng,
                        )
                    })
                    .collect();
                let device = devices.len();
                devices.push(Device::Wired {
                    wire,
                    link: i,
                    dir: d,
                });
                ends[d] = add_iface(&mut nodes, from, device, 0, format!("{}/{dir}", l.name));
            }
            // A packet sent on a→b arrives on b's interface of the same link, and back.
            arrival_iface.push(vec![ends[1]]);
            arrival_iface.push(vec![ends[0]]);
            edges.push(Edge {
                a: NodeId(l.a as u32),
                b: NodeId(l.b as u32),
                a_iface: ends[0],
                b_iface: ends[1],
                up: true,
            });
        }
        for b in &sc.bearers {
            let bearer = RadioBearer::new(
                b.cfg,
                b.down_error.clone(),
                b.up_error.clone(),
                RandomStream::named(seed, &format!("bearer/{}/downlink/error", b.name)),
                RandomStream::named(seed, &format!("bearer/{}/uplink/error", b.name)),
            );
            let device = devices.len();
            devices.push(Device::Bearer(Box::new(BearerDevice::new(
                bearer,
                b.name.clone(),
                sc.traces.rlc || sc.traces.rlc_buffer,
                sc.traces.sdu_delay,
            ))));
            let rnc = add_iface(
                &mut nodes,
                b.rnc,
                device,
                RNC_PORT,
                format!("{}/downlink", b.name),
            );
            let ue = add_iface(
                &mut nodes,
                b.ue,
                device,
                UE_PORT,
                format!("{}/uplink", b.name),
            );
            arrival_iface.push(vec![rnc, ue]);
            edges.push(Edge {
                a: NodeId(b.rnc as u32),
                b: NodeId(b.ue as u32),
                a_iface: rnc,
                b_iface: ue,
                up: true,
            });
        }
        if let Some(cfg) = &sc.wireless {
            // One channel; station k is the k-th positioned node, its interface `<node>/wifi`.
            let device = devices.len();
            let placed: Vec<usize> = (0..sc.nodes.len())
                .filter(|&i| mobility[i].position_at(SimTime::ZERO).is_some())
                .collect();
            let stations = placed
                .iter()
                .map(|&i| StationSpec {
                    addr: nodes[i].addrs[0],
                    mobility: nodes[i].mobility.clone(),
                    rng: RandomStream::named(seed, &format!("wifi/{}/mac", sc.nodes[i].name)),
                })
                .collect();
            // The spatial index must allow for the fastest node between re-gridings.
            let mut cfg = cfg.clone();
            let fastest = placed
                .iter()
                .map(|&i| mobility[i].max_speed_mps())
                .fold(0.0, f64::max);
            cfg.max_speed_mps = cfg.max_speed_mps.max(fastest);
            let rx_range = cfg.rx_range_m();
            let shadowing_stream = format!("wifi/shadowing/{}", cfg.radio.shadowing.seed);
            let mut channel = WifiChannel::new(cfg, stations);
            channel.set_shadowing_stream(RandomStream::named(seed, &shadowing_stream));
            if channel.config().incoming_loss.is_some() {
                channel.set_incoming_loss_streams(
                    placed
                        .iter()
                        .map(|&i| {
                            RandomStream::named(
                                seed,
                                &format!("wifi/{}/incoming", sc.nodes[i].name),
                            )
                        })
                        .collect(),
                );
            }
            channel.trace_queues = sc.traces.queues;
            channel.station_names = placed.iter().map(|&i| sc.nodes[i].name.clone()).collect();
            devices.push(Device::Wifi(Box::new(channel)));
            let mut ports = Vec::with_capacity(placed.len());
            for (k, &i) in placed.iter().enumerate() {
                let name = format!("{}/wifi", sc.nodes[i].name);
                ports.push(add_iface(&mut nodes, i, device, k as u16, name));
            }
            // Radio neighbours at the start positions, for static routing over the channel
            // (not in a wired-cum-wireless network: its static routes are the wired ones);
            // pairs are of station indices (ports), so each maps to its node and interface.
            let stations: Vec<(usize, Position)> = placed
                .iter()
                .enumerate()
                .filter_map(|(k, &i)| mobility[i].position_at(SimTime::ZERO).map(|p| (k, p)))
                .collect();
            let radio_edges = if wired_cum_wireless {
                Vec::new()
            } else {
                pairs_within(&stations, rx_range)
            };
            for (k, m) in radio_edges {
                edges.push(Edge {
                    a: NodeId(placed[k] as u32),
                    b: NodeId(placed[m] as u32),
                    a_iface: ports[k],
                    b_iface: ports[m],
                    up: true,
                });
            }
            arrival_iface.push(ports);
        }
        let mut sched = Scheduler::new();
        let mut flows = Vec::with_capacity(sc.flows.len());
        let mut agents_on_node = vec![0u16; nodes.len()];
        for (i, f) in sc.flows.iter().enumerate() {
            let port = (i + 1) as u16;
            let mut attach = |node: usize| {
                let p = agents_on_node[node];
                agents_on_node[node] += 1;
                p
            };
            let ns2_ports = (attach(f.src), attach(f.dst));
            let agents = match &f.transport {
                FlowTransport::Tcp {
                    tcp,
                    sink,
                    app_bytes,
                    app_trace,
                    telnet_interval_s,
                } => {
                    let mut rng = RandomStream::named(seed, &format!("flow/{}/tcp", f.name));
                    // ns-2 draws a per-agent "boot time" in [0, tick) that phases its RTT clock.
                    // The draw is made even when the scenario gives the phase, so the flow's
                    // stream is the same either way.
                    let tick = tcp.rto.tick.as_nanos();
                    let drawn = SimTime(rng.below(tick.max(1)));
                    let phase = tcp.rto.tick_phase.unwrap_or(drawn);
                    let mut sender = TcpSender::new(**tcp, phase);
                    // A trace-driven or Telnet application offers nothing until it writes.
                    sender.set_app_packets(match (app_trace, telnet_interval_s) {
                        (Some(_), _) | (_, Some(_)) => Some(0),
                        (None, None) => FtpBulk { bytes: *app_bytes }.packets(tcp.packet_size),
                    });
                    let telnet = telnet_interval_s.map(|s| {
                        let rng = RandomStream::named(seed, &format!("flow/{}/telnet", f.name));
                        (crate::app::Telnet::new(s), rng)
                    });
                    nodes[f.src].bind(port, Agent::TcpSender(i as u32));
                    nodes[f.dst].bind(port, Agent::TcpSink(i as u32));
                    FlowAgents::Tcp(Box::new(TcpAgents {
                        sender,
                        sink: TcpSink::new(*sink),
                        sender_wake: Wake::default(),
                        sink_wake: Wake::default(),
                        next_write: 0,
                        app_packets: ByteToPacket::default(),
                        started: false,
                        running: false,
                        telnet,
                        overhead_rng: rng,
                        delsnd_exact: None,
                    }))
                }
                FlowTransport::FullTcp {
                    a,
                    b,
                    phases,
                    app_bytes,
                    actions,
                    peer_listens,
                } => {
                    // Each agent draws its tick-clock phase (ns-2 `boot_time_`) as the
                    // one-way sender does, unless the scenario gives it.
                    let phase = |k: usize, cfg: &crate::tcp::full::FullTcpConfig| {
                        let mut rng =
                            RandomStream::named(seed, &format!("flow/{}/fulltcp{k}", f.name));
                        let drawn = SimTime(rng.below(cfg.rto.tick.as_nanos().max(1)));
                        phases[k].unwrap_or(drawn)
                    };
                    let pa = phase(0, a);
                    let pb = phase(1, b);
                    let mut peer = crate::tcp::full::FullTcpAgent::new(**b, pb);
                    if *peer_listens {
                        peer.listen();
                    }
                    nodes[f.src].bind(port, Agent::TcpSender(i as u32));
                    nodes[f.dst].bind(port, Agent::TcpSink(i as u32));
                    FlowAgents::Full(Box::new(full_tcp::FullAgents {
                        ends: [crate::tcp::full::FullTcpAgent::new(**a, pa), peer],
                        wakes: [[Wake::default(); 2]; 2],
                        started: false,
                        app_bytes: *app_bytes,
                        actions: actions.clone(),
                        next_action: 0,
                    }))
                }
                FlowTransport::Udp { traffic } => {
                    nodes[f.src].bind(port, Agent::UdpSource(i as u32));
                    nodes[f.dst].bind(port, Agent::UdpSink(i as u32));
                    let rng = RandomStream::named(seed, &format!("flow/{}/traffic", f.name));
                    FlowAgents::Udp(Box::new(UdpAgents::new(traffic, rng)))
                }
                FlowTransport::Ping {
                    sizes,
                    interval,
                    count,
                } => {
                    nodes[f.src].bind(port, Agent::PingSource(i as u32));
                    nodes[f.dst].bind(port, Agent::PingSink(i as u32));
                    FlowAgents::Ping(Box::new(PingAgents::new(*sizes, *interval, *count)))
                }
            };
            flows.push(FlowRuntime {
                spec: f.clone(),
                src: NodeId(f.src as u32),
                dst: NodeId(f.dst as u32),
                src_addr: nodes[f.src].primary(),
                dst_addr: nodes[f.dst].primary(),
                port,
                ns2_ports,
                agents,
                stats: if sc.traces.flow_series {
                    FlowStats::with_series(sc.flow_series_bin())
                } else {
                    FlowStats::default()
                },
                detached: [false; 2],
            });
            if f.autostart {
                sched.schedule(f.start, Event::FlowStart(i as u32));
                // Scheduled after the start, so a write at offset 0 finds the sender started.
                if let FlowTransport::Tcp {
                    app_trace: Some(writes),
                    ..
                } = &f.transport
                {
                    sched.schedule(f.start + writes[0].at, Event::AppWrite(i as u32));
                }
            }
            if let Some(stop) = f.stop {
                sched.schedule(stop, Event::FlowStop(i as u32));
            }
            // A FullTcp flow's other actions wake it once each, in time order, after its start
            // at the same instant.
            if let FlowTransport::FullTcp { actions, .. } = &f.transport {
                for act in actions {
                    sched.schedule(act.at, Event::AppWrite(i as u32));
                }
            }
        }
        for (i, e) in sc.events.iter().enumerate() {
            sched.schedule(e.at, Event::Scheduled(i as u32));
        }
        let tcp_out = TcpOutput {
            trace: sc.traces.cwnd || sc.traces.rto || sc.traces.tcp_events,
            ..TcpOutput::default()
        };
        let device_lanes = devices.iter().map(|_| sched.add_lane()).collect();
        let mut world = World {
            sched,
            device_lanes,
            nodes,
            ifaces,
            devices,
            arrival_iface,
            edges,
            explicit_routes: sc.explicit_routes.clone(),
            reroute: sc.reroute,
            addr_owner,
            home_network: vec![None; sc.nodes.len()],
            radio_links: vec![false; sc.links.len()],
            link_names: sc.links.iter().map(|l| l.name.clone()).collect(),
            flows,
            ns2_default_rng: None,
            events: sc.events.clone(),
            traces: TraceSet::from_spec(&sc.traces),
            accounting: Accounting::default(),
            next_uid: 0,
            next_ns2_uid: 0,
            iface_out_pool: Vec::new(),
            held: Vec::new(),
            held_free: Vec::new(),
            device_traces: sc.traces.queues
                || sc.traces.rlc
                || sc.traces.rlc_buffer
                || sc.traces.sdu_delay,
            fast_wired: !(sc.traces.queues
                || sc.traces.rlc
                || sc.traces.rlc_buffer
                || sc.traces.sdu_delay),
            control_tx: BTreeMap::new(),
            tcp_out,
            var_trace: Vec::new(),
            sink_out: SinkOutput::default(),
            full_out: crate::tcp::full::FullOutput::default(),
            spent_packets: Vec::with_capacity(SPENT_PACKETS_KEPT),
            capture: None,
            ping_upcalls: false,
            ping_replies: Vec::new(),
            pause_requested: false,
            lazy_done: Vec::new(),
            routing_timers: true,
            dv: None,
        };
        world.routing_timers = world.nodes.iter().any(|n| n.routing.may_set_timers());
        // Idle links' transmission ends settled without events: only where nothing else
        // touches a link between its events (no link changes, no Mobile IP radio links).
        world.set_lazy_tx(world.fast_wired && sc.events.is_empty() && sc.mobile_ip.is_none());
        if let Some(m) = &sc.mobile_ip {
            world.build_mobile_ip(sc, m, seed);
        }
        if let Some(b) = &sc.base_stations {
            world.build_base_stations(b);
        }
        world.recompute_static_routes(SimTime::ZERO);
        world.start_routing(SimTime::ZERO);
        if let crate::routing::RoutingConfig::Dv(cfg) = sc.routing {
            world.start_dv(cfg, &agents_on_node);
        }
        world
    }

    /// Installs the capture points a run asked for (none: nothing changes).
    /// `now` in exact seconds (`sim::scheduler`, "Exact times"): the exact time of the
    /// event being handled when `now` is its time, else `now` itself.
    fn exact_now(&self, now: SimTime) -> f64 {
        if now == self.sched.now() {
            self.sched.now_exact()
        } else {
            crate::sim::scheduler::exact_of(now)
        }
    }

    /// Whether wired transmissions that nothing waits behind end without an event of their
    /// own (`net::wired::LAZY`): set before the run, for every wired direction.
    fn set_lazy_tx(&mut self, on: bool) {
        self.lazy_done = vec![None; self.devices.len()];
        for d in &mut self.devices {
            if let Some(wire) = d.wired_mut() {
                wire.lazy_tx_done = on;
            }
        }
    }

    /// Settles the transmission ends the world left pending that fall before `end_exact`
    /// (their events would have run before the run ended): counted as executed events.
    fn settle_lazy_transmissions(&mut self, end_exact: f64) {
        for d in 0..self.lazy_done.len() {
            let Some((key, _)) = self.lazy_done[d] else {
                continue;
            };
            if Scheduler::<Event>::exact_of_key(key) < end_exact {
                if let Some(wire) = self.devices[d].wired_mut() {
                    wire.settle_transmission();
                }
                self.lazy_done[d] = None;
                self.sched.count_settled(1);
            }
        }
    }

    fn attach_capture(&mut self, cap: Option<capture::Capture>) {
        let Some(c) = cap else { return };
        let mac = c.wants_mac_log();
        // Captures hook into every device call (`drain_device`).
        self.fast_wired = false;
        self.set_lazy_tx(false);
        self.tcp_out.ns2_event_trace = c.events;
        self.full_out.ns2_event_trace = c.events;
        self.capture = Some(Box::new(c));
        for d in &mut self.devices {
            if let Some(w) = d.wired_mut() {
                w.log_tx_starts = true;
            }
            if let Device::Wifi(w) = d {
                w.trace_mac = mac;
            }
        }
        // The capture comes with the world, before its first event: DSR starts at t = 0.
        self.start_dsr_log(SimTime::ZERO);
    }

    /// Runs the events due at or before `end` and, of those, exactly before `end_exact`
    /// seconds (`f64::INFINITY`: all of them).
    /// Runs the events before `end_exact` (at most `end`); returns false when it paused
    /// earlier, after an event that kept a ping reply for the host.
    fn run_until(
        &mut self,
        end: SimTime,
        end_exact: f64,
        progress: &mut dyn FnMut(SimTime, u64),
    ) -> bool {
        while let Some((now, event)) = self.sched.pop_before(end, end_exact) {
            match event {
                Event::IfaceWake { device, tag } => self.on_device_wake(now, device, tag),
                Event::SenderTimer(f) => self.on_sender_timer(now, f as usize),
                Event::SinkTimer(f) => self.on_sink_timer(now, f as usize),
                Event::FlowStart(f) => self.start_flow(now, f as usize),
                Event::FlowStop(f) => self.stop_flow(f as usize),
                Event::AppWrite(f) => self.on_app_write(now, f as usize),
                Event::TelnetDue(f) => self.on_telnet_due(now, f as usize),
                Event::UdpSend(f) => self.on_udp_send(now, f as usize),
                Event::RoutingTimer(n) => self.on_routing_timer(now, NodeId(n)),
                Event::Scheduled(i) => self.on_scheduled(now, i as usize),
                Event::MipTimer(n) => self.on_mip_timer(now, NodeId(n)),
                Event::Coverage { link, up } => self.set_radio_link(now, link as usize, up),
                Event::StageRelease(slot) => self.release_held(now, slot),
                Event::PingDue(f) => self.on_ping_due(now, f as usize),
                Event::DvUpdate(n) => self.on_dv_update(NodeId(n)),
                Event::FullDelack(f, end) => {
                    let side = if end == 0 {
                        AgentSide::Source
                    } else {
                        AgentSide::Sink
                    };
                    self.on_full_timer(now, f as usize, side, true)
                }
            }
            let events = self.sched.events_executed();
            if events.is_multiple_of(PROGRESS_EVERY_EVENTS) {
                progress(now, events);
            }
            if self.pause_requested {
                self.pause_requested = false;
                return false;
            }
        }
        true
    }
}
