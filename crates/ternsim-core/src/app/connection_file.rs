//! Reading ns-2 connection files (cbrgen's output and hand-written Tcl of the same shape;
//! manet-spec §3.4).
//!
//! A small interpreter of the statements such files use: agents and applications made with
//! `new` (or `create-connection`, `attach-source`), placed with `attach-agent`, joined with
//! `connect`, configured with `set`, started and stopped with `$ns_ at t "$app start"`.
//! Each started application becomes one connection: an FTP over a TCP agent, or a CBR over
//! a UDP agent.

use std::collections::HashMap;

/// One connection of the file; nodes are `$node_(i)` indices.
#[derive(Clone, Debug, PartialEq)]
pub struct FileConnection {
    /// `cbr_<k>` (the CBR application) or `tcp_<k>` (the TCP agent): the variable's name.
    pub name: String,
    pub src: usize,
    pub dst: usize,
    pub start: f64,
    pub stop: Option<f64>,
    pub transport: FileTransport,
}

#[derive(Clone, Debug, PartialEq)]
pub enum FileTransport {
    Cbr {
        packet_size: Option<u32>,
        interval: Option<f64>,
        /// `rate_` in bits per second.
        rate_bps: Option<f64>,
        random: bool,
        max_packets: Option<u64>,
    },
    Tcp {
        /// ns-2 class after `Agent/`: `TCP` (Tahoe), `TCP/Reno`, `TCP/Newreno`, `TCP/Sack1`,
        /// `TCP/Vegas`.
        agent: String,
        packet_size: Option<u32>,
        window: Option<u32>,
    },
}

impl FileTransport {
    /// The ternsim TCP variant an ns-2 TCP agent class is.
    pub fn tcp_variant(agent: &str) -> Option<&'static str> {
        Some(match agent {
            "TCP" => "tahoe",
            "TCP/Reno" => "reno",
            "TCP/Newreno" => "newreno",
            "TCP/Sack1" => "sack",
            "TCP/Vegas" => "vegas",
            _ => return None,
        })
    }
}

#[derive(Debug, Default)]
struct Object {
    class: String,
    node: Option<usize>,
    attrs: Vec<(String, String, usize)>,
    agent: Option<String>,
    peer: Option<String>,
    start: Option<f64>,
    stop: Option<f64>,
    created: usize,
}

fn var(word: &str) -> &str {
    word.trim_start_matches('$')
}

fn node(word: &str, line: usize) -> Result<usize, String> {
    word.strip_prefix("$node_(")
        .and_then(|w| w.strip_suffix(')'))
        .and_then(|i| i.parse().ok())
        .ok_or_else(|| format!("line {line}: expected `$node_(<index>)`, got `{word}`"))
}

fn number<T: std::str::FromStr>(v: &str, line: usize, what: &str) -> Result<T, String> {
    v.parse()
        .map_err(|_| format!("line {line}: {what} `{v}` is not a number"))
}

