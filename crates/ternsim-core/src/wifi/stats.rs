//! Counters per station (what the `mac` traces and summaries read).

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// MAC counters of one station.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct WifiStats {
    /// DATA frames put on the air (unicast and broadcast, retransmissions included).
    pub data_sent: u64,
    /// Of which retransmissions of a unicast frame.
    pub data_retransmitted: u64,
    /// IP bytes carried by the DATA frames sent.
    pub data_bytes: u64,
    pub rts_sent: u64,
    pub cts_sent: u64,
    pub ack_sent: u64,
    /// RTS sent without a CTS back in time (ns-2 `RTSFailureCount`).
    pub cts_timeouts: u64,
    /// Unicast DATA sent without an ACK back in time (ns-2 `ACKFailureCount`).
    pub ack_timeouts: u64,
    /// Times this station, as a receiver, saw two frames overlap without capture.
    pub collisions: u64,
    /// Frames that ended in error here (below RXThresh, or started while transmitting).
    pub rx_errors: u64,
    /// Frames the station's incoming error model lost (`WifiConfig::incoming_loss`; also
    /// counted in `rx_errors` when the model has no drop target). Left out of summaries
    /// while 0, so runs without the model report what they always did.
    #[serde(skip_serializing_if = "is_zero")]
    pub incoming_losses: u64,
    /// DATA frames discarded by the duplicate filter (their ACK was lost).
    pub duplicates: u64,
    /// Packets handed up to the node.
    pub delivered: u64,
    pub drops_ifq: u64,
    /// Packets given up after the retry limit (handed back as transmit failures).
    pub drops_retry_limit: u64,
    /// Retry-limit failures of a frame the addressee had already taken (only its ACKs were
    /// lost); routing is told all the same, with the sender's copy (ns-2).
    pub failures_after_delivery: u64,
    /// ARP requests put on the air (broadcast DATA frames of 28 octets, link-spec §3.5).
    pub arp_requests: u64,
    /// ARP replies put on the air (unicast, first transmissions).
    pub arp_replies: u64,
    /// Packets held by ARP and dropped because a newer packet for the same unresolved next
    /// hop replaced them (`arp_replaced`).
    pub arp_drops: u64,
    /// Packets handed back as transmit failures because their next hop did not answer
    /// three ARP requests.
    pub arp_failures: u64,
    /// Largest interface-queue length seen.
    pub ifq_max: u64,
}
