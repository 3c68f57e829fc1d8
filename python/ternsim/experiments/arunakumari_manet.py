"""Reproduction of Arunakumari and Chennareddy, "TCP Reno, SACK and Vegas performance analysis"
(seed ``arunakumari-manet``).

50 nodes moving by random waypoint in 500 m × 500 m for 200 s, 802.11, AODV, the 8 TCP
connections of ``cbrgen``; Reno, SACK and Vegas. Everything about the network is in
``scenarios/arunakumari-manet/manet.toml`` (why: the README beside it); this module says what
the paper varies and which of its numbers to compare:

* Tables 1-4: packet delivery ratio, end-to-end delay, normalized routing overhead and loss
  rate against the pause time (0-200 s; maximum speed 10 m/s, 1 Mb/s);
* Tables 5-8: the same against the maximum speed (5-30 m/s; pause 100 s, 1 Mb/s);
* Tables 9-12: the same against the 802.11 data rate (1, 2, 5.5, 11 Mb/s; pause 100 s,
  10 m/s);
* Figs. 1-9: throughput over time, and Figs. 10-18: jitter over time, at pause 0, 100, 200 s
  and speed 5, 10, 30 m/s (the ``flow_series`` trace, all flows together).

The tables come from sweeps over seeds; the figures from traced runs. Metrics (one definition
each, ``crates/ternsim-core/src/trace/flow_stats.rs``) are computed per run over all flows, as
the awk scripts of such papers do over all ``AGT`` lines of a trace: delivery ratio = data
packets received / sent (retransmissions count as sent), loss rate = 1 − delivery ratio (the
paper's Tables 1 and 4 add up to one), delay = mean over received data packets, jitter = mean
|D(i) − D(i−1)| over consecutive packets of a flow, normalized routing overhead = routing
transmissions (every hop) per data packet received.

Budget: the full reproduction must finish in well under 10 minutes on 2 cores. Full mode
runs 10 seeds of 200 s per table point (450 sweep runs, of which the 60 at pause 100 s,
10 m/s, 1 Mb/s are shared by the three sweeps and come from the cache) and 5 seeds per figure
point (135 traced runs); a run takes 0.5-1.5 s on one core (more at 11 Mb/s, where TCP moves
more data). Quick mode (2 seeds of 30 s, two values per sweep, two figure panels) takes a
few seconds.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..sweep import SweepResult, ci95, summarize, sweep
from . import ns2
from . import report as rep

ID = "arunakumari-manet"
TITLE = "Arunakumari, Chennareddy: TCP Reno, SACK and Vegas performance analysis (MANET)"
SCENARIO = "arunakumari-manet/manet.toml"
VARIANTS = ["reno", "sack", "vegas"]
LABELS = {"reno": "Reno", "sack": "SACK", "vegas": "Vegas"}
COLORS = {"reno": "tab:blue", "sack": "tab:green", "vegas": "tab:red"}
TCP_KEY = "traffic.tcp"
PAUSE_KEY = "mobility.pause"
SPEED_KEY = "mobility.max_speed"
RATE_KEY = "wireless.data_rate"
#: (seeds, duration in s).
FULL = (10, 200.0)
QUICK = (2, 30.0)
#: Seeds of the traced runs behind Figs. 1-18 (at most; fewer if the mode has fewer): the
#: figures' 27 points × 3 variants would otherwise double the run time.
FIG_SEEDS = 5
#: The three sweeps: name → (grid key, values, unit, what is held fixed).
FULL_SWEEPS = {
    "pause": [0, 10, 20, 50, 100, 150, 200],
    "speed": [5, 10, 20, 30],
    "rate": [1, 2, 5.5, 11],
}
QUICK_SWEEPS = {"pause": [0, 50], "speed": [5, 30], "rate": [1, 11]}
SWEEP_KEY = {"pause": PAUSE_KEY, "speed": SPEED_KEY, "rate": RATE_KEY}
SWEEP_UNIT = {"pause": "s", "speed": "m/s", "rate": "Mbps"}
SWEEP_TITLE = {"pause": "pause time (s)", "speed": "maximum speed (m/s)",
               "rate": "802.11 data rate (Mb/s)"}  # fmt: skip
#: What each sweep holds fixed (the paper's 3.3.1-3.3.3 headings).
SWEEP_FIXED = {
    "pause": {SPEED_KEY: "10m/s", RATE_KEY: "1Mbps"},
    "speed": {PAUSE_KEY: "100s", RATE_KEY: "1Mbps"},
    "rate": {PAUSE_KEY: "100s", SPEED_KEY: "10m/s"},
}
#: Per-run metrics: column → (title, format).
METRICS = {
    "pdr": ("packet delivery ratio", ".4f"),
    "delay_s": ("end-to-end delay (s)", ".4f"),
    "nro": ("normalized routing overhead", ".3f"),
    "loss_rate": ("loss rate", ".4f"),
}
#: Table number of (sweep, metric).
TABLE_NO = {
    (sweep_name, metric): 4 * i + j + 1
    for i, sweep_name in enumerate(["pause", "speed", "rate"])
    for j, metric in enumerate(METRICS)
}
#: The paper's tables: (sweep, metric) → {x: (Reno, SACK, Vegas)}. Table 9-12's "5" Mb/s is
#: 802.11b's 5.5 Mb/s.
PAPER: dict[tuple[str, str], dict[float, tuple[float, float, float]]] = {
    ("pause", "pdr"): {0: (0.9787, 0.9830, 0.9946), 10: (0.9846, 0.9801, 0.9967),
                       20: (0.9889, 0.9858, 0.9992), 50: (0.9931, 0.9747, 0.9971),
                       100: (0.9886, 0.9724, 0.9981), 150: (0.9863, 0.9876, 0.9968),
                       200: (0.9893, 0.9941, 0.9995)},
    ("pause", "delay_s"): {0: (0.36877, 0.38065, 0.06174), 10: (0.44485, 0.18466, 0.08116),
                           20: (0.21309, 0.58748, 0.02286), 50: (0.35695, 0.44622, 0.05399),
                           100: (0.38697, 0.55799, 0.04312), 150: (0.53830, 0.72369, 0.08745),
                           200: (0.18416, 0.25086, 0.01988)},
    ("pause", "nro"): {0: (0.240, 0.276, 0.215), 10: (0.467, 0.297, 0.362),
                       20: (0.364, 0.171, 0.142), 50: (1.942, 0.859, 0.491),
                       100: (0.167, 0.849, 0.751), 150: (0.531, 0.468, 1.263),
                       200: (0.337, 0.119, 0.042)},
    ("pause", "loss_rate"): {0: (0.0213, 0.0170, 0.0054), 10: (0.0154, 0.0199, 0.0033),
                             20: (0.0111, 0.0142, 0.0008), 50: (0.0069, 0.0253, 0.0029),
                             100: (0.0114, 0.0276, 0.0019), 150: (0.0137, 0.0124, 0.0032),
                             200: (0.0107, 0.0059, 0.0005)},
    ("speed", "pdr"): {5: (0.9838, 0.9948, 0.9997), 10: (0.9940, 0.9968, 0.9975),
                       20: (0.9956, 0.9915, 0.9986), 30: (0.9914, 0.9935, 0.9991)},
    ("speed", "delay_s"): {5: (0.75170, 0.25652, 0.03330), 10: (0.24810, 0.52486, 0.04958),
                           20: (0.19545, 0.37033, 0.06060), 30: (0.30076, 0.44234, 0.06791)},
    ("speed", "nro"): {5: (0.551, 1.005, 0.066), 10: (0.214, 0.115, 1.669),
                       20: (0.112, 0.047, 0.462), 30: (0.000, 0.406, 1.138)},
    ("speed", "loss_rate"): {5: (0.0162, 0.0052, 0.0003), 10: (0.0060, 0.0032, 0.0025),
                             20: (0.0044, 0.0085, 0.0014), 30: (0.0086, 0.0065, 0.0009)},
    ("rate", "pdr"): {1: (0.9923, 0.9940, 0.9993), 2: (0.9922, 0.9920, 0.9990),
                      5.5: (0.9894, 0.9928, 0.9993), 11: (0.9929, 0.9914, 0.9994)},
    ("rate", "delay_s"): {1: (0.19706, 0.18742, 0.01802), 2: (0.19011, 0.19217, 0.01936),
                          5.5: (0.20563, 0.21294, 0.02113), 11: (0.18611, 0.18821, 0.01888)},
    ("rate", "nro"): {1: (0.022, 0.024, 0.028), 2: (0.078, 0.028, 0.027),
                      5.5: (0.113, 0.048, 0.020), 11: (0.028, 0.035, 0.018)},
    ("rate", "loss_rate"): {1: (0.0077, 0.0060, 0.0007), 2: (0.0078, 0.0080, 0.0010),
                            5.5: (0.0106, 0.0072, 0.0007), 11: (0.0071, 0.0086, 0.0006)},
}  # fmt: skip
#: The discussion's orderings (Section 4): (sweep, metric, variant, "highest"/"lowest").
ORDERINGS = [
    ("pause", "pdr", "vegas", "highest"),
    ("pause", "delay_s", "vegas", "lowest"),
    ("pause", "delay_s", "sack", "highest"),
    ("pause", "nro", "sack", "lowest"),
    ("pause", "loss_rate", "sack", "highest"),
    ("speed", "pdr", "vegas", "highest"),
    ("speed", "delay_s", "vegas", "lowest"),
    ("speed", "nro", "reno", "lowest"),
    ("speed", "nro", "vegas", "highest"),
    ("speed", "loss_rate", "reno", "highest"),
    ("speed", "loss_rate", "vegas", "lowest"),
    ("rate", "pdr", "vegas", "highest"),
    ("rate", "delay_s", "sack", "highest"),
    ("rate", "delay_s", "vegas", "lowest"),
    ("rate", "nro", "reno", "highest"),
    ("rate", "nro", "vegas", "lowest"),
    ("rate", "loss_rate", "sack", "highest"),
    ("rate", "loss_rate", "vegas", "lowest"),
]
#: Figures: (pause s, speed m/s) of Figs. 1-9 (throughput) and 10-18 (jitter), in order.
FIG_CASES = [(p, s) for p in (0, 100, 200) for s in (5, 10, 30)]
QUICK_FIG_CASES = [(0, 5), (0, 30)]
#: The discussion's statement per figure: figure → (variant, "highest"/"lowest").
FIG_CLAIMS = {
    1: ("vegas", "highest"), 2: ("reno", "highest"), 3: ("vegas", "highest"),
    4: ("vegas", "highest"), 5: ("vegas", "highest"), 6: ("sack", "highest"),
    7: ("vegas", "highest"), 8: ("reno", "highest"), 9: ("sack", "highest"),
    10: ("vegas", "highest"), 11: ("sack", "highest"), 12: ("sack", "lowest"),
    13: ("vegas", "highest"), 14: ("vegas", "lowest"), 15: ("reno", "highest"),
    16: ("vegas", "lowest"), 17: ("sack", "highest"), 18: ("sack", "highest"),
}  # fmt: skip
#: The bin of the over-time figures (s): 200 s in 40 points.
SERIES_BIN_S = 5.0


# --- per-run metrics -----------------------------------------------------------------------


def per_run(runs: pd.DataFrame, keys: Sequence[str]) -> pd.DataFrame:
    """One row per run (``keys`` and seed) from a sweep's per-flow ``runs`` table: the paper's
    metrics over all flows of the run. ``pdr`` = Σ received / Σ sent data packets,
    ``loss_rate`` = 1 − pdr, ``delay_s`` = mean delay over every received data packet,
    ``jitter_s`` = mean |ΔD| over every flow's consecutive pairs, ``nro`` = the run's routing
    transmissions per data packet received, ``throughput_kbps`` = Σ flows' throughput."""
    ok = runs[runs["error"].isna()] if "error" in runs else runs
    rows = []
    for point, g in ok.groupby([*keys, "seed"], sort=False):
        sent = float(g["data_packets_sent"].sum())
        received = g["data_packets_received"].astype(float)
        total = float(received.sum())
        pairs = (received - 1).clip(lower=0)
        delay = g["delay_mean_s"].astype(float).fillna(0.0)
        jitter = g["jitter_s"].astype(float).fillna(0.0)
        row = dict(zip([*keys, "seed"], point))
        row["pdr"] = total / sent if sent > 0 else math.nan
        row["loss_rate"] = (sent - total) / sent if sent > 0 else math.nan
        row["delay_s"] = float((delay * received).sum() / total) if total > 0 else math.nan
        row["jitter_s"] = (
            float((jitter * pairs).sum() / pairs.sum()) if pairs.sum() > 0 else math.nan
        )
        nro = g["run_normalized_routing_overhead"].astype(float)
        row["nro"] = float(nro.iloc[0])
        row["throughput_kbps"] = float(g["throughput_bps"].astype(float).sum() / 1e3)
        rows.append(row)
    return pd.DataFrame(rows)


