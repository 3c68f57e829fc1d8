//! ns-2 Vegas's per-packet send bookkeeping (tcp/tcp-vegas.cc `v_sendtime_`, `v_transmits_`),
//! kept as ns-2 keeps it, because Vegas's loss detection reads it and its quirks change what
//! Vegas retransmits (tcp-spec §9.2).
//!
//! Two arrays of `v_maxwnd_` slots, sized `window_` when packet 0 is sent (and sized again if
//! packet 0 is sent again), indexed by sequence number modulo the size. Every transmission
//! writes its time (seconds since the first transmission, ns-2 `vegastime()`) into its slot
//! and counts one more transmission there. A new ACK from `oldack` to `ack` clears the slots
//! of the acknowledged packets with ns-2's loop, which runs from slot `(oldack + 1) % size`
//! while the slot index is at most `ack % size`: when the acknowledged range wraps past the
//! end of the arrays the loop does not run at all, and those slots keep their time and count
//! (the next packet written there then counts two transmissions, as in ns-2).
//!
//! A slot says nothing of which packet wrote it: a cleared slot reads time -1 (so ns-2's
//! "has the next packet outstayed the fine-grained timeout" test, `now − time ≥ v_timeout_`,
//! is true for it), and a slot not cleared reads the packet `size` earlier. ns-2's Vegas
//! answers from these values, and so does ternsim's.

use super::segment::Seq;

/// One slot: the latest transmission time written there (s since the first transmission;
/// -1 when cleared or never written) and the transmissions counted since the last clear.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Slot {
    pub sent_at: f64,
    pub transmits: u32,
}

const CLEARED: Slot = Slot {
    sent_at: -1.0,
    transmits: 0,
};

#[derive(Clone, Debug, PartialEq)]
pub struct SendRing {
    slots: Vec<Slot>,
}

impl SendRing {
    /// The arrays ns-2 allocates when packet 0 goes out: `window` slots (at least one).
    pub fn new(window: u32) -> Self {
        SendRing {
            slots: vec![CLEARED; window.max(1) as usize],
        }
    }

    fn index(&self, seq: Seq) -> usize {
        seq.rem_euclid(self.slots.len() as Seq) as usize
    }

    /// ns-2 `VegasTcpAgent::output`: packet `seq` goes out at `vegastime` seconds.
    pub fn note_send(&mut self, seq: Seq, vegastime: f64) {
        let i = self.index(seq);
        self.slots[i].sent_at = vegastime;
        self.slots[i].transmits += 1;
    }

    /// The slot of `seq` as it is now.
    pub fn slot(&self, seq: Seq) -> Slot {
        self.slots[self.index(seq)]
    }

    /// Whether the new ACK from `oldack` to `ack` clears the slot of `seq` (ns-2's loop in
    /// `VegasTcpAgent::recv`: no slot when the range wraps).
    fn clears(&self, oldack: Seq, ack: Seq, seq: Seq) -> bool {
        let (start, end) = (self.index(oldack + 1), self.index(ack));
        let i = self.index(seq);
        ack > oldack && start <= end && (start..=end).contains(&i)
    }

    /// The slot of `seq` as it will be once the ACK from `oldack` to `ack` has cleared the
    /// acknowledged slots.
    pub fn slot_after_ack(&self, oldack: Seq, ack: Seq, seq: Seq) -> Slot {
        if self.clears(oldack, ack, seq) {
            CLEARED
        } else {
            self.slot(seq)
        }
    }

    /// The new ACK from `oldack` to `ack` clears the acknowledged slots (ns-2's loop).
    pub fn clear_acked(&mut self, oldack: Seq, ack: Seq) {
        if ack <= oldack {
            return;
        }
        let (start, end) = (self.index(oldack + 1), self.index(ack));
        if start <= end {
            for s in &mut self.slots[start..=end] {
                *s = CLEARED;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Four slots. Packets 0-5 go out at 0.25 s steps: slot 0 holds packet 4, slot 1 packet 5
    /// (each counted twice: packets 0 and 1 wrote there first and were never cleared).
    #[test]
    fn slots_are_indexed_modulo_the_window_and_count_until_cleared() {
        let mut r = SendRing::new(4);
        for seq in 0..6 {
            r.note_send(seq, 0.25 * seq as f64);
        }
        assert_eq!(
            r.slot(4),
            Slot {
                sent_at: 1.0,
                transmits: 2
            }
        );
        assert_eq!(r.slot(0), r.slot(4));
        assert_eq!(
            r.slot(3),
            Slot {
                sent_at: 0.75,
                transmits: 1
            }
        );
    }

    /// ACK 0 -> 2 clears slots 1 and 2; ACK 2 -> 5 wraps (slot 3, then 0 and 1): ns-2's loop
    /// starts at 3, finds 3 > 5 % 4 = 1 and clears nothing.
    #[test]
    fn an_ack_clears_its_slots_unless_its_range_wraps() {
        let mut r = SendRing::new(4);
        for seq in 0..4 {
            r.note_send(seq, 1.0 + seq as f64);
        }
        assert_eq!(r.slot_after_ack(0, 2, 2), CLEARED);
        assert_eq!(r.slot_after_ack(0, 2, 3).transmits, 1);
        r.clear_acked(0, 2);
        assert_eq!(r.slot(1), CLEARED);
        assert_eq!(r.slot(2), CLEARED);
        assert_eq!(r.slot(0).sent_at, 1.0);
        assert_eq!(r.slot(3).sent_at, 4.0);
        for seq in 4..6 {
            r.note_send(seq, 1.0 + seq as f64);
        }
        assert_eq!(r.slot_after_ack(2, 5, 3).sent_at, 4.0);
        r.clear_acked(2, 5);
        assert_eq!(r.slot(3).sent_at, 4.0);
        // Packet 4 went into slot 0 over packet 0, which was never cleared: two transmits.
        assert_eq!(
            r.slot(4),
            Slot {
                sent_at: 5.0,
                transmits: 2
            }
        );
        assert_eq!(
            r.slot(5),
            Slot {
                sent_at: 6.0,
                transmits: 1
            }
        );
    }
}
