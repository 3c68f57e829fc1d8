//! A run its host steps (ns-2's `$ns at` callbacks, a notebook): pausing changes nothing,
//! reads see the state at the pause, and a window written mid-run bounds the sender from then on.

use ternsim_core::scenario::{from_toml, ResolvedScenario};
use ternsim_core::sim::SimTime;
use ternsim_core::world::{run_with, CaptureSpec, RunOutput, Simulation};

/// One TCP flow over one 10 Mb/s, 10 ms link; ns-2.35's TCP with 1000 B segments plus 40 B of
/// headers and a receiver window of `window` packets.
fn pair(window: u32, duration: &str) -> ResolvedScenario {
    from_toml(&format!(
        r#"
name = "pair"
duration = "{duration}"
nodes = [ {{ name = "a", kind = "host" }}, {{ name = "b", kind = "host" }} ]
[[links]]
a = "a"
b = "b"
rate = "10Mbps"
delay = "10ms"
queue = 100
[[flows]]
src = "a"
dst = "b"
tcp = "newreno"
[tcp_defaults]
profile = "ns2.35"
packet_size = "1000B"
header_size = "40B"
window = {window}
"#
    ))
    .unwrap()
}

/// The three-node drop-tail case of the ns-2 conformance suite: losses, fast retransmits and
/// timeouts, so a pause that disturbed anything would show.
fn bottleneck() -> ResolvedScenario {
    from_toml(
        r#"
name = "bottleneck"
duration = "20s"
nodes = [ { name = "n0", kind = "host" }, { name = "n1", kind = "host" }, { name = "n2", kind = "host" } ]
[[links]]
a = "n0"
b = "n1"
rate = "10Mbps"
delay = "10ms"
[[links]]
a = "n1"
b = "n2"
rate = "1.5Mbps"
delay = "20ms"
queue = 20
[[flows]]
src = "n0"
dst = "n2"
tcp = "newreno"
[tcp_defaults]
profile = "ns2.35"
packet_size = "1000B"
header_size = "40B"
window = 100
"#,
    )
    .unwrap()
}

fn without_wall_time(out: &RunOutput) -> serde_json::Value {
    let mut v = serde_json::to_value(&out.summary).unwrap();
    v.as_object_mut().unwrap().remove("wall_seconds");
    v
}

fn state(sim: &Simulation, flow: usize, name: &str) -> f64 {
    let st = sim.flow_state(flow).unwrap();
    st.iter().find(|(k, _)| *k == name).unwrap().1
}

fn ns2_trace_spec() -> CaptureSpec {
    CaptureSpec {
        pcap: None,
        ns2_trace: true,
        ns2_omit: Vec::new(),
        ns2_mac: false,
        ns2_events: false,
        ns2_exact_times: false,
        ns2_newtrace: false,
    }
}

#[test]
fn a_run_paused_every_10_ms_is_the_run_without_pauses() {
    let sc = bottleneck();
    let whole = run_with(&sc, 7, &ns2_trace_spec(), &mut |_, _| {}).unwrap();
    let mut sim = Simulation::new(sc.clone(), 7, &ns2_trace_spec()).unwrap();
    let mut trace = String::new();
    let mut acks = Vec::new();
    for k in 1..2000u64 {
        sim.run_until(SimTime::from_nanos(k * 10_000_000));
        acks.push(state(&sim, 0, "ack"));
        trace.push_str(&sim.take_ns2_trace());
    }
    let mut sim_rest = sim;
    let rest_trace = sim_rest.take_ns2_trace();
    trace.push_str(&rest_trace);
    let stepped = sim_rest.finish();
    trace.push_str(stepped.capture.ns2_trace.as_deref().unwrap_or(""));
    assert_eq!(without_wall_time(&whole), without_wall_time(&stepped));
    assert!(
        trace == whole.capture.ns2_trace.clone().unwrap(),
        "traces differ"
    );
    // The cumulative ACK read at each pause never goes back and ends where the summary does.
    assert!(acks.windows(2).all(|w| w[0] <= w[1]));
    assert!(whole.summary.flows[0].timeouts + whole.summary.flows[0].fast_retransmits > 0);
}

