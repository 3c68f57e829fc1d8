"""The agents' bound variables while the simulation runs: what an ns-2 callback reads and writes.

This module owns the mapping between ns-2's bound variables (``$tcp set cwnd_``, ``$sink set
bytes_``, ``$lm set nlost_``) and the state the core reports for a flow
(:meth:`ternsim.api.Simulation.flow`), formatted as ns-2 prints them, and the writes a callback
may make: counters a script resets (``$lm set bytes_ 0``, kept as an offset, since in ns-2 the
variable is the agent's own counter) and ``window_`` of a TCP sender. After the run (the
script's ``exit`` or the last callback) reads come from the state at that moment.

It knows nothing of Tcl: :mod:`ternsim.ns2.simulator` calls it from the objects' ``set``.
"""

from __future__ import annotations

from . import classes
from .otcl import Obj, Refusal

# typing.TYPE_CHECKING without importing typing (about 5 ms of ternsim ns2's start).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable


def _int(x: float) -> str:
    return str(int(x))


def _traced_double(x: float) -> str:
    # ns-2 prints a TracedDouble (cwnd_) with C's %g.
    return format(x, "g")


def _double(x: float) -> str:
    # A plain bound double (lastPktTime_) prints as Tcl prints a double, tcl_precision 17.
    return format(x, ".17g")


#: TCP sender variables: (flow-state key, format).
_TCP: dict[str, tuple[str, Callable[[float], str]]] = {
    "cwnd_": ("cwnd", _traced_double),
    "ssthresh_": ("ssthresh", _int),
    "t_seqno_": ("t_seqno", _int),
    "maxseq_": ("maxseq", _int),
    "ack_": ("ack", _int),
    "dupacks_": ("dupacks", _int),
    # ns-2 keeps srtt_ as 8 x ticks, rttvar_ as 4 x ticks, rtt_ in ticks (tcp.cc rtt_update).
    "srtt_": ("srtt8_ticks", _int),
    "rttvar_": ("rttvar4_ticks", _int),
    "rtt_": ("rtt_ticks", _int),
    "backoff_": ("backoff", _int),
    "nrexmitpack_": ("retransmissions", _int),
    "nrexmitbytes_": ("retransmitted_bytes", _int),
    "ndatapack_": ("segments_sent", _int),
    "ndatabytes_": ("data_bytes", _int),
    "nrexmit_": ("timeouts", _int),
    "ncwndcuts_": ("cwnd_cuts", _int),
    # ACKs received (every ns-2 one-way variant's recv: `++nackpack_`).
    "nackpack_": ("ack_packets", _int),
}

#: FullTcp active opener variables (`FlowState` keys of a `fulltcp` flow): the one-way
#: sender's, but for its own packet counters and `nackpack_`, and without `ncwndcuts_`.
_FULL_TCP: dict[str, tuple[str, Callable[[float], str]]] = {
    **{var: read for var, read in _TCP.items() if var != "ncwndcuts_"},
    "nrexmitpack_": ("retransmitted_packets", _int),
    "ndatapack_": ("data_packets", _int),
    # Pure ACKs it sent (FullTcpAgent::sendpacket: `++nackpack_` for a segment without data).
    "nackpack_": ("ack_packets", _int),
}

#: Receiver counters a script reads and resets: TCPSink ``bytes_`` (packets delivered in order,
#: with their headers) and the LossMonitor's four.
_SINK = {"bytes_": ("sink_delivered_wire_bytes", _int)}
_LOSS_MONITOR = {
    "bytes_": ("received_bytes", _int),
    "npkts_": ("received_packets", _int),
    "nlost_": ("lost_packets", _int),
    "lastPktTime_": ("last_arrival_s", _double),
}
_RESETTABLE = {"bytes_", "npkts_", "nlost_"}

#: The TCP variables a script can read during and after the run (one-way senders, FullTcp).
LIVE_TCP = tuple(_TCP)
LIVE_FULL_TCP = tuple(_FULL_TCP)


