//! The DCF rules of one station, as ns-2's `Mac802_11` applies them (link-spec §3.3; IEEE
//! 802.11-1999 §9.2). Each method is one of ns-2's handlers, under the protocol's name, run
//! at an effective time `t` (the instant the rule applies; the world's clock may be up to one
//! propagation delay later when a reception is settled, see `channel.rs`).
//!
//! ns-2 specifics kept on purpose (link-spec §8 item 10): the backoff is drawn in
//! [0, cw − 1] and always drawn, even on an idle medium; a backoff that expires on a busy
//! medium doubles CW and draws again; a frame with errors or a collision sets NAV = EIFS
//! and the backoff then resumes after a further DIFS; CW goes 31, 63, … (2·cw + 1).

use crate::net::addr::Addr;
use crate::net::iface::{IfaceOutput, TxFailure, TxFailureCause};
use crate::net::packet::DropReason;
use crate::wifi::backoff::Backoff;
use crate::wifi::channel::{
    Arp, Ctrl, Frame, FrameKind, PendingData, TxState, WifiChannel, BACKOFF, DEFER, SEND,
};
use crate::wifi::config::ARP_BYTES;
use crate::wifi::ifq::Queued;
use crate::wifi::mac_log::{MacFrameKind, MacLogEntry};

impl WifiChannel {
    /// Medium idle ⇔ not receiving (see `Station::receiving`: a frame arriving at `t` itself
    /// is not yet sensed), not in a frame exchange, NAV expired (ns-2 `is_idle`).
    pub(super) fn is_idle(&self, s: usize, t: u64) -> bool {
        let st = &self.st[s];
        !st.receiving(t) && st.tx_state == TxState::Idle && st.nav <= t
    }

    fn needs_rts(&self, d: &PendingData) -> bool {
        !d.broadcast() && self.t.data_frame_bytes(d.ip_bytes) >= self.cfg.rts_threshold
    }

    fn inc_cw(&mut self, s: usize) {
        let st = &mut self.st[s];
        st.cw = (2 * st.cw + 1).min(self.cfg.cw_max);
    }

    /// ns-2 `send` on an idle medium and `tx_resume` with a frame waiting: with
    /// `bug_fix_timer` the backoff timer (DIFS + backoff, frozen while the medium is busy);
    /// without it the defer timer, DIFS + `random() % cw` slots whatever the medium does.
    fn resume_contention(&mut self, s: usize, t: u64, idle: bool, out: &mut IfaceOutput) {
        let difs = self.t.difs;
        if self.cfg.bug_fix_timer {
            self.start_backoff(s, t, idle, difs);
            return;
        }
        let st = &mut self.st[s];
        let slots = match st.forced_backoff.pop_front() {
            Some(slots) => slots,
            None => st.rng.below(u64::from(st.cw)),
        };
        let at = t + difs + slots * self.t.slot;
        self.arm(s, DEFER, at, out);
    }

    fn start_backoff(&mut self, s: usize, t: u64, idle: bool, difs: u64) {
        let slot = self.t.slot;
        let st = &mut self.st[s];
        match st.forced_backoff.pop_front() {
            Some(slots) => {
                st.backoff = if idle {
                    Backoff::Running {
                        stime: t,
                        difs_wait: difs,
                        rtime: slots * slot,
                    }
                } else {
                    Backoff::Paused {
                        rtime: slots * slot,
                    }
                }
            }
            None => {
                st.backoff.start(t, st.cw, idle, difs, slot, &mut st.rng);
            }
        }
    }

    /// ns-2 `checkBackoffTimer`, run whenever the medium may have changed state: freeze a
    /// counting backoff on a busy medium, resume a frozen one after DIFS on an idle medium.
    ///
    /// ns-2 resumes a backoff frozen only by the NAV when the NAV timer fires. Here that
    /// resumption is written down at once as a backoff that starts counting its DIFS at the
    /// NAV's end: the same deadline, without a wake-up at NAV expiry; a frame arriving before
    /// then freezes it with no slot counted, exactly as it would have frozen the paused one.
    ///
    /// Most calls find no backoff at all, where the medium's state changes nothing but the
    /// (already absent) deadline: that case is answered inline, and the rest is a call, so
    /// that the common case does not save and restore the registers the rest needs.
    #[inline]
    pub(super) fn check_backoff(&mut self, s: usize, t: u64, out: &mut IfaceOutput) {
        if self.st[s].backoff == Backoff::Off {
            self.disarm(s, BACKOFF);
            return;
        }
        self.check_running_backoff(s, t, out);
    }

