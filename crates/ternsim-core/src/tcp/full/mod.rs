//! ns-2.35's two-way TCP, `Agent/TCP/FullTcp` and its `/Tahoe`, `/Newreno` and `/Sack`
//! variants (ns-2 `tcp/tcp-full.cc`): one agent that is both sender and receiver, with the
//! 3-way handshake, byte sequence numbers, a reassembly queue, delayed ACKs and FIN/close
//! states.
//!
//! What it owns: the connection state (`state_`, `flags_`), the send side (`t_seqno_`,
//! `maxseq_`, `highest_ack_`, `curseq_`, cwnd, ssthresh, duplicate-ACK and recovery marks;
//! for Sack the scoreboard, `h_seqno_`, `pipe_`), the receive side (`rcv_nxt_`, the
//! reassembly queue in [`queue`], the delayed-ACK timer) and the RTO estimator, which is
//! ternsim's `RtoEstimator`: ns-2's FullTcp inherits `TcpAgent`'s `rtt_update`,
//! `rtt_timeout` and `rtt_backoff` unchanged.
//!
//! ECN (RFC 3168) as ns-2.35's FullTcp models it, with `ecn_`: the ECN-setup SYN (ECE and
//! CWR) and SYN/ACK (ECE), data ECN-capable once both ends agreed (`ect_`), a CE mark echoed
//! on every segment until the peer's CWR (`recent_ce_`), an ECN-Echo ACK halving the window
//! once per window of data (`TcpAgent::ecn`), and `ecn_syn_` / `ecn_syn_wait_` for a
//! CE-marked SYN/ACK (window of 1 or 2, a wait of one RTT, or a new SYN/ACK).
//!
//! What it does not model (the front end refuses them): DCTCP, the timestamp
//! option, `pipectrl_` set by a script, the random send overhead, `signal_on_empty_`,
//! Sack's hole-fill thresholds other than ns-2's defaults (the rule is here, the scenario
//! does not expose it).
//!
//! Like the one-way agents it is sans-IO: the host hands it `now` and a segment (or a timer
//! expiry, or the application's bytes) and it answers with the segments to send in a
//! [`FullOutput`], and the times it next wants to be woken ([`FullTcpAgent::next_timer`]).
//! Sequence numbers, windows and flags keep ns-2's names; each step cites the
//! `FullTcpAgent` function it follows.

mod queue;
pub mod segment;
#[cfg(test)]
mod tests;

pub use segment::{FullOutput, FullSegment, TH_ACK, TH_CWR, TH_ECE, TH_FIN, TH_PUSH, TH_SYN};

use queue::ReassemblyQueue;
use segment::MAX_SACK_BLOCKS;

use super::config::RtoConfig;
use super::output::Ns2EventKind;
use super::rto::RtoEstimator;
use super::segment::EcnFlags;
use crate::sim::SimTime;

/// The FullTcp classes ternsim models.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FullVariant {
    /// `Agent/TCP/FullTcp`: Reno fast recovery as 4.4BSD does it.
    Reno,
    /// `Agent/TCP/FullTcp/Tahoe`: a slow start instead of fast recovery.
    Tahoe,
    /// `Agent/TCP/FullTcp/Newreno`: partial ACKs retransmit and stay in recovery.
    NewReno,
    /// `Agent/TCP/FullTcp/Sack`: SACK blocks from the receiver's queue, a scoreboard and
    /// pipe-controlled hole filling at the sender.
    Sack,
}

/// Parameters, with ns-2.35's names in the comments (ns-default.tcl defaults in
/// [`FullTcpConfig::ns2_defaults`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FullTcpConfig {
    pub variant: FullVariant,
    /// `segsize_`: payload bytes per segment (ns-2 `maxseg_`).
    pub segsize: u32,
    /// `tcpip_base_hdr_size_`.
    pub header_size: u32,
    /// `window_` (ns-2 `wnd_`), in segments.
    pub window: u32,
    /// `windowInit_`.
    pub window_init: u32,
    /// `windowInitOption_` 2: the initial window from the packet size instead of
    /// `windowInit_` (ns-2 `TcpAgent::initial_window`; FullTcp's `size_` is `segsize_` plus
    /// the header once it has sent anything).
    pub window_init_by_size: bool,
    /// `maxburst_` (0: no limit).
    pub max_burst: u32,
    /// `maxcwnd_` (0: no limit).
    pub max_cwnd: u32,
    /// `precisionReduce_`.
    pub precision_reduce: bool,
    /// `bugFix_`.
    pub bug_fix: bool,
    /// `delay_growth_`.
    pub delay_growth: bool,
    /// `slow_start_restart_`.
    pub slow_start_restart: bool,
    /// `restart_bugfix_`.
    pub restart_bugfix: bool,
    /// `tcprexmtthresh_`.
    pub dupack_threshold: u32,
    /// `segsperack_`.
    pub segs_per_ack: u32,
    /// `spa_thresh_` (bytes; 0: off).
    pub spa_thresh: i64,
    /// `interval_`: the delayed-ACK timer.
    pub delack_interval: SimTime,
    /// `nodelay_`: no sender-side Nagle.
    pub nodelay: bool,
    /// `data_on_syn_`.
    pub data_on_syn: bool,
    /// `dupseg_fix_`.
    pub dupseg_fix: bool,
    /// `dupack_reset_`.
    pub dupack_reset: bool,
    /// `halfclose_`.
    pub halfclose: bool,
    /// `nopredict_`.
    pub nopredict: bool,
    /// `iss_`.
    pub iss: i64,
    /// `reno_fastrecov_` (Tahoe: false).
    pub reno_fastrecov: bool,
    /// `open_cwnd_on_pack_` (NewReno: false).
    pub open_cwnd_on_pack: bool,
    /// NewReno's `recov_maxburst_`.
    pub recov_maxburst: u32,
    /// Sack: `max_sack_blocks_` (at most [`MAX_SACK_BLOCKS`]), `sack_block_size_`,
    /// `sack_option_size_` (bytes), `clear_on_timeout_`, and the hole-fill rule
    /// (`sack_rtx_threshmode_`, `sack_rtx_cthresh_`, `sack_rtx_bthresh_`).
    pub max_sack_blocks: u32,
    pub sack_block_size: u32,
    pub sack_option_size: u32,
    pub clear_on_timeout: bool,
    pub sack_rtx_threshmode: u32,
    pub sack_rtx_cthresh: i64,
    pub sack_rtx_bthresh: i64,
    /// `ecn_`: RFC 3168 ECN, negotiated on the SYN exchange.
    pub ecn: bool,
    /// `ecn_syn_`: the SYN/ACK is ECN-capable (`ect`) when the SYN asked for ECN.
    pub ecn_syn: bool,
    /// `ecn_syn_wait_`: what the passive opener does when its SYN/ACK comes back marked: 0
    /// a window of 2 then halved (1), 1 a window of 1 halved and a wait of one RTT, 2 a new
    /// (not ECN-capable) SYN/ACK and an initial window of 1.
    pub ecn_syn_wait: u32,
    /// `timestamps_`: the timestamp option (RFC 7323 as ns-2's FullTcp runs it): each
    /// segment carries its send time and the peer's `recent_`, `ts_option_size` more header
    /// bytes; every new ACK gives an RTT sample, rounded to the nearest tick.
    pub timestamps: bool,
    /// `ts_option_size_` (bytes, 10).
    pub ts_option_size: u32,
    pub rto: RtoConfig,
}

impl FullTcpConfig {
    /// ns-2.35's defaults for `variant` (ns-default.tcl), with `rto` the `Agent/TCP` ones.
    pub fn ns2_defaults(variant: FullVariant, rto: RtoConfig) -> Self {
        FullTcpConfig {
            variant,
            segsize: 536,
            header_size: 40,
            window: 20,
            window_init: 2,
            window_init_by_size: false,
            max_burst: 0,
            max_cwnd: 0,
            precision_reduce: true,
            bug_fix: true,
            delay_growth: true,
            slow_start_restart: true,
            restart_bugfix: true,
            dupack_threshold: 3,
            segs_per_ack: 1,
            spa_thresh: 0,
            delack_interval: SimTime::from_millis(100),
            nodelay: false,
            data_on_syn: false,
            dupseg_fix: true,
            dupack_reset: false,
            halfclose: false,
            nopredict: false,
            iss: 0,
            reno_fastrecov: !matches!(variant, FullVariant::Tahoe | FullVariant::Sack),
            open_cwnd_on_pack: !matches!(variant, FullVariant::NewReno | FullVariant::Sack),
            recov_maxburst: 2,
            max_sack_blocks: 3,
            sack_block_size: 8,
            sack_option_size: 2,
            clear_on_timeout: true,
            sack_rtx_threshmode: 1,
            sack_rtx_cthresh: 1,
            sack_rtx_bthresh: 1,
            ecn: false,
            ecn_syn: false,
            ecn_syn_wait: 0,
            timestamps: false,
            ts_option_size: 10,
            rto,
        }
    }
}

