//! The world's side of FullTcp flows (ns-2 `Agent/TCP/FullTcp`): two agents, each both
//! sender and receiver, bound at the flow's two ends. The world hands each `now` and what
//! arrived, routes the segments they answer with, and keeps their timers in the event queue
//! (the source end's as `Event::SenderTimer`, the listening end's as `Event::SinkTimer`).

use super::{AgentSide, Event, FlowAgents, Wake, World};
use crate::net::packet::{Payload, Ports};
use crate::scenario::validate::{FullTcpAction, FullTcpWhat};
use crate::sim::SimTime;
use crate::tcp::full::{FullSegment, FullTcpAgent};

/// A FullTcp flow's two agents: `ends[0]` the active opener at the flow's source, `ends[1]`
/// the passive opener (listening) at its destination.
pub(super) struct FullAgents {
    pub ends: [FullTcpAgent; 2],
    /// Per end: the retransmission timer's wake-up and the delayed-ACK timer's.
    pub wakes: [[Wake; 2]; 2],
    pub started: bool,
    /// Payload bytes the application offers; `None`: unlimited (FTP `start`).
    pub app_bytes: Option<u64>,
    /// The ends' other scheduled actions, in time order, and the next one due.
    pub actions: Vec<FullTcpAction>,
    pub next_action: usize,
}

fn full_mut(agents: &mut FlowAgents) -> &mut FullAgents {
    match agents {
        FlowAgents::Full(t) => t,
        _ => unreachable!("not a FullTcp flow"),
    }
}

impl World {
    /// FTP `start` (ns-2 `send -1`, an infinite send) or `produce`: the active opener opens
    /// the connection and sends.
    pub(super) fn start_full(&mut self, now: SimTime, f: usize) {
        let t = full_mut(&mut self.flows[f].agents);
        if t.started {
            return;
        }
        t.started = true;
        let bytes = t.app_bytes.map(|b| b as i64);
        let mut out = std::mem::take(&mut self.full_out);
        out.clear();
        full_mut(&mut self.flows[f].agents).ends[0].send(now, bytes, &mut out);
        self.after_full(now, f, AgentSide::Source, &mut out);
        self.full_out = out;
    }

    /// The next scheduled action of flow `f`'s ends is due: more bytes to send (ns-2
    /// `advance_bytes`, `sendmsg`) or a close (`usrclosed`).
    pub(super) fn on_full_action(&mut self, now: SimTime, f: usize) {
        let t = full_mut(&mut self.flows[f].agents);
        let Some(&act) = t.actions.get(t.next_action) else {
            return;
        };
        t.next_action += 1;
        let side = if act.end == 0 {
            AgentSide::Source
        } else {
            AgentSide::Sink
        };
        let mut out = std::mem::take(&mut self.full_out);
        out.clear();
        let agent = &mut full_mut(&mut self.flows[f].agents).ends[act.end as usize];
        match act.what {
            FullTcpWhat::Send(bytes) => agent.send(now, bytes.map(|b| b as i64), &mut out),
            FullTcpWhat::SendEof(bytes) => agent.send_eof(now, bytes as i64, &mut out),
            FullTcpWhat::Close => agent.close(now, &mut out),
        }
        self.after_full(now, f, side, &mut out);
        self.full_out = out;
    }

    /// A FullTcp segment reached the agent on `side`.
    pub(super) fn deliver_full(
        &mut self,
        now: SimTime,
        f: usize,
        side: AgentSide,
        s: &FullSegment,
    ) {
        if s.datalen > 0 {
            let stats = &mut self.flows[f].stats;
            stats.data_arrival(now, s.wire_bytes(), (now - s.sent_at).as_secs_f64());
        }
        let mut out = std::mem::take(&mut self.full_out);
        out.clear();
        full_mut(&mut self.flows[f].agents).ends[side as usize].on_segment(now, s, &mut out);
        self.after_full(now, f, side, &mut out);
        self.full_out = out;
    }

