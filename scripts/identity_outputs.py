"""Writes a set of ternsim outputs into a folder, so that two builds can be compared byte for
byte (``diff -r A B``) after a change that must not alter any result (a speed-up, a tidy-up).

usage: python scripts/identity_outputs.py OUT_FOLDER   (then: diff -r BEFORE AFTER)

It runs the ternsim found from this checkout (python/ and its built extension), about a
minute on one core, and writes about 90 MB.

Written (wall-clock fields removed from every summary):
- ``run-*.json``: ``ternsim run --json`` of every scenario in scenarios/bench/ and of the
  conformance wired and chain twins (chain also with AODV and with Vegas), seeds 1-3;
- ``trace-*.tr``: ``--ns2-trace`` of a few of them (seed 1; not wired_bulk, whose trace is
  half a gigabyte);
- ``ns2-*``: what ``ternsim ns2`` writes and prints for the conformance scripts chain.tcl
  (NewReno DSR and AODV, traced), wired.tcl (traced) and manet.tcl (AODV/DSR TCP, MAC trace).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCH = sorted((ROOT / "scenarios" / "bench").glob("*.toml"))
CONF = ROOT / "scenarios" / "conformance"

RUNS: list[tuple[str, Path, list[str]]] = [(p.stem, p, []) for p in BENCH] + [
    ("wired", CONF / "wired.toml", []),
    ("chain-dsr", CONF / "chain.toml", []),
    ("chain-aodv", CONF / "chain.toml", ["--set", "routing.protocol=aodv"]),
    ("chain-vegas", CONF / "chain.toml", ["--set", "flows.0.tcp=vegas"]),
]
TRACED = {"wired", "chain-dsr", "chain-aodv", "manet_50", "wifi_chain"}


def _strip_wall(value: object) -> object:
    if isinstance(value, dict):
        return {k: _strip_wall(v) for k, v in value.items() if "wall" not in k}
    if isinstance(value, list):
        return [_strip_wall(v) for v in value]
    return value


def _ternsim(args: list[str], cwd: Path) -> str:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "python"))
    done = subprocess.run(
        [sys.executable, "-m", "ternsim", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for name, path, sets in RUNS:
        for seed in (1, 2, 3):
            args = ["run", str(path), "--seed", str(seed), "--json", "-q", *sets]
            if seed == 1 and name in TRACED:
                args += ["--ns2-trace", str(out / f"trace-{name}.tr")]
            summary = json.loads(_ternsim(args, out))
            text = json.dumps(_strip_wall(summary), indent=1, sort_keys=True)
            (out / f"run-{name}-{seed}.json").write_text(text + "\n")
    sys.path.insert(0, str(ROOT / "python"))
    from ternsim import conformance

    scripts = [
        ("chain-dsr", "chain.tcl", ["Newreno", "DSR", "1", "7", "100", "1"], None),
        ("chain-aodv", "chain.tcl", ["Newreno", "AODV", "2", "7", "100", "1"], None),
        ("wired", "wired.tcl", ["TCP/Newreno", "TCPSink", "100", "out.tr"], None),
        ("manet-aodv", "manet.tcl", ["AODV", "tcp", "1", "100", "1"], "manet-v1p0-tcp-aodv"),
        ("manet-dsr", "manet.tcl", ["DSR", "tcp", "2", "100", "0"], "manet-v1p0-tcp-dsr"),
    ]
    cases = {c.name: c for c in conformance.CASES}
    for name, script, args, case in scripts:
        with tempfile.TemporaryDirectory(prefix="ternsim-identity-") as tmp:
            folder = Path(tmp)
            if case is not None:
                conformance.write_manet_inputs(cases[case], int(args[2]), folder)
            printed = _ternsim(["ns2", str(CONF / script), *args], folder)
            (out / f"ns2-{name}.out").write_text(printed)
            trace = folder / "out.tr"
            if trace.exists():
                (out / f"ns2-{name}.tr").write_bytes(trace.read_bytes())


if __name__ == "__main__":
    main(Path(sys.argv[1]))
