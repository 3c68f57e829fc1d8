//! The world's side of the UMTS radio bearers: packets enter a bearer as SDUs, wait here
//! while the bearer carries their segments, and leave at the far side when the bearer
//! delivers them (or are dropped when it discards them).

use super::{Event, World};
use crate::net::packet::DropReason;
use crate::sim::SimTime;
use crate::trace::Cell;
use crate::umts::{BearerEvent, Direction, Side};

impl World {
    pub(super) fn arm_bearer(&mut self, b: usize) {
        let br = &mut self.bearers[b];
        br.wake.request(
            &mut self.sched,
            br.bearer.next_event(),
            Event::BearerWake(b as u32),
        );
    }

    pub(super) fn on_bearer_wake(&mut self, now: SimTime, b: usize) {
        let br = &mut self.bearers[b];
        br.wake.fired(now);
        if br.bearer.next_event().is_none_or(|t| t > now) {
            self.arm_bearer(b);
            return;
        }
        let mut out = std::mem::take(&mut self.bearer_out);
        out.clear();
        br.bearer.advance(now, &mut out);
        for (at, e) in &out.events {
            self.trace_bearer_event(*at, b, e);
        }
        for &(side, id) in &out.discarded {
            if let Some((packet, _)) = self.bearers[b].sdus.remove(&id) {
                let _ = side;
                self.drop_packet(now, None, packet, DropReason::RlcDiscard);
            }
        }
        let delivered = std::mem::take(&mut out.delivered);
        self.bearer_out = out;
        for &(side, id) in &delivered {
            let br = &mut self.bearers[b];
            let Some((packet, entered)) = br.sdus.remove(&id) else {
                continue;
            };
            let delay = (now - entered).as_secs_f64();
            let (node, dir) = match side {
                Side::Ue => (br.ue, 0),
                Side::Rnc => (br.rnc, 1),
            };
            br.sdu_delay[dir].add(delay);
            if let Some(t) = self.traces.sdu_delay.as_mut() {
                t.push(&[
                    Cell::F(now.as_secs_f64()),
                    Cell::I(b as i64),
                    Cell::S(if dir == 0 { "downlink" } else { "uplink" }),
                    Cell::I(i64::from(packet.size)),
                    Cell::F(delay),
                ]);
            }
            self.receive(now, node, packet);
        }
        self.bearer_out.delivered = delivered;
        self.arm_bearer(b);
    }

    fn trace_bearer_event(&mut self, at: SimTime, b: usize, e: &BearerEvent) {
        let t = at.as_secs_f64();
        let bi = b as i64;
        let dir_name = |d: Direction| match d {
            Direction::Down => "downlink",
            Direction::Up => "uplink",
        };
        let side_name = |s: Side| match s {
            Side::Rnc => "rnc",
            Side::Ue => "ue",
        };
        if let (BearerEvent::BufferOccupancy { side, bytes }, Some(tb)) =
            (e, self.traces.rlc_buffer.as_mut())
        {
            tb.push(&[
                Cell::F(t),
                Cell::I(bi),
                Cell::S(side_name(*side)),
                Cell::I(*bytes as i64),
            ]);
            return;
        }
        let Some(tb) = self.traces.rlc.as_mut() else {
            return;
        };
        // (direction, event, sn, retransmission, poll, nacks)
        let row: (&str, &str, i64, bool, bool, i64) = match e {
            BearerEvent::PduSent {
                dir,
                sn,
                retransmission,
                poll,
            } => (dir_name(*dir), "pdu", *sn as i64, *retransmission, *poll, 0),
            BearerEvent::StatusSent { dir, status } => (
                dir_name(*dir),
                "status_sent",
                status.lsn.map_or(-1, |s| s as i64),
                false,
                false,
                status.nacks.len() as i64,
            ),
            BearerEvent::StatusReceived { dir, status } => (
                dir_name(*dir),
                "status_received",
                status.lsn.map_or(-1, |s| s as i64),
                false,
                false,
                status.nacks.len() as i64,
            ),
            BearerEvent::BlockError { dir, sn } => (
                dir_name(*dir),
                "block_error",
                sn.map_or(-1, |s| s as i64),
                false,
                false,
                0,
            ),
            BearerEvent::PollTimerExpired { side } => (
                dir_name(side.tx_direction()),
                "poll_timer_expired",
                -1,
                false,
                false,
                0,
            ),
            BearerEvent::SduDiscarded { side, sdu } => (
                dir_name(side.tx_direction()),
                "sdu_discarded",
                *sdu as i64,
                false,
                false,
                0,
            ),
            BearerEvent::BufferOccupancy { .. } => return,
        };
        tb.push(&[
            Cell::F(t),
            Cell::I(bi),
            Cell::S(row.0),
            Cell::S(row.1),
            Cell::I(row.2),
            Cell::B(row.3),
            Cell::B(row.4),
            Cell::I(row.5),
        ]);
    }
}
