"""`ternsim bench --scaling`: the MANET script both simulators run (scenarios/bench/
manet_scale.tcl), its movement and connection files, the child-process measurements and the
power-law fit. Benchmarks report, they do not assert speed: no test checks a time beyond it
being positive. The ns-2 side runs where `ns` is installed (apt-get install ns2)."""

from __future__ import annotations

import json
import math
import shutil
import subprocess
import sys

import pytest

from ternsim import bench
from ternsim.paths import scenario_path

HAVE_NS = shutil.which("ns") is not None
needs_ns = pytest.mark.skipif(not HAVE_NS, reason="ns-2 not installed (apt-get install ns2)")


def test_area_and_connections_keep_ns2s_usual_density():
    assert [bench.scaling_side(n) for n in (50, 200, 500, 1000)] == [500, 1000, 1582, 2237]
    assert [bench.scaling_connections(n) for n in (3, 50, 200, 1000)] == [1, 10, 40, 200]


def test_power_law_exponent_recovers_the_exponent():
    xs = [50.0, 200.0, 500.0, 1000.0]
    assert bench.power_law_exponent(xs, [3.0 * x**1.5 for x in xs]) == pytest.approx(1.5)
    assert bench.power_law_exponent([200.0], [1.0]) is None
    assert bench.power_law_exponent([200.0, 500.0], [1.0, 0.0]) is None


def test_inputs_are_the_files_setdest_and_cbrgen_write(tmp_path):
    args = bench.write_scaling_inputs(tmp_path, 20, 5.0, seed=3)
    assert args[:3] == ["20", "5", "3"]
    scen, conn = (tmp_path / "scen-20").read_text(), (tmp_path / "conn-20").read_text()
    assert "max x: 317.00, max y: 317.00" in scen and "$node_(19) set X_" in scen
    assert conn.count("new Application/Traffic/CBR") == 4
    assert "interval_ 0.25" in conn and "packetSize_ 512" in conn


def run_script(argv: list[str], cwd) -> str:
    proc = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_the_script_runs_unchanged_in_ternsim_and_ns2(tmp_path):
    """Both simulators read the same files and compute the same square (ns-2 only where it
    is installed)."""
    args = bench.write_scaling_inputs(tmp_path, 20, 5.0)
    script = str(scenario_path(bench.SCALING_SCRIPT))
    line = f"nodes 20 side {bench.scaling_side(20)} duration 5"
    out = run_script([sys.executable, "-m", "ternsim", "ns2", script, *args], tmp_path)
    # The script's line, then ns-2's own (God's node count and the channel's first frame).
    assert out.splitlines()[:2] == [line, "num_nodes is set 20"]
    if HAVE_NS:
        assert run_script(["ns", script, *args], tmp_path) == out


def test_a_child_reports_its_own_peak_memory_not_ours(tmp_path):
    """A child's max RSS would include this process's (Linux keeps the forked image's
    high-water mark across exec); the launcher forks it from a small process instead."""
    import resource

    ours = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    r = bench._child(["true"], str(tmp_path))
    assert r["status"] == 0 and not r["timed_out"]
    assert 0 < r["peak_kb"] < 15_000 < ours
    assert r["seconds"] > 0 and r["cpu_seconds"] >= 0 and r["load"] >= 0
    assert list(tmp_path.iterdir()) == []


def test_a_timed_process_reports_its_own_peak_memory_not_ours(tmp_path):
    """``bench --against ns2`` times each simulator with the same launcher."""
    import resource

    ours = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    seconds, peak_kb, status = bench._timed_process(["true"], str(tmp_path))
    assert status == 0 and seconds > 0
    assert 0 < peak_kb < 15_000 < ours


def test_a_child_is_killed_at_the_timeout(tmp_path):
    r = bench._child(["sleep", "30"], str(tmp_path), timeout=0.3)
    assert r["timed_out"] and r["status"] != 0 and r["seconds"] < 10


def test_bench_scaling_json_reports_both_simulators_per_node_count(cli):
    proc = cli("bench", "--scaling", "--nodes", "10,20", "--duration", "5", "--repeat", "1")
    assert proc.returncode == 0, proc.stderr
    assert "time ~ N^b" in proc.stdout
    proc = cli(
        "bench", "--scaling", "--nodes", "10,20", "--duration", "5", "--repeat", "1", "--json"
    )
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert [r["nodes"] for r in doc["rows"]] == [10, 20]
    for r in doc["rows"]:
        assert r["events"] > 0 and r["core_seconds"] > 0
        assert r["events_per_second"] == pytest.approx(r["events"] / r["core_seconds"])
        for side in ("ternsim_ns2", "ternsim_run"):
            assert r[f"{side}_ok"] and r[f"{side}_seconds"] > 0 and r[f"{side}_peak_kb"] > 0
            assert len(r["runs"][side]) == 1
        if HAVE_NS:
            assert r["ns2_ok"] and not r["ns2_timed_out"]
            assert r["ns2_over_ternsim_ns2"] == pytest.approx(
                r["ns2_seconds"] / r["ternsim_ns2_seconds"]
            )
    exps = doc["exponents"]
    assert math.isfinite(exps["events"]) and math.isfinite(exps["ternsim_ns2_seconds"])
    assert (exps["ns2_seconds"] is not None) == HAVE_NS
    assert (doc["ns2_note"] is None) == HAVE_NS


def test_without_ns2_the_ternsim_side_still_runs_and_says_how_to_install(tmp_path, monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda _name: None)
    doc = bench.run_scaling([10], duration=2.0, repeat=1)
    (row,) = doc["rows"]
    assert "apt-get install ns2" in doc["ns2_note"]
    assert row["runs"]["ns2"] == [] and row["ns2_seconds"] is None
    assert row["ternsim_ns2_ok"] and row["ternsim_run_ok"] and row["events"] is not None


@pytest.mark.parametrize(
    "args, message",
    [
        (["--nodes", "ten"], "error: --nodes ten: give node counts of at least 2"),
        (["--nodes", "1"], "error: --nodes 1: give node counts of at least 2"),
        (["--duration", "0"], "error: --duration 0: must be > 0"),
    ],
)
def test_bench_scaling_refuses_bad_arguments(cli, args, message):
    proc = cli("bench", "--scaling", *args)
    assert proc.returncode == 2
    assert proc.stderr.strip().startswith(message)


@needs_ns
def test_ns2_at_the_timeout_is_reported_not_retried(cli):
    proc = cli(
        "bench", "--scaling", "--nodes", "20", "--duration", "5", "--repeat", "2",
        "--ns2-timeout", "0.01", "--json",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    (row,) = json.loads(proc.stdout)["rows"]
    assert row["ns2_timed_out"] and len(row["runs"]["ns2"]) == 1
    assert row["ns2_seconds"] is None and len(row["runs"]["ternsim_ns2"]) == 2
