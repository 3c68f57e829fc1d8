"""The nam trace of a script (`$ns namtrace-all FILE`, `$ns namtrace-all-wireless FILE X Y`),
written as ns-2.35 writes it.

This module owns what only nam sees: the attributes the drawing commands set (`$ns color`,
`duplex-link-op ... orient|color|queuePos|label`, `$node color|shape|label`), the lines those
commands write at once, the header ns-2 writes when `$ns run` starts (ns-2's `init-nam` in
tcl/lib/ns-namsupp.tcl), and the conversion of the wired trace's packet events into nam's
`+ - h r d` lines (ns-2's `Trace::format` and `DequeTrace::recv` in trace/trace.cc write both
from the same packet, so every field of a nam line is in the wired trace line).

Where ns-2 walks a Tcl array (the colours, the nodes, the link queues), the order is the one
Tcl's `array names` gives for the same keys set in the same order, asked of this process's Tcl.
"""

from __future__ import annotations

import math
import re

from .otcl import Obj, Refusal

# typing.TYPE_CHECKING without importing typing (about 5 ms of ternsim ns2's start).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: ns-2.35's nam trace version (`dump-namversion 1.0a5`).
VERSION = "1.0a5"
#: ns-2's flat address format (`dump-namaddress` with one level: AddrParams' defaults).
FLAT_ADDRESS = (
    "A -t * -n 1 -p 0 -o 0x7fffffff -c 30 -a 1",
    "A -t * -h 1 -m 1073741823 -s 0",
)

#: The same for ns-2's default hierarchical format (3 levels, `AddrParams`: the domain in
#: bits 22 and up, cluster and node in 11 bits each).
HIER_ADDRESS = (
    "A -t * -n 3 -p 0 -o 0x7fffffff -c 30 -a 1",
    "A -t * -h 1 -m 511 -s 22",
    "A -t * -h 2 -m 2047 -s 11",
    "A -t * -h 3 -m 2047 -s 0",
)


def _num(x: float) -> str:
    """A number as ns-2's Tcl prints it (`tcl_precision 17`)."""
    return format(x, ".17g")


