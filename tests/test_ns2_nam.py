"""`$ns namtrace-all`: the nam trace ternsim writes for an ns-2 script.

A hand-checked file without ns-2 (header lines and the first packet's `+ - h r`, its times
worked out from the link), then the same script run by ``ns`` and by ``ternsim ns2`` giving
the same nam file up to lines of one timestamp in another order (skipped without ``ns``), and
Debian's ``nam`` reading ternsim's file (skipped without ``nam`` and ``xvfb-run``).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ternsim.conformance import compare_nam, nam_microseconds

SCRIPTS = Path(__file__).parent / "ns2_scripts"
NS = shutil.which("ns")

#: Two links: 1-2 made before namtrace-all (drawn, its packets not traced), 0-1 after it.
#: One 500-byte CBR packet from node 0 to node 2 at 0.5 s; the script ends at 0.55 s.
ONE_PACKET = """set ns [new Simulator]
set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
$ns duplex-link $n1 $n2 10Mb 10ms DropTail
set nf [open out.nam w]
$ns namtrace-all $nf
$ns duplex-link $n0 $n1 1.5Mb 20ms DropTail
set udp [new Agent/UDP]
$ns attach-agent $n0 $udp
set null [new Agent/Null]
$ns attach-agent $n2 $null
$ns connect $udp $null
set cbr [new Application/Traffic/CBR]
$cbr set packetSize_ 500
$cbr set interval_ 0.1
$cbr attach-agent $udp
$ns at 0.5 "$cbr start"
proc finish {} { global ns nf; $ns flush-trace; close $nf; exit 0 }
$ns at 0.55 "finish"
$ns run
"""


def ternsim_ns2(folder: Path, script: Path | str, text: str | None = None) -> Path:
    """Runs ``ternsim ns2`` on a script in ``folder``; returns the folder."""
    if text is not None:
        (folder / str(script)).write_text(text)
    proc = subprocess.run(
        [sys.executable, "-m", "ternsim", "ns2", str(script)],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    return folder


def test_one_packet_by_hand(tmp_path):
    """The header of ns-2's init-nam, the `l` line of each link (rate in b/s, delay in s)
    and the packet's four lines on the traced link: `+`, `-` and `h` when it is sent at
    0.5 s, `r` after its transmission, 500 * 8 / 1.5e6 = 0.0026667 s, and the 20 ms delay:
    0.5 + (0.0026666... + 0.02) in doubles, which ns-2 prints with `%.15g`:
    0.522666666666667 (its trace-all line rounds to the microsecond, 0.522667). Flow id 0
    (`-c` and `-a`), uid 0, the UDP agent on port 0 of node 0 to the Null agent on port 0 of
    node 2, sequence number 0 (-1 in the `h` line). The 1-2 link, made before namtrace-all,
    has no packet lines."""
    ternsim_ns2(tmp_path, "one.tcl", ONE_PACKET)
    lines = (tmp_path / "out.nam").read_text().splitlines()
    x = "-p cbr -e 500 -c 0 -i 0 -a 0 -x {0.0 2.0"
    assert lines == [
        "V -t * -v 1.0a5 -a 0",
        "A -t * -n 1 -p 0 -o 0x7fffffff -c 30 -a 1",
        "A -t * -h 1 -m 1073741823 -s 0",
        "n -t * -a 0 -s 0 -S UP -v circle -c black -i black",
        "n -t * -a 1 -s 1 -S UP -v circle -c black -i black",
        "n -t * -a 2 -s 2 -S UP -v circle -c black -i black",
        "l -t * -s 1 -d 2 -S UP -r 10000000 -D 0.01 -c black",
        "l -t * -s 0 -d 1 -S UP -r 1500000 -D 0.02 -c black",
        f"+ -t 0.5 -s 0 -d 1 {x} 0 ------- null}}",
        f"- -t 0.5 -s 0 -d 1 {x} 0 ------- null}}",
        f"h -t 0.5 -s 0 -d 1 {x} -1 ------- null}}",
        f"r -t 0.522666666666667 -s 0 -d 1 {x} 0 ------- null}}",
    ]


def test_drawing_commands_write_ns2s_lines(tmp_path):
    """Colours and orientations go into the header; a label before the run is written at
    once (before the header, as in ns-2), a node colour and a link colour during the run
    with the time and the old colour; trace-annotate (and ns-2's global trace_annotate)
    numbers its annotations. The whole file is ns-2.35's for this script (checked with
    `ns`)."""
    text = ONE_PACKET.replace(
        "$ns run",
        "$ns color 1 Blue\n"
        "$ns duplex-link-op $n0 $n1 orient right\n"
        "$ns duplex-link-op $n0 $n1 queuePos 0.5\n"
        "$n0 shape box\n"
        '$n1 label "hop one"\n'
        '$ns at 0.25 "$n2 color red; $ns duplex-link-op $n0 $n1 color green"\n'
        '$ns at 0.3 "$ns trace-annotate {half way}"\n'
        '$ns at 0.35 "trace_annotate again"\n'
        "$ns run",
    )
    ternsim_ns2(tmp_path, "draw.tcl", text)
    lines = (tmp_path / "out.nam").read_text().splitlines()
    assert lines[0] == 'n -t 0 -s 1 -S DLABEL -l "hop one" -L ""'
    assert lines[1] == "V -t * -v 1.0a5 -a 0"
    assert "c -t * -i 1 -n Blue" in lines
    assert "n -t * -a 0 -s 0 -S UP -v box -c black -i black" in lines
    assert "l -t * -s 0 -d 1 -S UP -r 1500000 -D 0.02 -c black -o right" in lines
    assert "q -t * -s 0 -d 1 -a 0.5" in lines and "q -t * -s 1 -d 0 -a 0.5" in lines
    during = lines[max(i for i, line in enumerate(lines) if line.startswith("q ")) + 1 :]
    assert during[:6] == [
        "n -t 0.25 -s 2 -S COLOR -c red -o black -i red -I black",
        "l -t 0.25 -s 0 -d 1 -S COLOR -c green -o black",
        "l -t 0.25 -s 1 -d 0 -S COLOR -c green -o black",
        "v -t 0.3 -e sim_annotation 0.3 1 half way",
        "v -t 0.35 -e sim_annotation 0.35 2 again",
        "+ -t 0.5 -s 0 -d 1 -p cbr -e 500 -c 0 -i 0 -a 0 -x {0.0 2.0 0 ------- null}",
    ]


def test_the_animation_rate_is_a_nam_line_in_seconds(tmp_path):
    """`set-animation-rate` writes ns-2's `v -t NOW set_rate_ext R 1`, R in seconds as
    ns-lib.tcl's `time_parse` computes it in Tcl (2ms -> 0.002, 40us -> 40 * 1e-6 printed
    with 17 digits, a bare number as Tcl's `scan %f` reads it); before the run the line
    comes first, at time 0 (checked with `ns`)."""
    text = ONE_PACKET.replace(
        "$ns run",
        '$ns set-animation-rate 2ms\n$ns at 0.25 "$ns set-animation-rate 40us"\n'
        '$ns at 0.3 "$ns set-animation-rate 0.25"\n$ns run',
    )
    ternsim_ns2(tmp_path, "rate.tcl", text)
    lines = (tmp_path / "out.nam").read_text().splitlines()
    assert lines[0] == "v -t 0 set_rate_ext 0.002 1"
    assert "v -t 0.25 set_rate_ext 3.9999999999999996e-05 1" in lines
    assert "v -t 0.29999999999999999 set_rate_ext 0.25 1" in lines


def test_nam_times_compare_to_the_microsecond():
    """ns-2 writes 15 digits of its clock; both sides are compared rounded as ns-2 rounds
    its wired trace."""
    ns = "r -t 0.522666666666667 -s 0 -d 1 -p cbr\nV -t * -v 1.0a5 -a 0\n"
    assert nam_microseconds(ns) == "r -t 0.522667 -s 0 -d 1 -p cbr\nV -t * -v 1.0a5 -a 0\n"
    ts = "r -t 0.522667 -s 0 -d 1 -p cbr\nV -t * -v 1.0a5 -a 0\n"
    assert compare_nam(ns, ts)["verdict"] == "identical"


@pytest.mark.skipif(NS is None, reason="ns-2 (`ns`) is not installed")
def test_dumbbell_nam_equals_ns2s_up_to_ties(tmp_path):
    """nam_dumbbell.tcl (Reno and CBR over a 1.5 Mb/s bottleneck, 10 s, with colours,
    orientations, a queue position, node shapes, labels and an annotation) under ``ns`` and
    ``ternsim ns2``: the same nam lines, times printed as ns-2 prints them (15 digits of the
    event's double), one line in another place within its timestamp (an annotation the
    script schedules at the same 0.5 s as the FTP start)."""
    script = SCRIPTS / "nam_dumbbell.tcl"
    out = {}
    for who in ("ns", "ternsim"):
        folder = tmp_path / who
        folder.mkdir()
        if who == "ns":
            proc = subprocess.run(
                [NS, str(script)], cwd=folder, capture_output=True, text=True, timeout=300
            )
            assert proc.returncode == 0, proc.stderr
        else:
            ternsim_ns2(folder, script)
        out[who] = (folder / "nam_dumbbell.nam").read_text()
    cmp = compare_nam(out["ns"], out["ternsim"])
    assert cmp["verdict"] in ("identical", "equal up to ties"), cmp
    assert cmp["lines"] > 30_000
    ns, ts = out["ns"].splitlines(), out["ternsim"].splitlines()
    assert sorted(ns) == sorted(ts)
    assert sum(a != b for a, b in zip(ns, ts)) <= 4


@pytest.mark.skipif(NS is None, reason="ns-2 (`ns`) is not installed")
@pytest.mark.parametrize(
    "script",
    [
        "lossmodel_list.tcl",
        "link_lossmodel_list.tcl",
        "rtmodel_down_up.tcl",
        "rtmodel_reversed.tcl",
        "rtmodel_untraced_link.tcl",
        "monitor_queue_outage.tcl",
    ],
)
def test_wired_scripts_with_a_nam_trace_equal_ns2s(tmp_path, script):
    """Scripts whose trace-all file is ns-2's (error models, link outages, queue monitors)
    with `namtrace-all` added before their `trace-all`: the nam file is ns-2's up to ties,
    with the `l ... -S DOWN|UP` and `v ... link-down|up` lines of each `rtmodel-at` call."""
    text = (SCRIPTS / script).read_text()
    assert "\n$ns trace-all " in text
    text = text.replace(
        "\n$ns trace-all ", "\nset nf [open out.nam w]\n$ns namtrace-all $nf\n$ns trace-all ", 1
    )
    out = {}
    for who in ("ns", "ternsim"):
        folder = tmp_path / who
        folder.mkdir()
        if who == "ns":
            (folder / script).write_text(text)
            proc = subprocess.run(
                [NS, script], cwd=folder, capture_output=True, text=True, timeout=300
            )
            assert proc.returncode == 0, proc.stderr
        else:
            ternsim_ns2(folder, script, text)
        out[who] = (folder / "out.nam").read_text()
    cmp = compare_nam(out["ns"], out["ternsim"])
    assert cmp["verdict"] in ("identical", "equal up to ties"), cmp
    if script.startswith("rtmodel_down"):
        assert "l -t 1 -s 2 -d 1 -S DOWN" in out["ternsim"]


NAM = shutil.which("nam")
XVFB = shutil.which("xvfb-run")


def _nam(folder: Path, trace: str) -> subprocess.CompletedProcess:
    """Debian's nam on ``trace`` with a virtual display, told to exit after 3 s of playing."""
    quit_script = folder / "quit.tcl"
    quit_script.write_text("after 3000 {exit 0}\n")
    return subprocess.run(
        [str(XVFB), "-a", str(NAM), "-f", str(quit_script), trace],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.skipif(
    NAM is None or XVFB is None, reason="nam and xvfb-run (a display for nam) are not installed"
)
def test_nam_opens_ternsims_file(tmp_path):
    """Debian's nam reads the whole file ternsim writes (nam needs a display: a virtual one
    from xvfb-run). Skipped when nam does not start on a file holding only the version line
    (Debian bookworm's nam 1.15 exits with an empty `nam:` message before reading anything,
    with or without a file)."""
    (tmp_path / "empty.nam").write_text("V -t * -v 1.0a5 -a 0\n")
    probe = _nam(tmp_path, "empty.nam")
    if probe.returncode != 0:
        pytest.skip(f"nam does not start here: {probe.stderr.strip()!r}")
    ternsim_ns2(tmp_path, SCRIPTS / "nam_dumbbell.tcl")
    proc = _nam(tmp_path, "nam_dumbbell.nam")
    assert proc.returncode == 0, proc.stderr
    assert "error" not in proc.stderr.lower(), proc.stderr


#: ns-2's wireless nam packet line (CMUTrace::nam_format): a send's `+` ends with a space.
WIRELESS_PACKET = re.compile(
    r"^(\+ -t \d+\.\d{9} -s \d+ -d -?\d+ -p \S+ -e \d+ -c 2 -a 0 -i \d+ -k [A-Z]{3} "
    r"|[-hrdf] -t \d+\.\d{9} -s \d+ -d -?\d+ -p \S+ -e \d+ -c 2 -a 0 -i \d+ -k [A-Z]{3})$"
)

#: What ns-2.35 writes for nam_wireless.tcl besides packet lines (checked against `ns`):
#: initial_node_pos's lines (written at once, before the header), the header with the area
#: of namtrace-all-wireless, each setdest's position, velocity and time to go, and the end
#: from nam-end-wireless.
WIRELESS_OTHER = [
    "n -t * -s 0  -x 5 -y 2 -Z 0 -z 30  -v circle -c black",
    "n -t * -s 1  -x 390 -y 385 -Z 0 -z 30  -v circle -c black",
    "V -t * -v 1.0a5 -a 0",
    "W -t * -x 500 -y 500",
    "A -t * -n 1 -p 0 -o 0x7fffffff -c 30 -a 1",
    "A -t * -h 1 -m 1073741823 -s 0",
    "n -t 2.000000 -s 0 -x 5.000000 -y 2.000000 -U 0.683941 -V 0.729537 -T 21.931712",
    "n -t 5.000000 -s 1 -x 390.000000 -y 385.000000 -U -10.606602 -V -10.606602 -T 34.412530",
    "n -t 45.000000 -s 1 -x 25.000000 -y 20.000000 -U 10.663779 -V 10.549115 -T 43.605555",
    "W -t 80",
]


def _split_wireless(text: str) -> tuple[list[str], list[str]]:
    """(packet event lines, the others), each in file order."""
    packets: list[str] = []
    other: list[str] = []
    for x in text.splitlines():
        (packets if x[:1] in "+-hrdf" and x[1:4] == " -t" else other).append(x)
    return packets, other


def test_wireless_nam_has_ns2s_lines(tmp_path):
    """namtrace-all-wireless on nam_wireless.tcl: the lines that are not packet events are
    ns-2's, and each packet event has ns-2's format (a send as `+ - h`, an agent's
    reception `r` to itself, the TCP flow's packets from node 0 at first, broadcasts to -1).
    The 802.11 run is random: the packet lines themselves are not compared."""
    ternsim_ns2(tmp_path, SCRIPTS / "nam_wireless.tcl")
    packets, other = _split_wireless((tmp_path / "nam_wireless.nam").read_text())
    assert other == WIRELESS_OTHER
    assert len(packets) > 10_000
    bad = [x for x in packets if not WIRELESS_PACKET.match(x)]
    assert bad == []
    assert packets[:3] == [
        "+ -t 3.000000000 -s 0 -d -1 -p tcp -e 40 -c 2 -a 0 -i 0 -k AGT ",
        "- -t 3.000000000 -s 0 -d -1 -p tcp -e 40 -c 2 -a 0 -i 0 -k AGT",
        "h -t 3.000000000 -s 0 -d -1 -p tcp -e 40 -c 2 -a 0 -i 0 -k AGT",
    ]
    received = next(x for x in packets if x.startswith("r ") and x.endswith("AGT"))
    assert " -s 1 -d 1 -p tcp " in received


@pytest.mark.skipif(NS is None, reason="ns-2 (`ns`) is not installed")
def test_wireless_nam_matches_ns2s_format(tmp_path):
    """The same script under ``ns``: the same non-packet lines, and every packet line of
    both files in ns-2's format."""
    folder = tmp_path / "ns"
    folder.mkdir()
    proc = subprocess.run(
        [NS, str(SCRIPTS / "nam_wireless.tcl")],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    packets, other = _split_wireless((folder / "nam_wireless.nam").read_text())
    assert other == WIRELESS_OTHER
    assert [x for x in packets if not WIRELESS_PACKET.match(x)] == []


MITF = Path("/usr/share/doc/ns2/examples/tcl/ex/wireless-mitf.tcl")


def _kinds(text: str) -> dict[tuple[str, str, str], int]:
    """How many packet lines of each (event, packet type, layer) a wireless nam file has."""
    out: dict[tuple[str, str, str], int] = {}
    for x in _split_wireless(text)[0]:
        f = x.split()
        key = (f[0], f[f.index("-p") + 1], f[f.index("-k") + 1])
        out[key] = out.get(key, 0) + 1
    return out


@pytest.mark.skipif(NS is None or not MITF.exists(), reason="needs `ns` and ns-2's examples")
def test_wireless_nam_has_the_mac_frames_ns2_draws(tmp_path):
    """ns-2's `ex/wireless-mitf.tcl` (two nodes, DSDV, TCP, MAC trace on) in both simulators:
    ns-2's nam file draws the MAC's RTS, CTS and ACK frames and ARP's packets as well as the
    IP packets (CMUTrace::nam_format on every MAC line, `-d -1`), 95,089 lines against 45,120
    in ternsim's before it did too. The same kinds of lines in both, and as many of each
    within 5 % (the 802.11 runs are random)."""
    (tmp_path / "ns").mkdir()
    (tmp_path / "ts").mkdir()
    env_path = tmp_path / "bin"
    env_path.mkdir()
    (env_path / "nam").write_text("#!/bin/sh\nexit 0\n")
    (env_path / "nam").chmod(0o755)
    env = {"PATH": f"{env_path}:/usr/bin:/bin"}
    for folder, cmd in (
        (tmp_path / "ns", [NS]),
        (tmp_path / "ts", [sys.executable, "-m", "ternsim", "ns2"]),
    ):
        p = subprocess.run(
            [*cmd, str(MITF)], cwd=folder, capture_output=True, text=True, timeout=300, env=env
        )
        assert p.returncode == 0, p.stderr
    theirs = _kinds((tmp_path / "ns" / "wireless_mitf.nam").read_text())
    ours = _kinds((tmp_path / "ts" / "wireless_mitf.nam").read_text())
    frequent = {k for k, n in theirs.items() if n >= 100}
    assert {("+", "RTS", "MAC"), ("r", "CTS", "MAC"), ("h", "ACK", "MAC")} <= frequent
    for k in frequent:
        assert abs(ours.get(k, 0) - theirs[k]) <= 0.05 * theirs[k], (k, ours.get(k), theirs[k])
    assert ours[("+", "ARP", "MAC")] == theirs[("+", "ARP", "MAC")]
    line = next(
        x
        for x in _split_wireless((tmp_path / "ts" / "wireless_mitf.nam").read_text())[0]
        if " -p RTS " in x
    )
    assert WIRELESS_PACKET.match(line) and " -d -1 -p RTS -e 44 " in line
