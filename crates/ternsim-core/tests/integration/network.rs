//! The network layer end to end: routing around a link that goes down and back, UDP CBR
//! delivery over a lossy link against the binomial interval, and one-way delay and jitter
//! worked out by hand.

use ternsim_core::scenario::from_toml;
use ternsim_core::trace::Column;
use ternsim_core::world::run;

fn f64s(c: Option<&Column>) -> Vec<f64> {
    match c {
        Some(Column::F64(v)) => v.clone(),
        other => panic!("not an f64 column: {other:?}"),
    }
}

fn i64s(c: Option<&Column>) -> Vec<i64> {
    match c {
        Some(Column::I64(v)) => v.clone(),
        other => panic!("not an i64 column: {other:?}"),
    }
}

/// s -- r1 -- d is the short path (2 hops, 10 ms links); s -- r2 -- r3 -- d the long one
/// (3 hops, 20 ms links). `r1-d` goes down at 20 s and comes back at 40 s. Static routing
/// recomputes at each change: TCP moves to the long path (its RTT grows from 2·(2·10 ms) =
/// 40 ms plus serialisation to 2·(3·20 ms) = 120 ms plus serialisation), keeps delivering, and
/// returns to the short path after 40 s. Packets on `r1-d` when it fails are dropped with
/// `link_down`; the accounting balances.
#[test]
fn tcp_follows_routing_around_a_failed_link_and_back() {
    let sc = from_toml(
        r#"
name = "failover"
duration = "60s"
[[nodes]]
name = "s"
[[nodes]]
name = "r1"
[[nodes]]
name = "r2"
[[nodes]]
name = "r3"
[[nodes]]
name = "d"
[[links]]
a = "s"
b = "r1"
rate = "10Mbps"
delay = "10ms"
[[links]]
a = "r1"
b = "d"
rate = "10Mbps"
delay = "10ms"
[[links]]
a = "s"
b = "r2"
rate = "10Mbps"
delay = "20ms"
[[links]]
a = "r2"
b = "r3"
rate = "10Mbps"
delay = "20ms"
[[links]]
a = "r3"
b = "d"
rate = "10Mbps"
delay = "20ms"
[[flows]]
src = "s"
dst = "d"
tcp = "newreno"
options = { window = 20 }
[[events]]
at = "20s"
link = "r1-d"
action = "down"
[[events]]
at = "40s"
link = "r1-d"
action = "up"
[traces]
rtt = true
acks = true
topology = true
"#,
    )
    .unwrap();
    let out = run(&sc, 1);
    let s = &out.summary;
    assert!(s.packets.balanced, "{:?}", s.packets);
    assert!(s.packets.drops_by_reason.contains_key("link_down"));
    let rtt = out.tables.iter().find(|t| t.name == "rtt").unwrap();
    let (t, r) = (f64s(rtt.column("time_s")), f64s(rtt.column("rtt_s")));
    let acks = out.tables.iter().find(|t| t.name == "acks").unwrap();
    let (at, ack) = (f64s(acks.column("time_s")), i64s(acks.column("ack")));

    // Goodput per 2 s bin from the highest cumulative ACK (1000-byte packets), plotted.
    let bins = 30;
    let mut highest = vec![-1i64; bins];
    for (&ti, &a) in at.iter().zip(&ack) {
        let b = ((ti / 2.0) as usize).min(bins - 1);
        highest[b] = highest[b].max(a);
    }
    println!("goodput over time (Mb/s per 2 s bin; the short path is down from 20 s to 40 s)");
    let mut prev = -1;
    let mut mbps = Vec::new();
    for (b, &h) in highest.iter().enumerate() {
        let h = h.max(prev);
        let rate = (h - prev) as f64 * 1000.0 * 8.0 / 2.0 / 1e6;
        prev = h;
        mbps.push(rate);
        println!(
            "{:>4} s {:>6.2} {}",
            2 * b,
            rate,
            "#".repeat((rate * 10.0) as usize)
        );
    }
    // Data keeps flowing while the short path is down (after the first RTO at most) ...
    assert!(mbps[11..20].iter().all(|&m| m > 0.5), "{mbps:?}");
    // ... and before, during and after, RTTs show which path carries it.
    let mean_rtt = |lo: f64, hi: f64| {
        let v: Vec<f64> = t
            .iter()
            .zip(&r)
            .filter(|(ti, _)| **ti >= lo && **ti < hi)
            .map(|(_, ri)| *ri)
            .collect();
        assert!(!v.is_empty(), "no RTT samples in [{lo}, {hi})");
        v.iter().sum::<f64>() / v.len() as f64
    };
    let (before, during, after) = (
        mean_rtt(5.0, 20.0),
        mean_rtt(25.0, 40.0),
        mean_rtt(45.0, 60.0),
    );
    assert!((0.040..0.080).contains(&before), "{before}");
    assert!((0.120..0.200).contains(&during), "{during}");
    assert!((0.040..0.080).contains(&after), "{after}");
    let topo = out.tables.iter().find(|t| t.name == "topology").unwrap();
    assert_eq!(topo.rows(), 2);
    let links = &s.links;
    let r1d = links
        .iter()
        .find(|l| l.name == "r1-d" && l.direction == "a_to_b")
        .unwrap();
    assert!(r1d.drops_down > 0);
}

