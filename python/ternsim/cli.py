"""The ``ternsim`` command line: run, ns2, validate, sweep, plot, reproduce, bench, conformance,
setdest, cbrgen.

This module owns argument parsing (typer), terminal output (rich) and exit statuses. It holds
no logic of its own: every command calls the Python API (:mod:`ternsim.api`,
:mod:`ternsim.sweep`, :mod:`ternsim.plot`, :mod:`ternsim.bench`).

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
from rich.console import Console
from rich.table import Table

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
_out = Console(highlight=False)
_err = Console(stderr=True, highlight=False)

SET_HELP = (
    "Override a scenario key: KEY=VALUE, KEY a dotted path whose list entries are given by "
    "index or name (flows.0.tcp=vegas, flows.ftp.tcp=vegas); repeatable."
)


def _fail(message: str, code: int = 2) -> typer.Exit:
    sys.stderr.write(" ".join(str(message).split()) + "\n")
    sys.stderr.flush()
    return typer.Exit(code)


@contextlib.contextmanager
def _reported() -> Iterator[None]:
    """Turns the errors a user can fix into one stderr line and exit status 2."""
    try:
        yield
    except ScenarioError as exc:
        raise _fail(exc.message) from None
    except FileNotFoundError as exc:
        raise _fail(f"error: {exc.args[-1] if exc.args else exc}") from None
    except (FileExistsError, NotADirectoryError, IsADirectoryError) as exc:
        raise _fail(f"error: {exc}") from None


def _bps(value: Any) -> str:
    if value is None:
        return "-"
    value = float(value)
    for unit, scale in (("Gbps", 1e9), ("Mbps", 1e6), ("kbps", 1e3)):
        if abs(value) >= scale:
            return f"{value / scale:.3f} {unit}"
    return f"{value:.1f} bps"


def _bytes(value: Any) -> str:
    if value is None:
        return "-"
    value = float(value)
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if abs(value) >= scale:
            return f"{value / scale:.2f} {unit}"
    return f"{value:.0f} B"


def _ms(value: Any) -> str:
    return "-" if value is None else f"{float(value) * 1e3:.1f}"


def _num(value: Any, digits: int = 2) -> str:
    if value is None:
        return "-"
    if isinstance(value, int):
        return f"{value:,}"
    if float(value).is_integer() and digits == 0:
        return f"{int(value):,}"
    return f"{float(value):.{digits}f}"


def _secs(value: Any) -> str:
    """Seconds as people write them: ``60 s``, ``0.5 s``, ``12.25 s`` (no float noise such
    as 60.00000000000001, which rounding to the nanosecond removes)."""
    return f"{round(float(value), 9):g} s"


#: What each abbreviated column of the run tables means; printed under the tables.
FLOW_LEGEND = (
    "throughput: TCP data bits received per second (duplicates included); goodput: "
    "application bytes delivered in order, once each; retx/sent: retransmitted/sent "
    "segments; RTO/spur.: retransmission timeouts/of which spurious; fast rtx: fast "
    "retransmits; cwnd: time-weighted mean congestion window (packets); RTT ms: round-trip "
    "time min/mean/max in milliseconds."
)


BEARER_LEGEND = (
    "blocks: transport blocks sent; block errors: blocks lost on the radio channel; RLC "
    "retx/PDUs: retransmitted/sent RLC data PDUs; STATUS: RLC STATUS PDUs sent; polls: polls "
    "sent; SDUs: SDUs delivered; SDU delay: mean/max in milliseconds."
)

MAC_LEGEND = (
    "retx: DATA frames retransmitted; CTS/ACK timeouts: RTS left without CTS / DATA left "
    "without ACK; ifq: interface queue (drops when full, and its largest length); retry "
    "drops: frames dropped at the retry limit."
)


def _legend(text: str) -> None:
    """Explains the abbreviated headers of the tables just printed (wrapped to the width)."""
    _out.print(text, style="dim")
    _out.print()


def _table(title: str, columns: list[str], left: tuple[str, ...]) -> Table:
    table = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False)
    for column in columns:
        table.add_column(column, justify="left" if column in left else "right", no_wrap=True)
    return table


def _print_summary(summary: dict[str, Any]) -> None:
    wall = summary.get("wall_seconds") or 0.0
    events = summary.get("events", 0)
    rate = f", {events / wall:,.0f} events/s" if wall > 0 else ""
    _out.print(
        f"[bold]{summary.get('scenario')}[/] seed {summary.get('seed')}: "
        f"{_secs(summary.get('sim_seconds', 0))} simulated, {events:,} events "
        f"in {wall:.3f} s{rate}"
    )
    # Two tables of at most six columns each, so that both fit in 80 columns.
    flows = summary.get("flows", [])
    delivery = _table(
        "flows: delivery", ["flow", "tcp", "throughput", "goodput", "delivered"], ("flow", "tcp")
    )
    losses = _table(
        "flows: losses, window and RTT",
        ["flow", "retx/sent", "RTO/spur.", "fast rtx", "cwnd", "RTT ms min/mean/max"],
        ("flow",),
    )
    for f in flows:
        rtt = "/".join(_ms(f.get(k)) for k in ("rtt_min_s", "rtt_mean_s", "rtt_max_s"))
        delivery.add_row(
            str(f.get("name")),
            str(f.get("tcp") or f.get("transport", "")),
            _bps(f.get("throughput_bps")),
            _bps(f.get("goodput_bps")),
            _bytes(f.get("delivered_bytes")),
        )
        losses.add_row(
            str(f.get("name")),
            f"{_num(f.get('retransmitted_segments'))}/{_num(f.get('segments_sent'))}",
            f"{_num(f.get('timeouts'))}/{_num(f.get('spurious_timeouts'))}",
            _num(f.get("fast_retransmits")),
            _num(f.get("mean_cwnd"), 1),
            rtt,
        )
    _out.print(delivery)
    _out.print(losses)
    _legend(FLOW_LEGEND)
    late = summary.get("never_started", [])
    if late:
        names = ", ".join(f"{c['name']} ({_secs(c['start_s'])})" for c in late[:5])
        more = f" and {len(late) - 5} more" if len(late) > 5 else ""
        _out.print(
            f"{len(late)} connection(s) never started (they start at or after the end of "
            f"the run): {names}{more}"
        )
    bearers = summary.get("bearers", [])
    if bearers:
        blocks = _table(
            "radio bearers: transport blocks and RLC",
            ["bearer", "direction", "blocks", "block errors", "RLC retx/PDUs"],
            ("bearer", "direction"),
        )
        sdus = _table(
            "radio bearers: RLC control and SDUs",
            ["bearer", "direction", "STATUS", "polls", "SDUs", "SDU delay ms mean/max"],
            ("bearer", "direction"),
        )
        for b in bearers:
            delay = "/".join(_ms(b.get(k)) for k in ("sdu_delay_mean_s", "sdu_delay_max_s"))
            name, direction = str(b.get("name")), str(b.get("direction"))
            blocks.add_row(
                name,
                direction,
                _num(b.get("transport_blocks")),
                _num(b.get("block_errors")),
                f"{_num(b.get('retransmitted_pdus'))}/{_num(b.get('data_pdus'))}",
            )
            sdus.add_row(
                name,
                direction,
                _num(b.get("status_pdus")),
                _num(b.get("polls")),
                _num(b.get("sdus_delivered")),
                delay,
            )
        _out.print(blocks)
        _out.print(sdus)
        _legend(BEARER_LEGEND)
    _print_wireless(summary)
    packets = summary.get("packets", {})
    drops = packets.get("drops_by_reason", {})
    table = _table("drops by reason", ["reason", "packets"], ("reason",))
    for reason, count in drops.items():
        table.add_row(str(reason), _num(count))
    if not drops:
        table.add_row("(none)", "0")
    _out.print(table)
    if packets:
        _out.print(
            f"packets: {_num(packets.get('created'))} created, "
            f"{_num(packets.get('delivered'))} delivered, {_num(packets.get('dropped'))} dropped, "
            f"{_num(packets.get('in_flight'))} in flight"
        )


def _print_wireless(summary: dict[str, Any]) -> None:
    """802.11 MAC counters per node and the routing overhead, for runs on a wireless channel."""
    nodes = [n for n in summary.get("nodes", []) if n.get("mac")]
    if not nodes:
        return
    frames = _table(
        "802.11 MAC per node: frames",
        ["node", "DATA sent", "retx", "RTS", "CTS/ACK timeouts"],
        ("node",),
    )
    losses = _table(
        "802.11 MAC per node: collisions and queue",
        ["node", "collisions", "ifq drops", "retry drops", "ifq max"],
        ("node",),
    )
    for n in nodes:
        m = n["mac"]
        frames.add_row(
            str(n.get("name")),
            _num(m.get("data_sent")),
            _num(m.get("data_retransmitted")),
            _num(m.get("rts_sent")),
            f"{_num(m.get('cts_timeouts'))}/{_num(m.get('ack_timeouts'))}",
        )
        losses.add_row(
            str(n.get("name")),
            _num(m.get("collisions")),
            _num(m.get("drops_ifq")),
            _num(m.get("drops_retry_limit")),
            _num(m.get("ifq_max")),
        )
    _out.print(frames)
    _out.print(losses)
    _legend(MAC_LEGEND)
    routing = summary.get("routing")
    if routing:
        by_type = ", ".join(
            f"{k} {_num(v)}" for k, v in routing.get("transmissions_by_type", {}).items()
        )
        nro = routing.get("normalized_routing_overhead")
        _out.print(
            f"routing: {_num(routing.get('transmissions'))} control transmissions"
            f"{' (' + by_type + ')' if by_type else ''}; normalized routing overhead "
            f"{'n/a' if nro is None else f'{nro:.4f}'}"
        )


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
    from . import api
    from ._run_progress import RunProgress

    if csv and out is None:
        raise _fail("error: --csv needs --out")
    if pcap_file is not None and pcap is None:
        raise _fail("error: --pcap-file needs --pcap FLOW|NODE")
    with _reported():
        progress = RunProgress(None, enabled=not quiet)
        try:
            result = api.run(
                scenario,
                seed=seed,
                overrides=set_,
                pcap=pcap,
                ns2_trace=ns2_trace is not None,
                progress=progress,
            )
        finally:
            progress.close()
        if out is not None:
            formats = ("parquet", "csv") if csv else ("parquet",)
            folder = result.write(out, formats=formats)
            _err.print(f"wrote {folder}")
        if pcap is not None:
            name = pcap.split(":", 1)[-1]
            target = pcap_file or Path(f"{name}.pcap")
            _err.print(f"wrote {result.write_pcap(target)}")
        if ns2_trace is not None:
            _err.print(f"wrote {result.write_ns2_trace(ns2_trace)}")
    if as_json:
        sys.stdout.write(json.dumps(result.summary) + "\n")
    else:
        _print_summary(result.summary)


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
    """Run an ns-2 (2.35) wired script unchanged, as `ns SCRIPT ARGS` would.

    The script's puts output, the trace files it opens and its exit status are ns-2's. Anything
    not supported yet stops the script before the run with one FILE:LINE line on stderr and
    exit status 2, writing no file.
    """
    from .ns2 import run_script

    if to_toml:
        _ns2_to_toml(script, list(args or ()))
        return
    with _reported():
        code = run_script(script, list(args or ()), out=out, seed=seed)
    if out is not None and code == 0:
        _err.print(f"wrote {out}")
    raise typer.Exit(code)


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
) -> None:
    """Time the core on the scenarios in scenarios/bench/ (or against ns-2)."""
    from . import bench as bench_mod

    if against is not None:
        if against != "ns2":
            raise _fail(f"error: --against {against}: allowed: ns2")
        try:
            versus = bench_mod.run_against_ns2(repeat=1 if quick else 3)
        except FileNotFoundError as exc:
            raise _fail(f"error: {exc}") from None
        if as_json:
            sys.stdout.write(json.dumps({"against_ns2": versus}) + "\n")
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


@app.command(cls=_Command)
def conformance(
    full: Annotated[
        bool, typer.Option("--full", help="Every case, not only the fast subset.")
    ] = False,
    seeds: Annotated[
        Optional[int],
        typer.Option("--seeds", help="Seeds per stochastic case (default 10).", metavar="N"),
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
) -> None:
    """Run cases in ns-2 (`ns`) and in ternsim and compare them (scenarios/conformance/)."""
    from . import conformance as conf

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
) -> None:
    """Reproduce a seed paper: sweeps, traced runs, figures and a report folder."""
    from . import experiments
    from .experiments.report import rich_claims_table

    if experiment not in experiments.EXPERIMENTS:
        raise _fail(
            f"error: unknown experiment `{experiment}`; known: {', '.join(experiments.names())}"
        )
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
