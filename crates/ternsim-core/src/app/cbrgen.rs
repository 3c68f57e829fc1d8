//! Connection patterns as ns-2's `cbrgen.tcl` draws them (`indep-utils/cmu-scen-gen/
//! cbrgen.tcl`; manet-spec §3), and the connection file it writes.
//!
//! For each node i in turn: x = 100·U (through `%e`, seven significant digits); x < 50 → no
//! connection; else i connects to i + 1 and, when x ≥ 75, also to i + 2, both mod (nodes + 1)
//! (so cbrgen can name node `nodes`, which does not exist); each connection starts at
//! 180·⌊2³¹·U⌋ / (2³¹ − 1) seconds, drawn as it is made; stop at `max_connections`. U is
//! ns-2's MRG32k3a seeded with `seed`, so the pairs and times equal ns-2's for the same seed.

use crate::sim::mrg32k3a::Mrg32k3a;

/// cbrgen `-type`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConnectionKind {
    Cbr,
    Tcp,
}

/// cbrgen's arguments.
#[derive(Clone, Debug, PartialEq)]
pub struct CbrgenParams {
    pub kind: ConnectionKind,
    /// `-nn`
    pub nodes: u32,
    /// `-seed` (> 0: ns-2 takes 0 as "seed from the clock").
    pub seed: u32,
    /// `-mc`
    pub max_connections: u32,
    /// `-rate`, packets per second (CBR; interval_ = 1 / rate).
    pub rate: f64,
    /// `-pktsize` (cbrgen's default 512 B).
    pub packet_size: u32,
}

/// cbrgen's default packet size.
pub const CBRGEN_PACKET_SIZE: u32 = 512;
/// cbrgen's TCP `window_`.
pub const CBRGEN_TCP_WINDOW: u32 = 32;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Connection {
    pub src: u32,
    pub dst: u32,
    /// Start time, seconds.
    pub start: f64,
}

/// The connections and the number of source nodes, as cbrgen counts them.
pub fn cbrgen(nodes: u32, seed: u32, max_connections: u32) -> (u32, Vec<Connection>) {
    let mut rng = Mrg32k3a::ns2_seeded(seed);
    // Tcl's `uniform 0 180` over `ns-random`: an integer in [0, 2^31) scaled by 2^31 − 1.
    let start = |rng: &mut Mrg32k3a| {
        let r = (rng.uniform() * 2_147_483_648.0).floor();
        180.0 * (r / 2_147_483_647.0)
    };
    let mut conns = Vec::new();
    let mut sources = 0;
    let full = |c: &Vec<Connection>| max_connections > 0 && c.len() as u32 >= max_connections;
    for i in 0..nodes {
        // cbrgen compares the value printed with %e (seven significant digits).
        let x: f64 = format!("{:.6e}", 100.0 * rng.uniform())
            .parse()
            .expect("formatted float");
        if x < 50.0 {
            continue;
        }
        sources += 1;
        for (step, wanted) in [(1, true), (2, x >= 75.0)] {
            if !wanted {
                break;
            }
            let t = start(&mut rng);
            conns.push(Connection {
                src: i,
                dst: (i + step) % (nodes + 1),
                start: t,
            });
            if full(&conns) {
                return (sources, conns);
            }
        }
    }
    (sources, conns)
}

/// Tcl's rendering of a double: the shortest string that reads back the same, with `.0` on
/// integral values.
fn tcl_double(v: f64) -> String {
    format!("{v:?}")
}

