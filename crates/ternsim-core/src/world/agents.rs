//! The world's side of the TCP agents and their applications: it hands each sender and sink
//! `now` and what arrived, turns the segments they produce into packets, keeps their timers
//! in the event queue, and records what the traces and metrics need.

use super::{Event, World};
use crate::net::packet::Payload;
use crate::sim::SimTime;
use crate::tcp::{AckSegment, DataSegment, TcpEvent};
use crate::trace::Cell;

impl World {
    pub(super) fn deliver_data(&mut self, now: SimTime, f: usize, seg: &DataSegment) {
        let flow = &mut self.flows[f];
        flow.stats
            .data_arrival(seg.wire_bytes, (now - seg.sent_at).as_secs_f64());
        if seg.retransmission {
            if flow.sink.has_received(seg.seq) {
                flow.stats.redundant_retransmissions += 1;
            }
        } else if let Some(i) = flow
            .stats
            .pending_timeouts
            .iter()
            .position(|&s| s == seg.seq)
        {
            // The original of a timed-out segment arrived: the timeout was spurious.
            flow.stats.pending_timeouts.swap_remove(i);
            flow.stats.spurious_timeouts += 1;
            if let Some(t) = self.traces.tcp_events.as_mut() {
                t.push(&[
                    Cell::F(now.as_secs_f64()),
                    Cell::I(f as i64),
                    Cell::S("spurious_timeout"),
                    Cell::I(seg.seq),
                ]);
            }
        }
        self.sink_out.clear();
        flow.sink.on_segment(now, seg, &mut self.sink_out);
        self.after_sink(now, f);
    }

    pub(super) fn deliver_ack(&mut self, now: SimTime, f: usize, ack: &AckSegment) {
        let flow = &mut self.flows[f];
        let syn_ack = ack.echo_seq == 0 && flow.spec.tcp.packet0_is_syn();
        if ack.ack > flow.sender.highest_ack() && !syn_ack {
            let rtt = (now - ack.echo_sent_at).as_secs_f64();
            flow.stats.rtt.add(rtt);
            if let Some(t) = self.traces.rtt.as_mut() {
                t.push(&[
                    Cell::F(now.as_secs_f64()),
                    Cell::I(f as i64),
                    Cell::I(ack.echo_seq),
                    Cell::F(rtt),
                ]);
            }
        }
        if let Some(t) = self.traces.acks.as_mut() {
            t.push(&[
                Cell::F(now.as_secs_f64()),
                Cell::I(f as i64),
                Cell::I(ack.ack),
                Cell::I(i64::from(ack.n_sack)),
            ]);
        }
        self.tcp_out.clear();
        flow.sender.on_ack(now, ack, &mut self.tcp_out);
        self.after_sender(now, f);
    }

    pub(super) fn on_app_write(&mut self, now: SimTime, f: usize) {
        let flow = &mut self.flows[f];
        let Some(writes) = flow.spec.app_trace.as_ref() else {
            return;
        };
        let write = writes[flow.next_write];
        flow.next_write += 1;
        if let Some(next) = writes.get(flow.next_write) {
            self.sched
                .schedule(flow.spec.start + next.at, Event::AppWrite(f as u32));
        }
        let more = flow
            .app_packets
            .write(write.bytes, flow.spec.tcp.packet_size);
        self.tcp_out.clear();
        flow.sender.add_app_packets(now, more, &mut self.tcp_out);
        self.after_sender(now, f);
    }

    pub(super) fn on_sender_timer(&mut self, now: SimTime, f: usize) {
        let flow = &mut self.flows[f];
        flow.sender_wake.fired(now);
        if flow.sender.next_timer().is_some_and(|t| t <= now) {
            self.tcp_out.clear();
            flow.sender.on_timer(now, &mut self.tcp_out);
            self.after_sender(now, f);
        } else {
            self.arm_sender(f);
        }
    }

    pub(super) fn on_sink_timer(&mut self, now: SimTime, f: usize) {
        let flow = &mut self.flows[f];
        flow.sink_wake.fired(now);
        if flow.sink.next_timer().is_some_and(|t| t <= now) {
            self.sink_out.clear();
            flow.sink.on_timer(now, &mut self.sink_out);
            self.after_sink(now, f);
        } else {
            self.arm_sink(f);
        }
    }

    fn arm_sender(&mut self, f: usize) {
        let flow = &mut self.flows[f];
        flow.sender_wake.request(
            &mut self.sched,
            flow.sender.next_timer(),
            Event::SenderTimer(f as u32),
        );
    }

