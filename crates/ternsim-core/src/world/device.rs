//! The interface kinds the world drives, behind one seam (see `crate::net::iface`): a
//! wired link direction (one port) and a UMTS radio bearer (an RNC port and a UE port).
//! The 802.11 channel with its NICs is the next variant.
//!
//! The world calls `submit` and `on_wake`, drains the [`IfaceOutput`] (drops, transmit
//! failures, arrivals, in that order), then calls `rearm` so the device asks for its next
//! wake-up only after everything the arrivals triggered was scheduled (the order the event
//! queue breaks ties in stays what it always was). Trace records are drained into the
//! run's typed traces by `drain_traces`.

use std::collections::HashMap;

use crate::net::addr::Addr;
use crate::net::iface::IfaceOutput;
use crate::net::packet::{DropReason, Packet};
use crate::net::wired::WiredDirection;
use crate::sim::SimTime;
use crate::trace::{RunningStats, TraceSet};
use crate::umts::{BearerEvent, BearerOutput, Direction, RadioBearer, SduId, Side};
use crate::wifi::WifiChannel;

/// Port numbers of a radio bearer.
pub const RNC_PORT: u16 = 0;
pub const UE_PORT: u16 = 1;

/// A radio bearer and the packets inside it. The bearer sees only SDU ids and sizes; the
/// packets themselves wait here until the bearer delivers or discards their SDU.
pub struct BearerDevice {
    pub bearer: RadioBearer,
    pub name: String,
    /// The time of the wake-up already asked for, if any.
    pending: Option<SimTime>,
    /// Packets inside the bearer by SDU id, with the time they entered.
    sdus: HashMap<SduId, (Packet, SimTime)>,
    next_sdu: SduId,
    /// SDU delay across the bearer, per direction (0 = downlink, 1 = uplink).
    pub sdu_delay: [RunningStats; 2],
    out: BearerOutput,
    /// SDU delay records (time, direction, bytes, delay) for the `sdu_delay` trace.
    delay_records: Vec<(SimTime, usize, u32, f64)>,
    trace_delay: bool,
}

impl BearerDevice {
    pub fn new(bearer: RadioBearer, name: String, trace_rlc: bool, trace_delay: bool) -> Self {
        BearerDevice {
            bearer,
            name,
            pending: None,
            sdus: HashMap::new(),
            next_sdu: 0,
            sdu_delay: [RunningStats::default(); 2],
            out: BearerOutput {
                trace: trace_rlc,
                ..BearerOutput::default()
            },
            delay_records: Vec::new(),
            trace_delay,
        }
    }

    fn submit(&mut self, now: SimTime, port: u16, packet: Packet, out: &mut IfaceOutput) {
        let side = if port == RNC_PORT {
            Side::Rnc
        } else {
            Side::Ue
        };
        let id = self.next_sdu;
        self.next_sdu += 1;
        if self.bearer.submit(now, side, id, packet.size) {
            self.sdus.insert(id, (packet, now));
        } else {
            out.drops.push((packet, DropReason::RlcBufferOverflow));
        }
    }

    fn rearm(&mut self, out: &mut IfaceOutput) {
        if let Some(t) = self.bearer.next_event() {
            if self.pending.is_none_or(|p| t < p) {
                self.pending = Some(t);
                out.wakes.push((t, 0, crate::sim::scheduler::exact_of(t)));
            }
        }
    }

    fn on_wake(&mut self, now: SimTime, out: &mut IfaceOutput) {
        if self.pending == Some(now) {
            self.pending = None;
        }
        if self.bearer.next_event().is_none_or(|t| t > now) {
            return; // a stale wake-up: `rearm` asks for the real one
        }
        // Keep the trace events of this advance for `drain_traces`.
        let keep = self.out.events.len();
        self.out.delivered.clear();
        self.out.discarded.clear();
        self.bearer.advance(now, &mut self.out);
        debug_assert!(self.out.events.len() >= keep);
        for &(_, id) in &self.out.discarded {
            if let Some((packet, _)) = self.sdus.remove(&id) {
                out.drops.push((packet, DropReason::RlcDiscard));
            }
        }
        for &(side, id) in &self.out.delivered {
            let Some((packet, entered)) = self.sdus.remove(&id) else {
                continue;
            };
            let delay = (now - entered).as_secs_f64();
            let (port, dir) = match side {
                Side::Ue => (UE_PORT, 0),
                Side::Rnc => (RNC_PORT, 1),
            };
            self.sdu_delay[dir].add(delay);
            if self.trace_delay {
                self.delay_records.push((now, dir, packet.size, delay));
            }
            out.arrivals.push((port, packet));
        }
    }

