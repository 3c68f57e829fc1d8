//! The scenario schema: plain data, deserialised strictly (unknown keys are refused).
//!
//! This file says what a scenario may contain; `validate.rs` checks the relations between
//! its parts (names exist, a path exists) and `crate::world::build` turns it into a network.

use serde::Deserialize;

use super::units::{Bytes, Decibels, Duration, Length, Power, Rate, Speed};

/// A whole scenario file.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioSpec {
    pub name: String,
    #[serde(default)]
    pub description: Option<String>,
    /// Simulated time to run.
    pub duration: Duration,
    /// Folder that relative file paths in the scenario (traces) resolve against; the Python
    /// loader sets it to the scenario file's folder. Defaults to the working directory.
    #[serde(default)]
    pub scenario_dir: Option<String>,
    /// TCP parameters applied to every flow before the flow's own `options`.
    #[serde(default)]
    pub tcp_defaults: TcpOptions,
    /// Generated node layouts (a chain, a grid), placed before the `[[nodes]]` listed.
    #[serde(default)]
    pub topology: TopologySpec,
    #[serde(default)]
    pub nodes: Vec<NodeSpec>,
    #[serde(default)]
    pub links: Vec<LinkSpec>,
    /// UMTS radio bearers (dedicated channels) between a UE and its RNC.
    #[serde(default)]
    pub bearers: Vec<BearerSpec>,
    /// Explicit static routes; everything else is routed by shortest hop count.
    #[serde(default)]
    pub routes: Vec<RouteSpec>,
    /// An 802.11 ad hoc channel: every node with a position gets a NIC on it.
    #[serde(default)]
    pub wireless: Option<WirelessSpec>,
    /// The routing protocol every node runs (static shortest path by default).
    #[serde(default)]
    pub routing: RoutingSpec,
    /// Mobile IP: mobility agents, mobile nodes, route-optimizing correspondents.
    #[serde(default)]
    pub mobile_ip: Option<MobileIpSpec>,
    #[serde(default)]
    pub flows: Vec<FlowSpec>,
    /// Node movement: random waypoint for the `[topology] random` nodes, or an ns-2
    /// movement file.
    #[serde(default)]
    pub mobility: Option<MobilitySpec>,
    /// Generated connections (cbrgen-like) or an ns-2 connection file, added to `flows`.
    #[serde(default)]
    pub traffic: Option<TrafficGenSpec>,
    /// Scheduled topology and flow events.
    #[serde(default)]
    pub events: Vec<EventSpec>,
    #[serde(default)]
    pub traces: TraceSpec,
}

/// `[routing]`: the protocol and its options.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoutingSpec {
    /// `static` (shortest hop count, recomputed on topology events; the default).
    #[serde(default)]
    pub protocol: Option<String>,
    /// Packets a node holds while it has no route (0 or absent: drop at once, as ns-2).
    #[serde(default)]
    pub hold_packets: Option<u32>,
    /// How long a held packet waits for a route (default 30 s).
    #[serde(default)]
    pub hold_timeout: Option<Duration>,
    /// DSDV: base period of full dumps (ns-2 `perup_`, default 15 s).
    #[serde(default)]
    pub periodic_update_interval: Option<Duration>,
    /// DSDV: silent periods before a neighbour is lost (ns-2 `min_update_periods_`, 3).
    #[serde(default)]
    pub min_update_periods: Option<u32>,
    /// DSDV: break routes on 802.11 transmit failures (ns-2 `use_mac_`, default false).
    #[serde(default)]
    pub use_mac: Option<bool>,
    /// DSDV: trigger an update on a fresher sequence number alone ("DSDV-SQ"; default false).
    #[serde(default)]
    pub trigger_on_fresh_seqnum: Option<bool>,
    /// DSDV: ns-2.35's queue drain on any update naming a finite metric, an ignored stale
    /// one included, which then overwrites the entry (default true; false: queued packets
    /// leave only on a route the table installed).
    #[serde(default)]
    pub stale_update_drain: Option<bool>,
    /// DSDV: draw the start-up, broadcast and periodic jitters (ns-2 `be_random_`; default
    /// true). False: no jitter, full dumps every 0.75 periods.
    #[serde(default)]
    pub randomize: Option<bool>,
    /// AODV: send HELLOs and detect lost neighbours by them (RFC 3561 §6.9; default false,
    /// as ns-2, which relies on link-layer feedback).
    #[serde(default)]
    pub hello: Option<bool>,
    /// Static routing: after a link goes down or up, recompute the routes over the links
    /// that are up (default true). False keeps the routes computed over every link and
    /// withdraws only those leaving through an interface that is down, as ns-2.35's static
    /// routing does with `rtmodel` (a node past the break drops; no detour).
    #[serde(default)]
    pub reroute: Option<bool>,
    /// DV: base period of the periodic updates (ns-2 `advertInterval`, 2 s); each period
    /// is that times U(0.9, 1.1).
    #[serde(default)]
    pub advert_interval: Option<Duration>,
    /// DV: the metric that means unreachable (ns-2 `INFINITY`, 32).
    #[serde(default)]
    pub infinity: Option<u32>,
    /// DV: the seed of its own random stream, which draws the update times (ns-2
    /// `$rtglibRNG seed 1`: ns-2's MRG32k3a seeded so, not the run's seed).
    #[serde(default)]
    pub rng_seed: Option<u32>,
}

/// `[[events]]`: at time `at`, `action` on a `link` (`down`, `up`, `set` with `rate`, `delay`,
/// `loss` or `error`, on both directions or on `direction`) or on a `flow` (`start`, `stop`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EventSpec {
    pub at: Duration,
    pub action: String,
    #[serde(default)]
    pub link: Option<String>,
    #[serde(default)]
    pub flow: Option<String>,
    /// A node to `reset` (ns-2 `$node reset`: its 802.11 interface queue is flushed).
    #[serde(default)]
    pub node: Option<String>,
    #[serde(default)]
    pub direction: Option<String>,
    /// A link `down` or `up` under DV routing: the order in which the link's two end nodes
    /// hear of it, `["A", "B"]` (default: the link's `a`, then `b`). ns-2 tells them in the
    /// order its Tcl array lists them, and each sends its triggered updates then.
    #[serde(default)]
    pub notify_order: Option<Vec<String>>,
    /// `produce` and `producemore` on a one-way TCP flow: the packets (ns-2 FTP `produce N`:
    /// the application has offered N packets in all; `producemore N`: N more).
    #[serde(default)]
    pub packets: Option<u64>,
    #[serde(default)]
    pub rate: Option<Rate>,
    #[serde(default)]
    pub delay: Option<Duration>,
    #[serde(default)]
    pub loss: Option<f64>,
    #[serde(default)]
    pub error: Option<ErrorSpec>,
    /// `set`: a drop-tail queue's new limit in packets (ns-2 `$ns queue-limit` during the
    /// run): arrivals meet it from now on; the packets already waiting stay.
    #[serde(default)]
    pub queue_limit: Option<u32>,
    /// `set` with `queue_limit`: the packets waiting beyond the new limit are dropped from
    /// the tail (ns-2 `$queue shrink-queue`).
    #[serde(default)]
    pub shrink: bool,
}

