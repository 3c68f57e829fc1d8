//! A trace-driven source: the application writes the listed number of bytes at the listed
//! times (ns-2 `Application/Traffic/Trace` over a TCP agent). Used for measured sessions
//! such as a web browsing trace.
//!
//! File format: one record per line, `time_s bytes` separated by whitespace or a comma;
//! blank lines and `#` comments are ignored; times must not decrease.

use crate::sim::SimTime;

/// One application write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AppWrite {
    /// Offset from the flow's start.
    pub at: SimTime,
    pub bytes: u64,
}

/// Parses a trace; errors name the line.
pub fn parse_app_trace(text: &str) -> Result<Vec<AppWrite>, String> {
    let mut writes = Vec::new();
    let mut last = SimTime::ZERO;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let fields: Vec<&str> = line
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|f| !f.is_empty())
            .collect();
        let n = i + 1;
        if fields.len() != 2 {
            return Err(format!("line {n}: expected `time_s bytes`, found `{line}`"));
        }
        let t: f64 = fields[0]
            .parse()
            .map_err(|_| format!("line {n}: `{}` is not a time in seconds", fields[0]))?;
        let bytes: u64 = fields[1]
            .parse()
            .map_err(|_| format!("line {n}: `{}` is not a byte count", fields[1]))?;
        if !t.is_finite() || t < 0.0 {
            return Err(format!("line {n}: time must be >= 0"));
        }
        let at = SimTime::from_secs_f64(t);
        if at < last {
            return Err(format!("line {n}: times must not decrease"));
        }
        last = at;
        writes.push(AppWrite { at, bytes });
    }
    if writes.is_empty() {
        return Err("the trace has no records".into());
    }
    Ok(writes)
}

/// Converts cumulative application bytes into whole TCP packets: after `written` bytes the
/// sender may send `ceil(written / packet_size)` packets, as ns-2's `sendmsg` rounds up.
#[derive(Clone, Debug, Default)]
pub struct ByteToPacket {
    written: u64,
    offered: u64,
}

impl ByteToPacket {
    /// Records a write and returns how many more packets it makes available.
    pub fn write(&mut self, bytes: u64, packet_size: u32) -> u64 {
        self.written += bytes;
        let total = self.written.div_ceil(u64::from(packet_size.max(1)));
        let more = total - self.offered;
        self.offered = total;
        more
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_records_and_comments() {
        let w = parse_app_trace("# web session\n0.0 1200\n0.5, 300\n\n2 40000 # page\n").unwrap();
        assert_eq!(
            w,
            vec![
                AppWrite {
                    at: SimTime::ZERO,
                    bytes: 1200
                },
                AppWrite {
                    at: SimTime::from_millis(500),
                    bytes: 300
                },
                AppWrite {
                    at: SimTime::from_millis(2000),
                    bytes: 40000
                },
            ]
        );
    }

    #[test]
    fn errors_name_the_line() {
        assert!(parse_app_trace("0 10\nfoo 3\n")
            .unwrap_err()
            .starts_with("line 2"));
        assert!(parse_app_trace("1 10\n0.5 3\n")
            .unwrap_err()
            .contains("decrease"));
        assert!(parse_app_trace("# nothing\n").is_err());
    }

    #[test]
    fn bytes_round_up_to_packets_cumulatively() {
        let mut b = ByteToPacket::default();
        assert_eq!(b.write(1200, 1000), 2); // 1200 B -> 2 packets
        assert_eq!(b.write(300, 1000), 0); // 1500 B -> still 2
        assert_eq!(b.write(600, 1000), 1); // 2100 B -> 3
    }
}
