"""Quick-look figures from result folders.

This module owns two figures: a trace of one run as time series, one line per flow (or per
link and direction), and a sweep metric against one grid key, the mean with its 95 %
confidence interval as error bars, one line per flow and combination of the other grid keys.
It uses matplotlib's Agg backend (no display needed). Publication figures for each paper
belong to the experiment modules, not here.
"""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd

__all__ = [
    "DEFAULT_Y",
    "TRACE_COLUMNS",
    "column_label",
    "folder_kind",
    "key_label",
    "metric_label",
    "plot_sweep",
    "plot_trace",
    "step_to_end",
]

#: The column each trace plots by default.
DEFAULT_Y = {
    "cwnd": "cwnd",
    "rtt": "rtt_s",
    "rto": "rto_s",
    "segments": "seq",
    "acks": "ack",
    "tcp_events": "seq",
    "queues": "queue_len",
    "drops": "seq",
    "rlc_buffer": "bytes",
    "sdu_delay": "delay_s",
    "datagrams": "delay_s",
    "flow_series": "throughput_bps",
}
#: Traces drawn as steps (a state that holds until the next record); others as points.
_STEPS = {"cwnd", "rto", "queues", "rlc_buffer"}

#: What each trace shows (figure titles).
TRACE_TITLES = {
    "cwnd": "Congestion window",
    "rtt": "Round-trip time samples",
    "rto": "Retransmission timeout estimator",
    "segments": "Data segments sent",
    "acks": "ACKs received by the sender",
    "tcp_events": "TCP timeouts and fast retransmits",
    "queues": "Queue length",
    "drops": "Dropped packets",
    "rlc": "RLC PDUs",
    "rlc_buffer": "RLC transmission buffer",
    "sdu_delay": "SDU delay across the radio bearer",
    "datagrams": "UDP datagram delay",
    "topology": "Topology events",
    "flow_series": "Throughput, delay and jitter per time bin",
}

#: Trace columns: (what it is, unit or "" for a count/label, whole numbers?). One entry per
#: column the core writes (``crates/ternsim-core/src/trace/mod.rs``; a test checks they match).
TRACE_COLUMNS: dict[str, tuple[str, str, bool]] = {
    "time_s": ("time", "s", False),
    "flow": ("flow", "", False),
    "cwnd": ("congestion window", "packets", False),
    "ssthresh": ("slow-start threshold", "packets", False),
    "dupwnd": ("fast-recovery inflation", "packets", True),
    "seq": ("sequence number", "segments", True),
    "rtt_s": ("round-trip time", "s", False),
    "srtt_s": ("smoothed RTT", "s", False),
    "rttvar_s": ("RTT variation", "s", False),
    "rto_s": ("retransmission timeout", "s", False),
    "bytes": ("size", "bytes", True),
    "retransmission": ("retransmission", "", False),
    "ack": ("cumulative ACK", "segments", True),
    "n_sack": ("SACK blocks", "blocks", True),
    "event": ("event", "", False),
    "link": ("link", "", False),
    "direction": ("direction", "", False),
    "queue_len": ("queue length", "packets", True),
    "node": ("node", "", False),
    "iface": ("interface", "", False),
    "reason": ("reason", "", False),
    "kind": ("packet kind", "", False),
    "bearer": ("bearer", "", False),
    "sn": ("RLC sequence number", "PDUs", True),
    "poll": ("poll", "", False),
    "nacks": ("negative acknowledgements", "PDUs", True),
    "side": ("side", "", False),
    "delay_s": ("delay", "s", False),
    "target": ("target", "", False),
    "packets": ("packets", "packets", True),
    "throughput_bps": ("throughput", "bit/s", False),
    "jitter_s": ("jitter", "s", False),
}


def column_label(column: str) -> str:
    """An axis label for a trace column: ``congestion window (packets)``."""
    what, unit, _ = TRACE_COLUMNS.get(column, (column.replace("_", " "), "", False))
    return f"{what} ({unit})" if unit else what


def metric_label(metric: str) -> str:
    """An axis label for a per-flow summary metric, from its unit suffix:
    ``throughput_bps`` is ``throughput (bit/s)``."""
    for suffix, unit in (("_bps", "bit/s"), ("_bytes", "bytes"), ("_s", "s")):
        if metric.endswith(suffix):
            return f"{metric[: -len(suffix)].replace('_', ' ')} ({unit})"
    return metric.replace("_", " ")


def key_label(key: str) -> str:
    """A grid key path in words: ``links.0.error_a_to_b.rate`` is
    ``rate of links.0.error_a_to_b``; a one-segment key is its name with spaces."""
    head, _, last = key.rpartition(".")
    name = last.replace("_", " ")
    return f"{name} of {head}" if head else name


def step_to_end(ax, times, values, end: float | None, **style) -> None:
    """A step plot of a state that holds until its next record, carried to ``end`` (the end
    of the run) so that a flow whose state stops changing does not seem to stop."""
    import numpy as np

    t = np.asarray(times, dtype=float)
    v = np.asarray(values, dtype=float)
    if end is not None and t.size and end > t[-1]:
        t, v = np.append(t, end), np.append(v, v[-1])
    ax.step(t, v, where="post", **style)


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def folder_kind(path: str | os.PathLike[str]) -> str:
    """``"run"`` for a run folder (``summary.json``), ``"sweep"`` for a sweep folder
    (``summary.csv`` and ``runs.csv``); raises FileNotFoundError otherwise."""
    path = Path(path)
    if (path / "summary.json").is_file():
        return "run"
    if (path / "summary.csv").is_file() and (path / "runs.csv").is_file():
        return "sweep"
    raise FileNotFoundError(f"{path} is neither a run folder nor a sweep folder")


