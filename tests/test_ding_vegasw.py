"""The `ding-vegasw` reproduction: its pure pieces on hand-worked data (the time-weighted window
distribution of Fig. 2, the Fig. 4 ratios, the claim criteria, building N flows from flow 0)
and one --quick run through the command line."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import ternsim
from ternsim.experiments import ding_vegasw as dv


def _cwnd(rows: list[tuple[float, str, float]]) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=["time_s", "flow", "cwnd"])


def test_window_distribution_hand_worked() -> None:
    # f0: cwnd 2 on [1, 3), 3.5 on [3, 9), 2.99 (floored to 2) on [9, 11), the run's end.
    # Covered time [1, 11) = 10 s: w = 2 for 2 + 2 = 4 s, w = 3 for 6 s. The other flow's
    # records are ignored.
    c = _cwnd([(1.0, "f0", 2.0), (2.0, "f1", 7.0), (3.0, "f0", 3.5), (9.0, "f0", 2.99)])
    d = dv.window_distribution(c, end_s=11.0, flow="f0")
    assert list(d.index) == [0, 1, 2, 3]
    assert d.to_numpy() == pytest.approx([0.0, 0.0, 0.4, 0.6])
    assert d.sum() == pytest.approx(1.0)


def test_window_distribution_top_bin_and_fractional_window() -> None:
    # Vegas-W's fractional window 0.5 is w = 0; windows above max_w fall into the top bin.
    c = _cwnd([(0.0, "f0", 0.5), (1.0, "f0", 9.0), (4.0, "f0", 5.0)])
    d = dv.window_distribution(c, end_s=5.0, flow="f0", max_w=6)
    assert len(d) == 7
    assert d[0] == pytest.approx(0.2)
    assert d[5] == pytest.approx(0.2)
    assert d[6] == pytest.approx(0.6)
    assert d.sum() == pytest.approx(1.0)


def test_window_distribution_unsorted_records_and_empty_trace() -> None:
    c = _cwnd([(4.0, "f0", 3.0), (0.0, "f0", 2.0)])
    d = dv.window_distribution(c, end_s=5.0, flow="f0")
    assert d[2] == pytest.approx(0.8) and d[3] == pytest.approx(0.2)
    assert dv.window_distribution(c, end_s=5.0, flow="f9").empty


def test_total_variation() -> None:
    p = pd.Series([0.0, 0.5, 0.5])
    q = pd.Series([0.0, 0.0, 0.5, 0.5])
    assert dv.total_variation(p, q) == pytest.approx(0.5)
    assert dv.total_variation(p, p) == 0.0


def _table(values: dict[tuple[int, str, int], list[float]]) -> pd.DataFrame:
    rows = []
    for (hops, case, n), per_seed in values.items():
        for seed, v in enumerate(per_seed, start=1):
            rows.append({dv.HOPS_KEY: hops, dv.CASE: case, dv.N_FLOWS: n, "seed": seed,
                         "aggregate_kbps": v})  # fmt: skip
    return pd.DataFrame(rows)


def test_mean_ratio_over_hops_per_seed() -> None:
    table = _table({
        (4, "vegasw", 8): [200.0, 150.0],
        (4, "vegas", 8): [100.0, 100.0],
        (8, "vegasw", 8): [120.0, 90.0],
        (8, "vegas", 8): [100.0, 60.0],
    })  # fmt: skip
    # seed 1: (2.0 + 1.2) / 2 = 1.6; seed 2: (1.5 + 1.5) / 2 = 1.5
    got = dv.mean_ratio_over_hops(table, "vegasw", "vegas", 8, [4, 8])
    assert got == pytest.approx([1.6, 1.5])
    # A missing chain length is skipped, not counted as zero.
    assert dv.mean_ratio_over_hops(table, "vegasw", "vegas", 8, [4, 6]) == pytest.approx([2, 1.5])
    # Ratio of means: hops 4 -> 175 / 100, hops 8 -> 105 / 80.
    assert dv.max_mean_ratio(table, "vegasw", "vegas", [4, 8]) == pytest.approx(1.75)


def test_gain_band() -> None:
    check, text = dv.gain_band(1.62)
    assert check(1.31) and check(1.93) and check(1.62)
    assert not check(1.30) and not check(1.94) and not check(0.9)
    assert "1.31" in text and "1.93" in text


def test_claims_criteria_on_synthetic_runs() -> None:
    """The claims read the right rows: a synthetic table built to match the paper exactly
    agrees on every Table I and Fig. 4 claim."""
    paper = dv.PAPER_TABLE1
    values: dict[tuple[int, str, int], list[float]] = {}
    flow0: dict[tuple[int, str, int], list[float]] = {}
    for n in dv.FLOW_COUNTS:
        values[(7, "vegas", n)] = [paper["aggregate"][n]] * 2
        flow0[(7, "vegas", n)] = [paper["flow0"][n]] * 2
        values[(7, "vegas-min1-ss1", n)] = [paper["modified"][n]] * 2
        values[(7, "vegas-min1", n)] = [paper["aggregate"][n]] * 2
        gain_vegas = {1: 1.0, 2: 1.27, 4: 1.87, 8: 1.62}[n]
        gain_few = {1: 1.07, 2: 1.0, 4: 1.0, 8: 1.22}[n]
        for h in (4, 8):
            values[(h, "vegasw", n)] = [100.0, 100.0]
            values[(h, "vegas", n)] = [100.0 / gain_vegas] * 2
            values[(h, "few", n)] = [100.0 / gain_few] * 2
    table = _table(values)
    table["flow0_kbps"] = table["aggregate_kbps"]
    for key, v in flow0.items():
        sel = ((table[dv.HOPS_KEY] == key[0]) & (table[dv.CASE] == key[1])
               & (table[dv.N_FLOWS] == key[2]))  # fmt: skip
        table.loc[sel, "flow0_kbps"] = v
    claims = dv._claims(table, {}, [4, 8], 6)
    by_name = {c.quantity: c for c in claims}
    for c in claims:
        if c.quantity.startswith(("Table I", "Min window", "Fig. 4")) and c.n > 0:
            assert c.agrees is True, (c.quantity, c.mean)
    # Fig. 2 claims have no traced runs here: no samples, no agreement.
    fig2 = [c for c in claims if c.quantity.startswith("Fig. 2")]
    assert fig2 and all(c.n == 0 for c in fig2)
    ratio = by_name["Fig. 4: Vegas-W / Vegas, 8 flows, mean over hops"]
    assert ratio.mean == pytest.approx(1.62)


def test_flows_for_copies_flow0() -> None:
    base = ternsim.load_scenario(dv.SCENARIO)
    flows = dv.flows_for(base["flows"][0], 4, 12, "vegas-min1-ss1")
    assert [f["name"] for f in flows] == ["f0", "f1", "f2", "f3"]
    assert all(f["src"] == "n0" and f["dst"] == "n12" and f["tcp"] == "vegas" for f in flows)
    assert all(f["options"] == {"min_cwnd": 1.0, "min_ssthresh": 1.0} for f in flows)
    assert "options" not in dv.flows_for(base["flows"][0], 1, 7, "few")[0]
    scenario = dv.scenario_for(base, 12, "vegasw", 2)
    assert scenario["topology"]["chain"]["hops"] == 12
    assert base["topology"]["chain"]["hops"] == 7  # the base is not modified


def test_scenario_holds_the_papers_values() -> None:
    base = ternsim.load_scenario(dv.SCENARIO)
    assert base["duration"] == "500s"
    assert base["topology"]["chain"]["hops"] == dv.TABLE1_HOPS
    assert base["wireless"]["data_rate"] == base["wireless"]["basic_rate"] == "2Mbps"
    assert base["routing"]["protocol"] == "dsr"
    assert base["tcp_defaults"]["packet_size"] == "1024B"
    ternsim.validate(dv.SCENARIO)


def test_per_run_sums_flows() -> None:
    runs = pd.DataFrame({
        dv.HOPS_KEY: [7, 7, 7], dv.CASE: ["vegas"] * 3, dv.N_FLOWS: [2, 2, 1],
        "seed": [1, 1, 1], "flow": ["f0", "f1", "f0"],
        "goodput_bps": [30e3, 10e3, 50e3], "throughput_bps": [31e3, 11e3, 52e3],
        "timeouts": [1, 2, 0], "retransmitted_segments": [3, 4, 0], "mean_cwnd": [2.5, 3, 3],
        "error": [None, None, None],
    })  # fmt: skip
    t = dv.per_run(runs).set_index(dv.N_FLOWS)
    assert t.loc[2, "aggregate_kbps"] == pytest.approx(40.0)
    assert t.loc[2, "flow0_kbps"] == pytest.approx(30.0)
    assert t.loc[2, "timeouts"] == 3
    # Jain: (30 + 10)^2 / (2 * (900 + 100)) = 0.8
    assert t.loc[2, "fairness"] == pytest.approx(0.8)
    assert t.loc[1, "fairness"] == pytest.approx(1.0)
    assert np.isclose(t.loc[1, "throughput_kbps"], 52.0)


def test_ding_vegasw_quick(cli, tmp_path: Path, every_run_listed) -> None:
    out = tmp_path / "ding-vegasw"
    proc = cli("reproduce", "ding-vegasw", "--quick", "--seeds", "1", "--out", out, "--quiet",
               timeout=180)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    every_run_listed(out, proc.stderr)
    assert "paper against ternsim" in proc.stdout
    figures = ["fig2_window_distribution.png", "fig4_throughput_vs_hops.png"]
    for name in ["runs.csv", "runs.parquet", "summary.csv", "per_run.csv", "report.md",
                 "claims.csv", *figures]:  # fmt: skip
        assert (out / name).is_file() and (out / name).stat().st_size > 0, name
    runs = pd.read_csv(out / "runs.csv")
    traced = runs[runs["traced_run"].notna()]
    runs = runs[runs["traced_run"].isna()]  # the sweep's own rows
    assert runs["error"].isna().all()
    assert set(runs[dv.HOPS_KEY]) == {dv.TABLE1_HOPS, *dv.QUICK_HOPS, dv.LIMIT_HOPS}
    assert len(traced) and traced[dv.HOPS_KEY].notna().all()
    # Every run has as many flow rows as it has flows, and every flow delivered data, except
    # on the 16-hop chain, whose route (17 addresses) exceeds DSR's 16-address source route.
    counts = runs.groupby([*dv.KEYS, "seed"])["flow"].count().reset_index()
    assert (counts["flow"] == counts[dv.N_FLOWS]).all()
    routed = runs[dv.HOPS_KEY] < dv.LIMIT_HOPS
    assert (runs.loc[routed, "delivered_bytes"] > 0).all()
    assert (runs.loc[~routed, "delivered_bytes"] == 0).all()
    # Physics, not the paper: no 802.11 chain at 2 Mb/s carries more than ~0.5 Mb/s of TCP.
    per_run = pd.read_csv(out / "per_run.csv")
    assert (per_run["aggregate_kbps"] < 600).all()
    claims = pd.read_csv(out / "claims.csv")
    assert {"quantity", "paper", "ternsim", "ci95", "agrees"} <= set(claims.columns)
    # The ns-2.35 column, from the stored ns-2 results (no `ns` needed): a value for what
    # ns-2 runs, "—" and a reason for Vegas-W and the minimum-window Vegas.
    assert {"ns2", "ns2_n", "ns2_agrees", "ns2_vs_ternsim", "ns2_note"} <= set(claims.columns)
    vegasw = claims["quantity"].str.contains("Vegas-W")
    assert (claims.loc[vegasw, "ns2"] == "—").all()
    assert claims.loc[vegasw, "ns2_note"].str.contains("no Vegas-W").all()
    table1 = claims["quantity"].str.startswith("Table I: Vegas aggregate throughput")
    assert (claims.loc[table1, "ns2_n"] >= 5).all()
    report = (out / "report.md").read_text(encoding="utf-8")
    assert (
        "| quantity | paper | ns-2.35 (mean ± 95 % CI, n seeds) | ternsim (mean ± 95 % CI) |"
        in report
    )
    assert "## Where paper and ternsim disagree: what ns-2 shows" in report
    assert "--regenerate-ns2" in report and "ns2_results.json" in report
    html = (out / "report.html").read_text(encoding="utf-8")
    assert "ns-2.35 (mean ± 95 % CI, n seeds)" in html and "paper vs ns-2" in html
