//! Hand-worked exchanges of FullTcp agents: each step hands one agent a segment (or a timer)
//! at a given time and checks what it sends and its state, the numbers worked out from
//! ns-2.35's `FullTcpAgent` code by hand.

use super::*;
use crate::tcp::config::{DefaultsProfile, TcpConfig, TcpVariant};
use crate::tcp::segment::EcnFlags;

fn ms(v: u64) -> SimTime {
    SimTime::from_millis(v)
}

fn cfg(variant: FullVariant) -> FullTcpConfig {
    let rto = TcpConfig::from_profile(TcpVariant::Reno, DefaultsProfile::Ns2_35).rto;
    FullTcpConfig::ns2_defaults(variant, rto)
}

/// What an agent sent during one call: (seq, ack, flags, datalen).
fn sent(out: &mut FullOutput) -> Vec<(i64, i64, u8, u32)> {
    let v = out
        .segments
        .iter()
        .map(|s| (s.seq, s.ack, s.flags, s.datalen))
        .collect();
    out.clear();
    v
}

/// A segment as the peer would send it.
fn seg(seq: i64, ack: i64, flags: u8, datalen: u32, listener: bool) -> FullSegment {
    FullSegment {
        seq,
        ack,
        flags,
        datalen,
        hlen: 40,
        listener,
        sent_at: SimTime::ZERO,
        sack: [(0, 0); segment::MAX_SACK_BLOCKS],
        n_sack: 0,
        ecn: Default::default(),
        ts: SimTime::ZERO,
        ts_echo: SimTime::ZERO,
    }
}

/// The 3-way handshake and the first data segment and its ACK (ns-2 `connect`, recv's
/// LISTEN and SYN_SENT branches, header prediction), with ns-2.35's defaults: segsize_ 536,
/// windowInit_ 2, segsperack_ 1, interval_ 100 ms.
#[test]
fn handshake_then_data_and_its_ack() {
    let mut out = FullOutput::default();
    let mut a = FullTcpAgent::new(cfg(FullVariant::Reno), SimTime::ZERO);
    let mut b = FullTcpAgent::new(cfg(FullVariant::Reno), SimTime::ZERO);
    b.listen();

    // FTP start: an infinite send. The SYN (seq 0, no ACK yet) carries PUSH (dataless SYN
    // of an infinite send); the retransmission timer runs with the initial RTO (3 s).
    a.send(ms(1000), None, &mut out);
    assert_eq!(sent(&mut out), vec![(0, -1, TH_SYN | TH_PUSH, 0)]);
    assert_eq!(a.state(), State::SynSent);
    assert_eq!(a.maxseq(), 1);
    assert_eq!(a.next_timer(), Some(ms(4000)));

    // The listener answers SYN+ACK (PUSH: a dataless SYN empties its buffer) and starts its
    // delayed-ACK timer at the next multiple of 100 ms.
    let syn = seg(0, -1, TH_SYN | TH_PUSH, 0, false);
    b.on_segment(ms(1050), &syn, &mut out);
    assert_eq!(sent(&mut out), vec![(0, 1, TH_SYN | TH_ACK | TH_PUSH, 0)]);
    assert_eq!(b.state(), State::SynReceived);
    assert_eq!(b.rcv_nxt(), 1);
    assert_eq!(b.delack_at, Some(ms(1100)));

    // The SYN+ACK: ns-2's own pure ACK first, then cwnd = windowInit_ (2) segments.
    let syn_ack = seg(0, 1, TH_SYN | TH_ACK | TH_PUSH, 0, true);
    a.on_segment(ms(1100), &syn_ack, &mut out);
    assert_eq!(
        sent(&mut out),
        vec![
            (1, 1, TH_ACK, 0),
            (1, 1, TH_ACK, 536),
            (537, 1, TH_ACK, 536)
        ]
    );
    assert_eq!(a.state(), State::Established);
    assert_eq!(a.cwnd(), 2.0);
    assert_eq!((a.highest_ack(), a.t_seqno(), a.maxseq()), (1, 1073, 1073));
    // The SYN's RTT (100 ms, 10 ticks of 10 ms) is the first sample: RTO 0.3 s after the
    // timer was cancelled (all acknowledged) and armed again by the first data segment.
    assert_eq!(a.rto().timeout(), ms(300));
    assert_eq!(a.rtx_at, Some(ms(1400)));

    // The handshake's ACK completes the passive open; nothing to answer.
    b.on_segment(ms(1150), &seg(1, 1, TH_ACK, 0, false), &mut out);
    assert!(sent(&mut out).is_empty());
    assert_eq!(b.state(), State::Established);

    // A full segment in order: header prediction, ACK at once (segsperack_ 1), PUSH set
    // because the listener's own send buffer is empty.
    b.on_segment(ms(1160), &seg(1, 1, TH_ACK, 536, false), &mut out);
    assert_eq!(sent(&mut out), vec![(1, 537, TH_ACK | TH_PUSH, 0)]);
    assert_eq!(out.delivered_bytes, 0);
    assert_eq!(b.rcv_nxt(), 537);
}

