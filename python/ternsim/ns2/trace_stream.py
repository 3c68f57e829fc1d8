"""The ns-2 trace on its way from the core to the script's trace file, in bounded pieces.

This module owns what happens to the trace the core records between two moments the script
can see the file (a callback, ``flush-trace``, closing the channel, the end of the run): the
run is advanced in steps (:func:`run_to`) and after each step the core's text is taken and
filtered at once, so the unfiltered text (which for a large MANET is mostly ``r RTR`` lines
that ns-2 writes only with routerTrace ON) never accumulates.

A wired trace is in time order as the core writes it: each step's lines go to the channel at
once. A wireless trace is not (a reception's outcome is written when it is settled, with the
time it ended), and ns-2's file is the lines of the whole interval sorted by time, with the
setdest ``M`` lines merged in. So its filtered lines are kept, sorted runs of them spilled to a
temporary file once there are :data:`SPILL_LINES`, and at the moment the script can see the file
the runs are merged into it: the same bytes as sorting the interval's text in one piece.

It knows nothing of Tcl: the caller gives a ``write(text)`` for the script's channel.
"""

from __future__ import annotations

import heapq

from .nam import wireless_packet_lines

# typing.TYPE_CHECKING without importing typing (about 5 ms of ternsim ns2's start).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import IO, Any, Callable

#: Filtered wireless lines kept in memory before a sorted run of them goes to a file.
SPILL_LINES = 200_000
#: Lines written to the channel per call.
WRITE_LINES = 20_000
#: Bytes of core trace text one step aims at: steps are lengthened or shortened towards it.
STEP_BYTES = 4_000_000
#: Simulated seconds of the first step, and the bounds of every step.
FIRST_STEP, MIN_STEP, MAX_STEP = 0.5, 1e-3, 50.0

_Key = tuple[float, int, int]


