//! PLACEHOLDER: packet and block error models; replaced by the full implementation.

use crate::sim::RandomStream;

/// Decides, unit by unit (a packet on a wired link, a transport block on a radio bearer),
/// whether the unit is received in error.
#[derive(Clone, Debug)]
pub enum ErrorModel {
    None,
    Iid { p: f64 },
}

impl ErrorModel {
    pub fn is_error(&mut self, rng: &mut RandomStream) -> bool {
        match self {
            ErrorModel::None => false,
            ErrorModel::Iid { p } => rng.bernoulli(*p),
        }
    }
}
