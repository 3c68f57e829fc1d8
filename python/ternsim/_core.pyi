"""Type stub of the compiled core (crates/ternsim-py): thin bindings, no logic."""

from typing import Any, Callable

class ScenarioError(ValueError):
    """A scenario refused before the run; the message names the key path."""

def version() -> str:
    """The core version that results are labelled and cached with."""

def validate(scenario_json: str) -> list[str]:
    """Validates a scenario (JSON text); returns the files it reads (resolved paths)."""

def run(
    scenario_json: str, seed: int, progress: Callable[[float, int], object] | None = None
) -> dict[str, Any]:
    """Runs a scenario: {"summary": JSON text, "traces": {name: {column: (dtype, data)}}}.
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
