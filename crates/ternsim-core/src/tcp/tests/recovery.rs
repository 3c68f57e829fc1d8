//! Loss recovery: tcp-spec §12 T7 for each variant, single losses with inflation and
//! deflation, and multi-loss windows (tcp-spec §4-§7).

use super::*;
use crate::tcp::output::TcpEvent;
use crate::tcp::recovery::Recovery;

const NONE: Vec<Seq> = Vec::new();

/// T7 start: CA, cwnd 10, ssthresh 5, window_ large, highest_ack 20, 21..30 outstanding.
fn t7(variant: TcpVariant) -> Run {
    let mut c = cfg(variant);
    c.window = 100;
    let r = Run::at_state(c, 20, 10.0, 5.0, 0);
    assert_eq!(r.sent(), seqs(21..=30));
    r
}

/// Single-loss start: CA with cwnd = ssthresh = 10, 21..30 outstanding.
fn ca10(variant: TcpVariant) -> Run {
    let mut c = cfg(variant);
    c.window = 100;
    Run::at_state(c, 20, 10.0, 10.0, 0)
}

fn dupwnd(r: &Run) -> i64 {
    r.s.conn().dupwnd()
}

fn sack1(r: &Run) -> (bool, i64) {
    match r.s.recovery() {
        Recovery::Sack1(s) => (s.in_recovery(), s.pipe()),
        _ => panic!("not Sack1"),
    }
}

/// T7 NewReno: partial-ACK arithmetic on dupwnd_ and at most 2 packets per ACK.
#[test]
fn t7_newreno() {
    let mut r = t7(TcpVariant::NewReno);
    // Dups for 22, 23: Limited Transmit.
    assert_eq!(r.ack(100, 20), vec![31]);
    assert_eq!(r.ack(110, 20), vec![32]);
    assert_eq!(r.cwnd(), 10.0);
    // Dup for 24: recover 32, ssthresh 5, cwnd 5.0, dupwnd 3, resend 21.
    assert_eq!(r.ack(120, 20), vec![21]);
    assert_eq!((r.cwnd(), r.ssthresh(), dupwnd(&r)), (5.0, 5.0, 3));
    assert_eq!(r.s.conn().recover(), 32);
    assert_eq!(
        r.s.next_timer(),
        Some(ms(120 + 3_000)),
        "restarted, no backoff"
    );
    // Dups for 26..29 inflate without sending; 30, 31, 32 send 33, 34, 35.
    for (t, d) in [(130, 4), (140, 5), (150, 6), (160, 7)] {
        assert_eq!(r.ack(t, 20), NONE);
        assert_eq!(dupwnd(&r), d);
    }
    assert_eq!(r.ack(170, 20), vec![33]);
    assert_eq!(r.ack(180, 20), vec![34]);
    assert_eq!(r.ack(190, 20), vec![35]);
    assert_eq!(dupwnd(&r), 10);
    // ACK 24, partial (k = 4): dupwnd 10 − 3 = 7, resend 25, send 36.
    assert_eq!(r.ack(200, 24), vec![25, 36]);
    assert_eq!((r.cwnd(), dupwnd(&r), r.s.highest_ack()), (5.0, 7, 24));
    assert!(r.out.segments[0].retransmission && !r.out.segments[1].retransmission);
    assert_eq!(
        r.s.next_timer(),
        Some(ms(200 + 3_000)),
        "first partial ACK restarts"
    );
    // Dups for 33..35: dupwnd 8, 9, 10, sending 37, 38, 39.
    assert_eq!(r.ack(210, 24), vec![37]);
    assert_eq!(r.ack(220, 24), vec![38]);
    assert_eq!(r.ack(230, 24), vec![39]);
    assert_eq!(dupwnd(&r), 10);
    // ACK 35 (full): dupwnd 0, cwnd 5 + 1/5, send 40.
    assert_eq!(r.ack(240, 35), vec![40]);
    assert_eq!((r.cwnd(), r.ssthresh(), dupwnd(&r)), (5.2, 5.0, 0));
    let st = r.s.stats();
    assert_eq!(
        (st.fast_retransmits, st.retransmissions, st.timeouts),
        (1, 2, 0)
    );
}

