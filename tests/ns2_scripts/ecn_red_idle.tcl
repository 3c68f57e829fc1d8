# ECN with the timestamp option into a packet-mode RED bottleneck (thresh_ 3, maxthresh_ 6)
# that marks: three Tahoe/NewReno flows with delayed ACKs, one ECN-capable. The RED queue
# goes idle and is met again after exactly 4 ms in nanoseconds, which ns-2's double clock
# makes slightly less: the idle decay must truncate ns-2's doubles (found by comparing
# randomised ECN scripts with ns-2). Packet and event trace into all.tr.
set ns [new Simulator]
set af [open all.tr w]
$ns trace-all $af
$ns eventtrace-all
Queue/RED set bytes_ false
Queue/RED set queue_in_bytes_ false
Queue/RED set thresh_ 3
Queue/RED set maxthresh_ 6
Queue/RED set q_weight_ 0.01
Agent/TCP set timestamps_ true
set r1 [$ns node]
set r2 [$ns node]
set d [$ns node]
$ns duplex-link $r1 $r2 3Mb 20ms RED
$ns queue-limit $r1 $r2 25
$ns duplex-link $r2 $d 10Mb 1ms DropTail
[[$ns link $r1 $r2] queue] set setbit_ true
set s0 [$ns node]
$ns duplex-link $s0 $r1 10Mb 1ms DropTail
set tcp0 [$ns create-connection TCP $s0 TCPSink/DelAck $d 1]
$tcp0 set window_ 10
$tcp0 set windowInit_ 1
set ftp0 [$tcp0 attach-app FTP]
$ns at 0.0 "$ftp0 start"
set s1 [$ns node]
$ns duplex-link $s1 $r1 10Mb 4ms DropTail
set tcp1 [$ns create-connection TCP $s1 TCPSink/DelAck $d 2]
$tcp1 set window_ 20
$tcp1 set ecn_ 1
set ftp1 [$tcp1 attach-app FTP]
$ns at 0.0 "$ftp1 start"
set s2 [$ns node]
$ns duplex-link $s2 $r1 10Mb 9ms DropTail
set tcp2 [$ns create-connection TCP/Newreno $s2 TCPSink/DelAck $d 3]
$tcp2 set window_ 10
$tcp2 set windowInit_ 1
set ftp2 [$tcp2 attach-app FTP]
$ns at 0.5 "$ftp2 start"
$ns at 8.0 "close $af; exit 0"
$ns run
