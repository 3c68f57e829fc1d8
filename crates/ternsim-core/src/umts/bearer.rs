//! The radio bearer the host sees: PDCP + RLC at the RNC and at the UE, the downlink and
//! uplink DCH, and the Iub delay (link-spec §1.1, §1.11).
//!
//! Timing: each direction has a TTI grid starting at t = 0. At a downlink boundary t_k the
//! Node B MAC takes up to N TBs from the RNC entity; they arrive at the UE at
//! t_k + TTI + δ + Iub delay. The uplink is the same with the UE entity as source. STATUS
//! PDUs of the UE's receiver travel in uplink TBs (and the RNC's in downlink TBs).
//!
//! Order at one instant (deterministic): TB arrivals (downlink, then uplink), then RLC
//! timers (RNC, then UE), then TTI transmissions (downlink, then uplink). A STATUS
//! triggered by an arrival at a boundary therefore leaves at that boundary.
//!
//! SDU accounting: every SDU the bearer accepted is reported exactly once, in `delivered`
//! (at the receiving side) or in `discarded` (tagged with the side where it was
//! submitted). In UM a lost TB discards the SDUs it carried at once (the receiver could not
//! name an SDU that lay wholly inside the lost PDU).

use std::collections::HashMap;

use super::am::AmEntity;
use super::config::{BearerConfig, RlcMode};
use super::dch::{DchDirection, TransportBlock};
use super::event::{BearerEvent, RlcOutput, TxCounters};
use super::pdu::Pdu;
use super::um::UmEntity;
use super::{pdcp, Direction, SduId, Side};
use crate::channel::ErrorModel;
use crate::sim::{RandomStream, SimTime};

/// What one `advance` call produced. The host drains it; the bearer only pushes.
#[derive(Debug, Default)]
pub struct BearerOutput {
    /// SDUs handed up to IP at the given side (downlink SDUs are delivered at `Ue`).
    pub delivered: Vec<(Side, SduId)>,
    /// SDUs the RLC gave up on (MaxDAT discard, UM loss), with the side they were
    /// submitted at.
    pub discarded: Vec<(Side, SduId)>,
    /// Trace events, only pushed when `trace` is set.
    pub events: Vec<(SimTime, BearerEvent)>,
    pub trace: bool,
}

impl BearerOutput {
    pub fn clear(&mut self) {
        self.delivered.clear();
        self.discarded.clear();
        self.events.clear();
    }
}

/// Counters of one direction (downlink: RNC → UE).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DirectionStats {
    /// Transport blocks sent and received in error.
    pub tbs: u64,
    pub tb_errors: u64,
    /// Data PDUs sent for the first time, and sent again.
    pub data_pdus: u64,
    pub retransmissions: u64,
    /// Data PDUs sent with P=1.
    pub polls: u64,
    /// STATUS PDUs sent in this direction (ACK/BITMAP, MRW, MRW_ACK).
    pub status_pdus: u64,
    /// SDUs submitted at the sending side; refused by the SDU buffer limit.
    pub sdus_submitted: u64,
    pub sdus_refused: u64,
    pub sdus_delivered: u64,
    pub sdus_discarded: u64,
    /// IP octets of the delivered SDUs.
    pub bytes_delivered: u64,
}

/// Counters of both directions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BearerStats {
    pub down: DirectionStats,
    pub up: DirectionStats,
}

/// The RLC entity at one side.
#[derive(Clone, Debug)]
pub enum RlcEntity {
    Am(Box<AmEntity>),
    Um(UmEntity),
}

