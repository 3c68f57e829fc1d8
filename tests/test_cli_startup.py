"""Start-up cost of the ``ternsim`` command: the heavy libraries load only where used.

These tests look at which modules a fresh interpreter has loaded, never at wall time: pandas,
scipy and matplotlib together take about a second to import, and ``ternsim --help`` or a run
printed as JSON needs none of them.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

HEAVY = ("pandas", "scipy", "matplotlib")


def loaded_after(code: str) -> dict:
    """Runs ``code`` in a fresh interpreter; returns which heavy modules it left loaded."""
    report = f"print(json.dumps({{m: m in sys.modules for m in {HEAVY!r}}}))"
    probe = f"{code}\nimport json, sys\n{report}"
    proc = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.splitlines()[-1])


@pytest.mark.parametrize("code", ["import ternsim", "import ternsim.cli"])
def test_importing_the_command_loads_no_heavy_library(code):
    assert loaded_after(code) == dict.fromkeys(HEAVY, False)


def test_a_run_printed_as_json_loads_no_heavy_library(tiny_toml):
    code = (
        "import sys\n"
        "from ternsim.cli import app\n"
        f"sys.argv = ['ternsim', 'run', {str(tiny_toml)!r}, '--json']\n"
        "try:\n    app()\nexcept SystemExit as exc:\n    assert not exc.code, exc.code\n"
    )
    assert loaded_after(code) == dict.fromkeys(HEAVY, False)


def test_lazy_package_names_still_resolve():
    import ternsim

    assert callable(ternsim.run) and callable(ternsim.sweep) and callable(ternsim.ci95)
    assert ternsim.SweepResult.__name__ == "SweepResult"
    with pytest.raises(AttributeError):
        _ = ternsim.no_such_name


def test_the_version_loads_importlib_metadata_only_when_asked_for():
    code = (
        "import sys, ternsim\n"
        "assert 'importlib.metadata' not in sys.modules\n"
        "assert '__version__' in dir(ternsim)\n"
        "from importlib.metadata import version\n"
        "assert ternsim.__version__ == version('ternsim')\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr


#: Modules the fast path of ``ternsim run`` (ternsim._entry, a run printed on the terminal)
#: leaves unloaded: each takes milliseconds to import, as much as a short run.
FAST_PATH_UNLOADED = (
    "typer", "click", "rich", "typing", "tomllib", "tomli", "copy", "numbers", "pathlib",
    "json", "re", "contextlib", "importlib",
)  # fmt: skip


def modules_loaded_by(code: str) -> set:
    """The modules a fresh interpreter has after running ``code`` that it did not have at
    start (so that whatever the interpreter's site loads does not count)."""
    probe = (
        "import sys\n"
        "before = set(sys.modules)\n"
        f"{code}\n"
        "sys.stderr.write('\\nLOADED ' + ' '.join(sorted(set(sys.modules) - before)) + '\\n')\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    return set(proc.stderr.rsplit("LOADED ", 1)[1].split())


def test_the_fast_path_of_a_run_leaves_the_slow_modules_unloaded(tiny_toml):
    code = (
        "from ternsim._entry import main\n"
        f"sys.argv = ['ternsim', 'run', {str(tiny_toml)!r}, '--set', 'duration=0.1s', '-q']\n"
        "assert main() == 0\n"
    )
    loaded = modules_loaded_by(code)
    assert "ternsim._core" in loaded and "ternsim._toml_read" in loaded  # it did run
    assert loaded.isdisjoint(FAST_PATH_UNLOADED), sorted(loaded & set(FAST_PATH_UNLOADED))
