//! One direction of a duplex point-to-point link: a drop-tail queue, a transmitter that
//! serialises one packet at a time at the link rate, and a propagation pipe. It is an
//! interface (see [`crate::net::iface`]) with a single port at its sending node.
//!
//! ns-2 semantics: the queue limit counts the packet being transmitted as well as those
//! waiting (ns-2's `DropTail::enque` refuses an arrival when waiting + 1 ≥ `qlim_`, before the
//! idle link takes it), so `queue = 20` is `queue-limit 20`: 19 wait besides the one on the
//! wire. RED's physical limit counts only the waiting packets, as `queue/red.cc` does. A packet is lost to the error model when its transmission ends (it still used the link);
//! each arrival is its own wake-up, scheduled when the transmission ends.
//!
//! Scheduled topology changes: a direction can go down (everything it holds is dropped with
//! `link_down`, and so is everything submitted until it comes back up) and its rate, delay
//! and error model can change mid-run. A change of delay keeps packets already in the pipe
//! on their old arrival times; the pipe stays ordered by arrival time. Wake-ups carry the
//! direction's epoch, bumped when it goes down, so wake-ups of a previous life are ignored.

use std::cell::Cell;
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use crate::channel::drop_stage::{DropPoint, DropStage, Verdict};
use crate::channel::ErrorModel;
use crate::net::iface::IfaceOutput;
use crate::net::packet::{DropReason, Packet};
use crate::net::red::{Red, RedClock, RedConfig, RedVerdict};
use crate::net::sfq::{Sfq, SfqConfig};
use crate::sim::mrg32k3a::Mrg32k3a;
use crate::sim::time::round_to_u64;
use crate::sim::{RandomStream, SimTime};

/// A direction's queue: a limit in packets and/or bytes, and RED if configured. Without RED
/// the queue is ns-2's drop-tail (`queue/drop-tail.cc`): an arrival is refused when the
/// packets waiting plus the arrival reach `limit` (so `limit` − 1 wait besides the one on the
/// wire), or when the waiting bytes plus the arrival's reach `limit_bytes`. With RED the limits are RED's physical limit (ns-2 `queue/red.cc`: the
/// arrival is refused when `limit` packets, or `limit_bytes` bytes in byte-queue mode,
/// already wait).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct QueueConfig {
    pub limit: Option<u32>,
    pub limit_bytes: Option<u64>,
    pub red: Option<RedConfig>,
    /// Stochastic Fairness Queueing instead of one FIFO (`crate::net::sfq`); its own limit.
    pub sfq: Option<SfqConfig>,
}

impl QueueConfig {
    /// Drop-tail with a limit in packets.
    pub fn packets(limit: u32) -> Self {
        QueueConfig {
            limit: Some(limit),
            limit_bytes: None,
            red: None,
            sfq: None,
        }
    }
}

/// `packet`'s SFQ bucket: by the node numbers of its (outer) source and destination, which
/// are ns-2's addresses in a script without hierarchical addressing.
fn sfq_bucket(q: &Sfq, packet: &Packet) -> usize {
    let ip = packet.routing_header();
    q.bucket_of(ip.src.index() as u32, ip.dst.index() as u32)
}

/// RED's state on a direction and the stream its early test draws from.
struct RedQueue {
    red: Red,
    rng: RandomStream,
    /// ns-2's default RNG, shared by every RED queue of the run, when the early tests draw
    /// from it instead of `rng` ([`WiredDirection::use_ns2_rng`]).
    ns2_rng: Option<Arc<Mutex<Mrg32k3a>>>,
    /// The average queue after each arrival (for the summary).
    ave: crate::trace::RunningStats,
}

/// Counters per link direction.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LinkStats {
    /// Packets whose transmission completed (delivered to the pipe or lost on the wire).
    pub packets_sent: u64,
    pub bytes_sent: u64,
    pub drops_queue: u64,
    pub drops_error: u64,
    pub drops_down: u64,
    /// Of `drops_queue`, RED's early and forced drops.
    pub drops_red_early: u64,
    pub drops_red_forced: u64,
    /// Packets RED marked (congestion experienced) instead of dropping (`setbit_`).
    pub red_marks: u64,
    /// Total transmitter busy time.
    pub busy: SimTime,
}

/// A queue event for the `queues` trace: the queue length after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueueEvent {
    Enqueue,
    Dequeue,
    Drop,
}

impl QueueEvent {
    pub fn name(self) -> &'static str {
        match self {
            QueueEvent::Enqueue => "enqueue",
            QueueEvent::Dequeue => "dequeue",
            QueueEvent::Drop => "drop",
        }
    }
}

/// A transmission in progress. The packet enters the pipe as its transmission starts, with
/// its arrival time (ns-2's `LinkDelay::recv` schedules the arrival then, before the end of
/// the transmission: the order matters when the two fall at the same instant), unless the
/// error model loses it: then it stays here until the transmission ends and is dropped.
struct OnWire {
    done: SimTime,
    size: u32,
    /// The packet's uid, to find it in the pipe (a link going down drops it first).
    uid: u64,
    lost: Option<Packet>,
}

/// Wake tags: the low bit says what is due, the rest is the epoch.
const TX_DONE: u32 = 0;
const ARRIVAL: u32 = 1;
/// Marks the end of a transmission that nothing waits behind, when the owner settles such
/// ends itself ([`WiredDirection::lazy_tx_done`]): a wake-up to reserve, not to schedule.
pub const LAZY: u32 = 1 << 31;

/// What a direction's drop stages at one point do with a packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StageVerdict {
    /// It goes on.
    Pass,
    /// A stage lost it; `traced`: that stage writes its drops to the packet trace.
    Lose { traced: bool },
    /// A stage holds it for `delay`; it then comes back to the stages at the same point
    /// from the `resume`-th on.
    Hold { delay: SimTime, resume: usize },
}

/// The wake-ups a transmission start asks for, each (time, tag, exact seconds), in the
/// order they are scheduled: the arrival at the far end (none when the error model lost
/// the packet), then the end of the transmission (tagged [`LAZY`] when the owner may
/// settle it).
#[derive(Clone, Copy, Debug)]
pub struct TxWakes {
    pub arrival: Option<(SimTime, u32, f64)>,
    pub done: (SimTime, u32, f64),
}

impl TxWakes {
    fn push_to(self, out: &mut IfaceOutput) {
        if let Some(a) = self.arrival {
            out.wakes.push(a);
        }
        out.wakes.push(self.done);
    }
}

