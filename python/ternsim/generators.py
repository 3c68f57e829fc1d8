"""Scenario generators in ns-2's file formats: ``setdest`` (random waypoint movement files)
and ``cbrgen`` (connection files). Both are computed by the core; the text they return is
what a scenario reads back with ``[mobility] file`` and ``[traffic] file``."""

from __future__ import annotations

from . import _native

__all__ = ["cbrgen", "setdest"]


def setdest(
    *,
    version: int = 1,
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
    """An ns-2 movement file of ``nodes`` random waypoint nodes in ``width`` x ``height`` m
    (setdest ``-v -n -p -M -m -t -x -y -P -s``); node i is ``$node_(i)``, named ``n<i>`` in a
    ``[topology] random`` scenario, whose paths equal the file's for the same seed."""
    return _native.core().setdest(
        version,
        nodes,
        pause,
        max_speed,
        time,
        width,
        height,
        min_speed=min_speed,
        seed=seed,
        steady_state=steady_state,
        pause_type=pause_type,
        speed_type=speed_type,
    )


def cbrgen(
    *,
    kind: str,
    nodes: int,
    seed: int,
    max_connections: int,
    rate: float = 0.0,
    packet_size: int = 512,
) -> str:
    """An ns-2 connection file as ``ns cbrgen.tcl -type KIND -nn NODES -seed SEED -mc MAX
    -rate RATE`` writes it (same pairs and start times for the same seed)."""
    return _native.core().cbrgen(kind, nodes, seed, max_connections, rate, packet_size)
