//! One type for the three ns-2 traffic generators, so a host drives CBR, Exponential and Pareto
//! on/off sources the same way:
//!
//! ```text
//! src.start(now, rng)                       // at the flow's start time
//! loop at t = src.next_send():              // None = stopped or out of packets
//!     bytes = src.on_send(t, rng)
//!     for d in agent.sendmsg(bytes, src.new_burst()) { stats.on_sent(&d); transmit(d) }
//! src.stop()                                // at the stop time, before a send due then
//! ```

use super::cbr::{Cbr, CbrConfig};
use super::draws::SourceDraws;
use super::onoff::{OnOff, OnOffConfig, OnOffLaw};
use crate::sim::SimTime;

/// What a scenario asks for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TrafficConfig {
    Cbr(CbrConfig),
    ExpOnOff(OnOffConfig),
    ParetoOnOff { on_off: OnOffConfig, shape: f64 },
}

/// A running traffic generator. Build it with [`TrafficSource::new`], which keeps each on/off
/// variant's law consistent with its name.
#[derive(Clone, Debug)]
pub enum TrafficSource {
    Cbr(Cbr),
    ExpOnOff(OnOff),
    ParetoOnOff(OnOff),
}

impl TrafficSource {
    pub fn new(cfg: TrafficConfig) -> Result<Self, String> {
        Ok(match cfg {
            TrafficConfig::Cbr(c) => TrafficSource::Cbr(Cbr::new(c)?),
            TrafficConfig::ExpOnOff(c) => {
                TrafficSource::ExpOnOff(OnOff::new(c, OnOffLaw::Exponential)?)
            }
            TrafficConfig::ParetoOnOff { on_off, shape } => {
                TrafficSource::ParetoOnOff(OnOff::new(on_off, OnOffLaw::Pareto { shape })?)
            }
        })
    }

    /// CBR sends its first packet at `now`; the on/off sources start idle and draw their
    /// first burst here.
    pub fn start(&mut self, now: SimTime, rng: &mut impl SourceDraws) {
        match self {
            TrafficSource::Cbr(c) => c.start(now),
            TrafficSource::ExpOnOff(s) | TrafficSource::ParetoOnOff(s) => s.start(now, rng),
        }
    }

    pub fn next_send(&self) -> Option<SimTime> {
        match self {
            TrafficSource::Cbr(c) => c.next_send(),
            TrafficSource::ExpOnOff(s) | TrafficSource::ParetoOnOff(s) => s.next_send(),
        }
    }

    /// [`TrafficSource::next_send`] exactly, in seconds: what the wired links compute their
    /// exact times from (`sim::scheduler`, "Exact times").
    pub fn next_send_exact(&self) -> Option<f64> {
        match self {
            TrafficSource::Cbr(c) => c.next_send_exact(),
            TrafficSource::ExpOnOff(s) | TrafficSource::ParetoOnOff(s) => s.next_send_exact(),
        }
    }

    /// Sends the packet due at `now` (= [`TrafficSource::next_send`]); returns the bytes for
    /// the agent.
    pub fn on_send(&mut self, now: SimTime, rng: &mut impl SourceDraws) -> u32 {
        match self {
            TrafficSource::Cbr(c) => c.on_send(now, rng),
            TrafficSource::ExpOnOff(s) | TrafficSource::ParetoOnOff(s) => s.on_send(now, rng),
        }
    }

    pub fn stop(&mut self) {
        match self {
            TrafficSource::Cbr(c) => c.stop(),
            TrafficSource::ExpOnOff(s) | TrafficSource::ParetoOnOff(s) => s.stop(),
        }
    }

    /// The `NEW_BURST` flag of the packet the last `on_send` returned (Exponential only).
    pub fn new_burst(&self) -> bool {
        match self {
            TrafficSource::ExpOnOff(s) => s.new_burst(),
            TrafficSource::Cbr(_) | TrafficSource::ParetoOnOff(_) => false,
        }
    }

    pub fn packets_sent(&self) -> u64 {
        match self {
            TrafficSource::Cbr(c) => c.packets_sent(),
            TrafficSource::ExpOnOff(s) | TrafficSource::ParetoOnOff(s) => s.packets_sent(),
        }
    }

    /// The packet type ns-2 gives the agent once this source is attached, as traces print it.
    pub fn trace_type(&self) -> &'static str {
        match self {
            TrafficSource::Cbr(_) => "cbr",
            TrafficSource::ExpOnOff(_) => "exp",
            TrafficSource::ParetoOnOff(_) => "pareto",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::cbr::CbrPacing;
    use crate::app::udp::{DatagramStats, UdpAgent};
    use crate::sim::RandomStream;

    #[test]
    fn one_driver_runs_all_three_through_the_udp_agent() {
        // 1500-byte CBR writes over a 1000-byte agent: each send is 2 datagrams (1000 + 500).
        let configs = [
            TrafficConfig::Cbr(CbrConfig {
                packet_size: 1500,
                pacing: CbrPacing::Rate { bps: 120_000.0 }, // I = 0.1 s
                random: false,
                max_packets: Some(3),
            }),
            TrafficConfig::ExpOnOff(OnOffConfig::ns2_default()),
            TrafficConfig::ParetoOnOff {
                on_off: OnOffConfig::ns2_default(),
                shape: 1.5,
            },
        ];
        let mut types = Vec::new();
        for cfg in configs {
            let mut src = TrafficSource::new(cfg).unwrap();
            let mut agent = UdpAgent::ns2_default();
            let mut stats = DatagramStats::default();
            let mut rng = RandomStream::named(1, "traffic");
            src.start(SimTime::ZERO, &mut rng);
            let mut first_marked = None;
            while let Some(t) = src.next_send().filter(|&t| t < SimTime::from_millis(5000)) {
                let bytes = src.on_send(t, &mut rng);
                for d in agent.sendmsg(u64::from(bytes), src.new_burst()) {
                    first_marked.get_or_insert(d.marker);
                    stats.on_sent(&d);
                }
            }
            src.stop();
            assert_eq!(src.next_send(), None);
            assert_eq!(stats.sent_packets, agent.datagrams_sent());
            assert_eq!(
                stats.sent_bytes,
                src.packets_sent() * u64::from(packet_size(&cfg))
            );
            // Only the Exponential source marks its first (burst-opening) packet.
            assert_eq!(first_marked, Some(src.trace_type() == "exp"));
            types.push(src.trace_type());
        }
        assert_eq!(types, ["cbr", "exp", "pareto"]);
    }

    fn packet_size(cfg: &TrafficConfig) -> u32 {
        match cfg {
            TrafficConfig::Cbr(c) => c.packet_size,
            TrafficConfig::ExpOnOff(c) | TrafficConfig::ParetoOnOff { on_off: c, .. } => {
                c.packet_size
            }
        }
    }

    #[test]
    fn invalid_configs_are_refused() {
        assert!(TrafficSource::new(TrafficConfig::ParetoOnOff {
            on_off: OnOffConfig::ns2_default(),
            shape: 0.9,
        })
        .is_err());
    }
}
