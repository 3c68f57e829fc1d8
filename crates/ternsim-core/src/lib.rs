//! # ternsim-core
//!
//! A deterministic packet-level discrete-event simulator for TCP congestion control over
//! wired and wireless paths. Pure Rust, no Python: the `ternsim-py` crate binds it.
//!
//! Layers, bottom up, each owning one idea:
//! - [`sim`]: integer-nanosecond time, the (time, insertion order) event queue, named random
//!   streams. Knows nothing of networks.
//! - [`channel`]: packet and block error models (i.i.d., Gilbert-Elliott, hidden Markov,
//!   trace-driven), shared by wired links and radio bearers.
//! - [`tcp`]: ns-2 style one-way TCP senders (Tahoe, Reno, NewReno, SACK, Vegas) and sinks as
//!   sans-IO state machines.
//! - [`net`]: packets with a header stack, nodes, interfaces (wired point-to-point links with
//!   drop-tail queues), routing, packet accounting.
//! - [`app`]: traffic sources (FTP bulk).
//! - [`trace`]: columnar trace tables and per-flow statistics.
//! - [`scenario`]: the scenario schema, unit parsing, validation with key paths.
//! - [`umts`]: the UMTS radio bearer: PDCP, RLC acknowledged/unacknowledged mode, MAC-d and
//!   the DCH with its TTIs, as one sans-IO component.
//! - [`world`]: builds a network from a scenario and runs the event loop.

pub mod app;
pub mod channel;
pub mod net;
pub mod scenario;
pub mod sim;
pub mod tcp;
pub mod trace;
pub mod umts;
pub mod world;

/// The version that results are cached and labelled with.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