/// T7 Reno: ACK 24 ends recovery; the second fast retransmit is refused; the RTO ends it.
#[test]
fn t7_reno_refused_second_fast_retransmit_ends_in_rto() {
    let mut r = t7(TcpVariant::Reno);
    assert_eq!(r.ack(100, 20), vec![31]);
    assert_eq!(r.ack(110, 20), vec![32]);
    assert_eq!(r.ack(120, 20), vec![21]);
    assert_eq!((r.cwnd(), r.ssthresh(), dupwnd(&r)), (5.0, 5.0, 3));
    // The trace sees the inflation, as the paper plots of Reno's window do.
    assert_eq!(
        r.out.events.last(),
        Some(&TcpEvent::Window {
            cwnd: 5.0,
            ssthresh: 5.0,
            dupwnd: 3
        })
    );
    for t in [130, 140, 150, 160] {
        assert_eq!(r.ack(t, 20), NONE);
    }
    assert_eq!(r.ack(170, 20), vec![33]);
    assert_eq!(r.ack(180, 20), vec![34]);
    assert_eq!(r.ack(190, 20), vec![35]);
    // ACK 24: any new ACK ends Reno recovery: cwnd 5.2, usable 5, nothing sent.
    assert_eq!(r.ack(200, 24), NONE);
    assert_eq!((r.cwnd(), dupwnd(&r)), (5.2, 0));
    // Dups for 33..35: no Limited Transmit room (36 > 24 + 5.2 + 1), and the 3rd is refused.
    for t in [210, 220, 230] {
        assert_eq!(r.ack(t, 24), NONE);
    }
    assert_eq!(r.s.stats().fast_retransmits, 1);
    assert_eq!(dupwnd(&r), 0);
    // RTO (3 s after ACK 24): ssthresh max(2, floor(5.2/2)) = 2, cwnd 1, resend from 25.
    assert_eq!(r.s.next_timer(), Some(ms(3_200)));
    assert_eq!(r.fire(), vec![25]);
    assert_eq!((r.cwnd(), r.ssthresh()), (1.0, 2.0));
    assert_eq!(r.s.next_timer(), Some(ms(3_200 + 6_000)));
    assert_eq!(r.s.stats().timeouts, 1);
}

/// T7 Tahoe: cwnd 1 at the 3rd dup, later dups send nothing, ACK 24 → cwnd 2 and go-back-N
/// resends 25 and 26.
#[test]
fn t7_tahoe() {
    let mut r = t7(TcpVariant::Tahoe);
    assert_eq!(r.ack(100, 20), vec![31]);
    assert_eq!(r.ack(110, 20), vec![32]);
    assert_eq!(r.ack(120, 20), vec![21]);
    assert_eq!((r.cwnd(), r.ssthresh()), (1.0, 5.0));
    for t in [130, 140, 150, 160, 170, 180, 190] {
        assert_eq!(r.ack(t, 20), NONE);
    }
    assert_eq!(r.ack(200, 24), vec![25, 26]);
    assert_eq!(r.cwnd(), 2.0);
    assert!(r.out.segments.iter().all(|d| d.retransmission));
}

/// T7 Sack1 with a SACK receiver: pipe 9 at the 3rd dup; pipe −1 per ACK; 25 resent on the
/// dup for 30, new 33, 34 on the dups for 31, 32. Continued: partial ACK 24 takes two out of
/// the pipe; the exit ACK leaves cwnd at 5.
#[test]
fn t7_sack1_pipe_counter() {
    let mut r = t7(TcpVariant::Sack);
    assert_eq!(r.ack_sack(100, 20, &[(22, 23)]), vec![31]);
    assert_eq!(r.ack_sack(110, 20, &[(22, 24)]), vec![32]);
    assert_eq!(r.ack_sack(120, 20, &[(22, 25)]), vec![21]);
    assert_eq!((r.cwnd(), r.ssthresh()), (5.0, 5.0));
    assert_eq!(sack1(&r), (true, 9));
    for (t, right, pipe) in [(130, 27, 8), (140, 28, 7), (150, 29, 6), (160, 30, 5)] {
        assert_eq!(r.ack_sack(t, 20, &[(26, right), (22, 25)]), NONE);
        assert_eq!(sack1(&r), (true, pipe));
    }
    assert_eq!(r.ack_sack(170, 20, &[(26, 31), (22, 25)]), vec![25]);
    assert_eq!(sack1(&r), (true, 5));
    assert_eq!(r.ack_sack(180, 20, &[(26, 32), (22, 25)]), vec![33]);
    assert_eq!(r.ack_sack(190, 20, &[(26, 33), (22, 25)]), vec![34]);
    assert_eq!(sack1(&r), (true, 5));
    // 21 arrives: partial ACK 24: pipe 5 − 2 = 3 → two new packets.
    assert_eq!(r.ack_sack(200, 24, &[(26, 33)]), vec![35, 36]);
    assert_eq!(sack1(&r), (true, 5));
    assert_eq!(r.s.highest_ack(), 24);
    assert_eq!(r.s.next_timer(), Some(ms(200 + 3_000)));
    // 25 arrives: ACK 32 >= recover: recovery ends, cwnd stays 5, send 37.
    assert_eq!(r.ack(210, 32), vec![37]);
    assert!(!sack1(&r).0);
    assert_eq!((r.cwnd(), r.ssthresh()), (5.0, 5.0));
    let st = r.s.stats();
    assert_eq!(
        (st.fast_retransmits, st.retransmissions, st.timeouts),
        (1, 2, 0)
    );
}

