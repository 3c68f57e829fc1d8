//! Mobile IP rules driven step by step with hand-built packets: each step states what
//! arrives, when, and the exact state and messages after it.

use super::coverage::coverage_changes;
use super::*;
use crate::mobility::{Mobility, Position, Trajectory};
use crate::net::addr::{Addr, IfaceId};
use crate::net::control::ControlMessage;
use crate::net::packet::tests::udp_packet;
use crate::net::packet::PacketFields;
use crate::net::packet::{IpHeader, Packet, Payload, Ports, IP_HEADER_BYTES};
use std::sync::Arc;

fn t(ms: u64) -> SimTime {
    SimTime::from_millis(ms)
}

// Addresses: CN 1, HA 2, FA 3, MN 5 (the MN's home address).
const CN: u32 = 0;
const HA: u32 = 1;
const FA: u32 = 2;
const MN: u32 = 4;
fn a(n: u32) -> Addr {
    Addr::nth(n)
}
// Interfaces: HA's radio link to MN 10, FA's radio link 20; at the MN, 11 (to HA) and 21.
const HA_RADIO: IfaceId = IfaceId(10);
const FA_RADIO: IfaceId = IfaceId(20);
const MN_TO_HA: IfaceId = IfaceId(11);
const MN_TO_FA: IfaceId = IfaceId(21);
const WIRED: IfaceId = IfaceId(0);

fn control(msg: ControlMessage, src: Addr, dst: Addr) -> Packet {
    Packet::new(PacketFields {
        uid: 0,
        ns2_uid: 0,
        num_forwards: 0,
        flow: None,
        ip: IpHeader { src, dst, ttl: 64 },
        ports: Ports::default(),
        headers: Vec::new(),
        size: IP_HEADER_BYTES + msg.body_bytes(),
        created: SimTime::ZERO,
        payload: Payload::Control(msg),
    })
}

fn as_packet(s: &MipSend) -> Packet {
    control(s.msg.clone(), s.src, s.dst)
}

fn cfg(ro: bool) -> MipConfig {
    MipConfig {
        route_optimization: ro,
        ..MipConfig::default()
    }
}

fn home_agent(ro: bool) -> MobilityAgent {
    let mut ha = MobilityAgent::new(a(HA), cfg(ro), vec![a(MN)], t(300));
    ha.radio.push(RadioPort {
        iface: HA_RADIO,
        peer: a(MN),
        up: false,
    });
    ha
}

fn foreign_agent(ro: bool) -> MobilityAgent {
    let mut fa = MobilityAgent::new(a(FA), cfg(ro), Vec::new(), t(700));
    fa.radio.push(RadioPort {
        iface: FA_RADIO,
        peer: a(MN),
        up: true,
    });
    fa
}

fn mobile(reverse: bool) -> MobileNode {
    let mut m = MobileNode::new(a(MN), a(HA), reverse, MipConfig::default(), t(900));
    m.radio.push(RadioPort {
        iface: MN_TO_HA,
        peer: a(HA),
        up: false,
    });
    m.radio.push(RadioPort {
        iface: MN_TO_FA,
        peer: a(FA),
        up: true,
    });
    m
}

fn advertisement(agent: u32) -> Packet {
    control(
        ControlMessage::MipAdvertisement {
            agent: a(agent),
            seq: 1,
            lifetime: t(2000),
            home_agent: agent == HA,
            foreign_agent: true,
        },
        a(agent),
        Addr::BROADCAST,
    )
}

