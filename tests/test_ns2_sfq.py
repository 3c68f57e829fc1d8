"""SFQ links (`$ns duplex-link A B BW DELAY SFQ`, ns-2.35's `Queue/SFQ`) under `ternsim ns2`:
Greis's tutorial example2 (two 800 kb/s CBR sources into a 1 Mb/s SFQ link, 435 drops)
against ns-2.35's own reference output, and the translation of the queue's variables."""

from __future__ import annotations

import gzip
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ternsim.ns2 import translate_script

TESTS = Path("/usr/share/doc/ns2/examples/tcl/test")
GREIS = TESTS / "test-suite-greis.tcl"
REFERENCE = TESTS / "test-output-greis" / "example2.gz"


@pytest.mark.skipif(not REFERENCE.exists(), reason="ns-2's examples are not installed")
def test_greis_example2_gives_ns2s_nam_trace(tmp_path):
    script = tmp_path / GREIS.name
    shutil.copy(GREIS, script)
    sc = translate_script(script, ["example2", "QUIET"])
    sfq = [link for link in sc["links"] if isinstance(link.get("queue_b_to_a"), dict)]
    assert [link["queue_b_to_a"] for link in sfq] == [{"kind": "sfq", "limit": 40, "buckets": 16}]
    p = subprocess.run(
        [sys.executable, "-m", "ternsim", "ns2", script.name, "example2", "QUIET"],
        cwd=tmp_path, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert p.returncode == 0, p.stderr
    ours = (tmp_path / "temp.rands").read_text()
    with gzip.open(REFERENCE, "rt") as f:
        ref = f.read()
    drops = [x for x in ref.splitlines() if x.startswith("d ")]
    assert len(drops) == 435
    assert ours == ref


def test_sfq_variables_and_queue_limit(tmp_path):
    """`Queue/SFQ set maxqueue_ 20` and `buckets_ 4` become the queue's limit and buckets;
    `$ns queue-limit` sets `limit_`, which ns-2's SFQ does not read."""
    script = tmp_path / "s.tcl"
    script.write_text(
        "Queue/SFQ set maxqueue_ 20\nQueue/SFQ set buckets_ 4\nset ns [new Simulator]\n"
        "set a [$ns node]\nset b [$ns node]\n$ns duplex-link $a $b 1Mb 10ms SFQ\n"
        "$ns queue-limit $a $b 5\nset u [new Agent/UDP]\n$ns attach-agent $a $u\n"
        "set n [new Agent/Null]\n$ns attach-agent $b $n\n$ns connect $u $n\n"
        'set c [new Application/Traffic/CBR]\n$c attach-agent $u\n$ns at 0.1 "$c start"\n'
        '$ns at 1.0 "exit 0"\n$ns run\n'
    )
    link = translate_script(script)["links"][0]
    assert (
        link["queue_a_to_b"]
        == link["queue_b_to_a"]
        == {
            "kind": "sfq",
            "limit": 20,
            "buckets": 4,
        }
    )
