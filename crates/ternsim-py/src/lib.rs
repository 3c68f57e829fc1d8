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

/// Runs a scenario (JSON text) with `seed`. Returns {"summary": JSON text, "traces": {...}},
/// plus "pcap" (bytes) when `pcap` names a flow or node to capture and "ns2_trace" (str) when
/// `ns2_trace` is true. The simulation runs with the GIL released. `progress`, if given, is
/// called as `progress(simulated_seconds, events)` every `PROGRESS_EVERY_EVENTS` events (with
/// the GIL taken for the call); an exception it raises is ignored, since progress only observes.
#[pyfunction]
#[pyo3(signature = (scenario_json, seed, pcap=None, ns2_trace=false, progress=None))]
fn run<'py>(
    py: Python<'py>,
    scenario_json: &str,
    seed: u64,
    pcap: Option<String>,
    ns2_trace: bool,
    progress: Option<PyObject>,
) -> PyResult<Bound<'py, PyDict>> {
    let sc = resolve(scenario_json)?;
    let spec = ternsim_core::world::CaptureSpec {
        pcap,
        ns2_trace,
        ns2_omit: Vec::new(),
        ns2_mac: false,
        ns2_events: false,
        ns2_exact_times: false,
        ns2_newtrace: false,
    };
    let out = py
        .allow_threads(|| match &progress {
            None => ternsim_core::world::run_with(&sc, seed, &spec, &mut |_, _| {}),
            Some(callback) => {
                let mut report = |now: SimTime, events: u64| {
                    Python::with_gil(|py| {
                        if let Err(err) = callback.call1(py, (now.as_secs_f64(), events)) {
                            err.print(py);
                        }
                    });
                };
                ternsim_core::world::run_with(&sc, seed, &spec, &mut report)
            }
        })
        .map_err(ScenarioError::new_err)?;
    output_dict(py, &out)
}

/// A run's output as the dict `run` returns.
fn output_dict<'py>(
    py: Python<'py>,
    out: &ternsim_core::world::RunOutput,
) -> PyResult<Bound<'py, PyDict>> {
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
    if let Some(bytes) = &out.capture.pcap {
        result.set_item("pcap", PyBytes::new_bound(py, bytes))?;
    }
    if let Some(text) = &out.capture.ns2_trace {
        result.set_item("ns2_trace", text)?;
    }
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

/// An ns-2 movement file of random waypoint nodes, as `setdest` writes one (manet-spec §2):
/// node i is named `n<i>` and draws from its `mobility/n<i>` stream of `seed`, so the file
/// equals a `[topology] random` scenario's paths for that seed.
#[pyfunction]
#[pyo3(signature = (version, nodes, pause, max_speed, time, width, height, min_speed=0.0, seed=1, steady_state=false, pause_type=1, speed_type=1))]
#[allow(clippy::too_many_arguments)]
fn setdest(
    version: u32,
    nodes: usize,
    pause: f64,
    max_speed: f64,
    time: f64,
    width: f64,
    height: f64,
    min_speed: f64,
    seed: u64,
    steady_state: bool,
    pause_type: u32,
    speed_type: u32,
) -> PyResult<String> {
    use ternsim_core::mobility::{
        setdest_file, PauseDistribution, RandomWaypoint, SetdestVersion, SpeedDistribution,
    };
    let version = match version {
        1 => SetdestVersion::V1,
        2 => SetdestVersion::V2,
        v => return Err(PyValueError::new_err(format!("version {v}; allowed: 1, 2"))),
    };
    let pause_distribution = match pause_type {
        1 => PauseDistribution::Constant,
        2 => PauseDistribution::Uniform,
        p => {
            return Err(PyValueError::new_err(format!(
                "pause type {p}; allowed: 1 (constant), 2 (uniform)"
            )))
        }
    };
    let speed_distribution = match speed_type {
        1 => SpeedDistribution::Uniform,
        2 => SpeedDistribution::Normal,
        s => {
            return Err(PyValueError::new_err(format!(
                "speed type {s}; allowed: 1 (uniform), 2 (normal)"
            )))
        }
    };
    if !(time > 0.0 && time.is_finite()) {
        return Err(PyValueError::new_err("time: allowed > 0"));
    }
    let model = RandomWaypoint {
        width,
        height,
        pause_s: pause,
        pause_distribution,
        min_speed,
        max_speed,
        speed_distribution,
        version,
        steady_state,
    };
    model
        .check()
        .map_err(|(key, msg)| PyValueError::new_err(format!("{key}: {msg}")))?;
    let until = ternsim_core::sim::SimTime::from_secs_f64(time);
    Ok(setdest_file(&model, nodes, until, seed))
}

