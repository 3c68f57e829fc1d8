"""Running an ns-2 script: the interpreter, the run, the callbacks after it, the exit status.

This module owns the Tcl 8.6 interpreter (``tkinter.Tcl()``, without Tk) set up as ``ns`` sets
its own (``argv``, ``argc``, ``argv0``, ``tcl_precision 17``), the replacement of ``exit`` and
``unknown``, the bookkeeping of files the script opens for writing (removed again when the script
is refused), and ``$ns run``: split the ``$ns at`` schedule into what the scenario holds
(application starts and stops, node moves) and callbacks, refuse callbacks before the last time
that read TCP state (they would need the simulation paused), run ternsim once to the time of the
last callback (with the seed the script gave, if any), then run the callbacks in time order
with ``$ns now`` at their time, writing the ns-2 trace into the channel the script gave
``trace-all`` up to each callback's time (the run goes in steps so that the trace is filtered
as it comes, :mod:`.trace_stream`).

Exit statuses: the script's own ``exit`` status; 2 when the script uses something this front end
does not support (one ``FILE:LINE: command: message`` line on stderr, nothing written); 1 for a
Tcl error in the script (its error info on stderr, as ``ns`` prints it).
"""

from __future__ import annotations

import heapq
import os
import re
import sys
from pathlib import Path

from . import classes
from .otcl import ObjectSystem, Refusal, ScriptError, ScriptExit
from .scenario import Translation, ns2_fid
from .simulator import Model, parse_events
from .trace_stream import TraceStream

# typing.TYPE_CHECKING without importing typing (about 5 ms of ternsim ns2's start).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable


