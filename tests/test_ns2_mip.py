"""Wired-cum-wireless Mobile IP scripts under ``ternsim ns2`` (scenarios/ho-mobileip/handoff.tcl,
written in the pattern of ns-2's tutorial wireless3.tcl), against hand-worked expectations and
against ns-2.35 itself.

The script: W(0) - W(1) - HA and W(1) - FA, 5 Mb/s and 2 ms each; HA at (100, 300) and FA at
(650, 300) with ns-2's default radio (two-ray ground, RXThresh_ 3.652e-10 W: a 250 m cell);
MH starts at (110, 300) and walks at 10 m/s from 20 s to (640, 300): it leaves HA's cell at
x = 350 (t = 20 + 240/10 = 44 s) and enters FA's at x = 400 (t = 20 + 290/10 = 49 s). TCP
Reno from W(0) to MH from 5 s to 150 s.
"""

from __future__ import annotations

import csv
import dataclasses
import re
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

import pytest

from ternsim.experiments.handoff_trace import Handoff, handoff
from ternsim.ns2 import ScriptRefused, translate_script
from ternsim.paths import scenario_path

SCRIPT = scenario_path("ho-mobileip/handoff.tcl")
WINDOWS = (5.0, 40.0, 75.0, 150.0)  # before | around the handoff | after (both resumed)
LEAVE_HA, ENTER_FA = 44.0, 49.0  # hand-worked above
MH = 4  # ns-2 node id: W(0) 0, W(1) 1, HA 2, FA 3, MH 4


def _run(cmd: list[str], seed: int, workdir: Path):
    workdir.mkdir(parents=True, exist_ok=True)
    p = subprocess.run(
        [*cmd, str(SCRIPT), str(seed)], cwd=workdir, capture_output=True, text=True, timeout=300
    )
    assert p.returncode == 0, p.stderr
    return handoff(workdir / "mip_handoff.tr", p.stdout, node=MH, moving_from=20.0, windows=WINDOWS)


def _ternsim(seed: int, workdir: Path):
    return _run([sys.executable, "-m", "ternsim", "ns2"], seed, workdir)


def test_translation_maps_the_pattern_onto_mobile_ip():
    sc = translate_script(SCRIPT, ["1"])
    # Wired nodes have no position; base stations and the host are on the channel.
    assert [n.get("position") for n in sc["nodes"]] == [
        None,
        None,
        [100.0, 300.0],
        [650.0, 300.0],
        [110.0, 300.0],
    ]
    assert sc["mobile_ip"]["agents"] == ["n2", "n3"]
    assert sc["mobile_ip"]["mobiles"] == [{"node": "n4", "home_agent": "n2"}]
    # ns-default.tcl: ad_lifetime_ 2, reg_lifetime_ 2, reg_rtx_ 0.5.
    assert sc["mobile_ip"]["registration_retransmit"] == "0.5s"
    # ns-2's DSDV on the agents and the host (the wired nodes route statically).
    assert sc["routing"]["protocol"] == "dsdv"
    assert [(lk["a"], lk["b"]) for lk in sc["links"]] == [("n0", "n1"), ("n1", "n2"), ("n1", "n3")]


def test_handoff_hand_worked(tmp_path):
    """The care-of address changes on the first FA advertisement heard after entering its
    cell (the registration then waits for a DSDV route to FA); after it, every segment
    reaches MH through the HA-FA tunnel (IP in IP, 1040 + 20 bytes)."""
    import ternsim

    sc = translate_script(SCRIPT, ["1"])
    sc["traces"] = {"topology": True}
    r = ternsim.run(sc, seed=1)
    topo = r.trace("topology")
    coa = topo[topo["event"] == "care_of_change"]["time_s"].tolist()
    # One care-of change, within one advertisement period (1 s) of entering FA's cell, plus
    # DSDV's broadcast jitter (< 10 ms, `sendOutBCastPkt`) and the advertisement's air time
    # (48 + 20 bytes at 1 Mb/s with the MAC header: < 2 ms).
    assert len(coa) == 1 and ENTER_FA < coa[0] <= ENTER_FA + 1.0 + 0.010 + 0.002

    h = _ternsim(1, tmp_path)
    # The last segment via HA when MH crosses 250 m (a frame or two of slack), the first
    # via FA after the registration.
    assert abs(h.outage_start - LEAVE_HA) < 0.05
    assert h.handoff_time > coa[0]

    # W(1) -> FA carries the tunnelled segments (1060 bytes) and the registration replies.
    from ternsim.experiments.handoff_trace import arrivals

    after = sum(1 for t, _ in arrivals(tmp_path / "mip_handoff.tr", MH) if t > coa[0])
    links = r.links.set_index(["name", "direction"])
    w1_fa = links.loc[("1-3", "a_to_b")]
    other = w1_fa["packets_sent"] - after
    # The rest: at least one registration reply per FA advertisement from the handoff to
    # 150 s (ns-2 re-registers on every advertisement of its agent, mip-reg.cc), and no
    # packet is larger than a tunnelled segment.
    assert other >= int(150 - coa[0])
    assert 1060 * after <= w1_fa["bytes_sent"] <= 1060 * w1_fa["packets_sent"]
    # ... and HA -> W(1) carries the same tunnelled segments on their way to FA, besides
    # MH's ACKs from before the move (60 bytes: its DSDV adds an IP header, as ns-2's).
    ha_w1 = links.loc[("1-2", "b_to_a")]
    assert ha_w1["bytes_sent"] >= 1060 * after


