//! `WifiChannel`: every 802.11 NIC on one shared channel, as one sans-IO interface
//! (see [`crate::net::iface`]). Port i is the NIC of station i.
//!
//! This file owns the shared medium: who hears a frame (spatial index + received power),
//! what each receiver makes of it (link-spec §3.3 rules 9-10, §3.4: carrier only, decodable,
//! capture, collision, half duplex), the LL delays (§3.5), the interface queue hand-off,
//! delivery and the wake-up bookkeeping. The DCF rules themselves are in `dcf.rs`.
//!
//! **Events.** A frame costs the world one wake-up for its end, whatever the number of
//! receivers: when a station starts transmitting, every station within carrier-sense range
//! gets the frame's reception interval [start + d/c, end + d/c] recorded at once (the start of
//! reception is applied at its own time stamp, the receiver's backoff is frozen at that
//! instant), and the outcome at each receiver is settled either by the frame-end wake (at the
//! last receiver's end) or earlier, the moment that receiver does anything else. Timers are
//! deadlines inside each station, kept in one agenda for the whole channel (a heap of
//! `(time, order, index << 3 | kind)` entries, valid only while the station's deadline of
//! that kind still equals the entry's time), and the world is asked for a wake-up only at the
//! agenda's earliest time: a backoff frozen and resumed by every frame on the air costs no
//! world event unless it becomes the channel's next deadline.
//!
//! Approximations, all below the propagation delay (≤ 2 µs at 550 m): two receptions that
//! start at a receiver within one propagation delay of each other are ordered by their
//! transmission start; a frame whose start reaches a receiver after that receiver settled an
//! earlier frame ending within the same window is not counted as overlapping it.

use std::collections::VecDeque;

use crate::mobility::trajectory::Piece;
use crate::mobility::{Mobility, Position};
use crate::net::addr::Addr;
use crate::net::iface::{IfaceOutput, TxFailure, TxFailureCause};
use crate::net::packet::{DropReason, Packet};
use crate::net::wired::QueueEvent;
use crate::sim::heap::{Keyed, MinHeap};
use crate::sim::scheduler::exact_of;
use crate::sim::{RandomStream, SimTime};
use crate::wifi::backoff::Backoff;
use crate::wifi::config::{
    Timing, WifiConfig, ACK_BYTES, ARP_BYTES, CTS_BYTES, PLCP_BYTES, RTS_BYTES,
};
use crate::wifi::grid::{Grid, SmallKeyMap};
use crate::wifi::ifq::{Enqueued, Ifq, Queued, Waiting};
use crate::wifi::mac_log::{MacFrameKind, MacLogEntry};
use crate::wifi::propagation::{propagation_delay_ns, shadowing_factor, SPEED_OF_LIGHT};
use crate::wifi::stats::WifiStats;

/// The most stations a channel keeps its pair cache for (`WifiChannel::pair_cache`): an
/// n × n table of 16-byte entries, 1 MiB at this size.
const PAIR_CACHE_MAX_STATIONS: usize = 256;

/// Wake kinds (low 3 bits of a tag).
pub(super) const BACKOFF: usize = 0;
pub(super) const DEFER: usize = 1;
pub(super) const SEND: usize = 2;
pub(super) const LL_UP: usize = 3;
pub(super) const LL_DOWN: usize = 4;
pub(super) const FRAME_END: usize = 5;
const N_TIMERS: usize = 5;

/// What the world tells the channel about one station.
#[derive(Clone, Debug)]
pub struct StationSpec {
    pub addr: Addr,
    pub mobility: Mobility,
    /// The station's MAC stream, e.g. `RandomStream::named(seed, "wifi/<node>/mac")`.
    pub rng: RandomStream,
}

/// ns-2 `tx_state_` (link-spec §3.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum TxState {
    Idle,
    Rts,
    Cts,
    Send,
    Ack,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum FrameKind {
    Rts,
    Cts,
    Ack,
    Data,
}

/// The frame a station is locked on (ns-2 `pktRx_`), with its interval at this station.
#[derive(Clone, Copy, Debug)]
pub(super) struct Reception {
    pub frame: usize,
    pub start: u64,
    pub end: u64,
    pub power: f64,
    /// Below RXThresh, or the station was transmitting when it began.
    pub error: bool,
    /// Overlapped by another frame without capture (ns-2 `MAC_COLL`).
    pub coll: bool,
    /// The propagation delay from its sender, unrounded (ns).
    pub delay_exact: f64,
    /// Its first bit arrives, unrounded, before the nanosecond `start` it is rounded to, as
    /// this station's own timers count: see [`Station::receiving`].
    pub early: bool,
}

/// The DATA frame the MAC is trying to send (ns-2 `pktTx_`). `packet` is `None` once the
/// addressee has taken it (a retransmission after a lost ACK carries only the header; the
/// sender's own copy is `delivered_copy`) or, for a broadcast, once it is on the air.
#[derive(Debug)]
pub(super) struct PendingData {
    pub packet: Option<Packet>,
    pub next_hop: Addr,
    pub ip_bytes: u32,
    pub seq: u16,
    pub retry: bool,
    /// An ARP message instead of a packet (`packet` is then `None`, `ip_bytes` 28).
    pub arp: Option<Arp>,
    /// The sender's copy of a unicast packet once the addressee has taken it. ns-2's MAC
    /// keeps `pktTx_` until the ACK comes (the receiver decodes a copy), so when only the
    /// ACKs were lost the retry limit still hands this packet to routing's transmit-failure
    /// callback (`RetransmitDATA` → `xmit_failure_(pktTx_->copy())`), and a retransmission
    /// is traced with the packet's IP part.
    pub delivered_copy: Option<Packet>,
}

/// An ARP message (link-spec §3.5). ARP frames are link-layer only, not `Packet`s: they
/// travel as DATA frames of 28 octets, like RTS/CTS/ACK are internal to the channel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arp {
    /// Broadcast "who has `target`".
    Request { target: Addr },
    /// Unicast answer to the requester.
    Reply,
}

/// One ARP table entry per next hop (ns-2 `ARPEntry`). Entries never expire.
#[derive(Debug, Default)]
pub(super) struct ArpEntry {
    pub resolved: bool,
    /// The one packet waiting for the address.
    pub hold: Option<Queued>,
    /// Requests sent since the entry was created or last gave up.
    pub count: u32,
}

impl PendingData {
    pub fn broadcast(&self) -> bool {
        self.next_hop.is_broadcast()
    }
}

/// A control frame waiting SIFS to go out (ns-2 `pktCTRL_`).
#[derive(Clone, Copy, Debug)]
pub(super) enum Ctrl {
    Cts { dst: u16, duration_us: u64 },
    Ack { dst: u16 },
}

/// One frame on the air.
#[derive(Debug)]
pub(super) struct Frame {
    pub kind: FrameKind,
    pub src: u16,
    /// Receiver address (RA): a station's address or broadcast.
    pub ra: Addr,
    pub duration_us: u64,
    pub seq: u16,
    /// IP bytes of a DATA frame.
    pub ip_bytes: u32,
    pub air: u64,
    /// Stations in carrier-sense range and the end of the frame at each.
    pub receivers: Vec<(u16, u64)>,
    /// Stations that decoded a DATA frame for them (and must get the packet), with the end
    /// of the frame there.
    pub deliver: Vec<(u16, u64)>,
    /// Stations that decoded a unicast DATA frame for someone else (promiscuous tap).
    pub overhear: Vec<u16>,
    /// A broadcast frame's packet: it leaves the sender when transmission starts.
    pub payload: Option<Packet>,
    /// The ARP message of an ARP frame (a DATA frame carrying no packet).
    pub arp: Option<Arp>,
    /// When the last receiver has the whole frame (the frame-end deadline).
    pub end_at: u64,
}

