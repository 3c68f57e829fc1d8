//! Wired-cum-wireless networks: base stations (nodes with a position and wired links) and the
//! mobile nodes that name one with `base_station` (ns-2's `-wiredRouting ON` nodes and
//! `$node base-station`). What the roles do is `crate::routing::dsdv::subnet`'s.

use super::super::schema::ScenarioSpec;
use super::super::ScenarioError;
use super::common::NodeNames;
use super::{ResolvedLink, ResolvedNode};
use crate::routing::RoutingConfig;

/// The base stations and each mobile node's base station.
#[derive(Clone, Debug, PartialEq)]
pub struct ResolvedBaseStations {
    /// Nodes with a position and at least one wired link, in node order.
    pub stations: Vec<usize>,
    /// Per node: the base station a mobile node named.
    pub base_station_of: Vec<Option<usize>>,
}

/// The wired-cum-wireless roles, when the scenario has any: a node names a base station, or
/// a DSDV network over `[wireless]` has a node with both a position and a wired link.
pub(super) fn base_stations(
    spec: &ScenarioSpec,
    names: &NodeNames,
    nodes: &[ResolvedNode],
    links: &[ResolvedLink],
    routing: &RoutingConfig,
) -> Result<Option<ResolvedBaseStations>, ScenarioError> {
    let wired = |i: usize| links.iter().any(|l| l.a == i || l.b == i);
    let stations: Vec<usize> = (0..nodes.len())
        .filter(|&i| nodes[i].position.is_some() && wired(i))
        .collect();
    // `spec.nodes[k]` is node `first + k`: a [topology] layout's nodes come first.
    let first = nodes.len() - spec.nodes.len();
    let named: Vec<(usize, &str)> = spec
        .nodes
        .iter()
        .enumerate()
        .filter_map(|(k, n)| n.base_station.as_deref().map(|b| (k, b)))
        .collect();
    let dsdv = matches!(routing, RoutingConfig::Dsdv(_));
    let implied = dsdv && spec.wireless.is_some() && spec.mobile_ip.is_none();
    let implied_by_topology = implied && !stations.is_empty();
    if named.is_empty() && !implied_by_topology {
        return Ok(None);
    }
    let mut base_station_of = vec![None; nodes.len()];
    for (k, name) in named {
        let path = format!("nodes.{k}.base_station");
        let node = first + k;
        if spec.mobile_ip.is_some() {
            return Err(ScenarioError::at(
                path,
                "not with [mobile_ip]: Mobile IP's agents forward for their mobile nodes",
            ));
        }
        if spec.wireless.is_none() {
            return Err(ScenarioError::at(
                path,
                "a base station serves mobile nodes over [wireless]; add a [wireless] table",
            ));
        }
        if !dsdv {
            return Err(ScenarioError::at(
                "routing.protocol",
                format!(
                    "base stations ({path}) route their subnets with DSDV, as ns-2.35's \
                     wired-cum-wireless nodes do; allowed: dsdv"
                ),
            ));
        }
        let bs = names.lookup(path.clone(), name)?;
        if !stations.contains(&bs) {
            return Err(ScenarioError::at(
                path,
                format!(
                    "`{name}` is not a base station; allowed: a node with a `position` and a \
                     wired link ({})",
                    list(nodes, &stations)
                ),
            ));
        }
        if nodes[node].position.is_none() || wired(node) {
            return Err(ScenarioError::at(
                path,
                format!(
                    "node `{}` needs a `position` and no wired link: a mobile node reaches the \
                     wired network through its base station",
                    nodes[node].name
                ),
            ));
        }
        base_station_of[node] = Some(bs);
    }
    Ok(Some(ResolvedBaseStations {
        stations,
        base_station_of,
    }))
}

fn list(nodes: &[ResolvedNode], which: &[usize]) -> String {
    if which.is_empty() {
        return "none in this scenario".into();
    }
    which
        .iter()
        .map(|&i| format!("`{}`", nodes[i].name))
        .collect::<Vec<_>>()
        .join(", ")
}
