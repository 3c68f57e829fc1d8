"""Errors a new user meets by trying things: each is one line on stderr and exit status 2."""

from __future__ import annotations

import pytest

from ternsim import cli as cli_module


def one_line(proc) -> str:
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    return lines[0]


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (b"\x7fELF\x02\x01\x01\x00\x00\x00\xff\xfe", "byte 0xff at offset 10 is not UTF-8"),
        ('name = "caf\xe9"\n'.encode("latin-1"), "byte 0xe9 at offset 11 is not UTF-8"),
        (b'name = "x"\x00\x00', "it holds NUL bytes"),
    ],
)
def test_a_binary_or_non_utf8_scenario_is_one_line_exit_2(cli, tmp_path, content, said):
    path = tmp_path / "scenario.toml"
    path.write_bytes(content)
    line = one_line(cli("run", path))
    assert "is not a text scenario" in line and said in line


def test_a_folder_as_the_scenario_is_not_found_and_lists_what_it_holds(cli, tmp_path, tiny_toml):
    line = one_line(cli("run", tmp_path))
    assert line == f"error: scenario file not found: {tmp_path} is a folder (it holds tiny.toml)"


@pytest.mark.parametrize(
    ("override", "path", "hint"),
    [
        ("links.0.rate=2000000", "links.0.rate", '"2000000bps" (2000000 bits per second)'),
        ("tcp_defaults.min_rto=0.2", "tcp_defaults.min_rto", '"0.2s" (0.2 seconds)'),
        ("links.0.delay=10", "links.0.delay", '"10s" (10 seconds)'),
    ],
)
def test_a_unit_hint_spells_the_number_in_the_base_unit(cli, tiny_toml, override, path, hint):
    line = one_line(cli("validate", tiny_toml, "--set", override))
    assert line.startswith(f"scenario error at `{path}`: ")
    assert hint in line
    for prefixed in ("Mbps", "kbps", '0.2ms"', '10ms"'):
        assert f"{override.split('=')[1]}{prefixed}" not in line


@pytest.mark.parametrize(
    ("override", "path", "message"),
    [
        (
            'links.0.queue="abc"',
            "links.0.queue",
            'got the string "abc"; expected a whole number of packets or a table '
            '{ kind = "drop_tail" | "red", ... }',
        ),
        (
            "links.0.queue=1.5",
            "links.0.queue",
            "got the number 1.5; expected a whole number of packets or a table "
            '{ kind = "drop_tail" | "red", ... }',
        ),
        ("flows.0.tcp=3", "flows.0.tcp", "got the number 3; expected a string in quotes"),
        ("links.0.loss=[1]", "links.0.loss", "got a list; expected a number"),
    ],
)
def test_type_errors_are_phrased_for_people(cli, tiny_toml, override, path, message):
    line = one_line(cli("validate", tiny_toml, "--set", override))
    assert line == f"scenario error at `{path}`: {message}"
    assert "u32" not in line.replace("4294967295", "") and "f64" not in line


def test_help_has_no_type_placeholders():
    """Every command's help, rendered in this process (one `ternsim` process per command
    renders the same text, as the tests of the process below show for `reproduce`)."""
    from typer.testing import CliRunner

    runner = CliRunner()
    commands = [c.name or c.callback.__name__ for c in cli_module.app.registered_commands]
    assert {"run", "sweep", "reproduce"} <= set(commands)
    for command in [None, *commands]:
        result = runner.invoke(cli_module.app, [*([command] if command else []), "--help"])
        assert result.exit_code == 0, result.output
        for placeholder in ("<bool>", "<list[", "<str>", "<int", "<path>", "{"):
            assert placeholder not in result.output, (command, result.output)


def test_reproduce_help_names_every_experiment(cli):
    from ternsim import experiments

    proc = cli("reproduce", "--help")
    text = " ".join(proc.stdout.split()).replace("│", "")
    text = " ".join(text.split())
    for name in experiments.names():
        assert name in text, (name, proc.stdout)


def test_a_duration_beyond_the_clock_is_refused_with_its_range(cli, tiny_toml):
    """u64 nanoseconds hold about 584 years; 1e30 s used to be clipped without a word."""
    proc = cli("run", tiny_toml, "--set", 'duration="1e30s"')
    assert proc.returncode == 2
    assert one_line(proc) == (
        "scenario error at `duration`: `1e30s` is beyond the simulated clock's range "
        "(0 to 18446744073 s, about 584 years)"
    )