fn cbr_over_lossy_link(loss: f64, packets: u64) -> String {
    format!(
        r#"
name = "cbr"
duration = "200s"
[[nodes]]
name = "a"
[[nodes]]
name = "b"
[[links]]
a = "a"
b = "b"
rate = "10Mbps"
delay = "5ms"
loss = {loss}
[[flows]]
src = "a"
dst = "b"
transport = "udp"
app = {{ kind = "cbr", interval = "10ms", packet_size = "500B", max_packets = {packets} }}
"#
    )
}

/// Delivery ratio of CBR over a link with i.i.d. loss p, against the binomial interval:
/// each seed's ratio falls inside 1 - p ± 1.96·sqrt(p(1-p)/n) with probability 0.95, so of
/// 40 seeds about 38 should (fewer than 33 has probability 0.0004); pooled over the 40 seeds
/// the ratio must be inside the 99.9 % interval 1 - p ± 3.29·sqrt(p(1-p)/(40 n)). Every
/// datagram is accounted for.
#[test]
fn cbr_delivery_ratio_is_inside_the_binomial_interval() {
    let (p, n, seeds) = (0.1, 10_000u64, 40u64);
    let sc = from_toml(&cbr_over_lossy_link(p, n)).unwrap();
    let half = 1.96 * (p * (1.0 - p) / n as f64).sqrt();
    let (mut inside, mut received) = (0, 0);
    for seed in 1..=seeds {
        let out = run(&sc, seed);
        let f = &out.summary.flows[0];
        assert_eq!(f.transport, "udp");
        assert_eq!(f.packets_sent, Some(n));
        let (recv, lost) = (f.packets_received.unwrap(), f.packets_lost.unwrap());
        assert_eq!(recv + lost, n, "all sent long before the end");
        let ratio = f.delivery_ratio.unwrap();
        assert_eq!(ratio, recv as f64 / n as f64);
        if (ratio - (1.0 - p)).abs() <= half {
            inside += 1;
        }
        received += recv;
        assert!(out.summary.packets.balanced);
    }
    assert!(
        inside >= 33,
        "{inside} of {seeds} seeds inside the interval"
    );
    let pooled = received as f64 / (seeds * n) as f64;
    let half = 3.29 * (p * (1.0 - p) / (seeds * n) as f64).sqrt();
    assert!((pooled - (1.0 - p)).abs() <= half, "pooled ratio {pooled}");
}