    /// [`Self::check_backoff`] of a station whose backoff is paused or counting.
    #[inline(never)]
    fn check_running_backoff(&mut self, s: usize, t: u64, out: &mut IfaceOutput) {
        let (slot, difs) = (self.t.slot, self.t.difs);
        let st = &mut self.st[s];
        let busy = st.receiving(t) || st.tx_state != TxState::Idle;
        if busy {
            if st.backoff.deadline().is_some_and(|d| d > t) {
                st.backoff.pause(t, slot);
            }
        } else if st.backoff.is_paused() {
            st.backoff.resume(t.max(st.nav), difs);
        } else if let Backoff::Running { stime, .. } = st.backoff {
            if st.nav > t && st.nav > stime {
                // The NAV grew while counting: freeze now, count again after it.
                st.backoff.pause(t, slot);
                st.backoff.resume(st.nav, difs);
            }
        }
        // A reception known to start now or later freezes the backoff then, unless the
        // backoff expires first or at that very instant (see `is_idle`).
        if let (Some(d), Some(rx)) = (st.backoff.deadline(), st.rx) {
            if rx.start >= t && d > rx.start {
                st.backoff.pause(rx.start, slot);
            }
        }
        match st.backoff.deadline() {
            Some(d) => self.arm(s, BACKOFF, d, out),
            None => self.disarm(s, BACKOFF),
        }
    }

    /// A packet from the queue enters the MAC (ns-2 `Mac802_11::send`): build DATA (and RTS),
    /// number it, and start a backoff (after DIFS if the medium is idle).
    pub(super) fn mac_send(&mut self, s: usize, t: u64, q: Queued, out: &mut IfaceOutput) {
        let d = PendingData {
            ip_bytes: q.packet.size,
            packet: Some(q.packet),
            next_hop: q.next_hop,
            seq: 0,
            retry: false,
            arp: None,
            delivered_copy: None,
        };
        self.mac_send_pending(s, t, d, out);
    }

    /// An ARP frame enters the MAC: a DATA frame of 28 octets to `ra` (broadcast for a
    /// request), sent like any DATA frame (basic rate when broadcast, RTS/CTS and ACK when
    /// unicast).
    pub(super) fn mac_send_arp(
        &mut self,
        s: usize,
        t: u64,
        ra: Addr,
        msg: Arp,
        out: &mut IfaceOutput,
    ) {
        let d = PendingData {
            ip_bytes: ARP_BYTES,
            packet: None,
            next_hop: ra,
            seq: 0,
            retry: false,
            arp: Some(msg),
            delivered_copy: None,
        };
        self.mac_send_pending(s, t, d, out);
    }

    fn mac_send_pending(&mut self, s: usize, t: u64, mut d: PendingData, out: &mut IfaceOutput) {
        let st = &mut self.st[s];
        d.seq = st.seqno;
        st.seqno = st.seqno.wrapping_add(1);
        self.st[s].pkt_rts = self.needs_rts(&d);
        self.st[s].pkt_tx = Some(d);
        if !self.st[s].backoff.is_busy() {
            if self.is_idle(s, t) {
                if self.st[s].timers[DEFER].is_none() {
                    self.resume_contention(s, t, true, out);
                }
            } else {
                self.start_backoff(s, t, false, 0);
            }
        }
        self.check_backoff(s, t, out);
    }

    /// ns-2 `tx_resume`: after any exchange step, decide what the MAC does next.
    pub(super) fn tx_resume(&mut self, s: usize, t: u64, out: &mut IfaceOutput) {
        let idle = self.is_idle(s, t);
        if self.st[s].pkt_ctrl.is_some() {
            self.arm(s, DEFER, t + self.t.sifs, out);
        } else if self.st[s].pkt_rts {
            if !self.st[s].backoff.is_busy() {
                self.resume_contention(s, t, idle, out);
            }
        } else if let Some(d) = self.st[s].pkt_tx.as_ref() {
            if !self.st[s].backoff.is_busy() {
                let below = self.t.data_frame_bytes(d.ip_bytes) < self.cfg.rts_threshold;
                if below || d.broadcast() {
                    self.resume_contention(s, t, idle, out);
                } else {
                    // CTS received: DATA follows after SIFS.
                    self.arm(s, DEFER, t + self.t.sifs, out);
                }
            }
        } else if self.st[s].holding && self.st[s].awaiting_routing.is_none() {
            // After a transmit failure the pull waits for routing's answer
            // (`resume_after_tx_failure`).
            self.pull(s, t, out);
        }
        self.st[s].tx_state = TxState::Idle;
        self.check_backoff(s, t, out);
    }

