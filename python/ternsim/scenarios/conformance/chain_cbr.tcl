# Conformance case "chain-cbr": a CBR/UDP flow (512-octet packets, RATE b/s) along HOPS
# 802.11 hops (as chain.tcl: nodes 200 m apart, 2 Mb/s, RTS/CTS, two-ray ground, ifq 50)
# from t = 0, received by a LossMonitor; for routing protocols that need time to find or
# spread routes (DSDV). A record proc reads npkts_ every 0.1 s to find when the first
# packet arrives.
# usage: ns chain_cbr.tcl ROUTING SEED HOPS DURATION RATE
#   ROUTING: DSR | AODV | DSDV
# Prints "first F npkts N nlost L": the first arrival (s, to 0.1 s; -1 if none) and the
# LossMonitor's packets received and lost (sequence gaps, losses before the first arrival
# included) at the end.
set rp [lindex $argv 0]
set seed [lindex $argv 1]
set hops [lindex $argv 2]
set dur [lindex $argv 3]
set rate [lindex $argv 4]
set nn [expr $hops + 1]
ns-random $seed
$defaultRNG seed $seed
Mac/802_11 set dataRate_ 2Mb
Mac/802_11 set basicRate_ 2Mb
set ns [new Simulator]
set tf [open /dev/null w]
$ns trace-all $tf
set topo [new Topography]
$topo load_flatgrid [expr $hops * 200 + 200] 200
create-god $nn
if {$rp == "DSR"} { set ifq CMUPriQueue } else { set ifq Queue/DropTail/PriQueue }
$ns node-config -adhocRouting $rp -llType LL -macType Mac/802_11 -ifqType $ifq -ifqLen 50 \
  -antType Antenna/OmniAntenna -propType Propagation/TwoRayGround -phyType Phy/WirelessPhy \
  -channelType Channel/WirelessChannel -topoInstance $topo -agentTrace OFF -routerTrace OFF \
  -macTrace OFF -movementTrace OFF
# lossy_chain_cbr.tcl defines an error model for every node's PHY-MAC boundary before
# sourcing this.
if {[info procs incoming_error] != ""} { $ns node-config -IncomingErrProc incoming_error }
for {set i 0} {$i < $nn} {incr i} {
  set n($i) [$ns node]
  $n($i) random-motion 0
  $n($i) set X_ [expr $i * 200.0 + 10]
  $n($i) set Y_ 100.0
  $n($i) set Z_ 0.0
}
set udp [new Agent/UDP]
$ns attach-agent $n(0) $udp
set lm [new Agent/LossMonitor]
$ns attach-agent $n($hops) $lm
$ns connect $udp $lm
set cbr [new Application/Traffic/CBR]
$cbr set packetSize_ 512
$cbr set rate_ $rate
$cbr attach-agent $udp
$ns at 0.0 "$cbr start"
set first -1
proc record {} {
  global ns lm first
  set now [$ns now]
  if {$first < 0 && [$lm set npkts_] > 0} { set first $now }
  $ns at [expr $now + 0.1] "record"
}
$ns at 0.1 "record"
proc finish {} {
  global ns lm tf first
  $ns flush-trace
  close $tf
  puts "first $first npkts [$lm set npkts_] nlost [$lm set nlost_]"
  exit 0
}
$ns at $dur "finish"
$ns run
