//! L'Ecuyer's MRG32k3a combined multiple recursive generator (Operations Research 47(1),
//! 1999), seeded as ns-2's `RNG` class seeds it (`tools/rng.cc`: all six state words set to
//! the seed). Only ns-2 compatibility needs it: `ternsim cbrgen -seed S` writes the file
//! ns-2's `cbrgen.tcl -seed S` writes (manet-spec §3.2), and `ternsim ns2` replays the draws
//! ns-2 makes from its default RNG before a run (each TCP agent's `boot_time_`).

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

    /// ns-2's `RNG::uniform_double()` (`Random::uniform()`, what its C++ models draw: a TCP
    /// agent's `boot_time_`, an error model's uniform): ns-2.35's `next_double()`, which is
    /// the generator's own uniform (`rand_u01`), not a 31-bit `next()` scaled back.
    pub fn ns2_uniform_double(&mut self) -> f64 {
        self.uniform()
    }
}

impl Mrg32k3a {
    /// ns-2's `$rng next-random` (`RNG::next()`, which is `rand_int(0, MAXINT)`: the range
    /// holds MAXINT + 1 = 2^31 integers): the next uniform times 2^31, truncated.
    pub fn ns2_next_random(&mut self) -> u32 {
        (self.uniform() * 2_147_483_648.0) as u32
    }

    /// ns-2's Tcl `$rng uniform a b` (`tcl/lib/ns-random.tcl`): a + (b − a)·`next-random`
    /// / (2^31 − 1), in doubles as Tcl's `expr` computes it.
    pub fn ns2_tcl_uniform(&mut self, a: f64, b: f64) -> f64 {
        a + (b - a) * (f64::from(self.ns2_next_random()) / NS2_MAXINT)
    }
}

/// ns-2's `MAXINT` (2^31 − 1), by which `ns-random.tcl`'s `uniform` divides `next-random`.
const NS2_MAXINT: f64 = 2_147_483_647.0;

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

    #[test]
    fn seed_1_gives_ns2s_next_random_and_uniform_double() {
        // ns-2.35 `ns`: `$defaultRNG next-random` twice after `$defaultRNG seed 1`, and
        // `puts [$defaultRNG uniform 0 1]` (tcl_precision 17) for the first four draws: the
        // Tcl `uniform` is `next-random` / (2^31 − 1).
        let mut g = Mrg32k3a::ns2_seeded(1);
        assert_eq!(
            (g.ns2_next_random(), g.ns2_next_random()),
            (729_236, 1_193_744_747)
        );
        let mut g = Mrg32k3a::ns2_seeded(1);
        for want in [
            0.000_339_576_974_669_274_4,
            0.555_880_715_863_723_7,
            0.014_204_660_437_165_137,
            0.088_122_671_045_420_07,
        ] {
            assert_eq!(g.ns2_tcl_uniform(0.0, 1.0), want);
        }
        // The C++ draws take the generator's uniform itself, which the 31-bit Tcl value
        // rounds down: within 2^-31 of it, and not equal to it.
        let mut raw = Mrg32k3a::ns2_seeded(1);
        let mut tcl = Mrg32k3a::ns2_seeded(1);
        for _ in 0..100 {
            let (u, t) = (raw.ns2_uniform_double(), tcl.ns2_tcl_uniform(0.0, 1.0));
            assert!((u - t).abs() < 1.0 / 2_147_483_647.0, "{u} {t}");
        }
        let mut g = Mrg32k3a::ns2_seeded(1);
        assert_ne!(g.ns2_uniform_double(), 0.000_339_576_974_669_274_4);
    }
}
