# Conformance cases "hidden" and "cross": two FTP/TCP flows that contend for one 802.11
# neighbourhood (2 Mb/s data and basic rate, two-ray ground, ifq 50, packetSize_ 1024,
# window_ 20).
# usage: ns pairs.tcl LAYOUT TCP ROUTING SEED DURATION [RTS]
#   LAYOUT hidden: n0 (0 m) -> n1 (200 m) <- n2 (400 m), both flows to n1. The carrier-sense
#     threshold is raised to the reception threshold (CSThresh_ = RXThresh_, 250 m), so n0 and
#     n2, 400 m apart, cannot hear each other: a hidden-terminal pair (with ns-2's default
#     550 m carrier-sense range two senders that both reach one receiver always hear each
#     other).
#   LAYOUT cross: n0 in the middle, n1/n2 200 m north/south of it, n3/n4 200 m west/east;
#     flows n1 -> n2 and n3 -> n4, two hops each through n0 (default ranges).
#   TCP: Reno | Newreno | Vegas | Sack1; ROUTING: DSR | AODV | DSDV (DSDV: flows start at
#   60 s); RTS: Mac/802_11 RTSThreshold_ (default 0, RTS/CTS; 3000: basic access).
# Prints one line per flow: "acked A rexmit R timeouts T kbps K".
set layout [lindex $argv 0]
set tcpv [lindex $argv 1]
set rp [lindex $argv 2]
set seed [lindex $argv 3]
set dur [lindex $argv 4]
if {[llength $argv] > 5} { Mac/802_11 set RTSThreshold_ [lindex $argv 5] }
ns-random $seed
$defaultRNG seed $seed
Mac/802_11 set dataRate_ 2Mb
Mac/802_11 set basicRate_ 2Mb
if {$layout == "hidden"} {
  Phy/WirelessPhy set CSThresh_ [Phy/WirelessPhy set RXThresh_]
  set nn 3
  set pos {{10 100} {210 100} {410 100}}
  set flows {{0 1} {2 1}}
} else {
  set nn 5
  set pos {{210 210} {210 410} {210 10} {10 210} {410 210}}
  set flows {{1 2} {3 4}}
}
set ns [new Simulator]
set tf [open /dev/null w]
$ns trace-all $tf
set topo [new Topography]
$topo load_flatgrid 500 500
create-god $nn
if {$rp == "DSR"} { set ifq CMUPriQueue } else { set ifq Queue/DropTail/PriQueue }
$ns node-config -adhocRouting $rp -llType LL -macType Mac/802_11 -ifqType $ifq -ifqLen 50 \
  -antType Antenna/OmniAntenna -propType Propagation/TwoRayGround -phyType Phy/WirelessPhy \
  -channelType Channel/WirelessChannel -topoInstance $topo -agentTrace OFF -routerTrace OFF \
  -macTrace OFF -movementTrace OFF
for {set i 0} {$i < $nn} {incr i} {
  set n($i) [$ns node]
  $n($i) random-motion 0
  $n($i) set X_ [lindex [lindex $pos $i] 0].0
  $n($i) set Y_ [lindex [lindex $pos $i] 1].0
  $n($i) set Z_ 0.0
}
if {$rp == "DSDV"} { set start 60.0 } else { set start 0.0 }
set k 0
foreach f $flows {
  set tcp($k) [new Agent/TCP/$tcpv]
  $tcp($k) set packetSize_ 1024
  $tcp($k) set window_ 20
  $ns attach-agent $n([lindex $f 0]) $tcp($k)
  if {$tcpv == "Sack1"} { set sink [new Agent/TCPSink/Sack1] } else { set sink [new Agent/TCPSink] }
  $ns attach-agent $n([lindex $f 1]) $sink
  $ns connect $tcp($k) $sink
  set ftp($k) [new Application/FTP]
  $ftp($k) attach-agent $tcp($k)
  $ns at [expr $start + 0.5 * $k] "$ftp($k) start"
  incr k
}
proc finish {} {
  global ns tcp tf dur start k
  $ns flush-trace
  close $tf
  for {set i 0} {$i < $k} {incr i} {
    set acked [$tcp($i) set ack_]
    set secs [expr $dur - $start]
    puts "acked $acked rexmit [$tcp($i) set nrexmitpack_] timeouts [$tcp($i) set nrexmit_] kbps [expr ($acked+1)*1024*8/$secs/1000.0]"
  }
  exit 0
}
$ns at $dur "finish"
$ns run
