"""What every paper reproduction shares: the side-by-side table, the report folder, figures.

This module owns:

* :class:`Claim`, one number (or statement) a paper makes beside ternsim's value, its 95 %
  confidence interval over seeds and whether the two agree within a stated tolerance;
* running a handful of traced single runs in parallel (:func:`traced_runs`), since sweeps
  record no traces;
* writing a report folder atomically (:func:`write_report_folder`): ``report.md`` with the
  tables and figures, ``claims.csv`` (the side-by-side table), the sweep files and whatever the
  experiment adds, all under a temporary name renamed into place;
* small helpers: Markdown tables, the rich table printed to the terminal, matplotlib (Agg).

It knows nothing about a particular paper; the experiment modules (``lo_umts``,
``costamagna_utra``) decide what to run, which claims to check and which figures to draw.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pandas as pd

from .._atomic import replace_folder
from ..sweep import ci95

__all__ = [
    "REPORT_FILE",
    "Claim",
    "Report",
    "claims_frame",
    "markdown_table",
    "pyplot",
    "rich_claims_table",
    "traced_runs",
    "write_report_folder",
]

#: The file every report folder has; it marks a folder as a ternsim report.
REPORT_FILE = "report.md"
#: The same report as one self-contained HTML file (figures embedded).
HTML_FILE = "report.html"


# --- claims --------------------------------------------------------------------------------


@dataclass
class Claim:
    """One statement of a paper beside ternsim's measurement.

    Attributes:
        quantity: what is compared, with its condition ("Reno throughput / 384 kb/s, TBLER 0").
        paper: the paper's value as text ("~0.96"), quoting its wording where it is vague.
        samples: ternsim's per-seed values (one per run); mean and CI are computed from them.
        fmt: format of the numbers (a ``format`` spec such as ``".3f"``).
        paper_value: the paper's number, if it gives one (for the tolerance check).
        tolerance: agreement when ``|mean - paper_value| <= tolerance`` (absolute), or the
            result of ``check`` when given; None leaves the verdict empty (informational).
        check: a predicate on the mean that decides agreement, for claims that are bounds or
            orderings rather than values.
        criterion: the agreement criterion as text (shown in the table).
        note: where the value comes from or why it differs.
    """

    quantity: str
    paper: str
    samples: Sequence[float] = ()
    fmt: str = ".3f"
    paper_value: float | None = None
    tolerance: float | None = None
    check: Callable[[float], bool] | None = None
    criterion: str = ""
    note: str = ""
    text: str | None = None
    #: ns-2's per-seed values of the same quantity (stored results of running ns-2 itself,
    #: :mod:`ternsim.experiments.ns2`); None where ns-2 cannot run the claim, with the reason
    #: in ``ns2_missing``.
    ns2: Sequence[float] | None = None
    ns2_missing: str = ""
    #: The paper-against-ns-2 verdict where the criterion depends on the side judged (the
    #: paper's value inside that side's own 95 % interval); None: the claim's criterion on
    #: ns-2's mean.
    ns2_judged: bool | None = None

    @property
    def stats(self) -> tuple[float, float, int, float]:
        return ci95([float(v) for v in self.samples])

    @property
    def ns2_stats(self) -> tuple[float, float, int, float]:
        return ci95([float(v) for v in (self.ns2 or [])])

    @property
    def has_ns2_column(self) -> bool:
        """Whether this claim is part of a table with an ns-2 column."""
        return self.ns2 is not None or bool(self.ns2_missing)

    @property
    def mean(self) -> float:
        return self.stats[0]

    @property
    def ci(self) -> float:
        return self.stats[1]

    @property
    def n(self) -> int:
        return self.stats[2]

    @property
    def agrees(self) -> bool | None:
        return self._judge(self.mean)

    @property
    def ns2_agrees(self) -> bool | None:
        """The claim's criterion applied to ns-2's mean (None: no criterion or no ns-2)."""
        if self.ns2_stats[2] == 0:
            return None
        if self.ns2_judged is not None:
            return self.ns2_judged
        return self._judge(self.ns2_stats[0])

    def _judge(self, mean: float) -> bool | None:
        if self.check is not None:
            return bool(self.check(mean))
        if self.paper_value is None or self.tolerance is None:
            return None
        if math.isnan(mean):
            return False
        return abs(mean - self.paper_value) <= self.tolerance

    def value_text(self) -> str:
        """ternsim's value: ``mean ± ci`` (or the mean alone for one sample)."""
        if self.text is not None:
            return self.text
        mean, ci, n, _ = self.stats
        if n == 0:
            return "n/a"
        if math.isnan(ci) or n < 2:
            return f"{mean:{self.fmt}}"
        return f"{mean:{self.fmt}} ± {ci:{self.fmt}}"

    def verdict(self) -> str:
        agrees = self.agrees
        return "" if agrees is None else ("yes" if agrees else "NO")

    def ns2_text(self) -> str:
        """ns-2's value: ``mean ± ci (n)``, ``—`` where ns-2 cannot run the claim."""
        if self.ns2 is None:
            return "—"
        mean, ci, n, _ = self.ns2_stats
        if n == 0:
            return "n/a"
        if math.isnan(ci) or n < 2:
            return f"{mean:{self.fmt}} (n = {n})"
        return f"{mean:{self.fmt}} ± {ci:{self.fmt}} (n = {n})"

    def ns2_verdict(self) -> str:
        """Paper against ns-2: the claim's criterion on ns-2's mean."""
        agrees = self.ns2_agrees
        return "" if agrees is None else ("yes" if agrees else "NO")

    def ns2_vs_ternsim(self) -> str:
        """ns-2 against ternsim: ``agrees`` or ``differs`` (see ns2.verdict)."""
        if self.ns2 is None or self.text is not None:
            return ""
        from .ns2 import verdict

        return verdict(self.ns2, self.samples)


