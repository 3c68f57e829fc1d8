//! Window policies: how cwnd and ssthresh move, composed with a loss-recovery policy
//! (`super::recovery`) inside the one sender.
//!
//! A policy is called at these moments (the hooks, whose vocabulary is in [`hooks`]). It reads
//! the shared [`Conn`] and answers with a decision ([`WindowDecision`], [`DupAckDecision`])
//! that the recovery policy applies through `Conn::apply_window`; it never writes recovery
//! state or sends itself.
//! - [`WindowPolicy::on_ack_received`]: every arriving ACK, before recovery looks at it.
//! - [`WindowPolicy::on_new_ack`]: after the recovery advanced the cumulative ACK, told whether
//!   it was an ordinary new ACK, a partial ACK inside recovery or the ACK that ends recovery,
//!   and what `last_ack`/`dupacks` were before it (Vegas deflates on the latter).
//! - [`WindowPolicy::on_dup_ack`]: after the recovery counted a duplicate ACK;
//!   [`DupAckDecision::Claimed`] takes the duplicate over entirely (Vegas retransmits on the
//!   first expired duplicate, inflates cwnd itself and has no Limited Transmit).
//! - [`WindowPolicy::on_loss`]: the recovery decided to fast-retransmit or the timer expired.
//! - [`WindowPolicy::deflate`], [`WindowPolicy::exit_to_flight`]: the recovery's own window
//!   arithmetic (NewReno partial deflation, RFC 6582 exit), sized here so that only window
//!   decisions change cwnd.
//! - [`WindowPolicy::pacing_interval`], [`WindowPolicy::timer_deadline`] /
//!   [`WindowPolicy::on_timer`]: rate control below one packet ([`pacing`]), through the
//!   policy-timer seam that the sender folds into `next_timer()`.
//!
//! Policies: [`aimd`] (ns-2 `opencwnd`, with `increase_num` for FeW), [`vegas`] (ns-2
//! `Agent/TCP/Vegas`), [`vegasw`] (Vegas-W, built on the Vegas machinery) and [`demo_vegas`]
//! (Demo-Vegas: Vegas that re-measures BaseRTT on a care-of address change, told through
//! [`WindowPolicy::on_ack_signal`] and [`WindowPolicy::on_local_care_of_change`]); which
//! one a variant uses comes from the variant table.

pub mod aimd;
pub mod demo_vegas;
pub mod hooks;
pub mod pacing;
pub mod vegas;
pub mod vegasw;

use super::config::TcpConfig;
use super::conn::Conn;
use super::segment::Seq;
use super::variant::WindowKind;
use crate::sim::SimTime;

pub use super::congestion::{Retransmit, WindowDecision};
pub use aimd::Aimd;
pub use demo_vegas::DemoVegas;
pub use hooks::{AckKind, DupAckDecision, LossEvent, NewAck};
pub use pacing::Pacer;
pub use vegas::Vegas;
pub use vegasw::VegasW;

#[derive(Clone, Debug)]
enum Algorithm {
    Aimd(Aimd),
    Vegas(Vegas),
    VegasW(VegasW),
    DemoVegas(DemoVegas),
}

/// The window half of a variant: its algorithm and the pacer for windows below one packet.
#[derive(Clone, Debug)]
pub struct WindowPolicy {
    algorithm: Algorithm,
    pacer: Pacer,
}

impl WindowPolicy {
    /// The policy the variant table names for `cfg.variant`.
    pub fn for_config(cfg: &TcpConfig) -> Self {
        let algorithm = match cfg.variant.spec().window {
            WindowKind::Aimd => Algorithm::Aimd(Aimd::new(cfg.increase_num)),
            WindowKind::Vegas => Algorithm::Vegas(Vegas::new(cfg)),
            WindowKind::VegasW => Algorithm::VegasW(VegasW::new(cfg)),
            WindowKind::DemoVegas => Algorithm::DemoVegas(DemoVegas::new(cfg)),
        };
        WindowPolicy {
            algorithm,
            pacer: Pacer::default(),
        }
    }

    /// The Vegas machinery, for Vegas and for Vegas-W (which runs on it).
    pub fn vegas(&self) -> Option<&Vegas> {
        match &self.algorithm {
            Algorithm::Vegas(v) => Some(v),
            Algorithm::VegasW(v) => Some(v.vegas()),
            Algorithm::DemoVegas(v) => Some(v.vegas()),
            Algorithm::Aimd(_) => None,
        }
    }

    /// ns-2 Vegas's first steps of a new ACK, which its `recv` takes before `newack`
    /// (tcp-spec §9.2 steps 1-2: `initial_window()` after ACK 0, the deflation of an inflated
    /// window); `on_new_ack` takes them again, which changes nothing once applied. None for
    /// the other policies.
    pub fn vegas_before_newack(&self, c: &Conn, a: &NewAck) -> Option<WindowDecision> {
        self.vegas().map(|v| v.start_new_ack(c, a))
    }

    /// The AIMD algorithm (the Tahoe, Reno, NewReno and Sack1 variants, FeW).
    pub fn aimd(&self) -> Option<&Aimd> {
        match &self.algorithm {
            Algorithm::Aimd(a) => Some(a),
            _ => None,
        }
    }

    pub fn demo_vegas(&self) -> Option<&DemoVegas> {
        match &self.algorithm {
            Algorithm::DemoVegas(v) => Some(v),
            _ => None,
        }
    }

    /// An arriving ACK's SIG bit (Demo-Vegas; the other policies ignore it).
    pub fn on_ack_signal(&mut self, sig: bool) {
        if let Algorithm::DemoVegas(v) = &mut self.algorithm {
            v.on_ack_signal(sig);
        }
    }

