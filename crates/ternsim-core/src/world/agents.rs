//! The world's side of the TCP agents and their applications: it hands each sender and sink
//! `now` and what arrived, turns the segments they produce into packets, keeps their timers
//! in the event queue, and records what the traces and metrics need.

use super::{AgentSide, Event, FlowAgents, TcpAgents, World};
use crate::net::packet::{Payload, Ports};
use crate::scenario::FlowTransport;
use crate::sim::SimTime;
use crate::tcp::{AckSegment, DataSegment, TcpEvent};

/// The TCP agents of a flow, split from its statistics so both can be borrowed at once.
fn split(flow: &mut super::FlowRuntime) -> (&mut TcpAgents, &mut crate::trace::FlowStats) {
    match &mut flow.agents {
        FlowAgents::Tcp(t) => (t, &mut flow.stats),
        FlowAgents::Udp(_) | FlowAgents::Ping(_) | FlowAgents::Full(_) => {
            unreachable!("flow {} is not one-way TCP", flow.spec.name)
        }
    }
}

impl World {
    fn tcp_mut(&mut self, f: usize) -> &mut TcpAgents {
        split(&mut self.flows[f]).0
    }

    pub(super) fn start_flow(&mut self, now: SimTime, f: usize) {
        match self.flows[f].agents {
            FlowAgents::Udp(_) => return self.start_udp(now, f),
            FlowAgents::Ping(_) => return self.start_ping(now, f),
            FlowAgents::Full(_) => return self.start_full(now, f),
            FlowAgents::Tcp(_) => {}
        }
        let t = split(&mut self.flows[f]).0;
        if t.telnet.is_some() {
            return self.start_telnet(now, f);
        }
        if t.running {
            return;
        }
        t.running = true;
        self.tcp_out.clear();
        if t.started {
            // Started again after a stop: ns-2's FTP `start` is `send -1` (`curseq_` =
            // TCP_MAXSEQ, then `send_much`), so the transfer goes on without limit.
            t.sender.resume(now, &mut self.tcp_out);
        } else {
            t.started = true;
            t.sender.start(now, &mut self.tcp_out);
        }
        self.after_sender(now, f);
    }

    /// ns-2 FTP `produce N` / `producemore N` on one-way TCP flow `f` (`more`): the
    /// application's offer changes and the sender sends what its window allows. A flow not
    /// yet started is started by it (its sender's first `send_much`).
    pub(super) fn produce_flow(&mut self, now: SimTime, f: usize, packets: u64, more: bool) {
        if !matches!(self.flows[f].agents, FlowAgents::Tcp(_)) {
            return;
        }
        let t = split(&mut self.flows[f]).0;
        t.started = true;
        t.running = true;
        self.tcp_out.clear();
        t.sender.produce(now, packets, more, &mut self.tcp_out);
        self.after_sender(now, f);
    }

    /// The host changed flow `f`'s receiver window during the run.
    pub(super) fn set_tcp_window(&mut self, f: usize, window: u32) {
        split(&mut self.flows[f]).0.sender.set_window(window);
    }

    pub(super) fn stop_flow(&mut self, f: usize) {
        match &mut self.flows[f].agents {
            // A Telnet application stops its timer (it keeps its own running state); what it
            // handed the agent still goes.
            FlowAgents::Tcp(t) if t.telnet.is_some() => {
                if let Some((telnet, _)) = t.telnet.as_mut() {
                    telnet.stop();
                }
            }
            // A stop before any start changes nothing: the first start offers the flow's
            // data as configured (ns-2's FTP `start` offers unlimited data whatever a stop
            // before it did).
            FlowAgents::Tcp(t) if !t.started => {}
            FlowAgents::Tcp(t) => {
                t.running = false;
                t.sender.stop_new_data();
            }
            FlowAgents::Udp(_) => self.stop_udp(f),
            FlowAgents::Ping(_) => self.stop_ping(f),
            // FTP `stop` on a FullTcp agent closes the connection; the front end refuses
            // it, and a scenario's stop leaves a FullTcp flow running.
            FlowAgents::Full(_) => {}
        }
    }

