#!/usr/bin/env python3
"""Import cycles between the modules of the TCP core (crates/ternsim-core/src/tcp).

Each .rs file is a module (``recovery/mod.rs`` is ``recovery``, ``recovery/newreno.rs`` is
``recovery/newreno``, the folder's own ``mod.rs`` is ``tcp``). The unit tests under
``tcp/tests/`` sit on top of everything and are left out. A module imports another when its
code (comments and string literals removed, ``#[cfg(test)] mod tests`` blocks included):

- names it in a ``use`` or a path starting ``super::``, ``self::`` or ``crate::tcp::``
  (``super::window::X`` from ``sender.rs`` is ``window``; ``super::`` from
  ``recovery/newreno.rs`` is ``recovery``; ``super::`` inside an inline ``mod tests`` is the
  file itself, which is no edge);
- names one of its own child modules (``tahoe::on_ack`` in ``recovery/mod.rs``); or
- uses a name that it re-exports from a child (``pub use aimd::Aimd;`` and then ``Aimd::new``).

A ``pub use`` re-export line of a ``mod.rs`` and a ``mod x;`` declaration are no edge by
themselves. A path through a ``mod.rs`` re-export counts as an import of that ``mod.rs``: import
from the defining module directly.

Prints every strongly connected component of more than one module and exits 1, or prints
``0 import cycles in tcp/`` and exits 0. ``--graph`` also prints each module's imports.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TCP_DIR = REPO / "crates" / "ternsim-core" / "src" / "tcp"

Module = tuple  # path of module names below tcp/, () for tcp/mod.rs itself


def module_name(module: Module) -> str:
    """``("recovery", "newreno")`` -> ``recovery/newreno``; the folder's own mod.rs is ``tcp``."""
    return "/".join(module) if module else "tcp"


