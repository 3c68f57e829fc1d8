"""Model checks against numbers from outside the project.

- Villamizar and Song (1994): a loss-based TCP flow whose bottleneck buffer is at least the
  bandwidth-delay product keeps the link busy.
- Padhye, Firoiu, Towsley and Kurose (1998), eq. (31): steady-state TCP throughput under
  random loss, B(p) = 1 / (RTT sqrt(2bp/3) + T0 min(1, 3 sqrt(3bp/8)) p (1 + 32 p^2)).
- Brakmo and Peterson (1995): Vegas keeps between alpha and beta packets queued at the
  bottleneck; Mo, La, Anantharam and Walrand (1999) and Boutremans and Le Boudec (2000):
  equal-RTT Vegas flows share fairly when alpha = beta, and within beta/alpha otherwise.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import ternsim


def chain(
    *,
    tcp: str | list[str],
    rate: str,
    delay: str,
    queue: int,
    duration: str,
    loss: float | None = None,
    window: int = 1000,
    access_delay: str = "1ms",
    traces: dict | None = None,
) -> dict:
    """Senders -> router -> (bottleneck) -> sink; one flow per entry of `tcp`."""
    variants = [tcp] if isinstance(tcp, str) else tcp
    nodes = [{"name": f"s{i}"} for i in range(len(variants))]
    nodes += [{"name": "router", "kind": "router"}, {"name": "sink"}]
    links = [
        {"a": f"s{i}", "b": "router", "rate": "1Gbps", "delay": access_delay, "queue": 1000}
        for i in range(len(variants))
    ]
    bottleneck = {
        "name": "bottleneck",
        "a": "router",
        "b": "sink",
        "rate": rate,
        "delay": delay,
        "queue": queue,
    }
    if loss is not None:
        bottleneck["error_a_to_b"] = {"model": "iid", "rate": loss}
    links.append(bottleneck)
    flows = [
        {"name": f"f{i}", "src": f"s{i}", "dst": "sink", "tcp": v} for i, v in enumerate(variants)
    ]
    return {
        "name": "model-check",
        "duration": duration,
        "tcp_defaults": {"window": window},
        "nodes": nodes,
        "links": links,
        "flows": flows,
        "traces": traces or {},
    }


def bottleneck_forward(result) -> dict:
    return next(
        link
        for link in result.summary["links"]
        if link["name"] == "bottleneck" and link["direction"] == "a_to_b"
    )


@pytest.mark.parametrize("tcp", ["reno", "newreno"])
def test_buffer_of_one_bdp_keeps_the_bottleneck_busy(tcp):
    # 10 Mb/s, RTT ~ 2 x 21 ms: BDP = 10e6 * 0.042 / 8 / 1040 B ~ 50 packets; buffer 60.
    sc = chain(tcp=tcp, rate="10Mbps", delay="20ms", queue=60, duration="60s")
    result = ternsim.run(sc, seed=1)
    utilization = bottleneck_forward(result)["utilization"]
    assert utilization >= 0.95, f"{tcp}: bottleneck {utilization:.3f} busy"
    assert result.summary["packets"]["balanced"]


def padhye_packets_per_second(p: float, rtt: float, t0: float, b: int = 1) -> float:
    """PFTK eq. (31) without the window limit, in packets per second."""
    return 1.0 / (
        rtt * math.sqrt(2 * b * p / 3)
        + t0 * min(1.0, 3 * math.sqrt(3 * b * p / 8)) * p * (1 + 32 * p * p)
    )


LOSS_RATES = [0.001, 0.002, 0.005, 0.01, 0.02, 0.05]


def newreno_loss_table(seeds: int = 3) -> list[dict]:
    rows = []
    for p in LOSS_RATES:
        sc = chain(
            tcp="newreno",
            rate="100Mbps",
            delay="50ms",
            queue=10000,
            duration="200s",
            loss=p,
            traces={"rto": True},
        )
        measured, rtts, t0s = [], [], []
        for seed in range(1, seeds + 1):
            r = ternsim.run(sc, seed=seed)
            flow = r.summary["flows"][0]
            measured.append(flow["goodput_bps"] / 8 / 1000)  # payload packets per second
            rtts.append(flow["rtt_mean_s"])
            rto = r.trace("rto")
            t0s.append(float(rto["rto_s"].mean()))
        rtt, t0 = float(np.mean(rtts)), float(np.mean(t0s))
        model = padhye_packets_per_second(p, rtt, t0)
        rows.append(
            {
                "p": p,
                "rtt_s": rtt,
                "t0_s": t0,
                "measured_pps": float(np.mean(measured)),
                "padhye_pps": model,
                "mathis_pps": math.sqrt(1.5) / (rtt * math.sqrt(p)),
                "ratio": float(np.mean(measured)) / model,
            }
        )
    return rows


def test_newreno_under_random_loss_follows_the_padhye_model():
    rows = newreno_loss_table()
    print()
    print("     p   rtt_s   t0_s  measured  padhye  mathis  measured/padhye")
    for r in rows:
        print(
            f"{r['p']:6.3f} {r['rtt_s']:7.4f} {r['t0_s']:6.3f} {r['measured_pps']:9.1f} "
            f"{r['padhye_pps']:7.1f} {r['mathis_pps']:7.1f} {r['ratio']:8.2f}"
        )
    for r in rows:
        assert 0.7 <= r["ratio"] <= 1.5, r


def time_average_queue(queues, start: float, end: float) -> float:
    """Time average over [start, end] of a step function sampled at each change."""
    t = queues["time_s"].to_numpy()
    n = queues["queue_len"].to_numpy()
    keep = (t >= start) & (t <= end)
    # The value before `start` holds until the first change after it.
    before = n[t < start][-1] if (t < start).any() else 0
    t = np.concatenate([[start], t[keep], [end]])
    n = np.concatenate([[before], n[keep]])
    return float(np.sum(n * np.diff(t)) / (end - start))


def test_a_single_vegas_flow_keeps_alpha_to_beta_packets_queued():
    sc = chain(
        tcp="vegas",
        rate="2Mbps",
        delay="20ms",
        queue=100,
        duration="60s",
        window=200,
        traces={"queues": True},
    )
    result = ternsim.run(sc, seed=1)
    queues = result.trace("queues")
    forward = queues[(queues["link"] == "bottleneck") & (queues["direction"] == "a_to_b")]
    mean_queue = time_average_queue(forward, 20.0, 60.0)
    assert 1.0 <= mean_queue <= 3.0, f"mean bottleneck queue {mean_queue:.2f} packets"
    assert bottleneck_forward(result)["drops_queue"] == 0


def two_vegas(alpha: float, beta: float) -> np.ndarray:
    sc = chain(tcp=["vegas", "vegas"], rate="2Mbps", delay="20ms", queue=100, duration="120s")
    sc["tcp_defaults"].update({"vegas_alpha": alpha, "vegas_beta": beta})
    result = ternsim.run(sc, seed=1)
    return np.array([f["goodput_bps"] for f in result.summary["flows"]])


def jain(x: np.ndarray) -> float:
    return float(x.sum() ** 2 / (len(x) * (x**2).sum()))


def test_two_vegas_flows_with_equal_rtts_and_alpha_equal_beta_share_fairly():
    # With alpha = beta each flow settles at exactly alpha packets of backlog, and with equal
    # RTTs equal backlogs mean equal rates (Mo et al. 1999; Boutremans and Le Boudec 2000).
    x = two_vegas(2.0, 2.0)
    assert jain(x) >= 0.99, f"goodputs {x}, Jain index {jain(x):.3f}"
    # ns-2 Vegas packets carry no header, so goodput can approach the 2 Mb/s link rate.
    assert x.sum() >= 0.9 * 2e6, f"goodputs {x}"


def test_two_vegas_flows_with_default_alpha_beta_stay_within_beta_over_alpha():
    # With alpha < beta any backlog in [alpha, beta] is an equilibrium, so equal-RTT flows
    # can settle at rates up to beta/alpha = 3 apart (Boutremans and Le Boudec 2000), but no
    # further: the slower flow still holds at least alpha packets.
    x = two_vegas(1.0, 3.0)
    assert x.max() / x.min() <= 3.0, f"goodputs {x}"
    assert x.sum() >= 0.9 * 2e6, f"goodputs {x}"


def test_same_seed_gives_identical_output():
    sc = chain(
        tcp=["newreno", "sack"],
        rate="5Mbps",
        delay="10ms",
        queue=20,
        duration="10s",
        loss=0.01,
        traces={"cwnd": True, "rtt": True, "segments": True, "drops": True},
    )
    a = ternsim.run(sc, seed=7)
    b = ternsim.run(sc, seed=7)
    sa, sb = dict(a.summary), dict(b.summary)
    sa.pop("wall_seconds")
    sb.pop("wall_seconds")
    assert sa == sb
    for name in ("cwnd", "rtt", "segments", "drops"):
        assert a.trace(name).equals(b.trace(name)), name
    c = ternsim.run(sc, seed=8)
    assert c.summary["flows"] != a.summary["flows"]


def test_a_umts_run_is_deterministic_too():
    overrides = {"duration": "20s", "bearers.0.bler": 0.1, "traces.rlc": True}
    a = ternsim.run("examples/umts_dch.toml", seed=3, overrides=overrides)
    b = ternsim.run("examples/umts_dch.toml", seed=3, overrides=overrides)
    sa, sb = dict(a.summary), dict(b.summary)
    sa.pop("wall_seconds")
    sb.pop("wall_seconds")
    assert sa == sb
    assert a.trace("rlc").equals(b.trace("rlc"))
    assert a.summary["packets"]["balanced"]
