"""From an ns-2 script's record to a ternsim scenario, and ternsim's results back to ns-2 names.

This module owns the one table that maps each ns-2 name to a scenario key (DESIGN.md §10):
agent and application classes to flow kinds, their variables to options, links and
``queue-limit`` to per-direction queues. It also rewrites ternsim's wired trace into exactly
ns-2's numbering (agent ports per node, the agents' ``fid_``, packet uids from 0, only the
links created after ``trace-all``) and answers ``$tcp set nrexmitpack_`` after the run from
the summary.
"""

from __future__ import annotations

import re

from . import classes, errmodel, mobileip, nam, wireless
from .otcl import Obj, Refusal
from .simulator import Model, _atoi

# typing.TYPE_CHECKING without importing typing (about 5 ms of ternsim ns2's start).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: Agent class -> ternsim TCP variant.
TCP_VARIANTS = {
    "Agent/TCP": "tahoe",
    "Agent/TCP/Reno": "reno",
    "Agent/TCP/Newreno": "newreno",
    "Agent/TCP/Sack1": "sack",
    "Agent/TCP/Fack": "fack",
    "Agent/TCP/SackRH": "sackrh",
    "Agent/TCP/Vegas": "vegas",
}

#: The one-way TCP agents that pair with a SACK sink (Agent/TCPSink/Sack1).
SACK_AGENTS = ("Agent/TCP/Sack1", "Agent/TCP/Fack", "Agent/TCP/SackRH")

#: Options bound by one agent class alone (ns-2's other agents ignore the variable).
TCP_CLASS_OPTIONS = {
    "partial_ack_": "Agent/TCP/Sack1",
    "ss-div4_": "Agent/TCP/Fack",
    "rampdown_": "Agent/TCP/Fack",
}

#: FullTcp agent class -> ternsim FullTcp variant (`transport = "fulltcp"`).
FULL_VARIANTS = {
    "Agent/TCP/FullTcp": "reno",
    "Agent/TCP/FullTcp/Tahoe": "tahoe",
    "Agent/TCP/FullTcp/Newreno": "newreno",
    "Agent/TCP/FullTcp/Sack": "sack",
}

#: The `Agent/TCP` variables a FullTcp agent reads, as their TCP option (the rest of
#: TCP_OPTIONS are one-way TCP's: ns-2's FullTcp never reads them, whatever their value).
FULL_TCP_SHARED = (
    "tcpip_base_hdr_size_",
    "window_",
    "windowInit_",
    "maxburst_",
    "maxcwnd_",
    "tcpTick_",
    "minrto_",
    "maxrto_",
    "rtxcur_init_",
    "precisionReduce_",
    "bugFix_",
    "rfc2988_",
    "delay_growth_",
    "T_SRTT_BITS",
    "T_RTTVAR_BITS",
    "rttvar_exp_",
    "ecn_",
    "windowInitOption_",
    "timestamps_",
    "ts_option_size_",
)

#: FullTcp variable -> (`full_tcp` option, conversion).
FULL_TCP_OPTIONS: dict[str, tuple[str, Any]] = {
    "segsize_": ("segsize", lambda v: int(float(v))),
    "segsperack_": ("segs_per_ack", lambda v: int(float(v))),
    "spa_thresh_": ("spa_thresh", lambda v: int(float(v))),
    "tcprexmtthresh_": ("dupack_threshold", lambda v: int(float(v))),
    "iss_": ("iss", lambda v: int(float(v))),
    "nodelay_": ("nodelay", classes.boolean),
    "data_on_syn_": ("data_on_syn", classes.boolean),
    "dupseg_fix_": ("dupseg_fix", classes.boolean),
    "dupack_reset_": ("dupack_reset", classes.boolean),
    "halfclose_": ("halfclose", classes.boolean),
    "nopredict_": ("nopredict", classes.boolean),
    "slow_start_restart_": ("slow_start_restart", classes.boolean),
    "restart_bugfix_": ("restart_bugfix", classes.boolean),
    "reno_fastrecov_": ("reno_fastrecov", classes.boolean),
    "open_cwnd_on_pack_": ("open_cwnd_on_pack", classes.boolean),
    "recov_maxburst_": ("recov_maxburst", lambda v: int(float(v))),
    "ecn_syn_": ("ecn_syn", classes.boolean),
    "ecn_syn_wait_": ("ecn_syn_wait", lambda v: int(float(v))),
}

#: FullTcp variables ternsim models only at their ns-2.35 default: var -> (default, what).
FULL_TCP_UNMODELLED: dict[str, tuple[str, str]] = {
    "pipectrl_": ("0", "pipe-style send control"),
    "signal_on_empty_": ("0", "the done_data callback"),
    # FullTcp/Sack's, modelled at their ns-default.tcl values only.
    "clear_on_timeout_": ("1", "a scoreboard kept over timeouts"),
    "sack_rtx_cthresh_": ("1", "another hole-fill threshold"),
    "sack_rtx_bthresh_": ("1", "another hole-fill threshold"),
    "sack_rtx_threshmode_": ("1", "another hole-fill rule"),
    "sack_block_size_": ("8", "another SACK block size"),
    "sack_option_size_": ("2", "another SACK option size"),
    "max_sack_blocks_": ("3", "another number of SACK blocks"),
}

#: Traffic class -> ternsim UDP application kind.
UDP_APPS = {
    "Application/Traffic/CBR": "cbr",
    "Application/Traffic/Exponential": "exponential",
    "Application/Traffic/Pareto": "pareto",
}

#: TCP agent variable -> (TCP option, conversion). Only these may be set on a TCP agent.
TCP_OPTIONS: dict[str, tuple[str, Any]] = {
    "packetSize_": ("packet_size", lambda v: f"{int(float(v))}B"),
    "tcpip_base_hdr_size_": ("header_size", lambda v: f"{int(float(v))}B"),
    "window_": ("window", lambda v: int(float(v))),
    "windowInit_": ("window_init", lambda v: int(float(v))),
    "maxburst_": ("max_burst", lambda v: int(float(v))),
    "maxcwnd_": ("max_cwnd", float),
    "syn_": ("syn", classes.boolean),
    "numdupacks_": ("dupack_threshold", lambda v: int(float(v))),
    # Sack1 only (unmodelled_value refuses another value for the others).
    "numdupacksFrac_": ("dupack_frac", lambda v: int(float(v))),
    # Sack1's partial-ACK response (bound by Agent/TCP/Sack1 alone; TCP_UNMODELLED).
    "partial_ack_": ("partial_ack", classes.boolean),
    # FACK's options (bound by Agent/TCP/Fack alone).
    "ss-div4_": ("ss_div4", classes.boolean),
    "rampdown_": ("rampdown", classes.boolean),
    # The random send overhead (TcpAgent::send_much's delayed-send timer; Agent/TCP, /Reno
    # and /Newreno, whose send loop it is: TCP_UNMODELLED refuses it for the others).
    "overhead_": ("overhead", lambda v: f"{classes.seconds(v)!r}s"),
    "tcpTick_": ("tick", lambda v: f"{classes.seconds(v)!r}s"),
    "minrto_": ("min_rto", lambda v: f"{classes.seconds(v)!r}s"),
    "maxrto_": ("max_rto", lambda v: f"{classes.seconds(v)!r}s"),
    "rtxcur_init_": ("initial_rto", lambda v: f"{classes.seconds(v)!r}s"),
    "v_alpha_": ("vegas_alpha", float),
    "v_beta_": ("vegas_beta", float),
    "v_gamma_": ("vegas_gamma", float),
    "singledup_": ("limited_transmit", classes.boolean),
    # 1 or 2 (one-way agents; unmodelled_value refuses other values and FullTcp's 2).
    "windowInitOption_": ("window_init_option", lambda v: int(float(v))),
    "precisionReduce_": ("precision_reduce", classes.boolean),
    # ns-2's general AIMD and binomial controls (TcpAgent::opencwnd, slowdown): Agent/TCP,
    # /Reno, /Newreno and /Sack1 only (unmodelled_value refuses them for the others);
    # k_parameter_ and l_parameter_ are written only with windowOption_ 6, which alone
    # reads them.
    "increase_num_": ("increase_num", float),
    "decrease_num_": ("decrease_num", float),
    "windowOption_": ("window_option", lambda v: int(float(v))),
    "k_parameter_": ("binomial_k", float),
    "l_parameter_": ("binomial_l", float),
    "bugFix_": ("bug_fix", classes.boolean),
    # Read by ns-2's NewReno only (as by ternsim's): RFC 6582's ACK heuristic.
    "bugFix_ack_": ("bug_fix_ack", classes.boolean),
    "bugFix_ts_": ("bug_fix_ts", classes.boolean),
    # Read by ns-2's Tahoe (Agent/TCP) only (as by ternsim's).
    "noFastRetrans_": ("no_fast_retrans", classes.boolean),
    "rfc2988_": ("rfc2988", classes.boolean),
    "delay_growth_": ("delay_growth", classes.boolean),
    "bugfix_ss_": ("bugfix_ss", classes.boolean),
    # Read by ns-2's Reno and NewReno `recv` only (as by ternsim's).
    "exitFastRetrans_": ("exit_fast_retrans", classes.boolean),
    "useHeaders_": ("use_headers", classes.boolean),
    # Read by ns-2's NewReno only (as by ternsim's).
    "lessCareful_": ("less_careful", classes.boolean),
    "partial_window_deflation_": ("partial_window_deflation", classes.boolean),
    "newreno_changes1_": ("first_partial_timer_only", classes.boolean),
    "exit_recovery_fix_": ("exit_recovery_fix", classes.boolean),
    # The timestamp option (RTT samples from echoed timestamps, 10 more header bytes).
    "timestamps_": ("timestamps", classes.boolean),
    "ts_option_size_": ("ts_option_size", lambda v: int(float(v))),
    "ts_resetRTO_": ("ts_reset_rto", classes.boolean),
    "timerfix_": ("timer_fix", classes.boolean),
    # ECN (RFC 3168 as ns-2 models it; not for Vegas, refused below).
    "ecn_": ("ecn", classes.boolean),
    "old_ecn_": ("old_ecn", classes.boolean),
    "slow_start_restart_": ("slow_start_restart", classes.boolean),
    # Giving up after this many SYNs (TcpAgent::output; FullTcp never reads it).
    "max_connects_": ("max_connects", lambda v: int(float(v))),
    # ns-2 Agent/TCP's quiescence option, its RTT counter, and the window opened only while
    # it limits the sender (refused for the other classes: TCP_UNMODELLED).
    "QOption_": ("qoption", lambda v: float(v) != 0),
    "EnblRTTCtr_": ("rtt_counter", lambda v: float(v) != 0),
    "control_increase_": ("control_increase", lambda v: float(v) != 0),
    # ns-2's RTT estimator gains and RTO weight (rtt_update).
    "T_SRTT_BITS": ("srtt_bits", lambda v: int(float(v))),
    "T_RTTVAR_BITS": ("rttvar_bits", lambda v: int(float(v))),
    "rttvar_exp_": ("rttvar_exp", lambda v: int(float(v))),
}

#: TCP sender and sink variables whose ns-2.35 default is the only behaviour ternsim
#: models: var -> (the default, what another value changes). A flow whose agent holds
#: another value is refused (`updated_rttvar_` is bound in ns-2.35 but read nowhere, so any
#: value is accepted).
TCP_UNMODELLED: dict[str, tuple[str, str]] = {
    "SetCWRonRetransmit_": ("true", "no CWR on a retransmission"),
    "ecn_syn_": ("false", "ECN-capable SYN/ACKs"),
    "QOption_": ("0", "the quiescence option, modelled for Agent/TCP only"),
    "control_increase_": (
        "0",
        "increase limited by the sending rate, for Agent/TCP, /Reno, /Newreno, /Sack1 only",
    ),
    "EnblRTTCtr_": ("0", "the quiescence option's RTT counter, for Agent/TCP only"),
    "windowInitOption_": ("1", "an initial window chosen from the segment size"),
    "numdupacksFrac_": ("-1", "a duplicate-ACK threshold from the window"),
    "restart_bugfix_": ("true", "the old idle restart"),
    "aggressive_maxburst_": ("1", "maxburst on invalid ACKs"),
    "overhead_": ("0", "random send overhead"),
    "frto_enabled_": ("0", "F-RTO"),
    "sfrto_enabled_": ("0", "SACK F-RTO"),
    "decrease_num_": ("0.5", "another decrease factor"),
    "increase_num_": ("1.0", "another increase per RTT"),
    "windowOption_": ("1", "another congestion-avoidance increase rule"),
    "max_ssthresh_": ("0", "limited slow start"),
    "newreno_changes_": ("0", "NewReno's ssthresh estimate"),
    "srtt_init_": ("0", "another initial srtt"),
    "rttvar_init_": ("12", "another initial rttvar"),
    "generateDSacks_": ("false", "D-SACK blocks"),
}


#: The agents whose send loop is TcpAgent::send_much, with its `overhead_` delay.
_OVERHEAD_AGENTS = ("Agent/TCP", "Agent/TCP/Reno", "Agent/TCP/Newreno")

#: The agents whose window is TcpAgent::opencwnd and slowdown as ternsim models them with
#: ns-2's general AIMD and binomial parameters.
_AIMD_AGENTS = ("Agent/TCP", "Agent/TCP/Reno", "Agent/TCP/Newreno", "Agent/TCP/Sack1")

#: Variables of TCP_UNMODELLED that ternsim models for ns-2's Agent/TCP (Tahoe) alone.
_TAHOE_ONLY = ("QOption_", "control_increase_", "EnblRTTCtr_")


def _same_value(a: str, b: str) -> bool:
    """Whether two values of a bound variable are the same (numbers and booleans as ns-2
    reads them)."""
    try:
        return float(a) == float(b)
    except ValueError:
        pass
    try:
        return classes.boolean(a) == classes.boolean(b)
    except ValueError:
        return a == b


