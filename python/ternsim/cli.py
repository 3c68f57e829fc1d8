"""The ``ternsim`` command line: run, ns2, validate, sweep, plot, reproduce, bench, conformance,
setdest, cbrgen.

This module owns argument parsing (typer), terminal output (rich) and exit statuses. It holds
no logic of its own: every command calls the Python API (:mod:`ternsim.api`,
:mod:`ternsim.sweep`, :mod:`ternsim.plot`, :mod:`ternsim.bench`). The bodies of ``run`` and
``ns2`` and the summary tables live in :mod:`ternsim._commands` and :mod:`ternsim._output`,
shared with the fast path of the ``ternsim`` command (:mod:`ternsim._entry`), which runs the
common forms of those two commands without importing typer or rich.

Exit statuses: 0 success; 1 a sweep in which some runs failed (results still written), or an
unexpected error; 2 a refused scenario or override, a missing file or a bad option, reported as
exactly one line on stderr, with nothing run and nothing written.

Machine-readable output (``--json``) is exactly one JSON object on stdout; everything else a
command says goes to stderr, except the tables of ``run`` and ``bench``.
"""

import contextlib
import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any, Optional

import typer
import typer.core
from rich import box
from rich.table import Table

from . import _commands, _output
from ._commands import BEARER_LEGEND as BEARER_LEGEND
from ._commands import FLOW_LEGEND as FLOW_LEGEND
from ._commands import MAC_LEGEND as MAC_LEGEND
from ._commands import _bytes
from ._commands import _secs as _secs
from ._output import rich_table as _table
from .errors import ScenarioError


