"""Differential conformance with ns-2.35: the same case run by ``ns`` and by ternsim.

Each case is an ns-2 script shipped in ``scenarios/conformance/``, run unchanged by ``ns`` and by
``ternsim ns2`` (its ternsim scenario twin sits beside it, for rerunning one side by hand;
chain.tcl's translation equals its twin exactly, tested). Two kinds of comparison:

- **Deterministic** cases (wired, drop-tail, no random loss) compare the ns-2 trace files line
  by line. ``identical`` means byte for byte; ``equal up to ties`` means the same lines with the
  same times, some of them in another order within one timestamp: ns-2 keeps time in a double,
  so two events due at the same instant are ordered by rounding noise, which ternsim's integer
  clock does not reproduce.
- **Stochastic** cases (802.11, RED) run seeds 1..N on each side and compare per-metric means:
  they agree when each mean lies within the other's 95 % confidence interval, or the two are
  within 5 % of each other. The two simulators draw different random streams, so only
  distributions can be compared. The RED case has no twin scenario: its ternsim side is the
  same ns-2 script as ``ternsim ns2`` translates it.
- **MANET** cases (``manet.tcl``, ``--full`` only): 50 mobile nodes, AODV, DSR or DSDV, TCP or
  CBR connections; each seed's movement (setdest) and connection (cbrgen) files are written
  once and read by both simulators. Besides the TCP senders' own counters, the metrics are
  counted from the wireless trace both write (routing packets, drops, CBR delivery and delay)
  and, for the MAC, from the MAC trace lines both write.

``run_cases`` needs ``ns`` on the PATH (Debian/Ubuntu: ``apt-get install ns2``).
"""

from __future__ import annotations

import math
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .paths import scenario_path
from .student_t import t975, t_two_sided_p

__all__ = [
    "CASES",
    "Case",
    "NsMissing",
    "compare_traces",
    "run_cases",
    "script_path",
    "write_html",
]

#: What the "at least as good as 5 % apart" rule of the stochastic verdict allows.
RELATIVE_TOLERANCE = 0.05


class NsMissing(RuntimeError):
    """``ns`` (ns-2) is not on the PATH."""


@dataclass(frozen=True)
class Case:
    """One conformance case: the ns-2 command line, the ternsim twin, how to compare."""

    name: str
    kind: str  # "trace" (deterministic), "stats" (stochastic) or "red" (stochastic, no twin)
    script: str  # file in scenarios/conformance/
    twin: str | None  # scenario in scenarios/conformance/; None: the script, translated
    ns_args: tuple[str, ...]
    overrides: dict[str, Any] = field(default_factory=dict)
    fast: bool = True
    seeds: int = 10
    #: What a stats case's script prints: "tcp" (a line "acked A rexmit R timeouts T kbps
    #: K" per flow, summed over flows), "cbr" ("first F npkts N nlost L") or "flood" ("rreq
    #: sent S received R collisions C"). "manet-tcp" and
    #: "manet-cbr": manet.tcl's lines and counts from its traces (see :func:`_manet_metrics`).
    metrics: str = "tcp"
    #: MANET cases: the setdest movement file (scen.tcl) each seed's run reads, as keyword
    #: arguments of :func:`ternsim.generators.setdest` (its seed is the run's), and the
    #: cbrgen connection file (conn.tcl), as those of :func:`ternsim.generators.cbrgen`.
    setdest: dict[str, Any] | None = None
    cbrgen: dict[str, Any] | None = None


def _wired(name: str, agent: str, sink: str, tcp: str, fast: bool) -> Case:
    overrides: dict[str, Any] = {"flows.0.tcp": tcp, "duration": "20s"}
    if sink.endswith("DelAck"):
        overrides["tcp_defaults.delayed_ack"] = True
    return Case(
        name=f"wired-{name}",
        kind="trace",
        script="wired.tcl",
        twin="wired",
        ns_args=(agent, sink, "20"),
        overrides=overrides,
        fast=fast,
    )


#: Seeds for cases whose metrics hang on rare events, where 10 seeds decide nothing: a DSDV
#: chain loses a neighbour (three updates in a row collided) in about one run in five, and
#: then sometimes forms a loop that stalls the flow for tens of seconds; half the runs of a
#: 4-hop Vegas chain retransmit nothing. Over 60 seeds each (2026-11-27) both simulators
#: agree on all of them; 10 seeds made one outlier run a "difference".
RARE_EVENT_SEEDS = 30

#: Seeds for the DSDV chain's TCP case. Its timeouts come from the runs where a lost update
#: stalls the route (about one in five), so their mean moves by a timeout per run between
#: one batch of 40 seeds and the next in either simulator (2026-11-28: ns-2 against ternsim
#: 2.23 vs 3.33 over seeds 1-40, 3.67 vs 2.65 over seeds 101-140, 2.96 vs 2.73 over all
#: 120, t = -0.9); at 30 seeds the row's verdict was a coin toss.
DSDV_CHAIN_TCP_SEEDS = 120


