# Distance-vector routing (`$ns rtproto DV`): rtproto_session.tcl under DV. A Reno flow
# 0-1-2 with a detour 1-3-4-2 and CBR from 3 to 2; the direct 1-2 link down from 1 s to
# 1.5 s (the DV updates on the links reroute the flow over the detour, and back), then 3-4
# down from 2 s to 2.5 s.
set ns [new Simulator]
$ns rtproto DV
set tf [open out.tr w]
$ns trace-all $tf
for {set i 0} {$i < 5} {incr i} { set n($i) [$ns node] }
$ns duplex-link $n(0) $n(1) 10Mb 2ms DropTail
$ns duplex-link $n(1) $n(2) 1Mb 20ms DropTail
$ns duplex-link $n(1) $n(3) 1Mb 10ms DropTail
$ns duplex-link $n(3) $n(4) 1Mb 10ms DropTail
$ns duplex-link $n(4) $n(2) 1Mb 10ms DropTail
set tcp [new Agent/TCP/Reno]
set sink [new Agent/TCPSink]
$ns attach-agent $n(0) $tcp
$ns attach-agent $n(2) $sink
$ns connect $tcp $sink
set ftp [new Application/FTP]
$ftp attach-agent $tcp
set udp [new Agent/UDP]
$ns attach-agent $n(3) $udp
set null [new Agent/Null]
$ns attach-agent $n(2) $null
$ns connect $udp $null
set cbr [new Application/Traffic/CBR]
$cbr attach-agent $udp
$ns at 0.2 "$cbr start"
$ns rtmodel-at 1.0 down $n(1) $n(2)
$ns rtmodel-at 1.5 up $n(1) $n(2)
$ns rtmodel-at 2.0 down $n(3) $n(4)
$ns rtmodel-at 2.5 up $n(3) $n(4)
$ns at 0.1 "$ftp start"
$ns at 3.0 "finish"
proc finish {} { global ns tf tcp; $ns flush-trace; close $tf; puts "[$tcp set nrexmitpack_] [$tcp set ack_]"; exit 0 }
$ns run
