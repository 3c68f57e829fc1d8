//! Packet and block error models, shared by wired links and radio bearers
//! (link-spec §2).
//!
//! What this module owns: deciding, one unit at a time, whether a unit is received in error.
//! A unit is whatever the caller says (a packet on a wired link, a transport block on a DCH,
//! a MAC frame on 802.11); the models know nothing about sizes, time or the network. Each
//! model keeps its own hidden state and draws only from the [`RandomStream`] it is handed, so
//! two links with the same model and seed draw the same sequence.
//!
//! Models (one file each):
//! - [`ErrorModel::None`] and [`ErrorModel::Iid`]: independent errors with probability `p`
//!   (link-spec §2.2; ns-2 `ErrorModel` with `unit pkt`).
//! - [`gilbert_elliott`]: the two-state Markov channel of Gilbert (1960) and Elliott (1963)
//!   (link-spec §2.3).
//! - [`hmm`]: an N-state hidden Markov model with a binary emission per state
//!   (link-spec §2.4), also the target of fitting; [`markov`] holds the chain arithmetic.
//! - [`trace_driven`]: a recorded sequence of outcomes replayed unit by unit.
//! - [`drop_stage`]: ns-2's wired loss modules (a list of packets, a periodic pattern, a
//!   rate), placed before a link's queue or at its far end, optionally per flow.
//! - [`fit`]: Baum-Welch (Rabiner 1989) fitting of an HMM to a recorded error trace.
//!
//! Invariants: every model is valid by construction (the constructors return
//! `Result<_, String>` naming what is wrong; `Iid` is checked by [`ErrorModel::validate`]),
//! and [`ErrorModel::mean_error_rate`] is the long-run fraction of units in error that the
//! model produces (analytic, not estimated).
//!
//! Not here: packet-size dependent error rates (callers turn a bit error rate into a unit
//! error probability), TTI-level correlation between the blocks of one TTI (the radio layer
//! decides which unit it asks about), and time-based sojourns.

pub mod drop_stage;
pub mod fit;
pub mod gilbert_elliott;
pub mod hmm;
pub mod markov;
pub mod trace_driven;

pub use fit::{fit_hmm, FitOptions, HmmFit};
pub use gilbert_elliott::{GeInitial, GilbertElliott};
pub use hmm::{HiddenMarkov, HmmInitial};
pub use trace_driven::{TraceEnd, TraceErrors, TraceStart};

use crate::sim::RandomStream;

/// Decides, unit by unit (a packet on a wired link, a transport block on a radio bearer),
/// whether the unit is received in error.
#[derive(Clone, Debug)]
pub enum ErrorModel {
    /// Never an error.
    None,
    /// Each unit in error independently with probability `p` (link-spec §2.2; the BLER of a
    /// DCH held at its power-control target).
    Iid { p: f64 },
    /// Two-state Markov channel (Gilbert 1960, Elliott 1963).
    GilbertElliott(GilbertElliott),
    /// N-state hidden Markov model (Rabiner 1989 notation).
    Hmm(HiddenMarkov),
    /// Replay of a recorded outcome sequence.
    Trace(TraceErrors),
}

impl ErrorModel {
    /// An i.i.d. model, checked.
    pub fn iid(p: f64) -> Result<Self, String> {
        check_probability("p", p)?;
        Ok(ErrorModel::Iid { p })
    }

    /// A Gilbert-Elliott model starting stationary (see [`GilbertElliott::new`]).
    pub fn gilbert_elliott(p_gb: f64, p_bg: f64, e_good: f64, e_bad: f64) -> Result<Self, String> {
        GilbertElliott::new(p_gb, p_bg, e_good, e_bad).map(ErrorModel::GilbertElliott)
    }

    /// Whether the next unit is in error. Advances the model's state by one unit.
    #[inline]
    pub fn is_error(&mut self, rng: &mut RandomStream) -> bool {
        match self {
            ErrorModel::None => false,
            ErrorModel::Iid { p } => rng.bernoulli(*p),
            ErrorModel::GilbertElliott(ge) => ge.is_error(rng),
            ErrorModel::Hmm(h) => h.is_error(rng),
            ErrorModel::Trace(t) => t.is_error(rng),
        }
    }

