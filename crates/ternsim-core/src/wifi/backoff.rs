//! The DCF backoff timer as ns-2 runs it (link-spec §3.3 rule 3; IEEE 802.11-1999 §9.2.4,
//! §9.2.5.2): one deadline, recomputed on pause and resume, never an event per slot.
//!
//! `start` draws `below(cw)` slots, i.e. uniform in [0, cw − 1] (ns-2 `random() % cw`; the
//! standard says [0, CW]). Counting needs an idle DIFS first (`difs_wait`). `pause` keeps
//! the whole slots already counted after that DIFS and drops the partial one, counting them
//! in seconds as ns-2 does (see [`slots_counted`]); `resume` starts a fresh DIFS before the
//! remaining slots. A timer started on a busy medium starts paused.

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
    /// (ns-2 `BackoffTimer::pause`, counted as [`slots_counted`] does).
    pub fn pause(&mut self, now: u64, slot: u64) {
        if let Backoff::Running {
            stime,
            difs_wait,
            rtime,
        } = *self
        {
            let slots = slots_counted(now, stime, difs_wait, slot);
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

/// The whole slots a backoff resumed at `stime` has counted by `now`, after its `difs_wait`
/// (all in ns), as ns-2.35's `BackoffTimer::pause` (mac/mac-timers.cc) counts them: in
/// seconds, as doubles, `slots = int((now - (stime + difs_wait)) / slot)`, truncated towards
/// zero and 0 if negative.
///
/// It differs from the exact count only when a frame reaches the station exactly on one of
/// its slot boundaries, and there it matters: the quotient is then k ± a few units in the last
/// place, and ns-2 keeps k − 1 slots (leaving one more to count) whenever it falls below k.
/// On a chain with equal spacing such pauses are common (two neighbours resume from the end
/// of one frame, the later by the propagation delay its frame then takes back, or one
/// resumes at a NAV that ends a propagation delay before the other's frame does), and with
/// exact counts ternsim's relays sent their RTS in the first slot after DIFS 12 % more often
/// than ns-2's (Vegas over the 7-hop DSR chain, seeds 1-10: 13,163 against 11,773). ns-2's
/// doubles carry the sub-nanosecond propagation delays, ternsim's clock does not, so the
/// operands here are the doubles nearest to ternsim's nanosecond times (as `exact_of`
/// gives them): the same arithmetic on times that differ from ns-2's in their last bits, so
/// which way a given tie falls is not ns-2's, only how often (about two ties in three fall
/// short in both, varying with k).
pub fn slots_counted(now: u64, stime: u64, difs_wait: u64, slot: u64) -> u64 {
    let secs = |ns: u64| ns as f64 / 1e9;
    let sr = secs(now) - (secs(stime) + secs(difs_wait));
    // `as` truncates towards zero, like C's int(); NaN cannot occur.
    let slots = (sr / secs(slot)) as i64;
    slots.max(0) as u64
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

    /// A frame on a slot boundary, as ns-2's doubles count it. Resumed at 1 s, the boundary
    /// of slot 1 is 1 s + 50 + 20 µs: 1.00007 − (1.0 + 0.00005) = 1.999999999990898e-05 s,
    /// / 2e-05 = 0.99999999999545, truncated to 0 slots (exact counting: 1); slot 2's,
    /// 3.999999999981796e-05 s, counts 1; slot 3's, 5.999999999994898e-05 s, counts 2.
    /// Resumed at 2 s, slots 1 and 2 count exactly (2.0000000000131024e-05 and
    /// 4.000000000026205e-05 s) and slot 3 counts 2 again. One nanosecond past a boundary,
    /// or inside the DIFS, the count is the exact one.
    #[test]
    fn slots_are_counted_in_seconds_as_ns2_counts_them() {
        let s1 = 1_000_000_000;
        assert_eq!(slots_counted(s1 + DIFS + SLOT, s1, DIFS, SLOT), 0);
        assert_eq!(slots_counted(s1 + DIFS + 2 * SLOT, s1, DIFS, SLOT), 1);
        assert_eq!(slots_counted(s1 + DIFS + 3 * SLOT, s1, DIFS, SLOT), 2);
        let s2 = 2_000_000_000;
        assert_eq!(slots_counted(s2 + DIFS + SLOT, s2, DIFS, SLOT), 1);
        assert_eq!(slots_counted(s2 + DIFS + 2 * SLOT, s2, DIFS, SLOT), 2);
        assert_eq!(slots_counted(s2 + DIFS + 3 * SLOT, s2, DIFS, SLOT), 2);
        assert_eq!(slots_counted(s1 + DIFS + SLOT + 1, s1, DIFS, SLOT), 1);
        assert_eq!(slots_counted(s1 + DIFS + 2 * SLOT - 1, s1, DIFS, SLOT), 1);
        assert_eq!(slots_counted(s1 + 30_000, s1, DIFS, SLOT), 0);
        assert_eq!(slots_counted(s1 + DIFS, s1, DIFS, SLOT), 0);
        // A 5-slot backoff frozen on slot 1's boundary at 1 s keeps all 5.
        let mut b = Backoff::Running {
            stime: s1,
            difs_wait: DIFS,
            rtime: 5 * SLOT,
        };
        b.pause(s1 + DIFS + SLOT, SLOT);
        assert_eq!(b, Backoff::Paused { rtime: 5 * SLOT });
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
