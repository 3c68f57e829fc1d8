//! ARP between the LL and the interface queue, with ns-2's semantics (`mac/arp.cc`,
//! link-spec §3.5).
//!
//! A unicast packet the node hands down needs an entry for its next hop, looked up as it
//! enters the LL (ns-2 `LL::sendDown` calls `arpresolve` first). Unresolved: the entry holds
//! this one packet (a held one is replaced and dropped, `arp_replaced`) and an ARP request
//! is broadcast; after three requests without a reply, the next packet for that hop and the
//! held one go back to routing as transmit failures and the count starts again (ns-2 has no
//! ARP timer: only a new packet notices). Every ARP frame a station decodes (a reply to it,
//! or any broadcast request) installs or refreshes the sender's entry and releases its held
//! packet. The target of a request answers with a unicast reply. Entries never expire;
//! broadcast packets need none.
//!
//! ARP frames are link-layer only (not `Packet`s): DATA frames of 28 octets, the request a
//! broadcast at the basic rate, the reply a unicast with RTS/CTS/ACK as the threshold says.
//! Like the held packet a reply releases, they go to the LL's down target, the interface
//! queue, after the ARP table's own delay (`ARPTable set delay_ 5us`): they wait in line
//! behind what is queued, and a full queue drops them (`D IFQ` lines of ARP in ns-2's
//! traces).

use crate::net::addr::Addr;
use crate::net::iface::{IfaceOutput, TxFailure, TxFailureCause};
use crate::net::packet::DropReason;
use crate::wifi::channel::{Arp, WifiChannel};
use crate::wifi::ifq::{Queued, Waiting};

/// ns-2 `ARP_MAX_REQUEST_COUNT`.
pub(super) const ARP_MAX_REQUESTS: u32 = 3;

impl WifiChannel {
    /// The packet `q` enters station `s`'s LL going down at `t` (ns-2
    /// `ARPTable::arpresolve`): `Some(q)` if its next hop is known (or needs no resolution),
    /// `None` if ARP kept it or gave it up.
    pub(super) fn arp_resolve(
        &mut self,
        s: usize,
        t: u64,
        q: Queued,
        out: &mut IfaceOutput,
    ) -> Option<Queued> {
        if !self.cfg.arp || q.next_hop.is_broadcast() {
            return Some(q);
        }
        let hop = q.next_hop;
        let st = &mut self.st[s];
        let e = st.arp_table.entry(hop).or_default();
        if e.resolved {
            return Some(q);
        }
        if e.count >= ARP_MAX_REQUESTS {
            e.count = 0;
            let held = e.hold.take();
            for q in held.into_iter().chain(std::iter::once(q)) {
                st.stats.arp_failures += 1;
                out.tx_failures.push(TxFailure {
                    port: s as u16,
                    next_hop: q.next_hop,
                    packet: q.packet,
                    cause: TxFailureCause::ArpUnresolved,
                });
            }
            return None;
        }
        e.count += 1;
        if let Some(old) = e.hold.replace(q) {
            st.stats.arp_drops += 1;
            out.drops.push((old.packet, DropReason::ArpReplaced));
        }
        self.arp_emit(s, t, Addr::BROADCAST, Arp::Request { target: hop }, out);
        None
    }

    /// Sends an ARP frame down to the interface queue, which it reaches after the ARP
    /// table's delay (ns-2 `arprequest` and `arpinput` schedule it on the LL's down target).
    fn arp_emit(&mut self, s: usize, t: u64, ra: Addr, msg: Arp, out: &mut IfaceOutput) {
        let at = t + self.cfg.arp_delay.as_nanos();
        self.ll_down_push(s, at, Waiting::Arp { ra, msg }, out);
    }

    /// Station `r` decoded an ARP frame from `from` at `t` (ns-2 `ARPTable::arpinput`).
    pub(super) fn arp_input(
        &mut self,
        r: usize,
        t: u64,
        from: Addr,
        msg: Arp,
        out: &mut IfaceOutput,
    ) {
        if !self.cfg.arp {
            return;
        }
        let e = self.st[r].arp_table.entry(from).or_default();
        e.resolved = true;
        e.count = 0;
        if let Some(q) = e.hold.take() {
            // ns-2 `arpinput` schedules the held packet on the down target after the ARP
            // table's delay, ahead of its reply.
            let at = t + self.cfg.arp_delay.as_nanos();
            self.ll_down_push(r, at, Waiting::Packet(q), out);
        }
        if msg
            == (Arp::Request {
                target: self.st[r].addr,
            })
        {
            self.arp_emit(r, t, from, Arp::Reply, out);
        }
    }
}
