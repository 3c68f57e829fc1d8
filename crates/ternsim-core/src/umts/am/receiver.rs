//! The receiving half of an AM entity (TS 25.322 §9.4, §9.5, §9.7.2, §11.3.3, §11.5,
//! §11.6; link-spec §1.8, §1.10).
//!
//! Owns: VR(R), VR(H) (VR(MR) = VR(R) + Configured_Rx_Window_Size), the PDUs received at
//! or above VR(R), reassembly of SDUs, the STATUS triggers (poll, missing PDU,
//! Timer_Status_Periodic, EPC) with Timer_Status_Prohibit, and the answer to an MRW.
//!
//! Reassembly walks the PDUs below VR(R) in SN order (they are all present), so SDUs come
//! out in sequence; with out-of-sequence delivery an SDU whose PDUs are all present is also
//! handed up earlier, and skipped when the in-order walk reaches it.
//!
//! STATUS encoding (an implementation choice, §9.7.2; link-spec §1.8): BITMAP SUFIs from
//! VR(R) up to VR(H) − 1 (at most 128 bits each, as many as fit in one PDU), then ACK with
//! LSN = the first SN not described (VR(H) when all fit). Bitmap bits at or above LSN
//! (octet padding) are 0 and carry no information. When the span does not fit one PDU the
//! report continues in further STATUS PDUs (as many as the TTI has room for) holding only
//! BITMAPs over whole octets of SNs below VR(H); without an ACK every bit is information,
//! so each PDU is understood on its own and losing one only loses its part.

use std::collections::{BTreeMap, HashSet};

use crate::sim::SimTime;
use crate::umts::config::RlcConfig;
use crate::umts::event::{BearerEvent, RlcOutput, StatusSummary, TxCounters};
use crate::umts::pdu::{DataPdu, PduBody, StatusPdu, Sufi};
use crate::umts::{SduId, Side, Sn};

#[derive(Clone, Debug)]
struct Epc {
    /// VR(EP): PDUs still expected after Timer_EPC expires.
    vr_ep: u64,
    /// Timer_EPC expiry: counting starts then.
    start: SimTime,
    requested: Vec<Sn>,
}

/// The AM receiver.
#[derive(Clone, Debug)]
pub struct AmReceiver {
    cfg: RlcConfig,
    side: Side,
    vr_r: Sn,
    vr_h: Sn,
    store: BTreeMap<Sn, PduBody>,
    /// The SDU being reassembled by the in-order walk: (id, octets so far).
    partial: Option<(SduId, u32)>,
    /// In PDU `.0`, skip data up to the `.1`-th SDU end (MRW N_LENGTH).
    skip: Option<(Sn, u32)>,
    /// SDUs already handed up out of sequence.
    delivered_early: HashSet<SduId>,
    last_mrw: Option<Sn>,
    status_pending: bool,
    timer_status_prohibit: Option<SimTime>,
    timer_status_periodic: Option<SimTime>,
    mrw_ack: Option<(u32, Sn)>,
    epc: Option<Epc>,
    counters: TxCounters,
}

impl AmReceiver {
    pub fn new(cfg: RlcConfig, side: Side) -> Self {
        AmReceiver {
            side,
            vr_r: 0,
            vr_h: 0,
            store: BTreeMap::new(),
            partial: None,
            skip: None,
            delivered_early: HashSet::new(),
            last_mrw: None,
            status_pending: false,
            timer_status_prohibit: None,
            timer_status_periodic: cfg.status.timer_status_periodic,
            mrw_ack: None,
            epc: None,
            counters: TxCounters::default(),
            cfg,
        }
    }

    // ---- inspection -------------------------------------------------------------------

    pub fn vr_r(&self) -> Sn {
        self.vr_r
    }
    pub fn vr_h(&self) -> Sn {
        self.vr_h
    }
    /// VR(MR): the first SN outside the receiving window.
    pub fn vr_mr(&self) -> Sn {
        self.vr_r + Sn::from(self.cfg.rx_window)
    }
    /// A STATUS is waiting to be sent (perhaps held by Timer_Status_Prohibit).
    pub fn status_pending(&self) -> bool {
        self.status_pending
    }
    pub fn timer_status_prohibit(&self) -> Option<SimTime> {
        self.timer_status_prohibit
    }
    pub fn counters(&self) -> TxCounters {
        self.counters
    }

    // ---- peer sender ------------------------------------------------------------------