def unmodelled_value(base: str, var: str, value: str) -> str | None:
    """The refusal of ``value`` for ``var`` of a TCP agent of class ``base``, when ternsim
    models only ns-2.35's default of it (``TCP_UNMODELLED``), or None."""
    default, what = TCP_UNMODELLED[var]
    if _same_value(value, default):
        return None
    if var == "numdupacksFrac_" and base == "Agent/TCP/Sack1" and not _same_value(value, "0"):
        # Sack1's duplicate-ACK threshold from the window (TCP_OPTIONS `dupack_frac`).
        return None
    if var == "ecn_syn_" and classes.is_a(base, "Agent/TCPSink"):
        # The sink's ECN-capable answer to the ECN setup (SINK_OPTIONS).
        return None
    if var in _TAHOE_ONLY and base == "Agent/TCP":
        # ns-2 Agent/TCP's quiescence option and its companions (TCP_OPTIONS).
        return None
    if var == "control_increase_" and base in (
        "Agent/TCP/Reno",
        "Agent/TCP/Newreno",
        "Agent/TCP/Sack1",
    ):
        # Read in `recv_newack_helper`, which these share with Agent/TCP.
        return None
    if var in ("decrease_num_", "increase_num_") and base in _AIMD_AGENTS:
        # TCP_OPTIONS `decrease_num`, `increase_num` (validated by the scenario: > 0).
        return None
    if var == "windowOption_" and base in _AIMD_AGENTS and _same_value(value, "6"):
        # Binomial controls (TCP_OPTIONS `window_option`); ns-2's other rules are refused.
        return None
    if var == "overhead_" and base in _OVERHEAD_AGENTS:
        # TcpAgent::send_much's delayed-send timer (TCP_OPTIONS `overhead`).
        return None
    if var == "windowInitOption_" and _same_value(value, "2"):
        # The initial window from the segment size (TCP_OPTIONS; FULL_TCP_SHARED).
        return None
    also = ""
    if var in ("decrease_num_", "increase_num_"):
        also = "; another value for Agent/TCP, /Reno, /Newreno and /Sack1"
    elif var == "windowOption_":
        also = " and 6 (binomial controls) for Agent/TCP, /Reno, /Newreno and /Sack1"
    return (
        f"{base} {var} {value} ({what}): not supported; "
        f"supported: {var} {default} (ns-2.35's default){also}"
    )


def unmodelled_setting(o: Any, agent: Obj) -> str | None:
    """The first variable of ``agent`` (a TCP sender or sink) holding a value ternsim does
    not model, as a refusal message, or None."""
    for var in TCP_UNMODELLED:
        if o.hasvar(agent, var):
            message = unmodelled_value(o.builtin_base(agent.cls), var, o.getvar(agent, var))
            if message is not None:
                return message
    return None


#: Written into every flow's options, whatever their value, so the scenario says them.
TCP_ALWAYS = ("packetSize_", "tcpip_base_hdr_size_", "window_")

#: Sink variable -> (TCP option, conversion).
SINK_OPTIONS: dict[str, tuple[str, Any]] = {
    "interval_": ("delack_interval", lambda v: f"{classes.seconds(v)!r}s"),
    "maxSackBlocks_": ("sack_blocks", lambda v: int(float(v))),
    "SYN_immediate_ack_": ("syn_immediate_ack", classes.boolean),
    "RFC2581_immediate_ack_": ("gap_immediate_ack", classes.boolean),
    "ts_echo_bugfix_": ("ts_echo_bugfix", classes.boolean),
    "ts_echo_rfc1323_": ("ts_echo_rfc1323", classes.boolean),
    "ecn_syn_": ("sink_ecn_syn", classes.boolean),
}

_APP_VARS = {
    "Application/Telnet": ("interval_",),
    "Application/Traffic/CBR": ("rate_", "packetSize_", "interval_", "random_", "maxpkts_"),
    "Application/Traffic/Exponential": ("rate_", "packetSize_", "burst_time_", "idle_time_"),
    "Application/Traffic/Pareto": (
        "rate_",
        "packetSize_",
        "burst_time_",
        "idle_time_",
        "shape_",
    ),
}


#: Queue/RED variables a script may set: those ternsim models (ECN's `setbit_` and `mark_p_`
#: among them), and those that change nothing in ns-2 with the supported values (adaptive
#: RED's and `cautious_`'s parameters,
#: `thresh_queue_`/`maxthresh_queue_`, which `reset()` overwrites, the victim choice
#: `drop_tail_`, `summarystats_`, the unbound `doubleq_`/`dqthresh_`). The state variables
#: (`ave_`, `curq_`, ...) are not settable.
RED_SETTABLE = {v for v in classes.DEFAULTS["Queue/RED"] if v not in classes.RED_STATE} | {"limit_"}

#: Queue/RED variables whose other values ternsim does not model: var -> (what the value
#: does, the supported values, test of a bound value).
_RED_UNSUPPORTED: dict[str, tuple[str, str, Any]] = {
    "adaptive_": ("adaptive RED", "adaptive_ 0", lambda v: v == "0"),
    "cautious_": ("cautious marking", "cautious_ 0", lambda v: v == "0"),
    "drop_front_": ("dropping from the front", "drop_front_ false", lambda v: v == "0"),
    "q_weight_": (
        "a weight below 0 other than ns-2's automatic -1 and -2",
        "q_weight_ > 0, or 0, -1, -2 (chosen from the link)",
        lambda v: float(v) >= 0 or float(v) in (-1.0, -2.0),
    ),
}


def red_refusal(var: str, value: str) -> str | None:
    """Why ternsim cannot run a Queue/RED with ``var`` at the bound ``value``, or None."""
    entry = _RED_UNSUPPORTED.get(var)
    if entry is None:
        return None
    what, supported, ok = entry
    try:
        fine = ok(value)
    except ValueError:
        fine = False
    if fine:
        return None
    return f"Queue/RED {var} {value} ({what}): not supported; supported: {supported}"


def _reverse_direction(link: Any) -> dict[str, str]:
    """The b -> a direction's rate and delay where they differ from a -> b's (two simplex
    links, or `$ns delay ... simplex`)."""
    out = {}
    if link.dir_rates[1] != link.dir_rates[0]:
        out["rate_b_to_a"] = f"{link.dir_rates[1]!r}bps"
    if link.dir_delays[1] != link.dir_delays[0]:
        out["delay_b_to_a"] = _secs(link.dir_delays[1])
    return out


def red_automatic(o: Any, queue: Obj, link: Any) -> None:
    """ns-2.35 `REDQueue::initialize_params`, run when a link gets its RED queue (`$q link`)
    and again when `$ns run` resets it: the values left at 0 (thresholds, weight) or at -1 /
    -2 (weight) are chosen from the link, and the queue keeps the chosen numbers (as ns-2,
    where `$q set q_weight_` then reads them). With ptc = bandwidth / (8 mean_pktsize_)
    packets per second: q_weight_ 0 -> 1 - exp(-1/ptc); -1 -> 1 - exp(-1/(10 rtt ptc)) with
    rtt = max(3 (delay + 1/ptc), 0.1 s); -2 -> 1 - exp(-10/ptc); thresh_ 0 -> max(5,
    targetdelay_ ptc / 2) packets; maxthresh_ 0 -> 3 thresh_."""
    import math

    def get(var: str) -> float:
        return float(o.getvar(queue, var))

    d = queue.info.get("direction", 0)
    ptc = link.dir_rates[d] / (8.0 * get("mean_pktsize_"))
    q_w = get("q_weight_")
    if q_w == 0.0:
        q_w = 1.0 - math.exp(-1.0 / ptc)
    elif q_w == -1.0:
        rtt = max(3.0 * (link.dir_delays[d] + 1.0 / ptc), 0.1)
        q_w = 1.0 - math.exp(-1.0 / (10.0 * rtt * ptc))
    elif q_w == -2.0:
        q_w = 1.0 - math.exp(-10.0 / ptc)
    th_min, th_max = get("thresh_"), get("maxthresh_")
    if th_min == 0.0:
        th_min = max(5.0, get("targetdelay_") * ptc / 2.0)
    if th_max == 0.0:
        th_max = 3.0 * th_min
    for var, value in (("q_weight_", q_w), ("thresh_", th_min), ("maxthresh_", th_max)):
        o.setvar(queue, var, format(value, ".17g"))


def red_queue(o: Any, queue: Obj, link: Any) -> dict[str, Any]:
    """The scenario's queue table for a Queue/RED at `$ns run` (after ns-2's reset)."""
    for var in _RED_UNSUPPORTED:
        message = red_refusal(var, o.getvar(queue, var))
        if message is not None:
            raise Refusal(message, where=link.where)
    red_automatic(o, queue, link)

    def num(var: str) -> float:
        return float(o.getvar(queue, var))

    def flag(var: str) -> bool:
        return classes.boolean(o.getvar(queue, var))

    th_min, th_max, q_w, linterm = (
        num("thresh_"),
        num("maxthresh_"),
        num("q_weight_"),
        num("linterm_"),
    )
    mean = int(num("mean_pktsize_"))
    for bad, message in (
        (not th_max >= th_min, f"maxthresh_ {th_max:g} below thresh_ {th_min:g}"),
        (not 0.0 < q_w <= 1.0, f"q_weight_ {q_w:g} outside (0, 1]"),
        (not linterm >= 1.0, f"linterm_ {linterm:g} below 1 (max_p = 1/linterm_)"),
        (not 1 <= mean <= 65535, f"mean_pktsize_ {mean} outside 1 to 65535 bytes"),
    ):
        if bad:
            raise Refusal(f"Queue/RED {message}: not supported", where=link.where)
    # ECN marking (`setbit_`, with `mark_p_`): written only when on, so that a scenario
    # without ECN reads as before.
    extra = {"setbit": True, "mark_p": num("mark_p_")} if flag("setbit_") else {}
    # A forced drop's victim drawn from the queue (`drop_rand_`), and ns-1's count after a
    # forced drop (`ns1_compat_`): likewise written only when on.
    extra |= {"drop_random": True} if flag("drop_rand_") else {}
    extra |= {"ns1_compat": True} if flag("ns1_compat_") else {}
    return {
        "kind": "red",
        "limit": int(num("limit_")),
        "min_thresh": th_min,
        "max_thresh": th_max,
        "q_weight": q_w,
        "linterm": linterm,
        "gentle": flag("gentle_"),
        "wait": flag("wait_"),
        "bytes": flag("bytes_"),
        "queue_in_bytes": flag("queue_in_bytes_"),
        "mean_packet_size": f"{mean}B",
        "use_mark_p": flag("use_mark_p_"),
        **extra,
    }


def telnet_interval(app: Obj, o: Any) -> float:
    """A Telnet application's `interval_` in seconds, refused when 0 (ns-2 then draws its
    gaps from tcplib's telnet distribution, `tcp/tcplib-telnet.cc`, which ternsim does not
    model)."""
    text = o.getvar(app, "interval_")
    try:
        interval = classes.seconds(text)
    except ValueError:
        raise Refusal(f"Application/Telnet interval_ {text}: not a time") from None
    if not interval > 0:
        raise Refusal(
            f"Application/Telnet interval_ {text} (gaps from tcplib's telnet distribution): "
            "not supported; supported: interval_ > 0 (exponential gaps of that mean)"
        )
    return interval


def settable(base: str) -> set[str]:
    """The variables a script may set on an object of ns-2 class ``base``."""
    if base == "Queue/RED":
        return set(RED_SETTABLE)
    if classes.is_a(base, "ErrorModel") or classes.is_a(base, "RandomVariable"):
        return set(classes.class_defaults(base, {}))
    if base == "Queue/SFQ":
        return {"limit_", "maxqueue_", "buckets_"}
    if classes.is_a(base, "Queue"):
        return {"limit_"}
    out = {"fid_", "class_"} if classes.is_a(base, "Agent") else set()
    if classes.is_a(base, "Agent/TCP/FullTcp"):
        out |= {v for v in TCP_OPTIONS if not v.startswith("v_")}
        out |= set(TCP_UNMODELLED) | set(FULL_TCP_OPTIONS) | set(FULL_TCP_UNMODELLED)
        # `close_on_empty_` changes nothing: ns-2's reset at `$ns run` clears it (only
        # `sendmsg ... MSG_EOF` sets it for good).
        out |= {"interval_", "ts_option_size_", "debug_", "close_on_empty_"}
    elif classes.is_a(base, "Agent/TCP"):
        out |= {v for v in TCP_OPTIONS if not v.startswith("v_") or base == "Agent/TCP/Vegas"}
        # Settable to their ns-2.35 default only: another value is refused before the run.
        out |= set(TCP_UNMODELLED)
    elif classes.is_a(base, "Agent/TCPSink"):
        if base.endswith("DelAck"):
            out.add("interval_")
        # Read from the sink object when the flow is built (SINK_OPTIONS).
        out |= {"SYN_immediate_ack_", "RFC2581_immediate_ack_", "ecn_syn_"}
        if "Sack1" in base:
            out.add("maxSackBlocks_")
    elif base in ("Agent/UDP", "Agent/Ping"):
        out.add("packetSize_")
    elif base == "Agent/MIPMH":
        out |= {"home_agent_", "reg_rtx_", "reg_lifetime_"}
    elif base == "Agent/MIPBS":
        out.add("ad_lifetime_")
    out |= set(_APP_VARS.get(base, ()))
    return out


def dv_routing(o: Any) -> dict[str, Any]:
    """`$ns rtproto DV`'s `[routing]` table, with the script's `Agent/rtProto/DV set`
    values over ns-2's defaults (`advertInterval`, `INFINITY`; others only at their
    default)."""
    sets = o.class_sets.get("Agent/rtProto/DV", {})
    defaults = classes.DEFAULTS["Agent/rtProto/DV"]
    for var, value in sets.items():
        if var in ("advertInterval", "INFINITY", "mid_"):
            continue
        if var not in defaults or not _same_value(value, defaults[var]):
            raise Refusal(
                f"Agent/rtProto/DV set {var} {value}: not supported; settable: advertInterval, "
                "INFINITY"
            )
    out: dict[str, Any] = {"protocol": "dv"}
    if "advertInterval" in sets:
        try:
            interval = float(sets["advertInterval"])
        except ValueError:
            raise Refusal(
                f"Agent/rtProto/DV set advertInterval {sets['advertInterval']}: "
                "give a number of seconds"
            ) from None
        out["advert_interval"] = _secs(interval)
    if "INFINITY" in sets:
        try:
            out["infinity"] = int(sets["INFINITY"])
        except ValueError:
            raise Refusal(
                f"Agent/rtProto/DV set INFINITY {sets['INFINITY']}: give an integer"
            ) from None
    return out


