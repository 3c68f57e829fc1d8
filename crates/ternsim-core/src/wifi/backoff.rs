//! The DCF backoff timer as ns-2 runs it (link-spec §3.3 rule 3; IEEE 802.11-1999 §9.2.4,
//! §9.2.5.2): one deadline, recomputed on pause and resume, never an event per slot.
//!
//! `start` draws `below(cw)` slots, i.e. uniform in [0, cw − 1] (ns-2 `random() % cw`; the
//! standard says [0, CW]). Counting needs an idle DIFS first (`difs_wait`). `pause` keeps
//! the whole slots already counted after that DIFS and drops the partial one; `resume` starts
//! a fresh DIFS before the remaining slots. A timer started on a busy medium starts paused.

use crate::sim::RandomStream;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backoff {
    /// No backoff in progress.
    Off,
    /// Frozen with `rtime` ns of backoff left.
    Paused { rtime: u64 },
    /// Counting: started (or resumed) at `stime`, waits `difs_wait`, then `rtime`.
    Running {
        stime: u64,
        difs_wait: u64,
        rtime: u64,
    },
}

impl Backoff {
    pub fn is_busy(&self) -> bool {
        !matches!(self, Backoff::Off)
    }

    pub fn is_paused(&self) -> bool {
        matches!(self, Backoff::Paused { .. })
    }

    /// When a running backoff expires.
    pub fn deadline(&self) -> Option<u64> {
        match *self {
            Backoff::Running {
                stime,
                difs_wait,
                rtime,
            } => Some(stime + difs_wait + rtime),
            _ => None,
        }
    }

    /// Draws a new backoff of `below(cw)` slots (ns-2 `BackoffTimer::start`). Returns the
    /// number of slots drawn (trace and tests read it).
    pub fn start(
        &mut self,
        now: u64,
        cw: u32,
        idle: bool,
        difs: u64,
        slot: u64,
        rng: &mut RandomStream,
    ) -> u64 {
        let slots = rng.below(u64::from(cw));
        let rtime = slots * slot;
        *self = if idle {
            Backoff::Running {
                stime: now,
                difs_wait: difs,
                rtime,
            }
        } else {
            Backoff::Paused { rtime }
        };
        slots
    }

    /// Freezes at `now`, keeping the whole slots counted since the DIFS ended
    /// (ns-2 `BackoffTimer::pause`).
    pub fn pause(&mut self, now: u64, slot: u64) {
        if let Backoff::Running {
            stime,
            difs_wait,
            rtime,
        } = *self
        {
            let counted_from = stime + difs_wait;
            let slots = now.saturating_sub(counted_from) / slot;
            *self = Backoff::Paused {
                rtime: rtime.saturating_sub(slots * slot),
            };
        }
    }

    /// Resumes at `now` with a fresh `difs` wait before the remaining slots.
    pub fn resume(&mut self, now: u64, difs: u64) {
        if let Backoff::Paused { rtime } = *self {
            *self = Backoff::Running {
                stime: now,
                difs_wait: difs,
                rtime,
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SLOT: u64 = 20_000;
    const DIFS: u64 = 50_000;

    /// A draw of 5 slots started at 0 on an idle medium expires at DIFS + 5 slots = 150 µs;
    /// busy at 115 µs (3 whole slots and a quarter counted) leaves 2 slots; resumed at 400 µs
    /// it expires at 400 + 50 + 40 = 490 µs.
    #[test]
    fn pause_keeps_whole_slots_and_resume_waits_a_difs() {
        let mut b = Backoff::Running {
            stime: 0,
            difs_wait: DIFS,
            rtime: 5 * SLOT,
        };
        assert_eq!(b.deadline(), Some(150_000));
        b.pause(115_000, SLOT);
        assert_eq!(b, Backoff::Paused { rtime: 2 * SLOT });
        b.resume(400_000, DIFS);
        assert_eq!(b.deadline(), Some(490_000));
    }

    /// Busy during the DIFS: nothing counted.
    #[test]
    fn pause_during_difs_keeps_everything() {
        let mut b = Backoff::Running {
            stime: 0,
            difs_wait: DIFS,
            rtime: 3 * SLOT,
        };
        b.pause(30_000, SLOT);
        assert_eq!(b, Backoff::Paused { rtime: 3 * SLOT });
    }

    /// The draw is `below(cw)`: read back from a clone of the same stream.
    #[test]
    fn start_draws_below_cw_from_the_stream() {
        let mut rng = RandomStream::named(1, "wifi/test/mac");
        let mut copy = rng.clone();
        let mut b = Backoff::Off;
        let slots = b.start(1_000, 31, true, DIFS, SLOT, &mut rng);
        assert_eq!(slots, copy.below(31));
        assert_eq!(b.deadline(), Some(1_000 + DIFS + slots * SLOT));
        let mut c = Backoff::Off;
        c.start(0, 31, false, DIFS, SLOT, &mut rng);
        assert!(c.is_paused() && c.deadline().is_none());
    }
}
