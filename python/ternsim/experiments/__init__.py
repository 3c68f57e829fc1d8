"""Paper reproductions: one module per seed paper, run by ``ternsim reproduce ID``.

This package owns the registry of experiment ids (the short ids of
``../shared/seeds/README.md``) and :func:`reproduce`, which runs one experiment into a report
folder written atomically. Each experiment module builds its runs from scenario files under
``scenarios/<id>/`` (never from special-cased code paths), sweeps them over seeds with
:func:`ternsim.sweep.sweep`, runs the traced single runs its figures need and writes the report
through :mod:`ternsim.experiments.report`. Modules are imported only when run.
"""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from .report import Report, add_traced_runs_to_run_table, write_report_folder

__all__ = ["EXPERIMENTS", "Report", "UnknownExperiment", "get", "names", "reproduce"]

#: Experiment id → module (in this package) that reproduces it.
EXPERIMENTS = {
    "lo-umts": "lo_umts",
    "costamagna-utra": "costamagna_utra",
    "ding-vegasw": "ding_vegasw",
    "ho-mobileip": "ho_mobileip",
    "arunakumari-manet": "arunakumari_manet",
}


class UnknownExperiment(KeyError):
    """An id that is not in :data:`EXPERIMENTS`."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


def ns2_absence(module: ModuleType) -> str:
    """Why an experiment has no ns-2 column (its ``NS2_ABSENT``), or a generic reason."""
    return str(getattr(module, "NS2_ABSENT", "no ns-2 script has been written for it"))


def names() -> list[str]:
    """The experiment ids, in registry order."""
    return list(EXPERIMENTS)


def get(experiment_id: str) -> ModuleType:
    """The module of ``experiment_id``; raises UnknownExperiment naming the known ids."""
    if experiment_id not in EXPERIMENTS:
        raise UnknownExperiment(
            f"unknown experiment `{experiment_id}`; known: {', '.join(names())}"
        )
    return importlib.import_module(f"{__name__}.{EXPERIMENTS[experiment_id]}")


def reproduce(
    experiment_id: str,
    out: str | os.PathLike[str] | None = None,
    *,
    quick: bool = False,
    seeds: int | None = None,
    jobs: int | None = None,
    progress: bool = True,
    cache_dir: Any = None,
    cache: bool = True,
    regenerate_ns2: bool = False,
    ns2_seeds: int = 10,
) -> Report:
    """Runs experiment ``experiment_id`` and writes its report folder ``out`` (default
    ``reproduce/<id>`` in the working directory): ``report.md``, ``claims.csv``, ``runs.csv``
    and ``runs.parquet`` (one row per run and flow: the main sweep's runs, then every traced
    run, named in ``traced_run``), the sweep summary where there is a sweep, one PNG per figure
    of the paper and the traced runs behind them. The folder is written under a temporary
    name and renamed into place, so it is either the complete new report or what was there
    before.

    ``quick`` runs fewer seeds and shorter runs (for tests); ``seeds`` overrides the number
    of seeds; ``jobs``, ``cache_dir`` and ``cache`` are passed to the sweeps.
    ``regenerate_ns2`` first runs ns-2 itself for the experiment's ns-2 column (seeds
    1..``ns2_seeds``) and rewrites its stored results (:mod:`ternsim.experiments.ns2`); it
    raises :class:`ns2.NsMissing` without ``ns`` and ValueError for an experiment without an
    ns-2 column.
    """
    from ..sweep import counting_runs
    from . import ns2

    module = get(experiment_id)
    if regenerate_ns2:
        if not ns2.supports(module):
            raise ValueError(f"{experiment_id} has no ns-2 column: {ns2_absence(module)}")
        ns2.regenerate(
            module,
            seeds=ns2_seeds,
            jobs=jobs,
            command=f"ternsim reproduce {experiment_id} --regenerate-ns2 --ns2-seeds {ns2_seeds}",
            progress=(lambda text: print(text, file=sys.stderr, flush=True)) if progress else None,
        )
    folder = out if out is not None else os.path.join("reproduce", experiment_id)

    def fill(tmp: Path) -> Report:
        report = module.reproduce(
            tmp,
            quick=quick,
            seeds=seeds,
            jobs=jobs,
            progress=progress,
            cache_dir=cache_dir,
            cache=cache,
        )
        add_traced_runs_to_run_table(tmp, tally.traced_runs)
        return report

    with counting_runs() as tally:
        report = write_report_folder(folder, fill)
    report.runs, report.cached, report.traced = tally.runs, tally.cached, tally.traced
    return report