    /// ns-2 `backoffHandler` (link-spec §3.3 rule 4).
    pub(super) fn backoff_expired(&mut self, s: usize, t: u64, out: &mut IfaceOutput) {
        self.st[s].backoff = Backoff::Off;
        if self.st[s].pkt_ctrl.is_some() {
            return;
        }
        if self.check_pkt_rts(s, t, out) {
            return;
        }
        self.check_pkt_tx(s, t, out);
    }

    /// ns-2 `deferHandler`: SIFS elapsed, send the CTS/ACK, or DATA after a CTS.
    pub(super) fn defer_expired(&mut self, s: usize, t: u64, out: &mut IfaceOutput) {
        if self.check_pkt_ctrl(s, t, out) {
            return;
        }
        if self.check_pkt_rts(s, t, out) {
            return;
        }
        self.check_pkt_tx(s, t, out);
    }

    fn check_pkt_ctrl(&mut self, s: usize, t: u64, out: &mut IfaceOutput) -> bool {
        let Some(ctrl) = self.st[s].pkt_ctrl else {
            return false;
        };
        if matches!(self.st[s].tx_state, TxState::Cts | TxState::Ack) {
            return false;
        }
        match ctrl {
            Ctrl::Cts { dst, duration_us } => {
                // A CTS is not sent on a busy medium.
                if !self.is_idle(s, t) {
                    self.st[s].pkt_ctrl = None;
                    return true;
                }
                self.st[s].tx_state = TxState::Cts;
                self.st[s].stats.cts_sent += 1;
                let f = self.control_frame(FrameKind::Cts, s, dst, duration_us, self.t.cts);
                let timeout = self.t.data_timeout(duration_us);
                self.transmit(s, t, f, timeout, out);
            }
            Ctrl::Ack { dst } => {
                // IEEE 802.11 §9.2.8: ACK after SIFS regardless of the medium.
                self.st[s].tx_state = TxState::Ack;
                self.st[s].stats.ack_sent += 1;
                let f = self.control_frame(FrameKind::Ack, s, dst, 0, self.t.ack);
                let timeout = self.t.ack;
                self.transmit(s, t, f, timeout, out);
            }
        }
        true
    }

    fn control_frame(&self, kind: FrameKind, s: usize, dst: u16, dur: u64, air: u64) -> Frame {
        Frame {
            kind,
            src: s as u16,
            ra: self.st[usize::from(dst)].addr,
            duration_us: dur,
            seq: 0,
            ip_bytes: 0,
            air,
            receivers: Vec::new(),
            deliver: Vec::new(),
            overhear: Vec::new(),
            payload: None,
            arp: None,
            end_at: 0,
        }
    }

    /// ns-2 `check_pktRTS`: send the RTS if the medium is idle, else double CW and back off.
    fn check_pkt_rts(&mut self, s: usize, t: u64, out: &mut IfaceOutput) -> bool {
        if !self.st[s].pkt_rts {
            return false;
        }
        if !self.is_idle(s, t) {
            self.inc_cw(s);
            self.start_backoff(s, t, false, 0);
            self.check_backoff(s, t, out);
            return true;
        }
        let d = self.st[s].pkt_tx.as_ref().expect("RTS without DATA");
        let data_air = self.t.data(d.ip_bytes, false);
        let f = Frame {
            kind: FrameKind::Rts,
            src: s as u16,
            ra: d.next_hop,
            duration_us: self.t.rts_duration_us(data_air),
            seq: 0,
            ip_bytes: 0,
            air: self.t.rts,
            receivers: Vec::new(),
            deliver: Vec::new(),
            overhear: Vec::new(),
            payload: None,
            arp: None,
            end_at: 0,
        };
        self.st[s].tx_state = TxState::Rts;
        self.st[s].stats.rts_sent += 1;
        let timeout = self.t.cts_timeout();
        self.transmit(s, t, f, timeout, out);
        true
    }

