//! Simulation time: an integer count of nanoseconds since the start of the run.
//!
//! Integer time keeps event ordering exact and runs reproducible across machines; every
//! duration that enters the simulator from a scenario is rounded to the nearest nanosecond
//! once, at parse time.

use std::fmt;
use std::ops::{Add, AddAssign, Sub};

/// A point in simulated time, in nanoseconds since the start of the run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SimTime(pub u64);

impl SimTime {
    pub const ZERO: SimTime = SimTime(0);
    pub const MAX: SimTime = SimTime(u64::MAX);

    pub const fn from_nanos(ns: u64) -> Self {
        SimTime(ns)
    }
    pub const fn from_micros(us: u64) -> Self {
        SimTime(us * 1_000)
    }
    pub const fn from_millis(ms: u64) -> Self {
        SimTime(ms * 1_000_000)
    }
    /// Rounds to the nearest nanosecond; negative inputs clamp to zero.
    pub fn from_secs_f64(s: f64) -> Self {
        if s <= 0.0 {
            SimTime(0)
        } else {
            SimTime((s * 1e9).round() as u64)
        }
    }
    pub const fn as_nanos(self) -> u64 {
        self.0
    }
    /// Seconds as the models use them (a multiplication by 1e-9, so 60 s reads back as
    /// 60.00000000000001). Kept as it is: every model's arithmetic, and so every pinned
    /// result, was computed with it.
    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 * 1e-9
    }
    /// Seconds for reports: the double nearest to the exact decimal value (a correctly
    /// rounded division, exact for times below 2^53 ns, about 104 days), so a 60 s time
    /// prints as `60`. Reports only: the models keep `as_secs_f64`.
    pub fn as_secs_exact(self) -> f64 {
        self.0 as f64 / 1e9
    }
    pub fn saturating_sub(self, other: SimTime) -> SimTime {
        SimTime(self.0.saturating_sub(other.0))
    }
}

impl Add for SimTime {
    type Output = SimTime;
    fn add(self, rhs: SimTime) -> SimTime {
        SimTime(self.0.saturating_add(rhs.0))
    }
}

impl AddAssign for SimTime {
    fn add_assign(&mut self, rhs: SimTime) {
        self.0 = self.0.saturating_add(rhs.0);
    }
}

impl Sub for SimTime {
    type Output = SimTime;
    fn sub(self, rhs: SimTime) -> SimTime {
        SimTime(self.0 - rhs.0)
    }
}

impl fmt::Display for SimTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:.9}s", self.as_secs_f64())
    }
}

/// `x.round() as u64`, without the call to libm's `round` that `f64::round` compiles to on
/// baseline x86-64 (this is on the path of every frame to every receiver and of every
/// wired transmission, and of every pop of the event queue).
///
/// From 0.5 to 2^52 it is `(x + 0.5)` truncated: `x` and 0.5 are on the same grid of
/// doubles there (the spacing of `x` is at most 0.5), so the sum is exact unless it enters
/// the next binade, where its spacing doubles and a sum halfway between two doubles rounds
/// to even; that rounded sum could only pass an integer the exact sum does not reach if the
/// new spacing exceeded 1, which takes a sum past 2^53. Truncating the exact sum is
/// rounding halves away from zero, as `round` does. Below 0.5 (and not negative) the result
/// is 0 (there the sum could round up to 1.0: 0.49999999999999994 + 0.5). Other values
/// (negative, huge, NaN) take `round` itself. The truncation goes through `i64`, one
/// instruction on x86-64 (a float-to-`u64` cast is a dozen). One addition and one
/// conversion: half the dependent chain of truncating, converting back and comparing the
/// fraction, which perf showed as a good part of a wired hop.
#[inline]
pub fn round_to_u64(x: f64) -> u64 {
    if (0.5..4_503_599_627_370_496.0).contains(&x) {
        (x + 0.5) as i64 as u64
    } else if (0.0..0.5).contains(&x) {
        0
    } else {
        x.round() as u64
    }
}

