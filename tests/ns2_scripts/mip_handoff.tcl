# Mobile IP handoff in the pattern of ns-2's wired-cum-wireless tutorial (wireless3.tcl):
# W(0) - W(1) wired, W(1) - HA and W(1) - FA wired, HA and FA base stations with 802.11,
# MH at home in HA's cell, walking into FA's cell. TCP Reno from W(0) to MH.
#
#   ns mip_handoff.tcl [SEED]        ternsim ns2 mip_handoff.tcl [SEED]
set opt(chan)    Channel/WirelessChannel
set opt(prop)    Propagation/TwoRayGround
set opt(netif)   Phy/WirelessPhy
set opt(mac)     Mac/802_11
set opt(ifq)     Queue/DropTail/PriQueue
set opt(ll)      LL
set opt(ant)     Antenna/OmniAntenna
set opt(ifqlen)  50
set opt(rp)      DSDV
set opt(x)       800
set opt(y)       600
set opt(stop)    150.0
set opt(seed)    1
if {$argc > 0} { set opt(seed) [lindex $argv 0] }

set ns [new Simulator]
$defaultRNG seed $opt(seed)
$ns node-config -addressType hierarchical
AddrParams set domain_num_ 3
lappend cluster_num 2 1 1
AddrParams set cluster_num_ $cluster_num
lappend eilastlevel 1 1 2 1
AddrParams set nodes_num_ $eilastlevel

set tracefd [open mip_handoff.tr w]
$ns trace-all $tracefd

set topo [new Topography]
$topo load_flatgrid $opt(x) $opt(y)
create-god 3

set W(0) [$ns node 0.0.0]
set W(1) [$ns node 0.1.0]

$ns node-config -mobileIP ON \
    -adhocRouting $opt(rp) \
    -llType $opt(ll) \
    -macType $opt(mac) \
    -ifqType $opt(ifq) \
    -ifqLen $opt(ifqlen) \
    -antType $opt(ant) \
    -propType $opt(prop) \
    -phyType $opt(netif) \
    -channel [new $opt(chan)] \
    -topoInstance $topo \
    -wiredRouting ON \
    -agentTrace ON \
    -routerTrace OFF \
    -macTrace OFF

set HA [$ns node 1.0.0]
set FA [$ns node 2.0.0]
$HA random-motion 0
$FA random-motion 0
$HA set X_ 100.0
$HA set Y_ 300.0
$HA set Z_ 0.0
$FA set X_ 650.0
$FA set Y_ 300.0
$FA set Z_ 0.0

$ns node-config -wiredRouting OFF
set MH [$ns node 1.0.1]
set HAaddress [AddrParams addr2id [$HA node-addr]]
[$MH set regagent_] set home_agent_ $HAaddress
$MH set X_ 110.0
$MH set Y_ 300.0
$MH set Z_ 0.0
# Out of HA's cell (250 m) at x = 350 (t = 44 s), into FA's at x = 400 (t = 49 s).
$ns at 20.0 "$MH setdest 640.0 300.0 10.0"

$ns duplex-link $W(0) $W(1) 5Mb 2ms DropTail
$ns duplex-link $W(1) $HA 5Mb 2ms DropTail
$ns duplex-link $W(1) $FA 5Mb 2ms DropTail

set tcp [new Agent/TCP/Reno]
$tcp set class_ 2
$tcp set packetSize_ 1000
set sink [new Agent/TCPSink]
$ns attach-agent $W(0) $tcp
$ns attach-agent $MH $sink
$ns connect $tcp $sink
set ftp [new Application/FTP]
$ftp attach-agent $tcp
$ns at 5.0 "$ftp start"

proc finish {} {
    global ns tracefd tcp
    $ns flush-trace
    close $tracefd
    puts "retransmissions [$tcp set nrexmitpack_] timeouts [$tcp set nrexmit_]"
    exit 0
}
$ns at $opt(stop) "finish"
$ns run
