"""The ns-2.35 column of the reproductions (ternsim.experiments.ns2 and the report pieces):
the three-column table, its footnotes and verdicts on hand-made claims, the stored results of
ding-vegasw and their metadata (no `ns` needed), and regenerating a small part of them with
`ns` where it is installed."""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

import pandas as pd
import pytest

from ternsim.experiments import ding_vegasw as dv
from ternsim.experiments import ns2
from ternsim.experiments import report as rep
from ternsim.paths import SCENARIOS

NS = shutil.which("ns")
needs_ns = pytest.mark.skipif(
    NS is None, reason="ns-2 (`ns`) is not installed (apt-get install ns2)"
)


def _claims() -> list[rep.Claim]:
    C = rep.Claim
    return [
        # Paper and ternsim agree; ns-2 too.
        C("a", "100", [100.0, 102.0, 98.0], fmt=".1f", paper_value=100, tolerance=10,
          ns2=[99.0, 101.0, 100.0]),
        # Paper and ternsim disagree, ns-2 meets the paper: ternsim is off.
        C("b", "> 0", [0.0, 0.0], check=lambda m: m > 0, ns2=[5.0, 6.0, 7.0]),
        # Paper and ternsim disagree, ns-2 agrees with ternsim.
        C("c", "> 0", [0.0, 0.0], check=lambda m: m > 0, ns2=[0.0, 0.0]),
        # ns-2 cannot run it.
        C("d", "1.5", [1.0, 1.1], paper_value=1.5, tolerance=0.1, ns2_missing="no Vegas-W"),
        C("e", "1.5", [1.0, 1.1], paper_value=1.5, tolerance=0.1, ns2_missing="no Vegas-W"),
    ]  # fmt: skip


def test_claims_frame_has_the_ns2_columns() -> None:
    frame = rep.claims_frame(_claims())
    assert {"ns2", "ns2_mean", "ns2_ci95", "ns2_n", "ns2_agrees", "ns2_vs_ternsim",
            "ns2_note"} <= set(frame.columns)  # fmt: skip
    rows = frame.set_index("quantity")
    assert rows.loc["a", "ns2"].startswith("100.0 ± ") and rows.loc["a", "ns2"].endswith("(n = 3)")
    assert rows.loc["a", ["agrees", "ns2_agrees", "ns2_vs_ternsim"]].tolist() == [
        "yes", "yes", "agrees"]  # fmt: skip
    assert rows.loc["b", ["agrees", "ns2_agrees", "ns2_vs_ternsim"]].tolist() == [
        "NO", "yes", "differs"]  # fmt: skip
    assert rows.loc["c", ["agrees", "ns2_agrees", "ns2_vs_ternsim"]].tolist() == [
        "NO", "NO", "agrees"]  # fmt: skip
    assert rows.loc["d", "ns2"] == "—" and rows.loc["d", "ns2_note"] == "no Vegas-W"
    assert rows.loc["d", "ns2_agrees"] == "" and rows.loc["d", "ns2_n"] == 0
    # Without any ns-2 value the table keeps its old columns.
    plain = rep.claims_frame([rep.Claim("x", "1", [1.0])])
    assert "ns2" not in plain.columns


def test_markdown_three_columns_footnotes_and_findings() -> None:
    text = rep.render_markdown("T", "intro", _claims(), "summary", [], ns2_facts="facts")
    header = next(line for line in text.splitlines() if line.startswith("| quantity"))
    cells = [c.strip() for c in header.strip("|").split("|")]
    assert cells[:4] == ["quantity", "paper", "ns-2.35 (mean ± 95 % CI, n seeds)",
                         "ternsim (mean ± 95 % CI)"]  # fmt: skip
    assert {"paper vs ternsim", "paper vs ns-2", "ns-2 vs ternsim"} <= set(cells)
    # Both claims ns-2 cannot run point at one footnote.
    assert text.count("| —¹ |") == 2 and "¹ no Vegas-W" in text
    findings = text.split("## Where paper and ternsim disagree: what ns-2 shows")[1]
    assert "**b**" in findings and "ternsim is off" in findings
    assert "**c**" in findings and "does not give the paper's value either" in findings
    assert "**d**" in findings and "ns-2 cannot run it (no Vegas-W)" in findings
    assert "**a**" not in findings