def _speed(v: float) -> str:
    return f"{v:g}m/s"


def _grid_value(sweep_name: str, x: float) -> str:
    return f"{x:g}{SWEEP_UNIT[sweep_name]}"


def run_sweeps(base: Mapping[str, Any], sweeps: Mapping[str, Sequence[float]],
               common: Mapping[str, Any]) -> tuple[pd.DataFrame, pd.DataFrame]:  # fmt: skip
    """The three table sweeps. Returns the per-flow runs (with ``sweep`` and ``x`` columns)
    and the per-run table (``sweep``, ``x``, ``tcp``, ``seed`` and the metrics)."""
    flow_parts, run_parts = [], []
    for name, xs in sweeps.items():
        key = SWEEP_KEY[name]
        values = [_grid_value(name, x) for x in xs]
        result = sweep(base, {TCP_KEY: VARIANTS, key: values},
                       overrides=SWEEP_FIXED[name], **common)  # fmt: skip
        runs = result.runs.copy()
        failed = runs[runs["error"].notna()]
        if len(failed):
            raise RuntimeError(f"{len(failed)} runs failed, e.g.: {failed['error'].iloc[0]}")
        x_of = dict(zip(values, xs))
        table = per_run(runs, [TCP_KEY, key])
        table.insert(0, "sweep", name)
        table.insert(1, "x", table.pop(key).map(x_of).astype(float))
        table = table.rename(columns={TCP_KEY: "tcp"})
        runs.insert(0, "sweep", name)
        runs.insert(1, "x", runs.pop(key).map(x_of).astype(float))
        # The flows' own `tcp` column names the same variant as the grid key.
        flow_parts.append(runs.drop(columns=["tcp"]).rename(columns={TCP_KEY: "tcp"}))
        run_parts.append(table)
    return pd.concat(flow_parts, ignore_index=True), pd.concat(run_parts, ignore_index=True)


