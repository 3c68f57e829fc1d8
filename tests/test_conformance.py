"""Differential conformance with ns-2 (ternsim.conformance, `ternsim conformance`).

The comparison rules are tested on hand-made traces and samples; the fast subset itself runs
against the installed ns-2 (Debian's `ns2` package, which `.ci/run` installs) and is skipped,
with the reason shown, where `ns` is absent.
"""

import shutil
from pathlib import Path

import pytest

from ternsim import conformance as conf
from ternsim.paths import scenario_path

HAVE_NS = shutil.which("ns") is not None
needs_ns = pytest.mark.skipif(not HAVE_NS, reason="ns-2 not installed (apt-get install ns2)")

TRACE = """+ 0.1 0 1 tcp 1040 ------- 0 0.0 2.0 1 3
- 0.1 0 1 tcp 1040 ------- 0 0.0 2.0 1 3
r 0.2 1 2 tcp 1040 ------- 0 0.0 2.0 0 2
- 0.2 1 2 tcp 1040 ------- 0 0.0 2.0 1 3
"""


def test_identical_traces_are_identical():
    assert conf.compare_traces(TRACE, TRACE) == {
        "verdict": "identical",
        "lines": 4,
        "reordered": 0,
    }


def test_lines_swapped_within_one_timestamp_are_equal_up_to_ties():
    lines = TRACE.splitlines()
    swapped = "\n".join([lines[0], lines[1], lines[3], lines[2]]) + "\n"
    assert conf.compare_traces(TRACE, swapped) == {
        "verdict": "equal up to ties",
        "lines": 4,
        "reordered": 2,
    }


def test_a_line_moved_to_another_time_differs_at_that_line():
    moved = TRACE.replace("r 0.2 1 2", "r 0.3 1 2")
    got = conf.compare_traces(TRACE, moved)
    assert (got["verdict"], got["first_difference"]) == ("differs", 3)
    assert got["ternsim_line"].startswith("r 0.3")


def test_stats_verdict_uses_both_intervals_or_five_percent():
    # Means 10 and 10.4: 4 % apart, agree whatever the spread.
    assert conf.stats_verdict([10.0, 10.0, 10.0], [10.4, 10.4, 10.4]) == "agrees"
    # Means 100 and 110 (10 % apart), samples spread by +/- 20: each mean is inside the
    # other's interval (t(2) = 4.303, s = 20, half-width 4.303 * 20 / sqrt(3) = 49.7).
    assert conf.stats_verdict([80.0, 100.0, 120.0], [90.0, 110.0, 130.0]) == "agrees"
    # Means 100 and 110 with a spread of +/- 1 (half-width 2.5): they differ.
    assert conf.stats_verdict([99.0, 100.0, 101.0], [109.0, 110.0, 111.0]) == "differs"


def test_stats_lines_are_summed_over_flows_and_cbr_lines_read():
    two = (
        "flow 0 acked 99 rexmit 3 timeouts 1 kbps 81.92\n"
        "flow 1 acked 49 rexmit 5 timeouts 2 kbps 40.96\n"
    )
    assert conf._tcp_metrics(two) == pytest.approx(
        {"goodput kb/s": 122.88, "rexmits": 8.0, "timeouts": 3.0}
    )
    assert conf._tcp_metrics("nothing printed") is None
    assert conf._cbr_metrics("first 74.800000000000026 npkts 1224 nlost 729") == {
        "first arrival s": pytest.approx(74.8),
        "received": 1224.0,
        "LossMonitor nlost": 729.0,
    }


def test_the_flood_line_is_parsed():
    """flood.tcl's own count of its MAC trace's request frames."""
    out = "num_nodes is set 51\nrreq sent 3600 received 58947 collisions 26042\n"
    assert conf._flood_metrics(out) == {
        "RREQ frames sent": 3600.0,
        "RREQ frames received": 58947.0,
        "RREQ collision drops": 26042.0,
    }
    assert conf._flood_metrics("rreq sent 1") is None


def test_every_case_has_its_script_and_a_valid_twin(tmp_path, monkeypatch):
    import ternsim
    from ternsim.ns2 import translate_script

    monkeypatch.chdir(tmp_path)  # MANET cases read their movement and connection files here
    for case in conf.CASES:
        script = conf.script_path(case)
        assert script.is_file()
        if case.twin is None:  # the script itself, as `ternsim ns2` translates it
            args = [a.format(seed=1) for a in case.ns_args]
            if case.kind == "red":
                args[2:4] = ["-", "0"]  # no trace file
            if case.setdest is not None:
                conf.write_manet_inputs(case, 1, tmp_path)
            ternsim.validate(translate_script(script, args))
        else:
            ternsim.validate(str(scenario_path(f"conformance/{case.twin}")), case.overrides)


