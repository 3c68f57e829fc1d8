//! `[wireless]` and `[routing] protocol = "dsr"` in a scenario: what they resolve to, and bad
//! input refused before the run with the key path and what is allowed.

use ternsim_core::routing::RoutingConfig;
use ternsim_core::scenario::{from_toml, ResolvedScenario, ScenarioError};
use ternsim_core::wifi::{IfqKind, MacHeader};

fn chain(wireless: &str, routing: &str) -> Result<ResolvedScenario, ScenarioError> {
    from_toml(&format!(
        "name = \"w\"\nduration = \"1s\"\n[topology]\nchain = {{ hops = 2, spacing = \"200m\" }}\n\
         [wireless]\n{wireless}\n[routing]\n{routing}\n"
    ))
}

/// Ranges become thresholds under two-ray ground with ns-2's radio: 250 m → 3.652e-10 W and
/// 550 m → 1.559e-11 W (link-spec §3.4, ns-2 `threshold.cc`), within 0.1 %.
#[test]
fn ranges_become_the_ns2_thresholds() {
    let sc = chain("rx_range = \"250m\"\ncs_range = \"550m\"", "").unwrap();
    let w = sc.wireless.expect("a channel");
    assert!(
        (w.rx_threshold_w / 3.652e-10 - 1.0).abs() < 1e-3,
        "{}",
        w.rx_threshold_w
    );
    assert!(
        (w.cs_threshold_w / 1.559e-11 - 1.0).abs() < 1e-3,
        "{}",
        w.cs_threshold_w
    );
    let p = chain("rx_threshold = \"-64.375dBm\"", "")
        .unwrap()
        .wireless
        .unwrap();
    assert!((p.rx_threshold_w / 3.652e-10 - 1.0).abs() < 1e-3);
}

/// `propagation = "shadowing"` with its keys (ns-2 `pathlossExp_`, `std_db_`, `dist0_`, the
/// seed stream); ns-2.35's defaults (2.0, 4 dB, 1 m) without them. A range is that of the
/// mean power: 250 m under β = 2 from 1 m is 10^(−4.79588) = 1/62 500 of the Friis power
/// at 1 m (1.9227825e-4 W with ns-2's c = 3e8), 3.0764521e-9 W. Every frame can reach every station.
#[test]
fn shadowing_keys_resolve_over_the_ns2_defaults() {
    use ternsim_core::wifi::propagation::Shadowing;
    use ternsim_core::wifi::PropagationModel;
    let w = chain("propagation = \"shadowing\"\nrx_range = \"250m\"", "")
        .unwrap()
        .wireless
        .unwrap();
    assert_eq!(w.radio.model, PropagationModel::Shadowing);
    assert_eq!(w.radio.shadowing, Shadowing::default());
    assert!((w.rx_threshold_w / 3.076_452_1e-9 - 1.0).abs() < 1e-6);
    assert!(w.cs_range_m().is_infinite());
    let w = chain(
        "propagation = \"shadowing\"\npath_loss_exponent = 2.7\nshadowing_deviation = \"6dB\"\n\
         reference_distance = \"2m\"\nshadowing_seed = 5",
        "",
    )
    .unwrap()
    .wireless
    .unwrap();
    assert_eq!(
        w.radio.shadowing,
        Shadowing {
            path_loss_exp: 2.7,
            std_db: 6.0,
            dist0_m: 2.0,
            seed: 5
        }
    );
}

/// DSR runs over CMUPriQueue with the MAC tap (link-spec §3.6, §4.2; the agent takes queued
/// packets back on a failure itself, `RoutingOutput::reclaim_queued`); static routing keeps
/// PriQueue and no tap.
#[test]
fn dsr_sets_the_queue_and_the_tap() {
    let sc = chain(
        "data_rate = \"2Mbps\"\nmac_header = 52",
        "protocol = \"dsr\"",
    )
    .unwrap();
    assert!(matches!(sc.routing, RoutingConfig::Dsr(_)));
    let w = sc.wireless.unwrap();
    assert_eq!((w.ifq, w.promiscuous), (IfqKind::CmuPriQueue, true));
    assert_eq!(
        (w.data_rate_bps, w.header),
        (2e6, MacHeader::ThreeAddress52)
    );
    let s = chain("", "").unwrap().wireless.unwrap();
    assert_eq!((s.ifq, s.promiscuous), (IfqKind::PriQueue, false));
}

