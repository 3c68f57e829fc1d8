"""Reading the plain TOML of scenario files without importing :mod:`tomllib`.

tomllib (with the ``typing``, ``re``, ``datetime`` and ``string`` modules it imports, and the
regular expressions it compiles at import) takes 10-20 ms to load, as much as the rest of a
short ``ternsim run``. Scenario files use a small part of TOML: comments, bare keys,
``[table]`` and ``[[array.of.tables]]`` headers, and values that are strings without escapes,
decimal numbers, booleans, arrays and inline tables. This module reads exactly that part.

The rule that keeps results the same: :func:`loads` returns a document only when tomllib
would return an equal one (same keys in the same order, same types and values). Whatever is
outside the part read here — an escape, a dotted key, a date, a table declared twice, any
error at all — makes it return None, and the caller asks tomllib, which then parses the text
or raises its own error with its own message. It raises no parse error of its own (only
what tomllib would raise too on the same text: Python's limit on the digits of an integer,
or the recursion limit on arrays nested thousands deep).
:func:`override_scalar` does the same for the value of a command-line override.
"""

from __future__ import annotations

__all__ = ["MISS", "STRING", "loads", "override_scalar"]

#: :func:`override_scalar`'s answers besides a value: tomllib must decide (MISS); the override
#: is a bare string whatever tomllib says (STRING).
MISS = object()
STRING = object()

_WS = " \t"
_BARE_KEY = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
# What may end a scalar value (a number, a boolean) inside an array or inline table.
_VALUE_END = frozenset(" \t\n,]}#")
_DIGITS = frozenset("0123456789")
_HEX = frozenset("0123456789abcdefABCDEF")
_SPECIAL_FLOATS = frozenset(("inf", "nan", "+inf", "-inf", "+nan", "-nan"))
# Characters a number can hold (decimal, hex, octal and binary forms, exponents, signs);
# override_scalar leaves anything made of these alone to tomllib (dates look like numbers).
_NUMBER_CHARS = frozenset("0123456789abcdefABCDEF_.+-xo")
_TOKEN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.+-")


class _Bail(Exception):
    """The text is outside what this module reads: tomllib decides."""


def _plain_text(text: str) -> bool:
    """Whether ``text`` holds no character TOML refuses in a string or a comment (control
    characters other than tab, and DEL)."""
    if text.isprintable():
        return True
    return all(c == "\t" or (c >= " " and c != "\x7f") for c in text)


def _digit_run(text: str, i: int, digits: frozenset[str]) -> int:
    """The end of ``digit (_? digit)*`` at ``i`` (tomllib's number pattern), or -1."""
    n = len(text)
    if i >= n or text[i] not in digits:
        return -1
    i += 1
    while i < n:
        if text[i] in digits:
            i += 1
        elif text[i] == "_" and i + 1 < n and text[i + 1] in digits:
            i += 2
        else:
            break
    return i


def _number(token: str) -> int | float | None:
    """The value tomllib gives ``token`` when the whole token is one of its integer or float
    forms (or inf/nan), else None."""
    if token in _SPECIAL_FLOATS:
        return float(token)
    n = len(token)
    if n > 2 and token[0] == "0" and token[1] in "xob":
        digits = _HEX if token[1] == "x" else frozenset("01234567" if token[1] == "o" else "01")
        return int(token, 0) if _digit_run(token, 2, digits) == n else None
    i = 1 if token[:1] in ("+", "-") else 0
    if token[i : i + 1] == "0":
        end = i + 1
    else:
        end = _digit_run(token, i, _DIGITS)
        if end < 0:
            return None
    is_float = False
    if token[end : end + 1] == ".":
        end = _digit_run(token, end + 1, _DIGITS)
        if end < 0:
            return None
        is_float = True
    if token[end : end + 1] in ("e", "E"):
        start = end + 1
        if token[start : start + 1] in ("+", "-"):
            start += 1
        end = _digit_run(token, start, _DIGITS)
        if end < 0:
            return None
        is_float = True
    if end != n:
        return None
    return float(token) if is_float else int(token, 0)


def override_scalar(text: str) -> object:
    """What :func:`ternsim.api.parse_value` makes of the (stripped) override value ``text``
    when it is one bare word: a boolean or a number (the value), a word tomllib cannot read as
    a boolean, number or date (STRING: it stays a string), or MISS (anything else, tomllib
    decides)."""
    if not text or not all(c in _TOKEN_CHARS for c in text):
        return MISS
    if text == "true":
        return True
    if text == "false":
        return False
    value = _number(text)
    if value is not None:
        return value
    # Not a whole number and not a boolean. A word with a letter no number has cannot be a
    # number or a date either (a date without a time is digits and dashes): tomllib refuses
    # it, and parse_value keeps the text.
    if all(c in _NUMBER_CHARS for c in text):
        return MISS
    return STRING


