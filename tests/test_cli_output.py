"""What ``ternsim run`` prints: tables that fit 80 columns with every abbreviation explained,
times without float noise, and a progress line only on a terminal."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest

import ternsim
from ternsim import cli
from ternsim._run_progress import RunProgress

EXAMPLES = Path(__file__).resolve().parents[1] / "scenarios" / "examples"


@pytest.mark.parametrize("example", ["dumbbell", "umts_dch", "wifi_chain"])
def test_run_tables_fit_80_columns_with_whole_headers(cli, example):
    env_columns = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "80"
    try:
        proc = cli("run", EXAMPLES / f"{example}.toml", "--set", "duration=5s")
    finally:
        if env_columns is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = env_columns
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80, proc.stdout
    assert "…" not in proc.stdout  # no header or cell cut short
    for header in ("throughput", "retx/sent", "RTO/spur.", "RTT ms min/mean/max"):
        assert header in proc.stdout
    assert "RTO/spur.: retransmission timeouts/of which spurious" in " ".join(lines)


def test_every_abbreviated_header_is_in_its_legend():
    """Each header with a slash, a dot or an acronym appears, before a colon, in the legend
    printed under its table."""
    legends = {
        cli.FLOW_LEGEND: ["retx/sent", "RTO/spur.", "fast rtx", "cwnd", "RTT ms"],
        cli.BEARER_LEGEND: ["blocks", "block errors", "RLC retx/PDUs", "STATUS", "polls", "SDUs"],
        cli.MAC_LEGEND: ["retx", "CTS/ACK timeouts", "ifq", "retry drops"],
    }
    for legend, headers in legends.items():
        for header in headers:
            assert f"{header}:" in legend, header


@pytest.mark.parametrize(
    ("seconds", "text"),
    [(60.00000000000001, "60 s"), (0.1 + 0.2, "0.3 s"), (12.25, "12.25 s"), (1e-9, "1e-09 s")],
)
def test_times_print_without_float_noise(seconds, text):
    assert cli._secs(seconds) == text


class FakeTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_progress_shows_only_after_two_seconds_on_a_terminal():
    stream, clock = FakeTerminal(), FakeClock()
    progress = RunProgress(None, stream=stream, clock=clock)
    clock.now = 101.9
    progress(5.0, 262_144)
    assert stream.getvalue() == ""
    clock.now = 102.0  # 2 s of wall time: 524,288 events in 2 s is 0.26 M events/s
    progress(12.5, 524_288)
    assert stream.getvalue() == "\rsimulated 12.5 s, 524,288 events, 0.3 M events/s"
    clock.now = 102.1  # within the redraw interval: not redrawn
    progress(13.0, 786_432)
    assert stream.getvalue().count("\r") == 1
    progress.close()
    assert stream.getvalue().endswith("\r" + " " * 48 + "\r")


def test_progress_states_the_share_of_the_run_when_the_duration_is_known():
    progress = RunProgress(100.0, stream=FakeTerminal())
    assert progress.line(25.0, 4_000_000, 2.0) == (
        "simulated 25.0 s of 100 s (25 %), 4,000,000 events, 2.0 M events/s"
    )


@pytest.mark.parametrize("stream", [io.StringIO(), FakeTerminal()])
def test_progress_is_off_off_a_terminal_and_with_quiet(stream):
    enabled = not isinstance(stream, FakeTerminal)  # a terminal, but --quiet
    clock = FakeClock()
    progress = RunProgress(None, enabled=enabled, stream=stream, clock=clock)
    clock.now = 110.0
    progress(50.0, 10_000_000)
    progress.close()
    assert stream.getvalue() == ""


def test_the_core_reports_progress_during_a_run(tiny_toml):
    calls = []
    ternsim.run(
        tiny_toml,
        overrides=["duration=120s", "links.0.rate=10Mbps", "links.0.loss=0"],
        progress=lambda t, n: calls.append((t, n)),
    )
    assert calls, "a lossless 120 s run at 10 Mbps executes more than 2**18 events"
    assert [n for _, n in calls] == [(i + 1) * 2**18 for i in range(len(calls))]
    assert all(0 < t <= 120 for t, _ in calls)


def test_a_run_off_a_terminal_writes_nothing_to_stderr(cli, tiny_toml):
    proc = cli("run", tiny_toml, "--set", "duration=60s", "--set", "links.0.rate=10Mbps")
    assert proc.returncode == 0 and proc.stderr == ""


def test_run_lists_connections_that_never_started(cli, tmp_path):
    """A connection file's connection starting after the run's end is named, not dropped."""
    conns = ""
    for i, start in [(0, 1.0), (1, 50.0)]:
        conns += (
            f"set udp_({i}) [new Agent/UDP]\n$ns_ attach-agent $node_(0) $udp_({i})\n"
            f"set null_({i}) [new Agent/Null]\n$ns_ attach-agent $node_(1) $null_({i})\n"
            f"set cbr_({i}) [new Application/Traffic/CBR]\n$cbr_({i}) set packetSize_ 64\n"
            f"$cbr_({i}) set interval_ 0.5\n$cbr_({i}) attach-agent $udp_({i})\n"
            f'$ns_ connect $udp_({i}) $null_({i})\n$ns_ at {start} "$cbr_({i}) start"\n'
        )
    (tmp_path / "cbr.tcl").write_text(conns)
    (tmp_path / "late.toml").write_text(
        'name = "late"\nduration = "5s"\n[topology]\nchain = { hops = 1, spacing = "50m" }\n'
        '[wireless]\n[traffic]\nfile = "cbr.tcl"\n'
    )
    proc = cli("run", tmp_path / "late.toml")
    assert proc.returncode == 0, proc.stderr
    text = " ".join(proc.stdout.split())
    assert "1 connection(s) never started (they start at or after the end of the run): " in text
    assert "cbr_1 (50 s)" in text
