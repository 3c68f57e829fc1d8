//! Random waypoint mobility as ns-2's `setdest` program generates it, written ahead of time
//! as a [`Trajectory`] (ns-2 `indep-utils/cmu-scen-gen/setdest/setdest.cc`; manet-spec §2).
//!
//! A node alternates straight legs towards uniform destinations in the area with pauses at
//! the destinations. Three ways to start:
//! * version 1 (CMU 1999): uniform start position, every node first pauses `pause` seconds
//!   (so with no pause the first leg starts at t = 0); leg speeds U(min, max) with min 0
//!   allowed, hence the speed decay of Yoon, Liu & Noble (INFOCOM 2003).
//! * version 2 (setdest `-v 2`): min speed > 0; the first trip is a pause with the
//!   steady-state probability p / (E[1/V]·E[L] + p), else a move at t = 0 whose speed has
//!   the time-stationary density ∝ f(v)/v; pauses constant or U(0, 2p); leg speeds U(min,
//!   max) or, as setdest `-s 2`, a normal law of mean (min + max)/2 and σ = (max − min)/4
//!   clipped to [min, max] by rejection (manet-spec §2.4).
//! * steady state (Navidi & Camp, IEEE TMC 2004, "perfect simulation"; manet-spec §2.7):
//!   paused with the stationary probability at a uniform point for a residual pause, or
//!   moving on a length-biased leg at a uniform point of it with speed density ∝ 1/v.

use super::{Position, Trajectory};
use crate::sim::{RandomStream, SimTime};

/// The generator's source of U[0, 1) draws (a [`RandomStream`]; scripted in tests).
pub trait Uniforms {
    fn uniform(&mut self) -> f64;
}

impl Uniforms for RandomStream {
    fn uniform(&mut self) -> f64 {
        RandomStream::uniform(self)
    }
}

/// Which `setdest` the model follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetdestVersion {
    V1,
    V2,
}

/// How long a node pauses at a waypoint (setdest `-P`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PauseDistribution {
    /// Exactly `pause` seconds (setdest `-P 1`; version 1 always).
    Constant,
    /// U(0, 2·pause) seconds (setdest v2 `-P 2`).
    Uniform,
}

/// The law of leg speeds (setdest v2 `-s`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpeedDistribution {
    /// U(min, max) (setdest `-s 1`; version 1 always).
    Uniform,
    /// Normal with mean (min + max)/2 and σ = (max − min)/4, drawn again until it falls in
    /// [min, max] (setdest v2 `-s 2`).
    Normal,
}

/// Bins of the midpoint rule that gives E[1/V] for the clipped normal, as setdest v2 does
/// (manet-spec §2.4: a 10,000-bin numerical integration).
const NORMAL_BINS: usize = 10_000;

#[derive(Clone, Debug, PartialEq)]
pub struct RandomWaypoint {
    /// The area [0, width] × [0, height] in metres.
    pub width: f64,
    pub height: f64,
    /// Mean pause at a waypoint, seconds.
    pub pause_s: f64,
    pub pause_distribution: PauseDistribution,
    pub min_speed: f64,
    pub max_speed: f64,
    pub speed_distribution: SpeedDistribution,
    pub version: SetdestVersion,
    /// Start every node in the stationary regime (needs `min_speed` > 0).
    pub steady_state: bool,
}

/// Mean distance between two independent uniform points of a width × height rectangle
/// (the mean leg length E[L]; closed form used by setdest v2, link-spec §6; for a square of
/// side a it is 0.521405·a, Bettstetter, Hartenstein & Pérez-Costa 2004).
pub fn mean_leg_length(a: f64, b: f64) -> f64 {
    let d = a.hypot(b);
    (a.powi(3) / (b * b) + b.powi(3) / (a * a) + d * (3.0 - a * a / (b * b) - b * b / (a * a)))
        / 15.0
        + ((b * b / a) * ((a + d) / b).ln() + (a * a / b) * ((b + d) / a).ln()) / 6.0
}

