//! The variant table: the one place that says what each named TCP variant is made of (DESIGN
//! decision 6: a loss-recovery policy composed with a window policy, plus the ns-2 quirks of
//! that agent). Nothing else in `tcp/` asks which variant it is running; it asks the table.

/// The TCP variants a scenario can name. Each is a combination of a loss-recovery policy and
/// a window policy; [`TcpVariant::spec`] says which.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TcpVariant {
    /// ns-2 `Agent/TCP`: slow start, congestion avoidance, fast retransmit, no fast recovery.
    Tahoe,
    /// ns-2 `Agent/TCP/Reno` (RFC 5681 fast recovery with ns-2's one-reaction-per-window rule).
    Reno,
    /// ns-2 `Agent/TCP/Newreno` (RFC 6582 partial ACKs).
    NewReno,
    /// ns-2 `Agent/TCP/Sack1` (Fall and Floyd's scoreboard with a pipe counter).
    Sack,
    /// ns-2 `Agent/TCP/Fack` (Mathis and Mahdavi's Forward Acknowledgement, SIGCOMM 1996).
    Fack,
    /// ns-2 `Agent/TCP/SackRH` (SACK with Mathis et al.'s Rate-Halving).
    SackRh,
    /// ns-2 `Agent/TCP/Vegas` (Brakmo and Peterson).
    Vegas,
    /// Vegas-W (Ding et al., `ding-vegasw` seed §III-C): ns-2 Vegas with fractional windows,
    /// slower start, moderate congestion avoidance and the W_th update.
    VegasW,
    /// FeW (Nahm, Helmy, Kuo, MobiHoc 2005; tcp-spec §10): NewReno whose congestion
    /// avoidance adds `increase_num` = alpha (default 0.01) per RTT instead of 1.
    Few,
    /// Demo-Vegas (`ho-mobileip` seed §IV-B): ns-2 Vegas that re-measures BaseRTT when the
    /// SIG bit of an ACK flips or its own care-of address changes.
    DemoVegas,
}

/// Loss-recovery policies (`super::recovery`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecoveryKind {
    /// tcp-spec §4.
    Tahoe,
    /// tcp-spec §5 (also the bookkeeping under ns-2 Vegas, §9.2).
    Reno,
    /// tcp-spec §6.
    NewReno,
    /// tcp-spec §7.3.
    Sack1,
    /// ns-2 `tcp-fack.cc` (`super::recovery::fack`).
    Fack,
    /// ns-2 `tcp-sack-rh.cc` (`super::recovery::sack_rh`).
    SackRh,
}

/// Window policies (`super::window`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WindowKind {
    /// ns-2 `opencwnd`/`slowdown` (tcp-spec §2), with `increase_num` (FeW, §10).
    Aimd,
    /// ns-2 `Agent/TCP/Vegas` (tcp-spec §9.2), which also claims every duplicate ACK.
    Vegas,
    /// Vegas-W (`ding-vegasw` seed §III-C) on the Vegas machinery (`window::vegasw`).
    VegasW,
    /// Demo-Vegas (`ho-mobileip` seed §IV-B) on the Vegas machinery (`window::demo_vegas`).
    DemoVegas,
}

/// What a variant is made of, and the ns-2 defaults that differ between agents.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct VariantSpec {
    pub recovery: RecoveryKind,
    pub window: WindowKind,
    /// The sink generates SACK blocks (ns-2 `Agent/TCPSink/Sack1`).
    pub sack_sink: bool,
    /// Packet 0 may be an emulated 40-byte SYN (`syn_`); ns-2 Vegas sends a full data packet 0
    /// (tcp-spec §0).
    pub emulates_syn: bool,
    /// ns-2 Vegas's own `output()` never adds the 40-byte header (tcp-spec §0); honoured unless
    /// the scenario sets `vegas_omits_header = false`.
    pub output_omits_header: bool,
    /// A timeout of the SYN itself drops `windowInit_` to 1 (ns-2 `TcpAgent::timeout`);
    /// ns-2 Vegas overrides `timeout()` without this rule.
    pub syn_timeout_resets_window_init: bool,
    /// Default of RFC 3042 Limited Transmit (`singledup_`); ns-2 Vegas has none (tcp-spec §13.10).
    pub limited_transmit: bool,
    /// Default `min_cwnd`: the window a timeout restarts from (ns-2 `wnd_restart_` = 1;
    /// Vegas `v_slowstart_` = 2, also its floor, tcp-spec §9.5 "min cwnd").
    pub min_cwnd: f64,
    /// Default `min_ssthresh`: ns-2 `slowdown` clamps ssthresh to at least 2 (tcp-spec §2), and
    /// Vegas resets ssthresh to 2 to leave slow start (§9.2).
    pub min_ssthresh: f64,
    /// Default `increase_num`: the congestion-avoidance increase per RTT (ns-2 `increase_num_`
    /// = 1; FeW's alpha, 0.01, tcp-spec §10).
    pub increase_num: f64,
    /// Default `pace_below_one`: off in every ns-2 agent (the send loop floors cwnd); on for
    /// Vegas-W, whose fractional window is sent by a rate-control timer (seed §III-C 1).
    pub pace_below_one: bool,
    /// The first packet after a window cut carries ns-2's congestion-action flag (the `A` of
    /// a trace line): `TcpAgent::output` sets it; ns-2 Vegas sends through its own
    /// `VegasTcpAgent::output`, which never does (tcp-vegas.cc).
    pub marks_cong_action: bool,
}