def _secs(x: float) -> str:
    return f"{x!r}s"


def _core_time(x: float) -> float:
    """The time the core runs an event given as ``x`` seconds: its nanosecond."""
    return round(x * 1e9) / 1e9


#: An old-format wireless trace line, up to the ports of its IP part.
_WIRELESS = re.compile(
    r"^[srfD] (?P<time>\S+) _(?P<node>-?\d+)_ (?P<layer>\S+)\s+\S+ \S+ (?P<kind>\S+) .*?------- "
    r"(?P<ip>\[(?P<src>-?\d+):(?P<sport>\d+) (?P<dst>-?\d+):(?P<dport>\d+))"
)

#: How ns-2 prints the broadcast address in a hierarchical script's wireless trace.
_HIER_BROADCAST = 2147483647

#: The rest of a wireless line's IP part after the ports: its TTL and next hop.
_TTL_NEXT_HOP = re.compile(r"^ (?P<ttl>\d+) (?P<hop>-?\d+)\]")

#: A MAC line without an IP part: an RTS, CTS or ACK, or an ARP frame.
_WIRELESS_MAC = re.compile(r"^[srfD] (?P<time>\S+) _(?P<node>-?\d+)_ MAC ")

#: An old-format wireless line with the core's `` |NT next_hop x y flow`` suffix (written
#: under `$ns use-newtrace`): the fields ns-2's new format prints.
_OLD_WITH_NT = re.compile(
    r"^(?P<ev>[srfD]) (?P<time>\S+) _(?P<node>-?\d+)_ (?P<layer>\S+)\s+(?P<why>\S+) "
    r"(?P<uid>\S+) (?P<kind>\S+) (?P<size>\S+) \[(?P<dur>\S+) (?P<ra>\S+) (?P<ta>\S+) "
    r"(?P<type>\S+)\]\s*(?P<rest>.*?)\s*\|NT (?P<hop>\S+) (?P<x>\S+) (?P<y>\S+) (?P<flow>\S+)$"
)
_OLD_IP = re.compile(
    r"^------- \[(?P<src>-?\d+):(?P<sport>\d+) (?P<dst>-?\d+):(?P<dport>\d+) (?P<ttl>\d+) "
    r"-?\d+\]\s*(?P<proto>.*)$"
)
_OLD_ARP = re.compile(r"^------- \[(?P<op>\S+) (\d+)/(\d+) (\d+)/(\d+)\]$")
_OLD_TCP = re.compile(r"^\[(?P<seq>-?\d+) (?P<ack>-?\d+)\] (?P<nf>\d+) (?P<onf>\d+)$")
_OLD_RTP = re.compile(r"^\[(?P<seq>-?\d+)\] (?P<nf>\d+) (?P<onf>\d+)$")
#: AODV's route request (`format_aodv`): type, hop count, broadcast id, destination and its
#: sequence number, source and its sequence number.
_OLD_AODV_RREQ = re.compile(
    r"^\[(?P<t>0x[0-9a-f]+) (?P<h>-?\d+) (?P<b>-?\d+) \[(?P<d>-?\d+) (?P<ds>-?\d+)\] "
    r"\[(?P<s>-?\d+) (?P<ss>-?\d+)\]\] \(REQUEST\)$"
)
#: AODV's reply, error and hello: type, hop count, destination and its sequence number,
#: lifetime, kind.
_OLD_AODV_REPLY = re.compile(
    r"^\[(?P<t>0x[0-9a-f]+) (?P<h>-?\d+) \[(?P<d>-?\d+) (?P<ds>-?\d+)\] (?P<l>\S+)\] "
    r"\((?P<c>REPLY|ERROR|HELLO)\)$"
)
#: DSR's source-route header (`format_dsr`): addresses, [request, its sequence number],
#: [reply, the request's sequence number, route length, first->last], [error, errors,
#: who is told, from->to].
_OLD_DSR = re.compile(
    r"^(?P<h>-?\d+) \[(?P<q>-?\d+) (?P<s>-?\d+)\] "
    r"\[(?P<p>-?\d+) (?P<n>-?\d+) (?P<l>-?\d+) (?P<e>-?\d+->-?\d+)\] "
    r"\[(?P<w>-?\d+) (?P<m>-?\d+) (?P<c>-?\d+) (?P<b>-?\d+->-?\d+)\]$"
)


def _newtrace_routing(kind: str, proto: str) -> str | None:
    """An AODV or DSR message's own part in the new format (`format_aodv`, `format_dsr` with
    `newtrace_`), from the old format's; None for any other packet."""
    if kind == "AODV":
        rq = _OLD_AODV_RREQ.match(proto)
        if rq is not None:
            return (
                f"-P aodv -Pt {rq['t']} -Ph {rq['h']} -Pb {rq['b']} -Pd {rq['d']} "
                f"-Pds {rq['ds']} -Ps {rq['s']} -Pss {rq['ss']} -Pc REQUEST "
            )
        rp = _OLD_AODV_REPLY.match(proto)
        if rp is not None:
            return (
                f"-P aodv -Pt {rp['t']} -Ph {rp['h']} -Pd {rp['d']} -Pds {rp['ds']} "
                f"-Pl {rp['l']} -Pc {rp['c']} "
            )
    elif kind == "DSR":
        d = _OLD_DSR.match(proto)
        if d is not None:
            return (
                f"-P dsr -Ph {d['h']} -Pq {d['q']} -Ps {d['s']} -Pp {d['p']} -Pn {d['n']} "
                f"-Pl {d['l']} -Pe {d['e']} -Pw {d['w']} -Pm {d['m']} -Pc {d['c']} "
                f"-Pb {d['b']} "
            )
    return None


def _newtrace_line(line: str, flow_fid: list[str]) -> str:
    """One old-format wireless line (with the core's `` |NT`` suffix) in ns-2's new format
    (`CMUTrace::format_mac_common`, `format_mac`, `format_ip`, `format_arp`, `format_tcp`,
    `format_rtp`, `format_aodv`, `format_dsr` with `newtrace_`, trace/cmu-trace.cc): `d` for
    a drop, the node's position,
    energy -1 (no energy model), the packet's next hop as it is, the flow id; each field
    followed by a space, as ns-2's sprintf leaves it."""
    m = _OLD_WITH_NT.match(line)
    if m is None:
        raise ValueError(f"not a wireless trace line with new-format fields: {line!r}")
    ev = "d" if m["ev"] == "D" else m["ev"]
    out = (
        f"{ev} -t {m['time']} -Hs {m['node']} -Hd {m['hop']} -Ni {m['node']} -Nx {m['x']} "
        f"-Ny {m['y']} -Nz 0.00 -Ne -1.000000 -Nl {m['layer']:>3} -Nw {m['why']} "
        f"-Ma {m['dur']} -Md {m['ra']} -Ms {m['ta']} -Mt {m['type']} "
    )
    rest = m["rest"].strip()
    if not rest:
        return out  # an RTS, CTS or ACK: the MAC part only
    arp = _OLD_ARP.match(rest)
    if arp is not None:
        sha, spa, tha, tpa = arp.group(2, 3, 4, 5)
        return out + f"-P arp -Po {arp['op']} -Pms {sha} -Ps {spa} -Pmd {tha} -Pd {tpa} "
    ip = _OLD_IP.match(rest)
    if ip is None:
        raise ValueError(f"not a wireless IP part: {rest!r}")
    flow = int(m["flow"])
    fid = flow_fid[flow] if 0 <= flow < len(flow_fid) else "0"
    out += (
        f"-Is {ip['src']}.{ip['sport']} -Id {ip['dst']}.{ip['dport']} -It {m['kind']} "
        f"-Il {m['size']} -If {fid} -Ii {m['uid']} -Iv {ip['ttl']} "
    )
    proto = ip["proto"].strip()
    tcp = _OLD_TCP.match(proto)
    if tcp is not None and m["kind"] in ("tcp", "ack"):
        return out + f"-Pn tcp -Ps {tcp['seq']} -Pa {tcp['ack']} -Pf {tcp['nf']} -Po {tcp['onf']} "
    rtp = _OLD_RTP.match(proto)
    if rtp is not None and m["kind"] == "cbr":
        return out + f"-Pn cbr -Pi {rtp['seq']} -Pf {rtp['nf']} -Po {rtp['onf']} "
    routing = _newtrace_routing(m["kind"], proto)
    if routing is not None:
        return out + routing
    if proto:
        raise ValueError(f"a protocol part the new format does not print here: {proto!r}")
    return out


#: A DSR agent's log line (``SFs``, ``SFf``, ``SSendFailure``, ``Ssalv``, ``Ssb``,
#: ``Sconfig``, ...): its time, and its node (``Sconfig`` names none).
_DSR_LOG = re.compile(r"^S\S* (?P<time>\d+\.(?P<decimals>\d+)) (?:_(?P<node>\d+)_ )?")

#: The IP addresses and ports of a ``SSendFailure`` line, after the uid and packet type.
_DSR_SEND_FAILURE = re.compile(
    r"^SSendFailure \S+ _\d+_ \d+ (?P<ptype>\d+) "
    r"(?P<ip>(?P<src>-?\d+):(?P<sport>\d+) (?P<dst>-?\d+):(?P<dport>\d+))"
)

#: ns-2.35's numbers of the flows' packet types (``common/packet.h``).
_FLOW_PTYPES = {0, 1, 2, 5, 28, 29, 44}

#: The first two characters of a wired trace line (``+ 0.1 0 1 tcp ...``).
_WIRED_EVENTS = {"+ ", "- ", "r ", "d "}

#: Packet types of the flows' agents (the others are routing messages).
_FLOW_TYPES = {"tcp", "ack", "cbr", "exp", "pareto", "udp", "ping"}
_RT_PORT = 255
#: The core's port for Mobile IP messages (`crates/ternsim-core/src/mobileip/mod.rs`
#: `MIP_PORT`): ns-2's registration agents sit on port 0 (`REGAGENT_PORT`) and send `udp`.
_MIP_CORE_PORT = "434"

_FLOW_NAME = re.compile(r"^[A-Za-z0-9_.-]+$")


def _variable_names(tcl: Any, handles: set[str]) -> dict[str, str]:
    """For each handle, the global variable holding it: scalars first, then array elements
    (`cbr_(0)` is `cbr_0`), each in name order; handles held by none are left out."""
    names: dict[str, str] = {}
    scalars, arrays = [], []
    for var in tcl.splitlist(tcl.eval("info globals")):
        if var.startswith("ns2v_") or var in ("env", "tcl_platform"):
            continue
        exists = str(tcl.call("array", "exists", f"::{var}")) == "1"
        (arrays if exists else scalars).append(var)
    for var in sorted(scalars):
        try:
            value = str(tcl.globalgetvar(var))
        except Exception:  # a variable declared with `global` but never set
            continue
        if value in handles and _FLOW_NAME.match(var):
            names.setdefault(value, var)
    for var in sorted(arrays):
        pairs = [str(x) for x in tcl.splitlist(tcl.call("array", "get", f"::{var}"))]
        for key, value in sorted(zip(pairs[::2], pairs[1::2])):
            name = f"{var}{key}"
            if value in handles and _FLOW_NAME.match(name):
                names.setdefault(value, name)
    return names


def boot_times(model: Model, full_starts: list[str] | None = None) -> dict[str, float]:
    """Each attached TCP agent's ``boot_time_`` as ns-2.35 draws it, in seconds.

    ``boot_time_`` (the agent's phase against the ``tcpTick_`` clock, which sets how each RTT
    sample is rounded to ticks) is ``Random::uniform(tcpTick_)`` from ns-2's default RNG, drawn
    whenever the agent is reset: once when it is created (Vegas twice; counted in
    ``model.rng_draws``), then again by ``$ns run``, which resets every node's agents, nodes
    in the order Tcl's ``array names Node_`` lists them and each node's agents in the order
    they were attached. The last draw is the one the run uses. Tcl 8.6 lists an array in the
    order of its hash table, which this interpreter (Tcl 8.6, as ns-2.35 links) reproduces.

    A FullTcp active opener is reset once more when its application starts (ns-2
    `advance_bytes` in state CLOSED): ``full_starts`` names them in the order they start,
    each drawing after everything before the run.
    """
    from .._native import core

    if model.default_rng_seed is None or any(n.info.get("mobile") for n in model.nodes):
        # ns-2 seeded from the clock, or a wireless script, whose set-up draws more numbers
        # than agents do: the phase stays ternsim's own draw.
        return {}
    tcl = model.o.tcl
    tcl.eval("array unset ::ns2::Node_")
    for n in model.nodes:
        tcl.eval(f"set ::ns2::Node_({n.info['id']}) {{}}")
    order = [int(i) for i in tcl.splitlist(tcl.eval("array names ::ns2::Node_"))]
    tcl.eval("array unset ::ns2::Node_")
    attached: dict[int, list[Obj]] = {}
    for agent in model.agents:
        if agent.info["node"] is not None:
            attached.setdefault(agent.info["node"].info["id"], []).append(agent)
    draw = model.rng_draws
    index: dict[str, int] = {}
    for node_id in order:
        for agent in sorted(attached.get(node_id, []), key=lambda a: a.info["port"]):
            if classes.is_a(model.o.builtin_base(agent.cls), "Agent/TCP"):
                index[agent.name] = draw
                draw += 1
    for name in full_starts or []:
        index[name] = draw
        draw += 1
    uniforms = core().ns2_uniforms(model.default_rng_seed, draw) if index else []
    out = {}
    for name, i in index.items():
        tick = classes.seconds(model.o.getvar(model.o.objects[name], "tcpTick_"))
        # The phase is kept in whole nanoseconds below the tick.
        out[name] = min(tick * uniforms[i], tick - 1e-9)
    return out


