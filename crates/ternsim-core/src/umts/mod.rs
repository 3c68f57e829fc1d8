//! The UMTS radio access model: one radio bearer on dedicated channels (link-spec §1).
//!
//! What this module owns: everything between the IP layer of the RNC and the IP layer of the
//! UE for one packet-switched radio bearer: PDCP (one header octet, optional header
//! compression), the two peer RLC entities (acknowledged mode per TS 25.322, or
//! unacknowledged mode), MAC-d (transparent: one RLC PDU per transport block, 0-bit header)
//! and the downlink and uplink DCH with their TTI grids and per-transport-block error
//! decisions. The host sees one sans-IO object, [`RadioBearer`]: it submits IP packets at a
//! [`Side`], asks [`RadioBearer::next_event`] when to call back, and collects delivered and
//! discarded SDUs from [`RadioBearer::advance`].
//!
//! Layers, one idea per file:
//! - [`config`]: every knob with its default and the clause it comes from.
//! - [`pdu`]: AMD/UMD PDUs (segments, length indicators, poll bit) and the STATUS PDU with
//!   its super-fields and exact size in bits.
//! - [`segmentation`]: the transmission SDU buffer; SDUs → fixed-size PDU bodies with LIs,
//!   padding and optional concatenation (TS 25.322 §11.2.2, §11.3.2; link-spec §1.3).
//! - [`am`]: the acknowledged-mode entity, a sender half ([`am::sender`]) and a receiver
//!   half ([`am::receiver`]).
//! - [`um`]: unacknowledged mode (no ARQ; incomplete SDUs are discarded).
//! - [`pdcp`]: PDCP header and header compression sizes (TS 25.323).
//! - [`dch`]: one direction of a DCH (TTI grid, transport blocks, error model).
//! - [`event`]: what entities report (delivered/discarded SDUs, counters, trace events).
//! - [`bearer`]: the [`RadioBearer`] that wires two entities and two DCH directions, and its
//!   output, events and statistics.
//!
//! Sequence numbers: RLC sequence numbers are unbounded `u64` ([`Sn`]) internally. The
//! 12-bit (AM) and 7-bit (UM) moduli of TS 25.322 §9.2.2.3 matter only for the size of the
//! fields (they are counted in PDU and SUFI sizes) and for the limit on window sizes that a
//! real implementation needs to keep modular comparisons unambiguous (§9.4, windows ≤ 2047).
//! With unbounded numbers every comparison is exact, so any window size is accepted (the
//! lo-umts study uses 4096).
//!
//! Invariants: time only moves forward through `advance`; every SDU accepted by `submit` is
//! eventually reported exactly once, as delivered or as discarded, unless it is still inside
//! the bearer ([`RadioBearer::buffered_sdus`]). Nothing here draws randomness except the
//! DCH error decisions, from the two streams the host hands in.
//!
//! Deviations from TS 25.322 and link-spec, each for a stated reason:
//! - No RESET/RESET ACK and no MaxMRW: the only discard mode is "after MaxDAT" with MRW
//!   (or none), so no unrecoverable error arises; an MRW is resent every Timer_MRW until
//!   acknowledged.
//! - No piggy-backed STATUS: a STATUS always takes a TB of its own (EURANE piggy-backs into
//!   padding after waiting up to 10 ms; lo-umts does not say).
//! - STATUS encoding uses BITMAP + ACK only (LIST/RLIST/WINDOW never generated); a report
//!   too long for one PDU continues in further PDUs of the same TTI (`am::receiver`).
//! - The RLC SDU buffer limit counts octets not yet segmented; the retransmission buffer
//!   is not limited (it is bounded by the window).
//! - Segments carry their SDU id and first/last flags so that the simulator knows which
//!   packet a piece belongs to; LIs are still built exactly and counted in the PDU size.
//! - No Timer_Discard (only MaxDAT-based discard).
//!
//! Not here: RESET/RESET ACK (an unrecoverable error cannot happen without a no_discard
//! MaxDAT mode, which is not modelled), piggy-backed STATUS, HS-DSCH, TFC selection between
//! several logical channels, common channels, and the wired Iub/Iu links beyond one constant
//! delay.

pub mod am;
pub mod bearer;
pub mod config;
pub mod dch;
pub mod event;
pub mod pdcp;
pub mod pdu;
pub mod segmentation;
pub mod um;

#[cfg(test)]
mod tests;

pub use bearer::{BearerOutput, BearerStats, DirectionStats, RadioBearer};
pub use config::{
    BearerConfig, DchConfig, ErrorClock, PdcpConfig, PollConfig, RlcConfig, RlcMode, StatusConfig,
};
pub use event::{BearerEvent, StatusSummary};

/// The host's identifier of one IP packet (= one PDCP/RLC SDU).
pub type SduId = u64;

/// An RLC sequence number, unbounded (see the module doc).
pub type Sn = u64;

/// Where an SDU enters the bearer or is delivered. The downlink runs RNC → UE.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    Rnc,
    Ue,
}

impl Side {
    /// The direction in which this side transmits.
    pub fn tx_direction(self) -> Direction {
        match self {
            Side::Rnc => Direction::Down,
            Side::Ue => Direction::Up,
        }
    }
    /// The other end of the bearer.
    pub fn peer(self) -> Side {
        match self {
            Side::Rnc => Side::Ue,
            Side::Ue => Side::Rnc,
        }
    }
}

/// One direction of the radio bearer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Direction {
    /// RNC → UE.
    Down,
    /// UE → RNC.
    Up,
}
