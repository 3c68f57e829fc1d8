"""What ns-2's validation suites need of the front end: class defaults of classes ternsim does
not model, `dst-port` and `$node agent`, ns-2's own numbers from `new RNG`, FTP `produce` and
`producemore`, and a queue's `printstats`."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from ternsim.ns2 import translate_script
from ternsim.ns2.rngstream import Ns2Rng, RngStreams, jump_stream

HEAD = """set ns [new Simulator]
set n0 [$ns node]
set n1 [$ns node]
$ns duplex-link $n0 $n1 10Mb 10ms DropTail
"""

END = """proc finish {} { exit 0 }
$ns at 3.0 finish
$ns run
"""


def run(tmp_path: Path, text: str) -> subprocess.CompletedProcess:
    (tmp_path / "s.tcl").write_text(text)
    return subprocess.run(
        [sys.executable, "-m", "ternsim", "ns2", "s.tcl"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_class_defaults_of_an_unmodelled_class_are_kept_and_its_objects_refused(tmp_path):
    """test-suite-simple.tcl's preamble sets Agent/TFRC defaults for every test; ns-2 reads
    them back. Making a TFRC agent is refused before the run."""
    done = run(
        tmp_path, HEAD + "Agent/TFRC set ss_changes_ 1\nputs [Agent/TFRC set ss_changes_]\n" + END
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["1"]
    done = run(tmp_path, HEAD + "set t [new Agent/TFRC]\n" + END)
    assert done.returncode == 2
    assert "new Agent/TFRC: not supported (TFRC" in done.stderr


def test_dst_port_and_node_agent_find_the_sink(tmp_path):
    """`$tcp dst-port` is the port of the agent it is connected to; `$node agent PORT` the
    agent there ("" when none). A TCP sink's variable without a trailing `_` is a plain OTcl
    variable ns-2 binds to nothing (the simple suites' `set interval 100ms`)."""
    done = run(
        tmp_path,
        HEAD
        + "set u [new Agent/Null]\n$ns attach-agent $n1 $u\n"
        + "set tcp [$ns create-connection TCP $n0 TCPSink/DelAck $n1 0]\n"
        + "set sink [$n1 agent [$tcp dst-port]]\n"
        + 'puts "[$tcp dst-port] [$sink info class] <[$n1 agent 7]>"\n'
        + "$sink set interval 100ms\n$sink set SYN_immediate_ack_ false\n"
        + "puts [$sink set interval]\n"
        + END,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["1 Agent/TCPSink/DelAck <>", "100ms"]


def test_new_rng_draws_ns2s_numbers():
    """ns-2.35 (`ns`, Debian's build): after start-up (the default RNG seeded with 1) the
    first `new RNG` gives next-random 357444843 then 1769133972, the next `new RNG`
    879475696; `$r seed 5` then `uniform 0 10`, `integer 100`, `exponential 2` give
    0.01676796936279534, 0, 5.2899399164524663 and a `new RNG` after that 1787190253."""
    streams = RngStreams()
    r = streams.new_stream()
    assert r is not None and (r.next_random(), r.next_random()) == (357444843, 1769133972)
    r2 = streams.new_stream()
    assert r2 is not None and r2.next_random() == 879475696
    r5 = streams.seed(5)
    assert r5 is not None
    assert r5.tcl_uniform(0, 10) == 0.01676796936279534
    assert r5.tcl_integer(100) == 0
    assert r5.tcl_exponential(2) == 5.2899399164524663
    r3 = streams.new_stream()
    assert r3 is not None and r3.next_random() == 1787190253
    # Seed 0 is ns-2's seed from the clock: the streams after it are unknown.
    assert streams.seed(0) is None and streams.new_stream() is None
    # The jump is L'Ecuyer's A1^(2^127): its first row as RngStreams tabulates it.
    assert jump_stream([1, 0, 0, 1, 0, 0])[:3] == [2427906178, 226153695, 1988835001]
    assert Ns2Rng([1] * 6).u01() > 0


def test_the_same_draws_in_a_script(tmp_path):
    done = run(
        tmp_path,
        HEAD
        + 'set r [new RNG]\nputs "[$r next-random] [$r next-random]"\n'
        + '$r seed 5\nputs "[$r uniform 0 10] [$r integer 100]"\n'
        + END,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["357444843 1769133972", "0.01676796936279534 0"]


def test_produce_and_producemore_become_a_finite_start_and_flow_events(tmp_path):
    """FTP `produce N` first: a start with N packets (N read with C's atoi); later
    `producemore N` and `produce N`: scenario events with the packets; a `produce` of less
    than one packet from a fresh agent sends nothing at all."""
    script = tmp_path / "s.tcl"
    script.write_text(
        HEAD
        + "set tcp [$ns create-connection TCP $n0 TCPSink $n1 0]\n"
        + "set ftp [$tcp attach-app FTP]\n"
        + '$ns at 0.5 "$ftp produce 3.7"\n$ns at 1.0 "$ftp producemore 5"\n'
        + '$ns at 1.5 "$ftp produce 20"\n'
        + "set tcp2 [$ns create-connection TCP $n0 TCPSink $n1 1]\n"
        + "set ftp2 [$tcp2 attach-app FTP]\n"
        + '$ns at 0.2 "$ftp2 produce 0.4"\n$ns at 2.0 "$ftp2 stop"\n'
        + END
    )
    sc = translate_script(script)
    flow, idle = sc["flows"]
    assert (flow["start"], flow["bytes"]) == ("0.5s", "3000B")
    assert flow["options"]["idle_rtx_timer"] is True
    events = [e for e in sc["events"] if e["flow"] == flow["name"]]
    assert events == [
        {"at": "1.0s", "action": "producemore", "flow": flow["name"], "packets": 5},
        {"at": "1.5s", "action": "produce", "flow": flow["name"], "packets": 20},
    ]
    assert idle["autostart"] is False


def test_ftp_send_offers_whole_packets(tmp_path):
    """FTP `send NBYTES` is the agent's sendmsg: ceil(NBYTES / packetSize_) packets more."""
    script = tmp_path / "s.tcl"
    script.write_text(
        HEAD
        + "set tcp [$ns create-connection TCP $n0 TCPSink $n1 0]\n$tcp set packetSize_ 100\n"
        + "set ftp [$tcp attach-app FTP]\n"
        + '$ns at 0.5 "$ftp send 950"\n$ns at 1.0 "$ftp send 100"\n'
        + END
    )
    sc = translate_script(script)
    (flow,) = sc["flows"]
    assert (flow["start"], flow["bytes"]) == ("0.5s", "1000B")
    assert sc["events"] == [
        {"at": "1.0s", "action": "producemore", "flow": flow["name"], "packets": 1}
    ]


MONITORED = """set ns [new Simulator]
set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
Queue/DropTail set summarystats_ true
$ns duplex-link $n0 $n1 10Mb 1ms DropTail
$ns duplex-link $n1 $n2 1Mb 10ms DropTail
$ns queue-limit $n1 $n2 5
set q [[$ns link $n1 $n2] queue]
set fmon [$ns makeflowmon Fid]
$ns attach-fmon [$ns link $n1 $n2] $fmon
foreach fid {3 5} {
    set tcp [$ns create-connection TCP $n0 TCPSink $n2 $fid]
    $tcp set window_ 20
    set ftp [$tcp attach-app FTP]
    $ns at 0.0 "$ftp start"
}
proc show {} {
    global q fmon
    $q printstats
    foreach f [$fmon flows] {
        puts "flow [$f set flowid_] [$f set src_] [$f set dst_] [$f set pdepartures_]\\
 [$f set bdepartures_] [$f set pdrops_]"
    }
    set f5 [[$fmon classifier] lookup auto 0 0 5]
    puts "lookup [$f5 set flowid_] <[[$fmon classifier] lookup auto 0 0 9]>"
    puts "all [$fmon set pdepartures_] [$fmon set pdrops_]"
    exit 0
}
$ns at 2.0 show
$ns run
"""


def test_printstats_and_a_flow_monitor_count_the_links_packets(tmp_path):
    """A DropTail queue's `printstats` (the time-average queue length since 0 and the time of
    its last update, on C's stdout: after the script's own lines into a pipe) and a Fid flow
    monitor's flows, in the order they appeared, looked up by flow id. ns-2.35 prints exactly
    these lines for this script."""
    done = run(tmp_path, MONITORED)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "flow 3 0 2 132 136280 12",
        "flow 5 0 2 98 100920 10",
        "lookup 5 <>",
        "all 230 22",
        "True average queue: 2.120 time: 1.997",
    ]


def test_a_second_duplex_link_between_two_nodes_replaces_the_first(tmp_path):
    """ns-2's second `duplex-link` between two nodes makes new simplex links that its link_
    array, routes and `$ns link` follow: ternsim's link takes the new rate, delay and queue
    (the first link's queue limit stays with the first link). `$node neighbors` (ns-2 lists
    the neighbor once per link made) is refused on such a node."""
    script = tmp_path / "s.tcl"
    body = (
        HEAD
        + "$ns queue-limit $n0 $n1 7\n"
        + "$ns duplex-link $n1 $n0 2Mb 5ms RED\n$ns queue-limit $n1 $n0 9\n"
        + "set tcp [$ns create-connection TCP $n0 TCPSink $n1 0]\n"
        + 'set ftp [$tcp attach-app FTP]\n$ns at 0.5 "$ftp start"\n'
    )
    script.write_text(body + END)
    sc = translate_script(script)
    (link,) = sc["links"]
    assert (link["a"], link["b"], link["rate"], link["delay"]) == (
        "1",
        "0",
        "2000000.0bps",
        "0.005s",
    )
    # n1 -> n0 got its limit after the second link; n0 -> n1's 7 was the first link's.
    assert link["queue_a_to_b"]["limit"] == 9 and link["queue_b_to_a"]["limit"] == 50
    done = run(tmp_path, body + "$n0 neighbors\n" + END)
    assert done.returncode == 2 and "a link made twice" in done.stderr


def test_plain_instance_variables_of_applications_and_the_old_packet_size_name(tmp_path):
    """A variable an application's class does not bind in C++ is an OTcl instance variable
    that nothing reads (`type_` on a CBR source and an FTP, FTP's `maxpkts_`): kept and read
    back. `packet_size_` is ns-source.tcl's old name of a traffic source's `packetSize_`, so
    the interval a CBR reports follows it: 1000 B at 1 Mb/s, 8 ms (ns-2 prints
    0.0080000000000000002). A bound variable ternsim does not model is still refused."""
    body = """set udp [new Agent/UDP]
$ns attach-agent $n0 $udp
set cbr [new Application/Traffic/CBR]
$cbr attach-agent $udp
$cbr set type_ CBR
$cbr set packet_size_ 1000
$cbr set rate_ 1mb
set ftp [new Application/FTP]
$ftp set type_ FTP
$ftp set maxpkts_ 0
puts "[$cbr set type_] [$cbr set packetSize_] [$cbr set interval_] [$ftp set type_]"
"""
    done = run(tmp_path, HEAD + body + END)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "CBR 1000 0.0080000000000000002 FTP\n"
    refused = run(tmp_path, HEAD + "set u [new Agent/UDP]\n$u set rate_ 1Mb\n" + END)
    assert refused.returncode == 2
    assert "s.tcl:6: $u set rate_ 1Mb: Agent/UDP rate_: not supported" in refused.stderr
