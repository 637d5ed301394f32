"""The report on stdout. Ray prints its own notices (a node's death, a worker's output) to
``sys.stdout`` of the driver; the command line points that at stderr (``cli.main``), and the
report is written here to the process's real stdout, so stdout holds the report alone."""

from __future__ import annotations

import sys


def say(text: str) -> None:
    """Writes one or more lines of the report to the real stdout."""
    out = sys.__stdout__
    if out is not None:
        out.write(text.rstrip("\n") + "\n")
        out.flush()
