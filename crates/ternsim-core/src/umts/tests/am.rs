//! Acknowledged mode through the bearer: every number below is worked by hand from the
//! rules cited in `am::sender` and `am::receiver`. Downlink 384 kb/s, 10 ms TTI, 12 TBs;
//! uplink 64 kb/s, 20 ms TTI, 4 TBs; Iub delay 0, so a TB sent at boundary t arrives at
//! t + TTI.

use super::*;
use crate::umts::pdu::{Pdu, StatusPdu, Sufi};
use crate::umts::{Direction, PollConfig, StatusConfig};

fn statuses_in_flight(b: &RadioBearer, dir: Direction) -> Vec<(SimTime, StatusPdu)> {
    b.dch(dir)
        .in_flight()
        .filter_map(|(t, tb)| match &tb.pdu {
            Pdu::Status(s) => Some((t, s.clone())),
            _ => None,
        })
        .collect()
}

fn bits(s: &str) -> Vec<bool> {
    s.chars().map(|c| c == '1').collect()
}

#[test]
fn lost_tbs_give_the_exact_bitmap_retransmissions_and_delivery_order() {
    // lo-umts defaults: missing-PDU STATUS, Timer_Status_Prohibit 150 ms, last-PDU and
    // last-retransmission polls, Timer_Poll 170 ms. Three 552-octet IP packets (553-octet
    // SDUs, 14 PDUs each: SNs 0-13, 14-27, 28-41). TBs 2 and 5 of the first TTI (SN 1, 4)
    // are lost.
    let mut b = bearer(BearerConfig::default(), "010010000000", "");
    for id in 0..3 {
        assert!(b.submit(ms(0), Side::Rnc, id, 552));
    }
    assert_eq!(b.next_event(), Some(ms(0)));

    // t=0: SN 0-11 leave; no poll (more waits in the buffer).
    let out = step(&mut b, ms(0));
    assert_eq!(
        sent(&out),
        (0..12).map(|sn| (sn, false, false)).collect::<Vec<_>>()
    );
    assert_eq!(am(&b, Side::Rnc).sender.vt_s(), 12);

    // t=10: SN 0-11 arrive, 1 and 4 lost. SN 2 > VR(H) = 1 → missing-PDU STATUS pending.
    // SN 12-23 leave.
    let out = step(&mut b, ms(10));
    let rx = &am(&b, Side::Ue).receiver;
    assert_eq!((rx.vr_r(), rx.vr_h()), (1, 12));
    assert!(rx.status_pending());
    assert_eq!(sent(&out).first(), Some(&(12, false, false)));
    assert!(out.delivered.is_empty());
    assert_eq!(b.next_event(), Some(ms(20))); // next uplink boundary and downlink arrival

    // t=20: SN 12-23 arrive; the STATUS leaves on the uplink: BITMAP FSN = VR(R) = 1 over
    // SN 1..23 (23 bits, padded to 24; the padding bit is at LSN and means nothing), then
    // ACK LSN = VR(H) = 24. Timer_Status_Prohibit runs to 170.
    step(&mut b, ms(20));
    let st = statuses_in_flight(&b, Direction::Up);
    assert_eq!(st.len(), 1);
    assert_eq!(st[0].0, ms(40));
    assert_eq!(
        st[0].1.sufis,
        vec![
            Sufi::Bitmap {
                fsn: 1,
                bits: bits("011011111111111111111110"),
            },
            Sufi::Ack { lsn: 24 },
        ]
    );
    assert_eq!(st[0].1.nacks(), vec![1, 4]);
    assert_eq!(st[0].1.bits(), 4 + 20 + 24 + 16);
    assert_eq!(
        am(&b, Side::Ue).receiver.timer_status_prohibit(),
        Some(ms(170))
    );

    // t=30: SN 36-41 leave; SN 41 empties the buffer → P=1, Timer_Poll to 200.
    let out = step(&mut b, ms(30));
    assert_eq!(sent(&out).last(), Some(&(41, false, true)));
    assert_eq!(am(&b, Side::Rnc).sender.timer_poll(), Some(ms(200)));

    // t=40: the STATUS arrives: VT(A) = 1, SN 1 and 4 scheduled; both go out at once, lowest
    // first, the last of the retransmission buffer with P=1 (Timer_Poll restarts → 210).
    // The poll on SN 41 also arrived, but Timer_Status_Prohibit holds the STATUS.
    let out = step(&mut b, ms(40));
    assert_eq!(sent(&out), vec![(1, true, false), (4, true, true)]);
    let tx = &am(&b, Side::Rnc).sender;
    assert_eq!((tx.vt_a(), tx.vt_s()), (1, 42));
    assert_eq!(tx.timer_poll(), Some(ms(210)));
    assert!(am(&b, Side::Ue).receiver.status_pending());

    // t=50: the retransmissions fill the holes: VR(R) = 42 and the three SDUs come out in
    // order.
    let out = step(&mut b, ms(50));
    assert_eq!(
        out.delivered,
        vec![(Side::Ue, 0), (Side::Ue, 1), (Side::Ue, 2)]
    );
    assert_eq!(am(&b, Side::Ue).receiver.vr_r(), 42);
    assert_eq!(b.buffered_sdus(), 0);

    // Timer_Status_Prohibit expires at 170; the held STATUS (ACK LSN = 42) leaves at the
    // next uplink boundary, 180, and arrives at 200, stopping Timer_Poll before 210.
    let out = step(&mut b, ms(179));
    assert!(status_times(&out).is_empty());
    let out = step(&mut b, ms(200));
    assert_eq!(status_times(&out), vec![ms(180)]);
    let tx = &am(&b, Side::Rnc).sender;
    assert_eq!(tx.vt_a(), 42);
    assert_eq!(tx.timer_poll(), None);
    // Only the receiver's prohibit timer (180 + 150) is left, then the bearer is idle.
    assert_eq!(b.next_event(), Some(ms(330)));
    step(&mut b, ms(330));
    assert_eq!(b.next_event(), None);
    let s = b.stats();
    assert_eq!((s.down.tbs, s.down.tb_errors), (44, 2));
    assert_eq!(
        (s.down.data_pdus, s.down.retransmissions, s.down.polls),
        (42, 2, 2)
    );
    assert_eq!((s.up.tbs, s.up.status_pdus), (2, 2));
    assert_eq!(
        (s.down.sdus_delivered, s.down.bytes_delivered),
        (3, 3 * 552)
    );
}

