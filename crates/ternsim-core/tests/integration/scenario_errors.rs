//! Bad input is refused before the run with the key path and what is allowed.

use ternsim_core::scenario::{from_toml, ScenarioError};

const BASE: &str = r#"
name = "t"
duration = "10s"
[[nodes]]
name = "a"
[[nodes]]
name = "b"
[[nodes]]
name = "c"
[[links]]
a = "a"
b = "b"
rate = "1Mbps"
delay = "10ms"
[[flows]]
src = "a"
dst = "b"
tcp = "reno"
"#;

fn err(toml_text: &str) -> ScenarioError {
    from_toml(toml_text).expect_err("scenario should be refused")
}

#[test]
fn the_base_scenario_is_valid() {
    let sc = from_toml(BASE).unwrap();
    assert_eq!(sc.flows.len(), 1);
    assert_eq!(sc.links[0].name, "a-b");
}

#[test]
fn unknown_key_names_its_path_and_the_allowed_keys() {
    let e = err(&BASE.replace("tcp = \"reno\"", "tcp = \"reno\"\nbogus = 1"));
    assert_eq!(e.path, "flows.0.bogus");
    assert!(e.message.contains("allowed keys"), "{e}");
    assert!(e.message.contains("tcp"), "{e}");
}

#[test]
fn bad_unit_names_its_path_and_the_allowed_units() {
    let e = err(&BASE.replace("\"10ms\"", "\"5parsecs\""));
    assert_eq!(e.path, "links.0.delay");
    assert!(e.message.contains("allowed units: s, ms"), "{e}");
}

#[test]
fn negative_rate_is_refused() {
    let e = err(&BASE.replace("\"1Mbps\"", "\"-1Mbps\""));
    assert_eq!(e.path, "links.0.rate");
    assert!(e.message.contains("must be > 0"), "{e}");
}

#[test]
fn a_zero_reverse_rate_names_its_key() {
    let e = err(&BASE.replace(
        "rate = \"1Mbps\"",
        "rate = \"1Mbps\"\nrate_b_to_a = \"0bps\"",
    ));
    assert_eq!(e.path, "links.0.rate_b_to_a");
    assert!(e.message.contains("> 0"), "{e}");
}

#[test]
fn unknown_tcp_variant_lists_the_variants() {
    let e = err(&BASE.replace("\"reno\"", "\"cubic\""));
    assert_eq!(e.path, "flows.0.tcp");
    assert!(
        e.message.contains("tahoe, reno, newreno, sack, vegas"),
        "{e}"
    );
}

#[test]
fn flow_between_disconnected_nodes_is_refused() {
    let e = err(&BASE.replace("dst = \"b\"", "dst = \"c\""));
    assert_eq!(e.path, "flows.0.dst");
    assert!(e.message.contains("no route"), "{e}");
}

#[test]
fn unknown_node_and_bad_probability_are_refused() {
    let e = err(&BASE.replace("src = \"a\"", "src = \"zz\""));
    assert_eq!(e.path, "flows.0.src");
    let e = err(&BASE.replace("delay = \"10ms\"", "delay = \"10ms\"\nloss = 1.5"));
    assert_eq!(e.path, "links.0.loss");
    assert!(e.message.contains("[0, 1]"), "{e}");
}

#[test]
fn a_number_without_unit_is_refused() {
    let e = err(&BASE.replace("\"10ms\"", "10"));
    assert_eq!(e.path, "links.0.delay");
    assert!(e.message.contains("no unit"), "{e}");
}

#[test]
fn error_model_keys_are_checked() {
    let e = err(&BASE.replace(
        "delay = \"10ms\"",
        "delay = \"10ms\"\nerror_a_to_b = { model = \"iid\", rate = 2.0 }",
    ));
    assert_eq!(e.path, "links.0.error_a_to_b.rate");
    let e = err(&BASE.replace(
        "delay = \"10ms\"",
        "delay = \"10ms\"\nerror_a_to_b = { model = \"magic\" }",
    ));
    assert!(e.path.starts_with("links.0.error_a_to_b"), "{e}");
    assert!(e.message.contains("iid"), "{e}");
}

#[test]
fn tcp_option_errors_name_the_option() {
    let e = err(&BASE.replace(
        "tcp = \"reno\"",
        "tcp = \"reno\"\noptions = { profile = \"ns3\" }",
    ));
    assert_eq!(e.path, "flows.0.options.profile");
    assert!(e.message.contains("ns2.35, ns2.29, ns2.26, rfc"), "{e}");
}

/// ns-2's `boot_time_` lies in [0, tcpTick_): a phase of a whole tick or more is refused;
/// one below the tick reaches the sender's configuration.
#[test]
fn tick_phase_must_lie_below_the_tick() {
    let e = err(&BASE.replace(
        "tcp = \"reno\"",
        "tcp = \"reno\"\noptions = { tick_phase = \"10ms\" }",
    ));
    assert_eq!(e.path, "flows.0.options.tick_phase");
    assert!(e.message.contains("tick"), "{e}");
    let sc = from_toml(&BASE.replace(
        "tcp = \"reno\"",
        "tcp = \"reno\"\noptions = { tick = \"100ms\", tick_phase = \"55.5ms\" }",
    ))
    .unwrap();
    let ternsim_core::scenario::FlowTransport::Tcp { tcp, .. } = &sc.flows[0].transport else {
        panic!("a TCP flow");
    };
    assert_eq!(
        tcp.rto.tick_phase,
        Some(ternsim_core::sim::SimTime::from_micros(55_500))
    );
}