class _Command(typer.core.TyperCommand):
    """Help in the usual form: an argument shows as its metavar (SCENARIO), without typer's
    type placeholder (``<path>``) or braces, which say less than the help text beside it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for param in self.params:
            if isinstance(param, typer.core.TyperArgument):
                name = param.metavar or (param.name or "").upper()
                param.display_type_rich = lambda ctx: None  # type: ignore[method-assign]
                param._usage_display_name = lambda name=name: name  # type: ignore[method-assign]


app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_show_locals=False,
    # Plain help, as click prints it: no boxes, and no type placeholders such as <bool>.
    rich_markup_mode=None,
    help="ternsim: packet-level simulation of TCP over wireless paths.",
)

# Every table is laid out to fit 80 columns, rich's width off a terminal.
_out = _output.console()
_err = _output.console(stderr=True)

SET_HELP = (
    "Override a scenario key: KEY=VALUE, KEY a dotted path whose list entries are given by "
    "index or name (flows.0.tcp=vegas, flows.ftp.tcp=vegas); repeatable."
)


def _fail(message: str, code: int = 2) -> typer.Exit:
    return typer.Exit(_commands.fail(message, code).code)


@contextlib.contextmanager
def _reported() -> Iterator[None]:
    """Turns the errors a user can fix into one stderr line and exit status 2."""
    try:
        with _commands.reported():
            yield
    except _commands.Failed as exc:
        raise typer.Exit(exc.code) from None


def _exit(code: int) -> None:
    """Ends a typer command with the exit status of a shared command body."""
    if code:
        raise typer.Exit(code)


def adopt_exception(exc: BaseException) -> None:
    """Lets typer report an unexpected error of the fast path (:mod:`ternsim._entry`) as it
    reports one of its own commands: the same traceback display, exit status 1. Relies on
    typer's private hook; without it Python's own traceback is printed."""
    try:
        from typer.main import _typer_developer_exception_attr_name, except_hook
        from typer.models import DeveloperExceptionConfig
    except ImportError:  # pragma: no cover - another typer
        return
    sys.excepthook = except_hook
    config = DeveloperExceptionConfig(
        pretty_exceptions_enable=app.pretty_exceptions_enable,
        pretty_exceptions_show_locals=app.pretty_exceptions_show_locals,
        pretty_exceptions_short=app.pretty_exceptions_short,
    )
    setattr(exc, _typer_developer_exception_attr_name, config)


ScenarioArg = Annotated[
    Path,
    typer.Argument(
        help="Scenario file (TOML), or a shipped scenario such as examples/dumbbell.",
        metavar="SCENARIO",
    ),
]
SetOpt = Annotated[list[str], typer.Option("--set", help=SET_HELP, metavar="KEY=VALUE")]
# Options shared by the commands that run sweeps (`sweep`, `reproduce`).
JobsOpt = Annotated[
    Optional[int], typer.Option("--jobs", "-j", min=1, help="Worker processes.", metavar="N")
]
CacheDirOpt = Annotated[
    Optional[Path],
    typer.Option(
        "--cache-dir",
        help="Summary cache (default $TERNSIM_CACHE, else ternsim/ in the platform's cache "
        "folder: $XDG_CACHE_HOME or ~/.cache on Linux).",
        metavar="FOLDER",
    ),
]
NoCacheOpt = Annotated[
    bool,
    typer.Option(
        "--no-cache", help="Run everything; neither read nor store the cache (`ternsim cache`)."
    ),
]
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")]


@app.command(cls=_Command)
def run(
    scenario: ScenarioArg,
    seed: Annotated[int, typer.Option("--seed", min=0, help="Random seed.", metavar="N")] = 1,
    set_: SetOpt = [],  # noqa: B006 - typer copies option defaults
    out: Annotated[
        Optional[Path],
        typer.Option("--out", "-o", help="Write the result folder here.", metavar="FOLDER"),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the summary as one JSON object.")
    ] = False,
    csv: Annotated[
        bool, typer.Option("--csv", help="With --out, also write traces as CSV.")
    ] = False,
    pcap: Annotated[
        Optional[str],
        typer.Option(
            "--pcap",
            metavar="FLOW|NODE",
            help="Capture a flow (at its sender) or a node's interfaces as a pcap file.",
        ),
    ] = None,
    pcap_file: Annotated[
        Optional[Path],
        typer.Option(
            "--pcap-file", metavar="FILE", help="pcap file to write (default ./FLOW|NODE.pcap)."
        ),
    ] = None,
    ns2_trace: Annotated[
        Optional[Path],
        typer.Option("--ns2-trace", metavar="FILE", help="Write an ns-2 trace file."),
    ] = None,
    quiet: Annotated[
        bool,
        typer.Option(
            "--quiet", "-q", help="No progress line (shown on a terminal for runs over 2 s)."
        ),
    ] = False,
) -> None:
    """Run one scenario with one seed."""
    _exit(
        _commands.run_command(
            scenario,
            seed=seed,
            set_=set_,
            out=out,
            as_json=as_json,
            csv=csv,
            pcap=pcap,
            pcap_file=pcap_file,
            ns2_trace=ns2_trace,
            quiet=quiet,
        )
    )


@app.command(
    "ns2",
    cls=_Command,
    context_settings={"ignore_unknown_options": True, "allow_interspersed_args": False},
)
def ns2(
    script: Annotated[Path, typer.Argument(help="The ns-2 script (.tcl).", metavar="SCRIPT")],
    args: Annotated[
        Optional[list[str]],
        typer.Argument(help="Arguments for the script ($argv).", metavar="ARGS"),
    ] = None,
    out: Annotated[
        Optional[Path],
        typer.Option(
            "--out", "-o", help="Also write ternsim's result folder here.", metavar="FOLDER"
        ),
    ] = None,
    seed: Annotated[
        int, typer.Option("--seed", min=0, help="Random seed of the run.", metavar="N")
    ] = 1,
    to_toml: Annotated[
        bool,
        typer.Option(
            "--to-toml",
            help="Do not run: write the script's static part as a ternsim scenario, "
            "SCRIPT-NAME.toml in the working folder, and list the $ns at scripts it cannot hold.",
        ),
    ] = False,
) -> None:
    """Run an ns-2 (2.35) wired, 802.11 or wired-cum-wireless script unchanged, as `ns
    SCRIPT ARGS` would.

    The script's puts output, the trace files it opens and its exit status are ns-2's. Anything
    not supported yet stops the script before the run with one FILE:LINE line on stderr and
    exit status 2, writing no file.
    """
    if to_toml:
        _ns2_to_toml(script, list(args or ()))
        return
    raise typer.Exit(_commands.ns2_command(script, list(args or ()), out=out, seed=seed))


def _ns2_to_toml(script: Path, args: list[str]) -> None:
    """``ternsim ns2 --to-toml``: SCRIPT's scenario file, never over an existing file."""
    from ._atomic import replace_files
    from .ns2 import ScriptRefused, script_to_toml

    if not script.is_file():
        raise _fail(f"error: ns-2 script not found: {script}")
    target = Path.cwd() / f"{script.stem}.toml"
    if target.exists():
        raise _fail(f"error: {target} exists; remove it or run from another folder")
    try:
        text, left = script_to_toml(script, args)
    except ScriptRefused as exc:
        raise _fail(str(exc)) from None
    replace_files({target: lambda p: p.write_text(text, encoding="utf-8")})
    _err.print(f"wrote {target}", highlight=False)
    if left:
        _err.print(
            f"not expressed ({len(left)} $ns at script(s); listed in the file's header):",
            highlight=False,
        )
        for line in left:
            _err.print(f"  {line}", highlight=False, markup=False)


