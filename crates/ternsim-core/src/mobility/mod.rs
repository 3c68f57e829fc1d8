//! Mobility models: where a node is at time t.
//!
//! The seam the radio channel reads positions through. Static is the only model today;
//! scripted waypoints and random waypoint (ns-2 `setdest`) are further variants of
//! [`Mobility`], answering the same question for any t so that reception can use the
//! position at the time of each frame without per-step events.

use crate::sim::SimTime;

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
}

impl Mobility {
    pub fn position_at(&self, t: SimTime) -> Option<Position> {
        let _ = t;
        match self {
            Mobility::Static(p) => *p,
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
