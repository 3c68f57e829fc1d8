# ECN (RFC 3168 as ns-2.35 models it) on a RED bottleneck that marks instead of dropping
# early (`setbit_ true`): an ECN Reno flow, an ECN Sack1 flow with delayed ACKs and
# `old_ecn_`, and a NewReno flow without ECN, whose packets RED drops. The trace-all file
# shows the ECN bits (C ECN-Echo, A CWR, E congestion experienced, N ECN-capable); the Reno
# sender's cwnd_ and ssthresh_ are traced into cwnd.tr.
set ns [new Simulator]
set af [open all.tr w]
$ns trace-all $af
set s1 [$ns node]
set s2 [$ns node]
set s3 [$ns node]
set r1 [$ns node]
set r2 [$ns node]
set d [$ns node]
$ns duplex-link $s1 $r1 10Mb 2ms DropTail
$ns duplex-link $s2 $r1 10Mb 3ms DropTail
$ns duplex-link $s3 $r1 10Mb 4ms DropTail
$ns duplex-link $r1 $r2 1.5Mb 20ms RED
$ns duplex-link $r2 $d 10Mb 2ms DropTail
$ns queue-limit $r1 $r2 25
set redq [[$ns link $r1 $r2] queue]
$redq set setbit_ true

set tcp1 [$ns create-connection TCP/Reno $s1 TCPSink $d 1]
$tcp1 set window_ 30
$tcp1 set ecn_ 1
set tcp2 [$ns create-connection TCP/Sack1 $s2 TCPSink/Sack1/DelAck $d 2]
$tcp2 set window_ 30
$tcp2 set ecn_ 1
$tcp2 set old_ecn_ 1
set tcp3 [$ns create-connection TCP/Newreno $s3 TCPSink $d 3]
$tcp3 set window_ 30

set cf [open cwnd.tr w]
$tcp1 attach $cf
$tcp1 trace cwnd_
$tcp1 trace ssthresh_

foreach tcp [list $tcp1 $tcp2 $tcp3] start {0.0 0.3 0.6} {
    set ftp [$tcp attach-app FTP]
    $ns at $start "$ftp start"
}
$ns at 6.0 "finish"
proc finish {} {
    global af cf
    close $af
    close $cf
    exit 0
}
$ns run