/// The connection file cbrgen writes for `p` (manet-spec §3.4).
pub fn connection_file(p: &CbrgenParams) -> String {
    use std::fmt::Write;
    let (sources, conns) = cbrgen(p.nodes, p.seed, p.max_connections);
    let interval = match p.kind {
        ConnectionKind::Cbr => 1.0 / p.rate,
        ConnectionKind::Tcp => 0.0,
    };
    let mut o = String::new();
    let _ = writeln!(
        o,
        "#\n# nodes: {}, max conn: {}, send rate: {}, seed: {}\n#",
        p.nodes,
        p.max_connections,
        tcl_double(interval),
        p.seed
    );
    for (k, c) in conns.iter().enumerate() {
        let (s, d, t) = (c.src, c.dst, tcl_double(c.start));
        let _ = writeln!(o, "#\n# {s} connecting to {d} at time {t}\n#");
        match p.kind {
            ConnectionKind::Cbr => {
                let _ = writeln!(
                    o,
                    "set udp_({k}) [new Agent/UDP]\n\
                     $ns_ attach-agent $node_({s}) $udp_({k})\n\
                     set null_({k}) [new Agent/Null]\n\
                     $ns_ attach-agent $node_({d}) $null_({k})\n\
                     set cbr_({k}) [new Application/Traffic/CBR]\n\
                     $cbr_({k}) set packetSize_ {}\n\
                     $cbr_({k}) set interval_ {}\n\
                     $cbr_({k}) set random_ 1\n\
                     $cbr_({k}) set maxpkts_ 10000\n\
                     $cbr_({k}) attach-agent $udp_({k})\n\
                     $ns_ connect $udp_({k}) $null_({k})\n\
                     $ns_ at {t} \"$cbr_({k}) start\"",
                    p.packet_size,
                    tcl_double(interval)
                );
            }
            ConnectionKind::Tcp => {
                let _ = writeln!(
                    o,
                    "set tcp_({k}) [$ns_ create-connection  TCP $node_({s}) TCPSink $node_({d}) 0]\n\
                     $tcp_({k}) set window_ {CBRGEN_TCP_WINDOW}\n\
                     $tcp_({k}) set packetSize_ {}\n\
                     set ftp_({k}) [$tcp_({k}) attach-source FTP]\n\
                     $ns_ at {t} \"$ftp_({k}) start\"",
                    p.packet_size
                );
            }
        }
    }
    let _ = writeln!(
        o,
        "#\n#Total sources/connections: {sources}/{}\n#",
        conns.len()
    );
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_1_gives_ns2s_pairs_and_start_times() {
        // manet-spec §3.5: `ns cbrgen.tcl -type cbr -nn 50 -seed 1 -mc 10 -rate 4.0` with
        // ns-2.35: 7 sources, 10 connections, these pairs and (Tcl-printed) times.
        let (sources, conns) = cbrgen(50, 1, 10);
        assert_eq!(sources, 7);
        let got: Vec<(u32, u32, String)> = conns
            .iter()
            .map(|c| (c.src, c.dst, tcl_double(c.start)))
            .collect();
        let want = [
            (1, 2, "2.5568388786897245"),
            (4, 5, "56.33311891757563"),
            (4, 6, "146.96568928983328"),
            (6, 7, "55.63423038257017"),
            (7, 8, "29.546173154165118"),
            (7, 9, "7.703020315479031"),
            (8, 9, "20.48548468411224"),
            (9, 10, "76.25821252179249"),
            (9, 11, "31.464945688594575"),
            (11, 12, "62.77338456491632"),
        ];
        let want: Vec<(u32, u32, String)> = want
            .iter()
            .map(|&(s, d, t)| (s, d, t.to_string()))
            .collect();
        assert_eq!(got, want);
        // -mc 30: 20 sources, the list ends 35→36, 36→37.
        let (sources, conns) = cbrgen(50, 1, 30);
        assert_eq!((sources, conns.len()), (20, 30));
        let tail: Vec<(u32, u32)> = conns[28..].iter().map(|c| (c.src, c.dst)).collect();
        assert_eq!(tail, vec![(35, 36), (36, 37)]);
    }

    #[test]
    fn the_file_has_cbrgens_header_and_trailer() {
        let f = connection_file(&CbrgenParams {
            kind: ConnectionKind::Cbr,
            nodes: 50,
            seed: 1,
            max_connections: 10,
            rate: 4.0,
            packet_size: 512,
        });
        assert!(f.starts_with("#\n# nodes: 50, max conn: 10, send rate: 0.25, seed: 1\n#\n"));
        assert!(f.contains("$ns_ at 2.5568388786897245 \"$cbr_(0) start\""));
        assert!(f.ends_with("#Total sources/connections: 7/10\n#\n"));
    }
}
