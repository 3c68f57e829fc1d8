//! The TCP sink: ns-2's `Agent/TCPSink`, `/DelAck`, `/Sack1` and `/Sack1/DelAck` in one state
//! machine (tcp-spec §8), chosen by [`SinkConfig`].
//!
//! What it owns: the receive window in packet numbers (the next expected packet, the packets
//! received above it), the delayed-ACK hold and its timer, the SACK block history, and the
//! receive counters. What it does not do: reassemble bytes (packets are counted, ns-2 style),
//! advertise a window (ns-2's `window_` lives in the sender), generate D-SACK blocks (ns-2
//! `generateDSacks_` is false by default), or read a clock (the host hands it `now`).
//!
//! Invariants:
//! - `next_expected` = 1 + the highest packet below which everything has been received; the
//!   cumulative ACK is `next_expected − 1` (ns-2 `Acker::Seqno()`), −1 before packet 0.
//! - `window[i]` describes packet `next_expected + i`; it is empty or starts with a hole
//!   (`None`), so `max_seen > cumulative ack` exactly when the window is non-empty.
//! - A packet is held for a delayed ACK only while `delack_at` is set, and vice versa.
//!
//! ACK rules (ns-2 `tcp/tcp-sink.cc`; RFC 5681 §4.2 for the delayed-ACK reasoning):
//! - Without delayed ACKs, every arriving data packet (in order, out of order, duplicate)
//!   produces one ACK at once carrying the cumulative ACK.
//! - With delayed ACKs, see [`TcpSink::on_segment`].
//! - SACK blocks follow ns-2 `Sacker::append_ack` (RFC 2018 §4 rules in packet numbers), see
//!   [`TcpSink::sack_blocks`].

use std::collections::VecDeque;

use super::config::SinkConfig;
use super::output::SinkOutput;
use super::segment::{AckSegment, DataSegment, EcnFlags, SackBlock, Seq, MAX_SACK_BLOCKS};
use crate::sim::SimTime;

/// Bytes each SACK block adds to an ACK on the wire (RFC 2018 §3: two 32-bit edges; ns-2
/// `Sacker::append_ack` adds `8 * blocks`).
const SACK_BLOCK_BYTES: u32 = 8;

/// What an ACK echoes of the data segment that triggered it.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Echo {
    seq: Seq,
    sent_at: SimTime,
    /// The segment's CWR and ECN bits, which the ACK answers (ns-2 `TcpSink::ack`).
    cong_action: bool,
    ecn: EcnFlags,
}

impl Echo {
    fn of(seg: &DataSegment) -> Self {
        Echo {
            seq: seg.seq,
            sent_at: seg.sent_at,
            cong_action: seg.cong_action,
            ecn: seg.ecn,
        }
    }
}

/// Counters the sink keeps for the run summary.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SinkStats {
    /// Data packets received, duplicates included.
    pub packets_received: u64,
    /// Data packets received that had been received before (ns-2 `Acker::is_dup_`): below the
    /// cumulative ACK, or above it and already buffered. A go-back-N resend after a spurious
    /// timeout shows up here.
    pub duplicate_packets: u64,
    /// Data packets that arrived above a hole (out of order, first copy).
    pub out_of_order_packets: u64,
    /// Packets delivered in order to the application.
    pub delivered_packets: u64,
    /// Payload bytes delivered in order to the application.
    pub delivered_bytes: u64,
    /// ACKs sent.
    pub acks_sent: u64,
    /// ACKs sent by the delayed-ACK timer.
    pub delayed_acks_by_timer: u64,
}

/// The receiving half of an ns-2 one-way TCP connection.
#[derive(Clone, Debug)]
pub struct TcpSink {
    cfg: SinkConfig,
    /// Next packet expected in order (ns-2 `Acker::next_`).
    next_expected: Seq,
    /// Highest packet number received, −1 before any (ns-2 `Acker::maxseen_`).
    max_seen: Seq,
    /// Packets from `next_expected` up to `max_seen`: `Some(payload bytes)` if received.
    window: VecDeque<Option<u32>>,
    /// The segment whose ACK is being delayed (ns-2 `DelAckSink::save_`), and when the
    /// delayed-ACK timer fires.
    held: Option<Echo>,
    delack_at: Option<SimTime>,
    /// Most-recent-first history of first SACK blocks sent (ns-2 `SackStack`), at most
    /// `sack_slots` long.
    sack_history: Vec<SackBlock>,
    /// SACK blocks per ACK: `max_sack_blocks` clamped to what the header holds, 0 if SACK off.
    sack_slots: usize,
    stats: SinkStats,
    /// Demo-Vegas's SIG bit, carried on every ACK (0 at the start; seed §IV-B).
    sig: bool,
    /// The timestamp the next ACK echoes (ns-2 `Acker::ts_to_echo_`, 0 at the start).
    ts_to_echo: SimTime,
    /// The cumulative ACK last sent (ns-2 `Acker::last_ack_sent_`, which starts at 0, not
    /// at -1 as the cumulative ACK does).
    last_ack_sent: Seq,
    /// ns-2 `Acker::ecn_unacked_`: a congestion-experienced mark arrived and the sender has
    /// not yet answered with CWR (RFC 3168 §6.1.3).
    ecn_unacked: bool,
}

