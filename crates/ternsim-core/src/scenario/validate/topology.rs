//! Nodes, links, bearers and explicit routes; the connectivity check flows rely on.

use std::cell::OnceCell;
use std::collections::HashMap;
use std::sync::Arc;

use super::super::schema::{
    DropStageSpec, MoveSpec, NodeKind, QueueSpec, QueueTable, ScenarioSpec,
};
use super::super::ScenarioError;
use super::common::{error_model, probability, NodeNames};
use super::umts::bearer_config;
use super::{NodeMobility, ResolvedBearer, ResolvedDropStage, ResolvedLink, ResolvedNode};
use crate::channel::ErrorModel;
use crate::mobility::{pairs_within, Mobility, Position, RandomPlacement, Trajectory};
use crate::net::addr::{IfaceId, NodeId};
use crate::net::red::RedConfig;
use crate::net::sfq::SfqConfig;
use crate::net::wired::QueueConfig;
use crate::routing::static_routes::{shortest_paths, Edge};
use crate::sim::SimTime;

/// The nodes `[topology]` generates: a chain or a grid of positioned hosts `n0`, `n1`, ….
fn generated_nodes(spec: &ScenarioSpec) -> Result<Vec<ResolvedNode>, ScenarioError> {
    let t = &spec.topology;
    let node = |i: usize, x: f64, y: f64| ResolvedNode {
        name: format!("n{i}"),
        kind: NodeKind::Host,
        position: Some(Position { x, y }),
        mobility: NodeMobility::Fixed(Mobility::Static(Some(Position { x, y }))),
    };
    let layouts = [t.chain.is_some(), t.grid.is_some(), t.random.is_some()];
    if layouts.iter().filter(|&&b| b).count() > 1 {
        return Err(ScenarioError::at(
            "topology",
            "give one layout: `chain`, `grid` or `random`",
        ));
    }
    if let Some(r) = &t.random {
        if r.nodes == 0 {
            return Err(ScenarioError::at(
                "topology.random.nodes",
                "allowed: an integer >= 1",
            ));
        }
        let [w, h] = r.area.map(|l| l.0);
        if !(w > 0.0 && h > 0.0 && w.is_finite() && h.is_finite()) {
            return Err(ScenarioError::at(
                "topology.random.area",
                "allowed: two lengths > 0, [width, height]",
            ));
        }
        // Static until `[mobility]` gives them a model.
        let placement = Arc::new(RandomPlacement {
            width: w,
            height: h,
            waypoint: None,
            until: spec.duration.0,
        });
        return Ok((0..r.nodes as usize)
            .map(|i| ResolvedNode {
                name: format!("n{i}"),
                kind: NodeKind::Host,
                position: None,
                mobility: NodeMobility::Random(placement.clone()),
            })
            .collect());
    }
    match (&t.chain, &t.grid) {
        (Some(_), Some(_)) => unreachable!("refused above"),
        (Some(c), None) => {
            if c.hops == 0 {
                return Err(ScenarioError::at(
                    "topology.chain.hops",
                    "allowed: an integer >= 1",
                ));
            }
            let s = c.spacing.0;
            Ok((0..=c.hops as usize)
                .map(|i| node(i, i as f64 * s, 0.0))
                .collect())
        }
        (None, Some(g)) => {
            if g.rows == 0 || g.cols == 0 {
                return Err(ScenarioError::at(
                    "topology.grid",
                    "allowed: rows >= 1 and cols >= 1",
                ));
            }
            let s = g.spacing.0;
            let cols = g.cols as usize;
            Ok((0..g.rows as usize * cols)
                .map(|i| node(i, (i % cols) as f64 * s, (i / cols) as f64 * s))
                .collect())
        }
        (None, None) => Ok(Vec::new()),
    }
}

