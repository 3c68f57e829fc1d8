//! 802.11 DCF and PHY parameters, and the frame air times derived from them.
//!
//! `WifiConfig::default()` is ns-2.35 as its Tcl library configures it (`tcl/lib/ns-default.tcl`,
//! `tcl/lan/ns-mac.tcl`, link-spec §3.1-§3.6); every field says where its default comes from.
//! [`Timing`] precomputes, in nanoseconds, every interval and air time the MAC uses
//! (link-spec §3.2), so the per-frame path does no floating point beyond one division.

use crate::sim::time::round_to_u64;
use crate::sim::SimTime;
use crate::wifi::propagation::Radio;

/// The MAC header profile: octets a DATA frame adds to the IP packet, PLCP included
/// (link-spec §3.2, §8 item 9).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MacHeader {
    /// ns-2 ≤ 2.32: 24 PLCP + 24 MAC header (3 addresses) + 4 FCS = 52 octets.
    ThreeAddress52,
    /// ns-2 ≥ 2.33: 24 PLCP + 30 MAC header (4 addresses) + 4 FCS = 58 octets.
    FourAddress58,
}

impl MacHeader {
    /// Overhead added to the IP packet, including the 24 PLCP "bytes".
    pub fn overhead(self) -> u32 {
        match self {
            MacHeader::ThreeAddress52 => 52,
            MacHeader::FourAddress58 => 58,
        }
    }
}

/// The interface queue between routing and the MAC (link-spec §3.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IfqKind {
    /// `Queue/DropTail/PriQueue`: one FIFO, routing packets at the head.
    PriQueue,
    /// `CMUPriQueue` (ns-2 DSR): four strict-priority bands, each with its own limit.
    CmuPriQueue,
}

/// Everything a channel's stations share.
#[derive(Clone, Debug, PartialEq)]
pub struct WifiConfig {
    /// Transmitter, antennas and path loss (link-spec §3.4).
    pub radio: Radio,
    /// RXThresh: a frame at or above this power can be decoded. ns-2 3.652e-10 W (250 m).
    pub rx_threshold_w: f64,
    /// CSThresh: below this power a frame does not exist for the node. ns-2 1.559e-11 W
    /// (550 m).
    pub cs_threshold_w: f64,
    /// CPThresh: the power ratio that lets the frame being received survive a newcomer.
    /// ns-2 10.
    pub capture_threshold: f64,
    /// aSlotTime, DSSS: 20 µs (link-spec §3.1).
    pub slot: SimTime,
    /// aSIFSTime, DSSS: 10 µs.
    pub sifs: SimTime,
    /// aCWmin 31, aCWmax 1023 (ns-2 draws the backoff in [0, cw − 1]).
    pub cw_min: u32,
    pub cw_max: u32,
    /// dot11ShortRetryLimit 7, dot11LongRetryLimit 4.
    pub short_retry_limit: u32,
    pub long_retry_limit: u32,
    /// dot11RTSThreshold in octets of the MAC frame (IP packet + MAC overhead): frames at or
    /// above it use RTS/CTS. ns-2 0: every unicast frame.
    pub rts_threshold: u32,
    /// ns-2.35 `Mac/802_11 bugFix_timer_` (default true): a frame that enters the MAC on an
    /// idle medium, or waits after an exchange, waits DIFS + its backoff on the backoff
    /// timer, which freezes while the medium is busy. Off (scripts written for ns-2 before
    /// 2006, such as the wireless tutorial's, set it false): it waits DIFS + `random() % cw`
    /// slots on the defer timer, which counts through busy periods; the medium is checked only
    /// when it fires (busy: a doubled window and a backoff).
    pub bug_fix_timer: bool,
    /// Rate of unicast DATA frames, b/s. ns-2.35 Tcl default 1 Mb/s (link-spec §3.2).
    pub data_rate_bps: f64,
    /// Rate of RTS, CTS, ACK and broadcast DATA, b/s. ns-2.35 Tcl default 1 Mb/s.
    pub basic_rate_bps: f64,
    /// PLCP preamble + header length in bits (144 + 48) and the rate it is sent at
    /// (1 Mb/s): 192 µs on every frame.
    pub plcp_bits: u32,
    pub plcp_rate_bps: f64,
    /// MAC header profile. ns-2.35: 58 octets.
    pub header: MacHeader,
    /// DSSS maximum propagation delay used in the CTS/ACK timeouts: 2 µs.
    pub max_propagation_delay: SimTime,
    /// LL `delay_`: 25 µs each way (link-spec §3.5).
    pub ll_delay: SimTime,
    /// The ARP table's own `delay_` (ns-default.tcl `ARPTable set delay_ 5us`): its requests
    /// and replies, and the packet a reply releases, reach the interface queue this long
    /// after the ARP table sends them.
    pub arp_delay: SimTime,
    pub ifq: IfqKind,
    /// `ifqlen`: 50 (link-spec §3.6).
    pub ifq_limit: usize,
    /// Report correctly decoded unicast DATA frames addressed to another station into
    /// `IfaceOutput::overheard` (ns-2 MAC tap, used by DSR). Off by default.
    pub promiscuous: bool,
    /// Resolve unicast next hops with ARP before the interface queue (ns-2 `LL` with its
    /// `ARPTable`, `mac/arp.cc`, link-spec §3.5; every ns-2 wireless node has one, so on by
    /// default). Off: next hops resolve at once.
    pub arp: bool,
    /// How often the spatial index re-buckets stations whose mobility is not static, and
    /// the fastest any of them moves: the neighbour search widens by the distance a node
    /// can cover between two re-buckets. Static runs never re-bucket.
    pub regrid_period: SimTime,
    pub max_speed_mps: f64,
    /// An error model between each station's PHY and its MAC (ns-2 `node-config
    /// -IncomingErrProc`); None: every frame the PHY decodes reaches the MAC.
    pub incoming_loss: Option<IncomingLoss>,
}

