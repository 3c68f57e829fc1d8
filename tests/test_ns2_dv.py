"""`$ns rtproto DV` under `ternsim ns2`: ns-2.35's distance-vector routing on wired nodes,
its updates on the links (`rtProtoDV` packets) and its routes after `rtmodel-at` down and
up. Greis's tutorial example3 against ns-2.35's own reference nam file; the route of
rtproto_dv.tcl's TCP flow as its trace shows it (ns-2's trace of the same script is compared
line for line in tests/test_ns2_vs_ns.py)."""

from __future__ import annotations

import gzip
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

TESTS = Path("/usr/share/doc/ns2/examples/tcl/test")
GREIS = TESTS / "test-suite-greis.tcl"
REFERENCE = TESTS / "test-output-greis" / "example3.gz"
SCRIPTS = Path(__file__).parent / "ns2_scripts"


def run_ns2(cwd: Path, *args: str) -> None:
    p = subprocess.run(
        [sys.executable, "-m", "ternsim", "ns2", *args],
        cwd=cwd, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert p.returncode == 0, p.stderr


@pytest.mark.skipif(not REFERENCE.exists(), reason="ns-2's examples are not installed")
def test_greis_example3_gives_ns2s_nam_trace(tmp_path):
    """Seven nodes in a ring, CBR from 0 to 3, the 1-2 link down from 1 s to 2 s: the DV
    updates (first at ns-2's rtglibRNG draws, then triggered and periodic), the CBR
    packets lost while DV reconverges, the detour through 6, 5, 4 and the way back: ns-2's
    reference nam file byte for byte."""
    script = tmp_path / GREIS.name
    shutil.copy(GREIS, script)
    run_ns2(tmp_path, script.name, "example3", "QUIET")
    ours = (tmp_path / "temp.rands").read_text()
    with gzip.open(REFERENCE, "rt") as f:
        ref = f.read()
    updates = [x for x in ref.splitlines() if x.startswith("+ ") and "rtProtoDV" in x]
    assert len(updates) == 129
    assert ours == ref


def test_dv_moves_the_route_round_a_downed_link_and_back(tmp_path):
    """rtproto_dv.tcl: the TCP flow 0 -> 2 crosses 1 -> 2 until the link goes down at 1 s;
    once DV has heard of the detour its segments take 1 -> 3 -> 4 -> 2, and after the link
    is up again at 1.5 s they are back on 1 -> 2. DV's own updates are on every link."""
    shutil.copy(SCRIPTS / "rtproto_dv.tcl", tmp_path)
    run_ns2(tmp_path, "rtproto_dv.tcl")
    lines = [x.split() for x in (tmp_path / "out.tr").read_text().splitlines()]
    tcp_hops = [(float(f[1]), f[2], f[3]) for f in lines if f[0] == "+" and f[4] == "tcp"]

    def hops(t0: float, t1: float) -> set[tuple[str, str]]:
        return {(a, b) for t, a, b in tcp_hops if t0 <= t < t1 and a != "0"}

    assert hops(0.5, 1.0) == {("1", "2")}
    assert ("1", "3") in hops(1.0, 1.5) and ("1", "2") not in hops(1.05, 1.5)
    assert hops(1.7, 2.0) == {("1", "2")}
    updates = {(f[2], f[3]) for f in lines if f[0] == "+" and f[4] == "rtProtoDV"}
    assert len(updates) == 10  # both directions of the five links
    # An update is as many bytes as there are nodes, flow id 0, between the nodes' DV
    # agents: on node 0 after its TCP agent and its Agent/rtProto/Direct (port 2), on node 1
    # after its Direct only (port 1).
    first = next(f for f in lines if f[4] == "rtProtoDV")
    assert first[1:] == [
        "0.00017",
        "0",
        "1",
        "rtProtoDV",
        "5",
        "-------",
        "0",
        "0.2",
        "1.1",
        "-1",
        "0",
    ]
