"""The Vorpal binaries: where they are, running one, and the build id they report."""

from __future__ import annotations

import ctypes
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path
from typing import List, Optional, Sequence

from .errors import ClusterError

#: The binaries every node needs.
NAMES = ("vorpal", "vorpal-match", "vorpal-datagen")


def resolve_bin_dir(bin_dir: Optional[str]) -> str:
    """The absolute binary folder: ``bin_dir``, or the folder of ``vorpal`` on the PATH."""
    if bin_dir:
        return os.path.abspath(bin_dir)
    found = shutil.which("vorpal")
    if not found:
        raise ClusterError("no --bin-dir and no vorpal on the PATH")
    return os.path.dirname(os.path.abspath(found))


def binary(bin_dir: str, name: str) -> str:
    """The path of binary ``name`` in ``bin_dir``."""
    return str(Path(bin_dir) / name)


def stage(bin_dir: str, into: str) -> str:
    """``into``, holding links to (or copies of) the binaries of ``bin_dir``: the folder that
    Ray's runtime environment ships to every node with ``--ship-bins``."""
    for name in NAMES:
        source, target = binary(bin_dir, name), os.path.join(into, name)
        try:
            os.link(source, target)
        except FileNotFoundError:
            raise ClusterError(f"here (the driver): {source}: not found (--bin-dir {bin_dir})") from None
        except OSError:
            shutil.copy2(source, target)
    return into


def on_node(argv: Sequence[str], shipped_from: Optional[str]) -> List[str]:
    """``argv`` as the driver wrote it, for the node that runs it. With the binaries shipped
    from the driver's folder ``shipped_from``, that folder's paths (also in options such as
    ``cmd=``) name the node's copy: the folder Ray unpacked the job's runtime environment
    into, where each of the job's Ray workers starts."""
    if not shipped_from:
        return list(argv)
    there, here = shipped_from.rstrip("/") + "/", os.getcwd() + "/"
    return [arg.replace(there, here) for arg in argv]


def _die_with_parent() -> None:
    """In the child, before exec: be killed when the parent (a Ray worker that was cancelled
    or lost its node) dies, so no binary runs on unwatched (Linux; elsewhere nothing)."""
    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGKILL))  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass


def run(argv: Sequence[str], cwd: Optional[str] = None, timeout: Optional[float] = None) -> subprocess.CompletedProcess:
    """Runs ``argv`` to the end; its output as text. A missing binary or a nonzero status is a
    ClusterError naming the command and the end of its stderr."""
    try:
        done = subprocess.run(
            list(argv), cwd=cwd, capture_output=True, text=True, timeout=timeout, preexec_fn=_die_with_parent
        )
    except FileNotFoundError:
        raise ClusterError(f"{argv[0]}: not found") from None
    except subprocess.TimeoutExpired:
        raise ClusterError(f"{argv[0]}: no answer in {timeout} s") from None
    if done.returncode != 0:
        tail = (done.stderr or done.stdout).strip().splitlines()[-5:]
        raise ClusterError(f"{' '.join(argv)} exited with {done.returncode}: {' / '.join(tail)}")
    return done


def build_ids(bin_dir: str) -> dict:
    """Each binary's ``--version`` line (``name version (build id)``), or why it cannot run."""
    out = {}
    for name in NAMES:
        try:
            out[name] = run([binary(bin_dir, name), "--version"], timeout=30).stdout.strip()
        except (ClusterError, OSError) as e:
            out[name] = f"missing: {e}"
    return out


def build_of(version_line: str) -> str:
    """The build id of a ``--version`` line (what is between ``(build`` and ``)``), or the
    line itself when it has none."""
    start = version_line.find("(build ")
    if start < 0:
        return version_line
    return version_line[start + len("(build ") :].rstrip(")")
