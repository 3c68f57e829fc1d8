//! ns-2's quiescence option (`QOption_`, Agent/TCP) and `control_increase_`, step by step.
//! Tick 100 ms, boot phase 0, `rtxcur_init_` 3 s, no delayed growth: the ACK of packet 0 at
//! 100 ms gives t_rtt 1 tick, t_srtt 8, t_rttvar 2, t_rtxcur (2·8 + 8) >> 3 = 3 ticks; the
//! ACK of packet 2 at 200 ms (packet 1 timed) gives the same.

use super::{ms, Run};
use crate::sim::SimTime;
use crate::tcp::config::{TcpConfig, TcpVariant};
use crate::tcp::congestion::WindowDecision;
use crate::tcp::quiescence::{idle_cut, IdleCut};

fn qcfg(rtt_counter: bool) -> TcpConfig {
    let mut c = super::cfg(TcpVariant::Tahoe);
    c.qoption = true;
    c.rtt_counter = rtt_counter;
    c.syn = false;
    c.delay_growth = false;
    c.window = 25;
    c.window_init = 1;
    c.rto.tick = SimTime::from_millis(100);
    c.rto.initial_rto = SimTime::from_millis(3000);
    c
}

/// Four packets offered at 0: 0 goes; its ACK at 100 ms (cwnd 2) sends 1 and 2 (the window
/// full at tick 1); the ACK of 2 at 200 ms (cwnd 3) sends 3, the last offered (W_used 1,
/// tick 2); the ACK of 3 at 300 ms acknowledges everything: the timer stops (cwnd 4).
fn four_acknowledged(rtt_counter: bool) -> Run {
    let mut r = Run::new(qcfg(rtt_counter));
    r.out.clear();
    r.s.produce(ms(0), 4, false, &mut r.out);
    assert_eq!(r.sent(), vec![0]);
    assert_eq!(r.ack(100, 0), vec![1, 2]);
    assert_eq!(r.ack(200, 2), vec![3]);
    assert_eq!(r.ack(300, 3), Vec::<i64>::new());
    assert_eq!(r.cwnd(), 4.0);
    assert_eq!(
        r.s.next_timer(),
        None,
        "QOption_: everything acknowledged, timer off"
    );
    r
}

/// Four more at 700 ms (tick 7): idle 7 − 2 = 5 ticks ≥ the RTO of 3: ssthresh stays 25
/// (not below 3·4/4), cwnd halved 5 / 3 = 1 time, to 2; packets 4 and 5 go. Without the
/// option the timer would have restarted the window at one packet at 600 ms.
#[test]
fn an_idle_rto_halves_the_window_at_the_next_send() {
    let mut r = four_acknowledged(false);
    r.out.clear();
    r.s.produce(ms(700), 4, true, &mut r.out);
    assert_eq!(r.sent(), vec![4, 5]);
    assert_eq!((r.cwnd(), r.ssthresh()), (2.0, 25.0));
}

/// At 2 s (tick 20): idle 18 ticks, six halvings from 4: 2, 1, 1, 1, 1, 1.
#[test]
fn a_long_idle_period_halves_once_per_rto_down_to_one() {
    let mut r = four_acknowledged(false);
    r.out.clear();
    r.s.produce(ms(2000), 4, true, &mut r.out);
    assert_eq!(r.sent(), vec![4]);
    assert_eq!((r.cwnd(), r.ssthresh()), (1.0, 25.0));
}

/// The RTT counter: packet 0 is timed at tick 0 and its ACK counts a round (RTT_count 1);
/// packet 1 starts the next timing (W_timed 1), counted by the ACK of 2. At 700 ms (tick 7),
/// srtt 1 tick: idle 7 − 2 = 5 ≥ 2 srtt, rounds 5·1 / 2 = 2 (RTT_goodcount 1, no backoffs):
/// 3/4 ssthresh (kept) and two halvings, 4 → 2 → 1: packet 4 alone goes.
#[test]
fn the_rtt_counter_cuts_once_per_estimated_round() {
    let mut r = four_acknowledged(true);
    r.out.clear();
    r.s.produce(ms(700), 4, true, &mut r.out);
    assert_eq!(r.sent(), vec![4]);
    assert_eq!((r.cwnd(), r.ssthresh()), (1.0, 25.0));
}

/// The cuts as ns-2's `slowdown` makes them (`decrease_num_` 0.5, no precision_reduce_).
#[test]
fn idle_cuts_follow_slowdown() {
    let d = |cwnd, ssthresh| WindowDecision {
        cwnd,
        ssthresh,
        retransmit: None,
    };
    // 3/4 of cwnd 20 is 15: an ssthresh of 4 rises to it, one of 25 stays.
    let t = idle_cut(
        IdleCut::ThreeQuarterSsthresh,
        d(20.0, 4.0),
        20,
        20.0,
        false,
        2.0,
    );
    assert_eq!((t.cwnd, t.ssthresh), (20.0, 15.0));
    let t = idle_cut(
        IdleCut::ThreeQuarterSsthresh,
        d(20.0, 25.0),
        20,
        20.0,
        false,
        2.0,
    );
    assert_eq!((t.cwnd, t.ssthresh), (20.0, 25.0));
    // Halving the integer window 7.5 → 7 gives 3; with precisionReduce_ 3.75; 1 stays 1.
    let t = idle_cut(IdleCut::HalfWithMin, d(7.5, 25.0), 7, 7.5, false, 2.0);
    assert_eq!(t.cwnd, 3.0);
    let t = idle_cut(IdleCut::HalfWithMin, d(7.5, 25.0), 7, 7.5, true, 2.0);
    assert_eq!(t.cwnd, 3.75);
    let t = idle_cut(IdleCut::HalfWithMin, d(1.0, 25.0), 1, 1.0, false, 2.0);
    assert_eq!(t.cwnd, 1.0);
    // Halfway down from window 20 to the 6 used: 6 + (20 − 6)/2 = 13; ssthresh floor 2.
    let t = idle_cut(IdleCut::HalfWay(6), d(20.0, 1.0), 20, 20.0, false, 2.0);
    assert_eq!((t.cwnd, t.ssthresh), (13.0, 2.0));
}

/// `control_increase_` without the option: a new ACK opens the window only when the sender
/// is past `prev_highest_ack + window()` (ns-2 `network_limited`), three packets offered.
#[test]
fn control_increase_opens_only_a_limiting_window() {
    let mut c = qcfg(false);
    c.qoption = false;
    c.control_increase = true;
    let mut r = Run::new(c);
    r.out.clear();
    r.s.produce(ms(0), 3, false, &mut r.out);
    assert_eq!(r.sent(), vec![0]);
    // t_seqno 1 > −1 + 1: network-limited, cwnd 1 → 2; 1 and 2 go.
    assert_eq!(r.ack(100, 0), vec![1, 2]);
    assert_eq!(r.cwnd(), 2.0);
    // The ACK of 1: t_seqno 3, prev_highest_ack 0, window 2: 3 > 2, opens to 3.
    assert_eq!(r.ack(150, 1), Vec::<i64>::new());
    assert_eq!(r.cwnd(), 3.0);
    // The ACK of 2: t_seqno 3 is not past 1 + 3: application-limited, cwnd stays 3.
    assert_eq!(r.ack(200, 2), Vec::<i64>::new());
    assert_eq!(r.cwnd(), 3.0);
}