/// segsperack_ 2: one segment waits for the delayed-ACK timer, which fires on the 100 ms
/// grid the first arrival set and then runs on every 100 ms (ns-2 `timeout(DELACK)`); a
/// second segment makes the ACK go at once.
#[test]
fn delayed_ack_fires_on_the_interval_grid() {
    let mut out = FullOutput::default();
    let mut c = cfg(FullVariant::Reno);
    c.segs_per_ack = 2;
    let mut b = FullTcpAgent::new(c, SimTime::ZERO);
    b.listen();
    b.on_segment(ms(30), &seg(0, -1, TH_SYN | TH_PUSH, 0, false), &mut out);
    assert_eq!(sent(&mut out), vec![(0, 1, TH_SYN | TH_ACK | TH_PUSH, 0)]);
    b.on_segment(ms(70), &seg(1, 1, TH_ACK, 0, false), &mut out);
    assert_eq!(b.delack_at, Some(ms(100)));
    // The grid's tick at 100 ms finds nothing held: it only re-arms.
    b.on_timer(ms(100), &mut out);
    assert!(sent(&mut out).is_empty());
    assert_eq!(b.delack_at, Some(ms(200)));
    // One segment is held (1 of 2)...
    b.on_segment(ms(120), &seg(1, 1, TH_ACK, 536, false), &mut out);
    assert!(sent(&mut out).is_empty());
    // ... and ACKed by the timer at 200 ms.
    b.on_timer(ms(200), &mut out);
    assert_eq!(sent(&mut out), vec![(1, 537, TH_ACK | TH_PUSH, 0)]);
    assert_eq!(b.delack_at, Some(ms(300)));
    // Two segments: the second one is acknowledged at once.
    b.on_segment(ms(210), &seg(537, 1, TH_ACK, 536, false), &mut out);
    assert!(sent(&mut out).is_empty());
    b.on_segment(ms(215), &seg(1073, 1, TH_ACK, 536, false), &mut out);
    assert_eq!(sent(&mut out), vec![(1, 1609, TH_ACK | TH_PUSH, 0)]);
}

/// An established sender with `segsize` 100, cwnd 4: four segments out, the first lost.
fn sender_with_four_out(variant: FullVariant, out: &mut FullOutput) -> FullTcpAgent {
    let mut c = cfg(variant);
    c.segsize = 100;
    c.window_init = 4;
    let mut a = FullTcpAgent::new(c, SimTime::ZERO);
    a.send(ms(0), None, out);
    assert_eq!(sent(out), vec![(0, -1, TH_SYN | TH_PUSH, 0)]);
    a.on_segment(ms(100), &seg(0, 1, TH_SYN | TH_ACK | TH_PUSH, 0, true), out);
    assert_eq!(
        sent(out),
        vec![
            (1, 1, TH_ACK, 0),
            (1, 1, TH_ACK, 100),
            (101, 1, TH_ACK, 100),
            (201, 1, TH_ACK, 100),
            (301, 1, TH_ACK, 100),
        ]
    );
    a
}