class _Session:
    def __init__(
        self,
        path: Path,
        args: list[str],
        out: Path | None,
        seed: int,
        dry: bool = False,
        static: bool = False,
    ) -> None:
        import tkinter

        self.dry = dry or static
        #: Translate only the static part (--to-toml): callbacks are listed, not refused.
        self.static = static
        self.callbacks: list[Any] = []
        self.path = path
        self.file = os.path.realpath(path)
        self.out = out
        self.seed = seed
        self.refusal: str | None = None
        self.script_error = ""
        #: A failure of ternsim itself inside a command (a bug, not the script's): where,
        #: and the Python traceback.
        self.internal_error: str | None = None
        #: The `$ns at` callback running now and the Tcl frame depth below it, if any.
        self.callback: tuple[Any, int] | None = None
        #: The first callback that failed with a Tcl error, and the errorInfo then.
        self.callback_error: tuple[str, str] | None = None
        self.exit_code: int | None = None
        self.written: list[tuple[str, bytes | None]] = []
        self.result: Any = None
        tcl = tkinter.Tcl()
        self.tcl = tcl
        tcl.eval("set tcl_precision 17")
        # ns-2 defines PERL (its validation suites' `finish` procs run `exec $PERL ...`).
        tcl.setvar("PERL", "/usr/bin/perl")
        tcl.setvar("argv0", str(path))
        tcl.call("set", "argv", tuple(args))
        tcl.setvar("argc", str(len(args)))
        tcl.eval("namespace eval ::ns2 {}; rename open ::ns2::_open; rename close ::ns2::_close")
        tcl.createcommand("open", self._guard(self._open))
        tcl.createcommand("close", self._guard(self._close))
        tcl.createcommand("exit", self._guard(self._exit))
        tcl.createcommand("unknown", self._guard(self._unknown))
        self.objects = ObjectSystem(tcl, self._guard)
        self.model = Model(self.objects)
        self.model.where = self.where
        self.model.run_hook = self._run
        self.translation: Translation | None = None

    # --- commands ---------------------------------------------------------------------------

    def _guard(self, fn: Callable[..., str]) -> Callable[..., str]:
        import tkinter

        def call(*args: str) -> str:
            try:
                return fn(*args)
            except Refusal as exc:
                if self.refusal is None and self.exit_code is None:
                    self.refusal = f"{exc.where or self.where()}: {exc}"
                raise
            except ValueError as exc:
                if self.refusal is None and self.exit_code is None:
                    self.refusal = f"{self.where()}: {exc}"
                raise
            except ScriptError as exc:
                # A Tcl error the script may catch; its message, should it not.
                self.script_error = str(exc)
                raise
            except tkinter.TclError as exc:
                # A Tcl error inside a command written in Python (a proc an OTcl method or
                # a callback runs). On its way out the command's own clean-up may have made
                # Tcl calls that replaced the interpreter's result, which Tcl reports as the
                # error: set the message and errorInfo back first.
                info = str(self.tcl.getvar("::errorInfo"))
                self.tcl.call("error", str(exc), info)
                raise
            except ScriptExit:
                raise
            except Exception:
                # ternsim's own failure: reported as such (Tcl would show only a bare
                # result), the script stopped.
                if self.internal_error is None:
                    import traceback

                    self.internal_error = f"{self.where()}\n{traceback.format_exc()}"
                raise

        return call

    def where(self) -> str:
        """``script.tcl:LINE: command`` of the innermost command running now that comes from a
        file: the script, or a file it sources (a movement or connection file)."""
        tcl = self.tcl
        depth = int(tcl.eval("info frame"))
        for k in range(depth, 0, -1):
            if self.callback is not None and k <= self.callback[1] and self.callback[0].where:
                # In a callback's own script (not in a proc of a file it calls): the `$ns at`
                # line that scheduled it, rather than the `$ns run` that runs it.
                return str(self.callback[0].where)
            frame = tcl.splitlist(tcl.eval(f"info frame {k}"))
            d = dict(zip(frame[::2], frame[1::2]))
            if d.get("type") != "source" or not d.get("file"):
                continue
            file = str(d["file"])
            name = str(self.path) if os.path.realpath(file) == self.file else file
            cmd = str(d.get("cmd", "")).strip().splitlines()[0] if d.get("cmd") else ""
            return f"{name}:{d.get('line')}: {cmd}"
        return f"{self.path}"

    def _open(self, *args: str) -> str:
        if args:
            mode = args[1] if len(args) > 1 else "r"
            if any(c in mode for c in "wa+") or "WRONLY" in mode or "RDWR" in mode:
                p = os.path.abspath(args[0])
                before = Path(p).read_bytes() if os.path.isfile(p) else None
                self.written.append((p, before))
        return str(self.tcl.call("::ns2::_open", *args))

    def _exit(self, *args: str) -> str:
        code = int(args[0]) if args else 0
        self.exit_code = code
        raise ScriptExit(code)

    def _unknown(self, *args: str) -> str:
        name = args[0] if args else ""
        if name.startswith("_o"):
            raise Refusal("no such object")
        if name in classes.UNMODELLED:
            return self.objects.unmodelled_class(name, args[1:])
        raise Refusal(
            "not supported; supported: Simulator, new, Class and the classes "
            "Agent/TCP{,/Reno,/Newreno,/Sack1,/Fack,/SackRH,/Vegas}, Agent/TCPSink{,/DelAck,/Sack1,"
            "/Sack1/DelAck}, Agent/UDP, Agent/Null, Agent/LossMonitor, Agent/Ping, "
            "Application/FTP, Application/Telnet, "
            "Application/Traffic/{CBR,Exponential,Pareto}; for wireless scripts create-god, "
            "God, ns-random, Topography, Channel/WirelessChannel, Propagation/{TwoRayGround,"
            "FreeSpace,Shadowing} and the class variables of " + ", ".join(classes.WIRELESS_VARS)
        )

    # --- the run ----------------------------------------------------------------------------

    def _run(self) -> None:
        import tkinter

        from .. import api
        from .live import LIVE_FULL_TCP, LIVE_TCP, LiveState

        model = self.model
        actions, callbacks = parse_events(model, self.tcl)
        if not callbacks:
            raise Refusal(
                "the script schedules no end: not supported; give it a `$ns at TIME "
                '"finish"` whose proc writes its results and calls exit'
            )
        # The run lasts until the last callback scheduled before `$ns run` (where scripts
        # call their `finish`); callbacks scheduled later, by callbacks, run if they fall due
        # by then.
        end = max(ev.time for ev in callbacks)
        self.callbacks = callbacks
        if not self.static:
            available = LIVE_TCP
            full = [
                classes.is_a(model.o.builtin_base(a.cls), "Agent/TCP/FullTcp")
                for a in model.agents
                if classes.is_a(model.o.builtin_base(a.cls), "Agent/TCP")
            ]
            if full and all(full):
                # FullTcp agents only: their own table (no `ncwndcuts_`).
                available = LIVE_FULL_TCP
            self._refuse_unavailable_reads(callbacks, available)
        self.translation = Translation(model, actions, end)
        model.queue_monitors.start_queue_stats()
        numbers = self.translation._flow_numbers()
        model.queue_monitors.fid_of = lambda f: ns2_fid(numbers, f)
        if self.dry:
            self.exit_code = 0
            self._discard_files()
            raise ScriptExit(0)
        seed = model.seed if model.seed is not None else self.seed
        try:
            # Lines of layers the script traces nowhere would be filtered out: the core
            # leaves them out instead.
            omit = self.translation.untraced_layers()
            sim = api.Simulation(
                self.translation.scenario,
                seed=seed,
                ns2_trace=self.translation.needs_packet_lines(),
                ns2_omit=omit,
                ns2_mac=self.translation.mac_traced(),
                ns2_events=self.translation.events,
                ns2_newtrace=model.newtrace,
                # The nam trace prints each event's exact double (`%.15g`); the queue
                # monitors' integrators sum over exact times.
                ns2_exact_times=model.nam.channel is not None
                or bool(model.monitors)
                or bool(model.queue_stats),
            )
        except api.ScenarioError as exc:
            raise Refusal(f"ternsim refused the translated scenario: {exc.message}") from None
        self.stream = TraceStream(self.translation)
        # Nothing was refused: ns-2's own lines so far go out.
        model.messages.start()
        model.live = LiveState(sim._sim, self.translation.ends, self.objects)
        draws = self.translation.default_rng_draws()
        if draws is not None:
            sim._sim.replay_ns2_default_rng(*draws)
        model.var_traces.start(model.live)
        #: Per ping flow of the script: its agents' `recv` runs as each reply arrives.
        if any(model.o.builtin_base(s.cls) == "Agent/Ping" for s, _ in self.translation.ends):
            sim.keep_ping_replies()
        due = [(ev.time, ev.seq, ev) for ev in callbacks]
        heapq.heapify(due)
        model.schedule_hook = lambda ev: heapq.heappush(due, (ev.time, ev.seq, ev))
        self._dynamics_runs(due)
        model.pull_trace = lambda: self._pull_trace(sim)
        final_resets = list(self.translation.final_resets)
        try:
            while due and not model.halted:
                t, _, ev = due[0]
                if t > end:
                    break
                # The callback sees the state before the packet events of its own instant,
                # as in ns-2, where it was queued before them.
                writer, nam = self._trace_writer(), model.nam.writer()
                reached = self.stream.run_to(sim, sim.now, t, writer, nam)
                self._first_frame(sim)
                if not reached:
                    # A ping reply arrived first: its agent's `recv` runs now, and may
                    # schedule callbacks before t.
                    self._ping_recv(sim)
                    continue
                heapq.heappop(due)
                model.now = t
                if t == end and final_resets:
                    for node in final_resets:
                        sim.reset_node(node)
                    final_resets = []
                self._pull_trace(sim)
                self.callback = (ev, int(self.tcl.eval("info frame")))
                try:
                    self.tcl.call("uplevel", "#0", ev.script)
                except tkinter.TclError:
                    if self.callback_error is None:
                        self.callback_error = (ev.script, str(self.tcl.getvar("::errorInfo")))
                    raise
                finally:
                    self.callback = None
        finally:
            if self.refusal is None and model.live.final is None:
                self._end_run(sim)

    def _first_frame(self, sim: Any) -> None:
        """ns-2's lines at its channel's first frame, once the run has passed it (before the
        callbacks of later instants print anything)."""
        model = self.model
        if model.messages.first_frame_done or model.radio_reach is None:
            return
        if sim._sim.first_radio_frame() is not None:
            z, dist = model.radio_reach
            model.messages.first_frame(z, dist)

    def _dynamics_runs(self, due: list) -> None:
        """When the script gave `trace-dynamics` a channel: ns-2's rtQueue runs become
        callbacks that write its lines there (:meth:`Model.dynamics_lines`), so that they
        come among the script's own output in ns-2's order. As in ns-2, the runs the models
        place when the run starts are `$ns at`s after the script's, and each later run is
        placed by the run before it, when that one runs."""
        from .simulator import Event

        model = self.model
        if not model.rtq_runs or not any(d for link in model.links for d in link.dynamics):
            return

        def place(by: int) -> None:
            for k, run in enumerate(model.rtq_runs):
                if run.placed_by == by:
                    ev = Event(run.time, len(model.events), f"::ns2::rtq_run {k}", "")
                    model.events.append(ev)
                    heapq.heappush(due, (ev.time, ev.seq, ev))

        def rtq_run(k: str) -> str:
            lines = model.dynamics_lines(model.rtq_runs[int(k)])
            open_channels = set(self.tcl.splitlist(self.tcl.call("file", "channels")))
            for channel, line in lines:
                if channel in open_channels:
                    self.tcl.call("puts", channel, line)
            place(int(k))
            return ""

        self.tcl.createcommand("::ns2::rtq_run", self._guard(rtq_run))
        place(-1)

    def _ping_recv(self, sim: Any) -> None:
        """Calls each ping agent that got a reply: ns-2's `$agent recv FROM RTT` (or with
        `oneway` `$agent recv FROM SEQ FORWARD REVERSE`), the times in milliseconds with
        C's `%3.1f`, FROM the replier's node (ns-2.35 `PingAgent::recv`)."""
        o = self.model.o
        for reply in sim.ping_replies():
            sender, answer = self.translation.ends[reply["index"]]
            me, other = (answer, sender) if reply["end"] == "sink" else (sender, answer)
            frm = other.info["node"].info["id"]
            at, sent, reached = reply["at"], reply["sent"], reply["reached"]
            if me.info.get("oneway"):
                forward, back = (reached - sent) * 1000, (at - reached) * 1000
                args = f"{frm} {reply['seq']} {forward:3.1f} {back:3.1f}"
            else:
                args = f"{frm} {(at - sent) * 1000:3.1f}"
            self.model.now = at
            self._pull_trace(sim)
            if o._find_instproc(me.cls, "recv") is None:
                raise Refusal(
                    f"{me.name} recv {args}: the ping agent got a reply and the script "
                    "defines no `Agent/Ping instproc recv` (ns-2 stops with this error)"
                )
            self.tcl.eval(f"{me.name} recv {args}")

    def _pull_trace(self, sim: Any, final: bool = False) -> None:
        """Writes the trace lines recorded since the last call into the script's trace file
        (``final``: the run ends where it is paused)."""
        if self.model.live is None or self.model.live.final is not None:
            return
        write = self._trace_writer()
        # The core ran every event before now (at the end: every event of the run). Now
        # is the exact time the run paused at (a callback's `$ns now`): the core's own clock
        # reads its nanosecond back as a double (3 s + 0.8 s is 3.8000000000000003), and
        # an event of that nanosecond at 3.8 s has not run when the pause is at 3.8.
        until = float("inf") if final else min(float(sim.now), self.model.now)
        nam = self.model.nam.writer()
        text, changes = sim.take_ns2_trace_vars()
        self.stream.add(text, write, until, nam, changes)
        self.stream.flush(write, float(sim.now), final, nam)
        self.model.var_traces.drain(sim)

    def _trace_writer(self) -> Callable[[str], None] | None:
        """Writes text into the script's trace-all channel, and the lines of the link
        directions given to `trace-queue` with another file into that file too; None when
        none of these channels is open."""
        ch = self.model.trace_channel
        open_channels = set(self.tcl.splitlist(self.tcl.call("file", "channels")))
        main = ch if ch is not None and ch in open_channels else None
        extra = [(c, p) for c, p in self.model.queue_traces.items() if c in open_channels]
        if main is None and not extra:
            return None
        if not extra:
            return lambda text: self.tcl.call("puts", "-nonewline", main, text)
        only = self.model.queue_only

        def write(text: str) -> None:
            lines = text.splitlines(keepends=True)
            if main is not None:
                if only:
                    text = "".join(x for x in lines if tuple(x.split(" ", 4)[2:4]) not in only)
                self.tcl.call("puts", "-nonewline", main, text)
            for channel, pairs in extra:
                mine = [x for x in lines if tuple(x.split(" ", 4)[2:4]) in pairs]
                if mine:
                    self.tcl.call("puts", "-nonewline", channel, "".join(mine))

        return write

    def _end_run(self, sim: Any) -> None:
        """The script exited or ran out of callbacks: end the simulation where it is paused,
        keep the agents' final state for later reads, write the result folder."""
        self._pull_trace(sim, final=True)
        self._first_frame(sim)
        self.model.live.end()
        result = sim.stop()
        self.result = result
        if self.out is not None:
            result.write(self.out)

    def _close(self, *args: str) -> str:
        model = self.model
        if args and (
            args[0] in (model.trace_channel, model.nam.channel)
            or args[0] in model.queue_traces
            or args[0] in model.var_traces.channels()
        ):
            self.model.pull_trace()
        return str(self.tcl.call("::ns2::_close", *args))

    def _refuse_unavailable_reads(self, callbacks: list, available: tuple[str, ...]) -> None:
        """Refuses, before the run, a script whose procs or callbacks read TCP state that the
        run does not keep (``$tcp set nackpack_``, a RED queue's ``ave_``), naming the first
        such line of the script."""
        missing = [v for v in classes.TCP_STATE if v not in available] + classes.RED_STATE
        pattern = re.compile(r"\bset\s+(" + "|".join(missing) + r")(?=\s*(\]|;|$|\"))", re.M)
        tcl = self.tcl
        texts = [ev.script for ev in callbacks]
        # The global procs (`$ns run` may be called inside a method: name them fully). A
        # method (instproc) reading such state is refused when the read happens.
        for proc in tcl.splitlist(tcl.call("info", "procs", "::*")):
            texts.append(str(tcl.call("info", "body", proc)))
        found = next((m for m in map(pattern.search, texts) if m), None)
        if found is None:
            return
        var = found.group(1)
        what = f"available: {', '.join(available)}"
        if var in classes.RED_STATE:
            what = "a RED queue's state is not reported"
        where = str(self.path)
        for i, line in enumerate(self.path.read_text(errors="replace").splitlines(), 1):
            if pattern.search(line):
                where = f"{self.path}:{i}: {line.strip()}"
                break
        raise Refusal(f"{var}: not available; {what}", where=where)

    def execute(self) -> int:
        import tkinter

        try:
            self.tcl.call("source", str(self.path))
        except tkinter.TclError:
            if self.internal_error is not None:
                self._discard_files()
                sys.stderr.write(
                    "ternsim ns2: internal error (a bug in ternsim, not in the script; "
                    f"please report it with the script) at {self.internal_error}"
                )
                return 70  # EX_SOFTWARE
            if self.refusal is None and self.exit_code is None:
                info = str(self.tcl.getvar("errorInfo"))
                if self.script_error and not info.split("\n", 1)[0].strip():
                    info = self.script_error + info
                if self.callback_error is not None:
                    # ns-2's `tkerror` prints the report with `puts`: on standard output.
                    self.tcl.call("puts", "stdout", callback_error_report(*self.callback_error))
                    self._finish_channels()
                    self.model.messages.at_exit()
                    return 1
                self._finish_channels()
                sys.stderr.write(f"{info}\n")
                self.model.messages.at_exit()
                return 1
        if self.refusal is not None:
            self._discard_files()  # a refused script writes no file
            if not self.dry:
                sys.stderr.write(" ".join(self.refusal.split()) + "\n")
            return 2
        self._finish_channels()
        if not self.dry:  # a translation runs nothing: ns-2 printed nothing of its own
            self.model.messages.at_exit()
        return self.exit_code or 0

    def _finish_channels(self) -> None:
        import tkinter

        for ch in self.tcl.splitlist(self.tcl.call("file", "channels")):
            if ch in ("stdout", "stderr"):
                self.tcl.call("flush", ch)
            elif ch != "stdin":
                try:
                    self.tcl.call("close", ch)
                except tkinter.TclError:
                    # Closing a trace channel first writes what the run recorded into it;
                    # after a script error that step may fail again. Close it as it is: the
                    # error being reported matters, not a second one.
                    if ch in self.tcl.splitlist(self.tcl.call("file", "channels")):
                        self.tcl.call("::ns2::_close", ch)

    def _discard_files(self) -> None:
        for ch in self.tcl.splitlist(self.tcl.call("file", "channels")):
            if ch not in ("stdin", "stdout", "stderr"):
                self.tcl.call("close", ch)
        self.tcl.call("flush", "stdout")
        for p, before in reversed(self.written):
            if before is None:
                if os.path.isfile(p):
                    os.remove(p)
            else:
                Path(p).write_bytes(before)