class _Reader:
    """One pass over the text; every method raises _Bail at the first thing it does not
    read."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        # Tables a header may open or pass through (by id): those made by headers, and
        # the entries of arrays made by [[...]] headers; and those arrays.
        self.header_tables: set[int] = set()
        self.header_arrays: set[int] = set()

    def skip_ws(self) -> None:
        text, pos = self.text, self.pos
        while pos < len(text) and text[pos] in _WS:
            pos += 1
        self.pos = pos

    def skip_comment(self) -> None:
        """A comment up to (not including) the end of the line, if one starts here."""
        if self.text.startswith("#", self.pos):
            end = self.text.find("\n", self.pos)
            if end < 0:
                end = len(self.text)
            if not _plain_text(self.text[self.pos + 1 : end]):
                raise _Bail
            self.pos = end

    def skip_array_ws(self) -> None:
        """Spaces, tabs, line breaks and comments (between the values of an array)."""
        while True:
            self.skip_ws()
            if self.text.startswith("\n", self.pos):
                self.pos += 1
            elif self.text.startswith("#", self.pos):
                self.skip_comment()
            else:
                return

    def key(self) -> str:
        """A bare key, not dotted (spaces after it skipped)."""
        text, start = self.text, self.pos
        pos = start
        while pos < len(text) and text[pos] in _BARE_KEY:
            pos += 1
        if pos == start:
            raise _Bail
        self.pos = pos
        self.skip_ws()
        if self.text.startswith(".", self.pos):
            raise _Bail
        return text[start:pos]

    def header_key(self) -> list[str]:
        """The dotted bare key of a table header (spaces around the dots allowed)."""
        self.skip_ws()
        parts = [self.key_part()]
        self.skip_ws()
        while self.text.startswith(".", self.pos):
            self.pos += 1
            self.skip_ws()
            parts.append(self.key_part())
            self.skip_ws()
        return parts

    def key_part(self) -> str:
        text, start = self.text, self.pos
        pos = start
        while pos < len(text) and text[pos] in _BARE_KEY:
            pos += 1
        if pos == start:
            raise _Bail
        self.pos = pos
        return text[start:pos]

    def value(self) -> object:
        text, pos = self.text, self.pos
        char = text[pos : pos + 1]
        if char in ('"', "'"):
            if text.startswith(char * 3, pos):
                raise _Bail  # multi-line strings
            end = text.find(char, pos + 1)
            if end < 0:
                raise _Bail
            body = text[pos + 1 : end]
            if "\n" in body or (char == '"' and "\\" in body) or not _plain_text(body):
                raise _Bail
            self.pos = end + 1
            return body
        if char == "[":
            return self.array()
        if char == "{":
            return self.inline_table()
        end = pos
        while end < len(text) and text[end] not in _VALUE_END:
            end += 1
        token = text[pos:end]
        if token == "true":
            value: object = True
        elif token == "false":
            value = False
        else:
            value = _number(token)
            if value is None:
                raise _Bail  # dates, times, and anything tomllib refuses
        self.pos = end
        return value

    def array(self) -> list[object]:
        self.pos += 1
        items: list[object] = []
        self.skip_array_ws()
        if self.text.startswith("]", self.pos):
            self.pos += 1
            return items
        while True:
            items.append(self.value())
            self.skip_array_ws()
            char = self.text[self.pos : self.pos + 1]
            if char == "]":
                self.pos += 1
                return items
            if char != ",":
                raise _Bail
            self.pos += 1
            self.skip_array_ws()
            if self.text.startswith("]", self.pos):
                self.pos += 1
                return items

    def inline_table(self) -> dict[str, object]:
        self.pos += 1
        table: dict[str, object] = {}
        self.skip_ws()
        if self.text.startswith("}", self.pos):
            self.pos += 1
            return table
        while True:
            key = self.key()
            if key in table or not self.text.startswith("=", self.pos):
                raise _Bail
            self.pos += 1
            self.skip_ws()
            table[key] = self.value()
            self.skip_ws()
            char = self.text[self.pos : self.pos + 1]
            if char == "}":
                self.pos += 1
                return table
            if char != ",":
                raise _Bail
            self.pos += 1
            self.skip_ws()

    def walk(self, root: dict[str, object], parts: list[str]) -> dict[str, object]:
        """The table the header path ``parts`` passes through, creating missing tables."""
        table = root
        for part in parts:
            if part not in table:
                child: dict[str, object] = {}
                table[part] = child
                self.header_tables.add(id(child))
                table = child
                continue
            node = table[part]
            if isinstance(node, list) and id(node) in self.header_arrays:
                node = node[-1]
            if not isinstance(node, dict) or id(node) not in self.header_tables:
                raise _Bail  # into a value or an inline table: tomllib says what is wrong
            table = node
        return table

    def document(self) -> dict[str, object]:
        text = self.text
        root: dict[str, object] = {}
        current = root
        while True:
            self.skip_ws()
            if self.pos >= len(text):
                return root
            char = text[self.pos]
            if char == "\n":
                self.pos += 1
                continue
            if char in _BARE_KEY:
                key = self.key()
                if key in current or not text.startswith("=", self.pos):
                    raise _Bail
                self.pos += 1
                self.skip_ws()
                current[key] = self.value()
                self.skip_ws()
            elif char == "[":
                is_array = text.startswith("[[", self.pos)
                self.pos += 2 if is_array else 1
                parts = self.header_key()
                closing = "]]" if is_array else "]"
                if not text.startswith(closing, self.pos):
                    raise _Bail
                self.pos += len(closing)
                parent = self.walk(root, parts[:-1])
                last = parts[-1]
                table: dict[str, object] = {}
                if last not in parent:
                    if is_array:
                        array = [table]
                        self.header_arrays.add(id(array))
                        parent[last] = array
                    else:
                        parent[last] = table
                elif is_array and id(parent[last]) in self.header_arrays:
                    parent[last].append(table)  # type: ignore[attr-defined]
                else:
                    raise _Bail  # a table declared twice, or over a value
                self.header_tables.add(id(table))
                current = table
                self.skip_ws()
            elif char != "#":
                raise _Bail
            self.skip_comment()
            if self.pos >= len(text):
                return root
            if text[self.pos] != "\n":
                raise _Bail
            self.pos += 1


def loads(text: str) -> dict[str, object] | None:
    """``tomllib.loads(text)`` when the text is within the plain part of TOML this module
    reads (see the module's docstring), else None."""
    # tomllib reads CRLF line ends as LF; a lone CR is an error (tomllib's to report).
    text = text.replace("\r\n", "\n")
    if "\r" in text:
        return None
    try:
        return _Reader(text).document()
    except _Bail:
        return None