impl TcpSink {
    pub fn new(cfg: SinkConfig) -> Self {
        let sack_slots = if cfg.sack {
            // ns-2 `Sacker::configure` clamps maxSackBlocks_ to what the header can carry.
            (cfg.max_sack_blocks as usize).min(MAX_SACK_BLOCKS)
        } else {
            0
        };
        TcpSink {
            cfg,
            next_expected: 0,
            max_seen: -1,
            window: VecDeque::new(),
            held: None,
            delack_at: None,
            sack_history: Vec::with_capacity(sack_slots),
            sack_slots,
            stats: SinkStats::default(),
            sig: false,
            ts_to_echo: SimTime::ZERO,
            last_ack_sent: 0,
            ecn_unacked: false,
        }
    }

    pub fn config(&self) -> &SinkConfig {
        &self.cfg
    }

    /// Next packet expected in order.
    pub fn next_expected(&self) -> Seq {
        self.next_expected
    }

    /// The cumulative ACK: highest packet received with everything below it (−1 before any).
    pub fn cumulative_ack(&self) -> Seq {
        self.next_expected - 1
    }

    /// Whether packet `seq` has been received (in order or above a hole).
    pub fn has_received(&self, seq: Seq) -> bool {
        if seq < self.next_expected {
            return seq >= 0;
        }
        let offset = (seq - self.next_expected) as usize;
        self.window.get(offset).is_some_and(|slot| slot.is_some())
    }

    /// Highest packet number received so far (−1 before any).
    pub fn max_seen(&self) -> Seq {
        self.max_seen
    }

    /// Data packets received, duplicates included.
    pub fn packets_received_total(&self) -> u64 {
        self.stats.packets_received
    }

    /// Data packets received that had already been received.
    pub fn duplicate_packets(&self) -> u64 {
        self.stats.duplicate_packets
    }

    /// All counters.
    /// The receiver's care-of address changed (or was cancelled on its return home): flip
    /// the SIG bit that every following ACK carries (`ho-mobileip` seed §IV-B: "the receiver
    /// will keep the 'SIG' bit value of each ACK unchanged until its COA is changed again").
    /// Any sink does it; only a Demo-Vegas sender reads the bit.
    pub fn on_care_of_change(&mut self) {
        self.sig = !self.sig;
    }

    /// The SIG bit the next ACK carries.
    pub fn sig(&self) -> bool {
        self.sig
    }

    pub fn stats(&self) -> SinkStats {
        self.stats
    }

    /// Whether an ACK is being held for the delayed-ACK timer.
    pub fn ack_pending(&self) -> bool {
        self.held.is_some()
    }

    /// When the delayed-ACK timer fires, if an ACK is held.
    pub fn next_timer(&self) -> Option<SimTime> {
        self.delack_at
    }

    /// A data packet arrives. Pushes the ACKs to send (zero or one) to `out.acks` and adds the
    /// packets and payload bytes that became in order to `out.delivered_*`.
    ///
    /// Delayed ACK (ns-2 `DelAckSink::recv`, tcp-spec §8): the ACK is held, and the timer set
    /// to `now + delack_interval`, only if
    /// 1. no ACK is already held (so at most one packet waits: every second in-order packet
    ///    is ACKed, RFC 5681 §4.2 "at least every second full-sized segment"),
    /// 2. after this packet the cumulative ACK equals its number (ns-2 `seqno == Seqno()`;
    ///    like ns-2, this includes a duplicate of the last in-order packet),
    /// 3. nothing above it has been received (ns-2 `RFC2581_immediate_ack_`, on by default:
    ///    a packet that fills a gap is ACKed at once, RFC 5681 §4.2; `gap_immediate_ack`),
    ///    and
    /// 4. it is not packet 0 (ns-2 `SYN_immediate_ack_`, on by default; `syn_immediate_ack`).
    ///
    /// Otherwise any held ACK is cancelled and one ACK goes out now; it covers the held packet
    /// because the cumulative ACK already does. Out-of-order packets thus get an immediate
    /// duplicate ACK (RFC 5681 §4.2).
    pub fn on_segment(&mut self, now: SimTime, seg: &DataSegment, out: &mut SinkOutput) {
        self.update_ts(seg);
        self.receive(seg, out);
        let seq = seg.seq;
        if self.cfg.delayed_ack
            && self.held.is_none()
            && seq == self.cumulative_ack()
            && (seq >= self.max_seen || !self.cfg.gap_immediate_ack)
            && (seq != 0 || !self.cfg.syn_immediate_ack)
        {
            self.held = Some(Echo::of(seg));
            self.delack_at = Some(now + self.cfg.delack_interval);
            return;
        }
        // The held packet, if any, is acknowledged by this ACK too; the ACK echoes `seg`
        // (and the ECN bits of both).
        let held = self.held.take();
        self.delack_at = None;
        self.send_ack(Echo::of(seg), held, out);
    }

    /// The delayed-ACK timer. Called at or after [`next_timer`](Self::next_timer); sends the
    /// held ACK (ns-2 `DelAckSink::timeout`). A call before the deadline, or with nothing
    /// held, does nothing.
    pub fn on_timer(&mut self, now: SimTime, out: &mut SinkOutput) {
        match self.delack_at {
            Some(at) if now >= at => {}
            _ => return,
        }
        self.delack_at = None;
        if let Some(held) = self.held.take() {
            self.stats.delayed_acks_by_timer += 1;
            self.send_ack(held, Some(held), out);
        }
    }

    /// The timestamp to echo (ns-2 `Acker::update_ts`, before the window is updated; RFC
    /// 7323 §4.3): with `ts_echo_rfc1323` the segment right after the last ACK sent sets it;
    /// otherwise any segment at or below that point whose timestamp is not older does
    /// (duplicates included, as RFC 1323-bis allows).
    fn update_ts(&mut self, seg: &DataSegment) {
        let next = self.last_ack_sent + 1;
        if (self.cfg.ts_echo_rfc1323 && seg.seq == next)
            || (seg.sent_at >= self.ts_to_echo && seg.seq <= next)
        {
            self.ts_to_echo = seg.sent_at;
        }
    }