pub(super) fn nodes(spec: &ScenarioSpec) -> Result<Vec<ResolvedNode>, ScenarioError> {
    let mut nodes = generated_nodes(spec)?;
    if spec.nodes.is_empty() && nodes.is_empty() {
        return Err(ScenarioError::at(
            "nodes",
            "a scenario needs at least one node ([[nodes]] or a [topology] layout)",
        ));
    }
    let mut seen: HashMap<String, usize> = nodes
        .iter()
        .enumerate()
        .map(|(i, n)| (n.name.clone(), i))
        .collect();
    nodes.reserve(spec.nodes.len());
    for (i, n) in spec.nodes.iter().enumerate() {
        if n.name.is_empty() {
            return Err(ScenarioError::at(
                format!("nodes.{i}.name"),
                "must not be empty",
            ));
        }
        if seen.insert(n.name.clone(), i).is_some() {
            return Err(ScenarioError::at(
                format!("nodes.{i}.name"),
                format!(
                    "duplicate node name `{}` (the [topology] layout names its nodes n0, n1, …)",
                    n.name
                ),
            ));
        }
        if let Some([x, y]) = n.position {
            if !x.is_finite() || !y.is_finite() {
                return Err(ScenarioError::at(
                    format!("nodes.{i}.position"),
                    "allowed: two finite numbers [x, y] in metres",
                ));
            }
        }
        let position = n.position.map(|[x, y]| Position { x, y });
        nodes.push(ResolvedNode {
            name: n.name.clone(),
            kind: n.kind,
            position,
            mobility: NodeMobility::Fixed(node_mobility(i, position, &n.moves)?),
        });
    }
    Ok(nodes)
}

/// A node's scripted `moves` as a trajectory from its position; static without moves.
fn node_mobility(
    i: usize,
    position: Option<Position>,
    moves: &[MoveSpec],
) -> Result<Mobility, ScenarioError> {
    if moves.is_empty() {
        return Ok(Mobility::Static(position));
    }
    let Some(start) = position else {
        return Err(ScenarioError::at(
            format!("nodes.{i}.moves"),
            "a node that moves needs a `position` to start from",
        ));
    };
    let mut tr = Trajectory::new(start);
    for (k, m) in moves.iter().enumerate() {
        let to = Position {
            x: m.to[0],
            y: m.to[1],
        };
        tr.setdest(m.at.0, to, m.speed.0)
            .map_err(|e| ScenarioError::at(format!("nodes.{i}.moves.{k}"), e))?;
    }
    Ok(Mobility::Trajectory(Arc::new(tr)))
}

/// A direction's drop stages, checked, their flows named by the scenario's `[[flows]]`.
fn drop_stages(
    path: &str,
    specs: &[DropStageSpec],
    spec: &ScenarioSpec,
) -> Result<Vec<ResolvedDropStage>, ScenarioError> {
    use crate::channel::drop_stage::{DropPoint, DropRule, DropUnit, RuleModel};
    let flow_index = |name: &str| {
        spec.flows.iter().enumerate().position(|(k, f)| {
            f.name
                .as_deref()
                .map_or(format!("flow{k}") == name, |n| n == name)
        })
    };
    let mut out = Vec::with_capacity(specs.len());
    for (s, st) in specs.iter().enumerate() {
        let at = |key: &str| format!("{path}.{s}.{key}");
        let point = match st.at.as_str() {
            "enqueue" => DropPoint::Enqueue,
            "arrival" => DropPoint::Arrival,
            other => {
                return Err(ScenarioError::at(
                    at("at"),
                    format!("`{other}`; allowed: enqueue, arrival"),
                ))
            }
        };
        if st.rules.is_empty() {
            return Err(ScenarioError::at(at("rules"), "give at least one rule"));
        }
        let mut rules = Vec::with_capacity(st.rules.len());
        for (r, rule) in st.rules.iter().enumerate() {
            let key = |k: &str| format!("{path}.{s}.rules.{r}.{k}");
            let flows = match &rule.flows {
                None => None,
                Some(names) => Some(
                    names
                        .iter()
                        .map(|n| {
                            flow_index(n).map(|k| k as u32).ok_or_else(|| {
                                ScenarioError::at(key("flows"), format!("no flow named `{n}`"))
                            })
                        })
                        .collect::<Result<Vec<u32>, _>>()?,
                ),
            };
            let unit = match rule.unit.as_deref() {
                None | Some("packet") => DropUnit::Packet,
                Some("byte") => DropUnit::Byte,
                Some(other) => {
                    return Err(ScenarioError::at(
                        key("unit"),
                        format!("`{other}`; allowed: packet, byte"),
                    ))
                }
            };
            let given = [
                ("drop", rule.drop.is_some()),
                ("period", rule.period.is_some()),
                ("offset", rule.offset.is_some()),
                ("burst", rule.burst.is_some()),
                ("default_drop", rule.default_drop.is_some()),
                ("rate", rule.rate.is_some()),
            ];
            let allowed: &[&str] = match rule.model.as_str() {
                "list" => &["drop"],
                "periodic" => &["period", "offset", "burst", "default_drop"],
                "iid" => &["rate"],
                "discard" | "pass" => &[],
                other => {
                    return Err(ScenarioError::at(
                        key("model"),
                        format!("`{other}`; allowed: list, periodic, iid, discard, pass"),
                    ))
                }
            };
            if let Some((k, _)) = given.iter().find(|(k, g)| *g && !allowed.contains(k)) {
                return Err(ScenarioError::at(
                    key(k),
                    format!("not a key of model `{}`", rule.model),
                ));
            }
            let model = match rule.model.as_str() {
                "list" => {
                    let Some(drop) = &rule.drop else {
                        return Err(ScenarioError::at(key("drop"), "model `list` needs `drop`"));
                    };
                    RuleModel::list(drop.clone()).map_err(|m| ScenarioError::at(key("drop"), m))?
                }
                "periodic" => RuleModel::periodic(
                    rule.period.unwrap_or(1.0),
                    rule.offset.unwrap_or(0.0),
                    rule.burst.unwrap_or(0.0),
                    rule.default_drop.unwrap_or(false),
                )
                .map_err(|m| ScenarioError::at(key("period"), m))?,
                "iid" => {
                    let Some(rate) = rule.rate else {
                        return Err(ScenarioError::at(key("rate"), "model `iid` needs `rate`"));
                    };
                    RuleModel::Iid {
                        rate: probability(&key("rate"), rate)?,
                    }
                }
                "discard" => RuleModel::Discard,
                _ => RuleModel::Pass,
            };
            let mut rule_out = DropRule::new(flows, unit, model);
            if let Some(delay) = rule.delay {
                if delay.0 <= SimTime::ZERO {
                    return Err(ScenarioError::at(key("delay"), "allowed: a delay > 0"));
                }
                rule_out = rule_out.delaying(delay.0);
            }
            if rule.mark == Some(true) {
                if rule.delay.is_some() {
                    return Err(ScenarioError::at(
                        key("mark"),
                        "a rule either marks or delays the packets it picks",
                    ));
                }
                rule_out = rule_out.marking();
            }
            rules.push(rule_out);
        }
        out.push(ResolvedDropStage {
            point,
            traced: st.traced,
            rules,
        });
    }
    Ok(out)
}

