"""ns-2's general AIMD and binomial controls of the one-way TCP agents (`increase_num_`,
`decrease_num_`, `windowOption_` 6 with `k_parameter_` and `l_parameter_`,
`precisionReduce_`): tests/ns2_scripts/aimd_binomial.tcl under ``ns`` and ``ternsim ns2``
gives the same packet trace and the same traced cwnd_ and ssthresh_, byte for byte; the
values ternsim does not model are refused before the run with the reason."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).parent / "ns2_scripts"
NS = shutil.which("ns")

AGENTS = [
    ("TCP", "TCPSink"),
    ("TCP/Reno", "TCPSink"),
    ("TCP/Newreno", "TCPSink"),
    ("TCP/Sack1", "TCPSink/Sack1"),
]


def _run(cmd: list[str], folder: Path, args: list[str]) -> tuple[int, str, str]:
    folder.mkdir()
    proc = subprocess.run(
        [*cmd, str(SCRIPTS / "aimd_binomial.tcl"), *args],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert (folder / "out.tr").exists(), proc.stderr
    return proc.returncode, (folder / "out.tr").read_text(), (folder / "vars.tr").read_text()


@pytest.mark.skipif(NS is None, reason="ns-2 (`ns`) is not installed")
@pytest.mark.parametrize("mode", ["aimd", "precise", "sqrt", "iiad"])
@pytest.mark.parametrize("agent,sink", AGENTS, ids=[a for a, _ in AGENTS])
def test_aimd_and_binomial_controls_match_ns(tmp_path, agent, sink, mode):
    """Queue overflows and an outage (fast retransmits, timeouts, later cuts by
    `decrease_num_`) for each agent and setting: ns-2's trace and cwnd_/ssthresh_ lines."""
    args = [agent, sink, mode]
    ns = _run([str(NS)], tmp_path / "ns", args)
    ts = _run([sys.executable, "-m", "ternsim", "ns2"], tmp_path / "ternsim", args)
    assert ns[0] == ts[0] == 0
    assert ns[1].count("\nd ") > 10  # losses to react to
    assert ts[1] == ns[1]
    assert ts[2] == ns[2]


HEAD = """set ns [new Simulator]
set n0 [$ns node]
set n1 [$ns node]
$ns duplex-link $n0 $n1 1Mb 10ms DropTail
"""

TAIL = """$ns attach-agent $n0 $tcp
set sink [new Agent/{sink}]
$ns attach-agent $n1 $sink
$ns connect $tcp $sink
set ftp [$tcp attach-app FTP]
$ns at 0.1 "$ftp start"
$ns at 1 "exit 0"
$ns run
"""

REFUSED = [
    (
        "set tcp [new Agent/TCP/Vegas]\n$tcp set decrease_num_ 0.75\n",
        "TCPSink",
        "Agent/TCP/Vegas decrease_num_ 0.75 (another decrease factor): not supported; "
        "supported: decrease_num_ 0.5 (ns-2.35's default); another value for Agent/TCP, "
        "/Reno, /Newreno and /Sack1",
    ),
    (
        "Agent/TCP set increase_num_ 0.5\nset tcp [new Agent/TCP/Fack]\n",
        "TCPSink/Sack1",
        "Agent/TCP/Fack increase_num_ 0.5 (another increase per RTT): not supported",
    ),
    (
        "set tcp [new Agent/TCP/Reno]\n$tcp set windowOption_ 2\n",
        "TCPSink",
        "Agent/TCP/Reno windowOption_ 2 (another congestion-avoidance increase rule): not "
        "supported; supported: windowOption_ 1 (ns-2.35's default) and 6 (binomial controls)",
    ),
    (
        "set tcp [new Agent/TCP/Sack1]\n$tcp set decrease_num_ 1.5\n",
        "TCPSink/Sack1",
        "flows.0.options.decrease_num`: allowed: a number > 0 and <= 1",
    ),
    (
        "set tcp [new Agent/TCP/Sack1]\n$tcp set windowOption_ 6\n$tcp set l_parameter_ 2\n",
        "TCPSink/Sack1",
        "flows.0.options.binomial_l`: allowed: a number from 0 to 1",
    ),
    (
        "set tcp [new Agent/TCP]\n$tcp set QOption_ 1\n$tcp set decrease_num_ 0.75\n",
        "TCPSink",
        "with qoption: allowed only 0.5 and window_option 1",
    ),
]


@pytest.mark.parametrize("body,sink,message", REFUSED, ids=lambda x: str(x)[:30])
def test_what_ternsim_does_not_model_is_refused_before_the_run(tmp_path, body, sink, message):
    (tmp_path / "s.tcl").write_text(HEAD + body + TAIL.replace("{sink}", sink))
    proc = subprocess.run(
        [sys.executable, "-m", "ternsim", "ns2", "s.tcl"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2
    assert message in proc.stderr, proc.stderr


def test_binomial_parameters_without_window_option_6_are_ignored_as_ns2_does(tmp_path):
    """ns-2 reads `k_parameter_` and `l_parameter_` only with `windowOption_` 6."""
    body = "set tcp [new Agent/TCP/Reno]\n$tcp set k_parameter_ 7\n$tcp set l_parameter_ 3\n"
    (tmp_path / "s.tcl").write_text(HEAD + body + TAIL.replace("{sink}", "TCPSink"))
    proc = subprocess.run(
        [sys.executable, "-m", "ternsim", "ns2", "s.tcl"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
