"""ns-2.35 scripts run by ``ns`` and by ``ternsim ns2``: same stdout, exit status and trace.

Each script runs twice in its own folder, once under ``ns`` and once under ``ternsim ns2``.
Trace lines are compared per packet event (event, link, uid): the front end's numbering (agent
ports per node, ``fid_``, uids from 0) must make every field but the time and the flags equal.

ns-2 keeps time in a double, so two events due at the same microsecond (a link finishing one
packet as another arrives) run in the order of their doubles, which differ by rounding noise.
ternsim's clock counts integer nanoseconds, and its wired links also compute each event's exact
time in seconds with ns-2's own arithmetic (`clock + 8 * size / bandwidth_`, `+ (txtime +
delay_)`), which orders events that round to the same nanosecond: the chain's traces are now
ns-2's byte for byte. Where a script's times are not a wired link's (a timer, a CBR source), a
few lines may still stand in another order within one timestamp ("equal up to ties").

The senders' RTT tick phase (ns-2 ``boot_time_``) is the number ns-2 draws for each TCP agent
from its default RNG; the front end replays those draws. With another phase an RTT sample near
a tick boundary rounds the other way and a timeout fires one tick apart (the delayed-ACK chains
parted from ns-2 at 1.28 s that way).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).parent / "ns2_scripts"
NS = shutil.which("ns")

pytestmark = pytest.mark.skipif(NS is None, reason="ns-2 (`ns`) is not installed")


def first_difference(a: list[str], b: list[str]) -> str | None:
    """Where two traces first differ, as a short message (None if they are equal). Tests
    assert on this rather than on the lists: on CI (the CI variable set) pytest explains a
    failed list comparison with a full ndiff of both, which on two 40,000-line traces that
    part runs for hours; expected failures would pay that every time."""
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return f"line {i + 1}: {x!r} != {y!r}"
    if len(a) != len(b):
        return f"lengths differ: {len(a)} != {len(b)}"
    return None


def run_both(tmp_path: Path, script: str, args: list[str]) -> dict[str, tuple]:
    """(exit status, stdout, trace lines) of the script under ns and under ternsim ns2."""
    out = {}
    for who, cmd in (
        ("ns", [NS]),
        ("ternsim", [sys.executable, "-m", "ternsim", "ns2"]),
    ):
        folder = tmp_path / who
        folder.mkdir()
        proc = subprocess.run(
            [*cmd, str(SCRIPTS / script), *args],
            cwd=folder,
            capture_output=True,
            text=True,
            timeout=300,
        )
        trace = [p for p in folder.iterdir() if p.suffix == ".tr"]
        assert len(trace) == 1, (who, proc.stderr)
        out[who] = (proc.returncode, proc.stdout, trace[0].read_text().splitlines())
    return out


def events(lines: list[str]) -> dict[tuple, list[str]]:
    """Trace lines by packet event (event, from, to, uid)."""
    return {(f[0], f[2], f[3], f[11]): f for f in (line.split() for line in lines)}


def assert_same_packets(ns: list[str], ts: list[str], until: float = float("inf")) -> None:
    """Every packet event of ns is in ternsim's trace with the same fields (flags included) and
    its time within 2 us; and none more. (Since links add transmission times exactly the times
    are equal; the tolerance stays for the comparison up to a cut-off time.)"""
    a = {k: f for k, f in events(ns).items() if float(f[1]) < until}
    b = {k: f for k, f in events(ts).items() if float(f[1]) < until - 1e-5}
    missing = sorted(set(b) - set(a), key=lambda k: float(b[k][1]))
    assert set(b) <= set(a), f"ternsim-only events, first {b[missing[0]]}"
    late = [k for k in a if k not in b and float(a[k][1]) < until - 1e-5]
    assert not late, f"events missing from ternsim's trace, e.g. {a[late[0]]}"
    for k, fb in b.items():
        fa = a[k]
        assert fa[:1] + fa[2:] == fb[:1] + fb[2:], (fa, fb)
        assert abs(float(fa[1]) - float(fb[1])) <= 2.0000001e-6, (fa, fb)


CHAIN_VARIANTS = [
    ("Agent/TCP/Newreno", "Agent/TCPSink"),
    ("Agent/TCP", "Agent/TCPSink"),
    ("Agent/TCP/Reno", "Agent/TCPSink"),
    ("Agent/TCP/Sack1", "Agent/TCPSink/Sack1"),
    ("Agent/TCP/Vegas", "Agent/TCPSink"),
    # Delayed ACKs: one ACK per two packets or after 100 ms. Before the senders took ns-2's
    # boot_time_ (the RTT tick phase ns-2 draws from its default RNG), NewReno and Reno
    # parted from ns-2 at 1.278245 s: one RTT sample rounded to 16 ticks instead of 15, an
    # RTO of 0.24 s instead of 0.23 s, the timeout 10 ms late.
    ("Agent/TCP/Newreno", "Agent/TCPSink/DelAck"),
    ("Agent/TCP", "Agent/TCPSink/DelAck"),
    ("Agent/TCP/Reno", "Agent/TCPSink/DelAck"),
    ("Agent/TCP/Sack1", "Agent/TCPSink/Sack1/DelAck"),
    ("Agent/TCP/Vegas", "Agent/TCPSink/DelAck"),
]


@pytest.mark.parametrize(
    "tcp,sink",
    CHAIN_VARIANTS,
    ids=lambda s: s.replace("Agent/TCP", "").strip("/").replace("/", "-") or "Tahoe",
)
def test_chain_matches_ns_packet_for_packet(tmp_path, tcp, sink):
    runs = run_both(tmp_path, "chain.tcl", [tcp, sink, "chain.tr"])
    (ns_rc, ns_out, ns_tr), (ts_rc, ts_out, ts_tr) = runs["ns"], runs["ternsim"]
    assert (ts_rc, ts_out) == (ns_rc, ns_out)
    assert len(ts_tr) == len(ns_tr) > 30000
    assert_same_packets(ns_tr, ts_tr)
    # Same lines, same times: only lines within one timestamp may be ordered differently.
    from ternsim.conformance import compare_traces

    verdict = compare_traces("\n".join(ns_tr), "\n".join(ts_tr))["verdict"]
    assert verdict == "identical", verdict
    if "Vegas" not in tcp:
        # cong_action after cuts (fewer with delayed ACKs: the window grows half as fast)
        assert sum("---A---" in line for line in ts_tr) >= (30 if "DelAck" in sink else 48)


def test_chain_trace_is_identical_line_for_line(tmp_path):
    """Line for line, byte for byte, including the lines ns-2 writes at the same
    microsecond: their order is that of ns-2's doubles (see the module doc)."""
    runs = run_both(tmp_path, "chain.tcl", [])
    difference = first_difference(runs["ns"][2], runs["ternsim"][2])
    assert difference is None, difference