#[test]
fn hidden_markov_error_model_is_checked() {
    let ok = BASE.replace(
        "delay = \"10ms\"",
        "delay = \"10ms\"\nerror_a_to_b = { model = \"hmm\", transition = [[0.9, 0.1], [0.5, 0.5]], error_prob = [0.0, 0.8] }",
    );
    let sc = from_toml(&ok).unwrap();
    // Stationary P(bad) = 0.1 / (0.1 + 0.5) = 1/6, so the mean error rate is 0.8 / 6.
    let rate = sc.links[0].error_a_to_b.mean_error_rate();
    assert!((rate - 0.8 / 6.0).abs() < 1e-12, "{rate}");
    let e = err(&ok.replace("[0.5, 0.5]", "[0.5, 0.4]"));
    assert_eq!(e.path, "links.0.error_a_to_b.transition");
    assert!(e.message.contains("sums to"), "{e}");
}

/// 50 random nodes with AODV (or DSDV, or static routing) and a flow but no `[wireless]`
/// table and no links: no node has an interface. Refused before the run, saying what to
/// add, instead of running with every packet dropped at its source (AODV) or blaming a
/// missing route (DSDV).
#[test]
fn a_network_without_interfaces_is_refused_with_what_to_add() {
    for protocol in ["aodv", "dsdv", "dsr", "static"] {
        let text = format!(
            "name = \"t\"\nduration = \"10s\"\n[topology]\n\
             random = {{ nodes = 50, area = [\"500m\", \"500m\"] }}\n\
             [routing]\nprotocol = \"{protocol}\"\n\
             [[flows]]\nsrc = \"n1\"\ndst = \"n2\"\ntransport = \"udp\"\n\
             app = {{ kind = \"cbr\", rate = \"64kbps\" }}\n"
        );
        let e = err(&text);
        let name = if protocol == "static" {
            "static routing"
        } else {
            protocol
        };
        assert_eq!(e.path, "wireless", "{protocol}: {e}");
        assert_eq!(
            e.message,
            format!(
                "no node has an interface, so `{name}` cannot carry a packet; add a [wireless] \
                 table for an ad hoc network, or [[links]] for a wired one"
            )
        );
    }
}

/// An empty key is still an unknown key with a path: its quotes.
#[test]
fn an_empty_key_is_named_by_its_quotes() {
    let e = err(&format!("\"\" = \"router\"\n{BASE}"));
    assert_eq!(e.path, "\"\"");
    assert!(
        e.message.starts_with("unknown key; allowed keys: name, "),
        "{e}"
    );
}

/// `[routing] protocol = "dv"` takes its own keys over ns-2's defaults, refuses bad values
/// and the keys of other protocols with their paths, and runs on wired links only.
#[test]
fn dv_keys_are_checked_with_their_paths() {
    let dv = BASE.replace("[[flows]]", "[routing]\nprotocol = \"dv\"\n[[flows]]");
    let sc = from_toml(&dv).unwrap();
    assert_eq!(
        sc.routing,
        ternsim_core::routing::RoutingConfig::Dv(ternsim_core::routing::DvConfig::default())
    );
    let with = |keys: &str| dv.replace("protocol = \"dv\"", &format!("protocol = \"dv\"\n{keys}"));
    let sc = from_toml(&with(
        "advert_interval = \"500ms\"\ninfinity = 16\nrng_seed = 7",
    ))
    .unwrap();
    let ternsim_core::routing::RoutingConfig::Dv(c) = sc.routing else {
        panic!("{:?}", sc.routing)
    };
    assert_eq!((c.advert_interval, c.infinity, c.seed), (0.5, 16, 7));
    for (keys, path, says) in [
        ("advert_interval = \"0s\"", "routing.advert_interval", "> 0"),
        ("infinity = 1", "routing.infinity", "from 2 to 255"),
        ("rng_seed = 0", "routing.rng_seed", "from 1 to 2147483646"),
        ("reroute = false", "routing.reroute", "static routing"),
        ("hold_packets = 5", "routing", "static routing"),
        ("randomize = false", "routing.randomize", "dsdv"),
    ] {
        let e = err(&with(keys));
        assert_eq!(e.path, path, "{keys}: {e}");
        assert!(e.message.contains(says), "{keys}: {e}");
    }
    let e = err(&BASE.replace("[[flows]]", "[routing]\ninfinity = 16\n[[flows]]"));
    assert_eq!(e.path, "routing.infinity");
    assert!(e.message.contains("protocol = \"dv\" only"), "{e}");
    let e = err(&dv.replace("[[flows]]", "[wireless]\n[[flows]]"));
    assert_eq!(e.path, "wireless");
    assert!(e.message.contains("wired links only"), "{e}");
}

/// A link event's `notify_order` names the link's two ends, and only a link going down or
/// up takes one.
#[test]
fn notify_order_names_the_links_ends() {
    let event = |extra: &str| {
        format!("{BASE}[[events]]\nat = \"1s\"\naction = \"down\"\nlink = \"a-b\"\n{extra}\n")
    };
    assert!(from_toml(&event("notify_order = [\"b\", \"a\"]")).is_ok());
    let e = err(&event("notify_order = [\"a\", \"c\"]"));
    assert_eq!(e.path, "events.0.notify_order");
    assert!(e.message.contains("[\"a\", \"b\"] in either order"), "{e}");
    let e =
        err(&event("notify_order = [\"a\", \"b\"]")
            .replace("\"down\"", "\"set\"\nrate = \"2Mbps\""));
    assert_eq!(e.path, "events.0.notify_order");
}
