//! pcap and ns-2 trace export, checked with the tools their users run: tshark's TCP analysis
//! on the pcap of a lossy wired flow (traffic-queues-traces.md §8.5), and awk-style parsing
//! of the ns-2 traces (§7.5).

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;
use ternsim_core::scenario::from_json;
use ternsim_core::world::{run_with, CaptureSpec, RunOutput};

fn scenarios_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../python/ternsim/scenarios")
}

/// A shipped scenario as JSON, with `edit` applied to its document.
fn scenario(rel: &str, edit: impl FnOnce(&mut Value)) -> String {
    let path = scenarios_dir().join(rel);
    let doc: toml::Value = toml::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let mut json = serde_json::to_value(doc).unwrap();
    edit(&mut json);
    json["scenario_dir"] = Value::String(path.parent().unwrap().to_string_lossy().into_owned());
    serde_json::to_string(&json).unwrap()
}

fn run(json: &str, spec: CaptureSpec) -> RunOutput {
    run_with(&from_json(json).unwrap(), 1, &spec, &mut |_, _| {}).unwrap()
}

fn tshark() -> Option<PathBuf> {
    let ok = Command::new("tshark")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    ok.then(|| PathBuf::from("tshark"))
}

/// Frames matching each display filter, all counted in one tshark pass: its `io,stat`
/// statistics over a single interval (0: the whole capture) print, per filter, the frames that
/// match it. (A pass per filter costs a tshark start-up each, about a second.)
fn tshark_counts(tshark: &Path, pcap: &Path, filters: &[&str]) -> Vec<usize> {
    assert!(
        filters.iter().all(|f| !f.contains(',')),
        "io,stat splits at commas"
    );
    let out = Command::new(tshark)
        .args(["-q", "-n", "-r"])
        .arg(pcap)
        .arg("-z")
        .arg(format!("io,stat,0,{}", filters.join(",")))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "tshark failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    // The one interval's row: "|  0.0 <> 30.0 |  frames |  bytes |  frames |  bytes | ...".
    let row = text
        .lines()
        .find(|l| l.contains("<>"))
        .unwrap_or_else(|| panic!("no interval row in tshark's io,stat output:\n{text}"));
    let cells: Vec<usize> = row
        .split('|')
        .map(str::trim)
        .filter(|c| !c.is_empty() && !c.contains("<>"))
        .map(|c| c.parse().unwrap())
        .collect();
    assert_eq!(cells.len(), 2 * filters.len(), "{row}");
    cells.into_iter().step_by(2).collect()
}

