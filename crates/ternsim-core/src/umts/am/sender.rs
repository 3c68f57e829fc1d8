//! The transmitting half of an AM entity (TS 25.322 §9.4, §9.5, §9.7.1, §11.3.2, §11.3.4;
//! link-spec §1.4-§1.9).
//!
//! Owns: the SDU buffer, the transmission/retransmission buffer indexed by SN with VT(DAT)
//! per PDU, the state variables VT(S), VT(A), VT(WS) (VT(MS) = VT(A) + VT(WS)), VT(PDU),
//! VT(SDU), the poll machinery (triggers, Timer_Poll, Timer_Poll_Prohibit,
//! Timer_Poll_Periodic) and SDU discard after MaxDAT with MRW signalling.
//!
//! Order of service when the MAC asks for a data PDU (§11.3.2, link-spec §1.9):
//! retransmissions, lowest SN first; then new PDUs while VT(S) < VT(MS); then, if a poll is
//! owed and nothing else is sendable, a retransmission of VT(S) − 1 that carries it.
//!
//! Invariants: every PDU with VT(A) ≤ SN < VT(S) is in `tx`; `retx` holds only SNs of PDUs
//! that are neither acknowledged nor discarded.

use std::collections::{BTreeSet, VecDeque};

use crate::sim::SimTime;
use crate::umts::config::RlcConfig;
use crate::umts::event::{BearerEvent, RlcOutput, StatusSummary, TxCounters};
use crate::umts::pdu::{DataPdu, StatusPdu, Sufi};
use crate::umts::segmentation::{Layout, SduBuffer};
use crate::umts::{SduId, Side, Sn};

#[derive(Clone, Debug)]
struct TxPdu {
    pdu: DataPdu,
    /// VT(DAT): times this PDU has been scheduled for transmission.
    vt_dat: u32,
    acked: bool,
    /// All its data belongs to SDUs discarded after MaxDAT.
    discarded: bool,
}

/// The transmission buffer: the PDUs VT(A) ≤ SN < VT(S), each present (the invariant of
/// this module), kept in a ring indexed by SN − VT(A). A PDU enters at VT(S) and leaves
/// only at VT(A), so a lookup is an index, not a tree search.
#[derive(Clone, Debug, Default)]
struct TxWindow {
    /// The SN of the front PDU (VT(A) while the window is not empty).
    base: Sn,
    pdus: VecDeque<TxPdu>,
}

impl TxWindow {
    fn get(&self, sn: &Sn) -> Option<&TxPdu> {
        let i = usize::try_from(sn.checked_sub(self.base)?).ok()?;
        self.pdus.get(i)
    }

    fn get_mut(&mut self, sn: &Sn) -> Option<&mut TxPdu> {
        let i = usize::try_from(sn.checked_sub(self.base)?).ok()?;
        self.pdus.get_mut(i)
    }

    /// Adds the PDU with the next SN (VT(S)).
    fn insert(&mut self, sn: Sn, pdu: TxPdu) {
        if self.pdus.is_empty() {
            self.base = sn;
        }
        debug_assert_eq!(
            sn,
            self.base + self.pdus.len() as Sn,
            "PDUs enter in SN order"
        );
        self.pdus.push_back(pdu);
    }

    /// Removes the front PDU if it has SN `sn` (VT(A) moving up).
    fn remove(&mut self, sn: &Sn) -> Option<TxPdu> {
        if *sn != self.base || self.pdus.is_empty() {
            debug_assert!(self.get(sn).is_none(), "PDUs leave at VT(A) only");
            return None;
        }
        self.base += 1;
        self.pdus.pop_front()
    }