    /// Long-run fraction of units in error: `p` for i.i.d., the stationary distribution
    /// weighted by the per-state error probabilities for the Markov models (link-spec §2.3:
    /// ε = π_G e_G + π_B e_B), and the fraction of errors in one pass for a trace.
    pub fn mean_error_rate(&self) -> f64 {
        match self {
            ErrorModel::None => 0.0,
            ErrorModel::Iid { p } => *p,
            ErrorModel::GilbertElliott(ge) => ge.mean_error_rate(),
            ErrorModel::Hmm(h) => h.mean_error_rate(),
            ErrorModel::Trace(t) => t.mean_error_rate(),
        }
    }

    /// Checks what construction could not: the other variants are valid by construction.
    pub fn validate(&self) -> Result<(), String> {
        match self {
            ErrorModel::Iid { p } => check_probability("p", *p),
            _ => Ok(()),
        }
    }

    /// The model's name as scenarios spell it.
    pub fn kind(&self) -> &'static str {
        match self {
            ErrorModel::None => "none",
            ErrorModel::Iid { .. } => "iid",
            ErrorModel::GilbertElliott(_) => "gilbert-elliott",
            ErrorModel::Hmm(_) => "hmm",
            ErrorModel::Trace(_) => "trace",
        }
    }
}

/// `Ok` if `value` is a probability; otherwise an error naming `what`.
pub(crate) fn check_probability(what: &str, value: f64) -> Result<(), String> {
    if value.is_finite() && (0.0..=1.0).contains(&value) {
        Ok(())
    } else {
        Err(format!("{what} = {value} is not a probability in [0, 1]"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iid_rate_matches_p_within_five_standard_errors() {
        // Bernoulli(0.1) draws are independent: SE of the mean = sqrt(p(1-p)/n) = 3e-4.
        let mut m = ErrorModel::iid(0.1).unwrap();
        let mut rng = RandomStream::named(11, "channel/iid");
        let n = 1_000_000;
        let errors = (0..n).filter(|_| m.is_error(&mut rng)).count();
        let rate = errors as f64 / n as f64;
        let se = (0.1_f64 * 0.9 / n as f64).sqrt();
        assert!((rate - 0.1).abs() < 5.0 * se, "rate {rate}");
        assert_eq!(m.mean_error_rate(), 0.1);
    }

    #[test]
    fn none_and_iid_extremes() {
        let mut rng = RandomStream::named(1, "x");
        let mut none = ErrorModel::None;
        let mut always = ErrorModel::Iid { p: 1.0 };
        let mut never = ErrorModel::Iid { p: 0.0 };
        for _ in 0..1000 {
            assert!(!none.is_error(&mut rng));
            assert!(always.is_error(&mut rng));
            assert!(!never.is_error(&mut rng));
        }
    }

    #[test]
    fn invalid_iid_probability_is_named() {
        assert_eq!(
            ErrorModel::iid(1.5).unwrap_err(),
            "p = 1.5 is not a probability in [0, 1]"
        );
        assert!(ErrorModel::Iid { p: f64::NAN }.validate().is_err());
        assert!(ErrorModel::Iid { p: 0.3 }.validate().is_ok());
    }

    #[test]
    fn enum_dispatches_to_every_model() {
        let m = ErrorModel::gilbert_elliott(0.1, 0.5, 0.0, 1.0).unwrap();
        assert!((m.mean_error_rate() - 0.1 / 0.6).abs() < 1e-15);
        assert_eq!(m.kind(), "gilbert-elliott");
        let t = TraceErrors::new(vec![true, false, false, false], TraceEnd::Loop).unwrap();
        let mut m = ErrorModel::Trace(t);
        assert_eq!(m.mean_error_rate(), 0.25);
        let mut rng = RandomStream::named(1, "x");
        let got: Vec<bool> = (0..5).map(|_| m.is_error(&mut rng)).collect();
        assert_eq!(got, vec![true, false, false, false, true]);
    }
}