@app.command(cls=_Command)
def validate(
    scenario: ScenarioArg,
    set_: SetOpt = [],  # noqa: B006 - typer copies option defaults
) -> None:
    """Check a scenario (after overrides) without running it."""
    from . import api

    with _reported():
        spec = api.validate(scenario, overrides=set_)
    _err.print(f"ok: {spec.get('name', scenario)}")


@app.command(cls=_Command)
def scenarios() -> None:
    """List the scenarios shipped with ternsim; run any of them by name from any folder
    (ternsim run examples/dumbbell)."""
    from .paths import SCENARIOS, shipped_scenarios

    table = _table("shipped scenarios", ["name", "what it is"], ("name", "what it is"))
    table.columns[1].no_wrap = False
    for name in shipped_scenarios():
        table.add_row(name, _first_comment(SCENARIOS / f"{name}.toml"))
    _out.print(table)
    _out.print(f"(in {SCENARIOS})", style="dim")


def _first_comment(path: Path) -> str:
    """The first sentence of a scenario's leading comment, its one-line description."""
    lines = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("#"):
            break
        lines.append(line.lstrip("#").strip())
    text = " ".join(lines)
    # A sentence ends at ". " before a capital, not after "et al." or "e.g.".
    end = re.search(r"(?<!\bal)(?<!\be\.g)(?<!\bi\.e)\.\s+(?=[A-Z])", text)
    return text if end is None else text[: end.start() + 1]