class LiveState:
    """Reads and writes of agents' variables against a running (or just ended) simulation."""

    def __init__(self, sim: Any, ends: list[tuple[Obj, Obj]], objects: Any) -> None:
        self.sim = sim
        self.o = objects
        #: agent name -> (flow index, "sender" | "receiver")
        self.role: dict[str, tuple[int, str]] = {}
        for i, (sender, receiver) in enumerate(ends):
            self.role[sender.name] = (i, "sender")
            if receiver is not None:
                self.role[receiver.name] = (i, "receiver")
        #: (agent name, var) -> the core's count when the script last set the variable.
        self.offset: dict[tuple[str, str], tuple[float, float]] = {}
        #: The flows' state when the run ended; None while it runs.
        self.final: list[dict[str, float]] | None = None

    def _state(self, flow: int) -> dict[str, float]:
        if self.final is not None:
            return self.final[flow]
        return dict(self.sim.flow_state(flow))

    def end(self) -> None:
        """The run ended: keep every flow's state for the reads that follow."""
        self.final = [dict(self.sim.flow_state(i)) for i in range(self.sim.flow_count)]

    def _table(self, o: Obj) -> dict[str, tuple[Any, Callable[[float], str]]] | None:
        base = self.o.builtin_base(o.cls)
        if classes.is_a(base, "Agent/TCP/FullTcp"):
            # The active opener's state; the listener's is not kept (refused when read).
            return _FULL_TCP if self.role.get(o.name, (0, ""))[1] == "sender" else {}
        if classes.is_a(base, "Agent/TCP"):
            return _TCP
        if classes.is_a(base, "Agent/TCPSink"):
            return _SINK
        if base == "Agent/LossMonitor":
            return _LOSS_MONITOR
        return None

    def read(self, o: Obj, var: str) -> str | None:
        """The variable's value now, or None when it is not a live variable of ``o`` (the
        caller then answers from the object's own variables)."""
        table = self._table(o)
        if table is None or var not in table or o.name not in self.role:
            return None
        flow, _ = self.role[o.name]
        key, fmt = table[var]
        value = self._state(flow)[key]
        if (o.name, var) in self.offset:
            core_then, set_to = self.offset[(o.name, var)]
            value = value - core_then + set_to
        return fmt(value)

    def detach(self, o: Obj) -> None:
        """``$ns detach-agent`` of ``o`` during the run (an agent of no flow carries nothing:
        nothing to do)."""
        if o.name in self.role and self.final is None:
            flow, role = self.role[o.name]
            self.sim.detach_agent(flow, role == "receiver")

    def reset_node(self, node: Obj) -> None:
        """``$node reset`` in a callback: the node's interface queue is flushed now."""
        if self.final is None:
            self.sim.reset_node(f"n{node.info['id']}")

    def app(self, app: Obj, what: str) -> None:
        """``$app start`` or ``$app stop`` in a callback: the application's flow starts (or
        starts again) or stops now."""
        agent = app.info.get("agent")
        if agent is None or agent.name not in self.role:
            raise Refusal(
                f"{what} of {app.name} from a callback: its agent is not attached and "
                "connected, or carries what ternsim does not model"
            )
        if what == "stop" and classes.is_a(self.o.builtin_base(agent.cls), "Agent/TCP/FullTcp"):
            raise Refusal(
                f"stop of {app.name} over a FullTcp agent: not supported (FTP `stop` closes the "
                "connection, FullTcp's FIN exchange)"
            )
        if self.final is None:
            flow, _ = self.role[agent.name]
            if what == "start":
                self.sim.start_flow(flow)
            else:
                self.sim.stop_flow(flow)

    def ping(self, agent: Obj) -> None:
        """``$ping send`` in a callback: the agent sends an echo request now."""
        if agent.name not in self.role:
            raise Refusal(f"send of {agent.name}: the ping agent is not attached and connected")
        if self.final is None:
            flow, role = self.role[agent.name]
            self.sim.ping(flow, role == "receiver")

    def write(self, o: Obj, var: str, value: str) -> bool:
        """Applies ``$o set var value`` during the run; False when ``var`` is not a live
        variable of ``o`` (the caller then refuses it)."""
        if self.o.builtin_base(o.cls) == "Application/Telnet" and var == "interval_":
            return self._telnet_interval(o, value)
        table = self._table(o)
        if table is None or o.name not in self.role:
            return False
        flow, role = self.role[o.name]
        if table is _TCP and var == "window_":
            window = int(float(value))
            if window < 1:
                raise Refusal(f"window_ {value}: give at least 1 packet")
            if self.final is None:
                self.sim.set_tcp_window(flow, window)
            self.o.setvar(o, var, str(window))
            return True
        if var in _RESETTABLE and var in table:
            key, _ = table[var]
            self.offset[(o.name, var)] = (self._state(flow)[key], float(value))
            return True
        return False

    def _telnet_interval(self, app: Obj, value: str) -> bool:
        """``$telnet set interval_ X`` during the run: the next gap it draws has mean X
        (ns-2's pending timer keeps its time)."""
        agent = app.info.get("agent")
        if agent is None or agent.name not in self.role:
            return False
        self.o.setvar(app, "interval_", value)
        from .scenario import telnet_interval

        interval = telnet_interval(app, self.o)
        if self.final is None:
            flow, _ = self.role[agent.name]
            self.sim.set_telnet_interval(flow, interval)
        return True
