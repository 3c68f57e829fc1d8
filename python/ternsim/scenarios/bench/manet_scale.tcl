# Benchmark "manet_scale": NODES mobile 802.11 nodes at ns-2's usual density, 50 nodes per
# 500 m x 500 m (a square of side ceil(500 * sqrt(NODES / 50)) m), AODV, ns-2.35's radio and
# MAC defaults (1 Mb/s, RTS/CTS, two-ray ground, 250 m range, PriQueue of 50), no tracing.
# Movement and connections come from files the way CMU scripts take them:
#   SCEN: setdest -v 1 -n NODES -p 0 -M 10 -t DURATION -x SIDE -y SIDE (random waypoint)
#   CONN: cbrgen -type cbr -nn NODES -seed SEED -mc NODES/5 -rate 4 (512-byte CBR/UDP)
# usage: ns manet_scale.tcl NODES DURATION SEED SCEN CONN
# Runs unchanged under `ternsim ns2`; `ternsim bench --scaling` writes the two files and times
# both simulators on it. Prints one line: "nodes N side S duration D".
set nn [lindex $argv 0]
set dur [lindex $argv 1]
set seed [lindex $argv 2]
set scen [lindex $argv 3]
set conn [lindex $argv 4]
set side [expr int(ceil(500.0 * sqrt($nn / 50.0)))]
ns-random $seed
$defaultRNG seed $seed
set ns_ [new Simulator]
# Wireless nodes need a trace channel; /dev/null with every trace OFF writes nothing.
set tf [open /dev/null w]
$ns_ trace-all $tf
set topo [new Topography]
$topo load_flatgrid $side $side
set god_ [create-god $nn]
$ns_ node-config -adhocRouting AODV -llType LL -macType Mac/802_11 \
  -ifqType Queue/DropTail/PriQueue -ifqLen 50 -antType Antenna/OmniAntenna \
  -propType Propagation/TwoRayGround -phyType Phy/WirelessPhy \
  -channel [new Channel/WirelessChannel] -topoInstance $topo \
  -agentTrace OFF -routerTrace OFF -macTrace OFF -movementTrace OFF
for {set i 0} {$i < $nn} {incr i} {
  set node_($i) [$ns_ node]
  $node_($i) random-motion 0
}
source $scen
source $conn
proc finish {} {
  global ns_ tf nn side dur
  $ns_ flush-trace
  close $tf
  puts "nodes $nn side $side duration $dur"
  exit 0
}
$ns_ at $dur "finish"
$ns_ run
