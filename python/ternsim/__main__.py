"""``python -m ternsim``: the same command line as ``ternsim`` (see :mod:`ternsim._entry`)."""

import sys

from ._entry import main

sys.exit(main(prog_name="ternsim"))
