//! Mobile IP end to end on the `ho-mobileip` topology (seed Fig. 2): the base RTT of every
//! path the paper uses, worked by hand from link delays and transmission times; handoffs by
//! coverage with the care-of address changes that drive Demo-Vegas.

use ternsim_core::scenario::from_toml;
use ternsim_core::trace::Column;
use ternsim_core::world::{run, RunOutput};

fn f64s(c: Option<&Column>) -> Vec<f64> {
    match c {
        Some(Column::F64(v)) => v.clone(),
        other => panic!("not an f64 column: {other:?}"),
    }
}

fn scenario_text() -> String {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../python/ternsim/scenarios/ho-mobileip/mobileip.toml"
    );
    std::fs::read_to_string(path).unwrap()
}

/// The shipped scenario with textual edits applied, run with seed 1.
fn run_with(edits: &[(&str, &str)]) -> RunOutput {
    let mut text = scenario_text();
    for (from, to) in edits {
        assert!(text.contains(from), "scenario lacks {from:?}");
        text = text.replacen(from, to, 1);
    }
    run(&from_toml(&text).unwrap(), 1)
}

/// RTT samples (time, rtt) in seconds.
fn rtts(out: &RunOutput) -> Vec<(f64, f64)> {
    let t = out
        .tables
        .iter()
        .find(|t| t.name == "rtt")
        .expect("rtt trace");
    let (time, rtt) = (f64s(t.column("time_s")), f64s(t.column("rtt_s")));
    time.into_iter().zip(rtt).collect()
}

const RTT_TRACE: (&str, &str) = ("[traces]", "[traces]\nrtt = true");
const ONE_PACKET: (&str, &str) = ("window = 20 ", "window = 1 ");
const X1: (&str, &str) = ("delay = \"3ms\"                     # X", "delay = \"1ms\"");
const Y1: (&str, &str) = ("delay = \"3ms\"                     # Y", "delay = \"1ms\"");
const REVERSE: (&str, &str) = ("reverse_tunnel = false", "reverse_tunnel = true");
const RO: (&str, &str) = (
    "route_optimization = false",
    "route_optimization = true\ncorrespondents = [\"CN\"]",
);

/// The RTT samples in [from, to) s, in ms: their minimum, and the share equal to it (within
/// 1 ns). With a window of one packet nothing queues, so the minimum is the path's base RTT
/// and nearly every sample equals it (the few others waited behind an 8 ms advertisement or
/// registration frame on the last hop).
fn base_rtt_ms(out: &RunOutput, from: f64, to: f64) -> (f64, f64) {
    let v: Vec<f64> = rtts(out)
        .into_iter()
        .filter(|&(t, _)| t >= from && t < to)
        .map(|(_, r)| r * 1e3)
        .collect();
    assert!(v.len() > 100, "{} samples in [{from}, {to})", v.len());
    let min = v.iter().copied().fold(f64::INFINITY, f64::min);
    let at_min = v.iter().filter(|&&r| (r - min).abs() < 1e-6).count();
    (min, at_min as f64 / v.len() as f64)
}

fn assert_base(out: &RunOutput, from: f64, to: f64, expected_ms: f64) {
    let (min, share) = base_rtt_ms(out, from, to);
    assert!(
        (min - expected_ms).abs() < 1e-6,
        "[{from}, {to}) s: base RTT {min} ms, expected {expected_ms} ms"
    );
    assert!(
        share > 0.9,
        "[{from}, {to}) s: only {share} of the samples at the base"
    );
}

// Transmission times: a Vegas data packet is 1000 bytes (ns-2 Vegas adds no header), an ACK
// 40; at 5 Mb/s 1000 B take 1.6 ms, 1020 B (tunnelled) 1.632 ms, 40 B 0.064 ms, 60 B
// (reverse-tunnelled ACK) 0.096 ms. Every frame on an agent's radio link takes 8 ms.
const DATA: f64 = 1.6;
const DATA_TUNNEL: f64 = 1.632;
const ACK: f64 = 0.064;
const ACK_TUNNEL: f64 = 0.096;
const RADIO: f64 = 8.0;

/// Fig. 3 (X = 3, Y = 3, Z = 1), triangular routing.
/// - At home (0-20 s): data CN→R 5 + 1.6, R→HA 3 + 1.6, HA→MN 8; ACK MN→HA 8,
///   HA→R 3 + 0.064, R→CN 5 + 0.064: 35.328 ms (the paper's "about 32" leaves out the
///   3.328 ms of wired transmission).
/// - In FA1's network (26-46 s): data CN→R 6.6, R→HA 4.6, tunnel HA→R 3 + 1.632,
///   R→FA1 3 + 1.632, FA1→MN 8; ACK MN→FA1 8, FA1→R 3.064, R→CN 5.064: 44.592 ms (paper 38).
/// - In FA2's network (50-80 s): the same with R→FA2 1 ms: 40.592 ms (paper 34).
/// - Back in FA1's (85-105 s) and home (110-120 s): as before.
#[test]
fn base_rtt_of_each_path_with_triangular_routing() {
    let out = run_with(&[RTT_TRACE, ONE_PACKET]);
    let home = (5.0 + DATA) + (3.0 + DATA) + RADIO + RADIO + (3.0 + ACK) + (5.0 + ACK);
    assert!((home - 35.328).abs() < 1e-9);
    let via = |y: f64| {
        (5.0 + DATA)
            + (3.0 + DATA)
            + (3.0 + DATA_TUNNEL)
            + (y + DATA_TUNNEL)
            + RADIO
            + RADIO
            + (y + ACK)
            + (5.0 + ACK)
    };
    assert!((via(3.0) - 44.592).abs() < 1e-9 && (via(1.0) - 40.592).abs() < 1e-9);
    assert_base(&out, 1.0, 20.0, home);
    assert_base(&out, 26.0, 46.0, via(3.0));
    assert_base(&out, 50.0, 80.0, via(1.0));
    assert_base(&out, 85.0, 105.0, via(3.0));
    assert_base(&out, 110.0, 120.0, home);
}