/// CBR sends 1000-byte datagrams every 5 ms onto a 1 Mb/s link (8 ms each) with 10 ms
/// propagation: the queue grows, datagram k (sent at 5k ms) leaves the wire at 8(k+1) ms and
/// arrives at 8(k+1) + 10 ms, so its one-way delay is 18 + 3k ms. For k = 0..9: mean delay
/// 18 + 3·4.5 = 31.5 ms, min 18 ms, max 45 ms; consecutive delays differ by exactly 3 ms, so
/// the IPDV jitter is 3 ms, and RFC 3550's estimator after 9 differences is
/// 3·(1 - (15/16)^9) ms.
#[test]
fn one_way_delay_and_jitter_are_exact_on_a_hand_worked_path() {
    let sc = from_toml(
        r#"
name = "queueing"
duration = "2s"
[[nodes]]
name = "a"
[[nodes]]
name = "b"
[[links]]
a = "a"
b = "b"
rate = "1Mbps"
delay = "10ms"
[[flows]]
src = "a"
dst = "b"
transport = "udp"
app = { kind = "cbr", interval = "5ms", packet_size = "1000B", max_packets = 10 }
"#,
    )
    .unwrap();
    let out = run(&sc, 1);
    let f = &out.summary.flows[0];
    let close = |a: f64, b: f64| (a - b).abs() < 1e-12;
    assert_eq!((f.packets_sent, f.packets_received), (Some(10), Some(10)));
    assert_eq!(f.delivery_ratio, Some(1.0));
    assert!(
        close(f.delay_mean_s.unwrap(), 0.0315),
        "{:?}",
        f.delay_mean_s
    );
    assert!(close(f.delay_min_s.unwrap(), 0.018));
    assert!(close(f.delay_max_s.unwrap(), 0.045));
    assert!(close(f.jitter_s.unwrap(), 0.003), "{:?}", f.jitter_s);
    let j = 0.003 * (1.0 - (15.0f64 / 16.0).powi(9));
    assert!(
        close(f.jitter_rfc3550_s.unwrap(), j),
        "{:?}",
        f.jitter_rfc3550_s
    );
    // 10 datagrams of 1000 B over the active period of 2 s.
    assert!(close(f.throughput_bps, 10.0 * 8000.0 / 2.0));
}

/// An asymmetric link (ns-2's two simplex links): a→b 1 Mb/s, 10 ms; b→a 500 kb/s, 25 ms.
/// The same CBR source as above each way (1000-byte datagrams every 5 ms, 10 of them).
/// a→b as above: delay 18 + 3k ms. b→a: 16 ms per datagram, so datagram k leaves the wire
/// at 16(k+1) ms and arrives 25 ms later: delay 41 + 11k ms, mean 41 + 11·4.5 = 90.5 ms,
/// min 41 ms, max 140 ms, and consecutive delays 11 ms apart.
#[test]
fn each_direction_of_an_asymmetric_link_has_its_own_rate_and_delay() {
    let sc = from_toml(
        r#"
name = "asymmetric"
duration = "2s"
[[nodes]]
name = "a"
[[nodes]]
name = "b"
[[links]]
a = "a"
b = "b"
rate = "1Mbps"
delay = "10ms"
rate_b_to_a = "500kbps"
delay_b_to_a = "25ms"
[[flows]]
name = "forward"
src = "a"
dst = "b"
transport = "udp"
app = { kind = "cbr", interval = "5ms", packet_size = "1000B", max_packets = 10 }
[[flows]]
name = "back"
src = "b"
dst = "a"
transport = "udp"
app = { kind = "cbr", interval = "5ms", packet_size = "1000B", max_packets = 10 }
"#,
    )
    .unwrap();
    let out = run(&sc, 1);
    let close = |a: f64, b: f64| (a - b).abs() < 1e-12;
    let (fwd, back) = (&out.summary.flows[0], &out.summary.flows[1]);
    assert_eq!(
        (back.packets_sent, back.packets_received),
        (Some(10), Some(10))
    );
    assert!(
        close(fwd.delay_mean_s.unwrap(), 0.0315),
        "{:?}",
        fwd.delay_mean_s
    );
    assert!(close(fwd.delay_max_s.unwrap(), 0.045));
    assert!(
        close(back.delay_mean_s.unwrap(), 0.0905),
        "{:?}",
        back.delay_mean_s
    );
    assert!(close(back.delay_min_s.unwrap(), 0.041));
    assert!(close(back.delay_max_s.unwrap(), 0.140));
    assert!(close(back.jitter_s.unwrap(), 0.011), "{:?}", back.jitter_s);
}

