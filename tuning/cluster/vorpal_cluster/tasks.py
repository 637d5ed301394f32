"""The Ray remote functions: what runs on a node. Each runs one binary in a scratch folder of
its own, with the input files the driver sent, and sends back the files it made, its output and
the node it ran on. Errors of the binary travel back as ClusterError (not retried)."""

from __future__ import annotations

import os
import socket
import tempfile
from typing import Dict, List, Optional

import ray

from . import binaries


def node_name() -> Dict[str, str]:
    """The node this runs on: its Ray node id, IP address and host name."""
    ctx = ray.get_runtime_context()
    return {
        "node_id": ctx.get_node_id(),
        "ip": ray.util.get_node_ip_address(),
        "host": socket.gethostname(),
    }


@ray.remote(num_cpus=0, max_retries=0)
def versions_on_node(bin_dir: str, shipped: bool = False) -> Dict[str, object]:
    """The node and its binaries' ``--version`` lines (for the build check): those in
    ``bin_dir``, or with ``shipped`` those Ray's runtime environment brought."""
    return {"node": node_name(), "versions": binaries.build_ids(os.getcwd() if shipped else bin_dir)}


def _run_in_scratch(
    argv: List[str],
    inputs: Dict[str, bytes],
    collect: Optional[List[str]],
    timeout: Optional[float],
    shipped_from: Optional[str],
) -> Dict[str, object]:
    argv = binaries.on_node(argv, shipped_from)
    with tempfile.TemporaryDirectory(prefix="vorpal-cluster-") as scratch:
        for name, data in inputs.items():
            with open(os.path.join(scratch, name), "wb") as f:
                f.write(data)
        done = binaries.run(argv, cwd=scratch, timeout=timeout)
        files: Dict[str, bytes] = {}
        names = collect if collect is not None else sorted(os.listdir(scratch))
        for name in names:
            path = os.path.join(scratch, name)
            if name in inputs or name.endswith(".part") or not os.path.isfile(path):
                continue
            with open(path, "rb") as f:
                files[name] = f.read()
        return {"node": node_name(), "stdout": done.stdout, "stderr": done.stderr, "files": files}


@ray.remote(max_retries=0)
def run_in_scratch(
    argv: List[str],
    inputs: Dict[str, bytes],
    collect: Optional[List[str]] = None,
    timeout: Optional[float] = None,
    shipped_from: Optional[str] = None,
) -> Dict[str, object]:
    """Runs ``argv`` in a fresh scratch folder holding ``inputs`` (name to bytes); returns the
    node, stdout, stderr and the files named in ``collect`` (default: every new file).
    ``shipped_from``: the driver's binary folder when the job's runtime environment shipped
    the binaries (``binaries.on_node``). Ray resources (CPUs) are set by the caller with
    ``.options``."""
    return _run_in_scratch(argv, inputs, collect, timeout, shipped_from)
