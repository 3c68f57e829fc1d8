//! When a mobile node is within an agent's radio coverage: the times its trajectory crosses
//! the coverage circle, solved exactly per straight leg.
//!
//! On a leg the node moves at constant velocity v from p0 at t0, so its squared distance to
//! the agent c is the quadratic |p0 − c + v·(t − t0)|² and the crossings of radius r are the
//! roots of |v|²τ² + 2(p0 − c)·v τ + |p0 − c|² − r² = 0 (τ = t − t0) inside the leg. Pauses
//! and the time before the first move are static. The world turns the crossings into the
//! radio link's up and down events, so the link is up exactly while the distance is ≤ r.

use crate::mobility::{Mobility, Position};
use crate::sim::SimTime;

/// A straight piece of the path: from `t0` to `t1` starting at `p0` with velocity `v` (m/s).
struct Piece {
    t0: f64,
    t1: f64,
    p0: Position,
    v: (f64, f64),
}

fn pieces(m: &Mobility, end: f64) -> Vec<Piece> {
    let tr = match m {
        Mobility::Static(p) => {
            return p
                .map(|p0| Piece {
                    t0: 0.0,
                    t1: end,
                    p0,
                    v: (0.0, 0.0),
                })
                .into_iter()
                .collect()
        }
        Mobility::Trajectory(tr) => tr,
    };
    let legs = tr.legs();
    let mut out = Vec::new();
    let first = legs.first().map_or(end, |l| l.start.as_secs_f64()).min(end);
    out.push(Piece {
        t0: 0.0,
        t1: first,
        p0: tr.start(),
        v: (0.0, 0.0),
    });
    for (k, leg) in legs.iter().enumerate() {
        let start = leg.start.as_secs_f64();
        if start >= end {
            break;
        }
        let next = legs
            .get(k + 1)
            .map_or(end, |l| l.start.as_secs_f64())
            .min(end);
        let d = leg.from.distance(leg.to);
        let arrive = if d > 0.0 && leg.speed_mps > 0.0 {
            (start + d / leg.speed_mps).min(next)
        } else {
            start
        };
        if arrive > start {
            let s = leg.speed_mps / d;
            out.push(Piece {
                t0: start,
                t1: arrive,
                p0: leg.from,
                v: ((leg.to.x - leg.from.x) * s, (leg.to.y - leg.from.y) * s),
            });
        }
        if next > arrive {
            out.push(Piece {
                t0: arrive,
                t1: next,
                p0: tr.position_at(SimTime::from_secs_f64(arrive)),
                v: (0.0, 0.0),
            });
        }
    }
    out
}

/// Whether the node is within `radius` of `center` at time 0, and the times in (0, end]
/// when that changes, each with the new state.
pub fn coverage_changes(
    m: &Mobility,
    center: Position,
    radius: f64,
    end: SimTime,
) -> (bool, Vec<(SimTime, bool)>) {
    let end_s = end.as_secs_f64();
    let inside = |p: Position| p.distance(center) <= radius;
    let Some(p0) = m.position_at(SimTime::ZERO) else {
        return (false, Vec::new());
    };
    let initial = inside(p0);
    let mut state = initial;
    let mut changes = Vec::new();
    for piece in pieces(m, end_s) {
        let (dx, dy) = (piece.p0.x - center.x, piece.p0.y - center.y);
        let a = piece.v.0 * piece.v.0 + piece.v.1 * piece.v.1;
        if a == 0.0 {
            continue;
        }
        let b = 2.0 * (dx * piece.v.0 + dy * piece.v.1);
        let c = dx * dx + dy * dy - radius * radius;
        let disc = b * b - 4.0 * a * c;
        if disc <= 0.0 {
            continue; // never inside, or only touching the circle
        }
        let sq = disc.sqrt();
        // Entering at the smaller root, leaving at the larger.
        for (tau, now_inside) in [
            ((-b - sq) / (2.0 * a), true),
            ((-b + sq) / (2.0 * a), false),
        ] {
            let t = piece.t0 + tau;
            if t > piece.t0 && t <= piece.t1 && state != now_inside {
                state = now_inside;
                changes.push((SimTime::from_secs_f64(t), now_inside));
            }
        }
    }
    (initial, changes)
}
