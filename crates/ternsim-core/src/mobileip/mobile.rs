//! A mobile node (ns-2 `Agent/MIPMH`, `mobile/mip-reg.cc`; link-spec §7.2), with ns-2.35's
//! rules (`MIPMHAgent::recv`, `timeout`, `reg`, `send_sols`, and its `beacon-period` command).
//!
//! - **Agent list.** The node starts with an empty list and no current agent. Every
//!   advertisement heard puts its agent at the front of the list, to expire one beacon period
//!   later; the list is scanned every beacon period from the node's creation (t = period,
//!   2·period, ...) and an agent whose expiry has passed is forgotten (so an agent is lost
//!   1-2 s after its last advertisement).
//! - **Eager switching.** An advertisement from an agent *not in the list* makes it the
//!   current agent at once: its address becomes the care-of address (a foreign-agent care-of
//!   address), or, for the home agent, the care-of address is cancelled. Either is a change
//!   of care-of address, reported in [`MipOutput::care_of_changes`] at that moment (before
//!   the registration completes: the route has changed as far as the mobile node knows). The
//!   node then registers. An advertisement from an agent already in the list only refreshes
//!   its entry, and registers again when it is the current agent's: ns-2's host sends a
//!   request after *every* advertisement of its current agent, its home agent included (at
//!   home, a request and its reply each beacon period).
//! - **Registration** (RFC 3344 §3.6; ns-2 `MIPMHAgent::reg`): every registration attempt
//!   (re)arms the retransmission timer to `registration_retransmit` (`reg_rtx_`, 0.5 s) and
//!   sends a request to the current agent for min(registration lifetime, advertised
//!   lifetime), with the T flag when the node uses reverse tunnelling; at home, a
//!   deregistration (care-of address = home address, lifetime 0) sent straight to the home
//!   agent. A request already in flight is not waited for: the new one replaces it. The
//!   timer fires while no reply has cancelled it and the node registers again; the first
//!   attempt is at `first_registration` (ns-2: U(0, beacon period) from its RNG). A reply
//!   for the care-of address the node is registering now cancels the timer, whichever
//!   request it answers (ns-2 compares the reply's `coa_` with its own).
//! - **No agent.** A registration attempt with an empty list solicits instead (on every
//!   radio link in coverage; over 802.11 once, broadcast on its NIC), so a node that hears
//!   no agent solicits every `registration_retransmit`. When the scan forgets the current
//!   agent, the node registers at once through the most recently heard agent left (the
//!   front of the list), or solicits when none is.
//! - **Sending.** Everything the node originates goes to its current agent on that agent's
//!   radio link (the agent reverse-tunnels it if the registration asked for it); before it
//!   has heard any agent, to its home agent (a host configured on its home link); without a
//!   current agent it is dropped as `mip_no_agent`. Through DSDV, to the node's DSDV.

use super::agent::up_ifaces;
use super::{mip_message, MipConfig, MipOutput, MipSend, RadioPort, Verdict};
use crate::net::addr::{Addr, IfaceId};
use crate::net::control::ControlMessage;
use crate::net::packet::{DropReason, Packet};
use crate::sim::SimTime;

/// An entry of the agent list (ns-2 `AgentList`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Heard {
    agent: Addr,
    /// Last heard + one beacon period (`expire_time_`).
    expires: SimTime,
    /// The registration lifetime the agent advertised.
    lifetime: SimTime,
}

/// Counters for the run summary and the tests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MobileStats {
    /// Registration requests sent, retransmissions included.
    pub requests: u64,
    /// Requests sent by the retransmission timer.
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
    /// The agent list, most recently heard first (ns-2 `agts_`).
    heard: Vec<Heard>,
    /// The agent the node registers through (ns-2 `coa_`: the foreign agent, or the home
    /// agent at home); `None` when it has lost it (ns-2 -1).
    current: Option<Addr>,
    /// The lifetime advertised by the current agent when it became current (ns-2 `adlftm_`).
    advertised: SimTime,
    /// The current care-of address; `None` at home.
    care_of: Option<Addr>,
    /// Whether the node has had a current agent yet.
    attached: bool,
    /// The retransmission timer (ns-2 `rtx_timer_`): the next registration attempt unless a
    /// reply cancels it.
    retransmit_at: Option<SimTime>,
    next_id: u64,
    next_scan: SimTime,
    pub stats: MobileStats,
}

impl MobileNode {
    /// A mobile node with an empty agent list, whose first registration attempt is at
    /// `first_registration` (ns-2: the `beacon-period` command arms the retransmission timer
    /// at U(0, period)) and which scans its agent list every beacon period from time 0.
    pub fn new(
        home: Addr,
        home_agent: Addr,
        reverse_tunnel: bool,
        cfg: MipConfig,
        first_registration: SimTime,
    ) -> Self {
        MobileNode {
            home,
            home_agent,
            reverse_tunnel,
            cfg,
            radio: Vec::new(),
            heard: Vec::new(),
            current: None,
            advertised: SimTime::ZERO,
            care_of: None,
            attached: false,
            retransmit_at: Some(first_registration),
            next_id: 1,
            next_scan: cfg.beacon_period,
            stats: MobileStats::default(),
        }
    }

    pub fn current_agent(&self) -> Option<Addr> {
        self.current
    }

    pub fn care_of(&self) -> Option<Addr> {
        self.care_of
    }

