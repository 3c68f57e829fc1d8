# Three nodes in a line: n0 -10Mb 10ms- n1 -1.5Mb 20ms- n2, one TCP bulk transfer for 20 s.
# Usage: ns chain.tcl [TCP_CLASS] [SINK_CLASS] [TRACE_FILE]
set tcpclass [expr {$argc > 0 ? [lindex $argv 0] : "Agent/TCP/Newreno"}]
set sinkclass [expr {$argc > 1 ? [lindex $argv 1] : "Agent/TCPSink"}]
set tracefile [expr {$argc > 2 ? [lindex $argv 2] : "chain.tr"}]

set ns [new Simulator]
set f [open $tracefile w]
$ns trace-all $f

set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
$ns duplex-link $n0 $n1 10Mb 10ms DropTail
$ns duplex-link $n1 $n2 1.5Mb 20ms DropTail
$ns queue-limit $n1 $n2 20

set tcp [new $tcpclass]
$tcp set packetSize_ 1000
$tcp set window_ 100
$ns attach-agent $n0 $tcp
set sink [new $sinkclass]
$ns attach-agent $n2 $sink
$ns connect $tcp $sink
set ftp [new Application/FTP]
$ftp attach-agent $tcp
$ns at 0.0 "$ftp start"

proc finish {} {
    global ns f tcp
    $ns flush-trace
    close $f
    puts "retransmitted packets: [$tcp set nrexmitpack_]"
    puts "data packets: [$tcp set ndatapack_], timeouts: [$tcp set nrexmit_]"
    puts "finished at [$ns now]"
    exit 0
}
$ns at 20.0 "finish"
puts "running [$tcp set window_] [Agent/TCP set windowInit_]"
$ns run