def strip_comments_and_strings(text: str) -> str:
    """The code with comments and string/char literals blanked out (newlines kept)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        nxt = text[i + 1] if i + 1 < n else ""
        if c == "/" and nxt == "/":
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif c == "/" and nxt == "*":
            depth, i = 1, i + 2
            while i < n and depth:
                if text.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif text.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    out.append("\n" if text[i] == "\n" else "")
                    i += 1
        elif c == "r" and re.match(r'r#*"', text[i:]) and not (i and text[i - 1].isalnum()):
            hashes = len(re.match(r"r(#*)", text[i:]).group(1))
            end = text.find('"' + "#" * hashes, i + 2 + hashes)
            end = n if end < 0 else end + 1 + hashes
            out.append('""' + "\n" * text.count("\n", i, end))
            i = end
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append('""' + "\n" * text.count("\n", i, j))
            i = j + 1
        elif c == "'":
            # A char literal ('a', '\n', '\u{1F600}'); otherwise a lifetime or label.
            m = re.match(r"'(\\u\{[0-9a-fA-F]+\}|\\.|[^\\'])'", text[i:])
            if m:
                out.append("' '")
                i += m.end()
            else:
                out.append(c)
                i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


_USE_TOKEN_RE = re.compile(r"\w+|::|[{},*]")


def expand_use_tree(tree: str) -> list[tuple[list[str], str | None]]:
    """``super::{a::B, c::{D as E, self}}`` -> ``[(["super", "a", "B"], "B"), ...]``: each
    path with the name it binds (``None`` for a glob)."""
    tokens = _USE_TOKEN_RE.findall(tree)
    results: list[tuple[list[str], str | None]] = []

    def tree_at(k: int, prefix: list[str]) -> int:
        """Parse one use tree starting at token k; return the index after it."""
        segs = list(prefix)
        while k < len(tokens):
            tok = tokens[k]
            if tok == "{":
                k += 1
                while k < len(tokens) and tokens[k] != "}":
                    k = tree_at(k, segs)
                    if k < len(tokens) and tokens[k] == ",":
                        k += 1
                return k + 1
            if tok == "*":
                results.append((segs, None))
                return k + 1
            if tok == "::":
                k += 1
                continue
            if tok in (",", "}"):
                break
            k += 1
            if tok == "self" and prefix and segs == prefix:
                name = prefix[-1]  # `a::{self, B}` binds `a` itself
            else:
                segs.append(tok)
                name = tok
            if k + 1 < len(tokens) and tokens[k] == "as":
                results.append((segs, tokens[k + 1]))
                return k + 2
            if tok == "self" and prefix and segs == prefix:
                results.append((segs, name))
                return k
        results.append((segs, segs[-1] if segs else None))
        return k

    tree_at(0, [])
    return results


class _Resolver:
    def __init__(self, modules: set[Module]):
        self.modules = modules

    def resolve(self, base: Module, segs: list[str]) -> Module | None:
        """The module a path names from inside ``base`` (file module plus inline modules), or
        None when it leads outside tcp/ (std, crate::sim, ...)."""
        if not segs:
            return None
        here: list[str]
        if segs[0] == "crate":
            if len(segs) < 2 or segs[1] != "tcp":
                return None
            here, rest = [], segs[2:]
        elif segs[0] in ("super", "self"):
            here, rest = list(base), list(segs)
            while rest and rest[0] in ("super", "self"):
                if rest.pop(0) == "super":
                    if not here:
                        return None  # above tcp/
                    here.pop()
        elif tuple(base) + (segs[0],) in self.modules:
            here, rest = list(base), list(segs)  # a child module, 2018-style relative path
        else:
            return None
        # The longest prefix that is a module file.
        target = None
        for k in range(len(rest) + 1):
            cand = tuple(here + rest[:k])
            if cand in self.modules:
                target = cand
        if target is None:
            # Inside an inline module (tests): the file module that contains it.
            for k in range(len(here), -1, -1):
                if tuple(here[:k]) in self.modules:
                    return tuple(here[:k])
        return target


_PATH_RE = re.compile(r"(?<![\w:])((?:crate|super|self)(?:\s*::\s*\w+)+)")
_USE_RE = re.compile(r"(?<![\w:])((?:pub(?:\s*\([^)]*\))?\s+)?)use\s+([^;]+);")
_MOD_DECL_RE = re.compile(r"(?<![\w:])(?:pub(?:\s*\([^)]*\))?\s+)?mod\s+\w+\s*;")
_INLINE_MOD_RE = re.compile(r"(?<![\w:])mod\s+(\w+)\s*\{")


def _inline_module_at(code: str) -> list[tuple[int, tuple[str, ...]]]:
    """For each offset where the stack of inline modules changes, the new stack."""
    changes: list[tuple[int, tuple[str, ...]]] = [(0, ())]
    stack: list[tuple[str, int]] = []  # (name, brace depth inside it)
    depth = 0
    opens = {m.end() - 1: m.group(1) for m in _INLINE_MOD_RE.finditer(code)}
    for i, ch in enumerate(code):
        if ch == "{":
            depth += 1
            if i in opens:
                stack.append((opens[i], depth))
                changes.append((i, tuple(name for name, _ in stack)))
        elif ch == "}":
            if stack and stack[-1][1] == depth:
                stack.pop()
                changes.append((i, tuple(name for name, _ in stack)))
            depth -= 1
    return changes


def _stack_at(changes: list[tuple[int, tuple[str, ...]]], pos: int) -> tuple[str, ...]:
    current: tuple[str, ...] = ()
    for offset, stack in changes:
        if offset > pos:
            break
        current = stack
    return current


def file_imports(path: Path, module: Module, modules: set[Module]) -> set[Module]:
    """The modules (other than itself) that the file ``path`` of ``module`` imports."""
    resolver = _Resolver(modules)
    code = strip_comments_and_strings(path.read_text(encoding="utf-8"))
    is_mod_rs = path.name == "mod.rs"
    changes = _inline_module_at(code)
    targets: set[Module] = set()
    reexported: dict[str, Module] = {}

    def blank(m: re.Match) -> str:
        return re.sub(r"[^\n]", " ", m.group(0))

    for m in _USE_RE.finditer(code):
        base = module + _stack_at(changes, m.start())
        is_reexport = bool(m.group(1).strip()) and is_mod_rs
        for segs, name in expand_use_tree(m.group(2)):
            target = resolver.resolve(base, segs)
            if target is None:
                continue
            if is_reexport:
                if name is not None:
                    reexported[name] = target
            else:
                targets.add(target)
    code = _USE_RE.sub(blank, code)
    code = _MOD_DECL_RE.sub(blank, code)

    for m in _PATH_RE.finditer(code):
        segs = [s.strip() for s in m.group(1).split("::")]
        target = resolver.resolve(module + _stack_at(changes, m.start()), segs)
        if target is not None:
            targets.add(target)
    children = {mod[-1] for mod in modules if mod and mod[:-1] == module}
    for m in re.finditer(r"(?<![\w:])(\w+)\s*::", code):
        if m.group(1) in children and not _stack_at(changes, m.start()):
            targets.add(module + (m.group(1),))
    for name, target in reexported.items():
        if re.search(r"(?<![\w:])" + re.escape(name) + r"(?!\w)", code):
            targets.add(target)
    targets.discard(module)
    return targets


def module_graph(tcp_dir: Path) -> dict[str, set[str]]:
    """Module name -> the names of the modules it imports, for every .rs file of ``tcp_dir``
    outside its ``tests/`` folder."""
    files: dict[Module, Path] = {}
    for path in sorted(tcp_dir.rglob("*.rs")):
        rel = path.relative_to(tcp_dir)
        if rel.parts[0] == "tests":
            continue
        parts = rel.with_suffix("").parts
        if parts[-1] == "mod":
            parts = parts[:-1]
        files[tuple(parts)] = path
    modules = set(files)
    return {
        module_name(mod): {module_name(t) for t in file_imports(path, mod, modules)}
        for mod, path in files.items()
    }


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components, each sorted, in a stable order."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    components: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            components.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(components)


def import_cycles(tcp_dir: Path = TCP_DIR) -> list[list[str]]:
    """The strongly connected components of more than one module: each is an import cycle."""
    return [c for c in strongly_connected(module_graph(tcp_dir)) if len(c) > 1]


def main(argv: list[str]) -> int:
    tcp_dir = TCP_DIR
    args = [a for a in argv if a != "--graph"]
    if args:
        tcp_dir = Path(args[0])
    graph = module_graph(tcp_dir)
    if "--graph" in argv:
        for mod in sorted(graph):
            print(f"{mod} -> {', '.join(sorted(graph[mod])) or '(nothing)'}")
        print()
    cycles = [c for c in strongly_connected(graph) if len(c) > 1]
    if not cycles:
        print("0 import cycles in tcp/")
        return 0
    print(f"{len(cycles)} import cycle(s) in tcp/ (strongly connected modules):")
    for component in cycles:
        members = set(component)
        print(f"- {len(component)} modules: {', '.join(component)}")
        for mod in component:
            inside = sorted(graph[mod] & members)
            print(f"    {mod} -> {', '.join(inside)}")
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
