# show_tcphdr_ trace fields, TCP variables of ns-2's validation suites, and trace-queue
# into a second file of a direction trace-all traces.
Trace set show_tcphdr_ 1
Agent/TCP set bugFix_ false
Agent/TCP set rfc2988_ false
Agent/TCP set syn_ false
Agent/TCP set delay_growth_ false
Agent/TCP set useHeaders_ false
Agent/TCP set windowInit_ 1
Agent/TCP/Newreno set partial_window_deflation_ 0
Agent/TCP/Newreno set newreno_changes1_ 0
set ns [new Simulator]
set f [open all.tr w]
$ns trace-all $f
set s [$ns node]
set r [$ns node]
set k [$ns node]
$ns duplex-link $s $r 7Mb 3ms DropTail
$ns duplex-link $r $k 900Kb 50ms DropTail
$ns queue-limit $r $k 6
set q [open queue.tr w]
foreach nbr [$r neighbors] { $ns trace-queue $r $nbr $q }
set tcp [$ns create-connection TCP/[lindex $argv 0] $s TCPSink $k 1]
$tcp set window_ 30
set ftp [$tcp attach-app FTP]
$ns at 0.1 "$ftp start"
proc finish {} {
    global ns f q
    $ns flush-trace
    close $f
    close $q
    exit 0
}
$ns at 4.0 "finish"
$ns run
