//! One direction of a dedicated channel: TTI grid, transport blocks, error decisions
//! (link-spec §1.11, §2.1).
//!
//! Owns: the TTI grid (boundaries k·TTI from t = 0), the number of transport blocks per
//! TTI, the error model and random stream of this direction, and the TBs in flight. At a
//! boundary t_k the MAC hands over up to N PDUs, one per TB (MAC-d header 0 bits); each TB
//! gets its own error decision, drawn in TB order; all TBs of that TTI arrive together at
//! t_k + TTI + δ + Iub delay. Control PDUs take TB slots like data and see the same errors
//! (link-spec §8.4, as EURANE).
//!
//! Not here: which PDUs go into the TTI (the RLC entity decides), TFC selection between
//! several transport channels, and TTI-level error correlation (an error model that wants
//! it sees the TBs of one TTI as consecutive units).

use std::collections::VecDeque;

use super::config::ErrorClock;
use super::pdu::Pdu;
use crate::channel::ErrorModel;
use crate::sim::{RandomStream, SimTime};

/// A transport block on the air.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TransportBlock {
    pub pdu: Pdu,
    /// The CRC failed at the receiver.
    pub error: bool,
}

/// Counters of one direction.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DchCounters {
    pub tbs: u64,
    pub tb_errors: u64,
    /// TTIs that carried at least one TB.
    pub ttis: u64,
}

/// One DCH direction.
#[derive(Clone, Debug)]
pub struct DchDirection {
    tti: SimTime,
    blocks: u32,
    /// TTI + δ + Iub delay.
    latency: SimTime,
    error: ErrorModel,
    error_clock: ErrorClock,
    /// With `ErrorClock::PerSlot`: the first boundary whose slots the error process has not
    /// stepped through yet.
    error_clock_at: SimTime,
    rng: RandomStream,
    in_flight: VecDeque<(SimTime, Vec<TransportBlock>)>,
    /// The earliest boundary not yet served.
    next_unserved: SimTime,
    counters: DchCounters,
}

impl DchDirection {
    pub fn new(
        tti: SimTime,
        blocks: u32,
        extra_delay: SimTime,
        iub_delay: SimTime,
        error_clock: ErrorClock,
        error: ErrorModel,
        rng: RandomStream,
    ) -> Self {
        DchDirection {
            tti,
            blocks,
            latency: tti + extra_delay + iub_delay,
            error,
            error_clock,
            error_clock_at: SimTime::ZERO,
            rng,
            in_flight: VecDeque::new(),
            next_unserved: SimTime::ZERO,
            counters: DchCounters::default(),
        }
    }

    pub fn tti(&self) -> SimTime {
        self.tti
    }
    pub fn blocks_per_tti(&self) -> u32 {
        self.blocks
    }
    pub fn counters(&self) -> DchCounters {
        self.counters
    }

    /// The first boundary at or after `t` that has not been served yet.
    pub fn next_boundary(&self, t: SimTime) -> SimTime {
        let tti = self.tti.as_nanos();
        let at_or_after = SimTime(t.as_nanos().div_ceil(tti) * tti);
        at_or_after.max(self.next_unserved)
    }

    /// Sends `pdus` (at most `blocks_per_tti`) at boundary `t`.
    pub fn transmit(&mut self, t: SimTime, pdus: Vec<Pdu>) {
        debug_assert!(pdus.len() <= self.blocks as usize);
        debug_assert_eq!(t.as_nanos() % self.tti.as_nanos(), 0);
        self.next_unserved = t + self.tti;
        if self.error_clock == ErrorClock::PerSlot {
            // The slots of the idle TTIs since the last boundary served step the process.
            while self.error_clock_at < t {
                self.skip_slots(self.blocks as usize);
                self.error_clock_at += self.tti;
            }
            self.error_clock_at = t + self.tti;
        }
        let unused = self.blocks as usize - pdus.len().min(self.blocks as usize);
        let tbs: Vec<TransportBlock> = pdus
            .into_iter()
            .map(|pdu| TransportBlock {
                error: self.error.is_error(&mut self.rng),
                pdu,
            })
            .collect();
        if self.error_clock == ErrorClock::PerSlot {
            self.skip_slots(unused);
        }
        if tbs.is_empty() {
            return;
        }
        self.counters.ttis += 1;
        self.counters.tbs += tbs.len() as u64;
        self.counters.tb_errors += tbs.iter().filter(|tb| tb.error).count() as u64;
        self.in_flight.push_back((t + self.latency, tbs));
    }

