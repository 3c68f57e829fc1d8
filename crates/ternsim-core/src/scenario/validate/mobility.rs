//! `[mobility]`: random waypoint for the `[topology] random` nodes, or an ns-2 movement file
//! for any nodes (`$node_(i)` is the i-th node, layout nodes first).

use std::sync::Arc;

use super::super::schema::{MobilitySpec, ScenarioSpec};
use super::super::ScenarioError;
use super::common::resolve_file;
use super::{NodeMobility, ResolvedNode};
use crate::mobility::{
    parse_movement_file, Mobility, PauseDistribution, Position, RandomPlacement, RandomWaypoint,
    SetdestVersion, SpeedDistribution,
};

pub(super) fn apply(spec: &ScenarioSpec, nodes: &mut [ResolvedNode]) -> Result<(), ScenarioError> {
    let Some(m) = &spec.mobility else {
        return Ok(());
    };
    match (&m.model, &m.file) {
        (Some(_), Some(_)) => Err(ScenarioError::at(
            "mobility",
            "give `model` or `file`, not both",
        )),
        (None, None) => Err(ScenarioError::at(
            "mobility",
            "allowed: model = \"random_waypoint\" (with pause, min_speed, max_speed, version, \
             steady_state) or file = \"<ns-2 movement file>\"",
        )),
        (Some(model), None) => random_waypoint(spec, m, model, nodes),
        (None, Some(file)) => movement_file(spec, m, file, nodes),
    }
}

fn random_waypoint(
    spec: &ScenarioSpec,
    m: &MobilitySpec,
    model: &str,
    nodes: &mut [ResolvedNode],
) -> Result<(), ScenarioError> {
    if model != "random_waypoint" {
        return Err(ScenarioError::at(
            "mobility.model",
            format!("unknown model `{model}`; allowed: random_waypoint"),
        ));
    }
    let Some(area) = &spec.topology.random else {
        return Err(ScenarioError::at(
            "mobility.model",
            "random_waypoint moves the nodes of `[topology] random = { nodes, area }`; add it",
        ));
    };
    let version = match m.version {
        None | Some(1) => SetdestVersion::V1,
        Some(2) => SetdestVersion::V2,
        Some(v) => {
            return Err(ScenarioError::at(
                "mobility.version",
                format!("unknown setdest version {v}; allowed: 1, 2"),
            ))
        }
    };
    let pause_distribution = match m.pause_distribution.as_deref() {
        None | Some("constant") => PauseDistribution::Constant,
        Some("uniform") => PauseDistribution::Uniform,
        Some(other) => {
            return Err(ScenarioError::at(
                "mobility.pause_distribution",
                format!("unknown distribution `{other}`; allowed: constant, uniform"),
            ))
        }
    };
    let speed_distribution = match m.speed_distribution.as_deref() {
        None | Some("uniform") => SpeedDistribution::Uniform,
        Some("normal") => SpeedDistribution::Normal,
        Some(other) => {
            return Err(ScenarioError::at(
                "mobility.speed_distribution",
                format!("unknown distribution `{other}`; allowed: uniform, normal"),
            ))
        }
    };
    let Some(max_speed) = m.max_speed else {
        return Err(ScenarioError::at(
            "mobility.max_speed",
            "random_waypoint needs a max_speed (e.g. \"20m/s\")",
        ));
    };
    let waypoint = RandomWaypoint {
        width: area.area[0].0,
        height: area.area[1].0,
        pause_s: m.pause.map_or(0.0, |d| d.0.as_secs_f64()),
        pause_distribution,
        min_speed: m.min_speed.map_or(0.0, |s| s.0),
        max_speed: max_speed.0,
        speed_distribution,
        version,
        steady_state: m.steady_state.unwrap_or(false),
    };
    waypoint.check().map_err(|(key, msg)| {
        let path = if key == "area" {
            "topology.random.area".to_string()
        } else {
            format!("mobility.{key}")
        };
        ScenarioError::at(path, msg)
    })?;
    let placement = Arc::new(RandomPlacement {
        width: waypoint.width,
        height: waypoint.height,
        waypoint: Some(waypoint),
        until: spec.duration.0,
    });
    for n in nodes.iter_mut() {
        if matches!(n.mobility, NodeMobility::Random(_)) {
            n.mobility = NodeMobility::Random(placement.clone());
        }
    }
    Ok(())
}

