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

#[test]
fn debug_run() {
    let out = run_with(&[("[traces]", "[traces]\nrtt = true\ntopology = true")]);
    println!("{}", serde_json::to_string_pretty(&out.summary).unwrap());
    let r = rtts(&out);
    for w in (0..120).step_by(5) {
        let v: Vec<f64> = r
            .iter()
            .filter(|(t, _)| *t >= w as f64 && *t < w as f64 + 5.0)
            .map(|x| x.1 * 1e3)
            .collect();
        let min = v.iter().cloned().fold(f64::INFINITY, f64::min);
        println!("{w}: n={} min={min:.3}", v.len());
    }
    let topo = out.tables.iter().find(|t| t.name == "topology").unwrap();
    println!("{:?}", topo);
}
