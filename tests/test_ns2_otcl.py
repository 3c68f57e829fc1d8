"""What ns-2's validation suites (``tcl/test/test-suite-*.tcl``) need of ``ternsim ns2``.

The OTcl of their framework (``misc_simple.tcl``, ``misc.tcl``, ``topologies.tcl``): class
procs, per-object instance arrays, ``info`` introspection, the ``class``/``proc`` variables of a
method, a method no class defines as a Tcl error the script catches. Their trace: ``Trace set
show_tcphdr_ 1`` appends the TCP header's fields to each wired line. Their TCP settings
(``bugFix_``, ``rfc2988_``, ``delay_growth_``, ``useHeaders_``, NewReno's
``partial_window_deflation_`` and ``newreno_changes1_``) and ``trace-queue`` into a second file.

Each script's expected output is written out by hand (worked from OTcl's and ns-2's rules) and,
where ``ns`` is installed, also compared with ns-2's own.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ternsim.conformance import compare_traces

SCRIPTS = Path(__file__).parent / "ns2_scripts"
NS = shutil.which("ns")
needs_ns = pytest.mark.skipif(NS is None, reason="ns-2 (`ns`) is not installed")

#: otcl_framework.tcl's output, line by line, as OTcl's rules give it.
OTCL_EXPECTED = [
    "Base:3",  # a class proc: $self is the class
    "make",  # Base info procs
    "1",  # Object info subclass Base/Mid/Leaf: a descendant
    "1",  # Base info subclass Base/Mid/Leaf
    "0",  # Base/Mid/Leaf info subclass Base: not a descendant
    "1",  # Base/Mid info subclass Base/Mid: a class counts among its own
    "1",  # catch {Object info subclass Nothing/Here}: not a class, an error
    "Base/Mid",  # Base info subclass: the immediate subclasses
    "Base/Mid",  # Base/Mid/Leaf info superclass
    "Base/Mid Base Object",  # Base/Mid/Leaf info heritage
    "a b",  # $o array names tab_: an array made through `$self instvar tab_`
    "2",  # $o set tab_(b)
    "Base who 1 5 / Base/Mid/Leaf who",  # $class and $proc in each method, `next` between
    "Base/Mid/Leaf",  # $o info class
    "1",  # $o info class Base
    "x y",  # Base info instargs who
    'return "$class $proc $x $y"',  # Base info instbody who
    "",  # Base info instances: the object is a Base/Mid/Leaf
    "1",  # Base/Mid/Leaf info instances is the object
    "1",  # catch "$o no-such-method": OTcl's dispatch error
    "copy",  # Base/Mid info instprocs c*: a method made from another's body
]


def _run(
    cmd: list[str], script: Path, args: list[str], folder: Path
) -> subprocess.CompletedProcess:
    folder.mkdir()
    return subprocess.run(
        [*cmd, str(script), *args],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=300,
    )


TERNSIM = [sys.executable, "-m", "ternsim", "ns2"]


def test_otcl_of_the_validation_framework(tmp_path):
    proc = _run(TERNSIM, SCRIPTS / "otcl_framework.tcl", [], tmp_path / "ternsim")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == OTCL_EXPECTED


@needs_ns
def test_otcl_of_the_validation_framework_as_ns(tmp_path):
    proc = _run([NS], SCRIPTS / "otcl_framework.tcl", [], tmp_path / "ns")  # type: ignore[list-item]
    assert (proc.returncode, proc.stdout.splitlines()) == (0, OTCL_EXPECTED), proc.stderr


@pytest.mark.parametrize("tcp", ["Newreno", "Reno"])
def test_tcphdr_fields_and_a_second_queue_trace(tmp_path, tcp):
    """Every wired line ends with the TCP header's ackno, flags, hlen and sa_length, which
    ns-2's one-way agents leave 0 (a Sack sink would set sa_length: refused); the router's
    directions go into queue.tr as well, each line once in each file; losses happen."""
    proc = _run(TERNSIM, SCRIPTS / "tcphdr_queue_trace.tcl", [tcp], tmp_path / "ternsim")
    assert proc.returncode == 0, proc.stderr
    all_tr = (tmp_path / "ternsim" / "all.tr").read_text().splitlines()
    queue_tr = (tmp_path / "ternsim" / "queue.tr").read_text().splitlines()
    assert all(line.split(" ")[12:] == ["0", "0x0", "0", "0"] for line in all_tr)
    assert any(line.startswith("d ") for line in all_tr)
    # queue.tr: exactly all.tr's lines of the directions out of the router (node 1).
    assert queue_tr == [x for x in all_tr if x.split(" ")[2] == "1"]
    # useHeaders_ false: data packets of 1000 bytes, no SYN (syn_ false).
    sizes = {int(x.split(" ")[5]) for x in all_tr if " tcp " in x}
    assert sizes == {1000}


@needs_ns
@pytest.mark.parametrize("tcp", ["Newreno", "Reno"])
def test_tcphdr_fields_and_a_second_queue_trace_as_ns(tmp_path, tcp):
    """The same lines as ns-2 writes into both files (only lines within one timestamp may be
    ordered differently: ternsim's integer-nanosecond clock breaks ties in its own order)."""
    script = SCRIPTS / "tcphdr_queue_trace.tcl"
    ours = _run(TERNSIM, script, [tcp], tmp_path / "ternsim")
    theirs = _run([NS], script, [tcp], tmp_path / "ns")  # type: ignore[list-item]
    assert ours.returncode == theirs.returncode == 0, (ours.stderr, theirs.stderr)
    for name in ("all.tr", "queue.tr"):
        cmp = compare_traces(
            (tmp_path / "ns" / name).read_text(), (tmp_path / "ternsim" / name).read_text()
        )
        assert cmp["verdict"] in ("identical", "equal up to ties"), (name, cmp)


def test_a_tcp_setting_ternsim_does_not_model_is_refused(tmp_path):
    text = (SCRIPTS / "tcphdr_queue_trace.tcl").read_text()
    script = tmp_path / "script.tcl"
    # The quiescence option is modelled for ns-2's Agent/TCP (Tahoe) alone.
    script.write_text("Agent/TCP set QOption_ 1\n" + text)
    proc = _run(TERNSIM, script, ["Newreno"], tmp_path / "ternsim")
    assert proc.returncode == 2
    assert (
        "Agent/TCP/Newreno QOption_ 1 (the quiescence option, modelled for Agent/TCP only): "
        "not supported" in proc.stderr
    )
    assert not (tmp_path / "ternsim" / "all.tr").exists()


def _late_tcphdr_script(tmp_path: Path) -> Path:
    """tcphdr_queue_trace.tcl with `Trace set show_tcphdr_ 1` moved after the traced links."""
    lines = (SCRIPTS / "tcphdr_queue_trace.tcl").read_text().splitlines()
    lines.remove("Trace set show_tcphdr_ 1")
    at = lines.index("$ns queue-limit $r $k 6") + 1
    lines[at:at] = ["Trace set show_tcphdr_ 1"]
    script = tmp_path / "late.tcl"
    script.write_text("\n".join(lines) + "\n")
    return script


def test_show_tcphdr_is_read_when_a_links_trace_is_made(tmp_path):
    """ns-2's trace objects take `show_tcphdr_` when they are made: set after the links,
    it adds nothing to their lines."""
    proc = _run(TERNSIM, _late_tcphdr_script(tmp_path), ["Reno"], tmp_path / "ternsim")
    assert proc.returncode == 0, proc.stderr
    lines = (tmp_path / "ternsim" / "all.tr").read_text().splitlines()
    assert lines and all(len(x.split(" ")) == 12 for x in lines)


@needs_ns
def test_show_tcphdr_is_read_when_a_links_trace_is_made_as_ns(tmp_path):
    script = _late_tcphdr_script(tmp_path)
    ours = _run(TERNSIM, script, ["Reno"], tmp_path / "ternsim")
    theirs = _run([NS], script, ["Reno"], tmp_path / "ns")  # type: ignore[list-item]
    assert ours.returncode == theirs.returncode == 0, (ours.stderr, theirs.stderr)
    cmp = compare_traces(
        (tmp_path / "ns" / "all.tr").read_text(), (tmp_path / "ternsim" / "all.tr").read_text()
    )
    assert cmp["verdict"] in ("identical", "equal up to ties"), cmp


def test_a_refusal_in_a_callback_names_its_at_line(tmp_path):
    """A callback's own command refused mid-run is blamed on the `$ns at` line that scheduled
    it (the validation suites' callbacks all run under one `$ns run` inside a method)."""
    script = tmp_path / "cb.tcl"
    script.write_text(
        "set ns [new Simulator]\n"
        "set n0 [$ns node]\n"
        "set n1 [$ns node]\n"
        "$ns duplex-link $n0 $n1 1Mb 10ms DropTail\n"
        "set tcp [$ns create-connection TCP $n0 TCPSink $n1 1]\n"
        "set ftp [$tcp attach-app FTP]\n"
        '$ns at 0.1 "$ftp start"\n'
        '$ns at 0.5 "$ftp resume"\n'
        '$ns at 1.0 "exit 0"\n'
        "$ns run\n"
    )
    proc = _run(TERNSIM, script, [], tmp_path / "ternsim")
    assert proc.returncode == 2
    assert 'cb.tcl:8: $ns at 0.5 "$ftp resume": not supported' in proc.stderr


def _delayed_script(tmp_path: Path, lines_after_links: list[str]) -> Path:
    lines = (SCRIPTS / "tcphdr_queue_trace.tcl").read_text().splitlines()
    at = lines.index("$ns queue-limit $r $k 6") + 1
    lines[at:at] = lines_after_links
    script = tmp_path / "delay.tcl"
    script.write_text("\n".join(lines) + "\n")
    return script


def test_ns_delay_sets_a_links_delay(tmp_path):
    """`$ns delay A B D` in both directions (test-suite-sack.tcl's sack5): the first data
    packet, 1000 bytes on 7 Mb/s, reaches the router 1.142857 ms + 10 ms after 0.1 s."""
    script = _delayed_script(tmp_path, ["$ns delay $s $r 10ms", "$ns delay $r $s 10ms"])
    proc = _run(TERNSIM, script, ["Reno"], tmp_path / "ternsim")
    assert proc.returncode == 0, proc.stderr
    first = next(
        x for x in (tmp_path / "ternsim" / "all.tr").read_text().splitlines() if x[0] == "r"
    )
    assert first.split(" ")[1:4] == ["0.111143", "0", "1"]


@needs_ns
def test_ns_delay_of_one_direction_changes_that_direction_only_as_ns(tmp_path):
    """`$ns delay A B D` without `duplex` sets the A -> B direction only (the link becomes
    asymmetric): ns-2's trace, up to lines ordered differently within one timestamp. (With
    10 ms instead of 13, a packet reaches the full bottleneck queue at the instant the link
    takes the next one, and that exact tie decides a drop differently: see the README.)"""
    script = _delayed_script(tmp_path, ["$ns delay $s $r 13ms"])
    ours = _run(TERNSIM, script, ["Reno"], tmp_path / "ternsim")
    theirs = _run([NS], script, ["Reno"], tmp_path / "ns")  # type: ignore[list-item]
    assert ours.returncode == theirs.returncode == 0, (ours.stderr, theirs.stderr)
    cmp = compare_traces(
        (tmp_path / "ns" / "all.tr").read_text(), (tmp_path / "ternsim" / "all.tr").read_text()
    )
    assert cmp["verdict"] in ("identical", "equal up to ties"), cmp


@needs_ns
def test_ns_delay_sets_a_links_delay_as_ns(tmp_path):
    script = _delayed_script(tmp_path, ["$ns delay $s $r 10ms", "$ns delay $r $s 10ms duplex"])
    ours = _run(TERNSIM, script, ["Reno"], tmp_path / "ternsim")
    theirs = _run([NS], script, ["Reno"], tmp_path / "ns")  # type: ignore[list-item]
    assert ours.returncode == theirs.returncode == 0, (ours.stderr, theirs.stderr)
    cmp = compare_traces(
        (tmp_path / "ns" / "all.tr").read_text(), (tmp_path / "ternsim" / "all.tr").read_text()
    )
    assert cmp["verdict"] in ("identical", "equal up to ties"), cmp
