# RED on the chain's bottleneck (1.5Mb 20ms) with thresholds no average reaches, so its early
# test never runs and nothing is random: what remains is RED's physical limit, in bytes as
# ns-2.35's defaults have it (queue_in_bytes_: limit_ x mean_pktsize_ = 16 x 500 bytes
# waiting) or in packets (16 waiting), and the automatic parameters read back before the run.
# Usage: ns red_limit.tcl [TCP_CLASS] [QUEUE_IN_BYTES]
set tcpclass [expr {$argc > 0 ? [lindex $argv 0] : "Agent/TCP/Newreno"}]
set ns [new Simulator]
if {$argc > 1} {
    Queue/RED set queue_in_bytes_ [lindex $argv 1]
    Queue/RED set bytes_ [lindex $argv 1]
}
set f [open red_limit.tr w]
$ns trace-all $f
Queue/RED set thresh_ 60
set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
$ns duplex-link $n0 $n1 10Mb 10ms RED
$ns duplex-link $n1 $n2 1.5Mb 20ms RED
$ns queue-limit $n1 $n2 16
set q [[$ns link $n1 $n2] queue]
$q set maxthresh_ 120
foreach link [list [$ns link $n0 $n1] [$ns link $n1 $n2] [$ns link $n2 $n1]] {
    set lq [$link queue]
    puts "thresh_ [$lq set thresh_] maxthresh_ [$lq set maxthresh_]\
        q_weight_ [$lq set q_weight_] limit_ [$lq set limit_] bytes_ [$lq set bytes_]"
}
set tcp [new $tcpclass]
$tcp set packetSize_ 1000
$tcp set window_ 100
$ns attach-agent $n0 $tcp
set sink [new Agent/TCPSink]
$ns attach-agent $n2 $sink
$ns connect $tcp $sink
set ftp [new Application/FTP]
$ftp attach-agent $tcp
$ns at 0.0 "$ftp start"
proc finish {} {
    global ns f tcp
    $ns flush-trace
    close $f
    puts "retransmitted packets: [$tcp set nrexmitpack_], timeouts: [$tcp set nrexmit_]"
    exit 0
}
$ns at 20.0 "finish"
$ns run
