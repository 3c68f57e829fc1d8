//! Dynamic Source Routing (RFC 4728) as ns-2's `dsr/` runs it (link-spec §4.2): the
//! protocol published ns-2 DSR results embody, not the full RFC.
//!
//! One [`DsrAgent`] per node. It owns:
//! - the **send buffer** ([`send_buffer`]): data waiting for a route, 64 packets, 30 s,
//!   checked every 30 ms;
//! - **route discovery** state ([`request_table`]): the per-target back-off between
//!   discovery cycles, and the table of requests already seen (initiator, id);
//! - the **route cache** ([`route_cache`]): ns-2's MobiCache path cache, primary 30 and
//!   secondary 64 paths, round-robin replacement, no expiry;
//! - route **maintenance** ([`maintenance`]): link-layer transmit failures remove the link,
//!   send a route error to the packet's source and salvage the packet;
//! - the protocol logic tying them together ([`agent`]).
//!
//! What it does not do (ns-2 DSR does not either, link-spec §4.2): piggy-backing data or
//! replies on requests, DSR-level acknowledgements (the 802.11 MAC's retry limit is the
//! only link feedback), route expiry. ns-2.35 runs DSR with flow state on, and so does
//! this agent by default ([`flow_state`]): established flows travel without a source
//! route, so their packets are smaller and teach the nodes they pass no routes. Not done
//! here although ns-2 does it: unknown-flow errors (ternsim's packets keep their path, so
//! a node never meets a flow it does not know) and automatic route shortening of flows.
//! Pulling the other packets for a broken next hop out of the interface queue is the MAC's
//! part: it hands them back one by one. The agent is sans-IO: it is
//! handed `now`, the node's context and packets, and answers through [`super::Routed`] and
//! [`super::RoutingOutput`]; it has one random stream (jitter) of its own.

pub mod agent;
pub mod flow_state;
pub mod log;
pub mod maintenance;
pub mod request_table;
pub mod route_cache;
pub mod send_buffer;

#[cfg(test)]
mod tests;

pub use agent::{DsrAgent, DsrStats};
pub use flow_state::FlowStateConfig;
pub use log::{DsrLog, DsrLogEntry};

use crate::sim::SimTime;

