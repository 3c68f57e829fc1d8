//! ns-2's ping agent (`Agent/Ping`, ns-2.35 `apps/ping.cc`, from Marc Greis's tutorial): an
//! echo request carries the time it was sent; the agent it reaches answers with a reply
//! carrying that time, the request's sequence number and the time the request arrived; the
//! reply's arrival gives the round-trip time and, with the arrival time the reply carries,
//! the two one-way delays (ns-2's `oneway` mode).
//!
//! Times are exact seconds (the doubles of ns-2's clock): ns-2 prints the round-trip time as
//! `(now - send_time) * 1000` with `%3.1f`, so a host that formats the same difference of the
//! same doubles prints what ns-2 prints.

/// An echo request or reply on the wire (ns-2 `hdr_ping`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Echo {
    /// A reply (ns-2 `ret` = 1) or a request (`ret` = 0).
    pub reply: bool,
    /// The request's number at its sender, from 0 (ns-2 `seq`); a reply repeats it.
    pub seq: u32,
    /// When the request left its sender, in seconds; a reply repeats it.
    pub sent_at: f64,
    /// A reply's: when the request reached the replier, in seconds (0 in a request).
    pub received_at: f64,
}

impl Echo {
    /// What the arrival of this reply at `now` (seconds) measured.
    pub fn result(&self, now: f64) -> PingResult {
        PingResult {
            seq: self.seq,
            rtt_s: now - self.sent_at,
            forward_s: self.received_at - self.sent_at,
            reverse_s: now - self.received_at,
        }
    }
}

/// One answered ping, as its sender measures it when the reply arrives.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PingResult {
    pub seq: u32,
    /// Round-trip time: arrival of the reply less the request's send time.
    pub rtt_s: f64,
    /// Request's one-way delay (replier's arrival time less send time).
    pub forward_s: f64,
    /// Reply's one-way delay (arrival less the replier's arrival time); both one-way delays
    /// assume the two clocks agree, as they do in a simulator.
    pub reverse_s: f64,
}

/// One end of a ping pair: numbers its requests and answers the other end's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PingAgent {
    /// Bytes of each packet it sends, request or reply (ns-2 `packetSize_`, default 64).
    pub packet_size: u32,
    next_seq: u32,
}

impl PingAgent {
    pub fn new(packet_size: u32) -> Self {
        PingAgent {
            packet_size,
            next_seq: 0,
        }
    }

    /// A new echo request sent at `now` (seconds).
    pub fn request(&mut self, now: f64) -> Echo {
        let seq = self.next_seq;
        self.next_seq += 1;
        Echo {
            reply: false,
            seq,
            sent_at: now,
            received_at: 0.0,
        }
    }

    /// The reply to `request`, which arrived at `now` (seconds). ns-2 makes the reply a new
    /// packet of this agent's own size.
    pub fn reply_to(&self, request: &Echo, now: f64) -> Echo {
        Echo {
            reply: true,
            seq: request.seq,
            sent_at: request.sent_at,
            received_at: now,
        }
    }

    /// Requests sent so far.
    pub fn requests_sent(&self) -> u32 {
        self.next_seq
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_are_numbered_from_zero_and_carry_their_send_time() {
        let mut a = PingAgent::new(64);
        let r0 = a.request(0.2);
        let r1 = a.request(0.6);
        assert_eq!((r0.seq, r0.sent_at, r0.reply), (0, 0.2, false));
        assert_eq!((r1.seq, r1.sent_at), (1, 0.6));
        assert_eq!(a.requests_sent(), 2);
    }

    #[test]
    fn a_reply_repeats_the_request_and_adds_its_arrival() {
        let mut a = PingAgent::new(64);
        let b = PingAgent::new(100);
        let req = a.request(0.2);
        let rep = b.reply_to(&req, 0.221024);
        assert_eq!(
            rep,
            Echo {
                reply: true,
                seq: 0,
                sent_at: 0.2,
                received_at: 0.221024
            }
        );
        // The replier's agent answers without numbering anything of its own.
        assert_eq!(b.requests_sent(), 0);
    }

    /// Greis's `ping` test, ns-2's reference run: two 1 Mb/s, 10 ms links; a 64-byte packet
    /// takes 0.512 ms to send and 10 ms to cross, so 10.512 ms per link, four links there
    /// and back: 42.048 ms, which ns-2 prints as `42.0`.
    #[test]
    fn round_trip_over_two_links_each_way() {
        let per_link = 64.0 * 8.0 / 1e6 + 0.010;
        let mut a = PingAgent::new(64);
        let b = PingAgent::new(64);
        let req = a.request(0.2);
        let at_b = 0.2 + 2.0 * per_link;
        let rep = b.reply_to(&req, at_b);
        let res = rep.result(at_b + 2.0 * per_link);
        assert!((res.rtt_s - 0.042048).abs() < 1e-12);
        assert!((res.forward_s - 0.021024).abs() < 1e-12);
        assert!((res.reverse_s - 0.021024).abs() < 1e-12);
        assert_eq!(format!("{:3.1}", res.rtt_s * 1000.0), "42.0");
    }
}
