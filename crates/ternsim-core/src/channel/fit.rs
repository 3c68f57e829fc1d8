//! Fitting an N-state binary-emission HMM to a recorded error trace with Baum-Welch
//! (link-spec §2.4; used by `ternsim fit-hmm`).
//!
//! Algorithm: expectation-maximisation with the scaled forward-backward recursions of
//! L. R. Rabiner, "A tutorial on hidden Markov models and selected applications in speech
//! recognition", Proc. IEEE 77(2), 1989: forward eqs. (19)-(21), backward (24)-(25), γ (27),
//! ξ (37), re-estimation (40a)-(40c), scaling §V.A (eqs. 91-103, log P(O|λ) = Σ_t log c_t).
//! Each iteration never lowers the likelihood (Baum et al. 1970), so the fit stops when the
//! relative gain falls below a tolerance; several starts guard against poor local maxima.
//!
//! Memory: the scaled forward variables (T × N) and scale factors are kept; the backward
//! pass runs with one rolling vector and accumulates the statistics on the fly.
//! Cost: O(T N²) per iteration.
//!
//! States of the result are ordered by increasing error probability, so state 0 is the
//! "best" state (the good state of a Gilbert-Elliott fit).

use super::hmm::{HiddenMarkov, HmmInitial};
use crate::sim::RandomStream;

/// Baum-Welch settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FitOptions {
    /// Iterations per start, at most.
    pub max_iterations: usize,
    /// Stop when log-likelihood gain ≤ `tolerance` · |log-likelihood|.
    pub tolerance: f64,
    /// Number of starts: the first is a fixed spread initialisation, the others random
    /// (link-spec §2.4 step 6); the best likelihood wins.
    pub starts: usize,
    /// Seed of the random starts.
    pub seed: u64,
}

impl Default for FitOptions {
    fn default() -> Self {
        FitOptions {
            max_iterations: 1000,
            tolerance: 1e-9,
            starts: 3,
            seed: 1,
        }
    }
}

/// A fitted model.
#[derive(Clone, Debug, PartialEq)]
pub struct HmmFit {
    /// A[i][j], states ordered by increasing error probability.
    pub transition: Vec<Vec<f64>>,
    /// b_i = P(error | state i).
    pub error_prob: Vec<f64>,
    /// Re-estimated initial distribution (γ_1, Rabiner eq. 40a).
    pub initial: Vec<f64>,
    /// ln P(O | λ) of the fitted model.
    pub log_likelihood: f64,
    /// Iterations of the winning start.
    pub iterations: usize,
    /// Whether the winning start met the tolerance before `max_iterations`.
    pub converged: bool,
    /// Log-likelihood after each iteration of the winning start (non-decreasing).
    pub log_likelihood_history: Vec<f64>,
    /// Number of observations fitted.
    pub n_obs: usize,
}

impl HmmFit {
    pub fn n_states(&self) -> usize {
        self.error_prob.len()
    }

    /// Free parameters: N(N−1) transitions, N error probabilities, N−1 initial.
    pub fn n_parameters(&self) -> usize {
        let n = self.n_states();
        n * (n - 1) + n + (n - 1)
    }

    /// Akaike information criterion, 2k − 2 ln L (link-spec §2.4 step 7: choose N).
    pub fn aic(&self) -> f64 {
        2.0 * self.n_parameters() as f64 - 2.0 * self.log_likelihood
    }

    /// Bayesian information criterion, k ln T − 2 ln L.
    pub fn bic(&self) -> f64 {
        self.n_parameters() as f64 * (self.n_obs as f64).ln() - 2.0 * self.log_likelihood
    }

    /// The fitted model as an error model. Fails if the fit left the chain with more than
    /// one closed class (e.g. a state that absorbs), which a generator cannot use.
    pub fn to_model(&self, initial: HmmInitial) -> Result<HiddenMarkov, String> {
        HiddenMarkov::new(self.transition.clone(), self.error_prob.clone(), initial)
    }
}