/// ns-2's `-IncomingErrProc` error model (an `ErrorModel`, unit packet, `rate_`), which
/// `Node/MobileNode add-interface` puts between the PHY's up-target and the MAC: every frame
/// the PHY hands up (any frame above the carrier-sense threshold, whoever it is for) is
/// judged, one draw each, and lost with probability `rate` (`ErrorModel::recv`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IncomingLoss {
    /// The probability that a frame is lost.
    pub rate: f64,
    /// The model has a drop target (`$em drop-target ...`): a lost frame is taken away
    /// before the MAC, which never learns of it (no busy medium, no NAV). Without one, ns-2
    /// marks it in error and passes it on: the MAC receives it and, at its end, discards it
    /// and defers EIFS, as for a frame below the reception threshold.
    pub drop: bool,
}

impl Default for WifiConfig {
    fn default() -> Self {
        WifiConfig {
            radio: Radio::default(),
            rx_threshold_w: 3.652e-10,
            cs_threshold_w: 1.559e-11,
            capture_threshold: 10.0,
            slot: SimTime::from_micros(20),
            sifs: SimTime::from_micros(10),
            cw_min: 31,
            cw_max: 1023,
            short_retry_limit: 7,
            long_retry_limit: 4,
            rts_threshold: 0,
            bug_fix_timer: true,
            data_rate_bps: 1e6,
            basic_rate_bps: 1e6,
            plcp_bits: 192,
            plcp_rate_bps: 1e6,
            header: MacHeader::FourAddress58,
            max_propagation_delay: SimTime::from_micros(2),
            ll_delay: SimTime::from_micros(25),
            arp_delay: SimTime::from_micros(5),
            ifq: IfqKind::PriQueue,
            ifq_limit: 50,
            promiscuous: false,
            arp: true,
            regrid_period: SimTime::from_millis(100),
            max_speed_mps: 0.0,
            incoming_loss: None,
        }
    }
}

impl WifiConfig {
    /// The profile of most "2 Mb/s 802.11" papers run on ns-2 ≤ 2.32: DATA at 2 Mb/s,
    /// control and broadcast at 1 Mb/s, 52-octet overhead (link-spec §3.2, §8 item 9).
    pub fn ns2_legacy_2mbps() -> Self {
        WifiConfig {
            data_rate_bps: 2e6,
            basic_rate_bps: 1e6,
            header: MacHeader::ThreeAddress52,
            ..WifiConfig::default()
        }
    }

    /// Reception range implied by RXThresh under the propagation model.
    pub fn rx_range_m(&self) -> f64 {
        self.radio.range_for_power(self.rx_threshold_w)
    }

