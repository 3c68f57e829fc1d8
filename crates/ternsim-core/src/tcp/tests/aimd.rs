//! Slow start, congestion avoidance, SYN handling, the timeout and Karn's rule
//! (tcp-spec §0, §2, §3.2).

use super::*;
use crate::tcp::output::TcpEvent;

/// tcp-spec §0: packet 0 is a 40-byte SYN, cwnd 1 until its ACK, then windowInit_ = 2; then
/// slow start +1 per ACK; RTO from the ns-2 integer estimator (phase 0).
#[test]
fn syn_then_slow_start_one_per_ack() {
    let mut r = Run::new(cfg(TcpVariant::Reno));
    r.s.set_app_packets(None);
    assert_eq!(r.start(0), vec![0]);
    let syn = r.out.segments[0];
    assert_eq!(
        (syn.wire_bytes, syn.payload_bytes, syn.retransmission),
        (40, 0, false)
    );
    assert_eq!(r.cwnd(), 1.0);
    assert_eq!(r.ssthresh(), 20.0);
    assert_eq!(r.s.next_timer(), Some(ms(3_000)), "initial RTO 3 s");

    assert_eq!(r.ack(100, 0), vec![1, 2]);
    assert_eq!(r.cwnd(), 2.0);
    assert_eq!(r.out.segments[0].wire_bytes, 1040);
    assert_eq!(r.out.segments[0].payload_bytes, 1000);
    // Sample 100 ms = 10 ticks: srtt 10, rttvar 5 → RTO 30 ticks.
    assert_eq!(r.s.next_timer(), Some(ms(400)));
    assert_eq!(
        r.out.events,
        vec![
            TcpEvent::RttSample { seq: 0, rtt_s: 0.1 },
            TcpEvent::Rto {
                srtt_s: 0.1,
                rttvar_s: 0.05,
                rto_s: 0.3
            },
            TcpEvent::Window {
                cwnd: 2.0,
                ssthresh: 20.0,
                dupwnd: 0
            },
        ]
    );

    assert_eq!(r.ack(200, 1), vec![3, 4]);
    assert_eq!(r.cwnd(), 3.0);
    // Second sample 10 ticks: d = 0, S = 80, V = 20 − 5 = 15 → (120 + 80) >> 3 = 25 ticks.
    assert_eq!(r.s.next_timer(), Some(ms(450)));
    assert_eq!(r.ack(210, 2), vec![5, 6]);
    assert_eq!(r.cwnd(), 4.0);
}

/// Without SYN emulation cwnd starts at windowInit_ and packet 0 carries data but no
/// headers: ns-2's `TcpAgent::output` adds `useHeaders_`'s 40 bytes to every packet except
/// seqno 0 (ns-2.35 with `syn_ false` traces `+ 0.1 0 1 tcp 1000 ... 0 0` then 1040-byte
/// packets).
#[test]
fn no_syn_starts_at_window_init() {
    let mut c = cfg(TcpVariant::Reno);
    c.syn = false;
    let mut r = Run::new(c);
    assert_eq!(r.start(0), vec![0, 1]);
    assert_eq!(r.out.segments[0].wire_bytes, 1000);
    assert_eq!(r.out.segments[0].payload_bytes, 1000);
    assert_eq!(r.out.segments[1].wire_bytes, 1040);
    // ack 0: opencwnd → 3, then the packet-0 rule resets to windowInit_ (tcp-spec §4 step 1).
    assert_eq!(r.ack(100, 0), vec![2]);
    assert_eq!(r.cwnd(), 2.0);
}

/// Slow start only while cwnd < ssthresh; at equality congestion avoidance adds 1/cwnd.
#[test]
fn slow_start_ends_at_ssthresh_then_one_over_cwnd() {
    let mut r = Run::at_state(cfg(TcpVariant::Reno), 20, 3.0, 4.0, 0);
    assert_eq!(r.sent(), vec![21, 22, 23]);
    assert_eq!(r.ack(100, 21), vec![24, 25]);
    assert_eq!(r.cwnd(), 4.0);
    assert_eq!(r.ack(110, 22), vec![26]);
    assert_eq!(r.cwnd(), 4.25);
    assert_eq!(r.ack(120, 23), vec![27]);
    assert!(close(r.cwnd(), 4.25 + 1.0 / 4.25)); // 4.485294...
    assert_eq!(r.ack(130, 24), vec![28]);
    assert!(close(r.cwnd(), 4.708_244_937_319_19));
}

