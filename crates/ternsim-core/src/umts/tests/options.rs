//! The switchable RLC options: out-of-sequence delivery, Poll_PDU, Poll_SDU,
//! Timer_Poll_Prohibit and the estimated PDU counter.

use super::*;
use crate::umts::{PollConfig, StatusConfig};

#[test]
fn out_of_sequence_delivery_hands_up_a_complete_sdu_past_a_hole() {
    // SDU 0 in SN 0-13, SDU 1 in SN 14-27; SN 1 lost. SDU 1 is complete when SN 24-27
    // arrive at 30; SDU 0 waits for SN 1 (NACKed at 20, resent at 40, arrives at 50).
    let mut cfg = BearerConfig::default();
    cfg.rlc.in_sequence_delivery = false;
    let mut b = bearer(cfg, "01", "");
    b.submit(ms(0), Side::Rnc, 0, 552);
    b.submit(ms(0), Side::Rnc, 1, 552);
    let out = step(&mut b, ms(30));
    assert_eq!(out.delivered, vec![(Side::Ue, 1)]);
    let out = step(&mut b, ms(50));
    assert_eq!(out.delivered, vec![(Side::Ue, 0)]);
    // The in-order walk passes SDU 1 again without handing it up twice.
    let out = step(&mut b, ms(1000));
    assert!(out.delivered.is_empty());
    assert_eq!(am(&b, Side::Ue).receiver.vr_r(), 28);
    assert_eq!(b.buffered_sdus(), 0);
}

#[test]
fn poll_pdu_counts_every_pdu_and_poll_prohibit_merges_triggers() {
    // Poll_PDU = 4: VT(PDU) reaches 4 on SN 3, 7, 11, ... With Timer_Poll_Prohibit 20 ms
    // the poll on SN 3 starts it; the triggers on SN 7, 11, 15, 19, 23 give one poll when
    // it expires at 20, carried by SN 24; the triggers on 27, 31, 35 are held again.
    let mut cfg = BearerConfig::default();
    cfg.rlc.poll = PollConfig {
        poll_pdu: Some(4),
        timer_poll_prohibit: Some(ms(20)),
        ..PollConfig::none()
    };
    cfg.rlc.status = StatusConfig::none();
    let mut b = bearer(cfg, "", "");
    for id in 0..3 {
        b.submit(ms(0), Side::Rnc, id, 552);
    }
    let polls = |out: &BearerOutput| -> Vec<u64> {
        sent(out).iter().filter(|p| p.2).map(|p| p.0).collect()
    };
    assert_eq!(polls(&step(&mut b, ms(0))), vec![3]);
    assert_eq!(polls(&step(&mut b, ms(10))), Vec::<u64>::new());
    assert_eq!(polls(&step(&mut b, ms(20))), vec![24]);
    // Without the prohibit timer every fourth PDU polls.
    let mut cfg = BearerConfig::default();
    cfg.rlc.poll = PollConfig {
        poll_pdu: Some(4),
        ..PollConfig::none()
    };
    cfg.rlc.status = StatusConfig::none();
    let mut b = bearer(cfg, "", "");
    b.submit(ms(0), Side::Rnc, 0, 552);
    assert_eq!(polls(&step(&mut b, ms(0))), vec![3, 7, 11]);
}

#[test]
fn poll_sdu_polls_on_the_last_segment_of_every_nth_sdu() {
    // Poll_SDU = 2; 41-octet SDUs take 2 PDUs each: SDU k in SN 2k, 2k + 1. The 2nd and
    // 4th SDUs end in SN 3 and SN 7.
    let mut cfg = BearerConfig::default();
    cfg.rlc.poll = PollConfig {
        poll_sdu: Some(2),
        ..PollConfig::none()
    };
    let mut b = bearer(cfg, "", "");
    for id in 0..5 {
        b.submit(ms(0), Side::Rnc, id, 40);
    }
    let out = step(&mut b, ms(0));
    let polls: Vec<u64> = sent(&out).iter().filter(|p| p.2).map(|p| p.0).collect();
    assert_eq!(polls, vec![3, 7]);
}

#[test]
fn the_estimated_pdu_counter_asks_again_for_a_lost_retransmission() {
    // STATUS only on polls; Timer_EPC 30 ms. SN 1 is lost; the poll on SN 13 (last PDU)
    // brings a STATUS at 20 that asks for SN 1: VR(EP) = 1, counting from 50. The
    // retransmission sent at 40 is lost too; its (erroneous) TB arrives at 50 and counts
    // VR(EP) down to 0 with SN 1 still missing: a new STATUS at the next uplink boundary
    // (60), the retransmission at 80, delivery at 90. Without the EPC nothing would recover
    // it (no Timer_Poll).
    let mut cfg = BearerConfig::default();
    cfg.rlc.poll = PollConfig {
        last_tx_pdu: true,
        last_retx_pdu: true,
        ..PollConfig::none()
    };
    cfg.rlc.status = StatusConfig {
        timer_epc: Some(ms(30)),
        ..StatusConfig::none()
    };
    let mut b = bearer(cfg, "010000000000001", "");
    b.submit(ms(0), Side::Rnc, 0, 552);
    let out = step(&mut b, ms(59));
    assert_eq!(status_times(&out), vec![ms(20)]);
    assert_eq!(sent(&out).last(), Some(&(1, true, true)));
    let out = step(&mut b, ms(90));
    assert_eq!(status_times(&out), vec![ms(60)]);
    assert_eq!(out.delivered, vec![(Side::Ue, 0)]);
}
