//! Checks the relations inside a scenario and resolves names to indices and options to
//! concrete configurations. Everything that could make a run fail is caught here, before
//! the run, with the key path of the offending value.
//!
//! One file per section: [`topology`] (nodes, links, bearers, explicit routes),
//! [`umts`] (bearer configuration), [`tcp`] (TCP options and profiles), [`flows`],
//! [`events`] (scheduled topology and flow events); [`common`] has the shared helpers.

mod base_station;
mod common;
mod events;
mod flows;
mod full_tcp;
mod mobileip;
mod mobility;
mod tcp;
mod topology;
mod traffic;
mod umts;
mod wireless;

use super::schema::{AppSpec, ErrorSpec, NodeKind, RoutingSpec, ScenarioSpec, TraceSpec};
use super::ScenarioError;
use crate::app::AppWrite;
use crate::channel::ErrorModel;
use crate::mobility::{Mobility, Position, RandomPlacement};
use crate::net::addr::NodeId;
use crate::routing::aodv::AodvConfig;
use crate::routing::dsdv::DsdvConfig;
use crate::routing::dsr::DsrConfig;
use crate::routing::dv::DvConfig;
use crate::routing::{HoldConfig, RoutingConfig};
use crate::sim::SimTime;
use crate::tcp::{SinkConfig, TcpConfig};
use crate::umts::BearerConfig;
use crate::wifi::WifiConfig;

use std::sync::Arc;

pub use base_station::ResolvedBaseStations;
use common::{resolve_file, NodeNames};
pub use mobileip::{ResolvedMobile, ResolvedMobileIp};

#[derive(Clone, Debug)]
pub struct ResolvedNode {
    pub name: String,
    pub kind: NodeKind,
    /// Where the node starts (and stays, when static), when known before the run.
    pub position: Option<Position>,
    pub mobility: NodeMobility,
}

/// How a node moves: known from the scenario, or drawn from the run's seed.
#[derive(Clone, Debug)]
pub enum NodeMobility {
    Fixed(Mobility),
    /// A `[topology] random` node: its position (and path) come from the seed.
    Random(Arc<RandomPlacement>),
}

impl ResolvedNode {
    /// Whether the node has a position, hence a radio when the scenario has `[wireless]`.
    pub fn on_air(&self) -> bool {
        self.position.is_some() || matches!(self.mobility, NodeMobility::Random(_))
    }

    /// Whether the node may move during the run.
    pub fn mobile(&self) -> bool {
        match &self.mobility {
            NodeMobility::Fixed(m) => matches!(m, Mobility::Trajectory(_)),
            NodeMobility::Random(r) => r.waypoint.is_some(),
        }
    }

    /// The node's mobility in the run with `seed`.
    pub fn mobility_for_run(&self, seed: u64) -> Mobility {
        match &self.mobility {
            NodeMobility::Fixed(m) => m.clone(),
            NodeMobility::Random(r) => r.mobility(seed, &self.name),
        }
    }
}

#[derive(Clone, Debug)]
pub struct ResolvedLink {
    pub name: String,
    pub a: usize,
    pub b: usize,
    /// Each direction's rate: `[a→b, b→a]`.
    pub rate_bps: [f64; 2],
    /// Each direction's propagation delay: `[a→b, b→a]`.
    pub delay: [SimTime; 2],
    /// The queue of each direction: `[a→b, b→a]`.
    pub queue: [crate::net::wired::QueueConfig; 2],
    pub error_a_to_b: ErrorModel,
    pub error_b_to_a: ErrorModel,
    /// A fixed per-frame air time replacing size / rate.
    pub frame_time: Option<SimTime>,
    /// ns-2 `avoidReordering_`: arrivals keep their sending order.
    pub avoid_reordering: bool,
    /// The drop stages of each direction, `[a→b, b→a]`, in the order packets meet them:
    /// (point, traced, rules).
    pub drop_stages: [Vec<ResolvedDropStage>; 2],
}

/// A drop stage with its flows resolved to flow indices.
#[derive(Clone, Debug)]
pub struct ResolvedDropStage {
    pub point: crate::channel::drop_stage::DropPoint,
    pub traced: bool,
    pub rules: Vec<crate::channel::drop_stage::DropRule>,
}

