//! ns-2's traced variables (`$tcp trace VAR`, `TcpAgent::traceVar`): which assignments of a
//! real sender show, and in which order. Each step is worked by hand from ns-2.35's
//! `tcp.cc` (`newack`, `opencwnd`, `slowdown`, `timeout`, `reset_rtx_timer`, `output`,
//! `send_much`); the same sequences were checked against `ns` line for line
//! (tests/ns2_scripts/trace_vars.tcl).

use super::*;
use crate::tcp::traced::TracedVar;

fn changes(r: &Run) -> Vec<(&'static str, f64)> {
    r.out
        .var_changes
        .iter()
        .map(|c| (c.var.name(), c.value))
        .collect()
}

fn traced(variant: TcpVariant, vars: &[&str], syn: bool, window_init: u32) -> Run {
    let mut c = cfg(variant);
    c.syn = syn;
    c.window_init = window_init;
    let mut r = Run::new(c);
    for v in vars {
        r.s.trace_var(TracedVar::from_name(v).unwrap());
    }
    r
}

/// The SYN, its ACK, and the window's first packets: with `windowInit_` 3, the ACK of the
/// SYN opens cwnd to 2 (`opencwnd`) and then sets it to 3 (`initial_window()`): two lines.
/// Each `output` counts `ndatapack_`, raises `maxseq_`, then `send_much` moves `t_seqno_`.
#[test]
fn syn_ack_opens_then_resets_cwnd_and_each_send_traces_in_output_order() {
    let mut r = traced(
        TcpVariant::Reno,
        &["cwnd_", "ack_", "t_seqno_", "maxseq_", "ndatapack_"],
        true,
        3,
    );
    assert_eq!(r.start(0), vec![0]);
    assert_eq!(
        changes(&r),
        vec![("ndatapack_", 1.0), ("maxseq_", 0.0), ("t_seqno_", 1.0)]
    );
    assert_eq!(r.ack(100, 0), vec![1, 2, 3]);
    assert_eq!(
        changes(&r),
        vec![
            ("ack_", 0.0),
            ("cwnd_", 2.0),
            ("cwnd_", 3.0),
            ("ndatapack_", 2.0),
            ("maxseq_", 1.0),
            ("t_seqno_", 2.0),
            ("ndatapack_", 3.0),
            ("maxseq_", 2.0),
            ("t_seqno_", 3.0),
            ("ndatapack_", 4.0),
            ("maxseq_", 3.0),
            ("t_seqno_", 4.0),
        ]
    );
}

/// A timeout with cwnd 3 and packets 1-3 out: `++nrexmit_`, then `slowdown`:
/// `++ncwndcuts_`, `ssthresh_ = window()/2 = 1`, `cwnd_ = 1`, `ssthresh_ = 2` (raised to
/// its floor), then `reset_rtx_timer(0, 1)`: `backoff_` 2, `t_seqno_ = highest_ack_ + 1 = 1`;
/// then the retransmission of packet 1 (`nrexmitpack_`) and `t_seqno_` 2.
#[test]
fn timeout_traces_nrexmit_slowdown_assignments_backoff_and_go_back_n() {
    let mut r = traced(
        TcpVariant::Reno,
        &[
            "nrexmit_",
            "ncwndcuts_",
            "ssthresh_",
            "cwnd_",
            "backoff_",
            "t_seqno_",
            "nrexmitpack_",
        ],
        false,
        3,
    );
    assert_eq!(r.start(0), vec![0, 1, 2]);
    assert_eq!(
        changes(&r),
        vec![("t_seqno_", 1.0), ("t_seqno_", 2.0), ("t_seqno_", 3.0)]
    );
    assert_eq!(r.ack(100, 0), vec![3]);
    // Packet 0's ACK: cwnd opens to 4, then `initial_window()` sets it back to 3.
    assert_eq!(
        changes(&r),
        vec![("cwnd_", 4.0), ("cwnd_", 3.0), ("t_seqno_", 4.0)]
    );
    assert_eq!(r.fire(), vec![1]);
    assert_eq!(
        changes(&r),
        vec![
            ("nrexmit_", 1.0),
            ("ncwndcuts_", 1.0),
            ("ssthresh_", 1.0),
            ("cwnd_", 1.0),
            ("ssthresh_", 2.0),
            ("backoff_", 2.0),
            ("t_seqno_", 1.0),
            ("nrexmitpack_", 1.0),
            ("t_seqno_", 2.0),
        ]
    );
}

/// A variable nothing traces is never reported, and one assigned the value it holds is not
/// reported again (`dupacks_ = 0` on every new ACK).
#[test]
fn untraced_and_unchanged_variables_write_nothing() {
    let mut r = traced(TcpVariant::Reno, &["dupacks_"], false, 2);
    r.start(0);
    r.ack(100, 0);
    r.ack(110, 1);
    assert!(changes(&r).is_empty());
    r.ack(120, 1);
    assert_eq!(changes(&r), vec![("dupacks_", 1.0)]);
    r.ack(130, 2);
    assert_eq!(changes(&r), vec![("dupacks_", 0.0)]);
}
