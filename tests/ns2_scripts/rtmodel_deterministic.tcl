# ns-2's `rtmodel Deterministic` with `trace-dynamics` to stdout: a triangle whose direct
# 0-2 link goes down at 0.8 + 1.0 s, up 1.0 s later, and so on (times that are sums of
# doubles: 2.7999999999999998 s), under DV routing; a callback prints the clock every 0.9 s
# and one at 1.8 s, the instant of the first down, comes before it (ns-2 places the model's
# first event when the run starts, after the script's `$ns at`s).
set ns [new Simulator]
set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
set f [open out.tr w]
$ns trace-all $f
$ns duplex-link $n0 $n1 1.5Mb 10ms DropTail
$ns duplex-link $n1 $n2 1.5Mb 10ms DropTail
$ns duplex-link $n0 $n2 1Mb 30ms DropTail
set udp0 [new Agent/UDP]
$ns attach-agent $n0 $udp0
set cbr0 [new Application/Traffic/CBR]
$cbr0 set interval_ 5ms
$cbr0 attach-agent $udp0
set null1 [new Agent/Null]
$ns attach-agent $n2 $null1
$ns connect $udp0 $null1
$ns rtproto DV
$ns rtmodel Deterministic {0.8 1.0 1.0 6.1} $n0 $n2
[$ns link $n0 $n2] trace-dynamics $ns stdout
[$ns link $n2 $n0] trace-dynamics $ns stdout nam
proc tick {} {
    global ns
    puts "tick [$ns now]"
    $ns at [expr [$ns now] + 0.9] tick
}
$ns at 0.1 "$cbr0 start"
$ns at 1.8 "puts at-1.8"
$ns at 0.0 tick
proc finish {} {
    global ns f
    $ns flush-trace
    close $f
    exit 0
}
$ns at 7.0 "finish"
$ns run