/// What a wake-up did ([`WiredDirection::wake`]).
#[derive(Debug)]
pub enum Woken {
    /// Nothing: a wake-up of an earlier life of the direction (before it went down), or
    /// an arrival whose packet is gone.
    Nothing,
    /// This packet arrived at the far end.
    Arrival(Packet),
    /// The transmission in progress ended: `next` holds the wake-ups of the transmission
    /// that then started (a packet waited), `lost` the packet the error model lost on the
    /// wire (dropped now, having used the link).
    TxEnded {
        next: Option<TxWakes>,
        lost: Option<Packet>,
    },
}

/// What [`WiredDirection::offer`] did with a packet handed over.
#[derive(Debug)]
pub enum Offered {
    /// Refused: dropped for this reason.
    Dropped(Packet, DropReason),
    /// Waiting in the queue.
    Queued,
    /// Its transmission started at once, on the idle link.
    Started(TxWakes),
}

pub struct WiredDirection {
    pub rate_bps: f64,
    /// The propagation delay ([`Self::set_delay`] changes it) and the same in seconds,
    /// `delay / 1e9` as ns-2's `delay_` is, kept to save a conversion and a division per
    /// packet.
    delay: SimTime,
    delay_s: f64,
    pub limit: usize,
    /// A byte limit on what waits, if any.
    pub limit_bytes: Option<u64>,
    red: Option<Box<RedQueue>>,
    /// SFQ's buckets, which then hold what waits instead of `queue`.
    sfq: Option<Box<Sfq>>,
    queue: VecDeque<Packet>,
    /// Bytes waiting in `queue`.
    queued_bytes: u64,
    /// The transmission in progress: when it ends, its size, and where the packet is.
    on_wire: Option<OnWire>,
    /// The exact end of the transmission in progress, in seconds, as ns-2's double clock
    /// has it (`LinkDelay::recv`: the queue resumes at `now + 8 * size / bandwidth_`). A
    /// packet sent back to back after it starts from this exact time, not from the rounded
    /// end: a busy link's transmissions add up without a rounding error per packet, and 1000
    /// packets of 5,546.667 µs must end 5.546667 s later, not 0.3 µs off.
    on_wire_exact_end: f64,
    /// The exact arrival time, in seconds, of the packet on the wire: ns-2 schedules it when
    /// the transmission starts, at `now + (txtime + delay_)`.
    on_wire_exact_arrival: f64,
    /// Packets propagating, with their arrival times, in arrival order.
    pipe: VecDeque<(SimTime, Packet)>,
    pub error: ErrorModel,
    /// Drop stages in the order packets meet them ([`crate::channel::drop_stage`]); the
    /// world asks [`Self::stage_verdict`] before it hands a packet over and as one arrives.
    pub stages: Vec<DropStage>,
    rng: RandomStream,
    pub stats: LinkStats,
    up: bool,
    epoch: u32,
    /// The last (size, serialisation time in seconds, the same rounded to nanoseconds)
    /// computed: a direction mostly carries one or two sizes, and the time is needed at the
    /// start and the end of every transmission.
    last_txt: Cell<Option<(u32, f64, SimTime)>>,
    /// A fixed air time per frame that replaces size / rate (a radio last hop whose frame
    /// delay is fixed, `ho-mobileip` seed §V-A: "a multiple of 8 ms").
    pub frame_time: Option<SimTime>,
    /// Queue trace records (time, queue length, event), kept only when `trace` is set.
    pub trace: bool,
    pub queue_events: Vec<(SimTime, usize, QueueEvent)>,
    /// Copies of packets as their transmission starts (ns-2 trace `-`), kept only when
    /// `log_tx_starts` is set.
    pub log_tx_starts: bool,
    pub tx_starts: Vec<(SimTime, Packet)>,
    /// Whether the end of a transmission that nothing waits behind may be left to the owner
    /// (its wake-up tagged [`LAZY`]): such an end only counts the transmission and frees
    /// the link, which the owner does with [`WiredDirection::settle_transmission`] when the
    /// link is next used or the run ends, or schedules after all when a packet comes to
    /// wait behind it. Only for drop-tail FIFO queues (RED and SFQ act at each end).
    pub lazy_tx_done: bool,
    /// A `drop_rand_` forced drop's victim among the waiting packets (set by `refuse`,
    /// taken by `submit`); None when the arrival itself is dropped.
    red_victim: Option<usize>,
    /// ns-2 `avoidReordering_`: no packet arrives before the one sent ahead of it.
    pub avoid_reordering: bool,
    /// With `avoid_reordering`, the exact arrival of the last packet sent (ns-2
    /// `latest_time_`; 0 before the first).
    latest_arrival: f64,
}

impl WiredDirection {
    pub fn new(
        rate_bps: f64,
        delay: SimTime,
        limit: u32,
        error: ErrorModel,
        rng: RandomStream,
    ) -> Self {
        WiredDirection {
            rate_bps,
            delay,
            delay_s: delay.0 as f64 / 1e9,
            limit: limit as usize,
            limit_bytes: None,
            red: None,
            sfq: None,
            queue: VecDeque::new(),
            queued_bytes: 0,
            on_wire: None,
            on_wire_exact_end: 0.0,
            on_wire_exact_arrival: 0.0,
            pipe: VecDeque::new(),
            error,
            stages: Vec::new(),
            rng,
            stats: LinkStats::default(),
            up: true,
            epoch: 0,
            last_txt: Cell::new(None),
            frame_time: None,
            trace: false,
            queue_events: Vec::new(),
            log_tx_starts: false,
            tx_starts: Vec::new(),
            lazy_tx_done: false,
            red_victim: None,
            avoid_reordering: false,
            latest_arrival: 0.0,
        }
    }

    /// Applies a queue configuration; RED draws its early-drop test from `red_rng`.
    pub fn set_queue(&mut self, cfg: QueueConfig, red_rng: RandomStream) {
        self.limit = cfg.limit.map_or(usize::MAX, |l| l as usize);
        self.limit_bytes = cfg.limit_bytes;
        self.red = cfg.red.map(|c| {
            Box::new(RedQueue {
                red: Red::new(c, self.rate_bps),
                rng: red_rng,
                ns2_rng: None,
                ave: crate::trace::RunningStats::default(),
            })
        });
        self.sfq = cfg.sfq.map(|c| Box::new(Sfq::new(c)));
    }

    /// Packets waiting (not the one on the wire).
    pub fn waiting(&self) -> usize {
        self.sfq.as_ref().map_or(self.queue.len(), |q| q.len())
    }

    /// RED's early tests draw from `shared`, ns-2's default RNG as the script's ns-2 run
    /// would draw it (ns-2 `REDQueue::drop_early`: `Random::uniform()`, one draw per test,
    /// from the one generator every queue shares). False without RED.
    pub fn use_ns2_rng(&mut self, shared: &Arc<Mutex<Mrg32k3a>>) -> bool {
        match self.red.as_deref_mut() {
            Some(r) => {
                r.ns2_rng = Some(Arc::clone(shared));
                true
            }
            None => false,
        }
    }