    pub(super) fn deliver_data(&mut self, now: SimTime, f: usize, seg: &DataSegment) {
        let (tcp, stats) = split(&mut self.flows[f]);
        stats.data_arrival(now, seg.wire_bytes, (now - seg.sent_at).as_secs_f64());
        if seg.retransmission {
            if tcp.sink.has_received(seg.seq) {
                stats.redundant_retransmissions += 1;
            }
        } else if let Some(i) = stats.pending_timeouts.iter().position(|&s| s == seg.seq) {
            // The original of a timed-out segment arrived: the timeout was spurious.
            stats.pending_timeouts.swap_remove(i);
            stats.spurious_timeouts += 1;
            if let Some(t) = self.traces.tcp_events.as_mut() {
                t.push(now.as_secs_f64(), f as i64, "spurious_timeout", seg.seq);
            }
        }
        self.sink_out.clear();
        tcp.sink.on_segment(now, seg, &mut self.sink_out);
        self.after_sink(now, f);
    }

    pub(super) fn deliver_ack(&mut self, now: SimTime, f: usize, ack: &AckSegment) {
        let syn = self.flows[f].spec.tcp().is_some_and(|c| c.packet0_is_syn());
        let (tcp, stats) = split(&mut self.flows[f]);
        let syn_ack = ack.echo_seq == 0 && syn;
        if ack.ack > tcp.sender.highest_ack() && !syn_ack {
            let rtt = (now - ack.echo_sent_at).as_secs_f64();
            stats.rtt.add(rtt);
            if let Some(t) = self.traces.rtt.as_mut() {
                t.push(now.as_secs_f64(), f as i64, ack.echo_seq, rtt);
            }
        }
        if let Some(t) = self.traces.acks.as_mut() {
            t.push(now.as_secs_f64(), f as i64, ack.ack, i64::from(ack.n_sack));
        }
        if stats.last_ack_received == Some(ack.ack) {
            stats.dup_acks_received += 1;
        }
        stats.last_ack_received = Some(ack.ack);
        self.tcp_out.clear();
        tcp.sender.on_ack(now, ack, &mut self.tcp_out);
        self.after_sender(now, f);
    }

    pub(super) fn on_app_write(&mut self, now: SimTime, f: usize) {
        if matches!(self.flows[f].agents, FlowAgents::Full(_)) {
            return self.on_full_action(now, f);
        }
        let flow = &mut self.flows[f];
        let FlowTransport::Tcp {
            app_trace: Some(writes),
            tcp: cfg,
            ..
        } = &flow.spec.transport
        else {
            return;
        };
        let FlowAgents::Tcp(tcp) = &mut flow.agents else {
            return;
        };
        let write = writes[tcp.next_write];
        tcp.next_write += 1;
        if let Some(next) = writes.get(tcp.next_write) {
            self.sched
                .schedule(flow.spec.start + next.at, Event::AppWrite(f as u32));
        }
        let more = tcp.app_packets.write(write.bytes, cfg.packet_size);
        self.tcp_out.clear();
        tcp.sender.add_app_packets(now, more, &mut self.tcp_out);
        self.after_sender(now, f);
    }

    /// A uniform draw for flow `f`'s Telnet gap: ns-2's default RNG when it is replayed,
    /// else the flow's own stream.
    fn telnet_uniform(&mut self, f: usize) -> f64 {
        if let Some(u) = self.ns2_default_uniform() {
            return u;
        }
        let t = split(&mut self.flows[f]).0;
        t.telnet.as_mut().expect("a Telnet flow").1.uniform()
    }

    /// The next uniform of ns-2's default RNG (`Random::uniform()`) when the run replays it
    /// ([`World::ns2_default_rng`]), else None: the caller draws from its own stream.
    fn ns2_default_uniform(&self) -> Option<f64> {
        self.ns2_default_rng.as_ref().map(|shared| {
            shared
                .lock()
                .expect("the default RNG is used by one thread")
                .ns2_uniform_double()
        })
    }