/// Connection states (ns-2 `TCPS_*`, 4.4BSD `tcp_fsm.h`; no TIME_WAIT in the simulator).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum State {
    Closed = 0,
    Listen = 1,
    SynSent = 2,
    SynReceived = 3,
    Established = 4,
    CloseWait = 5,
    FinWait1 = 6,
    Closing = 7,
    LastAck = 8,
    FinWait2 = 9,
}

impl State {
    /// ns-2 `TCPS_HAVERCVDFIN`.
    fn have_received_fin(self) -> bool {
        matches!(self, State::Closing | State::Closed | State::CloseWait)
    }
    /// ns-2 `TCPS_HAVERCVDSYN`.
    fn have_received_syn(self) -> bool {
        self >= State::SynReceived
    }
    /// The header flags the state puts on an outgoing segment (ns-2 `outflags`, BSD
    /// `tcp_outflags`).
    fn outflags(self) -> u8 {
        match self {
            State::Closed => TH_ACK,
            State::Listen => 0,
            State::SynSent => TH_SYN,
            State::SynReceived => TH_SYN | TH_ACK,
            State::Established | State::CloseWait | State::FinWait2 => TH_ACK,
            State::FinWait1 | State::Closing | State::LastAck => TH_FIN | TH_ACK,
        }
    }
}

// ns-2 `flags_` bits (tcp-full.h).
const TF_ACKNOW: u32 = 0x0001;
const TF_DELACK: u32 = 0x0002;
const TF_NEEDFIN: u32 = 0x0800;
const TF_NEEDCLOSE: u32 = 0x10000;

/// ns-2 `TCP_MAXSEQ`: what an infinite send offers.
const TCP_MAXSEQ: i64 = 1_073_741_824;

/// ns-2 `last_cwnd_action_` values FullTcp sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CwndAction {
    None,
    DupAck,
    Timeout,
    /// `CWND_ACTION_ECN`: the window was cut for an ECN-Echo.
    Ecn,
}

/// ns-2 `slowdown(how)` flags FullTcp uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Slowdown {
    /// `CLOSE_SSTHRESH_HALF | CLOSE_CWND_HALF` (Reno fast retransmit).
    HalveBoth,
    /// `CLOSE_SSTHRESH_HALF | CLOSE_CWND_ONE` (Tahoe fast retransmit).
    HalveSsthreshCwndOne,
    /// `CLOSE_SSTHRESH_HALF | CLOSE_CWND_RESTART` (timeout).
    HalveSsthreshRestart,
    /// `CLOSE_CWND_INIT` (slow-start restart after idle).
    CwndInit,
    /// `CLOSE_CWND_HALF` alone (Reno's fast retransmit in a window an ECN-Echo cut).
    CwndHalf,
    /// `CLOSE_CWND_ONE` alone (a timeout, or Tahoe's fast retransmit, in a window an
    /// ECN-Echo cut).
    CwndOne,
}

/// Counters a script may read (`ndatapack_`, ...) and the run summary uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FullStats {
    pub data_packets: u64,
    pub data_bytes: u64,
    pub ack_packets: u64,
    pub rexmit_packets: u64,
    pub rexmit_bytes: u64,
    /// Retransmission timeouts (ns-2 `nrexmit_`).
    pub timeouts: u64,
    pub fast_retransmits: u64,
}

/// Why a segment is sent (ns-2 `REASON_*`): only the counters read it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reason {
    Normal,
    Timeout,
    DupAck,
}

/// A segment as it arrived, which the receive path trims (ns-2 edits the header in place).
#[derive(Clone, Copy, Debug)]
struct Arrival {
    seq: i64,
    ack: i64,
    flags: u8,
    datalen: i64,
}

/// One FullTcp endpoint.
#[derive(Clone, Debug)]
pub struct FullTcpAgent {
    cfg: FullTcpConfig,
    state: State,
    last_state: State,
    flags: u32,
    /// `type_` is PT_ACK (the agent listened).
    listener: bool,
    // Send side.
    t_seqno: i64,
    maxseq: i64,
    highest_ack: i64,
    curseq: i64,
    infinite_send: bool,
    close_on_empty: bool,
    cwnd: f64,
    ssthresh: i64,
    dupacks: u32,
    recover: i64,
    last_cwnd_action: CwndAction,
    first_decrease: bool,
    fastrecov: bool,
    cong_action: bool,
    maxburst: u32,
    /// NewReno's saved `maxburst_` during recovery (ns-2 `save_maxburst_`, -1 = none).
    save_maxburst: Option<u32>,
    rtt_active: bool,
    rtt_seq: i64,
    rtt_ts: SimTime,
    last_send_time: Option<SimTime>,
    rto: RtoEstimator,
    /// ns-2 `boot_time_`, the phase of the tick clock (also read by `idle_restart`).
    boot_time: SimTime,
    rtx_at: Option<SimTime>,
    // Receive side.
    rcv_nxt: i64,
    irs: i64,
    last_ack_sent: i64,
    /// The timestamp to echo (ns-2 `recent_`; RFC 7323 TS.Recent), zero after a reset.
    recent: SimTime,
    rq: ReassemblyQueue,
    delack_at: Option<SimTime>,
    stats: FullStats,
    // Sack's sender side: the scoreboard (`sq_`, above `sack_min_`), the next hole to fill
    // (`h_seqno_`), the bytes in flight (`pipe_`) and whether it controls sending
    // (`pipectrl_`, on in recovery).
    sq: ReassemblyQueue,
    sack_min: i64,
    h_seqno: i64,
    pipe: i64,
    pipectrl: bool,
    // ECN (ns-2 `ect_`, `recent_ce_`, `ecn_backoff_`, `ecn_syn_next_`) and the one-shot
    // `use_rtt_` of `ecn_syn_wait_` 1 (the next timer ignores the minimum RTO).
    ect: bool,
    recent_ce: bool,
    ecn_backoff: bool,
    ecn_syn_next: bool,
    use_rtt: bool,
    /// `$tcp trace cwnd_`: the value last reported (None: not traced) and the changes not
    /// yet taken (ns-2's TracedDouble writes a line at each assignment that changes it).
    cwnd_traced: Option<f64>,
    cwnd_changes: Vec<f64>,
}

impl FullTcpAgent {
    /// A closed agent (ns-2 `FullTcpAgent` after `reset`), its tick clock phased by
    /// `boot_time`.
    pub fn new(cfg: FullTcpConfig, boot_time: SimTime) -> Self {
        let mut a = FullTcpAgent {
            cfg,
            state: State::Closed,
            last_state: State::Closed,
            flags: 0,
            listener: false,
            t_seqno: cfg.iss,
            maxseq: -1,
            highest_ack: -1,
            curseq: 0,
            infinite_send: false,
            close_on_empty: false,
            cwnd: 0.0,
            ssthresh: i64::from(cfg.window),
            dupacks: 0,
            recover: 0,
            last_cwnd_action: CwndAction::None,
            first_decrease: true,
            fastrecov: false,
            cong_action: false,
            maxburst: cfg.max_burst,
            save_maxburst: None,
            rtt_active: false,
            rtt_seq: -1,
            rtt_ts: SimTime::ZERO,
            last_send_time: None,
            rto: RtoEstimator::new(cfg.rto, boot_time),
            boot_time,
            rtx_at: None,
            rcv_nxt: -1,
            irs: -1,
            last_ack_sent: -1,
            recent: SimTime::ZERO,
            rq: ReassemblyQueue::default(),
            delack_at: None,
            stats: FullStats::default(),
            sq: ReassemblyQueue::default(),
            sack_min: -1,
            h_seqno: -1,
            pipe: 0,
            pipectrl: false,
            ect: false,
            recent_ce: false,
            ecn_backoff: false,
            ecn_syn_next: false,
            use_rtt: false,
            cwnd_traced: None,
            cwnd_changes: Vec::new(),
        };
        a.reset();
        a
    }

