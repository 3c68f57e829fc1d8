"""The ns-2 commands of a wired script: Simulator, Node, Link, Agent and Application methods.

This module owns the record a script builds before ``$ns run``: nodes in creation order (their
ns-2 ids), duplex links with their per-direction queue limits and whether they are traced,
agents with the port ns-2 gives them on their node, connections, applications, and the
``$ns at`` schedule. It answers the commands as ns-2 does (return values, handles) and refuses
anything it cannot carry into a ternsim scenario with a message naming what it supports.

Running the record is :mod:`ternsim.ns2.interp`'s job, translating it :mod:`ternsim.ns2.scenario`'s.
"""

from __future__ import annotations

from typing import Any

from . import classes
from .otcl import Obj, ObjectSystem, Refusal


# Link and Event are plain classes, not dataclasses: ``dataclasses`` imports ``inspect``,
# 5-10 ms at the start of every ``ternsim ns2``. Neither is ever compared.
class Link:
    def __init__(
        self, a: Obj, b: Obj, rate_bps: float, delay_s: float, traced: bool, where: str
    ) -> None:
        self.a = a
        self.b = b
        self.rate_bps = rate_bps
        self.delay_s = delay_s
        self.traced = traced
        #: The script line that made the link (`$ns duplex-link ...`).
        self.where = where
        #: The queue objects per direction, (a -> b, b -> a): Queue/DropTail or Queue/RED,
        #: their `limit_` the queue limit.
        self.queues: list[Obj] = []
        #: The link objects `$ns link` returns, per direction.
        self.handles: list[Obj] = []


class Event:
    def __init__(self, time: float, seq: int, script: str, where: str) -> None:
        self.time = time
        self.seq = seq
        self.script = script
        self.where = where


