"""Traced TCP variables (``$tcp attach $f; $tcp trace cwnd_``), the way course labs plot a
window: ns-2.35's ``TcpAgent::traceVar`` line for each assignment that changes a traced
variable, in the order ns-2's code makes them.

The hand-worked case needs no ns-2; the script cases are compared with ``ns`` byte for byte
(every traceable variable through losses, a two-second outage with backed-off timeouts and
recovery, for each sender the scripts use)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).parent / "ns2_scripts"
NS = shutil.which("ns")

TWO_NODES = """set ns [new Simulator]
set n0 [$ns node]
set n1 [$ns node]
$ns duplex-link $n0 $n1 1Mb 10ms DropTail
set tcp [new Agent/TCP/Reno]
$tcp set window_ 40
$tcp set windowInit_ 3
$ns attach-agent $n0 $tcp
set sink [new Agent/TCPSink]
$ns attach-agent $n1 $sink
$ns connect $tcp $sink
set ftp [new Application/FTP]
$ftp attach-agent $tcp
set tf [open cwnd.tr w]
"""

FINISH = """$ns at 0.1 "$ftp start"
proc finish {} { global tf; close $tf; exit 0 }
$ns at %s "finish"
$ns run
"""


def ternsim_ns2(folder: Path, script: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "ternsim", "ns2", str(script), *args],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=300,
    )


def traced_lines(tmp_path: Path, text: str, output: str) -> list[str]:
    """The lines ``ternsim ns2`` writes into ``output`` for the script ``text``."""
    script = tmp_path / "script.tcl"
    script.write_text(text)
    proc = ternsim_ns2(tmp_path, script)
    assert proc.returncode == 0, proc.stderr
    return (tmp_path / output).read_text().splitlines()


def in_both(tmp_path: Path, script: Path, args: tuple, outputs: tuple) -> dict[str, tuple]:
    """The files ``outputs`` as ``ns`` and as ``ternsim ns2`` write them for ``script``, then
    its standard output."""
    got = {}
    for who in ("ns", "ternsim"):
        folder = tmp_path / who
        folder.mkdir()
        if who == "ns":
            proc = subprocess.run(
                [NS, str(script), *args], cwd=folder, capture_output=True, text=True, timeout=300
            )
        else:
            proc = ternsim_ns2(folder, script, *args)
        assert proc.returncode == 0, proc.stderr
        got[who] = (*((folder / name).read_text() for name in outputs), proc.stdout)
    return got


def test_window_lines_worked_by_hand(tmp_path):
    """`trace` writes the value the agent's creation gave it (cwnd_ 1 with the SYN,
    ssthresh_ = window_ = 20 at `new`); `$ns run` resets the agent, and ssthresh_ takes the
    per-object window_ 40. The SYN (40 bytes, 0.32 ms at 1 Mb/s, plus 10 ms) and its ACK
    (the same) come back at 0.1 + 2 × 10.32 ms = 0.12064 s, where ns-2 opens cwnd (1 -> 2,
    `opencwnd`) and then sets it to `initial_window()` = windowInit_ = 3: two lines. The next
    ACK cannot come before 0.125 s."""
    text = TWO_NODES + "$tcp attach $tf\n$tcp trace cwnd_\n$tcp trace ssthresh_\n" + FINISH % 0.125
    assert traced_lines(tmp_path, text, "cwnd.tr") == [
        "0.00000  0  0  1  0  cwnd_ 1.000 ",
        "0.00000  0  0  1  0  ssthresh_ 20",
        "0.00000  0  0  1  0  ssthresh_ 40",
        "0.12064  0  0  1  0  cwnd_ 2.000 ",
        "0.12064  0  0  1  0  cwnd_ 3.000 ",
    ]


@pytest.mark.parametrize(
    "line,message",
    [
        ("$tcp attach $tf\n$tcp trace window_", "trace window_: not supported; traceable"),
        ("$tcp attach nosuch", "attach nosuch: not an open channel"),
        ("$tcp set trace_all_oneline_ true\n$tcp trace cwnd_", "trace_all_oneline_ true"),
    ],
)
def test_what_cannot_be_traced_stops_before_the_run(tmp_path, line, message):
    script = tmp_path / "bad.tcl"
    script.write_text(TWO_NODES + line + "\n" + FINISH % 1.0)
    proc = ternsim_ns2(tmp_path, script)
    assert proc.returncode == 2
    assert message in proc.stderr
    assert "bad.tcl:" in proc.stderr


CASES = [
    ("TCP", "TCPSink", "8", "0"),
    ("TCP/Reno", "TCPSink", "8", "1"),
    ("TCP/Newreno", "TCPSink/DelAck", "5", "0"),
    ("TCP/Sack1", "TCPSink/Sack1", "6", "0"),
    ("TCP/Vegas", "TCPSink", "5", "0"),
    ("TCP/Vegas", "TCPSink", "7", "1"),
]


@pytest.mark.skipif(NS is None, reason="ns-2 (`ns`) is not installed")
@pytest.mark.parametrize("args", CASES, ids=lambda a: "-".join(a).replace("/", ""))
def test_traced_variables_are_ns2s_line_for_line(tmp_path, args):
    got = in_both(tmp_path, SCRIPTS / "trace_vars.tcl", args, ("vars.tr",))
    assert len(got["ns"][0].splitlines()) > 900
    assert got["ternsim"] == got["ns"]


SHARED_CASES = [
    ("TCP/Reno", "TCPSink", "10"),
    ("TCP/Reno", "TCPSink", "2"),
    ("TCP/Newreno", "TCPSink", "5"),
    ("TCP/Sack1", "TCPSink/Sack1", "4"),
    ("TCP/Vegas", "TCPSink", "6"),
]


@pytest.mark.skipif(NS is None, reason="ns-2 (`ns`) is not installed")
@pytest.mark.parametrize("args", SHARED_CASES, ids=lambda a: "-".join(a).replace("/", ""))
def test_traced_variables_in_the_trace_all_file_interleave_as_ns2s(tmp_path, args):
    """Variables traced into the trace-all file: each change's line sits between the packet
    lines ns-2 writes it between (queue limit 2: timeouts with backoff)."""
    got = in_both(tmp_path, SCRIPTS / "trace_vars_shared.tcl", args, ("out.tr",))
    assert sum(" cwnd_ " in x for x in got["ns"][0].splitlines()) > 20
    assert got["ternsim"] == got["ns"]


RED_TWO_NODES = """set ns [new Simulator]
set n0 [$ns node]
set n1 [$ns node]
Queue/RED set thresh_ 20
Queue/RED set maxthresh_ 60
Queue/RED set q_weight_ 0.5
$ns duplex-link $n0 $n1 1Mb 10ms RED
set udp [new Agent/UDP]
$ns attach-agent $n0 $udp
set null [new Agent/Null]
$ns attach-agent $n1 $null
$ns connect $udp $null
set cbr [new Application/Traffic/CBR]
$cbr set packetSize_ 1000
$cbr set interval_ 0.003
$cbr attach-agent $udp
set q [[$ns link $n0 $n1] queue]
set tq [open red.q w]
$q attach $tq
"""

RED_FINISH = """$ns at 0.1 "$cbr start"
$ns at 0.1135 "$cbr stop"
$ns at 0.2 "finish"
proc finish {} { global tq; close $tq; exit 0 }
$ns run
"""


def test_red_average_and_queue_worked_by_hand(tmp_path):
    """1000-byte packets every 3 ms into a 1 Mb/s RED link (8 ms each), w_q = 1/2, byte mode:
    arrivals at 0.100, 0.103, 0.106, 0.109, 0.112 s find 0, 0, 1000, 1000, 2000 bytes
    waiting (the first is on the wire until 0.108, the second until 0.116), so ave =
    ave/2 + q/2 goes 0, 0, 500, 750, 1375 (ns-2 `REDQueue::enque`: the estimator, then
    `curq_`). `trace` writes each value at once; only changes follow (`a`: `%g` of the
    time and the average; `Q`: the queue, an integer)."""
    text = RED_TWO_NODES + "$q trace curq_\n$q trace ave_\n" + RED_FINISH
    assert traced_lines(tmp_path, text, "red.q") == [
        "Q 0 0",
        "a 0 0",
        "a 0.106 500",
        "Q 0.106 1000",
        "a 0.109 750",
        "a 0.112 1375",
        "Q 0.112 2000",
    ]


def test_an_untraceable_red_variable_stops_before_the_run(tmp_path):
    script = tmp_path / "red.tcl"
    script.write_text(RED_TWO_NODES + "$q trace prob1_\n" + RED_FINISH)
    proc = ternsim_ns2(tmp_path, script)
    assert proc.returncode == 2
    assert "traceable RED variables: curq_, ave_" in proc.stderr


@pytest.mark.skipif(NS is None, reason="ns-2 (`ns`) is not installed")
def test_a_red_run_takes_ns2s_draws_drops_and_traced_variables_alike(tmp_path):
    """The early tests meet ns-2's own uniforms (its default RNG after the agents'
    `boot_time_` draws): the trace-all file, early drops included, and the RED trace are
    ns-2's byte for byte."""
    got = in_both(tmp_path, SCRIPTS / "red_trace.tcl", (), ("all.tr", "red.q"))
    all_ns, red_ns, _ = got["ns"]
    assert sum(line.startswith("d ") for line in all_ns.splitlines()) >= 5
    assert len(red_ns.splitlines()) > 500
    assert got["ternsim"][0] == all_ns
    assert got["ternsim"][1] == red_ns
