"""What a Mobile IP handoff did to a TCP flow, read from the old CMU wireless trace that both
ns-2.35 and ``ternsim ns2`` write for a wired-cum-wireless script (agent trace ON).

The mobile host's ``r ... AGT ... tcp`` lines are its sink's arrivals, with the segment's
sequence number (``[seq ack]`` after the IP part). From them:

* goodput in a window: distinct segments first received in it, times the segment size;
* the outage: the longest silence between two arrivals after ``moving_from`` (the host has
  left the home agent's cell and no segment reaches it until the foreign agent delivers
  one); its end, the first arrival via the foreign agent, is the *handoff time*.

Retransmissions and timeouts are the sender's ``nrexmitpack_`` and ``nrexmit_``, which the
script prints (``retransmissions N timeouts M``).

This module does not run anything.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

_ARRIVAL = re.compile(
    r"^r (?P<t>\S+) _(?P<node>\d+)_ AGT\s+--- \d+ tcp \d+ .*?------- \[[^\]]*\] \[(?P<seq>\d+) "
)
_COUNTS = re.compile(r"retransmissions (\d+) timeouts (\d+)")


@dataclass(frozen=True)
class Handoff:
    #: Goodput (kb/s) before the move, around the handoff, after it.
    before_kbps: float
    during_kbps: float
    after_kbps: float
    #: The last arrival via the home agent and the first via the foreign agent (s).
    outage_start: float
    handoff_time: float
    retransmissions: int
    timeouts: int


def arrivals(trace: str | Path, node: int) -> list[tuple[float, int]]:
    """(time, sequence number) of every TCP segment node ``node``'s agents received."""
    out = []
    with open(trace) as f:
        for line in f:
            if not line.startswith("r "):
                continue
            m = _ARRIVAL.match(line)
            if m is not None and int(m.group("node")) == node:
                out.append((float(m.group("t")), int(m.group("seq"))))
    return out


def goodput_kbps(arr: list[tuple[float, int]], start: float, end: float, size: int) -> float:
    """Distinct segments first received in [start, end), in kb/s of ``size``-byte segments."""
    seen: set[int] = set()
    count = 0
    for t, seq in arr:
        if seq in seen:
            continue
        seen.add(seq)
        if start <= t < end:
            count += 1
    return count * size * 8 / (end - start) / 1e3


def handoff(
    trace: str | Path,
    stdout: str,
    *,
    node: int,
    moving_from: float,
    windows: tuple[float, float, float, float],
    size: int = 1000,
) -> Handoff:
    """The handoff of the host ``node`` whose walk starts at ``moving_from``; ``windows`` are
    the bounds (t0, t1, t2, t3) of the before [t0, t1), during [t1, t2) and after [t2, t3)
    goodput windows."""
    arr = arrivals(trace, node)
    later = [t for t, _ in arr if t >= moving_from]
    gaps = [(b - a, a, b) for a, b in zip(later, later[1:])]
    _, start, end = max(gaps) if gaps else (0.0, float("nan"), float("nan"))
    m = _COUNTS.search(stdout)
    if m is None:
        raise ValueError("the script printed no `retransmissions N timeouts M` line")
    t0, t1, t2, t3 = windows
    return Handoff(
        before_kbps=goodput_kbps(arr, t0, t1, size),
        during_kbps=goodput_kbps(arr, t1, t2, size),
        after_kbps=goodput_kbps(arr, t2, t3, size),
        outage_start=start,
        handoff_time=end,
        retransmissions=int(m.group(1)),
        timeouts=int(m.group(2)),
    )
