# Conformance case "lossy CBR chain": chain_cbr.tcl's CBR flow along HOPS 802.11 hops with an
# error model between every node's PHY and MAC (node-config -IncomingErrProc), losing each
# frame a PHY hands up with probability LOSS; with DROP 1 a lost frame never reaches the MAC.
# Data frames whose ACKs are all lost reach the retry limit although the next hop has them:
# both simulators must hand them back to routing all the same (ns-2 `RetransmitDATA`), or
# DSR sends far fewer route errors and requests and delivers in another order (nlost).
# usage: ns lossy_chain_cbr.tcl ROUTING SEED HOPS DURATION RATE LOSS DROP
set loss [lindex $argv 5]
set withdrop [lindex $argv 6]
proc incoming_error {} {
  global loss withdrop
  set em [new ErrorModel]
  $em unit pkt
  $em set rate_ $loss
  $em ranvar [new RandomVariable/Uniform]
  if {$withdrop} { $em drop-target [new Agent/Null] }
  return $em
}
# chain_cbr.tcl's arguments: ROUTING SEED HOPS DURATION RATE.
set argv [lrange $argv 0 4]
set argc [llength $argv]
source [file join [file dirname [info script]] chain_cbr.tcl]