pub(super) struct Station {
    pub addr: Addr,
    pub mobility: Mobility,
    /// For a station on a trajectory: the leg it was last found on, so that the positions
    /// of the next frames on the same leg need no search of the path.
    pub piece: Option<Piece>,
    pub cell: (i64, i64),
    pub rng: RandomStream,
    pub ifq: Ifq,
    pub tx_state: TxState,
    /// End of the station's own transmission (ns-2 `tx_active_` until then).
    pub tx_until: u64,
    pub rx: Option<Reception>,
    /// True while a decoded frame is being handled: ns-2 is still in `MAC_RECV` then.
    pub in_recv: bool,
    pub nav: u64,
    /// The sender of the frame whose end last made the medium idle here, and that frame's
    /// unrounded propagation delay (ns); `None` after this station's own transmission.
    /// The station's DIFS and backoff count from that end, so they carry its delay.
    pub idle_ref: Option<(usize, f64)>,
    pub cw: u32,
    pub ssrc: u32,
    pub slrc: u32,
    pub backoff: Backoff,
    pub pkt_tx: Option<PendingData>,
    pub pkt_rts: bool,
    pub pkt_ctrl: Option<Ctrl>,
    /// The MAC holds a packet from the queue (ns-2 `callback_` set, queue blocked).
    pub holding: bool,
    /// A transmit failure went to routing and the MAC waits for its answer before it takes
    /// the next packet from the queue, with the frame-exchange state it failed in. ns-2
    /// runs the routing callback inside `RetransmitRTS`/`RetransmitDATA`, before
    /// `tx_resume` asks the queue for the next packet, so what routing takes out of the
    /// queue (AODV's `ifqueue->filter`) never reaches the MAC. See
    /// [`WifiChannel::resume_after_tx_failure`].
    pub awaiting_routing: Option<TxState>,
    /// The `D RET` line of the DATA that went to routing, written once routing has handled
    /// the failure (ns-2 discards the packet after the callback returns).
    pub given_up_line: Option<MacLogEntry>,
    pub seqno: u16,
    /// Last sequence number seen from each source station (duplicate filter).
    pub last_seq: SmallKeyMap<u16, u16>,
    /// Packets going up, due after the LL delay, in time order.
    pub ll_up: VecDeque<(u64, Packet)>,
    /// What comes down to the queue, in time order: packets due after the LL delay, ARP
    /// frames after the ARP table's.
    pub ll_down: VecDeque<(u64, Waiting)>,
    pub timers: [Option<u64>; N_TIMERS],
    pub stats: WifiStats,
    /// ARP table by next-hop address.
    pub arp_table: SmallKeyMap<Addr, ArpEntry>,
    /// Test hook: backoff draws (in slots) used before the random stream, in order.
    pub forced_backoff: VecDeque<u64>,
}

impl Station {
    /// Whether the station is receiving at `t`: handling a decoded frame, or inside a
    /// reception that began before `t`. A frame whose first bit arrives at `t` itself is
    /// not yet being received: in ns-2 its arrival is an event scheduled one propagation
    /// delay earlier, by the sender's transmission, after this station's own timers for
    /// `t` (a backoff armed at least a DIFS before, a defer a SIFS before, the link layer's
    /// hand-down), and events due at one time run in the order they were scheduled. So a
    /// station whose backoff ends in the very slot another's frame reaches it transmits
    /// too, and the two collide: two stations that resume from the same frame's end pick
    /// the same slot count 1 time in CW and then tie exactly, the later by the propagation
    /// delay between them.
    ///
    /// That tie is exact only while the two stations keep their distance. ns-2 keeps time
    /// in doubles: when the sender of the tying frame also sent the frame whose end started
    /// this station's count, the frame arrives first, and this station defers, exactly when
    /// its propagation delay has shrunk since (the two approach; `early`).
    pub fn receiving(&self, t: u64) -> bool {
        self.in_recv
            || self
                .rx
                .is_some_and(|rx| (rx.start < t || rx.start == t && rx.early) && t < rx.end)
    }
}

/// The shared channel and all its stations.
pub struct WifiChannel {
    pub(super) cfg: WifiConfig,
    pub(super) t: Timing,
    pub(super) st: Vec<Station>,
    pub(super) frames: Vec<Option<Frame>>,
    free_frames: Vec<usize>,
    /// Emptied receiver and delivery lists of frames that ended, kept for the next frames:
    /// a frame's lists would otherwise cost an allocation and a free each.
    pub(super) spare_lists: Vec<Vec<(u16, u64)>>,
    /// Copies of packets that have ended (a sender's copy once its ACK came, an overheard
    /// copy routing has read), kept to take the next copies: see [`Packet::copied_into`].
    spare_packets: Vec<Packet>,
    grid: Grid,
    /// Each station's position at the last re-bucket (its exact position if it is static),
    /// by station index. Kept apart from `Station`: every transmission reads it for each
    /// station in the 3×3 block of cells around the sender (hundreds in a large network)
    /// to skip those out of reach, and 16 bytes a station stay in cache where one cache
    /// line of a large `Station` each would not.
    recorded: Vec<Position>,
    any_mobile: bool,
    /// While no station moves: the received power and the propagation delay (ns) of each
    /// (sender, receiver) pair, row = sender, computed on first use (`NaN` power: not yet).
    /// They are the numbers the exact computation gives for the pair every time, without
    /// its square root, powers and divisions per frame and receiver. Empty when a station is
    /// mobile or there are more than [`PAIR_CACHE_MAX_STATIONS`] stations.
    pair_cache: Vec<(f64, u64)>,
    last_regrid: u64,
    /// Farther than this (m) a frame is certainly below CSThresh: the carrier-sense range
    /// with a margin that no rounding in the exact power computation can cross.
    sense_reach_m: f64,
    /// The fastest any mobile station moves (m/s): how far a station can be from the
    /// position recorded at the last re-bucket.
    speed_bound_mps: f64,
    scratch: Vec<u16>,
    /// Under the shadowing model: the stream of the per-frame, per-receiver draws (ns-2's
    /// one `RNG` per `Propagation/Shadowing` object). See [`WifiChannel::set_shadowing_stream`].
    shadowing_rng: RandomStream,
    /// Under [`WifiConfig::incoming_loss`]: each station's stream of its error model's
    /// draws, by station index. See [`WifiChannel::set_incoming_loss_streams`].
    incoming_rngs: Vec<RandomStream>,
    /// Every armed deadline, earliest (time, insertion order) first. Lazily cleaned.
    agenda: MinHeap<Deadline>,
    agenda_seq: u64,
    /// Times the world has been asked to wake the channel at and has not yet, latest
    /// first: a handful at most, and the one removed is nearly always the earliest, so a
    /// sorted vector beats a tree here.
    requested: Vec<u64>,
    /// Wake-ups handed to the world (for events-per-frame measurements).
    pub wakes_requested: u64,
    pub frames_sent: u64,
    /// When the first frame went on the air, in ns (ns-2 prints its channel's antenna height
    /// and carrier-sense distance then, `WirelessChannel::sendUp`).
    pub first_frame_at: Option<u64>,
    /// Record interface-queue events (the `queues` trace): off unless the run traces queues.
    pub trace_queues: bool,
    /// (time ns, station, queue length after the event, event), drained by the world.
    pub queue_events: Vec<(u64, u16, usize, QueueEvent)>,
    /// Station names for traces (node names; empty unless the owner sets them).
    pub station_names: Vec<String>,
    /// Record MAC events for ns-2's MAC trace lines (`mac_log.rs`): off unless the run
    /// writes an ns-2 trace with MAC lines.
    pub trace_mac: bool,
    /// The MAC events since the world last drained them, in the order they happened.
    pub mac_log: Vec<MacLogEntry>,
    /// With `trace_mac`: where and when each packet the interface queue turned away was
    /// dropped, (uid, station, time ns), for its `D IFQ` line.
    pub ifq_drop_sites: Vec<(u64, u16, u64)>,
}

