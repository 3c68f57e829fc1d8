"""Running ns-2 (2.35) scripts unchanged: ``ternsim ns2 SCRIPT.tcl ARGS`` or
:func:`run_script`.

The script runs in a real Tcl 8.6 interpreter (``tkinter.Tcl()``) with the ns-2 object commands
registered from Python; ``$ns run`` turns what it built into an ordinary ternsim scenario, runs
it, writes the ns-2 trace the script asked for, then runs the script's end-of-run callbacks.

Modules: :mod:`.classes` (ns-2 classes and defaults), :mod:`.otcl` (the object model),
:mod:`.simulator` (Simulator, node, link, agent and application commands), :mod:`.scenario`
(the name table, translation and trace numbering), :mod:`.interp` (the interpreter and the run),
:mod:`.trace_stream` (the trace from the core to the script's file in bounded pieces).
"""

from __future__ import annotations

from .interp import ScriptRefused, run_script, script_to_toml, translate_script

__all__ = ["ScriptRefused", "run_script", "script_to_toml", "translate_script"]
