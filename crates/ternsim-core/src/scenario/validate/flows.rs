//! Flows: endpoints, transport (TCP with its variant and options, or UDP), application, and
//! the times the flow is active.

use std::collections::HashMap;

use super::super::schema::{AppSpec, FlowSpec, ScenarioSpec};
use super::super::ScenarioError;
use super::common::{resolve_file, NodeNames};
use super::tcp::{apply_tcp_options, profile};
use super::topology::Reachability;
use crate::app::parse_app_trace;
use crate::sim::SimTime;
use crate::tcp::{DefaultsProfile, SinkConfig, TcpConfig, TcpVariant};

use super::{FlowTransport, ResolvedFlow, TrafficSpec};

/// ns-2 `Application/Traffic/CBR` packetSize_ default (traffic-queues-traces §1).
const DEFAULT_CBR_PACKET: u64 = 210;
/// ns-2 `Application/Traffic/Exponential` and `Pareto` packetSize_ default.
const DEFAULT_ONOFF_PACKET: u64 = 210;
/// ns-2 `Application/Traffic/Pareto` shape_ default.
const DEFAULT_PARETO_SHAPE: f64 = 1.5;
/// ns-2 `Application/Traffic/CBR` rate_ default when neither rate nor interval is given.
const DEFAULT_CBR_RATE: f64 = 448_000.0;
/// Ports are per-flow numbers; keep them inside u16.
pub(super) const MAX_FLOWS: usize = 60_000;

pub(super) fn flows(
    spec: &ScenarioSpec,
    names: &NodeNames,
    reach: &Reachability,
) -> Result<Vec<ResolvedFlow>, ScenarioError> {
    if spec.flows.len() > MAX_FLOWS {
        return Err(ScenarioError::at(
            "flows",
            format!("{} flows; allowed: at most {MAX_FLOWS}", spec.flows.len()),
        ));
    }
    let default_profile = profile("tcp_defaults.profile", spec.tcp_defaults.profile.as_ref())?;
    let mut flows = Vec::with_capacity(spec.flows.len());
    let mut flow_names: HashMap<String, usize> = HashMap::new();
    for (i, f) in spec.flows.iter().enumerate() {
        let at = |k: &str| format!("flows.{i}.{k}");
        let src = names.lookup(at("src"), &f.src)?;
        let dst = names.lookup(at("dst"), &f.dst)?;
        if src == dst {
            return Err(ScenarioError::at(at("dst"), "must differ from src"));
        }
        if !reach.connected(src, dst) {
            return Err(ScenarioError::at(
                at("dst"),
                format!(
                    "no route from `{}` to `{}`; connect them with links",
                    f.src, f.dst
                ),
            ));
        }
        let transport = match f.transport.as_deref() {
            None | Some("tcp") => None,
            Some("udp") => Some(false),
            Some("ping") => Some(true),
            Some("fulltcp") => None,
            Some(other) => {
                return Err(ScenarioError::at(
                    at("transport"),
                    format!("unknown transport `{other}`; allowed: tcp, fulltcp, udp, ping"),
                ))
            }
        };
        let full = f.transport.as_deref() == Some("fulltcp");
        if !full && (f.full_tcp.is_some() || f.full_tcp_peer.is_some() || f.peer_options.is_some())
        {
            return Err(ScenarioError::at(
                at("full_tcp"),
                "full_tcp, full_tcp_peer and peer_options are for transport = \"fulltcp\"",
            ));
        }
        if transport != Some(false) && !reach.connected(dst, src) {
            let what = if transport.is_none() {
                "ACKs"
            } else {
                "replies"
            };
            return Err(ScenarioError::at(
                at("src"),
                format!("no route back from `{}` to `{}` for {what}", f.dst, f.src),
            ));
        }
        let transport = match transport {
            None if full => super::full_tcp::full_tcp_transport(i, f, spec, default_profile)?,
            None => tcp_transport(i, f, spec, default_profile)?,
            Some(false) => udp_transport(i, f)?,
            Some(true) => ping_transport(i, f)?,
        };
        let start = f.start.map(|d| d.0).unwrap_or(SimTime::ZERO);
        if start >= spec.duration.0 {
            return Err(ScenarioError::at(
                at("start"),
                format!("must be before the end of the run ({})", spec.duration.0),
            ));
        }
        let stop = f.stop.map(|d| d.0);
        if stop.is_some_and(|s| s <= start) {
            return Err(ScenarioError::at(at("stop"), "must be after start"));
        }
        let name = f.name.clone().unwrap_or_else(|| format!("flow{i}"));
        if flow_names.insert(name.clone(), i).is_some() {
            return Err(ScenarioError::at(
                at("name"),
                format!("duplicate flow name `{name}`"),
            ));
        }
        flows.push(ResolvedFlow {
            name,
            src,
            dst,
            start,
            autostart: f.autostart.unwrap_or(true),
            stop,
            transport,
        });
    }
    Ok(flows)
}

