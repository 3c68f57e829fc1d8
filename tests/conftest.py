"""Shared fixtures for the Python tests: a tiny scenario (as TOML text, file and dict), a
private summary cache, and a helper that runs the ``ternsim`` command in a subprocess."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Callable

import pytest

REPO = Path(__file__).resolve().parents[1]

# pytest-xdist's workers start with COLUMNS=80 and LINES=24 set by execnet; the command-line
# tests give their subprocesses COLUMNS=120 unless a test chose a width itself, which they tell
# by COLUMNS being set. Drop execnet's values so a worker behaves as a plain pytest run.
if os.environ.get("PYTEST_XDIST_WORKER"):
    os.environ.pop("COLUMNS", None)
    os.environ.pop("LINES", None)

#: Two hosts, one lossy link, one Reno flow, a few seconds: small enough for every CLI test.
TINY_TOML = """\
name = "tiny"
duration = "3s"

[[nodes]]
name = "a"

[[nodes]]
name = "b"

[[links]]
a = "a"
b = "b"
rate = "1Mbps"
delay = "10ms"
loss = 0.05

[[flows]]
name = "f0"
src = "a"
dst = "b"
tcp = "reno"

[traces]
cwnd = true
drops = true
"""


@pytest.fixture(autouse=True)
def _private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own sweep cache, never the working directory's."""
    cache = tmp_path / "cache"
    monkeypatch.setenv("TERNSIM_CACHE", str(cache))
    return cache


@pytest.fixture
def tiny_scenario() -> dict:
    """The tiny scenario as a dict (the structure a TOML file loads to)."""
    try:
        import tomllib
    except ModuleNotFoundError:  # pragma: no cover - Python < 3.11
        import tomli as tomllib
    return tomllib.loads(TINY_TOML)


@pytest.fixture
def tiny_toml(tmp_path: Path) -> Path:
    """The tiny scenario as a TOML file."""
    path = tmp_path / "tiny.toml"
    path.write_text(TINY_TOML, encoding="utf-8")
    return path


@pytest.fixture
def cli(tmp_path: Path) -> Callable[..., subprocess.CompletedProcess]:
    """Runs ``python -m ternsim ARGS...`` in ``tmp_path``; returns the completed process
    (stdout and stderr as text)."""

    def invoke(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
        env = dict(os.environ)
        env.setdefault("COLUMNS", "120")
        return subprocess.run(
            [sys.executable, "-m", "ternsim", *map(str, args)],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )

    return invoke


def _check_every_run_listed(out: Path, stderr: str) -> None:
    """What `ternsim reproduce` promises of every reproduction: its last line lists only files
    that exist and counts every run it made, and ``runs.csv``/``runs.parquet`` hold one row
    per run and flow, the traced runs (named in ``traced_run``) included."""
    import re

    import pandas as pd

    last = " ".join(stderr.split()).rsplit("wrote ", 1)[1]
    listed = re.search(r"\((.*?), \d+ figures\)", last).group(1).split(", ")
    assert {"runs.csv", "runs.parquet", "report.md", "claims.csv"} <= set(listed), last
    assert all((out / name).is_file() for name in listed), last
    counts = re.search(r"; (\d+) runs: (\d+) in sweeps \((\d+) cached\), (\d+) traced;", last)
    assert counts, last
    total, swept, cached, traced = map(int, counts.groups())
    assert total == swept + traced and cached <= swept and traced > 0, last
    if swept == 0:
        assert "no cache used" in last
    csv = pd.read_csv(out / "runs.csv")
    parquet = pd.read_parquet(out / "runs.parquet")
    assert len(csv) == len(parquet) and list(csv.columns) == list(parquet.columns)
    rows = csv[csv["traced_run"].notna()]
    assert len(rows.drop_duplicates(["traced_run", "seed"])) == traced
    assert rows["flow"].notna().all() and (rows["delivered_bytes"] >= 0).all()
    # The main sweep's rows name no traced run; they are there exactly when sweeps ran.
    assert (swept > 0) == csv["traced_run"].isna().any()


@pytest.fixture
def every_run_listed() -> Callable[[Path, str], None]:
    """The check of :func:`_check_every_run_listed`, for the five reproduction tests."""
    return _check_every_run_listed