#: Simulator methods that only draw (nam) or choose an implementation detail: accepted, no-op.
NO_OPS = {"color", "duplex-link-op", "use-scheduler", "set-animation-rate", "puts-nam-config"}
NODE_NO_OPS = {"color", "shape", "label", "label-color", "label-at", "add-mark", "delete-mark"}


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
        self.trace_channel: str | None = None
        self.nam_channel: str | None = None
        self.now = 0.0
        #: ns-2's default RNG as the script left it before `$ns run`: its seed (`$defaultRNG
        #: seed N`, 1 if never given) and how many numbers ns-2 has drawn from it since (each
        #: TCP agent draws its `boot_time_` when created, Vegas twice).
        self.rng_seed = 1
        self.rng_draws = 0
        #: The seed the script gave `$defaultRNG seed`, if it did: the seed of ternsim's run.
        self.script_seed: int | None = None
        self.started = False  # `$ns run` has been called
        self.halted = False
        #: Set by the driver: returns "script.tcl:LINE: command" for the command running now.
        self.where = lambda: ""
        #: Set by the driver: runs the simulation and the callbacks (`$ns run`).
        self.run_hook = lambda: None
        #: Set by the driver: the value of a TCP state variable after the run, or a Refusal.
        self.read_state = lambda obj, var: None
        objects.on_create = self._on_create
        b = objects.builtins
        sim = {
            "node": self.node,
            "duplex-link": self.duplex_link,
            "simplex-link": self._refuse_simplex,
            "queue-limit": self.queue_limit,
            "trace-all": self.trace_all,
            "namtrace-all": self.namtrace_all,
            "attach-agent": self.attach_agent,
            "connect": self.connect,
            "create-connection": self.create_connection,
            "at": self.at,
            "now": lambda o, a: _num(self.now),
            "run": self.run,
            "link": self.link,
            "halt": self.halt,
            "flush-trace": self.flush_trace,
            "rtproto": self.rtproto,
            "instance": lambda o, a: self._simulator().name,
            "bw_parse": lambda o, a: repr(classes.bandwidth(a[0])),
            "delay_parse": lambda o, a: repr(classes.seconds(a[0])),
        }
        sim.update({name: (lambda o, a: "") for name in NO_OPS})
        b["Simulator"] = sim
        b["Node"] = {
            "id": lambda o, a: str(o.info["id"]),
            "node-addr": lambda o, a: str(o.info["id"]),
            "attach": lambda o, a: self.attach_agent(None, (o.name, *a)),
            **{name: (lambda o, a: "") for name in NODE_NO_OPS},
        }
        b["Agent"] = {"set": self.obj_set, "get": self.obj_get, "attach-app": self.attach_app}
        b["Application"] = {
            "set": self.obj_set,
            "get": self.obj_get,
            "attach-agent": self.app_attach_agent,
            "start": lambda o, a: self._app_now(o, "start"),
            "stop": lambda o, a: self._app_now(o, "stop"),
        }
        b["Queue"] = {"set": self.obj_set, "get": self.obj_get}
        b["SimpleLink"] = {"queue": lambda o, a: o.info["queue"].name}
        objects.on_class_set = self._on_class_set
        b["RNG"] = {"seed": self.rng_seed_command}
        rng = Obj(f"_o{objects._count + 1}", "RNG")
        objects._count += 1
        objects.objects[rng.name] = rng
        objects.tcl.createcommand(rng.name, objects._guard(lambda *a: objects.dispatch(rng, a)))
        objects.tcl.setvar("defaultRNG", rng.name)

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
                # new agent once (Vegas twice) when it creates it.
                self.rng_draws += 2 if base == "Agent/TCP/Vegas" else 1
        elif classes.is_a(base, "Application"):
            obj.info.update(agent=None)
            self.apps.append(obj)

    def obj(self, handle: str, kind: str) -> Obj:
        o = self.o.objects.get(handle)
        if o is None or not classes.is_a(self.o.builtin_base(o.cls), kind):
            raise Refusal(f"`{handle}` is not {'a' if kind[0] not in 'AEIOU' else 'an'} {kind}")
        return o

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

    def node(self, sim: Obj, args: tuple) -> str:
        if args:
            raise Refusal("$ns node with arguments (hierarchical addresses): not supported")
        self._before_run("$ns node")
        n = Obj(f"_o{self.o._count + 1}", "Node")
        self.o._count += 1
        self.o.objects[n.name] = n
        n.info.update(id=len(self.nodes), ports=0)
        self.nodes.append(n)
        self.o.tcl.createcommand(n.name, self.o._guard(lambda *a: self.o.dispatch(n, a)))
        return n.name

    def duplex_link(self, sim: Obj, args: tuple) -> str:
        self._before_run("$ns duplex-link")
        if len(args) < 5:
            raise Refusal("duplex-link: give NODE NODE BANDWIDTH DELAY QUEUE")
        a, b = self.node_obj(args[0]), self.node_obj(args[1])
        qtype = args[4]
        if qtype not in ("DropTail", "RED") or len(args) > 5:
            raise Refusal(f"queue {' '.join(args[4:])} not supported; supported: DropTail, RED")
        if a is b:
            raise Refusal("duplex-link from a node to itself")
        for link in self.links:
            if {link.a.name, link.b.name} == {a.name, b.name}:
                raise Refusal("a second duplex-link between the same nodes: not supported")
        link = Link(
            a,
            b,
            classes.bandwidth(args[2]),
            classes.seconds(args[3]),
            traced=self.trace_channel is not None,
            where=self.where(),
        )
        # ns-2 makes the a -> b simplex link, then b -> a, each with a new Queue/<type>.
        for d in range(2):
            queue = self.o.create(f"Queue/{qtype}")
            queue.info.update(link=link, direction=d)
            if qtype == "RED":
                # `$q link` at creation: RED chooses its automatic parameters from the link.
                from .scenario import red_automatic

                red_automatic(self.o, queue, link)
            handle = self.o.create("SimpleLink")
            handle.info.update(link=link, queue=queue)
            link.queues.append(queue)
            link.handles.append(handle)
        self.links.append(link)
        return ""

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

    def _refuse_simplex(self, sim: Obj, args: tuple) -> str:
        raise Refusal(
            "simplex-link: not supported; supported: duplex-link (ternsim links are duplex)"
        )

    def find_link(self, a: Obj, b: Obj) -> tuple[Link, int]:
        for link in self.links:
            if link.a is a and link.b is b:
                return link, 0
            if link.a is b and link.b is a:
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
        self.nam_channel = args[0]
        return ""

    def rtproto(self, sim: Obj, args: tuple) -> str:
        if args[:1] != ("Static",):
            raise Refusal(f"rtproto {' '.join(args)}: not supported; supported: Static")
        return ""

    def attach_agent(self, sim: Obj | None, args: tuple) -> str:
        self._before_run("$ns attach-agent")
        if len(args) != 2:
            raise Refusal("attach-agent: give NODE AGENT")
        node, agent = self.node_obj(args[0]), self.obj(args[1], "Agent")
        if agent.info["node"] is not None:
            raise Refusal("an agent attached twice: not supported")
        agent.info["node"] = node
        agent.info["port"] = node.info["ports"]  # ns-2 numbers a node's agents 0, 1, ...
        node.info["ports"] += 1
        return ""

    def connect(self, sim: Obj, args: tuple) -> str:
        self._before_run("$ns connect")
        if len(args) != 2:
            raise Refusal("connect: give AGENT AGENT")
        a, b = self.obj(args[0], "Agent"), self.obj(args[1], "Agent")
        if a.info["peer"] is not None or b.info["peer"] is not None:
            raise Refusal("an agent connected twice: not supported")
        a.info["peer"], b.info["peer"] = b, a
        return a.name

    def create_connection(self, sim: Obj, args: tuple) -> str:
        if len(args) != 5:
            raise Refusal("create-connection: give SRCTYPE SRCNODE DSTTYPE DSTNODE FID")
        stype, snode, dtype, dnode, fid = args
        made = []
        for cls, node in ((f"Agent/{stype}", snode), (f"Agent/{dtype}", dnode)):
            if not self.o.known(cls):
                raise Refusal(f"create-connection {cls[6:]}: not supported")
            agent = self.o.create(cls)
            self.o.setvar(agent, "fid_", fid)
            self.attach_agent(None, (node, agent.name))
            made.append(agent)
        self.connect(None, (made[0].name, made[1].name))  # type: ignore[arg-type]
        return made[0].name

    def at(self, sim: Obj, args: tuple) -> str:
        if len(args) != 2:
            raise Refusal("at: give TIME SCRIPT")
        t = float(args[0])
        if self.started and t > self.now:
            raise Refusal(
                "$ns at from a callback after the end of the simulated run: not supported "
                "(callbacks that reschedule themselves need mid-run stepping)"
            )
        self.events.append(Event(t, len(self.events), args[1], self.where()))
        return str(len(self.events))

    def run(self, sim: Obj, args: tuple) -> str:
        if self.started:
            raise Refusal("$ns run called twice: not supported")
        self.started = True
        self.run_hook()
        return ""

    def halt(self, sim: Obj, args: tuple) -> str:
        self.halted = True
        return ""

    def flush_trace(self, sim: Obj, args: tuple) -> str:
        for ch in (self.trace_channel, self.nam_channel):
            if ch is not None and ch in self.o.tcl.call("file", "channels"):
                self.o.tcl.call("flush", ch)
        return ""

    def rng_seed_command(self, rng: Obj, args: tuple) -> str:
        """``$defaultRNG seed N``: ns-2 restarts its default RNG from seed N; ternsim runs with
        seed N too, so its own random streams change with the script's seed."""
        self._before_run("$defaultRNG seed")
        if len(args) != 1:
            raise Refusal("$defaultRNG seed: give a seed N >= 1 (reading it back: not supported)")
        seed = int(float(args[0]))
        if seed < 1 or seed > 2**31 - 1:
            raise Refusal(
                f"$defaultRNG seed {args[0]}: not supported; supported: 1 to 2147483647 "
                "(0 seeds ns-2 from the clock)"
            )
        self.rng_seed = seed
        self.rng_draws = 0
        self.script_seed = seed
        return ""

    # --- agents and applications -----------------------------------------------------------

    def obj_set(self, o: Obj, args: tuple) -> str:
        if len(args) == 1:
            return self.obj_get(o, args)
        if len(args) != 2:
            raise Refusal("set: give VAR [VALUE]")
        var, value = args
        if self.started:
            raise Refusal(
                f"setting {var} after `$ns run` starts: not supported (needs mid-run stepping)"
            )
        from .scenario import red_refusal, settable

        base = self.o.builtin_base(o.cls)
        ok = settable(base)
        if var not in ok:
            raise Refusal(f"{base} {var}: not supported; supported: {', '.join(sorted(ok))}")
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
        var = args[0]
        if (
            self.started
            and var in classes.TCP_STATE
            and classes.is_a(self.o.builtin_base(o.cls), "Agent/TCP")
        ):
            value = self.read_state(o, var)
            if value is not None:
                return value
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

    def attach_app(self, agent: Obj, args: tuple) -> str:
        if not args:
            raise Refusal("attach-app: give an application class")
        cls = f"Application/{args[0]}"
        if not self.o.known(cls):
            raise Refusal(f"attach-app {args[0]}: not supported")
        app = self.o.create(cls)
        self.app_attach_agent(app, (agent.name,))
        return app.name

    def app_attach_agent(self, app: Obj, args: tuple) -> str:
        self._before_run("attach-agent")
        if len(args) != 1:
            raise Refusal("attach-agent: give an agent")
        agent = self.obj(args[0], "Agent")
        if agent.info["app"] is not None or app.info["agent"] is not None:
            raise Refusal("an agent with two applications (or the reverse): not supported")
        app.info["agent"], agent.info["app"] = agent, app
        return ""

    def _app_now(self, app: Obj, what: str) -> str:
        if self.started:
            raise Refusal(
                f"{what} of an application from a callback: not supported; schedule it with "
                f'`$ns at TIME "$app {what}"` before the run'
            )
        self.events.append(Event(0.0, len(self.events), f"{app.name} {what}", self.where()))
        return ""


def _num(x: float) -> str:
    return format(x, ".17g")


def parse_events(model: Model, tcl: Any) -> tuple[list[tuple[float, Obj, str]], list[Event]]:
    """Splits the schedule into application starts and stops and the other callbacks."""
    actions: list[tuple[float, Obj, str]] = []
    callbacks: list[Event] = []
    for ev in sorted(model.events, key=lambda e: (e.time, e.seq)):
        parsed = _app_actions(model, tcl, ev.script)
        if parsed is None:
            callbacks.append(ev)
        else:
            actions.extend((ev.time, app, what) for app, what in parsed)
    return actions, callbacks


def _app_actions(model: Model, tcl: Any, script: str) -> list[tuple[Obj, str]] | None:
    if any(c in script for c in '[]{}"\\$'):
        return None
    out = []
    for part in script.replace("\n", ";").split(";"):
        if not part.strip():
            continue
        words = tcl.splitlist(part)
        o = model.o.objects.get(words[0]) if words else None
        if (
            o is None
            or len(words) != 2
            or words[1] not in ("start", "stop")
            or not classes.is_a(model.o.builtin_base(o.cls), "Application")
        ):
            return None
        out.append((o, words[1]))
    return out or None
