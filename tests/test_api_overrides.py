"""Overrides, value parsing, scenario loading and the canonical JSON (no core needed)."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ternsim import ScenarioError, apply_overrides, load_scenario, parse_value, scenario_json
from ternsim.api import parse_assignment

# --- values ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("3", 3),
        ("-3", -3),
        ("0.01", 0.01),
        ("1e-3", 0.001),
        ("true", True),
        ("false", False),
        ('"vegas"', "vegas"),
        ("'vegas'", "vegas"),
        ("vegas", "vegas"),
        ("10ms", "10ms"),
        ("384kbps", "384kbps"),
        ("5parsecs", "5parsecs"),
        ("-1Mbps", "-1Mbps"),
        ('"1"', "1"),
        ("  7  ", 7),
        ("", ""),
        ("[1, 2]", [1, 2]),
        ('{model = "iid", rate = 0.1}', {"model": "iid", "rate": 0.1}),
        ("1979-05-27", "1979-05-27"),  # a TOML date is not a scenario value: kept as text
        ("1 = 2", "1 = 2"),
    ],
)
def test_parse_value_reads_toml_scalars_and_bare_strings(text, expected):
    value = parse_value(text)
    assert value == expected
    assert type(value) is type(expected)


def test_parse_value_keeps_multiline_text_whole():
    assert parse_value("1\nname = 2") == "1\nname = 2"


@given(st.integers(min_value=-(2**63), max_value=2**63 - 1))
def test_parse_value_round_trips_integers(n):
    assert parse_value(str(n)) == n


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_parse_value_round_trips_floats(x):
    value = parse_value(repr(x))
    assert isinstance(value, float) and value == x


@given(st.text(st.characters(blacklist_categories=("Cs", "Cc"))))
def test_parse_value_round_trips_quoted_strings(s):
    assert parse_value(json.dumps(s, ensure_ascii=False)) == s


def test_parse_assignment_splits_at_first_equals():
    assert parse_assignment("flows.0.name = a=b") == ("flows.0.name", "a=b")
    with pytest.raises(ScenarioError, match="KEY=VALUE"):
        parse_assignment("flows.0.tcp")
    with pytest.raises(ScenarioError):
        parse_assignment("=3")


# --- applying overrides --------------------------------------------------------------------


@pytest.fixture
def scenario():
    return {
        "name": "s",
        "duration": "10s",
        "nodes": [{"name": "a"}, {"name": "b"}],
        "links": [
            {"a": "a", "b": "b", "rate": "1Mbps", "delay": "5ms"},
            {"a": "b", "b": "a", "rate": "2Mbps", "delay": "5ms"},
        ],
        "flows": [{"src": "a", "dst": "b", "tcp": "reno"}],
    }


def test_overrides_from_strings_set_nested_list_entries(scenario):
    out = apply_overrides(scenario, ["flows.0.tcp=vegas", "links.1.loss=0.01", "duration=20s"])
    assert out["flows"][0]["tcp"] == "vegas"
    assert out["links"][1]["loss"] == 0.01
    assert out["duration"] == "20s"
    assert out["links"][0] == scenario["links"][0]


def test_overrides_do_not_touch_the_input(scenario):
    before = json.dumps(scenario, sort_keys=True)
    apply_overrides(scenario, {"flows.0.tcp": "sack", "links.0.queue": 5})
    assert json.dumps(scenario, sort_keys=True) == before


def test_mapping_values_are_taken_as_given(scenario):
    out = apply_overrides(scenario, {"links.0.loss": "0.01", "links.0.queue": 5})
    assert out["links"][0]["loss"] == "0.01"
    assert out["links"][0]["queue"] == 5


def test_missing_keys_and_tables_are_added(scenario):
    out = apply_overrides(scenario, ["flows.0.bogus=1", "tcp_defaults.window=20"])
    assert out["flows"][0]["bogus"] == 1  # left for the core to refuse, with its path
    assert out["tcp_defaults"] == {"window": 20}


def test_later_overrides_win_and_can_replace_tables(scenario):
    out = apply_overrides(
        scenario,
        ['links.0.error_a_to_b={model = "iid", rate = 0.1}', "links.0.error_a_to_b.rate=0.2"],
    )
    assert out["links"][0]["error_a_to_b"] == {"model": "iid", "rate": 0.2}


def test_a_single_string_is_one_override(scenario):
    assert apply_overrides(scenario, "flows.0.tcp=newreno")["flows"][0]["tcp"] == "newreno"
    assert apply_overrides(scenario, None) == scenario


@pytest.mark.parametrize(
    ("override", "path", "words"),
    [
        ("flows.1.tcp=vegas", "flows.1", "past the end of `flows` (1 entry)"),
        ("links.7=x", "links.7", "past the end of `links` (2 entries)"),
        ("flows.first.tcp=vegas", "flows.first", "`flows` is a list"),
        ("name.first=x", "name.first", "`name` is a string"),
        ("flows.0.tcp.kind=x", "flows.0.tcp.kind", "`flows.0.tcp` is a string"),
        ("flows..tcp=x", "flows..tcp", "empty segment"),
    ],
)
def test_bad_override_paths_raise_naming_the_path(scenario, override, path, words):
    with pytest.raises(ScenarioError) as info:
        apply_overrides(scenario, [override])
    err = info.value
    assert isinstance(err, ValueError)
    assert err.path == path
    assert words in err.message
    assert "\n" not in str(err)
    assert str(err).startswith(f"scenario error at `{path}`: ")


@given(
    st.lists(st.integers(min_value=0, max_value=5), min_size=1, max_size=4),
    st.one_of(st.integers(), st.booleans(), st.text(max_size=5)),
)
def test_setting_a_list_entry_changes_only_that_entry(values, new):
    doc = {"xs": list(values)}
    index = len(values) - 1
    out = apply_overrides(doc, {f"xs.{index}": new})
    assert out["xs"][index] == new
    assert out["xs"][:index] == values[:index]


# --- loading and canonical JSON ------------------------------------------------------------


def test_load_scenario_reads_toml_json_and_copies_dicts(tmp_path, tiny_toml, tiny_scenario):
    # A file's scenario also records its folder, against which relative trace paths resolve.
    from_file = dict(tiny_scenario, scenario_dir=str(tiny_toml.resolve().parent))
    assert load_scenario(tiny_toml) == from_file
    assert load_scenario(str(tiny_toml)) == from_file
    as_json = tmp_path / "tiny.json"
    as_json.write_text(json.dumps(tiny_scenario))
    assert load_scenario(as_json) == dict(tiny_scenario, scenario_dir=str(tmp_path.resolve()))
    # A scenario that names its own folder keeps it.
    as_json.write_text(json.dumps(dict(tiny_scenario, scenario_dir="/elsewhere")))
    assert load_scenario(as_json)["scenario_dir"] == "/elsewhere"
    copy = load_scenario(tiny_scenario)
    copy["flows"][0]["tcp"] = "vegas"
    assert tiny_scenario["flows"][0]["tcp"] == "reno"


def test_load_scenario_errors(tmp_path):
    with pytest.raises(FileNotFoundError, match="no-such.toml"):
        load_scenario(tmp_path / "no-such.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "x"\nduration = \n')
    with pytest.raises(ScenarioError) as info:
        load_scenario(bad)
    assert str(info.value).startswith("scenario error: cannot parse")
    assert "\n" not in str(info.value)
    assert info.value.path is None


def test_scenario_json_is_canonical():
    a = {"name": "x", "links": [{"rate": "1Mbps", "a": "n"}], "duration": "1s"}
    b = {"duration": "1s", "links": [{"a": "n", "rate": "1Mbps"}], "name": "x"}
    assert scenario_json(a) == scenario_json(b)
    assert " " not in scenario_json(a)
    assert json.loads(scenario_json(a)) == a


def test_scenario_json_refuses_non_finite_numbers_with_their_path():
    with pytest.raises(ScenarioError) as info:
        scenario_json({"links": [{"loss": math.inf}]})
    assert info.value.path == "links.0.loss"


def test_a_detached_sink_acknowledges_nothing_more():
    from ternsim import api
    from ternsim.paths import scenario_path

    sim = api.Simulation(
        str(scenario_path("conformance/wired.toml")), seed=1, overrides={"duration": "10s"}
    )
    sim.run_until(5.0)
    sim.detach_agent("ftp", "sink")
    # The ACKs already on their way back (one 40 ms round trip at most) arrive by 5.1 s.
    sim.run_until(5.1)
    acked = sim.flow("ftp")["ack"]
    sim.run_until(10.0)
    assert sim.flow("ftp")["ack"] == acked
    with pytest.raises(ValueError, match="allowed: source, sink"):
        sim.detach_agent("ftp", "middle")