/// `[wireless]`: the 802.11 DCF channel and radio (link-spec §3). Every key is optional;
/// the defaults are ns-2.35's (`WifiConfig::default`).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WirelessSpec {
    /// Rate of unicast DATA frames: 1, 2, 5.5 or 11 Mbps (ns-2.35: 1 Mbps).
    #[serde(default)]
    pub data_rate: Option<Rate>,
    /// Rate of RTS, CTS, ACK and broadcast frames (ns-2.35: 1 Mbps).
    #[serde(default)]
    pub basic_rate: Option<Rate>,
    /// Reception range; sets RXThresh through the propagation model (ns-2: 250 m).
    #[serde(default)]
    pub rx_range: Option<Length>,
    /// RXThresh as a power (instead of `rx_range`).
    #[serde(default)]
    pub rx_threshold: Option<Power>,
    /// Carrier-sense range; sets CSThresh (ns-2: 550 m).
    #[serde(default)]
    pub cs_range: Option<Length>,
    /// CSThresh as a power (instead of `cs_range`).
    #[serde(default)]
    pub cs_threshold: Option<Power>,
    /// CPThresh, a power ratio (ns-2: 10).
    #[serde(default)]
    pub capture_threshold: Option<f64>,
    /// `two_ray_ground` (default), `free_space` or `shadowing` (log-normal, ns-2
    /// `Propagation/Shadowing`).
    #[serde(default)]
    pub propagation: Option<String>,
    /// Shadowing: the path-loss exponent β (ns-2 `pathlossExp_`, default 2.0).
    #[serde(default)]
    pub path_loss_exponent: Option<f64>,
    /// Shadowing: the deviation σ of the per-frame log-normal term, e.g. `"4dB"` (ns-2
    /// `std_db_`, default 4 dB).
    #[serde(default)]
    pub shadowing_deviation: Option<Decibels>,
    /// Shadowing: the close-in reference distance d0 (ns-2 `dist0_`, default 1 m).
    #[serde(default)]
    pub reference_distance: Option<Length>,
    /// Shadowing: which of the run's shadowing streams the draws come from (ns-2's
    /// `$prop seed`; default 0).
    #[serde(default)]
    pub shadowing_seed: Option<u64>,
    #[serde(default)]
    pub tx_power: Option<Power>,
    #[serde(default)]
    pub antenna_height: Option<Length>,
    #[serde(default)]
    pub frequency_mhz: Option<f64>,
    #[serde(default)]
    pub system_loss: Option<f64>,
    /// Octets a DATA frame adds to the IP packet: 52 (ns-2 <= 2.32) or 58 (>= 2.33).
    #[serde(default)]
    pub mac_header: Option<u32>,
    /// MAC frames at or above this size use RTS/CTS (ns-2: 0 B, every unicast frame).
    #[serde(default)]
    pub rts_threshold: Option<Bytes>,
    /// ns-2.35 `Mac/802_11 bugFix_timer_` (default true): false makes a station wait DIFS +
    /// backoff after an exchange on a timer that does not freeze while the medium is busy.
    #[serde(default)]
    pub bug_fix_timer: Option<bool>,
    #[serde(default)]
    pub short_retry_limit: Option<u32>,
    #[serde(default)]
    pub long_retry_limit: Option<u32>,
    #[serde(default)]
    pub cw_min: Option<u32>,
    #[serde(default)]
    pub cw_max: Option<u32>,
    /// Interface queue: `priqueue` or `cmu_priqueue` (default: `cmu_priqueue` under DSR,
    /// as ns-2 requires, else `priqueue`).
    #[serde(default)]
    pub ifq: Option<String>,
    /// Interface queue limit in packets (ns-2 `ifqlen` 50).
    #[serde(default)]
    pub ifq_length: Option<u32>,
    /// Resolve unicast next hops with ARP (ns-2 `mac/arp.cc`, link-spec §3.5; default true,
    /// as every ns-2 wireless node has an ARP table).
    #[serde(default)]
    pub arp: Option<bool>,
    /// An error model between every station's PHY and MAC (ns-2 `-IncomingErrProc`):
    /// `{ rate, drop }`, each frame the PHY hands up lost with probability `rate`; `drop`
    /// (default true) takes a lost frame away before the MAC, false passes it on in error
    /// (the MAC defers EIFS after it), as ns-2's model without a drop target does.
    #[serde(default)]
    pub incoming_loss: Option<IncomingLossSpec>,
}

/// `[wireless] incoming_loss` ([`WirelessSpec::incoming_loss`]).
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IncomingLossSpec {
    pub rate: f64,
    #[serde(default = "default_true")]
    pub drop: bool,
}

/// `[topology]`: nodes generated with positions, named `n0`, `n1`, … in order.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TopologySpec {
    /// `chain = { hops = 7, spacing = "200m" }`: hops + 1 nodes on the x axis, `n0` at 0.
    #[serde(default)]
    pub chain: Option<ChainSpec>,
    /// `grid = { rows = 4, cols = 4, spacing = "200m" }`: row-major, `n0` at the origin.
    #[serde(default)]
    pub grid: Option<GridSpec>,
    /// `random = { nodes = 50, area = ["500m", "500m"] }`: uniform positions in the area
    /// drawn from each node's `mobility/<name>` stream (moving if `[mobility]` says so).
    #[serde(default)]
    pub random: Option<RandomLayoutSpec>,
}

#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RandomLayoutSpec {
    pub nodes: u32,
    pub area: [Length; 2],
}

/// `[mobility]`: `model = "random_waypoint"` with ns-2 setdest's parameters, or `file`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MobilitySpec {
    /// `random_waypoint` (moves the `[topology] random` nodes).
    #[serde(default)]
    pub model: Option<String>,
    /// An ns-2 movement file (`$node_(i)` is the i-th node), relative to the scenario.
    #[serde(default)]
    pub file: Option<String>,
    /// Pause at each waypoint (setdest `-p`; default 0 s).
    #[serde(default)]
    pub pause: Option<Duration>,
    /// `constant` (default) or `uniform` (U(0, 2·pause), version 2 only; setdest `-P`).
    #[serde(default)]
    pub pause_distribution: Option<String>,
    /// `uniform` (default) or `normal` (mean (min + max)/2, σ = (max − min)/4, clipped to
    /// [min, max]; version 2 only; setdest `-s`).
    #[serde(default)]
    pub speed_distribution: Option<String>,
    /// Leg speeds U(min_speed, max_speed) (setdest `-m`, `-M`).
    #[serde(default)]
    pub min_speed: Option<Speed>,
    #[serde(default)]
    pub max_speed: Option<Speed>,
    /// setdest version: 1 (default; min speed 0 allowed, all nodes start paused) or 2.
    #[serde(default)]
    pub version: Option<u32>,
    /// Start in the stationary regime (Navidi & Camp 2004).
    #[serde(default)]
    pub steady_state: Option<bool>,
}