/// Reno (ns-2 `FullTcpAgent::dupack_action`, `extra_ack`, `pack_action`): the third
/// duplicate halves ssthresh and cwnd and resends the hole, cwnd = ssthresh + 3; each
/// further duplicate adds one (the new data after the cut carries CWR); the ACK past
/// `recover` deflates cwnd to ssthresh, then opens it by 1/cwnd.
#[test]
fn reno_fast_retransmit_and_recovery() {
    let mut out = FullOutput {
        ns2_event_trace: true,
        ..FullOutput::default()
    };
    let mut a = sender_with_four_out(FullVariant::Reno, &mut out);
    let dup = seg(1, 1, TH_ACK | TH_PUSH, 0, true);
    a.on_segment(ms(200), &dup, &mut out);
    a.on_segment(ms(201), &dup, &mut out);
    assert!(sent(&mut out).is_empty());
    assert_eq!(a.dupacks(), 2);
    a.on_segment(ms(202), &dup, &mut out);
    // ns-2's event trace: the cut came in slow start (cwnd 4 < ssthresh 20), so `slowdown`
    // writes SLOW_START, then FAST_RETX, both with cwnd halved, before the resent segment.
    let events: Vec<_> = out
        .ns2_events
        .iter()
        .map(|e| (e.kind, e.cwnd, e.before_segment))
        .collect();
    assert_eq!(
        events,
        vec![
            (Ns2EventKind::SlowStart, 2, 0),
            (Ns2EventKind::FastRetx, 2, 0)
        ]
    );
    assert_eq!(sent(&mut out), vec![(1, 1, TH_ACK, 100)]);
    assert_eq!(a.ssthresh(), 2);
    assert_eq!(a.cwnd(), 5.0);
    assert_eq!(a.recover, 401);
    // Fourth duplicate: cwnd 6, so the window reaches 1 + 600: two new segments.
    a.on_segment(ms(203), &dup, &mut out);
    assert_eq!(a.cwnd(), 6.0);
    assert_eq!(
        sent(&mut out),
        vec![(401, 1, TH_ACK | TH_CWR, 100), (501, 1, TH_ACK, 100)]
    );
    // The retransmission fills the hole: ACK 401 = recover, a full ACK.
    a.on_segment(ms(300), &seg(1, 401, TH_ACK | TH_PUSH, 0, true), &mut out);
    assert_eq!(a.cwnd(), 2.5);
    assert_eq!(a.dupacks(), 0);
    assert!(!a.fastrecov);
    // Window 2 segments from 401: 601 is outside it.
    assert!(sent(&mut out).is_empty());
}

/// Tahoe (ns-2 `TahoeFullTcpAgent::dupack_action`): the third duplicate restarts from
/// `highest_ack` with cwnd 1 and ssthresh halved; no inflation on further duplicates.
#[test]
fn tahoe_fast_retransmit_is_a_slow_start() {
    let mut out = FullOutput::default();
    let mut a = sender_with_four_out(FullVariant::Tahoe, &mut out);
    let dup = seg(1, 1, TH_ACK | TH_PUSH, 0, true);
    for t in 200..202 {
        a.on_segment(ms(t), &dup, &mut out);
    }
    a.on_segment(ms(202), &dup, &mut out);
    assert_eq!(sent(&mut out), vec![(1, 1, TH_ACK, 100)]);
    assert_eq!((a.cwnd(), a.ssthresh(), a.t_seqno()), (1.0, 2, 101));
    a.on_segment(ms(203), &dup, &mut out);
    assert!(sent(&mut out).is_empty());
    assert_eq!(a.cwnd(), 1.0);
}

/// NewReno (ns-2 `NewRenoFullTcpAgent::pack_action`): a partial ACK resends the next hole
/// at once, sets cwnd to ssthresh and stays in recovery.
#[test]
fn newreno_partial_ack_retransmits_the_next_hole() {
    let mut out = FullOutput::default();
    let mut a = sender_with_four_out(FullVariant::NewReno, &mut out);
    let dup = seg(1, 1, TH_ACK | TH_PUSH, 0, true);
    for t in 200..203 {
        a.on_segment(ms(t), &dup, &mut out);
    }
    assert_eq!(sent(&mut out), vec![(1, 1, TH_ACK, 100)]);
    // Segments 1 and 101 arrived, 201 was lost too: ACK 201 is partial (recover 401).
    a.on_segment(ms(300), &seg(1, 201, TH_ACK | TH_PUSH, 0, true), &mut out);
    assert_eq!(sent(&mut out), vec![(201, 1, TH_ACK, 100)]);
    assert_eq!(a.cwnd(), 2.0);
    assert!(a.fastrecov);
    assert_eq!(a.maxburst, 2);
}

