"""pcap and ns-2 trace export through the Python API and the ``ternsim run`` command. The pcap
is checked with tshark when it is installed (Debian package ``tshark``)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

import ternsim
from ternsim import ScenarioError
from ternsim.paths import SCENARIOS

LOSSY = SCENARIOS / "examples" / "lossy_path.toml"
SHORT = {"duration": "20s", "traces.acks": True}


def tshark_count(pcap: Path, display_filter: str) -> int:
    args = ["tshark", "-n", "-r", str(pcap), "-Y", display_filter]
    args += ["-T", "fields", "-e", "frame.number"]
    out = subprocess.run(args, capture_output=True, text=True, check=True)
    return len([line for line in out.stdout.splitlines() if line])


def test_run_returns_a_pcap_of_the_flow(tmp_path):
    r = ternsim.run(LOSSY, overrides=SHORT, pcap="bulk")
    assert r.pcap is not None and r.ns2_trace is None
    assert r.pcap[:4] == bytes.fromhex("4d3cb2a1")  # nanosecond magic, little-endian
    flow = r.summary["flows"][0]
    # 24-byte header, then one record per data segment sent and ACK received.
    frames, at = 0, 24
    while at < len(r.pcap):
        incl = int.from_bytes(r.pcap[at + 8 : at + 12], "little")
        at += 16 + incl
        frames += 1
    assert at == len(r.pcap)
    assert frames == flow["segments_sent"] + len(r.traces["acks"])
    if shutil.which("tshark") is None:
        pytest.skip("tshark not installed (Debian package `tshark`): pcap not analysed")
    path = r.write_pcap(tmp_path / "bulk.pcap")
    assert tshark_count(path, "_ws.malformed || _ws.expert.severity >= warning") == 0
    retx = tshark_count(path, "tcp.analysis.retransmission || tcp.analysis.out_of_order")
    assert retx == flow["retransmitted_segments"] > 0
    assert tshark_count(path, "tcp.analysis.duplicate_ack") == flow["dup_acks_received"]


def test_an_unknown_pcap_target_is_refused_before_the_run():
    with pytest.raises(ScenarioError, match="no flow or node named"):
        ternsim.run(LOSSY, overrides=SHORT, pcap="nope")


def test_cli_writes_pcap_and_ns2_trace(cli, tmp_path):
    proc = cli("run", LOSSY, "--set", "duration=5s", "--pcap", "node:sender", "--ns2-trace", "t.tr")
    assert proc.returncode == 0, proc.stderr
    pcap = (tmp_path / "sender.pcap").read_bytes()
    assert len(pcap) > 24
    lines = (tmp_path / "t.tr").read_text().splitlines()
    assert lines and all(len(line.split()) == 12 for line in lines)
    assert {line[0] for line in lines} == {"+", "-", "r", "d"}
