# Conformance case "red": five Reno flows over a dumbbell whose 1.5 Mb/s, 20 ms bottleneck
# runs RED with ns-2.35's defaults (byte mode, thresholds and weight chosen from the link:
# thresh_ 5, maxthresh_ 15 packets of 500 B, q_weight_ 0.00266; gentle_, wait_, use_mark_p_)
# and queue-limit 50; access links 10 Mb/s with 1-5 ms, flows starting 0.2 s apart.
# usage: ns red.tcl SEED DURATION TRACEFILE NS_STATS
#   SEED: $defaultRNG seed (RED's early test and the TCP agents' boot_time_ draw from it)
#   TRACEFILE: - for none. NS_STATS: 1 (under ns) also counts RED's early drops through an
#   early-drop target, writes the average queue at each arrival to red-ave.tr ("a TIME AVE",
#   bytes) and prints "acked A rexmit R timeouts T early E" (sums over the flows); the drops
#   at the bottleneck are its "d" lines in TRACEFILE. 0: the plain run, as `ternsim ns2`
#   translates it (the front end has no early-drop target, RED tracing or ack_).
set seed [lindex $argv 0]
set duration [lindex $argv 1]
set tracefile [lindex $argv 2]
set ns_stats [lindex $argv 3]
set ns [new Simulator]
$defaultRNG seed $seed
set f [open [expr {$tracefile == "-" ? "/dev/null" : $tracefile}] w]
$ns trace-all $f
set r1 [$ns node]
set r2 [$ns node]
$ns duplex-link $r1 $r2 1.5Mb 20ms RED
$ns duplex-link-op $r1 $r2 queuePos 0.5
set flows 5
for {set i 0} {$i < $flows} {incr i} {
    set s($i) [$ns node]
    set d($i) [$ns node]
    $ns duplex-link $s($i) $r1 10Mb [expr {1 + $i}]ms DropTail
    $ns duplex-link $r2 $d($i) 10Mb 1ms DropTail
    set tcp($i) [new Agent/TCP/Reno]
    $tcp($i) set packetSize_ 1000
    $tcp($i) set window_ 64
    $ns attach-agent $s($i) $tcp($i)
    set sink($i) [new Agent/TCPSink]
    $ns attach-agent $d($i) $sink($i)
    $ns connect $tcp($i) $sink($i)
    set ftp($i) [new Application/FTP]
    $ftp($i) attach-agent $tcp($i)
    $ns at [expr {0.2 * $i}] "$ftp($i) start"
}
if {$ns_stats} {
    set q [[$ns link $r1 $r2] queue]
    set early [new Agent/LossMonitor]
    $q early-drop-target $early
    set avef [open red-ave.tr w]
    $q attach $avef
    $q trace ave_
    proc print_ns_stats {} {
        global tcp flows early avef
        close $avef
        set acked 0
        set rexmit 0
        set timeouts 0
        for {set i 0} {$i < $flows} {incr i} {
            incr acked [$tcp($i) set ack_]
            incr rexmit [$tcp($i) set nrexmitpack_]
            incr timeouts [$tcp($i) set nrexmit_]
        }
        puts "acked $acked rexmit $rexmit timeouts $timeouts early [$early set npkts_]"
    }
}
proc finish {} {
    global ns f ns_stats
    $ns flush-trace
    close $f
    if {$ns_stats} {
        print_ns_stats
    }
    exit 0
}
$ns at $duration "finish"
$ns run
