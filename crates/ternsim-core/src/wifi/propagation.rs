//! Radio propagation: free space (Friis) and two-ray ground, as ns-2 models them
//! (link-spec §3.4). Powers are in watts, distances in metres.
//!
//! Two-ray ground uses Friis up to the crossover distance d_c = 4π·h_t·h_r/λ and the
//! ground-reflection law P_t·G_t·G_r·h_t²·h_r²/(d⁴·L) beyond it. The inverse functions turn a
//! range into the receive-power threshold that gives exactly that range, which is how ns-2's
//! RXThresh (250 m) and CSThresh (550 m) defaults were produced.

use crate::sim::time::round_to_u64;

/// Speed of light in m/s (link-spec §3.4: channel delay = distance / c).
pub const SPEED_OF_LIGHT: f64 = 299_792_458.0;

/// Which path-loss law applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PropagationModel {
    /// Friis free space at every distance.
    FreeSpace,
    /// Friis up to the crossover distance, two-ray ground beyond (ns-2 default).
    TwoRayGround,
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
        }
    }
}

impl Radio {
    /// Wavelength λ = c / f.
    pub fn wavelength(&self) -> f64 {
        SPEED_OF_LIGHT / self.frequency_hz
    }

    /// Two-ray crossover distance d_c = 4π·h_t·h_r/λ (86.2 m with the defaults).
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

    /// Received power at distance `d` (link-spec §3.4). Distance 0 is treated as 1 cm so a
    /// co-located pair still gets a finite, very strong signal.
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
        }
    }

    /// The distance at which the received power falls to `power_w`: the inverse of
    /// [`Radio::rx_power`] (ns-2 `indep-utils/propagation/threshold.cc` solves the same).
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
        }
    }

    /// The threshold power that makes `range_m` the exact reception (or carrier-sense) range.
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

    /// link-spec §7a: λ = 0.32800 m, d_c = 86.20 m with 1.5 m antennas at 914 MHz.
    #[test]
    fn wavelength_and_crossover() {
        let r = Radio::default();
        assert!(
            (r.wavelength() - 0.328_00).abs() < 5e-6,
            "{}",
            r.wavelength()
        );
        assert!((r.crossover_distance() - 86.20).abs() < 0.01);
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

    /// 50 m is inside the crossover: Friis, 0.28183815 · 0.328² / (4π·50)² = 7.6754e-8 W.
    #[test]
    fn friis_branch_below_crossover() {
        let r = Radio::default();
        let lambda = SPEED_OF_LIGHT / 914e6;
        let want = 0.281_838_15 * lambda * lambda / (4.0 * std::f64::consts::PI * 50.0).powi(2);
        assert!(rel(r.rx_power(50.0), want) < 1e-12);
        assert!(rel(r.rx_power(50.0), 7.6754e-8) < 1e-3);
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

    #[test]
    fn propagation_delay_is_distance_over_c() {
        // 250 m / c = 833.9 ns.
        assert_eq!(propagation_delay_ns(250.0), 834);
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