def test_refusals(tmp_path):
    text = SCRIPT.read_text()
    cases = {
        # DSR: ns-2.35 itself cannot build the base station.
        "set opt(rp)      DSDV": ("set opt(rp)      DSR", "DSR"),
        # No home agent for the host.
        "[$MH set regagent_] set home_agent_ $HAaddress": ("", "home_agent_"),
    }
    # A mobile node without Mobile IP among them (wireless2.tcl's pattern).
    no_mip = text.replace("[$MH set regagent_] set home_agent_ $HAaddress", "").replace(
        "set MH [$ns node 1.0.1]", "$ns node-config -mobileIP OFF\nset MH [$ns node 1.0.1]"
    )
    bad = tmp_path / "bad.tcl"
    for old, (new, word) in cases.items():
        assert old in text
        bad.write_text(text.replace(old, new))
        with pytest.raises(ScriptRefused, match=word) as e:
            translate_script(bad, ["1"])
        assert "bad.tcl:" in str(e.value)
    bad.write_text(no_mip)
    with pytest.raises(ScriptRefused, match="a mobile node without -mobileIP ON") as e:
        translate_script(bad, ["1"])
    assert "bad.tcl:" in str(e.value)


NS = shutil.which("ns")
SEEDS = range(1, 7)
STORED = Path(__file__).parents[1] / "scenarios" / "ho-mobileip" / "handoff_ns2_results.csv"


def _stored_ns2() -> list[Handoff]:
    """ns-2.35's runs of the script, seeds 1-6, as the reproduction stores them (the script
    and its checksum beside them; `test_stored_ns2_results_are_what_ns_gives` reruns one)."""
    rows = list(csv.DictReader(STORED.read_text().splitlines()))
    return [
        Handoff(
            before_kbps=float(r["goodput_before_kbps"]),
            during_kbps=float(r["goodput_during_kbps"]),
            after_kbps=float(r["goodput_after_kbps"]),
            outage_start=float(r["outage_start_s"]),
            handoff_time=float(r["handoff_time_s"]),
            retransmissions=int(r["retransmissions"]),
            timeouts=int(r["timeouts"]),
        )
        for r in rows
    ]


@pytest.mark.skipif(NS is None, reason="ns-2 (`ns`) is not installed: apt-get install ns2")
def test_stored_ns2_results_are_what_ns_gives(tmp_path):
    """ns-2 is deterministic for a seed: its run of seed 1 now gives the stored row."""
    live = dataclasses.astuple(_run([NS], 1, tmp_path))
    assert live == pytest.approx(dataclasses.astuple(_stored_ns2()[0]), abs=1e-3)


def test_against_ns2(tmp_path):
    """Six seeds on each side (802.11 backoffs, Mobile IP and DSDV phases), ns-2.35's from its
    stored runs. Both hosts route through DSDV: the registration with FA waits for a DSDV
    route to FA (FA's next update, every 15 s x U(0.75, 1)), and FA hands the reply and the
    tunnelled segments to MH only once its DSDV has a route to MH. Measured (ns-2.35 |
    ternsim, means over seeds 1-6, with the host's registration rules of ns-2's
    `MIPMHAgent`: a request after every advertisement of its agent, solicitations every
    0.5 s): goodput before the move 650.4 | 650.0 kb/s, after both resumed (75-150 s)
    650.0 | 650.1, first segment through FA 63.7 | 61.5 s (ns-2 55.8, 66.1, 66.7, 67.3, 57.0,
    69.2; ternsim 56.4, 55.5, 66.7, 66.1, 57.0, 67.3), timeouts 5.7 | 5.5 (ns-2 5, 6, 6, 6,
    5, 6; ternsim 5, 5, 6, 6, 5, 6), retransmissions 17.5 | 19.7; the outage starts at
    44.0 s in both."""
    ns = _stored_ns2()
    assert len(ns) == len(SEEDS)
    ts = [_ternsim(s, tmp_path / f"t{s}") for s in SEEDS]

    def mean(hs, f):
        return statistics.mean(getattr(h, f) for h in hs)

    def median(hs, f):
        return statistics.median(getattr(h, f) for h in hs)

    # Before the move: one 802.11 hop, 1 Mb/s, RTS/CTS, 60-byte ACKs on the air in both
    # (DSDV's IP header); within 1 %. After: within 1 % too, since the Mobile IP messages are
    # ns-2's (sizes, the reply in the request's packet) and FA's DSDV gives the relayed reply
    # a fresh TTL as ns-2's does (before, a registration lapsed in some seeds: within 5 %,
    # 646.2 kb/s).
    assert abs(mean(ts, "before_kbps") / mean(ns, "before_kbps") - 1) < 0.01
    assert abs(mean(ts, "after_kbps") / mean(ns, "after_kbps") - 1) < 0.01
    # Both lose HA at the cell edge, by geometry.
    for h in ns + ts:
        assert abs(h.outage_start - LEAVE_HA) < 0.05
    # The handoff: registration after FA's DSDV update, then TCP's backed-off retransmission
    # through the tunnel. Each ternsim handoff within the range ns-2's take (about 6-22 s
    # after entering the cell), the means within a second of each other's.
    lo, hi = min(h.handoff_time for h in ns), max(h.handoff_time for h in ns)
    for h in ts:
        assert lo - 2.0 < h.handoff_time < hi + 2.0
    # The handoff times are a few discrete values (which DSDV update and which backed-off
    # retransmission the registration catches), the same ones in both (ns-2 55.8, 57.0,
    # 66.1, 66.7, 67.3, 69.2; ternsim 55.5, 56.4, 57.0, 66.1, 66.7, 67.3), drawn in another
    # order per seed: the means agree within their sampling error over six seeds (ns-2's
    # stdev 5.7 s / sqrt 6 = 2.3 s).
    se = statistics.stdev(h.handoff_time for h in ns) / len(ns) ** 0.5
    assert abs(mean(ts, "handoff_time") - mean(ns, "handoff_time")) < 1.5 * se
    # The RTO backoffs across the outage: medians 6 and 6. Retransmissions: what was in flight
    # when the link broke, resent after the handoff: the medians (20.5, 17) within ns-2's
    # spread (stdev 6.2).
    assert abs(median(ts, "timeouts") - median(ns, "timeouts")) <= 1
    spread = statistics.stdev(h.retransmissions for h in ns)
    assert abs(median(ns, "retransmissions") - median(ts, "retransmissions")) < spread