def samples(table: pd.DataFrame, sweep_name: str, x: float, tcp: str, metric: str) -> list[float]:
    """Per-seed values of ``metric`` at one point, in seed order."""
    rows = table[(table["sweep"] == sweep_name) & np.isclose(table["x"], x) & (table["tcp"] == tcp)]
    return rows.sort_values("seed")[metric].astype(float).tolist()


def ordering_samples(table: pd.DataFrame, sweep_name: str, metric: str, tcp: str,
                     which: str) -> list[float]:  # fmt: skip
    """Per seed, with each variant's metric averaged over the sweep's values: ``tcp −
    max(others)`` for ``highest`` and ``min(others) − tcp`` for ``lowest``, positive when the
    paper's ordering holds. Seeds pair runs with the same node paths and connections (a
    path depends only on the seed)."""
    t = table[table["sweep"] == sweep_name]
    means = t.groupby(["tcp", "seed"])[metric].mean().unstack("tcp")
    others = means[[v for v in VARIANTS if v != tcp]]
    if which == "highest":
        diff = means[tcp] - others.max(axis=1)
    else:
        diff = others.min(axis=1) - means[tcp]
    return diff.dropna().tolist()


# --- over time -----------------------------------------------------------------------------


def network_series(series: pd.DataFrame) -> pd.DataFrame:
    """All flows of one run together, per bin of a ``flow_series`` trace: throughput (kb/s,
    the sum over flows) and jitter (s, the flows' bin jitters weighted by their packets; NaN
    where no flow had a packet)."""
    s = series.copy()
    s["w"] = s["packets"].astype(float).where(s["jitter_s"].notna(), 0.0)
    s["wj"] = s["jitter_s"].astype(float).fillna(0.0) * s["w"]
    g = s.groupby("time_s", sort=True)
    out = pd.DataFrame({"throughput_kbps": g["throughput_bps"].sum() / 1e3})
    w = g["w"].sum()
    out["jitter_s"] = (g["wj"].sum() / w).where(w > 0)
    return out.reset_index()


def run_means(summary: Mapping[str, Any]) -> dict[str, float]:
    """A traced run's network throughput (kb/s, summed over flows) and jitter (s, pooled)."""
    traffic = summary.get("traffic") or {}
    thr = sum(float(f.get("throughput_bps") or 0.0) for f in summary.get("flows", []))
    jitter = traffic.get("jitter_s")
    return {"throughput_kbps": thr / 1e3,
            "jitter_s": math.nan if jitter is None else float(jitter)}  # fmt: skip


def fig_number(pause: float, speed: float, jitter: bool) -> int:
    return FIG_CASES.index((pause, speed)) + 1 + (9 if jitter else 0)


