"""The ns-2.35 column of the reproductions: stored results of running ns-2 itself.

A reproduction that ns-2 can run (some of its claims, at least) ships an ns-2 script beside its
scenario (``scenarios/<id>/*.tcl``) and the results of running it, so that ``ternsim reproduce``
shows paper | ns-2.35 | ternsim without needing ``ns``:

* ``scenarios/<id>/ns2_results.csv``: one row per ns-2 run and flow (the experiment's grid
  values, ``seed``, ``flow`` and whatever the experiment's parser reads from the script's
  output);
* ``scenarios/<id>/ns2_results.json``: how they were made: the script (path and SHA-256), the
  ``ns`` version (``ns-version``) and package, the seeds of every configuration and its ns
  command line, the date, the command that regenerated them and the wall time.

:func:`regenerate` runs ``ns`` again and rewrites both files (``ternsim reproduce ID
--regenerate-ns2``); :func:`load` reads them. An experiment module takes part by defining

* ``NS2_SCRIPT``: its script, relative to the shipped scenarios (``"ding-vegasw/chain.tcl"``);
* ``ns2_configs(seeds) -> list[NsConfig]``: the ns-2 runs to make;
* ``ns2_parse(config, seed, stdout, workdir) -> list[dict]``: the rows of one run (one per
  flow, or one for the run), from the script's output and the files it wrote in ``workdir``;
* optionally ``ns2_prepare(config, seed, workdir)``, which writes the input files a run reads
  (movement, connections) into its working directory first, and ``NS2_INPUTS``, how (stored
  in the metadata).

This module knows nothing about a particular paper.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import os
import platform
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import pandas as pd

from ..paths import SCENARIOS
from ..sweep import ci95

__all__ = [
    "INSTALL_HINT",
    "NsConfig",
    "NsMissing",
    "Ns2Results",
    "load",
    "regenerate",
    "supports",
    "verdict",
]

RESULTS_CSV = "ns2_results.csv"
RESULTS_META = "ns2_results.json"
#: How to get ``ns`` where it is missing.
INSTALL_HINT = (
    "ns-2 (`ns`) is not on the PATH. On Debian or Ubuntu: `apt-get install ns2` (ns-2.35); "
    "elsewhere build ns-allinone-2.35 and put its `ns` on the PATH. The stored ns-2 results "
    "ship with ternsim, so `ternsim reproduce` itself never needs ns-2."
)
#: ns-2 vs ternsim: as ``ternsim conformance``, the means agree when each lies inside the
#: other's 95 % interval or the two are within this fraction of each other.
RELATIVE_TOLERANCE = 0.05
#: Longest one ns-2 run may take.
RUN_TIMEOUT_S = 3600


class NsMissing(RuntimeError):
    """``ns`` (ns-2) is not on the PATH."""


@dataclass(frozen=True)
class NsConfig:
    """One ns-2 configuration: its grid values, the script's arguments (``{seed}`` stands for
    the seed) and how many seeds to run (None: as many as asked for)."""

    key: tuple[tuple[str, Any], ...]
    args: tuple[str, ...]
    seeds: int | None = None

    @property
    def values(self) -> dict[str, Any]:
        return dict(self.key)


@dataclass
class Ns2Results:
    """The stored ns-2 results of one experiment: the rows and their metadata."""

    runs: pd.DataFrame
    meta: dict[str, Any] = field(default_factory=dict)

    def label(self) -> str:
        """``ns-2.35`` (the version the results were made with)."""
        version = str(self.meta.get("ns_version", "ns-2 ?")).replace("ns-2 ", "")
        return f"ns-{version}" if version[:1].isdigit() else "ns-2"

    def facts(self) -> str:
        """One line for a report: script, version, seeds, date."""
        m = self.meta
        seeds = sorted({int(s) for s in self.runs["seed"]}) if len(self.runs) else []
        seed_text = f"seeds {seeds[0]}-{seeds[-1]}" if seeds else "no seeds"
        return (
            f"`ns` {m.get('ns_version', '?')} ({m.get('ns_package', '?')}), script "
            f"`scenarios/{m.get('script', '?')}`, {len(m.get('configurations', []))} "
            f"configurations, {seed_text} (per configuration: see `{RESULTS_META}`), "
            f"made {m.get('date', '?')} by `{m.get('command', '?')}`"
        )


def supports(module: ModuleType) -> bool:
    """Whether an experiment module has an ns-2 column."""
    return all(hasattr(module, a) for a in ("NS2_SCRIPT", "ns2_configs", "ns2_parse"))


def folder_of(module: ModuleType) -> Path:
    return SCENARIOS / str(module.ID)


def load(module: ModuleType, folder: Path | None = None) -> Ns2Results | None:
    """The stored results of ``module`` (from ``folder``, default its scenario folder), or
    None where it has none."""
    folder = folder if folder is not None else folder_of(module)
    csv, meta = folder / RESULTS_CSV, folder / RESULTS_META
    if not csv.is_file() or not meta.is_file():
        return None
    return Ns2Results(pd.read_csv(csv), json.loads(meta.read_text(encoding="utf-8")))


def ns_binary() -> str:
    ns = shutil.which("ns")
    if ns is None:
        raise NsMissing(INSTALL_HINT)
    return ns


def ns_version() -> str:
    """``ns-2 2.35`` as the installed ``ns`` reports it (``ns-version``)."""
    from ..conformance import ns_version as version

    return version()


def _ns_package() -> str:
    """The distribution package ``ns`` came from, where dpkg knows it."""
    try:
        out = subprocess.run(
            ["dpkg-query", "-W", "-f", "${Package} ${Version}", "ns2"],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return "not a Debian package"
    return f"Debian {out.stdout.strip()}" if out.returncode == 0 and out.stdout else "built"


def _command_line(config: NsConfig, script: str, seed: int | str) -> str:
    args = " ".join(a.format(seed=seed) for a in config.args)
    return f"ns {Path(script).name} {args}"


def _run_one(
    module: ModuleType, script: Path, config: NsConfig, seed: int
) -> tuple[list[dict[str, Any]], float]:
    args = [a.format(seed=seed) for a in config.args]
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="ternsim-ns2-") as tmp:
        if hasattr(module, "ns2_prepare"):
            module.ns2_prepare(config, seed, Path(tmp))
        done = subprocess.run(
            [ns_binary(), str(script), *args],
            cwd=tmp,
            capture_output=True,
            text=True,
            timeout=RUN_TIMEOUT_S,
            check=False,
        )
        if done.returncode != 0:
            raise RuntimeError(
                f"{_command_line(config, script.name, seed)} failed "
                f"(exit {done.returncode}): {done.stderr[-500:]}"
            )
        rows = module.ns2_parse(config, seed, done.stdout, Path(tmp))
    wall = time.perf_counter() - start
    values = config.values
    return [{**values, "seed": seed, **row} for row in rows], wall


def regenerate(
    module: ModuleType,
    *,
    seeds: int = 10,
    only: Callable[[NsConfig], bool] | None = None,
    jobs: int | None = None,
    folder: Path | None = None,
    command: str | None = None,
    progress: Callable[[str], object] | None = None,
) -> Ns2Results:
    """Runs ``module``'s ns-2 configurations (those ``only`` keeps) for seeds 1..``seeds``
    (fewer where a configuration says so) on ``jobs`` parallel ``ns`` processes (default:
    CPU count) and writes ``ns2_results.csv`` and ``ns2_results.json`` into ``folder``
    (default: the experiment's scenario folder). Raises :class:`NsMissing` without ``ns``."""
    ns_binary()
    script_rel = str(module.NS2_SCRIPT)
    script = SCENARIOS / script_rel
    configs = [c for c in module.ns2_configs(seeds) if only is None or only(c)]
    tasks = [(c, s) for c in configs for s in range(1, (c.seeds or seeds) + 1)]
    n_jobs = max(1, min(jobs or os.cpu_count() or 1, len(tasks) or 1))
    start = time.perf_counter()
    results: list[tuple[list[dict[str, Any]], float]] = []
    with ThreadPoolExecutor(max_workers=n_jobs) as pool:
        futures = [pool.submit(_run_one, module, script, c, s) for c, s in tasks]
        for i, f in enumerate(futures, start=1):
            results.append(f.result())
            if progress is not None and (i % 10 == 0 or i == len(futures)):
                progress(f"ns-2: {i}/{len(futures)} runs, {time.perf_counter() - start:.0f} s")
    wall = time.perf_counter() - start
    rows = [row for rs, _ in results for row in rs]
    walls: dict[tuple, list[float]] = {}
    for (c, _), (_, w) in zip(tasks, results):
        walls.setdefault(c.key, []).append(w)
    meta = {
        "experiment": module.ID,
        "script": script_rel,
        "script_sha256": hashlib.sha256(script.read_bytes()).hexdigest(),
        "ns_version": ns_version(),
        "ns_package": _ns_package(),
        "date": _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "command": command or f"ternsim reproduce {module.ID} --regenerate-ns2 --ns2-seeds {seeds}",
        "inputs": str(getattr(module, "NS2_INPUTS", "")),
        "machine": f"{platform.system()} {platform.machine()}, {os.cpu_count()} CPUs, "
        f"{n_jobs} ns processes",
        "wall_seconds": round(wall, 1),
        "configurations": [
            {
                "key": c.values,
                "seeds": list(range(1, (c.seeds or seeds) + 1)),
                "ns": _command_line(c, script_rel, "{seed}"),
                "mean_run_seconds": round(sum(walls[c.key]) / len(walls[c.key]), 2),
            }
            for c in configs
        ],
    }
    folder = folder if folder is not None else folder_of(module)
    folder.mkdir(parents=True, exist_ok=True)
    frame = pd.DataFrame(rows)
    frame.to_csv(folder / RESULTS_CSV, index=False)
    (folder / RESULTS_META).write_text(
        json.dumps(meta, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    return Ns2Results(frame, meta)


def verdict(ns_samples: Sequence[float], ternsim_samples: Sequence[float]) -> str:
    """ns-2 against ternsim on one quantity: ``agrees`` when each mean lies inside the other's
    95 % interval (a single sample has none) or the two are within 5 %; ``differs``
    otherwise; empty where either side has no value."""
    mn, hn, nn, _ = ci95(list(ns_samples))
    mt, ht, nt, _ = ci95(list(ternsim_samples))
    if nn == 0 or nt == 0:
        return ""
    hn = 0.0 if hn != hn else hn  # NaN (one sample): no interval
    ht = 0.0 if ht != ht else ht
    diff = abs(mn - mt)
    inside = diff <= hn and diff <= ht
    close = diff <= RELATIVE_TOLERANCE * max(abs(mn), abs(mt)) or diff <= 1e-12
    return "agrees" if inside or close else "differs"


def rows_for(results: Ns2Results, where: Mapping[str, Any]) -> pd.DataFrame:
    """The stored rows whose grid values match ``where``."""
    frame = results.runs
    for k, v in where.items():
        frame = frame[frame[k] == v]
    return frame