/// `x.floor()`, without the call to libm's `floor` that it compiles to on baseline x86-64
/// (a TCP sender floors its window several times per ACK). Above zero and below 2^52 the
/// truncation `x as i64` is exact and is the floor, and converting back is exact; other
/// values (zero, negative, huge, NaN) take `floor` itself, which keeps the sign of -0.0.
#[inline]
pub fn floor_f64(x: f64) -> f64 {
    if x > 0.0 && x < 4_503_599_627_370_496.0 {
        (x as i64) as f64
    } else {
        x.floor()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fast floor is `f64::floor` exactly, to the bit (the sign of zero included).
    #[test]
    fn floor_f64_is_floor() {
        let edges = [
            0.0,
            -0.0,
            0.5,
            1.0,
            1.0 - f64::EPSILON / 2.0,
            2.999_999_999_999_999_6,
            4_503_599_627_370_495.5,
            4_503_599_627_370_496.0,
            1.0e19,
            -0.4,
            -3.0,
            f64::INFINITY,
        ];
        for x in edges {
            assert_eq!(floor_f64(x).to_bits(), x.floor().to_bits(), "{x}");
        }
        assert!(floor_f64(f64::NAN).is_nan());
        let mut rng = crate::sim::RandomStream::named(6, "floor-test");
        for _ in 0..100_000 {
            let x = rng.uniform() * 1e3;
            assert_eq!(floor_f64(x).to_bits(), x.floor().to_bits(), "{x}");
        }
    }

    /// The fast rounding is `f64::round` exactly: halves, the values either side of them,
    /// the ends of its range and beyond, and many products of the kind the links compute.
    #[test]
    fn round_to_u64_is_round() {
        let edges = [
            0.0,
            -0.0,
            0.49999999999999994,
            0.5,
            0.500_000_000_000_000_1,
            1.5,
            2.5,
            1.499_999_999_999_999_8,
            1.999_999_999_999_999_8,
            3.5,
            1e9 * 0.105333333,
            2_251_799_813_685_247.5,
            2_251_799_813_685_248.5,
            4_503_599_627_370_494.5,
            4_503_599_627_370_495.0,
            4_503_599_627_370_495.5,
            4_503_599_627_370_496.0,
            9.0e15,
            1.0e19,
            -0.4,
            -3.0,
        ];
        for x in edges {
            assert_eq!(round_to_u64(x), x.round() as u64, "{x}");
        }
        // Halves and integers at every binade of the fast range, and their neighbours: where
        // a sum with 0.5 enters the next binade.
        for k in 0..53 {
            let p = 2f64.powi(k);
            for base in [p - 1.5, p - 0.5, p, p + 0.5, p + 1.0] {
                for y in [
                    base,
                    f64::from_bits(base.to_bits() - 1),
                    f64::from_bits(base.to_bits() + 1),
                ] {
                    if y >= 0.0 {
                        assert_eq!(round_to_u64(y), y.round() as u64, "{y}");
                    }
                }
            }
        }
        let mut rng = crate::sim::RandomStream::named(5, "round-test");
        for _ in 0..100_000 {
            let small = rng.uniform() * 4.0;
            assert_eq!(round_to_u64(small), small.round() as u64, "{small}");
            let x = rng.uniform() * 1e3 * 1e9;
            let h = x.floor() + 0.5;
            for y in [
                x,
                h,
                f64::from_bits(h.to_bits() - 1),
                f64::from_bits(h.to_bits() + 1),
            ] {
                assert_eq!(round_to_u64(y), y.round() as u64, "{y}");
            }
        }
    }

    #[test]
    fn seconds_round_to_nearest_nanosecond() {
        assert_eq!(SimTime::from_secs_f64(0.1), SimTime(100_000_000));
        assert_eq!(SimTime::from_secs_f64(1e-9 * 0.6), SimTime(1));
        assert_eq!(SimTime::from_secs_f64(-3.0), SimTime(0));
        assert_eq!(SimTime::from_millis(20).as_secs_f64(), 0.02);
    }

    #[test]
    fn report_seconds_print_the_decimal_value() {
        // 60 s and 30 s: the product with 1e-9 lands one ulp above the decimal value (the
        // noise the run summary used to print); the division is correctly rounded.
        assert_eq!(
            SimTime::from_millis(60_000).as_secs_f64().to_string(),
            "60.00000000000001"
        );
        assert_eq!(
            SimTime::from_millis(60_000).as_secs_exact().to_string(),
            "60"
        );
        assert_eq!(
            SimTime::from_millis(30_000).as_secs_exact().to_string(),
            "30"
        );
        assert_eq!(
            SimTime::from_millis(2_500).as_secs_exact().to_string(),
            "2.5"
        );
        assert_eq!(
            SimTime::from_nanos(1).as_secs_exact().to_string(),
            "0.000000001"
        );
        assert_eq!(
            SimTime::from_nanos(290_123_456_789)
                .as_secs_exact()
                .to_string(),
            "290.123456789"
        );
    }
}