fn write_pcap(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ternsim-capture-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// The lossy path (2 Mb/s, 50 ms, 1 % i.i.d. loss) with `variant`, captured at the sender.
/// tshark must read it without malformed frames, expert warnings or errors, and its TCP analysis must
/// count the sender's retransmissions (retransmission + fast + spurious + out-of-order, since
/// without a captured handshake Wireshark calls a retransmission within 3 ms of the newest
/// segment out-of-order, §8.5) and the duplicate ACKs the sender received, as ternsim does.
fn check_against_tshark(variant: &str, duration: &str) {
    let Some(tshark) = tshark() else {
        eprintln!("SKIPPED: tshark not found on PATH (Debian package `tshark`)");
        return;
    };
    let json = scenario("examples/lossy_path.toml", |doc| {
        doc["flows"][0]["tcp"] = Value::String(variant.into());
        doc["duration"] = Value::String(duration.into());
        doc["traces"]["acks"] = Value::Bool(true);
    });
    let out = run(
        &json,
        CaptureSpec {
            pcap: Some("bulk".into()),
            ns2_trace: false,
            ns2_omit: Vec::new(),
            ns2_mac: false,
            ns2_events: false,
            ns2_exact_times: false,
            ns2_newtrace: false,
        },
    );
    let flow = &out.summary.flows[0];
    let pcap = write_pcap(
        &format!("lossy-{variant}.pcap"),
        out.capture.pcap.as_ref().unwrap(),
    );
    let counts = tshark_counts(
        &tshark,
        &pcap,
        &[
            "_ws.malformed",
            "_ws.expert.severity == error",
            "_ws.expert.severity == warning",
            "tcp.analysis.lost_segment",
            "tcp.analysis.ack_lost_segment",
            "frame",
            "tcp.analysis.retransmission || tcp.analysis.out_of_order",
            "tcp.analysis.duplicate_ack",
        ],
    );
    let [malformed, errors, warnings, lost, ack_lost, frames, retx, dup] = counts[..] else {
        unreachable!("one count per filter")
    };
    assert_eq!((malformed, errors, warnings), (0, 0, 0));
    assert_eq!((lost, ack_lost), (0, 0));
    eprintln!(
        "{variant}: {frames} frames; tshark retransmissions {retx}, ternsim {}; \
         tshark duplicate ACKs {dup}, ternsim {}",
        flow.retransmitted_segments, flow.dup_acks_received
    );
    assert!(
        flow.retransmitted_segments > 10,
        "the scenario must lose packets"
    );
    assert_eq!(retx as u64, flow.retransmitted_segments);
    assert_eq!(dup as u64, flow.dup_acks_received);
    // Every segment sent and every ACK received is one frame.
    let acks = out.tables.iter().find(|t| t.name == "acks").unwrap().rows() as u64;
    assert_eq!(frames as u64, flow.segments_sent + acks);
    if std::env::var_os("TERNSIM_KEEP_PCAP").is_none() {
        std::fs::remove_file(&pcap).ok();
    } else {
        eprintln!("kept {}", pcap.display());
    }
}

#[test]
fn tshark_counts_newreno_retransmissions_and_dup_acks_like_ternsim() {
    check_against_tshark("newreno", "30s");
}

#[test]
fn tshark_counts_sack_retransmissions_and_dup_acks_like_ternsim() {
    check_against_tshark("sack", "30s");
}

/// An ns-2 trace and nothing else (no pcap, every layer, no MAC lines).
fn ns2_trace_only() -> CaptureSpec {
    CaptureSpec {
        ns2_trace: true,
        ..CaptureSpec::default()
    }
}

/// An awk-like reading of an ns-2 trace: whitespace-separated fields per line.
fn fields(trace: &str) -> Vec<Vec<&str>> {
    trace
        .lines()
        .map(|l| l.split_whitespace().collect())
        .collect()
}

/// The dumbbell's wired trace read as ns-2 users do (traffic-queues-traces.md §7.1, §7.5):
/// every line has the 12 fields of `Trace::format` in time order; per flow, the `r` lines of
/// `tcp` packets at the destination node count the data packets that arrived and their sizes
/// sum to ternsim's throughput; `d` lines on the bottleneck equal its queue drops; each
/// direction has one `-` per transmission.
#[test]
fn the_wired_ns2_trace_gives_ternsims_counts_to_awk_scripts() {
    let json = scenario("examples/dumbbell.toml", |_| {});
    let out = run(&json, ns2_trace_only());
    let text = out.capture.ns2_trace.as_ref().unwrap();
    let rows = fields(text);
    assert!(rows.len() > 10_000);
    let mut last = 0.0;
    for r in &rows {
        assert_eq!(r.len(), 12, "{r:?}");
        assert!(["+", "-", "r", "d"].contains(&r[0]));
        let t: f64 = r[1].parse().unwrap();
        assert!(t >= last, "time order");
        last = t;
        // Flags: all `-` but the congestion action (`A`, the first packet after a cut).
        assert!(r[6] == "-------" || r[6] == "---A---", "{r:?}");
        assert!(r[8].contains('.') && r[9].contains('.'));
    }
    for (fid, flow) in out.summary.flows.iter().enumerate() {
        // ternsim's throughput is over the flow's active time.
        let duration = flow.stop_s - flow.start_s;
        let dst = ["d1", "d2"][fid];
        let dst_node = if dst == "d1" { "4" } else { "5" };
        let arrived: Vec<&Vec<&str>> = rows
            .iter()
            .filter(|r| r[0] == "r" && r[3] == dst_node && r[4] == "tcp")
            .filter(|r| r[7] == fid.to_string())
            .collect();
        let bytes: u64 = arrived.iter().map(|r| r[5].parse::<u64>().unwrap()).sum();
        let awk_throughput = bytes as f64 * 8.0 / duration;
        assert!(
            (awk_throughput - flow.throughput_bps).abs() < 1e-6 * flow.throughput_bps,
            "{awk_throughput} vs {}",
            flow.throughput_bps
        );
        // Data segments the sender emitted: `+` on the first link at the source node.
        let src_node = fid.to_string();
        let sent = rows
            .iter()
            .filter(|r| r[0] == "+" && r[2] == src_node && r[4] == "tcp")
            .count() as u64;
        assert_eq!(sent, flow.segments_sent);
    }
    let link = out
        .summary
        .links
        .iter()
        .find(|l| l.name == "bottleneck" && l.direction == "a_to_b")
        .unwrap();
    let drops = rows
        .iter()
        .filter(|r| r[0] == "d" && r[2] == "2" && r[3] == "3")
        .count() as u64;
    assert!(link.drops_queue > 0);
    assert_eq!(drops, link.drops_queue + link.drops_error);
    let starts = rows
        .iter()
        .filter(|r| r[0] == "-" && r[2] == "2" && r[3] == "3")
        .count() as u64;
    // Transmissions started: completed ones plus at most the one on the wire at the end.
    assert!(starts == link.packets_sent || starts == link.packets_sent + 1);
}

/// The old CMU wireless trace of a CBR flow over a 3-hop 802.11 chain with AODV, read as the
/// usual PDR script does (§7.5): PDR = count(`r` AGT cbr) / count(`s` AGT cbr), which must
/// equal ternsim's delivery counters, and the mean of t(r) − t(s) per uid its mean delay.
#[test]
fn the_wireless_ns2_trace_gives_pdr_and_delay_to_awk_scripts() {
    let json = scenario("examples/wifi_chain.toml", |doc| {
        doc["duration"] = Value::String("20s".into());
        doc["topology"]["chain"]["hops"] = Value::from(3);
        doc["routing"]["protocol"] = Value::String("aodv".into());
        doc["flows"] = serde_json::json!([{
            "name": "cbr", "src": "n0", "dst": "n3", "transport": "udp",
            "app": { "kind": "cbr", "rate": "400kbps", "packet_size": "512B" }
        }]);
    });
    let out = run(&json, ns2_trace_only());
    let text = out.capture.ns2_trace.as_ref().unwrap();
    let rows = fields(text);
    let flow = &out.summary.flows[0];
    let agt = |ev: &str| {
        rows.iter()
            .filter(|r| r[0] == ev && r[3] == "AGT" && r[6] == "cbr")
            .collect::<Vec<_>>()
    };
    let (sent, recv) = (agt("s"), agt("r"));
    assert_eq!(sent.len() as u64, flow.packets_sent.unwrap());
    assert_eq!(recv.len() as u64, flow.packets_received.unwrap());
    assert!(flow.packets_received.unwrap() > 100);
    // The layout: `_node_` in $3, the MAC block in $9-$12 (zero on the sending agent's
    // line; on a received packet the header of the frame that brought it, as ns-2 keeps it:
    // the NAV duration, receiver n3, transmitter n2, IP), the `[src:port dst:port ttl
    // nexthop]` block in $14-$17, `[seq]` in $18.
    for r in &sent {
        assert_eq!(&r[8..13], ["[0", "0", "0", "0]", "-------"]);
    }
    for r in &recv {
        assert!(u64::from_str_radix(&r[8][1..], 16).unwrap() > 0);
        assert_eq!(&r[9..13], ["3", "2", "800]", "-------"]);
    }
    for r in sent.iter().chain(&recv) {
        assert!(r[2].starts_with('_') && r[2].ends_with('_'));
        assert!(r[13].starts_with("[0:") && r[14].starts_with("3:") && r[16].ends_with(']'));
        assert!(r[17].starts_with('[') && r[17].ends_with(']'));
    }
    let sent_at: std::collections::HashMap<&str, f64> =
        sent.iter().map(|r| (r[5], r[1].parse().unwrap())).collect();
    let delays: Vec<f64> = recv
        .iter()
        .map(|r| r[1].parse::<f64>().unwrap() - sent_at[r[5]])
        .collect();
    let mean = delays.iter().sum::<f64>() / delays.len() as f64;
    let want = flow.delay_mean_s.unwrap();
    // Trace times have 9 decimals: the mean agrees to well under a microsecond.
    assert!((mean - want).abs() < 1e-6, "{mean} vs {want}");
    // Routing overhead as scripts count it: RTR `s` and `f` lines of AODV packets.
    let rtr = rows
        .iter()
        .filter(|r| (r[0] == "s" || r[0] == "f") && r[3] == "RTR" && r[6] == "AODV")
        .count() as u64;
    assert_eq!(rtr, out.summary.routing.as_ref().unwrap().transmissions);
}

#[test]
fn omitted_wireless_layers_keep_only_their_drops() {
    let json = scenario("examples/wifi_chain.toml", |doc| {
        doc["duration"] = Value::String("20s".into());
        doc["routing"]["protocol"] = Value::String("aodv".into());
    });
    let spec = |omit: &[&str]| CaptureSpec {
        ns2_omit: omit.iter().map(|s| s.to_string()).collect(),
        ..ns2_trace_only()
    };
    let whole = run(&json, spec(&[]));
    let part = run(&json, spec(&["RTR"]));
    let whole = whole.capture.ns2_trace.unwrap();
    let part = part.capture.ns2_trace.unwrap();
    let kept: Vec<&str> = whole
        .lines()
        .filter(|l| l.starts_with('D') || l.split_whitespace().nth(3) != Some("RTR"))
        .collect();
    assert!(kept.len() < whole.lines().count());
    assert!(kept.iter().any(|l| l.contains(" AGT ")));
    assert_eq!(part.lines().collect::<Vec<_>>(), kept);
}

/// The MAC lines (`ns2_mac`, ns-2 `-macTrace ON`) are added to the trace without changing the
/// run or any other line: every `s` DATA frame at the MAC follows its `s`/`f` RTR line, each
/// RTS is 44 octets, and the lines of the other layers are the same with and without them.
#[test]
fn mac_lines_are_added_without_changing_the_other_lines() {
    let json = scenario("examples/wifi_chain.toml", |doc| {
        doc["duration"] = Value::String("10s".into());
        doc["routing"]["protocol"] = Value::String("aodv".into());
    });
    let spec = |mac: bool| CaptureSpec {
        ns2_mac: mac,
        ..ns2_trace_only()
    };
    let with = run(&json, spec(true));
    let without = run(&json, spec(false));
    assert_eq!(
        serde_json::to_value(&with.summary).unwrap()["flows"],
        serde_json::to_value(&without.summary).unwrap()["flows"]
    );
    let with = with.capture.ns2_trace.unwrap();
    let without = without.capture.ns2_trace.unwrap();
    let is_mac = |l: &&str| l.split_whitespace().nth(3) == Some("MAC");
    let others: Vec<&str> = with.lines().filter(|l| !is_mac(l)).collect();
    assert_eq!(others, without.lines().collect::<Vec<_>>());
    let mac: Vec<Vec<&str>> = with
        .lines()
        .filter(is_mac)
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert!(mac.len() > 1000);
    assert!(without.lines().all(|l| !is_mac(&l)));
    for f in mac.iter().filter(|f| f[6] == "RTS") {
        assert_eq!(f[7], "44");
        assert_eq!(f.len(), 12);
    }
    let sent_tcp = mac.iter().filter(|f| f[0] == "s" && f[6] == "tcp").count();
    let routed_tcp = others
        .iter()
        .filter(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f[0] == "s" || f[0] == "f") && f[3] == "RTR" && f[6] == "tcp"
        })
        .count();
    // Every packet routing hands down goes on the air at least once (retries add more).
    assert!(
        sent_tcp >= routed_tcp && routed_tcp > 100,
        "{sent_tcp} {routed_tcp}"
    );
}