/// An agenda entry packed in one integer, so that the agenda's heap moves 16 bytes per
/// entry: the deadline's time in the high 64 bits, then the order it was armed in
/// ([`ORDER_BITS`] bits), then its tag `index << 3 | kind` ([`TAG_BITS`] bits). Ordering the
/// integers is ordering by (time, order); orders are unique, so the tag never decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Deadline(u128);

const TAG_BITS: u32 = 24;
const ORDER_BITS: u32 = 64 - TAG_BITS;

impl Deadline {
    fn new(at: u64, order: u64, tag: u32) -> Self {
        debug_assert!(order < 1 << ORDER_BITS && tag < 1 << TAG_BITS);
        Deadline((u128::from(at) << 64) | u128::from(order << TAG_BITS | u64::from(tag)))
    }

    fn at(self) -> u64 {
        (self.0 >> 64) as u64
    }

    #[cfg(test)]
    fn order(self) -> u64 {
        (self.0 as u64) >> TAG_BITS
    }

    fn tag(self) -> u32 {
        (self.0 as u32) & ((1 << TAG_BITS) - 1)
    }
}

impl Keyed for Deadline {
    #[inline]
    fn key(&self) -> u128 {
        self.0
    }
}

/// Renumbers the entries of `agenda` 0, 1, 2, ... in their order and returns the next
/// free order.
fn renumber(agenda: &mut MinHeap<Deadline>) -> u64 {
    let mut entries = Vec::with_capacity(agenda.len());
    while let Some(d) = agenda.pop() {
        entries.push(d);
    }
    for (order, d) in entries.iter().enumerate() {
        agenda.push(Deadline::new(d.at(), order as u64, d.tag()));
    }
    entries.len() as u64
}

fn position(m: &Mobility, t: u64) -> Position {
    m.position_at(SimTime(t))
        .unwrap_or(Position { x: 0.0, y: 0.0 })
}

impl WifiChannel {
    /// Builds the channel. A station without a position is placed at the origin.
    pub fn new(cfg: WifiConfig, stations: Vec<StationSpec>) -> WifiChannel {
        assert!(stations.len() < usize::from(u16::MAX), "too many stations");
        let t = cfg.timing();
        let reach = cfg.cs_range_m() + 2.0 * cfg.max_speed_mps * cfg.regrid_period.as_secs_f64();
        let mut grid = Grid::new(reach);
        let mut any_mobile = false;
        let sense_reach_m = sense_reach(&cfg);
        let speed_bound_mps = stations
            .iter()
            .map(|s| s.mobility.max_speed_mps())
            .fold(cfg.max_speed_mps, f64::max);
        let mut recorded = Vec::with_capacity(stations.len());
        let st: Vec<Station> = stations
            .into_iter()
            .enumerate()
            .map(|(i, s)| {
                let pos = position(&s.mobility, 0);
                recorded.push(pos);
                let cell = grid.cell_of(pos);
                grid.insert(i as u16, cell);
                any_mobile |= !matches!(s.mobility, Mobility::Static(_));
                Station {
                    addr: s.addr,
                    mobility: s.mobility,
                    piece: None,
                    cell,
                    rng: s.rng,
                    ifq: Ifq::new(cfg.ifq, cfg.ifq_limit),
                    tx_state: TxState::Idle,
                    tx_until: 0,
                    rx: None,
                    in_recv: false,
                    nav: 0,
                    idle_ref: None,
                    cw: cfg.cw_min,
                    ssrc: 0,
                    slrc: 0,
                    backoff: Backoff::Off,
                    pkt_tx: None,
                    pkt_rts: false,
                    pkt_ctrl: None,
                    holding: false,
                    awaiting_routing: None,
                    given_up_line: None,
                    seqno: 1,
                    last_seq: SmallKeyMap::default(),
                    ll_up: VecDeque::new(),
                    ll_down: VecDeque::new(),
                    timers: [None; N_TIMERS],
                    stats: WifiStats::default(),
                    arp_table: SmallKeyMap::default(),
                    forced_backoff: VecDeque::new(),
                }
            })
            .collect();
        let mut channel = WifiChannel {
            cfg,
            t,
            st,
            frames: Vec::new(),
            free_frames: Vec::new(),
            spare_lists: Vec::new(),
            spare_packets: Vec::new(),
            grid,
            recorded,
            any_mobile,
            pair_cache: Vec::new(),
            last_regrid: 0,
            sense_reach_m,
            speed_bound_mps,
            scratch: Vec::new(),
            shadowing_rng: RandomStream::named(0, "wifi/shadowing/0"),
            incoming_rngs: Vec::new(),
            agenda: MinHeap::with_capacity(64),
            agenda_seq: 0,
            requested: Vec::new(),
            wakes_requested: 0,
            frames_sent: 0,
            first_frame_at: None,
            trace_queues: false,
            queue_events: Vec::new(),
            station_names: Vec::new(),
            trace_mac: false,
            mac_log: Vec::new(),
            ifq_drop_sites: Vec::new(),
        };
        channel.reset_pair_cache();
        channel
    }

    /// Empties the pair cache (positions changed) and keeps it only while no station moves.
    fn reset_pair_cache(&mut self) {
        let n = self.st.len();
        self.pair_cache.clear();
        if !self.any_mobile && n <= PAIR_CACHE_MAX_STATIONS {
            self.pair_cache.resize(n * n, (f64::NAN, 0));
        }
    }

    /// The received power at `r` of a frame `s` sends from `from` at `now`, and its
    /// propagation delay in ns.
    ///
    /// Also the delay unrounded (ns). The cache holds only pairs that never move, whose
    /// delay is the same for every frame, so the rounded one stands in for it there.
    fn pair_link(&mut self, s: usize, r: usize, from: Position, now: u64) -> (f64, u64, f64) {
        let slot = s * self.st.len() + r;
        if let Some(&(power, delay)) = self.pair_cache.get(slot) {
            if !power.is_nan() {
                return (power, delay, delay as f64);
            }
        }
        let d = from.distance(self.pos_at(r, now));
        let link = (self.cfg.radio.rx_power(d), propagation_delay_ns(d));
        if let Some(cached) = self.pair_cache.get_mut(slot) {
            *cached = link;
        }
        (link.0, link.1, d / SPEED_OF_LIGHT * 1e9)
    }

    /// The stream the shadowing draws come from (the world names it after the run seed and
    /// the model's seed, `wifi/shadowing/<seed>`). Unused under the other models.
    pub fn set_shadowing_stream(&mut self, rng: RandomStream) {
        self.shadowing_rng = rng;
    }

    /// The streams of the stations' incoming error models, one per station in station
    /// order (the world names them `wifi/<node>/incoming`). Needed under
    /// [`WifiConfig::incoming_loss`] only.
    pub fn set_incoming_loss_streams(&mut self, rngs: Vec<RandomStream>) {
        debug_assert_eq!(rngs.len(), self.st.len());
        self.incoming_rngs = rngs;
    }

    pub fn config(&self) -> &WifiConfig {
        &self.cfg
    }

    /// The Duration field of a unicast DATA frame, in µs (SIFS + T(ACK)).
    pub fn data_duration_us(&self) -> u64 {
        self.t.data_duration_us()
    }

    pub fn stations(&self) -> usize {
        self.st.len()
    }

    pub fn stats(&self, port: u16) -> &WifiStats {
        &self.st[usize::from(port)].stats
    }

