"""Where the shipped scenarios are.

This module owns finding scenario files that ship with ternsim: the repository's
``scenarios/`` folder (an editable install or a checkout) first, then the copies packaged
under ``ternsim/data/scenarios/`` (a wheel). It does not read or validate scenarios.

The packaged copies must match the repository's; ``tests/test_api_paths.py`` checks that they
do for the folders that ship (:data:`PACKAGED_FOLDERS`), and :func:`sync_packaged` refreshes
them (``python -m ternsim.paths``).
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

__all__ = ["PACKAGED_FOLDERS", "scenario_dirs", "scenario_path", "sync_packaged"]

#: Scenario folders copied into the package for non-editable installs.
PACKAGED_FOLDERS = ("examples", "bench")

_REPO_SCENARIOS = Path(__file__).resolve().parents[2] / "scenarios"
_PACKAGED_SCENARIOS = Path(__file__).resolve().parent / "data" / "scenarios"


def scenario_dirs() -> list[Path]:
    """The scenario roots that exist, in the order they are searched."""
    return [d for d in (_REPO_SCENARIOS, _PACKAGED_SCENARIOS) if d.is_dir()]


def scenario_path(relative: str | Path) -> Path:
    """Resolves ``relative`` (e.g. ``"bench/wired_bulk.toml"`` or ``"bench"``) against the
    repository's ``scenarios/`` folder, then the packaged copies.

    Raises FileNotFoundError listing the places tried.
    """
    tried = []
    for root in (_REPO_SCENARIOS, _PACKAGED_SCENARIOS):
        candidate = root / relative
        if candidate.exists():
            return candidate
        tried.append(str(candidate))
    raise FileNotFoundError(f"no shipped scenario `{relative}` (looked in {', '.join(tried)})")


def sync_packaged() -> list[Path]:
    """Copies the repository's :data:`PACKAGED_FOLDERS` into the package; returns the files
    written. Files that no longer exist in the repository are removed from the copy."""
    written = []
    for folder in PACKAGED_FOLDERS:
        src = _REPO_SCENARIOS / folder
        dst = _PACKAGED_SCENARIOS / folder
        if dst.exists():
            shutil.rmtree(dst)
        if not src.is_dir():
            continue
        for path in sorted(src.rglob("*.toml")):
            target = dst / path.relative_to(src)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)
            written.append(target)
    return written


if __name__ == "__main__":  # pragma: no cover - maintenance helper
    for p in sync_packaged():
        print(p, file=sys.stderr)