# A wireless trace (old format) as ns-2 writes manet.tcl's: a CBR packet sent and received
# (delay 0.25 s), one sent and lost, a forwarded one, AODV and DSDV routing packets sent
# and forwarded, a received routing packet (not counted), an IFQ drop, a data packet dropped
# by routing and an AODV request whose TTL ran out (not a data drop).
MANET_TRACE = """\
s 1.000000000 _1_ AGT  --- 5 cbr 512 [0 0 0 0] ------- [1:0 2:0 32 0] [0] 0 0
s 1.000000000 _1_ RTR  --- 5 cbr 532 [0 0 0 0] ------- [1:0 2:0 32 3] [0] 0 0
f 1.100000000 _3_ RTR  --- 5 cbr 532 [13a 3 1 800] ------- [1:0 2:0 31 2] [0] 1 0
r 1.250000000 _2_ AGT  --- 5 cbr 532 [13a 2 3 800] ------- [1:0 2:0 31 2] [0] 2 0
s 2.000000000 _1_ AGT  --- 9 cbr 512 [0 0 0 0] ------- [1:0 2:0 32 0] [1] 0 0
s 2.500000000 _4_ RTR  --- 10 AODV 48 [0 0 0 0] ------- [4:255 -1:255 30 0] (REQUEST)
f 2.600000000 _5_ RTR  --- 10 AODV 48 [0 0 0 0] ------- [4:255 -1:255 29 0] (REQUEST)
r 2.600000000 _6_ RTR  --- 10 AODV 48 [0 ffffffff 4 800] ------- [4:255 -1:255 30 0] (REQUEST)
s 3.000000000 _7_ RTR  --- 11 message 32 [0 0 0 0] ------- [7:255 -1:255 32 0]
D 3.100000000 _7_ IFQ  --- 12 tcp 552 [0 0 0 0] ------- [7:0 8:0 32 8] [1 0] 0 0
D 3.200000000 _7_ RTR  CBK 13 ack 40 [0 0 0 0] ------- [8:0 7:0 32 8] [1 0] 0 0
D 3.300000000 _31_ RTR  TTL 0 AODV 48 [0 ffffffff 2e 800] ------- [31:255 -1:255 0 0]
M 4.00000 3 (10.00, 20.00, 0.00), (30.00, 40.00), 5.00
"""

# ns-2's MAC lines: two RTS attempts (one answered), the DATA frame and its ACK, a broadcast
# (not a unicast attempt), and a frame whose RTS retries ran out: the RTS and the DATA frame
# are both logged as RET drops, one frame dropped.
MANET_MAC_TRACE = """\
s 1.0 _1_ MAC  --- 0 RTS 44 [14ee 2 1 0]
s 1.1 _1_ MAC  --- 0 RTS 44 [14ee 2 1 0]
r 1.2 _1_ MAC  --- 0 CTS 38 [132e 1 0 0]
s 1.3 _1_ MAC  --- 5 cbr 584 [13a 2 1 800] ------- [1:0 2:0 32 2] [0] 0 0
r 1.4 _1_ MAC  --- 0 ACK 38 [0 1 0 0]
s 1.5 _4_ MAC  --- 10 AODV 106 [0 ffffffff 4 800] ------- [4:255 -1:255 30 0]
D 2.0 _7_ MAC  RET 0 RTS 44 [14ee 1f 7 0]
D 2.0 _7_ MAC  RET 383 cbr 532 [13a 1f 7 800] ------- [7:2 9:0 32 31] [57] 0 0
"""


