//! Named random streams derived from the run seed.
//!
//! Each component draws from its own PCG stream whose state is a hash of the run seed and
//! the component's name (`"link/r1-r2/a_to_b/error"`, `"flow/f1/tcp"`). Adding a component
//! therefore never changes what another component draws, and the same seed always yields
//! the same numbers on every platform (the hash is FNV-1a, not the std hasher).

use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// A deterministic random stream for one component.
#[derive(Clone, Debug)]
pub struct RandomStream {
    rng: Pcg64Mcg,
}

fn fnv1a64(bytes: &[u8], mut h: u64) -> u64 {
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// SplitMix64 finaliser: spreads the bits of a hash over the whole word.
fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl RandomStream {
    /// The stream named `name` in the run with seed `seed`.
    pub fn named(seed: u64, name: &str) -> Self {
        let h = fnv1a64(name.as_bytes(), 0xcbf2_9ce4_8422_2325 ^ mix64(seed));
        let lo = mix64(h);
        let hi = mix64(h ^ 0x9e37_79b9_7f4a_7c15);
        let state = (u128::from(hi) << 64) | u128::from(lo);
        RandomStream {
            rng: Pcg64Mcg::new(state | 1),
        }
    }

    /// A uniform draw in [0, 1).
    pub fn uniform(&mut self) -> f64 {
        self.rng.gen::<f64>()
    }

    /// A uniform draw in [lo, hi).
    pub fn uniform_range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.uniform()
    }

    /// True with probability `p`.
    pub fn bernoulli(&mut self, p: f64) -> bool {
        p > 0.0 && self.uniform() < p
    }

    /// A uniform integer in [0, n).
    pub fn below(&mut self, n: u64) -> u64 {
        self.rng.gen_range(0..n)
    }

    /// An exponential draw with mean `mean`, by inversion as ns-2's `ExponentialRandomVariable`
    /// (`tools/ranvar.cc`) does: -mean * ln(V). ns-2's V never is 0; ours is 1 - U, which lies
    /// in (0, 1], so ln never sees 0 and one uniform is consumed per draw.
    pub fn exponential(&mut self, mean: f64) -> f64 {
        -mean * (1.0 - self.uniform()).ln()
    }

    /// A Pareto draw with mean `mean` and shape `shape` (> 1), parameterised as ns-2's
    /// `ParetoRandomVariable` and `tools/pareto.cc` do: scale x_m = mean * (shape - 1) / shape,
    /// value x_m / V^(1/shape), so that the mean shape * x_m / (shape - 1) is `mean`.
    /// V = 1 - U lies in (0, 1], keeping the draw finite; one uniform per draw.
    pub fn pareto(&mut self, mean: f64, shape: f64) -> f64 {
        let scale = mean * (shape - 1.0) / shape;
        scale / (1.0 - self.uniform()).powf(1.0 / shape)
    }

    /// A normal draw N(mean, std²) by the Box–Muller transform: two uniforms per draw, the
    /// cosine branch only (no value is kept between draws, so a draw depends on nothing but
    /// the stream's position). 1 − U lies in (0, 1], so ln never sees 0.
    pub fn normal(&mut self, mean: f64, std: f64) -> f64 {
        let r = (-2.0 * (1.0 - self.uniform()).ln()).sqrt();
        let theta = 2.0 * std::f64::consts::PI * self.uniform();
        mean + std * r * theta.cos()
    }

    /// Rebuild from a raw generator (tests).
    pub fn from_seed_u64(seed: u64) -> Self {
        RandomStream {
            rng: Pcg64Mcg::seed_from_u64(seed),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The normal draw's mean and deviation over 100 000 draws: the standard error of the
    /// mean is 3/√100000 = 0.0095 and that of the deviation about 3/√200000 = 0.0067, so
    /// 0.05 and 0.04 are over five of them.
    #[test]
    fn normal_draws_have_the_mean_and_deviation_asked() {
        let mut r = RandomStream::named(3, "normal");
        let xs: Vec<f64> = (0..100_000).map(|_| r.normal(1.0, 3.0)).collect();
        let n = xs.len() as f64;
        let mean = xs.iter().sum::<f64>() / n;
        let sd = (xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n).sqrt();
        assert!((mean - 1.0).abs() < 0.05, "{mean}");
        assert!((sd - 3.0).abs() < 0.04, "{sd}");
    }

    #[test]
    fn same_seed_and_name_give_the_same_stream() {
        let mut a = RandomStream::named(7, "flow/f1");
        let mut b = RandomStream::named(7, "flow/f1");
        for _ in 0..100 {
            assert_eq!(a.uniform().to_bits(), b.uniform().to_bits());
        }
    }

    #[test]
    fn different_names_or_seeds_give_different_streams() {
        let a = RandomStream::named(7, "flow/f1").uniform();
        let b = RandomStream::named(7, "flow/f2").uniform();
        let c = RandomStream::named(8, "flow/f1").uniform();
        assert_ne!(a, b);
        assert_ne!(a, c);
    }

    #[test]
    fn uniform_mean_is_one_half() {
        // Law of large numbers: the mean of 200k U(0,1) draws is 0.5 within 5 standard errors
        // (sigma = 1/sqrt(12 n) ~ 6.5e-4).
        let mut s = RandomStream::named(1, "x");
        let n = 200_000;
        let mean: f64 = (0..n).map(|_| s.uniform()).sum::<f64>() / n as f64;
        assert!((mean - 0.5).abs() < 5.0 * 6.5e-4, "mean {mean}");
    }

    #[test]
    fn exponential_and_pareto_invert_one_uniform_each() {
        // The same uniform V = 1 - U feeds the closed-form inverses, one draw per variate.
        let mut s = RandomStream::named(3, "x");
        let mut u = s.clone();
        let v = 1.0 - u.uniform();
        assert_eq!(s.exponential(2.0), -2.0 * v.ln());
        let v = 1.0 - u.uniform();
        // shape 1.5, mean 3: scale 3 * 0.5 / 1.5 = 1.
        assert_eq!(s.pareto(3.0, 1.5), 1.0 / v.powf(1.0 / 1.5));
        assert_eq!(s.uniform(), u.uniform());
    }

    #[test]
    fn exponential_mean_and_pareto_floor() {
        // Exp(mean 2): sigma = 2, so over 200k draws the sample mean is 2 within 5 standard
        // errors 5 * 2 / sqrt(200k) = 0.0224. Pareto(mean 3, shape 3): scale 2 is the minimum;
        // mean 3 with variance x_m^2 k / ((k-1)^2 (k-2)) = 3, so 5 SE = 5 * sqrt(3 / 200k).
        let mut s = RandomStream::named(11, "x");
        let n = 200_000;
        let m: f64 = (0..n).map(|_| s.exponential(2.0)).sum::<f64>() / n as f64;
        assert!((m - 2.0).abs() < 0.0224, "exp mean {m}");
        let draws: Vec<f64> = (0..n).map(|_| s.pareto(3.0, 3.0)).collect();
        assert!(draws.iter().all(|&x| x >= 2.0));
        let m = draws.iter().sum::<f64>() / n as f64;
        assert!(
            (m - 3.0).abs() < 5.0 * (3.0 / n as f64).sqrt(),
            "pareto mean {m}"
        );
    }
}
