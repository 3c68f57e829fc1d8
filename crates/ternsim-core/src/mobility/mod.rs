//! Mobility models: where a node is at time t.
//!
//! The seam the radio channel reads positions through. A node is static or follows a
//! [`Trajectory`] (ns-2 `setdest` legs: scripted moves, or a random waypoint path generated
//! ahead of time); either answers the position for any t, so that reception uses the
//! position at the time of each frame without per-step events.

pub mod movement_file;
pub mod random_waypoint;
pub mod trajectory;

use std::sync::Arc;

use crate::sim::{RandomStream, SimTime};

pub use movement_file::{parse_movement_file, write_movement_file, NodeScript};
pub use random_waypoint::{PauseDistribution, RandomWaypoint, SetdestVersion, SpeedDistribution};
pub use trajectory::{Leg, Trajectory};

/// The random stream node `name`'s mobility draws from: a run's mobility depends only on the
/// seed and the node's name.
pub fn mobility_stream(seed: u64, name: &str) -> RandomStream {
    RandomStream::named(seed, &format!("mobility/{name}"))
}

/// Nodes placed uniformly in an area (`[topology] random`), moving by random waypoint when
/// the scenario says so: their paths are drawn when a run starts, from the run's seed.
#[derive(Clone, Debug, PartialEq)]
pub struct RandomPlacement {
    pub width: f64,
    pub height: f64,
    pub waypoint: Option<RandomWaypoint>,
    /// The run's end: paths are generated up to it.
    pub until: SimTime,
}

impl RandomPlacement {
    /// Node `name`'s mobility in the run with `seed` (a static node draws x then y, the
    /// same first draws as a random waypoint node's start).
    pub fn mobility(&self, seed: u64, name: &str) -> Mobility {
        let mut rng = mobility_stream(seed, name);
        match &self.waypoint {
            Some(m) => Mobility::Trajectory(Arc::new(m.trajectory(&mut rng, self.until))),
            None => {
                let x = rng.uniform() * self.width;
                let y = rng.uniform() * self.height;
                Mobility::Static(Some(Position { x, y }))
            }
        }
    }
}

/// What `ternsim setdest` writes: `nodes` random waypoint nodes named `n0`, `n1`, … (as the
/// scenario key `[topology] random` names them, so the file equals the scenario's paths for
/// the same seed) over `until`, as an ns-2 movement file with setdest's header.
pub fn setdest_file(model: &RandomWaypoint, nodes: usize, until: SimTime, seed: u64) -> String {
    let trajectories: Vec<Trajectory> = (0..nodes)
        .map(|i| model.trajectory(&mut mobility_stream(seed, &format!("n{i}")), until))
        .collect();
    let header = match model.version {
        SetdestVersion::V1 => vec![format!(
            "nodes: {nodes}, pause: {:.2}, max speed: {:.2}, max x: {:.2}, max y: {:.2}",
            model.pause_s, model.max_speed, model.width, model.height
        )],
        SetdestVersion::V2 => vec![
            format!(
                "nodes: {nodes}, speed type: {}, min speed: {:.2}, max speed: {:.2}",
                match model.speed_distribution {
                    SpeedDistribution::Uniform => 1,
                    SpeedDistribution::Normal => 2,
                },
                model.min_speed,
                model.max_speed
            ),
            format!(
                "avg speed: {:.2}, pause type: {}, pause: {:.2}, max x: {:.2}, max y: {:.2}",
                model.stationary_mean_speed(),
                match model.pause_distribution {
                    PauseDistribution::Constant => 1,
                    PauseDistribution::Uniform => 2,
                },
                model.pause_s,
                model.width,
                model.height
            ),
        ],
    };
    let mut header = header;
    header.push(format!(
        "ternsim setdest: seed {seed}, time {:.2}{}",
        until.as_secs_f64(),
        if model.steady_state {
            ", steady state start"
        } else {
            ""
        }
    ));
    write_movement_file(&trajectories, &header)
}

/// A position in metres.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Position {
    pub x: f64,
    pub y: f64,
}

impl Position {
    /// The Euclidean distance, as ns-2 computes it (`MobileNode::distance`, the two-ray
    /// model's `Pr`: the square root of the summed squares, not libm's slower `hypot`,
    /// which guards against overflow no topography in metres can reach).
    pub fn distance(self, other: Position) -> f64 {
        let (dx, dy) = (self.x - other.x, self.y - other.y);
        (dx * dx + dy * dy).sqrt()
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