def test_manet_metrics_are_counted_from_the_traces(tmp_path):
    trace = tmp_path / "out.tr"
    trace.write_text(MANET_TRACE)
    assert conf._manet_trace_metrics(trace, "cbr") == pytest.approx(
        {
            "CBR sent": 2.0,
            "CBR received": 1.0,
            "PDR %": 50.0,
            "delay ms": 250.0,
            "median delay ms": 250.0,
            "routing pkts": 3.0,  # s and f of AODV, s of DSDV's message
            "IFQ drops": 1.0,
            "routing drops": 1.0,  # the ACK; the AODV request's TTL drop is not data
        }
    )
    assert set(conf._manet_trace_metrics(trace, "tcp")) == {
        "routing pkts",
        "IFQ drops",
        "routing drops",
    }
    trace.write_text(MANET_MAC_TRACE)
    assert conf._mac_metrics(trace) == {
        "MAC RTS sent": 2.0,
        "MAC failed attempts": 1.0,  # 2 RTS - 1 CTS + 1 unicast DATA - 1 ACK
        "MAC retry drops": 1.0,
    }


def test_manet_cases_cover_each_routing_traffic_and_movement_model(tmp_path):
    manet = [c for c in conf.CASES if c.setdest is not None]
    assert {c.ns_args[0] for c in manet} == {"AODV", "DSR", "DSDV"}
    assert {c.metrics for c in manet} == {"manet-tcp", "manet-cbr"}
    assert {(c.setdest["version"], c.setdest["pause"]) for c in manet} == {
        (1, 0.0),
        (1, 50.0),
        (2, 0.0),
    }
    assert all(not c.fast and c.seeds >= 10 and c.script == "manet.tcl" for c in manet)
    # Both simulators read the same files: 50 nodes' movements and cbrgen's connections.
    case = next(c for c in manet if c.name == "manet-v2p0-cbr-dsdv")
    conf.write_manet_inputs(case, 3, tmp_path)
    scen = (tmp_path / "scen.tcl").read_text()
    assert "$node_(49) set X_" in scen and "$node_(50)" not in scen
    assert scen.startswith("#\n# nodes: 50, speed type: 1, min speed: 1.00, max speed: 20.00")
    conn = (tmp_path / "conn.tcl").read_text()
    assert "set cbr_(0) [new Application/Traffic/CBR]" in conn and "cbr_(10)" not in conn


@needs_ns
def test_one_short_manet_run_gives_every_metric_on_both_sides(tmp_path):
    """One seed of the AODV/CBR case cut to 30 s: ns-2 and ternsim both run manet.tcl on the
    same files and every metric is read on both sides (the full cases: `--full`)."""
    import dataclasses

    case = next(c for c in conf.CASES if c.name == "manet-v1p0-cbr-aodv")
    case = dataclasses.replace(
        case,
        ns_args=("AODV", "cbr", "{seed}", "30", "1"),
        setdest={**case.setdest, "time": 30.0},
    )
    ns, ts = conf._manet_run(case, 1, tmp_path)
    assert set(ns) == set(ts)
    for side in (ns, ts):
        assert side["CBR sent"] > 0 and side["MAC RTS sent"] > 0 and side["routing pkts"] > 0
        assert 50.0 < side["PDR %"] <= 100.0


def test_without_ns_the_command_says_how_to_install_it(monkeypatch):
    monkeypatch.setattr(conf.shutil, "which", lambda _name: None)
    with pytest.raises(conf.NsMissing, match="apt-get install ns2"):
        conf.run_cases()


@needs_ns
def test_wired_cases_give_ns2s_trace_up_to_same_time_ties():
    """ns-2.35 and ternsim write the same wired trace for Tahoe, Reno and NewReno (and NewReno
    to a delayed-ACK sink) over a drop-tail bottleneck with queue-limit 20, 20 s (32,000 to
    42,000 lines each): same lines, same times, only lines within one timestamp may be ordered
    differently."""
    rows = conf.run_cases(only="wired-")
    assert {r["case"] for r in rows} == {
        "wired-tahoe",
        "wired-reno",
        "wired-newreno",
        "wired-newreno-delack",
    }
    for r in rows:
        assert r["verdict"] in ("identical", "equal up to ties"), r


@needs_ns
def test_lossy_cases_give_ns2s_trace_up_to_same_time_ties():
    """Error models on the bottleneck (ErrorModel/List before the queue, ErrorModel/Periodic
    after the delay, an ErrorModule Fid with a periodic model bound to the flow) and an
    outage (rtmodel-at down 5 s, up 6 s), Tahoe to Sack1 and Vegas, 20 s: ns-2.35's trace.
    Vegas's drops from a list and its outage exercise its fine-grained retransmissions, which
    read ns-2's send slots with their quirks (tcp/send_ring.rs: with ideal per-packet records
    the list case parts from ns-2's trace at 0.74 s, where ns-2 sends packet 56 twice), and
    its timeout, after which ns-2 Vegas marks no packet with the congestion-action flag."""
    cases = [c for c in conf.CASES if c.name.startswith("lossy-") and c.kind == "trace"]
    rows = [r for c in cases for r in conf._run_trace_case(c)]
    assert {r["case"] for r in rows} == {
        "lossy-list-tahoe",
        "lossy-list-reno",
        "lossy-periodic-newreno",
        "lossy-module-sack",
        "lossy-down-reno",
        "lossy-list-vegas",
        "lossy-down-vegas",
    }
    for r in rows:
        assert r["verdict"] in ("identical", "equal up to ties"), r