/// The registration: MN hears FA at 1.0 s (care-of address FA, one change), sends request
/// id 1 to FA on its radio link (74 bytes: IP 20 + UDP 8 + 24 + authentication 22, RFC 3344
/// §3.3); FA relays it to HA; HA binds MN → FA for min(2 s, 2 s) = 2 s and replies to the
/// care-of address; the reply is lost. At 1.5 s (reg_rtx 0.5 s) MN sends request id 2; this
/// time the reply comes back through FA, which installs the visitor entry (until 1.6 + 2 s)
/// and relays it on its radio link; MN matches id 2 and stops retransmitting.
#[test]
fn registration_through_a_foreign_agent_and_its_retransmission_on_a_lost_reply() {
    let (mut mn, mut fa, mut ha) = (mobile(false), foreign_agent(false), home_agent(false));
    let mut out = MipOutput::default();
    // 1.0 s: FA's advertisement.
    let v = mn.on_input(t(1000), MN_TO_FA, advertisement(FA), &mut out);
    assert!(matches!(v, Verdict::Consumed(_)));
    assert_eq!((mn.care_of(), out.care_of_changes), (Some(a(FA)), 1));
    assert_eq!(out.control.len(), 1);
    let req = out.control.remove(0);
    assert_eq!(req.via, Some((MN_TO_FA, a(FA))));
    // ns-2.35 `mobile/mip-reg.cc` REG_REQUEST_SIZE: 52 bytes with the IP header.
    assert_eq!(as_packet(&req).size, 52);
    assert_eq!(
        req.carried, None,
        "a new packet (ns-2 `MIPMHAgent::reg`: allocpkt)"
    );
    let ControlMessage::MipRegRequest {
        care_of,
        lifetime,
        id,
        ..
    } = req.msg
    else {
        panic!("a registration request");
    };
    assert_eq!((care_of, lifetime, id), (a(FA), t(2000), 1));
    // ns-2 `MIPMHAgent::reg`: every attempt arms the retransmission timer, reg_rtx 0.5 s.
    assert_eq!(mn.retransmission_due(), Some(t(1500)));
    assert_eq!(
        mn.next_timer(),
        Some(t(1000)),
        "the scan (every 1 s from 0) comes first"
    );
    // FA relays the request to HA (routed: no interface).
    let v = fa.on_packet(t(1008), Some(FA_RADIO), as_packet(&req), &mut out);
    assert!(matches!(v, Verdict::Consumed(_)));
    let relayed = out.control.remove(0);
    assert_eq!(
        (relayed.src, relayed.dst, relayed.via),
        (a(FA), a(HA), None)
    );
    // HA binds and replies to the care-of address; the reply is lost on the way.
    ha.on_packet(t(1020), Some(WIRED), as_packet(&relayed), &mut out);
    assert_eq!(
        ha.binding(a(MN), t(1020)).map(|b| (b.care_of, b.expires)),
        Some((a(FA), t(3020)))
    );
    let lost = out.control.remove(0);
    assert_eq!((lost.dst, lost.via), (a(FA), None));
    assert!(out.control.is_empty());
    // 1.5 s: no reply for reg_rtx = 0.5 s: request id 2.
    mn.on_timer(t(1000) + SimTime::from_millis(500), &mut out);
    assert_eq!(mn.stats.retransmissions, 1);
    let req2 = out.control.remove(0);
    assert!(matches!(
        req2.msg,
        ControlMessage::MipRegRequest { id: 2, .. }
    ));
    // Through FA and HA again; this reply reaches FA, which installs the visitor.
    fa.on_packet(t(1508), Some(FA_RADIO), as_packet(&req2), &mut out);
    let relayed = out.control.remove(0);
    ha.on_packet(t(1520), Some(WIRED), as_packet(&relayed), &mut out);
    let reply = out.control.remove(0);
    // ns-2 answers in the request's own packet (`MIPBSAgent::recv`), which keeps the uid,
    // size and TTL the request arrived with; FA relayed it in the packet it received too.
    let request = as_packet(&relayed);
    assert_eq!(relayed.carried, Some(Carried::of(&as_packet(&req2))));
    assert_eq!(reply.carried, Some(Carried::of(&request)));
    assert_eq!(reply.carried.map(|c| c.size), Some(52));
    assert_eq!(fa.visitor(a(MN), t(1600)), None, "not before the reply");
    fa.on_packet(t(1600), Some(WIRED), as_packet(&reply), &mut out);
    let v = fa.visitor(a(MN), t(1600)).expect("visitor entry");
    assert_eq!((v.iface, v.expires), (FA_RADIO, t(3600)));
    let to_mn = out.control.remove(0);
    assert_eq!((to_mn.dst, to_mn.via), (a(MN), Some((FA_RADIO, a(MN)))));
    // MN: the reply names FA as the care-of address, the one MN registers: the timer stops
    // (ns-2 `MIPMHAgent::recv` matches the reply by its `coa_`).
    mn.on_input(t(1608), MN_TO_FA, as_packet(&to_mn), &mut out);
    assert_eq!((mn.retransmission_due(), mn.stats.replies), (None, 1));
    assert_eq!(mn.stats.requests, 2);
}