    /// Packets waiting in the port's interface queue (not counting the one in the MAC).
    pub fn queue_len(&self, port: u16) -> usize {
        self.st[usize::from(port)].ifq.len()
    }

    /// Packets held anywhere in the channel (queues, MACs, LL delays, frames on the air).
    pub fn packets_held(&self) -> usize {
        let per_station: usize = self
            .st
            .iter()
            .map(|s| {
                s.ifq.packets()
                    + s.ll_up.len()
                    + s.ll_down
                        .iter()
                        .filter(|(_, w)| matches!(w, Waiting::Packet(_)))
                        .count()
                    + usize::from(s.pkt_tx.as_ref().is_some_and(|d| d.packet.is_some()))
                    + s.arp_table.values().filter(|e| e.hold.is_some()).count()
            })
            .sum();
        per_station
            + self
                .frames
                .iter()
                .flatten()
                .filter(|f| f.payload.is_some())
                .count()
    }

    /// Moves a station (scripted position change). Takes effect for frames sent from now on.
    pub fn set_position(&mut self, port: u16, pos: Position) {
        self.set_mobility(port, Mobility::Static(Some(pos)));
    }

    /// Replaces a station's mobility model. Non-static models are re-bucketed in the spatial
    /// index every `regrid_period`; `max_speed_mps` must bound their speed.
    pub fn set_mobility(&mut self, port: u16, mobility: Mobility) {
        let s = &mut self.st[usize::from(port)];
        self.any_mobile |= !matches!(mobility, Mobility::Static(_));
        self.speed_bound_mps = self.speed_bound_mps.max(mobility.max_speed_mps());
        s.mobility = mobility;
        s.piece = None;
        let pos = position(&s.mobility, self.last_regrid);
        let cell = self.grid.cell_of(pos);
        if cell != s.cell {
            self.grid.remove(port, s.cell);
            self.grid.insert(port, cell);
        }
        s.cell = cell;
        self.recorded[usize::from(port)] = pos;
        self.reset_pair_cache();
    }

    // ------------------------------------------------------------------------------------
    // The interface seam.

    /// The node hands a packet for `next_hop` (`Addr::BROADCAST` for a broadcast frame) to
    /// its NIC. ARP resolves the next hop at once (ns-2 `LL::sendDown` calls `arpresolve`
    /// before it schedules the packet); a packet it lets through reaches the interface
    /// queue after the LL delay (link-spec §3.5).
    pub fn submit(
        &mut self,
        now: SimTime,
        port: u16,
        packet: Packet,
        next_hop: Addr,
        out: &mut IfaceOutput,
    ) {
        let s = usize::from(port);
        let Some(q) = self.arp_resolve(s, now.as_nanos(), Queued { packet, next_hop }, out) else {
            self.request_wake(out);
            return;
        };
        let ready = now.as_nanos() + self.cfg.ll_delay.as_nanos();
        self.st[s].ll_down.push_back((ready, Waiting::Packet(q)));
        if !self.st[s].holding && self.st[s].ll_down.len() == 1 {
            self.arm(s, LL_DOWN, ready, out);
        }
        self.request_wake(out);
    }

    /// Drops every packet waiting in `port`'s interface queue for `next_hop`, in queue order,
    /// as transmit failures that routing gave up on (`link_failure`, ns-2 `CBK`).
    pub fn purge_queued(&mut self, now: SimTime, port: u16, next_hop: Addr, out: &mut IfaceOutput) {
        for q in self.take_queued_for(now, port, next_hop, out) {
            out.drops.push((q.packet, DropReason::LinkFailure));
        }
    }

    /// Hands back every packet waiting in `port`'s interface queue for `next_hop`, in queue
    /// order, as transmit failures (`TxFailureCause::Queued`): routing takes them out to
    /// salvage them (ns-2 DSR's `xmitFailed`, `prq_get_nexthop`).
    pub fn reclaim_queued(
        &mut self,
        now: SimTime,
        port: u16,
        next_hop: Addr,
        out: &mut IfaceOutput,
    ) {
        for q in self.take_queued_for(now, port, next_hop, out) {
            out.tx_failures.push(TxFailure {
                port,
                next_hop: q.next_hop,
                packet: q.packet,
                cause: TxFailureCause::Queued,
            });
        }
    }

    /// Takes out of `port`'s interface queue every packet waiting for `next_hop`, in queue
    /// order. The packet the MAC holds and those still in the LL's delay are not in the
    /// queue, as in ns-2.
    fn take_queued_for(
        &mut self,
        now: SimTime,
        port: u16,
        next_hop: Addr,
        out: &mut IfaceOutput,
    ) -> Vec<Queued> {
        let s = usize::from(port);
        if self.st[s].holding {
            // While the MAC holds a packet, what the LL hands down waits in `ll_down` until
            // the next pull folds it in; in ns-2 it is in the queue from its due time on.
            self.ll_down_into_queue(s, now.as_nanos(), out);
        }
        let mut taken = Vec::new();
        self.st[s].ifq.remove_for(next_hop, &mut taken);
        taken
    }

    /// Drops every packet waiting in `port`'s interface queue, in queue order (ns-2
    /// `$node reset`: the queue's `reset` drops them as `END`). The packet the MAC holds and
    /// those still in the LL's delay are not in the queue.
    pub fn flush_queue(&mut self, now: SimTime, port: u16, out: &mut IfaceOutput) {
        let s = usize::from(port);
        if self.st[s].holding {
            self.ll_down_into_queue(s, now.as_nanos(), out);
        }
        while let Some(w) = self.st[s].ifq.dequeue() {
            // An ARP frame in the queue goes too (ternsim traces no END line for it).
            if let Waiting::Packet(q) = w {
                out.drops.push((q.packet, DropReason::EndOfSimulation));
            }
        }
    }

    /// Routing has answered the transmit failure `port` reported at `now`: the MAC, which
    /// waited (`Station::awaiting_routing`), takes its next packet from the queue now, in
    /// the frame-exchange state it failed in, and then goes idle, as ns-2's `tx_resume`
    /// does after `RetransmitRTS`/`RetransmitDATA` returned from the routing callback. If
    /// it has since started a CTS or ACK, the `tx_resume` that follows that frame pulls.
    pub fn resume_after_tx_failure(&mut self, now: SimTime, port: u16, out: &mut IfaceOutput) {
        let s = usize::from(port);
        let t = now.as_nanos();
        if let Some(line) = self.st[s].given_up_line.take() {
            self.mac_log.push(line);
        }
        let Some(failed_in) = self.st[s].awaiting_routing.take() else {
            return;
        };
        let st = &self.st[s];
        if !st.holding || st.pkt_tx.is_some() || st.pkt_rts || st.pkt_ctrl.is_some() {
            return;
        }
        let current = st.tx_state;
        if current == TxState::Idle {
            self.st[s].tx_state = failed_in;
        }
        self.pull(s, t, out);
        self.st[s].tx_state = current;
        self.check_backoff(s, t, out);
        self.request_wake(out);
    }

    /// A wake-up the channel asked for fired: run every deadline due by `now`, in the order
    /// they were armed, then ask for the next one. The tag carries nothing.
    pub fn on_wake(&mut self, now: SimTime, _tag: u32, out: &mut IfaceOutput) {
        let now = now.as_nanos();
        if let Ok(i) = self.requested.binary_search_by(|t| now.cmp(t)) {
            self.requested.remove(i);
        }
        while let Some(&d) = self.agenda.peek() {
            let (at, tag) = (d.at(), d.tag());
            if at > now {
                break;
            }
            self.agenda.pop();
            if !self.is_live(at, tag) {
                continue; // the deadline moved or was cancelled
            }
            let kind = (tag & 7) as usize;
            let idx = (tag >> 3) as usize;
            if kind == FRAME_END {
                self.frame_end(idx, at, out);
                continue;
            }
            self.st[idx].timers[kind] = None;
            self.settle(idx, at, out);
            match kind {
                BACKOFF => self.backoff_expired(idx, at, out),
                DEFER => self.defer_expired(idx, at, out),
                SEND => self.send_timer(idx, at, out),
                LL_UP => self.ll_up_due(idx, at, out),
                LL_DOWN => self.ll_down_due(idx, at, out),
                _ => unreachable!("wake kind {kind}"),
            }
        }
        self.request_wake(out);
    }

