"""Sweeps: a grid of overrides times seeds, run in parallel, cached, aggregated with 95 % CIs.

This module owns:

* expanding a grid (``{"links.0.loss": [0, 0.01], "flows.0.tcp": ["reno", "vegas"]}``) times
  seeds into runs, validating every grid point before anything runs;
* running them on a local process pool, or on a Dask ``distributed`` cluster given a scheduler
  address (imported only then: ``pip install ternsim[dask]``);
* the summary cache: one JSON file per run, keyed by the sha256 of the canonical scenario JSON
  (after overrides), the seed and the core's version, so a repeated sweep runs only what
  changed;
* the tables: ``runs`` (one row per run and flow) and ``summary`` (mean, Student-t 95 %
  confidence half-width, n and standard deviation per grid point, flow and metric), and writing
  them without ever leaving a half-written file.

A run that fails is recorded in the ``error`` column of ``runs`` and in
:attr:`SweepResult.failures`; the other runs go on. Sweeps record no traces: the ``traces``
table of the scenario is dropped, since only summaries come back. Beyond that it does not know
the scenario schema.

The module is callable: ``ternsim.sweep(...)`` is :func:`sweep`, while ``ternsim.sweep.summarize``
and ``from ternsim.sweep import SweepResult`` still reach the module's other names.
"""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import json
import math
import multiprocessing
import os
import sys
import time
import types
from collections.abc import Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pandas as pd

from . import _native
from ._atomic import replace_files
from ._worker import run_task
from .api import Overrides, ScenarioLike, apply_overrides, prepare, records_frame, scenario_json
from .errors import ScenarioError
from .student_t import t975

__all__ = [
    "RunTally",
    "SummaryCache",
    "SweepResult",
    "cache_key",
    "ci95",
    "counting_runs",
    "default_cache_dir",
    "parse_grid_values",
    "summarize",
    "sweep",
]

#: Columns of ``runs`` that are neither grid keys nor per-flow fields.
RUN_COLUMNS = ("seed", "flow")
ERROR_COLUMN = "error"


# --- statistics ----------------------------------------------------------------------------


def ci95(samples: Sequence[float]) -> tuple[float, float, int, float]:
    """Mean, 95 % confidence half-width (Student t, two-sided), n and sample standard
    deviation of ``samples`` (NaNs ignored). The half-width is NaN for fewer than two samples.

    For ``[1, 2, 3, 4, 5]``: mean 3, s = 1.5811, t(0.975, 4) = 2.7764, half-width 1.9632.
    """
    x = np.asarray([v for v in samples if v is not None], dtype=float)
    x = x[~np.isnan(x)]
    n = int(x.size)
    if n == 0:
        return math.nan, math.nan, 0, math.nan
    mean = float(x.mean())
    if n < 2:
        return mean, math.nan, n, math.nan
    std = float(x.std(ddof=1))
    return mean, t975(n - 1) * std / math.sqrt(n), n, std


def summarize(runs: pd.DataFrame, grid_keys: Sequence[str]) -> pd.DataFrame:
    """The long-format summary of a ``runs`` table: columns ``*grid_keys, flow, metric, mean,
    ci95, n, std``, one row per grid point, flow and numeric per-flow metric (failed runs and
    missing values left out)."""
    keys = list(grid_keys)
    columns = [*keys, "flow", "metric", "mean", "ci95", "n", "std"]
    if ERROR_COLUMN in runs:
        runs = runs[runs[ERROR_COLUMN].isna()]
    skip = {*keys, *RUN_COLUMNS, ERROR_COLUMN}
    metrics = [
        c
        for c in runs.columns
        if c not in skip
        and pd.api.types.is_numeric_dtype(runs[c])
        and not pd.api.types.is_bool_dtype(runs[c])
    ]
    if runs.empty or not metrics:
        return pd.DataFrame(columns=columns)
    values = runs[[*keys, "flow", *metrics]].copy()
    values[metrics] = values[metrics].apply(pd.to_numeric, errors="coerce")
    grouped = values.groupby([*keys, "flow"], sort=False, dropna=False)[metrics]
    mean, std, count = grouped.mean(), grouped.std(), grouped.count()
    # One row per (grid point, flow) in run order, then one per metric in column order.
    out = mean.index.repeat(len(metrics)).to_frame(index=False)
    out.columns = [*keys, "flow"]
    out["metric"] = np.tile(np.array(metrics, dtype=object), len(mean))
    out["mean"] = mean.to_numpy(dtype=float).ravel()
    out["std"] = std.to_numpy(dtype=float).ravel()
    out["count"] = count.to_numpy(dtype=int).ravel()
    n = out["count"].to_numpy(dtype=int)
    t = np.array([t975(int(dof)) for dof in np.maximum(n - 1, 1)], dtype=float)
    half = t * out["std"].to_numpy(dtype=float) / np.sqrt(np.maximum(n, 1))
    out["ci95"] = np.where(n >= 2, half, np.nan)
    out["n"] = n
    return out[columns]


