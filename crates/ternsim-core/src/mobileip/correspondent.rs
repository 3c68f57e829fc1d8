//! A correspondent node that supports route optimization (draft-ietf-mobileip-optim §3,
//! §5): it keeps a binding cache fed by the home agent's Binding Updates and tunnels its own
//! packets for a mobile node straight to the cached care-of address (IP in IP, 20 bytes),
//! bypassing the home agent. A Binding Update with lifetime 0 (the mobile node is home)
//! removes the entry; an entry also lapses at the end of its lifetime, after which packets go
//! to the home address again (and the home agent's tunnelling brings a new update).

use super::agent::{Binding, TUNNEL_TTL};
use super::{mip_message, Verdict};
use crate::net::addr::Addr;
use crate::net::control::ControlMessage;
use crate::net::packet::{IpHeader, Packet};
use crate::sim::SimTime;

#[derive(Clone, Debug)]
pub struct Correspondent {
    pub addr: Addr,
    cache: Vec<Binding>,
    pub binding_updates: u64,
    pub tunnelled: u64,
}

impl Correspondent {
    pub fn new(addr: Addr) -> Self {
        Correspondent {
            addr,
            cache: Vec::new(),
            binding_updates: 0,
            tunnelled: 0,
        }
    }

    /// The cached binding of `home` valid at `now`.
    pub fn binding(&self, home: Addr, now: SimTime) -> Option<Binding> {
        self.cache
            .iter()
            .find(|b| b.home == home && b.expires > now)
            .copied()
    }

    pub fn on_output(&mut self, now: SimTime, mut packet: Packet) -> Verdict {
        if packet.is_tunnelled() {
            return Verdict::Pass(packet);
        }
        match self.binding(packet.ip.dst, now) {
            Some(b) => {
                packet.encapsulate(IpHeader {
                    src: self.addr,
                    dst: b.care_of,
                    ttl: TUNNEL_TTL,
                });
                self.tunnelled += 1;
                Verdict::Route(packet)
            }
            None => Verdict::Pass(packet),
        }
    }

    pub fn on_input(&mut self, now: SimTime, packet: Packet) -> Verdict {
        if packet.routing_header().dst != self.addr {
            return Verdict::Pass(packet);
        }
        let Some(&ControlMessage::MipBindingUpdate {
            home,
            care_of,
            lifetime,
        }) = mip_message(&packet)
        else {
            return Verdict::Pass(packet);
        };
        self.binding_updates += 1;
        self.cache.retain(|b| b.home != home);
        if lifetime > SimTime::ZERO && care_of != home {
            self.cache.push(Binding {
                home,
                care_of,
                expires: now + lifetime,
            });
        }
        Verdict::Consumed(packet)
    }
}
