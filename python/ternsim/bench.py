"""Benchmarks: how fast the core runs the scenarios in ``scenarios/bench/``.

This module owns timing those scenarios and reporting, per scenario, events per wall-clock
second, simulated seconds per wall-clock second and wall time. Times are the core's own
measurement of the run (``wall_seconds`` in the summary), without loading or trace decoding.
A full benchmark keeps the fastest of three runs; ``quick`` does one run with the simulated
time cut to :data:`QUICK_DURATION`.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

from . import _native
from .api import prepare, scenario_json
from .paths import scenario_path

__all__ = ["QUICK_DURATION", "bench_scenarios", "run_bench", "run_scaling"]

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


def _timed_process(argv: list[str], cwd: str) -> tuple[float, int, int]:
    """Runs ``argv`` in ``cwd``; returns (wall seconds, peak resident memory in kB, exit
    status). The peak is the process's own: it is forked from the small launcher of
    :func:`_child`, not from this process, whose memory a forked child's max RSS would
    include."""
    r = _child(argv, cwd)
    return float(r["seconds"]), int(r["peak_kb"]), int(r["status"])


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


# ---- Scaling with the number of nodes ------------------------------------------------------

#: The ns-2 script both simulators run for ``ternsim bench --scaling``.
SCALING_SCRIPT = "bench/manet_scale.tcl"
#: Node counts ``--scaling`` measures unless told otherwise.
SCALING_NODES = (200, 500, 1000)
#: What ns-2 users do when ``ns`` is missing (Debian and Ubuntu package it).
NS2_INSTALL = "apt-get install ns2"

# The traffic and movement of manet_scale.tcl (its header says the same): random waypoint
# from setdest -v 1 with pause 0 s and speeds U(0, 10] m/s; one cbrgen CBR connection
# (512-byte packets, 4 per second) per 5 nodes.
_MAX_SPEED = 10.0
_PAUSE = 0.0
_RATE = 4.0
_NODES_PER_CONNECTION = 5


def scaling_side(nodes: int) -> int:
    """Side in metres of the square that holds ``nodes`` at ns-2's usual density, 50 nodes per
    500 m x 500 m (the same formula as manet_scale.tcl: ceil(500 sqrt(nodes / 50)))."""
    return math.ceil(500.0 * math.sqrt(nodes / 50.0))


def scaling_connections(nodes: int) -> int:
    """cbrgen's ``-mc`` for ``nodes``: one CBR connection per 5 nodes (at least one)."""
    return max(1, nodes // _NODES_PER_CONNECTION)


def write_scaling_inputs(folder: Path, nodes: int, duration: float, seed: int = 1) -> list[str]:
    """Writes the movement file (``scen``) and connection file (``conn``) of ``nodes`` nodes
    into ``folder``; returns manet_scale.tcl's arguments: NODES DURATION SEED SCEN CONN."""
    from . import generators

    side = float(scaling_side(nodes))
    scen, conn = Path(folder) / f"scen-{nodes}", Path(folder) / f"conn-{nodes}"
    scen.write_text(
        generators.setdest(
            version=1,
            nodes=nodes,
            pause=_PAUSE,
            max_speed=_MAX_SPEED,
            time=duration,
            width=side,
            height=side,
            seed=seed,
        )
    )
    conn.write_text(
        generators.cbrgen(
            kind="cbr",
            nodes=nodes,
            seed=seed,
            max_connections=scaling_connections(nodes),
            rate=_RATE,
        )
    )
    return [str(nodes), f"{duration:g}", str(seed), str(scen), str(conn)]


def power_law_exponent(xs: list[float], ys: list[float]) -> float | None:
    """The exponent b of y = a x^b fitted by least squares on log y against log x; None with
    fewer than two distinct positive x (or a non-positive y)."""
    points = [(math.log(x), math.log(y)) for x, y in zip(xs, ys) if x > 0 and y and y > 0]
    if len(points) != len(xs) or len({p[0] for p in points}) < 2:
        return None
    mx = sum(p[0] for p in points) / len(points)
    my = sum(p[1] for p in points) / len(points)
    sxx = sum((p[0] - mx) ** 2 for p in points)
    return sum((p[0] - mx) * (p[1] - my) for p in points) / sxx


#: Runs a command and reports its wall and CPU seconds, peak memory and exit status as JSON
#: (argv: REPORT TIMEOUT COMMAND...). A child's ``ru_maxrss`` includes the memory of the
#: process it was forked from (Linux carries the forked image's high-water mark over
#: ``exec``), so the measured command is forked from this small process (about 7 MB under
#: ``python -S``) rather than from ternsim's own (40 MB and more).
_LAUNCHER = r"""
import os, signal, sys, time
report, timeout, argv = sys.argv[1], float(sys.argv[2]), sys.argv[3:]
killed = []
start = time.perf_counter()
pid = os.fork()
if pid == 0:
    try:
        os.execvp(argv[0], argv)
    finally:
        os._exit(127)
def kill(*_):
    killed.append(True)
    os.kill(pid, signal.SIGKILL)
if timeout > 0:
    signal.signal(signal.SIGALRM, kill)
    signal.setitimer(signal.ITIMER_REAL, timeout)
_, status, ru = os.wait4(pid, 0)
seconds = time.perf_counter() - start
signal.setitimer(signal.ITIMER_REAL, 0)
import json
with open(report, "w") as f:
    json.dump({"seconds": seconds, "cpu_seconds": ru.ru_utime + ru.ru_stime,
               "peak_kb": ru.ru_maxrss, "status": os.waitstatus_to_exitcode(status),
               "timed_out": bool(killed)}, f)
"""


def _child(
    argv: list[str], cwd: str, timeout: float | None = None, stdout: Path | None = None
) -> dict[str, Any]:
    """Runs ``argv`` in ``cwd`` (stdout to the file ``stdout`` or discarded), killed after
    ``timeout`` seconds; returns its wall seconds, CPU seconds (user + system), peak resident
    memory in kB (its own max RSS, see :data:`_LAUNCHER`), exit status, whether it was
    killed, and the 1-minute load average before it started."""
    import json
    import os
    import subprocess
    import sys

    load = os.getloadavg()[0]
    report = Path(cwd) / ".ternsim-child.json"
    launcher = [sys.executable, "-S", "-c", _LAUNCHER, str(report), str(timeout or 0), *argv]
    with open(stdout, "wb") if stdout is not None else open(os.devnull, "wb") as sink:
        subprocess.run(launcher, cwd=cwd, stdout=sink, stderr=subprocess.DEVNULL, check=True)
    result = json.loads(report.read_text())
    report.unlink()
    result["load"] = round(load, 2)
    return result


def run_scaling(
    nodes: tuple[int, ...] | list[int] = SCALING_NODES,
    duration: float = 100.0,
    repeat: int = 2,
    ns2_timeout: float | None = 900.0,
    seed: int = 1,
    ns2: bool = True,
    progress: Any = None,
) -> dict[str, Any]:
    """Times manet_scale.tcl (:data:`SCALING_SCRIPT`) at each node count in ns-2 and in
    ternsim, ``repeat`` times each, one process at a time.

    For each count the movement and connection files are written once (ternsim's setdest
    and cbrgen, ns-2's file formats); then, on the same script and files: ``ns`` (when on the
    PATH and ``ns2``; killed after ``ns2_timeout`` s), ``ternsim ns2`` (the script unchanged,
    as a whole process) and ``ternsim run`` of the script's ``--to-toml`` translation (the
    same scenario without the front end, which also gives the event count and the core's own
    time). Each side keeps its fastest run and its highest peak memory (the child's max RSS);
    every run is listed with the load average before it. The exponents b of time ~ N^b are
    least-squares fits over the node counts (None with fewer than two, or when a run of that
    side failed or timed out)."""
    import json
    import shutil
    import sys
    import tempfile

    from .ns2 import script_to_toml

    script = scenario_path(SCALING_SCRIPT)
    ns = shutil.which("ns") if ns2 else None
    ternsim = [sys.executable, "-m", "ternsim"]
    rows: list[dict[str, Any]] = []
    for n in nodes:
        with tempfile.TemporaryDirectory(prefix="ternsim-scaling-") as tmp:
            args = write_scaling_inputs(Path(tmp), n, duration, seed)
            toml = Path(tmp) / "manet_scale.toml"
            toml.write_text(script_to_toml(script, args)[0])
            sides: dict[str, list[dict[str, Any]]] = {
                "ns2": [],
                "ternsim_ns2": [],
                "ternsim_run": [],
            }
            summary: dict[str, Any] = {}
            for k in range(max(1, repeat)):
                # After a run that was killed at the timeout, the next would be too.
                if ns is not None and not any(r["timed_out"] for r in sides["ns2"]):
                    if progress:
                        progress(f"{n} nodes, run {k + 1}: ns")
                    sides["ns2"].append(_child([ns, str(script), *args], tmp, ns2_timeout))
                if progress:
                    progress(f"{n} nodes, run {k + 1}: ternsim ns2")
                sides["ternsim_ns2"].append(_child([*ternsim, "ns2", str(script), *args], tmp))
                if progress:
                    progress(f"{n} nodes, run {k + 1}: ternsim run")
                out = Path(tmp) / "summary.json"
                run = _child([*ternsim, "run", str(toml), "--json"], tmp, stdout=out)
                if run["status"] == 0:
                    summary = json.loads(out.read_text())
                    run["core_seconds"] = float(summary["wall_seconds"])
                sides["ternsim_run"].append(run)
        row: dict[str, Any] = {
            "nodes": n,
            "side_m": scaling_side(n),
            "connections": scaling_connections(n),
            "duration_s": duration,
            "events": int(summary["events"]) if summary else None,
            "ns2_timed_out": any(r["timed_out"] for r in sides["ns2"]),
            "runs": sides,
        }
        for side, runs in sides.items():
            ok = [r for r in runs if r["status"] == 0 and not r["timed_out"]]
            row[f"{side}_ok"] = bool(runs) and len(ok) == len(runs)
            row[f"{side}_seconds"] = min(r["seconds"] for r in ok) if ok else None
            row[f"{side}_cpu_seconds"] = min(r["cpu_seconds"] for r in ok) if ok else None
            row[f"{side}_peak_kb"] = max(r["peak_kb"] for r in ok) if ok else None
        cores = [r["core_seconds"] for r in sides["ternsim_run"] if "core_seconds" in r]
        row["core_seconds"] = min(cores) if cores else None
        row["events_per_second"] = (
            row["events"] / row["core_seconds"] if row["events"] and row["core_seconds"] else None
        )
        for side in ("ternsim_ns2", "ternsim_run"):
            for kind in ("seconds", "cpu_seconds"):
                a, b = row[f"ns2_{kind}"], row[f"{side}_{kind}"]
                suffix = "_cpu" if kind == "cpu_seconds" else ""
                row[f"ns2_over_{side}{suffix}"] = a / b if a and b else None
        rows.append(row)

    def fit(key: str) -> float | None:
        if any(r[key] is None for r in rows):
            return None
        return power_law_exponent([r["nodes"] for r in rows], [r[key] for r in rows])

    return {
        "script": str(script),
        "duration_s": duration,
        "repeat": max(1, repeat),
        "ns2": ns,
        "ns2_note": None
        if ns is not None
        else (
            f"ns-2 (`ns`) is not on the PATH ({NS2_INSTALL}); only ternsim was timed"
            if ns2
            else "ns-2 not run (asked)"
        ),
        "rows": rows,
        "exponents": {
            key: fit(key)
            for key in (
                "ns2_seconds",
                "ternsim_ns2_seconds",
                "ternsim_run_seconds",
                "ns2_cpu_seconds",
                "ternsim_ns2_cpu_seconds",
                "ternsim_run_cpu_seconds",
                "core_seconds",
                "events",
                "ns2_peak_kb",
                "ternsim_ns2_peak_kb",
                "ternsim_run_peak_kb",
            )
        },
    }
