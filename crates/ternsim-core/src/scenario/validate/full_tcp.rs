//! `transport = "fulltcp"`: a pair of ns-2 FullTcp agents. The TcpAgent parameters they
//! share with one-way TCP come from `tcp_defaults` and `options` (the active opener) or
//! `peer_options` (the passive opener); the FullTcp-only ones from `full_tcp` and
//! `full_tcp_peer`.

use super::super::schema::{FlowSpec, FullTcpOptions, ScenarioSpec, TcpOptions};
use super::super::ScenarioError;
use super::tcp::{apply_tcp_options, profile};
use super::{FlowTransport, FullTcpAction, FullTcpWhat};
use crate::tcp::full::{FullTcpConfig, FullVariant};
use crate::tcp::{DefaultsProfile, SinkConfig, TcpConfig, TcpVariant};

/// The FullTcp classes by name (`tcp` of the flow, `full_tcp_peer.variant`).
fn variant(path: String, name: &str) -> Result<FullVariant, ScenarioError> {
    match name {
        "reno" => Ok(FullVariant::Reno),
        "tahoe" => Ok(FullVariant::Tahoe),
        "newreno" => Ok(FullVariant::NewReno),
        "sack" => Ok(FullVariant::Sack),
        _ => Err(ScenarioError::at(
            path,
            format!("unknown FullTcp variant `{name}`; allowed: reno, tahoe, newreno, sack"),
        )),
    }
}

/// The `TcpOptions` keys a FullTcp agent does not read: refused, so that a scenario never
/// sets something without effect.
fn unread_key(o: &TcpOptions) -> Option<&'static str> {
    let set = [
        (
            "packet_size (use full_tcp.segsize)",
            o.packet_size.is_some(),
        ),
        ("use_headers", o.use_headers.is_some()),
        ("syn", o.syn.is_some()),
        ("limited_transmit", o.limited_transmit.is_some()),
        ("dupack_threshold", o.dupack_threshold.is_some()),
        ("bug_fix_ack", o.bug_fix_ack.is_some()),
        ("bug_fix_ts", o.bug_fix_ts.is_some()),
        ("no_fast_retrans", o.no_fast_retrans.is_some()),
        (
            "partial_window_deflation",
            o.partial_window_deflation.is_some(),
        ),
        (
            "first_partial_timer_only",
            o.first_partial_timer_only.is_some(),
        ),
        ("exit_recovery_fix", o.exit_recovery_fix.is_some()),
        ("less_careful", o.less_careful.is_some()),
        ("increase_num", o.increase_num.is_some()),
        ("decrease_num", o.decrease_num.is_some()),
        ("window_option", o.window_option.is_some()),
        ("binomial_k", o.binomial_k.is_some()),
        ("binomial_l", o.binomial_l.is_some()),
        ("min_cwnd", o.min_cwnd.is_some()),
        ("pace_below_one", o.pace_below_one.is_some()),
        ("min_ssthresh", o.min_ssthresh.is_some()),
        ("ts_reset_rto", o.ts_reset_rto.is_some()),
        ("ts_echo_bugfix", o.ts_echo_bugfix.is_some()),
        ("ts_echo_rfc1323", o.ts_echo_rfc1323.is_some()),
        ("timer_fix", o.timer_fix.is_some()),
        ("delayed_ack", o.delayed_ack.is_some()),
        ("sack_blocks", o.sack_blocks.is_some()),
        ("syn_immediate_ack", o.syn_immediate_ack.is_some()),
        ("gap_immediate_ack", o.gap_immediate_ack.is_some()),
        ("vegas_alpha", o.vegas_alpha.is_some()),
        ("vegas_beta", o.vegas_beta.is_some()),
        ("vegas_gamma", o.vegas_gamma.is_some()),
        ("vegas_omits_header", o.vegas_omits_header.is_some()),
        ("rto (FullTcp keeps ns-2's estimator)", o.rto.is_some()),
    ];
    set.iter().find(|(_, on)| *on).map(|(k, _)| *k)
}

