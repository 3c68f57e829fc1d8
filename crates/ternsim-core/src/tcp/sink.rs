//! PLACEHOLDER: the TCP sink; replaced by the full implementation.

use super::config::SinkConfig;
use super::output::SinkOutput;
use super::segment::DataSegment;
use crate::sim::SimTime;

pub struct TcpSink {
    cfg: SinkConfig,
}

impl TcpSink {
    pub fn new(cfg: SinkConfig) -> Self {
        TcpSink { cfg }
    }
    pub fn config(&self) -> &SinkConfig {
        &self.cfg
    }
    pub fn on_segment(&mut self, now: SimTime, seg: &DataSegment, out: &mut SinkOutput) {
        let _ = (now, seg, out);
    }
    pub fn on_timer(&mut self, now: SimTime, out: &mut SinkOutput) {
        let _ = (now, out);
    }
    pub fn next_timer(&self) -> Option<SimTime> {
        None
    }
}
