//! Where a traffic source's random numbers come from. A scenario's source draws from its own
//! stream ([`RandomStream`]). A `ternsim ns2` run whose every draw from ns-2's default RNG
//! ternsim can place in run order replays that generator instead ([`Ns2Draws`], the world's
//! `ns2_default_rng`), with ns-2.35's own arithmetic (`tools/rng.h`), so a script's random
//! CBR, Exponential and Pareto sources send at ns-2's very times.

use crate::sim::mrg32k3a::Mrg32k3a;
use crate::sim::RandomStream;

/// The draws a traffic source makes: CBR's jitter (`random_`), the on/off sources' burst
/// lengths and idle times.
pub trait SourceDraws {
    /// An exponential variate with mean `mean`.
    fn exponential(&mut self, mean: f64) -> f64;
    /// A Pareto variate with mean `mean` and shape `shape` (> 1): scale mean·(shape−1)/shape.
    fn pareto(&mut self, mean: f64, shape: f64) -> f64;
    /// A uniform variate in [lo, hi).
    fn uniform_range(&mut self, lo: f64, hi: f64) -> f64;
}

impl SourceDraws for RandomStream {
    fn exponential(&mut self, mean: f64) -> f64 {
        RandomStream::exponential(self, mean)
    }

    fn pareto(&mut self, mean: f64, shape: f64) -> f64 {
        RandomStream::pareto(self, mean, shape)
    }

    fn uniform_range(&mut self, lo: f64, hi: f64) -> f64 {
        RandomStream::uniform_range(self, lo, hi)
    }
}

/// ns-2's default RNG, replayed: each draw is the number ns-2 draws at that point of the run.
pub struct Ns2Draws<'a>(pub &'a mut Mrg32k3a);

impl SourceDraws for Ns2Draws<'_> {
    /// `ExponentialRandomVariable::value()`: `RNG::exponential(avg)`, avg · −log(U).
    fn exponential(&mut self, mean: f64) -> f64 {
        mean * -self.0.ns2_uniform_double().ln()
    }

    /// `Random::pareto(p, shape)` with `p = mean * (shape - 1.0) / shape` (tools/pareto.cc
    /// `init`): `RNG::pareto`, p · (1 / U^(1/shape)).
    fn pareto(&mut self, mean: f64, shape: f64) -> f64 {
        let scale = mean * (shape - 1.0) / shape;
        scale * (1.0 / self.0.ns2_uniform_double().powf(1.0 / shape))
    }

    /// `Random::uniform(a, b)`: `RNG::uniform(a, b)`, a + (b − a)·U.
    fn uniform_range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.0.ns2_uniform_double()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ns2_draws_are_rng_h_formulas_of_consecutive_uniforms() {
        // Each draw takes exactly one uniform of the generator, in order.
        let mut g = Mrg32k3a::ns2_seeded(7);
        let mut mirror = g.clone();
        let mut d = Ns2Draws(&mut g);
        let e = d.exponential(2.5);
        let p = d.pareto(3.0, 1.5);
        let u = d.uniform_range(-0.5, 0.5);
        let (u1, u2, u3) = (mirror.uniform(), mirror.uniform(), mirror.uniform());
        assert_eq!(e, 2.5 * -u1.ln());
        // Mean 3, shape 1.5: scale 3 · 0.5 / 1.5 = 1.
        assert_eq!(p, 1.0 / u2.powf(1.0 / 1.5));
        assert_eq!(u, -0.5 + u3);
    }

    #[test]
    fn ns2_exponential_and_pareto_have_their_means() {
        // Exp(mean 2): over 200k draws the sample mean is 2 within 5 standard errors
        // (5 · 2 / √200k = 0.0224). Pareto(mean 3, shape 3): variance x_m² k / ((k−1)² (k−2))
        // = 3 with x_m = 2, so 5 SE = 5 · √(3 / 200k); every draw is at least x_m.
        let mut g = Mrg32k3a::ns2_seeded(12345);
        let mut d = Ns2Draws(&mut g);
        let n = 200_000;
        let e: f64 = (0..n).map(|_| d.exponential(2.0)).sum::<f64>() / f64::from(n);
        assert!((e - 2.0).abs() < 0.0224, "{e}");
        let mut min = f64::INFINITY;
        let mut sum = 0.0;
        for _ in 0..n {
            let x = d.pareto(3.0, 3.0);
            min = min.min(x);
            sum += x;
        }
        assert!(min >= 2.0);
        let se5 = 5.0 * (3.0 / f64::from(n)).sqrt();
        assert!(
            (sum / f64::from(n) - 3.0).abs() < se5,
            "{}",
            sum / f64::from(n)
        );
    }
}