# --- the ns-2.35 column --------------------------------------------------------------------

#: The ns-2 twin of manet.toml (usage in its header); ``ternsim reproduce arunakumari-manet
#: --regenerate-ns2`` runs it for :func:`ns2_configs` and stores the results beside it.
NS2_SCRIPT = "arunakumari-manet/manet.tcl"
NS2_INPUTS = (
    "scen.tcl: `ternsim setdest -v 1 -n 50 -p PAUSE -M SPEED -t 200 -x 500 -y 500 --seed SEED` "
    "(the node paths ternsim's run of manet.toml with that seed uses); tcp.tcl: `ternsim "
    "cbrgen -type tcp -nn 50 -seed 1 -mc 8` (cbrgen.tcl's pairs and start times for seed 1)"
)
#: variant → the script's TCP and SINK arguments.
NS2_TCP = {"reno": ("Reno", "TCPSink"), "sack": ("Sack1", "TCPSink/Sack1"),
           "vegas": ("Vegas", "TCPSink")}  # fmt: skip
NS2_DURATION = 200.0
#: A 200 s run of 50 nodes with its trace takes 10-30 s of CPU in ns-2: three seeds per point.
NS2_MAX_SEEDS = 3
#: Why ns-2 has no value for the figure claims.
NS2_NO_FIGURES = (
    "the stored ns-2 runs cover the points of Tables 1-12; Figs. 1-18's (pause, speed) points "
    "were not run in ns-2"
)


def ns2_points() -> list[tuple[float, float, float]]:
    """The (pause s, max speed m/s, data rate Mb/s) points of the three full sweeps, each
    once (pause 100 s, 10 m/s, 1 Mb/s is in all three)."""
    points: list[tuple[float, float, float]] = []
    for name, xs in FULL_SWEEPS.items():
        for x in xs:
            p = _point(name, x)
            if p not in points:
                points.append(p)
    return points


def _point(sweep_name: str, x: float) -> tuple[float, float, float]:
    fixed = {k: float(str(v).rstrip("smMbp/")) for k, v in SWEEP_FIXED[sweep_name].items()}
    fixed[SWEEP_KEY[sweep_name]] = float(x)
    return fixed[PAUSE_KEY], fixed[SPEED_KEY], fixed[RATE_KEY]


def ns2_configs(seeds: int) -> list[ns2.NsConfig]:
    """Every point of Tables 1-12 × Reno, SACK, Vegas, 200 s, at most NS2_MAX_SEEDS seeds."""
    configs = []
    for pause, speed, rate in ns2_points():
        for tcp in VARIANTS:
            key = ((PAUSE_KEY, pause), (SPEED_KEY, speed), (RATE_KEY, rate), (TCP_KEY, tcp),
                   ("duration_s", NS2_DURATION))  # fmt: skip
            tcp_arg, sink = NS2_TCP[tcp]
            args = (tcp_arg, sink, f"{rate:g}", "{seed}", f"{NS2_DURATION:g}")
            configs.append(ns2.NsConfig(key, args, seeds=min(seeds, NS2_MAX_SEEDS)))
    return configs


def ns2_prepare(config: ns2.NsConfig, seed: int, workdir: Path) -> None:
    """The movement (scen.tcl) and connection (tcp.tcl) files of one ns-2 run."""
    from ..generators import cbrgen, setdest

    v = config.values
    scen = setdest(version=1, nodes=50, pause=float(v[PAUSE_KEY]),
                   max_speed=float(v[SPEED_KEY]), time=NS2_DURATION, width=500.0,
                   height=500.0, seed=seed)  # fmt: skip
    (workdir / "scen.tcl").write_text(scen, encoding="utf-8")
    conns = cbrgen(kind="tcp", nodes=50, seed=1, max_connections=8)
    (workdir / "tcp.tcl").write_text(conns, encoding="utf-8")


def ns2_trace_metrics(lines) -> dict[str, float]:
    """The paper's metrics from an ns-2 wireless trace (old format, agent and routing
    lines), as ternsim defines them: TCP data packets sent (``s`` at AGT, retransmissions
    included) and received (``r`` at AGT), the mean delay of the received ones (by packet
    id), and routing transmissions (AODV packets sent or forwarded at RTR, every hop)."""
    sent: dict[str, float] = {}
    received = 0
    delay_sum = 0.0
    routing = 0
    for line in lines:
        parts = line.split()
        if len(parts) < 7:
            continue
        event, layer, kind = parts[0], parts[3], parts[6]
        if layer == "AGT" and kind == "tcp":
            if event == "s":
                sent[parts[5]] = float(parts[1])
            elif event == "r":
                t0 = sent.get(parts[5])
                received += 1
                if t0 is not None:
                    delay_sum += float(parts[1]) - t0
        elif layer == "RTR" and kind == "AODV" and event in ("s", "f"):
            routing += 1
    n_sent = len(sent)
    return {
        "data_sent": n_sent,
        "data_received": received,
        "routing_transmissions": routing,
        "pdr": received / n_sent if n_sent else math.nan,
        "loss_rate": (n_sent - received) / n_sent if n_sent else math.nan,
        "delay_s": delay_sum / received if received else math.nan,
        "nro": routing / received if received else math.nan,
    }


def ns2_parse(config: ns2.NsConfig, seed: int, stdout: str, workdir: Path) -> list[dict]:
    """One row per run: :func:`ns2_trace_metrics` of the script's out.tr."""
    with open(workdir / "out.tr", encoding="utf-8", errors="replace") as f:
        return [ns2_trace_metrics(f)]