/// A packet for the home address reaching the home agent while MN is bound to FA leaves in a
/// tunnel to FA with 20 more bytes (1000 → 1020), outer header HA → FA; FA decapsulates it
/// (back to 1000) and sends it to MN on its radio link.
#[test]
fn a_packet_to_the_home_address_is_tunnelled_to_the_care_of_address_with_20_more_bytes() {
    let mut ha = home_agent(false);
    let mut fa = foreign_agent(false);
    let mut out = MipOutput::default();
    let reg = control(
        ControlMessage::MipRegRequest {
            home: a(MN),
            home_agent: a(HA),
            care_of: a(FA),
            lifetime: t(2000),
            id: 1,
            reverse_tunnel: false,
        },
        a(FA),
        a(HA),
    );
    ha.on_packet(t(0), Some(WIRED), reg, &mut out);
    // The FA's visitor entry (as after the relayed reply).
    fa.on_packet(
        t(0),
        Some(FA_RADIO),
        control(
            ControlMessage::MipRegRequest {
                home: a(MN),
                home_agent: a(HA),
                care_of: a(FA),
                lifetime: t(2000),
                id: 1,
                reverse_tunnel: false,
            },
            a(MN),
            a(FA),
        ),
        &mut out,
    );
    let reply = out.control.pop().unwrap(); // FA's relay; build the HA's reply by hand
    assert_eq!(reply.dst, a(HA));
    let reply = control(
        ControlMessage::MipRegReply {
            home: a(MN),
            home_agent: a(HA),
            care_of: a(FA),
            lifetime: t(2000),
            id: 1,
            code: 0,
        },
        a(HA),
        a(FA),
    );
    fa.on_packet(t(10), Some(WIRED), reply, &mut out);
    let mut p = udp_packet(7, MN, 1000);
    p.ip.src = a(CN);
    let Verdict::Route(p) = ha.on_packet(t(100), Some(WIRED), p, &mut out) else {
        panic!("tunnelled");
    };
    assert_eq!(p.size, 1020);
    let outer = *p.routing_header();
    assert_eq!((outer.src, outer.dst), (a(HA), a(FA)));
    assert_eq!(
        (p.ip.src, p.ip.dst),
        (a(CN), a(MN)),
        "inner addresses unchanged"
    );
    // ns-2's encapsulator takes one off the inner TTL (64 here) before it puts on the outer
    // header with its own 32.
    assert_eq!((p.ip.ttl, outer.ttl), (63, 32));
    assert_eq!(ha.stats.tunnelled, 1);
    // A packet that arrives with one unit left has none to be tunnelled with: dropped.
    let mut spent = udp_packet(9, MN, 1000);
    spent.ip.src = a(CN);
    spent.ip.ttl = 1;
    let v = ha.on_packet(t(105), Some(WIRED), spent, &mut out);
    assert!(matches!(v, Verdict::Drop(_, DropReason::TtlExpired)));
    assert_eq!(ha.stats.tunnelled, 1);
    let Verdict::Send(p, iface, next_hop) = fa.on_packet(t(110), Some(WIRED), p, &mut out) else {
        panic!("delivered on the radio link");
    };
    assert_eq!((p.size, iface, next_hop), (1000, FA_RADIO, a(MN)));
    assert!(!p.is_tunnelled());
    // The decapsulator restores the inner header as the encapsulator left it.
    assert_eq!(p.routing_header().ttl, 63);
    // After the visitor entry lapses (10 ms + 2 s) the same packet is a stale care-of
    // address: dropped as mip_no_visitor.
    let mut q = udp_packet(8, MN, 1000);
    q.encapsulate(IpHeader {
        src: a(HA),
        dst: a(FA),
        ttl: 32,
    });
    let v = fa.on_packet(t(2011), Some(WIRED), q, &mut out);
    assert!(matches!(v, Verdict::Drop(_, DropReason::MipNoVisitor)));
}

/// Reverse tunnelling (RFC 3024): an ACK from a visitor that registered with T goes from MN
/// to FA on the radio link, FA wraps it (40 → 60 bytes, outer FA → HA), HA unwraps it and
/// routes the inner ACK (MN → CN) on; without T the FA routes it directly (triangular).
#[test]
fn the_reverse_tunnel_path_of_an_ack() {
    for reverse in [true, false] {
        let mut mn = mobile(reverse);
        let mut fa = foreign_agent(false);
        let mut ha = home_agent(false);
        let mut out = MipOutput::default();
        mn.on_input(t(1000), MN_TO_FA, advertisement(FA), &mut out);
        let req = out.control.remove(0);
        assert!(matches!(
            req.msg,
            ControlMessage::MipRegRequest { reverse_tunnel, .. } if reverse_tunnel == reverse
        ));
        fa.on_packet(t(1008), Some(FA_RADIO), as_packet(&req), &mut out);
        let relayed = out.control.remove(0);
        ha.on_packet(t(1020), Some(WIRED), as_packet(&relayed), &mut out);
        let reply = out.control.remove(0);
        fa.on_packet(t(1030), Some(WIRED), as_packet(&reply), &mut out);
        out.control.clear();
        // The ACK: MN → CN, 40 bytes.
        let mut ack = udp_packet(9, CN, 40);
        ack.ip.src = a(MN);
        let Verdict::Send(ack, iface, hop) = mn.on_output(t(1100), ack) else {
            panic!("to the current agent");
        };
        assert_eq!((iface, hop), (MN_TO_FA, a(FA)));
        let v = fa.on_packet(t(1108), Some(FA_RADIO), ack, &mut out);
        if !reverse {
            let Verdict::Pass(ack) = v else {
                panic!("routed directly")
            };
            assert_eq!((ack.size, ack.routing_header().dst), (40, a(CN)));
            continue;
        }
        let Verdict::Route(ack) = v else {
            panic!("reverse tunnelled")
        };
        let outer = *ack.routing_header();
        assert_eq!((ack.size, outer.src, outer.dst), (60, a(FA), a(HA)));
        // FA forwards into the tunnel: the inner TTL (64) loses one, as at the home agent.
        assert_eq!((ack.ip.ttl, outer.ttl), (63, 32));
        let Verdict::Route(ack) = ha.on_packet(t(1120), Some(WIRED), ack, &mut out) else {
            panic!("decapsulated and routed on")
        };
        assert_eq!(
            (ack.size, ack.routing_header().src, ack.routing_header().dst),
            (40, a(MN), a(CN))
        );
        assert_eq!((fa.stats.tunnelled, ha.stats.decapsulated), (1, 1));
    }
}