/// `[traffic]`: `connections = { ... }` (cbrgen) or `file` (an ns-2 connection file).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrafficGenSpec {
    #[serde(default)]
    pub connections: Option<ConnectionsSpec>,
    /// An ns-2 connection file (`$node_(i)` is the i-th node), relative to the scenario.
    #[serde(default)]
    pub file: Option<String>,
    /// TCP variant for the file's or the generator's TCP connections (default: what the
    /// file names; `Agent/TCP` is Tahoe, as is cbrgen's).
    #[serde(default)]
    pub tcp: Option<String>,
}

/// cbrgen's parameters: `kind` (`tcp` or `cbr`), `count` (-mc), `seed`, `rate` (packets/s,
/// CBR), `packet_size` (default 512 B).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConnectionsSpec {
    pub kind: String,
    pub count: u32,
    pub seed: u32,
    #[serde(default)]
    pub rate: Option<f64>,
    #[serde(default)]
    pub packet_size: Option<Bytes>,
}

#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChainSpec {
    pub hops: u32,
    pub spacing: Length,
}

#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GridSpec {
    pub rows: u32,
    pub cols: u32,
    pub spacing: Length,
}

#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum NodeKind {
    #[default]
    Host,
    Router,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NodeSpec {
    pub name: String,
    #[serde(default)]
    pub kind: NodeKind,
    /// Position in metres (for wireless models; wired links ignore it).
    #[serde(default)]
    pub position: Option<[f64; 2]>,
    /// Scripted movement from `position`, as ns-2 `setdest` commands:
    /// `moves = [{ at = "10s", to = [150, 0], speed = "5m/s" }]`.
    #[serde(default)]
    pub moves: Vec<MoveSpec>,
    /// A wired-cum-wireless mobile node's base station: a node with a position and wired
    /// links that forwards between them and this node's subnet (ns-2 `$node base-station`).
    #[serde(default)]
    pub base_station: Option<String>,
}

/// One ns-2 `setdest`: at `at`, head in a straight line for `to` (metres) at `speed`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveSpec {
    pub at: Duration,
    pub to: [f64; 2],
    pub speed: Speed,
}

/// `[mobile_ip]`: which nodes are mobility agents (each is a foreign agent, and the home
/// agent of the mobile nodes that name it), the mobile nodes, the correspondents that
/// support route optimization, and the timing constants (ns-2 defaults, link-spec §7.2).
/// The links between an agent and a mobile node are that agent's radio links: out of the
/// routing graph, up only while the mobile node is within `coverage` of the agent. Over
/// `[wireless]` with `[routing] protocol = "dsdv"` the agents and mobile nodes run DSDV and
/// their last hop goes through it (ns-2's wired-cum-wireless Mobile IP; `crate::mobileip`,
/// "The last hop through DSDV"); the nodes without a position route statically.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MobileIpSpec {
    pub agents: Vec<String>,
    #[serde(default)]
    pub mobiles: Vec<MobileSpec>,
    /// Correspondents that keep a binding cache (route optimization).
    #[serde(default)]
    pub correspondents: Vec<String>,
    /// Radio coverage radius of every agent (default 75 m, the `ho-mobileip` seed).
    #[serde(default)]
    pub coverage: Option<Length>,
    /// Advertisement period (default 1 s).
    #[serde(default)]
    pub beacon_period: Option<Duration>,
    /// Advertisement (and granted registration) lifetime (default 2 s).
    #[serde(default)]
    pub advertisement_lifetime: Option<Duration>,
    /// Registration lifetime the mobile node asks for (default 2 s).
    #[serde(default)]
    pub registration_lifetime: Option<Duration>,
    /// Retransmission interval of an unanswered registration (default 0.5 s).
    #[serde(default)]
    pub registration_retransmit: Option<Duration>,
    /// Home agents send binding updates, foreign agents binding warnings (default false).
    #[serde(default)]
    pub route_optimization: bool,
}

/// A mobile node: its home agent and whether it registers for reverse tunnelling.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MobileSpec {
    pub node: String,
    pub home_agent: String,
    #[serde(default)]
    pub reverse_tunnel: bool,
}

/// A duplex point-to-point link: each direction has its own queue, transmitter and error model.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LinkSpec {
    /// Defaults to `"a-b"`.
    #[serde(default)]
    pub name: Option<String>,
    pub a: String,
    pub b: String,
    pub rate: Rate,
    pub delay: Duration,
    /// The b→a direction's rate, where it differs from `rate` (an asymmetric link: ns-2's
    /// two `simplex-link`s between the same nodes, one each way).
    #[serde(default)]
    pub rate_b_to_a: Option<Rate>,
    /// The b→a direction's propagation delay, where it differs from `delay`.
    #[serde(default)]
    pub delay_b_to_a: Option<Duration>,
    /// The queue of each direction: a drop-tail limit in packets (not counting the packet on
    /// the wire), or a table `{ kind = "drop_tail" | "red", ... }` ([`QueueTable`]).
    #[serde(default = "default_queue")]
    pub queue: QueueSpec,
    /// The a→b direction's queue (overrides `queue` for that direction; ns-2's
    /// `queue-limit` sets one direction of a duplex link).
    #[serde(default)]
    pub queue_a_to_b: Option<QueueSpec>,
    /// The b→a direction's queue (overrides `queue` for that direction).
    #[serde(default)]
    pub queue_b_to_a: Option<QueueSpec>,
    /// i.i.d. packet loss probability applied in both directions (shorthand for an `iid`
    /// error model on each direction).
    #[serde(default)]
    pub loss: Option<f64>,
    /// Error model on the a→b direction (overrides `loss` for that direction).
    #[serde(default)]
    pub error_a_to_b: Option<ErrorSpec>,
    /// Error model on the b→a direction (overrides `loss` for that direction).
    #[serde(default)]
    pub error_b_to_a: Option<ErrorSpec>,
    /// Drop stages on the a→b direction, in the order packets meet them ([`DropStageSpec`]:
    /// ns-2's loss modules, before the queue or at the far end).
    #[serde(default)]
    pub drop_stages_a_to_b: Vec<DropStageSpec>,
    /// Drop stages on the b→a direction.
    #[serde(default)]
    pub drop_stages_b_to_a: Vec<DropStageSpec>,
    /// Every frame occupies the link for this fixed air time whatever its size (a radio
    /// last hop whose per-frame delay, transmission included, is fixed: the `ho-mobileip`
    /// seed's 8 ms); `rate` is then nominal. Default: size / rate.
    #[serde(default)]
    pub frame_time: Option<Duration>,
    /// ns-2 `DelayLink avoidReordering_` (default false): a packet never arrives before
    /// the one sent ahead of it on the same direction, though the delay or the rate
    /// changed in between (`[[events]]` `set`): it arrives its transmission time after
    /// that one instead.
    #[serde(default)]
    pub avoid_reordering: bool,
}

