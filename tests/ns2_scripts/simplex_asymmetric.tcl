# An asymmetric path made of two simplex links: 2 Mb/s, 10 ms towards the receiver and
# 72 kb/s, 50 ms back, each direction with its own queue-limit (both drop: data one way, ACKs
# the other); the way back is made after another link. The access link n0-n1 gets a longer
# delay towards n0 (`$ns delay`, simplex by default). One Reno flow n0 -> n2.
set ns [new Simulator]
set tf [open out.tr w]
$ns trace-all $tf
set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
set n3 [$ns node]
$ns duplex-link $n0 $n1 10Mb 5ms DropTail
$ns delay $n1 $n0 8ms
$ns simplex-link $n1 $n2 2Mb 10ms DropTail
$ns duplex-link $n3 $n1 10Mb 2ms DropTail
$ns simplex-link $n2 $n1 72kb 50ms DropTail
$ns queue-limit $n1 $n2 15
$ns queue-limit $n2 $n1 5
set tcp [new Agent/TCP/Reno]
$tcp set window_ 64
$ns attach-agent $n0 $tcp
set sink [new Agent/TCPSink]
$ns attach-agent $n2 $sink
$ns connect $tcp $sink
set ftp [new Application/FTP]
$ftp attach-agent $tcp
$ns at 0.1 "$ftp start"
proc finish {} {
    global ns tf tcp
    $ns flush-trace
    close $tf
    puts "acked [$tcp set ack_] rexmits [$tcp set nrexmitpack_] timeouts [$tcp set nrexmit_]"
    exit 0
}
$ns at 20.0 "finish"
$ns run