const AIMD: VariantSpec = VariantSpec {
    recovery: RecoveryKind::Reno,
    window: WindowKind::Aimd,
    sack_sink: false,
    emulates_syn: true,
    output_omits_header: false,
    syn_timeout_resets_window_init: true,
    limited_transmit: true,
    min_cwnd: 1.0,
    min_ssthresh: 2.0,
    increase_num: 1.0,
    pace_below_one: false,
    marks_cong_action: true,
};

/// ns-2 `Agent/TCP/Vegas`: Reno's bookkeeping under Vegas's window policy (tcp-spec §9.2).
const VEGAS: VariantSpec = VariantSpec {
    recovery: RecoveryKind::Reno,
    window: WindowKind::Vegas,
    sack_sink: false,
    emulates_syn: false,
    output_omits_header: true,
    syn_timeout_resets_window_init: false,
    limited_transmit: false,
    min_cwnd: 2.0,
    min_ssthresh: 2.0,
    increase_num: 1.0,
    pace_below_one: false,
    marks_cong_action: false,
};

impl TcpVariant {
    /// The variant table (tcp-spec §4-§9).
    pub const fn spec(self) -> VariantSpec {
        match self {
            Self::Tahoe => VariantSpec {
                recovery: RecoveryKind::Tahoe,
                ..AIMD
            },
            Self::Reno => AIMD,
            Self::NewReno => VariantSpec {
                recovery: RecoveryKind::NewReno,
                ..AIMD
            },
            Self::Sack => VariantSpec {
                recovery: RecoveryKind::Sack1,
                sack_sink: true,
                ..AIMD
            },
            // ns-2's FACK and Rate-Halving agents pair with the SACK sink and grow the window
            // by `opencwnd`; neither sends on the first duplicates (no Limited Transmit).
            Self::Fack => VariantSpec {
                recovery: RecoveryKind::Fack,
                sack_sink: true,
                limited_transmit: false,
                ..AIMD
            },
            Self::SackRh => VariantSpec {
                recovery: RecoveryKind::SackRh,
                sack_sink: true,
                limited_transmit: false,
                ..AIMD
            },
            // ns-2 Vegas inherits Reno's `recv`, `newack` and timeout bookkeeping (tcp-spec §9.2).
            Self::Vegas => VEGAS,
            // Vegas-W is built on ns-2 Vegas (seed §IV-A "We implement our algorithm into ns-2"),
            // so it keeps Vegas's recovery and packet format. Its minimum window and reset
            // threshold are 1 (seed §IV-B: "The modification of minimum window from 2 to 1";
            // "W_th update adjusts W_th^r to 1"), and its fractional window is paced.
            Self::VegasW => VariantSpec {
                window: WindowKind::VegasW,
                min_cwnd: 1.0,
                min_ssthresh: 1.0,
                pace_below_one: true,
                ..VEGAS
            },
            // The seed's simulations run Demo-Vegas as a modified ns-2.26 Vegas: Vegas's
            // recovery, packet format and floors; only the window policy differs.
            Self::DemoVegas => VariantSpec {
                window: WindowKind::DemoVegas,
                ..VEGAS
            },
            // tcp-spec §10: NewReno with `increase_num_` = alpha (ns-2 `opencwnd` uses it only
            // in congestion avoidance, so slow start and recovery are NewReno's).
            Self::Few => VariantSpec {
                recovery: RecoveryKind::NewReno,
                increase_num: 0.01,
                ..AIMD
            },
        }
    }

