"""The ho-mobileip reproduction: each figure's scenario, the throughput series, and a quick
run whose RTT claims are the hand-worked base RTTs."""

from __future__ import annotations

import pandas as pd
import pytest

from ternsim.api import load_scenario
from ternsim.experiments import ho_mobileip as ho


def test_each_figure_changes_only_its_delays_walk_tunnel_and_optimization():
    base = load_scenario(ho.SCENARIO)
    s = ho.scenario_for(base, "fig6", "demo_vegas", 120.0)
    assert [link["delay"] for link in s["links"][1:4]] == ["1ms", "3ms", "1ms"]
    assert s["mobile_ip"]["route_optimization"] is True
    assert s["mobile_ip"]["correspondents"] == ["CN"]
    assert s["flows"][0]["tcp"] == "demo_vegas"
    assert s["duration"] == "85s"
    mn = next(n for n in s["nodes"] if n["name"] == "MN")
    assert mn["moves"] == ho.WALK_SHORT
    s5 = ho.scenario_for(base, "fig5", "vegas", 120.0)
    assert s5["mobile_ip"]["mobiles"][0]["reverse_tunnel"] is True
    assert s5["mobile_ip"]["route_optimization"] is False
    # The shipped file itself is Fig. 3's.
    assert base["links"][3]["delay"] == "1ms"
    assert base["mobile_ip"]["mobiles"][0]["reverse_tunnel"] is False


def test_the_80211_figure_is_fig3_on_the_wireless_scenario():
    base = load_scenario(ho.SCENARIO_WIFI)
    s = ho.scenario_for(base, "fig3_wifi", "demo_vegas", 120.0)
    assert s["wireless"]["rx_range"] == "75m"
    # Only the four wired links: the last hop is the channel.
    assert [(link["a"], link["b"]) for link in s["links"]] == [
        ("CN", "R"), ("R", "HA"), ("R", "FA1"), ("R", "FA2")
    ]  # fmt: skip
    assert [link["delay"] for link in s["links"][1:4]] == ["3ms", "3ms", "1ms"]
    mn = next(n for n in s["nodes"] if n["name"] == "MN")
    assert mn["moves"] == ho.WALK_LONG
    assert s["duration"] == "120s"
    assert s["flows"][0]["tcp"] == "demo_vegas"
    # Every figure has its 802.11 twin, changing what the figure changes on that scenario.
    assert {f"fig{k}_wifi" for k in range(3, 8)} <= set(ho.FIGURES)
    s5 = ho.scenario_for(base, "fig5_wifi", "vegas", 120.0)
    assert s5["wireless"]["rx_range"] == "75m"
    assert s5["mobile_ip"]["mobiles"][0]["reverse_tunnel"] is True
    assert [link["delay"] for link in s5["links"][1:4]] == ["3ms", "1ms", "1ms"]
    assert s5["duration"] == "85s"
    s7 = ho.scenario_for(base, "fig7_wifi", "vegas", 120.0)
    assert s7["mobile_ip"]["route_optimization"] is True
    assert s7["mobile_ip"]["correspondents"] == ["CN"]


def test_throughput_is_the_cumulative_ack_advance_times_the_packet_size():
    # ACKs 0..124 in the first second, 125..249 in the second: 125 packets of 1000 B per
    # second = 1000 kb/s; nothing in the third.
    acks = pd.DataFrame({"time_s": [0.5, 0.99, 1.5, 1.99], "ack": [10, 124, 200, 249]})
    s = ho.throughput_series(acks, 3.0)
    assert list(s["kbps"]) == pytest.approx([1000.0, 1000.0, 0.0])
    assert ho.mean_kbps(acks, 1.0, 2.0) == pytest.approx(1000.0)


@pytest.mark.slow
def test_quick_reproduction_measures_the_hand_worked_base_rtts(cli, tmp_path, every_run_listed):
    """The quick reproduction through the command line. It makes only traced single runs:
    its runs.csv lists them, its last line counts them and names no cache (traced runs are
    never cached). Its claims carry the hand-worked base RTTs."""
    out = tmp_path / "r"
    proc = cli("reproduce", "ho-mobileip", "--quick", "--quiet", "--out", out)
    assert proc.returncode == 0, proc.stderr
    every_run_listed(out, proc.stderr)
    assert "0 in sweeps" in " ".join(proc.stderr.split())
    claims = pd.read_csv(out / "claims.csv").set_index("quantity")
    mean = claims["mean"]
    assert mean["BaseRTT at home, Fig. 3 (ms)"] == pytest.approx(35.328, abs=1e-6)
    assert mean["RTT in FA1's network, Fig. 3 (ms)"] == pytest.approx(44.592, abs=1e-6)
    assert mean["RTT in FA2's network, Fig. 3 (ms)"] == pytest.approx(40.592, abs=1e-6)
    fwd = mean["RTT in the foreign network, forward tunnel, Fig. 4 (ms)"]
    rev = mean["RTT in the foreign network, reverse tunnel, Fig. 5 (ms)"]
    assert (fwd, rev) == (pytest.approx(40.592, abs=1e-6), pytest.approx(46.784, abs=1e-6))
    assert (out / "fig3_throughput.png").exists()
    # Over 802.11 with a window of 20: the hand-worked 29.168 ms, less at most one DIFS
    # (50 µs: a segment meeting the agent's post-transmission backoff), plus at most two
    # backoffs of 31 slots of 20 µs.
    wifi = mean["BaseRTT at home, Fig. 3 over 802.11 (ms)"]
    assert 29.168 - 0.050 - 1e-6 <= wifi <= 29.168 + 62 * 0.020
    for k in range(3, 8):
        assert (out / f"fig{k}_wifi_throughput.png").exists()
    # The 802.11 twins are measured against their own figure's claim and labelled so.
    claim = claims.loc["Demo-Vegas / Vegas throughput, fig5_wifi, FA1 26-72 s"]
    assert claim["paper"].startswith("not in the paper: its Fig. 5 claim")
    assert claim["criterion"] == "95 % CI above 1"
