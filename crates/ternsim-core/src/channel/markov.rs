//! Finite Markov chain arithmetic used by the error models: validating a transition matrix,
//! its stationary distribution, and sampling a state.
//!
//! A row-stochastic matrix `A` (A[i][j] = P(next = j | now = i)) has a unique stationary
//! distribution π (π A = π, Σ π = 1) exactly when it has one closed communicating class
//! (e.g. Kemeny & Snell, "Finite Markov Chains", 1960, ch. 4-5); the long-run fraction of
//! time in each state is then π whatever the initial state. Validation demands that, so every
//! model has a well-defined mean error rate.

/// Tolerance on row sums (|Σ_j A[i][j] − 1|).
pub const ROW_SUM_TOLERANCE: f64 = 1e-9;

/// Checks that `a` is a non-empty square row-stochastic matrix with a unique stationary
/// distribution. Errors name the row and column (0-based).
pub fn validate_transition_matrix(a: &[Vec<f64>]) -> Result<(), String> {
    let n = a.len();
    if n == 0 {
        return Err("transition matrix has no rows".into());
    }
    for (i, row) in a.iter().enumerate() {
        if row.len() != n {
            return Err(format!(
                "transition matrix row {i} has {} entries, expected {n} (the matrix must be square)",
                row.len()
            ));
        }
        for (j, &v) in row.iter().enumerate() {
            if !(v.is_finite() && (0.0..=1.0).contains(&v)) {
                return Err(format!(
                    "transition[{i}][{j}] = {v} is not a probability in [0, 1]"
                ));
            }
        }
        let sum: f64 = row.iter().sum();
        if (sum - 1.0).abs() > ROW_SUM_TOLERANCE {
            return Err(format!(
                "transition matrix row {i} sums to {sum}, not 1 (tolerance {ROW_SUM_TOLERANCE:e})"
            ));
        }
    }
    let classes = closed_classes(a);
    if classes != 1 {
        return Err(format!(
            "transition matrix has {classes} closed classes of states; exactly one is needed \
             for a unique stationary distribution (mean error rate)"
        ));
    }
    Ok(())
}

/// Number of closed communicating classes of the chain (states that, once entered, are
/// never left as a group). Boolean transitive closure, O(n³); n is small.
fn closed_classes(a: &[Vec<f64>]) -> usize {
    let n = a.len();
    let mut reach: Vec<Vec<bool>> = (0..n)
        .map(|i| (0..n).map(|j| i == j || a[i][j] > 0.0).collect())
        .collect();
    for k in 0..n {
        for i in 0..n {
            if reach[i][k] {
                let via_k = reach[k].clone();
                for (r, v) in reach[i].iter_mut().zip(via_k) {
                    *r |= v;
                }
            }
        }
    }
    // A state is recurrent iff every state it reaches reaches it back; closed classes are the
    // mutual-reachability classes of recurrent states. Count each by its lowest member.
    (0..n)
        .filter(|&i| {
            let recurrent = (0..n).all(|j| !reach[i][j] || reach[j][i]);
            let lowest = (0..i).all(|j| !(reach[i][j] && reach[j][i]));
            recurrent && lowest
        })
        .count()
}

/// Stationary distribution of a validated transition matrix: solves π (A − I) = 0 with
/// Σ π = 1 by Gaussian elimination with partial pivoting (one balance equation replaced by
/// the normalisation, which keeps the system non-singular when π is unique).
pub fn stationary_distribution(a: &[Vec<f64>]) -> Vec<f64> {
    let n = a.len();
    // Row r of the system: Σ_i π_i (A[i][r] − δ_ir) = 0, i.e. the transpose of (A − I).
    let mut m: Vec<Vec<f64>> = (0..n)
        .map(|r| {
            let mut row: Vec<f64> = (0..n)
                .map(|i| a[i][r] - if i == r { 1.0 } else { 0.0 })
                .collect();
            row.push(0.0);
            row
        })
        .collect();
    m[n - 1] = vec![1.0; n + 1];
    for col in 0..n {
        let pivot = (col..n)
            .max_by(|&x, &y| m[x][col].abs().total_cmp(&m[y][col].abs()))
            .unwrap_or(col);
        m.swap(col, pivot);
        let p = m[col][col];
        if p == 0.0 {
            continue;
        }
        let pivot_row = m[col].clone();
        for (r, row) in m.iter_mut().enumerate() {
            if r != col {
                let f = row[col] / p;
                if f != 0.0 {
                    for (x, y) in row[col..].iter_mut().zip(&pivot_row[col..]) {
                        *x -= f * y;
                    }
                }
            }
        }
    }
    let mut pi: Vec<f64> = (0..n)
        .map(|i| {
            if m[i][i] == 0.0 {
                0.0
            } else {
                (m[i][n] / m[i][i]).max(0.0)
            }
        })
        .collect();
    let s: f64 = pi.iter().sum();
    for v in &mut pi {
        *v /= s;
    }
    pi
}

