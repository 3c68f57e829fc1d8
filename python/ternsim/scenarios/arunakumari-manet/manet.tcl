# arunakumari-manet in ns-2.35: 50 nodes in 500 m x 500 m, 802.11 (data rate RATE Mb/s, basic
# rate 1 Mb/s), AODV, ns-2.35's radio, queue and MAC defaults (two-ray ground, 250 m / 550 m,
# Queue/DropTail/PriQueue of 50, RTS/CTS), the 8 TCP connections of a cbrgen file with its
# Agent/TCP replaced by the variant. The ns-2 twin of manet.toml beside it.
# usage: ns manet.tcl TCP SINK RATE SEED DURATION
#   TCP: Reno | Sack1 | Vegas (Agent/TCP/...); SINK: TCPSink | TCPSink/Sack1; RATE in Mb/s
# Reads, from the working directory, scen.tcl (a setdest movement file: `ternsim setdest -v 1
# -n 50 -p PAUSE -M SPEED -t 200 -x 500 -y 500 --seed SEED` writes the paths ternsim's run of
# manet.toml with that seed uses) and tcp.tcl (`cbrgen -type tcp -nn 50 -seed 1 -mc 8`, or
# `ternsim cbrgen` with the same arguments: the same file). Writes the wireless trace out.tr
# (agent and routing lines: the paper's metrics are computed from it).
set tcpv [lindex $argv 0]
set sinkv [lindex $argv 1]
set rate [lindex $argv 2]
set seed [lindex $argv 3]
set dur [lindex $argv 4]
set nn 50
ns-random $seed
$defaultRNG seed $seed
Mac/802_11 set dataRate_ ${rate}Mb
Mac/802_11 set basicRate_ 1Mb
set ns_ [new Simulator]
set tracefd [open out.tr w]
$ns_ trace-all $tracefd
set topo [new Topography]
$topo load_flatgrid 500 500
set god_ [create-god $nn]
set chan [new Channel/WirelessChannel]
$ns_ node-config -adhocRouting AODV -llType LL -macType Mac/802_11 \
  -ifqType Queue/DropTail/PriQueue -ifqLen 50 -antType Antenna/OmniAntenna \
  -propType Propagation/TwoRayGround -phyType Phy/WirelessPhy -channel $chan \
  -topoInstance $topo -agentTrace ON -routerTrace ON -macTrace OFF -movementTrace OFF
for {set i 0} {$i < $nn} {incr i} {
  set node_($i) [$ns_ node]
  $node_($i) random-motion 0
}
source scen.tcl
# cbrgen's connections, its Agent/TCP and Agent/TCPSink replaced by the variant's.
set f [open tcp.tcl r]
set conns [read $f]
close $f
eval [string map [list " TCP \$node_" " TCP/$tcpv \$node_" " TCPSink \$node_" " $sinkv \$node_"] $conns]
proc finish {} {
  global ns_ tracefd
  $ns_ flush-trace
  close $tracefd
  puts "done"
  exit 0
}
$ns_ at $dur "finish"
$ns_ run
