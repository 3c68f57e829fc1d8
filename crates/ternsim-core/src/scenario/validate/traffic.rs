//! `[traffic]`: connections generated as ns-2's cbrgen draws them, or read from an ns-2
//! connection file, turned into ordinary flows (`tcp_<k>`, `cbr_<k>`) after `[[flows]]`;
//! `$node_(i)` is the i-th node. Connections starting at or after the end of the run are
//! left out (in ns-2 they would never start).

use super::super::schema::{AppSpec, FlowSpec, ScenarioSpec, TcpOptions};
use super::super::units::{Bytes, Duration, Rate};
use super::super::ScenarioError;
use super::common::resolve_file;
use super::ResolvedNode;
use crate::app::cbrgen::{cbrgen, CBRGEN_PACKET_SIZE, CBRGEN_TCP_WINDOW};
use crate::app::connection_file::{parse_connection_file, FileConnection, FileTransport};
use crate::sim::SimTime;

/// The key generated flows' errors are reported at.
pub(super) fn origin(spec: &ScenarioSpec) -> &'static str {
    match &spec.traffic {
        Some(t) if t.file.is_some() => "traffic.file",
        _ => "traffic.connections",
    }
}

/// A generated flow's error, moved from `flows.<i>` (a list the user did not write) to the
/// `[traffic]` key that made the flow.
pub(super) fn relocate(
    e: ScenarioError,
    listed: usize,
    origin: &str,
    flows: &[FlowSpec],
) -> ScenarioError {
    let Some(rest) = e.path.strip_prefix("flows.") else {
        return e;
    };
    let index: Option<usize> = rest.split('.').next().and_then(|i| i.parse().ok());
    match index {
        Some(i) if i >= listed => {
            let name = flows[i].name.as_deref().unwrap_or("?");
            ScenarioError::at(origin, format!("flow `{name}`: {}", e.message))
        }
        _ => e,
    }
}

fn node_name(
    nodes: &[ResolvedNode],
    i: usize,
    at: &str,
    what: &str,
) -> Result<String, ScenarioError> {
    nodes.get(i).map(|n| n.name.clone()).ok_or_else(|| {
        ScenarioError::at(
            at,
            format!(
                "{what} names $node_({i}) but the scenario has {} nodes ($node_(i) is the i-th)",
                nodes.len()
            ),
        )
    })
}

fn tcp_variant(spec: &ScenarioSpec, file_class: &str) -> String {
    match spec.traffic.as_ref().and_then(|t| t.tcp.clone()) {
        Some(v) => v,
        None => FileTransport::tcp_variant(file_class)
            .unwrap_or("tahoe")
            .to_string(),
    }
}

fn flow(spec: &ScenarioSpec, c: &FileConnection, src: String, dst: String) -> FlowSpec {
    let mut f = FlowSpec {
        name: Some(c.name.clone()),
        src,
        dst,
        transport: None,
        tcp: None,
        start: Some(Duration(SimTime::from_secs_f64(c.start))),
        stop: c.stop.map(|s| Duration(SimTime::from_secs_f64(s))),
        autostart: None,
        bytes: None,
        app: None,
        options: TcpOptions::default(),
        peer_options: None,
        full_tcp: None,
        full_tcp_peer: None,
    };
    match &c.transport {
        FileTransport::Cbr {
            packet_size,
            interval,
            rate_bps,
            random,
            max_packets,
        } => {
            f.transport = Some("udp".into());
            f.app = Some(AppSpec::Cbr {
                rate: rate_bps.map(Rate),
                interval: interval.map(|i| Duration(SimTime::from_secs_f64(i))),
                packet_size: packet_size.map(|b| Bytes(u64::from(b))),
                random: Some(*random),
                max_packets: *max_packets,
            });
        }
        FileTransport::Tcp {
            agent,
            packet_size,
            window,
        } => {
            f.tcp = Some(tcp_variant(spec, agent));
            f.options.packet_size = packet_size.map(|b| Bytes(u64::from(b)));
            f.options.window = *window;
        }
    }
    f
}