/// Figs. 4 and 5 (X = 3, Y = 1) in FA1's network: forward tunnel only, 40.592 ms (paper 34);
/// with the reverse tunnel the ACK goes MN→FA1 8, FA1→R 1 + 0.096, R→HA 3 + 0.096,
/// HA→R 3 + 0.064, R→CN 5 + 0.064: data 26.464 + ACK 20.32 = 46.784 ms (paper 40).
#[test]
fn base_rtt_with_the_forward_tunnel_only_and_with_the_reverse_tunnel() {
    let data = (5.0 + DATA) + (3.0 + DATA) + (3.0 + DATA_TUNNEL) + (1.0 + DATA_TUNNEL) + RADIO;
    let forward = data + RADIO + (1.0 + ACK) + (5.0 + ACK);
    let reverse =
        data + RADIO + (1.0 + ACK_TUNNEL) + (3.0 + ACK_TUNNEL) + (3.0 + ACK) + (5.0 + ACK);
    assert!((forward - 40.592).abs() < 1e-9 && (reverse - 46.784).abs() < 1e-9);
    assert_base(&run_with(&[RTT_TRACE, ONE_PACKET, Y1]), 26.0, 46.0, forward);
    assert_base(
        &run_with(&[RTT_TRACE, ONE_PACKET, Y1, REVERSE]),
        26.0,
        46.0,
        reverse,
    );
}

/// Figs. 6 and 7, route optimization: CN tunnels straight to FA1 (CN→R 5 + 1.632,
/// R→FA1 Y + 1.632, FA1→MN 8; ACK 8, Y + 0.064, 5 + 0.064).
/// - Fig. 6 (X = 1, Y = 3): home 5 + 1.6 + 1 + 1.6 + 8 + 8 + 1.064 + 5.064 = 31.328 ms
///   (paper 28), away 35.392 ms (paper 32): the new path is longer.
/// - Fig. 7 (X = 3, Y = 1): home 35.328 ms (paper 32), away 31.392 ms (paper 28): shorter.
#[test]
fn base_rtt_with_route_optimization_longer_and_shorter() {
    let home = |x: f64| (5.0 + DATA) + (x + DATA) + RADIO + RADIO + (x + ACK) + (5.0 + ACK);
    let away =
        |y: f64| (5.0 + DATA_TUNNEL) + (y + DATA_TUNNEL) + RADIO + RADIO + (y + ACK) + (5.0 + ACK);
    assert!((home(1.0) - 31.328).abs() < 1e-9 && (away(3.0) - 35.392).abs() < 1e-9);
    assert!((home(3.0) - 35.328).abs() < 1e-9 && (away(1.0) - 31.392).abs() < 1e-9);
    let fig6 = run_with(&[RTT_TRACE, ONE_PACKET, X1, RO]);
    assert_base(&fig6, 1.0, 20.0, home(1.0));
    assert_base(&fig6, 26.0, 46.0, away(3.0));
    let fig7 = run_with(&[RTT_TRACE, ONE_PACKET, Y1, RO]);
    assert_base(&fig7, 1.0, 20.0, home(3.0));
    assert_base(&fig7, 26.0, 46.0, away(1.0));
    // The correspondent's binding cache carried the data: CN's link to R carried 1020-byte
    // packets (bytes per packet above 1000).
    let cn = fig7
        .summary
        .links
        .iter()
        .find(|l| l.name == "CN-R" && l.direction == "a_to_b")
        .unwrap();
    assert!(cn.bytes_sent > 1000 * cn.packets_sent);
}

/// The handoffs of Fig. 3's walk, from the coverage crossings: the care-of address changes
/// four times (FA1 at ~23 s, FA2 at ~48 s, FA1 at ~83 s, home at ~108 s) and Demo-Vegas's
/// sender re-measures BaseRTT once for each (the SIG bit flips four times).
#[test]
fn demo_vegas_remeasures_once_per_handoff_of_the_walk() {
    let out = run_with(&[
        ("[traces]", "[traces]\ntopology = true"),
        ("tcp = \"vegas\"", "tcp = \"demo_vegas\""),
    ]);
    let topo = out.tables.iter().find(|t| t.name == "topology").unwrap();
    let Some(Column::Str(events)) = topo.column("event") else {
        panic!()
    };
    let times = f64s(topo.column("time_s"));
    let changes: Vec<f64> = events
        .iter()
        .zip(times)
        .filter(|(e, _)| e.as_str() == "care_of_change")
        .map(|(_, t)| t)
        .collect();
    assert_eq!(changes.len(), 4, "{changes:?}");
    // Each change follows entering coverage (22.93, 47.93, 82.93, 107.93 s) by less than one
    // beacon period (eager switching on the first advertisement heard).
    for (c, enter) in changes.iter().zip([22.9289, 47.9289, 82.9289, 107.9289]) {
        assert!(*c > enter && *c < enter + 1.0, "{c} after {enter}");
    }
    assert_eq!(out.summary.flows[0].base_rtt_remeasures, Some(4));
}
