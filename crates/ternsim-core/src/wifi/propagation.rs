//! Radio propagation: free space (Friis), two-ray ground and log-normal shadowing, as ns-2
//! models them (link-spec §3.4). Powers are in watts, distances in metres.
//!
//! Two-ray ground uses Friis up to the crossover distance d_c = 4π·h_t·h_r/λ and the
//! ground-reflection law P_t·G_t·G_r·h_t²·h_r²/(d⁴·L) beyond it. The inverse functions turn a
//! range into the receive-power threshold that gives exactly that range, which is how ns-2's
//! RXThresh (250 m) and CSThresh (550 m) defaults were produced.
//!
//! Shadowing (ns-2.35 `mobile/shadowing.cc`, `Propagation/Shadowing`) is the path-loss model
//! with a log-normal term: in dB, Pr(d) = Pr_Friis(d0) − 10·β·log10(d/d0) + X with
//! X ~ N(0, σ_dB) drawn anew for every frame at every receiver. [`Radio::rx_power`] gives the
//! mean (X = 0); the channel draws X (`WifiChannel::transmit`) and applies it with
//! [`shadowing_factor`].

use crate::sim::time::round_to_u64;

/// Speed of light in m/s, for the channel delay (distance / c, link-spec §3.4) and the
/// wavelength c / f: 3·10⁸, as ns-2 defines it (`mobile/propagation.h`). The delay decides
/// which of two events due at one instant comes first when two stations resume from the
/// same frame's end with the same slot count (ns-2 keeps time in a double), so it decides
/// how often such stations collide; and a receive threshold computed with ns-2's tools
/// gives the range it was computed for (a `RXThresh_` for 75 m in the Friis region is 75 m
/// here, not 74.95 m).
pub const SPEED_OF_LIGHT: f64 = 3.0e8;

/// Which path-loss law applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PropagationModel {
    /// Friis free space at every distance.
    FreeSpace,
    /// Friis up to the crossover distance, two-ray ground beyond (ns-2 default).
    TwoRayGround,
    /// Log-normal shadowing (ns-2 `Propagation/Shadowing`) with the parameters in
    /// [`Radio::shadowing`].
    Shadowing,
}

/// The parameters of the shadowing model: ns-2's `pathlossExp_`, `std_db_` and `dist0_`
/// (defaults from `tcl/lib/ns-default.tcl`: 2.0, 4.0 dB, 1.0 m).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shadowing {
    /// Path-loss exponent β.
    pub path_loss_exp: f64,
    /// Standard deviation σ of the shadowing term, in dB.
    pub std_db: f64,
    /// Close-in reference distance d0, in m.
    pub dist0_m: f64,
    /// Which of ternsim's shadowing streams the draws come from (`wifi/shadowing/<seed>`
    /// under the run seed): ns-2 seeds the model's own RNG from `seed_` or `$prop seed`.
    pub seed: u64,
}

impl Default for Shadowing {
    fn default() -> Self {
        Shadowing {
            path_loss_exp: 2.0,
            std_db: 4.0,
            dist0_m: 1.0,
            seed: 0,
        }
    }
}

/// The factor 10^(x/10) that a shadowing draw of `x_db` dB applies to the mean power.
pub fn shadowing_factor(x_db: f64) -> f64 {
    10f64.powf(x_db / 10.0)
}

/// The transmitter, antennas and path-loss law: everything that turns a distance into a
/// received power.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Radio {
    pub model: PropagationModel,
    /// Transmit power P_t in W.
    pub tx_power_w: f64,
    pub gain_tx: f64,
    pub gain_rx: f64,
    /// Antenna heights h_t = h_r above the node position, in m.
    pub antenna_height_m: f64,
    pub frequency_hz: f64,
    /// System loss L (≥ 1).
    pub system_loss: f64,
    /// The shadowing model's parameters (used when `model` is `Shadowing`).
    pub shadowing: Shadowing,
}

impl Default for Radio {
    /// ns-2 defaults (`tcl/lib/ns-default.tcl`, link-spec §3.4): Pt 0.28183815 W, 914 MHz,
    /// unit gains, antennas 1.5 m high, L = 1, two-ray ground.
    fn default() -> Self {
        Radio {
            model: PropagationModel::TwoRayGround,
            tx_power_w: 0.281_838_15,
            gain_tx: 1.0,
            gain_rx: 1.0,
            antenna_height_m: 1.5,
            frequency_hz: 914e6,
            system_loss: 1.0,
            shadowing: Shadowing::default(),
        }
    }
}

