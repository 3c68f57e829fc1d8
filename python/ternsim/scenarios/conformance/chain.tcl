# Conformance case "chain": one FTP/TCP flow along HOPS 802.11 hops (nodes 200 m apart,
# 2 Mb/s data and basic rate, RTS/CTS, two-ray ground, ifq 50), DSR, AODV or DSDV.
# usage: ns chain.tcl TCP ROUTING SEED HOPS DURATION TRACE(0/1) [START [RTS]]
#   TCP: Reno | Newreno | Vegas | Sack1 (Agent/TCP/...); ROUTING: DSR | AODV | DSDV;
#   START: when FTP starts (default 0 s; DSDV needs tens of seconds to spread its routes);
#   RTS: Mac/802_11 RTSThreshold_ in bytes (default 0: RTS/CTS before every unicast frame;
#   3000: never).
# Twin: chain.toml (ternsim).
set tcpv [lindex $argv 0]
set rp [lindex $argv 1]
set seed [lindex $argv 2]
set hops [lindex $argv 3]
set dur [lindex $argv 4]
set dotrace [lindex $argv 5]
set start 0.0
if {[llength $argv] > 6} { set start [lindex $argv 6] }
if {[llength $argv] > 7} { Mac/802_11 set RTSThreshold_ [lindex $argv 7] }
set nn [expr $hops + 1]
ns-random $seed
$defaultRNG seed $seed
Mac/802_11 set dataRate_ 2Mb
Mac/802_11 set basicRate_ 2Mb
set ns [new Simulator]
# Wireless nodes need a trace channel; without TRACE it is /dev/null and nothing is traced.
if {$dotrace} { set tf [open out.tr w]; set tr ON } else { set tf [open /dev/null w]; set tr OFF }
$ns trace-all $tf
set topo [new Topography]
$topo load_flatgrid [expr $hops * 200 + 200] 200
create-god $nn
if {$rp == "DSR"} { set ifq CMUPriQueue } else { set ifq Queue/DropTail/PriQueue }
$ns node-config -adhocRouting $rp -llType LL -macType Mac/802_11 -ifqType $ifq -ifqLen 50 \
  -antType Antenna/OmniAntenna -propType Propagation/TwoRayGround -phyType Phy/WirelessPhy \
  -channelType Channel/WirelessChannel -topoInstance $topo -agentTrace $tr -routerTrace $tr -macTrace $tr -movementTrace OFF
# lossy_chain.tcl defines an error model for every node's PHY-MAC boundary before sourcing this.
if {[info procs incoming_error] != ""} { $ns node-config -IncomingErrProc incoming_error }
for {set i 0} {$i < $nn} {incr i} {
  set n($i) [$ns node]
  $n($i) random-motion 0
  $n($i) set X_ [expr $i * 200.0 + 10]
  $n($i) set Y_ 100.0
  $n($i) set Z_ 0.0
}
set tcp [new Agent/TCP/$tcpv]
$tcp set packetSize_ 1024
$tcp set window_ 20
$ns attach-agent $n(0) $tcp
if {$tcpv == "Sack1"} { set sink [new Agent/TCPSink/Sack1] } else { set sink [new Agent/TCPSink] }
$ns attach-agent $n($hops) $sink
$ns connect $tcp $sink
set ftp [new Application/FTP]
$ftp attach-agent $tcp
$ns at $start "$ftp start"
proc finish {} {
  global ns tcp sink tf dur
  $ns flush-trace
  close $tf
  set acked [$tcp set ack_]
  puts "acked $acked rexmit [$tcp set nrexmitpack_] timeouts [$tcp set nrexmit_] kbps [expr ($acked+1)*1024*8/$dur/1000.0]"
  exit 0
}
$ns at $dur "finish"
$ns run
