"""Where the shipped scenarios are.

The scenarios live inside the package (``ternsim/scenarios/``) so that a wheel carries them;
the repository's top-level ``scenarios/`` is a symbolic link to that folder, so there is one
copy. This module only finds files; it does not read or validate scenarios.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["SCENARIOS", "scenario_path", "shipped_scenarios"]

#: The folder of shipped scenarios (examples, benchmarks, paper experiments).
SCENARIOS = Path(__file__).resolve().parent / "scenarios"


def scenario_path(relative: str | Path) -> Path:
    """Resolves ``relative`` (e.g. ``"bench/wired_bulk.toml"``, ``"examples/dumbbell"`` or
    ``"bench"``) against the shipped scenarios; ``.toml`` may be left out. Raises
    FileNotFoundError naming the place tried."""
    candidate = SCENARIOS / relative
    if candidate.exists():
        return candidate
    with_suffix = candidate.with_name(candidate.name + ".toml")
    if with_suffix.is_file():
        return with_suffix
    raise FileNotFoundError(f"no shipped scenario `{relative}` (looked in {candidate})")


def shipped_scenarios() -> list[str]:
    """The shipped scenarios by name (``examples/dumbbell``), as ``ternsim run`` takes them."""
    return sorted(
        p.relative_to(SCENARIOS).with_suffix("").as_posix() for p in SCENARIOS.rglob("*.toml")
    )