    /// ns-2 `$telnet start`: the timer is drawn from now; the TCP agent sends nothing yet.
    fn start_telnet(&mut self, now: SimTime, f: usize) {
        let exact = self.exact_now(now);
        let t = split(&mut self.flows[f]).0;
        let (telnet, _) = t.telnet.as_mut().expect("a Telnet flow");
        if telnet.due().is_some() {
            telnet.start(exact, || unreachable!("a pending timer draws nothing"));
            return;
        }
        let u = self.telnet_uniform(f);
        let t = split(&mut self.flows[f]).0;
        let (telnet, _) = t.telnet.as_mut().expect("a Telnet flow");
        if let Some(at) = telnet.start(exact, || u) {
            self.sched
                .schedule_exact(SimTime::from_secs_f64(at), at, Event::TelnetDue(f as u32));
        }
    }

    /// ns-2 `TelnetApp::timeout`: while running, one packet to the agent (`sendmsg` of its
    /// `size_`, then `send_much`), then the next gap.
    pub(super) fn on_telnet_due(&mut self, now: SimTime, f: usize) {
        let exact = self.sched.now_exact();
        let t = split(&mut self.flows[f]).0;
        let Some((telnet, _)) = t.telnet.as_mut() else {
            return;
        };
        if telnet.due() != Some(exact) || !telnet.fire(exact) {
            return;
        }
        self.tcp_out.clear();
        t.sender.produce(now, 1, true, &mut self.tcp_out);
        self.after_sender(now, f);
        let u = self.telnet_uniform(f);
        let t = split(&mut self.flows[f]).0;
        let (telnet, _) = t.telnet.as_mut().expect("a Telnet flow");
        let at = telnet.rearm(exact, u);
        self.sched
            .schedule_exact(SimTime::from_secs_f64(at), at, Event::TelnetDue(f as u32));
    }

    /// The host set flow `f`'s Telnet `interval_`; false without a Telnet application.
    pub(super) fn set_telnet_interval(&mut self, f: usize, interval_s: f64) -> bool {
        match &mut self.flows[f].agents {
            FlowAgents::Tcp(t) => match t.telnet.as_mut() {
                Some((telnet, _)) => {
                    telnet.set_interval(interval_s);
                    true
                }
                None => false,
            },
            _ => false,
        }
    }

    pub(super) fn on_sender_timer(&mut self, now: SimTime, f: usize) {
        if matches!(self.flows[f].agents, FlowAgents::Full(_)) {
            return self.on_full_timer(now, f, AgentSide::Source, false);
        }
        let tcp = self.tcp_mut(f);
        tcp.sender_wake.fired(now);
        if tcp.sender.next_timer().is_some_and(|t| t <= now) {
            self.tcp_out.clear();
            let tcp = split(&mut self.flows[f]).0;
            tcp.sender.on_timer(now, &mut self.tcp_out);
            self.after_sender(now, f);
        } else {
            self.arm_sender(f);
        }
    }

    pub(super) fn on_sink_timer(&mut self, now: SimTime, f: usize) {
        if matches!(self.flows[f].agents, FlowAgents::Full(_)) {
            return self.on_full_timer(now, f, AgentSide::Sink, false);
        }
        let tcp = self.tcp_mut(f);
        tcp.sink_wake.fired(now);
        if tcp.sink.next_timer().is_some_and(|t| t <= now) {
            self.sink_out.clear();
            let tcp = split(&mut self.flows[f]).0;
            tcp.sink.on_timer(now, &mut self.sink_out);
            self.after_sink(now, f);
        } else {
            self.arm_sink(f);
        }
    }

    fn arm_sender(&mut self, f: usize) {
        let (tcp, _) = split(&mut self.flows[f]);
        if let Some((at, exact)) = tcp.delsnd_exact {
            if tcp.sender.next_timer() == Some(at) {
                tcp.sender_wake.preset_exact(at, exact);
            }
        }
        tcp.sender_wake.request_exact(
            &mut self.sched,
            tcp.sender.next_timer(),
            Event::SenderTimer(f as u32),
        );
    }

    fn arm_sink(&mut self, f: usize) {
        let (tcp, _) = split(&mut self.flows[f]);
        tcp.sink_wake.request_exact(
            &mut self.sched,
            tcp.sink.next_timer(),
            Event::SinkTimer(f as u32),
        );
    }

