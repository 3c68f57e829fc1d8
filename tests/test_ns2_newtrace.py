"""ns-2's new wireless trace format (`$ns use-newtrace`; trace/cmu-trace.cc, the `newtrace_`
branches of `format_mac_common`, `format_mac`, `format_ip`, `format_arp`, `format_tcp` and
`format_rtp`) on ns-2's own example `ex/wireless-shadowing-test.tcl` (two nodes, DSDV, CBR,
MAC trace on: DSDV broadcasts, CBR data, ARP, RTS/CTS/ACK, drops)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ternsim.ns2.scenario import _newtrace_line

SCRIPT = Path("/usr/share/doc/ns2/examples/tcl/ex/wireless-shadowing-test.tcl")
NS = shutil.which("ns")

pytestmark = pytest.mark.skipif(not SCRIPT.exists(), reason="ns-2's examples are not installed")


def _run(cmd: list[str], folder: Path, newtrace: bool) -> list[str]:
    """The script's trace (shadowing.tr), with or without its `use-newtrace` line."""
    folder.mkdir(parents=True, exist_ok=True)
    text = SCRIPT.read_text()
    if not newtrace:
        text = text.replace("$ns_ use-newtrace", "# $ns_ use-newtrace")
    (folder / "s.tcl").write_text(text)
    nam = folder / "bin"
    nam.mkdir(exist_ok=True)
    (nam / "nam").write_text("#!/bin/sh\nexit 0\n")
    (nam / "nam").chmod(0o755)
    env = {"PATH": f"{nam}:/usr/bin:/bin"}
    p = subprocess.run(
        [*cmd, "s.tcl"], cwd=folder, capture_output=True, text=True, timeout=300, env=env
    )
    assert p.returncode == 0, p.stderr
    return (folder / "shadowing.tr").read_text().splitlines()


def _fields(line: str) -> dict[str, str]:
    f = line.split()
    return {f[i]: f[i + 1] for i in range(1, len(f) - 1) if f[i].startswith("-")}


@pytest.mark.skipif(NS is None, reason="ns-2 (`ns`) is not installed")
def test_the_formatter_gives_ns2s_new_lines_from_its_old_ones(tmp_path):
    """ns-2 runs the script twice, in the old and the new format (the same events: the
    format draws no random numbers). Each old line, with the four values the old format
    lacks (-Hd, -Nx, -Ny, the flow) taken from its new line, becomes that new line byte for
    byte: every kind of line of the run (5682 lines)."""
    old = _run([NS], tmp_path / "old", newtrace=False)
    new = _run([NS], tmp_path / "new", newtrace=True)
    assert len(old) == len(new) > 5000
    kinds = set()
    for o, n in zip(old, new, strict=True):
        f = _fields(n)
        flow = 0 if f.get("-It") == "cbr" else -1
        suffix = f" |NT {f['-Hd']} {f['-Nx']} {f['-Ny']} {flow}"
        assert _newtrace_line(o.rstrip() + suffix, ["0"]) == n
        kinds.add((n[0], f["-Nl"], f["-Nw"], f["-Mt"], f.get("-It", f.get("-P"))))
    assert ("d", "RTR", "CBK", "800", "cbr") in kinds
    assert ("s", "MAC", "---", "806", "arp") in kinds
    assert ("r", "MAC", "---", "0", None) in kinds


def test_ternsim_writes_the_new_format_for_the_same_run(tmp_path):
    """ternsim runs the script with and without `use-newtrace`: the same run (same events,
    same order), each line in the new format carrying the old line's time, node, layer,
    reason, uid and size, the node's position (0, 50) or (20, 50), the next hop as ns-2
    prints it (-1 for DSDV's broadcasts, -2 for RTS/CTS/ACK and ARP frames, the receiver
    for CBR data) and the CBR flow's fid_ 0."""
    ternsim = [sys.executable, "-m", "ternsim", "ns2"]
    old = _run(ternsim, tmp_path / "old", newtrace=False)
    new = _run(ternsim, tmp_path / "new", newtrace=True)
    assert len(old) == len(new) > 5000
    for o, n in zip(old, new, strict=True):
        of, f = o.split(), _fields(n)
        assert n[0] == ("d" if of[0] == "D" else of[0])
        assert (f["-t"], f["-Ni"], f["-Hs"], f["-Nl"], f["-Nw"]) == (
            of[1],
            of[2].strip("_"),
            of[2].strip("_"),
            of[3],
            of[4],
        )
        assert (f["-Nx"], f["-Ny"], f["-Nz"], f["-Ne"]) == (
            {"0": "0.00", "1": "20.00"}[f["-Ni"]],
            "50.00",
            "0.00",
            "-1.000000",
        )
        if f["-Mt"] == "800":
            assert (f["-Ii"], f["-Il"], f["-It"]) == (of[5], of[7], of[6])
            hop = {"message": "-1", "cbr": "1"}[f["-It"]]
            assert (f["-Hd"], f["-If"]) == (hop, "0")
        else:
            assert f["-Hd"] == "-2"
        assert n.endswith(" ")
    # The nam trace is written from the same events in both (ns-2's is the same too).
    assert (tmp_path / "old" / "shadowing.nam").read_text() == (
        tmp_path / "new" / "shadowing.nam"
    ).read_text()


def test_use_newtrace_is_refused_where_it_is_not_modelled(tmp_path):
    """AODV's and DSR's own new-format fields are not written: such a script is refused
    before the run, naming the routing protocol."""
    text = SCRIPT.read_text()
    text = text.replace("set opt(adhocRouting)   DSDV", "set opt(adhocRouting)   AODV")
    (tmp_path / "s.tcl").write_text(text)
    p = subprocess.run(
        [sys.executable, "-m", "ternsim", "ns2", "s.tcl"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert p.returncode == 2, p.stderr
    assert "use-newtrace with AODV: not supported" in p.stderr
