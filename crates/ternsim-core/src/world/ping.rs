//! The world's side of ping flows (ns-2 `Agent/Ping` pairs): either end sends an echo
//! request when told (a scenario `ping` event, the host, or every `interval` from the flow's
//! start), the other end answers at once, and the reply's arrival is measured (round-trip
//! time into the flow's RTT statistics) and, when the host asked, kept as a [`PingReply`] and
//! the run paused there so the host can run its `recv` at that instant, as ns-2 calls the
//! agent's Tcl `recv` from inside the packet's arrival.

use super::{AgentSide, Event, FlowAgents, World};
use crate::app::{Echo, PingAgent};
use crate::net::packet::{Payload, Ports};
use crate::sim::SimTime;

/// A ping flow's two agents (source end, destination end) and its schedule.
pub(super) struct PingAgents {
    pub agents: [PingAgent; 2],
    /// The source's own schedule: one request every `interval`, at most `count`.
    pub interval: Option<SimTime>,
    pub count: Option<u64>,
    /// Requests sent on the schedule so far, and when the next is due.
    pub scheduled_sent: u64,
    pub next_due: Option<SimTime>,
    /// The schedule runs (started and not stopped since).
    pub running: bool,
    /// Replies that came back to either end.
    pub replies: u64,
}

impl PingAgents {
    /// Echo requests sent by both ends.
    pub fn requests(&self) -> u64 {
        self.agents
            .iter()
            .map(|a| u64::from(a.requests_sent()))
            .sum()
    }

    pub fn new(sizes: [u32; 2], interval: Option<SimTime>, count: Option<u64>) -> Self {
        PingAgents {
            agents: [PingAgent::new(sizes[0]), PingAgent::new(sizes[1])],
            interval,
            count,
            scheduled_sent: 0,
            next_due: None,
            running: false,
            replies: 0,
        }
    }
}

/// A reply that reached the end that sent its request: what ns-2 hands to the agent's Tcl
/// `recv` (ns-2.35 `apps/ping.cc`: the replier's address, and the round-trip time, or with
/// `oneway` the sequence number and both one-way delays).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PingReply {
    pub flow: usize,
    /// The end that sent the request and received this reply.
    pub side: AgentSide,
    /// When the reply arrived, exactly, in seconds.
    pub at: f64,
    pub seq: u32,
    /// When the request was sent and when it reached the replier, exactly, in seconds.
    pub sent_at: f64,
    pub received_at: f64,
}

impl World {
    fn ping_mut(&mut self, f: usize) -> &mut PingAgents {
        match &mut self.flows[f].agents {
            FlowAgents::Ping(p) => p,
            _ => unreachable!("flow {f} is not a ping flow"),
        }
    }

    /// The end `side` of ping flow `f` sends an echo request now (ns-2 `$ping send`).
    pub(super) fn ping_send(&mut self, now: SimTime, f: usize, side: AgentSide) {
        let exact = self.exact_now(now);
        let echo = self.ping_mut(f).agents[side as usize].request(exact);
        self.send_echo(now, f, side, echo);
    }

    /// Puts `echo` on the wire from end `side` of flow `f`, in a packet of that end's size.
    fn send_echo(&mut self, now: SimTime, f: usize, side: AgentSide, echo: Echo) {
        let size = self.ping_mut(f).agents[side as usize].packet_size;
        let fl = &self.flows[f];
        let (node, from, to) = fl.end(side);
        let ports = Ports {
            src: fl.port,
            dst: fl.port,
        };
        let p = self.new_packet(
            now,
            Some(f as u32),
            from,
            to,
            ports,
            size,
            Payload::Ping(echo),
        );
        self.agent_send(now, f, side, node, p);
    }

    /// An echo reached end `side` of flow `f`: a request is answered at once, a reply is
    /// measured (and kept for the host, which then gets the run paused here).
    pub(super) fn deliver_echo(&mut self, now: SimTime, f: usize, side: AgentSide, echo: &Echo) {
        let exact = self.exact_now(now);
        if !echo.reply {
            let reply = self.ping_mut(f).agents[side as usize].reply_to(echo, exact);
            self.send_echo(now, f, side, reply);
            return;
        }
        self.ping_mut(f).replies += 1;
        let result = echo.result(exact);
        self.flows[f].stats.rtt.add(result.rtt_s);
        if self.ping_upcalls {
            self.ping_replies.push(PingReply {
                flow: f,
                side,
                at: exact,
                seq: echo.seq,
                sent_at: echo.sent_at,
                received_at: echo.received_at,
            });
            self.pause_requested = true;
        }
    }

    /// The flow's own schedule starts (the flow's start): its first request now.
    pub(super) fn start_ping(&mut self, now: SimTime, f: usize) {
        let p = self.ping_mut(f);
        if p.interval.is_none() || p.running {
            return;
        }
        p.running = true;
        p.next_due = Some(now);
        self.on_ping_due(now, f);
    }

    pub(super) fn stop_ping(&mut self, f: usize) {
        let p = self.ping_mut(f);
        p.running = false;
        p.next_due = None;
    }

    /// The source's next scheduled request is due (or was, before a stop: then nothing).
    pub(super) fn on_ping_due(&mut self, now: SimTime, f: usize) {
        let p = self.ping_mut(f);
        if p.next_due != Some(now) {
            return;
        }
        p.next_due = None;
        if !p.running || p.count.is_some_and(|c| p.scheduled_sent >= c) {
            return;
        }
        p.scheduled_sent += 1;
        let next = now + p.interval.expect("a schedule has an interval");
        p.next_due = Some(next);
        self.ping_send(now, f, AgentSide::Source);
        self.sched.schedule(next, Event::PingDue(f as u32));
    }

    /// The replies kept for the host since the last call, in arrival order.
    pub(super) fn take_ping_replies(&mut self) -> Vec<PingReply> {
        std::mem::take(&mut self.ping_replies)
    }
}
