//! The event queue's vacant root (`sim::heap`) changes no result: a wired run and the
//! 802.11 chain give the event counts and summaries they gave with a plain heap. The
//! expected values were computed on the commit before the vacant root (f74a70f, seed 1):
//! the event count and an FNV-1a digest of the summary's JSON without its wall time and
//! version. The chain's digest was taken again when DSR's summary gained its
//! `dead_flow_failures` counter (0 in this run; its event count did not move).

use std::path::Path;

use ternsim_core::scenario::from_toml;
use ternsim_core::world::run;

fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// (events, summary digest) of `scenarios/conformance/<name>.toml`, seed 1.
fn events_and_digest(name: &str) -> (u64, u64) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../scenarios/conformance")
        .join(format!("{name}.toml"));
    let text = std::fs::read_to_string(path).unwrap();
    let out = run(&from_toml(&text).unwrap(), 1);
    let mut summary = serde_json::to_value(&out.summary).unwrap();
    let fields = summary.as_object_mut().unwrap();
    fields.remove("wall_seconds");
    fields.remove("version");
    (out.summary.events, fnv1a(summary.to_string().as_bytes()))
}

#[test]
fn wired_run_is_unchanged() {
    assert_eq!(events_and_digest("wired"), (28_222, 0x883f_2a50_de30_659f));
}

#[test]
fn wifi_chain_run_is_unchanged() {
    assert_eq!(events_and_digest("chain"), (284_711, 0x4e43_6b83_9e65_4040));
}
