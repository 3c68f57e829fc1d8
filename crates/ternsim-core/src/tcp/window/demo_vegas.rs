//! Demo-Vegas window policy (Ho, Chan, Chen, "An Efficient Mechanism of TCP-Vegas on Mobile
//! IP Networks": the `ho-mobileip` seed, §IV-B).
//!
//! Vegas takes the minimum RTT ever seen as BaseRTT, so after a handoff onto a path with a
//! longer fixed delay it reads the extra delay as queueing and shrinks its window. Demo-Vegas
//! re-measures BaseRTT when either end's care-of address changes:
//! - the receiver flips a SIG bit (a reserved TCP header bit) on each change of its care-of
//!   address and sets it on every ACK (`crate::tcp::TcpSink::on_care_of_change`);
//! - the sender remembers the last SIG it saw (0 at the start) and re-measures when an ACK
//!   carries the other value ([`DemoVegas::on_ack_signal`]), or when its own care-of address
//!   changes or is cancelled ([`DemoVegas::on_local_care_of_change`]).
//!
//! "Re-measure" (the seed gives no pseudo code) is read as: forget BaseRTT, so the next RTT
//! sample defines it and later smaller samples lower it as usual — Vegas's own BaseRTT rule
//! started afresh. Everything else is ns-2 Vegas (`super::vegas`), owned, not copied.

use super::hooks::{DupAckDecision, LossEvent, NewAck};
use super::vegas::Vegas;
use crate::sim::SimTime;
use crate::tcp::config::TcpConfig;
use crate::tcp::congestion::WindowDecision;
use crate::tcp::conn::Conn;

#[derive(Clone, Debug)]
pub struct DemoVegas {
    vegas: Vegas,
    /// The SIG value of the last ACK seen (seed: "The sender records the value of 'SIG'").
    last_sig: bool,
    /// Times BaseRTT was re-measured.
    remeasures: u64,
}

impl DemoVegas {
    pub fn new(cfg: &TcpConfig) -> Self {
        DemoVegas {
            vegas: Vegas::new(cfg),
            last_sig: false,
            remeasures: 0,
        }
    }

    pub fn vegas(&self) -> &Vegas {
        &self.vegas
    }

    #[cfg(test)]
    pub fn vegas_mut(&mut self) -> &mut Vegas {
        &mut self.vegas
    }

    pub fn remeasures(&self) -> u64 {
        self.remeasures
    }

    /// Every arriving ACK's SIG bit, before anything else looks at the ACK.
    pub fn on_ack_signal(&mut self, sig: bool) {
        if sig != self.last_sig {
            self.last_sig = sig;
            self.remeasure();
        }
    }

    /// The sender's own care-of address changed or was cancelled.
    pub fn on_local_care_of_change(&mut self) {
        self.remeasure();
    }

    fn remeasure(&mut self) {
        self.remeasures += 1;
        self.vegas.forget_base_rtt();
    }

    pub fn on_ack_received(&mut self, c: &Conn, now: SimTime) {
        self.vegas.on_ack_received(c, now);
    }

    pub fn on_new_ack(&mut self, c: &Conn, now: SimTime, a: &NewAck) -> WindowDecision {
        self.vegas.on_new_ack(c, now, a)
    }

    pub fn on_dup_ack(&mut self, c: &Conn, now: SimTime) -> DupAckDecision {
        self.vegas.on_dup_ack(c, now)
    }

    pub fn on_loss(&mut self, c: &Conn, now: SimTime, e: LossEvent) -> WindowDecision {
        self.vegas.on_loss(c, now, e)
    }
}
