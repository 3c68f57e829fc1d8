//! IEEE 802.11 DCF on a shared radio channel, with ns-2's semantics (link-spec §3).
//!
//! One [`WifiChannel`] holds every NIC on a channel; port i is station i. It is an
//! interface kind of the seam in [`crate::net::iface`], sans-IO like the wired link:
//!
//! - build it with [`WifiChannel::new`]`(config, stations)`, one [`StationSpec`] per NIC
//!   (its address, its mobility, its MAC random stream `RandomStream::named(seed,
//!   "wifi/<node>/mac")`);
//! - `submit(now, port, packet, next_hop, out)`: the node's packet for `next_hop`
//!   (`Addr::BROADCAST` for a broadcast frame);
//! - `on_wake(now, tag, out)`: for every `(time, tag)` the channel put in `out.wakes`;
//!   wakes may be stale and are then ignored, so the world schedules them blindly;
//! - drain `out`: `arrivals` (port = receiving station), `drops` (`ifq_overflow`,
//!   `no_receiver` for a broadcast nobody decoded, `arp_replaced`), `tx_failures` (retry
//!   limit or three unanswered ARP requests: the packet and its next hop),
//!   `overheard` (with `promiscuous`), `copies` (broadcast copies);
//! - after routing has handled a call's `tx_failures` (and purged what it wanted from the
//!   queue, `purge_queued`, or taken it back to salvage, `reclaim_queued`: more
//!   `tx_failures`), `resume_after_tx_failure(now, port, out)` for each port that
//!   failed: the MAC takes its next packet only then, as ns-2 calls routing back inside
//!   `RetransmitRTS`/`RetransmitDATA` before `tx_resume` pulls the queue;
//! - `stats(port)`, `queue_len(port)`, `packets_held()`; `set_position` / `set_mobility`
//!   when a node moves.
//!
//! Module map: [`propagation`] (Friis, two-ray ground, thresholds ↔ ranges), [`config`]
//! (parameters with their ns-2 sources, air times), [`ifq`] (PriQueue, CMUPriQueue),
//! [`backoff`] (the pausable backoff as one deadline), `dcf.rs` (the MAC rules), `channel.rs`
//! (medium, reception, capture, collisions, LL delay, wake-ups), `arp.rs` (ARP), [`grid`]
//! (spatial index), [`stats`].
//!
//! ARP (link-spec §3.5, `arp.rs`): unicast next hops are resolved where a packet leaves
//! the LL for the interface queue (`WifiConfig::arp`, on by default as in ns-2); ARP
//! requests and replies are link-layer frames, not packets, and go to the MAC ahead of the
//! queue. A packet ARP replaces is dropped as `arp_replaced`; one whose next hop does not
//! answer three requests comes back in `tx_failures`.
//!
//! Not modelled: fragmentation, power management, infrastructure mode.

mod arp;
pub mod backoff;
mod channel;
pub mod config;
mod dcf;
pub mod grid;
pub mod ifq;
pub mod mac_log;
pub mod propagation;
pub mod stats;
#[cfg(test)]
mod tests;

pub use channel::{StationSpec, WifiChannel};
pub use config::{IfqKind, IncomingLoss, MacHeader, Timing, WifiConfig};
pub use mac_log::{MacFrameKind, MacLogEntry};
pub use propagation::{PropagationModel, Radio};
pub use stats::WifiStats;
