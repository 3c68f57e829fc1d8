//! Mobility models: where a node is at time t.
//!
//! The seam the radio channel reads positions through. A node is static or follows a
//! [`Trajectory`] (ns-2 `setdest` legs: scripted moves, or a random waypoint path generated
//! ahead of time); either answers the position for any t, so that reception uses the
//! position at the time of each frame without per-step events.

pub mod trajectory;

use std::sync::Arc;

use crate::sim::SimTime;

pub use trajectory::{Leg, Trajectory};

/// A position in metres.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Position {
    pub x: f64,
    pub y: f64,
}

impl Position {
    pub fn distance(self, other: Position) -> f64 {
        (self.x - other.x).hypot(self.y - other.y)
    }
}

/// Pairs `(a, b)`, `a` before `b` in `placed`, of points no farther apart than `range`: radio
/// neighbours within the reception range. Used by scenario validation (the flow connectivity
/// check) and by the world (static routes over the channel).
pub fn pairs_within(placed: &[(usize, Position)], range: f64) -> Vec<(usize, usize)> {
    let mut pairs = Vec::new();
    for (k, &(a, pa)) in placed.iter().enumerate() {
        for &(b, pb) in &placed[k + 1..] {
            if pa.distance(pb) <= range {
                pairs.push((a, b));
            }
        }
    }
    pairs
}

#[derive(Clone, Debug, PartialEq)]
pub enum Mobility {
    /// The node stays where the scenario puts it (or has no position: wired-only nodes).
    Static(Option<Position>),
    /// The node follows straight legs (shared: the node and its radio read the same path).
    Trajectory(Arc<Trajectory>),
}

impl Mobility {
    pub fn position_at(&self, t: SimTime) -> Option<Position> {
        match self {
            Mobility::Static(p) => *p,
            Mobility::Trajectory(tr) => Some(tr.position_at(t)),
        }
    }

    /// An upper bound of the node's speed over the run (m/s).
    pub fn max_speed_mps(&self) -> f64 {
        match self {
            Mobility::Static(_) => 0.0,
            Mobility::Trajectory(tr) => tr.max_speed_mps(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_static_node_stays_put() {
        let m = Mobility::Static(Some(Position { x: 3.0, y: 4.0 }));
        let p = m.position_at(SimTime::from_secs_f64(100.0)).unwrap();
        assert_eq!(p.distance(Position { x: 0.0, y: 0.0 }), 5.0);
    }
}