@needs_ns
def test_random_loss_replays_ns2s_draws():
    """ErrorModel rate_ 0.01 with a uniform ranvar, the only thing drawing from ns-2's
    default RNG: ternsim replays ns-2's MRG32k3a draws, so each seed's printed line (goodput,
    retransmissions, timeouts) is ns-2's. Vegas too: its first packet lost, the timeout's
    go-back-N moves the origin of `vegastime()` (ns-2 `send_much` resets `firstsent_`), which
    decides whether its later fast retransmissions cut the window."""
    for name, seeds in (("lossy-rate-reno", 3), ("lossy-rate-vegas", 2)):
        case = next(c for c in conf.CASES if c.name == name)
        rows = conf._run_stats_case(case, seeds)
        for r in rows:
            assert r["ns2_values"] == r["ternsim_values"], r


@needs_ns
def test_vegas_over_a_7_hop_dsr_chain_agrees_with_ns2():
    rows = conf.run_cases(only="chain7-vegas-dsr", seeds=4)
    goodput = next(r for r in rows if r["metric"] == "goodput kb/s")
    assert goodput["verdict"] == "agrees", goodput


@needs_ns
def test_red_dumbbell_agrees_with_ns2_on_every_metric():
    """Five Reno flows through a RED bottleneck with ns-2.35's defaults (byte mode, automatic
    thresholds and weight, gentle, use_mark_p_), 30 s, seeds 1-10 on each side: goodput,
    retransmissions, timeouts, early and forced drops and RED's mean average queue agree
    (each mean inside the other's 95 % interval, or within 5 %)."""
    rows = conf.run_cases(only="dumbbell-red")
    assert [r["metric"] for r in rows] == [
        "goodput kb/s",
        "rexmits",
        "timeouts",
        "early drops",
        "forced drops",
        "avg queue B",
    ]
    for r in rows:
        assert r["verdict"] == "agrees", r
        assert len(r["ns2_values"]) == len(r["ternsim_values"]) == 10
    early = next(r for r in rows if r["metric"] == "early drops")
    assert min(early["ns2_values"]) > 100 and min(early["ternsim_values"]) > 100


def test_bench_against_another_simulator_is_refused_with_what_is_allowed(cli):
    proc = cli("bench", "--against", "ns3")
    assert proc.returncode == 2
    assert proc.stderr.strip() == "error: --against ns3: allowed: ns2"


@needs_ns
def test_bench_against_ns2_reports_both_simulators_per_case(cli):
    """Benchmarks report, they do not assert speed: every case has both times, the ratios
    they imply, events per second and both peak memories."""
    import json

    proc = cli("bench", "--against", "ns2", "--quick", "--json")
    assert proc.returncode == 0, proc.stderr
    cases = json.loads(proc.stdout)["against_ns2"]
    assert set(cases) == {
        "wired newreno 1000 s",
        "chain7 newreno dsr 100 s",
        "chain7 newreno aodv 100 s",
        "chain7 vegas dsr 100 s",
    }
    for r in cases.values():
        assert r["ternsim_run_ok"]
        assert r["ns2_seconds"] > 0 and r["ternsim_core_seconds"] > 0
        assert r["core_speedup"] == pytest.approx(r["ns2_seconds"] / r["ternsim_core_seconds"])
        assert r["events_per_second"] > 0 and r["ns2_peak_kb"] > 0 and r["ternsim_peak_kb"] > 0
    # The batch: the same seeds as one ns-2 process after another and as one ternsim sweep.
    batch = json.loads(proc.stdout)["sweep"]
    assert batch["ok"] and batch["runs"] == 4 and batch["cores"] >= 1
    assert batch["speedup"] == pytest.approx(batch["ns2_seconds"] / batch["ternsim_seconds"])


