//! End-to-end runs of small networks whose outcome can be worked out by hand.

use ternsim_core::scenario::from_toml;
use ternsim_core::world::run;

fn two_nodes(delay: &str, extra_flow: &str) -> String {
    format!(
        r#"
name = "pair"
duration = "20s"
[[nodes]]
name = "a"
[[nodes]]
name = "b"
[[links]]
a = "a"
b = "b"
rate = "10Mbps"
delay = "{delay}"
[[flows]]
src = "a"
dst = "b"
tcp = "reno"
{extra_flow}
"#
    )
}

/// One-way delay 2 s, so the SYN's RTT (4 s) exceeds ns-2.35's initial RTO (3 s): the SYN
/// times out at 3 s although it reached the receiver at 2 s (spurious), and its
/// retransmission reaches a receiver that already has it at 5 s (redundant). The ACK of the
/// original arrives at 4 s; by Karn's rule it gives no RTT sample, so the backed-off RTO
/// (6 s) covers the data packet sent at 4 s and ACKed at 8 s.
#[test]
fn a_syn_that_outlives_the_initial_rto_times_out_spuriously() {
    let sc = from_toml(&two_nodes("2s", "bytes = \"1000B\"")).unwrap();
    let out = run(&sc, 1);
    let f = &out.summary.flows[0];
    assert_eq!(f.timeouts, 1);
    assert_eq!(f.spurious_timeouts, 1);
    assert_eq!(f.redundant_retransmissions, 1);
    assert_eq!(f.delivered_bytes, 1000);
    // Completion at 6 s (packet 1 reaches the receiver): goodput 8000 bits over 6 s.
    assert!((f.stop_s - 6.0).abs() < 1e-3, "{}", f.stop_s);
    assert!((f.goodput_bps - 8000.0 / f.stop_s).abs() < 1e-6);
    assert!(out.summary.packets.balanced);
}

/// With a short path nothing times out: no spurious timeouts, nothing redundant.
#[test]
fn a_clean_short_path_has_no_spurious_timeouts() {
    let sc = from_toml(&two_nodes("10ms", "bytes = \"100kB\"")).unwrap();
    let out = run(&sc, 1);
    let f = &out.summary.flows[0];
    assert_eq!(
        (f.timeouts, f.spurious_timeouts, f.redundant_retransmissions),
        (0, 0, 0)
    );
    assert_eq!(f.delivered_bytes, 100_000);
    // 101 packets (SYN + 100) and as many ACKs, all delivered.
    let p = &out.summary.packets;
    assert_eq!(
        (p.created, p.delivered, p.dropped, p.in_flight),
        (202, 202, 0, 0)
    );
}

/// A trace-driven source: 1500 B at 0 s and 500 B at 5 s become 2 packets and then 0 more
/// (2000 B still fits in 2 packets of 1000 B), then 2500 B at 6 s adds 3 (4500 B -> 5).
#[test]
fn a_trace_driven_application_sends_what_its_trace_lists() {
    let dir = std::env::temp_dir().join(format!("ternsim-app-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("session.txt"),
        "# t bytes\n0 1500\n5 500\n6 2500\n",
    )
    .unwrap();
    let text = two_nodes("10ms", "app = { kind = \"trace\", file = \"session.txt\" }").replace(
        "duration = \"20s\"",
        &format!(
            "duration = \"20s\"\nscenario_dir = {:?}",
            dir.to_str().unwrap()
        ),
    );
    let sc = from_toml(&text).unwrap();
    let out = run(&sc, 1);
    let f = &out.summary.flows[0];
    assert_eq!(f.delivered_bytes, 5000);
    assert_eq!(f.segments_sent, 6); // SYN + 5 data packets
    assert_eq!(f.timeouts, 0);

    let missing = text.replace("session.txt", "nope.txt");
    let e = from_toml(&missing).unwrap_err();
    assert_eq!(e.path, "flows.0.app.file");
    std::fs::remove_dir_all(&dir).unwrap();
}
