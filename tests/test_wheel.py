"""Distribution: the Linux wheel installs and runs where there is no Rust toolchain.

Builds the abi3 wheel with maturin, with the cargo profile and the interpreter that built the
test environment's editable install (`$TERNSIM_CARGO_PROFILE`, set by `scripts/test.sh`, else
`release`; the test's own Python): the same cargo invocation, so after `scripts/test.sh`'s build
it only packages what is built. (Another interpreter would change pyo3's build configuration and
rebuild the extension.) It installs the wheel into a fresh
virtual environment whose PATH has no cargo or rustc, and runs a shipped scenario by name from
a folder outside the repository. Skipped, saying why, when maturin or cargo is missing (the
build needs them; the install must not)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
TOOLCHAIN = ("cargo", "rustc", "rustup")


def _maturin() -> list[str] | None:
    """maturin from this environment (the test extra installs it), else from PATH."""
    here = Path(sysconfig.get_path("scripts")) / "maturin"
    if here.exists():
        return [str(here)]
    found = shutil.which("maturin")
    return [found] if found else None


MATURIN = _maturin()
PROFILE = os.environ.get("TERNSIM_CARGO_PROFILE", "release")

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="builds the Linux wheel"),
    pytest.mark.skipif(MATURIN is None, reason="maturin is not installed: cannot build a wheel"),
    pytest.mark.skipif(shutil.which("cargo") is None, reason="cargo is needed to build the wheel"),
]


def _path_without_toolchain(venv_bin: Path) -> str:
    """The venv's scripts, then every PATH entry that holds no Rust tool."""
    keep = [str(venv_bin)]
    for entry in os.environ.get("PATH", "").split(os.pathsep):
        if entry and not any((Path(entry) / tool).exists() for tool in TOOLCHAIN):
            keep.append(entry)
    return os.pathsep.join(keep)


def test_wheel_installs_and_runs_without_rust(tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    build = subprocess.run(
        [*MATURIN, "build", "--profile", PROFILE, "-i", sys.executable, "--out", str(dist)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=800,
    )
    assert build.returncode == 0, build.stderr[-3000:]
    wheels = sorted(dist.glob("ternsim-*.whl"))
    assert len(wheels) == 1, wheels
    wheel = wheels[0].name
    # One wheel for every CPython >= 3.9: the stable ABI tag, not this interpreter's.
    assert "-cp39-abi3-" in wheel, wheel
    assert "linux" in wheel, wheel

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    bin_dir = venv / "bin"
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("CARGO", "RUSTUP", "RUSTC", "VIRTUAL_ENV", "PYTHON"))
    }
    env["PATH"] = _path_without_toolchain(bin_dir)
    for tool in TOOLCHAIN:
        assert shutil.which(tool, path=env["PATH"]) is None, f"{tool} still on PATH"

    install = subprocess.run(
        [str(bin_dir / "python"), "-m", "pip", "install", "-q", str(wheels[0])],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert install.returncode == 0, install.stderr[-3000:]

    elsewhere = tmp_path / "work"
    elsewhere.mkdir()
    where = subprocess.run(
        [str(bin_dir / "python"), "-c", "import ternsim._core as c; print(c.__file__)"],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert where.returncode == 0, where.stderr
    # The compiled core came from the wheel, not from the repository's editable build.
    assert Path(where.stdout.strip()).is_relative_to(venv), where.stdout

    run = subprocess.run(
        [str(bin_dir / "ternsim"), "run", "examples/dumbbell", "--json"],
        cwd=elsewhere,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    summary = json.loads(run.stdout)
    # The shipped dumbbell: its 30 s run and its flows, delivered data on each.
    assert summary["sim_seconds"] == 30.0
    assert summary["flows"]
    assert all(f["delivered_bytes"] > 0 for f in summary["flows"])
    assert summary["packets"]["balanced"] is True
