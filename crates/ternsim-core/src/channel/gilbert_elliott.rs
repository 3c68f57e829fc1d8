//! The Gilbert-Elliott two-state burst-error channel (link-spec §2.3).
//!
//! E. N. Gilbert, "Capacity of a burst-noise channel", Bell Syst. Tech. J. 39, 1960: a Markov
//! chain with a good state G and a bad state B; Elliott, "Estimates of error rates for codes on
//! burst-noise channels", Bell Syst. Tech. J. 42, 1963, lets both states err. Per unit:
//! P(G→B) = `p_gb` (Gilbert's P, link-spec p), P(B→G) = `p_bg` (Gilbert's p, link-spec r);
//! a unit in state s is in error with probability e_s.
//!
//! Closed forms used here (link-spec §2.3): π_B = p_gb/(p_gb + p_bg), π_G = 1 − π_B;
//! ε = π_G e_G + π_B e_B; sojourns are geometric with means 1/p_gb (good) and 1/p_bg (bad).
//!
//! Per unit: the unit is judged in the current state, then the chain moves (link-spec §2.4
//! "emit, then move"). The initial state is drawn from the stationary distribution unless a
//! state is given.

use super::check_probability;
use super::hmm::{HiddenMarkov, HmmInitial};
use crate::sim::RandomStream;

/// Where the chain starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GeInitial {
    /// Drawn from (π_G, π_B) at the first unit, so the process is stationary from the start.
    Stationary,
    Good,
    Bad,
}

/// A Gilbert-Elliott channel and its current state.
#[derive(Clone, Debug, PartialEq)]
pub struct GilbertElliott {
    p_gb: f64,
    p_bg: f64,
    e_good: f64,
    e_bad: f64,
    initial: GeInitial,
    /// State of the next unit; `None` before the first.
    bad: Option<bool>,
}

impl GilbertElliott {
    /// A channel with transition probabilities `p_gb` = P(G→B), `p_bg` = P(B→G) per unit and
    /// error probabilities `e_good`, `e_bad`; starts stationary.
    pub fn new(p_gb: f64, p_bg: f64, e_good: f64, e_bad: f64) -> Result<Self, String> {
        check_probability("p_gb", p_gb)?;
        check_probability("p_bg", p_bg)?;
        check_probability("e_good", e_good)?;
        check_probability("e_bad", e_bad)?;
        if p_gb + p_bg == 0.0 {
            return Err(
                "p_gb and p_bg are both 0: the chain never changes state and has no \
                        unique stationary distribution (use an i.i.d. model instead)"
                    .into(),
            );
        }
        Ok(GilbertElliott {
            p_gb,
            p_bg,
            e_good,
            e_bad,
            initial: GeInitial::Stationary,
            bad: None,
        })
    }

    /// The simple Gilbert channel most TCP-over-wireless studies use (link-spec §2.3:
    /// e_G = 0, e_B = 1), from the mean error rate ε and the mean error-burst length L_B:
    /// p_bg = 1/L_B, p_gb = ε p_bg/(1 − ε).
    pub fn simple(mean_loss: f64, mean_burst: f64) -> Result<Self, String> {
        Self::from_mean_loss_and_burst(mean_loss, mean_burst, 0.0, 1.0)
    }