/// Fits an `n_states` HMM to `obs` (true = unit in error) by Baum-Welch.
pub fn fit_hmm(obs: &[bool], n_states: usize, opts: &FitOptions) -> Result<HmmFit, String> {
    if n_states == 0 {
        return Err("n_states must be at least 1".into());
    }
    if obs.len() < 2 {
        return Err(format!(
            "error trace has {} outcomes; fitting needs at least 2",
            obs.len()
        ));
    }
    if opts.max_iterations == 0 || opts.starts == 0 {
        return Err("max_iterations and starts must be at least 1".into());
    }
    if !(opts.tolerance.is_finite() && opts.tolerance >= 0.0) {
        return Err(format!(
            "tolerance = {} must be finite and non-negative",
            opts.tolerance
        ));
    }
    let mut rng = RandomStream::named(opts.seed, "channel/fit_hmm");
    let rate = obs.iter().filter(|&&o| o).count() as f64 / obs.len() as f64;
    let mut best: Option<HmmFit> = None;
    for start in 0..opts.starts {
        let params = if start == 0 {
            spread_start(n_states, rate)
        } else {
            random_start(n_states, &mut rng)
        };
        let fit = run_em(obs, params, opts)?;
        if best
            .as_ref()
            .is_none_or(|b| fit.log_likelihood > b.log_likelihood)
        {
            best = Some(fit);
        }
    }
    let mut fit = best.expect("at least one start");
    sort_states_by_error_prob(&mut fit);
    Ok(fit)
}

/// ln P(O | λ) by the scaled forward recursion (Rabiner eqs. 19-21 and 91-103).
pub fn log_likelihood(
    transition: &[Vec<f64>],
    error_prob: &[f64],
    initial: &[f64],
    obs: &[bool],
) -> f64 {
    let n = error_prob.len();
    let mut alpha = vec![0.0; n];
    let mut next = vec![0.0; n];
    let mut ll = 0.0;
    for (t, &o) in obs.iter().enumerate() {
        for j in 0..n {
            let prior = if t == 0 {
                initial[j]
            } else {
                (0..n).map(|i| alpha[i] * transition[i][j]).sum()
            };
            next[j] = prior * emit(error_prob[j], o);
        }
        let c: f64 = next.iter().sum();
        if c <= 0.0 {
            return f64::NEG_INFINITY;
        }
        ll += c.ln();
        for j in 0..n {
            alpha[j] = next[j] / c;
        }
    }
    ll
}

#[derive(Clone, Debug)]
struct Params {
    a: Vec<Vec<f64>>,
    b: Vec<f64>,
    pi: Vec<f64>,
}

/// e_j(o): P(observation o | state j) for a binary emission.
fn emit(b: f64, o: bool) -> f64 {
    if o {
        b
    } else {
        1.0 - b
    }
}

/// Deterministic start (link-spec §2.4 step 1): diagonally dominant A (stay 0.95), error
/// probabilities spread geometrically from a quarter of the trace's error rate to 0.75,
/// uniform π.
fn spread_start(n: usize, rate: f64) -> Params {
    let a = diag_dominant(n, 0.95);
    let lo = (rate / 4.0).clamp(1e-4, 0.5);
    let hi = 0.75_f64.max(lo);
    let b = if n == 1 {
        vec![rate.clamp(1e-4, 1.0 - 1e-4)]
    } else {
        (0..n)
            .map(|i| lo * (hi / lo).powf(i as f64 / (n - 1) as f64))
            .collect()
    };
    Params {
        a,
        b,
        pi: vec![1.0 / n as f64; n],
    }
}

