"""The ns-2 commands of a script: Simulator, Node, Link, Agent and Application methods, and the
wireless ones (node-config, mobile nodes, Topography, God, the default RNG).

This module owns the record a script builds before ``$ns run``: nodes in creation order (their
ns-2 ids; mobile nodes with their position, moves and trace switches), duplex links with their
per-direction queue limits and whether they are traced, agents with the port ns-2 gives them on
their node, connections, applications, the run seed the script gives, and the ``$ns at``
schedule. It answers the commands as ns-2 does (return values, handles) and refuses
anything it cannot carry into a ternsim scenario with a message naming what it supports.

Running the record is :mod:`ternsim.ns2.interp`'s job, translating it :mod:`ternsim.ns2.scenario`'s.
"""

from __future__ import annotations

import re

from . import classes, mobileip, wireless
from .messages import NsMessages, carrier_sense_distance
from .nam import NamTrace
from .otcl import Obj, ObjectSystem, Refusal
from .rtmodel import RtModel, RtQueue, Run, parameters

# typing.TYPE_CHECKING without importing typing (about 5 ms of ternsim ns2's start).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


# Link and Event are plain classes, not dataclasses: ``dataclasses`` imports ``inspect``,
# 5-10 ms at the start of every ``ternsim ns2``. Neither is ever compared.
class Link:
    def __init__(
        self, a: Obj, b: Obj, rate_bps: float, delay_s: float, traced: bool, where: str
    ) -> None:
        self.a = a
        self.b = b
        #: Each direction's rate (a -> b, b -> a): two simplex links may differ.
        self.dir_rates = [rate_bps, rate_bps]
        #: Each direction's delay (a -> b, b -> a): `$ns delay` or two simplex links may
        #: set one.
        self.dir_delays = [delay_s, delay_s]
        #: A direction not made yet: a `simplex-link A B` waits for its `simplex-link B A`
        #: (direction 1), which fills it in.
        self.missing: int | None = None
        self.traced = traced
        #: Whether each direction is traced (trace-all when the link was made, or a later
        #: `$ns trace-queue`), (a -> b, b -> a).
        self.traced_dirs = [traced, traced]
        #: Whether each direction's trace shows the TCP header fields (show_tcphdr_).
        self.tcphdr = [False, False]
        #: The script line that made the link (`$ns duplex-link ...`).
        self.where = where
        #: Each direction's DelayLink `avoidReordering_` (the class default when it was
        #: made, or its own `set`).
        self.avoid_reordering = [False, False]
        #: The queue objects per direction, (a -> b, b -> a): Queue/DropTail or Queue/RED,
        #: their `limit_` the queue limit.
        self.queues: list[Obj] = []
        #: The link objects `$ns link` returns, per direction.
        self.handles: list[Obj] = []
        #: The loss modules per direction, in the order packets meet them: (point, object)
        #: with point `enqueue` (ahead of the queue) or `arrival` (after the delay).
        self.stages: list[list[tuple[str, Obj]]] = [[], []]
        #: `$ns rtmodel-at` calls naming this link made after `trace-all` (ns-2 writes one `v`
        #: line per such call for each direction at each of its down/up events, traced link
        #: or not: each call hooks a trace of the link's dynamics into the trace-all file).
        self.rtmodels = 0
        #: Per direction, made after `namtrace-all`: its packet events go into the nam trace.
        self.nam_dirs = [False, False]
        #: `$ns rtmodel-at` calls naming this link made after `namtrace-all` (each writes
        #: its nam lines for each direction, as `rtmodels` for the trace-all file).
        self.nam_rtmodels = 0
        #: Per direction, the script's `$link trace-dynamics $ns CHANNEL [nam]` calls in
        #: order: (channel, nam format or not); each writes a line at every down and up.
        self.dynamics: list[list[tuple[str, bool]]] = [[], []]


class Event:
    def __init__(self, time: float, seq: int, script: str, where: str) -> None:
        self.time = time
        self.seq = seq
        self.script = script
        self.where = where


#: Simulator methods that only choose an implementation detail or drive nam's animation
#: speed: accepted, no-op.
NO_OPS = {"use-scheduler"}
#: Node methods that only draw: they set nam attributes or write nam lines (ternsim.ns2.nam).
NODE_NAM_OPS = ("color", "shape", "label", "label-color", "label-at", "add-mark", "delete-mark")
#: Link methods that only draw (`duplex-link-op` calls them on both directions).
LINK_NAM_OPS = ("orient", "color", "queuePos", "label", "label-color", "label-at")


