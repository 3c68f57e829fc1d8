# FullTcp's handshake and first window in both trace-all and the nam trace (the header fields
# go to trace-all only).
set ns [new Simulator]
Trace set show_tcphdr_ 1
set tf [open out.tr w]
$ns trace-all $tf
set nf [open out.nam w]
$ns namtrace-all $nf
set n0 [$ns node]
set n1 [$ns node]
$ns duplex-link $n0 $n1 1Mb 10ms DropTail
set tcp [new Agent/TCP/FullTcp]
set sink [new Agent/TCP/FullTcp]
$ns attach-agent $n0 $tcp
$ns attach-agent $n1 $sink
$ns connect $tcp $sink
$sink listen
set ftp [$tcp attach-app FTP]
$ns at 0.1 "$ftp start"
proc finish {} { global ns tf; $ns flush-trace; close $tf; exit 0 }
$ns at 0.5 "finish"
$ns run
