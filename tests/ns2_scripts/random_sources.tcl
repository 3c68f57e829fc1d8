# Random traffic sources drawing from ns-2's default RNG during the run: an Exponential and
# a Pareto on/off source and a CBR source with random_ jitter share a bottleneck (drop-tail,
# or RED with `red` as the first argument, whose early tests draw from the same generator)
# with a TCP flow. A LossMonitor per source is sampled every 0.5 s. The variables the common
# tutorials set, which ns-2 keeps as plain instance variables (type_ on the applications,
# maxpkts_ on the FTP), and the old name packet_size_ are set too. The seed is the second
# argument (default 1).
set ns [new Simulator]
set queue DropTail
if {$argc > 0 && [lindex $argv 0] == "red"} { set queue RED }
set seed 1
if {$argc > 1} { set seed [lindex $argv 1] }
$defaultRNG seed $seed
set f [open out.tr w]
$ns trace-all $f
set rate [open rate.txt w]
set s [$ns node]
set r [$ns node]
set d [$ns node]
$ns duplex-link $s $r 10Mb 2ms DropTail
$ns duplex-link $r $d 1Mb 15ms $queue
$ns queue-limit $r $d 25

proc source {kind fid size} {
    global ns s d
    set udp [new Agent/UDP]
    $udp set fid_ $fid
    $ns attach-agent $s $udp
    set mon [new Agent/LossMonitor]
    $ns attach-agent $d $mon
    $ns connect $udp $mon
    set app [new Application/Traffic/$kind]
    $app set packet_size_ $size
    $app set type_ $kind
    $app attach-agent $udp
    return [list $app $mon]
}
lassign [source Exponential 1 300] expoo mon1
$expoo set burst_time_ 300ms
$expoo set idle_time_ 200ms
$expoo set rate_ 400k
lassign [source Pareto 2 500] pareto mon2
$pareto set burst_time_ 250ms
$pareto set idle_time_ 250ms
$pareto set rate_ 500k
$pareto set shape_ 1.4
lassign [source CBR 3 200] cbr mon3
$cbr set rate_ 150k
$cbr set random_ 1

set tcp [new Agent/TCP/Reno]
$tcp set fid_ 4
$ns attach-agent $s $tcp
set sink [new Agent/TCPSink]
$ns attach-agent $d $sink
$ns connect $tcp $sink
set ftp [new Application/FTP]
$ftp attach-agent $tcp
$ftp set type_ FTP
$ftp set maxpkts_ 0

proc sample {} {
    global ns rate mon1 mon2 mon3
    set now [$ns now]
    set line $now
    foreach m [list $mon1 $mon2 $mon3] {
        append line " [$m set bytes_] [$m set npkts_] [$m set nlost_]"
        $m set bytes_ 0
    }
    puts $rate $line
    $ns at [expr $now + 0.5] "sample"
}
$ns at 0.0 "sample"
$ns at 0.1 "$expoo start"
$ns at 0.3 "$pareto start"
$ns at 0.2 "$cbr start"
$ns at 1.0 "$ftp start"
$ns at 6.0 "$pareto stop"
$ns at 7.5 "$pareto start"
proc finish {} {
    global ns f rate tcp cbr ftp
    $ns flush-trace
    close $f
    close $rate
    puts "[$cbr set type_] [$cbr set packet_size_] [$ftp set type_]"
    puts "tcp acked [$tcp set ack_] rexmits [$tcp set nrexmitpack_]"
    exit 0
}
$ns at 12.0 "finish"
$ns run
