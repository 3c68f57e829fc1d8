set ns [new Simulator]
set tf [open out.tr w]
$ns trace-all $tf
set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
$ns duplex-link $n0 $n1 10Mb 2ms DropTail
$ns duplex-link $n1 $n2 1Mb 20ms DropTail
$ns queue-limit $n1 $n2 10
set em [new ErrorModel/List]
$em droplist {3 7}
$ns link-lossmodel $em $n1 $n2
set tcp [new Agent/TCP/Reno]
$tcp set fid_ 1
set sink [new Agent/TCPSink]
$ns attach-agent $n0 $tcp
$ns attach-agent $n2 $sink
$ns connect $tcp $sink
set ftp [new Application/FTP]
$ftp attach-agent $tcp
$ns at 0.1 "$ftp start"
$ns at 2.0 "finish"
proc finish {} { global ns tf; $ns flush-trace; close $tf; exit 0 }
$ns run
