"""The checked-in type stub of the compiled core names exactly what the core exports."""

from __future__ import annotations

import ast
from pathlib import Path

import ternsim._core as core

STUB = Path(__file__).resolve().parents[1] / "python" / "ternsim" / "_core.pyi"


def test_stub_matches_the_compiled_core():
    tree = ast.parse(STUB.read_text())
    stubbed = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    exported = {name for name in dir(core) if not name.startswith("_")}
    assert stubbed == exported
