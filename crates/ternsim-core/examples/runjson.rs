//! `cargo run --release --example runjson -- scenario.toml [seed]`: prints the run summary.
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let text = std::fs::read_to_string(&args[1]).expect("scenario file");
    let seed = args.get(2).map_or(1, |s| s.parse().expect("seed"));
    let sc = ternsim_core::scenario::from_toml(&text).unwrap_or_else(|e| panic!("{e}"));
    let out = ternsim_core::world::run(&sc, seed);
    println!("{}", serde_json::to_string_pretty(&out.summary).unwrap());
}
