//! RED at a dumbbell bottleneck (Floyd & Jacobson 1993, §6 style experiment): with several
//! Reno flows the average queue settles between the thresholds, drops are mostly early, and
//! each drop is accounted under its own reason.

use ternsim_core::scenario::from_toml;
use ternsim_core::world::run;

/// Four Reno flows through a 10 Mb/s, 20 ms bottleneck; access links at 100 Mb/s.
fn dumbbell(queue: &str) -> String {
    let mut s = String::from(
        r#"
name = "red_dumbbell"
duration = "60s"
[tcp_defaults]
packet_size = "1000B"
window = 200
[[nodes]]
name = "r1"
[[nodes]]
name = "r2"
[[links]]
name = "bottleneck"
a = "r1"
b = "r2"
rate = "10Mbps"
delay = "20ms"
"#,
    );
    s.push_str(&format!("queue = {queue}\n"));
    for i in 0..4 {
        s.push_str(&format!(
            "[[nodes]]\nname = \"s{i}\"\n[[nodes]]\nname = \"d{i}\"\n\
             [[links]]\na = \"s{i}\"\nb = \"r1\"\nrate = \"100Mbps\"\ndelay = \"{}ms\"\n\
             [[links]]\na = \"r2\"\nb = \"d{i}\"\nrate = \"100Mbps\"\ndelay = \"1ms\"\n\
             [[flows]]\nname = \"f{i}\"\nsrc = \"s{i}\"\ndst = \"d{i}\"\ntcp = \"reno\"\n\
             start = \"{}s\"\n",
            1 + 2 * i,
            i as f64 * 0.5
        ));
    }
    s
}

#[test]
fn a_red_bottleneck_keeps_the_average_queue_between_the_thresholds() {
    let sc = from_toml(&dumbbell(
        r#"{ kind = "red", limit = 100, min_thresh = 5, max_thresh = 15, q_weight = 0.002, linterm = 10, gentle = true }"#,
    ))
    .unwrap();
    let out = run(&sc, 1);
    let s = &out.summary;
    let link = s
        .links
        .iter()
        .find(|l| l.name == "bottleneck" && l.direction == "a_to_b")
        .unwrap();
    let red = link.red.as_ref().unwrap();
    let mean = red.avg_queue_mean.unwrap();
    eprintln!(
        "RED: average queue mean {mean:.2}, max {:.2}; early {} forced {}; utilisation {:.3}",
        red.avg_queue_max.unwrap(),
        red.drops_early,
        red.drops_forced,
        link.utilization
    );
    assert!(mean > 5.0 && mean < 15.0, "mean average queue {mean}");
    assert!(red.drops_early > 0);
    assert!(red.drops_early > red.drops_forced);
    assert_eq!(link.drops_queue, red.drops_early + red.drops_forced);
    let reasons = &s.packets.drops_by_reason;
    assert_eq!(
        reasons.get("red_early").copied().unwrap_or(0),
        red.drops_early
    );
    assert_eq!(
        reasons.get("red_forced").copied().unwrap_or(0),
        red.drops_forced
    );
    assert!(!reasons.contains_key("queue_overflow"));
    assert!(s.packets.balanced);
    // The same path with a drop-tail queue of the same limit builds a standing queue instead:
    // its drops are all overflows.
    let dt = run(&from_toml(&dumbbell("100")).unwrap(), 1);
    assert!(dt
        .summary
        .packets
        .drops_by_reason
        .contains_key("queue_overflow"));
    assert!(!dt.summary.packets.drops_by_reason.contains_key("red_early"));
}

/// A byte limit on a drop-tail queue: 1040-byte segments, 5200 bytes hold 5 waiting.
#[test]
fn a_drop_tail_byte_limit_bounds_the_waiting_bytes() {
    let sc = from_toml(&dumbbell(
        r#"{ kind = "drop_tail", limit_bytes = "5200B" }"#,
    ))
    .unwrap();
    let out = run(&sc, 1);
    assert!(out.summary.packets.drops_by_reason["queue_overflow"] > 0);
}

