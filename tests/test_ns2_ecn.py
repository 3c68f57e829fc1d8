"""ECN (RFC 3168 as ns-2.35's one-way TCP agents, sinks and RED queue model it): ``ecn_``,
``old_ecn_``, RED's ``setbit_`` and an error model's ``markecn_``. The scripts run under
``ternsim ns2`` and, when ``ns`` is installed, are compared with ns-2's output byte for byte;
ns-2's own ECN validation suite (``test-suite-ecn.tcl``) is run by ``ternsim conformance
--validation`` (tests/test_conformance.py keeps some of it passing)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).parent / "ns2_scripts"
NS = shutil.which("ns")
needs_ns = pytest.mark.skipif(NS is None, reason="ns-2 (ns) is not installed")

# A Tahoe flow whose 4th, 14th, 24th ... packets an ErrorModule marks at the head of the
# bottleneck (`markecn_ true`): each mark halves the window once, the sink echoes it until
# the CWR packet arrives.
MARKED = """set ns [new Simulator]
set af [open all.tr w]
$ns trace-all $af
set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
$ns duplex-link $n0 $n1 10Mb 2ms DropTail
$ns duplex-link $n1 $n2 1Mb 20ms DropTail
$ns queue-limit $n1 $n2 40
set em [new ErrorModule Fid]
set marker [new ErrorModel/Periodic]
$marker unit pkt
$marker set offset_ 4
$marker set period_ 10
$marker set markecn_ true
[$ns link $n1 $n2] errormodule $em
$em insert $marker
$em bind $marker 7
$em default pass
set tcp [$ns create-connection %s $n0 %s $n2 7]
$tcp set window_ 20
$tcp set ecn_ 1
set ftp [$tcp attach-app FTP]
$ns at 0.1 "$ftp start"
$ns at 3.0 "close $af; exit 0"
$ns run
"""

SENDERS = [
    ("TCP", "TCPSink"),
    ("TCP/Reno", "TCPSink/DelAck"),
    ("TCP/Newreno", "TCPSink"),
    ("TCP/Sack1", "TCPSink/Sack1"),
]


def run(folder: Path, program: list[str], script: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*program, str(script)], cwd=folder, capture_output=True, text=True, timeout=300
    )


def ternsim(folder: Path, script: Path) -> subprocess.CompletedProcess:
    return run(folder, [sys.executable, "-m", "ternsim", "ns2"], script)


def in_both(tmp_path: Path, script: Path, outputs: tuple[str, ...]) -> dict[str, list[str]]:
    """The files ``outputs`` as ``ns`` and ``ternsim ns2`` write them for ``script``."""
    got = {}
    for who in ("ns", "ternsim"):
        folder = tmp_path / who
        folder.mkdir()
        proc = run(folder, [NS], script) if who == "ns" else ternsim(folder, script)
        assert proc.returncode == 0, proc.stderr
        got[who] = [(folder / name).read_text() for name in outputs]
    return got


def flags(trace: str) -> set[str]:
    return {line.split()[6] for line in trace.splitlines()}


def test_red_marks_and_the_flows_answer(tmp_path):
    """Without ns-2: the trace shows every ECN bit ns-2 writes, RED marks only ECN-capable
    packets, and the flow without ECN is the one whose packets are dropped."""
    proc = ternsim(tmp_path, SCRIPTS / "ecn_red.tcl")
    assert proc.returncode == 0, proc.stderr
    lines = (tmp_path / "all.tr").read_text().splitlines()
    assert {"-------", "------N", "----E-N", "---A--N", "C------"} <= flags("\n".join(lines))
    marked = {line.split()[7] for line in lines if line.split()[6] == "----E-N"}
    assert marked <= {"1", "2"}
    # Packet 0 of each ECN flow asks for ECN (ECN-Echo, not ECN-capable) and its ACK echoes.
    first = [line for line in lines if line.startswith("+ ") and line.split()[2] == "0"][0]
    assert first.split()[6] == "C------"


@needs_ns
@pytest.mark.parametrize(
    "script,outputs",
    [("ecn_red.tcl", ("all.tr", "cwnd.tr")), ("ecn_red_idle.tcl", ("all.tr",))],
    ids=["ecn_red", "ecn_red_idle"],
)
def test_red_marking_gives_ns2s_trace(tmp_path, script, outputs):
    got = in_both(tmp_path, SCRIPTS / script, outputs)
    assert got["ternsim"] == got["ns"]


@needs_ns
@pytest.mark.parametrize("sender,sink", SENDERS, ids=lambda s: s)
def test_error_model_marking_gives_ns2s_trace(tmp_path, sender, sink):
    script = tmp_path / "marked.tcl"
    script.write_text(MARKED % (sender, sink))
    got = in_both(tmp_path, script, ("all.tr",))
    assert "----E-N" in got["ns"][0]
    assert got["ternsim"] == got["ns"]


@pytest.mark.parametrize(
    "extra,line,message",
    [
        (
            "$tcp set ecn_ 1\n",
            26,
            "Agent/TCP/Vegas ecn_ 1 (ECN): not supported; ECN is supported for Agent/TCP",
        ),
        (
            "set udp [new Agent/UDP]\n$ns attach-agent $n0 $udp\n$udp set fid_ 7\n"
            "set null [new Agent/Null]\n$ns attach-agent $n2 $null\n$ns connect $udp $null\n"
            "set cbr [new Application/Traffic/CBR]\n$cbr attach-agent $udp\n"
            '$ns at 0.2 "$cbr start"\n',
            34,
            "ErrorModel markecn_ true on packets other than TCP's: not supported",
        ),
    ],
)
def test_what_is_not_modelled_is_refused_before_the_run(tmp_path, extra, line, message):
    """Refused at `$ns run` (line `line`), before anything runs: ECN for Vegas, and marking
    packets ternsim cannot mark (a CBR flow bound to the marking model)."""
    sender = "TCP" if "Agent/UDP" in extra else "TCP/Vegas"
    text = (MARKED % (sender, "TCPSink")).replace("$tcp set ecn_ 1\n", "")
    text = text.replace('$ns at 0.1 "$ftp start"\n', '$ns at 0.1 "$ftp start"\n' + extra)
    script = tmp_path / "s.tcl"
    script.write_text(text)
    proc = ternsim(tmp_path, script)
    assert proc.returncode == 2, proc.stderr
    assert f"s.tcl:{line}: " in proc.stderr, proc.stderr
    assert message in proc.stderr, proc.stderr


@needs_ns
def test_a_queue_monitor_counts_marked_departures_as_ns2(tmp_path):
    """`pmarks_` counts the packets that leave the queue with CE and ECT set (ns-2
    `QueueMonitor::out`); `$qm reset` (ns-queue.tcl) leaves it as it is."""
    text = (SCRIPTS / "ecn_red.tcl").read_text()
    report = '{puts "[$qm set pmarks_] [$qm set pdepartures_] [$qm set pdrops_]"}'
    text = text.replace(
        '$ns at 6.0 "finish"',
        "set qm [$ns monitor-queue $r1 $r2 [open qm.tr w]]\n"
        f"$ns at 3.0 {report}\n"
        '$ns at 4.0 "$qm reset"\n'
        f"$ns at 5.9 {report}\n"
        '$ns at 6.0 "finish"',
    )
    script = tmp_path / "qm.tcl"
    script.write_text(text)
    outs = []
    for program in ([NS], [sys.executable, "-m", "ternsim", "ns2"]):
        folder = tmp_path / program[0].replace("/", "_")
        folder.mkdir()
        proc = run(folder, program, script)
        assert proc.returncode == 0, proc.stderr
        outs.append(proc.stdout)
    assert outs[1] == outs[0]
    first, second = (int(line.split()[0]) for line in outs[1].splitlines())
    assert 0 < first < second
