//! The transmission SDU buffer and segmentation into fixed-size PDU bodies
//! (TS 25.322 §11.2.2 for UM, §11.3.2 for AM; link-spec §1.3).
//!
//! What it owns: SDUs accepted from PDCP and not yet fully segmented, the octet count that
//! the buffer limit applies to, and the "previous PDU exactly filled" state that puts a
//! special LI at the head of the next PDU. A PDU body is built only when the MAC asks for
//! a PDU, so concatenation sees the SDUs waiting at that moment.
//!
//! Rules for one body of capacity C octets with LIs of L octets:
//! 1. A pending special LI ("0000000" or, with 15-bit LIs, "one octet short") comes first
//!    (§9.2.2.8).
//! 2. The head SDU's remaining r octets end in this PDU if r + L fit: copy them and add the
//!    LI `End(cumulative)`.
//! 3. Otherwise, if r equals the free space exactly, the SDU fills the PDU without an LI and
//!    the next PDU starts with "0000000"; with 15-bit LIs, if r is one octet short, the
//!    last octet is ignored and the next PDU starts with the "one short" LI.
//! 4. Otherwise the SDU fills the rest of the PDU and continues in the next one.
//! 5. After an SDU ends: with concatenation on and at least `min_concat_octets` free, the
//!    next SDU starts here (rules 2-4 again); otherwise the rest is padding, announced by
//!    the padding LI "1111111" when an LI still fits (§9.2.2.8, §9.2.2.9).

use std::collections::VecDeque;

use super::pdu::{Li, PduBody, Segment};
use super::SduId;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct QueuedSdu {
    id: SduId,
    bytes: u32,
    /// Octets already segmented into earlier PDUs.
    sent: u32,
}

/// How the data field is laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Data-field octets (LIs included).
    pub capacity: u32,
    /// Octets per LI+E: 1 or 2.
    pub li_octets: u32,
    pub concatenation: bool,
    pub min_concat_octets: u32,
    /// Generate the "exactly filled" / "one short" special LIs.
    pub exact_fill_li: bool,
}

/// SDUs waiting for first segmentation.
#[derive(Clone, Debug)]
pub struct SduBuffer {
    layout: Layout,
    queue: VecDeque<QueuedSdu>,
    /// Octets not yet segmented.
    bytes: u64,
    limit: Option<u64>,
    pending_li: Option<Li>,
}

impl SduBuffer {
    pub fn new(layout: Layout, limit: Option<u64>) -> Self {
        SduBuffer {
            layout,
            queue: VecDeque::new(),
            bytes: 0,
            limit,
            pending_li: None,
        }
    }

    /// Accepts an SDU unless it would push the buffer over its limit.
    pub fn push(&mut self, id: SduId, bytes: u32) -> bool {
        if let Some(limit) = self.limit {
            if self.bytes + u64::from(bytes) > limit {
                return false;
            }
        }
        self.queue.push_back(QueuedSdu { id, bytes, sent: 0 });
        self.bytes += u64::from(bytes);
        true
    }

    /// Octets waiting for segmentation.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// SDUs with octets waiting.
    pub fn len(&self) -> usize {
        self.queue.len()
    }

    /// True if no PDU can be built: no octets wait and no special LI is pending.
    pub fn is_empty(&self) -> bool {
        self.queue.is_empty() && self.pending_li.is_none()
    }

    /// The SDU whose next octet would be segmented, with the octets already segmented.
    pub fn head(&self) -> Option<(SduId, u32)> {
        self.queue.front().map(|q| (q.id, q.sent))
    }

    /// Drops the rest of SDU `id` if it is the partly segmented head (SDU discard, §11.3.4.3)
    /// and any special LI pending for it. Returns whether octets were dropped.
    pub fn drop_partial_head(&mut self, id: SduId) -> bool {
        match self.queue.front() {
            Some(q) if q.id == id && q.sent > 0 => {
                self.bytes -= u64::from(q.bytes - q.sent);
                self.queue.pop_front();
                self.pending_li = None;
                true
            }
            _ => false,
        }
    }

    /// Forgets a pending special LI (its SDU was discarded).
    pub fn clear_pending_li(&mut self) {
        self.pending_li = None;
    }