#[test]
fn bad_wireless_input_names_the_key_and_what_is_allowed() {
    let cases = [
        (
            "data_rate = \"3Mbps\"",
            "",
            "wireless.data_rate",
            "1Mbps, 2Mbps, 5.5Mbps, 11Mbps",
        ),
        (
            "rx_range = \"250m\"\nrx_threshold = \"1nW\"",
            "",
            "wireless",
            "not both",
        ),
        (
            "rx_range = \"600m\"\ncs_range = \"500m\"",
            "",
            "wireless",
            "carrier-sense range",
        ),
        ("mac_header = 60", "", "wireless.mac_header", "52"),
        (
            "propagation = \"nakagami\"",
            "",
            "wireless.propagation",
            "two_ray_ground, free_space, shadowing",
        ),
        (
            "path_loss_exponent = 3.0",
            "",
            "wireless.path_loss_exponent",
            "propagation = \"shadowing\"",
        ),
        (
            "propagation = \"shadowing\"\npath_loss_exponent = 0",
            "",
            "wireless.path_loss_exponent",
            "a number > 0",
        ),
        (
            "propagation = \"shadowing\"\nshadowing_deviation = 4",
            "",
            "wireless.shadowing_deviation",
            "allowed units: dB",
        ),
        (
            "propagation = \"shadowing\"\nshadowing_deviation = \"4dBm\"",
            "",
            "wireless.shadowing_deviation",
            "allowed units: dB",
        ),
        (
            "propagation = \"shadowing\"\nreference_distance = \"0m\"",
            "",
            "wireless.reference_distance",
            "a distance > 0",
        ),
        (
            "ifq = \"red\"",
            "",
            "wireless.ifq",
            "priqueue, cmu_priqueue",
        ),
        (
            "short_retry_limit = 0",
            "",
            "wireless.short_retry_limit",
            ">= 1",
        ),
        (
            "cw_min = 64\ncw_max = 31",
            "",
            "wireless.cw_min",
            "cw_min <= cw_max",
        ),
        (
            "",
            "protocol = \"olsr\"",
            "routing.protocol",
            "static, dsr, aodv, dsdv",
        ),
        (
            "",
            "protocol = \"dsr\"\nhold_packets = 10",
            "routing",
            "static routing",
        ),
    ];
    for (wireless, routing, path, allowed) in cases {
        let e = chain(wireless, routing).expect_err(wireless);
        assert_eq!(e.path, path, "{wireless} {routing}: {e}");
        assert!(e.message.contains(allowed), "{wireless} {routing}: {e}");
    }
    let e = from_toml(
        "name = \"w\"\nduration = \"1s\"\n[[nodes]]\nname = \"a\"\n[[nodes]]\nname = \"b\"\n[wireless]\n",
    )
    .unwrap_err();
    assert_eq!(e.path, "wireless");
    assert!(e.message.contains("position"), "{e}");
}

/// `protocol = "dsdv"` resolves to ns-2's defaults (perup 15 s, 3 periods, no MAC
/// feedback, no DSDV-SQ) unless its keys say otherwise; DSDV does not tap.
#[test]
fn dsdv_keys_resolve_over_the_ns2_defaults() {
    use ternsim_core::routing::DsdvConfig;
    use ternsim_core::sim::SimTime;
    let sc = chain("", "protocol = \"dsdv\"").unwrap();
    assert_eq!(sc.routing, RoutingConfig::Dsdv(DsdvConfig::default()));
    let w = sc.wireless.unwrap();
    assert!(!w.promiscuous);
    let sc = chain(
        "",
        "protocol = \"dsdv\"\nperiodic_update_interval = \"5s\"\nmin_update_periods = 2\n\
         use_mac = true\ntrigger_on_fresh_seqnum = true",
    )
    .unwrap();
    let RoutingConfig::Dsdv(c) = sc.routing else {
        panic!("{:?}", sc.routing)
    };
    assert_eq!(
        (
            c.periodic_update_interval,
            c.min_update_periods,
            c.use_mac,
            c.trigger_on_fresh_seqnum
        ),
        (SimTime::from_millis(5_000), 2, true, true)
    );
    assert_eq!(c.neighbour_timeout(), SimTime::from_millis(10_000));
}