/// A drop stage on one direction of a wired link (`crate::channel::drop_stage`): where it
/// judges packets, whether its drops are traced, and its rules (the first rule whose
/// `flows` include a packet's flow judges it; a packet no rule matches passes).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DropStageSpec {
    /// `enqueue` (before the queue, every packet handed to the direction; ns-2
    /// `$ns lossmodel`) or `arrival` (after the propagation delay; `$ns link-lossmodel`).
    pub at: String,
    /// Whether its drops are written to the packet trace (default true).
    #[serde(default = "yes")]
    pub traced: bool,
    pub rules: Vec<DropRuleSpec>,
}

/// One rule of a drop stage.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DropRuleSpec {
    /// The flows (by name) the rule judges; absent: every packet.
    #[serde(default)]
    pub flows: Option<Vec<String>>,
    /// `packet` (default) or `byte`: what the rule counts.
    #[serde(default)]
    pub unit: Option<String>,
    /// `list`, `periodic`, `iid`, `discard` or `pass`.
    pub model: String,
    /// `list`: the unit numbers to lose, counted from 0.
    #[serde(default)]
    pub drop: Option<Vec<u64>>,
    /// `periodic`: the period in units (default 1), the offset of the first loss (default
    /// 0), the burst length (default 0), and `default_drop` (lose all but one per period).
    #[serde(default)]
    pub period: Option<f64>,
    #[serde(default)]
    pub offset: Option<f64>,
    #[serde(default)]
    pub burst: Option<f64>,
    #[serde(default)]
    pub default_drop: Option<bool>,
    /// `iid`: the loss probability per unit.
    #[serde(default)]
    pub rate: Option<f64>,
    /// Hold the packets the model picks for this long, then pass them on, instead of
    /// losing them (ns-2 `ErrorModel set delay_pkt_ true` with `delay_`): packets reordered.
    #[serde(default)]
    pub delay: Option<Duration>,
    /// Mark the packets the model picks "congestion experienced" (ECN, RFC 3168 §5) and
    /// pass them on, instead of losing them (ns-2 `ErrorModel set markecn_ true`). TCP
    /// packets only carry the mark.
    #[serde(default)]
    pub mark: Option<bool>,
}

fn default_queue() -> QueueSpec {
    QueueSpec::Packets(50)
}

/// A link queue: `queue = 50` (drop-tail, packets) or a [`QueueTable`].
#[derive(Clone, Debug)]
pub enum QueueSpec {
    Packets(u32),
    Table(Box<QueueTable>),
}

impl<'de> Deserialize<'de> for QueueSpec {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::{self, MapAccess, Visitor};
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = QueueSpec;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str(
                    "a whole number of packets or a table { kind = \"drop_tail\" | \"red\", ... }",
                )
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<QueueSpec, E> {
                u32::try_from(v)
                    .map(QueueSpec::Packets)
                    .map_err(|_| E::custom("a queue limit must fit in 32 bits"))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<QueueSpec, E> {
                Err(E::custom(format!(
                    "`{v}`: a queue limit is a whole number of packets >= 1"
                )))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<QueueSpec, A::Error> {
                QueueTable::deserialize(de::value::MapAccessDeserializer::new(map))
                    .map(|t| QueueSpec::Table(Box::new(t)))
            }
        }
        d.deserialize_any(V)
    }
}

/// A link queue as a table. `kind = "drop_tail"`: `limit` (packets) and/or `limit_bytes`.
/// `kind = "red"`: Random Early Detection with ns-2's parameters (`Queue/RED`): thresholds in
/// packets, `q_weight`, `linterm` (max_p = 1/linterm), `gentle`, `wait`, `bytes` (byte-mode
/// drop probability), `queue_in_bytes` (average, thresholds and limit in bytes, thresholds ×
/// `mean_packet_size`), `use_mark_p`, and the physical `limit`/`limit_bytes`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QueueTable {
    pub kind: String,
    #[serde(default)]
    pub limit: Option<u32>,
    #[serde(default)]
    pub limit_bytes: Option<Bytes>,
    #[serde(default)]
    pub min_thresh: Option<f64>,
    #[serde(default)]
    pub max_thresh: Option<f64>,
    #[serde(default)]
    pub q_weight: Option<f64>,
    #[serde(default)]
    pub linterm: Option<f64>,
    #[serde(default)]
    pub gentle: Option<bool>,
    #[serde(default)]
    pub wait: Option<bool>,
    #[serde(default)]
    pub bytes: Option<bool>,
    #[serde(default)]
    pub queue_in_bytes: Option<bool>,
    #[serde(default)]
    pub mean_packet_size: Option<Bytes>,
    /// ns-2 `use_mark_p_` (default false here; true in ns-2.35): no forced drop on the
    /// average alone, the early test drops with probability 1 there instead.
    #[serde(default)]
    pub use_mark_p: Option<bool>,
    /// ECN (RFC 3168 §5; ns-2 `setbit_`, default false): an early drop of an ECN-capable
    /// packet marks it (congestion experienced) instead.
    #[serde(default)]
    pub setbit: Option<bool>,
    /// ns-2 `mark_p_` (default 0.1): with `use_mark_p`, mark only while the base drop
    /// probability is below it.
    #[serde(default)]
    pub mark_p: Option<f64>,
    /// ns-2 `drop_rand_` (default false): a forced drop takes a random queued packet (the
    /// arrival among them) rather than the arrival.
    #[serde(default)]
    pub drop_random: Option<bool>,
    /// ns-2 `ns1_compat_` (default false): a forced drop does not reset RED's count.
    #[serde(default)]
    pub ns1_compat: Option<bool>,
    /// SFQ: the number of buckets (ns-2 `buckets_`, default 16).
    #[serde(default)]
    pub buckets: Option<u32>,
}

