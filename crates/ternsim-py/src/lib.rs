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

/// Validates a scenario (JSON text); raises ScenarioError naming the key path.
#[pyfunction]
fn validate(scenario_json: &str) -> PyResult<()> {
    resolve(scenario_json).map(|_| ())
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
/// The simulation runs with the GIL released.
#[pyfunction]
fn run<'py>(py: Python<'py>, scenario_json: &str, seed: u64) -> PyResult<Bound<'py, PyDict>> {
    let sc = resolve(scenario_json)?;
    let out = py.allow_threads(|| ternsim_core::world::run(&sc, seed));
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

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("ScenarioError", m.py().get_type_bound::<ScenarioError>())?;
    m.add_function(wrap_pyfunction!(version, m)?)?;
    m.add_function(wrap_pyfunction!(validate, m)?)?;
    m.add_function(wrap_pyfunction!(run, m)?)?;
    Ok(())
}
