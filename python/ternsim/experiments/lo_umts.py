"""Reproduction of Lo, Heijenk, Niemegeers, "On the Performance of TCP Vegas over UMTS/WCDMA
Channels with Large Round-Trip Time Variations" (seed ``lo-umts``).

One FTP transfer host → UE over a UMTS DCH (384 kb/s down, 64 kb/s up, RLC AM), TCP Reno
against TCP Vegas, the transport-block error rate (TBLER) swept from 0 to 30 %. Everything
about the network is in ``scenarios/lo-umts/reno.toml`` (and why, in the README beside it);
this module only says what the paper varies, which runs its figures need, and which of its
numbers to compare:

* the sweep: ``bearers.0.bler`` × ``flows.0.tcp`` × seeds (Fig. 5a and most numbers);
* traced runs (every seed) of Reno and Vegas at 5 % and 30 % TBLER: cwnd (Figs. 5b, 7a), RTT
  samples (Figs. 6a, 6b), segments, ACKs and timeouts (Fig. 7b), packet accounting (no TCP
  segment may be lost: RLC AM is fully persistent).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.ticker import MaxNLocator

from ..plot import step_to_end
from ..sweep import sweep
from . import report as rep

ID = "lo-umts"
TITLE = "Lo, Heijenk, Niemegeers: TCP Vegas over UMTS/WCDMA channels"
#: Why the report has no ns-2.35 column (stated in its intro).
NS2_ABSENT = (
    "the paper's UMTS DCH path (RLC acknowledged mode, MAC-d, TTIs, transport-block errors) "
    "needs a UMTS extension to ns-2 such as EURANE, which Debian's ns-2.35 lacks, so ns-2 "
    "cannot run any of its claims here"
)
SCENARIO = "lo-umts/reno.toml"
#: The swept key (its path contains `bler`) and the paper's TBLER grid (Fig. 5a).
BLER_KEY = "bearers.0.bler"
TBLER = [0.0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3]
TCP_KEY = "flows.0.tcp"
VARIANTS = ["reno", "vegas"]
#: Fig. 5a normalises throughput to the downlink rate.
CAPACITY_BPS = 384_000.0
#: (seeds, duration in s): full mode runs the paper's 1000 s; quick mode is for tests.
FULL = (5, 1000.0)
QUICK = (2, 100.0)
TRACED_TBLER = (0.05, 0.3)
TRACES = {"cwnd": True, "rtt": True, "segments": True, "acks": True, "tcp_events": True,
          "drops": True}  # fmt: skip


def _label(tcp: str, bler: float) -> str:
    return f"{tcp}-tbler{round(bler * 100):02d}"


def rtt_level_spacing(rtt_s: np.ndarray) -> float:
    """The spacing (s) of the discrete levels RTT samples sit on (paper Section 5.2: 20 ms).

    The samples are binned at 1 ms; a level is a bin holding at least 0.5 % of them, and the
    spacing is the most common gap between neighbouring levels (an empty level in between
    shows up as a double gap and does not outvote the regular one). NaN without enough
    samples or levels."""
    rtt = np.asarray(rtt_s, dtype=float)
    rtt = rtt[np.isfinite(rtt)]
    if rtt.size < 50:
        return math.nan
    ms, counts = np.unique(np.round(rtt * 1000).astype(int), return_counts=True)
    levels = ms[counts >= 0.005 * rtt.size]
    if levels.size < 3:
        return math.nan
    gaps, votes = np.unique(np.diff(levels), return_counts=True)
    return float(gaps[np.argmax(votes)]) / 1000.0


def _spurious_timeouts(events: pd.DataFrame) -> pd.DataFrame:
    """Timer expiries (``timeout`` events) whose segment later proved spurious; columns
    ``time_s`` (the expiry), ``seq``, ``proved_s`` (when the original arrived)."""
    if events.empty:
        return pd.DataFrame(columns=["time_s", "seq", "proved_s"])
    ev = events.assign(event=events["event"].astype(str))
    timeouts = ev[ev["event"] == "timeout"]
    proved = ev[ev["event"] == "spurious_timeout"]
    rows = []
    for p in proved.itertuples(index=False):
        before = timeouts[(timeouts["seq"] == p.seq) & (timeouts["time_s"] <= p.time_s)]
        if not before.empty:
            rows.append({"time_s": float(before["time_s"].iloc[-1]), "seq": int(p.seq),
                         "proved_s": float(p.time_s)})  # fmt: skip
    return pd.DataFrame(rows, columns=["time_s", "seq", "proved_s"])


def _figures(tmp: Path, runs: pd.DataFrame, traced: dict[tuple[str, float, int], Any]):
    plt = rep.pyplot()
    figs: list[tuple[str, str]] = []
    colors = {"reno": "tab:blue", "vegas": "tab:red"}

    # Fig. 5a: throughput / 384 kb/s against TBLER, mean and 95 % CI.
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    for tcp in VARIANTS:
        xs, ys, es = [], [], []
        for bler in TBLER:
            v = rep.per_seed(runs, "throughput_bps", {BLER_KEY: bler, TCP_KEY: tcp})
            mean, ci, n, _ = rep.ci95([x / CAPACITY_BPS for x in v])
            xs.append(bler * 100)
            ys.append(mean)
            es.append(0.0 if math.isnan(ci) else ci)
        ax.errorbar(xs, ys, yerr=es, marker="o", capsize=3, color=colors[tcp],
                    label=tcp.capitalize())  # fmt: skip
    ax.set_xlabel("TBLER (%)")
    ax.set_ylabel("throughput / 384 kb/s")
    ax.set_ylim(0, 1.05)
    ax.grid(True, alpha=0.3)
    ax.legend()
    ax.set_title("Fig. 5(a) throughput vs TBLER")
    figs.append((rep.save_figure(fig, tmp / "fig5a_throughput.png").name,
                 "Fig. 5(a): throughput normalised to 384 kb/s vs TBLER"))  # fmt: skip

    def cwnd_plot(bler: float, name: str, caption: str, mark_spurious: bool) -> None:
        fig, ax = plt.subplots(figsize=(7.5, 4.0))
        for tcp in VARIANTS:
            r = traced.get((tcp, bler, 1))
            if r is None:
                continue
            c = r.trace("cwnd")
            # The window holds its last value to the end of the run (a step plot would
            # otherwise stop at the last change, as if the flow had stopped).
            step_to_end(ax, c["time_s"], c["cwnd"], r.summary.get("sim_seconds"),
                        color=colors[tcp], label=tcp.capitalize(), linewidth=0.8)  # fmt: skip
            if mark_spurious and tcp == "vegas":
                sp = _spurious_timeouts(r.trace("tcp_events"))
                if not sp.empty:
                    at = np.searchsorted(c["time_s"].to_numpy(), sp["time_s"].to_numpy())
                    level = c["cwnd"].to_numpy()[np.clip(at - 1, 0, len(c) - 1)]
                    ax.plot(sp["time_s"], level + 4, "v", color="black", markersize=5,
                            label="spurious timeout (Vegas)")  # fmt: skip
        ax.set_xlim(0, max((r.summary.get("sim_seconds") or 0) for r in traced.values()))
        ax.set_xlabel("time (s)")
        ax.set_ylabel("cwnd (segments)")
        ax.grid(True, alpha=0.3)
        ax.legend(loc="center right", fontsize="small")
        ax.set_title(caption.split(":")[0])
        figs.append((rep.save_figure(fig, tmp / name).name, caption))

    cwnd_plot(0.05, "fig5b_cwnd_5pct.png", "Fig. 5(b): cwnd vs time, TBLER 5 % (seed 1)", False)

    vegas5 = traced.get(("vegas", 0.05, 1))
    if vegas5 is not None:
        rtt = vegas5.trace("rtt")
        fig, ax = plt.subplots(figsize=(7.5, 4.0))
        ax.plot(rtt["time_s"], rtt["rtt_s"], ".", markersize=1.5, color="tab:red")
        ax.set_xlabel("time (s)")
        ax.set_ylabel("RTT (s)")
        ax.grid(True, alpha=0.3)
        ax.set_title(f"Fig. 6(a) Vegas RTT samples, TBLER 5 % ({len(rtt):,} samples)")
        figs.append((rep.save_figure(fig, tmp / "fig6a_rtt_5pct.png").name,
                     "Fig. 6(a): Vegas RTT samples vs time, TBLER 5 % (seed 1)"))  # fmt: skip
        fig, ax = plt.subplots(figsize=(6.4, 4.0))
        values = rtt["rtt_s"].to_numpy()
        if values.size:
            edges = np.arange(np.floor(values.min() * 200) / 200, values.max() + 0.005, 0.005)
            ax.hist(values, bins=edges, color="tab:red", edgecolor="black", linewidth=0.3)
        ax.set_xlabel("RTT (s), 5 ms bins")
        ax.set_ylabel("samples")
        ax.grid(True, alpha=0.3)
        ax.set_title("Fig. 6(b) Vegas RTT distribution, TBLER 5 %")
        figs.append((rep.save_figure(fig, tmp / "fig6b_rtt_hist_5pct.png").name,
                     "Fig. 6(b): Vegas RTT histogram, TBLER 5 % (seed 1)"))  # fmt: skip

    caption = "Fig. 7(a): cwnd vs time, TBLER 30 % (seed 1; triangles: spurious timeouts)"
    cwnd_plot(0.3, "fig7a_cwnd_30pct.png", caption, True)

    # Fig. 7(b): the segment trace around a spurious timeout of Vegas at 30 %.
    fig, ax = plt.subplots(figsize=(7.5, 4.5))
    candidates = [traced[k] for k in sorted(traced, key=lambda k: k[2]) if k[:2] == ("vegas", 0.3)]
    with_spurious = [r for r in candidates if not _spurious_timeouts(r.trace("tcp_events")).empty]
    vegas30 = with_spurious[0] if with_spurious else None
    vegas30 = vegas30 or traced.get(("vegas", 0.3, 1))
    title = "Fig. 7(b) Vegas segment trace, TBLER 30 %"
    if vegas30 is not None:
        ev = vegas30.trace("tcp_events")
        sp = _spurious_timeouts(ev)
        timeouts = ev[ev["event"].astype(str) == "timeout"] if not ev.empty else ev
        if not sp.empty:
            t0 = float(sp["time_s"].iloc[0])
            title += f" (seed {vegas30.seed}, spurious timeout at {t0:.2f} s)"
        elif not timeouts.empty:
            t0 = float(timeouts["time_s"].iloc[0])
            title += f" (seed {vegas30.seed}: no spurious timeout; first timeout {t0:.2f} s)"
        else:
            t0 = float(vegas30.summary.get("sim_seconds", 10.0)) / 2
            title += f" (seed {vegas30.seed}: no timeout at all)"
        # Zoom on the timeout: from shortly before it to shortly after the original segment
        # is proved to have arrived, so that each send, ACK and retransmission is apart.
        proved = float(sp["proved_s"].iloc[0]) if not sp.empty else t0
        lo, hi = t0 - 0.4, max(proved, t0) + 0.6
        seg = vegas30.trace("segments")
        seg = seg[(seg["time_s"] >= lo) & (seg["time_s"] <= hi)]
        new = seg[seg["retransmission"] == 0]
        rtx = seg[seg["retransmission"] != 0]
        ax.plot(new["time_s"], new["seq"], "o", markersize=3, color="black",
                label="segment sent")  # fmt: skip
        ax.plot(rtx["time_s"], rtx["seq"], "x", markersize=7, color="tab:red",
                label="retransmission")  # fmt: skip
        acks = vegas30.trace("acks")
        if not acks.empty:
            acks = acks[(acks["time_s"] >= lo) & (acks["time_s"] <= hi)]
            ax.step(acks["time_s"], acks["ack"], where="post", color="tab:green",
                    linewidth=0.8, label="ACK received")  # fmt: skip
        first = True
        for t in timeouts["time_s"] if not timeouts.empty else []:
            if lo <= t <= hi:
                ax.axvline(t, color="tab:orange", linestyle="--", linewidth=1,
                           label="timeout" if first else None)  # fmt: skip
                first = False
        shown = sp[(sp["time_s"] >= lo) & (sp["time_s"] <= hi)]
        if not shown.empty:
            ax.plot(shown["proved_s"], shown["seq"], "*", markersize=12, color="tab:purple",
                    label="original arrives (timeout was spurious)")  # fmt: skip
        ax.set_xlim(lo, hi)
        if not seg.empty:
            ax.set_ylim(float(seg["seq"].min()) - 2, float(seg["seq"].max()) + 3)
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("time (s)")
    ax.set_ylabel("sequence number (segments)")
    ax.grid(True, alpha=0.3)
    ax.legend(loc="upper left", fontsize="small")
    ax.set_title(title, fontsize="medium")
    figs.append((rep.save_figure(fig, tmp / "fig7b_spurious_timeout_30pct.png").name,
                 "Fig. 7(b): Vegas segments, retransmissions and timeouts around a spurious "
                 "timeout, TBLER 30 %"))  # fmt: skip
    return figs


def _claims(runs: pd.DataFrame, traced: dict, duration: float) -> list[rep.Claim]:
    C = rep.Claim

    def thr(tcp: str, bler: float) -> list[float]:
        return rep.per_seed(runs, "throughput_bps", {BLER_KEY: bler, TCP_KEY: tcp},
                            lambda v: v / CAPACITY_BPS)  # fmt: skip

    def metric(tcp: str, bler: float, name: str) -> list[float]:
        return rep.per_seed(runs, name, {BLER_KEY: bler, TCP_KEY: tcp})

    def from_traces(tcp: str, bler: float, fn) -> list[float]:
        return [fn(r) for (t, b, _), r in sorted(traced.items(), key=lambda kv: kv[0][2])
                if t == tcp and b == bler]  # fmt: skip

    top = TBLER[-1]
    reno_top, vegas_top = thr("reno", top), thr("vegas", top)
    below = [1 - v / r for v, r in zip(vegas_top, reno_top) if r > 0]
    gap = [r - v for v, r in zip(vegas_top, reno_top)]

    spurious_mean = {b: np.mean(metric("vegas", b, "spurious_timeouts") or [np.nan])
                     for b in TBLER}  # fmt: skip
    onset = [b for b in TBLER if spurious_mean[b] > 0]
    onset_text = f"{min(onset):.2f}" if onset else "none up to 0.30"
    n_samples = from_traces("vegas", 0.05, lambda r: len(r.trace("rtt")) * 1000.0 / duration)
    spacing = from_traces("vegas", 0.05, lambda r: rtt_level_spacing(r.trace("rtt")["rtt_s"]))
    max_cwnd = {tcp: from_traces(tcp, 0.05, lambda r: float(r.trace("cwnd")["cwnd"].max()))
                for tcp in VARIANTS}  # fmt: skip
    drops = [
        float(
            sum(
                v for k, v in r.summary["packets"].get("drops_by_reason", {}).items() if k != "none"
            )
        )  # fmt: skip
        for r in traced.values()
    ]
    reno_rtx = [float(v) for v in rep.per_seed(runs, "retransmitted_segments", {TCP_KEY: "reno"})]
    scale = "" if duration == 1000 else f" (count × 1000 s / {duration:g} s)"
    return [
        C("Reno throughput / 384 kb/s, TBLER 0", "≈ 0.96", thr("reno", 0.0),
          paper_value=0.96, tolerance=0.03, criterion="±0.03"),
        C("Vegas throughput / 384 kb/s, TBLER 0", "≈ 0.96", thr("vegas", 0.0),
          paper_value=0.96, tolerance=0.03, criterion="±0.03"),
        C("Vegas throughput / 384 kb/s, TBLER 0.30", "0.05", vegas_top,
          paper_value=0.05, tolerance=0.05, criterion="±0.05"),
        C("Reno throughput / 384 kb/s, TBLER 0.30",
          "≈ 0.65 (0.05 + 0.60; '60 % lower' read as points)", reno_top, paper_value=0.65,
          tolerance=0.1, criterion="±0.10", note="the relative reading would give 0.125"),
        C("Reno − Vegas throughput / 384 kb/s, TBLER 0.30", "0.60 ('60 % lower')", gap,
          paper_value=0.60, tolerance=0.1, criterion="±0.10"),
        C("Vegas below Reno at TBLER 0.30, relative (1 − Vegas/Reno)",
          "0.60 if '60 % lower' is relative", below, note="informational: the other reading"),
        C("Reno max cwnd, TBLER 0.05 (segments)", "64 (reaches the window)",
          max_cwnd["reno"], fmt=".2f", check=lambda m: 64 <= m < 65,
          criterion="64 ≤ max < 65", note="traced runs; ns-2 maxcwnd_ caps int(cwnd) at 64"),
        C("Reno mean cwnd, TBLER 0.05 (segments)", "≈ 64 ('remains at this size')",
          metric("reno", 0.05, "mean_cwnd"), fmt=".1f", paper_value=64, tolerance=3,
          criterion="±3"),
        C("Vegas max cwnd, TBLER 0.05 (segments)", "7", max_cwnd["vegas"], fmt=".1f",
          paper_value=7, tolerance=1, criterion="±1", note="traced runs"),
        C("Vegas mean cwnd, TBLER 0.05 (segments)", "≈ 5", metric("vegas", 0.05, "mean_cwnd"),
          fmt=".2f", paper_value=5, tolerance=1, criterion="±1"),
        C("Vegas RTT min, TBLER 0.05 (s)", "0.12", metric("vegas", 0.05, "rtt_min_s"),
          paper_value=0.12, tolerance=0.005, criterion="±5 ms"),
        C("Vegas RTT mean, TBLER 0.05 (s)", "≈ 0.2", metric("vegas", 0.05, "rtt_mean_s"),
          paper_value=0.2, tolerance=0.03, criterion="±30 ms"),
        C("Vegas RTT max, TBLER 0.05 (s)", "0.56", metric("vegas", 0.05, "rtt_max_s"),
          paper_value=0.56, tolerance=0.15, criterion="±0.15 s"),
        C("Vegas RTT samples in 1000 s, TBLER 0.05", "≈ 26,000", n_samples, fmt=",.0f",
          paper_value=26000, tolerance=5000, criterion="±5,000",
          note="traced runs" + scale),
        C("Spacing of RTT levels, TBLER 0.05 (s)", "0.020", spacing, paper_value=0.02,
          tolerance=0.0025, criterion="±2.5 ms", note="autocorrelation of the 1 ms histogram"),
        C("Lowest TBLER with Vegas spurious timeouts", "0.20 ('for TBLERs ≥ 20 %')",
          [min(onset)] if onset else [], fmt=".2f", text=onset_text,
          check=lambda m: abs(m - 0.2) < 0.051, criterion="0.15..0.25",
          note="mean over seeds > 0"),
        C("Vegas spurious timeouts per run, TBLER 0.30", "'several' (Fig. 7a arrows)",
          metric("vegas", top, "spurious_timeouts"), fmt=".1f", check=lambda m: m >= 2,
          criterion="≥ 2"),
        C("Reno spurious timeouts per run, TBLER 0.30", "none ('no abnormality')",
          metric("reno", top, "spurious_timeouts"), fmt=".1f", check=lambda m: m == 0,
          criterion="= 0"),
        C("TCP segments lost (packet drops, traced runs)", "0 ('RLC delivered every segment')",
          drops, fmt=".0f", check=lambda m: m == 0, criterion="= 0"),
        C("Reno retransmissions per run, all TBLERs", "0 (no loss, no abnormality)", reno_rtx,
          fmt=".1f", check=lambda m: m == 0, criterion="= 0"),
    ]  # fmt: skip


def _summary_table(runs: pd.DataFrame) -> pd.DataFrame:
    rows = []
    for bler in TBLER:
        for tcp in VARIANTS:
            where = {BLER_KEY: bler, TCP_KEY: tcp}

            def cell(name: str, fmt: str, scale: float = 1.0, where=where) -> str:
                values = [v * scale for v in rep.per_seed(runs, name, where)]
                return rep.mean_ci_text(values, fmt)

            rows.append({
                "TBLER": f"{bler:.2f}",
                "TCP": tcp,
                "throughput / 384 kb/s": cell("throughput_bps", ".3f", 1 / CAPACITY_BPS),
                "goodput (kb/s)": cell("goodput_bps", ".1f", 1e-3),
                "mean cwnd": cell("mean_cwnd", ".1f"),
                "RTT mean (s)": cell("rtt_mean_s", ".3f"),
                "RTT max (s)": cell("rtt_max_s", ".2f"),
                "timeouts": cell("timeouts", ".1f"),
                "spurious timeouts": cell("spurious_timeouts", ".1f"),
                "retransmissions": cell("retransmitted_segments", ".1f"),
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
    result = sweep(
        base,
        {BLER_KEY: TBLER, TCP_KEY: VARIANTS},
        seeds=n_seeds,
        jobs=jobs,
        out=tmp,
        cache_dir=cache_dir,
        progress=progress,
        cache=cache,
    )
    if len(result.failures):
        first = result.failures.iloc[0]
        raise RuntimeError(f"{len(result.failures)} runs failed, e.g.: {first['error']}")
    runs = result.runs

    specs = []
    for bler in TRACED_TBLER:
        for tcp in VARIANTS:
            for seed in range(1, n_seeds + 1):
                scenario = dict(base, traces=dict(TRACES))
                scenario["flows"] = [dict(scenario["flows"][0], tcp=tcp)]
                scenario["bearers"] = [dict(scenario["bearers"][0], bler=bler)]
                specs.append((_label(tcp, bler), scenario, seed))
    done = rep.traced_runs(specs, jobs=jobs)
    traced = {}
    for (_, scenario, seed), r in zip(specs, done):
        traced[(scenario["flows"][0]["tcp"], scenario["bearers"][0]["bler"], seed)] = r
    rep.write_traced([r for r in done if r.seed == 1], tmp / "traces")

    figures = _figures(tmp, runs, traced)
    claims = _claims(runs, traced, duration)
    summary = _summary_table(runs)
    mode = "quick" if quick else "full"
    intro = f"""