def test_shipped_handoff_script_and_stored_ns2_results(tmp_path):
    """The ho-mobileip reproduction ships the script and ns-2.35's results on it (issue 16):
    the stored results are of this very script, and ternsim's goodput before and after the
    handoff is within 5 % of ns-2's stored means (no `ns` needed)."""
    import csv
    import hashlib
    import json

    folder = Path(__file__).parents[1] / "scenarios" / "ho-mobileip"
    shipped = folder / "handoff.tcl"
    assert shipped.read_bytes() == SCRIPT.read_bytes()
    meta = json.loads((folder / "handoff_ns2_results.json").read_text())
    assert meta["script_sha256"] == hashlib.sha256(shipped.read_bytes()).hexdigest()
    rows = list(csv.DictReader((folder / "handoff_ns2_results.csv").read_text().splitlines()))
    assert [int(r["seed"]) for r in rows] == meta["seeds"]
    h = _ternsim(1, tmp_path)
    for ours, col in ((h.before_kbps, "goodput_before_kbps"), (h.after_kbps, "goodput_after_kbps")):
        ns_mean = statistics.mean(float(r[col]) for r in rows)
        assert abs(ours / ns_mean - 1) < 0.05, col


# ns-2.35's Mobile IP lines of `ns handoff.tcl 1` (mip_handoff.tr), time and uid left out: every
# message is an `Agent(PT_UDP)` packet (mobile/mip-reg.cc). Advertisements are 48 bytes
# (AGENT_ADS_SIZE), requests and solicitations 52 (REG_REQUEST_SIZE, the host agent's size_);
# DSDV adds its 20-byte IP header wherever a node originates one (68 on the air, 72 for a
# request), and an agent answers or relays in the packet it received (same uid, the size it
# arrived with: the reply 72 at HA, 92 at the host; the relayed request and reply keep 72 on
# the wire), with the MAC header of the frame that brought it and the last 802.11 next hop.
NS2_MIP_AGT_LINES = [
    # HA's and FA's broadcast advertisements, as sent and as the host hears them (TTL 31:
    # DSDV takes one off a received broadcast).
    "s _2_ AGT --- udp 48 [0 0 0 0] ------- [4194304:0 2147483647:0 32 0]",
    "s _3_ AGT --- udp 48 [0 0 0 0] ------- [8388608:0 2147483647:0 32 0]",
    "r _4_ AGT --- udp 68 [0 ffffffff 0 800] ------- [4194304:0 2147483647:0 31 0]",
    "r _4_ AGT --- udp 68 [0 ffffffff 1 800] ------- [8388608:0 2147483647:0 31 0]",
    # A request to HA (sent after each of HA's advertisements, `MIPMHAgent::recv`), HA's
    # reply in the same packet.
    "s _4_ AGT --- udp 52 [0 0 0 0] ------- [4194305:0 4194304:0 32 0]",
    "r _2_ AGT --- udp 72 [13a 0 2 800] ------- [4194305:0 4194304:0 32 4194304]",
    "s _2_ AGT --- udp 72 [13a 0 2 800] ------- [4194304:0 4194305:0 32 4194304]",
    "r _4_ AGT --- udp 92 [13a 2 0 800] ------- [4194304:0 4194305:0 32 4194305]",
    # Between cells: broadcast solicitations (every `reg_rtx_`, 0.5 s); FA answers by unicast
    # to the home address.
    "s _4_ AGT --- udp 52 [0 0 0 0] ------- [4194305:0 2147483647:0 32 0]",
    "r _3_ AGT --- udp 72 [0 ffffffff 2 800] ------- [4194305:0 2147483647:0 31 0]",
    "s _3_ AGT --- udp 48 [0 0 0 0] ------- [8388608:0 4194305:0 32 0]",
    # ... which the home address's route takes to HA and HA's tunnel back to FA, whose DSDV
    # takes it as its own (its source is FA, never forwarded over the air: `DSDV_Agent::recv`
    # gives it the IP header and IP_DEF_TTL 32 again).
    "r _4_ AGT --- udp 68 [13a 2 1 800] ------- [8388608:0 4194305:0 32 4194305]",
    # Through FA: the request relayed to HA over the wire and the reply relayed back; FA's
    # DSDV gives the reply its own IP header and a fresh TTL on the last hop.
    "s _4_ AGT --- udp 52 [0 0 0 0] ------- [4194305:0 8388608:0 32 0]",
    "r _3_ AGT --- udp 72 [13a 1 2 800] ------- [4194305:0 8388608:0 32 8388608]",
    "s _3_ AGT --- udp 72 [13a 1 2 800] ------- [8388608:0 4194304:0 32 8388608]",
    "r _2_ AGT --- udp 72 [13a 1 2 800] ------- [8388608:0 4194304:0 30 8388608]",
    "s _2_ AGT --- udp 72 [13a 1 2 800] ------- [4194304:0 8388608:0 30 8388608]",
    "r _3_ AGT --- udp 72 [13a 1 2 800] ------- [4194304:0 8388608:0 28 8388608]",
    "r _4_ AGT --- udp 92 [13a 2 1 800] ------- [8388608:0 4194305:0 32 4194305]",
]
# The same run's wired lines of a relayed request and its reply (event, link, type, size,
# flags, fid 0, the agents' port 0, RTP sequence number 0), of FA's answer to a solicitation,
# routed towards the home address, and of that answer tunnelled back from HA to FA (68
# bytes: 48 + DSDV's 20, which HA's tunnel then keeps, as ns-2's encapsulator adds its 20 to
# the packet's size and DSDV does not add another): ns-2 prints the outer header, from the
# encapsulator (HA 1.0.0 with its domain field masked away, `attach-encap`: 0.0.0) to FA,
# both on the tunnel's port 1.
NS2_MIP_WIRED_LINES = [
    f"{ev} {link} udp {size} ------- 0 {src} {dst} 0"
    for ev in "+-r"
    for link, size, src, dst in (
        ("3 1", 72, "2.0.0.0", "1.0.0.0"),
        ("1 2", 72, "2.0.0.0", "1.0.0.0"),
        ("2 1", 72, "1.0.0.0", "2.0.0.0"),
        ("1 3", 72, "1.0.0.0", "2.0.0.0"),
        ("3 1", 48, "2.0.0.0", "1.0.1.0"),
        ("1 2", 48, "2.0.0.0", "1.0.1.0"),
        ("2 1", 68, "0.0.0.1", "2.0.0.1"),
        ("1 3", 68, "0.0.0.1", "2.0.0.1"),
    )
]