    /// Routes what the sender produced during the last call.
    pub(super) fn after_sender(&mut self, now: SimTime, f: usize) {
        let (src, src_addr, dst_addr, port) = {
            let fl = &self.flows[f];
            (fl.src, fl.src_addr, fl.dst_addr, fl.port)
        };
        let (tcp, stats) = split(&mut self.flows[f]);
        stats.cwnd_now(now, tcp.sender.cwnd());
        let segments = std::mem::take(&mut self.tcp_out.segments);
        let ports = Ports {
            src: port,
            dst: port,
        };
        let out = &self.tcp_out;
        if out.ns2_events.is_empty() && out.var_changes.is_empty() && self.traces.segments.is_none()
        {
            // Nothing to place among the packets (no event-trace lines, no traced variable's
            // change, no segments trace): the loop below with its trace steps doing nothing.
            // The two buffers end empty, as the loop below leaves them (a call made while a
            // packet is handed on may have filled them; each call clears them first).
            for seg in &segments {
                let p = self.new_flow_packet(
                    now,
                    f as u32,
                    (src_addr, dst_addr),
                    ports,
                    seg.wire_bytes,
                    Payload::TcpData(*seg),
                );
                self.agent_send(now, f, AgentSide::Source, src, p);
            }
            self.tcp_out.segments = segments;
            self.next_ns2_uid += std::mem::take(&mut self.tcp_out.unsent_uids);
            self.tcp_out.ns2_events.clear();
            self.tcp_out.var_changes.clear();
        } else {
            // ns-2's event-trace lines of this call, each before the packet lines of the segments
            // the call sent after it.
            let ns2_events = std::mem::take(&mut self.tcp_out.ns2_events);
            let mut next_event = 0;
            // A traced variable's change is placed in the trace text among the lines of the
            // segments: ns-2 assigns `cwnd_` before `send_much` sends what it allows, `t_seqno_`
            // after each packet it sent (`output`).
            let mut var_changes = std::mem::take(&mut self.tcp_out.var_changes);
            let mut next_change = 0;
            for (k, seg) in segments.iter().enumerate() {
                while next_event < ns2_events.len() && ns2_events[next_event].before_segment <= k {
                    self.ns2_event_line(now, f, &ns2_events[next_event]);
                    next_event += 1;
                }
                if next_change < var_changes.len() {
                    self.place_var_changes(now, f, &var_changes, &mut next_change, k);
                }
                if let Some(t) = self.traces.segments.as_mut() {
                    t.push(
                        now.as_secs_f64(),
                        f as i64,
                        seg.seq,
                        i64::from(seg.wire_bytes),
                        seg.retransmission,
                    );
                }
                let payload = Payload::TcpData(*seg);
                let p = self.new_packet(
                    now,
                    Some(f as u32),
                    src_addr,
                    dst_addr,
                    ports,
                    seg.wire_bytes,
                    payload,
                );
                self.agent_send(now, f, AgentSide::Source, src, p);
            }
            self.tcp_out.segments = segments;
            self.next_ns2_uid += std::mem::take(&mut self.tcp_out.unsent_uids);
            for e in &ns2_events[next_event..] {
                self.ns2_event_line(now, f, e);
            }
            self.tcp_out.ns2_events = ns2_events;
            if next_change < var_changes.len() {
                self.place_var_changes(now, f, &var_changes, &mut next_change, usize::MAX);
            }
            var_changes.clear();
            self.tcp_out.var_changes = var_changes;
        }
        if !self.tcp_out.events.is_empty() {
            let events = std::mem::take(&mut self.tcp_out.events);
            for e in &events {
                self.trace_tcp_event(now, f, e);
            }
            self.tcp_out.events = events;
        }
        let requested = split(&mut self.flows[f]).0.sender.delayed_send_requested();
        if let Some(overhead) = requested {
            // ns-2 `delsnd_timer_.resched(Random::uniform(overhead_))`.
            let u = match self.ns2_default_uniform() {
                Some(u) => u,
                None => split(&mut self.flows[f]).0.overhead_rng.uniform(),
            };
            let tcp = split(&mut self.flows[f]).0;
            // ns-2 schedules it at `clock + overhead_ * u` in doubles.
            let exact = self.sched.now_exact() + crate::sim::scheduler::exact_of(overhead) * u;
            let at = SimTime(crate::sim::time::round_to_u64(exact * 1e9)).max(now);
            tcp.sender.arm_delayed_send(at);
            tcp.delsnd_exact = Some((at, exact));
        }
        self.arm_sender(f);
    }