/// A retransmission timeout (ns-2 `timeout_action`): ssthresh = half the window, cwnd 1,
/// the RTO doubled, go back to `highest_ack`.
#[test]
fn timeout_goes_back_to_the_cumulative_ack() {
    let mut out = FullOutput::default();
    let mut a = sender_with_four_out(FullVariant::Reno, &mut out);
    // (The delayed-ACK timer, started by the SYN+ACK, ticks every 100 ms meanwhile.)
    let rtx = a.rtx_at.unwrap();
    let rto = a.rto().timeout();
    a.delack_at = None;
    a.on_timer(rtx, &mut out);
    assert_eq!(sent(&mut out), vec![(1, 1, TH_ACK, 100)]);
    assert_eq!((a.cwnd(), a.ssthresh(), a.t_seqno()), (1.0, 2, 101));
    assert_eq!(a.rto().backoff_multiplier(), 2);
    assert_eq!(
        a.rtx_at,
        Some(rtx + SimTime::from_nanos(2 * rto.as_nanos()))
    );
    assert_eq!(a.stats().timeouts, 1);
}

/// Out-of-order data is queued and acknowledged at once with the old `rcv_nxt`; the hole's
/// arrival delivers the queued bytes too.
#[test]
fn reassembly_acks_holes_at_once_and_delivers_on_fill() {
    let mut out = FullOutput::default();
    let mut b = FullTcpAgent::new(cfg(FullVariant::Reno), SimTime::ZERO);
    b.listen();
    b.on_segment(ms(10), &seg(0, -1, TH_SYN, 0, false), &mut out);
    b.on_segment(ms(20), &seg(1, 1, TH_ACK, 0, false), &mut out);
    out.clear();
    b.on_segment(ms(30), &seg(537, 1, TH_ACK, 536, false), &mut out);
    assert_eq!(sent(&mut out), vec![(1, 1, TH_ACK | TH_PUSH, 0)]);
    b.on_segment(ms(31), &seg(1073, 1, TH_ACK, 536, false), &mut out);
    assert_eq!(sent(&mut out), vec![(1, 1, TH_ACK | TH_PUSH, 0)]);
    b.on_segment(ms(40), &seg(1, 1, TH_ACK, 536, false), &mut out);
    assert_eq!(out.delivered_bytes, 3 * 536);
    assert_eq!(sent(&mut out), vec![(1, 1609, TH_ACK | TH_PUSH, 0)]);
    assert!(b.rq.is_empty());
}

/// A duplicate ACK carrying SACK blocks, as a `FullTcp/Sack` receiver sends it.
fn sack_ack(ack: i64, blocks: &[(i64, i64)]) -> FullSegment {
    let mut s = seg(1, ack, TH_ACK | TH_PUSH, 0, true);
    for (k, b) in blocks.iter().enumerate() {
        s.sack[k] = *b;
    }
    s.n_sack = blocks.len() as u8;
    s.hlen += blocks.len() as u32 * 8 + 2;
    s
}

/// Sack (ns-2 `SackFullTcpAgent`): the third duplicate sets `pipe_` = maxseq − highest_ack −
/// SACKed bytes (401 − 1 − 300 = 100), halves the window (cwnd 2), resends the hole and
/// then sends while `pipe_` < cwnd (one new segment, carrying CWR); each further duplicate
/// takes a segment out of the pipe and lets one more go; no window inflation. The ACK past
/// `recover_` ends pipe control and clears the scoreboard.
#[test]
fn sack_recovery_is_pipe_controlled() {
    let mut out = FullOutput::default();
    let mut a = sender_with_four_out(FullVariant::Sack, &mut out);
    a.on_segment(ms(200), &sack_ack(1, &[(101, 201)]), &mut out);
    a.on_segment(ms(201), &sack_ack(1, &[(101, 301)]), &mut out);
    assert!(sent(&mut out).is_empty());
    a.on_segment(ms(202), &sack_ack(1, &[(101, 401)]), &mut out);
    assert_eq!(
        sent(&mut out),
        vec![(1, 1, TH_ACK, 100), (401, 1, TH_ACK | TH_CWR, 100)]
    );
    assert_eq!((a.cwnd(), a.ssthresh(), a.pipe), (2.0, 2, 200));
    assert!(a.pipectrl);
    a.on_segment(ms(203), &sack_ack(1, &[(101, 501)]), &mut out);
    assert_eq!(sent(&mut out), vec![(501, 1, TH_ACK, 100)]);
    assert_eq!((a.cwnd(), a.pipe), (2.0, 200));
    a.on_segment(ms(300), &sack_ack(501, &[]), &mut out);
    assert_eq!(sent(&mut out), vec![(601, 1, TH_ACK, 100)]);
    assert!(!a.pipectrl);
    assert!(a.sq.is_empty());
    assert_eq!(a.cwnd(), 2.5);
}

