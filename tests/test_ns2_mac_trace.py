"""The MAC lines of the wireless trace (ns-2 `-macTrace ON`): every frame the 802.11 MAC sends
(`s`), acts on (`r`) or drops (`D`), in ns-2's layout (`trace/cmu-trace.cc` `format_mac`:
`[duration ra ta type]` in hex), against hand-worked sizes and against ns-2.35 itself."""

from __future__ import annotations

import collections
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).parent / "ns2_scripts" / "mac_trace.tcl"
NS = shutil.which("ns")


def _trace(cmd: list[str], mactrace: str, workdir: Path) -> list[str]:
    workdir.mkdir(parents=True, exist_ok=True)
    p = subprocess.run(
        [*cmd, str(SCRIPT), mactrace], cwd=workdir, capture_output=True, text=True, timeout=120
    )
    assert p.returncode == 0, p.stderr
    return (workdir / "out.tr").read_text().splitlines()


def _ternsim(mactrace: str, workdir: Path) -> list[str]:
    return _trace([sys.executable, "-m", "ternsim", "ns2"], mactrace, workdir)


def _mac(lines: list[str]) -> list[list[str]]:
    return [f.split() for f in lines if f.split()[3:4] == ["MAC"]]


def test_mac_lines_follow_ns2s_layout_and_sizes(tmp_path):
    """Control frames: RTS 20 + 24 octets of PLCP = 44, CTS and ACK 14 + 24 = 38, no IP
    part; DATA on the air: the IP packet + 58 octets (ns-2.35's 802.11 header, FCS and PLCP),
    passed up at the IP size. Every CBR packet the MAC passes up at node 1 reaches the agent
    (same uid), and every RTS that got its CTS is followed by one DATA."""
    mac = _mac(_ternsim("ON", tmp_path))
    kinds = collections.Counter((f[0], f[6]) for f in mac)
    assert kinds[("s", "cbr")] > 90  # 98 packets from 0.1 s to 5 s, every 50 ms
    for f in mac:
        if f[6] in ("RTS", "CTS", "ACK"):
            assert f[7] == {"RTS": "44", "CTS": "38", "ACK": "38"}[f[6]]
            assert len(f) == 12, f  # ... [duration ra ta 0], nothing after
            assert f[11] == "0]"
        if f[6] == "cbr":
            rtr = 512 + 20  # the CBR payload and its IP header, as RTR lines print it
            assert int(f[7]) == (rtr + 58 if f[0] == "s" else rtr), f
            assert f[11] == "800]"
    # One CTS per RTS answered, one unicast DATA frame (CBR, AODV's reply, ARP's reply) per
    # CTS received: no other station, no losses.
    unicast = [f for f in mac if f[0] == "s" and f[6] not in ("RTS", "CTS", "ACK")]
    unicast = [f for f in unicast if f[9] != "ffffffff"]
    assert kinds[("s", "CTS")] == kinds[("r", "CTS")] == len(unicast) == kinds[("s", "RTS")]
    received = [f.split() for f in _ternsim("ON", tmp_path / "again") if " AGT " in f]
    received = [f for f in received if f[0] == "r"]
    passed_up = {f[5] for f in mac if f[0] == "r" and f[6] == "cbr"}
    assert passed_up == {f[5] for f in received}
    # The agent's line counts the IP header AODV added at the source, as ns-2's does.
    assert {f[7] for f in received} == {"532"}


def test_mac_lines_are_written_only_when_asked_and_change_nothing_else(tmp_path):
    on = _ternsim("ON", tmp_path / "on")
    off = _ternsim("OFF", tmp_path / "off")
    assert _mac(on) and not _mac(off)
    assert [line for line in on if " MAC " not in line] == off


@pytest.mark.skipif(NS is None, reason="ns-2 (`ns`) is not installed: apt-get install ns2")
def test_mac_line_counts_agree_with_ns2(tmp_path):
    """The same script under `ns`: the same kinds of lines at every layer (event, layer,
    reason, type, size), as many of each within 3 % (the backoffs are random in both; ns-2
    also sends the CBR packet due at 5 s, its timer 0.1 + 98 x 0.05 s adding up to just under
    the end), and the same layout per kind of MAC line (field count, size)."""
    ours_all = _trace([sys.executable, "-m", "ternsim", "ns2"], "ON", tmp_path / "t")
    theirs_all = _trace([NS], "ON", tmp_path / "ns")

    def kinds(lines):
        rows = [f.split() for f in lines]
        return collections.Counter(tuple(f[i] for i in (0, 3, 4, 6, 7)) for f in rows if len(f) > 7)

    a, b = kinds(ours_all), kinds(theirs_all)
    assert set(a) == set(b)
    for k in b:
        assert abs(a[k] - b[k]) <= max(2, 0.03 * b[k]), (k, a[k], b[k])
    ours, theirs = _mac(ours_all), _mac(theirs_all)

    def count(rows):
        return collections.Counter((f[0], f[4], f[6]) for f in rows)

    a, b = count(ours), count(theirs)
    assert set(a) == set(b)
    for k in b:
        assert abs(a[k] - b[k]) <= max(2, 0.03 * b[k]), (k, a[k], b[k])

    def layout(rows):
        return {(f[0], f[6]): (len(f), f[7]) for f in rows}

    assert layout(ours) == layout(theirs)
