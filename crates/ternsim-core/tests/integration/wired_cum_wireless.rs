//! Wired-cum-wireless networks (`[[nodes]] base_station`): a wired host reaches mobile nodes
//! through their base station, over the wired links and then DSDV on the channel, as ns-2.35's
//! hierarchical base stations do; and the reset that ends a CMU script.

use ternsim_core::scenario::{from_toml, ScenarioError};
use ternsim_core::world::run;

/// Wired host `w0` - router `w1` - base station `bs` (at the origin); mobile nodes `m1` at
/// 200 m and `m2` at 400 m, each naming `bs` (m2 is two radio hops away: 250 m range).
fn network(extra_node_keys: &str, routing: &str, flows: &str) -> String {
    format!(
        r#"
name = "wcw"
duration = "120s"
[[nodes]]
name = "w0"
[[nodes]]
name = "w1"
[[nodes]]
name = "bs"
position = [0.0, 0.0]
[[nodes]]
name = "m1"
position = [200.0, 0.0]
base_station = "bs"
{extra_node_keys}
[[nodes]]
name = "m2"
position = [400.0, 0.0]
base_station = "bs"
[[links]]
a = "w0"
b = "w1"
rate = "5Mbps"
delay = "2ms"
[[links]]
a = "w1"
b = "bs"
rate = "5Mbps"
delay = "2ms"
[wireless]
data_rate = "2Mbps"
[routing]
{routing}
{flows}
"#
    )
}

const CBR_BOTH_WAYS: &str = r#"
[[flows]]
name = "down"
src = "w0"
dst = "m2"
transport = "udp"
start = "80s"
stop = "110s"
app = { kind = "cbr", rate = "40kbps", packet_size = "500B" }
[[flows]]
name = "up"
src = "m2"
dst = "w0"
transport = "udp"
start = "80s"
stop = "110s"
app = { kind = "cbr", rate = "40kbps", packet_size = "500B" }
"#;

/// Once DSDV has converged (each new route waits twice its 6 s settling time before it is
/// advertised, so two hops take a few full dumps), 40 kb/s of 500-byte packets each way
/// over 30 s is 300 packets each (301 with the one at the stop instant), all delivered:
/// nothing congests a 2 Mb/s channel, and the wired side routes m2's address to its base
/// station.
#[test]
fn a_wired_host_and_a_mobile_node_two_hops_from_its_base_station_exchange_traffic() {
    let text = network("", "protocol = \"dsdv\"", CBR_BOTH_WAYS);
    let sc = from_toml(&text).unwrap_or_else(|e| panic!("{e}"));
    let s = run(&sc, 1).summary;
    for f in &s.flows {
        let sent = f.packets_sent.unwrap();
        assert!((300..=301).contains(&sent), "{}: {sent}", f.name);
        assert_eq!(f.packets_received, Some(sent), "{}", f.name);
    }
    // No packet left the channel for want of a route to the base station.
    assert!(!s
        .packets
        .drops_by_reason
        .contains_key("no_base_station_route"));
}

fn error(text: &str) -> ScenarioError {
    from_toml(text).expect_err("refused")
}

#[test]
fn bad_base_stations_name_the_key_and_what_is_allowed() {
    let e = error(&network("", "protocol = \"aodv\"", ""));
    assert_eq!(e.path, "routing.protocol");
    assert!(e.message.contains("dsdv"), "{e}");
    // A base station must have a position and a wired link: `w1` has no position.
    let text = network("", "protocol = \"dsdv\"", "").replacen(
        "base_station = \"bs\"",
        "base_station = \"w1\"",
        1,
    );
    let e = error(&text);
    assert_eq!(e.path, "nodes.3.base_station");
    assert!(e.message.contains("`bs`"), "{e}");
    let text = network("", "protocol = \"dsdv\"", "").replacen(
        "base_station = \"bs\"",
        "base_station = \"nowhere\"",
        1,
    );
    assert_eq!(error(&text).path, "nodes.3.base_station");
    // A mobile node with a wired link of its own.
    let text = network("", "protocol = \"dsdv\"", "")
        + "[[links]]\na = \"m1\"\nb = \"w0\"\nrate = \"1Mbps\"\ndelay = \"1ms\"\n";
    let e = error(&text);
    assert_eq!(e.path, "nodes.3.base_station");
    assert!(e.message.contains("no wired link"), "{e}");
}

/// `[[events]] node, action = "reset"` (ns-2 `$node reset`): a source offering 2 Mb/s to a
/// 1 Mb/s channel keeps its interface queue full, so a reset at 5 s drops a full queue as
/// `end_of_simulation`: with ns-2's limit of 50, which counts the packet the MAC holds (a
/// DropTail refuses an arrival once waiting + 1 reaches it), 49 wait, 48 just after the MAC
/// took one.
#[test]
fn a_node_reset_flushes_its_interface_queue() {
    let text = r#"
name = "reset"
duration = "6s"
[[nodes]]
name = "a"
position = [0.0, 0.0]
[[nodes]]
name = "b"
position = [100.0, 0.0]
[wireless]
[[flows]]
name = "cbr"
src = "a"
dst = "b"
transport = "udp"
app = { kind = "cbr", rate = "2Mbps", packet_size = "1000B" }
[[events]]
at = "5s"
node = "a"
action = "reset"
"#;
    let sc = from_toml(text).unwrap_or_else(|e| panic!("{e}"));
    let s = run(&sc, 1).summary;
    let flushed = s.packets.drops_by_reason["end_of_simulation"];
    assert!((48..=49).contains(&flushed), "{flushed}");
    let e = error(&text.replace("action = \"reset\"", "action = \"down\""));
    assert_eq!(e.path, "events.0.action");
    assert!(e.message.contains("reset (nodes)"), "{e}");
    let e = error(&text.replace("node = \"a\"", "node = \"a\"\nflow = \"cbr\""));
    assert_eq!(e.path, "events.0.node");
}
