//! A mobile node (ns-2 `Agent/MIPMH`, `mobile/mip.cc`; link-spec §7.2).
//!
//! - **Agent list.** Every advertisement heard refreshes its agent's entry; every beacon
//!   period the list is scanned and agents not heard for more than one period are forgotten
//!   (so an agent is lost 1-2 s after its last advertisement).
//! - **Eager switching.** An advertisement from an agent other than the current one makes it
//!   the current agent at once: its address becomes the care-of address (a foreign-agent
//!   care-of address), or, for the home agent, the care-of address is cancelled. Either is a
//!   change of care-of address, reported in [`MipOutput::care_of_changes`] at that moment
//!   (before the registration completes: the route has changed as far as the mobile node
//!   knows). The node then registers.
//! - **Registration** (RFC 3344 §3.6): a request to the current agent for min(registration
//!   lifetime, advertised lifetime), with the T flag when the node uses reverse tunnelling;
//!   at home, a deregistration (care-of address = home address, lifetime 0) sent straight to
//!   the home agent. An advertisement from the current foreign agent re-registers (ns-2
//!   refreshes the binding about every second). An unanswered request is sent again every
//!   `registration_retransmit` (0.5 s) with a new identification until a reply matches.
//! - **Lost agent.** When the scan forgets the current agent, the node switches to the most
//!   recently heard remaining agent; with none, it solicits on every radio link in coverage
//!   (over 802.11: once, broadcast on its NIC) at every scan until an agent answers.
//! - **Sending.** Everything the node originates goes to its current agent on that agent's
//!   radio link (the agent reverse-tunnels it if the registration asked for it); without a
//!   current agent it is dropped as `mip_no_agent`.

use super::agent::up_ifaces;
use super::{mip_message, MipConfig, MipOutput, MipSend, RadioPort, Verdict};
use crate::net::addr::{Addr, IfaceId};
use crate::net::control::ControlMessage;
use crate::net::packet::{DropReason, Packet};
use crate::sim::SimTime;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Heard {
    agent: Addr,
    last: SimTime,
    /// The registration lifetime the agent advertised.
    lifetime: SimTime,
}

#[derive(Clone, Debug, PartialEq)]
struct Pending {
    id: u64,
    agent: Addr,
    deadline: SimTime,
}

/// Counters for the run summary and the tests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MobileStats {
    /// Registration requests sent, retransmissions included.
    pub requests: u64,
    pub retransmissions: u64,
    pub replies: u64,
    pub solicitations: u64,
    pub care_of_changes: u64,
}

#[derive(Clone, Debug)]
pub struct MobileNode {
    pub home: Addr,
    pub home_agent: Addr,
    pub reverse_tunnel: bool,
    cfg: MipConfig,
    /// Radio links, one per agent (peer = the agent's address).
    pub radio: Vec<RadioPort>,
    heard: Vec<Heard>,
    current: Option<Addr>,
    /// The current care-of address; `None` at home.
    care_of: Option<Addr>,
    pending: Option<Pending>,
    next_id: u64,
    next_scan: SimTime,
    pub stats: MobileStats,
}

impl MobileNode {
    /// A mobile node that starts at home, attached to its home agent (as a host configured
    /// on its home link is), scanning its agent list every beacon period from `first_scan`.
    pub fn new(
        home: Addr,
        home_agent: Addr,
        reverse_tunnel: bool,
        cfg: MipConfig,
        first_scan: SimTime,
    ) -> Self {
        MobileNode {
            home,
            home_agent,
            reverse_tunnel,
            cfg,
            radio: Vec::new(),
            heard: vec![Heard {
                agent: home_agent,
                last: SimTime::ZERO,
                lifetime: cfg.advertisement_lifetime,
            }],
            current: Some(home_agent),
            care_of: None,
            pending: None,
            next_id: 1,
            next_scan: first_scan,
            stats: MobileStats::default(),
        }
    }

    pub fn current_agent(&self) -> Option<Addr> {
        self.current
    }

    pub fn care_of(&self) -> Option<Addr> {
        self.care_of
    }

    /// The identification of the registration awaiting a reply, if any.
    pub fn pending_registration(&self) -> Option<u64> {
        self.pending.as_ref().map(|p| p.id)
    }

    pub fn next_timer(&self) -> Option<SimTime> {
        let scan = Some(self.next_scan);
        match &self.pending {
            Some(p) => scan.map(|s| s.min(p.deadline)),
            None => scan,
        }
    }

    fn port(&self, agent: Addr) -> Option<RadioPort> {
        self.radio.iter().find(|p| p.peer == agent).copied()
    }

    /// A packet the node originates: to the current agent; through DSDV, to the node's
    /// DSDV (ns-2: every agent's target is the node's entry, whose default target is DSDV),
    /// which sends it towards its base station, the current agent.
    pub fn on_output(&mut self, _now: SimTime, packet: Packet) -> Verdict {
        if self.cfg.through_dsdv {
            return Verdict::Pass(packet);
        }
        match self.current.and_then(|a| self.port(a)) {
            Some(p) => Verdict::Send(packet, p.iface, p.peer),
            None => Verdict::Drop(packet, DropReason::MipNoAgent),
        }
    }

