"""A sweep's cache keys on the contents of the files a scenario reads: editing a trace file
reruns the runs that read it instead of returning stale results."""

from __future__ import annotations

import ternsim


def scenario_with_trace(folder) -> dict:
    return {
        "name": "trace-app",
        "duration": "10s",
        "scenario_dir": str(folder),
        "nodes": [{"name": "a"}, {"name": "b"}],
        "links": [{"a": "a", "b": "b", "rate": "1Mbps", "delay": "10ms"}],
        "flows": [
            {"src": "a", "dst": "b", "tcp": "reno", "app": {"kind": "trace", "file": "app.txt"}}
        ],
    }


def delivered(result) -> int:
    return int(result.runs["delivered_bytes"].iloc[0])


def test_editing_a_trace_file_invalidates_cached_runs(tmp_path):
    (tmp_path / "app.txt").write_text("0 5000\n")
    sc = scenario_with_trace(tmp_path)
    cache = tmp_path / "cache"
    grid = {"flows.0.tcp": ["reno"]}
    first = ternsim.sweep(sc, grid, seeds=1, cache_dir=cache, progress=False)
    assert delivered(first) == 5000
    again = ternsim.sweep(sc, grid, seeds=1, cache_dir=cache, progress=False)
    assert delivered(again) == 5000
    (tmp_path / "app.txt").write_text("0 9000\n")
    edited = ternsim.sweep(sc, grid, seeds=1, cache_dir=cache, progress=False)
    assert delivered(edited) == 9000