/// A `FullTcp/Sack` receiver reports its out-of-order blocks most recent first, the option
/// adding 2 + 8 bytes per block to the header.
#[test]
fn sack_receiver_reports_blocks_most_recent_first() {
    let mut out = FullOutput::default();
    let mut b = FullTcpAgent::new(cfg(FullVariant::Sack), SimTime::ZERO);
    b.listen();
    b.on_segment(ms(10), &seg(0, -1, TH_SYN, 0, false), &mut out);
    b.on_segment(ms(20), &seg(1, 1, TH_ACK, 0, false), &mut out);
    out.clear();
    b.on_segment(ms(30), &seg(537, 1, TH_ACK, 536, false), &mut out);
    b.on_segment(ms(31), &seg(1609, 1, TH_ACK, 536, false), &mut out);
    let ack = out.segments[1];
    assert_eq!(
        (ack.ack, ack.n_sack, ack.hlen, ack.sack[0], ack.sack[1]),
        (1, 2, 40 + 2 + 16, (1609, 2145), (537, 1073))
    );
}

/// A segment with its ECN bits.
fn ecn_seg(
    seq: i64,
    ack: i64,
    flags: u8,
    datalen: u32,
    listener: bool,
    ecn: EcnFlags,
) -> FullSegment {
    let mut s = seg(seq, ack, flags, datalen, listener);
    s.ecn = ecn;
    s
}

const ECT: EcnFlags = EcnFlags {
    ect: true,
    ce: false,
    ece: false,
};
const ECE: EcnFlags = EcnFlags {
    ect: false,
    ce: false,
    ece: true,
};

/// Two ECN-capable Reno ends (`ecn_ 1`), segsize 100, windowInit_ 4: the handshake agrees
/// on ECN, and the opener has four ECN-capable segments (1..401) out.
fn ecn_pair(out: &mut FullOutput) -> (FullTcpAgent, FullTcpAgent) {
    let mut c = cfg(FullVariant::Reno);
    c.segsize = 100;
    c.window_init = 4;
    c.ecn = true;
    let mut a = FullTcpAgent::new(c, SimTime::ZERO);
    let mut b = FullTcpAgent::new(c, SimTime::ZERO);
    b.listen();
    // The ECN-setup SYN (RFC 3168 §6.1.1): ECE and CWR in the header, the hdr_flags
    // ECN-Echo bit too, not ECN-capable itself.
    a.send(ms(0), None, out);
    let syn = out.segments[0];
    assert_eq!(syn.flags, TH_SYN | TH_PUSH | TH_ECE | TH_CWR);
    assert_eq!((syn.ecn.ect, syn.ecn.ece), (false, true));
    out.clear();
    // The listener agrees (ect_): the ECN-setup SYN/ACK carries ECE without CWR, and is not
    // ECN-capable without ecn_syn_.
    b.on_segment(ms(10), &syn, out);
    let syn_ack = out.segments[0];
    assert_eq!(syn_ack.flags, TH_SYN | TH_ACK | TH_PUSH | TH_ECE);
    assert_eq!((syn_ack.ecn.ect, syn_ack.ecn.ece), (false, true));
    out.clear();
    // The opener agrees too: its data is ECN-capable, its handshake ACK not.
    a.on_segment(ms(20), &syn_ack, out);
    let s = &out.segments;
    assert_eq!(s.len(), 5);
    assert!(!s[0].ecn.ect && s[0].datalen == 0);
    assert!(s[1..].iter().all(|d| d.ecn.ect && d.datalen == 100));
    out.clear();
    b.on_segment(ms(30), &seg(1, 1, TH_ACK, 0, false), out);
    assert!(sent(out).is_empty());
    (a, b)
}

