//! ns-2 `overhead_` (`TcpAgent::send_much`): a send loop that would send asks for the
//! delayed-send timer instead, sends nothing while it is pending, and its expiry sends with
//! `force` what the window then allows. The delay is the host's draw.

use super::*;

/// Tahoe, cwnd 4, ssthresh 10, 21.. to send, overhead 10 ms.
#[test]
fn sends_wait_for_the_delayed_send_timer() {
    let mut c = cfg(TcpVariant::Tahoe);
    c.window = 100;
    c.overhead = ms(10);
    let mut r = Run::new(c);
    r.s.warp(20, 4.0, 10.0);
    assert_eq!(r.start(0), Vec::<Seq>::new());
    assert_eq!(r.s.delayed_send_requested(), Some(ms(10)));
    assert_eq!(
        r.s.next_timer(),
        None,
        "nothing sent, no retransmission timer yet"
    );
    r.s.arm_delayed_send(ms(7));
    assert_eq!(r.s.delayed_send_requested(), None);
    // A pending timer holds every other send.
    assert_eq!(r.start(3), Vec::<Seq>::new());
    assert_eq!(r.s.next_timer(), Some(ms(7)));
    assert_eq!(r.fire(), seqs(21..=24));
    assert_eq!(r.s.delayed_send_requested(), None);
    // ACK 21 opens cwnd to 5 (slow start): 25 and 26 are due, after another delay.
    assert_eq!(r.ack(50, 21), Vec::<Seq>::new());
    assert_eq!(r.cwnd(), 5.0);
    assert_eq!(r.s.delayed_send_requested(), Some(ms(10)));
    r.s.arm_delayed_send(ms(59));
    assert_eq!(r.fire(), vec![25, 26]);
}
