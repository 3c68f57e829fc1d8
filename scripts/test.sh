#!/usr/bin/env bash
# Builds ternsim and runs every test (Rust, then Python) in a virtual environment of its own,
# .venv-test/ in the repository (or $TERNSIM_TEST_VENV): the ternsim you installed, if any,
# and the packages of the Python that runs this script are left as they were.
set -euo pipefail
cd "$(dirname "$0")/.."
venv="${TERNSIM_TEST_VENV:-.venv-test}"
python="${PYTHON:-python3}"
# Made without pip, which is installed into it (ensurepip, some 6 s of CPU) while cargo builds.
if [ ! -x "$venv/bin/python" ]; then
    "$python" -m venv --without-pip "$venv"
fi
# One build serves every test: the extension and the Rust tests use the cargo profile
# fast-build (Cargo.toml: release without LTO, which compiles in about half the time), so
# `cargo test` reuses the dependencies and the core library the extension was built with, and
# tests/test_wheel.py packages that same build instead of compiling again.
export TERNSIM_CARGO_PROFILE="${TERNSIM_CARGO_PROFILE:-fast-build}"
# The extension is built with the core's default features (its `toml` feature, which the Rust
# tests need and the workspace build below enables): the same feature set, "default" included,
# is one build of the core (tests/test_wheel.py passes the same arguments to `maturin build`).
export MATURIN_PEP517_ARGS="--profile $TERNSIM_CARGO_PROFILE --features ternsim-core/default"
# Two jobs at once: pip installs the Python dependencies (those of pyproject.toml and its
# `test` extra) while one cargo build compiles the Rust tests and the extension together.
# The cargo build runs in the environment maturin gives cargo for this interpreter (its
# `cargo rustc --lib` of crates/ternsim-py), so that the editable install after both finds
# the extension fresh and pyo3 is built once. --workspace (not -p ternsim-core): see
# crates/ternsim-py/Cargo.toml, [lib] test = false.
py="$(cd "$venv" && pwd)/bin/python"
pyo3_signature="$("$py" -c 'import platform, sys; v = sys.version_info; print(f"{sys.implementation.name}-{v[0]}.{v[1]}-{platform.architecture()[0]}")')"
cargo_log="$(mktemp)"
env PYO3_BUILD_EXTENSION_MODULE=1 PYO3_ENVIRONMENT_SIGNATURE="$pyo3_signature" \
    PYO3_PYTHON="$py" PYTHON_SYS_EXECUTABLE="$py" \
    cargo build --workspace --profile "$TERNSIM_CARGO_PROFILE" --lib --tests --examples \
    >"$cargo_log" 2>&1 &
cargo_build=$!
if ! "$py" -m pip --version >/dev/null 2>&1; then
    "$py" -m ensurepip --upgrade --default-pip >/dev/null
fi
# pyproject.toml's dependencies, read with the TOML parser of Python 3.11+ or the one pip
# vendors (Python 3.9, 3.10).
mapfile -t deps < <("$py" - <<'PY'
try:
    import tomllib
except ImportError:
    from pip._vendor import tomli as tomllib
with open("pyproject.toml", "rb") as f:
    project = tomllib.load(f)["project"]
for d in project["dependencies"] + project["optional-dependencies"]["test"]:
    print(d)
PY
)
"$py" -m pip install -q "${deps[@]}"
if ! wait "$cargo_build"; then
    cat "$cargo_log" >&2
    exit 1
fi
rm -f "$cargo_log"
# Editable inside this environment only, so that the tests see the repository's own files
# (the scenarios folder included) and a rerun after an edit rebuilds just the extension;
# maturin (a test dependency) from this environment, the dependencies already in.
"$py" -m pip install -q --no-build-isolation --no-deps -e .
# The repository's own modules byte-compiled once (pip compiled the dependencies'): the tests
# start ternsim in a hundred processes, and with PYTHONDONTWRITEBYTECODE set (as on many CI
# machines) each would otherwise compile them again.
"$py" -m compileall -q python/ternsim
cargo test --workspace --profile "$TERNSIM_CARGO_PROFILE"
# One pytest worker per core (pytest-xdist), a worker that runs out of tests taking some of
# the other's (`worksteal`: the slow tests do not end the run alone); `scripts/test.sh -n 0`
# runs them in one process.
"$venv/bin/python" -m pytest -q -n auto --dist worksteal --durations=15 "$@"
