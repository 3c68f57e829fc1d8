//! A node's path as a sequence of straight legs: ns-2's `setdest` model.
//!
//! In ns-2 a mobile node moves only when told to: `$ns_ at t "$node_ setdest x y v"` starts a
//! straight move from wherever the node is at `t` towards `(x, y)` at `v` m/s; the node stops
//! when it arrives, and a new `setdest` before arrival interrupts the move from the current
//! position (ns-2 `MobileNode::set_destination`, link-spec §6). Random waypoint is such a
//! script generated ahead of time (as `setdest` the program writes one), so every mobility
//! model of ternsim is a [`Trajectory`]: the position at any time t is answered from the legs
//! without per-step events.

use super::Position;
use crate::sim::SimTime;

/// One straight move: from `from` (where the node is at `start`) towards `to` at `speed_mps`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Leg {
    pub start: SimTime,
    pub from: Position,
    pub to: Position,
    pub speed_mps: f64,
    /// `from.distance(to)`, computed once when the leg is made: the radio channel asks for
    /// positions on every frame, and this is the same number each time.
    pub length: f64,
}

impl Leg {
    /// When the node reaches `to` if nothing interrupts it.
    pub fn arrival(&self) -> SimTime {
        if self.speed_mps <= 0.0 {
            return self.start;
        }
        let secs = self.length / self.speed_mps;
        SimTime(self.start.0 + (secs * 1e9).round() as u64)
    }

    fn position_at(&self, t: SimTime) -> Position {
        let d = self.length;
        if d == 0.0 || self.speed_mps <= 0.0 {
            return self.from;
        }
        let travelled = self.speed_mps * (t.0.saturating_sub(self.start.0)) as f64 * 1e-9;
        if travelled >= d {
            return self.to;
        }
        let f = travelled / d;
        Position {
            x: self.from.x + f * (self.to.x - self.from.x),
            y: self.from.y + f * (self.to.y - self.from.y),
        }
    }
}

/// One leg of a [`Trajectory`] (or its start position, before the first leg) and the times
/// `from <= t < until` (ns) during which it is the leg the node is on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Piece {
    pub from: u64,
    pub until: u64,
    leg: Option<Leg>,
    start: Position,
}

impl Piece {
    pub fn covers(&self, t: u64) -> bool {
        self.from <= t && t < self.until
    }

    /// The position at `t`, for `t` this piece covers.
    pub fn position_at(&self, t: u64) -> Position {
        debug_assert!(self.covers(t));
        match &self.leg {
            None => self.start,
            Some(leg) => leg.position_at(SimTime(t)),
        }
    }
}

/// A start position and the `setdest` commands that follow it, in time order.
#[derive(Clone, Debug, PartialEq)]
pub struct Trajectory {
    start: Position,
    legs: Vec<Leg>,
}

impl Trajectory {
    pub fn new(start: Position) -> Trajectory {
        Trajectory {
            start,
            legs: Vec::new(),
        }
    }

    /// ns-2 `setdest`: from `t`, move from the current position towards `to` at `speed_mps`.
    /// Commands must come in time order; a command at the same time as the previous one
    /// replaces it. A speed of 0 stops the node where it is (ns-2 accepts it and the node
    /// stays put).
    pub fn setdest(&mut self, t: SimTime, to: Position, speed_mps: f64) -> Result<(), String> {
        if !(speed_mps >= 0.0 && speed_mps.is_finite()) {
            return Err(format!(
                "speed must be a finite number >= 0 m/s, got {speed_mps}"
            ));
        }
        if !(to.x.is_finite() && to.y.is_finite()) {
            return Err("destination must be two finite numbers".into());
        }
        if let Some(last) = self.legs.last() {
            if t < last.start {
                return Err(format!(
                    "moves must be in time order: {} s comes after {} s",
                    t.as_secs_f64(),
                    last.start.as_secs_f64()
                ));
            }
            if t == last.start {
                self.legs.pop();
            }
        }
        let from = self.position_at(t);
        self.legs.push(Leg {
            start: t,
            from,
            to,
            speed_mps,
            length: from.distance(to),
        });
        Ok(())
    }

    pub fn start(&self) -> Position {
        self.start
    }

    pub fn legs(&self) -> &[Leg] {
        &self.legs
    }

    /// The fastest leg's speed: what the radio channel's spatial index must allow for.
    pub fn max_speed_mps(&self) -> f64 {
        self.legs.iter().map(|l| l.speed_mps).fold(0.0, f64::max)
    }

    /// Where the node is at `t`: on the last leg started at or before `t` (binary search).
    pub fn position_at(&self, t: SimTime) -> Position {
        let k = self.legs.partition_point(|l| l.start <= t);
        match k {
            0 => self.start,
            k => self.legs[k - 1].position_at(t),
        }
    }

