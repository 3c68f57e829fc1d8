"""Type stub of the compiled core (crates/ternsim-py): thin bindings, no logic."""

from typing import Any, Callable

class ScenarioError(ValueError):
    """A scenario refused before the run; the message names the key path."""

def version() -> str:
    """The core version that results are labelled and cached with."""

def validate(scenario_json: str) -> list[str]:
    """Validates a scenario (JSON text); returns the files it reads (resolved paths)."""

def run(
    scenario_json: str,
    seed: int,
    pcap: str | None = None,
    ns2_trace: bool = False,
    progress: Callable[[float, int], object] | None = None,
) -> dict[str, Any]:
    """Runs a scenario: {"summary": JSON text, "traces": {name: {column: (dtype, data)}}},
    plus "pcap" (bytes) and "ns2_trace" (str) when asked for.
    ``progress(simulated_seconds, events)`` is called every 2**18 events if given."""

def fit_hmm(
    trace_text: str,
    n_states: int,
    seed: int = 1,
    max_iterations: int = 500,
    tolerance: float = 1e-8,
    starts: int = 4,
) -> dict[str, Any]:
    """Baum-Welch fit of an N-state hidden Markov error model to a 0/1 trace."""

def setdest(
    version: int,
    nodes: int,
    pause: float,
    max_speed: float,
    time: float,
    width: float,
    height: float,
    min_speed: float = 0.0,
    seed: int = 1,
    steady_state: bool = False,
    pause_type: int = 1,
    speed_type: int = 1,
) -> str:
    """An ns-2 movement file of random waypoint nodes (node i named n<i>)."""

def cbrgen(
    kind: str,
    nodes: int,
    seed: int,
    max_connections: int,
    rate: float = 0.0,
    packet_size: int = 512,
) -> str:
    """An ns-2 connection file as cbrgen.tcl writes it."""

class Simulation:
    """A run its caller steps: built paused at 0; every method raises once it has ended."""

    def __init__(
        self,
        scenario_json: str,
        seed: int,
        ns2_trace: bool = False,
        ns2_omit: list[str] = ...,
        ns2_mac: bool = False,
        ns2_events: bool = False,
        ns2_exact_times: bool = False,
    ) -> None:
        """``ns2_omit``: wireless trace layers (``AGT``, ``RTR``) whose s/r/f lines are left
        out; their drop lines are still written. ``ns2_mac``: write the MAC lines too.
        ``ns2_events``: TCP's event-trace lines. ``ns2_exact_times``: end each wired line
        with its event's exact time in seconds."""
    @property
    def now(self) -> float:
        """Where the run is paused, in seconds."""
    @property
    def duration(self) -> float:
        """The scenario's duration, in seconds."""
    @property
    def flow_count(self) -> int: ...
    def run_until(self, seconds: float) -> bool:
        """Runs the events due before ``seconds`` and pauses there; False when it paused
        earlier, at a ping reply kept for the host (``set_ping_upcalls``)."""
    def first_radio_frame(self) -> float | None:
        """When the first 802.11 frame went on the air, in seconds (None if none has)."""
    def set_ping_upcalls(self, on: bool) -> None:
        """Keep ping replies for the host, pausing the run at each."""
    def take_ping_replies(self) -> list[tuple[int, bool, float, int, float, float]]:
        """Replies kept since the last call: ``(flow, at the sink end, arrival, seq, request
        sent, request arrived)``, exact seconds."""
    def ping(self, flow: int, sink: bool) -> None:
        """Ping flow ``flow``'s source (``sink`` false) or sink end sends an echo request."""
    def flow_state(self, flow: int) -> dict[str, float]:
        """Flow ``flow``'s state now (see ``ternsim.Simulation.flow``)."""
    def set_tcp_window(self, flow: int, window: int) -> None:
        """A TCP flow's receiver window (ns-2 ``window_``) from now on."""
    def set_telnet_interval(self, flow: int, interval_s: float) -> None:
        """A Telnet application's mean gap (ns-2 ``interval_``, seconds) from now on."""
    def replay_ns2_default_rng(self, seed: int, skip: int) -> int:
        """RED's early tests and Telnet's gaps draw from ns-2's default RNG seeded ``seed``
        after ``skip`` draws; returns the number of RED queues."""
    def reset_node(self, node: str) -> None:
        """Resets the node called ``node`` now: its 802.11 interface queue is flushed."""
    def start_flow(self, flow: int) -> None:
        """Starts flow ``flow``'s application now (or again after a stop)."""
    def stop_flow(self, flow: int) -> None:
        """Stops flow ``flow``'s application now."""
    def detach_agent(self, flow: int, sink: bool) -> None:
        """Detaches the flow's source agent (``sink`` false) or its sink from its node from
        now on (ns-2 ``$ns detach-agent``): what it sends and receives is absorbed."""
    def take_ns2_trace(self) -> str:
        """The ns-2 trace text recorded since the last call."""
    def finish(self) -> dict[str, Any]:
        """Runs to the scenario's end; returns what ``run`` returns."""
    def stop(self) -> dict[str, Any]:
        """Ends at the pause; returns what ``run`` returns, over ``[0, now]``."""

def ns2_uniforms(seed: int, count: int) -> list[float]:
    """The first ``count`` uniforms of ns-2's default RNG seeded with ``seed`` (>= 1)."""
