# A Reno flow into a 1.5 Mb/s RED bottleneck (ns-2.35's automatic RED parameters, byte
# mode, early drops), with RED's `curq_` and `ave_` traced into red.q and the trace-all file
# all.tr. ns-2 draws each early test from its default RNG: ternsim replays those draws.
set ns [new Simulator]
set af [open all.tr w]
$ns trace-all $af
set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
$ns duplex-link $n0 $n1 10Mb 2ms DropTail
$ns duplex-link $n1 $n2 1.5Mb 20ms RED
$ns queue-limit $n1 $n2 25
set redq [[$ns link $n1 $n2] queue]
set tq [open red.q w]
$redq trace curq_
$redq trace ave_
$redq attach $tq
set tcp [new Agent/TCP/Reno]
$ns attach-agent $n0 $tcp
set sink [new Agent/TCPSink]
$ns attach-agent $n2 $sink
$ns connect $tcp $sink
set ftp [new Application/FTP]
$ftp attach-agent $tcp
$ns at 0.1 "$ftp start"
$ns at 5.0 "finish"
proc finish {} {
    global tq af
    close $tq
    close $af
    exit 0
}
$ns run
