# Conformance case "flood": the 802.11 broadcast storm of AODV route discovery, alone.
# 50 static nodes spread over 500 m x 500 m (an R2 low-discrepancy sequence: fixed, well
# spread) and a 51st 2 km away that nobody reaches; five CBR sources (nodes 0-4) send to it
# from 1.0, 4.7, 8.4, 12.1 and 15.8 s, so every route discovery floods the whole network
# (TTL 30, AODV's retries and back-offs) and no reply ever comes. Every node hears many
# copies of each request from neighbours that re-broadcast it U(0, 10 ms) after they heard
# it, so same-slot starts, capture and collisions decide who hears what.
# usage: ns flood.tcl SEED DURATION
# Prints one line: "rreq sent S received R collisions C" (the MAC trace's RREQ frames sent,
# received and dropped in collisions), counted from the trace it writes (out.tr).
set seed [lindex $argv 0]
set dur [lindex $argv 1]
set nn 51
ns-random $seed
$defaultRNG seed $seed
Mac/802_11 set dataRate_ 1Mb
Mac/802_11 set basicRate_ 1Mb
set ns_ [new Simulator]
set tracefd [open out.tr w]
$ns_ trace-all $tracefd
set topo [new Topography]
$topo load_flatgrid 2500 2500
create-god $nn
set chan [new Channel/WirelessChannel]
$ns_ node-config -adhocRouting AODV -llType LL -macType Mac/802_11 \
  -ifqType Queue/DropTail/PriQueue -ifqLen 50 -antType Antenna/OmniAntenna \
  -propType Propagation/TwoRayGround -phyType Phy/WirelessPhy -channel $chan \
  -topoInstance $topo -agentTrace OFF -routerTrace ON -macTrace ON -movementTrace OFF
for {set i 0} {$i < $nn} {incr i} {
  set node_($i) [$ns_ node]
  $node_($i) random-motion 0
  if {$i < 50} {
    # R2 sequence (plastic number): x_i = frac(0.5 + i / 1.3247), y_i = frac(0.5 + i / 1.7549)
    set fx [expr {0.5 + $i * 0.7548776662466927}]
    set fy [expr {0.5 + $i * 0.5698402909980532}]
    $node_($i) set X_ [expr {5.0 + 490.0 * ($fx - floor($fx))}]
    $node_($i) set Y_ [expr {5.0 + 490.0 * ($fy - floor($fy))}]
  } else {
    $node_($i) set X_ 2400.0
    $node_($i) set Y_ 2400.0
  }
  $node_($i) set Z_ 0.0
}
for {set i 0} {$i < 5} {incr i} {
  set udp($i) [new Agent/UDP]
  $ns_ attach-agent $node_($i) $udp($i)
  set null($i) [new Agent/Null]
  $ns_ attach-agent $node_(50) $null($i)
  $ns_ connect $udp($i) $null($i)
  set cbr($i) [new Application/Traffic/CBR]
  $cbr($i) set packetSize_ 512
  $cbr($i) set interval_ 0.25
  $cbr($i) attach-agent $udp($i)
  $ns_ at [expr {1.0 + 3.7 * $i}] "$cbr($i) start"
}
proc finish {} {
  global ns_ tracefd
  $ns_ flush-trace
  close $tracefd
  set sent 0
  set received 0
  set collisions 0
  set f [open out.tr r]
  while {[gets $f line] >= 0} {
    if {[string first "(REQUEST)" $line] < 0 || [lindex $line 3] ne "MAC"} {
      continue
    }
    switch -- [lindex $line 0] {
      s { incr sent }
      r { incr received }
      D { if {[lindex $line 4] eq "COL"} { incr collisions } }
    }
  }
  close $f
  puts "rreq sent $sent received $received collisions $collisions"
  exit 0
}
$ns_ at $dur "finish"
$ns_ run