    fn arm_sink(&mut self, f: usize) {
        let flow = &mut self.flows[f];
        flow.sink_wake.request(
            &mut self.sched,
            flow.sink.next_timer(),
            Event::SinkTimer(f as u32),
        );
    }

    /// Routes what the sender produced during the last call.
    pub(super) fn after_sender(&mut self, now: SimTime, f: usize) {
        let (src, dst) = (self.flows[f].spec.src, self.flows[f].spec.dst);
        let cwnd = self.flows[f].sender.cwnd();
        self.flows[f].stats.cwnd_now(now, cwnd);
        let segments = std::mem::take(&mut self.tcp_out.segments);
        for seg in &segments {
            if let Some(t) = self.traces.segments.as_mut() {
                t.push(&[
                    Cell::F(now.as_secs_f64()),
                    Cell::I(f as i64),
                    Cell::I(seg.seq),
                    Cell::I(i64::from(seg.wire_bytes)),
                    Cell::B(seg.retransmission),
                ]);
            }
            let p = self.new_packet(now, f, src, dst, seg.wire_bytes, Payload::TcpData(*seg));
            self.forward(now, src, p);
        }
        self.tcp_out.segments = segments;
        if !self.tcp_out.events.is_empty() {
            let events = std::mem::take(&mut self.tcp_out.events);
            for e in &events {
                self.trace_tcp_event(now, f, e);
            }
            self.tcp_out.events = events;
        }
        self.arm_sender(f);
    }

    fn trace_tcp_event(&mut self, now: SimTime, f: usize, e: &TcpEvent) {
        let t = now.as_secs_f64();
        let fi = f as i64;
        match *e {
            TcpEvent::Window {
                cwnd,
                ssthresh,
                dupwnd,
            } => {
                if let Some(tb) = self.traces.cwnd.as_mut() {
                    tb.push(&[
                        Cell::F(t),
                        Cell::I(fi),
                        Cell::F(cwnd),
                        Cell::F(ssthresh),
                        Cell::I(dupwnd),
                    ]);
                }
            }
            TcpEvent::Rto {
                srtt_s,
                rttvar_s,
                rto_s,
            } => {
                if let Some(tb) = self.traces.rto.as_mut() {
                    tb.push(&[
                        Cell::F(t),
                        Cell::I(fi),
                        Cell::F(srtt_s),
                        Cell::F(rttvar_s),
                        Cell::F(rto_s),
                    ]);
                }
            }
            TcpEvent::Timeout { seq } => {
                if let Some(tb) = self.traces.tcp_events.as_mut() {
                    tb.push(&[Cell::F(t), Cell::I(fi), Cell::S("timeout"), Cell::I(seq)]);
                }
                let flow = &mut self.flows[f];
                if flow.sink.has_received(seq) {
                    flow.stats.spurious_timeouts += 1;
                    if let Some(tb) = self.traces.tcp_events.as_mut() {
                        tb.push(&[
                            Cell::F(t),
                            Cell::I(fi),
                            Cell::S("spurious_timeout"),
                            Cell::I(seq),
                        ]);
                    }
                } else if !flow.stats.pending_timeouts.contains(&seq) {
                    flow.stats.pending_timeouts.push(seq);
                }
            }
            TcpEvent::FastRetransmit { seq } => {
                if let Some(tb) = self.traces.tcp_events.as_mut() {
                    tb.push(&[
                        Cell::F(t),
                        Cell::I(fi),
                        Cell::S("fast_retransmit"),
                        Cell::I(seq),
                    ]);
                }
            }
            TcpEvent::RttSample { .. } => {}
        }
    }

    /// Routes what the sink produced during the last call.
    fn after_sink(&mut self, now: SimTime, f: usize) {
        let (src, dst) = (self.flows[f].spec.src, self.flows[f].spec.dst);
        {
            let flow = &mut self.flows[f];
            flow.stats.delivered_bytes += self.sink_out.delivered_bytes;
            if let Some(total) = flow.spec.app_bytes {
                if flow.stats.completed_at.is_none() && flow.stats.delivered_bytes >= total {
                    flow.stats.completed_at = Some(now);
                }
            }
        }
        let acks = std::mem::take(&mut self.sink_out.acks);
        for ack in &acks {
            let p = self.new_packet(now, f, dst, src, ack.wire_bytes, Payload::TcpAck(*ack));
            self.forward(now, dst, p);
        }
        self.sink_out.acks = acks;
        self.arm_sink(f);
    }
}
