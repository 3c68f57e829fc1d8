//! `[topology] random`, `[mobility]` and `[traffic]` in scenarios: what they resolve to,
//! refusals with key paths, and a 50-node random waypoint AODV run.

use ternsim_core::mobility::{Mobility, SetdestVersion};
use ternsim_core::scenario::validate::NodeMobility;
use ternsim_core::scenario::{from_toml, FlowTransport, ResolvedScenario, ScenarioError};
use ternsim_core::sim::SimTime;

fn rwp(nodes: u32, mobility: &str, rest: &str) -> Result<ResolvedScenario, ScenarioError> {
    from_toml(&format!(
        "name = \"rwp\"\nduration = \"30s\"\n\
         [topology]\nrandom = {{ nodes = {nodes}, area = [\"500m\", \"500m\"] }}\n\
         [mobility]\n{mobility}\n[wireless]\n[routing]\nprotocol = \"aodv\"\n{rest}"
    ))
}

const V1: &str = "model = \"random_waypoint\"\npause = \"0s\"\nmax_speed = \"20m/s\"";

#[test]
fn a_nodes_path_depends_only_on_the_seed_and_its_name() {
    let small = rwp(10, V1, "").unwrap();
    let large = rwp(20, V1, "").unwrap();
    let NodeMobility::Random(r) = &small.nodes[3].mobility else {
        panic!("a random node");
    };
    let w = r.waypoint.as_ref().expect("moving");
    assert_eq!(
        (w.version, w.max_speed, w.min_speed),
        (SetdestVersion::V1, 20.0, 0.0)
    );
    let t = SimTime::from_secs_f64(17.0);
    let a = small.nodes[3].mobility_for_run(7).position_at(t);
    assert_eq!(a, large.nodes[3].mobility_for_run(7).position_at(t));
    assert_ne!(a, small.nodes[3].mobility_for_run(8).position_at(t));
    assert_ne!(a, small.nodes[4].mobility_for_run(7).position_at(t));
    // Without [mobility] the nodes stay at their drawn positions, the same as where the
    // moving ones start.
    let still = from_toml(
        "name = \"s\"\nduration = \"30s\"\n[topology]\nrandom = { nodes = 10, area = [\"500m\", \"500m\"] }\n",
    )
    .unwrap();
    let m = still.nodes[3].mobility_for_run(7);
    assert!(matches!(m, Mobility::Static(Some(_))));
    assert_eq!(
        m.position_at(t),
        small.nodes[3]
            .mobility_for_run(7)
            .position_at(SimTime::ZERO)
    );
}

#[test]
fn bad_mobility_is_refused_with_its_key_path() {
    let cases = [
        (
            "model = \"random_waypoint\"\nmax_speed = \"5m/s\"\nversion = 2",
            "mobility.min_speed",
        ),
        (
            "model = \"random_waypoint\"\nmax_speed = \"5m/s\"\nsteady_state = true",
            "mobility.min_speed",
        ),
        (
            "model = \"random_waypoint\"\nmax_speed = \"5m/s\"\nversion = 3",
            "mobility.version",
        ),
        ("model = \"random_waypoint\"", "mobility.max_speed"),
        ("model = \"gauss_markov\"", "mobility.model"),
        (
            "model = \"random_waypoint\"\nmax_speed = \"5m/s\"\npause_distribution = \"uniform\"",
            "mobility.pause_distribution",
        ),
        (
            "model = \"random_waypoint\"\nmax_speed = \"5m/s\"\nspeed_distribution = \"normal\"",
            "mobility.speed_distribution",
        ),
        (
            "model = \"random_waypoint\"\nmin_speed = \"1m/s\"\nmax_speed = \"5m/s\"\n\
             version = 2\nspeed_distribution = \"gamma\"",
            "mobility.speed_distribution",
        ),
        (
            "file = \"scen.tcl\"\nspeed_distribution = \"normal\"",
            "mobility.speed_distribution",
        ),
        ("file = \"scen.tcl\"\npause = \"1s\"", "mobility.pause"),
        ("file = \"/nonexistent/scen.tcl\"", "mobility.file"),
    ];
    for (mobility, path) in cases {
        let e = rwp(5, mobility, "").unwrap_err();
        assert_eq!(e.path, path, "{mobility}: {e}");
    }
    let e = from_toml(
        "name = \"x\"\nduration = \"1s\"\n[[nodes]]\nname = \"a\"\nposition = [0, 0]\n\
         [mobility]\nmodel = \"random_waypoint\"\nmax_speed = \"1m/s\"\n",
    )
    .unwrap_err();
    assert_eq!(e.path, "mobility.model");
    assert!(e.message.contains("[topology] random"), "{e}");
}