def claims_frame(claims: Iterable[Claim]) -> pd.DataFrame:
    """The side-by-side table as a DataFrame (what ``claims.csv`` holds). Where the claims
    have an ns-2 column it adds ``ns2`` (text), ``ns2_mean``, ``ns2_ci95``, ``ns2_n``,
    ``ns2_agrees`` (the claim's criterion on ns-2's mean: paper against ns-2),
    ``ns2_vs_ternsim`` and ``ns2_note`` (why ns-2 cannot run a claim); ``agrees`` stays
    paper against ternsim."""
    claims = list(claims)
    with_ns2 = any(c.has_ns2_column for c in claims)
    rows = []
    for c in claims:
        mean, ci, n, _ = c.stats
        row = {
            "quantity": c.quantity,
            "paper": c.paper,
            "ternsim": c.value_text(),
            "mean": mean,
            "ci95": ci,
            "n": n,
            "criterion": c.criterion,
            "agrees": c.verdict(),
            "note": c.note,
        }
        if with_ns2:
            ns_mean, ns_ci, ns_n, _ = c.ns2_stats
            row.update(
                {
                    "ns2": c.ns2_text(),
                    "ns2_mean": ns_mean,
                    "ns2_ci95": ns_ci,
                    "ns2_n": ns_n,
                    "ns2_agrees": c.ns2_verdict(),
                    "ns2_vs_ternsim": c.ns2_vs_ternsim(),
                    "ns2_note": c.ns2_missing,
                }
            )
        rows.append(row)
    return pd.DataFrame(rows)


#: Column headings of the side-by-side table (Markdown, HTML) by claims-frame column.
HEADINGS = {
    "ternsim": "ternsim (mean ± 95 % CI)",
    "n": "n",
    "agrees": "paper vs ternsim",
    "ns2": "ns-2.35 (mean ± 95 % CI, n seeds)",
    "ns2_agrees": "paper vs ns-2",
    "ns2_vs_ternsim": "ns-2 vs ternsim",
}


