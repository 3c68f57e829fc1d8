"""ns-2's queue monitors (`$ns monitor-queue A B QTRACE`), counted from the packet trace.

This module owns a QueueMonitor's counters and their reads. ns-2.35 (``tcl/lib/ns-link.tcl``
``attach-monitors``, ``queue-monitor.cc``) puts three snoops on the link: one at its head
(an arrival: ``size_`` and ``pkts_`` grow, ``parrivals_``/``barrivals_`` count it), one
where a packet leaves the queue for the wire (a departure: ``size_``/``pkts_`` shrink,
``pdepartures_``/``bdepartures_`` count it) and one on the link's drop trace (a drop: they
shrink too, ``pdrops_``/``bdrops_`` count it). These are the ``+``, ``-`` and ``d`` events of
the link's trace, which the core writes for every link: the monitor counts them from the
core's trace, traced link or not. Each monitor also keeps ns-2's two integrators
(``get-bytes-integrator``, ``get-pkts-integrator``; ``tools/integrator.cc``): at each of those
events, with the queue's new size y at the event's exact time x, ``sum_ += (x - lastx_) *
lasty_``, then ``lastx_ = x`` and ``lasty_ = y`` (the core's traces carry the exact double
time while a monitor exists). A loss module ahead of the queue that was on the link
before the monitor sits behind the monitor's head snoop (a packet it drops was an arrival,
then a drop); one placed after sits ahead of it (a drop only, never an arrival).
"""

from __future__ import annotations

from .otcl import Obj, Refusal

# typing.TYPE_CHECKING without importing typing (about 5 ms of ternsim ns2's start).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: The counters a script may read (and set, as ns-2's bound variables allow).
COUNTERS = (
    "size_",
    "pkts_",
    "parrivals_",
    "barrivals_",
    "pdepartures_",
    "bdepartures_",
    "pdrops_",
    "bdrops_",
)


