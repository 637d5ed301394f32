"""The cluster: connecting to it with a timeout (a clear message instead of a hang), its
nodes and CPUs, and the check that every node runs the same build of the binaries as the
head."""

from __future__ import annotations

import socket
import threading
from typing import Dict, List, Optional

import ray
from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

from . import binaries
from .errors import ClusterError
from .tasks import versions_on_node


def split_address(address: str) -> tuple:
    """``HOST:PORT`` as (host, port), or a ClusterError."""
    host, sep, port = address.rpartition(":")
    if not sep or not host or not port.isdigit():
        raise ClusterError(f"--address {address}: expected HOST:PORT (the head's GCS port, 6379 by default)")
    return host, int(port)


def connect(address: str, timeout: float, runtime_env: Optional[Dict] = None) -> None:
    """Joins the Ray cluster at ``address`` as a driver, with the job's ``runtime_env``
    (uploaded to the cluster as it joins); fails within about ``timeout`` seconds when
    nothing answers there."""
    host, port = split_address(address)
    try:
        with socket.create_connection((host, port), timeout=timeout):
            pass
    except OSError as e:
        raise ClusterError(f"no Ray cluster answers at {address}: {e}") from None
    outcome: Dict[str, object] = {}

    def join() -> None:
        try:
            ray.init(
                address=address,
                runtime_env=runtime_env,
                logging_level="ERROR",
                log_to_driver=False,
                configure_logging=True,
            )
            outcome["joined"] = True
        except Exception as e:  # Ray raises several kinds (ConnectionError, RuntimeError, ...)
            outcome["error"] = e

    # Something that accepts connections but is no Ray head keeps ray.init waiting for minutes:
    # it gets `timeout` seconds in a thread of its own.
    joiner = threading.Thread(target=join, name="vorpal-cluster-connect", daemon=True)
    joiner.start()
    joiner.join(timeout)
    if "error" in outcome:
        raise ClusterError(f"cannot join the Ray cluster at {address}: {outcome['error']}")
    if "joined" not in outcome:
        raise ClusterError(f"{address} answers but no Ray cluster joined in {timeout:.0f} s (is it the head's GCS port?)")


def alive_nodes() -> List[Dict]:
    """The cluster's live nodes (Ray's node records)."""
    return [n for n in ray.nodes() if n.get("Alive")]


def cpus() -> int:
    """The CPUs of the live nodes (what one-CPU tasks can use at once)."""
    return int(sum(n.get("Resources", {}).get("CPU", 0) for n in alive_nodes()))


def node_label(node: Dict[str, str]) -> str:
    """A node as the reports name it: IP address and the start of its Ray node id."""
    return f"{node['ip']} ({node['node_id'][:8]})"


def check_builds(bin_dir: str, timeout: float, shipped: bool = False) -> Dict[str, str]:
    """Checks before any work that every live node has the binaries in ``bin_dir`` (with
    ``shipped``: those the job's runtime environment brought) and that they report the
    driver's build id; returns the build id, or a ClusterError naming the odd node and
    binary."""
    head = binaries.build_ids(bin_dir)
    for name, line in head.items():
        if line.startswith("missing"):
            raise ClusterError(f"here (the driver): {line[len('missing: '):]} (--bin-dir {bin_dir})")
    want = {name: binaries.build_of(line) for name, line in head.items()}
    if len(set(want.values())) != 1:
        raise ClusterError(f"here (the driver): the binaries are of different builds: {head}")
    refs = [
        versions_on_node.options(
            scheduling_strategy=NodeAffinitySchedulingStrategy(node_id=n["NodeID"], soft=False)
        ).remote(bin_dir, shipped)
        for n in alive_nodes()
    ]
    ready, waiting = ray.wait(refs, num_returns=len(refs), timeout=timeout)
    if waiting:
        raise ClusterError(f"{len(waiting)} node(s) did not answer the build check in {timeout:.0f} s")
    odd = odd_node(bin_dir, want, ray.get(ready))
    if odd:
        raise ClusterError(odd)
    return {"build": next(iter(want.values())), "nodes": str(len(refs))}


def odd_node(bin_dir: str, want: Dict[str, str], answers: List[Dict]) -> Optional[str]:
    """The first node whose binaries are missing or of another build than ``want`` (binary
    to build id), as the message naming it; None when every node agrees."""
    for answer in answers:
        label = node_label(answer["node"])
        for name, line in sorted(answer["versions"].items()):
            if line.startswith("missing"):
                return f"node {label}: {line[len('missing: '):]} (--bin-dir {bin_dir})"
            if binaries.build_of(line) != want[name]:
                return f"node {label}: {name} is build {binaries.build_of(line)}, the head's is {want[name]}"
    return None
