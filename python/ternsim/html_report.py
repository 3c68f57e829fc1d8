"""Self-contained HTML reports: one file that opens offline, figures embedded.

This module owns the HTML of a reproduction's ``report.html`` and a sweep's ``report.html``:
a heading, the facts that make a result repeatable (ternsim and core versions, seeds, wall
time), tables, the figures as base64 ``data:`` images (PNG or SVG) and the scenario text. It
loads nothing from the network and needs no files beside it. It does not compute anything a
report shows; callers hand it finished tables and figure files.
"""

from __future__ import annotations

import base64
import html
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

__all__ = ["figure_tag", "frame_table", "page"]

_MIME = {".png": "image/png", ".svg": "image/svg+xml"}

_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 70em; color: #222;
       background: #fff; line-height: 1.4; padding: 0 1em; }
h1 { font-size: 1.6em; } h2 { font-size: 1.25em; margin-top: 1.6em; }
table { border-collapse: collapse; margin: 0.5em 0; font-size: 0.9em; }
th, td { border: 1px solid #bbb; padding: 0.25em 0.6em; text-align: left; vertical-align: top; }
th { background: #eef; }
dl.facts { display: grid; grid-template-columns: max-content auto; gap: 0.2em 1em; }
dl.facts dt { font-weight: 600; }
figure { margin: 1em 0; } figure img { max-width: 100%; border: 1px solid #ddd; }
figcaption { font-size: 0.9em; color: #444; }
pre { background: #f6f6f6; padding: 0.8em; overflow-x: auto; font-size: 0.85em; }
"""


# Marks on <body> how many figures decoded once the page has loaded ("3/3"): a check for
# browsers and tests that every embedded image is intact. Nothing is fetched.
_LOADED_SCRIPT = (
    "window.addEventListener('load',function(){var i=document.querySelectorAll('img.figure'),"
    "n=0;i.forEach(function(e){if(e.complete&&e.naturalWidth>0)n++;});"
    "document.body.setAttribute('data-figures-loaded',n+'/'+i.length);});"
)


def figure_tag(path: str | os.PathLike[str], caption: str) -> str:
    """A ``<figure>`` with the image at ``path`` embedded as a base64 data URL."""
    path = Path(path)
    mime = _MIME.get(path.suffix.lower())
    if mime is None:
        raise ValueError(f"{path}: only PNG and SVG figures can be embedded")
    data = base64.b64encode(path.read_bytes()).decode("ascii")
    alt = html.escape(caption, quote=True)
    return (
        f'<figure><img class="figure" alt="{alt}" src="data:{mime};base64,{data}">'
        f"<figcaption>{html.escape(caption)}</figcaption></figure>"
    )


def frame_table(frame: Any, columns: Sequence[str] | None = None) -> str:
    """An HTML table of a DataFrame's rows (``columns`` in order, or all); cells as text."""
    columns = list(columns) if columns is not None else list(frame.columns)
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in columns)
    rows = []
    # Row tuples keep each column's own type (iterrows would make a row of ints and floats
    # all floats) and cost a fraction of a Series per row.
    for row in frame[columns].itertuples(index=False, name=None):
        cells = "".join(f"<td>{html.escape(_text(v))}</td>" for v in row)
        rows.append(f"<tr>{cells}</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def _text(value: Any) -> str:
    if value is None or (isinstance(value, float) and value != value):
        return ""
    if isinstance(value, float):
        return f"{value:.6g}"
    return str(value)


def page(
    title: str,
    facts: Sequence[tuple[str, str]],
    sections: Sequence[tuple[str, str]],
) -> str:
    """The whole document: ``title``, a list of facts (label, value), then sections
    (heading, HTML body already escaped by the caller's helpers)."""
    facts_html = "".join(f"<dt>{html.escape(k)}</dt><dd>{html.escape(v)}</dd>" for k, v in facts)
    body = "".join(f"<h2>{html.escape(h)}</h2>{content}" for h, content in sections)
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{html.escape(title)}</title><style>{_STYLE}</style></head>"
        f'<body><h1>{html.escape(title)}</h1><dl class="facts">{facts_html}</dl>'
        f"{body}<script>{_LOADED_SCRIPT}</script></body></html>\n"
    )


def preformatted(text: str) -> str:
    return f"<pre>{html.escape(text)}</pre>"


def versions() -> str:
    """``ternsim X (core Y)``."""
    from . import __version__, _native

    try:
        core = _native.core_version()
    except ImportError:  # pragma: no cover - the core is built wherever a report is written
        core = "not built"
    return f"ternsim {__version__} (core {core})"
