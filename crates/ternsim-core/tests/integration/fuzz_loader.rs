//! Bad input at volume, on the Rust side: mutated scenario files fed to the loader
//! (`scenario::from_toml` and `scenario::from_json`). Every input must come back as `Ok` or as
//! an `Err` that says where and what: a non-empty message, and a key path unless the whole
//! document is at fault (not TOML at all, or a top-level key missing). A panic fails the test
//! and prints the input that caused it.
//!
//! The mutator is a plain loop with a fixed seed (no nightly toolchain needed, same inputs on
//! every machine): it starts from the shipped scenarios and mutates them at three levels:
//! bytes of the text, values in the parsed document, and the document's shape (keys removed,
//! added, lists emptied or duplicated). CI runs a short campaign; set
//! `TERNSIM_FUZZ_INPUTS=1000000` for a long one (and `TERNSIM_FUZZ_SEED` for another stream):
//! `cargo test -p ternsim-core --release --test integration fuzz_loader -- --nocapture`.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64;
use serde_json::{Map, Value};
use ternsim_core::scenario::{from_json, from_toml, ScenarioError};

/// Inputs in the CI campaign: a few seconds of a release build.
const CI_INPUTS: u64 = 50_000;

fn scenarios_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../python/ternsim/scenarios")
}

/// The shipped scenario files, in a fixed order: the seed corpus.
fn corpus() -> Vec<String> {
    let mut files = Vec::new();
    let mut dirs = vec![scenarios_dir()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "toml") {
                files.push(path);
            }
        }
    }
    files.sort();
    assert!(
        files.len() >= 10,
        "expected the shipped scenarios, found {files:?}"
    );
    files
        .iter()
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect()
}

/// Values a loader must refuse or accept gracefully: wrong types, out-of-range numbers,
/// units that do not exist, empty and huge containers.
const EDGE_TEXT: &[&str] = &[
    "-1",
    "0",
    "1",
    "-0.0",
    "1e400",
    "-1e400",
    "nan",
    "inf",
    "-inf",
    "18446744073709551616",
    "9223372036854775807",
    "-9223372036854775808",
    "4294967296",
    "1e-320",
    "true",
    "\"\"",
    "\"x\"",
    "[]",
    "{}",
    "[[]]",
    "\"5parsecs\"",
    "\"-1s\"",
    "\"0bps\"",
    "\"1e400s\"",
    "\"10ms\"",
    "\"1Mbps\"",
    "\"1500B\"",
    "\"0s\"",
    "\"nanms\"",
    "\"infs\"",
    "\"1e30Gbps\"",
    "\"reno\"",
    "\"vegas\"",
    "\"a\"",
    "\"b\"",
    "\"0\"",
    "\"-0\"",
    "\"\u{0}\"",
    "\"é\"",
    "[1, \"a\"]",
    "{ x = 1 }",
];

fn edge_value(rng: &mut Pcg64) -> Value {
    match rng.gen_range(0..12) {
        0 => Value::Null,
        1 => Value::Bool(rng.gen()),
        2 => Value::from(rng.gen::<i64>()),
        3 => Value::from(rng.gen::<u64>()),
        4 => Value::from(rng.gen_range(-3i64..5)),
        5 => Value::from(f64::from_bits(rng.gen::<u64>())),
        6 => Value::from(rng.gen_range(-1e3..1e3)),
        7 => Value::Array(vec![]),
        8 => Value::Object(Map::new()),
        9 => {
            let units = [
                "ms", "s", "us", "ns", "bps", "kbps", "Mbps", "Gbps", "B", "KB", "MB", "x", "",
            ];
            let n = rng.gen_range(-1e4..1e4);
            Value::from(format!("{n}{}", units[rng.gen_range(0..units.len())]))
        }
        10 => Value::from(
            [
                "reno", "newreno", "sack", "tahoe", "vegas", "droptail", "red", "dsr", "aodv",
                "n0", "n1", "a", "",
            ][rng.gen_range(0..13)],
        ),
        _ => {
            let len = rng.gen_range(0..8);
            Value::from(
                (0..len)
                    .map(|_| rng.gen_range(' '..='~'))
                    .collect::<String>(),
            )
        }
    }
}

/// Every value slot in the document, as a path of object keys and list indices.
fn slots(v: &Value, at: &mut Vec<Step>, out: &mut Vec<Vec<Step>>) {
    out.push(at.clone());
    match v {
        Value::Object(m) => {
            for (k, child) in m {
                at.push(Step::Key(k.clone()));
                slots(child, at, out);
                at.pop();
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                at.push(Step::Index(i));
                slots(child, at, out);
                at.pop();
            }
        }
        _ => {}
    }
}

