"""ns-2's queue monitors (`$ns monitor-queue A B QTRACE`), counted from the packet trace.

This module owns a QueueMonitor's counters and their reads. ns-2.35 (``tcl/lib/ns-link.tcl``
``attach-monitors``, ``queue-monitor.cc``) puts three snoops on the link: one at its head
(an arrival: ``size_`` and ``pkts_`` grow, ``parrivals_``/``barrivals_`` count it), one
where a packet leaves the queue for the wire (a departure: ``size_``/``pkts_`` shrink,
``pdepartures_``/``bdepartures_`` count it) and one on the link's drop trace (a drop: they
shrink too, ``pdrops_``/``bdrops_`` count it). These are the ``+``, ``-`` and ``d`` events of
the link's trace, which the core writes for every link: the monitor counts them from the
core's trace, traced link or not. A loss module ahead of the queue that was on the link
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
        # ns-2's `QueueMonitor instproc reset` (ns-queue.tcl) leaves `pmarks_` as it is.
        qm.info["counts"] = dict.fromkeys(COUNTERS, 0)
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
            for qm in by_dir[key]:
                c = self._counts(qm)
                if f[0] == "+" or (f[0] == "d" and fresh and qm.info.get("in_drop")):
                    c["size_"] += size
                    c["pkts_"] += 1
                    c["parrivals_"] += 1
                    c["barrivals_"] += size
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
        while downs and downs[0][0] < until:
            self.reset(downs.pop(0)[2], ())