impl RandomWaypoint {
    /// Why the parameters are refused: (key, message).
    pub fn check(&self) -> Result<(), (&'static str, String)> {
        if !(self.width > 0.0
            && self.height > 0.0
            && self.width.is_finite()
            && self.height.is_finite())
        {
            return Err(("area", "allowed: two lengths > 0".into()));
        }
        if !(self.pause_s >= 0.0 && self.pause_s.is_finite()) {
            return Err(("pause", "allowed: a duration >= 0".into()));
        }
        if !(self.max_speed > 0.0 && self.max_speed.is_finite()) {
            return Err(("max_speed", "allowed: a speed > 0".into()));
        }
        if !(self.min_speed >= 0.0 && self.min_speed <= self.max_speed) {
            return Err(("min_speed", "allowed: 0 <= min_speed <= max_speed".into()));
        }
        if self.version == SetdestVersion::V1
            && self.pause_distribution != PauseDistribution::Constant
        {
            return Err((
                "pause_distribution",
                "version 1 pauses are constant; uniform pauses need version = 2".into(),
            ));
        }
        if self.version == SetdestVersion::V1
            && self.speed_distribution != SpeedDistribution::Uniform
        {
            return Err((
                "speed_distribution",
                "version 1 speeds are uniform; normal speeds need version = 2".into(),
            ));
        }
        let needs_min = match (self.version, self.steady_state) {
            (SetdestVersion::V2, _) => Some("version 2 (as setdest -v 2)"),
            (SetdestVersion::V1, true) => {
                Some("steady_state (no stationary regime exists with min 0)")
            }
            _ => None,
        };
        if let Some(why) = needs_min {
            if self.min_speed <= 0.0 {
                return Err(("min_speed", format!("allowed: > 0 for {why}")));
            }
        }
        Ok(())
    }

    /// E[1/V] of a leg speed: ln(vmax/vmin)/(vmax − vmin) for U(vmin, vmax) (Yoon et al.);
    /// for the clipped normal ∫f(v)/v dv / ∫f(v) dv over [vmin, vmax] by the midpoint rule on
    /// 10,000 bins, as setdest v2 integrates it.
    pub fn mean_inverse_speed(&self) -> f64 {
        if self.max_speed == self.min_speed {
            return 1.0 / self.max_speed;
        }
        match self.speed_distribution {
            SpeedDistribution::Uniform => {
                (self.max_speed / self.min_speed).ln() / (self.max_speed - self.min_speed)
            }
            SpeedDistribution::Normal => {
                let (mean, sd) = self.normal_parameters();
                let width = (self.max_speed - self.min_speed) / NORMAL_BINS as f64;
                let (mut mass, mut inverse) = (0.0, 0.0);
                for i in 0..NORMAL_BINS {
                    let v = self.min_speed + (i as f64 + 0.5) * width;
                    let z = (v - mean) / sd;
                    // The normal density up to a constant (it cancels in the ratio).
                    let f = (-0.5 * z * z).exp();
                    mass += f;
                    inverse += f / v;
                }
                inverse / mass
            }
        }
    }

    /// Mean and standard deviation of the normal speed law before clipping.
    fn normal_parameters(&self) -> (f64, f64) {
        (
            (self.min_speed + self.max_speed) / 2.0,
            (self.max_speed - self.min_speed) / 4.0,
        )
    }

    /// Mean time on a leg E[T] = E[L]·E[1/V].
    pub fn mean_move_time(&self) -> f64 {
        mean_leg_length(self.width, self.height) * self.mean_inverse_speed()
    }

    /// Stationary probability that a node is paused: E[P] / (E[P] + E[T]) (E[P] = `pause`
    /// for both pause distributions).
    pub fn stationary_paused_probability(&self) -> f64 {
        self.pause_s / (self.pause_s + self.mean_move_time())
    }

    /// Stationary mean speed with paused nodes counted as 0: E[L] / (E[T] + E[P]).
    pub fn stationary_mean_speed(&self) -> f64 {
        mean_leg_length(self.width, self.height) / (self.mean_move_time() + self.pause_s)
    }

    fn uniform_point(&self, u: &mut impl Uniforms) -> Position {
        let x = u.uniform() * self.width;
        let y = u.uniform() * self.height;
        Position { x, y }
    }