    /// Carrier-sense range implied by CSThresh: the farthest a frame can matter. Unbounded
    /// under shadowing, whose draws can lift a frame above CSThresh at any distance (ns-2's
    /// `distCST_` is DBL_MAX then, see [`crate::wifi::Radio::unbounded_reach`]).
    pub fn cs_range_m(&self) -> f64 {
        if self.radio.unbounded_reach() {
            return f64::INFINITY;
        }
        self.radio.range_for_power(self.cs_threshold_w)
    }

    pub fn timing(&self) -> Timing {
        Timing::new(self)
    }
}

/// Frame sizes without the PLCP (link-spec §3.2): RTS 20 octets, CTS and ACK 14.
pub const RTS_BYTES: u32 = 20;
pub const CTS_BYTES: u32 = 14;
pub const ACK_BYTES: u32 = 14;
/// An ARP request or reply (ns-2 `ARP_HDR_LEN`): 28 octets, carried in a DATA frame.
pub const ARP_BYTES: u32 = 28;
/// ns-2 counts the PLCP as 24 octets inside every frame size.
pub const PLCP_BYTES: u32 = 24;

/// Intervals and air times in nanoseconds, derived once from a [`WifiConfig`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Timing {
    pub slot: u64,
    pub sifs: u64,
    /// DIFS = SIFS + 2·slot (link-spec §3.1).
    pub difs: u64,
    /// EIFS = SIFS + DIFS + 8·ACK length (PLCP included) at the PLCP rate (link-spec §3.1;
    /// ns-2 `PHY_MIB::getEIFS`): 364 µs with the defaults.
    pub eifs: u64,
    pub rts: u64,
    pub cts: u64,
    pub ack: u64,
    pub max_prop: u64,
    plcp_ns: f64,
    ns_per_bit_data: f64,
    ns_per_bit_basic: f64,
    overhead: u32,
}

impl Timing {
    pub fn new(c: &WifiConfig) -> Timing {
        let plcp_ns = f64::from(c.plcp_bits) * 1e9 / c.plcp_rate_bps;
        let ns_per_bit_basic = 1e9 / c.basic_rate_bps;
        let at = |bytes: u32, nspb: f64| (plcp_ns + f64::from(bytes) * 8.0 * nspb).round() as u64;
        let slot = c.slot.as_nanos();
        let sifs = c.sifs.as_nanos();
        let difs = sifs + 2 * slot;
        let ack_at_plcp =
            (f64::from((ACK_BYTES + PLCP_BYTES) * 8) * 1e9 / c.plcp_rate_bps).round() as u64;
        Timing {
            slot,
            sifs,
            difs,
            eifs: sifs + difs + ack_at_plcp,
            rts: at(RTS_BYTES, ns_per_bit_basic),
            cts: at(CTS_BYTES, ns_per_bit_basic),
            ack: at(ACK_BYTES, ns_per_bit_basic),
            max_prop: c.max_propagation_delay.as_nanos(),
            plcp_ns,
            ns_per_bit_data: 1e9 / c.data_rate_bps,
            ns_per_bit_basic,
            overhead: c.header.overhead(),
        }
    }

    /// Octets of the DATA frame carrying an IP packet of `ip_bytes`, PLCP included (the size
    /// ns-2 compares with the RTS threshold).
    pub fn data_frame_bytes(&self, ip_bytes: u32) -> u32 {
        ip_bytes + self.overhead
    }

    /// Air time T(L, R) = PLCP + 8·(L − 24)/R of a DATA frame carrying `ip_bytes`
    /// (link-spec §3.2), at the data rate (unicast) or the basic rate (broadcast).
    pub fn data(&self, ip_bytes: u32, broadcast: bool) -> u64 {
        let nspb = if broadcast {
            self.ns_per_bit_basic
        } else {
            self.ns_per_bit_data
        };
        let body = self.data_frame_bytes(ip_bytes) - PLCP_BYTES;
        round_to_u64(self.plcp_ns + f64::from(body) * 8.0 * nspb)
    }

    /// A duration field: microseconds rounded to the nearest integer (ns-2 `usec()`).
    pub fn duration_us(ns: u64) -> u64 {
        (ns + 500) / 1000
    }