    fn is_live(&self, at: u64, tag: u32) -> bool {
        let kind = (tag & 7) as usize;
        let idx = (tag >> 3) as usize;
        if kind == FRAME_END {
            self.frames[idx].as_ref().is_some_and(|f| f.end_at == at)
        } else {
            self.st[idx].timers[kind] == Some(at)
        }
    }

    /// Makes sure the world will wake the channel at its earliest live deadline.
    fn request_wake(&mut self, out: &mut IfaceOutput) {
        while let Some(&d) = self.agenda.peek() {
            let (at, tag) = (d.at(), d.tag());
            if self.is_live(at, tag) {
                if let Err(i) = self.requested.binary_search_by(|t| at.cmp(t)) {
                    self.requested.insert(i, at);
                    out.wakes.push((SimTime(at), 0, exact_of(SimTime(at))));
                    self.wakes_requested += 1;
                }
                return;
            }
            self.agenda.pop();
        }
    }

    // Inlined, with the renumbering kept out of line: renumbering inlined here made every
    // push save and restore six registers for a path a run never takes.
    #[inline]
    fn push_agenda(&mut self, at: u64, tag: u32) {
        assert!(
            tag < 1 << TAG_BITS,
            "more frames on the air than the agenda can tag"
        );
        if self.agenda_seq == 1 << ORDER_BITS {
            self.renumber_agenda();
        }
        self.agenda.push(Deadline::new(at, self.agenda_seq, tag));
        self.agenda_seq += 1;
    }

    /// Gives the agenda's entries the orders 0, 1, 2, ... in the order they have, so that a
    /// run arming more than 2^40 deadlines goes on numbering them: only the relative order
    /// of the entries counts, and it is unchanged.
    #[cold]
    #[inline(never)]
    fn renumber_agenda(&mut self) {
        self.agenda_seq = renumber(&mut self.agenda);
    }

    // ------------------------------------------------------------------------------------
    // Timers.

    /// Sets station `s`'s deadline of `kind` to `at` (the agenda entry of the old one goes
    /// stale).
    pub(super) fn arm(&mut self, s: usize, kind: usize, at: u64, _out: &mut IfaceOutput) {
        if self.st[s].timers[kind] != Some(at) {
            self.st[s].timers[kind] = Some(at);
            self.push_agenda(at, ((s as u32) << 3) | kind as u32);
        }
    }

    pub(super) fn disarm(&mut self, s: usize, kind: usize) {
        self.st[s].timers[kind] = None;
    }

    // ------------------------------------------------------------------------------------
    // LL and the interface queue.

    fn ll_up_due(&mut self, s: usize, now: u64, out: &mut IfaceOutput) {
        while self.st[s].ll_up.front().is_some_and(|(at, _)| *at <= now) {
            let (_, p) = self.st[s].ll_up.pop_front().expect("front checked");
            self.st[s].stats.delivered += 1;
            out.arrivals.push((s as u16, p));
        }
        if let Some(&(at, _)) = self.st[s].ll_up.front() {
            self.arm(s, LL_UP, at, out);
        }
    }

    pub(super) fn ll_up_push(&mut self, s: usize, at: u64, p: Packet, out: &mut IfaceOutput) {
        let q = &mut self.st[s].ll_up;
        let pos = q.iter().rposition(|(t, _)| *t <= at).map_or(0, |i| i + 1);
        q.insert(pos, (at, p));
        let front = q.front().expect("just pushed").0;
        self.arm(s, LL_UP, front, out);
    }

    /// Packets and ARP frames due at the queue: the first goes straight to an idle MAC
    /// (ns-2 `Queue::recv` on an unblocked queue), the rest wait in the queue.
    fn ll_down_due(&mut self, s: usize, now: u64, out: &mut IfaceOutput) {
        while self.st[s].ll_down.front().is_some_and(|(at, _)| *at <= now) {
            let (at, w) = self.st[s].ll_down.pop_front().expect("front checked");
            if self.st[s].holding {
                self.enqueue(s, at, w, out);
            } else {
                self.st[s].holding = true;
                self.mac_take(s, at, w, out);
            }
        }
        self.arm_ll_down(s, out);
    }

    /// The MAC takes `w` at `t`.
    fn mac_take(&mut self, s: usize, t: u64, w: Waiting, out: &mut IfaceOutput) {
        match w {
            Waiting::Packet(q) => self.mac_send(s, t, q, out),
            Waiting::Arp { ra, msg } => self.mac_send_arp(s, t, ra, msg, out),
        }
    }

    /// Asks for a wake-up for the next packet coming down, but only if the MAC is free to
    /// take it then; while the MAC holds a packet, arrivals are folded into the queue when
    /// the MAC next pulls from it (`pull`), in arrival order, so they cost no wake-up.
    fn arm_ll_down(&mut self, s: usize, out: &mut IfaceOutput) {
        if self.st[s].holding {
            self.disarm(s, LL_DOWN);
        } else if let Some(&(at, _)) = self.st[s].ll_down.front() {
            self.arm(s, LL_DOWN, at, out);
        }
    }

    /// Moves every packet and ARP frame that reached the queue by `t` into it.
    pub(super) fn ll_down_into_queue(&mut self, s: usize, t: u64, out: &mut IfaceOutput) {
        while self.st[s].ll_down.front().is_some_and(|(at, _)| *at <= t) {
            let (at, w) = self.st[s].ll_down.pop_front().expect("front checked");
            self.enqueue(s, at, w, out);
        }
    }

    /// `w` comes down to the queue at `at`, out of turn (the ARP table's frames and the
    /// packet it held, which it schedules after its own delay): in time order, after what
    /// is already due at the same instant.
    pub(super) fn ll_down_push(&mut self, s: usize, at: u64, w: Waiting, out: &mut IfaceOutput) {
        let d = &mut self.st[s].ll_down;
        let pos = d.iter().rposition(|(t, _)| *t <= at).map_or(0, |i| i + 1);
        d.insert(pos, (at, w));
        self.arm_ll_down(s, out);
    }

    fn enqueue(&mut self, s: usize, at: u64, w: Waiting, out: &mut IfaceOutput) {
        let st = &mut self.st[s];
        let event = if let Enqueued::Dropped(d) = st.ifq.enqueue(w) {
            st.stats.drops_ifq += 1;
            match d {
                Waiting::Packet(d) => {
                    if self.trace_mac {
                        // The queue takes in what came down while the MAC was busy only
                        // when it next pulls: the trace needs the drop's own place and time.
                        self.ifq_drop_sites.push((d.packet.uid, s as u16, at));
                    }
                    out.drops.push((d.packet, DropReason::IfqOverflow));
                }
                Waiting::Arp { ra, msg } => self.log_arp_ifq_drop(s, at, ra, msg),
            }
            QueueEvent::Drop
        } else {
            QueueEvent::Enqueue
        };
        let st = &mut self.st[s];
        let len = st.ifq.len();
        st.stats.ifq_max = st.stats.ifq_max.max(len as u64);
        if self.trace_queues {
            self.queue_events.push((at, s as u16, len, event));
        }
    }

