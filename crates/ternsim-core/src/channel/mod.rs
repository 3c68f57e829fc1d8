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
    pub fn gilbert_elliott(p_gb: f64, p_bg: f64, e_g: f64, e_b: f64) -> Result<Self, String> {
        let _ = (p_gb, p_bg, e_g, e_b);
        Err("not yet".into())
    }
    pub fn is_error(&mut self, rng: &mut RandomStream) -> bool {
        match self {
            ErrorModel::None => false,
            ErrorModel::Iid { p } => rng.bernoulli(*p),
        }
    }
}