MINI_SUITE = """# A suite in the form of ns-2's: `Class Test/NAME` lines, the test named on the
# command line, the packet trace in all.tr.
Class Test/lossy -superclass Object
Class Test/cbq -superclass Object
set test [lindex $argv 0]
set ns [new Simulator]
set f [open all.tr w]
$ns trace-all $f
set n0 [$ns node]
set n1 [$ns node]
if {$test == "cbq"} {
    $ns duplex-link $n0 $n1 1Mb 10ms CBQ
} else {
    $ns duplex-link $n0 $n1 1Mb 10ms DropTail
}
set em [new ErrorModel/List]
$em droplist {2 5}
$ns lossmodel $em $n0 $n1
set tcp [new Agent/TCP]
$ns attach-agent $n0 $tcp
set sink [new Agent/TCPSink]
$ns attach-agent $n1 $sink
$ns connect $tcp $sink
set ftp [$tcp attach-app FTP]
$ns at 0.1 "$ftp start"
proc finish {} { global ns f; $ns flush-trace; close $f; exec false }
$ns at 3.0 "finish"
$ns run
"""


@needs_ns
def test_the_validation_harness_reports_pass_and_out_of_scope(tmp_path, monkeypatch):
    """`conformance --validation` on a suite of ns-2's form: a test ternsim runs gives ns-2's
    all.tr (pass, although finish then fails, as the real suites fail on their perl step);
    one it refuses is out of scope, with its one-line reason."""
    from ternsim import validation

    (tmp_path / "test-suite-mini.tcl").write_text(MINI_SUITE)
    monkeypatch.setenv("TERNSIM_NS2_TESTS", str(tmp_path))
    assert validation.tests_of("mini") == ["lossy", "cbq"]
    rows = validation.run_validation(suites=("mini",))
    by_test = {r["test"]: r for r in rows}
    assert by_test["lossy"]["verdict"] == "pass", by_test["lossy"]
    assert by_test["cbq"]["verdict"] == "out of scope"
    assert "queue CBQ not supported" in by_test["cbq"]["reason"]