def test_verdict_rule() -> None:
    assert ns2.verdict([100.0, 101.0, 99.0], [104.0, 104.5, 103.5]) == "agrees"  # within 5 %
    assert ns2.verdict([100.0, 101.0, 99.0], [120.0, 121.0, 119.0]) == "differs"
    assert ns2.verdict([0.0, 0.0], [0.0, 0.0]) == "agrees"
    assert ns2.verdict([], [1.0]) == ""
    # Wide intervals that hold each other's mean agree.
    assert ns2.verdict([50.0, 150.0, 100.0], [60.0, 160.0, 110.0]) == "agrees"


# --- the stored results of ding-vegasw --------------------------------------------------------


def test_ding_vegasw_stored_results_and_metadata() -> None:
    stored = ns2.load(dv)
    assert stored is not None, "scenarios/ding-vegasw/ns2_results.{csv,json} are missing"
    meta = stored.meta
    script = SCENARIOS / dv.NS2_SCRIPT
    assert meta["script"] == dv.NS2_SCRIPT and script.is_file()
    # The results were made with the script as shipped.
    assert meta["script_sha256"] == hashlib.sha256(script.read_bytes()).hexdigest()
    assert meta["ns_version"] == "ns-2 2.35"
    assert meta["date"] and meta["command"].startswith("ternsim reproduce ding-vegasw")
    assert "--regenerate-ns2" in meta["command"]
    # Every configuration is stored with the seeds its metadata names, one row per flow.
    runs = stored.runs
    configs = dv.ns2_configs(10)
    assert [c["key"] for c in meta["configurations"]] == [c.values for c in configs]
    for c, m in zip(configs, meta["configurations"]):
        rows = ns2.rows_for(stored, c.values)
        assert sorted(rows["seed"].unique()) == m["seeds"], c.values
        assert len(rows) == len(m["seeds"]) * c.values[dv.N_FLOWS], c.values
        assert m["ns"].startswith("ns chain.tcl ") and "{seed}" in m["ns"]
        assert len(m["seeds"]) >= 5
    # ns-2 finds no DSR route on the 16-hop chain either: nothing acknowledged.
    limit = ns2.rows_for(stored, {dv.HOPS_KEY: dv.LIMIT_HOPS})
    assert len(limit) and (limit["acked"] == -1).all() and (limit["goodput_kbps"] == 0).all()
    per_run = dv.ns2_table(stored)
    assert (per_run.loc[per_run[dv.HOPS_KEY] < dv.LIMIT_HOPS, "aggregate_kbps"] > 0).all()
    # Physics, not the paper: no 802.11 chain at 2 Mb/s carries more than ~0.5 Mb/s of TCP.
    assert (per_run["aggregate_kbps"] < 600).all() and len(runs) > len(per_run)
    # Fig. 2's window distributions (flow 0 of the 7-hop Vegas runs) each sum to one.
    dists = dv.ns2_dists(stored)
    assert {(case, n) for case, n, _ in dists} == {("vegas", n) for n in dv.FLOW_COUNTS}
    assert all(abs(d.sum() - 1) < 1e-6 for d in dists.values())


def test_ding_vegasw_claims_get_ns2_values_or_a_reason() -> None:
    stored = ns2.load(dv)
    assert stored is not None
    table = dv.ns2_table(stored)
    claims = dv._claims(table, dv.ns2_dists(stored), dv.FULL_HOPS, dv.MAX_W)
    dv.attach_ns2(claims, stored, dv.FULL_HOPS)
    by_name = {c.quantity: c for c in claims}
    # What ns-2.35 can run gets ns-2's per-seed values ...
    for c in claims:
        if "Vegas-W" in c.quantity or "min window" in c.quantity.lower():
            assert c.ns2 is None and c.ns2_missing, c.quantity
        else:
            assert c.ns2, c.quantity
    assert by_name["Fig. 4: Vegas / FeW, 1 flow, mean over hops"].ns2
    # ... and the 16-hop claim is where ns-2 shows the paper is off: no route, no goodput.
    limit = next(c for c in claims if f"{dv.LIMIT_HOPS} hops" in c.quantity)
    assert limit.ns2_stats[0] == 0 and limit.ns2_verdict() == "NO"


