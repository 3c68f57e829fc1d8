"""The modules of the TCP core (crates/ternsim-core/src/tcp) import one another one way only:
scripts/tcp_import_cycles.py finds no cycle. Reads Rust sources only, builds nothing."""

from __future__ import annotations

import importlib.util
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _checker():
    path = REPO / "scripts" / "tcp_import_cycles.py"
    spec = importlib.util.spec_from_file_location("tcp_import_cycles", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_tcp_modules_have_no_import_cycle() -> None:
    checker = _checker()
    tcp_dir = REPO / "crates" / "ternsim-core" / "src" / "tcp"
    graph = checker.module_graph(tcp_dir)
    # The checker did read the folder: the connection sits below the policies.
    assert "conn" in graph and "recovery/reno" in graph and "window/vegas" in graph
    assert "conn" in graph["recovery/reno"]
    assert checker.import_cycles(tcp_dir) == []


def test_a_two_file_cycle_is_found(tmp_path: Path) -> None:
    checker = _checker()
    tcp = tmp_path / "tcp"
    (tcp / "policy").mkdir(parents=True)
    (tcp / "mod.rs").write_text("pub mod conn;\npub mod policy;\npub use conn::Conn;\n")
    (tcp / "conn.rs").write_text(
        "// use super::policy::Decision; (a comment is no import)\n"
        "use crate::tcp::policy::aimd::Decision;\n"
        "pub struct Conn;\n"
        "#[cfg(test)]\nmod tests {\n    use super::*;\n}\n"
    )
    (tcp / "policy" / "mod.rs").write_text("pub mod aimd;\n")
    (tcp / "policy" / "aimd.rs").write_text(
        "pub struct Decision;\npub fn grow(c: &super::super::conn::Conn) {}\n"
    )
    assert checker.import_cycles(tcp) == [["conn", "policy/aimd"]]
    assert checker.main([str(tcp)]) == 1

    # Break it: the decision moves below the connection.
    (tcp / "conn.rs").write_text("pub struct Conn;\n")
    assert checker.import_cycles(tcp) == []
    assert checker.main([str(tcp)]) == 0
