# Conformance case "manet": 50 mobile nodes in 500 m x 500 m, 802.11 (ns-2.35's defaults:
# 2 Mb/s data, 1 Mb/s basic rate, RTS/CTS, two-ray ground, 250 m / 550 m), AODV, DSR or DSDV,
# the connections of a cbrgen file: TCP Reno (FTP) or CBR over UDP.
# usage: ns manet.tcl ROUTING TRAFFIC SEED DURATION [MACTRACE]
#   ROUTING: AODV | DSR | DSDV; TRAFFIC: tcp | cbr; MACTRACE: 1 traces the MAC too (default 0).
# Reads, from the working directory, scen.tcl (a setdest movement file) and conn.tcl (a cbrgen
# connection file; its Agent/TCP becomes Agent/TCP/Reno), the same files for both simulators.
# SEED seeds the simulator's own random numbers (MAC backoff, jitter, CBR's random_ times).
# Writes the wireless trace out.tr (agent and routing lines, MAC lines with MACTRACE), from
# which the CBR and routing metrics are counted, and prints for every TCP connection i that
# exists "flow i acked A rexmit R timeouts T kbps K" (A = the sender's ack_, K its goodput).
set rp [lindex $argv 0]
set traffic [lindex $argv 1]
set seed [lindex $argv 2]
set dur [lindex $argv 3]
set mactr OFF
if {[llength $argv] > 4 && [lindex $argv 4]} { set mactr ON }
set nn 50
ns-random $seed
$defaultRNG seed $seed
set ns_ [new Simulator]
set tracefd [open out.tr w]
$ns_ trace-all $tracefd
set topo [new Topography]
$topo load_flatgrid 500 500
set god_ [create-god $nn]
if {$rp == "DSR"} { set ifq CMUPriQueue } else { set ifq Queue/DropTail/PriQueue }
$ns_ node-config -adhocRouting $rp -llType LL -macType Mac/802_11 -ifqType $ifq -ifqLen 50 \
  -antType Antenna/OmniAntenna -propType Propagation/TwoRayGround -phyType Phy/WirelessPhy \
  -channelType Channel/WirelessChannel -topoInstance $topo -agentTrace ON -routerTrace ON \
  -macTrace $mactr -movementTrace OFF
for {set i 0} {$i < $nn} {incr i} {
  set node_($i) [$ns_ node]
  $node_($i) random-motion 0
}
source scen.tcl
set f [open conn.tcl r]
set conns [read $f]
close $f
eval [string map [list " TCP \$node_" " TCP/Reno \$node_"] $conns]
proc finish {} {
  global ns_ tracefd tcp_ traffic dur
  $ns_ flush-trace
  close $tracefd
  if {$traffic == "tcp"} {
    for {set i 0} {$i < 100} {incr i} {
      if {![info exists tcp_($i)]} { continue }
      set acked [$tcp_($i) set ack_]
      set size [$tcp_($i) set packetSize_]
      puts "flow $i acked $acked rexmit [$tcp_($i) set nrexmitpack_]\
 timeouts [$tcp_($i) set nrexmit_] kbps [expr ($acked + 1) * $size * 8.0 / $dur / 1000.0]"
    }
  }
  puts "done"
  exit 0
}
$ns_ at $dur "finish"
$ns_ run