/// T7 Sack1 as above with `partial_ack_`: the partial ACK 24 at 200 ms takes one packet out
/// of the pipe (5 − 1 = 4) and sends the next two packets not SACKed from 25 (25 itself; 26
/// lies in the SACKed 26..33, so 33), puts one back (pipe 5), and, being the first partial
/// ACK, restarts the timer with backoff 1; pipe 5 is not below cwnd 5: nothing more. The
/// exit ACK 32 then sends 35, 36, 37 (t_seqno 35, window 32 + 5).
#[test]
fn t7_sack1_partial_ack_sends_the_next_two_unsacked() {
    let mut c = cfg(TcpVariant::Sack);
    c.window = 100;
    c.partial_ack = true;
    let mut r = Run::at_state(c, 20, 10.0, 5.0, 0);
    assert_eq!(r.sent(), seqs(21..=30));
    assert_eq!(r.ack_sack(100, 20, &[(22, 23)]), vec![31]);
    assert_eq!(r.ack_sack(110, 20, &[(22, 24)]), vec![32]);
    assert_eq!(r.ack_sack(120, 20, &[(22, 25)]), vec![21]);
    for (t, right) in [(130, 27), (140, 28), (150, 29), (160, 30)] {
        assert_eq!(r.ack_sack(t, 20, &[(26, right), (22, 25)]), NONE);
    }
    assert_eq!(r.ack_sack(170, 20, &[(26, 31), (22, 25)]), vec![25]);
    assert_eq!(r.ack_sack(180, 20, &[(26, 32), (22, 25)]), vec![33]);
    assert_eq!(r.ack_sack(190, 20, &[(26, 33), (22, 25)]), vec![34]);
    assert_eq!(sack1(&r), (true, 5));
    assert_eq!(r.ack_sack(200, 24, &[(26, 33)]), vec![25, 33]);
    assert_eq!(sack1(&r), (true, 5));
    assert_eq!(r.s.next_timer(), Some(ms(200 + 3_000)));
    assert_eq!(r.ack(210, 32), vec![35, 36, 37]);
    assert!(!sack1(&r).0);
}

/// Reno single loss: inflation by one per dup (new packets once dupwnd opens the window),
/// deflation to the halved cwnd plus one CA step on the recovering ACK.
#[test]
fn reno_fast_recovery_inflation_and_deflation() {
    let mut r = ca10(TcpVariant::Reno);
    assert_eq!(r.ack(100, 20), vec![31]);
    assert_eq!(r.ack(110, 20), vec![32]);
    assert_eq!(r.ack(120, 20), vec![21]);
    assert_eq!((r.cwnd(), r.ssthresh(), dupwnd(&r)), (5.0, 5.0, 3));
    for t in [130, 140, 150, 160] {
        assert_eq!(r.ack(t, 20), NONE);
    }
    assert_eq!(dupwnd(&r), 7);
    assert_eq!(r.ack(170, 20), vec![33]);
    assert_eq!(r.ack(180, 20), vec![34]);
    assert_eq!(r.ack(190, 20), vec![35]);
    assert_eq!(r.ack(200, 20), vec![36]);
    assert_eq!(dupwnd(&r), 11);
    assert_eq!(r.ack(210, 32), vec![37]);
    assert_eq!((r.cwnd(), r.ssthresh(), dupwnd(&r)), (5.2, 5.0, 0));
}

