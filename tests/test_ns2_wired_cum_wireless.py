"""Wired-cum-wireless scripts without Mobile IP under ``ternsim ns2``: ns-2's wireless
tutorial ``wireless2`` (test-suite-WLtutorial.tcl) and ``ex/wired-cum-wireless-sim.tcl``,
whose mobile nodes reach the wired network through a base station (``$node base-station``),
against ns-2.35's own reference output and, where ``ns`` is installed, ns-2 itself.

The tutorial script: W(0) 0.0.0 - W(1) 0.1.0 - BS 1.0.0 (5 Mb/s, 2 ms), BS at (1, 2) and
three mobile nodes 1.0.1-1.0.3 left at ns-2's default position (0, 0), DSDV, a Tahoe FTP from
node_(0) to W(0) from 160 s to 250 s. Every packet crosses one radio hop and two wired links.
"""

from __future__ import annotations

import gzip
import shutil
import statistics
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from ternsim.ns2 import ScriptRefused, translate_script

EXAMPLES = Path("/usr/share/doc/ns2/examples/tcl")
WL_TUTORIAL = EXAMPLES / "test" / "test-suite-WLtutorial.tcl"
WL_REFERENCE = EXAMPLES / "test" / "test-output-WLtutorial" / "wireless2.gz"
WCW_SIM = EXAMPLES / "ex" / "wired-cum-wireless-sim.tcl"

needs_examples = pytest.mark.skipif(
    not WL_REFERENCE.exists(), reason="ns-2's examples (Debian's ns2-examples) are not installed"
)


