# A FullTcp sender's variables read by a callback during and after the run (ns-2 binds
# cwnd_, ack_, t_seqno_, the counters ... to the agent itself): printed as ns-2 prints them.
set ns [new Simulator]
set n0 [$ns node]
set n1 [$ns node]
$ns duplex-link $n0 $n1 1Mb 10ms DropTail
$ns queue-limit $n0 $n1 5
set tcp [new Agent/TCP/FullTcp]
set sink [new Agent/TCP/FullTcp]
$ns attach-agent $n0 $tcp
$ns attach-agent $n1 $sink
$ns connect $tcp $sink
$sink listen
set ftp [$tcp attach-app FTP]
$ns at 0.1 "$ftp start"
proc show {} { global tcp ns; puts "[$ns now] cwnd [$tcp set cwnd_] ss [$tcp set ssthresh_] ack [$tcp set ack_] data [$tcp set ndatapack_] [$tcp set ndatabytes_] rx [$tcp set nrexmitpack_] [$tcp set nrexmitbytes_] to [$tcp set nrexmit_] srtt [$tcp set srtt_] [$tcp set rttvar_] [$tcp set backoff_] acks [$tcp set nackpack_] t [$tcp set t_seqno_] [$tcp set maxseq_]" }
$ns at 1.0 "show"
$ns at 3.0 "show"
proc finish {} { exit 0 }
$ns at 5 "show; finish"
$ns run