/// A UMTS radio bearer with its configuration and per-direction block error models.
#[derive(Clone, Debug)]
pub struct ResolvedBearer {
    pub name: String,
    pub ue: usize,
    pub rnc: usize,
    pub node_b: Option<usize>,
    pub cfg: BearerConfig,
    pub down_error: ErrorModel,
    pub up_error: ErrorModel,
}

/// A UDP traffic source with its units resolved (ns-2 semantics in `crate::app`).
#[derive(Clone, Debug, PartialEq)]
pub enum TrafficSpec {
    Cbr {
        interval: SimTime,
        /// The rate, when the scenario gives one (or the default rate): the source then
        /// computes each gap as ns-2 does, `8 * packetSize_ / rate_` in doubles, not from
        /// `interval` rounded to the nanosecond (600 kb/s and 500 B: 6.666…667 ms, where a
        /// 6,666,667 ns interval drifts a third of a nanosecond per packet).
        rate_bps: Option<f64>,
        packet_size: u32,
        random: bool,
        max_packets: Option<u64>,
    },
    Exponential {
        rate_bps: f64,
        packet_size: u32,
        burst_time: SimTime,
        idle_time: SimTime,
    },
    Pareto {
        rate_bps: f64,
        packet_size: u32,
        burst_time: SimTime,
        idle_time: SimTime,
        shape: f64,
    },
}

/// What carries a flow's data.
#[derive(Clone, Debug)]
pub enum FlowTransport {
    Tcp {
        tcp: Box<TcpConfig>,
        sink: SinkConfig,
        /// Application bytes to send; `None` = unlimited (FTP) or trace-driven.
        app_bytes: Option<u64>,
        /// For a trace-driven application: its writes, offsets from `start`.
        app_trace: Option<Vec<AppWrite>>,
        /// For a Telnet application (ns-2 `Application/Telnet`): its mean gap between
        /// packets in seconds.
        telnet_interval_s: Option<f64>,
    },
    Udp {
        traffic: TrafficSpec,
    },
    /// A pair of ns-2 FullTcp agents: the active opener at the flow's `src` (its
    /// application sends), the passive opener (listening) at `dst`.
    FullTcp {
        a: Box<crate::tcp::full::FullTcpConfig>,
        b: Box<crate::tcp::full::FullTcpConfig>,
        /// Each end's tick-clock phase (ns-2 `boot_time_`); `None`: drawn.
        phases: [Option<SimTime>; 2],
        /// Application bytes to send; `None` = unlimited (FTP).
        app_bytes: Option<u64>,
        /// The ends' other scheduled actions, in time order.
        actions: Vec<FullTcpAction>,
        /// The far end listens (`$sink listen`); else it opens too when it first sends
        /// (a simultaneous open).
        peer_listens: bool,
    },
    /// A pair of ns-2 ping agents (`Agent/Ping`): either end sends echo requests, the other
    /// replies.
    Ping {
        /// Bytes of each packet the source end sends (its requests and its replies), and of
        /// each the destination end sends (ns-2: each agent's own `packetSize_`).
        sizes: [u32; 2],
        /// The source's requests, one every `interval` from the flow's start (at most
        /// `count`); `None`: only `ping` events and the host send them.
        interval: Option<SimTime>,
        count: Option<u64>,
    },
}

/// A scheduled action of one end of a FullTcp flow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FullTcpAction {
    pub at: SimTime,
    /// 0: the active opener (the flow's `src`), 1: the listener.
    pub end: u8,
    pub what: FullTcpWhat,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FullTcpWhat {
    /// The application offers this many more bytes (`None`: unlimited).
    Send(Option<u64>),
    /// `sendmsg N MSG_EOF`: the bytes, and close once they are all sent
    /// (`close_on_empty_`).
    SendEof(u64),
    /// `$tcp close`.
    Close,
}

#[derive(Clone, Debug)]
pub struct ResolvedFlow {
    pub name: String,
    pub src: usize,
    pub dst: usize,
    pub start: SimTime,
    /// The application starts by itself at `start` (else an event or the host starts it).
    pub autostart: bool,
    pub stop: Option<SimTime>,
    pub transport: FlowTransport,
}