def test_dumbbell_matches_ns_up_to_ties(tmp_path):
    runs = run_both(tmp_path, "dumbbell.tcl", [])
    (ns_rc, ns_out, ns_tr), (ts_rc, ts_out, ts_tr) = runs["ns"], runs["ternsim"]
    assert ts_rc == ns_rc == 0
    assert ts_out == ns_out and ns_out.startswith("reno retransmitted")
    assert_same_packets(ns_tr, ts_tr)
    from ternsim.conformance import compare_traces

    verdict = compare_traces("\n".join(ns_tr), "\n".join(ts_tr))["verdict"]
    assert verdict in ("identical", "equal up to ties"), verdict
    assert any(" cbr 500 " in line for line in ts_tr)


@pytest.mark.parametrize("seed", [[], ["5"]], ids=["default-rng", "seed-5"])
def test_two_chains_take_ns2s_boot_times(tmp_path, seed):
    """Two TCP senders (Vegas and NewReno, delayed-ACK sinks) on independent chains, with a
    spare TCP agent and attach order unlike creation order: each sender's RTT tick phase is
    the number ns-2 drew for it, so both runs give the same trace. With the two phases
    swapped the traces part at 1.578 s, for either seed."""
    runs = run_both(tmp_path, "two_chains.tcl", seed)
    (ns_rc, ns_out, ns_tr), (ts_rc, ts_out, ts_tr) = runs["ns"], runs["ternsim"]
    assert (ts_rc, ts_out) == (ns_rc, ns_out) == (0, ns_out)
    assert "newreno:" in ns_out
    from ternsim.conformance import compare_traces

    verdict = compare_traces("\n".join(ns_tr), "\n".join(ts_tr))["verdict"]
    assert verdict in ("identical", "equal up to ties"), verdict


