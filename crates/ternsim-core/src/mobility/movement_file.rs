//! ns-2 movement files ("scenario files" of `setdest`), read and written (manet-spec §2.5).
//!
//! The statements: `$node_(i) set X_ x` (and `Y_`, `Z_`) place node i before the run;
//! `$ns_ at t "$node_(i) setdest x y v"` starts a move (ns-2 `MobileNode::set_destination`,
//! which [`Trajectory::setdest`] implements). GOD statements (`$god_ set-dist`, `set god_
//! [God instance]`), blank lines and `#` comments are statistics or prose and are skipped;
//! statements may come in any order (older CMU files mix them).

use super::{Position, Trajectory};
use crate::sim::SimTime;

/// One node's statements: where it starts (if the file says) and its moves `(t, to, v)`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NodeScript {
    pub x: Option<f64>,
    pub y: Option<f64>,
    pub moves: Vec<(SimTime, Position, f64)>,
}

impl NodeScript {
    /// The node's trajectory from `start` (its own X_/Y_ when the file gives them).
    pub fn trajectory(&self, start: Position) -> Result<Trajectory, String> {
        let start = Position {
            x: self.x.unwrap_or(start.x),
            y: self.y.unwrap_or(start.y),
        };
        let mut tr = Trajectory::new(start);
        let mut moves = self.moves.clone();
        // Statements may be listed out of order; ns-2 runs them in time order, equal times
        // in file order (a stable sort).
        moves.sort_by_key(|m| m.0);
        for (t, to, v) in moves {
            tr.setdest(t, to, v)?;
        }
        Ok(tr)
    }
}

fn number(word: &str, line: usize) -> Result<f64, String> {
    word.parse::<f64>()
        .ok()
        .filter(|v| v.is_finite())
        .ok_or_else(|| format!("line {line}: `{word}` is not a number"))
}

/// `$node_(i)` → i.
fn node_index(word: &str, line: usize) -> Result<usize, String> {
    word.strip_prefix("$node_(")
        .and_then(|w| w.strip_suffix(')'))
        .and_then(|i| i.parse().ok())
        .ok_or_else(|| format!("line {line}: expected `$node_(<index>)`, got `{word}`"))
}

/// Parses a movement file into one script per node index mentioned (indices not mentioned
/// get an empty script).
pub fn parse_movement_file(text: &str) -> Result<Vec<NodeScript>, String> {
    let mut nodes: Vec<NodeScript> = Vec::new();
    fn script(nodes: &mut Vec<NodeScript>, i: usize) -> &mut NodeScript {
        if nodes.len() <= i {
            nodes.resize(i + 1, NodeScript::default());
        }
        &mut nodes[i]
    }
    for (k, raw) in text.lines().enumerate() {
        let line = k + 1;
        let stmt = raw.trim();
        if stmt.is_empty() || stmt.starts_with('#') {
            continue;
        }
        let words: Vec<&str> = stmt.split_whitespace().collect();
        match words.as_slice() {
            ["set", "god_", ..] | ["$god_", ..] => {}
            [node, "set", coord, value] if node.starts_with("$node_(") => {
                let i = node_index(node, line)?;
                let v = number(value, line)?;
                match *coord {
                    "X_" => script(&mut nodes, i).x = Some(v),
                    "Y_" => script(&mut nodes, i).y = Some(v),
                    "Z_" => {}
                    other => return Err(format!("line {line}: unknown node variable `{other}`")),
                }
            }
            ["$ns_", "at", t, rest @ ..] => {
                let t = number(t, line)?;
                if t < 0.0 {
                    return Err(format!("line {line}: time {t} is before the run"));
                }
                let cmd: Vec<&str> = rest.iter().map(|w| w.trim_matches('"')).collect();
                match cmd.as_slice() {
                    ["$god_", ..] => {}
                    [node, "setdest", x, y, v] => {
                        let i = node_index(node, line)?;
                        let to = Position {
                            x: number(x, line)?,
                            y: number(y, line)?,
                        };
                        let v = number(v, line)?;
                        if v < 0.0 {
                            return Err(format!("line {line}: negative speed {v}"));
                        }
                        script(&mut nodes, i)
                            .moves
                            .push((SimTime::from_secs_f64(t), to, v));
                    }
                    _ => {
                        return Err(format!(
                            "line {line}: unknown command `{}`; allowed: setdest",
                            rest.join(" ")
                        ))
                    }
                }
            }
            _ => {
                return Err(format!(
                    "line {line}: not a movement statement (`$node_(i) set X_ x`, \
                     `$ns_ at t \"$node_(i) setdest x y v\"`): `{stmt}`"
                ))
            }
        }
    }
    Ok(nodes)
}