/// Random start: self-transitions in [0.8, 0.99], the rest spread at random; error
/// probabilities uniform in (0.001, 0.999); uniform π.
fn random_start(n: usize, rng: &mut RandomStream) -> Params {
    let a = (0..n)
        .map(|i| {
            if n == 1 {
                return vec![1.0];
            }
            let stay = rng.uniform_range(0.8, 0.99);
            let w: Vec<f64> = (0..n).map(|_| rng.uniform_range(0.1, 1.0)).collect();
            let s: f64 = (0..n).filter(|&j| j != i).map(|j| w[j]).sum();
            (0..n)
                .map(|j| {
                    if j == i {
                        stay
                    } else {
                        (1.0 - stay) * w[j] / s
                    }
                })
                .collect()
        })
        .collect();
    let b = (0..n).map(|_| rng.uniform_range(0.001, 0.999)).collect();
    Params {
        a,
        b,
        pi: vec![1.0 / n as f64; n],
    }
}

fn diag_dominant(n: usize, stay: f64) -> Vec<Vec<f64>> {
    (0..n)
        .map(|i| {
            (0..n)
                .map(|j| {
                    if n == 1 {
                        1.0
                    } else if i == j {
                        stay
                    } else {
                        (1.0 - stay) / (n - 1) as f64
                    }
                })
                .collect()
        })
        .collect()
}

/// Baum-Welch iterations from one start.
fn run_em(obs: &[bool], mut p: Params, opts: &FitOptions) -> Result<HmmFit, String> {
    let n = p.b.len();
    let t_len = obs.len();
    // Scaled forward variables α̂_t(i) (row-major T × N) and scale factors c_t.
    let mut alpha = vec![0.0; t_len * n];
    let mut scale = vec![0.0; t_len];
    let mut history = Vec::new();
    let mut converged = false;
    let mut prev_ll = f64::NEG_INFINITY;
    let mut iterations = 0;
    for _ in 0..opts.max_iterations {
        // Forward pass (Rabiner eqs. 19-21, scaled by c_t = 1/Σ_j α_t(j), eq. 91ff).
        let ll = forward(obs, &p, &mut alpha, &mut scale)?;
        // Backward pass with rolling β̂ (eqs. 24-25 scaled by the same c_t), accumulating
        // Σ_t ξ_t(i,j) (eq. 37), Σ_{t<T} γ_t(i) and Σ_{t: o_t = 1} γ_t(i) (eq. 27).
        let mut xi_sum = vec![vec![0.0; n]; n];
        let mut gamma_trans = vec![0.0; n]; // Σ_{t<T} γ_t(i)
        let mut gamma_all = vec![0.0; n]; // Σ_t γ_t(i)
        let mut gamma_err = vec![0.0; n]; // Σ_{t: o_t = 1} γ_t(i)
        let mut beta = vec![1.0; n];
        let mut w = vec![0.0; n]; // e_j(o_{t+1}) β̂_{t+1}(j) / c_{t+1}
        let mut gamma0 = vec![0.0; n];
        for t in (0..t_len).rev() {
            let at = &alpha[t * n..(t + 1) * n];
            // γ_t(i) = α̂_t(i) β̂_t(i) (the scale factors cancel, Rabiner eq. 103).
            for i in 0..n {
                let g = at[i] * beta[i];
                gamma_all[i] += g;
                if obs[t] {
                    gamma_err[i] += g;
                }
                if t + 1 < t_len {
                    gamma_trans[i] += g;
                }
                if t == 0 {
                    gamma0[i] = g;
                }
            }
            if t == 0 {
                break;
            }
            // Step to t − 1: w_j = e_j(o_t) β̂_t(j) / c_t;
            // ξ_{t−1}(i,j) = α̂_{t−1}(i) a_ij w_j; β̂_{t−1}(i) = Σ_j a_ij w_j.
            for j in 0..n {
                w[j] = emit(p.b[j], obs[t]) * beta[j] / scale[t];
            }
            let prev = &alpha[(t - 1) * n..t * n];
            for i in 0..n {
                let mut bsum = 0.0;
                for j in 0..n {
                    let aw = p.a[i][j] * w[j];
                    xi_sum[i][j] += prev[i] * aw;
                    bsum += aw;
                }
                beta[i] = bsum;
            }
        }
        // Re-estimation (Rabiner eqs. 40a-40c). A state that was never visited keeps its
        // parameters.
        for i in 0..n {
            if gamma_trans[i] > 0.0 {
                let row_sum: f64 = xi_sum[i].iter().sum();
                for (a_ij, x) in p.a[i].iter_mut().zip(&xi_sum[i]) {
                    *a_ij = x / row_sum;
                }
            }
            if gamma_all[i] > 0.0 {
                p.b[i] = (gamma_err[i] / gamma_all[i]).clamp(0.0, 1.0);
            }
        }
        let g0: f64 = gamma0.iter().sum();
        if g0 > 0.0 {
            p.pi = gamma0.iter().map(|g| g / g0).collect();
        }
        iterations += 1;
        // `ll` belongs to the parameters before this update; the EM property guarantees
        // ll_k ≥ ll_{k−1}. Stop on a small relative gain.
        history.push(ll);
        if ll - prev_ll <= opts.tolerance * ll.abs() {
            converged = true;
            break;
        }
        prev_ll = ll;
    }
    let ll = forward(obs, &p, &mut alpha, &mut scale)?;
    history.push(ll);
    Ok(HmmFit {
        transition: p.a,
        error_prob: p.b,
        initial: p.pi,
        log_likelihood: ll,
        iterations,
        converged,
        log_likelihood_history: history,
        n_obs: t_len,
    })
}