impl ResolvedFlow {
    /// The TCP configuration, for TCP flows.
    pub fn tcp(&self) -> Option<&TcpConfig> {
        match &self.transport {
            FlowTransport::Tcp { tcp, .. } => Some(tcp.as_ref()),
            FlowTransport::Udp { .. }
            | FlowTransport::Ping { .. }
            | FlowTransport::FullTcp { .. } => None,
        }
    }
}

/// A scheduled event's action, on a link (both directions or one: `[a_to_b, b_to_a]`) or a
/// flow (indices into the scenario's lists).
#[derive(Clone, Debug)]
pub enum EventAction {
    /// `b_first`: under DV routing the link's `b` end hears of it before `a`
    /// (`notify_order`).
    LinkDown {
        link: usize,
        directions: [bool; 2],
        b_first: bool,
    },
    LinkUp {
        link: usize,
        directions: [bool; 2],
        b_first: bool,
    },
    LinkSet {
        link: usize,
        directions: [bool; 2],
        rate_bps: Option<f64>,
        delay: Option<SimTime>,
        error: Option<ErrorModel>,
        /// A drop-tail queue's new limit, and whether the packets waiting beyond it are
        /// dropped from the tail.
        queue_limit: Option<u32>,
        shrink: bool,
    },
    FlowStart {
        flow: usize,
    },
    FlowStop {
        flow: usize,
    },
    /// ns-2 FTP `produce N` (`more` false) or `producemore N` on a one-way TCP flow.
    FlowProduce {
        flow: usize,
        packets: u64,
        more: bool,
    },
    /// A ping flow's source (or with `reverse` its destination) sends an echo request
    /// (ns-2 `$ping send`).
    Ping {
        flow: usize,
        reverse: bool,
    },
    /// ns-2 `$node reset` (the CMU scripts' last act): the packets waiting in the node's
    /// 802.11 interface queue are dropped (`END`).
    NodeReset {
        node: usize,
    },
}

#[derive(Clone, Debug)]
pub struct ResolvedEvent {
    pub at: SimTime,
    pub action: EventAction,
}

/// A scenario whose names are resolved and whose values are checked.
#[derive(Clone, Debug)]
pub struct ResolvedScenario {
    pub name: String,
    pub duration: SimTime,
    pub nodes: Vec<ResolvedNode>,
    pub links: Vec<ResolvedLink>,
    pub bearers: Vec<ResolvedBearer>,
    /// The routing protocol every node runs.
    pub routing: RoutingConfig,
    /// The 802.11 channel every positioned node is on, if the scenario has `[wireless]`.
    pub wireless: Option<WifiConfig>,
    /// Mobile IP roles and constants, if the scenario has `[mobile_ip]`.
    pub mobile_ip: Option<mobileip::ResolvedMobileIp>,
    /// Wired-cum-wireless base stations and their mobile nodes, when any.
    pub base_stations: Option<ResolvedBaseStations>,
    /// Explicit static routes `(node, destination, via)`.
    pub explicit_routes: Vec<(NodeId, NodeId, NodeId)>,
    /// Static routing recomputes its routes over the links that are up after a link event
    /// (`[routing] reroute`, default true); false: ns-2.35's fixed routes, the ones through a
    /// downed interface withdrawn.
    pub reroute: bool,
    pub flows: Vec<ResolvedFlow>,
    pub events: Vec<ResolvedEvent>,
    pub traces: TraceSpec,
    /// Files the scenario reads (error and application traces), resolved: a run depends on
    /// their contents as much as on the scenario text.
    pub input_files: Vec<std::path::PathBuf>,
    /// Connections of `[traffic]` (a connection file or cbrgen) that start at or after the
    /// end of the run: never started, so not flows, but listed in the summary.
    pub never_started: Vec<NeverStarted>,
}

/// A `[traffic]` connection that starts at or after the end of the run.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct NeverStarted {
    pub name: String,
    pub start_s: f64,
}

impl ResolvedScenario {
    /// The `flow_series` trace's bin width: `[traces] flow_series_bin`, default 1 s.
    pub fn flow_series_bin(&self) -> SimTime {
        self.traces
            .flow_series_bin
            .as_ref()
            .map_or(SimTime::from_millis(1000), |d| d.0)
    }
}

