//! Random waypoint against published analytic results, the movement-file round trip, and a
//! mobile AODV run.
//!
//! Tolerances come from the sample sizes: the mean speed of N independent nodes has a
//! standard error σ/√N (σ of the stationary speed computed from its density); fractions of
//! samples have a binomial standard error. Checks allow 5 standard errors.

use ternsim_core::mobility::random_waypoint::mean_leg_length;
use ternsim_core::mobility::{
    mobility_stream, parse_movement_file, setdest_file, PauseDistribution, Position,
    RandomWaypoint, SetdestVersion, SpeedDistribution, Trajectory,
};
use ternsim_core::sim::SimTime;

fn model(min: f64, max: f64, pause: f64, version: SetdestVersion, steady: bool) -> RandomWaypoint {
    RandomWaypoint {
        width: 500.0,
        height: 500.0,
        pause_s: pause,
        pause_distribution: PauseDistribution::Constant,
        min_speed: min,
        max_speed: max,
        speed_distribution: SpeedDistribution::Uniform,
        version,
        steady_state: steady,
    }
}

fn nodes(m: &RandomWaypoint, n: usize, until: f64, seed: u64) -> Vec<Trajectory> {
    (0..n)
        .map(|i| {
            m.trajectory(
                &mut mobility_stream(seed, &format!("n{i}")),
                SimTime::from_secs_f64(until),
            )
        })
        .collect()
}

fn mean_speed(trs: &[Trajectory], t: f64) -> f64 {
    let t = SimTime::from_secs_f64(t);
    trs.iter().map(|tr| tr.speed_at(t)).sum::<f64>() / trs.len() as f64
}

/// Moments of the time-stationary speed of a moving node, density (1/v)/ln(max/min) on
/// [min, max] (Yoon, Liu & Noble 2003): mean (max − min)/ln(max/min), E[V²] =
/// (max² − min²)/(2 ln(max/min)).
fn stationary_speed_moments(min: f64, max: f64) -> (f64, f64) {
    let l = (max / min).ln();
    ((max - min) / l, (max * max - min * min) / (2.0 * l))
}

/// Yoon, Liu & Noble (INFOCOM 2003): with speeds U(vmin, vmax) and no pause the ensemble
/// mean speed falls from the leg average (vmin + vmax)/2 at t = 0 to the harmonic mean
/// (vmax − vmin)/ln(vmax/vmin); with vmin = 0 (setdest version 1) it keeps decaying.
#[test]
fn mean_speed_converges_to_the_harmonic_mean_and_decays_with_min_speed_zero() {
    let n = 4000;
    let (mean, second) = stationary_speed_moments(1.0, 10.0);
    let se = (second - mean * mean).sqrt() / (n as f64).sqrt();
    let trs = nodes(
        &model(1.0, 10.0, 0.0, SetdestVersion::V1, false),
        n,
        1500.0,
        1,
    );
    let at0 = mean_speed(&trs, 0.0);
    let late = mean_speed(&trs, 1500.0); // 22 mean leg times E[T] = 66.7 s in
                                         // U(1, 10) at t = 0: mean 5.5, s.d. 9/√12.
    assert!(
        (at0 - 5.5).abs() < 5.0 * (9.0 / 12f64.sqrt()) / (n as f64).sqrt(),
        "{at0}"
    );
    assert!(
        (late - mean).abs() < 5.0 * se,
        "late {late} vs {mean} ± {se}"
    );
    assert!((mean - 3.9087).abs() < 1e-4);

    // vmin = 0: no stationary regime, the mean keeps falling (every s.e. < 2.9/√n).
    let trs = nodes(
        &model(0.0, 10.0, 0.0, SetdestVersion::V1, false),
        n,
        1800.0,
        2,
    );
    let se0 = 2.9 / (n as f64).sqrt();
    let means: Vec<f64> = [0.0, 50.0, 300.0, 1800.0]
        .iter()
        .map(|&t| mean_speed(&trs, t))
        .collect();
    assert!((means[0] - 5.0).abs() < 5.0 * se0, "{means:?}");
    for w in means.windows(2) {
        assert!(w[1] < w[0] - 5.0 * se0, "not decaying: {means:?}");
    }
    // After 1800 s it is below the vmin = 1 steady state: nothing stops the decay there.
    assert!(means[3] < mean - 5.0 * se0, "{means:?}");
}

/// Fraction of `positions` inside the central square of side a/2.
fn central_fraction(positions: &[Position], a: f64) -> f64 {
    let inside = positions
        .iter()
        .filter(|p| (p.x - a / 2.0).abs() < a / 4.0 && (p.y - a / 2.0).abs() < a / 4.0)
        .count();
    inside as f64 / positions.len() as f64
}