def plot_trace(
    folder: str | os.PathLike[str],
    trace: str = "cwnd",
    y: str | None = None,
    flow: str | None = None,
    out: str | os.PathLike[str] | None = None,
) -> Path:
    """Plots ``y`` (default :data:`DEFAULT_Y`) of ``trace`` against time from a run folder,
    one series per flow (only ``flow`` if given) or per link direction. Returns the image
    path (default ``<folder>/<trace>.png``)."""
    from .api import RunResult

    folder = Path(folder)
    result = RunResult.read(folder)
    frame = result.trace(trace)
    y = y or DEFAULT_Y.get(trace)
    if y is None or y not in frame.columns:
        raise ValueError(
            f"trace `{trace}` has no column `{y}`; columns: {', '.join(frame.columns)}"
        )
    if flow is not None:
        if "flow" not in frame.columns:
            raise ValueError(f"trace `{trace}` has no flow column")
        known = [str(f.get("name")) for f in result.summary.get("flows", [])]
        if flow not in known:
            raise ValueError(f"no flow `{flow}` in this run; flows: {', '.join(known)}")
        frame = frame[frame["flow"].astype(str) == flow]
    if "flow" in frame.columns:
        groups = ["flow"]
    elif "link" in frame.columns:
        groups = [c for c in ("link", "direction") if c in frame.columns]
    else:
        groups = []

    plt = _pyplot()
    from matplotlib.ticker import MaxNLocator

    end = result.summary.get("sim_seconds")
    fig, ax = plt.subplots(figsize=(8, 4.5))
    series = frame.groupby(groups, observed=True, sort=False) if groups else [("", frame)]
    for label, part in series:
        label = " ".join(str(v) for v in label) if isinstance(label, tuple) else str(label)
        if trace in _STEPS:
            step_to_end(ax, part["time_s"], part[y], end, label=label, linewidth=1)
        else:
            ax.plot(part["time_s"], part[y], ".", markersize=2, label=label)
    if end:
        ax.set_xlim(0, end)
    ax.set_xlabel(column_label("time_s"))
    ax.set_ylabel(column_label(y))
    if TRACE_COLUMNS.get(y, ("", "", False))[2]:
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    title = TRACE_TITLES.get(trace, trace)
    scenario = result.summary.get("scenario")
    seed = result.summary.get("seed")
    ax.set_title(f"{title}: {scenario}, seed {seed}" if scenario else title)
    if groups and len(ax.get_lines()) > 0:
        ax.legend(
            loc="upper left",
            bbox_to_anchor=(1.01, 1.0),
            fontsize="small",
            title=" / ".join(groups),
        )
    ax.grid(True, alpha=0.3)
    out_path = Path(out) if out is not None else folder / f"{trace}.png"
    fig.tight_layout()
    fig.savefig(out_path, dpi=120)
    plt.close(fig)
    return out_path


def plot_sweep(
    folder: str | os.PathLike[str],
    metric: str = "throughput_bps",
    x: str | None = None,
    out: str | os.PathLike[str] | None = None,
) -> Path:
    """Plots the mean of ``metric`` against grid key ``x`` (default: the first) from a sweep
    folder, with 95 % CI error bars, one line per flow and combination of the other grid keys.
    Returns the image path (default ``<folder>/<metric>.png``)."""
    folder = Path(folder)
    summary = pd.read_csv(folder / "summary.csv")
    keys = list(summary.columns[: list(summary.columns).index("flow")])
    if not keys:
        raise ValueError("the sweep has no grid keys to plot against")
    x = x or keys[0]
    if x not in keys:
        raise ValueError(f"`{x}` is not a grid key of this sweep; grid keys: {', '.join(keys)}")
    rows = summary[summary["metric"] == metric]
    if rows.empty:
        known = ", ".join(dict.fromkeys(summary["metric"]))
        raise ValueError(f"no metric `{metric}` in this sweep; metrics: {known}")
    others = [k for k in keys if k != x]

    numeric = pd.api.types.is_numeric_dtype(rows[x])
    order = sorted(rows[x].unique()) if numeric else list(dict.fromkeys(rows[x]))
    position = {v: (v if numeric else i) for i, v in enumerate(order)}

    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for label, part in rows.groupby(["flow", *others], sort=False):
        label = label if isinstance(label, tuple) else (label,)
        name = ", ".join(
            [str(label[0]), *(f"{key_label(k)} = {v}" for k, v in zip(others, label[1:]))]
        )
        part = part.assign(_pos=part[x].map(position)).sort_values("_pos")
        ax.errorbar(
            part["_pos"],
            part["mean"],
            yerr=part["ci95"].fillna(0),
            marker="o",
            capsize=3,
            label=name,
        )
    if not numeric:
        ax.set_xticks(range(len(order)), [str(v) for v in order])
    ax.set_xlabel(key_label(x))
    ax.set_ylabel(f"{metric_label(metric)}, mean and 95 % CI")
    ax.set_title(f"{metric_label(metric).split(' (')[0].capitalize()} against {key_label(x)}")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small", title="flow")
    ax.grid(True, alpha=0.3)
    out_path = Path(out) if out is not None else folder / f"{metric}.png"
    fig.tight_layout()
    fig.savefig(out_path, dpi=120)
    plt.close(fig)
    return out_path