/// Route optimization: the first packet CN → MN that HA tunnels makes HA send CN a Binding
/// Update (MN at FA, the binding's remaining 2 s); CN then tunnels its next packet itself to
/// FA (outer CN → FA, 1020 bytes) instead of sending it to the home address. A Binding
/// Update with lifetime 0 (MN home) returns CN to the home address.
#[test]
fn a_binding_update_changes_the_correspondents_path() {
    let mut ha = home_agent(true);
    let mut cn = Correspondent::new(a(CN));
    let mut out = MipOutput::default();
    let reg = |care_of, lifetime| {
        control(
            ControlMessage::MipRegRequest {
                home: a(MN),
                home_agent: a(HA),
                care_of,
                lifetime,
                id: 1,
                reverse_tunnel: false,
            },
            a(FA),
            a(HA),
        )
    };
    ha.on_packet(t(0), Some(WIRED), reg(a(FA), t(2000)), &mut out);
    out.control.clear();
    let mut p = udp_packet(1, MN, 1000);
    p.ip.src = a(CN);
    // Before any update CN sends to the home address unchanged.
    let Verdict::Pass(p) = cn.on_output(t(100), p) else {
        panic!("no binding yet")
    };
    assert!(matches!(
        ha.on_packet(t(110), Some(WIRED), p, &mut out),
        Verdict::Route(_)
    ));
    assert_eq!(out.control.len(), 1);
    let bu = out.control.remove(0);
    assert_eq!((bu.src, bu.dst), (a(HA), a(CN)));
    assert_eq!(
        bu.msg,
        ControlMessage::MipBindingUpdate {
            home: a(MN),
            care_of: a(FA),
            lifetime: t(1890)
        }
    );
    assert!(matches!(
        cn.on_input(t(120), as_packet(&bu)),
        Verdict::Consumed(_)
    ));
    let mut p = udp_packet(2, MN, 1000);
    p.ip.src = a(CN);
    let Verdict::Route(p) = cn.on_output(t(130), p) else {
        panic!("tunnelled by the correspondent")
    };
    assert_eq!(
        (p.size, p.routing_header().src, p.routing_header().dst),
        (1020, a(CN), a(FA))
    );
    // The MN returns home: HA's deregistration sends CN a lifetime-0 update.
    ha.on_packet(t(500), Some(HA_RADIO), reg(a(MN), SimTime::ZERO), &mut out);
    let bu = out
        .control
        .iter()
        .find(|s| matches!(s.msg, ControlMessage::MipBindingUpdate { .. }))
        .expect("an update to the correspondent")
        .clone();
    assert!(
        matches!(bu.msg, ControlMessage::MipBindingUpdate { lifetime, .. } if lifetime == SimTime::ZERO)
    );
    cn.on_input(t(510), as_packet(&bu));
    let p = udp_packet(3, MN, 1000);
    assert!(matches!(cn.on_output(t(520), p), Verdict::Pass(_)));
}

/// Eager switching, the lost agent and solicitation, by ns-2's rules (`mip-reg.cc`
/// `MIPMHAgent::recv`, `timeout`, `reg`): MN starts with no agent; its first registration
/// attempt at 0.9 s finds the list empty and solicits on its up radio link (FA's), arming the
/// retransmission timer for 1.4 s; FA's advertisement at 1.0 s is a new agent: care-of
/// address FA (one change), request id 1 at once and the timer moved to 1.5 s; the reply at
/// 1.02 s (care-of FA) cancels it. The scans run every second from 0: at 2.0 s FA (heard at
/// 1.0 s, expiring at 2.0 s) is kept, at 3.0 s it is forgotten: no agent left, MN solicits at
/// once and again every 0.5 s (3.5 s); sending drops as mip_no_agent. HA's advertisement at
/// 3.7 s, a new agent, cancels the care-of address (a second change) and deregisters with
/// lifetime 0 straight to HA.
#[test]
fn eager_switching_agent_loss_solicitation_and_return_home() {
    let mut mn = mobile(false);
    let mut out = MipOutput::default();
    assert_eq!(mn.current_agent(), None);
    assert_eq!(mn.next_timer(), Some(t(900)));
    mn.on_timer(t(900), &mut out);
    assert_eq!(out.control.len(), 1);
    assert_eq!(out.control[0].msg, ControlMessage::MipSolicitation);
    assert_eq!(out.control[0].via, Some((MN_TO_FA, Addr::BROADCAST)));
    // ns-2 sends its solicitation at the mobile host agent's `size_`, REG_REQUEST_SIZE 52
    // (`mip-reg.cc` `send_sols`).
    assert_eq!(as_packet(&out.control[0]).size, 52);
    assert_eq!(mn.retransmission_due(), Some(t(1400)));
    out.control.clear();
    mn.on_input(t(1000), MN_TO_FA, advertisement(FA), &mut out);
    assert_eq!((mn.care_of(), out.care_of_changes), (Some(a(FA)), 1));
    assert!(matches!(
        out.control.remove(0).msg,
        ControlMessage::MipRegRequest { id: 1, .. }
    ));
    assert_eq!(mn.retransmission_due(), Some(t(1500)));
    let reply = control(
        ControlMessage::MipRegReply {
            home: a(MN),
            home_agent: a(HA),
            care_of: a(FA),
            lifetime: t(2000),
            id: 1,
            code: 0,
        },
        a(FA),
        a(MN),
    );
    mn.on_input(t(1020), MN_TO_FA, reply, &mut out);
    assert_eq!(mn.retransmission_due(), None);
    mn.on_timer(t(1000), &mut out);
    mn.on_timer(t(2000), &mut out);
    assert_eq!(
        mn.current_agent(),
        Some(a(FA)),
        "expires at 2.0 s, not before"
    );
    assert!(out.control.is_empty());
    mn.on_timer(t(3000), &mut out);
    assert_eq!(mn.current_agent(), None);
    assert_eq!(out.control.len(), 1);
    assert_eq!(out.control[0].msg, ControlMessage::MipSolicitation);
    assert_eq!(mn.next_timer(), Some(t(3500)));
    mn.on_timer(t(3500), &mut out);
    assert_eq!(out.control.len(), 2);
    assert_eq!(out.control[1].msg, ControlMessage::MipSolicitation);
    assert_eq!(mn.stats.solicitations, 3);
    out.control.clear();
    let v = mn.on_output(t(3600), udp_packet(1, CN, 40));
    assert!(matches!(v, Verdict::Drop(_, DropReason::MipNoAgent)));
    mn.on_input(t(3700), MN_TO_HA, advertisement(HA), &mut out);
    assert_eq!((mn.care_of(), out.care_of_changes), (None, 2));
    let dereg = out.control.remove(0);
    assert_eq!(dereg.via, Some((MN_TO_HA, a(HA))));
    assert!(matches!(
        dereg.msg,
        ControlMessage::MipRegRequest { care_of, lifetime, .. } if care_of == a(MN) && lifetime == SimTime::ZERO
    ));
}