/// The files `spec` reads, resolved against its folder, in scenario order.
fn input_files(spec: &ScenarioSpec) -> Vec<std::path::PathBuf> {
    let dir = spec.scenario_dir.as_ref();
    let error_file = |e: &Option<ErrorSpec>| match e {
        Some(ErrorSpec::Trace { file, .. }) => Some(resolve_file(dir, file)),
        _ => None,
    };
    let links = spec
        .links
        .iter()
        .flat_map(|l| [error_file(&l.error_a_to_b), error_file(&l.error_b_to_a)]);
    let bearers = spec
        .bearers
        .iter()
        .flat_map(|b| [error_file(&b.downlink.error), error_file(&b.uplink.error)]);
    let apps = spec.flows.iter().map(|f| match &f.app {
        Some(AppSpec::Trace { file }) => Some(resolve_file(dir, file)),
        _ => None,
    });
    let events = spec.events.iter().map(|e| error_file(&e.error));
    let mobility = spec
        .mobility
        .iter()
        .map(|m| m.file.as_ref().map(|f| resolve_file(dir, f)));
    let traffic = spec
        .traffic
        .iter()
        .map(|t| t.file.as_ref().map(|f| resolve_file(dir, f)));
    links
        .chain(bearers)
        .chain(apps)
        .chain(events)
        .chain(mobility)
        .chain(traffic)
        .flatten()
        .collect()
}

/// ns-2-like default for how long a held packet may wait for a route (DSR's send buffer
/// timeout is 30 s, link-spec §4.2).
const DEFAULT_HOLD_TIMEOUT: SimTime = SimTime(30_000_000_000);

fn routing(spec: &ScenarioSpec) -> Result<RoutingConfig, ScenarioError> {
    let r = &spec.routing;
    if r.protocol.as_deref() != Some("dsdv") {
        let dsdv_keys = [
            (
                "periodic_update_interval",
                r.periodic_update_interval.is_some(),
            ),
            ("min_update_periods", r.min_update_periods.is_some()),
            ("use_mac", r.use_mac.is_some()),
            (
                "trigger_on_fresh_seqnum",
                r.trigger_on_fresh_seqnum.is_some(),
            ),
            ("randomize", r.randomize.is_some()),
            ("stale_update_drain", r.stale_update_drain.is_some()),
        ];
        if r.hello.is_some() && r.protocol.as_deref() != Some("aodv") {
            return Err(ScenarioError::at(
                "routing.hello",
                "applies to protocol = \"aodv\" only",
            ));
        }
        if let Some((key, _)) = dsdv_keys.iter().find(|(_, set)| *set) {
            return Err(ScenarioError::at(
                format!("routing.{key}"),
                "applies to protocol = \"dsdv\" only",
            ));
        }
    }
    if r.protocol.as_deref() != Some("dv") {
        let dv_keys = [
            ("advert_interval", r.advert_interval.is_some()),
            ("infinity", r.infinity.is_some()),
            ("rng_seed", r.rng_seed.is_some()),
        ];
        if let Some((key, _)) = dv_keys.iter().find(|(_, set)| *set) {
            return Err(ScenarioError::at(
                format!("routing.{key}"),
                "applies to protocol = \"dv\" only",
            ));
        }
    }
    match r.protocol.as_deref() {
        None | Some("static") => {}
        Some("dsr") => {
            if r.hold_packets.is_some() || r.hold_timeout.is_some() {
                return Err(ScenarioError::at(
                    "routing",
                    "hold_packets and hold_timeout apply to static routing; DSR has its send buffer",
                ));
            }
            return Ok(RoutingConfig::Dsr(DsrConfig::default()));
        }
        Some("aodv") => {
            if r.hold_packets.is_some() || r.hold_timeout.is_some() {
                return Err(ScenarioError::at(
                    "routing",
                    "hold_packets and hold_timeout apply to static routing; AODV has its queue",
                ));
            }
            return Ok(RoutingConfig::Aodv(AodvConfig {
                hello: r.hello.unwrap_or(false),
                ..AodvConfig::default()
            }));
        }
        Some("dsdv") => return dsdv(r).map(RoutingConfig::Dsdv),
        Some("dv") => return dv(spec).map(RoutingConfig::Dv),
        Some(other) => {
            return Err(ScenarioError::at(
                "routing.protocol",
                format!("unknown routing protocol `{other}`; allowed: static, dsr, aodv, dsdv, dv"),
            ))
        }
    }
    let timeout = r.hold_timeout.map_or(DEFAULT_HOLD_TIMEOUT, |d| d.0);
    if timeout == SimTime::ZERO {
        return Err(ScenarioError::at("routing.hold_timeout", "allowed: > 0"));
    }
    let hold = match r.hold_packets {
        None | Some(0) => None,
        Some(n) => Some(HoldConfig {
            capacity: n as usize,
            timeout,
        }),
    };
    Ok(RoutingConfig::Static { hold })
}