#: The bytes of an ACK without SACK blocks (ternsim's sinks, as ns-2's TCPSink packetSize_).
_ACK_BYTES = 40


class Translation:
    """The scenario built from a model, and how its flows map back to the script's agents."""

    def __init__(
        self, model: Model, actions: list[tuple[float, Obj, str, tuple]], end: float
    ) -> None:
        self.model = model
        o = model.o
        self.flows: list[dict[str, Any]] = []
        #: The starts and stops of applications switched on and off more than once, as
        #: scenario events (`[[events]]` on a flow).
        self.flow_events: list[dict[str, Any]] = []
        #: ns-2 fid_ of each flow, for the `-If` of new-format wireless lines (`written_line`).
        self._flow_fids: list[str] | None = None
        self._nam_dir_set: set[tuple[str, str]] | None = None
        #: Per ternsim flow index: (sender agent, receiver agent).
        self.ends: list[tuple[Obj, Obj]] = []
        #: A wireless script: every node is a mobile node (all or none, simulator.py checks).
        self.wireless = any(n.info["mobile"] for n in model.nodes)
        #: ns-2's boot_time_ of each TCP sender (wired scripts), by agent handle.
        #: The FullTcp ends' actions in schedule order: (time, agent, what, args).
        self._full_actions: list[tuple[float, Obj, str, tuple]] = []
        #: When each FullTcp opener first sends (ns-2 draws its boot_time_ again then).
        self._full_start_times: list[float] = []
        #: When the first application (any) starts.
        self._first_start = min((t for t, _, _, _ in actions), default=float("inf"))
        full_starts = []
        for t, obj, what, args in actions:
            agent = obj.info.get("agent") if "agent" in obj.info else obj
            if agent is None or o.builtin_base(agent.cls) not in FULL_VARIANTS:
                continue
            self._full_actions.append((t, obj, what, args))
            # The opener's first send resets it (advance_bytes in CLOSED): a boot_time_ draw.
            sends = what in (
                "start",
                "produce",
                "advance",
                "advanceby",
                "advance-bytes",
                "sendmsg",
                "send",
            )
            if sends and not agent.info.get("listen") and agent.name not in full_starts:
                full_starts.append(agent.name)
                self._full_start_times.append(t)
        self.boot_times = boot_times(model, full_starts)
        self._flow_names = _variable_names(o.tcl, {a.name for _, a, _, _ in actions})
        times: dict[str, list[tuple[float, str, tuple]]] = {}
        for t, app, what, args in actions:
            if t < end or (t == end and what == "start"):
                times.setdefault(app.name, []).append((t, what, args))
        for agent in model.agents:
            base = o.builtin_base(agent.cls)
            if base == "Agent/Ping":
                # One flow per connected pair, its source the agent connected first.
                if agent.info["peer"] is not None and not any(
                    agent is answer for _, answer in self.ends
                ):
                    self.flows.append(self._ping_flow(agent))
                    self.ends.append((agent, agent.info["peer"]))
                continue
            if base in FULL_VARIANTS:
                if agent.info.get("listen") or any(agent is far for _, far in self.ends):
                    continue  # the far end: its flow is its peer's
                source = agent.info["app"] or agent
                flow = self._full_flow(agent, source, end)
                self.flows.append(flow)
                self.ends.append((agent, agent.info["peer"]))
                continue
            if base not in TCP_VARIANTS and base != "Agent/UDP":
                continue
            # `$tcp advance N` without an application: the agent is its own source.
            source = agent.info["app"] or agent
            if not any(what != "stop" for _, what, _ in times.get(source.name, [])):
                # No `$ns at` starts it before the run; a callback may (`$app start` in a
                # proc): a flow that waits to be started, if ternsim can carry it.
                if source is agent or agent.info["node"] is None or agent.info["peer"] is None:
                    continue
                try:
                    flow = self._flow(agent, source, [], end)
                except Refusal:
                    continue
                flow["autostart"] = False
            else:
                flow = self._flow(agent, source, times[source.name], end)
            self.flows.append(flow)
            self.ends.append((agent, agent.info["peer"]))
        self._start_in_script_order(actions)
        in_flows = {a.name for pair in self.ends for a in pair if a is not None}
        for _, obj, what, _ in self._full_actions:
            agent = obj.info.get("agent") if "agent" in obj.info else obj
            if agent.name not in in_flows:
                raise Refusal(
                    f"{obj.name} {what}: its FullTcp agent has no connection ternsim can open "
                    "(both ends listen, or it is not connected); supported: the agent that "
                    "sends first does not listen"
                )
        for link in model.links:
            if link.missing is not None:
                a, b = link.a.info["id"], link.b.info["id"]
                raise Refusal(
                    f"simplex-link {a} -> {b} without a simplex-link {b} -> {a}: not "
                    "supported; ternsim's links carry both directions (make the way back with "
                    "its own simplex-link, or use duplex-link)",
                    where=link.where,
                )
        self.scenario = {
            "name": "ns2-script",
            "duration": _secs(end),
            # A script without nodes (ns-2 runs its callbacks and nothing else) gets one
            # node on its own, which sends nothing: a scenario has at least one node.
            "nodes": [{"name": str(n.info["id"])} for n in model.nodes] or [{"name": "none"}],
            "links": [
                {
                    "name": f"{link.a.info['id']}-{link.b.info['id']}",
                    "a": self.node_name(link.a),
                    "b": self.node_name(link.b),
                    "rate": f"{link.dir_rates[0]!r}bps",
                    "delay": _secs(link.dir_delays[0]),
                    **_reverse_direction(link),
                    "queue_a_to_b": self._queue(link, 0),
                    "queue_b_to_a": self._queue(link, 1),
                    **_avoid_reordering(link),
                }
                for link in model.links
            ],
            "flows": self.flows,
        }
        model.queue_monitors.check()
        #: Per ternsim flow: whether its sender writes ns-2's event trace (`E` lines).
        self.event_traced = [bool(sender.info.get("event_channel")) for sender, _ in self.ends]
        self._check_event_trace()
        fids = [o.getvar(sender, "fid_") for sender, _ in self.ends]
        for spec, link in zip(self.scenario["links"], model.links):
            for d, key in enumerate(("drop_stages_a_to_b", "drop_stages_b_to_a")):
                stages = errmodel.stages(o, link, d, self.flows, fids, self._replay(end))
                if stages:
                    spec[key] = stages
        # The rtModels' events before the end, as ns-2's rtQueue runs them.
        model.schedule_link_events(end)
        #: The rtModels' link events inside the run, in time order, not yet written to the
        #: trace: (time in the core, op, link, directions, ns-2's time). The core runs an
        #: event at its nanosecond, where ns-2's double may lie just before it (a
        #: Deterministic model's 3.7999999999999998 s): the lines of the instant are found
        #: at the core's time, and the `v` lines print ns-2's.
        self.link_events = [
            (_core_time(t), op, link, ends, t)
            for t, _, op, link, ends in sorted(model.link_events, key=lambda e: e[:2])
        ]
        self.link_events = [e for e in self.link_events if e[0] < end]
        #: The same events, not yet written to the nam trace.
        self._nam_link_events = list(self.link_events)
        if model.dv_routing:
            self.scenario["routing"] = dv_routing(o)
        if self.link_events:
            if not model.dv_routing:
                # ns-2.35's static routes stay as computed; a node whose route leaves through
                # a downed link drops (no detour). Session routing recomputes them at once.
                self.scenario["routing"] = {"reroute": model.session_routing}
            events = sorted(model.link_events, key=lambda e: e[:2])
            self.scenario["events"] = [
                {"at": _secs(t), "action": op, "link": f"{link.a.info['id']}-{link.b.info['id']}"}
                for t, _, op, link, _ in events
                if t < end
            ]
            if model.dv_routing:
                for spec, (_, k, *_) in zip(self.scenario["events"], events):
                    spec["notify_order"] = list(model.link_event_notify[k])
        # `$node reset` (the CMU scripts' last act) flushes the node's interface queue: a
        # scenario event before the end; at the end itself (`$opt(stop).000000001` reads as
        # the stop time) done by the run as it pauses there, before that instant's callbacks.
        resets = [
            {"at": _secs(t), "action": "reset", "node": self.node_name(n)}
            for t, n in model.resets
            if t < end and n.info.get("mobile")
        ]
        #: Nodes reset at the end of the run.
        self.final_resets = [
            self.node_name(n) for t, n in model.resets if t == end and n.info.get("mobile")
        ]
        changes = self._link_changes(end)
        if self.flow_events or resets or changes:
            events = self.scenario.get("events", []) + changes + self.flow_events + resets
            # In time order, stable: at one instant the link events first.
            self.scenario["events"] = sorted(events, key=lambda e: float(e["at"][:-1]))
        #: Per traced direction of a link with events: the packets on its wire or in its
        #: pipe, uid -> the order their transmissions started (ns-2 drops a downed link's
        #: queue first, then these in that order).
        self._inflight: dict[tuple[str, str], dict[str, int]] = {}
        self._started = 0
        #: The same for the nam trace, kept as its lines are written: per direction of a
        #: link with events, uid -> the order its transmission started (a dropped packet's
        #: entry stays: it is never seen again).
        self._nam_sent: dict[tuple[str, str], dict[str, int]] = {}
        self._nam_count = 0
        if self.wireless:
            self._wireless_parts()

    @property
    def events(self) -> bool:
        """Whether the run must record the TCP senders' event-trace moments."""
        return any(self.event_traced)

    def _check_event_trace(self) -> None:
        """Refuses the event traces this front end does not write: into another channel
        than trace-all's, or in a wireless script."""
        for (sender, _), traced in zip(self.ends, self.event_traced):
            if not traced:
                continue
            if self.wireless:
                raise Refusal("eventtrace-all in a wireless script: not supported")
            if sender.info["event_channel"] != self.model.trace_channel:
                raise Refusal(
                    f"eventtrace-all {sender.info['event_channel']}: a channel other than "
                    "trace-all's is not supported; call it without a channel"
                )

    def _replay(self, end: float) -> Any:
        """How a rate error model's losses follow ns-2's own numbers, when they can: ns-2
        draws one number per packet from its default RNG (MRG32k3a, the script's seed), after
        the draws of the TCP agents' `boot_time_`. When that model is the only thing drawing
        from it during the run (one such model, unit pkt, uniform or no ranvar; no RED queue,
        no random CBR, Exponential or Pareto source, no draw by the script itself), its i-th
        packet meets draw k0 + i, and the packets it drops are known before the run: the model
        becomes a list of them. Otherwise None (ternsim's own stream; statistical agreement)."""
        model = self.model
        o = model.o
        drawing = self._drawing_error_models()
        if (
            len(drawing) != 1
            or not self._default_rng_replayable()
            or any(
                o.builtin_base(q.cls) == "Queue/RED" for link in model.links for q in link.queues
            )
        ):
            return None
        if self._drawing_sources() or self._overhead_agents():
            return None  # they draw from the same generator during the run
        if any(f.get("app", {}).get("kind") == "telnet" for f in self.flows):
            return None
        em = drawing[0]
        rv = em.info["ranvar"]
        if em.info["unit"] == "byte" or (
            rv is not None and o.builtin_base(rv.cls) != "RandomVariable/Uniform"
        ):
            return None
        from .._native import core

        k0 = self._draws_before_run()

        def replay(obj: Obj, point: str) -> list[int] | None:
            if obj is not em:
                return None
            # At most one packet per 20 octets of the links into the model's node (or of the
            # link itself after the delay) fits in the run: a bound on the model's draws.
            link, d = em.info["placed"][1], em.info["placed"][2]
            node = link.a if d == 0 else link.b
            if point == "arrival":
                bps = link.dir_rates[d]
            else:
                bps = sum(max(x.dir_rates) for x in model.links if node in (x.a, x.b))
            count = int(end * bps / 160.0) + 1000
            if count > 5_000_000:
                return None
            uniforms = core().ns2_uniforms(model.default_rng_seed, k0 + count)[k0:]
            return errmodel.replayed_drops(o, em, uniforms)

        return replay

    def _draws_before_run(self) -> int:
        """Draws ns-2 takes from its default RNG before the run: each TCP agent's
        `boot_time_` at creation (``rng_draws``) and again at `$ns run`."""
        o = self.model.o
        return self.model.rng_draws + sum(
            1
            for a in self.model.agents
            if a.info["node"] is not None and classes.is_a(o.builtin_base(a.cls), "Agent/TCP")
        )

    def default_rng_draws(self) -> tuple[int, int] | None:
        """(seed, draws to skip) when the draws ns-2 makes from its default RNG during the
        run can take ns-2's own numbers: one uniform per RED early test, one per Telnet gap,
        one per delayed send of a one-way TCP agent with `overhead_`
        (`Random::uniform(overhead_)`), one per gap of a random CBR source and two per burst
        of an Exponential or Pareto source, after the TCP agents' `boot_time_` draws. When
        these are the only things drawing from it during the run (a wired script, no drawing
        error model, no SFQ, no draw by the script itself), the core's RED queues, Telnet
        applications, senders and traffic sources share a copy of that generator and each
        draw meets ns-2's number, in run order: the run is ns-2's, drops and all. Otherwise
        None (ternsim's own stream per queue and flow; statistical agreement)."""
        model = self.model
        queues = [model.o.builtin_base(q.cls) for link in model.links for q in link.queues]
        telnets = any(f.get("app", {}).get("kind") == "telnet" for f in self.flows)
        drawing = telnets or self._overhead_agents() or self._drawing_sources()
        if (
            ("Queue/RED" not in queues and not drawing)
            or "Queue/SFQ" in queues
            or self._drawing_error_models()
            or not self._default_rng_replayable()
        ):
            return None
        # A FullTcp opener's start draws too (`advance_bytes` resets it): counted when every
        # such start comes at the first instant anything starts, before any other draw.
        starts = self._full_start_times
        if starts and max(starts) > self._first_start:
            return None
        return int(model.default_rng_seed), self._draws_before_run() + len(starts)

    def _overhead_agents(self) -> list[Obj]:
        """The attached one-way TCP agents with a random send overhead (`overhead_`), whose
        delayed sends draw from ns-2's default RNG during the run."""
        o = self.model.o
        return [
            a
            for a in self.model.agents
            if a.info["node"] is not None
            and o.builtin_base(a.cls) in TCP_VARIANTS
            and o.hasvar(a, "overhead_")
            and not _same_value(o.getvar(a, "overhead_"), "0")
        ]

    def _drawing_sources(self) -> list[dict]:
        """The UDP flows whose traffic source draws from ns-2's default RNG during the run:
        a CBR source with `random_` set, every Exponential and Pareto source."""
        return [
            f
            for f in self.flows
            if f.get("app", {}).get("kind") in ("exponential", "pareto")
            or f.get("app", {}).get("random")
        ]

    def _drawing_error_models(self) -> list[Obj]:
        """The error models of the links that draw from ns-2's default RNG."""
        o = self.model.o
        return [
            em
            for link in self.model.links
            for side in link.stages
            for _, obj in side
            for em in ([obj] if o.builtin_base(obj.cls) != "ErrorModule" else obj.info["models"])
            if errmodel.draws_default_rng(o, em)
        ]

    def _default_rng_replayable(self) -> bool:
        """Whether ns-2's default RNG can be replayed for the run at all: a wired script
        with a known seed and no draw by the script itself."""
        model = self.model
        return not (
            self.wireless or model.default_rng_seed is None or model.errors.default_rng_used
        )

    def node_name(self, node: Obj) -> str:
        """ns-2 node i is scenario node ``n<i>`` in a wireless script (the names a ternsim
        layout gives, and the names its random streams are drawn by), ``<i>`` in a wired one."""
        return f"n{node.info['id']}" if self.wireless else str(node.info["id"])

    def _wireless_parts(self) -> None:
        model = self.model
        assert model.radio is not None
        nodes = []
        for n in model.nodes:
            spec: dict[str, Any] = {"name": self.node_name(n)}
            if not n.info["mobile"]:
                nodes.append(spec)  # a wired node of a wired-cum-wireless script
                continue
            spec["position"] = [n.info["x"], n.info["y"]]
            moves = sorted(n.info["moves"], key=lambda m: (m.time, m.seq))
            n.info["moves"] = moves
            if moves:
                spec["moves"] = [
                    {"at": _secs(m.time), "to": [m.x, m.y], "speed": f"{m.speed!r}m/s"}
                    for m in moves
                ]
            nodes.append(spec)
        self.scenario["nodes"] = nodes
        self.scenario["wireless"] = dict(model.radio["wireless"])
        if model.newtrace and model.hierarchical:
            raise Refusal("use-newtrace with hierarchical addresses: not supported")
        if model.hierarchical and any(n.info.get("mip") for n in model.nodes):
            # Mobile IP over the 802.11 last hop, through DSDV on the agents and mobile hosts
            # as in ns-2; the wired side routes statically (ns-2's hierarchical routing;
            # ternsim.ns2.mobileip's module doc).
            self.scenario["mobile_ip"] = mobileip.section(model, self.node_name)
            self.scenario["routing"] = dict(model.radio["routing"])
        else:
            if model.hierarchical:
                # Base stations routing for their subnets' mobile nodes over DSDV, wired
                # nodes routing statically (ternsim.ns2.mobileip.base_stations).
                for spec, name in mobileip.base_stations(model, self.node_name):
                    nodes[spec]["base_station"] = name
            self.scenario["routing"] = dict(model.radio["routing"])

    def _queue(self, link: Any, d: int) -> int | dict[str, Any]:
        queue = link.queues[d]
        base = self.model.o.builtin_base(queue.cls)
        if base == "Queue/RED":
            return red_queue(self.model.o, queue, link)
        if base == "Queue/SFQ":
            # SFQ keeps its own limit (`maxqueue_`); ns-2's queue-limit sets `limit_`, which
            # it does not read.
            return {
                "kind": "sfq",
                "limit": int(float(self._var(queue, "maxqueue_"))),
                "buckets": int(float(self._var(queue, "buckets_"))),
            }
        return int(self._var(queue, "limit_"))

    def _var(self, obj: Obj, var: str) -> str:
        return self.model.o.getvar(obj, var)

    def _link_changes(self, end: float) -> list[dict[str, Any]]:
        """`$ns delay`, `$ns bandwidth`, `$ns queue-limit` and a DropTail queue's
        `shrink-queue` scheduled with `$ns at` before the end: `set` events of the link, one
        direction or both (`duplex`). As in ns-2 a new delay applies to the packets sent
        from then on (those on the wire keep their arrival, so a shorter delay can reorder),
        a new rate from the next transmission, a new limit to the next arrival;
        `shrink-queue` drops the packets waiting beyond the limit, from the tail."""
        model = self.model
        out = []
        #: Each drop-tail direction's limit as the changes go (for `shrink-queue`).
        limits: dict[int, int] = {}
        for t, _, what, args, where in sorted(model.link_changes, key=lambda c: c[:2]):
            if t >= end:
                continue
            if what == "shrink-queue":
                queue = model.o.objects[args[0]]
                link, d = queue.info["link"], queue.info["direction"]
            else:
                a, b = (model.o.objects[x] for x in args[:2])
                try:
                    link, d = model.find_link(a, b)
                except Refusal as exc:
                    raise Refusal(str(exc), where=where) from None
            if what in ("queue-limit", "shrink-queue"):
                queue = link.queues[d]
                if model.o.builtin_base(queue.cls) != "Queue/DropTail":
                    raise Refusal(
                        f"{what} during the run on a {model.o.builtin_base(queue.cls)} queue: "
                        "not supported; supported: on a DropTail queue",
                        where=where,
                    )
                limit = limits.get(id(queue), int(self._var(queue, "limit_")))
                if what == "queue-limit":
                    # Read as the `$ns at` script was accepted (C's atoi, `_actions`).
                    limit = limits[id(queue)] = _atoi(args[2])
                    value: dict[str, Any] = {"queue_limit": limit}
                else:
                    value = {"queue_limit": limit, "shrink": True}
                args = (*args[:3], "simplex")
            elif what == "delay":
                value = {"delay": _secs(classes.seconds(args[2]))}
            else:
                value = {"rate": f"{classes.bandwidth(args[2])!r}bps"}
            event = {
                "at": _secs(t),
                "action": "set",
                "link": f"{link.a.info['id']}-{link.b.info['id']}",
                **value,
            }
            if args[3:] != ("duplex",):
                event["direction"] = "a_to_b" if d == 0 else "b_to_a"
            out.append(event)
        return out

    def _start_in_script_order(self, actions: list[tuple[float, Obj, str, tuple]]) -> None:
        """ns-2 runs the `$ns at` scripts of one instant in the order the script scheduled
        them, so applications started at one time start in that order (their first packets
        take uids in it). The core starts the flows that start themselves at one instant in
        flow order; where the script's order differs, those flows start from scheduled
        events instead, listed in the script's order (test-suite-tcp-init-win.tcl starts
        its third agent's FTP first)."""
        rank: dict[str, int] = {}
        for k, (_, app, what, _) in enumerate(actions):
            if what != "stop":
                rank.setdefault(app.name, k)
        by_start: dict[str, list[tuple[int, dict]]] = {}
        for flow, (agent, _) in zip(self.flows, self.ends):
            source = agent.info.get("app") or agent
            if flow.get("autostart", True) and source.name in rank:
                by_start.setdefault(flow["start"], []).append((rank[source.name], flow))
        moved = []
        for group in by_start.values():
            ranks = [r for r, _ in group]
            if ranks != sorted(ranks):
                for _, flow in sorted(group, key=lambda rf: rf[0]):
                    flow["autostart"] = False
                    moved.append({"at": flow["start"], "action": "start", "flow": flow["name"]})
        self.flow_events[:0] = moved

    def _ping_flow(self, agent: Obj) -> dict:
        """The flow of a pair of connected ping agents: requests only where the script says
        `send` (live, in its callbacks)."""
        o = self.model.o
        peer = agent.info["peer"]
        if o.builtin_base(peer.cls) != "Agent/Ping":
            raise Refusal(
                f"Agent/Ping connected to {o.builtin_base(peer.cls)}: needs an Agent/Ping"
            )
        if agent.info["node"] is None or peer.info["node"] is None:
            raise Refusal(f"agent {agent.name} (Agent/Ping) is not attached and connected")
        if self.model.hierarchical:
            raise Refusal(
                "Agent/Ping with hierarchical addresses: not supported (its recv names the "
                "replier by a part of its address); supported: flat addresses"
            )
        size, reply = (int(float(self._var(a, "packetSize_"))) for a in (agent, peer))
        return {
            "name": agent.name,
            "src": self.node_name(agent.info["node"]),
            "dst": self.node_name(peer.info["node"]),
            "start": "0s",
            "transport": "ping",
            "app": {"kind": "ping", "packet_size": f"{size}B", "reply_size": f"{reply}B"},
        }

    def _flow(
        self, agent: Obj, app: Obj, times: list[tuple[float, str, tuple]], end: float
    ) -> dict:
        o = self.model.o
        base, app_base = o.builtin_base(agent.cls), o.builtin_base(app.cls)
        peer = agent.info["peer"]
        if agent.info["node"] is None or peer is None or peer.info["node"] is None:
            raise Refusal(f"agent {agent.name} ({base}) is not attached and connected")
        # The first start and the stop after it are the flow's; later starts and stops (an
        # application switched on and off) are scheduled events. A stop of an application
        # that is not running changes nothing, in ns-2 too.
        start, stop, running = None, None, False
        later: list[tuple[float, str, int | None]] = []
        for t, what, args in times:
            if what in ("produce", "producemore"):
                # ns-2's FTP `produce N` (`advance N`) and `producemore N` (`advanceby N`).
                # From a fresh agent (curseq_ 0, nothing sent) either one offers N packets: a
                # start with a finite transfer, or nothing at all when N is 0.
                n = args[0]
                if start is None:
                    if n > 0:
                        start, running = t, True
                        app.info["produce"] = n
                else:
                    later.append((t, what, n))
                    running = running or n > 0
                continue
            if what == "start" and running:
                raise Refusal(
                    f"{app_base} {app.name}: started again while running (at {t:g} s): not "
                    "supported (ns-2 fails on a CBR source's timer); supported: a start "
                    "after each stop"
                )
            if what == "start" and start is None:
                start, running = t, True
            elif what == "stop" and running and stop is None and not later:
                stop, running = t, False
            elif start is not None and (what == "start" or running):
                later.append((t, what, None))
                running = what == "start"
        name = agent.name
        if self.wireless:
            # Named after the script's variable holding the application (`ftp`, `cbr_(0)`
            # -> `cbr_0`), as a ternsim scenario or connection file names it.
            name = self._flow_names.get(app.name, app.name)
            if any(f["name"] == name for f in self.flows):
                name = app.name
        flow: dict[str, Any] = {
            "name": name,
            "src": self.node_name(agent.info["node"]),
            "dst": self.node_name(peer.info["node"]),
            "start": _secs(start or 0.0),
        }
        if stop is not None:
            flow["stop"] = _secs(stop)
        if start is None:
            # Nothing starts it before the run (a `produce` of no packets offers nothing):
            # a flow that waits to be started.
            flow["autostart"] = False
        for t, what, packets in later:
            event: dict[str, Any] = {"at": _secs(t), "action": what, "flow": name}
            if packets is not None:
                if base not in TCP_VARIANTS:
                    raise Refusal(f"{app_base} {what}: supported over the one-way TCP agents only")
                event["packets"] = packets
            self.flow_events.append(event)
        peer_base = o.builtin_base(peer.cls)
        if base in TCP_VARIANTS:
            if app is not agent and app_base not in ("Application/FTP", "Application/Telnet"):
                raise Refusal(
                    f"{app_base} over {base}: not supported; supported over TCP: "
                    "Application/FTP, Application/Telnet"
                )
            if app_base == "Application/Telnet":
                flow["app"] = {"kind": "telnet", "interval": _secs(telnet_interval(app, o))}
            if not classes.is_a(peer_base, "Agent/TCPSink"):
                raise Refusal(f"{base} connected to {peer_base}: needs an Agent/TCPSink")
            sack_sink = "Sack1" in peer_base
            if (base in SACK_AGENTS) != sack_sink:
                raise Refusal(
                    f"{base} with {peer_base}: not supported; Agent/TCP/Sack1, /Fack and "
                    "/SackRH pair with Agent/TCPSink/Sack1 (or /Sack1/DelAck), the other TCPs "
                    "with Agent/TCPSink (or /DelAck)"
                )
            for end in (agent, peer):
                why = unmodelled_setting(o, end)
                if why is not None:
                    raise Refusal(why)
            if base in (
                "Agent/TCP/Vegas",
                "Agent/TCP/Fack",
                "Agent/TCP/SackRH",
            ) and classes.boolean(self._var(agent, "ecn_")):
                raise Refusal(
                    f"{base} ecn_ 1 (ECN): not supported; ECN is supported for Agent/TCP, "
                    "/Reno, /Newreno and /Sack1"
                )
            if base == "Agent/TCP/Vegas" and not classes.boolean(
                self._var(agent, "slow_start_restart_")
            ):
                raise Refusal(
                    f"{base} slow_start_restart_ false: not supported; supported for "
                    "Agent/TCP, /Reno, /Newreno and /Sack1"
                )
            options: dict[str, Any] = {"profile": "ns2.35"}
            defaults = classes.class_defaults(base, {})
            for var, (key, conv) in TCP_OPTIONS.items():
                if not o.hasvar(agent, var):
                    continue
                if TCP_CLASS_OPTIONS.get(var, base) != base:
                    continue  # bound by another ns-2 agent class alone
                if var in ("k_parameter_", "l_parameter_") and not _same_value(
                    self._var(agent, "windowOption_"), "6"
                ):
                    continue  # read by the binomial controls alone
                value = self._var(agent, var)
                if var in TCP_ALWAYS or value != classes.bound_value(var, defaults.get(var, "")):
                    options[key] = conv(value)
            # ns-2's newtimer keeps the retransmission timer running once a finite
            # transfer is acknowledged (data offered later meets the restarted window).
            options["idle_rtx_timer"] = True
            if app.info.get("produce") is not None:
                # `$ftp produce N` (ns-2 curseq_ = N): N packets of packetSize_ bytes.
                size = int(float(self._var(agent, "packetSize_")))
                flow["bytes"] = f"{app.info['produce'] * size}B"
            options["delayed_ack"] = peer_base.endswith("DelAck")
            if agent.name in self.boot_times:
                options["tick_phase"] = _secs(self.boot_times[agent.name])
            sink_defaults = classes.class_defaults(peer_base, {})
            for var, (key, conv) in SINK_OPTIONS.items():
                default = classes.bound_value(var, sink_defaults.get(var, ""))
                if o.hasvar(peer, var) and self._var(peer, var) != default:
                    options[key] = conv(self._var(peer, var))
            if options["delayed_ack"] and "delack_interval" not in options:
                options["delack_interval"] = _secs(classes.seconds(self._var(peer, "interval_")))
            flow.update(tcp=TCP_VARIANTS[base], options=options)
            return flow
        # UDP
        if app_base not in UDP_APPS:
            raise Refusal(
                f"{app_base} over Agent/UDP: not supported; supported: {', '.join(UDP_APPS)}"
            )
        if peer_base not in ("Agent/Null", "Agent/LossMonitor"):
            raise Refusal(f"Agent/UDP connected to {peer_base}: needs Agent/Null or LossMonitor")
        size = int(float(self._var(app, "packetSize_")))
        if size > int(float(self._var(agent, "packetSize_"))):
            raise Refusal(
                f"{app_base} packetSize_ {size} above the UDP agent's packetSize_: ns-2 would "
                "fragment; not supported"
            )
        kind = UDP_APPS[app_base]
        spec: dict[str, Any] = {
            "kind": kind,
            "packet_size": f"{size}B",
            "rate": f"{classes.bandwidth(self._var(app, 'rate_'))!r}bps",
        }
        if kind == "cbr":
            spec["random"] = classes.boolean(self._var(app, "random_"))
            spec["max_packets"] = int(float(self._var(app, "maxpkts_")))
        else:
            spec["burst_time"] = _secs(classes.seconds(self._var(app, "burst_time_")))
            spec["idle_time"] = _secs(classes.seconds(self._var(app, "idle_time_")))
            if kind == "pareto":
                spec["shape"] = float(self._var(app, "shape_"))
        flow.update(transport="udp", app=spec)
        return flow

    def _full_tcp_end(self, agent: Obj, peer: bool) -> tuple[dict[str, Any], dict[str, Any]]:
        """One FullTcp agent's TCP options and `full_tcp` options: the variables it holds
        that differ from ns-2.35's defaults of its class (and always the window)."""
        o = self.model.o
        base = o.builtin_base(agent.cls)
        for var in TCP_UNMODELLED:
            if var in FULL_TCP_OPTIONS or not o.hasvar(agent, var):
                continue
            message = unmodelled_value(base, var, o.getvar(agent, var))
            if message is not None:
                raise Refusal(message)
        for var, (default, what) in FULL_TCP_UNMODELLED.items():
            if o.hasvar(agent, var) and not _same_value(o.getvar(agent, var), default):
                raise Refusal(
                    f"{base} {var} {o.getvar(agent, var)} ({what}): not supported; "
                    f"supported: {var} {default} (ns-2.35's default)"
                )
        defaults = classes.class_defaults(base, {})
        options: dict[str, Any] = {"profile": "ns2.35"}
        for var in FULL_TCP_SHARED:
            key, conv = TCP_OPTIONS[var]
            if not o.hasvar(agent, var):
                continue
            value = self._var(agent, var)
            if var == "window_" or value != classes.bound_value(var, defaults.get(var, "")):
                options[key] = conv(value)
        interval = classes.seconds(self._var(agent, "interval_"))
        if interval != 0.1:
            options["delack_interval"] = _secs(interval)
        if agent.name in self.boot_times:
            options["tick_phase"] = _secs(self.boot_times[agent.name])
        full: dict[str, Any] = {}
        if peer and base != o.builtin_base(agent.info["peer"].cls):
            full["variant"] = FULL_VARIANTS[base]
        for var, (key, conv) in FULL_TCP_OPTIONS.items():
            if not o.hasvar(agent, var):
                continue
            value = self._var(agent, var)
            if value != classes.bound_value(var, defaults.get(var, "")):
                full[key] = conv(value)
        if peer:
            options.pop("profile")
        return options, full

    def _full_end_actions(self, agent: Obj, end: float) -> list[tuple[float, dict[str, Any]]]:
        """One FullTcp end's scheduled sends and closes before ``end``, as scenario actions
        (ns-2: FTP `start` is `send -1`, `produce N` and `advance N` offer N segments,
        `advance-bytes N` N bytes, FTP `stop` is `advance 0` then `close`)."""
        segsize = int(float(self._var(agent, "segsize_")))
        out: list[tuple[float, dict[str, Any]]] = []
        closed = False
        for t, obj, what, args in self._full_actions:
            if not (obj is agent or obj is agent.info["app"]) or t >= end:
                continue
            at = _secs(t)
            if closed:
                raise Refusal(
                    f"{obj.name} {what} after a close (reopening a FullTcp connection): not "
                    "supported"
                )
            if what == "start":
                out.append((t, {"at": at}))
            elif what in ("produce", "advance", "advanceby"):
                from .simulator import _atoi

                # (FTP `produce` reads its count with C's atoi: `produce 8.58` is 8.)
                n = _atoi(str(args[0]))
                if n >= 0x10000000:
                    raise Refusal(f"{what} {n}: ns-2's `huge number` convention: not supported")
                out.append((t, {"at": at, "bytes": f"{n * segsize}B"}))
            elif what == "advance-bytes":
                out.append((t, {"at": at, "bytes": f"{int(args[0])}B"}))
            elif what == "producemore":
                raise Refusal(f"{obj.name} producemore on a FullTcp agent: not supported")
            elif what == "send" and str(args[0]).strip() == "-1":
                # FTP `send -1` is FTP `start`.
                out.append((t, {"at": at}))
            elif what == "send":
                # FTP `send NBYTES`: the agent's sendmsg (FullTcpAgent::sendmsg, advance_bytes).
                from .simulator import _atoi

                out.append((t, {"at": at, "bytes": f"{_atoi(str(args[0]))}B"}))
            elif what == "sendmsg":
                act: dict[str, Any] = {"at": at, "bytes": f"{int(args[0])}B"}
                if args[1:] == ("MSG_EOF",):
                    act["eof"] = True
                out.append((t, act))
            elif what == "stop":
                out.append((t, {"at": at, "bytes": "0B"}))
                out.append((t, {"at": at, "close": True}))
                closed = True
            elif what == "close":
                out.append((t, {"at": at, "close": True}))
                closed = True
        return out

    def _full_flow(self, agent: Obj, app: Obj, end: float) -> dict[str, Any]:
        """The flow of a FullTcp agent and the FullTcp agent listening at its peer: the
        application (FTP `start` or `produce`) on the active opener."""
        o = self.model.o
        base = o.builtin_base(agent.cls)
        peer = agent.info["peer"]
        if agent.info["node"] is None or peer is None or peer.info["node"] is None:
            raise Refusal(f"agent {agent.name} ({base}) is not attached and connected")
        peer_base = o.builtin_base(peer.cls)
        if peer_base not in FULL_VARIANTS:
            raise Refusal(f"{base} connected to {peer_base}: needs a FullTcp agent")
        if self.wireless:
            raise Refusal(f"{base} in a wireless script: not supported")
        listens = bool(peer.info.get("listen"))
        for end_agent in (agent, peer):
            a = end_agent.info["app"]
            if a is not None and o.builtin_base(a.cls) != "Application/FTP":
                raise Refusal(
                    f"{o.builtin_base(a.cls)} over {o.builtin_base(end_agent.cls)}: not "
                    "supported; supported: Application/FTP"
                )
            if any((c, "done") in o.instprocs for c in o.lineage(end_agent.cls)):
                raise Refusal(
                    f"a `done` instproc of {end_agent.cls} (ns-2 calls it when the FullTcp "
                    "connection closes): not supported"
                )
        mine = self._full_end_actions(agent, end)
        theirs = self._full_end_actions(peer, end)
        options, full = self._full_tcp_end(agent, peer=False)
        peer_options, peer_full = self._full_tcp_end(peer, peer=True)
        # The opener's first send opens the connection: the flow's start (and its bytes).
        first = mine.pop(0) if mine and "close" not in mine[0][1] else None
        if first is None and (theirs or not listens):
            raise Refusal(
                f"{base} {agent.name} that never sends while its peer listens or sends: not "
                "supported; supported: the agent connected first opens the connection"
            )
        flow: dict[str, Any] = {
            "name": agent.name,
            "src": self.node_name(agent.info["node"]),
            "dst": self.node_name(peer.info["node"]),
            "start": first[1]["at"] if first else "0s",
            "transport": "fulltcp",
            "tcp": FULL_VARIANTS[base],
            "options": options,
        }
        if first is None:
            flow["autostart"] = False
        elif "bytes" in first[1]:
            flow["bytes"] = first[1]["bytes"]
        if listens and theirs and theirs[0][0] <= first[0]:
            raise Refusal(
                "a listening FullTcp agent that sends before its peer opens the connection: "
                "not supported"
            )
        if mine:
            full["actions"] = [a for _, a in mine]
        if theirs:
            peer_full["actions"] = [a for _, a in theirs]
        if not listens:
            # No `$sink listen`: the far end opens too when its application first sends.
            peer_full["listen"] = False
        if peer_options:
            flow["peer_options"] = peer_options
        if full:
            flow["full_tcp"] = full
        if peer_full:
            flow["full_tcp_peer"] = peer_full
        return flow

    # --- results back to ns-2 --------------------------------------------------------------

    def trace_lines(self, text: str) -> list[str]:
        """The lines of ternsim's ns-2 trace that ns-2 would write into the script's trace-all
        channel, numbered as ns-2 numbers them, in time order."""
        if self.wireless:
            return self._wireless_trace(text)
        return self.rewrite_trace(text).splitlines()

    def _wireless_trace(self, text: str) -> list[str]:
        """The old CMU wireless trace as ns-2 writes it for this script (see
        :meth:`wireless_entries`), the setdest ``M`` lines merged in, in time order."""
        out = self.wireless_entries(text, 0) + self.movement_entries()
        out.sort(key=lambda e: e[0])
        return [self.written_line(line) for _, line in out]

    def written_line(self, line: str) -> str:
        """A kept wireless line as the script's trace file gets it: under `use-newtrace` a
        packet line (which the core ended with `` |NT ...``) in ns-2's new format; the nam
        trace is made from the line before this (ns-2's is the same in both formats)."""
        if " |NT " not in line:
            return line
        if self._flow_fids is None:
            self._flow_fids = self._flow_numbers()[0]
        return _newtrace_line(line, self._flow_fids)

    def _dsr_log_entry(
        self, lines: list[str], k: int, agents: dict[tuple[int, int], Obj]
    ) -> tuple[float, str] | None:
        """A DSR agent's log line (line ``k`` of the core's text) as ns-2 writes it, with the
        time it sorts by; None if ns-2 writes none: ns-2's DSR logs into the trace-all file
        whatever the node's -agentTrace/-routerTrace, so the line is kept for every traced
        node (``Sconfig`` for node 1's). A line printed with 5 decimals sorts by the exact
        time of its nearest packet line in the core's text that rounds to it (the MAC's drop
        before the ``SSendFailure`` and ``Ssalv`` lines of a failure, the drop after a
        ``Ssb``), so that it stays between the lines it was written between."""
        line = lines[k]
        m = _DSR_LOG.match(line)
        if m is None:
            return None
        nodes = self.model.nodes
        node = int(m.group("node")) if m.group("node") is not None else 1
        info = nodes[node].info if 0 <= node < len(nodes) else {}
        if not info.get("traced"):
            return None
        time = float(m.group("time"))
        if len(m.group("decimals")) < 9:
            for step in (-1, 1):
                # The nearest line that is not itself a DSR log line, on this side.
                j = k + step
                while 0 <= j < len(lines) and _DSR_LOG.match(lines[j]):
                    j += step
                if not 0 <= j < len(lines):
                    continue
                fields = lines[j].split(maxsplit=2)
                try:
                    exact = float(fields[1])
                except (IndexError, ValueError):
                    continue
                if abs(exact - time) <= 5e-6:
                    time = exact
                    break
        f = _DSR_SEND_FAILURE.match(line)
        if f is not None:
            src, sport = int(f.group("src")), int(f.group("sport"))
            dst, dport = int(f.group("dst")), int(f.group("dport"))
            if int(f.group("ptype")) in _FLOW_PTYPES:
                sa, da = agents.get((src, sport)), agents.get((dst, dport))
                sport = sa.info["port"] if sa is not None else sport
                dport = da.info["port"] if da is not None else dport
            else:
                sport = dport = _RT_PORT
            a, b = f.span("ip")
            line = f"{line[:a]}{src}:{sport} {dst}:{dport}{line[b:]}"
        return time, line

    def wireless_entries(self, text: str, first: int) -> list[tuple[tuple[float, int, int], str]]:
        """The lines of a piece of ternsim's wireless trace that ns-2 writes for this script,
        as (sort key, line): agents numbered by their ports on their nodes; AGT lines only for
        agents attached while -agentTrace was ON, s/f/r RTR lines only for nodes made while
        -routerTrace was ON, MAC lines only for nodes made while -macTrace was ON, and the RTR
        and IFQ drops (which ns-2 always traces). The key is (time, ``first`` + the line's
        rank among the kept lines of ``text``, 0): pieces given in the order the core wrote
        them, each ``first`` past the ranks of the one before, sort as their concatenation."""
        nodes = self.model.nodes
        agents = self._agents_by_port()
        hier = self.model.hierarchical
        out: list[tuple[tuple[float, int, int], str]] = []
        lines = text.splitlines()
        for k, line in enumerate(lines):
            if line.startswith("S"):
                entry = self._dsr_log_entry(lines, k, agents)
                if entry is not None:
                    out.append(((entry[0], first + k + 1, 0), entry[1]))
                continue
            m = _WIRELESS.match(line)
            if m is None:
                c = _WIRELESS_MAC.match(line)
                if c is not None:
                    node = int(c.group("node"))
                    info = nodes[node].info if 0 <= node < len(nodes) else {}
                    if info.get("traced") and info.get("mac_trace"):
                        out.append(((float(c.group("time")), first + k + 1, 0), line))
                continue
            event, layer, node = line[0], m.group("layer"), int(m.group("node"))
            info = nodes[node].info if 0 <= node < len(nodes) else {}
            if not info.get("traced"):
                continue
            src, sport = int(m.group("src")), int(m.group("sport"))
            dst, dport = int(m.group("dst")), int(m.group("dport"))
            sa = da = None
            mip = m.group("kind") == "udp" and str(sport) == _MIP_CORE_PORT
            if mip:
                # A Mobile IP message: between the nodes' registration agents, on port 0.
                sa = da = None
                sport = dport = 0
            elif m.group("kind") in _FLOW_TYPES:
                sa, da = agents.get((src, sport)), agents.get((dst, dport))
            else:
                sport = dport = _RT_PORT  # ns-2's routing agents sit on port 255
            if event != "D":
                if layer == "AGT" and mip:
                    if not info.get("mip_agt_trace"):
                        continue
                elif layer == "AGT":
                    own = sa if event == "s" else da
                    if own is None or not own.info.get("agt_trace"):
                        continue
                elif layer == "RTR" and not info.get("rtr_trace"):
                    continue
                elif layer == "RTR" and hier and info.get("base_station"):
                    # A base station's classifier sends a packet for another cluster to its
                    # wired routes before its routing agent (and RTR trace) sees it.
                    if self._cluster(dst) not in (None, self._cluster(node)):
                        continue
            if layer == "MAC" and not info.get("mac_trace"):
                continue
            if sa is not None:
                sport = sa.info["port"]
            if da is not None:
                dport = da.info["port"]
            a, b = m.span("ip")
            if hier and event == "s" and layer == "RTR" and self._address(src) != node:
                # ns-2 prints a router's send as a forward (`f`) unless the packet's source
                # address is the node's id (cmu-trace.cc), which a hierarchical address
                # never is but for 0.0.0.
                line = "f" + line[1:]
            src, dst = self._address(src), self._address(dst)
            if hier and dst == -1:
                # IP_BROADCAST shifted by the hierarchical node shift, as ns-2 prints it.
                dst = _HIER_BROADCAST
            rest = line[b:]
            if hier:
                # ` TTL NEXT_HOP]`: the next hop is a node address too.
                h = _TTL_NEXT_HOP.match(rest)
                if h is not None and int(h.group("hop")) >= 0:
                    hop = self._address(int(h.group("hop")))
                    rest = f" {h.group('ttl')} {hop}{rest[h.end('hop') :]}"
            line = f"{line[:a]}[{src}:{sport} {dst}:{dport}{rest}"
            out.append(((float(m.group("time")), first + k + 1, 0), line))
        return out

    def _agents_by_port(self) -> dict[tuple[int, int], Obj]:
        """The flows' agents by (node, the core's port): the core numbers a node's agents in
        flow order (the sender, then the receiver)."""
        agents: dict[tuple[int, int], Obj] = {}
        count = [0] * len(self.model.nodes)
        for sender, receiver in self.ends:
            for agent in (sender, receiver):
                node = agent.info["node"].info["id"]
                agents[(node, count[node])] = agent
                count[node] += 1
        return agents

    def needs_packet_lines(self) -> bool:
        """Whether the run must produce ns-2's packet lines: a wireless script, a traced
        link direction (`trace-all` when it was made, `trace-queue`), a nam trace, a queue
        or flow monitor, a queue's summary statistics or an event trace. A wired script that
        traces none of them runs without them, on the core's lean wired path (a 1000 s
        wired script: 1.0 s with the lines formatted and dropped, 0.1 s without)."""
        model = self.model
        return bool(
            self.wireless
            or any(any(link.traced_dirs) for link in model.links)
            or model.nam.channel is not None
            or model.monitors
            or model.queue_stats
            or model.event_channel is not None
            or any(a.info.get("event_channel") for a in model.agents)
        )

    def untraced_layers(self) -> list[str]:
        """The wireless layers none of whose s/r/f lines :meth:`wireless_entries` keeps: AGT
        when no agent has its AGT trace on, RTR when no traced node has its router trace on
        (the core need not write them; drops are always kept)."""
        if not self.wireless:
            return []
        out = []
        if not any(a.info.get("agt_trace") for a in self._agents_by_port().values()) and not any(
            n.info.get("mip_agt_trace") for n in self.model.nodes
        ):
            out.append("AGT")
        if not any(n.info.get("traced") and n.info.get("rtr_trace") for n in self.model.nodes):
            out.append("RTR")
        return out

    def mac_traced(self) -> bool:
        """Whether some node made after trace-all has its MAC trace on (-macTrace ON): the
        core then writes MAC lines, which :meth:`wireless_entries` keeps for those nodes."""
        return self.wireless and any(
            n.info.get("traced") and n.info.get("mac_trace") for n in self.model.nodes
        )

    def movement_entries(self, nam: bool = False) -> list[tuple[tuple[float, int, int], str]]:
        """ns-2's ``M`` line of every setdest of every node made after trace-all, as (sort
        key, line): the key (time, 0, rank) puts them before the core's lines of the same
        instant and in node order, then setdest order, among themselves. With ``nam``, the
        nam `n` lines of the same setdests, with the same keys."""
        out = []
        for n in self.model.nodes:
            if n.info.get("traced"):
                start = (n.info["x"], n.info["y"])
                who = self._address(n.info["id"])
                moves = n.info["moves"]
                lines = wireless.movement_lines(who, start, moves)
                texts = wireless.movement_lines(who, start, moves, nam=True) if nam else lines
                for line, text in zip(lines, texts):
                    out.append(((float(line.split(" ", 2)[1]), 0, len(out)), text))
        return out

    def _cluster(self, node: int) -> str | None:
        """A hierarchical script's node's domain and cluster (``1.0`` of ``1.0.2``)."""
        nodes = self.model.nodes
        if 0 <= node < len(nodes) and "addr" in nodes[node].info:
            return nodes[node].info["addr"].rsplit(".", 1)[0]
        return None

    def _address(self, node: int) -> int:
        """How ns-2 prints node ``node``'s address in a wireless trace: its id, or in a
        hierarchical script the packed address (`AddrParams addr2id`)."""
        nodes = self.model.nodes
        if 0 <= node < len(nodes):
            return nodes[node].info.get("hier_id", node)
        return node

    def rewrite_trace(self, text: str, until: float = float("inf")) -> str:
        """ternsim's wired trace as ns-2 numbers it (see the module doc), with the link
        events before ``until`` (the core ran every event before it) written as ns-2 writes
        them (:meth:`_link_events`)."""
        rewrite = self._wired_rewriter()
        out = [x for x in map(rewrite, text.splitlines()) if x is not None]
        if self.link_events:
            out = self._link_events(out, until)
        return "".join(x + "\n" for x in out)

    def wired_entries(self, text: str, first: int) -> list[tuple[tuple[float, int, int], str]]:
        """The wired lines of a piece of a wired-cum-wireless run's trace (its links' ``+ - r
        d`` lines, which the core writes into the same text as the channel's lines), as ns-2
        writes them into the one trace-all file, keyed as :meth:`wireless_entries` keys its
        lines so that the two merge in the core's order. A node's address is its
        hierarchical address (``1.0.1.2``: node 1.0.1, port 2), as ns-2 prints it."""
        rewrite = self._wired_rewriter()
        out: list[tuple[tuple[float, int, int], str]] = []
        for k, line in enumerate(text.splitlines()):
            if line[:2] not in _WIRED_EVENTS:
                continue
            new = rewrite(line)
            if new is not None:
                f = line.split(" ")
                if len(f) == 13:
                    # Keep the exact time for the nam trace (`wired_nam_lines`).
                    new += " " + f[12]
                # The time is field 1, which the rewrite leaves as it is.
                out.append(((float(f[1]), first + k + 1, 0), new))
        return out

    def wired_nam_lines(self, line: str) -> tuple[str, list[str]] | None:
        """For a wired line of :meth:`wired_entries` (None for any other line): the line for
        the trace file, and its nam lines (on a link direction made after `namtrace-all`,
        with the event's exact time as ns-2's nam trace prints it). A wireless `r` line
        names its node `_N_` where a wired line has the link's first node."""
        if line[:2] not in _WIRED_EVENTS or line.split(" ", 3)[2].startswith("_"):
            return None
        f = line.split(" ")
        if len(f) != 13:
            return line, []
        exact = f.pop()
        plain = " ".join(f)
        if (f[2], f[3]) not in self._nam_dirs():
            return plain, []
        f[1] = format(float(exact), ".15g")
        return plain, nam.packet_lines(f)

    def _nam_dirs(self) -> set[tuple[str, str]]:
        if self._nam_dir_set is None:
            dirs: set[tuple[str, str]] = set()
            for link in self.model.links:
                a, b = str(link.a.info["id"]), str(link.b.info["id"])
                dirs |= {pair for pair, on in zip(((a, b), (b, a)), link.nam_dirs) if on}
            self._nam_dir_set = dirs
        return self._nam_dir_set

    def _wired_rewriter(self) -> Any:
        """A function from one line of ternsim's wired trace to ns-2's (None: a line ns-2
        does not write, of a link direction it does not trace)."""
        o = self.model.o
        traced = set()
        tcphdr_dirs = set()
        for link in self.model.links:
            a, b = str(link.a.info["id"]), str(link.b.info["id"])
            traced |= {pair for pair, on in zip(((a, b), (b, a)), link.traced_dirs) if on}
            tcphdr_dirs |= {pair for pair, on in zip(((a, b), (b, a)), link.tcphdr) if on}
        renumber = _Renumbering(self._flow_numbers(), self._addresses(), self._encapsulators())
        dv = self._dv_renumbering()
        # `Trace set show_tcphdr_ 1`: ns-2's wired trace line ends with the packet's TCP
        # header fields, ackno, flags (hex), hlen and sa_length; ns-2's one-way agents leave
        # the first three 0 and its SACK sinks alone set sa_length, the ACK's number of SACK
        # blocks, each of which makes the ACK 8 bytes longer than its 40.
        tcphdr = " 0 0x0 0"
        sack_sink = ["Sack1" in o.builtin_base(receiver.cls) for _, receiver in self.ends]

        event_traced = self.event_traced
        flow_fid = renumber.flow_fid

        def rewrite(line: str) -> str | None:
            f = line.split(" ")
            if f[0] == "E":
                # An event-trace line (`E time src dst TCP EVENT flow t_seqno cwnd`): kept for
                # the senders made after `eventtrace-all`, with the flow's fid_.
                i = int(f[6])
                if not event_traced[i]:
                    return None
                f[6] = flow_fid[i]
                return " ".join(f)
            if len(f) == 13:
                f.pop()  # the exact time, for the nam trace only
            if len(f) != 12 or (f[2], f[3]) not in traced:
                return None
            if f[4] == "rtProtoDV":
                dv(f)
                if (f[2], f[3]) in tcphdr_dirs:
                    f[11] += f"{tcphdr} 0"
                return " ".join(f)
            if _is_mip(f):
                _mip_renumber(f, renumber)
                if (f[2], f[3]) in tcphdr_dirs:
                    f[11] += f"{tcphdr} 0"
                return " ".join(f)
            i = int(f[7]) if f[7].lstrip("-").isdigit() else -1
            uid, at, header = f[11].partition("@")
            if at:
                # A FullTcp segment: the core glued its ackno, flags, hlen and sa_length
                # to the uid.
                f[11] = uid
                if (f[2], f[3]) in tcphdr_dirs:
                    f[11] += " " + header.replace(",", " ")
                renumber(f, i)
                return " ".join(f)
            if (f[2], f[3]) in tcphdr_dirs:
                blocks = 0
                if f[4] == "ack" and 0 <= i < len(sack_sink) and sack_sink[i]:
                    blocks = (int(f[5]) - _ACK_BYTES) // 8
                f[11] += f"{tcphdr} {blocks}"
            renumber(f, i)
            return " ".join(f)

        return rewrite

    def _dv_renumbering(self) -> Any:
        """A function that gives a DV update's line (its fields, split) the ports of the two
        nodes' `Agent/rtProto/DV` (fields 8 and 9): ns-2 attaches it at `$ns run` after the
        node's own agents and its `Agent/rtProto/Direct`. Its flow id is ns-2's, 0."""
        ports = {str(n.info["id"]): str(n.info["ports"] + 1) for n in self.model.nodes}

        def renumber(f: list[str]) -> None:
            for k in (8, 9):
                node = f[k].partition(".")[0]
                f[k] = f"{node}.{ports.get(node, '0')}"

        return renumber

    def _addresses(self) -> dict[str, str]:
        """A hierarchical script's nodes by id, as their address (`AddrParams`) prints."""
        return {str(n.info["id"]): n.info["addr"] for n in self.model.nodes if "addr" in n.info}

    def _encapsulators(self) -> dict[str, str]:
        """A Mobile IP base station's encapsulator's address by the node's id, as ns-2 prints
        it: `ns-mobilenode.tcl` `attach-encap` gives it the node's address with the domain
        field masked away (``~(NodeMask 1 << NodeShift 1) & nodeaddr``), so HA 1.0.0's
        tunnelled packets leave from ``0.0.0.1`` (port 1, `MIPEncapsulator::recv`)."""
        return {
            str(n.info["id"]): ".".join(["0", *n.info["addr"].split(".")[1:]])
            for n in self.model.nodes
            if n.info.get("mip") and n.info.get("base_station") and "addr" in n.info
        }

    def _flow_numbers(self) -> tuple[list[str], list[dict[str, str]], dict[int, tuple[str, str]]]:
        """Per ternsim flow: ns-2's flow id, and the port of its agent on each end node; for
        the flows whose far end makes its own packets (a ping agent's replies and requests
        carry its own fid_, where a TCP sink's ACK copies the data's), that end's node and
        fid_."""
        o = self.model.o
        flow_fid = []
        ports: list[dict[str, str]] = []
        answer_fid: dict[int, tuple[str, str]] = {}
        for i, (sender, receiver) in enumerate(self.ends):
            flow_fid.append(o.getvar(sender, "fid_"))
            m = {}
            for agent in (sender, receiver):
                m[str(agent.info["node"].info["id"])] = str(agent.info["port"])
            ports.append(m)
            if o.builtin_base(receiver.cls) == "Agent/Ping":
                answer_fid[i] = (str(receiver.info["node"].info["id"]), o.getvar(receiver, "fid_"))
            elif (
                o.builtin_base(receiver.cls) in FULL_VARIANTS and o.getvar(receiver, "fid_") != "0"
            ):
                # A listening FullTcp agent's segments carry its own fid_ (it takes the
                # SYN's only when its own is 0: FullTcpAgent::recv in LISTEN).
                answer_fid[i] = (str(receiver.info["node"].info["id"]), o.getvar(receiver, "fid_"))
        return flow_fid, ports, answer_fid

    def nam_packets(self, text: str, until: float = float("inf")) -> str:
        """The nam lines of a piece of ternsim's wired trace: the events on the link
        directions made after `namtrace-all`, numbered as ns-2 numbers them
        (:func:`ternsim.ns2.nam.packet_lines`), and the lines of the link events before
        ``until`` (the core ran every event before it)."""
        dirs = self._nam_dirs()
        renumber = _Renumbering(self._flow_numbers())
        dv = self._dv_renumbering()
        out: list[tuple[float, str]] = []
        events = [bool(sender.info.get("event_nam")) for sender, _ in self.ends]
        for line in text.splitlines() if dirs or any(events) else ():
            f = line.split(" ")
            if f[0] == "E":
                # ns-2's event trace also writes into the nam channel open when the agent
                # was made (`TcpAgent::trace_event`'s nam line).
                i = int(f[6])
                if events[i]:
                    ports = renumber.ports[i]
                    src = f"{f[2]}.{ports.get(f[2], '0')}"
                    dst = f"{f[3]}.{ports.get(f[3], '0')}"
                    out.append((float(f[1]), f"E -t {f[1]} -o TCP -e {f[5]} -s {src} -d {dst}"))
                continue
            if len(f) == 13:
                # The event's exact time (`ns2_exact_times`): ns-2's nam trace prints the
                # double with `%.15g`, where its trace-all line rounds to the microsecond.
                f[1] = format(float(f.pop()), ".15g")
            if len(f) != 12 or (f[2], f[3]) not in dirs:
                continue
            # A FullTcp segment's header fields (glued to its uid) are not nam's.
            f[11] = f[11].partition("@")[0]
            if f[4] == "rtProtoDV":
                dv(f)
            elif _is_mip(f):
                _mip_renumber(f, renumber)
            else:
                renumber(f, int(f[7]) if f[7].lstrip("-").isdigit() else -1)
            if self.link_events or self._nam_link_events:
                sent = self._nam_sent.setdefault((f[2], f[3]), {})
                if f[0] == "-":
                    sent[f[11]] = self._nam_count
                    self._nam_count += 1
                elif f[0] == "r":
                    sent.pop(f[11], None)
            out += [(float(f[1]), x) for x in nam.packet_lines(f)]
        while self._nam_link_events and self._nam_link_events[0][0] < until:
            t, op, link, ends, stamp = self._nam_link_events.pop(0)
            out = _nam_link_event(out, t, stamp, op, ends, link.nam_rtmodels, self._nam_sent)
        return "".join(x + "\n" for _, x in out)

    def skip_nam_link_events(self, until: float) -> None:
        """The link events before ``until`` happened while no nam channel was open."""
        self._nam_link_events = [e for e in self._nam_link_events if e[0] >= until]

    def skip_link_events(self, until: float) -> None:
        """The link events before ``until`` happened while no trace channel was open."""
        self.link_events = [e for e in self.link_events if e[0] >= until]

    def _link_events(self, lines: list[str], until: float) -> list[str]:
        """Writes the link events before ``until`` into ``lines`` (a piece of the rewritten
        trace, in order) as ns-2.35 does. At `rtmodel-at T down A B` ns-2 takes the
        B -> A direction down, then A -> B; each drops what its queue holds, then the packets on its
        wire and in flight in the order they were sent, then writes one `v TIME link-down
        FROM TO` line per `rtmodel-at` call naming the link. The core drops a downed
        direction's packets on the wire first, then the queue, then the pipe: the drop lines
        of the instant are reordered here. An up event writes the `link-up` lines."""
        ends = {
            (str(link.a.info["id"]), str(link.b.info["id"]))
            for _, _, link, _, _ in self.link_events
            if any(link.traced_dirs)
        }
        watched = ends | {(b, a) for a, b in ends}

        def follow(part: list[str]) -> None:
            for line in part:
                f = line.split(" ", 12)
                if len(f) < 12 or (f[2], f[3]) not in watched:
                    continue
                flying = self._inflight.setdefault((f[2], f[3]), {})
                if f[0] == "-":
                    flying[f[11]] = self._started
                    self._started += 1
                elif f[0] in "rd":
                    flying.pop(f[11], None)

        done = 0
        while self.link_events and self.link_events[0][0] < until:
            t, op, link, dirs, exact = self.link_events.pop(0)
            lines, done = self._one_link_event(lines, done, follow, (t, exact), op, link, *dirs)
        follow(lines[done:])
        return lines

    def _one_link_event(
        self,
        lines: list[str],
        done: int,
        follow: Any,
        at: tuple[float, float],
        op: str,
        link: Any,
        *dirs: tuple[str, str],
    ) -> tuple[list[str], int]:
        """One event at ``at`` (the core's time, ns-2's) written into ``lines``, whose first
        ``done`` lines ``follow`` has seen (the packets in flight): the new lines and how
        many of them it has seen."""
        t, exact = at

        def time_of(line: str) -> float:
            try:
                return float(line.split(" ", 2)[1])
            except (IndexError, ValueError):
                return float("-inf")

        start = next((i for i in range(done, len(lines)) if time_of(lines[i]) >= t), len(lines))
        end = start
        # The drops of the down event: the 'd' lines of the instant on this link.
        block: list[list[str]] = []
        while end < len(lines) and time_of(lines[end]) == t:
            f = lines[end].split(" ")
            if op == "down" and f[0] == "d" and (f[2], f[3]) in dirs:
                block.append(f)
                end += 1
            elif len(f) > 4 and f[4] == "rtProtoDV":
                # DV's updates at the instant answer the change: they come after it.
                break
            elif not block:
                start += 1
                end += 1
            else:
                break
        follow(lines[done:start])
        # ns-2 writes `[$ns now]`, which prints the clock with %.17g.
        stamp = format(exact, ".17g")
        new: list[str] = []
        for who in dirs:
            mine = [f for f in block if (f[2], f[3]) == who]
            flying = self._inflight.get(who, {})
            queued = [f for f in mine if f[11] not in flying]
            sent = sorted((f for f in mine if f[11] in flying), key=lambda f: flying[f[11]])
            for f in sent:
                flying.pop(f[11], None)
            new += [" ".join(f) for f in queued + sent]
            new += [f"v {stamp} link-{op} {who[0]} {who[1]}"] * link.rtmodels
        return lines[:start] + new + lines[end:], start + len(new)