/// Index drawn from the distribution `probs` with a uniform `u` in [0, 1) (inverse CDF).
/// Rounding that leaves `u` above the total picks the last state with positive mass.
pub fn sample_index(probs: &[f64], u: f64) -> usize {
    let mut acc = 0.0;
    let mut last = 0;
    for (i, &p) in probs.iter().enumerate() {
        if p > 0.0 {
            acc += p;
            last = i;
            if u < acc {
                return i;
            }
        }
    }
    last
}

/// Checks a probability vector (initial distribution): entries in [0, 1], sum 1.
pub fn validate_distribution(what: &str, v: &[f64], n: usize) -> Result<(), String> {
    if v.len() != n {
        return Err(format!("{what} has {} entries, expected {n}", v.len()));
    }
    for (i, &p) in v.iter().enumerate() {
        super::check_probability(&format!("{what}[{i}]"), p)?;
    }
    let sum: f64 = v.iter().sum();
    if (sum - 1.0).abs() > ROW_SUM_TOLERANCE {
        return Err(format!(
            "{what} sums to {sum}, not 1 (tolerance {ROW_SUM_TOLERANCE:e})"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stationary_of_hand_worked_birth_death_chain() {
        // Detailed balance: π0·0.1 = π1·0.2 and π1·0.1 = π2·0.5, so π ∝ (1, 1/2, 1/10)
        // = (0.625, 0.3125, 0.0625).
        let a = vec![
            vec![0.9, 0.1, 0.0],
            vec![0.2, 0.7, 0.1],
            vec![0.0, 0.5, 0.5],
        ];
        validate_transition_matrix(&a).unwrap();
        let pi = stationary_distribution(&a);
        for (got, want) in pi.iter().zip([0.625, 0.3125, 0.0625]) {
            assert!((got - want).abs() < 1e-12, "{pi:?}");
        }
    }

    #[test]
    fn stationary_of_non_reversible_cycle_is_uniform() {
        // Doubly stochastic matrix: the uniform distribution is stationary.
        let a = vec![
            vec![0.5, 0.5, 0.0],
            vec![0.0, 0.5, 0.5],
            vec![0.5, 0.0, 0.5],
        ];
        let pi = stationary_distribution(&a);
        for p in pi {
            assert!((p - 1.0 / 3.0).abs() < 1e-12);
        }
    }

    #[test]
    fn transient_states_get_zero_mass() {
        // State 0 leaks into the closed class {1, 2}, which alternates deterministically.
        let a = vec![
            vec![0.5, 0.5, 0.0],
            vec![0.0, 0.0, 1.0],
            vec![0.0, 1.0, 0.0],
        ];
        validate_transition_matrix(&a).unwrap();
        let pi = stationary_distribution(&a);
        assert!(pi[0].abs() < 1e-12 && (pi[1] - 0.5).abs() < 1e-12);
    }

    #[test]
    fn validation_names_the_problem() {
        assert_eq!(
            validate_transition_matrix(&[vec![0.5, 0.4], vec![0.5, 0.5]]).unwrap_err(),
            "transition matrix row 0 sums to 0.9, not 1 (tolerance 1e-9)"
        );
        assert_eq!(
            validate_transition_matrix(&[vec![1.5, -0.5], vec![0.5, 0.5]]).unwrap_err(),
            "transition[0][0] = 1.5 is not a probability in [0, 1]"
        );
        assert!(validate_transition_matrix(&[vec![1.0, 0.0]])
            .unwrap_err()
            .contains("square"));
        assert!(validate_transition_matrix(&[])
            .unwrap_err()
            .contains("no rows"));
        // Two absorbing states: two closed classes.
        assert!(
            validate_transition_matrix(&[vec![1.0, 0.0], vec![0.0, 1.0]])
                .unwrap_err()
                .contains("2 closed classes")
        );
        // Within tolerance is accepted.
        assert!(validate_transition_matrix(&[vec![0.5, 0.5 + 1e-10], vec![0.5, 0.5]]).is_ok());
    }

    #[test]
    fn sample_index_inverse_cdf() {
        let p = [0.2, 0.0, 0.8];
        assert_eq!(sample_index(&p, 0.0), 0);
        assert_eq!(sample_index(&p, 0.1999), 0);
        assert_eq!(sample_index(&p, 0.2), 2);
        assert_eq!(sample_index(&p, 0.9999999), 2);
        assert_eq!(sample_index(&[0.5, 0.5 - 1e-12], 0.99999999999999), 1);
    }
}
