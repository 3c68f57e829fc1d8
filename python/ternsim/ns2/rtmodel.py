"""ns-2.35's link dynamics: the rtModel objects of `$ns rtmodel` and `$ns rtmodel-at`, and the
queue their events go through (`tcl/rtglib/dynamics.tcl`), worked out before the run.

This module owns the models a script makes (which link directions each takes down and up, in
which order, which nodes it tells) and the schedule of their events: ns-2's `rtQueue`, which
gathers every model's events of one instant into one `$ns at` (`runq`), each model placing its
next event from the clock of the one that runs. A Deterministic model's times are ns-2's
doubles (each the sum of the clock and an interval, then rounded through `$ns at`'s
``clock + (t - clock)``), so that the trace prints ns-2's times.

It does not run anything: :mod:`ternsim.ns2.scenario` turns the schedule into the scenario's
link events and the trace's `v` lines, :mod:`ternsim.ns2.interp` writes the lines of
`trace-dynamics` channels at each instant of it during the run.
"""

from __future__ import annotations

from .otcl import Refusal

# typing.TYPE_CHECKING without importing typing (about 5 ms of ternsim ns2's start).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: ns-2.35's class defaults (`tcl/lib/ns-default.tcl`): rtModel's start and finish times,
#: each model's up and down intervals.
DEFAULTS = {
    "rtModel": {"startTime_": "0.5", "finishTime_": "-"},
    "rtModel/Deterministic": {"upInterval_": "2.0", "downInterval_": "1.0"},
    "rtModel/Exponential": {"upInterval_": "10.0", "downInterval_": "1.0"},
}


class RtModel:
    """One rtModel: a Manual one (`rtmodel-at T OP A B`: one event) or a Deterministic one
    (down after ``start + up``, then up ``down`` seconds later, down ``up`` seconds after
    that, ..., none after ``finish`` but a last up at ``finish`` itself)."""

    def __init__(self, kind: str, link: Any, dirs: tuple, notify: tuple) -> None:
        self.kind = kind
        #: The link (ternsim's duplex record) and its directions as ns-2 takes them down or
        #: up, (from, to) ids: the order Tcl lists the model's array links_.
        self.link = link
        self.dirs = dirs
        #: The nodes' ids in the order the model tells them of a change (its array nodes_).
        self.notify = notify
        # Manual: the event.
        self.op = ""
        self.at = 0.0
        self.at_key = ""
        # Deterministic: the parameters, in seconds (finish None: ns-2's "-", never).
        self.start = 0.5
        self.up = 2.0
        self.down = 1.0
        self.finish: float | None = None

    def first(self, queue: RtQueue) -> None:
        """ns-2's `set-first-event` when the run starts (`rtmodel-configure`)."""
        if self.kind == "Manual":
            queue.insq(self.at, self, self.op, self.at_key)
        else:
            self._set_event(queue, self.start + self.up, "down")

    def fire(self, queue: RtQueue, op: str) -> None:
        """The model's `up` or `down` ran (its links changed): a Deterministic model places
        its next event (`rtModel/Deterministic instproc up|down`)."""
        if self.kind == "Deterministic":
            if op == "up":
                self._set_event(queue, self.up, "down")
            else:
                self._set_event(queue, self.down, "up")

    def _set_event(self, queue: RtQueue, interval: float, op: str) -> None:
        # `set-event`: the clock plus the interval; `set-event-exact`: past the finish time
        # only an up is placed, at the finish time itself.
        fire = queue.now + interval
        if self.finish is not None and fire > self.finish:
            if op == "up":
                queue.insq(self.finish, self, op, format(self.finish, ".17g"))
        else:
            queue.insq(fire, self, op, format(fire, ".17g"))


class Run:
    """One `runq` of the rtQueue: its time, the (model, op) events it runs in order, and the
    run that placed it (-1: the start of the run)."""

    def __init__(self, time: float, placed_by: int) -> None:
        self.time = time
        self.placed_by = placed_by
        self.events: list[tuple[RtModel, str]] = []