def run_script(
    path: str | os.PathLike[str],
    args: list[str] | tuple[str, ...] = (),
    *,
    out: str | os.PathLike[str] | None = None,
    seed: int = 1,
) -> int:
    """Runs an ns-2 script as ``ns SCRIPT ARGS`` would; returns its exit status.

    ``puts`` writes to this process's stdout, files the script opens are written as in ns-2,
    and with ``out`` the run's ternsim result folder is written too. Raises FileNotFoundError
    for a missing script.
    """
    p = Path(path)
    if not p.is_file():
        raise FileNotFoundError(f"ns-2 script not found: {path}")
    sys.stdout.flush()
    session = _Session(p, [str(a) for a in args], Path(out) if out is not None else None, seed)
    return session.execute()


def script_to_toml(
    path: str | os.PathLike[str], args: list[str] | tuple[str, ...] = ()
) -> tuple[str, list[str]]:
    """The ternsim scenario file (TOML text) for the static part of an ns-2 script, and the
    ``$ns at`` scripts it could not express (``FILE:LINE: LINE TEXT``, in time order).

    The static part is what exists when ``$ns run`` is reached: nodes, links and queues, the
    agents and their settings, application starts and stops; the run lasts until the last
    ``$ns at`` callback, which is where ns-2 scripts call their ``finish``. Every other
    callback (a ``finish`` proc, a sampling ``record`` proc) is code the scenario file cannot
    hold; those are listed in the file's header comment and returned. Raises ScriptRefused
    as :func:`translate_script` does.
    """
    from .._toml_write import dumps

    session = _Session(Path(path), [str(a) for a in args], None, 1, static=True)
    code = session.execute()
    if session.refusal is not None:
        raise ScriptRefused(" ".join(session.refusal.split()))
    if session.translation is None:
        raise ScriptRefused(f"{path}: the script ended (status {code}) before `$ns run`")
    left = [ev.where or f'at {ev.time:g} "{ev.script}"' for ev in session.callbacks]
    argv = " ".join(str(a) for a in args)
    header = [
        f"# ternsim scenario translated from the ns-2 script {Path(path).name}"
        + (f" (arguments: {argv})" if argv else "")
        + " by `ternsim ns2 --to-toml`.",
        "# Its static part: nodes, links, queues, agents and their settings, application",
        "# starts and stops; the run ends at the script's last `$ns at` time.",
    ]
    if left:
        header.append("# Not expressed (Tcl code a scenario file cannot hold):")
        header.extend(f"#   {line}" for line in left)
    scenario = dict(session.translation.scenario)
    scenario["name"] = Path(path).stem
    return "\n".join(header) + "\n\n" + dumps(scenario), left


