"""The ``ternsim`` command's entry point (and ``python -m ternsim``'s): a fast path for the
common forms of ``ternsim run`` and ``ternsim ns2``, the typer app for everything else.

typer and click take about 100 ms to import, more than a short run. A command line this
module fully understands is run here, by the same command bodies the typer commands call
(:mod:`ternsim._commands`), so output, files and exit status are the same. Anything else —
help, another command, an option form not listed below, a value typer would refuse or convert
differently — goes to the typer app (:mod:`ternsim.cli`) untouched, so its behaviour and its
messages stay typer's. tests/test_cli_fast.py checks :data:`RUN_OPTIONS` and
:data:`NS2_OPTIONS` against the typer commands' options, and runs both paths side by side.
"""

from __future__ import annotations

import errno
import os
import stat
import sys

# typing.TYPE_CHECKING without importing typing, which alone takes about 5 ms of a run's start.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable

__all__ = ["NS2_OPTIONS", "RUN_OPTIONS", "Option", "fast_command", "main", "parse_ns2", "parse_run"]


class Option:
    """An option the fast path reads: the command's parameter it sets, and its kind: ``flag``
    (no value), ``count`` (an integer >= 0), ``text`` or ``path``; ``multiple`` options may be
    repeated (their values are collected in order), the others may appear once. (A plain
    class: a NamedTuple costs a millisecond at import.)"""

    __slots__ = ("kind", "multiple", "param")

    def __init__(self, param: str, kind: str, multiple: bool = False) -> None:
        self.param = param
        self.kind = kind
        self.multiple = multiple

    def __repr__(self) -> str:
        return f"Option({self.param!r}, {self.kind!r}, multiple={self.multiple})"


#: The options of ``ternsim run`` (:func:`ternsim.cli.run`), by every spelling.
RUN_OPTIONS: dict[str, Option] = {
    "--seed": Option("seed", "count"),
    "--set": Option("set_", "text", multiple=True),
    "--out": Option("out", "path"),
    "-o": Option("out", "path"),
    "--json": Option("as_json", "flag"),
    "--csv": Option("csv", "flag"),
    "--pcap": Option("pcap", "text"),
    "--pcap-file": Option("pcap_file", "path"),
    "--ns2-trace": Option("ns2_trace", "path"),
    "--quiet": Option("quiet", "flag"),
    "-q": Option("quiet", "flag"),
}

#: The options of ``ternsim ns2`` (:func:`ternsim.cli.ns2`); they come before the script,
#: everything after it is the script's.
NS2_OPTIONS: dict[str, Option] = {
    "--out": Option("out", "path"),
    "-o": Option("out", "path"),
    "--seed": Option("seed", "count"),
}

#: A seed past the core's range is accepted by typer and refused by the API with a traceback:
#: the fast path leaves such numbers to typer, so that the failure is typer's own.
_MAX_COUNT = 2**64


def _is_file(text: str) -> bool:
    """Whether ``text`` names a regular file (following symbolic links)."""
    try:
        return stat.S_ISREG(os.stat(text).st_mode)
    except (OSError, ValueError):
        return False


def _value(kind: str, text: str, *, as_path: bool = True) -> Any:
    """The value typer gives the command for ``text``, or None when the fast path leaves this
    value to typer: anything but plain digits for a count, an empty or dash-led value, a path
    that exists but cannot be read (typer refuses it). With ``as_path`` false, a path is
    checked but ``text`` itself is returned (no pathlib import)."""
    if not text or text.startswith("-"):
        return None
    if kind == "count":
        if not (text.isascii() and text.isdigit()) or int(text) >= _MAX_COUNT:
            return None
        return int(text)
    if kind == "path":
        try:
            os.stat(text)
        except (OSError, ValueError):
            pass
        else:
            if not os.access(text, os.R_OK):
                return None
        if not as_path:
            return text
        from pathlib import Path

        return Path(text)
    return text


