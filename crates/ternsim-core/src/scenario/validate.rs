//! Checks the relations inside a scenario and resolves names to indices and options to
//! concrete TCP configurations. Everything that could make a run fail is caught here, before
//! the run, with the key path of the offending value.

use std::collections::HashMap;

use super::schema::{
    AppSpec, BearerSpec, DchSpec, ErrorSpec, NodeKind, ScenarioSpec, TcpOptions, TraceSpec,
};
use super::ScenarioError;
use crate::app::{parse_app_trace, AppWrite};
use crate::channel::hmm::{HiddenMarkov, HmmInitial};
use crate::channel::trace_driven::{TraceEnd, TraceErrors};
use crate::channel::ErrorModel;
use crate::net::routing::StaticRoutes;
use crate::sim::SimTime;
use crate::tcp::config::RtoMode;
use crate::tcp::{DefaultsProfile, SinkConfig, TcpConfig, TcpVariant};
use crate::umts::{BearerConfig, DchConfig, ErrorClock, RlcMode};

#[derive(Clone, Debug)]
pub struct ResolvedNode {
    pub name: String,
    pub kind: NodeKind,
    pub position: Option<[f64; 2]>,
}

#[derive(Clone, Debug)]
pub struct ResolvedLink {
    pub name: String,
    pub a: usize,
    pub b: usize,
    pub rate_bps: f64,
    pub delay: SimTime,
    pub queue: u32,
    pub error_a_to_b: ErrorModel,
    pub error_b_to_a: ErrorModel,
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

#[derive(Clone, Debug)]
pub struct ResolvedFlow {
    pub name: String,
    pub src: usize,
    pub dst: usize,
    pub tcp: TcpConfig,
    pub sink: SinkConfig,
    pub start: SimTime,
    pub stop: Option<SimTime>,
    /// Application bytes to send; `None` = unlimited (FTP) or trace-driven.
    pub app_bytes: Option<u64>,
    /// For a trace-driven application: its writes, offsets from `start`.
    pub app_trace: Option<Vec<AppWrite>>,
}

/// A scenario whose names are resolved and whose values are checked.
#[derive(Clone, Debug)]
pub struct ResolvedScenario {
    pub name: String,
    pub duration: SimTime,
    pub nodes: Vec<ResolvedNode>,
    pub links: Vec<ResolvedLink>,
    pub bearers: Vec<ResolvedBearer>,
    /// Routes over links and bearers: a next hop's `link` index counts the links first,
    /// then the bearers (`links.len() + b`).
    pub routes: StaticRoutes,
    pub flows: Vec<ResolvedFlow>,
    pub traces: TraceSpec,
    /// Files the scenario reads (error and application traces), resolved: a run depends on
    /// their contents as much as on the scenario text.
    pub input_files: Vec<std::path::PathBuf>,
}

fn probability(path: &str, p: f64) -> Result<f64, ScenarioError> {
    if (0.0..=1.0).contains(&p) {
        Ok(p)
    } else {
        Err(ScenarioError::at(
            path,
            format!("{p} is not a probability; allowed: a number in [0, 1]"),
        ))
    }
}

/// `file` relative to the scenario's folder (or the working directory).
fn resolve_file(dir: Option<&String>, file: &str) -> std::path::PathBuf {
    let p = std::path::Path::new(file);
    match dir {
        Some(d) if p.is_relative() => std::path::Path::new(d).join(p),
        _ => p.to_path_buf(),
    }
}

fn error_model(
    path: &str,
    spec: &ErrorSpec,
    dir: Option<&String>,
) -> Result<ErrorModel, ScenarioError> {
    match *spec {
        ErrorSpec::Iid { rate } => Ok(ErrorModel::Iid {
            p: probability(&format!("{path}.rate"), rate)?,
        }),
        ErrorSpec::GilbertElliott {
            p_good_to_bad,
            p_bad_to_good,
            error_good,
            error_bad,
        } => {
            let p_gb = probability(&format!("{path}.p_good_to_bad"), p_good_to_bad)?;
            let p_bg = probability(&format!("{path}.p_bad_to_good"), p_bad_to_good)?;
            let e_g = probability(&format!("{path}.error_good"), error_good)?;
            let e_b = probability(&format!("{path}.error_bad"), error_bad)?;
            ErrorModel::gilbert_elliott(p_gb, p_bg, e_g, e_b)
                .map_err(|m| ScenarioError::at(path, m))
        }
        ErrorSpec::Hmm {
            ref transition,
            ref error_prob,
        } => HiddenMarkov::new(
            transition.clone(),
            error_prob.clone(),
            HmmInitial::Stationary,
        )
        .map(ErrorModel::Hmm)
        .map_err(|m| ScenarioError::at(format!("{path}.transition"), m)),
        ErrorSpec::Trace { ref file, repeat } => {
            let end = if repeat {
                TraceEnd::Loop
            } else {
                TraceEnd::Stop
            };
            TraceErrors::from_file(&resolve_file(dir, file), end)
                .map(ErrorModel::Trace)
                .map_err(|m| ScenarioError::at(format!("{path}.file"), m))
        }
    }
}

/// Applies `opts` (found at key path `path`) onto `cfg` and `sink`.
fn apply_tcp_options(
    path: &str,
    opts: &TcpOptions,
    cfg: &mut TcpConfig,
    sink: &mut SinkConfig,
) -> Result<(), ScenarioError> {
    let at = |k: &str| format!("{path}.{k}");
    if let Some(b) = opts.packet_size {
        if b.0 == 0 || b.0 > 65_535 {
            return Err(ScenarioError::at(
                at("packet_size"),
                "allowed: 1B to 65535B",
            ));
        }
        cfg.packet_size = b.0 as u32;
    }
    if let Some(b) = opts.header_size {
        if b.0 > 1_000 {
            return Err(ScenarioError::at(at("header_size"), "allowed: 0B to 1000B"));
        }
        cfg.header_size = b.0 as u32;
    }
    if let Some(w) = opts.window {
        if w == 0 {
            return Err(ScenarioError::at(
                at("window"),
                "allowed: an integer >= 1 (packets)",
            ));
        }
        cfg.window = w;
    }
    if let Some(w) = opts.window_init {
        if w == 0 {
            return Err(ScenarioError::at(
                at("window_init"),
                "allowed: an integer >= 1 (packets)",
            ));
        }
        cfg.window_init = w;
    }
    if let Some(v) = opts.max_burst {
        cfg.max_burst = v;
    }
    if let Some(v) = opts.max_cwnd {
        if v < 0.0 {
            return Err(ScenarioError::at(
                at("max_cwnd"),
                "allowed: >= 0 (0 = no limit)",
            ));
        }
        cfg.max_cwnd = v;
    }
    if let Some(v) = opts.syn {
        cfg.syn = v;
    }
    if let Some(v) = opts.limited_transmit {
        cfg.limited_transmit = v;
    }
    if let Some(v) = opts.precision_reduce {
        cfg.precision_reduce = v;
    }
    if let Some(v) = opts.dupack_threshold {
        if v == 0 {
            return Err(ScenarioError::at(
                at("dupack_threshold"),
                "allowed: an integer >= 1",
            ));
        }
        cfg.dupack_threshold = v;
    }
    // FeW's alpha (tcp-spec §10) and the window floors of the variant table: all positive.
    for (key, value, slot) in [
        ("increase_num", opts.increase_num, &mut cfg.increase_num),
        ("min_cwnd", opts.min_cwnd, &mut cfg.min_cwnd),
        ("min_ssthresh", opts.min_ssthresh, &mut cfg.min_ssthresh),
    ] {
        if let Some(v) = value {
            if !(v > 0.0 && v.is_finite()) {
                return Err(ScenarioError::at(
                    at(key),
                    "allowed: a number > 0 (packets)",
                ));
            }
            *slot = v;
        }
    }
    if let Some(m) = &opts.rto {
        cfg.rto.mode = match m.as_str() {
            "ns2" => RtoMode::Ns2,
            "rfc6298" => RtoMode::Rfc6298,
            other => {
                return Err(ScenarioError::at(
                    at("rto"),
                    format!("unknown RTO estimator `{other}`; allowed: ns2, rfc6298"),
                ))
            }
        };
    }
    if let Some(d) = opts.tick {
        if d.0 == SimTime::ZERO {
            return Err(ScenarioError::at(at("tick"), "allowed: a duration > 0"));
        }
        cfg.rto.tick = d.0;
    }
    if let Some(d) = opts.min_rto {
        cfg.rto.min_rto = d.0;
    }
    if let Some(d) = opts.max_rto {
        cfg.rto.max_rto = d.0;
    }
    if let Some(d) = opts.initial_rto {
        if d.0 == SimTime::ZERO {
            return Err(ScenarioError::at(
                at("initial_rto"),
                "allowed: a duration > 0",
            ));
        }
        cfg.rto.initial_rto = d.0;
    }
    if cfg.rto.min_rto > cfg.rto.max_rto {
        return Err(ScenarioError::at(at("min_rto"), "must not exceed max_rto"));
    }
    if let Some(v) = opts.delayed_ack {
        sink.delayed_ack = v;
    }
    if let Some(d) = opts.delack_interval {
        if d.0 == SimTime::ZERO {
            return Err(ScenarioError::at(
                at("delack_interval"),
                "allowed: a duration > 0",
            ));
        }
        sink.delack_interval = d.0;
    }
    if let Some(n) = opts.sack_blocks {
        if !(1..=4).contains(&n) {
            return Err(ScenarioError::at(at("sack_blocks"), "allowed: 1 to 4"));
        }
        sink.max_sack_blocks = n;
    }
    for (key, value, slot) in [
        ("vegas_alpha", opts.vegas_alpha, &mut cfg.vegas.alpha),
        ("vegas_beta", opts.vegas_beta, &mut cfg.vegas.beta),
        ("vegas_gamma", opts.vegas_gamma, &mut cfg.vegas.gamma),
    ] {
        if let Some(v) = value {
            if v < 0.0 {
                return Err(ScenarioError::at(
                    at(key),
                    "allowed: a number >= 0 (packets)",
                ));
            }
            *slot = v;
        }
    }
    if cfg.vegas.alpha > cfg.vegas.beta {
        return Err(ScenarioError::at(
            at("vegas_alpha"),
            "must not exceed vegas_beta",
        ));
    }
    if let Some(v) = opts.vegas_omits_header {
        cfg.vegas_omits_header = v;
    }
    Ok(())
}

/// The error model of one DCH direction: its `error`, else its `bler`, else the bearer's.
fn dch_error(
    path: &str,
    dch: &DchSpec,
    bearer_bler: Option<f64>,
    dir: Option<&String>,
) -> Result<ErrorModel, ScenarioError> {
    if let Some(e) = &dch.error {
        return error_model(&format!("{path}.error"), e, dir);
    }
    if let Some(p) = dch.bler {
        return Ok(ErrorModel::Iid {
            p: probability(&format!("{path}.bler"), p)?,
        });
    }
    Ok(match bearer_bler {
        Some(p) => ErrorModel::Iid { p },
        None => ErrorModel::None,
    })
}

fn dch_config(path: &str, dch: &DchSpec, payload: u32) -> Result<DchConfig, ScenarioError> {
    let tti_ms = [10, 20, 40, 80];
    if !tti_ms.iter().any(|&m| SimTime::from_millis(m) == dch.tti.0) {
        return Err(ScenarioError::at(
            format!("{path}.tti"),
            format!(
                "{} is not a UMTS TTI; allowed: 10ms, 20ms, 40ms, 80ms",
                dch.tti.0
            ),
        ));
    }
    let error_clock = match dch.error_clock.as_deref() {
        None | Some("slot") => ErrorClock::PerSlot,
        Some("block") => ErrorClock::PerBlock,
        Some(other) => {
            return Err(ScenarioError::at(
                format!("{path}.error_clock"),
                format!("unknown error clock `{other}`; allowed: slot, block"),
            ))
        }
    };
    let cfg = DchConfig {
        rate_bps: dch.rate.0.round() as u64,
        tti: dch.tti.0,
        blocks_per_tti: dch.blocks_per_tti,
        extra_delay: SimTime::ZERO,
        error_clock,
    };
    if cfg.blocks(payload) == 0 {
        return Err(ScenarioError::at(
            format!("{path}.blocks_per_tti"),
            format!("{path} carries no PDU per TTI; allowed: an integer >= 1"),
        ));
    }
    Ok(cfg)
}

/// Maps a bearer table onto the model's configuration (defaults: `BearerConfig::default`,
/// the lo-umts profile documented in `crate::umts::config`).
fn bearer_config(
    path: &str,
    b: &BearerSpec,
    dir: Option<&String>,
) -> Result<(BearerConfig, ErrorModel, ErrorModel), ScenarioError> {
    let at = |k: &str| format!("{path}.{k}");
    let mut cfg = BearerConfig::default();
    cfg.rlc.mode = match b.mode.as_deref() {
        None | Some("am") => RlcMode::Am,
        Some("um") => RlcMode::Um,
        Some(other) => {
            return Err(ScenarioError::at(
                at("mode"),
                format!("unknown RLC mode `{other}`; allowed: am, um"),
            ))
        }
    };
    if let Some(v) = b.pdu_payload {
        cfg.rlc.payload_bytes = v.0 as u32;
    }
    if let Some(v) = b.pdu_header {
        cfg.rlc.header_bytes = v.0 as u32;
    }
    if let Some(d) = b.iub_delay {
        cfg.iub_delay = d.0;
    }
    if let Some(v) = b.pdcp.header {
        cfg.pdcp.header_bytes = v.0 as u32;
    }
    if b.pdcp.header_compression == Some(true) {
        cfg.pdcp.compressed_header_bytes = Some(b.pdcp.compressed_header.map_or(4, |v| v.0 as u32));
    }
    let r = &b.rlc;
    let rat = |k: &str| format!("{path}.rlc.{k}");
    if let Some(v) = r.tx_window {
        cfg.rlc.tx_window = v;
    }
    if let Some(v) = r.rx_window {
        cfg.rlc.rx_window = v;
    }
    if let Some(v) = r.poll_last_pdu {
        cfg.rlc.poll.last_tx_pdu = v;
    }
    if let Some(v) = r.poll_last_retransmission {
        cfg.rlc.poll.last_retx_pdu = v;
    }
    if let Some(v) = r.poll_pdu {
        cfg.rlc.poll.poll_pdu = (v > 0).then_some(v);
    }
    if let Some(v) = r.poll_sdu {
        cfg.rlc.poll.poll_sdu = (v > 0).then_some(v);
    }
    if let Some(v) = r.poll_window {
        if v > 100 {
            return Err(ScenarioError::at(
                rat("poll_window"),
                "allowed: a percentage 0..=100 (0 = off)",
            ));
        }
        cfg.rlc.poll.poll_window = (v > 0).then_some(v);
    }
    let timer =
        |d: Option<super::units::Duration>| d.and_then(|d| (d.0 > SimTime::ZERO).then_some(d.0));
    if r.timer_poll.is_some() {
        cfg.rlc.poll.timer_poll = timer(r.timer_poll);
    }
    if r.timer_poll_prohibit.is_some() {
        cfg.rlc.poll.timer_poll_prohibit = timer(r.timer_poll_prohibit);
    }
    if r.timer_poll_periodic.is_some() {
        cfg.rlc.poll.timer_poll_periodic = timer(r.timer_poll_periodic);
    }
    if let Some(v) = r.status_on_missing {
        cfg.rlc.status.missing_pdu_indicator = v;
    }
    if r.timer_status_prohibit.is_some() {
        cfg.rlc.status.timer_status_prohibit = timer(r.timer_status_prohibit);
    }
    if r.timer_status_periodic.is_some() {
        cfg.rlc.status.timer_status_periodic = timer(r.timer_status_periodic);
    }
    if r.timer_epc.is_some() {
        cfg.rlc.status.timer_epc = timer(r.timer_epc);
    }
    if let Some(v) = r.max_dat {
        if v == 1 {
            return Err(ScenarioError::at(
                rat("max_dat"),
                "MaxDAT allows MaxDAT - 1 transmissions; allowed: 0 (unlimited) or >= 2",
            ));
        }
        cfg.rlc.max_dat = (v > 0).then_some(v);
    }
    if let Some(v) = r.in_sequence_delivery {
        cfg.rlc.in_sequence_delivery = v;
    }
    if let Some(v) = r.concatenation {
        cfg.rlc.concatenation = v;
    }
    if let Some(v) = r.sdu_buffer {
        cfg.rlc.sdu_buffer_bytes = Some(v.0);
    }
    let bler = match b.bler {
        Some(p) => Some(probability(&at("bler"), p)?),
        None => None,
    };
    let payload = cfg.rlc.payload_bytes;
    cfg.down = dch_config(&at("downlink"), &b.downlink, payload)?;
    cfg.up = dch_config(&at("uplink"), &b.uplink, payload)?;
    cfg.validate().map_err(|m| ScenarioError::at(path, m))?;
    let down = dch_error(&at("downlink"), &b.downlink, bler, dir)?;
    let up = dch_error(&at("uplink"), &b.uplink, bler, dir)?;
    Ok((cfg, down, up))
}

fn profile(path: &str, name: Option<&String>) -> Result<Option<DefaultsProfile>, ScenarioError> {
    match name {
        None => Ok(None),
        Some(n) => DefaultsProfile::parse(n).map(Some).ok_or_else(|| {
            ScenarioError::at(
                path,
                format!(
                    "unknown defaults profile `{n}`; allowed: {}",
                    DefaultsProfile::NAMES.join(", ")
                ),
            )
        }),
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
    links.chain(bearers).chain(apps).flatten().collect()
}

/// Checks `spec` and resolves it.
pub fn resolve(spec: ScenarioSpec) -> Result<ResolvedScenario, ScenarioError> {
    let input_files = input_files(&spec);
    if spec.duration.0 == SimTime::ZERO {
        return Err(ScenarioError::at("duration", "allowed: a duration > 0"));
    }
    if spec.nodes.is_empty() {
        return Err(ScenarioError::at(
            "nodes",
            "a scenario needs at least one node",
        ));
    }
    let mut index: HashMap<&str, usize> = HashMap::new();
    let mut nodes = Vec::with_capacity(spec.nodes.len());
    for (i, n) in spec.nodes.iter().enumerate() {
        if n.name.is_empty() {
            return Err(ScenarioError::at(
                format!("nodes.{i}.name"),
                "must not be empty",
            ));
        }
        if index.insert(n.name.as_str(), i).is_some() {
            return Err(ScenarioError::at(
                format!("nodes.{i}.name"),
                format!("duplicate node name `{}`", n.name),
            ));
        }
        nodes.push(ResolvedNode {
            name: n.name.clone(),
            kind: n.kind,
            position: n.position,
        });
    }
    let node_names = || {
        let mut v: Vec<&str> = spec.nodes.iter().map(|n| n.name.as_str()).collect();
        v.truncate(12);
        v.join(", ")
    };
    let lookup = |path: String, name: &str| -> Result<usize, ScenarioError> {
        index.get(name).copied().ok_or_else(|| {
            ScenarioError::at(
                path,
                format!(
                    "unknown node `{name}`; allowed: one of the nodes ({})",
                    node_names()
                ),
            )
        })
    };

    let dir = spec.scenario_dir.as_ref();
    let mut links = Vec::with_capacity(spec.links.len());
    let mut link_names: HashMap<String, usize> = HashMap::new();
    for (i, l) in spec.links.iter().enumerate() {
        let a = lookup(format!("links.{i}.a"), &l.a)?;
        let b = lookup(format!("links.{i}.b"), &l.b)?;
        if a == b {
            return Err(ScenarioError::at(
                format!("links.{i}.b"),
                "a link needs two different nodes",
            ));
        }
        if l.queue == 0 {
            return Err(ScenarioError::at(
                format!("links.{i}.queue"),
                "allowed: an integer >= 1 (packets)",
            ));
        }
        let name = l.name.clone().unwrap_or_else(|| format!("{}-{}", l.a, l.b));
        if link_names.insert(name.clone(), i).is_some() {
            return Err(ScenarioError::at(
                format!("links.{i}.name"),
                format!("duplicate link name `{name}`"),
            ));
        }
        let shorthand = match l.loss {
            Some(p) => ErrorModel::Iid {
                p: probability(&format!("links.{i}.loss"), p)?,
            },
            None => ErrorModel::None,
        };
        let error_a_to_b = match &l.error_a_to_b {
            Some(e) => error_model(&format!("links.{i}.error_a_to_b"), e, dir)?,
            None => shorthand.clone(),
        };
        let error_b_to_a = match &l.error_b_to_a {
            Some(e) => error_model(&format!("links.{i}.error_b_to_a"), e, dir)?,
            None => shorthand,
        };
        links.push(ResolvedLink {
            name,
            a,
            b,
            rate_bps: l.rate.0,
            delay: l.delay.0,
            queue: l.queue,
            error_a_to_b,
            error_b_to_a,
        });
    }

    let mut bearers = Vec::with_capacity(spec.bearers.len());
    for (i, b) in spec.bearers.iter().enumerate() {
        let path = format!("bearers.{i}");
        let ue = lookup(format!("{path}.ue"), &b.ue)?;
        let rnc = lookup(format!("{path}.rnc"), &b.rnc)?;
        if ue == rnc {
            return Err(ScenarioError::at(
                format!("{path}.rnc"),
                "must differ from ue",
            ));
        }
        let node_b = match &b.node_b {
            Some(n) => Some(lookup(format!("{path}.node_b"), n)?),
            None => None,
        };
        let (cfg, down_error, up_error) = bearer_config(&path, b, dir)?;
        let name = b
            .name
            .clone()
            .unwrap_or_else(|| format!("{}-{}", b.ue, b.rnc));
        if link_names.insert(name.clone(), usize::MAX).is_some() {
            return Err(ScenarioError::at(
                format!("{path}.name"),
                format!("duplicate link or bearer name `{name}`"),
            ));
        }
        bearers.push(ResolvedBearer {
            name,
            ue,
            rnc,
            node_b,
            cfg,
            down_error,
            up_error,
        });
    }
    // The routing graph: wired links first, then bearers.
    let edges: Vec<(usize, usize)> = links
        .iter()
        .map(|l| (l.a, l.b))
        .chain(bearers.iter().map(|b| (b.rnc, b.ue)))
        .collect();

    let mut explicit = Vec::with_capacity(spec.routes.len());
    for (i, r) in spec.routes.iter().enumerate() {
        let node = lookup(format!("routes.{i}.node"), &r.node)?;
        let dst = lookup(format!("routes.{i}.dst"), &r.dst)?;
        let via = lookup(format!("routes.{i}.via"), &r.via)?;
        let one = StaticRoutes::shortest_paths(nodes.len(), &edges, &[(node, dst, via)]);
        if let Err(m) = one {
            return Err(ScenarioError::at(format!("routes.{i}.via"), m));
        }
        explicit.push((node, dst, via));
    }
    let routes = StaticRoutes::shortest_paths(nodes.len(), &edges, &explicit)
        .map_err(|m| ScenarioError::at("routes", m))?;

    let default_profile = profile("tcp_defaults.profile", spec.tcp_defaults.profile.as_ref())?;
    let mut flows = Vec::with_capacity(spec.flows.len());
    let mut flow_names: HashMap<String, usize> = HashMap::new();
    for (i, f) in spec.flows.iter().enumerate() {
        let src = lookup(format!("flows.{i}.src"), &f.src)?;
        let dst = lookup(format!("flows.{i}.dst"), &f.dst)?;
        if src == dst {
            return Err(ScenarioError::at(
                format!("flows.{i}.dst"),
                "must differ from src",
            ));
        }
        let variant = TcpVariant::parse(&f.tcp).ok_or_else(|| {
            ScenarioError::at(
                format!("flows.{i}.tcp"),
                format!(
                    "unknown TCP variant `{}`; allowed: {}",
                    f.tcp,
                    TcpVariant::NAMES.join(", ")
                ),
            )
        })?;
        if routes.path(src, dst).is_none() {
            return Err(ScenarioError::at(
                format!("flows.{i}.dst"),
                format!(
                    "no route from `{}` to `{}`; connect them with links",
                    f.src, f.dst
                ),
            ));
        }
        if routes.path(dst, src).is_none() {
            return Err(ScenarioError::at(
                format!("flows.{i}.src"),
                format!("no route back from `{}` to `{}` for ACKs", f.dst, f.src),
            ));
        }
        let prof = profile(
            &format!("flows.{i}.options.profile"),
            f.options.profile.as_ref(),
        )?
        .or(default_profile)
        .unwrap_or(DefaultsProfile::Ns2_35);
        let mut tcp = TcpConfig::from_profile(variant, prof);
        let mut sink = SinkConfig {
            sack: variant.uses_sack(),
            ..SinkConfig::default()
        };
        apply_tcp_options("tcp_defaults", &spec.tcp_defaults, &mut tcp, &mut sink)?;
        apply_tcp_options(
            &format!("flows.{i}.options"),
            &f.options,
            &mut tcp,
            &mut sink,
        )?;
        let start = f.start.map(|d| d.0).unwrap_or(SimTime::ZERO);
        if start >= spec.duration.0 {
            return Err(ScenarioError::at(
                format!("flows.{i}.start"),
                format!("must be before the end of the run ({})", spec.duration.0),
            ));
        }
        let stop = f.stop.map(|d| d.0);
        if let Some(s) = stop {
            if s <= start {
                return Err(ScenarioError::at(
                    format!("flows.{i}.stop"),
                    "must be after start",
                ));
            }
        }
        let name = f.name.clone().unwrap_or_else(|| format!("flow{i}"));
        if flow_names.insert(name.clone(), i).is_some() {
            return Err(ScenarioError::at(
                format!("flows.{i}.name"),
                format!("duplicate flow name `{name}`"),
            ));
        }
        let app_trace = match &f.app {
            None | Some(AppSpec::Ftp) => None,
            Some(AppSpec::Trace { file }) => {
                if f.bytes.is_some() {
                    return Err(ScenarioError::at(
                        format!("flows.{i}.bytes"),
                        "a trace-driven application sends what its trace lists; remove `bytes`",
                    ));
                }
                let path = resolve_file(dir, file);
                let text = std::fs::read_to_string(&path).map_err(|e| {
                    ScenarioError::at(
                        format!("flows.{i}.app.file"),
                        format!("cannot read `{}`: {e}", path.display()),
                    )
                })?;
                Some(parse_app_trace(&text).map_err(|m| {
                    ScenarioError::at(
                        format!("flows.{i}.app.file"),
                        format!("{}: {m}", path.display()),
                    )
                })?)
            }
        };
        flows.push(ResolvedFlow {
            name,
            src,
            dst,
            tcp,
            sink,
            start,
            stop,
            app_bytes: f.bytes.map(|b| b.0),
            app_trace,
        });
    }

    Ok(ResolvedScenario {
        name: spec.name,
        duration: spec.duration.0,
        nodes,
        links,
        bearers,
        routes,
        flows,
        traces: spec.traces,
        input_files,
    })
}