#[test]
fn a_lost_poll_is_recovered_by_timer_poll_expiry() {
    // Only the last-PDU poll and Timer_Poll (170 ms); the receiver answers polls only.
    let mut cfg = BearerConfig::default();
    cfg.rlc.poll = PollConfig {
        last_tx_pdu: true,
        timer_poll: Some(ms(170)),
        ..PollConfig::none()
    };
    cfg.rlc.status = StatusConfig::none();
    // A 40-octet TCP ACK (41-octet SDU): SN 0 and SN 1 (P=1); SN 1 is lost.
    let mut b = bearer(cfg, "01", "");
    b.submit(ms(0), Side::Rnc, 9, 40);
    let out = step(&mut b, ms(0));
    assert_eq!(sent(&out), vec![(0, false, false), (1, false, true)]);
    assert_eq!(am(&b, Side::Rnc).sender.timer_poll(), Some(ms(170)));

    // t=10: SN 0 arrives alone: nothing triggers a STATUS.
    step(&mut b, ms(10));
    assert_eq!(am(&b, Side::Ue).receiver.vr_r(), 1);
    assert!(!am(&b, Side::Ue).receiver.status_pending());
    assert_eq!(b.next_event(), Some(ms(170)));
    let out = step(&mut b, ms(169));
    assert!(out.events.is_empty());

    // t=170: Timer_Poll expires; nothing new to send → SN 1 = VT(S) − 1 goes again with
    // P=1 in the same instant, and Timer_Poll restarts.
    let out = step(&mut b, ms(170));
    assert_eq!(
        out.events[0],
        (ms(170), BearerEvent::PollTimerExpired { side: Side::Rnc })
    );
    assert_eq!(sent(&out), vec![(1, true, true)]);
    assert_eq!(am(&b, Side::Rnc).sender.vt_dat(1), Some(2));
    assert_eq!(am(&b, Side::Rnc).sender.timer_poll(), Some(ms(340)));

    // t=180: delivered; the STATUS leaves on the uplink boundary at 180, arrives at 200.
    let out = step(&mut b, ms(180));
    assert_eq!(out.delivered, vec![(Side::Ue, 9)]);
    assert_eq!(status_times(&out), vec![ms(180)]);
    step(&mut b, ms(200));
    assert_eq!(am(&b, Side::Rnc).sender.vt_a(), 2);
    assert_eq!(am(&b, Side::Rnc).sender.timer_poll(), None);
    assert_eq!(b.next_event(), None);
}