def _read(
    argv: list[str], table: dict[str, Option], *, interspersed: bool
) -> tuple[dict[str, Any], list[str]] | None:
    """Reads ``argv`` by ``table`` into (parameter values, positional arguments), as click
    would; with ``interspersed`` false, options end at the first positional argument and the
    rest is positional whatever it looks like. None when the command line goes to typer: an
    unknown option, a repeated one, ``-`` or ``--``, a flag given a value, a missing or unusual
    value (see :func:`_value`)."""
    values: dict[str, Any] = {}
    positionals: list[str] = []
    i = 0
    while i < len(argv):
        token = argv[i]
        i += 1
        if token in ("-", "--"):
            return None
        if not token.startswith("-"):
            positionals.append(token)
            if not interspersed:
                positionals.extend(argv[i:])
                break
            continue
        name, eq, attached = token.partition("=") if token.startswith("--") else (token, "", "")
        option = table.get(name)
        if option is None or (option.param in values and not option.multiple):
            return None
        if option.kind == "flag":
            if eq:
                return None
            values[option.param] = True
            continue
        if eq:
            text = attached
        elif i < len(argv):
            text = argv[i]
            i += 1
        else:
            return None
        value = _value(option.kind, text)
        if value is None:
            return None
        if option.multiple:
            values.setdefault(option.param, []).append(value)
        else:
            values[option.param] = value
    return values, positionals


def parse_run(argv: list[str]) -> dict[str, Any] | None:
    """The keyword arguments of :func:`ternsim._commands.run_command` for ``ternsim run
    ARGV``, or None when the command line goes to typer."""
    read = _read(argv, RUN_OPTIONS, interspersed=True)
    if read is None or len(read[1]) != 1:
        return None
    values, (scenario,) = read
    if _value("path", scenario, as_path=False) is None:
        return None
    # A scenario that is a regular file is handed over as the text given: ternsim.api reads
    # such a file without pathlib, which the Path would import (5 ms or more), and names it
    # as pathlib does wherever a message names it. Anything else (a shipped scenario's name,
    # a missing file) goes as the Path typer would make.
    values["scenario"] = scenario if _is_file(scenario) else _value("path", scenario)
    return values


def parse_ns2(argv: list[str]) -> dict[str, Any] | None:
    """The keyword arguments of :func:`ternsim._commands.ns2_command` for ``ternsim ns2
    ARGV``, or None when the command line goes to typer."""
    read = _read(argv, NS2_OPTIONS, interspersed=False)
    if read is None or not read[1]:
        return None
    values, (script, *args) = read
    values["script"] = _value("path", script)
    values["args"] = args
    return values if values["script"] is not None else None


def fast_command(argv: list[str]) -> tuple[Callable[..., int], dict[str, Any]] | None:
    """The command body and its keyword arguments for ``ternsim ARGV``, or None when the
    command line goes to typer."""
    if not argv or argv[0] not in ("run", "ns2"):
        return None
    # A shell-completion request (_TERNSIM_COMPLETE=...) is typer's to answer.
    if any(k.startswith("_") and k.endswith("_COMPLETE") for k in os.environ):
        return None
    from . import _commands

    if argv[0] == "run":
        kwargs = parse_run(argv[1:])
        return None if kwargs is None else (_commands.run_command, kwargs)
    kwargs = parse_ns2(argv[1:])
    return None if kwargs is None else (_commands.ns2_command, kwargs)


def main(prog_name: str | None = None) -> Any:
    """Runs the ``ternsim`` command line (``sys.argv``); returns the exit status of a command
    on the fast path (typer's path exits itself). ``prog_name`` is the name typer shows in
    usage lines (default: from ``sys.argv[0]``)."""
    fast = fast_command(sys.argv[1:])
    if fast is None:
        from .cli import app

        return app() if prog_name is None else app(prog_name=prog_name)
    command, kwargs = fast
    try:
        return command(**kwargs)
    except KeyboardInterrupt:
        return 130  # as typer (0.29) does: status 130, nothing printed
    except OSError as exc:
        if exc.errno != errno.EPIPE:
            _adopt(exc)
            raise
        # A closed pipe (ternsim run ... | head): status 1, and no second complaint when
        # Python flushes the streams at exit (as click does).
        sys.stdout = _PacifyFlush(sys.stdout)
        sys.stderr = _PacifyFlush(sys.stderr)
        return 1
    except Exception as exc:
        _adopt(exc)
        raise


def _adopt(exc: BaseException) -> None:
    from .cli import adopt_exception

    adopt_exception(exc)


class _PacifyFlush:
    """A stream whose flush ignores a closed pipe (click.utils.PacifyFlushWrapper)."""

    def __init__(self, wrapped: Any) -> None:
        self.wrapped = wrapped

    def flush(self) -> None:
        try:
            self.wrapped.flush()
        except OSError as exc:
            if exc.errno != errno.EPIPE:
                raise

    def __getattr__(self, attr: str) -> Any:
        return getattr(self.wrapped, attr)