    pub fn packets_held(&self) -> usize {
        self.sdus.len()
    }

    fn drain_traces(&mut self, traces: &mut TraceSet) {
        let dir_name = |d: usize| if d == 0 { "downlink" } else { "uplink" };
        if let Some(t) = traces.sdu_delay.as_mut() {
            for &(at, dir, bytes, delay) in &self.delay_records {
                t.push(
                    at.as_secs_f64(),
                    &self.name,
                    dir_name(dir),
                    i64::from(bytes),
                    delay,
                );
            }
        }
        self.delay_records.clear();
        for (at, e) in self.out.events.drain(..) {
            trace_bearer_event(traces, &self.name, at, &e);
        }
    }
}

fn trace_bearer_event(traces: &mut TraceSet, bearer: &str, at: SimTime, e: &BearerEvent) {
    let t = at.as_secs_f64();
    let dir_name = |d: Direction| match d {
        Direction::Down => "downlink",
        Direction::Up => "uplink",
    };
    let side_name = |s: Side| match s {
        Side::Rnc => "rnc",
        Side::Ue => "ue",
    };
    if let BearerEvent::BufferOccupancy { side, bytes } = e {
        if let Some(tb) = traces.rlc_buffer.as_mut() {
            tb.push(t, bearer, side_name(*side), *bytes as i64);
        }
        return;
    }
    let Some(tb) = traces.rlc.as_mut() else {
        return;
    };
    // (direction, event, sn, retransmission, poll, nacks)
    let row: (&str, &str, i64, bool, bool, i64) = match e {
        BearerEvent::PduSent {
            dir,
            sn,
            retransmission,
            poll,
        } => (dir_name(*dir), "pdu", *sn as i64, *retransmission, *poll, 0),
        BearerEvent::StatusSent { dir, status } => (
            dir_name(*dir),
            "status_sent",
            status.lsn.map_or(-1, |s| s as i64),
            false,
            false,
            status.nacks.len() as i64,
        ),
        BearerEvent::StatusReceived { dir, status } => (
            dir_name(*dir),
            "status_received",
            status.lsn.map_or(-1, |s| s as i64),
            false,
            false,
            status.nacks.len() as i64,
        ),
        BearerEvent::BlockError { dir, sn } => (
            dir_name(*dir),
            "block_error",
            sn.map_or(-1, |s| s as i64),
            false,
            false,
            0,
        ),
        BearerEvent::PollTimerExpired { side } => (
            dir_name(side.tx_direction()),
            "poll_timer_expired",
            -1,
            false,
            false,
            0,
        ),
        BearerEvent::SduDiscarded { side, sdu } => (
            dir_name(side.tx_direction()),
            "sdu_discarded",
            *sdu as i64,
            false,
            false,
            0,
        ),
        BearerEvent::BufferOccupancy { .. } => return,
    };
    tb.push(t, bearer, row.0, row.1, row.2, row.3, row.4, row.5);
}

/// One link layer instance.
// Wired directions are the hot path of wired runs and stay inline; the rarer, larger
// kinds are boxed.
#[allow(clippy::large_enum_variant)]
pub enum Device {
    /// One direction of a wired link; `link` is its index in the scenario, `dir` 0 for
    /// a→b and 1 for b→a.
    Wired {
        wire: WiredDirection,
        link: usize,
        dir: usize,
    },
    Bearer(Box<BearerDevice>),
    /// An 802.11 channel: port i is the NIC of the i-th positioned node.
    Wifi(Box<WifiChannel>),
}

impl Device {
    /// `next_hop` is the link-layer destination: point-to-point devices ignore it, a shared
    /// medium addresses the frame by it (`Addr::BROADCAST` for a broadcast).
    /// `now_exact` is `now` as the scheduler's exact time in seconds (see
    /// `sim::scheduler`), which a wired direction starts its transmission from.
    pub fn submit(
        &mut self,
        now: SimTime,
        now_exact: f64,
        port: u16,
        packet: Packet,
        next_hop: Addr,
        out: &mut IfaceOutput,
    ) {
        match self {
            Device::Wired { wire, .. } => wire.submit(now, now_exact, packet, out),
            Device::Bearer(b) => b.submit(now, port, packet, out),
            Device::Wifi(w) => w.submit(now, port, packet, next_hop, out),
        }
    }

