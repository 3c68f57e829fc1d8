"""Distribution: the Linux wheel installs and runs where there is no Rust toolchain.

Builds the abi3 wheel with maturin, with the cargo profile, features and interpreter that built the
test environment's editable install (`$MATURIN_PEP517_ARGS`, set by `scripts/test.sh`, else the
release profile; the test's own Python): the same cargo invocation, so after `scripts/test.sh`'s
build it only packages what is built. (Another interpreter would change pyo3's build configuration
and rebuild the extension.) It installs the wheel into a fresh virtual environment whose PATH has no
cargo or rustc (the third-party dependencies come from the test environment; the wheel's declared
ones are checked against pyproject.toml), and runs a shipped scenario by name from a folder outside
the repository. Skipped, saying why, when maturin or cargo is missing (the build needs them; the
install must not)."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.9 and 3.10
    import tomli as tomllib

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
# The cargo profile and features of the test environment's editable install, as scripts/test.sh
# hands them to maturin; without it, the release build `pip install .` makes.
BUILD_ARGS = shlex.split(os.environ.get("MATURIN_PEP517_ARGS", "--profile release"))

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="builds the Linux wheel"),
    pytest.mark.skipif(MATURIN is None, reason="maturin is not installed: cannot build a wheel"),
    pytest.mark.skipif(shutil.which("cargo") is None, reason="cargo is needed to build the wheel"),
]


def _pip_version() -> tuple[int, ...]:
    """This environment's pip version, as numbers (0 where a part is not one)."""
    import pip

    return tuple(int(p) if p.isdigit() else 0 for p in pip.__version__.split(".")[:2])


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
        [*MATURIN, "build", *BUILD_ARGS, "-i", sys.executable, "--out", str(dist)],
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

    # The wheel declares the project's dependencies (pip installs them from PyPI).
    with zipfile.ZipFile(wheels[0]) as zf:
        meta = next(n for n in zf.namelist() if n.endswith(".dist-info/METADATA"))
        requires = [
            line.split(":", 1)[1].strip()
            for line in zf.read(meta).decode().splitlines()
            if line.startswith("Requires-Dist:")
        ]
    declared = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["dependencies"]
    for dep in declared:
        name = dep.split(">")[0].split("=")[0].split(";")[0].strip()
        assert any(r.startswith(name) for r in requires), (name, requires)

    # A fresh environment that sees the test environment's third-party packages (a path
    # line, not a site folder, so its editable ternsim stays invisible) and gets only the
    # wheel installed: what is tested is the wheel, not downloading numpy and pandas again.
    # Made without pip (ensurepip alone takes some 6 s of CPU): this environment's pip
    # installs into it (`pip --python`, pip 22.3 and later).
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    bin_dir = venv / "bin"
    site = Path(
        subprocess.run(
            [
                str(bin_dir / "python"),
                "-c",
                "import sysconfig; print(sysconfig.get_paths()['purelib'])",
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    )
    (site / "test-deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("CARGO", "RUSTUP", "RUSTC", "VIRTUAL_ENV", "PYTHON"))
    }
    env["PATH"] = _path_without_toolchain(bin_dir)
    for tool in TOOLCHAIN:
        assert shutil.which(tool, path=env["PATH"]) is None, f"{tool} still on PATH"

    pip = [sys.executable, "-m", "pip", "--python", str(bin_dir / "python")]
    if _pip_version() < (22, 3):  # no --python: the environment gets a pip of its own
        subprocess.run([str(bin_dir / "python"), "-m", "ensurepip", "-q"], check=True)
        pip = [str(bin_dir / "python"), "-m", "pip"]
    install = subprocess.run(
        [*pip, "install", "-q", "--no-deps", str(wheels[0])],
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
