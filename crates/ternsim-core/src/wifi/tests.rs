//! Scripted exchanges on a small channel, driven like the world drives it: a heap of wakes,
//! popped earliest first (ties in insertion order). Every expected time is summed by hand
//! from link-spec §3.2 air times, the DIFS/SIFS/EIFS of §3.1 and distance/c.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::backoff::Backoff;
use super::channel::{TxState, WifiChannel, DEFER};
use super::*;
use crate::mobility::{Mobility, Position};
use crate::net::addr::Addr;
use crate::net::iface::{IfaceOutput, TxFailure, TxFailureCause};
use crate::net::packet::tests::udp_packet;
use crate::net::packet::{DropReason, Packet, PacketKind};
use crate::sim::{RandomStream, SimTime};
use crate::wifi::propagation::propagation_delay_ns;

const US: u64 = 1_000;

/// A fault injector run after every wake.
type Hook = Box<dyn FnMut(&mut WifiChannel)>;

struct Driver {
    ch: WifiChannel,
    heap: BinaryHeap<Reverse<(u64, u64, u32)>>,
    seq: u64,
    now: u64,
    events: u64,
    arrivals: Vec<(u64, u16, Packet)>,
    failures: Vec<(u64, TxFailure)>,
    drops: Vec<(u64, DropReason)>,
    overheard: Vec<(u64, u16, Packet)>,
    copies: [u64; 4],
    /// Called after every wake (fault injection).
    hook: Option<Hook>,
    /// Chain forwarding: a packet arriving at station i < last is sent on to i + 1.
    chain_last: Option<u16>,
    /// Routing stand-in for AODV's `rt_ll_failed`: on a transmit failure, purge the queue
    /// for the failed next hop before the MAC resumes (drops recorded in `purged`).
    purge_failed_hop: bool,
    purged: Vec<(u64, u64)>,
    /// Like DSR: on each retry-limit failure the stand-in takes what is queued for that hop
    /// back (`reclaim_queued`) before the MAC resumes; it comes back as more failures.
    reclaim_failed_hop: bool,
}

impl Driver {
    fn new(cfg: WifiConfig, pos: &[(f64, f64)]) -> Driver {
        let specs = pos
            .iter()
            .enumerate()
            .map(|(i, &(x, y))| StationSpec {
                addr: Addr::nth(i as u32),
                mobility: Mobility::Static(Some(Position { x, y })),
                rng: RandomStream::named(1, &format!("wifi/n{i}/mac")),
            })
            .collect();
        Driver {
            ch: WifiChannel::new(cfg, specs),
            heap: BinaryHeap::new(),
            seq: 0,
            now: 0,
            events: 0,
            arrivals: Vec::new(),
            failures: Vec::new(),
            drops: Vec::new(),
            overheard: Vec::new(),
            copies: [0; 4],
            hook: None,
            chain_last: None,
            purge_failed_hop: false,
            purged: Vec::new(),
            reclaim_failed_hop: false,
        }
    }

    fn drain(&mut self, mut out: IfaceOutput) {
        for (t, tag, _) in out.wakes.drain(..) {
            self.heap.push(Reverse((t.as_nanos(), self.seq, tag)));
            self.seq += 1;
        }
        for (port, p) in out.arrivals.drain(..) {
            self.arrivals.push((self.now, port, p));
        }
        let mut failed_ports: Vec<u16> = Vec::new();
        for f in out.tx_failures.drain(..) {
            if !failed_ports.contains(&f.port) {
                failed_ports.push(f.port);
            }
            if self.purge_failed_hop {
                let mut purge = IfaceOutput::default();
                self.ch
                    .purge_queued(SimTime(self.now), f.port, f.next_hop, &mut purge);
                for (p, _) in purge.drops.drain(..) {
                    self.purged.push((self.now, p.uid));
                }
                self.drain(purge);
            }
            let reclaim = self.reclaim_failed_hop && f.cause != TxFailureCause::Queued;
            let (port, hop) = (f.port, f.next_hop);
            self.failures.push((self.now, f));
            if reclaim {
                let mut back = IfaceOutput::default();
                self.ch
                    .reclaim_queued(SimTime(self.now), port, hop, &mut back);
                self.drain(back);
            }
        }
        for (_, why) in out.drops.drain(..) {
            self.drops.push((self.now, why));
        }
        for (port, p) in out.overheard.drain(..) {
            self.overheard.push((self.now, port, p));
        }
        for k in 0..4 {
            self.copies[k] += out.copies[k];
        }
        // As the world does: the routing stand-in (this driver) has taken the failures, so
        // the MACs that wait for that take their next packet.
        for port in failed_ports {
            let mut more = IfaceOutput::default();
            self.ch
                .resume_after_tx_failure(SimTime(self.now), port, &mut more);
            self.drain(more);
        }
    }

    fn submit(&mut self, port: u16, p: Packet, hop: Addr) {
        let mut out = IfaceOutput::default();
        self.ch.submit(SimTime(self.now), port, p, hop, &mut out);
        self.drain(out);
    }

    /// Runs every wake due up to `until` (ns).
    fn run_until(&mut self, until: u64) {
        while let Some(&Reverse((t, _, tag))) = self.heap.peek() {
            if t > until {
                break;
            }
            self.heap.pop();
            self.now = t;
            self.events += 1;
            let seen = self.arrivals.len();
            let mut out = IfaceOutput::default();
            self.ch.on_wake(SimTime(t), tag, &mut out);
            self.drain(out);
            if let Some(h) = self.hook.as_mut() {
                h(&mut self.ch);
            }
            if let Some(last) = self.chain_last {
                let arrived = self.arrivals.split_off(seen);
                for (t, port, p) in arrived {
                    if port == last {
                        self.arrivals.push((t, port, p));
                    } else {
                        self.submit(port, p, Addr::nth(u32::from(port) + 1));
                    }
                }
            }
        }
        self.now = self.now.max(until);
    }

    fn force(&mut self, port: usize, slots: &[u64]) {
        self.ch.st[port]
            .forced_backoff
            .extend(slots.iter().copied());
    }
}

fn prop(a: (f64, f64), b: (f64, f64)) -> u64 {
    propagation_delay_ns((a.0 - b.0).hypot(a.1 - b.1))
}

/// DATA at 2 Mb/s, control at 1 Mb/s, 52-octet overhead: the worked numbers of link-spec §3.2.
/// ARP off: the scripted timelines below (and the Bianchi model) sum a first exchange with no
/// ARP request/reply in front of it; the ARP tests at the end turn it on.
fn legacy() -> WifiConfig {
    WifiConfig {
        arp: false,
        ..WifiConfig::ns2_legacy_2mbps()
    }
}

/// Basic access (no RTS/CTS) with ARP on, as ns-2.
fn basic_arp() -> WifiConfig {
    WifiConfig {
        arp: true,
        ..basic_access()
    }
}

fn basic_access() -> WifiConfig {
    WifiConfig {
        rts_threshold: 3000,
        ..legacy()
    }
}

/// Carrier sense only as far as reception (250 m): hidden terminals exist.
fn hidden(cfg: WifiConfig) -> WifiConfig {
    WifiConfig {
        cs_threshold_w: cfg.rx_threshold_w,
        ..cfg
    }
}

/// DATA/ACK: LL 25 + DIFS 50 + k·20 + DATA 4464 + d/c + LL 25 µs, with k the first draw of
/// the sender's own stream (`below(31)`, read back from a clone).
#[test]
fn data_ack_exchange_takes_the_computed_time() {
    let pos = [(0.0, 0.0), (100.0, 0.0)];
    let mut d = Driver::new(basic_access(), &pos);
    let k = RandomStream::named(1, "wifi/n0/mac").below(31);
    d.submit(0, udp_packet(1, 1, 1040), Addr::nth(1));
    d.run_until(20_000 * US);
    let p = prop(pos[0], pos[1]);
    let want = (25 + 50 + 20 * k + 4464 + 25) * US + p;
    assert_eq!(d.arrivals.len(), 1);
    assert_eq!(d.arrivals[0].0, want);
    assert_eq!(d.arrivals[0].1, 1);
    // The receiving MAC counted the hop (ns-2 `recvDATA`: num_forwards + 1).
    assert_eq!(d.arrivals[0].2.num_forwards, 1);
    let (a, b) = (d.ch.stats(0), d.ch.stats(1));
    assert_eq!((a.data_sent, a.rts_sent, a.ack_timeouts), (1, 0, 0));
    assert_eq!((b.ack_sent, b.delivered), (1, 1));
    assert!(d.failures.is_empty() && d.drops.is_empty());
}

/// RTS/CTS/DATA/ACK: LL 25 + DIFS 50 + k·20 + RTS 352 + SIFS 10 + CTS 304 + SIFS 10 + DATA
/// 4464 + LL 25 µs + three propagation delays (RTS, CTS, DATA) = 5240 µs + k·20 µs + 3·d/c.
#[test]
fn rts_cts_data_ack_exchange_takes_the_computed_time() {
    let pos = [(0.0, 0.0), (100.0, 0.0)];
    let mut d = Driver::new(legacy(), &pos);
    let k = RandomStream::named(1, "wifi/n0/mac").below(31);
    d.submit(0, udp_packet(1, 1, 1040), Addr::nth(1));
    d.run_until(20_000 * US);
    let p = prop(pos[0], pos[1]);
    assert_eq!(d.arrivals.len(), 1);
    assert_eq!(d.arrivals[0].0, (5240 + 20 * k) * US + 3 * p);
    let (a, b) = (d.ch.stats(0), d.ch.stats(1));
    assert_eq!((a.rts_sent, a.data_sent), (1, 1));
    assert_eq!((b.cts_sent, b.ack_sent), (1, 1));
    // The sender's exchange ends with the ACK: its MAC is idle and holds nothing.
    assert_eq!(d.ch.packets_held(), 0);
    assert_eq!(d.ch.st[0].tx_state, TxState::Idle);
}