    /// A leg speed: U(min, max) (setdest v1 draws U·max, the same law with min 0), or the
    /// clipped normal.
    fn leg_speed(&self, u: &mut impl Uniforms) -> f64 {
        match self.speed_distribution {
            SpeedDistribution::Uniform => {
                self.min_speed + u.uniform() * (self.max_speed - self.min_speed)
            }
            SpeedDistribution::Normal => self.clipped_normal_speed(u),
        }
    }

    /// A normal speed drawn again until it lies in [min, max] (Box–Muller, one pair of
    /// uniforms per try; the clip keeps 95.4 % of draws, ±2σ).
    fn clipped_normal_speed(&self, u: &mut impl Uniforms) -> f64 {
        let (mean, sd) = self.normal_parameters();
        if sd == 0.0 {
            return mean;
        }
        loop {
            // 1 − U lies in (0, 1], so the logarithm is finite.
            let r = (-2.0 * (1.0 - u.uniform()).ln()).sqrt();
            let v = mean + sd * r * (std::f64::consts::TAU * u.uniform()).cos();
            if (self.min_speed..=self.max_speed).contains(&v) {
                return v;
            }
        }
    }

    /// A speed with the time-stationary density ∝ f(v)/v on [min, max] (a moving node is
    /// seen on a leg in proportion to the leg's duration L/v). Uniform f: by inversion,
    /// min·(max/min)^U. Normal f: a clipped normal speed kept with probability min/v.
    fn stationary_speed(&self, u: &mut impl Uniforms) -> f64 {
        match self.speed_distribution {
            SpeedDistribution::Uniform => {
                self.min_speed * (self.max_speed / self.min_speed).powf(u.uniform())
            }
            SpeedDistribution::Normal => loop {
                let v = self.clipped_normal_speed(u);
                if u.uniform() * v < self.min_speed {
                    return v;
                }
            },
        }
    }

    fn pause(&self, u: &mut impl Uniforms) -> f64 {
        match self.pause_distribution {
            PauseDistribution::Constant => self.pause_s,
            PauseDistribution::Uniform => 2.0 * self.pause_s * u.uniform(),
        }
    }

    /// The remaining pause of a node found paused in the stationary regime: density
    /// (1 − F_P(τ)) / E[P] (Navidi & Camp): U(0, p) for a constant pause; for U(0, 2p)
    /// pauses the CDF τ/p − τ²/4p² inverted.
    fn residual_pause(&self, u: &mut impl Uniforms) -> f64 {
        let v = u.uniform();
        match self.pause_distribution {
            PauseDistribution::Constant => self.pause_s * v,
            PauseDistribution::Uniform => 2.0 * self.pause_s * (1.0 - (1.0 - v).sqrt()),
        }
    }

    /// A leg seen by a stationary observer: its end points have joint density ∝ their
    /// distance (rejection: two uniform points kept with probability length / diagonal).
    fn length_biased_leg(&self, u: &mut impl Uniforms) -> (Position, Position) {
        let diagonal = self.width.hypot(self.height);
        loop {
            let a = self.uniform_point(u);
            let b = self.uniform_point(u);
            if u.uniform() * diagonal < a.distance(b) {
                return (a, b);
            }
        }
    }