    /// ns-2 `FullTcpAgent::reset` (with `TcpAgent::reset` and FullTcp's
    /// `set_initial_window`, which always models the SYN): back to the starting point, the
    /// state left as it is.
    fn reset(&mut self) {
        self.rtx_at = None;
        self.delack_at = None;
        self.rto = RtoEstimator::new(self.cfg.rto, self.boot_time);
        self.rtt_seq = -1;
        self.rtt_active = false;
        self.dupacks = 0;
        self.curseq = 0;
        let cwnd = if self.cfg.delay_growth {
            1.0
        } else {
            f64::from(self.cfg.window_init)
        };
        self.set_cwnd(cwnd);
        self.maxseq = -1;
        self.highest_ack = -1;
        self.ssthresh = i64::from(self.cfg.window);
        self.recover = 0;
        self.last_cwnd_action = CwndAction::None;
        self.first_decrease = true;
        self.stats = FullStats::default();
        // SackFullTcpAgent::reset.
        self.sq.clear();
        self.sack_min = -1;
        self.h_seqno = -1;
        self.pipe = 0;
        self.rq.clear();
        self.last_ack_sent = -1;
        self.recent = SimTime::ZERO;
        self.rcv_nxt = -1;
        self.flags = 0;
        self.t_seqno = self.cfg.iss;
        self.irs = -1;
        self.last_send_time = None;
        self.fastrecov = false;
        // ns-2's reset clears `close_on_empty_` whatever the script set (only a
        // `sendmsg ... MSG_EOF` sets it again).
        self.close_on_empty = false;
        // `ect_`, `recent_ce_` and `ecn_backoff_` are left as they are (ns-2's reset does
        // not touch them); the SYN/ACK is ECN-capable again if `ecn_syn_`.
        self.ecn_syn_next = self.cfg.ecn_syn;
    }

    // --- read-only view ---

    pub fn state(&self) -> State {
        self.state
    }
    pub fn cwnd(&self) -> f64 {
        self.cwnd
    }
    pub fn ssthresh(&self) -> i64 {
        self.ssthresh
    }
    pub fn t_seqno(&self) -> i64 {
        self.t_seqno
    }
    pub fn maxseq(&self) -> i64 {
        self.maxseq
    }
    pub fn highest_ack(&self) -> i64 {
        self.highest_ack
    }
    pub fn rcv_nxt(&self) -> i64 {
        self.rcv_nxt
    }
    pub fn dupacks(&self) -> u32 {
        self.dupacks
    }
    pub fn stats(&self) -> FullStats {
        self.stats
    }
    pub fn rto(&self) -> &RtoEstimator {
        &self.rto
    }
    /// The retransmission timer's deadline (ns-2 `rtx_timer_`).
    pub fn rtx_deadline(&self) -> Option<SimTime> {
        self.rtx_at
    }

    /// The delayed-ACK timer's deadline (ns-2 `delack_timer_`).
    pub fn delack_deadline(&self) -> Option<SimTime> {
        self.delack_at
    }

