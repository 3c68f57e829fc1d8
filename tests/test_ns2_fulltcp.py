"""ns-2's two-way TCP (``Agent/TCP/FullTcp``, ``/Tahoe``, ``/Newreno``) under ``ternsim ns2``:
the handshake worked by hand, whole scripts compared with ``ns`` byte for byte where ns-2 is
installed, and what ternsim does not model refused before the run."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).parent / "ns2_scripts"
NS = shutil.which("ns")

TWO_NODES = """set ns [new Simulator]
Trace set show_tcphdr_ 1
set tf [open out.tr w]
$ns trace-all $tf
set n0 [$ns node]
set n1 [$ns node]
$ns duplex-link $n0 $n1 1Mb 10ms DropTail
set tcp [new Agent/TCP/FullTcp]
set sink [new Agent/TCP/FullTcp]
$ns attach-agent $n0 $tcp
$ns attach-agent $n1 $sink
$ns connect $tcp $sink
"""

FINISH = """set ftp [$tcp attach-app FTP]
$ns at 0.1 "$ftp start"
proc finish {} { global ns tf; $ns flush-trace; close $tf; exit 0 }
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


def test_the_handshake_and_first_window_worked_by_hand(tmp_path):
    """The SYN (40 bytes: 0.32 ms at 1 Mb/s, plus 10 ms) leaves at 0.1 s with PUSH (0xa:
    ns-2's dataless SYN of an infinite send) and ackno -1; the listener's SYN+ACK is an `ack`
    packet (`listen` makes its packets acks), 0x1a, acknowledging byte 1. At 0.12064 s the
    opener sends ns-2's pure ACK of the handshake (seq 1, 0x10), then windowInit_ 2 segments
    of segsize_ 536 bytes (576 on the wire) at bytes 1 and 537."""
    script = tmp_path / "hs.tcl"
    script.write_text(TWO_NODES + "$sink listen\n" + FINISH % 0.125)
    proc = ternsim_ns2(tmp_path, script)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "out.tr").read_text().splitlines() == [
        "+ 0.1 0 1 tcp 40 ------- 0 0.0 1.0 0 0 -1 0xa 40 0",
        "- 0.1 0 1 tcp 40 ------- 0 0.0 1.0 0 0 -1 0xa 40 0",
        "r 0.11032 0 1 tcp 40 ------- 0 0.0 1.0 0 0 -1 0xa 40 0",
        "+ 0.11032 1 0 ack 40 ------- 0 1.0 0.0 0 1 1 0x1a 40 0",
        "- 0.11032 1 0 ack 40 ------- 0 1.0 0.0 0 1 1 0x1a 40 0",
        "r 0.12064 1 0 ack 40 ------- 0 1.0 0.0 0 1 1 0x1a 40 0",
        "+ 0.12064 0 1 tcp 40 ------- 0 0.0 1.0 1 2 1 0x10 40 0",
        "- 0.12064 0 1 tcp 40 ------- 0 0.0 1.0 1 2 1 0x10 40 0",
        "+ 0.12064 0 1 tcp 576 ------- 0 0.0 1.0 1 3 1 0x10 40 0",
        "+ 0.12064 0 1 tcp 576 ------- 0 0.0 1.0 537 4 1 0x10 40 0",
        "- 0.12096 0 1 tcp 576 ------- 0 0.0 1.0 1 3 1 0x10 40 0",
    ]


def test_the_listeners_own_fid_marks_its_segments(tmp_path):
    """A listener with its own fid_ stamps it on its segments (ns-2 takes the SYN's flow id
    only when the listener's is 0)."""
    script = tmp_path / "fid.tcl"
    text = TWO_NODES + "$sink listen\n$tcp set fid_ 3\n$sink set fid_ 5\n" + FINISH % 0.125
    script.write_text(text)
    proc = ternsim_ns2(tmp_path, script)
    assert proc.returncode == 0, proc.stderr
    lines = (tmp_path / "out.tr").read_text().splitlines()
    assert lines[0].split()[7] == "3"
    assert lines[3] == "+ 0.11032 1 0 ack 40 ------- 5 1.0 0.0 0 1 1 0x1a 40 0"