    /// When the retransmission timer fires next, if it is armed (a registration awaits its
    /// reply, or the node has no agent and solicits).
    pub fn retransmission_due(&self) -> Option<SimTime> {
        self.retransmit_at
    }

    pub fn next_timer(&self) -> Option<SimTime> {
        Some(match self.retransmit_at {
            Some(r) => r.min(self.next_scan),
            None => self.next_scan,
        })
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
        let agent = match self.current {
            Some(a) => Some(a),
            None if !self.attached => Some(self.home_agent),
            None => None,
        };
        match agent.and_then(|a| self.port(a)) {
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
            // ns-2 `MIPMHAgent::recv`: a reply is the answer when its care-of address is the
            // one the node registers now, whichever of its requests it answers.
            ControlMessage::MipRegReply {
                care_of, code: 0, ..
            } if self.current.is_some() && care_of == self.requested_care_of() => {
                self.retransmit_at = None;
                self.stats.replies += 1;
            }
            _ => {}
        }
        Verdict::Consumed(packet)
    }

    /// The care-of address a request through the current agent names: the agent's address,
    /// or the home address at home.
    fn requested_care_of(&self) -> Addr {
        self.care_of.unwrap_or(self.home)
    }

    fn on_advertisement(
        &mut self,
        now: SimTime,
        agent: Addr,
        lifetime: SimTime,
        out: &mut MipOutput,
    ) {
        let expires = now + self.cfg.beacon_period;
        match self.heard.iter().position(|h| h.agent == agent) {
            Some(k) => {
                // Refreshed and moved to the front; a request if it is the current agent.
                self.heard.remove(k);
                self.heard.insert(
                    0,
                    Heard {
                        agent,
                        expires,
                        lifetime,
                    },
                );
                if self.current == Some(agent) {
                    self.register(now, out);
                }
            }
            None => {
                self.heard.insert(
                    0,
                    Heard {
                        agent,
                        expires,
                        lifetime,
                    },
                );
                if self.cfg.through_dsdv {
                    // ns-2 `MIPMHAgent::recv`: an advertisement from an agent not in the
                    // list makes it the node's base station (`set_base_stn`), and only then.
                    out.base_station = Some(agent);
                }
                self.become_current(agent, lifetime, out);
                self.register(now, out);
            }
        }
    }

    /// `agent` is now the one the node registers through.
    fn become_current(&mut self, agent: Addr, advertised: SimTime, out: &mut MipOutput) {
        self.current = Some(agent);
        self.attached = true;
        self.advertised = advertised;
        let care_of = (agent != self.home_agent).then_some(agent);
        if care_of != self.care_of {
            self.care_of = care_of;
            self.stats.care_of_changes += 1;
            out.care_of_changes += 1;
        }
    }

    /// A registration attempt (ns-2 `MIPMHAgent::reg`): re-arms the retransmission timer,
    /// then solicits if the list is empty, else sends a request (a new identification)
    /// through the current agent, taking the front of the list when it has none.
    fn register(&mut self, now: SimTime, out: &mut MipOutput) {
        self.retransmit_at = Some(now + self.cfg.registration_retransmit);
        let Some(&front) = self.heard.first() else {
            self.solicit(out);
            return;
        };
        let agent = match self.current {
            Some(a) => a,
            None => {
                self.become_current(front.agent, front.lifetime, out);
                front.agent
            }
        };
        let Some(port) = self.port(agent) else {
            return;
        };
        // Through DSDV the request is a packet the node originates (ns-2 `MIPMHAgent::reg`:
        // `get-link` is empty for a mobile node, so `send`), which DSDV sends only on a route
        // to the agent or the base station (`forwardPacket`).
        let via = (!self.cfg.through_dsdv).then_some((port.iface, agent));
        let (care_of, lifetime) = match self.care_of {
            Some(c) => (c, self.cfg.registration_lifetime.min(self.advertised)),
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
    }

    /// An agent solicitation on every radio link in coverage (ns-2 `MIPMHAgent::send_sols`:
    /// a broadcast; through DSDV, DSDV's jittered broadcast, `sendOutBCastPkt`).
    fn solicit(&mut self, out: &mut MipOutput) {
        for iface in up_ifaces(&self.radio) {
            self.stats.solicitations += 1;
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

    pub fn on_timer(&mut self, now: SimTime, out: &mut MipOutput) {
        // The scan first: when it forgets the current agent its registration attempt
        // re-arms the retransmission timer (ns-2 `resched`), which then does not fire too.
        if self.next_scan <= now {
            while self.next_scan <= now {
                self.next_scan += self.cfg.beacon_period;
            }
            self.scan(now, out);
        }
        if self.retransmit_at.is_some_and(|t| t <= now) {
            self.stats.retransmissions += u64::from(!self.heard.is_empty());
            self.register(now, out);
        }
    }

    /// ns-2 `MIPMHAgent::timeout(MIP_TIMER_AGTLIST)`: forgets the agents whose expiry has
    /// passed; losing the current one, registers again at once.
    fn scan(&mut self, now: SimTime, out: &mut MipOutput) {
        let current = self.current;
        self.heard.retain(|h| h.expires >= now);
        if let Some(c) = current {
            if !self.heard.iter().any(|h| h.agent == c) {
                self.current = None;
                self.register(now, out);
            }
        }
    }
}
