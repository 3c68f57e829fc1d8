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