@app.command(cls=_Command)
def sweep(
    scenario: ScenarioArg,
    out: Annotated[
        Path,
        typer.Option(
            "--out",
            "-o",
            help="Folder for runs.csv, runs.parquet, summary.csv.",
            metavar="FOLDER",
        ),
    ],
    grid: Annotated[
        list[str],
        typer.Option(
            "--grid",
            help="A grid axis: KEY=V1,V2,... (values read as TOML); repeatable.",
            metavar="KEY=V1,V2,...",
        ),
    ] = [],  # noqa: B006 - typer copies option defaults
    seeds: Annotated[
        int, typer.Option("--seeds", min=1, help="Seeds 1..N for every grid point.", metavar="N")
    ] = 1,
    jobs: JobsOpt = None,
    set_: SetOpt = [],  # noqa: B006 - typer copies option defaults
    scheduler: Annotated[
        Optional[str],
        typer.Option(
            "--scheduler",
            help="Dask scheduler address, e.g. tcp://10.0.0.5:8786 (needs ternsim[dask]).",
            metavar="ADDRESS",
        ),
    ] = None,
    cache_dir: CacheDirOpt = None,
    no_cache: NoCacheOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Run a grid of overrides times seeds; write per-run rows and 95 % CI aggregates."""
    from . import api
    from .sweep import parse_grid_values
    from .sweep import sweep as run_sweep

    with _reported():
        axes: dict[str, list[Any]] = {}
        for item in grid:
            key, sep, values = item.partition("=")
            if not sep or not key.strip():
                raise ScenarioError(f"scenario error: grid axis `{item}` is not KEY=V1,V2,...")
            axes[key.strip()] = parse_grid_values(values)
        overrides = [api.parse_assignment(s) for s in set_]
        result = run_sweep(
            scenario,
            axes,
            seeds=seeds,
            jobs=jobs,
            out=out,
            cache_dir=cache_dir,
            progress=not quiet,
            scheduler=scheduler,
            overrides=overrides,
            cache=not no_cache,
        )
    failures = result.failures
    n_runs = len(result.runs.drop_duplicates([*result.grid_keys, "seed"]))
    _err.print(
        f"{n_runs} runs ({result.cached} cached, {len(failures)} failed); "
        f"wrote {out}/runs.csv, runs.parquet, summary.csv, report.html; "
        f"{_cache_note(cache_dir, no_cache)}"
    )
    if len(failures):
        for row in failures.itertuples(index=False):
            point = ", ".join(f"{k}={v}" for k, v in zip(result.grid_keys, row[:-2]))
            sys.stderr.write(f"failed: {point} seed={row[-2]}: {row[-1]}\n")
        raise typer.Exit(1)


@app.command(cls=_Command)
def plot(
    path: Annotated[Path, typer.Argument(help="A run folder or a sweep folder.", metavar="FOLDER")],
    trace: Annotated[
        str, typer.Option("--trace", help="Run folder: the trace to plot.", metavar="NAME")
    ] = "cwnd",
    y: Annotated[
        Optional[str], typer.Option("--y", help="Run folder: the column to plot.", metavar="COLUMN")
    ] = None,
    flow: Annotated[
        Optional[str], typer.Option("--flow", help="Run folder: only this flow.", metavar="NAME")
    ] = None,
    metric: Annotated[
        str, typer.Option("--metric", help="Sweep folder: the metric to plot.", metavar="NAME")
    ] = "throughput_bps",
    x: Annotated[
        Optional[str],
        typer.Option("--x", help="Sweep folder: the grid key on the x axis.", metavar="KEY"),
    ] = None,
    output: Annotated[
        Optional[Path], typer.Option("--output", "-o", help="Image file to write.", metavar="FILE")
    ] = None,
) -> None:
    """Plot a trace of a run, or a metric of a sweep with 95 % CI error bars."""
    from . import plot as plot_mod

    with _reported():
        try:
            if plot_mod.folder_kind(path) == "run":
                image = plot_mod.plot_trace(path, trace=trace, y=y, flow=flow, out=output)
            else:
                image = plot_mod.plot_sweep(path, metric=metric, x=x, out=output)
        except (KeyError, ValueError) as exc:
            raise _fail(f"error: {exc.args[0] if exc.args else exc}") from None
    _err.print(f"wrote {image}")


@app.command(cls=_Command)
def bench(
    as_json: Annotated[
        bool, typer.Option("--json", help="Print results as one JSON object.")
    ] = False,
    quick: Annotated[bool, typer.Option("--quick", help="One short run per scenario.")] = False,
    against: Annotated[
        Optional[str],
        typer.Option(
            "--against",
            help="ns2: time the conformance cases in ns-2 and in ternsim side by side.",
            metavar="SIM",
        ),
    ] = None,
    scaling: Annotated[
        bool,
        typer.Option(
            "--scaling",
            help="Time scenarios/bench/manet_scale.tcl (a MANET at 50 nodes per 500 m x 500 m) "
            "in ns-2 and ternsim at several node counts; time and memory against nodes.",
        ),
    ] = False,
    nodes: Annotated[
        str, typer.Option("--nodes", help="--scaling: node counts.", metavar="N,N,...")
    ] = "200,500,1000",
    duration: Annotated[
        float, typer.Option("--duration", help="--scaling: simulated seconds.", metavar="S")
    ] = 100.0,
    repeat: Annotated[
        int, typer.Option("--repeat", min=1, help="--scaling: runs of each case.", metavar="N")
    ] = 2,
    ns2_timeout: Annotated[
        float,
        typer.Option(
            "--ns2-timeout", help="--scaling: stop an ns-2 run after S seconds.", metavar="S"
        ),
    ] = 900.0,
    ternsim_only: Annotated[
        bool, typer.Option("--ternsim-only", help="--scaling: do not run ns-2.")
    ] = False,
) -> None:
    """Time the core on the scenarios in scenarios/bench/ (or against ns-2, or --scaling)."""
    from . import bench as bench_mod

    if scaling:
        _bench_scaling(nodes, duration, repeat, ns2_timeout, not ternsim_only, as_json)
        return
    if against is not None:
        if against != "ns2":
            raise _fail(f"error: --against {against}: allowed: ns2")
        try:
            versus = bench_mod.run_against_ns2(repeat=1 if quick else 3)
            batch = bench_mod.sweep_against_ns2(runs=4 if quick else 40)
        except FileNotFoundError as exc:
            raise _fail(f"error: {exc}") from None
        if as_json:
            sys.stdout.write(json.dumps({"against_ns2": versus, "sweep": batch}) + "\n")
            return
        table = Table(title="ternsim against ns-2", title_justify="left", box=box.SIMPLE)
        for column in ("case", "ns-2 s", "core s", "run s", "core x", "run x", "Mev/s", "MB"):
            table.add_column(column, justify="left" if column == "case" else "right")
        for name, r in versus.items():
            table.add_row(
                name,
                f"{r['ns2_seconds']:.3f}",
                f"{r['ternsim_core_seconds']:.3f}",
                f"{r['ternsim_process_seconds']:.3f}",
                f"{r['core_speedup']:.1f}",
                f"{r['process_speedup']:.1f}",
                f"{r['events_per_second'] / 1e6:.1f}",
                f"{r['ns2_peak_kb'] / 1024:.0f}/{r['ternsim_peak_kb'] / 1024:.0f}",
            )
        _out.print(table)
        _err.print(
            "core x, run x: ns-2's process time over ternsim's core and whole `ternsim run` "
            "process (fastest of the runs); MB: peak memory of ns-2 / of `ternsim run`"
        )
        _out.print(
            f"{batch['case']}: ns-2 {batch['runs']} processes one after another "
            f"{batch['ns2_seconds']:.1f} s, one `ternsim sweep` on {batch['cores']} cores "
            f"{batch['ternsim_seconds']:.1f} s: x {batch['speedup']:.1f}"
            + ("" if batch["ok"] else " (a run failed)")
        )
        return
    paths = bench_mod.bench_scenarios()
    if not paths:
        raise _fail("error: no benchmark scenarios found (scenarios/bench/*.toml)")
    with _reported():
        results = bench_mod.run_bench(paths, quick=quick)
    if as_json:
        payload = {
            "benchmarks": results,
            "events_per_second": {k: v["events_per_second"] for k, v in results.items()},
        }
        sys.stdout.write(json.dumps(payload) + "\n")
        return
    table = Table(title="benchmarks" + (" (quick)" if quick else ""), title_justify="left")
    for column in ("scenario", "events", "wall s", "events/s", "sim s / wall s"):
        table.add_column(column, justify="left" if column == "scenario" else "right")
    for name, r in results.items():
        table.add_row(
            name,
            f"{r['events']:,}",
            f"{r['wall_seconds']:.3f}",
            f"{r['events_per_second']:,.0f}",
            f"{r['sim_seconds_per_wall_second']:,.1f}",
        )
    _out.print(table)


def _bench_scaling(
    nodes: str, duration: float, repeat: int, ns2_timeout: float, ns2: bool, as_json: bool
) -> None:
    """``ternsim bench --scaling``: the table of :func:`ternsim.bench.run_scaling`."""
    from . import bench as bench_mod

    try:
        counts = [int(x) for x in nodes.split(",") if x.strip()]
    except ValueError:
        counts = []
    if not counts or min(counts) < 2:
        raise _fail(f"error: --nodes {nodes}: give node counts of at least 2, e.g. 200,500,1000")
    if duration <= 0:
        raise _fail(f"error: --duration {duration:g}: must be > 0")
    with _reported():
        result = bench_mod.run_scaling(
            counts,
            duration=duration,
            repeat=repeat,
            ns2_timeout=ns2_timeout,
            ns2=ns2,
            progress=lambda text: _err.print(text, highlight=False),
        )
    if result["ns2_note"]:
        _err.print(f"note: {result['ns2_note']}", highlight=False)
    if as_json:
        sys.stdout.write(json.dumps(result) + "\n")
        return

    def num(value: Any, fmt: str, scale: float | None = None) -> str:
        if value is None:
            return "-"
        return format(value / scale if scale else value, fmt)

    title = f"manet_scale.tcl, {duration:g} s, fastest of {result['repeat']} (MB: the highest)"
    table = Table(title=title, title_justify="left", box=box.SIMPLE, padding=(0, 1))
    columns = ("nodes", "events", "ns-2 s", "ns2 s", "run s", "x", "Mev/s")
    for column in (*columns, "MB ns-2", "ns2", "run"):
        table.add_column(column, justify="right")
    for r in result["rows"]:
        ns2_s = num(r["ns2_seconds"], ".2f")
        if r["ns2_timed_out"]:
            ns2_s = f">{ns2_timeout:g}"
        table.add_row(
            str(r["nodes"]),
            num(r["events"], ",d"),
            ns2_s,
            num(r["ternsim_ns2_seconds"], ".2f"),
            num(r["ternsim_run_seconds"], ".2f"),
            num(r["ns2_over_ternsim_ns2"], ".1f"),
            num(r["events_per_second"], ".2f", 1e6),
            *(num(r[f"{k}_peak_kb"], ".0f", 1024) for k in ("ns2", "ternsim_ns2", "ternsim_run")),
        )
    _out.print(table)
    exps = result["exponents"]
    _out.print(
        "time ~ N^b: "
        + ", ".join(
            f"{label} b = {num(exps[key], '.2f')}"
            for label, key in (
                ("ns-2", "ns2_seconds"),
                ("ternsim ns2", "ternsim_ns2_seconds"),
                ("ternsim run", "ternsim_run_seconds"),
                ("events", "events"),
            )
        ),
        highlight=False,
    )
    _err.print(
        "ns-2 s: `ns manet_scale.tcl`; ns2 s: `ternsim ns2 manet_scale.tcl` (the same script and "
        "files); run s: `ternsim run` of its --to-toml translation; x: ns-2 s / ns2 s; "
        "Mev/s: events per second of the core; MB: peak memory (max RSS) of each process. "
        "The nodes move in a square of side 500 sqrt(nodes / 50) m; one CBR connection per 5.",
        highlight=False,
    )


@app.command(cls=_Command)
def conformance(
    full: Annotated[
        bool, typer.Option("--full", help="Every case, not only the fast subset.")
    ] = False,
    seeds: Annotated[
        Optional[int],
        typer.Option(
            "--seeds",
            help=(
                "Seeds per stochastic case (default: the case's own, 10 for most, 30 where"
                " rare events decide)."
            ),
            metavar="N",
        ),
    ] = None,
    only: Annotated[
        Optional[str],
        typer.Option("--only", help="Only the cases whose name contains TEXT.", metavar="TEXT"),
    ] = None,
    out: Annotated[
        Optional[Path],
        typer.Option("--out", help="Also write DIR/conformance.html and .json.", metavar="DIR"),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the rows as one JSON object.")
    ] = False,
    validation: Annotated[
        bool,
        typer.Option(
            "--validation",
            help="Run ns-2.35's own TCP validation suites (tcl/test/test-suite-*.tcl) instead.",
        ),
    ] = False,
) -> None:
    """Run cases in ns-2 (`ns`) and in ternsim and compare them (scenarios/conformance/)."""
    from . import conformance as conf

    if validation:
        _validation(only, as_json)
        return
    try:
        rows = conf.run_cases(
            full=full, seeds=seeds, only=only, progress=lambda n: _err.print(f"case {n} ...")
        )
    except conf.NsMissing as exc:
        raise _fail(f"error: {exc}") from None
    version = conf.ns_version()
    payload = {"ns2": version, "rows": rows}
    if out is not None:
        out.mkdir(parents=True, exist_ok=True)
        (out / "conformance.json").write_text(json.dumps(payload, indent=1) + "\n")
        conf.write_html(rows, out / "conformance.html", version)
        _err.print(f"wrote {out / 'conformance.html'}")
    if as_json:
        sys.stdout.write(json.dumps(payload) + "\n")
    else:
        table = Table(title=f"conformance with {version}", title_justify="left", box=box.SIMPLE)
        for column in ("case", "metric", "ns-2", "ternsim", "verdict"):
            table.add_column(column, no_wrap=column in ("case", "verdict"))
        for r in rows:
            table.add_row(r["case"], r["metric"], r["ns2"], r["ternsim"], r["verdict"])
        _out.print(table)
    if any(r["verdict"] == "differs" for r in rows):
        raise typer.Exit(1)


def _validation(only: str | None, as_json: bool) -> None:
    """`conformance --validation`: each test of ns-2's TCP validation suites in both."""
    from . import conformance as conf
    from . import validation as val

    try:
        rows = val.run_validation(only=only, progress=lambda n: _err.print(f"test {n} ..."))
    except (conf.NsMissing, FileNotFoundError) as exc:
        raise _fail(f"error: {exc}") from None
    if as_json:
        sys.stdout.write(json.dumps({"ns2": conf.ns_version(), "rows": rows}) + "\n")
    else:
        table = Table(title="ns-2.35 validation suites", title_justify="left", box=box.SIMPLE)
        for column in ("suite", "test", "verdict", "reason"):
            table.add_column(column, no_wrap=column != "reason")
        for r in rows:
            table.add_row(r["suite"], r["test"], r["verdict"], r["reason"])
        _out.print(table)
    counts = {v: sum(r["verdict"] == v for r in rows) for v in ("pass", "differs", "out of scope")}
    _err.print(", ".join(f"{n} {v}" for v, n in counts.items()))


@app.command("fit-hmm", cls=_Command)
def fit_hmm(
    trace: Annotated[
        Path, typer.Argument(help="Error trace: 0/1 per unit, one per line.", metavar="FILE")
    ],
    states: Annotated[
        int, typer.Option("--states", help="Number of hidden states.", metavar="N")
    ] = 2,
    seed: Annotated[
        int, typer.Option("--seed", help="Seed of the random restarts.", metavar="N")
    ] = 1,
    starts: Annotated[int, typer.Option("--starts", help="Baum-Welch restarts.", metavar="N")] = 4,
) -> None:
    """Fit an N-state hidden Markov error model to a trace (Baum-Welch) and print the
    scenario snippet that uses it."""
    from . import _native

    if not trace.is_file():
        raise _fail(f"error: trace file not found: {trace}")
    if states < 1:
        raise _fail("error: --states must be >= 1")
    try:
        fit = _native.core().fit_hmm(trace.read_text(encoding="utf-8"), states, seed, starts=starts)
    except ValueError as exc:
        raise _fail(f"error: {trace}: {exc}") from None
    rows = ", ".join("[" + ", ".join(repr(p) for p in row) + "]" for row in fit["transition"])
    errs = ", ".join(repr(p) for p in fit["error_prob"])
    _err.print(
        f"{fit['n_obs']:,} units, mean error rate {fit['mean_error_rate']:.6g}, "
        f"log-likelihood {fit['log_likelihood']:.6g}, AIC {fit['aic']:.6g}, "
        f"BIC {fit['bic']:.6g}, {fit['iterations']} iterations"
        + ("" if fit["converged"] else " (not converged)")
    )
    sys.stdout.write(f'error = {{ model = "hmm", transition = [{rows}], error_prob = [{errs}] }}\n')


@app.command(cls=_Command)
def reproduce(
    experiment: Annotated[
        str,
        typer.Argument(
            help="Experiment id: lo-umts, costamagna-utra, ding-vegasw, arunakumari-manet, "
            "ho-mobileip.",
            metavar="ID",
        ),
    ],
    quick: Annotated[
        bool, typer.Option("--quick", help="2 seeds and short runs (for tests).")
    ] = False,
    out: Annotated[
        Optional[Path],
        typer.Option(
            "--out", "-o", help="Report folder (default ./reproduce/ID).", metavar="FOLDER"
        ),
    ] = None,
    seeds: Annotated[
        Optional[int],
        typer.Option("--seeds", min=1, help="Seeds per point (overrides mode).", metavar="N"),
    ] = None,
    jobs: JobsOpt = None,
    cache_dir: CacheDirOpt = None,
    no_cache: NoCacheOpt = False,
    quiet: QuietOpt = False,
    regenerate_ns2: Annotated[
        bool,
        typer.Option(
            "--regenerate-ns2",
            help="First run ns-2 itself (`ns` on the PATH) and rewrite the stored results of "
            "the report's ns-2.35 column (ding-vegasw, arunakumari-manet).",
        ),
    ] = False,
    ns2_seeds: Annotated[
        int,
        typer.Option("--ns2-seeds", min=1, help="Seeds per ns-2 configuration.", metavar="N"),
    ] = 10,
) -> None:
    """Reproduce a seed paper: sweeps, traced runs, figures and a report folder. The report
    sets the paper beside ternsim and, where ns-2.35 can run a claim, beside stored ns-2
    results (--regenerate-ns2 makes them again)."""
    from . import experiments
    from .experiments import ns2
    from .experiments.report import rich_claims_table

    if experiment not in experiments.EXPERIMENTS:
        raise _fail(
            f"error: unknown experiment `{experiment}`; known: {', '.join(experiments.names())}"
        )
    if regenerate_ns2:
        module = experiments.get(experiment)
        if not ns2.supports(module):
            raise _fail(
                f"error: {experiment} has no ns-2 column: {experiments.ns2_absence(module)}"
            )
        try:
            ns2.ns_binary()
        except ns2.NsMissing as exc:
            raise _fail(f"error: --regenerate-ns2: {exc}") from None
    with _reported():
        report = experiments.reproduce(
            experiment,
            out,
            quick=quick,
            seeds=seeds,
            jobs=jobs,
            progress=not quiet,
            cache_dir=cache_dir,
            cache=not no_cache,
            regenerate_ns2=regenerate_ns2,
            ns2_seeds=ns2_seeds,
        )
    _out.print(rich_claims_table(report.claims, f"{report.title}: paper against ternsim"))
    # Name only the files that are there (not every experiment writes sweep files).
    names = ("report.html", "report.md", "claims.csv", "runs.csv", "runs.parquet", "summary.csv")
    written = [n for n in names if (Path(report.folder) / n).is_file()]
    cache_note = (
        _cache_note(cache_dir, no_cache)
        if report.runs
        else "no sweep runs, so no cache used (traced runs are never cached)"
    )
    _err.print(
        f"wrote {report.folder} ({', '.join(written)}, {len(report.figures)} figures) in "
        f"{report.wall_seconds:.1f} s; {report.runs + report.traced} runs: {report.runs} in "
        f"sweeps ({report.cached} cached), {report.traced} traced; {cache_note}"
    )


@app.command(cls=_Command)
def setdest(
    version: Annotated[int, typer.Option("-v", metavar="N", help="setdest version: 1 or 2.")] = 1,
    nodes: Annotated[int, typer.Option("-n", metavar="N", help="Number of nodes.")] = 50,
    pause: Annotated[float, typer.Option("-p", metavar="SECONDS", help="Pause time, s.")] = 0.0,
    max_speed: Annotated[
        float, typer.Option("-M", metavar="M/S", help="Maximum speed, m/s.")
    ] = 20.0,
    min_speed: Annotated[
        float, typer.Option("-m", metavar="M/S", help="Minimum speed, m/s (> 0 for -v 2).")
    ] = 0.0,
    time: Annotated[
        float, typer.Option("-t", metavar="SECONDS", help="Simulation time, s.")
    ] = 200.0,
    width: Annotated[float, typer.Option("-x", metavar="METRES", help="Area width, m.")] = 500.0,
    height: Annotated[float, typer.Option("-y", metavar="METRES", help="Area height, m.")] = 500.0,
    pause_type: Annotated[
        int,
        typer.Option(
            "-P", metavar="1|2", help="Pause type (-v 2): 1 constant, 2 uniform U(0, 2p)."
        ),
    ] = 1,
    speed_type: Annotated[
        int,
        typer.Option(
            "-s",
            metavar="1|2",
            help="Speed type (-v 2): 1 uniform, 2 normal clipped to [min, max].",
        ),
    ] = 1,
    seed: Annotated[
        int, typer.Option("--seed", metavar="N", help="Seed of the nodes' streams.")
    ] = 1,
    steady_state: Annotated[
        bool, typer.Option("--steady-state", help="Start in the stationary regime.")
    ] = False,
) -> None:
    """Write an ns-2 movement file of random waypoint nodes to stdout (like ns-2's setdest)."""
    from . import generators

    try:
        text = generators.setdest(
            version=version,
            nodes=nodes,
            pause=pause,
            max_speed=max_speed,
            min_speed=min_speed,
            time=time,
            width=width,
            height=height,
            pause_type=pause_type,
            speed_type=speed_type,
            seed=seed,
            steady_state=steady_state,
        )
    except ValueError as exc:
        raise _fail(f"error: {exc}") from None
    sys.stdout.write(text)


@app.command(cls=_Command)
def cbrgen(
    kind: Annotated[str, typer.Option("-type", metavar="cbr|tcp", help="cbr or tcp.")],
    nodes: Annotated[int, typer.Option("-nn", metavar="N", help="Number of nodes.")],
    seed: Annotated[
        int, typer.Option("-seed", metavar="N", help="Seed (>= 1), as ns-2's RNG takes it.")
    ],
    max_connections: Annotated[int, typer.Option("-mc", metavar="N", help="Maximum connections.")],
    rate: Annotated[
        float, typer.Option("-rate", metavar="PER_SECOND", help="CBR packets per second.")
    ] = 0.0,
    packet_size: Annotated[
        int, typer.Option("-pktsize", metavar="BYTES", help="Packet size, bytes.")
    ] = 512,
) -> None:
    """Write an ns-2 connection file to stdout (like ns-2's cbrgen.tcl, same pairs and times
    for the same seed)."""
    from . import generators

    try:
        text = generators.cbrgen(
            kind=kind,
            nodes=nodes,
            seed=seed,
            max_connections=max_connections,
            rate=rate,
            packet_size=packet_size,
        )
    except ValueError as exc:
        raise _fail(f"error: {exc}") from None
    sys.stdout.write(text)


def _cache_dir(cache_dir: Path | None) -> Path:
    from .sweep import default_cache_dir

    return cache_dir if cache_dir is not None else default_cache_dir()


def _cache_note(cache_dir: Path | None, no_cache: bool) -> str:
    if no_cache:
        return "cache off (--no-cache)"
    return f"cache {_cache_dir(cache_dir)} (see `ternsim cache`)"


@app.command("cache", cls=_Command)
def cache_cmd(
    clear: Annotated[
        bool, typer.Option("--clear", help="Delete every cached run summary.")
    ] = False,
    cache_dir: CacheDirOpt = None,
) -> None:
    """Show where the sweep cache is and what it holds, or clear it.

    Sweeps and reproductions store each run's summary there, keyed by the scenario after
    overrides, the seed, the core version and the contents of the files the scenario reads,
    so a repeated sweep only runs what changed. Traced single runs (`ternsim run`) are never
    cached. Use --no-cache on sweep/reproduce to bypass it."""
    from .sweep import SummaryCache

    store = SummaryCache(_cache_dir(cache_dir))
    if clear:
        removed = store.clear()
        _err.print(f"removed {removed:,} cached run summaries from {store.root}")
        return
    entries = store.entries()
    size = _bytes(sum(p.stat().st_size for p in entries)) if entries else "0 B"
    where = store.root if store.root.is_dir() else f"{store.root} (not created yet)"
    _out.print(f"cache: {where}\n{len(entries):,} run summaries, {size}")


@app.command(cls=_Command)
def version() -> None:
    """Print the package and core versions."""
    from . import __version__, _native

    try:
        core = _native.core_version()
    except ImportError:
        core = "not built"
    _out.print(f"ternsim {__version__} (core {core})")


def main() -> None:  # pragma: no cover - console entry
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
