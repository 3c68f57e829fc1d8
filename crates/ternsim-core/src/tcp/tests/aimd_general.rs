//! ns-2's general AIMD and binomial controls (`TcpAgent::opencwnd` with `increase_num_` and
//! `windowOption_` 6, `TcpAgent::slowdown` with `decrease_num_`, `k_parameter_` and
//! `l_parameter_`): the first cut, a cut in slow start and a timeout's ssthresh halve; a
//! later cut leaves `decrease_num_` of the window (binomial: takes (1 - decrease_num_) * W^l
//! off it), ssthresh its integer part.

use super::*;
use crate::tcp::config::WindowOption;

/// Three duplicate ACKs of `k` at `t_ms`; what the third sent.
fn three_dups(r: &mut Run, t_ms: u64, k: Seq) -> Vec<Seq> {
    r.ack(t_ms, k);
    r.ack(t_ms + 1, k);
    r.ack(t_ms + 2, k)
}

/// Binomial increase (`windowOption_` 6): cwnd += increase_num / (cwnd * cwnd^k) per new
/// ACK in congestion avoidance; slow start still adds 1.
#[test]
fn binomial_increase_divides_by_cwnd_to_the_k_plus_one() {
    let mut c = cfg(TcpVariant::Reno);
    c.window_option = WindowOption::Binomial { k: 1.0, l: 0.0 };
    // IIAD (k = 1): 4 + 1 / (4 * 4) = 4.0625, then + 1 / 4.0625².
    let mut r = Run::at_state(c, 20, 4.0, 4.0, 0);
    r.ack(100, 21);
    assert_eq!(r.cwnd(), 4.0625);
    r.ack(110, 22);
    assert_eq!(r.cwnd(), 4.0625 + 1.0 / (4.0625 * 4.0625));
    // SQRT (k = 0.5) with increase_num 0.41: 4 + 0.41 / (4 * 2) = 4.05125.
    c.window_option = WindowOption::Binomial { k: 0.5, l: 0.5 };
    c.increase_num = 0.41;
    let mut r = Run::at_state(c, 20, 4.0, 4.0, 0);
    r.ack(100, 21);
    assert_eq!(r.cwnd(), 4.05125);
    // Below ssthresh: slow start, +1 whatever k.
    let mut r = Run::at_state(c, 20, 2.0, 4.0, 0);
    r.ack(100, 21);
    assert_eq!(r.cwnd(), 3.0);
}

/// Tahoe with `decrease_num_` 0.75 and `precisionReduce_` false: the first fast retransmit
/// halves (ssthresh floor(8 / 2) = 4); the second, out of slow start, sets ssthresh to
/// (int)(0.75 * window()) = (int)(0.75 * 4) = 3 where the default 0.5 gives 2. cwnd goes to
/// one both times.
#[test]
fn decrease_num_cuts_ssthresh_from_the_second_loss() {
    for (decrease_num, second_ssthresh) in [(0.75, 3.0), (0.5, 2.0)] {
        let mut c = cfg(TcpVariant::Tahoe);
        c.precision_reduce = false;
        c.decrease_num = decrease_num;
        let mut r = Run::at_state(c, 20, 8.0, 4.0, 0);
        assert_eq!(r.sent(), seqs(21..=28));
        // First cut: window() 8, ssthresh 4, cwnd 1; go-back-N resends 21.
        assert_eq!(three_dups(&mut r, 100, 20), vec![21]);
        assert_eq!((r.cwnd(), r.ssthresh()), (1.0, 4.0));
        // Everything acknowledged; slow start to 4, then 4 + 1/4 = 4.25, 4.25 + 1/4.25.
        assert_eq!(r.ack(200, 28), vec![29, 30]);
        assert_eq!(r.ack(210, 29), vec![31, 32]);
        assert_eq!(r.ack(220, 30), vec![33, 34]);
        assert_eq!(r.cwnd(), 4.0);
        assert_eq!(r.ack(230, 31), vec![35]);
        assert_eq!(r.cwnd(), 4.25);
        assert_eq!(r.ack(240, 32), vec![36]);
        assert_eq!(r.cwnd(), 4.25 + 1.0 / 4.25);
        // Second cut (32 > recover 28): window() = floor(4.485) = 4.
        assert_eq!(three_dups(&mut r, 300, 32), vec![33]);
        assert_eq!((r.cwnd(), r.ssthresh()), (1.0, second_ssthresh));
    }
}

/// Reno with `decrease_num_` 0.75 and `precisionReduce_` true: the first fast retransmit
/// halves cwnd (8 → 4); the second leaves 0.75 * windowd() of a window of 4.25 + 1/4.25
/// (cwnd and ssthresh its integer part, 3). A timeout then halves again: ssthresh
/// (int)(windowd() / 2), not (int)(0.75 * windowd()), and cwnd 1.
#[test]
fn decrease_num_cuts_cwnd_from_the_second_loss_and_a_timeout_halves() {
    let mut c = cfg(TcpVariant::Reno);
    c.decrease_num = 0.75;
    c.limited_transmit = false;
    let mut r = Run::at_state(c, 20, 8.0, 4.0, 0);
    assert_eq!(r.sent(), seqs(21..=28));
    assert_eq!(three_dups(&mut r, 100, 20), vec![21]);
    assert_eq!((r.cwnd(), r.ssthresh()), (4.0, 4.0));
    // The full ACK ends recovery (no inflation left) and opens the window: 4 + 1/4.
    assert_eq!(r.ack(200, 28), seqs(29..=32));
    assert_eq!(r.cwnd(), 4.25);
    assert_eq!(r.ack(210, 29), vec![33]);
    let w = 4.25 + 1.0 / 4.25;
    assert_eq!(r.cwnd(), w);
    // Second cut: cwnd 0.75 * w = 3.3639..., ssthresh 3.
    // Reno resends 30 and the inflated window (floor(3.36) + 3 above 29) lets 34, 35 out.
    assert_eq!(three_dups(&mut r, 300, 29), vec![30, 34, 35]);
    assert_eq!(r.cwnd(), 0.75 * w);
    assert_eq!(r.ssthresh(), 3.0);
    // The timeout (Reno clears the inflation first): windowd() = 0.75 * w, halved 1.68 →
    // ssthresh max(2, 1) = 2 (0.75 * windowd() would also floor to 2: compare the cwnd).
    assert_eq!(r.fire(), vec![30]);
    assert_eq!((r.cwnd(), r.ssthresh()), (1.0, 2.0));
}