/// A CBR source switched on and off by events (ns-2 `$cbr start` / `stop` at several
/// times), and one that never starts by itself (`autostart = false`) but is started by an
/// event. 1000-byte datagrams every 10 ms from 0 s, stopped at 0.1 s, started again at
/// 0.25 s and stopped at 0.3 s. The send times are sums of doubles, as ns-2's timer makes
/// them, and order against the stops by their exact values: ten gaps of 0.01 from 0 sum to
/// 0.09999999999999999, before the stop at 0.1, so the first period sends 11 (0 to 100 ms);
/// from 0.25, five gaps sum to 0.30000000000000004, after the stop at 0.3: 5 (the first at
/// once on the new start). The second, started at 0.5 s, sends at 500, ..., 590 ms and not
/// at 0.6000000000000001, after the end (0.6 s): 10.
#[test]
fn applications_switched_on_and_off_by_events() {
    let sc = from_toml(
        r#"
name = "on-off"
duration = "0.6s"
[[nodes]]
name = "a"
[[nodes]]
name = "b"
[[links]]
a = "a"
b = "b"
rate = "10Mbps"
delay = "1ms"
[[flows]]
name = "cycled"
src = "a"
dst = "b"
transport = "udp"
stop = "0.1s"
app = { kind = "cbr", interval = "10ms", packet_size = "1000B" }
[[flows]]
name = "late"
src = "a"
dst = "b"
transport = "udp"
autostart = false
app = { kind = "cbr", interval = "10ms", packet_size = "1000B" }
[[events]]
at = "0.25s"
action = "start"
flow = "cycled"
[[events]]
at = "0.3s"
action = "stop"
flow = "cycled"
[[events]]
at = "0.5s"
action = "start"
flow = "late"
"#,
    )
    .unwrap();
    let out = run(&sc, 1);
    let (cycled, late) = (&out.summary.flows[0], &out.summary.flows[1]);
    assert_eq!(cycled.packets_sent, Some(16));
    assert_eq!(late.packets_sent, Some(10));
}

/// ns-2's CBR gap is `8 * packetSize_ / rate_` in doubles: at 600 kb/s and 500 B that is
/// 6.666…667 ms, not a whole number of nanoseconds. From 0.2 s the 46th send falls at
/// 0.2 + 45 gaps = 0.49999999999999944 s (summed as ns-2 sums it), before a pause at 0.5 s;
/// with the gap rounded to 6,666,667 ns it fell 15 ns after.
#[test]
fn a_cbr_rate_gives_ns2s_send_times() {
    use ternsim_core::world::{CaptureSpec, Simulation};
    let sc = from_toml(
        r#"
name = "cbr-rate"
duration = "1s"
[[nodes]]
name = "a"
[[nodes]]
name = "b"
[[links]]
a = "a"
b = "b"
rate = "10Mbps"
delay = "1ms"
[[flows]]
name = "c"
src = "a"
dst = "b"
transport = "udp"
start = "0.2s"
app = { kind = "cbr", rate = "600kbps", packet_size = "500B" }
"#,
    )
    .unwrap();
    let mut sim = Simulation::new(sc, 1, &CaptureSpec::default()).unwrap();
    sim.run_until_exact(ternsim_core::sim::SimTime(500_000_000), 0.5);
    let sent = sim
        .flow_state(0)
        .unwrap()
        .into_iter()
        .find(|(k, _)| *k == "sent_packets")
        .unwrap()
        .1;
    assert_eq!(sent, 46.0);
}

/// Packets with no route wait in the static-routing hold buffer and leave when the link
/// comes back up; those that outwait the hold timeout are dropped with `hold_timeout`.
#[test]
fn held_packets_leave_when_the_route_returns_or_time_out() {
    let sc = from_toml(
        r#"
name = "hold"
duration = "10s"
[routing]
hold_packets = 1000
hold_timeout = "3s"
[[nodes]]
name = "a"
[[nodes]]
name = "b"
[[links]]
a = "a"
b = "b"
rate = "10Mbps"
delay = "1ms"
[[flows]]
src = "a"
dst = "b"
transport = "udp"
app = { kind = "cbr", interval = "100ms", packet_size = "100B" }
[[events]]
at = "1.05s"
link = "a-b"
action = "down"
[[events]]
at = "5.05s"
link = "a-b"
action = "up"
"#,
    )
    .unwrap();
    let out = run(&sc, 1);
    let s = &out.summary;
    assert!(s.packets.balanced);
    // Sent at 0, 0.1, .., 10.0 s: 101 datagrams. Sent at 1.1 .. 5.0 s (40) while down:
    // those sent before 2.05 s (1.1 .. 2.0, 10 of them) have waited 3 s by 5.05 s and time
    // out at 4.1 .. 5.0 s; the 30 sent at 2.1 .. 5.0 s leave at 5.05 s. The one sent at
    // 10.0 s is still on the link when the run ends.
    assert_eq!(s.packets.drops_by_reason.get("hold_timeout"), Some(&10));
    assert_eq!(s.packets.in_flight, 1);
    let f = &s.flows[0];
    assert_eq!(f.packets_lost, Some(10));
    assert_eq!(f.packets_sent, Some(101));
    assert_eq!(f.packets_received, Some(90));
}
