//! Serde's type errors in the words of a scenario file.
//!
//! serde reports a wrong value as `invalid type: string "abc", expected u32`: Rust's vocabulary.
//! This module rewrites such messages as `got the string "abc"; expected a whole number of
//! packets`, naming what the key counts when the key is one of the integer keys of the schema.
//! It only rewrites text; messages it does not recognise pass through unchanged.

/// What an integer-valued key counts, by its last path segment (see `schema.rs`).
fn counted(key: &str) -> Option<&'static str> {
    Some(match key {
        "queue" | "ifq_length" | "hold_packets" | "window" | "window_init" | "max_burst" => {
            "packets"
        }
        "mac_header" => "bytes",
        "hops" => "hops",
        "rows" => "rows",
        "cols" => "columns",
        "cw_min" | "cw_max" => "slots",
        "short_retry_limit" | "long_retry_limit" => "attempts",
        "tx_window" | "rx_window" | "poll_pdu" | "max_dat" => "RLC PDUs",
        "poll_sdu" => "SDUs",
        "poll_window" => "percent",
        "blocks_per_tti" => "transport blocks",
        "dupack_threshold" => "duplicate ACKs",
        "sack_blocks" => "SACK blocks",
        "vegasw_n_s" | "vegasw_n_ca" => "ACKs",
        "vegasw_ns_ca" => "RTTs",
        "vegasw_n_fw" => "timeouts",
        _ => return None,
    })
}

/// Serde's name of the expected type, in words; `key` is the last segment of the key path.
fn expected(what: &str, key: &str) -> String {
    let whole = |range: &str| match counted(key) {
        Some(noun) => format!("a whole number of {noun}{range}"),
        None => format!("a whole number{range}"),
    };
    match what {
        "u8" => whole(" (0 to 255)"),
        "u16" => whole(" (0 to 65535)"),
        "u32" => whole(" (0 to 4294967295)"),
        "u64" | "usize" => whole(" (0 or more)"),
        "i32" | "i64" | "isize" => whole(""),
        "f32" | "f64" => "a number".to_string(),
        "a boolean" => "true or false".to_string(),
        "a string" => "a string in quotes".to_string(),
        "a sequence" => "a list [...]".to_string(),
        "a map" => "a table".to_string(),
        // `struct LinkSpec`: one of the schema's tables (the whole scenario, a link, a flow).
        other if other.starts_with("struct ") => "a table of keys".to_string(),
        other => other.to_string(),
    }
}

/// Serde's description of the value it got, in words.
fn got(what: &str) -> String {
    let literal = |prefix: &str| {
        what.strip_prefix(prefix)
            .map(|rest| rest.trim_matches('`').to_string())
    };
    if let Some(v) = literal("integer ").or_else(|| literal("floating point ")) {
        return format!("the number {v}");
    }
    if let Some(v) = literal("boolean ") {
        return v;
    }
    if let Some(v) = what.strip_prefix("string ") {
        return format!("the string {v}");
    }
    match what {
        "map" => "a table".to_string(),
        "sequence" => "a list".to_string(),
        "unit value" | "null" => "nothing (null)".to_string(),
        other => other.to_string(),
    }
}

/// Rewrites `invalid type: X, expected Y` and `invalid value: X, expected Y`; any other
/// message comes back as it was.
pub fn humanize(message: &str, key: &str) -> String {
    for (prefix, out_of_range) in [("invalid type: ", false), ("invalid value: ", true)] {
        let Some(rest) = message.strip_prefix(prefix) else {
            continue;
        };
        let Some((value, what)) = rest.rsplit_once(", expected ") else {
            continue;
        };
        let value = got(value);
        let what = expected(what, key);
        return if out_of_range {
            format!("{value} is out of range; expected {what}")
        } else {
            format!("got {value}; expected {what}")
        };
    }
    // A list where a table belongs: serde tries to read the table's fields by position and
    // reports `invalid length 0, expected struct FlowSpec with 9 elements`.
    if let Some((_, what)) = message
        .strip_prefix("invalid length ")
        .and_then(|rest| rest.split_once(", expected struct "))
    {
        if what.contains(" with ") {
            return "got a list; expected a table of keys".to_string();
        }
    }
    message.to_string()
}

#[cfg(test)]
mod tests {
    use super::humanize;

    #[test]
    fn a_number_or_a_list_for_a_table() {
        assert_eq!(
            humanize("invalid type: integer `5`, expected struct LinkSpec", "0"),
            "got the number 5; expected a table of keys"
        );
        assert_eq!(
            humanize(
                "invalid length 0, expected struct ScenarioSpec with 18 elements",
                ""
            ),
            "got a list; expected a table of keys"
        );
    }

    #[test]
    fn a_string_for_a_packet_count() {
        assert_eq!(
            humanize(r#"invalid type: string "abc", expected u32"#, "queue"),
            r#"got the string "abc"; expected a whole number of packets (0 to 4294967295)"#
        );
    }

    #[test]
    fn a_fraction_for_an_integer_key_without_a_known_unit() {
        assert_eq!(
            humanize("invalid type: floating point `1.5`, expected u32", "bogus"),
            "got the number 1.5; expected a whole number (0 to 4294967295)"
        );
    }

    #[test]
    fn a_negative_count_is_out_of_range() {
        assert_eq!(
            humanize("invalid value: integer `-3`, expected u32", "window"),
            "the number -3 is out of range; expected a whole number of packets (0 to 4294967295)"
        );
    }

    #[test]
    fn other_types_in_words() {
        assert_eq!(
            humanize("invalid type: integer `3`, expected a string", "tcp"),
            "got the number 3; expected a string in quotes"
        );
        assert_eq!(
            humanize(
                "invalid type: string \"yes\", expected a boolean",
                "delayed_ack"
            ),
            r#"got the string "yes"; expected true or false"#
        );
        assert_eq!(
            humanize("invalid type: map, expected f64", "loss"),
            "got a table; expected a number"
        );
    }

    #[test]
    fn messages_it_does_not_know_pass_through() {
        let unit = "`0.2` has no unit; write the quantity as a string with a unit";
        assert_eq!(humanize(unit, "min_rto"), unit);
        assert_eq!(
            humanize(
                "invalid type: boolean `true`, expected a duration string with a unit",
                "d"
            ),
            "got true; expected a duration string with a unit"
        );
    }
}
