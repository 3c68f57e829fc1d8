"""What a sweep worker runs: one scenario, one seed, the summary back as JSON text.

This module owns the function shipped to worker processes (local or Dask). It catches every
failure of its run, panics from the core included, and returns it as a one-line message, so
one bad run never takes the sweep down. It needs only the core, not pandas.
"""

from __future__ import annotations

from . import _native

__all__ = ["run_task"]


def run_task(scenario_json: str, seed: int) -> tuple[str | None, str | None]:
    """Returns ``(summary_json, None)`` on success, ``(None, message)`` on failure."""
    try:
        return _native.run_summary_json(scenario_json, seed), None
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as exc:  # noqa: BLE001 - a core panic is a BaseException
        text = " ".join(str(exc).split()) or "(no message)"
        return None, f"{type(exc).__name__}: {text}"
