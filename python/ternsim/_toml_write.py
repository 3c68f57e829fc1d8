"""Writing a scenario (a dict as a TOML file loads to) back out as TOML text.

This module owns only the small subset of TOML that scenarios use: top-level keys, tables,
arrays of tables (``[[flows]]``) and, inside those, inline tables and arrays. Strings are
written as basic strings with TOML escapes; floats with ``repr`` (so they read back equal);
``None`` has no TOML form and is refused. The standard library reads TOML (tomllib) but does
not write it, and the scenarios need nothing more than this.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

__all__ = ["dumps"]

_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\t": "\\t", "\r": "\\r", "\b": "\\b"}


def dumps(doc: Mapping[str, Any]) -> str:
    """The TOML text of ``doc``: its plain keys first, then its tables, then its arrays of
    tables, each in the dict's own order."""
    lines: list[str] = []
    _table(doc, [], lines)
    return "\n".join(lines).strip("\n") + "\n"


def _is_table_array(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, Mapping) for v in value)


def _table(doc: Mapping[str, Any], path: list[str], lines: list[str]) -> None:
    plain = [
        (k, v) for k, v in doc.items() if not isinstance(v, Mapping) and not _is_table_array(v)
    ]
    for key, value in plain:
        lines.append(f"{_key(key)} = {_value(value)}")
    for key, value in doc.items():
        if isinstance(value, Mapping):
            lines.append("")
            lines.append(f"[{'.'.join(_key(p) for p in [*path, key])}]")
            _table(value, [*path, key], lines)
    for key, value in doc.items():
        if _is_table_array(value):
            for item in value:
                lines.append("")
                lines.append(f"[[{'.'.join(_key(p) for p in [*path, key])}]]")
                for k, v in item.items():
                    lines.append(f"{_key(k)} = {_value(v)}")


def _key(key: str) -> str:
    bare = key and all(c.isascii() and (c.isalnum() or c in "_-") for c in key)
    return key if bare else _string(key)


def _string(text: str) -> str:
    out = []
    for c in text:
        if c in _ESCAPES:
            out.append(_ESCAPES[c])
        elif ord(c) < 0x20 or ord(c) == 0x7F:
            out.append(f"\\u{ord(c):04x}")
        else:
            out.append(c)
    return '"' + "".join(out) + '"'


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, Mapping):
        return "{ " + ", ".join(f"{_key(k)} = {_value(v)}" for k, v in value.items()) + " }"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    raise TypeError(f"no TOML form for {value!r} ({type(value).__name__})")