#[derive(Clone, Debug)]
enum Step {
    Key(String),
    Index(usize),
}

fn slot_mut<'a>(mut v: &'a mut Value, path: &[Step]) -> &'a mut Value {
    for step in path {
        v = match (step, v) {
            (Step::Key(k), Value::Object(m)) => m.get_mut(k).unwrap(),
            (Step::Index(i), Value::Array(a)) => &mut a[*i],
            _ => unreachable!("slot paths come from the same document"),
        };
    }
    v
}

/// One structural or value mutation of the parsed document.
fn mutate_document(doc: &mut Value, rng: &mut Pcg64) {
    let mut all = Vec::new();
    slots(doc, &mut Vec::new(), &mut all);
    let path = &all[rng.gen_range(0..all.len())];
    let donor = slot_mut(doc, &all[rng.gen_range(0..all.len())]).clone();
    let keys = [
        "name",
        "duration",
        "nodes",
        "links",
        "flows",
        "traces",
        "tcp_defaults",
        "bearers",
        "routing",
        "events",
        "a",
        "b",
        "rate",
        "delay",
        "queue",
        "loss",
        "tcp",
        "src",
        "dst",
        "start",
        "stop",
        "bytes",
        "window",
        "min_rto",
        "model",
        "type",
        "limit",
        "x",
        "y",
    ];
    let target = slot_mut(doc, path);
    match (rng.gen_range(0..6), target) {
        (0, Value::Object(m)) if !m.is_empty() => {
            let k = m.keys().nth(rng.gen_range(0..m.len())).unwrap().clone();
            m.remove(&k);
        }
        (1, Value::Object(m)) => {
            m.insert(
                keys[rng.gen_range(0..keys.len())].to_string(),
                edge_value(rng),
            );
        }
        (2, Value::Array(a)) if !a.is_empty() => {
            let i = rng.gen_range(0..a.len());
            if rng.gen() {
                let copy = a[i].clone();
                a.push(copy);
            } else {
                a.remove(i);
            }
        }
        (3, Value::Array(a)) => a.clear(),
        // A value from elsewhere in the document: a plausible type in the wrong place.
        (4, t) => *t = donor,
        (_, t) => *t = edge_value(rng),
    }
}

