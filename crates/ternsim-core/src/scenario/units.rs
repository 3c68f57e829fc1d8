//! Quantities with units, written as strings in scenarios (`"384kbps"`, `"10ms"`, `"552B"`).
//!
//! Each parser accepts a decimal number followed by one unit from a fixed list and reports the
//! allowed units when it cannot. Decimal prefixes are powers of 1000 (`kbps`, `MB`); binary
//! prefixes are written explicitly (`KiB`, `MiB`).

use serde::de::{self, Deserializer, Visitor};
use serde::Deserialize;
use std::fmt;

use crate::sim::SimTime;

pub const DURATION_UNITS: &str = "s, ms, us, ns, min";
pub const RATE_UNITS: &str = "bps, kbps, Mbps, Gbps";
pub const BYTES_UNITS: &str = "B, kB, KB, MB, GB, KiB, MiB, GiB";
pub const LENGTH_UNITS: &str = "m, km";
pub const POWER_UNITS: &str = "W, mW, uW, nW, pW, dBm";
pub const SPEED_UNITS: &str = "m/s, km/h";
pub const DECIBEL_UNITS: &str = "dB";

/// Splits `"12.5ms"` into `(12.5, "ms")`.
fn split_number(s: &str) -> Result<(f64, &str), String> {
    let s = s.trim();
    let end = s
        .char_indices()
        .find(|(_, c)| !(c.is_ascii_digit() || *c == '.' || *c == '-' || *c == '+' || *c == 'e'))
        .map(|(i, _)| i)
        .unwrap_or(s.len());
    // An exponent 'e' directly followed by a letter is part of a unit, not a number.
    let (num, unit) = s.split_at(end);
    let value: f64 = num
        .parse()
        .map_err(|_| format!("`{s}` does not start with a number"))?;
    if !value.is_finite() {
        return Err(format!("`{s}` is not a finite number"));
    }
    Ok((value, unit.trim()))
}

/// Parses a duration such as `"20ms"`; negative durations are refused.
pub fn parse_duration(s: &str) -> Result<SimTime, String> {
    let (v, unit) = split_number(s)?;
    let scale = match unit {
        "s" => 1.0,
        "ms" => 1e-3,
        "us" => 1e-6,
        "ns" => 1e-9,
        "min" => 60.0,
        "" => {
            return Err(format!(
                "`{s}` has no unit; allowed units: {DURATION_UNITS}"
            ))
        }
        other => {
            return Err(format!(
                "bad unit `{other}` in `{s}`; allowed units: {DURATION_UNITS}"
            ))
        }
    };
    if v < 0.0 {
        return Err(format!("`{s}` is negative; a duration must be >= 0"));
    }
    // The clock counts nanoseconds in a u64: anything longer would be silently clipped.
    let seconds = v * scale;
    if seconds * 1e9 >= SimTime::MAX.0 as f64 {
        return Err(format!(
            "`{s}` is beyond the simulated clock's range (0 to {MAX_DURATION_S} s, about 584 years)"
        ));
    }
    Ok(SimTime::from_secs_f64(seconds))
}

/// The longest duration the clock holds, in seconds (u64 nanoseconds), as error messages give
/// it.
pub const MAX_DURATION_S: &str = "18446744073";

/// Parses a bit rate such as `"384kbps"` into bits per second; must be > 0.
pub fn parse_rate(s: &str) -> Result<f64, String> {
    let (v, unit) = split_number(s)?;
    let scale = match unit {
        "bps" => 1.0,
        "kbps" | "Kbps" => 1e3,
        "Mbps" => 1e6,
        "Gbps" => 1e9,
        "" => return Err(format!("`{s}` has no unit; allowed units: {RATE_UNITS}")),
        other => {
            return Err(format!(
                "bad unit `{other}` in `{s}`; allowed units: {RATE_UNITS}"
            ))
        }
    };
    if v <= 0.0 {
        return Err(format!("`{s}` is not positive; a rate must be > 0"));
    }
    Ok(v * scale)
}