class NamTrace:
    """The script's nam channel and what the drawing commands set."""

    def __init__(self, model: Any) -> None:
        self.model = model
        self.tcl = model.o.tcl
        #: The channel `namtrace-all` named, and the X and Y of `namtrace-all-wireless`.
        self.channel: str | None = None
        self.wireless_size: tuple[str, str] | None = None
        #: `$ns color ID NAME`, ids in the order they were first set (ns-2's array color_).
        self.colors: dict[str, str] = {}
        #: ns-2's linkConfigList_: the link directions whose `l` line the header writes,
        #: in order (`register-nam-linkconfig` in tcl/lib/ns-lib.tcl).
        self.link_list: list[Obj] = []
        #: `$ns trace-annotate` calls so far (ns-2's annotationSeq_).
        self.annotations = 0
        #: `$ns add-agent-trace AGENT NAME`: NAME -> agent (ns-2's array tracedAgents_).
        self.traced_agents: dict[str, Obj] = {}
        #: `$ns monitor-agent-trace AGENT`, in order (ns-2's list monitoredAgents_).
        self.monitored_agents: list[Obj] = []

    # --- writing ----------------------------------------------------------------------------

    def is_open(self) -> bool:
        ch = self.channel
        return ch is not None and ch in self.tcl.splitlist(self.tcl.call("file", "channels"))

    def puts(self, line: str) -> None:
        """ns-2's `puts-nam-config`: one line into the nam channel, if there is one."""
        if self.is_open():
            self.tcl.call("puts", self.channel, line)

    def writer(self) -> Any:
        """Writes text into the nam channel; None when it is not open."""
        if not self.is_open():
            return None
        ch = self.channel
        return lambda text: self.tcl.call("puts", "-nonewline", ch, text)

    def _list(self, text: str) -> str:
        """Tcl's `eval list TEXT`: ns-2 builds some lines so (words re-quoted as a list)."""
        return str(self.tcl.eval(f"list {text}"))

    def tcl_order(self, keys: list[str]) -> list[str]:
        """The order Tcl's `array names` lists ``keys`` in (see :meth:`_tcl_order`)."""
        return self._tcl_order(keys)

    def _tcl_order(self, keys: list[str]) -> list[str]:
        """The order Tcl's `array names` lists ``keys`` in, set in this order."""
        tcl = self.tcl
        tcl.eval("array unset ::ns2::nam_order_")
        for k in keys:
            tcl.call("set", f"::ns2::nam_order_({k})", "")
        order = list(tcl.splitlist(tcl.eval("array names ::ns2::nam_order_")))
        tcl.eval("array unset ::ns2::nam_order_")
        return [str(k) for k in order]

    # --- the header -------------------------------------------------------------------------

    def header(self) -> list[str]:
        """The lines ns-2's `init-nam` writes when `$ns run` starts: version, wireless area,
        address format, colours, nodes, links, queue positions."""
        model = self.model
        out = [f"V -t * -v {VERSION} -a 0"]
        if self.wireless_size is not None:
            out.append(f"W -t * -x {self.wireless_size[0]} -y {self.wireless_size[1]}")
        out += HIER_ADDRESS if model.hierarchical else FLAT_ADDRESS
        for k in self._tcl_order(list(self.colors)):
            out.append(f"c -t * -i {k} -n {self.colors[k]}")
        # ns-2 walks its array Node_, keyed by node id; it writes no such line for a mobile
        # node (seen in ns-2.35's files: nam learns their places from initial_node_pos), but
        # does for a base station, with its place.
        wired = [n for n in model.nodes if not n.info["mobile"] or n.info.get("base_station")]
        by_id = {str(n.info["id"]): n for n in wired}
        for k in self._tcl_order(list(by_id)):
            out.append(self._node_line(by_id[k]))
        for handle in self.link_list:
            out.append(self._link_line(handle))
        # ns-2 walks its array link_, keyed "FROM:TO", one key per direction.
        by_key = {}
        for link in model.links:
            for handle in link.handles:
                by_key[self._ends(handle, ":")] = handle
        for k in self._tcl_order(list(by_key)):
            pos = _attrs(by_key[k]).get("QUEUE_POS")
            if pos:
                out.append(f"q -t * -s {self._ends(by_key[k], ' -d ')} -a {pos}")
        return out

    def _node_line(self, node: Obj) -> str:
        a = _attrs(node)
        addr = node.info.get("addr", node.info["id"])
        place = ""
        if node.info["mobile"]:
            place = f" -x {_num(node.info['x'])} -y {_num(node.info['y'])} -Z 0"
        return self._list(
            f"n -t * -a {addr} -s {node.info['id']} -S UP -v {a.get('SHAPE', 'circle')} "
            f"-c {a.get('COLOR', 'black')} -i {a.get('LCOLOR', 'black')}{place}"
        )

    def _link_line(self, handle: Obj) -> str:
        link = handle.info["link"]
        a = _attrs(handle)
        d = handle.info["direction"]
        line = (
            f"l -t * -s {self._ends(handle, ' -d ')} -S UP -r {_num(link.dir_rates[d])} "
            f"-D {_num(link.dir_delays[d])} -c {a.get('COLOR', 'black')}"
        )
        if a.get("ORIENTATION"):
            line += f" -o {a['ORIENTATION']}"
        return line

    @staticmethod
    def _ends(handle: Obj, sep: str) -> str:
        link = handle.info["link"]
        a, b = link.a.info["id"], link.b.info["id"]
        return f"{a}{sep}{b}" if handle.info["direction"] == 0 else f"{b}{sep}{a}"

    # --- links ------------------------------------------------------------------------------

    def register(self, handle: Obj) -> None:
        """ns-2's `register-nam-linkconfig`: a duplex link is drawn once, from the direction
        registered first, unless the other direction is given an orientation and it was not."""
        link = handle.info["link"]
        reverse = link.handles[1 - handle.info["direction"]] if len(link.handles) == 2 else None
        if reverse is not None and reverse in self.link_list:
            if _attrs(reverse).get("ORIENTATION", "") == "" and _attrs(handle).get("ORIENTATION"):
                self.link_list.remove(reverse)
            else:
                return
        if handle in self.link_list:
            self.link_list.remove(handle)
        self.link_list.append(handle)

    def link_op(self, handle: Obj, op: str, args: tuple) -> str:
        """`$link OP ARGS` for the drawing ops of ns-2's Link (tcl/lib/ns-namsupp.tcl); other
        ops are accepted and do nothing, as before."""
        a = _attrs(handle)
        started = self.model.started
        ends = self._ends(handle, " -d ")
        now = _num(self.model.now)
        value = " ".join(args)
        if op == "orient":
            a["ORIENTATION"] = value
            self.register(handle)
        elif op == "queuePos":
            a["QUEUE_POS"] = value
        elif op == "color":
            if started:
                old = a.get("COLOR", "black")
                self.puts(self._list(f"l -t {now} -s {ends} -S COLOR -c {value} -o {old}"))
            a["COLOR"] = value
        elif op in _LABELS:
            key, new, old_flag = _LABELS[op]
            old = a.get(key, '""')
            self.puts(f'l -t {now} -s {ends} -S {key} {new} "{value}" {old_flag} {old}')
            a[key] = f'"{value}"'
        return ""

    # --- nodes ------------------------------------------------------------------------------

    def node_op(self, node: Obj, op: str, args: tuple) -> str:
        """`$node color|shape|label|label-color|label-at|add-mark|delete-mark` as ns-2's Node
        does (tcl/lib/ns-namsupp.tcl)."""
        a = _attrs(node)
        nid = node.info["id"]
        value = " ".join(args)
        now = _num(self.model.now)
        if op == "shape":
            a["SHAPE"] = value
        elif op == "color":
            if self.model.started:
                self.puts(
                    self._list(
                        f"n -t {format(self.model.now, '.15g')} -s {nid} -S COLOR -c {value} "
                        f"-o {a.get('COLOR', 'black')} -i {value} -I {a.get('LCOLOR', 'black')}"
                    )
                )
            a["COLOR"] = a["LCOLOR"] = value
        elif op in _LABELS:
            key, new, old_flag = _LABELS[op]
            old = a.get(key, '""')
            self.puts(f'n -t {now} -s {nid} -S {key} {new} "{value}" {old_flag} {old}')
            a[key] = f'"{value}"'
        elif op == "add-mark":
            if len(args) not in (2, 3):
                raise Refusal("add-mark: give NAME COLOR [SHAPE]")
            shape = args[2] if len(args) == 3 else "circle"
            self.puts(f"m -t {now} -s {nid} -n {args[0]} -c {args[1]} -h {shape}")
            node.info.setdefault("nam_marks", {})[args[0]] = (args[1], shape)
        elif op == "delete-mark":
            mark = node.info.get("nam_marks", {}).get(args[0] if args else "")
            if mark is not None:
                self.puts(f"m -t {now} -s {nid} -n {args[0]} -c {mark[0]} -h {mark[1]} -X")
        return ""

    # --- the simulator's own ----------------------------------------------------------------

    def annotate(self, text: str, trace_write: Any) -> None:
        """`$ns trace-annotate TEXT`: a `v` line into the trace-all file (when open) and one
        into the nam file, numbered (ns-2's `trace-annotate`)."""
        now = self.model.now
        if trace_write is not None:
            trace_write(f"v {_num(now)} eval {{set sim_annotation {{{text}}}}}\n")
        self.annotations += 1
        g = format(now, ".15g")
        self.puts(f"v -t {g} -e sim_annotation {g} {self.annotations} {text}")


