# ns-2's general AIMD and binomial controls (TcpAgent::opencwnd, slowdown) through queue
# overflows and an outage: packets into out.tr, cwnd_ and ssthresh_ into vars.tr.
# usage: ns aimd_binomial.tcl AGENT SINK MODE
#   AGENT: TCP | TCP/Reno | TCP/Newreno | TCP/Sack1; SINK: TCPSink | TCPSink/Sack1
#   MODE: aimd (increase_num_ 0.41, decrease_num_ 0.75, set on the class)
#       | precise (the same with precisionReduce_ true, set on the agent)
#       | sqrt (binomial k 0.5, l 0.5, decrease_num_ 0.33, set on the agent)
#       | iiad (binomial k 1, l 0, decrease_num_ 0.33, set on the class)
set mode [lindex $argv 2]
Agent/TCP set precisionReduce_ false
if {$mode == "aimd" || $mode == "precise"} {
    Agent/TCP set increase_num_ 0.41
    Agent/TCP set decrease_num_ 0.75
}
if {$mode == "iiad"} {
    Agent/TCP set windowOption_ 6
    Agent/TCP set k_parameter_ 1.0
    Agent/TCP set l_parameter_ 0.0
    Agent/TCP set decrease_num_ 0.33
}
set ns [new Simulator]
set tf [open out.tr w]
$ns trace-all $tf
set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
$ns duplex-link $n0 $n1 10Mb 2ms DropTail
$ns duplex-link $n1 $n2 1Mb 20ms DropTail
$ns queue-limit $n1 $n2 8
set tcp [new Agent/[lindex $argv 0]]
$tcp set window_ 30
if {$mode == "precise"} { $tcp set precisionReduce_ true }
if {$mode == "sqrt"} {
    $tcp set windowOption_ 6
    $tcp set k_parameter_ 0.5
    $tcp set l_parameter_ 0.5
    $tcp set decrease_num_ 0.33
    $tcp set precisionReduce_ true
}
set vf [open vars.tr w]
$tcp attach $vf
$tcp trace cwnd_
$tcp trace ssthresh_
$ns attach-agent $n0 $tcp
set sink [new Agent/[lindex $argv 1]]
$ns attach-agent $n2 $sink
$ns connect $tcp $sink
set ftp [new Application/FTP]
$ftp attach-agent $tcp
$ns rtmodel-at 4.0 down $n1 $n2
$ns rtmodel-at 4.3 up $n1 $n2
$ns at 0.1 "$ftp start"
$ns at 7.5 "$ftp stop"
$ns at 8.0 "finish"
proc finish {} {
    global ns tf vf
    $ns flush-trace
    close $tf
    close $vf
    exit 0
}
$ns run
