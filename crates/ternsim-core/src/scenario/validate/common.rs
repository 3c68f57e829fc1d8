//! Helpers shared by every section: probabilities, file paths, error models, node lookup.

use std::collections::HashMap;

use super::super::schema::ErrorSpec;
use super::super::ScenarioError;
use super::ResolvedNode;
use crate::channel::hmm::{HiddenMarkov, HmmInitial};
use crate::channel::trace_driven::{TraceEnd, TraceErrors};
use crate::channel::ErrorModel;

pub(super) fn probability(path: &str, p: f64) -> Result<f64, ScenarioError> {
    if (0.0..=1.0).contains(&p) {
        Ok(p)
    } else {
        Err(ScenarioError::at(
            path,
            format!("{p} is not a probability; allowed: a number in [0, 1]"),
        ))
    }
}

/// `file` relative to the scenario's folder (or the working directory).
pub(super) fn resolve_file(dir: Option<&String>, file: &str) -> std::path::PathBuf {
    let p = std::path::Path::new(file);
    match dir {
        Some(d) if p.is_relative() => std::path::Path::new(d).join(p),
        _ => p.to_path_buf(),
    }
}

pub(super) fn error_model(
    path: &str,
    spec: &ErrorSpec,
    dir: Option<&String>,
) -> Result<ErrorModel, ScenarioError> {
    match *spec {
        ErrorSpec::Iid { rate } => Ok(ErrorModel::Iid {
            p: probability(&format!("{path}.rate"), rate)?,
        }),
        ErrorSpec::GilbertElliott {
            p_good_to_bad,
            p_bad_to_good,
            error_good,
            error_bad,
        } => {
            let p_gb = probability(&format!("{path}.p_good_to_bad"), p_good_to_bad)?;
            let p_bg = probability(&format!("{path}.p_bad_to_good"), p_bad_to_good)?;
            let e_g = probability(&format!("{path}.error_good"), error_good)?;
            let e_b = probability(&format!("{path}.error_bad"), error_bad)?;
            ErrorModel::gilbert_elliott(p_gb, p_bg, e_g, e_b)
                .map_err(|m| ScenarioError::at(path, m))
        }
        ErrorSpec::Hmm {
            ref transition,
            ref error_prob,
        } => HiddenMarkov::new(
            transition.clone(),
            error_prob.clone(),
            HmmInitial::Stationary,
        )
        .map(ErrorModel::Hmm)
        .map_err(|m| ScenarioError::at(format!("{path}.transition"), m)),
        ErrorSpec::Trace { ref file, repeat } => {
            let end = if repeat {
                TraceEnd::Loop
            } else {
                TraceEnd::Stop
            };
            TraceErrors::from_file(&resolve_file(dir, file), end)
                .map(ErrorModel::Trace)
                .map_err(|m| ScenarioError::at(format!("{path}.file"), m))
        }
    }
}

/// Node names to indices, with an error that lists the nodes.
pub(super) struct NodeNames<'a> {
    index: HashMap<&'a str, usize>,
    nodes: &'a [ResolvedNode],
}

impl<'a> NodeNames<'a> {
    /// Over the resolved nodes: the generated layout's and the listed ones.
    pub(super) fn new(nodes: &'a [ResolvedNode]) -> Self {
        let index = nodes
            .iter()
            .enumerate()
            .map(|(i, n)| (n.name.as_str(), i))
            .collect();
        NodeNames { index, nodes }
    }

    /// The name of node `i`.
    pub(super) fn name(&self, i: usize) -> &str {
        &self.nodes[i].name
    }

    /// The node called `name`, found at key path `path`.
    pub(super) fn lookup(&self, path: String, name: &str) -> Result<usize, ScenarioError> {
        self.index.get(name).copied().ok_or_else(|| {
            let mut v: Vec<&str> = self.nodes.iter().map(|n| n.name.as_str()).collect();
            v.truncate(12);
            ScenarioError::at(
                path,
                format!(
                    "unknown node `{name}`; allowed: one of the nodes ({})",
                    v.join(", ")
                ),
            )
        })
    }
}
