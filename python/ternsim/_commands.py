"""The bodies of ``ternsim run`` and ``ternsim ns2``, shared by the typer commands
(:mod:`ternsim.cli`) and the fast path (:mod:`ternsim._entry`), and the summary tables that
``run`` prints.

This module imports neither typer nor rich (see :mod:`ternsim._output`), nor numpy or pandas:
only a run written with ``--out`` needs those, and :mod:`ternsim.api` loads them then. Each
command returns its exit status; the errors a user can fix become one stderr line and status 2
(:func:`reported`), as described in :mod:`ternsim.cli`.
"""

from __future__ import annotations

import sys

from ._output import BLANK, Line, Table, emit
from .errors import ScenarioError

# typing.TYPE_CHECKING without importing typing; json and pathlib load where used. (Each of
# the three takes milliseconds to import, and a run printed on the terminal needs none here.)
TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from ._output import Block

__all__ = [
    "BEARER_LEGEND",
    "FLOW_LEGEND",
    "MAC_LEGEND",
    "Failed",
    "fail",
    "ns2_command",
    "reported",
    "run_command",
    "summary_blocks",
]


class Failed(Exception):
    """A command stops with ``code`` after saying why on stderr (:func:`fail`)."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


def fail(message: str, code: int = 2) -> Failed:
    """Writes ``message`` as one stderr line; returns the exception that ends the command."""
    sys.stderr.write(" ".join(str(message).split()) + "\n")
    sys.stderr.flush()
    return Failed(code)


class reported:  # lower case: used as ``with reported():``, as the function it replaces
    """Turns the errors a user can fix into one stderr line and exit status 2 (a context
    manager: a class rather than a contextlib.contextmanager function, so that the
    ``ternsim`` command does not import contextlib)."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: object, exc: BaseException | None, traceback: object) -> bool:
        if isinstance(exc, ScenarioError):
            raise fail(exc.message) from None
        if isinstance(exc, FileNotFoundError):
            raise fail(f"error: {exc.args[-1] if exc.args else exc}") from None
        if isinstance(exc, (FileExistsError, NotADirectoryError, IsADirectoryError)):
            raise fail(f"error: {exc}") from None
        return False


def wrote(path: Any) -> None:
    """``wrote PATH`` on stderr."""
    emit([Line(((f"wrote {path}", None),))], stderr=True)


# ---- the commands --------------------------------------------------------------------------


def run_command(
    scenario: Path,
    *,
    seed: int = 1,
    set_: list[str] | tuple[str, ...] = (),
    out: Path | None = None,
    as_json: bool = False,
    csv: bool = False,
    pcap: str | None = None,
    pcap_file: Path | None = None,
    ns2_trace: Path | None = None,
    quiet: bool = False,
) -> int:
    """``ternsim run``: one scenario with one seed; returns the exit status."""
    try:
        return _run(
            scenario, seed, list(set_), out, as_json, csv, pcap, pcap_file, ns2_trace, quiet
        )
    except Failed as exc:
        return exc.code


def _run(
    scenario: Path,
    seed: int,
    set_: list[str],
    out: Path | None,
    as_json: bool,
    csv: bool,
    pcap: str | None,
    pcap_file: Path | None,
    ns2_trace: Path | None,
    quiet: bool,
) -> int:
    from . import api
    from ._run_progress import RunProgress

    if csv and out is None:
        raise fail("error: --csv needs --out")
    if pcap_file is not None and pcap is None:
        raise fail("error: --pcap-file needs --pcap FLOW|NODE")
    with reported():
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
            wrote(result.write(out, formats=formats))
        if pcap is not None:
            from pathlib import Path

            name = pcap.split(":", 1)[-1]
            target = pcap_file or Path(f"{name}.pcap")
            wrote(result.write_pcap(target))
        if ns2_trace is not None:
            wrote(result.write_ns2_trace(ns2_trace))
    if as_json:
        import json

        sys.stdout.write(json.dumps(result.summary) + "\n")
    else:
        emit(summary_blocks(result.summary))
    return 0


def ns2_command(
    script: Path, args: list[str] | tuple[str, ...] = (), *, out: Path | None = None, seed: int = 1
) -> int:
    """``ternsim ns2``: an ns-2 script run as ``ns SCRIPT ARGS`` would; returns the script's
    exit status (2 for a refused script)."""
    from .ns2 import run_script

    try:
        with reported():
            code = run_script(script, list(args), out=out, seed=seed)
    except Failed as exc:
        return exc.code
    if out is not None and code == 0:
        wrote(out)
    return code


# ---- the summary of a run --------------------------------------------------------------------


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


def _text(text: str, style: str | None = None) -> Line:
    return Line(((text, None),), style)


def _legend(blocks: list[Block], text: str) -> None:
    """Explains the abbreviated headers of the tables just printed (wrapped to the width)."""
    blocks.append(_text(text, "dim"))
    blocks.append(BLANK)