#[test]
fn the_window_stalls_after_vt_ws_pdus_and_resumes_on_status() {
    // Costamagna's transmit window of 15 PDUs; the only poll trigger is Poll_Window 90 %:
    // J = 100·(VT(S) − VT(A))/15 ≥ 90 first for the PDU sent with 14 outstanding.
    let mut cfg = BearerConfig::default();
    cfg.rlc.tx_window = 15;
    cfg.rlc.poll = PollConfig {
        poll_window: Some(90),
        ..PollConfig::none()
    };
    cfg.rlc.status = StatusConfig::none();
    let mut b = bearer(cfg, "", "");
    for id in 0..3 {
        b.submit(ms(0), Side::Rnc, id, 552); // 42 PDUs
    }
    step(&mut b, ms(0));
    // t=10: SN 12, 13, 14 (P=1 on 14); VT(S) = VT(MS) = 15: stalled.
    let out = step(&mut b, ms(10));
    assert_eq!(
        sent(&out),
        vec![(12, false, false), (13, false, false), (14, false, true)]
    );
    let tx = &am(&b, Side::Rnc).sender;
    assert_eq!((tx.vt_a(), tx.vt_s(), tx.vt_ms()), (0, 15, 15));
    // t=20 and 30: nothing new is sent, although 27 PDUs of data wait. SDU 0 (SN 0-13)
    // arrives complete at 20; the STATUS for the poll leaves at 20.
    let out = step(&mut b, ms(20));
    assert!(sent(&out).is_empty());
    assert_eq!(out.delivered, vec![(Side::Ue, 0)]);
    assert_eq!(status_times(&out), vec![ms(20)]);
    let out = step(&mut b, ms(39));
    assert!(sent(&out).is_empty());
    assert_eq!(am(&b, Side::Rnc).sender.vt_s(), 15);
    // t=40: the STATUS (ACK LSN 15) moves VT(A) to 15; 12 new PDUs leave at once.
    let out = step(&mut b, ms(40));
    assert_eq!(sent(&out).len(), 12);
    let tx = &am(&b, Side::Rnc).sender;
    assert_eq!((tx.vt_a(), tx.vt_s(), tx.vt_ms()), (15, 27, 30));
    // t=50: SN 27-29 (P=1 on 29), stalled again until the next STATUS arrives at 80.
    let out = step(&mut b, ms(50));
    assert_eq!(
        sent(&out),
        vec![(27, false, false), (28, false, false), (29, false, true)]
    );
    let out = step(&mut b, ms(79));
    assert_eq!(sent(&out).len(), 0);
    assert_eq!(out.delivered, vec![(Side::Ue, 1)]);
    let out = step(&mut b, ms(80));
    assert_eq!(sent(&out).len(), 12);
    assert_eq!(am(&b, Side::Rnc).sender.vt_a(), 30);
    let out = step(&mut b, ms(90));
    assert_eq!(out.delivered, vec![(Side::Ue, 2)]);
}

#[test]
fn timer_status_prohibit_turns_two_triggers_into_one_status_at_expiry() {
    // Missing-PDU indicator with Timer_Status_Prohibit 100 ms; no polls. 42 PDUs leave at
    // 0, 10, 20, 30 (12, 12, 12, 6); the second TB of each TTI is lost: SN 1, 13, 25, 37.
    let mut cfg = BearerConfig::default();
    cfg.rlc.poll = PollConfig::none();
    cfg.rlc.status = StatusConfig {
        missing_pdu_indicator: true,
        timer_status_prohibit: Some(ms(100)),
        ..StatusConfig::none()
    };
    let tti = "010000000000";
    let pattern = format!("{tti}{tti}{tti}010000");
    let mut b = bearer(cfg, &pattern, "");
    for id in 0..3 {
        b.submit(ms(0), Side::Rnc, id, 552);
    }
    // t=10: trigger (SN 2 > VR(H)); t=20: trigger (SN 14); STATUS at 20 reports both holes.
    let out = step(&mut b, ms(20));
    assert_eq!(status_times(&out), vec![ms(20)]);
    let st = statuses_in_flight(&b, Direction::Up);
    assert_eq!(st[0].1.nacks(), vec![1, 13]);
    assert_eq!(st[0].1.lsn(), Some(24));
    // t=30 (SN 26 after lost 25) and t=40 (SN 38 after lost 37): two triggers while
    // Timer_Status_Prohibit runs (20..120): no STATUS.
    let out = step(&mut b, ms(30));
    assert!(status_times(&out).is_empty());
    assert!(am(&b, Side::Ue).receiver.status_pending());
    let out = step(&mut b, ms(40));
    assert!(status_times(&out).is_empty());
    // SN 1 and 13 are retransmitted at 40 and fill their holes at 50: VR(R) = 25.
    assert_eq!(sent(&out), vec![(1, true, false), (13, true, false)]);
    let out = step(&mut b, ms(119));
    assert!(status_times(&out).is_empty());
    assert_eq!(out.delivered, vec![(Side::Ue, 0)]);
    assert_eq!(am(&b, Side::Ue).receiver.vr_r(), 25);
    // t=120: expiry, on an uplink boundary: exactly one STATUS, with both new holes.
    let out = step(&mut b, ms(120));
    assert_eq!(status_times(&out), vec![ms(120)]);
    let st = statuses_in_flight(&b, Direction::Up);
    assert_eq!(
        st[0].1.sufis,
        vec![
            Sufi::Bitmap {
                fsn: 25,
                bits: bits("011111111111011110000000"),
            },
            Sufi::Ack { lsn: 42 },
        ]
    );
    // The retransmissions go at 140 and complete SDUs 1 and 2 at 150; no further STATUS.
    let out = step(&mut b, ms(400));
    assert_eq!(sent(&out), vec![(25, true, false), (37, true, false)]);
    assert_eq!(out.delivered, vec![(Side::Ue, 1), (Side::Ue, 2)]);
    assert!(status_times(&out).is_empty());
    assert_eq!(b.stats().up.status_pdus, 2);
}