    /// Builds the next PDU body, or None if nothing waits.
    pub fn next_body(&mut self) -> Option<PduBody> {
        if self.is_empty() {
            return None;
        }
        let l = self.layout.li_octets;
        let mut space = self.layout.capacity;
        let mut body = PduBody::default();
        let mut cumulative = 0;
        // Rule 1.
        if let Some(li) = self.pending_li.take() {
            body.lis.push(li);
            space -= l;
        }
        while let Some(head) = self.queue.front_mut() {
            let remaining = head.bytes - head.sent;
            let first = head.sent == 0;
            if remaining + l <= space {
                // Rule 2: the SDU ends here with an LI.
                body.segments.push(Segment {
                    sdu: head.id,
                    bytes: remaining,
                    first,
                    last: true,
                });
                cumulative += remaining;
                body.lis.push(Li::End(cumulative));
                space -= remaining + l;
                self.bytes -= u64::from(remaining);
                self.queue.pop_front();
                // Rule 5.
                let more = !self.queue.is_empty();
                if !(self.layout.concatenation
                    && more
                    && space >= self.layout.min_concat_octets.max(1))
                {
                    break;
                }
            } else if remaining == space || (l == 2 && remaining + 1 == space) {
                // Rule 3: exactly filled (or one octet short with 15-bit LIs), no LI fits.
                body.segments.push(Segment {
                    sdu: head.id,
                    bytes: remaining,
                    first,
                    last: true,
                });
                self.bytes -= u64::from(remaining);
                self.queue.pop_front();
                if self.layout.exact_fill_li {
                    self.pending_li = Some(if remaining == space {
                        Li::ExactFill
                    } else {
                        Li::OneShort
                    });
                }
                body.padding = space - remaining;
                return Some(body);
            } else {
                // Rule 4: fill the PDU, continue in the next.
                body.segments.push(Segment {
                    sdu: head.id,
                    bytes: space,
                    first,
                    last: false,
                });
                head.sent += space;
                self.bytes -= u64::from(space);
                return Some(body);
            }
        }
        // Rule 5: padding, announced by an LI when one fits.
        if space >= l {
            body.lis.push(Li::Padding);
            space -= l;
        }
        body.padding = space;
        Some(body)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn buffer(capacity: u32, li_octets: u32, concatenation: bool) -> SduBuffer {
        SduBuffer::new(
            Layout {
                capacity,
                li_octets,
                concatenation,
                min_concat_octets: 1,
                exact_fill_li: true,
            },
            None,
        )
    }

    fn all_bodies(b: &mut SduBuffer) -> Vec<PduBody> {
        std::iter::from_fn(|| b.next_body()).collect()
    }

    #[test]
    fn a_553_octet_sdu_takes_14_pdus_the_last_with_33_octets() {
        // lo-umts Fig. 4: 552-octet IP packet + 1 PDCP octet over 40-octet data fields.
        let mut b = buffer(40, 1, false);
        assert!(b.push(1, 553));
        let bodies = all_bodies(&mut b);
        assert_eq!(bodies.len(), 14);
        for (i, body) in bodies[..13].iter().enumerate() {
            assert_eq!(
                body.segments,
                vec![Segment {
                    sdu: 1,
                    bytes: 40,
                    first: i == 0,
                    last: false
                }]
            );
            assert!(body.lis.is_empty());
            assert_eq!(body.padding, 0);
        }
        let last = &bodies[13];
        assert_eq!(
            last.segments,
            vec![Segment {
                sdu: 1,
                bytes: 33,
                first: false,
                last: true
            }]
        );
        // 33 data octets + LI(33) + padding LI + 5 padding octets = 40.
        assert_eq!(last.lis, vec![Li::End(33), Li::Padding]);
        assert_eq!(last.padding, 5);
        assert_eq!(b.bytes(), 0);
        assert!(b.is_empty());
    }

    #[test]
    fn a_41_octet_ack_takes_two_pdus() {
        // 40-octet TCP ACK + 1 PDCP octet.
        let mut b = buffer(40, 1, false);
        b.push(7, 41);
        let bodies = all_bodies(&mut b);
        assert_eq!(bodies.len(), 2);
        assert_eq!(bodies[0].data_bytes(), 40);
        assert!(bodies[0].lis.is_empty());
        assert_eq!(bodies[1].data_bytes(), 1);
        assert_eq!(bodies[1].lis, vec![Li::End(1), Li::Padding]);
        assert_eq!(bodies[1].padding, 37);
    }

    #[test]
    fn an_exactly_filling_sdu_puts_li_zero_in_the_next_pdu() {
        let mut b = buffer(40, 1, false);
        b.push(1, 80);
        let bodies = all_bodies(&mut b);
        assert_eq!(bodies.len(), 3);
        assert!(bodies[1].segments[0].last);
        assert!(bodies[1].lis.is_empty());
        assert_eq!(bodies[2].segments, vec![]);
        assert_eq!(bodies[2].lis, vec![Li::ExactFill, Li::Padding]);
        assert_eq!(bodies[2].padding, 38);
        // With a following SDU the special LI leads that SDU's first PDU.
        let mut b = buffer(40, 1, false);
        b.push(1, 40);
        b.push(2, 10);
        let bodies = all_bodies(&mut b);
        assert_eq!(bodies.len(), 2);
        assert_eq!(bodies[1].lis, vec![Li::ExactFill, Li::End(10), Li::Padding]);
        assert_eq!(bodies[1].padding, 27); // 40 - 3 LIs - 10 data
                                           // EURANE style: no special LI, no extra PDU.
        let mut b = buffer(40, 1, false);
        b.layout.exact_fill_li = false;
        b.push(1, 80);
        assert_eq!(all_bodies(&mut b).len(), 2);
    }

    #[test]
    fn fifteen_bit_lis_cost_two_octets_and_know_one_short() {
        // 200-octet data field, 2-octet LIs: a 199-octet SDU cannot end with an LI (201 >
        // 200), so it leaves one octet unused and the next PDU starts with the "one short" LI.
        let mut b = buffer(200, 2, false);
        b.push(1, 199);
        let bodies = all_bodies(&mut b);
        assert_eq!(bodies.len(), 2);
        assert_eq!(bodies[0].padding, 1);
        assert!(bodies[0].lis.is_empty());
        assert_eq!(bodies[1].lis, vec![Li::OneShort, Li::Padding]);
        assert_eq!(bodies[1].padding, 196);
        // 100 octets end with an LI of 2 octets: 100 + 2 + padding LI 2 + 96.
        let mut b = buffer(200, 2, false);
        b.push(2, 100);
        let body = b.next_body().unwrap();
        assert_eq!(body.lis, vec![Li::End(100), Li::Padding]);
        assert_eq!(body.padding, 96);
    }

    #[test]
    fn concatenation_starts_the_next_sdu_in_the_free_space() {
        let mut b = buffer(40, 1, true);
        b.push(1, 30);
        b.push(2, 20);
        b.push(3, 5);
        let bodies = all_bodies(&mut b);
        assert_eq!(bodies.len(), 2);
        // PDU 1: SDU 1 (30) + LI, then 9 octets of SDU 2 without LI.
        assert_eq!(
            bodies[0].segments,
            vec![
                Segment {
                    sdu: 1,
                    bytes: 30,
                    first: true,
                    last: true
                },
                Segment {
                    sdu: 2,
                    bytes: 9,
                    first: true,
                    last: false
                },
            ]
        );
        assert_eq!(bodies[0].lis, vec![Li::End(30)]);
        assert_eq!(bodies[0].padding, 0);
        // PDU 2: rest of SDU 2 (11) + LI(11), SDU 3 (5) + LI(16), padding LI, 21 padding.
        assert_eq!(bodies[1].lis, vec![Li::End(11), Li::End(16), Li::Padding]);
        assert_eq!(bodies[1].padding, 21);
        assert_eq!(bodies[1].data_bytes(), 16);
        // Without concatenation the same SDUs take 3 PDUs.
        let mut b = buffer(40, 1, false);
        b.push(1, 30);
        b.push(2, 20);
        b.push(3, 5);
        assert_eq!(all_bodies(&mut b).len(), 3);
    }

    #[test]
    fn the_buffer_limit_refuses_what_does_not_fit() {
        let mut b = SduBuffer::new(
            Layout {
                capacity: 40,
                li_octets: 1,
                concatenation: false,
                min_concat_octets: 1,
                exact_fill_li: true,
            },
            Some(1000),
        );
        assert!(b.push(1, 553));
        assert!(!b.push(2, 553));
        assert!(b.push(3, 447));
        assert_eq!(b.bytes(), 1000);
        b.next_body();
        assert_eq!(b.bytes(), 960);
        assert!(b.push(4, 40));
    }
}
