//! ECN (RFC 3168 §6.1.2 as ns-2's `TcpAgent::ecn` models it), hand-worked with ns-2.35's
//! defaults (`precisionReduce_` true: the window halves as a real number).
//!
//! Every sequence starts as ns-2's runs do: packet 0 asks for ECN, the sink's ECN-Echo on its
//! ACK makes the peer ECN-capable; then the connection is placed in congestion avoidance with
//! cwnd = ssthresh = 10, packets 21..30 outstanding (`recover` 0, no reaction yet).

use super::*;
use crate::tcp::congestion::CwndAction;
use crate::tcp::segment::EcnFlags;

const NONE: Vec<Seq> = Vec::new();

fn ecn_cfg(variant: TcpVariant) -> TcpConfig {
    let mut c = cfg(variant);
    c.window = 100;
    c.ecn = true;
    c
}

/// An ACK of 0..=k with or without ECN-Echo.
fn ack_ece(k: Seq, ece: bool) -> AckSegment {
    AckSegment {
        ecn: EcnFlags {
            ece,
            ..EcnFlags::default()
        },
        ..ack(k)
    }
}

impl Run {
    fn ack_ecn(&mut self, t_ms: u64, k: Seq, ece: bool) -> Vec<Seq> {
        self.out.clear();
        self.s.on_ack(ms(t_ms), &ack_ece(k, ece), &mut self.out);
        self.sent()
    }

    /// (seq, CWR) of the packets sent by the last step.
    fn cwr(&self) -> Vec<(Seq, bool)> {
        self.out
            .segments
            .iter()
            .map(|s| (s.seq, s.cong_action))
            .collect()
    }
}

/// The ECN setup, then cwnd = ssthresh = 10 with 21..30 sent at 0 ms.
fn ecn_ca10(variant: TcpVariant) -> Run {
    let mut r = Run::new(ecn_cfg(variant));
    assert_eq!(r.start(0), vec![0]);
    // ns-2 `output()`: packet 0 carries ECN-Echo and is not ECN-capable.
    assert_eq!(
        r.out.segments[0].ecn,
        EcnFlags {
            ect: false,
            ce: false,
            ece: true
        }
    );
    // The sink echoes the setup; the ACK of packet 0 opens the window as usual (the peer is
    // not yet known to be ECN-capable) and makes it so.
    assert_eq!(r.ack_ecn(50, 0, true), vec![1, 2]);
    assert!(r.out.segments.iter().all(|s| s.ecn.ect && !s.ecn.ece));
    assert!(r.s.conn().ecn().peer_capable);
    assert_eq!(r.cwnd(), 2.0);
    r.s.conn_mut().warp(20, 10.0, 10.0);
    assert_eq!(r.start(60), seqs(21..=30));
    r
}

/// An ECN-Echo ACK halves ssthresh and cwnd without retransmitting; the next ECN-Echo of the
/// same window does nothing; the window opens again on ACKs without ECN-Echo, the first
/// packet after the cut carries CWR, and an ECN-Echo beyond `recover` halves again.
#[test]
fn an_ecn_echo_halves_the_window_once_per_window_of_data() {
    for variant in [TcpVariant::Reno, TcpVariant::NewReno, TcpVariant::Sack] {
        let mut r = ecn_ca10(variant);
        let sent_before = r.s.stats().segments_sent;
        // ACK 21 with ECN-Echo at 200 ms: 21 > recover 0: recover = maxseq 30, ssthresh =
        // int(10/2) = 5, cwnd = 10/2 = 5; not opened (ECN-Echo from an ECN-capable peer);
        // window 5 allows up to 26 < t_seqno 31: nothing is sent, nothing resent.
        assert_eq!(r.ack_ecn(200, 21, true), NONE, "{variant:?}");
        assert_eq!((r.cwnd(), r.ssthresh()), (5.0, 5.0), "{variant:?}");
        assert_eq!(r.s.conn().recover(), 30);
        assert_eq!(r.s.conn().last_cwnd_action(), CwndAction::Ecn);
        assert_eq!(r.s.stats().retransmissions, 0);
        // ACK 22 with ECN-Echo at 210 ms: 22 <= recover 30: no second cut, no opening.
        assert_eq!(r.ack_ecn(210, 22, true), NONE, "{variant:?}");
        assert_eq!((r.cwnd(), r.ssthresh()), (5.0, 5.0), "{variant:?}");
        // ACK 27 without ECN-Echo at 220 ms: congestion avoidance, cwnd = 5 + 1/5 = 5.2;
        // window 5 allows up to 32: 31 (carrying CWR) and 32.
        assert_eq!(r.ack_ecn(220, 27, false), vec![31, 32], "{variant:?}");
        assert!(close(r.cwnd(), 5.2), "{variant:?}");
        assert_eq!(r.cwr(), [(31, true), (32, false)], "{variant:?}");
        // ACK 31 with ECN-Echo at 300 ms: 31 > recover 30: a new window, cut again: recover =
        // 32, ssthresh = max(2, int(5.2/2)) = 2, cwnd = 2.6; window 2 allows 33, with CWR.
        assert_eq!(r.ack_ecn(300, 31, true), vec![33], "{variant:?}");
        assert!(close(r.cwnd(), 2.6), "{variant:?}");
        assert_eq!(r.ssthresh(), 2.0, "{variant:?}");
        assert_eq!(r.s.conn().recover(), 32);
        assert_eq!(r.cwr(), [(33, true)], "{variant:?}");
        assert_eq!(r.s.stats().segments_sent, sent_before + 3);
        assert_eq!(r.s.stats().retransmissions, 0);
    }
}