class TraceStream:
    """The trace of one interval between two moments the script can see the file."""

    def __init__(self, translation: Any) -> None:
        self.translation = translation
        self.wireless = bool(translation.wireless)
        #: Filtered wireless lines not yet spilled, and the sorted runs on file.
        self._lines: list[tuple[_Key, str]] = []
        self._runs: list[IO[str]] = []
        #: Lines of the interval taken from the core so far (the next piece's first rank).
        self._taken = 0
        #: Whether the interval had any trace text while the channel was open: ns-2's M
        #: lines are written with it even when every core line is filtered out.
        self._any = False
        #: Simulated seconds of the next step of :meth:`run_to`.
        self._step = FIRST_STEP
        #: The setdest ``M`` lines in time order, and how many are written (or passed by
        #: with no channel open): ns-2 writes each once, when its setdest runs.
        self._moves: list[tuple[_Key, str]] | None = None
        self._moves_done = 0
        #: The nam `n` line of each setdest, by its `M` line's key.
        self._nam_moves: dict[_Key, str] | None = None

    def run_to(
        self,
        sim: Any,
        start: float,
        until: float,
        write: Callable[[str], None] | None,
        nam: Callable[[str], None] | None = None,
    ) -> bool:
        """Runs ``sim`` from where it is paused (``start`` seconds) to ``until`` in steps,
        handing the trace of each step to :meth:`add`. Pausing the core changes nothing in
        the run (the events between pauses are those of one run), so the steps only bound
        the text held at once: each is sized from the last one's text towards
        :data:`STEP_BYTES`. Returns False when the core paused earlier, at a ping reply for
        the script (the trace is then handed over up to that instant)."""
        t = start
        while True:
            target = min(until, t + self._step)
            reached = sim.run_until(target)
            text, changes = sim.take_ns2_trace_vars()
            if not reached:
                self.add(text, write, sim.now, nam, changes)
                return False
            self.add(text, write, target, nam, changes)
            if target >= until:
                return True
            # Towards the target text size, at most halving or doubling per step.
            scale = min(2.0, max(0.5, STEP_BYTES / max(len(text), 1)))
            self._step = min(MAX_STEP, max(MIN_STEP, (target - t) * scale))
            t = target

    def add(
        self,
        text: str,
        write: Callable[[str], None] | None,
        until: float = float("inf"),
        nam: Callable[[str], None] | None = None,
        changes: list | tuple = (),
    ) -> None:
        """A piece of the core's trace, the pieces in the order the core wrote them; ``write``
        is None when the script has no open trace channel (the piece is then dropped, as
        ns-2 would never have written it). ``nam`` writes into the open nam channel: a wired
        piece's nam lines go there at once, in the same order. ``changes``: the traced TCP
        variables' changes the core recorded with the piece, each with its offset in it. A
        wired piece is cut at those offsets and each change's line written between the
        lines before and after it, as ns-2 writes both into one channel when a script
        attaches its agents to the trace file; a wireless piece's lines wait for
        :meth:`flush`, and the changes' lines go after them."""
        var_traces = self.translation.model.var_traces
        if self.wireless or not changes:
            self._add(text, write, until, nam)
            var_traces.defer(changes)
            return
        start = 0
        k = 0
        while k < len(changes):
            at, t = changes[k][0], changes[k][1]
            group = []
            while k < len(changes) and changes[k][0] == at:
                group.append(changes[k])
                k += 1
            self._add(text[start:at], write, t, nam)
            start = at
            var_traces.write_now(group)
        self._add(text[start:], write, until, nam)

    def _add(
        self,
        text: str,
        write: Callable[[str], None] | None,
        until: float,
        nam: Callable[[str], None] | None,
    ) -> None:
        model = self.translation.model
        if not self.wireless:
            if nam is not None:
                nam(self.translation.nam_packets(text, until))
            else:
                self.translation.skip_nam_link_events(until)
        if (model.monitors or model.queue_stats) and text:
            model.queue_monitors.count(text, until)
        if not self.wireless and write is None:
            self.translation.skip_link_events(until)
        if not text or write is None:
            return
        self._any = True
        if not self.wireless:
            write(self.translation.rewrite_trace(text, until))
            return
        entries = self.translation.wireless_entries(text, self._taken)
        if self.translation.model.links:
            # Wired-cum-wireless: the links' lines go into the same file, in time order.
            entries += self.translation.wired_entries(text, self._taken)
        self._taken += text.count("\n") + 1
        self._lines.extend(entries)
        if len(self._lines) >= SPILL_LINES:
            self._spill()

    def _moves_until(self, now: float, final: bool) -> list[tuple[_Key, str]]:
        """The ``M`` lines not yet taken whose setdest ran before ``now`` (at or before it
        when the run ends there), taken."""
        if self._moves is None:
            self._moves = sorted(self.translation.movement_entries(), key=lambda e: e[0])
        start = self._moves_done
        end = start
        while end < len(self._moves) and (
            self._moves[end][0][0] < now or (final and self._moves[end][0][0] <= now)
        ):
            end += 1
        self._moves_done = end
        return self._moves[start:end]

    def flush(
        self,
        write: Callable[[str], None] | None,
        now: float,
        final: bool = False,
        nam: Callable[[str], None] | None = None,
    ) -> None:
        """The script can see the file now (``now`` seconds; the run's events before it
        have run, or all of them up to it if the run ends there): writes the interval's
        wireless lines, merged in time order with the ``M`` lines of the setdests that ran
        in it, and starts a new interval. ``nam`` writes into the open nam channel: the
        same lines' nam lines, in the same order (ternsim.ns2.nam)."""
        if self.wireless and (write is None or self._any):
            moves = self._moves_until(now, final)
        if self.wireless and write is not None and self._any:
            self._lines.sort(key=lambda e: e[0])
            merged = heapq.merge(
                moves, self._lines, *map(_read_run, self._runs), key=lambda e: e[0]
            )
            if nam is not None and self._nam_moves is None:
                self._nam_moves = dict(self.translation.movement_entries(nam=True))
            batch: list[str] = []
            nam_batch: list[str] = []
            wired_nam = self.translation.wired_nam_lines
            for key, line in merged:
                wired = wired_nam(line)
                if wired is not None:
                    # A link's line of a wired-cum-wireless run (its exact time last when
                    # a nam trace is open).
                    line, lines = wired
                    batch.append(line)
                    if nam is not None:
                        nam_batch += lines
                    continue
                batch.append(self.translation.written_line(line))
                if nam is not None:
                    if line.startswith("M "):
                        nam_batch.append(self._nam_moves[key])  # type: ignore[index]
                    else:
                        nam_batch += wireless_packet_lines(line)
                if len(batch) == WRITE_LINES:
                    self._write(write, nam, batch, nam_batch)
            self._write(write, nam, batch, nam_batch)
        for run in self._runs:
            run.close()
        self._lines, self._runs, self._taken, self._any = [], [], 0, False

    @staticmethod
    def _write(
        write: Callable[[str], None],
        nam: Callable[[str], None] | None,
        batch: list[str],
        nam_batch: list[str],
    ) -> None:
        if batch:
            write("".join(x + "\n" for x in batch))
        if nam is not None and nam_batch:
            nam("".join(x + "\n" for x in nam_batch))
        batch.clear()
        nam_batch.clear()

    def _spill(self) -> None:
        self._lines.sort(key=lambda e: e[0])
        import tempfile  # only a long wireless trace spills (tempfile imports shutil, bz2...)

        run = tempfile.TemporaryFile("w+", encoding="utf-8", prefix="ternsim-trace-")
        for (t, k, r), line in self._lines:
            # repr of a float reads back as the same float: the merge compares exact keys.
            run.write(f"{t!r} {k} {r} {line}\n")
        run.seek(0)
        self._runs.append(run)
        self._lines = []


def _read_run(run: IO[str]) -> Iterator[tuple[_Key, str]]:
    for row in run:
        t, k, r, line = row.rstrip("\n").split(" ", 3)
        yield (float(t), int(k), int(r)), line
