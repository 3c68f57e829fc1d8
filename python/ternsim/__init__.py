"""ternsim: packet-level simulation of TCP over wireless paths.

The simulation runs in the Rust core (``ternsim._core``); this package is the front a
researcher uses: scenarios and overrides, single runs and their traces (:mod:`ternsim.api`),
sweeps with caching and confidence intervals (:mod:`ternsim.sweep`, itself callable as the
:func:`ternsim.sweep.sweep` function), quick-look plots
(:mod:`ternsim.plot`), benchmarks (:mod:`ternsim.bench`) and the ``ternsim`` command
(:mod:`ternsim.cli`). Importing the package does not load the core; the first run does.

    >>> import ternsim
    >>> result = ternsim.run("examples/dumbbell.toml", seed=1, overrides=["flows.0.tcp=vegas"])
    >>> result.flows[["name", "throughput_bps"]]
    >>> sw = ternsim.sweep("examples/dumbbell.toml", {"links.0.loss": [0, 0.01]}, seeds=10)
    >>> sw.summary
"""

from __future__ import annotations

from importlib import metadata as _metadata

from .api import (
    RunResult,
    apply_overrides,
    load_scenario,
    parse_value,
    run,
    scenario_json,
    validate,
)
from .errors import ScenarioError
from .generators import cbrgen, setdest
from .paths import scenario_path
from .sweep import SweepResult, ci95

try:
    __version__ = _metadata.version("ternsim")
except _metadata.PackageNotFoundError:  # pragma: no cover - running from a bare checkout
    __version__ = "0+unknown"

__all__ = [
    "RunResult",
    "ScenarioError",
    "SweepResult",
    "__version__",
    "apply_overrides",
    "cbrgen",
    "ci95",
    "load_scenario",
    "parse_value",
    "run",
    "scenario_json",
    "scenario_path",
    "setdest",
    "sweep",
    "validate",
]