/// ns-2's host registers after *every* advertisement of its current agent, home agent
/// included, whether or not a request is in flight (`MIPMHAgent::recv` calls `reg()` when the
/// advertising agent is `coa_`), and takes any reply for its current care-of address:
/// - 0.3 s, HA's advertisement (new): request id 1 to HA at 0.3 s, timer at 0.8 s;
/// - 0.305 s, HA's reply (care-of = the home address: at home): timer cancelled;
/// - 1.0 s, the scan keeps HA (expires 1.3 s); 1.3 s, HA's next advertisement: request id 2;
/// - 1.6 s, FA's advertisement (new): care-of FA, request id 3 to FA, timer at 2.1 s;
/// - 1.7 s, FA again while id 3 is unanswered: request id 4 at once, timer moved to 2.2 s;
/// - 1.8 s, HA's advertisement: HA is in the list but not current: no request;
/// - 1.9 s, the reply to id 3 (care-of FA) ends the wait although id 4 was the last sent;
/// - a reply naming another care-of address (the home address) is ignored.
#[test]
fn a_request_after_every_advertisement_of_the_current_agent() {
    let mut mn = mobile(false);
    mn.radio[0].up = true;
    let mut out = MipOutput::default();
    let reply = |care_of: u32, id: u64| {
        control(
            ControlMessage::MipRegReply {
                home: a(MN),
                home_agent: a(HA),
                care_of: a(care_of),
                lifetime: t(2000),
                id,
                code: 0,
            },
            a(HA),
            a(MN),
        )
    };
    let request_id = |out: &mut MipOutput| match out.control.remove(0).msg {
        ControlMessage::MipRegRequest { id, .. } => id,
        m => panic!("a request, not {m:?}"),
    };
    mn.on_input(t(300), MN_TO_HA, advertisement(HA), &mut out);
    assert_eq!(
        (request_id(&mut out), mn.retransmission_due()),
        (1, Some(t(800)))
    );
    assert_eq!(out.care_of_changes, 0, "at home from the start");
    mn.on_input(t(305), MN_TO_HA, reply(MN, 1), &mut out);
    assert_eq!(mn.retransmission_due(), None);
    mn.on_timer(t(1000), &mut out);
    assert!(out.control.is_empty());
    mn.on_input(t(1300), MN_TO_HA, advertisement(HA), &mut out);
    assert_eq!(request_id(&mut out), 2);
    mn.on_input(t(1305), MN_TO_HA, reply(MN, 2), &mut out);
    mn.on_input(t(1600), MN_TO_FA, advertisement(FA), &mut out);
    assert_eq!((mn.care_of(), out.care_of_changes), (Some(a(FA)), 1));
    assert_eq!(
        (request_id(&mut out), mn.retransmission_due()),
        (3, Some(t(2100)))
    );
    mn.on_input(t(1700), MN_TO_FA, advertisement(FA), &mut out);
    assert_eq!(
        (request_id(&mut out), mn.retransmission_due()),
        (4, Some(t(2200)))
    );
    mn.on_input(t(1800), MN_TO_HA, advertisement(HA), &mut out);
    assert!(out.control.is_empty());
    assert_eq!(mn.current_agent(), Some(a(FA)));
    mn.on_input(t(1850), MN_TO_FA, reply(MN, 2), &mut out);
    assert_eq!(
        mn.retransmission_due(),
        Some(t(2200)),
        "not for this care-of address"
    );
    mn.on_input(t(1900), MN_TO_FA, reply(FA, 3), &mut out);
    assert_eq!(mn.retransmission_due(), None);
    assert_eq!((mn.stats.requests, mn.stats.replies), (4, 3));
}