@pytest.mark.skipif(NS is None, reason="ns-2 (`ns`) is not installed")
@pytest.mark.parametrize("name", ["fulltcp_two_flows", "fulltcp_phase"])
def test_fulltcp_scripts_give_ns2s_trace_byte_for_byte(tmp_path, name):
    script = SCRIPTS / f"{name}.tcl"
    got = {}
    for who in ("ns", "ternsim"):
        folder = tmp_path / who
        folder.mkdir()
        if who == "ns":
            proc = subprocess.run(
                [NS, str(script)], cwd=folder, capture_output=True, text=True, timeout=300
            )
        else:
            proc = ternsim_ns2(folder, script)
        assert proc.returncode == 0, proc.stderr
        got[who] = (folder / "out.tr").read_text()
    assert len(got["ns"].splitlines()) > 10_000
    assert got["ternsim"] == got["ns"]


@pytest.mark.parametrize(
    "body,message",
    [
        (
            '$sink listen\n$ns at 0.5 "$tcp close"\n$ns at 0.7 "$tcp advance-bytes 100"',
            "after a close (reopening a FullTcp connection): not supported",
        ),
        (
            '$sink listen\n$ns at 0.05 "$sink advance-bytes 100"',
            "a listening FullTcp agent that sends before its peer opens the connection",
        ),
        ("$sink listen\n$tcp listen", "has no connection ternsim can open (both ends listen"),
        # ECN is modelled (ecn_, ecn_syn_, ecn_syn_wait_; old_ecn_, which ns-2's FullTcp
        # never reads, is accepted) and so is timestamps_; the traced variables but cwnd_
        # are not.
        (
            "$sink listen\n$tcp trace ssthresh_",
            "trace ssthresh_ of a FullTcp agent: not supported",
        ),
        (
            "$sink listen\n$tcp set signal_on_empty_ true",
            "signal_on_empty_ 1 (the done_data callback)",
        ),
        ("$sink listen\n$tcp set pipectrl_ true", "pipectrl_ 1 (pipe-style send control)"),
        (
            "$sink listen\nAgent/TCP/FullTcp instproc done {} { puts done }",
            "a `done` instproc of Agent/TCP/FullTcp",
        ),
    ],
)
def test_what_fulltcp_does_not_model_stops_before_the_run(tmp_path, body, message):
    script = tmp_path / "bad.tcl"
    script.write_text(TWO_NODES + body + "\n" + FINISH % 1.0)
    proc = ternsim_ns2(tmp_path, script)
    assert proc.returncode == 2, proc.stderr
    assert message in proc.stderr
    assert "bad.tcl:" in proc.stderr
    assert not (tmp_path / "out.tr").exists()


def test_fulltcp_sack_variables_other_than_ns2s_defaults_are_refused(tmp_path):
    script = tmp_path / "sack.tcl"
    text = TWO_NODES.replace("TCP/FullTcp]", "TCP/FullTcp/Sack]")
    script.write_text(text + "$sink listen\n$tcp set max_sack_blocks_ 4\n" + FINISH % 1.0)
    proc = ternsim_ns2(tmp_path, script)
    assert proc.returncode == 2
    assert "max_sack_blocks_ 4 (another number of SACK blocks): not supported" in proc.stderr


@pytest.mark.skipif(NS is None, reason="ns-2 (`ns`) is not installed")
def test_a_fulltcp_senders_variables_read_mid_run_are_ns2s(tmp_path):
    script = SCRIPTS / "fulltcp_vars.tcl"
    ns = subprocess.run([NS, str(script)], cwd=tmp_path, capture_output=True, text=True)
    ours = ternsim_ns2(tmp_path, script)
    assert ours.returncode == 0, ours.stderr
    assert len(ns.stdout.splitlines()) == 3
    assert ours.stdout == ns.stdout


def test_the_listeners_state_is_not_reported(tmp_path):
    script = tmp_path / "sinkvar.tcl"
    body = "$sink listen\n$ns at 0.5 {puts [$sink set cwnd_]}"
    script.write_text(TWO_NODES + body + "\n" + FINISH % 1.0)
    proc = ternsim_ns2(tmp_path, script)
    assert proc.returncode == 2
    assert "cwnd_ during or after the run: not available" in proc.stderr