    /// ns-2 `check_pktTx`: send DATA if the medium is idle, else (re-create the RTS,) double
    /// CW and back off.
    fn check_pkt_tx(&mut self, s: usize, t: u64, out: &mut IfaceOutput) -> bool {
        let Some(d) = self.st[s].pkt_tx.as_ref() else {
            return false;
        };
        if !self.is_idle(s, t) {
            let rts = self.needs_rts(d);
            self.st[s].pkt_rts = rts;
            self.inc_cw(s);
            self.start_backoff(s, t, false, 0);
            self.check_backoff(s, t, out);
            return true;
        }
        let broadcast = d.broadcast();
        let air = self.t.data(d.ip_bytes, broadcast);
        let (ip_bytes, seq, retry) = (d.ip_bytes, d.seq, d.retry);
        let (duration_us, timeout) = if broadcast {
            (0, air)
        } else {
            (self.t.data_duration_us(), self.t.ack_timeout(air))
        };
        let payload = if broadcast {
            self.st[s].pkt_tx.as_mut().expect("checked").packet.take()
        } else {
            None
        };
        let f = Frame {
            kind: FrameKind::Data,
            src: s as u16,
            ra: self.st[s].pkt_tx.as_ref().expect("checked").next_hop,
            duration_us,
            seq,
            ip_bytes,
            air,
            receivers: Vec::new(),
            deliver: Vec::new(),
            overhear: Vec::new(),
            payload,
            arp: self.st[s].pkt_tx.as_ref().expect("checked").arp,
            end_at: 0,
        };
        let st = &mut self.st[s];
        st.tx_state = TxState::Send;
        match f.arp {
            // ARP frames are not IP traffic: counted apart, first transmissions only.
            Some(Arp::Request { .. }) => st.stats.arp_requests += u64::from(!retry),
            Some(Arp::Reply) => st.stats.arp_replies += u64::from(!retry),
            None => {
                st.stats.data_sent += 1;
                st.stats.data_bytes += u64::from(ip_bytes);
                if retry {
                    st.stats.data_retransmitted += 1;
                }
            }
        }
        self.transmit(s, t, f, timeout, out);
        true
    }

    /// ns-2 `send_timer`: the awaited CTS/DATA/ACK did not come, or our ACK/broadcast ended.
    pub(super) fn send_timer(&mut self, s: usize, t: u64, out: &mut IfaceOutput) {
        match self.st[s].tx_state {
            TxState::Rts => self.retransmit_rts(s, t, out),
            TxState::Cts | TxState::Ack => self.st[s].pkt_ctrl = None,
            TxState::Send => self.retransmit_data(s, t, out),
            TxState::Idle => {}
        }
        self.tx_resume(s, t, out);
    }

    /// link-spec §3.3 rule 5: no CTS. Short retry + 1; at the limit give the packet back.
    fn retransmit_rts(&mut self, s: usize, t: u64, out: &mut IfaceOutput) {
        self.st[s].stats.cts_timeouts += 1;
        self.st[s].ssrc += 1;
        if self.st[s].ssrc >= self.cfg.short_retry_limit {
            self.st[s].pkt_rts = false;
            // ns-2 `RetransmitRTS` drops the RTS, then the DATA (`fail`).
            if let Some(line) = self.given_up_line(s, t, true) {
                self.mac_log.push(line);
            }
            self.fail(s, t, out);
            self.st[s].ssrc = 0;
            self.st[s].cw = self.cfg.cw_min;
        } else {
            self.inc_cw(s);
            let idle = self.is_idle(s, t);
            self.start_backoff(s, t, idle, 0);
        }
    }

    /// link-spec §3.3 rules 6-7: no ACK (or a broadcast ended).
    fn retransmit_data(&mut self, s: usize, t: u64, out: &mut IfaceOutput) {
        let d = self.st[s].pkt_tx.as_ref().expect("DATA outstanding");
        let (broadcast, ip_bytes) = (d.broadcast(), d.ip_bytes);
        if broadcast {
            // Never retransmitted: reset CW and back off.
            self.st[s].pkt_tx = None;
            self.st[s].cw = self.cfg.cw_min;
            let idle = self.is_idle(s, t);
            self.start_backoff(s, t, idle, 0);
            return;
        }
        self.st[s].stats.ack_timeouts += 1;
        let short = self.t.data_frame_bytes(ip_bytes) <= self.cfg.rts_threshold;
        let (count, limit) = if short {
            (&mut self.st[s].ssrc, self.cfg.short_retry_limit)
        } else {
            (&mut self.st[s].slrc, self.cfg.long_retry_limit)
        };
        *count += 1;
        if *count >= limit {
            *count = 0;
            self.fail(s, t, out);
            self.st[s].cw = self.cfg.cw_min;
        } else {
            let d = self.st[s].pkt_tx.as_mut().expect("DATA outstanding");
            d.retry = true;
            let rts = self.needs_rts(self.st[s].pkt_tx.as_ref().expect("DATA outstanding"));
            self.st[s].pkt_rts = rts;
            self.inc_cw(s);
            let idle = self.is_idle(s, t);
            self.start_backoff(s, t, idle, 0);
        }
    }

