# Two mobile nodes over 802.11 with AODV (ns-2's simple-wireless.tcl, shortened), traced
# into a wireless trace and a nam trace: TCP from node 0 to node 1 while node 1 comes
# closer, then moves away.
set val(chan)   Channel/WirelessChannel
set val(prop)   Propagation/TwoRayGround
set val(netif)  Phy/WirelessPhy
set val(mac)    Mac/802_11
set val(ifq)    Queue/DropTail/PriQueue
set val(ll)     LL
set val(ant)    Antenna/OmniAntenna
set val(ifqlen) 50
set val(nn)     2
set val(rp)     AODV

set ns_ [new Simulator]
set tracefd [open nam_wireless.tr w]
$ns_ trace-all $tracefd
set namfd [open nam_wireless.nam w]
$ns_ namtrace-all-wireless $namfd 500 500
set topo [new Topography]
$topo load_flatgrid 500 500
create-god $val(nn)
$ns_ node-config -adhocRouting $val(rp) -llType $val(ll) -macType $val(mac) \
    -ifqType $val(ifq) -ifqLen $val(ifqlen) -antType $val(ant) -propType $val(prop) \
    -phyType $val(netif) -channelType $val(chan) -topoInstance $topo \
    -agentTrace ON -routerTrace ON -macTrace OFF -movementTrace OFF
for {set i 0} {$i < $val(nn)} {incr i} {
    set node_($i) [$ns_ node]
    $node_($i) random-motion 0
}
$node_(0) set X_ 5.0
$node_(0) set Y_ 2.0
$node_(0) set Z_ 0.0
$node_(1) set X_ 390.0
$node_(1) set Y_ 385.0
$node_(1) set Z_ 0.0
$ns_ at 5.0 "$node_(1) setdest 25.0 20.0 15.0"
$ns_ at 2.0 "$node_(0) setdest 20.0 18.0 1.0"
$ns_ at 45.0 "$node_(1) setdest 490.0 480.0 15.0"

set tcp [new Agent/TCP]
$tcp set class_ 2
set sink [new Agent/TCPSink]
$ns_ attach-agent $node_(0) $tcp
$ns_ attach-agent $node_(1) $sink
$ns_ connect $tcp $sink
set ftp [new Application/FTP]
$ftp attach-agent $tcp
$ns_ at 3.0 "$ftp start"
for {set i 0} {$i < $val(nn)} {incr i} {
    $ns_ initial_node_pos $node_($i) 30
}

proc stop {} {
    global ns_ tracefd namfd
    $ns_ flush-trace
    close $tracefd
    $ns_ nam-end-wireless 80
    close $namfd
    exit 0
}
$ns_ at 80.0 "stop"
$ns_ run
