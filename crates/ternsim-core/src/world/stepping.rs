//! A run that its host steps: advance to a time, read or change agents, go on, finish.
//!
//! This is what ns-2's `$ns at T "script"` needs (a `record` proc that samples a sink's
//! `bytes_` every 0.1 s and resets it, a callback that changes `window_`) and what a notebook
//! needs to watch a run unfold. Stepping only pauses the event loop: a run advanced in any
//! number of steps, with nothing changed between them, executes the same events in the same
//! order as [`super::run_with`] and ends with the same summary.
//!
//! Time semantics follow ns-2's scheduler: an `at T` callback is queued before the run, so it
//! runs before every packet event that falls due at the same instant T. Hence
//! [`Simulation::run_until`] executes the events due strictly before `t`, and the host's code
//! then sees the state at `t` as the callback would.

use std::time::Instant;

use super::capture::{Capture, CaptureSpec};
use super::summary::RunOutput;
use super::{AgentSide, FlowAgents, World};
use crate::scenario::ResolvedScenario;
use crate::sim::SimTime;

/// A built world paused at [`Simulation::now`].
pub struct Simulation {
    world: World,
    scenario: ResolvedScenario,
    seed: u64,
    now: SimTime,
    /// `now` exactly, in seconds (the time the host paused at).
    now_exact: f64,
    wall: Instant,
}