#[test]
fn files_are_read_relative_to_the_scenario() {
    let dir = std::env::temp_dir().join(format!("ternsim-mobility-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("scen.tcl"),
        "$node_(1) set X_ 100.0\n$node_(1) set Y_ 0.0\n$ns_ at 1.0 \"$node_(1) setdest 200.0 0.0 10.0\"\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("cbr.tcl"),
        "set udp_(0) [new Agent/UDP]\n$ns_ attach-agent $node_(0) $udp_(0)\n\
         set null_(0) [new Agent/Null]\n$ns_ attach-agent $node_(1) $null_(0)\n\
         set cbr_(0) [new Application/Traffic/CBR]\n$cbr_(0) set packetSize_ 64\n\
         $cbr_(0) set interval_ 0.25\n$cbr_(0) attach-agent $udp_(0)\n\
         $ns_ connect $udp_(0) $null_(0)\n$ns_ at 2.5 \"$cbr_(0) start\"\n\
         $ns_ at 99.0 \"$cbr_(0) start\"\n",
    )
    .unwrap();
    let text = format!(
        "name = \"f\"\nduration = \"10s\"\nscenario_dir = {:?}\n\
         [topology]\nchain = {{ hops = 1, spacing = \"50m\" }}\n[wireless]\n\
         [mobility]\nfile = \"scen.tcl\"\n[traffic]\nfile = \"cbr.tcl\"\n",
        dir.display().to_string()
    );
    let sc = from_toml(&text).unwrap();
    let m = sc.nodes[1].mobility_for_run(1);
    let p = m.position_at(SimTime::from_secs_f64(3.0)).unwrap();
    assert_eq!((p.x, p.y), (120.0, 0.0));
    assert_eq!(sc.flows.len(), 1);
    let f = &sc.flows[0];
    assert_eq!((f.name.as_str(), f.src, f.dst), ("cbr_0", 0, 1));
    assert_eq!(f.start, SimTime::from_millis(2500));
    assert!(matches!(f.transport, FlowTransport::Udp { .. }));
    assert_eq!(sc.input_files.len(), 2);
    // $node_(5) of a two-node scenario.
    std::fs::write(dir.join("scen.tcl"), "$node_(5) set X_ 1.0\n").unwrap();
    let e = from_toml(&text).unwrap_err();
    assert_eq!(e.path, "mobility.file");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn generated_connections_become_flows() {
    let sc = rwp(
        50,
        V1,
        "[traffic]\nconnections = { kind = \"tcp\", count = 8, seed = 1 }\ntcp = \"reno\"\n",
    )
    .unwrap();
    // cbrgen -nn 50 -seed 1: 1→2 at 2.557 s, 4→5 at 56.3 s, 6→7 at 55.6 s, 7→8 at 29.5 s,
    // 7→9 at 7.70 s, 8→9 at 20.5 s, …; only those starting before the 30 s end are kept.
    let got: Vec<(String, usize, usize)> = sc
        .flows
        .iter()
        .map(|f| (f.name.clone(), f.src, f.dst))
        .collect();
    let want = [
        ("tcp_0", 1, 2),
        ("tcp_4", 7, 8),
        ("tcp_5", 7, 9),
        ("tcp_6", 8, 9),
    ];
    let want: Vec<(String, usize, usize)> = want
        .iter()
        .map(|&(n, s, d)| (n.to_string(), s, d))
        .collect();
    assert_eq!(got, want);
    let tcp = sc.flows[0].tcp().unwrap();
    assert_eq!((tcp.window, tcp.packet_size), (32, 512));
    for (traffic, path) in [
        (
            "connections = { kind = \"udp\", count = 1, seed = 1 }",
            "traffic.connections.kind",
        ),
        (
            "connections = { kind = \"cbr\", count = 1, seed = 1 }",
            "traffic.connections.rate",
        ),
        (
            "connections = { kind = \"tcp\", count = 1, seed = 0 }",
            "traffic.connections.seed",
        ),
        (
            "connections = { kind = \"tcp\", count = 1, seed = 1 }\ntcp = \"cubic\"",
            "traffic.connections",
        ),
    ] {
        let e = rwp(50, V1, &format!("[traffic]\n{traffic}\n")).unwrap_err();
        assert_eq!(e.path, path, "{traffic}: {e}");
    }
}

/// 50 nodes moving by random waypoint in 500 m × 500 m under AODV with a TCP flow: the run
/// completes, data arrives, and the same seed gives the same summary.
#[test]
fn a_mobile_aodv_run_is_deterministic() {
    let sc = from_toml(
        "name = \"manet\"\nduration = \"20s\"\n\
         [topology]\nrandom = { nodes = 50, area = [\"500m\", \"500m\"] }\n\
         [mobility]\nmodel = \"random_waypoint\"\npause = \"0s\"\nmax_speed = \"20m/s\"\n\
         [wireless]\n[routing]\nprotocol = \"aodv\"\n\
         [[flows]]\nname = \"f\"\nsrc = \"n0\"\ndst = \"n30\"\ntcp = \"reno\"\nstart = \"1s\"\n",
    )
    .unwrap();
    let summary = |seed| {
        let out = ternsim_core::world::run(&sc, seed);
        let mut v = serde_json::to_value(&out.summary).unwrap();
        v.as_object_mut().unwrap().remove("wall_seconds");
        v
    };
    let a = summary(3);
    assert_eq!(a, summary(3));
    assert_ne!(a["nodes"], summary(4)["nodes"]);
    // 50 nodes in 500 m × 500 m with a 250 m range are almost surely connected: data flows.
    let delivered = a["flows"][0]["delivered_bytes"].as_u64().unwrap();
    assert!(delivered > 100_000, "{delivered}");
}

/// ns-2 refuses a `setdest` outside the topography; so does ternsim, before the run, naming
/// the node, the move's time and the place (a start outside is refused the same way).
#[test]
fn a_move_outside_the_topography_is_refused() {
    let dir = std::env::temp_dir().join(format!("ternsim-outside-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let text = format!(
        "name = \"f\"\nduration = \"10s\"\nscenario_dir = {:?}\n\
         [topology]\nrandom = {{ nodes = 2, area = [\"500m\", \"300m\"] }}\n[wireless]\n\
         [mobility]\nfile = \"scen.tcl\"\n",
        dir.display().to_string()
    );
    std::fs::write(
        dir.join("scen.tcl"),
        "$node_(1) set X_ 100.0\n$node_(1) set Y_ 10.0\n\
         $ns_ at 2.5 \"$node_(1) setdest 450.0 20.0 5.0\"\n\
         $ns_ at 4.0 \"$node_(1) setdest 520.0 20.0 5.0\"\n",
    )
    .unwrap();
    let e = from_toml(&text).unwrap_err();
    assert_eq!(e.path, "mobility.file");
    assert_eq!(
        e.message,
        "$node_(1) (`n1`): the move at 4 s is at (520, 20) m, outside the 500 m x 300 m \
         topography (topology.random.area)"
    );
    std::fs::write(
        dir.join("scen.tcl"),
        "$node_(0) set X_ 10.0\n$node_(0) set Y_ 301.0\n",
    )
    .unwrap();
    let e = from_toml(&text).unwrap_err();
    assert_eq!(
        e.message,
        "$node_(0) (`n0`): its start is at (10, 301) m, outside the 500 m x 300 m \
         topography (topology.random.area)"
    );
    // Inside (edges included): accepted.
    std::fs::write(
        dir.join("scen.tcl"),
        "$node_(0) set X_ 500.0\n$node_(0) set Y_ 0.0\n",
    )
    .unwrap();
    assert!(from_toml(&text).is_ok());
}

/// A connection of a connection file that starts after the run's end is not a flow, but the
/// summary lists it as never started instead of dropping it without a word.
#[test]
fn connections_starting_after_the_end_are_listed_as_never_started() {
    let dir = std::env::temp_dir().join(format!("ternsim-late-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut text = String::new();
    for (i, start) in [(0, 2.5), (1, 99.0)] {
        text += &format!(
            "set udp_({i}) [new Agent/UDP]\n$ns_ attach-agent $node_(0) $udp_({i})\n\
             set null_({i}) [new Agent/Null]\n$ns_ attach-agent $node_(1) $null_({i})\n\
             set cbr_({i}) [new Application/Traffic/CBR]\n$cbr_({i}) set packetSize_ 64\n\
             $cbr_({i}) set interval_ 0.25\n$cbr_({i}) attach-agent $udp_({i})\n\
             $ns_ connect $udp_({i}) $null_({i})\n$ns_ at {start} \"$cbr_({i}) start\"\n"
        );
    }
    std::fs::write(dir.join("cbr.tcl"), text).unwrap();
    let sc = from_toml(&format!(
        "name = \"f\"\nduration = \"10s\"\nscenario_dir = {:?}\n\
         [topology]\nchain = {{ hops = 1, spacing = \"50m\" }}\n[wireless]\n\
         [traffic]\nfile = \"cbr.tcl\"\n",
        dir.display().to_string()
    ))
    .unwrap();
    assert_eq!(sc.flows.len(), 1);
    assert_eq!(sc.flows[0].name, "cbr_0");
    assert_eq!(
        sc.never_started,
        vec![ternsim_core::scenario::NeverStarted {
            name: "cbr_1".to_string(),
            start_s: 99.0
        }]
    );
    let summary = serde_json::to_value(ternsim_core::world::run(&sc, 1).summary).unwrap();
    assert_eq!(
        summary["never_started"],
        serde_json::json!([{ "name": "cbr_1", "start_s": 99.0 }])
    );
}
