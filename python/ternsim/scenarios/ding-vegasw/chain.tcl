# ding-vegasw in ns-2.35: NFLOWS FTP/TCP flows from n0 to n<HOPS> along an 802.11 chain (nodes
# 200 m apart, 2 Mb/s data and basic rate, RTS/CTS on every frame, two-ray ground, 250 m
# reception / 500 m carrier sensing: ns-2's radio defaults), DSR with CMUPriQueue of 50,
# packetSize_ 1024, window_ 20, all flows started at 0 s. The ns-2 twin of chain.toml beside
# it, for the paper's variants that stock ns-2 has.
# usage: ns chain.tcl TCP NFLOWS SEED HOPS DURATION CWNDTRACE(0/1)
#   TCP: Vegas (Agent/TCP/Vegas, alpha/beta/gamma 1/3/1) | FeW (Agent/TCP/Newreno with
#   increase_num_ 0.01, FeW's additive increase in congestion avoidance) | any Agent/TCP/NAME
#   with Agent/TCPSink (Reno, Newreno...)
# Prints one line per flow: "flow I acked A rexmit R timeouts T kbps K" (K: goodput from the
# sender's ack_, (ack_ + 1) x 1024 B over DURATION). CWNDTRACE 1 writes flow 0's cwnd_ to
# cwnd.tr in the working directory (ns-2's traced-variable lines: time, addresses, ports,
# "cwnd_", value with 3 decimals).
set tcpv [lindex $argv 0]
set nflows [lindex $argv 1]
set seed [lindex $argv 2]
set hops [lindex $argv 3]
set dur [lindex $argv 4]
set dotrace [lindex $argv 5]
set nn [expr $hops + 1]
ns-random $seed
$defaultRNG seed $seed
Mac/802_11 set dataRate_ 2Mb
Mac/802_11 set basicRate_ 2Mb
Mac/802_11 set RTSThreshold_ 0
set ns [new Simulator]
set tf [open /dev/null w]
$ns trace-all $tf
set topo [new Topography]
$topo load_flatgrid [expr $hops * 200 + 200] 200
create-god $nn
$ns node-config -adhocRouting DSR -llType LL -macType Mac/802_11 -ifqType CMUPriQueue \
  -ifqLen 50 -antType Antenna/OmniAntenna -propType Propagation/TwoRayGround \
  -phyType Phy/WirelessPhy -channelType Channel/WirelessChannel -topoInstance $topo \
  -agentTrace OFF -routerTrace OFF -macTrace OFF -movementTrace OFF
for {set i 0} {$i < $nn} {incr i} {
  set n($i) [$ns node]
  $n($i) random-motion 0
  $n($i) set X_ [expr $i * 200.0 + 10]
  $n($i) set Y_ 100.0
  $n($i) set Z_ 0.0
}
for {set f 0} {$f < $nflows} {incr f} {
  if {$tcpv == "FeW"} {
    set tcp($f) [new Agent/TCP/Newreno]
    $tcp($f) set increase_num_ 0.01
  } else {
    set tcp($f) [new Agent/TCP/$tcpv]
  }
  if {$tcpv == "Vegas"} {
    $tcp($f) set v_alpha_ 1
    $tcp($f) set v_beta_ 3
    $tcp($f) set v_gamma_ 1
  }
  $tcp($f) set packetSize_ 1024
  $tcp($f) set window_ 20
  $ns attach-agent $n(0) $tcp($f)
  set sink($f) [new Agent/TCPSink]
  $ns attach-agent $n($hops) $sink($f)
  $ns connect $tcp($f) $sink($f)
  set ftp($f) [new Application/FTP]
  $ftp($f) attach-agent $tcp($f)
  $ns at 0.0 "$ftp($f) start"
}
if {$dotrace} {
  set cf [open cwnd.tr w]
  $tcp(0) attach $cf
  $tcp(0) trace cwnd_
}
proc finish {} {
  global ns tcp tf dur nflows dotrace cf
  $ns flush-trace
  close $tf
  if {$dotrace} { close $cf }
  for {set f 0} {$f < $nflows} {incr f} {
    set acked [$tcp($f) set ack_]
    puts "flow $f acked $acked rexmit [$tcp($f) set nrexmitpack_] timeouts [$tcp($f) set nrexmit_] kbps [expr ($acked+1)*1024*8/$dur/1000.0]"
  }
  exit 0
}
$ns at $dur "finish"
$ns run
