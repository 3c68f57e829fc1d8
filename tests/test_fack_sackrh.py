"""FACK and SACK with Rate-Halving (ns-2's Agent/TCP/Fack and /SackRH) named from a scenario:
`tcp = "fack"` / `"sackrh"`, FACK's `ss_div4` and `rampdown` options. Their protocol rules
are tested in the core (`tcp/tests/fack.rs`, `sack_rh.rs`) and against ns-2's own traces
(`test_conformance.py`)."""

from __future__ import annotations

import pytest

import ternsim
from ternsim import ScenarioError
from ternsim.paths import SCENARIOS

LOSSY = SCENARIOS / "examples" / "lossy_path.toml"


@pytest.mark.parametrize("tcp", ["fack", "sackrh"])
def test_sack_variants_recover_from_random_loss_as_sack1_does(tcp):
    # 1 % i.i.d. loss on a 2 Mb/s, 100 ms RTT path: every loss is recovered by SACK
    # retransmissions, and the goodput is within a tenth of Sack1's.
    short = {"duration": "20s"}
    sack = ternsim.run(LOSSY, overrides={**short, "flows.0.tcp": "sack"}).summary["flows"][0]
    got = ternsim.run(LOSSY, overrides={**short, "flows.0.tcp": tcp}).summary["flows"][0]
    assert got["tcp"] == tcp
    assert got["retransmitted_segments"] > 0
    assert got["goodput_bps"] == pytest.approx(sack["goodput_bps"], rel=0.1)


def test_fack_options_are_fack_only():
    flow = {"duration": "5s", "flows.0.tcp": "fack"}
    for key in ("ss_div4", "rampdown"):
        ternsim.run(LOSSY, overrides={**flow, f"flows.0.options.{key}": True})
        with pytest.raises(ScenarioError, match=f"flows.0.options.{key}"):
            ternsim.run(
                LOSSY, overrides={**flow, "flows.0.tcp": "sack", f"flows.0.options.{key}": True}
            )
