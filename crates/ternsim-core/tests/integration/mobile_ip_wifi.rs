//! Mobile IP over an 802.11 last hop (issue 9 item 5): the `ho-mobileip` topology with the
//! agents and the mobile node on one DCF channel whose reception range (75 m) is the agents'
//! coverage. The mobile node registers through FA1, then FA2, then FA1 and home again as it
//! walks, hearing the agents' broadcast advertisements; the TCP flow goes on across the
//! handoffs; Demo-Vegas re-measures BaseRTT at each care-of change; and the base RTT of each
//! path is its wired delays and transmission times plus the 802.11 frame exchange, worked by
//! hand from the DCF timing constants.

use ternsim_core::scenario::from_toml;
use ternsim_core::trace::Column;
use ternsim_core::wifi::{MacHeader, WifiConfig};
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
        "/../../python/ternsim/scenarios/ho-mobileip/mobileip_wifi.toml"
    );
    std::fs::read_to_string(path).unwrap()
}

/// The shipped scenario with textual edits applied, run with `seed`.
fn run_with(edits: &[(&str, &str)], seed: u64) -> RunOutput {
    let mut text = scenario_text();
    for (from, to) in edits {
        assert!(text.contains(from), "scenario lacks {from:?}");
        text = text.replacen(from, to, 1);
    }
    run(&from_toml(&text).unwrap(), seed)
}

fn rtts_ms(out: &RunOutput, from: f64, to: f64) -> Vec<f64> {
    let t = out
        .tables
        .iter()
        .find(|t| t.name == "rtt")
        .expect("rtt trace");
    let (time, rtt) = (f64s(t.column("time_s")), f64s(t.column("rtt_s")));
    time.into_iter()
        .zip(rtt)
        .filter(|&(t, _)| t >= from && t < to)
        .map(|(_, r)| r * 1e3)
        .collect()
}

fn topology_events(out: &RunOutput, what: &str) -> Vec<f64> {
    let topo = out.tables.iter().find(|t| t.name == "topology").unwrap();
    let Some(Column::Str(events)) = topo.column("event") else {
        panic!()
    };
    let times = f64s(topo.column("time_s"));
    events
        .iter()
        .zip(times)
        .filter(|(e, _)| e.as_str() == what)
        .map(|(_, t)| t)
        .collect()
}

const RTT_TRACE: (&str, &str) = ("[traces]", "[traces]\nrtt = true");
const TOPOLOGY_TRACE: (&str, &str) = ("[traces]", "[traces]\ntopology = true");
const ONE_PACKET: (&str, &str) = ("window = 20 ", "window = 1 ");
const DEMO_VEGAS: (&str, &str) = ("tcp = \"vegas\"", "tcp = \"demo_vegas\"");

/// The 802.11 part of a base RTT, from the DCF constants of the scenario's channel (1 Mb/s
/// DATA and basic rate, 52-octet MAC overhead, no RTS/CTS), for one 1000-byte TCP segment
/// down and its ACK up (60 bytes: 40 plus the IP header MN's DSDV adds to what it
/// originates, as ns-2's does), with no backoff and no propagation delay:
/// - the agent's LL delay (25 µs), DIFS (50), the DATA frame: 192 µs PLCP + 8·(1000 + 52 −
///   24) bits at 1 Mb/s = 8416 µs; the mobile node takes the segment up at the frame's end
///   (+25 µs LL);
/// - its TCP ACK (+25 µs LL down) finds the NIC busy answering the DATA with a MAC ACK
///   (SIFS 10 + 192 + 8·14 = 304 µs), so it waits for that, then DIFS (50), then its DATA
///   frame 192 + 8·(60 + 52 − 24) = 896 µs; the agent passes it up at the frame's end
///   (+25 µs), not after the MAC ACK that follows.
///
/// 25 + 50 + 8416 + 10 + 304 + 50 + 896 + 25 = 9776 µs, against 16 ms for the fixed link's
/// two 8 ms frames.
fn air_ms() -> f64 {
    let cfg = WifiConfig {
        header: MacHeader::ThreeAddress52,
        rts_threshold: 3000,
        ..WifiConfig::default()
    };
    let t = cfg.timing();
    let ll = cfg.ll_delay.as_nanos();
    let ns = ll + t.difs + t.data(1000, false) + t.sifs + t.ack + t.difs + t.data(60, false) + ll;
    assert_eq!(ns, 9_776_000);
    ns as f64 / 1e6
}