def _chain(tcp: str, routing: str, hops: int, fast: bool, seeds: int = 10) -> Case:
    ns_tcp = {"reno": "Reno", "newreno": "Newreno", "vegas": "Vegas", "sack": "Sack1"}[tcp]
    return Case(
        name=f"chain{hops}-{tcp}-{routing}",
        kind="stats",
        script="chain.tcl",
        twin="chain",
        ns_args=(ns_tcp, routing.upper(), "{seed}", str(hops), "100", "0"),
        overrides={
            "flows.0.tcp": tcp,
            "flows.0.dst": f"n{hops}",
            "routing.protocol": routing,
            "topology.chain.hops": hops,
        },
        fast=fast,
        seeds=seeds,
    )


def _no_rts_chain() -> Case:
    # RTSThreshold_ 3000: DATA frames go without RTS/CTS (basic access).
    return Case(
        name="chain7-newreno-dsr-norts",
        kind="stats",
        script="chain.tcl",
        twin="chain",
        ns_args=("Newreno", "DSR", "{seed}", "7", "100", "0", "0", "3000"),
        fast=False,
    )


def _dsdv_chain() -> Case:
    # DSDV spreads a 7-hop route in about 75-110 s (both simulators, chain7-cbr-dsdv): the
    # flow starts at 150 s, when every seed has its route, and runs 100 s.
    return Case(
        name="chain7-newreno-dsdv",
        kind="stats",
        script="chain.tcl",
        twin="chain",
        ns_args=("Newreno", "DSDV", "{seed}", "7", "250", "0", "150"),
        fast=False,
        seeds=DSDV_CHAIN_TCP_SEEDS,
    )


def _cbr_chain(routing: str) -> Case:
    return Case(
        name=f"chain7-cbr-{routing}",
        kind="stats",
        script="chain_cbr.tcl",
        twin=None,
        ns_args=(routing.upper(), "{seed}", "7", "200", "40Kb"),
        fast=False,
        metrics="cbr",
        seeds=RARE_EVENT_SEEDS if routing == "dsdv" else 10,
    )


#: Seeds for the 8-flow chains: eight flows contend for one chain, and each run's counts
#: swing widely (Vegas retransmissions 109 ± 22 in ns-2 over seeds 1-10; one seed's count
#: can be twice another's), so 10 seeds flag rows either way by chance (2026-11-28: three
#: rows with p 0.04-0.12 over 10 seeds; every row agreed over 30 the day before).
MANY_FLOW_SEEDS = 30


def _multi_flow(tcp: str, flows: int, seeds: int = 10) -> Case:
    # ding-vegasw's own script: FLOWS FTP flows from n0 to n7 over DSR, 100 s.
    ns_tcp = {"newreno": "Newreno", "vegas": "Vegas"}[tcp]
    return Case(
        name=f"chain7-{tcp}-{flows}flows-dsr",
        kind="stats",
        script="ding-vegasw/chain.tcl",
        twin=None,
        ns_args=(ns_tcp, str(flows), "{seed}", "7", "100", "0"),
        fast=False,
        seeds=seeds,
    )


def _pairs(layout: str, routing: str, rts: bool) -> Case:
    # pairs.tcl: two NewReno flows in one neighbourhood, 50 s. "hidden": n0 -> n1 <- n2 with
    # carrier sense cut to the reception range (a hidden-terminal pair); "cross": two 2-hop
    # flows crossing at the centre node.
    args = (layout, "Newreno", routing.upper(), "{seed}", "50") + (() if rts else ("3000",))
    return Case(
        name=f"{layout}-newreno-{routing}" + ("" if rts else "-norts"),
        kind="stats",
        script="pairs.tcl",
        twin=None,
        ns_args=args,
        fast=False,
    )


def _lossy(name: str, agent: str, sink: str, loss: str, fast: bool, seeds: int = 10) -> Case:
    """lossy.tcl: one TCP flow, 20 s, through an error model (or an outage) on the
    bottleneck; deterministic except ``rate`` and ``rate2``, which run several seeds on each
    side (``rate``: ternsim replays ns-2's own draws, the runs are the same; ``rate2``: two
    models draw, ternsim uses its own stream)."""
    random_loss = loss.startswith("rate")
    return Case(
        seeds=seeds,
        name=f"lossy-{loss}-{name}",
        kind="stats" if random_loss else "trace",
        script="lossy.tcl",
        twin=None,
        ns_args=(agent, sink, "20", loss, "{seed}" if random_loss else "1"),
        fast=fast,
    )


#: MANET cases: 50 nodes in 500 m x 500 m for 100 s, random waypoint up to 20 m/s.
MANET_SECONDS = 100
_MANET_MOVES: dict[str, dict[str, Any]] = {
    # setdest -v 1 -n 50 -p PAUSE -M 20 -t 100 -x 500 -y 500
    "v1p0": {"version": 1, "pause": 0.0, "max_speed": 20.0},
    "v1p50": {"version": 1, "pause": 50.0, "max_speed": 20.0},
    # setdest -v 2 -n 50 -s 1 -m 1 -M 20 -t 100 -P 1 -p 0 -x 500 -y 500
    "v2p0": {"version": 2, "pause": 0.0, "max_speed": 20.0, "min_speed": 1.0},
}