/// One increment per ACK however many packets it covers (no byte counting).
#[test]
fn stretch_ack_counts_once() {
    let mut r = Run::at_state(cfg(TcpVariant::Tahoe), 20, 2.0, 20.0, 0);
    assert_eq!(r.sent(), vec![21, 22]);
    assert_eq!(r.ack(100, 22), vec![23, 24, 25]);
    assert_eq!(r.cwnd(), 3.0);
}

/// ns-2 maxcwnd_: once int(cwnd) exceeds it, cwnd = maxcwnd.
#[test]
fn max_cwnd_caps_growth() {
    let mut c = cfg(TcpVariant::Reno);
    c.max_cwnd = 5.0;
    let mut r = Run::at_state(c, 20, 5.0, 20.0, 0);
    assert_eq!(r.ack(100, 21), vec![26]);
    assert_eq!(r.cwnd(), 5.0);
}

/// FeW (tcp-spec §10): NewReno with increase_num = alpha in congestion avoidance only.
#[test]
fn few_increase_num_scales_congestion_avoidance_only() {
    let mut c = cfg(TcpVariant::NewReno);
    c.increase_num = 0.5;
    let mut r = Run::at_state(c, 20, 4.0, 4.0, 0);
    r.ack(100, 21);
    assert_eq!(r.cwnd(), 4.125);
    let mut r = Run::at_state(c, 20, 2.0, 4.0, 0);
    r.ack(100, 21);
    assert_eq!(r.cwnd(), 3.0);
}

/// A finite transfer: with the SYN, `set_app_packets(3)` means packets 0..=3; the timer stops
/// when everything is acknowledged.
#[test]
fn finite_transfer_and_stop_new_data() {
    let mut r = Run::new(cfg(TcpVariant::Reno));
    r.s.set_app_packets(Some(3));
    assert_eq!(r.start(0), vec![0]);
    assert_eq!(r.ack(100, 0), vec![1, 2]);
    assert_eq!(r.ack(200, 1), vec![3]);
    assert_eq!(r.ack(300, 2), Vec::<Seq>::new());
    assert!(r.s.next_timer().is_some());
    assert_eq!(r.ack(400, 3), Vec::<Seq>::new());
    assert_eq!(r.s.next_timer(), None);

    // A stop (ns-2 FTP `stop`): nothing new goes out, but the timer keeps running once
    // everything is acknowledged, as ns-2's does (measured against ns-2.35: cwnd 13.4 at the
    // last ACK, 1 an RTO later). Its expiry with nothing outstanding is the idle restart:
    // cwnd back to the initial window, nothing retransmitted, no timeout counted.
    let mut r = Run::new(cfg(TcpVariant::Reno));
    r.start(0);
    assert_eq!(r.ack(100, 0), vec![1, 2]);
    r.s.stop_new_data();
    assert_eq!(r.ack(200, 1), Vec::<Seq>::new());
    assert_eq!(r.ack(300, 2), Vec::<Seq>::new());
    assert!(r.cwnd() > 2.0);
    assert!(r.s.next_timer().is_some());
    assert_eq!(r.fire(), Vec::<Seq>::new());
    assert_eq!(r.cwnd(), 1.0);
    assert_eq!(r.s.conn().stats().timeouts, 0);
    // Started again (ns-2 FTP `start`, `send -1`): unlimited data, one packet in the window.
    r.out.clear();
    r.s.resume(ms(2_000), &mut r.out);
    assert_eq!(r.sent(), vec![3]);
}

/// A trace-driven source offers data in pieces (ns-2 `advanceby`): with no data the SYN
/// still goes out; each offer sends what the window allows.
#[test]
fn application_offers_data_over_time() {
    let mut r = Run::new(cfg(TcpVariant::Reno));
    r.s.set_app_packets(Some(0));
    assert_eq!(r.start(0), vec![0]);
    // SYN acknowledged: cwnd 2, but nothing to send.
    assert_eq!(r.ack(100, 0), Vec::<Seq>::new());
    r.out.clear();
    r.s.add_app_packets(ms(150), 3, &mut r.out);
    assert_eq!(r.sent(), vec![1, 2]);
    assert_eq!(r.ack(250, 1), vec![3]);
    assert_eq!(r.ack(260, 2), Vec::<Seq>::new());
}