    /// The one place variant names are parsed.
    pub fn parse(name: &str) -> Option<Self> {
        match name {
            "tahoe" => Some(Self::Tahoe),
            "reno" => Some(Self::Reno),
            "newreno" => Some(Self::NewReno),
            "sack" => Some(Self::Sack),
            "fack" => Some(Self::Fack),
            "sackrh" | "sack-rh" => Some(Self::SackRh),
            "vegas" => Some(Self::Vegas),
            "vegasw" | "vegas-w" => Some(Self::VegasW),
            "few" => Some(Self::Few),
            "demo_vegas" | "demo-vegas" => Some(Self::DemoVegas),
            _ => None,
        }
    }
    /// The canonical names (the parser also accepts `vegas-w` for `vegasw`, `demo-vegas`
    /// for `demo_vegas` and `sack-rh` for `sackrh`).
    pub const NAMES: &'static [&'static str] = &[
        "tahoe",
        "reno",
        "newreno",
        "sack",
        "vegas",
        "vegasw",
        "few",
        "demo_vegas",
        "fack",
        "sackrh",
    ];
    pub fn name(self) -> &'static str {
        match self {
            Self::Tahoe => "tahoe",
            Self::Reno => "reno",
            Self::NewReno => "newreno",
            Self::Sack => "sack",
            Self::Fack => "fack",
            Self::SackRh => "sackrh",
            Self::Vegas => "vegas",
            Self::VegasW => "vegasw",
            Self::Few => "few",
            Self::DemoVegas => "demo_vegas",
        }
    }
    /// Whether the sink for this variant generates SACK blocks.
    pub fn uses_sack(self) -> bool {
        self.spec().sack_sink
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table against tcp-spec §4-§10 and the `ding-vegasw` seed: recovery, window, SACK
    /// sink, SYN emulation, header, SYN-timeout rule, Limited Transmit, min_cwnd,
    /// min_ssthresh, increase_num, pace_below_one.
    #[test]
    fn variant_table_matches_the_ns2_agents() {
        use RecoveryKind as R;
        use WindowKind as W;
        let row = |name: &str| {
            let v = TcpVariant::parse(name).unwrap();
            assert_eq!(v.name(), name);
            let s = v.spec();
            (
                (s.recovery, s.window, s.sack_sink, s.emulates_syn),
                (s.output_omits_header, s.syn_timeout_resets_window_init),
                (s.limited_transmit, s.min_cwnd, s.min_ssthresh),
                (s.increase_num, s.pace_below_one),
            )
        };
        let aimd = |r| {
            (
                (r, W::Aimd, false, true),
                (false, true),
                (true, 1.0, 2.0),
                (1.0, false),
            )
        };
        assert_eq!(row("tahoe"), aimd(R::Tahoe));
        assert_eq!(row("reno"), aimd(R::Reno));
        assert_eq!(row("newreno"), aimd(R::NewReno));
        assert_eq!(
            row("sack"),
            (
                (R::Sack1, W::Aimd, true, true),
                (false, true),
                (true, 1.0, 2.0),
                (1.0, false)
            )
        );
        assert_eq!(
            row("vegas"),
            (
                (R::Reno, W::Vegas, false, false),
                (true, false),
                (false, 2.0, 2.0),
                (1.0, false)
            )
        );
        // Vegas-W: Vegas's recovery and format, minimum window and reset threshold 1, paced.
        assert_eq!(
            row("vegasw"),
            (
                (R::Reno, W::VegasW, false, false),
                (true, false),
                (false, 1.0, 1.0),
                (1.0, true)
            )
        );
        // FeW: NewReno with alpha 0.01.
        assert_eq!(
            row("few"),
            (
                (R::NewReno, W::Aimd, false, true),
                (false, true),
                (true, 1.0, 2.0),
                (0.01, false)
            )
        );
        // Demo-Vegas: exactly Vegas's row but for the window policy.
        assert_eq!(
            row("demo_vegas"),
            (
                (R::Reno, W::DemoVegas, false, false),
                (true, false),
                (false, 2.0, 2.0),
                (1.0, false)
            )
        );
        // FACK and Rate-Halving: their own recovery, the SACK sink, no Limited Transmit.
        assert_eq!(
            row("fack"),
            (
                (R::Fack, W::Aimd, true, true),
                (false, true),
                (false, 1.0, 2.0),
                (1.0, false)
            )
        );
        assert_eq!(
            row("sackrh"),
            (
                (R::SackRh, W::Aimd, true, true),
                (false, true),
                (false, 1.0, 2.0),
                (1.0, false)
            )
        );
        assert_eq!(TcpVariant::parse("sack-rh"), Some(TcpVariant::SackRh));
        assert_eq!(TcpVariant::parse("vegas-w"), Some(TcpVariant::VegasW));
        assert_eq!(TcpVariant::parse("demo-vegas"), Some(TcpVariant::DemoVegas));
        assert_eq!(TcpVariant::parse("Vegas-W"), None, "names are lower case");
        assert_eq!(TcpVariant::NAMES.len(), 10);
    }
}