def _nam_link_event(
    out: list[tuple[float, str]],
    t: float,
    stamp: float,
    op: str,
    ends: tuple,
    calls: int,
    sent: dict[tuple[str, str], dict[str, int]],
) -> list[tuple[float, str]]:
    """``out`` (a piece of the nam trace, in order) with the lines of a link event at ``t``
    (the core's time; ns-2's is ``stamp``) written where ns-2 writes them: after the other
    lines of its instant, each direction (in the order ns-2 takes them, ``ends``) with the
    drops of its going down (what its queue held, then what it had sent, in the order it
    sent them: ``sent``), then its `l`/`v` lines; before the updates DV sends when it
    hears of the change."""
    start = next((i for i, (u, _) in enumerate(out) if u >= t), len(out))
    end = start
    drops: list[tuple[float, str]] = []
    while end < len(out) and out[end][0] == t:
        f = out[end][1].split(" ", 9)
        if op == "down" and f[0] == "d" and (f[4], f[6]) in ends:
            drops.append(out[end])
        elif len(f) > 8 and f[8] == "rtProtoDV":
            break
        elif drops:
            break
        else:
            start += 1
        end += 1
    new: list[tuple[float, str]] = []
    for who in ends:
        order = sent.get(who, {})
        mine = [(x[1].split(" ", 15), x) for x in drops]
        mine = [(f[14], x) for f, x in mine if (f[4], f[6]) == who]
        mine.sort(key=lambda e: (e[0] in order, order.get(e[0], 0)))
        new += [x for _, x in mine]
        new += [(t, x) for x in nam.link_event_lines(stamp, op, (who,), calls)]
    return out[:start] + new + out[end:]