/// An ns-2 connection file as `cbrgen.tcl` writes it for the same arguments (manet-spec §3).
#[pyfunction]
#[pyo3(signature = (kind, nodes, seed, max_connections, rate=0.0, packet_size=512))]
fn cbrgen(
    kind: &str,
    nodes: u32,
    seed: u32,
    max_connections: u32,
    rate: f64,
    packet_size: u32,
) -> PyResult<String> {
    use ternsim_core::app::cbrgen::{connection_file, CbrgenParams, ConnectionKind};
    let kind = match kind {
        "cbr" => ConnectionKind::Cbr,
        "tcp" => ConnectionKind::Tcp,
        k => {
            return Err(PyValueError::new_err(format!(
                "type `{k}`; allowed: cbr, tcp"
            )))
        }
    };
    if seed == 0 {
        return Err(PyValueError::new_err(
            "seed: allowed >= 1 (ns-2 takes 0 as a clock seed)",
        ));
    }
    if kind == ConnectionKind::Cbr && !(rate > 0.0 && rate.is_finite()) {
        return Err(PyValueError::new_err(
            "rate: a CBR source needs packets per second > 0",
        ));
    }
    if packet_size == 0 {
        return Err(PyValueError::new_err("packet size: allowed >= 1"));
    }
    Ok(connection_file(&CbrgenParams {
        kind,
        nodes,
        seed,
        max_connections,
        rate,
        packet_size,
    }))
}

/// The agent a Python `sink` flag names: the flow's sink, else its source.
fn agent_side(sink: bool) -> ternsim_core::world::AgentSide {
    if sink {
        ternsim_core::world::AgentSide::Sink
    } else {
        ternsim_core::world::AgentSide::Source
    }
}

/// A ping reply as Python gets it: (flow, at the sink end, arrival, seq, request sent,
/// request arrived), exact seconds.
type PingReplyTuple = (usize, bool, f64, u32, f64, f64);

/// A run its caller steps (`ternsim.Simulation`): built from a scenario (JSON text) and a
/// seed, paused at 0; `run_until(t)` runs the events due before `t` seconds with the GIL
/// released; `flow_state(i)` reads flow `i` as a dict; `set_tcp_window(i, w)` changes its
/// receiver window; `detach_agent(i, sink)` detaches one of its agents; `take_ns2_trace()` hands over the ns-2 trace text recorded since the last
/// call; `finish()` runs to the scenario's end and `stop()` ends where the run is paused, both
/// returning what `run` returns. After either, every method raises.
#[pyclass]
struct Simulation {
    inner: Option<ternsim_core::world::Simulation>,
}

impl Simulation {
    fn live(&mut self) -> PyResult<&mut ternsim_core::world::Simulation> {
        self.inner
            .as_mut()
            .ok_or_else(|| PyValueError::new_err("the simulation has ended (finish or stop)"))
    }
}

/// Seconds (a float from Python) to the core's clock, refusing what it cannot hold.
fn sim_time(seconds: f64) -> PyResult<SimTime> {
    if !(0.0..=SimTime::MAX.as_secs_f64()).contains(&seconds) {
        return Err(PyValueError::new_err(format!(
            "time {seconds} s is outside the simulated clock (0 to {} s)",
            SimTime::MAX.as_secs_f64()
        )));
    }
    Ok(SimTime::from_secs_f64(seconds))
}