    /// The sender's own care-of address changed or was cancelled (Demo-Vegas).
    pub fn on_local_care_of_change(&mut self) {
        if let Algorithm::DemoVegas(v) = &mut self.algorithm {
            v.on_local_care_of_change();
        }
    }

    #[cfg(test)]
    pub fn vegas_mut(&mut self) -> Option<&mut Vegas> {
        match &mut self.algorithm {
            Algorithm::Vegas(v) => Some(v),
            Algorithm::VegasW(v) => Some(v.vegas_mut()),
            Algorithm::DemoVegas(v) => Some(v.vegas_mut()),
            Algorithm::Aimd(_) => None,
        }
    }

    pub fn vegasw(&self) -> Option<&VegasW> {
        match &self.algorithm {
            Algorithm::VegasW(v) => Some(v),
            Algorithm::Aimd(_) | Algorithm::Vegas(_) | Algorithm::DemoVegas(_) => None,
        }
    }

    #[cfg(test)]
    pub fn vegasw_mut(&mut self) -> Option<&mut VegasW> {
        match &mut self.algorithm {
            Algorithm::VegasW(v) => Some(v),
            Algorithm::Aimd(_) | Algorithm::Vegas(_) | Algorithm::DemoVegas(_) => None,
        }
    }

    pub fn on_ack_received(&mut self, c: &Conn, now: SimTime) {
        match &mut self.algorithm {
            Algorithm::Aimd(_) => {}
            Algorithm::Vegas(v) => v.on_ack_received(c, now),
            Algorithm::VegasW(v) => v.vegas_on_ack_received(c, now),
            Algorithm::DemoVegas(v) => v.on_ack_received(c, now),
        }
    }

    pub fn on_new_ack(&mut self, c: &Conn, now: SimTime, a: &NewAck) -> WindowDecision {
        match &mut self.algorithm {
            Algorithm::Aimd(p) => p.on_new_ack(c, a),
            Algorithm::Vegas(v) => v.on_new_ack(c, now, a),
            Algorithm::VegasW(v) => v.on_new_ack(c, now, a),
            Algorithm::DemoVegas(v) => v.on_new_ack(c, now, a),
        }
    }

    pub fn on_dup_ack(&mut self, c: &Conn, now: SimTime) -> DupAckDecision {
        match &mut self.algorithm {
            Algorithm::Aimd(_) => DupAckDecision::Pass,
            Algorithm::Vegas(v) => v.on_dup_ack(c, now),
            Algorithm::VegasW(v) => v.on_dup_ack(c, now),
            Algorithm::DemoVegas(v) => v.on_dup_ack(c, now),
        }
    }

    pub fn on_loss(&mut self, c: &Conn, now: SimTime, e: LossEvent) -> WindowDecision {
        match &mut self.algorithm {
            Algorithm::Aimd(p) => p.on_loss(c, e),
            Algorithm::Vegas(v) => v.on_loss(c, now, e),
            Algorithm::VegasW(v) => v.on_loss(c, now, e),
            Algorithm::DemoVegas(v) => v.on_loss(c, now, e),
        }
    }

    /// NewReno partial-window deflation (tcp-spec §6, ns-2 `partialnewack`): cwnd shrinks by
    /// `packets`, never below `min_cwnd` (ns-2: 1).
    pub fn deflate(&self, c: &Conn, packets: f64) -> WindowDecision {
        WindowDecision {
            cwnd: (c.cwnd() - packets).max(c.cfg().min_cwnd),
            ..WindowDecision::hold(c.congestion())
        }
    }

    /// RFC 6582 §3.2 step 3 option (1) on leaving recovery: cwnd = min(ssthresh, `flight`)
    /// with `flight` = FlightSize + 1 packet (ns-2 `exit_recovery_fix_`).
    pub fn exit_to_flight(&self, c: &Conn, flight: Seq) -> WindowDecision {
        WindowDecision {
            cwnd: c.ssthresh().min(flight as f64),
            ..WindowDecision::hold(c.congestion())
        }
    }

    /// One packet per this interval while the window is below one packet ([`pacing`]).
    pub fn pacing_interval(&self, c: &Conn) -> Option<SimTime> {
        if !c.cfg().pace_below_one {
            return None;
        }
        // Vegas-W's rate-control timer (seed §III-C 1) is this pacer: one packet per srtt / W.
        match self.algorithm {
            Algorithm::Aimd(_)
            | Algorithm::Vegas(_)
            | Algorithm::VegasW(_)
            | Algorithm::DemoVegas(_) => pacing::below_one_packet_interval(c),
        }
    }

    /// Whether a paced packet is due at `now` (see [`Pacer::due`]); re-arms the deadline.
    pub fn paced_packet_due(&mut self, c: &Conn, now: SimTime) -> bool {
        let interval = self.pacing_interval(c);
        self.pacer.due(now, interval, c.paced_send_allowed())
    }

    /// The sender sent the paced packet.
    pub fn paced_packet_sent(&mut self, now: SimTime) {
        self.pacer.sent(now);
    }

    /// The policy's own timer: the pacing deadline (no algorithm has another timer today).
    pub fn timer_deadline(&self) -> Option<SimTime> {
        self.pacer.deadline()
    }

    /// The policy timer fired. The pacer needs no work here: the sender re-plans pacing at
    /// the end of every call and sends the packet that is due.
    pub fn on_timer(&mut self, c: &Conn, now: SimTime) {
        let _ = (c, now);
        match self.algorithm {
            Algorithm::Aimd(_)
            | Algorithm::Vegas(_)
            | Algorithm::VegasW(_)
            | Algorithm::DemoVegas(_) => {}
        }
    }
}