/// A's exchange with B, as C (50 m off the line) sees it, for A's RTS starting at `t_a`:
/// the last thing C hears is B's ACK, ending at t_a + 352+10+304+10+4464+10+304 µs + three
/// A-B delays + the B-C delay; every NAV C set ends no later.
fn ack_end_at_c(t_a: u64, pos: &[(f64, f64)]) -> u64 {
    t_a + 5454 * US + 3 * prop(pos[0], pos[1]) + prop(pos[1], pos[2])
}

/// C's own RTS/CTS/DATA to D from its RTS start: 352+10+304+10+4464 µs + 3 C-D delays +
/// LL 25 µs.
fn c_to_d_arrival(c_rts: u64, pos: &[(f64, f64)]) -> u64 {
    c_rts + (5140 + 25) * US + 3 * prop(pos[2], pos[3])
}

/// Backoff freeze and resume: A draws 10 slots, C 20; both queue at 0. A's RTS starts at
/// 25 + 50 + 200 = 275 µs and reaches C 236 ns later, after C counted 200.236 µs past its
/// DIFS: 10 whole slots, 10 left. C resumes after A's exchange with a fresh DIFS: its RTS
/// starts at ack_end_at_c + 50 + 10·20 µs.
#[test]
fn backoff_freezes_on_busy_and_resumes_with_whole_slots_left() {
    let pos = [(0.0, 0.0), (100.0, 0.0), (50.0, 50.0), (50.0, 150.0)];
    let mut d = Driver::new(legacy(), &pos);
    d.force(0, &[10, 0]);
    d.force(2, &[20, 0]);
    d.submit(0, udp_packet(1, 1, 1040), Addr::nth(1));
    d.submit(2, udp_packet(2, 3, 1040), Addr::nth(3));
    d.run_until(40_000 * US);
    let t_a = 275 * US;
    let c_rts = ack_end_at_c(t_a, &pos) + (50 + 10 * 20) * US;
    let at_d: Vec<u64> = d
        .arrivals
        .iter()
        .filter(|a| a.1 == 3)
        .map(|a| a.0)
        .collect();
    assert_eq!(at_d, vec![c_to_d_arrival(c_rts, &pos)]);
    assert_eq!(d.ch.stats(2).collisions + d.ch.stats(1).collisions, 0);
}

/// NAV deferral: C's packet reaches its MAC while A's exchange holds the medium (RTS and CTS
/// overheard, NAV set); its backoff (forced to 3 slots) starts frozen and counts only after
/// the medium is idle again for a DIFS: C's RTS at ack_end_at_c + 50 + 60 µs.
#[test]
fn nav_from_overheard_rts_cts_defers_a_station() {
    let pos = [(0.0, 0.0), (100.0, 0.0), (50.0, 50.0), (50.0, 150.0)];
    let mut d = Driver::new(legacy(), &pos);
    d.force(0, &[0, 0]);
    d.force(2, &[3, 0]);
    d.submit(0, udp_packet(1, 1, 1040), Addr::nth(1));
    // A's RTS starts at 75 µs; C's packet is handed over during the CTS (at 800 µs).
    d.run_until(800 * US);
    d.submit(2, udp_packet(2, 3, 1040), Addr::nth(3));
    assert!(d.ch.st[2].nav > 800 * US, "C holds a NAV from A's RTS");
    d.run_until(40_000 * US);
    let c_rts = ack_end_at_c(75 * US, &pos) + (50 + 60) * US;
    let at_d: Vec<u64> = d
        .arrivals
        .iter()
        .filter(|a| a.1 == 3)
        .map(|a| a.0)
        .collect();
    assert_eq!(at_d, vec![c_to_d_arrival(c_rts, &pos)]);
}

/// Two stations that resume from the same frame's end with the same slot count collide, as
/// in ns-2 (its trace of the `cross` conformance case shows it between the centre node and
/// a neighbour 200 m away: both send 130 µs after the ACK that ended at each, 666 ns apart).
/// Basic access, A at 0 m and B at 200 m. A sends DATA to B at once (0 slots) with a
/// second packet queued behind it; B's own packet for A reaches its MAC while A's DATA is on
/// the air (its backoff, 5 slots, starts frozen). B's ACK ends at B at T and at A at T + d/c;
/// B resumes at T, A (its post-ACK backoff, also 5 slots) at T + d/c, both after DIFS. B's
/// DATA starts at T + 50 + 100 µs and its first bit reaches A exactly when A's backoff ends:
/// in ns-2 that arrival is an event scheduled later than A's backoff expiry, so A sends too.
/// Both DATA frames are lost (each station was transmitting when the other's arrived), both
/// time out and retry (A after 1 slot, B after 300): all three packets arrive, A's first.
#[test]
fn equal_backoffs_from_one_frame_end_collide_across_the_propagation_delay() {
    let pos = [(0.0, 0.0), (200.0, 0.0)];
    let mut d = Driver::new(basic_access(), &pos);
    d.force(0, &[0, 5, 1, 0]);
    d.force(1, &[5, 300, 0]);
    d.submit(0, udp_packet(1, 1, 1040), Addr::nth(1));
    d.submit(0, udp_packet(2, 1, 1040), Addr::nth(1));
    // A's DATA is on the air from 75 µs (LL 25 + DIFS 50) to 4539 µs.
    d.run_until(1_000 * US);
    d.submit(1, udp_packet(3, 0, 1040), Addr::nth(0));
    d.run_until(200_000 * US);
    assert_eq!(d.ch.stats(0).ack_timeouts, 1);
    assert_eq!(d.ch.stats(1).ack_timeouts, 1);
    assert_eq!(d.ch.stats(0).data_retransmitted, 1);
    assert_eq!(d.ch.stats(1).data_retransmitted, 1);
    let got: Vec<(u16, u64)> = d.arrivals.iter().map(|a| (a.1, a.2.uid)).collect();
    assert_eq!(got, vec![(1, 1), (1, 2), (0, 3)]);
}

/// A frame that reaches a station exactly on one of its slot boundaries, as ns-2 counts the
/// slots (`BackoffTimer::pause`, in doubles). RTS/CTS, A at 0 m and B at 200 m (d = 667 ns),
/// from S = 1 s: A queues two packets for B, B one for A.
///
/// A's RTS starts at S + 75 µs (LL 25 + DIFS 50, 0 slots); B's CTS, A's DATA and B's ACK
/// follow, and B's ACK ends at B at T = S + 75 + 352 + 10 + 304 + 10 + 4464 + 10 + 304 µs +
/// 3d = S + 5529 µs + 3d. B's packet reached its MAC during A's DATA (its backoff, `kb`
/// slots, starts frozen) and counts from T + DIFS; A's post-ACK backoff (3 slots, taken by
/// its second packet) counts from the ACK's end at A, T + d, + DIFS. B's RTS starts at T +
/// 50 + 20·kb µs and reaches A at T + d + 50 + 20·kb µs: exactly A's slot boundary kb.
///
/// * kb = 1: ns-2 computes (now − (stime + difs)) / slot = 1.999999999990898e-05 s / 2e-05 s
///   = 0.99999999999545: 0 whole slots counted, all 3 left (exact counting would leave 2).
/// * kb = 2: 4.0000000000040004e-05 s / 2e-05 s = 2.000000000002: 2 counted, 1 left.
///
/// A then answers B's RTS: CTS, B's DATA, A's ACK, which ends at A (A's own transmission end)
/// at T2 = T + 50 + 20·kb + 352 + 10 + 304 + 10 + 4464 + 10 + 304 µs + 3d, and A resumes
/// there with what it kept: its RTS starts at T2 + DIFS + left·20 µs, and the packet reaches
/// B 352 + 10 + 304 + 10 + 4464 + 25 = 5165 µs + 3d after that.
#[test]
fn a_frame_on_a_slot_boundary_freezes_the_backoff_as_ns2_counts_the_slots() {
    let pos = [(0.0, 0.0), (200.0, 0.0)];
    let p = prop(pos[0], pos[1]);
    assert_eq!(p, 667);
    let s = 1_000_000 * US;
    for (kb, counted) in [(1u64, 0u64), (2, 2)] {
        let left = 3 - counted;
        let mut d = Driver::new(legacy(), &pos);
        d.force(0, &[0, 3, 0]);
        d.force(1, &[kb, 0]);
        d.run_until(s);
        d.submit(0, udp_packet(1, 1, 1040), Addr::nth(1));
        d.submit(0, udp_packet(2, 1, 1040), Addr::nth(1));
        d.run_until(s + 1_000 * US);
        d.submit(1, udp_packet(3, 0, 1040), Addr::nth(0));
        let t = s + 5529 * US + 3 * p;
        // Both resumed: B at its own ACK's end, A at that ACK's end at A.
        d.run_until(t + p);
        assert_eq!(
            d.ch.st[1].backoff,
            Backoff::Running {
                stime: t,
                difs_wait: 50 * US,
                rtime: kb * 20 * US
            },
            "kb = {kb}"
        );
        assert_eq!(
            d.ch.st[0].backoff,
            Backoff::Running {
                stime: t + p,
                difs_wait: 50 * US,
                rtime: 60 * US
            },
            "kb = {kb}"
        );
        // B's RTS is on the air; A froze at its arrival, on its boundary kb.
        let b_rts = t + (50 + 20 * kb) * US;
        d.run_until(b_rts);
        assert_eq!(d.ch.st[1].tx_state, TxState::Rts, "kb = {kb}");
        assert_eq!(
            d.ch.st[0].backoff,
            Backoff::Paused {
                rtime: left * 20 * US
            },
            "kb = {kb}"
        );
        // A's ACK to B ends at T2; A counts its `left` slots after DIFS.
        let t2 = b_rts + (352 + 10 + 304 + 10 + 4464 + 10 + 304) * US + 3 * p;
        d.run_until(t2);
        assert_eq!(d.ch.st[0].tx_state, TxState::Idle, "kb = {kb}");
        assert_eq!(
            d.ch.st[0].backoff.deadline(),
            Some(t2 + (50 + 20 * left) * US),
            "kb = {kb}"
        );
        d.run_until(s + 40_000 * US);
        let got: Vec<(u64, u16, u64)> = d.arrivals.iter().map(|a| (a.0, a.1, a.2.uid)).collect();
        let a_rts = t2 + (50 + 20 * left) * US;
        assert_eq!(got.len(), 3, "kb = {kb}");
        assert_eq!((got[0].1, got[0].2), (1, 1), "kb = {kb}");
        assert_eq!((got[1].1, got[1].2), (0, 3), "kb = {kb}");
        assert_eq!(got[2], (a_rts + 5165 * US + 3 * p, 1, 2), "kb = {kb}");
        assert_eq!(d.ch.stats(0).collisions + d.ch.stats(1).collisions, 0);
    }
}