    /// A packet that arrived on `iface`.
    pub fn on_input(
        &mut self,
        now: SimTime,
        _iface: IfaceId,
        packet: Packet,
        out: &mut MipOutput,
    ) -> Verdict {
        let dst = packet.routing_header().dst;
        let Some(msg) = mip_message(&packet) else {
            return Verdict::Pass(packet);
        };
        if dst != self.home && !dst.is_broadcast() {
            return Verdict::Pass(packet);
        }
        match *msg {
            ControlMessage::MipAdvertisement {
                agent, lifetime, ..
            } => self.on_advertisement(now, agent, lifetime, out),
            ControlMessage::MipRegReply { id, code: 0, .. }
                if self.pending.as_ref().is_some_and(|p| p.id == id) =>
            {
                self.pending = None;
                self.stats.replies += 1;
            }
            _ => {}
        }
        Verdict::Consumed(packet)
    }

    fn on_advertisement(
        &mut self,
        now: SimTime,
        agent: Addr,
        lifetime: SimTime,
        out: &mut MipOutput,
    ) {
        match self.heard.iter_mut().find(|h| h.agent == agent) {
            Some(h) => {
                h.last = now;
                h.lifetime = lifetime;
            }
            None => {
                self.heard.push(Heard {
                    agent,
                    last: now,
                    lifetime,
                });
                if self.cfg.through_dsdv {
                    // ns-2 `MIPMHAgent::recv`: an advertisement from an agent not in the
                    // list makes it the node's base station (`set_base_stn`), and only then.
                    out.base_station = Some(agent);
                }
            }
        }
        if self.current != Some(agent) {
            self.switch_to(now, agent, out);
        } else if agent != self.home_agent && self.pending.is_none() {
            // ns-2 re-registers on every advertisement of the current foreign agent.
            self.register(now, out);
        }
    }

    fn switch_to(&mut self, now: SimTime, agent: Addr, out: &mut MipOutput) {
        self.current = Some(agent);
        let care_of = (agent != self.home_agent).then_some(agent);
        if care_of != self.care_of {
            self.care_of = care_of;
            self.stats.care_of_changes += 1;
            out.care_of_changes += 1;
        }
        self.register(now, out);
    }

    /// Sends a registration request (a new identification) through the current agent.
    fn register(&mut self, now: SimTime, out: &mut MipOutput) {
        let Some(agent) = self.current else {
            return;
        };
        let Some(port) = self.port(agent) else {
            return;
        };
        // Through DSDV the request is a packet the node originates (ns-2 `MIPMHAgent::reg`:
        // `get-link` is empty for a mobile node, so `send`), which DSDV sends only on a route
        // to the agent or the base station (`forwardPacket`).
        let via = (!self.cfg.through_dsdv).then_some((port.iface, agent));
        let advertised = self
            .heard
            .iter()
            .find(|h| h.agent == agent)
            .map_or(self.cfg.advertisement_lifetime, |h| h.lifetime);
        let (care_of, lifetime) = match self.care_of {
            Some(c) => (c, self.cfg.registration_lifetime.min(advertised)),
            None => (self.home, SimTime::ZERO),
        };
        let id = self.next_id;
        self.next_id += 1;
        self.stats.requests += 1;
        out.control.push(MipSend {
            msg: ControlMessage::MipRegRequest {
                home: self.home,
                home_agent: self.home_agent,
                care_of,
                lifetime,
                id,
                reverse_tunnel: self.reverse_tunnel,
            },
            src: self.home,
            dst: agent,
            via,
            to_routing_agent: false,
            carried: None,
        });
        self.pending = Some(Pending {
            id,
            agent,
            deadline: now + self.cfg.registration_retransmit,
        });
    }

    pub fn on_timer(&mut self, now: SimTime, out: &mut MipOutput) {
        if self.pending.as_ref().is_some_and(|p| p.deadline <= now) {
            let p = self.pending.take().expect("pending");
            if self.current == Some(p.agent) {
                self.stats.retransmissions += 1;
                self.register(now, out);
            }
        }
        if self.next_scan <= now {
            self.next_scan = now + self.cfg.beacon_period;
            self.scan(now, out);
        }
    }

    /// ns-2 `MIPMHAgent::timeout`-like scan of the agent list.
    fn scan(&mut self, now: SimTime, out: &mut MipOutput) {
        let period = self.cfg.beacon_period;
        self.heard.retain(|h| h.last + period >= now);
        if self
            .current
            .is_some_and(|c| self.heard.iter().any(|h| h.agent == c))
        {
            return;
        }
        let latest = self.heard.iter().max_by_key(|h| h.last).map(|h| h.agent);
        match latest {
            Some(agent) => self.switch_to(now, agent, out),
            None => {
                self.current = None;
                self.pending = None;
                for iface in up_ifaces(&self.radio) {
                    self.stats.solicitations += 1;
                    // Through DSDV: DSDV's jittered broadcast (`sendOutBCastPkt`).
                    let via = (!self.cfg.through_dsdv).then_some((iface, Addr::BROADCAST));
                    out.control.push(MipSend {
                        msg: ControlMessage::MipSolicitation,
                        src: self.home,
                        dst: Addr::BROADCAST,
                        via,
                        to_routing_agent: false,
                        carried: None,
                    });
                }
            }
        }
    }
}