    /// ns-2 `$redq trace VAR` on this direction's RED queue; returns the value now. None
    /// without RED.
    pub fn trace_red_var(&mut self, var: crate::net::red::RedTracedVar) -> Option<f64> {
        self.red.as_deref_mut().map(|r| r.red.trace_var(var))
    }

    /// The traced RED variables' changes since the last call.
    pub fn take_red_trace(&mut self) -> Vec<(SimTime, crate::net::red::RedTracedVar, f64)> {
        self.red
            .as_deref_mut()
            .and_then(|r| r.red.var_trace.as_deref_mut())
            .map(|t| std::mem::take(&mut t.changes))
            .unwrap_or_default()
    }

    /// RED's average queue after each arrival (mean, max), if the queue is RED.
    pub fn red_average(&self) -> Option<&crate::trace::RunningStats> {
        self.red.as_ref().map(|r| &r.ave)
    }

    /// Whether `packet`'s arrival is refused, and why: drop-tail limits, RED, or SFQ (whose
    /// bucket for it the caller found).
    /// RED may instead mark an ECN-capable packet (congestion experienced) and let it in.
    fn refuse(
        &mut self,
        now: RedClock,
        packet: &mut Packet,
        bucket: Option<usize>,
    ) -> Option<DropReason> {
        let size = packet.size;
        if let (Some(q), Some(b)) = (self.sfq.as_deref(), bucket) {
            return q.refuses(b).then_some(DropReason::QueueOverflow);
        }
        if let Some(r) = self.red.as_deref_mut() {
            let (qlen, qlim) = match self.limit_bytes {
                Some(b) if r.red.cfg.queue_in_bytes => (self.queued_bytes as f64, b as f64),
                _ => (self.queue.len() as f64, self.limit as f64),
            };
            let ect = packet.ecn_capable();
            let (verdict, marked) = match &r.ns2_rng {
                Some(shared) => {
                    let mut rng = shared.lock().expect("one thread runs the simulation");
                    r.red
                        .arrival(now, qlen, qlim, size, ect, &mut || rng.ns2_uniform_double())
                }
                None => {
                    let rng = &mut r.rng;
                    r.red
                        .arrival(now, qlen, qlim, size, ect, &mut || rng.uniform())
                }
            };
            r.ave.add(r.red.ave);
            // `drop_rand_`: the victim of a forced drop is drawn among the waiting packets
            // and the arrival, after the early test's draw, from the same generator.
            if verdict == RedVerdict::ForcedDrop && r.red.cfg.drop_rand {
                let len = self.queue.len() + 1;
                let draw = match &r.ns2_rng {
                    Some(shared) => shared
                        .lock()
                        .expect("one thread runs the simulation")
                        .ns2_next_random(),
                    None => r.rng.below(1 << 31) as u32,
                };
                let k = crate::net::red::victim_index(draw, len);
                if k < self.queue.len() {
                    self.red_victim = Some(k);
                }
            }
            if marked {
                packet.mark_congestion_experienced();
                self.stats.red_marks += 1;
            }
            return match verdict {
                RedVerdict::Enqueue | RedVerdict::Mark => None,
                RedVerdict::EarlyDrop => {
                    self.stats.drops_red_early += 1;
                    Some(DropReason::RedEarly)
                }
                RedVerdict::ForcedDrop => {
                    self.stats.drops_red_forced += 1;
                    Some(DropReason::RedForced)
                }
            };
        }
        // ns-2's DropTail::enque tests the limit before the idle link dequeues the arrival,
        // so the test holds whether or not a packet is on the wire: with queue-limit N, N − 1
        // wait while one is transmitted, and the same arrival test applies to byte limits.
        let bytes_full = self
            .limit_bytes
            .is_some_and(|b| self.queued_bytes + u64::from(size) >= b);
        (self.queue.len() + 1 >= self.limit || bytes_full).then_some(DropReason::QueueOverflow)
    }

    /// Time to serialise `bytes`, rounded to the nearest nanosecond.
    pub fn tx_time(&self, bytes: u32) -> SimTime {
        match self.frame_time {
            Some(t) => t,
            None => self.serialisation(bytes).1,
        }
    }

    /// Time to serialise `bytes` in seconds, as ns-2's `LinkDelay::txtime` computes it
    /// (`8. * size / bandwidth_`), or the fixed frame time.
    fn txt(&self, bytes: u32) -> f64 {
        if let Some(t) = self.frame_time {
            return t.0 as f64 / 1e9;
        }
        self.serialisation(bytes).0
    }

    /// `8. * size / bandwidth_` in seconds and rounded to nanoseconds, remembered for the
    /// last size (the rounding was done again at the end of every transmission).
    #[inline]
    fn serialisation(&self, bytes: u32) -> (f64, SimTime) {
        match self.last_txt.get() {
            Some((b, t, ns)) if b == bytes => (t, ns),
            _ => {
                let t = 8.0 * f64::from(bytes) / self.rate_bps;
                let ns = SimTime(round_to_u64(t * 1e9));
                self.last_txt.set(Some((bytes, t, ns)));
                (t, ns)
            }
        }
    }

    /// Starts serialising `bytes` at the exact time `start` (seconds) and returns the end
    /// rounded to the nanosecond; the exact end is kept for a packet that follows back to
    /// back, and the exact arrival for the pipe. The arithmetic is ns-2's, operation for
    /// operation (`LinkDelay::txtime` is `8. * size / bandwidth_`; the arrival is scheduled
    /// `txt + delay_` after the start), so that the doubles, and hence the order of events
    /// that round to the same nanosecond, are ns-2's. Always inlined into `start`: a call
    /// per transmission that cost a third of the function's own work.
    #[inline(always)]
    fn start_transmission(&mut self, start: f64, bytes: u32) -> SimTime {
        let txt = self.txt(bytes);
        let end = start + txt;
        self.on_wire_exact_end = end;
        self.on_wire_exact_arrival = if self.avoid_reordering {
            self.unreordered_arrival(start, txt)
        } else {
            start + (txt + self.delay_s)
        };
        SimTime(round_to_u64(end * 1e9))
    }

