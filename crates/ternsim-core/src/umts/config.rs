//! Radio bearer parameters with their defaults and where each comes from.
//!
//! `Default` is the lo-umts profile (seed paper 000, Lo, Heijenk and Niemegeers, Table 3 and
//! §4): RLC AM with in-sequence delivery, 320-bit payload + 16-bit header, window 4096,
//! poll on the last PDU in the buffer / in the retransmission buffer / on send-window
//! utilisation, STATUS on missing-PDU detection, a poll timer and a status prohibit timer,
//! 384 kb/s downlink with a 10 ms TTI and 64 kb/s uplink with a 20 ms TTI, no MaxDAT. The
//! paper gives no timer values; those default to the EURANE values of link-spec §1.12
//! (`poll_timeout_` 170 ms, `stprob_timeout_` 150 ms), the model its ns-2 extension follows.
//! [`BearerConfig::costamagna`] is seed paper 004 (Table 1: 38+2-octet PDUs, window 15, a
//! STATUS every 5 PDUs).

use crate::sim::SimTime;

/// RLC transfer mode (TS 25.322 §4.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RlcMode {
    /// Acknowledged mode: selective-repeat ARQ with STATUS reports (§4.2.1.3).
    Am,
    /// Unacknowledged mode: segmentation and sequence numbers, no ARQ (§4.2.1.2).
    Um,
}

/// Sender poll triggers (TS 25.322 §9.7.1; link-spec §1.7). Each is switched separately.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PollConfig {
    /// "Last transmission PDU poll": P=1 on the last PDU available for first transmission.
    /// Default true (lo-umts Table 1, "last block in buffer").
    pub last_tx_pdu: bool,
    /// "Last retransmission PDU poll": P=1 on the last PDU of the retransmission buffer.
    /// Default true (lo-umts Table 1).
    pub last_retx_pdu: bool,
    /// Poll_PDU: P=1 every this many transmitted AMD PDUs, retransmissions included
    /// (VT(PDU), §9.4). Default None (not selected by lo-umts; EURANE uses 256).
    pub poll_pdu: Option<u32>,
    /// Poll_SDU: P=1 on the PDU carrying the last segment of every this-many-th SDU
    /// (VT(SDU), §9.4). Default None.
    pub poll_sdu: Option<u32>,
    /// Poll_Window in percent: P=1 when J = 100·(VT(S) − VT(A))/VT(WS) ≥ Poll_Window, VT(S)
    /// taken before the PDU is sent (§9.6; link-spec §1.5). Default Some(80): lo-umts selects
    /// the trigger without a value; 80 % is one of the values RRC can signal.
    pub poll_window: Option<u32>,
    /// Timer_Poll (§9.5 a). Default 170 ms (EURANE `poll_timeout_`).
    pub timer_poll: Option<SimTime>,
    /// Timer_Poll_Prohibit (§9.5 b). Default None (neither lo-umts nor EURANE use it).
    pub timer_poll_prohibit: Option<SimTime>,
    /// Timer_Poll_Periodic (§9.5 e). Default None.
    pub timer_poll_periodic: Option<SimTime>,
}

impl Default for PollConfig {
    fn default() -> Self {
        PollConfig {
            last_tx_pdu: true,
            last_retx_pdu: true,
            poll_pdu: None,
            poll_sdu: None,
            poll_window: Some(80),
            timer_poll: Some(SimTime::from_millis(170)),
            timer_poll_prohibit: None,
            timer_poll_periodic: None,
        }
    }
}

impl PollConfig {
    /// Every trigger off (tests switch on the one they exercise).
    pub fn none() -> Self {
        PollConfig {
            last_tx_pdu: false,
            last_retx_pdu: false,
            poll_pdu: None,
            poll_sdu: None,
            poll_window: None,
            timer_poll: None,
            timer_poll_prohibit: None,
            timer_poll_periodic: None,
        }
    }
}

/// Receiver STATUS triggers (TS 25.322 §9.7.2; link-spec §1.8). A received poll always
/// triggers a STATUS.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StatusConfig {
    /// "Missing PDU indicator": STATUS when a PDU with SN > VR(H) arrives. Default true
    /// (lo-umts Table 2, "detection of missing blocks").
    pub missing_pdu_indicator: bool,
    /// Timer_Status_Prohibit (§9.5 d). Default 150 ms (EURANE `stprob_timeout_`).
    pub timer_status_prohibit: Option<SimTime>,
    /// Timer_Status_Periodic (§9.5 f). Default None.
    pub timer_status_periodic: Option<SimTime>,
    /// Timer_EPC (§9.5 c, R99 only): enables the estimated PDU counter. Default None.
    pub timer_epc: Option<SimTime>,
}