/// Hidden terminals: A and C, 400 m apart, cannot sense each other (carrier sense = 250 m)
/// and both send to B in the middle with the same backoff: the two DATA frames overlap at B
/// with equal power, both are lost, neither is ACKed; both packets get through on retry.
#[test]
fn hidden_terminals_collide_at_the_receiver() {
    let pos = [(0.0, 0.0), (200.0, 0.0), (400.0, 0.0)];
    let mut d = Driver::new(hidden(basic_access()), &pos);
    // Second draws: A retries after 1 slot, C after 300 (longer than A's whole retry).
    d.force(0, &[4, 1, 0]);
    d.force(2, &[4, 300, 0]);
    d.submit(0, udp_packet(1, 1, 1040), Addr::nth(1));
    d.submit(2, udp_packet(2, 1, 1040), Addr::nth(1));
    d.run_until(200_000 * US);
    let b = d.ch.stats(1);
    assert_eq!(b.collisions, 1);
    assert_eq!(b.ack_sent, 2);
    assert_eq!(d.ch.stats(0).ack_timeouts, 1);
    assert_eq!(d.ch.stats(2).ack_timeouts, 1);
    assert_eq!(d.arrivals.len(), 2);
    // No arrival at the collision-free time 25 + 50 + 80 + 4464 + 25 µs + 200 m / c.
    let clean = (25 + 50 + 80 + 4464 + 25) * US + prop(pos[0], pos[1]);
    assert!(d.arrivals.iter().all(|a| a.0 > clean));
}

/// Capture (link-spec §3.3 rule 9): B is receiving A's frame from 20 m when C's frame (240 m,
/// hidden from A) starts one slot later. P_A / P_C ≫ 10: A's frame survives and arrives at
/// its collision-free time; C's frame only sets B's NAV. With the order reversed (the weak
/// frame first) the ratio is below 10 and both are lost.
#[test]
fn a_strong_frame_captures_the_receiver() {
    let pos = [(20.0, 0.0), (0.0, 0.0), (-240.0, 0.0)];
    let cfg = hidden(basic_access());
    let r = cfg.radio;
    assert!(r.rx_power(20.0) / r.rx_power(240.0) >= 10.0);
    let mut d = Driver::new(cfg.clone(), &pos);
    d.force(0, &[0, 0]);
    d.force(2, &[1, 0, 0]);
    d.submit(0, udp_packet(1, 1, 1040), Addr::nth(1));
    d.submit(2, udp_packet(2, 1, 1040), Addr::nth(1));
    d.run_until(100_000 * US);
    let clean = (25 + 50 + 4464 + 25) * US + prop(pos[0], pos[1]);
    assert_eq!(d.arrivals[0].0, clean);
    assert_eq!(d.arrivals[0].2.uid, 1);
    assert_eq!(d.ch.stats(1).collisions, 0);
    assert_eq!(d.ch.stats(0).ack_timeouts, 0);

    // Weak first: C starts one slot before A.
    let mut d = Driver::new(cfg, &pos);
    d.force(0, &[1, 5, 0]);
    d.force(2, &[0, 300, 0]);
    d.submit(0, udp_packet(1, 1, 1040), Addr::nth(1));
    d.submit(2, udp_packet(2, 1, 1040), Addr::nth(1));
    d.run_until(100_000 * US);
    assert_eq!(d.ch.stats(1).collisions, 1);
    assert_eq!(d.ch.stats(0).ack_timeouts, 1);
    assert_eq!(d.ch.stats(2).ack_timeouts, 1);
}

/// Frames are decided in the order they arrive, not the order they were sent. C (240 m from
/// B) starts at 1000 µs + 75; A (20 m from B, 260 m from C: too far to decode C, and C's first
/// bit reaches A only after 867 ns) starts 300 ns later. At B, A's frame arrives first
/// (300 + 67 ns after C's start) and C's after 800 ns: as in ns-2, whose receivers take each
/// frame at its arrival, A's frame is the one being received and captures B (P_A / P_C ≫ 10);
/// C's frame only sets B's NAV. Decided in sending order, the strong frame would have been the
/// newcomer and both would have been lost.
#[test]
fn a_frame_arriving_first_is_received_first_even_if_sent_second() {
    let pos = [(20.0, 0.0), (0.0, 0.0), (-240.0, 0.0)];
    let cfg = hidden(basic_access());
    let mut d = Driver::new(cfg, &pos);
    d.force(0, &[0, 0]);
    d.force(2, &[0, 0]);
    d.now = 1000 * US;
    d.submit(2, udp_packet(2, 1, 1040), Addr::nth(1));
    d.now = 1000 * US + 300;
    d.submit(0, udp_packet(1, 1, 1040), Addr::nth(1));
    d.run_until(100_000 * US);
    let clean = 1000 * US + 300 + (25 + 50 + 4464 + 25) * US + prop(pos[0], pos[1]);
    assert_eq!(d.arrivals[0].0, clean);
    assert_eq!(d.arrivals[0].2.uid, 1);
    assert_eq!(d.ch.stats(1).collisions, 0);
    assert_eq!(d.ch.stats(0).ack_timeouts, 0);
    assert_eq!(d.ch.stats(2).ack_timeouts, 1);

    // Without a 10-fold margin (A 150 m from B, C 245 m: P_A / P_C = (245/150)^4 ≈ 7.1) the
    // frame arriving first (A's, at 300 + 500 ns against 817 ns) is lost with the other: B
    // decodes neither.
    let pos = [(150.0, 0.0), (0.0, 0.0), (-245.0, 0.0)];
    let r = hidden(basic_access()).radio;
    assert!(r.rx_power(150.0) / r.rx_power(245.0) < 10.0);
    let mut d = Driver::new(hidden(basic_access()), &pos);
    d.force(0, &[0, 0]);
    d.force(2, &[0, 0]);
    d.now = 1000 * US;
    d.submit(2, udp_packet(2, 1, 1040), Addr::nth(1));
    d.now = 1000 * US + 300;
    d.submit(0, udp_packet(1, 1, 1040), Addr::nth(1));
    d.run_until(5_600 * US);
    assert_eq!(d.ch.stats(1).collisions, 1);
    assert!(d.arrivals.is_empty());
}

/// ns-2 keeps time in doubles, so a frame whose first bit is due in the very nanosecond a
/// station's backoff ends can still come first. Station 0's count started at the end of a
/// frame from station 1 that took 333.6 ns to arrive: a frame from 1 taking 333.0 ns now (1
/// came closer) arrives first and the medium is busy at its rounded start; one taking 334.0
/// ns (1 went away), or one from another sender, arrives after the backoff's end and is not
/// yet being received then (both send, as for stations that keep their distance).
#[test]
fn a_tie_with_a_backoff_end_goes_to_the_frame_whose_sender_came_closer() {
    let pos = [(0.0, 0.0), (100.0, 0.0), (0.0, 100.0)];
    let mut d = Driver::new(basic_access(), &pos);
    // A broadcast of station 1 sets both receivers' reference: its sender and exact delay.
    d.submit(1, udp_packet(1, 9, 100), Addr::BROADCAST);
    d.run_until(10_000 * US);
    let ns = |m: f64| m / crate::wifi::propagation::SPEED_OF_LIGHT * 1e9;
    assert_eq!(d.ch.st[0].idle_ref, Some((1, ns(100.0))));
    assert_eq!(d.ch.st[2].idle_ref, Some((1, ns(100.0 * 2f64.sqrt()))));
    assert_eq!(d.ch.st[1].idle_ref, None);

    let mut out = IfaceOutput::default();
    for (from, delay, busy_at_start) in [(1, 333.0, true), (1, 334.0, false), (2, 333.0, false)] {
        let mut d = Driver::new(basic_access(), &pos);
        d.ch.st[0].idle_ref = Some((1, 333.6));
        let t0 = 20_000 * US;
        d.ch.recv_start(
            0,
            from,
            0,
            t0,
            t0 + 1_000 * US,
            (1e-6, delay),
            t0 - 300,
            &mut out,
        );
        let st = &d.ch.st[0];
        assert_eq!(
            st.rx.map(|rx| rx.early),
            Some(busy_at_start),
            "{from} {delay}"
        );
        assert_eq!(st.receiving(t0), busy_at_start, "{from} {delay}");
        assert!(st.receiving(t0 + 1) && !st.receiving(t0 - 1));
    }
}