/// Parses a byte count such as `"1000B"` or `"1.5MB"`; must be >= 0.
pub fn parse_bytes(s: &str) -> Result<u64, String> {
    let (v, unit) = split_number(s)?;
    let scale = match unit {
        "B" => 1.0,
        "kB" | "KB" => 1e3,
        "MB" => 1e6,
        "GB" => 1e9,
        "KiB" => 1024.0,
        "MiB" => 1024.0 * 1024.0,
        "GiB" => 1024.0 * 1024.0 * 1024.0,
        "" => return Err(format!("`{s}` has no unit; allowed units: {BYTES_UNITS}")),
        other => {
            return Err(format!(
                "bad unit `{other}` in `{s}`; allowed units: {BYTES_UNITS}"
            ))
        }
    };
    if v < 0.0 {
        return Err(format!("`{s}` is negative; a size must be >= 0"));
    }
    Ok((v * scale).round() as u64)
}

/// Parses a distance such as `"250m"` into metres; must be >= 0.
pub fn parse_length(s: &str) -> Result<f64, String> {
    let (v, unit) = split_number(s)?;
    let scale = match unit {
        "m" => 1.0,
        "km" => 1e3,
        "" => return Err(format!("`{s}` has no unit; allowed units: {LENGTH_UNITS}")),
        other => {
            return Err(format!(
                "bad unit `{other}` in `{s}`; allowed units: {LENGTH_UNITS}"
            ))
        }
    };
    if v < 0.0 {
        return Err(format!("`{s}` is negative; a distance must be >= 0"));
    }
    Ok(v * scale)
}

/// Parses a power such as `"0.28183815W"` or `"-64.4dBm"` into watts; must be > 0.
pub fn parse_power(s: &str) -> Result<f64, String> {
    let (v, unit) = split_number(s)?;
    let watts = match unit {
        "W" => v,
        "mW" => v * 1e-3,
        "uW" => v * 1e-6,
        "nW" => v * 1e-9,
        "pW" => v * 1e-12,
        // dBm: 10 log10(P / 1 mW).
        "dBm" => 1e-3 * 10f64.powf(v / 10.0),
        "" => return Err(format!("`{s}` has no unit; allowed units: {POWER_UNITS}")),
        other => {
            return Err(format!(
                "bad unit `{other}` in `{s}`; allowed units: {POWER_UNITS}"
            ))
        }
    };
    if watts <= 0.0 || watts.is_nan() {
        return Err(format!("`{s}` is not positive; a power must be > 0"));
    }
    Ok(watts)
}

/// Parses a speed such as `"20m/s"` or `"72km/h"` into metres per second; must be >= 0.
pub fn parse_speed(s: &str) -> Result<f64, String> {
    let (v, unit) = split_number(s)?;
    let scale = match unit {
        "m/s" => 1.0,
        "km/h" => 1.0 / 3.6,
        "" => return Err(format!("`{s}` has no unit; allowed units: {SPEED_UNITS}")),
        other => {
            return Err(format!(
                "bad unit `{other}` in `{s}`; allowed units: {SPEED_UNITS}"
            ))
        }
    };
    if v < 0.0 {
        return Err(format!("`{s}` is negative; a speed must be >= 0"));
    }
    Ok(v * scale)
}

/// Parses a level difference such as `"4dB"` (the shadowing model's deviation); must be
/// >= 0.
pub fn parse_decibels(s: &str) -> Result<f64, String> {
    let (v, unit) = split_number(s)?;
    match unit {
        "dB" => {}
        "" => return Err(format!("`{s}` has no unit; allowed units: {DECIBEL_UNITS}")),
        other => {
            return Err(format!(
                "bad unit `{other}` in `{s}`; allowed units: {DECIBEL_UNITS}"
            ))
        }
    }
    if v < 0.0 {
        return Err(format!("`{s}` is negative; a deviation must be >= 0"));
    }
    Ok(v)
}

