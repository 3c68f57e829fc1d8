//! Classic pcap files of synthetic Ethernet/IPv4/TCP/UDP frames (traffic-queues-traces.md §8).
//!
//! The simulator's packets carry no bytes; this module writes the headers a real stack would
//! have sent for them so that Wireshark and tshark can dissect and analyse a run:
//! - file format: the classic pcap global header with the nanosecond magic 0xA1B23C4D (sim
//!   time is integer nanoseconds, so nothing is rounded), version 2.4, link type
//!   LINKTYPE_ETHERNET (1) (draft-ietf-opsawg-pcap; pcap-savefile(5));
//! - Ethernet II: locally administered MACs 02:00:00:00:hi:lo from the node index, EtherType
//!   0x0800;
//! - IPv4 (RFC 791): IHL 5, DF, identification = the packet uid's low 16 bits (so frames can be
//!   matched to trace uids), the header checksum of RFC 1071;
//! - TCP (RFC 9293) with the pseudo-header checksum, options padded with NOP; UDP (RFC 768)
//!   with its checksum (a computed 0 is sent as 0xFFFF).
//!
//! Payload bytes are zeros and written in full (caplen = len), so no record is truncated.

use crate::sim::SimTime;

/// LINKTYPE_ETHERNET (tcpdump.org link-layer header types).
pub const LINKTYPE_ETHERNET: u32 = 1;
/// pcap magic for nanosecond timestamps.
pub const MAGIC_NANOS: u32 = 0xA1B2_3C4D;
/// Snapshot length written in the global header: larger than any frame we write.
pub const SNAPLEN: u32 = 262_144;

pub const ETHERTYPE_IPV4: u16 = 0x0800;
/// RFC 792.
pub const IPPROTO_ICMP: u8 = 1;
pub const IPPROTO_IPIP: u8 = 4;
pub const IPPROTO_TCP: u8 = 6;
pub const IPPROTO_UDP: u8 = 17;
/// RFC 3692 "use for experimentation and testing": routing control messages are written with
/// it, so no dissector tries to parse their zero bodies as a real protocol.
pub const IPPROTO_EXPERIMENTAL: u8 = 253;

/// TCP flags (RFC 9293 §3.1).
pub const TCP_FIN: u8 = 0x01;
pub const TCP_SYN: u8 = 0x02;
pub const TCP_ACK: u8 = 0x10;

/// The RFC 1071 one's-complement sum of `data` added to `acc` (16-bit big-endian words, an odd
/// last byte padded with zero), not yet folded.
pub fn ones_complement_add(mut acc: u32, data: &[u8]) -> u32 {
    let mut chunks = data.chunks_exact(2);
    for w in &mut chunks {
        acc += u32::from(u16::from_be_bytes([w[0], w[1]]));
    }
    if let [last] = chunks.remainder() {
        acc += u32::from(*last) << 8;
    }
    acc
}

/// Folds the carries of a one's-complement sum and complements it: the Internet checksum
/// (RFC 1071 §4.1).
pub fn fold_checksum(mut acc: u32) -> u16 {
    while acc >> 16 != 0 {
        acc = (acc & 0xFFFF) + (acc >> 16);
    }
    !(acc as u16)
}

/// The Internet checksum of `data` (RFC 1071).
pub fn internet_checksum(data: &[u8]) -> u16 {
    fold_checksum(ones_complement_add(0, data))
}

/// The MAC address of node `index`: locally administered, unicast.
pub fn node_mac(index: u32) -> [u8; 6] {
    let b = (index as u16).to_be_bytes();
    [0x02, 0, 0, 0, b[0], b[1]]
}

pub const BROADCAST_MAC: [u8; 6] = [0xFF; 6];

/// The transport part of a synthetic packet.
#[derive(Clone, Debug, PartialEq)]
pub enum Transport {
    Tcp {
        src_port: u16,
        dst_port: u16,
        seq: u32,
        ack: u32,
        flags: u8,
        window: u16,
        /// Option bytes, already padded to a multiple of 4.
        options: Vec<u8>,
        payload_len: u32,
    },
    Udp {
        src_port: u16,
        dst_port: u16,
        payload_len: u32,
    },
    /// An ICMP echo request or reply (RFC 792: type 8 or 0), `data_len` bytes of data after
    /// its 8-byte header.
    IcmpEcho {
        reply: bool,
        ident: u16,
        seq: u16,
        data_len: u32,
    },
    /// An opaque IP payload of another protocol.
    Raw { protocol: u8, payload_len: u32 },
    /// An IP-in-IP tunnel: the inner IPv4 packet follows (RFC 2003).
    Tunnel(Box<IpPacket>),
}

