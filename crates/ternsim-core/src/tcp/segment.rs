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

/// The ECN bits of a TCP packet (RFC 3168), as ns-2 keeps them in `hdr_flags` (`flags.h`) and
/// prints them in a trace line's flags: `ect` (the `N`: ECN-capable transport, RFC 3168 §5),
/// `ce` (the `E`: congestion experienced, set by a marking router), `ece` (the `C`: ECN-Echo,
/// RFC 3168 §6.1.3, and ns-2's ECN-setup mark on packet 0). The congestion-action bit (CWR,
/// `A`) is [`DataSegment::cong_action`]. All false unless the sender has `ecn`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EcnFlags {
    pub ect: bool,
    pub ce: bool,
    pub ece: bool,
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
    pub ecn: EcnFlags,
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
    /// ECN-Echo (`ece`) as the sink sets it; `ce` if a router marked the ACK.
    pub ecn: EcnFlags,
}

impl AckSegment {
    pub fn sack_blocks(&self) -> &[SackBlock] {
        match &self.sack {
            Some(blocks) => &blocks[..self.n_sack as usize],
            None => &[],
        }
    }
}
