# Conformance case "basestation": a wired-cum-wireless network without Mobile IP, the
# pattern of ns-2's tutorial wireless2.tcl. Wired W(0) 0.0.0 - W(1) 0.1.0 - base station
# 1.0.0 (5 Mb/s, 2 ms); mobile nodes 1.0.1 ... 1.0.HOPS on a line 200 m apart from the base
# station, each naming it with `base-station`; DSDV; one FTP/TCP flow from W(0) to the last
# mobile node, HOPS radio hops away, from START (after DSDV has spread its routes).
# usage: ns basestation.tcl TCP SEED HOPS DURATION START
#   TCP: Reno | Newreno | Vegas | Sack1 (Agent/TCP/...)
set tcpv [lindex $argv 0]
set seed [lindex $argv 1]
set hops [lindex $argv 2]
set dur [lindex $argv 3]
set start [lindex $argv 4]
ns-random $seed
$defaultRNG seed $seed
Mac/802_11 set dataRate_ 2Mb
Mac/802_11 set basicRate_ 2Mb
set ns [new Simulator]
$ns node-config -addressType hierarchical
AddrParams set domain_num_ 2
AddrParams set cluster_num_ {2 1}
AddrParams set nodes_num_ [list 1 1 [expr $hops + 1]]
set tf [open /dev/null w]
$ns trace-all $tf
set topo [new Topography]
$topo load_flatgrid [expr $hops * 200 + 200] 200
create-god [expr $hops + 1]
set W(0) [$ns node 0.0.0]
set W(1) [$ns node 0.1.0]
$ns node-config -adhocRouting DSDV -llType LL -macType Mac/802_11 \
  -ifqType Queue/DropTail/PriQueue -ifqLen 50 -antType Antenna/OmniAntenna \
  -propType Propagation/TwoRayGround -phyType Phy/WirelessPhy \
  -channelType Channel/WirelessChannel -topoInstance $topo -wiredRouting ON \
  -agentTrace OFF -routerTrace OFF -macTrace OFF -movementTrace OFF
set BS [$ns node 1.0.0]
$BS random-motion 0
$BS set X_ 10.0
$BS set Y_ 100.0
$BS set Z_ 0.0
$ns node-config -wiredRouting OFF
for {set i 1} {$i <= $hops} {incr i} {
  set m($i) [$ns node 1.0.$i]
  $m($i) random-motion 0
  $m($i) set X_ [expr $i * 200.0 + 10]
  $m($i) set Y_ 100.0
  $m($i) set Z_ 0.0
  $m($i) base-station [AddrParams addr2id [$BS node-addr]]
}
$ns duplex-link $W(0) $W(1) 5Mb 2ms DropTail
$ns duplex-link $W(1) $BS 5Mb 2ms DropTail
set tcp [new Agent/TCP/$tcpv]
$tcp set packetSize_ 1024
$tcp set window_ 20
$ns attach-agent $W(0) $tcp
if {$tcpv == "Sack1"} { set sink [new Agent/TCPSink/Sack1] } else { set sink [new Agent/TCPSink] }
$ns attach-agent $m($hops) $sink
$ns connect $tcp $sink
set ftp [new Application/FTP]
$ftp attach-agent $tcp
$ns at $start "$ftp start"
proc finish {} {
  global ns tcp tf dur start
  $ns flush-trace
  close $tf
  set acked [$tcp set ack_]
  puts "acked $acked rexmit [$tcp set nrexmitpack_] timeouts [$tcp set nrexmit_] kbps [expr ($acked+1)*1024*8/($dur-$start)/1000.0]"
  exit 0
}
$ns at $dur "finish"
$ns run