/// The flows `[traffic]` adds.
/// The flows `[traffic]` adds, and the connections that start too late to be flows.
pub(super) fn flow_specs(
    spec: &ScenarioSpec,
    nodes: &[ResolvedNode],
) -> Result<(Vec<FlowSpec>, Vec<super::NeverStarted>), ScenarioError> {
    let Some(t) = &spec.traffic else {
        return Ok((Vec::new(), Vec::new()));
    };
    let (at, conns) = match (&t.connections, &t.file) {
        (Some(_), Some(_)) => {
            return Err(ScenarioError::at(
                "traffic",
                "give `connections` or `file`, not both",
            ))
        }
        (None, None) => {
            return Err(ScenarioError::at(
                "traffic",
                "allowed: connections = { kind, count, seed, ... } or file = \"<ns-2 connection file>\"",
            ))
        }
        (None, Some(file)) => {
            let path = resolve_file(spec.scenario_dir.as_ref(), file);
            let text = std::fs::read_to_string(&path).map_err(|e| {
                ScenarioError::at(
                    "traffic.file",
                    format!("cannot read `{}`: {e}", path.display()),
                )
            })?;
            let conns = parse_connection_file(&text).map_err(|e| {
                ScenarioError::at("traffic.file", format!("{}: {e}", path.display()))
            })?;
            ("traffic.file", conns)
        }
        (Some(c), None) => ("traffic.connections", generated(c, nodes.len())?),
    };
    let end = spec.duration.0.as_secs_f64();
    let mut flows = Vec::new();
    let mut never_started = Vec::new();
    for c in &conns {
        let src = node_name(nodes, c.src, at, &format!("connection `{}`", c.name))?;
        let dst = node_name(nodes, c.dst, at, &format!("connection `{}`", c.name))?;
        if c.start < end {
            flows.push(flow(spec, c, src, dst));
        } else {
            never_started.push(super::NeverStarted {
                name: c.name.clone(),
                start_s: c.start,
            });
        }
    }
    Ok((flows, never_started))
}

/// cbrgen's connections over the scenario's nodes, as a connection file would list them.
fn generated(
    c: &super::super::schema::ConnectionsSpec,
    nodes: usize,
) -> Result<Vec<FileConnection>, ScenarioError> {
    let at = |k: &str| format!("traffic.connections.{k}");
    if c.count == 0 {
        return Err(ScenarioError::at(at("count"), "allowed: an integer >= 1"));
    }
    if c.seed == 0 {
        return Err(ScenarioError::at(
            at("seed"),
            "allowed: an integer >= 1 (ns-2 takes 0 as a clock seed)",
        ));
    }
    let packet_size = match c.packet_size {
        None => CBRGEN_PACKET_SIZE,
        Some(b) if b.0 >= 1 && b.0 <= 65_000 => b.0 as u32,
        Some(_) => {
            return Err(ScenarioError::at(
                at("packet_size"),
                "allowed: 1B to 65000B",
            ))
        }
    };
    let cbr = match c.kind.as_str() {
        "cbr" => true,
        "tcp" => false,
        other => {
            return Err(ScenarioError::at(
                at("kind"),
                format!("unknown kind `{other}`; allowed: tcp, cbr"),
            ))
        }
    };
    let interval = match (cbr, c.rate) {
        (true, Some(r)) if r > 0.0 && r.is_finite() => 1.0 / r,
        (true, _) => {
            return Err(ScenarioError::at(
                at("rate"),
                "a CBR connection needs a rate in packets per second > 0 (cbrgen -rate)",
            ))
        }
        (false, Some(_)) => {
            return Err(ScenarioError::at(
                at("rate"),
                "TCP connections are FTP transfers; rate applies to kind = \"cbr\"",
            ))
        }
        (false, None) => 0.0,
    };
    let (_, conns) = cbrgen(nodes as u32, c.seed, c.count);
    if conns.len() < c.count as usize {
        return Err(ScenarioError::at(
            at("count"),
            format!(
                "cbrgen draws only {} connections among {nodes} nodes with seed {}",
                conns.len(),
                c.seed
            ),
        ));
    }
    Ok(conns
        .iter()
        .enumerate()
        .map(|(k, cn)| FileConnection {
            name: format!("{}_{k}", if cbr { "cbr" } else { "tcp" }),
            src: cn.src as usize,
            dst: cn.dst as usize,
            start: cn.start,
            stop: None,
            transport: if cbr {
                FileTransport::Cbr {
                    packet_size: Some(packet_size),
                    interval: Some(interval),
                    rate_bps: None,
                    random: true,
                    max_packets: Some(10_000),
                }
            } else {
                FileTransport::Tcp {
                    agent: "TCP".into(),
                    packet_size: Some(packet_size),
                    window: Some(CBRGEN_TCP_WINDOW),
                }
            },
        })
        .collect())
}