def claims_display(claims: Sequence[Claim]) -> tuple[pd.DataFrame, list[str], list[str]]:
    """The side-by-side table ready to show: the frame with headings as column names, the
    columns to show, and the footnotes (why ns-2 cannot run a claim: its ``—`` cells carry
    a superscript number)."""
    frame = claims_frame(claims)
    notes: list[str] = []
    if "ns2" not in frame:
        frame = frame.rename(columns={"ternsim": HEADINGS["ternsim"]})
        cols = [HEADINGS["ternsim"] if c == "ternsim" else c for c in _PLAIN]
        return frame, cols, notes
    marks = []
    for text, reason in zip(frame["ns2"], frame["ns2_note"]):
        if text == "—" and reason:
            if reason not in notes:
                notes.append(reason)
            marks.append(f"—{_superscript(notes.index(reason) + 1)}")
        else:
            marks.append(text)
    frame["ns2"] = marks
    cols = ["quantity", "paper", "ns2", "ternsim", "n", "criterion", "agrees", "ns2_agrees",
            "ns2_vs_ternsim", "note"]  # fmt: skip
    frame = frame.rename(columns=HEADINGS)
    footnotes = [f"{_superscript(i)} {text}" for i, text in enumerate(notes, start=1)]
    return frame, [HEADINGS.get(c, c) for c in cols], footnotes


_PLAIN = ["quantity", "paper", "ternsim", "n", "criterion", "agrees", "note"]


def _superscript(i: int) -> str:
    return str(i).translate(str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹"))


def ns2_findings(claims: Sequence[Claim]) -> str:
    """Markdown: for every claim where the paper and ternsim disagree, what ns-2 shows (its
    value, and whether the claim's criterion holds for it and it agrees with ternsim)."""
    lines = []
    counts = {"ternsim off": 0, "paper off": 0, "neither": 0, "within spread": 0, "no ns-2": 0}
    for c in claims:
        if c.agrees is not False or not c.has_ns2_column:
            continue
        head = f"* **{c.quantity}**: paper {c.paper}, ternsim {c.value_text()}"
        if c.ns2 is None or c.ns2_stats[2] == 0:
            counts["no ns-2"] += 1
            lines.append(f"{head}; ns-2 cannot run it ({c.ns2_missing or 'no ns-2 value'}).")
            continue
        with_paper = c.ns2_agrees
        with_ternsim = c.ns2_vs_ternsim() == "agrees"
        if with_paper and not with_ternsim:
            counts["ternsim off"] += 1
            what = "ns-2 meets the paper's criterion and ternsim does not: ternsim is off"
        elif with_paper:
            counts["within spread"] += 1
            what = "ns-2 meets the paper's criterion, and ternsim is within ns-2's spread"
        elif with_ternsim:
            counts["paper off"] += 1
            what = (
                "ns-2 agrees with ternsim, not with the paper: stock ns-2.35 with this "
                "setup does not give the paper's value either"
            )
        else:
            counts["neither"] += 1
            what = "ns-2 agrees with neither"
        lines.append(f"{head}; ns-2.35 {c.ns2_text()}: {what}.")
    if not lines:
        return "Paper and ternsim agree on every claim with a verdict."
    total = sum(counts.values())
    summary = (
        f"{total} claim(s) where paper and ternsim disagree. ns-2 sides with ternsim "
        f"against the paper on {counts['paper off']}, meets the paper where ternsim does "
        f"not on {counts['ternsim off']}, meets the paper with ternsim inside its spread on "
        f"{counts['within spread']}, agrees with neither on {counts['neither']}, and cannot "
        f"run {counts['no ns-2']}."
    )
    return summary + "\n\n" + "\n".join(lines)


def rich_claims_table(claims: Sequence[Claim], title: str):
    """The side-by-side table as a rich Table (for the terminal); with an ns-2 column where
    the claims have one."""
    from rich import box
    from rich.table import Table

    with_ns2 = any(c.has_ns2_column for c in claims)
    table = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, show_lines=False)
    table.add_column("quantity", overflow="fold", ratio=4)
    table.add_column("paper", overflow="fold", ratio=2)
    if with_ns2:
        table.add_column("ns-2.35", justify="right", overflow="fold", ratio=2)
    table.add_column("ternsim (mean ± 95 % CI)", justify="right", overflow="fold", ratio=2)
    table.add_column("n", justify="right")
    table.add_column("agrees", justify="center")
    if with_ns2:
        table.add_column("ns-2 vs ternsim", justify="center")

    def styled(verdict: str) -> str:
        style = {"yes": "green", "agrees": "green", "NO": "red", "differs": "red"}.get(verdict)
        return f"[{style}]{verdict}[/]" if style else verdict

    for c in claims:
        cells = [c.quantity, c.paper]
        if with_ns2:
            cells.append(c.ns2_text())
        cells += [c.value_text(), str(c.n), styled(c.verdict())]
        if with_ns2:
            cells.append(styled(c.ns2_vs_ternsim()))
        table.add_row(*cells)
    return table