/// A wired-cum-wireless run (Mobile IP over an 802.11 last hop) writes both formats into the
/// one trace, as ns-2 writes both into its trace-all file: the wired links' `+ - r d` lines
/// (CN is node 0, R node 1) and the channel's old-CMU lines (MN is node 5). 10 s: HA's DSDV
/// has no route to MN for segment 0 at the start (as ns-2's), so the first ACK comes after
/// the 6 s initial RTO of the scenario's ns-2.26 profile.
#[test]
fn a_wired_cum_wireless_trace_has_both_formats() {
    let json = scenario("ho-mobileip/mobileip_wifi.toml", |doc| {
        doc["duration"] = Value::String("10s".into());
    });
    let out = run(&json, ns2_trace_only());
    let text = out.capture.ns2_trace.as_ref().unwrap();
    let rows = fields(text);
    let sent = rows
        .iter()
        .filter(|r| r.len() == 12 && r[0] == "+" && (r[2], r[3], r[4]) == ("0", "1", "tcp"))
        .count() as u64;
    assert_eq!(sent, out.summary.flows[0].segments_sent);
    assert!(rows
        .iter()
        .any(|r| r[0] == "r" && (r[2], r[3], r[4]) == ("1", "0", "ack")));
    assert!(rows
        .iter()
        .any(|r| r[0] == "r" && r[2] == "_5_" && r[3] == "AGT" && r[6] == "tcp"));
}

