//! Rate control for a window below one packet (DESIGN decision 3: fractional windows, which
//! Vegas-W needs; `ding-vegasw` seed).
//!
//! ns-2's send loop floors cwnd (`window()`), so a cwnd of 0.5 never sends. Read as a rate, a
//! window of `w < 1` packets per RTT is one packet every `RTT / w`. A window policy reports
//! that interval ([`below_one_packet_interval`]); the [`Pacer`] turns it into a deadline that
//! the sender folds into `next_timer()` through the window policy's timer seam, and at each
//! deadline the sender sends one packet (`Conn::send_paced`), new data or the go-back-N
//! resend, bounded by the receiver window but not by cwnd.
//!
//! A zero window does not pace: ns-2 Vegas's quirk (ii) (cwnd = `v_newcwnd_` = 0) waits for
//! the retransmission timer, and must keep doing so.

use crate::sim::SimTime;
use crate::tcp::conn::Conn;

/// One packet every `RTT / w` while the usable window `w` (ns-2 `windowd()`) is in (0, 1).
/// RTT is the smoothed RTT, or the current RTO before the first sample.
pub fn below_one_packet_interval(c: &Conn) -> Option<SimTime> {
    let w = c.windowd();
    if !(w > 0.0 && w < 1.0) {
        return None;
    }
    let srtt = c.rto().srtt_s();
    let rtt = if srtt > 0.0 {
        srtt
    } else {
        c.rto().timeout().as_secs_f64()
    };
    Some(SimTime::from_secs_f64(rtt / w))
}

/// When the next paced packet is due: one interval after the previous paced packet, or at
/// once if there was none (or it was longer ago than an interval).
#[derive(Clone, Debug, Default)]
pub struct Pacer {
    last_sent: Option<SimTime>,
    deadline: Option<SimTime>,
}

impl Pacer {
    /// The armed deadline, if pacing is on and a packet may go.
    pub fn deadline(&self) -> Option<SimTime> {
        self.deadline
    }

    /// Re-plan at the end of a sender call: `interval` is the window policy's report, `may_send`
    /// whether a packet is available. True if one is due now (the caller sends it and calls
    /// [`Pacer::sent`]); otherwise the deadline is armed (or cleared when pacing is off).
    pub fn due(&mut self, now: SimTime, interval: Option<SimTime>, may_send: bool) -> bool {
        self.deadline = None;
        let Some(iv) = interval.filter(|_| may_send) else {
            return false;
        };
        let at = self.last_sent.map_or(now, |t| t + iv);
        if at <= now {
            return true;
        }
        self.deadline = Some(at);
        false
    }

    pub fn sent(&mut self, now: SimTime) {
        self.last_sent = Some(now);
        self.deadline = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(v: u64) -> SimTime {
        SimTime::from_millis(v)
    }

    /// First packet at once; then one per interval; an interval change moves the next
    /// deadline; pacing off clears it; a late wake sends at once.
    #[test]
    fn pacer_spaces_packets_by_the_interval() {
        let mut p = Pacer::default();
        assert!(!p.due(ms(0), None, true));
        assert_eq!(p.deadline(), None);
        assert!(p.due(ms(100), Some(ms(200)), true));
        p.sent(ms(100));
        assert!(!p.due(ms(150), Some(ms(200)), true));
        assert_eq!(p.deadline(), Some(ms(300)));
        assert!(!p.due(ms(150), Some(ms(400)), true));
        assert_eq!(p.deadline(), Some(ms(500)));
        assert!(!p.due(ms(160), Some(ms(400)), false), "nothing to send");
        assert_eq!(p.deadline(), None);
        assert!(!p.due(ms(170), None, true));
        assert_eq!(p.deadline(), None);
        assert!(p.due(ms(500), Some(ms(400)), true));
        p.sent(ms(500));
        assert!(p.due(ms(2_000), Some(ms(400)), true), "late: at once");
    }
}
