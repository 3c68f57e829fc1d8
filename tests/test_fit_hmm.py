"""`ternsim fit-hmm` recovers the parameters of a known two-state model from a long trace and
prints a snippet that a scenario accepts."""

from __future__ import annotations

import numpy as np
import tomllib
from typer.testing import CliRunner

import ternsim
from ternsim.cli import app


def synthetic_trace(n: int, p_gb: float, p_bg: float, e_good: float, e_bad: float) -> str:
    rng = np.random.default_rng(7)
    u_state, u_err = rng.random(n), rng.random(n)
    bad = False
    out = []
    for i in range(n):
        out.append("1" if u_err[i] < (e_bad if bad else e_good) else "0")
        bad = (u_state[i] >= p_bg) if bad else (u_state[i] < p_gb)
    return "".join(out)


def test_fit_hmm_recovers_a_known_model(tmp_path):
    truth = {"p_gb": 0.02, "p_bg": 0.2, "e_good": 0.002, "e_bad": 0.6}
    trace = tmp_path / "errors.txt"
    trace.write_text(synthetic_trace(150_000, **truth))
    result = CliRunner().invoke(app, ["fit-hmm", str(trace), "--states", "2"])
    assert result.exit_code == 0, result.output
    snippet = result.stdout.strip().splitlines()[-1]
    model = tomllib.loads(snippet)["error"]
    (a00, a01), (a10, a11) = model["transition"]
    e_good, e_bad = model["error_prob"]  # states sorted by error probability
    assert abs(a01 - truth["p_gb"]) / truth["p_gb"] < 0.25, model
    assert abs(a10 - truth["p_bg"]) / truth["p_bg"] < 0.25, model
    assert abs(e_bad - truth["e_bad"]) < 0.06, model
    assert abs(e_good - truth["e_good"]) < 0.002, model

    # The snippet drops straight into a link's error model.
    scenario = {
        "name": "fitted",
        "duration": "1s",
        "nodes": [{"name": "a"}, {"name": "b"}],
        "links": [{"a": "a", "b": "b", "rate": "1Mbps", "delay": "1ms", "error_a_to_b": model}],
    }
    ternsim.validate(scenario)


def test_fit_hmm_refuses_a_bad_trace(tmp_path):
    trace = tmp_path / "bad.txt"
    trace.write_text("0 1 2\n")
    result = CliRunner().invoke(app, ["fit-hmm", str(trace)])
    assert result.exit_code == 2