/// Tahoe single loss: no inflation; the recovering ACK restarts slow start at cwnd 2.
#[test]
fn tahoe_fast_retransmit_then_slow_start() {
    let mut r = ca10(TcpVariant::Tahoe);
    assert_eq!(r.ack(100, 20), vec![31]);
    assert_eq!(r.ack(110, 20), vec![32]);
    assert_eq!(r.ack(120, 20), vec![21]);
    for t in [130, 140, 150, 160, 170, 180, 190, 200] {
        assert_eq!(r.ack(t, 20), NONE);
    }
    assert_eq!(r.ack(210, 32), vec![33, 34]);
    assert_eq!((r.cwnd(), r.ssthresh()), (2.0, 5.0));
}

/// NewReno recovers 21, 24 and 27 lost in one window with partial ACKs, no timeout.
#[test]
fn newreno_three_losses_one_window_no_timeout() {
    let mut r = ca10(TcpVariant::NewReno);
    assert_eq!(r.ack(100, 20), vec![31]); // 22
    assert_eq!(r.ack(110, 20), vec![32]); // 23
    assert_eq!(r.ack(120, 20), vec![21]); // 25: fast retransmit
    for t in [130, 140, 150, 160] {
        assert_eq!(r.ack(t, 20), NONE); // 26, 28, 29, 30: dupwnd 4..7
    }
    assert_eq!(r.ack(170, 20), vec![33]); // 31: dupwnd 8
    assert_eq!(r.ack(180, 20), vec![34]); // 32: dupwnd 9
                                          // 21 arrives: partial ACK 23 (k = 3): dupwnd 9 − 2 = 7; resend 24, window 5 + 7 → 35.
    assert_eq!(r.ack(190, 23), vec![24, 35]);
    assert_eq!(dupwnd(&r), 7);
    assert_eq!(r.ack(200, 23), vec![36]); // 33
    assert_eq!(r.ack(210, 23), vec![37]); // 34
                                          // 24 arrives: partial ACK 26 (k = 3): dupwnd 9 − 2 = 7; resend 27, send 38.
    assert_eq!(r.ack(220, 26), vec![27, 38]);
    assert_eq!(r.ack(230, 26), vec![39]); // 35
    assert_eq!(r.ack(240, 26), vec![40]); // 36
    assert_eq!(r.ack(250, 26), vec![41]); // 37
                                          // 27 arrives: full ACK 37: cwnd 5.2, window 5 → 42.
    assert_eq!(r.ack(260, 37), vec![42]);
    assert_eq!((r.cwnd(), r.ssthresh(), dupwnd(&r)), (5.2, 5.0, 0));
    let st = r.s.stats();
    assert_eq!(
        (st.fast_retransmits, st.retransmissions, st.timeouts),
        (1, 3, 0)
    );
    // Packet 33, the first new packet after the fast retransmit stopped timing, was timed at
    // 170 ms; ACK 37 samples 90 ms = 9 ticks → RTO 9 + 4·4.5 = 27 ticks.
    assert_eq!(r.s.next_timer(), Some(ms(260 + 270)));
}