/// With one packet in flight a round trip is exactly the data packet's transmission time
/// (1040 B at 10 Mb/s = 0.832 ms), the propagation both ways (20 ms) and the ACK's
/// transmission time (40 B = 0.032 ms): 20.864 ms. After `window_` drops to 1 at 5 s (and the
/// 20 packets then in flight drain within a round trip), the cumulative ACK advances by one
/// packet per 20.864 ms: 479.29 round trips in the 10 s from 6 s to 16 s.
#[test]
fn a_window_of_one_written_mid_run_gives_one_packet_per_round_trip() {
    let mut sim = Simulation::new(pair(20, "20s"), 1, &CaptureSpec::default()).unwrap();
    sim.run_until(SimTime::from_secs_f64(5.0));
    let before = state(&sim, 0, "ack");
    // 20 packets per 20.864 ms + queueing: well above one per round trip before the change.
    assert!(before > 2000.0, "{before}");
    sim.set_tcp_window(0, 1).unwrap();
    sim.run_until(SimTime::from_secs_f64(6.0));
    let at6 = state(&sim, 0, "ack");
    sim.run_until(SimTime::from_secs_f64(16.0));
    let at16 = state(&sim, 0, "ack");
    let expected = 10.0 / 0.020_864;
    assert!(
        (at16 - at6 - expected).abs() <= 1.0,
        "{} vs {expected}",
        at16 - at6
    );
    assert_eq!(state(&sim, 0, "cwnd").min(1.0), 1.0);
}

/// A pause reads the state before the events due at the pause itself, as an ns-2 `$ns at`
/// callback does: at 0 nothing has been sent; the first data packet (packet 0, ns-2's SYN)
/// leaves at 0, so just after 0 one packet is out.
#[test]
fn a_pause_sees_the_state_before_the_events_due_at_its_time() {
    let mut sim = Simulation::new(pair(20, "1s"), 1, &CaptureSpec::default()).unwrap();
    assert_eq!(state(&sim, 0, "maxseq"), -1.0);
    sim.run_until(SimTime::from_nanos(1));
    assert_eq!(state(&sim, 0, "maxseq"), 0.0);
    assert_eq!(state(&sim, 0, "t_seqno"), 1.0);
    assert!(sim.flow_state(1).is_none());
    assert!(sim.set_tcp_window(0, 0).is_err());
    // Stopping at 0.5 s summarises [0, 0.5 s].
    sim.run_until(SimTime::from_secs_f64(0.5));
    let acked = state(&sim, 0, "ack");
    let out = sim.stop();
    assert_eq!(out.summary.sim_seconds, 0.5);
    assert!(acked > 100.0);
}

/// ns-2 `$ns detach-agent` of both agents at 5 s (ns-2's `ex/simple.tcl` at 1.35 s): the
/// segments in flight (at most the 20-packet window) still cross the link and reach node
/// b's port, where the null agent takes them; no ACK goes out from then on, so the
/// sender's cumulative ACK stops where the last ACK sent before 5 s, one propagation delay
/// away, leaves it. The sender keeps running: its retransmission timer fires and it
/// "sends" into its own null agent, so nothing more appears in the ns-2 trace after the
/// in-flight packets have arrived (5 s + 10 ms propagation + a window's 16.6 ms of
/// transmission).
#[test]
fn detached_agents_send_and_receive_nothing_after_the_detach() {
    use ternsim_core::world::AgentSide;
    let mut sim = Simulation::new(pair(20, "10s"), 1, &ns2_trace_spec()).unwrap();
    sim.run_until(SimTime::from_secs_f64(5.0));
    sim.detach_agent(0, AgentSide::Source).unwrap();
    sim.detach_agent(0, AgentSide::Sink).unwrap();
    let mut trace = sim.take_ns2_trace();
    sim.run_until(SimTime::from_secs_f64(5.1));
    let ack_at = state(&sim, 0, "ack");
    sim.run_until(SimTime::from_secs_f64(10.0));
    assert_eq!(state(&sim, 0, "ack"), ack_at);
    assert!(state(&sim, 0, "timeouts") >= 1.0);
    trace.push_str(&sim.take_ns2_trace());
    let out = sim.finish();
    trace.push_str(out.capture.ns2_trace.as_deref().unwrap_or(""));
    let last: f64 = trace
        .lines()
        .last()
        .and_then(|l| l.split_whitespace().nth(1))
        .unwrap()
        .parse()
        .unwrap();
    assert!(last < 5.0 + 0.010 + 0.0167 + 1e-9, "{last}");
    assert!(sim_detach_refuses_unknown_flows());
}

fn sim_detach_refuses_unknown_flows() -> bool {
    let mut sim = Simulation::new(pair(20, "1s"), 1, &CaptureSpec::default()).unwrap();
    sim.detach_agent(3, ternsim_core::world::AgentSide::Sink)
        .is_err_and(|e| e == "no flow 3")
}
