"""The sweep cache is visible and controllable: every sweep summary says how many runs came
from it and where it is, ``ternsim cache`` shows and clears it, ``--no-cache`` bypasses it."""

from __future__ import annotations

from ternsim.sweep import SummaryCache, counting_runs, sweep


def test_cache_is_reported_shown_and_cleared(cli, tiny_toml, tmp_path, _private_cache):
    first = cli("sweep", tiny_toml, "-o", tmp_path / "a", "--seeds", "3", "-q")
    assert first.returncode == 0, first.stderr
    assert "3 runs (0 cached, 0 failed)" in first.stderr
    assert f"cache {_private_cache}" in " ".join(first.stderr.split())

    shown = cli("cache")
    assert shown.returncode == 0, shown.stderr
    assert f"cache: {_private_cache}" in shown.stdout and "3 run summaries" in shown.stdout

    again = cli("sweep", tiny_toml, "-o", tmp_path / "b", "--seeds", "3", "-q")
    assert "3 runs (3 cached, 0 failed)" in again.stderr

    foreign = _private_cache / "notes.txt"
    foreign.write_text("not the cache's", encoding="utf-8")
    cleared = cli("cache", "--clear")
    assert cleared.returncode == 0, cleared.stderr
    assert "removed 3 cached run summaries" in cleared.stderr
    assert SummaryCache(_private_cache).entries() == [] and foreign.is_file()

    after = cli("sweep", tiny_toml, "-o", tmp_path / "c", "--seeds", "3", "-q")
    assert "3 runs (0 cached, 0 failed)" in after.stderr


def test_no_cache_neither_reads_nor_writes(cli, tiny_toml, tmp_path, _private_cache):
    proc = cli("sweep", tiny_toml, "-o", tmp_path / "a", "--seeds", "2", "-q", "--no-cache")
    assert proc.returncode == 0, proc.stderr
    assert "2 runs (0 cached, 0 failed)" in proc.stderr and "cache off" in proc.stderr
    assert SummaryCache(_private_cache).entries() == []


def test_counting_runs_adds_up_every_sweep_in_the_block(tiny_scenario):
    with counting_runs() as tally:
        sweep(tiny_scenario, {"links.0.queue": [5, 10]}, seeds=2, jobs=1, progress=False)
        sweep(tiny_scenario, {"links.0.queue": [10, 20]}, seeds=2, jobs=1, progress=False)
    # 4 runs, then 4 of which the 2 of queue 10 are cached.
    assert (tally.runs, tally.cached) == (8, 2)
