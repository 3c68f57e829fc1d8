"""The `arunakumari-manet` reproduction: its pure pieces on hand-worked data (the per-run
metrics over flows, the network series over time, the ordering margins, the side-by-side
inclusion test), the paper's values in the scenario, and one --quick run through the command
line."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import ternsim
from ternsim.experiments import arunakumari_manet as am


def _flows(rows: list[dict]) -> pd.DataFrame:
    base = {"seed": 1, "error": None, "run_normalized_routing_overhead": 0.25}
    return pd.DataFrame([{**base, **r} for r in rows])


def test_per_run_pools_the_flows_like_an_awk_script() -> None:
    # Flow a: 100 sent, 90 received, mean delay 0.2 s, jitter 0.01 s (89 pairs);
    # flow b: 50 sent, 50 received, delay 0.5 s, jitter 0.04 s (49 pairs).
    # PDR = 140/150; loss = 10/150; delay = (90·0.2 + 50·0.5)/140 = 43/140;
    # jitter = (89·0.01 + 49·0.04)/138 = 2.85/138; throughput 300 + 100 kb/s.
    runs = _flows([
        {"flow": "a", "data_packets_sent": 100, "data_packets_received": 90,
         "delay_mean_s": 0.2, "jitter_s": 0.01, "throughput_bps": 300e3},
        {"flow": "b", "data_packets_sent": 50, "data_packets_received": 50,
         "delay_mean_s": 0.5, "jitter_s": 0.04, "throughput_bps": 100e3},
    ])  # fmt: skip
    t = am.per_run(runs, [])
    assert len(t) == 1
    row = t.iloc[0]
    assert row["pdr"] == pytest.approx(140 / 150)
    assert row["loss_rate"] == pytest.approx(10 / 150)
    assert row["pdr"] + row["loss_rate"] == pytest.approx(1.0)
    assert row["delay_s"] == pytest.approx(43 / 140)
    assert row["jitter_s"] == pytest.approx(2.85 / 138)
    assert row["nro"] == 0.25
    assert row["throughput_kbps"] == pytest.approx(400.0)


def test_a_flow_that_never_delivered_counts_as_sent_only() -> None:
    runs = _flows([
        {"flow": "a", "data_packets_sent": 10, "data_packets_received": 10,
         "delay_mean_s": 0.1, "jitter_s": 0.0, "throughput_bps": 1.0},
        {"flow": "b", "data_packets_sent": 10, "data_packets_received": 0,
         "delay_mean_s": None, "jitter_s": None, "throughput_bps": 0.0},
    ])  # fmt: skip
    row = am.per_run(runs, []).iloc[0]
    assert row["pdr"] == pytest.approx(0.5)
    assert row["delay_s"] == pytest.approx(0.1)


def test_network_series_sums_throughput_and_weights_jitter_by_packets() -> None:
    # Bin 0: flow a 3 packets jitter 0.01, flow b 1 packet jitter 0.05 -> (0.03+0.05)/4 = 0.02.
    # Bin 5: no packets anywhere -> throughput 0, jitter NaN.
    series = pd.DataFrame({
        "time_s": [0.0, 0.0, 5.0, 5.0],
        "flow": ["a", "b", "a", "b"],
        "packets": [3, 1, 0, 0],
        "throughput_bps": [3000.0, 1000.0, 0.0, 0.0],
        "jitter_s": [0.01, 0.05, math.nan, math.nan],
    })  # fmt: skip
    net = am.network_series(series)
    assert net["throughput_kbps"].tolist() == pytest.approx([4.0, 0.0])
    assert net["jitter_s"].iloc[0] == pytest.approx(0.02)
    assert math.isnan(net["jitter_s"].iloc[1])


def _table(values: dict[tuple[str, float], list[float]]) -> pd.DataFrame:
    """A per-run table of the pause sweep whose every metric holds the given values."""
    rows = []
    for (tcp, x), per_seed in values.items():
        for seed, v in enumerate(per_seed, start=1):
            metrics = dict.fromkeys(am.METRICS, v)
            rows.append({"sweep": "pause", "x": x, "tcp": tcp, "seed": seed, **metrics})
    return pd.DataFrame(rows)


def test_ordering_margin_is_per_seed_over_the_sweep_mean() -> None:
    t = _table({
        ("vegas", 0): [0.99, 0.98], ("vegas", 100): [0.97, 1.00],
        ("reno", 0): [0.97, 0.99], ("reno", 100): [0.97, 0.97],
        ("sack", 0): [0.96, 0.96], ("sack", 100): [0.98, 0.96],
    })  # fmt: skip
    # seed 1: vegas 0.98, reno 0.97, sack 0.97 -> +0.01; seed 2: 0.99, 0.98, 0.96 -> +0.01.
    assert am.ordering_samples(t, "pause", "pdr", "vegas", "highest") == pytest.approx([0.01, 0.01])
    # lowest for sack: seed 1 min(others) 0.97 - 0.97 = 0; seed 2 0.98 - 0.96 = 0.02.
    assert am.ordering_samples(t, "pause", "pdr", "sack", "lowest") == pytest.approx([0.0, 0.02])


def test_side_by_side_marks_whether_the_interval_holds_the_paper() -> None:
    # Reno at pause 0: samples 0.97, 0.99 -> mean 0.98, CI 12.706·0.01 ≈ 0.127: holds 0.9787.
    # Vegas: 0.90, 0.90 -> CI 0: misses 0.9946.
    t = _table({("reno", 0): [0.97, 0.99], ("sack", 0): [0.98, 0.98], ("vegas", 0): [0.9, 0.9]})
    row = am.side_by_side(t, "pause", "pdr", [0]).iloc[0]
    assert row["Reno"].endswith("(0.9787) ✓")
    assert row["Vegas"].endswith("(0.9946) ✗")
    claims = am.table_claims(t, {"pause": [0], "speed": [], "rate": []})
    verdicts = {
        c.quantity.split(", ")[1]: c.agrees for c in claims if c.quantity.startswith("Table 1:")
    }
    assert verdicts == {"Reno": True, "SACK": False, "Vegas": False}


def test_paper_tables_are_complete_and_sum_pdr_and_loss_to_one() -> None:
    for (sweep_name, metric), rows in am.PAPER.items():
        assert sorted(rows) == sorted(am.FULL_SWEEPS[sweep_name]), (sweep_name, metric)
    # The observation behind loss = 1 - PDR: the paper's Tables 1/4, 5/8 and 9/12 add up.
    for sweep_name in am.FULL_SWEEPS:
        pdr, loss = am.PAPER[(sweep_name, "pdr")], am.PAPER[(sweep_name, "loss_rate")]
        for x in pdr:
            assert np.add(pdr[x], loss[x]) == pytest.approx([1.0] * 3, abs=1e-4)
    assert [am.fig_number(p, s, False) for p, s in am.FIG_CASES] == list(range(1, 10))
    assert am.fig_number(200, 30, True) == 18


def test_scenario_holds_the_papers_values() -> None:
    sc = ternsim.load_scenario(am.SCENARIO)
    assert sc["duration"] == "200s"
    assert sc["topology"]["random"] == {"nodes": 50, "area": ["500m", "500m"]}
    assert sc["traffic"]["connections"]["count"] == 8
    assert sc["routing"]["protocol"] == "aodv"
    assert sc["wireless"]["data_rate"] == "1Mbps"


def test_arunakumari_manet_quick(cli, tmp_path: Path, every_run_listed) -> None:
    out = tmp_path / "arunakumari-manet"
    proc = cli("reproduce", "arunakumari-manet", "--quick", "--seeds", "1", "--out", out,
               "--quiet", timeout=180)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    every_run_listed(out, proc.stderr)
    for name in ["runs.csv", "per_run.csv", "figure_runs.csv", "report.md", "claims.csv",
                 "figs_1-3_throughput.png", "figs_10-12_jitter.png",
                 "tables_1-4_pause.png"]:  # fmt: skip
        assert (out / name).is_file() and (out / name).stat().st_size > 0, name
    per_run = pd.read_csv(out / "per_run.csv")
    # 3 sweeps × 2 values × 3 variants, one seed each.
    assert len(per_run) == 18
    # Every run moved data and lost little: delivery ratio and loss rate are complements.
    assert (per_run["pdr"] > 0.5).all()
    assert np.allclose(per_run["pdr"] + per_run["loss_rate"], 1.0)
    assert (per_run["nro"] > 0).all()
    claims = pd.read_csv(out / "claims.csv")
    assert claims["quantity"].str.startswith("Table 1:").any()
    assert claims["quantity"].str.startswith("Fig. 10:").any()
    # The ns-2.35 column from the stored ns-2 results: values for the tables, "—" and the
    # reason for the figures.
    tables = claims["quantity"].str.startswith("Table")
    assert (claims.loc[tables, "ns2_n"] >= 3).all()
    assert claims.loc[tables, "ns2_vs_ternsim"].isin(["agrees", "differs"]).all()
    assert (claims.loc[~tables, "ns2"] == "—").all()
    report = (out / "report.md").read_text(encoding="utf-8")
    assert "ns-2.35 (mean ± 95 % CI, n seeds)" in report and "ternsim setdest" in report
