"""ns-2.35's own validation suites (``tcl/test/test-suite-*.tcl``) run by ``ns`` and by
``ternsim ns2``, test by test: ``ternsim conformance --validation``.

Each test runs as ns-2's ``validate`` script runs it, ``ns test-suite-X.tcl TEST QUIET``, in a
copy of the test folder (Debian's ``ns2-examples`` package installs it under
``/usr/share/doc/ns2/examples/tcl/test``; ``TERNSIM_NS2_TESTS`` names another). A test writes
its packet trace into ``all.tr`` and then fails in its ``finish`` proc on ``exec $PERL
../../bin/getrc``, which the package lacks: the trace is what is compared (the "simple"
suites write ``out.tr`` instead, through ``trace-queue`` on one node's links:
:data:`TRACE_FILES`). Verdicts:

- ``pass``: the two ``all.tr`` are identical, or equal up to lines ordered differently within
  one timestamp (ternsim.conformance.compare_traces);
- ``differs``: both ran, the traces differ (where first, and why where it is known:
  :data:`KNOWN_DIFFERENCES`);
- ``out of scope``: ``ternsim ns2`` refused the script before running it (its one-line
  reason), or ns-2 itself wrote no trace.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

#: The suites of the TCP validation, in ns-2's test folder.
SUITES = (
    "newreno",
    "testReno",
    "tcp",
    "sack",
    "rfc2581",
    "LimTransmit",
    "tcpVariants",
    "red",
    "ecn",
    "ecn-ack",
    # ECN over FullTcp (Tahoe, Reno, NewReno, Sack; RED marks, markecn_ error models).
    "ecn-full",
    # ns-2's two-way TCP (Agent/TCP/FullTcp, /Tahoe, /Newreno, /Sack).
    "full",
    "testReno-full",
    "sack-full",
    "full-fixes",
    "simple",
    "simple-full",
    # Marc Greis's tutorial: nam traces, and example4's Exponential sources sampled by a
    # LossMonitor callback.
    "greis",
    # More of ns-2's TCP suites: initial windows, RFC 2001's algorithms, agent options,
    # routed topologies, odd behaviours, AIMD parameters, link changes, quiescence, F-RTO,
    # rate-halving, agent resets, RFC 793's TCP, a packet example, scheduling queues.
    "tcp-init-win",
    "rfc2001",
    "tcpOptions",
    "routed",
    "oddBehaviors",
    "aimd",
    "links",
    "quiescent",
    "frto",
    "rh",
    "tcpReset",
    "rfc793edu",
    "pktExample",
    "schedule",
)

#: The trace a suite's tests write, where it is not ``all.tr``: the "simple" suites trace the
#: links of one node with ``$ns trace-queue`` into ``out.tr`` (headed by a ``v testName``
#: line, with the links' ``trace-dynamics``); the "greis" tests write a nam trace, or
#: example4 its three sampled rates, into ``temp.rands``.
TRACE_FILES = {"simple": "out.tr", "simple-full": "out.tr", "greis": "temp.rands"}

DEFAULT_FOLDER = Path("/usr/share/doc/ns2/examples/tcl/test")

_TIE = (
    "a drop decided by an exact tie: a packet arrives at a full queue at the instant the "
    "queue's link finishes sending; ns-2's double-precision clock puts the arrival a "
    "rounding error first (the packet is dropped), ternsim's integer-nanosecond clock makes "
    "the two instants equal and frees the place first"
)
_RED = (
    "the bottleneck is a RED queue, whose early drops are random: ternsim's RED draws from "
    "its own random stream, not ns-2's default RNG (RED is compared statistically by "
    "`ternsim conformance`)"
)

#: Why a test's trace differs from ns-2's, where that is known: (suite, test) -> reason.
KNOWN_DIFFERENCES: dict[tuple[str, str], str] = {
    ("newreno", "slow4"): _TIE + " (packet 97 at 14.32724 s)",
    ("sack", "sackB2"): _RED,
    ("sack", "sackB4"): _RED,
    ("sack", "sackB4a"): _RED,
}

_TEST = re.compile(r"^Class Test/(\S+)\s+-superclass", re.M)


def test_folder() -> Path:
    return Path(os.environ.get("TERNSIM_NS2_TESTS", DEFAULT_FOLDER))


def tests_of(suite: str, folder: Path | None = None) -> list[str]:
    """The tests a suite defines (its ``Class Test/NAME`` lines), in file order."""
    text = ((folder or test_folder()) / f"test-suite-{suite}.tcl").read_text(errors="replace")
    return _TEST.findall(text)


def _run(
    command: list[str], cwd: Path, timeout: float, trace_name: str = "all.tr"
) -> tuple[int, str, str | None]:
    """(exit status, stderr, the trace or None) of one run in ``cwd``."""
    trace = cwd / trace_name
    if trace.exists():
        trace.unlink()
    try:
        done = subprocess.run(
            command, cwd=cwd, capture_output=True, text=True, timeout=timeout, check=False
        )
        code, err = done.returncode, done.stderr
    except subprocess.TimeoutExpired:
        code, err = -1, f"timed out after {timeout:g} s"
    return code, err, trace.read_text(errors="replace") if trace.exists() else None


def _refusal(stderr: str) -> str:
    lines = [x for x in stderr.splitlines() if x.strip()]
    return lines[0][:300] if lines else "no message"


def run_test(suite: str, test: str, work: Path, timeout: float = 300.0) -> dict[str, Any]:
    """One test in both simulators, in ``work`` (a copy of the test folder)."""
    from .conformance import _ns, compare_traces

    script = f"test-suite-{suite}.tcl"
    name = TRACE_FILES.get(suite, "all.tr")
    row: dict[str, Any] = {"suite": suite, "test": test}
    _, ns_err, ns_tr = _run([_ns(), script, test, "QUIET"], work, timeout, name)
    ts_code, ts_err, ts_tr = _run(
        [sys.executable, "-m", "ternsim", "ns2", script, test, "QUIET"], work, timeout, name
    )
    if ns_tr is None:
        row.update(verdict="out of scope", reason=f"ns-2 wrote no {name}: {_refusal(ns_err)}")
    elif ts_code == 2 or ts_tr is None:
        row.update(verdict="out of scope", reason=_refusal(ts_err))
    else:
        cmp = compare_traces(ns_tr, ts_tr)
        lines = f"{len(ns_tr.splitlines())} / {len(ts_tr.splitlines())} lines"
        if cmp["verdict"] in ("identical", "equal up to ties"):
            row.update(verdict="pass", reason=f"{cmp['verdict']}, {lines}")
        else:
            reason = f"{lines}; first difference at line {cmp['first_difference']}"
            if (suite, test) in KNOWN_DIFFERENCES:
                reason += f": {KNOWN_DIFFERENCES[(suite, test)]}"
            row.update(verdict="differs", reason=reason)
    return row


def run_validation(
    suites: tuple[str, ...] = SUITES,
    only: str | None = None,
    progress: Callable[[str], object] | None = None,
) -> list[dict[str, Any]]:
    """Every test of ``suites`` (those whose ``suite/test`` name contains ``only``)."""
    folder = test_folder()
    if not folder.is_dir():
        raise FileNotFoundError(
            f"{folder}: no ns-2 test folder (Debian: apt-get install ns2-examples; or set "
            "TERNSIM_NS2_TESTS)"
        )
    rows = []
    with tempfile.TemporaryDirectory(prefix="ternsim-validation-") as tmp:
        work = Path(tmp)
        for f in folder.iterdir():
            if f.suffix == ".tcl" and f.is_file():
                shutil.copy(f, work / f.name)
        for suite in suites:
            for test in tests_of(suite, folder):
                name = f"{suite}/{test}"
                if only and only not in name:
                    continue
                if progress:
                    progress(name)
                rows.append(run_test(suite, test, work))
    return rows
