# Two FTP transfers over ns-2's two-way TCP (Agent/TCP/FullTcp and /Newreno) through a
# drop-tail bottleneck that overflows: handshakes, delayed ACKs (segsperack_ 2, interval_ 0.2
# on one listener), fast retransmits, timeouts, a finite transfer (`produce`).
set ns [new Simulator]
set tf [open out.tr w]
$ns trace-all $tf
Agent/TCP set tcpTick_ 0.5
Agent/TCP/FullTcp set segsize_ 960
set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
set n3 [$ns node]
$ns duplex-link $n0 $n2 10Mb 2ms DropTail
$ns duplex-link $n1 $n2 10Mb 3ms DropTail
$ns duplex-link $n2 $n3 1.5Mb 20ms DropTail
$ns queue-limit $n2 $n3 6
set tcp1 [new Agent/TCP/FullTcp]
set sink1 [new Agent/TCP/FullTcp]
$tcp1 set window_ 30
$ns attach-agent $n0 $tcp1
$ns attach-agent $n3 $sink1
$tcp1 set fid_ 1
$sink1 set fid_ 1
$ns connect $tcp1 $sink1
$sink1 listen
set tcp2 [new Agent/TCP/FullTcp/Newreno]
set sink2 [new Agent/TCP/FullTcp/Newreno]
$tcp2 set window_ 25
$sink2 set segsperack_ 2
$sink2 set interval_ 0.2
$ns attach-agent $n1 $tcp2
$ns attach-agent $n3 $sink2
$tcp2 set fid_ 2
$ns connect $tcp2 $sink2
$sink2 listen
set ftp1 [$tcp1 attach-app FTP]
set ftp2 [new Application/FTP]
$ftp2 attach-agent $tcp2
$ns at 0.1 "$ftp1 start"
$ns at 0.35 "$ftp2 produce 300"
proc finish {} { global ns tf; $ns flush-trace; close $tf; exit 0 }
$ns at 8.0 "finish"
$ns run