/// EIFS: C (400 m from A) senses A's broadcast but cannot decode it. C's broadcast, queued
/// during A's frame, waits until the frame's end at C + EIFS 364 + DIFS 50 + 2 slots.
/// A's broadcast: 1040 + 52 octets at 1 Mb/s = 192 + 8·1068 = 8736 µs, from 75 µs.
#[test]
fn an_undecodable_frame_is_followed_by_eifs() {
    let pos = [(0.0, 0.0), (100.0, 0.0), (400.0, 0.0), (600.0, 0.0)];
    let mut d = Driver::new(basic_access(), &pos);
    d.force(0, &[0, 0]);
    d.force(2, &[2, 0]);
    d.submit(0, udp_packet(1, 9, 1040), Addr::BROADCAST);
    d.run_until(100 * US);
    d.submit(2, udp_packet(2, 9, 1040), Addr::BROADCAST);
    d.run_until(100_000 * US);
    assert_eq!(d.ch.stats(2).rx_errors, 1);
    let end_at_c = (75 + 8736) * US + prop(pos[0], pos[2]);
    let c_start = end_at_c + (364 + 50 + 40) * US;
    let at_d: Vec<u64> = d
        .arrivals
        .iter()
        .filter(|a| a.1 == 3)
        .map(|a| a.0)
        .collect();
    assert_eq!(
        at_d,
        vec![c_start + (8736 + 25) * US + prop(pos[2], pos[3])]
    );
}

/// Retry limit with RTS/CTS and nobody at the next hop: 7 RTS, 7 CTS timeouts (short retry
/// limit), then the packet is handed back with its next hop; the next packet for that hop
/// then tries 7 times of its own.
#[test]
fn short_retry_limit_hands_the_packet_back() {
    let mut d = Driver::new(legacy(), &[(0.0, 0.0), (100.0, 0.0)]);
    let ghost = Addr::nth(50);
    d.submit(0, udp_packet(1, 50, 1040), ghost);
    d.submit(0, udp_packet(2, 50, 1040), ghost);
    d.run_until(2_000_000 * US);
    let a = d.ch.stats(0);
    assert_eq!(
        (a.rts_sent, a.cts_timeouts, a.drops_retry_limit),
        (14, 14, 2)
    );
    let back: Vec<(u64, Addr)> = d
        .failures
        .iter()
        .map(|(_, f)| (f.packet.uid, f.next_hop))
        .collect();
    assert_eq!(back, vec![(1, ghost), (2, ghost)]);
}

/// Routing may take back what is queued for the hop that failed (`reclaim_queued`, as ns-2
/// DSR's `xmitFailed` does): the packet queued behind for the same hop comes back with the
/// first failure, as a `Queued` failure (7 RTS in all); a packet for another hop stays and
/// is sent.
#[test]
fn a_failure_can_hand_back_the_queue_for_that_hop() {
    let mut d = Driver::new(legacy(), &[(0.0, 0.0), (100.0, 0.0)]);
    d.reclaim_failed_hop = true;
    let ghost = Addr::nth(50);
    d.submit(0, udp_packet(1, 50, 1040), ghost);
    d.submit(0, udp_packet(2, 1, 1040), Addr::nth(1));
    d.submit(0, udp_packet(3, 50, 1040), ghost);
    d.run_until(2_000_000 * US);
    let back: Vec<(u64, SimTime, Addr)> = d
        .failures
        .iter()
        .map(|(t, f)| (f.packet.uid, SimTime(*t), f.next_hop))
        .collect();
    assert_eq!(back.len(), 2);
    assert_eq!((back[0].0, back[1].0), (1, 3));
    assert_eq!(back[0].1, back[1].1, "handed back together");
    let causes: Vec<TxFailureCause> = d.failures.iter().map(|(_, f)| f.cause).collect();
    assert_eq!(causes, [TxFailureCause::RetryLimit, TxFailureCause::Queued]);
    assert_eq!(d.arrivals.len(), 1);
    assert_eq!(d.arrivals[0].2.uid, 2);
    // B set its NAV from each RTS to the absent station, so A's RTS to B may go unanswered
    // a few times; every timeout before the failure belongs to the absent station: 7.
    assert_eq!(d.ch.stats(0).drops_retry_limit, 1);
}

/// Routing may drop what waits in the interface queue for one next hop (ns-2 AODV's
/// `recvError` filters its ifq): A has a packet for B in the MAC and, queued behind it, one
/// for C, one for B, one for C. Purging C drops the two for C, in queue order, as
/// `link_failure`; the packet in the MAC and the one queued for B are untouched and arrive.
#[test]
fn purging_a_next_hop_drops_only_its_queued_packets() {
    let mut d = Driver::new(legacy(), &[(0.0, 0.0), (100.0, 0.0)]);
    let (b, c) = (Addr::nth(1), Addr::nth(50));
    d.submit(0, udp_packet(1, 1, 1040), b);
    d.submit(0, udp_packet(2, 50, 1040), c);
    d.submit(0, udp_packet(3, 1, 1040), b);
    d.submit(0, udp_packet(4, 50, 1040), c);
    d.run_until(100 * US);
    assert_eq!(d.ch.queue_len(0), 3);
    let mut out = IfaceOutput::default();
    d.ch.purge_queued(SimTime(100 * US), 0, c, &mut out);
    let dropped: Vec<(u64, DropReason)> = out.drops.iter().map(|(p, r)| (p.uid, *r)).collect();
    assert_eq!(
        dropped,
        vec![(2, DropReason::LinkFailure), (4, DropReason::LinkFailure)]
    );
    assert_eq!(d.ch.queue_len(0), 1);
    d.run_until(2_000_000 * US);
    let got: Vec<u64> = d.arrivals.iter().map(|(_, _, p)| p.uid).collect();
    assert_eq!(got, vec![1, 3]);
}

/// ns-2 calls routing back inside `RetransmitRTS` and only then lets the queue hand the MAC
/// its next packet (`tx_resume`), so a routing protocol that drops what is queued for the
/// lost hop (AODV's `rt_ll_failed` filter) keeps all of it from the MAC. A sends 1 to an
/// absent station; 2 (same hop) and 3 (to B) wait behind it from the start; 4 (same hop)
/// and 5 (to B) come down from the LL 1 ms later, while the MAC is busy with 1. After the
/// 7th RTS of 1 goes unanswered, 1 comes back and the stand-in purges the hop: 2 and 4 are
/// dropped, in queue order (4 was still in the LL's hand-over, but in ns-2 it is in the
/// queue from its due time on); the MAC had taken nothing meanwhile, and then takes 3;
/// 3 and 5 reach B. Only one packet failed.
#[test]
fn routing_answers_a_failure_before_the_mac_takes_the_next_packet() {
    let mut d = Driver::new(legacy(), &[(0.0, 0.0), (100.0, 0.0)]);
    d.purge_failed_hop = true;
    let (b, ghost) = (Addr::nth(1), Addr::nth(50));
    d.submit(0, udp_packet(1, 50, 1040), ghost);
    d.submit(0, udp_packet(2, 50, 1040), ghost);
    d.submit(0, udp_packet(3, 1, 1040), b);
    d.run_until(1_000 * US);
    assert_eq!(d.ch.queue_len(0), 2);
    d.submit(0, udp_packet(4, 50, 1040), ghost);
    d.submit(0, udp_packet(5, 1, 1040), b);
    d.run_until(2_000_000 * US);
    let failed: Vec<u64> = d.failures.iter().map(|(_, f)| f.packet.uid).collect();
    assert_eq!(failed, vec![1]);
    let t_fail = d.failures[0].0;
    assert_eq!(d.purged, vec![(t_fail, 2), (t_fail, 4)]);
    let got: Vec<u64> = d.arrivals.iter().map(|(_, _, p)| p.uid).collect();
    assert_eq!(got, vec![3, 5]);
    assert!(d.arrivals[0].0 > t_fail);
    assert_eq!(d.ch.stats(0).drops_retry_limit, 1);
}

/// Long retry limit 4 (RTS/CTS succeeds, DATA is corrupted at B every time: a fault
/// injector marks B's reception in error while A's DATA is on the air): 4 RTS, 4 DATA,
/// 4 ACK timeouts, then the packet comes back.
#[test]
fn long_retry_limit_after_failed_data() {
    let mut d = Driver::new(legacy(), &[(0.0, 0.0), (100.0, 0.0)]);
    d.hook = Some(Box::new(|ch: &mut WifiChannel| {
        if ch.st[0].tx_state == TxState::Send {
            if let Some(rx) = ch.st[1].rx.as_mut() {
                rx.error = true;
            }
        }
    }));
    d.submit(0, udp_packet(1, 1, 1040), Addr::nth(1));
    d.run_until(2_000_000 * US);
    let a = d.ch.stats(0);
    assert_eq!(
        (a.rts_sent, a.data_sent, a.ack_timeouts, a.cts_timeouts),
        (4, 4, 4, 0)
    );
    assert_eq!(d.ch.stats(1).rx_errors, 4);
    assert_eq!(d.failures.len(), 1);
    assert_eq!(d.failures[0].1.next_hop, Addr::nth(1));
    assert!(d.arrivals.is_empty());
}