/// A UMTS radio bearer on a dedicated channel: PDCP and RLC entities in the UE and the RNC,
/// MAC-d and the DCH PHY in the UE and the Node B, the Iub between Node B and RNC.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BearerSpec {
    /// Defaults to `"ue-rnc"`.
    #[serde(default)]
    pub name: Option<String>,
    pub ue: String,
    pub rnc: String,
    /// The Node B the UE is attached to (a scenario node; the Iub joins it to the RNC).
    #[serde(default)]
    pub node_b: Option<String>,
    /// One-way Iub transport delay between Node B and RNC.
    #[serde(default)]
    pub iub_delay: Option<Duration>,
    /// RLC mode: `am` (acknowledged, default) or `um` (unacknowledged).
    #[serde(default)]
    pub mode: Option<String>,
    /// RLC PDU data field (payload) size.
    #[serde(default)]
    pub pdu_payload: Option<Bytes>,
    /// RLC PDU header size.
    #[serde(default)]
    pub pdu_header: Option<Bytes>,
    /// i.i.d. transport-block error rate on both directions (shorthand; a direction's own
    /// `bler` or `error` takes precedence).
    #[serde(default)]
    pub bler: Option<f64>,
    #[serde(default)]
    pub pdcp: PdcpSpec,
    #[serde(default)]
    pub rlc: RlcSpec,
    pub downlink: DchSpec,
    pub uplink: DchSpec,
}

/// PDCP options.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PdcpSpec {
    /// PDCP header size (1 byte by default).
    #[serde(default)]
    pub header: Option<Bytes>,
    /// Replace the 40-byte TCP/IP header by `compressed_header` bytes.
    #[serde(default)]
    pub header_compression: Option<bool>,
    #[serde(default)]
    pub compressed_header: Option<Bytes>,
}

/// One direction of a dedicated channel.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DchSpec {
    /// RLC payload bit rate (the bearer's nominal rate, RLC headers excluded).
    pub rate: Rate,
    /// Transmission time interval: 10ms, 20ms, 40ms or 80ms.
    pub tti: Duration,
    /// Transport blocks per TTI; derived from rate, TTI and PDU payload when absent.
    #[serde(default)]
    pub blocks_per_tti: Option<u32>,
    /// i.i.d. transport-block error rate of this direction.
    #[serde(default)]
    pub bler: Option<f64>,
    /// Transport-block error model (overrides `bler`; none when both are absent).
    #[serde(default)]
    pub error: Option<ErrorSpec>,
    /// What one step of the error process is: `slot` (default; every transport-block slot of
    /// every TTI, used or not, so the channel evolves with time) or `block` (only blocks
    /// actually sent, like an ns-2 packet error model).
    #[serde(default)]
    pub error_clock: Option<String>,
}

/// RLC parameters (TS 25.322 §9.6); absent fields take the documented defaults
/// (`crate::umts::config`). A timer set to `"0ms"` and a counter set to 0 are switched off.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RlcSpec {
    pub tx_window: Option<u32>,
    pub rx_window: Option<u32>,
    /// Poll on the last PDU in the transmission buffer.
    pub poll_last_pdu: Option<bool>,
    /// Poll on the last PDU in the retransmission buffer.
    pub poll_last_retransmission: Option<bool>,
    /// Poll every Poll_PDU PDUs (0 = off).
    pub poll_pdu: Option<u32>,
    /// Poll every Poll_SDU SDUs (0 = off).
    pub poll_sdu: Option<u32>,
    /// Poll when the transmit window is this percent full (0 = off).
    pub poll_window: Option<u32>,
    pub timer_poll: Option<Duration>,
    pub timer_poll_prohibit: Option<Duration>,
    pub timer_poll_periodic: Option<Duration>,
    /// Send a STATUS when a missing PDU is detected.
    pub status_on_missing: Option<bool>,
    pub timer_status_prohibit: Option<Duration>,
    pub timer_status_periodic: Option<Duration>,
    /// Estimated PDU counter timer (R99); absent = off.
    pub timer_epc: Option<Duration>,
    /// Maximum transmissions bound MaxDAT; 0 or absent = unlimited retransmission.
    pub max_dat: Option<u32>,
    pub in_sequence_delivery: Option<bool>,
    pub concatenation: Option<bool>,
    /// RLC SDU buffer limit (absent = unlimited).
    pub sdu_buffer: Option<Bytes>,
}

/// A packet error model, named by `model`.
#[derive(Clone, Debug, Deserialize)]
#[serde(tag = "model", rename_all = "snake_case", deny_unknown_fields)]
pub enum ErrorSpec {
    /// Each packet lost independently with probability `rate`.
    Iid { rate: f64 },
    /// Gilbert-Elliott two-state channel.
    GilbertElliott {
        p_good_to_bad: f64,
        p_bad_to_good: f64,
        #[serde(default)]
        error_good: f64,
        #[serde(default = "one")]
        error_bad: f64,
    },
    /// N-state hidden Markov model: row-stochastic `transition` matrix and one error
    /// probability per state; starts in its stationary distribution.
    Hmm {
        transition: Vec<Vec<f64>>,
        error_prob: Vec<f64>,
    },
    /// Replays a file of per-unit outcomes (0 = received, 1 = error), relative to the
    /// working directory; `loop` (default true) restarts it at its end, else no more errors.
    Trace {
        file: String,
        #[serde(default = "yes", rename = "loop")]
        repeat: bool,
    },
}

fn yes() -> bool {
    true
}

fn one() -> f64 {
    1.0
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RouteSpec {
    /// The node whose table gets the entry.
    pub node: String,
    /// Destination node.
    pub dst: String,
    /// Next hop: a neighbour of `node`.
    pub via: String,
}

/// A flow from `src` to `dst`: a TCP connection (`tcp` names the variant) carrying FTP or a
/// trace-driven application, or UDP (`transport = "udp"`) carrying CBR or on/off traffic.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FlowSpec {
    /// Defaults to `"flow<index>"`.
    #[serde(default)]
    pub name: Option<String>,
    pub src: String,
    pub dst: String,
    /// `tcp` (default), `udp` or `ping`.
    #[serde(default)]
    pub transport: Option<String>,
    /// TCP variant: tahoe, reno, newreno, sack, vegas, vegasw (or vegas-w), few (required for
    /// TCP flows).
    #[serde(default)]
    pub tcp: Option<String>,
    #[serde(default)]
    pub start: Option<Duration>,
    /// Whether the application starts by itself at `start` (default true). With `false` it
    /// waits for a `[[events]]` start, or for the host to start it during a stepped run
    /// (ns-2: an application only a callback starts); `start` is then where the summary's
    /// active period begins.
    #[serde(default)]
    pub autostart: Option<bool>,
    /// The application stops offering new data at this time.
    #[serde(default)]
    pub stop: Option<Duration>,
    /// Bytes to transfer with the FTP application; unlimited when absent.
    #[serde(default)]
    pub bytes: Option<Bytes>,
    /// The application: FTP bulk transfer (default) or a trace-driven source.
    #[serde(default)]
    pub app: Option<AppSpec>,
    /// Per-flow TCP parameters, over `tcp_defaults`.
    #[serde(default)]
    pub options: TcpOptions,
    /// `transport = "fulltcp"`: the parameters of the passive opener (the flow's `dst`
    /// end), over `tcp_defaults` (the active opener's are `options`).
    #[serde(default)]
    pub peer_options: Option<TcpOptions>,
    /// `transport = "fulltcp"`: the active opener's FullTcp-only parameters.
    #[serde(default)]
    pub full_tcp: Option<FullTcpOptions>,
    /// `transport = "fulltcp"`: the passive opener's FullTcp-only parameters.
    #[serde(default)]
    pub full_tcp_peer: Option<FullTcpOptions>,
}

