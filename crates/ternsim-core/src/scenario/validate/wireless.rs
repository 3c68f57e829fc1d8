//! `[wireless]`: the 802.11 channel's configuration, resolved against the routing protocol
//! (DSR runs over ns-2's CMUPriQueue with the MAC tap and hands queued packets back on a link
//! failure, link-spec §3.6 and §4.2).

use super::super::schema::{ScenarioSpec, WirelessSpec};
use super::super::ScenarioError;
use super::ResolvedNode;
use crate::routing::RoutingConfig;
use crate::wifi::{IfqKind, MacHeader, PropagationModel, WifiConfig};

/// The 802.11 rates of DSSS and HR/DSSS (IEEE 802.11-1999 §15, 802.11b §18).
const RATES_BPS: [f64; 4] = [1e6, 2e6, 5.5e6, 11e6];

pub(super) fn wireless(
    spec: &ScenarioSpec,
    nodes: &[ResolvedNode],
    routing: &RoutingConfig,
) -> Result<Option<WifiConfig>, ScenarioError> {
    let Some(w) = &spec.wireless else {
        return Ok(None);
    };
    if nodes.iter().filter(|n| n.on_air()).count() < 2 {
        return Err(ScenarioError::at(
            "wireless",
            "a wireless channel needs at least two nodes with a `position` (or a [topology] layout)",
        ));
    }
    let mut cfg = WifiConfig::default();
    let at = |key: &str| format!("wireless.{key}");
    for (key, value, slot) in [
        ("data_rate", w.data_rate, &mut cfg.data_rate_bps),
        ("basic_rate", w.basic_rate, &mut cfg.basic_rate_bps),
    ] {
        if let Some(r) = value {
            if !RATES_BPS.contains(&r.0) {
                return Err(ScenarioError::at(
                    at(key),
                    "allowed: 1Mbps, 2Mbps, 5.5Mbps, 11Mbps",
                ));
            }
            *slot = r.0;
        }
    }
    if let Some(p) = &w.propagation {
        cfg.radio.model = match p.as_str() {
            "two_ray_ground" => PropagationModel::TwoRayGround,
            "free_space" => PropagationModel::FreeSpace,
            "shadowing" => PropagationModel::Shadowing,
            other => {
                return Err(ScenarioError::at(
                    at("propagation"),
                    format!(
                        "unknown model `{other}`; allowed: two_ray_ground, free_space, shadowing"
                    ),
                ))
            }
        };
    }
    shadowing(w, &mut cfg)?;
    if let Some(p) = w.tx_power {
        cfg.radio.tx_power_w = p.0;
    }
    if let Some(h) = w.antenna_height {
        cfg.radio.antenna_height_m = h.0;
    }
    for (key, value, slot, what) in [
        (
            "frequency_mhz",
            w.frequency_mhz.map(|f| f * 1e6),
            &mut cfg.radio.frequency_hz,
            "> 0",
        ),
        (
            "system_loss",
            w.system_loss,
            &mut cfg.radio.system_loss,
            ">= 1",
        ),
        (
            "capture_threshold",
            w.capture_threshold,
            &mut cfg.capture_threshold,
            ">= 1",
        ),
    ] {
        if let Some(v) = value {
            let ok = v.is_finite() && if what == "> 0" { v > 0.0 } else { v >= 1.0 };
            if !ok {
                return Err(ScenarioError::at(
                    at(key),
                    format!("allowed: a number {what}"),
                ));
            }
            *slot = v;
        }
    }
    // Thresholds last: a range is turned into a power under the radio configured above.
    cfg.rx_threshold_w = threshold(
        &cfg,
        "rx",
        w.rx_range.map(|l| l.0),
        w.rx_threshold.map(|p| p.0),
    )?
    .unwrap_or(cfg.rx_threshold_w);
    cfg.cs_threshold_w = threshold(
        &cfg,
        "cs",
        w.cs_range.map(|l| l.0),
        w.cs_threshold.map(|p| p.0),
    )?
    .unwrap_or(cfg.cs_threshold_w);
    if cfg.cs_threshold_w > cfg.rx_threshold_w {
        return Err(ScenarioError::at(
            "wireless",
            "the carrier-sense range must not be shorter than the reception range",
        ));
    }
    if let Some(h) = w.mac_header {
        cfg.header = match h {
            52 => MacHeader::ThreeAddress52,
            58 => MacHeader::FourAddress58,
            _ => {
                return Err(ScenarioError::at(
                    at("mac_header"),
                    "allowed: 52 (ns-2 <= 2.32) or 58 (ns-2 >= 2.33)",
                ))
            }
        };
    }
    if let Some(b) = w.rts_threshold {
        cfg.rts_threshold = u32::try_from(b.0).unwrap_or(u32::MAX);
    }
    if let Some(fix) = w.bug_fix_timer {
        cfg.bug_fix_timer = fix;
    }
    for (key, value, slot) in [
        (
            "short_retry_limit",
            w.short_retry_limit,
            &mut cfg.short_retry_limit,
        ),
        (
            "long_retry_limit",
            w.long_retry_limit,
            &mut cfg.long_retry_limit,
        ),
    ] {
        if let Some(v) = value {
            if v == 0 {
                return Err(ScenarioError::at(at(key), "allowed: an integer >= 1"));
            }
            *slot = v;
        }
    }
    if let Some(v) = w.cw_min {
        cfg.cw_min = v;
    }
    if let Some(v) = w.cw_max {
        cfg.cw_max = v;
    }
    if cfg.cw_min == 0 || cfg.cw_max < cfg.cw_min {
        return Err(ScenarioError::at(
            at("cw_min"),
            "allowed: 1 <= cw_min <= cw_max",
        ));
    }
    let dsr = matches!(routing, RoutingConfig::Dsr(_));
    cfg.ifq = match w.ifq.as_deref() {
        None if dsr => IfqKind::CmuPriQueue,
        None | Some("priqueue") => IfqKind::PriQueue,
        Some("cmu_priqueue") => IfqKind::CmuPriQueue,
        Some(other) => {
            return Err(ScenarioError::at(
                at("ifq"),
                format!("unknown queue `{other}`; allowed: priqueue, cmu_priqueue"),
            ))
        }
    };
    if let Some(n) = w.ifq_length {
        if n < 2 {
            return Err(ScenarioError::at(
                at("ifq_length"),
                "allowed: an integer >= 2",
            ));
        }
        cfg.ifq_limit = n as usize;
    }
    if let Some(arp) = w.arp {
        cfg.arp = arp;
    }
    if let Some(loss) = w.incoming_loss {
        if !(0.0..=1.0).contains(&loss.rate) {
            return Err(ScenarioError::at(
                at("incoming_loss.rate"),
                "allowed: a probability between 0 and 1",
            ));
        }
        cfg.incoming_loss = Some(crate::wifi::config::IncomingLoss {
            rate: loss.rate,
            drop: loss.drop,
        });
    }
    match routing {
        // ns-2 DSR's MAC-failure callback takes what is queued for the lost hop out of the
        // interface queue to salvage it (`xmitFailed`): the agent asks for that itself
        // (`RoutingOutput::reclaim_queued`).
        RoutingConfig::Dsr(d) => cfg.promiscuous = d.tap,
        // ns-2 AODV's MAC-failure callback (`aodv.cc`, `rt_ll_failed`) leaves the interface
        // queue alone when it repairs the route locally (the packets queued for the broken
        // next hop are tried, and fail, one by one) and drops them when it gives the route
        // up: the agent asks for that itself (`RoutingOutput::purge_queued`). It never taps.
        RoutingConfig::Aodv(_) => {}
        // ns-2 DSDV's MAC callback pulls nothing out of the interface queue (its `filter`
        // loop is compiled out, `dsdv.cc` `lost_link`), and it does not tap.
        RoutingConfig::Dsdv(_) | RoutingConfig::Dv(_) | RoutingConfig::Static { .. } => {}
    }
    Ok(Some(cfg))
}

