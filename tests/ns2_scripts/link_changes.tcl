# A link changed during the run by `$ns at` scripts: the bottleneck's delay (long, then short
# enough that later packets overtake earlier ones, unless `DelayLink avoidReordering_`), its
# bandwidth (down to a trickle and back), and its queue limit (lowered, then the waiting
# packets beyond it dropped from the tail with `shrink-queue`). A Reno flow with a large
# window keeps the queue full. Usage: ns link_changes.tcl delay|noreorder|bandwidth|queue
set mode [lindex $argv 0]
if {$mode == "noreorder"} { DelayLink set avoidReordering_ true }
set ns [new Simulator]
set f [open out.tr w]
$ns trace-all $f
set s [$ns node]
set r [$ns node]
set d [$ns node]
$ns duplex-link $s $r 10Mb 2ms DropTail
$ns duplex-link $r $d 1.5Mb 20ms DropTail
$ns queue-limit $r $d 30
set tcp [new Agent/TCP/Reno]
$tcp set window_ 60
$ns attach-agent $s $tcp
set sink [new Agent/TCPSink]
$ns attach-agent $d $sink
$ns connect $tcp $sink
set ftp [new Application/FTP]
$ftp attach-agent $tcp
$ns at 0.1 "$ftp start"
switch $mode {
    delay - noreorder {
        $ns at 2.0 "$ns delay $r $d 200ms duplex"
        $ns at 2.06 "$ns delay $r $d 5ms duplex"
        $ns at 3.0 "$ns delay $r $d 40ms"
    }
    bandwidth {
        $ns at 1.0 "$ns bandwidth $r $d 64Kb duplex"
        $ns at 2.0 "$ns bandwidth $r $d 3Mb"
    }
    queue {
        set q [[$ns link $r $d] queue]
        $ns at 2.0 "$ns queue-limit $r $d 8; $q shrink-queue"
        $ns at 3.0 "$ns queue-limit $r $d 20"
    }
}
proc finish {} {
    global ns f tcp
    $ns flush-trace
    close $f
    puts "acked [$tcp set ack_] rexmits [$tcp set nrexmitpack_] timeouts [$tcp set nrexmit_]"
    exit 0
}
$ns at 4.0 "finish"
$ns run