/// Parses a connection file.
pub fn parse_connection_file(text: &str) -> Result<Vec<FileConnection>, String> {
    let mut objs: HashMap<String, Object> = HashMap::new();
    let mut count = 0;
    let mut new = |objs: &mut HashMap<String, Object>, name: &str, class: String| {
        count += 1;
        objs.insert(
            name.to_string(),
            Object {
                class,
                created: count,
                ..Object::default()
            },
        );
    };
    let get = |objs: &mut HashMap<String, Object>, name: &str, line: usize| {
        let name = var(name).to_string();
        if objs.contains_key(&name) {
            Ok(name)
        } else {
            Err(format!(
                "line {line}: `{name}` is used before it is created"
            ))
        }
    };
    for (k, raw) in text.lines().enumerate() {
        let line = k + 1;
        let stmt = raw.trim();
        if stmt.is_empty() || stmt.starts_with('#') || stmt.contains("$god_") {
            continue;
        }
        let cleaned = stmt.replace(['[', ']', '"'], " ");
        let w: Vec<&str> = cleaned.split_whitespace().collect();
        match w.as_slice() {
            ["set", v, "new", class] => new(&mut objs, v, class.to_string()),
            ["set", v, "$ns_", "create-connection", src_class, s, sink_class, d, _fid] => {
                let (s, d) = (node(s, line)?, node(d, line)?);
                let sink = format!("{v}/sink");
                new(&mut objs, v, format!("Agent/{src_class}"));
                new(&mut objs, &sink, format!("Agent/{sink_class}"));
                let a = objs.get_mut(*v).expect("created");
                a.node = Some(s);
                a.peer = Some(sink.clone());
                let b = objs.get_mut(&sink).expect("created");
                b.node = Some(d);
                b.peer = Some(v.to_string());
            }
            ["set", v, a, "attach-source" | "attach-app", app] => {
                let a = get(&mut objs, a, line)?;
                new(&mut objs, v, format!("Application/{app}"));
                objs.get_mut(*v).expect("created").agent = Some(a);
            }
            ["$ns_", "attach-agent", n, a] => {
                let n = node(n, line)?;
                let a = get(&mut objs, a, line)?;
                objs.get_mut(&a).expect("exists").node = Some(n);
            }
            ["$ns_", "connect", a, b] => {
                let (a, b) = (get(&mut objs, a, line)?, get(&mut objs, b, line)?);
                objs.get_mut(&a).expect("exists").peer = Some(b.clone());
                objs.get_mut(&b).expect("exists").peer = Some(a);
            }
            ["$ns_", "at", t, o, action @ ("start" | "stop")] => {
                let t: f64 = number(t, line, "time")?;
                let o = get(&mut objs, o, line)?;
                let obj = objs.get_mut(&o).expect("exists");
                if *action == "start" {
                    // Starting a running application again changes nothing: the earliest
                    // start counts.
                    obj.start = Some(obj.start.map_or(t, |s: f64| s.min(t)));
                } else {
                    obj.stop = Some(t);
                }
            }
            [o, "set", key, value] if o.starts_with('$') => {
                let o = get(&mut objs, o, line)?;
                let obj = objs.get_mut(&o).expect("exists");
                obj.attrs.push((key.to_string(), value.to_string(), line));
            }
            [o, "attach-agent", a] if o.starts_with('$') => {
                let (o, a) = (get(&mut objs, o, line)?, get(&mut objs, a, line)?);
                objs.get_mut(&o).expect("exists").agent = Some(a);
            }
            _ => {
                return Err(format!(
                    "line {line}: not a connection statement (new agents and applications, \
                     attach-agent, connect, set, $ns_ at t \"$app start\"): `{stmt}`"
                ))
            }
        }
    }
    let mut apps: Vec<(&String, &Object)> = objs
        .iter()
        .filter(|(_, o)| o.class.starts_with("Application/") && o.start.is_some())
        .collect();
    apps.sort_by_key(|(_, o)| o.created);
    apps.into_iter()
        .map(|(name, app)| connection(name, app, &objs))
        .collect()
}

/// `cbr_(3)` → `cbr_3`.
fn flow_name(var: &str) -> String {
    match var.split_once('(') {
        Some((stem, rest)) => format!("{stem}{}", rest.trim_end_matches(')')),
        None => var.to_string(),
    }
}