/// An IPv4 packet to synthesise.
#[derive(Clone, Debug, PartialEq)]
pub struct IpPacket {
    pub src: u32,
    pub dst: u32,
    pub ttl: u8,
    pub ident: u16,
    pub transport: Transport,
}

impl IpPacket {
    /// The packet's bytes: IPv4 header and transport, checksums filled in.
    pub fn to_bytes(&self) -> Vec<u8> {
        let (protocol, body) = match &self.transport {
            Transport::Tcp {
                src_port,
                dst_port,
                seq,
                ack,
                flags,
                window,
                options,
                payload_len,
            } => {
                debug_assert_eq!(options.len() % 4, 0);
                let hlen = 20 + options.len();
                let mut t = Vec::with_capacity(hlen + *payload_len as usize);
                t.extend_from_slice(&src_port.to_be_bytes());
                t.extend_from_slice(&dst_port.to_be_bytes());
                t.extend_from_slice(&seq.to_be_bytes());
                t.extend_from_slice(&ack.to_be_bytes());
                t.push(((hlen / 4) as u8) << 4);
                t.push(*flags);
                t.extend_from_slice(&window.to_be_bytes());
                t.extend_from_slice(&[0, 0, 0, 0]); // checksum, urgent pointer
                t.extend_from_slice(options);
                t.resize(hlen + *payload_len as usize, 0);
                let sum = self.pseudo_header_sum(IPPROTO_TCP, t.len());
                let c = fold_checksum(ones_complement_add(sum, &t));
                t[16..18].copy_from_slice(&c.to_be_bytes());
                (IPPROTO_TCP, t)
            }
            Transport::Udp {
                src_port,
                dst_port,
                payload_len,
            } => {
                let len = 8 + *payload_len as usize;
                let mut u = Vec::with_capacity(len);
                u.extend_from_slice(&src_port.to_be_bytes());
                u.extend_from_slice(&dst_port.to_be_bytes());
                u.extend_from_slice(&(len as u16).to_be_bytes());
                u.extend_from_slice(&[0, 0]);
                u.resize(len, 0);
                let sum = self.pseudo_header_sum(IPPROTO_UDP, len);
                // RFC 768: a computed zero is transmitted as all ones (zero means "none").
                let c = match fold_checksum(ones_complement_add(sum, &u)) {
                    0 => 0xFFFF,
                    c => c,
                };
                u[6..8].copy_from_slice(&c.to_be_bytes());
                (IPPROTO_UDP, u)
            }
            Transport::IcmpEcho {
                reply,
                ident,
                seq,
                data_len,
            } => {
                let mut m = Vec::with_capacity(8 + *data_len as usize);
                m.push(if *reply { 0 } else { 8 }); // RFC 792: echo reply 0, echo 8
                m.push(0); // code
                m.extend_from_slice(&[0, 0]);
                m.extend_from_slice(&ident.to_be_bytes());
                m.extend_from_slice(&seq.to_be_bytes());
                m.resize(8 + *data_len as usize, 0);
                // The checksum covers the ICMP message alone (no pseudo-header).
                let c = internet_checksum(&m);
                m[2..4].copy_from_slice(&c.to_be_bytes());
                (IPPROTO_ICMP, m)
            }
            Transport::Raw {
                protocol,
                payload_len,
            } => (*protocol, vec![0; *payload_len as usize]),
            Transport::Tunnel(inner) => (IPPROTO_IPIP, inner.to_bytes()),
        };
        let total = 20 + body.len();
        let mut ip = Vec::with_capacity(total);
        ip.push(0x45); // version 4, IHL 5
        ip.push(0); // DSCP 0, not ECN-capable
        ip.extend_from_slice(&(total as u16).to_be_bytes());
        ip.extend_from_slice(&self.ident.to_be_bytes());
        ip.extend_from_slice(&0x4000u16.to_be_bytes()); // DF, offset 0
        ip.push(self.ttl);
        ip.push(protocol);
        ip.extend_from_slice(&[0, 0]);
        ip.extend_from_slice(&self.src.to_be_bytes());
        ip.extend_from_slice(&self.dst.to_be_bytes());
        let c = internet_checksum(&ip);
        ip[10..12].copy_from_slice(&c.to_be_bytes());
        ip.extend_from_slice(&body);
        ip
    }

    /// The one's-complement sum of the TCP/UDP pseudo-header (RFC 9293 §3.1, RFC 768).
    fn pseudo_header_sum(&self, protocol: u8, len: usize) -> u32 {
        let mut p = [0u8; 12];
        p[0..4].copy_from_slice(&self.src.to_be_bytes());
        p[4..8].copy_from_slice(&self.dst.to_be_bytes());
        p[9] = protocol;
        p[10..12].copy_from_slice(&(len as u16).to_be_bytes());
        ones_complement_add(0, &p)
    }
}

