set ns [new Simulator]
set tf [open qt.tr w]
$ns trace-all $tf
set n0 [$ns node]
set n1 [$ns node]
set n2 [$ns node]
$ns duplex-link $n0 $n1 10Mb 2ms DropTail
$ns duplex-link $n1 $n2 1Mb 20ms DropTail
$ns queue-limit $n1 $n2 10
set em [new ErrorModel/List]
$em droplist {3 7 40}
$ns lossmodel $em $n1 $n2
set qf [open qm.out w]
set qm [$ns monitor-queue $n1 $n2 $qf 0.1]
set tcp [new Agent/TCP/Reno]
set sink [new Agent/TCPSink]
$ns attach-agent $n0 $tcp
$ns attach-agent $n2 $sink
$ns connect $tcp $sink
set ftp [new Application/FTP]
$ftp attach-agent $tcp
$ns at 0.1 "$ftp start"
proc rec {} { global ns qm; puts "[$ns now] [$qm set size_] [$qm set pkts_] [$qm set parrivals_] [$qm set barrivals_] [$qm set pdepartures_] [$qm set bdepartures_] [$qm set pdrops_] [$qm set bdrops_]"; foreach i [list [$qm get-bytes-integrator] [$qm get-pkts-integrator]] { puts "  [$i set sum_] [$i set lastx_] [$i set lasty_]" }; $ns at [expr [$ns now]+0.25] rec }
$ns at 0.0 rec
$ns rtmodel-at 1.1 down $n1 $n2
$ns rtmodel-at 1.3 up $n1 $n2
$ns at 2.0 "finish"
proc finish {} { exit 0 }
$ns run
