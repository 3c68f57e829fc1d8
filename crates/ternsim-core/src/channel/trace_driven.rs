//! Trace-driven errors: replay a recorded per-unit outcome sequence (link-spec §2.4 names
//! such binary PDU/TB error traces, from measurements or link-level simulation, as the input
//! that models are fitted to; replaying one directly is the model-free alternative).
//!
//! Text format ([`parse_trace`]): the characters `0` (received) and `1` (in error), one per
//! unit, in order. Whitespace and line breaks are ignored and `#` starts a comment to the end
//! of the line, so both "one outcome per line" files and a compact string such as
//! `"0001100"` are accepted.

use std::sync::Arc;

use crate::sim::RandomStream;

/// What happens after the last recorded unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TraceEnd {
    /// Start again from the first unit.
    Loop,
    /// No more errors: every later unit is received.
    Stop,
}

/// Where replay starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TraceStart {
    /// At the first unit.
    Beginning,
    /// At unit `n` (0-based; must lie inside the trace).
    Offset(usize),
    /// At a unit drawn uniformly at the first use, so runs with different seeds see
    /// different phases of the same trace.
    Random,
}

/// A recorded outcome sequence and the replay position. Cloning shares the recording.
#[derive(Clone, Debug, PartialEq)]
pub struct TraceErrors {
    outcomes: Arc<[bool]>,
    errors: usize,
    end: TraceEnd,
    start: TraceStart,
    /// Index of the next unit; `None` before the first.
    pos: Option<usize>,
}

impl TraceErrors {
    /// Replays `outcomes` (true = error) from the beginning.
    pub fn new(outcomes: Vec<bool>, end: TraceEnd) -> Result<Self, String> {
        if outcomes.is_empty() {
            return Err("error trace is empty: it needs at least one outcome".into());
        }
        let errors = outcomes.iter().filter(|&&e| e).count();
        Ok(TraceErrors {
            outcomes: outcomes.into(),
            errors,
            end,
            start: TraceStart::Beginning,
            pos: None,
        })
    }

    /// Parses `text` (see the module doc) and replays it.
    pub fn from_text(text: &str, end: TraceEnd) -> Result<Self, String> {
        Self::new(parse_trace(text)?, end)
    }

    /// Reads and parses a trace file.
    pub fn from_file(path: &std::path::Path, end: TraceEnd) -> Result<Self, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read error trace {}: {e}", path.display()))?;
        Self::from_text(&text, end).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Where replay starts (checked against the trace length).
    pub fn with_start(mut self, start: TraceStart) -> Result<Self, String> {
        if let TraceStart::Offset(n) = start {
            if n >= self.outcomes.len() {
                return Err(format!(
                    "trace start offset {n} is beyond the trace ({} outcomes)",
                    self.outcomes.len()
                ));
            }
        }
        self.start = start;
        self.pos = None;
        Ok(self)
    }

    pub fn len(&self) -> usize {
        self.outcomes.len()
    }

    /// Always false: an empty trace is refused at construction.
    pub fn is_empty(&self) -> bool {
        self.outcomes.is_empty()
    }

    pub fn outcomes(&self) -> &[bool] {
        &self.outcomes
    }

    pub fn end(&self) -> TraceEnd {
        self.end
    }

    /// Fraction of errors in one pass of the recording.
    pub fn mean_error_rate(&self) -> f64 {
        self.errors as f64 / self.outcomes.len() as f64
    }

    /// True once a `Stop` trace has been played to its end.
    pub fn exhausted(&self) -> bool {
        self.end == TraceEnd::Stop && self.pos.is_some_and(|p| p >= self.outcomes.len())
    }

    /// The next unit's outcome. Draws from `rng` only once, for a `Random` start.
    pub fn is_error(&mut self, rng: &mut RandomStream) -> bool {
        let n = self.outcomes.len();
        let mut pos = match self.pos {
            Some(p) => p,
            None => match self.start {
                TraceStart::Beginning => 0,
                TraceStart::Offset(k) => k,
                TraceStart::Random => rng.below(n as u64) as usize,
            },
        };
        if pos >= n {
            match self.end {
                TraceEnd::Loop => pos = 0,
                TraceEnd::Stop => {
                    self.pos = Some(n);
                    return false;
                }
            }
        }
        self.pos = Some(pos + 1);
        self.outcomes[pos]
    }
}

