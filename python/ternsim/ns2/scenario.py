"""From an ns-2 script's record to a ternsim scenario, and ternsim's results back to ns-2 names.

This module owns the one table that maps each ns-2 name to a scenario key (DESIGN.md §10):
agent and application classes to flow kinds, their variables to options, links and
``queue-limit`` to per-direction queues. It also rewrites ternsim's wired trace into exactly
ns-2's numbering (agent ports per node, the agents' ``fid_``, packet uids from 0, only the
links created after ``trace-all``) and answers ``$tcp set nrexmitpack_`` after the run from
the summary.
"""

from __future__ import annotations

from typing import Any

from . import classes
from .otcl import Obj, Refusal
from .simulator import Model

#: Agent class -> ternsim TCP variant.
TCP_VARIANTS = {
    "Agent/TCP": "tahoe",
    "Agent/TCP/Reno": "reno",
    "Agent/TCP/Newreno": "newreno",
    "Agent/TCP/Sack1": "sack",
    "Agent/TCP/Vegas": "vegas",
}

#: Traffic class -> ternsim UDP application kind.
UDP_APPS = {
    "Application/Traffic/CBR": "cbr",
    "Application/Traffic/Exponential": "exponential",
    "Application/Traffic/Pareto": "pareto",
}

#: TCP agent variable -> (TCP option, conversion). Only these may be set on a TCP agent.
TCP_OPTIONS: dict[str, tuple[str, Any]] = {
    "packetSize_": ("packet_size", lambda v: f"{int(float(v))}B"),
    "tcpip_base_hdr_size_": ("header_size", lambda v: f"{int(float(v))}B"),
    "window_": ("window", lambda v: int(float(v))),
    "windowInit_": ("window_init", lambda v: int(float(v))),
    "maxburst_": ("max_burst", lambda v: int(float(v))),
    "maxcwnd_": ("max_cwnd", float),
    "syn_": ("syn", classes.boolean),
    "numdupacks_": ("dupack_threshold", lambda v: int(float(v))),
    "tcpTick_": ("tick", lambda v: f"{classes.seconds(v)!r}s"),
    "minrto_": ("min_rto", lambda v: f"{classes.seconds(v)!r}s"),
    "maxrto_": ("max_rto", lambda v: f"{classes.seconds(v)!r}s"),
    "rtxcur_init_": ("initial_rto", lambda v: f"{classes.seconds(v)!r}s"),
    "v_alpha_": ("vegas_alpha", float),
    "v_beta_": ("vegas_beta", float),
    "v_gamma_": ("vegas_gamma", float),
}
#: Written into every flow's options, whatever their value, so the scenario says them.
TCP_ALWAYS = ("packetSize_", "tcpip_base_hdr_size_", "window_")

#: Sink variable -> (TCP option, conversion).
SINK_OPTIONS: dict[str, tuple[str, Any]] = {
    "interval_": ("delack_interval", lambda v: f"{classes.seconds(v)!r}s"),
    "maxSackBlocks_": ("sack_blocks", lambda v: int(float(v))),
}

_APP_VARS = {
    "Application/Traffic/CBR": ("rate_", "packetSize_", "interval_", "random_", "maxpkts_"),
    "Application/Traffic/Exponential": ("rate_", "packetSize_", "burst_time_", "idle_time_"),
    "Application/Traffic/Pareto": (
        "rate_",
        "packetSize_",
        "burst_time_",
        "idle_time_",
        "shape_",
    ),
}

#: After the run, TCP agent statistics from the flow's summary.
STATE_FROM_SUMMARY = {
    "nrexmitpack_": lambda f, size, syn: f["retransmitted_segments"],
    "nrexmitbytes_": lambda f, size, syn: f["retransmitted_segments"] * size,
    "ndatapack_": lambda f, size, syn: f["segments_sent"],
    "ndatabytes_": lambda f, size, syn: (f["segments_sent"] - (1 if syn else 0)) * size,
    "nrexmit_": lambda f, size, syn: f["timeouts"],
    "ncwndcuts_": lambda f, size, syn: f["timeouts"] + f["fast_retransmits"],
}


def settable(base: str) -> set[str]:
    """The variables a script may set on an object of ns-2 class ``base``."""
    out = {"fid_", "class_"} if classes.is_a(base, "Agent") else set()
    if classes.is_a(base, "Agent/TCP"):
        out |= {v for v in TCP_OPTIONS if not v.startswith("v_") or base == "Agent/TCP/Vegas"}
    elif classes.is_a(base, "Agent/TCPSink"):
        if base.endswith("DelAck"):
            out.add("interval_")
        if "Sack1" in base:
            out.add("maxSackBlocks_")
    elif base == "Agent/UDP":
        out.add("packetSize_")
    out |= set(_APP_VARS.get(base, ()))
    return out


def _secs(x: float) -> str:
    return f"{x!r}s"


