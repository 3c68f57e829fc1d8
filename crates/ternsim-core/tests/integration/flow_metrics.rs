//! The MANET metrics of the run summary and the `flow_series` trace on a path whose packets
//! can be followed by hand: CBR over one wired link, so every delay is transmission plus
//! propagation and the counts follow from the sending times.

use ternsim_core::scenario::from_toml;
use ternsim_core::trace::{Column, Table};
use ternsim_core::world::run;

/// 125-byte CBR datagrams every 10 ms from t = 0 over a 1 Mb/s, 10 ms link for 3 s: each
/// takes 1 ms to transmit, so datagram k (sent at 10k ms) arrives at 10k + 11 ms.
fn cbr(traces: &str) -> String {
    format!(
        r#"
name = "cbr-pair"
duration = "3s"
[[nodes]]
name = "a"
[[nodes]]
name = "b"
[[links]]
a = "a"
b = "b"
rate = "1Mbps"
delay = "10ms"
[[flows]]
name = "v"
src = "a"
dst = "b"
transport = "udp"
app = {{ kind = "cbr", interval = "10ms", packet_size = "125B" }}
[traces]
{traces}
"#
    )
}

fn f64s<'a>(t: &'a Table, c: &str) -> &'a [f64] {
    match t.column(c) {
        Some(Column::F64(v)) => v,
        other => panic!("{c}: {other:?}"),
    }
}

fn i64s<'a>(t: &'a Table, c: &str) -> &'a [i64] {
    match t.column(c) {
        Some(Column::I64(v)) => v,
        other => panic!("{c}: {other:?}"),
    }
}

/// 301 datagrams leave (t = 0 … 3.00 s: events at the end instant still run); those sent at
/// 2.99 and 3.00 s arrive after the end: 299 received, PDR 299/301, loss rate 2/301, delay
/// 11 ms each, jitter 0.
#[test]
fn delivery_ratio_loss_delay_and_jitter_of_a_cbr_flow() {
    let out = run(&from_toml(&cbr("")).unwrap(), 1);
    let f = &out.summary.flows[0];
    assert_eq!((f.data_packets_sent, f.data_packets_received), (301, 299));
    assert!((f.packet_delivery_ratio.unwrap() - 299.0 / 301.0).abs() < 1e-12);
    assert!((f.loss_rate.unwrap() - 2.0 / 301.0).abs() < 1e-12);
    assert!((f.delay_mean_s.unwrap() - 0.011).abs() < 1e-9);
    assert!(f.jitter_s.unwrap().abs() < 1e-9);
    let t = out.summary.traffic.as_ref().expect("a flow, so totals");
    assert_eq!((t.data_packets_sent, t.data_packets_received), (301, 299));
    assert_eq!(t.packet_delivery_ratio, f.packet_delivery_ratio);
    assert_eq!(t.loss_rate, f.loss_rate);
    assert!((t.delay_mean_s.unwrap() - 0.011).abs() < 1e-9);
    // No trace asked for: no table.
    assert!(out.tables.is_empty());
}

/// In 1 s bins the arrivals at 11, 21, …, 991 ms make 99 in bin 0, then 100 in bins 1 and
/// 2 (1001 … 1991 and 2001 … 2991 ms): 99 000 and 100 000 b/s; in 0.5 s bins 49 then 50s.
#[test]
fn flow_series_bins_the_arrivals() {
    let out = run(&from_toml(&cbr("flow_series = true")).unwrap(), 1);
    let t = &out.tables[0];
    assert_eq!(t.name, "flow_series");
    assert_eq!(f64s(t, "time_s"), [0.0, 1.0, 2.0]);
    assert_eq!(i64s(t, "packets"), [99, 100, 100]);
    assert_eq!(i64s(t, "bytes"), [12_375, 12_500, 12_500]);
    assert_eq!(f64s(t, "throughput_bps"), [99_000.0, 100_000.0, 100_000.0]);
    for d in f64s(t, "delay_s") {
        assert!((d - 0.011).abs() < 1e-9);
    }
    for j in f64s(t, "jitter_s") {
        assert!(j.abs() < 1e-9);
    }
    let out = run(
        &from_toml(&cbr("flow_series = true\nflow_series_bin = \"500ms\"")).unwrap(),
        1,
    );
    let t = &out.tables[0];
    assert_eq!(i64s(t, "packets"), [49, 50, 50, 50, 50, 50]);
    assert_eq!(f64s(t, "throughput_bps")[0], 49.0 * 1000.0 / 0.5);
}

#[test]
fn a_zero_bin_is_refused_with_its_key_path() {
    let e = from_toml(&cbr("flow_series = true\nflow_series_bin = \"0s\"")).unwrap_err();
    assert_eq!(e.path, "traces.flow_series_bin");
}
