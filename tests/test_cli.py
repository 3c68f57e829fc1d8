"""End to end through the real core: the ``ternsim`` command (in a subprocess, as a user runs
it) and the Python API it calls. Needs the extension built (``maturin develop``)."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

import ternsim
from ternsim import ScenarioError
from ternsim.sweep import sweep

FLOW_KEYS = {
    "name", "tcp", "throughput_bps", "delivered_bytes", "retransmitted_segments", "timeouts",
    "mean_cwnd", "rtt_min_s", "rtt_mean_s", "rtt_max_s",
}  # fmt: skip


def one_json_object(stdout: str) -> dict:
    lines = stdout.splitlines()
    assert len(lines) == 1, stdout
    doc = json.loads(lines[0])
    assert isinstance(doc, dict)
    return doc


def test_run_json_prints_one_summary_object(cli, tiny_toml):
    proc = cli("run", tiny_toml, "--seed", "3", "--json")
    assert proc.returncode == 0, proc.stderr
    summary = one_json_object(proc.stdout)
    assert {"scenario", "seed", "sim_seconds", "wall_seconds", "events", "flows"} <= set(summary)
    assert summary["scenario"] == "tiny" and summary["seed"] == 3
    assert summary["sim_seconds"] == pytest.approx(3.0)
    assert [f["name"] for f in summary["flows"]] == ["f0"]
    assert FLOW_KEYS <= set(summary["flows"][0])


def test_run_prints_tables(cli, tiny_toml):
    proc = cli("run", tiny_toml)
    assert proc.returncode == 0, proc.stderr
    assert "f0" in proc.stdout and "drops by reason" in proc.stdout


def test_run_on_a_wireless_chain_prints_mac_counters_and_routing_overhead(cli):
    """The shipped 7-hop 802.11/DSR example, shortened: a MAC row per node, routing overhead."""
    example = Path(__file__).resolve().parents[1] / "scenarios" / "examples" / "wifi_chain.toml"
    proc = cli("run", example, "--set", "duration=10s")
    assert proc.returncode == 0, proc.stderr
    assert "802.11 MAC per node" in proc.stdout
    assert all(f"n{i} " in proc.stdout for i in range(8))
    assert "normalized routing overhead" in proc.stdout and "dsr_rreq" in proc.stdout


@pytest.mark.parametrize(
    ("override", "path"),
    [
        ("flows.0.bogus=1", "flows.0.bogus"),
        ("links.0.delay=5parsecs", "links.0.delay"),
        ("links.0.rate=-1Mbps", "links.0.rate"),
        ("flows.0.tcp=cubic", "flows.0.tcp"),
        ("flows.4.tcp=reno", "flows.4"),
        ("flows.0.tcp", "flows.0.tcp"),
    ],
)
def test_refused_overrides_exit_2_with_one_line_and_write_nothing(cli, tiny_toml, override, path):
    out = tiny_toml.parent / "result"
    proc = cli("run", tiny_toml, "--set", override, "--out", out, "--json")
    assert proc.returncode == 2
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith(f"scenario error at `{path}`: ")
    assert not out.exists()


def test_validate(cli, tiny_toml):
    ok = cli("validate", tiny_toml, "--set", "flows.0.tcp=vegas")
    assert ok.returncode == 0, ok.stderr
    bad = cli("validate", tiny_toml, "--set", "flows.0.tcp=cubic")
    assert bad.returncode == 2 and len(bad.stderr.splitlines()) == 1
    assert "allowed" in bad.stderr and "vegas" in bad.stderr


def test_missing_file_exits_2_with_one_line(cli):
    proc = cli("run", "no/such/scenario.toml", "--json")
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.splitlines() == ["error: scenario file not found: no/such/scenario.toml"]


def disconnected(tiny_scenario: dict) -> dict:
    scenario = dict(tiny_scenario)
    scenario["nodes"] = [*scenario["nodes"], {"name": "island"}]
    scenario["flows"] = [{"name": "lost", "src": "a", "dst": "island", "tcp": "reno"}]
    return scenario


def test_a_flow_without_a_path_is_refused(cli, tiny_scenario, tmp_path):
    scenario = disconnected(tiny_scenario)
    with pytest.raises(ScenarioError) as info:
        ternsim.run(scenario)
    assert str(info.value).startswith("scenario error")
    assert "\n" not in str(info.value)
    path = tmp_path / "island.json"
    path.write_text(json.dumps(scenario))
    proc = cli("run", path, "--json")
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.splitlines() == [str(info.value)]


def test_same_seed_same_output(cli, tiny_toml):
    runs = [cli("run", tiny_toml, "--seed", "5", "--json") for _ in range(2)]
    a, b = (one_json_object(p.stdout) for p in runs)
    assert a.pop("wall_seconds") >= 0 and b.pop("wall_seconds") >= 0
    assert a == b


def test_run_writes_a_result_folder(cli, tiny_toml, tmp_path):
    out = tmp_path / "result"
    proc = cli("run", tiny_toml, "--out", out, "--csv", "--json")
    assert proc.returncode == 0, proc.stderr
    summary = one_json_object(proc.stdout)
    names = {p.name for p in out.iterdir()}
    assert {"summary.json", "scenario.json", "flows.csv", "links.csv"} <= names
    assert {"cwnd.parquet", "cwnd.csv", "drops.parquet", "drops.csv"} <= names
    assert json.loads((out / "summary.json").read_text()) == summary
    assert pd.read_csv(out / "flows.csv")["name"].tolist() == ["f0"]
    cwnd = pd.read_parquet(out / "cwnd.parquet")
    assert list(cwnd.columns) == ["time_s", "flow", "cwnd", "ssthresh", "dupwnd"]
    assert set(cwnd["flow"].astype(str)) <= {"f0"}

    image = tmp_path / "cwnd.png"
    plotted = cli("plot", out, "--trace", "cwnd", "--flow", "f0", "-o", image)
    assert plotted.returncode == 0, plotted.stderr
    assert image.stat().st_size > 0


def test_api_run_result(tiny_toml):
    result = ternsim.run(tiny_toml, seed=2, overrides={"flows.0.tcp": "newreno"})
    assert result.summary["seed"] == 2
    assert result.flows["tcp"].tolist() == ["newreno"]
    assert len(result.links) == 2 * len(result.scenario["links"])  # one entry per direction
    assert set(result.traces) == {"cwnd", "drops"}
    drops = result.trace("drops")
    columns = {"time_s", "node", "iface", "reason", "flow", "kind", "seq"}
    assert columns <= set(drops.columns)
    # Names come from the core: the interface is the link's name and direction.
    assert set(drops["iface"].astype(str)) <= {"a-b/a_to_b", "a-b/b_to_a"}
    assert set(drops["node"].astype(str)) <= {"a", "b"}
    with pytest.raises(ScenarioError) as info:
        ternsim.run(tiny_toml, overrides=["links.0.queue=-3"])
    assert info.value.path == "links.0.queue"


def test_sweep_writes_runs_and_summary(cli, tiny_toml, tmp_path):
    out = tmp_path / "sweep"
    args = ["sweep", tiny_toml, "--grid", "links.0.loss=0,0.05", "--grid", "flows.0.tcp=reno,vegas"]
    proc = cli(*args, "--seeds", "3", "--jobs", "2", "--out", out, "-q")
    assert proc.returncode == 0, proc.stderr
    assert sorted(p.name for p in out.iterdir()) == [
        "report.html",
        "runs.csv",
        "runs.parquet",
        "summary.csv",
    ]

    runs = pd.read_csv(out / "runs.csv")
    assert list(runs.columns[:4]) == ["links.0.loss", "flows.0.tcp", "seed", "flow"]
    assert {"throughput_bps", "goodput_bps", "timeouts", "mean_cwnd"} <= set(runs.columns)
    assert runs.columns[-1] == "error" and runs["error"].isna().all()
    assert len(runs) == 2 * 2 * 3
    assert runs["tcp"].tolist() == (["reno"] * 3 + ["vegas"] * 3) * 2
    assert pd.read_parquet(out / "runs.parquet").shape == runs.shape

    summary = pd.read_csv(out / "summary.csv")
    assert list(summary.columns) == [
        "links.0.loss", "flows.0.tcp", "flow", "metric", "mean", "ci95", "n", "std",
    ]  # fmt: skip
    tput = summary[summary["metric"] == "throughput_bps"]
    assert len(tput) == 4 and (tput["n"] == 3).all()

    again = cli(*args, "--seeds", "3", "--out", out)
    assert again.returncode == 0, again.stderr
    assert "12 cached" in again.stderr
    assert pd.read_csv(out / "runs.csv").equals(runs)

    image = tmp_path / "tput.png"
    plotted = cli("plot", out, "--metric", "throughput_bps", "--x", "links.0.loss", "-o", image)
    assert plotted.returncode == 0, plotted.stderr
    assert image.stat().st_size > 0


def test_sweep_refuses_a_bad_grid_point_before_running(cli, tiny_toml, tmp_path):
    out = tmp_path / "sweep"
    proc = cli("sweep", tiny_toml, "--grid", "flows.0.tcp=reno,cubic", "--out", out)
    assert proc.returncode == 2
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("scenario error at `flows.0.tcp`")
    assert not out.exists()


def test_sweep_api_matches_single_runs(tiny_toml, tmp_path):
    result = sweep(tiny_toml, {"links.0.loss": [0.05]}, seeds=[4], jobs=1, progress=False)
    single = ternsim.run(tiny_toml, seed=4, overrides={"links.0.loss": 0.05, "traces": {}})
    row = result.runs.iloc[0]
    assert row["throughput_bps"] == single.summary["flows"][0]["throughput_bps"]
    assert row["delivered_bytes"] == single.summary["flows"][0]["delivered_bytes"]


def test_bench_json_shape(cli):
    proc = cli("bench", "--json", "--quick")
    assert proc.returncode == 0, proc.stderr
    doc = one_json_object(proc.stdout)
    assert set(doc) == {"benchmarks", "events_per_second"}
    assert "wired_bulk" in doc["benchmarks"]
    for name, bench in doc["benchmarks"].items():
        assert {
            "events_per_second", "wall_seconds", "events", "sim_seconds_per_wall_second",
        } <= set(bench)  # fmt: skip
        assert bench["wall_seconds"] > 0 and bench["events"] >= 0
        assert doc["events_per_second"][name] == bench["events_per_second"]


def test_shipped_example_and_bench_scenarios_validate():
    paths = sorted(ternsim.scenario_path("examples").glob("*.toml"))
    paths += sorted(ternsim.scenario_path("bench").glob("*.toml"))
    assert paths
    for path in paths:
        ternsim.validate(path)