def _mip_lines(trace: Path) -> tuple[list[list[str]], set[str], set[str]]:
    """The Mobile IP (`udp`) lines of a handoff.tcl trace, split; their shapes without time
    and uid: wireless AGT lines, wired lines."""
    lines = [ln.split() for ln in trace.read_text().splitlines() if " udp " in ln]
    agt = {" ".join([f[0], *f[2:5], *f[6:]]) for f in lines if f[3] == "AGT"}
    wired = {" ".join([f[0], *f[2:10], f[10]]) for f in lines if len(f) == 12}
    return lines, agt, wired


def test_mobile_ip_messages_are_traced_as_ns2_traces_them(tmp_path):
    """Every kind of Mobile IP line ns-2.35 writes for handoff.tcl seed 1 (its type, size, MAC
    header, addresses, TTL and next hop) is in ternsim's trace of the same run, and ternsim
    writes no other kind but the one below; a relayed request keeps its uid from the host
    to HA and back to the host, as ns-2's packet 6536 does."""
    p = subprocess.run([sys.executable, "-m", "ternsim", "ns2", str(SCRIPT), "1"], cwd=tmp_path,
                       capture_output=True, text=True, timeout=300)  # fmt: skip
    assert p.returncode == 0, p.stderr
    lines, agt, wired = _mip_lines(tmp_path / "mip_handoff.tr")
    assert not [ln for ln in lines if ln[4 if len(ln) == 12 else 6] == "message"]
    assert set(NS2_MIP_AGT_LINES) <= agt, sorted(set(NS2_MIP_AGT_LINES) - agt)
    assert set(NS2_MIP_WIRED_LINES) <= wired, sorted(set(NS2_MIP_WIRED_LINES) - wired)
    assert agt - set(NS2_MIP_AGT_LINES) <= {
        "s _2_ AGT --- udp 48 [0 0 0 0] ------- [4194304:0 4194305:0 32 0]",
        "r _4_ AGT --- udp 68 [13a 2 0 800] ------- [4194304:0 4194305:0 32 4194305]",
        "r _2_ AGT --- udp 72 [0 ffffffff 2 800] ------- [4194305:0 2147483647:0 31 0]",
    }
    # TCP segments reach the host with TTL 29 from HA (32 less the W(0)-W(1) and W(1)-HA
    # links' TTL checkers and HA's DSDV) and 28 through FA (HA's encapsulator takes one off
    # the inner header, FA's DSDV another), as in ns-2.35's trace of the same run (3172 and
    # 7666 segments).
    text = (tmp_path / "mip_handoff.tr").read_text()
    ttls = set(
        re.findall(r"^r \S+ _4_ AGT .* tcp 1040 .* \[0:0 4194305:\d+ (\d+) 4194305\]", text, re.M)
    )
    assert ttls == {"29", "28"}

    # One relayed registration, by uid: host -> FA -> wire -> HA -> wire -> FA -> host: its
    # AGT lines in this order, and the wired lines of its four links. (A wired line prints
    # its time to the microsecond and sorts before an AGT line of the same instant.)
    def at_agents(uid: str) -> list[tuple[str, str, str]]:
        return [(f[0], f[2], f[7]) for f in lines if f[3] == "AGT" and f[5] == uid]

    relays = [f[5] for f in lines if f[2:4] == ["_3_", "AGT"] and f[0] == "s" and f[7] == "72"]
    # The first whose reply reached the host (FA's DSDV may not have the host's route yet).
    relayed = next(u for u in relays if at_agents(u)[-1] == ("r", "_4_", "92"))
    assert at_agents(relayed) == [
        ("s", "_4_", "52"),
        ("r", "_3_", "72"),
        ("s", "_3_", "72"),
        ("r", "_2_", "72"),
        ("s", "_2_", "72"),
        ("r", "_3_", "72"),
        ("r", "_4_", "92"),
    ]
    on_wire = sorted(
        f"{f[0]} {f[2]}>{f[3]} {f[5]}" for f in lines if len(f) == 12 and f[11] == relayed
    )
    assert on_wire == sorted(
        f"{e} {link} 72" for e in "+-r" for link in ("3>1", "1>2", "2>1", "1>3")
    )


HA_ADS = "[4194304:0 2147483647:0"  # HA's broadcast advertisement, as the host hears it
FA_ADS = "[8388608:0 2147483647:0"
TO_HA, TO_FA = "[4194305:0 4194304:0", "[4194305:0 8388608:0"  # the host's requests
SOLICITATION = "[4194305:0 2147483647:0"