    /// A channel with the given per-state error probabilities whose long-run error rate is
    /// `mean_loss` and whose bad-state sojourns last `mean_bad_sojourn` units on average:
    /// p_bg = 1/L, π_B = (ε − e_G)/(e_B − e_G), p_gb = π_B p_bg/(1 − π_B) (inverting the
    /// closed forms above).
    pub fn from_mean_loss_and_burst(
        mean_loss: f64,
        mean_bad_sojourn: f64,
        e_good: f64,
        e_bad: f64,
    ) -> Result<Self, String> {
        check_probability("mean_loss", mean_loss)?;
        check_probability("e_good", e_good)?;
        check_probability("e_bad", e_bad)?;
        if !(mean_bad_sojourn.is_finite() && mean_bad_sojourn >= 1.0) {
            return Err(format!(
                "mean burst length = {mean_bad_sojourn} must be at least 1 unit"
            ));
        }
        if !(e_good <= mean_loss && mean_loss < e_bad) {
            return Err(format!(
                "mean_loss = {mean_loss} must lie in [e_good, e_bad) = [{e_good}, {e_bad})"
            ));
        }
        let p_bg = 1.0 / mean_bad_sojourn;
        let pi_bad = (mean_loss - e_good) / (e_bad - e_good);
        let p_gb = pi_bad * p_bg / (1.0 - pi_bad);
        if p_gb > 1.0 {
            return Err(format!(
                "mean_loss = {mean_loss} with mean burst length {mean_bad_sojourn} needs \
                 P(good→bad) = {p_gb} > 1; lengthen the bursts or lower the loss rate"
            ));
        }
        Self::new(p_gb, p_bg, e_good, e_bad)
    }

    /// Start in a given state instead of the stationary distribution.
    pub fn with_initial(mut self, initial: GeInitial) -> Self {
        self.initial = initial;
        self.bad = None;
        self
    }

    pub fn p_gb(&self) -> f64 {
        self.p_gb
    }
    pub fn p_bg(&self) -> f64 {
        self.p_bg
    }
    pub fn e_good(&self) -> f64 {
        self.e_good
    }
    pub fn e_bad(&self) -> f64 {
        self.e_bad
    }
    pub fn initial(&self) -> GeInitial {
        self.initial
    }

    /// π_B = p_gb/(p_gb + p_bg).
    pub fn stationary_bad(&self) -> f64 {
        self.p_gb / (self.p_gb + self.p_bg)
    }

    /// ε = π_G e_G + π_B e_B.
    pub fn mean_error_rate(&self) -> f64 {
        let pi_b = self.stationary_bad();
        (1.0 - pi_b) * self.e_good + pi_b * self.e_bad
    }

    /// Mean bad-state sojourn, 1/p_bg units (infinite if the bad state is absorbing).
    pub fn mean_bad_sojourn(&self) -> f64 {
        1.0 / self.p_bg
    }

    /// Mean good-state sojourn, 1/p_gb units.
    pub fn mean_good_sojourn(&self) -> f64 {
        1.0 / self.p_gb
    }

    /// Whether the next unit will be judged in the bad state (`None` before the first unit
    /// when the start is drawn).
    pub fn next_unit_bad(&self) -> Option<bool> {
        match (self.bad, self.initial) {
            (Some(b), _) => Some(b),
            (None, GeInitial::Good) => Some(false),
            (None, GeInitial::Bad) => Some(true),
            (None, GeInitial::Stationary) => None,
        }
    }

    /// One unit: returns (judged in the bad state, in error), then moves the chain.
    pub fn step(&mut self, rng: &mut RandomStream) -> (bool, bool) {
        let bad = match self.bad {
            Some(b) => b,
            None => match self.initial {
                GeInitial::Good => false,
                GeInitial::Bad => true,
                GeInitial::Stationary => rng.bernoulli(self.stationary_bad()),
            },
        };
        let error = rng.bernoulli(if bad { self.e_bad } else { self.e_good });
        let next_bad = if bad {
            !rng.bernoulli(self.p_bg)
        } else {
            rng.bernoulli(self.p_gb)
        };
        self.bad = Some(next_bad);
        (bad, error)
    }

    pub fn is_error(&mut self, rng: &mut RandomStream) -> bool {
        self.step(rng).1
    }

