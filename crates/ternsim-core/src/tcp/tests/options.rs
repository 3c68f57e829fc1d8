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

/// The new variant names: `vegasw` (also `vegas-w`) and `few`, with their table defaults:
/// FeW's alpha 0.01 in `increase_num`; Vegas-W's minimum window and reset threshold 1, its
/// rate-control timer on, and the paper's parameters (seed §IV-A).
#[test]
fn vegasw_and_few_parse_with_their_defaults() {
    for name in ["vegasw", "vegas-w"] {
        let sc = from_toml(&scenario(name, "")).unwrap();
        let t = sc.flows[0].tcp().copied().expect("a TCP flow");
        assert_eq!(t.variant.name(), "vegasw");
        assert_eq!(
            (
                t.min_cwnd,
                t.min_ssthresh,
                t.pace_below_one,
                t.limited_transmit
            ),
            (1.0, 1.0, true, false)
        );
        let p = t.vegasw;
        assert_eq!(
            (p.n_fw, p.n_s, p.n_ca, p.ns_ca, p.to_ss),
            (2, 10, 100, 100, 2)
        );
        assert_eq!((p.p, p.fractional_window), (0.125, 0.5));
        assert_eq!(
            (t.vegas.alpha, t.vegas.beta, t.vegas.gamma),
            (1.0, 3.0, 1.0)
        );
    }
    let few = from_toml(&scenario("few", "")).unwrap();
    let t = few.flows[0].tcp().copied().expect("a TCP flow");
    assert_eq!((t.variant.name(), t.increase_num), ("few", 0.01));
    let few = from_toml(&scenario("few", "increase_num = 0.05")).unwrap();
    assert_eq!(few.flows[0].tcp().unwrap().increase_num, 0.05);
}

/// Every Vegas-W parameter is settable from a scenario.
#[test]
fn vegasw_options_are_settable() {
    let sc = from_toml(&scenario(
        "vegasw",
        "vegasw_n_fw = 3, vegasw_n_s = 5, vegasw_n_ca = 50, vegasw_ns_ca = 20, \
         vegasw_to_ss = 1, vegasw_p = 0.25, vegasw_fractional_window = 0.25, \
         vegas_alpha = 2, vegas_beta = 4, vegas_gamma = 2",
    ))
    .unwrap();
    let t = sc.flows[0].tcp().copied().expect("a TCP flow");
    let p = t.vegasw;
    assert_eq!((p.n_fw, p.n_s, p.n_ca, p.ns_ca, p.to_ss), (3, 5, 50, 20, 1));
    assert_eq!((p.p, p.fractional_window), (0.25, 0.25));
    assert_eq!(
        (t.vegas.alpha, t.vegas.beta, t.vegas.gamma),
        (2.0, 4.0, 2.0)
    );
}

/// Bad Vegas-W values are refused with the key path and what is allowed; an unknown variant
/// lists the new names.
#[test]
fn bad_vegasw_values_are_refused_with_their_key_path() {
    for (opt, key, allowed) in [
        ("vegasw_n_fw = 0", "vegasw_n_fw", "allowed: an integer >= 1"),
        ("vegasw_p = 1", "vegasw_p", "allowed: a number > 0 and < 1"),
        ("vegasw_p = 0", "vegasw_p", "allowed: a number > 0 and < 1"),
        (
            "vegasw_fractional_window = 1.5",
            "vegasw_fractional_window",
            "allowed: a number > 0 and < 1",
        ),
    ] {
        let e = from_toml(&scenario("vegasw", opt)).unwrap_err();
        assert_eq!(e.path, format!("flows.0.options.{key}"), "{opt}");
        assert!(e.message.contains(allowed), "{opt}: {e}");
    }
    // Counts are integers >= 0: the schema refuses -1 at its key path.
    let e = from_toml(&scenario("vegasw", "vegasw_n_s = -1")).unwrap_err();
    assert_eq!(e.path, "flows.0.options.vegasw_n_s", "{e}");
    let e = from_toml(&scenario("vegas_w", "")).unwrap_err();
    assert_eq!(e.path, "flows.0.tcp");
    assert!(
        e.message
            .contains("allowed: tahoe, reno, newreno, sack, vegas, vegasw, few"),
        "{e}"
    );
}

