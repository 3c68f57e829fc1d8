"""ns-2's new wireless trace format (`$ns use-newtrace`; trace/cmu-trace.cc, the `newtrace_`
branches of `format_mac_common`, `format_mac`, `format_ip`, `format_arp`, `format_tcp`,
`format_rtp`, `format_aodv` and `format_dsr`) on ns-2's own example
`ex/wireless-shadowing-test.tcl` (two nodes, DSDV, CBR, MAC trace on: DSDV broadcasts, CBR
data, ARP, RTS/CTS/ACK, drops) and its AODV and DSR variants."""

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


def _run(cmd: list[str], folder: Path, newtrace: bool, text: str | None = None) -> list[str]:
    """The script's trace (shadowing.tr), with or without its `use-newtrace` line."""
    folder.mkdir(parents=True, exist_ok=True)
    text = SCRIPT.read_text() if text is None else text
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


def _routed(routing: str, text: str) -> str:
    """The example with `routing` (AODV or DSR, DSR over its CMUPriQueue), its agent and
    router traces on, 400 s."""
    text = text.replace("set opt(adhocRouting)   DSDV", f"set opt(adhocRouting)   {routing}")
    if routing == "DSR":
        text = text.replace("set opt(ifq)\tQueue/DropTail/PriQueue", "set opt(ifq) CMUPriQueue")
    text = text.replace("-agentTrace OFF", "-agentTrace ON")
    text = text.replace("-routerTrace OFF", "-routerTrace ON")
    return text.replace("set opt(stop)\t\t2000.0", "set opt(stop) 400.0")


def _classes(lines: list[str]) -> dict[tuple[str, ...], set[str]]:
    """Each kind of packet line (event, layer, packet type, AODV message or DSR request
    flag) with the next hops (-Hd) it prints."""
    out: dict[tuple[str, ...], set[str]] = {}
    for line in lines:
        if line[:2] not in ("s ", "r ", "f ", "d "):
            continue  # DSR's own log lines and movement lines are the same in both formats
        f = _fields(line)
        kind = (line[0], f["-Nl"], f.get("-It", "-"), f.get("-Pc", "") + f.get("-Pq", ""))
        out.setdefault(kind, set()).add(f["-Hd"])
    return out


@pytest.mark.skipif(NS is None, reason="ns-2 (`ns`) is not installed")
@pytest.mark.parametrize("routing", ["AODV", "DSR"])
def test_aodv_and_dsr_messages_in_the_new_format(tmp_path, routing):
    """The AODV and DSR variants of the example, agent and router traces on: ns-2's old
    lines (route requests, replies, errors, DSR's source-route header) become its new lines
    byte for byte (`-P aodv -Pt ... -Pc REQUEST`, `-P dsr -Ph ... -Pb a->b`); and ternsim's
    own run prints, for every kind of line both runs have, the next hops ns-2 prints: -2 on
    an AODV route request at every layer (ns-2's AODV never sets it), -1 on a DSR route
    request received by broadcast, -2 on a packet its own node hands to routing."""
    text = _routed(routing, SCRIPT.read_text())
    old = _run([NS], tmp_path / "old", newtrace=False, text=text)
    new = _run([NS], tmp_path / "new", newtrace=True, text=text)
    assert len(old) == len(new) > 1000
    messages = 0
    for o, n in zip(old, new, strict=True):
        if n[:2] not in ("s ", "r ", "f ", "d "):
            assert o == n
            continue
        f = _fields(n)
        flow = 0 if f.get("-It") == "cbr" else -1
        suffix = f" |NT {f['-Hd']} {f['-Nx']} {f['-Ny']} {flow}"
        assert _newtrace_line(o.rstrip() + suffix, ["0"]) == n
        messages += f" -P {routing.lower()} " in n
    assert messages >= 4

    ours = _run([sys.executable, "-m", "ternsim", "ns2"], tmp_path / "t", True, text=text)
    theirs, mine = _classes(new), _classes(ours)
    shared = set(theirs) & set(mine)
    assert any(k[2] == routing for k in shared) and any(k[2] == "cbr" for k in shared)
    for kind in shared:
        assert mine[kind] == theirs[kind], kind
    if routing == "AODV":
        assert mine[("s", "MAC", "AODV", "REQUEST")] == {"-2"}
    else:
        assert mine[("r", "RTR", "DSR", "01")] == {"-1"}
    assert "-2" in mine[("r", "RTR", "cbr", "")]


def test_use_newtrace_is_refused_where_it_is_not_modelled(tmp_path):
    """The new format with hierarchical addresses (a wired-cum-wireless script) is not
    written: such a script is refused before the run."""
    script = Path(__file__).parents[1] / "scenarios" / "conformance" / "basestation.tcl"
    text = script.read_text().replace(
        "set ns [new Simulator]", "set ns [new Simulator]\n$ns use-newtrace"
    )
    (tmp_path / "s.tcl").write_text(text)
    p = subprocess.run(
        [sys.executable, "-m", "ternsim", "ns2", "s.tcl", "Newreno", "1", "3", "10", "1"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert p.returncode == 2, p.stderr
    assert "use-newtrace with hierarchical addresses: not supported" in p.stderr
    assert list(tmp_path.iterdir()) == [tmp_path / "s.tcl"]