/// Parses a trace text: `0`/`1` per unit, whitespace ignored, `#` comments. Errors name the
/// line and column of the first bad character.
pub fn parse_trace(text: &str) -> Result<Vec<bool>, String> {
    let mut out = Vec::with_capacity(text.len());
    for (ln, line) in text.lines().enumerate() {
        let body = line.split('#').next().unwrap_or("");
        for (col, ch) in body.chars().enumerate() {
            match ch {
                '0' => out.push(false),
                '1' => out.push(true),
                c if c.is_whitespace() => {}
                c => {
                    return Err(format!(
                        "error trace line {}, column {}: {c:?} is not 0 or 1",
                        ln + 1,
                        col + 1
                    ))
                }
            }
        }
    }
    if out.is_empty() {
        return Err("error trace is empty: it needs at least one outcome".into());
    }
    Ok(out)
}

/// Renders outcomes in the compact form [`parse_trace`] reads.
pub fn format_trace(outcomes: &[bool]) -> String {
    outcomes
        .iter()
        .map(|&e| if e { '1' } else { '0' })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(t: &mut TraceErrors, n: usize) -> String {
        let mut rng = RandomStream::named(1, "trace");
        let v: Vec<bool> = (0..n).map(|_| t.is_error(&mut rng)).collect();
        format_trace(&v)
    }

    #[test]
    fn parses_per_line_and_compact_forms_with_comments() {
        let per_line = "# measured TB errors\n0\n1\n\n1 # burst\n0\n";
        assert_eq!(
            parse_trace(per_line).unwrap(),
            vec![false, true, true, false]
        );
        assert_eq!(
            parse_trace("0110 01\n").unwrap(),
            vec![false, true, true, false, false, true]
        );
    }

    #[test]
    fn parse_errors_name_line_and_column() {
        assert_eq!(
            parse_trace("01\n0x1\n").unwrap_err(),
            "error trace line 2, column 2: 'x' is not 0 or 1"
        );
        assert!(parse_trace("# nothing\n\n").unwrap_err().contains("empty"));
        assert!(TraceErrors::new(vec![], TraceEnd::Loop).is_err());
    }

    #[test]
    fn loop_replays_from_the_start() {
        let mut t = TraceErrors::from_text("0110", TraceEnd::Loop).unwrap();
        assert_eq!(play(&mut t, 10), "0110011001");
        assert_eq!(t.mean_error_rate(), 0.5);
        assert!(!t.exhausted());
    }

    #[test]
    fn stop_gives_no_errors_after_the_end() {
        let mut t = TraceErrors::from_text("11", TraceEnd::Stop).unwrap();
        assert_eq!(play(&mut t, 5), "11000");
        assert!(t.exhausted());
    }

    #[test]
    fn offset_and_random_starts() {
        let mut t = TraceErrors::from_text("0001", TraceEnd::Loop)
            .unwrap()
            .with_start(TraceStart::Offset(3))
            .unwrap();
        assert_eq!(play(&mut t, 5), "10001");
        assert!(TraceErrors::from_text("01", TraceEnd::Loop)
            .unwrap()
            .with_start(TraceStart::Offset(2))
            .unwrap_err()
            .contains("beyond"));
        // A random start is some rotation of the trace.
        let base = "0001011";
        let mut t = TraceErrors::from_text(base, TraceEnd::Loop)
            .unwrap()
            .with_start(TraceStart::Random)
            .unwrap();
        let got = play(&mut t, base.len());
        assert!(format!("{base}{base}").contains(&got), "{got}");
    }

    #[test]
    fn loads_a_file() {
        let dir = std::env::temp_dir().join(format!("ternsim-trace-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("tb.txt");
        std::fs::write(&path, "1\n0\n0\n0\n").unwrap();
        let t = TraceErrors::from_file(&path, TraceEnd::Loop).unwrap();
        assert_eq!(t.len(), 4);
        assert_eq!(t.mean_error_rate(), 0.25);
        std::fs::write(&path, "1\n2\n").unwrap();
        let e = TraceErrors::from_file(&path, TraceEnd::Loop).unwrap_err();
        assert!(e.contains("tb.txt") && e.contains("line 2"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
