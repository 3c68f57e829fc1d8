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
