//! What the RLC entities report to the bearer: SDUs handed up or given up, counters and
//! trace events.

use super::pdu::StatusPdu;
use super::{Direction, SduId, Side, Sn};
use crate::sim::SimTime;

/// What a STATUS PDU said, for traces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StatusSummary {
    /// LSN of the ACK SUFI.
    pub lsn: Option<Sn>,
    /// SNs reported missing, ascending.
    pub nacks: Vec<Sn>,
    /// SN_MRW of an MRW SUFI.
    pub mrw: Option<Sn>,
    /// SN_ACK of an MRW_ACK SUFI.
    pub mrw_ack: Option<Sn>,
}

impl StatusSummary {
    pub fn of(s: &StatusPdu) -> Self {
        use super::pdu::Sufi;
        let mut mrw = None;
        let mut mrw_ack = None;
        for sufi in &s.sufis {
            match sufi {
                Sufi::Mrw { sn_mrw, .. } => mrw = Some(*sn_mrw),
                Sufi::MrwAck { sn_ack, .. } => mrw_ack = Some(*sn_ack),
                _ => {}
            }
        }
        StatusSummary {
            lsn: s.lsn(),
            nacks: s.nacks(),
            mrw,
            mrw_ack,
        }
    }
}

/// A trace-worthy moment inside the bearer; the bearer stamps each with its time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BearerEvent {
    /// A data PDU was handed to the MAC for transmission in `dir`.
    PduSent {
        dir: Direction,
        sn: Sn,
        retransmission: bool,
        poll: bool,
    },
    /// A STATUS PDU (ACK/BITMAP, MRW or MRW_ACK) was handed to the MAC in `dir`.
    StatusSent {
        dir: Direction,
        status: StatusSummary,
    },
    /// A STATUS PDU that travelled in `dir` was received correctly.
    StatusReceived {
        dir: Direction,
        status: StatusSummary,
    },
    /// A transport block in `dir` was received in error; `sn` is None for a control PDU.
    BlockError { dir: Direction, sn: Option<Sn> },
    /// Timer_Poll of the sender at `side` expired.
    PollTimerExpired { side: Side },
    /// An SDU submitted at `side` was discarded.
    SduDiscarded { side: Side, sdu: SduId },
    /// Octets waiting for segmentation in the RLC at `side` changed.
    BufferOccupancy { side: Side, bytes: u64 },
}

/// Transmit-side counters of one RLC entity.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TxCounters {
    /// Data PDUs sent for the first time.
    pub data_pdus: u64,
    /// Data PDUs sent again (NACKed, or chosen to carry a poll).
    pub retransmissions: u64,
    /// Data PDUs sent with P=1.
    pub polls: u64,
    /// STATUS PDUs sent (ACK/BITMAP, MRW, MRW_ACK).
    pub status_pdus: u64,
}

/// Filled by an entity during one call; the bearer drains it.
#[derive(Clone, Debug, Default)]
pub struct RlcOutput {
    /// SDUs handed up, keyed by the side where they were submitted.
    pub delivered: Vec<(Side, SduId)>,
    /// SDUs given up (by the sender after MaxDAT, or by a receiver that lost a piece),
    /// keyed by the side where they were submitted.
    pub discarded: Vec<(Side, SduId)>,
    pub events: Vec<(SimTime, BearerEvent)>,
    pub trace: bool,
}

impl RlcOutput {
    pub fn event(&mut self, now: SimTime, e: BearerEvent) {
        if self.trace {
            self.events.push((now, e));
        }
    }
}