@needs_ns
def test_regenerating_a_small_part_gives_the_stored_rows(tmp_path: Path) -> None:
    """ns-2 is deterministic for a seed: running two stored configurations again (seed 1)
    gives the stored rows exactly."""
    stored = ns2.load(dv)
    assert stored is not None
    wanted = [
        {dv.HOPS_KEY: dv.LIMIT_HOPS, dv.CASE: "vegas", dv.N_FLOWS: 1},
        {dv.HOPS_KEY: dv.TABLE1_HOPS, dv.CASE: "vegas", dv.N_FLOWS: 8},
    ]

    def only(c: ns2.NsConfig) -> bool:
        return any(all(c.values[k] == v for k, v in w.items()) for w in wanted)

    fresh = ns2.regenerate(dv, seeds=1, only=only, folder=tmp_path, jobs=2)
    assert (tmp_path / ns2.RESULTS_CSV).is_file() and (tmp_path / ns2.RESULTS_META).is_file()
    assert fresh.meta["ns_version"].startswith("ns-2 ")
    assert [c["seeds"] for c in fresh.meta["configurations"]] == [[1], [1]]
    for w in wanted:
        got = ns2.rows_for(fresh, w).reset_index(drop=True)
        want = ns2.rows_for(stored, {**w, "seed": 1}).reset_index(drop=True)
        pd.testing.assert_frame_equal(got[want.columns], want, check_dtype=False, rtol=1e-6)


def test_regenerate_without_ns_says_how_to_install(cli, tmp_path: Path, monkeypatch) -> None:
    empty = tmp_path / "bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    proc = cli("reproduce", "ding-vegasw", "--quick", "--regenerate-ns2", "--out",
               tmp_path / "out", "--quiet")  # fmt: skip
    assert proc.returncode == 2
    assert "apt-get install ns2" in proc.stderr
    assert not (tmp_path / "out").exists()


def test_regenerate_refuses_an_experiment_without_ns2(cli, tmp_path: Path) -> None:
    proc = cli("reproduce", "lo-umts", "--quick", "--regenerate-ns2", "--out", tmp_path / "o")
    assert proc.returncode == 2
    assert "no ns-2 column" in proc.stderr and "EURANE" in proc.stderr


def test_ns_binary_missing(monkeypatch) -> None:
    monkeypatch.setenv("PATH", os.devnull)
    with pytest.raises(ns2.NsMissing, match="apt-get install ns2"):
        ns2.ns_binary()


# --- arunakumari-manet -------------------------------------------------------------------------


def test_arunakumari_trace_metrics_hand_worked() -> None:
    from ternsim.experiments import arunakumari_manet as am

    trace = [
        # Two data packets sent (ids 0 and 5), the second one delivered 0.25 s later; one
        # retransmission (id 9) delivered 0.05 s later; ACKs and routing-layer copies of data
        # packets do not count.
        "s 1.000000000 _1_ AGT  --- 0 tcp 512 [0 0 0 0] ------- [1:0 2:0 32 0] [0 0] 0 0",
        "r 1.000000000 _1_ RTR  --- 0 tcp 512 [0 0 0 0] ------- [1:0 2:0 32 0] [0 0] 0 0",
        "s 2.000000000 _1_ AGT  --- 5 tcp 512 [0 0 0 0] ------- [1:0 2:0 32 0] [1 0] 0 0",
        "r 2.250000000 _2_ AGT  --- 5 tcp 532 [13a 2 1 800] ------- [1:0 2:0 31 2] [1 0] 1 0",
        "s 2.250000000 _2_ AGT  --- 6 ack 40 [0 0 0 0] ------- [2:0 1:0 32 0] [1 0] 0 0",
        "r 2.300000000 _1_ AGT  --- 6 ack 60 [13a 1 2 800] ------- [2:0 1:0 31 1] [1 0] 1 0",
        "s 3.000000000 _1_ AGT  --- 9 tcp 512 [0 0 0 0] ------- [1:0 2:0 32 0] [0 0] 0 0",
        "r 3.050000000 _2_ AGT  --- 9 tcp 532 [13a 2 1 800] ------- [1:0 2:0 31 2] [0 0] 1 0",
        # Routing: one request sent, forwarded twice (three transmissions), one received.
        "s 0.900000000 _1_ RTR  --- 1 AODV 48 [0 0 0 0] ------- [1:255 -1:255 30 0] (REQUEST)",
        "f 0.910000000 _3_ RTR  --- 1 AODV 48 [0 0 0 0] ------- [1:255 -1:255 29 0] (REQUEST)",
        "f 0.920000000 _4_ RTR  --- 1 AODV 48 [0 0 0 0] ------- [1:255 -1:255 28 0] (REQUEST)",
        "r 0.930000000 _2_ RTR  --- 1 AODV 48 [0 0 0 0] ------- [1:255 -1:255 28 0] (REQUEST)",
        "M 0.0 0 (5.00, 2.00, 0.00), (20.00, 18.00), 1.00",
    ]
    m = am.ns2_trace_metrics(trace)
    assert (m["data_sent"], m["data_received"], m["routing_transmissions"]) == (3, 2, 3)
    assert m["pdr"] == pytest.approx(2 / 3) and m["loss_rate"] == pytest.approx(1 / 3)
    assert m["delay_s"] == pytest.approx((0.25 + 0.05) / 2)
    assert m["nro"] == pytest.approx(1.5)


