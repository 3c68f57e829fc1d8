# Traced TCP variables (`$tcp attach $f; $tcp trace VAR`) through losses, a link outage
# (timeouts with backoff) and recovery; every traceable variable into vars.tr.
# usage: ns trace_vars.tcl AGENT SINK QUEUE_LIMIT [MODE]
#   AGENT: TCP | TCP/Reno | TCP/Newreno | TCP/Sack1 | TCP/Vegas; SINK: TCPSink | TCPSink/Sack1
#   | TCPSink/DelAck; MODE 1: cwnd_ traced before the agent is attached (addresses -1),
#   then `syn_ false`, `windowInit_ 3`, `tcpTick_ 0.1` after the trace started (the run's
#   reset traces the changes), and t_seqno_ traced from a callback at 0.3 s.
set ns [new Simulator]
set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
$ns duplex-link $n0 $n1 10Mb 5ms DropTail
$ns duplex-link $n1 $n2 1Mb 20ms DropTail
$ns queue-limit $n1 $n2 [lindex $argv 2]
set mode [expr {[llength $argv] > 3 ? [lindex $argv 3] : 0}]
set tcp [new Agent/[lindex $argv 0]]
$tcp set window_ 40
set tf [open vars.tr w]
$tcp attach $tf
if {$mode == 1} { $tcp trace cwnd_ }
$ns attach-agent $n0 $tcp
set sink [new Agent/[lindex $argv 1]]
$ns attach-agent $n2 $sink
$ns connect $tcp $sink
set ftp [new Application/FTP]
$ftp attach-agent $tcp
if {$mode == 1} {
    foreach v {ssthresh_ rttvar_ srtt_ rtt_ ack_} { $tcp trace $v }
    $tcp set syn_ false
    $tcp set windowInit_ 3
    $tcp set tcpTick_ 0.1
    $ns at 0.3 "$tcp trace t_seqno_"
} else {
    foreach v {rtt_ srtt_ rttvar_ backoff_ dupacks_ cwnd_ t_seqno_ maxseq_ ack_ ssthresh_
               ndatapack_ ndatabytes_ nrexmitbytes_ nrexmit_ nrexmitpack_ ncwndcuts_} {
        $tcp trace $v
    }
}
$ns rtmodel-at 2.0 down $n1 $n2
$ns rtmodel-at 3.2 up $n1 $n2
$ns at 0.1 "$ftp start"
$ns at 6.0 "finish"
proc finish {} {
    global tf tcp
    # The counters a script reads (ns-2's `ndatabytes_`, `nrexmitbytes_`, `ncwndcuts_`).
    puts "[$tcp set ndatabytes_] [$tcp set nrexmitbytes_] [$tcp set ncwndcuts_]"
    close $tf
    exit 0
}
$ns run
