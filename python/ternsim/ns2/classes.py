"""The ns-2.35 classes the front end knows: their hierarchy, their defaults and value parsing.

This module owns the facts taken from ns-2.35 (``tcl/lib/ns-default.tcl`` and the C++ bound
variables; each value below was checked against the ``ns`` 2.35 binary by printing
``[Class set var_]``). Instances copy their class's defaults when they are created, as OTcl
does, so ``Agent/TCP set window_ 40`` affects agents made after it, not before.

It does not know the scenario schema: :mod:`ternsim.ns2.scenario` maps these names to keys.
"""

from __future__ import annotations

#: Every class the front end can instantiate or configure, with its parent.
PARENT: dict[str, str | None] = {
    "Agent": None,
    "Agent/TCP": "Agent",
    "Agent/TCP/Reno": "Agent/TCP",
    "Agent/TCP/Newreno": "Agent/TCP",
    "Agent/TCP/Sack1": "Agent/TCP",
    # Forward Acknowledgement (tcp/tcp-fack.cc) and SACK with Rate-Halving (tcp-sack-rh.cc).
    "Agent/TCP/Fack": "Agent/TCP",
    "Agent/TCP/SackRH": "Agent/TCP",
    "Agent/TCP/Vegas": "Agent/TCP",
    # ns-2's two-way TCP (tcp/tcp-full.cc).
    "Agent/TCP/FullTcp": "Agent/TCP",
    "Agent/TCP/FullTcp/Tahoe": "Agent/TCP/FullTcp",
    "Agent/TCP/FullTcp/Newreno": "Agent/TCP/FullTcp",
    "Agent/TCP/FullTcp/Sack": "Agent/TCP/FullTcp",
    "Agent/TCPSink": "Agent",
    "Agent/TCPSink/DelAck": "Agent/TCPSink",
    "Agent/TCPSink/Sack1": "Agent/TCPSink",
    "Agent/TCPSink/Sack1/DelAck": "Agent/TCPSink/Sack1",
    "Agent/UDP": "Agent",
    "Agent/Null": "Agent",
    "Agent/LossMonitor": "Agent",
    # Greis's ping agent (apps/ping.cc).
    "Agent/Ping": "Agent",
    # Mobile IP's registration agents: ns-2 makes one per node made with -mobileIP ON
    # (`$node set regagent_` returns it); scripts set their variables.
    "Agent/MIPBS": "Agent",
    "Agent/MIPMH": "Agent",
    "Application": None,
    "Application/FTP": "Application",
    # apps/telnet.cc: a packet to its TCP agent after exponential gaps of mean interval_.
    "Application/Telnet": "Application",
    "Application/Traffic": "Application",
    "Application/Traffic/CBR": "Application/Traffic",
    "Application/Traffic/Exponential": "Application/Traffic",
    "Application/Traffic/Pareto": "Application/Traffic",
    "Queue": None,
    "Queue/DropTail": "Queue",
    # The wireless (CMU) classes: objects a script makes with `new` (a Topography, a channel,
    # a propagation model) and classes it configures with `Class set` (see WIRELESS_VARS).
    "Topography": None,
    "Channel/WirelessChannel": None,
    "Propagation/TwoRayGround": None,
    "Propagation/FreeSpace": None,
    "Propagation/Shadowing": None,
    "Phy/WirelessPhy": None,
    "Mac/802_11": None,
    "Antenna/OmniAntenna": None,
    "LL": None,
    "Queue/DropTail/PriQueue": "Queue/DropTail",
    "CMUPriQueue": None,
    "Agent/DSDV": "Agent",
    "Agent/AODV": "Agent",
    "Agent/DSRAgent": "Agent",
    # `$ns rtproto DV` makes one per node at `$ns run`; scripts set its class variables.
    "Agent/rtProto/DV": "Agent",
    "RNG": None,
    # ns-1's CBR agent: CMU scripts set its ports in their preamble.
    "Agent/CBR": "Agent",
    # Known so that library scripts (tcl/mobility/dsr.tcl) may subclass them; their objects
    # have no methods here (the old node API is not supported).
    "Node/MobileNode": None,
    "Timer": None,
    "Queue/RED": "Queue",
    "Queue/SFQ": "Queue",
    "SimpleLink": None,
    "ErrorModel": None,
    "ErrorModel/List": "ErrorModel",
    "ErrorModel/Periodic": "ErrorModel",
    "ErrorModule": None,
    "RandomVariable": None,
    "RandomVariable/Uniform": "RandomVariable",
    "RandomVariable/Exponential": "RandomVariable",
    "RandomVariable/Pareto": "RandomVariable",
    "RandomVariable/Constant": "RandomVariable",
    "QueueMonitor": None,
    # `$ns makeflowmon Fid`: a queue monitor that also counts each flow id on its own
    # (ns-2 `QueueMonitor/ED/Flowmon`), its flows (`QueueMonitor/ED/Flow`) and its
    # classifier (`$fmon classifier`, whose `lookup` finds a flow).
    "QueueMonitor/ED/Flowmon": "QueueMonitor",
    "QueueMonitor/ED/Flow": "QueueMonitor",
    "Classifier/Hash/Fid": None,
    # A queue monitor's time integrals of its queue's size (`get-bytes-integrator`), and the
    # object a link direction's `link` method returns (its bandwidth_ and delay_).
    "Integrator": None,
    "DelayLink": None,
    # The wired trace objects trace-all puts on each link; scripts set `Trace set show_tcphdr_`.
    "Trace": None,
}

