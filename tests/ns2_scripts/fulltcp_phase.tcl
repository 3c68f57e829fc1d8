# One FTP over ns-2's two-way TCP (Agent/TCP/FullTcp) whose RTT samples straddle the
# tcpTick_ clock's ticks: the trace depends on the sender's boot_time_, which ns-2 draws
# again when the application starts the connection (advance_bytes resets the agent).
# Nodes are made in reverse so that the sender is reset second at `$ns run`.
set ns [new Simulator]
set tf [open out.tr w]
$ns trace-all $tf
Agent/TCP set tcpTick_ 0.1
set n3 [$ns node]
set n2 [$ns node]
set n0 [$ns node]
$ns duplex-link $n0 $n2 10Mb 2ms DropTail
$ns duplex-link $n2 $n3 1.5Mb 63ms DropTail
$ns queue-limit $n2 $n3 5
set tcp1 [new Agent/TCP/FullTcp]
set sink1 [new Agent/TCP/FullTcp]
$tcp1 set window_ 30
$ns attach-agent $n0 $tcp1
$ns attach-agent $n3 $sink1
$ns connect $tcp1 $sink1
$sink1 listen
set ftp1 [$tcp1 attach-app FTP]
$ns at 0.1 "$ftp1 start"
proc finish {} { global ns tf; $ns flush-trace; close $tf; exit 0 }
$ns at 10.0 "finish"
$ns run
