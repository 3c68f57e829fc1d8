# OTcl as ns-2's validation framework uses it: class procs, per-object arrays, info
# introspection, the class and proc variables of methods, a caught dispatch error.
Class Base
Class Base/Mid -superclass Base
Class Base/Mid/Leaf -superclass Base/Mid
Base proc make {n} { return "$self:$n" }
puts [Base make 3]
puts [Base info procs]
puts [Object info subclass Base/Mid/Leaf]
puts [Base info subclass Base/Mid/Leaf]
puts [Base/Mid/Leaf info subclass Base]
puts [Base/Mid info subclass Base/Mid]
puts [catch {Object info subclass Nothing/Here}]
puts [Base info subclass]
puts [Base/Mid/Leaf info superclass]
puts [Base/Mid/Leaf info heritage]
Base instproc init {} { $self instvar tab_; set tab_(a) 1; set tab_(b) 2 }
Base instproc who {x {y 5}} { return "$class $proc $x $y" }
Base/Mid/Leaf instproc who {x {y 5}} { return "[$self next $x $y] / $class $proc" }
set o [new Base/Mid/Leaf]
puts [lsort [$o array names tab_]]
puts [$o set tab_(b)]
puts [$o who 1]
puts [$o info class]
puts [$o info class Base]
puts [Base info instargs who]
puts [string trim [Base info instbody who]]
puts [Base info instances]
puts [expr {[Base/Mid/Leaf info instances] eq $o}]
puts [catch "$o no-such-method" msg]
Base/Mid instproc copy {} [Base info instbody who]
puts [Base/Mid info instprocs c*]