    /// Drops the packets waiting in `port`'s interface queue for `next_hop` (a shared
    /// medium's queue; point-to-point devices have no next hops to tell apart).
    pub fn purge_queued(&mut self, now: SimTime, port: u16, next_hop: Addr, out: &mut IfaceOutput) {
        if let Device::Wifi(w) = self {
            w.purge_queued(now, port, next_hop, out);
        }
    }

    /// Hands back the packets waiting in `port`'s interface queue for `next_hop` as
    /// transmit failures (a shared medium's queue; see `WifiChannel::reclaim_queued`).
    pub fn reclaim_queued(
        &mut self,
        now: SimTime,
        port: u16,
        next_hop: Addr,
        out: &mut IfaceOutput,
    ) {
        if let Device::Wifi(w) = self {
            w.reclaim_queued(now, port, next_hop, out);
        }
    }

    /// Drops every packet waiting in `port`'s interface queue (a shared medium's; `$node
    /// reset`).
    pub fn flush_queue(&mut self, now: SimTime, port: u16, out: &mut IfaceOutput) {
        if let Device::Wifi(w) = self {
            w.flush_queue(now, port, out);
        }
    }

    /// Routing has handled the transmit failures `port` reported: a MAC that waited for it
    /// takes its next packet (see `WifiChannel::resume_after_tx_failure`).
    pub fn resume_after_tx_failure(&mut self, now: SimTime, port: u16, out: &mut IfaceOutput) {
        if let Device::Wifi(w) = self {
            w.resume_after_tx_failure(now, port, out);
        }
    }

    pub fn on_wake(&mut self, now: SimTime, tag: u32, out: &mut IfaceOutput) {
        match self {
            Device::Wired { wire, .. } => wire.on_wake(now, tag, out),
            Device::Bearer(b) => b.on_wake(now, out),
            Device::Wifi(w) => w.on_wake(now, tag, out),
        }
    }

    /// After the world drained a call's output: ask for the next wake-up if needed.
    pub fn rearm(&mut self, out: &mut IfaceOutput) {
        match self {
            // The channel asks for its wake-ups inside `submit` and `on_wake`.
            Device::Wired { .. } | Device::Wifi(_) => {}
            Device::Bearer(b) => b.rearm(out),
        }
    }

    pub fn packets_held(&self) -> usize {
        match self {
            Device::Wired { wire, .. } => wire.packets_held(),
            Device::Bearer(b) => b.packets_held(),
            Device::Wifi(w) => w.packets_held(),
        }
    }

    /// Moves trace records into the run's traces; `link_names` names wired links.
    pub fn drain_traces(&mut self, link_names: &[String], traces: &mut TraceSet) {
        match self {
            Device::Wired { wire, link, dir } => {
                if let Some(t) = traces.queues.as_mut() {
                    let direction = if *dir == 0 { "a_to_b" } else { "b_to_a" };
                    for &(at, len, e) in &wire.queue_events {
                        t.push(
                            at.as_secs_f64(),
                            &link_names[*link],
                            direction,
                            len as i64,
                            e.name(),
                        );
                    }
                }
                wire.queue_events.clear();
            }
            Device::Bearer(b) => b.drain_traces(traces),
            Device::Wifi(w) => {
                if let Some(t) = traces.queues.as_mut() {
                    // An interface queue per NIC: `link` is the interface (`<node>/wifi`).
                    for &(at, station, len, e) in &w.queue_events {
                        let name = format!("{}/wifi", w.station_names[usize::from(station)]);
                        t.push(at as f64 * 1e-9, &name, "ifq", len as i64, e.name());
                    }
                }
                w.queue_events.clear();
            }
        }
    }

    pub fn wired_mut(&mut self) -> Option<&mut WiredDirection> {
        match self {
            Device::Wired { wire, .. } => Some(wire),
            Device::Bearer(_) | Device::Wifi(_) => None,
        }
    }
}