@pytest.mark.parametrize(
    "args", [[], ["Agent/TCP/Reno", "false"]], ids=["bytes-newreno", "packets-reno"]
)
def test_red_without_early_tests_matches_ns(tmp_path, args):
    """RED links whose thresholds no average reaches: no early test, no random draw, so the
    run is deterministic and equals ns-2's: the automatic q_weight_ and maxthresh_ read back
    before the run, the physical limit in bytes (limit_ x mean_pktsize_, ns-2.35's default)
    or in packets, the forced drops it makes."""
    runs = run_both(tmp_path, "red_limit.tcl", args)
    (ns_rc, ns_out, ns_tr), (ts_rc, ts_out, ts_tr) = runs["ns"], runs["ternsim"]
    assert (ts_rc, ts_out) == (ns_rc, ns_out) == (0, ns_out)
    assert "q_weight_ 0.0026631142694990562 limit_ 16" in ns_out
    assert sum(line.startswith("d ") for line in ts_tr) >= 30
    from ternsim.conformance import compare_traces

    verdict = compare_traces("\n".join(ns_tr), "\n".join(ts_tr))["verdict"]
    assert verdict in ("identical", "equal up to ties"), verdict


def test_dumbbell_identical(tmp_path):
    """The Reno + CBR dumbbell byte for byte: the CBR source's send times are sums of its
    interval in doubles, as ns-2's timer makes them, and the links carry them on exactly."""
    runs = run_both(tmp_path, "dumbbell.tcl", [])
    assert runs["ternsim"][1] == runs["ns"][1]
    difference = first_difference(runs["ns"][2], runs["ternsim"][2])
    assert difference is None, difference


def test_a_sampling_callback_reads_what_ns_reads_mid_run(tmp_path):
    """sampler.tcl: a `record` proc that reschedules itself every 0.37 s reads cwnd_,
    ssthresh_, t_seqno_, ack_, maxseq_, backoff_, dupacks_, nrexmitpack_, nrexmit_, the
    TCPSink's bytes_ and a LossMonitor's bytes_/npkts_/nlost_/lastPktTime_, and resets bytes_:
    every line it prints is ns-2's, through a loss episode and a timeout. The trace holds the
    same packet events until 1.29 s, where a CBR packet and an ACK are created at the same
    instant and ns-2's double clock numbers them the other way round (module doc); the
    timeout at 1.0352 s is ns-2's because the TCP agent's boot_time_ is ns-2's own draw."""
    runs = run_both(tmp_path, "sampler.tcl", [])
    (ns_rc, ns_out, ns_tr), (ts_rc, ts_out, ts_tr) = runs["ns"], runs["ternsim"]
    assert ts_rc == ns_rc == 0
    assert len(ns_out.splitlines()) == 8
    assert " backoff 2 " in ns_out  # the samples span a timeout
    assert ts_out == ns_out
    assert len(ts_tr) == len(ns_tr)
    assert_same_packets(ns_tr, ts_tr, until=1.29)
    assert "+ 1.0352 0 1 tcp 1040 ---A--- 0 0.0 1.0 62 439" in ts_tr


@pytest.mark.parametrize(
    "script",
    [
        "lossmodel_list.tcl",
        "link_lossmodel_list.tcl",
        "rtmodel_down_up.tcl",
        "rtmodel_reversed.tcl",
        "rtmodel_untraced_link.tcl",
        "rtproto_session.tcl",
        "rtproto_dv.tcl",
        "rtmodel_deterministic.tcl",
    ],
)
def test_error_models_and_link_outages_match_ns(tmp_path, script):
    """A Reno flow over a bottleneck with ErrorModel/List {3 7} before the queue
    (`lossmodel`: the drops are traced `d` without `+`), the same after the delay
    (`link-lossmodel`: `d` at the arrival time), and the bottleneck down at 1 s, up at 1.5 s,
    down at 2 s, and with the nodes named the other way round and a time of 1.2345678 s
    (rtmodel-at: ns-2 takes B -> A down first, drops the queue then the packets in flight,
    writes one `v` line per rtmodel-at call, keeps its static routes), under Session
    routing (routes recomputed at each change: the flow detours) and under DV routing (its
    updates on the links, the detour found by them), and an `rtmodel Deterministic` whose
    `trace-dynamics` lines reach stdout among a callback's (under DV): ns-2's trace and
    stdout."""
    runs = run_both(tmp_path, script, [])
    (ns_rc, ns_out, ns_tr), (ts_rc, ts_out, ts_tr) = runs["ns"], runs["ternsim"]
    assert (ts_rc, ts_out) == (ns_rc, ns_out)
    assert len(ts_tr) == len(ns_tr) > 1000
    difference = first_difference(ns_tr, ts_tr)
    assert difference is None, difference


