"""`Agent/Ping` (ns-2.35 `apps/ping.cc`, Greis's tutorial) under `ternsim ns2`: echo
requests sent from callbacks, the agent's Tcl `recv` called at the instant each reply
arrives, with the round trip (or with `oneway` both one-way delays) as ns-2 formats them;
checked against round trips worked out by hand, ns-2.35's reference outputs of Greis's `ping`
and `pingOneWay` tests, and `ns` itself."""

from __future__ import annotations

import gzip
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ternsim import Simulation
from ternsim.ns2 import translate_script

HERE = Path(__file__).parent
TESTS = Path("/usr/share/doc/ns2/examples/tcl/test")
GREIS = TESTS / "test-suite-greis.tcl"
NS = shutil.which("ns")

#: Two 1 Mb/s, 10 ms links: a 64-byte packet takes 0.512 ms to send and 10 ms to cross each,
#: four crossings there and back.
RTT_MS = 4 * (64 * 8 / 1e6 + 0.010) * 1000  # 42.048

PREAMBLE = """set ns [new Simulator]
set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
$ns duplex-link $n0 $n1 1Mb 10ms DropTail
$ns duplex-link $n1 $n2 1Mb 10ms DropTail
set p0 [new Agent/Ping]
$ns attach-agent $n0 $p0
set p1 [new Agent/Ping]
$ns attach-agent $n2 $p1
$ns connect $p0 $p1
"""


def run(tmp_path: Path, script: str, *args: str) -> subprocess.CompletedProcess:
    (tmp_path / "s.tcl").write_text(script)
    return subprocess.run(
        [sys.executable, "-m", "ternsim", "ns2", "s.tcl", *args],
        cwd=tmp_path, capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def test_recv_runs_at_the_reply_with_the_round_trip(tmp_path):
    p = run(
        tmp_path,
        PREAMBLE
        + """Agent/Ping instproc recv {from rtt} {
    global ns
    $self instvar node_
    puts "[$ns now] [$node_ id] $from $rtt"
}
$ns at 0.2 "$p0 send"
$ns at 0.4 "$p1 send"
$ns at 1.0 "exit 0"
$ns run
""",
    )
    assert p.returncode == 0, p.stderr
    lines = [x.split() for x in p.stdout.splitlines()]
    # `$ns now` in recv is the reply's arrival: 0.2 + 42.048 ms, 0.4 + 42.048 ms.
    assert [(float(t), n, f, r) for t, n, f, r in lines] == [
        (pytest.approx(0.2 + RTT_MS / 1000), "0", "2", "42.0"),
        (pytest.approx(0.4 + RTT_MS / 1000), "2", "0", "42.0"),
    ]


def test_recv_may_send_again_and_schedule_callbacks(tmp_path):
    """A ping loop driven by its own replies (each reply sends the next request) and a
    callback its recv schedules before the next `$ns at`: all run at their instants."""
    p = run(
        tmp_path,
        PREAMBLE
        + """set n 0
Agent/Ping instproc recv {from rtt} {
    global ns n
    incr n
    if {$n < 3} { $self send }
    $ns at [expr [$ns now] + 0.001] "puts \\"tick $n\\""
}
$ns at 0.1 "$p0 send"
$ns at 0.5 {puts "done $n"; exit 0}
$ns run
""",
    )
    assert p.returncode == 0, p.stderr
    assert p.stdout.split("\n")[:4] == ["tick 1", "tick 2", "tick 3", "done 3"]


def test_oneway_reports_both_delays_over_an_asymmetric_path(tmp_path):
    """With `oneway`, recv gets the sequence number and the two one-way delays: 10 ms out on
    one direction of the first link and 100 ms back on the other (plus 0.512 ms of sending
    and 10.512 ms for the second link each way)."""
    script = """set ns [new Simulator]
set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
$ns simplex-link $n0 $n1 1Mb 10ms DropTail
$ns simplex-link $n1 $n0 1Mb 100ms DropTail
$ns duplex-link $n1 $n2 1Mb 10ms DropTail
Agent/Ping instproc recv {from seq ff bf} { puts "$from $seq $ff $bf" }
set p0 [new Agent/Ping]
$ns attach-agent $n0 $p0
$p0 oneway
set p1 [new Agent/Ping]
$ns attach-agent $n2 $p1
$ns connect $p0 $p1
$ns at 0.1 "$p0 send"
$ns at 0.2 "$p0 send"
$ns at 1.0 "exit 0"
$ns run
"""
    p = run(tmp_path, script)
    assert p.returncode == 0, p.stderr
    forward, back = 2 * 0.512 + 20.0, 2 * 0.512 + 110.0
    assert p.stdout.splitlines() == [
        f"2 0 {forward:3.1f} {back:3.1f}",
        f"2 1 {forward:3.1f} {back:3.1f}",
    ]


def test_a_ping_pair_is_one_flow_with_each_agents_packet_size(tmp_path):
    script = tmp_path / "s.tcl"
    script.write_text(
        PREAMBLE.replace(
            "set p1 [new Agent/Ping]", "set p1 [new Agent/Ping]\n$p1 set packetSize_ 100"
        )
        + "Agent/Ping instproc recv {from rtt} {}\n"
        + '$ns at 0.2 "$p0 send"\n$ns at 1 "exit 0"\n$ns run\n'
    )
    flows = translate_script(script)["flows"]
    assert len(flows) == 1
    assert flows[0]["transport"] == "ping"
    assert flows[0]["app"] == {"kind": "ping", "packet_size": "64B", "reply_size": "100B"}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ('$p0 send\n$ns at 1 "exit 0"', "before $ns run"),
        ("set u [new Agent/UDP]\n$ns attach-agent $n0 $u\n$ns connect $u $p1", "connected twice"),
    ],
)
def test_unsupported_uses_are_refused_with_their_line(tmp_path, change, message):
    p = run(tmp_path, PREAMBLE + change + '\n$ns at 1 "exit 0"\n$ns run\n')
    assert p.returncode == 2
    assert message in p.stderr
    assert "s.tcl:" in p.stderr