# --- Markdown ------------------------------------------------------------------------------


def _cell(value: Any) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    return str(value).replace("|", "\\|").replace("\n", " ")


def markdown_table(frame: pd.DataFrame, columns: Sequence[str] | None = None) -> str:
    """A GitHub Markdown table of ``frame`` (all columns unless ``columns`` is given)."""
    columns = list(columns) if columns is not None else list(frame.columns)
    lines = [
        "| " + " | ".join(_cell(c) for c in columns) + " |",
        "|" + "|".join("---" for _ in columns) + "|",
    ]
    for _, row in frame[columns].iterrows():
        lines.append("| " + " | ".join(_cell(row[c]) for c in columns) + " |")
    return "\n".join(lines)


def claims_markdown(claims: Sequence[Claim]) -> str:
    frame, cols, footnotes = claims_display(claims)
    text = markdown_table(frame, cols)
    if footnotes:
        text += "\n\n" + "\n".join(f"{f}  " for f in footnotes)
    return text


def mean_ci_text(samples: Sequence[float], fmt: str = ".3f") -> str:
    mean, ci, n, _ = ci95(list(samples))
    if n == 0:
        return "n/a"
    if n < 2 or math.isnan(ci):
        return f"{mean:{fmt}}"
    return f"{mean:{fmt}} ± {ci:{fmt}}"


# --- figures -------------------------------------------------------------------------------