#: ns-2.35 classes ternsim does not model whose class defaults a script may still set: ns-2's
#: validation preambles set them for every test of a suite (test-suite-simple.tcl sets
#: Agent/TFRC's), whether or not the test makes such an object. `Class set var value` is
#: recorded (and reads back); making an object of one of them is refused: class -> what it is.
UNMODELLED: dict[str, str] = {
    "Agent/TFRC": "TFRC, TCP-friendly rate control (tcp/tfrc.cc)",
    "Agent/TFRCSink": "TFRC's receiver (tcp/tfrc-sink.cc)",
}

#: Classes that a script configures with `Class set` but never instantiates itself (ns-2 makes
#: one per mobile node from `$ns node-config`).
CONFIG_ONLY = {
    "Phy/WirelessPhy",
    "Mac/802_11",
    "Antenna/OmniAntenna",
    "LL",
    "Queue/DropTail/PriQueue",
    "CMUPriQueue",
    "Agent/DSDV",
    "Agent/AODV",
    "Agent/DSRAgent",
    "Agent/rtProto/DV",
    "Agent/CBR",
    "Node/MobileNode",
    "Agent/MIPBS",
    "Agent/MIPMH",
}

#: The variables of the wireless classes and their ns-2.35 defaults (ns-default.tcl, as
#: ``ns`` 2.35 prints ``[Class set var_]``). Only these may be set; the ones that
#: :data:`ternsim.ns2.wireless.CLASS_KEYS` maps to a scenario key take any value, the others
#: only their default (ns-2's `sport_`/`dport_` of agents are overwritten when ns-2 attaches
#: the agent, so any value is accepted).
WIRELESS_VARS: dict[str, dict[str, str]] = {
    "Phy/WirelessPhy": {
        "Pt_": "0.28183815",
        "RXThresh_": "3.652e-10",
        "CSThresh_": "1.559e-11",
        "CPThresh_": "10.0",
        "freq_": "914e+6",
        "L_": "1.0",
        "bandwidth_": "2e6",
    },
    "Mac/802_11": {
        "dataRate_": "1Mb",
        "basicRate_": "1Mb",
        "RTSThreshold_": "0",
        "bugFix_timer_": "true",
        "ShortRetryLimit_": "7",
        "LongRetryLimit_": "4",
        "CWMin_": "31",
        "CWMax_": "1023",
        "SlotTime_": "0.000020",
        "SIFS_": "0.000010",
        "PreambleLength_": "144",
        "PLCPHeaderLength_": "48",
        "PLCPDataRate_": "1.0e6",
        "delay_": "64us",
    },
    "Antenna/OmniAntenna": {"X_": "0", "Y_": "0", "Z_": "1.5", "Gt_": "1.0", "Gr_": "1.0"},
    "LL": {
        "mindelay_": "50us",
        "delay_": "25us",
        "bandwidth_": "0",
        "macDA_": "0",
        "debug_": "false",
        "avoidReordering_": "false",
    },
    "Queue/DropTail/PriQueue": {"Prefer_Routing_Protocols": "1"},
    "CMUPriQueue": {},
    "Agent/DSDV": {
        "sport_": "0",
        "dport_": "0",
        "wst0_": "6",
        "perup_": "15",
        "use_mac_": "0",
        "be_random_": "1",
        "alpha_": "0.875",
        "min_update_periods_": "3",
        "verbose_": "0",
        "trace_wst_": "0",
    },
    "Agent/AODV": {"sport_": "0", "dport_": "0"},
    "Agent/DSRAgent": {"sport_": "0", "dport_": "0"},
    "Agent/CBR": {"sport_": "0", "dport_": "0"},
}