def ns2_per_run(results: ns2.Ns2Results, sweeps: Mapping[str, Sequence[float]]) -> pd.DataFrame:
    """The stored ns-2 runs as :func:`run_sweeps`'s per-run table (``sweep``, ``x``, ``tcp``,
    ``seed`` and the metrics), for the sweeps' values."""
    runs = results.runs
    parts = []
    for name, xs in sweeps.items():
        for x in xs:
            pause, speed, rate = _point(name, x)
            rows = runs[np.isclose(runs[PAUSE_KEY], pause) & np.isclose(runs[SPEED_KEY], speed)
                        & np.isclose(runs[RATE_KEY], rate)].copy()  # fmt: skip
            rows.insert(0, "sweep", name)
            rows.insert(1, "x", float(x))
            parts.append(rows.rename(columns={TCP_KEY: "tcp"}))
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()


def attach_ns2(
    claims: Sequence[rep.Claim], results: ns2.Ns2Results, sweeps: Mapping[str, Sequence[float]]
) -> None:
    """Gives every table and ordering claim ns-2's per-seed values (the same claim computed
    from the stored ns-2 runs; "paper inside the 95 % interval" judged on ns-2's own
    interval); the figure claims get the reason ns-2 has none."""
    table = ns2_per_run(results, sweeps)
    ns_claims = {c.quantity: c for c in table_claims(table, sweeps) + ordering_claims(table)}
    for c in claims:
        nc = ns_claims.get(c.quantity)
        values = [] if nc is None else [float(v) for v in nc.samples if not math.isnan(v)]
        if nc is None or not values:
            c.ns2, c.ns2_missing = None, NS2_NO_FIGURES
            continue
        c.ns2 = values
        c.ns2_judged = nc.agrees


# --- report pieces -------------------------------------------------------------------------


def table_claims(table: pd.DataFrame, sweeps: Mapping[str, Sequence[float]]) -> list[rep.Claim]:
    """One claim per paper number of Tables 1-12 present in the sweeps: does ternsim's 95 %
    interval over seeds include it?"""
    claims = []
    for (sweep_name, metric), rows in PAPER.items():
        title, fmt = METRICS[metric]
        for x, paper in rows.items():
            if not any(np.isclose(x, v) for v in sweeps[sweep_name]):
                continue
            for tcp, value in zip(VARIANTS, paper):
                s = samples(table, sweep_name, x, tcp, metric)
                ci = ci95(s)[1]
                claims.append(rep.Claim(
                    f"Table {TABLE_NO[(sweep_name, metric)]}: {title}, {LABELS[tcp]}, "
                    f"{SWEEP_TITLE[sweep_name].split(' (')[0]} {x:g} {SWEEP_UNIT[sweep_name]}",
                    f"{value:{fmt}}", s, fmt=fmt, paper_value=value,
                    tolerance=ci if not math.isnan(ci) else 0.0,
                    criterion="paper inside 95 % CI"))  # fmt: skip
    return claims


def ordering_claims(table: pd.DataFrame) -> list[rep.Claim]:
    claims = []
    for sweep_name, metric, tcp, which in ORDERINGS:
        title, fmt = METRICS[metric]
        no = TABLE_NO[(sweep_name, metric)]
        d = ordering_samples(table, sweep_name, metric, tcp, which)
        claims.append(rep.Claim(
            f"Table {no}: {title} {which} for {LABELS[tcp]} (mean over "
            f"{SWEEP_TITLE[sweep_name].split(' (')[0]}; margin over the other two)",
            f"{which} for {LABELS[tcp]} (Section 4)", d, fmt=fmt,
            check=lambda m: m > 0, criterion="margin > 0"))  # fmt: skip
    return claims


def figure_claims(means: pd.DataFrame, cases: Sequence[tuple[float, float]]) -> list[rep.Claim]:
    claims = []
    for pause, speed in cases:
        for jitter in (False, True):
            no = fig_number(pause, speed, jitter)
            tcp, which = FIG_CLAIMS[no]
            metric = "jitter_s" if jitter else "throughput_kbps"
            t = means[(means["pause"] == pause) & (means["speed"] == speed)]
            wide = t.pivot(index="seed", columns="tcp", values=metric)
            others = wide[[v for v in VARIANTS if v != tcp]]
            d = (
                wide[tcp] - others.max(axis=1)
                if which == "highest"
                else (others.min(axis=1) - wide[tcp])
            )
            what = "jitter" if jitter else "throughput"
            claims.append(rep.Claim(
                f"Fig. {no}: {what} {which} for {LABELS[tcp]}, pause {pause:g} s, "
                f"speed {speed:g} m/s (run mean; margin over the other two)",
                f"{which} for {LABELS[tcp]} (Section 4)", d.dropna().tolist(),
                fmt=".4f" if jitter else ".1f", check=lambda m: m > 0,
                criterion="margin > 0"))  # fmt: skip
    return claims


def side_by_side(table: pd.DataFrame, sweep_name: str, metric: str,
                 xs: Sequence[float]) -> pd.DataFrame:  # fmt: skip
    """Table N as the paper prints it: one row per x, "ternsim mean ± CI (paper) ✓/✗" per
    variant, ✓ when the interval includes the paper's value."""
    _, fmt = METRICS[metric]
    paper = PAPER[(sweep_name, metric)]
    out = []
    for x in xs:
        row = {SWEEP_TITLE[sweep_name]: f"{x:g}"}
        for i, tcp in enumerate(VARIANTS):
            s = samples(table, sweep_name, x, tcp, metric)
            mean, ci, _, _ = ci95(s)
            text = rep.mean_ci_text(s, fmt)
            p = next((v for k, v in paper.items() if np.isclose(k, x)), None)
            if p is not None:
                inside = not math.isnan(ci) and abs(mean - p[i]) <= ci
                text += f" ({p[i]:{fmt}}) {'✓' if inside else '✗'}"
            row[LABELS[tcp]] = text
        out.append(row)
    return pd.DataFrame(out)


