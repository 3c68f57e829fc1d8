"""ternsim._json_plain against json: the canonical scenario text and the summary read back
are exactly what json.dumps and json.loads give."""

from __future__ import annotations

import json
import math

import pytest

from ternsim import _json_plain, api
from ternsim.paths import SCENARIOS


def reference(value: object) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@pytest.mark.parametrize(
    "path", sorted(SCENARIOS.rglob("*.toml")), ids=lambda p: str(p.relative_to(SCENARIOS))
)
def test_the_shipped_scenarios_are_written_as_json_writes_them(path):
    scenario = api.load_scenario(path)
    assert _json_plain.canonical(scenario) == reference(scenario)


class Str(str):
    pass


VALUES = [
    {},
    [],
    (),
    {"b": 1, "a": [1.5, -0.0, 1e300, 5e-324, 10**30, True, False, None, (1, "x")]},
    {"z": {"y": {}, "x": []}, "é": "caf\u00e9 \u2028 \x7f \t"},
    "tab\there",
    'quote " inside',
    "back\\slash",
    "line\nbreak",
    "\x01",
    float("nan"),
    float("inf"),
    {"nested": [{"n": -float("inf")}]},
    {1: "int key"},
    {"k": Str("sub")},
    {Str("k"): 1},
    [math.pi, 0.1 + 0.2, 1 / 3],
    "\ud800",  # a lone surrogate
]


@pytest.mark.parametrize("value", VALUES, ids=repr)
def test_values_are_written_as_json_writes_them(value):
    assert _json_plain.canonical(value) == reference(value)


def run_summary(path, **overrides) -> str:
    from ternsim import _native

    scenario = api.prepare(path, {"duration": "20s", **overrides})
    return _native.core().run(api.scenario_json(scenario), 1)["summary"]


@pytest.mark.parametrize(
    "name",
    [
        "conformance/wired.toml",
        "examples/dumbbell.toml",
        "examples/umts_dch.toml",
        "examples/wifi_chain.toml",
    ],
)
def test_summaries_are_read_as_json_reads_them(name):
    text = run_summary(SCENARIOS / name)
    assert repr(_json_plain.loads(text)) == repr(json.loads(text))  # key order too


@pytest.mark.parametrize(
    "text",
    ['{"a": 1}', '{"a": 1}  \n', ' {"a": 1}', '{"a": NaN, "b": -Infinity}', '{"a": 1.0e5}'],
)
def test_other_texts_are_read_as_json_reads_them(text):
    got, want = _json_plain.loads(text), json.loads(text)
    assert repr(got) == repr(want)


@pytest.mark.parametrize("text", ['{"a": 1', '{"a": 1} x', "{}{}", '{"a": 1,}', "\ufeff{}"])
def test_bad_texts_fail_as_in_json(text):
    with pytest.raises(json.JSONDecodeError) as want:
        json.loads(text)
    with pytest.raises(json.JSONDecodeError) as got:
        _json_plain.loads(text)
    assert str(got.value) == str(want.value)