#: Tests of ns-2's own validation suites that `ternsim ns2` runs with ns-2's all.tr (equal up
#: to lines within one timestamp): a few seconds each, one per feature they rest on.
VALIDATION_PASSES = [
    # OTcl framework (misc_simple.tcl), show_tcphdr_, bugFix_ false, partial-ACK switches.
    ("newreno", "newreno"),
    # `info instbody` methods, Limited Transmit off (singledup_ 0).
    ("newreno", "reno_noLT"),
    # misc.tcl/topologies.tcl framework, rfc2988_/syn_/delay_growth_ false, out.tr queues.
    ("tcp", "timers"),
    # FTP produce, SYN_immediate_ack_ false, useHeaders_ false.
    ("rfc2581", "noImmediateAck"),
    # SACK sinks' sa_length in the show_tcphdr_ fields.
    ("tcpVariants", "onedrop_sack"),
    # eventtrace-all: TCP's E lines (fast retransmit, timeout, slow start) among the packets'.
    ("testReno", "Reno_TCP"),
    # ErrorModel delay_pkt_: packet 25 held 50 ms instead of dropped (reordering).
    ("newreno", "newreno5"),
    ("sack", "FalsePipe"),
    # The timestamp option: samples from echoed timestamps, the sink's ts_to_echo_ rule.
    ("newreno", "newreno_rto_loss_ts"),
    # Timestamps with a 1 ms tick and timerfix_ false (the timer restarted before the sample).
    ("tcp", "timersA2"),
    # Other estimator gains (T_SRTT_BITS 5, T_RTTVAR_BITS 4) with timestamps.
    ("tcp", "timersA3"),
    # NewReno's ACK heuristic (bugFix_ack_) after a timeout.
    ("newreno", "newreno_rto_loss_ack"),
    # ... and its timestamp heuristic (bugFix_ts_, a table of send times by seqno).
    ("newreno", "newreno_rto_loss_tsh"),
    # RED's early tests on ns-2's own draws, its `curq_`/`ave_` traced into a channel.
    ("red", "red1"),
    # ECN: RED marking (`setbit_`) and an error model's marks (`markecn_`), twice in a window.
    ("ecn", "ecn_twoecn_reno"),
    # ... a timeout in the window an ECN-Echo halved (ssthresh kept).
    ("ecn", "ecn_timeout_sack"),
    # ... an ECN-Echo at a window of one (cwnd below one, the ECN backoff), Tahoe.
    ("ecn", "ecn_smallwin1Ecn_tahoe"),
    # ... with delayed ACKs echoing the held packet's mark, NewReno.
    ("ecn", "ecn_drop_newreno_delack"),
    # ... `old_ecn_`: the window opens on the second of a run of ECN-Echo ACKs.
    ("red", "ecn"),
    # FullTcp: handshake, byte sequence numbers, the header fields, Reno recovery, E lines.
    ("testReno-full", "Reno_FullTCP"),
    # FullTcp/Newreno's partial ACKs; FullTcp/Tahoe's slow start on three duplicates.
    ("testReno-full", "NewReno_FullTCP2"),
    ("tcpVariants", "twodrops_tahoe_full"),
    # FullTcp's periodic delayed-ACK timer (segsperack_ 2 on the listener), a lost SYN.
    ("full", "delack"),
    ("full", "droppedsyn"),
    # FullTcp's FIN exchange (`$src close`), data both ways, a simultaneous open and close.
    ("full", "close"),
    ("full", "twoway"),
    ("full", "simul-close"),
    # FullTcp/Sack: SACK blocks (sa_length, longer ACKs), pipe-controlled hole filling; a RED
    # bottleneck on ns-2's draws after the opener's own boot_time_ draw at its start.
    ("sack-full", "sack1"),
    ("tcpVariants", "twodrops_sack_full"),
    ("sack-full", "sackB4"),
    # `sendmsg N MSG_EOF`: the FIN goes with the last data.
    ("full-fixes", "reno-msg_eof-fin"),
    # FullTcp's timestamp option: echoed stamps, a sample per new ACK, 10 more header bytes.
    ("full", "tsopt"),
    # The "simple" suites' trace: `trace-queue` of one node's links into out.tr, no trace-all.
    ("simple-full", "tahoe3"),
    # Class defaults of Agent/TFRC (not modelled) in the preamble; Reno with RED.
    ("simple", "tahoe3RED"),
    # `[$node agent [$tcp dst-port]] set ...` on delayed-ACK sinks.
    ("simple", "timers"),
    # FTP produce then producemore after an idle period (ns-2's timer restarts the window).
    ("tcp", "quiescent_100ms"),
    # `new RNG` draws ns-2's numbers: flows of random sizes at random times (FTP produce).
    ("simple", "manyflows"),
    ("simple-full", "manyflows"),
    # A queue's printstats (summarystats_) in bytes.
    ("simple", "tahoe1Bytes"),
    # A Fid flow monitor (makeflowmon, attach-fmon), FTP send; FullTcp.
    ("simple-full", "stats1"),
    # A second duplex-link between two nodes replaces the first; a flow monitor with early
    # drops (attach-fmon ... 1) on a RED bottleneck.
    ("red", "congested"),
    ("sack", "sack_finiteflow"),
    # Sack1's duplicate-ACK threshold from the window (numdupacksFrac_ 4); a window chosen
    # from the segment size (windowInitOption_ 2) on a 9.6 kb/s link.
    ("sack", "sack_dupacks1"),
    ("tcp", "dialup"),
    # RED's `drop_rand_`: a forced drop's victim drawn from the queue on ns-2's own numbers,
    # interleaved with the early tests' draws (19 of stats2's 33 drops are not the arrival).
    ("simple", "stats2"),
    # Agent/TCP's quiescence option (QOption_): the window cut after an idle or
    # application-limited spell, with and without its RTT counter, control_increase_.
    ("tcp", "quiescentB_qoption"),
    ("tcp", "quiescent_500ms_coarse"),
    # Application/Telnet: exponential gaps on ns-2's default RNG, its interval_ changed and
    # the application stopped during the run; control_increase_ on Reno.
    ("tcp", "underutilized_100ms"),
    ("tcp", "underutilized_100ms_control_Reno"),
    # Sack1's partial_ack_: the next two un-SACKed packets sent on a partial ACK.
    ("tcpVariants", "multiple_partial_ack_sack"),
    # FACK (Agent/TCP/Fack): the forward ACK, retransmissions in flight, the restart at one
    # packet; SACK with Rate-Halving (Agent/TCP/SackRH): exact intervals and their bounds.
    ("tcpVariants", "twodrops_fack"),
    ("tcpVariants", "fourdrops_fack"),
    ("tcpVariants", "twodrops_sackRH"),
    ("tcpVariants", "fourdrops_sackRH"),
    # overhead_: each delayed send's delay from ns-2's default RNG, at ns-2's double times.
    ("simple", "phase2"),
    # FullTcp with ECN: the ECN-setup SYN and SYN/ACK, an ECN-Echo halving the window, CWR.
    ("full", "ecn1"),
    # ... a retransmission in the window an ECN-Echo cut; FullTcp/Sack's marks and drops.
    ("full-fixes", "ecn-rexmt"),
    ("full-fixes", "sack-ecn-drop-mark"),
    # ... ecn_syn_: a CE-marked ECN-capable SYN/ACK, with ecn_syn_wait_ 0, 1 (a wait of one
    # RTT below the minimum RTO) and 2 (a new SYN/ACK).
    ("ecn-ack", "synack2_fulltcp"),
    ("ecn-ack", "synack2a_fulltcp"),
    ("ecn-ack", "synack2b_fulltcp"),
    # ... and a one-way TCPSink's ecn_syn_: its answer to the ECN setup ECN-capable.
    ("ecn-ack", "synack2"),
    # max_connects_: the sixth SYN is not sent, the connection given up.
    ("ecn-ack", "synack-5-maxconnect"),
    # FullTcp's ECN over RED marks with losses (Sack, NewReno with old_ecn_, which FullTcp
    # does not read), a traced FullTcp cwnd_ (into all.cwnd), a timeout after ECN.
    ("ecn-full", "ecn_drop_sack_full"),
    ("ecn-full", "ecn_twoecn_newreno_full_delack"),
    ("ecn-full", "ecn_timeout1_reno_full"),
    # ns-2's general AIMD controls: increase_num_ 0.41 and decrease_num_ 0.75 on Reno with
    # precisionReduce_; decrease_num_ 0.875 on Sack1, whose second FTP's stopped, lost last
    # packet is never resent (ns-2's `advance 0`: curseq_ = maxseq_); binomial SQRT controls
    # (windowOption_ 6, k_parameter_ and l_parameter_ 0.5).
    ("aimd", "tcpA_precise_reno"),
    ("aimd", "tcpB"),
    ("aimd", "binomial2"),
    # Reno and NewReno with exitFastRetrans_ false: refused duplicates still inflate dupwnd_.
    ("tcpOptions", "timeouts_reno_noexitFR"),
    ("tcpOptions", "timeouts_newreno_noexitFR"),
    # A delay cut to 1 ms and back under a Sack1 flow (packets overtake), and the same with
    # DelayLink avoidReordering_ (none do).
    ("links", "changeDelay1"),
    ("links", "changeDelay2"),
    # A Newreno SYN dropped with bugfix_ss_ 0: windowInit_ 4 survives the timeout.
    ("tcp-init-win", "droppedSYN"),
    # Greis's example4: three Exponential on/off sources on ns-2's default RNG.
    ("greis", "example4"),
]