/// Links and bearers, whose names share one namespace (events name them).
pub(super) fn links_and_bearers(
    spec: &ScenarioSpec,
    names: &NodeNames,
) -> Result<(Vec<ResolvedLink>, Vec<ResolvedBearer>), ScenarioError> {
    let dir = spec.scenario_dir.as_ref();
    let mut links = Vec::with_capacity(spec.links.len());
    let mut link_names: HashMap<String, usize> = HashMap::new();
    for (i, l) in spec.links.iter().enumerate() {
        let a = names.lookup(format!("links.{i}.a"), &l.a)?;
        let b = names.lookup(format!("links.{i}.b"), &l.b)?;
        if a == b {
            return Err(ScenarioError::at(
                format!("links.{i}.b"),
                "a link needs two different nodes",
            ));
        }
        let both = queue_config(&format!("links.{i}.queue"), &l.queue)?;
        let one_way = |key: &str, spec: &Option<QueueSpec>| match spec {
            Some(q) => queue_config(&format!("links.{i}.{key}"), q),
            None => Ok(both),
        };
        let queue = [
            one_way("queue_a_to_b", &l.queue_a_to_b)?,
            one_way("queue_b_to_a", &l.queue_b_to_a)?,
        ];
        let rate_b_to_a = l.rate_b_to_a.map_or(l.rate.0, |r| r.0);
        for (key, rate) in [("rate", l.rate.0), ("rate_b_to_a", rate_b_to_a)] {
            if !(rate > 0.0 && rate.is_finite()) {
                return Err(ScenarioError::at(
                    format!("links.{i}.{key}"),
                    "allowed: a rate > 0",
                ));
            }
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
            rate_bps: [l.rate.0, rate_b_to_a],
            delay: [l.delay.0, l.delay_b_to_a.map_or(l.delay.0, |d| d.0)],
            queue,
            error_a_to_b,
            error_b_to_a,
            drop_stages: [
                drop_stages(
                    &format!("links.{i}.drop_stages_a_to_b"),
                    &l.drop_stages_a_to_b,
                    spec,
                )?,
                drop_stages(
                    &format!("links.{i}.drop_stages_b_to_a"),
                    &l.drop_stages_b_to_a,
                    spec,
                )?,
            ],
            frame_time: match l.frame_time {
                Some(d) if d.0 == SimTime::ZERO => {
                    return Err(ScenarioError::at(
                        format!("links.{i}.frame_time"),
                        "allowed: a duration > 0",
                    ))
                }
                d => d.map(|d| d.0),
            },
            avoid_reordering: l.avoid_reordering,
        });
    }

    let mut bearers = Vec::with_capacity(spec.bearers.len());
    for (i, b) in spec.bearers.iter().enumerate() {
        let path = format!("bearers.{i}");
        let ue = names.lookup(format!("{path}.ue"), &b.ue)?;
        let rnc = names.lookup(format!("{path}.rnc"), &b.rnc)?;
        if ue == rnc {
            return Err(ScenarioError::at(
                format!("{path}.rnc"),
                "must differ from ue",
            ));
        }
        let node_b = match &b.node_b {
            Some(n) => Some(names.lookup(format!("{path}.node_b"), n)?),
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
    Ok((links, bearers))
}

/// The routing graph with every link and bearer up: wired links first, then bearers (the
/// order ties are broken in). Interface ids are placeholders: only connectivity is checked.
pub(super) fn all_up_edges(links: &[ResolvedLink], bearers: &[ResolvedBearer]) -> Vec<Edge> {
    links
        .iter()
        .map(|l| (l.a, l.b))
        .chain(bearers.iter().map(|b| (b.rnc, b.ue)))
        .map(|(a, b)| Edge {
            a: NodeId(a as u32),
            b: NodeId(b as u32),
            a_iface: IfaceId(0),
            b_iface: IfaceId(0),
            up: true,
        })
        .collect()
}

/// Pairs of positioned nodes within `range` of each other (the 802.11 reception range):
/// radio neighbours for static routes and the flow connectivity check. Interfaces are
/// placeholders, as in [`all_up_edges`]; the world builds its own edges.
pub(super) fn radio_edges(nodes: &[ResolvedNode], range: f64) -> Vec<Edge> {
    let placed: Vec<(usize, Position)> = nodes
        .iter()
        .enumerate()
        .filter_map(|(i, n)| n.position.map(|p| (i, p)))
        .collect();
    pairs_within(&placed, range)
        .into_iter()
        .map(|(a, b)| Edge {
            a: NodeId(a as u32),
            b: NodeId(b as u32),
            a_iface: IfaceId(0),
            b_iface: IfaceId(0),
            up: true,
        })
        .collect()
}

/// Explicit routes `(node, dst, via)`; `via` must be a neighbour of `node`.
pub(super) fn explicit_routes(
    spec: &ScenarioSpec,
    names: &NodeNames,
    edges: &[Edge],
) -> Result<Vec<(NodeId, NodeId, NodeId)>, ScenarioError> {
    let mut explicit = Vec::with_capacity(spec.routes.len());
    for (i, r) in spec.routes.iter().enumerate() {
        let node = NodeId(names.lookup(format!("routes.{i}.node"), &r.node)? as u32);
        let dst = NodeId(names.lookup(format!("routes.{i}.dst"), &r.dst)? as u32);
        let via = NodeId(names.lookup(format!("routes.{i}.via"), &r.via)? as u32);
        let neighbours = edges
            .iter()
            .any(|e| (e.a == node && e.b == via) || (e.b == node && e.a == via));
        if !neighbours {
            return Err(ScenarioError::at(
                format!("routes.{i}.via"),
                "`via` is not a neighbour of `node`",
            ));
        }
        explicit.push((node, dst, via));
    }
    Ok(explicit)
}

/// `shortest_paths`'s table: the edge and neighbour each node forwards on to each node.
type NextHops = Vec<Vec<Option<(usize, NodeId)>>>;

/// Whether `dst` can be reached from `src` with every link up and the explicit routes.
///
/// The all-pairs table is computed on the first question about two nodes that are not
/// assumed reachable: a wireless scenario asks none, and its table (n × n entries, 16 MB at
/// 1000 nodes) would cost more time and memory than the rest of the validation.
pub(super) struct Reachability {
    n: usize,
    edges: Vec<Edge>,
    explicit: Vec<(NodeId, NodeId, NodeId)>,
    table: OnceCell<NextHops>,
    assumed: Vec<bool>,
}

impl Reachability {
    pub(super) fn new(n: usize, edges: &[Edge], explicit: &[(NodeId, NodeId, NodeId)]) -> Self {
        Reachability {
            n,
            edges: edges.to_vec(),
            explicit: explicit.to_vec(),
            table: OnceCell::new(),
            assumed: Vec::new(),
        }
    }

    /// Takes the nodes marked as reachable from and to everywhere (nodes whose neighbours
    /// the run decides).
    pub(super) fn assume_reachable(&mut self, nodes: impl Iterator<Item = bool>) {
        self.assumed = nodes.collect();
    }

    pub(super) fn connected(&self, src: usize, dst: usize) -> bool {
        if self.assumed.get(src) == Some(&true) || self.assumed.get(dst) == Some(&true) {
            return true;
        }
        let table = self
            .table
            .get_or_init(|| shortest_paths(self.n, &self.edges, &self.explicit));
        crate::routing::static_routes::path(table, NodeId(src as u32), NodeId(dst as u32)).is_some()
    }
}

/// ns-2's DropTail refuses an arrival when waiting + 1 reaches the limit, before an idle
/// link takes it: a limit of 1 would refuse every packet.
const DROP_TAIL_MINIMUM: &str = "allowed: an integer >= 2 (packets; as ns-2's DropTail, the limit counts the packet being transmitted, and a limit of 1 refuses every packet)";

/// The first RED-only key a queue table gives, if any.
fn red_key_given(t: &QueueTable) -> Option<&'static str> {
    [
        ("min_thresh", t.min_thresh.is_some()),
        ("max_thresh", t.max_thresh.is_some()),
        ("q_weight", t.q_weight.is_some()),
        ("linterm", t.linterm.is_some()),
        ("gentle", t.gentle.is_some()),
        ("wait", t.wait.is_some()),
        ("bytes", t.bytes.is_some()),
        ("queue_in_bytes", t.queue_in_bytes.is_some()),
        ("mean_packet_size", t.mean_packet_size.is_some()),
        ("use_mark_p", t.use_mark_p.is_some()),
        ("setbit", t.setbit.is_some()),
        ("mark_p", t.mark_p.is_some()),
        ("drop_random", t.drop_random.is_some()),
        ("ns1_compat", t.ns1_compat.is_some()),
    ]
    .into_iter()
    .find_map(|(key, given)| given.then_some(key))
}

