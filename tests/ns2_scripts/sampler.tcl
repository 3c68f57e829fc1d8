# A sampling script in the style of ns-2 course labs: one NewReno flow and a CBR stream share a
# 1 Mb/s link; every 0.37 s a `record` proc prints the sender's and receivers' bound variables,
# resets the LossMonitor's byte count and schedules itself again. Checks mid-run stepping:
# every value read mid-run must be ns-2's.
set ns [new Simulator]
set f [open out.tr w]
$ns trace-all $f
set n0 [$ns node]
set n1 [$ns node]
$ns duplex-link $n0 $n1 1Mb 10ms DropTail
set tcp [new Agent/TCP/Newreno]
set sink [new Agent/TCPSink]
$ns attach-agent $n0 $tcp
$ns attach-agent $n1 $sink
$ns connect $tcp $sink
set ftp [new Application/FTP]
$ftp attach-agent $tcp
set udp [new Agent/UDP]
set lm [new Agent/LossMonitor]
$ns attach-agent $n0 $udp
$ns attach-agent $n1 $lm
$ns connect $udp $lm
set cbr [new Application/Traffic/CBR]
$cbr attach-agent $udp
$ns at 0.0 "$ftp start"
$ns at 0.0 "$cbr start"
proc record {} {
    global ns tcp sink lm
    puts [format "%.6f cwnd %s ssthresh %s t_seqno %s ack %s maxseq %s backoff %s dupacks %s\
        sink %s lm %s %s %s %.9f rexmit %s timeouts %s" [$ns now] [$tcp set cwnd_]\
        [$tcp set ssthresh_] [$tcp set t_seqno_] [$tcp set ack_] [$tcp set maxseq_]\
        [$tcp set backoff_] [$tcp set dupacks_] [$sink set bytes_] [$lm set bytes_]\
        [$lm set npkts_] [$lm set nlost_] [$lm set lastPktTime_] [$tcp set nrexmitpack_]\
        [$tcp set nrexmit_]]
    $lm set bytes_ 0
    $ns at [expr [$ns now] + 0.37] "record"
}
proc finish {} {
    global ns f
    $ns flush-trace
    close $f
    exit 0
}
$ns at 0.05 "record"
$ns at 3.0 "finish"
$ns run
