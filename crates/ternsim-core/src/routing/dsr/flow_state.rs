//! DSR flow state at the source of a flow, as ns-2.35 runs it (`dsragent_enable_flowstate`
//! on; `dsr/flowstruct.cc`, `DSRAgent::sendOutPacketWithRoute`; the DSR flow state draft,
//! draft-ietf-manet-dsrflow-00).
//!
//! A flow is (destination, route). The first packets of a flow, and one every
//! `flow_advert_interval` after, carry the full source route with a flow id
//! ("establishing"); every node on the route records the flow. The other packets carry
//! only the flow id, or nothing at all on the destination's default flow (the newest flow
//! to it), and nodes forward them from their flow tables. So once a flow is established,
//! its packets are smaller and the nodes they pass learn no routes from them.
//!
//! While the default flow to a destination is alive, the source keeps sending on it even
//! if its route cache offers another route that is no shorter (ns-2
//! `dsragent_prefer_default_flow`). A flow dies when a route error or a transmit failure
//! reports a link on its route broken (ns-2 `FlowTable::noticeDeadLink`, flows this node
//! sources only) or after `flow_timeout` unused; the next packet then starts a new flow.
//!
//! Intermediate nodes need no state here: a packet keeps its path (see
//! [`crate::net::packet::FlowHeader::Established`]), which is the path the node recorded.

use std::collections::HashMap;

use crate::net::addr::Addr;
use crate::net::packet::FlowHeader;
use crate::sim::SimTime;

/// Flow state parameters (defaults: ns-2.35 `dsr/dsragent.cc`, `dsr/flowstruct.h`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FlowStateConfig {
    /// A flow unused this long dies (`default_flow_timeout` 60 s; each packet renews it).
    pub timeout: SimTime,
    /// Packets a new flow sends with its full route (`END_TO_END_COUNT` 2 counts the ones
    /// after the first: 3).
    pub establishing_packets: u32,
    /// After those, one packet with the full route every this long (`min_adv_interval`
    /// 5 s), for nodes that missed the others.
    pub advert_interval: SimTime,
}

impl Default for FlowStateConfig {
    fn default() -> Self {
        FlowStateConfig {
            timeout: SimTime::from_millis(60_000),
            establishing_packets: 3,
            advert_interval: SimTime::from_millis(5_000),
        }
    }
}

/// One flow this node sources.
#[derive(Clone, Debug, PartialEq, Eq)]
struct SourceFlow {
    /// The flow id, for the trace's flow log lines only (ns-2 `FlowTable::generateNextFlowId`).
    id: u16,
    route: Vec<Addr>,
    /// Packets sent with the full route so far.
    establishing_sent: u32,
    last_establishing: SimTime,
    /// Alive while `now <= expires` and no link on its route was reported broken.
    expires: SimTime,
    dead: bool,
}

impl SourceFlow {
    fn alive(&self, now: SimTime) -> bool {
        !self.dead && now <= self.expires
    }
}

/// The flows this node sources, per destination in order of creation: the last one is the
/// destination's default flow (ns-2's flow ids grow, and the default is the highest).
#[derive(Clone, Debug, Default)]
pub struct SourceFlows {
    flows: HashMap<Addr, Vec<SourceFlow>>,
    /// The node's flow id counter, one for all destinations (ns-2 `FlowTable::counter`).
    id_counter: u16,
    /// The id of the flow the last [`SourceFlows::stamp`] used.
    last_id: u16,
}

impl SourceFlows {
    /// The route and header of this node's next packet to `dst`, for which the route cache
    /// offered `cached` (this node first).
    pub fn stamp(
        &mut self,
        cfg: &FlowStateConfig,
        now: SimTime,
        dst: Addr,
        cached: Vec<Addr>,
    ) -> (Vec<Addr>, FlowHeader) {
        let flows = self.flows.entry(dst).or_default();
        // Prefer the default flow's route while it lives and is no longer (the cache's own
        // route, usually the same one, is kept without a copy).
        let route = match flows.last() {
            Some(d) if d.alive(now) && d.route.len() <= cached.len() && d.route != cached => {
                d.route.clone()
            }
            _ => cached,
        };
        let found = flows
            .iter()
            .rposition(|f| f.route == route)
            .filter(|&i| flows[i].alive(now));
        let Some(i) = found else {
            // ns-2 `generateNextFlowId(dst, true)`: a flow that may become the default one
            // gets an odd id, so the node's flows are numbered 1, 3, 5, ...
            if self.id_counter & 1 == 0 {
                self.id_counter = self.id_counter.wrapping_add(1);
            }
            let id = self.id_counter;
            self.id_counter = self.id_counter.wrapping_add(1);
            self.last_id = id;
            flows.push(SourceFlow {
                id,
                route: route.clone(),
                establishing_sent: 1,
                last_establishing: now,
                expires: now + cfg.timeout,
                dead: false,
            });
            return (route, FlowHeader::Establishing);
        };
        let is_default = i + 1 == flows.len();
        let f = &mut flows[i];
        self.last_id = f.id;
        f.expires = now + cfg.timeout;
        let advert_due = now > f.last_establishing + cfg.advert_interval;
        if f.establishing_sent < cfg.establishing_packets || advert_due {
            f.establishing_sent += 1;
            f.last_establishing = now;
            (route, FlowHeader::Establishing)
        } else if is_default {
            (route, FlowHeader::Established)
        } else {
            (route, FlowHeader::EstablishedFlowId)
        }
    }