impl Default for StatusConfig {
    fn default() -> Self {
        StatusConfig {
            missing_pdu_indicator: true,
            timer_status_prohibit: Some(SimTime::from_millis(150)),
            timer_status_periodic: None,
            timer_epc: None,
        }
    }
}

impl StatusConfig {
    /// Only a received poll triggers a STATUS; no timers.
    pub fn none() -> Self {
        StatusConfig {
            missing_pdu_indicator: false,
            timer_status_prohibit: None,
            timer_status_periodic: None,
            timer_epc: None,
        }
    }
}

/// One RLC entity's parameters (both peers of a bearer use the same, as RRC configures them).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RlcConfig {
    pub mode: RlcMode,
    /// AMD PDU data field in octets (payload), LIs included. Default 40 (lo-umts: 320 bits;
    /// TS 34.108 PS RABs).
    pub payload_bytes: u32,
    /// AMD PDU fixed header in octets: D/C, SN(12), P, HE (§9.2.1.4). Default 2. One
    /// transport block carries `payload_bytes + header_bytes` octets; a UMD PDU of the same
    /// size has a 1-octet header (§9.2.1.3) and so one more data octet.
    pub header_bytes: u32,
    /// Configured_Tx_Window_Size, VT(WS) (§9.4). Default 4096 (lo-umts Table 3).
    pub tx_window: u32,
    /// Configured_Rx_Window_Size: VR(MR) = VR(R) + this (§9.4). Default 4096.
    pub rx_window: u32,
    pub poll: PollConfig,
    pub status: StatusConfig,
    /// MaxDAT (§9.6 a): `None` = unlimited, fully persistent ARQ (EURANE, lo-umts).
    /// `Some(n)`: VT(DAT) counts the times a PDU is scheduled for transmission; when it
    /// would reach n the PDU is not sent again and the SDU discard "after MaxDAT" procedure
    /// runs (§11.3.4.3, MRW §11.6). So a PDU is transmitted at most n − 1 times (the
    /// current 25.322 wording; link-spec §8.1). A study that reads MaxDAT as "n
    /// retransmissions" sets `Some(n + 2)`.
    pub max_dat: Option<u32>,
    /// Timer_MRW (§9.5 g): retransmission interval of an unacknowledged MRW. Default 100 ms.
    pub timer_mrw: SimTime,
    /// In-sequence delivery of SDUs (§9.6, §11.3.3). Default true (lo-umts Table 3).
    pub in_sequence_delivery: bool,
    /// Limit on the octets waiting in the transmission SDU buffer (not yet segmented);
    /// an SDU that would exceed it is refused (tail drop, as EURANE `maxRBSize_`).
    /// Default None (unlimited).
    pub sdu_buffer_bytes: Option<u64>,
    /// Concatenation: start the next SDU in the space left after an SDU ends (§11.3.2.1).
    /// Default false (lo-umts Fig. 4 segments one PDCP packet at a time).
    pub concatenation: bool,
    /// With concatenation, the least free octets (after the ending SDU's LI) worth starting
    /// the next SDU in; less is padding. Default 1 (EURANE `min_concat_data_` = 3).
    pub min_concat_octets: u32,
    /// Send the special LI "0000000" (§9.2.2.8) in the next PDU when an SDU exactly filled
    /// a PDU (and, with 15-bit LIs, the "one octet short" LI). Default true (25.322); EURANE
    /// never generates it (link-spec §1.12).
    pub exact_fill_li: bool,
}

impl Default for RlcConfig {
    fn default() -> Self {
        RlcConfig {
            mode: RlcMode::Am,
            payload_bytes: 40,
            header_bytes: 2,
            tx_window: 4096,
            rx_window: 4096,
            poll: PollConfig::default(),
            status: StatusConfig::default(),
            max_dat: None,
            timer_mrw: SimTime::from_millis(100),
            in_sequence_delivery: true,
            sdu_buffer_bytes: None,
            concatenation: false,
            min_concat_octets: 1,
            exact_fill_li: true,
        }
    }
}

impl RlcConfig {
    /// Octets in one transport block (= one RLC PDU; MAC-d header 0 bits).
    pub fn pdu_bytes(&self) -> u32 {
        self.payload_bytes + self.header_bytes
    }

    /// Data-field octets of a PDU in this mode (UM headers are 1 octet, §9.2.1.3).
    pub fn data_field_bytes(&self) -> u32 {
        match self.mode {
            RlcMode::Am => self.payload_bytes,
            RlcMode::Um => self.pdu_bytes() - 1,
        }
    }

    /// Octets per LI+E: 1 (7-bit LI) if the PDU is at most 126 octets in AM or 125 octets in
    /// UM, else 2 (15-bit LI) (§9.2.2.8; link-spec §1.2.1).
    pub fn li_octets(&self) -> u32 {
        let limit = match self.mode {
            RlcMode::Am => 126,
            RlcMode::Um => 125,
        };
        if self.pdu_bytes() <= limit {
            1
        } else {
            2
        }
    }