    /// The part of the path in effect at `t`, with the interval of times it covers: its
    /// [`Piece::position_at`] answers exactly as [`Trajectory::position_at`] for every time in
    /// that interval, without searching the legs (the radio channel keeps one per station).
    pub fn piece_at(&self, t: SimTime) -> Piece {
        let k = self.legs.partition_point(|l| l.start <= t);
        Piece {
            from: if k == 0 { 0 } else { self.legs[k - 1].start.0 },
            until: self.legs.get(k).map_or(u64::MAX, |l| l.start.0),
            leg: if k == 0 { None } else { Some(self.legs[k - 1]) },
            start: self.start,
        }
    }

    /// The node's speed at `t` (0 while paused or before its first move).
    pub fn speed_at(&self, t: SimTime) -> f64 {
        let k = self.legs.partition_point(|l| l.start <= t);
        match k {
            0 => 0.0,
            k => {
                let leg = &self.legs[k - 1];
                if t < leg.arrival() {
                    leg.speed_mps
                } else {
                    0.0
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: f64, y: f64) -> Position {
        Position { x, y }
    }

    fn s(secs: f64) -> SimTime {
        SimTime::from_secs_f64(secs)
    }

    #[test]
    fn a_node_moves_in_a_straight_line_and_stops_at_its_destination() {
        // From (0,0) at t = 10 s towards (30,40) (50 m away) at 5 m/s: arrives at t = 20 s.
        let mut tr = Trajectory::new(p(0.0, 0.0));
        tr.setdest(s(10.0), p(30.0, 40.0), 5.0).unwrap();
        assert_eq!(tr.position_at(s(5.0)), p(0.0, 0.0));
        assert_eq!(tr.speed_at(s(5.0)), 0.0);
        // 12 s: 10 m travelled, 1/5 of the way.
        let q = tr.position_at(s(12.0));
        assert!((q.x - 6.0).abs() < 1e-9 && (q.y - 8.0).abs() < 1e-9);
        assert_eq!(tr.speed_at(s(12.0)), 5.0);
        assert_eq!(tr.legs()[0].arrival(), s(20.0));
        assert_eq!(tr.position_at(s(25.0)), p(30.0, 40.0));
        assert_eq!(tr.speed_at(s(25.0)), 0.0);
    }

    #[test]
    fn a_new_setdest_interrupts_the_move_from_the_current_position() {
        // Moving east at 10 m/s from t = 0; at t = 3 s (x = 30) turn north to (30, 100).
        let mut tr = Trajectory::new(p(0.0, 0.0));
        tr.setdest(s(0.0), p(100.0, 0.0), 10.0).unwrap();
        tr.setdest(s(3.0), p(30.0, 100.0), 20.0).unwrap();
        let from = tr.legs()[1].from;
        assert!((from.x - 30.0).abs() < 1e-9 && from.y == 0.0, "{from:?}");
        let q = tr.position_at(s(4.0));
        assert!((q.x - 30.0).abs() < 1e-9 && (q.y - 20.0).abs() < 1e-9);
        assert_eq!(tr.max_speed_mps(), 20.0);
    }

    #[test]
    fn a_piece_answers_as_the_trajectory_over_the_times_it_covers() {
        let mut tr = Trajectory::new(p(0.0, 0.0));
        tr.setdest(s(2.0), p(100.0, 0.0), 10.0).unwrap();
        tr.setdest(s(5.0), p(30.0, 100.0), 20.0).unwrap();
        let before = tr.piece_at(s(1.0));
        assert_eq!((before.from, before.until), (0, s(2.0).0));
        let first = tr.piece_at(s(3.0));
        assert_eq!((first.from, first.until), (s(2.0).0, s(5.0).0));
        let last = tr.piece_at(s(5.0));
        assert_eq!((last.from, last.until), (s(5.0).0, u64::MAX));
        for t in [0.0, 1.5, 2.0, 2.7, 4.999, 5.0, 6.3, 40.0] {
            let piece = tr.piece_at(s(t));
            assert!(piece.covers(s(t).0));
            assert_eq!(piece.position_at(s(t).0), tr.position_at(s(t)), "t = {t}");
        }
    }

    #[test]
    fn moves_out_of_time_order_are_refused() {
        let mut tr = Trajectory::new(p(0.0, 0.0));
        tr.setdest(s(5.0), p(1.0, 0.0), 1.0).unwrap();
        assert!(tr.setdest(s(4.0), p(2.0, 0.0), 1.0).is_err());
        assert!(tr.setdest(s(6.0), p(2.0, 0.0), -1.0).is_err());
    }
}