    /// ns-2 `LinkDelay::recv` with `avoidReordering_`: a packet whose own delay would bring
    /// it in before the last one sent arrives `txt` after that one (the last arrival moves
    /// on by `txt`); otherwise it arrives `txt + delay_` after `start`, the new last. The
    /// doubles are ns-2's, operation for operation.
    fn unreordered_arrival(&mut self, start: f64, txt: f64) -> f64 {
        let latest = self.latest_arrival;
        if txt + self.delay_s < latest - start && latest > 0.0 {
            self.latest_arrival = latest + txt;
            start + (self.latest_arrival - start)
        } else {
            self.latest_arrival = start + txt + self.delay_s;
            start + (txt + self.delay_s)
        }
    }

    /// What the drop stages at `point`, from the `from`-th of them on (0: all; a packet a
    /// stage held comes back past that stage), do with `packet`. A loss is counted as an
    /// error drop.
    #[inline]
    /// A stage that marks the packet (ECN) sets its bit here and lets it go on.
    pub fn stage_verdict(
        &mut self,
        point: DropPoint,
        packet: &mut Packet,
        from: usize,
    ) -> StageVerdict {
        // Asked twice per packet per hop; almost no link has stages, and the filtered,
        // enumerated, skipped iterator costs some thirty instructions even over nothing.
        if self.stages.is_empty() {
            return StageVerdict::Pass;
        }
        self.judge_at_stages(point, packet, from)
    }

    fn judge_at_stages(
        &mut self,
        point: DropPoint,
        packet: &mut Packet,
        from: usize,
    ) -> StageVerdict {
        let at_point = self.stages.iter_mut().filter(|s| s.point == point);
        for (k, stage) in at_point.enumerate().skip(from) {
            match stage.judge(packet.flow, packet.size) {
                Verdict::Pass => {}
                Verdict::Mark => packet.mark_congestion_experienced(),
                Verdict::Lose => {
                    self.stats.drops_error += 1;
                    return StageVerdict::Lose {
                        traced: stage.traced,
                    };
                }
                Verdict::Delay(delay) => {
                    return StageVerdict::Hold {
                        delay,
                        resume: k + 1,
                    }
                }
            }
        }
        StageVerdict::Pass
    }

    /// Whether any drop stage sits at `point`.
    pub fn has_stage(&self, point: DropPoint) -> bool {
        self.stages.iter().any(|s| s.point == point)
    }

    /// Packets waiting (not counting the one being transmitted).
    pub fn queue_len(&self) -> usize {
        self.waiting()
    }

    /// Packets held anywhere in this direction: queue, transmitter and pipe.
    pub fn packets_held(&self) -> usize {
        let lost_on_wire = self.on_wire.as_ref().is_some_and(|w| w.lost.is_some());
        self.waiting() + usize::from(lost_on_wire) + self.pipe.len()
    }

    pub fn is_up(&self) -> bool {
        self.up
    }

