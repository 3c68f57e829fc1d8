"""``python -m ternsim``: the same command line as ``ternsim`` (see :mod:`ternsim.cli`)."""

from .cli import app

app(prog_name="ternsim")