impl RlcEntity {
    fn submit(&mut self, id: SduId, bytes: u32) -> bool {
        match self {
            RlcEntity::Am(e) => e.submit(id, bytes),
            RlcEntity::Um(e) => e.submit(id, bytes),
        }
    }
    fn has_tx(&self) -> bool {
        match self {
            RlcEntity::Am(e) => e.has_tx(),
            RlcEntity::Um(e) => e.has_tx(),
        }
    }
    fn pull(&mut self, now: SimTime, max: u32, out: &mut RlcOutput) -> Vec<Pdu> {
        match self {
            RlcEntity::Am(e) => e.pull(now, max, out),
            RlcEntity::Um(e) => e.pull(now, max, out),
        }
    }
    fn receive(&mut self, now: SimTime, pdu: Pdu, out: &mut RlcOutput) {
        match self {
            RlcEntity::Am(e) => e.receive(now, pdu, out),
            RlcEntity::Um(e) => e.receive(now, pdu, out),
        }
    }
    fn on_tbs_arrived(&mut self, now: SimTime, n: u32) {
        if let RlcEntity::Am(e) = self {
            e.on_tbs_arrived(now, n);
        }
    }
    fn next_timer(&self) -> Option<SimTime> {
        match self {
            RlcEntity::Am(e) => e.next_timer(),
            RlcEntity::Um(_) => None,
        }
    }
    fn on_timers(&mut self, now: SimTime, out: &mut RlcOutput) {
        if let RlcEntity::Am(e) = self {
            e.on_timers(now, out);
        }
    }
    fn counters(&self) -> TxCounters {
        match self {
            RlcEntity::Am(e) => e.counters(),
            RlcEntity::Um(e) => e.counters(),
        }
    }
    /// Octets waiting for segmentation.
    pub fn buffered_bytes(&self) -> u64 {
        match self {
            RlcEntity::Am(e) => e.buffered_bytes(),
            RlcEntity::Um(e) => e.buffered_bytes(),
        }
    }
    /// The AM entity, if this is one (inspection).
    pub fn am(&self) -> Option<&AmEntity> {
        match self {
            RlcEntity::Am(e) => Some(e),
            RlcEntity::Um(_) => None,
        }
    }
    /// The UM entity, if this is one (inspection).
    pub fn um(&self) -> Option<&UmEntity> {
        match self {
            RlcEntity::Am(_) => None,
            RlcEntity::Um(e) => Some(e),
        }
    }
}

/// One radio bearer (module doc).
#[derive(Clone, Debug)]
pub struct RadioBearer {
    cfg: BearerConfig,
    rnc: RlcEntity,
    ue: RlcEntity,
    down: DchDirection,
    up: DchDirection,
    /// The latest time seen by `submit` or `advance`.
    clock: SimTime,
    /// SDUs inside the bearer: (submitting side, id) → IP octets.
    outstanding: HashMap<(Side, SduId), u32>,
    /// Per direction (0 = down, 1 = up): submitted, refused, delivered, discarded, bytes.
    sdu_counts: [[u64; 5]; 2],
    /// Last buffer occupancy reported per side (0 = RNC, 1 = UE).
    reported_occupancy: [u64; 2],
    scratch: RlcOutput,
}

fn dir_ix(side: Side) -> usize {
    match side {
        Side::Rnc => 0,
        Side::Ue => 1,
    }
}

impl RadioBearer {
    /// Builds the bearer. `cfg` must be valid ([`BearerConfig::validate`]).
    pub fn new(
        cfg: BearerConfig,
        down_error: ErrorModel,
        up_error: ErrorModel,
        down_rng: RandomStream,
        up_rng: RandomStream,
    ) -> Self {
        debug_assert_eq!(cfg.validate(), Ok(()));
        let entity = |side| match cfg.rlc.mode {
            RlcMode::Am => RlcEntity::Am(Box::new(AmEntity::new(cfg.rlc, side))),
            RlcMode::Um => RlcEntity::Um(UmEntity::new(cfg.rlc, side)),
        };
        let payload = cfg.rlc.payload_bytes;
        RadioBearer {
            rnc: entity(Side::Rnc),
            ue: entity(Side::Ue),
            down: DchDirection::new(
                cfg.down.tti,
                cfg.down.blocks(payload),
                cfg.down.extra_delay,
                cfg.iub_delay,
                cfg.down.error_clock,
                down_error,
                down_rng,
            ),
            up: DchDirection::new(
                cfg.up.tti,
                cfg.up.blocks(payload),
                cfg.up.extra_delay,
                cfg.iub_delay,
                cfg.up.error_clock,
                up_error,
                up_rng,
            ),
            cfg,
            clock: SimTime::ZERO,
            outstanding: HashMap::new(),
            sdu_counts: [[0; 5]; 2],
            reported_occupancy: [0; 2],
            scratch: RlcOutput::default(),
        }
    }