/// ns-2's general AIMD and binomial controls as options: `decrease_num`, `window_option` 6
/// with `binomial_k` and `binomial_l` (ns-2's defaults 0 and 1 when left out), also from
/// `tcp_defaults`.
#[test]
fn aimd_and_binomial_options_are_settable() {
    use crate::tcp::config::WindowOption;
    let sc = from_toml(&scenario(
        "sack",
        "decrease_num = 0.33, window_option = 6, binomial_k = 0.5, binomial_l = 0.5",
    ))
    .unwrap();
    let t = sc.flows[0].tcp().copied().expect("a TCP flow");
    assert_eq!(t.decrease_num, 0.33);
    assert_eq!(t.window_option, WindowOption::Binomial { k: 0.5, l: 0.5 });
    let sc = from_toml(&format!(
        "{}\n[tcp_defaults]\nwindow_option = 6\nbinomial_k = 1\n",
        scenario("tahoe", "binomial_l = 0")
    ))
    .unwrap();
    let t = sc.flows[0].tcp().copied().expect("a TCP flow");
    assert_eq!(t.window_option, WindowOption::Binomial { k: 1.0, l: 0.0 });
    let sc = from_toml(&scenario("reno", "window_option = 6")).unwrap();
    let t = sc.flows[0].tcp().copied().expect("a TCP flow");
    assert_eq!(t.window_option, WindowOption::Binomial { k: 0.0, l: 1.0 });
    let plain = from_toml(&scenario("reno", "")).unwrap();
    let t = plain.flows[0].tcp().copied().expect("a TCP flow");
    assert_eq!(
        (t.decrease_num, t.window_option),
        (0.5, WindowOption::Standard)
    );
}

/// Bad AIMD and binomial values, and the variants ternsim does not model them for, are
/// refused with the key path and what is allowed.
#[test]
fn bad_aimd_and_binomial_options_are_refused_with_their_key_path() {
    for (tcp, opt, key, allowed) in [
        (
            "reno",
            "decrease_num = 0",
            "decrease_num",
            "allowed: a number > 0 and <= 1",
        ),
        (
            "reno",
            "decrease_num = 1.5",
            "decrease_num",
            "allowed: a number > 0 and <= 1",
        ),
        (
            "reno",
            "window_option = 2",
            "window_option",
            "allowed: 1 (increase_num",
        ),
        (
            "reno",
            "window_option = 8",
            "window_option",
            "or 6 (binomial controls)",
        ),
        (
            "reno",
            "binomial_k = 1",
            "binomial_k",
            "applies to window_option 6 only",
        ),
        (
            "reno",
            "window_option = 6, binomial_k = -1",
            "binomial_k",
            "allowed: a number >= 0",
        ),
        (
            "reno",
            "window_option = 6, binomial_l = 2",
            "binomial_l",
            "from 0 to 1",
        ),
        (
            "vegas",
            "decrease_num = 0.75",
            "decrease_num",
            "tahoe, reno, newreno, sack and few",
        ),
        (
            "fack",
            "window_option = 6",
            "window_option",
            "tahoe, reno, newreno, sack and few",
        ),
        (
            "tahoe",
            "qoption = true, decrease_num = 0.75",
            "decrease_num",
            "with qoption",
        ),
    ] {
        let e = from_toml(&scenario(tcp, opt)).unwrap_err();
        assert_eq!(e.path, format!("flows.0.options.{key}"), "{opt}");
        assert!(e.message.contains(allowed), "{opt}: {e}");
    }
    // 0.5, ns-2's default, is accepted for every variant.
    assert!(from_toml(&scenario("vegas", "decrease_num = 0.5")).is_ok());
}
