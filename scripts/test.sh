#!/usr/bin/env bash
# Installs ternsim with its test dependencies and runs every test: Rust, then Python.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install -q -e ".[test]"
cargo test -p ternsim-core --release
python3 -m pytest -q