fn tcp_transport(
    i: usize,
    f: &FlowSpec,
    spec: &ScenarioSpec,
    default_profile: Option<DefaultsProfile>,
) -> Result<FlowTransport, ScenarioError> {
    let at = |k: &str| format!("flows.{i}.{k}");
    let Some(name) = f.tcp.as_ref() else {
        return Err(ScenarioError::at(
            at("tcp"),
            format!(
                "a TCP flow needs its variant; allowed: {} (or transport = \"udp\")",
                TcpVariant::NAMES.join(", ")
            ),
        ));
    };
    let variant = TcpVariant::parse(name).ok_or_else(|| {
        ScenarioError::at(
            at("tcp"),
            format!(
                "unknown TCP variant `{name}`; allowed: {}",
                TcpVariant::NAMES.join(", ")
            ),
        )
    })?;
    let prof = profile(&at("options.profile"), f.options.profile.as_ref())?
        .or(default_profile)
        .unwrap_or(DefaultsProfile::Ns2_35);
    let mut tcp = TcpConfig::from_profile(variant, prof);
    let mut sink = SinkConfig {
        sack: variant.uses_sack(),
        ..SinkConfig::default()
    };
    apply_tcp_options("tcp_defaults", &spec.tcp_defaults, &mut tcp, &mut sink)?;
    apply_tcp_options(&at("options"), &f.options, &mut tcp, &mut sink)?;
    let telnet_interval_s = match &f.app {
        Some(AppSpec::Telnet { interval }) => {
            if interval.0 == SimTime::ZERO {
                return Err(ScenarioError::at(
                    at("app.interval"),
                    "allowed: > 0 (ns-2's interval_ 0, tcplib's telnet distribution, is not \
                     modelled)",
                ));
            }
            if f.bytes.is_some() {
                return Err(ScenarioError::at(
                    at("bytes"),
                    "a Telnet application sends a packet per gap until it stops; remove `bytes`",
                ));
            }
            Some(interval.0.as_secs_exact())
        }
        _ => None,
    };
    let app_trace = match &f.app {
        None | Some(AppSpec::Ftp) | Some(AppSpec::Telnet { .. }) => None,
        Some(AppSpec::Trace { file }) => {
            if f.bytes.is_some() {
                return Err(ScenarioError::at(
                    at("bytes"),
                    "a trace-driven application sends what its trace lists; remove `bytes`",
                ));
            }
            let path = resolve_file(spec.scenario_dir.as_ref(), file);
            let text = std::fs::read_to_string(&path).map_err(|e| {
                ScenarioError::at(
                    at("app.file"),
                    format!("cannot read `{}`: {e}", path.display()),
                )
            })?;
            Some(parse_app_trace(&text).map_err(|m| {
                ScenarioError::at(at("app.file"), format!("{}: {m}", path.display()))
            })?)
        }
        Some(_) => {
            return Err(ScenarioError::at(
                at("app.kind"),
                "CBR and on/off sources run over UDP; allowed over TCP: ftp, trace, telnet \
                 (or set transport = \"udp\")",
            ))
        }
    };
    Ok(FlowTransport::Tcp {
        tcp: Box::new(tcp),
        sink,
        app_bytes: f.bytes.map(|b| b.0),
        app_trace,
        telnet_interval_s,
    })
}

fn positive(path: String, v: f64, what: &str) -> Result<f64, ScenarioError> {
    if v > 0.0 && v.is_finite() {
        Ok(v)
    } else {
        Err(ScenarioError::at(path, format!("allowed: {what} > 0")))
    }
}

fn packet_size(
    path: String,
    b: Option<super::super::units::Bytes>,
    default: u64,
) -> Result<u32, ScenarioError> {
    let v = b.map_or(default, |b| b.0);
    if v == 0 || v > 65_000 {
        return Err(ScenarioError::at(path, "allowed: 1B to 65000B"));
    }
    Ok(v as u32)
}

/// Refuses the TCP-only keys on a flow of another transport.
fn no_tcp_keys(i: usize, f: &FlowSpec, what: &str) -> Result<(), ScenarioError> {
    for (key, set) in [("tcp", f.tcp.is_some()), ("bytes", f.bytes.is_some())] {
        if set {
            return Err(ScenarioError::at(
                format!("flows.{i}.{key}"),
                format!("not used by a {what} flow; remove it"),
            ));
        }
    }
    Ok(())
}

/// ns-2 `Agent/Ping` packetSize_ default.
const DEFAULT_PING_PACKET: u64 = 64;