/// Sack1 recovers 21, 24 and 27 lost in one window: each hole resent once, in order, with
/// no timeout.
#[test]
fn sack1_three_nonadjacent_losses_one_window() {
    let mut r = ca10(TcpVariant::Sack);
    assert_eq!(r.ack_sack(100, 20, &[(22, 23)]), vec![31]);
    assert_eq!(r.ack_sack(110, 20, &[(22, 24)]), vec![32]);
    assert_eq!(r.ack_sack(120, 20, &[(25, 26), (22, 24)]), vec![21]);
    assert_eq!(sack1(&r), (true, 9));
    assert_eq!(r.ack_sack(130, 20, &[(25, 27), (22, 24)]), NONE);
    assert_eq!(r.ack_sack(140, 20, &[(28, 29), (25, 27), (22, 24)]), NONE);
    assert_eq!(r.ack_sack(150, 20, &[(28, 30), (25, 27), (22, 24)]), NONE);
    assert_eq!(r.ack_sack(160, 20, &[(28, 31), (25, 27), (22, 24)]), NONE);
    assert_eq!(sack1(&r), (true, 5));
    assert_eq!(
        r.ack_sack(170, 20, &[(28, 32), (25, 27), (22, 24)]),
        vec![24]
    );
    assert_eq!(
        r.ack_sack(180, 20, &[(28, 33), (25, 27), (22, 24)]),
        vec![27]
    );
    // 21 arrives: partial ACK 23; no holes left below the SACKed data → new data.
    assert_eq!(r.ack_sack(190, 23, &[(28, 33), (25, 27)]), vec![33, 34]);
    // 24 arrives: partial ACK 26.
    assert_eq!(r.ack_sack(200, 26, &[(28, 33)]), vec![35, 36]);
    // 27 arrives: ACK 32 ends recovery.
    assert_eq!(r.ack(210, 32), vec![37]);
    assert!(!sack1(&r).0);
    assert_eq!((r.cwnd(), r.ssthresh()), (5.0, 5.0));
    let st = r.s.stats();
    assert_eq!(
        (st.fast_retransmits, st.retransmissions, st.timeouts),
        (1, 3, 0)
    );
    // Packet 33 (timed, sent at 190 ms) is not yet acknowledged: no sample, initial RTO.
    assert_eq!(r.s.next_timer(), Some(ms(210 + 3_000)));
}

/// Sack1 counts a duplicate only if its SACK blocks report new data (tcp-spec §7.3).
#[test]
fn sack1_ignores_duplicates_without_new_sack_information() {
    let mut r = ca10(TcpVariant::Sack);
    for t in [100, 110, 120] {
        assert_eq!(r.ack(t, 20), NONE);
    }
    assert_eq!(r.ack_sack(130, 20, &[(22, 23)]), vec![31]);
    assert_eq!(r.ack_sack(140, 20, &[(22, 23)]), NONE);
    assert_eq!(r.s.conn().dupacks(), 1);
}

/// After an RTO, Sack1 ignores duplicates until a new ACK, and a second RTO halves to 2.
#[test]
fn sack1_timeout_clears_recovery() {
    let mut r = t7(TcpVariant::Sack);
    r.ack_sack(100, 20, &[(22, 23)]);
    r.ack_sack(110, 20, &[(22, 24)]);
    assert_eq!(r.ack_sack(120, 20, &[(22, 25)]), vec![21]);
    assert_eq!(r.fire(), vec![21]);
    assert_eq!(sack1(&r), (false, 9));
    assert_eq!((r.cwnd(), r.ssthresh()), (1.0, 2.0));
    assert_eq!(r.ack_sack(3_200, 20, &[(22, 26)]), NONE);
    assert_eq!(r.s.conn().dupacks(), 0);
    // The retransmitted 21 is acknowledged up to 24: slow start resends 25, 26.
    assert_eq!(r.ack(3_300, 24), vec![25, 26]);
    assert_eq!(r.cwnd(), 2.0);
}

/// ns-2 `slowdown()` sets `cong_action_` and `output()` puts it on the next packet sent
/// (retransmissions included, `SetCWRonRetransmit_` true): in ns-2.35's trace of a NewReno
/// flow the fast retransmission reads `---A---` and the packets after it `-------`.
#[test]
fn the_first_packet_after_a_window_cut_carries_the_congestion_action_flag() {
    let flags = |r: &Run| {
        r.out
            .segments
            .iter()
            .map(|s| (s.seq, s.cong_action))
            .collect::<Vec<_>>()
    };
    for variant in [TcpVariant::Reno, TcpVariant::NewReno, TcpVariant::Tahoe] {
        let mut r = ca10(variant);
        // New data before any cut: no flag.
        assert_eq!(r.ack(100, 21), vec![31]);
        assert_eq!(flags(&r), [(31, false)], "{variant:?}");
        // Three duplicates: the window is cut and the retransmission of 22 carries the flag.
        r.ack(110, 21);
        r.ack(120, 21);
        assert_eq!(r.ack(130, 21), vec![22], "{variant:?}");
        assert_eq!(flags(&r), [(22, true)], "{variant:?}");
        // The timeout cuts again: the first packet it sends carries it, the next does not.
        let sent = r.fire();
        assert_eq!(sent, vec![22], "{variant:?}");
        assert_eq!(flags(&r), [(22, true)], "{variant:?}");
        r.ack(2_000, 22);
        assert!(r.out.segments.iter().all(|s| !s.cong_action), "{variant:?}");
    }
}