    /// The PDUs with SN in `from..to`, with their SNs.
    fn range(&self, from: Sn, to: Sn) -> impl Iterator<Item = (Sn, &TxPdu)> {
        let start = from.max(self.base);
        let skip = usize::try_from(start - self.base).unwrap_or(usize::MAX);
        let n = usize::try_from(to.saturating_sub(start)).unwrap_or(usize::MAX);
        self.pdus
            .iter()
            .skip(skip)
            .take(n)
            .enumerate()
            .map(move |(i, p)| (start + i as Sn, p))
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct MrwState {
    sn_mrw: Sn,
    n_length: u32,
    /// The MRW must be (re)sent at the next opportunity.
    send: bool,
    /// Timer_MRW expiry while waiting for MRW_ACK.
    timer: Option<SimTime>,
}

/// The AM sender.
#[derive(Clone, Debug)]
pub struct AmSender {
    cfg: RlcConfig,
    side: Side,
    sdus: SduBuffer,
    vt_s: Sn,
    vt_a: Sn,
    vt_ws: u32,
    tx: TxWindow,
    retx: BTreeSet<Sn>,
    vt_pdu: u32,
    vt_sdu: u32,
    /// SDUs counted as the Poll_SDU-th whose last segment has not been sent yet.
    poll_sdu_targets: VecDeque<SduId>,
    /// A poll is owed on the next PDU sent (timer expiry, periodic, deferred).
    poll_pending: bool,
    /// A poll was triggered while Timer_Poll_Prohibit ran.
    poll_deferred: bool,
    /// Timer_Poll: (expiry, x = VT(S) when the poll was sent).
    timer_poll: Option<(SimTime, Sn)>,
    timer_poll_prohibit: Option<SimTime>,
    timer_poll_periodic: Option<SimTime>,
    mrw: Option<MrwState>,
    counters: TxCounters,
}

impl AmSender {
    pub fn new(cfg: RlcConfig, side: Side) -> Self {
        let layout = Layout {
            capacity: cfg.data_field_bytes(),
            li_octets: cfg.li_octets(),
            concatenation: cfg.concatenation,
            min_concat_octets: cfg.min_concat_octets,
            exact_fill_li: cfg.exact_fill_li,
        };
        AmSender {
            sdus: SduBuffer::new(layout, cfg.sdu_buffer_bytes),
            side,
            vt_s: 0,
            vt_a: 0,
            vt_ws: cfg.tx_window,
            tx: TxWindow::default(),
            retx: BTreeSet::new(),
            vt_pdu: 0,
            vt_sdu: 0,
            poll_sdu_targets: VecDeque::new(),
            poll_pending: false,
            poll_deferred: false,
            timer_poll: None,
            timer_poll_prohibit: None,
            // §9.5 e: Timer_Poll_Periodic runs from the creation of the entity.
            timer_poll_periodic: cfg.poll.timer_poll_periodic,
            mrw: None,
            counters: TxCounters::default(),
            cfg,
        }
    }

    // ---- inspection -------------------------------------------------------------------

    pub fn vt_s(&self) -> Sn {
        self.vt_s
    }
    pub fn vt_a(&self) -> Sn {
        self.vt_a
    }
    /// VT(MS) = VT(A) + VT(WS): the first SN that may not be sent.
    pub fn vt_ms(&self) -> Sn {
        self.vt_a + Sn::from(self.vt_ws)
    }
    /// VT(DAT) of a PDU still in the transmission buffer.
    pub fn vt_dat(&self, sn: Sn) -> Option<u32> {
        self.tx.get(&sn).map(|p| p.vt_dat)
    }
    /// SNs scheduled for retransmission, ascending.
    pub fn retransmission_queue(&self) -> Vec<Sn> {
        self.retx.iter().copied().collect()
    }
    /// Expiry of Timer_Poll, if running.
    pub fn timer_poll(&self) -> Option<SimTime> {
        self.timer_poll.map(|(t, _)| t)
    }
    pub fn buffered_bytes(&self) -> u64 {
        self.sdus.bytes()
    }
    pub fn counters(&self) -> TxCounters {
        self.counters
    }

    // ---- upper layer ------------------------------------------------------------------

    /// An SDU from PDCP; false if the SDU buffer limit refuses it.
    pub fn submit(&mut self, id: SduId, bytes: u32) -> bool {
        self.sdus.push(id, bytes)
    }

    // ---- MAC --------------------------------------------------------------------------

    /// Whether a data PDU or an MRW could be sent now.
    pub fn has_tx(&self) -> bool {
        !self.retx.is_empty()
            || (!self.sdus.is_empty() && self.vt_s < self.vt_ms())
            || (self.poll_pending && self.vt_a < self.vt_s)
            || self.mrw.is_some_and(|m| m.send)
    }

    /// The MRW STATUS PDU if one must be sent (§11.6.2: the MRW goes out as a control PDU,
    /// ahead of data; Timer_MRW starts).
    pub fn pull_control(&mut self, now: SimTime, out: &mut RlcOutput) -> Option<StatusPdu> {
        let m = self.mrw.as_mut().filter(|m| m.send)?;
        m.send = false;
        m.timer = Some(now + self.cfg.timer_mrw);
        let status = StatusPdu {
            sufis: vec![Sufi::Mrw {
                sn_mrw: m.sn_mrw,
                n_length: m.n_length,
            }],
        };
        self.counters.status_pdus += 1;
        out.event(
            now,
            BearerEvent::StatusSent {
                dir: self.side.tx_direction(),
                status: StatusSummary::of(&status),
            },
        );
        Some(status)
    }

    /// The next data PDU for the MAC, in the order of the module doc.
    pub fn pull_data(&mut self, now: SimTime, out: &mut RlcOutput) -> Option<DataPdu> {
        // 1. Retransmissions, lowest SN first (§11.3.2.1).
        while let Some(sn) = self.retx.pop_first() {
            if let Some(pdu) = self.retransmit(now, sn, false, out) {
                return Some(pdu);
            }
        }
        // 2. New PDUs while VT(S) < VT(MS) (§9.4).
        if !self.sdus.is_empty() && self.vt_s < self.vt_ms() {
            return Some(self.send_new(now, out));
        }
        // 3. A poll with nothing to send: retransmit VT(S) − 1 with P=1 (§9.7.1;
        //    link-spec §1.7 and §8.7).
        if self.poll_pending && self.vt_a < self.vt_s {
            let carrier = (self.vt_a..self.vt_s)
                .rev()
                .find(|sn| self.tx.get(sn).is_some_and(|p| !p.discarded));
            match carrier {
                Some(sn) => return self.retransmit(now, sn, true, out),
                None => self.poll_pending = false,
            }
        }
        None
    }

    fn send_new(&mut self, now: SimTime, out: &mut RlcOutput) -> DataPdu {
        // Window-based trigger, VT(S) taken before the PDU is sent (§9.6, link-spec §1.5).
        let outstanding = self.vt_s - self.vt_a;
        let window_poll = self
            .cfg
            .poll
            .poll_window
            .is_some_and(|w| 100 * outstanding >= u64::from(w) * u64::from(self.vt_ws));
        let body = self
            .sdus
            .next_body()
            .expect("has_tx checked the SDU buffer");
        let sn = self.vt_s;
        self.vt_s += 1;
        // Poll_SDU (§9.7.1): VT(SDU) counts SDUs whose first segment is sent for the first
        // time; the poll goes on the PDU with the last segment of the Poll_SDU-th.
        let mut sdu_poll = false;
        for seg in &body.segments {
            if seg.first {
                if let Some(n) = self.cfg.poll.poll_sdu {
                    self.vt_sdu += 1;
                    if self.vt_sdu >= n {
                        self.vt_sdu = 0;
                        self.poll_sdu_targets.push_back(seg.sdu);
                    }
                }
            }
            if seg.last && self.poll_sdu_targets.front() == Some(&seg.sdu) {
                self.poll_sdu_targets.pop_front();
                sdu_poll = true;
            }
        }
        // "Last transmission PDU poll" (§9.7.1): nothing more waits for first transmission.
        let last_tx = self.cfg.poll.last_tx_pdu && self.sdus.is_empty();
        let mut pdu = DataPdu {
            sn,
            poll: false,
            body,
        };
        pdu.poll = self.decide_poll(now, last_tx || sdu_poll || window_poll);
        self.tx.insert(
            sn,
            TxPdu {
                pdu: pdu.clone(),
                vt_dat: 1,
                acked: false,
                discarded: false,
            },
        );
        self.counters.data_pdus += 1;
        out.event(
            now,
            BearerEvent::PduSent {
                dir: self.side.tx_direction(),
                sn,
                retransmission: false,
                poll: pdu.poll,
            },
        );
        pdu
    }

    /// Schedules PDU `sn` again, or runs the MaxDAT discard if VT(DAT) would reach MaxDAT.
    fn retransmit(
        &mut self,
        now: SimTime,
        sn: Sn,
        poll_carrier: bool,
        out: &mut RlcOutput,
    ) -> Option<DataPdu> {
        let vt_dat = self.tx.get(&sn)?.vt_dat + 1;
        // §9.6 a / §11.3.4.3: VT(DAT) = MaxDAT → do not send; discard the SDUs.
        if self.cfg.max_dat.is_some_and(|max| vt_dat >= max) {
            self.discard_after_max_dat(sn, out);
            return None;
        }
        let last_retx = self.cfg.poll.last_retx_pdu && !poll_carrier && self.retx.is_empty();
        let mut pdu = {
            let p = self.tx.get_mut(&sn).expect("checked above");
            p.vt_dat = vt_dat;
            p.pdu.clone()
        };
        pdu.poll = self.decide_poll(now, last_retx);
        self.counters.retransmissions += 1;
        out.event(
            now,
            BearerEvent::PduSent {
                dir: self.side.tx_direction(),
                sn,
                retransmission: true,
                poll: pdu.poll,
            },
        );
        Some(pdu)
    }

    /// Sets P on the PDU being sent if a trigger fired and Timer_Poll_Prohibit allows
    /// (§9.7.1); starts Timer_Poll and Timer_Poll_Prohibit when it does (§9.5 a, b).
    fn decide_poll(&mut self, now: SimTime, mut triggered: bool) -> bool {
        // Poll_PDU counts every AMD PDU sent, retransmissions included (VT(PDU), §9.4).
        if let Some(n) = self.cfg.poll.poll_pdu {
            self.vt_pdu += 1;
            if self.vt_pdu >= n {
                self.vt_pdu = 0;
                triggered = true;
            }
        }
        triggered |= self.poll_pending;
        if !triggered {
            return false;
        }
        self.poll_pending = false;
        if self.timer_poll_prohibit.is_some() {
            // §9.5 b: remembered, one poll when Timer_Poll_Prohibit expires.
            self.poll_deferred = true;
            return false;
        }
        self.counters.polls += 1;
        if let Some(t) = self.cfg.poll.timer_poll {
            // §9.5 a: x = VT(S) when the poll is sent; restarted by every newer poll.
            self.timer_poll = Some((now + t, self.vt_s));
        }
        if let Some(t) = self.cfg.poll.timer_poll_prohibit {
            self.timer_poll_prohibit = Some(now + t);
        }
        true
    }

    /// A poll trigger outside of PDU building (timer expiries, §9.7.1 items 3 and 7).
    fn trigger_poll(&mut self) {
        if self.timer_poll_prohibit.is_some() {
            self.poll_deferred = true;
        } else {
            self.poll_pending = true;
        }
    }

    // ---- peer receiver ----------------------------------------------------------------

    /// ACK/BITMAP and MRW_ACK information from a STATUS PDU (§11.5.3; link-spec §1.8 last
    /// paragraph).
    pub fn on_status(&mut self, status: &StatusPdu) {
        for sufi in &status.sufis {
            if let Sufi::MrwAck { sn_ack, .. } = *sufi {
                self.on_mrw_ack(sn_ack);
            }
        }
        let nacks = status.nacks();
        self.on_acks(status, &nacks);
        // §9.5 a: stop Timer_Poll if all PDUs up to x − 1 are acknowledged or x − 1 is
        // NACKed.
        if let Some((_, x)) = self.timer_poll {
            if self.vt_a >= x || nacks.binary_search(&(x - 1)).is_ok() {
                self.timer_poll = None;
            }
        }
    }

    /// Bitmap bits (below LSN when the PDU carries an ACK; all of them in a STATUS PDU that
    /// continues a report, §9.2.2.11.5), then the ACK rule.
    fn on_acks(&mut self, status: &StatusPdu, nacks: &[Sn]) {
        // NACKed PDUs are scheduled for retransmission once (a set ignores NACKs for PDUs
        // already scheduled).
        for &sn in nacks {
            if sn >= self.vt_a && sn < self.vt_s {
                if let Some(p) = self.tx.get(&sn) {
                    if !p.acked && !p.discarded {
                        self.retx.insert(sn);
                    }
                }
            }
        }
        let limit = status.lsn().unwrap_or(Sn::MAX);
        for sufi in &status.sufis {
            if let Sufi::Bitmap { fsn, bits } = sufi {
                for (i, _) in bits.iter().enumerate().filter(|(_, &b)| b) {
                    let sn = fsn + i as Sn;
                    if sn < limit {
                        self.ack(sn);
                    }
                }
            }
        }
        // Everything below LSN that is not NACKed is acknowledged (§9.2.2.11.2).
        let Some(lsn) = status.lsn() else {
            self.advance_vt_a();
            return;
        };
        let top = lsn.min(self.vt_s);
        let mut nack_iter = nacks.iter().peekable();
        for sn in self.vt_a..top {
            while nack_iter.next_if(|&&n| n < sn).is_some() {}
            if nack_iter.peek() == Some(&&sn) {
                continue;
            }
            self.ack(sn);
        }
        self.advance_vt_a();
    }

    fn ack(&mut self, sn: Sn) {
        if let Some(p) = self.tx.get_mut(&sn) {
            p.acked = true;
            self.retx.remove(&sn);
        }
    }

    fn advance_vt_a(&mut self) {
        while self.vt_a < self.vt_s && self.tx.get(&self.vt_a).is_some_and(|p| p.acked) {
            self.tx.remove(&self.vt_a);
            self.vt_a += 1;
        }
    }

    fn on_mrw_ack(&mut self, sn_ack: Sn) {
        // §11.6.3: an MRW_ACK with SN_ACK ≥ SN_MRW ends the procedure; VT(A) moves to
        // SN_MRW, freeing the discarded PDUs.
        let Some(m) = self.mrw else {
            return;
        };
        if sn_ack < m.sn_mrw {
            return;
        }
        self.mrw = None;
        while self.vt_a < m.sn_mrw.min(self.vt_s) {
            self.tx.remove(&self.vt_a);
            self.retx.remove(&self.vt_a);
            self.vt_a += 1;
        }
        self.advance_vt_a();
    }

    /// SDU discard after MaxDAT (§11.3.4.3): discard every SDU with a segment in a PDU
    /// VT(A) ≤ SN ≤ x, stop transmitting their PDUs and tell the receiver with an MRW whose
    /// SN_MRW is the PDU holding the end of the last discarded SDU (§11.6.2).
    fn discard_after_max_dat(&mut self, x: Sn, out: &mut RlcOutput) {
        let mut discard: Vec<SduId> = Vec::new();
        for (_, p) in self.tx.range(self.vt_a, x + 1) {
            for seg in &p.pdu.body.segments {
                if !discard.contains(&seg.sdu) {
                    discard.push(seg.sdu);
                }
            }
        }
        let Some(&last) = discard.last() else {
            return;
        };
        // Where does the last discarded SDU end?
        let end = self
            .tx
            .range(x, self.vt_s)
            .find(|(_, p)| p.pdu.body.segments.iter().any(|s| s.sdu == last && s.last))
            .map(|(sn, p)| (sn, p.pdu.body.segments.clone()));
        let (sn_mrw, n_length) = match end {
            Some((y, segs)) => {
                if segs.iter().all(|s| discard.contains(&s.sdu)) {
                    // PDU y carries only discarded data: the receiver restarts at y + 1.
                    (y + 1, 0)
                } else {
                    let n = segs
                        .iter()
                        .take_while(|s| s.sdu != last)
                        .filter(|s| s.last)
                        .count() as u32
                        + 1;
                    (y, n)
                }
            }
            None => {
                // The SDU's end has not been segmented yet: drop its rest from the buffer;
                // the next new PDU starts a fresh SDU.
                self.sdus.drop_partial_head(last);
                (self.vt_s, 0)
            }
        };
        if sn_mrw == self.vt_s {
            self.sdus.clear_pending_li();
        }
        for sn in self.vt_a..sn_mrw.min(self.vt_s) {
            if let Some(p) = self.tx.get_mut(&sn) {
                p.discarded = true;
            }
            self.retx.remove(&sn);
        }
        self.poll_sdu_targets.retain(|id| !discard.contains(id));
        self.mrw = Some(MrwState {
            sn_mrw,
            n_length,
            send: true,
            timer: None,
        });
        out.discarded
            .extend(discard.iter().map(|&id| (self.side, id)));
        // The timer of a poll carried by a discarded PDU would only resend it.
        if self.timer_poll.is_some_and(|(_, xp)| xp <= sn_mrw) {
            self.timer_poll = None;
        }
    }

    // ---- timers -----------------------------------------------------------------------

    pub fn next_timer(&self) -> Option<SimTime> {
        [
            self.timer_poll.map(|(t, _)| t),
            self.timer_poll_prohibit,
            self.timer_poll_periodic,
            self.mrw.and_then(|m| m.timer),
        ]
        .into_iter()
        .flatten()
        .min()
    }

    /// Runs every timer due at or before `now`.
    pub fn on_timers(&mut self, now: SimTime, out: &mut RlcOutput) {
        if let Some((t, _)) = self.timer_poll {
            if t <= now {
                // §9.5 a: expiry triggers a poll.
                self.timer_poll = None;
                out.event(now, BearerEvent::PollTimerExpired { side: self.side });
                if self.vt_a < self.vt_s {
                    self.trigger_poll();
                }
            }
        }
        if let Some(t) = self.timer_poll_prohibit {
            if t <= now {
                // §9.5 b: a poll triggered meanwhile is sent now.
                self.timer_poll_prohibit = None;
                if self.poll_deferred {
                    self.poll_deferred = false;
                    self.poll_pending = true;
                }
            }
        }
        if let (Some(t), Some(period)) =
            (self.timer_poll_periodic, self.cfg.poll.timer_poll_periodic)
        {
            if t <= now {
                // §9.5 e: poll if anything waits or is unacknowledged; restart.
                self.timer_poll_periodic = Some(t + period);
                if !self.sdus.is_empty() || self.vt_a < self.vt_s {
                    self.trigger_poll();
                }
            }
        }
        if let Some(m) = self.mrw.as_mut() {
            if m.timer.is_some_and(|t| t <= now) {
                // §9.5 g: resend the MRW (MaxMRW is not enforced, see module doc of `am`).
                m.timer = None;
                m.send = true;
            }
        }
    }
}

#[cfg(test)]
mod tx_window_tests {
    use super::*;
    use crate::umts::pdu::PduBody;

    fn pdu(sn: Sn) -> TxPdu {
        TxPdu {
            pdu: DataPdu {
                sn,
                poll: false,
                body: PduBody::default(),
            },
            vt_dat: 1,
            acked: false,
            discarded: false,
        }
    }

    /// SNs 5, 6, 7 enter; lookups outside [VT(A), VT(S)) find nothing; ranges clip to the
    /// window; only the front leaves, and VT(A) moves with it.
    #[test]
    fn the_window_holds_vt_a_to_vt_s_and_frees_from_the_front() {
        let mut w = TxWindow::default();
        for sn in 5..8 {
            w.insert(sn, pdu(sn));
        }
        assert_eq!(w.get(&6).map(|p| p.pdu.sn), Some(6));
        assert!(w.get(&4).is_none() && w.get(&8).is_none());
        w.get_mut(&7).unwrap().acked = true;
        let sns = |from, to, w: &TxWindow| w.range(from, to).map(|(sn, _)| sn).collect::<Vec<_>>();
        assert_eq!(sns(0, 100, &w), vec![5, 6, 7]);
        assert_eq!(sns(6, 7, &w), vec![6]);
        assert_eq!(sns(7, 6, &w), Vec::<Sn>::new());
        assert!(w.range(7, 8).all(|(sn, p)| sn == p.pdu.sn && p.acked));
        assert_eq!(w.remove(&5).map(|p| p.pdu.sn), Some(5));
        assert_eq!((w.base, w.pdus.len()), (6, 2));
        assert!(w.get(&5).is_none());
        w.remove(&6);
        w.remove(&7);
        // Empty: the next PDU (VT(S) = 8) starts the window again.
        w.insert(8, pdu(8));
        assert_eq!(sns(0, 100, &w), vec![8]);
    }
}
