//! L'Ecuyer's MRG32k3a combined multiple recursive generator (Operations Research 47(1),
//! 1999), seeded as ns-2's `RNG` class seeds it (`tools/rng.cc`: all six state words set to
//! the seed). Only ns-2 compatibility needs it: `ternsim cbrgen -seed S` writes the file
//! ns-2's `cbrgen.tcl -seed S` writes (manet-spec §3.2).

const M1: i64 = 4_294_967_087;
const M2: i64 = 4_294_944_443;
const A12: i64 = 1_403_580;
const A13N: i64 = 810_728;
const A21: i64 = 527_612;
const A23N: i64 = 1_370_589;
/// 1 / (m1 + 1), L'Ecuyer's normalisation.
const NORM: f64 = 1.0 / 4_294_967_088.0;

#[derive(Clone, Debug)]
pub struct Mrg32k3a {
    s: [i64; 6],
}

impl Mrg32k3a {
    /// ns-2's seeding: every state word = `seed` (> 0).
    pub fn ns2_seeded(seed: u32) -> Self {
        Mrg32k3a {
            s: [i64::from(seed); 6],
        }
    }

    /// The next uniform in (0, 1).
    pub fn uniform(&mut self) -> f64 {
        let s = &mut self.s;
        let p1 = (A12 * s[1] - A13N * s[0]).rem_euclid(M1);
        s[0] = s[1];
        s[1] = s[2];
        s[2] = p1;
        let p2 = (A21 * s[5] - A23N * s[3]).rem_euclid(M2);
        s[3] = s[4];
        s[4] = s[5];
        s[5] = p2;
        if p1 > p2 {
            (p1 - p2) as f64 * NORM
        } else {
            (p1 - p2 + M1) as f64 * NORM
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_1_gives_ns2s_first_uniforms() {
        // manet-spec §3.5: ns-2.35 tools/rng.cc built standalone, seed 1.
        let mut g = Mrg32k3a::ns2_seeded(1);
        for want in [
            0.000_339_577_2,
            0.555_880_716_0,
            0.014_204_660_7,
            0.088_122_671_3,
            0.441_173_382_0,
        ] {
            assert!((g.uniform() - want).abs() < 1e-10);
        }
    }
}
