"""The wireless (CMU 802.11 ad hoc) part of an ns-2 script.

This module owns what a CMU-style script says about its mobile nodes and how that becomes the
``[wireless]``, ``[routing]`` and positioned ``[[nodes]]`` of a ternsim scenario:
``$ns node-config`` (which keys, which values), the class variables of the radio, MAC,
antenna, link layer, interface queue and routing agents (checked when the script sets them,
mapped to scenario keys here), each mobile node's snapshot of that configuration taken when
``$ns node`` makes it (as ns-2 copies class defaults into the objects it builds then), node
positions and ``setdest`` moves, and the old CMU wireless trace as ns-2 would write it for the
script (agent ports per node, the agent/router trace switches, ``M`` movement lines).

Answering the commands is :mod:`ternsim.ns2.simulator`'s job; this module has the tables and
the pure functions.
"""

from __future__ import annotations

import math

from . import classes

# typing.TYPE_CHECKING without importing typing (about 5 ms of ternsim ns2's start).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: `-adhocRouting` -> `[routing] protocol`.
ROUTING = {"DSR": "dsr", "AODV": "aodv", "DSDV": "dsdv"}
#: `-ifqType` -> `[wireless] ifq`.
IFQ = {"Queue/DropTail/PriQueue": "priqueue", "CMUPriQueue": "cmu_priqueue"}
#: `-propType` (or the class of `-propInstance`) -> `[wireless] propagation`.
PROPAGATION = {
    "Propagation/TwoRayGround": "two_ray_ground",
    "Propagation/FreeSpace": "free_space",
    "Propagation/Shadowing": "shadowing",
}
#: The shadowing model's variables (`$prop set var value`, `Propagation/Shadowing set var
#: value`) -> `[wireless]` key and conversion. `seed_` is read when the object is made.
SHADOWING_KEYS: dict[str, tuple[str, Any]] = {
    "pathlossExp_": ("path_loss_exponent", float),
    "std_db_": ("shadowing_deviation", lambda v: f"{float(v)!r}dB"),
    "dist0_": ("reference_distance", lambda v: f"{float(v)!r}m"),
}
#: ns-2's predefined seed table has 64 entries (tools/rng.cc, `N_SEEDS_`).
PREDEF_SEEDS = 64


def shadowing_seed(source: str, n: int) -> int:
    """The `[wireless] shadowing_seed` of ``$prop seed SOURCE N``: which of ternsim's shadowing
    streams the draws come from. ns-2 seeds the model's own RNG (shadowing.cc
    `Shadowing::command`): `predef N` takes the N-th of its 64 predefined seeds, `raw N` the
    number itself, `heuristic` the time of day. ternsim draws from its own streams, so these
    only pick one: predef N is stream N, raw N stream 2^32 + N (apart from every predef one),
    and heuristic one fixed stream, 2^33 (a run stays reproducible)."""
    if source == "predef":
        return n
    if source == "raw":
        return (1 << 32) + (n & 0xFFFFFFFF)
    return 1 << 33


#: node-config keys with the one value ternsim models.
ONLY = {
    "llType": "LL",
    "macType": "Mac/802_11",
    "antType": "Antenna/OmniAntenna",
    "phyType": "Phy/WirelessPhy",
    "channelType": "Channel/WirelessChannel",
}
#: Trace switches: the ones ternsim can honour take ON and OFF; `phyTrace` and `eotTrace` only
#: OFF (ternsim writes no PHY or end-of-transmission lines).
TRACE_KEYS = ("agentTrace", "routerTrace", "macTrace", "movementTrace")
OFF_ONLY = {
    "phyTrace": "ternsim writes no PHY lines",
    "eotTrace": "ternsim writes no end-of-transmission lines",
    "toraDebug": "TORA is not modelled",
}
#: Every node-config key accepted, for the messages.
KEYS = (
    "adhocRouting",
    *ONLY,
    "ifqType",
    "ifqLen",
    "propType",
    "propInstance",
    "channel",
    "topoInstance",
    *TRACE_KEYS,
    *OFF_ONLY,
    "addressType",
    "wiredRouting",
    "mobileIP",
    "IncomingErrProc",
    "OutgoingErrProc",
)
#: Keys ns-2 needs before `$ns node` can build a mobile node.
REQUIRED = ("llType", "macType", "ifqType", "ifqLen", "antType", "phyType", "topoInstance")