class Model:
    """What the script built, and the commands that build it."""

    def __init__(self, objects: ObjectSystem) -> None:
        self.o = objects
        self.sim: Obj | None = None
        self.nodes: list[Obj] = []
        self.links: list[Link] = []
        self.agents: list[Obj] = []
        self.apps: list[Obj] = []
        self.events: list[Event] = []
        #: `$ns rtproto Session`: routes recomputed at each topology change.
        self.session_routing = False
        #: `$ns rtproto DV`: ns-2's distance-vector routing on every node.
        self.dv_routing = False
        #: `$ns at T "$node reset"`: (T, node), scenario events that flush the node's
        #: interface queue (ns-2's `END` drops).
        self.resets: list[tuple[float, Obj]] = []
        #: `$ns delay` and `$ns bandwidth` scheduled with `$ns at`: (time, seq, what, args,
        #: where), scenario `set` events of the link.
        self.link_changes: list[tuple[float, int, str, tuple, Any]] = []
        self.trace_channel: str | None = None
        #: `$ns use-newtrace`: the wireless trace in ns-2's new format (`-t time -Hs ...`).
        self.newtrace = False
        #: `$ns eventtrace-all [FILE]`: the channel the event trace of the TCP agents made
        #: from then on goes to (ns-2's `eventtraceAllFile_`; each agent keeps the one of its
        #: creation, `create-eventtrace`, in its ``info["event_channel"]``).
        self.event_channel: str | None = None
        #: `$ns trace-queue A B FILE` into another channel than trace-all's: channel -> the
        #: (from, to) node ids of the link directions whose lines it gets too.
        self.queue_traces: dict[str, set[tuple[str, str]]] = {}
        #: Of those, the directions trace-all does not trace: their lines go into their
        #: `trace-queue` file only.
        self.queue_only: set[tuple[str, str]] = set()
        #: The nam trace (`namtrace-all`): its channel and the drawing commands' attributes.
        self.nam = NamTrace(self)
        self.now = 0.0
        #: The run seed the script gave (`ns-random N`, `$defaultRNG seed N`, N > 0).
        self.seed: int | None = None
        #: ns-2's default RNG as the script left it before `$ns run`: its seed (1 unless the
        #: script seeds it; None for 0, ns-2's seed from the clock) and how many numbers ns-2
        #: has drawn from it since (each TCP agent draws its `boot_time_` when created, Vegas
        #: twice; ternsim.ns2.scenario.boot_times).
        self.default_rng_seed: int | None = 1
        self.rng_draws = 0
        #: `$ns node-config` so far; mobile nodes are made while it names -adhocRouting.
        self.config = wireless.Config()
        #: The [wireless] and [routing] settings the first mobile node copied.
        self.radio: dict | None = None
        self.god: Obj | None = None
        #: `AddrParams`: hierarchical addresses (wired-cum-wireless Mobile IP scripts).
        self.hier = mobileip.Hierarchy()
        self.started = False  # `$ns run` has been called
        self.halted = False
        #: Set by the driver: returns "script.tcl:LINE: command" for the command running now.
        self.where = lambda: ""
        #: Set by the driver: runs the simulation and the callbacks (`$ns run`).
        self.run_hook = lambda: None
        #: Set by the driver when `$ns run` starts: the agents' variables in the running
        #: simulation (:class:`ternsim.ns2.live.LiveState`).
        self.live: Any = None
        #: Set by the driver: queues a callback scheduled while the simulation runs.
        self.schedule_hook: Any = None
        #: What ns-2 itself prints (God's node count, the channel's first frame, ...).
        self.messages = NsMessages()
        self.messages.tcl_flush = self._flush_stdout
        #: The first mobile node's radio: (highest antenna, carrier-sense distance), which
        #: ns-2 prints at the channel's first frame.
        self.radio_reach: tuple[float, float] | None = None
        #: The Propagation/Shadowing that `-propType Propagation/Shadowing` makes (ns-lib.tcl
        #: makes one, with the first mobile node).
        self.shadowing_prop: Obj | None = None
        #: Set by the driver: writes the trace lines recorded so far into the trace channel.
        self.pull_trace = lambda: None
        #: `$ns monitor-queue`'s QueueMonitor objects.
        self.monitors: list[Obj] = []
        #: The queues keeping ns-2's `summarystats_` (their `printstats`), by direction
        #: (from, to) node ids (ternsim.ns2.monitor.QueueStats).
        self.queue_stats: dict[tuple[str, str], Any] = {}
        #: The rtModels of `$ns rtmodel` and `$ns rtmodel-at`, in the order they were made.
        self.rtmodels: list[RtModel] = []
        #: The rtQueue's runs before the end of the run (:meth:`schedule_link_events`).
        self.rtq_runs: list[Run] = []
        #: The link events of the rtModels before the end of the run: (time, order, op,
        #: link, the directions as ns-2 takes them down or up, (from, to) ids), in the
        #: order ns-2 runs them (:meth:`schedule_link_events`).
        self.link_events: list[tuple[float, int, str, Link, tuple[str, str]]] = []
        #: Per link event (by its order in `link_events`): the ids of the link's two
        #: nodes in the order ns-2's rtModel notifies them (its Tcl array `nodes_`), which
        #: under DV is the order in which they send their triggered updates.
        self.link_event_notify: list[tuple[str, str]] = []
        objects.on_create = self._on_create
        b = objects.builtins
        sim = {
            "node": self.node,
            "duplex-link": self.duplex_link,
            "simplex-link": self.simplex_link,
            "queue-limit": self.queue_limit,
            "trace-all": self.trace_all,
            "namtrace-all": self.namtrace_all,
            "attach-agent": self.attach_agent,
            "connect": self.connect,
            "create-connection": self.create_connection,
            "create-connection-listen": self.create_connection_listen,
            "create-connection-list": self.create_connection_list,
            "at": self.at,
            "now": lambda o, a: _num(self.now),
            "run": self.run,
            "link": self.link,
            "halt": self.halt,
            "flush-trace": self.flush_trace,
            "eventtrace-all": self.eventtrace_all,
            "rtproto": self.rtproto,
            "instance": lambda o, a: self._simulator().name,
            "bw_parse": lambda o, a: repr(classes.bandwidth(a[0])),
            "delay_parse": lambda o, a: repr(classes.seconds(a[0])),
            "delay": self.link_delay,
            "bandwidth": self.link_bandwidth,
            "node-config": self.node_config,
            "namtrace-all-wireless": self.namtrace_all_wireless,
            "color": self.sim_color,
            "duplex-link-op": self.duplex_link_op,
            "simplex-link-op": self.simplex_link_op,
            "trace-annotate": self.trace_annotate,
            "set-animation-rate": self.set_animation_rate,
            "puts-nam-config": lambda o, a: self.nam.puts(" ".join(a)) or "",
            "initial_node_pos": self.initial_node_pos,
            "nam-end-wireless": self.nam_end_wireless,
            "use-newtrace": self.use_newtrace,
            "set-address-format": self.set_address_format,
            "lossmodel": lambda o, a: self.errors.lossmodel(o, a, "enqueue"),
            "link-lossmodel": lambda o, a: self.errors.lossmodel(o, a, "arrival"),
            "rtmodel-at": self.rtmodel_at,
            "rtmodel": self.rtmodel,
            "cost": self.cost,
            "detach-agent": self.detach_agent,
            "trace-queue": self.trace_queue,
            "monitor-queue": self.monitor_queue,
            "makeflowmon": self.makeflowmon,
            "attach-fmon": self.attach_fmon,
            "queue-monitor": self._refuse_monitor,
            "add-agent-trace": self.add_agent_trace,
            "monitor-agent-trace": self.monitor_agent_trace,
        }
        sim.update({name: (lambda o, a: "") for name in NO_OPS})
        b["Simulator"] = sim
        b["Node"] = {
            "id": lambda o, a: str(o.info["id"]),
            "node-addr": lambda o, a: str(o.info.get("addr", o.info["id"])),
            "attach": lambda o, a: self.attach_agent(None, (o.name, *a)),
            "neighbors": self.node_neighbors,
            "set": self.node_set,
            "setdest": self.node_setdest,
            "random-motion": self.node_random_motion,
            "base-station": self.node_base_station,
            "reset": self.node_reset,
            "agent": self.node_agent,
            **{name: self._node_nam_op(name) for name in NODE_NAM_OPS},
        }
        b["Topography"] = {"load_flatgrid": self.load_flatgrid}
        b["Propagation/TwoRayGround"] = {"topography": lambda o, a: ""}
        b["Propagation/FreeSpace"] = {"topography": lambda o, a: ""}
        b["Propagation/Shadowing"] = {
            "topography": lambda o, a: "",
            "set": self.shadowing_set,
            "seed": self.shadowing_seed,
        }
        b["RNG"] = {"seed": self.rng_seed}
        b["God"] = {
            "set-dist": lambda o, a: "",
            "num_nodes": lambda o, a: str(o.info["nodes"]),
        }
        tcl = objects.tcl
        tcl.createcommand("create-god", objects._guard(self.create_god))
        tcl.createcommand("God", objects._guard(self._god_class))
        tcl.createcommand("ns-random", objects._guard(self.ns_random))
        # ns-2's global `trace_annotate STR` (tcl/lib/ns-namsupp.tcl): `$ns trace-annotate`.
        tcl.createcommand(
            "trace_annotate",
            objects._guard(lambda *a: self.trace_annotate(self._simulator(), a)),
        )
        tcl.createcommand(
            "AddrParams", objects._guard(lambda *a: self.hier.command(objects.tcl, a))
        )
        # ns-2 makes the default random number generator when it starts (ns-random.tcl).
        rng = Obj("_o0", "RNG")
        objects.objects[rng.name] = rng
        tcl.createcommand(rng.name, objects._guard(lambda *a: objects.dispatch(rng, a)))
        tcl.setvar("defaultRNG", rng.name)
        self.default_rng = rng
        # ns-2's global `uniform` and `exponential` (tcl/lib/ns-random.tcl) draw from
        # `$defaultRNG`: ternsim's own stream for it, reproducible for a seed.
        tcl.eval(
            "proc uniform args { global defaultRNG; eval [list $defaultRNG uniform] $args }\n"
            "proc exponential args { global defaultRNG; eval [list $defaultRNG exponential] $args }"
        )
        # ns-2.35's Tcl-level error model of a rate and a unit (tcl/lib/ns-errmodel.tcl): the
        # base model with `rate_` and `unit` set by its constructor.
        tcl.eval(
            "Class ErrorModel/Uniform -superclass ErrorModel\n"
            'ErrorModel/Uniform instproc init {rate {unit "pkt"}} '
            "{ $self next; $self unit $unit; $self set rate_ $rate }"
        )
        b["Agent"] = {
            "set": self.obj_set,
            "get": self.obj_get,
            "attach-app": self.attach_app,
            "attach-source": self.attach_source,
            "dst-port": self.agent_dst_port,
        }
        b["Agent/Ping"] = {"send": self.ping_send, "oneway": self.ping_oneway}
        from .tracevar import VarTraces

        #: The TCP agents' traced variables (`$tcp attach $f; $tcp trace cwnd_`).
        self.var_traces = VarTraces(self)
        b["Agent/TCP"] = {
            "attach": self.var_traces.attach,
            "trace": self.var_traces.trace,
            # ns-2's Agent::command wraps TclObject's `trace` as `tracevar`.
            "tracevar": self.var_traces.trace,
        }
        b["Agent/TCP/FullTcp"] = {
            "listen": self.full_listen,
            "trace": self.var_traces.trace,
            "close": self._refuse_full("close from a callback (schedule it with `$ns at`)"),
            "send": self._refuse_full("send (schedule the application's start instead)"),
        }
        b["Queue/RED"] = {
            "attach": self.var_traces.attach,
            "trace": self.var_traces.red_trace,
        }
        b["Application"] = {
            "set": self.obj_set,
            "get": self.obj_get,
            "attach-agent": self.app_attach_agent,
            "start": lambda o, a: self._app_now(o, "start"),
            "stop": lambda o, a: self._app_now(o, "stop"),
        }
        b["Queue"] = {
            "set": self.obj_set,
            "get": self.obj_get,
            "printstats": lambda o, a: self.queue_monitors.printstats(o, a),
        }
        b["SimpleLink"] = {
            "queue": lambda o, a: o.info["queue"].name,
            "link": self._delay_link,
            "cost": lambda o, a: self._link_cost(o, a),
            "trace-dynamics": self._trace_dynamics,
            "start-tracing": lambda o, a: self.queue_monitors.start_tracing(o, a),
            "sample-queue-size": lambda o, a: self.queue_monitors.sample_queue_size(o, a),
            "queue-sample-timeout": lambda o, a: self.queue_monitors.queue_sample_timeout(o, a),
            **{name: self._link_nam_op(name) for name in LINK_NAM_OPS},
        }
        b["DelayLink"] = {"set": self._delay_link_var, "get": self._delay_link_var}
        objects.on_class_set = self._on_class_set
        from .errmodel import ErrorModels
        from .monitor import QueueMonitors

        self.errors = ErrorModels(self)
        self.queue_monitors = QueueMonitors(self)

    # --- helpers ---------------------------------------------------------------------------

    def _simulator(self) -> Obj:
        if self.sim is None:
            self.sim = self.o.create("Simulator")
        return self.sim

    def _on_create(self, obj: Obj, args: tuple) -> None:
        base = self.o.builtin_base(obj.cls)
        if base == "Simulator":
            self.sim = obj
        elif classes.is_a(base, "Agent"):
            obj.info.update(node=None, port=None, peer=None, app=None)
            self.agents.append(obj)
            if classes.is_a(base, "Agent/TCP"):
                # TcpAgent::reset() draws boot_time_ = Random::uniform(tcpTick_); ns-2 resets a
                # new agent once (Vegas and FullTcp twice: their delay_bind_init_all resets it
                # again) when it creates it.
                twice = base == "Agent/TCP/Vegas" or classes.is_a(base, "Agent/TCP/FullTcp")
                self.rng_draws += 2 if twice else 1
                self.var_traces.on_create(obj)
                # `Agent/TCP instproc init` calls `create-eventtrace`: an agent made after
                # `eventtrace-all` writes its events into that channel.
                # (`create-eventtrace` also attaches it to the nam channel open then.)
                if self.event_channel is not None:
                    obj.info["event_channel"] = self.event_channel
                    obj.info["event_nam"] = self.nam.channel is not None
        elif classes.is_a(base, "Application"):
            obj.info.update(agent=None)
            self.apps.append(obj)
        elif base == "Propagation/Shadowing":
            # The constructor seeds the model's RNG from seed_ as it is then (predef source):
            # setting the object's seed_ afterwards changes nothing (shadowing.cc).
            seed = self.o.getvar(obj, "seed_")
            obj.info["seed"] = self._shadowing_seed(("predef", seed))
        else:
            self.errors.on_create(obj, base, args)

    def obj(self, handle: str, kind: str) -> Obj:
        o = self.o.objects.get(handle)
        if o is None or not classes.is_a(self.o.builtin_base(o.cls), kind):
            raise Refusal(f"`{handle}` is not {'a' if kind[0] not in 'AEIOU' else 'an'} {kind}")
        return o

    def obj_of(self, handle: str) -> Obj | None:
        return self.o.objects.get(handle)

    def node_obj(self, handle: str) -> Obj:
        o = self.o.objects.get(handle)
        if o is None or o.cls != "Node":
            raise Refusal(f"`{handle}` is not a node")
        return o

    def _before_run(self, what: str) -> None:
        if self.started:
            raise Refusal(
                f"{what} during or after the run: not supported (this front end builds the "
                "topology before `$ns run`)"
            )

    # --- Simulator -------------------------------------------------------------------------

    @property
    def hierarchical(self) -> bool:
        return self.config.values.get("addressType") == "hierarchical"

    def set_address_format(self, sim: Obj, args: tuple) -> str:
        if args != ("hierarchical",):
            raise Refusal(
                f"set-address-format {' '.join(args)}: not supported; supported: hierarchical"
            )
        self.config.values["addressType"] = "hierarchical"
        return ""

    def node(self, sim: Obj, args: tuple) -> str:
        self._before_run("$ns node")
        if len(args) > 1 or (args and not self.hierarchical):
            raise Refusal(
                "$ns node with arguments: supported only as `$ns node D.C.N` after `$ns "
                "node-config -addressType hierarchical`"
            )
        if self.hierarchical and not args:
            raise Refusal("$ns node without an address in a hierarchical script: give D.C.N")
        n = Obj(f"_o{self.o._count + 1}", "Node")
        self.o._count += 1
        self.o.objects[n.name] = n
        n.info.update(id=len(self.nodes), ports=0, mobile=False, where=self.where())
        if args:
            host = self.config.wireless and self.config.values.get("wiredRouting") != "ON"
            self.hier.check(args[0], mobile_host=host)
            n.info.update(addr=args[0], hier_id=self.hier.addr2id(args[0]))
            if any(m.info.get("addr") == args[0] for m in self.nodes):
                raise Refusal(f"$ns node {args[0]}: the address is taken")
        if self.config.wireless:
            self._make_mobile(n)
        elif any(m.info["mobile"] for m in self.nodes) and not self.hierarchical:
            raise Refusal(
                "a wired node among mobile nodes (wired-cum-wireless): not supported; "
                "supported: all nodes wired, or all mobile (after `$ns node-config "
                "-adhocRouting ...`)"
            )
        self.nodes.append(n)
        self.o.tcl.createcommand(n.name, self.o._guard(lambda *a: self.o.dispatch(n, a)))
        return n.name

    def _make_mobile(self, n: Obj) -> None:
        """A mobile node: it copies the node-config and the wireless classes' variables now,
        which must be those of every other mobile node (ternsim has one [wireless] channel)."""
        if self.links and not self.hierarchical:
            raise Refusal(
                "a mobile node in a script with wired links (wired-cum-wireless): not supported"
            )
        config = dict(self.config.values)
        missing = [k for k in wireless.REQUIRED if k not in config]
        if "channel" not in config and "channelType" not in config:
            missing.append("channel")
        if "propInstance" not in config and "propType" not in config:
            missing.append("propType")
        if missing:
            raise Refusal(
                "$ns node after node-config without "
                + ", ".join(f"-{k}" for k in missing)
                + ": ns-2 cannot build the mobile node"
            )
        if config.get("IncomingErrProc"):
            # ns-lib.tcl `create-wireless-node` calls the proc for each node it makes.
            config["incoming_loss"] = self.errors.incoming_loss(config["IncomingErrProc"])
        if "propInstance" in config:
            prop = self.o.objects[config["propInstance"]]
            if "propType" in config and config["propType"] != prop.cls:
                raise Refusal("-propType and -propInstance name different models")
            config["propType"] = prop.cls
        elif config["propType"] == "Propagation/Shadowing":
            # ns-lib.tcl makes the one instance of -propType with the first mobile node.
            if self.shadowing_prop is None:
                self.shadowing_prop = self.o.create("Propagation/Shadowing")
            prop = self.shadowing_prop
        if config["propType"] == "Propagation/Shadowing":
            shadowing: dict[str, object] = {
                var: self.o.getvar(prop, var) for var in wireless.SHADOWING_KEYS
            }
            shadowing["seed"] = prop.info["seed"]
            config["shadowing"] = shadowing
        values = {
            cls: classes.class_defaults(cls, self.o.class_sets) for cls in classes.WIRELESS_VARS
        }
        snap = wireless.snapshot(config, values)
        snap["channel"] = config.get("channel", "channelType")
        # The node joins its channel's node list (the first starts it, `addNodeToList`).
        self.messages.node_joins(snap["channel"])
        if self.radio_reach is None:
            phy, antenna = values["Phy/WirelessPhy"], values["Antenna/OmniAntenna"]
            z = float(antenna["Z_"])
            self.radio_reach = (
                z,
                carrier_sense_distance(
                    config["propType"],
                    float(phy["CSThresh_"]),
                    float(phy["Pt_"]),
                    z,
                    float(phy["L_"]),
                    float(phy["freq_"]),
                ),
            )
        if self.radio is None:
            self.radio = snap
        elif snap != self.radio:
            diff = sorted(
                f"{part}.{k}"
                for part in ("wireless", "routing")
                for k in set(snap[part]) | set(self.radio[part])
                if snap[part].get(k) != self.radio[part].get(k)
            )
            what = ", ".join(diff) or "the channel"
            raise Refusal(
                f"a mobile node configured unlike the first ({what}): not supported; ternsim "
                "gives every node one [wireless] and [routing] configuration"
            )
        traced = self.trace_channel is not None
        n.info.update(
            mobile=True,
            x=0.0,
            y=0.0,
            moves=[],
            topo=self.o.objects[config["topoInstance"]],
            traced=traced,
            rtr_trace=traced and config.get("routerTrace") == "ON",
            mac_trace=traced and config.get("macTrace") == "ON",
        )
        wired_routing = config.get("wiredRouting") == "ON"
        mip = config.get("mobileIP") == "ON"
        if (wired_routing or mip) and not self.hierarchical:
            raise Refusal(
                "-wiredRouting ON or -mobileIP ON without hierarchical addresses: not "
                "supported (ns-2 needs `$ns node-config -addressType hierarchical`)"
            )
        n.info.update(base_station=wired_routing, mip=mip)
        if mip:
            # ns-2 (ns-mobilenode.tcl makemip-NewMIPBS / -NewMIPMH): the registration agent
            # on port 0, the decapsulator on port 1.
            cls = "Agent/MIPBS" if wired_routing else "Agent/MIPMH"
            reg = self.o.create(cls)
            reg.info.update(node=n, port=0, mip_node=n)
            # Attached as the node is made, so its `s`/`r AGT` lines follow the
            # -agentTrace of that node-config (ns-mobilenode.tcl `add-target`).
            n.info.update(
                regagent=reg,
                ports=mobileip.RESERVED_PORTS,
                mip_agt_trace=traced and config.get("agentTrace") == "ON",
            )

    def shadowing_set(self, prop: Obj, args: tuple) -> str:
        """``$prop set var [value]`` on a Propagation/Shadowing: its bound variables."""
        if len(args) not in (1, 2):
            raise Refusal("set: give VAR [VALUE]")
        var = args[0]
        if var not in classes.DEFAULTS["Propagation/Shadowing"]:
            self._no_shadowing_var(var)
        if len(args) == 1:
            return self.o.getvar(prop, var)
        value = args[1]
        self._before_run(f"$prop set {var}")
        try:
            number = float(value)
        except ValueError:
            raise Refusal(f"Propagation/Shadowing {var} {value}: not a number ns-2 reads") from None
        if var == "seed_" and not number.is_integer():
            raise Refusal(f"Propagation/Shadowing seed_ {value}: not an integer")
        self.o.setvar(prop, var, value)
        return value

    def _no_shadowing_var(self, var: str) -> None:
        names = ", ".join(classes.DEFAULTS["Propagation/Shadowing"])
        raise Refusal(f"Propagation/Shadowing {var}: not supported; supported: {names}")

    def _shadowing_seed(self, args: tuple) -> int:
        source, text = args
        try:
            n = int(float(text))
        except ValueError:
            raise Refusal(f"seed {source} {text}: not an integer") from None
        if source == "predef" and not 0 <= n < wireless.PREDEF_SEEDS:
            # ns-2's RNG::set_seed aborts on any other index.
            raise Refusal(f"seed predef {text}: ns-2 has predefined seeds 0 to 63 only")
        return wireless.shadowing_seed(source, n)

    def shadowing_seed(self, prop: Obj, args: tuple) -> str:
        """``$prop seed predef|raw|heuristic N`` (shadowing.cc `Shadowing::command`): picks
        the stream the model draws from (see :func:`wireless.shadowing_seed`)."""
        if len(args) != 2 or args[0] not in ("predef", "raw", "heuristic"):
            raise Refusal("seed: give predef N, raw N or heuristic N")
        self._before_run("$prop seed")
        prop.info["seed"] = self._shadowing_seed(args)
        return ""

    def _mobile(self, node: Obj, what: str) -> Obj:
        if not node.info.get("mobile"):
            raise Refusal(
                f"{what} on a wired node: not supported (mobile nodes are made by `$ns node` "
                "after `$ns node-config -adhocRouting ...`)"
            )
        return node

    def node_config(self, sim: Obj, args: tuple) -> str:
        self._before_run("$ns node-config")
        if len(args) % 2:
            raise Refusal("node-config: give -KEY VALUE pairs")
        for key, value in zip(args[::2], args[1::2]):
            if not key.startswith("-"):
                raise Refusal(f"node-config: `{key}` is not a -KEY")
            name = key[1:]
            if name == "reset":
                self.config.values.clear()
                continue
            why = wireless.check_key(name, value)
            if why is not None:
                raise Refusal(why)
            if name == "channelType":
                # ns-lib.tcl's node-config warns (once) that -channel is the new way.
                self.messages.channel_type_warning()
            if name in ("propInstance", "channel", "topoInstance"):
                want = {
                    "propInstance": tuple(wireless.PROPAGATION),
                    "channel": ("Channel/WirelessChannel",),
                    "topoInstance": ("Topography",),
                }[name]
                o = self.o.objects.get(value)
                if o is None or o.cls not in want:
                    raise Refusal(f"-{name} {value}: give a {' or '.join(want)} object")
                if name == "topoInstance" and "grid" not in o.info:
                    raise Refusal("-topoInstance: the Topography has no `load_flatgrid` yet")
            self.config.values[name] = value
        return ""

    def use_newtrace(self, sim: Obj, args: tuple) -> str:
        # ns-lib.tcl's use-newtrace sets `Simulator set WirelessNewTrace_ 1`, which the
        # CMUTrace objects of the mobile nodes made afterwards read (their `newtrace_`).
        if any(n.info.get("mobile") for n in self.nodes):
            raise Refusal(
                "use-newtrace after mobile nodes were made: not supported (ns-2 traces the "
                "earlier nodes in the old format, the later ones in the new)"
            )
        self.newtrace = True
        return ""

    def namtrace_all_wireless(self, sim: Obj, args: tuple) -> str:
        self._before_run("$ns namtrace-all-wireless")
        if len(args) != 3:
            raise Refusal("namtrace-all-wireless: give a channel, X and Y")
        self.nam.channel = args[0]
        self.nam.wireless_size = (args[1], args[2])
        return ""

    def initial_node_pos(self, sim: Obj, args: tuple) -> str:
        """`$ns initial_node_pos NODE SIZE`: the node's position and size for nam, written at
        once (ns-2's line has two double spaces, from a continued line in ns-lib.tcl)."""
        if len(args) != 2:
            raise Refusal("initial_node_pos: give NODE SIZE")
        n = self.node_obj(args[0])
        if not n.info["mobile"]:
            raise Refusal("initial_node_pos of a wired node: not supported")
        x, y = _num(n.info["x"]), _num(n.info["y"])
        if "addr" in n.info:
            # A node of a hierarchical script: its address, and the spaces elsewhere.
            self.nam.puts(
                f"n -t * -a {n.info['addr']}  -s {n.info['id']} -x {x} -y {y} -Z 0  "
                f"-z {args[1]} -v circle -c black"
            )
            return ""
        self.nam.puts(
            f"n -t * -s {n.info['id']}  -x {x} -y {y} -Z 0 -z {args[1]}  -v circle -c black"
        )
        return ""

    def nam_end_wireless(self, sim: Obj, args: tuple) -> str:
        if len(args) != 1:
            raise Refusal("nam-end-wireless: give a time")
        if self.nam.channel is not None:
            self.nam.puts(f"W -t {args[0]}")
        return ""

    def load_flatgrid(self, topo: Obj, args: tuple) -> str:
        if len(args) not in (2, 3):
            raise Refusal("load_flatgrid: give X Y [RESOLUTION]")
        x, y = float(args[0]), float(args[1])
        if x <= 0 or y <= 0:
            raise Refusal(f"load_flatgrid {x:g} {y:g}: give a positive size")
        topo.info["grid"] = (x, y)
        return ""

    def create_god(self, *args: str) -> str:
        if len(args) != 1:
            raise Refusal("create-god: give the number of mobile nodes")
        god = self._god()
        god.info["nodes"] = int(args[0])
        # God::command num_nodes (C's stdout).
        self.messages.c_stdout(f"num_nodes is set {int(args[0])}")
        return god.name

    def _flush_stdout(self) -> None:
        """Writes out what the script has put on Tcl's stdout so far."""
        self.o.tcl.call("flush", "stdout")

    def _god(self) -> Obj:
        if self.god is None:
            god = Obj("_o" + str(self.o._count + 1), "God")
            self.o._count += 1
            god.info["nodes"] = 0
            self.o.objects[god.name] = god
            self.o.tcl.createcommand(god.name, self.o._guard(lambda *a: self.o.dispatch(god, a)))
            self.god = god
        return self.god

    def _god_class(self, *args: str) -> str:
        if args == ("instance",):
            return self._god().name
        raise Refusal("God: not supported; supported: God instance, create-god N")

    def ns_random(self, *args: str) -> str:
        """`ns-random SEED` seeds ns-2's default generator; `ns-random` draws an integer in
        [0, 2^31 - 1) from it (`Random::random`): here from ternsim's stream for it,
        reproducible for a seed, not ns-2's numbers."""
        if not args:
            rng = self.default_rng
            return str(self.o.dispatch(rng, ("next-random",)))
        if len(args) != 1:
            raise Refusal("ns-random: give at most a seed")
        self._seed(args[0])
        return ""

    def rng_seed(self, rng: Obj, args: tuple) -> str:
        if not args:
            return str(rng.info.get("seed", 1))
        if len(args) != 1:
            raise Refusal("seed: give N")
        rng.info["seed"] = int(float(args[0]))
        if rng is self.default_rng:
            self._seed(args[0])
        else:
            self.errors.seed_rng(rng, rng.info["seed"])
        return ""

    def _seed(self, text: str) -> None:
        """ns-2's default generator seeded with N > 0 is the run's seed; 0 (ns-2: a seed from
        the clock) leaves the seed ternsim was given."""
        self._before_run("seeding the random number generator")
        n = int(float(text))
        if n < 0:
            raise Refusal(f"seed {n}: give 0 or more")
        if n > 2**31 - 1:
            raise Refusal(f"seed {n}: not supported; supported: 0 to 2147483647")
        if n > 0:
            self.seed = n
        self.default_rng_seed = n if n > 0 else None
        self.rng_draws = 0
        # RNG::set_seed on the default RNG seeds the package too (the next `new RNG`).
        self.errors.seed_rng(self.default_rng, n)

    # --- mobile nodes ----------------------------------------------------------------------

    def node_set(self, node: Obj, args: tuple) -> str:
        var = args[0] if args else ""
        if args == ("regagent_",) and "regagent" in node.info:
            return node.info["regagent"].name
        if var not in ("X_", "Y_", "Z_") or len(args) not in (1, 2):
            raise Refusal(
                f"$node set {var}: not supported; supported: X_, Y_, Z_ (mobile nodes), "
                "regagent_ (read, nodes made with -mobileIP ON)"
            )
        self._mobile(node, f"set {var}")
        if len(args) == 1:
            if var == "Z_":
                return "0.0"
            if self.started and node.info["moves"]:
                raise Refusal(
                    f"{var} of a moving node from a callback: not supported (needs the "
                    "position mid-run)"
                )
            return _num(node.info["x" if var == "X_" else "y"])
        self._before_run(f"$node set {var}")
        value = float(args[1])
        if var == "Z_":
            if value != 0.0:
                raise Refusal(
                    "Z_ other than 0: not supported (ternsim nodes are on the ground; the "
                    "antenna height is Antenna/OmniAntenna Z_)"
                )
        else:
            node.info["x" if var == "X_" else "y"] = value
        return args[1]

    def node_random_motion(self, node: Obj, args: tuple) -> str:
        self._mobile(node, "random-motion")
        if args != ("0",):
            raise Refusal(
                "random-motion 1: not supported; supported: random-motion 0 (give the moves "
                "with setdest, or use a ternsim scenario's [mobility] random waypoint)"
            )
        return ""

    def node_reset(self, node: Obj, args: tuple) -> str:
        """``$node reset``: in a callback during the run, the node's interface queue is
        flushed (ns-2's `END` drops); before the run it changes nothing."""
        self._mobile(node, "reset")
        if self.started and self.live is not None:
            self.live.reset_node(node)
        return ""

    def node_base_station(self, node: Obj, args: tuple) -> str:
        """``$node base-station ID``: the base station (`AddrParams addr2id` of its address)
        through which a mobile node of a wired-cum-wireless script reaches other subnets
        (ns-2 ``MobileNode::base_stn_``); without an argument, the one set."""
        self._mobile(node, "base-station")
        if not args:
            return str(node.info.get("base_stn", -1))
        if len(args) != 1:
            raise Refusal("base-station: give one node id (AddrParams addr2id ADDR)")
        if self.started:
            raise Refusal("base-station during the run: not supported; set it before `$ns run`")
        try:
            node.info["base_stn"] = int(args[0])
        except ValueError:
            raise Refusal(f"base-station {args[0]}: give a node id") from None
        return ""

    def node_setdest(self, node: Obj, args: tuple) -> str:
        self._mobile(node, "setdest")
        if self.started:
            raise Refusal(
                "setdest from a callback: not supported; schedule it with "
                '`$ns at TIME "$node setdest X Y SPEED"` before the run'
            )
        self.events.append(
            Event(0.0, len(self.events), f"{node.name} setdest {' '.join(args)}", self.where())
        )
        return ""

    def move(self, node: Obj, time: float, args: tuple, where: str) -> None:
        """A `$ns at TIME "$node setdest X Y SPEED"`, checked as ns-2 checks it."""
        if len(args) != 3:
            raise Refusal("setdest: give X Y SPEED", where=where)
        try:
            x, y, speed = (float(a) for a in args)
        except ValueError:
            raise Refusal(f"setdest {' '.join(args)}: give numbers", where=where) from None
        gx, gy = node.info["topo"].info["grid"]
        if not (0.0 < x < gx and 0.0 < y < gy):
            raise Refusal(
                f"setdest {x:g} {y:g}: outside the {gx:g} x {gy:g} Topography (ns-2 fails here "
                "with an error)",
                where=where,
            )
        if speed < 0:
            raise Refusal(f"setdest speed {speed:g}: give 0 or more", where=where)
        node.info["moves"].append(wireless.Move(time, x, y, speed, len(node.info["moves"])))

    def duplex_link(self, sim: Obj, args: tuple) -> str:
        self._before_run("$ns duplex-link")
        a, b, qtype = self._link_args("duplex-link", args)
        for n in (a, b):
            if n.info["mobile"] and not n.info.get("base_station"):
                raise Refusal(
                    "duplex-link to a mobile node: not supported; supported: links between "
                    "wired nodes and base stations (-wiredRouting ON)"
                )
        replaced = self._replaced_link(a, b)
        if replaced is None:
            self._no_link_between(a, b, "duplex-link")
        link = Link(
            a,
            b,
            classes.bandwidth(args[2]),
            classes.seconds(args[3]),
            traced=self.trace_channel is not None,
            where=self.where(),
        )
        # ns-2 puts nam trace objects on links made after `namtrace-all` (simplex-link).
        link.nam_dirs = [self.nam.channel is not None] * 2
        # ns-2's trace objects read `Trace set show_tcphdr_` when they are made.
        link.tcphdr = [self.show_tcphdr()] * 2
        # ns-2 makes the a -> b simplex link, then b -> a, each with a new Queue/<type>.
        for d in range(2):
            self._make_direction(link, d, qtype)
        if replaced is not None:
            # ns-2's link_(a:b) and link_(b:a) now name the new simplex links, which routing
            # and `$ns link` use from then on; the old ones stay, carrying nothing.
            self.links[self.links.index(replaced)] = link
            for n in (a, b):
                n.info["relinked"] = True
        else:
            self.links.append(link)
        return ""

    def _replaced_link(self, a: Obj, b: Obj) -> Link | None:
        """A second `duplex-link` between two nodes already joined by a duplex link
        (test-suite-red.tcl's net3 makes r1-r2 twice, test-suite-sack.tcl's sack_finiteflow
        remakes r1-k1): ns-2 makes two new simplex links, and its link_ array, which routes
        and `$ns link` follow, names them instead of the first ones. The old link is
        replaced when nothing holds on to it: no loss module, queue or flow monitor,
        dynamics or rtModel on it."""
        for link in self.links:
            if {link.a.name, link.b.name} != {a.name, b.name}:
                continue
            held = (
                link.missing is not None
                or any(link.stages)
                or link.rtmodels
                or link.nam_rtmodels
                or any(link.dynamics)
                or any(qm.info.get("link") is link for qm in self.monitors)
                or any(rt.link is link for rt in self.rtmodels)
            )
            return None if held else link
        return None

    def _link_args(self, what: str, args: tuple) -> tuple[Obj, Obj, str]:
        """The two nodes and the queue type of `$ns duplex-link|simplex-link A B BW DELAY
        QUEUE`, refusing a queue ternsim has not and a link from a node to itself."""
        if len(args) < 5:
            raise Refusal(f"{what}: give NODE NODE BANDWIDTH DELAY QUEUE")
        a, b = self.node_obj(args[0]), self.node_obj(args[1])
        qtype = args[4]
        if qtype not in ("DropTail", "RED", "SFQ") or len(args) > 5:
            raise Refusal(
                f"queue {' '.join(args[4:])} not supported; supported: DropTail, RED, SFQ"
            )
        if a is b:
            raise Refusal(f"{what} from a node to itself")
        return a, b, qtype

    def _no_link_between(self, a: Obj, b: Obj, what: str) -> None:
        for link in self.links:
            if {link.a.name, link.b.name} == {a.name, b.name}:
                raise Refusal(f"{what}: a second link between the same nodes: not supported")

    def _make_direction(self, link: Link, d: int, qtype: str) -> None:
        """One direction of `link` (ns-2's simplex link), with a new Queue/<type> and the
        object `$ns link` returns for it."""
        queue = self.o.create(f"Queue/{qtype}")
        queue.info.update(link=link, direction=d)
        if qtype == "RED":
            # `$q link` at creation: RED chooses its automatic parameters from the link.
            from .scenario import red_automatic

            red_automatic(self.o, queue, link)
        handle = self.o.create("SimpleLink")
        handle.info.update(link=link, queue=queue, direction=d)
        avoid = self.o.class_sets.get("DelayLink", {}).get("avoidReordering_", "false")
        link.avoid_reordering[d] = classes.boolean(avoid)
        link.queues.append(queue)
        link.handles.append(handle)
        self.nam.register(handle)

    def simplex_link(self, sim: Obj, args: tuple) -> str:
        """`$ns simplex-link A B BANDWIDTH DELAY QUEUE`: one direction. ternsim's links carry
        both, so the A -> B direction waits for a `simplex-link B A` (the two may differ in
        rate, delay and queue: an asymmetric link); a simplex link whose way back is never
        made is refused before the run."""
        self._before_run("$ns simplex-link")
        a, b, qtype = self._link_args("simplex-link", args)
        for n in (a, b):
            if n.info["mobile"]:
                raise Refusal(
                    "simplex-link to a mobile node: not supported; supported: simplex links "
                    "between wired nodes"
                )
        rate, delay = classes.bandwidth(args[2]), classes.seconds(args[3])
        traced = self.trace_channel is not None
        for link in self.links:
            if link.missing == 1 and link.a is b and link.b is a:
                # The way back of `simplex-link B A`: direction 1 (b -> a) of that link.
                link.missing = None
                link.dir_rates[1], link.dir_delays[1] = rate, delay
                link.traced_dirs[1] = traced
                link.tcphdr[1] = self.show_tcphdr()
                link.nam_dirs[1] = self.nam.channel is not None
                self._make_direction(link, 1, qtype)
                return ""
        self._no_link_between(a, b, "simplex-link")
        link = Link(a, b, rate, delay, traced=traced, where=self.where())
        link.traced_dirs[1] = False
        link.nam_dirs = [self.nam.channel is not None, False]
        link.tcphdr = [self.show_tcphdr(), False]
        link.missing = 1
        self._make_direction(link, 0, qtype)
        self.links.append(link)
        return ""

    def _delay_link(self, handle: Obj, args: tuple) -> str:
        """`[$ns link A B] link`: the direction's DelayLink (made when first asked for)."""
        if "delay_link" not in handle.info:
            dl = self.o.create("DelayLink")
            dl.info.update(link=handle.info["link"], direction=handle.info["direction"])
            handle.info["delay_link"] = dl
        return handle.info["delay_link"].name

    def _delay_link_var(self, dl: Obj, args: tuple) -> str:
        """A DelayLink's `bandwidth_` (b/s) and `delay_` (s), bound doubles printed `%.17g`;
        set before the run only (ternsim's links keep their rate and delay during it)."""
        link, d = dl.info["link"], dl.info["direction"]
        if args[:1] == ("avoidReordering_",) and len(args) <= 2:
            # A bound bool (ns-2 prints it 0 or 1).
            if len(args) == 2:
                self._before_run("[$link link] set avoidReordering_")
                link.avoid_reordering[d] = classes.boolean(args[1])
            return "1" if link.avoid_reordering[d] else "0"
        values = {"bandwidth_": link.dir_rates, "delay_": link.dir_delays}
        if not args or len(args) > 2 or args[0] not in values:
            raise Refusal(
                f"DelayLink {' '.join(args[:1])}: not supported; supported: set "
                "bandwidth_|delay_|avoidReordering_ [VALUE]"
            )
        if len(args) == 2:
            self._before_run(f"[$link link] set {args[0]}")
            convert = classes.bandwidth if args[0] == "bandwidth_" else classes.seconds
            try:
                values[args[0]][d] = convert(args[1])
            except ValueError as exc:
                raise Refusal(f"DelayLink {args[0]} {args[1]}: {exc}") from None
        return format(values[args[0]][d], ".17g")

    def link(self, sim: Obj, args: tuple) -> str:
        if len(args) != 2:
            raise Refusal("link: give NODE NODE")
        link, d = self.find_link(self.node_obj(args[0]), self.node_obj(args[1]))
        return link.handles[d].name

    def _on_class_set(self, cls: str, var: str, value: str) -> None:
        if classes.is_a(self.o.builtin_base(cls), "Queue/RED"):
            from .scenario import red_refusal

            message = red_refusal(var, classes.bound_value(var, value))
            if message is not None:
                raise Refusal(message)

    def rtmodel_at(self, sim: Obj, args: tuple) -> str:
        """`$ns rtmodel-at T down|up A B`: both directions of the A-B link go down or up at
        T (ns-2.35 `dynamics.tcl`: an `rtModel/Manual` with one event)."""
        self._before_run("$ns rtmodel-at")
        if len(args) != 4 or args[1] not in ("down", "up"):
            raise Refusal(
                f"rtmodel-at {' '.join(args)}: not supported; supported: rtmodel-at TIME "
                "down|up NODE NODE (a link going down or up)"
            )
        model = self._new_rtmodel("Manual", args[2:])
        model.op, model.at, model.at_key = args[1], _at_time(args[0]), args[0]
        return ""

    def rtmodel(self, sim: Obj, args: tuple) -> str:
        """`$ns rtmodel Deterministic {[START] UP DOWN [FINISH]} A [B]` (ns-2.35
        `dynamics.tcl`): the A-B link, or every link of A, goes down at START + UP, up DOWN
        seconds later, down again UP seconds after that, and so on (none after FINISH, but
        a last up at FINISH itself); ns-2's class defaults for what the list leaves out."""
        self._before_run("$ns rtmodel")
        supported = (
            "supported: rtmodel Deterministic {[START] UP DOWN [FINISH]} NODE [NODE] and "
            "rtmodel-at TIME down|up NODE NODE"
        )
        if len(args) < 3 or args[0] != "Deterministic" or len(args) > 4:
            extra = ""
            if args and args[0] == "Exponential":
                extra = (
                    " (Exponential draws its times from ns-2's rtglibRNG, which ternsim "
                    "does not emulate for link models)"
                )
            raise Refusal(f"rtmodel {' '.join(args)}: not supported{extra}; {supported}")
        model = self._new_rtmodel("Deterministic", args[2:])
        parameters(model, list(self.o.tcl.splitlist(args[1])), self.o.class_sets)
        return ""

    def _new_rtmodel(self, kind: str, nodes: tuple) -> RtModel:
        """An rtModel over the link between two nodes, or over every link of one node
        (ns-2's `set-elements`), hooked into the trace-all and nam files open now (`rtModel
        trace`: a `v` line per direction at each of its events)."""
        tcl = self.o.tcl
        if len(nodes) == 2:
            a, b = self.node_obj(nodes[0]), self.node_obj(nodes[1])
        else:
            a = self.node_obj(nodes[0])
            others = self.o.tcl.splitlist(self.node_neighbors(a, ()))
            if len(others) != 1:
                raise Refusal(
                    f"rtmodel on node {a.info['id']} with {len(others)} links: not supported; "
                    "supported: a node with one link, or NODE NODE (one link)"
                )
            b = self.node_obj(others[0])
        link, _ = self.find_link(a, b)
        if self.trace_channel is not None:
            link.rtmodels += 1
        if self.nam.channel is not None:
            link.nam_rtmodels += 1
        # ns-2's rtModel takes the link's directions down in the order Tcl lists its array
        # links_, keyed "A:B" then "B:A" (Tcl 8.6's hash order: B -> A first here).
        x, y = str(a.info["id"]), str(b.info["id"])
        tcl.eval("array unset ::ns2::links_")
        tcl.eval(f"set ::ns2::links_({x}:{y}) {{}}; set ::ns2::links_({y}:{x}) {{}}")
        order = [tuple(k.split(":")) for k in tcl.splitlist(tcl.eval("array names ::ns2::links_"))]
        tcl.eval("array unset ::ns2::links_")
        # It then tells the two nodes in the order Tcl lists its array nodes_, keyed by id.
        tcl.eval(f"set ::ns2::nodes_({x}) {{}}; set ::ns2::nodes_({y}) {{}}")
        notify = tuple(tcl.splitlist(tcl.eval("array names ::ns2::nodes_")))
        tcl.eval("array unset ::ns2::nodes_")
        model = RtModel(kind, link, tuple(order), notify if len(notify) == 2 else (x, y))
        self.rtmodels.append(model)
        return model

    def schedule_link_events(self, end: float) -> None:
        """The rtModels' events before ``end`` (s), as ns-2's rtQueue runs them: fills
        `rtq_runs`, `link_events` and `link_event_notify`."""
        self.rtq_runs = RtQueue().schedule(self.rtmodels, end)
        self.link_events, self.link_event_notify = [], []
        for run in self.rtq_runs:
            for model, op in run.events:
                k = len(self.link_events)
                self.link_events.append((run.time, k, op, model.link, model.dirs))
                self.link_event_notify.append(model.notify)

    def dynamics_lines(self, run: Run) -> list[tuple[str, str]]:
        """What the script's `trace-dynamics` channels get at one run of the rtQueue:
        (channel, line) in the order ns-2 writes them (each event's directions in the order
        its model takes them, each direction's traces in the order they were asked for):
        `v TIME link-down|up FROM TO`, or with `nam` the nam trace's `l` and `v` lines."""
        from .nam import link_event_lines

        out = []
        for model, op in run.events:
            link = model.link
            for who in model.dirs:
                d = 0 if who == (str(link.a.info["id"]), str(link.b.info["id"])) else 1
                for channel, nam in link.dynamics[d]:
                    if nam:
                        out += [(channel, x) for x in link_event_lines(run.time, op, (who,), 1)]
                    else:
                        out.append((channel, f"v {_num(run.time)} link-{op} {who[0]} {who[1]}"))
        return out

    def link_delay(self, sim: Obj, args: tuple) -> str:
        """`$ns delay A B DELAY [simplex|duplex]` before the run: the A -> B (or both)
        direction's delay. Scheduled with `$ns at`, it is a link event of the run
        (`link_changes`)."""
        self._before_run("$ns delay")
        if len(args) not in (3, 4) or (len(args) == 4 and args[3] not in ("simplex", "duplex")):
            raise Refusal("delay: give NODE NODE DELAY [simplex|duplex]")
        link, d = self.find_link(self.node_obj(args[0]), self.node_obj(args[1]))
        value = classes.seconds(args[2])
        for x in (0, 1) if len(args) == 4 and args[3] == "duplex" else (d,):
            link.dir_delays[x] = value
        return ""

    def link_bandwidth(self, sim: Obj, args: tuple) -> str:
        """`$ns bandwidth A B BW [simplex|duplex]` before the run: the A -> B (or both)
        direction's rate. Scheduled with `$ns at`, it is a link event of the run."""
        self._before_run("$ns bandwidth")
        if len(args) not in (3, 4) or (len(args) == 4 and args[3] not in ("simplex", "duplex")):
            raise Refusal("bandwidth: give NODE NODE BANDWIDTH [simplex|duplex]")
        link, d = self.find_link(self.node_obj(args[0]), self.node_obj(args[1]))
        value = classes.bandwidth(args[2])
        for x in (0, 1) if len(args) == 4 and args[3] == "duplex" else (d,):
            link.dir_rates[x] = value
        return ""

    def show_tcphdr(self) -> bool:
        """Whether trace objects made now show the TCP header's fields (`Trace set
        show_tcphdr_`, a non-zero integer as ns-2's bound int reads it)."""
        value = self.o.class_sets.get("Trace", {}).get("show_tcphdr_", "0")
        try:
            return int(float(value)) != 0
        except ValueError:
            raise Refusal(f"Trace set show_tcphdr_ {value}: give an integer") from None

    def node_neighbors(self, node: Obj, args: tuple) -> str:
        """`$node neighbors`: the nodes it has a link to, in the order the links were made
        (ns-2's add-neighbor as each simplex link is made)."""
        if node.info.get("relinked"):
            raise Refusal(
                "neighbors of a node with a link made twice: not supported (ns-2 lists the "
                "neighbor once per link made)"
            )
        out = []
        for link in self.links:
            if link.a is node:
                out.append(link.b.name)
            elif link.b is node and link.missing != 1:
                out.append(link.a.name)
        return " ".join(out)

    def eventtrace_all(self, sim: Obj, args: tuple) -> str:
        """`$ns eventtrace-all [FILE]` (ns-lib.tcl): the TCP agents made from now on write
        their event trace (`E` lines: fast retransmits, timeouts, slow starts) into FILE, or
        without one into the trace-all channel named so far."""
        self._before_run("$ns eventtrace-all")
        if len(args) > 1:
            raise Refusal("eventtrace-all: give at most a channel")
        channel = args[0] if args and args[0] != "" else self.trace_channel
        if channel is None:
            # ns-2 reads `traceAllFile_`, which only trace-all sets.
            raise Refusal(
                "eventtrace-all without a channel before trace-all: ns-2 fails "
                '(can\'t read "traceAllFile_"); call trace-all first or give a channel'
            )
        self.event_channel = channel
        return ""

    def _trace_dynamics(self, handle: Obj, args: tuple) -> str:
        """`$link trace-dynamics $ns CHANNEL [nam]` (ns-2.35 `ns-link.tcl`): at each down
        and up of this link direction ns-2 writes a line into CHANNEL, `v TIME link-down
        FROM TO` (with `nam`: the nam trace's `l` and `v` lines), as the run reaches it."""
        self._before_run("$link trace-dynamics")
        if len(args) not in (2, 3) or (len(args) == 3 and args[2] not in ("nam", "")):
            raise Refusal("trace-dynamics: give $ns CHANNEL [nam]")
        channel = args[1]
        if channel in (self.trace_channel, self.nam.channel):
            raise Refusal(
                f"trace-dynamics into the trace-all or namtrace-all channel {channel}: not "
                "supported; supported: another channel (stdout, a file of its own)"
            )
        for link in self.links:
            for d, h in enumerate(link.handles):
                if h is handle:
                    link.dynamics[d].append((channel, len(args) == 3 and args[2] == "nam"))
        return ""

    def cost(self, sim: Obj, args: tuple) -> str:
        if len(args) != 3:
            raise Refusal("cost: give NODE NODE COST")
        link, d = self.find_link(self.node_obj(args[0]), self.node_obj(args[1]))
        return self._link_cost(link.handles[d], args[2:])

    def _link_cost(self, handle: Obj, args: tuple) -> str:
        """ternsim routes by hop count, which is ns-2's static routing with every cost 1:
        only cost 1 is accepted."""
        self._before_run("$ns cost")
        if len(args) != 1:
            raise Refusal("cost: give a cost")
        try:
            cost = float(args[0])
        except ValueError:
            raise Refusal(f"cost {args[0]}: not a number") from None
        if cost != 1.0:
            raise Refusal(
                f"cost {args[0]}: not supported; supported: cost 1 (ternsim's static routes "
                "count hops, ns-2's default cost)"
            )
        return ""

    def detach_agent(self, sim: Obj, args: tuple) -> str:
        """`$ns detach-agent NODE AGENT`. Before the run the agent is as if never attached
        (ns-2 points its node's port at the null agent; the port number stays used). During
        the run (ns-2's `simple.tcl` at 1.35 s) the core absorbs, from then on, what the
        agent sends and what reaches its port, as ns-2's null agent does."""
        if len(args) != 2:
            raise Refusal("detach-agent: give NODE AGENT")
        node, agent = self.node_obj(args[0]), self.obj(args[1], "Agent")
        if agent.info["node"] is not node:
            raise Refusal("detach-agent: the agent is not attached to that node")
        if self.started:
            # The scenario is built: the agent keeps its node and port numbers (the trace
            # numbers packets by them); only the core stops carrying its packets.
            if self.live is not None:
                self.live.detach(agent)
            return ""
        if agent.info["peer"] is not None:
            raise Refusal(
                "detach-agent of a connected agent: not supported; supported: detaching an "
                "agent that is not connected"
            )
        agent.info["node"] = None
        agent.info["detached"] = True
        return ""

    def trace_queue(self, sim: Obj, args: tuple) -> str:
        """`$ns trace-queue A B [FILE]`: traces the A -> B direction into the trace-all
        channel (the only file ternsim writes a wired trace into)."""
        self._before_run("$ns trace-queue")
        if len(args) not in (2, 3):
            raise Refusal("trace-queue: give NODE NODE [FILE]")
        link, d = self.find_link(self.node_obj(args[0]), self.node_obj(args[1]))
        channel = args[2] if len(args) == 3 else self.trace_channel
        if channel is None:
            return ""
        if channel != self.trace_channel:
            # ns-2 adds a set of trace objects writing into FILE. On a direction trace-all
            # traces, its lines stay as they were (each line once in each file); on one it
            # does not, the core traces the direction and its lines go into FILE only.
            ids = (str(link.a.info["id"]), str(link.b.info["id"]))
            pair = ids if d == 0 else (ids[1], ids[0])
            if not link.traced_dirs[d]:
                if link.stages[d]:
                    raise Refusal(
                        "trace-queue on a link direction that has a loss module: not "
                        "supported (ns-2 would put the new trace ahead of it)"
                    )
                if any(pair in pairs for pairs in self.queue_traces.values()):
                    raise Refusal(
                        "trace-queue of one untraced link direction into two files: not supported"
                    )
                link.traced_dirs[d] = True
                link.tcphdr[d] = self.show_tcphdr()
                self.queue_only.add(pair)
            self.queue_traces.setdefault(channel, set()).add(pair)
            return ""
        if link.traced_dirs[d]:
            raise Refusal(
                "trace-queue on a traced link direction: not supported (ns-2 would write "
                "each of its lines twice)"
            )
        if link.stages[d]:
            raise Refusal(
                "trace-queue on a link direction that has a loss module: not supported "
                "(ns-2 would put the new trace ahead of it)"
            )
        link.traced_dirs[d] = True
        link.tcphdr[d] = self.show_tcphdr()
        return ""

    def monitor_queue(self, sim: Obj, args: tuple) -> str:
        """`$ns monitor-queue A B QTRACE [INTERVAL]`: a QueueMonitor on the A -> B queue
        (ternsim.ns2.monitor). ns-2 writes into QTRACE only after the link's
        `start-tracing` (a line per arrival, departure and drop) or `queue-sample-timeout`
        (a line every INTERVAL)."""
        self._before_run("$ns monitor-queue")
        if len(args) not in (3, 4):
            raise Refusal("monitor-queue: give NODE NODE QTRACE [SAMPLEINTERVAL]")
        link, d = self.find_link(self.node_obj(args[0]), self.node_obj(args[1]))
        qm = self.o.create("QueueMonitor")
        qm.info.update(
            link=link,
            direction=d,
            ends=(str(self.node_obj(args[0]).info["id"]), str(self.node_obj(args[1]).info["id"])),
            behind={id(em) for p, em in link.stages[d] if p == "enqueue"},
        )
        self.queue_monitors.add_integrators(qm)
        # What the link's `start-tracing` and `queue-sample-timeout` use (ns-link.tcl
        # `init-monitor` keeps them on the SimpleLink of that direction).
        qm.info.update(qtrace=args[2], sample_interval=args[3] if len(args) == 4 else "0.1")
        link.handles[d].info["monitor"] = qm
        self.monitors.append(qm)
        return qm.name

    def makeflowmon(self, sim: Obj, args: tuple) -> str:
        """`$ns makeflowmon Fid` (ns-lib.tcl): a flow monitor classifying by flow id; it
        counts once `attach-fmon` puts it on a link (ternsim.ns2.monitor)."""
        self._before_run("$ns makeflowmon")
        if not args or args[0] != "Fid" or len(args) > 2:
            raise Refusal(
                f"makeflowmon {' '.join(args)}: not supported; supported: makeflowmon Fid "
                "(flows by flow id)"
            )
        fmon = self.o.create("QueueMonitor/ED/Flowmon")
        fmon.info.update(link=None, flows={}, classifier=self.o.create("Classifier/Hash/Fid"))
        fmon.info["classifier"].info["fmon"] = fmon
        return fmon.name

    def attach_fmon(self, sim: Obj, args: tuple) -> str:
        """`$ns attach-fmon LINK FMON [EDROP]` (ns-lib.tcl): the flow monitor's snoops on
        the link, as a queue monitor's (arrivals at its head, departures onto the wire, the
        queue's drops). With EDROP 1 a RED queue's early drops go to an EDrop snoop, which
        counts them as drops too (EDQueueMonitor::edrop calls QueueMonitor::drop) and ns-2
        still traces them: the counters ternsim keeps are the same (the early drops' own
        `epdrops_`/`ebdrops_` are not kept, and refused when read)."""
        self._before_run("$ns attach-fmon")
        if len(args) not in (2, 3) or args[2:] not in ((), ("0",), ("1",)):
            raise Refusal("attach-fmon: give LINK FMON [0|1]")
        handle, fmon = self.obj(args[0], "SimpleLink"), self.obj(args[1], "QueueMonitor")
        if fmon.info.get("flows") is None or fmon.info.get("link") is not None:
            raise Refusal("attach-fmon: give a flow monitor from makeflowmon, once")
        link, d = handle.info["link"], handle.info["direction"]
        ends = (link.a, link.b) if d == 0 else (link.b, link.a)
        fmon.info.update(
            link=link,
            direction=d,
            ends=(str(ends[0].info["id"]), str(ends[1].info["id"])),
            behind={id(em) for p, em in link.stages[d] if p == "enqueue"},
        )
        self.monitors.append(fmon)
        return ""

    def _refuse_monitor(self, sim: Obj, args: tuple) -> str:
        raise Refusal(
            "queue-monitor: not supported; supported: monitor-queue A B QTRACE [INTERVAL] "
            "(a QueueMonitor's size_, pkts_, parrivals_, barrivals_, pdepartures_, "
            "bdepartures_, pdrops_, bdrops_)"
        )

    def find_link(self, a: Obj, b: Obj) -> tuple[Link, int]:
        for link in self.links:
            if link.a is a and link.b is b:
                return link, 0
            if link.a is b and link.b is a and link.missing != 1:
                return link, 1
        raise Refusal(f"no link between node {a.info['id']} and node {b.info['id']}")

    def queue_limit(self, sim: Obj, args: tuple) -> str:
        self._before_run("$ns queue-limit")
        if len(args) != 3:
            raise Refusal("queue-limit: give NODE NODE LIMIT")
        link, d = self.find_link(self.node_obj(args[0]), self.node_obj(args[1]))
        self._set_limit(link.queues[d], args[2])
        return ""

    def _set_limit(self, queue: Obj, value: str) -> str:
        limit = int(float(value))
        red = self.o.builtin_base(queue.cls) == "Queue/RED"
        if limit < (1 if red else 2):
            raise Refusal(
                f"queue limit {limit}: limits below {1 if red else 2} are not supported"
                + ("" if red else " (DropTail counts the packet on the wire)")
            )
        self.o.setvar(queue, "limit_", str(limit))
        return str(limit)

    def trace_all(self, sim: Obj, args: tuple) -> str:
        self._before_run("$ns trace-all")
        if len(args) != 1:
            raise Refusal("trace-all: give a channel (from `open FILE w`)")
        self.trace_channel = args[0]
        return ""

    def namtrace_all(self, sim: Obj, args: tuple) -> str:
        self._before_run("$ns namtrace-all")
        if len(args) != 1:
            raise Refusal("namtrace-all: give a channel")
        self.nam.channel = args[0]
        return ""

    def sim_color(self, sim: Obj, args: tuple) -> str:
        """`$ns color ID NAME`: flow ID's colour in nam (written in the header)."""
        if len(args) != 2:
            raise Refusal("color: give ID NAME")
        self.nam.colors[args[0]] = args[1]
        return ""

    def add_agent_trace(self, sim: Obj, args: tuple) -> str:
        """`$ns add-agent-trace AGENT NAME [FILE]` (tcl/lib/ns-namsupp.tcl): the agent's
        traced variables write into FILE, or the nam file, from now on (`attach-trace`), and
        when the run starts its `a` line names it NAME there (`dump-namagents`)."""
        self._before_run("$ns add-agent-trace")
        if len(args) not in (2, 3):
            raise Refusal("add-agent-trace: give AGENT NAME [FILE]")
        agent = self.obj(args[0], "Agent")
        if self.o.builtin_base(agent.cls) not in (
            "Agent/TCP",
            "Agent/TCP/Reno",
            "Agent/TCP/Newreno",
            "Agent/TCP/Sack1",
            "Agent/TCP/Fack",
            "Agent/TCP/SackRH",
            "Agent/TCP/Vegas",
        ):
            raise Refusal(f"add-agent-trace of a {agent.cls}: not supported (TCP agents only)")
        channel = args[2] if len(args) == 3 else self.nam.channel
        if channel is not None:
            self.var_traces.attach(agent, (channel,))
        self.nam.traced_agents[args[1]] = agent
        return ""

    def monitor_agent_trace(self, sim: Obj, args: tuple) -> str:
        """`$ns monitor-agent-trace AGENT`: nam shows the agent's variables (a `v ...
        monitor_agent` line when the run starts)."""
        self._before_run("$ns monitor-agent-trace")
        if len(args) != 1:
            raise Refusal("monitor-agent-trace: give AGENT")
        self.nam.monitored_agents.append(self.obj(args[0], "Agent"))
        return ""

    def duplex_link_op(self, sim: Obj, args: tuple) -> str:
        """`$ns duplex-link-op A B OP ARGS`: OP on the A -> B direction, then B -> A."""
        if len(args) < 3:
            raise Refusal("duplex-link-op: give NODE NODE OP [ARGS]")
        link, d = self.find_link(self.node_obj(args[0]), self.node_obj(args[1]))
        for x in (d, 1 - d):
            self.nam.link_op(link.handles[x], args[2], tuple(args[3:]))
        return ""

    def simplex_link_op(self, sim: Obj, args: tuple) -> str:
        if len(args) < 3:
            raise Refusal("simplex-link-op: give NODE NODE OP [ARGS]")
        link, d = self.find_link(self.node_obj(args[0]), self.node_obj(args[1]))
        return self.nam.link_op(link.handles[d], args[2], tuple(args[3:]))

    def _link_nam_op(self, op: str) -> Any:
        return lambda o, a: self.nam.link_op(o, op, tuple(a))

    def _node_nam_op(self, op: str) -> Any:
        return lambda o, a: self.nam.node_op(o, op, tuple(a))

    def set_animation_rate(self, sim: Obj, args: tuple) -> str:
        """`$ns set-animation-rate RATE` (nam only): the nam trace's ``v -t NOW set_rate_ext
        R 1`` line, R the time RATE names in seconds as ns-lib.tcl's `time_parse` reads it
        (Tcl's `scan %f%s`, then the unit's factor in `expr`)."""
        if len(args) != 1:
            raise Refusal("set-animation-rate: give a time (2ms, 0.5, ...)")
        tcl = self.o.tcl
        scanned = tcl.splitlist(tcl.eval(f"scan {{{args[0]}}} %f%s"))
        if not scanned or scanned[0] == "":
            raise Refusal(f"set-animation-rate {args[0]}: not a time")
        t, unit = scanned[0], (scanned[1] if len(scanned) > 1 and scanned[1] else "s")
        unit = re.sub("sec$", "s", unit)
        factors = {"ms": "1e-3", "us": "1e-6", "ns": "1e-9", "ps": "1e-12"}
        if unit != "s" and unit not in factors:
            raise Refusal(
                f"set-animation-rate {args[0]}: unknown unit; supported: s, {', '.join(factors)}"
            )
        rate = t if unit == "s" else tcl.eval(f"expr {t}*{factors[unit]}")
        self.nam.puts(f"v -t {_num(self.now)} set_rate_ext {rate} 1")
        return ""

    def trace_annotate(self, sim: Obj, args: tuple) -> str:
        if len(args) != 1:
            raise Refusal("trace-annotate: give a text")
        # The lines of the events before now go first (ns-2 wrote them as they happened).
        self.pull_trace()
        ch = self.trace_channel
        tcl = self.o.tcl

        def write(text: str) -> None:
            tcl.call("puts", "-nonewline", ch, text)

        is_open = ch is not None and ch in tcl.splitlist(tcl.call("file", "channels"))
        self.nam.annotate(args[0], write if is_open else None)
        return ""

    def rtproto(self, sim: Obj, args: tuple) -> str:
        """`$ns rtproto Static` (ns-2's default: routes computed once, a downed link's routes
        withdrawn), `Session` (routes recomputed over the links that are up at every
        topology change, at once: ternsim's static routing with `reroute`) or `DV` (ns-2's
        distance-vector routing on every node, its messages on the links: ternsim's
        `[routing] protocol = "dv"`)."""
        if args[:1] not in (("Static",), ("Session",), ("DV",)) or len(args) > 1:
            raise Refusal(
                f"rtproto {' '.join(args)}: not supported; supported: Static, Session, DV "
                "(on every node)"
            )
        self._before_run("$ns rtproto")
        if args[0] == "Session":
            self.session_routing = True
        if args[0] == "DV":
            self.dv_routing = True
        if self.session_routing and self.dv_routing:
            raise Refusal("rtproto Session with rtproto DV: not supported; give one")
        return ""

    def attach_agent(self, sim: Obj | None, args: tuple) -> str:
        self._before_run("$ns attach-agent")
        if len(args) != 2:
            raise Refusal("attach-agent: give NODE AGENT")
        node, agent = self.node_obj(args[0]), self.obj(args[1], "Agent")
        if agent.info["node"] is not None:
            raise Refusal("an agent attached twice: not supported")
        agent.info["node"] = node
        # ns-2's `Node attach` sets the agent's node_, which its methods read (a ping
        # agent's `recv` prints `[$node_ id]`).
        self.o.setvar(agent, "node_", node.name)
        agent.info["port"] = node.info["ports"]  # ns-2 numbers a node's agents 0, 1, ...
        # ns-2 puts the AGT trace points in when it attaches the agent (add-target).
        agent.info["agt_trace"] = (
            self.trace_channel is not None and self.config.values.get("agentTrace") == "ON"
        )
        node.info["ports"] += 1
        return ""

    def connect(self, sim: Obj, args: tuple) -> str:
        self._before_run("$ns connect")
        if len(args) != 2:
            raise Refusal("connect: give AGENT AGENT")
        a, b = self.obj(args[0], "Agent"), self.obj(args[1], "Agent")
        # A null agent may sink several sources (Greis's example2: two CBRs into one): it
        # has nothing to read, and each source is its own flow to the null agent's port.
        shared_null = self.o.builtin_base(b.cls) == "Agent/Null" and a.info["peer"] is None
        if a.info["peer"] is not None or (b.info["peer"] is not None and not shared_null):
            raise Refusal(
                "an agent connected twice: not supported (but for several sources into one "
                "Agent/Null)"
            )
        a.info["peer"], b.info["peer"] = b, a
        return a.name

    def create_connection(self, sim: Obj, args: tuple) -> str:
        if len(args) != 5:
            raise Refusal("create-connection: give SRCTYPE SRCNODE DSTTYPE DSTNODE FID")
        stype, snode, dtype, dnode, fid = args
        made = []
        for cls, node in ((f"Agent/{stype}", snode), (f"Agent/{dtype}", dnode)):
            if cls in classes.UNMODELLED:
                raise Refusal(
                    f"create-connection {cls[6:]}: not supported ({classes.UNMODELLED[cls]} "
                    "is not modelled)"
                )
            if not self.o.known(cls):
                raise Refusal(f"create-connection {cls[6:]}: not supported")
            agent = self.o.create(cls)
            self.o.setvar(agent, "fid_", fid)
            self.attach_agent(None, (node, agent.name))
            made.append(agent)
        self.connect(None, (made[0].name, made[1].name))  # type: ignore[arg-type]
        return made[0].name

    def create_connection_listen(self, sim: Obj, args: tuple) -> str:
        """`$ns create-connection-listen SRCTYPE SRCNODE DSTTYPE DSTNODE FID`
        (ns-lib.tcl): `create-connection`, then the destination agent listens (FullTcp)."""
        source = self.create_connection(sim, args)
        sink = self.o.objects[source].info["peer"]
        if not classes.is_a(self.o.builtin_base(sink.cls), "Agent/TCP/FullTcp"):
            raise Refusal(
                f"create-connection-listen {args[2]}: supported: a FullTcp destination "
                "(the agent that listens)"
            )
        self.full_listen(sink, ())
        return source

    def create_connection_list(self, sim: Obj, args: tuple) -> str:
        """`$ns create-connection-list SRCTYPE SRCNODE DSTTYPE DSTNODE FID` (ns-lib.tcl):
        `create-connection`, returning the list of both agents (source, destination)."""
        source = self.create_connection(sim, args)
        sink = self.o.objects[source].info["peer"]
        return f"{source} {sink.name}"

    def at(self, sim: Obj, args: tuple) -> str:
        if len(args) != 2:
            raise Refusal("at: give TIME SCRIPT")
        t = _at_time(args[0])
        ev = Event(t, len(self.events), args[1], self.where())
        self.events.append(ev)
        if self.started:
            if t < self.now:
                raise Refusal(f"$ns at {args[0]}: the time is before now ({self.now:.17g})")
            if _actions(self, self.o.tcl, args[1]) is not None:
                raise Refusal(
                    f"$ns at {args[0]} {args[1]!r} from a callback: not supported; schedule "
                    "application starts and stops and node moves before the run"
                )
            if self.schedule_hook is not None:
                self.schedule_hook(ev)
        return str(len(self.events))

    def run(self, sim: Obj, args: tuple) -> str:
        if self.started:
            raise Refusal("$ns run called twice: not supported")
        self.started = True
        # ns-2's `run` resets the agents, then writes the nam header (`init-nam`) before the
        # first event.
        self.var_traces.nam_reset_lines()
        for line in self.nam.header() if self.nam.channel is not None else ():
            self.nam.puts(line)
        if self.nam.channel is not None:
            self.var_traces.dump_nam_agents(self.nam)
        self.run_hook()
        return ""

    def halt(self, sim: Obj, args: tuple) -> str:
        self.halted = True
        return ""

    def flush_trace(self, sim: Obj, args: tuple) -> str:
        self.pull_trace()
        for ch in (self.trace_channel, self.nam.channel):
            if ch is not None and ch in self.o.tcl.call("file", "channels"):
                self.o.tcl.call("flush", ch)
        return ""

    # --- agents and applications -----------------------------------------------------------

    def obj_set(self, o: Obj, args: tuple) -> str:
        if len(args) == 1:
            return self.obj_get(o, args)
        if len(args) != 2:
            raise Refusal("set: give VAR [VALUE]")
        var, value = args
        from .scenario import TCP_UNMODELLED, red_refusal, settable, unmodelled_value

        base = self.o.builtin_base(o.cls)
        var = _traffic_alias(base, var)
        if classes.is_a(base, "Application") and var not in settable(base):
            # A variable an application's class does not bind in C++ is a plain OTcl
            # instance variable that nothing reads: `$ftp set type_ FTP` and `$cbr set
            # type_ CBR` (the common ns-2 tutorial dumbbell), `$ftp set maxpkts_ 0` (FTP is
            # an OTcl class, ns-source.tcl, and binds nothing).
            self.o.setvar(o, var, value)
            return value
        if self.started:
            if self.live is not None and self.live.write(o, var, value):
                return value
            raise Refusal(
                f"setting {var} of {self.o.builtin_base(o.cls)} during the run: not supported; "
                "supported: window_ of a TCP agent, bytes_ of a TCPSink, bytes_, npkts_ and "
                "nlost_ of a LossMonitor, interval_ of a Telnet application"
            )
        ok = settable(base)
        if (classes.is_a(base, "Agent/TCPSink") or classes.is_a(base, "Agent/TCP")) and not (
            var.endswith("_") or var in ok
        ):
            # Every variable ns-2.35's TCP agents and sinks bind in C++ ends in `_` (tcp.cc,
            # tcp-full.cc, tcp-sink.cc) but for T_SRTT_BITS and T_RTTVAR_BITS: another name
            # is a plain OTcl instance variable, which nothing reads (the simple suites'
            # `delayed` test sets `interval`, not `interval_`).
            self.o.setvar(o, var, value)
            return value
        if var not in ok:
            raise Refusal(f"{base} {var}: not supported; supported: {', '.join(sorted(ok))}")
        from .scenario import FULL_TCP_OPTIONS

        modelled = classes.is_a(base, "Agent/TCP/FullTcp") and var in FULL_TCP_OPTIONS
        if var in TCP_UNMODELLED and not modelled:
            message = unmodelled_value(base, var, value)
            if message is not None:
                raise Refusal(message)
        if var == "limit_" and classes.is_a(base, "Queue"):
            return self._set_limit(o, value)
        if base == "Queue/RED":
            message = red_refusal(var, classes.bound_value(var, value))
            if message is not None:
                raise Refusal(message)
        if base.startswith("Application/Traffic/CBR") and var == "interval_":
            # ns-2's CBR turns interval_ into rate_ with the packet size set at that moment.
            size = float(self.o.getvar(o, "packetSize_"))
            self.o.setvar(o, "rate_", _num(size * 8.0 / classes.seconds(value)))
        value = classes.bound_value(var, value)
        self.o.setvar(o, var, value)
        if var in ("fid_", "class_"):  # ns-2 binds both names to the agent's flow id
            self.o.setvar(o, "class_" if var == "fid_" else "fid_", value)
        return value

    def obj_get(self, o: Obj, args: tuple) -> str:
        if len(args) != 1:
            raise Refusal("get: give VAR")
        var = _traffic_alias(self.o.builtin_base(o.cls), args[0])
        if self.started and self.live is not None:
            value = self.live.read(o, var)
            if value is not None:
                return value
            if (
                var in classes.TCP_STATE
                and o.name in self.live.role
                and classes.is_a(self.o.builtin_base(o.cls), "Agent/TCP")
            ):
                from .live import LIVE_FULL_TCP, LIVE_TCP

                full = classes.is_a(self.o.builtin_base(o.cls), "Agent/TCP/FullTcp")
                raise Refusal(
                    f"{var} during or after the run: not available; available: "
                    + ", ".join(LIVE_FULL_TCP if full else LIVE_TCP)
                )
        base = self.o.builtin_base(o.cls)
        if self.started and var in classes.RED_STATE and base == "Queue/RED":
            raise Refusal(f"{var} of a RED queue after the run: not available")
        if base == "Application/Traffic/CBR" and var == "interval_" and not self.o.hasvar(o, var):
            # Unset, ns-2's CBR reports the interval its rate_ and packetSize_ give.
            size = float(self.o.getvar(o, "packetSize_"))
            return _num(size * 8.0 / classes.bandwidth(self.o.getvar(o, "rate_")))
        if not self.o.hasvar(o, var):
            raise Refusal(f'can\'t read "{var}": no such variable')
        return self.o.getvar(o, var)

    def agent_dst_port(self, agent: Obj, args: tuple) -> str:
        """`$agent dst-port` (ns-2 `Agent::command`): the port of the agent it is connected
        to, as `$ns connect` set it (the peer's port on its node)."""
        if args:
            raise Refusal("dst-port: takes no arguments")
        peer = agent.info["peer"]
        if peer is None or peer.info["port"] is None:
            raise Refusal("dst-port of an agent not connected to an attached agent")
        return str(peer.info["port"])

    def node_agent(self, node: Obj, args: tuple) -> str:
        """`$node agent PORT` (ns-2.35 ns-node.tcl `Node instproc agent`): the agent attached
        to the node at that port, or "" when there is none."""
        if len(args) != 1:
            raise Refusal("agent: give PORT")
        for a in self.agents:
            if a.info["node"] is node and str(a.info["port"]) == args[0].strip():
                return a.name
        return ""

    def attach_app(self, agent: Obj, args: tuple) -> str:
        if not args:
            raise Refusal("attach-app: give an application class")
        cls = f"Application/{args[0]}"
        if not self.o.known(cls):
            raise Refusal(f"attach-app {args[0]}: not supported")
        app = self.o.create(cls)
        self.app_attach_agent(app, (agent.name,))
        return app.name

    def attach_source(self, agent: Obj, args: tuple) -> str:
        """ns-1's `$tcp attach-source FTP` (cbrgen's TCP connections): an FTP source."""
        if args != ("FTP",):
            raise Refusal(
                f"attach-source {' '.join(args)}: not supported; supported: attach-source FTP"
            )
        return self.attach_app(agent, args)

    def app_attach_agent(self, app: Obj, args: tuple) -> str:
        self._before_run("attach-agent")
        if len(args) != 1:
            raise Refusal("attach-agent: give an agent")
        agent = self.obj(args[0], "Agent")
        if agent.info["app"] is not None or app.info["agent"] is not None:
            raise Refusal("an agent with two applications (or the reverse): not supported")
        app.info["agent"], agent.info["app"] = agent, app
        return ""

    def full_listen(self, agent: Obj, args: tuple) -> str:
        """`$tcp listen` (ns-2 `FullTcpAgent::listen`): the agent is a passive opener."""
        self._before_run("listen")
        if args:
            raise Refusal("listen: takes no arguments")
        agent.info["listen"] = True
        return ""

    def _refuse_full(self, what: str) -> Any:
        def refuse(o: Obj, args: tuple) -> str:
            raise Refusal(f"{what}: not supported")

        return refuse

    def ping_send(self, agent: Obj, args: tuple) -> str:
        """`$ping send`: an echo request now; during the run only (ns-2 sends one made
        before `$ns run` at time 0, a case the scripts schedule with `$ns at` instead)."""
        if args:
            raise Refusal("send: takes no arguments (start-WL-brdcast is not supported)")
        if not self.started:
            raise Refusal(
                '$ping send before $ns run: not supported; schedule it, e.g. `$ns at 0.0 "$p send"`'
            )
        if self.live is not None:
            self.live.ping(agent)
        return ""

    def ping_oneway(self, agent: Obj, args: tuple) -> str:
        """`$ping oneway`: its `recv` gets the sequence number and both one-way delays."""
        agent.info["oneway"] = True
        return ""

    def _app_now(self, app: Obj, what: str) -> str:
        if self.started:
            # A callback starts or stops the application at its simulated time.
            if self.live is not None:
                self.live.app(app, what)
            return ""
        self.events.append(Event(0.0, len(self.events), f"{app.name} {what}", self.where()))
        return ""