# --- the cache -----------------------------------------------------------------------------


def cache_key(scenario: Mapping[str, Any] | str, seed: int, version: str, inputs: str = "") -> str:
    """The sha256 (hex) naming one run in the cache: of the canonical scenario JSON (a dict is
    canonicalised; a string is taken as already canonical), the seed, the core version and
    ``inputs``, a digest of the files the scenario reads (:func:`input_digest`), so editing a
    trace file invalidates the runs that read it."""
    text = scenario if isinstance(scenario, str) else scenario_json(scenario)
    fields: dict[str, Any] = {"scenario": text, "seed": int(seed), "version": str(version)}
    if inputs:
        fields["inputs"] = inputs
    payload = json.dumps(fields, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


def input_digest(paths: Sequence[str]) -> str:
    """sha256 over the contents of the files a scenario reads ("" when it reads none)."""
    if not paths:
        return ""
    h = hashlib.sha256()
    for path in paths:
        h.update(path.encode("utf-8") + b"\0")
        h.update(Path(path).read_bytes())
    return h.hexdigest()


def default_cache_dir() -> Path:
    """``$TERNSIM_CACHE`` if set, else ``ternsim/`` in the platform's cache folder: on Linux
    ``$XDG_CACHE_HOME`` or ``~/.cache`` (XDG Base Directory specification), on macOS
    ``~/Library/Caches``, on Windows ``%LOCALAPPDATA%`` (``ternsim/Cache`` there). Never the
    working folder, so a run in a clone leaves nothing in the repository."""
    env = os.environ.get("TERNSIM_CACHE")
    if env:
        return Path(env)
    if sys.platform == "win32":
        local = os.environ.get("LOCALAPPDATA")
        base = Path(local) if local else Path.home() / "AppData" / "Local"
        return base / "ternsim" / "Cache"
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / "ternsim"
    xdg = os.environ.get("XDG_CACHE_HOME")
    # The XDG specification: a relative $XDG_CACHE_HOME is invalid and must be ignored.
    base = Path(xdg) if xdg and Path(xdg).is_absolute() else Path.home() / ".cache"
    return base / "ternsim"


class SummaryCache:
    """Run summaries on disk, one ``<root>/<key[:2]>/<key>.json`` file each, written
    atomically (so concurrent sweeps sharing a cache never read half a file)."""

    def __init__(self, root: str | os.PathLike[str]) -> None:
        self.root = Path(root)

    def entries(self) -> list[Path]:
        """The summary files in the cache (only names the cache itself writes)."""
        if not self.root.is_dir():
            return []
        return sorted(
            p
            for p in self.root.glob("??/*.json")
            if _is_key(p.stem) and p.parent.name == p.stem[:2]
        )

    def size_bytes(self) -> int:
        return sum(p.stat().st_size for p in self.entries())

    def clear(self) -> int:
        """Removes every cached summary and the folders left empty; returns how many were
        removed. Files the cache did not write are left alone (and so is ``root`` then)."""
        removed = 0
        for path in self.entries():
            path.unlink(missing_ok=True)
            removed += 1
        if self.root.is_dir():
            for folder in self.root.iterdir():
                if folder.is_dir() and len(folder.name) == 2:
                    with contextlib.suppress(OSError):
                        folder.rmdir()  # only if empty
            with contextlib.suppress(OSError):
                self.root.rmdir()
        return removed

    def path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.json"

    def get(self, key: str) -> str | None:
        """The cached summary JSON, or None (a missing or unreadable entry is a miss)."""
        try:
            text = self.path(key).read_text(encoding="utf-8")
            json.loads(text)
        except (OSError, ValueError):
            return None
        return text

    def put(self, key: str, summary_json: str) -> None:
        replace_files({self.path(key): lambda p: p.write_text(summary_json, encoding="utf-8")})


def _is_key(name: str) -> bool:
    return len(name) == 64 and all(c in "0123456789abcdef" for c in name)


@dataclass
class RunTally:
    """Runs and cache hits over every sweep made inside :func:`counting_runs`, and the traced
    single runs (never cached), kept as ``(label, seed, summary, scenario)`` so that a
    reproduction can list every run it made in its ``runs.csv``."""

    runs: int = 0
    cached: int = 0
    traced_runs: list[tuple[str, int, Mapping[str, Any], Mapping[str, Any]]] = field(
        default_factory=list
    )

    @property
    def traced(self) -> int:
        return len(self.traced_runs)


def record_traced_run(
    label: str, seed: int, summary: Mapping[str, Any], scenario: Mapping[str, Any]
) -> None:
    """Counts one traced single run in every open :func:`counting_runs` block."""
    for tally in _TALLIES:
        tally.traced_runs.append((label, seed, summary, scenario))


def traced_run_rows(
    runs: Sequence[tuple[str, int, Mapping[str, Any], Mapping[str, Any]]],
    grid_keys: Sequence[str] = (),
) -> pd.DataFrame:
    """One row per traced run and flow, shaped as a sweep's ``runs`` rows: the value of each
    grid key path in the run's scenario (null where it has none), ``traced_run`` (the label),
    ``seed``, ``flow`` and the flow's summary fields."""
    rows = []
    for label, seed, summary, scenario in runs:
        cells = {k: _cell(_value_at(scenario, k)) for k in grid_keys}
        flows = summary.get("flows", []) or [{"name": None}]
        for flow in flows:
            fields = {k: v for k, v in flow.items() if k != "name"}
            rows.append(
                {
                    **cells,
                    "traced_run": label,
                    "seed": seed,
                    "flow": flow.get("name"),
                    **fields,
                    **_run_fields(summary),
                }
            )
    return records_frame(rows)


def _value_at(scenario: Mapping[str, Any], path: str) -> Any:
    """The value at a dotted key path (list items by index), or None."""
    node: Any = scenario
    for part in path.split("."):
        if isinstance(node, Mapping) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return None
    return node


_TALLIES: list[RunTally] = []


@contextlib.contextmanager
def counting_runs() -> Iterator[RunTally]:
    """Counts the runs (and how many came from the cache) of every sweep in the block, so
    that a caller making several sweeps (a reproduction) can report them in one line."""
    tally = RunTally()
    _TALLIES.append(tally)
    try:
        yield tally
    finally:
        _TALLIES.remove(tally)


# --- the sweep -----------------------------------------------------------------------------


@dataclass
class _Task:
    key: str
    scenario_json: str
    seed: int
    summary_json: str | None = None
    error: str | None = None
    cached: bool = False


@dataclass
class SweepResult:
    """The outcome of a sweep.

    Attributes:
        runs: one row per run and flow: a column per grid key (named by its key path), then
            ``seed``, ``flow`` and the per-flow summary fields, then ``error`` (null for a run
            that succeeded; a failed run has one row, with no flow).
        summary: see :func:`summarize`.
        grid_keys: the grid's key paths, in order.
        cached: how many runs came from the cache.
    """

    runs: pd.DataFrame
    summary: pd.DataFrame
    grid_keys: list[str] = field(default_factory=list)
    cached: int = 0
    #: The base scenario (after overrides), the seeds and the sweep's wall time, for the report.
    scenario: dict[str, Any] | None = None
    seeds: list[int] = field(default_factory=list)
    wall_seconds: float = 0.0

    @property
    def failures(self) -> pd.DataFrame:
        """The failed runs: grid keys, seed and error message."""
        failed = self.runs[self.runs[ERROR_COLUMN].notna()]
        return failed[[*self.grid_keys, "seed", ERROR_COLUMN]].reset_index(drop=True)

    def write(self, out: str | os.PathLike[str]) -> list[Path]:
        """Writes ``runs.csv``, ``runs.parquet``, ``summary.csv`` and ``report.html`` into
        ``out``. All are written to temporary files first and only then moved over any old
        ones."""
        out = Path(out)
        runs = self.runs
        return replace_files(
            {
                out / "runs.csv": lambda p: runs.to_csv(p, index=False),
                out / "runs.parquet": lambda p: _arrow_safe(runs).to_parquet(p, index=False),
                out / "summary.csv": lambda p: self.summary.to_csv(p, index=False),
                out / "report.html": lambda p: p.write_text(self.html(), encoding="utf-8"),
            }
        )

    def html(self) -> str:
        """The sweep as one self-contained HTML page: the grid, versions, seeds, wall time,
        the summary table, failures and the base scenario."""
        from . import html_report as h

        facts = [
            ("scenario", str((self.scenario or {}).get("name", "(unnamed)"))),
            ("version", h.versions()),
            ("grid", ", ".join(self.grid_keys) or "(none)"),
            ("seeds", f"{len(self.seeds)}: {', '.join(map(str, self.seeds))}"),
            (
                "runs",
                f"{len(self.runs.drop_duplicates([*self.grid_keys, 'seed']))} "
                f"({self.cached} from the cache, {len(self.failures)} failed)",
            ),  # fmt: skip
            ("wall time", f"{self.wall_seconds:.1f} s"),
        ]
        sections = [("Summary (mean ± 95 % CI over seeds)", h.frame_table(self.summary))]
        if len(self.failures):
            sections.append(("Failed runs", h.frame_table(self.failures)))
        if self.scenario is not None:
            text = json.dumps(self.scenario, indent=2, ensure_ascii=False)
            sections.append(("Base scenario (after overrides)", h.preformatted(text)))
        return h.page(f"Sweep of {facts[0][1]}", facts, sections)


def _arrow_safe(frame: pd.DataFrame) -> pd.DataFrame:
    """Object columns mixing value types (a grid of ``10`` and ``"20"``) become strings."""
    frame = frame.copy()
    for column in frame.columns:
        if frame[column].dtype == object:
            types = {type(v) for v in frame[column] if v is not None and v == v}
            if len(types) > 1:
                frame[column] = [None if v is None else str(v) for v in frame[column]]
    return frame


def parse_grid_values(text: str) -> list[Any]:
    """Splits ``"a,b,c"`` at commas outside quotes and brackets and reads each value as TOML
    (see :func:`ternsim.api.parse_value`): ``0,0.01`` gives ``[0, 0.01]``."""
    from .api import parse_value

    parts, depth, quote, current = [], 0, "", []
    for ch in text:
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append("".join(current))
            current = []
            continue
        current.append(ch)
    parts.append("".join(current))
    return [parse_value(p) for p in parts]


def _cell(value: Any) -> Any:
    return json.dumps(value, sort_keys=True) if isinstance(value, (list, dict)) else value


def _seed_list(seeds: int | Sequence[int]) -> list[int]:
    if isinstance(seeds, (int, np.integer)) and not isinstance(seeds, bool):
        if seeds < 1:
            raise ValueError(f"seeds must be at least 1, not {seeds}")
        return list(range(1, int(seeds) + 1))
    out = [int(s) for s in seeds]
    if not out:
        raise ValueError("seeds is empty")
    return out


def _mp_context() -> multiprocessing.context.BaseContext:
    # forkserver: workers fork from a clean server process, never from this one, whose
    # progress-bar thread makes a plain fork unsafe.
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


def _run_local(tasks: list[_Task], jobs: int, done: Callable[[_Task], None]) -> None:
    if jobs <= 1:
        for task in tasks:
            task.summary_json, task.error = run_task(task.scenario_json, task.seed)
            done(task)
        return
    broken: list[_Task] = []
    context = _mp_context()
    if context.get_start_method() == "forkserver":
        context.set_forkserver_preload(["ternsim._worker"])
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        futures = {pool.submit(run_task, t.scenario_json, t.seed): t for t in tasks}
        for future in as_completed(futures):
            task = futures[future]
            try:
                task.summary_json, task.error = future.result()
            except BrokenProcessPool:
                broken.append(task)
                continue
            done(task)
    # A worker died (a crash in the core, not an exception). Rerun each affected task in a
    # pool of its own so that the one that kills its worker is found and the rest complete.
    for task in broken:
        with ProcessPoolExecutor(max_workers=1, mp_context=context) as pool:
            try:
                task.summary_json, task.error = pool.submit(
                    run_task, task.scenario_json, task.seed
                ).result()
            except BrokenProcessPool as exc:
                task.error = f"worker process died: {exc}"
        done(task)


def _run_dask(tasks: list[_Task], scheduler: Any, done: Callable[[_Task], None]) -> None:
    try:
        import distributed
    except ImportError:
        raise ImportError(
            "sweeps on a Dask cluster need dask.distributed: pip install 'ternsim[dask]'"
        ) from None
    own = not hasattr(scheduler, "submit")
    client = distributed.Client(scheduler) if own else scheduler
    try:
        futures = {
            client.submit(run_task, t.scenario_json, t.seed, key=f"ternsim-run-{t.key}"): t
            for t in tasks
        }
        for future in distributed.as_completed(list(futures)):
            task = futures[future]
            try:
                task.summary_json, task.error = future.result()
            except Exception as exc:  # a lost worker, a cancelled future
                task.error = f"{type(exc).__name__}: {' '.join(str(exc).split())}"
            done(task)
    finally:
        if own:
            client.close()


def _progress(enabled: bool, total: int):
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    bar = Progress(
        TextColumn("[bold]sweep[/]"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[note]}"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        disable=not enabled,
        transient=False,
    )
    return bar, bar.add_task("sweep", total=total, note="")


def sweep(
    scenario_or_path: ScenarioLike,
    grid: Mapping[str, Sequence[Any]],
    seeds: int | Sequence[int] = 1,
    jobs: int | None = None,
    out: str | os.PathLike[str] | None = None,
    cache_dir: str | os.PathLike[str] | None = None,
    progress: bool = True,
    scheduler: Any = None,
    *,
    overrides: Overrides = None,
    cache: bool = True,
) -> SweepResult:
    """Runs every point of ``grid`` (the cartesian product of its value lists, keys being
    override paths as in :func:`ternsim.api.apply_overrides`) with every seed.

    Args:
        scenario_or_path: the base scenario (path or dict).
        grid: ``{key_path: [values...]}``; values are used as given.
        seeds: a count ``N`` (seeds 1..N) or an explicit list.
        jobs: local worker processes (default: CPU count); 1 runs in this process.
        out: if given, the folder :meth:`SweepResult.write` writes to.
        cache_dir: the summary cache (default :func:`default_cache_dir`).
        progress: show a progress bar on stderr.
        scheduler: a Dask scheduler address (or a ``distributed.Client``) to run on instead.
        overrides: applied to the base scenario before the grid.
        cache: read and write the cache (False runs everything and stores nothing).

    Raises ScenarioError, before anything runs, if the base scenario or any grid point is
    refused by the core; the message names the grid point.
    """
    started = time.perf_counter()
    base = prepare(scenario_or_path, overrides)
    base.pop("traces", None)
    keys = [str(k) for k in grid]
    value_lists = []
    for key in keys:
        values = grid[key]
        if isinstance(values, (str, bytes)) or not isinstance(values, Sequence) or not values:
            raise ValueError(f"grid values for `{key}` must be a non-empty list, not {values!r}")
        value_lists.append(list(values))
    seed_list = _seed_list(seeds)
    points = list(itertools.product(*value_lists))

    version = _native.core_version()
    point_tasks: list[list[_Task]] = []
    by_key: dict[str, _Task] = {}
    for point in points:
        scenario = apply_overrides(base, list(zip(keys, point)))
        text = scenario_json(scenario)
        try:
            inputs = input_digest(_native.validate_json(text))
        except ScenarioError as exc:
            where = ", ".join(f"{k}={_cell(v)}" for k, v in zip(keys, point))
            raise ScenarioError(f"{exc.message} (grid point {where})") from None
        row = []
        for seed in seed_list:
            key = cache_key(text, seed, version, inputs)
            row.append(by_key.setdefault(key, _Task(key, text, seed)))
        point_tasks.append(row)

    store = SummaryCache(cache_dir if cache_dir is not None else default_cache_dir())
    unique = list(by_key.values())
    if cache:
        for task in unique:
            task.summary_json = store.get(task.key)
            task.cached = task.summary_json is not None
    todo = [t for t in unique if not t.cached]
    n_cached = len(unique) - len(todo)
    failed = 0

    bar, bar_task = _progress(progress, len(unique))
    with bar:
        bar.update(bar_task, advance=n_cached, note=f"{n_cached} cached" if n_cached else "")

        def done(task: _Task) -> None:
            nonlocal failed
            if task.error is not None:
                failed += 1
            elif cache and task.summary_json is not None:
                store.put(task.key, task.summary_json)
            notes = [f"{n_cached} cached"] if n_cached else []
            if failed:
                notes.append(f"[red]{failed} failed[/]")
            bar.update(bar_task, advance=1, note=", ".join(notes))

        if todo:
            if scheduler is not None:
                _run_dask(todo, scheduler, done)
            else:
                n_jobs = jobs if jobs is not None else (os.cpu_count() or 1)
                _run_local(todo, max(1, min(n_jobs, len(todo))), done)

    rows: list[dict[str, Any]] = []
    errors: list[str | None] = []
    for point, tasks in zip(points, point_tasks):
        grid_cells = {k: _cell(v) for k, v in zip(keys, point)}
        for seed, task in zip(seed_list, tasks):
            if task.summary_json is None:
                rows.append({**grid_cells, "seed": seed, "flow": None})
                errors.append(task.error or "failed without a message")
                continue
            summary = json.loads(task.summary_json)
            run_fields = _run_fields(summary)
            for flow in summary.get("flows", []):
                fields = {k: v for k, v in flow.items() if k != "name"}
                rows.append(
                    {**grid_cells, "seed": seed, "flow": flow.get("name"), **fields, **run_fields}
                )
                errors.append(None)
    runs = records_frame(rows)
    runs[ERROR_COLUMN] = pd.Series(errors, index=runs.index, dtype=object)
    for tally in _TALLIES:
        tally.runs += len(unique)
        tally.cached += n_cached
    result = SweepResult(
        runs,
        summarize(runs, keys),
        grid_keys=keys,
        cached=n_cached,
        scenario={k: v for k, v in base.items() if k != "scenario_dir"},
        seeds=seed_list,
        wall_seconds=time.perf_counter() - started,
    )
    if out is not None:
        result.write(out)
    return result


def _run_fields(summary: Mapping[str, Any]) -> dict[str, Any]:
    """Run-level numbers repeated on each flow row (absent where the run has no routing
    section): ``run_routing_transmissions`` and ``run_normalized_routing_overhead``, which
    belong to the whole network, not to a flow."""
    routing = summary.get("routing")
    if not routing:
        return {}
    return {
        "run_routing_transmissions": routing.get("transmissions"),
        "run_normalized_routing_overhead": routing.get("normalized_routing_overhead"),
    }


class _CallableModule(types.ModuleType):
    """Lets ``ternsim.sweep`` be both this module and the :func:`sweep` function."""

    def __call__(self, *args: Any, **kwargs: Any) -> SweepResult:
        return sweep(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule
