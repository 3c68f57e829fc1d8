"""The ns-2 front end without ns-2: translation, refusals, callbacks, the OTcl shim, the CLI."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ternsim.ns2 import ScriptRefused, run_script, translate_script

SCRIPTS = Path(__file__).parent / "ns2_scripts"

HEAD = """set ns [new Simulator]
set f [open out.tr w]
$ns trace-all $f
set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
$ns duplex-link $n0 $n1 10Mb 10ms DropTail
$ns duplex-link $n1 $n2 1.5Mb 20ms DropTail
"""

TCP = """set tcp [new Agent/TCP/Newreno]
$ns attach-agent $n0 $tcp
set sink [new Agent/TCPSink]
$ns attach-agent $n2 $sink
$ns connect $tcp $sink
set ftp [$tcp attach-app FTP]
$ns at 0.5 "$ftp start"
"""

#: A FullTcp connection (its agents do not keep `ncwndcuts_`).
FULL = """set tcp [new Agent/TCP/FullTcp]
$ns attach-agent $n0 $tcp
set sink [new Agent/TCP/FullTcp]
$ns attach-agent $n2 $sink
$ns connect $tcp $sink
$sink listen
set ftp [$tcp attach-app FTP]
$ns at 0.5 "$ftp start"
"""

FINISH = """proc finish {} {
    global ns f tcp
    $ns flush-trace
    close $f
    puts "rexmit [$tcp set nrexmitpack_]"
    exit 3
}
$ns at 2.0 "finish"
$ns run
"""


def ternsim_ns2(
    tmp_path: Path, text: str, *args: str, options: tuple[str, ...] = ()
) -> subprocess.CompletedProcess:
    """``ternsim ns2 OPTIONS script.tcl ARGS`` on ``text`` in ``tmp_path`` (as with ``ns``,
    what follows the script is the script's own arguments)."""
    script = tmp_path / "script.tcl"
    script.write_text(text)
    return subprocess.run(
        [sys.executable, "-m", "ternsim", "ns2", *options, "script.tcl", *args],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_script_becomes_a_scenario(tmp_path):
    script = tmp_path / "s.tcl"
    script.write_text(
        HEAD
        + "Queue set limit_ 30\n$ns duplex-link $n2 [$ns node] 1Mb 1ms DropTail\n"
        + "$ns queue-limit $n2 $n1 7\n"
        + TCP.replace(
            "$ns attach-agent $n0 $tcp",
            "$tcp set windowInit_ 4\n$tcp set fid_ 9\n$ns attach-agent $n0 $tcp",
        )
        + '$ns at 1.5 "$ftp stop"\n'
        + FINISH
    )
    sc = translate_script(script)
    assert [n["name"] for n in sc["nodes"]] == ["0", "1", "2", "3"]
    l01, l12, l23 = sc["links"]
    assert (l01["rate"], l01["delay"], l01["queue_a_to_b"]) == ("10000000.0bps", "0.01s", 50)
    assert (l12["queue_a_to_b"], l12["queue_b_to_a"]) == (50, 7)
    assert (l23["queue_a_to_b"], l23["queue_b_to_a"]) == (30, 30)
    (flow,) = sc["flows"]
    assert flow["tcp"] == "newreno" and (flow["src"], flow["dst"]) == ("0", "2")
    assert (flow["start"], flow["stop"]) == ("0.5s", "1.5s")
    opts = flow["options"]
    assert opts["packet_size"] == "1000B" and opts["header_size"] == "40B"
    assert opts["window"] == 20 and opts["window_init"] == 4 and not opts["delayed_ack"]
    # ns-2's boot_time_: the agent drew one number when created, `$ns run` draws the next.
    assert opts["tick_phase"] == f"{0.01 * 0.5558807159827996!r}s"
    assert sc["duration"] == "2.0s"
    assert not (tmp_path / "out.tr").exists()


def test_two_simplex_links_become_one_asymmetric_link(tmp_path):
    """`simplex-link A B` and, later, `simplex-link B A` are one link whose b -> a direction
    has its own rate, delay and queue; `$ns delay A B D` (simplex unless told) sets one
    direction's delay."""
    script = tmp_path / "s.tcl"
    script.write_text(
        HEAD.replace(
            "$ns duplex-link $n1 $n2 1.5Mb 20ms DropTail\n",
            "$ns simplex-link $n1 $n2 1.5Mb 20ms DropTail\n"
            "set n3 [$ns node]\n$ns duplex-link $n2 $n3 1Mb 1ms DropTail\n"
            "$ns simplex-link $n2 $n1 64kb 50ms DropTail\n"
            "$ns queue-limit $n2 $n1 5\n$ns delay $n1 $n0 12ms\n",
        )
        + TCP
        + FINISH
    )
    sc = translate_script(script)
    l01, l12, l23 = sc["links"]
    assert (l12["a"], l12["b"], l12["rate"], l12["delay"]) == ("1", "2", "1500000.0bps", "0.02s")
    assert (l12["rate_b_to_a"], l12["delay_b_to_a"]) == ("64000.0bps", "0.05s")
    assert (l12["queue_a_to_b"], l12["queue_b_to_a"]) == (50, 5)
    assert (l01["delay"], l01["delay_b_to_a"]) == ("0.01s", "0.012s")
    assert "rate_b_to_a" not in l01 and "delay_b_to_a" not in l23


def test_an_application_switched_on_and_off_becomes_flow_events(tmp_path):
    """The first start and the stop after it are the flow's; later starts and stops are
    scenario events on the flow; a stop of an application not running changes nothing; an
    application no `$ns at` starts becomes a flow that waits to be started (a callback may)."""
    cbr = (
        "set udp [new Agent/UDP]\n$ns attach-agent $n0 $udp\nset null [new Agent/Null]\n"
        "$ns attach-agent $n2 $null\n$ns connect $udp $null\n"
        "set cbr [new Application/Traffic/CBR]\n$cbr attach-agent $udp\n"
        '$ns at 0.1 "$cbr stop"\n$ns at 0.2 "$cbr start"\n$ns at 0.5 "$cbr stop"\n'
        '$ns at 0.9 "$cbr start"\n$ns at 1.2 "$cbr stop"\n'
    )
    script = tmp_path / "s.tcl"
    script.write_text(HEAD + TCP.replace('$ns at 0.5 "$ftp start"\n', "") + cbr + FINISH)
    sc = translate_script(script)
    tcp, udp = sc["flows"]
    assert tcp["autostart"] is False and "stop" not in tcp
    assert (udp["start"], udp["stop"]) == ("0.2s", "0.5s") and "autostart" not in udp
    assert sc["events"] == [
        {"at": "0.9s", "action": "start", "flow": udp["name"]},
        {"at": "1.2s", "action": "stop", "flow": udp["name"]},
    ]


def test_a_start_of_a_running_application_is_refused(tmp_path):
    proc = ternsim_ns2(
        tmp_path, HEAD + TCP + '$ns at 0.7 "$ftp start"\n' + FINISH.replace("exit 3", "exit 0")
    )
    assert proc.returncode == 2
    assert "started again while running (at 0.7 s): not supported" in proc.stderr


def test_boot_times_replay_ns2s_default_rng(tmp_path):
    """Each TCP agent's tick phase is the draw ns-2 makes for it at `$ns run`: after one draw
    per TCP agent created (two for Vegas, none for sinks), nodes in Tcl's `array names`
    order, each node's agents in attach order; `$defaultRNG seed N` restarts the sequence."""
    from ternsim._native import core

    script = tmp_path / "s.tcl"
    body = (
        HEAD
        + "set spare [new Agent/TCP]\nset v [new Agent/TCP/Vegas]\n"
        + TCP
        + "$ns attach-agent $n1 $v\nset s2 [new Agent/TCPSink]\n$ns attach-agent $n2 $s2\n"
        + '$ns connect $v $s2\nset ftp2 [$v attach-app FTP]\n$ns at 0.5 "$ftp2 start"\n'
        + FINISH
    )
    for seed_line, seed in (("", 1), ("$defaultRNG seed 5\n", 5)):
        script.write_text(seed_line + body)
        sc = translate_script(script)
        u = core().ns2_uniforms(seed, 7)
        # Creation: spare 1, Vegas 2, NewReno 1 (draws 0-3); run: node 0's NewReno (4),
        # node 1's Vegas (5).
        phases = {f["tcp"]: f["options"]["tick_phase"] for f in sc["flows"]}
        assert phases == {"newreno": f"{0.01 * u[4]!r}s", "vegas": f"{0.01 * u[5]!r}s"}
    # MRG32k3a's own uniforms (ns-2's C++ `Random::uniform()`), within 2^-31 of the 31-bit
    # values its Tcl `uniform` prints (0.0003395769746692744, 0.55588071586372367).
    assert core().ns2_uniforms(1, 2) == [0.0003395772237870988, 0.5558807159827996]


def test_cbr_interval_becomes_a_rate_with_the_packet_size_set_before_it(tmp_path):
    script = tmp_path / "s.tcl"
    script.write_text(
        HEAD
        + """set udp [new Agent/UDP]
$ns attach-agent $n0 $udp
set null [new Agent/LossMonitor]
$ns attach-agent $n2 $null
$ns connect $udp $null
set cbr [new Application/Traffic/CBR]
$cbr set packetSize_ 500
$cbr set interval_ 0.005
$cbr attach-agent $udp
$ns at 0.1 "$cbr start"
$ns at 1.0 "exit 0"
$ns run
"""
    )
    (flow,) = translate_script(script)["flows"]
    assert flow["transport"] == "udp"
    assert flow["app"]["kind"] == "cbr" and flow["app"]["packet_size"] == "500B"
    assert flow["app"]["rate"] == "800000.0bps"


def test_cbr_reports_the_interval_of_its_rate(tmp_path):
    text = "set ns [new Simulator]\nset cbr [new Application/Traffic/CBR]\n"
    text += "puts [$cbr set interval_]\n"
    text += "$cbr set interval_ 0.01\nputs [$cbr set interval_]\nputs [$cbr set rate_]\n"
    proc = ternsim_ns2(tmp_path, text)
    # As ns 2.35 prints them: 210 B at 448Kb under tcl_precision 17, and rate_ as the double
    # its C++ object holds.
    assert proc.stdout == "0.0037499999999999999\n0.01\n168000\n", proc.stderr


def test_a_queue_monitors_integrators_sum_the_queue_over_time(tmp_path):
    """ns-2's Integrator (`get-bytes-integrator`, `get-pkts-integrator`): 1000-byte CBR
    packets every 5 ms into a 1 Mb/s link (8 ms each). The first goes straight onto the wire
    at 0; the second waits from 5 to 8 ms; the third arrives at 10 ms. Read at 12 ms, the
    integral runs to the last point only (10 ms): 1000 bytes x 3 ms = 3 byte-seconds (1
    packet x 3 ms), summed in doubles as ns-2 sums them, lastx_ 0.01, lasty_ the queue's size
    since. `reset` and `newpoint` as ns-2's: 1.5 x 2 = 3 after points (1, 1.5) and (3, 1.5)."""
    text = """set ns [new Simulator]
set n0 [$ns node]
set n1 [$ns node]
$ns duplex-link $n0 $n1 1Mb 10ms DropTail
set udp [new Agent/UDP]
$ns attach-agent $n0 $udp
set null [new Agent/Null]
$ns attach-agent $n1 $null
$ns connect $udp $null
set cbr [new Application/Traffic/CBR]
$cbr set packetSize_ 1000
$cbr set interval_ 0.005
$cbr attach-agent $udp
set qm [$ns monitor-queue $n0 $n1 ""]
$ns at 0.0 "$cbr start"
proc rd {} {
    global qm
    foreach i [list [$qm get-bytes-integrator] [$qm get-pkts-integrator]] {
        puts "[$i set sum_] [$i set lastx_] [$i set lasty_]"
    }
    set i [new Integrator]
    $i newpoint 1 1.5
    $i newpoint 3 1.5
    puts "[$i set sum_] [$i set lastx_] [$i set lasty_]"
    $i reset
    puts "[$i set sum_] [$i set lastx_] [$i set lasty_]"
    exit 0
}
$ns at 0.012 "rd"
$ns run
"""
    proc = ternsim_ns2(tmp_path, text)
    assert proc.returncode == 0, proc.stderr
    wait = 0.008 - 0.005  # the second packet's wait, as ns-2's doubles give it
    assert wait * 1000 == pytest.approx(3.0)
    assert proc.stdout.splitlines() == [
        f"{wait * 1000:.17g} 0.01 1000",
        f"{wait * 1:.17g} 0.01 1",
        "3 3 1.5",
        "0 0 0",
    ]


def test_the_trace_numbers_agents_as_ns2(tmp_path):
    agents = "$n0 [new Agent/Null]\n$tcp set class_ 4\n$ns attach-agent $n0 $tcp"
    finish = FINISH.replace(
        'puts "rexmit', 'puts "fid [$tcp set fid_] [$tcp set window_]"\n    puts "rexmit'
    )
    proc = ternsim_ns2(tmp_path, HEAD + TCP.replace("$n0 $tcp", agents) + finish)
    assert proc.returncode == 3, proc.stderr
    assert proc.stdout.startswith("fid 4 20\nrexmit ") and proc.stderr == ""
    lines = (tmp_path / "out.tr").read_text().splitlines()
    # The TCP is node 0's second agent (port 1), the sink node 2's first; class_ is fid_ (4);
    # uids count from 0. (As ns 2.35 writes it.)
    assert lines[0] == "+ 0.5 0 1 tcp 40 ------- 4 0.1 2.0 0 0"
    assert all(len(line.split()) == 12 for line in lines)


def test_only_links_made_after_trace_all_are_traced(tmp_path):
    text = HEAD.replace("$ns trace-all $f\n", "").replace(
        "$ns duplex-link $n1 $n2", "$ns trace-all $f\n$ns duplex-link $n1 $n2"
    )
    proc = ternsim_ns2(tmp_path, text + TCP + FINISH)
    assert proc.returncode == 3, proc.stderr
    lines = (tmp_path / "out.tr").read_text().splitlines()
    links = {tuple(line.split()[2:4]) for line in lines}
    assert links == {("1", "2"), ("2", "1")}


def test_argv_precision_and_puts_order(tmp_path):
    text = (
        'puts "args $argc [lindex $argv 1] [expr 1.0/3]"\n'
        + HEAD
        + TCP
        + 'proc early {} { global ns; puts "at [$ns now]" }\n'
        + '$ns at 2.0 "early"\n'
        + FINISH
        + 'puts "never"\n'
    )
    proc = ternsim_ns2(tmp_path, text, "a", "b")
    assert proc.returncode == 3, proc.stderr
    out = proc.stdout.splitlines()
    assert out[0] == "args 2 b 0.33333333333333331"
    assert out[1] == "at 2" and out[2].startswith("rexmit ")
    assert len(out) == 3


def test_a_proc_reaches_the_simulator_through_simulator_instance(tmp_path):
    """`[Simulator instance]` in a proc (Greis's tutorial `attach-expoo-traffic`) is the
    simulator `new Simulator` made."""
    text = (
        HEAD
        + TCP
        + 'proc when {} { set ns [Simulator instance]; puts "at [$ns now]" }\n'
        + '$ns at 1.0 "when"\n'
        + 'puts "same [expr {[Simulator instance] eq $ns}]"\n'
        + FINISH
    )
    proc = ternsim_ns2(tmp_path, text)
    assert proc.returncode == 3, proc.stderr
    assert proc.stdout.splitlines()[:2] == ["same 1", "at 1"]


def test_ns_random_and_the_global_uniform_draw_reproducibly(tmp_path):
    """`ns-random` without a seed, ns-2's global `uniform` and `exponential` (procs over
    `$defaultRNG`): numbers in range, the same in two runs (ternsim's stream, not ns-2's
    numbers); a script may redefine `uniform` as its own proc."""
    text = (
        "set a [ns-random]\nset b [uniform 10 100]\nset c [exponential 2]\n"
        'puts "[expr {$a >= 0 && $a < 2147483647}] [expr {$b >= 10 && $b <= 100}] '
        '[expr {$c > 0}] $a $b $c"\n'
        "proc uniform {a b} { return $a }\nputs [uniform 3 4]\n"
    )
    first, second = ternsim_ns2(tmp_path, text), ternsim_ns2(tmp_path, text)
    assert first.returncode == 0, first.stderr
    lines = first.stdout.splitlines()
    assert lines[0].startswith("1 1 1 ") and lines[1] == "3"
    assert second.stdout == first.stdout


def test_a_script_without_nodes_runs_its_callbacks(tmp_path):
    """ns-2 runs a script that makes no node (Greis's first example: a simulator, a nam
    trace and a `finish` at 5 s): its callbacks run at their times, nothing else happens."""
    text = """set ns [new Simulator]
set nf [open out.nam w]
$ns namtrace-all $nf
proc tick {} { global ns; puts "tick [$ns now]" }
proc finish {} { global ns nf; $ns flush-trace; close $nf; puts done; exit 0 }
$ns at 2.5 "tick"
$ns at 5.0 "finish"
$ns run
"""
    proc = ternsim_ns2(tmp_path, text)
    assert (proc.returncode, proc.stdout) == (0, "tick 2.5\ndone\n"), proc.stderr
    nam = (tmp_path / "out.nam").read_text().splitlines()
    assert nam[0] == "V -t * -v 1.0a5 -a 0" and not any(x.startswith("n ") for x in nam)


def test_user_classes_with_instprocs(tmp_path):
    text = """Class Counter
Counter instproc init {start} { $self instvar n; set n $start }
Counter instproc bump {} { $self instvar n; incr n; return $n }
Class Twice -superclass Counter
Twice instproc bump {} { $self next; $self next }
set c [new Twice 5]
puts [$c bump]
puts [$c set n]
"""
    proc = ternsim_ns2(tmp_path, text)
    assert (proc.returncode, proc.stdout) == (0, "7\n7\n"), proc.stderr


def test_red_links_take_ns235s_defaults_and_per_queue_settings(tmp_path):
    """`$ns duplex-link ... RED` gets a Queue/RED per direction with ns-2.35's defaults, whose
    automatic thresholds and weight are chosen from the link when it is made (and read back
    so); `Queue/RED set` changes later queues, `[$ns link $a $b] queue` one direction."""
    import math

    script = tmp_path / "s.tcl"
    script.write_text(
        HEAD.replace("1.5Mb 20ms DropTail", "1.5Mb 20ms RED")
        + "$ns queue-limit $n1 $n2 30\n"
        + "set q [[$ns link $n1 $n2] queue]\n"
        + "$q set bytes_ false\n$q set queue_in_bytes_ false\n$q set gentle_ false\n"
        + "$q set maxthresh_ 20\n$q set linterm_ 50\n$q set use_mark_p_ false\n"
        + "Queue/RED set q_weight_ 0.002\nQueue/RED set thresh_ 3\n"
        + "$ns duplex-link $n2 [$ns node] 10Mb 2ms RED\n"
        + TCP
        + FINISH
    )
    sc = translate_script(script)
    l01, l12, l23 = sc["links"]
    assert (l01["queue_a_to_b"], l01["queue_b_to_a"]) == (50, 50)
    ptc = 1.5e6 / (8 * 500)  # packets of mean_pktsize_ 500 B per second
    auto_w = 1 - math.exp(-1 / (10 * 0.1 * ptc))  # rtt 3 (20 ms + 1/ptc) < 0.1 s: 0.1 s
    forward, backward = l12["queue_a_to_b"], l12["queue_b_to_a"]
    assert forward == {
        "kind": "red",
        "limit": 30,
        "min_thresh": 5.0,
        "max_thresh": 20.0,
        "q_weight": auto_w,
        "linterm": 50.0,
        "gentle": False,
        "wait": True,
        "bytes": False,
        "queue_in_bytes": False,
        "mean_packet_size": "500B",
        "use_mark_p": False,
    }
    assert backward == {**forward, "limit": 50, "max_thresh": 15.0, "linterm": 10.0} | {
        "gentle": True,
        "bytes": True,
        "queue_in_bytes": True,
        "use_mark_p": True,
    }
    # Made after the class changes: thresh_ 3, weight 0.002, maxthresh_ automatic 3 x 3.
    assert (l23["queue_a_to_b"]["min_thresh"], l23["queue_a_to_b"]["max_thresh"]) == (3.0, 9.0)
    assert l23["queue_a_to_b"]["q_weight"] == 0.002


def test_red_reads_back_its_automatic_values(tmp_path):
    proc = ternsim_ns2(
        tmp_path,
        HEAD.replace("1.5Mb 20ms DropTail", "1.5Mb 20ms RED")
        + "set q [[$ns link $n1 $n2] queue]\n"
        + 'puts "[$q set thresh_] [$q set maxthresh_] [$q set q_weight_] [$q set limit_]"\n'
        + "exit 0\n",
    )
    assert (proc.returncode, proc.stdout) == (0, "5 15 0.0026631142694990562 50\n")


REFUSED = [
    (
        "set tcp [new Agent/TCP/BayFullTcp]\n",
        10,
        "new Agent/TCP/BayFullTcp: not supported; supported:",
    ),
    ("$ns frobnicate $n0\n", 10, "$ns frobnicate $n0: not supported; supported Simulator"),
    ("$ns duplex-link $n0 $n2 1Mb 1ms CBQ\n", 10, "queue CBQ not supported; supported: DropTail"),
    ("Queue/RED set cautious_ 1\n", 10, "Queue/RED cautious_ 1 (cautious marking): not supported"),
    (
        "$ns duplex-link $n0 $n2 1Mb 1ms RED\nset q [[$ns link $n0 $n2] queue]\n"
        "$q set adaptive_ 1\n",
        12,
        "Queue/RED adaptive_ 1 (adaptive RED): not supported; supported: adaptive_ 0",
    ),
    (
        "$ns duplex-link $n0 $n2 1Mb 1ms RED\n[[$ns link $n0 $n2] queue] set q_weight_ -3\n",
        11,
        "Queue/RED q_weight_ -3 (a weight below 0 other than",
    ),
    (
        "$ns duplex-link $n0 $n2 1Mb 1ms RED\n[[$ns link $n0 $n2] queue] trace prob1_\n",
        11,
        "trace prob1_: not supported; traceable RED variables: curq_, ave_",
    ),
    (
        "$ns duplex-link $n0 $n2 1Mb 1ms RED\n[[$ns link $n0 $n2] queue] set ave_ 3\n",
        11,
        "Queue/RED ave_: not supported; supported: adaptive_",
    ),
    ("set q [new Queue/RED]\n", 10, "Queue/RED on its own: not supported"),
    (
        "Queue/RED set maxthresh_ 3\nQueue/RED set thresh_ 4\n"
        "$ns duplex-link $n0 $n2 1Mb 1ms RED\n",
        12,
        "Queue/RED maxthresh_ 3 below thresh_ 4: not supported",
    ),
    (
        "$ns simplex-link $n0 $n2 1Mb 1ms DropTail\n",
        10,
        "simplex-link 0 -> 2 without a simplex-link 2 -> 0: not supported",
    ),
    (
        "$ns simplex-link $n1 $n0 1Mb 1ms DropTail\n",
        10,
        "simplex-link: a second link between the same nodes: not supported",
    ),
    ("$defaultRNG wibble 0 1\n", 10, "not supported; supported RNG methods: exponential,"),
    ("set em [new ErrorModel]\n$em unit time\n", 11, "unit time: not supported; supported: pkt"),
    ("set m [new ErrorModule Dest]\n", 10, "new ErrorModule Dest: not supported"),
    ("$ns rtmodel-at 1.0 down $n1\n", 10, "supported: rtmodel-at TIME down|up NODE NODE"),
    (
        "$ns rtmodel Exponential {} $n0 $n1\n",
        10,
        "(Exponential draws its times from ns-2's rtglibRNG, which ternsim does not emulate",
    ),
    ("$ns rtmodel Deterministic {} $n1\n", 10, "rtmodel on node 1 with 2 links: not supported"),
    ("$ns rtmodel Deterministic {-1 0.5 0.5} $n0 $n1\n", 10, "an event not after the clock"),
    (
        "[$ns link $n0 $n1] trace-dynamics $ns $f\n",
        10,
        "trace-dynamics into the trace-all or namtrace-all channel file",
    ),
    ("$ns cost $n0 $n1 3\n", 10, "cost 3: not supported; supported: cost 1"),
    ("$ns queue-monitor $n0 $n1\n", 10, "queue-monitor: not supported; supported: monitor-queue"),
    (
        "set qm [$ns monitor-queue $n0 $n1 stdout]\nputs [$qm set maxRTT_]\n",
        11,
        "QueueMonitor maxRTT_: not supported; supported: size_",
    ),
    (
        "set em [new ErrorModel]\n$ns lossmodel $em $n0 $n1\n$ns lossmodel $em $n1 $n2\n",
        12,
        "an error model placed twice: not supported",
    ),
    ("$ns queue-limit $n0 $n1 1\n", 10, "limits below 2 are not supported"),
    ("wibble 1 2\n", 10, "wibble 1 2: not supported; supported: Simulator"),
    (
        TCP + "$tcp set frto_enabled_ 1\n",
        17,
        "$tcp set frto_enabled_ 1: Agent/TCP/Newreno frto_enabled_ 1 (F-RTO): not supported",
    ),
    (
        FULL + "$ns at 1.0 {puts [$tcp set ncwndcuts_]}\n",
        18,
        "$ns at 1.0 {puts [$tcp set ncwndcuts_]}: ncwndcuts_: not available; available: cwnd_,",
    ),
]


@pytest.mark.parametrize("body,line,message", REFUSED, ids=lambda x: str(x)[:20])
def test_unsupported_commands_stop_before_the_run(tmp_path, body, line, message):
    (tmp_path / "old.tr").write_text("kept\n")
    proc = ternsim_ns2(
        tmp_path, HEAD.replace("out.tr", "old.tr") + "set g [open new.tr w]\n" + body + FINISH
    )
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.startswith(f"script.tcl:{line}: "), proc.stderr
    assert message in proc.stderr
    assert len(proc.stderr.splitlines()) == 1
    assert (tmp_path / "old.tr").read_text() == "kept\n"  # truncated by open, then restored
    assert not (tmp_path / "new.tr").exists()


def test_a_value_ternsim_does_not_keep_is_refused_before_the_run(tmp_path):
    finish = FINISH.replace('puts "rexmit', 'puts "before"\n    puts "rexmit').replace(
        "nrexmitpack_", "ncwndcuts_"
    )
    proc = ternsim_ns2(tmp_path, HEAD + FULL + finish)
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.startswith('script.tcl:22: puts "rexmit [$tcp set ncwndcuts_]": ncwndcuts_')
    assert "ncwndcuts_: not available; available: cwnd_, ssthresh_" in proc.stderr
    assert not (tmp_path / "out.tr").exists()


STEPPED = """set udp [new Agent/UDP]
$ns attach-agent $n0 $udp
set lm [new Agent/LossMonitor]
$ns attach-agent $n2 $lm
$ns connect $udp $lm
set cbr [new Application/Traffic/CBR]
$cbr set packetSize_ 500
$cbr set interval_ 0.01
$cbr attach-agent $udp
$ns at 0.0 "$cbr start"
proc record {} {
    global ns lm
    puts "[$ns now] [$lm set npkts_] [$lm set bytes_] [$lm set nlost_]"
    $lm set bytes_ 0
    $ns at [expr [$ns now] + 0.25] "record"
}
$ns at 0.25 "record"
"""


def test_a_callback_rescheduling_itself_samples_and_resets_a_counter_mid_run(tmp_path):
    """The classic `record` proc: every 0.25 s it reads a LossMonitor and resets `bytes_`.
    A 500 B packet every 10 ms, unloaded path 10 Mb/s + 1.5 Mb/s, 30 ms one way: the first
    packet arrives at 0.4 ms + 10 ms + 2.667 ms + 20 ms = 33.07 ms, so by 0.25 s (events due
    at 0.25 itself not yet run, as in ns-2) packets 0-21 have arrived (packet 21, sent at
    0.21 s, at 0.243 s); each later window of 0.25 s holds 25 arrivals, 12 500 bytes."""
    proc = ternsim_ns2(tmp_path, HEAD + STEPPED + FINISH.replace("[$tcp set nrexmitpack_]", "0"))
    assert proc.returncode == 3, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[:3] == ["0.25 22 11000 0", "0.5 47 12500 0", "0.75 72 12500 0"]
    assert lines[-1] == "rexmit 0"
    assert len(lines) == 8  # 0.25 ... 1.75, then finish at 2.0 exits before record at 2.0


def test_a_window_written_mid_run_bounds_the_sender_from_then_on(tmp_path):
    """`$tcp set window_ 1` at 1 s: afterwards one packet per round trip. A round trip with
    one packet in flight is 0.832 + 5.547 + 60 ms of propagation + 0.032 + 0.213 ms of ACK
    transmission = 66.624 ms (1040 B at 10 and 1.5 Mb/s, 40 B back), so from 1.5 s to 2 s
    the ACK advances by 7 or 8."""
    text = (
        HEAD
        + TCP
        + """proc shrink {} {
    global tcp
    $tcp set window_ 1
}
proc probe {} {
    global ns tcp
    puts "[$ns now] [$tcp set ack_] [$tcp set window_]"
}
$ns at 1.0 "shrink"
$ns at 1.5 "probe"
"""
        + FINISH.replace('puts "rexmit [$tcp set nrexmitpack_]"', "probe")
    )
    proc = ternsim_ns2(tmp_path, text)
    assert proc.returncode == 3, proc.stderr
    (t1, a1, w1), (t2, a2, w2) = (line.split() for line in proc.stdout.splitlines())
    assert (t1, t2, w1, w2) == ("1.5", "2", "1", "1")
    assert int(a2) - int(a1) in (7, 8)


def test_exit_in_a_mid_run_callback_ends_the_run_and_its_trace_there(tmp_path):
    """A callback at 1 s that flushes, closes and exits: the trace stops before 1 s and the
    result folder's summary covers one second."""
    import json

    text = (
        HEAD
        + TCP
        + FINISH.replace("$ns at 2.0", "$ns at 1.0").replace(
            "$ns run", '$ns at 2.0 "puts never"\n$ns run'
        )
    )
    proc = ternsim_ns2(tmp_path, text, options=("--out", "res"))
    assert proc.returncode == 3, proc.stderr
    assert "never" not in proc.stdout
    times = [float(line.split()[1]) for line in (tmp_path / "out.tr").read_text().splitlines()]
    assert times and max(times) < 1.0 and max(times) > 0.9
    summary = json.loads((tmp_path / "res" / "summary.json").read_text())
    assert summary["sim_seconds"] == 1.0


def test_a_red_queues_state_after_the_run_is_refused_before_the_run(tmp_path):
    finish = FINISH.replace("[$tcp set nrexmitpack_]", "[$q set ave_]").replace(
        "global ns f tcp", "global ns f tcp q"
    )
    proc = ternsim_ns2(
        tmp_path,
        HEAD.replace("1.5Mb 20ms DropTail", "1.5Mb 20ms RED")
        + "set q [[$ns link $n1 $n2] queue]\n"
        + TCP
        + finish,
    )
    assert proc.returncode == 2
    assert "ave_: not available; a RED queue's state is not reported" in proc.stderr
    assert not (tmp_path / "out.tr").exists()


def test_an_unavailable_value_read_through_a_variable_is_refused_when_read(tmp_path):
    finish = FINISH.replace("[$tcp set nrexmitpack_]", "[$tcp set $v]").replace(
        "global ns f tcp", "global ns f tcp\n    set v ncwndcuts_"
    )
    proc = ternsim_ns2(tmp_path, HEAD + FULL + finish)
    assert proc.returncode == 2
    assert "ncwndcuts_ during or after the run: not available" in proc.stderr
    assert not (tmp_path / "out.tr").exists()


def test_a_script_error_is_a_tcl_error(tmp_path):
    proc = ternsim_ns2(tmp_path, "puts hi\nset x [expr 1/0]\n")
    assert (proc.returncode, proc.stdout) == (1, "hi\n")
    assert "divide by zero" in proc.stderr


def test_run_script_and_the_result_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "s.tcl").write_text(HEAD + TCP + FINISH)
    assert run_script("s.tcl", [], out=tmp_path / "result") == 3
    assert (tmp_path / "result" / "summary.json").is_file()
    assert (tmp_path / "out.tr").stat().st_size > 0
    with pytest.raises(ScriptRefused, match=r"s2.tcl:9: \$ns foo"):
        (tmp_path / "s2.tcl").write_text(HEAD + "$ns foo\n")
        translate_script(tmp_path / "s2.tcl")


def test_the_shipped_chain_script_runs(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "ternsim", "ns2", str(SCRIPTS / "chain.tcl")],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [
        "running 100 2",
        "retransmitted packets: 73",
        "data packets: 3563, timeouts: 1",
        "finished at 20",
    ]
    assert len((tmp_path / "chain.tr").read_text().splitlines()) == 42297


def test_running_a_script_loads_no_heavy_library(tmp_path):
    code = (
        "import json, sys\n"
        "from ternsim.ns2 import run_script\n"
        f"code = run_script({str(SCRIPTS / 'chain.tcl')!r})\n"
        "heavy = [m for m in ('pandas', 'scipy', 'matplotlib') if m in sys.modules]\n"
        "sys.stderr.write(json.dumps([code, heavy]))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120
    )
    assert proc.stderr.strip().splitlines()[-1] == "[0, []]", proc.stderr


def test_to_toml_writes_the_static_part_and_lists_the_callbacks(tmp_path):
    """`ternsim ns2 --to-toml`: the scenario file runs to the same result as the script, and
    the `$ns at` scripts it cannot hold (a mid-run sampler, the finish proc) are listed with
    their lines, in the file and on stderr."""
    import json

    try:
        import tomllib
    except ModuleNotFoundError:  # pragma: no cover - Python < 3.11
        import tomli as tomllib

    sampler = 'proc record {} {\n    global tcp\n    puts "cwnd [$tcp set cwnd_]"\n}\n'
    text = HEAD + TCP + sampler + '$ns at 1.0 "record"\n' + FINISH
    stepped = ternsim_ns2(tmp_path, text)  # the script itself runs, sampler and all
    assert stepped.returncode == 3 and stepped.stdout.startswith("cwnd "), stepped.stderr
    (tmp_path / "out.tr").unlink()
    proc = ternsim_ns2(tmp_path, text, options=("--to-toml",))
    assert proc.returncode == 0, proc.stderr
    assert not (tmp_path / "out.tr").exists()  # nothing ran: the trace file is not left
    scenario_file = tmp_path / "script.toml"
    body = scenario_file.read_text()
    at_lines = [i for i, line in enumerate(text.splitlines(), 1) if line.startswith("$ns at ")]
    for line_no in at_lines[1:]:  # the ftp start is expressed; record and finish are not
        assert f"script.tcl:{line_no}:" in body and f"script.tcl:{line_no}:" in proc.stderr
    assert f"script.tcl:{at_lines[0]}:" not in body
    scenario = tomllib.loads(body)
    assert scenario["duration"] == "2.0s"
    [flow] = scenario["flows"]
    assert (flow["src"], flow["dst"], flow["start"], flow["tcp"]) == ("0", "2", "0.5s", "newreno")
    assert [(lk["a"], lk["b"]) for lk in scenario["links"]] == [("0", "1"), ("1", "2")]
    # The file runs to the very result the script gets from `ternsim ns2`.
    run = subprocess.run(
        [sys.executable, "-m", "ternsim", "run", "script.toml", "-q", "--json"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    as_file = json.loads(run.stdout)["flows"][0]
    again = ternsim_ns2(tmp_path, HEAD + TCP + FINISH, options=("--out", "res"))
    assert again.returncode == 3, again.stderr
    as_script = json.loads((tmp_path / "res" / "summary.json").read_text())["flows"][0]
    for key in ("delivered_bytes", "retransmitted_segments", "segments_sent", "timeouts"):
        assert as_file[key] == as_script[key], key
    # An existing file is never overwritten.
    scenario_file.write_text("# mine\n")
    proc = ternsim_ns2(tmp_path, text, options=("--to-toml",))
    assert proc.returncode == 2 and "exists" in proc.stderr
    assert scenario_file.read_text() == "# mine\n"


def test_toml_writer_round_trips_what_scenarios_hold():
    from ternsim._toml_write import dumps

    try:
        import tomllib
    except ModuleNotFoundError:  # pragma: no cover - Python < 3.11
        import tomli as tomllib

    doc = {
        "name": 'a "quoted"\\ name\twith tab',
        "duration": "1.5s",
        "ratio": 0.1 + 0.2,
        "count": 3,
        "on": True,
        "tcp_defaults": {"window": 20, "sizes": [1, 2.5]},
        "nodes": [{"name": "0"}, {"name": "été"}],
        "flows": [{"name": "f", "options": {"profile": "ns2.35", "x": 1e-9}, "list": ["a"]}],
    }
    text = dumps(doc)
    assert tomllib.loads(text) == doc
    assert "[[flows]]" in text and "[tcp_defaults]" in text
    with pytest.raises(TypeError, match="None"):
        dumps({"x": None})


def test_ns2s_default_generator_and_the_boot_time_of_each_tcp_agent(tmp_path):
    """MRG32k3a seeded as ns-2 seeds `$defaultRNG` gives the numbers `ns` 2.35 printed for
    `[$defaultRNG uniform 0 1]` (seed 1, the default, and after `$defaultRNG seed 5`). Each TCP
    agent draws once when made and once when `$ns run` resets it; the reset's draw, times
    tcpTick_, is its boot_time_. Two agents made before the run: resets take draws 3 and 4,
    nodes in Tcl's `array names` order, a node's agents in attach order."""
    from ternsim._native import core
    from ternsim.ns2 import translate_script

    def uniforms(seed: int, n: int) -> list[float]:
        return core().ns2_uniforms(seed, n)

    ns_printed = [0.0003395769746692744, 0.55588071586372367, 0.014204660, 0.08812267104542007]
    assert all(abs(a - b) < 1e-9 for a, b in zip(uniforms(1, 4), ns_printed))
    assert all(
        abs(a - b) < 1e-9 for a, b in zip(uniforms(5, 2), [0.0016767969362795, 0.7793930362814])
    )
    two = TCP + TCP.replace("$tcp", "$tcp2").replace("set tcp ", "set tcp2 ").replace(
        "$sink", "$sink2"
    ).replace("set sink ", "set sink2 ").replace("$ftp", "$ftp2").replace("set ftp ", "set ftp2 ")
    script = tmp_path / "two.tcl"
    script.write_text(
        HEAD + two.replace("attach-agent $n2 $sink2", "attach-agent $n1 $sink2") + FINISH
    )
    flows = translate_script(script)["flows"]
    draws = uniforms(1, 4)
    assert [f["options"]["tick_phase"] for f in flows] == [f"{0.01 * d!r}s" for d in draws[2:]]
    seeded = tmp_path / "seeded.tcl"
    seeded.write_text("$defaultRNG seed 5\n" + HEAD + TCP + FINISH)
    [flow] = translate_script(seeded)["flows"]
    assert flow["options"]["tick_phase"] == f"{0.01 * uniforms(5, 2)[1]!r}s"


LIST_LOSS = """set em [new ErrorModel/List]
$em droplist {7 3}
$ns lossmodel $em $n1 $n2
"""


def _lines(path: Path) -> list[list[str]]:
    return [line.split() for line in path.read_text().splitlines()]


def test_a_list_error_model_drops_exactly_the_listed_packets_before_the_queue(tmp_path):
    """droplist {7 3} on n1 -> n2 counts every packet handed to that direction from 0: the
    SYN-less TCP's packets 0, 1, 2, ... are its segments 0, 1, 2, ... until the first loss, so
    segments 3 and 7 are lost, each at the instant it reaches the link, traced `d` with no `+`
    (ns-2 puts the loss module ahead of the enqueue trace)."""
    proc = ternsim_ns2(tmp_path, HEAD + LIST_LOSS + TCP + FINISH)
    assert proc.returncode == 3, proc.stderr
    tr = _lines(tmp_path / "out.tr")
    drops = [f for f in tr if f[0] == "d" and f[2:4] == ["1", "2"]]
    assert [int(f[10]) for f in drops] == [3, 7]
    for d in drops:
        uid = d[11]
        assert not any(f[0] == "+" and f[11] == uid and f[2:4] == ["1", "2"] for f in tr)
        # It arrived at n1 at the drop's instant.
        arrived = next(f for f in tr if f[0] == "r" and f[11] == uid)
        assert arrived[1] == d[1] and arrived[2:4] == ["0", "1"]
    # Both losses are repaired by retransmissions (fresh uids, same segments).
    resent = [f for f in tr if f[0] == "+" and f[2:4] == ["0", "1"] and f[10] in ("3", "7")]
    assert len(resent) == 4


def test_eventtrace_all_writes_the_e_lines_of_the_tcp_agents_made_after_it(tmp_path):
    """`$ns eventtrace-all` (no channel: trace-all's): the NewReno sender made after it writes
    its fast retransmit into the trace, with its fid_ and nodes, after the duplicate ACK's
    arrival and before the retransmission's `+` (ns-2 `TcpAgent::trace_event`); one made
    before it writes nothing."""
    tcp = TCP.replace("$ns attach-agent $n0 $tcp", "$ns attach-agent $n0 $tcp\n$tcp set fid_ 5")
    proc = ternsim_ns2(tmp_path, HEAD + LIST_LOSS + "$ns eventtrace-all\n" + tcp + FINISH)
    assert proc.returncode == 3, proc.stderr
    tr = _lines(tmp_path / "out.tr")
    events = [(i, f) for i, f in enumerate(tr) if f[0] == "E"]
    # As ns-2.35 writes them: the window cut happens in slow start, so SLOW_START follows.
    assert [" ".join(f) for _, f in events[:3]] == [
        "E 0.705664 0 2 TCP NEWRENO_FAST_RETX 5 9 4",
        "E 0.705664 0 2 TCP SLOW_START 5 9 2",
        "E 0.766741 0 2 TCP NEWRENO_FAST_RECOVERY 5 9 2",
    ]
    i = events[0][0]
    # The third duplicate ACK arrives at node 0 at that instant; the hole is resent after.
    assert tr[i - 1][:4] == ["r", "0.705664", "1", "0"]
    assert tr[i + 2][:5] == ["+", "0.705664", "0", "1", "tcp"] and tr[i + 2][10] == "3"
    before = HEAD + LIST_LOSS + tcp + "$ns eventtrace-all\n" + FINISH
    proc = ternsim_ns2(tmp_path, before)
    assert proc.returncode == 3, proc.stderr
    assert not any(f[0] == "E" for f in _lines(tmp_path / "out.tr"))


def test_eventtrace_all_writes_into_the_nam_trace_open_when_the_agent_is_made(tmp_path):
    """ns-2's `create-eventtrace` also attaches the agent's event trace to the nam channel:
    `E -t TIME -o TCP -e EVENT -s NODE.PORT -d NODE.PORT` (as ns-2.35 writes them)."""
    head = HEAD + "set nf [open out.nam w]\n$ns namtrace-all $nf\n"
    finish = FINISH.replace("global ns f tcp", "global ns f tcp nf").replace(
        "close $f", "close $f\n    close $nf"
    )
    proc = ternsim_ns2(tmp_path, head + LIST_LOSS + "$ns eventtrace-all\n" + TCP + finish)
    assert proc.returncode == 3, proc.stderr
    nam = [x for x in (tmp_path / "out.nam").read_text().splitlines() if x.startswith("E ")]
    assert nam[:3] == [
        "E -t 0.705664 -o TCP -e NEWRENO_FAST_RETX -s 0.0 -d 2.0",
        "E -t 0.705664 -o TCP -e SLOW_START -s 0.0 -d 2.0",
        "E -t 0.766741 -o TCP -e NEWRENO_FAST_RECOVERY -s 0.0 -d 2.0",
    ]


def test_eventtrace_all_into_another_channel_is_refused(tmp_path):
    body = "set g [open ev.tr w]\n$ns eventtrace-all $g\n" + TCP
    proc = ternsim_ns2(tmp_path, HEAD + body + FINISH)
    assert proc.returncode == 2
    assert "a channel other than trace-all's is not supported" in proc.stderr


def test_a_loss_module_pointed_at_a_null_agent_drops_untraced(tmp_path):
    body = LIST_LOSS + "$em drop-target [new Agent/Null]\n"
    proc = ternsim_ns2(tmp_path, HEAD + body + TCP + FINISH)
    assert proc.returncode == 3, proc.stderr
    tr = _lines(tmp_path / "out.tr")
    assert not [f for f in tr if f[0] == "d"]
    assert proc.stdout != "rexmit 0\n"  # the losses happened: the segments were resent


def test_error_models_and_rtmodel_become_drop_stages_and_events(tmp_path):
    script = tmp_path / "s.tcl"
    script.write_text(
        HEAD
        + """set m [new ErrorModule Fid]
[$ns link $n1 $n2] errormodule $m
set p [new ErrorModel/Periodic]
$p set period_ 10
$p set burstlen_ 2
$m insert $p
$m bind $p 1
set r [new ErrorModel]
$r unit byte
$r set rate_ 0.001
$ns link-lossmodel $r $n2 $n1
$ns rtmodel-at 1.0 down $n0 $n1
$ns rtmodel-at 1.5 up $n0 $n1
"""
        + TCP.replace("set sink", "$tcp set fid_ 1\nset sink")
        + FINISH
    )
    sc = translate_script(script)
    l01, l12 = sc["links"]
    assert l12["drop_stages_a_to_b"] == [
        {
            "at": "enqueue",
            "traced": True,
            "rules": [
                {
                    "model": "periodic",
                    "unit": "packet",
                    "period": 10.0,
                    "offset": 0.0,
                    "burst": 2.0,
                    "default_drop": False,
                    "flows": [sc["flows"][0]["name"]],
                }
            ],
        }
    ]
    assert l12["drop_stages_b_to_a"] == [
        {
            "at": "arrival",
            "traced": True,
            "rules": [{"model": "iid", "unit": "byte", "rate": 0.001}],
        }
    ]
    assert "drop_stages_a_to_b" not in l01
    assert sc["events"] == [
        {"at": "1.0s", "action": "down", "link": "0-1"},
        {"at": "1.5s", "action": "up", "link": "0-1"},
    ]
    assert sc["routing"] == {"reroute": False}


def test_session_routing_recomputes_routes_at_each_link_event(tmp_path):
    """`$ns rtproto Session`: the static routes are recomputed over the links that are up at
    every `rtmodel-at` (`reroute`), where ns-2's default keeps them; LS is refused."""
    script = Path(__file__).parent / "ns2_scripts" / "rtproto_session.tcl"
    sc = translate_script(script)
    assert sc["routing"] == {"reroute": True}
    assert [e["link"] for e in sc["events"]] == ["1-2", "1-2", "3-4", "3-4"]
    ls = tmp_path / "ls.tcl"
    ls.write_text(script.read_text().replace("rtproto Session", "rtproto LS"))
    with pytest.raises(
        ScriptRefused, match="rtproto LS: not supported; supported: Static, Session, DV"
    ):
        translate_script(ls)


def test_dv_routing_translates_with_its_class_variables_and_notify_order(tmp_path):
    """`$ns rtproto DV`: `[routing] protocol = "dv"` with `Agent/rtProto/DV set
    advertInterval` and `INFINITY`; each `rtmodel-at` names the order in which ns-2 tells
    the link's two nodes (Tcl 8.6 lists its array `nodes_` {1 2} as 1, 2 and {3 4} as 4,
    3); other class variables and DV on a subset of nodes are refused."""
    script = Path(__file__).parent / "ns2_scripts" / "rtproto_dv.tcl"
    text = script.read_text()
    dv = tmp_path / "dv.tcl"
    dv.write_text(
        "Agent/rtProto/DV set advertInterval 0.5\nAgent/rtProto/DV set INFINITY 16\n" + text
    )
    sc = translate_script(dv)
    assert sc["routing"] == {"protocol": "dv", "advert_interval": "0.5s", "infinity": 16}
    assert [e["notify_order"] for e in sc["events"]] == [["1", "2"]] * 2 + [["4", "3"]] * 2
    dv.write_text("Agent/rtProto/DV set preference_ 10\n" + text)
    with pytest.raises(ScriptRefused, match="settable: advertInterval, INFINITY"):
        translate_script(dv)
    dv.write_text(text.replace("rtproto DV", "rtproto DV foo"))
    with pytest.raises(ScriptRefused, match="supported: Static, Session, DV"):
        translate_script(dv)


def test_random_variables_give_a_reproducible_stream(tmp_path):
    body = """set u [new RandomVariable/Uniform]
$u set min_ 2
$u set max_ 3
set e [new RandomVariable/Exponential]
set rng [new RNG]
$rng seed 7
$e use-rng $rng
set c [new RandomVariable/Constant]
$c set val_ 4
puts "[$u value] [$e value] [$c value] [$rng uniform 0 1]"
"""
    outs = [ternsim_ns2(tmp_path, HEAD + body + TCP + FINISH).stdout for _ in range(2)]
    assert outs[0] == outs[1]
    u, e, c, x = (float(v) for v in outs[0].splitlines()[0].split())
    assert 2 <= u < 3 and e > 0 and c == 4.0 and 0 <= x < 1


def _lossy_scenario(stage: dict) -> dict:
    return {
        "name": "t",
        "duration": "1s",
        "nodes": [{"name": "a"}, {"name": "b"}],
        "links": [
            {"a": "a", "b": "b", "rate": "1Mbps", "delay": "1ms", "drop_stages_a_to_b": [stage]}
        ],
        "flows": [{"name": "f", "src": "a", "dst": "b", "tcp": "reno"}],
    }


@pytest.mark.parametrize(
    "stage,path,message",
    [
        ({"at": "queue", "rules": [{"model": "pass"}]}, "drop_stages_a_to_b.0.at", "enqueue"),
        ({"at": "enqueue", "rules": []}, "drop_stages_a_to_b.0.rules", "at least one rule"),
        (
            {"at": "enqueue", "rules": [{"model": "coin"}]},
            "drop_stages_a_to_b.0.rules.0.model",
            "allowed: list, periodic, iid",
        ),
        (
            {"at": "enqueue", "rules": [{"model": "list", "drop": [3, 3]}]},
            "drop_stages_a_to_b.0.rules.0.drop",
            "3 is listed twice",
        ),
        (
            {"at": "arrival", "rules": [{"model": "iid", "rate": 0.1, "flows": ["g"]}]},
            "drop_stages_a_to_b.0.rules.0.flows",
            "no flow named `g`",
        ),
        (
            {"at": "arrival", "rules": [{"model": "list", "drop": [1], "rate": 0.1}]},
            "drop_stages_a_to_b.0.rules.0.rate",
            "not a key of model `list`",
        ),
        (
            {"at": "arrival", "rules": [{"model": "iid", "rate": 1.5}]},
            "drop_stages_a_to_b.0.rules.0.rate",
            "not a probability",
        ),
        (
            {"at": "enqueue", "rules": [{"model": "list", "drop": [1], "delay": "0s"}]},
            "drop_stages_a_to_b.0.rules.0.delay",
            "a delay > 0",
        ),
        (
            {"at": "arrival", "rules": [{"model": "pass", "unit": "bit"}]},
            "drop_stages_a_to_b.0.rules.0.unit",
            "allowed: packet, byte",
        ),
    ],
)
def test_drop_stage_errors_name_their_key(stage, path, message):
    import ternsim

    with pytest.raises(ternsim.ScenarioError) as err:
        ternsim.validate(_lossy_scenario(stage))
    assert err.value.path == f"links.0.{path}", err.value.message
    assert message in err.value.message


RATE = """set em [new ErrorModel]
$em set rate_ 0.05
$em ranvar [new RandomVariable/Uniform]
$ns lossmodel $em $n1 $n2
"""


def test_a_lone_rate_model_replays_ns2s_default_rng(tmp_path):
    """One rate model is the only thing drawing from ns-2's default RNG: its i-th packet meets
    draw k0 + i of MRG32k3a seeded 1, k0 = 2 (the Newreno agent's boot_time_ at creation
    and at `$ns run`); the model becomes the list of packets whose draw is below 0.05."""
    from ternsim._native import core

    script = tmp_path / "s.tcl"
    script.write_text(HEAD + RATE + TCP + FINISH)
    rule = translate_script(script)["links"][1]["drop_stages_a_to_b"][0]["rules"][0]
    assert rule["model"] == "list"
    u = core().ns2_uniforms(1, 2 + 5000)
    want = [i for i in range(5000) if u[2 + i] < 0.05]
    assert rule["drop"][: len(want)] == want
    assert 150 < len(want) < 350


def test_two_rate_models_draw_from_ternsims_stream(tmp_path):
    script = tmp_path / "s.tcl"
    second = RATE.replace("em", "em2").replace("$n1 $n2", "$n2 $n1")
    script.write_text(HEAD + RATE + second + TCP + FINISH)
    links = translate_script(script)["links"]
    for key in ("drop_stages_a_to_b", "drop_stages_b_to_a"):
        assert links[1][key][0]["rules"] == [{"model": "iid", "unit": "packet", "rate": 0.05}]


def test_a_failure_of_ternsim_itself_is_reported_as_one(tmp_path, monkeypatch, capsys):
    """A Python exception inside a command is ternsim's bug: said so, with where the script
    was and the traceback, exit status 70 (EX_SOFTWARE), no file left written."""
    from ternsim.ns2 import interp

    def broken(self):
        raise RuntimeError("boom")

    monkeypatch.setattr(interp._Session, "_run", broken)
    script = tmp_path / "s.tcl"
    script.write_text(
        HEAD + TCP + 'set f [open out.tr w]\n$ns trace-all $f\n$ns at 1 "exit 0"\n$ns run\n'
    )
    monkeypatch.chdir(tmp_path)
    assert interp.run_script(script) == 70
    err = capsys.readouterr().err
    assert "internal error" in err and "RuntimeError: boom" in err
    assert f"{script}:" in err or "s.tcl:" in err
    assert not (tmp_path / "out.tr").exists()


def test_a_deterministic_link_model_writes_its_ups_and_downs_as_the_run_reaches_them(tmp_path):
    """`$ns rtmodel Deterministic {0.8 1.0 1.0 3.0} $n1 $n2` (ns-2.35 `dynamics.tcl`): down
    at 0.8 + 1.0 = 1.8 s, up 1.0 s later at 1.8 + 1.0, the double 2.7999999999999998 (as
    ns-2 prints it); the next down, 3.8 s, is past the finish time 3.0 s: none. The
    `trace-dynamics` lines of the 1 -> 2 direction reach stdout between the callbacks
    around them; the trace has a `v` line per direction, 2 -> 1 first (ns-2's Tcl array
    order)."""
    text = (
        HEAD
        + TCP
        + """$ns rtmodel Deterministic {0.8 1.0 1.0 3.0} $n1 $n2
[$ns link $n1 $n2] trace-dynamics $ns stdout
$ns at 1.7 {puts "at 1.7"}
$ns at 1.8 {puts "at 1.8"}
$ns at 2.9 {puts "at 2.9"}
proc finish {} {
    global ns f
    $ns flush-trace
    close $f
    exit 0
}
$ns at 4.0 "finish"
$ns run
"""
    )
    proc = ternsim_ns2(tmp_path, text)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == (
        "at 1.7\nat 1.8\nv 1.8 link-down 1 2\nv 2.7999999999999998 link-up 1 2\nat 2.9\n"
    )
    trace = (tmp_path / "out.tr").read_text().splitlines()
    assert [x for x in trace if x.startswith("v ")] == [
        "v 1.8 link-down 2 1",
        "v 1.8 link-down 1 2",
        "v 2.7999999999999998 link-up 2 1",
        "v 2.7999999999999998 link-up 1 2",
    ]
    # Static routes stay (ns-2.35's default): the flow's segments wait out the outage.
    over = [x.split() for x in trace if x.startswith("r ")]
    assert not [f for f in over if f[2:4] in (["1", "2"], ["2", "1"]) and 1.83 < float(f[1]) < 2.8]
    assert [f for f in over if f[2:4] == ["1", "2"] and float(f[1]) > 2.8]


def test_a_deterministic_link_model_takes_ns2s_default_times(tmp_path):
    """`{}` leaves rtModel's defaults (`ns-default.tcl`): start 0.5 s, up 2.0 s, down
    1.0 s, no finish; the one-node form takes every link of the node (n0's one link):
    down at 2.5, 5.5 s, up at 3.5, 6.5 s; with `nam` the nam trace's lines."""
    text = (
        HEAD
        + """$ns rtmodel Deterministic {} $n0
[$ns link $n1 $n0] trace-dynamics $ns stdout nam
proc finish {} {
    global ns f
    $ns flush-trace
    close $f
    exit 0
}
$ns at 7.0 "finish"
$ns run
"""
    )
    proc = ternsim_ns2(tmp_path, text)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[:2] == ["l -t 2.5 -s 1 -d 0 -S DOWN", "v -t 2.5 link-down 2.5 1 0"]
    assert [x.split()[2] for x in lines[::2]] == ["2.5", "3.5", "5.5", "6.5"]
    assert [x.split()[-1] for x in lines[::2]] == ["DOWN", "UP", "DOWN", "UP"]


UNIFORM_LOSS = """set em [new ErrorModel/Uniform 0.01 pkt]
$ns lossmodel $em $n1 $n2
"""

BASE_LOSS = """set em [new ErrorModel]
$em unit pkt
$em set rate_ 0.01
$ns lossmodel $em $n1 $n2
"""


def test_error_model_uniform_is_the_rate_model_its_constructor_sets(tmp_path):
    """ns-2.35's `ErrorModel/Uniform` (tcl/lib/ns-errmodel.tcl) is the base model whose
    constructor sets `unit` and `rate_`: the same scenario as setting them by hand."""
    scenarios = []
    for i, loss in enumerate((UNIFORM_LOSS, BASE_LOSS)):
        script = tmp_path / f"s{i}.tcl"
        script.write_text(HEAD + TCP + loss + FINISH)
        scenarios.append(translate_script(str(script)))
    assert scenarios[0] == scenarios[1]
    assert any("drop_stages_a_to_b" in link for link in scenarios[0]["links"])


@pytest.mark.skipif(shutil.which("ns") is None, reason="ns-2 (`ns`) is not installed")
def test_error_model_uniform_loses_the_packets_ns2_loses(tmp_path):
    """Its draws are ns-2's default RNG's, replayed: the trace is ns-2's byte for byte."""
    traces = []
    for who, cmd in (("ns", ["ns"]), ("ternsim", [sys.executable, "-m", "ternsim", "ns2"])):
        folder = tmp_path / who
        folder.mkdir()
        (folder / "s.tcl").write_text(HEAD + TCP + UNIFORM_LOSS + FINISH)
        subprocess.run([*cmd, "s.tcl"], cwd=folder, capture_output=True, timeout=120)
        traces.append((folder / "out.tr").read_text())
    assert traces[0].count("\nd ") >= 1
    assert traces[1] == traces[0]


def test_a_tcp_variable_at_its_default_is_accepted_and_another_value_refused(tmp_path):
    ok = ternsim_ns2(
        tmp_path, HEAD + TCP + "$tcp set frto_enabled_ 0\n$tcp set overhead_ 0\n" + FINISH
    )
    assert ok.returncode == 3, ok.stderr
    bad = ternsim_ns2(tmp_path, HEAD + TCP + "$tcp set frto_enabled_ 1\n" + FINISH)
    assert bad.returncode == 2
    assert "frto_enabled_ 1 (F-RTO): not supported; supported: frto_enabled_ 0" in bad.stderr
