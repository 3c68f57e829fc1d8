//! Destination-Sequenced Distance-Vector routing (Perkins & Bhagwat, SIGCOMM 1994) as ns-2's
//! `dsdv/` runs it (manet-spec §1): the proactive protocol of the classic DSR / AODV / DSDV
//! comparisons, with ns-2's choices where they differ from the paper.
//!
//! One [`DsdvAgent`] per node. It owns:
//! - the **route table** ([`route_table`]): per destination the next hop, metric in hops
//!   (ns-2 `BIG` 250 = unreachable), the destination's sequence number (even: issued by the
//!   destination; odd: a break reported by someone else), the weighted settling time and the
//!   earliest time the route may be advertised, the advertise flags, and the packets waiting
//!   for a usable route (ns-2 keeps them on the entry, 5 at most, no timeout);
//! - the protocol logic ([`agent`]): start-up, periodic full dumps, per-entry triggered
//!   updates spaced at least `min_triggered_update_period` apart, update processing with the
//!   sequence-number rules and the settling delay, neighbour timeouts after
//!   `min_update_periods` silent periods, and (optionally, ns-2 `use_mac_`) link breaks on
//!   802.11 transmit failures.
//!
//! Where ternsim departs from ns-2.35: a packet the node originated that an ignored update's
//! queue drain catches (ns-2's `processUpdate` loops on it forever, the run never ends) stays
//! queued for the route the drain installs; an originated packet released from a queue keeps
//! its one extra IP header (ns-2's `recv` adds another 20 octets each time it passes). The
//! drain itself, stale route included, is ns-2's (`DsdvConfig::stale_update_drain`,
//! manet-spec §6 item 1). The agent is sans-IO like the AODV agent.

pub mod agent;
pub mod route_table;
pub mod subnet;

#[cfg(test)]
mod subnet_tests;
#[cfg(test)]
mod tests;

pub use agent::{DsdvAgent, DsdvStats};
pub use subnet::Subnet;

use crate::sim::SimTime;

/// DSDV parameters, every one settable; defaults are ns-2.35's (`dsdv/dsdv.{cc,h}` constants
/// and constructor, `tcl/mobility/dsdv.tcl`, as manet-spec §1.1 reports them).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DsdvConfig {
    /// Base period of full dumps (ns-2 `perup_` 15 s); each interval is
    /// perup·(0.75 + U(0, 0.25)) with `randomize`, perup·0.75 without.
    pub periodic_update_interval: SimTime,
    /// A neighbour silent for this many periods is lost (ns-2 `min_update_periods_` 3, so
    /// the timeout is 45 s).
    pub min_update_periods: u32,
    /// Weighted settling time a new route starts with (ns-2 `wst0_` 6 s).
    pub initial_settling_time: SimTime,
    /// Weight of the old settling time in its running average (ns-2 `alpha_` 0.875).
    pub settling_alpha: f64,
    /// Minimum spacing of triggered updates (ns-2 `DSDV_MIN_TUP_PERIOD` 1 s).
    pub min_triggered_update_period: SimTime,
    /// Every update waits U(0, jitter) before it is sent (ns-2 `DSDV_BROADCAST_JITTER`
    /// 10 ms).
    pub broadcast_jitter: SimTime,
    /// The first full dump waits U(0, jitter) after start-up (ns-2 `DSDV_STARTUP_JITTER`
    /// 2 s).
    pub startup_jitter: SimTime,
    /// Draw the jitters above (ns-2 `be_random_` 1). Off: none, and periodic intervals of
    /// exactly 0.75·perup.
    pub randomize: bool,
    /// React to 802.11 transmit failures by breaking the routes through that next hop (ns-2
    /// `use_mac_`, default 0: the failed packet is dropped and routes time out instead).
    pub use_mac: bool,
    /// Send a triggered update on a fresher sequence number alone, the "DSDV-SQ" of the
    /// literature (ns-2 compile switch `TRIGGER_UPDATE_ON_FRESH_SEQNUM`, off in ns-2.35).
    pub trigger_on_fresh_seqnum: bool,
    /// Packets kept per destination without a usable route; beyond it the oldest is dropped
    /// (ns-2 `MAX_QUEUE_LENGTH` 5).
    pub queue_per_destination: usize,
    /// Count a second IP header (20 octets) on the packets this node originates for its
    /// agents, as ns-2.35's `DSDV_Agent::recv` does (`cmh->size() += IP_HDR_LEN`; the
    /// agent's size already holds one): they cross the air 20 octets longer, and lose them
    /// at the destination.
    pub originated_ip_copy: bool,
    /// ns-2.35's queue drain (`processUpdate`, manet-spec §1.6 step 6): an update naming
    /// a finite metric for a destination whose packets wait drains them through the
    /// receive path even when the update is not believed (an older sequence number), the
    /// forwarded ones circling until their TTL runs out, and then installs that stale
    /// route over the entry; released packets lose one more TTL unit. Off: packets are
    /// released only to an installed usable route, with their TTL as it was.
    pub stale_update_drain: bool,
}

impl Default for DsdvConfig {
    fn default() -> Self {
        DsdvConfig {
            periodic_update_interval: SimTime::from_millis(15_000),
            min_update_periods: 3,
            initial_settling_time: SimTime::from_millis(6_000),
            settling_alpha: 0.875,
            min_triggered_update_period: SimTime::from_millis(1_000),
            broadcast_jitter: SimTime::from_millis(10),
            startup_jitter: SimTime::from_millis(2_000),
            randomize: true,
            use_mac: false,
            trigger_on_fresh_seqnum: false,
            queue_per_destination: 5,
            originated_ip_copy: true,
            stale_update_drain: true,
        }
    }
}

impl DsdvConfig {
    /// How long a neighbour may stay silent before the routes through it break.
    pub fn neighbour_timeout(&self) -> SimTime {
        SimTime::from_nanos(
            self.periodic_update_interval.as_nanos() * self.min_update_periods as u64,
        )
    }
}