// Wired transmission times at 5 Mb/s: 1000 B 1.6 ms, 1020 B (tunnelled) 1.632 ms, the 60 B
// ACK (with DSDV's IP header) 0.096 ms.
const DATA: f64 = 1.6;
const DATA_TUNNEL: f64 = 1.632;
const ACK: f64 = 0.096;

/// One backoff slot (20 µs).
const SLOT_MS: f64 = 0.020;

/// The base RTT of each path of Fig. 3's walk (X = 3, Y = 3, Z = 1, triangular routing),
/// with a window of one packet so nothing queues:
/// - home: CN→R 5 + 1.6, R→HA 3 + 1.6, air 9.776, HA→R 3.096, R→CN 5.096 = 29.168 ms;
/// - FA1: CN→R 6.6, R→HA 4.6, HA→R 3 + 1.632, R→FA1 3 + 1.632, air, FA1→R 3.096,
///   R→CN 5.096 = 38.432 ms;
/// - FA2: the same with R–FA2 1 ms each way: 34.432 ms.
///
/// The agent's DATA frame and the mobile node's ACK frame each wait a backoff drawn uniformly
/// in 0..=31 slots (ns-2 draws one even on an idle medium), so an RTT sample is the
/// hand-worked sum plus k slots, P(k ≤ 4) = 15/1024 per sample, plus propagation (≤ 75 m
/// twice: 0.5 µs). With one packet in flight each segment reaches the agent's MAC long after
/// the backoff that followed its previous frame (at most DIFS + 31 slots = 0.67 ms) has run
/// out, so it waits a full DIFS: no sample is below the sum. (With a larger window a segment
/// can meet that backoff still running and leave up to one DIFS sooner.) The minimum of n
/// samples therefore exceeds the sum by more than 4 slots with probability (1 − 15/1024)^n:
/// below 1 % for the ≥ 300 samples of each interval (336 to 859 here).
///
/// Which agent the data came through is told by the base RTT alone (the three sums are 4 ms
/// or more apart): in FA1's and FA2's intervals the home agent's binding pointed at that
/// agent, so the registration went through it.
#[test]
fn base_rtt_over_the_80211_last_hop_is_the_hand_worked_sum() {
    let air = air_ms();
    let home = (5.0 + DATA) + (3.0 + DATA) + air + (3.0 + ACK) + (5.0 + ACK);
    let via = |y: f64| {
        (5.0 + DATA)
            + (3.0 + DATA)
            + (3.0 + DATA_TUNNEL)
            + (y + DATA_TUNNEL)
            + air
            + (y + ACK)
            + (5.0 + ACK)
    };
    assert!((home - 29.168).abs() < 1e-9);
    assert!((via(3.0) - 38.432).abs() < 1e-9 && (via(1.0) - 34.432).abs() < 1e-9);
    let out = run_with(&[RTT_TRACE, ONE_PACKET], 1);
    for (from, to, expected) in [
        (1.0, 20.0, home),
        (26.0, 46.0, via(3.0)),
        (50.0, 80.0, via(1.0)),
        (85.0, 105.0, via(3.0)),
        (110.0, 120.0, home),
    ] {
        let v = rtts_ms(&out, from, to);
        // Back home the host is drawn away to FA1 from 110.24 to 112.0 s in this seed (see
        // the next test): fewer samples there.
        let least = if from >= 110.0 { 150 } else { 300 };
        assert!(v.len() >= least, "{} samples in [{from}, {to})", v.len());
        let min = v.iter().copied().fold(f64::INFINITY, f64::min);
        assert!(
            min >= expected - 1e-6 && min <= expected + 4.0 * SLOT_MS + 0.001,
            "[{from}, {to}) s: base RTT {min} ms, hand-worked {expected} ms"
        );
    }
    // The tunnel ran through FA1 and then FA2: each wired link to a foreign agent carried the
    // segments (nothing else in bulk goes there: the rest is one registration reply a second).
    for name in ["R-FA1", "R-FA2"] {
        let l = out
            .summary
            .links
            .iter()
            .find(|l| l.name == name && l.direction == "a_to_b")
            .unwrap();
        assert!(l.packets_sent > 300, "{name}: {}", l.packets_sent);
    }
}

