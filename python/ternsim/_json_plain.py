"""The two JSON conversions of every run, without importing :mod:`json`.

Importing json compiles its regular expressions and so imports :mod:`re` (and :mod:`enum`):
5-10 ms, a good part of a short ``ternsim run``. A run needs JSON twice: the canonical text of
the scenario it hands to the core (:func:`canonical`) and the summary the core hands back
(:func:`loads`). Both give exactly what json gives, and leave whatever they are not sure of
to json itself:

* :func:`canonical` writes plain data (dicts with str keys, lists, tuples, str, int, float,
  bool, None; exact types) as ``json.dumps(value, sort_keys=True, separators=(",", ":"),
  ensure_ascii=False)`` writes it; anything else (a subclass, a string that needs an escape,
  a NaN) is written by json.dumps.
* :func:`loads` reads a JSON object with the scanner ``json.loads`` itself uses (the C
  scanner of the ``_json`` module, made with json's default settings), and hands any text it
  does not read to the end to ``json.loads`` (which then reads it, or raises its own error).
"""

from __future__ import annotations

__all__ = ["canonical", "loads"]

_INF = float("inf")


class _NotPlain(Exception):
    """A value :func:`canonical` leaves to json.dumps."""


def canonical(value: object) -> str:
    """``json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)``."""
    parts: list[str] = []
    try:
        _write(value, parts)
    except _NotPlain:
        import json

        return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "".join(parts)


def _write(value: object, parts: list[str]) -> None:
    kind = type(value)
    if kind is str:
        parts.append(_string(value))  # type: ignore[arg-type]
    elif value is None:
        parts.append("null")
    elif value is True:
        parts.append("true")
    elif value is False:
        parts.append("false")
    elif kind is int:
        parts.append(int.__repr__(value))  # type: ignore[arg-type]
    elif kind is float:
        if value != value or value in (_INF, -_INF):
            raise _NotPlain  # json's NaN and Infinity
        parts.append(float.__repr__(value))  # type: ignore[arg-type]
    elif kind is dict:
        keys = list(value)  # type: ignore[call-overload]
        if not all(type(key) is str for key in keys):
            raise _NotPlain
        parts.append("{")
        for i, key in enumerate(sorted(keys)):
            if i:
                parts.append(",")
            parts.append(_string(key))
            parts.append(":")
            _write(value[key], parts)  # type: ignore[index]
        parts.append("}")
    elif kind is list or kind is tuple:
        parts.append("[")
        for i, item in enumerate(value):  # type: ignore[call-overload]
            if i:
                parts.append(",")
            _write(item, parts)
        parts.append("]")
    else:
        raise _NotPlain


def _string(text: str) -> str:
    """The JSON string of ``text`` when it needs no escape (no quote, no backslash, no control
    character below space: what json escapes with ensure_ascii=False)."""
    if '"' in text or "\\" in text or (not text.isprintable() and any(c < " " for c in text)):
        raise _NotPlain
    return f'"{text}"'


class _Decoder:
    """The settings the ``_json`` scanner reads, as ``json.JSONDecoder()`` has them."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    parse_constant = {"-Infinity": -_INF, "Infinity": _INF, "NaN": float("nan")}.__getitem__


_scanner: object = None


def loads(text: str) -> object:
    """``json.loads(text)``."""
    global _scanner
    if type(text) is str and text.startswith("{"):
        if _scanner is None:
            try:
                from _json import make_scanner
            except ImportError:  # pragma: no cover - a Python without the C accelerator
                _scanner = False
            else:
                _scanner = make_scanner(_Decoder())
        if _scanner:
            try:
                value, end = _scanner(text, 0)  # type: ignore[operator]
            except Exception:  # noqa: BLE001 - json.loads below raises its own error
                pass
            else:
                if end == len(text):
                    return value
    import json

    return json.loads(text)