def _host_registrations(trace: Path) -> dict[str, list[float]]:
    """The host's (`_4_`) Mobile IP moments in a handoff.tcl trace: advertisements it heard
    from HA and FA, requests it sent to each, solicitations it sent (by time)."""
    out: dict[str, list[float]] = {k: [] for k in ("ha_ads", "fa_ads", "to_ha", "to_fa", "sol")}
    kinds = {
        ("r", HA_ADS): "ha_ads",
        ("r", FA_ADS): "fa_ads",
        ("s", TO_HA): "to_ha",
        ("s", TO_FA): "to_fa",
        ("s", SOLICITATION): "sol",
    }
    for line in trace.read_text().splitlines():
        f = line.split()
        if len(f) < 8 or f[2:4] != ["_4_", "AGT"] or f[6] != "udp" or "------- [" not in line:
            continue
        ends = line.split("------- [")[1].split()[:2]
        kind = kinds.get((f[0], "[" + " ".join(ends)))
        if kind is not None:
            out[kind].append(float(f[1]))
    return out


def _check_registration_timing(trace: Path) -> dict[str, list[float]]:
    """ns-2.35's registration rules (`mip-reg.cc` `MIPMHAgent`), hand-worked for handoff.tcl:
    the host sends a request at the very instant it hears an advertisement of its current
    agent (HA at home, FA after the handoff; `recv` calls `reg()`); the scan every second
    from 0 forgets HA one to two seconds after its last advertisement heard (`expire_time_`
    = heard + 1 s, removed once passed), at a whole second, and from then on the host solicits
    at once and every `reg_rtx_` (0.5 s: `reg()` re-arms the timer and, with no agent,
    `send_sols`) until it hears FA."""
    h = _host_registrations(trace)
    home_ads = [t for t in h["ha_ads"] if t < LEAVE_HA]
    assert home_ads and all(t in h["to_ha"] for t in home_ads)
    # (At home too the host may miss HA's advertisements for over a second, among the TCP
    # frames, and solicit for a while, and so in FA's cell: the walk's solicitations are the
    # ones from 40 s to FA's first advertisement heard.)
    first_fa = min(h["fa_ads"])
    sols = h["sol"] = [t for t in h["sol"] if 40.0 < t < first_fa]
    assert sols
    assert sols[0] == int(sols[0]), "a scan at a whole second"
    assert max(home_ads) + 1.0 < sols[0] <= max(home_ads) + 2.0
    assert all(abs(b - a - 0.5) < 1e-9 for a, b in zip(sols, sols[1:]))
    assert first_fa <= sols[-1] + 0.5
    assert all(t in h["to_fa"] for t in h["fa_ads"])
    return h


def test_registration_timing_hand_worked(tmp_path):
    """ternsim's host follows ns-2's rules (`_check_registration_timing`); for seed 1: HA's
    last advertisement heard at 43.5 s (HA advertises at 0.497 s + k, its first phase
    U(0, 1) from ternsim's stream), so the scan at 45 s forgets HA and the host solicits at
    45.0, 45.5, ..., 49.0 s; FA's advertisement at 49.19 s (FA's phase 0.188 s, DSDV's
    jitter) makes FA the care-of address, with a request at once, another 0.5 s later from
    the retransmission timer (no route to FA yet), and one after each FA advertisement."""
    p = subprocess.run([sys.executable, "-m", "ternsim", "ns2", str(SCRIPT), "1"], cwd=tmp_path,
                       capture_output=True, text=True, timeout=300)  # fmt: skip
    assert p.returncode == 0, p.stderr
    h = _check_registration_timing(tmp_path / "mip_handoff.tr")
    assert h["sol"] == [45.0 + 0.5 * k for k in range(9)]
    assert 49.188 < min(h["fa_ads"]) < 49.2
    first = min(h["fa_ads"])
    assert [t for t in h["to_fa"] if t < first + 0.9] == pytest.approx([first, first + 0.5])


@pytest.mark.skipif(NS is None, reason="ns-2 (`ns`) is not installed: apt-get install ns2")
def test_registration_timing_against_ns2(tmp_path):
    """ns-2.35's own trace of handoff.tcl obeys the rules ternsim's is checked against (the
    check is of ns-2's behaviour, not only of ternsim's): seeds 1 and 2; ns-2's seed 1
    solicits at 45.0, 45.5, ..., 49.5 s."""
    for seed in (1, 2):
        wd = tmp_path / f"ns{seed}"
        _run([NS], seed, wd)
        h = _check_registration_timing(wd / "mip_handoff.tr")
        if seed == 1:
            assert h["sol"] == [45.0 + 0.5 * k for k in range(10)]


def test_tunnelled_segments_are_traced_with_the_outer_header(tmp_path):
    """Hand-worked for handoff.tcl seed 1: after the handoff HA tunnels each segment to FA
    (1040 + 20 bytes). On W(1) -> HA the segment is still the inner packet (0.0.0.0 ->
    1.0.1.2, 1040 bytes); on HA -> W(1) and W(1) -> FA it is the tunnel's, and ns-2's line
    prints the outer header (`MIPEncapsulator::recv` writes `hdr_ip`, the inner one kept in
    `hdr_ipinip`): from the encapsulator, whose address is HA's with the domain field masked
    away (`attach-encap`: 0.0.0), to FA (2.0.0), both on port 1 (`DECAP_PORT`), with the
    flow's fid 2, sequence number and uid."""
    p = subprocess.run([sys.executable, "-m", "ternsim", "ns2", str(SCRIPT), "1"], cwd=tmp_path,
                       capture_output=True, text=True, timeout=300)  # fmt: skip
    assert p.returncode == 0, p.stderr
    wired = [ln.split() for ln in (tmp_path / "mip_handoff.tr").read_text().splitlines()]
    segs = [f for f in wired if len(f) == 12 and f[4] == "tcp" and float(f[1]) > 70]
    shapes = {(f[2], f[3], f[5], f[7], f[8], f[9]) for f in segs}
    assert shapes == {
        ("0", "1", "1040", "2", "0.0.0.0", "1.0.1.2"),
        ("1", "2", "1040", "2", "0.0.0.0", "1.0.1.2"),
        ("2", "1", "1060", "2", "0.0.0.1", "2.0.0.1"),
        ("1", "3", "1060", "2", "0.0.0.1", "2.0.0.1"),
    }
    # One segment, by uid, keeps its sequence number through the tunnel.
    uid = next(f[11] for f in segs if f[2:4] == ["2", "1"])
    assert len({f[10] for f in segs if f[11] == uid}) == 1


