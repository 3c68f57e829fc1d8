//! Ping flows (ns-2 `Agent/Ping`): echo requests from either end, replies at once, round
//! trips measured against times worked out by hand, and a stepped run pausing at each reply
//! for its host.

use ternsim_core::scenario::{from_toml, ResolvedScenario};
use ternsim_core::sim::SimTime;
use ternsim_core::world::{run, AgentSide, CaptureSpec, Simulation};

/// Greis's `ping` topology: n0 -1 Mb/s, 10 ms- n1 -1 Mb/s, 10 ms- n2; the source at n0.
/// A 64-byte packet takes 64 × 8 / 1e6 = 0.512 ms to send and 10 ms to cross each link:
/// 10.512 ms a link, 42.048 ms there and back (ns-2 prints `42.0`).
fn greis(app: &str, events: &str) -> ResolvedScenario {
    from_toml(&format!(
        r#"
name = "ping"
duration = "1s"
nodes = [ {{ name = "n0" }}, {{ name = "n1" }}, {{ name = "n2" }} ]
[[links]]
a = "n0"
b = "n1"
rate = "1Mbps"
delay = "10ms"
[[links]]
a = "n1"
b = "n2"
rate = "1Mbps"
delay = "10ms"
[[flows]]
name = "p"
src = "n0"
dst = "n2"
transport = "ping"
start = "0.2s"
{app}
{events}
"#
    ))
    .unwrap()
}

const ROUND_TRIP_64B: f64 = 4.0 * (64.0 * 8.0 / 1e6 + 0.010);

#[test]
fn scheduled_pings_measure_four_link_crossings() {
    let sc = greis(
        r#"app = { kind = "ping", interval = "0.1s", count = 3 }"#,
        "",
    );
    let out = run(&sc, 1);
    let f = &out.summary.flows[0];
    assert_eq!(f.transport, "ping");
    assert_eq!((f.packets_sent, f.packets_received), (Some(3), Some(3)));
    assert_eq!(f.rtt_samples, 3);
    for rtt in [f.rtt_min_s, f.rtt_mean_s, f.rtt_max_s] {
        assert!((rtt.unwrap() - ROUND_TRIP_64B).abs() < 1e-9, "{rtt:?}");
    }
    // Three requests and three replies, each crossing the network once.
    assert_eq!(out.summary.packets.created, 6);
    assert_eq!(out.summary.packets.delivered, 6);
}

#[test]
fn the_far_end_replies_with_its_own_packet_size() {
    // Requests of 1000 B (8 ms a link), replies of 64 B (0.512 ms a link): 2 × 18 ms + 2 ×
    // 10.512 ms.
    let sc = greis(
        r#"app = { kind = "ping", packet_size = "1000B", reply_size = "64B", interval = "0.5s", count = 1 }"#,
        "",
    );
    let f = &run(&sc, 1).summary.flows[0];
    let expected = 2.0 * (1000.0 * 8.0 / 1e6 + 0.010) + 2.0 * (64.0 * 8.0 / 1e6 + 0.010);
    assert!((f.rtt_mean_s.unwrap() - expected).abs() < 1e-9);
}

#[test]
fn a_reverse_ping_event_is_sent_by_the_destination() {
    let sc = greis(
        "",
        r#"
[[events]]
at = "0.4s"
flow = "p"
action = "ping"
direction = "reverse"
[[events]]
at = "0.6s"
flow = "p"
action = "ping"
"#,
    );
    let mut sim = Simulation::new(sc, 1, &CaptureSpec::default()).unwrap();
    sim.set_ping_upcalls(true);
    // The first reply comes back to n2 at 0.4 + 42.048 ms: the run pauses right there.
    assert!(!sim.run_until(SimTime::from_secs_f64(1.0)));
    let r = sim.take_ping_replies();
    assert_eq!(r.len(), 1);
    assert_eq!(
        (r[0].side, r[0].seq, r[0].sent_at),
        (AgentSide::Sink, 0, 0.4)
    );
    assert!((r[0].at - (0.4 + ROUND_TRIP_64B)).abs() < 1e-12);
    assert!((r[0].received_at - (0.4 + ROUND_TRIP_64B / 2.0)).abs() < 1e-12);
    assert_eq!(sim.now(), SimTime::from_secs_f64(0.4 + ROUND_TRIP_64B));
    // The host answers with a ping of its own from the source, at the pause.
    sim.ping(0, AgentSide::Source).unwrap();
    assert!(!sim.run_until(SimTime::from_secs_f64(1.0)));
    let r = sim.take_ping_replies();
    assert_eq!((r[0].side, r[0].seq), (AgentSide::Source, 0));
    assert!((r[0].at - (0.4 + 2.0 * ROUND_TRIP_64B)).abs() < 1e-12);
    // Then the scheduled forward ping at 0.6: its sequence number is the source's second.
    assert!(!sim.run_until(SimTime::from_secs_f64(1.0)));
    let r = sim.take_ping_replies();
    assert_eq!(
        (r[0].side, r[0].seq, r[0].sent_at),
        (AgentSide::Source, 1, 0.6)
    );
    assert!(sim.run_until(SimTime::from_secs_f64(1.0)));
    let out = sim.finish();
    assert_eq!(out.summary.flows[0].packets_received, Some(3));
}

#[test]
fn without_upcalls_a_stepped_run_keeps_nothing_and_never_pauses_early() {
    let sc = greis(r#"app = { kind = "ping", interval = "0.1s" }"#, "");
    let mut sim = Simulation::new(sc, 1, &CaptureSpec::default()).unwrap();
    assert!(sim.run_until(SimTime::from_secs_f64(0.9)));
    assert!(sim.take_ping_replies().is_empty());
    // Sent at 0.2, 0.3, ..., 1.0 (the run's last instant, whose reply is not back by then).
    let out = sim.finish();
    assert_eq!(out.summary.flows[0].packets_sent, Some(9));
    assert_eq!(out.summary.flows[0].packets_received, Some(8));
}

#[test]
fn ping_events_and_apps_are_checked_before_the_run() {
    let bad = [
        (
            r#"app = { kind = "ping", count = 2 }"#,
            "",
            "flows.0.app.count",
        ),
        (
            r#"app = { kind = "ping", interval = "0s" }"#,
            "",
            "flows.0.app.interval",
        ),
        (r#"app = { kind = "cbr" }"#, "", "flows.0.app.kind"),
        (
            "",
            "[[events]]\nat = \"0.5s\"\nflow = \"p\"\naction = \"ping\"\ndirection = \"up\"",
            "events.0.direction",
        ),
    ];
    for (app, events, key) in bad {
        let toml = format!(
            r#"
name = "ping"
duration = "1s"
nodes = [ {{ name = "n0" }}, {{ name = "n1" }} ]
[[links]]
a = "n0"
b = "n1"
rate = "1Mbps"
delay = "10ms"
[[flows]]
name = "p"
src = "n0"
dst = "n1"
transport = "ping"
{app}
{events}
"#
        );
        let err = from_toml(&toml).unwrap_err();
        assert!(err.to_string().contains(key), "{key}: {err}");
    }
}