    /// The earliest timer deadline (retransmission or delayed ACK).
    pub fn next_timer(&self) -> Option<SimTime> {
        match (self.rtx_at, self.delack_at) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    // --- user interface (ns-2 `FullTcpAgent::command`) ---

    /// `$tcp listen`: a passive opener (ns-2 `listen`).
    pub fn listen(&mut self) {
        self.state = State::Listen;
        self.listener = true;
    }

    /// The application offers `bytes` more (ns-2 `advance_bytes`); `None` is an infinite
    /// send (`sendmsg(-1)`, what FTP's `start` does).
    pub fn send(&mut self, now: SimTime, bytes: Option<i64>, out: &mut FullOutput) {
        let nb = match bytes {
            None => {
                self.infinite_send = true;
                0
            }
            Some(n) => n,
        };
        match self.state {
            State::Closed | State::Listen => {
                self.reset();
                self.curseq = self.cfg.iss + nb;
                self.connect(now, out);
            }
            State::Established | State::SynSent | State::SynReceived => {
                if self.curseq < self.cfg.iss {
                    self.curseq = self.cfg.iss;
                }
                self.curseq += nb;
            }
            _ => {}
        }
        if self.state == State::Established {
            self.send_much(now, false, Reason::Normal, self.maxburst, out);
        }
    }

    /// `$tcp sendmsg N MSG_EOF` (ns-2 `sendmsg`): close once these bytes are sent. The
    /// flag is set before the bytes are offered, so a send that opens the connection (from
    /// CLOSED, whose reset clears it) loses it, as in ns-2.
    pub fn send_eof(&mut self, now: SimTime, bytes: i64, out: &mut FullOutput) {
        self.close_on_empty = true;
        self.send(now, Some(bytes), out);
    }

    /// `$tcp advance N` / `advanceby N`: N segments (ns-2 `advanceby`).
    pub fn advance_segments(&mut self, now: SimTime, segments: i64, out: &mut FullOutput) {
        let mut np = segments;
        if np >= 0x1000_0000 {
            np /= i64::from(self.cfg.segsize);
        }
        self.send(now, Some(np * i64::from(self.cfg.segsize)), out);
    }

    /// `$tcp close` (ns-2 `usrclosed`).
    pub fn close(&mut self, now: SimTime, out: &mut FullOutput) {
        self.curseq = self.maxseq - 1;
        self.infinite_send = false;
        match self.state {
            State::Closed | State::Listen => {
                self.rtx_at = None;
                self.delack_at = None;
                self.state = State::Closed;
            }
            State::SynSent => {
                self.state = State::Closed;
                self.flags |= TF_NEEDFIN;
                self.send_much(now, true, Reason::Normal, self.maxburst, out);
            }
            State::LastAck => {
                self.flags |= TF_NEEDFIN;
                self.send_much(now, true, Reason::Normal, self.maxburst, out);
            }
            State::SynReceived | State::Established => {
                self.state = State::FinWait1;
                self.flags |= TF_NEEDFIN;
                self.send_much(now, true, Reason::Normal, self.maxburst, out);
            }
            State::CloseWait => {
                self.state = State::LastAck;
                self.flags |= TF_NEEDFIN;
                self.send_much(now, true, Reason::Normal, self.maxburst, out);
            }
            State::FinWait1 | State::FinWait2 | State::Closing => {}
        }
    }

    /// ns-2 `connect`: the active open sends the SYN.
    fn connect(&mut self, now: SimTime, out: &mut FullOutput) {
        self.state = State::SynSent;
        let amt = self.foutput(now, self.cfg.iss, Reason::Normal, out);
        self.sent(self.cfg.iss, amt);
    }

    // --- congestion window (ns-2 `TcpAgent`) ---

    /// Every assignment of `cwnd_` (ns-2's TracedDouble): a traced change is recorded.
    fn set_cwnd(&mut self, v: f64) {
        self.cwnd = v;
        if let Some(last) = self.cwnd_traced {
            if last != v {
                self.cwnd_traced = Some(v);
                self.cwnd_changes.push(v);
            }
        }
    }

    /// `$tcp trace cwnd_`: record cwnd's changes from now on; its value now.
    pub fn trace_cwnd(&mut self) -> f64 {
        self.cwnd_traced = Some(self.cwnd);
        self.cwnd
    }

    /// The traced cwnd changes since the last call, in order.
    pub fn take_cwnd_changes(&mut self) -> Vec<f64> {
        std::mem::take(&mut self.cwnd_changes)
    }

    /// ns-2 `window()`: `min(int(cwnd), wnd)`.
    fn window(&self) -> i64 {
        if self.cwnd < f64::from(self.cfg.window) {
            self.cwnd as i64
        } else {
            i64::from(self.cfg.window)
        }
    }

    /// ns-2 `headersize()`: the TCP/IP header with the timestamp option's bytes.
    fn headersize(&self) -> u32 {
        self.cfg.header_size
            + if self.cfg.timestamps {
                self.cfg.ts_option_size
            } else {
                0
            }
    }

    /// ns-2 `windowd()`.
    fn windowd(&self) -> f64 {
        self.cwnd.min(f64::from(self.cfg.window))
    }

    /// ns-2 `initial_window()`: `windowInit_`, or with `windowInitOption_` 2 (RFC 3390's
    /// rule as ns-2 has it) 4 segments for packets up to 1095 bytes, 3 below 2190, else 2.
    fn initial_window(&self) -> f64 {
        if !self.cfg.window_init_by_size {
            return f64::from(self.cfg.window_init);
        }
        let size = self.cfg.segsize + self.headersize();
        if size <= 1095 {
            4.0
        } else if size < 2190 {
            3.0
        } else {
            2.0
        }
    }

    /// ns-2 `TcpAgent::opencwnd` (`windowOption_` 1, `increase_num_` 1).
    fn opencwnd(&mut self) {
        if self.cwnd < self.ssthresh as f64 {
            self.set_cwnd(self.cwnd + 1.0);
        } else {
            self.set_cwnd(self.cwnd + 1.0 / self.cwnd);
        }
        if self.cfg.max_cwnd > 0 && self.cwnd as i64 > i64::from(self.cfg.max_cwnd) {
            self.set_cwnd(f64::from(self.cfg.max_cwnd));
        }
    }

    /// ns-2 `TcpAgent::slowdown(how)` (`decrease_num_` 0.5): ssthresh to half the window
    /// (at least 2), cwnd as `how` says, `cong_action_` set, SLOW_START traced when cwnd
    /// ended at 1 or the call came in slow start.
    fn slowdown(&mut self, how: Slowdown, out: &mut FullOutput) {
        let slowstart = self.cwnd < self.ssthresh as f64;
        let halfwin = if self.cfg.precision_reduce {
            self.windowd() / 2.0
        } else {
            (self.window() / 2) as f64
        };
        if matches!(
            how,
            Slowdown::HalveBoth | Slowdown::HalveSsthreshRestart | Slowdown::HalveSsthreshCwndOne
        ) {
            self.ssthresh = halfwin as i64;
        }
        let cwnd = match how {
            Slowdown::HalveBoth | Slowdown::CwndHalf => halfwin,
            Slowdown::HalveSsthreshRestart | Slowdown::HalveSsthreshCwndOne | Slowdown::CwndOne => {
                1.0
            }
            Slowdown::CwndInit => f64::from(self.cfg.window_init),
        };
        self.set_cwnd(cwnd);
        if self.ssthresh < 2 {
            self.ssthresh = 2;
        }
        self.cong_action = true;
        self.first_decrease = false;
        if self.cwnd == 1.0 || slowstart {
            self.trace_event(Ns2EventKind::SlowStart, out);
        }
    }

    fn trace_event(&self, kind: Ns2EventKind, out: &mut FullOutput) {
        if out.ns2_event_trace {
            out.ns2_events.push(super::output::Ns2Event {
                kind,
                t_seqno: self.t_seqno,
                cwnd: self.cwnd as i64,
                before_segment: out.segments.len(),
            });
        }
    }

    // --- timers ---

    /// ns-2 `set_rtx_timer`: `resched(rtt_timeout())`; `rtt_timeout` consumes `use_rtt_`
    /// (set by `ecn_syn_wait_` 1), which lets the timer go below the minimum RTO.
    fn set_rtx_timer(&mut self, now: SimTime) {
        let timeout = if self.use_rtt {
            self.rto.timeout_use_rtt()
        } else {
            self.rto.timeout()
        };
        self.use_rtt = false;
        self.rtx_at = Some(now + timeout);
    }

    /// ns-2 `FullTcpAgent::reset_rtx_timer`: back off unless nothing is outstanding
    /// (`restart_bugfix_`), restart the timer, stop timing.
    fn reset_rtx_timer(&mut self, now: SimTime) {
        if !(self.highest_ack == self.maxseq && self.cfg.restart_bugfix) {
            self.rto.backoff();
        }
        self.set_rtx_timer(now);
        self.rtt_active = false;
    }

    /// A timer deadline passed (ns-2 `FullTcpAgent::timeout`).
    pub fn on_timer(&mut self, now: SimTime, out: &mut FullOutput) {
        if self.state == State::Listen {
            // ns-2 ignores a timer that expires while listening (and does not restart it).
            for t in [&mut self.rtx_at, &mut self.delack_at] {
                if t.is_some_and(|t| t <= now) {
                    *t = None;
                }
            }
            return;
        }
        if self.rtx_at.is_some_and(|t| t <= now) {
            self.rtx_at = None;
            self.stats.timeouts += 1;
            self.timeout_action(now, out);
            self.send_much(now, true, Reason::Timeout, self.maxburst, out);
        }
        if self.delack_at.is_some_and(|t| t <= now) {
            self.delack_at = None;
            if self.flags & TF_DELACK != 0 {
                self.flags &= !TF_DELACK;
                self.flags |= TF_ACKNOW;
                self.send_much(now, true, Reason::Normal, 0, out);
            }
            // The delayed-ACK timer runs on, one tick every `interval_`.
            self.delack_at = Some(now + self.cfg.delack_interval);
        }
    }

    /// ns-2 `FullTcpAgent::timeout_action`: after an ECN-Echo cut in this window, cwnd to 1
    /// without halving ssthresh again.
    fn timeout_action(&mut self, now: SimTime, out: &mut FullOutput) {
        self.recover = self.maxseq;
        if self.cwnd < 1.0 {
            self.set_cwnd(1.0);
        }
        if self.last_cwnd_action == CwndAction::Ecn {
            self.slowdown(Slowdown::CwndOne, out);
        } else {
            self.slowdown(Slowdown::HalveSsthreshRestart, out);
            self.last_cwnd_action = CwndAction::Timeout;
        }
        self.reset_rtx_timer(now);
        self.t_seqno = if self.highest_ack < 0 {
            self.cfg.iss
        } else {
            self.highest_ack
        };
        self.fastrecov = false;
        self.dupacks = 0;
        // SackFullTcpAgent::timeout_action: forget what the receiver reported.
        if self.cfg.variant == FullVariant::Sack && self.cfg.clear_on_timeout {
            self.sq.clear();
            self.sack_min = self.highest_ack;
        }
    }

    // --- output ---

    /// ns-2 `send_much`: send what the window allows (at least one segment if `force`).
    fn send_much(
        &mut self,
        now: SimTime,
        mut force: bool,
        reason: Reason,
        maxburst: u32,
        out: &mut FullOutput,
    ) {
        let mut npackets = 0;
        loop {
            let seq = self.nxt_tseq();
            if !force && !self.send_allowed(seq) {
                break;
            }
            let mut amt = self.foutput(now, seq, reason, out);
            if amt <= 0 {
                break;
            }
            if self.state.outflags() & TH_FIN != 0 {
                amt -= 1;
            }
            self.sent(seq, amt);
            force = false;
            npackets += 1;
            if self.state.outflags() & (TH_SYN | TH_FIN) != 0
                || (maxburst != 0 && npackets >= maxburst)
            {
                break;
            }
        }
    }

    /// ns-2 `FullTcpAgent::sent` (and Sack's, which moves `h_seqno_` first).
    fn sent(&mut self, seq: i64, amt: i64) {
        if self.cfg.variant == FullVariant::Sack && seq == self.h_seqno {
            self.h_seqno += amt;
        }
        if seq == self.t_seqno {
            self.t_seqno += amt;
        }
        self.pipe += amt;
    }

    /// The next sequence number to send (ns-2 `nxt_tseq`): `t_seqno_`, or for Sack in
    /// recovery the first hole with enough reported above it (`SackFullTcpAgent::nxt_tseq`).
    fn nxt_tseq(&mut self) -> i64 {
        if self.cfg.variant != FullVariant::Sack || self.highest_ack >= self.recover {
            return self.t_seqno;
        }
        let c = &self.cfg;
        let mut seq = self.h_seqno;
        loop {
            let (hole, fcnt, fbytes) = self.sq.next_hole(seq);
            if hole <= 0 {
                break;
            }
            seq = hole;
            let (cnt_ok, bytes_ok) = (fcnt >= c.sack_rtx_cthresh, fbytes >= c.sack_rtx_bthresh);
            let fill = match c.sack_rtx_threshmode {
                0 => true,
                1 => cnt_ok,
                2 => bytes_ok,
                3 => cnt_ok || bytes_ok,
                4 => cnt_ok && bytes_ok,
                _ => false,
            };
            if fill {
                if seq > self.h_seqno {
                    self.h_seqno = seq;
                }
                return seq;
            } else if fcnt <= 0 {
                break;
            }
            seq += i64::from(c.segsize);
        }
        self.t_seqno
    }

    /// ns-2 `send_allowed`: inside the window; for Sack under pipe control, inside the
    /// advertised window and while `pipe_` is below cwnd (`SackFullTcpAgent::send_allowed`).
    fn send_allowed(&self, seq: i64) -> bool {
        let maxseg = i64::from(self.cfg.segsize);
        if self.pipectrl {
            if seq >= self.highest_ack + i64::from(self.cfg.window) * maxseg {
                return false;
            }
            if self.state != State::Established && seq > self.curseq {
                return false;
            }
            return self.pipe < (self.cwnd as i64) * maxseg;
        }
        let win = self.window() * i64::from(self.cfg.segsize);
        let mut topwin = self.curseq;
        if topwin > self.highest_ack + win || self.infinite_send {
            topwin = self.highest_ack + win;
        }
        seq < topwin
    }

    /// ns-2 `need_send`: an ACK is owed now.
    fn need_send(&self) -> bool {
        if self.flags & TF_ACKNOW != 0 {
            return true;
        }
        let spa = if self.cfg.spa_thresh > 0 && self.rcv_nxt - self.irs < self.cfg.spa_thresh {
            1
        } else {
            i64::from(self.cfg.segs_per_ack)
        };
        self.rcv_nxt - self.last_ack_sent >= spa * i64::from(self.cfg.segsize)
    }

    /// ns-2 `idle_restart`: idle for longer than the RTO, measured on the tick clock.
    fn idle_restart(&self, now: SimTime) -> bool {
        let Some(last) = self.last_send_time else {
            return false;
        };
        let tick = self.cfg.rto.tick.as_nanos();
        let tickoff = (last.as_nanos() + self.boot_time.as_nanos()) % tick;
        let tao = (now - last).as_nanos();
        let tao = (tao + tickoff) / tick * tick;
        SimTime::from_nanos(tao) > self.rto.rtxcur()
    }

    /// ns-2 `foutput(seqno, reason)`: decide whether a segment starting at `seqno` goes out
    /// now, and send it; returns the sequence numbers it reliably sent (data, SYN, FIN).
    fn foutput(&mut self, now: SimTime, seqno: i64, reason: Reason, out: &mut FullOutput) -> i64 {
        let maxseg = i64::from(self.cfg.segsize);
        let is_retransmit = seqno < self.maxseq;
        let quiet = self.highest_ack == self.maxseq;
        let mut pflags = self.state.outflags();
        let mut syn = seqno == self.cfg.iss;
        let mut emptying_buffer = false;
        let mut buffered_bytes = if self.infinite_send {
            TCP_MAXSEQ
        } else {
            self.curseq - self.highest_ack + 1
        };
        let win = self.window() * maxseg;
        let mut off = seqno - self.highest_ack;
        if self.highest_ack < 0 {
            if !self.infinite_send {
                buffered_bytes = self.curseq - self.cfg.iss;
            }
            off = seqno - self.cfg.iss;
        }
        let mut datalen = if syn && !self.cfg.data_on_syn {
            0
        } else if self.pipectrl {
            buffered_bytes - off
        } else {
            buffered_bytes.min(win) - off
        };
        datalen = datalen.clamp(0, maxseg);
        if self.cfg.slow_start_restart && quiet && datalen > 0 && self.idle_restart(now) {
            self.slowdown(Slowdown::CwndInit, out);
        }
        if !self.infinite_send && (seqno + datalen > self.curseq || (syn && datalen == 0)) {
            emptying_buffer = true;
            if !syn && self.close_on_empty && quiet {
                self.flags |= TF_NEEDCLOSE;
            }
            pflags |= TH_PUSH;
        } else {
            pflags &= !TH_FIN;
        }
        if self.infinite_send && syn && datalen == 0 {
            pflags |= TH_PUSH;
        }
        let send = (datalen > 0
            && (datalen == maxseg
                || ((quiet || self.cfg.nodelay) && emptying_buffer)
                || is_retransmit
                || datalen as f64 >= f64::from(self.cfg.window) * maxseg as f64 / 2.0))
            || self.need_send()
            || self.flags & (TF_ACKNOW | TF_NEEDCLOSE) != 0
            || pflags & (TH_SYN | TH_FIN) != 0;
        if !send {
            return 0;
        }
        syn = pflags & TH_SYN != 0;
        let mut fin = pflags & TH_FIN != 0;
        // ECN (ns-2 foutput): the ECN-setup SYN carries ECE and CWR, the SYN/ACK ECE alone
        // (RFC 3168 §6.1.1); otherwise, once ECN is agreed, the first segment after a window
        // cut carries CWR (retransmissions too: ns-2's `SetCWRonRetransmit_` true) and ends
        // the pending congestion action.
        if self.cfg.ecn && syn && pflags & TH_ACK == 0 {
            pflags |= TH_ECE | TH_CWR;
        }
        if self.cfg.ecn && syn && pflags & TH_ACK != 0 {
            pflags |= TH_ECE;
            pflags &= !TH_CWR;
        } else if self.cfg.ecn && self.ect && self.cong_action {
            pflags |= TH_CWR;
            self.cong_action = false;
        }
        // ns-2 sets CWR on the first new data after a window cut whether or not ECN is on
        // (its traces show it as the congestion-action flag).
        if datalen > 0 && self.cong_action && !is_retransmit {
            pflags |= TH_CWR;
        }
        // A CE mark is echoed until the peer's CWR (RFC 3168 §6.1.3).
        if self.cfg.ecn && self.ect && self.recent_ce {
            pflags |= TH_ECE;
        }
        if self.flags & TF_NEEDCLOSE != 0 {
            self.flags &= !TF_NEEDCLOSE;
            if self.state <= State::Established && self.state != State::Closed {
                pflags |= TH_FIN;
                fin = true;
                self.state = State::FinWait1;
            }
        }
        self.sendpacket(now, seqno, self.rcv_nxt, pflags, datalen, reason, out);
        self.flags &= !(TF_ACKNOW | TF_DELACK);
        let reliable = datalen + i64::from(syn) + i64::from(fin);
        if self.cong_action && reliable > 0 && !is_retransmit {
            self.cong_action = false;
        }
        let highest = seqno + reliable;
        if highest > self.maxseq {
            self.maxseq = highest;
            // With timestamps every ACK times its segment; else one segment at a time.
            if !self.cfg.timestamps && !self.rtt_active {
                self.rtt_active = true;
                self.rtt_seq = seqno;
                self.rtt_ts = now;
            }
        }
        if self.rtx_at.is_none() && reliable > 0 {
            self.set_rtx_timer(now);
        }
        reliable
    }

    /// ns-2 `FullTcpAgent::sendpacket`: build the header and send.
    #[allow(clippy::too_many_arguments)]
    fn sendpacket(
        &mut self,
        now: SimTime,
        seq: i64,
        ack: i64,
        flags: u8,
        datalen: i64,
        reason: Reason,
        out: &mut FullOutput,
    ) {
        if datalen <= 0 {
            self.stats.ack_packets += 1;
        } else {
            self.stats.data_packets += 1;
            self.stats.data_bytes += datalen as u64;
            self.last_send_time = Some(now);
        }
        if reason != Reason::Normal {
            self.stats.rexmit_packets += 1;
            self.stats.rexmit_bytes += datalen.max(0) as u64;
        }
        self.last_ack_sent = ack;
        // SackFullTcpAgent::build_options: the receiver's queued blocks as SACK blocks.
        let mut sack = [(0, 0); MAX_SACK_BLOCKS];
        // FullTcpAgent::build_options: with timestamps the send time and `recent_`, and
        // the option's bytes.
        let mut hlen = self.headersize();
        let (ts, ts_echo) = if self.cfg.timestamps {
            (now, self.recent)
        } else {
            (SimTime::ZERO, SimTime::ZERO)
        };
        let blocks = if self.cfg.variant == FullVariant::Sack && !self.rq.is_empty() {
            self.rq.sack_blocks(self.cfg.max_sack_blocks as usize)
        } else {
            Vec::new()
        };
        for (k, b) in blocks.iter().enumerate() {
            sack[k] = *b;
        }
        if !blocks.is_empty() {
            hlen += blocks.len() as u32 * self.cfg.sack_block_size + self.cfg.sack_option_size;
        }
        // The hdr_flags ECN bits (ns-2 sendpacket): data is ECN-capable once ECN is agreed,
        // and so is the SYN/ACK with `ecn_syn_` (until a marked one made `ecn_syn_next_`
        // false); ECN-Echo also when a CE mark waits for the peer's CWR, even on a segment
        // whose header flags (set before) lack TH_ECE.
        let syn_ack = flags & (TH_SYN | TH_ACK) == TH_SYN | TH_ACK;
        let ect_allowed = (datalen > 0 && self.cfg.ecn)
            || (self.cfg.ecn && self.cfg.ecn_syn && self.ecn_syn_next && syn_ack);
        let ect = ect_allowed && self.ect;
        let ece = flags & TH_ECE != 0 || (self.cfg.ecn && self.ect && self.recent_ce);
        out.segments.push(FullSegment {
            seq,
            ack,
            flags,
            datalen: datalen.max(0) as u32,
            hlen,
            listener: self.listener,
            sent_at: now,
            sack,
            n_sack: blocks.len() as u8,
            ecn: EcnFlags {
                ect,
                ce: false,
                ece,
            },
            ts,
            ts_echo,
        });
    }

    // --- input ---

    /// ns-2 `newack`: a cumulative ACK at or above `highest_ack`; timer and RTT sample. An
    /// ECN-Echo ACK does not end the backoff while the ECN backoff holds (`ece`: the ACK's
    /// ECN-Echo bit).
    fn newack(&mut self, now: SimTime, ackno: i64, seg: &FullSegment) {
        let ece = seg.ecn.ece;
        let progress = ackno > self.highest_ack;
        if ackno == self.maxseq {
            self.rtx_at = None;
        } else if progress {
            self.set_rtx_timer(now);
        }
        if progress {
            self.highest_ack = ackno;
        }
        if self.t_seqno < self.highest_ack {
            self.t_seqno = self.highest_ack;
        }
        if self.cfg.timestamps {
            // Every new ACK: its timestamp becomes `recent_` and its echo gives a sample.
            self.recent = seg.ts;
            self.rto.sample_timestamp(now.saturating_sub(seg.ts_echo));
        } else if self.rtt_active && ackno > self.rtt_seq {
            self.rtt_active = false;
            self.rto.sample(self.rtt_ts, now - self.rtt_ts);
        }
        if !self.ect || !self.ecn_backoff || !ece {
            self.rto.reset_backoff();
            self.ecn_backoff = false;
        }
    }

    /// ns-2 `TcpAgent::ecn(seqno)` as FullTcp calls it after `newack` (RFC 3168 §6.1.2):
    /// once per window of data (above `recover_`, or after a timeout) halve ssthresh and
    /// cwnd and remember the cut; with cwnd at 1 or less, the second such cut in a row backs
    /// the timer off instead of waiting (`ecn_backoff_`).
    fn ecn(&mut self, seqno: i64, out: &mut FullOutput) {
        if seqno > self.recover || self.last_cwnd_action == CwndAction::Timeout {
            self.recover = self.maxseq;
            self.last_cwnd_action = CwndAction::Ecn;
            if self.cwnd <= 1.0 {
                if self.ecn_backoff {
                    self.rto.backoff();
                } else {
                    self.ecn_backoff = true;
                }
            } else {
                self.ecn_backoff = false;
            }
            self.slowdown(Slowdown::HalveBoth, out);
        }
    }

    /// ns-2 recv: a CE-marked ECN-capable segment starts the ECN-Echo stream, the peer's CWR
    /// ends it (RFC 3168 §6.1.3).
    fn note_ce(&mut self, seg: &FullSegment) {
        if self.cfg.ecn {
            if seg.ecn.ce && seg.ecn.ect {
                self.recent_ce = true;
            } else if seg.flags & TH_CWR != 0 {
                self.recent_ce = false;
            }
        }
    }

    /// ns-2 `fast_retransmit`.
    fn fast_retransmit(&mut self, now: SimTime, seq: i64, out: &mut FullOutput) -> i64 {
        self.trace_event(Ns2EventKind::FastRetx, out);
        self.stats.fast_retransmits += 1;
        self.recover = self.maxseq;
        self.last_cwnd_action = CwndAction::DupAck;
        self.foutput(now, seq, Reason::DupAck, out)
    }

    /// ns-2 `dupack_action` (Reno: `FullTcpAgent`, Tahoe: `TahoeFullTcpAgent`, Sack:
    /// `SackFullTcpAgent`). In a window an ECN-Echo already cut (`ecn_`, last action ECN)
    /// the loss is repaired without a second ssthresh cut: Reno halves cwnd alone and
    /// retransmits, Tahoe goes back to cwnd 1, Sack retransmits under pipe control.
    fn dupack_action(&mut self, now: SimTime, out: &mut FullOutput) {
        let recovered = self.highest_ack > self.recover;
        self.fastrecov = true;
        let ecn_cut = self.cfg.ecn && self.last_cwnd_action == CwndAction::Ecn;
        let full_action_unless_bugfix = recovered || (!self.cfg.bug_fix && !self.cfg.ecn);
        match self.cfg.variant {
            FullVariant::Reno | FullVariant::NewReno => {
                let full = full_action_unless_bugfix
                    || self.last_cwnd_action == CwndAction::DupAck
                    || self.highest_ack == 0;
                if !full && ecn_cut {
                    self.slowdown(Slowdown::CwndHalf, out);
                    self.rtx_at = None;
                    self.rtt_active = false;
                    let seq = self.highest_ack;
                    self.fast_retransmit(now, seq, out);
                    return;
                }
                if !full && self.cfg.bug_fix {
                    return;
                }
                self.slowdown(Slowdown::HalveBoth, out);
                self.rtx_at = None;
                self.rtt_active = false;
                self.recover = self.maxseq;
                let seq = self.highest_ack;
                self.fast_retransmit(now, seq, out);
                self.set_cwnd(self.ssthresh as f64 + f64::from(self.dupacks));
            }
            FullVariant::Sack => {
                self.pipe = self.maxseq - self.highest_ack - self.sq.total();
                if !full_action_unless_bugfix && ecn_cut {
                    self.last_cwnd_action = CwndAction::DupAck;
                    self.rtx_at = None;
                    self.rtt_active = false;
                    let seq = self.highest_ack;
                    let amt = self.fast_retransmit(now, seq, out);
                    self.pipectrl = true;
                    self.h_seqno = self.highest_ack + amt;
                    self.send_much(now, false, Reason::DupAck, self.maxburst, out);
                    return;
                }
                // Once per window (`bugFix_`) unless the last reaction is recovered from.
                if !full_action_unless_bugfix && self.cfg.bug_fix {
                    return;
                }
                self.trace_event(Ns2EventKind::FastRecovery, out);
                self.slowdown(Slowdown::HalveBoth, out);
                self.rtx_at = None;
                self.rtt_active = false;
                // SACK-style "pipe" recovery from where the window stands now.
                self.pipectrl = true;
                self.recover = self.maxseq;
                let seq = self.highest_ack;
                let amt = self.fast_retransmit(now, seq, out);
                self.h_seqno = self.highest_ack + amt;
                self.send_much(now, false, Reason::DupAck, self.maxburst, out);
            }
            FullVariant::Tahoe => {
                let full = full_action_unless_bugfix || self.highest_ack == 0;
                if !full && ecn_cut {
                    self.last_cwnd_action = CwndAction::DupAck;
                    self.slowdown(Slowdown::CwndOne, out);
                    self.set_rtx_timer(now);
                    self.rtt_active = false;
                    self.t_seqno = self.highest_ack;
                    return;
                }
                if !full && self.cfg.bug_fix {
                    return;
                }
                self.trace_event(Ns2EventKind::FastRetx, out);
                self.stats.fast_retransmits += 1;
                self.recover = self.maxseq;
                self.last_cwnd_action = CwndAction::DupAck;
                self.slowdown(Slowdown::HalveSsthreshCwndOne, out);
                self.set_rtx_timer(now);
                self.rtt_active = false;
                self.t_seqno = self.highest_ack;
                self.send_much(now, false, Reason::Normal, 0, out);
            }
        }
    }

    /// ns-2 `pack`: a partial ACK during fast recovery.
    fn is_partial(&self, ackno: i64) -> bool {
        self.fastrecov && ackno >= self.highest_ack && ackno < self.recover
    }

    /// ns-2 `FullTcpAgent::pack_action` (Reno, Tahoe).
    fn reno_pack_action(&mut self) {
        if self.cfg.reno_fastrecov && self.fastrecov && self.cwnd > self.ssthresh as f64 {
            self.set_cwnd(self.ssthresh as f64);
        }
        self.fastrecov = false;
        self.dupacks = 0;
    }

    /// ns-2 `pack_action` of the variant.
    fn pack_action(&mut self, now: SimTime, out: &mut FullOutput) {
        match self.cfg.variant {
            FullVariant::Sack => {
                self.clear_scoreboard_below_ack();
                self.pipe -= i64::from(self.cfg.segsize);
                if self.h_seqno < self.highest_ack {
                    self.h_seqno = self.highest_ack;
                }
            }
            FullVariant::Reno | FullVariant::Tahoe => self.reno_pack_action(),
            FullVariant::NewReno => {
                let seq = self.highest_ack;
                self.fast_retransmit(now, seq, out);
                self.set_cwnd(self.ssthresh as f64);
                if self.save_maxburst.is_none() {
                    self.save_maxburst = Some(self.maxburst);
                    self.maxburst = self.cfg.recov_maxburst;
                }
            }
        }
    }

    /// Sack: what the cumulative ACK now covers leaves the scoreboard (`sack_min_`).
    fn clear_scoreboard_below_ack(&mut self) {
        if !self.sq.is_empty() && self.sack_min < self.highest_ack {
            self.sack_min = self.highest_ack;
            self.sq.clear_to(self.sack_min);
        }
    }

    /// ns-2 `ack_action` of the variant.
    fn ack_action(&mut self) {
        if self.cfg.variant == FullVariant::Sack {
            self.fastrecov = false;
            self.pipectrl = false;
            self.clear_scoreboard_below_ack();
            self.dupacks = 0;
            if self.h_seqno < self.highest_ack {
                self.h_seqno = self.highest_ack;
            }
            return;
        }
        if self.cfg.variant == FullVariant::NewReno {
            if let Some(m) = self.save_maxburst.take() {
                self.maxburst = m;
            }
        }
        self.reno_pack_action();
    }

    /// A segment arrived (ns-2 `FullTcpAgent::recv`).
    pub fn on_segment(&mut self, now: SimTime, seg: &FullSegment, out: &mut FullOutput) {
        let mut p = Arrival {
            seq: seg.seq,
            ack: seg.ack,
            flags: seg.flags,
            datalen: i64::from(seg.datalen),
        };
        self.last_state = self.state;
        if self.state == State::Closed {
            if p.flags & TH_FIN != 0 {
                self.drop_after_ack(now, out);
            }
            return;
        }
        let ackno = p.ack;
        // Options in every state but LISTEN (there: below, on the SYN).
        if self.state != State::Listen {
            self.dooptions(seg);
        }
        // The delayed-ACK timer: started by the first segment that arrives, at the next
        // multiple of `interval_` (ns-2 recv: "t0 = k * interval_ for some k such that
        // t0 > now"), then every `interval_` (`timeout(TCP_TIMER_DELACK)`).
        let interval = self.cfg.delack_interval.as_nanos();
        if interval > 0 && self.delack_at.is_none() {
            let k = now.as_nanos() / interval;
            self.delack_at = Some(SimTime::from_nanos((k + 1) * interval));
        }
        // Header prediction (ns-2 `predict_ok`): in-order pure ACK or in-order data.
        if !self.cfg.nopredict && self.predict_ok(&p, seg) {
            self.record_timestamp(&p, seg);
            self.note_ce(seg);
            if p.datalen == 0 {
                if ackno > self.highest_ack
                    && ackno < self.maxseq
                    && self.cwnd >= f64::from(self.cfg.window)
                    && !self.fastrecov
                {
                    self.newack(now, ackno, seg);
                    self.send_much(now, false, Reason::Normal, self.maxburst, out);
                    return;
                }
            } else if ackno == self.highest_ack && self.rq.is_empty() {
                self.rcv_nxt += p.datalen;
                self.flags |= TF_DELACK;
                out.delivered_bytes += p.datalen as u64;
                if self.need_send() {
                    self.send_much(now, true, Reason::Normal, self.maxburst, out);
                }
                return;
            }
        }
        let mut dupseg = false;
        let mut needoutput = false;
        // The LISTEN and SYN_SENT states, then the common path (labels of ns-2's recv).
        enum Next {
            Trim,
            ProcessAck,
            Step6,
        }
        let next = match self.state {
            State::Listen => {
                if p.flags & TH_ACK != 0 {
                    self.drop_with_reset(now, &p, out);
                    return;
                }
                if p.flags & TH_SYN == 0 {
                    return;
                }
                self.dooptions(seg);
                self.irs = p.seq;
                self.t_seqno = self.cfg.iss;
                self.rcv_nxt = p.seq + p.datalen + 1;
                self.flags |= TF_ACKNOW;
                // An ECN-setup SYN (ECE and CWR, RFC 3168 §6.1.1).
                if self.cfg.ecn && seg.ecn.ece && seg.cong_action() {
                    self.ect = true;
                }
                self.state = State::SynReceived;
                p.seq += 1;
                Next::Step6
            }
            State::SynSent => {
                if p.flags & TH_ACK != 0 && (ackno <= self.cfg.iss || ackno > self.maxseq) {
                    self.drop_with_reset(now, &p, out);
                    return;
                }
                if p.flags & TH_SYN == 0 {
                    return;
                }
                // `ecn_syn_wait_` 2: a CE-marked ECN-setup SYN/ACK is answered by an
                // ECN-Echo ACK and dropped, the state left as it is (the peer sends a new
                // SYN/ACK). The ACK carries `rcv_nxt_` as it is, -1.
                if p.flags & TH_ACK != 0
                    && self.cfg.ecn
                    && seg.ecn.ece
                    && !seg.cong_action()
                    && self.cfg.ecn_syn_wait == 2
                    && seg.ecn.ce
                {
                    self.set_rtx_timer(now);
                    let (t, r) = (self.t_seqno, self.rcv_nxt);
                    self.sendpacket(now, t, r, TH_ACK | TH_ECE, 0, Reason::Normal, out);
                    return;
                }
                self.irs = p.seq;
                self.rcv_nxt = p.seq + p.datalen + 1;
                if p.flags & TH_ACK != 0 {
                    // An ECN-setup SYN/ACK (ECE without CWR) agrees to ECN; a CE mark on
                    // it is echoed from the handshake's ACK on.
                    if self.cfg.ecn && seg.ecn.ece && !seg.cong_action() {
                        self.ect = true;
                        if seg.ecn.ce {
                            self.recent_ce = true;
                        }
                    }
                    self.highest_ack = ackno;
                    self.set_cwnd(self.initial_window());
                    if p.datalen > 0 {
                        self.flags |= TF_DELACK;
                    } else {
                        self.flags |= TF_ACKNOW;
                    }
                    if self.flags & TF_NEEDFIN != 0 {
                        self.state = State::FinWait1;
                        self.flags &= !TF_NEEDFIN;
                        p.flags &= !TH_SYN;
                    } else {
                        self.state = State::Established;
                    }
                    // ns-2's own step: the pure ACK of the handshake goes out at once.
                    let (t, r) = (self.t_seqno, self.rcv_nxt);
                    self.sendpacket(now, t, r, TH_ACK, 0, Reason::Normal, out);
                    p.seq += 1;
                    Next::ProcessAck
                } else {
                    // Simultaneous open (an ECN-setup SYN agrees to ECN).
                    if self.cfg.ecn && seg.ecn.ece && seg.cong_action() {
                        self.ect = true;
                    }
                    self.flags |= TF_ACKNOW;
                    self.rtx_at = None;
                    self.state = State::SynReceived;
                    self.t_seqno -= 1;
                    p.seq += 1;
                    Next::Step6
                }
            }
            State::LastAck if p.flags & TH_FIN != 0 => return,
            _ => Next::Trim,
        };
        let next = match next {
            Next::Trim => {
                // RFC 7323 PAWS (ns-2 recv): a timestamp older than `recent_` is answered
                // and dropped (ns-2's idle limit of 24 days never passes here).
                if self.cfg.timestamps && self.recent != SimTime::ZERO && seg.ts < self.recent {
                    self.drop_after_ack(now, out);
                    return;
                }
                // Trim what was received before (Stevens vol. 2 pp. 959-960).
                let mut todrop = self.rcv_nxt - p.seq;
                if todrop > 0 && (p.flags & TH_SYN != 0 || p.datalen > 0) {
                    if p.flags & TH_SYN != 0 {
                        p.flags &= !TH_SYN;
                        p.seq += 1;
                        todrop -= 1;
                    }
                    if todrop > p.datalen || (todrop == p.datalen && p.flags & TH_FIN == 0) {
                        p.flags &= !TH_FIN;
                        self.flags |= TF_ACKNOW;
                        todrop = p.datalen;
                        dupseg = true;
                    }
                    p.seq += todrop;
                    p.datalen -= todrop;
                }
                self.record_timestamp(&p, seg);
                if p.flags & TH_SYN != 0 {
                    self.drop_with_reset(now, &p, out);
                    return;
                }
                if p.flags & TH_ACK == 0 {
                    return;
                }
                match self.state {
                    State::SynReceived => {
                        if ackno < self.highest_ack || ackno > self.maxseq {
                            self.drop_with_reset(now, &p, out);
                            return;
                        }
                        // The peer echoes a CE mark on our ECN-capable SYN/ACK
                        // (`ecn_syn_`): `ecn_syn_wait_` 2 sends a new SYN/ACK, not
                        // ECN-capable, and drops the ACK, with an initial window of 1 from
                        // then on; 1 takes a window of 1 (halved below) and lets the next
                        // timer go below the minimum RTO; 0 a window of 2 (halved below).
                        let marked_syn_ack =
                            self.cfg.ecn && self.ect && self.cfg.ecn_syn && seg.ecn.ece;
                        if marked_syn_ack && self.cfg.ecn_syn_wait == 2 {
                            self.rtx_at = None;
                            self.ecn_syn_next = false;
                            let iss = self.cfg.iss;
                            self.foutput(now, iss, Reason::Normal, out);
                            // ns-2: wnd_init_option_ = 1, wnd_init_ = 1.
                            self.cfg.window_init_by_size = false;
                            self.cfg.window_init = 1;
                            return;
                        }
                        let cwnd = if marked_syn_ack && self.cfg.ecn_syn_wait == 1 {
                            self.use_rtt = true;
                            1.0
                        } else if marked_syn_ack {
                            2.0
                        } else {
                            self.initial_window()
                        };
                        self.set_cwnd(cwnd);
                        if self.flags & TF_NEEDFIN != 0 {
                            self.state = State::FinWait1;
                            self.flags &= !TF_NEEDFIN;
                        } else {
                            self.state = State::Established;
                        }
                    }
                    State::Established
                    | State::FinWait1
                    | State::FinWait2
                    | State::CloseWait
                    | State::Closing
                    | State::LastAck => {}
                    _ => return,
                }
                self.note_ce(seg);
                // SACK blocks (Sack; ns-2 `process_sack`), then the pipe's estimate: an ACK
                // means a packet left the network.
                if self.state >= State::Established && seg.n_sack > 0 {
                    self.process_sack(seg);
                }
                if self.fastrecov && (p.datalen == 0 || ackno > self.highest_ack) {
                    self.pipe -= i64::from(self.cfg.segsize);
                }
                if ackno <= self.highest_ack {
                    // Duplicate and old ACKs.
                    if p.datalen == 0 && (!self.cfg.dupseg_fix || !dupseg) {
                        if self.rtx_at.is_none() || ackno < self.highest_ack {
                            self.dupacks = 0;
                        } else {
                            self.dupacks += 1;
                            if self.dupacks == self.cfg.dupack_threshold {
                                self.dupack_action(now, out);
                                return;
                            } else if self.dupacks > self.cfg.dupack_threshold {
                                // ns-2 `extra_ack`: inflate (Reno) and send what it allows.
                                if self.cfg.reno_fastrecov {
                                    self.set_cwnd(self.cwnd + 1.0);
                                }
                                self.send_much(now, false, Reason::DupAck, self.maxburst, out);
                                return;
                            }
                        }
                    } else if self.cfg.dupack_reset {
                        self.dupacks = 0;
                        self.fastrecov = false;
                    }
                    Next::Step6
                } else {
                    Next::ProcessAck
                }
            }
            n => n,
        };
        if let Next::ProcessAck = next {
            if ackno > self.maxseq {
                self.drop_after_ack(now, out);
                return;
            }
            self.newack(now, ackno, seg);
            let partial = self.is_partial(ackno);
            if partial {
                self.pack_action(now, out);
            } else {
                self.ack_action();
            }
            // An ECN-Echo (not on a SYN) halves the window once per window of data (ns-2
            // calls `ecn` after `newack` here, with the updated highest ACK); a window
            // below one packet waits for the timer.
            if seg.ecn.ece && p.flags & TH_SYN == 0 {
                let h = self.highest_ack;
                self.ecn(h, out);
                if self.cwnd < 1.0 {
                    self.set_rtx_timer(now);
                }
            }
            if ackno == self.maxseq {
                needoutput = true;
            }
            // Only our SYN was acknowledged: skip the rest of the ACK processing.
            if ackno != self.highest_ack + 1 {
                if (!self.cfg.delay_growth || self.rcv_nxt > 0)
                    && self.last_state == State::Established
                    && (!partial || self.cfg.open_cwnd_on_pack)
                    && (!self.ect || !seg.ecn.ece)
                {
                    self.opencwnd();
                }
                let ourfinisacked = self.state >= State::FinWait1 && ackno == self.maxseq;
                match self.state {
                    State::FinWait1 if ourfinisacked => {
                        self.state = State::FinWait2;
                        self.rtx_at = None;
                        self.delack_at = None;
                        needoutput = false;
                    }
                    State::Closing if ourfinisacked => {
                        self.state = State::Closed;
                        self.rtx_at = None;
                        self.delack_at = None;
                    }
                    State::LastAck if ourfinisacked => {
                        self.state = State::Closed;
                        self.reset();
                        return;
                    }
                    _ => {}
                }
            }
        }
        // step6: data and FIN.
        let mut tiflags = p.flags;
        if (p.datalen > 0 || p.flags & TH_FIN != 0) && !self.state.have_received_fin() {
            if p.seq == self.rcv_nxt && self.rq.is_empty() {
                self.flags |= TF_DELACK;
                self.rcv_nxt += p.datalen;
                tiflags = p.flags & TH_FIN;
                if p.datalen > 0 {
                    out.delivered_bytes += p.datalen as u64;
                }
                needoutput = self.need_send();
            } else {
                let old = self.rcv_nxt;
                tiflags = self.reass(&p);
                if self.rcv_nxt > old {
                    out.delivered_bytes += (self.rcv_nxt - old) as u64;
                }
                self.flags |= TF_ACKNOW;
                if tiflags & TH_PUSH != 0 {
                    needoutput = self.need_send();
                }
            }
        } else {
            tiflags &= !TH_FIN;
        }
        if tiflags & TH_FIN != 0 {
            if !self.state.have_received_fin() {
                self.flags |= TF_ACKNOW;
                self.rcv_nxt += 1;
            }
            match self.state {
                State::SynReceived | State::Established => self.state = State::CloseWait,
                State::FinWait1 => self.state = State::Closing,
                State::FinWait2 => {
                    self.state = State::Closed;
                    self.rtx_at = None;
                    self.delack_at = None;
                }
                _ => {}
            }
        }
        if needoutput || self.flags & TF_ACKNOW != 0 {
            self.send_much(now, true, Reason::Normal, self.maxburst, out);
        } else if self.curseq >= self.highest_ack || self.infinite_send {
            self.send_much(now, false, Reason::Normal, self.maxburst, out);
        }
        if !self.cfg.halfclose && self.state == State::CloseWait && self.highest_ack == self.maxseq
        {
            self.close(now, out);
        }
    }

    /// ns-2 `SackFullTcpAgent::process_sack`: the reported blocks into the scoreboard.
    fn process_sack(&mut self, seg: &FullSegment) {
        if self.cfg.variant != FullVariant::Sack {
            return; // ns-2's non-SACK agent only warns
        }
        for &(left, right) in &seg.sack[..seg.n_sack as usize] {
            if seg.flags & TH_FIN == 0 && left >= right {
                continue;
            }
            let mut min = self.sack_min;
            self.sq.add(left, right, 0, &mut min);
            self.sack_min = min;
        }
    }

    /// ns-2 `predict_ok`: no SACK blocks, with `ecn_` no ECN-Echo, with timestamps one
    /// not older than `recent_`.
    fn predict_ok(&self, p: &Arrival, seg: &FullSegment) -> bool {
        seg.n_sack == 0
            && (!self.cfg.ecn || !seg.ecn.ece)
            && (!self.cfg.timestamps || seg.ts >= self.recent)
            && self.state == State::Established
            && p.flags & (TH_SYN | TH_FIN | TH_ACK) == TH_ACK
            && self.flags & TF_NEEDFIN == 0
            && p.seq == self.rcv_nxt
            && self.t_seqno == self.maxseq
    }

    /// ns-2 `reass`: queue the segment; the flags of what became in order.
    fn reass(&mut self, p: &Arrival) -> u8 {
        let start = p.seq;
        let end = start + p.datalen;
        let fillshole = start == self.rcv_nxt;
        let mut rcv_nxt = self.rcv_nxt;
        self.rq.add(start, end, p.flags, &mut rcv_nxt);
        self.rcv_nxt = rcv_nxt;
        if !self.state.have_received_syn() || !fillshole {
            return 0;
        }
        if self.state == State::SynReceived && end > start {
            return 0;
        }
        self.rq.clear_to(self.rcv_nxt)
    }

    /// ns-2 `dooptions`: with timestamps, a SYN's timestamp is the first `recent_`.
    fn dooptions(&mut self, seg: &FullSegment) {
        if self.cfg.timestamps && seg.flags & TH_SYN != 0 {
            self.recent = seg.ts;
        }
    }

    /// ns-2 recv (RFC 7323 §4.3): with timestamps, a segment at or below the last ACK sent
    /// carries the timestamp to echo from now on.
    fn record_timestamp(&mut self, p: &Arrival, seg: &FullSegment) {
        if self.cfg.timestamps && p.seq <= self.last_ack_sent {
            self.recent = seg.ts;
        }
    }

    /// ns-2 recv's `dropafterack`.
    fn drop_after_ack(&mut self, now: SimTime, out: &mut FullOutput) {
        self.flags |= TF_ACKNOW;
        self.send_much(now, true, Reason::Normal, self.maxburst, out);
    }

    /// ns-2 recv's `dropwithreset`: ns-2 sends a header-only segment in place of an RST.
    fn drop_with_reset(&mut self, now: SimTime, p: &Arrival, out: &mut FullOutput) {
        if p.flags & TH_ACK != 0 {
            self.sendpacket(now, p.ack, 0, 0, 0, Reason::Normal, out);
        } else {
            let mut ack = p.seq + p.datalen;
            if p.flags & TH_SYN != 0 {
                ack -= 1;
            }
            self.sendpacket(now, 0, ack, TH_ACK, 0, Reason::Normal, out);
        }
    }
}
