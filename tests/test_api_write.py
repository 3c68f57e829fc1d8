"""Result folders and atomic writes, and decoding the core's trace payloads (no core needed:
the payloads are built here in the documented format)."""

from __future__ import annotations

import json
import struct

import numpy as np
import pandas as pd
import pytest

from ternsim._atomic import replace_files, replace_folder
from ternsim.api import RunResult, records_frame, trace_frame

SUMMARY = {
    "scenario": "hand",
    "seed": 7,
    "version": "test",
    "sim_seconds": 1.0,
    "wall_seconds": 0.01,
    "events": 10,
    "flows": [
        {"name": "reno", "tcp": "reno", "throughput_bps": 1e5, "rtt_min_s": 0.02},
        {"name": "vegas", "tcp": "vegas", "throughput_bps": 2e5, "rtt_min_s": None},
    ],
    "links": [
        {"name": "ab", "direction": "a_to_b", "packets_sent": 3},
        {"name": "ab", "direction": "b_to_a", "packets_sent": 2},
        {"name": "bc", "direction": "a_to_b", "packets_sent": 1},
        {"name": "bc", "direction": "b_to_a", "packets_sent": 0},
    ],
    "packets": {"created": 4, "delivered": 3, "dropped": 1, "in_flight": 0},
}


def f64(*xs):
    return ("f64", struct.pack(f"<{len(xs)}d", *xs))


def i64(*xs):
    return ("i64", struct.pack(f"<{len(xs)}q", *xs))


def test_trace_frame_names_flows_and_keeps_core_names():
    frame = trace_frame(
        {
            "time_s": f64(0.5, 1.0, 1.5),
            "link": ("str", ["bc", "ab", "bc"]),
            "direction": ("str", ["b_to_a", "a_to_b", "a_to_b"]),
            "reason": ("str", ["queue", "error", "queue"]),
            "flow": i64(1, 0, 1),
            "seq": i64(4, 5, 6),
            "retransmission": ("u8", bytes([0, 1, 0])),
        },
        SUMMARY,
    )
    assert list(frame.columns) == [
        "time_s", "link", "direction", "reason", "flow", "seq", "retransmission",
    ]  # fmt: skip
    assert frame["time_s"].tolist() == [0.5, 1.0, 1.5]
    assert frame["link"].astype(str).tolist() == ["bc", "ab", "bc"]
    assert frame["link"].dtype == "category"
    assert frame["direction"].astype(str).tolist() == ["b_to_a", "a_to_b", "a_to_b"]
    assert frame["flow"].astype(str).tolist() == ["vegas", "reno", "vegas"]
    assert list(frame["flow"].cat.categories) == ["reno", "vegas"]
    assert frame["reason"].dtype == "category"
    assert frame["seq"].dtype == np.int64
    assert frame["retransmission"].tolist() == [0, 1, 0]


def test_trace_frame_of_an_empty_trace_has_its_columns():
    frame = trace_frame({"time_s": f64(), "flow": i64(), "cwnd": f64()}, SUMMARY)
    assert list(frame.columns) == ["time_s", "flow", "cwnd"] and frame.empty


def test_records_frame_makes_nullable_numbers_float():
    flows = records_frame(SUMMARY["flows"])
    assert flows["rtt_min_s"].dtype == float
    assert np.isnan(flows["rtt_min_s"][1])
    assert flows["name"].tolist() == ["reno", "vegas"]


def _result() -> RunResult:
    cwnd = pd.DataFrame(
        {"time_s": [0.0, 0.5], "flow": pd.Categorical(["reno", "vegas"]), "cwnd": [1.0, 2.0]}
    )
    return RunResult(SUMMARY, {"cwnd": cwnd}, scenario={"name": "hand"})


def test_write_and_read_a_run_folder(tmp_path):
    folder = _result().write(tmp_path / "run", formats=("parquet", "csv"))
    names = sorted(p.name for p in folder.iterdir())
    assert names == [
        "cwnd.csv", "cwnd.parquet", "flows.csv", "links.csv", "scenario.json", "summary.json",
    ]  # fmt: skip
    assert json.loads((folder / "summary.json").read_text()) == SUMMARY
    assert pd.read_csv(folder / "flows.csv")["name"].tolist() == ["reno", "vegas"]
    back = RunResult.read(folder)
    assert back.summary == SUMMARY and back.scenario == {"name": "hand"}
    assert back.trace("cwnd")["flow"].astype(str).tolist() == ["reno", "vegas"]
    with pytest.raises(KeyError, match="traces.rtt=true"):
        back.trace("rtt")


def test_write_refuses_unknown_formats(tmp_path):
    with pytest.raises(ValueError, match="formats"):
        _result().write(tmp_path / "run", formats=("xlsx",))


def test_a_failed_write_leaves_the_old_result_intact(tmp_path):
    folder = _result().write(tmp_path / "run")
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    broken = RunResult(
        {**SUMMARY, "seed": 8},
        {"bad": pd.DataFrame({"x": [1, "not a number"]})},  # Parquet cannot store this column
    )
    with pytest.raises(Exception):  # noqa: B017 - whatever pyarrow raises
        broken.write(folder)
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before
    assert [p.name for p in tmp_path.iterdir()] == ["run"]  # no temporary folder left


def test_a_successful_write_replaces_the_old_result(tmp_path):
    folder = _result().write(tmp_path / "run")
    (folder / "stale.parquet").write_bytes(b"old")
    RunResult({**SUMMARY, "seed": 9}).write(folder)
    assert json.loads((folder / "summary.json").read_text())["seed"] == 9
    assert not (folder / "stale.parquet").exists()
    assert [p.name for p in tmp_path.iterdir()] == ["run"]


def test_write_refuses_to_replace_a_folder_that_is_not_a_result(tmp_path):
    precious = tmp_path / "work"
    precious.mkdir()
    (precious / "notes.txt").write_text("keep me")
    with pytest.raises(FileExistsError, match="not a ternsim result folder"):
        _result().write(precious)
    assert (precious / "notes.txt").read_text() == "keep me"


def test_replace_folder_into_an_empty_folder(tmp_path):
    (tmp_path / "empty").mkdir()
    replace_folder(tmp_path / "empty", lambda p: (p / "m").write_text("x"), marker="m")
    assert (tmp_path / "empty" / "m").read_text() == "x"


def test_replace_files_touches_nothing_when_one_writer_fails(tmp_path):
    (tmp_path / "a.csv").write_text("old a")
    (tmp_path / "b.csv").write_text("old b")

    def fail(path):
        path.write_text("half")
        raise OSError("disk full")

    with pytest.raises(OSError, match="disk full"):
        replace_files(
            {tmp_path / "a.csv": lambda p: p.write_text("new a"), tmp_path / "b.csv": fail}
        )
    assert (tmp_path / "a.csv").read_text() == "old a"
    assert (tmp_path / "b.csv").read_text() == "old b"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.csv", "b.csv"]

    replace_files({tmp_path / "a.csv": lambda p: p.write_text("new a")})
    assert (tmp_path / "a.csv").read_text() == "new a"
