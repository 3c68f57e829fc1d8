"""Benchmarks: how fast the core runs the scenarios in ``scenarios/bench/``.

This module owns timing those scenarios and reporting, per scenario, events per wall-clock
second, simulated seconds per wall-clock second and wall time. Times are the core's own
measurement of the run (``wall_seconds`` in the summary), without loading or trace decoding.
A full benchmark keeps the fastest of three runs; ``quick`` does one run with the simulated
time cut to :data:`QUICK_DURATION`.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from . import _native
from .api import prepare, scenario_json
from .paths import scenario_path

__all__ = ["QUICK_DURATION", "bench_scenarios", "run_bench"]

#: Simulated time a quick benchmark runs at most.
QUICK_DURATION = "2s"
_QUICK_SECONDS = 2.0
_SECONDS = {"s": 1.0, "ms": 1e-3, "us": 1e-6, "ns": 1e-9, "min": 60.0}


def bench_scenarios() -> list[Path]:
    """The benchmark scenarios shipped with ternsim, sorted by name."""
    try:
        folder = scenario_path("bench")
    except FileNotFoundError:
        return []
    return sorted(folder.glob("*.toml"))


def _seconds(duration: Any) -> float | None:
    """Seconds in a duration string, or None when it is not one this module reads (the core
    is the authority on durations; this only decides whether ``quick`` shortens a run)."""
    match = re.fullmatch(r"\s*([0-9.eE+-]+)\s*(s|ms|us|ns|min)\s*", str(duration))
    if not match:
        return None
    try:
        return float(match.group(1)) * _SECONDS[match.group(2)]
    except ValueError:
        return None


def run_bench(
    paths: list[Path] | None = None, quick: bool = False, repeat: int | None = None
) -> dict[str, dict[str, float]]:
    """Runs each benchmark scenario (default: :func:`bench_scenarios`) with seed 1 and returns
    ``{name: {"events_per_second", "wall_seconds", "events", "sim_seconds",
    "sim_seconds_per_wall_second"}}``, keeping the fastest of ``repeat`` runs (default 3, or
    1 when ``quick``)."""
    repeat = repeat if repeat is not None else (1 if quick else 3)
    results: dict[str, dict[str, float]] = {}
    for path in paths if paths is not None else bench_scenarios():
        scenario = prepare(path)
        scenario.pop("traces", None)
        seconds = _seconds(scenario.get("duration"))
        if quick and (seconds is None or seconds > _QUICK_SECONDS):
            scenario["duration"] = QUICK_DURATION
        text = scenario_json(scenario)
        best: dict[str, Any] | None = None
        for _ in range(max(1, repeat)):
            summary = _native.run_json(text, 1)["summary"]
            if best is None or summary["wall_seconds"] < best["wall_seconds"]:
                best = summary
        assert best is not None
        wall = max(float(best["wall_seconds"]), 1e-12)
        results[Path(path).stem] = {
            "events_per_second": best["events"] / wall,
            "wall_seconds": float(best["wall_seconds"]),
            "events": int(best["events"]),
            "sim_seconds": float(best["sim_seconds"]),
            "sim_seconds_per_wall_second": float(best["sim_seconds"]) / wall,
        }
    return results


# ---- Side by side with ns-2 ----------------------------------------------------------------

#: The cases timed against ns-2: (name, ns-2 script and arguments, ternsim twin and
#: overrides), from the conformance cases in ``scenarios/conformance/``.
NS2_CASES: list[tuple[str, list[str], str, dict[str, Any]]] = [
    (
        "wired newreno 1000 s",
        ["wired.tcl", "TCP/Newreno", "TCPSink", "1000", "-"],
        "wired",
        {"duration": "1000s"},
    ),
    (
        "chain7 newreno dsr 100 s",
        ["chain.tcl", "Newreno", "DSR", "1", "7", "100", "0"],
        "chain",
        {},
    ),
    (
        "chain7 newreno aodv 100 s",
        ["chain.tcl", "Newreno", "AODV", "1", "7", "100", "0"],
        "chain",
        {"routing.protocol": "aodv"},
    ),
    (
        "chain7 vegas dsr 100 s",
        ["chain.tcl", "Vegas", "DSR", "1", "7", "100", "0"],
        "chain",
        {"flows.0.tcp": "vegas"},
    ),
]


def _timed_process(argv: list[str], cwd: str | None = None) -> tuple[float, int, int]:
    """Runs ``argv``; returns (wall seconds, peak resident memory in kB, exit status)."""
    import os
    import subprocess
    import time

    start = time.perf_counter()
    proc = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return time.perf_counter() - start, int(usage.ru_maxrss), proc.returncode


def run_against_ns2(repeat: int = 3) -> dict[str, dict[str, Any]]:
    """Times each case of :data:`NS2_CASES` in ns-2 (the whole ``ns`` process), in ternsim's
    core (the summary's ``wall_seconds``) and as a whole ``ternsim run`` process, keeping the
    fastest of ``repeat`` runs of each; also events per second and peak memory."""
    import shutil
    import sys
    import tempfile

    from . import api

    ns = shutil.which("ns")
    if ns is None:
        raise FileNotFoundError("ns-2 (`ns`) is not on the PATH; apt-get install ns2")
    results: dict[str, dict[str, Any]] = {}
    folder = scenario_path("conformance")
    for name, ns_args, twin, overrides in NS2_CASES:
        script, *args = ns_args
        ns_runs = []
        with tempfile.TemporaryDirectory(prefix="ternsim-bench-") as tmp:
            for _ in range(repeat):
                ns_runs.append(_timed_process([ns, str(folder / script), *args], cwd=tmp))
        scenario = str(folder / f"{twin}.toml")
        core = [api.run(scenario, seed=1, overrides=overrides).summary for _ in range(repeat)]
        sets = [a for k, v in overrides.items() for a in ("--set", f"{k}={v}")]
        run_argv = [sys.executable, "-m", "ternsim", "run", scenario, "--seed", "1", *sets]
        with tempfile.TemporaryDirectory(prefix="ternsim-bench-") as tmp:
            process = [_timed_process(run_argv, cwd=tmp) for _ in range(repeat)]
        ns_wall = min(r[0] for r in ns_runs)
        core_wall = min(s["wall_seconds"] for s in core)
        process_wall = min(r[0] for r in process)
        results[name] = {
            "ns2_seconds": ns_wall,
            "ns2_peak_kb": max(r[1] for r in ns_runs),
            "ternsim_core_seconds": core_wall,
            "ternsim_process_seconds": process_wall,
            "ternsim_peak_kb": max(r[1] for r in process),
            "events": core[0]["events"],
            "events_per_second": core[0]["events"] / core_wall if core_wall else 0.0,
            "core_speedup": ns_wall / core_wall if core_wall else 0.0,
            "process_speedup": ns_wall / process_wall if process_wall else 0.0,
            "ternsim_run_ok": all(r[2] == 0 for r in process),
        }
    return results


def sweep_against_ns2(runs: int = 40, jobs: int | None = None) -> dict[str, Any]:
    """A seed sweep of the 7-hop DSR NewReno chain as ns-2 users script one: ``runs`` ``ns``
    processes one after another (seeds 1..runs), against one ``ternsim sweep --seeds runs``
    process on every core (no cache, so every run is simulated). Wall times of the whole
    batch, both; and the ratio."""
    import os
    import shutil
    import sys
    import tempfile
    import time

    ns = shutil.which("ns")
    if ns is None:
        raise FileNotFoundError("ns-2 (`ns`) is not on the PATH; apt-get install ns2")
    folder = scenario_path("conformance")
    with tempfile.TemporaryDirectory(prefix="ternsim-bench-") as tmp:
        start = time.perf_counter()
        statuses = [
            _timed_process(
                [ns, str(folder / "chain.tcl"), "Newreno", "DSR", str(seed), "7", "100", "0"],
                cwd=tmp,
            )[2]
            for seed in range(1, runs + 1)
        ]
        ns_wall = time.perf_counter() - start
        argv = [sys.executable, "-m", "ternsim", "sweep", str(folder / "chain.toml")]
        argv += ["--seeds", str(runs), "--no-cache", "--quiet", "--out", str(Path(tmp) / "sw")]
        if jobs is not None:
            argv += ["--jobs", str(jobs)]
        ternsim_wall, _, status = _timed_process(argv, cwd=tmp)
    return {
        "case": f"sweep of {runs} seeds, chain7 newreno dsr 100 s",
        "runs": runs,
        "cores": jobs or os.cpu_count() or 1,
        "ns2_seconds": ns_wall,
        "ternsim_seconds": ternsim_wall,
        "speedup": ns_wall / ternsim_wall if ternsim_wall else 0.0,
        "ok": status == 0 and all(s == 0 for s in statuses),
    }
