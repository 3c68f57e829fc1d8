//! TCP options: a defaults profile, then `tcp_defaults`, then a flow's own `options`.

use super::super::schema::TcpOptions;
use super::super::ScenarioError;
use crate::sim::SimTime;
use crate::tcp::config::RtoMode;
use crate::tcp::{DefaultsProfile, SinkConfig, TcpConfig, TcpVariant, WindowOption};

/// Applies `opts` (found at key path `path`) onto `cfg` and `sink`.
pub(super) fn apply_tcp_options(
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
    if let Some(o) = opts.window_init_option {
        if !(1..=2).contains(&o) {
            return Err(ScenarioError::at(
                at("window_init_option"),
                "allowed: 1 or 2",
            ));
        }
        cfg.window_init_by_size = o == 2;
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
    if let Some(v) = opts.use_headers {
        cfg.use_headers = v;
    }
    if let Some(v) = opts.syn {
        cfg.syn = v;
    }
    if let Some(v) = opts.delay_growth {
        cfg.delay_growth = v;
    }
    if let Some(v) = opts.exit_fast_retrans {
        cfg.exit_fast_retrans = v;
    }
    if let Some(v) = opts.bugfix_ss {
        cfg.bugfix_ss = v;
    }
    if let Some(v) = opts.limited_transmit {
        cfg.limited_transmit = v;
    }
    if let Some(v) = opts.pace_below_one {
        cfg.pace_below_one = v;
    }
    if let Some(v) = opts.precision_reduce {
        cfg.precision_reduce = v;
    }
    if let Some(v) = opts.rfc2988 {
        cfg.rto.rfc2988 = v;
    }
    if let Some(v) = opts.bug_fix {
        cfg.bug_fix = v;
    }
    if let Some(v) = opts.bug_fix_ack {
        cfg.bug_fix_ack = v;
    }
    if let Some(v) = opts.idle_rtx_timer {
        cfg.idle_rtx_timer = v;
    }
    if let Some(v) = opts.bug_fix_ts {
        cfg.bug_fix_ts = v;
    }
    if let Some(v) = opts.no_fast_retrans {
        cfg.no_fast_retrans = v;
    }
    if let Some(v) = opts.timestamps {
        cfg.timestamps = v;
    }
    if let Some(v) = opts.ts_option_size {
        cfg.ts_option_size = v;
    }
    if let Some(v) = opts.ts_reset_rto {
        cfg.ts_reset_rto = v;
    }
    if let Some(v) = opts.timer_fix {
        cfg.timer_fix = v;
    }
    if let Some(v) = opts.ecn {
        use crate::tcp::variant::RecoveryKind;
        // ns-2's FACK and Rate-Halving agents have their own ECN rules, not modelled.
        let own_rules = matches!(
            cfg.variant.spec().recovery,
            RecoveryKind::Fack | RecoveryKind::SackRh
        );
        if v && (own_rules || cfg.variant.spec().window != crate::tcp::variant::WindowKind::Aimd) {
            return Err(ScenarioError::at(
                at("ecn"),
                "ECN is modelled for the AIMD variants (Tahoe, Reno, NewReno, Sack1, FeW) only",
            ));
        }
        cfg.ecn = v;
    }
    if let Some(v) = opts.old_ecn {
        cfg.old_ecn = v;
    }
    if let Some(v) = opts.max_connects {
        if v > 0 && cfg.variant.spec().window != crate::tcp::variant::WindowKind::Aimd {
            return Err(ScenarioError::at(
                at("max_connects"),
                "modelled for the AIMD variants only (ns-2 TcpAgent::output)",
            ));
        }
        cfg.max_connects = v;
    }
    if let Some(v) = opts.slow_start_restart {
        if !v && cfg.variant.spec().window != crate::tcp::variant::WindowKind::Aimd {
            return Err(ScenarioError::at(
                at("slow_start_restart"),
                "false is modelled for the AIMD variants only (ns-2 Vegas restarts anyway)",
            ));
        }
        cfg.slow_start_restart = v;
    }
    // ns-2 reads `control_increase_` in `recv_newack_helper`, which Agent/TCP, Reno,
    // NewReno and Sack1 share (Vegas opens its window its own way).
    if let Some(v) = opts.control_increase {
        if v && cfg.variant.spec().window != crate::tcp::variant::WindowKind::Aimd {
            return Err(ScenarioError::at(
                at("control_increase"),
                "true is modelled for the AIMD variants only (ns-2 Vegas opens its window its \
                 own way)",
            ));
        }
        cfg.control_increase = v;
    }
    for (key, value, slot) in [
        ("qoption", opts.qoption, &mut cfg.qoption),
        ("rtt_counter", opts.rtt_counter, &mut cfg.rtt_counter),
    ] {
        if let Some(v) = value {
            if v && cfg.variant != TcpVariant::Tahoe {
                return Err(ScenarioError::at(
                    at(key),
                    "true is modelled for tahoe (ns-2 Agent/TCP) only",
                ));
            }
            *slot = v;
        }
    }
    for (key, value, slot) in [
        ("srtt_bits", opts.srtt_bits, &mut cfg.rto.srtt_bits),
        ("rttvar_bits", opts.rttvar_bits, &mut cfg.rto.rttvar_bits),
        ("rttvar_exp", opts.rttvar_exp, &mut cfg.rto.rttvar_exp),
    ] {
        if let Some(v) = value {
            if v > 16 {
                return Err(ScenarioError::at(
                    at(key),
                    "allowed: an integer from 0 to 16",
                ));
            }
            *slot = v;
        }
    }
    // ns-2 shifts by rttvar_bits − 1 and by rttvar_exp + srtt_bits − rttvar_bits.
    if cfg.rto.rttvar_bits == 0 || cfg.rto.rttvar_exp + cfg.rto.srtt_bits < cfg.rto.rttvar_bits {
        return Err(ScenarioError::at(
            at("rttvar_bits"),
            "allowed: 1 or more, and at most srtt_bits + rttvar_exp",
        ));
    }
    if let Some(v) = opts.partial_window_deflation {
        cfg.newreno.partial_window_deflation = v;
    }
    if let Some(v) = opts.first_partial_timer_only {
        cfg.newreno.first_partial_timer_only = v;
    }
    if let Some(v) = opts.less_careful {
        cfg.newreno.less_careful = v;
    }
    if let Some(v) = opts.exit_recovery_fix {
        cfg.newreno.exit_recovery_fix = v;
    }
    if let Some(v) = opts.partial_ack {
        if v && cfg.variant != TcpVariant::Sack {
            return Err(ScenarioError::at(
                at("partial_ack"),
                "true is modelled for sack1 (ns-2 Agent/TCP/Sack1) only",
            ));
        }
        cfg.partial_ack = v;
    }
    if let Some(d) = opts.overhead {
        use crate::tcp::variant::RecoveryKind;
        let recovery = cfg.variant.spec().recovery;
        let plain = matches!(
            recovery,
            RecoveryKind::Tahoe | RecoveryKind::Reno | RecoveryKind::NewReno
        ) && cfg.variant.spec().window == crate::tcp::variant::WindowKind::Aimd;
        if d.0 > SimTime::ZERO && !plain {
            return Err(ScenarioError::at(
                at("overhead"),
                "a random send overhead is modelled for tahoe, reno, newreno and few only",
            ));
        }
        cfg.overhead = d.0;
    }
    for (key, value, field) in [
        ("ss_div4", opts.ss_div4, &mut cfg.fack_ss_div4),
        ("rampdown", opts.rampdown, &mut cfg.fack_rampdown),
    ] {
        if let Some(v) = value {
            if v && cfg.variant != TcpVariant::Fack {
                return Err(ScenarioError::at(
                    at(key),
                    "true is modelled for fack (ns-2 Agent/TCP/Fack) only",
                ));
            }
            *field = v;
        }
    }
    if let Some(v) = opts.dupack_frac {
        if v == 0 || (cfg.variant != TcpVariant::Sack && v != -1) {
            return Err(ScenarioError::at(
                at("dupack_frac"),
                "allowed: a non-zero integer, other than -1 only for sack1",
            ));
        }
        cfg.dupack_frac = v;
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
    apply_aimd_options(path, opts, cfg)?;
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
    if let Some(d) = opts.tick_phase {
        cfg.rto.tick_phase = Some(d.0);
    }
    if cfg.rto.tick_phase.is_some_and(|p| p >= cfg.rto.tick) {
        return Err(ScenarioError::at(
            at("tick_phase"),
            "allowed: a duration from 0 up to (not including) the tick",
        ));
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
    if let Some(v) = opts.syn_immediate_ack {
        sink.syn_immediate_ack = v;
    }
    if let Some(v) = opts.ts_echo_bugfix {
        sink.ts_echo_bugfix = v;
    }
    if let Some(v) = opts.ts_echo_rfc1323 {
        sink.ts_echo_rfc1323 = v;
    }
    if let Some(v) = opts.sink_ecn_syn {
        sink.ecn_syn = v;
    }
    if let Some(v) = opts.gap_immediate_ack {
        sink.gap_immediate_ack = v;
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
    apply_vegasw_options(path, opts, cfg)
}

/// ns-2's general AIMD and binomial parameters (`decrease_num_`, `windowOption_`,
/// `k_parameter_`, `l_parameter_`): read by `TcpAgent::opencwnd` and `slowdown`, modelled
/// for the variants whose window is ns-2 `TcpAgent`'s and whose recovery is Tahoe's, Reno's,
/// NewReno's or Sack1's.
fn apply_aimd_options(
    path: &str,
    opts: &TcpOptions,
    cfg: &mut TcpConfig,
) -> Result<(), ScenarioError> {
    let at = |k: &str| format!("{path}.{k}");
    let modelled = matches!(
        cfg.variant,
        TcpVariant::Tahoe
            | TcpVariant::Reno
            | TcpVariant::NewReno
            | TcpVariant::Sack
            | TcpVariant::Few
    );
    let refuse = |key: &str| {
        ScenarioError::at(
            at(key),
            "modelled for tahoe, reno, newreno, sack and few only (ns-2 Agent/TCP, /Reno, \
             /Newreno, /Sack1)",
        )
    };
    if let Some(v) = opts.decrease_num {
        if !(v > 0.0 && v <= 1.0) {
            return Err(ScenarioError::at(
                at("decrease_num"),
                "allowed: a number > 0 and <= 1 (the fraction of the window a loss leaves)",
            ));
        }
        if v != 0.5 && !modelled {
            return Err(refuse("decrease_num"));
        }
        cfg.decrease_num = v;
    }
    if let Some(v) = opts.window_option {
        cfg.window_option = match v {
            1 => WindowOption::Standard,
            6 if modelled => match cfg.window_option {
                WindowOption::Binomial { .. } => cfg.window_option,
                // ns-2's defaults: k_parameter_ 0, l_parameter_ 1 (AIMD again).
                WindowOption::Standard => WindowOption::Binomial { k: 0.0, l: 1.0 },
            },
            6 => return Err(refuse("window_option")),
            _ => {
                return Err(ScenarioError::at(
                    at("window_option"),
                    "allowed: 1 (increase_num / cwnd per new ACK) or 6 (binomial controls); \
                     ns-2's other windowOption_ values are not modelled",
                ))
            }
        };
    }
    for (key, value) in [
        ("binomial_k", opts.binomial_k),
        ("binomial_l", opts.binomial_l),
    ] {
        let Some(v) = value else { continue };
        let WindowOption::Binomial { k, l } = &mut cfg.window_option else {
            return Err(ScenarioError::at(
                at(key),
                "applies to window_option 6 only (set window_option = 6 too)",
            ));
        };
        if key == "binomial_k" {
            if !v.is_finite() || v < 0.0 {
                return Err(ScenarioError::at(at(key), "allowed: a number >= 0"));
            }
            *k = v;
        } else {
            if !(0.0..=1.0).contains(&v) {
                return Err(ScenarioError::at(at(key), "allowed: a number from 0 to 1"));
            }
            *l = v;
        }
    }
    // ns-2's quiescence cuts (`CWND_HALF_WITH_MIN`, `CLOSE_CWND_HALF_WAY`) read
    // `decrease_num_` too; ternsim models them at 0.5 only.
    if cfg.qoption && (cfg.decrease_num != 0.5 || cfg.window_option != WindowOption::Standard) {
        return Err(ScenarioError::at(
            at("decrease_num"),
            "with qoption: allowed only 0.5 and window_option 1 (ns-2's quiescence cuts with \
             another decrease are not modelled)",
        ));
    }
    Ok(())
}

/// Vegas-W's parameters (`ding-vegasw` seed §III-C, §IV-A); alpha, beta and gamma are the
/// `vegas_*` options. Accepted for every variant (like `vegas_alpha`), used by `vegasw`.
fn apply_vegasw_options(
    path: &str,
    opts: &TcpOptions,
    cfg: &mut TcpConfig,
) -> Result<(), ScenarioError> {
    let at = |k: &str| format!("{path}.{k}");
    let p = &mut cfg.vegasw;
    if let Some(v) = opts.vegasw_n_fw {
        if v == 0 {
            return Err(ScenarioError::at(
                at("vegasw_n_fw"),
                "allowed: an integer >= 1 (timeouts)",
            ));
        }
        p.n_fw = v;
    }
    // Thresholds the counters must exceed: any integer >= 0 (0: every counted event acts);
    // a negative or fractional value is refused by the schema with its key path.
    for (value, slot) in [
        (opts.vegasw_n_s, &mut p.n_s),
        (opts.vegasw_n_ca, &mut p.n_ca),
        (opts.vegasw_ns_ca, &mut p.ns_ca),
        (opts.vegasw_to_ss, &mut p.to_ss),
    ] {
        if let Some(v) = value {
            *slot = v;
        }
    }
    for (key, value, slot) in [
        ("vegasw_p", opts.vegasw_p, &mut p.p),
        (
            "vegasw_fractional_window",
            opts.vegasw_fractional_window,
            &mut p.fractional_window,
        ),
    ] {
        if let Some(v) = value {
            if !(v > 0.0 && v < 1.0) {
                return Err(ScenarioError::at(at(key), "allowed: a number > 0 and < 1"));
            }
            *slot = v;
        }
    }
    Ok(())
}

pub(super) fn profile(
    path: &str,
    name: Option<&String>,
) -> Result<Option<DefaultsProfile>, ScenarioError> {
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