#: Label ops: the attribute, the flag of the new value, the flag of the old one.
_LABELS = {
    "label": ("DLABEL", "-l", "-L"),
    "label-color": ("DCOLOR", "-e", "-E"),
    "label-at": ("DIRECTION", "-p", "-P"),
}


def _attrs(obj: Obj) -> dict[str, str]:
    """ns-2's attr_ array of a node or link direction."""
    return obj.info.setdefault("nam", {})


def link_event_lines(t: float, op: str, ends: tuple, calls: int) -> list[str]:
    """ns-2's nam lines when `rtmodel-at` takes a link down or up at ``t``: for each
    direction in the order ns-2 takes them (``ends``, (from, to) ids), `l -t T -s FROM -d TO
    -S DOWN|UP` and `v -t T link-down|up T FROM TO`, once per `rtmodel-at` call naming the
    link (``calls``; each hooks its own trace of the link's dynamics, as in the trace-all
    file). Times as Tcl prints `[$ns now]`."""
    stamp = _num(t)
    out = []
    for a, b in ends:
        for _ in range(calls):
            out.append(f"l -t {stamp} -s {a} -d {b} -S {op.upper()}")
            out.append(f"v -t {stamp} link-{op} {stamp} {a} {b}")
    return out


def packet_lines(f: list[str]) -> list[str]:
    """The nam lines of one wired trace line (its 12 fields, numbered as ns-2 numbers them):
    ns-2 writes `EVENT -t TIME -s FROM -d TO -p TYPE -e SIZE -c FID -i UID -a FID -x {SRC DST
    SEQ FLAGS null}` for each, and after a `-` the `h` line with sequence number -1
    (trace/trace.cc, `Trace::format` and `DequeTrace::recv`)."""
    ev, t, s, d, ptype, size, flags, fid, src, dst, seq, uid = f[:12]
    common = f"-t {t} -s {s} -d {d} -p {ptype} -e {size} -c {fid} -i {uid} -a {fid}"
    out = [f"{ev} {common} -x {{{src} {dst} {seq} {flags} null}}"]
    if ev == "-":
        out.append(f"h {common} -x {{{src} {dst} -1 {flags} null}}")
    return out