/// Without `ecn` the sender ignores ECN-Echo (ns-2 calls `ecn()` only with `ecn_`), and its
/// packets carry no ECN bits.
#[test]
fn without_ecn_an_ecn_echo_changes_nothing() {
    let mut c = cfg(TcpVariant::Reno);
    c.window = 100;
    let mut r = Run::at_state(c, 20, 10.0, 10.0, 0);
    assert!(r.out.segments.iter().all(|s| s.ecn == EcnFlags::default()));
    assert_eq!(r.ack_ecn(200, 21, true), vec![31]);
    assert!(close(r.cwnd(), 10.1));
    assert_eq!(r.ssthresh(), 10.0);
}

/// The third duplicate ACK in the window an ECN-Echo halved: Reno and NewReno resend the
/// hole and inflate by 3 without a second cut (ns-2 `dupack_action`'s ECN branch); the
/// resend carries the CWR the ECN reaction left pending.
#[test]
fn a_fast_retransmit_after_an_ecn_echo_does_not_cut_again() {
    for variant in [TcpVariant::Reno, TcpVariant::NewReno] {
        let mut r = ecn_ca10(variant);
        assert_eq!(r.ack_ecn(200, 21, true), NONE);
        // Duplicates 1 and 2: Limited Transmit needs 31 <= 21 + 5 + dupacks: nothing.
        assert_eq!(r.ack_ecn(210, 21, false), NONE, "{variant:?}");
        assert_eq!(r.ack_ecn(220, 21, false), NONE, "{variant:?}");
        // Duplicate 3: resend 22 (with CWR), cwnd and ssthresh stay 5, dupwnd 3; the
        // inflated window int(5) + 3 = 8 allows up to 29: nothing new.
        assert_eq!(r.ack_ecn(230, 21, false), vec![22], "{variant:?}");
        assert_eq!(r.cwr(), [(22, true)], "{variant:?}");
        assert_eq!((r.cwnd(), r.ssthresh()), (5.0, 5.0), "{variant:?}");
        assert_eq!(r.s.conn().dupwnd(), 3, "{variant:?}");
        assert_eq!(r.s.conn().last_cwnd_action(), CwndAction::DupAck);
        assert_eq!(r.s.conn().recover(), 30, "{variant:?}: recover stays");
    }
}

/// Tahoe's third duplicate in the window an ECN-Echo halved: go back N from 22 with cwnd 1,
/// ssthresh kept at 5 (ns-2 `TcpAgent::dupack_action`: `slowdown(CLOSE_CWND_ONE)`).
#[test]
fn tahoe_goes_back_n_with_ssthresh_kept_after_an_ecn_echo() {
    let mut r = ecn_ca10(TcpVariant::Tahoe);
    assert_eq!(r.ack_ecn(200, 21, true), NONE);
    assert_eq!(r.ack_ecn(210, 21, false), NONE);
    assert_eq!(r.ack_ecn(220, 21, false), NONE);
    assert_eq!(r.ack_ecn(230, 21, false), vec![22]);
    assert_eq!((r.cwnd(), r.ssthresh()), (1.0, 5.0));
    assert_eq!(r.cwr(), [(22, true)]);
}

/// A timeout in the window an ECN-Echo halved: cwnd 1, ssthresh kept at 5, not counted as
/// a timeout in `nrexmit_` (ns-2 `TcpAgent::timeout`); go back N from 22.
#[test]
fn a_timeout_after_an_ecn_echo_keeps_ssthresh() {
    for variant in [
        TcpVariant::Tahoe,
        TcpVariant::Reno,
        TcpVariant::NewReno,
        TcpVariant::Sack,
    ] {
        let mut r = ecn_ca10(variant);
        assert_eq!(r.ack_ecn(200, 21, true), NONE);
        assert_eq!(r.fire(), vec![22], "{variant:?}");
        assert_eq!((r.cwnd(), r.ssthresh()), (1.0, 5.0), "{variant:?}");
        assert_eq!(r.s.stats().timeouts, 0, "{variant:?}");
        // A second timeout is an ordinary one: ssthresh = max(2, int(1/2)) = 2.
        assert_eq!(r.fire(), vec![22], "{variant:?}");
        assert_eq!((r.cwnd(), r.ssthresh()), (1.0, 2.0), "{variant:?}");
        assert_eq!(r.s.stats().timeouts, 1, "{variant:?}");
    }
}

/// An ECN-Echo with cwnd 1 halves it to 0.5 and starts the ECN backoff (ns-2 `ecn()`,
/// `cwnd_ <= 1`), under which an ECN-Echo ACK does not end the timer backoff.
#[test]
fn an_ecn_echo_at_one_packet_starts_the_ecn_backoff() {
    let mut r = ecn_ca10(TcpVariant::Reno);
    r.s.conn_mut().warp(30, 1.0, 5.0);
    assert_eq!(r.start(300), vec![31]);
    assert_eq!(r.ack_ecn(400, 31, true), NONE);
    assert_eq!((r.cwnd(), r.ssthresh()), (0.5, 2.0));
    assert!(r.s.conn().ecn().backoff);
}
