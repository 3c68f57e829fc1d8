"""HTML reports: one self-contained file per sweep and per reproduction, rendered in headless
Chromium (Debian's ``chromium`` package): the screenshot is not blank and every embedded
figure decodes. Skipped, saying why, where Chromium is not installed."""

from __future__ import annotations

import html
import re
import shutil
import subprocess
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.image as mpimg  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from ternsim.experiments import report as rep  # noqa: E402
from ternsim.sweep import sweep  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None,
    reason="headless Chromium not installed (apt-get install chromium); .ci/run installs it",
)
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars"]


def reproduction_folder(folder: Path) -> rep.Report:
    """A report folder as an experiment leaves it: report.md, runs.csv and two figures."""
    folder.mkdir()
    for name, colour in (("fig_a.png", "tab:red"), ("fig_b.png", "tab:blue")):
        fig, ax = plt.subplots(figsize=(4, 3))
        ax.plot([0, 1, 2], [0, 1, 4], color=colour)
        rep.save_figure(fig, folder / name)
    (folder / rep.REPORT_FILE).write_text(
        "# t\n\n![Fig. A: a parabola](fig_a.png)\n\n![Fig. B: the same](fig_b.png)\n",
        encoding="utf-8",
    )
    pd.DataFrame({"seed": [1, 2, 1, 2], "flow": ["f"] * 4}).to_csv(folder / "runs.csv")
    claim = rep.Claim("throughput / capacity", "~0.9", [0.88, 0.9], paper_value=0.9, tolerance=0.05)
    summary = pd.DataFrame({"point": ["a"], "throughput": ["0.89 ± 0.01"]})
    return rep.Report("lo-umts", "A reproduction", folder, [claim], summary,
                      ["fig_a.png", "fig_b.png"], 0.0, True)  # fmt: skip


def test_a_reproduction_report_is_one_self_contained_file(tmp_path):
    folder = tmp_path / "report"
    report = reproduction_folder(folder)
    text = rep.report_html(report, folder, 12.34)
    assert text.count('src="data:image/png;base64,') == 2
    assert not re.search(r'(src|href)="(?!data:)', text)  # nothing fetched from elsewhere
    for fact in ("ternsim ", "(core ", "2 per point: 1, 2", "12.3 s", "~0.9", "Fig. A: a parabola"):
        assert fact in text, fact
    assert "scenarios/lo-umts/reno.toml" in text and "[[bearers]]" in text


def test_a_sweep_report_states_grid_seeds_versions_and_scenario(tmp_path, tiny_scenario):
    result = sweep(tiny_scenario, {"links.0.queue": [5, 10]}, seeds=2, jobs=1, progress=False,
                   out=tmp_path / "sw")  # fmt: skip
    text = html.unescape((tmp_path / "sw" / "report.html").read_text(encoding="utf-8"))
    assert "Sweep of tiny" in text and "links.0.queue" in text and "2: 1, 2" in text
    assert "4 (0 from the cache, 0 failed)" in text and '"rate": "1Mbps"' in text
    assert result.wall_seconds > 0


def render(page: Path, tmp_path: Path) -> tuple[str, object]:
    dom = subprocess.run(
        [CHROMIUM, *FLAGS, "--virtual-time-budget=20000", "--dump-dom", page.as_uri()],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert dom.returncode == 0, dom.stderr
    shot = tmp_path / f"{page.stem}.png"
    proc = subprocess.run(
        [CHROMIUM, *FLAGS, "--window-size=1200,1600", f"--screenshot={shot}", page.as_uri()],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert proc.returncode == 0 and shot.is_file(), proc.stderr
    return dom.stdout, mpimg.imread(shot)


def not_blank(pixels) -> bool:
    """More than 1 % of the pixels differ from the page background (white)."""
    rgb = pixels[..., :3]
    return float((rgb < 0.9).any(axis=-1).mean()) > 0.01


@needs_chromium
def test_reports_render_in_chromium_with_every_figure(tmp_path, tiny_scenario):
    folder = tmp_path / "report"
    report = reproduction_folder(folder)
    page = folder / rep.HTML_FILE
    page.write_text(rep.report_html(report, folder, 1.0), encoding="utf-8")
    dom, pixels = render(page, tmp_path)
    assert 'data-figures-loaded="2/2"' in dom
    assert not_blank(pixels)

    sweep(tiny_scenario, {"links.0.queue": [5]}, seeds=1, jobs=1, progress=False,
          out=tmp_path / "sw")  # fmt: skip
    dom, pixels = render(tmp_path / "sw" / "report.html", tmp_path)
    assert 'data-figures-loaded="0/0"' in dom and "Summary" in dom
    assert not_blank(pixels)
