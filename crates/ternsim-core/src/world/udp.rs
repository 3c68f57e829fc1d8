//! The world's side of UDP flows: a traffic source (CBR, exponential or Pareto on/off)
//! feeding an ns-2 `Agent/UDP` at the sender, datagram statistics at the receiver.

use super::{AgentSide, Event, FlowAgents, World};
use crate::app::{
    CbrConfig, CbrPacing, DatagramStats, Ns2Draws, OnOffConfig, TrafficConfig, TrafficSource,
    UdpAgent, UdpDatagram,
};
use crate::net::packet::{Datagram, Payload, Ports};
use crate::scenario::TrafficSpec;
use crate::sim::{RandomStream, SimTime};

/// A UDP flow's source, agent and statistics.
pub(super) struct UdpAgents {
    pub source: TrafficSource,
    pub agent: UdpAgent,
    pub rng: RandomStream,
    pub stats: DatagramStats,
    /// The source is sending (started and not stopped since).
    pub running: bool,
}

impl UdpAgents {
    pub fn new(traffic: &TrafficSpec, rng: RandomStream) -> Self {
        let cfg = match *traffic {
            TrafficSpec::Cbr {
                interval,
                rate_bps,
                packet_size,
                random,
                max_packets,
            } => TrafficConfig::Cbr(CbrConfig {
                packet_size,
                pacing: match rate_bps {
                    Some(bps) => CbrPacing::Rate { bps },
                    // The double nearest to the interval (`10ms`: 0.01, as ns-2 reads it).
                    None => CbrPacing::Interval {
                        secs: interval.as_secs_exact(),
                    },
                },
                random,
                max_packets,
            }),
            TrafficSpec::Exponential {
                rate_bps,
                packet_size,
                burst_time,
                idle_time,
            } => TrafficConfig::ExpOnOff(OnOffConfig {
                packet_size,
                rate_bps,
                burst_time_s: burst_time.as_secs_f64(),
                idle_time_s: idle_time.as_secs_f64(),
            }),
            TrafficSpec::Pareto {
                rate_bps,
                packet_size,
                burst_time,
                idle_time,
                shape,
            } => TrafficConfig::ParetoOnOff {
                on_off: OnOffConfig {
                    packet_size,
                    rate_bps,
                    burst_time_s: burst_time.as_secs_f64(),
                    idle_time_s: idle_time.as_secs_f64(),
                },
                shape,
            },
        };
        let packet_size = match *traffic {
            TrafficSpec::Cbr { packet_size, .. }
            | TrafficSpec::Exponential { packet_size, .. }
            | TrafficSpec::Pareto { packet_size, .. } => packet_size,
        };
        UdpAgents {
            // Validation checked every parameter these constructors check.
            source: TrafficSource::new(cfg).expect("validated traffic source"),
            // The agent's packetSize_ matches the application's, so one send is one datagram.
            agent: UdpAgent::new(packet_size).expect("validated packet size"),
            rng,
            stats: DatagramStats::default(),
            running: false,
        }
    }
}

impl World {
    fn udp_mut(&mut self, f: usize) -> &mut UdpAgents {
        match &mut self.flows[f].agents {
            FlowAgents::Udp(u) => u,
            _ => unreachable!("flow {f} is not UDP"),
        }
    }

    pub(super) fn start_udp(&mut self, now: SimTime, f: usize) {
        let u = self.udp_mut(f);
        if u.running {
            return;
        }
        // A source started again after a stop starts afresh (ns-2 `CBR_Traffic::start`:
        // the first packet at once).
        u.running = true;
        match self.ns2_default_rng.clone() {
            Some(shared) => {
                let mut g = shared
                    .lock()
                    .expect("the default RNG is used by one thread");
                self.udp_mut(f).source.start(now, &mut Ns2Draws(&mut g));
            }
            None => {
                let u = self.udp_mut(f);
                u.source.start(now, &mut u.rng);
            }
        }
        self.arm_udp(f);
    }

    pub(super) fn stop_udp(&mut self, f: usize) {
        let u = self.udp_mut(f);
        u.running = false;
        u.source.stop();
    }

    fn arm_udp(&mut self, f: usize) {
        let source = &self.udp_mut(f).source;
        if let (Some(t), Some(exact)) = (source.next_send(), source.next_send_exact()) {
            self.sched
                .schedule_exact(t, exact, Event::UdpSend(f as u32));
        }
    }

    /// The source's next send is due: the agent turns it into datagrams, each a packet.
    pub(super) fn on_udp_send(&mut self, now: SimTime, f: usize) {
        let u = self.udp_mut(f);
        if u.source.next_send() != Some(now) {
            return; // stopped since this was scheduled
        }
        // The draw for the next gap comes from ns-2's default RNG when the run replays it
        // (`TrafficGenerator::timeout` draws in `next_interval` as it sends).
        let bytes = match self.ns2_default_rng.clone() {
            Some(shared) => {
                let mut g = shared
                    .lock()
                    .expect("the default RNG is used by one thread");
                self.udp_mut(f).source.on_send(now, &mut Ns2Draws(&mut g))
            }
            None => {
                let u = self.udp_mut(f);
                u.source.on_send(now, &mut u.rng)
            }
        };
        let u = self.udp_mut(f);
        let burst = u.source.new_burst();
        let datagrams = u.agent.sendmsg(u64::from(bytes), burst);
        let (src, src_addr, dst_addr, port) = {
            let fl = &self.flows[f];
            (fl.src, fl.src_addr, fl.dst_addr, fl.port)
        };
        for d in datagrams {
            self.udp_mut(f).stats.on_sent(&d);
            let payload = Payload::Udp(Datagram {
                seq: d.seqno,
                payload_bytes: d.size,
                sent_at: now,
            });
            let ports = Ports {
                src: port,
                dst: port,
            };
            let p = self.new_packet(
                now,
                Some(f as u32),
                src_addr,
                dst_addr,
                ports,
                d.size,
                payload,
            );
            self.agent_send(now, f, AgentSide::Source, src, p);
        }
        self.arm_udp(f);
    }

    pub(super) fn deliver_datagram(&mut self, now: SimTime, f: usize, size: u32, d: &Datagram) {
        let record = UdpDatagram {
            seqno: d.seq,
            size,
            marker: false,
        };
        let delay = (now - d.sent_at).as_secs_f64();
        self.udp_mut(f).stats.on_received(&record, d.sent_at, now);
        let stats = &mut self.flows[f].stats;
        stats.data_arrival(now, size, delay);
        if let Some(t) = self.traces.datagrams.as_mut() {
            t.push(
                now.as_secs_f64(),
                f as i64,
                d.seq as i64,
                i64::from(size),
                delay,
            );
        }
    }
}
