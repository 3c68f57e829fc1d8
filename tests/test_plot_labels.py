"""Figures readable without the code: axis labels with units from the trace schema, titles
that say what is shown, step plots carried to the end of the run, whole-number axes for
sequence numbers."""

from __future__ import annotations

import matplotlib
import matplotlib.pyplot as plt
import numpy as np
import pytest

import ternsim
from ternsim import plot

EXAMPLES = "examples/umts_dch.toml"
ALL_TRACES = [
    "cwnd", "rtt", "rto", "segments", "acks", "tcp_events", "queues", "drops", "rlc",
    "rlc_buffer", "sdu_delay", "topology", "flow_series",
]  # fmt: skip


def test_every_column_the_core_writes_has_a_label_and_unit():
    result = ternsim.run(
        EXAMPLES, overrides={"duration": "3s", **{f"traces.{t}": True for t in ALL_TRACES}}
    )
    columns = {c for frame in result.traces.values() for c in frame.columns}
    assert columns >= {"time_s", "cwnd", "seq", "sn", "queue_len", "delay_s"}
    assert columns <= set(plot.TRACE_COLUMNS), columns - set(plot.TRACE_COLUMNS)


@pytest.mark.parametrize(
    ("column", "label"),
    [("cwnd", "congestion window (packets)"), ("rtt_s", "round-trip time (s)"), ("flow", "flow")],
)
def test_column_labels(column, label):
    assert plot.column_label(column) == label


@pytest.mark.parametrize(
    ("metric", "label"),
    [
        ("throughput_bps", "throughput (bit/s)"),
        ("delivered_bytes", "delivered (bytes)"),
        ("rtt_mean_s", "rtt mean (s)"),
        ("timeouts", "timeouts"),
    ],
)
def test_metric_labels(metric, label):
    assert plot.metric_label(metric) == label


def test_key_labels_name_the_quantity_first():
    assert plot.key_label("links.0.error_a_to_b.rate") == "rate of links.0.error_a_to_b"
    assert plot.key_label("duration") == "duration"


def test_a_step_plot_holds_its_last_value_to_the_end_of_the_run():
    fig, ax = plt.subplots()
    plot.step_to_end(ax, [0.0, 1.0, 2.0], [1.0, 2.0, 3.0], 10.0)
    x, y = ax.get_lines()[0].get_data()
    assert list(x) == [0.0, 1.0, 2.0, 10.0] and list(y) == [1.0, 2.0, 3.0, 3.0]
    plt.close(fig)


def test_a_trace_figure_has_title_units_and_spans_the_run(tmp_path, tiny_toml, monkeypatch):
    result = ternsim.run(tiny_toml, overrides={"traces.segments": True})
    folder = result.write(tmp_path / "run")
    figures = []
    monkeypatch.setattr(matplotlib.pyplot, "close", figures.append)
    plot.plot_trace(folder, trace="cwnd")
    plot.plot_trace(folder, trace="segments")
    monkeypatch.undo()
    cwnd, segments = (fig.axes[0] for fig in figures)
    assert cwnd.get_title() == "Congestion window: tiny, seed 1"
    assert cwnd.get_ylabel() == "congestion window (packets)"
    assert cwnd.get_xlabel() == "time (s)"
    assert cwnd.get_xlim() == (0.0, 3.0)
    assert cwnd.get_lines()[0].get_data()[0][-1] == 3.0  # carried to the end of the run
    assert cwnd.get_legend().get_title().get_text() == "flow"
    assert segments.get_ylabel() == "sequence number (segments)"
    ticks = segments.yaxis.get_major_locator()()
    assert np.allclose(ticks, np.round(ticks))  # whole segments only
    for fig in figures:
        plt.close(fig)