    /// The `D IFQ` line of an ARP frame the full interface queue dropped at `t`.
    fn log_arp_ifq_drop(&mut self, s: usize, t: u64, ra: Addr, msg: Arp) {
        if !self.trace_mac {
            return;
        }
        let entry = MacLogEntry {
            time: t,
            port: s as u16,
            event: 'D',
            reason: "---",
            layer: "IFQ",
            kind: MacFrameKind::of(FrameKind::Data, Some(msg), ra),
            bytes: ARP_BYTES,
            duration_us: 0,
            ra,
            ta: Some(self.st[s].addr),
            packet: None,
        };
        self.mac_log.push(entry);
    }

    /// The MAC finished its packet (ns-2 `callback_` → `Queue::resume`): the next queued
    /// packet, if any, enters the MAC at `t`.
    pub(super) fn pull(&mut self, s: usize, t: u64, out: &mut IfaceOutput) {
        self.ll_down_into_queue(s, t, out);
        match self.st[s].ifq.dequeue() {
            Some(w) => {
                if self.trace_queues {
                    let len = self.st[s].ifq.len();
                    self.queue_events
                        .push((t, s as u16, len, QueueEvent::Dequeue));
                }
                self.st[s].holding = true;
                self.mac_take(s, t, w, out);
            }
            None => {
                self.st[s].holding = false;
                self.arm_ll_down(s, out);
            }
        }
    }

    // ------------------------------------------------------------------------------------
    // The medium.

    fn alloc_frame(&mut self, f: Frame) -> usize {
        match self.free_frames.pop() {
            Some(i) => {
                self.frames[i] = Some(f);
                i
            }
            None => {
                self.frames.push(Some(f));
                self.frames.len() - 1
            }
        }
    }

    fn refresh_positions(&mut self, now: u64) {
        if !self.any_mobile || now < self.last_regrid + self.cfg.regrid_period.as_nanos() {
            return;
        }
        self.last_regrid = now;
        for i in 0..self.st.len() {
            if matches!(self.st[i].mobility, Mobility::Static(_)) {
                continue;
            }
            let pos = position(&self.st[i].mobility, now);
            let cell = self.grid.cell_of(pos);
            if cell != self.st[i].cell {
                self.grid.remove(i as u16, self.st[i].cell);
                self.grid.insert(i as u16, cell);
                self.st[i].cell = cell;
            }
            self.recorded[i] = pos;
        }
    }

    /// Station `s`'s exact position at `t` (the same numbers as its mobility model gives).
    fn pos_at(&mut self, s: usize, t: u64) -> Position {
        let st = &mut self.st[s];
        match &st.mobility {
            Mobility::Static(_) => self.recorded[s],
            Mobility::Trajectory(tr) => match st.piece {
                Some(piece) if piece.covers(t) => piece.position_at(t),
                _ => {
                    let piece = tr.piece_at(SimTime(t));
                    st.piece = Some(piece);
                    piece.position_at(t)
                }
            },
        }
    }

    /// Station `s` puts `frame` on the air at `now` for `frame.air` ns; its send timer
    /// (timeout) fires at `now + timeout`. Every station within carrier-sense range starts
    /// receiving it after the propagation delay (link-spec §3.3 rules 9-10, §3.4).
    pub(super) fn transmit(
        &mut self,
        s: usize,
        now: u64,
        mut frame: Frame,
        timeout: u64,
        out: &mut IfaceOutput,
    ) {
        self.frames_sent += 1;
        self.first_frame_at.get_or_insert(now);
        let air = frame.air;
        self.st[s].tx_until = now + air;
        self.st[s].idle_ref = None;
        self.arm(s, SEND, now + timeout, out);
        // Half duplex: a frame being received while we start sending is lost (ns-2
        // `transmit` marks `pktRx_` in error).
        if let Some(rx) = self.st[s].rx.as_mut() {
            if rx.end > now {
                rx.error = true;
            }
        }
        self.check_backoff(s, now, out);
        self.refresh_positions(now);
        let from = self.pos_at(s, now);
        let mut cands = std::mem::take(&mut self.scratch);
        cands.clear();
        self.grid.candidates(from, &mut cands);
        let fid = self.alloc_frame(Frame {
            receivers: Vec::new(),
            ..std::mem::replace(&mut frame, placeholder())
        });
        self.log_frame(now, s, 's', "---", fid, false);
        let mut receivers = self.spare_lists.pop().unwrap_or_default();
        let mut last_end = now + air;
        // A station is at most `drift` from the position recorded at the last re-bucket
        // (exact for static stations), so one recorded farther than `sense_reach_m + drift`
        // cannot sense the frame: it is skipped on squared distances, without computing its
        // exact position and distance. Every other station goes through the exact
        // computation, so the stations that hear the frame, and their order, are unchanged.
        let drift = self.speed_bound_mps * now.saturating_sub(self.last_regrid) as f64 * 1e-9;
        let skip_beyond = self.sense_reach_m + drift;
        let skip_beyond_sq = skip_beyond * skip_beyond;
        let shadowing_db = self.cfg.radio.shadowing_std_db();
        for &r in &cands {
            let r = usize::from(r);
            if r == s {
                continue;
            }
            let recorded = self.recorded[r];
            let (dx, dy) = (recorded.x - from.x, recorded.y - from.y);
            if dx * dx + dy * dy > skip_beyond_sq {
                continue;
            }
            let (mut power, delay, delay_exact) = self.pair_link(s, r, from, now);
            if let Some(sigma) = shadowing_db {
                // shadowing.cc `Shadowing::Pr`: each receiver's copy of each frame gets its
                // own N(0, σ) dB on top of the mean path loss; ns-2 draws it as the copy
                // arrives (`WirelessPhy::sendUp`), ternsim as the frame leaves, from its own
                // stream (the same distribution, not ns-2's numbers). The draw then decides
                // everything the power does: CSThresh, RXThresh and capture.
                power *= shadowing_factor(self.shadowing_rng.normal(0.0, sigma));
            }
            if power < self.cfg.cs_threshold_w {
                continue; // below CSThresh the frame does not exist here
            }
            let t0 = now + delay;
            let end = t0 + air;
            self.settle(r, t0, out);
            self.recv_start(r, s, fid, t0, end, (power, delay_exact), now, out);
            receivers.push((r as u16, end));
            last_end = last_end.max(end);
        }
        self.scratch = cands;
        let f = self.frames[fid].as_mut().expect("live");
        f.receivers = receivers;
        f.end_at = last_end;
        self.push_agenda(last_end, ((fid as u32) << 3) | FRAME_END as u32);
    }

