//! The scenario schema: plain data, deserialised strictly (unknown keys are refused).
//!
//! This file says what a scenario may contain; `validate.rs` checks the relations between
//! its parts (names exist, a path exists) and `crate::world::build` turns it into a network.

use serde::Deserialize;

use super::units::{Bytes, Duration, Rate};

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
    pub nodes: Vec<NodeSpec>,
    #[serde(default)]
    pub links: Vec<LinkSpec>,
    /// Explicit static routes; everything else is routed by shortest hop count.
    #[serde(default)]
    pub routes: Vec<RouteSpec>,
    #[serde(default)]
    pub flows: Vec<FlowSpec>,
    #[serde(default)]
    pub traces: TraceSpec,
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
    /// Drop-tail queue limit in packets, per direction (not counting the packet on the wire).
    #[serde(default = "default_queue")]
    pub queue: u32,
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
}

fn default_queue() -> u32 {
    50
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

/// A TCP connection carrying an FTP bulk transfer from `src` to `dst`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FlowSpec {
    /// Defaults to `"flow<index>"`.
    #[serde(default)]
    pub name: Option<String>,
    pub src: String,
    pub dst: String,
    /// TCP variant: tahoe, reno, newreno, sack, vegas.
    pub tcp: String,
    #[serde(default)]
    pub start: Option<Duration>,
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
    /// Advertised (receiver) window in packets (ns-2 `window_`).
    pub window: Option<u32>,
    pub window_init: Option<u32>,
    pub max_burst: Option<u32>,
    pub max_cwnd: Option<f64>,
    pub syn: Option<bool>,
    pub limited_transmit: Option<bool>,
    pub precision_reduce: Option<bool>,
    pub dupack_threshold: Option<u32>,
    /// RTO estimator: ns2 or rfc6298.
    pub rto: Option<String>,
    pub tick: Option<Duration>,
    pub min_rto: Option<Duration>,
    pub max_rto: Option<Duration>,
    pub initial_rto: Option<Duration>,
    pub delayed_ack: Option<bool>,
    pub delack_interval: Option<Duration>,
    pub sack_blocks: Option<u32>,
    pub vegas_alpha: Option<f64>,
    pub vegas_beta: Option<f64>,
    pub vegas_gamma: Option<f64>,
    /// Whether ns-2 Vegas's packets omit the 40-byte header (true in ns-2).
    pub vegas_omits_header: Option<bool>,
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
}
