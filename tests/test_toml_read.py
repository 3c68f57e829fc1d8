"""ternsim._toml_read against tomllib: whatever it reads, tomllib reads the same.

The reader may leave any text to tomllib (it returns None, or MISS for an override value), but
a document or value it does return must be exactly tomllib's: same keys in the same order,
same types, same values. These tests compare the two on the shipped scenarios, on hand-picked
edge cases and on a few thousand random mutations of the scenarios (a fixed seed).
"""

from __future__ import annotations

import math
import random

import pytest

from ternsim import _toml_read
from ternsim.api import parse_value
from ternsim.paths import SCENARIOS

try:
    import tomllib
except ModuleNotFoundError:  # pragma: no cover - Python < 3.11
    import tomli as tomllib  # type: ignore[no-redef]

SHIPPED = sorted(SCENARIOS.rglob("*.toml"))


def same(a: object, b: object) -> bool:
    """Equal, with equal types and key order all the way down (nan equals nan)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)  # type: ignore[index]
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))  # type: ignore[arg-type]
    if isinstance(a, float) and math.isnan(a):
        return math.isnan(b)  # type: ignore[arg-type]
    return a == b


def check(text: str) -> bool:
    """Asserts that the reader agrees with tomllib on ``text``; returns whether it read it."""
    got = _toml_read.loads(text)
    if got is None:
        return False
    want = tomllib.loads(text)  # must not raise: the reader accepted only valid TOML
    assert same(got, want), (text, got, want)
    return True


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: str(p.relative_to(SCENARIOS)))
def test_every_shipped_scenario_is_read_without_tomllib(path):
    assert check(path.read_text(encoding="utf-8"))


READ = [
    "",
    "\n\n# only a comment\n",
    "a = 1\nb = -2\nc = +3\nd = 1_000\ne = 0x1F\nf = 0o17\ng = 0b101\nh = 0\ni = -0",
    "a = 1.5\nb = -0.25e-3\nc = 1E5\nd = 1_0.0_1\ne = 0e0\nf = inf\ng = -inf\nh = nan\ni = +nan",
    "a = true\nb = false  # comment\r\nc = 'lit\\eral'\nd = \"caf\u00e9 \t tab\"\ne = ''",
    "a = [ 1, 2 , 3, ]\nb = [\n  1, # one\n  'x',\n]\nc = []\nd = [[1], [{}]]",
    "a = { x = 1, y = { z = [1, 2] } }\nb = {}\nc = {x=1}",
    "[t]\na = 1\n[t.u]\nb = 2\n[v.w]\n[t.x]\n",
    "[[f]]\nname = 'a'\n[f.rlc]\nx = 1\n[[f]]\nname = 'b'\n[f.rlc]\nx = 2\n[[f.sub]]\n[[f.sub]]",
    "[ a . b ]  # header with spaces\nc = 1\n[[ d ]]\n[[d]]",
    "a=1\n[[ x ]]\n[x.y.z]\nk = 'v'",
]

LEFT_TO_TOMLLIB = [
    'a = "esc\\n"',  # escapes
    'a = """multi"""',
    "a.b = 1",  # dotted keys
    '"quoted" = 1',
    "a = 1979-05-27",  # dates and times
    "a = 07:32:00",
    "a = 1\na = 2",  # errors
    "[a]\n[a]",
    "a = {x = 1}\n[a.b]",
    "a = [1]\n[[a]]",
    "a = 01",
    "a = 1.",
    "a = {x = 1,}",
    "a = 1 2",
    "a = 'x\x01'",
    "# \x7f",
    "a = 1\rb = 2",
    "[ [d] ]",
    "\ufeffa = 1",
    "[b]\n[a.b]\n[a]",  # valid, but a table declared after its sub-table
]


@pytest.mark.parametrize("text", READ)
def test_plain_toml_is_read_as_tomllib_reads_it(text):
    assert check(text)


@pytest.mark.parametrize("text", LEFT_TO_TOMLLIB)
def test_everything_else_is_left_to_tomllib(text):
    assert _toml_read.loads(text) is None


def test_random_mutations_of_the_scenarios_agree_with_tomllib():
    rng = random.Random(20261126)
    seeds = [p.read_text(encoding="utf-8") for p in SHIPPED]
    pieces = [*" \t\n#[]{}=,.\"'-_+0123456789abcdefxoEinftrue\r\\:T", "true", "false", "inf"]
    pieces += ["[[", "]]", "1e5", "0x1F", "1_000", "\n[a]\n", "\n[[a]]\n", "a.b", "{x=1}", "\x01"]
    read = 0
    for _ in range(3000):
        lines = rng.choice(seeds).split("\n")
        start = rng.randrange(len(lines))
        chars = list("\n".join(lines[start : start + rng.randrange(1, 12)]))
        for _ in range(rng.randrange(1, 4)):
            at = rng.randrange(len(chars) + 1)
            if rng.random() < 0.5 or not chars:
                chars.insert(at, rng.choice(pieces))
            else:
                del chars[min(at, len(chars) - 1)]
        read += check("".join(chars))
    assert read > 500  # the comparison above really ran on documents the reader read


def reference_value(text: str) -> object:
    """parse_value as it was, with tomllib alone."""
    s = text.strip()
    try:
        doc = tomllib.loads(f"v = {s}")
    except tomllib.TOMLDecodeError:
        return s
    plain = (bool, int, float, str, list, dict)
    return doc["v"] if set(doc) == {"v"} and isinstance(doc["v"], plain) else s


OVERRIDES = [
    "vegas", "10ms", "0.001s", "1.5Mbps", "true", "false", "True", "3", "-3", "+3", "0.01",
    "1e-3", "1_000", "0x10", "0b11", "0o7", "inf", "-nan", "nan1", "1979-05-27", "1979-05-27x",
    "07:32", "2024-13-01", "01", "1.", ".5", "1e", "a-b_c.d", "'x'", '"y"', "[1, 2]",
    "{model = 'iid'}", "3 # c", "", "  4  ", "x y", "1,2",
]  # fmt: skip


@pytest.mark.parametrize("text", OVERRIDES)
def test_override_values_are_read_as_tomllib_reads_them(text):
    got, want = parse_value(text), reference_value(text)
    assert same(got, want) or (isinstance(want, float) and math.isnan(want) and got != got)


def test_random_override_words_agree_with_tomllib():
    rng = random.Random(7)
    chars = "0123456789abcdefxoEe_.+-tinfrueals:TZsmMbpsBkKg"
    for _ in range(20000):
        text = "".join(rng.choice(chars) for _ in range(rng.randrange(1, 9)))
        got = _toml_read.override_scalar(text)
        if got is _toml_read.MISS:
            continue
        want = reference_value(text)
        if got is _toml_read.STRING:
            assert want == text, text
        else:
            assert same(got, want), (text, got, want)