@pytest.mark.skipif(NS is None, reason="ns-2 (`ns`) is not installed: apt-get install ns2")
def test_wired_lines_have_ns2_shapes(tmp_path):
    """Every kind of wired line of handoff.tcl seed 1 (event, link, type, size, flags, fid,
    source and destination as printed), in ns-2.35's trace and in ternsim's: the same set
    (63 kinds), tunnelled segments and messages included."""

    def shapes(trace: Path) -> set[str]:
        lines = (f.split() for f in trace.read_text().splitlines())
        return {" ".join([f[0], *f[2:10]]) for f in lines if len(f) == 12}

    _run([NS], 1, tmp_path / "ns")
    _ternsim(1, tmp_path / "t")
    ns, ts = shapes(tmp_path / "ns" / "mip_handoff.tr"), shapes(tmp_path / "t" / "mip_handoff.tr")
    assert ns == ts, (sorted(ns - ts), sorted(ts - ns))


# --- the ns-2 script of the ho-mobileip reproduction (Fig. 3, Vegas, 802.11) ---------------

VEGAS_FIG3 = scenario_path("ho-mobileip/vegas_fig3.tcl")


def _vegas_fig3(cmd: list[str], seed: int, workdir: Path) -> tuple[str, dict]:
    from ternsim.experiments import ho_mobileip as ho

    workdir.mkdir(parents=True, exist_ok=True)
    p = subprocess.run([*cmd, str(VEGAS_FIG3), str(seed)], cwd=workdir, capture_output=True,
                       text=True, timeout=300)  # fmt: skip
    assert p.returncode == 0, p.stderr
    config = ho.ns2_configs(1)[0]
    return (workdir / ho.NS2_TRACE).read_text(), ho.ns2_parse(config, seed, p.stdout, workdir)[0]


def test_wired_cum_wireless_trace_has_the_wired_lines(tmp_path):
    """A wired-cum-wireless script's trace-all file holds the links' wired lines beside the
    channel's, in time order, with hierarchical addresses, as ns-2 writes them. Hand-worked
    for vegas_fig3.tcl: Vegas's segment 0 (1000 bytes, no header added) leaves CN (0.0.0,
    port 0) for MN (1.0.1, port 2: 0 and 1 are Mobile IP's) at 0; it is on R 1.6 ms + 5 ms
    later and on HA (X = 3 ms) at 0.0066 + 0.0046."""
    text, row = _vegas_fig3([sys.executable, "-m", "ternsim", "ns2"], 1, tmp_path)
    lines = text.splitlines()
    assert lines[:6] == [
        "+ 0 0 1 tcp 1000 ------- 0 0.0.0.0 1.0.1.2 0 0",
        "- 0 0 1 tcp 1000 ------- 0 0.0.0.0 1.0.1.2 0 0",
        "r 0.0066 0 1 tcp 1000 ------- 0 0.0.0.0 1.0.1.2 0 0",
        "+ 0.0066 1 2 tcp 1000 ------- 0 0.0.0.0 1.0.1.2 0 0",
        "- 0.0066 1 2 tcp 1000 ------- 0 0.0.0.0 1.0.1.2 0 0",
        "r 0.0112 1 2 tcp 1000 ------- 0 0.0.0.0 1.0.1.2 0 0",
    ]
    times = [float(line.split()[1]) for line in lines if not line.startswith("M ")]
    assert times == sorted(times)
    # Both formats: the wireless drop lines and the setdest M lines are still there.
    assert any(line.startswith("M 10.00000 4194305 ") for line in lines)
    assert any(line.startswith("+ ") and " 2 1 ack " in line for line in lines)
    # Base RTT at home from CN's lines: the hand-worked 29.168 ms of mobileip_wifi.toml (the
    # ACK 60 bytes with DSDV's IP header, in both) with ns-2.35's 58-byte MAC header (6 bytes
    # more than ns-2.26's on the DATA and the TCP ACK frame: 0.096 ms), less at most a DIFS,
    # plus at most two backoffs of 31 slots.
    assert 29.264 - 0.050 <= row["rtt_home_ms"] <= 29.264 + 62 * 0.020
    assert 38.528 - 0.050 <= row["rtt_fa1_ms"] <= 38.528 + 62 * 0.020


_SI = {"s": 1.0, "ms": 1e-3, "bps": 1.0, "kbps": 1e3, "Mbps": 1e6, "B": 1.0, "W": 1.0,
       "m": 1.0, "m/s": 1.0}  # fmt: skip


def _si(text: str) -> float:
    """A scenario quantity ("5ms", "0.005s", "5Mbps", "5000000.0bps") in SI units."""
    number = text.rstrip("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ/")
    return float(number) * _SI[text[len(number) :]]