/// tcp-spec §2 timeout: ssthresh = max(2, floor(min(cwnd, window)/2)), cwnd = 1, go back N
/// from highest_ack + 1, backoff doubles; a second timeout halves again to 2.
#[test]
fn timeout_halves_window_and_backs_off() {
    let mut r = Run::at_state(cfg(TcpVariant::Tahoe), 20, 9.7, 20.0, 0);
    assert_eq!(r.sent(), seqs(21..=29));
    assert_eq!(r.s.next_timer(), Some(ms(3_000)));
    assert_eq!(r.fire(), vec![21]);
    assert_eq!((r.ssthresh(), r.cwnd()), (4.0, 1.0));
    assert!(r.out.segments[0].retransmission);
    assert!(r.out.events.contains(&TcpEvent::Timeout { seq: 21 }));
    assert_eq!(r.s.next_timer(), Some(ms(9_000)));
    assert_eq!(r.fire(), vec![21]);
    assert_eq!((r.ssthresh(), r.cwnd()), (2.0, 1.0));
    assert_eq!(r.s.next_timer(), Some(ms(21_000)));
    assert_eq!(r.s.stats().timeouts, 2);
    assert_eq!(r.s.stats().retransmissions, 2);

    // The receiver window bounds the halved window: min(10, 8)/2 = 4.
    let mut c = cfg(TcpVariant::Reno);
    c.window = 8;
    let mut r = Run::at_state(c, 20, 10.0, 20.0, 0);
    assert_eq!(r.sent(), seqs(21..=28));
    assert_eq!(r.fire(), vec![21]);
    assert_eq!((r.ssthresh(), r.cwnd()), (4.0, 1.0));
}

/// Karn: ACKs of retransmitted packets give no sample and keep the backoff; the first timed
/// new packet's ACK gives a sample and resets it.
#[test]
fn karn_backoff_kept_until_sample_from_new_data() {
    let mut r = Run::at_state(cfg(TcpVariant::Reno), 20, 2.0, 20.0, 0);
    assert_eq!(r.sent(), vec![21, 22]);
    assert_eq!(r.fire(), vec![21]);
    assert_eq!((r.ssthresh(), r.cwnd()), (2.0, 1.0));
    assert_eq!(r.s.next_timer(), Some(ms(9_000)));

    assert_eq!(r.ack(3_100, 21), vec![22, 23]);
    let flags: Vec<bool> = r.out.segments.iter().map(|d| d.retransmission).collect();
    assert_eq!(flags, vec![true, false]);
    assert_eq!(r.cwnd(), 2.0);
    assert!(!r
        .out
        .events
        .iter()
        .any(|e| matches!(e, TcpEvent::RttSample { .. })));
    assert_eq!(r.s.next_timer(), Some(ms(3_100 + 6_000)), "backoff kept");

    assert_eq!(r.ack(3_200, 22), vec![24]);
    assert_eq!(r.cwnd(), 2.5);
    assert_eq!(r.s.next_timer(), Some(ms(3_200 + 6_000)));

    // Packet 23 (new data, timed at 3.1 s): 200 ms sample, backoff 1, RTO 20 + 4·10 ticks.
    assert_eq!(r.ack(3_300, 23), vec![25]);
    assert!(r.out.events.contains(&TcpEvent::RttSample {
        seq: 23,
        rtt_s: 0.2
    }));
    assert_eq!(r.s.next_timer(), Some(ms(3_300 + 600)));
}

/// tcp-spec §2: if the SYN itself timed out, windowInit_ drops to 1.
#[test]
fn syn_timeout_drops_window_init_to_one() {
    let mut r = Run::new(cfg(TcpVariant::Reno));
    assert_eq!(r.start(0), vec![0]);
    assert_eq!(r.fire(), vec![0]);
    assert_eq!(r.out.segments[0].wire_bytes, 40);
    assert_eq!((r.ssthresh(), r.cwnd()), (2.0, 1.0));
    assert_eq!(r.ack(3_100, 0), vec![1]);
    assert_eq!(r.cwnd(), 1.0);
}

/// ns-2.29 profile: integer halving (precisionReduce_ false) and a 6 s initial RTO.
#[test]
fn ns2_29_integer_halving() {
    let mut c = TcpConfig::from_profile(TcpVariant::Reno, DefaultsProfile::Ns2_29);
    c.window = 100;
    let mut r = Run::at_state(c, 20, 15.0, 20.0, 0);
    assert_eq!(r.s.next_timer(), Some(ms(6_000)));
    for t in [10, 20, 30] {
        r.ack(t, 20);
    }
    // floor(floor(15)/2) = 7 rather than 7.5.
    assert_eq!((r.ssthresh(), r.cwnd()), (7.0, 7.0));
}