def test_a_reply_to_an_agent_without_recv_stops_the_run(tmp_path):
    p = run(tmp_path, PREAMBLE + '$ns at 0.2 "$p0 send"\n$ns at 1 "exit 0"\n$ns run\n')
    assert p.returncode != 0
    assert "instproc recv" in p.stderr


def test_the_python_api_keeps_replies_for_a_stepping_host():
    sc = {
        "name": "ping",
        "duration": "1s",
        "nodes": [{"name": "a"}, {"name": "b"}],
        "links": [{"a": "a", "b": "b", "rate": "1Mbps", "delay": "10ms"}],
        "flows": [{"name": "p", "src": "a", "dst": "b", "transport": "ping"}],
    }
    sim = Simulation(sc, seed=1)
    sim.keep_ping_replies()
    sim.run_until(0.1)
    sim.ping("p", "sink")
    assert sim.run_until(1.0) is False
    (reply,) = sim.ping_replies()
    # One link each way: 2 × (0.512 + 10) ms.
    assert reply["flow"] == "p" and reply["end"] == "sink" and reply["seq"] == 0
    assert reply["rtt_s"] == pytest.approx(2 * (64 * 8 / 1e6 + 0.010), abs=1e-12)
    assert sim.now == pytest.approx(0.1 + reply["rtt_s"])
    assert sim.run_until(1.0) is True
    result = sim.finish()
    assert result.summary["flows"][0]["packets_received"] == 1


@pytest.mark.skipif(not GREIS.exists(), reason="ns-2's examples are not installed")
@pytest.mark.parametrize("test", ["ping", "pingOneWay"])
def test_greis_ping_tests_give_ns2s_reference_nam_file_and_output(tmp_path, test):
    shutil.copy(GREIS, tmp_path / GREIS.name)
    p = subprocess.run(
        [sys.executable, "-m", "ternsim", "ns2", GREIS.name, test],
        cwd=tmp_path, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert p.returncode == 0, p.stderr
    with gzip.open(TESTS / "test-output-greis" / f"{test}.gz", "rt") as f:
        assert (tmp_path / "temp.rands").read_text() == f.read()
    if test == "ping":
        # What ns-2.35 prints (the recv's `\` line continuation leaves two spaces).
        assert p.stdout.splitlines() == [
            "node 0 received ping answer from  2 with round-trip-time 42.0 ms.",
            "node 2 received ping answer from  0 with round-trip-time 42.0 ms.",
        ] * 2 + ["finishing.."]


@pytest.mark.skipif(NS is None, reason="ns-2 (`ns`) is not installed")
def test_pings_into_a_congested_link_match_ns_line_for_line(tmp_path):
    """Bursts of five 500-byte pings and a CBR flow into a 64 kb/s link with a 3-packet
    queue (drops of both), the replies sending again, the far agent with its own fid_: the
    same output and the same trace as `ns`."""
    script = HERE / "ns2_scripts" / "ping_bursts.tcl"
    outputs = []
    for side in ("ns", "ternsim"):
        d = tmp_path / side
        d.mkdir()
        shutil.copy(script, d)
        cmd = [NS] if side == "ns" else [sys.executable, "-m", "ternsim", "ns2"]
        p = subprocess.run(
            [*cmd, script.name], cwd=d, capture_output=True, text=True, timeout=120
        )  # fmt: skip
        assert p.returncode == 0, p.stderr
        outputs.append((p.stdout, (d / "ping_bursts.tr").read_text()))
    assert outputs[1][0] == outputs[0][0]
    trace = outputs[0][1]
    assert trace.count("\nd ") > 10 and " ping " in trace
    assert outputs[1][1] == trace
