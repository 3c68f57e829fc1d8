"""Terminal output of the commands: lines of text and tables, printed by rich, or by this
module without loading rich wherever rich would print plain text.

This module owns the two consoles of the ``ternsim`` command (stdout for tables, stderr for
everything else; see :mod:`ternsim.cli`) and how a list of blocks (:class:`Line`,
:class:`Table`, :data:`BLANK`) is printed on them. rich takes about 35 ms to import, as much as
a whole short run: when the stream is not a terminal, the text is printable ASCII without
markup or emoji codes and every table fits the width, the blocks are laid out here exactly as
rich lays them out (tests/test_cli_fast.py compares the two byte for byte); anything else goes
to rich.
"""

from __future__ import annotations

import os
import sys

# typing.TYPE_CHECKING without importing typing (about 5 ms, on the path of every run).
TYPE_CHECKING = False
if TYPE_CHECKING:  # rich loads only when it prints
    from collections.abc import Iterator
    from typing import Any, Union

    from rich.console import Console
    from rich.table import Table as RichTable

__all__ = ["BLANK", "Blank", "Line", "Table", "console", "emit", "rich_table"]


# Plain classes rather than NamedTuple or dataclass: each of those costs a millisecond or more
# at import, and this module is on the path of every run.
class Line:
    """One paragraph: ``spans`` of ``(text, style)`` (style None or a rich style such as
    ``"bold"``), printed in ``style`` as a whole and word-wrapped to the width."""

    __slots__ = ("spans", "style")

    def __init__(self, spans: tuple[tuple[str, str | None], ...], style: str | None = None) -> None:
        self.spans = spans
        self.style = style


class Table:
    """A table with a left-justified title; the ``left`` columns are left-justified, the
    others right-justified; cells never wrap. ``rows`` are lists of cell strings."""

    __slots__ = ("columns", "left", "rows", "title")

    def __init__(
        self,
        title: str,
        columns: list[str],
        left: tuple[str, ...],
        rows: list[list[str]] | None = None,
    ) -> None:
        self.title = title
        self.columns = columns
        self.left = left
        self.rows = [] if rows is None else rows


class Blank:
    """An empty line."""

    __slots__ = ()


BLANK = Blank()
if TYPE_CHECKING:  # a type for annotations only: building the Union needs typing
    Block = Union[Line, Table, Blank]

_consoles: dict[bool, Console] = {}


def console(stderr: bool = False) -> Console:
    """The rich console on stdout (or stderr), created on first use; it writes to whatever
    ``sys.stdout`` (``sys.stderr``) is at the time of printing."""
    if stderr not in _consoles:
        from rich.console import Console

        # highlight off: numbers and paths print as given, never recoloured.
        _consoles[stderr] = Console(stderr=stderr, highlight=False)
    return _consoles[stderr]


def rich_table(title: str, columns: list[str], left: tuple[str, ...]) -> RichTable:
    """The table layout of every command: a title, a rule under the header, no frame. Laid out
    to fit 80 columns, rich's width off a terminal."""
    from rich import box
    from rich.table import Table as RichTable

    table = RichTable(title=title, title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False)
    for column in columns:
        table.add_column(column, justify="left" if column in left else "right", no_wrap=True)
    return table


def emit(blocks: list[Block], *, stderr: bool = False) -> None:
    """Prints ``blocks`` on stdout (or stderr): as plain text when rich would print nothing
    else there, through rich otherwise."""
    stream = sys.stderr if stderr else sys.stdout
    width = _plain_width(stream)
    text = None if width is None else _plain(blocks, width)
    if text is None:
        _emit_rich(blocks, console(stderr))
    else:
        stream.write(text)
        stream.flush()


def _emit_rich(blocks: list[Block], out: Console) -> None:
    for block in blocks:
        if isinstance(block, Line):
            spans = block.spans
            markup = "".join(f"[{style}]{text}[/]" if style else text for text, style in spans)
            out.print(markup, style=block.style)
        elif isinstance(block, Table):
            table = rich_table(block.title, block.columns, block.left)
            for row in block.rows:
                table.add_row(*row)
            out.print(table)
        else:
            out.print()


# ---- plain text, laid out as rich lays it out ---------------------------------------------


def _plain_width(stream: Any) -> int | None:
    """The width rich would lay out at on ``stream`` if it printed there without escape codes
    (not a terminal, no colour forced, not Jupyter, not Windows, a UTF encoding); else None.
    Mirrors rich.console.Console's is_terminal, size and encoding."""
    environ = os.environ
    if sys.platform == "win32" or "FORCE_COLOR" in environ or "TTY_COMPATIBLE" in environ:
        return None
    import builtins

    if hasattr(builtins, "get_ipython"):
        return None
    isatty = getattr(stream, "isatty", None)
    try:
        if isatty is not None and isatty():
            return None
    except ValueError:  # a closed stream: rich treats it as no terminal
        pass
    encoding = (getattr(stream, "encoding", "utf-8") or "utf-8").lower()
    if not encoding.startswith("utf"):
        return None  # rich would draw the rules in ASCII
    columns = environ.get("COLUMNS")
    if columns is not None and columns.isdigit():
        width = int(columns)
    else:
        width = 0
        for fd in _std_fds():
            try:
                width = os.get_terminal_size(fd).columns
            except (AttributeError, ValueError, OSError):
                continue
            break
        width = width or 80
    return width if width > 0 else None