    /// Steps the error process through `n` slots that carry no block.
    fn skip_slots(&mut self, n: usize) {
        for _ in 0..n {
            self.error.is_error(&mut self.rng);
        }
    }

    pub fn next_arrival(&self) -> Option<SimTime> {
        self.in_flight.front().map(|(t, _)| *t)
    }

    /// The TBs of the next TTI if they arrive at or before `now`.
    pub fn pop_arrival(&mut self, now: SimTime) -> Option<Vec<TransportBlock>> {
        if self.next_arrival()? <= now {
            self.in_flight.pop_front().map(|(_, tbs)| tbs)
        } else {
            None
        }
    }

    /// TBs on the air, with their arrival times (inspection for tests and traces).
    pub fn in_flight(&self) -> impl Iterator<Item = (SimTime, &TransportBlock)> {
        self.in_flight
            .iter()
            .flat_map(|(t, tbs)| tbs.iter().map(move |tb| (*t, tb)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::channel::{TraceEnd, TraceErrors};
    use crate::umts::pdu::{StatusPdu, Sufi};

    fn status() -> Pdu {
        Pdu::Status(StatusPdu {
            sufis: vec![Sufi::Ack { lsn: 0 }],
        })
    }

    #[test]
    fn tbs_arrive_one_tti_plus_delays_after_their_boundary() {
        let errors = TraceErrors::from_text("010", TraceEnd::Stop).unwrap();
        let mut d = DchDirection::new(
            SimTime::from_millis(10),
            12,
            SimTime::from_micros(10),
            SimTime::from_millis(15),
            ErrorClock::PerBlock,
            ErrorModel::Trace(errors),
            RandomStream::from_seed_u64(1),
        );
        assert_eq!(
            d.next_boundary(SimTime::from_millis(3)),
            SimTime::from_millis(10)
        );
        assert_eq!(d.next_boundary(SimTime::ZERO), SimTime::ZERO);
        d.transmit(SimTime::ZERO, vec![status(), status(), status()]);
        // Boundary 0 is served: the next one is 10 ms even when asked at 0.
        assert_eq!(d.next_boundary(SimTime::ZERO), SimTime::from_millis(10));
        assert_eq!(d.next_arrival(), Some(SimTime::from_micros(25_010)));
        assert!(d.pop_arrival(SimTime::from_millis(25)).is_none());
        let tbs = d.pop_arrival(SimTime::from_micros(25_010)).unwrap();
        assert_eq!(
            tbs.iter().map(|tb| tb.error).collect::<Vec<_>>(),
            vec![false, true, false]
        );
        assert_eq!(
            d.counters(),
            DchCounters {
                tbs: 3,
                tb_errors: 1,
                ttis: 1
            }
        );
    }

    /// Per-slot clock: the two idle TTIs at 0 and 10 ms step the process through slots 0-3
    /// ("0000"), so the block sent at 20 ms meets slot 4 ("1") and is lost, and the unused
    /// second slot of that TTI consumes slot 5. Per-block: the same block meets slot 0.
    #[test]
    fn per_slot_clock_steps_through_idle_slots() {
        let make = |clock| {
            DchDirection::new(
                SimTime::from_millis(10),
                2,
                SimTime::ZERO,
                SimTime::ZERO,
                clock,
                ErrorModel::Trace(TraceErrors::from_text("0000100", TraceEnd::Stop).unwrap()),
                RandomStream::from_seed_u64(1),
            )
        };
        let mut slot = make(ErrorClock::PerSlot);
        slot.transmit(SimTime::from_millis(20), vec![status()]);
        let tbs = slot.pop_arrival(SimTime::from_millis(30)).unwrap();
        assert!(tbs[0].error);
        slot.transmit(SimTime::from_millis(30), vec![status()]);
        let tbs = slot.pop_arrival(SimTime::from_millis(40)).unwrap();
        assert!(!tbs[0].error); // slot 6

        let mut block = make(ErrorClock::PerBlock);
        block.transmit(SimTime::from_millis(20), vec![status()]);
        assert!(!block.pop_arrival(SimTime::from_millis(30)).unwrap()[0].error);
    }
}