#[test]
fn an_sdu_reaching_maxdat_is_discarded_and_skipped_with_mrw() {
    // MaxDAT = 3: at most 2 transmissions per PDU. Three 20-octet IP packets, one PDU each
    // (21 octets + LI + padding LI + padding): SDU n in SN n. SN 1 is lost twice.
    let mut cfg = BearerConfig::default();
    cfg.rlc.max_dat = Some(3);
    cfg.rlc.poll = PollConfig {
        last_tx_pdu: true,
        last_retx_pdu: true,
        timer_poll: Some(ms(100)),
        ..PollConfig::none()
    };
    cfg.rlc.status = StatusConfig {
        missing_pdu_indicator: true,
        ..StatusConfig::none()
    };
    // TBs: t=0 SN 0,1,2 | t=40 SN 1 | t=140 SN 2 (poll carrier) | t=180 MRW.
    let mut b = bearer(cfg, "0101", "");
    for id in 0..3 {
        b.submit(ms(0), Side::Rnc, id, 20);
    }
    let out = step(&mut b, ms(0));
    assert_eq!(
        sent(&out),
        vec![(0, false, false), (1, false, false), (2, false, true)]
    );
    // t=10: SDU 0 delivered; SN 2 (poll, and a gap) → STATUS at the uplink boundary 20.
    let out = step(&mut b, ms(10));
    assert_eq!(out.delivered, vec![(Side::Ue, 0)]);
    // t=40: NACK for SN 1 arrives; SN 1 goes again (VT(DAT) = 2) with P=1 and is lost.
    let out = step(&mut b, ms(40));
    assert_eq!(sent(&out), vec![(1, true, true)]);
    assert_eq!(am(&b, Side::Rnc).sender.vt_dat(1), Some(2));
    // Nothing arrives; Timer_Poll (restarted at 40) expires at 140: the poll rides on
    // VT(S) − 1 = SN 2 (VT(DAT) 2); the duplicate SN 2 makes the UE answer at 160.
    let out = step(&mut b, ms(140));
    assert_eq!(sent(&out), vec![(2, true, true)]);
    let out = step(&mut b, ms(160));
    assert_eq!(status_times(&out), vec![ms(160)]);
    // t=180: the NACK for SN 1 would make VT(DAT) = 3 = MaxDAT: SDU 1 is discarded and
    // reported, and an MRW (SN_MRW = 2, N_LENGTH = 0: SN 1 held only SDU 1) leaves instead.
    let out = step(&mut b, ms(180));
    assert_eq!(out.discarded, vec![(Side::Rnc, 1)]);
    assert!(sent(&out).is_empty());
    let mrw = statuses_in_flight(&b, Direction::Down);
    assert_eq!(
        mrw[0].1.sufis,
        vec![Sufi::Mrw {
            sn_mrw: 2,
            n_length: 0
        }]
    );
    // t=190: the UE moves VR(R) to 2, passes the stored SN 2 and delivers SDU 2.
    let out = step(&mut b, ms(190));
    assert_eq!(out.delivered, vec![(Side::Ue, 2)]);
    assert_eq!(am(&b, Side::Ue).receiver.vr_r(), 3);
    // MRW_ACK (SN_ACK = 3) leaves at 200, arrives at 220: VT(A) = 3, Timer_MRW stopped.
    step(&mut b, ms(220));
    let tx = &am(&b, Side::Rnc).sender;
    assert_eq!((tx.vt_a(), tx.vt_s()), (3, 3));
    assert_eq!(tx.timer_poll(), None);
    assert_eq!(b.buffered_sdus(), 0);
    assert_eq!(b.next_event(), None);
    let s = b.stats();
    assert_eq!((s.down.sdus_delivered, s.down.sdus_discarded), (2, 1));
    assert_eq!(s.down.status_pdus, 1); // the MRW
    assert_eq!(s.up.status_pdus, 3); // two STATUS reports and the MRW_ACK
}
