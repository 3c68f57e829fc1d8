# A queue monitor sampled by the link itself: `queue-sample-timeout` writes the mean queue
# (bytes and packets) since the last sample and the monitor's counters every 0.2 s, and with
# `trace` as the first argument `start-tracing` also writes the queue after every arrival,
# departure and drop, all into the file given to `monitor-queue`. A Reno flow and a CBR
# source share the 1.7 Mb/s bottleneck; the sender's cwnd_ is traced too.
set ns [new Simulator]
set f [open out.tr w]
$ns trace-all $f
set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
set n3 [$ns node]
$ns duplex-link $n0 $n2 2Mb 10ms DropTail
$ns duplex-link $n1 $n2 2Mb 10ms DropTail
$ns duplex-link $n2 $n3 1.7Mb 20ms DropTail
$ns queue-limit $n2 $n3 10
set qf [open queue.txt w]
set qmon [$ns monitor-queue $n2 $n3 $qf 0.2]
set bottleneck [$ns link $n2 $n3]
if {$argc > 0 && [lindex $argv 0] == "trace"} { $bottleneck start-tracing }
$bottleneck queue-sample-timeout
set tcp [new Agent/TCP/Reno]
$ns attach-agent $n0 $tcp
set sink [new Agent/TCPSink]
$ns attach-agent $n3 $sink
$ns connect $tcp $sink
set ftp [new Application/FTP]
$ftp attach-agent $tcp
set udp [new Agent/UDP]
$ns attach-agent $n1 $udp
set null [new Agent/Null]
$ns attach-agent $n3 $null
$ns connect $udp $null
set cbr [new Application/Traffic/CBR]
$cbr attach-agent $udp
$cbr set packetSize_ 1000
$cbr set rate_ 1mb
set cw [open cwnd.txt w]
$tcp attach $cw
$tcp trace cwnd_
$ns at 0.1 "$cbr start"
$ns at 1.0 "$ftp start"
$ns at 4.0 "$ftp stop"
$ns at 4.5 "$cbr stop"
proc finish {} {
    global ns f qf cw qmon bottleneck
    $ns flush-trace
    close $f
    close $cw
    puts "sample [$bottleneck sample-queue-size]"
    close $qf
    puts "drops [$qmon set pdrops_] arrivals [$qmon set parrivals_] bytes [$qmon set bdepartures_]"
    exit 0
}
$ns at 5.0 "finish"
$ns run