def _manet(moves: str, traffic: str, routing: str) -> Case:
    """manet.tcl: the 50-node network, its movement file from setdest (MOVES) and its
    connections from cbrgen (8 TCP Reno/FTP connections, or 10 CBR flows of 4 packets/s of
    512 bytes), both generated with the seed of the run and read by both simulators."""
    conns = (
        {"kind": "tcp", "max_connections": 8}
        if traffic == "tcp"
        else {"kind": "cbr", "max_connections": 10, "rate": 4.0}
    )
    return Case(
        name=f"manet-{moves}-{traffic}-{routing}",
        kind="stats",
        script="manet.tcl",
        twin=None,
        ns_args=(routing.upper(), traffic, "{seed}", str(MANET_SECONDS), "1"),
        fast=False,
        metrics=f"manet-{traffic}",
        setdest={
            "nodes": 50,
            "time": float(MANET_SECONDS),
            "width": 500.0,
            "height": 500.0,
            **_MANET_MOVES[moves],
        },
        cbrgen={"nodes": 50, **conns},
    )


def _base_station(tcp: str, hops: int) -> Case:
    """basestation.tcl: a wired host to a mobile node `hops` DSDV hops from its base
    station (the tutorial's wired-cum-wireless pattern), from 60 s to 160 s."""
    ns_tcp = {"reno": "Reno", "newreno": "Newreno", "vegas": "Vegas", "sack": "Sack1"}[tcp]
    return Case(
        name=f"basestation{hops}-{tcp}-dsdv",
        kind="stats",
        script="basestation.tcl",
        twin=None,
        ns_args=(ns_tcp, "{seed}", str(hops), "160", "60"),
        fast=False,
        # Multi-hop: a late DSDV route to the base station stalls a run now and then.
        seeds=RARE_EVENT_SEEDS if hops > 1 else 10,
    )


def _flood() -> Case:
    """flood.tcl: AODV route discovery's broadcast storm alone (50 static nodes, requests
    nobody answers), 100 s; the script counts the MAC trace's request frames sent, received
    and lost in collisions."""
    return Case(
        name="flood-aodv",
        kind="stats",
        script="flood.tcl",
        twin=None,
        ns_args=("{seed}", "100"),
        fast=False,
        metrics="flood",
    )


def _udp(queue: str, seed: int, fast: bool) -> Case:
    """udp.tcl: a random CBR, an Exponential and a Pareto source through one bottleneck
    (drop-tail or RED), 30 s. Their draws replay ns-2's default RNG in run order, so the
    traces compare line by line, one seed per case."""
    return Case(
        name=f"udp-{queue.lower()}-seed{seed}",
        kind="trace",
        script="udp.tcl",
        twin=None,
        ns_args=(queue, str(seed), "30"),
        fast=fast,
    )


def _lossy_chain(routing: str, hops: int, rate: str, drop: bool) -> Case:
    """lossy_chain.tcl: chain.tcl's NewReno flow, 100 s, with an error model between every
    node's PHY and MAC (`-IncomingErrProc`) losing each frame with probability RATE, taken
    away before the MAC (DROP 1, a drop target) or passed on in error (0)."""
    percent = round(float(rate) * 100)
    return Case(
        name=f"chain{hops}-newreno-{routing}-inerr{percent}" + ("" if drop else "-nodrop"),
        kind="stats",
        script="lossy_chain.tcl",
        twin=None,
        ns_args=(
            "Newreno",
            routing.upper(),
            "{seed}",
            str(hops),
            "100",
            rate,
            "1" if drop else "0",
        ),
        fast=False,
    )


def _lossy_cbr_chain(routing: str, hops: int, loss: str) -> Case:
    """lossy_chain_cbr.tcl: chain_cbr.tcl's 64 kb/s CBR flow, 100 s, with every node's
    incoming error model losing each frame with probability LOSS before the MAC. The
    LossMonitor's `nlost_` counts sequence gaps, so packets DSR delivers out of order (from
    its send buffer, salvaged) count too: it tells whether route errors and rediscoveries
    happen as often as in ns-2."""
    percent = round(float(loss) * 100)
    return Case(
        name=f"chain{hops}-cbr-{routing}-inerr{percent}",
        kind="stats",
        script="lossy_chain_cbr.tcl",
        twin=None,
        ns_args=(routing.upper(), "{seed}", str(hops), "100", "64Kb", loss, "1"),
        fast=False,
        metrics="cbr",
        seeds=RARE_EVENT_SEEDS,
    )


def _red(duration: int, fast: bool) -> Case:
    return Case(
        name="dumbbell-red",
        kind="red",
        script="red.tcl",
        twin=None,
        ns_args=("{seed}", str(duration), "ns.tr", "1"),
        fast=fast,
    )