#: Class variable -> (scenario `[wireless]` or `[routing]` key, conversion of the ns-2 value).
CLASS_KEYS: dict[str, dict[str, tuple[str, Any]]] = {
    "Phy/WirelessPhy": {
        "Pt_": ("tx_power", lambda v: f"{float(v)!r}W"),
        "RXThresh_": ("rx_threshold", lambda v: f"{float(v)!r}W"),
        "CSThresh_": ("cs_threshold", lambda v: f"{float(v)!r}W"),
        "CPThresh_": ("capture_threshold", float),
        "freq_": ("frequency_mhz", lambda v: float(v) / 1e6),
        "L_": ("system_loss", float),
    },
    "Mac/802_11": {
        "dataRate_": ("data_rate", lambda v: f"{classes.bandwidth(v)!r}bps"),
        "basicRate_": ("basic_rate", lambda v: f"{classes.bandwidth(v)!r}bps"),
        "RTSThreshold_": ("rts_threshold", lambda v: f"{int(float(v))}B"),
        "bugFix_timer_": ("bug_fix_timer", classes.boolean),
        "ShortRetryLimit_": ("short_retry_limit", lambda v: int(float(v))),
        "LongRetryLimit_": ("long_retry_limit", lambda v: int(float(v))),
        "CWMin_": ("cw_min", lambda v: int(float(v))),
        "CWMax_": ("cw_max", lambda v: int(float(v))),
    },
    "Antenna/OmniAntenna": {"Z_": ("antenna_height", lambda v: f"{float(v)!r}m")},
    "Agent/DSDV": {
        "perup_": ("periodic_update_interval", lambda v: f"{classes.seconds(v)!r}s"),
        "min_update_periods_": ("min_update_periods", lambda v: int(float(v))),
        "use_mac_": ("use_mac", classes.boolean),
        "be_random_": ("randomize", classes.boolean),
    },
}
#: Variables accepted with any value though no key takes them: they have no effect in ns-2
#: (an agent's ports are set when ns-2 attaches it).
NO_EFFECT = {"sport_", "dport_"}
#: Class variables older CMU scripts set that ns-2.35 no longer reads (no class default, no
#: C++ binding): accepted with any value, as ns-2.35 accepts and ignores them.
IGNORED = {("Phy/WirelessPhy", "Rb_")}
#: The routing agent class of each protocol, whose class variables a node copies.
ROUTING_CLASS = {"DSDV": "Agent/DSDV", "AODV": "Agent/AODV", "DSR": "Agent/DSRAgent"}


def _number(var: str, text: str) -> float:
    """An ns-2 class variable's value as a number (rates in b/s, times in s)."""
    if var.endswith("Rate_") and not var.startswith("PLCP"):
        return classes.bandwidth(text)
    if var in ("mindelay_", "delay_", "SlotTime_", "SIFS_", "perup_"):
        return classes.seconds(text)
    if text.strip().lower() in ("true", "false", "on", "off", "yes", "no"):
        return 1.0 if classes.boolean(text) else 0.0
    return float(text)


def check_class_set(cls: str, var: str, value: str) -> str | None:
    """Why ``cls set var value`` is refused, or None when it is accepted."""
    known = classes.WIRELESS_VARS.get(cls)
    if known is None or (cls, var) in IGNORED:
        return None
    if var not in known:
        names = ", ".join(sorted(known)) or "none"
        return f"{cls} {var}: not supported; supported: {names}"
    try:
        number = _number(var, value)
    except ValueError:
        return f"{cls} {var} {value}: not a number ns-2 reads"
    if var in CLASS_KEYS.get(cls, {}) or var in NO_EFFECT:
        return None
    if number != _number(var, known[var]):
        mapped = ", ".join(CLASS_KEYS.get(cls, {})) or "none"
        return (
            f"{cls} {var} {value}: not supported (ternsim has no equivalent; accepted only at "
            f"ns-2.35's default {known[var]}); settable: {mapped}"
        )
    return None


class Config:
    """The node-config of the script so far (ns-2 keeps it across calls)."""

    def __init__(self) -> None:
        self.values: dict[str, str] = {}

    @property
    def wireless(self) -> bool:
        return bool(self.values.get("adhocRouting"))


def check_key(key: str, value: str) -> str | None:
    """Why ``-key value`` is refused in node-config (objects are checked by the caller)."""
    if key == "adhocRouting":
        if value and value not in ROUTING:
            return f"-adhocRouting {value}: not supported; supported: {', '.join(ROUTING)}"
    elif key in ONLY:
        if value != ONLY[key]:
            return f"-{key} {value}: not supported; supported: {ONLY[key]}"
    elif key == "ifqType":
        if value not in IFQ:
            return f"-ifqType {value}: not supported; supported: {', '.join(IFQ)}"
    elif key == "ifqLen":
        try:
            n = int(value)
        except ValueError:
            return f"-ifqLen {value}: not an integer"
        if n < 2:
            return f"-ifqLen {value}: not supported; supported: 2 or more packets"
    elif key == "propType":
        if value not in PROPAGATION:
            return f"-propType {value}: not supported; supported: {', '.join(PROPAGATION)}"
    elif key in TRACE_KEYS:
        if value not in ("ON", "OFF"):
            return f"-{key} {value}: give ON or OFF"
    elif key in OFF_ONLY:
        if value not in ("OFF", ""):
            return f"-{key} {value}: not supported ({OFF_ONLY[key]}); supported: OFF"
    elif key == "OutgoingErrProc":
        if value:
            return (
                f"-OutgoingErrProc {value}: not supported (an error model between the MAC and "
                "the PHY of the sender); supported: -IncomingErrProc (between the PHY and the "
                "MAC of each receiver)"
            )
    elif key == "addressType":
        if value not in ("flat", "def", "hierarchical"):
            return f"-addressType {value}: not supported; supported: flat, hierarchical"
    elif key in ("wiredRouting", "mobileIP"):
        # Base stations (-wiredRouting ON) and Mobile IP (-mobileIP ON): the wired-cum-wireless
        # Mobile IP pattern; what else a script does with them is checked at `$ns run`.
        if value not in ("ON", "OFF", ""):
            return f"-{key} {value}: give ON or OFF"
    elif key not in ("propInstance", "channel", "topoInstance", "IncomingErrProc"):
        what = (
            " (no energy model in ternsim)"
            if "nergy" in key or key.endswith("Power") or key.startswith("transition")
            else ""
        )
        return f"-{key}: not supported{what}; supported: " + ", ".join(f"-{k}" for k in KEYS)
    return None


