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

from . import classes
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
        model.o.builtins["QueueMonitor/ED/Flowmon"] = {
            "classifier": lambda o, a: o.info["classifier"].name,
            # ns-2 FlowMon `flows`: the flows in the order the classifier made them.
            "flows": lambda o, a: " ".join(f.name for f in o.info["flows"].values()),
        }
        model.o.builtins["QueueMonitor/ED/Flow"] = {"set": self.flow_set, "get": self.flow_set}
        model.o.builtins["Classifier/Hash/Fid"] = {"lookup": self.lookup}
        model.o.builtins["Integrator"] = {
            "set": self.integrator_set,
            "get": lambda o, a: self.integrator_set(o, a[:1]),
            "newpoint": self.newpoint,
            "reset": self.integrator_reset,
        }
        #: Per monitored direction (from, to): its monitors and the packets enqueued and on
        #: the wire or in flight (uids).
        self._queued: dict[tuple[str, str], set[str]] = {}
        #: The flow id ns-2 gives a core trace line's packet (set at `$ns run`).
        self.fid_of: Any = lambda f: f[7]
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

    def flow_set(self, flow: Obj, args: tuple) -> str:
        """A flow's counters (as a queue monitor's) and its `flowid_`, `src_`, `dst_` (ns-2
        `Flow::setfields`: from the packets it counts)."""
        if args[:1] and args[0] in ("flowid_", "src_", "dst_"):
            if len(args) == 2:
                flow.info["fields"][args[0]] = args[1]
            return flow.info["fields"][args[0]]
        return self.set(flow, args)

    def lookup(self, cls: Obj, args: tuple) -> str:
        """`$classifier lookup auto SRC DST FID` (ns-2 `Classifier/Hash` `lookup`): the flow
        of that flow id (a Fid classifier compares nothing else), "" when it has none yet."""
        if len(args) != 4:
            raise Refusal("lookup: give BUCKET SRC DST FID")
        flow = cls.info["fmon"].info["flows"].get(args[3].strip())
        return flow.name if flow is not None else ""

    def _flow(self, fmon: Obj, fields: list[str]) -> Obj:
        """The flow of a packet's flow id, made at its first packet (FlowMon::in)."""
        flows = fmon.info["flows"]
        fid = self.fid_of(fields)
        if fid not in flows:
            flow = self.m.o.create("QueueMonitor/ED/Flow")
            flows[fid] = flow
        flow = flows[fid]
        # Flow::setfields: source and destination addresses (the node of `addr.port`).
        flow.info["fields"] = {
            "flowid_": fid,
            "src_": fields[8].split(".")[0],
            "dst_": fields[9].split(".")[0],
        }
        return flow

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

    # --- the link's sampling and tracing of its monitor (ns-link.tcl) -----------------------

    def _link_monitor(self, handle: Obj, what: str) -> Obj:
        qm = handle.info.get("monitor")
        if qm is None:
            # ns-2: the link has no `qMonitor_` until `$ns monitor-queue` made one.
            raise Refusal(f"{what} on a link without `$ns monitor-queue`: not supported")
        return qm

    def start_tracing(self, handle: Obj, args: tuple) -> str:
        """`$link start-tracing`: from now on the monitor writes a line to the QTRACE of
        `monitor-queue` (unless it was 0) at each arrival, departure and drop
        (QueueMonitor::printStats: ``q -t T -s FROM -d TO -l BYTES -p PACKETS``, the queue
        after the event)."""
        qm = self._link_monitor(handle, "start-tracing")
        if qm.info["qtrace"] != "0":
            if self.m.started:
                self.m.pull_trace()
            qm.info["trace_channel"] = qm.info["qtrace"]
        return ""

    def sample_queue_size(self, handle: Obj, args: tuple) -> str:
        """`$link sample-queue-size` (ns-link.tcl): the mean queue in bytes and in packets
        since the last sample (the integrators' sums over the time since, both reset), then
        the monitor's arrivals, departures and drops in packets and in bytes. The arithmetic
        is Tcl's `expr` on the values as ns-2's procedure reads them (a first sample at time
        0 gives ``0 0``)."""
        qm = self._link_monitor(handle, "sample-queue-size")
        if self.m.started:
            self.m.pull_trace()
        tcl = self.m.o.tcl
        now = tcl.eval("[Simulator instance] now")
        sums = []
        for integ in qm.info["integrators"]:
            tcl.eval(f"{integ.name} newpoint {now} [{integ.name} set lasty_]")
            sums.append(tcl.eval(f"{integ.name} set sum_"))
        last = handle.info.get("last_sample", "0")
        dur = tcl.eval(f"expr {{{now} - {last}}}")
        if tcl.eval(f"expr {{{dur} != 0}}") == "1":
            means = [tcl.eval(f"expr {{{total} / {dur}}}") for total in sums]
        else:
            means = ["0", "0"]
        for integ in qm.info["integrators"]:
            tcl.eval(f"{integ.name} set sum_ 0.0")
        handle.info["last_sample"] = now
        c = self._counts(qm)
        order = ("parrivals_", "pdepartures_", "pdrops_", "barrivals_", "bdepartures_", "bdrops_")
        return " ".join([*means, *(str(c[k]) for k in order)])

    def queue_sample_timeout(self, handle: Obj, args: tuple) -> str:
        """`$link queue-sample-timeout` (ns-link.tcl): writes ``NOW FROM TO SAMPLE`` (the
        sample of :meth:`sample_queue_size`) to QTRACE unless it was 0, and calls itself
        again INTERVAL later (`monitor-queue`'s, 0.1 s by default)."""
        qm = self._link_monitor(handle, "queue-sample-timeout")
        sample = self.sample_queue_size(handle, ())
        tcl = self.m.o.tcl
        now = tcl.eval("[Simulator instance] now")
        if qm.info["qtrace"] != "0":
            frm, to = qm.info["ends"]
            tcl.call("puts", qm.info["qtrace"], f"{now} {frm} {to} {sample}")
        interval = qm.info["sample_interval"]
        tcl.eval(
            f"[Simulator instance] at [expr {{{now} + {interval}}}] "
            f"{{{handle.name} queue-sample-timeout}}"
        )
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

    def start_queue_stats(self) -> None:
        """At `$ns run`: every queue whose `summarystats_` is true keeps ns-2's running
        average of its length (its `printstats`)."""
        for link in self.m.links:
            for d, q in enumerate(link.queues):
                if self.m.o.hasvar(q, "summarystats_") and classes.boolean(
                    self.m.o.getvar(q, "summarystats_")
                ):
                    ends = (link.a, link.b) if d == 0 else (link.b, link.a)
                    key = (str(ends[0].info["id"]), str(ends[1].info["id"]))
                    in_bytes = self.m.o.hasvar(q, "queue_in_bytes_") and classes.boolean(
                        self.m.o.getvar(q, "queue_in_bytes_")
                    )
                    stats = QueueStats(in_bytes, link.dir_rates[d])
                    q.info["summary"] = stats
                    self.m.queue_stats[key] = stats

    def printstats(self, queue: Obj, args: tuple) -> str:
        """`$queue printstats` (ns-2 DropTail/REDQueue `print_summarystats`, C's printf):
        the time-average queue length since the start and the time of its last update."""
        if args:
            raise Refusal("printstats: takes no arguments")
        stats = queue.info.get("summary")
        if stats is not None and self.m.started:
            self.m.pull_trace()
            stats.update_to(self.m.now)
            ave, total = stats.true_ave, stats.total_time
        else:
            ave, total = 0.0, 0.0
        in_bytes = self.m.o.hasvar(queue, "queue_in_bytes_") and classes.boolean(
            self.m.o.getvar(queue, "queue_in_bytes_")
        )
        unit = " (in bytes)" if in_bytes else ""
        self.m.messages.c_stdout(f"True average queue: {ave:5.3f}{unit} time: {total:5.3f}")
        return ""

    def count(self, text: str, until: float = float("inf")) -> None:
        """Counts the ``+``, ``-`` and ``d`` lines of the core's trace ``text`` (node ids as
        ns-2's; the core has run every event before ``until``) into the monitors of their
        directions."""
        by_dir: dict[tuple[str, str], list[Obj]] = {}
        for qm in self.m.monitors:
            by_dir.setdefault(qm.info["ends"], []).append(qm)
        downs = self._downs()
        stats = self.m.queue_stats
        for line in text.splitlines():
            f = line.split(" ", 12)
            if stats and len(f) >= 12 and (f[2], f[3]) in stats:
                x = float(f[12]) if len(f) == 13 else float(f[1])
                stats[(f[2], f[3])].event(f[0], x, int(f[5]), f[11])
            while downs and len(f) >= 12 and float(f[1]) >= downs[0][0]:
                self.reset(downs.pop(0)[2], ())
            if len(f) < 12 or f[0] not in "+-d" or (f[2], f[3]) not in by_dir:
                continue
            key, uid, size = (f[2], f[3]), f[11], int(f[5])
            queued = self._queued.setdefault(key, set())
            sent = self._sent.setdefault(key, set())
            fresh = False
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
            for mon in by_dir[key]:
                targets = [mon]
                if mon.info.get("flows") is not None:
                    targets.append(self._flow(mon, f))
                for qm in targets:
                    self._count_one(qm, mon, f, size, fresh, x)
        while downs and downs[0][0] < until:
            self.reset(downs.pop(0)[2], ())

    def _count_one(self, qm: Obj, mon: Obj, f: list[str], size: int, fresh: bool, x: float) -> None:
        """One ``+``, ``-`` or ``d`` line into monitor ``qm`` (``mon``'s snoops: a flow
        monitor's flows count what it counts)."""
        c = self._counts(qm)
        integrals = qm.info.get("integrals", [])
        if f[0] == "+" or (f[0] == "d" and fresh and mon.info.get("in_drop")):
            c["size_"] += size
            c["pkts_"] += 1
            c["parrivals_"] += 1
            c["barrivals_"] += size
            self._points(integrals, x, c)
            self._print_stats(qm, x)
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
            self._print_stats(qm, x)

    def _print_stats(self, qm: Obj, x: float) -> None:
        """QueueMonitor::printStats, after `start-tracing`: the queue after an event, the
        time as ns-2's trace prints it (``%.15g``)."""
        channel = qm.info.get("trace_channel")
        if channel is not None:
            frm, to = qm.info["ends"]
            line = f"q -t {x:.15g} -s {frm} -d {to} -l {qm.info['counts']['size_']} -p "
            self.m.o.tcl.call("puts", channel, line + str(qm.info["counts"]["pkts_"]))

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


