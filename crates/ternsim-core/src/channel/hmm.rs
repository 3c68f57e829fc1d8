//! An N-state hidden Markov error model with binary emissions (link-spec §2.4).
//!
//! Notation of L. R. Rabiner, "A tutorial on hidden Markov models and selected applications
//! in speech recognition", Proc. IEEE 77(2), 1989, §II: λ = (A, B, π) with
//! A[i][j] = P(q_{t+1} = j | q_t = i), here B reduced to b_i = P(unit in error | q_t = i),
//! and π the initial distribution. Gilbert-Elliott is the N = 2 case; Fritchman's partitioned
//! chains (link-spec §2.5) are the case b_i ∈ {0, 1}.
//!
//! Generation (link-spec §2.4): draw q_1 from π (by default the stationary distribution of A,
//! so the process is stationary from the first unit); for each unit emit an error with
//! probability b_{q_t}, then move q_{t+1} ~ A[q_t].
//!
//! Invariant: A is row-stochastic with one closed class, so the stationary distribution π*
//! is unique and the long-run error rate is Σ_i π*_i b_i whatever the initial state.

use super::check_probability;
use super::markov::{
    sample_index, stationary_distribution, validate_distribution, validate_transition_matrix,
};
use crate::sim::RandomStream;

/// Where the hidden chain starts.
#[derive(Clone, Debug, PartialEq)]
pub enum HmmInitial {
    /// The stationary distribution of the transition matrix.
    Stationary,
    /// A given state (0-based).
    State(usize),
    /// A given distribution over states.
    Distribution(Vec<f64>),
}

/// A hidden Markov error model and its current state.
#[derive(Clone, Debug, PartialEq)]
pub struct HiddenMarkov {
    transition: Vec<Vec<f64>>,
    error_prob: Vec<f64>,
    initial: HmmInitial,
    stationary: Vec<f64>,
    /// State of the next unit; `None` before the first.
    state: Option<usize>,
}

impl HiddenMarkov {
    /// Checks and builds a model: `transition` square and row-stochastic (rows sum to 1 within
    /// 1e-9) with one closed class, `error_prob` one probability per state, `initial` a
    /// valid state or distribution.
    pub fn new(
        transition: Vec<Vec<f64>>,
        error_prob: Vec<f64>,
        initial: HmmInitial,
    ) -> Result<Self, String> {
        validate_transition_matrix(&transition)?;
        let n = transition.len();
        if error_prob.len() != n {
            return Err(format!(
                "error_prob has {} entries but the transition matrix has {n} states",
                error_prob.len()
            ));
        }
        for (i, &b) in error_prob.iter().enumerate() {
            check_probability(&format!("error_prob[{i}]"), b)?;
        }
        match &initial {
            HmmInitial::Stationary => {}
            HmmInitial::State(s) => {
                if *s >= n {
                    return Err(format!(
                        "initial state {s} does not exist (states are 0..{n})"
                    ));
                }
            }
            HmmInitial::Distribution(d) => validate_distribution("initial", d, n)?,
        }
        let stationary = stationary_distribution(&transition);
        Ok(HiddenMarkov {
            transition,
            error_prob,
            initial,
            stationary,
            state: None,
        })
    }

    pub fn n_states(&self) -> usize {
        self.transition.len()
    }
    pub fn transition(&self) -> &[Vec<f64>] {
        &self.transition
    }
    pub fn error_probs(&self) -> &[f64] {
        &self.error_prob
    }
    pub fn initial(&self) -> &HmmInitial {
        &self.initial
    }

    /// The unique stationary distribution π* of the transition matrix.
    pub fn stationary(&self) -> &[f64] {
        &self.stationary
    }

    /// Long-run error rate Σ_i π*_i b_i.
    pub fn mean_error_rate(&self) -> f64 {
        self.stationary
            .iter()
            .zip(&self.error_prob)
            .map(|(p, b)| p * b)
            .sum()
    }

    /// State the next unit will be judged in (`None` before the first unit when the start
    /// is drawn).
    pub fn next_state(&self) -> Option<usize> {
        match (self.state, &self.initial) {
            (Some(s), _) => Some(s),
            (None, HmmInitial::State(s)) => Some(*s),
            _ => None,
        }
    }

    /// One unit: returns (state it was judged in, in error), then moves the chain.
    pub fn step(&mut self, rng: &mut RandomStream) -> (usize, bool) {
        let s = match self.state {
            Some(s) => s,
            None => match &self.initial {
                HmmInitial::State(s) => *s,
                HmmInitial::Stationary => sample_index(&self.stationary, rng.uniform()),
                HmmInitial::Distribution(d) => sample_index(d, rng.uniform()),
            },
        };
        let error = rng.bernoulli(self.error_prob[s]);
        self.state = Some(sample_index(&self.transition[s], rng.uniform()));
        (s, error)
    }