/// RFC 3168 §6.1.2-§6.1.3 as ns-2's FullTcp does it: the receiver echoes a CE mark on every
/// ACK until the sender's CWR; the sender halves ssthresh and cwnd on the first ECN-Echo of
/// a window (recover_ = maxseq_ = 401), not on the next, opens no window on ECN-Echo ACKs,
/// and sets CWR on the next segment it sends.
#[test]
fn ecn_echo_halves_once_per_window_and_cwr_ends_the_echo() {
    let mut out = FullOutput::default();
    let (mut a, mut b) = ecn_pair(&mut out);
    let ce = EcnFlags {
        ect: true,
        ce: true,
        ece: false,
    };
    b.on_segment(ms(31), &ecn_seg(1, 1, TH_ACK, 100, false, ce), &mut out);
    assert!(out.segments[0].ecn.ece);
    assert_eq!(sent(&mut out), vec![(1, 101, TH_ACK | TH_PUSH | TH_ECE, 0)]);
    // Unmarked segments still get ECN-Echo: no CWR yet.
    b.on_segment(ms(32), &ecn_seg(101, 1, TH_ACK, 100, false, ECT), &mut out);
    assert_eq!(sent(&mut out), vec![(1, 201, TH_ACK | TH_PUSH | TH_ECE, 0)]);

    let ece_ack = |ack| ecn_seg(1, ack, TH_ACK | TH_PUSH | TH_ECE, 0, true, ECE);
    a.on_segment(ms(40), &ece_ack(101), &mut out);
    assert_eq!((a.cwnd(), a.ssthresh()), (2.0, 2));
    assert!(
        sent(&mut out).is_empty(),
        "cwnd 2 from 101: 101..301 is out already"
    );
    // The second ECN-Echo of the window: no cut, no window growth.
    a.on_segment(ms(41), &ece_ack(201), &mut out);
    assert_eq!((a.cwnd(), a.ssthresh()), (2.0, 2));
    assert!(sent(&mut out).is_empty());
    // An ACK without ECN-Echo opens the window (2 + 1/2) and lets 401 go, with CWR.
    a.on_segment(ms(42), &seg(1, 301, TH_ACK | TH_PUSH, 0, true), &mut out);
    assert_eq!(a.cwnd(), 2.5);
    assert!(out.segments[0].ecn.ect);
    assert_eq!(sent(&mut out), vec![(401, 1, TH_ACK | TH_CWR, 100)]);

    // The receiver's echo stops at the CWR.
    b.on_segment(ms(43), &ecn_seg(201, 1, TH_ACK, 100, false, ECT), &mut out);
    assert_eq!(sent(&mut out), vec![(1, 301, TH_ACK | TH_PUSH | TH_ECE, 0)]);
    b.on_segment(ms(44), &ecn_seg(301, 1, TH_ACK, 100, false, ECT), &mut out);
    assert_eq!(sent(&mut out), vec![(1, 401, TH_ACK | TH_PUSH | TH_ECE, 0)]);
    let cwr = ecn_seg(401, 1, TH_ACK | TH_CWR, 100, false, ECT);
    b.on_segment(ms(45), &cwr, &mut out);
    assert!(!out.segments[0].ecn.ece);
    assert_eq!(sent(&mut out), vec![(1, 501, TH_ACK | TH_PUSH, 0)]);
}

/// A loss in the window an ECN-Echo already cut (ns-2 `dupack_action`, `ecn_` and
/// `last_cwnd_action_` ECN): Reno halves cwnd again (2 -> 1) but not ssthresh (2), and
/// retransmits the hole with CWR; a timeout in such a window sets cwnd to 1 and keeps
/// ssthresh too (`timeout_action`).
#[test]
fn loss_after_an_ecn_cut_does_not_halve_ssthresh_again() {
    let mut out = FullOutput::default();
    let (mut a, _b) = ecn_pair(&mut out);
    let mut t = a.clone();
    a.on_segment(
        ms(40),
        &ecn_seg(1, 101, TH_ACK | TH_ECE, 0, true, ECE),
        &mut out,
    );
    assert_eq!((a.cwnd(), a.ssthresh()), (2.0, 2));
    t.on_segment(
        ms(40),
        &ecn_seg(1, 101, TH_ACK | TH_ECE, 0, true, ECE),
        &mut out,
    );
    out.clear();
    let dup = seg(1, 101, TH_ACK, 0, true);
    a.on_segment(ms(41), &dup, &mut out);
    a.on_segment(ms(42), &dup, &mut out);
    assert!(sent(&mut out).is_empty());
    a.on_segment(ms(43), &dup, &mut out);
    assert_eq!(sent(&mut out), vec![(101, 1, TH_ACK | TH_CWR, 100)]);
    assert_eq!((a.cwnd(), a.ssthresh()), (1.0, 2));
    assert_eq!(a.stats().fast_retransmits, 1);

    let deadline = t.rtx_deadline().expect("data outstanding");
    t.on_timer(deadline, &mut out);
    assert_eq!((t.cwnd(), t.ssthresh()), (1.0, 2));
    assert_eq!(sent(&mut out), vec![(101, 1, TH_ACK | TH_CWR, 100)]);
}