#: Class defaults (ns-default.tcl); values are Tcl strings, as ns-2 prints them.
DEFAULTS: dict[str, dict[str, str]] = {
    "Trace": {
        "src_": "-1",
        "dst_": "-1",
        "callback_": "0",
        "show_tcphdr_": "0",
        "debug_": "false",
    },
    "ErrorModel": {
        "enable_": "1",
        "rate_": "0",
        "delay_": "0",
        "bandwidth_": "2Mb",
        "markecn_": "false",
        "delay_pkt_": "false",
        "debug_": "false",
    },
    "ErrorModel/Periodic": {
        "period_": "1.0",
        "offset_": "0.0",
        "burstlen_": "0.0",
        "default_drop_": "0",
    },
    # The log-normal shadowing model's variables (mobile/shadowing.cc binds them).
    "Propagation/Shadowing": {
        "pathlossExp_": "2.0",
        "std_db_": "4.0",
        "dist0_": "1.0",
        "seed_": "0",
    },
    "RandomVariable/Uniform": {"min_": "0.0", "max_": "1.0"},
    "RandomVariable/Exponential": {"avg_": "1.0"},
    "RandomVariable/Pareto": {"avg_": "1.0", "shape_": "1.5"},
    "RandomVariable/Constant": {"val_": "1.0"},
    "Agent": {"fid_": "0", "prio_": "0", "flags_": "0", "ttl_": "32", "class_": "0"},
    "Agent/TCP": {
        "packetSize_": "1000",
        "window_": "20",
        "windowInit_": "2",
        "tcpTick_": "0.01",
        "maxrto_": "60",
        "minrto_": "0.2",
        "rtxcur_init_": "3.0",
        "syn_": "true",
        "maxburst_": "0",
        "maxcwnd_": "0",
        "numdupacks_": "3",
        "tcpip_base_hdr_size_": "40",
        "singledup_": "1",
        "precisionReduce_": "true",
        "bugFix_": "true",
        "rfc2988_": "true",
        "delay_growth_": "true",
        "bugfix_ss_": "1",
        "exitFastRetrans_": "true",
        "lessCareful_": "false",
        "useHeaders_": "true",
        "timestamps_": "false",
        "ecn_": "0",
        "old_ecn_": "0",
        "slow_start_restart_": "true",
        # The general AIMD and binomial controls (TcpAgent::opencwnd, slowdown).
        "windowOption_": "1",
        "decrease_num_": "0.5",
        "increase_num_": "1.0",
        "k_parameter_": "0.0",
        "l_parameter_": "1.0",
        # State and statistics: 0 before the run; read after it from the summary.
        "nrexmitpack_": "0",
        "nrexmitbytes_": "0",
        "ndatapack_": "0",
        "ndatabytes_": "0",
        "nrexmit_": "0",
        "ncwndcuts_": "0",
        "nackpack_": "0",
        "ack_": "0",
        "cwnd_": "0",
        "ssthresh_": "0",
        "t_seqno_": "0",
        "maxseq_": "0",
        "dupacks_": "0",
        "rtt_": "0",
        "srtt_": "0",
        "rttvar_": "0",
        "backoff_": "0",
    },
    "Agent/TCP/Vegas": {"v_alpha_": "1", "v_beta_": "3", "v_gamma_": "1"},
    "Agent/TCP/Fack": {"ss-div4_": "false", "rampdown_": "false"},
    # ns-default.tcl's FullTcp block (ns 2.35 prints these).
    "Agent/TCP/FullTcp": {
        "segsperack_": "1",
        "segsize_": "536",
        "tcprexmtthresh_": "3",
        "iss_": "0",
        "nodelay_": "false",
        "data_on_syn_": "false",
        "dupseg_fix_": "true",
        "dupack_reset_": "false",
        "close_on_empty_": "false",
        "signal_on_empty_": "false",
        "interval_": "0.1",
        "ts_option_size_": "10",
        "reno_fastrecov_": "true",
        "pipectrl_": "false",
        "open_cwnd_on_pack_": "true",
        "halfclose_": "false",
        "nopredict_": "false",
        "ecn_syn_": "false",
        "ecn_syn_wait_": "0",
        "debug_": "false",
        "spa_thresh_": "0",
        "slow_start_restart_": "true",
        "restart_bugfix_": "true",
    },
    "Agent/TCP/FullTcp/Tahoe": {"reno_fastrecov_": "false"},
    "Agent/TCP/FullTcp/Newreno": {"open_cwnd_on_pack_": "false", "recov_maxburst_": "2"},
    "Agent/TCP/FullTcp/Sack": {
        "reno_fastrecov_": "false",
        "open_cwnd_on_pack_": "false",
        "clear_on_timeout_": "true",
        "sack_rtx_cthresh_": "1",
        "sack_rtx_bthresh_": "1",
        "sack_rtx_threshmode_": "1",
        "sack_block_size_": "8",
        "sack_option_size_": "2",
        "max_sack_blocks_": "3",
    },
    "Agent/TCP/Newreno": {
        "newreno_changes1_": "1",
        "partial_window_deflation_": "1",
        "exit_recovery_fix_": "0",
    },
    "Agent/TCPSink": {
        "packetSize_": "40",
        "maxSackBlocks_": "3",
        "bytes_": "0",
        "SYN_immediate_ack_": "true",
        "RFC2581_immediate_ack_": "true",
    },
    "Agent/TCPSink/DelAck": {"interval_": "100ms"},
    "Agent/TCPSink/Sack1/DelAck": {"interval_": "100ms"},
    "Agent/UDP": {"packetSize_": "1000"},
    # ns-default.tcl and route-proto.tcl (INFINITY is `Agent set ttl_`, UNREACHABLE
    # `rtObject set unreach_`).
    "Agent/rtProto/DV": {
        "advertInterval": "2",
        "INFINITY": "32",
        "preference_": "120",
        "UNREACHABLE": "-1",
        "mid_": "0",
    },
    "Agent/Null": {},
    "Agent/LossMonitor": {"nlost_": "0", "npkts_": "0", "bytes_": "0", "lastPktTime_": "0"},
    "Agent/Ping": {"packetSize_": "64"},
    # ns-default.tcl; `home_agent_` is bound in C++ (MIPMHAgent: ha_(-1)).
    "Agent/MIPBS": {"adSize_": "48", "ad_lifetime_": "2"},
    "Agent/MIPMH": {
        "rreqSize_": "52",
        "reg_rtx_": "0.5",
        "reg_lifetime_": "2",
        "home_agent_": "-1",
    },
    "Application/FTP": {},
    "Application/Telnet": {"interval_": "1.0"},
    "Application/Traffic/CBR": {
        "rate_": "448Kb",
        "packetSize_": "210",
        "random_": "0",
        "maxpkts_": "268435456",
    },
    "Application/Traffic/Exponential": {
        "rate_": "64Kb",
        "packetSize_": "210",
        "burst_time_": ".5",
        "idle_time_": ".5",
    },
    "Application/Traffic/Pareto": {
        "rate_": "64Kb",
        "packetSize_": "210",
        "burst_time_": "500ms",
        "idle_time_": "500ms",
        "shape_": "1.5",
    },
    "Queue": {"limit_": "50"},
    # ns-2.35 `queue/sfq.cc` (the class has no ns-default.tcl entry; these are its
    # constructor's values): `limit_`, which `queue-limit` sets, is not read by SFQ.
    "Queue/SFQ": {"maxqueue_": "40", "buckets_": "16"},
    **WIRELESS_VARS,
    # ns-2.35: byte mode, thresholds and weight chosen from the link (0 / 0 / -1), gentle,
    # use_mark_p_ (no forced drop on the average alone).
    "Queue/RED": {
        "bytes_": "true",
        "queue_in_bytes_": "true",
        "thresh_": "0",
        "maxthresh_": "0",
        "thresh_queue_": "50",
        "maxthresh_queue_": "50",
        "mean_pktsize_": "500",
        "idle_pktsize_": "100",
        "q_weight_": "-1",
        "wait_": "true",
        "linterm_": "10",
        "mark_p_": "0.1",
        "use_mark_p_": "true",
        "setbit_": "false",
        "gentle_": "true",
        "drop_tail_": "true",
        "drop_front_": "false",
        "drop_rand_": "false",
        "doubleq_": "false",
        "ns1_compat_": "false",
        "dqthresh_": "50",
        "ave_": "0.0",
        "prob1_": "0.0",
        "curq_": "0",
        "cur_max_p_": "0",
        "summarystats_": "false",
        "alpha_": "0.01",
        "beta_": "0.9",
        "adaptive_": "0",
        "interval_": "0.5",
        "targetdelay_": "0.005",
        "top_": "0.5",
        "bottom_": "0",
        "cautious_": "0",
        "feng_adaptive_": "0",
    },
}

