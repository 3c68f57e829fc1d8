//! PLACEHOLDER: the TCP sender; replaced by the full implementation.

use super::config::TcpConfig;
use super::output::TcpOutput;
use super::segment::{AckSegment, Seq};
use crate::sim::SimTime;

/// Counters the sender keeps for the run summary.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SenderStats {
    /// Data segments handed to the network, including retransmissions.
    pub segments_sent: u64,
    /// Of those, retransmissions (any cause).
    pub retransmissions: u64,
    pub timeouts: u64,
    pub fast_retransmits: u64,
}

pub struct TcpSender {
    cfg: TcpConfig,
}

impl TcpSender {
    pub fn new(cfg: TcpConfig, tick_phase: SimTime) -> Self {
        let _ = tick_phase;
        TcpSender { cfg }
    }
    pub fn config(&self) -> &TcpConfig {
        &self.cfg
    }
    pub fn set_app_packets(&mut self, limit: Option<u64>) {
        let _ = limit;
    }
    pub fn start(&mut self, now: SimTime, out: &mut TcpOutput) {
        let _ = (now, out);
    }
    pub fn stop_new_data(&mut self) {}
    pub fn on_ack(&mut self, now: SimTime, ack: &AckSegment, out: &mut TcpOutput) {
        let _ = (now, ack, out);
    }
    pub fn on_timer(&mut self, now: SimTime, out: &mut TcpOutput) {
        let _ = (now, out);
    }
    pub fn next_timer(&self) -> Option<SimTime> {
        None
    }
    pub fn cwnd(&self) -> f64 {
        0.0
    }
    pub fn ssthresh(&self) -> f64 {
        0.0
    }
    pub fn highest_ack(&self) -> Seq {
        -1
    }
    pub fn stats(&self) -> SenderStats {
        SenderStats::default()
    }
}
