//! An RLC acknowledged-mode entity (TS 25.322 §4.2.1.3): a sender half and a receiver half
//! sharing the peer direction for control PDUs (link-spec §1.1).
//!
//! What the entity adds to its halves: the MAC's order of service in one TTI (§11.3.2,
//! link-spec §1.9: STATUS PDUs first — the sender's MRW, then the receiver's MRW_ACK, then
//! its ACK/BITMAP report — then retransmissions, then new PDUs) and the routing of a
//! received STATUS PDU's super-fields (ACK/BITMAP and MRW_ACK to the sender, MRW to the
//! receiver).
//!
//! Not modelled (deviations from 25.322, listed in the `umts` module doc): RESET/RESET ACK,
//! MaxMRW (an MRW is resent every Timer_MRW until acknowledged), Timer_Discard, the
//! WINDOW/LIST/RLIST SUFIs (never generated; not parsed), piggy-backed STATUS.

pub mod receiver;
pub mod sender;

pub use receiver::AmReceiver;
pub use sender::AmSender;

use crate::sim::SimTime;
use crate::umts::config::RlcConfig;
use crate::umts::event::{BearerEvent, RlcOutput, StatusSummary, TxCounters};
use crate::umts::pdu::{Pdu, Sufi};
use crate::umts::{SduId, Side};

/// One AM entity: the RNC's or the UE's.
#[derive(Clone, Debug)]
pub struct AmEntity {
    pub sender: AmSender,
    pub receiver: AmReceiver,
    side: Side,
    /// A STATUS PDU must fit one PDU (§9.2.2.11).
    max_status_bits: u32,
}

impl AmEntity {
    pub fn new(cfg: RlcConfig, side: Side) -> Self {
        AmEntity {
            sender: AmSender::new(cfg, side),
            receiver: AmReceiver::new(cfg, side),
            side,
            max_status_bits: cfg.pdu_bytes() * 8,
        }
    }

    pub fn submit(&mut self, id: SduId, bytes: u32) -> bool {
        self.sender.submit(id, bytes)
    }

    /// Whether the MAC would get at least one PDU now.
    pub fn has_tx(&self) -> bool {
        self.receiver.has_control() || self.sender.has_tx()
    }

    /// Up to `max` PDUs for one TTI, in the order of the module doc.
    pub fn pull(&mut self, now: SimTime, max: u32, out: &mut RlcOutput) -> Vec<Pdu> {
        let max = max as usize;
        let mut pdus = Vec::with_capacity(max);
        if pdus.len() < max {
            if let Some(s) = self.sender.pull_control(now, out) {
                pdus.push(Pdu::Status(s));
            }
        }
        if pdus.len() < max {
            if let Some(s) = self.receiver.pull_mrw_ack(now, out) {
                pdus.push(Pdu::Status(s));
            }
        }
        let room = max - pdus.len();
        let report = self
            .receiver
            .pull_status(now, self.max_status_bits, room, out);
        pdus.extend(report.into_iter().map(Pdu::Status));
        while pdus.len() < max {
            match self.sender.pull_data(now, out) {
                Some(p) => pdus.push(Pdu::Amd(p)),
                None => break,
            }
        }
        // A MaxDAT discard while filling the TTI produces an MRW: it may still go now.
        if pdus.len() < max {
            if let Some(s) = self.sender.pull_control(now, out) {
                pdus.push(Pdu::Status(s));
            }
        }
        pdus
    }

    /// A PDU received correctly from the peer.
    pub fn receive(&mut self, now: SimTime, pdu: Pdu, out: &mut RlcOutput) {
        match pdu {
            Pdu::Amd(d) => self.receiver.on_data(now, d, out),
            Pdu::Status(s) => {
                out.event(
                    now,
                    BearerEvent::StatusReceived {
                        dir: self.side.peer().tx_direction(),
                        status: StatusSummary::of(&s),
                    },
                );
                for sufi in &s.sufis {
                    if let Sufi::Mrw { sn_mrw, n_length } = *sufi {
                        self.receiver.on_mrw(sn_mrw, n_length, out);
                    }
                }
                self.sender.on_status(&s);
            }
            // A UMD PDU on an AM bearer cannot happen: both ends share one configuration.
            Pdu::Umd(_) => {}
        }
    }

    pub fn on_tbs_arrived(&mut self, now: SimTime, n: u32) {
        self.receiver.on_tbs_arrived(now, n);
    }

    pub fn next_timer(&self) -> Option<SimTime> {
        match (self.sender.next_timer(), self.receiver.next_timer()) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    pub fn on_timers(&mut self, now: SimTime, out: &mut RlcOutput) {
        self.sender.on_timers(now, out);
        self.receiver.on_timers(now);
    }

    /// Transmit-side counters of both halves (data PDUs and polls from the sender, STATUS
    /// PDUs from both).
    pub fn counters(&self) -> TxCounters {
        let s = self.sender.counters();
        let r = self.receiver.counters();
        TxCounters {
            status_pdus: s.status_pdus + r.status_pdus,
            ..s
        }
    }

    pub fn buffered_bytes(&self) -> u64 {
        self.sender.buffered_bytes()
    }
}