/// A timeout's ssthresh is half the window even after the first cut (ns-2 sets
/// `last_cwnd_action_` TIMEOUT before its `slowdown`).
#[test]
fn timeout_halves_even_after_the_first_cut() {
    let mut c = cfg(TcpVariant::Reno);
    c.decrease_num = 0.75;
    c.precision_reduce = false;
    let mut r = Run::at_state(c, 20, 8.0, 4.0, 0);
    // First cut by three duplicates: halves, ssthresh 4, cwnd 4.
    three_dups(&mut r, 100, 20);
    assert_eq!((r.cwnd(), r.ssthresh()), (4.0, 4.0));
    // Timeout: the inflation cleared, window() 4, halved: ssthresh 2 (0.75 would give 3).
    assert_eq!(r.fire(), vec![21]);
    assert_eq!((r.cwnd(), r.ssthresh()), (1.0, 2.0));
}

/// Binomial decrease (`windowOption_` 6, `l_parameter_` 0.5, `decrease_num_` 0.33,
/// precisionReduce_): the second cut leaves W - 0.67 * sqrt(W); with `decrease_num_` 0.5
/// ns-2 still halves cwnd (its `decrease_num_ == 0.5` test) while ssthresh takes the
/// binomial cut.
#[test]
fn binomial_decrease_takes_w_to_the_l_off_the_window() {
    for decrease_num in [0.33, 0.5] {
        let mut c = cfg(TcpVariant::Reno);
        c.window_option = WindowOption::Binomial { k: 0.5, l: 0.5 };
        c.decrease_num = decrease_num;
        c.limited_transmit = false;
        let mut r = Run::at_state(c, 20, 8.0, 4.0, 0);
        // First cut halves: cwnd 4, ssthresh 4.
        three_dups(&mut r, 100, 20);
        assert_eq!((r.cwnd(), r.ssthresh()), (4.0, 4.0));
        // 4 + 1 / (4 * sqrt(4)) = 4.125, then + 1 / (4.125 * sqrt(4.125)).
        assert_eq!(r.ack(200, 28), seqs(29..=32));
        assert_eq!(r.cwnd(), 4.125);
        r.ack(210, 29);
        let w = 4.125 + 1.0 / (4.125 * 4.125f64.sqrt());
        assert_eq!(r.cwnd(), w);
        three_dups(&mut r, 300, 29);
        let binomial = w - (1.0 - decrease_num) * w.sqrt();
        let cwnd = if decrease_num == 0.5 {
            w / 2.0
        } else {
            binomial
        };
        assert_eq!(r.cwnd(), cwnd);
        // ssthresh: (int) of the binomial cut, at least 2 (2.76 → 2 for 0.33; 3.06 → 3).
        assert_eq!(r.ssthresh(), binomial.trunc().max(2.0));
    }
}

/// A cut in slow start halves whatever `decrease_num_` (ns-2's `slowstart`), also after the
/// first cut: Tahoe, `decrease_num_` 0.75, precisionReduce_ false.
#[test]
fn cut_in_slow_start_halves() {
    let mut c = cfg(TcpVariant::Tahoe);
    c.decrease_num = 0.75;
    c.precision_reduce = false;
    c.limited_transmit = false;
    let mut r = Run::at_state(c, 20, 16.0, 20.0, 0);
    assert_eq!(r.sent(), seqs(21..=36));
    // First cut: ssthresh 16 / 2 = 8, cwnd 1, go-back-N from 21.
    assert_eq!(three_dups(&mut r, 100, 20), vec![21]);
    assert_eq!((r.cwnd(), r.ssthresh()), (1.0, 8.0));
    // Slow start again: each new ACK adds 1 (cwnd 6 after ACKs 36..40).
    assert_eq!(r.ack(200, 36), vec![37, 38]);
    assert_eq!(r.ack(210, 37), vec![39, 40]);
    assert_eq!(r.ack(220, 38), vec![41, 42]);
    assert_eq!(r.ack(230, 39), vec![43, 44]);
    assert_eq!(r.ack(240, 40), vec![45, 46]);
    assert_eq!((r.cwnd(), r.ssthresh()), (6.0, 8.0));
    // Second cut, in slow start: ssthresh (int)(6 / 2) = 3, not (int)(0.75 * 6) = 4.
    assert_eq!(three_dups(&mut r, 300, 40), vec![41]);
    assert_eq!((r.cwnd(), r.ssthresh()), (1.0, 3.0));
}