/// Every ACK lost (A's reception of each is corrupted), basic access: B decodes the first
/// DATA and passes it up once; A sends it 7 times (short retry limit: 1040 octets is below
/// the RTS threshold) and then, although B has it, hands it back to routing as a transmit
/// failure, as ns-2's `RetransmitDATA` calls `xmit_failure_` with its own copy of
/// `pktTx_`. The failure is counted as one after delivery.
#[test]
fn a_packet_whose_acks_are_all_lost_still_comes_back_to_routing() {
    let mut d = Driver::new(basic_access(), &[(0.0, 0.0), (100.0, 0.0)]);
    d.hook = Some(Box::new(|ch: &mut WifiChannel| {
        if ch.st[1].tx_state == TxState::Ack {
            if let Some(rx) = ch.st[0].rx.as_mut() {
                rx.error = true;
            }
        }
    }));
    d.submit(0, udp_packet(1, 1, 1040), Addr::nth(1));
    d.run_until(2_000_000 * US);
    let (a, b) = (*d.ch.stats(0), *d.ch.stats(1));
    assert_eq!(
        (a.data_sent, a.ack_timeouts, a.drops_retry_limit),
        (7, 7, 1)
    );
    assert_eq!((b.ack_sent, b.duplicates, b.delivered), (7, 6, 1));
    assert_eq!(a.failures_after_delivery, 1);
    let got: Vec<u64> = d.arrivals.iter().map(|(_, _, p)| p.uid).collect();
    assert_eq!(got, vec![1]);
    assert_eq!(d.failures.len(), 1);
    assert_eq!(d.failures[0].1.next_hop, Addr::nth(1));
    assert_eq!(d.failures[0].1.packet.uid, 1);
}

/// Duplicate filter: the first ACK is lost (A's reception of it is corrupted once), A sends
/// the DATA again, B ACKs it but does not pass it up a second time.
#[test]
fn a_retransmitted_frame_is_delivered_once() {
    let mut d = Driver::new(basic_access(), &[(0.0, 0.0), (100.0, 0.0)]);
    let mut armed = true;
    d.hook = Some(Box::new(move |ch: &mut WifiChannel| {
        if armed && ch.st[1].tx_state == TxState::Ack {
            if let Some(rx) = ch.st[0].rx.as_mut() {
                rx.error = true;
                armed = false;
            }
        }
    }));
    d.submit(0, udp_packet(1, 1, 1040), Addr::nth(1));
    d.run_until(100_000 * US);
    let (a, b) = (d.ch.stats(0), d.ch.stats(1));
    assert_eq!((a.data_sent, a.ack_timeouts), (2, 1));
    assert_eq!((b.ack_sent, b.duplicates, b.delivered), (2, 1, 1));
    assert_eq!(d.arrivals.len(), 1);
    assert!(d.failures.is_empty());
}

/// A broadcast decoded by B and C (in range) but not D (carrier sense only): two arrivals,
/// one of them a copy. A broadcast nobody can decode is dropped as `no_receiver`.
#[test]
fn broadcast_copies_and_no_receiver() {
    let pos = [(0.0, 0.0), (100.0, 0.0), (0.0, 200.0), (400.0, 0.0)];
    let mut d = Driver::new(legacy(), &pos);
    d.submit(0, udp_packet(1, 9, 100), Addr::BROADCAST);
    d.run_until(50_000 * US);
    let mut ports: Vec<u16> = d.arrivals.iter().map(|a| a.1).collect();
    ports.sort_unstable();
    assert_eq!(ports, vec![1, 2]);
    assert_eq!(d.copies[PacketKind::Udp.index()], 1);
    assert_eq!(d.ch.stats(3).rx_errors, 1);
    // Each receiver's MAC counts the hop on its copy (ns-2 `recvDATA`: num_forwards + 1).
    assert!(d.arrivals.iter().all(|a| a.2.num_forwards == 1));

    let mut d = Driver::new(legacy(), &[(0.0, 0.0), (1000.0, 0.0)]);
    d.submit(0, udp_packet(1, 9, 100), Addr::BROADCAST);
    d.run_until(50_000 * US);
    assert!(d.arrivals.is_empty());
    assert_eq!(d.drops.len(), 1);
    assert_eq!(d.drops[0].1, DropReason::NoReceiver);
}

/// Promiscuous tap: C decodes A's unicast DATA for B and reports a copy.
#[test]
fn promiscuous_station_overhears_unicast_data() {
    let cfg = WifiConfig {
        promiscuous: true,
        ..legacy()
    };
    let mut d = Driver::new(cfg, &[(0.0, 0.0), (100.0, 0.0), (50.0, 50.0)]);
    d.submit(0, udp_packet(7, 1, 500), Addr::nth(1));
    d.run_until(50_000 * US);
    assert_eq!(d.arrivals.len(), 1);
    assert_eq!(d.overheard.len(), 1);
    assert_eq!((d.overheard[0].1, d.overheard[0].2.uid), (2, 7));
}

/// Interface queue through the channel: 60 packets at once; one enters the MAC, 49 wait
/// (ns-2 DropTail keeps limit − 1), 10 are dropped as `ifq_overflow`.
#[test]
fn a_full_interface_queue_drops() {
    let mut d = Driver::new(legacy(), &[(0.0, 0.0), (100.0, 0.0)]);
    for i in 0..60 {
        d.submit(0, udp_packet(i, 1, 200), Addr::nth(1));
    }
    d.run_until(30 * US);
    assert_eq!(d.ch.queue_len(0), 49);
    assert_eq!(d.drops.len(), 10);
    assert!(d.drops.iter().all(|x| x.1 == DropReason::IfqOverflow));
    assert_eq!(d.ch.stats(0).drops_ifq, 10);
    d.run_until(10_000_000 * US);
    assert_eq!(d.arrivals.len(), 50);
}

/// Bianchi (IEEE JSAC 18(3), 2000), eq. (7), (9) and (13): the saturation packet rate of
/// n stations with W = 32, m = 5 and the slot/SIFS/DIFS/air times of this channel.
/// `eifs_after_collision` replaces the DIFS after a collision by EIFS + DIFS, as ns-2's
/// bystanders wait (link-spec §3.3 rule 9).
fn bianchi_rate(n: usize, rts: bool, w: f64, eifs_after_collision: bool) -> f64 {
    let t = legacy().timing();
    let m = 5;
    let tau_of_p = |p: f64| {
        2.0 * (1.0 - 2.0 * p) / ((1.0 - 2.0 * p) * (w + 1.0) + p * w * (1.0 - (2.0 * p).powi(m)))
    };
    let (mut lo, mut hi): (f64, f64) = (1e-9, 0.999);
    for _ in 0..200 {
        let tau = 0.5 * (lo + hi);
        let p = 1.0 - (1.0 - tau).powi(n as i32 - 1);
        if tau_of_p(p) > tau {
            lo = tau;
        } else {
            hi = tau;
        }
    }
    let tau = 0.5 * (lo + hi);
    let ptr = 1.0 - (1.0 - tau).powi(n as i32);
    let ps = n as f64 * tau * (1.0 - tau).powi(n as i32 - 1) / ptr;
    let ns = |x: u64| x as f64;
    let delta = 334.0; // 100 m at most between stations here; propagation, ns
    let data = ns(t.data(1040, false));
    let after_coll = if eifs_after_collision {
        ns(t.eifs + t.difs)
    } else {
        ns(t.difs) + delta
    };
    let (ts, tc) = if rts {
        (
            ns(t.rts + t.cts + t.ack + 3 * t.sifs + t.difs) + data + 4.0 * delta,
            ns(t.rts) + after_coll,
        )
    } else {
        (
            data + ns(t.sifs + t.ack + t.difs) + 2.0 * delta,
            data + after_coll,
        )
    };
    let slot = ns(t.slot);
    let e_slot = (1.0 - ptr) * slot + ptr * ps * ts + ptr * (1.0 - ps) * tc;
    ps * ptr / e_slot * 1e9
}

/// n saturated stations on a 10 m circle around a sink, all in range of each other; packets
/// per second delivered at the sink from 1 s to `secs`. Returns (rate, world events per
/// frame sent). Topping up a station's queue runs the channel on (30 µs per packet handed
/// down) until that station's MAC takes one, which may be well past `secs` when it ends
/// the run in a long backoff: arrivals after `secs` are not counted.
fn saturated_rate(n: usize, rts: bool, secs: u64) -> (f64, f64) {
    let mut pos = vec![(0.0, 0.0)];
    for i in 0..n {
        let a = 2.0 * std::f64::consts::PI * i as f64 / n as f64;
        pos.push((10.0 * a.cos(), 10.0 * a.sin()));
    }
    let cfg = if rts { legacy() } else { basic_access() };
    let mut d = Driver::new(cfg, &pos);
    let mut uid = 0;
    let warmup = 1_000_000 * US;
    let end = secs * 1_000_000 * US;
    let mut counted = 0u64;
    let mut t = 0;
    while t < end {
        for s in 1..=n as u16 {
            while d.ch.queue_len(s) < 3 {
                uid += 1;
                d.submit(s, udp_packet(uid, 0, 1040), Addr::nth(0));
                d.run_until(d.now + 30 * US);
            }
        }
        t += 10_000 * US;
        d.run_until(t);
        counted += d
            .arrivals
            .drain(..)
            .filter(|a| a.0 >= warmup && a.0 < end && a.1 == 0)
            .count() as u64;
    }
    let rate = counted as f64 / (secs - 1) as f64;
    (rate, d.events as f64 / d.ch.frames_sent as f64)
}

