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

/// DSR runs over CMUPriQueue with the MAC tap and hands queued packets back on a failure
/// (link-spec §3.6, §4.2); static routing keeps PriQueue and no tap.
#[test]
fn dsr_sets_the_queue_and_the_tap() {
    let sc = chain(
        "data_rate = \"2Mbps\"\nmac_header = 52",
        "protocol = \"dsr\"",
    )
    .unwrap();
    assert!(matches!(sc.routing, RoutingConfig::Dsr(_)));
    let w = sc.wireless.unwrap();
    assert_eq!(
        (w.ifq, w.promiscuous, w.hand_back_queued_on_failure),
        (IfqKind::CmuPriQueue, true, true)
    );
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
            "propagation = \"shadowing\"",
            "",
            "wireless.propagation",
            "two_ray_ground, free_space",
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
            "static, dsr, aodv",
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