/// Fig. 3's walk over 802.11 with Demo-Vegas and the scenario's window of 20: the agents'
/// coverage is the channel's 75 m reception range, so the mobile node enters FA1's, FA2's,
/// FA1's and HA's range at the same instants as the fixed-link coverage (22.93, 47.93,
/// 82.93, 107.93 s: tests/mobile_ip.rs) and switches on the first advertisement it decodes,
/// less than one beacon period later. The sender re-measures BaseRTT when an ACK brings the
/// sink's flipped SIG bit, so once for each change an ACK follows. Seed 1: four changes, one
/// per entry, each followed by ACKs, so four re-measurements, and the flow goes on in every
/// interval, back home included. (Before stations that approach each other won the ties of
/// a backoff's end with a frame's arrival as in ns-2, this seed also lost one of HA's
/// advertisements at home, switched twice more and stalled there: ns-2's
/// `vegas_fig3.tcl` stalls at home in some seeds, README "The ns-2 script of Fig. 3".)
#[test]
fn handoffs_follow_the_radio_range_and_demo_vegas_remeasures_at_each() {
    let out = run_with(&[RTT_TRACE, TOPOLOGY_TRACE, DEMO_VEGAS], 1);
    let changes = topology_events(&out, "care_of_change");
    for (c, enter) in changes.iter().zip([22.9289, 47.9289, 82.9289, 107.9289]) {
        assert!(*c > enter && *c < enter + 1.0, "{c} after {enter}");
    }
    // Some seeds have two more changes since the host registers by ns-2's rules: between
    // FA1's and HA's cells it solicits every 0.5 s, and FA1's unicast answer to a
    // solicitation of about 107 s (routed towards the home address, as ns-2 routes it, and
    // held by DSDV for want of a route to MN) can reach MN only after it is home. FA1 has
    // left MN's agent list by then, so its advertisement is a new agent's and MN switches
    // to it at once (`mip-reg.cc` `MIPMHAgent::recv` takes any advertisement so, stale or
    // not), naming FA1 its base station, which it has no route to; the scan a second later
    // forgets FA1 and MN registers through HA again: a pair of changes within 3 s, after
    // the last handoff.
    match changes.len() {
        4 => {}
        6 => assert!(
            changes[4] > 108.0 && changes[5] - changes[4] < 3.0,
            "{changes:?}"
        ),
        _ => panic!("{changes:?}"),
    }
    // Re-measurements: 3 measured (not worked out: a change the SIG bit reaches the
    // sender for only if an ACK carries it before the next flip).
    assert!(
        out.summary.flows[0]
            .base_rtt_remeasures
            .is_some_and(|n| n >= 3),
        "{:?}",
        out.summary.flows[0].base_rtt_remeasures
    );
    // The flow goes on in every interval away from home; back home (110-120 s) Demo-Vegas
    // gets no ACK back in this seed: the ACKs MN sent towards FA1 are lost and its RTO backs off
    // (timeouts at 108.06, 110.06 and 114.06 s, the next after 120 s), as ns-2's
    // `vegas_fig3.tcl` stalls at home in some seeds (README "The ns-2 script of Fig. 3").
    for (from, to) in [(1.0, 20.0), (26.0, 46.0), (50.0, 80.0), (85.0, 105.0)] {
        let n = rtts_ms(&out, from, to).len();
        assert!(
            n as f64 > 10.0 * (to - from),
            "{n} ACKs in [{from}, {to}) s"
        );
    }
}