def test_vegas_fig3_is_mobileip_wifi_with_fig3s_overrides():
    """The ns-2.35 column's script and ternsim's own Fig. 3 over 802.11 (mobileip_wifi.toml
    with `fig3_wifi`'s overrides) are the same scenario, parameter by parameter, but for the
    differences listed here, each hand-checked:

    * node names (the script's n0-n5 are CN, R, HA, FA1, FA2, MN): ternsim names a node's
      random streams after it (`wifi/MN/mac`, `node/FA2/dsdv`, `mip/FA2/...`), so a seed draws
      other backoffs and timer phases in each, the same distributions;
    * the MAC header: ns-2.35's is 58 bytes (4 addresses), which a script cannot change;
      the scenario takes ns-2.26's 52, the paper's ns-2;
    * the reception range: the scenario's 75 m, the script's RXThresh_ 3.41828e-08 W, which is
      Friis's power at 75 m with ns-2's constants, Pt_ λ² / (4π · 75 m)² with Pt_ 0.28183815 W
      and λ = 3e8 / 914e6 m (ns-2's SPEED_OF_LIGHT 3e8): 3.418280e-08 W;
    * TCP: the scenario's `profile = "ns2.26"`, the script's ns-2.35 defaults with ns-2.26's
      minrto_ 1, rtxcur_init_ 6, maxrto_ 100000 and precisionReduce_ false; ns-2.26 also
      has no exitFastRetrans_ and older NewReno rules, which ns-2's Vegas (its own `recv`)
      does not read. The front end also sets `idle_rtx_timer` (ns-2.35's `newtimer`), which
      for an FTP that always has data restarts the timer as the scenario's does.
    Everything else (positions, walk, links, queues, radio, DSDV, Mobile IP timing, the flow)
    is equal, and a key either side adds makes this test fail until it is listed."""
    import math

    from ternsim import api
    from ternsim.experiments import ho_mobileip as ho

    base = api.load_scenario(scenario_path("ho-mobileip/mobileip_wifi.toml"))
    twin = ho.scenario_for(base, "fig3_wifi", "vegas", 120.0)
    sc = translate_script(VEGAS_FIG3, [])
    name = {"n0": "CN", "n1": "R", "n2": "HA", "n3": "FA1", "n4": "FA2", "n5": "MN"}

    assert _si(sc["duration"]) == _si(twin["duration"]) == 120.0
    # Nodes: the same order, positions and walk (Fig. 3's four legs at 10 m/s).
    assert [name[n["name"]] for n in sc["nodes"]] == [n["name"] for n in twin["nodes"]]
    for a, b in zip(sc["nodes"], twin["nodes"]):
        assert a.get("position") == b.get("position"), b["name"]
        moves = [(_si(m["at"]), m["to"], _si(m["speed"])) for m in a.get("moves", [])]
        assert moves == [(_si(m["at"]), m["to"], _si(m["speed"])) for m in b.get("moves", [])]
    # Links: CN-R 5 ms, R-HA X = 3, R-FA1 Y = 3, R-FA2 Z = 1 ms; 5 Mb/s, 50 packets each way.
    assert len(sc["links"]) == len(twin["links"]) == 4
    for a, b in zip(sc["links"], twin["links"]):
        assert (name[a["a"]], name[a["b"]]) == (b["a"], b["b"])
        assert _si(a["rate"]) == _si(b["rate"]) == 5e6
        assert _si(a["delay"]) == _si(b["delay"])
        assert a["queue_a_to_b"] == a["queue_b_to_a"] == b["queue"] == 50
        assert set(a) == {"name", "a", "b", "rate", "delay", "queue_a_to_b", "queue_b_to_a"}
        assert set(b) == {"a", "b", "rate", "delay", "queue"}
    assert [_si(lk["delay"]) for lk in twin["links"]] == [0.005, 0.003, 0.003, 0.001]
    # The radio: the script states ns-2.35's defaults, which are ternsim's (WifiConfig).
    w, tw = dict(sc["wireless"]), dict(twin["wireless"])
    assert {k: tw.pop(k) for k in ("data_rate", "basic_rate", "rts_threshold")} == {
        "data_rate": "1Mbps", "basic_rate": "1Mbps", "rts_threshold": "3000B"}  # fmt: skip
    assert _si(w.pop("data_rate")) == _si(w.pop("basic_rate")) == 1e6
    assert w.pop("rts_threshold") == "3000B"
    assert tw == {"rx_range": "75m", "mac_header": 52}
    pt, rx = _si(w.pop("tx_power")), _si(w.pop("rx_threshold"))
    assert pt == 0.28183815
    wavelength = 3e8 / 914e6
    assert abs(pt * wavelength**2 / (4 * math.pi * 75.0) ** 2 / rx - 1) < 2e-6
    assert w == {
        "short_retry_limit": 7, "long_retry_limit": 4, "cw_min": 31, "cw_max": 1023,
        "cs_threshold": "1.559e-11W", "capture_threshold": 10.0, "frequency_mhz": 914.0,
        "system_loss": 1.0, "antenna_height": "1.5m", "propagation": "two_ray_ground",
        "ifq": "priqueue", "ifq_length": 50,
    }  # fmt: skip
    # DSDV with ns-2.35's defaults on the agents and the host.
    assert twin["routing"] == {"protocol": "dsdv"}
    assert sc["routing"] == {"protocol": "dsdv", "periodic_update_interval": "15.0s",
                             "min_update_periods": 3, "use_mac": False}  # fmt: skip
    # Mobile IP: ns-2's timing (the beacon period is 1 s on both sides: the script cannot set
    # it and the core's default is ns-2's), no reverse tunnel, no route optimization.
    m, tm = dict(sc["mobile_ip"]), dict(twin["mobile_ip"])
    assert [name[a] for a in m.pop("agents")] == tm.pop("agents") == ["HA", "FA1", "FA2"]
    assert [{k: name.get(v, v) for k, v in x.items()} for x in m.pop("mobiles")] == [
        {"node": "MN", "home_agent": "HA"}]  # fmt: skip
    assert tm.pop("mobiles") == [{"node": "MN", "home_agent": "HA", "reverse_tunnel": False}]
    assert _si(tm.pop("beacon_period")) == 1.0
    assert (tm.pop("route_optimization"), tm.pop("correspondents")) == (False, [])
    assert {k: _si(v) for k, v in m.items()} == {k: _si(v) for k, v in tm.items()} == {
        "advertisement_lifetime": 2.0, "registration_lifetime": 2.0,
        "registration_retransmit": 0.5}  # fmt: skip
    # The flow: Vegas from CN to MN from 0 s, 1000-byte packets, window 20, α, β, γ = 1, 3, 1
    # (ns-2's defaults, so the translation leaves them to the core's, the same).
    (f,), (tf,) = sc["flows"], twin["flows"]
    ends = (name[f["src"]], name[f["dst"]], f["tcp"], _si(f["start"]))
    assert ends == (tf["src"], tf["dst"], tf["tcp"], _si(tf["start"])) == ("CN", "MN", "vegas", 0)
    assert set(f) == {"name", "src", "dst", "start", "tcp", "options"}
    assert set(tf) == {"name", "src", "dst", "start", "tcp"}
    assert twin["tcp_defaults"] == {
        "profile": "ns2.26", "packet_size": "1000B", "window": 20,
        "vegas_alpha": 1.0, "vegas_beta": 3.0, "vegas_gamma": 1.0,
    }  # fmt: skip
    opts = dict(f["options"])
    assert {k: _si(opts.pop(k)) for k in ("min_rto", "initial_rto", "max_rto")} == {
        "min_rto": 1.0, "initial_rto": 6.0, "max_rto": 100000.0}  # fmt: skip
    assert opts == {
        "profile": "ns2.35", "packet_size": "1000B", "header_size": "40B", "window": 20,
        "precision_reduce": False, "idle_rtx_timer": True, "delayed_ack": False,
    }  # fmt: skip
    # Nothing else on either side (the twin's traces are the reproduction's; `scenario_dir`
    # is where its file is).
    assert set(sc) == {"name", "duration", "nodes", "links", "wireless", "routing",
                       "mobile_ip", "flows"}  # fmt: skip
    assert set(twin) - {"traces", "description", "scenario_dir"} == set(sc) | {"tcp_defaults"}


