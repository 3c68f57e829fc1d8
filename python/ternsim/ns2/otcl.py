"""A small OTcl object model over a plain Tcl 8.6 interpreter.

This module owns what ns-2 scripts expect of OTcl: ``new Class args`` returning a handle
(``_o12``) that is also a command; ``$obj set var_ [value]``; class commands
(``Agent/TCP set window_ 40``, ``X instproc m {args} {body}``); and the minimal user classes
(``Class X -superclass Y``, ``$self instvar``, ``$self next``) that short scripts define.

An object's variables live in a Tcl namespace ``::ns2o::<handle>``, one namespace variable
each, so ``instvar`` is an ``upvar`` (of a scalar or of a whole array: ``$self instvar node_``
then ``set node_(s1) ...``) and Python reads the same storage. Classes are objects too: a
class's procs (``TestSuite proc runTest {} {...}``, called as ``TestSuite runTest``) and the
``info`` introspection the ns-2 test framework uses (``Object info subclass X``,
``$cls info subclass``, ``$obj info class``) follow OTcl. Behaviour of the ns-2 classes
themselves (what ``$ns node`` or ``$ftp start`` does) is not here:
:mod:`ternsim.ns2.simulator` registers it as each class's built-in methods.
"""

from __future__ import annotations

import tkinter

from . import classes

# typing.TYPE_CHECKING without importing typing (about 5 ms of ternsim ns2's start).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable

if TYPE_CHECKING:  # a type for annotations only: building it needs typing
    #: A built-in method: (object, argument words) -> Tcl result.
    Method = Callable[["Obj", tuple], str]


def tcl_text(value: Any) -> str:
    """A Tcl result as the script sees it: tkinter hands a value whose Tcl object is a list
    (a proc returning a variable ``llength`` has read) to Python as a tuple, whose ``str`` is
    Python's, not Tcl's."""
    if isinstance(value, tuple):
        return tkinter._join(value)  # type: ignore[attr-defined]  # Tcl's list form
    return str(value)


class Refusal(Exception):
    """A script command the front end does not support; the message says what is supported.

    ``where`` names the script line to blame when it is not the command running now (a
    ``$ns at`` found unsupported at ``$ns run``)."""

    def __init__(self, message: str, where: str | None = None) -> None:
        super().__init__(message)
        self.where = where


class ScriptError(Exception):
    """A Tcl error of the script's own making, as OTcl raises it (a method no class of the
    object defines, a class that does not exist): the script may ``catch`` it."""