macro_rules! unit_type {
    ($name:ident, $inner:ty, $parse:ident, $what:literal) => {
        #[derive(Clone, Copy, Debug, PartialEq)]
        pub struct $name(pub $inner);

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct V;
                impl<'de> Visitor<'de> for V {
                    type Value = $name;
                    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                        f.write_str(concat!("a ", $what, " string with a unit"))
                    }
                    fn visit_str<E: de::Error>(self, s: &str) -> Result<$name, E> {
                        $parse(s).map($name).map_err(E::custom)
                    }
                    fn visit_i64<E: de::Error>(self, v: i64) -> Result<$name, E> {
                        Err(E::custom($name::no_unit(&v.to_string())))
                    }
                    fn visit_u64<E: de::Error>(self, v: u64) -> Result<$name, E> {
                        Err(E::custom($name::no_unit(&v.to_string())))
                    }
                    fn visit_f64<E: de::Error>(self, v: f64) -> Result<$name, E> {
                        Err(E::custom($name::no_unit(&v.to_string())))
                    }
                }
                d.deserialize_any(V)
            }
        }
    };
}

unit_type!(Duration, SimTime, parse_duration, "duration");
unit_type!(Rate, f64, parse_rate, "bit rate");
unit_type!(Bytes, u64, parse_bytes, "byte size");
unit_type!(Length, f64, parse_length, "distance");
unit_type!(Power, f64, parse_power, "power");
unit_type!(Speed, f64, parse_speed, "speed");
unit_type!(Decibels, f64, parse_decibels, "level in dB");

impl Decibels {
    fn no_unit(number: &str) -> String {
        no_unit_hint(number, "dB", "decibels", DECIBEL_UNITS)
    }
}

impl Speed {
    fn no_unit(number: &str) -> String {
        no_unit_hint(number, "m/s", "metres per second", SPEED_UNITS)
    }
}

/// The hint for a bare number where a quantity is expected. It spells the number in the base
/// unit and says what that means, so that the user sees the magnitude they wrote and never a
/// suggestion off by a factor of 1000 (`rate = 2000000` is 2 Mbps, not "2000000Mbps").
fn no_unit_hint(number: &str, base_unit: &str, meaning: &str, units: &str) -> String {
    format!(
        "`{number}` has no unit; write the quantity as a string with a unit, e.g. \"{number}{base_unit}\" \
         ({number} {meaning}); allowed units: {units}"
    )
}