impl Radio {
    /// Wavelength λ = c / f.
    pub fn wavelength(&self) -> f64 {
        SPEED_OF_LIGHT / self.frequency_hz
    }

    /// Two-ray crossover distance d_c = 4π·h_t·h_r/λ (86.14 m with the defaults).
    pub fn crossover_distance(&self) -> f64 {
        let h = self.antenna_height_m;
        4.0 * std::f64::consts::PI * h * h / self.wavelength()
    }

    /// Friis free-space power at `d` metres: P_t G_t G_r λ² / ((4π d)² L).
    pub fn friis(&self, d: f64) -> f64 {
        let l = self.wavelength();
        let den = (4.0 * std::f64::consts::PI * d).powi(2) * self.system_loss;
        self.tx_power_w * self.gain_tx * self.gain_rx * l * l / den
    }

    /// Two-ray ground power at `d` metres (no crossover check): P_t G_t G_r h_t² h_r² / (d⁴ L).
    pub fn two_ray(&self, d: f64) -> f64 {
        let h2 = self.antenna_height_m * self.antenna_height_m;
        self.tx_power_w * self.gain_tx * self.gain_rx * h2 * h2 / (d.powi(4) * self.system_loss)
    }

    /// Mean received power of the shadowing model at `d` metres, in W: the Friis power at
    /// d0 times (d/d0)^−β, i.e. Pr_Friis(d0) dB − 10·β·log10(d/d0). As in `Shadowing::Pr`
    /// (shadowing.cc), a receiver at d0 or closer gets the reference power itself, and the
    /// system loss L enters through Friis at d0.
    pub fn shadowing_mean(&self, d: f64) -> f64 {
        let sh = self.shadowing;
        let pr0 = self.friis(sh.dist0_m);
        if d > sh.dist0_m {
            pr0 * 10f64.powf(-sh.path_loss_exp * (d / sh.dist0_m).log10())
        } else {
            pr0
        }
    }

    /// The standard deviation in dB of the per-frame shadowing draw: `Some(σ)` under the
    /// shadowing model, `None` under the deterministic ones.
    pub fn shadowing_std_db(&self) -> Option<f64> {
        (self.model == PropagationModel::Shadowing).then_some(self.shadowing.std_db)
    }

    /// Received power at distance `d` (link-spec §3.4); under shadowing, the mean power (the
    /// channel applies each frame's draw). Distance 0 is treated as 1 cm so a co-located pair
    /// still gets a finite, very strong signal.
    pub fn rx_power(&self, d: f64) -> f64 {
        let d = d.max(0.01);
        match self.model {
            PropagationModel::FreeSpace => self.friis(d),
            PropagationModel::TwoRayGround => {
                if d <= self.crossover_distance() {
                    self.friis(d)
                } else {
                    self.two_ray(d)
                }
            }
            PropagationModel::Shadowing => self.shadowing_mean(d),
        }
    }

    /// The distance at which the received power falls to `power_w`: the inverse of
    /// [`Radio::rx_power`] (ns-2 `indep-utils/propagation/threshold.cc` solves the same).
    /// Under shadowing it is the distance of that *mean* power, d0·(Pr_Friis(d0)/P)^(1/β)
    /// (d0 at least): a frame's power there is above and below it half the time each.
    pub fn range_for_power(&self, power_w: f64) -> f64 {
        let base = self.tx_power_w * self.gain_tx * self.gain_rx / (power_w * self.system_loss);
        let friis_d = self.wavelength() / (4.0 * std::f64::consts::PI) * base.sqrt();
        match self.model {
            PropagationModel::FreeSpace => friis_d,
            PropagationModel::TwoRayGround => {
                if friis_d <= self.crossover_distance() {
                    friis_d
                } else {
                    let h2 = self.antenna_height_m * self.antenna_height_m;
                    (base * h2 * h2).powf(0.25)
                }
            }
            PropagationModel::Shadowing => {
                let sh = self.shadowing;
                let ratio = self.friis(sh.dist0_m) / power_w;
                sh.dist0_m * ratio.powf(1.0 / sh.path_loss_exp).max(1.0)
            }
        }
    }

    /// Whether a frame can be sensed at any distance. ns-2's `Shadowing::getDist` returns
    /// DBL_MAX, so the channel's carrier-sense distance `distCST_` is unbounded and every
    /// node on the channel gets every frame (mac/channel.cc `calcHighestAntennaZ`,
    /// `getAffectedNodes`); each then compares its own draw with CSThresh and RXThresh.
    pub fn unbounded_reach(&self) -> bool {
        self.model == PropagationModel::Shadowing
    }

