//! Ad hoc On-Demand Distance Vector routing (RFC 3561) as ns-2's `aodv/` runs it
//! (link-spec §5.2): the protocol published ns-2 AODV results embody, not the full RFC.
//!
//! One [`AodvAgent`] per node. It owns:
//! - the **route table** ([`route_table`]): per destination a sequence number, hop count,
//!   next hop, lifetime, valid flag and precursor list, plus the discovery state (last ring
//!   TTL, network-wide attempts, when the next attempt may go, discovery latency history);
//! - the **route queue** ([`queue`]): data waiting for a route (ns-2 `aodv_rqueue`,
//!   64 packets, 30 s);
//! - the protocol logic ([`agent`]): expanding-ring discovery, RREQ duplicate cache,
//!   reverse and forward route setup, replies by the destination or by an intermediate node
//!   with a fresh enough route, link-break handling from MAC feedback with local repair and
//!   route errors to precursors.
//!
//! HELLO messages are an option ([`AodvConfig::hello`], off as in ns-2, which compiles
//! `AODV_LINK_LAYER_DETECTION` in and sends none): every node broadcasts one each
//! U(0.75, 1.25) × `hello_interval`, and a neighbour not heard for 1.5 × `allowed_hello_loss`
//! × `hello_interval` is treated as a broken link (ns-2 `sendHello`, `recvHello`, `nb_purge`).
//! Not done: gratuitous RREPs (ns-2
//! does not send them either), the RREQ/RERR rate limits (ns-2 has none), the neighbour
//! blacklist (`BAD_LINK_LIFETIME`), RREP-ACK. The agent is sans-IO like the DSR agent.

pub mod agent;
pub mod queue;
pub mod route_table;

#[cfg(test)]
mod tests;

pub use agent::{AodvAgent, AodvStats};

use crate::sim::SimTime;

