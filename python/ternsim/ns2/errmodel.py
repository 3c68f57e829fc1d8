"""ns-2's wired error models and random variables, and where a script puts them on a link.

This module owns the commands of ``ErrorModel`` (and ``/List``, ``/Periodic``),
``ErrorModule Fid``, ``RandomVariable/*`` and the extra ``RNG`` methods, the placement
commands (``$ns lossmodel``, ``$ns link-lossmodel``, ``$link errormodule``,
``$link insert-linkloss``), and the translation of what a link direction holds into the
scenario's ``drop_stages_*`` (``ternsim_core::channel::drop_stage``).

ns-2.35's placement (``tcl/lib/ns-link.tcl``): ``lossmodel``/``errormodule`` put the loss
module at the head of the link, ahead of the enqueue trace, so it sees every packet handed to
the link and a packet it drops is traced ``d`` without a ``+``; ``link-lossmodel`` puts it
after the link's delay, so it sees the packets that left the wire and drops them at their
arrival time. Either way its drop target becomes the link's drop trace; a script that points
it elsewhere afterwards (``$em drop-target [new Agent/Null]``) makes its drops untraced.
An ``ErrorModule Fid`` hands each flow id to the model bound to it (``bind``), which counts
that flow's packets only.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from . import classes
from .otcl import Obj, Refusal

# typing.TYPE_CHECKING without importing typing or random (milliseconds of ternsim ns2's start).
TYPE_CHECKING = False
if TYPE_CHECKING:
    import random  # loaded by the rules that draw (see _stream)
    from typing import Any

#: The error model classes a script may make.
MODEL_CLASSES = ("ErrorModel", "ErrorModel/List", "ErrorModel/Periodic")


def _int(text: str, what: str) -> int:
    try:
        return int(float(text))
    except ValueError:
        raise Refusal(f"{what}: `{text}` is not a number") from None


class ErrorModels:
    """The error-model commands of one script (installed into the model's builtins)."""

    def __init__(self, model: Any) -> None:
        self.m = model
        b = model.o.builtins
        b["ErrorModel"] = {
            "unit": self.unit,
            "ranvar": self.ranvar,
            "drop-target": self.drop_target,
            "set": model.obj_set,
            "get": model.obj_get,
        }
        b["ErrorModel/List"] = {"droplist": self.droplist}
        b["ErrorModule"] = {
            "insert": self.module_insert,
            "bind": self.module_bind,
            "default": self.module_default,
            "drop-target": self.drop_target,
            "errormodels": lambda o, a: " ".join(m.name for m in o.info["models"]),
        }
        b["RandomVariable"] = {
            "value": self.rv_value,
            "use-rng": self.rv_use_rng,
            "set": model.obj_set,
            "get": model.obj_get,
        }
        rng = b["RNG"]
        rng["next-random"] = self.rng_next_random
        rng["uniform"] = self.rng_uniform
        rng["exponential"] = self.rng_exponential
        rng["integer"] = self.rng_integer
        rng["normal"] = self.rng_normal
        from .rngstream import RngStreams

        #: ns-2's RngStreams package: the streams of the script's own RNG objects.
        self.rng_streams = RngStreams()
        #: Whether the script drew from ns-2's default RNG itself (a number ternsim's stream
        #: answered): ns-2's later draws are then out of ternsim's reach.
        self.default_rng_used = False
        b["SimpleLink"]["errormodule"] = self.link_errormodule
        b["SimpleLink"]["insert-linkloss"] = self.link_insert_linkloss
        self.rv_count = 0

    # --- creation ----------------------------------------------------------------------------

    def on_create(self, obj: Obj, base: str, args: tuple) -> None:
        if base == "RNG":
            # ns-2's RNG::init: the object takes the package's next stream.
            obj.info["mrg"] = self.rng_streams.new_stream()
        elif classes.is_a(base, "ErrorModel"):
            obj.info.update(unit="pkt", ranvar=None, drop=None, placed=None, drops=[])
        elif base == "ErrorModule":
            if args[:1] != ("Fid",):
                raise Refusal(
                    f"new ErrorModule {' '.join(args)}: not supported; supported: "
                    "new ErrorModule Fid"
                )
            obj.info.update(models=[], binds={}, default=None, drop="link", placed=None)
        elif classes.is_a(base, "RandomVariable"):
            self.rv_count += 1
            obj.info.update(rng=None, serial=self.rv_count)

    # --- ErrorModel ------------------------------------------------------------------------

    def incoming_loss(self, proc: str) -> dict[str, Any]:
        """`node-config -IncomingErrProc PROC`: ns-2 calls PROC for each mobile node it makes
        and puts the error model it returns between the node's PHY and MAC
        (`ternsim_core::wifi::config::IncomingLoss`). The model must lose packets at a rate
        (`ErrorModel`, unit pkt, `rate_` with or without a ranvar); with a drop target a
        lost frame is taken away, without one it goes on to the MAC in error."""
        o = self.m.o
        name = o.tcl.eval(proc)
        em = self.m.obj_of(name)
        base = o.builtin_base(em.cls) if em is not None else ""
        if em is None or base != "ErrorModel":
            what = f"{name} ({base})" if em is not None else repr(name)
            raise Refusal(
                f"-IncomingErrProc {proc} returned {what}: not supported; supported: a proc "
                "returning an ErrorModel (unit pkt, rate_)"
            )
        rule = _rule(o, em)
        if rule["model"] == "pass":
            rate = 0.0
        elif (
            rule["model"] != "iid"
            or rule["unit"] != "packet"
            or set(rule)
            - {
                "model",
                "unit",
                "rate",
            }
        ):
            raise Refusal(
                f"-IncomingErrProc {proc}: an ErrorModel in bytes, marking ECN or delaying "
                "packets: not supported; supported: unit pkt with a rate_"
            )
        else:
            rate = float(rule["rate"])
        return {"rate": rate, "drop": em.info["drop"] is not None}

    def unit(self, em: Obj, args: tuple) -> str:
        if not args:
            return "pkt" if em.info["unit"] in ("pkt", "packet") else em.info["unit"]
        # ns-2 reads `time`, `byte` and `bit`; any other word is packets.
        unit = args[0]
        if unit in ("time", "bit"):
            raise Refusal(
                f"unit {unit}: not supported; supported: pkt (or packet), byte (ternsim's "
                "loss stages count packets or bytes)"
            )
        em.info["unit"] = "byte" if unit == "byte" else "pkt"
        return ""

    def ranvar(self, em: Obj, args: tuple) -> str:
        if not args:
            rv = em.info["ranvar"]
            return rv.name if rv is not None else ""
        rv = self.m.obj(args[0], "RandomVariable")
        em.info["ranvar"] = rv
        return ""

    def drop_target(self, em: Obj, args: tuple) -> str:
        if not args:
            return ""
        target = self.m.obj_of(args[0])
        if target is None:
            raise Refusal(f"drop-target {args[0]}: not an object")
        if self.m.started:
            raise Refusal("drop-target during the run: not supported")
        em.info["drop"] = "other"
        return ""

    def droplist(self, em: Obj, args: tuple) -> str:
        numbers: list[int] = []
        for arg in args:
            for word in str(arg).split():
                if not word[:1].isdigit():
                    raise Refusal(f"droplist: unknown drop specifier starting at `{word}`")
                digits = ""
                for ch in word:
                    if not ch.isdigit():
                        break
                    digits += ch
                numbers.append(int(digits))
        if len(set(numbers)) != len(numbers):
            dup = next(n for n in numbers if numbers.count(n) > 1)
            raise Refusal(f"droplist: {dup} is listed twice (ns-2 refuses duplicates)")
        em.info["drops"] = sorted(numbers)
        return str(len(numbers))

    # --- ErrorModule -----------------------------------------------------------------------

    def module_insert(self, mod: Obj, args: tuple) -> str:
        if len(args) != 1:
            raise Refusal("insert: give an error model")
        em = self.m.obj(args[0], "ErrorModel")
        self._place(em, ("module", mod))
        em.info["drop"] = "module"
        mod.info["models"].append(em)
        return ""

    def module_bind(self, mod: Obj, args: tuple) -> str:
        if len(args) not in (2, 3):
            raise Refusal("bind: give ERRORMODEL FID [LASTFID]")
        em = self.m.obj(args[0], "ErrorModel")
        a = _int(args[1], "bind")
        b = _int(args[2], "bind") if len(args) == 3 else a
        for fid in range(a, b + 1):
            mod.info["binds"][fid] = em
        return ""

    def module_default(self, mod: Obj, args: tuple) -> str:
        if len(args) != 1:
            raise Refusal("default: give an error model or pass")
        mod.info["default"] = "pass" if args[0] == "pass" else self.m.obj(args[0], "ErrorModel")
        return ""

    # --- placement -------------------------------------------------------------------------

    def _place(self, em: Obj, where: tuple) -> None:
        self.m._before_run("placing an error model")
        if em.info["placed"] is not None and em.info["placed"] != where:
            raise Refusal(
                "an error model placed twice: not supported (ns-2 would share its counter "
                "between the places)"
            )
        em.info["placed"] = where

    def place(self, em: Obj, link: Any, d: int, point: str) -> None:
        """Puts ``em`` (an ErrorModel or an ErrorModule) on direction ``d`` of ``link``:
        ``enqueue`` at the head (ahead of what is there), ``arrival`` after the delay."""
        self._place(em, ("link", link, d))
        if em.info.get("drop") != "module":
            em.info["drop"] = "link"
        stages = link.stages[d]
        if point == "enqueue":
            stages.insert(0, ("enqueue", em))
        else:
            if any(p == "arrival" for p, _ in stages):
                raise Refusal(
                    "a second link-lossmodel on one link direction: not supported (ns-2.35 "
                    "fails replacing the first)"
                )
            stages.append(("arrival", em))

    def lossmodel(self, sim: Obj, args: tuple, point: str) -> str:
        if len(args) != 3:
            raise Refusal("give ERRORMODEL NODE NODE")
        em = self._loss_object(args[0])
        link, d = self.m.find_link(self.m.node_obj(args[1]), self.m.node_obj(args[2]))
        self.place(em, link, d, point)
        return ""

    def _loss_object(self, handle: str) -> Obj:
        o = self.m.obj_of(handle)
        base = self.m.o.builtin_base(o.cls) if o is not None else ""
        if o is None or not (classes.is_a(base, "ErrorModel") or base == "ErrorModule"):
            raise Refusal(f"`{handle}` is not an ErrorModel or ErrorModule")
        return o

    def link_errormodule(self, handle: Obj, args: tuple) -> str:
        link, d = handle.info["link"], handle.info["direction"]
        if not args:
            heads = [em for p, em in link.stages[d] if p == "enqueue"]
            return heads[0].name if heads else ""
        self.place(self._loss_object(args[0]), link, d, "enqueue")
        return ""

    def link_insert_linkloss(self, handle: Obj, args: tuple) -> str:
        link, d = handle.info["link"], handle.info["direction"]
        if not args:
            tails = [em for p, em in link.stages[d] if p == "arrival"]
            return tails[0].name if tails else ""
        self.place(self._loss_object(args[0]), link, d, "arrival")
        return ""

    # --- random variables ------------------------------------------------------------------

    # --- RNG objects ---------------------------------------------------------------------
    # An RNG the script made (`new RNG`) draws ns-2's own numbers (rngstream.Ns2Rng); the
    # default RNG, which ns-2's C++ models also draw from, a stream of ternsim's own.

    def seed_rng(self, rng: Obj, n: int) -> None:
        """`$rng seed N` (RNG::set_seed): the package's seed moves too."""
        stream = self.rng_streams.seed(n)
        if rng is not self.m.default_rng:
            rng.info["mrg"] = stream
            rng.info.pop("stream", None)

    def rng_next_random(self, o: Obj, a: tuple) -> str:
        mrg = o.info.get("mrg")
        if mrg is not None:
            return str(mrg.next_random())
        return str(self._stream(o).randrange(2**31 - 1))

    def rng_uniform(self, o: Obj, a: tuple) -> str:
        if len(a) != 2:
            raise Refusal("uniform: give A B")
        mrg = o.info.get("mrg")
        if mrg is not None:
            return _num(mrg.tcl_uniform(float(a[0]), float(a[1])))
        return _num(self._stream(o).uniform(float(a[0]), float(a[1])))

    def rng_exponential(self, o: Obj, a: tuple) -> str:
        mrg = o.info.get("mrg")
        if mrg is not None:
            return _num(mrg.tcl_exponential(float(a[0]) if a else 1.0))
        return _num(self._stream(o).expovariate(1.0 / float(a[0]) if a else 1.0))

    def rng_integer(self, o: Obj, a: tuple) -> str:
        if len(a) != 1:
            raise Refusal("integer: give K")
        mrg = o.info.get("mrg")
        if mrg is not None:
            return str(mrg.tcl_integer(_int(a[0], "integer")))
        return str(self._stream(o).randrange(max(1, _int(a[0], "integer"))))

    def rng_normal(self, o: Obj, a: tuple) -> str:
        if o.info.get("mrg") is not None:
            raise Refusal(
                "normal on an RNG the script made: not supported (ns-2's RNG::normal keeps "
                "its second value in a variable all RNGs share); supported: next-random, "
                "uniform, integer, exponential"
            )
        return _num(self._stream(o).gauss(float(a[0]), float(a[1])))

    def _stream(self, o: Obj) -> random.Random:
        """A generator's stream: ternsim's own (Python's Mersenne Twister), seeded from the
        RNG's seed, so a seed gives the same numbers run after run (not ns-2's numbers)."""
        if o is self.m.default_rng:
            self.default_rng_used = True
        if "stream" not in o.info:
            seed = o.info.get("seed", 1)
            if o is self.m.default_rng:
                seed = self.m.default_rng_seed or 1
            import random

            o.info["stream"] = random.Random(f"ns2-rng/{seed}/{o.name}")
        return o.info["stream"]

    def rv_use_rng(self, rv: Obj, args: tuple) -> str:
        if len(args) != 1:
            raise Refusal("use-rng: give an RNG")
        rv.info["rng"] = self.m.obj(args[0], "RNG")
        return ""

    def rv_value(self, rv: Obj, args: tuple) -> str:
        rng = rv.info["rng"]
        if rng is None:
            # Without use-rng ns-2 draws from its default RNG; each variable gets its own
            # stream here, named by the order the script made it.
            self.default_rng_used = True
            if "stream" not in rv.info:
                seed = self.m.default_rng_seed or 1
                import random

                rv.info["stream"] = random.Random(f"ns2-rv/{seed}/{rv.info['serial']}")
            stream = rv.info["stream"]
        elif rng.info.get("mrg") is not None:
            return _num(draw_ns2(self.m.o, rv, rng.info["mrg"]))
        else:
            stream = self._stream(rng)
        return _num(draw(self.m.o, rv, stream))


def draw(o: Any, rv: Obj, stream: random.Random) -> float:
    """One value of random variable ``rv`` from ``stream``."""
    base = o.builtin_base(rv.cls)

    def var(name: str) -> float:
        return float(o.getvar(rv, name))

    if base == "RandomVariable/Uniform":
        return stream.uniform(var("min_"), var("max_"))
    if base == "RandomVariable/Exponential":
        return stream.expovariate(1.0 / var("avg_"))
    if base == "RandomVariable/Pareto":
        shape = var("shape_")
        scale = var("avg_") * (shape - 1.0) / shape
        return scale * stream.paretovariate(shape)
    return var("val_")  # Constant


def draw_ns2(o: Any, rv: Obj, rng: Any) -> float:
    """One value of random variable ``rv`` bound to an RNG the script made, as ns-2.35's
    C++ variables draw it (tools/ranvar.cc over tools/rng.h): uniform ``min + (max - min)·u``,
    exponential ``avg·(−ln u)``, Pareto ``scale / u^(1/shape)`` with ``scale = avg·(shape −
    1)/shape``, u the stream's next uniform."""
    base = o.builtin_base(rv.cls)

    def var(name: str) -> float:
        return float(o.getvar(rv, name))

    if base == "RandomVariable/Uniform":
        lo = var("min_")
        return lo + (var("max_") - lo) * rng.u01()
    if base == "RandomVariable/Exponential":
        return var("avg_") * -math.log(rng.u01())
    if base == "RandomVariable/Pareto":
        shape = var("shape_")
        scale = var("avg_") * (shape - 1.0) / shape
        return scale * (1.0 / math.pow(rng.u01(), 1.0 / shape))
    return var("val_")  # Constant


def _num(x: float) -> str:
    return format(x, ".17g")


def loss_probability(o: Any, em: Obj, rate: float) -> float:
    """The probability that ns-2's ``ErrorModel`` loses a packet (``u < rate_`` with u drawn
    from its ranvar, uniform on [0, 1) without one)."""
    rv = em.info["ranvar"]
    if rv is None:
        return min(max(rate, 0.0), 1.0)
    base = o.builtin_base(rv.cls)

    def var(name: str) -> float:
        return float(o.getvar(rv, name))

    if base == "RandomVariable/Uniform":
        lo, hi = var("min_"), var("max_")
        if hi <= lo:
            return 1.0 if lo < rate else 0.0
        return min(max((rate - lo) / (hi - lo), 0.0), 1.0)
    if base == "RandomVariable/Constant":
        return 1.0 if var("val_") < rate else 0.0
    if base == "RandomVariable/Exponential":
        return 1.0 - math.exp(-rate / var("avg_")) if rate > 0 else 0.0
    shape = var("shape_")
    scale = var("avg_") * (shape - 1.0) / shape
    return 1.0 - (scale / rate) ** shape if rate > scale else 0.0


def _rule(o: Any, em: Obj) -> dict[str, Any]:
    """The scenario rule of one error model (without its flows)."""
    base = o.builtin_base(em.cls)
    unit = "byte" if em.info["unit"] == "byte" else "packet"

    def var(name: str) -> str:
        return o.getvar(em, name)

    rule = _model_rule(o, em, base, unit, var)
    if classes.boolean(var("markecn_")) and rule["model"] != "pass":
        # ns-2 ErrorModel::recv: a corrupted packet is marked CE and passed on (markecn_
        # goes before delay_pkt_, which it overrides).
        rule["mark"] = True
        return rule
    if classes.boolean(var("delay_pkt_")) and rule["model"] != "pass":
        # ns-2 ErrorModel::recv: a corrupted packet is scheduled to the model's target
        # delay_ seconds later instead of being dropped (it is not judged again).
        try:
            delay = float(var("delay_"))
        except ValueError:
            delay = -1.0
        if not delay > 0:
            raise Refusal(f"{base} delay_pkt_ true with delay_ {var('delay_')}: give a delay_ > 0")
        rule["delay"] = f"{_num(delay)}s"
    return rule


def _check_marking(rule: dict[str, Any], flows: list[dict[str, Any]]) -> None:
    """Refuse an ECN-marking rule (``markecn_ true``) that may judge packets other than TCP's:
    ns-2 sets their CE bit (a trace line's ``E``), ternsim's packets carry it only in TCP."""
    if rule.get("mark") and any("tcp" not in f for f in flows):
        raise Refusal(
            "ErrorModel markecn_ true on packets other than TCP's: not supported; ternsim "
            "marks TCP packets only (bind the model to TCP flows with an ErrorModule Fid)"
        )


def _model_rule(o: Any, em: Obj, base: str, unit: str, var: Callable[[str], str]) -> dict[str, Any]:
    """The model part of an error model's rule."""
    if base == "ErrorModel/List":
        if not em.info["drops"]:
            return {"model": "pass"}  # ns-2 warns on every packet and drops none
        return {"model": "list", "unit": unit, "drop": list(em.info["drops"])}
    if base == "ErrorModel/Periodic":
        return {
            "model": "periodic",
            "unit": unit,
            "period": float(var("period_")),
            "offset": float(var("offset_")),
            "burst": float(var("burstlen_")),
            "default_drop": _int(var("default_drop_"), "default_drop_") != 0,
        }
    if _int(var("enable_"), "enable_") == 0:
        return {"model": "pass"}
    rate = float(var("rate_"))
    if unit == "byte":
        rv = em.info["ranvar"]
        if rv is not None and not (
            o.builtin_base(rv.cls) == "RandomVariable/Uniform"
            and float(o.getvar(rv, "min_")) == 0.0
            and float(o.getvar(rv, "max_")) == 1.0
        ):
            raise Refusal(
                "ErrorModel unit byte with a ranvar other than RandomVariable/Uniform on [0, 1]: "
                "not supported"
            )
        return {"model": "iid", "unit": unit, "rate": min(max(rate, 0.0), 1.0)}
    return {"model": "iid", "unit": unit, "rate": loss_probability(o, em, rate)}


def draws_default_rng(o: Any, em: Obj) -> bool:
    """Whether ns-2's ``em`` draws a number from ns-2's default RNG for each packet it judges
    (a rate model, enabled, with no ranvar or one without its own RNG that draws)."""
    if o.builtin_base(em.cls) != "ErrorModel" or _int(o.getvar(em, "enable_"), "enable_") == 0:
        return False
    rv = em.info["ranvar"]
    return rv is None or (
        rv.info.get("rng") is None and o.builtin_base(rv.cls) != "RandomVariable/Constant"
    )


def replayed_drops(o: Any, em: Obj, uniforms: list[float]) -> list[int]:
    """The packets (numbered from 0 at the model) ns-2's ``em`` drops when its i-th packet
    meets ``uniforms[i]``, its draw from the default RNG (``u < rate_``; with a uniform
    ranvar ``min_ + (max_ - min_) u < rate_``)."""
    rate = float(o.getvar(em, "rate_"))
    rv = em.info["ranvar"]
    lo, hi = 0.0, 1.0
    if rv is not None:
        lo, hi = float(o.getvar(rv, "min_")), float(o.getvar(rv, "max_"))
    return [i for i, u in enumerate(uniforms) if lo + (hi - lo) * u < rate]


def stages(
    o: Any,
    link: Any,
    d: int,
    flows: list[dict[str, Any]],
    fids: list[str],
    replay: Any = None,
) -> list[dict[str, Any]]:
    """The scenario's drop stages of direction ``d`` of ``link``. ``flows`` are the scenario's
    flows and ``fids`` their senders' ``fid_``, in the same order. ``replay(em, point)``, if
    given, returns the packets a rate model drops under ns-2's own default RNG stream (a list
    rule), or None to leave it to ternsim's stream."""
    out: list[dict[str, Any]] = []
    for point, em in link.stages[d]:
        base = o.builtin_base(em.cls)
        if base != "ErrorModule":
            rule = _rule(o, em)
            drops = replay(em, point) if replay is not None else None
            if drops is not None:
                rule = (
                    {"model": "list", "unit": "packet", "drop": drops}
                    if drops
                    else {"model": "pass"}
                )
            _check_marking(rule, flows)
            out.append({"at": point, "traced": em.info["drop"] == "link", "rules": [rule]})
            continue
        for m in em.info["models"]:
            if m.info["drop"] != "module":
                raise Refusal(
                    "an error model inside an ErrorModule with its own drop-target: not supported"
                )
        binds: dict[int, Obj] = em.info["binds"]
        by_model: dict[str, tuple[Obj, list[str]]] = {}
        for flow, fid in zip(flows, fids):
            bound = binds.get(_int(fid, "fid_"))
            if bound is None:
                default = em.info["default"]
                if default is None:
                    raise Refusal(
                        f"ErrorModule {em.name}: flow id {fid} has no error model bound and the "
                        "module no `default`; ns-2 discards such packets with a warning: not "
                        "supported; bind every flow id crossing the link or give "
                        f"`{em.name} default pass`",
                        where=link.where,
                    )
                if default == "pass":
                    continue
                bound = default
            by_model.setdefault(bound.name, (bound, []))[1].append(flow["name"])
        rules = [{**_rule(o, m), "flows": names} for m, names in by_model.values()]
        for rule in rules:
            _check_marking(rule, [f for f in flows if f["name"] in rule["flows"]])
        if rules:
            out.append({"at": point, "traced": em.info["drop"] == "link", "rules": rules})
    return out
