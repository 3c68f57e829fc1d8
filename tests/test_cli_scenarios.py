"""Scenarios from Python and the command line: list entries addressed by name in overrides,
and the shipped scenarios listed and run by name from any folder."""

from __future__ import annotations

import pytest

from ternsim import ScenarioError, apply_overrides
from ternsim.paths import shipped_scenarios

SCENARIO = {
    "flows": [{"name": "ftp", "tcp": "reno"}, {"name": "web", "tcp": "sack"}],
    "links": [{"a": "x", "b": "y"}],
}


def test_an_override_addresses_a_list_entry_by_name():
    out = apply_overrides(SCENARIO, ["flows.web.tcp=vegas", "flows.0.start=1s"])
    assert out["flows"] == [
        {"name": "ftp", "tcp": "reno", "start": "1s"},
        {"name": "web", "tcp": "vegas"},
    ]
    assert SCENARIO["flows"][1]["tcp"] == "sack"  # the input is not touched


@pytest.mark.parametrize(
    ("override", "path", "detail"),
    [
        (
            "flows.cubic.tcp=reno",
            "flows.cubic",
            "`flows` is a list with no entry named `cubic` in override `flows.cubic.tcp`; "
            "use an index (0..1) or a name: ftp, web",
        ),
        (
            "links.fast.rate=1Mbps",
            "links.fast",
            "`links` is a list with no entry named `fast` in override `links.fast.rate`; "
            "use an index (0..0)",
        ),
    ],
)
def test_an_unknown_name_lists_the_names_there_are(override, path, detail):
    with pytest.raises(ScenarioError) as info:
        apply_overrides(SCENARIO, [override])
    assert info.value.path == path
    assert info.value.message == f"scenario error at `{path}`: {detail}"


def test_two_entries_of_one_name_are_ambiguous():
    doubled = {"flows": [{"name": "f"}, {"name": "f"}]}
    with pytest.raises(ScenarioError, match="has 2 entries named `f`"):
        apply_overrides(doubled, ["flows.f.tcp=reno"])


def test_shipped_scenarios_are_listed_and_run_by_name_from_any_folder(cli):
    names = shipped_scenarios()
    assert {"examples/dumbbell", "examples/wifi_chain", "lo-umts/reno"} <= set(names)
    listed = cli("scenarios")
    assert listed.returncode == 0, listed.stderr
    assert all(name in listed.stdout for name in names)
    assert "A dumbbell: two senders share a 1.5 Mb/s, 20 ms bottleneck" in " ".join(
        listed.stdout.split()
    )
    # cli runs in an empty temporary folder: the name resolves to the shipped file.
    proc = cli("run", "examples/dumbbell", "--set", "flows.newreno.tcp=vegas", "--json")
    assert proc.returncode == 0, proc.stderr
    assert '"tcp": "vegas"' in proc.stdout