/// The parameters of an ns-2 FullTcp agent that one-way TCP has not (ns-2.35's names in
/// parentheses, its defaults when absent).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FullTcpOptions {
    /// The agent's class for the passive opener: reno, tahoe or newreno (default: the
    /// flow's `tcp`).
    pub variant: Option<String>,
    /// Payload bytes per segment (`segsize_`, 536).
    pub segsize: Option<u32>,
    /// Duplicate ACKs that trigger a fast retransmit (`tcprexmtthresh_`, 3).
    pub dupack_threshold: Option<u32>,
    /// ACK every this many full segments (`segsperack_`, 1).
    pub segs_per_ack: Option<u32>,
    /// Below this many bytes received, ACK every segment (`spa_thresh_`, 0: off).
    pub spa_thresh: Option<i64>,
    /// No sender-side Nagle (`nodelay_`, false).
    pub nodelay: Option<bool>,
    /// Data on the SYN (`data_on_syn_`, false).
    pub data_on_syn: Option<bool>,
    /// Duplicate segments' ACKs do not count as duplicate ACKs (`dupseg_fix_`, true).
    pub dupseg_fix: Option<bool>,
    /// A data segment with a duplicate ACK clears the count (`dupack_reset_`, false).
    pub dupack_reset: Option<bool>,
    /// Allow half-closed connections (`halfclose_`, false).
    pub halfclose: Option<bool>,
    /// No header prediction (`nopredict_`, false).
    pub nopredict: Option<bool>,
    /// Initial send sequence number (`iss_`, 0).
    pub iss: Option<i64>,
    /// Slow start after an idle period (`slow_start_restart_`, true).
    pub slow_start_restart: Option<bool>,
    /// No backoff on a timeout with nothing outstanding (`restart_bugfix_`, true).
    pub restart_bugfix: Option<bool>,
    /// Reno-style window inflation in fast recovery (`reno_fastrecov_`; Tahoe false).
    pub reno_fastrecov: Option<bool>,
    /// Open cwnd on a partial ACK (`open_cwnd_on_pack_`; NewReno false).
    pub open_cwnd_on_pack: Option<bool>,
    /// NewReno: maxburst during recovery (`recov_maxburst_`, 2).
    pub recov_maxburst: Option<u32>,
    /// With ECN (`options.ecn`): the passive opener's SYN/ACK is ECN-capable (`ecn_syn_`,
    /// false).
    pub ecn_syn: Option<bool>,
    /// With `ecn_syn`: a CE-marked SYN/ACK gives a window of 1 after the halving (0), a
    /// window of 1/2 and a wait of one RTT (1), or a new SYN/ACK (2) (`ecn_syn_wait_`, 0).
    pub ecn_syn_wait: Option<u32>,
    /// The passive end listens (ns-2 `$sink listen`; default true; only in `full_tcp_peer`). false: it opens the connection itself when it first sends.
    pub listen: Option<bool>,
    /// What this end's application (or the script) does and when, besides the flow's own
    /// start: more bytes to send (`bytes`; absent: an unlimited send, FTP `start`) or a
    /// close (`close = true`, ns-2 `$tcp close`).
    pub actions: Option<Vec<FullTcpActionSpec>>,
}

/// One scheduled action of a FullTcp end (`[[flows.full_tcp.actions]]`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FullTcpActionSpec {
    pub at: Duration,
    /// Bytes the application offers (ns-2 `advance_bytes`); absent with `close` absent: an
    /// unlimited send.
    pub bytes: Option<Bytes>,
    /// Close the connection (ns-2 `usrclosed`: the FIN exchange).
    pub close: Option<bool>,
    /// With `bytes`: close once they are all sent (ns-2 `sendmsg N MSG_EOF`).
    pub eof: Option<bool>,
}

/// The application feeding a flow, named by `kind`.
#[derive(Clone, Debug, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum AppSpec {
    /// Bulk transfer of `bytes` (or unlimited).
    Ftp,
    /// Writes the bytes listed in `file` (`time_s bytes` per line) at their times after the
    /// flow starts.
    Trace { file: String },
    /// Constant bit rate (ns-2 `Application/Traffic/CBR`): `rate` or `interval`,
    /// `packet_size` (default 210 B), `random` jitter, `max_packets`.
    Cbr {
        #[serde(default)]
        rate: Option<Rate>,
        #[serde(default)]
        interval: Option<Duration>,
        #[serde(default)]
        packet_size: Option<Bytes>,
        #[serde(default)]
        random: Option<bool>,
        #[serde(default)]
        max_packets: Option<u64>,
    },
    /// Exponential on/off (ns-2 `Application/Traffic/Exponential`): sends at `rate` during
    /// exponentially distributed bursts of mean `burst_time`, idle for mean `idle_time`.
    Exponential {
        rate: Rate,
        #[serde(default)]
        packet_size: Option<Bytes>,
        burst_time: Duration,
        idle_time: Duration,
    },
    /// Pareto on/off (ns-2 `Application/Traffic/Pareto`): as exponential, with Pareto
    /// distributed burst and idle times of the given means and `shape`.
    Pareto {
        rate: Rate,
        #[serde(default)]
        packet_size: Option<Bytes>,
        burst_time: Duration,
        idle_time: Duration,
        #[serde(default)]
        shape: Option<f64>,
    },
    /// A Telnet session over TCP (ns-2 `Application/Telnet` with `interval_` > 0): one
    /// packet to the TCP agent after each exponentially distributed gap of mean `interval`.
    Telnet { interval: Duration },
    /// A ping flow's agents (`transport = "ping"`, ns-2 `Agent/Ping`): the bytes of the
    /// source's packets (`packet_size`, default 64 B, ns-2's `packetSize_`) and of the
    /// destination's (`reply_size`, default the same); the source pings every `interval`
    /// from the flow's start, at most `count` times (without `interval` only `ping` events
    /// and a stepping host send requests).
    Ping {
        #[serde(default)]
        packet_size: Option<Bytes>,
        #[serde(default)]
        reply_size: Option<Bytes>,
        #[serde(default)]
        interval: Option<Duration>,
        #[serde(default)]
        count: Option<u64>,
    },
}

