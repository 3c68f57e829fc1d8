//! Unacknowledged mode and error-free timing through the bearer.

use super::*;
use crate::umts::pdu::{Li, Pdu};
use crate::umts::{Direction, RlcMode};

#[test]
fn um_a_lost_tb_drops_exactly_the_sdus_it_carried() {
    // UM with concatenation: 41 data octets per UMD PDU (42-octet TB, 1-octet header).
    // Four 30-octet SDUs (29-octet IP packets):
    //   PDU 0: SDU 0 (30) + LI, SDU 1 (10)
    //   PDU 1: SDU 1 (20) + LI, SDU 2 (20)
    //   PDU 2: SDU 2 (10) + LI, SDU 3 (30, exactly fills: no LI)
    //   PDU 3: LI "0000000", padding LI, 39 padding octets
    // PDU 1 is lost: SDUs 1 and 2 are discarded, 0 and 3 delivered.
    let mut cfg = BearerConfig::default();
    cfg.rlc.mode = RlcMode::Um;
    cfg.rlc.concatenation = true;
    let mut b = bearer(cfg, "0100", "");
    for id in 0..4 {
        b.submit(ms(0), Side::Rnc, id, 29);
    }
    let out = step(&mut b, ms(0));
    assert_eq!(sent(&out).len(), 4);
    let lis: Vec<Vec<Li>> = b
        .dch(Direction::Down)
        .in_flight()
        .map(|(_, tb)| match &tb.pdu {
            Pdu::Umd(d) => d.body.lis.clone(),
            other => panic!("not a UMD PDU: {other:?}"),
        })
        .collect();
    assert_eq!(
        lis,
        vec![
            vec![Li::End(30)],
            vec![Li::End(20)],
            vec![Li::End(10)],
            vec![Li::ExactFill, Li::Padding],
        ]
    );
    let out = step(&mut b, ms(10));
    assert_eq!(out.delivered, vec![(Side::Ue, 0), (Side::Ue, 3)]);
    assert_eq!(out.discarded, vec![(Side::Rnc, 1), (Side::Rnc, 2)]);
    assert_eq!(b.entity(Side::Ue).um().unwrap().vr_us(), 4);
    assert_eq!(b.buffered_sdus(), 0);
    let s = b.stats();
    assert_eq!((s.down.sdus_delivered, s.down.sdus_discarded), (2, 2));
    assert_eq!(b.next_event(), None);
}

#[test]
fn um_losing_a_middle_pdu_of_one_sdu_drops_only_that_sdu() {
    // 553-octet SDUs take 14 UMD PDUs (13 × 41 + 20 + LI): SDU 0 in SN 0-13, SDU 1 in
    // 14-27. Losing SN 5 drops SDU 0 only.
    let mut cfg = BearerConfig::default();
    cfg.rlc.mode = RlcMode::Um;
    let mut b = bearer(cfg, "000001", "");
    b.submit(ms(0), Side::Rnc, 0, 552);
    b.submit(ms(0), Side::Rnc, 1, 552);
    let out = step(&mut b, ms(100));
    assert_eq!(out.discarded, vec![(Side::Rnc, 0)]);
    assert_eq!(out.delivered, vec![(Side::Ue, 1)]);
    assert_eq!(b.stats().down.data_pdus, 28);
}

#[test]
fn error_free_delivery_takes_ceil_l_over_c_tti_ttis() {
    // lo-umts eq. (4): t = ⌈l / (C·TTI)⌉·TTI after the first boundary. A 553-octet SDU
    // (4424 bits) on 384 kb/s with 10 ms TTIs (3840 payload bits per TTI) takes 2 TTIs; a
    // 41-octet SDU (328 bits) on 64 kb/s with 20 ms TTIs (1280 bits) takes 1.
    let mut cfg = BearerConfig::default();
    cfg.rlc.poll = crate::umts::PollConfig::none();
    let mut b = bearer(cfg, "", "");
    b.submit(ms(0), Side::Rnc, 1, 552);
    b.submit(ms(0), Side::Ue, 2, 40);
    let out = step(&mut b, ms(19));
    assert!(out.delivered.is_empty());
    let out = step(&mut b, ms(20));
    assert_eq!(out.delivered, vec![(Side::Ue, 1), (Side::Rnc, 2)]);
    // Submitted between boundaries: the first boundary is 10 ms, delivery at 30 ms.
    b.submit(ms(23), Side::Rnc, 3, 552);
    let out = step(&mut b, ms(49));
    assert!(out.delivered.is_empty());
    let out = step(&mut b, ms(50));
    assert_eq!(out.delivered, vec![(Side::Ue, 3)]);
}

#[test]
fn iub_and_processing_delays_add_to_every_arrival() {
    let mut cfg = BearerConfig {
        iub_delay: ms(15),
        ..Default::default()
    };
    cfg.down.extra_delay = SimTime::from_micros(10);
    let mut b = bearer(cfg, "", "");
    b.submit(ms(0), Side::Rnc, 1, 40);
    assert_eq!(b.next_event(), Some(ms(0)));
    step(&mut b, ms(0));
    assert_eq!(b.next_event(), Some(SimTime::from_micros(25_010)));
    let out = step(&mut b, SimTime::from_micros(25_010));
    assert_eq!(out.delivered, vec![(Side::Ue, 1)]);
}

#[test]
fn the_sdu_buffer_limit_refuses_packets() {
    let mut cfg = BearerConfig::default();
    cfg.rlc.sdu_buffer_bytes = Some(1200);
    let mut b = bearer(cfg, "", "");
    assert!(b.submit(ms(0), Side::Rnc, 1, 552));
    assert!(b.submit(ms(0), Side::Rnc, 2, 552));
    assert!(!b.submit(ms(0), Side::Rnc, 3, 552));
    assert_eq!(b.buffered_sdus(), 2);
    let s = b.stats();
    assert_eq!((s.down.sdus_submitted, s.down.sdus_refused), (3, 1));
}
