//! `cargo bench -p ternsim-core`: runs the benchmark scenarios in `scenarios/bench/` and
//! prints events per second, simulated seconds per wall second and wall time. The same
//! scenarios back `ternsim bench`. Nothing here asserts a time.

use std::path::PathBuf;

fn main() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/bench");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .expect("scenarios/bench exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    paths.sort();
    for path in paths {
        let text = std::fs::read_to_string(&path).expect("readable scenario");
        let sc = ternsim_core::scenario::from_toml(&text).expect("valid benchmark scenario");
        // Best of three runs, to damp noise from other processes.
        let best = (0..3)
            .map(|_| ternsim_core::world::run(&sc, 1).summary)
            .min_by(|a, b| a.wall_seconds.total_cmp(&b.wall_seconds))
            .expect("three runs");
        println!(
            "{:<16} events {:>11}  wall {:>8.3} s  {:>12.0} events/s  {:>8.1} sim s per wall s",
            best.scenario,
            best.events,
            best.wall_seconds,
            best.events as f64 / best.wall_seconds,
            best.sim_seconds / best.wall_seconds
        );
    }
}
