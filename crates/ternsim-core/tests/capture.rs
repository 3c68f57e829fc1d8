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
    run_with(&from_json(json).unwrap(), 1, &spec).unwrap()
}

fn tshark() -> Option<PathBuf> {
    let ok = Command::new("tshark").arg("--version").output().is_ok_and(|o| o.status.success());
    ok.then(|| PathBuf::from("tshark"))
}

/// Frames matching each display filter, in one tshark pass per filter.
fn tshark_count(tshark: &Path, pcap: &Path, filter: &str) -> usize {
    let out = Command::new(tshark)
        .args(["-n", "-r"])
        .arg(pcap)
        .args(["-Y", filter, "-T", "fields", "-e", "frame.number"])
        .output()
        .unwrap();
    assert!(out.status.success(), "tshark failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap().lines().filter(|l| !l.is_empty()).count()
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
        },
    );
    let flow = &out.summary.flows[0];
    let pcap = write_pcap(&format!("lossy-{variant}.pcap"), out.capture.pcap.as_ref().unwrap());
    assert_eq!(tshark_count(&tshark, &pcap, "_ws.malformed"), 0);
    assert_eq!(tshark_count(&tshark, &pcap, "_ws.expert.severity == error"), 0);
    assert_eq!(tshark_count(&tshark, &pcap, "_ws.expert.severity == warning"), 0);
    assert_eq!(tshark_count(&tshark, &pcap, "tcp.analysis.lost_segment"), 0);
    assert_eq!(tshark_count(&tshark, &pcap, "tcp.analysis.ack_lost_segment"), 0);
    let frames = tshark_count(&tshark, &pcap, "frame");
    let retx = tshark_count(
        &tshark,
        &pcap,
        "tcp.analysis.retransmission || tcp.analysis.out_of_order",
    );
    let dup = tshark_count(&tshark, &pcap, "tcp.analysis.duplicate_ack");
    eprintln!(
        "{variant}: {frames} frames; tshark retransmissions {retx}, ternsim {}; \
         tshark duplicate ACKs {dup}, ternsim {}",
        flow.retransmitted_segments, flow.dup_acks_received
    );
    assert!(flow.retransmitted_segments > 10, "the scenario must lose packets");
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
