"""ns-2's traced variables: ``$tcp attach CHANNEL; $tcp trace VAR`` on TCP agents and
``$redq attach CHANNEL; $redq trace VAR`` on RED queues.

This module owns what a script's traced variables write into its channel: the line ns-2.35's
``TcpAgent::traceVar`` (tcp/tcp.cc) prints for each assignment that changes a traced
variable, ``%-8.5f %-2d %-2d %-2d %-2d %s VALUE`` (time, the agent's address and port, its
peer's address and port, the name), with ``cwnd_`` as ``%-6.3f``, ``rtt_``, ``srtt_`` and
``rttvar_`` as seconds (``%-6.3f`` of the tick count times ``tcpTick_``; ``srtt_`` shifted
right by ``T_SRTT_BITS`` first, ``rttvar_`` divided by 4) and every other one as ``%d``.

Three moments write lines, as in ns-2:

- ``trace`` itself writes the variable's value at once (tclcl traces the variable when it is
  hooked). Before the run that is the value the agent's creation gave it: ns-2 resets a TCP
  agent when it makes it, from the class defaults then (a ``$tcp set window_ 40`` after
  ``new`` changes ``ssthresh_`` only at the next reset).
- ``$ns run`` resets the agent again: each traced variable the per-object settings change
  (``ssthresh_`` from ``window_``, ``cwnd_`` from ``windowInit_``/``syn_``, ``srtt_`` and
  ``rttvar_`` from ``tcpTick_``) writes a line at time 0, in ``TcpAgent::reset``'s order.
- During the run the core reports each change (``ternsim.api.Simulation.trace_tcp_var``)
  with the place in its wired trace where it happened, and the trace stream writes the line
  there (:meth:`VarTraces.write_now`): a script that attaches its agent to its trace-all file
  gets ns-2's file, each change between the packet lines of the events before and after it
  (after the ``r`` line of the ACK that opened the window, before the ``+`` lines of the
  segments it let out). With a wireless trace the lines follow the piece's lines.

A RED queue (ns-2.35 ``REDQueue::trace``, queue/red.cc) traces ``curq_`` (the queue an
arrival finds, packets or bytes) as ``Q %g %d`` and ``ave_`` (the average after the
arrival's estimator step) as ``a %g %g``; ns-2 assigns both at every arrival, ``ave_`` first.
RED's early drops draw from ternsim's stream, not ns-2's, so a run agrees with ns-2 line for
line only up to its first early drop.

It knows nothing of the run loop: the interpreter calls :meth:`VarTraces.start` and
:meth:`VarTraces.drain`.
"""

from __future__ import annotations

from . import classes
from .otcl import Obj, Refusal

# typing.TYPE_CHECKING without importing typing (about 5 ms of ternsim ns2's start).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: The TCP variables a script may trace, in the order `TcpAgent::reset` assigns them.
TRACEABLE = (
    "rtt_",
    "srtt_",
    "rttvar_",
    "backoff_",
    "dupacks_",
    "cwnd_",
    "t_seqno_",
    "maxseq_",
    "ack_",
    "ssthresh_",
    "ndatapack_",
    "ndatabytes_",
    "nrexmitbytes_",
    "nrexmit_",
    "nrexmitpack_",
    "ncwndcuts_",
)

#: The RED variables a script may trace.
RED_TRACEABLE = ("curq_", "ave_")

#: The settings a reset reads, with ns-2.35's defaults (tcl/lib/ns-default.tcl).
_RESET_SETTINGS = {
    "window_": "20",
    "windowInit_": "2",
    "syn_": "true",
    "delay_growth_": "true",
    "tcpTick_": "0.01",
    "srtt_init_": "0",
    "rttvar_init_": "12",
    "T_SRTT_BITS": "3",
    "T_RTTVAR_BITS": "2",
}


def reset_values(settings: dict[str, str]) -> dict[str, float]:
    """The traced variables after ns-2's ``TcpAgent::reset`` with ``settings``
    (``rtt_init``, ``set_initial_window``, ...), in ns-2's representation."""
    tick = float(settings["tcpTick_"])
    syn = classes.boolean(settings["syn_"]) and classes.boolean(settings["delay_growth_"])
    return {
        "rtt_": 0,
        "srtt_": int(float(settings["srtt_init_"]) / tick) << int(settings["T_SRTT_BITS"]),
        "rttvar_": int(float(settings["rttvar_init_"]) / tick) << int(settings["T_RTTVAR_BITS"]),
        "backoff_": 1,
        "dupacks_": 0,
        "cwnd_": 1.0 if syn else float(settings["windowInit_"]),
        "t_seqno_": 0,
        "maxseq_": -1,
        "ack_": -1,
        "ssthresh_": int(float(settings["window_"])),
        "ndatapack_": 0,
        "ndatabytes_": 0,
        "nrexmitbytes_": 0,
        "nrexmit_": 0,
        "nrexmitpack_": 0,
        "ncwndcuts_": 0,
    }