    /// Record the packet in the receive window and deliver what became in order
    /// (ns-2 `Acker::update`).
    fn receive(&mut self, seg: &DataSegment, out: &mut SinkOutput) {
        let seq = seg.seq;
        self.stats.packets_received += 1;
        if seq < self.next_expected {
            self.stats.duplicate_packets += 1;
            return;
        }
        let idx = (seq - self.next_expected) as usize;
        if idx == 0 && self.window.is_empty() {
            // The next packet expected, nothing above it held (most packets): delivered
            // at once, as the window would after holding it for a moment.
            self.max_seen = self.max_seen.max(seq);
            self.next_expected += 1;
            let bytes = seg.payload_bytes;
            out.delivered_packets += 1;
            out.delivered_bytes += u64::from(bytes);
            self.stats.delivered_packets += 1;
            self.stats.delivered_bytes += u64::from(bytes);
            return;
        }
        if idx >= self.window.len() {
            self.window.resize(idx + 1, None);
        }
        if self.window[idx].is_some() {
            self.stats.duplicate_packets += 1;
            return;
        }
        self.window[idx] = Some(seg.payload_bytes);
        self.max_seen = self.max_seen.max(seq);
        if idx > 0 {
            self.stats.out_of_order_packets += 1;
            return;
        }
        while let Some(Some(bytes)) = self.window.front().copied() {
            self.window.pop_front();
            self.next_expected += 1;
            out.delivered_packets += 1;
            out.delivered_bytes += u64::from(bytes);
            self.stats.delivered_packets += 1;
            self.stats.delivered_bytes += u64::from(bytes);
        }
    }

    fn is_received(&self, seq: Seq) -> bool {
        if seq < self.next_expected {
            return true;
        }
        let idx = (seq - self.next_expected) as usize;
        matches!(self.window.get(idx), Some(Some(_)))
    }

    /// ns-2 `TcpSink::ack` for the segment `echo` (and `held`, the segment whose ACK was
    /// being delayed, ns-2 `save_`).
    fn send_ack(&mut self, echo: Echo, held: Option<Echo>, out: &mut SinkOutput) {
        let ecn = self.ecn_echo(echo, held);
        let mut sack = [SackBlock::default(); MAX_SACK_BLOCKS];
        let n_sack = self.sack_blocks(echo.seq, &mut sack);
        out.acks.push(AckSegment {
            ack: self.cumulative_ack(),
            sack: (n_sack > 0).then(|| Box::new(sack)),
            n_sack: n_sack as u8,
            wire_bytes: self.cfg.ack_size + SACK_BLOCK_BYTES * n_sack as u32,
            echo_sent_at: echo.sent_at,
            echo_seq: echo.seq,
            ts_echo: if self.cfg.ts_echo_bugfix {
                self.ts_to_echo
            } else {
                echo.sent_at
            },
            sig: self.sig,
            ecn,
        });
        self.last_ack_sent = self.cumulative_ack();
        self.stats.acks_sent += 1;
    }

    /// The ECN bits of the ACK for `echo` and `held` (ns-2 `TcpSink::ack`; RFC 3168 §6.1.3):
    /// CWR on either ends the echoing, a congestion-experienced mark on an ECN-capable one
    /// starts it (the later wins), and ECN-Echo is set while it lasts on the ACK of an
    /// ECN-capable segment; the ECN setup (ECN-Echo on a segment that is not ECN-capable,
    /// ns-2's packet 0) is always answered with ECN-Echo, in an ECN-capable ACK with
    /// `ecn_syn`.
    fn ecn_echo(&mut self, echo: Echo, held: Option<Echo>) -> EcnFlags {
        // Each test on the echo and the held one directly (once per ACK), not through a
        // `dyn` closure over an array of both.
        let any = |f: fn(&Echo) -> bool| f(&echo) || held.as_ref().is_some_and(f);
        if any(|e| e.cong_action) {
            self.ecn_unacked = false;
        }
        if any(|e| e.ecn.ect && e.ecn.ce) {
            self.ecn_unacked = true;
        }
        let mut ack = EcnFlags::default();
        if any(|e| e.ecn.ect) {
            ack.ece = self.ecn_unacked;
        }
        if any(|e| !e.ecn.ect && e.ecn.ece) {
            ack.ece = true;
            ack.ect = self.cfg.ecn_syn;
        }
        ack
    }