/// Scaled forward pass: fills α̂ and the scale sums, returns ln P(O | λ) = Σ_t ln c_t (here
/// c_t is the sum before normalising, the reciprocal of Rabiner's).
fn forward(obs: &[bool], p: &Params, alpha: &mut [f64], scale: &mut [f64]) -> Result<f64, String> {
    let n = p.b.len();
    let mut ll = 0.0;
    for (t, &o) in obs.iter().enumerate() {
        let (before, rest) = alpha.split_at_mut(t * n);
        let cur = &mut rest[..n];
        for (j, cur_j) in cur.iter_mut().enumerate() {
            let prior = if t == 0 {
                p.pi[j]
            } else {
                let prev = &before[(t - 1) * n..];
                (0..n).map(|i| prev[i] * p.a[i][j]).sum()
            };
            *cur_j = prior * emit(p.b[j], o);
        }
        let c: f64 = cur.iter().sum();
        if !(c > 0.0 && c.is_finite()) {
            return Err(format!(
                "observation {t} has zero probability under the current parameters"
            ));
        }
        for v in cur.iter_mut() {
            *v /= c;
        }
        scale[t] = c;
        ll += c.ln();
    }
    Ok(ll)
}

fn sort_states_by_error_prob(fit: &mut HmmFit) {
    let n = fit.error_prob.len();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&x, &y| fit.error_prob[x].total_cmp(&fit.error_prob[y]));
    fit.transition = order
        .iter()
        .map(|&i| order.iter().map(|&j| fit.transition[i][j]).collect())
        .collect();
    fit.error_prob = order.iter().map(|&i| fit.error_prob[i]).collect();
    fit.initial = order.iter().map(|&i| fit.initial[i]).collect();
}

#[cfg(test)]
mod tests {
    use super::super::gilbert_elliott::GilbertElliott;
    use super::*;

