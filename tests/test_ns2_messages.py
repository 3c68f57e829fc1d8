"""What ns-2.35 prints of its own on a wireless script (God's node count, the channel's first
frame and its carrier-sense distance, the list and sort notes, the `-channelType` warning),
where ns-2 prints it: checked against distances worked out by hand and against `ns`."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from ternsim.ns2.messages import carrier_sense_distance

NS = shutil.which("ns")

SCRIPT = """set ns [new Simulator]
set tf [open /dev/null w]
$ns trace-all $tf
set topo [new Topography]
$topo load_flatgrid 500 500
puts "before god"
create-god 2
$ns node-config -adhocRouting AODV -llType LL -macType Mac/802_11 \\
  -ifqType Queue/DropTail/PriQueue -ifqLen 50 -antType Antenna/OmniAntenna \\
  -propType PROP -phyType Phy/WirelessPhy -channelType Channel/WirelessChannel \\
  -topoInstance $topo
set n0 [$ns node]
set n1 [$ns node]
puts "after nodes"
set u [new Agent/UDP]
$ns attach-agent $n0 $u
set nl [new Agent/Null]
$ns attach-agent $n1 $nl
$ns connect $u $nl
set c [new Application/Traffic/CBR]
$c attach-agent $u
$ns at 0.5 "puts before-cbr; puts stderr before-cbr-err"
$ns at 0.6 "$c start"
$ns at 1.0 "puts stderr tick; puts out-tick; exit 0"
$ns run
"""


def test_carrier_sense_distance_inverts_the_propagation_models():
    # Two-ray ground: (Pt·h^4/CSThresh)^(1/4) with ns-2's defaults is 550.0 m; free space:
    # √(Pt·λ²/(L·CSThresh))/4π with λ = 3e8 / 914 MHz is 3511.9 m (what ns-2.35 prints).
    two_ray = carrier_sense_distance(
        "Propagation/TwoRayGround", 1.559e-11, 0.28183815, 1.5, 1.0, 914e6
    )
    assert two_ray == pytest.approx((0.28183815 * 1.5**4 / 1.559e-11) ** 0.25)
    assert f"{two_ray:0.1f}" == "550.0"
    free = carrier_sense_distance("Propagation/FreeSpace", 1.559e-11, 0.28183815, 1.5, 1.0, 914e6)
    assert f"{free:0.1f}" == "3511.9"


def run(tmp_path, prop: str, cmd: list[str]) -> subprocess.CompletedProcess:
    (tmp_path / "s.tcl").write_text(SCRIPT.replace("PROP", prop))
    return subprocess.run(
        [*cmd, "s.tcl"], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )  # fmt: skip


def test_lines_come_where_ns2_writes_them_into_pipes(tmp_path):
    """stdout is a pipe: the script's lines first, C's at exit; stderr in time order, the
    first frame's note (0.6 s, the AODV request) between the callbacks of 0.5 and 1.0 s."""
    p = run(tmp_path, "Propagation/TwoRayGround", [sys.executable, "-m", "ternsim", "ns2"])
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines() == [
        "before god",
        "after nodes",
        "before-cbr",
        "out-tick",
        "num_nodes is set 2",
        "channel.cc:sendUp - Calc highestAntennaZ_ and distCST_",
        "highestAntennaZ_ = 1.5,  distCST_ = 550.0",
    ]
    assert p.stderr.splitlines() == [
        "warning: Please use -channel as shown in tcl/ex/wireless-mitf.tcl",
        "INITIALIZE THE LIST xListHead",
        "before-cbr-err",
        "SORTING LISTS ...DONE!",
        "tick",
    ]


def test_a_refused_script_prints_only_its_refusal(tmp_path):
    script = SCRIPT.replace("$ns run", "$ns duplex-link $n0 $n1 1Mb 10ms CBQ\n$ns run")
    (tmp_path / "s.tcl").write_text(script.replace("PROP", "Propagation/TwoRayGround"))
    p = subprocess.run(
        [sys.executable, "-m", "ternsim", "ns2", "s.tcl"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert p.returncode == 2
    assert len(p.stderr.splitlines()) == 1 and "s.tcl:" in p.stderr
    assert "num_nodes" not in p.stdout


@pytest.mark.skipif(NS is None, reason="ns-2 (`ns`) is not installed")
def test_stdout_and_stderr_are_ns2s(tmp_path):
    # (Under Propagation/FreeSpace ns-2.35 also prints a debug line per frame received,
    # `FreeSpace::Pr`'s left-over printf, which ternsim does not write.)
    prop = "Propagation/TwoRayGround"
    ours = run(tmp_path, prop, [sys.executable, "-m", "ternsim", "ns2"])
    theirs = run(tmp_path, prop, [NS])
    assert (ours.returncode, ours.stdout, ours.stderr) == (
        theirs.returncode,
        theirs.stdout,
        theirs.stderr,
    )
