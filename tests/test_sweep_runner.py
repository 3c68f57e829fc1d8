"""Sweep bookkeeping with a stand-in core, run in this process (``jobs=1``): a failing run is
recorded and spoils nothing, the cache serves repeats and never stores failures, and the
tables have their documented shape. The real core is exercised in ``test_cli.py``."""

from __future__ import annotations

import json
import sys
import types

import pytest

from ternsim import ScenarioError
from ternsim.sweep import sweep

BASE = {
    "name": "stub",
    "duration": "1s",
    "nodes": [{"name": "a"}, {"name": "b"}],
    "links": [{"a": "a", "b": "b", "rate": "1Mbps", "delay": "1ms"}],
    "flows": [{"name": "f0", "src": "a", "dst": "b", "tcp": "reno"}],
    "traces": {"cwnd": True},
}


class StubScenarioError(ValueError):
    pass


@pytest.fixture
def stub_core(monkeypatch):
    """A core whose throughput is ``1000 * seed + 10 * queue``, that refuses ``queue = 0``
    and panics (a BaseException, as PyO3's PanicException is) for seed 2 with ``queue = 3``."""
    calls = []

    def validate(text):
        doc = json.loads(text)
        if doc["links"][0].get("queue") == 0:
            raise StubScenarioError("scenario error at `links.0.queue`: must be > 0")
        return []  # the files the scenario reads

    def run(text, seed):
        doc = json.loads(text)
        validate(text)
        calls.append((doc, seed))
        queue = doc["links"][0].get("queue", 50)
        if queue == 3 and seed == 2:
            raise BaseException("panicked at 'index out of bounds'\nsecond line")
        flows = [
            {"name": f["name"], "tcp": f["tcp"], "throughput_bps": 1000.0 * seed + 10 * queue}
            for f in doc["flows"]
        ]
        summary = {"scenario": doc["name"], "seed": seed, "flows": flows}
        return {"summary": json.dumps(summary), "traces": {}}

    module = types.ModuleType("ternsim._core")
    module.ScenarioError = StubScenarioError
    module.version = lambda: "stub-1"
    module.validate = validate
    module.run = run
    monkeypatch.setitem(sys.modules, "ternsim._core", module)
    return calls


def test_runs_table_has_grid_keys_seed_flow_fields_and_error(stub_core, tmp_path):
    result = sweep(BASE, {"links.0.queue": [5, 10]}, seeds=2, jobs=1, progress=False)
    runs = result.runs
    assert list(runs.columns) == ["links.0.queue", "seed", "flow", "tcp", "throughput_bps", "error"]
    assert runs[["links.0.queue", "seed"]].values.tolist() == [[5, 1], [5, 2], [10, 1], [10, 2]]
    assert runs["throughput_bps"].tolist() == [1050.0, 2050.0, 1100.0, 2100.0]
    assert runs["error"].isna().all()
    assert result.summary["mean"].tolist() == [1550.0, 1600.0]
    assert result.summary["n"].tolist() == [2, 2]
    assert all("traces" not in doc for doc, _ in stub_core)  # sweeps record no traces


def test_a_failing_run_is_recorded_and_spoils_nothing(stub_core, tmp_path):
    result = sweep(BASE, {"links.0.queue": [3, 4]}, seeds=3, jobs=1, progress=False)
    failures = result.failures
    assert failures.values.tolist() == [
        [3, 2, "BaseException: panicked at 'index out of bounds' second line"]
    ]
    ok = result.runs[result.runs["error"].isna()]
    assert len(ok) == 5
    assert result.summary.set_index("links.0.queue")["n"].to_dict() == {3: 2, 4: 3}


def test_repeated_sweeps_run_only_what_changed(stub_core, tmp_path):
    first = sweep(BASE, {"links.0.queue": [3, 4]}, seeds=2, jobs=1, progress=False)
    assert first.cached == 0 and len(stub_core) == 4
    again = sweep(BASE, {"links.0.queue": [3, 4, 5]}, seeds=2, jobs=1, progress=False)
    # 3 successful runs were cached; the failed one (queue 3, seed 2) and queue 5 run again.
    assert again.cached == 3 and len(stub_core) == 4 + 3
    assert again.runs.drop(columns="error").iloc[:4].equals(first.runs.drop(columns="error"))
    uncached = sweep(BASE, {"links.0.queue": [4]}, seeds=1, jobs=1, progress=False, cache=False)
    assert uncached.cached == 0


def test_cache_dir_argument_and_duplicate_runs(stub_core, tmp_path):
    result = sweep(
        BASE,
        {"links.0.queue": [4, 4]},
        seeds=[7, 7],
        jobs=1,
        progress=False,
        cache_dir=tmp_path / "mine",
    )
    assert len(stub_core) == 1  # four identical runs, one simulation
    assert len(result.runs) == 4
    assert list((tmp_path / "mine").rglob("*.json"))


def test_an_invalid_grid_point_refuses_the_whole_sweep(stub_core, tmp_path):
    with pytest.raises(ScenarioError) as info:
        sweep(BASE, {"links.0.queue": [4, 0]}, seeds=2, jobs=1, progress=False, out=tmp_path / "o")
    assert info.value.path == "links.0.queue"
    assert "(grid point links.0.queue=0)" in str(info.value)
    assert stub_core == [] and not (tmp_path / "o").exists()


def test_overrides_and_bad_arguments(stub_core):
    result = sweep(BASE, {}, seeds=1, jobs=1, progress=False, overrides=["flows.0.name=renamed"])
    assert result.runs["flow"].tolist() == ["renamed"]
    with pytest.raises(ValueError, match="non-empty list"):
        sweep(BASE, {"links.0.queue": "5"}, progress=False)
    with pytest.raises(ValueError, match="at least 1"):
        sweep(BASE, {}, seeds=0, progress=False)


def test_the_sweep_module_is_callable(stub_core):
    import ternsim
    import ternsim.sweep as module

    assert module.summarize is not None and module.SweepResult is ternsim.SweepResult
    result = ternsim.sweep(BASE, grid={"links.0.queue": [6]}, seeds=1, jobs=1, progress=False)
    assert result.runs["throughput_bps"].tolist() == [1060.0]