/// One flow's state as a host reads it during the run: `(name, value)` pairs in the
/// protocol's vocabulary. TCP flows: `cwnd`, `ssthresh`, `t_seqno`, `maxseq`, `ack` (highest
/// cumulative ACK), `dupacks`, `srtt_s`, `rttvar_s`, `rto_s` (the timer value the next arming
/// uses), `backoff`, ns-2's bound integers `srtt8_ticks`, `rttvar4_ticks`, `rtt_ticks`,
/// `segments_sent`, `retransmissions`, `timeouts`, `fast_retransmits`, ns-2's `data_bytes`,
/// `retransmitted_bytes` (payload bytes) and `cwnd_cuts` (`slowdown` calls), and at the sink
/// `sink_packets` (data packets that arrived, duplicates included) and
/// `sink_delivered_wire_bytes` (packets delivered in order, with their headers: ns-2's
/// `TCPSink` `bytes_`). UDP flows: `sent_packets`,
/// `sent_bytes`, `received_packets`, `received_bytes`, `lost_packets` (ns-2 LossMonitor
/// `nlost_`, sequence gaps) and `last_arrival_s` (`lastPktTime_`, 0 before any arrival).
pub type FlowState = Vec<(&'static str, f64)>;

/// A traced TCP variable's change placed in the ns-2 trace text: (byte offset in the text,
/// exact seconds (ns-2's clock), flow, variable name, value).
pub type PlacedVarChange = (usize, f64, u32, &'static str, f64);

impl Simulation {
    /// Builds the world of `scenario` with `seed`, paused at time 0 before any event.
    pub fn new(
        scenario: ResolvedScenario,
        seed: u64,
        capture: &CaptureSpec,
    ) -> Result<Self, String> {
        let wall = Instant::now();
        let cap = Capture::new(&scenario, capture)?;
        let mut world = World::build(&scenario, seed);
        // A host may act between any two events: every event is in the queue.
        world.set_lazy_tx(false);
        world.attach_capture(cap);
        Ok(Simulation {
            world,
            scenario,
            seed,
            now: SimTime::ZERO,
            now_exact: 0.0,
            wall,
        })
    }

    /// Where the run is paused: events due before this time have run, none after.
    pub fn now(&self) -> SimTime {
        self.now
    }

    /// The scenario's duration, where [`Simulation::finish`] ends the run.
    pub fn duration(&self) -> SimTime {
        self.scenario.duration
    }

    /// Runs every event due strictly before `t` (at most the duration's events) and pauses at
    /// `t`. A time at or before [`Simulation::now`] does nothing: the clock never goes back.
    /// With [`Simulation::set_ping_upcalls`] on, it pauses earlier, right after the event
    /// that brought a ping reply, and returns false: `now` is then that event's time.
    pub fn run_until(&mut self, t: SimTime) -> bool {
        self.run_until_exact(t, crate::sim::scheduler::exact_of(t))
    }

    /// [`Simulation::run_until`] a time given exactly in seconds, `t_exact` (which rounds to
    /// `t`): the events that run are those exactly before it, as ns-2 runs before a callback
    /// `$ns at t_exact` the events whose double time is smaller (a CBR source's 45th send at
    /// 0.2 + 45 × 1/150 s, a hair below 0.5, comes before `$ns at 0.5`).
    pub fn run_until_exact(&mut self, t: SimTime, t_exact: f64) -> bool {
        if t < self.now || t_exact <= self.now_exact {
            return true;
        }
        let last = t.min(self.scenario.duration);
        if !self.world.run_until(last, t_exact, &mut |_, _| {}) {
            // Paused inside the step: events of this instant may still be due.
            self.now = self.world.sched.now();
            self.now_exact = self.world.sched.now_exact();
            return false;
        }
        self.now = t;
        self.now_exact = t_exact;
        true
    }

    /// When the first 802.11 frame went on the air, if one has (`None` without a radio
    /// channel): ns-2 prints its channel's carrier-sense reach at that instant.
    pub fn first_radio_frame(&self) -> Option<SimTime> {
        self.world
            .devices
            .iter()
            .filter_map(|d| match d {
                super::device::Device::Wifi(w) => w.first_frame_at.map(SimTime),
                _ => None,
            })
            .min()
    }

    /// Whether ping replies are kept for the host ([`Simulation::take_ping_replies`]), the
    /// run pausing at each (ns-2 calls the agent's Tcl `recv` as the reply arrives).
    pub fn set_ping_upcalls(&mut self, on: bool) {
        self.world.ping_upcalls = on;
    }

    /// The ping replies kept since the last call, in arrival order.
    pub fn take_ping_replies(&mut self) -> Vec<super::PingReply> {
        self.world.take_ping_replies()
    }

    /// End `side` of ping flow `flow` sends an echo request now (ns-2 `$ping send` in a
    /// callback).
    pub fn ping(&mut self, flow: usize, side: AgentSide) -> Result<(), String> {
        match self.world.flows.get(flow).map(|f| &f.agents) {
            Some(FlowAgents::Ping(_)) => {
                self.world.ping_send(self.now, flow, side);
                Ok(())
            }
            Some(_) => Err(format!("flow {flow} is not a ping flow")),
            None => Err(format!("no flow {flow}")),
        }
    }

    /// The number of flows, in scenario order.
    pub fn flow_count(&self) -> usize {
        self.world.flows.len()
    }

    /// The state of flow `flow` (scenario order) now; `None` for no such flow.
    pub fn flow_state(&self, flow: usize) -> Option<FlowState> {
        let fl = self.world.flows.get(flow)?;
        Some(match &fl.agents {
            FlowAgents::Tcp(t) => {
                let c = t.sender.conn();
                let rto = c.rto();
                let (srtt8, rttvar4, rtt) = rto.ns2_bound_values();
                let st = c.stats();
                let (data_bytes, rexmit_bytes, cwnd_cuts) = c.ns2_counters();
                let sink = t.sink.stats();
                // ns-2's TCPSink `bytes_` adds each packet's size (payload plus headers) when it
                // is delivered in order (tcp-sink.cc, Acker::update): a packet 0 emulating the
                // SYN is a bare header; ns-2 Vegas's packets carry no header bytes.
                let header = u64::from(c.cfg().data_wire_bytes() - c.cfg().packet_size);
                vec![
                    ("cwnd", c.cwnd()),
                    ("ssthresh", c.ssthresh()),
                    ("t_seqno", c.t_seqno() as f64),
                    ("maxseq", c.maxseq() as f64),
                    ("ack", c.highest_ack() as f64),
                    ("dupacks", f64::from(c.dupacks())),
                    ("srtt_s", rto.srtt_s()),
                    ("rttvar_s", rto.rttvar_s()),
                    ("rto_s", rto.timeout().as_secs_f64()),
                    ("backoff", rto.backoff_multiplier() as f64),
                    ("srtt8_ticks", srtt8 as f64),
                    ("rttvar4_ticks", rttvar4 as f64),
                    ("rtt_ticks", rtt as f64),
                    ("segments_sent", st.segments_sent as f64),
                    ("retransmissions", st.retransmissions as f64),
                    ("timeouts", st.timeouts as f64),
                    ("fast_retransmits", st.fast_retransmits as f64),
                    ("ack_packets", st.acks_received as f64),
                    ("data_bytes", data_bytes as f64),
                    ("retransmitted_bytes", rexmit_bytes as f64),
                    ("cwnd_cuts", cwnd_cuts as f64),
                    ("sink_packets", sink.packets_received as f64),
                    (
                        "sink_delivered_wire_bytes",
                        (sink.delivered_bytes + sink.delivered_packets * header) as f64,
                    ),
                ]
            }
            FlowAgents::Full(t) => {
                let a = &t.ends[0];
                let st = a.stats();
                let rto = a.rto();
                let (srtt8, rttvar4, rtt) = rto.ns2_bound_values();
                vec![
                    ("cwnd", a.cwnd()),
                    ("ssthresh", a.ssthresh() as f64),
                    ("t_seqno", a.t_seqno() as f64),
                    ("maxseq", a.maxseq() as f64),
                    ("ack", a.highest_ack() as f64),
                    ("dupacks", f64::from(a.dupacks())),
                    ("srtt8_ticks", srtt8 as f64),
                    ("rttvar4_ticks", rttvar4 as f64),
                    ("rtt_ticks", rtt as f64),
                    ("backoff", rto.backoff_multiplier() as f64),
                    ("data_packets", st.data_packets as f64),
                    ("data_bytes", st.data_bytes as f64),
                    ("ack_packets", st.ack_packets as f64),
                    ("retransmitted_packets", st.rexmit_packets as f64),
                    ("retransmitted_bytes", st.rexmit_bytes as f64),
                    ("timeouts", st.timeouts as f64),
                    ("peer_rcv_nxt", t.ends[1].rcv_nxt() as f64),
                ]
            }
            FlowAgents::Ping(p) => vec![
                ("requests", p.requests() as f64),
                ("replies", p.replies as f64),
            ],
            FlowAgents::Udp(u) => {
                let s = &u.stats;
                vec![
                    ("sent_packets", s.sent_packets as f64),
                    ("sent_bytes", s.sent_bytes as f64),
                    ("received_packets", s.received_packets as f64),
                    ("received_bytes", s.received_bytes as f64),
                    ("lost_packets", s.loss_monitor_nlost() as f64),
                    (
                        "last_arrival_s",
                        s.last_arrival.map_or(0.0, |t| t.as_secs_f64()),
                    ),
                ]
            }
        })
    }

    /// Sets a TCP flow's receiver window (ns-2 `window_`) from now on; as in ns-2 it bounds
    /// the next send decision and sends nothing by itself.
    pub fn set_tcp_window(&mut self, flow: usize, window: u32) -> Result<(), String> {
        if window == 0 {
            return Err("window must be at least 1 packet".into());
        }
        match self.world.flows.get(flow).map(|f| &f.agents) {
            Some(FlowAgents::Tcp(_)) => {
                self.world.set_tcp_window(flow, window);
                Ok(())
            }
            Some(FlowAgents::Udp(_) | FlowAgents::Ping(_) | FlowAgents::Full(_)) => {
                Err(format!("flow {flow} is not one-way TCP"))
            }
            None => Err(format!("no flow {flow}")),
        }
    }

    /// Sets flow `flow`'s Telnet application's mean gap (ns-2 `$telnet set interval_ X` in
    /// a callback): the next gap drawn uses it.
    pub fn set_telnet_interval(&mut self, flow: usize, interval_s: f64) -> Result<(), String> {
        if !(interval_s > 0.0 && interval_s.is_finite()) {
            return Err(format!(
                "interval_ {interval_s}: allowed > 0 (ns-2's interval_ 0, tcplib's telnet \
                 distribution, is not modelled)"
            ));
        }
        if flow >= self.world.flows.len() {
            return Err(format!("no flow {flow}"));
        }
        if self.world.set_telnet_interval(flow, interval_s) {
            Ok(())
        } else {
            Err(format!("flow {flow} has no Telnet application"))
        }
    }

    /// Starts flow `flow`'s application now (ns-2 `$app start` in a callback); a flow stopped
    /// before starts again (a TCP flow then offers unlimited data, as ns-2's FTP `start`
    /// does; a CBR source sends its first packet at once). Starting a running flow does
    /// nothing.
    pub fn start_flow(&mut self, flow: usize) -> Result<(), String> {
        if flow >= self.world.flows.len() {
            return Err(format!("no flow {flow}"));
        }
        self.world.start_flow(self.now, flow);
        Ok(())
    }

    /// Resets the node called `name` now (ns-2 `$node reset`): the packets in its 802.11
    /// interface queue are dropped (`END`).
    pub fn reset_node(&mut self, name: &str) -> Result<(), String> {
        let Some(node) = self.world.nodes.iter().position(|n| n.name == name) else {
            return Err(format!("no node named {name:?}"));
        };
        self.world
            .reset_node(self.now, crate::net::addr::NodeId(node as u32));
        Ok(())
    }

    /// Stops flow `flow`'s application now (ns-2 `$app stop`): no new data from now on;
    /// what was sent may still be retransmitted.
    pub fn stop_flow(&mut self, flow: usize) -> Result<(), String> {
        if flow >= self.world.flows.len() {
            return Err(format!("no flow {flow}"));
        }
        self.world.stop_flow(flow);
        Ok(())
    }

    /// Detaches flow `flow`'s agent on `side` from its node from now on (ns-2 `$ns
    /// detach-agent`): what it sends and what reaches its port are absorbed untraced, as by
    /// ns-2's null agent; the agent itself runs on (its timers fire, a TCP sender times out
    /// and sends into the null agent).
    pub fn detach_agent(&mut self, flow: usize, side: AgentSide) -> Result<(), String> {
        let f = self
            .world
            .flows
            .get_mut(flow)
            .ok_or_else(|| format!("no flow {flow}"))?;
        f.detached[side as usize] = true;
        Ok(())
    }

    /// ns-2 `$tcp trace VAR` on flow `flow`'s sender: its changes are recorded from now on
    /// (see [`Self::take_var_trace`]); returns the variable's value now (ns-2's
    /// representation, see [`crate::tcp::VarChange`]).
    pub fn trace_tcp_var(&mut self, flow: usize, var: &str) -> Result<f64, String> {
        let v = crate::tcp::TracedVar::from_name(var)
            .ok_or_else(|| format!("{var} is not a traced TCP variable"))?;
        match self.world.flows.get_mut(flow).map(|f| &mut f.agents) {
            Some(FlowAgents::Tcp(t)) => Ok(t.sender.trace_var(v)),
            // A FullTcp flow: its active opener's cwnd_ (the only variable modelled).
            Some(FlowAgents::Full(t)) if v == crate::tcp::TracedVar::Cwnd => {
                Ok(t.ends[0].trace_cwnd())
            }
            Some(FlowAgents::Full(_)) => Err(format!("{var} of a FullTcp agent: only cwnd_")),
            Some(_) => Err(format!("flow {flow} is not a TCP flow")),
            None => Err(format!("no flow {flow}")),
        }
    }

    /// ns-2 `$redq trace VAR` (`curq_`, `ave_`) on the RED queue of link `link` (scenario
    /// order) in direction `dir` (0: a to b); returns the device that reports it in
    /// [`Self::take_red_trace`] and the variable's value now.
    pub fn trace_red_var(&mut self, link: usize, dir: u8, var: &str) -> Result<(u32, f64), String> {
        let v = crate::net::red::RedTracedVar::from_name(var)
            .ok_or_else(|| format!("{var} is not a traced RED variable (curq_, ave_)"))?;
        for (i, d) in self.world.devices.iter_mut().enumerate() {
            if let super::device::Device::Wired {
                wire,
                link: l,
                dir: dd,
            } = d
            {
                if *l == link && *dd == usize::from(dir) {
                    return wire
                        .trace_red_var(v)
                        .map(|value| (i as u32, value))
                        .ok_or_else(|| format!("link {link} direction {dir} has no RED queue"));
                }
            }
        }
        Err(format!("no wired link {link} direction {dir}"))
    }

    /// ns-2's default RNG (MRG32k3a seeded `seed` as ns-2 seeds it) after its first `skip`
    /// draws, replayed for the run: every RED queue's early test, every Telnet
    /// application's gap, the delayed sends of one-way TCP senders with `overhead_` and the
    /// UDP traffic sources' draws (random CBR jitter, Exponential and Pareto bursts and idle
    /// times) come from it, one generator for all in the order the draws happen, as in an ns-2 run where
    /// nothing else draws from it during the run. Returns the number of RED queues and such
    /// senders.
    pub fn replay_ns2_default_rng(&mut self, seed: u32, skip: u64) -> Result<usize, String> {
        if seed == 0 {
            return Err("seed: allowed >= 1 (ns-2 takes 0 as a clock seed)".into());
        }
        let mut rng = crate::sim::mrg32k3a::Mrg32k3a::ns2_seeded(seed);
        for _ in 0..skip {
            rng.ns2_uniform_double();
        }
        let shared = std::sync::Arc::new(std::sync::Mutex::new(rng));
        self.world.ns2_default_rng = Some(std::sync::Arc::clone(&shared));
        let mut queues = 0;
        for w in self.world.devices.iter_mut().filter_map(|d| d.wired_mut()) {
            if w.use_ns2_rng(&shared) {
                queues += 1;
            }
        }
        // The one-way TCP senders' `overhead_` delays draw from the same generator, in the
        // order the run asks for them, as ns-2's `Random::uniform(overhead_)` does.
        queues += self.world.overhead_senders();
        Ok(queues)
    }

    /// The traced RED variables' changes since the last call: (seconds, device, name, value),
    /// each device's in time order.
    pub fn take_red_trace(&mut self) -> Vec<(f64, u32, &'static str, f64)> {
        let mut out = Vec::new();
        for (i, d) in self.world.devices.iter_mut().enumerate() {
            if let Some(w) = d.wired_mut() {
                for (t, v, x) in w.take_red_trace() {
                    out.push((t.as_nanos() as f64 / 1e9, i as u32, v.name(), x));
                }
            }
        }
        out
    }

    /// The traced TCP variables' changes since the last call, in the order they happened:
    /// (seconds, flow, variable name, value).
    pub fn take_var_trace(&mut self) -> Vec<(f64, u32, &'static str, f64)> {
        self.world
            .var_trace
            .drain(..)
            .map(|(t, _, f, c, _)| (t.as_nanos() as f64 / 1e9, f, c.var.name(), c.value))
            .collect()
    }

    /// The ns-2 trace text recorded since the last call, with the traced TCP variables'
    /// changes since then, each with the byte offset in that text where it happened (ns-2
    /// writes a change between the lines of the events before and after it): (offset,
    /// seconds, flow, variable name, value).
    pub fn take_ns2_trace_vars(&mut self) -> (String, Vec<PlacedVarChange>) {
        let text = self.take_ns2_trace();
        let changes = self
            .world
            .var_trace
            .drain(..)
            .map(|(_, exact, f, c, at)| (at, exact, f, c.var.name(), c.value))
            .collect();
        (text, changes)
    }

    /// The ns-2 trace text recorded since the last call (empty without an ns-2 trace).
    pub fn take_ns2_trace(&mut self) -> String {
        self.world
            .capture
            .as_mut()
            .map(|c| c.take_ns2_trace())
            .unwrap_or_default()
    }

    /// Runs the rest of the scenario (every event due up to and including its duration, as
    /// [`super::run_with`] does) and returns the run's output.
    pub fn finish(mut self) -> RunOutput {
        // Nobody is left to answer a reply: the rest runs without pausing.
        self.world.ping_upcalls = false;
        self.world.pause_requested = false;
        let end = self.scenario.duration;
        self.world
            .run_until(end, super::end_exact(end), &mut |_, _| {});
        let wall = self.wall.elapsed().as_secs_f64();
        self.world.finish(&self.scenario, self.seed, wall)
    }

    /// Ends the run where it is paused (ns-2's `exit` in a callback) and returns its output,
    /// summarised over `[0, now]`: throughputs and utilisations divide by `now`.
    pub fn stop(mut self) -> RunOutput {
        // A run stopped at 0 still has a (1 ns) span, so rates divide by something.
        self.scenario.duration = self
            .now
            .min(self.scenario.duration)
            .max(SimTime::from_nanos(1));
        let wall = self.wall.elapsed().as_secs_f64();
        self.world.finish(&self.scenario, self.seed, wall)
    }
}