#: Agent variables that hold the state of a running TCP, not a parameter.
TCP_STATE = (
    "nrexmitpack_ nrexmitbytes_ ndatapack_ ndatabytes_ nrexmit_ ncwndcuts_ nackpack_ ack_ "
    "cwnd_ ssthresh_ t_seqno_ maxseq_ dupacks_ rtt_ srtt_ rttvar_ backoff_"
).split()

#: Queue/RED variables that hold the state of the running queue, not a parameter.
RED_STATE = ["ave_", "prob1_", "curq_", "cur_max_p_"]


#: How ns-2's C++ objects hold their bound variables; an instance reads them back normalised
#: (``$cbr set rate_ 0.5Mb`` then reads ``500000``, ``syn_ true`` reads ``1``).
BOUND_KIND: dict[str, str] = {
    **dict.fromkeys(["rate_"], "bandwidth"),
    **dict.fromkeys(
        [
            "burst_time_",
            "idle_time_",
            "interval_",
            "tcpTick_",
            "maxrto_",
            "minrto_",
            "rtxcur_init_",
        ],
        "time",
    ),
    **dict.fromkeys(
        [
            "syn_",
            "timestamps_",
            "bytes_",
            "queue_in_bytes_",
            "wait_",
            "use_mark_p_",
            "setbit_",
            "gentle_",
            "drop_tail_",
            "drop_front_",
            "drop_rand_",
            "ns1_compat_",
            "summarystats_",
            "markecn_",
            "delay_pkt_",
            "precisionReduce_",
            "ss-div4_",
            "rampdown_",
            "bugFix_",
            "rfc2988_",
            "exitFastRetrans_",
            "delay_growth_",
            "SYN_immediate_ack_",
            "RFC2581_immediate_ack_",
            "lessCareful_",
            "useHeaders_",
            "slow_start_restart_",
            "debug_",
            "nodelay_",
            "data_on_syn_",
            "dupseg_fix_",
            "dupack_reset_",
            "close_on_empty_",
            "signal_on_empty_",
            "reno_fastrecov_",
            "pipectrl_",
            "open_cwnd_on_pack_",
            "halfclose_",
            "nopredict_",
            "ecn_syn_",
            "slow_start_restart_",
            "restart_bugfix_",
            "clear_on_timeout_",
        ],
        "bool",
    ),
    **dict.fromkeys(
        [
            "packetSize_",
            "window_",
            "windowInit_",
            "maxburst_",
            "numdupacks_",
            "tcpip_base_hdr_size_",
            "maxpkts_",
            "fid_",
            "class_",
            "prio_",
            "ttl_",
            "random_",
            "maxSackBlocks_",
            "bugfix_ss_",
            "singledup_",
            "ecn_",
            "old_ecn_",
            "limit_",
            "mean_pktsize_",
            "idle_pktsize_",
            "adaptive_",
            "cautious_",
            "feng_adaptive_",
            "enable_",
            "default_drop_",
            "segsperack_",
            "segsize_",
            "tcprexmtthresh_",
            "iss_",
            "ts_option_size_",
            "ecn_syn_wait_",
            "spa_thresh_",
            "recov_maxburst_",
            "sack_rtx_cthresh_",
            "sack_rtx_bthresh_",
            "sack_rtx_threshmode_",
            "sack_block_size_",
            "sack_option_size_",
            "max_sack_blocks_",
            "windowOption_",
        ],
        "int",
    ),
    **dict.fromkeys(
        [
            "maxcwnd_",
            "v_alpha_",
            "v_beta_",
            "v_gamma_",
            "shape_",
            "thresh_",
            "maxthresh_",
            "thresh_queue_",
            "maxthresh_queue_",
            "q_weight_",
            "linterm_",
            "mark_p_",
            "alpha_",
            "beta_",
            "targetdelay_",
            "top_",
            "bottom_",
            "period_",
            "offset_",
            "burstlen_",
            "min_",
            "max_",
            "avg_",
            "val_",
            "decrease_num_",
            "increase_num_",
            "k_parameter_",
            "l_parameter_",
        ],
        "double",
    ),
}