/// With `[wireless]` the last hop is the channel: a point-to-point link between an agent and
/// a mobile node, or a `coverage` radius beside the channel's range, is refused before the
/// run with its key path.
#[test]
fn the_wireless_variant_refuses_a_radio_link_or_a_coverage_radius() {
    let text = scenario_text();
    let link = text.replace(
        "[wireless]",
        "[[links]]\na = \"FA1\"\nb = \"MN\"\nrate = \"1Mbps\"\ndelay = \"8ms\"\n\n[wireless]",
    );
    let err = from_toml(&link).unwrap_err().to_string();
    assert!(err.contains("links.4") && err.contains("802.11"), "{err}");
    let coverage = text.replace("agents = [", "coverage = \"75m\"\nagents = [");
    let err = from_toml(&coverage).unwrap_err().to_string();
    assert!(
        err.contains("mobile_ip.coverage") && err.contains("rx_range"),
        "{err}"
    );
}

/// The drops of a run: (time, node, reason, kind).
fn drops(out: &RunOutput) -> Vec<(f64, String, String, String)> {
    let t = out.tables.iter().find(|t| t.name == "drops").unwrap();
    let s = |name| match t.column(name) {
        Some(Column::Str(v)) => v.clone(),
        other => panic!("not a string column: {other:?}"),
    };
    let (node, reason, kind) = (s("node"), s("reason"), s("kind"));
    f64s(t.column("time_s"))
        .into_iter()
        .enumerate()
        .map(|(i, at)| (at, node[i].clone(), reason[i].clone(), kind[i].clone()))
        .collect()
}

/// The first handoff of Fig. 3's walk (seed 1) through DSDV, as ns-2 runs it
/// (`mip-reg.cc` `MIPMHAgent::recv` names the new agent the base station before `reg()`;
/// `dsdv.cc` `forwardPacket`). MN hears FA1's advertisement at 23.03 s: FA1 becomes its
/// care-of address and its base station at once, so the registration request, with no DSDV
/// route to FA1 yet, is dropped at MN (`no_base_station_route`), not sent towards HA, the
/// old base station to which MN still has a route; so is its retransmission 0.5 s later.
/// Once MN has FA1's DSDV update the request gets through, but FA1's DSDV has no route to MN
/// yet: the relayed replies (control) and the first tunnelled segments are lost at FA1
/// (`base_station_to_itself`) until MN's own update reaches FA1.
#[test]
fn the_first_registration_through_dsdv_waits_for_routes_both_ways() {
    let out = run_with(
        &[("[traces]", "[traces]\ndrops = true\ntopology = true")],
        1,
    );
    let c = topology_events(&out, "care_of_change")[0];
    assert!(c > 22.9289 && c < 23.9289, "{c}");
    let d = drops(&out);
    let at_mn: Vec<_> = d
        .iter()
        .filter(|(t, n, _, k)| *t >= c && *t < c + 0.6 && n == "MN" && k == "control")
        .map(|(t, _, r, _)| (*t - c, r.as_str()))
        .collect();
    assert_eq!(at_mn.len(), 2, "{at_mn:?}");
    assert!(at_mn.iter().all(|(_, r)| *r == "no_base_station_route"));
    assert!(
        at_mn[0].0 < 1e-6 && (at_mn[1].0 - 0.5).abs() < 1e-6,
        "{at_mn:?}"
    );
    let at_fa1 = |kind: &str| {
        d.iter()
            .filter(|(t, n, r, k)| {
                *t > c && *t < c + 5.0 && n == "FA1" && r == "base_station_to_itself" && k == kind
            })
            .count()
    };
    assert!(at_fa1("control") >= 1 && at_fa1("tcp_data") >= 1);
    assert!(d
        .iter()
        .all(|(t, n, r, _)| !(*t > c && *t < c + 2.0 && n == "MN" && r == "link_failure")));
}
