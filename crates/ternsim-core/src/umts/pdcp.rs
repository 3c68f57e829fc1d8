//! PDCP sizes (TS 25.323; link-spec §1.1): what an IP packet becomes as an RLC SDU.
//!
//! Owns only the size arithmetic: a PDCP header of `header_bytes` octets (1 in lo-umts,
//! "PDCP header of 1 byte" §4.3) and, optionally, header compression modelled as replacing
//! the 40-octet TCP/IP header by a fixed compressed size (RFC 2507/3095 contexts are not
//! modelled: every packet compresses to the same size).

use super::config::PdcpConfig;

/// Octets of an uncompressed TCP/IPv4 header without options.
pub const TCP_IP_HEADER_BYTES: u32 = 40;

/// The RLC SDU size of an IP packet of `ip_bytes` octets.
pub fn sdu_bytes(cfg: &PdcpConfig, ip_bytes: u32) -> u32 {
    let ip = match cfg.compressed_header_bytes {
        Some(c) if ip_bytes >= TCP_IP_HEADER_BYTES => ip_bytes - TCP_IP_HEADER_BYTES + c,
        _ => ip_bytes,
    };
    ip + cfg.header_bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pdcp_adds_one_octet_and_compression_replaces_the_header() {
        let plain = PdcpConfig::default();
        assert_eq!(sdu_bytes(&plain, 552), 553);
        assert_eq!(sdu_bytes(&plain, 40), 41);
        let rohc = PdcpConfig {
            header_bytes: 1,
            compressed_header_bytes: Some(4),
        };
        assert_eq!(sdu_bytes(&rohc, 552), 517);
        assert_eq!(sdu_bytes(&rohc, 40), 5);
        assert_eq!(sdu_bytes(&rohc, 20), 21); // shorter than a TCP/IP header: untouched
    }
}
