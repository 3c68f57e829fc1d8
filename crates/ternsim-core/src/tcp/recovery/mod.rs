//! Loss-recovery policies: how duplicate and partial ACKs are read, when to fast-retransmit,
//! how recovery ends and what is sent per ACK. Each composes with any window policy
//! (`super::window`), which sizes every loss reaction and may claim duplicate ACKs.
//!
//! - [`tahoe`]: ns-2 `Agent/TCP` (tcp-spec §4): fast retransmit, then slow start (go-back-N).
//! - [`reno`]: ns-2 `Agent/TCP/Reno` (§5): fast recovery with `dupwnd`, one reaction per window.
//! - [`newreno`]: ns-2 `Agent/TCP/Newreno` (§6, RFC 6582): partial ACKs keep recovery going.
//! - [`sack1`]: ns-2 `Agent/TCP/Sack1` (§7.3): Fall and Floyd's scoreboard with ns-2's
//!   decrement-per-ACK **pipe counter** (not RFC 6675's SetPipe), in [`scoreboard`].
//! - [`fack`]: ns-2 `Agent/TCP/Fack` (Mathis and Mahdavi, SIGCOMM 1996): the forward ACK and
//!   the retransmissions in flight bound what is sent.
//! - [`sack_rh`]: ns-2 `Agent/TCP/SackRH`: SACK with Rate-Halving.
//!   Both keep ns-2's per-packet board, [`packet_board`].
//!
//! All share what [`base`] holds: the base timeout of [`base::base_timeout`] (tcp-spec §2),
//! and the window changes that go through the window policy: the helpers
//! [`base::new_ack_window`], [`base::dup_ack_passed`] and [`base::loss_window`] ask it and
//! apply its decision with `Conn::apply_window`; recovery writes only its own state
//! (`dupacks`, `dupwnd`, `recover`, `last_cwnd_action`) through named `Conn` steps.
//!
//! This module only dispatches to the policies below it; they import [`base`], never this
//! module.

pub mod base;
pub mod fack;
pub mod newreno;
pub mod packet_board;
pub mod reno;
pub mod sack1;
pub mod sack_rh;
pub mod scoreboard;
pub mod tahoe;

use super::config::TcpConfig;
use super::conn::Conn;
use super::output::TcpOutput;
use super::segment::AckSegment;
use super::variant::RecoveryKind;
use super::window::WindowPolicy;
use crate::sim::SimTime;

pub use fack::Fack;
pub use newreno::NewReno;
pub use sack1::Sack1;
pub use sack_rh::SackRh;

#[derive(Clone, Debug)]
pub enum Recovery {
    Tahoe,
    Reno,
    NewReno(NewReno),
    Sack1(Sack1),
    Fack(Fack),
    SackRh(SackRh),
}

impl Recovery {
    /// The recovery policy the variant table names for `cfg.variant`.
    pub fn for_config(cfg: &TcpConfig) -> Self {
        match cfg.variant.spec().recovery {
            RecoveryKind::Tahoe => Recovery::Tahoe,
            RecoveryKind::Reno => Recovery::Reno,
            RecoveryKind::NewReno => Recovery::NewReno(NewReno::default()),
            RecoveryKind::Sack1 => Recovery::Sack1(Sack1::default()),
            RecoveryKind::Fack => Recovery::Fack(Fack::default()),
            RecoveryKind::SackRh => Recovery::SackRh(SackRh::default()),
        }
    }

    /// Process one ACK and send what it allows.
    pub fn on_ack(
        &mut self,
        c: &mut Conn,
        w: &mut WindowPolicy,
        now: SimTime,
        ack: &AckSegment,
        out: &mut TcpOutput,
    ) {
        // ns-2: every variant's `recv` answers an ECN-Echo first (`TcpAgent::ecn`), but
        // Rate-Halving's, which reads it as the start of an adjustment interval.
        c.set_ack_ecn_echo(ack.ecn.ece);
        if ack.ecn.ece && c.cfg().ecn && !matches!(self, Recovery::SackRh(_)) {
            base::ecn_echo(c, w, now, ack.ack, out);
        }
        match self {
            Recovery::Tahoe => tahoe::on_ack(c, w, now, ack.ack, out),
            Recovery::Reno => reno::on_ack(c, w, now, ack.ack, out),
            Recovery::NewReno(r) => r.on_ack(c, w, now, ack.ack, out),
            Recovery::Sack1(r) => r.on_ack(c, w, now, ack, out),
            Recovery::Fack(r) => r.on_ack(c, w, now, ack, out),
            Recovery::SackRh(r) => r.on_ack(c, w, now, ack, out),
        }
    }

    /// The retransmission timer expired.
    pub fn on_timeout(
        &mut self,
        c: &mut Conn,
        w: &mut WindowPolicy,
        now: SimTime,
        out: &mut TcpOutput,
    ) {
        match self {
            Recovery::Tahoe => {}
            // tcp-spec §5 "Timeout": dupwnd_ = 0, dupacks_ = 0, recover_ = maxseq_.
            Recovery::Reno | Recovery::NewReno(_) => {
                c.set_inflation(0);
                c.forget_dup_acks();
                c.move_recover_to_maxseq();
            }
            Recovery::Sack1(r) => r.on_timeout(c),
            // Their own timeouts (`tcp-fack.cc`, `tcp-sack-rh.cc`), not `TcpAgent::timeout`.
            Recovery::Fack(r) => return r.on_timeout(c, w, now, out),
            Recovery::SackRh(r) => return r.on_timeout(c, w, now, out),
        }
        base::base_timeout(c, w, now, out);
    }

    /// Send what the current state allows (after a window-policy timer changed cwnd).
    pub fn send(&mut self, c: &mut Conn, now: SimTime, out: &mut TcpOutput) {
        match self {
            Recovery::Tahoe => c.send_much(now, c.cfg().max_burst, out),
            Recovery::Reno => reno::send(c, now, out),
            Recovery::NewReno(_) => newreno::send(c, now, out),
            Recovery::Sack1(r) => r.send(c, now, out),
            Recovery::Fack(r) => r.send(c, now, out),
            Recovery::SackRh(r) => r.send(c, now, out),
        }
    }
}