def _ternsim_ns2(script: Path, args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    p = subprocess.run(
        [sys.executable, "-m", "ternsim", "ns2", script.name, *args],
        cwd=cwd, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert p.returncode == 0, p.stderr
    return p


def _kinds(lines: list[str]) -> Counter:
    """Lines by kind: wired (event, from, to, type), wireless (event, node, layer, type; a
    drop's reason for its type)."""
    out: Counter = Counter()
    for line in lines:
        f = line.split()
        if line[:2] in ("+ ", "- ", "r ", "d ") and len(f) == 12:
            out[(f[0], f[2], f[3], f[4])] += 1
        elif len(f) > 7 and f[2].startswith("_"):
            out[(f[0], f[2], f[3], f[4] if f[0] == "D" else f[6])] += 1
    return out


def _fields_but_time_and_uid(line: str) -> list[str]:
    f = line.split()
    if len(f) == 12:  # wired: the uid ends the line
        return f[:1] + f[2:11]
    return f[:1] + f[2:5] + f[6:]


@needs_examples
def test_the_tutorials_base_station_script_matches_ns2s_reference_output(tmp_path):
    script = tmp_path / WL_TUTORIAL.name
    shutil.copy(WL_TUTORIAL, script)
    sc = translate_script(script, ["wireless2", "QUIET"])
    assert sc["routing"]["protocol"] == "dsdv"
    assert [n.get("base_station") for n in sc["nodes"]] == [None, None, None, "n2", "n2", "n2"]
    assert [n.get("position") is None for n in sc["nodes"]] == [True, True] + [False] * 4
    _ternsim_ns2(script, ["wireless2", "QUIET"], tmp_path)
    ours = (tmp_path / "temp.rands").read_text().splitlines()
    with gzip.open(WL_REFERENCE, "rt") as f:
        ref = f.read().splitlines()
    # The same kinds of lines, each count within 1 % (802.11 backoffs and DSDV jitter are
    # drawn from other random streams): the host's 7594 segments, ns-2's 7564 ACKs at its
    # agent, both wired links both ways. `$node reset` at the end flushes the base station's
    # queue: what waits there at that instant, 10 ACKs in ns-2 (the window's worth is 20).
    theirs, mine = _kinds(ref), _kinds(ours)
    end = ("D", "_2_", "IFQ", "END")
    assert theirs.pop(end) == 10
    assert 0 < mine.pop(end) <= 20
    # One kind of event ns-2's one reference run happens not to have: DSDV at the base
    # station briefly routes the host through another mobile node (a newer sequence number
    # heard from it first, as DSDV allows), which the base station has never ARPed. Its ARP
    # requests wait in the busy interface queue, as ns-2's do, and three packets for that
    # hop before a reply give them up (`D IFQ ARP`, then `D RTR CBK` for the packets handed
    # back). Allowed, and only a few.
    flap = [("D", "_2_", "IFQ", "ARP"), ("D", "_2_", "RTR", "CBK")]
    assert sum(mine.pop(k, 0) for k in flap) <= 20
    assert set(mine) == set(theirs), set(mine) ^ set(theirs)
    for kind, n in theirs.items():
        assert abs(mine[kind] - n) <= 0.01 * n, (kind, mine[kind], n)
    # Line for line, but for the time and uid: the first segment on each wired link, and the
    # first ACK at the host, with the MAC addresses (BS 0, host 1), ns-2's hierarchical
    # addresses and next hop, and the TTL after two wired links and the base station (29).
    first = ("+ ", "r ", "r 160.0")
    for prefix in first:
        a = next(x for x in ref if x.startswith(prefix))
        b = next(x for x in ours if x.startswith(prefix))
        assert _fields_but_time_and_uid(a) == _fields_but_time_and_uid(b), (a, b)
    ack = next(x for x in ours if " _3_ AGT " in x and x.startswith("r "))
    assert "[13a 1 0 800] ------- [0:0 4194305:0 29 4194305]" in ack, ack
    # A flushed ACK carries the link layer's header for its next hop, as in ns-2.
    a = next(x for x in ref if x.startswith("D ") and " END " in x)
    b = next(x for x in ours if x.startswith("D ") and " END " in x)
    assert _fields_but_time_and_uid(a)[:-4] == _fields_but_time_and_uid(b)[:-4], (a, b)


def test_routing_traces_follow_ns2s_hierarchical_node(tmp_path):
    """With -routerTrace ON a hierarchical node's routing agent prints its sends as `f` (its
    id is not its address), updates go to ns-2's hierarchical broadcast 2147483647, and a
    base station's RTR trace does not see what it sends to the wired side (ns-2.35: the host
    and base station print an `r` and an `f` RTR line for each of the host's segments at the
    host only: 7594 of each in ns-2's run)."""
    if not WL_TUTORIAL.exists():
        pytest.skip("ns-2's examples (Debian's ns2-examples) are not installed")
    script = tmp_path / "rt.tcl"
    script.write_text(WL_TUTORIAL.read_text().replace("-routerTrace OFF", "-routerTrace ON"))
    _ternsim_ns2(script, ["wireless2", "QUIET"], tmp_path)
    trace = (tmp_path / "temp.rands").read_text().splitlines()
    sent = sum(1 for x in trace if x.startswith("s ") and " _3_ AGT " in x and " tcp " in x)
    lines = [x for x in trace if " RTR " in x]
    by = Counter((x.split()[0], x.split()[2], x.split()[6]) for x in lines)
    assert not any(event == "s" for event, _, _ in by)
    assert by[("r", "_3_", "tcp")] == by[("f", "_3_", "tcp")] == sent > 7000
    assert by[("r", "_2_", "tcp")] == by[("f", "_2_", "tcp")] == 0
    update = next(x for x in lines if " message " in x)
    assert ":255 2147483647:255 32 0]" in update, update


def test_refusals(tmp_path):
    if not WL_TUTORIAL.exists():
        pytest.skip("ns-2's examples (Debian's ns2-examples) are not installed")
    text = WL_TUTORIAL.read_text()
    cases = {
        # ns-2.35's base stations route their subnets with DSDV.
        'set opt(adhocRouting)   DSDV                      \n  set opt(cp)             ""': (
            'set opt(adhocRouting)   AODV\n  set opt(cp) ""',
            "-adhocRouting AODV",
        ),
        # A base-station id that is no base station's address.
        "$node_($j) base-station [AddrParams addr2id [$BS(0) node-addr]]": (
            "$node_($j) base-station [AddrParams addr2id 0.1.0]",
            "not a base station",
        ),
        # Mobile nodes in the base station's cluster that name none: ternsim's subnet is
        # the base station and the nodes naming it.
        "    $node_($j) base-station [AddrParams addr2id [$BS(0) node-addr]]\n": (
            "",
            "without `\\$node base-station`",
        ),
    }
    bad = tmp_path / "bad.tcl"
    for old, (new, word) in cases.items():
        assert old in text, old
        bad.write_text(text.replace(old, new))
        with pytest.raises(ScriptRefused, match=word) as e:
            translate_script(bad, ["wireless2", "QUIET"])
        assert "bad.tcl:" in str(e.value)


NS = shutil.which("ns")


@pytest.mark.skipif(not WCW_SIM.exists(), reason="ns-2's examples are not installed")
@pytest.mark.skipif(NS is None, reason="ns-2 (Debian's ns2) is not installed")
def test_the_two_base_station_example_runs_as_ns2_does(tmp_path):
    """`ex/wired-cum-wireless-sim.tcl`: a second base station (2.0.0) with no mobile node of
    its own, and a TCP flow each way between the wired and the wireless side. ns-2.35: 7316
    `r AGT` lines (segments at W(0), ACKs at node_(0)... and node_(2)'s segments); ternsim,
    averaged over seeds 1-3, within 2 %. One seed is one draw of the 802.11 backoffs: seeds
    1-5 give 2846-2862 segments at node_(2) but for seed 1's 2728 (ns-2: 2830)."""
    runs = [("ns", [NS])] + [
        (f"ternsim{seed}", [sys.executable, "-m", "ternsim", "ns2", "--seed", seed])
        for seed in ("1", "2", "3")
    ]
    counts = []
    for who, cmd in runs:
        d = tmp_path / who
        d.mkdir()
        shutil.copy(WCW_SIM, d / WCW_SIM.name)
        p = subprocess.run([*cmd, WCW_SIM.name], cwd=d, capture_output=True, text=True,
                           timeout=300)  # fmt: skip
        assert p.returncode == 0, p.stderr
        lines = (d / "wired-and-wireless.tr").read_text().splitlines()
        counts.append(_kinds(lines))
    ns = counts[0]
    for kind in [k for k in ns if k[2] == "AGT"]:
        ts = statistics.mean(c[kind] for c in counts[1:])
        assert abs(ts - ns[kind]) <= 0.02 * ns[kind], (kind, ts, ns[kind])
    # The nam file: ns-2's header (the mobile nodes' initial_node_pos lines with their
    # hierarchical addresses, the 3-level address format, the base stations with their
    # places), then packet lines of both kinds: the links' (15 digits of each event's time)
    # and the channel's, about as many of each kind as ns-2 writes.
    nams = [(tmp_path / who / "wired-and-wireless.nam").read_text().splitlines()
            for who, _ in runs]  # fmt: skip
    assert all(nam[:15] == nams[0][:15] for nam in nams[1:])
    for event in ("+", "-", "h", "r"):
        n_ns, *n_ts = (sum(1 for x in lines if x.startswith(event + " ")) for lines in nams)
        assert abs(statistics.mean(n_ts) - n_ns) <= 0.02 * n_ns, (event, n_ts, n_ns)
    wired = [x for x in nams[1] if x.startswith("+ ") and " -x {" in x]
    assert len(wired) > 10_000


LAN_SUITE = EXAMPLES / "test" / "test-suite-wireless-lan-newnode.tcl"


@pytest.mark.skipif(not LAN_SUITE.exists(), reason="ns-2's examples are not installed")
def test_the_lan_suites_wired_cum_wireless_test_runs_and_resets_its_nodes(tmp_path):
    """`test-suite-wireless-lan-newnode.tcl dsdv-wired-cum-wireless`: a TCP flow from W(1) to
    node_(2), two radio hops from the base station, and one from node_(0) to W(0). Over
    seeds 1-10 ns-2.35 (`ns-random N`) delivers 6150-6159 segments to node_(2) and 4710-4750
    ACKs to node_(0) unless its DSDV stalls (3 seeds of 10; the README). ternsim, seeds 1-3,
    the median within 1 % of those: one seed in a few is a run of another kind in ternsim
    too (seeds 1-12: 6145-6158 segments, but seed 2's 6225, and stalls under seeds 8 and
    12). The script resets every node at its stop time (`$opt(stop).000000001` reads as
    500), which flushes the queues: `D 500.000000000 ... IFQ END` lines (ns-2: 36)."""
    (tmp_path / "test").mkdir()
    script = tmp_path / "test" / LAN_SUITE.name
    shutil.copy(LAN_SUITE, script)
    (tmp_path / "mobility").mkdir()
    (tmp_path / "mobility" / "scene").symlink_to(EXAMPLES / "mobility" / "scene")
    to_n2, to_n0 = [], []
    for seed in ("1", "2", "3"):
        p = subprocess.run(
            [sys.executable, "-m", "ternsim", "ns2", "--seed", seed, script.name,
             "dsdv-wired-cum-wireless", "QUIET"],
            cwd=script.parent, capture_output=True, text=True, timeout=300,
        )  # fmt: skip
        assert p.returncode == 0, p.stderr
        lines = (script.parent / "temp.rands").read_text().splitlines()
        to_n2.append(sum(1 for x in lines if x.startswith("r ") and " _6_ AGT " in x))
        to_n0.append(sum(1 for x in lines if x.startswith("r ") and " _4_ AGT " in x))
        ends = [x for x in lines if " IFQ  END " in x]
        assert 10 <= len(ends) <= 60, len(ends)
        assert all(x.startswith("D 500.000000000 ") for x in ends)
    assert abs(statistics.median(to_n2) / 6155 - 1) < 0.01, to_n2
    assert abs(statistics.median(to_n0) / 4740 - 1) < 0.01, to_n0
