"""Sweeps on a Dask cluster (``dask.distributed.LocalCluster``): the same runs.csv as a local
sweep, no result lost or duplicated when a worker dies, atomic result files, and a progress
bar that counts the Dask tasks."""

from __future__ import annotations

import os
import signal

import pytest

import ternsim.sweep as sweep_module
from ternsim.sweep import sweep

distributed = pytest.importorskip("distributed", reason="needs dask[distributed] (test extra)")

GRID = {"links.0.queue": [5, 20], "flows.0.tcp": ["reno", "vegas"]}


@pytest.fixture
def threads_cluster():
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
    ) as cluster:
        yield cluster


def test_dask_gives_the_same_runs_csv_as_a_local_sweep(tmp_path, tiny_scenario, threads_cluster):
    local = sweep(tiny_scenario, GRID, seeds=3, jobs=1, progress=False, cache=False,
                  out=tmp_path / "local")  # fmt: skip
    on_dask = sweep(tiny_scenario, GRID, seeds=3, progress=False, cache=False,
                    scheduler=threads_cluster.scheduler_address, out=tmp_path / "dask")  # fmt: skip
    assert local.failures.empty and on_dask.failures.empty
    assert (tmp_path / "local" / "runs.csv").read_bytes() == (
        tmp_path / "dask" / "runs.csv"
    ).read_bytes()
    assert (tmp_path / "local" / "summary.csv").read_bytes() == (
        tmp_path / "dask" / "summary.csv"
    ).read_bytes()


class CountingBar:
    """Stands in for the rich progress bar: records the total and every advance."""

    def __init__(self, total: int) -> None:
        self.total, self.advanced = total, 0

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        return None

    def update(self, task, advance: int = 0, **fields) -> None:
        self.advanced += advance


def test_progress_counts_the_dask_tasks(tmp_path, tiny_scenario, threads_cluster, monkeypatch):
    bars = []

    def fake_progress(enabled, total):
        bars.append(CountingBar(total))
        return bars[-1], 0

    monkeypatch.setattr(sweep_module, "_progress", fake_progress)
    client = distributed.Client(threads_cluster)
    try:
        seen = []
        original = sweep_module._run_dask

        def spy(tasks, scheduler, done):
            seen.append(len(tasks))
            return original(tasks, scheduler, done)

        monkeypatch.setattr(sweep_module, "_run_dask", spy)
        sweep(tiny_scenario, GRID, seeds=2, scheduler=client, cache_dir=tmp_path / "c")
    finally:
        client.close()
    assert seen == [8] and bars[0].total == 8 and bars[0].advanced == 8


def test_a_worker_killed_mid_sweep_loses_and_duplicates_nothing(
    tmp_path, tiny_scenario, monkeypatch
):
    """Two worker processes; the first result to arrive kills one of them. Dask reruns the
    killed worker's tasks on the other: every (point, seed) appears once, none failed, and no
    temporary file is left in the cache or the output folder."""
    scenario = {**tiny_scenario, "duration": "120s"}
    scenario["links"] = [{**tiny_scenario["links"][0], "rate": "10Mbps", "loss": 0.001}]
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        pids = client.run(os.getpid)
        victim = sorted(pids.values())[0]
        killed = []
        put = sweep_module.SummaryCache.put

        def put_then_kill(self, key, summary_json):
            put(self, key, summary_json)
            if not killed:
                killed.append(victim)
                os.kill(victim, signal.SIGKILL)

        monkeypatch.setattr(sweep_module.SummaryCache, "put", put_then_kill)
        result = sweep(scenario, GRID, seeds=3, scheduler=client, progress=False,
                       cache_dir=tmp_path / "cache", out=tmp_path / "out")  # fmt: skip
    assert killed == [victim]
    assert result.failures.empty, result.failures
    keys = [*result.grid_keys, "seed"]
    per_run = result.runs.groupby(keys).size()
    assert len(per_run) == 4 * 3 and (per_run == 1).all()  # one flow per run, each once
    cached = list((tmp_path / "cache").rglob("*.json"))
    assert len(cached) == 12
    leftovers = [p for p in (tmp_path / "cache").rglob(".*")] + list((tmp_path / "out").glob(".*"))
    assert leftovers == []