fn movement_file(
    spec: &ScenarioSpec,
    m: &MobilitySpec,
    file: &str,
    nodes: &mut [ResolvedNode],
) -> Result<(), ScenarioError> {
    let model_keys = [
        ("pause", m.pause.is_some()),
        ("pause_distribution", m.pause_distribution.is_some()),
        ("speed_distribution", m.speed_distribution.is_some()),
        ("min_speed", m.min_speed.is_some()),
        ("max_speed", m.max_speed.is_some()),
        ("version", m.version.is_some()),
        ("steady_state", m.steady_state.is_some()),
    ];
    if let Some((key, _)) = model_keys.iter().find(|(_, set)| *set) {
        return Err(ScenarioError::at(
            format!("mobility.{key}"),
            "a movement file gives the moves; remove this key",
        ));
    }
    let path = resolve_file(spec.scenario_dir.as_ref(), file);
    let at = "mobility.file";
    let text = std::fs::read_to_string(&path)
        .map_err(|e| ScenarioError::at(at, format!("cannot read `{}`: {e}", path.display())))?;
    let scripts = parse_movement_file(&text)
        .map_err(|e| ScenarioError::at(at, format!("{}: {e}", path.display())))?;
    if scripts.len() > nodes.len() {
        return Err(ScenarioError::at(
            at,
            format!(
                "the file names $node_({}) but the scenario has {} nodes ($node_(i) is the i-th)",
                scripts.len() - 1,
                nodes.len()
            ),
        ));
    }
    for (i, script) in scripts.iter().enumerate() {
        if script.x.is_none() && script.y.is_none() && script.moves.is_empty() {
            continue;
        }
        let n = &mut nodes[i];
        let own = match &n.mobility {
            NodeMobility::Fixed(Mobility::Trajectory(_)) => {
                return Err(ScenarioError::at(
                    at,
                    format!("$node_({i}) is `{}`, which has its own `moves`", n.name),
                ))
            }
            NodeMobility::Fixed(Mobility::Static(p)) => *p,
            NodeMobility::Random(_) => None,
        };
        let start = match (script.x, script.y, own) {
            (Some(x), Some(y), _) => Position { x, y },
            (x, y, Some(p)) => Position {
                x: x.unwrap_or(p.x),
                y: y.unwrap_or(p.y),
            },
            _ => {
                return Err(ScenarioError::at(
                    at,
                    format!(
                        "$node_({i}) (`{}`) has no X_ and Y_ and no position",
                        n.name
                    ),
                ))
            }
        };
        if let Some(area) = &spec.topology.random {
            // ns-2 refuses a position or `setdest` outside the topography
            // (`MobileNode::set_destination`: "invalid destination"); so does ternsim, before
            // the run, instead of letting a node leave the flat grid.
            let (w, h) = (area.area[0].0, area.area[1].0);
            let outside = |p: &Position| p.x < 0.0 || p.y < 0.0 || p.x > w || p.y > h;
            let place = std::iter::once((None, start))
                .chain(script.moves.iter().map(|(t, p, _)| (Some(*t), *p)))
                .find(|(_, p)| outside(p));
            if let Some((t, p)) = place {
                let when = t.map_or("its start".to_string(), |t| {
                    format!("the move at {} s", t.as_secs_f64())
                });
                return Err(ScenarioError::at(
                    at,
                    format!(
                        "$node_({i}) (`{}`): {when} is at ({}, {}) m, outside the {w} m x {h} m \
                         topography (topology.random.area)",
                        n.name, p.x, p.y
                    ),
                ));
            }
        }
        let tr = script
            .trajectory(start)
            .map_err(|e| ScenarioError::at(at, format!("$node_({i}): {e}")))?;
        n.position = Some(start);
        n.mobility = NodeMobility::Fixed(Mobility::Trajectory(Arc::new(tr)));
    }
    Ok(())
}
