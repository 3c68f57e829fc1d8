# Two independent three-node chains (10Mb 10ms, then 1.5Mb 20ms with queue-limit 20), a TCP
# bulk transfer on each to a delayed-ACK sink, for 10 s. What ns-2 draws from its default RNG
# before the run sets each agent's boot_time_ (its RTT tick phase): a spare TCP agent that is
# never attached, a Vegas sender, agents attached to nodes in an order unlike their creation.
# Usage: ns two_chains.tcl [SEED]   (SEED: $defaultRNG seed; none: ns-2's default RNG state)
set ns [new Simulator]
if {$argc > 0} { $defaultRNG seed [lindex $argv 0] }
set f [open two_chains.tr w]
$ns trace-all $f

set spare [new Agent/TCP/Reno]
for {set i 0} {$i < 6} {incr i} { set n($i) [$ns node] }
$ns duplex-link $n(0) $n(1) 10Mb 10ms DropTail
$ns duplex-link $n(1) $n(2) 1.5Mb 20ms DropTail
$ns duplex-link $n(3) $n(4) 10Mb 10ms DropTail
$ns duplex-link $n(4) $n(5) 1.5Mb 20ms DropTail
$ns queue-limit $n(1) $n(2) 20
$ns queue-limit $n(4) $n(5) 20

set vegas [new Agent/TCP/Vegas]
set reno [new Agent/TCP/Newreno]
foreach tcp [list $vegas $reno] {
    $tcp set packetSize_ 1000
    $tcp set window_ 100
}
# The NewReno sender sits on node 3, the Vegas sender on node 0, attached second.
$ns attach-agent $n(3) $reno
$ns attach-agent $n(0) $vegas
set s1 [new Agent/TCPSink/DelAck]
set s2 [new Agent/TCPSink/DelAck]
$ns attach-agent $n(2) $s1
$ns attach-agent $n(5) $s2
$ns connect $vegas $s1
$ns connect $reno $s2
set ftp1 [new Application/FTP]
$ftp1 attach-agent $vegas
set ftp2 [new Application/FTP]
$ftp2 attach-agent $reno
$ns at 0.0 "$ftp1 start"
$ns at 0.3 "$ftp2 start"

proc finish {} {
    global ns f vegas reno
    $ns flush-trace
    close $f
    puts "vegas: [$vegas set ndatapack_] sent, [$vegas set nrexmitpack_] retransmitted"
    puts "newreno: [$reno set ndatapack_] sent, [$reno set nrexmitpack_] retransmitted"
    exit 0
}
$ns at 10.0 "finish"
$ns run