/// AODV parameters, every one settable; defaults are ns-2's (`aodv/aodv.h`,
/// `aodv/aodv_rqueue.h` as link-spec §5.2 reports them) where ns-2 and RFC 3561 §10 differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AodvConfig {
    /// Lifetime a route gets, refreshed each time data is forwarded on it (ns-2 10 s; RFC
    /// 3 s).
    pub active_route_timeout: SimTime,
    /// Lifetime a destination puts in its own RREPs (ns-2 10 s; RFC 2·ACTIVE_ROUTE_TIMEOUT).
    pub my_route_timeout: SimTime,
    /// A reverse route set up by a RREQ lives at least this long (ns-2 `REV_ROUTE_LIFE` 6 s).
    pub rev_route_life: SimTime,
    /// How long a (originator, RREQ ID) pair is remembered (ns-2 `BCAST_ID_SAVE` 6 s).
    pub bcast_id_save: SimTime,
    /// Network-wide RREQs allowed beyond the first before the buffered packets are dropped
    /// (ns-2 `RREQ_RETRIES` 3; RFC 2).
    pub rreq_retries: u32,
    /// Cap of the wait between attempts, and the pause after giving up (ns-2
    /// `MAX_RREQ_TIMEOUT` 10 s).
    pub max_rreq_timeout: SimTime,
    /// Expanding ring: first TTL, increment, last ring TTL before network-wide (ns-2 5, 2, 7;
    /// RFC 1, 2, 7).
    pub ttl_start: u8,
    pub ttl_increment: u8,
    pub ttl_threshold: u8,
    /// TTL of a network-wide RREQ (ns-2 `NETWORK_DIAMETER` 30; RFC 35).
    pub network_diameter: u8,
    /// Per-hop time used for the discovery wait while no latency was measured (ns-2
    /// `NODE_TRAVERSAL_TIME` 30 ms; RFC 40 ms).
    pub node_traversal_time: SimTime,
    /// Local repair (ns-2 `AODV_LOCAL_REPAIR` on): a break nearer the destination than the
    /// source is repaired by the upstream node instead of reported.
    pub local_repair: bool,
    /// How long a local repair may take before the route is given up. `None` is what
    /// ns-2.35 does: `local_rt_repair` schedules its timer with the route's
    /// `rt_req_timeout` as the delay, but `sendRequest` stores that as an absolute time, so
    /// the timer fires at about twice the current time (in a 100 s run after 10 s: after
    /// the run), and then only invalidates the route, with no route error. `Some(w)` gives
    /// up after `w` (RFC 3561 §6.12; ns-2 declares `LOCAL_REPAIR_WAIT_TIME` 0.15 s without
    /// using it), invalidating the route and reporting it to the precursors.
    pub local_repair_wait: Option<SimTime>,
    /// Whether a local repair first increments the destination sequence number (RFC 3561
    /// §6.12), so that only a route at least as fresh answers. ns-2.35 does not: its RREQ
    /// asks for the number it has, neighbours that still hold the old route answer with
    /// it, and the repairing node, which kept the route's hop count, accepts such a reply
    /// only if it is strictly shorter (`recvReply`): a repair to a route of the same
    /// length waits for the destination's own reply.
    pub local_repair_fresh_seq: bool,
    /// Period of the purge timer (ns-2 route cache timer, `rt_purge`, 0.5 s): its ticks, at
    /// multiples of this from 0 s on every node, re-try discovery for destinations with
    /// queued packets and are the only times a route's lifetime is looked at.
    pub purge_interval: SimTime,
    /// Spacing of buffered packets released when a route appears (ns-2 `ARP_DELAY` 10 ms).
    pub release_spacing: SimTime,
    /// Broadcast control messages wait U(0, jitter) (ns-2 10 ms); unicast ones do not.
    pub broadcast_jitter: SimTime,
    /// Count an IP header (20 octets) on the packets this node originates for agents other
    /// than TCP, as ns-2.35's `AODV::recv` does (`ch->size() += IP_HDR_LEN` unless the
    /// packet is TCP data or an ACK, whose agent size already holds one): a 512-octet CBR
    /// packet crosses the air as 532 + the MAC header; the destination takes them off.
    pub originated_ip_header: bool,
    /// Route queue capacity (ns-2 `AODV_RTQ_MAX_LEN` 64); when full the oldest is dropped
    /// with `hold_overflow`.
    pub queue_size: usize,
    /// How long a packet may wait for a route (ns-2 `AODV_RTQ_TIMEOUT` 30 s); then it is
    /// dropped with `hold_timeout`.
    pub queue_timeout: SimTime,
    /// Send HELLOs and detect broken links by their absence (RFC 3561 §6.9). Off by
    /// default, as in ns-2, which relies on link-layer feedback (`AODV_LINK_LAYER_DETECTION`)
    /// and sends none.
    pub hello: bool,
    /// HELLO period (ns-2 `HELLO_INTERVAL` 1 s); each interval is drawn in
    /// [0.75, 1.25] × this (ns-2 `MinHelloInterval`/`MaxHelloInterval`).
    pub hello_interval: SimTime,
    /// HELLOs a neighbour may miss (ns-2 `ALLOWED_HELLO_LOSS` 3): it is lost when none was
    /// heard for 1.5 × this × `hello_interval` (ns-2 `nb_insert` expiry).
    pub allowed_hello_loss: u32,
}

impl Default for AodvConfig {
    fn default() -> Self {
        AodvConfig {
            active_route_timeout: SimTime::from_millis(10_000),
            my_route_timeout: SimTime::from_millis(10_000),
            rev_route_life: SimTime::from_millis(6_000),
            bcast_id_save: SimTime::from_millis(6_000),
            rreq_retries: 3,
            max_rreq_timeout: SimTime::from_millis(10_000),
            ttl_start: 5,
            ttl_increment: 2,
            ttl_threshold: 7,
            network_diameter: 30,
            node_traversal_time: SimTime::from_millis(30),
            local_repair: true,
            local_repair_wait: None,
            local_repair_fresh_seq: false,
            purge_interval: SimTime::from_millis(500),
            release_spacing: SimTime::from_millis(10),
            broadcast_jitter: SimTime::from_millis(10),
            originated_ip_header: true,
            queue_size: 64,
            queue_timeout: SimTime::from_millis(30_000),
            hello: false,
            hello_interval: SimTime::from_millis(1_000),
            allowed_hello_loss: 3,
        }
    }
}
