//! TCP parameters, the variant enum and the defaults profiles of the ns-2 releases the seed
//! studies ran (`../shared/research/tcp-spec.md` §1 gives the table these come from).

use crate::sim::SimTime;

pub use super::variant::TcpVariant;

/// Which release's defaults a scenario starts from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DefaultsProfile {
    Ns2_35,
    Ns2_29,
    Ns2_26,
    Rfc,
}

impl DefaultsProfile {
    pub fn parse(name: &str) -> Option<Self> {
        match name {
            "ns2.35" => Some(Self::Ns2_35),
            "ns2.29" => Some(Self::Ns2_29),
            "ns2.26" => Some(Self::Ns2_26),
            "rfc" => Some(Self::Rfc),
            _ => None,
        }
    }
    pub const NAMES: &'static [&'static str] = &["ns2.35", "ns2.29", "ns2.26", "rfc"];
}

/// How the retransmission timeout is computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RtoMode {
    /// ns-2's integer tick arithmetic (tcp-spec §3.2): samples quantised to `tick` with a
    /// random phase, no G term, RTO floored to ticks, one timed packet per RTT.
    Ns2,
    /// RFC 6298 floating-point estimator: RTO = SRTT + max(G, 4 RTTVAR), clamped to min/max.
    Rfc6298,
}

/// ns-2 `windowOption_`, the increase rule of congestion avoidance (`TcpAgent::opencwnd`);
/// only the two rules below are modelled.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum WindowOption {
    /// `windowOption_ 1` (ns-2's default): cwnd += increase_num / cwnd per new ACK.
    Standard,
    /// `windowOption_ 6`, Bansal and Balakrishnan's binomial controls: cwnd +=
    /// increase_num / cwnd^(k+1) per new ACK (ns-2 `k_parameter_`), and a loss takes
    /// (1 - decrease_num) * W^l off the window W (ns-2 `l_parameter_`).
    Binomial { k: f64, l: f64 },
}

/// Retransmission-timer parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RtoConfig {
    pub mode: RtoMode,
    /// Timer granularity G (ns-2 `tcpTick_`).
    pub tick: SimTime,
    pub min_rto: SimTime,
    pub max_rto: SimTime,
    /// RTO before the first RTT sample (ns-2 `rtxcur_init_`).
    pub initial_rto: SimTime,
    /// The sender's phase against the tick clock (ns-2 `boot_time_`, in [0, tick)). `None`:
    /// drawn from the flow's random stream when the sender is created. ns-2 draws it from its
    /// default RNG each time the agent is reset, so a front end that replays ns-2's draws
    /// sets it to reproduce ns-2's RTT quantisation exactly.
    pub tick_phase: Option<SimTime>,
    /// ns-2 `rfc2988_` (default true): the min RTO clamps the RTO before the backoff
    /// multiplier, and the multiplier keeps doubling past 64 while the RTO is below the max.
    /// false: the min RTO clamps the backed-off value, and the multiplier stops at 64.
    pub rfc2988: bool,
    /// ns-2's fixed-point RTT estimator (`rtt_update`, Jacobson 1988): srtt is kept times
    /// 2^`srtt_bits` (`T_SRTT_BITS`, 3: gain 1/8), rttvar times 2^`rttvar_bits`
    /// (`T_RTTVAR_BITS`, 2: gain 1/4), and the RTO is srtt + 2^`rttvar_exp` · rttvar
    /// (`rttvar_exp_`, 2). Used by the ns-2 arithmetic only.
    pub srtt_bits: u32,
    pub rttvar_bits: u32,
    pub rttvar_exp: u32,
}

/// Vegas parameters (Brakmo and Peterson; ns-2 `v_alpha_`, `v_beta_`, `v_gamma_`), in packets.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct VegasConfig {
    pub alpha: f64,
    pub beta: f64,
    pub gamma: f64,
}