    /// The node's path from t = 0 until its first decision after `until` (setdest stops once
    /// its clock passes `-t`; the last leg may run past it).
    pub fn trajectory(&self, u: &mut impl Uniforms, until: SimTime) -> Trajectory {
        // `t`: the next decision (an arrival or the end of a pause); `moving`: whether the
        // node is on a leg until `t` (then it pauses next, if pauses are on).
        let (mut tr, mut t, mut moving);
        if self.steady_state {
            if u.uniform() < self.stationary_paused_probability() {
                tr = Trajectory::new(self.uniform_point(u));
                t = SimTime::from_secs_f64(self.residual_pause(u));
                moving = false;
            } else {
                let (a, b) = self.length_biased_leg(u);
                let f = u.uniform();
                let here = Position {
                    x: a.x + f * (b.x - a.x),
                    y: a.y + f * (b.y - a.y),
                };
                tr = Trajectory::new(here);
                let v = self.stationary_speed(u);
                t = self.go(&mut tr, SimTime::ZERO, b, v);
                moving = true;
            }
        } else {
            match self.version {
                SetdestVersion::V1 => {
                    // Every node starts paused for `pause` seconds (speed 0 at creation).
                    tr = Trajectory::new(self.uniform_point(u));
                    t = SimTime::from_secs_f64(self.pause_s);
                    moving = false;
                }
                SetdestVersion::V2 => {
                    let p = self.pause_s;
                    if u.uniform() < p / (self.mean_move_time() + p) {
                        let first = self.pause(u);
                        tr = Trajectory::new(self.uniform_point(u));
                        t = SimTime::from_secs_f64(first);
                        moving = false;
                    } else {
                        tr = Trajectory::new(self.uniform_point(u));
                        let to = self.uniform_point(u);
                        let v = self.stationary_speed(u);
                        t = self.go(&mut tr, SimTime::ZERO, to, v);
                        moving = true;
                    }
                }
            }
        }
        while t <= until {
            if moving && self.pause_s > 0.0 {
                // setdest writes a pause as a zero-speed setdest to the current position.
                let here = tr.position_at(t);
                tr.setdest(t, here, 0.0).expect("valid pause");
                t += SimTime::from_secs_f64(self.pause(u));
                moving = false;
            } else {
                let to = self.uniform_point(u);
                let v = self.leg_speed(u);
                if v <= 0.0 {
                    // A zero speed (U = 0 exactly): the leg never ends; the node stays.
                    break;
                }
                t = self.go(&mut tr, t, to, v);
                moving = true;
            }
        }
        tr
    }

