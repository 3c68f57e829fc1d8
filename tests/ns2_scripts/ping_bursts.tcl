# Bursts of five 500-byte pings and a 50 kb/s CBR flow into a 64 kb/s link whose queue holds
# three packets; each reply before 1 s sends another ping; the far agent has its own fid_.
set ns [new Simulator]
set tf [open ping_bursts.tr w]
$ns trace-all $tf
set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
$ns duplex-link $n0 $n1 1Mb 10ms DropTail
$ns duplex-link $n1 $n2 64Kb 30ms DropTail
$ns queue-limit $n1 $n2 3
Agent/Ping instproc recv {from rtt} {
    global ns
    $self instvar node_
    puts "[$ns now] node [$node_ id] got answer from $from rtt $rtt ms"
    if {[$ns now] < 1.0} { $self send }
}
set p0 [new Agent/Ping]
$p0 set packetSize_ 500
$p0 set fid_ 2
$ns attach-agent $n0 $p0
set p1 [new Agent/Ping]
$ns attach-agent $n2 $p1
$ns connect $p0 $p1
set udp [new Agent/UDP]
$ns attach-agent $n0 $udp
set null [new Agent/Null]
$ns attach-agent $n2 $null
$ns connect $udp $null
set cbr [new Application/Traffic/CBR]
$cbr attach-agent $udp
$cbr set rate_ 50Kb
proc burst {} {
  global ns p0
  for {set i 0} {$i < 5} {incr i} { $p0 send }
  $ns at [expr [$ns now] + 0.5] burst
}
$ns at 0.1 "$cbr start"
$ns at 0.2 "burst"
$ns at 0.3 "$p1 send"
proc finish {} { global ns tf; $ns flush-trace; close $tf; exit 0 }
$ns at 2.0 "finish"
$ns run
