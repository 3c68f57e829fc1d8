# One 802.11 hop (nodes 150 m apart, ns-2.35's radio and MAC defaults: RTS/CTS before every
# unicast frame, 1 Mb/s basic and data rate), AODV, a CBR flow of 512-byte packets every
# 50 ms for 5 s. usage: mac_trace.tcl MACTRACE (ON | OFF)
set mactrace [lindex $argv 0]
set ns [new Simulator]
set tf [open out.tr w]
$ns trace-all $tf
set topo [new Topography]
$topo load_flatgrid 400 200
create-god 2
$ns node-config -adhocRouting AODV -llType LL -macType Mac/802_11 \
  -ifqType Queue/DropTail/PriQueue -ifqLen 50 -antType Antenna/OmniAntenna \
  -propType Propagation/TwoRayGround -phyType Phy/WirelessPhy \
  -channelType Channel/WirelessChannel -topoInstance $topo \
  -agentTrace ON -routerTrace ON -macTrace $mactrace -movementTrace OFF
for {set i 0} {$i < 2} {incr i} {
  set n($i) [$ns node]
  $n($i) random-motion 0
  $n($i) set X_ [expr $i * 150.0 + 10]
  $n($i) set Y_ 100.0
  $n($i) set Z_ 0.0
}
set udp [new Agent/UDP]
$ns attach-agent $n(0) $udp
set null [new Agent/Null]
$ns attach-agent $n(1) $null
$ns connect $udp $null
set cbr [new Application/Traffic/CBR]
$cbr set packetSize_ 512
$cbr set interval_ 0.05
$cbr attach-agent $udp
$ns at 0.1 "$cbr start"
proc finish {} {
  global ns tf
  $ns flush-trace
  close $tf
  exit 0
}
$ns at 5.0 "finish"
$ns run
