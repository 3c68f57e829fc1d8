//! ns-2 `Agent/TCP/Fack` (Mathis and Mahdavi, SIGCOMM 1996; `tcp-fack.cc`): the forward ACK,
//! `retran_data`, the restart at one packet, the lost retransmission, rampdown and
//! `ss-div4_`. Every number is worked by hand from the rules in `recovery::fack`.

use super::*;
use crate::tcp::recovery::Recovery;

const NONE: Vec<Seq> = Vec::new();

/// CA with cwnd = ssthresh = 10, `window_` 100, 21..30 outstanding (sent at 0 because
/// `t_seqno <= fack + win - retran_data` = 20 + 10 - 0).
fn ca10(rampdown: bool, ss_div4: bool) -> Run {
    let mut c = cfg(TcpVariant::Fack);
    c.window = 100;
    c.fack_rampdown = rampdown;
    c.fack_ss_div4 = ss_div4;
    let r = Run::at_state(c, 20, 10.0, 10.0, 0);
    assert_eq!(r.sent(), seqs(21..=30));
    r
}

/// (in recovery, fack, retran_data, wintrim).
fn fack(r: &Run) -> (bool, Seq, i64, f64) {
    match r.s.recovery() {
        Recovery::Fack(f) => (f.in_recovery(), f.fack(), f.retran_data(), f.wintrim()),
        _ => panic!("not Fack"),
    }
}

/// Packet 21 lost. Recovery starts when `fack - last_ack - 1` reaches 3 (the SACK of 24):
/// `recover = t_seqno` 31, ssthresh 10/2 = 5, cwnd restarts at 1, 21 resent
/// (`retran_data` 1). Each ACK in recovery opens cwnd (slow start to 5, then 1/cwnd) and
/// advances `fack`; new data goes while `t_seqno <= fack + int(cwnd) - retran_data`. The ACK
/// of 30 (the resent 21 arrived) acknowledges the retransmission (`retran_data` 0) but is
/// below `recover`; the ACK of 31 without blocks ends recovery.
#[test]
fn one_loss_restarts_at_one_and_sends_by_the_forward_ack() {
    let mut r = ca10(false, false);
    assert_eq!(r.ack_sack(100, 20, &[(22, 23)]), NONE);
    assert_eq!(fack(&r), (false, 22, 0, 0.0));
    assert_eq!(r.ack_sack(110, 20, &[(22, 24)]), NONE);
    assert_eq!(fack(&r), (false, 23, 0, 0.0));
    assert_eq!(r.ack_sack(120, 20, &[(22, 25)]), vec![21]);
    assert_eq!(fack(&r), (true, 24, 1, 0.0));
    assert_eq!((r.cwnd(), r.ssthresh()), (1.0, 5.0));
    assert_eq!(r.s.conn().recover(), 31);
    assert!(r.out.segments[0].retransmission);
    // Slow start back to ssthresh, one per ACK: 31 <= fack + cwnd - 1 first at fack 28.
    for (t, right, cwnd) in [(130, 26, 2.0), (140, 27, 3.0), (150, 28, 4.0)] {
        assert_eq!(r.ack_sack(t, 20, &[(22, right)]), NONE);
        assert_eq!(r.cwnd(), cwnd);
        assert_eq!(fack(&r), (true, right - 1, 1, 0.0));
    }
    assert_eq!(r.ack_sack(160, 20, &[(22, 29)]), vec![31, 32]);
    assert_eq!((r.cwnd(), fack(&r).1), (5.0, 28));
    assert_eq!(r.ack_sack(170, 20, &[(22, 30)]), vec![33]);
    assert_eq!(r.cwnd(), 5.2);
    assert_eq!(r.ack_sack(180, 20, &[(22, 31)]), vec![34]);
    assert!(close(r.cwnd(), 5.392307692307693));
    // 21 arrived: ACK 30 takes the retransmission out; 30 < recover 31, still recovering.
    assert_eq!(r.ack(190, 30), vec![35]);
    assert_eq!(fack(&r), (true, 30, 0, 0.0));
    assert!(close(r.cwnd(), 5.577757050367607));
    // ACK 31 without blocks, at recover: recovery over.
    assert_eq!(r.ack(200, 31), vec![36]);
    assert_eq!(fack(&r), (false, 31, 0, 0.0));
    assert!(close(r.cwnd(), 5.757040585123589));
    assert_eq!(r.ssthresh(), 5.0);
    let st = r.s.stats();
    assert_eq!(
        (st.fast_retransmits, st.retransmissions, st.timeouts),
        (1, 1, 0)
    );
}