def _std_fds() -> tuple[int, int, int]:
    fds = []
    for stream, default in ((sys.__stdin__, 0), (sys.__stdout__, 1), (sys.__stderr__, 2)):
        try:
            fds.append(stream.fileno())  # type: ignore[union-attr]
        except Exception:  # noqa: BLE001 - rich falls back to the usual number on any error
            fds.append(default)
    return fds[0], fds[1], fds[2]


def _plain_ok(text: str) -> bool:
    """Whether rich prints ``text`` as it is: printable ASCII (one cell per character) without
    ``[`` (rich markup) or a backslash (its escape), and without two colons with no space
    between them (rich reads ``:name:`` as an emoji code). String tests, not regular
    expressions: compiling those would cost more than the tests."""
    if not (text.isascii() and text.isprintable()) or "[" in text or "\\" in text:
        return False
    return all(" " in between for between in text.split(":")[1:-1])


def _plain_cell(text: str) -> bool:
    # rich strips the trailing spaces of a right-justified cell: cells with outer spaces go to
    # rich.
    return _plain_ok(text) and text == text.strip(" ")


def _plain(blocks: list[Block], width: int) -> str | None:
    """The blocks as rich prints them at ``width`` without escape codes, or None when one of
    them is outside what this module lays out."""
    out: list[str] = []
    for block in blocks:
        if isinstance(block, Line):
            text = "".join(text for text, _ in block.spans)
            if not all(_plain_ok(t) for t, _ in block.spans) or not _plain_ok(text):
                return None
            out.extend(_wrap(text, width))
        elif isinstance(block, Table):
            lines = _plain_table(block, width)
            if lines is None:
                return None
            out.extend(lines)
        else:
            out.append("")
    return "".join(line + "\n" for line in out)


def _words(text: str) -> Iterator[tuple[int, str]]:
    """``(start, word)`` for each word of ``text`` as rich's wrap splits it (rich._wrap.words,
    the regular expression ``\\s*\\S+\\s*``): a run of non-spaces with the spaces after it,
    the first word also with the spaces before it. ``text`` holds no whitespace but spaces."""
    i, n = 0, len(text)
    while i < n:
        start = i
        while i < n and text[i] == " ":
            i += 1
        if i == n:
            return  # only spaces left: not a word
        while i < n and text[i] != " ":
            i += 1
        while i < n and text[i] == " ":
            i += 1
        yield start, text[start:i]


def _wrap(text: str, width: int) -> list[str]:
    """rich's word wrap of one line of single-cell text (rich._wrap.divide_line, folding words
    longer than the width, then Text.rstrip_end and a crop to the width)."""
    breaks: list[int] = []
    offset = 0
    for start, word in _words(text):
        word_length = len(word.rstrip(" "))
        if width - offset >= word_length:
            offset += len(word)
        elif word_length > width:
            chunks = [word[i : i + width] for i in range(0, len(word), width)]
            for index, chunk in enumerate(chunks):
                if start:
                    breaks.append(start)
                if index == len(chunks) - 1:
                    offset = len(chunk)
                else:
                    start += len(chunk)
        elif offset and start:
            breaks.append(start)
            offset = len(word)
    bounds = [0, *breaks, len(text)]
    lines = []
    for start, end in zip(bounds, bounds[1:]):
        line = text[start:end]
        if len(line) > width:
            trailing = len(line) - len(line.rstrip(" "))
            line = line[: len(line) - min(trailing, len(line) - width)]
        lines.append(line[:width])
    return lines


def _plain_table(table: Table, width: int) -> list[str] | None:
    """rich's rendering of :func:`rich_table` when it fits ``width``: the title padded to the
    table's width, a blank top edge, the header, a rule, the rows and a blank bottom edge.
    Columns are as wide as their widest cell plus one space of padding between columns."""
    columns = table.columns
    if not columns or any(len(row) != len(columns) for row in table.rows):
        return None
    last = len(columns) - 1
    cells = [[column, *(row[i] for row in table.rows)] for i, column in enumerate(columns)]
    if not all(_plain_cell(c) for col in cells for c in col) or not _plain_ok(table.title):
        return None
    content = [max(len(c) for c in col) for col in cells]
    pads = [(0 if i == 0 else 1, 0 if i == last else 1) for i in range(len(columns))]
    widths = [max(w + left + right, 1) for w, (left, right) in zip(content, pads)]
    table_width = sum(widths) + len(columns) + 1
    if table_width > width or len(table.title) > table_width:
        return None

    def line(row: list[str]) -> str:
        parts = []
        for i, cell in enumerate(row):
            left, right = pads[i]
            inner = widths[i] - left - right
            body = cell.ljust(inner) if columns[i] in table.left else cell.rjust(inner)
            parts.append(" " * left + body + " " * right)
        return " " + " ".join(parts) + " "

    blank = " " * table_width
    lines = [table.title.ljust(table_width)] if table.title else []  # rich skips an empty title
    lines += [blank, line(columns)]
    lines.append(" " + "─" * (table_width - 2) + " ")
    lines.extend(line(row) for row in table.rows)
    lines.append(blank)
    return lines