    /// Refuses impossible values, naming the field.
    pub fn validate(&self) -> Result<(), String> {
        if self.payload_bytes < 3 {
            return Err(format!(
                "rlc.payload_bytes = {} is too small (at least 3)",
                self.payload_bytes
            ));
        }
        if self.header_bytes < 2 {
            return Err(format!(
                "rlc.header_bytes = {} is too small: the AMD header is 2 octets",
                self.header_bytes
            ));
        }
        if self.tx_window == 0 || self.rx_window == 0 {
            return Err("rlc.tx_window and rlc.rx_window must be at least 1".into());
        }
        if let Some(n) = self.max_dat {
            if n < 2 {
                return Err(format!(
                    "rlc.max_dat = {n}: MaxDAT allows n - 1 transmissions, so it must be >= 2"
                ));
            }
        }
        if let Some(w) = self.poll.poll_window {
            if w == 0 || w > 100 {
                return Err(format!(
                    "rlc.poll.poll_window = {w} is not a percentage in 1..=100"
                ));
            }
        }
        if self.poll.poll_pdu == Some(0) || self.poll.poll_sdu == Some(0) {
            return Err("rlc.poll.poll_pdu and poll_sdu must be at least 1".into());
        }
        let timers = [
            ("rlc.poll.timer_poll", self.poll.timer_poll),
            (
                "rlc.poll.timer_poll_prohibit",
                self.poll.timer_poll_prohibit,
            ),
            (
                "rlc.poll.timer_poll_periodic",
                self.poll.timer_poll_periodic,
            ),
            (
                "rlc.status.timer_status_prohibit",
                self.status.timer_status_prohibit,
            ),
            (
                "rlc.status.timer_status_periodic",
                self.status.timer_status_periodic,
            ),
            ("rlc.status.timer_epc", self.status.timer_epc),
            ("rlc.timer_mrw", Some(self.timer_mrw)),
        ];
        for (name, t) in timers {
            if t == Some(SimTime::ZERO) {
                return Err(format!(
                    "{name} must be positive (use None to switch it off)"
                ));
            }
        }
        Ok(())
    }
}

/// What one step of a direction's error process stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorClock {
    /// One step per transport block actually sent: the process stands still while the
    /// channel is idle (an ns-2 `ErrorModel` with `unit pkt` on the PDUs).
    PerBlock,
    /// One step per transport-block slot of every TTI, used or not: the channel evolves with
    /// time, as a fading channel and a time-driven error trace do (link-spec §2.1).
    PerSlot,
}

/// One direction of a dedicated channel (link-spec §1.11).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DchConfig {
    /// Bearer rate in bit/s, counted as RLC payload (link-spec §8.3: "384 kb/s" is the
    /// payload rate; each TB also carries the 16-bit header).
    pub rate_bps: u64,
    /// Transmission time interval: 10, 20, 40 or 80 ms (TS 25.302 §7.1.1).
    pub tti: SimTime,
    /// Transport blocks per TTI; `None` derives ⌊rate·TTI / (8·payload octets)⌋
    /// (link-spec §1.11; 384 kb/s @ 10 ms with 40-octet payload → 12).
    pub blocks_per_tti: Option<u32>,
    /// Decoding/processing delay δ added to every arrival (link-spec §1.11). Default 0.
    pub extra_delay: SimTime,
    /// Whether the error process steps per block sent or per slot. Default `PerBlock`.
    pub error_clock: ErrorClock,
}

impl DchConfig {
    /// A DCH of `kbps` kb/s with a TTI of `tti_ms` ms and derived blocks per TTI.
    pub fn new(kbps: u64, tti_ms: u64) -> Self {
        DchConfig {
            rate_bps: kbps * 1000,
            tti: SimTime::from_millis(tti_ms),
            blocks_per_tti: None,
            extra_delay: SimTime::ZERO,
            error_clock: ErrorClock::PerBlock,
        }
    }

    /// Transport blocks per TTI for PDUs with `payload_bytes` of payload.
    pub fn blocks(&self, payload_bytes: u32) -> u32 {
        self.blocks_per_tti.unwrap_or_else(|| {
            let bits = u128::from(self.rate_bps) * u128::from(self.tti.as_nanos());
            (bits / (8 * u128::from(payload_bytes) * 1_000_000_000)) as u32
        })
    }