@needs_ns
@pytest.mark.skipif(
    not Path("/usr/share/doc/ns2/examples/tcl/test/test-suite-newreno.tcl").exists(),
    reason="ns-2's validation suites (Debian's ns2-examples) are not installed",
)
@pytest.mark.parametrize("suite,test", VALIDATION_PASSES, ids=lambda s: s)
def test_ns2_validation_tests_keep_passing(tmp_path, suite, test):
    from ternsim import validation

    folder = validation.test_folder()
    for f in folder.iterdir():
        if f.suffix == ".tcl" and f.is_file():
            shutil.copy(f, tmp_path / f.name)
    row = validation.run_test(suite, test, tmp_path)
    assert row["verdict"] == "pass", row


def test_two_sample_p_is_students_pooled_t_test():
    """{1, 2, 3} against {4, 5, 6}: means 2 and 5, pooled variance 1, t = −3 / √(2/3) =
    −3.674 on 4 degrees of freedom, two-sided p = 0.0213 (the textbook value); equal
    samples give 1; samples without spread give 1 or 0."""
    from ternsim.conformance import two_sample_p

    assert abs(two_sample_p([1, 2, 3], [4, 5, 6]) - 0.0213) < 1e-4
    assert two_sample_p([1, 2, 3], [1, 2, 3]) == 1.0
    assert two_sample_p([2, 2], [2, 2]) == 1.0
    assert two_sample_p([2, 2], [3, 3]) == 0.0