    /// The id of the flow the last [`SourceFlows::stamp`] put the packet on (the trace's
    /// `SFESTs`/`SFs` lines print it).
    pub fn last_id(&self) -> u16 {
        self.last_id
    }

    /// The route of the flow the link layer gave back a packet of, if that flow is alive at
    /// `now`; `None` if it died or never existed. A packet sent with a flow id (`flow_id`)
    /// names its flow; one sent bare (`FlowHeader::Established`) does not, and stands for
    /// whatever flow to `dst` is the default one *now*, which may be newer than the flow
    /// it left on (ns-2.35 `DSRAgent::xmitFlowFailed`: `defaultFlow`, then `find` and the
    /// `timeout < now` test).
    pub fn live_route_of_failed(
        &self,
        now: SimTime,
        dst: Addr,
        header: FlowHeader,
        flow_id: u16,
    ) -> Option<&[Addr]> {
        let flows = self.flows.get(&dst)?;
        let f = match header {
            FlowHeader::Established => flows.last(),
            _ => flows.iter().rev().find(|f| f.id == flow_id),
        }?;
        f.alive(now).then_some(f.route.as_slice())
    }

    /// The link `from` → `to` broke: every live flow of this node over it dies.
    pub fn notice_dead_link(&mut self, now: SimTime, from: Addr, to: Addr) {
        for f in self.flows.values_mut().flatten() {
            if f.alive(now) && f.route.windows(2).any(|w| w[0] == from && w[1] == to) {
                f.dead = true;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn route(v: &[u32]) -> Vec<Addr> {
        v.iter().map(|&i| Addr::nth(i)).collect()
    }

    fn s(v: u64) -> SimTime {
        SimTime::from_millis(v * 1000)
    }

    /// ns-2's rule, packet by packet on one route 0-1-2-3: packets 1-3 establish (the new
    /// flow, then `count <= END_TO_END_COUNT` twice; the third at 1.5 s), 4 and 5 travel on
    /// the default flow; at 6.5 s the last establishing packet is exactly 5 s old, not
    /// more: bare; at 7.5 s one more establishes, and the next goes bare again.
    #[test]
    fn three_establishing_packets_then_one_every_5_s() {
        let cfg = FlowStateConfig::default();
        let mut f = SourceFlows::default();
        let r = route(&[0, 1, 2, 3]);
        let d = Addr::nth(3);
        let headers: Vec<FlowHeader> = [0, 0, 1, 2, 3, 6, 7, 7]
            .iter()
            .map(|&t| {
                f.stamp(&cfg, s(t) + SimTime::from_millis(500), d, r.clone())
                    .1
            })
            .collect();
        use FlowHeader::*;
        assert_eq!(
            headers,
            [
                Establishing,
                Establishing,
                Establishing,
                Established,
                Established,
                Established,
                Establishing,
                Established
            ]
        );
    }

    /// A broken link kills the flow: the next packet starts a new one (establishing). A
    /// link elsewhere, or reported after the flow died, changes nothing.
    #[test]
    fn a_dead_link_starts_a_new_flow() {
        let cfg = FlowStateConfig::default();
        let mut f = SourceFlows::default();
        let r = route(&[0, 1, 2, 3]);
        let d = Addr::nth(3);
        for _ in 0..3 {
            f.stamp(&cfg, s(1), d, r.clone());
        }
        f.notice_dead_link(s(1), Addr::nth(2), Addr::nth(1));
        assert_eq!(f.stamp(&cfg, s(1), d, r.clone()).1, FlowHeader::Established);
        f.notice_dead_link(s(2), Addr::nth(1), Addr::nth(2));
        assert_eq!(
            f.stamp(&cfg, s(2), d, r.clone()).1,
            FlowHeader::Establishing
        );
    }

    /// Flow ids count up by node, across destinations, odd only (ns-2
    /// `generateNextFlowId` with `allowDefault`): 1, then 3 for a second destination, 5
    /// for a new flow after a dead link; a packet of a known flow keeps its id.
    #[test]
    fn flow_ids_are_odd_and_count_per_node() {
        let cfg = FlowStateConfig::default();
        let mut f = SourceFlows::default();
        let r = route(&[0, 1, 2, 3]);
        f.stamp(&cfg, s(1), Addr::nth(3), r.clone());
        assert_eq!(f.last_id(), 1);
        f.stamp(&cfg, s(1), Addr::nth(2), route(&[0, 1, 2]));
        assert_eq!(f.last_id(), 3);
        f.stamp(&cfg, s(1), Addr::nth(3), r.clone());
        assert_eq!(f.last_id(), 1);
        f.notice_dead_link(s(2), Addr::nth(1), Addr::nth(2));
        f.stamp(&cfg, s(2), Addr::nth(3), r);
        assert_eq!(f.last_id(), 5);
    }

    /// The flow of a packet the link layer gave back, as ns-2's `xmitFlowFailed` finds it:
    /// flow 1 on 0-1-2-3 dies with link 1→2; flow 3 on 0-4-2-3 becomes the default. A
    /// packet that left with flow id 1 finds its own flow, dead; a bare one finds the
    /// default flow now, 3, alive, whatever flow it left on; 61 s after its last use, no
    /// live flow; to another destination, none at all.
    #[test]
    fn a_failed_packet_finds_its_flow_or_the_default_one() {
        use FlowHeader::{Established, EstablishedFlowId};
        let cfg = FlowStateConfig::default();
        let mut f = SourceFlows::default();
        let d = Addr::nth(3);
        f.stamp(&cfg, s(1), d, route(&[0, 1, 2, 3]));
        f.notice_dead_link(s(1), Addr::nth(1), Addr::nth(2));
        f.stamp(&cfg, s(1), d, route(&[0, 4, 2, 3]));
        assert_eq!(f.last_id(), 3);
        assert_eq!(f.live_route_of_failed(s(2), d, EstablishedFlowId, 1), None);
        let via4 = route(&[0, 4, 2, 3]);
        assert_eq!(
            f.live_route_of_failed(s(2), d, EstablishedFlowId, 3),
            Some(via4.as_slice())
        );
        assert_eq!(
            f.live_route_of_failed(s(2), d, Established, 1),
            Some(via4.as_slice())
        );
        assert_eq!(f.live_route_of_failed(s(62), d, Established, 3), None);
        assert_eq!(
            f.live_route_of_failed(s(2), Addr::nth(2), Established, 0),
            None
        );
    }

    /// While the default flow 0-1-2-3 lives, a cached route of the same length through 4 is
    /// ignored; a shorter one through 5 is taken (a new flow, the default now). When link
    /// 5→3 breaks, the cache's 0-1-2-3 is the older flow, still alive but not the default:
    /// its third establishing packet, then its packets carry the flow id. After 60 s unused
    /// every flow is dead and the cache's route through 4 wins.
    #[test]
    fn the_default_flow_is_preferred_while_it_lives() {
        use FlowHeader::*;
        let cfg = FlowStateConfig::default();
        let mut f = SourceFlows::default();
        let (d, r) = (Addr::nth(3), route(&[0, 1, 2, 3]));
        assert_eq!(f.stamp(&cfg, s(1), d, r.clone()), (r.clone(), Establishing));
        let other = route(&[0, 4, 2, 3]);
        assert_eq!(
            f.stamp(&cfg, s(2), d, other.clone()),
            (r.clone(), Establishing)
        );
        let short = route(&[0, 5, 3]);
        assert_eq!(
            f.stamp(&cfg, s(3), d, short.clone()),
            (short.clone(), Establishing)
        );
        assert_eq!(f.stamp(&cfg, s(3), d, r.clone()), (short, Establishing));
        f.notice_dead_link(s(4), Addr::nth(5), d);
        assert_eq!(f.stamp(&cfg, s(4), d, r.clone()), (r.clone(), Establishing));
        assert_eq!(f.stamp(&cfg, s(4), d, r.clone()), (r, EstablishedFlowId));
        assert_eq!(
            f.stamp(&cfg, s(70), d, other.clone()),
            (other, Establishing)
        );
    }
}