def _figures(tmp: Path, table: pd.DataFrame, sweeps, traced, cases):
    plt = rep.pyplot()
    figs: list[tuple[str, str]] = []
    for sweep_name, xs in sweeps.items():
        fig, axes = plt.subplots(1, 4, figsize=(16, 3.8))
        for ax, metric in zip(axes, METRICS):
            title, _ = METRICS[metric]
            paper = PAPER[(sweep_name, metric)]
            for i, tcp in enumerate(VARIANTS):
                stats = [ci95(samples(table, sweep_name, x, tcp, metric)) for x in xs]
                ys = [s[0] for s in stats]
                es = [0.0 if math.isnan(s[1]) else s[1] for s in stats]
                ax.errorbar(xs, ys, yerr=es, capsize=3, marker="o", color=COLORS[tcp],
                            label=f"{LABELS[tcp]} (ternsim)")  # fmt: skip
                ax.plot(list(paper), [v[i] for v in paper.values()], linestyle=":",
                        marker="x", color=COLORS[tcp], label=f"{LABELS[tcp]} (paper)")  # fmt: skip
            no = TABLE_NO[(sweep_name, metric)]
            ax.set_title(f"Table {no}: {title}", fontsize=9)
            ax.set_xlabel(SWEEP_TITLE[sweep_name])
            ax.grid(True, alpha=0.3)
        axes[0].legend(fontsize=7)
        first = TABLE_NO[(sweep_name, "pdr")]
        png = tmp / f"tables_{first}-{first + 3}_{sweep_name}.png"
        figs.append((rep.save_figure(fig, png).name,
                     f"Tables {first}-{first + 3} as plots: ternsim mean with 95 % CI over "
                     f"seeds (solid) and the paper's single runs (dotted), against the "
                     f"{SWEEP_TITLE[sweep_name]}"))  # fmt: skip
    for jitter in (False, True):
        metric = "jitter_s" if jitter else "throughput_kbps"
        n = len(cases)
        cols = 3 if n >= 3 else n
        rows = math.ceil(n / cols)
        fig, axes = plt.subplots(rows, cols, figsize=(5 * cols, 3.4 * rows), squeeze=False)
        for ax, (pause, speed) in zip(axes.ravel(), cases):
            for tcp in VARIANTS:
                curves = [network_series(r.trace("flow_series")).set_index("time_s")[metric]
                          for (p, s, t, _), r in traced.items()
                          if p == pause and s == speed and t == tcp]  # fmt: skip
                if not curves:
                    continue
                m = pd.concat(curves, axis=1)
                t = m.index.to_numpy(dtype=float) + SERIES_BIN_S / 2
                stats = [ci95([v for v in row if not math.isnan(v)]) for row in m.to_numpy()]
                mean = np.array([s[0] for s in stats])
                ci = np.array([0.0 if math.isnan(s[1]) else s[1] for s in stats])
                ax.plot(t, mean, color=COLORS[tcp], label=LABELS[tcp])
                ax.fill_between(t, mean - ci, mean + ci, color=COLORS[tcp], alpha=0.2)
            no = fig_number(pause, speed, jitter)
            ax.set_title(f"Fig. {no}: pause {pause:g} s, speed {speed:g} m/s", fontsize=9)
            ax.set_xlabel("simulation time (s)")
            ax.set_ylabel("jitter (s)" if jitter else "throughput (kb/s)")
            ax.grid(True, alpha=0.3)
        for ax in axes.ravel()[n:]:
            ax.set_visible(False)
        axes[0, 0].legend(fontsize=8)
        first = fig_number(*cases[0], jitter)
        last = fig_number(*cases[-1], jitter)
        name = "jitter" if jitter else "throughput"
        figs.append((rep.save_figure(fig, tmp / f"figs_{first}-{last}_{name}.png").name,
                     f"Figs. {first}-{last}: network {name} over time (all flows, "
                     f"{SERIES_BIN_S:g} s bins), mean with 95 % CI band over seeds"))  # fmt: skip
    return figs


def _summary_table(table: pd.DataFrame) -> pd.DataFrame:
    rows = []
    for (sweep_name, x, tcp), g in table.groupby(["sweep", "x", "tcp"], sort=False):
        rows.append({
            "sweep": sweep_name, "x": f"{x:g} {SWEEP_UNIT[sweep_name]}", "TCP": LABELS[tcp],
            "PDR": rep.mean_ci_text(g["pdr"].tolist(), ".4f"),
            "delay (s)": rep.mean_ci_text(g["delay_s"].tolist(), ".4f"),
            "NRO": rep.mean_ci_text(g["nro"].tolist(), ".3f"),
            "loss rate": rep.mean_ci_text(g["loss_rate"].tolist(), ".4f"),
            "jitter (s)": rep.mean_ci_text(g["jitter_s"].tolist(), ".4f"),
            "throughput (kb/s)": rep.mean_ci_text(g["throughput_kbps"].tolist(), ".1f"),
        })  # fmt: skip
    return pd.DataFrame(rows)