/// Bettstetter, Resta & Santi (IEEE TMC 2003): the stationary density on a square of side a
/// is approximately f(x, y) = (36/a⁶)(x² − a²/4)(y² − a²/4) (centred coordinates), whose
/// mass in the central square of side a/2 is (11/16)² = 0.4727 — against 0.25 for a uniform
/// spread. The product form is an approximation 2–4 % above the exact value (Hyytiä et al.
/// 2006; manet-spec §4.3), so the check allows 5 %.
#[test]
fn stationary_spatial_distribution_is_centre_heavy_as_published() {
    let a = 500.0;
    // ∫∫ over |x|, |y| < a/4 of the approximation, by its 1-D factor 6x(a − x)/a³ on [a/4, 3a/4].
    let one_d = |x: f64| (3.0 * x * x * a - 2.0 * x * x * x) / (a * a * a);
    let formula = (one_d(0.75 * a) - one_d(0.25 * a)).powi(2);
    assert!((formula - 0.472_656_25).abs() < 1e-12);
    let m = model(1.0, 10.0, 0.0, SetdestVersion::V1, false);
    let trs = nodes(&m, 4000, 3000.0, 3);
    // Ten snapshots 150 s apart after a 1000 s warm-up (15 E[T]).
    let positions: Vec<Position> = (0..10)
        .flat_map(|k| {
            let t = SimTime::from_secs_f64(1000.0 + 150.0 * k as f64);
            trs.iter().map(move |tr| tr.position_at(t))
        })
        .collect();
    let got = central_fraction(&positions, a);
    assert!(
        (got / formula - 1.0).abs() < 0.05,
        "central mass {got} vs {formula}"
    );
    assert!(got > 0.25 + 20.0 * (0.25f64 * 0.75 / 40_000.0).sqrt());
}

/// Navidi & Camp (IEEE TMC 2004): started from the stationary distribution, the model has
/// no transient: at t = 0 the paused fraction is E[P]/(E[P] + E[T]), the mean speed (paused
/// nodes count 0) is E[L]/(E[T] + E[P]) (500 m × 500 m, U(1, 10), pause 10 s: 0.1304 and
/// 3.3990 m/s), and the spread is already centre-heavy; setdest version 2's first trip gives
/// the same mean speed at t = 0 (Yoon, Liu & Noble, MobiCom 2003).
#[test]
fn steady_state_start_has_no_transient() {
    let n = 20_000;
    let m = model(1.0, 10.0, 10.0, SetdestVersion::V1, true);
    assert!((mean_leg_length(500.0, 500.0) - 260.703).abs() < 1e-3);
    let (p_pause, target) = (m.stationary_paused_probability(), m.stationary_mean_speed());
    assert!((p_pause - 0.1304).abs() < 1e-4 && (target - 3.3990).abs() < 1e-4);
    let (mean, second) = stationary_speed_moments(1.0, 10.0);
    let var = (1.0 - p_pause) * second - target * target;
    let se = var.sqrt() / (n as f64).sqrt();
    assert!((mean * (1.0 - p_pause) - target).abs() < 1e-9);
    let trs = nodes(&m, n, 400.0, 4);
    for t in [0.0, 50.0, 400.0] {
        let got = mean_speed(&trs, t);
        assert!(
            (got - target).abs() < 5.0 * se,
            "t = {t}: {got} vs {target} ± {se}"
        );
    }
    let t0 = SimTime::ZERO;
    let paused = trs.iter().filter(|tr| tr.speed_at(t0) == 0.0).count() as f64 / n as f64;
    let se_p = (p_pause * (1.0 - p_pause) / n as f64).sqrt();
    assert!(
        (paused - p_pause).abs() < 5.0 * se_p,
        "{paused} vs {p_pause}"
    );
    // Without pauses the spread at t = 0 is the moving nodes' centre-heavy one.
    let still = nodes(&model(1.0, 10.0, 0.0, SetdestVersion::V1, true), n, 1.0, 5);
    let at0: Vec<Position> = still.iter().map(|tr| tr.position_at(t0)).collect();
    let got = central_fraction(&at0, 500.0);
    assert!((got / 0.472_656_25 - 1.0).abs() < 0.05, "{got}");
    // setdest v2: the first trip is paused or moving with the stationary probability.
    let v2 = model(1.0, 10.0, 10.0, SetdestVersion::V2, false);
    let got = mean_speed(&nodes(&v2, n, 1.0, 6), 0.0);
    assert!(
        (got - target).abs() < 5.0 * se,
        "v2 at 0: {got} vs {target}"
    );
}

/// A generated movement file read back gives the same paths, to the printed precision.
#[test]
fn movement_files_round_trip() {
    let m = model(0.0, 20.0, 5.0, SetdestVersion::V1, false);
    let until = SimTime::from_secs_f64(200.0);
    let text = setdest_file(&m, 10, until, 9);
    assert!(text.starts_with(
        "#\n# nodes: 10, pause: 5.00, max speed: 20.00, max x: 500.00, max y: 500.00\n"
    ));
    let scripts = parse_movement_file(&text).unwrap();
    assert_eq!(scripts.len(), 10);
    for (i, s) in scripts.iter().enumerate() {
        let original = m.trajectory(&mut mobility_stream(9, &format!("n{i}")), until);
        let read = s.trajectory(Position { x: -1.0, y: -1.0 }).unwrap();
        assert_eq!(read.legs().len(), original.legs().len());
        for k in 0..=400 {
            let t = SimTime::from_secs_f64(k as f64 * 0.5);
            let (p, q) = (read.position_at(t), original.position_at(t));
            assert!(p.distance(q) < 1e-9, "node {i} at {t:?}: {p:?} vs {q:?}");
        }
    }
}

