"""End-to-end tests of `ternsim reproduce`: both paper reproductions in --quick mode through the
command line, the files of the report folder, and physical statements a correct UMTS model must
satisfy (not the paper's numbers: those are in the report's side-by-side table)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import ternsim
from ternsim.experiments import costamagna_utra, lo_umts

LO_FIGURES = [
    "fig5a_throughput.png",
    "fig5b_cwnd_5pct.png",
    "fig6a_rtt_5pct.png",
    "fig6b_rtt_hist_5pct.png",
    "fig7a_cwnd_30pct.png",
    "fig7b_spurious_timeout_30pct.png",
]
COSTAMAGNA_FIGURES = ["fig3_sequence.png", "fig4_cwnd.png", "fig5_ack_cdf.png"]
COMMON_FILES = ["runs.csv", "runs.parquet", "summary.csv", "report.md", "report.html", "claims.csv"]


def _reproduce(cli, tmp_path: Path, experiment: str, every_run_listed) -> Path:
    out = tmp_path / experiment
    proc = cli("reproduce", experiment, "--quick", "--out", out, "--quiet", timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "paper against ternsim" in proc.stdout
    every_run_listed(out, proc.stderr)
    return out


def _check_files(out: Path, figures: list[str]) -> None:
    for name in [*COMMON_FILES, *figures]:
        path = out / name
        assert path.is_file() and path.stat().st_size > 0, name
    report = (out / "report.md").read_text(encoding="utf-8")
    for name in figures:
        assert f"]({name})" in report
    assert not list(out.parent.glob(f".{out.name}.tmp-*"))


def test_lo_umts_quick(cli, tmp_path: Path, every_run_listed) -> None:
    out = _reproduce(cli, tmp_path, "lo-umts", every_run_listed)
    _check_files(out, LO_FIGURES)
    runs = pd.read_csv(out / "runs.csv")
    traced = runs[runs["traced_run"].notna()]
    runs = runs[runs["traced_run"].isna()]  # the sweep's own rows
    bler = [c for c in runs.columns if "bler" in c]
    assert bler == [lo_umts.BLER_KEY]
    assert runs["error"].isna().all()
    assert sorted(runs[lo_umts.BLER_KEY].unique()) == lo_umts.TBLER
    # The traced runs behind the figures carry their grid values, read from their scenarios.
    assert len(traced) and set(traced[lo_umts.BLER_KEY]) <= set(lo_umts.TBLER)
    assert set(traced[lo_umts.TCP_KEY]) <= set(runs[lo_umts.TCP_KEY])

    def throughput(tcp: str, value: float) -> float:
        rows = runs[(runs[lo_umts.TCP_KEY] == tcp) & (runs[lo_umts.BLER_KEY] == value)]
        return float(rows["throughput_bps"].mean())

    # Error-free, Reno fills the 384 kb/s downlink (less RLC/PDCP/STATUS overhead).
    assert throughput("reno", 0.0) >= 0.85 * lo_umts.CAPACITY_BPS
    top = max(lo_umts.TBLER)
    assert throughput("vegas", top) < throughput("reno", top)
    # RLC AM without MaxDAT is fully persistent: no TCP segment is ever lost, so Reno never
    # retransmits, and no traced run dropped a packet.
    assert (runs[runs[lo_umts.TCP_KEY] == "reno"]["fast_retransmits"] == 0).all()
    summaries = list((out / "traces").glob("*/summary.json"))
    assert summaries
    for path in summaries:
        drops = json.loads(path.read_text())["packets"]["drops_by_reason"]
        assert sum(v for k, v in drops.items() if k != "none") == 0, (path, drops)
    claims = pd.read_csv(out / "claims.csv")
    assert {"quantity", "paper", "ternsim", "ci95", "agrees"} <= set(claims.columns)


def test_costamagna_quick(cli, tmp_path: Path, every_run_listed) -> None:
    out = _reproduce(cli, tmp_path, "costamagna-utra", every_run_listed)
    _check_files(out, COSTAMAGNA_FIGURES)
    runs = pd.read_csv(out / "runs.csv")
    traced = runs[runs["traced_run"].notna()]
    runs = runs[runs["traced_run"].isna()]  # the sweep's own rows
    assert runs["error"].isna().all()
    delivered = runs.groupby(costamagna_utra.TCP_KEY)["delivered_bytes"].min()
    assert len(traced) and set(traced[costamagna_utra.TCP_KEY]) <= set(costamagna_utra.VARIANTS)
    assert sorted(delivered.index) == sorted(costamagna_utra.VARIANTS)
    assert (delivered > 0).all()
    table1 = pd.read_csv(out / "table1" / "runs.csv")
    assert set(table1[costamagna_utra.RATE_KEY]) == set(costamagna_utra.TABLE1)
    assert (table1["delivered_bytes"] > 0).all()


def test_unknown_experiment_exits_2(cli) -> None:
    proc = cli("reproduce", "no-such-paper")
    assert proc.returncode == 2
    assert "lo-umts" in proc.stderr and "costamagna-utra" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


def test_web_session_scenario_differs_from_bulk_only_in_its_source() -> None:
    bulk = ternsim.load_scenario("costamagna-utra/bulk.toml")
    web = ternsim.load_scenario("costamagna-utra/web_session.toml")
    for doc in (bulk, web):
        doc.pop("name")
        doc.pop("description")
        doc["flows"][0].pop("name")
    assert web["flows"][0].pop("app") == {"kind": "trace", "file": "web_session.txt"}
    assert web == bulk
    ternsim.validate("costamagna-utra/web_session.toml")


@pytest.mark.parametrize("path", ["lo-umts/reno.toml", "costamagna-utra/bulk.toml"])
def test_paper_scenarios_validate(path: str) -> None:
    ternsim.validate(path)


def test_rtt_level_spacing_ignores_a_missing_level() -> None:
    # Levels 120, 140, 180, 200, 220 ms (160 empty): gaps 20, 40, 20, 20 -> 20 ms.
    rtt = np.repeat([0.120, 0.140, 0.180, 0.200, 0.220], 100)
    assert lo_umts.rtt_level_spacing(rtt) == pytest.approx(0.02)


def test_rtt_level_spacing_finds_a_20ms_comb() -> None:
    levels = 0.12 + 0.02 * (pd.Series(range(2000)) % 7).to_numpy()
    assert lo_umts.rtt_level_spacing(levels) == pytest.approx(0.02)