#[test]
fn saturation_throughput_matches_bianchi() {
    for rts in [false, true] {
        for n in [5, 10, 20] {
            let (sim, epf) = saturated_rate(n, rts, 20);
            let model = bianchi_rate(n, rts, 32.0, true);
            let textbook = bianchi_rate(n, rts, 32.0, false);
            let w31 = bianchi_rate(n, rts, 31.0, true);
            let err = (sim - model) / model;
            println!(
                "rts={rts} n={n}: sim {sim:.1} pkt/s, Bianchi(EIFS) {model:.1} ({:+.2} %), \
                 W=31 {w31:.1}, textbook DIFS {textbook:.1}; events/frame {epf:.2}",
                100.0 * err
            );
            assert!(err.abs() < 0.03, "n={n} rts={rts}: {sim} vs {model}");
            assert!(epf < 4.0, "events per frame {epf}");
        }
    }
}

/// A 7-hop chain (8 stations 200 m apart: each hears its neighbours, senses two hops away)
/// carrying a 1040-byte packet every 40 ms for 100 simulated seconds. Measures world
/// events per frame on the air and checks the packet accounting.
#[test]
fn seven_hop_chain_events_per_frame() {
    let pos: Vec<(f64, f64)> = (0..8).map(|i| (200.0 * i as f64, 0.0)).collect();
    let mut d = Driver::new(legacy(), &pos);
    d.chain_last = Some(7);
    let wall = std::time::Instant::now();
    let mut uid = 0;
    for k in 0..2500u64 {
        d.run_until(k * 40_000 * US);
        uid += 1;
        d.submit(0, udp_packet(uid, 7, 1040), Addr::nth(1));
    }
    d.run_until(101_000_000 * US);
    let epf = d.events as f64 / d.ch.frames_sent as f64;
    println!(
        "7-hop chain: {} delivered of {uid}, {} frames, {} world events, {epf:.2} events/frame, \
         wall {:.3} s",
        d.arrivals.len(),
        d.ch.frames_sent,
        d.events,
        wall.elapsed().as_secs_f64()
    );
    let failed = d.failures.len() + d.drops.len();
    assert_eq!(
        d.arrivals.len() + failed + d.ch.packets_held(),
        uid as usize
    );
    assert!(d.arrivals.len() > 2000, "{} delivered", d.arrivals.len());
    assert!(epf < 4.0, "events per frame {epf}");
}

// ----------------------------------------------------------------------------------------
// ARP (link-spec §3.5).

/// First packet to a neighbour, basic access, backoffs forced (A: request k1 = 3, post-backoff
/// after it 0, DATA k3 = 5; B: reply j1 = 4, post-backoff 0):
/// - ARP looks the hop up as the packet enters the LL at 0 and keeps it; the request reaches
///   the queue after the ARP table's 5 µs (ns-2 `ARPTable set delay_ 5us`) and the idle MAC
///   sends it after DIFS 50 + 3·20 (broadcast, 28 + 52 octets at 1 Mb/s: 192 + 448 =
///   640 µs): it ends at A at T1 = 5+50+60+640 µs;
/// - B decodes it at T1 + d/c, learns A and answers 5 µs later: DIFS 50 + 4·20, reply
///   unicast at 2 Mb/s (192 + 224 = 416 µs), ending at A at T2 = T1 + 2·d/c + 5 + 50 + 80 +
///   416 µs;
/// - A ACKs after SIFS (10 + 304 µs); the held packet reaches the MAC 5 µs after the reply,
///   while the ACK's SIFS runs (no draw then, as in ns-2 `send` with the defer timer busy),
///   and goes after the ACK: DIFS 50 + 5·20, DATA 4464 µs, d/c, LL 25 µs.
///
/// The second packet finds B resolved: LL 25 + DIFS 50 + 2·20 + DATA 4464 + d/c + LL 25.
#[test]
fn arp_resolves_the_first_packet_then_none_after() {
    let pos = [(0.0, 0.0), (100.0, 0.0)];
    let mut d = Driver::new(basic_arp(), &pos);
    d.force(0, &[3, 0, 5, 0, 2]);
    d.force(1, &[4, 0]);
    d.submit(0, udp_packet(1, 1, 1040), Addr::nth(1));
    d.run_until(50_000 * US);
    let p = prop(pos[0], pos[1]);
    let t1 = (5 + 50 + 60 + 640) * US;
    let t2 = t1 + 2 * p + (5 + 50 + 80 + 416) * US;
    let want = t2 + (314 + 50 + 100 + 4464 + 25) * US + p;
    assert_eq!(d.arrivals.len(), 1);
    assert_eq!((d.arrivals[0].0, d.arrivals[0].1), (want, 1));
    let (a, b) = (d.ch.stats(0), d.ch.stats(1));
    assert_eq!((a.arp_requests, a.arp_replies, a.data_sent), (1, 0, 1));
    assert_eq!((b.arp_requests, b.arp_replies, b.ack_sent), (0, 1, 1));
    assert_eq!((a.ack_sent, a.arp_drops, a.arp_failures), (1, 0, 0));

    d.run_until(100_000 * US);
    d.submit(0, udp_packet(2, 1, 1040), Addr::nth(1));
    d.run_until(200_000 * US);
    assert_eq!(d.arrivals.len(), 2);
    let want2 = 100_000 * US + (25 + 50 + 40 + 4464 + 25) * US + p;
    assert_eq!(d.arrivals[1].0, want2);
    assert_eq!(d.ch.stats(0).arp_requests, 1);
    assert!(d.failures.is_empty() && d.drops.is_empty());
    assert_eq!(d.ch.packets_held(), 0);
}

/// Two packets for B before its reply: the second replaces the held first as it enters the
/// LL (dropped at once as `arp_replaced`) and sends a second request, which waits in the
/// queue behind the first; only the second packet arrives.
#[test]
fn a_newer_packet_replaces_the_held_one() {
    let pos = [(0.0, 0.0), (100.0, 0.0)];
    let mut d = Driver::new(basic_arp(), &pos);
    d.submit(0, udp_packet(1, 1, 1040), Addr::nth(1));
    d.submit(0, udp_packet(2, 1, 1040), Addr::nth(1));
    assert_eq!(d.ch.packets_held(), 1); // the one ARP holds
    assert_eq!(d.drops, vec![(0, DropReason::ArpReplaced)]);
    d.run_until(100_000 * US);
    let uids: Vec<u64> = d.arrivals.iter().map(|a| a.2.uid).collect();
    assert_eq!(uids, vec![2]);
    let a = d.ch.stats(0);
    assert_eq!((a.arp_requests, a.arp_drops, a.data_sent), (2, 1, 1));
    // B answers each request it decodes.
    assert_eq!(d.ch.stats(1).arp_replies, 2);
    assert!(d.failures.is_empty());
    assert_eq!(d.ch.packets_held(), 0);
}

/// An ARP request waits in the interface queue behind what is already there (ns-2's ARP
/// sends it to the LL's down target, the queue): A, resolved for B, has three packets for
/// B queued behind the one its MAC sends when, 30 µs later, a packet for C needs ARP. The
/// request goes on the air after B's four DATA frames, not next; C's packet follows C's
/// reply.
#[test]
fn an_arp_request_waits_behind_queued_packets() {
    let pos = [(0.0, 0.0), (100.0, 0.0), (0.0, 100.0)];
    let mut d = Driver::new(basic_arp(), &pos);
    d.submit(0, udp_packet(1, 1, 1040), Addr::nth(1));
    d.run_until(50_000 * US);
    assert_eq!(d.arrivals.len(), 1);
    d.ch.trace_mac = true;
    for uid in 2..=5 {
        d.submit(0, udp_packet(uid, 1, 1040), Addr::nth(1));
    }
    d.run_until(50_000 * US + 30 * US);
    d.submit(0, udp_packet(6, 2, 1040), Addr::nth(2));
    d.run_until(200_000 * US);
    let sent: Vec<String> =
        d.ch.mac_log
            .iter()
            .filter(|e| e.port == 0 && e.event == 's')
            .filter_map(|e| match e.kind {
                MacFrameKind::Data => e.packet.as_ref().map(|p| format!("data {}", p.uid)),
                MacFrameKind::Arp { request: true, .. } => Some("arp request".to_string()),
                _ => None,
            })
            .collect();
    assert_eq!(
        sent,
        [
            "data 2",
            "data 3",
            "data 4",
            "data 5",
            "arp request",
            "data 6"
        ]
    );
    let got: Vec<(u64, u16)> = d.arrivals.iter().map(|a| (a.2.uid, a.1)).collect();
    assert_eq!(got, vec![(1, 1), (2, 1), (3, 1), (4, 1), (5, 1), (6, 2)]);
    assert_eq!(d.ch.packets_held(), 0);
}