/// TCP parameters; every field is optional and falls back to the defaults profile.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TcpOptions {
    /// Defaults profile: ns2.35 (default), ns2.29, ns2.26, rfc.
    pub profile: Option<String>,
    /// Payload bytes per segment (ns-2 `packetSize_`).
    pub packet_size: Option<Bytes>,
    /// TCP/IP header bytes on the wire.
    pub header_size: Option<Bytes>,
    /// Data packets carry the header bytes (ns-2 `useHeaders_`, default true).
    pub use_headers: Option<bool>,
    /// Advertised (receiver) window in packets (ns-2 `window_`).
    pub window: Option<u32>,
    pub window_init: Option<u32>,
    /// ns-2 `windowInitOption_`: 1 (default) the initial window is `window_init`; 2 it comes
    /// from the segment size (`TcpAgent::initial_window`: 4 packets up to 1095 bytes, 3
    /// below 2190, else 2), until a timeout before anything is acknowledged goes back to 1.
    pub window_init_option: Option<u8>,
    pub max_burst: Option<u32>,
    pub max_cwnd: Option<f64>,
    pub syn: Option<bool>,
    /// ns-2 `delay_growth_` (default true): the ACK of packet 0 sets cwnd to `window_init`.
    pub delay_growth: Option<bool>,
    /// ns-2 `exitFastRetrans_` (default true; Reno and NewReno): false inflates the window
    /// by the duplicates after the third whether or not they follow a fast retransmit.
    pub exit_fast_retrans: Option<bool>,
    /// ns-2 `bugfix_ss_` (default true): a timeout before anything is acknowledged (the SYN
    /// lost) brings `window_init` down to 1, and a loss of the first data packet may be
    /// fast-retransmitted. false: ns-2's behaviour before 2006 (the initial window stays).
    pub bugfix_ss: Option<bool>,
    pub limited_transmit: Option<bool>,
    pub precision_reduce: Option<bool>,
    pub dupack_threshold: Option<u32>,
    /// Sack1: ns-2 `numdupacksFrac_` (default -1, no effect): the duplicate-ACK threshold is
    /// at least floor(cwnd) / this (C's integer division), raising it for large windows.
    pub dupack_frac: Option<i32>,
    /// Sack1: ns-2 `partial_ack_` (default false): a partial ACK sends the next two
    /// un-SACKed packets at once.
    pub partial_ack: Option<bool>,
    /// FACK: ns-2 `ss-div4_` (default false): a loss that ends slow start halves cwnd before
    /// the usual reduction.
    pub ss_div4: Option<bool>,
    /// FACK: ns-2 `rampdown_` (default false): after a loss the window comes down gradually
    /// as the forward ACK advances.
    pub rampdown: Option<bool>,
    /// ns-2 `overhead_` (default 0): each time the window would let a packet go, the
    /// sender waits a uniform random time in [0, overhead) and then sends what the window
    /// allows (`tahoe`, `reno`, `newreno`, `few` only).
    pub overhead: Option<Duration>,
    /// ns-2 `rfc2988_` (default true): the min RTO applies before the backoff (false: after).
    pub rfc2988: Option<bool>,
    /// ns-2 `bugFix_` (default true): no second fast retransmit within one window.
    pub bug_fix: Option<bool>,
    /// NewReno: ns-2 `bugFix_ack_` (default false), RFC 6582's ACK heuristic.
    pub bug_fix_ack: Option<bool>,
    /// NewReno with timestamps: ns-2 `bugFix_ts_` (default false), RFC 6582's timestamp
    /// heuristic.
    pub bug_fix_ts: Option<bool>,
    /// Restart the retransmission timer on every new ACK, also once everything the
    /// application offered is sent and acknowledged (ns-2 `TcpAgent::newtimer`; default
    /// false: the timer stops when a finite transfer is complete). The timer then fires each
    /// RTO with nothing outstanding, restarting the window from its initial size, which is
    /// what data the application offers later (`producemore`) meets.
    pub idle_rtx_timer: Option<bool>,
    /// Tahoe: no fast retransmit, losses wait for the timer (ns-2 `noFastRetrans_`, default
    /// false).
    pub no_fast_retrans: Option<bool>,
    /// NewReno: deflate the window by the data a partial ACK acknowledges (ns-2
    /// `partial_window_deflation_`, default true in the ns2.35 profile).
    pub partial_window_deflation: Option<bool>,
    /// NewReno: restart the retransmission timer on the first partial ACK only (ns-2
    /// `newreno_changes1_`, default true in the ns2.35 profile).
    pub first_partial_timer_only: Option<bool>,
    /// NewReno: leave recovery with cwnd = min(ssthresh, flight size + 1) (ns-2
    /// `exit_recovery_fix_`, default false).
    pub exit_recovery_fix: Option<bool>,
    /// NewReno: RFC 2582's less careful variant (ns-2 `lessCareful_`, default false).
    pub less_careful: Option<bool>,
    /// Congestion-avoidance increase per RTT in packets (ns-2 `increase_num_`, default 1; also
    /// FeW's alpha, default 0.01 for `few`).
    pub increase_num: Option<f64>,
    /// The window a loss leaves, as a fraction of the window before it (ns-2 `decrease_num_`,
    /// default 0.5; a number > 0 and <= 1). As in ns-2, the first cut, a cut in slow start
    /// and a timeout's ssthresh still halve (`TcpAgent::slowdown`). tahoe, reno, newreno,
    /// sack and few only.
    pub decrease_num: Option<f64>,
    /// The congestion-avoidance increase rule (ns-2 `windowOption_`): 1 (default), cwnd +=
    /// increase_num / cwnd per new ACK; 6, binomial controls (`binomial_k`, `binomial_l`).
    /// tahoe, reno, newreno, sack and few only.
    pub window_option: Option<u8>,
    /// With `window_option` 6: the increase is increase_num / cwnd^(k+1) per new ACK (ns-2
    /// `k_parameter_`, default 0).
    pub binomial_k: Option<f64>,
    /// With `window_option` 6: a later loss takes (1 - decrease_num) * W^l off the window W
    /// (ns-2 `l_parameter_`, default 1, from 0 to 1).
    pub binomial_l: Option<f64>,
    /// Smallest window in packets, > 0, may be fractional (default from the variant: 1, Vegas 2,
    /// Vegas-W 1).
    pub min_cwnd: Option<f64>,
    /// Send one packet per srtt / cwnd while cwnd < 1 (off: ns-2 waits for the timer; on by
    /// default for Vegas-W, its rate-control timer).
    pub pace_below_one: Option<bool>,
    /// Floor of ssthresh in packets, > 0 (ns-2: 2; Vegas-W 1).
    pub min_ssthresh: Option<f64>,
    /// The timestamp option (ns-2 `timestamps_`, default false): an RTT sample on every new
    /// ACK, `ts_option_size` more bytes on each data packet.
    pub timestamps: Option<bool>,
    /// Bytes of the timestamp option (ns-2 `ts_option_size_`, default 10).
    pub ts_option_size: Option<u32>,
    /// With timestamps, end the timer backoff on every sample (ns-2 `ts_resetRTO_`, default
    /// false).
    pub ts_reset_rto: Option<bool>,
    /// The sink echoes its `ts_to_echo_` (ns-2 `ts_echo_bugfix_`, default true) rather than
    /// the triggering segment's timestamp.
    pub ts_echo_bugfix: Option<bool>,
    /// The sink takes the timestamp to echo from the segment right after its last ACK (ns-2
    /// `ts_echo_rfc1323_`, default false).
    pub ts_echo_rfc1323: Option<bool>,
    /// The sink answers the ECN setup (packet 0) with an ECN-capable ACK (ns-2 TCPSink
    /// `ecn_syn_`, default false).
    pub sink_ecn_syn: Option<bool>,
    /// Restart the retransmission timer after a new ACK's RTT sample (ns-2 `timerfix_`,
    /// default true) or before it (false).
    pub timer_fix: Option<bool>,
    /// ECN (RFC 3168; ns-2 `ecn_`, default false): ECN-capable data packets, and the window
    /// halved once per window of data on an ECN-Echo ACK. AIMD variants only.
    pub ecn: Option<bool>,
    /// With `ecn`, an ECN-Echo ACK right after another opens the window (ns-2 `old_ecn_`,
    /// default false).
    pub old_ecn: Option<bool>,
    /// A timeout with nothing outstanding restarts the window at one packet (ns-2
    /// `slow_start_restart_`, default true); false: only the timer restarts. AIMD variants.
    pub slow_start_restart: Option<bool>,
    /// Give up when the SYN would be sent for the (max_connects + 1)th time (ns-2
    /// `max_connects_`, default -1: never). AIMD variants with the emulated SYN.
    pub max_connects: Option<i64>,
    /// ns-2's TCP quiescence option (`QOption_`, default false; Tahoe only): an idle or
    /// application-limited spell of an RTO or more cuts the window at the next send.
    pub qoption: Option<bool>,
    /// With `qoption`, spells counted in estimated RTTs (ns-2 `EnblRTTCtr_`, default false;
    /// without `qoption` it changes nothing, as in ns-2).
    pub rtt_counter: Option<bool>,
    /// A new ACK opens the window only while the window limits the sender (ns-2
    /// `control_increase_`, default false; the AIMD variants: tahoe, reno, newreno, sack).
    pub control_increase: Option<bool>,
    /// ns-2's RTT estimator gains and RTO weight (`T_SRTT_BITS` 3, `T_RTTVAR_BITS` 2,
    /// `rttvar_exp_` 2): srtt gain 2^-srtt_bits, rttvar gain 2^-rttvar_bits, RTO = srtt +
    /// 2^rttvar_exp · rttvar.
    pub srtt_bits: Option<u32>,
    pub rttvar_bits: Option<u32>,
    pub rttvar_exp: Option<u32>,
    /// RTO estimator: ns2 or rfc6298.
    pub rto: Option<String>,
    pub tick: Option<Duration>,
    pub min_rto: Option<Duration>,
    pub max_rto: Option<Duration>,
    pub initial_rto: Option<Duration>,
    /// The sender's phase against the tick clock, in [0, tick) (ns-2 `boot_time_`); default:
    /// drawn from the flow's random stream. `ternsim ns2` sets it to ns-2's own draw.
    pub tick_phase: Option<Duration>,
    pub delayed_ack: Option<bool>,
    pub delack_interval: Option<Duration>,
    pub sack_blocks: Option<u32>,
    /// Delayed ACKs: ACK packet 0 at once (ns-2 `SYN_immediate_ack_`, default true).
    pub syn_immediate_ack: Option<bool>,
    /// Delayed ACKs: ACK a gap-filling packet at once (ns-2 `RFC2581_immediate_ack_`, default
    /// true).
    pub gap_immediate_ack: Option<bool>,
    pub vegas_alpha: Option<f64>,
    pub vegas_beta: Option<f64>,
    pub vegas_gamma: Option<f64>,
    /// Whether ns-2 Vegas's packets omit the 40-byte header (true in ns-2).
    pub vegas_omits_header: Option<bool>,
    /// Vegas-W N_fw: consecutive timeouts at the minimum window before the fractional window
    /// (integer >= 1, default 2).
    pub vegasw_n_fw: Option<u32>,
    /// Vegas-W N_s: counted ACKs before slow start adds one packet (default 10).
    pub vegasw_n_s: Option<u32>,
    /// Vegas-W N_CA: counted ACKs before congestion avoidance adds 1/W (default 100).
    pub vegasw_n_ca: Option<u32>,
    /// Vegas-W NS_CA: stable RTTs before W_th takes the window (default 100).
    pub vegasw_ns_ca: Option<u32>,
    /// Vegas-W TO_ss: consecutive timeouts below W_th before it drops by one (default 2).
    pub vegasw_to_ss: Option<u32>,
    /// Vegas-W p: slow-start cut W(1 − p) when delta > gamma, in (0, 1) (default 0.125).
    pub vegasw_p: Option<f64>,
    /// Vegas-W fractional window, in (0, 1) packets (default 0.5).
    pub vegasw_fractional_window: Option<f64>,
}