def test_an_asymmetric_path_of_two_simplex_links_matches_ns(tmp_path):
    """Two simplex links (2 Mb/s, 10 ms one way; 72 kb/s, 50 ms back, each with its own
    queue-limit, both dropping) and a one-way `$ns delay`: ns-2's `puts` line and its trace,
    byte for byte."""
    from ternsim.conformance import compare_traces

    runs = run_both(tmp_path, "simplex_asymmetric.tcl", [])
    (ns_rc, ns_out, ns_tr), (ts_rc, ts_out, ts_tr) = runs["ns"], runs["ternsim"]
    assert (ts_rc, ts_out) == (ns_rc, ns_out) == (0, ns_out)
    assert len(ns_tr) > 50_000
    drops = [line.split()[2:4] for line in ns_tr if line.startswith("d ")]
    assert ["1", "2"] in drops and ["2", "1"] in drops
    verdict = compare_traces("\n".join(ns_tr), "\n".join(ts_tr))["verdict"]
    assert verdict == "identical", verdict


def test_applications_switched_on_and_off_match_ns(tmp_path):
    """app_on_off.tcl: a CBR source started three times and stopped twice by `$ns at`, an FTP
    stopped and started again (ns-2 keeps its retransmission timer running after the stop,
    so the window restarts from 1 an RTO later and the first packet after the new start
    carries the congestion-action flag), and a second FTP started and stopped only from a
    callback proc. ns-2's `puts` lines and its trace, byte for byte."""
    runs = run_both(tmp_path, "app_on_off.tcl", [])
    (ns_rc, ns_out, ns_tr), (ts_rc, ts_out, ts_tr) = runs["ns"], runs["ternsim"]
    assert (ts_rc, ts_out) == (ns_rc, ns_out) == (0, ns_out)
    assert "ftp2 start at 3.1000000000000001" in ns_out
    assert any("---A---" in line and line.startswith("+ 2.7 ") for line in ns_tr)
    difference = first_difference(ns_tr, ts_tr)
    assert difference is None, difference


@pytest.mark.parametrize("args", [["droptail", "1"], ["red", "7"]])
def test_random_traffic_sources_draw_ns2s_numbers(tmp_path, args):
    """random_sources.tcl: an Exponential and a Pareto on/off source (one stopped and
    started again) and a CBR source with `random_` jitter, each into a LossMonitor sampled
    every 0.5 s, share a bottleneck with a Reno flow; drop-tail, or RED whose early tests
    draw from the same generator. ns-2 draws each burst length, idle time and jitter from
    its default RNG as the run reaches it; ternsim replays that generator in run order
    (with rng.h's formulas), so the sampled rates, the printed line and the whole trace are
    ns-2's byte for byte."""
    runs = run_both(tmp_path, "random_sources.tcl", args)
    (ns_rc, ns_out, ns_tr), (ts_rc, ts_out, ts_tr) = runs["ns"], runs["ternsim"]
    ns_rate, ts_rate = ((tmp_path / who / "rate.txt").read_text() for who in ("ns", "ternsim"))
    assert (ts_rc, ts_out) == (ns_rc, ns_out) == (0, ns_out)
    assert ns_out.startswith("CBR 200 FTP\n")
    assert ts_rate == ns_rate
    difference = first_difference(ns_tr, ts_tr)
    assert difference is None, difference
    # Each source sent, with its own packet type; the Pareto source (fid 2) is silent
    # between its stop at 6.0 s and its new start at 7.5 s.
    sent = [line.split() for line in ns_tr if line.startswith("+ ") and " 0 1 " in line]
    assert {f[4] for f in sent} == {"exp", "pareto", "cbr", "tcp"}
    pareto = [float(f[1]) for f in sent if f[4] == "pareto"]
    assert pareto and not any(6.01 < t < 7.5 for t in pareto)
    assert any(t > 7.5 for t in pareto)