/// One end's configuration: the profile's TcpAgent values, `tcp_defaults`, the end's
/// options, then its FullTcp-only options.
fn end_config(
    path: &str,
    full_path: &str,
    v: FullVariant,
    prof: DefaultsProfile,
    spec: &ScenarioSpec,
    opts: &TcpOptions,
    full: Option<&FullTcpOptions>,
) -> Result<FullTcpConfig, ScenarioError> {
    for (p, o) in [("tcp_defaults", &spec.tcp_defaults), (path, opts)] {
        if let Some(k) = unread_key(o) {
            return Err(ScenarioError::at(
                format!("{p}.{k}"),
                "not read by a FullTcp agent; remove it",
            ));
        }
    }
    let mut tcp = TcpConfig::from_profile(TcpVariant::Reno, prof);
    let mut sink = SinkConfig::default();
    apply_tcp_options("tcp_defaults", &spec.tcp_defaults, &mut tcp, &mut sink)?;
    apply_tcp_options(path, opts, &mut tcp, &mut sink)?;
    let mut c = FullTcpConfig::ns2_defaults(v, tcp.rto);
    c.header_size = tcp.header_size;
    c.window = tcp.window;
    c.window_init = tcp.window_init;
    c.window_init_by_size = tcp.window_init_by_size;
    if c.window_init_by_size && !tcp.delay_growth {
        // ns-2's reset would take the initial window from `packetSize_` then (`size_` before
        // the first segment), which a FullTcp scenario does not give.
        return Err(ScenarioError::at(
            format!("{path}.window_init_option"),
            "2 with delay_growth false: not supported for FullTcp",
        ));
    }
    c.max_burst = tcp.max_burst;
    if tcp.max_cwnd.fract() != 0.0 {
        return Err(ScenarioError::at(
            format!("{path}.max_cwnd"),
            "allowed for FullTcp: a whole number of segments",
        ));
    }
    c.max_cwnd = tcp.max_cwnd as u32;
    c.precision_reduce = tcp.precision_reduce;
    c.bug_fix = tcp.bug_fix;
    c.delay_growth = tcp.delay_growth;
    c.delack_interval = sink.delack_interval;
    c.ecn = tcp.ecn;
    c.timestamps = tcp.timestamps;
    c.ts_option_size = tcp.ts_option_size;
    if tcp.old_ecn {
        return Err(ScenarioError::at(
            format!("{path}.old_ecn"),
            "not read by a FullTcp agent; remove it",
        ));
    }
    let Some(f) = full else { return Ok(c) };
    let at = |k: &str| format!("{full_path}.{k}");
    if let Some(n) = f.segsize {
        if n == 0 || n > 65_000 {
            return Err(ScenarioError::at(
                at("segsize"),
                "allowed: 1 to 65000 (bytes)",
            ));
        }
        c.segsize = n;
    }
    if let Some(n) = f.dupack_threshold {
        if n == 0 {
            return Err(ScenarioError::at(at("dupack_threshold"), "allowed: >= 1"));
        }
        c.dupack_threshold = n;
    }
    if let Some(n) = f.segs_per_ack {
        c.segs_per_ack = n;
    }
    if let Some(n) = f.spa_thresh {
        c.spa_thresh = n;
    }
    if let Some(n) = f.iss {
        if n < 0 {
            return Err(ScenarioError::at(at("iss"), "allowed: >= 0"));
        }
        c.iss = n;
    }
    if let Some(n) = f.recov_maxburst {
        c.recov_maxburst = n;
    }
    if let Some(b) = f.ecn_syn {
        c.ecn_syn = b;
    }
    if let Some(n) = f.ecn_syn_wait {
        if n > 2 {
            return Err(ScenarioError::at(at("ecn_syn_wait"), "allowed: 0, 1 or 2"));
        }
        c.ecn_syn_wait = n;
    }
    for (flag, value) in [
        (&mut c.nodelay, f.nodelay),
        (&mut c.data_on_syn, f.data_on_syn),
        (&mut c.dupseg_fix, f.dupseg_fix),
        (&mut c.dupack_reset, f.dupack_reset),
        (&mut c.halfclose, f.halfclose),
        (&mut c.nopredict, f.nopredict),
        (&mut c.slow_start_restart, f.slow_start_restart),
        (&mut c.restart_bugfix, f.restart_bugfix),
        (&mut c.reno_fastrecov, f.reno_fastrecov),
        (&mut c.open_cwnd_on_pack, f.open_cwnd_on_pack),
    ] {
        if let Some(b) = value {
            *flag = b;
        }
    }
    Ok(c)
}