def _at_time(text: str) -> float:
    """The time of `$ns at`, read as ns-2 reads it (C's atof: the longest number at the start,
    so `200.0.000000001` is 200)."""
    import re

    m = re.match(r"\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?", text)
    if m is None:
        raise Refusal(f"at {text}: not a time")
    return float(m.group(0))


def _atoi(text: str) -> int:
    """C's ``atoi``, as ns-2's commands read an integer argument: the optional sign and
    digits at the start (``3.47`` is 3, ``.5`` and ``x`` are 0)."""
    import re

    m = re.match(r"\s*([-+]?\d+)", text)
    return int(m.group(1)) if m else 0


def _num(x: float) -> str:
    return format(x, ".17g")


def parse_events(model: Model, tcl: Any) -> tuple[list[tuple[float, Obj, str, tuple]], list[Event]]:
    """Splits the schedule into actions the scenario holds (application starts and stops,
    node moves and resets; GOD distances, which change nothing ternsim models, are dropped)
    and the other callbacks. Moves are checked and recorded on their nodes here, resets in
    ``model.resets``."""
    actions: list[tuple[float, Obj, str, tuple]] = []
    callbacks: list[Event] = []
    for ev in sorted(model.events, key=lambda e: (e.time, e.seq)):
        parsed = _actions(model, tcl, ev.script)
        if parsed is None:
            callbacks.append(ev)
            continue
        for obj, what, args in parsed:
            agent = obj.info.get("agent") if "agent" in obj.info else obj
            if agent is not None and classes.is_a(
                model.o.builtin_base(agent.cls), "Agent/TCP/FullTcp"
            ):
                # A FullTcp end's sends and closes are kept as they come (the scenario's
                # FullTcp actions): the same end may send, send more and close.
                actions.append((ev.time, obj, what, args))
                continue
            if what == "setdest":
                model.move(obj, ev.time, args, ev.where)
            elif what == "reset":
                model.resets.append((ev.time, obj))
            elif what in ("delay", "bandwidth", "queue-limit"):
                model.link_changes.append((ev.time, ev.seq, what, args, ev.where))
            elif what == "shrink-queue":
                model.link_changes.append((ev.time, ev.seq, what, (obj.name,), ev.where))
            elif what in ("start", "stop"):
                actions.append((ev.time, obj, what, args))
            elif what in ("produce", "producemore"):
                # ns-2's FTP `produce N` (the agent's `advance N`) and `producemore N`
                # (`advanceby N`), N read with C's atoi: the flow's first one starts it with
                # a finite transfer, later ones are scenario events (Translation._flow).
                actions.append((ev.time, obj, what, (_atoi(args[0]),)))
            elif what == "send":
                # ns-2's FTP `send NBYTES` (ns-source.tcl) is its agent's `send`: TcpAgent's
                # sendmsg offers NBYTES in whole packets of packetSize_ (`curseq_` grows by
                # ceil(NBYTES / size_)), -1 without limit (what FTP `start` does).
                n = _atoi(args[0])
                if n == -1:
                    actions.append((ev.time, obj, "start", ()))
                else:
                    agent = obj.info["agent"]
                    size = int(float(model.o.getvar(agent, "packetSize_")))
                    actions.append((ev.time, obj, "producemore", (-(-n // size),)))
            elif what in ("advance", "advanceby"):
                # The same on a TCP agent without an application (`ex/simple-tcp.tcl`): from
                # a fresh agent (curseq_ 0) `advanceby N` and `advance N` both make it N.
                if obj.info.get("app") is not None or "produce" in obj.info:
                    raise Refusal(
                        f"{what} on an agent with an application, or called twice: not "
                        "supported; supported: one `advance N` or `advanceby N` on a TCP agent "
                        "without an application",
                        where=ev.where,
                    )
                obj.info["produce"] = int(args[0])
                actions.append((ev.time, obj, "start", ()))
    return actions, callbacks


def _actions(model: Model, tcl: Any, script: str) -> list[tuple[Obj, str, tuple]] | None:
    if any(c in script for c in '[]{}"\\$'):
        return None
    out = []
    for part in script.replace("\n", ";").split(";"):
        if not part.strip():
            continue
        words = tcl.splitlist(part)
        o = model.o.objects.get(words[0]) if words else None
        if o is None or len(words) < 2:
            return None
        what, args = words[1], tuple(words[2:])
        if classes.is_a(model.o.builtin_base(o.cls), "Application"):
            ok = what in ("start", "stop") and not args
            if model.o.builtin_base(o.cls) == "Application/FTP" and what in (
                "produce",
                "producemore",
                "send",
            ):
                ok = len(args) == 1 and (
                    _atoi(args[0]) >= 0 or (what, _atoi(args[0])) == ("send", -1)
                )
                agent = o.info.get("agent")
                if what == "send" and (
                    agent is None or not classes.is_a(model.o.builtin_base(agent.cls), "Agent/TCP")
                ):
                    ok = False
        elif classes.is_a(model.o.builtin_base(o.cls), "Agent/TCP/FullTcp"):
            # ns-2 FullTcpAgent::command: advance/advanceby N segments, advance-bytes N, close.
            ok = what in ("advance", "advanceby", "advance-bytes") and len(args) == 1
            ok = (ok and args[0].isdigit()) or (what == "close" and not args)
            # `sendmsg N [MSG_EOF]` (ns-2 FullTcpAgent::sendmsg; DAT_EOF's callback is not).
            eof = args[1:] in ((), ("MSG_EOF",))
            ok = ok or (what == "sendmsg" and 1 <= len(args) <= 2 and args[0].isdigit() and eof)
        elif classes.is_a(model.o.builtin_base(o.cls), "Agent/TCP"):
            ok = what in ("advance", "advanceby") and len(args) == 1 and args[0].isdigit()
            ok = ok and int(args[0]) > 0
        elif o.cls == "Node" and o.info.get("mobile"):
            ok = (what == "setdest") or (what == "reset" and not args)
        elif o.cls == "God":
            ok = what == "set-dist"
        elif o.cls == "Simulator":
            # `$ns delay A B DELAY [simplex|duplex]`, `$ns bandwidth A B BW [...]`
            # (ns-lib.tcl: the link's DelayLink gets the new `delay_` or `bandwidth_`).
            nodes = all(a in model.o.objects and model.o.objects[a].cls == "Node" for a in args[:2])
            ok = (
                what in ("delay", "bandwidth")
                and len(args) in (3, 4)
                and args[3:] in ((), ("simplex",), ("duplex",))
                and nodes
            ) or (what == "queue-limit" and len(args) == 3 and nodes and _atoi(args[2]) > 0)
        elif model.o.builtin_base(o.cls) == "Queue/DropTail":
            # `$queue shrink-queue` (DropTail): the packets beyond its limit are dropped.
            ok = what == "shrink-queue" and not args
        else:
            ok = False
        if not ok:
            return None
        out.append((o, what, args))
    return out or None


def _traffic_alias(base: str, var: str) -> str:
    """ns-2's `Application/Traffic instproc set` (ns-source.tcl, backward compatibility)
    reads and writes `packet_size_` as `packetSize_` on every traffic generator."""
    if var == "packet_size_" and classes.is_a(base, "Application/Traffic"):
        return "packetSize_"
    return var