@pytest.mark.parametrize("tcp", ["Agent/TCP/Newreno", "Agent/TCP/Vegas"])
def test_a_drop_decided_by_a_same_instant_tie_is_ns2s(tmp_path, tcp):
    """The chain with `queue-limit 8`: at 0.310021 s a packet reaches the full queue at the
    microsecond the bottleneck finishes one. ns-2 orders the two by their doubles (the link
    frees the place first, the arrival is admitted); ternsim did by scheduling order and
    dropped it, and the runs parted there. With the links' exact times the file is ns-2's
    byte for byte."""
    script = tmp_path / "chain8.tcl"
    script.write_text(
        (SCRIPTS / "chain.tcl")
        .read_text()
        .replace("queue-limit $n1 $n2 20", "queue-limit $n1 $n2 8")
    )
    traces = {}
    for who, cmd in (("ns", [NS]), ("ternsim", [sys.executable, "-m", "ternsim", "ns2"])):
        folder = tmp_path / who
        folder.mkdir()
        proc = subprocess.run(
            [*cmd, str(script), tcp], cwd=folder, capture_output=True, text=True, timeout=300
        )
        assert proc.returncode == 0, (who, proc.stderr)
        traces[who] = (folder / "chain.tr").read_text().splitlines()
    assert not any(line.startswith("d 0.310021 ") for line in traces["ns"])
    difference = first_difference(traces["ns"], traces["ternsim"])
    assert difference is None, difference


@pytest.mark.parametrize("script", ["monitor_queue_outage.tcl", "monitor_queue_losses.tcl"])
def test_queue_monitor_reads_match_ns(tmp_path, script):
    """`$ns monitor-queue` on a bottleneck, read every 0.25 s (size_, pkts_, parrivals_,
    barrivals_, pdepartures_, bdepartures_, pdrops_, bdrops_): with an ErrorModel/List put on
    the link before the monitor (its drops are arrivals, then drops) and an outage at 1.1 s
    (ns-2 resets the monitor as the link goes down: its size goes below zero as the packets in
    flight are dropped); and with a List after the delay plus one placed after the monitor
    (drops, never arrivals); with each read, the monitor's bytes and packets integrators
    (sum_, lastx_, lasty_: time integrals of the queue's size over exact event times, reset
    with the monitor). The same lines as ns-2 prints, and ns-2's trace."""
    runs = run_both(tmp_path, script, [])
    (ns_rc, ns_out, ns_tr), (ts_rc, ts_out, ts_tr) = runs["ns"], runs["ternsim"]
    assert (ts_rc, ts_out) == (ns_rc, ns_out)
    assert len(ns_out.splitlines()) == 3 * 8
    difference = first_difference(ns_tr, ts_tr)
    assert difference is None, difference


@pytest.mark.parametrize("args", [[], ["trace"]])
def test_a_link_sampling_and_tracing_its_queue_monitor_matches_ns(tmp_path, args):
    """queue_sampling.tcl: `queue-sample-timeout` on the bottleneck writes, every 0.2 s from
    time 0, the mean queue in bytes and packets since the last sample (the monitor's
    integrators over exact event times) and its six counters; with `start-tracing` the
    monitor also writes the queue after each arrival, departure and drop. The file, the
    cwnd_ trace, the printed lines (a last sample read by `sample-queue-size`) and the trace
    are ns-2's byte for byte."""
    runs = run_both(tmp_path, "queue_sampling.tcl", args)
    (ns_rc, ns_out, ns_tr), (ts_rc, ts_out, ts_tr) = runs["ns"], runs["ternsim"]
    ns_files, ts_files = (
        {name: (tmp_path / who / name).read_text() for name in ("queue.txt", "cwnd.txt")}
        for who in ("ns", "ternsim")
    )
    assert (ts_rc, ts_out) == (ns_rc, ns_out) == (0, ns_out)
    samples = [line for line in ns_files["queue.txt"].splitlines() if not line.startswith("q ")]
    assert samples[0] == "0 2 3 0 0 0 0 0 0 0 0" and len(samples) == 25
    assert any(line.startswith("q -t ") for line in ns_files["queue.txt"].splitlines()) == bool(
        args
    )
    assert ts_files == ns_files
    difference = first_difference(ns_tr, ts_tr)
    assert difference is None, difference