    /// RTS duration = 3·SIFS + T(CTS) + T(DATA) + T(ACK), in µs (link-spec §3.2).
    pub fn rts_duration_us(&self, data_air: u64) -> u64 {
        Self::duration_us(3 * self.sifs + self.cts + data_air + self.ack)
    }

    /// CTS duration = RTS duration − SIFS − T(CTS), in µs (computed from the rounded RTS
    /// duration, as ns-2 does).
    pub fn cts_duration_us(&self, rts_duration_us: u64) -> u64 {
        Self::duration_us((rts_duration_us * 1000).saturating_sub(self.sifs + self.cts))
    }

    /// Unicast DATA duration = SIFS + T(ACK), in µs.
    pub fn data_duration_us(&self) -> u64 {
        Self::duration_us(self.sifs + self.ack)
    }

    /// RTS timeout: T(RTS) + 2 µs + SIFS + T(CTS) + 2 µs (link-spec §3.3 rule 5).
    pub fn cts_timeout(&self) -> u64 {
        self.rts + self.max_prop + self.sifs + self.cts + self.max_prop
    }

    /// ACK timeout: T(DATA) + 2 µs + SIFS + T(ACK) + 2 µs (link-spec §3.3 rule 6).
    pub fn ack_timeout(&self, data_air: u64) -> u64 {
        data_air + self.max_prop + self.sifs + self.ack + self.max_prop
    }

    /// How long a CTS sender waits for the DATA: T(CTS) + 2 µs + CTS duration + 2 µs − SIFS
    /// − T(ACK) (ns-2 `check_pktCTRL`, a guess the standard leaves open).
    pub fn data_timeout(&self, cts_duration_us: u64) -> u64 {
        (self.cts + self.max_prop + cts_duration_us * 1000 + self.max_prop)
            .saturating_sub(self.sifs + self.ack)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// link-spec §3.2 and §7a worked numbers.
    #[test]
    fn air_times_match_the_worked_numbers() {
        let t = WifiConfig::ns2_legacy_2mbps().timing();
        assert_eq!(t.rts, 352_000);
        assert_eq!(t.cts, 304_000);
        assert_eq!(t.ack, 304_000);
        assert_eq!(t.difs, 50_000);
        assert_eq!(t.eifs, 364_000);
        // 1040 + 52 = 1092 octets: 192 + 8·1068/2 = 4464 µs; a 40-byte ACK: 464 µs.
        assert_eq!(t.data(1040, false), 4_464_000);
        assert_eq!(t.data(40, false), 464_000);
        let t58 = WifiConfig {
            header: MacHeader::FourAddress58,
            ..WifiConfig::ns2_legacy_2mbps()
        }
        .timing();
        assert_eq!(t58.data(1040, false), 4_488_000);
        assert_eq!(t58.data(40, false), 488_000);
        // Basic 2 Mb/s: RTS 272 µs, CTS/ACK 248 µs.
        let t2 = WifiConfig {
            basic_rate_bps: 2e6,
            ..WifiConfig::default()
        }
        .timing();
        assert_eq!((t2.rts, t2.cts), (272_000, 248_000));
    }

    /// Durations: DATA 10 + 304 = 314 µs; RTS 30 + 304 + 4464 + 304 = 5102 µs; CTS
    /// 5102 − 10 − 304 = 4788 µs. Timeouts: CTS 352+2+10+304+2 = 670 µs; ACK 4464+318 =
    /// 4782 µs.
    #[test]
    fn durations_and_timeouts() {
        let t = WifiConfig::ns2_legacy_2mbps().timing();
        let d = t.data(1040, false);
        assert_eq!(t.data_duration_us(), 314);
        assert_eq!(t.rts_duration_us(d), 5102);
        assert_eq!(t.cts_duration_us(5102), 4788);
        assert_eq!(t.cts_timeout(), 670_000);
        assert_eq!(t.ack_timeout(d), 4_782_000);
        // Data wait after CTS: 304 + 2 + 4788 + 2 − 10 − 304 = 4782 µs.
        assert_eq!(t.data_timeout(4788), 4_782_000);
    }

    #[test]
    fn default_thresholds_give_ns2_ranges() {
        let c = WifiConfig::default();
        assert!((c.rx_range_m() - 250.0).abs() < 0.05);
        assert!((c.cs_range_m() - 550.0).abs() < 0.05);
    }
}
