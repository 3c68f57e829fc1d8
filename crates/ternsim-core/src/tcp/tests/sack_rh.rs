//! ns-2 `Agent/TCP/SackRH` (SACK with Rate-Halving, `tcp-sack-rh.cc`): exact and estimated
//! adjustment intervals, their bounds, and the undo on reordering. Every number is worked by
//! hand from the rules in `recovery::sack_rh` (draft sections 7.2-7.14).

use super::*;
use crate::tcp::recovery::sack_rh::RhState;
use crate::tcp::recovery::Recovery;

const NONE: Vec<Seq> = Vec::new();

/// CA with cwnd = ssthresh = 10, `window_` 100: 21..30 sent at 0 (while
/// `int(cwnd) >= t_seqno - fack + retran_data`, fack 20).
fn ca10() -> Run {
    let mut c = cfg(TcpVariant::SackRh);
    c.window = 100;
    let r = Run::at_state(c, 20, 10.0, 10.0, 0);
    assert_eq!(r.sent(), seqs(21..=30));
    r
}

/// (state, fack, retran_data, prior_cwnd).
fn rh(r: &Run) -> (RhState, Seq, i64, f64) {
    match r.s.recovery() {
        Recovery::SackRh(s) => (s.state(), s.fack(), s.retran_data(), s.prior_cwnd()),
        _ => panic!("not SackRH"),
    }
}

/// Packet 21 lost, SACK receiver. The first SACK reports a new hole: an exact interval
/// starts (prior cwnd 10, prior_max_seq 31) and cwnd loses half of fack's advance (2) and of
/// the new hole (1): 8.5. Then half a packet per ACK (fack +1 each), one packet out for every
/// two; 21 is due once three ACKs reported it and goes when the window allows (fack 25,
/// cwnd 7). The SACK of 31 (sent at the interval's start) ends it: cwnd 4.5 is below half of
/// 10, ssthresh int(4.5) = 4; then the window opens again (4.5 + 1/4.5).
#[test]
fn exact_interval_halves_the_rate_then_bounds_the_window() {
    let mut r = ca10();
    assert_eq!(r.ack_sack(100, 20, &[(22, 23)]), NONE);
    assert_eq!(rh(&r), (RhState::Exact, 22, 0, 10.0));
    assert_eq!(r.cwnd(), 8.5);
    assert_eq!(r.ack_sack(110, 20, &[(22, 24)]), vec![31]);
    assert_eq!((rh(&r).1, r.cwnd()), (23, 8.0));
    assert_eq!(r.ack_sack(120, 20, &[(22, 25)]), NONE);
    assert_eq!((rh(&r).1, r.cwnd()), (24, 7.5));
    assert_eq!(r.ack_sack(130, 20, &[(22, 26)]), vec![21]);
    assert_eq!(rh(&r), (RhState::Exact, 25, 1, 10.0));
    assert_eq!(r.cwnd(), 7.0);
    assert!(r.out.segments[0].retransmission);
    assert_eq!(r.ack_sack(140, 20, &[(22, 27)]), NONE);
    assert_eq!(r.cwnd(), 6.5);
    assert_eq!(r.ack_sack(150, 20, &[(22, 28)]), vec![32]);
    assert_eq!(r.ack_sack(160, 20, &[(22, 29)]), NONE);
    assert_eq!(r.ack_sack(170, 20, &[(22, 30)]), vec![33]);
    assert_eq!(r.ack_sack(180, 20, &[(22, 31)]), NONE);
    assert_eq!(r.cwnd(), 4.5);
    // 31 SACKed: fack reaches prior_max_seq 31.
    assert_eq!(r.ack_sack(190, 20, &[(22, 32)]), vec![34]);
    assert_eq!(rh(&r), (RhState::Incr, 31, 1, 0.0));
    assert_eq!(r.ssthresh(), 4.0);
    assert!(close(r.cwnd(), 4.5 + 1.0 / 4.5));
    // The resent 21 arrives: ACK 31 takes it out of the network.
    assert_eq!(r.ack(200, 31), vec![35]);
    assert_eq!(rh(&r), (RhState::Incr, 31, 0, 0.0));
    let c = 4.5 + 1.0 / 4.5;
    assert!(close(r.cwnd(), c + 1.0 / c));
}

/// Duplicates without SACK blocks: an estimated interval (fack = last_ack + dupacks + 1),
/// half a packet per ACK; the third duplicate marks `last_ack + 1` as a hole, resent when the
/// window allows (4th duplicate). At cwnd 5 (half of 10) the estimate stops cutting
/// (`EstRepair`) and the window's packets go as the duplicates advance fack. ACK 32 ends the interval: cwnd (10 - 1 retransmission) / 2 = 4.5,
/// ssthresh 4.
#[test]
fn estimated_interval_from_plain_duplicates() {
    let mut r = ca10();
    assert_eq!(r.ack(100, 20), NONE);
    assert_eq!(rh(&r), (RhState::Est, 20, 0, 10.0));
    assert_eq!(r.cwnd(), 9.5);
    assert_eq!(r.ack(110, 20), vec![31, 32]);
    assert_eq!((rh(&r).1, r.cwnd()), (23, 9.0));
    assert_eq!(r.ack(120, 20), NONE);
    assert_eq!((rh(&r).1, r.cwnd()), (24, 8.5));
    assert_eq!(r.ack(130, 20), vec![21]);
    assert_eq!(rh(&r), (RhState::Est, 25, 1, 10.0));
    assert_eq!(r.ack(140, 20), NONE);
    assert_eq!(r.ack(150, 20), vec![33]);
    assert_eq!(r.ack(160, 20), NONE);
    assert_eq!(r.ack(170, 20), vec![34]);
    assert_eq!(r.ack(180, 20), NONE);
    assert_eq!(r.ack(190, 20), vec![35]);
    assert_eq!((rh(&r).0, r.cwnd()), (RhState::Est, 5.0));
    assert_eq!(r.ack(200, 20), vec![36]);
    assert_eq!((rh(&r).0, r.cwnd()), (RhState::EstRepair, 5.0));
    // int(4.72) < t_seqno 37 - fack 32: nothing more yet.
    assert_eq!(r.ack(210, 32), NONE);
    assert_eq!(rh(&r), (RhState::Incr, 32, 0, 0.0));
    assert_eq!(r.ssthresh(), 4.0);
    assert!(close(r.cwnd(), 4.5 + 1.0 / 4.5));
}

/// Reordering (7.8): one SACK starts an exact interval (cwnd 8.5), then the ACK of 22 without
/// blocks shows 21 was only late: no retransmission happened, so cwnd returns to 10 and opens
/// (10 + 1/10), and 31, 32 go.
#[test]
fn reordering_undoes_the_interval() {
    let mut r = ca10();
    assert_eq!(r.ack_sack(100, 20, &[(22, 23)]), NONE);
    assert_eq!(r.cwnd(), 8.5);
    assert_eq!(r.ack(110, 22), vec![31, 32]);
    assert_eq!(rh(&r), (RhState::Incr, 22, 0, 0.0));
    assert!(close(r.cwnd(), 10.1));
    assert_eq!(r.ssthresh(), 10.0);
}