    /// An AMD PDU received correctly (§11.3.3; link-spec §1.10).
    pub fn on_data(&mut self, _now: SimTime, pdu: DataPdu, out: &mut RlcOutput) {
        let sn = pdu.sn;
        let poll = pdu.poll;
        if sn >= self.vr_r && sn < self.vr_mr() && !self.store.contains_key(&sn) {
            // Missing-PDU detection (§9.7.2): SN > VR(H) leaves VR(H)..SN−1 missing.
            if self.cfg.status.missing_pdu_indicator && sn > self.vr_h {
                self.status_pending = true;
            }
            self.store.insert(sn, pdu.body);
            self.vr_h = self.vr_h.max(sn + 1);
            if sn == self.vr_r {
                self.advance_vr_r(out);
            } else if !self.cfg.in_sequence_delivery {
                self.deliver_early_around(sn, out);
            }
        }
        // Outside the window or a duplicate: data discarded, the poll still honoured.
        if poll {
            self.status_pending = true;
        }
    }

    /// An MRW SUFI (§11.6.4): move VR(R) to SN_MRW, drop the data of discarded SDUs, answer
    /// with MRW_ACK.
    pub fn on_mrw(&mut self, sn_mrw: Sn, n_length: u32, out: &mut RlcOutput) {
        if self.last_mrw.is_none_or(|s| sn_mrw > s) {
            self.last_mrw = Some(sn_mrw);
            if sn_mrw >= self.vr_r {
                // PDUs below SN_MRW hold only discarded data.
                let keep = self.store.split_off(&sn_mrw);
                self.store = keep;
                if let Some((id, _)) = self.partial.take() {
                    out.discarded.push((self.side.peer(), id));
                }
                self.skip = (n_length > 0).then_some((sn_mrw, n_length));
                self.vr_r = sn_mrw;
                self.vr_h = self.vr_h.max(self.vr_r);
                self.advance_vr_r(out);
            }
        }
        self.mrw_ack = Some((n_length, self.vr_r));
    }

    /// Moves VR(R) over consecutively received PDUs and reassembles what it passed.
    fn advance_vr_r(&mut self, out: &mut RlcOutput) {
        while let Some(body) = self.store.remove(&self.vr_r) {
            let sn = self.vr_r;
            self.vr_r += 1;
            self.reassemble(sn, body, out);
        }
        if let Some(e) = &self.epc {
            if e.requested.iter().all(|&s| s < self.vr_r) {
                self.epc = None;
            }
        }
    }

    fn reassemble(&mut self, sn: Sn, body: PduBody, out: &mut RlcOutput) {
        let mut skip_ends = match self.skip {
            Some((s, n)) if s == sn => {
                self.skip = None;
                n
            }
            _ => 0,
        };
        for seg in body.segments {
            if skip_ends > 0 {
                if seg.last {
                    skip_ends -= 1;
                }
                continue;
            }
            if seg.first {
                if let Some((id, _)) = self.partial.take() {
                    out.discarded.push((self.side.peer(), id));
                }
                self.partial = Some((seg.sdu, seg.bytes));
            } else if let Some((id, bytes)) = self.partial.as_mut() {
                if *id == seg.sdu {
                    *bytes += seg.bytes;
                }
            }
            if seg.last {
                if let Some((id, _)) = self.partial.take_if(|(id, _)| *id == seg.sdu) {
                    if !self.delivered_early.remove(&id) {
                        out.delivered.push((self.side.peer(), id));
                    }
                }
            }
        }
    }

    /// Out-of-sequence delivery (§9.6 "in-sequence delivery" off): hand up every SDU that
    /// lies complete in the run of consecutively received PDUs around `sn`.
    fn deliver_early_around(&mut self, sn: Sn, out: &mut RlcOutput) {
        let mut start = sn;
        while start > self.vr_r && self.store.contains_key(&(start - 1)) {
            start -= 1;
        }
        let mut current: Option<SduId> = None;
        for (expect, (&s, body)) in (start..).zip(self.store.range(start..)) {
            if s != expect {
                break; // end of the run
            }
            for seg in &body.segments {
                if seg.first {
                    current = Some(seg.sdu);
                }
                if seg.last && current == Some(seg.sdu) && self.delivered_early.insert(seg.sdu) {
                    out.delivered.push((self.side.peer(), seg.sdu));
                }
            }
        }
    }

    // ---- STATUS ------------------------------------------------------------------------

    /// Whether a control PDU (MRW_ACK or STATUS) can be sent now.
    pub fn has_control(&self) -> bool {
        self.mrw_ack.is_some() || (self.status_pending && self.timer_status_prohibit.is_none())
    }

    /// The MRW_ACK, if owed (not subject to Timer_Status_Prohibit, §9.5 d).
    pub fn pull_mrw_ack(&mut self, now: SimTime, out: &mut RlcOutput) -> Option<StatusPdu> {
        let (n, sn_ack) = self.mrw_ack.take()?;
        let status = StatusPdu {
            sufis: vec![Sufi::MrwAck { n, sn_ack }],
        };
        self.sent(now, &status, out);
        Some(status)
    }

