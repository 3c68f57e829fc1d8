"""Where the shipped scenarios are.

The scenarios live inside the package (``ternsim/scenarios/``) so that a wheel carries them;
the repository's top-level ``scenarios/`` is a symbolic link to that folder, so there is one
copy. This module only finds files; it does not read or validate scenarios.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["SCENARIOS", "scenario_path"]

#: The folder of shipped scenarios (examples, benchmarks, paper experiments).
SCENARIOS = Path(__file__).resolve().parent / "scenarios"


def scenario_path(relative: str | Path) -> Path:
    """Resolves ``relative`` (e.g. ``"bench/wired_bulk.toml"`` or ``"bench"``) against the
    shipped scenarios. Raises FileNotFoundError naming the place tried."""
    candidate = SCENARIOS / relative
    if candidate.exists():
        return candidate
    raise FileNotFoundError(f"no shipped scenario `{relative}` (looked in {candidate})")