class VarTraces:
    """The traced variables of a script's TCP agents."""

    def __init__(self, model: Any) -> None:
        self.model = model
        #: Agents with an attached channel or a traced variable, in the order first seen.
        self.agents: list[Obj] = []
        #: Flow index -> agent, once the run has started.
        self.by_flow: dict[int, Obj] = {}
        #: RED queues with an attached channel or a traced variable.
        self.queues: list[Obj] = []
        #: Core device -> RED queue, once the run has started.
        self.by_device: dict[int, Obj] = {}
        #: Changes taken with a trace piece whose lines are written later (:meth:`defer`).
        self._deferred: list = []

    def on_create(self, agent: Obj) -> None:
        """A TCP agent was made: ns-2 resets it from the class defaults now."""
        agent.info["var_settings"] = self._settings(agent)

    def _settings(self, agent: Obj) -> dict[str, str]:
        o = self.model.o
        settings = {
            v: o.getvar(agent, v) if o.hasvar(agent, v) else default
            for v, default in _RESET_SETTINGS.items()
        }
        if classes.is_a(o.builtin_base(agent.cls), "Agent/TCP/FullTcp"):
            # FullTcpAgent::set_initial_window: FullTcp always models the SYN exchange.
            settings["syn_"] = "true"
        return settings

    # --- the agent's commands --------------------------------------------------------------

    def attach(self, obj: Obj, args: tuple) -> str:
        """``$tcp attach CHANNEL`` or ``$redq attach CHANNEL``: traced variables write into
        CHANNEL from now on."""
        if len(args) != 1:
            raise Refusal("attach: give a channel")
        tcl = self.model.o.tcl
        if args[0] not in tcl.splitlist(tcl.call("file", "channels")):
            raise Refusal(f"attach {args[0]}: not an open channel")
        obj.info["var_channel"] = args[0]
        known = self.queues if self.model.o.builtin_base(obj.cls) == "Queue/RED" else self.agents
        if obj not in known:
            known.append(obj)
        return ""

    def trace(self, agent: Obj, args: tuple) -> str:
        """``$tcp trace VAR``: VAR's changes are traced; its value now is written at once."""
        if len(args) != 1:
            raise Refusal("trace: give one variable")
        var = args[0]
        if var not in TRACEABLE:
            raise Refusal(
                f"trace {var}: not supported; traceable TCP variables: {', '.join(TRACEABLE)}"
            )
        o = self.model.o
        mode = "trace_all_oneline_"
        if o.hasvar(agent, mode) and classes.boolean(o.getvar(agent, mode)):
            raise Refusal(f"trace {var} with {mode} true: not supported")
        if self.model.hierarchical:
            raise Refusal(f"trace {var} with hierarchical addresses: not supported")
        full = classes.is_a(o.builtin_base(agent.cls), "Agent/TCP/FullTcp")
        if full and var != "cwnd_":
            raise Refusal(f"trace {var} of a FullTcp agent: not supported; supported: cwnd_")
        if full and agent.info.get("listen"):
            raise Refusal("trace cwnd_ of a listening FullTcp agent: not supported")
        self._note(agent)
        traced = agent.info.setdefault("traced_vars", [])
        if var not in traced:
            traced.append(var)
        live = self.model.live
        if self.model.started and live is not None:
            flow = live.role.get(agent.name, (None,))[0]
            if flow is None:
                raise Refusal(f"trace {var} of an agent that carries no flow: not supported")
            value = live.sim.trace_tcp_var(flow, var)
            self.by_flow[flow] = agent
        else:
            value = reset_values(agent.info["var_settings"])[var]
        agent.info.setdefault("var_last", {})[var] = value
        # ns-2's Agent::trace (the nam format) writes nothing before the run starts.
        if self.model.started or not self._nam_format(agent):
            self._write(agent, self.model.now, var, value)
        return ""

    def red_trace(self, queue: Obj, args: tuple) -> str:
        """``$redq trace VAR``: VAR's changes are traced; its value now is written at once."""
        if len(args) != 1 or args[0] not in RED_TRACEABLE:
            raise Refusal(
                f"trace {' '.join(args)}: not supported; traceable RED variables: "
                + ", ".join(RED_TRACEABLE)
            )
        var = args[0]
        if queue not in self.queues:
            self.queues.append(queue)
        traced = queue.info.setdefault("traced_vars", [])
        if var not in traced:
            traced.append(var)
        value = 0.0
        live = self.model.live
        if self.model.started and live is not None:
            device, value = self._red_enable(live.sim, queue, var)
            self.by_device[device] = queue
        self._flush(self._red_lines(queue, [(self.model.now, var, value)]))
        return ""

    def _red_enable(self, sim: Any, queue: Obj, var: str) -> tuple[int, float]:
        link = queue.info["link"]
        index = self.model.links.index(link)
        device, value = sim.trace_red_var(index, queue.info["direction"], var)
        return int(device), float(value)

    def _red_lines(self, queue: Obj, changes: list) -> dict[str, list[str]]:
        channel = queue.info.get("var_channel")
        if channel is None:
            return {}
        lines = []
        for t, var, value in changes:
            if var == "curq_":
                lines.append(f"Q {t:g} {int(value)}\n")
            else:
                lines.append(f"a {t:g} {value:g}\n")
        return {channel: lines}

    def _note(self, agent: Obj) -> None:
        if agent not in self.agents:
            self.agents.append(agent)

    # --- the run ---------------------------------------------------------------------------

    # --- nam's agent traces ----------------------------------------------------------------

    def _nam_format(self, agent: Obj) -> bool:
        """`Agent/TCP set nam_tracevar_ true`: the agent's traced variables are written in
        nam's format (ns-2's TcpAgent::trace hands them to Agent::trace)."""
        o = self.model.o
        return o.hasvar(agent, "nam_tracevar_") and classes.boolean(
            o.getvar(agent, "nam_tracevar_")
        )

    def _ends(self, agent: Obj) -> tuple[int, int]:
        """The agent's node address and its peer's (ns-2 `here_.addr_`, `dst_.addr_`)."""
        node = agent.info.get("node")
        peer = agent.info.get("peer")
        here = -1 if node is None else node.info["id"]
        there = (
            -1 if peer is None or peer.info.get("node") is None else peer.info["node"].info["id"]
        )
        return here, there

    def nam_reset_lines(self) -> None:
        """`$ns run` resets the agents before it writes the nam header: a nam-format traced
        variable the reset changes is written then, at time 0, under no name yet (ns-2's
        `traceName_` is still null: `-a (null)`)."""
        for agent in self.agents:
            traced = agent.info.get("traced_vars", [])
            if not traced or not self._nam_format(agent):
                continue
            if agent.info.get("node") is None:
                continue
            self._write_reset(agent, traced)

    def _write_reset(self, agent: Obj, traced: list[str]) -> None:
        """The lines of the traced variables `$ns run`'s reset of ``agent`` changes, at time
        0, in `TcpAgent::reset`'s order."""
        after = reset_values(self._settings(agent))
        last = agent.info["var_last"]
        for var in TRACEABLE:
            if var in traced and after[var] != last[var]:
                last[var] = after[var]
                self._write(agent, 0.0, var, after[var])

    def dump_nam_agents(self, nam: Any) -> None:
        """ns-2's `dump-namagents` when the run starts: an `a` line naming each agent given
        to `add-agent-trace` (in Tcl's `array names` order of the names), written into the
        agent's trace channel, then a `v ... monitor_agent` line for each monitored one."""
        for name in nam.tcl_order(list(nam.traced_agents)):
            agent = nam.traced_agents[name]
            if "var_channel" not in agent.info:
                continue  # ns-2: "no trace file attached", and the agent stays unnamed
            agent.info["nam_name"] = name
            here, there = self._ends(agent)
            self._flush({agent.info["var_channel"]: [f"a -t 0 -s {here} -d {there} -n {name}\n"]})
        for agent in nam.monitored_agents:
            name = agent.info.get("nam_name")
            if name is None or "var_channel" not in agent.info:
                continue
            here, _ = self._ends(agent)
            line = f"v -t 0 -e monitor_agent {here} {name}\n"
            self._flush({agent.info["var_channel"]: [line]})

    def _nam_line(self, agent: Obj, t: float, var: str, value: float) -> str:
        """ns-2's Agent::trace line: `f -t TIME -s HERE -d DST -n VAR -a NAME -v VALUE [-o
        OLD] -T v`, the time `%.15g`, `cwnd_` (a TracedDouble) as `%g` and the others as
        integers (`rtt_`, `srtt_`, `rttvar_` in ns-2's bound units); `-o` the value last
        written, from the variable's second line on."""
        shown = f"{value:g}" if var == "cwnd_" else str(int(value))
        here, there = self._ends(agent)
        name = agent.info.get("nam_name", "(null)")
        old = agent.info.setdefault("nam_old", {}).get(var)
        agent.info["nam_old"][var] = shown
        line = f"f -t {t:.15g} -s {here} -d {there} -n {var} -a {name} -v {shown}"
        if old is not None:
            line += f" -o {old}"
        return line + " -T v\n"

    def start(self, live: Any) -> None:
        """``$ns run``: ns-2 resets each agent (a line per traced variable the reset changes,
        at time 0), then the core traces the variables from there."""
        for agent in self.agents:
            traced = agent.info.get("traced_vars", [])
            if not traced:
                continue
            if agent.name not in live.role or live.role[agent.name][1] != "sender":
                # ns-2 resets only agents attached to a node; one that carries no flow sends
                # nothing, so its variables never change again.
                continue
            flow = live.role[agent.name][0]
            self.by_flow[flow] = agent
            # (a nam-format agent's were written before the nam header: nothing is left)
            self._write_reset(agent, traced)
            for var in traced:
                live.sim.trace_tcp_var(flow, var)
        # ns-2 resets the RED queues too (ave_ 0, curq_ 0: unchanged, nothing is written).
        for queue in self.queues:
            for var in queue.info.get("traced_vars", []):
                device, _ = self._red_enable(live.sim, queue, var)
                self.by_device[device] = queue

    def write_now(self, changes: list) -> None:
        """Writes the lines of ``changes`` ((offset, seconds, flow, variable, value), the
        core's order) into their channels now: the trace stream calls it between the trace
        lines written before and after them."""
        pending: dict[str, list[str]] = {}
        self._tcp_lines(((t, flow, var, value) for _, t, flow, var, value in changes), pending)
        self._flush(pending)

    def _tcp_lines(self, changes: Any, pending: dict[str, list[str]]) -> None:
        """Adds the lines of ``changes`` ((seconds, flow, variable, value)) to ``pending``,
        per channel; an agent without a channel writes nothing."""
        for t, flow, var, value in changes:
            agent = self.by_flow.get(flow)
            if agent is None:
                continue
            line = self._line(agent, t, var, value)
            if line is not None:
                pending.setdefault(agent.info["var_channel"], []).append(line)

    def defer(self, changes: list | tuple) -> None:
        """Keeps ``changes`` for :meth:`drain`, after the lines of a trace piece that are
        written later (a wireless piece waits for the stream's flush)."""
        self._deferred.extend(changes)

    def drain(self, sim: Any) -> None:
        """Writes the changes the core reported since the last call into the channels."""
        if self._deferred:
            deferred, self._deferred = self._deferred, []
            self.write_now(deferred)
        pending: dict[str, list[str]] = {}
        if self.by_device:
            for t, device, var, value in sim.take_red_trace():
                queue = self.by_device.get(device)
                if queue is not None:
                    for channel, lines in self._red_lines(queue, [(t, var, value)]).items():
                        pending.setdefault(channel, []).extend(lines)
        if not self.by_flow:
            self._flush(pending)
            return
        self._tcp_lines(sim.take_var_trace(), pending)
        self._flush(pending)

    def channels(self) -> set[str]:
        """The channels traced variables write into."""
        return {
            o.info["var_channel"] for o in (*self.agents, *self.queues) if "var_channel" in o.info
        }

    # --- lines -----------------------------------------------------------------------------

    def _write(self, agent: Obj, t: float, var: str, value: float) -> None:
        line = self._line(agent, t, var, value)
        if line is not None:
            self._flush({agent.info["var_channel"]: [line]})

    def _flush(self, pending: dict[str, list[str]]) -> None:
        if not pending:
            return
        tcl = self.model.o.tcl
        open_channels = set(tcl.splitlist(tcl.call("file", "channels")))
        for channel, lines in pending.items():
            if channel in open_channels:
                tcl.call("puts", "-nonewline", channel, "".join(lines))

    def _line(self, agent: Obj, t: float, var: str, value: float) -> str | None:
        """ns-2's line for ``var`` = ``value`` at ``t``; None without an attached channel
        (ns-2's ``traceVar`` then writes nothing)."""
        if "var_channel" not in agent.info:
            return None
        if self._nam_format(agent):
            return self._nam_line(agent, t, var, value)
        node = agent.info.get("node")
        addr, port = (-1, -1) if node is None else (node.info["id"], agent.info["port"])
        peer = agent.info.get("peer")
        if peer is None or peer.info.get("node") is None:
            daddr, dport = -1, -1
        else:
            daddr, dport = peer.info["node"].info["id"], peer.info["port"]
        if var in ("rtt_", "srtt_", "rttvar_"):
            settings = self._settings(agent)
            tick = float(settings["tcpTick_"])
            ticks = int(value)
            if var == "srtt_":
                seconds = (ticks >> int(settings["T_SRTT_BITS"])) * tick
            elif var == "rttvar_":
                seconds = ticks * tick / 4.0
            else:
                seconds = ticks * tick
            shown = f"{seconds:<6.3f}"
        elif var == "cwnd_":
            shown = f"{value:<6.3f}"
        else:
            shown = str(int(value))
        return f"{t:<8.5f} {addr:<2d} {port:<2d} {daddr:<2d} {dport:<2d} {var} {shown}\n"