#[pymethods]
impl Simulation {
    #[new]
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (scenario_json, seed, ns2_trace=false, ns2_omit=Vec::new(), ns2_mac=false, ns2_events=false, ns2_exact_times=false, ns2_newtrace=false))]
    fn new(
        scenario_json: &str,
        seed: u64,
        ns2_trace: bool,
        ns2_omit: Vec<String>,
        ns2_mac: bool,
        ns2_events: bool,
        ns2_exact_times: bool,
        ns2_newtrace: bool,
    ) -> PyResult<Self> {
        let sc = resolve(scenario_json)?;
        let spec = ternsim_core::world::CaptureSpec {
            pcap: None,
            ns2_trace,
            ns2_omit,
            ns2_mac,
            ns2_events,
            ns2_exact_times,
            ns2_newtrace,
        };
        let inner = ternsim_core::world::Simulation::new(sc, seed, &spec)
            .map_err(ScenarioError::new_err)?;
        Ok(Simulation { inner: Some(inner) })
    }

    /// Where the run is paused, in seconds.
    #[getter]
    fn now(&mut self) -> PyResult<f64> {
        Ok(self.live()?.now().as_secs_f64())
    }

    /// The scenario's duration, in seconds.
    #[getter]
    fn duration(&mut self) -> PyResult<f64> {
        Ok(self.live()?.duration().as_secs_f64())
    }

    #[getter]
    fn flow_count(&mut self) -> PyResult<usize> {
        Ok(self.live()?.flow_count())
    }

    /// False when the run paused before `seconds`, at a ping reply kept for the host.
    fn run_until(&mut self, py: Python<'_>, seconds: f64) -> PyResult<bool> {
        let t = sim_time(seconds)?;
        let sim = self.live()?;
        Ok(py.allow_threads(|| sim.run_until_exact(t, seconds)))
    }

    /// When the first 802.11 frame went on the air, in seconds (None if none has).
    fn first_radio_frame(&mut self) -> PyResult<Option<f64>> {
        Ok(self.live()?.first_radio_frame().map(|t| t.as_secs_f64()))
    }

    /// Keep ping replies for the host and pause the run at each (`take_ping_replies`).
    fn set_ping_upcalls(&mut self, on: bool) -> PyResult<()> {
        self.live()?.set_ping_upcalls(on);
        Ok(())
    }

    /// The ping replies kept since the last call: `(flow, at the sink end, arrival s, seq,
    /// request sent s, request arrived s)` each, exact seconds.
    fn take_ping_replies(&mut self) -> PyResult<Vec<PingReplyTuple>> {
        Ok(self
            .live()?
            .take_ping_replies()
            .into_iter()
            .map(|r| {
                let sink = r.side == ternsim_core::world::AgentSide::Sink;
                (r.flow, sink, r.at, r.seq, r.sent_at, r.received_at)
            })
            .collect())
    }

    /// Ping flow `flow`'s source (`sink = false`) or sink end sends an echo request now.
    fn ping(&mut self, flow: usize, sink: bool) -> PyResult<()> {
        let side = agent_side(sink);
        self.live()?.ping(flow, side).map_err(PyValueError::new_err)
    }

    fn flow_state<'py>(&mut self, py: Python<'py>, flow: usize) -> PyResult<Bound<'py, PyDict>> {
        let st = self
            .live()?
            .flow_state(flow)
            .ok_or_else(|| PyValueError::new_err(format!("no flow {flow}")))?;
        let d = PyDict::new_bound(py);
        for (k, v) in st {
            d.set_item(k, v)?;
        }
        Ok(d)
    }

    fn set_tcp_window(&mut self, flow: usize, window: u32) -> PyResult<()> {
        self.live()?
            .set_tcp_window(flow, window)
            .map_err(PyValueError::new_err)
    }

    /// Starts flow `flow`'s application now (or again after a stop).
    fn start_flow(&mut self, flow: usize) -> PyResult<()> {
        self.live()?.start_flow(flow).map_err(PyValueError::new_err)
    }

    /// Resets the node called `node` now: its 802.11 interface queue is flushed.
    fn reset_node(&mut self, node: &str) -> PyResult<()> {
        self.live()?.reset_node(node).map_err(PyValueError::new_err)
    }

    /// Stops flow `flow`'s application now.
    fn stop_flow(&mut self, flow: usize) -> PyResult<()> {
        self.live()?.stop_flow(flow).map_err(PyValueError::new_err)
    }

    /// Detaches flow `flow`'s source (`sink = false`) or sink agent from its node from now
    /// on (ns-2 `$ns detach-agent`).
    fn detach_agent(&mut self, flow: usize, sink: bool) -> PyResult<()> {
        let side = agent_side(sink);
        self.live()?
            .detach_agent(flow, side)
            .map_err(PyValueError::new_err)
    }

    fn take_ns2_trace(&mut self) -> PyResult<String> {
        Ok(self.live()?.take_ns2_trace())
    }

    /// The ns-2 trace text since the last call and the traced TCP variables' changes since
    /// then: (text, [(byte offset in the text, seconds, flow, name, value)]).
    #[allow(clippy::type_complexity)]
    fn take_ns2_trace_vars(
        &mut self,
    ) -> PyResult<(String, Vec<(usize, f64, u32, &'static str, f64)>)> {
        Ok(self.live()?.take_ns2_trace_vars())
    }

    /// ns-2 `$tcp trace VAR` on flow `flow`'s sender; returns the variable's value now.
    fn trace_tcp_var(&mut self, flow: usize, var: &str) -> PyResult<f64> {
        self.live()?
            .trace_tcp_var(flow, var)
            .map_err(PyValueError::new_err)
    }

    /// ns-2 `$redq trace VAR` on link `link`'s direction `dir`: (device, value now).
    fn trace_red_var(&mut self, link: usize, dir: u8, var: &str) -> PyResult<(u32, f64)> {
        self.live()?
            .trace_red_var(link, dir, var)
            .map_err(PyValueError::new_err)
    }

    /// RED's early tests, Telnet's gaps and the one-way TCP senders' `overhead_` delays draw
    /// from ns-2's default RNG (`seed`, after `skip` draws).
    fn replay_ns2_default_rng(&mut self, seed: u32, skip: u64) -> PyResult<usize> {
        self.live()?
            .replay_ns2_default_rng(seed, skip)
            .map_err(PyValueError::new_err)
    }

    /// A Telnet application's `interval_` from now on (seconds).
    fn set_telnet_interval(&mut self, flow: usize, interval_s: f64) -> PyResult<()> {
        self.live()?
            .set_telnet_interval(flow, interval_s)
            .map_err(PyValueError::new_err)
    }

    /// The traced RED variables' changes since the last call: (seconds, device, name, value).
    fn take_red_trace(&mut self) -> PyResult<Vec<(f64, u32, &'static str, f64)>> {
        Ok(self.live()?.take_red_trace())
    }

    /// The traced TCP variables' changes since the last call: (seconds, flow, name, value).
    fn take_var_trace(&mut self) -> PyResult<Vec<(f64, u32, &'static str, f64)>> {
        Ok(self.live()?.take_var_trace())
    }

    fn finish<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.live()?;
        let sim = self.inner.take().expect("live");
        let out = py.allow_threads(|| sim.finish());
        output_dict(py, &out)
    }

    fn stop<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        self.live()?;
        let sim = self.inner.take().expect("live");
        let out = sim.stop();
        output_dict(py, &out)
    }
}