    /// The threshold power that makes `range_m` the exact reception (or carrier-sense) range
    /// (under shadowing, the range of the mean power).
    pub fn power_for_range(&self, range_m: f64) -> f64 {
        self.rx_power(range_m)
    }
}

/// Propagation delay over `d` metres, in nanoseconds (rounded to the nearest ns).
pub fn propagation_delay_ns(d: f64) -> u64 {
    round_to_u64(d / SPEED_OF_LIGHT * 1e9)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rel(a: f64, b: f64) -> f64 {
        ((a - b) / b).abs()
    }

    /// With ns-2's c = 3·10⁸ m/s: λ = 3e8 / 914e6 = 0.3282276 m and d_c = 4π·1.5²/λ =
    /// 86.14 m with 1.5 m antennas at 914 MHz (link-spec §7a gives 0.32800 m and 86.20 m
    /// with the exact c).
    #[test]
    fn wavelength_and_crossover() {
        let r = Radio::default();
        assert!(
            (r.wavelength() - 0.328_227_6).abs() < 1e-7,
            "{}",
            r.wavelength()
        );
        assert!((r.crossover_distance() - 86.14).abs() < 0.01);
    }

    /// ns-2 thresholds (link-spec §3.4, §7a): P_r(250 m) = 3.652e-10 W, P_r(550 m) =
    /// 1.559e-11 W, both beyond the crossover so two-ray: 0.28183815·1.5⁴/d⁴.
    #[test]
    fn two_ray_powers_match_ns2_thresholds() {
        let r = Radio::default();
        assert!(rel(r.rx_power(250.0), 3.652e-10) < 1e-3);
        assert!(rel(r.rx_power(550.0), 1.559e-11) < 1e-3);
        // Hand value: 0.28183815 · 5.0625 / 250⁴ = 3.65257e-10.
        assert!(rel(r.rx_power(250.0), 0.281_838_15 * 5.0625 / 3.906_25e9) < 1e-12);
    }

    /// 50 m is inside the crossover: Friis, 0.28183815 · 0.3282276² / (4π·50)² = 7.6911e-8 W.
    #[test]
    fn friis_branch_below_crossover() {
        let r = Radio::default();
        let lambda = SPEED_OF_LIGHT / 914e6;
        let want = 0.281_838_15 * lambda * lambda / (4.0 * std::f64::consts::PI * 50.0).powi(2);
        assert!(rel(r.rx_power(50.0), want) < 1e-12);
        assert!(rel(r.rx_power(50.0), 7.6911e-8) < 1e-4);
        // The free-space model keeps Friis beyond the crossover.
        let fs = Radio {
            model: PropagationModel::FreeSpace,
            ..r
        };
        assert!(rel(fs.rx_power(250.0), r.friis(250.0)) < 1e-12);
    }

    /// link-spec §7a: the inverse gives 250.01 m and 550.02 m for the ns-2 thresholds.
    #[test]
    fn inverse_turns_thresholds_into_ranges() {
        let r = Radio::default();
        assert!((r.range_for_power(3.652e-10) - 250.01).abs() < 0.01);
        assert!((r.range_for_power(1.559e-11) - 550.02).abs() < 0.01);
        assert!((r.range_for_power(r.power_for_range(40.0)) - 40.0).abs() < 1e-9);
    }

    fn shadowing(path_loss_exp: f64, std_db: f64, dist0_m: f64) -> Radio {
        Radio {
            model: PropagationModel::Shadowing,
            shadowing: Shadowing {
                path_loss_exp,
                std_db,
                dist0_m,
                seed: 0,
            },
            ..Radio::default()
        }
    }

    /// The mean path loss of shadowing.cc against hand values. With the defaults (0.28183815
    /// W, 914 MHz so λ = 3e8/914e6 = 0.3282276 m, L = 1), the Friis power at d0 = 1 m is
    /// Pt·λ²/(16π²) = 0.28183815 · 0.10773334 / 157.91367 = 1.9227825e-4 W (−37.1607 dBW).
    /// β = 2: 10 m is 20 dB down, 1.9227825e-6 W. β = 3: 100 m is 60 dB down, 1.9227825e-10 W.
    /// d0 = 2 m: the reference power is a quarter, 4.8069563e-5 W; with β = 2.7, 250 m is
    /// 27·log10(125) = 56.6166 dB below it, 4.8069563e-5 · 10^(−5.66166) = 1.0476426e-10 W.
    /// Nearer than d0 the power is the reference power (avg_db = 0 in `Shadowing::Pr`).
    #[test]
    fn shadowing_mean_power_is_the_path_loss_law() {
        let r = shadowing(2.0, 4.0, 1.0);
        assert!(rel(r.rx_power(1.0), 1.922_782_5e-4) < 1e-7);
        assert!(rel(r.rx_power(0.5), 1.922_782_5e-4) < 1e-7);
        assert!(rel(r.rx_power(10.0), 1.922_782_5e-6) < 1e-7);
        assert!((10.0 * (r.rx_power(1.0) / r.rx_power(20.0)).log10() - 26.0206).abs() < 1e-4);
        let r3 = shadowing(3.0, 4.0, 1.0);
        assert!(rel(r3.rx_power(100.0), 1.922_782_5e-10) < 1e-7);
        let r27 = shadowing(2.7, 4.0, 2.0);
        assert!(rel(r27.rx_power(2.0), 4.806_956_3e-5) < 1e-7);
        assert!(rel(r27.rx_power(250.0), 1.047_642_6e-10) < 1e-6);
        // The range of a mean power is its inverse; σ does not enter the mean.
        assert!((r27.range_for_power(1.047_642_6e-10) - 250.0).abs() < 1e-3);
        assert_eq!(r27.range_for_power(1.0), 2.0);
        assert_eq!(
            shadowing(2.7, 0.0, 2.0).rx_power(250.0),
            r27.rx_power(250.0)
        );
        assert_eq!(r.shadowing_std_db(), Some(4.0));
        assert_eq!(Radio::default().shadowing_std_db(), None);
    }

    /// P(Pr ≥ RXThresh at d) = Q((10·log10 RXThresh − Pr_mean_dB(d))/σ), checked over draws
    /// made as the channel makes them (`mean · 10^(N(0, σ)/10)`). β = 2.7, σ = 6 dB, d0 = 1 m,
    /// d = 40 m; RXThresh is put at 0.5 σ = 3 dB above the mean (Q(0.5) = 0.3085375) and at
    /// 1.2 σ = 7.2 dB below it (Q(−1.2) = 0.8849303). With n = 200 000 draws the standard
    /// error is at most √(0.31·0.69/n) = 0.00103, and the tolerance 0.005 is about five of
    /// them: a σ read as a variance (Q(0.5/√6) = 0.419), in natural units, or a draw applied
    /// twice would miss by far more.
    #[test]
    fn shadowing_reception_probability_is_q_of_the_margin() {
        let r = shadowing(2.7, 6.0, 1.0);
        let mean = r.rx_power(40.0);
        let sigma = r.shadowing_std_db().unwrap();
        for (z, want) in [(0.5, 0.308_537_5), (-1.2, 0.884_930_3)] {
            let rx_thresh = mean * shadowing_factor(z * sigma);
            let mut rng = crate::sim::RandomStream::named(7, "wifi/shadowing/test");
            let n = 200_000;
            let got = (0..n)
                .filter(|_| mean * shadowing_factor(rng.normal(0.0, sigma)) >= rx_thresh)
                .count() as f64
                / f64::from(n);
            assert!((got - want).abs() < 0.005, "z = {z}: {got} vs {want}");
        }
    }

    #[test]
    fn propagation_delay_is_distance_over_c() {
        // 250 m / 3e8 m/s = 833.33 ns; 200 m: 666.67 ns (ns-2's trace: a frame sent at
        // 0.586291972 s is dropped in a collision 200 m away at 0.586292638 s).
        assert_eq!(propagation_delay_ns(250.0), 833);
        assert_eq!(propagation_delay_ns(200.0), 667);
        assert_eq!(propagation_delay_ns(0.0), 0);
    }

    #[test]
    fn rounding_is_that_of_f64_round() {
        let mut xs = vec![
            0.0,
            0.5,
            1.5,
            2.5,
            0.499_999_999_999_999_94,
            0.500_000_000_000_000_1,
            833.5,
            1e6 + 0.5,
            4_503_599_627_370_495.5,
            4_503_599_627_370_496.0,
            9.1e15,
            -0.4,
            -3.0,
            f64::NAN,
        ];
        // Delays of distances on a fine irregular grid up to 2 km, and their neighbours.
        let mut d = 0.0;
        while d < 2000.0 {
            let x = d / SPEED_OF_LIGHT * 1e9;
            xs.extend([x, x.next_up(), x.next_down(), x.trunc() + 0.5]);
            d += 0.013_7;
        }
        for x in xs {
            assert_eq!(round_to_u64(x), x.round() as u64, "{x:e}");
        }
    }
}