def test_arunakumari_ns2_configs_cover_every_table_point() -> None:
    from ternsim.experiments import arunakumari_manet as am

    configs = am.ns2_configs(10)
    points = {(c.values[am.PAUSE_KEY], c.values[am.SPEED_KEY], c.values[am.RATE_KEY])
              for c in configs}  # fmt: skip
    # 7 pause times + 3 more speeds + 3 more rates (pause 100 s, 10 m/s, 1 Mb/s is shared).
    assert len(points) == 13 and len(configs) == 39
    assert all(c.seeds == am.NS2_MAX_SEEDS for c in configs)
    assert (100.0, 10.0, 5.5) in points and (0.0, 10.0, 1.0) in points
    vegas = next(c for c in configs if c.values[am.TCP_KEY] == "sack")
    assert vegas.args[:2] == ("Sack1", "TCPSink/Sack1")


def test_arunakumari_stored_results_and_metadata() -> None:
    from ternsim.experiments import arunakumari_manet as am

    stored = ns2.load(am)
    assert stored is not None, "scenarios/arunakumari-manet/ns2_results.{csv,json} are missing"
    script = SCENARIOS / am.NS2_SCRIPT
    assert stored.meta["script_sha256"] == hashlib.sha256(script.read_bytes()).hexdigest()
    assert stored.meta["ns_version"] == "ns-2 2.35" and stored.meta["date"]
    assert "ternsim setdest" in stored.meta["inputs"] and "cbrgen" in stored.meta["inputs"]
    configs = am.ns2_configs(10)
    assert [c["key"] for c in stored.meta["configurations"]] == [c.values for c in configs]
    for c, m in zip(configs, stored.meta["configurations"]):
        rows = ns2.rows_for(stored, c.values)
        assert sorted(rows["seed"]) == m["seeds"] and len(m["seeds"]) >= 3, c.values
    assert ((stored.runs["pdr"] > 0.5) & (stored.runs["pdr"] <= 1)).all()
    # Every table claim gets ns-2's values; the figure claims say why they have none.
    table = am.ns2_per_run(stored, am.FULL_SWEEPS)
    claims = am.table_claims(table, am.FULL_SWEEPS) + am.ordering_claims(table)
    am.attach_ns2(claims, stored, am.FULL_SWEEPS)
    assert all(c.ns2 and c.ns2_judged is not None for c in claims)


# --- ho-mobileip ---------------------------------------------------------------------------


class _NoTrace:
    """A traced run with empty traces: the claims' quantities without running anything."""

    summary = {"flows": [{"timeouts": 0}]}

    def trace(self, name: str) -> pd.DataFrame:
        return pd.DataFrame({"time_s": [], "rtt_s": [], "ack": []})