CASES: list[Case] = [
    _wired("tahoe", "TCP", "TCPSink", "tahoe", True),
    _wired("reno", "TCP/Reno", "TCPSink", "reno", True),
    _wired("newreno", "TCP/Newreno", "TCPSink", "newreno", True),
    _wired("newreno-delack", "TCP/Newreno", "TCPSink/DelAck", "newreno", True),
    _wired("sack", "TCP/Sack1", "TCPSink/Sack1", "sack", False),
    _wired("vegas", "TCP/Vegas", "TCPSink", "vegas", False),
    _wired("sack-delack", "TCP/Sack1", "TCPSink/Sack1/DelAck", "sack", False),
    _chain("newreno", "dsr", 7, True),
    _chain("newreno", "aodv", 7, True),
    _chain("vegas", "dsr", 7, True),
    _chain("vegas", "aodv", 7, False),
    _chain("reno", "dsr", 7, False),
    _chain("newreno", "dsr", 4, False),
    _chain("vegas", "dsr", 4, False, seeds=RARE_EVENT_SEEDS),
    # 16 hops: ns-2's DSR finds no route (as the ding-vegasw paper's 16-hop point); AODV does.
    _chain("newreno", "dsr", 16, False),
    _chain("newreno", "aodv", 16, False),
    # Every chain length from 1 to 8 and every TCP (Sack1 included) with one routing
    # protocol or the other, so that each factor of the chain grid has a case of its own.
    _chain("newreno", "aodv", 1, False),
    _chain("newreno", "dsr", 2, False),
    _chain("reno", "aodv", 2, False),
    _chain("vegas", "aodv", 3, False),
    _chain("sack", "dsr", 5, False),
    _chain("reno", "aodv", 6, False),
    _chain("sack", "dsr", 7, False),
    _chain("sack", "aodv", 7, False),
    # Vegas retransmits rarely on a chain (as over 4 hops): ns-2 0.7 ± 1.6 per run over
    # seeds 1-10, where one run with a loss decides the mean.
    _chain("vegas", "dsr", 8, False, seeds=RARE_EVENT_SEEDS),
    _no_rts_chain(),
    _dsdv_chain(),
    _cbr_chain("dsdv"),
    _multi_flow("vegas", 4),
    _multi_flow("newreno", 2),
    _multi_flow("vegas", 8, seeds=MANY_FLOW_SEEDS),
    _multi_flow("newreno", 8, seeds=MANY_FLOW_SEEDS),
    _pairs("hidden", "aodv", True),
    _pairs("hidden", "aodv", False),
    _pairs("cross", "dsr", True),
    _pairs("cross", "aodv", False),
    _flood(),
    _manet("v1p0", "tcp", "aodv"),
    _manet("v1p0", "tcp", "dsr"),
    _manet("v1p0", "tcp", "dsdv"),
    _manet("v1p0", "cbr", "aodv"),
    _manet("v1p0", "cbr", "dsr"),
    _manet("v1p0", "cbr", "dsdv"),
    _manet("v1p50", "tcp", "aodv"),
    _manet("v1p50", "cbr", "dsr"),
    _manet("v2p0", "tcp", "dsr"),
    _manet("v2p0", "cbr", "aodv"),
    _manet("v2p0", "cbr", "dsdv"),
    _base_station("newreno", 3),
    _base_station("vegas", 1),
    _red(30, True),
    _lossy_chain("aodv", 3, "0.05", True),
    _lossy_chain("aodv", 3, "0.05", False),
    _lossy_chain("dsr", 4, "0.1", True),
    _lossy_cbr_chain("dsr", 4, "0.1"),
    _udp("DropTail", 1, True),
    _udp("DropTail", 2, False),
    _udp("RED", 1, False),
    _udp("RED", 2, False),
    _lossy("tahoe", "TCP", "TCPSink", "list", True),
    _lossy("reno", "TCP/Reno", "TCPSink", "list", False),
    _lossy("newreno", "TCP/Newreno", "TCPSink", "periodic", False),
    _lossy("sack", "TCP/Sack1", "TCPSink/Sack1", "module", False),
    _lossy("reno", "TCP/Reno", "TCPSink", "down", False),
    _lossy("reno", "TCP/Reno", "TCPSink", "rate", False),
    _lossy("newreno", "TCP/Newreno", "TCPSink", "rate", False),
    # Vegas's loss detection reads ns-2's send slots (tcp/send_ring.rs): a list of drops and
    # an outage exercise its fine-grained retransmissions and its timeout.
    _lossy("vegas", "TCP/Vegas", "TCPSink", "list", False),
    _lossy("vegas", "TCP/Vegas", "TCPSink", "down", False),
    _lossy("vegas", "TCP/Vegas", "TCPSink", "rate", False),
    _lossy("reno", "TCP/Reno", "TCPSink", "rate2", False, seeds=40),
]


def _ns() -> str:
    ns = shutil.which("ns")
    if ns is None:
        raise NsMissing("ns-2 (`ns`) is not on the PATH; on Debian or Ubuntu: apt-get install ns2")
    return ns


def script_path(case: Case) -> Path:
    """The case's ns-2 script: a bare name is a file of scenarios/conformance/, a path is
    under scenarios/ (ding-vegasw's own script)."""
    return scenario_path(case.script if "/" in case.script else f"conformance/{case.script}")


