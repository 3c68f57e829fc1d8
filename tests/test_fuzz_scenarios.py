"""Bad input at volume: generated and mutated scenarios and ``--set`` strings fed to the
scenario loader, the override parser and the core's validation. Every input is either
accepted or refused with a ScenarioError naming a key path; nothing else escapes (a core panic
would arrive as a BaseException and fail the test). CI runs a short campaign; set
TERNSIM_FUZZ_EXAMPLES for a long one."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import ternsim
from ternsim import ScenarioError
from ternsim.api import apply_overrides, parse_assignment
from ternsim.cli import app

EXAMPLES = int(os.environ.get("TERNSIM_FUZZ_EXAMPLES", "150"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

KEYS = [
    "name", "duration", "nodes", "links", "flows", "traces", "tcp_defaults", "bearers",
    "routing", "events", "a", "b", "rate", "delay", "queue", "loss", "tcp", "src", "dst",
    "start", "stop", "bytes", "window", "min_rto", "error_a_to_b", "model", "0", "1", "x",
]  # fmt: skip
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
    st.sampled_from(
        ["10ms", "1Mbps", "1500B", "-1s", "0bps", "5parsecs", "reno", "vegas", "1e400s"]
    ),
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(KEYS), inner, max_size=3)
    ),
    max_leaves=8,
)
paths = st.lists(st.sampled_from(KEYS), min_size=1, max_size=4).map(".".join)


def assert_refusal_names_a_path(exc: ScenarioError) -> None:
    message = exc.message
    assert message.startswith("scenario error"), message
    assert "\n" not in message
    if message.startswith("scenario error at `"):
        assert exc.path, message


@FUZZ
@given(mutations=st.lists(st.tuples(paths, values), min_size=1, max_size=4))
def test_mutated_scenarios_are_accepted_or_refused_with_a_key_path(tiny_scenario, mutations):
    try:
        scenario = apply_overrides(tiny_scenario, dict(mutations))
        ternsim.validate(scenario)
    except ScenarioError as exc:
        assert_refusal_names_a_path(exc)


@FUZZ
@given(items=st.lists(st.text(max_size=40), min_size=1, max_size=3))
def test_arbitrary_set_strings_are_accepted_or_refused_with_a_key_path(tiny_scenario, items):
    try:
        overrides = [parse_assignment(item) for item in items]
        ternsim.validate(apply_overrides(tiny_scenario, overrides))
    except ScenarioError as exc:
        assert_refusal_names_a_path(exc)


@settings(max_examples=max(20, EXAMPLES // 5), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])  # fmt: skip
@given(item=st.tuples(paths, st.text(max_size=20)).map("=".join))
def test_the_command_refuses_bad_overrides_with_exit_2_and_one_line(tiny_toml, item):
    result = CliRunner().invoke(app, ["validate", str(tiny_toml), "--set", item])
    assert result.exit_code in (0, 2), (item, result.output, result.exception)
    if result.exit_code == 2:
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1, result.stderr
        assert lines[0].startswith(("scenario error", "error:")), lines[0]


@pytest.mark.parametrize(
    "text",
    ["", "=", "a", "flows..tcp=1", "flows.9.tcp=x", "duration=\x00", "links.0.rate=2e400bps"],
)
def test_hand_picked_bad_overrides(tiny_scenario, text):
    with pytest.raises(ScenarioError) as info:
        ternsim.validate(apply_overrides(tiny_scenario, [parse_assignment(text)]))
    assert_refusal_names_a_path(info.value)