/// `[routing] protocol = "dv"` (wired nodes only) and its optional keys over ns-2's
/// defaults.
fn dv(spec: &ScenarioSpec) -> Result<DvConfig, ScenarioError> {
    let r = &spec.routing;
    let refused = [
        (
            "routing",
            r.hold_packets.is_some() || r.hold_timeout.is_some(),
            "hold_packets and hold_timeout apply to static routing",
        ),
        (
            "routing.reroute",
            r.reroute.is_some(),
            "applies to static routing; DV finds its own detours",
        ),
        (
            "routes",
            !spec.routes.is_empty(),
            "explicit routes apply to static routing, not dv",
        ),
        (
            "wireless",
            spec.wireless.is_some(),
            "dv runs on wired links only",
        ),
        (
            "bearers",
            !spec.bearers.is_empty(),
            "dv runs on wired links only",
        ),
        (
            "mobile_ip",
            spec.mobile_ip.is_some(),
            "dv runs on wired links only",
        ),
    ];
    if let Some((key, _, why)) = refused.iter().find(|(_, set, _)| *set) {
        return Err(ScenarioError::at(*key, *why));
    }
    let mut cfg = DvConfig::default();
    if let Some(d) = r.advert_interval {
        if d.0 == SimTime::ZERO {
            return Err(ScenarioError::at(
                "routing.advert_interval",
                "allowed: a duration > 0",
            ));
        }
        cfg.advert_interval = d.0.as_secs_f64();
    }
    if let Some(n) = r.infinity {
        if !(2..=255).contains(&n) {
            return Err(ScenarioError::at(
                "routing.infinity",
                "allowed: an integer from 2 to 255",
            ));
        }
        cfg.infinity = n;
    }
    if let Some(n) = r.rng_seed {
        // ns-2's RNG refuses 0 (the clock) and from 2^31 - 1 up.
        if n == 0 || n >= 2_147_483_647 {
            return Err(ScenarioError::at(
                "routing.rng_seed",
                "allowed: an integer from 1 to 2147483646",
            ));
        }
        cfg.seed = n;
    }
    Ok(cfg)
}

/// `[routing] protocol = "dsdv"` and its optional keys over ns-2's defaults.
fn dsdv(r: &RoutingSpec) -> Result<DsdvConfig, ScenarioError> {
    if r.hold_packets.is_some() || r.hold_timeout.is_some() {
        return Err(ScenarioError::at(
            "routing",
            "hold_packets and hold_timeout apply to static routing; DSDV queues per destination",
        ));
    }
    let mut cfg = DsdvConfig::default();
    if let Some(d) = r.periodic_update_interval {
        if d.0 == SimTime::ZERO {
            return Err(ScenarioError::at(
                "routing.periodic_update_interval",
                "allowed: a duration > 0",
            ));
        }
        cfg.periodic_update_interval = d.0;
    }
    if let Some(n) = r.min_update_periods {
        if n == 0 {
            return Err(ScenarioError::at(
                "routing.min_update_periods",
                "allowed: an integer >= 1",
            ));
        }
        cfg.min_update_periods = n;
    }
    if let Some(b) = r.use_mac {
        cfg.use_mac = b;
    }
    if let Some(b) = r.trigger_on_fresh_seqnum {
        cfg.trigger_on_fresh_seqnum = b;
    }
    if let Some(b) = r.randomize {
        cfg.randomize = b;
    }
    if let Some(b) = r.stale_update_drain {
        cfg.stale_update_drain = b;
    }
    Ok(cfg)
}