def boot_times(model: Model) -> dict[str, float]:
    """Each attached TCP agent's ``boot_time_`` as ns-2.35 draws it, in seconds.

    ``boot_time_`` (the agent's phase against the ``tcpTick_`` clock, which sets how each RTT
    sample is rounded to ticks) is ``Random::uniform(tcpTick_)`` from ns-2's default RNG, drawn
    whenever the agent is reset: once when it is created (Vegas twice; counted in
    ``model.rng_draws``), then again by ``$ns run``, which resets every node's agents, nodes
    in the order Tcl's ``array names Node_`` lists them and each node's agents in the order
    they were attached. The last draw is the one the run uses. Tcl 8.6 lists an array in the
    order of its hash table, which this interpreter (Tcl 8.6, as ns-2.35 links) reproduces.
    """
    from .._native import core

    tcl = model.o.tcl
    tcl.eval("array unset ::ns2::Node_")
    for n in model.nodes:
        tcl.eval(f"set ::ns2::Node_({n.info['id']}) {{}}")
    order = [int(i) for i in tcl.splitlist(tcl.eval("array names ::ns2::Node_"))]
    tcl.eval("array unset ::ns2::Node_")
    attached: dict[int, list[Obj]] = {}
    for agent in model.agents:
        if agent.info["node"] is not None:
            attached.setdefault(agent.info["node"].info["id"], []).append(agent)
    draw = model.rng_draws
    index: dict[str, int] = {}
    for node_id in order:
        for agent in sorted(attached.get(node_id, []), key=lambda a: a.info["port"]):
            if classes.is_a(model.o.builtin_base(agent.cls), "Agent/TCP"):
                index[agent.name] = draw
                draw += 1
    uniforms = core().ns2_uniforms(model.rng_seed, draw) if index else []
    out = {}
    for name, i in index.items():
        tick = classes.seconds(model.o.getvar(model.o.objects[name], "tcpTick_"))
        # The phase is kept in whole nanoseconds below the tick.
        out[name] = min(tick * uniforms[i], tick - 1e-9)
    return out


