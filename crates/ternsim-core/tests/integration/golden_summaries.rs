//! Golden run summaries: a fixed set of scenarios and seeds whose summaries are pinned in
//! `tests/golden/`. Any change to a number a run reports must be a deliberate, reviewed update
//! of the pin: run `TERNSIM_BLESS=1 cargo test -p ternsim-core --release --test
//! integration golden_summaries` and commit the changed JSON with the reason.
//!
//! The comparison is a subset match: every key of the pinned summary must be present with the
//! same value (wall time excluded); keys added to the summary later do not break the pin.

use std::path::{Path, PathBuf};

use serde_json::Value;
use ternsim_core::scenario::from_json;
use ternsim_core::world::run;

fn scenarios_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../python/ternsim/scenarios")
}

/// Loads a shipped scenario, applies dotted overrides (`flows.0.tcp`) and sets its folder.
fn load(rel: &str, overrides: &[(&str, Value)]) -> String {
    let path = scenarios_dir().join(rel);
    let text = std::fs::read_to_string(&path).unwrap();
    let doc: toml::Value = toml::from_str(&text).unwrap();
    let mut json = serde_json::to_value(doc).unwrap();
    for (key, value) in overrides {
        let mut at = &mut json;
        let parts: Vec<&str> = key.split('.').collect();
        for (i, part) in parts.iter().enumerate() {
            let last = i + 1 == parts.len();
            at = match at {
                Value::Array(items) => &mut items[part.parse::<usize>().unwrap()],
                Value::Object(map) => {
                    if last {
                        map.insert(part.to_string(), value.clone());
                        break;
                    }
                    map.entry(part.to_string())
                        .or_insert_with(|| Value::Object(Default::default()))
                }
                other => panic!("cannot descend into {other:?} at {key}"),
            };
            if last {
                *at = value.clone();
            }
        }
    }
    let dir = path.parent().unwrap().to_string_lossy().into_owned();
    json["scenario_dir"] = Value::String(dir);
    serde_json::to_string(&json).unwrap()
}

/// Every key in `pinned` is in `actual` with the same value.
fn subset_mismatch(pinned: &Value, actual: &Value, at: &str) -> Option<String> {
    match (pinned, actual) {
        (Value::Object(p), Value::Object(a)) => p.iter().find_map(|(k, v)| match a.get(k) {
            None => Some(format!("{at}.{k}: missing")),
            Some(av) => subset_mismatch(v, av, &format!("{at}.{k}")),
        }),
        (Value::Array(p), Value::Array(a)) => {
            if p.len() != a.len() {
                return Some(format!("{at}: {} entries, pinned {}", a.len(), p.len()));
            }
            p.iter()
                .zip(a)
                .enumerate()
                .find_map(|(i, (pv, av))| subset_mismatch(pv, av, &format!("{at}.{i}")))
        }
        _ if pinned == actual => None,
        _ => Some(format!("{at}: {actual}, pinned {pinned}")),
    }
}

fn check(name: &str, rel: &str, overrides: &[(&str, Value)], seed: u64) {
    let sc = from_json(&load(rel, overrides)).unwrap_or_else(|e| panic!("{name}: {e}"));
    let out = run(&sc, seed);
    let mut summary = serde_json::to_value(&out.summary).unwrap();
    summary.as_object_mut().unwrap().remove("wall_seconds");
    summary.as_object_mut().unwrap().remove("version");
    let file = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(format!("{name}.json"));
    if std::env::var_os("TERNSIM_BLESS").is_some() {
        let text = serde_json::to_string_pretty(&summary).unwrap();
        std::fs::write(&file, text + "\n").unwrap();
        return;
    }
    let pinned: Value = serde_json::from_str(
        &std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display())),
    )
    .unwrap();
    if let Some(m) = subset_mismatch(&pinned, &summary, name) {
        panic!("run summary differs from the pin {}: {m}", file.display());
    }
}

fn s(v: &str) -> Value {
    Value::String(v.to_string())
}

#[test]
fn wired_examples() {
    for tcp in ["tahoe", "reno", "newreno", "sack", "vegas"] {
        check(
            &format!("dumbbell-{tcp}"),
            "examples/dumbbell.toml",
            &[("flows.0.tcp", s(tcp))],
            1,
        );
    }
    for (tcp, seed) in [("newreno", 1), ("sack", 2), ("vegas", 3), ("tahoe", 4)] {
        check(
            &format!("lossy_path-{tcp}"),
            "examples/lossy_path.toml",
            &[("flows.0.tcp", s(tcp))],
            seed,
        );
    }
    check("two_flows", "examples/two_flows.toml", &[], 3);
    check(
        "two_flows-reno-delack",
        "examples/two_flows.toml",
        &[
            ("flows.1.tcp", s("reno")),
            ("tcp_defaults.delayed_ack", Value::Bool(true)),
        ],
        5,
    );
}

#[test]
fn umts_scenarios() {
    check("umts_dch", "examples/umts_dch.toml", &[], 1);
    for (tcp, bler) in [("reno", 0.1), ("vegas", 0.1), ("vegas", 0.3)] {
        check(
            &format!("lo-umts-{tcp}-{bler}"),
            "lo-umts/reno.toml",
            &[
                ("flows.0.tcp", s(tcp)),
                ("bearers.0.bler", serde_json::json!(bler)),
                ("duration", s("200s")),
            ],
            2,
        );
    }
    for tcp in ["tahoe", "reno", "newreno", "sack"] {
        check(
            &format!("costamagna-bulk-{tcp}"),
            "costamagna-utra/bulk.toml",
            &[("flows.0.tcp", s(tcp)), ("duration", s("100s"))],
            1,
        );
    }
    check(
        "costamagna-web-sack",
        "costamagna-utra/web_session.toml",
        &[("duration", s("100s"))],
        1,
    );
}

/// Full-length lo-umts Vegas runs at TBLER 15 %, where some seeds see repeated timeouts:
/// the regime most sensitive to any change in Vegas or in event order.
#[test]
fn lo_umts_vegas_full_length() {
    for seed in [3u64, 4, 5] {
        check(
            &format!("lo-umts-vegas-0.15-1000s-{seed}"),
            "lo-umts/reno.toml",
            &[
                ("flows.0.tcp", s("vegas")),
                ("bearers.0.bler", serde_json::json!(0.15)),
            ],
            seed,
        );
    }
}
