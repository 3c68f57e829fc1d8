#![allow(unexpected_cfgs)] // pyo3 0.22 macros test a `gil-refs` feature this crate does not declare
#![allow(clippy::useless_conversion)] // pyo3 0.22 #[pyfunction] expansion converts PyErr into itself
//! Python bindings for ternsim-core: thin, no logic. A scenario goes in as JSON, a summary
//! (JSON text) and whole trace columns (little-endian bytes) come back. Nothing per packet
//! crosses the boundary.

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyTuple};

use ternsim_core::scenario;
use ternsim_core::sim::SimTime;
use ternsim_core::trace::Column;

create_exception!(
    _core,
    ScenarioError,
    PyValueError,
    "A scenario refused before the run."
);

fn resolve(json: &str) -> PyResult<scenario::ResolvedScenario> {
    scenario::from_json(json).map_err(|e| ScenarioError::new_err(e.to_string()))
}

/// The ternsim-core version that results are labelled and cached with.
#[pyfunction]
fn version() -> &'static str {
    ternsim_core::VERSION
}

/// Validates a scenario (JSON text); raises ScenarioError naming the key path. Returns the
/// files the scenario reads (traces), resolved, so callers can key caches on their contents.
#[pyfunction]
fn validate(scenario_json: &str) -> PyResult<Vec<String>> {
    let sc = resolve(scenario_json)?;
    Ok(sc
        .input_files
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect())
}

fn column_to_py<'py>(py: Python<'py>, col: &Column) -> PyResult<Bound<'py, PyTuple>> {
    let (dtype, data): (&str, PyObject) = match col {
        Column::F64(v) => {
            let bytes: Vec<u8> = v.iter().flat_map(|x| x.to_le_bytes()).collect();
            ("f64", PyBytes::new_bound(py, &bytes).into_py(py))
        }
        Column::I64(v) => {
            let bytes: Vec<u8> = v.iter().flat_map(|x| x.to_le_bytes()).collect();
            ("i64", PyBytes::new_bound(py, &bytes).into_py(py))
        }
        Column::U8(v) => ("u8", PyBytes::new_bound(py, v).into_py(py)),
        Column::Str(v) => ("str", PyList::new_bound(py, v).into_py(py)),
    };
    Ok(PyTuple::new_bound(py, [dtype.into_py(py), data]))
}

/// Runs a scenario (JSON text) with `seed`. Returns {"summary": JSON text, "traces": {...}}.
/// The simulation runs with the GIL released. `progress`, if given, is called as
/// `progress(simulated_seconds, events)` every `PROGRESS_EVERY_EVENTS` events (with the GIL
/// taken for the call); an exception it raises is ignored, since progress only observes.
#[pyfunction]
#[pyo3(signature = (scenario_json, seed, progress=None))]
fn run<'py>(
    py: Python<'py>,
    scenario_json: &str,
    seed: u64,
    progress: Option<PyObject>,
) -> PyResult<Bound<'py, PyDict>> {
    let sc = resolve(scenario_json)?;
    let out = py.allow_threads(|| match &progress {
        None => ternsim_core::world::run(&sc, seed),
        Some(callback) => {
            let mut report = |now: SimTime, events: u64| {
                Python::with_gil(|py| {
                    if let Err(err) = callback.call1(py, (now.as_secs_f64(), events)) {
                        err.print(py);
                    }
                });
            };
            ternsim_core::world::run_with_progress(&sc, seed, &mut report)
        }
    });
    let summary = serde_json::to_string(&out.summary)
        .map_err(|e| PyValueError::new_err(format!("cannot serialise summary: {e}")))?;
    let result = PyDict::new_bound(py);
    result.set_item("summary", summary)?;
    let traces = PyDict::new_bound(py);
    for table in &out.tables {
        let cols = PyDict::new_bound(py);
        for (name, col) in &table.columns {
            cols.set_item(*name, column_to_py(py, col)?)?;
        }
        traces.set_item(table.name, cols)?;
    }
    result.set_item("traces", traces)?;
    Ok(result)
}

/// Fits an N-state hidden Markov error model to a trace of per-unit outcomes (text: 0/1 per
/// line or a compact string) by Baum-Welch. Returns a dict with `transition`, `error_prob`,
/// `log_likelihood`, `iterations`, `converged`, `aic`, `bic`, `mean_error_rate`, `n_obs`.
#[pyfunction]
#[pyo3(signature = (trace_text, n_states, seed=1, max_iterations=500, tolerance=1e-8, starts=4))]
fn fit_hmm<'py>(
    py: Python<'py>,
    trace_text: &str,
    n_states: usize,
    seed: u64,
    max_iterations: usize,
    tolerance: f64,
    starts: usize,
) -> PyResult<Bound<'py, PyDict>> {
    use ternsim_core::channel::{fit_hmm, trace_driven::parse_trace, FitOptions, HmmInitial};
    let obs = parse_trace(trace_text).map_err(PyValueError::new_err)?;
    let opts = FitOptions {
        max_iterations,
        tolerance,
        starts,
        seed,
    };
    let fit = py
        .allow_threads(|| fit_hmm(&obs, n_states, &opts))
        .map_err(PyValueError::new_err)?;
    let mean_error_rate = fit
        .to_model(HmmInitial::Stationary)
        .map(|m| m.mean_error_rate())
        .map_err(PyValueError::new_err)?;
    let d = PyDict::new_bound(py);
    d.set_item("transition", fit.transition.clone())?;
    d.set_item("error_prob", fit.error_prob.clone())?;
    d.set_item("log_likelihood", fit.log_likelihood)?;
    d.set_item("iterations", fit.iterations)?;
    d.set_item("converged", fit.converged)?;
    d.set_item("aic", fit.aic())?;
    d.set_item("bic", fit.bic())?;
    d.set_item("mean_error_rate", mean_error_rate)?;
    d.set_item("n_obs", fit.n_obs)?;
    Ok(d)
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("ScenarioError", m.py().get_type_bound::<ScenarioError>())?;
    m.add_function(wrap_pyfunction!(version, m)?)?;
    m.add_function(wrap_pyfunction!(validate, m)?)?;
    m.add_function(wrap_pyfunction!(run, m)?)?;
    m.add_function(wrap_pyfunction!(fit_hmm, m)?)?;
    Ok(())
}