    pub fn config(&self) -> &BearerConfig {
        &self.cfg
    }

    /// The RLC entity at `side` (inspection).
    pub fn entity(&self, side: Side) -> &RlcEntity {
        match side {
            Side::Rnc => &self.rnc,
            Side::Ue => &self.ue,
        }
    }

    /// The DCH direction `dir` (inspection: TBs in flight, counters).
    pub fn dch(&self, dir: Direction) -> &DchDirection {
        match dir {
            Direction::Down => &self.down,
            Direction::Up => &self.up,
        }
    }

    /// An IP packet of `ip_bytes` enters PDCP/RLC at `side` (PDCP adds its header). Returns
    /// false if the RLC SDU buffer is full (the host drops the packet).
    pub fn submit(&mut self, now: SimTime, side: Side, id: SduId, ip_bytes: u32) -> bool {
        self.clock = self.clock.max(now);
        let sdu = pdcp::sdu_bytes(&self.cfg.pdcp, ip_bytes);
        let ix = dir_ix(side);
        self.sdu_counts[ix][0] += 1;
        let entity = match side {
            Side::Rnc => &mut self.rnc,
            Side::Ue => &mut self.ue,
        };
        if !entity.submit(id, sdu) {
            self.sdu_counts[ix][1] += 1;
            return false;
        }
        let previous = self.outstanding.insert((side, id), ip_bytes);
        debug_assert!(
            previous.is_none(),
            "SDU id {id} submitted twice at {side:?}"
        );
        true
    }

    /// Earliest time anything inside the bearer must happen: TB arrivals, RLC timers, and
    /// the next TTI boundary of a direction whose entity has something to send. None if
    /// idle. (Periodic RLC timers, when configured, keep it from ever being None.)
    pub fn next_event(&self) -> Option<SimTime> {
        let tx = |entity: &RlcEntity, dch: &DchDirection| {
            entity.has_tx().then(|| dch.next_boundary(self.clock))
        };
        [
            self.down.next_arrival(),
            self.up.next_arrival(),
            self.rnc.next_timer(),
            self.ue.next_timer(),
            tx(&self.rnc, &self.down),
            tx(&self.ue, &self.up),
        ]
        .into_iter()
        .flatten()
        .min()
    }

    /// Processes everything due at or before `now`, in time order (module doc), pushing
    /// results into `out`.
    pub fn advance(&mut self, now: SimTime, out: &mut BearerOutput) {
        self.scratch.trace = out.trace;
        while let Some(t) = self.next_event().filter(|&t| t <= now) {
            self.clock = self.clock.max(t);
            // 1. Arrivals.
            while let Some(tbs) = self.down.pop_arrival(t) {
                self.receive_tti(t, Direction::Down, tbs, out);
            }
            while let Some(tbs) = self.up.pop_arrival(t) {
                self.receive_tti(t, Direction::Up, tbs, out);
            }
            // 2. Timers.
            if self.rnc.next_timer().is_some_and(|x| x <= t) {
                self.rnc.on_timers(t, &mut self.scratch);
            }
            if self.ue.next_timer().is_some_and(|x| x <= t) {
                self.ue.on_timers(t, &mut self.scratch);
            }
            self.drain(out);
            // 3. TTI transmissions.
            for side in [Side::Rnc, Side::Ue] {
                let (entity, dch) = match side {
                    Side::Rnc => (&mut self.rnc, &mut self.down),
                    Side::Ue => (&mut self.ue, &mut self.up),
                };
                if entity.has_tx() && dch.next_boundary(t) == t {
                    let pdus = entity.pull(t, dch.blocks_per_tti(), &mut self.scratch);
                    dch.transmit(t, pdus);
                }
            }
            self.drain(out);
            self.report_occupancy(t, out);
        }
        self.clock = self.clock.max(now);
        self.report_occupancy(now, out);
    }