#[test]
fn bad_queue_settings_name_their_key() {
    let cases = [
        (
            r#"{ kind = "red", min_thresh = 10, max_thresh = 5 }"#,
            "links.0.queue.max_thresh",
        ),
        (
            r#"{ kind = "red", q_weight = 0 }"#,
            "links.0.queue.q_weight",
        ),
        (
            r#"{ kind = "red", linterm = 0.5 }"#,
            "links.0.queue.linterm",
        ),
        (
            r#"{ kind = "red", limit_bytes = "10kB" }"#,
            "links.0.queue.limit_bytes",
        ),
        (
            r#"{ kind = "drop_tail", gentle = true, limit = 5 }"#,
            "links.0.queue.gentle",
        ),
        (r#"{ kind = "drop_tail" }"#, "links.0.queue.limit"),
        (r#"{ kind = "fifo", limit = 5 }"#, "links.0.queue.kind"),
        (r#"{ kind = "red", thresh = 5 }"#, "links.0.queue"),
        (
            r#"{ kind = "drop_tail", limit = 5, buckets = 4 }"#,
            "links.0.queue.buckets",
        ),
        (r#"{ kind = "sfq", gentle = true }"#, "links.0.queue.gentle"),
        (r#"{ kind = "sfq", buckets = 0 }"#, "links.0.queue.buckets"),
        ("0", "links.0.queue"),
    ];
    for (q, key) in cases {
        let err = from_toml(&dumbbell(q)).unwrap_err().to_string();
        assert!(err.contains(key), "{q}: {err}");
    }
}

/// SFQ at the bottleneck (McKenney 1990; ns-2.35 `Queue/SFQ`, 16 buckets, 40 packets) of
/// four Reno flows whose RTTs run from 42 to 240 ms (access delays 1, 20, 50 and 100 ms): the
/// flows hash into buckets 4, 8, 12 and 15 (source and destination node numbers 2+3, 4+5,
/// 6+7, 8+9), each served in turn, so each gets its fair quarter within 40 % (a long-RTT
/// flow is not always backlogged, so SFQ cannot lend it the short one's share), where a
/// 40-packet drop-tail queue gives the shortest-RTT flow more than half the link.
#[test]
fn an_sfq_bottleneck_shares_the_link_fairly() {
    let shares = |queue: &str| {
        let mut text = dumbbell(queue);
        for (i, d) in [(1, 20), (2, 50), (3, 100)] {
            let from = format!(
                "a = \"s{i}\"\nb = \"r1\"\nrate = \"100Mbps\"\ndelay = \"{}ms\"",
                1 + 2 * i
            );
            let to = format!("a = \"s{i}\"\nb = \"r1\"\nrate = \"100Mbps\"\ndelay = \"{d}ms\"");
            assert!(text.contains(&from));
            text = text.replace(&from, &to);
        }
        let out = run(&from_toml(&text).unwrap(), 1);
        let total: f64 = out.summary.flows.iter().map(|f| f.goodput_bps).sum();
        let shares: Vec<f64> = out
            .summary
            .flows
            .iter()
            .map(|f| f.goodput_bps / total)
            .collect();
        shares
    };
    let sfq = shares(r#"{ kind = "sfq" }"#);
    assert!(sfq.iter().all(|s| (0.15..=0.35).contains(s)), "{sfq:?}");
    let drop_tail = shares(r#"{ kind = "drop_tail", limit = 40 }"#);
    assert!(drop_tail[0] > 0.5, "{drop_tail:?}");
}

/// ECN (RFC 3168) at the same RED bottleneck: with `setbit` and ECN-capable flows the early
/// test marks instead of dropping (below max_thresh, where p_b < mark_p), so the flows lose
/// fewer than half the packets they lose without ECN (428 and 140 early drops, seed 1); the
/// window reactions keep the average queue between the thresholds all the same.
#[test]
fn ecn_flows_through_a_marking_red_lose_fewer_packets() {
    let queue = r#"{ kind = "red", limit = 100, min_thresh = 5, max_thresh = 15, q_weight = 0.002, linterm = 10, gentle = true, use_mark_p = true, setbit = true }"#;
    let plain = run(&from_toml(&dumbbell(queue)).unwrap(), 1);
    let ecn_text = dumbbell(queue).replace("window = 200\n", "window = 200\necn = true\n");
    let ecn = run(&from_toml(&ecn_text).unwrap(), 1);
    let early = |s: &ternsim_core::world::RunOutput| {
        s.summary
            .packets
            .drops_by_reason
            .get("red_early")
            .copied()
            .unwrap_or(0)
    };
    let link = ecn
        .summary
        .links
        .iter()
        .find(|l| l.name == "bottleneck" && l.direction == "a_to_b")
        .unwrap();
    let mean = link.red.as_ref().unwrap().avg_queue_mean.unwrap();
    eprintln!(
        "early drops: {} without ECN, {} with; ECN average queue {mean:.2}",
        early(&plain),
        early(&ecn)
    );
    assert!(early(&plain) > 0);
    assert!(early(&ecn) * 2 < early(&plain));
    assert!(mean > 5.0 && mean < 15.0, "mean average queue {mean}");
    assert!(ecn.summary.packets.balanced);
}

#[test]
fn ecn_settings_name_their_key() {
    let red = r#"{ kind = "red", setbit = true, mark_p = -1 }"#;
    let err = from_toml(&dumbbell(red)).unwrap_err().to_string();
    assert!(err.contains("links.0.queue.mark_p"), "{err}");
    let err = from_toml(&dumbbell(
        r#"{ kind = "drop_tail", limit = 5, setbit = true }"#,
    ))
    .unwrap_err()
    .to_string();
    assert!(err.contains("links.0.queue.setbit"), "{err}");
    let vegas = dumbbell("50")
        .replace("window = 200\n", "window = 200\necn = true\n")
        .replace("tcp = \"reno\"", "tcp = \"vegas\"");
    let err = from_toml(&vegas).unwrap_err().to_string();
    assert!(err.contains("ecn"), "{err}");
}
