//! `cargo run --release --example benchloop -- REPS scenario.toml...`: runs each scenario
//! (seed 1) REPS times in one process, round-robin, and prints the fastest wall time of each.
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let reps: usize = args[1].parse().expect("reps");
    let scs: Vec<_> = args[2..]
        .iter()
        .map(|p| {
            let text = std::fs::read_to_string(p).expect("scenario file");
            ternsim_core::scenario::from_toml(&text).unwrap_or_else(|e| panic!("{e}"))
        })
        .collect();
    let mut best = vec![f64::INFINITY; scs.len()];
    let mut events = vec![0u64; scs.len()];
    for _ in 0..reps {
        for (i, sc) in scs.iter().enumerate() {
            let out = ternsim_core::world::run(sc, 1);
            best[i] = best[i].min(out.summary.wall_seconds);
            events[i] = out.summary.events;
        }
    }
    for (i, p) in args[2..].iter().enumerate() {
        println!(
            "{p} {:.4} s {} events {:.0} ns/event",
            best[i],
            events[i],
            best[i] * 1e9 / events[i] as f64
        );
    }
}