/// `ecn_syn_` with `ecn_syn_wait_` 2 (RFC 5562's retry): the listener's SYN/ACK is
/// ECN-capable; the opener, finding it CE-marked, answers an ECN-Echo ACK (ack -1: its
/// rcv_nxt_ is not set yet) and stays in SYN_SENT; the listener then sends a new SYN/ACK,
/// not ECN-capable, and opens with a window of 1.
#[test]
fn ecn_syn_wait_2_retries_a_marked_syn_ack() {
    let mut out = FullOutput::default();
    let mut c = cfg(FullVariant::Reno);
    c.ecn = true;
    c.ecn_syn = true;
    c.ecn_syn_wait = 2;
    let mut a = FullTcpAgent::new(c, SimTime::ZERO);
    let mut b = FullTcpAgent::new(c, SimTime::ZERO);
    b.listen();
    a.send(ms(0), None, &mut out);
    let syn = out.segments[0];
    out.clear();
    b.on_segment(ms(10), &syn, &mut out);
    let mut syn_ack = out.segments[0];
    assert!(syn_ack.ecn.ect, "ecn_syn_: an ECN-capable SYN/ACK");
    out.clear();
    syn_ack.ecn.ce = true;
    a.on_segment(ms(20), &syn_ack, &mut out);
    assert!(out.segments[0].ecn.ece);
    assert_eq!(sent(&mut out), vec![(1, -1, TH_ACK | TH_ECE, 0)]);
    assert_eq!(a.state(), State::SynSent);
    assert_eq!(a.rtx_deadline(), Some(ms(20) + a.rto().timeout()));

    b.on_segment(
        ms(30),
        &ecn_seg(1, -1, TH_ACK | TH_ECE, 0, false, ECE),
        &mut out,
    );
    assert!(
        !out.segments[0].ecn.ect,
        "the new SYN/ACK is not ECN-capable"
    );
    assert_eq!(
        sent(&mut out),
        vec![(0, 1, TH_SYN | TH_ACK | TH_PUSH | TH_ECE, 0)]
    );
    assert_eq!(b.state(), State::SynReceived);
    b.on_segment(ms(40), &seg(1, 1, TH_ACK, 0, false), &mut out);
    assert_eq!(b.state(), State::Established);
    assert_eq!(b.cwnd(), 1.0);
}

/// `windowInitOption_` 2 (ns-2 `TcpAgent::initial_window`): with segsize_ 536 and a 40-byte
/// header (576 bytes, at most 1095) the SYN/ACK opens a window of 4 segments; with segsize_
/// 1460 (1500 bytes, below 2190) 3.
#[test]
fn window_init_option_2_takes_the_window_from_the_packet_size() {
    for (segsize, segments) in [(536u32, 4usize), (1460, 3)] {
        let mut out = FullOutput::default();
        let mut c = cfg(FullVariant::Reno);
        c.segsize = segsize;
        c.window_init_by_size = true;
        let mut a = FullTcpAgent::new(c, SimTime::ZERO);
        a.send(ms(0), None, &mut out);
        out.clear();
        a.on_segment(
            ms(10),
            &seg(0, 1, TH_SYN | TH_ACK | TH_PUSH, 0, true),
            &mut out,
        );
        assert_eq!(a.cwnd(), segments as f64);
        let data = sent(&mut out);
        assert_eq!(
            data.len(),
            1 + segments,
            "the handshake's ACK, then the window"
        );
        assert!(data[1..].iter().all(|s| s.3 == segsize));
    }
}

/// `$tcp trace cwnd_` (ns-2's TracedDouble): from the moment it is traced, every assignment
/// that changes cwnd is one change, in order: the SYN/ACK's initial window (1 -> 2), then one
/// per new ACK in slow start (3); an assignment of the value held records nothing.
#[test]
fn traced_cwnd_records_each_change() {
    let mut out = FullOutput::default();
    let mut c = cfg(FullVariant::Reno);
    c.segsize = 100;
    let mut a = FullTcpAgent::new(c, SimTime::ZERO);
    assert_eq!(a.trace_cwnd(), 1.0);
    a.send(ms(0), None, &mut out);
    assert!(
        a.take_cwnd_changes().is_empty(),
        "the reset keeps cwnd at 1"
    );
    a.on_segment(
        ms(10),
        &seg(0, 1, TH_SYN | TH_ACK | TH_PUSH, 0, true),
        &mut out,
    );
    assert_eq!(a.take_cwnd_changes(), vec![2.0]);
    a.on_segment(ms(20), &seg(1, 101, TH_ACK | TH_PUSH, 0, true), &mut out);
    assert_eq!(a.take_cwnd_changes(), vec![3.0]);
    a.on_segment(ms(21), &seg(1, 101, TH_ACK | TH_PUSH, 0, true), &mut out);
    assert!(
        a.take_cwnd_changes().is_empty(),
        "a duplicate ACK changes nothing"
    );
}