    pub fn is_error(&mut self, rng: &mut RandomStream) -> bool {
        self.step(rng).1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn birth_death() -> HiddenMarkov {
        HiddenMarkov::new(
            vec![
                vec![0.9, 0.1, 0.0],
                vec![0.2, 0.7, 0.1],
                vec![0.0, 0.5, 0.5],
            ],
            vec![0.0, 0.1, 0.8],
            HmmInitial::Stationary,
        )
        .unwrap()
    }

    #[test]
    fn three_state_stationary_and_mean_error_rate_hand_worked() {
        // Detailed balance gives π* = (0.625, 0.3125, 0.0625) (see markov.rs); the error rate
        // is 0.3125·0.1 + 0.0625·0.8 = 0.03125 + 0.05 = 0.08125.
        let h = birth_death();
        for (got, want) in h.stationary().iter().zip([0.625, 0.3125, 0.0625]) {
            assert!((got - want).abs() < 1e-12);
        }
        assert!((h.mean_error_rate() - 0.08125).abs() < 1e-12);
    }

    #[test]
    fn empirical_rate_and_occupancy_match_within_five_batch_standard_errors() {
        // Batch means: 100 batches of 10,000 units. The eigenvalues of A are 1 and the roots
        // of x² − 1.1x + 0.26 (trace 2.1, determinant 0.26), (1.1 ± sqrt(0.17))/2 ≈ 0.756 and
        // 0.344, so correlations decay like 0.756^k (correlation time ≈ 4 units) and a batch
        // spans ~2,500 correlation times: batch means are effectively independent and their
        // spread estimates the SE honestly despite the bursts.
        let mut h = birth_death();
        let mut rng = RandomStream::named(5, "channel/hmm");
        let (batches, size) = (100, 10_000);
        let mut rates = vec![];
        let mut in_state2 = 0u64;
        for _ in 0..batches {
            let mut e = 0u64;
            for _ in 0..size {
                let (s, err) = h.step(&mut rng);
                e += u64::from(err);
                in_state2 += u64::from(s == 2);
            }
            rates.push(e as f64 / size as f64);
        }
        let mean = rates.iter().sum::<f64>() / batches as f64;
        let var = rates.iter().map(|r| (r - mean).powi(2)).sum::<f64>() / (batches - 1) as f64;
        let se = (var / batches as f64).sqrt();
        assert!((mean - 0.08125).abs() < 5.0 * se, "mean {mean}, se {se}");
        // State occupancy, loose check: π*_2 = 0.0625 within 10 %.
        let occ = in_state2 as f64 / (batches * size) as f64;
        assert!((occ - 0.0625).abs() < 0.00625, "occupancy {occ}");
    }

    #[test]
    fn given_initial_state_and_distribution() {
        let mut rng = RandomStream::named(9, "x");
        let mut h = HiddenMarkov::new(
            vec![vec![0.5, 0.5], vec![0.5, 0.5]],
            vec![0.0, 1.0],
            HmmInitial::State(1),
        )
        .unwrap();
        assert_eq!(h.next_state(), Some(1));
        assert_eq!(h.step(&mut rng), (1, true));
        let mut h = HiddenMarkov::new(
            vec![vec![0.5, 0.5], vec![0.5, 0.5]],
            vec![0.0, 1.0],
            HmmInitial::Distribution(vec![1.0, 0.0]),
        )
        .unwrap();
        assert_eq!(h.step(&mut rng), (0, false));
    }

    #[test]
    fn validation_names_the_problem() {
        let a = vec![vec![0.9, 0.1], vec![0.2, 0.8]];
        assert!(
            HiddenMarkov::new(a.clone(), vec![0.1], HmmInitial::Stationary)
                .unwrap_err()
                .contains("error_prob has 1 entries")
        );
        assert_eq!(
            HiddenMarkov::new(a.clone(), vec![0.1, 1.2], HmmInitial::Stationary).unwrap_err(),
            "error_prob[1] = 1.2 is not a probability in [0, 1]"
        );
        assert!(
            HiddenMarkov::new(a.clone(), vec![0.1, 0.2], HmmInitial::State(2))
                .unwrap_err()
                .contains("initial state 2")
        );
        assert!(HiddenMarkov::new(
            a.clone(),
            vec![0.1, 0.2],
            HmmInitial::Distribution(vec![0.5, 0.6])
        )
        .unwrap_err()
        .contains("initial sums to 1.1"));
        assert!(HiddenMarkov::new(
            vec![vec![0.9, 0.2], vec![0.2, 0.8]],
            vec![0.1, 0.2],
            HmmInitial::Stationary
        )
        .unwrap_err()
        .contains("row 0 sums to 1.1"));
    }
}
