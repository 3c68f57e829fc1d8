"""Sweep statistics, the cache key and the grid syntax, against hand-worked numbers (no core
needed)."""

from __future__ import annotations

import math
import sys

import pandas as pd
import pytest

from ternsim.sweep import (
    SummaryCache,
    cache_key,
    ci95,
    default_cache_dir,
    parse_grid_values,
    summarize,
)


def test_ci95_of_one_to_five():
    # mean 3; s = sqrt(10/4) = 1.5811; t(0.975, 4) = 2.7764; 2.7764 * 1.5811 / sqrt(5) = 1.9632
    mean, half, n, std = ci95([1, 2, 3, 4, 5])
    assert mean == 3.0 and n == 5
    assert std == pytest.approx(1.5811, abs=1e-4)
    assert half == pytest.approx(1.9632, abs=1e-4)


def test_ci95_of_two_samples_uses_t_with_one_degree_of_freedom():
    # mean 11, s = sqrt(2) = 1.4142, t(0.975, 1) = 12.7062: half = 12.7062 * 1.4142 / 1.4142
    mean, half, n, _ = ci95([10.0, 12.0])
    assert (mean, n) == (11.0, 2)
    assert half == pytest.approx(12.7062, abs=1e-4)


def test_ci95_ignores_missing_samples_and_needs_two():
    assert ci95([4.0, None, float("nan"), 6.0])[:3] == (5.0, pytest.approx(12.7062, abs=1e-4), 2)
    mean, half, n, std = ci95([4.0])
    assert (mean, n) == (4.0, 1) and math.isnan(half) and math.isnan(std)
    assert ci95([])[2] == 0


def test_summarize_aggregates_per_grid_point_flow_and_metric():
    runs = pd.DataFrame(
        {
            "links.0.loss": [0.0] * 5 + [0.1] * 3,
            "seed": [1, 2, 3, 4, 5, 1, 2, 3],
            "flow": ["f"] * 8,
            "tcp": ["reno"] * 8,
            "throughput_bps": [1, 2, 3, 4, 5, 7.0, 9.0, None],
            "timeouts": [0, 0, 0, 0, 0, 1, 1, 1],
            "error": [None] * 8,
        }
    )
    failed = {"links.0.loss": 0.1, "seed": 4, "flow": None, "error": "boom"}
    runs = pd.concat([runs, pd.DataFrame([failed])], ignore_index=True)
    out = summarize(runs, ["links.0.loss"])
    assert list(out.columns) == ["links.0.loss", "flow", "metric", "mean", "ci95", "n", "std"]
    assert out[["links.0.loss", "metric"]].values.tolist() == [
        [0.0, "throughput_bps"],
        [0.0, "timeouts"],
        [0.1, "throughput_bps"],
        [0.1, "timeouts"],
    ]
    first = out.iloc[0]
    assert (first["mean"], first["n"]) == (3.0, 5)
    assert first["ci95"] == pytest.approx(1.9632, abs=1e-4)
    lossy = out.iloc[2]  # the missing sample and the failed run are left out
    assert (lossy["mean"], lossy["n"]) == (8.0, 2)
    assert lossy["ci95"] == pytest.approx(12.7062, abs=1e-4)
    assert out.iloc[3]["ci95"] == 0.0


def test_summarize_with_no_successful_runs_is_empty_with_columns():
    runs = pd.DataFrame({"k": [1], "seed": [1], "flow": [None], "error": ["boom"]})
    out = summarize(runs, ["k"])
    assert out.empty and list(out.columns) == ["k", "flow", "metric", "mean", "ci95", "n", "std"]


SCENARIO = {"name": "s", "duration": "1s", "links": [{"a": "x", "b": "y", "loss": 0.01}]}


def test_cache_key_is_stable():
    reordered = {"links": [{"loss": 0.01, "b": "y", "a": "x"}], "duration": "1s", "name": "s"}
    key = cache_key(SCENARIO, 1, "0.1.0")
    assert key == cache_key(reordered, 1, "0.1.0")
    assert len(key) == 64 and int(key, 16) >= 0
    # Pinned: changing the key's recipe invalidates every cache; do it on purpose only.
    assert key == cache_key(
        '{"duration":"1s","links":[{"a":"x","b":"y","loss":0.01}],"name":"s"}', 1, "0.1.0"
    )


@pytest.mark.parametrize(
    ("scenario", "seed", "version"),
    [
        ({**SCENARIO, "duration": "2s"}, 1, "0.1.0"),
        ({**SCENARIO, "links": [{"a": "x", "b": "y", "loss": 0.02}]}, 1, "0.1.0"),
        (SCENARIO, 2, "0.1.0"),
        (SCENARIO, 1, "0.1.1"),
    ],
)
def test_cache_key_changes_with_scenario_seed_and_version(scenario, seed, version):
    assert cache_key(scenario, seed, version) != cache_key(SCENARIO, 1, "0.1.0")


def test_summary_cache_round_trip_and_corruption(tmp_path):
    cache = SummaryCache(tmp_path / "c")
    key = cache_key(SCENARIO, 1, "v")
    assert cache.get(key) is None
    cache.put(key, '{"flows": []}')
    assert cache.get(key) == '{"flows": []}'
    assert cache.path(key).parent.name == key[:2]
    cache.path(key).write_text('{"flows": [')  # half a file, e.g. from a killed writer
    assert cache.get(key) is None


def test_default_cache_dir_honours_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("TERNSIM_CACHE", str(tmp_path / "elsewhere"))
    assert default_cache_dir() == tmp_path / "elsewhere"


@pytest.mark.skipif(sys.platform in ("win32", "darwin"), reason="the XDG rule is Linux's")
def test_default_cache_dir_is_the_xdg_cache_folder_never_the_working_one(monkeypatch, tmp_path):
    """XDG Base Directory specification: $XDG_CACHE_HOME, else ~/.cache; a relative
    $XDG_CACHE_HOME is ignored."""
    monkeypatch.delenv("TERNSIM_CACHE")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert default_cache_dir() == tmp_path / "xdg" / "ternsim"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")
    assert default_cache_dir() == tmp_path / "home" / ".cache" / "ternsim"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert default_cache_dir() == tmp_path / "home" / ".cache" / "ternsim"


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("0,0.01,0.02", [0, 0.01, 0.02]),
        ("reno, vegas", ["reno", "vegas"]),
        ("10ms,20ms", ["10ms", "20ms"]),
        ('"a,b",c', ["a,b", "c"]),
        ("[1, 2],[3, 4]", [[1, 2], [3, 4]]),
        ("true", [True]),
    ],
)
def test_parse_grid_values(text, values):
    assert parse_grid_values(text) == values
