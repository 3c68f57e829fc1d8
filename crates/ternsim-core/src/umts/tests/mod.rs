//! Scripted exchanges through a whole [`RadioBearer`]: the host's view, with scripted
//! transport-block errors (an `ErrorModel::Trace` per direction, one outcome per TB in
//! transmission order, "1" = lost, error-free after the script ends).

mod am;
mod options;
mod throughput;
mod um_timing;

use crate::channel::{ErrorModel, TraceEnd, TraceErrors};
use crate::sim::{RandomStream, SimTime};
use crate::umts::am::AmEntity;
use crate::umts::{BearerConfig, BearerEvent, BearerOutput, RadioBearer, Side};

pub(super) fn ms(x: u64) -> SimTime {
    SimTime::from_millis(x)
}

pub(super) fn script(pattern: &str) -> ErrorModel {
    if pattern.is_empty() {
        ErrorModel::None
    } else {
        ErrorModel::Trace(TraceErrors::from_text(pattern, TraceEnd::Stop).unwrap())
    }
}

/// A bearer with scripted errors on the downlink and uplink.
pub(super) fn bearer(cfg: BearerConfig, down: &str, up: &str) -> RadioBearer {
    cfg.validate().unwrap();
    RadioBearer::new(
        cfg,
        script(down),
        script(up),
        RandomStream::from_seed_u64(1),
        RandomStream::from_seed_u64(2),
    )
}

/// Advances to `t` and returns what came out.
pub(super) fn step(b: &mut RadioBearer, t: SimTime) -> BearerOutput {
    let mut out = BearerOutput {
        trace: true,
        ..Default::default()
    };
    b.advance(t, &mut out);
    out
}

pub(super) fn am(b: &RadioBearer, side: Side) -> &AmEntity {
    b.entity(side).am().unwrap()
}

/// (sn, retransmission, poll) of the data PDUs sent in `out`.
pub(super) fn sent(out: &BearerOutput) -> Vec<(u64, bool, bool)> {
    out.events
        .iter()
        .filter_map(|(_, e)| match e {
            BearerEvent::PduSent {
                sn,
                retransmission,
                poll,
                ..
            } => Some((*sn, *retransmission, *poll)),
            _ => None,
        })
        .collect()
}

/// Times of StatusSent events in `out`.
pub(super) fn status_times(out: &BearerOutput) -> Vec<SimTime> {
    out.events
        .iter()
        .filter(|(_, e)| matches!(e, BearerEvent::StatusSent { .. }))
        .map(|(t, _)| *t)
        .collect()
}
