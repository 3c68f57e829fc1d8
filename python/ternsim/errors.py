"""Errors the Python front raises.

This module owns :class:`ScenarioError`, the one exception a user sees for anything wrong with a
scenario: an unknown key, a bad unit or an impossible value (found by the Rust core), a malformed
override or a missing list entry (found here). Its message is one line, and the key path it
blames sits between the first pair of backticks, as in the core's messages::

    scenario error at `flows.0.tcp`: unknown variant `foo`; allowed: tahoe, reno, ...

The Rust core raises its own ``ternsim._core.ScenarioError``; :mod:`ternsim._native` converts
it to this class, so callers catch one type whether or not the extension produced the error.
"""

from __future__ import annotations

__all__ = ["ScenarioError", "scenario_error"]


class ScenarioError(ValueError):
    """A scenario (or an override of one) was refused before anything ran."""

    @property
    def message(self) -> str:
        """The one-line message."""
        return str(self.args[0]) if self.args else ""

    @property
    def path(self) -> str | None:
        """The dotted key path the message blames (``flows.0.tcp``), or None for the whole
        document."""
        msg = self.message
        start = msg.find("`")
        if start < 0:
            return None
        end = msg.find("`", start + 1)
        return msg[start + 1 : end] if end > start else None

    def __str__(self) -> str:
        return self.message


def scenario_error(path: str, detail: str) -> ScenarioError:
    """Builds an error in the core's format: ``scenario error at `path`: detail``."""
    one_line = " ".join(detail.split())
    if "`" in path or not path.isprintable():
        # A path holding a backtick or a line break cannot sit between backticks on one line:
        # blame the whole document and quote the path instead (``path`` is then None).
        return ScenarioError(f"scenario error: {one_line} (key path {path!r})")
    if path:
        return ScenarioError(f"scenario error at `{path}`: {one_line}")
    return ScenarioError(f"scenario error: {one_line}")