def reproduce(
    tmp: Path,
    *,
    quick: bool = False,
    seeds: int | None = None,
    jobs: int | None = None,
    progress: bool = True,
    cache_dir: Any = None,
    cache: bool = True,
) -> rep.Report:
    """Runs the experiment and writes every file of the report into the (empty) folder
    ``tmp``; :func:`ternsim.experiments.reproduce` makes that atomic."""
    n_seeds, duration, base = rep.mode_and_scenario(SCENARIO, quick, seeds, FULL, QUICK)
    sweeps = QUICK_SWEEPS if quick else FULL_SWEEPS
    cases = QUICK_FIG_CASES if quick else FIG_CASES
    common = dict(seeds=n_seeds, jobs=jobs, cache_dir=cache_dir, progress=progress, cache=cache)

    runs, table = run_sweeps(base, sweeps, common)
    keys = ["sweep", "x", "tcp"]
    SweepResult(runs, summarize(runs, keys), grid_keys=keys).write(tmp)
    table.to_csv(tmp / "per_run.csv", index=False)

    specs = []
    for pause, speed in cases:
        for tcp in VARIANTS:
            for seed in range(1, min(n_seeds, FIG_SEEDS) + 1):
                traces = {"flow_series": True, "flow_series_bin": f"{SERIES_BIN_S:g}s"}
                scenario = {**base, "traces": traces}
                scenario["traffic"] = {**base["traffic"], "tcp": tcp}
                scenario["mobility"] = {**base["mobility"], "pause": f"{pause:g}s",
                                        "max_speed": _speed(speed)}  # fmt: skip
                scenario["wireless"] = {**base["wireless"], "data_rate": "1Mbps"}
                specs.append((f"{tcp}-pause{pause:g}-speed{speed:g}", scenario, seed))
    done = rep.traced_runs(specs, jobs=jobs)
    traced = {}
    mean_rows = []
    for (label, _, seed), r in zip(specs, done):
        tcp, pause, speed = label.split("-")
        key = (float(pause.removeprefix("pause")), float(speed.removeprefix("speed")), tcp, seed)
        traced[key] = r
        mean_rows.append({"pause": key[0], "speed": key[1], "tcp": tcp, "seed": seed,
                          **run_means(r.summary)})  # fmt: skip
    means = pd.DataFrame(mean_rows)
    means.to_csv(tmp / "figure_runs.csv", index=False)
    rep.write_traced([r for r in done if r.seed == 1], tmp / "traces")

    cases_f = [(float(p), float(s)) for p, s in cases]
    figures = _figures(tmp, table, sweeps, traced, cases_f)
    claims = (table_claims(table, sweeps) + ordering_claims(table)
              + figure_claims(means, cases_f))  # fmt: skip
    stored = ns2.load(sys.modules[__name__])
    if stored is not None:
        attach_ns2(claims, stored, sweeps)
    summary = _summary_table(table)
    inside = [c for c in claims if c.criterion.startswith("paper inside")]
    n_in = sum(1 for c in inside if c.agrees)
    mode = "quick" if quick else "full"
    intro = f"""
Reproduction of seed paper `arunakumari-manet` with ternsim (`ternsim reproduce
arunakumari-manet{" --quick" if quick else ""}`): {mode} mode, {n_seeds} seeds per point,
{duration:g} s per run (the paper: 200 s, one run per point). Scenario:
`scenarios/arunakumari-manet/manet.toml` (its README justifies every value the paper leaves
out: AODV, setdest version 1, cbrgen's 8 TCP connections with seed 1, 512-byte packets, ns-2's
interface queue). Sweep files: `runs.csv`, `runs.parquet`, `summary.csv` (per flow; keys
`sweep`, `x`, `tcp`) and `per_run.csv` (the paper's metrics per run, all flows together);
`figure_runs.csv` (run means of the traced runs behind Figs. 1-18, {min(n_seeds, FIG_SEEDS)}
seeds per point) and `traces/` (their seed-1 runs, with the `flow_series` trace). {n_in} of
the paper's {len(inside)} table numbers lie inside ternsim's 95 % interval; the paper's
numbers are single runs, so an interval over seeds is expected to miss many of them even where
the model is right.
"""
    extra = []
    for (sweep_name, metric), _ in PAPER.items():
        no = TABLE_NO[(sweep_name, metric)]
        extra.append(
            f"## Table {no}: {METRICS[metric][0]} against the {SWEEP_TITLE[sweep_name]}\n\n"
            "ternsim mean ± 95 % CI over seeds, the paper's value in brackets, ✓ where the "
            "interval includes it.\n\n"
            + rep.markdown_table(side_by_side(table, sweep_name, metric, sweeps[sweep_name]))
        )
    extra.append(NOTES)
    ns2_facts = _ns2_text(stored) if stored is not None else ""
    text = rep.render_markdown(TITLE, intro, claims, rep.markdown_table(summary), figures,
                               extra=extra, ns2_facts=ns2_facts)  # fmt: skip
    (tmp / rep.REPORT_FILE).write_text(text, encoding="utf-8")
    report = rep.Report(ID, TITLE, tmp, claims, summary, [f for f, _ in figures], 0.0, quick)
    report.ns2_facts = stored.facts() if stored is not None else ""
    return report


def _ns2_text(stored: ns2.Ns2Results) -> str:
    seeds = sorted({len(c["seeds"]) for c in stored.meta.get("configurations", [])})
    seed_text = " or ".join(map(str, seeds)) if seeds else "?"
    return f"""
**The {stored.label()} column** comes from running ns-2 itself: `scenarios/{NS2_SCRIPT}`, the
ns-2 twin of `manet.toml` (AODV, ns-2.35's radio, queue and MAC defaults, the data rate as
`dataRate_` with `basicRate_` 1 Mb/s), {NS2_DURATION:g} s runs, {seed_text} seeds per point
(a run of 50 nodes with its trace costs ns-2 10-30 s), on the same inputs as ternsim: the
node paths of `ternsim setdest --seed SEED` (those of ternsim's run with that seed) and
cbrgen's connections for seed 1, with `Agent/TCP` replaced by Agent/TCP/Reno, /Sack1 (and
TCPSink/Sack1) or /Vegas. The metrics are computed from ns-2's trace as ternsim defines them:
TCP data packets sent and received at the agents (retransmissions count as sent), their mean
delay, AODV packets sent or forwarded (every hop) per data packet received. For a table number,
"paper vs ns-2" asks whether it lies inside ns-2's own 95 % interval; "ns-2 vs ternsim" agrees
when each mean lies in the other's interval or the two are within 5 %. Stored results:
{stored.facts()}. Regenerate with `ternsim reproduce arunakumari-manet --regenerate-ns2`
(needs `ns`).
"""