class RtQueue:
    """ns-2's rtQueue played forward to a time: :meth:`schedule`."""

    def __init__(self) -> None:
        self.now = 0.0
        self.runs: list[Run] = []
        #: Runs placed and not yet run, by their key (ns-2's array rtq_, keyed by the time
        #: as Tcl prints it), and in the order the scheduler runs them.
        self._pending: dict[str, int] = {}
        self._order: list[tuple[float, int, str]] = []
        self._current = -1

    def insq(self, at: float, model: RtModel, op: str, key: str) -> None:
        if self.now >= at:
            # ns-2's `insq` then reads an unset `$proc` for its message: the script fails.
            raise Refusal(
                f"rtmodel: an event at {format(at, '.17g')} s, not after the clock "
                f'({format(self.now, ".17g")} s): ns-2 fails (can\'t read "proc")'
            )
        k = self._pending.get(key)
        if k is None:
            # `$ns at` reads the time back and schedules clock + (time - clock).
            run = Run(self.now + (at - self.now), self._current)
            k = len(self.runs)
            self.runs.append(run)
            self._pending[key] = k
            self._order.append((run.time, k, key))
        self.runs[k].events.append((model, op))

    def schedule(self, models: list[RtModel], end: float) -> list[Run]:
        """The runs before ``end`` in the order ns-2 runs them (the models' first events
        placed when the run starts, in the order the models were made; runs at one time in
        the order they were placed)."""
        for model in models:
            model.first(self)
        done: list[Run] = []
        while self._order:
            self._order.sort()
            t, k, key = self._order.pop(0)
            if t >= end:
                break
            run = self.runs[k]
            # What this run places names it by its place in the list returned.
            self.now, self._current = run.time, len(done)
            # The run's events: each model's links change and it places its next event;
            # the key is free again only after them (`unset rtq_($time)`).
            for model, op in list(run.events):
                model.fire(self, op)
            del self._pending[key]
            done.append(run)
        return done


def parameters(model: RtModel, parms: list[str], class_vars: dict[str, dict[str, str]]) -> None:
    """ns-2's `rtModel set-parms` for a Deterministic model: the class values (the model's
    class, then rtModel; `rtModel/Deterministic set upInterval_ 3` in the script counts),
    then the script's list {[start] up down [finish]} (4: all, 3: start up down, 2: up down,
    other lengths: none), a "-" or empty element keeping the class value."""
    cls = f"rtModel/{model.kind}"

    def class_value(var: str) -> str:
        for c in (cls, "rtModel"):
            for table in (class_vars, DEFAULTS):
                if var in table.get(c, {}):
                    return table[c][var]
        return "-"

    values = {v: class_value(v) for v in ("startTime_", "upInterval_", "downInterval_")}
    values["finishTime_"] = class_value("finishTime_")
    names = {
        4: ("startTime_", "upInterval_", "downInterval_", "finishTime_"),
        3: ("startTime_", "upInterval_", "downInterval_"),
        2: ("upInterval_", "downInterval_"),
    }.get(len(parms), ())
    for name, given in zip(names, parms):
        if given not in ("-", ""):
            values[name] = given

    def seconds(name: str) -> float:
        try:
            return float(values[name])
        except ValueError:
            raise Refusal(
                f"rtmodel {model.kind} {{{' '.join(parms)}}}: {name} {values[name]!r} is not "
                "a number of seconds (ns-2 adds it with expr)"
            ) from None

    model.start = seconds("startTime_")
    model.up = seconds("upInterval_")
    model.down = seconds("downInterval_")
    model.finish = None if values["finishTime_"] == "-" else seconds("finishTime_")
    # The first event is placed at 0 s, each next one an interval after the clock: one not
    # after the clock makes ns-2's `insq` fail (:meth:`RtQueue.insq`).
    if model.start + model.up <= 0 or model.up <= 0 or model.down <= 0:
        raise Refusal(
            f"rtmodel {model.kind} {{{' '.join(parms)}}}: an event not after the clock (start "
            f"{model.start:g} s, up {model.up:g} s, down {model.down:g} s): ns-2 fails "
            '(can\'t read "proc"); give positive intervals and a first down after 0 s'
        )