@pytest.mark.skipif(NS is None, reason="ns-2 (`ns`) is not installed")
def test_fulltcp_in_the_nam_trace_is_ns2s(tmp_path):
    script = SCRIPTS / "fulltcp_nam.tcl"
    got = {}
    for who in ("ns", "ternsim"):
        folder = tmp_path / who
        folder.mkdir()
        if who == "ns":
            proc = subprocess.run([NS, str(script)], cwd=folder, capture_output=True, text=True)
        else:
            proc = ternsim_ns2(folder, script)
        assert proc.returncode == 0, proc.stderr
        got[who] = ((folder / "out.tr").read_text(), (folder / "out.nam").read_text())
    assert len(got["ns"][1].splitlines()) > 600
    assert got["ternsim"] == got["ns"]


def _fulltcp_scenario(**flow: object) -> dict:
    return {
        "name": "fulltcp",
        "duration": "3s",
        "nodes": [{"name": "a"}, {"name": "b"}],
        "links": [{"name": "ab", "a": "a", "b": "b", "rate": "1Mbps", "delay": "10ms"}],
        "flows": [
            {
                "name": "f",
                "src": "a",
                "dst": "b",
                "start": "0.1s",
                "transport": "fulltcp",
                "tcp": "reno",
                **flow,
            }
        ],
    }


def test_a_fulltcp_scenario_delivers_what_it_sends_and_closes():
    """A scenario of its own (no ns-2 script): 10 segments of 536 bytes, then 1000 bytes
    more at 1 s, a close at 2 s; everything arrives in order once."""
    import ternsim

    scenario = _fulltcp_scenario(
        bytes="5360B",
        full_tcp={"actions": [{"at": "1s", "bytes": "1000B"}, {"at": "2s", "close": True}]},
    )
    flows = ternsim.run(scenario).flows
    assert flows.loc[0, "transport"] == "fulltcp"
    assert flows.loc[0, "delivered_bytes"] == 6360
    assert flows.loc[0, "retransmitted_segments"] == 0


@pytest.mark.parametrize(
    "flow,message",
    [
        ({"stop": "1s"}, "a FullTcp flow stops by closing"),
        ({"tcp": "vegas"}, "unknown FullTcp variant `vegas`"),
        ({"options": {"ts_reset_rto": True}}, "not read by a FullTcp agent"),
        (
            {"full_tcp": {"actions": [{"at": "1s", "bytes": "1B", "close": True}]}},
            "either sends `bytes` or closes",
        ),
        (
            {"full_tcp": {"actions": [{"at": "1s", "eof": True}]}},
            "`eof` closes after `bytes`",
        ),
    ],
)
def test_a_fulltcp_scenario_refuses_what_it_cannot_mean(flow, message):
    import ternsim

    with pytest.raises(Exception, match=message):
        ternsim.run(_fulltcp_scenario(**flow))


@pytest.mark.skipif(
    not Path("/usr/share/doc/ns2/examples/tcl/test/test-suite-ecn-ack.tcl").exists()
    or shutil.which("ns") is None,
    reason="ns-2 or its validation suites are not installed",
)
def test_a_traced_fulltcp_cwnd_is_ns2s(tmp_path):
    """`$tcp trace cwnd_` on a FullTcp/Sack opener with ECN (ecn-ack's `ecn_ack_fulltcp`,
    whose misc_simple.tcl traces it into all.cwnd, which the validation does not compare):
    the 382 lines ns-2.35 writes, byte for byte."""
    folder = Path("/usr/share/doc/ns2/examples/tcl/test")
    for f in folder.iterdir():
        if f.suffix == ".tcl" and f.is_file():
            shutil.copy(f, tmp_path / f.name)
    got = {}
    for who, cmd in (("ns", ["ns"]), ("ternsim", [sys.executable, "-m", "ternsim", "ns2"])):
        subprocess.run(
            [*cmd, "test-suite-ecn-ack.tcl", "ecn_ack_fulltcp", "QUIET"],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        got[who] = (tmp_path / "all.cwnd").read_text()
        (tmp_path / "all.cwnd").unlink()
    assert len(got["ns"].splitlines()) > 300
    assert got["ternsim"] == got["ns"]