    /// Retry limit reached (link-spec §3.3 rule 11): the packet goes back to routing as a
    /// transmit failure. What is queued for the same next hop stays, unless routing takes
    /// it out (`purge_queued`, `reclaim_queued`) before the MAC resumes.
    fn fail(&mut self, s: usize, t: u64, out: &mut IfaceOutput) {
        let given_up = self.given_up_line(s, t, false);
        let d = self.st[s].pkt_tx.take().expect("DATA outstanding");
        if d.arp.is_some() {
            // An ARP reply: nothing to hand back (ns-2 drops it).
            self.mac_log.extend(given_up);
            return;
        }
        self.st[s].stats.drops_retry_limit += 1;
        if d.packet.is_none() {
            self.st[s].stats.failures_after_delivery += 1;
            if let Some(copy) = &d.delivered_copy {
                // A second packet now lives: the addressee's and this one.
                out.copies[copy.kind().index()] += 1;
            }
        }
        // ns-2 hands routing the packet whether or not the addressee already decoded it
        // (only the ACKs lost): the MAC cannot tell, and DSR or AODV then treat the link
        // as broken all the same.
        if let Some(packet) = d.packet.or(d.delivered_copy) {
            out.tx_failures.push(TxFailure {
                port: s as u16,
                next_hop: d.next_hop,
                packet,
                cause: TxFailureCause::RetryLimit,
            });
            // ns-2 calls routing back here, before `tx_resume` pulls the queue.
            self.st[s].awaiting_routing = Some(self.st[s].tx_state);
            // ... and before it discards the DATA (`RetransmitRTS`/`RetransmitDATA`: the
            // callback, then `discard`), so the `D RET` line follows whatever routing
            // traces of the failure (DSDV's and AODV's `CBK` drop, DSR's route error):
            // `resume_after_tx_failure` logs it.
            self.st[s].given_up_line = given_up;
        } else {
            self.mac_log.extend(given_up);
        }
    }

    /// The MAC trace's `D RET` line of the outstanding RTS (`rts`) or DATA frame at station
    /// `s`, when the retry limit gives it up (`None` with the MAC trace off). The frame is no
    /// longer on the air, so the line is built from the outstanding DATA; ns-2 traces the
    /// DATA after taking its MAC header off (the IP size) and the RTS whole.
    fn given_up_line(&self, s: usize, t: u64, rts: bool) -> Option<MacLogEntry> {
        if !self.trace_mac {
            return None;
        }
        let d = self.st[s].pkt_tx.as_ref().expect("DATA outstanding");
        let kind = if rts {
            MacFrameKind::Rts
        } else {
            MacFrameKind::of(FrameKind::Data, d.arp, d.next_hop)
        };
        let data_air = self.t.data(d.ip_bytes, false);
        let (bytes, duration_us) = if rts {
            (
                self.frame_trace_bytes(FrameKind::Rts, 0, false),
                self.t.rts_duration_us(data_air),
            )
        } else {
            (d.ip_bytes, self.t.data_duration_us())
        };
        let entry = MacLogEntry {
            time: t,
            port: s as u16,
            event: 'D',
            reason: "RET",
            layer: "MAC",
            kind,
            bytes,
            duration_us,
            ra: d.next_hop,
            ta: Some(self.st[s].addr),
            packet: if rts {
                None
            } else {
                d.packet.clone().or_else(|| d.delivered_copy.clone())
            },
        };
        Some(entry)
    }

    // ------------------------------------------------------------------------------------
    // Frames addressed to this station (link-spec §3.3 rule 8).