/// An agent advertises every beacon period on its radio links that are up, 48 bytes each
/// (RFC 3344 §2.1 with one address and one care-of address; ns-2 `adSize_` 48).
#[test]
fn advertisements_every_beacon_period_on_links_in_coverage() {
    let mut ha = home_agent(false);
    let mut out = MipOutput::default();
    assert_eq!(ha.next_timer(), Some(t(300)));
    ha.on_timer(t(300), &mut out);
    assert!(out.control.is_empty(), "HA's link to MN is down");
    assert_eq!(ha.next_timer(), Some(t(1300)));
    ha.radio[0].up = true;
    ha.on_timer(t(1300), &mut out);
    assert_eq!(out.control.len(), 1);
    assert_eq!(out.control[0].via, Some((HA_RADIO, Addr::BROADCAST)));
    assert_eq!(as_packet(&out.control[0]).size, 48);
    assert_eq!(ha.next_timer(), Some(t(2300)));
}

/// Over 802.11 every radio port of a role is its one NIC (one port per peer, always up): an
/// agent with two mobile nodes sends one broadcast advertisement per beacon period on the NIC,
/// not one per port; a mobile node that has lost every agent sends one solicitation per scan;
/// and unicast still goes to the peer the port names.
#[test]
fn over_one_nic_one_broadcast_per_period_and_unicast_to_the_named_peer() {
    const NIC: IfaceId = IfaceId(7);
    const MN2: u32 = 5;
    let mut fa = MobilityAgent::new(a(FA), cfg(false), Vec::new(), t(700));
    for peer in [MN, MN2] {
        fa.radio.push(RadioPort {
            iface: NIC,
            peer: a(peer),
            up: true,
        });
    }
    let mut out = MipOutput::default();
    fa.on_timer(t(700), &mut out);
    assert_eq!(out.control.len(), 1);
    assert_eq!(out.control[0].via, Some((NIC, Addr::BROADCAST)));
    out.control.clear();
    fa.on_timer(t(1700), &mut out);
    assert_eq!(
        out.control.len(),
        1,
        "one advertisement in the second period too"
    );
    assert_eq!(fa.stats.advertisements, 2);

    // A mobile node whose two ports (HA, FA) are one NIC: hearing no agent, its first
    // registration attempt at 0.9 s solicits once on the NIC.
    let mut mn = MobileNode::new(a(MN), a(HA), false, MipConfig::default(), t(900));
    for peer in [HA, FA] {
        mn.radio.push(RadioPort {
            iface: NIC,
            peer: a(peer),
            up: true,
        });
    }
    let mut out = MipOutput::default();
    mn.on_timer(t(900), &mut out);
    assert_eq!(mn.current_agent(), None);
    assert_eq!(out.control.len(), 1);
    assert_eq!(out.control[0].msg, ControlMessage::MipSolicitation);
    assert_eq!(out.control[0].via, Some((NIC, Addr::BROADCAST)));
    assert_eq!(mn.stats.solicitations, 1);
    // FA's advertisement: the registration request goes on the NIC to FA, not broadcast.
    out.control.clear();
    mn.on_input(t(2000), NIC, advertisement(FA), &mut out);
    assert_eq!(mn.care_of(), Some(a(FA)));
    assert_eq!(out.control.len(), 1);
    assert_eq!(out.control[0].via, Some((NIC, a(FA))));
    let v = mn.on_output(t(2100), udp_packet(1, CN, 40));
    assert!(matches!(v, Verdict::Send(_, NIC, peer) if peer == a(FA)));
}

/// The seed's walk at y = 275 m past HA at (200, 300) with a 75 m radius: inside while
/// |x − 200| ≤ √(75² − 25²) = 70.7107 m. From (150, 275) to (350, 275) at 10 m/s from 10 s,
/// the node leaves at x = 270.7107, t = 10 + 120.7107/10 = 22.0711 s; FA1 at (350, 300) is
/// entered at x = 279.2893, t = 22.9289 s.
#[test]
fn coverage_crossings_of_a_straight_walk() {
    let mut tr = Trajectory::new(Position { x: 150.0, y: 275.0 });
    tr.setdest(t(10_000), Position { x: 350.0, y: 275.0 }, 10.0)
        .unwrap();
    let m = Mobility::Trajectory(Arc::new(tr));
    let half = (75.0f64 * 75.0 - 25.0 * 25.0).sqrt();
    let (inside, changes) = coverage_changes(&m, Position { x: 200.0, y: 300.0 }, 75.0, t(60_000));
    assert!(inside);
    assert_eq!(changes.len(), 1);
    assert!(!changes[0].1);
    assert!((changes[0].0.as_secs_f64() - (10.0 + (200.0 + half - 150.0) / 10.0)).abs() < 1e-6);
    assert!((changes[0].0.as_secs_f64() - 22.0711).abs() < 1e-4);
    let (inside, changes) = coverage_changes(&m, Position { x: 350.0, y: 300.0 }, 75.0, t(60_000));
    assert!(!inside);
    assert_eq!(changes.len(), 1, "it stops at (350, 275), inside");
    assert!((changes[0].0.as_secs_f64() - 22.9289).abs() < 1e-4);
    assert!(changes[0].1);
}

// --- The last hop through DSDV (ns-2's wired-cum-wireless Mobile IP) ----------------------