impl Duration {
    fn no_unit(number: &str) -> String {
        no_unit_hint(number, "s", "seconds", DURATION_UNITS)
    }
}
impl Rate {
    fn no_unit(number: &str) -> String {
        no_unit_hint(number, "bps", "bits per second", RATE_UNITS)
    }
}
impl Bytes {
    fn no_unit(number: &str) -> String {
        no_unit_hint(number, "B", "bytes", BYTES_UNITS)
    }
}
impl Length {
    fn no_unit(number: &str) -> String {
        no_unit_hint(number, "m", "metres", LENGTH_UNITS)
    }
}
impl Power {
    fn no_unit(number: &str) -> String {
        no_unit_hint(number, "W", "watts", POWER_UNITS)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// u64 nanoseconds hold 18,446,744,073.7 s: 1e30 s is refused with the range, the
    /// largest whole second below the limit is accepted.
    #[test]
    fn durations_beyond_the_clock_are_refused_with_its_range() {
        let e = parse_duration("1e30s").unwrap_err();
        assert_eq!(
            e,
            "`1e30s` is beyond the simulated clock's range (0 to 18446744073 s, about 584 years)"
        );
        assert!(parse_duration("18446744074s").is_err());
        // Accepted, to within the f64 resolution of the number (2 us at this size).
        let t = parse_duration("18446744073s").unwrap();
        assert!(t.0.abs_diff(18_446_744_073_000_000_000) < 1_000, "{t:?}");
        assert!(parse_duration("307445735min").is_err());
    }

    /// A bare number is spelled back in the base unit with its meaning, never with a
    /// prefixed unit that would change its magnitude.
    #[test]
    fn a_bare_number_is_hinted_in_the_base_unit() {
        // serde_json appends " at line 1 column N"; the scenario loader strips it.
        let message =
            |e: serde_json::Error| e.to_string().split(" at line ").next().unwrap().to_string();
        let rate = message(serde_json::from_str::<Rate>("2000000").unwrap_err());
        assert_eq!(
            rate,
            "`2000000` has no unit; write the quantity as a string with a unit, e.g. \
             \"2000000bps\" (2000000 bits per second); allowed units: bps, kbps, Mbps, Gbps"
        );
        let rto = message(serde_json::from_str::<Duration>("0.2").unwrap_err());
        assert_eq!(
            rto,
            "`0.2` has no unit; write the quantity as a string with a unit, e.g. \"0.2s\" \
             (0.2 seconds); allowed units: s, ms, us, ns, min"
        );
        let size = serde_json::from_str::<Bytes>("1500")
            .unwrap_err()
            .to_string();
        assert!(size.contains("e.g. \"1500B\" (1500 bytes)"), "{size}");
        let range = serde_json::from_str::<Length>("250")
            .unwrap_err()
            .to_string();
        assert!(range.contains("e.g. \"250m\" (250 metres)"), "{range}");
        let power = serde_json::from_str::<Power>("0.28")
            .unwrap_err()
            .to_string();
        assert!(power.contains("e.g. \"0.28W\" (0.28 watts)"), "{power}");
    }

    #[test]
    fn speeds_in_metres_per_second_and_kilometres_per_hour() {
        assert_eq!(parse_speed("20m/s").unwrap(), 20.0);
        assert!((parse_speed("72km/h").unwrap() - 20.0).abs() < 1e-12);
        assert!(parse_speed("5").unwrap_err().contains("m/s, km/h"));
        assert!(parse_speed("-1m/s").is_err());
    }

    #[test]
    fn durations() {
        assert_eq!(parse_duration("10ms").unwrap(), SimTime::from_millis(10));
        assert_eq!(parse_duration("1.5s").unwrap(), SimTime::from_millis(1500));
        assert_eq!(parse_duration("250us").unwrap(), SimTime::from_micros(250));
        assert!(parse_duration("5parsecs")
            .unwrap_err()
            .contains("allowed units: s, ms"));
        assert!(parse_duration("-1s").unwrap_err().contains("negative"));
        assert!(parse_duration("10").unwrap_err().contains("no unit"));
    }

    #[test]
    fn rates() {
        assert_eq!(parse_rate("384kbps").unwrap(), 384_000.0);
        assert_eq!(parse_rate("2Mbps").unwrap(), 2e6);
        assert!(parse_rate("-1Mbps").unwrap_err().contains("must be > 0"));
        assert!(parse_rate("0bps").unwrap_err().contains("must be > 0"));
        assert!(parse_rate("3MB/s").unwrap_err().contains("bad unit"));
    }

    #[test]
    fn lengths() {
        assert_eq!(parse_length("250m").unwrap(), 250.0);
        assert_eq!(parse_length("1.5km").unwrap(), 1500.0);
        assert!(parse_length("250").unwrap_err().contains("no unit"));
        assert!(parse_length("-1m").unwrap_err().contains("negative"));
        assert!(parse_length("3ft")
            .unwrap_err()
            .contains("allowed units: m, km"));
    }

    /// 0 dBm is 1 mW; 24.5 dBm is ns-2's Pt_ 0.28183815 W (link-spec §3.4) to 6 digits.
    #[test]
    fn powers() {
        assert_eq!(parse_power("0dBm").unwrap(), 1e-3);
        assert!((parse_power("24.5dBm").unwrap() - 0.28183815).abs() < 1e-6);
        assert_eq!(parse_power("3.652e-10W").unwrap(), 3.652e-10);
        assert_eq!(parse_power("281.83815mW").unwrap(), 0.28183815);
        assert!(parse_power("0W").unwrap_err().contains("must be > 0"));
        assert!(parse_power("1J").unwrap_err().contains("allowed units: W"));
    }

    #[test]
    fn byte_sizes() {
        assert_eq!(parse_bytes("1000B").unwrap(), 1000);
        assert_eq!(parse_bytes("1.5MB").unwrap(), 1_500_000);
        assert_eq!(parse_bytes("2KiB").unwrap(), 2048);
    }
}
