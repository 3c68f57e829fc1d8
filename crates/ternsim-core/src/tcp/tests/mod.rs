//! Scripted exchanges with the sender: every step states the ACK that arrives, when, and the
//! exact packets, window and timer that must follow. Numbers are hand-worked from tcp-spec
//! (§12 test vectors where they exist), never read back from the code.

mod aimd;
mod aimd_general;
mod demo_vegas;
mod ecn;
mod event_trace;
mod fack;
mod few;
mod min_window;
mod options;
mod overhead;
mod pacing;
mod quiescence;
mod recovery;
mod sack_rh;
mod traced_vars;
mod vegas;
mod vegas_table1;
mod vegasw;

use crate::sim::SimTime;
use crate::tcp::config::{DefaultsProfile, TcpConfig, TcpVariant};
use crate::tcp::output::TcpOutput;
use crate::tcp::segment::{AckSegment, SackBlock, Seq, MAX_SACK_BLOCKS};
use crate::tcp::sender::TcpSender;

pub fn ms(v: u64) -> SimTime {
    SimTime::from_millis(v)
}

pub fn cfg(variant: TcpVariant) -> TcpConfig {
    TcpConfig::from_profile(variant, DefaultsProfile::Ns2_35)
}

/// A plain cumulative ACK of packets 0..=k.
pub fn ack(k: Seq) -> AckSegment {
    ack_sack(k, &[])
}

/// A cumulative ACK with SACK blocks `[left, right)`.
pub fn ack_sack(k: Seq, blocks: &[(Seq, Seq)]) -> AckSegment {
    let mut sack = [SackBlock::default(); MAX_SACK_BLOCKS];
    for (i, &(left, right)) in blocks.iter().enumerate() {
        sack[i] = SackBlock { left, right };
    }
    AckSegment {
        ack: k,
        sack: (!blocks.is_empty()).then(|| Box::new(sack)),
        n_sack: blocks.len() as u8,
        wire_bytes: 40 + 8 * blocks.len() as u32,
        echo_sent_at: SimTime::ZERO,
        echo_seq: k,
        ts_echo: SimTime::ZERO,
        sig: false,
        ecn: Default::default(),
    }
}

/// A sender and its output buffer; each step clears the buffer and returns the sequence
/// numbers sent.
pub struct Run {
    pub s: TcpSender,
    pub out: TcpOutput,
}

impl Run {
    pub fn new(cfg: TcpConfig) -> Self {
        Run {
            s: TcpSender::new(cfg, SimTime::ZERO),
            out: TcpOutput {
                trace: true,
                ..TcpOutput::default()
            },
        }
    }

    /// tcp-spec §12 T7 start: everything up to `highest_ack` acknowledged, the given cwnd and
    /// ssthresh, then the window's worth sent at `start_ms`.
    pub fn at_state(
        cfg: TcpConfig,
        highest_ack: Seq,
        cwnd: f64,
        ssthresh: f64,
        start_ms: u64,
    ) -> Self {
        let mut r = Run::new(cfg);
        r.s.warp(highest_ack, cwnd, ssthresh);
        r.start(start_ms);
        r
    }

    pub fn sent(&self) -> Vec<Seq> {
        self.out.segments.iter().map(|d| d.seq).collect()
    }

    pub fn start(&mut self, t_ms: u64) -> Vec<Seq> {
        self.out.clear();
        self.s.start(ms(t_ms), &mut self.out);
        self.sent()
    }

    pub fn ack(&mut self, t_ms: u64, k: Seq) -> Vec<Seq> {
        self.out.clear();
        self.s.on_ack(ms(t_ms), &ack(k), &mut self.out);
        self.sent()
    }

    pub fn ack_sack(&mut self, t_ms: u64, k: Seq, blocks: &[(Seq, Seq)]) -> Vec<Seq> {
        self.out.clear();
        self.s.on_ack(ms(t_ms), &ack_sack(k, blocks), &mut self.out);
        self.sent()
    }

    /// Fire the timer at its deadline.
    pub fn fire(&mut self) -> Vec<Seq> {
        self.out.clear();
        let t = self.s.next_timer().expect("a timer is pending");
        self.s.on_timer(t, &mut self.out);
        self.sent()
    }

    pub fn cwnd(&self) -> f64 {
        self.s.cwnd()
    }
    pub fn ssthresh(&self) -> f64 {
        self.s.ssthresh()
    }
}

pub fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

pub fn seqs(r: std::ops::RangeInclusive<Seq>) -> Vec<Seq> {
    r.collect()
}