def test_ho_mobileip_stored_results_and_metadata() -> None:
    from ternsim.experiments import ho_mobileip as ho

    stored = ns2.load(ho)
    assert stored is not None, "scenarios/ho-mobileip/ns2_results.{csv,json} are missing"
    meta = stored.meta
    script = SCENARIOS / ho.NS2_SCRIPT
    assert meta["script"] == ho.NS2_SCRIPT and script.is_file()
    assert meta["script_sha256"] == hashlib.sha256(script.read_bytes()).hexdigest()
    assert meta["ns_version"] == "ns-2 2.35" and meta["date"]
    assert meta["command"].startswith("ternsim reproduce ho-mobileip --regenerate-ns2")
    configs = ho.ns2_configs(10)
    assert [c["key"] for c in meta["configurations"]] == [c.values for c in configs]
    (m,) = meta["configurations"]
    assert m["ns"] == "ns vegas_fig3.tcl {seed} 3 3 1 120" and len(m["seeds"]) >= 6
    runs = ns2.rows_for(stored, configs[0].values)
    assert sorted(runs["seed"]) == m["seeds"]
    # Physics: ns-2.35's base RTTs over 802.11 are the hand-worked ones of mobileip_wifi.toml
    # (29.168, 38.432, 34.432 ms, 60-byte ACKs in both) plus ns-2's 58-byte MAC header
    # (0.096 ms) less at most a DIFS, plus at most two backoffs (1.24 ms); the paths keep
    # their order.
    for col, base in (("rtt_home_ms", 29.168), ("rtt_fa1_ms", 38.432), ("rtt_fa2_ms", 34.432)):
        assert ((runs[col] > base + 0.096 - 0.05) & (runs[col] < base + 0.1 + 1.24)).all(), col
    # No more than the 1 Mb/s channel carries; settled in a foreign network, Vegas carries
    # less than at home, and the handoff's outage (ns-2's late registration) costs more.
    assert (runs["kbps_home"] < 800).all() and (runs["kbps_home"] > 650).all()
    for net in ("fa1", "fa2"):
        assert (runs[f"kbps_{net}_settled"] < runs["kbps_home"]).all()
        assert (runs[f"kbps_{net}"] <= runs[f"kbps_{net}_settled"] + 1).all()


def test_ho_mobileip_claims_get_ns2_values_or_a_reason() -> None:
    from ternsim.experiments import ho_mobileip as ho

    stored = ns2.load(ho)
    assert stored is not None
    traced = {(fig, tcp, 1): _NoTrace() for fig in ho.FIGURES for tcp in ho.VARIANTS}
    claims = ho._claims(traced)
    ho.attach_ns2(claims, stored)
    with_ns2 = [c for c in claims if c.ns2 is not None]
    # Fig. 3's Vegas claims over 802.11 get ns-2's per-seed values, and the paper's
    # criterion holds for ns-2 on each of them ...
    assert {c.quantity for c in with_ns2} == {
        "BaseRTT at home, Fig. 3 over 802.11 (ms)",
        "RTT in FA1's network, Fig. 3 over 802.11 (ms)",
        "RTT in FA2's network, Fig. 3 over 802.11 (ms)",
        "Vegas throughput in FA1's network / at home, Fig. 3 over 802.11",
        "Vegas throughput in FA2's network / at home, Fig. 3 over 802.11",
    }
    n_seeds = len(stored.runs)
    for c in with_ns2:
        assert len(c.ns2) == n_seeds and c.ns2_verdict() == "yes", c.quantity
    # ... and every other claim says why ns-2.35 cannot run it.
    why = {c.quantity: c.ns2_missing for c in claims if c.ns2 is None}
    assert all(why.values()) and len(why) == len(claims) - len(with_ns2)
    assert all("Demo-Vegas" in w for q, w in why.items() if q.startswith("Demo-Vegas"))
    assert "reverse tunnelling" in why["RTT in the foreign network, reverse tunnel, Fig. 5 (ms)"]
    assert "reverse tunnelling" in why[
        "Vegas throughput, forward tunnel / reverse tunnel, FA1 26-72 s"]  # fmt: skip
    assert "fixed 8 ms last hop" in why["BaseRTT at home, Fig. 3 (ms)"]
    # The report shows the three columns with footnotes.
    text = rep.render_markdown("T", "intro", claims, "summary", [], ns2_facts="facts")
    assert "| ns-2.35 (mean ± 95 % CI, n seeds) |" in text and "¹ " in text


@needs_ns
def test_ho_mobileip_regenerating_one_seed_gives_the_stored_row(tmp_path: Path) -> None:
    """`ns` on vegas_fig3.tcl is deterministic for a seed: seed 1 again gives the stored row."""
    from ternsim.experiments import ho_mobileip as ho

    stored = ns2.load(ho)
    assert stored is not None
    fresh = ns2.regenerate(ho, seeds=1, folder=tmp_path, jobs=1)
    assert [c["seeds"] for c in fresh.meta["configurations"]] == [[1]]
    assert fresh.meta["script_sha256"] == stored.meta["script_sha256"]
    got = fresh.runs.reset_index(drop=True)
    want = stored.runs[stored.runs["seed"] == 1].reset_index(drop=True)
    pd.testing.assert_frame_equal(got[want.columns], want, check_dtype=False, rtol=1e-6)