class QueueStats:
    """ns-2's `summarystats_` of one queue (queue.cc `Queue::updateStats`, called by DropTail's
    and RED's `enque` and `deque`): ``true_ave_`` is the time-average of the queue's length
    (packets, or bytes with `queue_in_bytes_`, the packet on the wire not counted) from 0 to
    ``total_time_``, the last instant it was updated: at each enqueue (before the packet is
    added), each dequeue, and each time the link finishes a packet (its `resume` dequeues,
    whether or not a packet waits). Counted from the link's ``+``, ``-`` and ``d`` lines."""

    __slots__ = ("in_bytes", "rate", "length", "true_ave", "total_time", "resume", "queued")

    def __init__(self, in_bytes: bool, rate_bps: float) -> None:
        self.in_bytes = in_bytes
        self.rate = rate_bps
        self.length = 0
        self.true_ave = 0.0
        self.total_time = 0.0
        #: When the packet on the wire is sent (the link's `resume`), if one is.
        self.resume: float | None = None
        #: The packets (uids) in the queue: a drop of another one (a loss module's, or a
        #: packet on the wire when the link goes down) leaves the length as it is.
        self.queued: set[str] = set()

    def _update(self, now: float) -> None:
        # Queue::updateStats: the average over [0, now] when time has passed.
        if now - self.total_time > 0.0:
            old = self.total_time
            self.true_ave = (old * self.true_ave + (now - old) * self.length) / now
            self.total_time = now

    def update_to(self, now: float) -> None:
        """The link's `resume` at the end of a transmission before ``now``."""
        if self.resume is not None and self.resume <= now:
            self._update(self.resume)
            self.resume = None

    def event(self, kind: str, x: float, size: int, uid: str) -> None:
        """A ``+`` (enqueue), ``-`` (dequeue onto the wire) or ``d`` (drop) line at ``x``."""
        self.update_to(x)
        amount = size if self.in_bytes else 1
        if kind == "+":
            self._update(x)
            self.length += amount
            self.queued.add(uid)
        elif kind == "-":
            self._update(x)
            if uid in self.queued:
                self.queued.discard(uid)
                self.length -= amount
            # LinkDelay::txtime: the packet's bits over the bandwidth.
            self.resume = x + size * 8.0 / self.rate
        elif kind == "d" and uid in self.queued:
            self.queued.discard(uid)
            self.length -= amount
