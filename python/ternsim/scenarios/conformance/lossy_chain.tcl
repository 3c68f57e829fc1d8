# Conformance case "lossy chain": chain.tcl's FTP/TCP flow along HOPS 802.11 hops with an
# error model between every node's PHY and MAC (node-config -IncomingErrProc): each frame a
# PHY hands up, whoever it is for, is lost with probability RATE. With DROP 1 the model has a
# drop target (a lost frame never reaches the MAC); with 0 it has none, and ns-2 passes the
# frame on marked in error (the MAC discards it at its end and defers EIFS).
# usage: ns lossy_chain.tcl TCP ROUTING SEED HOPS DURATION RATE DROP
set rate [lindex $argv 5]
set withdrop [lindex $argv 6]
proc incoming_error {} {
  global rate withdrop
  set em [new ErrorModel]
  $em unit pkt
  $em set rate_ $rate
  $em ranvar [new RandomVariable/Uniform]
  if {$withdrop} { $em drop-target [new Agent/Null] }
  return $em
}
# chain.tcl's arguments: TCP ROUTING SEED HOPS DURATION, no trace.
set argv [list {*}[lrange $argv 0 4] 0]
set argc [llength $argv]
source [file join [file dirname [info script]] chain.tcl]