def _run_script(who: str, command: list[str], case: Case, args: list[str], cwd: Path) -> str:
    """The case's script run by ``command`` (``ns`` or ``ternsim ns2``, each a process of its
    own, as a user runs it) in ``cwd``; its stdout, or RuntimeError with the end of stderr."""
    script = script_path(case)
    done = subprocess.run(
        [*command, str(script), *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"{who} {case.script} {' '.join(args)} failed: {done.stderr[-500:]}")
    return done.stdout


def _run_ns(case: Case, args: list[str], cwd: Path) -> str:
    return _run_script("ns", [_ns()], case, args, cwd)


def _run_ternsim(case: Case, args: list[str], cwd: Path) -> str:
    return _run_script("ternsim ns2", [sys.executable, "-m", "ternsim", "ns2"], case, args, cwd)


def compare_traces(ns_text: str, ternsim_text: str, time_field: int = 1) -> dict[str, Any]:
    """Compares two ns-2 wired traces (or two nam traces, whose time is word 2: see
    :func:`compare_nam`): the verdict and where they first differ."""
    a, b = ns_text.splitlines(), ternsim_text.splitlines()
    if a == b:
        return {"verdict": "identical", "lines": len(a), "reordered": 0}

    def by_time(lines: list[str]) -> dict[str, list[str]]:
        groups: dict[str, list[str]] = {}
        for line in lines:
            words = line.split(" ", time_field + 1)
            time = words[time_field] if len(words) > time_field else ""
            groups.setdefault(time, []).append(line)
        return groups

    ga, gb = by_time(a), by_time(b)
    if list(ga) == list(gb) and all(sorted(ga[t]) == sorted(gb[t]) for t in ga):
        reordered = sum(x != y for x, y in zip(a, b))
        return {"verdict": "equal up to ties", "lines": len(a), "reordered": reordered}
    first = next(
        (i for i, (x, y) in enumerate(zip(a, b)) if x != y),
        min(len(a), len(b)),
    )
    return {
        "verdict": "differs",
        "lines": len(a),
        "ternsim_lines": len(b),
        "first_difference": first + 1,
        "ns2_line": a[first] if first < len(a) else "",
        "ternsim_line": b[first] if first < len(b) else "",
    }


_NAM_TIME = re.compile(r"(?<= -t )(\d[0-9.e+-]*)")


def nam_microseconds(text: str) -> str:
    """A nam trace with each ``-t`` time rounded to the microsecond as ns-2 rounds its wired
    trace's times (``floor(t * 1e6 + 0.5) / 1e6``, printed ``%.15g``): ns-2 writes nam times
    with 15 digits of its double clock, ternsim's clock counts nanoseconds and its nam times
    are those of its wired trace."""

    def rounded(m: re.Match[str]) -> str:
        return format(math.floor(float(m.group(1)) * 1e6 + 0.5) / 1e6, ".15g")

    return _NAM_TIME.sub(rounded, text)


def compare_nam(ns_text: str, ternsim_text: str) -> dict[str, Any]:
    """Compares two nam traces as :func:`compare_traces` compares wired traces, times to the
    microsecond (:func:`nam_microseconds`)."""
    return compare_traces(nam_microseconds(ns_text), nam_microseconds(ternsim_text), 2)


def _run_trace_case(case: Case) -> list[dict[str, Any]]:
    with tempfile.TemporaryDirectory(prefix="ternsim-conformance-") as tmp:
        _run_ns(case, [*case.ns_args, "ns.tr"], Path(tmp))
        ns_text = (Path(tmp) / "ns.tr").read_text()
        _run_ternsim(case, [*case.ns_args, "ternsim.tr"], Path(tmp))
        ts_text = (Path(tmp) / "ternsim.tr").read_text()
    cmp = compare_traces(ns_text, ts_text)
    detail = f"{cmp['lines']:,} lines"
    if cmp["verdict"] == "equal up to ties":
        detail += f", {cmp['reordered']} in another order within a timestamp"
    elif cmp["verdict"] == "differs":
        detail += f"; first difference at line {cmp['first_difference']}"
    return [
        {
            "case": case.name,
            "metric": "trace",
            "ns2": f"{len(ns_text.splitlines()):,} lines",
            "ternsim": f"{len(ts_text.splitlines()):,} lines",
            "verdict": cmp["verdict"],
            "detail": detail,
        }
    ]


_NS_STATS = re.compile(r"acked (-?\d+) rexmit (\d+) timeouts (\d+) kbps ([0-9.eE+-]+)")


def _mean_ci(values: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95 % confidence interval (Student t)."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, math.inf
    q = t975(len(values) - 1)
    return mean, q * statistics.stdev(values) / math.sqrt(len(values))


def stats_verdict(ns_values: list[float], ternsim_values: list[float]) -> str:
    """``agrees`` if each mean is inside the other's 95 % interval or they are within 5 %."""
    mn, hn = _mean_ci(ns_values)
    mt, ht = _mean_ci(ternsim_values)
    inside = abs(mn - mt) <= hn and abs(mn - mt) <= ht
    close = abs(mn - mt) <= RELATIVE_TOLERANCE * max(abs(mn), abs(mt), 1e-12)
    return "agrees" if inside or close else "differs"


def two_sample_p(a: list[float], b: list[float]) -> float:
    """The two-sided p-value of Student's two-sample t-test with pooled variance: how often
    two samples of one distribution have means this far apart. The verdict's interval rule
    is stricter than this test: for two samples of one distribution with equal spreads it
    says "differs" for about one metric in seven (the difference of the means exceeds one
    interval's half-width with probability P(|Z| > 1.96 / √2) ≈ 0.17 for large samples),
    where the test, at p < 0.05, says so for one in twenty. The p-value says which
    differences more seeds are likely to keep."""
    na, nb = len(a), len(b)
    if na < 2 or nb < 2:
        return math.nan
    ma, mb = statistics.fmean(a), statistics.fmean(b)
    pooled = ((na - 1) * statistics.variance(a) + (nb - 1) * statistics.variance(b)) / (na + nb - 2)
    if pooled == 0.0:
        return 1.0 if ma == mb else 0.0
    t = (ma - mb) / math.sqrt(pooled * (1.0 / na + 1.0 / nb))
    return t_two_sided_p(t, na + nb - 2)


_NS_CBR = re.compile(r"first (-?[0-9.eE+-]+) npkts (\d+) nlost (\d+)")


def _tcp_metrics(out: str) -> dict[str, float] | None:
    """The scripts' own lines, summed over flows: goodput from each sender's ack_ at the end,
    retransmitted packets, timeouts."""
    found = _NS_STATS.findall(out)
    if not found:
        return None
    return {
        "goodput kb/s": sum(float(f[3]) for f in found),
        "rexmits": sum(float(f[1]) for f in found),
        "timeouts": sum(float(f[2]) for f in found),
    }


def _cbr_metrics(out: str) -> dict[str, float] | None:
    m = _NS_CBR.search(out)
    if m is None:
        return None
    return {
        "first arrival s": float(m.group(1)),
        "received": float(m.group(2)),
        "LossMonitor nlost": float(m.group(3)),
    }


_NS_FLOOD = re.compile(r"^rreq sent (\d+) received (\d+) collisions (\d+)$", re.M)


def _flood_metrics(out: str) -> dict[str, float] | None:
    m = _NS_FLOOD.search(out)
    if m is None:
        return None
    return {
        "RREQ frames sent": float(m.group(1)),
        "RREQ frames received": float(m.group(2)),
        "RREQ collision drops": float(m.group(3)),
    }


_METRICS = {"tcp": _tcp_metrics, "cbr": _cbr_metrics, "flood": _flood_metrics}


#: ns-2's packet types of routing control packets (DSDV's are "message").
_ROUTING_TYPES = frozenset({"AODV", "DSR", "message"})


def _manet_trace_metrics(path: Path, traffic: str) -> dict[str, float]:
    """Counts from a wireless trace (old format, agent and routing lines): routing control
    packets sent or forwarded (RTR ``s``/``f`` lines of AODV, DSR or DSDV's ``message``),
    drops by the interface queue (``D ... IFQ``, any packet) and data packets dropped by
    routing (``D ... RTR`` of TCP or CBR packets: no route, link failure callback; not the
    ``D RTR TTL`` lines of AODV requests whose ring TTL runs out), and for CBR the agents'
    sent and received packets, the delivery ratio and the mean and median delay of the
    received ones (matched by packet id; the mean is dominated by the few packets an ARP
    entry or a route holds for tens of seconds)."""
    routing = ifq = rtr = 0
    sent: dict[str, float] = {}
    delays: list[float] = []
    with path.open() as f:
        for line in f:
            x = line.split(None, 7)
            if len(x) < 7:
                continue
            act, layer, kind = x[0], x[3], x[6]
            if layer == "RTR":
                if act in ("s", "f") and kind in _ROUTING_TYPES:
                    routing += 1
                elif act == "D" and kind not in _ROUTING_TYPES:
                    rtr += 1
            elif layer == "IFQ" and act == "D":
                ifq += 1
            elif layer == "AGT" and kind == "cbr":
                if act == "s":
                    sent[x[5]] = float(x[1])
                elif act == "r" and x[5] in sent:
                    delays.append(float(x[1]) - sent[x[5]])
    got: dict[str, float] = {}
    if traffic == "cbr":
        got["CBR sent"] = float(len(sent))
        got["CBR received"] = float(len(delays))
        got["PDR %"] = 100.0 * len(delays) / len(sent) if sent else 0.0
        got["delay ms"] = 1000.0 * statistics.fmean(delays) if delays else 0.0
        got["median delay ms"] = 1000.0 * statistics.median(delays) if delays else 0.0
    got["routing pkts"] = float(routing)
    got["IFQ drops"] = float(ifq)
    got["routing drops"] = float(rtr)
    return got


def _mac_metrics(path: Path) -> dict[str, float]:
    """The MAC counts from a trace's MAC lines (both simulators write them under
    ``-macTrace ON``): failed attempts (RTS sent without a CTS
    back, unicast frames sent without an ACK back) and frames dropped at the retry limit
    (``D ... MAC RET`` lines of the frame: when the RTS retries run out, ns-2's
    ``RetransmitRTS`` discards the RTS and the DATA frame, two lines for one frame, and only
    the DATA frame's is counted)."""
    rts = cts = data = acks = ret = 0
    with path.open() as f:
        for line in f:
            x = line.split(None, 10)
            if len(x) < 10 or x[3] != "MAC":
                continue
            if x[0] == "s":
                if x[6] == "RTS":
                    rts += 1
                elif x[6] not in ("CTS", "ACK") and x[9] != "ffffffff":
                    data += 1
            elif x[0] == "r":
                if x[6] == "CTS":
                    cts += 1
                elif x[6] == "ACK":
                    acks += 1
            elif x[0] == "D" and x[4] == "RET" and x[6] != "RTS":
                ret += 1
    return {
        "MAC RTS sent": float(rts),
        "MAC failed attempts": float(rts - cts + data - acks),
        "MAC retry drops": float(ret),
    }


def write_manet_inputs(case: Case, seed: int, folder: Path) -> None:
    """Writes a MANET case's scen.tcl (setdest) and conn.tcl (cbrgen) for ``seed`` into
    ``folder``: ternsim's generators, deterministic per seed (ns-2's own setdest seeds itself
    from the clock), the same files for both simulators."""
    from . import generators

    assert case.setdest is not None and case.cbrgen is not None
    (folder / "scen.tcl").write_text(generators.setdest(**case.setdest, seed=seed))
    (folder / "conn.tcl").write_text(generators.cbrgen(**case.cbrgen, seed=seed))


def _manet_run(case: Case, seed: int, tmp: Path) -> tuple[dict[str, float], dict[str, float]]:
    """One seed of a MANET case: its movement and connection files written into ``tmp``,
    manet.tcl run there by ns and by ternsim; each side's metrics."""
    write_manet_inputs(case, seed, tmp)
    traffic = case.metrics.removeprefix("manet-")
    args = [a.format(seed=seed) for a in case.ns_args]
    sides = []
    for who, command in (
        ("ns", [_ns()]),
        ("ternsim ns2", [sys.executable, "-m", "ternsim", "ns2"]),
    ):
        out = _run_script(who, command, case, args, tmp)
        got = (_tcp_metrics(out) or _NO_TCP) if traffic == "tcp" else {}
        got |= _manet_trace_metrics(tmp / "out.tr", traffic)
        got |= _mac_metrics(tmp / "out.tr")
        sides.append(got)
    return sides[0], sides[1]


_NO_TCP = {"goodput kb/s": 0.0, "rexmits": 0.0, "timeouts": 0.0}


def _run_stats_case(case: Case, seeds: int) -> list[dict[str, Any]]:
    ns: dict[str, list[float]] = {}
    ts: dict[str, list[float]] = {}
    if case.setdest is not None:
        for seed in range(1, seeds + 1):
            with tempfile.TemporaryDirectory(prefix="ternsim-conformance-") as tmp:
                a, b = _manet_run(case, seed, Path(tmp))
            for got, values in ((a, ns), (b, ts)):
                for k, v in got.items():
                    values.setdefault(k, []).append(v)
        return _stats_rows(case, seeds, ns, ts)
    parse = _METRICS[case.metrics]
    with tempfile.TemporaryDirectory(prefix="ternsim-conformance-") as tmp:
        for seed in range(1, seeds + 1):
            args = [a.format(seed=seed) for a in case.ns_args]
            for who, run, values in (("ns", _run_ns, ns), ("ternsim ns2", _run_ternsim, ts)):
                got = parse(run(case, args, Path(tmp)))
                if got is None:
                    raise RuntimeError(f"{who} {case.script}: no statistics line in its output")
                for k, v in got.items():
                    values.setdefault(k, []).append(v)
    return _stats_rows(case, seeds, ns, ts)


_NS_RED = re.compile(r"acked (\d+) rexmit (\d+) timeouts (\d+) early (\d+)")


def _ns_red_run(case: Case, seed: int, tmp: Path) -> dict[str, float]:
    """One seed of the RED case under ns: its printed sums, the drops at the bottleneck
    (its "d" lines, link 0 -> 1) and the mean of RED's average queue over arrivals."""
    args = [a.format(seed=seed) for a in case.ns_args]
    m = _NS_RED.search(_run_ns(case, args, tmp))
    if m is None:
        raise RuntimeError(f"ns {case.script}: no statistics line in its output")
    acked, rexmit, timeouts, early = (float(g) for g in m.groups())
    drops = 0
    for line in (tmp / "ns.tr").read_text().splitlines():
        if line.startswith("d ") and line.split(" ", 4)[2:4] == ["0", "1"]:
            drops += 1
    ave = [float(line.split()[2]) for line in (tmp / "red-ave.tr").read_text().splitlines()[1:]]
    duration = float(case.ns_args[1])
    return {
        "goodput kb/s": acked * 8.0 / duration,  # 1000-byte packets
        "rexmits": rexmit,
        "timeouts": timeouts,
        "early drops": early,
        "forced drops": drops - early,
        "avg queue B": statistics.fmean(ave) if ave else 0.0,
    }


def _ternsim_red_run(case: Case, seed: int) -> dict[str, float]:
    """One seed of the RED case in ternsim: the script as `ternsim ns2` translates it (the
    ns-only statistics off), run with the script's seed."""
    from . import api
    from .ns2 import translate_script

    args = [a.format(seed=seed) for a in case.ns_args]
    args[2], args[3] = "-", "0"
    scenario = translate_script(scenario_path(f"conformance/{case.script}"), args)
    summary = api.run(scenario, seed=seed).summary
    flows = summary["flows"]
    link = next(x for x in summary["links"] if x["name"] == "0-1" and x["direction"] == "a_to_b")
    duration = float(case.ns_args[1])
    return {
        "goodput kb/s": sum(f["delivered_bytes"] for f in flows) * 8.0 / 1000.0 / duration,
        "rexmits": float(sum(f["retransmitted_segments"] for f in flows)),
        "timeouts": float(sum(f["timeouts"] for f in flows)),
        "early drops": float(link["red"]["drops_early"]),
        "forced drops": float(link["red"]["drops_forced"]),
        "avg queue B": float(link["red"]["avg_queue_mean"]),
    }


def _run_red_case(case: Case, seeds: int) -> list[dict[str, Any]]:
    ns: dict[str, list[float]] = {}
    ts: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory(prefix="ternsim-conformance-") as tmp:
        for seed in range(1, seeds + 1):
            for k, v in _ns_red_run(case, seed, Path(tmp)).items():
                ns.setdefault(k, []).append(v)
    for seed in range(1, seeds + 1):
        for k, v in _ternsim_red_run(case, seed).items():
            ts.setdefault(k, []).append(v)
    return _stats_rows(case, seeds, ns, ts)


def _stats_rows(
    case: Case, seeds: int, ns: dict[str, list[float]], ts: dict[str, list[float]]
) -> list[dict[str, Any]]:
    rows = []
    for metric in ns:
        mn, hn = _mean_ci(ns[metric])
        mt, ht = _mean_ci(ts[metric])
        rows.append(
            {
                "case": case.name,
                "metric": metric,
                "ns2": f"{mn:.1f} ± {hn:.1f}",
                "ternsim": f"{mt:.1f} ± {ht:.1f}",
                "verdict": stats_verdict(ns[metric], ts[metric]),
                "detail": f"{seeds} seeds each, 95 % intervals, "
                f"t-test p = {two_sample_p(ns[metric], ts[metric]):.3f}",
                "ns2_values": ns[metric],
                "ternsim_values": ts[metric],
            }
        )
    return rows


def ns_version() -> str:
    """``ns-2 <version>`` as the installed ``ns`` reports it (``ns-version``), or ``ns-2 ?``."""
    try:
        with tempfile.TemporaryDirectory(prefix="ternsim-conformance-") as tmp:
            script = Path(tmp) / "version.tcl"
            script.write_text("puts [ns-version]\nexit 0\n")
            out = subprocess.run(
                [_ns(), script.name], cwd=tmp, capture_output=True, text=True, timeout=30
            )
        return f"ns-2 {out.stdout.strip() or '?'}"
    except (OSError, subprocess.SubprocessError, NsMissing):
        return "ns-2 ?"


def run_cases(
    full: bool = False,
    seeds: int | None = None,
    only: str | None = None,
    progress: Callable[[str], object] | None = None,
) -> list[dict[str, Any]]:
    """Runs the fast subset (or every case with ``full``) and returns one row per metric.

    ``seeds`` overrides the seeds of the stochastic cases; ``only`` keeps the cases whose
    name contains it. Raises :class:`NsMissing` without ``ns``.
    """
    _ns()
    rows: list[dict[str, Any]] = []
    for case in CASES:
        if not (full or case.fast) or (only and only not in case.name):
            continue
        if progress:
            progress(case.name)
        if case.kind == "trace":
            rows += _run_trace_case(case)
        elif case.kind == "red":
            rows += _run_red_case(case, seeds or case.seeds)
        else:
            rows += _run_stats_case(case, seeds or case.seeds)
    return rows


def write_html(rows: list[dict[str, Any]], path: Path, version: str) -> None:
    """Writes the table as one self-contained HTML page."""
    from html import escape

    colour = {"identical": "#1a7f37", "equal up to ties": "#1a7f37", "agrees": "#1a7f37"}
    body = "".join(
        "<tr>"
        + "".join(f"<td>{escape(str(r[k]))}</td>" for k in ("case", "metric", "ns2", "ternsim"))
        + f'<td style="color:{colour.get(r["verdict"], "#cf222e")}">{escape(r["verdict"])}</td>'
        + f"<td>{escape(r['detail'])}</td></tr>"
        for r in rows
    )
    path.write_text(
        "<!doctype html><meta charset=utf-8><title>ternsim conformance with ns-2</title>"
        "<style>body{font-family:sans-serif;margin:2em}td,th{padding:.2em .8em;"
        "border-bottom:1px solid #ddd;text-align:left}</style>"
        f"<h1>Conformance with ns-2</h1><p>{escape(version)}; ternsim "
        f"{escape(_ternsim_version())}. Deterministic cases compare trace files; stochastic "
        "ones compare means over seeds (agree: each inside the other's 95 % interval, or "
        "within 5 %).</p><table><tr><th>case</th><th>metric</th><th>ns-2</th>"
        f"<th>ternsim</th><th>verdict</th><th>detail</th></tr>{body}</table>\n"
    )


def _ternsim_version() -> str:
    from . import __version__

    return str(__version__)
