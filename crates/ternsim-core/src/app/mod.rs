//! Applications: FTP bulk transfer and a trace-driven source ([`trace_source`]) that drive TCP
//! senders; the ns-2 traffic generators CBR ([`cbr`]) and Exponential/Pareto on/off
//! ([`onoff`]), handled through one type ([`traffic::TrafficSource`]); and the ns-2 UDP agent
//! with per-flow datagram statistics ([`udp`]); ns-2's ping agent ([`ping`]) and its Telnet
//! application over TCP ([`telnet`]).

pub mod cbr;
pub mod cbrgen;
pub mod connection_file;
pub mod draws;
pub mod onoff;
pub mod ping;
pub mod telnet;
pub mod trace_source;
pub mod traffic;
pub mod udp;

pub use cbr::{Cbr, CbrConfig, CbrPacing};
pub use draws::{Ns2Draws, SourceDraws};
pub use onoff::{OnOff, OnOffConfig, OnOffLaw};
pub use ping::{Echo, PingAgent, PingResult};
pub use telnet::Telnet;
pub use trace_source::{parse_app_trace, AppWrite, ByteToPacket};
pub use traffic::{TrafficConfig, TrafficSource};
pub use udp::{DatagramStats, UdpAgent, UdpDatagram};

/// An FTP bulk transfer: unlimited, or a fixed number of bytes, between start and stop times.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FtpBulk {
    pub bytes: Option<u64>,
}

impl FtpBulk {
    /// Data packets the transfer needs with `packet_size`-byte payloads (the last may be
    /// short in reality; ns-2 sends whole packets).
    pub fn packets(&self, packet_size: u32) -> Option<u64> {
        self.bytes
            .map(|b| b.div_ceil(u64::from(packet_size.max(1))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_round_up_to_whole_packets() {
        assert_eq!(
            FtpBulk {
                bytes: Some(10_000)
            }
            .packets(1000),
            Some(10)
        );
        assert_eq!(
            FtpBulk {
                bytes: Some(10_001)
            }
            .packets(1000),
            Some(11)
        );
        assert_eq!(FtpBulk { bytes: None }.packets(1000), None);
    }
}
