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

from .errors import ScenarioError

# typing.TYPE_CHECKING without importing typing, which alone takes about 5 ms.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# The public names of the other modules, loaded on first use (PEP 562): importing ``ternsim``
# (and so the ``ternsim`` command, whose entry point is inside the package) must not pay for
# numpy, pandas and scipy, which only a run's tables, a sweep's statistics and the plots need,
# nor for pathlib, json and typing, which ``ternsim run`` loads only where it needs them.
_LAZY = {
    "RunResult": "api",
    "Simulation": "api",
    "apply_overrides": "api",
    "load_scenario": "api",
    "parse_value": "api",
    "run": "api",
    "scenario_json": "api",
    "validate": "api",
    "SweepResult": "sweep",
    "ci95": "sweep",
    "cbrgen": "generators",
    "setdest": "generators",
    "scenario_path": "paths",
}


def _version() -> str:
    # importlib.metadata takes 20-30 ms to import, as much as a short run: it loads only
    # when the version is asked for.
    from importlib import metadata

    try:
        return metadata.version("ternsim")
    except metadata.PackageNotFoundError:  # pragma: no cover - running from a bare checkout
        return "0+unknown"


def __getattr__(name: str) -> Any:
    if name == "__version__":
        globals()[name] = version = _version()
        return version
    if name == "sweep":
        # The callable module: ``ternsim.sweep(...)`` runs a sweep (see ternsim.sweep).
        return _import(".sweep")
    module = _LAZY.get(name)
    if module is None:
        # Also the answer to ``from . import _commands`` asking for a submodule not yet
        # imported, on the path of every command: no import here.
        raise AttributeError(f"module 'ternsim' has no attribute {name!r}")
    value = getattr(_import(f".{module}"), name)
    globals()[name] = value
    return value


def _import(relative: str) -> Any:
    import importlib

    return importlib.import_module(relative, __name__)


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY, "sweep", "__version__"})


__all__ = [
    "RunResult",
    "ScenarioError",
    "Simulation",
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