NOTES = """
## Notes

* Criteria. Each number of Tables 1-12 is compared with ternsim's 95 % confidence interval
  over seeds (Student t); the paper's numbers come from one run each (one movement file, one
  connection file), so they scatter around their own means by about as much as ternsim's
  runs do, and an interval of the mean covers a single draw only part of the time. The
  discussion's orderings ("delay is best for Vegas") are tested on the mean over the sweep,
  per seed, as a margin over the other two variants; the figure statements on each run's
  mean throughput or jitter. Nothing was tuned to meet them.
* Seeds change the node paths only; the connection pattern is cbrgen's with seed 1 in every
  run (as a paper's single connection file is), so one seed pairs the three variants on the
  same paths and connections.
* Throughput over time (Figs. 1-9) is the sum over flows of data bits arriving at the
  destinations per bin; jitter over time (Figs. 10-18) is the mean |D(i) − D(i−1)| of the
  packets arriving in the bin, the flows weighted by their packets. The paper's figures are
  images without numbers; only the Section 4 statement about each is compared.

## Where ternsim and the paper differ (full mode: 10 seeds per table point, 5 per figure)

* **The paper's single runs disagree with each other.** Pause 100 s, 10 m/s, 1 Mb/s is the
  same configuration in Tables 1-4 (pause 100), 5-8 (speed 10) and 9-12 (1 Mb/s), yet the
  paper gives Reno three different values for it: delivery ratio 0.9886 / 0.9940 / 0.9923,
  delay 0.387 / 0.248 / 0.197 s, routing overhead 0.167 / 0.214 / 0.022, loss 0.0114 /
  0.0060 / 0.0077 (Vegas's overhead: 0.751 / 1.669 / 0.028). Those spreads are several times
  ternsim's 95 % intervals, so an interval over seeds includes the paper's value only where
  its single draw happens to fall near the mean: 40 of the 180 numbers (delivery ratio 13 of
  45, delay 4, routing overhead 10, loss rate 13).
* **Pause 200 s is a static network.** With `setdest` version 1 every node first pauses for
  the pause time, so in a 200 s run no node moves and the speed does not matter: ternsim's
  Figs. 7-9 and 16-18 are the same runs. The paper reports different winners for them (Vegas,
  Reno, SACK in Figs. 7-9), which again points to run-to-run noise or different movement
  files per figure.
* **Delivery ratio and loss rate** agree in level (0.98-0.999, Vegas highest and its loss
  lowest everywhere, as in the paper) and in every ordering the discussion states except
  "loss is highest for Reno" over speed (Reno and SACK tie within 0.001).
* **End-to-end delay** of Reno and SACK is 0.5-0.75 s at 1 Mb/s, above the paper's 0.18-0.75
  s, and grows with the pause time where the paper's does not. Vegas's is 0.08-0.09 s (paper
  0.02-0.09 s): the paper's central finding, Vegas's delay several times lower, holds (ratio
  6.6-8.4 here, 3-22 in the paper). Loss-based TCP with cbrgen's 32-packet window fills the
  50-packet interface queues; the less the nodes move, the longer routes live and the longer
  the queues stay full (with pause 0 route breaks and timeouts drain them). The paper's own
  delays for one configuration range over 2× (first item), so its level is not pinned.
* **Delay against the data rate**: ternsim's falls from 0.70 to 0.30 s (Reno) from 1 to
  11 Mb/s, the paper's stays at 0.19-0.21 s. A faster data rate shortens the DATA frames
  only (RTS, CTS, ACK and the PLCP header stay at the 1 Mb/s basic rate), so ternsim's
  queueing delay falls about 2.3×. The paper's flat delay and routing overhead suggest its
  data-rate setting may not have reached the MACs (in ns-2 `Mac/802_11 set dataRate_` must be
  set before the nodes are created); this cannot be checked from the paper.
* **Normalized routing overhead** is 0.04-0.16 here and shrinks with the pause time and the
  data rate, identical for the three variants within the intervals. The paper's values jump
  between 0.000 and 1.942 with no trend (Reno's 0.000 at 30 m/s cannot be: AODV must at least
  discover the 8 routes); its orderings ("lowest for SACK", "highest for Vegas") are not
  reproduced. Its definition ("routing packets transmitted per data packets") is ternsim's
  (every hop of every RREQ/RREP/RERR per data packet received); whether the paper counted
  forwarded RREQs, or per data packet sent, is not said.
* **Throughput over time** (Figs. 1-9): Vegas's run mean is 4-9 % below the better of Reno
  and SACK at every point here (5 seeds), where the paper calls Vegas best in Figs. 1, 3, 4,
  5 and 7. Vegas keeps its window
  small (its delay is a sixth of Reno's), and on 802.11 multi-hop paths a larger window
  buys more throughput at the cost of delay as long as the queue does not overflow often;
  the 1-3 % loss of Reno and SACK costs them little. Reno/SACK ties (Figs. 2, 6, 8, 9) are
  ties within the intervals here, so the paper's "Reno best" and "SACK best" are neither
  confirmed nor refuted.
* **Jitter over time** (Figs. 10-18): Vegas has the lowest jitter at every point here, so
  the paper's "Vegas highest" (Figs. 10, 13) fails and "Vegas lowest" (Figs. 14, 16) holds;
  Reno and SACK tie within the intervals.
* **What ns-2.35 shows** (3 seeds, the same node paths and connections as ternsim's seeds
  1-3). Measured with ternsim at 3 seeds: of the 198 table claims, the paper and ternsim
  agree on 92, the paper and ns-2 on 92, and ns-2 and ternsim on 162. Where the paper and
  ternsim disagree, ns-2 mostly sides with ternsim (the paper's numbers are single runs,
  outside the interval of either simulator). Of the 18 orderings ternsim keeps 11 and ns-2
  13: ns-2 also finds SACK's delay highest over the pause times and SACK's loss rate highest
  over the data rates, which ternsim's margins put just below zero, within their intervals.
  Neither simulator gives the paper's routing-overhead orderings (SACK lowest over pause
  time, Reno lowest and Vegas highest over speed, Reno highest over data rate); ns-2's
  margins there are further below zero than ternsim's. The figures' points were not run in
  ns-2.
"""