#[test]
fn bad_dsdv_input_names_the_key_and_what_is_allowed() {
    let cases = [
        (
            "protocol = \"dsdv\"\nperiodic_update_interval = \"0s\"",
            "routing.periodic_update_interval",
            "> 0",
        ),
        (
            "protocol = \"dsdv\"\nmin_update_periods = 0",
            "routing.min_update_periods",
            ">= 1",
        ),
        (
            "protocol = \"aodv\"\nuse_mac = true",
            "routing.use_mac",
            "dsdv",
        ),
        (
            "protocol = \"aodv\"\nrandomize = false",
            "routing.randomize",
            "dsdv",
        ),
        (
            "min_update_periods = 3",
            "routing.min_update_periods",
            "dsdv",
        ),
        (
            "protocol = \"dsdv\"\nhold_packets = 3",
            "routing",
            "static routing",
        ),
    ];
    for (routing, path, allowed) in cases {
        let e = chain("", routing).expect_err(routing);
        assert_eq!(e.path, path, "{routing}: {e}");
        assert!(e.message.contains(allowed), "{routing}: {e}");
    }
}

/// Two nodes 540 m apart at time 0 (beyond the 250 m range) that meet later, one flow
/// between them (ns-2's `simple-wireless.tcl`): a routing protocol finds the path during the
/// run, so DSDV, AODV and DSR accept it; static routes are fixed at the start and refuse it
/// with the flow's key.
#[test]
fn nodes_that_meet_later_need_a_path_at_the_start_only_under_static_routes() {
    let scenario = |routing: &str| {
        from_toml(&format!(
            "name = \"meet\"\nduration = \"60s\"\n\
             [[nodes]]\nname = \"n0\"\nposition = [5.0, 5.0]\n\
             [[nodes.moves]]\nat = \"10s\"\nto = [20.0, 18.0]\nspeed = \"1m/s\"\n\
             [[nodes]]\nname = \"n1\"\nposition = [490.0, 285.0]\n\
             [[nodes.moves]]\nat = \"15s\"\nto = [25.0, 20.0]\nspeed = \"15m/s\"\n\
             [[flows]]\nsrc = \"n0\"\ndst = \"n1\"\ntcp = \"reno\"\n\
             [wireless]\n[routing]\nprotocol = \"{routing}\"\n"
        ))
    };
    for routing in ["dsdv", "aodv", "dsr"] {
        assert!(
            scenario(routing).is_ok(),
            "{routing}: {:?}",
            scenario(routing).err()
        );
    }
    let err = scenario("static").unwrap_err();
    assert_eq!(err.path, "flows.0.dst");
    assert!(
        err.message.contains("no route from `n0` to `n1`"),
        "{}",
        err.message
    );
}

/// Two static nodes that never come in range (1000 m apart): a routing protocol runs the
/// scenario and finds no route (ns-2 runs such a script: its agent drops the packets), while
/// static routes refuse it before the run.
#[test]
fn a_node_never_in_range_is_a_result_under_a_routing_protocol() {
    let scenario = |routing: &str| {
        from_toml(&format!(
            "name = \"apart\"\nduration = \"10s\"\n\
             [[nodes]]\nname = \"n0\"\nposition = [0.0, 0.0]\n\
             [[nodes]]\nname = \"n1\"\nposition = [1000.0, 0.0]\n\
             [[flows]]\nsrc = \"n0\"\ndst = \"n1\"\ntransport = \"udp\"\n\
             app = {{ kind = \"cbr\", rate = \"64kbps\" }}\n\
             [wireless]\n[routing]\nprotocol = \"{routing}\"\n"
        ))
    };
    for routing in ["dsdv", "aodv", "dsr"] {
        let sc = scenario(routing).unwrap_or_else(|e| panic!("{routing}: {e}"));
        let out = ternsim_core::world::run(&sc, 1);
        assert_eq!(out.summary.flows[0].data_packets_received, 0, "{routing}");
        assert!(out.summary.flows[0].data_packets_sent > 0, "{routing}");
    }
    let err = scenario("static").unwrap_err();
    assert_eq!(err.path, "flows.0.dst");
    assert!(
        err.message.contains("no route from `n0` to `n1`"),
        "{}",
        err.message
    );
}
