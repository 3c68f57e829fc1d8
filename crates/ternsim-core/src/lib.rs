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
//! - [`net`]: addresses, packets with a header stack, control messages, the interface seam
//!   and wired point-to-point link directions with drop-tail queues.
//! - [`routing`]: the per-node routing protocol seam (forward, deliver, hold, drop) and static
//!   shortest-path routing.
//! - [`mobility`]: where a node is at time t.
//! - [`mobileip`]: Mobile IP agents, mobile nodes and route-optimizing correspondents: a
//!   per-node layer the world consults before routing (tunnels, registration, handoff).
//! - [`app`]: traffic sources (FTP bulk).
//! - [`trace`]: columnar trace tables and per-flow statistics.
//! - [`scenario`]: the scenario schema, unit parsing, validation with key paths.
//! - [`umts`]: the UMTS radio bearer: PDCP, RLC acknowledged/unacknowledged mode, MAC-d and
//!   the DCH with its TTIs, as one sans-IO component.
//! - [`wifi`]: IEEE 802.11 DCF NICs on a shared radio channel (ns-2 semantics), propagation
//!   and interface queues, as one sans-IO interface kind.
//! - [`world`]: nodes, the interface kinds, builds a network from a scenario and runs the
//!   event loop; it moves packets between the parts and knows no protocol.

pub mod app;
pub mod channel;
pub mod mobileip;
pub mod mobility;
pub mod net;
pub mod routing;
pub mod scenario;
pub mod sim;
pub mod tcp;
pub mod trace;
pub mod umts;
pub mod wifi;
pub mod world;

/// The version that results are cached and labelled with.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
