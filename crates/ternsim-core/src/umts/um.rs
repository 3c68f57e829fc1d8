//! An RLC unacknowledged-mode entity (TS 25.322 §4.2.1.2, §11.2).
//!
//! Sender: the same SDU buffer and segmentation as AM (§11.2.2), a 1-octet UMD header
//! (SN 7 bits + E) and VT(US), the SN of the next UMD PDU. No ARQ, no polling.
//! Receiver: VR(US), the SN following the last UMD PDU received. A PDU whose SN is not
//! VR(US) reveals lost PDUs (§11.2.3): the SDU being reassembled is discarded, and so are
//! the leading segments of the new PDU that continue an SDU whose start was not received.
//!
//! SNs are unbounded internally (module doc of `umts`): a run of 128 or more lost PDUs,
//! which a real 7-bit receiver would not see, is still detected.

use crate::sim::SimTime;
use crate::umts::config::RlcConfig;
use crate::umts::event::{BearerEvent, RlcOutput, TxCounters};
use crate::umts::pdu::{DataPdu, Pdu};
use crate::umts::segmentation::{Layout, SduBuffer};
use crate::umts::{SduId, Side, Sn};

/// One UM entity (sender and receiver).
#[derive(Clone, Debug)]
pub struct UmEntity {
    side: Side,
    sdus: SduBuffer,
    vt_us: Sn,
    vr_us: Sn,
    partial: Option<SduId>,
    counters: TxCounters,
}

impl UmEntity {
    pub fn new(cfg: RlcConfig, side: Side) -> Self {
        let layout = Layout {
            capacity: cfg.data_field_bytes(),
            li_octets: cfg.li_octets(),
            concatenation: cfg.concatenation,
            min_concat_octets: cfg.min_concat_octets,
            exact_fill_li: cfg.exact_fill_li,
        };
        UmEntity {
            side,
            sdus: SduBuffer::new(layout, cfg.sdu_buffer_bytes),
            vt_us: 0,
            vr_us: 0,
            partial: None,
            counters: TxCounters::default(),
        }
    }

    pub fn vt_us(&self) -> Sn {
        self.vt_us
    }
    pub fn vr_us(&self) -> Sn {
        self.vr_us
    }

    pub fn submit(&mut self, id: SduId, bytes: u32) -> bool {
        self.sdus.push(id, bytes)
    }

    pub fn has_tx(&self) -> bool {
        !self.sdus.is_empty()
    }

    /// Up to `max` UMD PDUs for one TTI.
    pub fn pull(&mut self, now: SimTime, max: u32, out: &mut RlcOutput) -> Vec<Pdu> {
        let mut pdus = Vec::new();
        while pdus.len() < max as usize {
            let Some(body) = self.sdus.next_body() else {
                break;
            };
            let sn = self.vt_us;
            self.vt_us += 1;
            self.counters.data_pdus += 1;
            out.event(
                now,
                BearerEvent::PduSent {
                    dir: self.side.tx_direction(),
                    sn,
                    retransmission: false,
                    poll: false,
                },
            );
            pdus.push(Pdu::Umd(DataPdu {
                sn,
                poll: false,
                body,
            }));
        }
        pdus
    }

    /// A UMD PDU received correctly (§11.2.3).
    pub fn receive(&mut self, _now: SimTime, pdu: Pdu, out: &mut RlcOutput) {
        let Pdu::Umd(d) = pdu else {
            return;
        };
        if d.sn < self.vr_us {
            return; // cannot happen on a DCH (in order), kept for safety
        }
        let gap = d.sn != self.vr_us;
        self.vr_us = d.sn + 1;
        if gap {
            if let Some(id) = self.partial.take() {
                out.discarded.push((self.side.peer(), id));
            }
        }
        for seg in d.body.segments {
            if seg.first {
                if let Some(id) = self.partial.take() {
                    out.discarded.push((self.side.peer(), id));
                }
                self.partial = Some(seg.sdu);
            } else if self.partial != Some(seg.sdu) {
                // Continues an SDU whose start was lost.
                out.discarded.push((self.side.peer(), seg.sdu));
                continue;
            }
            if seg.last {
                self.partial = None;
                out.delivered.push((self.side.peer(), seg.sdu));
            }
        }
    }

    pub fn counters(&self) -> TxCounters {
        self.counters
    }

    pub fn buffered_bytes(&self) -> u64 {
        self.sdus.bytes()
    }
}
