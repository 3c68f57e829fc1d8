"""The fast path of ``ternsim run`` and ``ternsim ns2`` (ternsim._entry): it imports none of
typer, click, rich, numpy or pandas, and says exactly what the typer commands say.

Three things keep the two paths from drifting: the fast path's option tables are checked
against the typer commands' options; both paths run side by side on the same command lines
and must print the same bytes and exit with the same status; and the plain-text layout of
ternsim._output is checked against rich's on real summaries and on generated text and tables.
No test looks at wall time.
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
import typing
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ternsim import _entry, _output, cli

REPO = Path(__file__).resolve().parents[1]
CONFORMANCE = REPO / "scenarios" / "conformance"
NS2_SCRIPTS = Path(__file__).parent / "ns2_scripts"

#: What the fast path must not load (typer vendors its own click in newer versions).
SLOW = ("typer", "click", "rich", "pandas", "numpy", "pyarrow", "importlib.metadata")

#: Runs the typer app directly, as the console script did before the fast path.
TYPER = "import sys; from ternsim.cli import app; app(prog_name='ternsim')"

#: Runs the entry point and writes the slow modules it loaded to the file in $LOADED_TO.
PROBE = (
    "import json, os, sys\n"
    "from ternsim._entry import main\n"
    "try:\n"
    "    code = main(prog_name='ternsim')\n"
    "finally:\n"
    "    slow = sorted({m.split('.')[0] if m != 'importlib.metadata' else m\n"
    "                   for m in sys.modules\n"
    f"                   if m.split('.')[0] in {SLOW!r} or m == 'importlib.metadata'}})\n"
    "    with open(os.environ['LOADED_TO'], 'w') as f:\n"
    "        json.dump(slow, f)\n"
    "sys.exit(code)\n"
)


def _env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env.setdefault("COLUMNS", "120")
    env.update(extra)
    return env


def _python(code: str, args: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", code, *map(str, args)],
        cwd=cwd,
        env=_env(**env),
        capture_output=True,
        text=True,
        timeout=300,
    )


def _fast(args: list[str], cwd: Path) -> tuple[subprocess.CompletedProcess, list[str]]:
    """Runs ``ternsim ARGS`` through the entry point; returns the process and the slow
    modules it loaded."""
    loaded = cwd / "loaded.json"
    proc = _python(PROBE, args, cwd, LOADED_TO=str(loaded))
    modules = json.loads(loaded.read_text())
    loaded.unlink()
    return proc, modules


def _masked(text: str) -> str:
    """Output without the run's wall time (the summary's only varying number)."""
    text = re.sub(r"in \d+\.\d{3} s(, [\d,]+ events/s)?", "in T s", text)
    return re.sub(r'"wall_seconds": [0-9.e-]+', '"wall_seconds": T', text)


def _files(folder: Path) -> dict[str, bytes]:
    out = {}
    for path in sorted(folder.rglob("*")):
        if path.is_file() and path.name != "loaded.json":
            data = path.read_bytes()
            data = re.sub(rb'"wall_seconds": [0-9.e-]+', b'"wall_seconds": T', data)
            out[path.relative_to(folder).as_posix()] = data.replace(str(folder).encode(), b"FOLDER")
    return out


# ---- the option tables against the typer commands --------------------------------------------


def _typer_options(name: str) -> dict[str, tuple[str, str, bool]]:
    """``{spelling: (parameter, kind, multiple)}`` of a typer command's options, the kind read
    from the command function's annotations as the fast path's kinds are defined."""
    import typer.main

    command = typer.main.get_command(cli.app).commands[name]  # type: ignore[attr-defined]
    # The function's own annotations (typer wraps the callback it gives click).
    hints = typing.get_type_hints(getattr(cli, name), include_extras=True)
    options = {}
    for param in command.params:
        if param.param_type_name != "option":
            continue
        base = hints[param.name]
        info = base.__metadata__[0]
        base = typing.get_args(base)[0]
        if typing.get_origin(base) is typing.Union:  # Optional[X]
            base = next(a for a in typing.get_args(base) if a is not type(None))
        multiple = typing.get_origin(base) is list
        if multiple:
            base = typing.get_args(base)[0]
        if base is bool:
            kind = "flag"
        elif base is int:
            assert info.min == 0 and info.max is None, param.name
            kind = "count"
        elif base is str:
            kind = "text"
        elif base is Path:
            kind = "path"
        else:  # pragma: no cover - a new option type: teach the fast path or leave it out
            kind = repr(base)
        for spelling in [*param.opts, *param.secondary_opts]:
            options[spelling] = (param.name, kind, multiple)
    return options


@pytest.mark.parametrize(
    ("command", "table"), [("run", _entry.RUN_OPTIONS), ("ns2", _entry.NS2_OPTIONS)]
)
def test_the_fast_path_reads_every_option_of_the_typer_command_the_same_way(command, table):
    """Each option of the typer command is in the fast path's table with the same parameter,
    kind and repeatability, or, like --help, not in it, so that it goes to typer (so does
    `ns2 --to-toml`, a one-off translation that runs nothing)."""
    typer_options = _typer_options(command)
    fast = {k: (o.param, o.kind, o.multiple) for k, o in table.items()}
    assert fast == {k: v for k, v in typer_options.items() if k in fast}
    assert set(typer_options) - set(fast) <= {"--help", "--to-toml"}


def test_ns2_options_end_at_the_script_in_both_paths():
    import typer.main

    command = typer.main.get_command(cli.app).commands["ns2"]  # type: ignore[attr-defined]
    assert command.context_settings["allow_interspersed_args"] is False
    assert _entry.parse_ns2(["--seed", "2", "s.tcl", "--seed", "3", "--", "-o"]) == {
        "seed": 2,
        "script": Path("s.tcl"),
        "args": ["--seed", "3", "--", "-o"],
    }


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["x.toml", "y.toml"],
        ["x.toml", "--help"],
        ["x.toml", "--seed", "-1"],
        ["x.toml", "--seed", "1_0"],
        ["x.toml", "--seed", "٣"],
        ["x.toml", "--seed", str(2**64)],
        ["x.toml", "--seed", "1", "--seed", "2"],
        ["x.toml", "--json=yes"],
        ["x.toml", "-qo", "out"],
        ["x.toml", "--set"],
        ["x.toml", "--set", "--json"],
        ["x.toml", "--out="],
        ["x.toml", "--"],
        ["-"],
        [""],
        ["x.toml", "--quiet", "-q"],
    ],
)
def test_unusual_run_command_lines_go_to_typer(argv):
    assert _entry.parse_run(argv) is None


def test_usual_run_command_lines_are_read():
    argv = ["--seed=4", "x.toml", "-q", "--set", "a=1", "--set=b=c=d", "--json", "-o", "r"]
    assert _entry.parse_run(argv) == {
        "seed": 4,
        "scenario": Path("x.toml"),
        "quiet": True,
        "set_": ["a=1", "b=c=d"],
        "as_json": True,
        "out": Path("r"),
    }


def test_other_commands_and_completion_requests_go_to_typer(monkeypatch):
    assert _entry.fast_command(["validate", "x.toml"]) is None
    assert _entry.fast_command(["--help"]) is None
    assert _entry.fast_command([]) is None
    assert _entry.fast_command(["run", "x.toml"]) is not None
    monkeypatch.setenv("_TERNSIM_COMPLETE", "bash_complete")
    assert _entry.fast_command(["run", "x.toml"]) is None


# ---- both paths side by side ------------------------------------------------------------------


def test_a_run_loads_neither_typer_nor_rich_nor_pandas_and_prints_as_typer(tmp_path, tiny_toml):
    fast, loaded = _fast(["run", tiny_toml], tmp_path)
    assert loaded == []
    slow = _python(TYPER, ["run", tiny_toml], tmp_path)
    assert fast.returncode == slow.returncode == 0, fast.stderr
    assert _masked(fast.stdout) == _masked(slow.stdout)
    assert fast.stderr == slow.stderr == ""
    assert "flows: delivery" in fast.stdout


def test_an_ns2_script_loads_neither_typer_nor_rich(tmp_path):
    script = tmp_path / "chain.tcl"
    script.write_text((NS2_SCRIPTS / "chain.tcl").read_text())
    fast, loaded = _fast(["ns2", script, "Agent/TCP/Reno"], tmp_path)
    assert loaded == []
    trace = (tmp_path / "chain.tr").read_bytes()
    slow = _python(TYPER, ["ns2", script, "Agent/TCP/Reno"], tmp_path)
    assert (fast.returncode, fast.stdout, fast.stderr) == (0, slow.stdout, slow.stderr)
    assert slow.returncode == 0 and (tmp_path / "chain.tr").read_bytes() == trace


@pytest.mark.parametrize(
    "args",
    [
        ["run", "{tiny}"],
        ["run", "{tiny}", "--json"],
        ["run", "--seed", "7", "{tiny}", "-q"],
        ["run", "{tiny}", "--seed=3", "--set", "flows.0.tcp=vegas", "--set=duration=2s"],
        ["run", "{tiny}", "--set", "flows.0.tcp=warp"],
        ["run", "{tiny}", "--set", "no-equals-sign"],
        ["run", "{tiny}", "--bogus"],
        ["run", "{tiny}", "--help"],
        ["run", "{tiny}", "--seed", "x"],
        ["run", "missing.toml"],
        ["run", "."],
        ["run", "{tiny}", "--csv"],
        ["run", "{tiny}", "--pcap-file", "x.pcap"],
        ["run", "{tiny}", "--pcap", "nosuch"],
        ["run", "{tiny}", "--pcap", "f0", "--ns2-trace", "t.tr"],
        ["run", "{tiny}", "--out", "result", "--csv"],
        ["run", "examples/wifi_chain", "--set", "duration=2s"],
        ["ns2", "missing.tcl"],
        ["ns2", CONFORMANCE / "wired.tcl", "TCP/Newreno", "TCPSink", "20", "-"],
        ["ns2", "--seed", "2", "-o", "result", NS2_SCRIPTS / "chain.tcl", "Agent/TCP/Reno"],
    ],
    ids=lambda args: " ".join(map(str, args)).replace(str(REPO), ""),
)
def test_the_fast_path_and_typer_say_the_same(tmp_path, tiny_toml, args):
    """Same stdout, stderr, exit status and files, whichever path a command line takes."""
    results = []
    for code in (PROBE, TYPER):
        folder = tmp_path / ("fast" if code is PROBE else "typer")
        folder.mkdir()
        tiny = folder / "tiny.toml"
        tiny.write_text(tiny_toml.read_text())
        argv = [str(a).replace("{tiny}", str(tiny)) for a in args]
        proc = _python(code, argv, folder, LOADED_TO=str(folder / "loaded.json"))
        out = _masked(proc.stdout).replace(str(folder), "FOLDER")
        err = _masked(proc.stderr).replace(str(folder), "FOLDER")
        results.append((proc.returncode, out, err, _files(folder)))
    assert results[0] == results[1]


def test_a_closed_pipe_ends_both_paths_alike(tmp_path, tiny_toml):
    """``ternsim run ... | head -c 0``: exit status 1 and nothing on stderr, as click does."""
    outcomes = []
    for code in (PROBE, TYPER):
        proc = subprocess.Popen(
            [sys.executable, "-c", code, "run", str(tiny_toml)],
            cwd=tmp_path,
            env=_env(LOADED_TO=str(tmp_path / "loaded.json")),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        proc.stdout.close()  # before the run ends, so the summary meets a closed pipe
        err = proc.stderr.read()
        proc.stderr.close()
        outcomes.append((proc.wait(timeout=300), err))
    assert outcomes[0] == outcomes[1] == (1, b"")


def test_python_m_ternsim_and_the_console_script_use_the_entry_point():
    text = (REPO / "pyproject.toml").read_text()
    assert 'ternsim = "ternsim._entry:main"' in text
    main = (REPO / "python" / "ternsim" / "__main__.py").read_text()
    assert "from ._entry import main" in main


# ---- the plain layout against rich's ----------------------------------------------------------


def _rich_text(blocks: list, width: int) -> str:
    from rich.console import Console

    buffer = io.StringIO()
    _output._emit_rich(blocks, Console(file=buffer, width=width, highlight=False))
    return buffer.getvalue()


@pytest.mark.parametrize(
    "example", ["dumbbell", "wifi_chain", "umts_dch", "two_flows", "lossy_path"]
)
@pytest.mark.parametrize("width", [80, 100, 200])
def test_a_summary_prints_as_rich_prints_it(example, width):
    import ternsim
    from ternsim._commands import summary_blocks

    result = ternsim.run(f"examples/{example}", overrides={"duration": "2s"})
    blocks = summary_blocks(result.summary)
    plain = _output._plain(blocks, width)
    assert plain is not None  # shipped examples fit 80 columns without rich
    assert plain == _rich_text(blocks, width)


def test_a_summary_that_does_not_fit_goes_to_rich(tiny_scenario):
    import ternsim
    from ternsim._commands import summary_blocks

    blocks = summary_blocks(ternsim.run(tiny_scenario).summary)
    assert _output._plain(blocks, 30) is None
    odd = dict(ternsim.run(tiny_scenario).summary, scenario="[bold]x[/]")
    assert _output._plain(summary_blocks(odd), 80) is None


def test_only_plain_streams_print_without_rich(monkeypatch):
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.delenv("TTY_COMPATIBLE", raising=False)
    monkeypatch.setenv("COLUMNS", "97")
    assert _output._plain_width(io.StringIO()) == 97
    assert _output._plain_width(Terminal()) is None
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert _output._plain_width(io.StringIO()) is None


_CHARS = st.sampled_from([*"ab:Z09 -/.,()[]\\*é\t", " ", " "])
_WORDS = st.text(alphabet=st.sampled_from(list("abcXYZ019:-/.")), min_size=0, max_size=30)
_TEXT = st.one_of(
    st.text(alphabet=_CHARS, max_size=120),
    st.lists(_WORDS, max_size=25).map(" ".join),
)
_CELL = st.one_of(st.text(alphabet=_CHARS, max_size=14), _WORDS)


@st.composite
def _blocks(draw):
    blocks = []
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["line", "table", "blank"]))
        if kind == "line":
            spans = draw(
                st.lists(st.tuples(_TEXT, st.sampled_from([None, "bold"])), min_size=1, max_size=2)
            )
            blocks.append(_output.Line(tuple(spans), draw(st.sampled_from([None, "dim"]))))
        elif kind == "table":
            n = draw(st.integers(1, 6))
            columns = draw(st.lists(_WORDS.filter(bool), min_size=n, max_size=n, unique=True))
            left = tuple(c for c in columns if draw(st.booleans()))
            rows = draw(st.lists(st.lists(_CELL, min_size=n, max_size=n), max_size=4))
            blocks.append(_output.Table(draw(_WORDS), columns, left, rows))
        else:
            blocks.append(_output.BLANK)
    return blocks


@settings(max_examples=400, deadline=None)
@given(blocks=_blocks(), width=st.integers(1, 130))
def test_the_plain_layout_is_rich_s_or_none(blocks, width):
    plain = _output._plain(blocks, width)
    if plain is not None:
        assert plain == _rich_text(blocks, width)
