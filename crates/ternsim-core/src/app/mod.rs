//! Applications that drive TCP senders: FTP bulk transfer, and a trace-driven source
//! ([`trace_source`]) that writes data at recorded times.

pub mod trace_source;

pub use trace_source::{parse_app_trace, AppWrite, ByteToPacket};

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
