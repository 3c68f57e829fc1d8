//! Scenarios: the schema (`schema`), quantities with units (`units`), and loading with
//! validation (`validate`). A scenario that loads without error can be built and run; every
//! refusal names the key path (`flows.0.tcp`) and what is allowed.

pub mod schema;
mod type_messages;
pub mod units;
pub mod validate;

pub use schema::ScenarioSpec;
pub use validate::{FlowTransport, NeverStarted, ResolvedFlow, ResolvedScenario, TrafficSpec};

use std::fmt;

/// A scenario refused before the run: where, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioError {
    /// Dotted key path with list indices, e.g. `flows.0.tcp`; empty for the whole document.
    pub path: String,
    pub message: String,
}

impl ScenarioError {
    pub fn at(path: impl Into<String>, message: impl Into<String>) -> Self {
        ScenarioError {
            path: path.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            write!(f, "scenario error: {}", self.message)
        } else {
            write!(f, "scenario error at `{}`: {}", self.path, self.message)
        }
    }
}

impl std::error::Error for ScenarioError {}

fn dotted(path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    let mut parts = Vec::new();
    for seg in path.iter() {
        match seg {
            Segment::Seq { index } => parts.push(index.to_string()),
            Segment::Map { key } => parts.push(key.clone()),
            Segment::Enum { variant } => parts.push(variant.clone()),
            Segment::Unknown => {}
        }
    }
    parts.join(".")
}

/// Rewrites serde's unknown-field message into "unknown key; allowed keys: ...", making
/// sure the path ends with the unknown key.
fn error_from_serde(path: String, msg: String) -> ScenarioError {
    let msg = msg.split(" at line ").next().unwrap_or(&msg).to_string();
    if let Some(rest) = msg.strip_prefix("unknown field `") {
        if let Some(end) = rest.find('`') {
            // An empty key (`"" = 1`) is named by its quotes, so that the path is never empty.
            let field = match &rest[..end] {
                "" => "\"\"",
                f => f,
            };
            let full = if path == field || path.ends_with(&format!(".{field}")) {
                path.clone()
            } else if path.is_empty() {
                field.to_string()
            } else {
                format!("{path}.{field}")
            };
            let allowed = rest[end + 1..]
                .trim_start_matches(", expected one of ")
                .trim_start_matches(", expected ")
                .replace('`', "");
            return ScenarioError::at(full, format!("unknown key; allowed keys: {allowed}"));
        }
    }
    let key = path.rsplit('.').next().unwrap_or("");
    let msg = type_messages::humanize(&msg, key);
    ScenarioError::at(path, msg)
}

/// Parses a scenario from JSON (the form the Python front hands over) and validates it.
pub fn from_json(json: &str) -> Result<ResolvedScenario, ScenarioError> {
    let de = &mut serde_json::Deserializer::from_str(json);
    let spec: ScenarioSpec = serde_path_to_error::deserialize(de)
        .map_err(|e| error_from_serde(dotted(e.path()), e.inner().to_string()))?;
    validate::resolve(spec)
}

/// Parses a scenario from TOML text and validates it (the `toml` feature, on by default).
#[cfg(feature = "toml")]
pub fn from_toml(text: &str) -> Result<ResolvedScenario, ScenarioError> {
    let value: toml::Value =
        toml::from_str(text).map_err(|e| ScenarioError::at("", format!("invalid TOML: {e}")))?;
    let json = serde_json::to_string(&value)
        .map_err(|e| ScenarioError::at("", format!("cannot convert TOML: {e}")))?;
    from_json(&json)
}