/// ns-2 Vegas sends through its own `VegasTcpAgent::output`, which never sets the
/// congestion-action flag: after Vegas's fast retransmit and after a timeout no packet is
/// marked (in ns-2.35's trace every Vegas data line reads `-------`).
#[test]
fn vegas_never_marks_the_congestion_action_flag() {
    for variant in [TcpVariant::Vegas, TcpVariant::VegasW, TcpVariant::DemoVegas] {
        let mut r = ca10(variant);
        r.ack(100, 21);
        r.ack(110, 21);
        r.ack(120, 21);
        r.ack(130, 21);
        let sent = r.fire();
        assert_eq!(sent.first(), Some(&22), "{variant:?}");
        assert!(r.out.segments.iter().all(|s| !s.cong_action), "{variant:?}");
        assert!(
            r.s.conn().cwnd() < 10.0,
            "{variant:?}: the timeout cut the window"
        );
    }
}

/// NewReno after a timeout (T7 state, 21..30 outstanding; the RTO sets `recover` to 30 and
/// resends 21): ACKs 21 and 22 advance one packet each, then three duplicate ACKs of 22.
/// Without `bug_fix_ack` they are refused (22 is not past `recover`: they may come from the
/// go-back-N copies, ns-2 `bugFix_`); with it (RFC 6582 §4.2, ns-2 `bugFix_ack_`) the last
/// ACK advanced by 1 <= 3 packets and cwnd is 3 > 1, so the third one fast-retransmits 23.
#[test]
fn newreno_ack_heuristic_allows_a_fast_retransmit_after_a_timeout() {
    for heuristic in [false, true] {
        let mut c = cfg(TcpVariant::NewReno);
        c.window = 100;
        c.bug_fix_ack = heuristic;
        let mut r = Run::at_state(c, 20, 10.0, 5.0, 0);
        assert_eq!(r.fire(), vec![21]);
        assert_eq!(r.ack(3_100, 21), vec![22, 23]);
        assert_eq!(r.ack(3_110, 22), vec![24, 25]);
        assert_eq!(r.cwnd(), 3.0);
        r.ack(3_120, 22);
        r.ack(3_130, 22);
        let third = r.ack(3_140, 22);
        let fast = r.s.stats().fast_retransmits;
        if heuristic {
            assert_eq!((third.first(), fast), (Some(&23), 1));
        } else {
            assert_eq!((third, fast), (NONE, 0));
        }
    }
}

/// ns-2 `exitFastRetrans_` (tcpOptions `timeouts_reno_noexitFR`). The recovery above ends at
/// 210 ms (cwnd 5.2, recover 32, 33..37 out, EXITED); 33 is lost too. The first two
/// duplicates for 32 send 38 and 39 (Limited Transmit); the third may not fast-retransmit
/// (bugFix_: 32 is not above recover). With the default nothing more happens. With
/// `exitFastRetrans_` false dupwnd_ becomes 3 anyway, the window floor(5.2) + 3 = 8 over
/// 33..39 sends 40, and a fourth duplicate inflates to 4 and sends 41.
#[test]
fn without_exit_fast_retrans_refused_duplicates_still_inflate() {
    for (exit, third, fourth) in [(true, NONE, NONE), (false, vec![40], vec![41])] {
        let mut c = cfg(TcpVariant::Reno);
        c.window = 100;
        c.exit_fast_retrans = exit;
        let mut r = Run::at_state(c, 20, 10.0, 10.0, 0);
        for (t, k) in [(100, 20), (110, 20), (120, 20)] {
            r.ack(t, k);
        }
        for t in [130, 140, 150, 160, 170, 180, 190, 200] {
            r.ack(t, 20);
        }
        assert_eq!(r.ack(210, 32), vec![37]);
        assert_eq!(r.ack(220, 32), vec![38]);
        assert_eq!(r.ack(230, 32), vec![39]);
        assert_eq!(r.ack(240, 32), third, "exitFastRetrans_ {exit}");
        assert_eq!(dupwnd(&r), if exit { 0 } else { 3 });
        assert_eq!(r.ack(250, 32), fourth, "exitFastRetrans_ {exit}");
        assert_eq!(dupwnd(&r), if exit { 0 } else { 4 });
    }
}