    /// Starts a leg at `t`; returns its arrival time.
    fn go(&self, tr: &mut Trajectory, t: SimTime, to: Position, v: f64) -> SimTime {
        tr.setdest(t, to, v).expect("valid leg");
        tr.legs().last().expect("just pushed").arrival()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Hands out a scripted sequence of uniforms.
    struct Script(std::vec::IntoIter<f64>);

    impl Uniforms for Script {
        fn uniform(&mut self) -> f64 {
            self.0.next().expect("script exhausted")
        }
    }

    fn s(secs: f64) -> SimTime {
        SimTime::from_secs_f64(secs)
    }

    fn close(p: Position, x: f64, y: f64) -> bool {
        (p.x - x).abs() < 1e-6 && (p.y - y).abs() < 1e-6
    }

    fn model(version: SetdestVersion) -> RandomWaypoint {
        RandomWaypoint {
            speed_distribution: SpeedDistribution::Uniform,
            width: 100.0,
            height: 100.0,
            pause_s: 5.0,
            pause_distribution: PauseDistribution::Constant,
            min_speed: 0.0,
            max_speed: 10.0,
            version,
            steady_state: false,
        }
    }

    #[test]
    fn version_1_pauses_first_then_alternates_legs_and_pauses() {
        // Start (10, 20); initial pause 5 s; leg 1 to (50, 20) at 5 m/s (40 m: t 5..13);
        // pause at (50, 20) until 18; leg 2 to (50, 80) at 3 m/s (60 m: t 18..38); pause
        // until 43; leg 3 to (0, 80) at 10 m/s (50 m: 43..48); `until` = 45 s ends it.
        let script = vec![0.1, 0.2, 0.5, 0.2, 0.5, 0.5, 0.8, 0.3, 0.0, 0.8, 1.0];
        let tr = model(SetdestVersion::V1).trajectory(&mut Script(script.into_iter()), s(45.0));
        assert!(close(tr.position_at(s(3.0)), 10.0, 20.0));
        assert_eq!(tr.speed_at(s(3.0)), 0.0);
        assert!(close(tr.position_at(s(9.0)), 30.0, 20.0));
        assert_eq!(tr.speed_at(s(9.0)), 5.0);
        assert!(close(tr.position_at(s(15.0)), 50.0, 20.0));
        assert_eq!(tr.speed_at(s(15.0)), 0.0);
        assert!(close(tr.position_at(s(28.0)), 50.0, 50.0));
        assert_eq!(tr.speed_at(s(28.0)), 3.0);
        assert!(close(tr.position_at(s(40.0)), 50.0, 80.0));
        assert!(close(tr.position_at(s(45.0)), 30.0, 80.0));
        assert!(close(tr.position_at(s(60.0)), 0.0, 80.0));
        // The file form: move at 5, pause at 13, move at 18, pause at 38, move at 43.
        let starts: Vec<f64> = tr.legs().iter().map(|l| l.start.as_secs_f64()).collect();
        assert_eq!(starts, vec![5.0, 13.0, 18.0, 38.0, 43.0]);
        let speeds: Vec<f64> = tr.legs().iter().map(|l| l.speed_mps).collect();
        assert_eq!(speeds, vec![5.0, 0.0, 3.0, 0.0, 10.0]);
    }

    #[test]
    fn version_1_without_pause_moves_from_t0_leg_after_leg() {
        let mut m = model(SetdestVersion::V1);
        m.pause_s = 0.0;
        // (0, 0) → (30, 40) at 10 m/s (t 0..5) → (30, 0) at 4 m/s (t 5..15).
        let script = vec![0.0, 0.0, 0.3, 0.4, 1.0, 0.3, 0.0, 0.4, 0.5, 0.5, 0.5];
        let tr = m.trajectory(&mut Script(script.into_iter()), s(10.0));
        assert!(close(tr.position_at(s(2.5)), 15.0, 20.0));
        assert!(close(tr.position_at(s(10.0)), 30.0, 20.0));
        assert_eq!(tr.legs().len(), 2);
    }

    #[test]
    fn version_2_first_trip_is_a_pause_with_the_steady_state_probability() {
        let mut m = model(SetdestVersion::V2);
        m.min_speed = 1.0;
        // P(first trip paused) = p / (E[1/V]·E[L] + p) = 5 / (0.255843·52.1405 + 5).
        let p_pause = 5.0 / (m.mean_move_time() + 5.0);
        assert!((m.mean_inverse_speed() - 0.255843).abs() < 1e-6);
        // A draw just below it pauses (first leg at 5 s), just above moves at t = 0 with
        // the 1/v-law speed min·(max/min)^U: U = 0.5 → √10 m/s.
        let paused = vec![p_pause - 1e-9, 0.5, 0.5, 1.0, 0.5, 0.9];
        let tr = m.trajectory(&mut Script(paused.into_iter()), s(1.0));
        assert_eq!(tr.legs().len(), 0);
        let moving = vec![p_pause + 1e-9, 0.5, 0.5, 1.0, 0.5, 0.5];
        let tr = m.trajectory(&mut Script(moving.into_iter()), s(1.0));
        assert_eq!(tr.legs()[0].start, SimTime::ZERO);
        assert!((tr.legs()[0].speed_mps - 10f64.sqrt()).abs() < 1e-12);
    }

    #[test]
    fn mean_leg_length_matches_published_values() {
        // Square: 0.521405·a (Bettstetter, Hartenstein & Pérez-Costa 2004); 1500 × 300 m:
        // 524.6 m (setdest v2 header, link-spec §6).
        let square = (2.0 + 2f64.sqrt() + 5.0 * (1.0 + 2f64.sqrt()).ln()) / 15.0;
        assert!((square - 0.521405).abs() < 1e-6);
        assert!((mean_leg_length(500.0, 500.0) - 500.0 * square).abs() < 1e-9);
        assert!((mean_leg_length(1500.0, 300.0) - 524.639).abs() < 1e-3);
    }

    #[test]
    fn refused_parameters_name_their_key() {
        let mut m = model(SetdestVersion::V2);
        assert_eq!(m.check().unwrap_err().0, "min_speed");
        m.min_speed = 1.0;
        m.pause_distribution = PauseDistribution::Uniform;
        assert!(m.check().is_ok());
        let mut v1 = model(SetdestVersion::V1);
        v1.steady_state = true;
        assert_eq!(v1.check().unwrap_err().0, "min_speed");
    }
}