/// One byte-level mutation of the text (kept valid UTF-8: the loader takes `&str`).
fn mutate_text(text: &str, corpus: &[String], rng: &mut Pcg64) -> String {
    let mut s = text.to_string();
    let at = |s: &str, rng: &mut Pcg64| {
        let mut i = rng.gen_range(0..=s.len());
        while !s.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    match rng.gen_range(0..6) {
        0 => {
            let i = at(&s, rng);
            s.insert_str(i, EDGE_TEXT[rng.gen_range(0..EDGE_TEXT.len())]);
        }
        1 => {
            // Delete up to 40 bytes, ending on a character boundary.
            let i = at(&s, rng);
            let mut j = (i + rng.gen_range(0..=40)).min(s.len());
            while !s.is_char_boundary(j) {
                j -= 1;
            }
            s.replace_range(i..j.max(i), "");
        }
        2 => {
            let i = at(&s, rng);
            let c = [
                '=', '[', ']', '{', '}', '"', '\'', ',', '\n', '#', '.', '-', '+', 'e', '0', '\\',
            ][rng.gen_range(0..16)];
            s.insert(i, c);
        }
        3 => {
            // Replace the value after an `=` with an edge value.
            let eqs: Vec<usize> = s.match_indices(" = ").map(|(i, _)| i + 3).collect();
            if let Some(&i) = eqs.get(rng.gen_range(0..eqs.len().max(1))) {
                let end = s[i..].find('\n').map_or(s.len(), |e| i + e);
                s.replace_range(i..end, EDGE_TEXT[rng.gen_range(0..EDGE_TEXT.len())]);
            }
        }
        4 => {
            // Splice: the head of this file with the tail of another.
            let other = &corpus[rng.gen_range(0..corpus.len())];
            let (i, j) = (at(&s, rng), at(other, rng));
            s.truncate(i);
            s.push_str(&other[j..]);
        }
        _ => {
            let (i, j) = (at(&s, rng), at(&s, rng));
            let piece = s[i.min(j)..i.max(j)].to_string();
            let k = at(&s, rng);
            s.insert_str(k, &piece);
        }
    }
    s
}

/// The loader's contract for a refusal: what is wrong, and where unless the whole document
/// is at fault.
fn refusal_fault(e: &ScenarioError) -> Option<String> {
    if e.message.is_empty() {
        return Some(format!("refusal without a message at {:?}", e.path));
    }
    let whole_document = e.message.starts_with("invalid TOML")
        || e.message.starts_with("cannot convert TOML")
        || e.message.starts_with("missing")
        // The document itself is not a table (from_json given `5`, `null` or `[]`).
        || e.message.ends_with("expected a table of keys");
    (e.path.is_empty() && !whole_document)
        .then(|| format!("refusal without a key path: {:?}", e.message))
}

thread_local! {
    /// Set while the loader runs, so that the panic hook stays quiet only for its panics.
    static IN_LOADER: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Outcome counts of a campaign.
#[derive(Default, Debug)]
struct Tally {
    inputs: u64,
    accepted: u64,
    refused_with_path: u64,
    refused_whole_document: u64,
    /// Panics and refusals that break the contract.
    faults: u64,
    /// The first few of them, with their inputs.
    first_faults: Vec<String>,
}

impl Tally {
    fn feed(&mut self, input: &str, load: impl Fn(&str) -> Result<(), ScenarioError>) {
        self.inputs += 1;
        IN_LOADER.with(|f| f.set(true));
        let outcome = catch_unwind(AssertUnwindSafe(|| load(input)));
        IN_LOADER.with(|f| f.set(false));
        match outcome {
            Ok(Ok(())) => self.accepted += 1,
            Ok(Err(e)) => {
                if let Some(fault) = refusal_fault(&e) {
                    self.faults += 1;
                    if self.first_faults.len() < 5 {
                        self.first_faults.push(format!("{fault}\ninput:\n{input}"));
                    }
                } else if e.path.is_empty() {
                    self.refused_whole_document += 1;
                } else {
                    self.refused_with_path += 1;
                }
            }
            Err(cause) => {
                self.faults += 1;
                let msg = cause
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| cause.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                if self.first_faults.len() < 5 {
                    self.first_faults
                        .push(format!("panic: {msg}\ninput:\n{input}"));
                }
            }
        }
    }
}

#[test]
fn loader_never_panics_and_every_refusal_names_its_key() {
    let inputs: u64 = std::env::var("TERNSIM_FUZZ_INPUTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(CI_INPUTS);
    let seed: u64 = std::env::var("TERNSIM_FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20_241_122);
    let corpus = corpus();
    let docs: Vec<Value> = corpus
        .iter()
        .map(|t| serde_json::to_value(toml::from_str::<toml::Value>(t).unwrap()).unwrap())
        .collect();
    let mut rng = Pcg64::seed_from_u64(seed);
    // The panic hook would print every panic the loader raises (the tally reports them);
    // panics anywhere else, in the mutator say, still print.
    let hook = std::sync::Arc::new(std::panic::take_hook());
    let default = hook.clone();
    std::panic::set_hook(Box::new(move |info| {
        if !IN_LOADER.with(|f| f.get()) {
            default(info);
        }
    }));
    let mut tally = Tally::default();
    while tally.inputs < inputs {
        let i = rng.gen_range(0..corpus.len());
        if rng.gen_bool(0.5) {
            let mut text = corpus[i].clone();
            for _ in 0..rng.gen_range(1..4) {
                text = mutate_text(&text, &corpus, &mut rng);
            }
            tally.feed(&text, |t| from_toml(t).map(|_| ()));
        } else {
            let mut doc = docs[i].clone();
            for _ in 0..rng.gen_range(1..4) {
                mutate_document(&mut doc, &mut rng);
            }
            let json = serde_json::to_string(&doc).unwrap();
            tally.feed(&json, |t| from_json(t).map(|_| ()));
        }
    }
    let _ = std::panic::take_hook();
    if let Ok(hook) = std::sync::Arc::try_unwrap(hook) {
        std::panic::set_hook(hook);
    }
    println!(
        "fuzz_loader: seed {seed}, {} inputs: {} accepted, {} refused with a key path, {} refused \
         as a whole document, {} faults (panics or refusals without a key path)",
        tally.inputs,
        tally.accepted,
        tally.refused_with_path,
        tally.refused_whole_document,
        tally.faults
    );
    assert!(tally.faults == 0, "{}", tally.first_faults.join("\n\n"));
    // A mutator that only produced garbage would prove little: some inputs must get through.
    assert!(
        tally.accepted > 0 && tally.refused_with_path > 0,
        "{tally:?}"
    );
}