    fn receive_tti(
        &mut self,
        t: SimTime,
        dir: Direction,
        tbs: Vec<TransportBlock>,
        out: &mut BearerOutput,
    ) {
        let n = tbs.len() as u32;
        let (receiver, sender_side) = match dir {
            Direction::Down => (&mut self.ue, Side::Rnc),
            Direction::Up => (&mut self.rnc, Side::Ue),
        };
        for tb in tbs {
            if tb.error {
                let sn = match &tb.pdu {
                    Pdu::Amd(d) | Pdu::Umd(d) => Some(d.sn),
                    Pdu::Status(_) => None,
                };
                self.scratch.event(t, BearerEvent::BlockError { dir, sn });
                if let Pdu::Umd(d) = &tb.pdu {
                    // UM has no ARQ: the SDUs this PDU carried are lost.
                    self.scratch
                        .discarded
                        .extend(d.body.segments.iter().map(|s| (sender_side, s.sdu)));
                }
                continue;
            }
            receiver.receive(t, tb.pdu, &mut self.scratch);
        }
        receiver.on_tbs_arrived(t, n);
        self.drain(out);
    }

    /// Moves what the entities reported into `out`, once per SDU.
    fn drain(&mut self, out: &mut BearerOutput) {
        let mut scratch = std::mem::take(&mut self.scratch);
        for (side, id) in scratch.delivered.drain(..) {
            if let Some(bytes) = self.outstanding.remove(&(side, id)) {
                let c = &mut self.sdu_counts[dir_ix(side)];
                c[2] += 1;
                c[4] += u64::from(bytes);
                out.delivered.push((side.peer(), id));
            }
        }
        for (side, id) in scratch.discarded.drain(..) {
            if self.outstanding.remove(&(side, id)).is_some() {
                self.sdu_counts[dir_ix(side)][3] += 1;
                out.discarded.push((side, id));
                if out.trace {
                    out.events
                        .push((self.clock, BearerEvent::SduDiscarded { side, sdu: id }));
                }
            }
        }
        out.events.append(&mut scratch.events);
        self.scratch = scratch;
    }

    fn report_occupancy(&mut self, t: SimTime, out: &mut BearerOutput) {
        if !out.trace {
            return;
        }
        for side in [Side::Rnc, Side::Ue] {
            let bytes = self.entity(side).buffered_bytes();
            if bytes != self.reported_occupancy[dir_ix(side)] {
                self.reported_occupancy[dir_ix(side)] = bytes;
                out.events
                    .push((t, BearerEvent::BufferOccupancy { side, bytes }));
            }
        }
    }

    /// SDUs the host still owns a packet for (submitted, not yet delivered or discarded).
    pub fn buffered_sdus(&self) -> usize {
        self.outstanding.len()
    }

    /// Counters per direction.
    pub fn stats(&self) -> BearerStats {
        let direction = |side: Side, dch: &DchDirection| {
            let tx = self.entity(side).counters();
            let d = dch.counters();
            let c = self.sdu_counts[dir_ix(side)];
            DirectionStats {
                tbs: d.tbs,
                tb_errors: d.tb_errors,
                data_pdus: tx.data_pdus,
                retransmissions: tx.retransmissions,
                polls: tx.polls,
                status_pdus: tx.status_pdus,
                sdus_submitted: c[0],
                sdus_refused: c[1],
                sdus_delivered: c[2],
                sdus_discarded: c[3],
                bytes_delivered: c[4],
            }
        };
        BearerStats {
            down: direction(Side::Rnc, &self.down),
            up: direction(Side::Ue, &self.up),
        }
    }
}
