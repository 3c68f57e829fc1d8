# Conformance case "udp": UDP traffic sources over sender -10 Mb/s, 2 ms- router -1 Mb/s,
# 15 ms- receiver (queue-limit 25 on the bottleneck): a CBR source with random_ jitter
# (150 kb/s, 200 B), an Exponential on/off source (700 kb/s in bursts, 300 B, 300 ms on,
# 200 ms off) and a Pareto one (800 kb/s, 500 B, 250 ms on and off, shape 1.4), each into a
# LossMonitor. Their draws come from ns-2's default RNG as the run reaches them.
# usage: ns udp.tcl QUEUE SEED DURATION [TRACEFILE]
#   QUEUE: DropTail | RED (whose early tests draw from the same generator)
#   SEED: the default RNG's seed, spread as SEED * 1000003 (ns-2 seeds MRG32k3a's six words
#         with the seed itself)
# Prints "npkts N nlost L" per source at the end.
set queue [lindex $argv 0]
set seed [lindex $argv 1]
set duration [lindex $argv 2]
set tracefile [lindex $argv 3]
$defaultRNG seed [expr {$seed * 1000003}]
set ns [new Simulator]
if {$tracefile != ""} {
    set f [open $tracefile w]
    $ns trace-all $f
}
set s [$ns node]
set r [$ns node]
set d [$ns node]
$ns duplex-link $s $r 10Mb 2ms DropTail
$ns duplex-link $r $d 1Mb 15ms $queue
$ns queue-limit $r $d 25

set monitors {}
proc source {kind fid size rate} {
    global ns s d monitors
    set udp [new Agent/UDP]
    $udp set fid_ $fid
    $ns attach-agent $s $udp
    set mon [new Agent/LossMonitor]
    $ns attach-agent $d $mon
    $ns connect $udp $mon
    lappend monitors $mon
    set app [new Application/Traffic/$kind]
    $app set packetSize_ $size
    $app set rate_ $rate
    $app attach-agent $udp
    return $app
}
set cbr [source CBR 1 200 150k]
$cbr set random_ 1
set expoo [source Exponential 2 300 700k]
$expoo set burst_time_ 300ms
$expoo set idle_time_ 200ms
set pareto [source Pareto 3 500 800k]
$pareto set burst_time_ 250ms
$pareto set idle_time_ 250ms
$pareto set shape_ 1.4
$ns at 0.2 "$cbr start"
$ns at 0.1 "$expoo start"
$ns at 0.3 "$pareto start"

proc finish {} {
    global ns f tracefile monitors
    if {$tracefile != ""} {
        $ns flush-trace
        close $f
    }
    foreach m $monitors {
        puts "npkts [$m set npkts_] nlost [$m set nlost_]"
    }
    exit 0
}
$ns at $duration "finish"
$ns run