def _is_mip(f: list[str]) -> bool:
    """Whether a core wired trace line (fields, split) is a Mobile IP message's: `udp` from
    the core's Mobile IP port."""
    return f[4] == "udp" and f[8].rpartition(".")[2] == _MIP_CORE_PORT


def _mip_renumber(f: list[str], renumber: Any) -> None:
    """A Mobile IP message's wired line as ns-2 prints it: flow id 0 (the registration
    agents' `fid_`), both ends on port 0 (`REGAGENT_PORT`), the nodes as their addresses. In
    a tunnel (the core writes the tunnel's port as the destination's) both ends are the
    tunnel's port, the source the encapsulator's address (:meth:`_Renumbering._address`)."""
    f[7] = "0"
    tunnelled = f[9].rpartition(".")[2] == TUNNEL_PORT
    port = TUNNEL_PORT if tunnelled else "0"
    for k in (8, 9):
        f[k] = f"{f[k].rpartition('.')[0]}.{port}"
    renumber(f, -1)


def ns2_fid(
    numbers: tuple[list[str], list[dict[str, str]], dict[int, tuple[str, str]]], f: list[str]
) -> str:
    """The flow id ns-2 gives a core trace line's packet (fields split; field 7 is ternsim's
    flow index): the sender's `fid_`, or the answering end's for its packets
    (:class:`_Renumbering`)."""
    flow_fid, _, answer_fid = numbers
    i = int(f[7]) if f[7].lstrip("-").isdigit() else -1
    if not 0 <= i < len(flow_fid):
        return f[7]
    answer = answer_fid.get(i)
    if answer is not None and f[8].split(".")[0] == answer[0]:
        return answer[1]
    return flow_fid[i]