@pytest.mark.parametrize("mode", ["delay", "noreorder", "bandwidth", "queue"])
def test_a_link_changed_during_the_run_matches_ns(tmp_path, mode):
    """link_changes.tcl: `$ns delay` (200 ms, then 5 ms 60 ms later, so two packets
    overtake ones sent before them; with `DelayLink avoidReordering_` none do, each held a
    transmission time behind the one ahead), `$ns bandwidth` (64 kb/s, then 3 Mb/s one
    way) and `$ns queue-limit` followed by the queue's `shrink-queue` (the waiting packets
    beyond 8 dropped from the tail), all from `$ns at` scripts under a Reno flow. The
    printed line and the trace are ns-2's byte for byte."""
    runs = run_both(tmp_path, "link_changes.tcl", [mode])
    (ns_rc, ns_out, ns_tr), (ts_rc, ts_out, ts_tr) = runs["ns"], runs["ternsim"]
    assert (ts_rc, ts_out) == (ns_rc, ns_out) == (0, ns_out)
    difference = first_difference(ns_tr, ts_tr)
    assert difference is None, difference
    # Packets overtaken on the bottleneck: the order they arrive at node 2 is not the
    # order they left node 1 in.
    fields = [x.split() for x in ns_tr]
    left = [f[11] for f in fields if f[0] == "-" and f[2:5] == ["1", "2", "tcp"]]
    arrived = [f[11] for f in fields if f[0] == "r" and f[2:5] == ["1", "2", "tcp"]]
    overtaken = arrived != [uid for uid in left if uid in set(arrived)]
    assert overtaken == (mode == "delay")
    if mode == "queue":
        assert any(line.startswith("d 2 1 2 tcp") for line in ns_tr)


SIMPLE = Path("/usr/share/doc/ns2/examples/tcl/ex/simple.tcl")


def _nam_stand_in(tmp_path: Path) -> dict[str, str]:
    """An environment whose PATH finds a `nam` that does nothing: scripts whose `finish`
    runs `exec nam ... &` need one, and Debian's `nam` package is not installed by CI; the
    same for both simulators."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "nam").write_text("#!/bin/sh\nexit 0\n")
    (bin_dir / "nam").chmod(0o755)
    return {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"}


@pytest.mark.skipif(not SIMPLE.exists(), reason="Debian's ns2-examples is not installed")
def test_ns2s_simple_example_with_its_mid_run_detach_matches_ns(tmp_path):
    """ns-2's `ex/simple.tcl` unchanged: two CBR flows and a TCP flow whose agents are
    detached at 1.35 s (`$ns detach-agent` in a `$ns at`): from then on the packets in flight
    reach their node and vanish, and the sender sends into the null agent. Same `puts`
    output, same trace byte for byte."""
    # Its `finish` runs `exec nam out.nam &`: see _nam_stand_in.
    env = _nam_stand_in(tmp_path)
    out = {}
    for who, cmd in (("ns", [NS]), ("ternsim", [sys.executable, "-m", "ternsim", "ns2"])):
        folder = tmp_path / who
        folder.mkdir()
        shutil.copy(SIMPLE, folder / SIMPLE.name)
        proc = subprocess.run(
            [*cmd, SIMPLE.name],
            cwd=folder,
            capture_output=True,
            text=True,
            timeout=300,
            env=env,
        )
        out[who] = (proc.returncode, proc.stdout, (folder / "out.tr").read_text())
    (ns_rc, ns_out, ns_tr), (ts_rc, ts_out, ts_tr) = out["ns"], out["ternsim"]
    assert ts_rc == ns_rc == 0
    assert ts_out == ns_out
    from ternsim.conformance import compare_traces

    verdict = compare_traces(ns_tr, ts_tr)["verdict"]
    assert verdict == "identical", verdict
    # The TCP flow's last segment leaves the bottleneck queue after the detach and is
    # received at node 3 (nothing answers it).
    tcp = [line.split() for line in ts_tr.splitlines() if " tcp " in line]
    assert float(tcp[-1][1]) > 1.35


EXAMPLES = Path("/usr/share/doc/ns2/examples/tcl/ex")


@pytest.mark.skipif(
    not (EXAMPLES / "example.tcl").exists(), reason="Debian's ns2-examples is not installed"
)
def test_ns2s_first_example_queue_delay_matches_ns(tmp_path):
    """ns-2's `ex/example.tcl` unchanged: two Tahoe flows in opposite directions over one
    1.5 Mb/s link, `trace-queue` of one direction into its own file (no trace-all), a queue
    monitor whose bytes integrator the script reads every second as `8 * sum_ / [[$link link]
    set bandwidth_]`. The 20 `delay=` lines (17 significant digits: the integral over ns-2's
    exact event times) and the trace file are ns-2's byte for byte."""
    out = {}
    for who, cmd in (("ns", [NS]), ("ternsim", [sys.executable, "-m", "ternsim", "ns2"])):
        folder = tmp_path / who
        folder.mkdir()
        proc = subprocess.run(
            [*cmd, str(EXAMPLES / "example.tcl")],
            cwd=folder,
            capture_output=True,
            text=True,
            timeout=300,
        )
        out[who] = (proc.returncode, proc.stdout, (folder / "out.tr").read_text())
    assert out["ternsim"][0] == out["ns"][0] == 0
    assert out["ternsim"][1] == out["ns"][1]
    assert len(out["ns"][1].splitlines()) == 20
    assert out["ternsim"][2] == out["ns"][2]
    # Only the traced direction (node 0 to node 1) is in the file.
    assert {tuple(x.split()[2:4]) for x in out["ternsim"][2].splitlines()} == {("0", "1")}