    /// The same channel as a two-state HMM (state 0 = good, 1 = bad).
    pub fn to_hmm(&self) -> HiddenMarkov {
        let initial = match self.initial {
            GeInitial::Stationary => HmmInitial::Stationary,
            GeInitial::Good => HmmInitial::State(0),
            GeInitial::Bad => HmmInitial::State(1),
        };
        HiddenMarkov::new(
            vec![
                vec![1.0 - self.p_gb, self.p_gb],
                vec![self.p_bg, 1.0 - self.p_bg],
            ],
            vec![self.e_good, self.e_bad],
            initial,
        )
        .expect("a valid Gilbert-Elliott channel is a valid HMM")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simple_gilbert_from_loss_and_burst_matches_link_spec_numbers() {
        // link-spec §7a: ε = 0.1, L_B = 2 → r = 0.5, p = 0.0556, π_B = 0.1.
        let ge = GilbertElliott::simple(0.1, 2.0).unwrap();
        assert_eq!(ge.p_bg(), 0.5);
        assert!((ge.p_gb() - 1.0 / 18.0).abs() < 1e-15);
        assert!((ge.stationary_bad() - 0.1).abs() < 1e-15);
        assert!((ge.mean_error_rate() - 0.1).abs() < 1e-15);
        assert_eq!(ge.mean_bad_sojourn(), 2.0);
    }

    #[test]
    fn elliott_mean_error_rate_closed_form() {
        // p_gb = 0.02, p_bg = 0.2: π_B = 0.02/0.22 = 1/11; ε = (10/11)·0.01 + (1/11)·0.6
        // = (0.1 + 0.6)/11 = 0.7/11.
        let ge = GilbertElliott::new(0.02, 0.2, 0.01, 0.6).unwrap();
        assert!((ge.stationary_bad() - 1.0 / 11.0).abs() < 1e-15);
        assert!((ge.mean_error_rate() - 0.7 / 11.0).abs() < 1e-15);
        let ge2 = GilbertElliott::from_mean_loss_and_burst(0.7 / 11.0, 5.0, 0.01, 0.6).unwrap();
        assert!((ge2.p_gb() - 0.02).abs() < 1e-12 && (ge2.p_bg() - 0.2).abs() < 1e-15);
        assert!((ge.to_hmm().mean_error_rate() - 0.7 / 11.0).abs() < 1e-15);
    }

    /// Asymptotic variance of the error-indicator mean for a stationary Gilbert-Elliott
    /// process (Markov-chain CLT): σ² = ε(1−ε) + 2 Σ_{k≥1} Cov(X_0, X_k), where
    /// Cov(X_0, X_k) = (e_B − e_G)² π_G π_B λ^k with λ = 1 − p_gb − p_bg (the second
    /// eigenvalue of the 2×2 chain), so Σ_k = (e_B − e_G)² π_G π_B λ/(1 − λ).
    fn ge_asymptotic_variance(p_gb: f64, p_bg: f64, e_g: f64, e_b: f64) -> f64 {
        let pi_b = p_gb / (p_gb + p_bg);
        let pi_g = 1.0 - pi_b;
        let eps = pi_g * e_g + pi_b * e_b;
        let lambda = 1.0 - p_gb - p_bg;
        eps * (1.0 - eps) + 2.0 * (e_b - e_g).powi(2) * pi_g * pi_b * lambda / (1.0 - lambda)
    }

    #[test]
    fn empirical_loss_rate_and_bad_sojourn_match_closed_forms() {
        let (p_gb, p_bg, e_g, e_b) = (0.02, 0.2, 0.01, 0.6);
        let mut ge = GilbertElliott::new(p_gb, p_bg, e_g, e_b).unwrap();
        let mut rng = RandomStream::named(42, "channel/ge");
        let n = 1_000_000;
        let mut errors = 0u64;
        let mut sojourns: Vec<u64> = vec![];
        let mut run = 0u64;
        for _ in 0..n {
            let (bad, err) = ge.step(&mut rng);
            errors += u64::from(err);
            if bad {
                run += 1;
            } else if run > 0 {
                sojourns.push(run);
                run = 0;
            }
        }
        // Loss rate: ε = 0.7/11 ≈ 0.06364. σ² ≈ 0.0596 + 2·0.348·0.0826·(0.78/0.22) ≈ 0.264,
        // about 4.4 times the binomial variance; SE = sqrt(σ²/n) ≈ 5.1e-4.
        let eps = 0.7 / 11.0;
        let se = (ge_asymptotic_variance(p_gb, p_bg, e_g, e_b) / n as f64).sqrt();
        let rate = errors as f64 / n as f64;
        assert!(
            (rate - eps).abs() < 5.0 * se,
            "rate {rate}, ε {eps}, se {se}"
        );
        // Bad sojourns are i.i.d. geometric with mean 1/p_bg = 5 and variance
        // (1 − p_bg)/p_bg² = 20; about n π_B p_bg ≈ 18,000 complete sojourns.
        let m = sojourns.len() as f64;
        let mean = sojourns.iter().sum::<u64>() as f64 / m;
        let se = (20.0 / m).sqrt();
        assert!(
            (mean - 5.0).abs() < 5.0 * se,
            "mean sojourn {mean}, se {se}"
        );
    }

    #[test]
    fn simple_gilbert_error_bursts_have_mean_one_over_p_bg() {
        // e_G = 0, e_B = 1: error bursts are exactly bad sojourns (link-spec §2.3: L_B = 1/r).
        let mut ge = GilbertElliott::simple(0.1, 2.0).unwrap();
        let mut rng = RandomStream::named(7, "channel/gilbert");
        let n = 1_000_000;
        let (mut errors, mut bursts, mut prev) = (0u64, 0u64, false);
        for _ in 0..n {
            let e = ge.is_error(&mut rng);
            errors += u64::from(e);
            if e && !prev {
                bursts += 1;
            }
            prev = e;
        }
        // σ² = 0.09 + 2·0.9·0.1·(0.4444/0.5556) = 0.234; SE ≈ 4.8e-4.
        let se = (ge_asymptotic_variance(1.0 / 18.0, 0.5, 0.0, 1.0) / n as f64).sqrt();
        let rate = errors as f64 / n as f64;
        assert!((rate - 0.1).abs() < 5.0 * se, "rate {rate}");
        // Burst lengths: geometric, mean 2, variance (1 − 0.5)/0.25 = 2; ~50,000 bursts.
        let mean_burst = errors as f64 / bursts as f64;
        let se = (2.0 / bursts as f64).sqrt();
        assert!(
            (mean_burst - 2.0).abs() < 5.0 * se,
            "mean burst {mean_burst}"
        );
    }

    #[test]
    fn given_initial_state_is_used_for_the_first_unit() {
        let mut rng = RandomStream::named(3, "x");
        let mut ge = GilbertElliott::new(0.0, 0.01, 0.0, 1.0)
            .unwrap()
            .with_initial(GeInitial::Bad);
        assert_eq!(ge.next_unit_bad(), Some(true));
        assert!(ge.is_error(&mut rng));
        let mut ge = GilbertElliott::new(0.01, 0.5, 0.0, 1.0)
            .unwrap()
            .with_initial(GeInitial::Good);
        assert!(!ge.step(&mut rng).0);
    }

    #[test]
    fn validation_names_the_parameter() {
        assert_eq!(
            GilbertElliott::new(-0.1, 0.5, 0.0, 1.0).unwrap_err(),
            "p_gb = -0.1 is not a probability in [0, 1]"
        );
        assert!(GilbertElliott::new(0.1, 0.5, 0.0, 2.0)
            .unwrap_err()
            .starts_with("e_bad = 2"));
        assert!(GilbertElliott::new(0.0, 0.0, 0.0, 1.0)
            .unwrap_err()
            .contains("both 0"));
        assert!(GilbertElliott::simple(0.1, 0.5)
            .unwrap_err()
            .contains("at least 1"));
        assert!(GilbertElliott::simple(0.9, 1.0)
            .unwrap_err()
            .contains("> 1"));
    }
}