    /// Fill `blocks` with the SACK blocks for an ACK triggered by packet `trigger`; returns
    /// how many. ns-2 `Sacker::append_ack`, which implements RFC 2018 §4 in packet numbers
    /// (tcp-spec §8, Sack1 rules 1-4):
    /// 1. If the cumulative ACK has reached the highest packet seen, the history is cleared and
    ///    no block is sent (RFC 2018 §4: SACK only when there is data queued above the ACK).
    /// 2. Else, if the trigger lies above the cumulative ACK, the first block is the contiguous
    ///    run of received packets containing it (RFC 2018 §4 "the first SACK block MUST
    ///    specify the contiguous block of data containing the segment which triggered this
    ///    ACK").
    /// 3. The remaining slots repeat the most recent earlier first blocks (RFC 2018 §4), most
    ///    recent first; entries wholly covered by the new first block are dropped from the
    ///    history (for a trigger at or below the cumulative ACK, ns-2 compares against
    ///    [0, next expected), which drops entries the cumulative ACK has passed); the scan
    ///    stops at an entry ending beyond the highest packet seen.
    /// 4. The new first block is pushed onto the history, which keeps at most as many entries
    ///    as there are slots.
    fn sack_blocks(&mut self, trigger: Seq, blocks: &mut [SackBlock; MAX_SACK_BLOCKS]) -> usize {
        let cum = self.cumulative_ack();
        if cum >= self.max_seen {
            // Rule 1.
            self.sack_history.clear();
            return 0;
        }
        if self.sack_slots == 0 {
            return 0;
        }
        let mut n = 0;
        // Rule 2. `recent` is what covers history entries in rule 3.
        let recent = if trigger > cum {
            let mut right = trigger + 1;
            while right <= self.max_seen && self.is_received(right) {
                right += 1;
            }
            let mut left = trigger;
            while left - 1 > cum && self.is_received(left - 1) {
                left -= 1;
            }
            let first = SackBlock { left, right };
            blocks[0] = first;
            n = 1;
            first
        } else {
            SackBlock {
                left: 0,
                right: self.next_expected,
            }
        };
        // Rule 3.
        let mut k = 0;
        while n < self.sack_slots && k < self.sack_history.len() {
            let h = self.sack_history[k];
            if h.right > self.max_seen + 1 {
                break;
            }
            if recent.left <= h.left && h.right <= recent.right {
                self.sack_history.remove(k);
                continue;
            }
            blocks[n] = h;
            n += 1;
            k += 1;
        }
        // Rule 4.
        if trigger > cum {
            self.sack_history.truncate(self.sack_slots - 1);
            self.sack_history.insert(0, recent);
        }
        n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: u64 = 1_000_000;

    fn t(ms: u64) -> SimTime {
        SimTime::from_millis(ms)
    }

    fn seg(seq: Seq, sent_ms: u64) -> DataSegment {
        DataSegment {
            seq,
            wire_bytes: if seq == 0 { 40 } else { 1040 },
            payload_bytes: if seq == 0 { 0 } else { 1000 },
            retransmission: false,
            cong_action: false,
            ecn: Default::default(),
            sent_at: t(sent_ms),
        }
    }

    fn plain() -> TcpSink {
        TcpSink::new(SinkConfig::default())
    }

    fn sack() -> TcpSink {
        TcpSink::new(SinkConfig {
            sack: true,
            ..SinkConfig::default()
        })
    }

    fn delack() -> TcpSink {
        TcpSink::new(SinkConfig {
            delayed_ack: true,
            ..SinkConfig::default()
        })
    }

    /// Deliver `seq` at `now_ms`; return the ACKs it produced as (ack, blocks).
    fn recv(s: &mut TcpSink, seq: Seq, now_ms: u64) -> Vec<(Seq, Vec<(Seq, Seq)>)> {
        let mut out = SinkOutput::default();
        s.on_segment(t(now_ms), &seg(seq, now_ms), &mut out);
        acks_of(&out)
    }

    fn acks_of(out: &SinkOutput) -> Vec<(Seq, Vec<(Seq, Seq)>)> {
        out.acks
            .iter()
            .map(|a| {
                let blocks = a.sack_blocks().iter().map(|b| (b.left, b.right)).collect();
                (a.ack, blocks)
            })
            .collect()
    }

    /// RFC 2018 §6 examples with 500-byte segments starting at byte 5000, mapped to packets:
    /// packets 0..=9 are received first (cumulative ACK 9 = byte 5000), then segment j of the
    /// RFC (j = 1..8, bytes 5000 + 500(j−1)) is packet 9 + j. Byte ACK 5000 + 500m = packet
    /// ACK 9 + m; byte block [x, y) = packets [10 + (x−5000)/500, 10 + (y−5000)/500).
    fn rfc2018_sink() -> TcpSink {
        let mut s = sack();
        for p in 0..10 {
            recv(&mut s, p, p as u64);
        }
        assert_eq!(s.cumulative_ack(), 9);
        s
    }

    #[test]
    fn rfc2018_case1_first_four_arrive_gives_plain_cumulative_ack() {
        let mut s = rfc2018_sink();
        // Segments 5000..7000 arrive (packets 10..13), 7000..9000 lost: ACK 7000 = packet 13.
        let mut last = vec![];
        for p in 10..14 {
            last = recv(&mut s, p, 100);
        }
        assert_eq!(last, vec![(13, vec![])]);
    }

    #[test]
    fn rfc2018_case2_first_lost_gives_one_growing_block() {
        let mut s = rfc2018_sink();
        // 5000 (packet 10) lost; 5500..9000 (packets 11..17) arrive: ACK 5000 = packet 9 with
        // [5500,6000) .. [5500,9000) = [11,12) .. [11,18).
        for p in 11..18 {
            assert_eq!(
                recv(&mut s, p, 100),
                vec![(9, vec![(11, p + 1)])],
                "packet {p}"
            );
        }
    }

    #[test]
    fn rfc2018_case3_alternate_losses_then_fourth_and_second_arrive() {
        let mut s = rfc2018_sink();
        // Segments 2, 4, 6, 8 (packets 11, 13, 15, 17) lost.
        // 1st: ACK 5500 (packet 10), no block.
        assert_eq!(recv(&mut s, 10, 100), vec![(10, vec![])]);
        // 3rd: ACK 5500, [6000,6500) = [12,13).
        assert_eq!(recv(&mut s, 12, 101), vec![(10, vec![(12, 13)])]);
        // 5th: [7000,7500)[6000,6500).
        assert_eq!(recv(&mut s, 14, 102), vec![(10, vec![(14, 15), (12, 13)])]);
        // 7th: [8000,8500)[7000,7500)[6000,6500).
        assert_eq!(
            recv(&mut s, 16, 103),
            vec![(10, vec![(16, 17), (14, 15), (12, 13)])]
        );
        // The 4th (packet 13) arrives: ACK 5500 with [6000,7500)[8000,8500).
        assert_eq!(recv(&mut s, 13, 104), vec![(10, vec![(12, 15), (16, 17)])]);
        // Then the 2nd (packet 11): ACK 7500 (packet 14) with [8000,8500).
        assert_eq!(recv(&mut s, 11, 105), vec![(14, vec![(16, 17)])]);
        // The 6th (packet 15) arrives: the cumulative ACK reaches the highest packet seen, so
        // no blocks and the history is cleared.
        assert_eq!(recv(&mut s, 15, 106), vec![(16, vec![])]);
        assert!(s.sack_history.is_empty());
    }

    #[test]
    fn sack_ack_size_grows_by_eight_bytes_per_block() {
        let mut s = rfc2018_sink();
        let mut out = SinkOutput::default();
        for (i, p) in [10, 12, 14, 16].into_iter().enumerate() {
            out.clear();
            s.on_segment(t(100), &seg(p, 100), &mut out);
            assert_eq!(out.acks[0].wire_bytes, 40 + 8 * i as u32);
        }
    }

    #[test]
    fn sack_blocks_limited_by_max_sack_blocks_and_history_depth() {
        let mut s = TcpSink::new(SinkConfig {
            sack: true,
            max_sack_blocks: 2,
            ..SinkConfig::default()
        });
        recv(&mut s, 0, 0);
        assert_eq!(recv(&mut s, 2, 1), vec![(0, vec![(2, 3)])]);
        assert_eq!(recv(&mut s, 4, 2), vec![(0, vec![(4, 5), (2, 3)])]);
        assert_eq!(recv(&mut s, 6, 3), vec![(0, vec![(6, 7), (4, 5)])]);
        // [2,3) fell off the 2-entry history; filling 5 joins [4,7), which covers both
        // remaining entries, so only one block goes out although packet 2 is still buffered.
        assert_eq!(recv(&mut s, 5, 4), vec![(0, vec![(4, 7)])]);
    }

    #[test]
    fn duplicate_above_the_ack_is_sacked_and_counted() {
        let mut s = sack();
        recv(&mut s, 0, 0);
        recv(&mut s, 2, 1);
        assert_eq!(recv(&mut s, 2, 2), vec![(0, vec![(2, 3)])]);
        // A duplicate below the cumulative ACK: plain dup ACK.
        assert_eq!(recv(&mut s, 0, 3), vec![(0, vec![(2, 3)])]);
        assert_eq!(s.duplicate_packets(), 2);
        assert_eq!(s.packets_received_total(), 4);
    }

    /// ns-2 `Acker::update_ts` with `ts_echo_bugfix` (the default): the echoed timestamp
    /// is that of the latest segment at or below the last ACK sent + 1 whose timestamp is
    /// not older. Packets 0 (sent 0 ms), 1 (10 ms) and 3 (30 ms) arrive, 2 is lost: the ACK
    /// of 3 repeats ACK 1 and echoes 10 ms, not 30 (3 is above 1 + 1). The retransmitted 2
    /// (sent 50 ms) is right after the last ACK: it is echoed. Without the fix each ACK
    /// echoes its own trigger (30 ms for the ACK of 3).
    #[test]
    fn the_echoed_timestamp_follows_the_last_ack_sent() {
        let echoes = |fix: bool| {
            let mut s = TcpSink::new(SinkConfig {
                ts_echo_bugfix: fix,
                ..SinkConfig::default()
            });
            let mut got = Vec::new();
            for (seq, sent) in [(0, 0), (1, 10), (3, 30), (2, 50)] {
                let mut out = SinkOutput::default();
                s.on_segment(t(sent + 5), &seg(seq, sent), &mut out);
                got.push((out.acks[0].ack, out.acks[0].ts_echo));
            }
            got
        };
        assert_eq!(
            echoes(true),
            [(0, t(0)), (1, t(10)), (1, t(10)), (3, t(50))]
        );
        assert_eq!(
            echoes(false),
            [(0, t(0)), (1, t(10)), (1, t(30)), (3, t(50))]
        );
    }

    /// `ts_echo_rfc1323`: the segment right after the last ACK sets the echo even when its
    /// timestamp is older (a late original after a retransmission): packet 1 sent at 10 ms
    /// arrives after 0's ACK though a copy of 0 sent at 20 ms came first.
    #[test]
    fn rfc1323_echo_takes_the_next_segment_even_if_older() {
        let run = |rfc1323: bool| {
            let mut s = TcpSink::new(SinkConfig {
                ts_echo_rfc1323: rfc1323,
                ..SinkConfig::default()
            });
            let mut out = SinkOutput::default();
            s.on_segment(t(25), &seg(0, 20), &mut out);
            s.on_segment(t(30), &seg(1, 10), &mut out);
            out.acks[1].ts_echo
        };
        assert_eq!(run(true), t(10));
        assert_eq!(run(false), t(20));
    }

    #[test]
    fn plain_sink_acks_every_packet_with_highest_in_order() {
        let mut s = plain();
        assert_eq!(recv(&mut s, 0, 0), vec![(0, vec![])]);
        assert_eq!(recv(&mut s, 1, 1), vec![(1, vec![])]);
        // 2 lost: 3 and 4 give duplicate ACKs, no SACK blocks without SACK.
        assert_eq!(recv(&mut s, 3, 2), vec![(1, vec![])]);
        assert_eq!(recv(&mut s, 4, 3), vec![(1, vec![])]);
        assert_eq!(recv(&mut s, 2, 4), vec![(4, vec![])]);
        // A duplicate still gets its ACK.
        assert_eq!(recv(&mut s, 1, 5), vec![(4, vec![])]);
        assert_eq!(s.duplicate_packets(), 1);
        assert_eq!(s.stats().acks_sent, 6);
        assert_eq!(s.stats().out_of_order_packets, 2);
    }

    #[test]
    fn ack_echoes_trigger_time_and_seq() {
        let mut s = plain();
        let mut out = SinkOutput::default();
        s.on_segment(t(20), &seg(0, 7), &mut out);
        let a = out.acks[0].clone();
        assert_eq!((a.echo_seq, a.echo_sent_at, a.wire_bytes), (0, t(7), 40));
        out.clear();
        s.on_segment(t(21), &seg(1, 9), &mut out);
        assert_eq!((out.acks[0].echo_seq, out.acks[0].echo_sent_at), (1, t(9)));
    }

    #[test]
    fn delack_packet_zero_is_acked_at_once() {
        let mut s = delack();
        assert_eq!(recv(&mut s, 0, 0), vec![(0, vec![])]);
        assert_eq!(s.next_timer(), None);
    }

    #[test]
    fn delack_in_order_pairs_acked_every_second_packet() {
        let mut s = delack();
        recv(&mut s, 0, 0);
        let mut acks = vec![];
        for p in 1..=6 {
            acks.push(recv(&mut s, p, 10 + p as u64));
        }
        let empty: Vec<(Seq, Vec<(Seq, Seq)>)> = vec![];
        assert_eq!(
            acks,
            vec![
                empty.clone(),
                vec![(2, vec![])],
                empty.clone(),
                vec![(4, vec![])],
                empty,
                vec![(6, vec![])]
            ]
        );
        assert_eq!(s.next_timer(), None);
    }

    #[test]
    fn delack_lone_packet_acked_at_exactly_interval() {
        let mut s = delack();
        recv(&mut s, 0, 0);
        assert!(recv(&mut s, 1, 30).is_empty());
        assert_eq!(s.next_timer(), Some(SimTime(130 * MS)));
        let mut out = SinkOutput::default();
        // Early call: nothing.
        s.on_timer(SimTime(130 * MS - 1), &mut out);
        assert!(out.acks.is_empty());
        s.on_timer(SimTime(130 * MS), &mut out);
        assert_eq!(acks_of(&out), vec![(1, vec![])]);
        assert_eq!(out.acks[0].echo_seq, 1);
        assert_eq!(out.acks[0].echo_sent_at, t(30));
        assert_eq!(s.next_timer(), None);
        assert_eq!(s.stats().delayed_acks_by_timer, 1);
        // A second call does nothing.
        out.clear();
        s.on_timer(t(500), &mut out);
        assert!(out.acks.is_empty());
    }

    #[test]
    fn delack_timer_runs_from_the_first_held_packet() {
        let mut s = delack();
        recv(&mut s, 0, 0);
        recv(&mut s, 1, 10);
        // Packet 2 at 60 ms releases the ACK at once, echoing packet 2.
        let mut out = SinkOutput::default();
        s.on_segment(t(60), &seg(2, 55), &mut out);
        assert_eq!(acks_of(&out), vec![(2, vec![])]);
        assert_eq!((out.acks[0].echo_seq, out.acks[0].echo_sent_at), (2, t(55)));
        // Packet 3 at 70 ms is held with a fresh timer at 170 ms.
        assert!(recv(&mut s, 3, 70).is_empty());
        assert_eq!(s.next_timer(), Some(t(170)));
    }

    #[test]
    fn delack_out_of_order_gets_immediate_dup_ack_covering_held_packet() {
        let mut s = delack();
        recv(&mut s, 0, 0);
        assert!(recv(&mut s, 1, 10).is_empty());
        // 2 lost; 3 arrives: immediate duplicate ACK 1 (covers the held 1), timer cancelled.
        assert_eq!(recv(&mut s, 3, 20), vec![(1, vec![])]);
        assert_eq!(s.next_timer(), None);
        // 4 arrives out of order too: immediate dup ACK.
        assert_eq!(recv(&mut s, 4, 30), vec![(1, vec![])]);
    }

    #[test]
    fn delack_gap_filling_packets_acked_immediately() {
        let mut s = delack();
        recv(&mut s, 0, 0);
        recv(&mut s, 2, 10);
        recv(&mut s, 4, 20);
        // 1 fills a gap but 3 is still missing (4 above it): ACK 2 at once.
        assert_eq!(recv(&mut s, 1, 30), vec![(2, vec![])]);
        // 3 fills the last gap: cumulative ACK jumps past it, ACK 4 at once.
        assert_eq!(recv(&mut s, 3, 40), vec![(4, vec![])]);
        assert_eq!(s.next_timer(), None);
        // Back to in-order: 5 is held.
        assert!(recv(&mut s, 5, 50).is_empty());
        assert_eq!(s.next_timer(), Some(t(150)));
    }

    #[test]
    fn delack_packet_that_becomes_cumulative_ack_with_data_above_is_acked_at_once() {
        // Rule 3 (ns-2 `RFC2581_immediate_ack_`): 1 arrives with 3 already buffered; after it
        // the cumulative ACK is 1 = its own number, but 3 lies above, so no hold.
        let mut s = delack();
        recv(&mut s, 0, 0);
        assert_eq!(recv(&mut s, 3, 10), vec![(0, vec![])]);
        assert_eq!(recv(&mut s, 1, 20), vec![(1, vec![])]);
        assert_eq!(s.next_timer(), None);
    }

    #[test]
    fn delack_duplicate_of_last_in_order_packet_is_held_like_ns2() {
        // ns-2 tests only `seqno == Seqno()`, so a resend of the last in-order packet is held.
        let mut s = delack();
        recv(&mut s, 0, 0);
        recv(&mut s, 1, 10);
        recv(&mut s, 2, 20);
        assert!(recv(&mut s, 2, 30).is_empty());
        assert_eq!(s.next_timer(), Some(t(130)));
        // An older duplicate is ACKed at once.
        assert_eq!(recv(&mut s, 1, 40), vec![(2, vec![])]);
    }

    /// ns-2 `DelAckSink` (interval_ 100 ms) worked by hand through one sequence of arrivals,
    /// with the delayed-ACK timer fired whenever it is due. Each line: when something
    /// happens, what, and the ACK that leaves at that instant (cumulative ACK, the packet
    /// it echoes), or none:
    /// - 0 ms packet 0: ACK 0 at once (`SYN_immediate_ack_`).
    /// - 10 ms packet 1: held, timer at 110 ms.
    /// - 20 ms packet 2: a timer is pending, so ACK 2 now (every second packet); timer off.
    /// - 30 ms packet 3: held, timer at 130 ms; 129 ms: nothing; 130 ms: timer, ACK 3
    ///   echoing packet 3.
    /// - 140 ms packet 4: held (timer 240 ms); 150 ms packet 6 (5 lost): out of order, ACK 4
    ///   at once, covering the held 4; 160 ms packet 7: ACK 4 again.
    /// - 170 ms packet 5 fills the hole: the cumulative ACK jumps to 7 ≠ 5, so ACK 7 at once.
    /// - 180 ms packet 8: held (timer 280 ms); 190 ms packet 8 again: timer pending, ACK 8 now.
    /// - 200 ms packet 8 a third time: no timer and 8 = the cumulative ACK, so ns-2 holds it
    ///   (timer 300 ms); 300 ms: timer, ACK 8.
    /// - 350 ms packet 10 (9 lost): ACK 8 at once; 360 ms packet 9: ACK 10 at once.
    /// - 400 ms packet 11: held; 500 ms: timer, ACK 11.
    #[test]
    fn delack_hand_worked_sequence_matches_ns2_delacksink() {
        let mut s = delack();
        // (time ms, Some(packet) arrives | None: the timer is called, expected (ack, echo))
        type Step = (u64, Option<Seq>, Option<(Seq, Seq)>);
        let steps: [Step; 21] = [
            (0, Some(0), Some((0, 0))),
            (10, Some(1), None),
            (20, Some(2), Some((2, 2))),
            (30, Some(3), None),
            (129, None, None),
            (130, None, Some((3, 3))),
            (140, Some(4), None),
            (150, Some(6), Some((4, 6))),
            (160, Some(7), Some((4, 7))),
            (170, Some(5), Some((7, 5))),
            (180, Some(8), None),
            (190, Some(8), Some((8, 8))),
            (200, Some(8), None),
            (299, None, None),
            (300, None, Some((8, 8))),
            (350, Some(10), Some((8, 10))),
            (360, Some(9), Some((10, 9))),
            (400, Some(11), None),
            (450, None, None),
            (500, None, Some((11, 11))),
            (600, None, None),
        ];
        let timers = [
            (10, Some(110)),
            (20, None),
            (30, Some(130)),
            (130, None),
            (140, Some(240)),
            (150, None),
            (180, Some(280)),
            (190, None),
            (200, Some(300)),
            (300, None),
            (400, Some(500)),
            (500, None),
        ];
        for (now, arrival, want) in steps {
            let mut out = SinkOutput::default();
            match arrival {
                Some(seq) => s.on_segment(t(now), &seg(seq, now), &mut out),
                None => s.on_timer(t(now), &mut out),
            }
            let got: Vec<(Seq, Seq)> = out.acks.iter().map(|a| (a.ack, a.echo_seq)).collect();
            assert_eq!(got, want.into_iter().collect::<Vec<_>>(), "at {now} ms");
            if let Some(&(_, timer)) = timers.iter().find(|(at, _)| *at == now) {
                assert_eq!(s.next_timer(), timer.map(t), "timer after {now} ms");
            }
        }
        assert_eq!(s.stats().acks_sent, 11);
        assert_eq!(s.stats().delayed_acks_by_timer, 3);
    }

    #[test]
    fn sack_delack_holds_in_order_and_sacks_out_of_order() {
        let mut s = TcpSink::new(SinkConfig {
            sack: true,
            delayed_ack: true,
            ..SinkConfig::default()
        });
        recv(&mut s, 0, 0);
        assert!(recv(&mut s, 1, 1).is_empty());
        assert_eq!(recv(&mut s, 3, 2), vec![(1, vec![(3, 4)])]);
        assert_eq!(recv(&mut s, 4, 3), vec![(1, vec![(3, 5)])]);
        assert_eq!(recv(&mut s, 2, 4), vec![(4, vec![])]);
    }

    #[test]
    fn delivered_packets_and_bytes_counted_once_when_in_order() {
        let mut s = plain();
        let mut out = SinkOutput::default();
        s.on_segment(t(0), &seg(0, 0), &mut out);
        assert_eq!((out.delivered_packets, out.delivered_bytes), (1, 0));
        out.clear();
        s.on_segment(t(1), &seg(2, 1), &mut out);
        s.on_segment(t(2), &seg(3, 2), &mut out);
        assert_eq!((out.delivered_packets, out.delivered_bytes), (0, 0));
        s.on_segment(t(3), &seg(3, 3), &mut out);
        assert_eq!((out.delivered_packets, out.delivered_bytes), (0, 0));
        let mut short = seg(1, 4);
        short.payload_bytes = 300;
        s.on_segment(t(4), &short, &mut out);
        assert_eq!((out.delivered_packets, out.delivered_bytes), (3, 2300));
        out.clear();
        s.on_segment(t(5), &seg(1, 5), &mut out);
        s.on_segment(t(6), &seg(2, 6), &mut out);
        assert_eq!((out.delivered_packets, out.delivered_bytes), (0, 0));
        assert_eq!(s.stats().delivered_bytes, 2300);
        assert_eq!(s.stats().delivered_packets, 4);
        assert_eq!(s.duplicate_packets(), 3);
        assert_eq!(s.next_expected(), 4);
    }

    #[test]
    fn has_received_covers_in_order_and_out_of_order_packets() {
        let mut sink = TcpSink::new(SinkConfig::default());
        let mut out = SinkOutput::default();
        for seq in [0, 1, 3] {
            sink.on_segment(SimTime::ZERO, &seg_for_has_received(seq), &mut out);
        }
        assert!(sink.has_received(0) && sink.has_received(1) && sink.has_received(3));
        assert!(!sink.has_received(2) && !sink.has_received(4) && !sink.has_received(-1));
    }

    fn seg_for_has_received(seq: Seq) -> DataSegment {
        DataSegment {
            seq,
            wire_bytes: 1040,
            payload_bytes: 1000,
            retransmission: false,
            cong_action: false,
            ecn: Default::default(),
            sent_at: SimTime::ZERO,
        }
    }

    /// ECN at the sink (ns-2 `TcpSink::ack`, RFC 3168 §6.1.3), one ACK per packet: the
    /// setup (packet 0: ECN-Echo, not ECN-capable) is echoed; a CE mark on an ECN-capable
    /// packet is echoed on every ACK until a packet carries CWR; CWR and CE on the same
    /// packet: the mark wins (ns-2 clears first, then sets); CE on a packet that is not
    /// ECN-capable is not echoed.
    #[test]
    fn ecn_echo_lasts_from_a_mark_until_the_sender_answers_with_cwr() {
        let mut s = plain();
        // (seq, ect, ce, cwr, ece expected)
        let steps = [
            (0, false, false, false, true),
            (1, true, false, false, false),
            (2, true, true, false, true),
            (3, true, false, false, true),
            (4, true, false, true, false),
            (5, true, true, true, true),
            (6, true, false, true, false),
            (7, false, true, false, false),
        ];
        for (seq, ect, ce, cwr, ece) in steps {
            let mut seg = seg(seq, 10 * seq as u64);
            seg.ecn = EcnFlags {
                ect,
                ce,
                ece: seq == 0,
            };
            seg.cong_action = cwr;
            let mut out = SinkOutput::default();
            s.on_segment(t(10 * seq as u64), &seg, &mut out);
            assert_eq!(out.acks.len(), 1);
            assert_eq!(out.acks[0].ecn.ece, ece, "ACK of {seq}");
            assert!(!out.acks[0].ecn.ect && !out.acks[0].ecn.ce);
        }
    }

    /// `ecn_syn` (ns-2 TCPSink `ecn_syn_`): the answer to the ECN setup, and only it, is
    /// ECN-capable; the ACKs of ECN-capable data are not (ns-2 sets `ect` on none of them).
    #[test]
    fn with_ecn_syn_only_the_answer_to_the_setup_is_ecn_capable() {
        for ecn_syn in [false, true] {
            let mut s = TcpSink::new(SinkConfig {
                ecn_syn,
                ..SinkConfig::default()
            });
            let mut out = SinkOutput::default();
            for seq in 0..3 {
                let mut d = seg(seq, 10 * seq as u64);
                d.ecn = EcnFlags {
                    ect: seq != 0,
                    ce: false,
                    ece: seq == 0,
                };
                s.on_segment(t(10 * seq as u64), &d, &mut out);
            }
            let bits: Vec<(bool, bool)> = out.acks.iter().map(|a| (a.ecn.ect, a.ecn.ece)).collect();
            assert_eq!(
                bits,
                [(ecn_syn, true), (false, false), (false, false)],
                "ecn_syn {ecn_syn}"
            );
        }
    }

    /// With delayed ACKs the ACK answers the held packet's bits too (ns-2 `save_`): a mark
    /// on the held packet is echoed by the ACK the next packet triggers.
    #[test]
    fn a_delayed_ack_echoes_the_mark_of_the_held_packet() {
        let mut s = delack();
        let ect = |seq: Seq, ce: bool| {
            let mut d = seg(seq, 0);
            d.ecn = EcnFlags {
                ect: seq != 0,
                ce,
                ece: seq == 0,
            };
            d
        };
        let mut out = SinkOutput::default();
        s.on_segment(t(0), &ect(0, false), &mut out);
        s.on_segment(t(10), &ect(1, true), &mut out);
        assert_eq!(out.acks.len(), 1, "packet 0 at once, packet 1 held");
        s.on_segment(t(20), &ect(2, false), &mut out);
        assert_eq!(out.acks.len(), 2);
        assert_eq!((out.acks[1].ack, out.acks[1].ecn.ece), (2, true));
    }
}
