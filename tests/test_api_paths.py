"""Shipped scenarios are found inside the package, and the repository's folder is the same."""

from __future__ import annotations

from pathlib import Path

import pytest

from ternsim import paths, scenario_path

REPO_SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"


def test_repository_scenarios_are_the_packaged_ones():
    assert REPO_SCENARIOS.resolve() == paths.SCENARIOS


def test_scenario_path_finds_shipped_files_and_names_missing_ones():
    assert scenario_path("bench/wired_bulk.toml").is_file()
    with pytest.raises(FileNotFoundError, match="no shipped scenario"):
        scenario_path("bench/no_such.toml")


@pytest.mark.parametrize(
    ("body", "name"),
    [
        (b'name = "x"\n', "s.toml"),
        (b'{"name": "x"}', "s.json"),
        (b'{"name": "x"}', "S.JSON"),
        (b'name = "x"\n', ".json"),  # a hidden file: no suffix, read as TOML
        (b'name = "x"\nduration = \xff\n', "s.toml"),
        (b'name = "x"\x00\n', "s.toml"),
        (b'name = "x"\nduration = \n', "s.toml"),
        (b"[1, 2", "s.json"),
        (b"[1]", "s.json"),
        (b'scenario_dir = "elsewhere"\n', "s.toml"),
    ],
)
def test_a_plain_file_loads_as_through_pathlib(tmp_path, monkeypatch, body, name):
    """load_scenario reads a regular file given as text without pathlib (see
    ternsim.api._plain_file): same scenario, same errors, whatever the spelling of the path."""
    from ternsim import api

    (tmp_path / "d").mkdir()
    (tmp_path / "d" / name).write_bytes(body)
    monkeypatch.chdir(tmp_path)

    def outcome(path):
        try:
            return api.load_scenario(path)
        except Exception as exc:  # noqa: BLE001 - the exception is what is compared
            return type(exc), str(exc)

    spellings = [f"d/{name}", f"./d//{name}", str(tmp_path / "d" / "." / name)]
    spellings.append(Path(spellings[1]))
    assert all(api._plain_file(spelling) is not None for spelling in spellings)
    fast = [outcome(spelling) for spelling in spellings]
    monkeypatch.setattr(api, "_plain_file", lambda path: None)  # pathlib for every file
    assert fast == [outcome(spelling) for spelling in spellings]