/// Vegas-W parameters (`ding-vegasw` seed §III-C; defaults from §IV-A: "N_fw ... is set to be
/// 2. N_s and N_CA ... are set to be 10 and 100 ... NS_CA and TO_ss ... are set to be 100 and
/// 2", "parameter p in slow start phase is set to be 1/8"). Its alpha, beta and gamma are
/// [`VegasConfig`]'s (the paper's 1, 3, 1 are ns-2's).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct VegasWConfig {
    /// N_fw: consecutive timeouts at the minimum window that enter the fractional window.
    pub n_fw: u32,
    /// N_s: slow start adds one packet when more than N_s ACKs have counted (eq. 1).
    pub n_s: u32,
    /// N_CA: congestion avoidance adds 1/W when more than N_CA ACKs have counted (eq. 2).
    pub n_ca: u32,
    /// NS_CA: W_th follows the window after more than NS_CA stable RTTs (Algorithm 1).
    pub ns_ca: u32,
    /// TO_ss: W_th drops by one after more than TO_ss consecutive timeouts below it.
    pub to_ss: u32,
    /// p: the slow-start cut when delta exceeds gamma, W(1 − p) (eq. 1).
    pub p: f64,
    /// The fractional window entered after N_fw timeouts ("For simplicity, window is set to
    /// be 0.5 after the indication").
    pub fractional_window: f64,
}

impl Default for VegasWConfig {
    fn default() -> Self {
        VegasWConfig {
            n_fw: 2,
            n_s: 10,
            n_ca: 100,
            ns_ca: 100,
            to_ss: 2,
            p: 0.125,
            fractional_window: 0.5,
        }
    }
}

/// NewReno switches that changed between ns-2 releases (tcp-spec §6).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NewRenoConfig {
    pub partial_window_deflation: bool,
    /// Restart the timer on the first partial ACK only ("impatient", RFC 6582).
    pub first_partial_timer_only: bool,
    pub exit_recovery_fix: bool,
    /// With `bug_fix`, also allow a fast retransmit when the highest ACK equals `recover`
    /// (ns-2 `lessCareful_`, RFC 2582's less careful variant; default false).
    pub less_careful: bool,
}

