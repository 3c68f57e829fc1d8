"""Bad ns-2 scripts never crash or hang the front end: every mutant runs or stops, located.

Mutants of the project's ns-2 test scripts (a line deleted, duplicated or cut short, a word
replaced by another word of the same scripts or by a number, random bytes) go through
``translate_script`` in this process, which runs a script up to ``$ns run``: each either
translates or raises ScriptRefused naming the script (and, for what the front end refuses, the
line). A Tcl error in the script is the script's error, as in ``ns``: the refusal says it ended
before ``$ns run``. A sample of mutants also runs to the end under ``ternsim ns2`` in a process
of its own, which must exit 0, 1 (Tcl error) or 2 (refused, one located line) within a minute.
Mutations are drawn from a fixed seed, so a failure reproduces.
"""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from ternsim.ns2 import ScriptRefused, translate_script

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = [
    ROOT / "tests" / "ns2_scripts" / "dumbbell.tcl",
    ROOT / "tests" / "ns2_scripts" / "sampler.tcl",
    ROOT / "scenarios" / "conformance" / "wired.tcl",
]
#: Arguments each script expects (as its tests give them).
ARGS = {"wired.tcl": ["TCP/Newreno", "TCPSink", "2", "out.tr"]}


def mutate(text: str, rng: random.Random) -> str:
    lines = text.splitlines()
    words = sorted(set(re.findall(r"[\w/$.-]+", text)))
    kind = rng.randrange(6)
    i = rng.randrange(len(lines))
    if kind == 0:
        del lines[i]
    elif kind == 1:
        lines.insert(i, lines[i])
    elif kind == 2:
        lines[i] = lines[i][: rng.randrange(len(lines[i]) + 1)]
    elif kind == 3:
        tokens = lines[i].split(" ")
        tokens[rng.randrange(len(tokens))] = rng.choice(words)
        lines[i] = " ".join(tokens)
    elif kind == 4:
        tokens = lines[i].split(" ")
        tokens[rng.randrange(len(tokens))] = rng.choice(["-1", "0", "1e9", "nan", "1.5Mb", "{"])
        lines[i] = " ".join(tokens)
    else:
        junk = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40)))
        lines.insert(i, junk.decode("latin-1"))
    return "\n".join(lines) + "\n"


def mutants(n: int, seed: int) -> list[tuple[str, str]]:
    rng = random.Random(seed)
    out = []
    for k in range(n):
        script = SCRIPTS[k % len(SCRIPTS)]
        text = script.read_text()
        for _ in range(rng.randrange(1, 3)):
            text = mutate(text, rng)
        out.append((script.name, text))
    return out


@pytest.mark.parametrize("block", range(4))
def test_mutated_scripts_translate_or_stop_with_a_located_error(tmp_path, monkeypatch, block):
    monkeypatch.chdir(tmp_path)
    for k, (name, text) in enumerate(mutants(60, seed=block)):
        path = tmp_path / f"m{k}_{name}"
        path.write_bytes(text.encode("latin-1", errors="replace"))
        try:
            scenario = translate_script(path, ARGS.get(name, []))
        except ScriptRefused as exc:
            assert str(exc).startswith(str(path)), (k, str(exc))
        else:
            assert isinstance(scenario, dict) and scenario["flows"] is not None


def test_random_bytes_stop_with_a_located_error(tmp_path):
    rng = random.Random(7)
    for k in range(30):
        path = tmp_path / f"junk{k}.tcl"
        path.write_bytes(bytes(rng.randrange(256) for _ in range(rng.randrange(1, 400))))
        with pytest.raises(ScriptRefused) as exc:
            translate_script(path)
        assert str(exc.value).startswith(str(path))


def test_mutated_scripts_run_to_an_end_or_stop_in_a_process(tmp_path):
    for k, (name, text) in enumerate(mutants(12, seed=99)):
        folder = tmp_path / f"m{k}"
        folder.mkdir()
        (folder / name).write_bytes(text.encode("latin-1", errors="replace"))
        proc = subprocess.run(
            [sys.executable, "-m", "ternsim", "ns2", name, *ARGS.get(name, [])],
            cwd=folder,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert proc.returncode in (0, 1, 2, 3), (k, proc.returncode, proc.stderr[-500:])
        assert "Traceback (most recent call last)" not in proc.stderr, (k, proc.stderr[-2000:])
        if proc.returncode == 2:
            [line] = proc.stderr.splitlines()
            assert line.startswith(f"{name}:"), (k, line)
