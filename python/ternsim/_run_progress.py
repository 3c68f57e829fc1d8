"""The progress line of a long single run: simulated time and events per second on stderr.

This module owns when the line appears (only on a terminal, only once a run has taken longer
than :data:`AFTER_SECONDS` of wall time, never with ``--quiet``), how often it is redrawn and
how it is cleared. The core calls :meth:`RunProgress.__call__` every 2**18 events
(:func:`ternsim.api.run`'s ``progress``); this module never touches the run.
"""

from __future__ import annotations

import sys
import time

# typing.TYPE_CHECKING without importing typing (about 5 ms, on the path of every run).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Callable, TextIO

__all__ = ["AFTER_SECONDS", "RunProgress"]

#: A run shorter than this (wall time) shows no progress line at all.
AFTER_SECONDS = 2.0
#: The line is redrawn at most this often.
REDRAW_SECONDS = 0.2


class RunProgress:
    """Callable progress hook: ``hook(simulated_seconds, events)``.

    ``duration`` is the run's simulated length in seconds (for "12.0 of 100 s"); ``stream``
    is stderr unless given; ``clock`` is :func:`time.monotonic` unless given (tests pass a
    fake one). Call :meth:`close` after the run to clear the line.
    """

    def __init__(
        self,
        duration: float | None,
        *,
        enabled: bool = True,
        stream: TextIO | None = None,
        clock: Callable[[], float] = time.monotonic,
        after: float = AFTER_SECONDS,
    ) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = enabled and _is_terminal(self.stream)
        self.duration = duration
        self.clock = clock
        self.after = after
        self.start = clock()
        self.last_draw = -1.0
        self.width = 0

    def __call__(self, simulated_seconds: float, events: int) -> None:
        if not self.enabled:
            return
        now = self.clock()
        elapsed = now - self.start
        if elapsed < self.after or now - self.last_draw < REDRAW_SECONDS:
            return
        self.last_draw = now
        line = self.line(simulated_seconds, events, elapsed)
        pad = " " * max(0, self.width - len(line))
        self.width = len(line)
        self.stream.write(f"\r{line}{pad}")
        self.stream.flush()

    def line(self, simulated_seconds: float, events: int, elapsed: float) -> str:
        """``simulated 12.3 s of 100 s (12 %), 3,456,789 events, 1.7 M events/s``."""
        of = ""
        if self.duration:
            share = 100.0 * simulated_seconds / self.duration
            of = f" of {self.duration:g} s ({share:.0f} %)"
        rate = events / elapsed if elapsed > 0 else 0.0
        return (
            f"simulated {simulated_seconds:.1f} s{of}, {events:,} events, "
            f"{rate / 1e6:.1f} M events/s"
        )

    def close(self) -> None:
        """Clears the line if one was drawn."""
        if self.width:
            self.stream.write("\r" + " " * self.width + "\r")
            self.stream.flush()
            self.width = 0


def _is_terminal(stream: TextIO) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False