# --- wireless -------------------------------------------------------------------------------

#: A line of the old CMU wireless trace with an IP header: event, time, node, layer, uid,
#: packet type, size, and the IP header's destination and next hop
#: (`[SRC:PORT DST:PORT TTL NEXTHOP]`, ns-2 prints a negative next hop as 0).
_CMU = re.compile(
    r"^(?P<ev>[srfD]) (?P<time>\S+) _(?P<node>-?\d+)_ (?P<layer>\S+)\s+\S+ (?P<uid>\d+) "
    r"(?P<kind>\S+) (?P<size>\d+) .*?------- \[-?\d+:\d+ (?P<dst>-?\d+):\d+ \d+ "
    r"(?P<hop>-?\d+)\]"
)


#: A line of the old CMU wireless trace without an IP header: an RTS, CTS or ACK frame
#: (`[dur ra ta 0]` and nothing after) or an ARP packet (`------- [REQUEST 0/0 0/1]`).
_CMU_NO_IP = re.compile(
    r"^(?P<ev>[srfD]) (?P<time>\S+) _(?P<node>-?\d+)_ (?P<layer>\S+)\s+\S+ (?P<uid>\d+) "
    r"(?P<kind>\S+) (?P<size>\d+) \[[^]]*\]\s*(?:------- \[(?:REQUEST|REPLY) [^]]*\])?\s*$"
)


def wireless_packet_lines(line: str) -> list[str]:
    """The nam lines ns-2's CMUTrace::nam_format (trace/cmu-trace.cc) writes for one line of
    the old wireless trace, the MAC's RTS, CTS and ACK frames and ARP's packets included: a
    send becomes `+` (with a trailing space), `-` and `h`; a drop `d`; a router's reception
    only when the packet is broadcast. `-d` is the packet's next hop: -1 for the frames
    without an IP header, for an agent's send and for broadcasts, the receiving node for an
    agent's reception, otherwise the trace line's next hop (which prints "none" as 0, so a
    packet with no next hop yet shows node 0 where ns-2's nam line shows -1)."""
    m = _CMU.match(line)
    if m is not None:
        ev, node, layer = m["ev"], int(m["node"]), m["layer"]
        dst, hop = int(m["dst"]), int(m["hop"])
        if ev == "r" and layer == "RTR" and dst != -1:
            return []
        if ev == "r" and layer == "AGT":
            hop = node
        elif (ev == "s" and layer == "AGT") or dst == -1 or (hop == 0 and node == 0):
            hop = -1
    else:
        # An RTS, CTS, ACK or ARP frame: the MAC made it (or ARP did) and set no next hop,
        # which nam_format prints as -1. (Under `use-newtrace` the core's line ends with the
        # ` |NT ...` fields of the new format.)
        m = _CMU_NO_IP.match(line.split(" |NT ", 1)[0])
        if m is None:
            return []
        ev, node, layer, hop = m["ev"], int(m["node"]), m["layer"], -1
    common = (
        f"-t {m['time']} -s {node} -d {hop} -p {m['kind']} -e {m['size']} -c 2 -a 0 "
        f"-i {m['uid']} -k {layer:>3}"
    )
    if ev == "s":
        return [f"+ {common} ", f"- {common}", f"h {common}"]
    return [f"{'d' if ev == 'D' else ev} {common}"]


def movement_line(node_id: int, time: float, x: float, y: float, move: Any) -> str:
    """ns-2's nam line of a setdest (MobileNode::set_destination, mobile/mobilenode.cc): the
    position now, the velocity's components and the time to the destination."""
    dx, dy = move.x - x, move.y - y
    length = math.hypot(dx, dy)
    if length > 0:
        dx, dy = dx / length, dy / length
    v = move.speed * math.hypot(dx, dy)
    t = length / v if v != 0 else 0.0
    return (
        f"n -t {time:f} -s {node_id} -x {x:f} -y {y:f} -U {move.speed * dx:f} "
        f"-V {move.speed * dy:f} -T {t:f}"
    )