/// Sender parameters. Build one with [`TcpConfig::from_profile`] and then change fields.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TcpConfig {
    pub variant: TcpVariant,
    /// Payload bytes per segment (ns-2 `packetSize_`).
    pub packet_size: u32,
    /// TCP/IP header bytes added on the wire (ns-2 adds 40 when `useHeaders_`).
    pub header_size: u32,
    /// Data packets carry the header bytes (ns-2 `useHeaders_`, default true); the SYN is
    /// `header_size` bytes either way.
    pub use_headers: bool,
    /// ns-2 Vegas's `output()` does not add the header: its packets are `packet_size` bytes
    /// (only for variants whose table row has `output_omits_header`).
    pub vegas_omits_header: bool,
    /// Receiver's advertised window in packets (ns-2 `window_`); also the initial ssthresh.
    pub window: u32,
    /// Initial window in packets (ns-2 `windowInit_`).
    pub window_init: u32,
    /// ns-2 `windowInitOption_` 2: the initial window comes from `packet_size`
    /// ([`Self::initial_window`]).
    pub window_init_by_size: bool,
    /// Most packets sent in response to one event; 0 = unlimited (ns-2 `maxburst_`).
    pub max_burst: u32,
    /// Upper bound on cwnd in packets; 0 = none (ns-2 `maxcwnd_`).
    pub max_cwnd: f64,
    /// Emulate the SYN: packet 0 is 40 bytes and cwnd is 1 until it is acknowledged.
    pub syn: bool,
    /// ns-2 `delay_growth_` (default true): the ACK of packet 0 sets cwnd to `window_init`
    /// (and with `syn`, cwnd starts at 1). false: cwnd starts at `window_init` and the ACK of
    /// packet 0 opens it as any other.
    pub delay_growth: bool,
    /// ns-2 `bugfix_ss_` (default true since ns-2 2006, Mark Allman's fix): a timeout while
    /// nothing is acknowledged yet (the SYN, or packet 0, lost) sets `window_init` to 1
    /// (`TcpAgent::timeout`), and duplicate ACKs of packet 0 may start a fast retransmit
    /// whatever `recover` (`dupack_action`'s `highest_ack_ == 0` clause). false: the initial
    /// window survives a lost SYN, and the first-packet clause is off.
    pub bugfix_ss: bool,
    /// RFC 3042 Limited Transmit (ns-2 `singledup_`; default from the variant table).
    pub limited_transmit: bool,
    /// Halve to a real window (true, ns-2.30+) or to floor(floor(W)/2) (ns-2.29 and earlier).
    pub precision_reduce: bool,
    /// Duplicate-ACK threshold (ns-2 `numdupacks_`).
    pub dupack_threshold: u32,
    /// ns-2 `numdupacksFrac_` (Sack1 only; -1: no effect): see [`Self::dupack_threshold_at`].
    pub dupack_frac: i32,
    /// Sack1: ns-2 `partial_ack_` (default false): a partial ACK in recovery sends the next
    /// two packets not SACKed at once (`partial_ack_action`), takes one packet out of the
    /// pipe instead of two, and restarts the timer only on the first partial ACK.
    pub partial_ack: bool,
    /// FACK: ns-2 `ss-div4_` (default false): a loss ending slow start halves cwnd before the
    /// reduction (`super::recovery::fack`).
    pub fack_ss_div4: bool,
    /// FACK: ns-2 `rampdown_` (default false): the window comes down gradually after a loss
    /// (`super::recovery::fack`).
    pub fack_rampdown: bool,
    /// ns-2 `overhead_` (default 0, off): the send loop waits a uniform random time in
    /// [0, overhead) before it sends (`TcpAgent::send_much`'s delayed-send timer), the draw
    /// the host's (`TcpSender::delayed_send_requested`).
    pub overhead: SimTime,
    /// No second fast retransmit before the window sent at the last one is acknowledged
    /// (ns-2 `bugFix_`, default true); false: every third duplicate ACK retransmits.
    pub bug_fix: bool,
    /// NewReno with `bug_fix`: still allow a fast retransmit when cwnd > 1 and the last new
    /// ACK advanced by at most the duplicate-ACK threshold (ns-2 `bugFix_ack_`, default
    /// false; RFC 6582 §4.2 "ACK heuristic").
    pub bug_fix_ack: bool,
    /// NewReno with `bug_fix` and timestamps: still allow a fast retransmit when the last
    /// new ACK echoed the last send time of the packet it acknowledges (ns-2 `bugFix_ts_`,
    /// default false; RFC 6582 §4.2 "timestamp heuristic").
    pub bug_fix_ts: bool,
    /// ns-2 `newtimer`: the retransmission timer is restarted on every new ACK, even when
    /// everything offered is acknowledged (scenario `idle_rtx_timer`).
    pub idle_rtx_timer: bool,
    /// No fast retransmit at all: the third duplicate ACK does nothing and losses wait for
    /// the timer (ns-2 `noFastRetrans_`, default false; read only by ns-2's Tahoe,
    /// `TcpAgent::recv`, as here).
    pub no_fast_retrans: bool,
    /// ns-2 `exitFastRetrans_` (default true): the duplicates after a fast retransmit inflate
    /// the window only while the sender is in that recovery. false: the third duplicate sets
    /// the inflation to the threshold even when no fast retransmit happened, and every further
    /// duplicate inflates it (ns-2.35 Reno and NewReno `recv`).
    pub exit_fast_retrans: bool,
    /// Reno: the first new ACK after a fast retransmit marks its recovery over (ns-2.35's
    /// `last_cwnd_action_ = CWND_ACTION_EXITED`; absent in 2.26, which kept DUPACK, so the
    /// next third duplicate could fast-retransmit again).
    pub exit_on_new_ack: bool,
    /// Congestion-avoidance increase per RTT in packets: cwnd += increase_num/cwnd per new ACK
    /// (ns-2 `increase_num_`). Default from the variant table: 1; FeW's alpha 0.01 (tcp-spec
    /// §10), which a scenario sets through this same option.
    pub increase_num: f64,
    /// ns-2 `decrease_num_` (default 0.5): the window a loss leaves, as a fraction of the
    /// window before it (`TcpAgent::slowdown`'s `decreasewin`; with the binomial increase,
    /// `1 - decrease_num` scales the cut `W^l` instead). ns-2 applies it from the second
    /// cut on, out of slow start (see `CongestionState::slowdown`).
    pub decrease_num: f64,
    /// ns-2 `windowOption_`: the congestion-avoidance increase rule (`TcpAgent::opencwnd`).
    pub window_option: WindowOption,
    /// The smallest window, in packets (> 0, may be fractional): what a timeout (ns-2
    /// `CLOSE_CWND_RESTART`, `wnd_restart_`), Tahoe's fast retransmit (`CLOSE_CWND_ONE`) and an
    /// idle restart set cwnd to, and the floor of NewReno's partial deflation and Vegas's
    /// reductions. Default from the variant table: 1, Vegas 2, Vegas-W 1 (seed §IV-B).
    pub min_cwnd: f64,
    /// Send below one packet: a window `w < 1` sends one packet every srtt / w
    /// (`window::pacing`). Default from the variant table: off in every ns-2 variant (ns-2's
    /// send loop floors cwnd, so a window of 0.5, e.g. `min_cwnd` 0.5, waits for the
    /// retransmission timer); on for Vegas-W, whose rate-control timer this is.
    pub pace_below_one: bool,
    /// The floor ns-2 `slowdown` clamps ssthresh to (tcp-spec §2), and the threshold Vegas
    /// resets ssthresh to when it leaves slow start (§9.2). Default from the table: 2, Vegas-W 1.
    pub min_ssthresh: f64,
    /// The timestamp option (ns-2 `timestamps_`, default false; RFC 7323 §4.1 RTTM): every
    /// new ACK gives an RTT sample from its echoed timestamp, retransmissions included, and
    /// data packets carry `ts_option_size` more header bytes (not the SYN).
    pub timestamps: bool,
    /// Header bytes the option adds to a data packet (ns-2 `ts_option_size_`, 10).
    pub ts_option_size: u32,
    /// With timestamps, every sample ends the timer backoff (ns-2 `ts_resetRTO_`, default
    /// false: only the sample of the timed packet does).
    pub ts_reset_rto: bool,
    /// Restart the retransmission timer after a new ACK's RTT sample (ns-2 `timerfix_`,
    /// default true); false: before it, with the RTO the sample is about to change.
    pub timer_fix: bool,
    /// ECN (RFC 3168) as ns-2's one-way agents model it (ns-2 `ecn_`, default false): data
    /// packets are ECN-capable, an ECN-Echo ACK halves the window once per window of data
    /// (`super::ecn`).
    pub ecn: bool,
    /// With `ecn`, the window opens on an ECN-Echo ACK that follows another (ns-2 `old_ecn_`,
    /// default false: no ECN-Echo ACK opens it).
    pub old_ecn: bool,
    /// A timeout with nothing outstanding restarts the window at one packet (ns-2
    /// `slow_start_restart_`, default true); false: it changes nothing but the timer.
    pub slow_start_restart: bool,
    /// ns-2 `max_connects_` (default -1: no limit): with the emulated SYN, the send that
    /// would be SYN number `max_connects + 1` aborts the connection instead (nothing more is
    /// sent; ns-2's `TcpAgent::output`).
    pub max_connects: i64,
    /// ns-2's TCP quiescence option (`QOption_`, default off; ns-2 `Agent/TCP` only): after
    /// each send, an idle or application-limited spell of an RTO or more cuts the window
    /// (ssthresh to at least 3/4 cwnd, then cwnd halved per RTO idle, or halfway down to
    /// the window used), instead of the timer's slow-start restart; the timer is cancelled
    /// when every packet is acknowledged (`super::quiescence`).
    pub qoption: bool,
    /// With `qoption`, the spells are counted in RTTs estimated per clock tick (ns-2
    /// `EnblRTTCtr_`) rather than measured against the RTO.
    pub rtt_counter: bool,
    /// ns-2 `control_increase_`: a new ACK opens the window only while the sender is limited
    /// by it (`t_seqno > prev_highest_ack + window()`).
    pub control_increase: bool,
    pub rto: RtoConfig,
    pub newreno: NewRenoConfig,
    pub vegas: VegasConfig,
    pub vegasw: VegasWConfig,
}