/// The resent 21 is lost too: a SACK block reaching 32 (packet 31, sent after the
/// retransmission at `t_seqno` 31) declares it lost again, and nothing more is sent until the
/// timer expires. The timeout clears the board and `retran_data`, halves ssthresh from the
/// window (cwnd 5.58: 2), restarts at 1 from `last_ack + 1`, and stays in recovery.
#[test]
fn a_lost_retransmission_stops_sending_until_the_timeout() {
    let mut r = ca10(false, false);
    r.ack_sack(100, 20, &[(22, 23)]);
    r.ack_sack(110, 20, &[(22, 24)]);
    assert_eq!(r.ack_sack(120, 20, &[(22, 25)]), vec![21]);
    for right in 26..=29 {
        r.ack_sack(130 + 10 * (right as u64 - 26), 20, &[(22, right)]);
    }
    assert_eq!(r.s.conn().t_seqno(), 33, "31 and 32 sent at fack 28");
    // 31 arrived but not 21: block [22, 32) reaches past 21's snd_nxt 31.
    assert_eq!(r.ack_sack(300, 20, &[(22, 30)]), vec![33]);
    assert_eq!(r.ack_sack(310, 20, &[(22, 32)]), NONE);
    assert_eq!(fack(&r), (true, 31, 1, 0.0));
    assert_eq!(r.ack_sack(320, 20, &[(22, 33)]), NONE, "sending stopped");
    let cwnd = r.cwnd();
    assert!(close(cwnd, 5.577757050367607));
    assert_eq!(r.fire(), vec![21]);
    assert_eq!(fack(&r), (true, 20, 0, 0.0));
    assert_eq!((r.cwnd(), r.ssthresh()), (1.0, 2.0));
    assert_eq!(r.s.conn().t_seqno(), 22);
    assert_eq!(r.s.stats().timeouts, 1);
}

/// Rampdown (`rampdown_`): at the loss the window gets a trim of half the data outstanding
/// beyond `fack` (t_seqno 31 - fack 24 - 1 = 6, so 3), which each advance of `fack` takes back
/// by half a packet: 31 goes at fack 27 (window int(4 + 1.5) = 5) instead of 28.
#[test]
fn rampdown_trims_the_window_down_as_fack_advances() {
    let mut r = ca10(true, false);
    r.ack_sack(100, 20, &[(22, 23)]);
    r.ack_sack(110, 20, &[(22, 24)]);
    assert_eq!(r.ack_sack(120, 20, &[(22, 25)]), vec![21]);
    assert_eq!(fack(&r), (true, 24, 1, 3.0));
    assert_eq!(r.ack_sack(130, 20, &[(22, 26)]), NONE);
    assert_eq!(fack(&r), (true, 25, 1, 2.5));
    assert_eq!(r.ack_sack(140, 20, &[(22, 27)]), NONE);
    assert_eq!(fack(&r), (true, 26, 1, 2.0));
    assert_eq!(r.ack_sack(150, 20, &[(22, 28)]), vec![31]);
    assert_eq!((fack(&r), r.cwnd()), ((true, 27, 1, 1.5), 4.0));
    // cwnd 5, trim 1: window 6, so up to fack 28 + 6 - 1 = 33.
    assert_eq!(r.ack_sack(160, 20, &[(22, 29)]), vec![32, 33]);
    assert_eq!(fack(&r), (true, 28, 1, 1.0));
}

/// `ss-div4_`: a loss with cwnd at most ssthresh + 1/2 (10 <= 10.5) halves cwnd first (5), so
/// ssthresh is 5/2 floored, raised to 2; the trim factor is three quarters (6 * 0.75).
#[test]
fn ss_div4_halves_before_the_reduction() {
    let mut r = ca10(true, true);
    r.ack_sack(100, 20, &[(22, 23)]);
    r.ack_sack(110, 20, &[(22, 24)]);
    assert_eq!(r.ack_sack(120, 20, &[(22, 25)]), vec![21]);
    assert_eq!((r.cwnd(), r.ssthresh()), (1.0, 2.0));
    assert_eq!(fack(&r), (true, 24, 1, 4.5));
    // fack 25: trim 4.5 - 0.75.
    r.ack_sack(130, 20, &[(22, 26)]);
    assert_eq!(fack(&r), (true, 25, 1, 3.75));
}
