//! Scheduled events: at a time, a link goes down or up or changes rate, delay or error
//! model; a flow starts or stops; a node is reset.

use super::super::schema::ScenarioSpec;
use super::super::ScenarioError;
use super::common::{error_model, probability, NodeNames};
use super::{EventAction, FlowTransport, ResolvedEvent, ResolvedFlow, ResolvedLink};
use crate::channel::ErrorModel;
use crate::sim::SimTime;

const ACTIONS: &str =
    "down, up, set (links); start, stop (flows); produce, producemore (one-way TCP flows, \
     with packets); ping (ping flows); reset (nodes)";

pub(super) fn events(
    spec: &ScenarioSpec,
    names: &NodeNames,
    links: &[ResolvedLink],
    flows: &[ResolvedFlow],
) -> Result<Vec<ResolvedEvent>, ScenarioError> {
    let mut out = Vec::with_capacity(spec.events.len());
    for (i, e) in spec.events.iter().enumerate() {
        let at = |k: &str| format!("events.{i}.{k}");
        if e.at.0 > spec.duration.0 {
            return Err(ScenarioError::at(
                at("at"),
                format!("after the end of the run ({})", spec.duration.0),
            ));
        }
        if e.notify_order.is_some()
            && !(e.link.is_some() && matches!(e.action.as_str(), "down" | "up"))
        {
            return Err(ScenarioError::at(
                at("notify_order"),
                "applies to a link going down or up",
            ));
        }
        let targets = [e.link.is_some(), e.flow.is_some(), e.node.is_some()];
        if targets.iter().filter(|&&t| t).count() > 1 {
            return Err(ScenarioError::at(
                at(if e.node.is_some() { "node" } else { "flow" }),
                "an event acts on one link, one flow or one node",
            ));
        }
        if let Some(name) = &e.node {
            let node = names.lookup(at("node"), name)?;
            if e.action != "reset" {
                return Err(ScenarioError::at(
                    at("action"),
                    format!("unknown node action `{}`; allowed: {ACTIONS}", e.action),
                ));
            }
            out.push(ResolvedEvent {
                at: e.at.0,
                action: EventAction::NodeReset { node },
            });
            continue;
        }
        let action = match (e.link.as_ref(), e.flow.as_ref()) {
            (Some(_), Some(_)) => unreachable!("refused above"),
            (None, None) => {
                return Err(ScenarioError::at(
                    at("link"),
                    "an event needs a `link`, a `flow` or a `node` to act on",
                ))
            }
            (Some(name), None) => {
                let link = links.iter().position(|l| &l.name == name).ok_or_else(|| {
                    let names: Vec<&str> = links.iter().take(12).map(|l| l.name.as_str()).collect();
                    ScenarioError::at(
                        at("link"),
                        format!(
                            "unknown link `{name}`; allowed: one of the links ({})",
                            names.join(", ")
                        ),
                    )
                })?;
                let directions = match e.direction.as_deref() {
                    None | Some("both") => [true, true],
                    Some("a_to_b") => [true, false],
                    Some("b_to_a") => [false, true],
                    Some(other) => {
                        return Err(ScenarioError::at(
                            at("direction"),
                            format!("unknown direction `{other}`; allowed: both, a_to_b, b_to_a"),
                        ))
                    }
                };
                match e.action.as_str() {
                    "down" | "up" => {
                        for (key, set) in [
                            ("rate", e.rate.is_some()),
                            ("delay", e.delay.is_some()),
                            ("loss", e.loss.is_some()),
                            ("error", e.error.is_some()),
                            ("queue_limit", e.queue_limit.is_some()),
                            ("shrink", e.shrink),
                        ] {
                            if set {
                                return Err(ScenarioError::at(
                                    at(key),
                                    "only `set` changes a link's parameters",
                                ));
                            }
                        }
                        let b_first = notify_order(&at("notify_order"), e, names, &links[link])?;
                        if e.action == "down" {
                            EventAction::LinkDown {
                                link,
                                directions,
                                b_first,
                            }
                        } else {
                            EventAction::LinkUp {
                                link,
                                directions,
                                b_first,
                            }
                        }
                    }
                    "set" => {
                        let rate = match e.rate {
                            Some(r) if !(r.0 > 0.0 && r.0.is_finite()) => {
                                return Err(ScenarioError::at(at("rate"), "allowed: a rate > 0"))
                            }
                            r => r.map(|r| r.0),
                        };
                        let error = match (&e.error, e.loss) {
                            (Some(_), Some(_)) => {
                                return Err(ScenarioError::at(
                                    at("loss"),
                                    "give either loss or error, not both",
                                ))
                            }
                            (Some(spec_e), None) => Some(error_model(
                                &at("error"),
                                spec_e,
                                spec.scenario_dir.as_ref(),
                            )?),
                            (None, Some(p)) => Some(ErrorModel::Iid {
                                p: probability(&at("loss"), p)?,
                            }),
                            (None, None) => None,
                        };
                        if rate.is_none()
                            && e.delay.is_none()
                            && error.is_none()
                            && e.queue_limit.is_none()
                        {
                            return Err(ScenarioError::at(
                                at("action"),
                                "`set` needs at least one of rate, delay, loss, error, queue_limit",
                            ));
                        }
                        if e.shrink && e.queue_limit.is_none() {
                            return Err(ScenarioError::at(
                                at("shrink"),
                                "`shrink` needs a queue_limit",
                            ));
                        }
                        if let Some(limit) = e.queue_limit {
                            let queues = &links[link].queue;
                            for d in (0..2).filter(|&d| directions[d]) {
                                if queues[d]
                                    != crate::net::wired::QueueConfig::packets(
                                        queues[d].limit.unwrap_or(u32::MAX),
                                    )
                                {
                                    return Err(ScenarioError::at(
                                        at("queue_limit"),
                                        "allowed on a drop-tail queue limited in packets only",
                                    ));
                                }
                            }
                            if limit == 0 {
                                return Err(ScenarioError::at(
                                    at("queue_limit"),
                                    "allowed: an integer >= 1",
                                ));
                            }
                        }
                        EventAction::LinkSet {
                            link,
                            directions,
                            rate_bps: rate,
                            delay: e.delay.map(|d| d.0),
                            error,
                            queue_limit: e.queue_limit,
                            shrink: e.shrink,
                        }
                    }
                    other => {
                        return Err(ScenarioError::at(
                            at("action"),
                            format!("unknown link action `{other}`; allowed: {ACTIONS}"),
                        ))
                    }
                }
            }
            (None, Some(name)) => {
                let flow = flows.iter().position(|f| &f.name == name).ok_or_else(|| {
                    let names: Vec<&str> = flows.iter().take(12).map(|f| f.name.as_str()).collect();
                    ScenarioError::at(
                        at("flow"),
                        format!(
                            "unknown flow `{name}`; allowed: one of the flows ({})",
                            names.join(", ")
                        ),
                    )
                })?;
                match e.action.as_str() {
                    "start" => EventAction::FlowStart { flow },
                    "stop" => EventAction::FlowStop { flow },
                    "produce" | "producemore" => {
                        if !matches!(flows[flow].transport, FlowTransport::Tcp { .. }) {
                            return Err(ScenarioError::at(
                                at("action"),
                                format!("flow `{name}` is not a one-way TCP flow"),
                            ));
                        }
                        let packets = e.packets.ok_or_else(|| {
                            ScenarioError::at(at("packets"), "give the packets (an integer >= 0)")
                        })?;
                        EventAction::FlowProduce {
                            flow,
                            packets,
                            more: e.action == "producemore",
                        }
                    }
                    "ping" => {
                        if !matches!(flows[flow].transport, FlowTransport::Ping { .. }) {
                            return Err(ScenarioError::at(
                                at("action"),
                                format!("flow `{name}` is not a ping flow (transport = \"ping\")"),
                            ));
                        }
                        // Which end sends the echo request: the flow's source (forward) or
                        // its destination (reverse); the other end replies.
                        let reverse = match e.direction.as_deref() {
                            None | Some("forward") => false,
                            Some("reverse") => true,
                            Some(other) => {
                                return Err(ScenarioError::at(
                                    at("direction"),
                                    format!(
                                    "unknown ping direction `{other}`; allowed: forward, reverse"
                                ),
                                ))
                            }
                        };
                        EventAction::Ping { flow, reverse }
                    }
                    other => {
                        return Err(ScenarioError::at(
                            at("action"),
                            format!("unknown flow action `{other}`; allowed: {ACTIONS}"),
                        ))
                    }
                }
            }
        };
        out.push(ResolvedEvent { at: e.at.0, action });
    }
    // Same-time events keep their scenario order (the scheduler is stable).
    let _ = SimTime::ZERO;
    Ok(out)
}

/// A link event's `notify_order`: whether its `b` end hears of it first. It must name the
/// link's two ends.
fn notify_order(
    path: &str,
    e: &super::super::schema::EventSpec,
    names: &NodeNames,
    link: &ResolvedLink,
) -> Result<bool, ScenarioError> {
    let Some(order) = &e.notify_order else {
        return Ok(false);
    };
    let ids = order
        .iter()
        .map(|n| names.lookup(path.to_string(), n))
        .collect::<Result<Vec<_>, _>>()?;
    match ids[..] {
        [x, y] if (x, y) == (link.a, link.b) => Ok(false),
        [x, y] if (x, y) == (link.b, link.a) => Ok(true),
        _ => Err(ScenarioError::at(
            path,
            format!(
                "allowed: the link's two ends, [\"{}\", \"{}\"] in either order",
                names.name(link.a),
                names.name(link.b)
            ),
        )),
    }
}