/// An Ethernet II frame around `ip`.
pub fn ethernet_frame(dst: [u8; 6], src: [u8; 6], ip: &IpPacket) -> Vec<u8> {
    let body = ip.to_bytes();
    let mut f = Vec::with_capacity(14 + body.len());
    f.extend_from_slice(&dst);
    f.extend_from_slice(&src);
    f.extend_from_slice(&ETHERTYPE_IPV4.to_be_bytes());
    f.extend_from_slice(&body);
    f
}

/// TCP SACK option (RFC 2018 §3): NOP, NOP, kind 5, length 2 + 8n, then the block edges.
pub fn sack_option(blocks: &[(u32, u32)]) -> Vec<u8> {
    if blocks.is_empty() {
        return Vec::new();
    }
    let mut o = vec![1, 1, 5, (2 + 8 * blocks.len()) as u8];
    for &(l, r) in blocks {
        o.extend_from_slice(&l.to_be_bytes());
        o.extend_from_slice(&r.to_be_bytes());
    }
    o
}

/// SYN options: MSS (kind 2, RFC 9293 §3.7.1) and SACK-permitted (kind 4, RFC 2018 §2),
/// the latter after two NOPs for alignment.
pub fn syn_options(mss: u16) -> Vec<u8> {
    let m = mss.to_be_bytes();
    vec![2, 4, m[0], m[1], 1, 1, 4, 2]
}

/// A pcap file being written in memory.
#[derive(Clone, Debug)]
pub struct PcapWriter {
    bytes: Vec<u8>,
    records: u64,
}

impl Default for PcapWriter {
    fn default() -> Self {
        Self::new()
    }
}

impl PcapWriter {
    /// A file holding only the 24-byte global header (little-endian fields).
    pub fn new() -> Self {
        let mut bytes = Vec::with_capacity(1 << 16);
        bytes.extend_from_slice(&MAGIC_NANOS.to_le_bytes());
        bytes.extend_from_slice(&2u16.to_le_bytes());
        bytes.extend_from_slice(&4u16.to_le_bytes());
        bytes.extend_from_slice(&0i32.to_le_bytes()); // thiszone
        bytes.extend_from_slice(&0u32.to_le_bytes()); // sigfigs
        bytes.extend_from_slice(&SNAPLEN.to_le_bytes());
        bytes.extend_from_slice(&LINKTYPE_ETHERNET.to_le_bytes());
        PcapWriter { bytes, records: 0 }
    }

    /// Appends one record stamped with simulated time `at`, the frame written in full.
    pub fn record(&mut self, at: SimTime, frame: &[u8]) {
        let ns = at.as_nanos();
        self.bytes
            .extend_from_slice(&((ns / 1_000_000_000) as u32).to_le_bytes());
        self.bytes
            .extend_from_slice(&((ns % 1_000_000_000) as u32).to_le_bytes());
        let len = frame.len() as u32;
        self.bytes.extend_from_slice(&len.to_le_bytes()); // incl_len
        self.bytes.extend_from_slice(&len.to_le_bytes()); // orig_len
        self.bytes.extend_from_slice(frame);
        self.records += 1;
    }

    pub fn records(&self) -> u64 {
        self.records
    }

    pub fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 1071 §3 worked example: the words 0001 f203 f4f5 f6f7 sum (with end-around carry)
    /// to 0xddf2, so the checksum is its complement 0x220d.
    #[test]
    fn checksum_matches_the_rfc_1071_example() {
        let data = [0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7];
        let sum = ones_complement_add(0, &data);
        assert_eq!(sum, 0x2_ddf0);
        assert_eq!(!fold_checksum(sum), 0xddf2);
        assert_eq!(internet_checksum(&data), 0x220d);
        // An odd length pads the last byte with zero on the right.
        assert_eq!(internet_checksum(&[0x00, 0x01, 0xf2]), !0xf201u16);
    }

    /// RFC 792 echo: type 8 (reply 0), code 0, identifier, sequence number; the checksum of
    /// an echo with identifier 1, sequence 2 and no data is the complement of 0x0800 + 1 + 2.
    #[test]
    fn icmp_echo_has_rfc_792_layout_and_checksum() {
        let p = IpPacket {
            src: 0x0a00_0001,
            dst: 0x0a00_0002,
            ttl: 64,
            ident: 7,
            transport: Transport::IcmpEcho {
                reply: false,
                ident: 1,
                seq: 2,
                data_len: 0,
            },
        };
        let b = p.to_bytes();
        assert_eq!(b[9], IPPROTO_ICMP);
        assert_eq!(&b[20..], &[8, 0, 0xf7, 0xfc, 0, 1, 0, 2]);
        let reply = IpPacket {
            transport: Transport::IcmpEcho {
                reply: true,
                ident: 1,
                seq: 2,
                data_len: 36,
            },
            ..p
        };
        let b = reply.to_bytes();
        assert_eq!(b.len(), 20 + 8 + 36);
        assert_eq!(&b[20..24], &[0, 0, 0xff, 0xfc]);
        assert_eq!(internet_checksum(&b[20..]), 0);
    }