    /// The first bit of a frame `s` sent reaches station `r` at `t0` (ns-2
    /// `Mac802_11::recv`), with `power` and the unrounded propagation delay in `link`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn recv_start(
        &mut self,
        r: usize,
        s: usize,
        fid: usize,
        t0: u64,
        end: u64,
        link: (f64, f64),
        now: u64,
        out: &mut IfaceOutput,
    ) {
        let (power, delay_exact) = link;
        let mut error = self.st[r].tx_until > t0 || power < self.cfg.rx_threshold_w;
        if let Some(loss) = self.cfg.incoming_loss {
            // ns-2 `-IncomingErrProc`: the error model between this PHY and its MAC judges
            // the frame as its first bit comes up (one draw per frame, `u < rate_`).
            if self.incoming_rngs[r].uniform() < loss.rate {
                self.st[r].stats.incoming_losses += 1;
                if loss.drop {
                    return; // to the drop target: the MAC never sees it
                }
                error = true;
            }
        }
        let cp = self.cfg.capture_threshold;
        let eifs = self.t.eifs;
        let early = self.st[r]
            .idle_ref
            .is_some_and(|(from, before)| from == s && delay_exact < before);
        let newcomer = Reception {
            frame: fid,
            start: t0,
            end,
            power,
            error,
            coll: false,
            delay_exact,
            early,
        };
        let st = &mut self.st[r];
        match st.rx.as_mut() {
            None => st.rx = Some(newcomer),
            // Frames are handed to their receivers as their transmissions start, so two that
            // start within a propagation delay of each other can reach this station in the
            // other order. ns-2 schedules each arrival (`WirelessChannel::sendUp`), so its
            // `Mac802_11::recv` sees them as they arrive: the newcomer, here first, is the
            // frame being received when the other comes in.
            Some(cur) if t0 < cur.start && !cur.coll => {
                let later = *cur;
                if power / later.power >= cp {
                    // The newcomer captures the station; the later frame only keeps the medium
                    // busy (NAV = EIFS + its air time from its arrival).
                    *cur = newcomer;
                    st.nav = st.nav.max(later.start + eifs + (later.end - later.start));
                } else {
                    // ns-2 `collision` as the later frame arrives: the one that ends first is
                    // dropped then, the other when it ends.
                    st.stats.collisions += 1;
                    let lost = if later.end > end {
                        *cur = Reception {
                            start: t0,
                            coll: true,
                            ..later
                        };
                        (fid, error)
                    } else {
                        *cur = Reception {
                            coll: true,
                            ..newcomer
                        };
                        (later.frame, later.error)
                    };
                    if self.trace_mac && self.drop_is_traced(r, lost.0, lost.1) {
                        self.log_frame(later.start, r, 'D', "COL", lost.0, false);
                    }
                }
            }
            Some(cur) => {
                if cur.power / power >= cp {
                    // Capture: the frame being received survives; the newcomer only keeps
                    // the medium busy (NAV = EIFS + its air time).
                    let until = t0 + eifs + (end - t0);
                    st.nav = st.nav.max(until);
                } else {
                    // Collision: both lost; the receiver stays busy until the later end.
                    // ns-2 `collision` drops the frame that ends first now (`D COL`) and
                    // the other when it ends (`recv_end`).
                    st.stats.collisions += 1;
                    cur.coll = true;
                    let lost = if end > cur.end {
                        let lost = (cur.frame, cur.error);
                        *cur = Reception {
                            start: cur.start,
                            coll: true,
                            ..newcomer
                        };
                        lost
                    } else {
                        (fid, error)
                    };
                    if self.trace_mac && self.drop_is_traced(r, lost.0, lost.1) {
                        self.log_frame(t0, r, 'D', "COL", lost.0, false);
                    }
                }
            }
        }
        self.check_backoff(r, now, out);
    }

    /// Finishes every reception at `r` that ended by `upto` (ns-2 `recv_timer`).
    ///
    /// Inlined with its test: most calls find no reception ended, and paid the register
    /// saves of the whole reception path (inlined below) to learn it.
    #[inline]
    pub(super) fn settle(&mut self, r: usize, upto: u64, out: &mut IfaceOutput) {
        if self.st[r].rx.is_some_and(|rx| rx.end <= upto) {
            self.settle_ended(r, upto, out);
        }
    }

    /// [`Self::settle`] of a station with a reception that ended.
    #[inline(never)]
    fn settle_ended(&mut self, r: usize, upto: u64, out: &mut IfaceOutput) {
        while let Some(rx) = self.st[r].rx {
            if rx.end > upto {
                break;
            }
            self.st[r].rx = None;
            self.recv_end(r, rx, out);
        }
    }

    fn recv_end(&mut self, r: usize, rx: Reception, out: &mut IfaceOutput) {
        let t = rx.end;
        let eifs = self.t.eifs;
        if let Some(f) = self.frames[rx.frame].as_ref() {
            self.st[r].idle_ref = Some((usize::from(f.src), rx.delay_exact));
        }
        if self.st[r].tx_until > t {
            // Transmitting when it ends: never seen, no NAV (ns-2 `tx_active_`).
        } else if rx.coll {
            if self.trace_mac && self.drop_is_traced(r, rx.frame, rx.error) {
                self.log_frame(t, r, 'D', "COL", rx.frame, false);
            }
            self.set_nav(r, t + eifs);
        } else if rx.error {
            self.st[r].stats.rx_errors += 1;
            self.set_nav(r, t + eifs);
        } else {
            let f = self.frames[rx.frame].as_ref().expect("frame on air");
            let (kind, ra, dur, src) = (f.kind, f.ra, f.duration_us, f.src);
            let me = self.st[r].addr;
            if ra != me && !ra.is_broadcast() {
                // IEEE 802.11 §9.2.5.6: a frame for someone else sets the NAV.
                self.set_nav(r, t + dur * 1000);
                if self.cfg.promiscuous && kind == FrameKind::Data {
                    self.frames[rx.frame]
                        .as_mut()
                        .expect("frame on air")
                        .overhear
                        .push(r as u16);
                }
            } else {
                self.st[r].in_recv = true;
                match kind {
                    FrameKind::Rts => self.recv_rts(r, usize::from(src), dur, rx.frame, t, out),
                    FrameKind::Cts => self.recv_cts(r, rx.frame, t, out),
                    FrameKind::Data => self.recv_data(r, rx.frame, t, out),
                    FrameKind::Ack => self.recv_ack(r, rx.frame, t, out),
                }
                self.st[r].in_recv = false;
                // An ARP frame taken (not a duplicate) goes to the ARP table at once (ns-2
                // `LL::recv` → `arpinput`, no LL delay on the way up).
                let f = self.frames[rx.frame].as_ref().expect("frame on air");
                if let Some(msg) = f.arp {
                    if f.deliver.last() == Some(&(r as u16, t)) {
                        let from = self.st[usize::from(src)].addr;
                        self.arp_input(r, t, from, msg, out);
                    }
                }
            }
        }
        // ns-2 `rx_resume`: the receiver is idle again.
        self.check_backoff(r, t, out);
    }

    pub(super) fn set_nav(&mut self, r: usize, until: u64) {
        let st = &mut self.st[r];
        st.nav = st.nav.max(until);
    }

    /// Records a MAC trace event about frame `fid` at station `port` (`mac_log.rs`), when
    /// the MAC trace is on. `ip_size`: trace a DATA frame at its IP size (passed up, or
    /// given up after the retry limit: ns-2 has taken the MAC header off by then).
    ///
    /// Inlined with its test: the MAC calls it several times per frame, and a run without
    /// the trace paid a call with seven arguments each time to read one flag.
    #[inline(always)]
    pub(super) fn log_frame(
        &mut self,
        t: u64,
        port: usize,
        event: char,
        reason: &'static str,
        fid: usize,
        ip_size: bool,
    ) {
        if self.trace_mac {
            self.write_frame_log(t, port, event, reason, fid, ip_size);
        }
    }

    /// [`Self::log_frame`] with the trace on.
    #[inline(never)]
    fn write_frame_log(
        &mut self,
        t: u64,
        port: usize,
        event: char,
        reason: &'static str,
        fid: usize,
        ip_size: bool,
    ) {
        let f = self.frames[fid].as_ref().expect("frame on air");
        let kind = MacFrameKind::of(f.kind, f.arp, f.ra);
        let src = usize::from(f.src);
        let packet = match kind {
            MacFrameKind::Data if f.ra.is_broadcast() => f.payload.clone(),
            MacFrameKind::Data => self.st[src]
                .pkt_tx
                .as_ref()
                .filter(|d| d.seq == f.seq)
                .and_then(|d| d.packet.clone().or_else(|| d.delivered_copy.clone())),
            _ => None,
        };
        // A DATA frame the receiver's `recvDATA` took counts the hop before ns-2 traces it
        // (received, or discarded there as a duplicate or while a control frame waits).
        let received_data = port != src && matches!(reason, "---" | "DUP" | "BSY");
        let packet = packet.map(|mut p| {
            if received_data {
                p.num_forwards += 1;
            }
            p
        });
        let entry = MacLogEntry {
            time: t,
            port: port as u16,
            event,
            reason,
            layer: "MAC",
            kind,
            bytes: self.frame_trace_bytes(f.kind, f.ip_bytes, ip_size),
            duration_us: f.duration_us,
            ra: f.ra,
            ta: matches!(f.kind, FrameKind::Rts | FrameKind::Data).then_some(self.st[src].addr),
            packet,
        };
        self.mac_log.push(entry);
    }

    /// The size ns-2's MAC trace prints for a frame (`mac_log.rs`).
    pub(super) fn frame_trace_bytes(&self, kind: FrameKind, ip_bytes: u32, ip_size: bool) -> u32 {
        match kind {
            FrameKind::Rts => RTS_BYTES + PLCP_BYTES,
            FrameKind::Cts => CTS_BYTES + PLCP_BYTES,
            FrameKind::Ack => ACK_BYTES + PLCP_BYTES,
            FrameKind::Data if ip_size => ip_bytes,
            FrameKind::Data => self.t.data_frame_bytes(ip_bytes),
        }
    }

    /// Whether ns-2 traces the drop of frame `fid` at station `r` (`mac-802_11.cc`
    /// `discard`): only a frame addressed to `r` or broadcast (the frames `r` sent never
    /// reach its own receiver), and never one received in error.
    pub(super) fn drop_is_traced(&self, r: usize, fid: usize, error: bool) -> bool {
        let f = self.frames[fid].as_ref().expect("frame on air");
        !error && (f.ra == self.st[r].addr || f.ra.is_broadcast())
    }

    /// The frame-end wake: settle every receiver, then hand packets to the stations that
    /// decoded a DATA frame (after the LL delay) and copies to promiscuous listeners.
    fn frame_end(&mut self, fid: usize, now: u64, out: &mut IfaceOutput) {
        let mut receivers = std::mem::take(&mut self.frames[fid].as_mut().expect("live").receivers);
        for &(r, _) in &receivers {
            self.settle(usize::from(r), now, out);
        }
        receivers.clear();
        self.spare_lists.push(receivers);
        let mut f = self.frames[fid].take().expect("live");
        self.free_frames.push(fid);
        let mut deliver = std::mem::take(&mut f.deliver);
        self.hand_over(f, &deliver, out);
        if deliver.capacity() > 0 {
            deliver.clear();
            self.spare_lists.push(deliver);
        }
    }

    /// A copy of `packet`, in the allocation of a spare packet if one is kept.
    fn copy_of(&mut self, packet: &Packet) -> Packet {
        match self.spare_packets.pop() {
            Some(spare) => packet.copied_into(spare),
            None => packet.clone(),
        }
    }

    /// Keeps a copy that has ended (a few at most) for the next copy to reuse.
    pub fn recycle(&mut self, packet: Packet) {
        if self.spare_packets.len() < SPARE_PACKETS_KEPT {
            self.spare_packets.push(packet);
        }
    }

    /// The packet of a DATA frame that ended goes to the stations that decoded it
    /// (`deliver`, the frame's delivery list) and to those that overheard it.
    fn hand_over(&mut self, f: Frame, deliver: &[(u16, u64)], out: &mut IfaceOutput) {
        if f.kind != FrameKind::Data || f.arp.is_some() {
            return;
        }
        let ll = self.cfg.ll_delay.as_nanos();
        let src = usize::from(f.src);
        if f.ra.is_broadcast() {
            let Some(packet) = f.payload else { return };
            if deliver.is_empty() {
                out.drops.push((packet, DropReason::NoReceiver));
                return;
            }
            let k = deliver.len();
            out.copies[packet.kind().index()] += (k - 1) as u64;
            let mut packet = Some(packet);
            for (i, &(r, end)) in deliver.iter().enumerate() {
                let mut p = if i + 1 == k {
                    packet.take().expect("original")
                } else {
                    packet.clone().expect("original")
                };
                p.num_forwards += 1; // ns-2 `recvDATA`
                self.ll_up_push(usize::from(r), end + ll, p, out);
            }
            return;
        }
        // Unicast: the sender still holds the packet until the ACK; the addressee takes it.
        let Some(pending) = self.st[src].pkt_tx.as_mut() else {
            return;
        };
        if pending.seq != f.seq {
            return;
        }
        // The packet is taken out while the copies are made, and put back if nobody decoded
        // the frame (the sender keeps it for the retransmission).
        let Some(mut p) = pending.packet.take() else {
            return;
        };
        for &r in &f.overhear {
            let copy = self.copy_of(&p);
            out.overheard.push((r, copy));
        }
        let Some(&(r, end)) = deliver.first() else {
            self.st[src].pkt_tx.as_mut().expect("checked above").packet = Some(p);
            return;
        };
        let copy = self.copy_of(&p);
        let pending = self.st[src].pkt_tx.as_mut().expect("checked above");
        pending.delivered_copy = Some(copy);
        p.num_forwards += 1; // ns-2 `recvDATA`
        self.ll_up_push(usize::from(r), end + ll, p, out);
    }
}

