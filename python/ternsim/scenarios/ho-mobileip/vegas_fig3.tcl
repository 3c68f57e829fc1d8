# Ho, Chan, Chen, "An Efficient Mechanism of TCP-Vegas on Mobile IP Networks" (seed
# `ho-mobileip`): Fig. 2's topology and Fig. 3's walk, TCP Vegas from CN to MN, with the
# agent-to-MN last hop over 802.11: the ns-2 twin of mobileip_wifi.toml beside this file,
# written in the wired-cum-wireless Mobile IP pattern of ns-2's tutorial (wireless3.tcl).
#
#   ns vegas_fig3.tcl [SEED [X Y Z [STOP]]]      ternsim ns2 vegas_fig3.tcl [SEED [X Y Z [STOP]]]
#
# X, Y, Z: the router-HA, router-FA1 and router-FA2 delays in ms (Fig. 3: 3 3 1); STOP: the
# run's end in s (120: the walk ends there). Writes the wired packet trace vegas_fig3.tr (the
# RTT samples and the cumulative ACK are read from CN's lines: node 0) and prints the
# sender's counters at the end.
#
# CN(0.0.0) -5 ms- R(0.0.1) -X- HA(1.0.0), -Y- FA1(2.0.0), -Z- FA2(3.0.0), 5 Mb/s, 50-packet
# drop-tail; HA (200, 300), FA1 (350, 300), FA2 (500, 300) are base stations (home and
# foreign agents) with 802.11 at 1 Mb/s and a 75 m reception range; MN (1.0.1) walks from
# (150, 275). Differences from mobileip_wifi.toml that ns-2 imposes: README.md, "The ns-2
# script of Fig. 3".
set opt(chan)    Channel/WirelessChannel
set opt(prop)    Propagation/TwoRayGround
set opt(netif)   Phy/WirelessPhy
set opt(mac)     Mac/802_11
set opt(ifq)     Queue/DropTail/PriQueue
set opt(ll)      LL
set opt(ant)     Antenna/OmniAntenna
set opt(ifqlen)  50
set opt(rp)      DSDV
set opt(x)       700
set opt(y)       600
set opt(seed)    1
set opt(X)       3
set opt(Y)       3
set opt(Z)       1
set opt(stop)    120.0
if {$argc > 0} { set opt(seed) [lindex $argv 0] }
if {$argc > 3} {
    set opt(X) [lindex $argv 1]
    set opt(Y) [lindex $argv 2]
    set opt(Z) [lindex $argv 3]
}
if {$argc > 4} { set opt(stop) [lindex $argv 4] }

# The paper's last hop: 1 Mb/s (data and basic rate, ns-2.35's defaults), coverage 75 m.
# Two-ray ground is Friis below its 86 m crossover, so the 75 m threshold is
# Pt λ² / (4π · 75 m)² with ns-2's Pt_ 0.28183815 W and 914 MHz. No RTS/CTS (one sender per
# direction, nobody hidden), as mobileip_wifi.toml's rts_threshold.
Phy/WirelessPhy set RXThresh_ 3.41828e-08
Mac/802_11 set RTSThreshold_ 3000
Mac/802_11 set dataRate_ 1Mb
Mac/802_11 set basicRate_ 1Mb

set ns [new Simulator]
$defaultRNG seed $opt(seed)
$ns node-config -addressType hierarchical
AddrParams set domain_num_ 4
lappend cluster_num 1 1 1 1
AddrParams set cluster_num_ $cluster_num
lappend eilastlevel 2 2 1 1
AddrParams set nodes_num_ $eilastlevel

set tracefd [open vegas_fig3.tr w]
$ns trace-all $tracefd

set topo [new Topography]
$topo load_flatgrid $opt(x) $opt(y)
create-god 4

set CN [$ns node 0.0.0]
set R  [$ns node 0.0.1]

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
    -agentTrace OFF \
    -routerTrace OFF \
    -macTrace OFF

set HA  [$ns node 1.0.0]
set FA1 [$ns node 2.0.0]
set FA2 [$ns node 3.0.0]
foreach {agent x} [list $HA 200.0 $FA1 350.0 $FA2 500.0] {
    $agent random-motion 0
    $agent set X_ $x
    $agent set Y_ 300.0
    $agent set Z_ 0.0
}

$ns node-config -wiredRouting OFF
set MN [$ns node 1.0.1]
[$MN set regagent_] set home_agent_ [AddrParams addr2id [$HA node-addr]]
$MN set X_ 150.0
$MN set Y_ 275.0
$MN set Z_ 0.0
# V-B 1): at 10 m/s to (350, 275) at 10 s, to (550, 275) at 40 s, back to (350, 275) at 70 s
# and to (150, 275) at 100 s.
$ns at 10.0  "$MN setdest 350.0 275.0 10.0"
$ns at 40.0  "$MN setdest 550.0 275.0 10.0"
$ns at 70.0  "$MN setdest 350.0 275.0 10.0"
$ns at 100.0 "$MN setdest 150.0 275.0 10.0"

$ns duplex-link $CN $R  5Mb 5ms DropTail
$ns duplex-link $R $HA  5Mb $opt(X)ms DropTail
$ns duplex-link $R $FA1 5Mb $opt(Y)ms DropTail
$ns duplex-link $R $FA2 5Mb $opt(Z)ms DropTail
foreach {a b} [list $CN $R $R $HA $R $FA1 $R $FA2] {
    $ns queue-limit $a $b 50
    $ns queue-limit $b $a 50
}

# V-A: FTP from CN to MN, 1000-byte packets, one ACK per packet; Vegas α, β, γ = 1, 3, 1
# (ns-2's defaults, set for the record); window 20 (ns-2's default window_).
set tcp [new Agent/TCP/Vegas]
$tcp set packetSize_ 1000
$tcp set window_ 20
$tcp set v_alpha_ 1
$tcp set v_beta_ 3
$tcp set v_gamma_ 1
# The paper ran ns-2.26, whose TCP defaults mobileip_wifi.toml takes (`profile = "ns2.26"`):
# minimum RTO 1 s, initial RTO 6 s, maximum RTO 100000 s, the window halved in whole packets.
$tcp set minrto_ 1
$tcp set rtxcur_init_ 6
$tcp set maxrto_ 100000
$tcp set precisionReduce_ false
set sink [new Agent/TCPSink]
$ns attach-agent $CN $tcp
$ns attach-agent $MN $sink
$ns connect $tcp $sink
set ftp [new Application/FTP]
$ftp attach-agent $tcp
$ns at 0.0 "$ftp start"

proc finish {} {
    global ns tracefd tcp
    $ns flush-trace
    close $tracefd
    puts "acked [$tcp set ack_] retransmissions [$tcp set nrexmitpack_] timeouts [$tcp set nrexmit_]"
    exit 0
}
$ns at $opt(stop) "finish"
$ns run