/// Checks `spec` and resolves it.
pub fn resolve(mut spec: ScenarioSpec) -> Result<ResolvedScenario, ScenarioError> {
    let input_files = input_files(&spec);
    if spec.duration.0 == SimTime::ZERO {
        return Err(ScenarioError::at("duration", "allowed: a duration > 0"));
    }
    let mut nodes = topology::nodes(&spec)?;
    mobility::apply(&spec, &mut nodes)?;
    let names = NodeNames::new(&nodes);
    let (links, bearers) = topology::links_and_bearers(&spec, &names)?;
    let mut edges = topology::all_up_edges(&links, &bearers);
    let routing = routing(&spec)?;
    let wireless = wireless::wireless(&spec, &nodes, &routing)?;
    if wireless.is_none() && links.is_empty() && bearers.is_empty() && !spec.flows.is_empty() {
        // Without a radio, a link or a bearer no node has an interface: every packet would
        // be dropped at its source and the run would report nothing but zeros.
        let what = match routing {
            RoutingConfig::Static { .. } => "static routing",
            RoutingConfig::Dsr(_) => "dsr",
            RoutingConfig::Aodv(_) => "aodv",
            RoutingConfig::Dv(_) => "dv",
            _ => "dsdv",
        };
        return Err(ScenarioError::at(
            "wireless",
            format!(
                "no node has an interface, so `{what}` cannot carry a packet; add a \
                 [wireless] table for an ad hoc network, or [[links]] for a wired one"
            ),
        ));
    }
    if let Some(w) = &wireless {
        // Radio neighbours at the nodes' positions: what static routes and the flow
        // connectivity check may use.
        edges.extend(topology::radio_edges(&nodes, w.rx_range_m()));
    }
    let explicit_routes = topology::explicit_routes(&spec, &names, &edges)?;
    let mut reach = topology::Reachability::new(nodes.len(), &edges, &explicit_routes);
    // Where a random node is depends on the run's seed; and a routing protocol (on-demand,
    // or DSDV's periodic updates) finds paths among moving nodes during the run, so where
    // they start says nothing of where they will be (ns-2's `simple-wireless.tcl`: two DSDV
    // nodes start out of range and meet later). Under such a protocol a node on the air that
    // never comes in range is a result, not a mistake: ns-2 runs the script and its routing
    // agent drops the packets for want of a route (a flood test sends to a node nobody
    // reaches). Such nodes are not checked for a path; only static routes, fixed at the
    // start, need one.
    let dynamic = !matches!(routing, RoutingConfig::Static { .. });
    let base_stations = base_station::base_stations(&spec, &names, &nodes, &links, &routing)?;
    reach.assume_reachable(nodes.iter().map(|n| {
        matches!(n.mobility, NodeMobility::Random(_))
                    || dynamic && n.on_air()
                    // DSDV finds a mobile node of a wired-cum-wireless network wherever it is.
                    || base_stations.is_some() && n.on_air()
    }));
    let listed = spec.flows.len();
    let (generated, never_started) = traffic::flow_specs(&spec, &nodes)?;
    let origin = traffic::origin(&spec);
    spec.flows.extend(generated);
    let flows = flows::flows(&spec, &names, &reach)
        .map_err(|e| traffic::relocate(e, listed, origin, &spec.flows))?;
    let events = events::events(&spec, &names, &links, &flows)?;
    if spec
        .traces
        .flow_series_bin
        .as_ref()
        .is_some_and(|d| d.0 == SimTime::ZERO)
    {
        return Err(ScenarioError::at(
            "traces.flow_series_bin",
            "must be a positive duration, e.g. \"1s\" (the default)",
        ));
    }
    let dsdv = matches!(routing, RoutingConfig::Dsdv(_));
    let mobile_ip = mobileip::mobile_ip(&spec, &names, &nodes, &links, dsdv)?;
    Ok(ResolvedScenario {
        name: spec.name,
        duration: spec.duration.0,
        nodes,
        links,
        bearers,
        routing,
        wireless,
        mobile_ip,
        base_stations,
        explicit_routes,
        reroute: spec.routing.reroute.unwrap_or(true),
        flows,
        events,
        traces: spec.traces,
        input_files,
        never_started,
    })
}