/// ns-2 FTP `produce N` (`TcpAgent::command` `advance`: `curseq_` = N, or `maxseq_` when N is
/// not above it) and `producemore N` (`advanceby`: `curseq_` += N). With the SYN, `produce 3`
/// from a fresh agent is packets 0..=3 (ns-2 adds the SYN to `curseq_` when it sends it);
/// `producemore 2` then offers 4 and 5; `produce 4` (below what was sent) offers nothing;
/// `produce 7` offers up to packet 6 (`curseq_` 7: the SYN is not counted again).
#[test]
fn produce_and_producemore_move_the_send_limit() {
    let mut r = Run::new(cfg(TcpVariant::Reno));
    r.s.set_app_packets(Some(0));
    r.out.clear();
    r.s.produce(ms(0), 3, false, &mut r.out);
    assert_eq!(r.sent(), vec![0]);
    assert_eq!(r.s.conn().curseq(), 4);
    assert_eq!(r.ack(100, 0), vec![1, 2]);
    assert_eq!(r.ack(200, 1), vec![3]);
    assert_eq!(r.ack(210, 2), Vec::<Seq>::new());
    r.out.clear();
    r.s.produce(ms(220), 2, true, &mut r.out);
    assert_eq!(r.sent(), vec![4, 5]);
    assert_eq!(r.s.conn().curseq(), 6);
    r.out.clear();
    r.s.produce(ms(230), 4, false, &mut r.out);
    assert_eq!(r.sent(), Vec::<Seq>::new());
    assert_eq!(
        r.s.conn().curseq(),
        5,
        "advance below maxseq_: curseq_ = maxseq_"
    );
    r.out.clear();
    r.s.produce(ms(240), 7, false, &mut r.out);
    assert_eq!(r.s.conn().curseq(), 7);

    // `produce 0` on a fresh agent offers nothing: not even the SYN goes out.
    let mut r = Run::new(cfg(TcpVariant::Reno));
    r.s.set_app_packets(Some(0));
    r.out.clear();
    r.s.produce(ms(0), 0, false, &mut r.out);
    assert_eq!(r.sent(), Vec::<Seq>::new());
    assert_eq!(r.s.conn().curseq(), 0);
    // `producemore 2` from there: the SYN and two data packets (ns-2 curseq_ 2, then 3).
    r.s.produce(ms(10), 2, true, &mut r.out);
    assert_eq!(r.sent(), vec![0]);
    assert_eq!(r.s.conn().curseq(), 3);
}

/// `idle_rtx_timer` (ns-2 `TcpAgent::newtimer`: `t_seqno_ > ack` restarts the timer): once a
/// finite transfer is acknowledged the timer keeps running and its expiry restarts the
/// window from its initial size (the idle restart), so data produced later goes out one
/// packet at a time (test-suite-tcp.tcl `quiescent_100ms`: `producemore` at 2.4 s sends
/// one packet). Without the option the timer stops.
#[test]
fn idle_rtx_timer_keeps_the_timer_after_a_finite_transfer() {
    let mut c = cfg(TcpVariant::Reno);
    c.idle_rtx_timer = true;
    let mut r = Run::new(c);
    r.s.set_app_packets(Some(3));
    assert_eq!(r.start(0), vec![0]);
    assert_eq!(r.ack(100, 0), vec![1, 2]);
    assert_eq!(r.ack(200, 1), vec![3]);
    assert_eq!(r.ack(300, 2), Vec::<Seq>::new());
    assert_eq!(r.ack(400, 3), Vec::<Seq>::new());
    assert_eq!(r.cwnd(), 5.0);
    // ns-2 `nackpack_`: every ACK received counts.
    assert_eq!(r.s.conn().stats().acks_received, 4);
    assert!(
        r.s.next_timer().is_some(),
        "t_seqno_ 4 > ack 3: the timer restarts"
    );
    assert_eq!(r.fire(), Vec::<Seq>::new());
    assert_eq!(r.cwnd(), 1.0);
    assert_eq!(r.s.conn().stats().timeouts, 0);
    r.out.clear();
    r.s.produce(ms(5_000), 3, true, &mut r.out);
    assert_eq!(r.sent(), vec![4]);
}