/// RXThresh or CSThresh from a range (metres) or a power (W), not both.
fn threshold(
    cfg: &WifiConfig,
    which: &str,
    range: Option<f64>,
    power: Option<f64>,
) -> Result<Option<f64>, ScenarioError> {
    match (range, power) {
        (Some(_), Some(_)) => Err(ScenarioError::at(
            "wireless",
            format!("give `{which}_range` or `{which}_threshold`, not both"),
        )),
        (Some(r), None) if r <= 0.0 => Err(ScenarioError::at(
            format!("wireless.{which}_range"),
            "allowed: a distance > 0",
        )),
        (Some(r), None) => Ok(Some(cfg.radio.power_for_range(r))),
        (None, p) => Ok(p),
    }
}

/// The shadowing model's keys: only with `propagation = "shadowing"`, each checked.
fn shadowing(w: &WirelessSpec, cfg: &mut WifiConfig) -> Result<(), ScenarioError> {
    let at = |key: &str| format!("wireless.{key}");
    let given = [
        ("path_loss_exponent", w.path_loss_exponent.is_some()),
        ("shadowing_deviation", w.shadowing_deviation.is_some()),
        ("reference_distance", w.reference_distance.is_some()),
        ("shadowing_seed", w.shadowing_seed.is_some()),
    ];
    if cfg.radio.model != PropagationModel::Shadowing {
        if let Some((key, _)) = given.iter().find(|(_, set)| *set) {
            return Err(ScenarioError::at(
                at(key),
                "only with propagation = \"shadowing\"",
            ));
        }
        return Ok(());
    }
    let sh = &mut cfg.radio.shadowing;
    if let Some(b) = w.path_loss_exponent {
        if !(b.is_finite() && b > 0.0) {
            return Err(ScenarioError::at(
                at("path_loss_exponent"),
                "allowed: a number > 0 (2 is free space)",
            ));
        }
        sh.path_loss_exp = b;
    }
    if let Some(s) = w.shadowing_deviation {
        sh.std_db = s.0;
    }
    if let Some(d) = w.reference_distance {
        if !(d.0.is_finite() && d.0 > 0.0) {
            return Err(ScenarioError::at(
                at("reference_distance"),
                "allowed: a distance > 0, e.g. \"1m\"",
            ));
        }
        sh.dist0_m = d.0;
    }
    if let Some(seed) = w.shadowing_seed {
        sh.seed = seed;
    }
    Ok(())
}