# --- the scenario ----------------------------------------------------------------------------


def snapshot(config: dict[str, Any], class_values: dict[str, dict[str, str]]) -> dict[str, Any]:
    """What a mobile node made now copies: its [wireless] and [routing] settings.

    ``config`` holds the node-config values with objects already resolved to their classes
    (`propInstance` -> `propType`) and, under shadowing, the model's variables and seed
    stream under `shadowing`; ``class_values`` the wireless classes' variables now."""
    wireless: dict[str, Any] = {}
    for cls in ("Mac/802_11", "Phy/WirelessPhy", "Antenna/OmniAntenna"):
        for var, (key, conv) in CLASS_KEYS[cls].items():
            wireless[key] = conv(class_values[cls][var])
    if wireless["bug_fix_timer"]:
        # ns-2.35's default is the core's: the key is written only for scripts that turn the
        # fix off (the wireless tutorial's preamble).
        del wireless["bug_fix_timer"]
    wireless["propagation"] = PROPAGATION[config["propType"]]
    shadowing = config.get("shadowing")
    if shadowing is not None:
        for var, (key, conv) in SHADOWING_KEYS.items():
            wireless[key] = conv(shadowing[var])
        wireless["shadowing_seed"] = shadowing["seed"]
    if config.get("incoming_loss") is not None:
        wireless["incoming_loss"] = config["incoming_loss"]
    wireless["ifq"] = IFQ[config["ifqType"]]
    wireless["ifq_length"] = int(config["ifqLen"])
    protocol = config["adhocRouting"]
    routing: dict[str, Any] = {"protocol": ROUTING[protocol]}
    for var, (key, conv) in CLASS_KEYS.get(ROUTING_CLASS[protocol], {}).items():
        routing[key] = conv(class_values[ROUTING_CLASS[protocol]][var])
    if routing.get("randomize") is True:
        del routing["randomize"]  # ns-2's be_random_ 1, the core's default: written when off
    return {"wireless": wireless, "routing": routing}


class Move:
    """One `setdest`: at `time`, head for (x, y) at `speed` m/s."""

    def __init__(self, time: float, x: float, y: float, speed: float, seq: int) -> None:
        self.time = time
        self.x = x
        self.y = y
        self.speed = speed
        self.seq = seq


def position_at(start: tuple[float, float], moves: list[Move], t: float) -> tuple[float, float]:
    """Where a node starting at ``start`` is at ``t`` after its ``moves`` (in time order), as
    ns-2's MobileNode moves it: each setdest heads from where the node is then, in a straight
    line, and the node stops at the destination."""
    x, y = start
    for i, m in enumerate(moves):
        if m.time > t:
            break
        end = moves[i + 1].time if i + 1 < len(moves) and moves[i + 1].time <= t else t
        dx, dy = m.x - x, m.y - y
        dist = math.hypot(dx, dy)
        if dist > 0.0 and m.speed > 0.0:
            d = min(m.speed * (end - m.time), dist)
            x, y = x + dx * d / dist, y + dy * d / dist
    return x, y


def movement_lines(
    node_id: int, start: tuple[float, float], moves: list[Move], nam: bool = False
) -> list[str]:
    """ns-2's `M` lines of a node (movementTrace ON): one per setdest, with the position the
    node has then (MobileNode::log_movement); with ``nam``, its nam `n` lines instead."""
    out = []
    for i, m in enumerate(moves):
        x, y = position_at(start, moves[:i], m.time)
        if nam:
            from .nam import movement_line

            out.append(movement_line(node_id, m.time, x, y, m))
            continue
        out.append(
            f"M {m.time:.5f} {node_id} ({x:.2f}, {y:.2f}, 0.00), ({m.x:.2f}, {m.y:.2f}), "
            f"{m.speed:.2f}"
        )
    return out