/// How many ended packet copies a channel keeps for reuse ([`WifiChannel::recycle`]).
const SPARE_PACKETS_KEPT: usize = 8;

/// The distance beyond which a frame is certainly below CSThresh. The received power falls
/// with distance, so beyond the carrier-sense range it is below the threshold; the range is
/// widened by one part in a million and one metre, far more than the rounding of the power
/// and distance computations (about 1e-15 relative), so a station this far away would be
/// refused by the exact test too.
fn sense_reach(cfg: &WifiConfig) -> f64 {
    cfg.cs_range_m() * (1.0 + 1e-6) + 1.0
}

/// An empty frame used while moving a frame into the table.
fn placeholder() -> Frame {
    Frame {
        kind: FrameKind::Ack,
        src: 0,
        ra: Addr::BROADCAST,
        duration_us: 0,
        seq: 0,
        ip_bytes: 0,
        air: 0,
        receivers: Vec::new(),
        deliver: Vec::new(),
        overhear: Vec::new(),
        payload: None,
        arp: None,
        end_at: 0,
    }
}

#[cfg(test)]
mod agenda_tests {
    use super::*;

    /// A packed entry gives back its time, order and tag; entries order by time, then order.
    #[test]
    fn a_deadline_packs_time_order_and_tag() {
        let d = Deadline::new(7, (1 << ORDER_BITS) - 1, (1 << TAG_BITS) - 1);
        assert_eq!(
            (d.at(), d.order(), d.tag()),
            (7, (1 << ORDER_BITS) - 1, (1 << TAG_BITS) - 1)
        );
        assert!(Deadline::new(5, 9, 3).key() < Deadline::new(5, 10, 0).key());
        assert!(Deadline::new(5, 10, 7).key() < Deadline::new(6, 0, 0).key());
    }

    /// Renumbering keeps the order in which the entries pop, and with their tags.
    #[test]
    fn renumbering_keeps_the_agenda_order() {
        let mut agenda = MinHeap::with_capacity(8);
        let entries = [
            (30, 900, 1),
            (10, 950, 2),
            (30, 901, 3),
            (10, 5, 4),
            (20, 77, 5),
        ];
        for &(at, order, tag) in &entries {
            agenda.push(Deadline::new(at, order, tag));
        }
        let next = renumber(&mut agenda);
        assert_eq!(next, 5);
        let mut popped = Vec::new();
        while let Some(d) = agenda.pop() {
            popped.push((d.at(), d.order(), d.tag()));
        }
        assert_eq!(
            popped,
            [(10, 0, 4), (10, 1, 2), (20, 2, 5), (30, 3, 1), (30, 4, 3)]
        );
    }
}
