# Conformance case "lossy": one TCP flow over sender -10 Mb/s, 10 ms- router -1.5 Mb/s,
# 20 ms- receiver (drop-tail queue-limit 20 on the bottleneck), with an error model or a
# link outage on the bottleneck.
# usage: ns lossy.tcl AGENT SINK DURATION LOSS SEED [TRACEFILE]
#   AGENT: TCP | TCP/Reno | TCP/Newreno | TCP/Sack1; SINK: TCPSink | TCPSink/Sack1
#   LOSS: list     ErrorModel/List via `$ns lossmodel` (before the queue)
#         periodic ErrorModel/Periodic via `$ns link-lossmodel` (after the delay)
#         module   ErrorModule Fid with an ErrorModel/Periodic bound to the flow's fid
#         rate     ErrorModel rate_ 0.01 with a uniform ranvar, drops to a null agent
#         rate2    two such models, rate_ 0.005: on the data (lossmodel) and on the ACKs
#                  (link-lossmodel, 2 -> 1)
#         down     the bottleneck goes down at 5 s and up at 6 s (rtmodel-at)
#   SEED: the default RNG's seed (the rate cases' losses, SEED * 1000003; the TCP clock phase)
# Prints "acked A rexmit R timeouts T kbps K" at the end.
set agent [lindex $argv 0]
set sinkclass [lindex $argv 1]
set duration [lindex $argv 2]
set loss [lindex $argv 3]
set seed [lindex $argv 4]
set tracefile [lindex $argv 5]
if {[string match rate* $loss]} {
    # ns-2 seeds MRG32k3a's six words with the seed itself, so seeds 1, 2, 3, ... start
    # with nearly proportional numbers (the first losses fall on the same packets for most
    # seeds): spread them.
    set seed [expr {$seed * 1000003}]
}
$defaultRNG seed $seed
set ns [new Simulator]
if {$tracefile != ""} {
    set f [open $tracefile w]
    $ns trace-all $f
}
set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
$ns duplex-link $n0 $n1 10Mb 10ms DropTail
$ns duplex-link $n1 $n2 1.5Mb 20ms DropTail
$ns queue-limit $n1 $n2 20
if {$loss == "list"} {
    set em [new ErrorModel/List]
    $em droplist {40 41 150 151 152 400 1100}
    $ns lossmodel $em $n1 $n2
} elseif {$loss == "periodic"} {
    set em [new ErrorModel/Periodic]
    $em unit pkt
    $em set period_ 150
    $em set offset_ 60
    $ns link-lossmodel $em $n1 $n2
} elseif {$loss == "module"} {
    set module [new ErrorModule Fid]
    [$ns link $n1 $n2] errormodule $module
    set em [new ErrorModel/Periodic]
    $em set period_ 120
    $em set offset_ 35
    $em set burstlen_ 2
    $module insert $em
    $module bind $em 1
} elseif {$loss == "rate"} {
    set em [new ErrorModel]
    $em unit pkt
    $em set rate_ 0.01
    $em ranvar [new RandomVariable/Uniform]
    $ns lossmodel $em $n1 $n2
    $em drop-target [new Agent/Null]
} elseif {$loss == "rate2"} {
    set em [new ErrorModel]
    $em set rate_ 0.005
    $em ranvar [new RandomVariable/Uniform]
    $ns lossmodel $em $n1 $n2
    $em drop-target [new Agent/Null]
    set em2 [new ErrorModel]
    $em2 set rate_ 0.005
    $ns link-lossmodel $em2 $n2 $n1
} elseif {$loss == "down"} {
    $ns rtmodel-at 5.0 down $n1 $n2
    $ns rtmodel-at 6.0 up $n1 $n2
}
set tcp [new Agent/$agent]
$tcp set packetSize_ 1000
$tcp set window_ 100
$tcp set fid_ 1
$ns attach-agent $n0 $tcp
set sink [new Agent/$sinkclass]
$ns attach-agent $n2 $sink
$ns connect $tcp $sink
set ftp [new Application/FTP]
$ftp attach-agent $tcp
proc finish {} {
    global ns f tcp tracefile duration
    if {$tracefile != ""} {
        $ns flush-trace
        close $f
    }
    set kbps [expr [$tcp set ack_] * 8.0 * [$tcp set packetSize_] / $duration / 1000.0]
    puts "acked [$tcp set ack_] rexmit [$tcp set nrexmitpack_] timeouts [$tcp set nrexmit_] kbps $kbps"
    exit 0
}
$ns at 0.0 "$ftp start"
$ns at $duration "finish"
$ns run