def pyplot():
    """matplotlib.pyplot on the Agg backend (no display needed)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def save_figure(fig: Any, path: Path) -> Path:
    plt = pyplot()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


# --- traced runs ---------------------------------------------------------------------------


@dataclass
class TracedRun:
    """One traced single run: its label, seed, summary and traces (DataFrames)."""

    label: str
    seed: int
    summary: dict[str, Any]
    traces: dict[str, pd.DataFrame]
    scenario: dict[str, Any] = field(default_factory=dict)

    def trace(self, name: str) -> pd.DataFrame:
        return self.traces.get(name, pd.DataFrame())

    @property
    def flow(self) -> dict[str, Any]:
        return self.summary["flows"][0]


def _traced_worker(label: str, scenario: dict[str, Any], seed: int) -> TracedRun:
    from ..api import run

    result = run(scenario, seed=seed)
    return TracedRun(label, seed, result.summary, result.traces, scenario)


def traced_runs(
    specs: Sequence[tuple[str, Mapping[str, Any], int]], jobs: int | None = None
) -> list[TracedRun]:
    """Runs ``(label, scenario, seed)`` triples (scenarios as dicts, traces switched on) on a
    local process pool of ``jobs`` workers (default: CPU count), in the given order."""
    from ..sweep import _mp_context, record_traced_run

    n_jobs = max(1, min(jobs if jobs is not None else (os.cpu_count() or 1), len(specs)))
    if n_jobs <= 1:
        done = [_traced_worker(label, dict(s), seed) for label, s, seed in specs]
    else:
        with ProcessPoolExecutor(max_workers=n_jobs, mp_context=_mp_context()) as pool:
            futures = [
                pool.submit(_traced_worker, label, dict(s), seed) for label, s, seed in specs
            ]
            done = [f.result() for f in futures]
    for r in done:
        record_traced_run(r.label, r.seed, r.summary, r.scenario)
    return done


def add_traced_runs_to_run_table(
    folder: Path, traced: Sequence[tuple[str, int, Mapping[str, Any], Mapping[str, Any]]]
) -> None:
    """Appends the traced runs (one row per run and flow, ``traced_run`` naming the run, the
    grid keys read from its scenario) to the ``runs.csv`` and ``runs.parquet`` that the
    experiment's main sweep wrote into ``folder``, or writes them alone where the experiment
    ran no sweep, so that every reproduction lists every run it made."""
    if not traced:
        return
    from ..sweep import _arrow_safe, traced_run_rows

    parquet = folder / "runs.parquet"
    if parquet.is_file():
        runs = pd.read_parquet(parquet)
        grid_keys = list(runs.columns[: list(runs.columns).index("seed")])
        runs.insert(len(grid_keys), "traced_run", pd.Series([None] * len(runs), dtype=object))
        rows = traced_run_rows(traced, grid_keys)
        runs = pd.concat([runs, rows], ignore_index=True, sort=False)
    else:
        runs = traced_run_rows(traced)
    runs.to_csv(folder / "runs.csv", index=False)
    _arrow_safe(runs).to_parquet(parquet, index=False)


def write_traced(runs: Sequence[TracedRun], folder: Path) -> None:
    """Writes each traced run as a run folder ``<folder>/<label>-seed<seed>/``."""
    from ..api import RunResult

    for r in runs:
        RunResult(r.summary, r.traces, scenario=r.scenario).write(
            folder / f"{r.label}-seed{r.seed}"
        )


# --- the report ----------------------------------------------------------------------------


@dataclass
class Report:
    """What a reproduction produced (returned to the caller after the folder is written)."""

    id: str
    title: str
    folder: Path
    claims: list[Claim]
    summary: pd.DataFrame
    figures: list[str]
    wall_seconds: float
    quick: bool
    #: Runs the reproduction's sweeps made, and how many of them came from the cache.
    runs: int = 0
    cached: int = 0
    #: Traced single runs (behind the figures; never cached).
    traced: int = 0
    #: Where the ns-2 column comes from (one line), or why there is none.
    ns2_facts: str = ""

    def claims_frame(self) -> pd.DataFrame:
        return claims_frame(self.claims)


def write_report_folder(out: str | os.PathLike[str], fill: Callable[[Path], Report]) -> Report:
    """Creates the report folder ``out`` atomically: ``fill(tmp)`` writes everything into an
    empty temporary folder and returns the :class:`Report`; then ``claims.csv`` is added and
    the folder renamed into place. An existing ``out`` is replaced only if it is a report
    folder (holds ``report.md``) or empty."""
    holder: dict[str, Report] = {}
    start = time.perf_counter()

    def _fill(tmp: Path) -> None:
        report = fill(tmp)
        report.claims_frame().to_csv(tmp / "claims.csv", index=False)
        if not (tmp / REPORT_FILE).is_file():
            raise RuntimeError("the experiment did not write report.md")
        html_text = report_html(report, tmp, time.perf_counter() - start)
        (tmp / HTML_FILE).write_text(html_text, encoding="utf-8")
        holder["report"] = report

    folder = replace_folder(out, _fill, marker=REPORT_FILE)
    report = holder["report"]
    report.folder = folder
    report.wall_seconds = time.perf_counter() - start
    return report


def report_html(report: Report, folder: Path, wall_seconds: float) -> str:
    """``report.html``: the report in one offline file (figures embedded), with the
    side-by-side table, the sweep summary, the scenario files, versions, seeds and wall time."""
    import html
    import re

    from .. import html_report as h
    from ..paths import SCENARIOS

    markdown = (folder / REPORT_FILE).read_text(encoding="utf-8")
    captions = dict((f, c) for c, f in re.findall(r"!\[([^\]]*)\]\(([^)]+)\)", markdown))
    seeds = "n/a"
    if (folder / "runs.csv").is_file():
        values = sorted(pd.read_csv(folder / "runs.csv", usecols=["seed"])["seed"].unique())
        seeds = f"{len(values)} per point: {', '.join(str(int(v)) for v in values)}"
    facts = [
        ("experiment", f"{report.id} ({'quick' if report.quick else 'full'} mode)"),
        ("version", h.versions()),
        ("seeds", seeds),
        ("wall time", f"{wall_seconds:.1f} s"),
        ("command", f"ternsim reproduce {report.id}{' --quick' if report.quick else ''}"),
    ]
    if report.ns2_facts:
        facts.append(("ns-2 column", report.ns2_facts.replace("`", "")))
    claims, cols, footnotes = claims_display(report.claims)
    claims_html = h.frame_table(claims, [c for c in cols if c in claims])
    if footnotes:
        claims_html += "".join(f"<p>{html.escape(f)}</p>" for f in footnotes)
    figures = "".join(
        h.figure_tag(folder / f, captions.get(f, f))
        for f in report.figures
        if (folder / f).is_file()
    )
    scenario_files = sorted((SCENARIOS / report.id).glob("*.toml"))
    scenarios = "".join(
        f"<h3>scenarios/{report.id}/{p.name}</h3>" + h.preformatted(p.read_text(encoding="utf-8"))
        for p in scenario_files
    )
    sections = [
        ("Paper against ternsim", claims_html),
        ("Summary of the sweep (mean ± 95 % CI over seeds)", h.frame_table(report.summary)),
        ("Figures", figures or "<p>(none)</p>"),
        ("Scenarios", scenarios or "<p>(none)</p>"),
    ]
    return h.page(report.title, facts, sections)


def render_markdown(
    title: str,
    intro: str,
    claims: Sequence[Claim],
    summary_md: str,
    figures: Sequence[tuple[str, str]],
    extra: Sequence[str] = (),
    ns2_facts: str = "",
) -> str:
    """The text of ``report.md``: title, intro, the side-by-side table (with the ns-2 column
    where the claims have one, ``ns2_facts`` saying where it comes from, and what ns-2 shows
    where paper and ternsim disagree), the summary table, the figures (``(file, caption)``)
    and extra sections (Markdown)."""
    parts = [f"# {title}", "", intro.strip(), ""]
    parts += ["## Paper against ternsim", ""]
    if ns2_facts:
        parts += [ns2_facts.strip(), ""]
    parts += [claims_markdown(claims), ""]
    if any(c.has_ns2_column for c in claims):
        parts += ["## Where paper and ternsim disagree: what ns-2 shows", ""]
        parts += [ns2_findings(claims), ""]
    parts += ["## Summary of the sweep (mean ± 95 % CI over seeds)", "", summary_md, ""]
    parts += ["## Figures", ""]
    for file, caption in figures:
        parts += [f"**{caption}**", "", f"![{caption}]({file})", ""]
    for section in extra:
        parts += [section.strip(), ""]
    return "\n".join(parts)


def per_seed(
    runs: pd.DataFrame, metric: str, where: Mapping[str, Any], transform=None
) -> list[float]:
    """The values of ``metric`` in ``runs`` rows matching ``where`` (column → value), in seed
    order, skipping failed runs; ``transform`` maps each value."""
    rows = runs
    if "error" in rows:
        rows = rows[rows["error"].isna()]
    for key, value in where.items():
        if isinstance(value, float):
            rows = rows[np.isclose(rows[key].astype(float), value)]
        else:
            rows = rows[rows[key] == value]
    rows = rows.sort_values("seed")
    values = rows[metric].astype(float).tolist()
    return [transform(v) for v in values] if transform else values


def mode_and_scenario(
    path: str, quick: bool, seeds: int | None, full: tuple[int, float], fast: tuple[int, float]
) -> tuple[int, float, dict[str, Any]]:
    """Seeds per point, run duration (s) and the base scenario of an experiment: ``full`` or
    (with ``quick``) ``fast`` as (seeds, seconds); ``seeds`` overrides the mode's count."""
    from ..api import load_scenario

    n_seeds, duration = fast if quick else full
    base = load_scenario(path)
    base["duration"] = f"{duration:g}s"
    return seeds or n_seeds, duration, base