    #[test]
    fn recovers_two_state_parameters_from_a_200k_trace() {
        // Truth: p_gb = 0.01, p_bg = 0.1, e_G = 0.01, e_B = 0.5 (π_B = 1/11, ε ≈ 0.0545).
        // 200,000 units hold about 200,000·π_B·p_bg ≈ 1,800 bad sojourns, so even with the
        // states observed p_bg would carry a relative standard error of about
        // sqrt((1 − p_bg)/1800) ≈ 2.2 %, and p_gb similarly about 2.4 %; hiding the states
        // roughly doubles that. Tolerances of 20 % relative on the transition probabilities,
        // 0.005 absolute on e_G (SE ≈ sqrt(0.01/180000) ≈ 2.4e-4 for the ~180k good units)
        // and 0.05 on e_B (SE ≈ sqrt(0.25/18000) ≈ 3.7e-3) are over four standard errors.
        let mut ge = GilbertElliott::new(0.01, 0.1, 0.01, 0.5).unwrap();
        let mut rng = RandomStream::named(2024, "channel/fit-test");
        let obs: Vec<bool> = (0..200_000).map(|_| ge.is_error(&mut rng)).collect();
        let opts = FitOptions {
            starts: 1,
            max_iterations: 500,
            tolerance: 1e-9,
            seed: 1,
        };
        let fit = fit_hmm(&obs, 2, &opts).unwrap();
        let (p_gb, p_bg) = (fit.transition[0][1], fit.transition[1][0]);
        let (e_g, e_b) = (fit.error_prob[0], fit.error_prob[1]);
        let msg = format!("fit {fit:?}");
        assert!((p_gb - 0.01).abs() < 0.2 * 0.01, "p_gb {p_gb} {msg}");
        assert!((p_bg - 0.1).abs() < 0.2 * 0.1, "p_bg {p_bg} {msg}");
        assert!((e_g - 0.01).abs() < 0.005, "e_G {e_g}");
        assert!((e_b - 0.5).abs() < 0.05, "e_B {e_b}");
        // The fitted model reproduces the trace's error rate (an EM fixed point matches the
        // empirical error rate up to the initial-state effect).
        let empirical = obs.iter().filter(|&&o| o).count() as f64 / obs.len() as f64;
        let model = fit.to_model(HmmInitial::Stationary).unwrap();
        assert!((model.mean_error_rate() - empirical).abs() < 1e-3);
        // The fit beats the truth's likelihood or matches it (it is the maximum).
        let truth = log_likelihood(
            &[vec![0.99, 0.01], vec![0.1, 0.9]],
            &[0.01, 0.5],
            &[10.0 / 11.0, 1.0 / 11.0],
            &obs,
        );
        assert!(
            fit.log_likelihood >= truth - 1e-6,
            "{} < {truth}",
            fit.log_likelihood
        );
    }

    #[test]
    fn em_never_lowers_the_likelihood() {
        let mut h = HiddenMarkov::new(
            vec![
                vec![0.95, 0.04, 0.01],
                vec![0.1, 0.85, 0.05],
                vec![0.05, 0.15, 0.8],
            ],
            vec![0.001, 0.1, 0.7],
            HmmInitial::Stationary,
        )
        .unwrap();
        let mut rng = RandomStream::named(3, "channel/fit-mono");
        let obs: Vec<bool> = (0..20_000).map(|_| h.is_error(&mut rng)).collect();
        let opts = FitOptions {
            starts: 2,
            max_iterations: 60,
            ..FitOptions::default()
        };
        let fit = fit_hmm(&obs, 3, &opts).unwrap();
        for w in fit.log_likelihood_history.windows(2) {
            assert!(w[1] >= w[0] - 1e-7 * w[0].abs(), "{w:?}");
        }
        assert!(fit.error_prob.windows(2).all(|w| w[0] <= w[1]));
        for row in &fit.transition {
            assert!((row.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        }
        assert_eq!(fit.n_parameters(), 6 + 3 + 2);
    }

    #[test]
    fn one_state_fit_is_the_error_rate() {
        let obs: Vec<bool> = (0..1000).map(|i| i % 4 == 0).collect();
        let fit = fit_hmm(&obs, 1, &FitOptions::default()).unwrap();
        assert!((fit.error_prob[0] - 0.25).abs() < 1e-12);
        // ln L = 250 ln 0.25 + 750 ln 0.75.
        let want = 250.0 * 0.25_f64.ln() + 750.0 * 0.75_f64.ln();
        assert!((fit.log_likelihood - want).abs() < 1e-6);
    }

    #[test]
    fn bad_inputs_are_refused() {
        assert!(fit_hmm(&[true], 2, &FitOptions::default())
            .unwrap_err()
            .contains("at least 2"));
        assert!(fit_hmm(&[true, false], 0, &FitOptions::default()).is_err());
    }
}