    /// The STATUS report, if triggered and not prohibited (§11.5.2), in at most
    /// `max_pdus` STATUS PDUs of at most `max_bits` each.
    pub fn pull_status(
        &mut self,
        now: SimTime,
        max_bits: u32,
        max_pdus: usize,
        out: &mut RlcOutput,
    ) -> Vec<StatusPdu> {
        if !self.status_pending || self.timer_status_prohibit.is_some() || max_pdus == 0 {
            return Vec::new();
        }
        self.status_pending = false;
        let report = self.build_status(max_bits, max_pdus);
        if let Some(t) = self.cfg.status.timer_status_prohibit {
            self.timer_status_prohibit = Some(now + t);
        }
        // EPC (§9.7.2, R99): count down the retransmissions this report asks for.
        if let Some(t) = self.cfg.status.timer_epc {
            let requested: Vec<Sn> = report.iter().flat_map(StatusPdu::nacks).collect();
            self.epc = (!requested.is_empty()).then(|| Epc {
                vr_ep: requested.len() as u64,
                start: now + t,
                requested,
            });
        }
        for status in &report {
            self.sent(now, status, out);
        }
        report
    }

    fn sent(&mut self, now: SimTime, status: &StatusPdu, out: &mut RlcOutput) {
        self.counters.status_pdus += 1;
        out.event(
            now,
            BearerEvent::StatusSent {
                dir: self.side.tx_direction(),
                status: StatusSummary::of(status),
            },
        );
    }

    /// BITMAPs from VR(R), then ACK (module doc). A report that does not fit one PDU
    /// continues in further STATUS PDUs (up to `max_pdus`) that carry only BITMAPs of
    /// whole octets of SNs below VR(H) (no ACK, so every bit is information).
    pub fn build_status(&self, max_bits: u32, max_pdus: usize) -> Vec<StatusPdu> {
        let mut report = Vec::new();
        let mut fsn = self.vr_r;
        while report.len() < max_pdus {
            let first = report.is_empty();
            let mut sufis = Vec::new();
            // D/C + PDU type, and the ACK (first PDU) or NO_MORE (continuations).
            let mut used = 4 + if first { 16 } else { 4 };
            while fsn < self.vr_h {
                let mut span = (self.vr_h - fsn).min(128);
                if !first {
                    span = span / 8 * 8;
                    if span == 0 {
                        break;
                    }
                }
                let len = span.div_ceil(8) * 8;
                if used + 20 + len as u32 > max_bits {
                    break;
                }
                let bits = (0..len)
                    .map(|i| i < span && self.store.contains_key(&(fsn + i)))
                    .collect();
                sufis.push(Sufi::Bitmap { fsn, bits });
                used += 20 + len as u32;
                fsn += span;
            }
            if first {
                sufis.push(Sufi::Ack { lsn: fsn });
            } else if sufis.is_empty() {
                break;
            }
            report.push(StatusPdu { sufis });
        }
        report
    }

    /// The MAC tells how many transport blocks (correct or not) arrived in one TTI: the
    /// EPC counts them down after Timer_EPC expires (§9.7.2, R99).
    pub fn on_tbs_arrived(&mut self, now: SimTime, n: u32) {
        let Some(e) = self.epc.as_mut() else {
            return;
        };
        if now < e.start {
            return;
        }
        e.vr_ep = e.vr_ep.saturating_sub(u64::from(n));
        if e.vr_ep == 0 {
            let missing = e
                .requested
                .iter()
                .any(|&s| s >= self.vr_r && !self.store.contains_key(&s));
            self.epc = None;
            if missing {
                self.status_pending = true;
            }
        }
    }

    // ---- timers -----------------------------------------------------------------------

    pub fn next_timer(&self) -> Option<SimTime> {
        [self.timer_status_prohibit, self.timer_status_periodic]
            .into_iter()
            .flatten()
            .min()
    }

    pub fn on_timers(&mut self, now: SimTime) {
        if self.timer_status_prohibit.is_some_and(|t| t <= now) {
            // §9.5 d: a STATUS triggered meanwhile (still pending) goes out now.
            self.timer_status_prohibit = None;
        }
        if let (Some(t), Some(period)) = (
            self.timer_status_periodic,
            self.cfg.status.timer_status_periodic,
        ) {
            if t <= now {
                // §9.5 f: trigger a STATUS and restart.
                self.timer_status_periodic = Some(t + period);
                self.status_pending = true;
            }
        }
    }
}