def summary_blocks(summary: dict[str, Any]) -> list[Block]:
    """What ``ternsim run`` prints of a run's summary: a headline, tables of flows (of radio
    bearers and 802.11 MACs when there are any) and of drops, each table with its legend."""
    blocks: list[Block] = []
    wall = summary.get("wall_seconds") or 0.0
    events = summary.get("events", 0)
    rate = f", {events / wall:,.0f} events/s" if wall > 0 else ""
    headline = (
        f" seed {summary.get('seed')}: "
        f"{_secs(summary.get('sim_seconds', 0))} simulated, {events:,} events "
        f"in {wall:.3f} s{rate}"
    )
    blocks.append(Line(((f"{summary.get('scenario')}", "bold"), (headline, None))))
    # Two tables of at most six columns each, so that both fit in 80 columns.
    flows = summary.get("flows", [])
    delivery = Table(
        "flows: delivery",
        ["flow", "tcp", "throughput", "goodput", "delivered"],
        ("flow", "tcp"),
    )
    losses = Table(
        "flows: losses, window and RTT",
        ["flow", "retx/sent", "RTO/spur.", "fast rtx", "cwnd", "RTT ms min/mean/max"],
        ("flow",),
    )
    for f in flows:
        rtt = "/".join(_ms(f.get(k)) for k in ("rtt_min_s", "rtt_mean_s", "rtt_max_s"))
        delivery.rows.append(
            [
                str(f.get("name")),
                str(f.get("tcp") or f.get("transport", "")),
                _bps(f.get("throughput_bps")),
                _bps(f.get("goodput_bps")),
                _bytes(f.get("delivered_bytes")),
            ]
        )
        losses.rows.append(
            [
                str(f.get("name")),
                f"{_num(f.get('retransmitted_segments'))}/{_num(f.get('segments_sent'))}",
                f"{_num(f.get('timeouts'))}/{_num(f.get('spurious_timeouts'))}",
                _num(f.get("fast_retransmits")),
                _num(f.get("mean_cwnd"), 1),
                rtt,
            ]
        )
    blocks += [delivery, losses]
    _legend(blocks, FLOW_LEGEND)
    late = summary.get("never_started", [])
    if late:
        names = ", ".join(f"{c['name']} ({_secs(c['start_s'])})" for c in late[:5])
        more = f" and {len(late) - 5} more" if len(late) > 5 else ""
        blocks.append(
            _text(
                f"{len(late)} connection(s) never started (they start at or after the end of "
                f"the run): {names}{more}"
            )
        )
    bearers = summary.get("bearers", [])
    if bearers:
        blocks_table = Table(
            "radio bearers: transport blocks and RLC",
            ["bearer", "direction", "blocks", "block errors", "RLC retx/PDUs"],
            ("bearer", "direction"),
        )
        sdus = Table(
            "radio bearers: RLC control and SDUs",
            ["bearer", "direction", "STATUS", "polls", "SDUs", "SDU delay ms mean/max"],
            ("bearer", "direction"),
        )
        for b in bearers:
            delay = "/".join(_ms(b.get(k)) for k in ("sdu_delay_mean_s", "sdu_delay_max_s"))
            name, direction = str(b.get("name")), str(b.get("direction"))
            blocks_table.rows.append(
                [
                    name,
                    direction,
                    _num(b.get("transport_blocks")),
                    _num(b.get("block_errors")),
                    f"{_num(b.get('retransmitted_pdus'))}/{_num(b.get('data_pdus'))}",
                ]
            )
            sdus.rows.append(
                [
                    name,
                    direction,
                    _num(b.get("status_pdus")),
                    _num(b.get("polls")),
                    _num(b.get("sdus_delivered")),
                    delay,
                ]
            )
        blocks += [blocks_table, sdus]
        _legend(blocks, BEARER_LEGEND)
    _wireless_blocks(blocks, summary)
    packets = summary.get("packets", {})
    drops = packets.get("drops_by_reason", {})
    table = Table("drops by reason", ["reason", "packets"], ("reason",))
    for reason, count in drops.items():
        table.rows.append([str(reason), _num(count)])
    if not drops:
        table.rows.append(["(none)", "0"])
    blocks.append(table)
    if packets:
        blocks.append(
            _text(
                f"packets: {_num(packets.get('created'))} created, "
                f"{_num(packets.get('delivered'))} delivered, "
                f"{_num(packets.get('dropped'))} dropped, "
                f"{_num(packets.get('in_flight'))} in flight"
            )
        )
    return blocks


def _wireless_blocks(blocks: list[Block], summary: dict[str, Any]) -> None:
    """802.11 MAC counters per node and the routing overhead, for runs on a wireless channel."""
    nodes = [n for n in summary.get("nodes", []) if n.get("mac")]
    if not nodes:
        return
    frames = Table(
        "802.11 MAC per node: frames",
        ["node", "DATA sent", "retx", "RTS", "CTS/ACK timeouts"],
        ("node",),
    )
    losses = Table(
        "802.11 MAC per node: collisions and queue",
        ["node", "collisions", "ifq drops", "retry drops", "ifq max"],
        ("node",),
    )
    for n in nodes:
        m = n["mac"]
        frames.rows.append(
            [
                str(n.get("name")),
                _num(m.get("data_sent")),
                _num(m.get("data_retransmitted")),
                _num(m.get("rts_sent")),
                f"{_num(m.get('cts_timeouts'))}/{_num(m.get('ack_timeouts'))}",
            ]
        )
        losses.rows.append(
            [
                str(n.get("name")),
                _num(m.get("collisions")),
                _num(m.get("drops_ifq")),
                _num(m.get("drops_retry_limit")),
                _num(m.get("ifq_max")),
            ]
        )
    blocks += [frames, losses]
    _legend(blocks, MAC_LEGEND)
    routing = summary.get("routing")
    if routing:
        by_type = ", ".join(
            f"{k} {_num(v)}" for k, v in routing.get("transmissions_by_type", {}).items()
        )
        nro = routing.get("normalized_routing_overhead")
        blocks.append(
            _text(
                f"routing: {_num(routing.get('transmissions'))} control transmissions"
                f"{' (' + by_type + ')' if by_type else ''}; normalized routing overhead "
                f"{'n/a' if nro is None else f'{nro:.4f}'}"
            )
        )