/// A two-node wired run whose drop stage holds TCP segment 2 for 100 ms (ns-2 `delay_pkt_`
/// with `delay_ 0.1`), with its ns-2 trace's lines read as (event, time, seqno).
fn held_segment_trace(at: &str) -> Vec<(String, f64, u64)> {
    let json = serde_json::json!({
        "name": "held",
        "duration": "2s",
        "nodes": [{"name": "a"}, {"name": "b"}],
        "links": [{
            "a": "a", "b": "b", "rate": "1Mbps", "delay": "1ms",
            "drop_stages_a_to_b": [{"at": at, "rules": [
                {"model": "list", "drop": [2], "flows": ["f"], "delay": "100ms"}
            ]}],
        }],
        "flows": [{"name": "f", "src": "a", "dst": "b", "tcp": "reno", "stop": "1s"}],
        "tcp_defaults": {"profile": "ns2.35", "packet_size": "1000B", "header_size": "40B"},
    });
    let out = run(&json.to_string(), ns2_trace_only());
    let text = out.capture.ns2_trace.unwrap();
    fields(&text)
        .iter()
        .filter(|r| r[4] == "tcp")
        .map(|r| {
            (
                r[0].to_string(),
                r[1].parse().unwrap(),
                r[10].parse().unwrap(),
            )
        })
        .collect()
}