class Translation:
    """The scenario built from a model, and how its flows map back to the script's agents."""

    def __init__(self, model: Model, actions: list[tuple[float, Obj, str]], end: float) -> None:
        self.model = model
        o = model.o
        self.flows: list[dict[str, Any]] = []
        #: Per ternsim flow index: (sender agent, receiver agent).
        self.ends: list[tuple[Obj, Obj]] = []
        self.boot_times = boot_times(model)
        times: dict[str, list[tuple[float, str]]] = {}
        for t, app, what in actions:
            if t < end or (t == end and what == "start"):
                times.setdefault(app.name, []).append((t, what))
        for agent in model.agents:
            base = o.builtin_base(agent.cls)
            if base not in TCP_VARIANTS and base != "Agent/UDP":
                continue
            app = agent.info["app"]
            if app is None or not times.get(app.name):
                continue  # never sends: ns-2 draws nothing for it either
            flow = self._flow(agent, app, times[app.name], end)
            self.flows.append(flow)
            self.ends.append((agent, agent.info["peer"]))
        self.scenario = {
            "name": "ns2-script",
            "duration": _secs(end),
            "nodes": [{"name": str(n.info["id"])} for n in model.nodes],
            "links": [
                {
                    "name": f"{link.a.info['id']}-{link.b.info['id']}",
                    "a": str(link.a.info["id"]),
                    "b": str(link.b.info["id"]),
                    "rate": f"{link.rate_bps!r}bps",
                    "delay": _secs(link.delay_s),
                    "queue_a_to_b": link.limits[0],
                    "queue_b_to_a": link.limits[1],
                }
                for link in model.links
            ],
            "flows": self.flows,
        }

    def _var(self, obj: Obj, var: str) -> str:
        return self.model.o.getvar(obj, var)

    def _flow(self, agent: Obj, app: Obj, times: list[tuple[float, str]], end: float) -> dict:
        o = self.model.o
        base, app_base = o.builtin_base(agent.cls), o.builtin_base(app.cls)
        peer = agent.info["peer"]
        if agent.info["node"] is None or peer is None or peer.info["node"] is None:
            raise Refusal(f"agent {agent.name} ({base}) is not attached and connected")
        start, stop = None, None
        for t, what in times:
            if what == "start" and start is None:
                start = t
            elif what == "stop" and start is not None and stop is None:
                stop = t
            elif what == "start" or (what == "stop" and start is None):
                raise Refusal(
                    f"{app_base} {app.name}: more than one start, or a stop before the start: "
                    "not supported; supported: one start and an optional later stop"
                )
        flow: dict[str, Any] = {
            "name": f"{agent.name}",
            "src": str(agent.info["node"].info["id"]),
            "dst": str(peer.info["node"].info["id"]),
            "start": _secs(start or 0.0),
        }
        if stop is not None:
            flow["stop"] = _secs(stop)
        peer_base = o.builtin_base(peer.cls)
        if base in TCP_VARIANTS:
            if app_base != "Application/FTP":
                raise Refusal(
                    f"{app_base} over {base}: not supported; supported over TCP: Application/FTP"
                )
            if not classes.is_a(peer_base, "Agent/TCPSink"):
                raise Refusal(f"{base} connected to {peer_base}: needs an Agent/TCPSink")
            sack_sink = "Sack1" in peer_base
            if (base == "Agent/TCP/Sack1") != sack_sink:
                raise Refusal(
                    f"{base} with {peer_base}: not supported; Agent/TCP/Sack1 pairs with "
                    "Agent/TCPSink/Sack1 (or /Sack1/DelAck), the other TCPs with "
                    "Agent/TCPSink (or /DelAck)"
                )
            options: dict[str, Any] = {"profile": "ns2.35"}
            defaults = classes.class_defaults(base, {})
            for var, (key, conv) in TCP_OPTIONS.items():
                if not o.hasvar(agent, var):
                    continue
                value = self._var(agent, var)
                if var in TCP_ALWAYS or value != classes.bound_value(var, defaults.get(var, "")):
                    options[key] = conv(value)
            options["tick_phase"] = _secs(self.boot_times[agent.name])
            options["delayed_ack"] = peer_base.endswith("DelAck")
            sink_defaults = classes.class_defaults(peer_base, {})
            for var, (key, conv) in SINK_OPTIONS.items():
                default = classes.bound_value(var, sink_defaults.get(var, ""))
                if o.hasvar(peer, var) and self._var(peer, var) != default:
                    options[key] = conv(self._var(peer, var))
            if options["delayed_ack"] and "delack_interval" not in options:
                options["delack_interval"] = _secs(classes.seconds(self._var(peer, "interval_")))
            flow.update(tcp=TCP_VARIANTS[base], options=options)
            return flow
        # UDP
        if app_base not in UDP_APPS:
            raise Refusal(
                f"{app_base} over Agent/UDP: not supported; supported: {', '.join(UDP_APPS)}"
            )
        if peer_base not in ("Agent/Null", "Agent/LossMonitor"):
            raise Refusal(f"Agent/UDP connected to {peer_base}: needs Agent/Null or LossMonitor")
        size = int(float(self._var(app, "packetSize_")))
        if size > int(float(self._var(agent, "packetSize_"))):
            raise Refusal(
                f"{app_base} packetSize_ {size} above the UDP agent's packetSize_: ns-2 would "
                "fragment; not supported"
            )
        kind = UDP_APPS[app_base]
        spec: dict[str, Any] = {
            "kind": kind,
            "packet_size": f"{size}B",
            "rate": f"{classes.bandwidth(self._var(app, 'rate_'))!r}bps",
        }
        if kind == "cbr":
            spec["random"] = classes.boolean(self._var(app, "random_"))
            spec["max_packets"] = int(float(self._var(app, "maxpkts_")))
        else:
            spec["burst_time"] = _secs(classes.seconds(self._var(app, "burst_time_")))
            spec["idle_time"] = _secs(classes.seconds(self._var(app, "idle_time_")))
            if kind == "pareto":
                spec["shape"] = float(self._var(app, "shape_"))
        flow.update(transport="udp", app=spec)
        return flow

    # --- results back to ns-2 --------------------------------------------------------------

    def rewrite_trace(self, text: str) -> str:
        """ternsim's wired trace as ns-2 numbers it (see the module doc)."""
        o = self.model.o
        traced = set()
        for link in self.model.links:
            if link.traced:
                a, b = str(link.a.info["id"]), str(link.b.info["id"])
                traced |= {(a, b), (b, a)}
        flow_fid = []
        ports: list[dict[str, str]] = []
        for sender, receiver in self.ends:
            flow_fid.append(o.getvar(sender, "fid_"))
            m = {}
            for agent in (sender, receiver):
                m[str(agent.info["node"].info["id"])] = str(agent.info["port"])
            ports.append(m)
        out = []
        for line in text.splitlines():
            f = line.split(" ")
            if len(f) != 12 or (f[2], f[3]) not in traced:
                continue
            i = int(f[7]) if f[7].lstrip("-").isdigit() else -1
            if 0 <= i < len(flow_fid):
                f[7] = flow_fid[i]
                for k in (8, 9):
                    node = f[k].split(".")[0]
                    f[k] = f"{node}.{ports[i].get(node, f[k].split('.')[-1])}"
            out.append(" ".join(f))
        return "".join(x + "\n" for x in out)

    def state(self, summary: dict, agent: Obj, var: str) -> str:
        for i, (sender, _) in enumerate(self.ends):
            if sender is agent:
                flow = summary["flows"][i]
                break
        else:
            return self.model.o.getvar(agent, var)  # never sent: its variables stay at 0
        if var not in STATE_FROM_SUMMARY:
            raise Refusal(
                f"{var} after the run: not available; available: {', '.join(STATE_FROM_SUMMARY)}"
            )
        size = int(float(self.model.o.getvar(agent, "packetSize_")))
        syn = classes.boolean(self.model.o.getvar(agent, "syn_"))
        return str(STATE_FROM_SUMMARY[var](flow, size, syn))