impl TcpConfig {
    /// The defaults of `profile` for `variant` (tcp-spec §1).
    pub fn from_profile(variant: TcpVariant, profile: DefaultsProfile) -> Self {
        let spec = variant.spec();
        let ns2_35 = TcpConfig {
            variant,
            packet_size: 1000,
            header_size: 40,
            use_headers: true,
            vegas_omits_header: true,
            window: 20,
            window_init: 2,
            window_init_by_size: false,
            max_burst: 0,
            max_cwnd: 0.0,
            syn: true,
            delay_growth: true,
            bugfix_ss: true,
            limited_transmit: spec.limited_transmit,
            precision_reduce: true,
            dupack_threshold: 3,
            dupack_frac: -1,
            partial_ack: false,
            fack_ss_div4: false,
            fack_rampdown: false,
            overhead: SimTime::ZERO,
            bug_fix: true,
            bug_fix_ack: false,
            bug_fix_ts: false,
            idle_rtx_timer: false,
            no_fast_retrans: false,
            exit_fast_retrans: true,
            exit_on_new_ack: true,
            increase_num: spec.increase_num,
            decrease_num: 0.5,
            window_option: WindowOption::Standard,
            min_cwnd: spec.min_cwnd,
            min_ssthresh: spec.min_ssthresh,
            pace_below_one: spec.pace_below_one,
            timestamps: false,
            ts_option_size: 10,
            ts_reset_rto: false,
            timer_fix: true,
            ecn: false,
            old_ecn: false,
            slow_start_restart: true,
            max_connects: -1,
            qoption: false,
            rtt_counter: false,
            control_increase: false,
            rto: RtoConfig {
                mode: RtoMode::Ns2,
                tick: SimTime::from_millis(10),
                min_rto: SimTime::from_millis(200),
                max_rto: SimTime::from_millis(60_000),
                initial_rto: SimTime::from_millis(3_000),
                tick_phase: None,
                rfc2988: true,
                srtt_bits: 3,
                rttvar_bits: 2,
                rttvar_exp: 2,
            },
            newreno: NewRenoConfig {
                partial_window_deflation: true,
                first_partial_timer_only: true,
                exit_recovery_fix: false,
                less_careful: false,
            },
            vegas: VegasConfig {
                alpha: 1.0,
                beta: 3.0,
                gamma: 1.0,
            },
            vegasw: VegasWConfig::default(),
        };
        match profile {
            DefaultsProfile::Ns2_35 => ns2_35,
            // ns-2.29: initial RTO 6 s, max RTO 100000 s, integer window halving.
            DefaultsProfile::Ns2_29 => TcpConfig {
                precision_reduce: false,
                rto: RtoConfig {
                    initial_rto: SimTime::from_millis(6_000),
                    max_rto: SimTime::from_millis(100_000_000),
                    ..ns2_35.rto
                },
                ..ns2_35
            },
            // ns-2.26: additionally min RTO 1 s, NewReno without partial deflation and with
            // the timer restarted on every partial ACK, no exitFastRetrans_.
            DefaultsProfile::Ns2_26 => TcpConfig {
                precision_reduce: false,
                exit_fast_retrans: false,
                exit_on_new_ack: false,
                rto: RtoConfig {
                    min_rto: SimTime::from_millis(1_000),
                    initial_rto: SimTime::from_millis(6_000),
                    max_rto: SimTime::from_millis(100_000_000),
                    ..ns2_35.rto
                },
                newreno: NewRenoConfig {
                    partial_window_deflation: false,
                    first_partial_timer_only: false,
                    exit_recovery_fix: false,
                    less_careful: false,
                },
                ..ns2_35
            },
            // RFC 5681/6298/6582: RTO estimator with 1 s min and initial RTO, 1 ms clock.
            DefaultsProfile::Rfc => TcpConfig {
                rto: RtoConfig {
                    mode: RtoMode::Rfc6298,
                    tick: SimTime::from_millis(1),
                    min_rto: SimTime::from_millis(1_000),
                    max_rto: SimTime::from_millis(60_000),
                    initial_rto: SimTime::from_millis(1_000),
                    tick_phase: None,
                    rfc2988: true,
                    srtt_bits: 3,
                    rttvar_bits: 2,
                    rttvar_exp: 2,
                },
                ..ns2_35
            },
        }
    }