/// A full queue drops an ARP request like a packet (ns-2's `D IFQ ... ARP` line): with a
/// PriQueue of limit 3, A's MAC sends packet 2 and packets 3 and 4 wait (the queue is
/// full); the request for C, 30 µs later, is dropped. It is logged at the IFQ layer, 28
/// octets, its receiver the broadcast address; C's packet stays held by ARP.
#[test]
fn a_full_queue_drops_an_arp_request() {
    let pos = [(0.0, 0.0), (100.0, 0.0), (0.0, 100.0)];
    let cfg = WifiConfig {
        ifq_limit: 3,
        ..basic_arp()
    };
    let mut d = Driver::new(cfg, &pos);
    d.submit(0, udp_packet(1, 1, 1040), Addr::nth(1));
    d.run_until(50_000 * US);
    d.ch.trace_mac = true;
    for uid in 2..=4 {
        d.submit(0, udp_packet(uid, 1, 1040), Addr::nth(1));
    }
    d.run_until(50_000 * US + 30 * US);
    d.submit(0, udp_packet(5, 2, 1040), Addr::nth(2));
    d.run_until(100_000 * US);
    let ifq: Vec<(u16, char, &str, MacFrameKind, u32)> =
        d.ch.mac_log
            .iter()
            .filter(|e| e.layer == "IFQ")
            .map(|e| (e.port, e.event, e.reason, e.kind, e.bytes))
            .collect();
    let request = MacFrameKind::Arp {
        request: true,
        target: Addr::nth(2),
    };
    assert_eq!(ifq, vec![(0, 'D', "---", request, 28)]);
    let line = d.ch.mac_log.iter().find(|e| e.layer == "IFQ").unwrap();
    assert_eq!((line.time, line.ra), (50_035 * US, Addr::BROADCAST));
    assert!(d.drops.is_empty());
    // The one request on the air was for B, before packet 1.
    assert_eq!(d.ch.stats(0).arp_requests, 1);
    let got: Vec<u64> = d.arrivals.iter().map(|a| a.2.uid).collect();
    assert_eq!(got, vec![1, 2, 3, 4]);
    // Packet 5 stays with ARP, which has no timer: only a new packet for C asks again.
    assert_eq!(d.ch.packets_held(), 1);
}

/// Nobody answers (an address no station has, and a neighbour out of range): each packet
/// sends a request and replaces the held one; the fourth finds three requests unanswered,
/// and it and the held third go back to routing as transmit failures.
#[test]
fn three_unanswered_requests_hand_the_packets_back() {
    for (pos, hop) in [
        (vec![(0.0, 0.0), (100.0, 0.0)], Addr::nth(50)),
        (vec![(0.0, 0.0), (1000.0, 0.0)], Addr::nth(1)),
    ] {
        let mut d = Driver::new(basic_arp(), &pos);
        for uid in 1..=4 {
            d.submit(0, udp_packet(uid, 50, 1040), hop);
            d.run_until(uid * 10_000 * US);
        }
        let back: Vec<(u64, Addr)> = d
            .failures
            .iter()
            .map(|(_, f)| (f.packet.uid, f.next_hop))
            .collect();
        assert_eq!(back, vec![(3, hop), (4, hop)]);
        let reasons: Vec<DropReason> = d.drops.iter().map(|x| x.1).collect();
        assert_eq!(reasons, vec![DropReason::ArpReplaced; 2]);
        let a = d.ch.stats(0);
        assert_eq!((a.arp_requests, a.arp_drops, a.arp_failures), (3, 2, 2));
        assert_eq!((a.data_sent, a.drops_retry_limit), (0, 0));
        assert!(d.arrivals.is_empty());
        assert_eq!(d.ch.packets_held(), 0);
    }
}

/// C overhears A's broadcast request for B and learns A: C's packet to A later needs no
/// ARP, nor does B's (B learnt A from the request it answered).
#[test]
fn an_overheard_request_installs_the_requester() {
    let pos = [(0.0, 0.0), (100.0, 0.0), (0.0, 100.0)];
    let mut d = Driver::new(basic_arp(), &pos);
    d.submit(0, udp_packet(1, 1, 1040), Addr::nth(1));
    d.run_until(50_000 * US);
    assert_eq!(d.arrivals.len(), 1);
    d.submit(2, udp_packet(2, 0, 1040), Addr::nth(0));
    d.run_until(100_000 * US);
    d.submit(1, udp_packet(3, 0, 1040), Addr::nth(0));
    d.run_until(150_000 * US);
    let got: Vec<(u64, u16)> = d.arrivals.iter().map(|a| (a.2.uid, a.1)).collect();
    assert_eq!(got, vec![(1, 1), (2, 0), (3, 0)]);
    assert_eq!(d.ch.stats(0).arp_requests, 1);
    assert_eq!(d.ch.stats(1).arp_requests, 0);
    assert_eq!(d.ch.stats(2).arp_requests, 0);
    assert_eq!(d.ch.stats(2).arp_replies, 0);
}

// ----------------------------------------------------------------------------------------
// The MAC trace (`mac_log.rs`): which frames ns-2's `-macTrace ON` lines report, when, with
// which size, duration and reason.

/// (time, station, event, reason, kind, bytes, duration µs) of every logged MAC event.
fn mac_events(ch: &WifiChannel) -> Vec<(u64, u16, char, &'static str, MacFrameKind, u32, u64)> {
    ch.mac_log
        .iter()
        .map(|e| {
            (
                e.time,
                e.port,
                e.event,
                e.reason,
                e.kind,
                e.bytes,
                e.duration_us,
            )
        })
        .collect()
}

/// One RTS/CTS/DATA/ACK exchange, A (0) to B (1) 100 m apart, backoff 0: RTS at LL 25 + DIFS
/// 50 = 75 µs. Air times at 1 Mb/s control, 2 Mb/s data (link-spec §3.2): RTS 352, CTS and
/// ACK 304, DATA of 1040 + 52 octets 4464 µs; SIFS 10; p = 100 m / c. Sizes as ns-2 prints
/// them: RTS 20 + 24 PLCP, CTS/ACK 14 + 24, DATA 1092 on the air and 1040 passed up.
/// Durations: RTS 3·SIFS + CTS + DATA + ACK = 5102, CTS 5102 − SIFS − CTS = 4788, DATA
/// SIFS + ACK = 314, ACK 0.
#[test]
fn the_mac_trace_reports_an_rts_cts_data_ack_exchange() {
    let pos = [(0.0, 0.0), (100.0, 0.0)];
    let mut d = Driver::new(legacy(), &pos);
    d.ch.trace_mac = true;
    d.force(0, &[0, 0]);
    d.submit(0, udp_packet(1, 1, 1040), Addr::nth(1));
    d.run_until(20_000 * US);
    let p = prop(pos[0], pos[1]);
    use MacFrameKind::{Ack, Cts, Data, Rts};
    assert_eq!(
        mac_events(&d.ch),
        vec![
            (75 * US, 0, 's', "---", Rts, 44, 5102),
            (427 * US + p, 1, 'r', "---", Rts, 44, 5102),
            (437 * US + p, 1, 's', "---", Cts, 38, 4788),
            (741 * US + 2 * p, 0, 'r', "---", Cts, 38, 4788),
            (751 * US + 2 * p, 0, 's', "---", Data, 1092, 314),
            (5215 * US + 3 * p, 1, 'r', "---", Data, 1040, 314),
            (5225 * US + 3 * p, 1, 's', "---", Ack, 38, 0),
            (5529 * US + 4 * p, 0, 'r', "---", Ack, 38, 0),
        ]
    );
    // The DATA lines carry the packet (its IP part is traced); the control frames do not.
    let with_packet: Vec<bool> = d.ch.mac_log.iter().map(|e| e.packet.is_some()).collect();
    assert_eq!(
        with_packet,
        vec![false, false, false, false, true, true, false, false]
    );
    assert_eq!(d.ch.mac_log[0].ta, Some(Addr::nth(0)));
    assert_eq!(d.ch.mac_log[2].ta, None); // a CTS carries no transmitter address
}

/// Nothing is logged unless the MAC trace is on.
#[test]
fn the_mac_trace_is_off_by_default() {
    let mut d = Driver::new(legacy(), &[(0.0, 0.0), (100.0, 0.0)]);
    d.submit(0, udp_packet(1, 1, 1040), Addr::nth(1));
    d.run_until(20_000 * US);
    assert_eq!(d.arrivals.len(), 1);
    assert!(d.ch.mac_log.is_empty());
}

/// The short retry limit (7) with nobody at the next hop: 7 RTS sent, then at the seventh
/// CTS timeout ns-2 drops the RTS and then the DATA with `RET`, at the same instant, the
/// DATA at its IP size (ns-2 has taken the MAC header off to hand it back).
#[test]
fn the_mac_trace_reports_the_retry_limit_as_ret_drops() {
    let mut d = Driver::new(legacy(), &[(0.0, 0.0), (100.0, 0.0)]);
    d.ch.trace_mac = true;
    d.submit(0, udp_packet(1, 50, 1040), Addr::nth(50));
    d.run_until(2_000_000 * US);
    let ev = mac_events(&d.ch);
    let sent = ev.iter().filter(|e| e.2 == 's').count();
    assert_eq!(sent, 7);
    let drops: Vec<_> = ev.iter().filter(|e| e.2 == 'D').collect();
    assert_eq!(drops.len(), 2);
    assert_eq!(
        (drops[0].3, drops[0].4, drops[0].5),
        ("RET", MacFrameKind::Rts, 44)
    );
    assert_eq!(
        (drops[1].3, drops[1].4, drops[1].5),
        ("RET", MacFrameKind::Data, 1040)
    );
    assert_eq!(drops[0].0, drops[1].0);
    assert_eq!(drops[0].0, d.failures[0].0);
}