Reproduction of seed paper `lo-umts` with ternsim (`ternsim reproduce lo-umts{
        " --quick" if quick else ""
    }`): {mode} mode, {n_seeds} seeds per point, {duration:g} s per run (the paper: one
run of 1000 s per point). Scenario: `scenarios/lo-umts/reno.toml` (its README explains every
value); swept `{BLER_KEY}` = {", ".join(f"{b:g}" for b in TBLER)} × `{TCP_KEY}` = reno, vegas.
Sweep files: `runs.csv`, `runs.parquet`, `summary.csv`; the side-by-side table: `claims.csv`;
the seed-1 traced runs behind the figures: `traces/`. Throughput is ternsim's
`throughput_bps` (bits of 552-byte IP packets received by the UE, duplicates included) over
384 kb/s, as in Fig. 5(a). "agrees" applies the stated criterion to the mean.
No ns-2.35 column: {NS2_ABSENT}.
"""
    text = rep.render_markdown(
        TITLE, intro, claims, rep.markdown_table(summary), figures, extra=[NOTES]
    )
    (tmp / rep.REPORT_FILE).write_text(text, encoding="utf-8")
    return rep.Report(ID, TITLE, tmp, claims, summary, [f for f, _ in figures], 0.0, quick)


NOTES = """
## Notes

* Values the paper does not give (core delays, poll-window threshold, status-prohibit timer,
  the ns-2 release) are chosen and justified in `scenarios/lo-umts/README.md`.
* RTT samples are ternsim's exact per-ACK samples (timestamp echo for every ACK of new data);
  the paper's come from its trace files, which are not described further.
"""
