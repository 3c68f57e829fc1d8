# dumbbell.tcl with a nam trace: Reno from s1 to d1 and UDP/CBR from s2 to d2 share a 1.5 Mb/s
# bottleneck; flow colours, link orientations, a queue position, node colours, shapes and
# labels, a label and an annotation during the run.
set ns [new Simulator]
$ns color 1 Blue
$ns color 2 Red
set nf [open nam_dumbbell.nam w]
$ns namtrace-all $nf
set s1 [$ns node]
set s2 [$ns node]
set r1 [$ns node]
set r2 [$ns node]
set d1 [$ns node]
set d2 [$ns node]
$s1 color blue
$s2 color red
$r1 shape box
$r2 shape box
$ns duplex-link $s1 $r1 10Mb 2ms DropTail
$ns duplex-link $s2 $r1 10Mb 3ms DropTail
$ns duplex-link $r1 $r2 1.5Mb 20ms DropTail
$ns duplex-link $r2 $d1 10Mb 2ms DropTail
$ns duplex-link $r2 $d2 10Mb 3ms DropTail
$ns queue-limit $r1 $r2 25
$ns duplex-link-op $s1 $r1 orient right-down
$ns duplex-link-op $s2 $r1 orient right-up
$ns duplex-link-op $r1 $r2 orient right
$ns duplex-link-op $r2 $d1 orient right-up
$ns duplex-link-op $r2 $d2 orient right-down
$ns duplex-link-op $r1 $r2 queuePos 0.5
$ns duplex-link-op $r1 $r2 color green
$r1 label "bottleneck"

set tcp [new Agent/TCP/Reno]
$tcp set fid_ 1
$tcp set window_ 64
$ns attach-agent $s1 $tcp
set sink [new Agent/TCPSink]
$ns attach-agent $d1 $sink
$ns connect $tcp $sink
set ftp [new Application/FTP]
$ftp attach-agent $tcp

set udp [new Agent/UDP]
$udp set fid_ 2
$ns attach-agent $s2 $udp
set null [new Agent/Null]
$ns attach-agent $d2 $null
$ns connect $udp $null
set cbr [new Application/Traffic/CBR]
$cbr set packetSize_ 500
$cbr set rate_ 0.5Mb
$cbr attach-agent $udp

$ns at 0.1 "$cbr start"
$ns at 0.5 "$ftp start"
$ns at 0.5 "$ns trace-annotate {FTP starts}"
$ns at 2.0 "$d1 label sink; $d1 color green"
$ns at 8.0 "$ftp stop"
$ns at 9.0 "$cbr stop"

proc finish {} {
    global ns nf
    $ns flush-trace
    close $nf
    exit 0
}
$ns at 10.0 "finish"
$ns run
