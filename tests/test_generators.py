"""setdest and cbrgen: the commands write ns-2 files that scenarios read back."""

from __future__ import annotations

from pathlib import Path

import ternsim


def test_cbrgen_command_writes_ns2s_connections_for_the_seed(cli):
    # manet-spec §3.5: ns-2.35 `cbrgen.tcl -type cbr -nn 50 -seed 1 -mc 10 -rate 4.0`.
    proc = cli("cbrgen", "-type", "cbr", "-nn", "50", "-seed", "1", "-mc", "10", "-rate", "4.0")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("#\n# nodes: 50, max conn: 10, send rate: 0.25, seed: 1\n#\n")
    assert "# 4 connecting to 6 at time 146.96568928983328\n" in proc.stdout
    assert proc.stdout.endswith("#Total sources/connections: 7/10\n#\n")
    bad = cli("cbrgen", "-type", "cbr", "-nn", "50", "-seed", "1", "-mc", "10")
    assert bad.returncode == 2 and "rate" in bad.stderr


def test_setdest_file_is_what_a_random_scenario_moves_by(cli, tmp_path: Path):
    proc = cli("setdest", "-v", "1", "-n", "5", "-p", "2", "-M", "10", "-t", "30", "--seed", "4")
    assert proc.returncode == 0, proc.stderr
    assert "# nodes: 5, pause: 2.00, max speed: 10.00, max x: 500.00, max y: 500.00" in proc.stdout
    (tmp_path / "scen.tcl").write_text(proc.stdout)
    common = {
        "duration": "30s",
        "topology": {"random": {"nodes": 5, "area": ["500m", "500m"]}},
        "wireless": {},
        "routing": {"protocol": "aodv"},
    }
    from_file = dict(common, name="file", mobility={"file": "scen.tcl"})
    from_file["scenario_dir"] = str(tmp_path)
    generated = dict(
        common,
        name="model",
        mobility={"model": "random_waypoint", "pause": "2s", "max_speed": "10m/s"},
    )
    a = ternsim.run(from_file, seed=4).summary["nodes"]
    b = ternsim.run(generated, seed=4).summary["nodes"]
    for x, y in zip(a, b):
        assert abs(x["position"][0] - y["position"][0]) < 1e-6
        assert abs(x["position"][1] - y["position"][1]) < 1e-6
    bad = cli("setdest", "-v", "2", "-n", "5", "-M", "10")
    assert bad.returncode == 2 and "min_speed" in bad.stderr


def test_the_python_api_returns_the_file_text():
    text = ternsim.cbrgen(kind="tcp", nodes=50, seed=1, max_connections=8)
    assert "set tcp_(0) [$ns_ create-connection  TCP $node_(1) TCPSink $node_(2) 0]" in text
    scen = ternsim.setdest(nodes=2, pause=0, max_speed=5, time=10, width=100, height=100)
    assert scen.count("set X_") == 2


def test_setdest_speed_type_2_is_the_clipped_normal_of_version_2(cli):
    # setdest v2 `-s 2`: the header names speed type 2 and every leg speed lies in [min, max].
    args = ["setdest", "-v", "2", "-n", "20", "-m", "1", "-M", "19", "-t", "300", "-s", "2"]
    proc = cli(*args)
    assert proc.returncode == 0, proc.stderr
    assert "# nodes: 20, speed type: 2, min speed: 1.00, max speed: 19.00" in proc.stdout
    speeds = [
        float(line.rsplit(" ", 1)[1].rstrip('"'))
        for line in proc.stdout.splitlines()
        if "setdest" in line and line.startswith("$ns_")
    ]
    assert speeds and all(1.0 <= v <= 19.0 for v in speeds if v > 0)
    bad = cli("setdest", "-v", "1", "-n", "5", "-M", "10", "-s", "2")
    assert bad.returncode == 2 and "speed_distribution" in bad.stderr