fn connection(
    name: &str,
    app: &Object,
    objs: &HashMap<String, Object>,
) -> Result<FileConnection, String> {
    let agent_name = app
        .agent
        .as_ref()
        .ok_or_else(|| format!("application `{name}` is not attached to an agent"))?;
    let agent = &objs[agent_name];
    let src = agent
        .node
        .ok_or_else(|| format!("agent `{agent_name}` is not attached to a node"))?;
    let peer_name = agent
        .peer
        .as_ref()
        .ok_or_else(|| format!("agent `{agent_name}` is not connected to a peer"))?;
    let dst = objs[peer_name]
        .node
        .ok_or_else(|| format!("agent `{peer_name}` is not attached to a node"))?;
    let bad = |key: &str, line: usize, obj: &str| {
        format!("line {line}: `{obj} set {key}` is not supported")
    };
    let (flow, transport) = match (agent.class.as_str(), app.class.as_str()) {
        ("Agent/UDP", "Application/Traffic/CBR") => {
            let (mut packet_size, mut interval, mut rate_bps) = (None, None, None);
            let (mut random, mut max_packets) = (false, None);
            for (key, value, line) in &app.attrs {
                let l = *line;
                match key.as_str() {
                    "packetSize_" => packet_size = Some(number(value, l, key)?),
                    "interval_" => interval = Some(number(value, l, key)?),
                    "rate_" => rate_bps = Some(number(value, l, key)?),
                    "random_" => random = number::<f64>(value, l, key)? != 0.0,
                    "maxpkts_" => max_packets = Some(number(value, l, key)?),
                    _ => return Err(bad(key, l, name)),
                }
            }
            let t = FileTransport::Cbr {
                packet_size,
                interval,
                rate_bps,
                random,
                max_packets,
            };
            (flow_name(name), t)
        }
        (class, "Application/FTP") if class.starts_with("Agent/TCP") => {
            let agent_class = class.trim_start_matches("Agent/").to_string();
            if FileTransport::tcp_variant(&agent_class).is_none() {
                return Err(format!(
                    "agent `{agent_name}`: ns-2 class `{class}` is not supported; allowed: \
                     Agent/TCP, Agent/TCP/Reno, Agent/TCP/Newreno, Agent/TCP/Sack1, Agent/TCP/Vegas"
                ));
            }
            let (mut packet_size, mut window) = (None, None);
            for (key, value, line) in &agent.attrs {
                let l = *line;
                match key.as_str() {
                    "packetSize_" => packet_size = Some(number(value, l, key)?),
                    "window_" => window = Some(number(value, l, key)?),
                    // Flow ids and classes only colour nam traces.
                    "fid_" | "class_" => {}
                    _ => return Err(bad(key, l, agent_name)),
                }
            }
            let t = FileTransport::Tcp {
                agent: agent_class,
                packet_size,
                window,
            };
            (flow_name(agent_name), t)
        }
        (a, p) => {
            return Err(format!(
                "application `{name}` ({p} over {a}): allowed: Application/Traffic/CBR over \
                 Agent/UDP, Application/FTP over Agent/TCP"
            ))
        }
    };
    Ok(FileConnection {
        name: flow,
        src,
        dst,
        start: app.start.expect("started"),
        stop: app.stop,
        transport,
    })
}

#[cfg(test)]
mod tests {
    use super::super::cbrgen::{connection_file, CbrgenParams, ConnectionKind};
    use super::*;

    #[test]
    fn reads_back_what_cbrgen_writes() {
        let mut p = CbrgenParams {
            kind: ConnectionKind::Cbr,
            nodes: 50,
            seed: 1,
            max_connections: 10,
            rate: 4.0,
            packet_size: 64,
        };
        let conns = parse_connection_file(&connection_file(&p)).unwrap();
        assert_eq!(conns.len(), 10);
        assert_eq!(conns[2].name, "cbr_2");
        assert_eq!((conns[2].src, conns[2].dst), (4, 6));
        assert_eq!(conns[2].start, 146.96568928983328);
        assert_eq!(
            conns[2].transport,
            FileTransport::Cbr {
                packet_size: Some(64),
                interval: Some(0.25),
                rate_bps: None,
                random: true,
                max_packets: Some(10000)
            }
        );
        p.kind = ConnectionKind::Tcp;
        let conns = parse_connection_file(&connection_file(&p)).unwrap();
        assert_eq!(conns[9].name, "tcp_9");
        assert_eq!((conns[9].src, conns[9].dst), (11, 12));
        assert_eq!(
            conns[9].transport,
            FileTransport::Tcp {
                agent: "TCP".into(),
                packet_size: Some(64),
                window: Some(32)
            }
        );
    }

    #[test]
    fn reads_the_new_agent_form_with_a_stop() {
        let text = r#"
set tcp_(0) [new Agent/TCP/Reno]
$tcp_(0) set class_ 2
set sink_(0) [new Agent/TCPSink]
$ns_ attach-agent $node_(3) $tcp_(0)
$ns_ attach-agent $node_(7) $sink_(0)
$ns_ connect $tcp_(0) $sink_(0)
set ftp_(0) [new Application/FTP]
$ftp_(0) attach-agent $tcp_(0)
$ns_ at 10.0 "$ftp_(0) start"
$ns_ at 20.5 "$ftp_(0) stop"
"#;
        let c = &parse_connection_file(text).unwrap()[0];
        assert_eq!((c.name.as_str(), c.src, c.dst), ("tcp_0", 3, 7));
        assert_eq!((c.start, c.stop), (10.0, Some(20.5)));
    }

    #[test]
    fn errors_name_the_line() {
        let e = parse_connection_file("set a [new Agent/UDP]\n$b set x 1\n").unwrap_err();
        assert!(e.starts_with("line 2:"), "{e}");
    }
}