    /// How many one-way TCP senders have an `overhead_` (their delayed sends draw from
    /// ns-2's default RNG when the run replays it).
    pub(super) fn overhead_senders(&self) -> usize {
        self.flows
            .iter()
            .filter(|fl| match &fl.agents {
                FlowAgents::Tcp(t) => t.sender.config().overhead > SimTime::ZERO,
                _ => false,
            })
            .count()
    }

    /// Records the changes from `*next` on that came before segment `before` (all of them
    /// with `usize::MAX`), each with the length of the ns-2 trace text now: where its line
    /// goes among the packet lines.
    pub(super) fn place_var_changes(
        &mut self,
        now: SimTime,
        f: usize,
        changes: &[crate::tcp::VarChange],
        next: &mut usize,
        before: usize,
    ) {
        let at = self.capture.as_deref().map_or(0, |c| c.ns2_len());
        let exact = self.exact_now(now);
        while *next < changes.len() && changes[*next].before_segment <= before {
            self.var_trace
                .push((now, exact, f as u32, changes[*next], at));
            *next += 1;
        }
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
                    tb.push(t, fi, cwnd, ssthresh, dupwnd);
                }
            }
            TcpEvent::Rto {
                srtt_s,
                rttvar_s,
                rto_s,
            } => {
                if let Some(tb) = self.traces.rto.as_mut() {
                    tb.push(t, fi, srtt_s, rttvar_s, rto_s);
                }
            }
            TcpEvent::Timeout { seq } => {
                if let Some(tb) = self.traces.tcp_events.as_mut() {
                    tb.push(t, fi, "timeout", seq);
                }
                let (tcp, stats) = split(&mut self.flows[f]);
                if tcp.sink.has_received(seq) {
                    stats.spurious_timeouts += 1;
                    if let Some(tb) = self.traces.tcp_events.as_mut() {
                        tb.push(t, fi, "spurious_timeout", seq);
                    }
                } else if !stats.pending_timeouts.contains(&seq) {
                    stats.pending_timeouts.push(seq);
                }
            }
            TcpEvent::FastRetransmit { seq } => {
                if let Some(tb) = self.traces.tcp_events.as_mut() {
                    tb.push(t, fi, "fast_retransmit", seq);
                }
            }
            TcpEvent::RttSample { .. } => {}
        }
    }

    /// Routes what the sink produced during the last call.
    fn after_sink(&mut self, now: SimTime, f: usize) {
        let (dst, src_addr, dst_addr, port) = {
            let fl = &self.flows[f];
            (fl.dst, fl.src_addr, fl.dst_addr, fl.port)
        };
        {
            let flow = &mut self.flows[f];
            flow.stats.delivered_bytes += self.sink_out.delivered_bytes;
            if let FlowTransport::Tcp {
                app_bytes: Some(total),
                ..
            } = flow.spec.transport
            {
                if flow.stats.completed_at.is_none() && flow.stats.delivered_bytes >= total {
                    flow.stats.completed_at = Some(now);
                }
            }
        }
        let mut acks = std::mem::take(&mut self.sink_out.acks);
        let ports = Ports {
            src: port,
            dst: port,
        };
        for ack in acks.drain(..) {
            let wire_bytes = ack.wire_bytes;
            let p = self.new_flow_packet(
                now,
                f as u32,
                (dst_addr, src_addr),
                ports,
                wire_bytes,
                Payload::TcpAck(ack),
            );
            self.agent_send(now, f, AgentSide::Sink, dst, p);
        }
        self.sink_out.acks = acks;
        self.arm_sink(f);
    }
}