/// Hidden terminals A and C (200 m either side of B) send DATA to B with the same backoff
/// (4 slots): both frames start at 75 + 80 µs and reach B at the same instant with equal
/// power, a collision. ns-2 `collision` drops the frame that does not outlast the other at
/// once (C's, second at B in event order and ending no later) and the survivor (A's) when it
/// ends: two `D COL` lines at B for DATA of 1092 octets, at the arrival and at the end of
/// the frames; A and C log no drop.
#[test]
fn the_mac_trace_reports_both_frames_of_a_collision() {
    let pos = [(0.0, 0.0), (200.0, 0.0), (400.0, 0.0)];
    let mut d = Driver::new(hidden(basic_access()), &pos);
    d.ch.trace_mac = true;
    d.force(0, &[4, 1, 0]);
    d.force(2, &[4, 300, 0]);
    d.submit(0, udp_packet(1, 1, 1040), Addr::nth(1));
    d.submit(2, udp_packet(2, 1, 1040), Addr::nth(1));
    d.run_until(200_000 * US);
    let cols: Vec<_> = mac_events(&d.ch)
        .into_iter()
        .filter(|e| e.2 == 'D')
        .collect();
    let start = 155 * US + prop(pos[0], pos[1]);
    assert_eq!(
        cols,
        vec![
            (start, 1, 'D', "COL", MacFrameKind::Data, 1092, 314),
            (
                start + 4464 * US,
                1,
                'D',
                "COL",
                MacFrameKind::Data,
                1092,
                314
            ),
        ]
    );
}

/// ns-2 `send` (a frame enters the MAC on an idle medium) and `tx_resume` (a frame waits,
/// no backoff runs, as after the station sent an ACK or CTS for someone else): the frame
/// waits DIFS + k slots, k forced to 3 then 7. With `bug_fix_timer` (ns-2.35's default) on
/// the backoff timer, which freezes on a busy medium: DIFS 50 µs then k·20 µs from now, no
/// defer timer. Without it on the defer timer, due 50 + k·20 µs from now whatever the
/// medium does, no backoff.
#[test]
fn bug_fix_timer_picks_the_backoff_or_the_defer_timer() {
    for fix in [true, false] {
        let cfg = WifiConfig {
            bug_fix_timer: fix,
            ..basic_access()
        };
        let pos = [(0.0, 0.0), (100.0, 0.0)];
        let mut d = Driver::new(cfg, &pos);
        d.force(0, &[3, 7]);
        d.submit(0, udp_packet(1, 1, 1040), Addr::nth(1));
        let check = |d: &Driver, now: u64, slots: u64| {
            let st = &d.ch.st[0];
            if fix {
                let running = Backoff::Running {
                    stime: now,
                    difs_wait: 50 * US,
                    rtime: slots * 20 * US,
                };
                assert_eq!((st.backoff, st.timers[DEFER]), (running, None));
            } else {
                let due = now + (50 + slots * 20) * US;
                assert_eq!((st.backoff, st.timers[DEFER]), (Backoff::Off, Some(due)));
            }
        };
        // The frame reaches the MAC after LL's 25 µs (`send`, idle medium).
        d.run_until(25 * US);
        check(&d, 25 * US, 3);
        // Nothing runs any more; `tx_resume` at 30 µs finds the frame waiting.
        d.ch.st[0].backoff = Backoff::Off;
        d.ch.disarm(0, DEFER);
        let mut out = IfaceOutput::default();
        d.ch.tx_resume(0, 30 * US, &mut out);
        check(&d, 30 * US, 7);
    }
}

/// Shadowing on the channel: every receiver draws its own power for every frame. A sends
/// 4000 broadcasts, 20 ms apart, to B and C, both 60 m away; β = 2.7, σ = 6 dB and RXThresh
/// is the mean power at 60 m, so each copy is decoded with probability Q(0) = 0.5 and, the
/// draws being independent, both copies with 0.25 (one draw shared by the receivers would
/// give 0.5). Standard errors 0.0079 and 0.0068; the tolerance 0.03 is about four of them.
/// A station 20 km away (mean power −37.17 − 27·4.301 = −153.3 dBW, 45 dB or 7.5 σ below
/// CSThresh's −108.1 dBW) senses nothing.
#[test]
fn shadowing_draws_each_receivers_power_for_each_frame() {
    use crate::wifi::propagation::Shadowing;
    let mut cfg = legacy();
    cfg.radio.model = PropagationModel::Shadowing;
    cfg.radio.shadowing = Shadowing {
        path_loss_exp: 2.7,
        std_db: 6.0,
        dist0_m: 1.0,
        seed: 0,
    };
    cfg.rx_threshold_w = cfg.radio.rx_power(60.0);
    let pos = [(0.0, 0.0), (60.0, 0.0), (0.0, 60.0), (20_000.0, 0.0)];
    let mut d = Driver::new(cfg, &pos);
    d.ch.set_shadowing_stream(RandomStream::named(1, "wifi/shadowing/0"));
    let n = 4000u64;
    for k in 0..n {
        d.submit(0, udp_packet(k + 1, 9, 100), Addr::BROADCAST);
        d.run_until((k + 1) * 20_000 * US);
    }
    let mut at = [0u64; 4];
    let mut both = 0;
    let mut by_uid = std::collections::HashMap::new();
    for (_, port, p) in &d.arrivals {
        at[usize::from(*port)] += 1;
        let seen = by_uid.entry(p.uid).or_insert(0);
        *seen += 1;
        if *seen == 2 {
            both += 1;
        }
    }
    let frac = |c: u64| c as f64 / n as f64;
    assert!((frac(at[1]) - 0.5).abs() < 0.03, "{at:?}");
    assert!((frac(at[2]) - 0.5).abs() < 0.03, "{at:?}");
    assert!((frac(both) - 0.25).abs() < 0.03, "{both}");
    assert_eq!((at[3], d.ch.stats(3).rx_errors), (0, 0));
}

/// ns-2 `-IncomingErrProc` with `rate_ 1`: every frame the receiver's PHY hands up is lost.
/// With a drop target the MAC never sees the DATA frames: no ACK, and the sender gives the
/// packet up after the short retry limit (7 DATA frames, 7 losses at the receiver, none
/// counted as a reception error). Without one each frame reaches the MAC in error: the same
/// 7 attempts, now also 7 reception errors (each followed by EIFS).
#[test]
fn an_incoming_error_model_loses_every_frame_at_rate_one() {
    for drop in [true, false] {
        let cfg = WifiConfig {
            incoming_loss: Some(IncomingLoss { rate: 1.0, drop }),
            ..basic_access()
        };
        let mut d = Driver::new(cfg, &[(0.0, 0.0), (100.0, 0.0)]);
        d.ch.set_incoming_loss_streams(vec![
            RandomStream::named(1, "wifi/n0/incoming"),
            RandomStream::named(1, "wifi/n1/incoming"),
        ]);
        d.submit(0, udp_packet(1, 1, 1040), Addr::nth(1));
        d.run_until(2_000_000 * US);
        let (a, b) = (*d.ch.stats(0), *d.ch.stats(1));
        assert_eq!(
            (a.data_sent, a.ack_timeouts, a.drops_retry_limit),
            (7, 7, 1)
        );
        assert_eq!((b.incoming_losses, b.ack_sent, b.delivered), (7, 0, 0));
        assert_eq!(b.rx_errors, if drop { 0 } else { 7 }, "drop {drop}");
        assert!(d.arrivals.is_empty());
    }
}

/// At `rate_` 0.1 each DATA frame reaching the receiver and each ACK reaching the sender
/// is lost with probability 0.1, one draw per frame: over 400 packets the receiver's share
/// of lost DATA frames is 0.1 within four standard errors (√(0.1 · 0.9 / n)), every packet
/// gets through (one every 50 ms; a lost frame is sent again) and some were resent.
#[test]
fn an_incoming_error_model_loses_its_rate_of_frames() {
    let cfg = WifiConfig {
        incoming_loss: Some(IncomingLoss {
            rate: 0.1,
            drop: true,
        }),
        ..basic_access()
    };
    let mut d = Driver::new(cfg, &[(0.0, 0.0), (100.0, 0.0)]);
    d.ch.set_incoming_loss_streams(vec![
        RandomStream::named(7, "wifi/n0/incoming"),
        RandomStream::named(7, "wifi/n1/incoming"),
    ]);
    for uid in 0..400 {
        d.submit(0, udp_packet(uid, 1, 1040), Addr::nth(1));
        d.run_until((uid + 1) * 50_000 * US);
    }
    let (a, b) = (*d.ch.stats(0), *d.ch.stats(1));
    assert_eq!(b.delivered, 400);
    assert_eq!(a.drops_retry_limit, 0);
    let n = a.data_sent as f64;
    let share = b.incoming_losses as f64 / n;
    let se = (0.1 * 0.9 / n).sqrt();
    assert!((share - 0.1).abs() < 4.0 * se, "{share} of {n}");
    assert!(a.data_retransmitted > 0 && a.incoming_losses > 0);
}