/// setdest v2 `-s 2` in a 500 m × 500 m square, speeds in [1, 19] m/s: normal of mean 10 and
/// σ = 4.5 clipped at ±2σ.
fn normal_model(pause: f64) -> RandomWaypoint {
    RandomWaypoint {
        speed_distribution: SpeedDistribution::Normal,
        ..model(1.0, 19.0, pause, SetdestVersion::V2, false)
    }
}

/// E[1/V] of the clipped normal: setdest's 10,000-bin integration against adaptive
/// quadrature of ∫φ(v)/v / ∫φ over [1, 19] (scipy.integrate.quad: 0.129257068, harmonic mean
/// 7.736521 m/s; for [1, 10]: 0.218525116).
#[test]
fn normal_speeds_mean_inverse_speed_equals_quadrature() {
    assert!((normal_model(0.0).mean_inverse_speed() - 0.129_257_068).abs() < 1e-6);
    let narrow = RandomWaypoint {
        speed_distribution: SpeedDistribution::Normal,
        ..model(1.0, 10.0, 0.0, SetdestVersion::V2, false)
    };
    assert!((narrow.mean_inverse_speed() - 0.218_525_116).abs() < 1e-6);
}

/// Leg speeds of the clipped normal: mean (min + max)/2 by symmetry and standard deviation
/// σ·√(1 − 2·2φ(2)/(2Φ(2) − 1)) = 0.879626·σ (the variance of a normal truncated at ±2σ);
/// every speed inside [min, max]. Later legs only (the first is the stationary draw).
#[test]
fn normal_leg_speeds_have_the_truncated_normal_mean_and_spread() {
    let m = normal_model(0.0);
    let trs = nodes(&m, 400, 2000.0, 5);
    let speeds: Vec<f64> = trs
        .iter()
        .flat_map(|tr| tr.legs().iter().skip(1).map(|l| l.speed_mps))
        .collect();
    let n = speeds.len() as f64;
    assert!(n > 5000.0, "{n} legs");
    let mean = speeds.iter().sum::<f64>() / n;
    let sd = (speeds.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
    let want_sd = 4.5 * 0.879_626;
    assert!(speeds.iter().all(|v| (1.0..=19.0).contains(v)));
    assert!(
        (mean - 10.0).abs() < 5.0 * want_sd / n.sqrt(),
        "mean {mean}"
    );
    // The standard error of a sample sd is about sd/√(2n).
    assert!(
        (sd - want_sd).abs() < 5.0 * want_sd / (2.0 * n).sqrt(),
        "sd {sd}"
    );
}

/// With no pause every v2 node starts moving with speed density ∝ φ(v)/v, whose mean is the
/// harmonic mean 1/E[1/V] = 7.736521 m/s (quadrature above), not the leg mean 10; long after
/// the start the ensemble mean speed is the same stationary mean. (In between it is not:
/// setdest v2 draws the first leg's end points uniformly, not length-biased, manet-spec
/// §2.4, so v2 shortens the transient without removing it.)
#[test]
fn normal_first_trip_speeds_have_the_stationary_harmonic_mean() {
    let n = 4000;
    let trs = nodes(&normal_model(0.0), n, 1500.0, 9);
    let first: Vec<f64> = trs.iter().map(|tr| tr.legs()[0].speed_mps).collect();
    let mean = first.iter().sum::<f64>() / n as f64;
    let sd = (first.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n as f64).sqrt();
    let se = sd / (n as f64).sqrt();
    assert!(
        (mean - 7.736_521).abs() < 5.0 * se,
        "first-trip mean {mean} ± {se}"
    );
    assert!((mean_speed(&trs, 0.0) - 7.736_521).abs() < 5.0 * se);
    let late = mean_speed(&trs, 1500.0);
    assert!((late - 7.736_521).abs() < 5.0 * se, "t = 1500 s: {late}");
}

/// The movement file names the speed law in setdest's v2 header (`speed type: 2`), and a
/// version 1 model refuses the normal law.
#[test]
fn normal_speeds_are_version_2_only_and_named_in_the_header() {
    let file = setdest_file(&normal_model(10.0), 2, SimTime::from_secs_f64(50.0), 1);
    assert!(
        file.contains("speed type: 2, min speed: 1.00, max speed: 19.00"),
        "{file}"
    );
    let v1 = RandomWaypoint {
        speed_distribution: SpeedDistribution::Normal,
        ..model(0.0, 19.0, 0.0, SetdestVersion::V1, false)
    };
    assert_eq!(v1.check().unwrap_err().0, "speed_distribution");
}