/// Writes trajectories as an ns-2 movement file, node i as `$node_(i)`: the start positions
/// (Z_ 0), then every `setdest` in time order (equal times by node), reals with 12 decimals
/// as setdest prints them. `header` lines are written as `#` comments first.
pub fn write_movement_file(trajectories: &[Trajectory], header: &[String]) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    out.push_str("#\n");
    for h in header {
        let _ = writeln!(out, "# {h}");
    }
    out.push_str("#\n");
    for (i, tr) in trajectories.iter().enumerate() {
        let p = tr.start();
        let _ = writeln!(out, "$node_({i}) set X_ {:.12}", p.x);
        let _ = writeln!(out, "$node_({i}) set Y_ {:.12}", p.y);
        let _ = writeln!(out, "$node_({i}) set Z_ {:.12}", 0.0);
    }
    let mut moves: Vec<(SimTime, usize, Position, f64)> = trajectories
        .iter()
        .enumerate()
        .flat_map(|(i, tr)| {
            tr.legs()
                .iter()
                .map(move |l| (l.start, i, l.to, l.speed_mps))
        })
        .collect();
    moves.sort_by_key(|m| (m.0, m.1));
    for (t, i, to, v) in moves {
        let _ = writeln!(
            out,
            "$ns_ at {:.12} \"$node_({i}) setdest {:.12} {:.12} {:.12}\"",
            t.as_secs_f64(),
            to.x,
            to.y,
            v
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_positions_moves_and_skips_god_and_comments() {
        let text = r#"
# nodes: 2, pause: 0.00, max speed: 5.00, max x: 100.00, max y: 100.00
set god_ [God instance]
$node_(1) set X_ 10.0
$node_(1) set Y_ 20.0
$node_(1) set Z_ 0.000000000000
$god_ set-dist 0 1 1
$ns_ at 4.0 "$node_(1) setdest 10.0 80.0 2.0"
$ns_ at 1.0 "$node_(1) setdest 40.0 20.0 10.0"
$ns_ at 2.0 "$god_ set-dist 0 1 16777215"
"#;
        let nodes = parse_movement_file(text).unwrap();
        assert_eq!(nodes.len(), 2);
        assert_eq!(nodes[0], NodeScript::default());
        // Sorted: east 30 m at 10 m/s (t 1..4), then north from (40, 20) at 2 m/s.
        let tr = nodes[1].trajectory(Position { x: 0.0, y: 0.0 }).unwrap();
        let p = tr.position_at(SimTime::from_secs_f64(2.5));
        assert!((p.x - 25.0).abs() < 1e-9 && p.y == 20.0);
        let p = tr.position_at(SimTime::from_secs_f64(9.0));
        // From (40, 20) towards (10, 80) (67.08 m away) for 5 s at 2 m/s: 10 m.
        let d = (30f64).hypot(60.0);
        assert!((p.x - (40.0 - 30.0 * 10.0 / d)).abs() < 1e-9);
        assert!((p.y - (20.0 + 60.0 * 10.0 / d)).abs() < 1e-9);
    }

    #[test]
    fn bad_statements_name_their_line() {
        let e = parse_movement_file("$node_(0) set X_ 1\n$node_(x) set Y_ 2\n").unwrap_err();
        assert!(e.starts_with("line 2:"), "{e}");
        let e = parse_movement_file("\n\nputs hello\n").unwrap_err();
        assert!(e.starts_with("line 3:"), "{e}");
    }
}