class QueueMonitors:
    """The queue monitors of one script."""

    def __init__(self, model: Any) -> None:
        self.m = model
        model.o.builtins["QueueMonitor"] = {
            "set": self.set,
            "get": lambda o, a: self.set(o, a[:1]),
            "reset": self.reset,
            "get-bytes-integrator": lambda o, a: o.info["integrators"][0].name,
            "get-pkts-integrator": lambda o, a: o.info["integrators"][1].name,
        }
        model.o.builtins["Integrator"] = {
            "set": self.integrator_set,
            "get": lambda o, a: self.integrator_set(o, a[:1]),
            "newpoint": self.newpoint,
            "reset": self.integrator_reset,
        }
        #: Per monitored direction (from, to): its monitors and the packets enqueued and on
        #: the wire or in flight (uids).
        self._queued: dict[tuple[str, str], set[str]] = {}
        self._sent: dict[tuple[str, str], set[str]] = {}

    def _counts(self, qm: Obj) -> dict[str, int]:
        if "counts" not in qm.info:
            qm.info["counts"] = dict.fromkeys(COUNTERS, 0)
        return qm.info["counts"]

    def set(self, qm: Obj, args: tuple) -> str:
        if not args or len(args) > 2:
            raise Refusal("set: give VAR [VALUE]")
        var = args[0]
        if var not in COUNTERS and var != "pmarks_":
            raise Refusal(
                f"QueueMonitor {var}: not supported; supported: {', '.join(COUNTERS)}, pmarks_"
            )
        counts = self._counts(qm)
        if var == "pmarks_":
            # ECN marks (ns-2 `QueueMonitor::out`): departures with CE and ECT set.
            if len(args) == 2:
                qm.info["pmarks"] = int(float(args[1]))
            return str(qm.info.get("pmarks", 0))
        if len(args) == 2:
            counts[var] = int(float(args[1]))
        return str(counts[var])

    def reset(self, qm: Obj, args: tuple) -> str:
        # ns-2.35's `QueueMonitor instproc reset` (tcl/lib/ns-queue.tcl): every counter to 0
        # but `pmarks_`, which it leaves as it is, and each integrator's `reset`
        # (Integrator::set(0, 0)).
        qm.info["counts"] = dict.fromkeys(COUNTERS, 0)
        for integrator in qm.info.get("integrators", ()):
            self.integrator_reset(integrator, ())
        return ""

    def integrator_reset(self, integrator: Obj, args: tuple) -> str:
        """`$integ reset`: Integrator::set(0, 0)."""
        self._integrate(integrator).reset()
        return ""

    def add_integrators(self, qm: Obj) -> None:
        """The bytes and packets integrators ns-2's `init-monitor` gives each monitor."""
        pair = (self.m.o.create("Integrator"), self.m.o.create("Integrator"))
        qm.info["integrators"] = pair
        # The sums the trace counting feeds (reset in place, so the same two objects).
        qm.info["integrals"] = [self._integrate(i) for i in pair]

    @staticmethod
    def _integrate(integrator: Obj) -> Integral:
        if "integral" not in integrator.info:
            integrator.info["integral"] = Integral()
        return integrator.info["integral"]

    def integrator_set(self, integrator: Obj, args: tuple) -> str:
        """`$integ set sum_|lastx_|lasty_ [VALUE]`, bound doubles (printed `%.17g`)."""
        if not args or len(args) > 2 or args[0] not in Integral.VARS:
            raise Refusal(
                f"Integrator {' '.join(args[:1])}: not supported; supported: set "
                f"{'|'.join(Integral.VARS)} [VALUE], newpoint X Y, reset"
            )
        state = self._integrate(integrator)
        attr = args[0].rstrip("_")
        if len(args) == 2:
            setattr(state, attr, float(args[1]))
        return format(getattr(state, attr), ".17g")

    def newpoint(self, integrator: Obj, args: tuple) -> str:
        """`$integ newpoint X Y` (ns-2 reads both with atof)."""
        if len(args) != 2:
            raise Refusal("newpoint: give X Y")
        self._integrate(integrator).point(float(args[0]), float(args[1]))
        return ""

    def check(self) -> None:
        """At `$ns run`: each monitor has all of its direction's loss modules ahead of the
        queue on one side of its head snoop."""
        for qm in self.m.monitors:
            link, d = qm.info["link"], qm.info["direction"]
            ems = [id(em) for p, em in link.stages[d] if p == "enqueue"]
            behind = [e in qm.info["behind"] for e in ems]
            if any(behind) and not all(behind):
                raise Refusal(
                    "a queue monitor between two loss modules on one link direction: not supported",
                    where=link.where,
                )
            qm.info["in_drop"] = any(behind)

    def _downs(self) -> list[tuple[float, Obj]]:
        """The monitors' resets still to come: at each down event of a monitored link ns-2
        resets every connector of the link, its queue monitor included (`Link down`,
        `all-connectors reset`), before the drops of that instant reach the monitor."""
        if "downs" not in self.__dict__:
            self.downs = sorted(
                (
                    (t, i, qm)
                    for i, (t, _, op, link, _) in enumerate(self.m.link_events)
                    for qm in self.m.monitors
                    if op == "down" and qm.info["link"] is link
                ),
                key=lambda e: e[:2],
            )
        return self.downs

    def count(self, text: str, until: float = float("inf")) -> None:
        """Counts the ``+``, ``-`` and ``d`` lines of the core's trace ``text`` (node ids as
        ns-2's; the core has run every event before ``until``) into the monitors of their
        directions."""
        by_dir: dict[tuple[str, str], list[Obj]] = {}
        for qm in self.m.monitors:
            by_dir.setdefault(qm.info["ends"], []).append(qm)
        downs = self._downs()
        for line in text.splitlines():
            f = line.split(" ", 12)
            while downs and len(f) >= 12 and float(f[1]) >= downs[0][0]:
                self.reset(downs.pop(0)[2], ())
            if len(f) < 12 or f[0] not in "+-d" or (f[2], f[3]) not in by_dir:
                continue
            key, uid, size = (f[2], f[3]), f[11], int(f[5])
            queued = self._queued.setdefault(key, set())
            sent = self._sent.setdefault(key, set())
            if f[0] == "+":
                queued.add(uid)
            elif f[0] == "-":
                queued.discard(uid)
                sent.add(uid)
            else:
                fresh = uid not in queued and uid not in sent
                queued.discard(uid)
                sent.discard(uid)
            # The event's exact time (13th field), for the integrators.
            x = float(f[12]) if len(f) == 13 else float(f[1])
            for qm in by_dir[key]:
                c = self._counts(qm)
                integrals = qm.info.get("integrals", [])
                if f[0] == "+" or (f[0] == "d" and fresh and qm.info.get("in_drop")):
                    c["size_"] += size
                    c["pkts_"] += 1
                    c["parrivals_"] += 1
                    c["barrivals_"] += size
                    self._points(integrals, x, c)
                if f[0] == "-":
                    c["size_"] -= size
                    c["pkts_"] -= 1
                    c["pdepartures_"] += 1
                    c["bdepartures_"] += size
                    if f[6][4:7:2] == "EN":
                        qm.info["pmarks"] = qm.info.get("pmarks", 0) + 1
                elif f[0] == "d":
                    c["size_"] -= size
                    c["pkts_"] -= 1
                    c["pdrops_"] += 1
                    c["bdrops_"] += size
                if f[0] != "+":
                    self._points(integrals, x, c)
        while downs and downs[0][0] < until:
            self.reset(downs.pop(0)[2], ())

    @staticmethod
    def _points(integrals: list[Integral], x: float, c: dict[str, int]) -> None:
        """QueueMonitor::in/out/drop: each integrator's new point after the change."""
        if integrals:
            integrals[0].point(x, float(c["size_"]))
            integrals[1].point(x, float(c["pkts_"]))


class Integral:
    """ns-2's Integrator (tools/integrator.cc): the running integral of a step function
    whose points arrive in time order; `sum_` covers up to the last point only."""

    VARS = ("sum_", "lastx_", "lasty_")
    __slots__ = ("sum", "lastx", "lasty")

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        """Integrator::set(0, 0)."""
        self.sum = 0.0
        self.lastx = 0.0
        self.lasty = 0.0

    def point(self, x: float, y: float) -> None:
        self.sum += (x - self.lastx) * self.lasty
        self.lastx = x
        self.lasty = y