/// ns-2 `windowInitOption_` 2 (`TcpAgent::initial_window`): the initial window comes from the
/// segment size, 4 packets up to 1095 bytes, 3 below 2190, 2 from there; the SYN timing out
/// (nothing acknowledged) goes back to `windowInit_` ("first packet dropped, so don't use
/// larger initial windows"), a second such timeout to 1.
#[test]
fn window_init_option_2_takes_the_window_from_the_segment_size() {
    for (size, iw) in [
        (536, 4.0),
        (1095, 4.0),
        (1096, 3.0),
        (1500, 3.0),
        (2190, 2.0),
    ] {
        let mut c = cfg(TcpVariant::Reno);
        c.window_init_by_size = true;
        c.packet_size = size;
        assert_eq!(c.initial_window(), iw, "{size} bytes");
        let mut r = Run::new(c);
        r.s.set_app_packets(None);
        assert_eq!(r.start(0), vec![0]);
        r.ack(100, 0);
        assert_eq!(r.cwnd(), iw, "the SYN's ACK opens the initial window");
    }
    let mut c = cfg(TcpVariant::Reno);
    c.window_init_by_size = true;
    c.packet_size = 1500;
    let mut r = Run::new(c);
    r.s.set_app_packets(None);
    assert_eq!(r.start(0), vec![0]);
    assert_eq!(r.fire(), vec![0], "the SYN again");
    assert_eq!(r.s.conn().window_init(), 2.0, "windowInit_");
    assert_eq!(r.fire(), vec![0]);
    assert_eq!(r.s.conn().window_init(), 1.0);
}

/// ns-2 `numdupacks(cwnd_)` with `numdupacksFrac_` (test-suite-sack.tcl `sack_dupacks1`, 4):
/// the larger of `numdupacks_` and `(int) cwnd / numdupacksFrac_`, C's truncating division;
/// ns-2.35's default -1 leaves `numdupacks_`.
#[test]
fn dupack_threshold_grows_with_the_window_by_numdupacks_frac() {
    let mut c = cfg(TcpVariant::Sack);
    assert_eq!(c.dupack_threshold_at(40.0), 3, "default -1: numdupacks_");
    c.dupack_frac = 4;
    for (cwnd, want) in [(11.9, 3), (15.99, 3), (16.0, 4), (20.5, 5), (41.0, 10)] {
        assert_eq!(c.dupack_threshold_at(cwnd), want, "cwnd {cwnd}");
    }
}

/// ns-2 `max_connects_` 2 (`TcpAgent::output`): the SYN goes out at 0 s and again at the
/// first timeout (3 s); the send that would be the third SYN, at the second timeout (3 s
/// later, the RTO doubled to 6 s: at 9 s), aborts the connection: nothing is sent, the
/// allocated packet's uid is spent, nothing more is offered and the timer is pushed 10000 s
/// away.
#[test]
fn max_connects_gives_up_on_the_syn_after_the_limit() {
    let mut c = cfg(TcpVariant::Reno);
    c.max_connects = 2;
    let mut r = Run::new(c);
    assert_eq!(r.start(0), vec![0]);
    assert_eq!(r.s.next_timer(), Some(ms(3_000)));
    assert_eq!(r.fire(), vec![0]);
    assert_eq!(r.s.next_timer(), Some(ms(9_000)));
    assert_eq!(r.fire(), Vec::<Seq>::new());
    assert_eq!(r.out.unsent_uids, 1);
    assert_eq!(r.s.conn().curseq(), 0);
    assert_eq!(r.s.next_timer(), Some(ms(9_000 + 10_000_000)));
}

/// ns-2 `bugfix_ss_` (tcp-spec §2). A NewReno sender with `windowInit_` 4 loses its SYN:
/// the timeout at 3 s resends it with cwnd 1 and ssthresh max(1/2, 2) = 2. With the fix (the
/// default) windowInit_ drops to 1, so the ACK of the SYN leaves cwnd at 1 and one packet
/// goes; without it (ns-2 before 2006, test-suite-tcp-init-win.tcl's `droppedSYN`)
/// windowInit_ stays 4 and the ACK, resetting cwnd to it (`delay_growth_`), sends four.
#[test]
fn bugfix_ss_decides_the_window_after_a_lost_syn() {
    for (bugfix_ss, sent, cwnd) in [(true, vec![1], 1.0), (false, vec![1, 2, 3, 4], 4.0)] {
        let mut c = cfg(TcpVariant::NewReno);
        c.window_init = 4;
        c.bugfix_ss = bugfix_ss;
        let mut r = Run::new(c);
        assert_eq!(r.start(0), vec![0]);
        assert_eq!(r.fire(), vec![0]);
        assert_eq!((r.ssthresh(), r.cwnd()), (2.0, 1.0));
        assert_eq!(r.ack(3_100, 0), sent, "bugfix_ss {bugfix_ss}");
        assert_eq!(r.cwnd(), cwnd);
    }
}