    /// Whether packet 0 is an emulated 40-byte SYN (ns-2 `syn_`, for variants that emulate
    /// it: ns-2 Vegas sends a full data packet 0 instead).
    /// ns-2 `TcpAgent::initial_window`: `window_init`, or with `window_init_by_size` (ns-2
    /// `windowInitOption_` 2, RFC 2414's rule) 4 packets of up to 1095 bytes, 3 below 2190
    /// bytes, 2 from there.
    pub fn initial_window(&self) -> f64 {
        if !self.window_init_by_size {
            f64::from(self.window_init)
        } else if self.packet_size <= 1095 {
            4.0
        } else if self.packet_size < 2190 {
            3.0
        } else {
            2.0
        }
    }

    /// ns-2 `TcpAgent::numdupacks(cwnd_)`, which Sack1 compares duplicates against: the
    /// larger of `numdupacks_` and `(int) cwnd / numdupacksFrac_` (C's truncating division).
    pub fn dupack_threshold_at(&self, cwnd: f64) -> u32 {
        let fraction = (cwnd as i64) / i64::from(self.dupack_frac);
        if i64::from(self.dupack_threshold) > fraction {
            self.dupack_threshold
        } else {
            fraction as u32
        }
    }

    pub fn packet0_is_syn(&self) -> bool {
        self.syn && self.variant.spec().emulates_syn
    }