@pytest.mark.skipif(NS is None, reason="ns-2 (`ns`) is not installed: apt-get install ns2")
def test_vegas_fig3_against_ns2(tmp_path):
    """`ternsim ns2 vegas_fig3.tcl` against `ns vegas_fig3.tcl`, seeds 1-3 each. Measured
    (10 seeds, README "The ns-2 script of Fig. 3"): both hosts route through DSDV, so the
    base RTTs agree within 0.03 ms (60-byte ACKs on both sides' air), the handoffs wait for
    DSDV in both, and Vegas's settled throughput at home and in each foreign network, the
    segments acknowledged and the timeouts agree (seeds 1-3: acked 6678, 6988, 6801 against
    6973, 7184, 7398; timeouts 12, 12, 13 against 12, 11, 12)."""
    ns = [_vegas_fig3([NS], s, tmp_path / f"ns{s}")[1] for s in (1, 2, 3)]
    ts = [_vegas_fig3([sys.executable, "-m", "ternsim", "ns2"], s, tmp_path / f"t{s}")[1]
          for s in (1, 2, 3)]  # fmt: skip

    def mean(rows, col):
        return statistics.mean(r[col] for r in rows)

    for col in ("rtt_home_ms", "rtt_fa1_ms", "rtt_fa2_ms"):
        assert abs(mean(ns, col) - mean(ts, col)) < 0.1, col
    # A settled rate is two-valued across seeds (a handoff's registration meets the new
    # agent's DSDV update at once or later; scenarios/ho-mobileip/README.md), so the three
    # seeds' medians are compared.
    for col in ("kbps_home", "kbps_fa1_settled", "kbps_fa2_settled"):
        median_ns = statistics.median(r[col] for r in ns)
        median_ts = statistics.median(r[col] for r in ts)
        assert abs(median_ts / median_ns - 1) < 0.05, col
    assert abs(mean(ts, "acked") / mean(ns, "acked") - 1) < 0.1
    assert abs(mean(ns, "timeouts") - mean(ts, "timeouts")) <= 1.0


WL_TUTORIAL = Path("/usr/share/doc/ns2/examples/tcl/test/test-suite-WLtutorial.tcl")


@pytest.mark.skipif(
    not WL_TUTORIAL.exists(), reason="ns-2's test suites (Debian's ns2-examples) are not installed"
)
def test_the_wireless_tutorials_mobile_ip_test_runs_unchanged(tmp_path):
    """ns-2's own `test-suite-WLtutorial.tcl wireless3` (the tutorial's Mobile IP script): its
    preamble turns `Mac/802_11 bugFix_timer_` off and its host is 1.0.2 in a cluster of two
    nodes; the host's agent sends TCP ACKs from 100 s on, as it walks from its home agent to
    the foreign agent."""
    script = tmp_path / WL_TUTORIAL.name
    shutil.copy(WL_TUTORIAL, script)
    sc = translate_script(script, ["wireless3", "QUIET"])
    assert sc["wireless"]["bug_fix_timer"] is False
    p = subprocess.run(
        [sys.executable, "-m", "ternsim", "ns2", script.name, "wireless3", "QUIET"],
        cwd=tmp_path, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert p.returncode == 0, p.stderr
    lines = (tmp_path / "temp.rands").read_text().splitlines()
    acks = sum(1 for line in lines if line.startswith("s ") and " AGT " in line and " ack " in line)
    # ns-2.35 on the same test: 7083 ACKs sent by the host's agent; ternsim 6239. The count
    # turns on where TCP's backoffs fall against the registrations; with `ns-random N` added
    # to the script, seeds 1-6: ns-2 7083, 8259, 6242, 8196, 7356, 7366 (mean 7417); ternsim
    # 6239, 7748, 6987, 8146, 8018, 7934 (mean 7512; before the host took ns-2's
    # registration rules 7215, 7035, 7341, 7917, 7232, 6887, mean 7271). Within ns-2's
    # spread over seeds, 5 % either side.
    assert 0.95 * 6242 <= acks <= 1.05 * 8259, acks