class ScriptExit(Exception):
    """The script called ``exit``."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


class Obj:
    """One OTcl object: its handle, its class, and what the simulator records about it.
    Compared by identity. (A plain class, not a dataclass: ``dataclasses`` imports
    ``inspect``, 5-10 ms at the start of every ``ternsim ns2``.)"""

    def __init__(self, name: str, cls: str) -> None:
        self.name = name
        self.cls = cls
        self.info: dict[str, Any] = {}


class ObjectSystem:
    """Objects, classes and method dispatch on one interpreter."""

    def __init__(self, tcl: Any, guard: Callable[[Callable[..., str]], Callable[..., str]]) -> None:
        self.tcl = tcl
        self._guard = guard
        self.objects: dict[str, Obj] = {}
        self._count = 0
        #: `Class set var value` of the script, per class.
        self.class_sets: dict[str, dict[str, str]] = {}
        #: User classes (`Class X -superclass Y`): name -> superclass.
        self.user_classes: dict[str, str | None] = {}
        #: Instprocs: (class, method) -> the Tcl proc that implements it.
        self.instprocs: dict[tuple[str, str], str] = {}
        #: Class procs (`Class proc m {args} {body}`): (class, method) -> the Tcl proc.
        self.class_procs: dict[tuple[str, str], str] = {}
        #: Built-in methods per ns-2 class (looked up along the lineage).
        self.builtins: dict[str, dict[str, Method]] = {}
        #: (object, class whose instproc runs) while an instproc runs, for `next`.
        self._running: list[tuple[Obj, str, str]] = []
        self.on_create: Callable[[Obj, tuple], None] = lambda obj, args: None
        #: Called on `Class set var value` before it is recorded; may raise a Refusal.
        self.on_class_set: Callable[[str, str, str], None] = lambda cls, var, value: None
        tcl.createcommand("new", guard(self._cmd_new))
        tcl.createcommand("delete", guard(lambda *a: ""))
        tcl.createcommand("Class", guard(self._cmd_class))
        # ns-2's packet-header selection only saves memory there: nothing to do here.
        tcl.createcommand("remove-all-packet-headers", lambda *a: "")
        tcl.createcommand("add-packet-header", lambda *a: "")
        tcl.createcommand("remove-packet-header", lambda *a: "")
        for cls in classes.PARENT:
            self._class_command(cls)
        # OTcl's root class: scripts add instprocs to every object with `Object instproc`.
        self._class_command("Object")
        # `Simulator instance` (the simulator made by `new Simulator`, as a proc reaches it
        # without a global), `Simulator set VAR VALUE`.
        self._class_command("Simulator")

    # --- classes ---------------------------------------------------------------------------

    def lineage(self, cls: str) -> list[str]:
        out = []
        c: str | None = cls
        while c is not None and c not in out:
            out.append(c)
            c = self.user_classes[c] if c in self.user_classes else classes.PARENT.get(c)
        if cls != "Object":
            out.append("Object")
        return out

    def unmodelled_class(self, cls: str, args: tuple) -> str:
        """``CLASS set var [value]`` on a class ternsim does not model
        (:data:`classes.UNMODELLED`): recorded, as OTcl records a class default, so that a
        script's preamble configuring it runs; anything else on it is refused."""
        what = classes.UNMODELLED[cls]
        table = self.class_sets.setdefault(cls, {})
        if args[:1] == ("set",) and len(args) == 3:
            table[args[1]] = args[2]
            return args[2]
        if args[:1] == ("set",) and len(args) == 2 and args[1] in table:
            return table[args[1]]
        words = " ".join(args[:2])
        raise Refusal(
            f"{cls} {words}: not supported ({what} is not modelled; only its class defaults "
            "may be set)"
        )

    def known(self, cls: str) -> bool:
        return cls in classes.PARENT or cls in self.user_classes or cls in ("Simulator", "Object")

    def builtin_base(self, cls: str) -> str:
        """The nearest ns-2 class of a (possibly user) class."""
        for c in self.lineage(cls):
            if c in classes.PARENT or c == "Simulator":
                return c
        return cls

    def _class_command(self, cls: str) -> None:
        self.tcl.createcommand(cls, self._guard(lambda *args: self._cmd_on_class(cls, args)))

    def _cmd_on_class(self, cls: str, args: tuple) -> str:
        if not args:
            raise Refusal(f"{cls}: give a method (set, instproc)")
        what, rest = args[0], args[1:]
        if what == "set" and len(rest) in (1, 2):
            if len(rest) == 2:
                from .wireless import check_class_set

                why = check_class_set(cls, rest[0], rest[1])
                if why is not None:
                    raise Refusal(why)
                self.on_class_set(cls, rest[0], rest[1])
                self.class_sets.setdefault(cls, {})[rest[0]] = rest[1]
                return rest[1]
            for c in self.lineage(cls):
                for table in (self.class_sets.get(c, {}), classes.DEFAULTS.get(c, {})):
                    if rest[0] in table:
                        return table[rest[0]]
            raise Refusal(f'{cls} set {rest[0]}: no such class variable (can\'t read "{rest[0]}")')
        if what == "instproc" and len(rest) == 3:
            proc = f"::ns2::ip::{cls}::{rest[0]}"
            self.tcl.eval(f"namespace eval {{::ns2::ip::{cls}}} {{}}")
            self.tcl.call("proc", proc, [*_OTCL_ARGS, *self.tcl.splitlist(rest[1])], rest[2])
            self.instprocs[(cls, rest[0])] = proc
            return ""
        if what == "proc" and len(rest) == 3:
            proc = f"::ns2::cp::{cls}::{rest[0]}"
            self.tcl.eval(f"namespace eval {{::ns2::cp::{cls}}} {{}}")
            self.tcl.call("proc", proc, [*_OTCL_ARGS, *self.tcl.splitlist(rest[1])], rest[2])
            self.class_procs[(cls, rest[0])] = proc
            return ""
        if (cls, what) in self.class_procs:
            proc = self.class_procs[(cls, what)]
            return tcl_text(self.tcl.call(proc, cls, "Class", what, *rest))
        if what == "instance" and cls == "Simulator":
            return self.builtin_call(None, "Simulator", "instance", ())
        if what == "info" and rest:
            return self._class_info(cls, rest[0], rest[1:])
        raise Refusal(f"{cls} {what}: not supported; supported: {cls} set, {cls} instproc")

    def superclass(self, cls: str) -> str | None:
        """A class's superclass (OTcl's root, Object, has none)."""
        if cls == "Object":
            return None
        sup = self.user_classes[cls] if cls in self.user_classes else classes.PARENT.get(cls)
        return sup or "Object"

    def all_classes(self) -> list[str]:
        return ["Object", "Simulator", *classes.PARENT, *self.user_classes]

    def _class_info(self, cls: str, what: str, rest: tuple) -> str:
        """OTcl's ``CLASS info ...``: the class tree and the class's instances and methods."""
        if what == "subclass" and not rest:
            # Newest first, as OTcl lists them.
            subs = [c for c in self.all_classes() if c != cls and self.superclass(c) == cls]
            return " ".join(reversed(subs))
        if what == "subclass" and len(rest) == 1:
            if not self.known(rest[0]):
                raise ScriptError(f"expected a class but got {rest[0]}")
            # OTcl counts a class among its own subclasses.
            return "1" if cls in self.lineage(rest[0]) else "0"
        if what == "superclass" and not rest:
            return self.superclass(cls) or ""
        if what == "heritage" and not rest:
            return " ".join(self.lineage(cls)[1:])
        if what == "instances" and not rest:
            return " ".join(o.name for o in self.objects.values() if o.cls == cls)
        if what in ("instprocs", "procs") and len(rest) <= 1:
            # Optionally only the names matching a glob pattern.
            import fnmatch

            table = self.instprocs if what == "instprocs" else self.class_procs
            names = [m for (c, m) in table if c == cls]
            if rest:
                names = [m for m in names if fnmatch.fnmatchcase(m, rest[0])]
            return " ".join(names)
        table = {"instbody": self.instprocs, "body": self.class_procs}
        table |= {"instargs": self.instprocs, "args": self.class_procs}
        if what in table and len(rest) == 1:
            proc = table[what].get((cls, rest[0]))
            if proc is None:
                raise ScriptError(f"{cls} info {what}: no such method {rest[0]}")
            if what.endswith("body"):
                return str(self.tcl.call("info", "body", proc))
            # The proc's arguments after those the object system passes.
            args = self.tcl.splitlist(self.tcl.call("info", "args", proc))[len(_OTCL_ARGS) :]
            return " ".join(str(a) for a in args)
        raise Refusal(
            f"{cls} info {what}: not supported; supported: info subclass [CLASS], superclass, "
            "heritage, instances, instprocs, procs, instbody, instargs, body, args"
        )

    def _cmd_class(self, *args: str) -> str:
        if not args:
            raise Refusal("Class: give a class name")
        name, rest = args[0], list(args[1:])
        sup: str | None = None
        if rest[:1] == ["-superclass"] and len(rest) == 2:
            sup = self.tcl.splitlist(rest[1])[0] if rest[1] else None
        elif rest:
            raise Refusal("Class: not supported; supported: Class NAME [-superclass CLASS]")
        if sup is not None and not self.known(sup):
            raise Refusal(f"Class {name} -superclass {sup}: unknown class")
        self.user_classes[name] = sup
        self._class_command(name)
        return name

    # --- objects ---------------------------------------------------------------------------

    def _cmd_new(self, *args: str) -> str:
        if not args:
            raise Refusal("new: give a class")
        cls, rest = args[0], args[1:]
        if cls in classes.UNMODELLED:
            raise Refusal(f"new {cls}: not supported ({classes.UNMODELLED[cls]} is not modelled)")
        if not self.known(cls):
            raise Refusal(f"not supported; supported: {supported_classes()}")
        if self.builtin_base(cls) in classes.CONFIG_ONLY:
            raise Refusal(
                f"new {self.builtin_base(cls)}: not supported (ns-2's old mobile node API); "
                "configure the class with `Class set` and make mobile nodes with "
                "`$ns node-config ...` and `$ns node`"
            )
        if self.builtin_base(cls) in _MADE_BY_LINKS:
            raise Refusal(
                f"{cls} on its own: not supported; queues and links come from "
                "`$ns duplex-link` (`[$ns link $a $b] queue` returns a link's queue; "
                "`$ns monitor-queue A B FILE` makes a QueueMonitor)"
            )
        return self.create(cls, rest).name

    def create(self, cls: str, args: tuple = ()) -> Obj:
        if cls == "Simulator" and "Simulator" in self.builtins:
            existing = [o for o in self.objects.values() if o.cls == "Simulator"]
            if existing:
                return existing[0]
        self._count += 1
        obj = Obj(f"_o{self._count}", cls)
        self.objects[obj.name] = obj
        self.tcl.eval(f"namespace eval {self._ns(obj)} {{}}")
        base = self.builtin_base(cls)
        values = classes.class_defaults(base, self.class_sets)
        for c in reversed(self.lineage(cls)):
            if c in self.user_classes:
                values.update(self.class_sets.get(c, {}))
        for var, value in values.items():
            self.setvar(obj, var, classes.bound_value(var, value))
        self.tcl.createcommand(obj.name, self._guard(lambda *a: self.dispatch(obj, a)))
        self.on_create(obj, args)
        if self._find_instproc(cls, "init") is not None:
            self.dispatch(obj, ("init", *args))
        return obj

    def _ns(self, obj: Obj) -> str:
        """The namespace of an object's variables."""
        return f"::ns2o::{obj.name}"

    def setvar(self, obj: Obj, var: str, value: str) -> None:
        self.tcl.globalsetvar(f"{self._ns(obj)}::{var}", value)

    def getvar(self, obj: Obj, var: str) -> str:
        return tcl_text(self.tcl.globalgetvar(f"{self._ns(obj)}::{var}"))

    def hasvar(self, obj: Obj, var: str) -> bool:
        return str(self.tcl.call("info", "exists", f"{self._ns(obj)}::{var}")) == "1"

    def _object_info(self, obj: Obj, rest: tuple) -> str:
        """OTcl's ``$obj info class [CLASS]`` and ``$obj info vars``."""
        if rest[:1] == ("class",) and len(rest) == 1:
            return obj.cls
        if rest[:1] == ("class",) and len(rest) == 2:
            return "1" if rest[1] in self.lineage(obj.cls) else "0"
        if rest == ("vars",):
            names = self.tcl.call("info", "vars", f"{self._ns(obj)}::*")
            return " ".join(str(n).rsplit("::", 1)[-1] for n in self.tcl.splitlist(names))
        raise Refusal("info: not supported; supported: $obj info class [CLASS], $obj info vars")

    def _find_instproc(self, cls: str, method: str, after: str | None = None) -> str | None:
        chain = self.lineage(cls)
        if after is not None:
            chain = chain[chain.index(after) + 1 :] if after in chain else []
        for c in chain:
            if (c, method) in self.instprocs:
                return c
        return None

    def dispatch(self, obj: Obj, args: tuple) -> str:
        if not args:
            raise Refusal(f"{obj.cls} object: give a method")
        method, rest = args[0], tuple(args[1:])
        if method == "next":
            return self._next(obj, rest)
        if method == "instvar":
            for var in rest:
                words = self.tcl.splitlist(var)
                # `$self instvar {name alias}` binds the variable under another name.
                name, alias = (words[0], words[1]) if len(words) == 2 else (var, var)
                # (eval, not call: tkinter's call runs at the global level.)
                self.tcl.eval(f"upvar #0 {{{self._ns(obj)}::{name}}} {{{alias}}}")
            return ""
        owner = self._find_instproc(obj.cls, method)
        if owner is not None:
            return self._run_instproc(obj, owner, method, rest)
        return self.builtin_call(obj, obj.cls, method, rest)

    def _run_instproc(self, obj: Obj, owner: str, method: str, rest: tuple) -> str:
        self._running.append((obj, owner, method))
        try:
            proc = self.instprocs[(owner, method)]
            return tcl_text(self.tcl.call(proc, obj.name, owner, method, *rest))
        finally:
            self._running.pop()

    def _next(self, obj: Obj, rest: tuple) -> str:
        frames = [f for f in self._running if f[0] is obj]
        if not frames:
            raise Refusal("next: called outside an instproc")
        _, owner, method = frames[-1]
        after = self._find_instproc(obj.cls, method, after=owner)
        if after is not None:
            return self._run_instproc(obj, after, method, rest)
        chain = self.lineage(obj.cls)
        parents = [c for c in chain[chain.index(owner) + 1 :] if c != "Object"]
        if method == "init" or not parents:
            return ""
        return self.builtin_call(obj, parents[0], method, rest)

    def builtin_call(self, obj: Obj | None, cls: str, method: str, rest: tuple) -> str:
        for c in self.lineage(cls):
            table = self.builtins.get(c, {})
            if method in table:
                return table[method](obj, rest)  # type: ignore[arg-type]
        if obj is not None and method == "set" and len(rest) in (1, 2):
            # OTcl's Object set, for objects of the script's own classes.
            if len(rest) == 2:
                self.setvar(obj, rest[0], rest[1])
            elif not self.hasvar(obj, rest[0]):
                raise Refusal(f'can\'t read "{rest[0]}": no such variable')
            return self.getvar(obj, rest[0])
        if obj is not None and method == "array" and len(rest) >= 2:
            # OTcl's Object array: Tcl's `array` on an instance variable.
            words = ["array", rest[0], f"{self._ns(obj)}::{rest[1]}", *rest[2:]]
            return tcl_text(self.tcl.eval(" ".join("{" + w + "}" for w in words)))
        if obj is not None and method == "info" and rest:
            return self._object_info(obj, rest)
        base = self.builtin_base(cls)
        if obj is not None and base not in (*classes.PARENT, *self.builtins, "Simulator"):
            # An object of the script's own classes only: OTcl's error, which scripts catch
            # (`catch "$self get-simulator" ns_`).
            raise ScriptError(f"{obj.name}: unable to dispatch method {method}")
        names = sorted({m for c in self.lineage(cls) for m in self.builtins.get(c, {})})
        base = self.builtin_base(cls)
        raise Refusal(f"not supported; supported {base} methods: {', '.join(names)}")


