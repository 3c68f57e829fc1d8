"""The Python API for one run: load a scenario, override it, run it, look at the result.

This module owns:

* loading a scenario from a TOML file (or a JSON file, or a dict of the same structure);
* overrides: dotted key paths with list indices (``flows.0.tcp``) set to Python values or, from
  the command line, to ``KEY=VALUE`` strings whose values are read as TOML;
* the canonical JSON form of a scenario that the core receives (and sweeps hash);
* :class:`RunResult`: the summary, per-flow and per-link tables, traces as DataFrames, and
  writing all of it to a result folder atomically.

It does not know the scenario schema. The core validates every scenario strictly and names the
key path of each problem; Python only walks the document to apply overrides, and a key an
override adds is left for the core to accept or refuse.
"""

from __future__ import annotations

import math
import os
import stat
from collections.abc import Iterable, Mapping

from . import _json_plain, _native, _toml_read
from .errors import ScenarioError, scenario_error

# What a short ``ternsim run`` does not import here, each costing milliseconds at start-up:
# typing (typing.TYPE_CHECKING is spelled as a constant), tomllib (loaded only for the TOML
# that ternsim._toml_read leaves to it), pathlib (loaded for anything but reading a plain
# file, see _plain_file), json (the canonical JSON of a scenario is ternsim._json_plain's),
# copy and numbers (loaded only for values that need them), and the modules of writing a
# result folder and of the shipped scenarios.
TYPE_CHECKING = False
if TYPE_CHECKING:  # numpy and pandas load on first use: a run printed as JSON needs neither
    from pathlib import Path
    from typing import Any, Callable, Union

    import numpy as np
    import pandas as pd

    ScenarioLike = Union[str, "os.PathLike[str]", Mapping[str, Any]]
    Overrides = Union[Mapping[str, Any], Iterable[str], str, None]

__all__ = [
    "RunResult",
    "ScenarioError",
    "apply_overrides",
    "load_scenario",
    "parse_assignment",
    "parse_value",
    "prepare",
    "records_frame",
    "run",
    "scenario_json",
    "validate",
]


