//! The integration tests of the core, one module per area, built as ONE test binary: each
//! separate `tests/*.rs` file would be its own binary, linked (with thin LTO in the release
//! profile the tests use) against the whole crate, which made building the tests take most
//! of the test command's time. Run one area with `cargo test -p ternsim-core --release --test
//! integration golden_summaries` (a module path filters the tests).

mod capture;
mod event_queue;
mod flow_metrics;
mod fuzz_loader;
mod golden_summaries;
mod mobile_ip;
mod mobile_ip_wifi;
mod mobility_scenario;
mod network;
mod ping;
mod random_waypoint;
mod red;
mod scenario_errors;
mod stepping;
mod topology_layouts;
mod wired_cum_wireless;
mod wireless;
mod wireless_scenario;
mod world;