/// The timestamp option (`timestamps_`, RFC 7323 as ns-2.35's FullTcp runs it): every
/// segment carries its send time and the sender's `recent_` in 10 more header bytes; a SYN's
/// timestamp is the receiver's first `recent_` (`dooptions`), a new ACK's is the next one
/// and its echo gives the RTT sample (`newack`), and a segment older than `recent_` is
/// answered and dropped (PAWS).
#[test]
fn timestamps_are_echoed_and_give_every_sample() {
    let mut out = FullOutput::default();
    let mut c = cfg(FullVariant::Reno);
    c.timestamps = true;
    let mut a = FullTcpAgent::new(c, SimTime::ZERO);
    let mut b = FullTcpAgent::new(c, SimTime::ZERO);
    b.listen();
    let stamps = |out: &FullOutput| -> Vec<(u32, SimTime, SimTime)> {
        out.segments
            .iter()
            .map(|s| (s.hlen, s.ts, s.ts_echo))
            .collect()
    };

    // The SYN: sent at 1 s, nothing to echo yet (recent_ 0 after the reset), 40 + 10 bytes.
    a.send(ms(1000), None, &mut out);
    assert_eq!(stamps(&out), vec![(50, ms(1000), SimTime::ZERO)]);
    let mut syn = out.segments[0];
    out.clear();

    // The listener takes the SYN's timestamp as recent_ and echoes it on the SYN+ACK.
    syn.listener = false;
    b.on_segment(ms(1050), &syn, &mut out);
    assert_eq!(b.recent, ms(1000));
    assert_eq!(stamps(&out), vec![(50, ms(1050), ms(1000))]);
    let syn_ack = out.segments[0];
    out.clear();

    // The opener: recent_ from the SYN+ACK (a SYN), the sample 1.1 s - 1.0 s = 100 ms, 10
    // ticks of 10 ms rounded to the nearest: RTO max(0.2 s, 10 + 4 x 5 ticks) = 0.3 s. The
    // ACK and both data segments echo 1.05 s.
    a.on_segment(ms(1100), &syn_ack, &mut out);
    assert_eq!(a.recent, ms(1050));
    assert_eq!(a.rto().timeout(), ms(300));
    assert_eq!(
        stamps(&out),
        vec![(50, ms(1100), ms(1050)); 3],
        "the handshake's ACK and two data segments"
    );
    assert_eq!(out.segments[1].wire_bytes(), 536 + 50);
    let data = out.segments[1];
    out.clear();

    // The handshake's ACK (seq 1 <= last ACK sent, 1): recent_ 1.1 s at the listener; the
    // first data segment in order (header prediction: its ts is not older than recent_)
    // is acknowledged echoing it.
    let mut ack = seg(1, 1, TH_ACK, 0, false);
    ack.ts = ms(1100);
    ack.ts_echo = ms(1050);
    b.on_segment(ms(1150), &ack, &mut out);
    assert_eq!(b.recent, ms(1100));
    b.on_segment(ms(1160), &data, &mut out);
    assert_eq!(b.rcv_nxt(), 537);
    assert_eq!(stamps(&out), vec![(50, ms(1160), ms(1100))]);
    out.clear();

    // PAWS: the next segment stamped before recent_ (a stale copy, or a peer without the
    // option, whose ts ns-2 sets to -1): answered with an ACK, not delivered.
    let mut stale = data;
    stale.seq = 537;
    stale.ts = ms(900);
    b.on_segment(ms(1170), &stale, &mut out);
    assert_eq!(b.rcv_nxt(), 537);
    assert_eq!(sent(&mut out), vec![(1, 537, TH_ACK | TH_PUSH, 0)]);
    assert_eq!(b.recent, ms(1100));
}
