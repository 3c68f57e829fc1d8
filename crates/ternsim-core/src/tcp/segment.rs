//! Segments as ns-2 one-way TCP sends them: sequence numbers count packets, not bytes.

use crate::sim::SimTime;

/// A packet-counted sequence number. The first data packet is 0; an ACK carries the highest
/// in-order packet received (ack k covers packets 0..=k), and -1 means "nothing yet".
pub type Seq = i64;

/// One SACK block in packet numbers: packets `left..right` (right exclusive) were received.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SackBlock {
    pub left: Seq,
    pub right: Seq,
}

/// A data segment handed from the sender to the network.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DataSegment {
    pub seq: Seq,
    /// Size on the wire in bytes (payload plus TCP/IP header, per the ns-2 conventions).
    pub wire_bytes: u32,
    /// Application payload bytes in this segment.
    pub payload_bytes: u32,
    /// True when this sequence number was sent before.
    pub retransmission: bool,
    /// ns-2's congestion-action flag (`hdr_flags::cong_action_`, the `A` of a trace line's
    /// flags): set on the first packet sent after the window was cut.
    pub cong_action: bool,
    /// Time the sender emitted it (echoed by the sink, like a timestamp option).
    pub sent_at: SimTime,
}

/// Maximum SACK blocks an ACK can carry (RFC 2018 allows 4, 3 with timestamps; ns-2 uses 3).
pub const MAX_SACK_BLOCKS: usize = 4;

/// A cumulative acknowledgement, optionally with SACK blocks.
#[derive(Clone, Debug, PartialEq)]
pub struct AckSegment {
    /// Highest in-order packet received.
    pub ack: Seq,
    /// SACK blocks, boxed and present only when there are any: most ACKs carry none, and an
    /// inline array would make every packet 56 bytes larger to move.
    pub sack: Option<Box<[SackBlock; MAX_SACK_BLOCKS]>>,
    pub n_sack: u8,
    /// Size on the wire in bytes (40, plus 8 per SACK block in ns-2).
    pub wire_bytes: u32,
    /// `sent_at` of the data segment that triggered this ACK.
    pub echo_sent_at: SimTime,
    /// Sequence number of the data segment that triggered this ACK.
    pub echo_seq: Seq,
    /// ns-2's echoed timestamp (`hdr_tcp::ts_echo`): with `ts_echo_bugfix` (ns-2.35's
    /// default) the sink's `ts_to_echo_` (the send time of the latest segment that advanced
    /// or repeated what the last ACK acknowledged, `Acker::update_ts`), else the triggering
    /// segment's send time. A sender with the timestamp option samples its RTT from it.
    pub ts_echo: SimTime,
    /// Demo-Vegas's SIG bit (`ho-mobileip` seed §IV-B, Fig. 1): a reserved bit of the TCP
    /// header that the receiver flips on each change of its care-of address and sets on
    /// every ACK. It takes no bytes.
    pub sig: bool,
}

impl AckSegment {
    pub fn sack_blocks(&self) -> &[SackBlock] {
        match &self.sack {
            Some(blocks) => &blocks[..self.n_sack as usize],
            None => &[],
        }
    }
}
