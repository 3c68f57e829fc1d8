//! `[mobile_ip]`: agents, mobile nodes and correspondents resolved to node indices, the
//! last hop chosen (the radio links between agents and mobile nodes, or the 802.11 channel
//! of `[wireless]`), and the timing constants checked.

use super::super::schema::ScenarioSpec;
use super::super::ScenarioError;
use super::common::NodeNames;
use super::{ResolvedLink, ResolvedNode};
use crate::mobileip::MipConfig;
use crate::sim::SimTime;

/// A mobile node: its node, its home agent's node, reverse tunnelling.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ResolvedMobile {
    pub node: usize,
    pub home_agent: usize,
    pub reverse_tunnel: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ResolvedMobileIp {
    pub agents: Vec<usize>,
    pub mobiles: Vec<ResolvedMobile>,
    pub correspondents: Vec<usize>,
    /// Coverage radius in metres.
    pub coverage_m: f64,
    pub cfg: MipConfig,
    /// The radio links: (link index, agent node, mobile node). Empty over 802.11.
    pub radio_links: Vec<(usize, usize, usize)>,
    /// The last hop is the scenario's 802.11 channel (`[wireless]`): agents and mobile nodes
    /// talk through their NICs, and coverage is the channel's reception range.
    pub over_wifi: bool,
}

/// The ns-2 / seed defaults: 75 m coverage (`ho-mobileip` §V-A).
pub const DEFAULT_COVERAGE_M: f64 = 75.0;

pub(super) fn mobile_ip(
    spec: &ScenarioSpec,
    names: &NodeNames,
    nodes: &[ResolvedNode],
    links: &[ResolvedLink],
    dsdv: bool,
) -> Result<Option<ResolvedMobileIp>, ScenarioError> {
    let Some(m) = &spec.mobile_ip else {
        return Ok(None);
    };
    let positioned = |path: String, i: usize| {
        if nodes[i].position.is_none() {
            Err(ScenarioError::at(
                path,
                format!(
                    "node `{}` needs a `position` (coverage is a radius around agents)",
                    nodes[i].name
                ),
            ))
        } else {
            Ok(i)
        }
    };
    let mut agents = Vec::new();
    for (k, a) in m.agents.iter().enumerate() {
        let path = format!("mobile_ip.agents.{k}");
        let i = positioned(path.clone(), names.lookup(path.clone(), a)?)?;
        if agents.contains(&i) {
            return Err(ScenarioError::at(path, format!("agent `{a}` listed twice")));
        }
        agents.push(i);
    }
    let mut mobiles: Vec<ResolvedMobile> = Vec::new();
    for (k, mn) in m.mobiles.iter().enumerate() {
        let path = format!("mobile_ip.mobiles.{k}");
        let node = positioned(
            format!("{path}.node"),
            names.lookup(format!("{path}.node"), &mn.node)?,
        )?;
        if agents.contains(&node) || mobiles.iter().any(|o| o.node == node) {
            return Err(ScenarioError::at(
                format!("{path}.node"),
                format!("node `{}` already has a Mobile IP role", mn.node),
            ));
        }
        let home_agent = names.lookup(format!("{path}.home_agent"), &mn.home_agent)?;
        if !agents.contains(&home_agent) {
            return Err(ScenarioError::at(
                format!("{path}.home_agent"),
                format!("`{}` is not one of mobile_ip.agents", mn.home_agent),
            ));
        }
        mobiles.push(ResolvedMobile {
            node,
            home_agent,
            reverse_tunnel: mn.reverse_tunnel,
        });
    }
    let mut correspondents = Vec::new();
    for (k, c) in m.correspondents.iter().enumerate() {
        let path = format!("mobile_ip.correspondents.{k}");
        let i = names.lookup(path.clone(), c)?;
        if agents.contains(&i) || mobiles.iter().any(|o| o.node == i) {
            return Err(ScenarioError::at(
                path,
                format!("node `{c}` already has a Mobile IP role"),
            ));
        }
        correspondents.push(i);
    }
    let coverage_m = m.coverage.map_or(DEFAULT_COVERAGE_M, |l| l.0);
    if !(coverage_m > 0.0 && coverage_m.is_finite()) {
        return Err(ScenarioError::at(
            "mobile_ip.coverage",
            "allowed: a distance > 0",
        ));
    }
    let d = MipConfig::default();
    let positive = |key: &str, v: Option<crate::scenario::units::Duration>, dflt: SimTime| match v {
        Some(x) if x.0 == SimTime::ZERO => Err(ScenarioError::at(
            format!("mobile_ip.{key}"),
            "allowed: a duration > 0",
        )),
        Some(x) => Ok(x.0),
        None => Ok(dflt),
    };
    let cfg = MipConfig {
        beacon_period: positive("beacon_period", m.beacon_period, d.beacon_period)?,
        advertisement_lifetime: positive(
            "advertisement_lifetime",
            m.advertisement_lifetime,
            d.advertisement_lifetime,
        )?,
        registration_lifetime: positive(
            "registration_lifetime",
            m.registration_lifetime,
            d.registration_lifetime,
        )?,
        registration_retransmit: positive(
            "registration_retransmit",
            m.registration_retransmit,
            d.registration_retransmit,
        )?,
        route_optimization: m.route_optimization,
        // `[routing] protocol = "dsdv"` over 802.11: ns-2's wired-cum-wireless Mobile IP,
        // whose agents and mobile nodes send their wireless traffic through DSDV.
        through_dsdv: dsdv && spec.wireless.is_some(),
    };
    let mut radio_links = Vec::new();
    for (i, l) in links.iter().enumerate() {
        for (agent, mobile) in [(l.a, l.b), (l.b, l.a)] {
            if agents.contains(&agent) && mobiles.iter().any(|o| o.node == mobile) {
                radio_links.push((i, agent, mobile));
            }
        }
    }
    let over_wifi = spec.wireless.is_some();
    if over_wifi {
        // Over 802.11 the channel is the last hop; a point-to-point link beside it would give
        // the mobile node a second, always-on way to its agent.
        if let Some(&(i, _, _)) = radio_links.first() {
            return Err(ScenarioError::at(
                format!("links.{i}"),
                "with [wireless] the agent-to-mobile-node last hop is the 802.11 channel: \
                 allowed are links between wired nodes only, not between an agent and a mobile node",
            ));
        }
        if m.coverage.is_some() {
            return Err(ScenarioError::at(
                "mobile_ip.coverage",
                "with [wireless] an agent's coverage is the channel's reception range: set \
                 wireless.rx_range instead",
            ));
        }
    }
    for (k, mn) in mobiles.iter().enumerate().filter(|_| !over_wifi) {
        if !radio_links
            .iter()
            .any(|&(_, a, n)| n == mn.node && a == mn.home_agent)
        {
            return Err(ScenarioError::at(
                format!("mobile_ip.mobiles.{k}"),
                "needs a [[links]] entry between the mobile node and its home agent (its radio link)",
            ));
        }
    }
    Ok(Some(ResolvedMobileIp {
        agents,
        mobiles,
        correspondents,
        coverage_m,
        cfg,
        radio_links,
        over_wifi,
    }))
}
