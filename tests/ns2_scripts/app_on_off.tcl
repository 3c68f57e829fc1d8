# Applications switched on and off: a CBR source three times from `$ns at`, an FTP stopped
# and started again, and a second FTP started and stopped only by a callback proc.
set ns [new Simulator]
set f [open out.tr w]
$ns trace-all $f
set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
set n3 [$ns node]
$ns duplex-link $n0 $n1 10Mb 5ms DropTail
$ns duplex-link $n3 $n1 10Mb 3ms DropTail
$ns duplex-link $n1 $n2 1.5Mb 20ms DropTail
$ns queue-limit $n1 $n2 15
set tcp [new Agent/TCP/Newreno]
$tcp set window_ 40
$ns attach-agent $n0 $tcp
set sink [new Agent/TCPSink]
$ns attach-agent $n2 $sink
$ns connect $tcp $sink
set ftp [new Application/FTP]
$ftp attach-agent $tcp
set tcp2 [new Agent/TCP/Reno]
$tcp2 set fid_ 3
$ns attach-agent $n3 $tcp2
set sink2 [new Agent/TCPSink]
$ns attach-agent $n2 $sink2
$ns connect $tcp2 $sink2
set ftp2 [new Application/FTP]
$ftp2 attach-agent $tcp2
set udp [new Agent/UDP]
$udp set fid_ 2
$ns attach-agent $n3 $udp
set null [new Agent/Null]
$ns attach-agent $n2 $null
$ns connect $udp $null
set cbr [new Application/Traffic/CBR]
$cbr set packetSize_ 500
$cbr set rate_ 600kb
$cbr attach-agent $udp
$ns at 0.2 "$cbr start"
$ns at 1.0 "$cbr stop"
$ns at 2.0 "$cbr start"
$ns at 2.5 "$cbr stop"
$ns at 3.3 "$cbr start"
$ns at 0.1 "$ftp start"
$ns at 1.5 "$ftp stop"
$ns at 2.7 "$ftp start"
proc second {what} {
    global ns ftp2
    $ftp2 $what
    puts "ftp2 $what at [$ns now]"
}
$ns at 0.5 "second start"
$ns at 1.7 "second stop"
$ns at 3.1 "second start"
proc finish {} {
    global ns f tcp tcp2
    $ns flush-trace
    close $f
    puts "tcp acked [$tcp set ack_] rexmits [$tcp set nrexmitpack_] timeouts [$tcp set nrexmit_]"
    puts "tcp2 acked [$tcp2 set ack_] rexmits [$tcp2 set nrexmitpack_] timeouts [$tcp2 set nrexmit_]"
    exit 0
}
$ns at 5.0 "finish"
$ns run