/// A link's queue: drop-tail in packets and/or bytes, RED or SFQ (see `QueueTable`).
fn queue_config(path: &str, q: &QueueSpec) -> Result<QueueConfig, ScenarioError> {
    let t = match q {
        QueueSpec::Packets(0 | 1) => return Err(ScenarioError::at(path, DROP_TAIL_MINIMUM)),
        QueueSpec::Packets(n) => return Ok(QueueConfig::packets(*n)),
        QueueSpec::Table(t) => t,
    };
    let at = |key: &str| format!("{path}.{key}");
    if t.limit == Some(0) {
        return Err(ScenarioError::at(
            at("limit"),
            "allowed: an integer >= 1 (packets)",
        ));
    }
    if t.limit_bytes.is_some_and(|b| b.0 == 0) {
        return Err(ScenarioError::at(
            at("limit_bytes"),
            "allowed: a size >= 1B",
        ));
    }
    if t.buckets.is_some() && t.kind != "sfq" {
        return Err(ScenarioError::at(at("buckets"), "only for kind = \"sfq\""));
    }
    match t.kind.as_str() {
        "sfq" => {
            let bytes = t.limit_bytes.is_some().then_some("limit_bytes");
            if let Some(key) = bytes.or_else(|| red_key_given(t)) {
                return Err(ScenarioError::at(
                    at(key),
                    "not for kind = \"sfq\"; allowed: limit, buckets",
                ));
            }
            let d = SfqConfig::default();
            let buckets = t.buckets.unwrap_or(d.buckets);
            if buckets == 0 {
                return Err(ScenarioError::at(at("buckets"), "allowed: an integer >= 1"));
            }
            Ok(QueueConfig {
                limit: None,
                limit_bytes: None,
                red: None,
                sfq: Some(SfqConfig {
                    limit: t.limit.unwrap_or(d.limit),
                    buckets,
                }),
            })
        }
        "drop_tail" => {
            if let Some(key) = red_key_given(t) {
                return Err(ScenarioError::at(at(key), "only for kind = \"red\""));
            }
            if t.limit == Some(1) {
                return Err(ScenarioError::at(at("limit"), DROP_TAIL_MINIMUM));
            }
            if t.limit.is_none() && t.limit_bytes.is_none() {
                return Err(ScenarioError::at(
                    at("limit"),
                    "a drop_tail queue needs `limit` (packets) and/or `limit_bytes`",
                ));
            }
            Ok(QueueConfig {
                limit: t.limit,
                limit_bytes: t.limit_bytes.map(|b| b.0),
                red: None,
                sfq: None,
            })
        }
        "red" => {
            let d = RedConfig::default();
            let cfg = RedConfig {
                min_thresh: t.min_thresh.unwrap_or(d.min_thresh),
                max_thresh: t.max_thresh.unwrap_or(d.max_thresh),
                q_weight: t.q_weight.unwrap_or(d.q_weight),
                linterm: t.linterm.unwrap_or(d.linterm),
                gentle: t.gentle.unwrap_or(d.gentle),
                wait: t.wait.unwrap_or(d.wait),
                bytes: t.bytes.unwrap_or(d.bytes),
                queue_in_bytes: t.queue_in_bytes.unwrap_or(d.queue_in_bytes),
                mean_pktsize: mean_packet_size(path, t, d)?,
                use_mark_p: t.use_mark_p.unwrap_or(d.use_mark_p),
                setbit: t.setbit.unwrap_or(d.setbit),
                mark_p: t.mark_p.unwrap_or(d.mark_p),
                drop_rand: t.drop_random.unwrap_or(d.drop_rand),
                ns1_compat: t.ns1_compat.unwrap_or(d.ns1_compat),
            };
            if !(cfg.mark_p >= 0.0 && cfg.mark_p.is_finite()) {
                return Err(ScenarioError::at(at("mark_p"), "allowed: a number >= 0"));
            }
            if !(cfg.min_thresh >= 0.0 && cfg.min_thresh.is_finite()) {
                return Err(ScenarioError::at(
                    at("min_thresh"),
                    "allowed: a number >= 0 (packets)",
                ));
            }
            if !(cfg.max_thresh >= cfg.min_thresh && cfg.max_thresh.is_finite()) {
                return Err(ScenarioError::at(
                    at("max_thresh"),
                    format!("allowed: a number >= min_thresh ({})", cfg.min_thresh),
                ));
            }
            if !(cfg.q_weight > 0.0 && cfg.q_weight <= 1.0) {
                return Err(ScenarioError::at(
                    at("q_weight"),
                    "allowed: 0 < q_weight <= 1",
                ));
            }
            if !(cfg.linterm >= 1.0 && cfg.linterm.is_finite()) {
                return Err(ScenarioError::at(
                    at("linterm"),
                    "allowed: a number >= 1 (max_p = 1/linterm)",
                ));
            }
            if t.limit_bytes.is_some() && !cfg.queue_in_bytes {
                return Err(ScenarioError::at(
                    at("limit_bytes"),
                    "a RED limit in bytes needs queue_in_bytes = true",
                ));
            }
            let limit = t.limit.unwrap_or(50);
            let (limit, limit_bytes) = if cfg.queue_in_bytes {
                // ns-2: limit_ × mean_pktsize_ bytes unless given in bytes.
                let bytes = t
                    .limit_bytes
                    .map_or(u64::from(limit) * u64::from(cfg.mean_pktsize), |b| b.0);
                (None, Some(bytes))
            } else {
                (Some(limit), None)
            };
            Ok(QueueConfig {
                limit,
                limit_bytes,
                red: Some(cfg),
                sfq: None,
            })
        }
        other => Err(ScenarioError::at(
            at("kind"),
            format!("unknown queue kind `{other}`; allowed: drop_tail, red, sfq"),
        )),
    }
}

fn mean_packet_size(path: &str, t: &QueueTable, d: RedConfig) -> Result<u32, ScenarioError> {
    match t.mean_packet_size {
        None => Ok(d.mean_pktsize),
        Some(b) if b.0 >= 1 && b.0 <= 65_535 => Ok(b.0 as u32),
        Some(_) => Err(ScenarioError::at(
            format!("{path}.mean_packet_size"),
            "allowed: a size from 1B to 65535B",
        )),
    }
}