def bound_value(var: str, value: str) -> str:
    """``value`` as an ns-2 object holds bound variable ``var`` (unchanged for others)."""
    kind = BOUND_KIND.get(var)
    try:
        if kind == "bandwidth":
            return format(bandwidth(value), ".17g")
        if kind == "time":
            return format(seconds(value), ".17g")
        if kind == "bool":
            return "1" if boolean(value) else "0"
        if kind == "int":
            return str(int(float(value)))
        if kind == "double":
            return format(float(value), ".17g")
    except ValueError:
        return value
    return value


def lineage(cls: str) -> list[str]:
    """``cls`` and its ancestors, most derived first."""
    out = []
    c: str | None = cls
    while c is not None:
        out.append(c)
        c = PARENT.get(c)
    return out


def is_a(cls: str, base: str) -> bool:
    return base in lineage(cls)


def class_defaults(cls: str, overrides: dict[str, dict[str, str]]) -> dict[str, str]:
    """The variables a new instance of ``cls`` starts with: the defaults of its ancestors, then
    its own, each with the script's ``Class set var_ value`` on top."""
    values: dict[str, str] = {}
    for c in reversed(lineage(cls)):
        values.update(DEFAULTS.get(c, {}))
        values.update(overrides.get(c, {}))
    return values


# --- values as ns-2 reads them ---------------------------------------------------------------