    /// ns-2 `recvRTS`: answer with a CTS after SIFS unless busy with another exchange.
    pub(super) fn recv_rts(
        &mut self,
        r: usize,
        src: usize,
        rts_dur: u64,
        fid: usize,
        t: u64,
        out: &mut IfaceOutput,
    ) {
        if self.st[r].tx_state != TxState::Idle || self.st[r].pkt_ctrl.is_some() {
            self.log_frame(t, r, 'D', "BSY", fid, false);
            return;
        }
        self.st[r].pkt_ctrl = Some(Ctrl::Cts {
            dst: src as u16,
            duration_us: self.t.cts_duration_us(rts_dur),
        });
        self.disarm(r, DEFER);
        self.tx_resume(r, t, out);
        self.log_frame(t, r, 'r', "---", fid, false);
    }

    /// ns-2 `recvCTS`: reset the short retry count (not CW), DATA after SIFS.
    pub(super) fn recv_cts(&mut self, r: usize, fid: usize, t: u64, out: &mut IfaceOutput) {
        if self.st[r].tx_state != TxState::Rts {
            self.log_frame(t, r, 'D', "STA", fid, false);
            return;
        }
        self.st[r].pkt_rts = false;
        self.disarm(r, SEND);
        self.st[r].ssrc = 0;
        self.tx_resume(r, t, out);
        self.log_frame(t, r, 'r', "---", fid, false);
    }

    /// ns-2 `recvDATA`: ACK after SIFS (unicast), duplicate filter by per-source sequence
    /// number, then up to the node.
    pub(super) fn recv_data(&mut self, r: usize, fid: usize, t: u64, out: &mut IfaceOutput) {
        let f = self.frames[fid].as_ref().expect("frame on air");
        let (src, seq, ip_bytes, ra) = (f.src, f.seq, f.ip_bytes, f.ra);
        if !ra.is_broadcast() {
            if self.t.data_frame_bytes(ip_bytes) >= self.cfg.rts_threshold {
                if self.st[r].tx_state == TxState::Cts {
                    self.st[r].pkt_ctrl = None;
                    self.disarm(r, SEND);
                } else {
                    self.log_frame(t, r, 'D', "BSY", fid, false); // DATA without our CTS
                    return;
                }
                self.st[r].pkt_ctrl = Some(Ctrl::Ack { dst: src });
                self.tx_resume(r, t, out);
            } else {
                if self.st[r].pkt_ctrl.is_some() {
                    self.log_frame(t, r, 'D', "BSY", fid, false);
                    return;
                }
                self.st[r].pkt_ctrl = Some(Ctrl::Ack { dst: src });
                if self.st[r].timers[SEND].is_none() {
                    self.tx_resume(r, t, out);
                }
            }
            // ns-2 keeps 0 as "nothing seen yet".
            let last = self.st[r].last_seq.insert(src, seq);
            if seq != 0 && last == Some(seq) {
                self.st[r].stats.duplicates += 1;
                self.log_frame(t, r, 'D', "DUP", fid, false);
                return;
            }
        }
        self.log_frame(t, r, 'r', "---", fid, true);
        let f = self.frames[fid].as_mut().expect("frame on air");
        if f.deliver.capacity() == 0 {
            f.deliver = self.spare_lists.pop().unwrap_or_default();
        }
        f.deliver.push((r as u16, t));
    }

    /// ns-2 `recvACK`: success. Reset the retry count and CW, post-backoff, next packet.
    pub(super) fn recv_ack(&mut self, r: usize, fid: usize, t: u64, out: &mut IfaceOutput) {
        if self.st[r].tx_state != TxState::Send {
            self.log_frame(t, r, 'D', "STA", fid, false);
            return;
        }
        self.log_frame(t, r, 'r', "---", fid, false);
        self.disarm(r, SEND);
        let d = self.st[r].pkt_tx.take().expect("DATA outstanding");
        if self.t.data_frame_bytes(d.ip_bytes) <= self.cfg.rts_threshold {
            self.st[r].ssrc = 0;
        } else {
            self.st[r].slrc = 0;
        }
        self.st[r].cw = self.cfg.cw_min;
        if let Some(p) = d.packet {
            // The addressee always takes the packet before its ACK can come back.
            debug_assert!(false, "ACK for a packet the addressee did not take");
            out.drops.push((p, DropReason::LinkFailure));
        }
        if let Some(copy) = d.delivered_copy {
            self.recycle(copy);
        }
        let idle = self.is_idle(r, t);
        self.start_backoff(r, t, idle, 0);
        self.tx_resume(r, t, out);
    }
}
