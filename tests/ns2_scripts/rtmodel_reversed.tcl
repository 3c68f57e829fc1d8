set ns [new Simulator]
set tf [open out.tr w]
$ns trace-all $tf
set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
$ns duplex-link $n0 $n1 10Mb 2ms DropTail
$ns duplex-link $n1 $n2 1Mb 20ms DropTail
set tcp [new Agent/TCP/Reno]
set sink [new Agent/TCPSink]
$ns attach-agent $n0 $tcp
$ns attach-agent $n2 $sink
$ns connect $tcp $sink
set ftp [new Application/FTP]
$ftp attach-agent $tcp
$ns rtmodel-at 1.0 down $n2 $n1
$ns rtmodel-at 1.2345678 up $n2 $n1
$ns at 0.1 "$ftp start"
$ns at 3.0 "finish"
proc finish {} { global ns tf tcp; $ns flush-trace; close $tf; puts "[$tcp set nrexmitpack_]"; exit 0 }
$ns run