    /// Bytes on the wire for one full data segment of this sender.
    pub fn data_wire_bytes(&self) -> u32 {
        if (self.variant.spec().output_omits_header && self.vegas_omits_header) || !self.use_headers
        {
            self.packet_size
        } else {
            let ts = if self.timestamps {
                self.ts_option_size
            } else {
                0
            };
            self.packet_size + self.header_size + ts
        }
    }
}

/// Sink (receiver) parameters (ns-2 `Agent/TCPSink`, `/DelAck`, `/Sack1`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SinkConfig {
    /// Hold in-order packets and ACK every second one or after `delack_interval`.
    pub delayed_ack: bool,
    pub delack_interval: SimTime,
    /// Generate SACK blocks.
    pub sack: bool,
    pub max_sack_blocks: u32,
    /// ACK size on the wire in bytes, before SACK blocks (ns-2 `TCPSink packetSize_` = 40).
    pub ack_size: u32,
    /// Delayed ACKs: ACK packet 0 at once (ns-2 `SYN_immediate_ack_`, default true).
    pub syn_immediate_ack: bool,
    /// Delayed ACKs: ACK a packet that fills a gap at once (ns-2 `RFC2581_immediate_ack_`,
    /// default true).
    pub gap_immediate_ack: bool,
    /// Echo the sink's `ts_to_echo_` (ns-2 `ts_echo_bugfix_`, default true; RFC 7323 §4.3)
    /// rather than the triggering segment's timestamp.
    pub ts_echo_bugfix: bool,
    /// Take the timestamp to echo from the segment that follows the last ACK exactly (ns-2
    /// `ts_echo_rfc1323_`, default false).
    pub ts_echo_rfc1323: bool,
    /// Answer the ECN setup (packet 0) with an ECN-capable ACK, which a queue on the way
    /// back may mark (ns-2 TCPSink `ecn_syn_`, default false; RFC 5562's ECN+).
    pub ecn_syn: bool,
}

impl Default for SinkConfig {
    fn default() -> Self {
        SinkConfig {
            delayed_ack: false,
            delack_interval: SimTime::from_millis(100),
            sack: false,
            max_sack_blocks: 3,
            ack_size: 40,
            syn_immediate_ack: true,
            gap_immediate_ack: true,
            ts_echo_bugfix: true,
            ts_echo_rfc1323: false,
            ecn_syn: false,
        }
    }
}
