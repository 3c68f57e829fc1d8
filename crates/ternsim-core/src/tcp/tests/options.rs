//! The variant parameters as scenario options (`flows.N.options`, `tcp_defaults`): defaults
//! from the variant table, overrides, and refusals that name the key path.

use crate::scenario::from_toml;

fn scenario(tcp: &str, options: &str) -> String {
    format!(
        r#"
name = "t"
duration = "10s"
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
src = "a"
dst = "b"
tcp = "{tcp}"
options = {{ {options} }}
"#
    )
}

/// min_cwnd, min_ssthresh and limited_transmit default from the variant table.
#[test]
fn window_floors_default_from_the_variant_table() {
    let reno = from_toml(&scenario("reno", "")).unwrap();
    let t = reno.flows[0].tcp().copied().expect("a TCP flow");
    assert_eq!(
        (
            t.min_cwnd,
            t.min_ssthresh,
            t.increase_num,
            t.limited_transmit
        ),
        (1.0, 2.0, 1.0, true)
    );
    let vegas = from_toml(&scenario("vegas", "")).unwrap();
    let t = vegas.flows[0].tcp().copied().expect("a TCP flow");
    assert_eq!(
        (t.min_cwnd, t.min_ssthresh, t.limited_transmit),
        (2.0, 2.0, false)
    );
}

/// FeW (tcp-spec §10) is `newreno` with `increase_num`; the floors are settable, fractional.
#[test]
fn increase_num_min_cwnd_min_ssthresh_are_settable() {
    let sc = from_toml(&scenario(
        "newreno",
        "increase_num = 0.01, min_cwnd = 0.5, min_ssthresh = 3, pace_below_one = true",
    ))
    .unwrap();
    let t = sc.flows[0].tcp().copied().expect("a TCP flow");
    assert_eq!(
        (t.increase_num, t.min_cwnd, t.min_ssthresh, t.pace_below_one),
        (0.01, 0.5, 3.0, true)
    );
    let plain = from_toml(&scenario("newreno", "")).unwrap();
    assert!(
        !plain.flows[0].tcp().unwrap().pace_below_one,
        "ns-2: no pacing"
    );
}

/// Zero or negative values are refused with the key path and what is allowed.
#[test]
fn non_positive_values_are_refused_with_their_key_path() {
    for key in ["increase_num", "min_cwnd", "min_ssthresh"] {
        for bad in ["0", "-1.5"] {
            let e = from_toml(&scenario("reno", &format!("{key} = {bad}"))).unwrap_err();
            assert_eq!(e.path, format!("flows.0.options.{key}"), "{key} = {bad}");
            assert!(e.message.contains("allowed: a number > 0"), "{e}");
        }
    }
    let e = from_toml(&format!(
        "{}\n[tcp_defaults]\nmin_cwnd = 0\n",
        scenario("reno", "")
    ))
    .unwrap_err();
    assert_eq!(e.path, "tcp_defaults.min_cwnd");
}