fn dsdv_cfg() -> MipConfig {
    MipConfig {
        through_dsdv: true,
        ..MipConfig::default()
    }
}

/// Through DSDV, MN (whose one NIC reaches HA and FA) hands everything it originates to its
/// DSDV (ns-2: the agent's target is the node's entry; `get-link` is empty for a mobile
/// node). The sequence: the TCP ACK at 0.5 s passes to routing; HA's advertisement at 0.9 s
/// is MN's first (its list starts empty): HA becomes DSDV's base station and MN deregisters
/// (id 1); FA's at 1.0 s is a new agent: FA becomes the care-of address and DSDV's base
/// station (`MIPMHAgent::recv` calls `set_base_stn` on a new advertisement), and the request
/// (id 2) goes to FA with no interface (routed: DSDV sends it only on a route to FA); at 1.5 s
/// the retransmission timer sends id 3; FA's next advertisement at 2.0 s changes neither the
/// base station nor the care-of address but re-registers (id 4).
#[test]
fn through_dsdv_the_mobile_node_originates_everything_and_names_its_base_station() {
    const NIC: IfaceId = IfaceId(7);
    let mut mn = MobileNode::new(a(MN), a(HA), false, dsdv_cfg(), t(900));
    for peer in [HA, FA] {
        mn.radio.push(RadioPort {
            iface: NIC,
            peer: a(peer),
            up: true,
        });
    }
    assert!(matches!(
        mn.on_output(t(500), udp_packet(1, CN, 40)),
        Verdict::Pass(_)
    ));
    let mut out = MipOutput::default();
    mn.on_input(t(900), NIC, advertisement(HA), &mut out);
    assert_eq!((out.base_station, out.control.len()), (Some(a(HA)), 1));
    assert!(matches!(
        out.control.remove(0).msg,
        ControlMessage::MipRegRequest {
            id: 1,
            lifetime: SimTime::ZERO,
            ..
        }
    ));
    mn.on_input(t(1000), NIC, advertisement(FA), &mut out);
    assert_eq!(out.base_station, Some(a(FA)));
    assert_eq!((mn.care_of(), out.care_of_changes), (Some(a(FA)), 1));
    let req = out.control.remove(0);
    assert_eq!(
        (req.dst, req.via, req.to_routing_agent),
        (a(FA), None, false)
    );
    assert!(matches!(
        req.msg,
        ControlMessage::MipRegRequest { id: 2, .. }
    ));
    let mut out = MipOutput::default();
    mn.on_timer(t(1000), &mut out); // the scan keeps both
    assert!(out.control.is_empty());
    mn.on_timer(t(1500), &mut out); // reg_rtx: the request is sent again
    assert!(matches!(
        out.control.remove(0).msg,
        ControlMessage::MipRegRequest { id: 3, .. }
    ));
    mn.on_input(t(2000), NIC, advertisement(FA), &mut out);
    assert_eq!((out.base_station, out.care_of_changes), (None, 0));
    assert!(matches!(
        out.control.remove(0).msg,
        ControlMessage::MipRegRequest { id: 4, .. }
    ));
    // A solicitation, when every agent is lost (scan at 4.9 s: FA last heard at 2.0 s),
    // is a broadcast the node originates (DSDV's jittered broadcast).
    let mut out = MipOutput::default();
    mn.on_timer(t(4900), &mut out);
    let sol = out.control.last().expect("a solicitation");
    assert_eq!(sol.msg, ControlMessage::MipSolicitation);
    assert_eq!((sol.dst, sol.via), (Addr::BROADCAST, None));
}