/// Which traces to record.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TraceSpec {
    #[serde(default)]
    pub cwnd: bool,
    #[serde(default)]
    pub rtt: bool,
    #[serde(default)]
    pub rto: bool,
    #[serde(default)]
    pub segments: bool,
    #[serde(default)]
    pub acks: bool,
    #[serde(default)]
    pub tcp_events: bool,
    #[serde(default)]
    pub queues: bool,
    #[serde(default)]
    pub drops: bool,
    /// RLC PDU transmissions, retransmissions, polls, STATUS PDUs and block errors.
    #[serde(default)]
    pub rlc: bool,
    /// RLC transmission buffer occupancy (octets waiting) per side.
    #[serde(default)]
    pub rlc_buffer: bool,
    /// Delay of each SDU (IP packet) across a radio bearer, from submission to delivery.
    #[serde(default)]
    pub sdu_delay: bool,
    /// Every UDP datagram received, with its one-way delay.
    #[serde(default)]
    pub datagrams: bool,
    /// Scheduled topology and flow events as they happen.
    #[serde(default)]
    pub topology: bool,
    /// Throughput, delay and jitter of every flow over time, binned.
    #[serde(default)]
    pub flow_series: bool,
    /// The `flow_series` bin width (default 1 s; > 0).
    #[serde(default)]
    pub flow_series_bin: Option<Duration>,
}

fn default_true() -> bool {
    true
}