@pytest.mark.skipif(
    not (EXAMPLES / "simple-dyn.tcl").exists(), reason="Debian's ns2-examples is not installed"
)
@pytest.mark.parametrize("name", ["simple-dyn.tcl", "simple-rtg.tcl"])
def test_ns2s_link_dynamics_examples_match_ns(tmp_path, name):
    """ns-2's `ex/simple-dyn.tcl` (`rtmodel Deterministic {} $n0`: every link of n0, ns-2's
    default times) and `ex/simple-rtg.tcl` (`rtmodel Deterministic {} $n0 $n1`, a detour
    over n2) unchanged, under DV, with `trace-dynamics` to stdout (and in the nam format):
    the same output, exit status, trace and nam files as `ns`, byte for byte. Their
    `finish` runs `exec nam ... &`: a `nam` that does nothing stands in for both."""
    env = _nam_stand_in(tmp_path)
    out = {}
    for who, cmd in (("ns", [NS]), ("ternsim", [sys.executable, "-m", "ternsim", "ns2"])):
        folder = tmp_path / who
        folder.mkdir()
        shutil.copy(EXAMPLES / name, folder / name)
        proc = subprocess.run(
            [*cmd, name], cwd=folder, capture_output=True, text=True, timeout=300, env=env
        )
        out[who] = (
            proc.returncode,
            proc.stdout,
            (folder / "out.tr").read_text(),
            (folder / "out.nam").read_text(),
        )
    assert out["ternsim"][:2] == out["ns"][:2]
    assert out["ns"][0] == 0
    # The link goes down at 0.5 + 2 s, up 1 s later, down 2 s after that, up at 6.5 s.
    for line in ("v 2.5 link-down 0 1", "v 3.5 link-up 0 1", "v 6.5 link-up 0 1"):
        assert line in out["ns"][1].splitlines()
    for k in (2, 3):
        difference = first_difference(out["ns"][k].splitlines(), out["ternsim"][k].splitlines())
        assert difference is None, difference


SIMPLE_TCP = Path("/usr/share/doc/ns2/examples/tcl/ex/simple-tcp.tcl")


@pytest.mark.skipif(not SIMPLE_TCP.exists(), reason="Debian's ns2-examples is not installed")
@pytest.mark.parametrize("call", ["advanceby 1", "advanceby 3", "advance 3"])
def test_a_tcp_agent_advanced_without_an_application_matches_ns(tmp_path, call):
    """ns-2's `ex/simple-tcp.tcl` (`$tcp advanceby 1` at 0.5 s on an agent with no
    application; SYN then N data packets), and the same with other counts: the trace file is
    ns-2's, byte for byte."""
    script = SIMPLE_TCP.read_text().replace("advanceby 1", call)
    traces = {}
    for who, cmd in (("ns", [NS]), ("ternsim", [sys.executable, "-m", "ternsim", "ns2"])):
        folder = tmp_path / who
        folder.mkdir()
        (folder / "s.tcl").write_text(script)
        proc = subprocess.run([*cmd, "s.tcl"], cwd=folder, capture_output=True, text=True)
        assert proc.returncode == 0, (who, proc.stderr)
        traces[who] = (folder / "out.ns").read_text()
    assert traces["ternsim"] == traces["ns"]
    assert traces["ns"].count(" tcp 1040 ") > 0