#: The port of a Mobile IP tunnel's ends as the core writes it (ns-2's `DECAP_PORT`, the
#: encapsulator's `port_`: `crate::mobileip::agent::TUNNEL_PORT`).
TUNNEL_PORT = "1"


class _Renumbering:
    """ns-2's numbering of a wired trace line (its fields, split), in place: ternsim flow
    ``i``'s flow id (field 7) and the agents' ports (fields 8 and 9), a node of a hierarchical
    script as its address (``addr``). A run's lines name a handful of addresses, so each is
    worked out once: this runs for every line of every traced link."""

    def __init__(
        self,
        numbers: tuple[list[str], list[dict[str, str]], dict[int, tuple[str, str]]],
        addr: dict[str, str] | None = None,
        encapsulators: dict[str, str] | None = None,
    ) -> None:
        self.flow_fid, self.ports, self.answer_fid = numbers
        self.addr = addr or {}
        #: Mobile IP base stations' encapsulator addresses (`_encapsulators`): the source of
        #: a tunnelled packet's line, which the core writes as the node's tunnel port.
        self.encap = encapsulators or {}
        self._renamed: dict[tuple[int, str, int], str] = {}

    def __call__(self, f: list[str], i: int) -> None:
        if 0 <= i < len(self.flow_fid):
            f[7] = self.flow_fid[i]
            answer = self.answer_fid.get(i)
            if answer is not None and f[8].split(".")[0] == answer[0]:
                f[7] = answer[1]
        elif self.addr:
            i = -1
        else:
            return
        renamed = self._renamed
        for k in (8, 9):
            key = (i, f[k], k)
            new = renamed.get(key)
            if new is None:
                new = renamed[key] = self._address(i, f[k], source=k == 8)
            f[k] = new

    def _address(self, i: int, field: str, source: bool = False) -> str:
        """``node.port`` as ns-2 prints it: flow ``i``'s agent port on that node (-1: no
        flow, the port as it is), the node as its hierarchical address; the source of a
        packet from a base station's tunnel port (no agent of the flow there) as its
        encapsulator's address."""
        if source and self.encap:
            node, _, port = field.partition(".")
            if port == TUNNEL_PORT and node in self.encap and (i < 0 or node not in self.ports[i]):
                return f"{self.encap[node]}.{port}"
        if i >= 0:
            parts = field.split(".")
            node, port = parts[0], parts[-1]
            return f"{self.addr.get(node, node)}.{self.ports[i].get(node, port)}"
        node, _, port = field.partition(".")
        return f"{self.addr.get(node, node)}.{port}"


def _avoid_reordering(link: Any) -> dict[str, Any]:
    """The link's `avoid_reordering` when its DelayLinks have ns-2's `avoidReordering_`
    (both directions: ternsim's option is per link)."""
    both = link.avoid_reordering
    if both == [False, False]:
        return {}
    if both != [True, True]:
        a, b = link.a.info["id"], link.b.info["id"]
        raise Refusal(
            f"avoidReordering_ on one direction of the {a}-{b} link: not supported; "
            "supported: on both (DelayLink set avoidReordering_ true before the link is made)",
            where=link.where,
        )
    return {"avoid_reordering": True}