pub(super) fn full_tcp_transport(
    i: usize,
    f: &FlowSpec,
    spec: &ScenarioSpec,
    default_profile: Option<DefaultsProfile>,
) -> Result<FlowTransport, ScenarioError> {
    let at = |k: &str| format!("flows.{i}.{k}");
    let name = f.tcp.as_deref().unwrap_or("reno");
    let va = variant(at("tcp"), name)?;
    if f.full_tcp.as_ref().is_some_and(|o| o.variant.is_some()) {
        return Err(ScenarioError::at(
            at("full_tcp.variant"),
            "the active opener's variant is the flow's `tcp`",
        ));
    }
    if f.full_tcp.as_ref().is_some_and(|o| o.listen.is_some()) {
        return Err(ScenarioError::at(
            at("full_tcp.listen"),
            "the flow's `src` opens the connection; `listen` is for full_tcp_peer",
        ));
    }
    let peer_listens = f
        .full_tcp_peer
        .as_ref()
        .and_then(|o| o.listen)
        .unwrap_or(true);
    let vb = match f.full_tcp_peer.as_ref().and_then(|o| o.variant.as_ref()) {
        Some(n) => variant(at("full_tcp_peer.variant"), n)?,
        None => va,
    };
    if f.stop.is_some() {
        return Err(ScenarioError::at(
            at("stop"),
            "a FullTcp flow stops by closing: give a full_tcp action with `close = true`",
        ));
    }
    if f.app.is_some() {
        return Err(ScenarioError::at(
            at("app"),
            "a FullTcp flow runs FTP; remove `app`",
        ));
    }
    let prof = profile(&at("options.profile"), f.options.profile.as_ref())?
        .or(default_profile)
        .unwrap_or(DefaultsProfile::Ns2_35);
    let empty = TcpOptions::default();
    let peer_opts = f.peer_options.as_ref().unwrap_or(&empty);
    let a = end_config(
        &at("options"),
        &at("full_tcp"),
        va,
        prof,
        spec,
        &f.options,
        f.full_tcp.as_ref(),
    )?;
    let b = end_config(
        &at("peer_options"),
        &at("full_tcp_peer"),
        vb,
        prof,
        spec,
        peer_opts,
        f.full_tcp_peer.as_ref(),
    )?;
    let mut actions = Vec::new();
    for (end, key, opts) in [
        (0u8, "full_tcp", f.full_tcp.as_ref()),
        (1u8, "full_tcp_peer", f.full_tcp_peer.as_ref()),
    ] {
        for (k, act) in opts
            .and_then(|o| o.actions.as_ref())
            .into_iter()
            .flatten()
            .enumerate()
        {
            let here = at(&format!("{key}.actions.{k}"));
            if act.at.0 >= spec.duration.0 {
                return Err(ScenarioError::at(
                    format!("{here}.at"),
                    format!("must be before the end of the run ({})", spec.duration.0),
                ));
            }
            let close = act.close == Some(true);
            let eof = act.eof == Some(true);
            let what = match (close, eof, act.bytes) {
                (true, false, None) => FullTcpWhat::Close,
                (false, true, Some(b)) => FullTcpWhat::SendEof(b.0),
                (false, false, b) => FullTcpWhat::Send(b.map(|b| b.0)),
                (false, true, None) => {
                    return Err(ScenarioError::at(
                        format!("{here}.eof"),
                        "`eof` closes after `bytes`: give the bytes",
                    ))
                }
                (true, _, _) => {
                    return Err(ScenarioError::at(
                        here,
                        "an action either sends `bytes` or closes; give one",
                    ))
                }
            };
            actions.push(FullTcpAction {
                at: act.at.0,
                end,
                what,
            });
        }
    }
    // In time order; at one instant the active opener's first, each end's in list order.
    actions.sort_by_key(|a| a.at);
    Ok(FlowTransport::FullTcp {
        phases: [a.rto.tick_phase, b.rto.tick_phase],
        a: Box::new(a),
        b: Box::new(b),
        app_bytes: f.bytes.map(|b| b.0),
        actions,
        peer_listens,
    })
}