/// DSR parameters, every one settable; defaults are ns-2's (`dsr/dsragent.cc`,
/// `dsr/mobicache.cc`, `dsr/hdr_sr.h` as link-spec §4.2 reports them) where ns-2 and RFC 4728
/// §9 differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DsrConfig {
    /// Packets the send buffer holds (ns-2 `SEND_BUF_SIZE` 64); when full the oldest is
    /// dropped with `send_buffer_overflow`.
    pub send_buffer_size: usize,
    /// How long a packet may wait for a route (ns-2 `SEND_TIMEOUT` 30 s; RFC 4728 §9
    /// SendBufferTimeout 30 s); then it is dropped with `send_buffer_timeout`.
    pub send_buffer_timeout: SimTime,
    /// Period of the send buffer check that expires packets, sends those that have a route
    /// and launches requests (ns-2 `BUFFER_CHECK` 30 ms). The checks are a periodic timer
    /// of the node that runs from t = 0, whether or not the buffer holds packets.
    pub buffer_check_interval: SimTime,
    /// Each check period is `buffer_check_interval · (1 + U(0, 1))`, 30-60 ms, as ns-2's
    /// `SendBufferTimer` reschedules itself; off, exactly `buffer_check_interval`.
    pub buffer_check_jitter: bool,
    /// Time after a ring-zero request that must have passed (strictly) before the
    /// propagating request may go (ns-2 `arp_timeout` 30 ms; RFC 4728 §9
    /// NonpropRequestTimeout 30 ms).
    pub nonprop_request_timeout: SimTime,
    /// Addresses a source route holds at most (ns-2 `MAX_SR_LEN` 16); also the hop limit of
    /// propagating requests.
    pub max_sr_len: usize,
    /// Base of the back-off between discovery cycles (RFC 4728 §9 RequestPeriod 500 ms):
    /// cycle n + 1 may start min(request_period · 4^n, max_request_period) after cycle n
    /// started (link-spec §4.2).
    pub request_period: SimTime,
    /// Cap of that back-off (RFC 4728 §9 MaxRequestPeriod 10 s).
    pub max_request_period: SimTime,
    /// Every route request, originated or re-broadcast, and the target's reply wait
    /// U(0, jitter) (ns-2 `RREQ_JITTER` 10 ms, `sendOutPacketWithRoute` and
    /// `returnSrcRouteToRequestor`; RFC 4728 §9 BroadcastJitter 10 ms); a reply from the
    /// route cache goes at once (ns-2 `replyFromRouteCache`).
    pub rreq_jitter: SimTime,
    /// Paths in the primary cache: routes found by discovery or used (ns-2 MobiCache 30).
    pub primary_cache_size: usize,
    /// Paths in the secondary cache: routes learned by snooping (ns-2 MobiCache 64).
    pub secondary_cache_size: usize,
    /// Initiators remembered in the route request table (ns-2 128 entries, link-spec §4.2).
    pub request_table_size: usize,
    /// Times a packet may be salvaged (RFC 4728 §9 MAX_SALVAGE_COUNT 15).
    pub max_salvage_count: u8,
    /// Discovery cycles an intermediate node may start for packets of other nodes that it
    /// could not salvage from its cache (ns-2 `dsr_salvage_max_requests` 1, its
    /// `NEW_SALVAGE_LOGIC`): such a packet waits in the send buffer while a ring-zero
    /// request asks the neighbours; the cycle after the last allowed one drops it
    /// (`salvage_no_route`). 0 drops it at once (RFC 4728 §8.4.1).
    pub salvage_max_requests: u32,
    /// Whether those cycles may go on to a propagating request (ns-2
    /// `dsr_salvage_allow_propagating`, off): off, only the ring-zero request goes.
    pub salvage_allow_propagating: bool,
    /// A gratuitous reply for one route is sent at most once per this time (RFC 4728 §9
    /// GratReplyHoldoff 1 s).
    pub grat_reply_holdoff: SimTime,
    /// When a route reply lets several buffered packets go, the k-th leaves k times this
    /// after the first (ns-2 `acceptRouteReply`: `delay += arp_timeout`, 30 ms, to give ARP
    /// time to complete).
    pub reply_release_spacing: SimTime,
    /// The last route error addressed to this node rides on its next route requests
    /// (ring-zero ones and the first propagating one) if it is younger than
    /// `max_error_hold`, so that every node the request reaches forgets the broken link
    /// before it answers from its cache (RFC 4728 §8.3.5 gratuitous route errors; ns-2
    /// `dsragent_propagate_last_error` on, `max_err_hold` 1 s).
    pub propagate_last_error: bool,
    pub max_error_hold: SimTime,
    /// DSR flow state for the packets this node sources (ns-2.35
    /// `dsragent_enable_flowstate` on); `None` sends every packet with its source route.
    pub flow_state: Option<FlowStateConfig>,
    /// Octets added to each packet the agent carries for a transport agent: ns-2.35's DSR
    /// adds `IP_HDR_LEN` (20) to them although the agent's size already counts its IP
    /// header, so they cross the air 20 octets longer than under AODV or DSDV.
    pub data_ip_overhead: u8,
    /// A packet of another node that could not be salvaged from the cache and waited in the
    /// send buffer keeps the octets of the source route it arrived with when it leaves on a
    /// new one, up to the agent at its destination (a 4-hop route: 20 octets). ns-2.35's
    /// `undeliverablePkt` takes the old route's size off the packet before a salvage from
    /// the cache but not before `stickPacketInSendBuffer`, and `sendOutPacketWithRoute`
    /// adds the new route's size when the buffer check sends it. On, as in ns-2.35; off,
    /// the packet counts only its new route.
    pub buffered_salvage_keeps_old_route_octets: bool,
    /// A packet this node sent on one of its established flows, without a source route on
    /// the air, that the link layer gives back (the MAC's retry limit, ARP) is handled by
    /// what this node's flow table says *now*, as ns-2.35's `DSRAgent::xmitFlowFailed`
    /// does: if the flow (for a bare packet: the destination's current default flow, which
    /// may be newer than the one it left on) is alive, the failure is that of its route
    /// (the link to that route's next hop is reported broken); if it died since (a route
    /// error or another failure reported a link of its route broken) or timed out, the
    /// packet is lost untraced: no route error, no salvage, the link stays in the route
    /// cache, and the packets queued behind it for that hop stay in the interface queue.
    /// Off, it is handled like any packet the link layer gives back, on its own route
    /// (removed link, salvage, the queue for that hop handed back), as RFC 4728 §8.4
    /// would have it. Packets forwarded for other nodes are not concerned: ternsim keeps no
    /// flow tables at intermediate nodes, and ns-2's are alive whenever they forward.
    pub flow_failure_by_flow_table: bool,
    /// The tap handles each packet (by uid) once: a frame overheard again (a MAC
    /// retransmission, the same packet sent on by the next node, a salvaged packet on its
    /// new route) teaches nothing and removes no link (ns-2.35 `DSR_FILTER_TAP`, compiled
    /// in: a 1024-slot cache of uids). Off, every overheard frame is handled.
    pub filter_tap: bool,
    /// Promiscuous tap: learn routes from overheard source routes and errors, and send
    /// gratuitous replies (ns-2 `dsragent_use_tap` on).
    pub tap: bool,
    /// Intermediate nodes answer requests from their route cache (ns-2
    /// `dsragent_reply_from_cache_on_propagating` on; RFC 4728 §8.2.3).
    pub reply_from_cache: bool,
}

impl Default for DsrConfig {
    fn default() -> Self {
        DsrConfig {
            send_buffer_size: 64,
            send_buffer_timeout: SimTime::from_millis(30_000),
            buffer_check_interval: SimTime::from_millis(30),
            buffer_check_jitter: true,
            nonprop_request_timeout: SimTime::from_millis(30),
            max_sr_len: 16,
            request_period: SimTime::from_millis(500),
            max_request_period: SimTime::from_millis(10_000),
            rreq_jitter: SimTime::from_millis(10),
            primary_cache_size: 30,
            secondary_cache_size: 64,
            request_table_size: 128,
            max_salvage_count: 15,
            salvage_max_requests: 1,
            salvage_allow_propagating: false,
            grat_reply_holdoff: SimTime::from_millis(1_000),
            reply_release_spacing: SimTime::from_millis(30),
            propagate_last_error: true,
            max_error_hold: SimTime::from_millis(1_000),
            flow_state: Some(FlowStateConfig::default()),
            data_ip_overhead: 20,
            buffered_salvage_keeps_old_route_octets: true,
            flow_failure_by_flow_table: true,
            filter_tap: true,
            tap: true,
            reply_from_cache: true,
        }
    }
}