    /// A FullTcp agent's timer event fired: its retransmission timer, or with `delack` its
    /// delayed-ACK timer.
    pub(super) fn on_full_timer(&mut self, now: SimTime, f: usize, side: AgentSide, delack: bool) {
        let t = full_mut(&mut self.flows[f].agents);
        t.wakes[side as usize][usize::from(delack)].fired(now);
        let agent = &t.ends[side as usize];
        let deadline = if delack {
            agent.delack_deadline()
        } else {
            agent.rtx_deadline()
        };
        if deadline.is_some_and(|d| d <= now) {
            let mut out = std::mem::take(&mut self.full_out);
            out.clear();
            full_mut(&mut self.flows[f].agents).ends[side as usize].on_timer(now, &mut out);
            self.after_full(now, f, side, &mut out);
            self.full_out = out;
        } else {
            self.arm_full(f, side);
        }
    }

    /// Keeps one wake-up in the event queue per timer of the agent on `side`, each at the
    /// exact time the agent set it for.
    fn arm_full(&mut self, f: usize, side: AgentSide) {
        let (rtx_event, delack_event) = match side {
            AgentSide::Source => (Event::SenderTimer(f as u32), Event::FullDelack(f as u32, 0)),
            AgentSide::Sink => (Event::SinkTimer(f as u32), Event::FullDelack(f as u32, 1)),
        };
        let t = full_mut(&mut self.flows[f].agents);
        let agent = &t.ends[side as usize];
        let (rtx, delack) = (agent.rtx_deadline(), agent.delack_deadline());
        let [rtx_wake, delack_wake] = &mut t.wakes[side as usize];
        rtx_wake.request_exact(&mut self.sched, rtx, rtx_event);
        delack_wake.request_exact(&mut self.sched, delack, delack_event);
    }

    /// Routes what the agent on `side` produced during the last call.
    fn after_full(
        &mut self,
        now: SimTime,
        f: usize,
        side: AgentSide,
        out: &mut crate::tcp::full::FullOutput,
    ) {
        let fl = &mut self.flows[f];
        fl.stats.delivered_bytes += out.delivered_bytes;
        let mut cwnd_changes = Vec::new();
        if side == AgentSide::Source {
            let FlowAgents::Full(t) = &mut fl.agents else {
                unreachable!("not a FullTcp flow")
            };
            fl.stats.cwnd_now(now, t.ends[0].cwnd());
            cwnd_changes = t.ends[0].take_cwnd_changes();
        }
        if !cwnd_changes.is_empty() {
            // `$tcp trace cwnd_` of the opener: its changes during this call, in order,
            // placed before this call's segments.
            let changes: Vec<crate::tcp::VarChange> = cwnd_changes
                .into_iter()
                .map(|value| crate::tcp::VarChange {
                    var: crate::tcp::TracedVar::Cwnd,
                    value,
                    before_segment: 0,
                })
                .collect();
            self.place_var_changes(now, f, &changes, &mut 0, usize::MAX);
        }
        let fl = &mut self.flows[f];
        let (node, from, to) = fl.end(side);
        let ports = Ports {
            src: fl.port,
            dst: fl.port,
        };
        let mut next_event = 0;
        for (k, seg) in out.segments.iter().enumerate() {
            while next_event < out.ns2_events.len()
                && out.ns2_events[next_event].before_segment <= k
            {
                if side == AgentSide::Source {
                    self.ns2_event_line(now, f, &out.ns2_events[next_event]);
                }
                next_event += 1;
            }
            let p = self.new_packet(
                now,
                Some(f as u32),
                from,
                to,
                ports,
                seg.wire_bytes(),
                Payload::FullTcp(*seg),
            );
            self.agent_send(now, f, side, node, p);
        }
        if side == AgentSide::Source {
            for e in &out.ns2_events[next_event..] {
                self.ns2_event_line(now, f, e);
            }
        }
        self.arm_full(f, side);
    }
}
