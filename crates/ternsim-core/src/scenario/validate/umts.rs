//! UMTS radio bearers: the bearer table mapped onto the model's configuration.

use super::super::schema::{BearerSpec, DchSpec};
use super::super::ScenarioError;
use super::common::{error_model, probability};
use crate::channel::ErrorModel;
use crate::sim::SimTime;
use crate::umts::{BearerConfig, DchConfig, ErrorClock, RlcMode};

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
pub(super) fn bearer_config(
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
    let timer = |d: Option<super::super::units::Duration>| {
        d.and_then(|d| (d.0 > SimTime::ZERO).then_some(d.0))
    };
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