def supported_classes() -> str:
    return ", ".join(
        [
            "Simulator",
            *(c for c in classes.PARENT if c not in _ABSTRACT and c not in classes.CONFIG_ONLY),
        ]
    )


#: What OTcl gives every method besides its arguments: the object (`self`), the class whose
#: method runs (`class`) and the method's name (`proc`).
_OTCL_ARGS = ("self", "class", "proc")

#: Classes whose objects `$ns duplex-link` makes; scripts reach them through `$ns link`.
_MADE_BY_LINKS = {
    "QueueMonitor/ED/Flowmon",
    "QueueMonitor/ED/Flow",
    "Classifier/Hash/Fid",
    "Queue",
    "Queue/DropTail",
    "Queue/RED",
    "Queue/SFQ",
    "SimpleLink",
    "DelayLink",
    "QueueMonitor",
    "Trace",
}

_ABSTRACT = {
    "QueueMonitor/ED/Flowmon",
    "QueueMonitor/ED/Flow",
    "Classifier/Hash/Fid",
    "RandomVariable",
    "QueueMonitor",
    "Agent",
    "Application",
    "Application/Traffic",
    "Queue",
    "Queue/DropTail",
    "Queue/RED",
    "Queue/SFQ",
    "SimpleLink",
    "Timer",
    "Trace",
}