    /// The IPv4 header of the widely used worked example (Wikipedia "IPv4 header checksum"):
    /// 4500 0073 0000 4000 4011 [b861] c0a8 0001 c0a8 00c7 has checksum 0xb861, and a header
    /// with its checksum in place sums to 0xffff (checks to zero).
    #[test]
    fn ipv4_header_checksum_matches_a_hand_computed_header() {
        let mut h = [
            0x45, 0x00, 0x00, 0x73, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11, 0x00, 0x00, 0xc0, 0xa8,
            0x00, 0x01, 0xc0, 0xa8, 0x00, 0xc7,
        ];
        assert_eq!(internet_checksum(&h), 0xb861);
        h[10] = 0xb8;
        h[11] = 0x61;
        assert_eq!(internet_checksum(&h), 0);
        // The same header through the synthesiser: UDP, 0x73 - 20 - 8 = 87 payload bytes.
        let ip = IpPacket {
            src: 0xc0a8_0001,
            dst: 0xc0a8_00c7,
            ttl: 64,
            ident: 0,
            transport: Transport::Udp {
                src_port: 1,
                dst_port: 2,
                payload_len: 0x73 - 28,
            },
        };
        let bytes = ip.to_bytes();
        assert_eq!(&bytes[..20], &h);
    }

    /// A hand-computed TCP checksum: 10.0.0.1:1 → 10.0.0.2:1, seq 1, ack 0, ACK, window 65535,
    /// no options, no payload. Pseudo-header words: 0a00 0001 0a00 0002 0006 0014; header words:
    /// 0001 0001 0000 0001 0000 0000 5010 ffff 0000 0000. Sum = 0x141d + 0x1_5012 = 0x1_642f,
    /// folded 0x6430, checksum !0x6430 = 0x9bcf. Every complete segment checks to zero.
    #[test]
    fn tcp_checksum_covers_the_pseudo_header() {
        let ip = IpPacket {
            src: 0x0a00_0001,
            dst: 0x0a00_0002,
            ttl: 64,
            ident: 0,
            transport: Transport::Tcp {
                src_port: 1,
                dst_port: 1,
                seq: 1,
                ack: 0,
                flags: TCP_ACK,
                window: 0xffff,
                options: Vec::new(),
                payload_len: 0,
            },
        };
        let b = ip.to_bytes();
        assert_eq!(b.len(), 40);
        assert_eq!(u16::from_be_bytes([b[36], b[37]]), 0x9bcf);
        let with_sack = IpPacket {
            transport: Transport::Tcp {
                src_port: 1,
                dst_port: 1,
                seq: 1,
                ack: 1001,
                flags: TCP_ACK,
                window: 0xffff,
                options: sack_option(&[(2001, 3001)]),
                payload_len: 0,
            },
            ..ip
        };
        let b = with_sack.to_bytes();
        assert_eq!(b.len(), 20 + 20 + 12);
        assert_eq!(b[32] >> 4, 8); // data offset: 32 bytes
        let mut pseudo = Vec::new();
        pseudo.extend_from_slice(&b[12..20]);
        pseudo.extend_from_slice(&[0, 6, 0, 32]);
        pseudo.extend_from_slice(&b[20..]);
        assert_eq!(internet_checksum(&pseudo), 0);
        assert_eq!(internet_checksum(&b[..20]), 0);
    }

    #[test]
    fn a_record_stamps_simulated_nanoseconds() {
        let mut w = PcapWriter::new();
        w.record(SimTime(1_500_000_123), &[0xAA; 60]);
        let b = w.into_bytes();
        assert_eq!(b.len(), 24 + 16 + 60);
        assert_eq!(&b[0..4], &[0x4d, 0x3c, 0xb2, 0xa1]);
        assert_eq!(u32::from_le_bytes(b[20..24].try_into().unwrap()), 1);
        assert_eq!(u32::from_le_bytes(b[24..28].try_into().unwrap()), 1);
        assert_eq!(
            u32::from_le_bytes(b[28..32].try_into().unwrap()),
            500_000_123
        );
        assert_eq!(u32::from_le_bytes(b[32..36].try_into().unwrap()), 60);
        assert_eq!(u32::from_le_bytes(b[36..40].try_into().unwrap()), 60);
    }
}
