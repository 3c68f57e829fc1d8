# Conformance case "wired": one TCP flow over sender -10 Mb/s, 10 ms- router -1.5 Mb/s,
# 20 ms- receiver with a drop-tail queue-limit of 20 on the bottleneck.
# usage: ns wired.tcl AGENT SINK DURATION TRACEFILE (TRACEFILE - : no trace, for timing)
#   AGENT: TCP | TCP/Reno | TCP/Newreno | TCP/Sack1 | TCP/Vegas; SINK: TCPSink | TCPSink/Sack1
#   (or TCPSink/DelAck, TCPSink/Sack1/DelAck)
# Twin: wired.toml (ternsim), same topology and TCP parameters.
set agent [lindex $argv 0]
set sinkclass [lindex $argv 1]
set duration [lindex $argv 2]
set tracefile [lindex $argv 3]
set ns [new Simulator]
if {$tracefile != "-"} {
    set f [open $tracefile w]
    $ns trace-all $f
}
set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
$ns duplex-link $n0 $n1 10Mb 10ms DropTail
$ns duplex-link $n1 $n2 1.5Mb 20ms DropTail
$ns queue-limit $n1 $n2 20
set tcp [new Agent/$agent]
$tcp set packetSize_ 1000
$tcp set window_ 100
$ns attach-agent $n0 $tcp
set sink [new Agent/$sinkclass]
$ns attach-agent $n2 $sink
$ns connect $tcp $sink
set ftp [new Application/FTP]
$ftp attach-agent $tcp
proc finish {} {
    global ns f tcp tracefile
    if {$tracefile != "-"} {
        $ns flush-trace
        close $f
    }
    puts "ack [$tcp set ack_] rexmit [$tcp set nrexmitpack_] timeouts [$tcp set nrexmit_]"
    exit 0
}
$ns at 0.0 "$ftp start"
$ns at $duration "finish"
$ns run