/// The first `count` values of ns-2's `Random::uniform()` (`RNG::uniform_double`, in [0, 1))
/// from its default random number generator seeded with `seed` (`$defaultRNG seed SEED`;
/// ns-2 starts from seed 1). `ternsim ns2` replays the draws ns-2 makes before its run, e.g.
/// each TCP agent's `boot_time_`.
#[pyfunction]
fn ns2_uniforms(seed: u32, count: usize) -> PyResult<Vec<f64>> {
    if seed == 0 {
        return Err(PyValueError::new_err(
            "seed: allowed >= 1 (ns-2 takes 0 as a clock seed)",
        ));
    }
    let mut rng = ternsim_core::sim::mrg32k3a::Mrg32k3a::ns2_seeded(seed);
    Ok((0..count).map(|_| rng.ns2_uniform_double()).collect())
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("ScenarioError", m.py().get_type_bound::<ScenarioError>())?;
    m.add_function(wrap_pyfunction!(version, m)?)?;
    m.add_function(wrap_pyfunction!(validate, m)?)?;
    m.add_function(wrap_pyfunction!(run, m)?)?;
    m.add_function(wrap_pyfunction!(fit_hmm, m)?)?;
    m.add_function(wrap_pyfunction!(setdest, m)?)?;
    m.add_function(wrap_pyfunction!(cbrgen, m)?)?;
    m.add_class::<Simulation>()?;
    m.add_function(wrap_pyfunction!(ns2_uniforms, m)?)?;
    Ok(())
}
