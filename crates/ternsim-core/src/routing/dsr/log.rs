//! The DSR agent's own log lines, which ns-2.35's `DSRAgent::trace` writes into the trace
//! file among the packet lines (`dsr/dsragent.cc`, with its default build: `verbose` 0,
//! `verbose_ssalv` 1, `DSRFLOW_VERBOSE` off). The agent records what happened, with
//! addresses and the packet's uid; the world turns each entry into its line
//! (`crate::trace::ns2::DsrLogRecord`) at once, so the line sits where ns-2 writes it:
//! at the moment of the call, before the packet lines the call leads to.
//!
//! Recorded only while a wireless ns-2 trace is being written ([`DsrLog::enable`]).

use crate::net::addr::Addr;
use crate::net::packet::Packet;
use crate::sim::SimTime;

/// One log entry.
#[derive(Clone, Debug)]
pub enum DsrLogEntry {
    /// `SFESTs` / `SFs`: this node sends its own data packet under flow state (ns-2
    /// `sendOutPacketWithRoute`, `p.src == net_id`). `route` is the source route the packet
    /// carries (an establishing packet), `None` when it carries none; `flow_header`: it
    /// carries the flow id option (not on the default flow).
    FlowSend {
        uid: u64,
        src: Addr,
        dst: Addr,
        flow_id: u16,
        flow_header: bool,
        next_hop: Addr,
        route: Option<Vec<Addr>>,
    },
    /// `SFf`: this node forwards a packet of an established flow from its flow table
    /// (ns-2 `handleFlowForwarding`). The flow id is the one the source gave it; the world
    /// knows it by the packet's uid.
    FlowForward {
        uid: u64,
        src: Addr,
        dst: Addr,
        next_hop: Addr,
    },
    /// `SSendFailure`: the link layer could not deliver a packet (ns-2 `xmitFailed`):
    /// the packet (whose type and ports the line prints), and its source route with this
    /// node at `at`.
    SendFailure {
        packet: Box<Packet>,
        from: Addr,
        to: Addr,
        route: Vec<Addr>,
        at: usize,
    },
    /// `Ssalv ... salvaging`: a packet of another node goes on `route` from the cache
    /// (ns-2 `undeliverablePkt`).
    Salvaging {
        uid: u64,
        src: Addr,
        dst: Addr,
        route: Vec<Addr>,
    },
    /// No cached route to salvage with (`salvaged`: the packet's salvage count): `Ssalv ...
    /// adding to SB` when it waits in the send buffer (`NEW_SALVAGE_LOGIC`, `buffered`),
    /// `Ssalv ... dropping` when no discovery is allowed for it.
    SalvageNoRoute {
        uid: u64,
        src: Addr,
        dst: Addr,
        salvaged: u8,
        buffered: bool,
    },
}

/// The entries of one agent since the world last took them.
#[derive(Clone, Debug, Default)]
pub struct DsrLog {
    enabled: bool,
    entries: Vec<(SimTime, DsrLogEntry)>,
    /// The last link failure logged (when, next hop): the packets the MAC hands back after
    /// it for the same next hop were queued behind it, and ns-2 salvages them without a
    /// `SSendFailure` line of their own (`xmitFailed` → `prq_get_nexthop`).
    last_failure: Option<(SimTime, Addr)>,
}

impl DsrLog {
    /// Starts recording.
    pub fn enable(&mut self) {
        self.enabled = true;
    }

    pub fn enabled(&self) -> bool {
        self.enabled
    }

    pub fn push(&mut self, now: SimTime, entry: DsrLogEntry) {
        if self.enabled {
            self.entries.push((now, entry));
        }
    }

    /// Whether a failed transmission to `next_hop` at `now` is the first of its call, the
    /// one ns-2 writes `SSendFailure` for; records it.
    pub fn first_failure(&mut self, now: SimTime, next_hop: Addr) -> bool {
        let first = self.last_failure != Some((now, next_hop));
        self.last_failure = Some((now, next_hop));
        first
    }

    /// The entries recorded since the last call.
    pub fn take(&mut self) -> Vec<(SimTime, DsrLogEntry)> {
        std::mem::take(&mut self.entries)
    }
}
