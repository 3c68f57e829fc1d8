//! RLC PDUs as the simulator carries them (TS 25.322 §9.2; link-spec §1.2).
//!
//! A data PDU keeps the exact layout that decides its size (length indicators, padding) and,
//! instead of octets, the [`Segment`]s of the SDUs it carries. Segments name their SDU and
//! say whether they are its first and last pieces; a real receiver derives the same facts
//! from the LIs and the order of PDUs, and our receivers use them only where the LIs would
//! tell them the same thing.
//!
//! A STATUS PDU is a list of super-fields with its exact size in bits (§9.2.2.11).

use super::{SduId, Sn};

/// A piece of one SDU inside a PDU's data field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Segment {
    pub sdu: SduId,
    /// Data octets of this piece.
    pub bytes: u32,
    /// The piece starts the SDU.
    pub first: bool,
    /// The piece ends the SDU.
    pub last: bool,
}

/// One length indicator (7+1 or 15+1 bits, §9.2.2.8), in the order they appear.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Li {
    /// An SDU ends after this many data octets, counted from the first data octet
    /// (cumulative, link-spec §1.2.1).
    End(u32),
    /// "0000000": the previous PDU was exactly filled by the end of an SDU.
    ExactFill,
    /// "111111111111011" (15-bit LIs only): the previous PDU was one octet short of being
    /// filled by the end of an SDU; its last octet is ignored.
    OneShort,
    /// "1111111": the rest of the PDU is padding.
    Padding,
}

/// The data field of an AMD or UMD PDU.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PduBody {
    pub segments: Vec<Segment>,
    pub lis: Vec<Li>,
    /// Padding octets after the data and LIs (including an ignored "one short" octet).
    pub padding: u32,
}

impl PduBody {
    /// Data octets (sum of the segments).
    pub fn data_bytes(&self) -> u32 {
        self.segments.iter().map(|s| s.bytes).sum()
    }
}

/// An AMD PDU (§9.2.1.4) or, with `poll` false, a UMD PDU (§9.2.1.3).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataPdu {
    pub sn: Sn,
    /// The poll bit P (AMD only).
    pub poll: bool,
    pub body: PduBody,
}

/// A super-field of a STATUS PDU (§9.2.2.11; sizes in link-spec §1.2.2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sufi {
    /// Bit i describes FSN + i: true = received, false = missing. 8 to 128 bits, whole
    /// octets.
    Bitmap { fsn: Sn, bits: Vec<bool> },
    /// Everything below LSN not NACKed earlier in this STATUS is received; information on
    /// SN ≥ LSN earlier in this STATUS is not acted on (our reading of §9.2.2.11.2). Always
    /// the last SUFI.
    Ack { lsn: Sn },
    /// Move receiving window (SDU discard, §9.2.2.11.8): SN_MRW with LENGTH = 1, and
    /// N_LENGTH = how many SDU ends ("LIs") in PDU SN_MRW belong to discarded SDUs.
    Mrw { sn_mrw: Sn, n_length: u32 },
    /// Acknowledges an MRW (§9.2.2.11.9): the receiver's VR(R) after moving.
    MrwAck { n: u32, sn_ack: Sn },
}

impl Sufi {
    /// Size in bits, type field included.
    pub fn bits(&self) -> u32 {
        match self {
            // type 4, LENGTH 4, FSN 12, bitmap
            Sufi::Bitmap { bits, .. } => 20 + bits.len() as u32,
            // type 4, LSN 12
            Sufi::Ack { .. } => 16,
            // type 4, LENGTH 4, one SN_MRW 12, N_LENGTH 4
            Sufi::Mrw { .. } => 24,
            // type 4, N 4, SN_ACK 12
            Sufi::MrwAck { .. } => 20,
        }
    }
}

/// A STATUS PDU: D/C (1 bit), PDU type (3 bits), SUFIs, and NO_MORE (4 bits) unless the
/// list ends with ACK (§9.2.1.6, §9.2.2.11.1), padded to the PDU size on the channel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StatusPdu {
    pub sufis: Vec<Sufi>,
}

impl StatusPdu {
    /// Size in bits before padding.
    pub fn bits(&self) -> u32 {
        let sufis: u32 = self.sufis.iter().map(Sufi::bits).sum();
        let no_more = match self.sufis.last() {
            Some(Sufi::Ack { .. }) => 0,
            _ => 4,
        };
        4 + sufis + no_more
    }

    /// Whether it carries acknowledgement information (ACK/BITMAP), which
    /// Timer_Status_Prohibit governs (§9.5 d).
    pub fn has_ack_info(&self) -> bool {
        self.sufis
            .iter()
            .any(|s| matches!(s, Sufi::Ack { .. } | Sufi::Bitmap { .. }))
    }

    /// The SNs this STATUS reports missing (below its ACK's LSN).
    pub fn nacks(&self) -> Vec<Sn> {
        let lsn = self.lsn().unwrap_or(Sn::MAX);
        let mut out = Vec::new();
        for s in &self.sufis {
            if let Sufi::Bitmap { fsn, bits } = s {
                for (i, &b) in bits.iter().enumerate() {
                    let sn = fsn + i as Sn;
                    if !b && sn < lsn {
                        out.push(sn);
                    }
                }
            }
        }
        out
    }

    /// The LSN of the ACK SUFI, if any.
    pub fn lsn(&self) -> Option<Sn> {
        self.sufis.iter().find_map(|s| match s {
            Sufi::Ack { lsn } => Some(*lsn),
            _ => None,
        })
    }
}

/// Any RLC PDU on a transport block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pdu {
    /// AMD PDU.
    Amd(DataPdu),
    /// UMD PDU.
    Umd(DataPdu),
    /// STATUS PDU (control).
    Status(StatusPdu),
}

impl Pdu {
    pub fn is_control(&self) -> bool {
        matches!(self, Pdu::Status(_))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_sizes_follow_the_sufi_layouts() {
        // ACK alone: 4 (D/C + type) + 16.
        let ack = StatusPdu {
            sufis: vec![Sufi::Ack { lsn: 7 }],
        };
        assert_eq!(ack.bits(), 20);
        // One 8-bit bitmap + ACK: 4 + (20 + 8) + 16 = 48.
        let bm = StatusPdu {
            sufis: vec![
                Sufi::Bitmap {
                    fsn: 3,
                    bits: vec![false, true, true, false, true, false, false, false],
                },
                Sufi::Ack { lsn: 8 },
            ],
        };
        assert_eq!(bm.bits(), 48);
        assert_eq!(bm.nacks(), vec![3, 6]); // 8..10 are at or above LSN: not NACKs
        assert!(bm.has_ack_info());
        // MRW alone: 4 + 24 + NO_MORE 4.
        let mrw = StatusPdu {
            sufis: vec![Sufi::Mrw {
                sn_mrw: 5,
                n_length: 1,
            }],
        };
        assert_eq!(mrw.bits(), 32);
        assert!(!mrw.has_ack_info());
    }
}