/// Through DSDV, the agents (one NIC each reaching MN): FA's broadcast advertisement is a
/// packet it originates (no interface) and, seen again on its way out (`in_iface` None), is
/// not taken for one it received; FA answers MN's solicitation with a unicast advertisement
/// to MN, routed as the node routes it (ns-2 `send_ads(haddr, NULL)`: the node's classifier
/// sends MN's home address towards HA over the wire). The relayed registration reply goes
/// straight to FA's DSDV (`to_routing_agent`, ns-2 `ragent_->recv`), and so does a
/// decapsulated packet for the visitor (`Verdict::ToRoutingAgent`, the decapsulator's
/// default target). HA with no binding leaves a packet for MN at home to its DSDV (`Pass`);
/// its deregistration reply is routed (no interface, not to the DSDV agent directly).
#[test]
fn through_dsdv_the_agents_leave_the_last_hop_to_dsdv() {
    const NIC: IfaceId = IfaceId(7);
    let mut fa = MobilityAgent::new(a(FA), dsdv_cfg(), Vec::new(), t(700));
    fa.radio.push(RadioPort {
        iface: NIC,
        peer: a(MN),
        up: true,
    });
    let mut out = MipOutput::default();
    fa.on_timer(t(700), &mut out);
    let ad = out.control.remove(0);
    assert_eq!(
        (ad.dst, ad.via, ad.to_routing_agent),
        (Addr::BROADCAST, None, false)
    );
    assert!(matches!(
        fa.on_packet(t(700), None, as_packet(&ad), &mut out),
        Verdict::Pass(_)
    ));
    let sol = control(ControlMessage::MipSolicitation, a(MN), Addr::BROADCAST);
    fa.on_packet(t(800), Some(NIC), sol, &mut out);
    let answer = out.control.remove(0);
    assert!(matches!(
        answer.msg,
        ControlMessage::MipAdvertisement { .. }
    ));
    assert_eq!((answer.dst, answer.via), (a(MN), None));
    // Registration: MN's request relayed to HA, HA's reply handed to FA's DSDV.
    let req = ControlMessage::MipRegRequest {
        home: a(MN),
        home_agent: a(HA),
        care_of: a(FA),
        lifetime: t(2000),
        id: 1,
        reverse_tunnel: false,
    };
    fa.on_packet(t(1000), Some(NIC), control(req, a(MN), a(FA)), &mut out);
    let relayed = out.control.remove(0);
    assert_eq!((relayed.dst, relayed.via), (a(HA), None));
    let reply = ControlMessage::MipRegReply {
        home: a(MN),
        home_agent: a(HA),
        care_of: a(FA),
        lifetime: t(2000),
        id: 1,
        code: 0,
    };
    fa.on_packet(t(1010), Some(WIRED), control(reply, a(HA), a(FA)), &mut out);
    let to_mn = out.control.remove(0);
    assert_eq!(
        (to_mn.src, to_mn.dst, to_mn.via, to_mn.to_routing_agent),
        (a(FA), a(MN), None, true)
    );
    // A tunnelled segment for the visitor: decapsulated and handed to DSDV.
    let mut p = udp_packet(7, MN, 1000);
    p.ip.src = a(CN);
    p.encapsulate(IpHeader {
        src: a(HA),
        dst: a(FA),
        ttl: 32,
    });
    let Verdict::ToRoutingAgent(p) = fa.on_packet(t(1100), Some(WIRED), p, &mut out) else {
        panic!("handed to DSDV");
    };
    assert_eq!((p.size, p.ip.dst, p.is_tunnelled()), (1000, a(MN), false));
    // A visitor that asked for reverse tunnelling: its unicast leaves in the tunnel to HA,
    // its DSDV update (a broadcast for the link) is left to FA's DSDV, not tunnelled.
    let req = ControlMessage::MipRegRequest {
        home: a(MN),
        home_agent: a(HA),
        care_of: a(FA),
        lifetime: t(2000),
        id: 2,
        reverse_tunnel: true,
    };
    fa.on_packet(t(1150), Some(NIC), control(req, a(MN), a(FA)), &mut out);
    let reply = ControlMessage::MipRegReply {
        home: a(MN),
        home_agent: a(HA),
        care_of: a(FA),
        lifetime: t(2000),
        id: 2,
        code: 0,
    };
    fa.on_packet(t(1160), Some(WIRED), control(reply, a(HA), a(FA)), &mut out);
    let mut ack = udp_packet(9, CN, 40);
    ack.ip.src = a(MN);
    assert!(matches!(
        fa.on_packet(t(1170), Some(NIC), ack, &mut out),
        Verdict::Route(p) if p.is_tunnelled()
    ));
    let update = control(
        ControlMessage::DsdvUpdate {
            entries: Vec::new(),
            full: true,
        },
        a(MN),
        Addr::BROADCAST,
    );
    assert!(matches!(
        fa.on_packet(t(1180), Some(NIC), update, &mut out),
        Verdict::Pass(p) if !p.is_tunnelled()
    ));
    // At 5 s the visitor entry (from the reply at 1.16 s, 2 s) has lapsed: a tunnelled packet
    // for MN still goes to DSDV, not dropped as mip_no_visitor (ns-2's base station keeps
    // no visitor entry: its decapsulator's default target is DSDV).
    let mut late = udp_packet(10, MN, 1000);
    late.encapsulate(IpHeader {
        src: a(HA),
        dst: a(FA),
        ttl: 32,
    });
    assert_eq!(fa.visitor(a(MN), t(5000)), None);
    assert!(matches!(
        fa.on_packet(t(5000), Some(WIRED), late, &mut out),
        Verdict::ToRoutingAgent(p) if p.ip.dst == a(MN)
    ));
    out.control.clear(); // the second registration's relay and reply
                         // HA, MN at home (no binding): a packet for MN goes to HA's DSDV.
    let mut ha = MobilityAgent::new(a(HA), dsdv_cfg(), vec![a(MN)], t(300));
    ha.radio.push(RadioPort {
        iface: NIC,
        peer: a(MN),
        up: true,
    });
    let mut q = udp_packet(8, MN, 1000);
    q.ip.src = a(CN);
    assert!(matches!(
        ha.on_packet(t(1200), Some(WIRED), q, &mut out),
        Verdict::Pass(_)
    ));
    let dereg = ControlMessage::MipRegRequest {
        home: a(MN),
        home_agent: a(HA),
        care_of: a(MN),
        lifetime: SimTime::ZERO,
        id: 3,
        reverse_tunnel: false,
    };
    ha.on_packet(t(1300), Some(NIC), control(dereg, a(MN), a(HA)), &mut out);
    let reply = out.control.remove(0);
    assert_eq!(
        (reply.dst, reply.via, reply.to_routing_agent),
        (a(MN), None, false)
    );
}
