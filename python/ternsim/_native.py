"""The one door to the compiled core, ``ternsim._core``.

This module owns importing the extension (with a clear message when it has not been built),
converting the core's ``ScenarioError`` to :class:`ternsim.errors.ScenarioError`, and decoding
the columnar trace payloads the core returns into numpy arrays. It holds no simulation logic and
does not know the scenario schema.

It imports no pandas, so sweep workers that only need summaries start quickly.
"""

from __future__ import annotations

import sys

from . import _json_plain
from .errors import ScenarioError

# typing.TYPE_CHECKING without importing typing, which takes about 5 ms of a run's start.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import ModuleType
    from typing import Any, Callable

__all__ = [
    "core",
    "core_version",
    "validate_json",
    "run_json",
    "run_summary_json",
    "simulation",
    "output",
    "decode_column",
]

_DTYPES = {"f64": "<f8", "i64": "<i8", "u8": "u1"}


def core() -> ModuleType:
    """Returns ``ternsim._core``, or raises ImportError saying how to build it."""
    try:
        # importlib.import_module("ternsim._core"), without importing importlib (which the
        # ``ternsim`` console script has not loaded: a millisecond or two).
        __import__("ternsim._core")
    except ImportError as exc:  # pragma: no cover - depends on the build
        raise ImportError(
            "the ternsim core extension (ternsim._core) is not built; "
            "run `maturin develop --release` or `pip install -e .` in the repository"
        ) from exc
    return sys.modules["ternsim._core"]


def core_version() -> str:
    """The core's version string (part of every cache key)."""
    return str(core().version())


def _reraise(exc: BaseException) -> ScenarioError:
    msg = str(exc.args[0]) if exc.args else str(exc)
    return ScenarioError(" ".join(msg.split()))


def validate_json(scenario_json: str) -> list[str]:
    """Validates a scenario given as JSON; raises ScenarioError naming the key path. Returns
    the files the scenario reads (error and application traces), resolved."""
    mod = core()
    try:
        return list(mod.validate(scenario_json))
    except mod.ScenarioError as exc:
        raise _reraise(exc) from None


def run_json(
    scenario_json: str,
    seed: int,
    pcap: str | None = None,
    ns2_trace: bool = False,
    progress: Callable[[float, int], object] | None = None,
) -> dict[str, Any]:
    """Runs a scenario given as JSON; returns ``{"summary": dict, "traces": raw payloads}``,
    plus ``"pcap"`` (bytes) when ``pcap`` names a flow or node and ``"ns2_trace"`` (str) when
    ``ns2_trace`` is true. ``progress(simulated_seconds, events)``, if given, is called every
    2**18 events."""
    mod = core()
    try:
        out = mod.run(scenario_json, int(seed), pcap=pcap, ns2_trace=ns2_trace, progress=progress)
    except mod.ScenarioError as exc:
        raise _reraise(exc) from None
    return output(out)


def output(out: Any) -> dict[str, Any]:
    """The core's output dict with its summary parsed (what :func:`run_json` returns)."""
    # json.loads without importing json (see ternsim._json_plain).
    result = {"summary": _json_plain.loads(out["summary"]), "traces": out.get("traces", {})}
    for key in ("pcap", "ns2_trace"):
        if key in out:
            result[key] = out[key]
    return result


def simulation(
    scenario_json: str,
    seed: int,
    ns2_trace: bool = False,
    ns2_omit: tuple[str, ...] = (),
    ns2_mac: bool = False,
    ns2_events: bool = False,
    ns2_exact_times: bool = False,
    ns2_newtrace: bool = False,
) -> Any:
    """The core's steppable run (``ternsim._core.Simulation``), built and paused at 0."""
    mod = core()
    try:
        return mod.Simulation(
            scenario_json,
            int(seed),
            ns2_trace=ns2_trace,
            ns2_omit=list(ns2_omit),
            ns2_mac=ns2_mac,
            ns2_events=ns2_events,
            ns2_exact_times=ns2_exact_times,
            ns2_newtrace=ns2_newtrace,
        )
    except mod.ScenarioError as exc:
        raise _reraise(exc) from None


def run_summary_json(scenario_json: str, seed: int) -> str:
    """Runs a scenario and returns only its summary as a JSON string (for sweep workers)."""
    mod = core()
    try:
        out = mod.run(scenario_json, int(seed))
    except mod.ScenarioError as exc:
        raise _reraise(exc) from None
    return str(out["summary"])


def decode_column(payload: Any) -> Any:
    """Decodes one column payload: ``(dtype, bytes)`` to a numpy array, ``("str", list)`` to a
    list of str."""
    import numpy as np

    dtype, data = payload
    if dtype == "str":
        return list(data)
    try:
        np_dtype = _DTYPES[dtype]
    except KeyError:
        raise ValueError(f"unknown trace column dtype {dtype!r} from the core") from None
    return np.frombuffer(bytes(data), dtype=np_dtype)