def _number(text: str) -> tuple[float, str]:
    s = text.strip()
    end = len(s)
    while end > 0:
        try:
            return float(s[:end]), s[end:]
        except ValueError:
            end -= 1
    raise ValueError(f"`{text}` is not a number")


def bandwidth(text: str) -> float:
    """Bits per second from an ns-2 bandwidth (``10Mb``, ``1.5Mb``, ``64kb``, ``448Kb``,
    ``2kB``, ``5Mbps``, ``100``): k/K 1e3, m/M 1e6, g/G 1e9; a ``B`` means bytes."""
    value, unit = _number(text)
    for tail in ("ps", "/s"):
        if unit.endswith(tail):
            unit = unit[: -len(tail)]
    if unit.endswith("B"):
        value *= 8
        unit = unit[:-1]
    elif unit.endswith("b"):
        unit = unit[:-1]
    scale = {"": 1.0, "k": 1e3, "K": 1e3, "m": 1e6, "M": 1e6, "g": 1e9, "G": 1e9}
    if unit not in scale:
        raise ValueError(f"`{text}` is not a bandwidth (e.g. 10Mb, 64kb, 1.5Mb)")
    return value * scale[unit]


def seconds(text: str) -> float:
    """Seconds from an ns-2 time (``10ms``, ``5us``, ``2ns``, ``1s``, ``0.5``)."""
    value, unit = _number(text)
    scale = {"": 1.0, "s": 1.0, "ms": 1e-3, "us": 1e-6, "ns": 1e-9, "ps": 1e-12}
    if unit not in scale:
        raise ValueError(f"`{text}` is not a time (e.g. 10ms, 0.5)")
    return value * scale[unit]


def boolean(text: str) -> bool:
    s = text.strip().lower()
    if s in ("1", "true", "yes", "on"):
        return True
    if s in ("0", "false", "no", "off"):
        return False
    return bool(float(s))
