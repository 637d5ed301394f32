"""The error a command reports as one line on stderr (exit status 2), without a traceback."""


class ClusterError(Exception):
    """A failure the user can act on: a wrong address, missing binaries, a build mismatch,
    a binary that failed."""
