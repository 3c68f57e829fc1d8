//! TCP as ns-2's one-way agents model it: a sender that owns a packet-counted sequence space
//! and a sink that acknowledges it.
//!
//! Both halves are sans-IO state machines: the host (`crate::world`) hands them `now` and a
//! segment, and they answer with the segments to transmit (in [`TcpOutput`] / [`SinkOutput`])
//! and the time they next want to be woken ([`TcpSender::next_timer`]). They never read a
//! clock, draw a random number or touch the network themselves.
//!
//! Module map:
//! - [`variant`]: the variant table: each variant's recovery policy, window policy and quirks.
//! - [`config`]: parameters and the ns-2 / RFC defaults profiles.
//! - [`segment`]: what travels on the wire (data segments, ACKs with SACK blocks).
//! - [`output`]: the buffers through which the state machines speak to the host, and trace events.
//! - [`traced`]: ns-2's traced variables (`$tcp trace cwnd_`): which changed, in ns-2's order.
//! - [`congestion`]: the congestion state (cwnd, ssthresh, `recover`, ...) and the window
//!   decision that changes it.
//! - [`ecn`]: the sender's ECN state (RFC 3168 as ns-2 models it).
//! - [`full`]: ns-2's two-way TCP (`Agent/TCP/FullTcp` and variants), an agent of its own in
//!   byte sequence numbers; it shares only the RTO estimator (`rto`) and the config and output
//!   types with the one-way agents.
//! - `sender`, `sink`: the two halves. The sender composes `conn` (shared state and
//!   machinery), `rto` (RTT/RTO estimator), a `recovery` policy (Tahoe, Reno, NewReno, Sack1,
//!   FACK, SACK with Rate-Halving) and a `window` policy (AIMD, Vegas, Vegas-W) that answers with decisions the connection applies.
//!
//! Imports point one way, down these layers (checked by `scripts/tcp_import_cycles.py`):
//! `sender`; `recovery`; `window`; `conn`, `sink`; `congestion`, `ecn`, `rto`, `output`;
//! `traced`, `config`, `segment`; `variant`. Inside `recovery/` and `window/` the policies import their shared
//! parts (`recovery::base`, `window::hooks`) and never the folder's `mod.rs`, which
//! dispatches to them.

pub mod config;
pub mod congestion;
pub mod conn;
pub mod ecn;
pub mod full;
pub mod output;
pub mod quiescence;
pub mod recovery;
pub mod rto;
pub mod segment;
pub mod send_ring;
pub mod sender;
pub mod sink;
#[cfg(test)]
mod tests;
pub mod traced;
pub mod variant;
pub mod window;

pub use config::{DefaultsProfile, SinkConfig, TcpConfig, TcpVariant, WindowOption};
pub use output::{Ns2Event, Ns2EventKind, SinkOutput, TcpEvent, TcpOutput};
pub use segment::{AckSegment, DataSegment, EcnFlags, SackBlock, Seq};
pub use sender::TcpSender;
pub use sink::TcpSink;
pub use traced::{TracedVar, VarChange};