def callback_error_report(script: str, info: str) -> str:
    """What ns-2 prints (on standard output) when an `$ns at` callback fails: tclcl's
    `Tcl::eval` hands the error to `tkerror {ns: SCRIPT}`, which prints that, `: ` and the
    errorInfo of the
    callback's own evaluation (ternsim's ends in the frames of its `uplevel` and of `$ns
    run`, cut here), and ns exits with status 1."""
    cut = info.find('\n    ("uplevel" body line 1)')
    if cut >= 0:
        info = info[:cut]
    return f"ns: {script}: {info}"


class ScriptRefused(Exception):
    """The script uses something the front end does not support (``FILE:LINE: ...``)."""


def translate_script(
    path: str | os.PathLike[str], args: list[str] | tuple[str, ...] = ()
) -> dict[str, Any]:
    """The ternsim scenario an ns-2 script builds, without running it.

    The script runs up to ``$ns run`` (its ``puts`` before that are printed) and stops there;
    files it opened for writing are removed again. Raises ScriptRefused with the
    ``FILE:LINE: command: message`` text for what the front end does not support.
    """
    session = _Session(Path(path), [str(a) for a in args], None, 1, dry=True)
    code = session.execute()
    if session.refusal is not None:
        raise ScriptRefused(" ".join(session.refusal.split()))
    if session.translation is None:
        raise ScriptRefused(f"{path}: the script ended (status {code}) before `$ns run`")
    return session.translation.scenario