/// The times of the `event` lines of segment `seqno`, in trace order.
fn times_of(rows: &[(String, f64, u64)], event: &str, seqno: u64) -> Vec<f64> {
    rows.iter()
        .filter(|(e, _, s)| e == event && *s == seqno)
        .map(|r| r.1)
        .collect()
}

/// Before the queue: segments 1 and 2 leave the sender together (the ACK of segment 0, a
/// 40-byte SYN, opens the window to 2) but segment 2 is held. Segments 3, 4 and 5 bring
/// three duplicate ACKs and its fast retransmission (enqueued like any packet), and the held
/// original is enqueued exactly 100 ms after segment 1. Nothing is dropped.
#[test]
fn a_held_packet_is_enqueued_after_its_delay_and_never_lost() {
    let rows = held_segment_trace("enqueue");
    let one = times_of(&rows, "+", 1);
    let two = times_of(&rows, "+", 2);
    assert_eq!(one.len(), 1);
    assert_eq!(two.len(), 2, "{two:?}");
    assert!(
        two[0] < one[0] + 0.1,
        "the retransmission comes first: {two:?}"
    );
    assert!((two[1] - one[0] - 0.1).abs() < 1e-9, "{two:?} {one:?}");
    assert!(rows.iter().all(|(e, _, _)| e != "d"));
}

/// At the far end: the held original of segment 2 is received (`r`) 100 ms + 8.32 ms of
/// transmission + 1 ms of propagation after it left the queue (`-`), after its fast
/// retransmission.
#[test]
fn a_packet_held_at_the_far_end_is_received_after_its_delay() {
    let rows = held_segment_trace("arrival");
    let sent = times_of(&rows, "-", 2);
    let received = times_of(&rows, "r", 2);
    assert_eq!(
        (sent.len(), received.len()),
        (2, 2),
        "{sent:?} {received:?}"
    );
    let late = received[1] - sent[0];
    assert!((late - (0.1 + 0.00832 + 0.001)).abs() < 1e-9, "{late}");
    assert!(received[0] < received[1]);
    assert!(rows.iter().all(|(e, _, _)| e != "d"));
}