    pub fn validate(&self, what: &str, payload_bytes: u32) -> Result<(), String> {
        let ms = [10, 20, 40, 80].map(SimTime::from_millis);
        if !ms.contains(&self.tti) {
            return Err(format!(
                "{what}.tti = {} is not 10, 20, 40 or 80 ms",
                self.tti
            ));
        }
        if self.blocks(payload_bytes) == 0 {
            return Err(format!(
                "{what}: {} bit/s over a {} TTI carries no {payload_bytes}-octet PDU",
                self.rate_bps, self.tti
            ));
        }
        Ok(())
    }
}

/// PDCP (TS 25.323; link-spec §1.1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PdcpConfig {
    /// PDCP header octets added to every IP packet. Default 1 (lo-umts §4.3).
    pub header_bytes: u32,
    /// Header compression: `Some(c)` replaces the 40-octet TCP/IP header by `c` octets.
    /// Default None (lo-umts Table 3: no header compression).
    pub compressed_header_bytes: Option<u32>,
}

impl Default for PdcpConfig {
    fn default() -> Self {
        PdcpConfig {
            header_bytes: 1,
            compressed_header_bytes: None,
        }
    }
}

/// Everything one radio bearer needs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BearerConfig {
    /// Both RLC entities (RNC and UE).
    pub rlc: RlcConfig,
    pub pdcp: PdcpConfig,
    /// Downlink DCH (RNC → UE). Default 384 kb/s, 10 ms TTI (lo-umts Table 3).
    pub down: DchConfig,
    /// Uplink DCH (UE → RNC). Default 64 kb/s, 20 ms TTI (lo-umts Table 3).
    pub up: DchConfig,
    /// RNC–Node B (Iub) one-way delay, added to every TB arrival in both directions.
    /// Default 0 (the host's wired links model the core network).
    pub iub_delay: SimTime,
}

impl Default for BearerConfig {
    fn default() -> Self {
        BearerConfig {
            rlc: RlcConfig::default(),
            pdcp: PdcpConfig::default(),
            down: DchConfig::new(384, 10),
            up: DchConfig::new(64, 20),
            iub_delay: SimTime::ZERO,
        }
    }
}

impl BearerConfig {
    /// Seed paper 004 (Costamagna et al.): 38-octet payload + 2-octet header, transmit
    /// window 15 PDUs, a STATUS every 5 PDUs (Poll_PDU = 5, no other trigger), 384 kb/s down
    /// with a 10 ms TTI (12 PDUs) and 64 kb/s up with a 20 ms TTI (4 PDUs) (Table 1).
    pub fn costamagna() -> Self {
        let mut c = BearerConfig::default();
        c.rlc.payload_bytes = 38;
        c.rlc.tx_window = 15;
        c.rlc.rx_window = 15;
        c.rlc.poll = PollConfig {
            poll_pdu: Some(5),
            timer_poll: Some(SimTime::from_millis(170)),
            ..PollConfig::none()
        };
        c.rlc.status = StatusConfig::none();
        c
    }

    pub fn validate(&self) -> Result<(), String> {
        self.rlc.validate()?;
        self.down.validate("down", self.rlc.payload_bytes)?;
        self.up.validate("up", self.rlc.payload_bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_per_tti_follow_rate_times_tti_over_payload() {
        // link-spec §1.11 table and 7a; Costamagna Table 1 with 38-octet payload.
        assert_eq!(DchConfig::new(384, 10).blocks(40), 12);
        assert_eq!(DchConfig::new(64, 20).blocks(40), 4);
        assert_eq!(DchConfig::new(144, 20).blocks(40), 9);
        assert_eq!(DchConfig::new(384, 10).blocks(38), 12);
        assert_eq!(DchConfig::new(144, 20).blocks(38), 9);
        assert_eq!(DchConfig::new(64, 20).blocks(38), 4);
    }

    #[test]
    fn li_size_depends_on_pdu_size() {
        let mut c = RlcConfig::default();
        assert_eq!(c.li_octets(), 1);
        c.payload_bytes = 124; // 126-octet PDU: still 7-bit
        assert_eq!(c.li_octets(), 1);
        c.payload_bytes = 125;
        assert_eq!(c.li_octets(), 2);
        c.payload_bytes = 123;
        c.mode = RlcMode::Um; // 125-octet UMD PDU: 7-bit
        assert_eq!(c.li_octets(), 1);
        c.payload_bytes = 124;
        assert_eq!(c.li_octets(), 2);
    }

    #[test]
    fn invalid_values_are_named() {
        let mut c = BearerConfig::default();
        c.down.tti = SimTime::from_millis(15);
        assert!(c.validate().unwrap_err().contains("down.tti"));
        let mut c = BearerConfig::default();
        c.rlc.max_dat = Some(1);
        assert!(c.validate().unwrap_err().contains("max_dat"));
        assert!(BearerConfig::default().validate().is_ok());
        assert!(BearerConfig::costamagna().validate().is_ok());
    }
}