    /// The earliest time something is due (end of transmission or an arrival).
    pub fn next_deadline(&self) -> Option<SimTime> {
        let tx = self.on_wire.as_ref().map(|w| w.done);
        let arr = self.pipe.front().map(|(t, _)| *t);
        match (tx, arr) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Whether a wake-up with `tag` is an arrival. Arrivals leave the pipe in the order they
    /// are scheduled (unless a shortened delay overtakes), so their wake-ups form a stream
    /// in time order: the world can queue them in a lane of the event queue.
    pub fn is_arrival_tag(tag: u32) -> bool {
        tag & 1 == ARRIVAL
    }

    fn tag(&self, what: u32) -> u32 {
        debug_assert!(self.epoch < LAZY >> 1, "the epoch would reach the LAZY bit");
        (self.epoch << 1) | what
    }

    fn note(&mut self, now: SimTime, e: QueueEvent) {
        if self.trace {
            let waiting = self.waiting();
            self.queue_events.push((now, waiting, e));
        }
    }

    /// The sending node hands over a packet (a point-to-point link ignores the next hop) at
    /// `now`, exactly `now_exact` seconds (the scheduler's exact time, `sim::scheduler`).
    pub fn submit(&mut self, now: SimTime, now_exact: f64, packet: Packet, out: &mut IfaceOutput) {
        match self.offer(now, now_exact, packet) {
            Offered::Dropped(p, why) => out.drops.push((p, why)),
            Offered::Queued => {}
            Offered::Started(wakes) => wakes.push_to(out),
        }
    }

    /// [`Self::submit`] with what became of the packet returned rather than put in an
    /// output buffer: the world's lean wired path schedules the wake-ups itself.
    pub fn offer(&mut self, now: SimTime, now_exact: f64, mut packet: Packet) -> Offered {
        let bucket = self.sfq.as_deref().map(|q| sfq_bucket(q, &packet));
        if !self.up {
            self.stats.drops_down += 1;
            Offered::Dropped(packet, DropReason::LinkDown)
        } else if let Some(why) = self.refuse(
            RedClock {
                at: now,
                exact: now_exact,
            },
            &mut packet,
            bucket,
        ) {
            self.stats.drops_queue += 1;
            let dropped = match self.red_victim.take() {
                // `drop_rand_`: the arrival waits and a queued packet is dropped instead.
                Some(k) => {
                    let victim = self.queue.remove(k).expect("drawn among the waiting");
                    self.queued_bytes += u64::from(packet.size);
                    self.queued_bytes -= u64::from(victim.size);
                    self.queue.push_back(packet);
                    victim
                }
                None => packet,
            };
            self.note(now, QueueEvent::Drop);
            Offered::Dropped(dropped, why)
        } else if self.on_wire.is_none() {
            if self.log_tx_starts {
                self.tx_starts.push((now, packet.clone()));
            }
            let wakes = self.start(now, now_exact, packet);
            self.note(now, QueueEvent::Enqueue);
            Offered::Started(wakes)
        } else {
            self.queued_bytes += u64::from(packet.size);
            match (self.sfq.as_deref_mut(), bucket) {
                (Some(q), Some(b)) => q.enqueue(b, packet),
                _ => self.queue.push_back(packet),
            }
            self.note(now, QueueEvent::Enqueue);
            Offered::Queued
        }
    }

    /// A wake-up this direction asked for fired.
    pub fn on_wake(&mut self, now: SimTime, tag: u32, out: &mut IfaceOutput) {
        match self.wake(now, tag) {
            Woken::Arrival(p) => out.arrivals.push((0, p)),
            Woken::TxEnded { next, lost } => {
                if let Some(wakes) = next {
                    wakes.push_to(out);
                }
                if let Some(p) = lost {
                    out.drops.push((p, DropReason::ChannelError));
                }
            }
            Woken::Nothing => {}
        }
    }

    /// [`Self::on_wake`] with what happened returned rather than put in an output buffer:
    /// the world's lean wired path hands an arrival on and schedules a transmission's
    /// wake-ups directly (every event of a wired run but the timers'), without filling
    /// and draining the buffer's vectors. Always inlined: the compiler otherwise made it a
    /// call, with its outcome passed through memory, on the path of every arrival.
    #[inline(always)]
    pub fn wake(&mut self, now: SimTime, tag: u32) -> Woken {
        if tag >> 1 != self.epoch {
            return Woken::Nothing; // scheduled before the link went down
        }
        if tag & 1 == TX_DONE {
            let (next, lost) = self.end_transmission(now);
            return Woken::TxEnded { next, lost };
        }
        if let Some(&(at, _)) = self.pipe.front() {
            if at <= now {
                let (_, p) = self.pipe.pop_front().expect("front checked");
                return Woken::Arrival(p);
            }
        }
        Woken::Nothing
    }

    /// Starts transmitting `packet` at `now`, exactly `start` seconds, and returns the
    /// wake-ups to schedule: the error model judges it (one draw per packet, in
    /// transmission order), and unless it is lost the packet enters the pipe with its
    /// arrival time, whose wake-up is scheduled now, before the end of the transmission's
    /// (ns-2 `LinkDelay::recv`). Inlined: returned from a call, the wake-ups were written to
    /// memory field by field and read back at once whole by `offer`, a store the processor
    /// cannot forward (perf: the costliest instruction of `offer`).
    #[inline(always)]
    fn start(&mut self, now: SimTime, start: f64, packet: Packet) -> TxWakes {
        let done = self.start_transmission(start, packet.size);
        let (size, uid) = (packet.size, packet.uid);
        let mut arrival = None;
        // Most links have no error model: tested first, rather than through the model's
        // dispatch on every transmission.
        let errors = !matches!(self.error, ErrorModel::None);
        let lost = if errors && self.error.is_error(&mut self.rng) {
            Some(packet)
        } else {
            // The wake-up's exact time rounds to its nanoseconds, as the event queue wants
            // (`Scheduler::schedule_in_lane_fitted`): the arrival's own, unless that falls
            // before `now` and the wake-up is moved to `now`.
            let rounded = SimTime(round_to_u64(self.on_wire_exact_arrival * 1e9));
            let (at, exact_at) = if rounded >= now {
                (rounded, self.on_wire_exact_arrival)
            } else {
                (now, crate::sim::scheduler::exact_of(now))
            };
            // Keep the pipe in arrival order (a shortened delay can overtake); almost always
            // the packet goes last.
            if self.pipe.back().is_none_or(|(t, _)| *t <= at) {
                self.pipe.push_back((at, packet));
            } else {
                let pos = self
                    .pipe
                    .iter()
                    .rposition(|(t, _)| *t <= at)
                    .map_or(0, |i| i + 1);
                self.pipe.insert(pos, (at, packet));
            }
            arrival = Some((at, self.tag(ARRIVAL), exact_at));
            None
        };
        // Nothing to do at the end but count it and free the link: the owner may settle it.
        let lazy = self.lazy_tx_done
            && lost.is_none()
            && self.waiting() == 0
            && self.red.is_none()
            && self.sfq.is_none();
        self.on_wire = Some(OnWire {
            done,
            size,
            uid,
            lost,
        });
        let tag = self.tag(TX_DONE) | if lazy { LAZY } else { 0 };
        TxWakes {
            arrival,
            done: (done, tag, self.on_wire_exact_end),
        }
    }

    /// The transmission in progress, whose end was left to the owner ([`LAZY`]), has ended:
    /// it is counted and the link is free. Nothing waits behind it (else the owner would
    /// have scheduled its end). Inlined into the world's wired path, its one caller on a
    /// run (perf: a call per transmission, 35 instructions with the call's own cost).
    #[inline]
    pub fn settle_transmission(&mut self) {
        debug_assert_eq!(self.waiting(), 0);
        if let Some(wire) = self.on_wire.take() {
            self.count_transmission(&wire);
        }
    }

    /// A finished transmission in the link's counters.
    #[inline]
    fn count_transmission(&mut self, wire: &OnWire) {
        self.stats.packets_sent += 1;
        self.stats.bytes_sent += u64::from(wire.size);
        self.stats.busy += self.tx_time(wire.size);
    }

    /// The transmission in progress ends at `now` (a packet the error model lost is dropped
    /// now, having used the link) and the next queued packet starts: returns the wake-ups
    /// of that transmission (if a packet waited) and the packet lost on the wire (if one
    /// was).
    fn end_transmission(&mut self, now: SimTime) -> (Option<TxWakes>, Option<Packet>) {
        let Some(wire) = self.on_wire.take() else {
            return (None, None);
        };
        debug_assert_eq!(wire.done, now);
        self.count_transmission(&wire);
        let corrupted = wire.lost;
        if corrupted.is_some() {
            self.stats.drops_error += 1;
        }
        let next = match self.sfq.as_deref_mut() {
            Some(q) => q.dequeue(),
            None => self.queue.pop_front(),
        };
        let mut started = None;
        if let Some(next) = next {
            self.queued_bytes -= u64::from(next.size);
            if self.log_tx_starts {
                self.tx_starts.push((now, next.clone()));
            }
            let start = self.on_wire_exact_end;
            started = Some(self.start(now, start, next));
            self.note(now, QueueEvent::Dequeue);
        } else if let Some(r) = self.red.as_deref_mut() {
            // Nothing waits as the link finishes: RED's idle period starts (ns-2 `deque`), at
            // the transmission's exact end.
            r.red.on_idle(RedClock {
                at: now,
                exact: self.on_wire_exact_end,
            });
        }
        (started, corrupted)
    }

    /// A new drop-tail limit in packets (ns-2 `limit_` set during the run): arrivals meet it
    /// from now on; the packets already waiting stay.
    pub fn set_limit(&mut self, limit: u32) {
        self.limit = limit as usize;
    }

    /// ns-2 `DropTail::shrink_queue` (`$queue shrink-queue`, `drop_front_` false): while
    /// more packets wait than the limit, the last one is dropped as an overflow.
    pub fn shrink_queue(&mut self, now: SimTime, out: &mut IfaceOutput) {
        while self.queue.len() > self.limit {
            let p = self.queue.pop_back().expect("more than the limit wait");
            self.queued_bytes -= u64::from(p.size);
            self.stats.drops_queue += 1;
            self.note(now, QueueEvent::Drop);
            out.drops.push((p, DropReason::QueueOverflow));
        }
    }

    /// Takes the direction down: everything it holds is dropped with `link_down`.
    pub fn set_down(&mut self, out: &mut IfaceOutput) {
        if !self.up {
            return;
        }
        self.up = false;
        self.queued_bytes = 0;
        self.epoch = self.epoch.wrapping_add(1) & (u32::MAX >> 1);
        // The packet on the wire first (lost to the error model, or already in the pipe),
        // then the queue, then the pipe.
        let on_wire = self.on_wire.take().and_then(|w| {
            w.lost.or_else(|| {
                let i = self.pipe.iter().rposition(|(_, p)| p.uid == w.uid)?;
                self.pipe.remove(i).map(|(_, p)| p)
            })
        });
        let bucketed = self.sfq.as_deref_mut().map(Sfq::drain).unwrap_or_default();
        let held = on_wire
            .into_iter()
            .chain(bucketed)
            .chain(self.queue.drain(..))
            .chain(self.pipe.drain(..).map(|(_, p)| p));
        for p in held {
            self.stats.drops_down += 1;
            out.drops.push((p, DropReason::LinkDown));
        }
    }

    pub fn set_up(&mut self) {
        self.up = true;
    }

    /// A new propagation delay applies from the next transmission on.
    pub fn set_delay(&mut self, delay: SimTime) {
        self.delay = delay;
        self.delay_s = delay.0 as f64 / 1e9;
    }

    /// A new rate applies from the next transmission on.
    pub fn set_rate(&mut self, rate_bps: f64) {
        if let Some(r) = self.red.as_deref_mut() {
            r.red.set_rate(rate_bps);
        }
        self.rate_bps = rate_bps;
        self.last_txt.set(None);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::packet::tests::udp_packet;
    use crate::sim::scheduler::exact_of;

    /// The wake-ups' (time, tag), without their exact times.
    fn wakes(out: &IfaceOutput) -> Vec<(SimTime, u32)> {
        out.wakes.iter().map(|&(t, tag, _)| (t, tag)).collect()
    }

    fn link(rate: f64, delay_ms: u64, limit: u32, error: ErrorModel) -> WiredDirection {
        WiredDirection::new(
            rate,
            SimTime::from_millis(delay_ms),
            limit,
            error,
            RandomStream::from_seed_u64(1),
        )
    }

    #[test]
    fn serialisation_time_is_size_over_rate() {
        // 1040 B at 1 Mb/s = 8320 us; at 10 Mb/s = 832 us.
        let l = link(1e6, 0, 10, ErrorModel::None);
        assert_eq!(l.tx_time(1040), SimTime::from_micros(8320));
        let mut l = link(10e6, 0, 10, ErrorModel::None);
        assert_eq!(l.tx_time(1040), SimTime::from_micros(832));
        // A fixed frame time replaces size / rate for every frame, large or small.
        l.frame_time = Some(SimTime::from_millis(8));
        assert_eq!(l.tx_time(1000), SimTime::from_millis(8));
        assert_eq!(l.tx_time(40), SimTime::from_millis(8));
    }

    /// The remembered serialisation time of the last size must not outlive a rate change:
    /// 1500 B at 1 Mb/s = 12 ms, then at 2 Mb/s = 6 ms, and 40 B at 2 Mb/s = 160 us.
    #[test]
    fn a_rate_change_applies_to_a_size_already_seen() {
        let mut l = link(1e6, 0, 10, ErrorModel::None);
        assert_eq!(l.tx_time(1500), SimTime::from_millis(12));
        assert_eq!(l.tx_time(1500), SimTime::from_millis(12));
        l.set_rate(2e6);
        assert_eq!(l.tx_time(1500), SimTime::from_millis(6));
        assert_eq!(l.tx_time(40), SimTime::from_micros(160));
        assert_eq!(l.tx_time(1500), SimTime::from_millis(6));
    }

    /// The exact times are ns-2's doubles, operation for operation (`LinkDelay::recv`):
    /// 1000 B on 1.5 Mb/s and 20 ms from 0.1 s end at 0.1 + 8. * 1000 / 1.5e6 and arrive at
    /// 0.1 + (8. * 1000 / 1.5e6 + 0.02); the next packet, back to back, starts at that end.
    #[test]
    fn exact_times_are_ns2s_double_arithmetic() {
        let mut l = link(1.5e6, 20, 10, ErrorModel::None);
        let mut out = IfaceOutput::default();
        let t0 = SimTime::from_millis(100);
        l.submit(t0, 0.1, udp_packet(1, 1, 1000), &mut out);
        l.submit(t0, 0.1, udp_packet(2, 1, 1000), &mut out);
        let txt: f64 = 8.0 * 1000.0 / 1.5e6;
        let (arrival, done) = (out.wakes[0], out.wakes[1]);
        assert_eq!(arrival.2.to_bits(), (0.1_f64 + (txt + 0.02)).to_bits());
        assert_eq!(done.2.to_bits(), (0.1_f64 + txt).to_bits());
        assert_eq!(done.0, SimTime(105_333_333)); // 0.105333333... s rounded
        out.clear();
        l.on_wake(done.0, done.1, &mut out);
        let end2: f64 = (0.1 + txt) + txt;
        assert_eq!(
            out.wakes[0].2.to_bits(),
            ((0.1_f64 + txt) + (txt + 0.02)).to_bits()
        );
        assert_eq!(out.wakes[1].2.to_bits(), end2.to_bits());
    }

    /// RED with `drop_rand_` and limit 3 on ns-2's default RNG seeded 1 (next-random draws
    /// 729236, 1193744747, 30504276): packet 1 goes on the wire, 2-4 wait (the average stays
    /// below thresh_, no early test draws). Packet 5 is queued and the draw picks place
    /// 729236 mod 4 = 0: packet 2 is dropped. Packet 6: 1193744747 mod 4 = 3, itself.
    /// Packet 7: 30504276 mod 4 = 0, packet 3; 4, 5 and 7 wait.
    #[test]
    fn red_drop_rand_drops_the_queued_packet_ns2_draws() {
        let mut l = link(1e6, 10, 3, ErrorModel::None);
        let red = RedConfig {
            drop_rand: true,
            ..RedConfig::default()
        };
        l.set_queue(
            QueueConfig {
                limit: Some(3),
                limit_bytes: None,
                red: Some(red),
                sfq: None,
            },
            RandomStream::from_seed_u64(2),
        );
        assert!(l.use_ns2_rng(&Arc::new(Mutex::new(Mrg32k3a::ns2_seeded(1)))));
        let mut out = IfaceOutput::default();
        let t0 = SimTime::ZERO;
        for uid in 1..=4 {
            l.submit(t0, exact_of(t0), udp_packet(uid, 1, 125), &mut out);
        }
        assert!(out.drops.is_empty());
        let mut dropped = vec![];
        for uid in 5..=7 {
            l.submit(t0, exact_of(t0), udp_packet(uid, 1, 125), &mut out);
            let (p, why) = out.drops.pop().expect("a forced drop");
            assert_eq!(why, DropReason::RedForced);
            dropped.push(p.uid);
        }
        assert_eq!(dropped, vec![2, 6, 3]);
        let waiting: Vec<u64> = l.queue.iter().map(|p| p.uid).collect();
        assert_eq!(waiting, vec![4, 5, 7]);
        assert_eq!(l.queued_bytes, 3 * 125);
        assert_eq!(l.stats.drops_queue, 3);
    }

    /// ns-2's `queue-limit 3` (`DropTail::enque`: refused when waiting + 1 >= 3): the first
    /// arrival goes on the wire, two wait, the fourth is dropped.
    #[test]
    fn drop_tail_limit_counts_the_packet_on_the_wire() {
        let mut l = link(1e6, 10, 3, ErrorModel::None);
        let mut out = IfaceOutput::default();
        let t0 = SimTime::ZERO;
        l.submit(t0, exact_of(t0), udp_packet(1, 1, 125), &mut out);
        // As ns-2's LinkDelay::recv: the arrival (1 ms + 10 ms) is scheduled as the
        // transmission starts, before its end.
        assert_eq!(
            wakes(&out),
            vec![
                (SimTime::from_millis(11), ARRIVAL),
                (SimTime::from_millis(1), TX_DONE)
            ]
        );
        assert_eq!(l.queue_len(), 0);
        l.submit(t0, exact_of(t0), udp_packet(2, 1, 125), &mut out);
        assert_eq!(l.queue_len(), 1);
        l.submit(t0, exact_of(t0), udp_packet(3, 1, 125), &mut out);
        assert_eq!(l.queue_len(), 2);
        assert!(out.drops.is_empty());
        l.submit(t0, exact_of(t0), udp_packet(4, 1, 125), &mut out);
        assert_eq!(out.drops.len(), 1);
        assert_eq!(out.drops[0].0.uid, 4);
        assert_eq!(out.drops[0].1, DropReason::QueueOverflow);
        assert_eq!(l.stats.drops_queue, 1);
        // First transmission ends at 1 ms; the next starts: it arrives at 12 ms and ends
        // at 2 ms.
        out.clear();
        l.on_wake(SimTime::from_millis(1), TX_DONE, &mut out);
        assert_eq!(
            wakes(&out),
            vec![
                (SimTime::from_millis(12), ARRIVAL),
                (SimTime::from_millis(2), TX_DONE)
            ]
        );
        assert_eq!(l.next_deadline(), Some(SimTime::from_millis(2)));
        out.clear();
        l.on_wake(SimTime::from_millis(11), ARRIVAL, &mut out);
        assert_eq!(out.arrivals.len(), 1);
        assert_eq!(out.arrivals[0].1.uid, 1);
        assert_eq!(l.packets_held(), 2);
    }

    /// ns-2 tests the limit before an idle link dequeues: with `queue-limit 1` even an
    /// arrival at an idle link is refused, and with 2 the link holds one on the wire and
    /// one waiting.
    #[test]
    fn drop_tail_limit_applies_to_an_idle_link() {
        let mut l = link(1e6, 10, 1, ErrorModel::None);
        let mut out = IfaceOutput::default();
        l.submit(
            SimTime::ZERO,
            exact_of(SimTime::ZERO),
            udp_packet(1, 1, 125),
            &mut out,
        );
        assert_eq!(out.drops.len(), 1);
        assert!(out.wakes.is_empty());
        let mut l = link(1e6, 10, 2, ErrorModel::None);
        let mut out = IfaceOutput::default();
        for uid in 1..=3 {
            l.submit(
                SimTime::ZERO,
                exact_of(SimTime::ZERO),
                udp_packet(uid, 1, 125),
                &mut out,
            );
        }
        assert_eq!(l.packets_held(), 2);
        assert_eq!(out.drops.len(), 1);
        assert_eq!(out.drops[0].0.uid, 3);
    }

    /// A byte limit as ns-2's byte-mode DropTail (`queue_in_bytes_`): refused when the
    /// waiting bytes plus the arrival's reach the limit. 300 B: with 125 B packets, one on
    /// the wire and two waiting (250 B) leave no room for a third (375 B >= 300 B); a
    /// 50 B packet is refused too (300 B reaches the limit), a 40 B one fits (290 B).
    #[test]
    fn drop_tail_byte_limit_counts_the_arrival() {
        let mut l = link(1e6, 10, 0, ErrorModel::None);
        l.set_queue(
            QueueConfig {
                limit: None,
                limit_bytes: Some(300),
                red: None,
                sfq: None,
            },
            RandomStream::from_seed_u64(2),
        );
        let mut out = IfaceOutput::default();
        for uid in 1..=4 {
            l.submit(
                SimTime::ZERO,
                exact_of(SimTime::ZERO),
                udp_packet(uid, 1, 125),
                &mut out,
            );
        }
        assert_eq!(l.queue_len(), 2);
        assert_eq!(
            out.drops.iter().map(|(p, _)| p.uid).collect::<Vec<_>>(),
            [4]
        );
        l.submit(
            SimTime::ZERO,
            exact_of(SimTime::ZERO),
            udp_packet(5, 1, 50),
            &mut out,
        );
        assert_eq!(out.drops.len(), 2);
        l.submit(
            SimTime::ZERO,
            exact_of(SimTime::ZERO),
            udp_packet(6, 1, 40),
            &mut out,
        );
        assert_eq!(l.queue_len(), 3);
    }

    #[test]
    fn corrupted_packets_use_the_link_but_do_not_arrive() {
        let mut l = link(1e6, 0, 2, ErrorModel::Iid { p: 1.0 });
        let mut out = IfaceOutput::default();
        l.submit(
            SimTime::ZERO,
            exact_of(SimTime::ZERO),
            udp_packet(1, 1, 125),
            &mut out,
        );
        out.clear();
        l.on_wake(SimTime::from_millis(1), TX_DONE, &mut out);
        assert!(out.wakes.is_empty());
        assert_eq!(out.drops[0].0.uid, 1);
        assert_eq!(out.drops[0].1, DropReason::ChannelError);
        assert_eq!(l.stats.drops_error, 1);
        assert_eq!(l.stats.bytes_sent, 125);
    }

    /// Going down drops what is on the wire, queued and propagating, with `link_down`; the
    /// wake-ups of that life are ignored; while down, submissions are dropped; after coming
    /// back up the link carries packets again.
    #[test]
    fn a_downed_link_drops_everything_it_holds_and_is_sent() {
        let mut l = link(1e6, 10, 5, ErrorModel::None);
        let mut out = IfaceOutput::default();
        l.submit(
            SimTime::ZERO,
            exact_of(SimTime::ZERO),
            udp_packet(1, 1, 125),
            &mut out,
        );
        l.submit(
            SimTime::ZERO,
            exact_of(SimTime::ZERO),
            udp_packet(2, 1, 125),
            &mut out,
        );
        out.clear();
        l.on_wake(SimTime::from_millis(1), TX_DONE, &mut out); // 1 in the pipe, 2 on the wire
        let stale = out.wakes.clone();
        out.clear();
        l.submit(
            SimTime::from_millis(1),
            exact_of(SimTime::from_millis(1)),
            udp_packet(3, 1, 125),
            &mut out,
        ); // queued
        l.set_down(&mut out);
        let mut dropped: Vec<u64> = out.drops.iter().map(|(p, _)| p.uid).collect();
        dropped.sort();
        assert_eq!(dropped, vec![1, 2, 3]);
        assert!(out.drops.iter().all(|(_, r)| *r == DropReason::LinkDown));
        assert_eq!(l.packets_held(), 0);
        out.clear();
        for (t, tag, _) in stale {
            l.on_wake(t, tag, &mut out);
        }
        assert!(out.is_empty());
        l.submit(
            SimTime::from_millis(5),
            exact_of(SimTime::from_millis(5)),
            udp_packet(4, 1, 125),
            &mut out,
        );
        assert_eq!(out.drops[0].1, DropReason::LinkDown);
        assert_eq!(l.stats.drops_down, 4);
        out.clear();
        l.set_up();
        l.submit(
            SimTime::from_millis(20),
            exact_of(SimTime::from_millis(20)),
            udp_packet(5, 1, 125),
            &mut out,
        );
        assert_eq!(
            wakes(&out),
            vec![
                (SimTime::from_millis(31), ARRIVAL | l.epoch << 1),
                (SimTime::from_millis(21), TX_DONE | l.epoch << 1)
            ]
        );
        let (arrive, done) = (out.wakes[0], out.wakes[1]);
        out.clear();
        l.on_wake(done.0, done.1, &mut out);
        assert!(out.wakes.is_empty() && out.arrivals.is_empty());
        l.on_wake(arrive.0, arrive.1, &mut out);
        assert_eq!(out.arrivals[0].1.uid, 5);
    }

    /// `shrink-queue` after the limit went from 5 to 2: one packet on the wire and four
    /// waiting (uids 2-5); the two beyond the new limit go from the tail (5, then 4), each an
    /// overflow drop, and 2 and 3 stay.
    #[test]
    fn shrink_queue_drops_from_the_tail_down_to_the_new_limit() {
        let mut l = link(1e6, 10, 5, ErrorModel::None);
        let mut out = IfaceOutput::default();
        for uid in 1..=5 {
            l.submit(SimTime::ZERO, 0.0, udp_packet(uid, 1, 125), &mut out);
        }
        assert!(out.drops.is_empty());
        out.clear();
        l.set_limit(2);
        l.shrink_queue(SimTime::from_micros(10), &mut out);
        let dropped: Vec<_> = out.drops.iter().map(|(p, why)| (p.uid, *why)).collect();
        assert_eq!(
            dropped,
            vec![
                (5, DropReason::QueueOverflow),
                (4, DropReason::QueueOverflow)
            ]
        );
        assert_eq!(l.queue_len(), 2);
        assert_eq!(l.stats.drops_queue, 2);
    }

    /// ns-2 `avoidReordering_` (`LinkDelay::recv`). 125-byte packets at 1 Mb/s take 1 ms. The
    /// first, sent at 0 with a 10 ms delay, arrives at 11 ms (the last arrival). The delay
    /// drops to 2 ms; the second, sent at 2 ms, would arrive at 2 + 1 + 2 = 5 ms, before
    /// 11 ms, so it arrives its 1 ms transmission after the first: 12 ms. A third, sent at
    /// 20 ms, is past the last arrival and takes its own 20 + 1 + 2 = 23 ms.
    #[test]
    fn avoid_reordering_holds_a_packet_behind_the_one_sent_before() {
        let mut l = link(1e6, 10, 5, ErrorModel::None);
        l.avoid_reordering = true;
        let mut out = IfaceOutput::default();
        let at = SimTime::from_millis;
        l.submit(at(0), exact_of(at(0)), udp_packet(1, 1, 125), &mut out);
        l.on_wake(at(1), TX_DONE, &mut out);
        l.set_delay(at(2));
        out.clear();
        l.submit(at(2), exact_of(at(2)), udp_packet(2, 1, 125), &mut out);
        assert_eq!(wakes(&out), vec![(at(12), ARRIVAL), (at(3), TX_DONE)]);
        out.clear();
        l.on_wake(at(3), TX_DONE, &mut out);
        l.submit(at(20), exact_of(at(20)), udp_packet(3, 1, 125), &mut out);
        assert_eq!(wakes(&out), vec![(at(23), ARRIVAL), (at(21), TX_DONE)]);
        out.clear();
        for (t, uid) in [(11, 1), (12, 2), (23, 3)] {
            l.on_wake(at(t), ARRIVAL, &mut out);
            assert_eq!(out.arrivals.pop().map(|(_, p)| p.uid), Some(uid));
        }
    }

    /// A shorter delay lets a later packet overtake one already propagating: arrivals come
    /// out in time order.
    #[test]
    fn a_shortened_delay_keeps_arrivals_in_time_order() {
        let mut l = link(1e6, 10, 5, ErrorModel::None);
        let mut out = IfaceOutput::default();
        l.submit(
            SimTime::ZERO,
            exact_of(SimTime::ZERO),
            udp_packet(1, 1, 125),
            &mut out,
        );
        l.on_wake(SimTime::from_millis(1), TX_DONE, &mut out); // arrives at 11 ms
        l.set_delay(SimTime::from_millis(2));
        out.clear();
        l.submit(
            SimTime::from_millis(2),
            exact_of(SimTime::from_millis(2)),
            udp_packet(2, 1, 125),
            &mut out,
        ); // arrives at 5 ms
        assert_eq!(
            wakes(&out),
            vec![
                (SimTime::from_millis(5), ARRIVAL),
                (SimTime::from_millis(3), TX_DONE)
            ]
        );
        out.clear();
        l.on_wake(SimTime::from_millis(3), TX_DONE, &mut out);
        assert!(out.wakes.is_empty());
        l.on_wake(SimTime::from_millis(5), ARRIVAL, &mut out);
        assert_eq!(out.arrivals[0].1.uid, 2);
        out.clear();
        l.on_wake(SimTime::from_millis(11), ARRIVAL, &mut out);
        assert_eq!(out.arrivals[0].1.uid, 1);
    }
}