def test_a_second_advance_is_refused_with_its_line(tmp_path):
    body = (
        "set ns [new Simulator]\nset n0 [$ns node]\nset n1 [$ns node]\n"
        "$ns duplex-link $n0 $n1 1Mb 10ms DropTail\n"
        "set tcp [new Agent/TCP/Reno]\nset snk [new Agent/TCPSink]\n"
        "$ns attach-agent $n0 $tcp\n$ns attach-agent $n1 $snk\n$ns connect $tcp $snk\n"
        '$ns at 0.5 "$tcp advanceby 1"\n$ns at 0.7 "$tcp advanceby 2"\n'
        '$ns at 2.0 "exit 0"\n$ns run\n'
    )
    (tmp_path / "twice.tcl").write_text(body)
    proc = subprocess.run(
        [sys.executable, "-m", "ternsim", "ns2", "twice.tcl"],
        cwd=tmp_path, capture_output=True, text=True,
    )  # fmt: skip
    assert proc.returncode == 2
    assert "twice.tcl:11:" in proc.stderr and "called twice" in proc.stderr, proc.stderr


@pytest.mark.skipif(
    NS is None or not (EXAMPLES / "tcpecn.tcl").exists(),
    reason="ns-2 or Debian's ns2-examples is not installed",
)
def test_ns2s_ecn_example_with_nam_agent_traces_matches_ns(tmp_path):
    """ns-2's `ex/tcpecn.tcl` unchanged: two ECN Reno flows into a marking RED bottleneck,
    traced for nam with `add-agent-trace`, `monitor-agent-trace` and `tracevar cwnd_` under
    `nam_tracevar_ true` (the `a` and `v` lines at the start, an `f` line for each change of
    cwnd_ among the packet lines, `-v` as `%g`, `-o` the last value). Its `finish` fails on
    `exec tclsh8.0`: the same error report (`ns: finish: couldn't execute ...`), exit status
    1, and the same trace and nam files, byte for byte."""
    env = _nam_stand_in(tmp_path)
    out = {}
    for who, cmd in (("ns", [NS]), ("ternsim", [sys.executable, "-m", "ternsim", "ns2"])):
        folder = tmp_path / who
        folder.mkdir()
        shutil.copy(EXAMPLES / "tcpecn.tcl", folder / "tcpecn.tcl")
        proc = subprocess.run(
            [*cmd, "tcpecn.tcl"], cwd=folder, capture_output=True, text=True, timeout=300, env=env
        )
        out[who] = (
            proc.returncode,
            proc.stdout,
            proc.stderr,
            (folder / "out.tr").read_text(),
            (folder / "out.nam").read_text(),
        )
    assert out["ns"][0] == 1
    assert 'ns: finish: couldn\'t execute "tclsh8.0"' in out["ns"][1]
    assert sum(x.startswith("f -t ") for x in out["ns"][4].splitlines()) > 200
    assert out["ternsim"][:3] == out["ns"][:3]
    for k in (3, 4):
        difference = first_difference(out["ns"][k].splitlines(), out["ternsim"][k].splitlines())
        assert difference is None, difference


def test_an_error_in_a_callback_is_reported_as_ns2_reports_it(tmp_path):
    """A Tcl error inside an `$ns at` callback: ns-2's tclcl hands it to `tkerror {ns:
    SCRIPT}`, which prints (on standard output) `ns: SCRIPT: ` and the errorInfo of the
    callback (from the error up to the callback's own script), and ns exits with status 1
    (worked from `ns` 2.35's output for this script)."""
    script = tmp_path / "e.tcl"
    script.write_text(
        "set ns [new Simulator]\n"
        'proc inner {} { error "boom here" }\n'
        'proc finish {} { puts "in finish"; inner }\n'
        '$ns at 1.0 "finish"\n'
        '$ns at 2.0 "exit 0"\n'
        "$ns run\n"
    )
    proc = subprocess.run(
        [sys.executable, "-m", "ternsim", "ns2", "e.tcl"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 1
    assert proc.stderr == ""
    assert proc.stdout == (
        "in finish\n"
        "ns: finish: boom here\n"
        "    while executing\n"
        '"error "boom here" "\n'
        '    (procedure "inner" line 1)\n'
        "    invoked from within\n"
        '"inner "\n'
        '    (procedure "finish" line 1)\n'
        "    invoked from within\n"
        '"finish"\n'
    )
