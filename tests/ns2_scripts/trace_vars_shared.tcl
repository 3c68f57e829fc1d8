# Traced TCP variables written into the trace-all file itself (`$tcp attach $tf` on the
# channel of `$ns trace-all $tf`, as course labs do): ns-2 writes each change between the
# packet lines of the events before and after it (the `r` line of the ACK that opened the
# window, then `cwnd_`, then the `+` lines of the segments it let out, `t_seqno_` after each).
# usage: ns trace_vars_shared.tcl AGENT SINK QUEUE_LIMIT
#   AGENT: TCP/Reno | TCP/Newreno | TCP/Sack1 | TCP/Vegas; SINK: TCPSink | TCPSink/Sack1
set ns [new Simulator]
set tf [open out.tr w]
$ns trace-all $tf
set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
$ns duplex-link $n0 $n1 10Mb 5ms DropTail
$ns duplex-link $n1 $n2 1Mb 20ms DropTail
$ns queue-limit $n1 $n2 [lindex $argv 2]
set tcp [new Agent/[lindex $argv 0]]
$ns attach-agent $n0 $tcp
set sink [new Agent/[lindex $argv 1]]
$ns attach-agent $n2 $sink
$ns connect $tcp $sink
$tcp attach $tf
foreach v {cwnd_ ssthresh_ t_seqno_ ack_ maxseq_ dupacks_ rtt_ srtt_ rttvar_ backoff_ nrexmit_} {
    $tcp trace $v
}
set ftp [new Application/FTP]
$ftp attach-agent $tcp
$ns at 0.1 "$ftp start"
$ns at 3.0 "finish"
proc finish {} { global ns tf; $ns flush-trace; close $tf; exit 0 }
$ns run
