"""What ns-2 itself prints while it runs a wireless script, besides the script's own output.

ns-2.35's C++ code writes a few lines of its own (every user of its wireless model sees them):
``num_nodes is set N`` when ``create-god`` sizes God (``God::command``), and on the first
frame a channel sends ``channel.cc:sendUp - Calc highestAntennaZ_ and distCST_`` with
``highestAntennaZ_ = Z,  distCST_ = D`` (``WirelessChannel::sendUp``: the highest antenna and
the carrier-sense distance, by the propagation model's inverse at ``CSThresh_``), all on C's
stdout; on stderr, at once, ``INITIALIZE THE LIST xListHead`` when the first node joins a
channel (``addNodeToList``) and ``SORTING LISTS ...DONE!`` at that first frame
(``sortLists``), and from the Tcl library ``warning: Please use -channel as shown in
tcl/ex/wireless-mitf.tcl`` once, at the first ``node-config -channelType``.

C's stdout is its own buffer: on a terminal each line appears as it is written, in time order
with the script's ``puts``; into a pipe or a file the buffer is only emptied when ns exits,
after Tcl has written all the script's output. This module holds the C lines accordingly and
writes stderr lines at once.
"""

from __future__ import annotations

import math
import sys

# typing.TYPE_CHECKING without importing typing (start-up time).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Callable

#: The warning ns-2's `Simulator node-config` gives (once) for `-channelType`.
CHANNEL_TYPE_WARNING = "warning: Please use -channel as shown in tcl/ex/wireless-mitf.tcl"


class NsMessages:
    """ns-2's own output lines of one run. Until the run starts (the script's static part
    translated, nothing refused) every line is held, so that a refused script prints only
    its refusal; then the stderr lines are written and the C stdout lines go on as C would
    (at once on a terminal, at exit otherwise)."""

    def __init__(self) -> None:
        #: Lines before the run: (stream, line), stream "out" (C stdout) or "err".
        self.pending: list[tuple[str, str]] = []
        self.started = False
        #: C stdout lines waiting for exit (stdout is not a terminal).
        self.held: list[str] = []
        self.terminal = sys.stdout.isatty()
        self.warned_channel_type = False
        #: Channels (handles) that have had a node added.
        self.channels_listed: set[str] = set()
        #: The first frame's lines were written.
        self.first_frame_done = False
        #: Writes out the script's pending Tcl stdout (set by the simulator).
        self.tcl_flush: Callable[[], None] = lambda: None

    def c_stdout(self, line: str) -> None:
        """A line ns-2 writes with C's stdio."""
        if not self.started:
            self.pending.append(("out", line))
        elif self.terminal:
            self.tcl_flush()
            sys.stdout.write(line + "\n")
            sys.stdout.flush()
        else:
            self.held.append(line)

    def stderr(self, line: str) -> None:
        if not self.started:
            self.pending.append(("err", line))
            return
        sys.stderr.write(line + "\n")
        sys.stderr.flush()

    def start(self) -> None:
        """The run starts: the lines held so far go out, in order."""
        self.started = True
        pending, self.pending = self.pending, []
        for stream, line in pending:
            (self.c_stdout if stream == "out" else self.stderr)(line)

    def channel_type_warning(self) -> None:
        if not self.warned_channel_type:
            self.warned_channel_type = True
            self.stderr(CHANNEL_TYPE_WARNING)

    def node_joins(self, channel: str) -> None:
        """A mobile node was added to ``channel``: the first one starts its node list."""
        if channel not in self.channels_listed:
            self.channels_listed.add(channel)
            self.stderr("INITIALIZE THE LIST xListHead")

    def first_frame(self, antenna_z: float, dist_cst: float) -> None:
        """The channel's first frame: its antenna height and carrier-sense distance."""
        if self.first_frame_done:
            return
        self.first_frame_done = True
        self.c_stdout("channel.cc:sendUp - Calc highestAntennaZ_ and distCST_")
        self.c_stdout(f"highestAntennaZ_ = {antenna_z:0.1f},  distCST_ = {dist_cst:0.1f}")
        self.stderr("SORTING LISTS ...DONE!")

    def at_exit(self) -> None:
        """ns exits (not refused): C's stdout buffer is written, after everything Tcl wrote."""
        if not self.started:
            self.start()
        if self.held:
            sys.stdout.flush()
            sys.stdout.write("".join(x + "\n" for x in self.held))
            sys.stdout.flush()
            self.held = []


def carrier_sense_distance(
    propagation: str, cs_threshold: float, pt: float, antenna_z: float, system_loss: float,
    frequency_hz: float,
) -> float:  # fmt: skip
    """ns-2.35's ``distCST_``: the distance at which the received power falls to
    ``CSThresh_`` (gains 1), by the inverse of the channel's propagation model: two-ray ground
    ``(Pt·hr²·ht² / Pr)^(1/4)`` (``TwoRayGround::getDist``, no system loss, no crossover),
    free space ``√(Pt·λ² / (L·Pr)) / 4π`` (``FreeSpace::getDist``); shadowing none, DBL_MAX
    (``Shadowing::getDist``: a frame reaches every node, which draws its own power)."""
    if propagation == "Propagation/Shadowing":
        return sys.float_info.max
    if propagation == "Propagation/FreeSpace":
        wavelength = 3e8 / frequency_hz  # ns-2's SPEED_OF_LIGHT
        return math.sqrt((pt * wavelength * wavelength) / (system_loss * cs_threshold)) / (
            4 * math.pi
        )
    return math.sqrt(math.sqrt(pt * (antenna_z * antenna_z * antenna_z * antenna_z) / cs_threshold))