fn ping_transport(i: usize, f: &FlowSpec) -> Result<FlowTransport, ScenarioError> {
    let at = |k: &str| format!("flows.{i}.{k}");
    no_tcp_keys(i, f, "ping")?;
    let (size, reply, interval, count) = match &f.app {
        None => (None, None, None, None),
        Some(AppSpec::Ping {
            packet_size,
            reply_size,
            interval,
            count,
        }) => (*packet_size, *reply_size, *interval, *count),
        Some(_) => {
            return Err(ScenarioError::at(
                at("app.kind"),
                "a ping flow's application is its agents; allowed: app = { kind = \"ping\", \
                 packet_size, reply_size, interval, count } or none",
            ))
        }
    };
    let size = packet_size(at("app.packet_size"), size, DEFAULT_PING_PACKET)?;
    let reply = packet_size(at("app.reply_size"), reply, u64::from(size))?;
    if interval.is_some_and(|d| d.0 == SimTime::ZERO) {
        return Err(ScenarioError::at(at("app.interval"), "allowed: > 0"));
    }
    if count.is_some() && interval.is_none() {
        return Err(ScenarioError::at(
            at("app.count"),
            "counts the pings sent every `interval`; give the interval too",
        ));
    }
    Ok(FlowTransport::Ping {
        sizes: [size, reply],
        interval: interval.map(|d| d.0),
        count,
    })
}

fn udp_transport(i: usize, f: &FlowSpec) -> Result<FlowTransport, ScenarioError> {
    let at = |k: &str| format!("flows.{i}.{k}");
    no_tcp_keys(i, f, "UDP")?;
    let traffic = match &f.app {
        Some(AppSpec::Cbr {
            rate,
            interval,
            packet_size: size,
            random,
            max_packets,
        }) => {
            let size = packet_size(at("app.packet_size"), *size, DEFAULT_CBR_PACKET)?;
            // ns-2 CBR: interval_ = packetSize_ * 8 / rate_ unless the interval is given.
            let mut rate_bps = None;
            let interval = match (rate, interval) {
                (Some(_), Some(_)) => {
                    return Err(ScenarioError::at(
                        at("app.interval"),
                        "give either rate or interval, not both",
                    ))
                }
                (_, Some(d)) => {
                    if d.0 == SimTime::ZERO {
                        return Err(ScenarioError::at(at("app.interval"), "allowed: > 0"));
                    }
                    d.0
                }
                (r, None) => {
                    let bps = positive(
                        at("app.rate"),
                        r.map_or(DEFAULT_CBR_RATE, |r| r.0),
                        "a rate",
                    )?;
                    rate_bps = Some(bps);
                    SimTime::from_secs_f64(f64::from(size) * 8.0 / bps)
                }
            };
            TrafficSpec::Cbr {
                interval,
                rate_bps,
                packet_size: size,
                random: random.unwrap_or(false),
                max_packets: *max_packets,
            }
        }
        Some(AppSpec::Exponential {
            rate,
            packet_size: size,
            burst_time,
            idle_time,
        }) => TrafficSpec::Exponential {
            rate_bps: positive(at("app.rate"), rate.0, "a rate")?,
            packet_size: packet_size(at("app.packet_size"), *size, DEFAULT_ONOFF_PACKET)?,
            burst_time: burst_time.0,
            idle_time: idle_time.0,
        },
        Some(AppSpec::Pareto {
            rate,
            packet_size: size,
            burst_time,
            idle_time,
            shape,
        }) => {
            let shape = shape.unwrap_or(DEFAULT_PARETO_SHAPE);
            if !(shape > 1.0 && shape.is_finite()) {
                return Err(ScenarioError::at(
                    at("app.shape"),
                    "allowed: a shape > 1 (the mean must exist)",
                ));
            }
            TrafficSpec::Pareto {
                rate_bps: positive(at("app.rate"), rate.0, "a rate")?,
                packet_size: packet_size(at("app.packet_size"), *size, DEFAULT_ONOFF_PACKET)?,
                burst_time: burst_time.0,
                idle_time: idle_time.0,
                shape,
            }
        }
        _ => {
            return Err(ScenarioError::at(
                at("app"),
                "a UDP flow needs a traffic source; allowed: app = { kind = \"cbr\" | \
                 \"exponential\" | \"pareto\", ... }",
            ))
        }
    };
    if let TrafficSpec::Exponential {
        burst_time,
        idle_time,
        ..
    }
    | TrafficSpec::Pareto {
        burst_time,
        idle_time,
        ..
    } = traffic
    {
        if burst_time == SimTime::ZERO {
            return Err(ScenarioError::at(at("app.burst_time"), "allowed: > 0"));
        }
        let _ = idle_time;
    }
    Ok(FlowTransport::Udp { traffic })
}
