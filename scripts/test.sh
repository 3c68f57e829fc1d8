#!/usr/bin/env bash
# Builds ternsim and runs every test (Rust, then Python) in a virtual environment of its own,
# .venv-test/ in the repository (or $TERNSIM_TEST_VENV): the ternsim you installed, if any,
# and the packages of the Python that runs this script are left as they were.
set -euo pipefail
cd "$(dirname "$0")/.."
venv="${TERNSIM_TEST_VENV:-.venv-test}"
python="${PYTHON:-python3}"
if [ ! -x "$venv/bin/python" ]; then
    "$python" -m venv "$venv"
fi
# One build serves every test: the extension and the Rust tests use the cargo profile
# fast-build (Cargo.toml: release without LTO, which compiles in about half the time), so
# `cargo test` reuses the dependencies and the core library the extension was built with, and
# tests/test_wheel.py packages that same build instead of compiling again.
export TERNSIM_CARGO_PROFILE="${TERNSIM_CARGO_PROFILE:-fast-build}"
export MATURIN_PEP517_ARGS="--profile $TERNSIM_CARGO_PROFILE"
# The Rust tests compile while pip installs the Python dependencies (cargo's lock on the
# target folder then makes the extension's build wait and reuse what they compiled).
# --workspace (not -p ternsim-core): see crates/ternsim-py/Cargo.toml, [lib] test = false.
cargo_log="$(mktemp)"
cargo test --workspace --profile "$TERNSIM_CARGO_PROFILE" --no-run >"$cargo_log" 2>&1 &
cargo_build=$!
# Editable inside this environment only, so that the tests see the repository's own files
# (the scenarios folder included) and a rerun after an edit rebuilds just the extension.
"$venv/bin/python" -m pip install -q -e ".[test]"
if ! wait "$cargo_build"; then
    cat "$cargo_log" >&2
    exit 1
fi
rm -f "$cargo_log"
cargo test --workspace --profile "$TERNSIM_CARGO_PROFILE"
# One pytest worker per core (pytest-xdist); `scripts/test.sh -n 0` runs them in one process.
"$venv/bin/python" -m pytest -q -n auto --durations=15 "$@"