def __getattr__(name: str) -> Any:
    # The type aliases ScenarioLike and Overrides (ternsim.sweep imports them), built on first
    # use (PEP 562) so that importing this module does not import typing.
    if name in ("ScenarioLike", "Overrides"):
        from typing import Any, Union

        aliases = {
            "ScenarioLike": Union[str, "os.PathLike[str]", Mapping[str, Any]],
            "Overrides": Union[Mapping[str, Any], Iterable[str], str, None],
        }
        globals().update(aliases)
        return aliases[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _tomllib() -> Any:
    """The standard library's TOML reader (tomli before Python 3.11), imported on first use."""
    try:
        import tomllib
    except ModuleNotFoundError:  # pragma: no cover - Python < 3.11
        import tomli as tomllib  # type: ignore[no-redef]
    return tomllib


def _deepcopy(value: Any) -> Any:
    """``copy.deepcopy(value)``; a str, int, float, bool or None is returned as it is, as
    deepcopy returns it, without importing copy."""
    if value is None or type(value) in (str, int, float, bool):
        return value
    import copy

    return copy.deepcopy(value)


#: Trace file formats :meth:`RunResult.write` knows.
TRACE_FORMATS = ("parquet", "csv")
#: The file every run folder has; its presence marks a folder as a ternsim result.
SUMMARY_FILE = "summary.json"


# --- loading -------------------------------------------------------------------------------


def load_scenario(path_or_dict: ScenarioLike) -> dict[str, Any]:
    """Returns a scenario as a fresh dict.

    ``path_or_dict`` is a dict (deep-copied), or the path of a ``.toml`` file (a ``.json`` file
    of the same structure also works). A relative path that does not exist is also looked up
    among the shipped scenarios (:func:`ternsim.paths.scenario_path`), so
    ``load_scenario("examples/dumbbell.toml")`` works from any folder.

    A scenario read from a file gets ``scenario_dir`` (its folder) unless it sets one, so
    that relative trace paths inside it resolve against the file, not the working directory.

    Raises FileNotFoundError for a missing file, IsADirectoryError for a folder, and
    ScenarioError for a file that is not UTF-8 text or does not parse.
    Nothing is validated here: see :func:`validate`.
    """
    if isinstance(path_or_dict, Mapping):
        return _deepcopy(dict(path_or_dict))
    plain = _plain_file(path_or_dict)
    if plain is not None:
        name, data = plain
        return _parse_scenario(
            data,
            shown=lambda: _shown(name),
            is_json=_is_json_name(name),
            folder=lambda: os.path.dirname(os.path.realpath(name)),
        )
    from pathlib import Path

    path = Path(path_or_dict)
    if not path.exists() and not path.is_absolute():
        from .paths import scenario_path

        try:
            path = scenario_path(path)
        except FileNotFoundError:
            pass
    if path.is_dir():
        tomls = sorted(p.name for p in path.glob("*.toml"))
        inside = f" (it holds {', '.join(tomls)})" if tomls else ""
        raise IsADirectoryError(f"scenario file not found: {path_or_dict} is a folder{inside}")
    if not path.is_file():
        raise FileNotFoundError(f"scenario file not found: {path_or_dict}")
    return _parse_scenario(
        path.read_bytes(),
        shown=lambda: str(path),
        is_json=path.suffix.lower() == ".json",
        folder=lambda: str(path.resolve().parent),
    )


def _plain_file(path: object) -> tuple[str, bytes] | None:
    """The name and the bytes of the scenario file ``path`` (a str or os.PathLike) when it is
    a regular file that reads without error, else None.

    This is what load_scenario does for such a file, without importing pathlib (5 ms or more
    at the start of every run): the file is found as named (no lookup among the shipped
    scenarios), it is no folder, and its bytes are those ``Path(path).read_bytes()`` gives.
    Anything else (a missing file, a folder, an unreadable file, an odd argument) goes to the
    pathlib code, which also words every error about it as before."""
    if os.sep != "/" or not isinstance(path, (str, os.PathLike)):
        return None  # (on Windows, pathlib reads every file)
    try:
        name = os.fspath(path)
        if not isinstance(name, str) or not stat.S_ISREG(os.stat(name).st_mode):
            return None
        with open(name, "rb") as file:
            return name, file.read()
    except (OSError, ValueError, TypeError):
        return None


def _shown(name: str) -> str:
    """``str(Path(name))``, the path as messages show it (pathlib's spelling: no ``./``, no
    doubled or trailing slash); only an error message needs it."""
    from pathlib import Path

    return str(Path(name))


def _is_json_name(name: str) -> bool:
    """``Path(name).suffix.lower() == ".json"`` for the name of a file: its last part ends in
    ``.json`` after at least one more character (``.json`` alone has no suffix)."""
    last = name.rsplit("/", 1)[-1]  # a regular file's name has no trailing slash
    return len(last) > 5 and last.lower().endswith(".json")


def _parse_scenario(
    data: bytes, *, shown: Callable[[], str], is_json: bool, folder: Callable[[], str]
) -> dict[str, Any]:
    """The scenario in a file's bytes; ``shown()`` is the file as messages name it,
    ``folder()`` the absolute folder it is in (``scenario_dir``)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise scenario_error(
            "",
            f"{shown()} is not a text scenario: byte 0x{exc.object[exc.start]:02x} at offset "
            f"{exc.start} is not UTF-8 (scenarios are TOML text)",
        ) from None
    if "\x00" in text:
        raise scenario_error("", f"{shown()} is not a text scenario: it holds NUL bytes")
    if is_json:
        import json

        try:
            doc = json.loads(text)
        except json.JSONDecodeError as exc:
            raise scenario_error("", f"cannot parse {shown()}: {exc}") from None
    else:
        # The plain TOML of scenario files without tomllib; tomllib reads the rest, and says
        # what is wrong with a file that does not parse.
        doc = _toml_read.loads(text)
        if doc is None:
            tomllib = _tomllib()
            try:
                doc = tomllib.loads(text)
            except tomllib.TOMLDecodeError as exc:
                raise scenario_error("", f"cannot parse {shown()}: {exc}") from None
    if not isinstance(doc, dict):
        raise scenario_error("", f"{shown()} does not hold a table at its top level")
    # Relative file paths inside the scenario (traces) resolve against its own folder.
    if "scenario_dir" not in doc:
        doc["scenario_dir"] = folder()
    return doc


# --- overrides -----------------------------------------------------------------------------


def parse_value(text: str) -> Any:
    """Reads an override value as a TOML value: ``3`` is an int, ``0.01`` and ``1e-3`` floats,
    ``true`` a bool, ``"x"`` or ``'x'`` a string, ``[1, 2]`` an array and ``{model = "iid"}``
    a table. Anything TOML cannot read (``vegas``, ``10ms``, ``5parsecs``) is a bare string."""
    s = text.strip()
    if "\n" in s or "\r" in s:
        return s
    # The common values (numbers, booleans, words such as ``vegas`` or ``10ms``) are decided
    # without tomllib, exactly as tomllib would decide them (see ternsim._toml_read).
    scalar = _toml_read.override_scalar(s)
    if scalar is _toml_read.STRING:
        return s
    if scalar is not _toml_read.MISS:
        return scalar
    doc = _toml_read.loads(f"v = {s}")
    if doc is None:
        tomllib = _tomllib()
        try:
            doc = tomllib.loads(f"v = {s}")
        except tomllib.TOMLDecodeError:
            return s
    if set(doc) != {"v"} or not _plain(doc["v"]):
        return s  # a date, a time, or text that TOML read as more than one key
    return doc["v"]


def _plain(value: Any) -> bool:
    if isinstance(value, (bool, int, float, str)):
        return True
    if isinstance(value, list):
        return all(_plain(v) for v in value)
    if isinstance(value, dict):
        return all(_plain(v) for v in value.values())
    return False


def parse_assignment(item: str) -> tuple[str, Any]:
    """Splits ``"KEY=VALUE"`` at its first ``=`` and parses the value (:func:`parse_value`)."""
    key, sep, value = item.partition("=")
    key = key.strip()
    if not sep or not key:
        raise scenario_error(key, f"override `{item}` is not of the form KEY=VALUE")
    return key, parse_value(value)


def _override_items(overrides: Overrides) -> list[tuple[str, Any]]:
    if overrides is None:
        return []
    if isinstance(overrides, str):
        return [parse_assignment(overrides)]
    if isinstance(overrides, Mapping):
        return [(str(k), v) for k, v in overrides.items()]
    items = []
    for item in overrides:
        if isinstance(item, str):
            items.append(parse_assignment(item))
        else:
            key, value = item
            items.append((str(key), value))
    return items


def _set_path(doc: dict[str, Any], key: str, value: Any) -> None:
    parts = key.split(".")
    if any(not p.strip() for p in parts):
        raise scenario_error(key, f"override key `{key}` has an empty segment")
    node: Any = doc
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        parent = ".".join(parts[:i]) or "the scenario"
        here = ".".join(parts[: i + 1])
        if isinstance(node, dict):
            if last:
                node[part] = _deepcopy(value)
            else:
                node = node.setdefault(part, {})
        elif isinstance(node, list):
            index = _list_index(node, part, parent, here, key)
            if index >= len(node):
                raise scenario_error(
                    here,
                    f"index {index} is past the end of `{parent}` "
                    f"({_entries(len(node))}) in override `{key}`",
                )
            if last:
                node[index] = _deepcopy(value)
            else:
                node = node[index]
        else:
            raise scenario_error(
                here,
                f"`{parent}` is a {_kind(node)}, not a table or list, in override `{key}`",
            )


def _list_index(node: list[Any], part: str, parent: str, here: str, key: str) -> int:
    """The index a path segment addresses in a list: a number, or the ``name`` of an entry
    (``flows.ftp`` is the flow named ``ftp``)."""
    if part.isdigit():
        return int(part)
    named = [
        i for i, item in enumerate(node) if isinstance(item, dict) and item.get("name") == part
    ]
    if len(named) == 1:
        return named[0]
    if len(named) > 1:
        raise scenario_error(
            here, f"`{parent}` has {len(named)} entries named `{part}` in override `{key}`"
        )
    names = [str(item["name"]) for item in node if isinstance(item, dict) and "name" in item]
    if not node:
        allowed = "it is empty"
    elif names:
        allowed = f"use an index (0..{len(node) - 1}) or a name: {', '.join(names)}"
    else:
        allowed = f"use an index (0..{len(node) - 1})"
    raise scenario_error(
        here, f"`{parent}` is a list with no entry named `{part}` in override `{key}`; {allowed}"
    )


def _entries(n: int) -> str:
    return "1 entry" if n == 1 else f"{n} entries"


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, str):
        return "string"
    if isinstance(value, (int, float)):
        return "number"
    return type(value).__name__


def apply_overrides(scenario: Mapping[str, Any], overrides: Overrides) -> dict[str, Any]:
    """Returns a copy of ``scenario`` with ``overrides`` applied in order.

    ``overrides`` is a mapping ``{key_path: value}`` (values used as given), or a list of
    ``"KEY=VALUE"`` strings (values read as TOML by :func:`parse_value`). Key paths are dotted,
    with list entries addressed by index or by their ``name``: ``flows.0.tcp``,
    ``flows.ftp.tcp`` (the flow named ``ftp``), ``links.1.loss``, ``tcp_defaults.window``.

    A key missing from a table is added (with any missing tables on the way), so the core
    refuses an unknown key with its full path. An index past a list's end, a non-index into a
    list, or a key into a value that is not a table raises ScenarioError naming the path.
    """
    return _apply(_deepcopy(dict(scenario)), overrides)


def _apply(scenario: dict[str, Any], overrides: Overrides) -> dict[str, Any]:
    """Applies ``overrides`` to ``scenario`` in place; returns it."""
    for key, value in _override_items(overrides):
        _set_path(scenario, key, value)
    return scenario


# --- the scenario the core sees --------------------------------------------------------------


def _check_json(value: Any, path: str) -> None:
    if isinstance(value, float) and not math.isfinite(value):
        raise scenario_error(path, f"{value} is not a finite number")
    if isinstance(value, dict):
        for k, v in value.items():
            if not isinstance(k, str):
                raise scenario_error(path, f"key {k!r} is not a string")
            _check_json(v, f"{path}.{k}" if path else k)
    elif isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            _check_json(v, f"{path}.{i}" if path else str(i))
    elif value is not None and not isinstance(value, (bool, int, float, str)):
        raise scenario_error(path, f"a {type(value).__name__} cannot appear in a scenario")


def scenario_json(scenario: Mapping[str, Any]) -> str:
    """The canonical JSON of a scenario: keys sorted, no whitespace, UTF-8 text. Equal
    scenarios give equal strings, which is what the sweep cache hashes."""
    _check_json(scenario, "")
    # json.dumps(scenario, sort_keys=True, separators=(",", ":"), ensure_ascii=False), without
    # importing json for plain data (see ternsim._json_plain).
    return _json_plain.canonical(scenario)


def prepare(scenario_or_path: ScenarioLike, overrides: Overrides = None) -> dict[str, Any]:
    """Loads a scenario and applies overrides, without validating it."""
    # load_scenario returns a fresh dict (a copy of a dict it is given, a new one for a file):
    # the overrides go into it, with no second deep copy (nor the import of copy).
    return _apply(load_scenario(scenario_or_path), overrides)


def validate(scenario_or_path: ScenarioLike, overrides: Overrides = None) -> dict[str, Any]:
    """Loads, overrides and validates a scenario; returns the scenario as the core will run it
    (before the core's defaults). Raises ScenarioError naming the key path of a problem."""
    scenario = prepare(scenario_or_path, overrides)
    _native.validate_json(scenario_json(scenario))
    return scenario


def _check_seed(seed: int) -> int:
    if type(seed) is int:  # the usual case, without importing numbers
        if not 0 <= seed < 2**64:
            raise ValueError(f"seed must be in 0..2**64-1, not {seed}")
        return seed
    import numbers

    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
        raise TypeError(f"seed must be an integer, not {type(seed).__name__}")
    if not 0 <= int(seed) < 2**64:
        raise ValueError(f"seed must be in 0..2**64-1, not {seed}")
    return int(seed)


def run(
    scenario_or_path: ScenarioLike,
    seed: int = 1,
    overrides: Overrides = None,
    *,
    pcap: str | None = None,
    ns2_trace: bool = False,
    progress: Callable[[float, int], object] | None = None,
) -> RunResult:
    """Runs one scenario with one seed and returns its :class:`RunResult`.

    The scenario is a path or a dict; ``overrides`` as in :func:`apply_overrides`. A scenario
    the core refuses raises ScenarioError before anything runs. Same scenario, seed and
    version: the same result, apart from ``wall_seconds``. ``progress(simulated_seconds,
    events)``, if given, is called every 2**18 events while the core runs; it only observes.

    ``pcap`` names a flow (capture at its sender, that flow only) or a node (all its
    interfaces), optionally prefixed ``flow:`` or ``node:``; the pcap file's bytes are then in
    ``result.pcap`` (write them with :meth:`RunResult.write_pcap`). ``ns2_trace=True`` records
    an ns-2 trace (wired format, or the old wireless format on an 802.11 scenario) in
    ``result.ns2_trace``.
    """
    seed = _check_seed(seed)
    scenario = prepare(scenario_or_path, overrides)
    out = _native.run_json(
        scenario_json(scenario), seed, pcap=pcap, ns2_trace=ns2_trace, progress=progress
    )
    result = RunResult(out["summary"], scenario=scenario, raw_traces=out["traces"])
    result.pcap = out.get("pcap")
    result.ns2_trace = out.get("ns2_trace")
    return result


class Simulation:
    """One run that the caller steps: build, advance, read and change, finish.

        >>> sim = Simulation("examples/dumbbell.toml", seed=1)
        >>> for t in range(1, 11):
        ...     sim.run_until(t)                 # events due before t seconds have run
        ...     print(t, sim.flow("ftp")["cwnd"])
        >>> result = sim.finish()                # the rest of the run: a RunResult

    ``run_until(t)`` runs the events due strictly before ``t`` (an ns-2 ``$ns at t``
    callback sees the state before the packet events of its own instant) and pauses; pausing
    changes nothing, so a run stepped any way ends with the summary :func:`run` gives for the
    same scenario and seed. ``flow(name_or_index)`` reads a flow's state (TCP: ``cwnd``,
    ``ssthresh``, ``t_seqno``, ``maxseq``, ``ack``, ``dupacks``, ``srtt_s``, ``rttvar_s``,
    ``rto_s``, ``backoff``, ``segments_sent``, ``retransmissions``, ``timeouts``,
    ``fast_retransmits``, ``sink_packets``, ``sink_delivered_wire_bytes``; UDP: ``sent_packets``,
    ``sent_bytes``, ``received_packets``, ``received_bytes``, ``lost_packets``,
    ``last_arrival_s``); ``set_window`` changes a TCP flow's receiver window from now on.
    ``finish()`` runs to the scenario's duration, ``stop()`` ends at the pause (the summary
    then covers ``[0, now]``); either returns a :class:`RunResult`. With ``ns2_trace=True``
    the run records an ns-2 trace (read with ``take_ns2_trace``); ``ns2_omit`` names wireless
    layers (``"AGT"``, ``"RTR"``) whose send, receive and forward lines it leaves out;
    ``ns2_mac=True`` adds the MAC lines of an 802.11 run (ns-2 ``-macTrace ON``);
    ``ns2_events=True`` adds the TCP senders' event-trace ``E`` lines (ns-2
    ``$ns eventtrace-all``), the flow index as their fid; ``ns2_exact_times=True`` ends each
    wired line with its event's exact time in seconds (a 13th field; ns-2's nam trace
    prints that double with ``%.15g``); ``ns2_newtrace=True`` ends each wireless line with
    what ns-2's new trace format (``$ns use-newtrace``) adds, `` |NT next_hop x y flow``.
    """

    def __init__(
        self,
        scenario_or_path: ScenarioLike,
        seed: int = 1,
        overrides: Overrides = None,
        *,
        ns2_trace: bool = False,
        ns2_omit: tuple[str, ...] = (),
        ns2_mac: bool = False,
        ns2_events: bool = False,
        ns2_exact_times: bool = False,
        ns2_newtrace: bool = False,
    ) -> None:
        self.seed = _check_seed(seed)
        self.scenario = prepare(scenario_or_path, overrides)
        self._sim = _native.simulation(
            scenario_json(self.scenario),
            self.seed,
            ns2_trace,
            tuple(ns2_omit),
            ns2_mac,
            ns2_events,
            ns2_exact_times,
            ns2_newtrace,
        )
        flows = self.scenario.get("flows", [])
        self._flow_index = {
            str(f.get("name", f"flow{i}")): i for i, f in enumerate(flows) if isinstance(f, dict)
        }
        self._trace: list[str] = []

    @property
    def now(self) -> float:
        """Where the run is paused, in seconds."""
        return float(self._sim.now)

    def run_until(self, seconds: float) -> bool:
        """Runs every event due before ``seconds`` and pauses there (never goes back).
        With :meth:`ping_replies` asked for, it pauses earlier at the event that brought a
        ping reply and returns False (``now`` is then that event's time)."""
        return bool(self._sim.run_until(float(seconds)))

    def keep_ping_replies(self, on: bool = True) -> None:
        """Keep each ping reply for :meth:`ping_replies`, pausing the run where it arrives
        (as ns-2 calls a ping agent's ``recv`` at that instant)."""
        self._sim.set_ping_upcalls(bool(on))

    def ping_replies(self) -> list[dict[str, Any]]:
        """The ping replies kept since the last call, in arrival order: the flow (its name,
        and its ``index``), the ``end`` that pinged (``"source"`` or ``"sink"``), the reply's
        arrival ``at``, the request's ``seq``, when it was ``sent`` and when it ``reached``
        the replier (exact seconds), and the round trip ``rtt_s``."""
        names = {i: n for n, i in self._flow_index.items()}
        return [
            {
                "flow": names.get(flow, flow),
                "index": flow,
                "end": "sink" if sink else "source",
                "at": at,
                "seq": seq,
                "sent": sent,
                "reached": reached,
                "rtt_s": at - sent,
            }
            for flow, sink, at, seq, sent, reached in self._sim.take_ping_replies()
        ]

    def ping(self, flow: str | int, end: str = "source") -> None:
        """A ping flow's ``"source"`` (or ``"sink"``) end sends an echo request now."""
        if end not in ("source", "sink"):
            raise ValueError(f"end {end!r}: allowed: 'source', 'sink'")
        self._sim.ping(self._index(flow), end == "sink")

    def _index(self, flow: str | int) -> int:
        if isinstance(flow, int):
            return flow
        try:
            return self._flow_index[flow]
        except KeyError:
            names = ", ".join(self._flow_index) or "none"
            raise KeyError(f"no flow {flow!r}; flows: {names}") from None

    def flow(self, flow: str | int) -> dict[str, float]:
        """The state of a flow (by name or scenario index) where the run is paused."""
        return dict(self._sim.flow_state(self._index(flow)))

    def set_window(self, flow: str | int, packets: int) -> None:
        """Sets a TCP flow's receiver window (ns-2 ``window_``) from now on."""
        self._sim.set_tcp_window(self._index(flow), int(packets))

    def start_flow(self, flow: str | int) -> None:
        """Starts a flow's application now (ns-2 ``$app start`` in a callback), or again after
        a stop: a TCP flow then offers unlimited data (ns-2's FTP ``start``), a CBR source
        sends its first packet at once. Starting a running flow does nothing."""
        self._sim.start_flow(self._index(flow))

    def reset_node(self, node: str) -> None:
        """Resets a node now (ns-2 ``$node reset``): the packets waiting in its 802.11
        interface queue are dropped (``end_of_simulation``)."""
        self._sim.reset_node(node)

    def stop_flow(self, flow: str | int) -> None:
        """Stops a flow's application now (ns-2 ``$app stop``): no new data from now on."""
        self._sim.stop_flow(self._index(flow))

    def detach_agent(self, flow: str | int, side: str) -> None:
        """Detaches a flow's ``"source"`` or ``"sink"`` agent from its node from now on (ns-2
        ``$ns detach-agent``): what it sends and what reaches its port are absorbed, untraced;
        the agent runs on (a TCP sender's timers fire into nothing)."""
        if side not in ("source", "sink"):
            raise ValueError(f"side {side!r}; allowed: source, sink")
        self._sim.detach_agent(self._index(flow), side == "sink")

    def take_ns2_trace(self) -> str:
        """The ns-2 trace recorded since the last call (with ``ns2_trace=True``)."""
        return str(self._sim.take_ns2_trace())

    def take_ns2_trace_vars(self) -> tuple[str, list[tuple[int, float, int, str, float]]]:
        """The ns-2 trace recorded since the last call and the traced variables' changes
        since then, each with the character offset in that text where it happened (ns-2
        writes a change between the lines of the events before and after it): ``(text,
        [(offset, seconds, flow index, variable, value)])``."""
        text, changes = self._sim.take_ns2_trace_vars()
        return str(text), list(changes)

    def trace_tcp_var(self, flow: str | int, var: str) -> float:
        """Records each change of a TCP sender's variable from now on, as ns-2's ``$tcp
        trace VAR`` does (``cwnd_``, ``ssthresh_``, ``t_seqno_``, ``ack_``, ``maxseq_``,
        ``dupacks_``, ``rtt_``, ``srtt_``, ``rttvar_`` (ns-2's bound integers: ticks, 8 and 4
        times ticks), ``backoff_``, ``ndatapack_``, ``ndatabytes_``, ``nrexmitpack_``,
        ``nrexmitbytes_``, ``nrexmit_``, ``ncwndcuts_``); returns its value now."""
        return float(self._sim.trace_tcp_var(self._index(flow), var))

    def take_red_trace(self) -> list[tuple[float, int, str, float]]:
        """The traced RED variables' changes since the last call (``trace_red_var`` of the
        native simulation; ns-2 ``$redq trace curq_``/``ave_``): ``(seconds, device, variable,
        value)``."""
        return list(self._sim.take_red_trace())

    def take_var_trace(self) -> list[tuple[float, int, str, float]]:
        """The traced variables' changes since the last call, in the order they happened:
        ``(seconds, flow index, variable, value)``."""
        return list(self._sim.take_var_trace())

    def _result(self, out: Any) -> RunResult:
        out = _native.output(out)
        result = RunResult(out["summary"], scenario=self.scenario, raw_traces=out["traces"])
        result.ns2_trace = out.get("ns2_trace")
        return result

    def finish(self) -> RunResult:
        """Runs the rest of the scenario and returns its result."""
        return self._result(self._sim.finish())

    def stop(self) -> RunResult:
        """Ends the run where it is paused and returns its result over ``[0, now]``."""
        return self._result(self._sim.stop())


# --- results -------------------------------------------------------------------------------


def _categorical(codes: np.ndarray, labels: list[str]) -> pd.Categorical:
    """Maps integer indices into ``labels`` to a categorical (out-of-range indices are NaN)."""
    import numpy as np
    import pandas as pd

    categories = list(dict.fromkeys(labels))
    lut = np.array([categories.index(label) for label in labels] or [0], dtype=np.int64)
    codes = np.asarray(codes, dtype=np.int64)
    valid = (codes >= 0) & (codes < len(labels))
    mapped = np.where(valid, lut[np.where(valid, codes, 0)], -1)
    return pd.Categorical.from_codes(mapped, categories=categories)


def records_frame(records: Iterable[Mapping[str, Any]]) -> pd.DataFrame:
    """A DataFrame of summary records (flows, links) in which a field that is a number or
    null (``rtt_min_s`` without samples) is a float column with NaN for null."""
    import pandas as pd

    frame = pd.DataFrame(list(records))
    for column in frame.columns:
        values = frame[column]
        if values.dtype == object and all(
            v is None or (isinstance(v, (int, float)) and not isinstance(v, bool)) for v in values
        ):
            frame[column] = values.astype(float)
    return frame


def trace_frame(columns: Mapping[str, Any], summary: Mapping[str, Any]) -> pd.DataFrame:
    """Builds a trace DataFrame from the core's column payloads.

    The ``flow`` column (an index into ``summary["flows"]``) becomes the flow's name. Nodes,
    links, interfaces and bearers already arrive by name from the core. Names and other
    string columns (``event``, ``reason``) are categorical.
    """
    import pandas as pd

    flows = [str(f.get("name")) for f in summary.get("flows", [])]
    data: dict[str, Any] = {}
    for name, payload in columns.items():
        values = _native.decode_column(payload)
        if isinstance(values, list):
            data[name] = pd.Categorical(values)
        elif name == "flow":
            data[name] = _categorical(values, flows)
        else:
            data[name] = values
    return pd.DataFrame(data)


class RunResult:
    """The outcome of one run.

    Attributes:
        summary: the core's summary, a dict (see the README for its fields).
        scenario: the scenario as run (after overrides), or None when read from a folder
            written without one.
    """

    def __init__(
        self,
        summary: dict[str, Any],
        traces: Mapping[str, pd.DataFrame] | None = None,
        *,
        scenario: dict[str, Any] | None = None,
        raw_traces: Mapping[str, Any] | None = None,
    ) -> None:
        self.summary = summary
        self.scenario = scenario
        self._frames: dict[str, pd.DataFrame] = dict(traces or {})
        self._raw: dict[str, Any] = dict(raw_traces or {})
        #: pcap file bytes, when the run was asked for a capture (``run(..., pcap=...)``).
        self.pcap: bytes | None = None
        #: ns-2 trace text, when the run was asked for one (``run(..., ns2_trace=True)``).
        self.ns2_trace: str | None = None

    def write_pcap(self, path: str | Path) -> Path:
        """Writes the captured pcap file to ``path``."""
        if self.pcap is None:
            raise ValueError("this run captured no pcap; pass pcap=FLOW_OR_NODE to run()")
        from pathlib import Path

        path = Path(path)
        path.write_bytes(self.pcap)
        return path

    def write_ns2_trace(self, path: str | Path) -> Path:
        """Writes the ns-2 trace to ``path``."""
        if self.ns2_trace is None:
            raise ValueError("this run recorded no ns-2 trace; pass ns2_trace=True to run()")
        from pathlib import Path

        path = Path(path)
        path.write_text(self.ns2_trace, encoding="utf-8")
        return path

    def __repr__(self) -> str:
        names = ", ".join(self.trace_names) or "none"
        return (
            f"RunResult(scenario={self.summary.get('scenario')!r}, "
            f"seed={self.summary.get('seed')!r}, flows={len(self.summary.get('flows', []))}, "
            f"traces=[{names}])"
        )

    @property
    def seed(self) -> int | None:
        return self.summary.get("seed")

    @property
    def flows(self) -> pd.DataFrame:
        """One row per flow: the summary's per-flow fields, in scenario order."""
        return records_frame(self.summary.get("flows", []))

    @property
    def links(self) -> pd.DataFrame:
        """One row per link direction: the summary's per-link fields."""
        return records_frame(self.summary.get("links", []))

    @property
    def trace_names(self) -> list[str]:
        """Names of the traces this run recorded."""
        return list(dict.fromkeys([*self._frames, *self._raw]))

    def trace(self, name: str) -> pd.DataFrame:
        """One trace as a DataFrame (decoded on first use).

        Raises KeyError naming the traces recorded when ``name`` was not switched on.
        """
        if name not in self._frames:
            if name not in self._raw:
                have = ", ".join(self.trace_names) or "none"
                raise KeyError(
                    f"trace `{name}` was not recorded (recorded: {have}); "
                    f"switch it on with `traces.{name}=true`"
                )
            self._frames[name] = trace_frame(self._raw.pop(name), self.summary)
        return self._frames[name]

    @property
    def traces(self) -> dict[str, pd.DataFrame]:
        """Every recorded trace, by name."""
        return {name: self.trace(name) for name in self.trace_names}

    def write(
        self, folder: str | os.PathLike[str], formats: str | Iterable[str] = ("parquet",)
    ) -> Path:
        """Writes the result folder: ``summary.json``, ``scenario.json`` (the scenario as run),
        ``flows.csv``, ``links.csv`` and ``<trace>.parquet`` / ``<trace>.csv`` per trace.

        ``formats`` is any of ``"parquet"`` and ``"csv"``. The folder is written under a
        temporary name and renamed into place: it is either the complete new result or what
        was there before. An existing folder is only replaced if it is a result folder.
        """
        fmts = (formats,) if isinstance(formats, str) else tuple(formats)
        unknown = [f for f in fmts if f not in TRACE_FORMATS]
        if unknown or not fmts:
            raise ValueError(f"formats must be among {TRACE_FORMATS}, not {fmts}")
        import json

        traces = self.traces

        def fill(tmp: Path) -> None:
            (tmp / SUMMARY_FILE).write_text(
                json.dumps(self.summary, indent=2) + "\n", encoding="utf-8"
            )
            if self.scenario is not None:
                (tmp / "scenario.json").write_text(
                    json.dumps(self.scenario, indent=2) + "\n", encoding="utf-8"
                )
            self.flows.to_csv(tmp / "flows.csv", index=False)
            self.links.to_csv(tmp / "links.csv", index=False)
            for name, frame in traces.items():
                if "parquet" in fmts:
                    frame.to_parquet(tmp / f"{name}.parquet", index=False)
                if "csv" in fmts:
                    frame.to_csv(tmp / f"{name}.csv", index=False)

        from ._atomic import replace_folder

        return replace_folder(folder, fill, marker=SUMMARY_FILE)

    @classmethod
    def read(cls, folder: str | os.PathLike[str]) -> RunResult:
        """Reads a folder written by :meth:`write` (Parquet traces preferred over CSV)."""
        import json
        from pathlib import Path

        folder = Path(folder)
        summary_path = folder / SUMMARY_FILE
        if not summary_path.is_file():
            raise FileNotFoundError(f"{folder} is not a run folder (no {SUMMARY_FILE})")
        summary = json.loads(summary_path.read_text(encoding="utf-8"))
        scenario_path_ = folder / "scenario.json"
        scenario = (
            json.loads(scenario_path_.read_text(encoding="utf-8"))
            if scenario_path_.is_file()
            else None
        )
        import pandas as pd

        frames: dict[str, pd.DataFrame] = {}
        for path in sorted(folder.glob("*.parquet")):
            frames[path.stem] = pd.read_parquet(path)
        for path in sorted(folder.glob("*.csv")):
            if path.stem not in frames and path.stem not in ("flows", "links"):
                frames[path.stem] = pd.read_csv(path)
        return cls(summary, frames, scenario=scenario)
