"""The Ray tier's faults (tests/ray/test_cluster.py): the worker node killed as a machine dies
while it runs a chosen task, and a new worker node started for the next fault test."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Callable, Dict, List, Optional, Tuple

#: Whether a process's arguments are those of the task binary to kill the worker under.
TaskTest = Callable[[List[str]], bool]

#: A worker node's raylet socket (raylet.1, raylet.2, ...; the head's is raylet).
WORKER_SOCKET = re.compile(r"sockets/raylet\.\d+\x00")


def is_worker_raylet(cmd: str) -> bool:
    """Whether a command line is a worker node's raylet."""
    return "raylet/raylet" in cmd and WORKER_SOCKET.search(cmd) is not None


def processes() -> Dict[int, Tuple[int, str]]:
    """This namespace's processes: pid to (parent pid, command line, NUL-separated)."""
    out = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
            ppid = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        out[int(pid)] = (ppid, cmd)
    return out


def descendants(procs: Dict[int, Tuple[int, str]], root: int) -> List[int]:
    """The processes under ``root`` (children, their children, ...)."""
    out: List[int] = []
    todo = [root]
    while todo:
        parent = todo.pop()
        children = [pid for pid, (ppid, _) in procs.items() if ppid == parent]
        out.extend(children)
        todo.extend(children)
    return out


def worker_raylet_above(procs: Dict[int, Tuple[int, str]], pid: int) -> Optional[int]:
    """The worker node's raylet that ``pid`` runs under (a Ray worker's child), if any."""
    up = procs.get(pid, (0, ""))[0]
    for _ in range(6):
        if up in procs and is_worker_raylet(procs[up][1]):
            return up
        up = procs.get(up, (0, ""))[0]
    return None


class WorkerKill:
    """Kills the worker node as a machine dies, in a thread of its own: SIGKILL to its raylet
    and then to every process under it (its Ray workers and their binaries), once a task
    binary chosen by ``is_task`` has run there for ``after`` seconds (a task that ends sooner
    is let be, and the next one waited for). The raylet alone is not enough: a worker whose
    raylet died still finishes its task and hands the result to the driver, so nothing would
    be lost. ``killed`` is then the arguments of the binary that was running."""

    def __init__(self, driver: subprocess.Popen, is_task: TaskTest, after: float) -> None:
        self.driver, self.is_task, self.after = driver, is_task, after
        self.killed: Optional[List[str]] = None
        self.thread = threading.Thread(target=self._watch, daemon=True)
        self.thread.start()

    def _watch(self) -> None:
        seen: Dict[int, float] = {}
        while self.driver.poll() is None:
            procs = processes()
            for pid, (_, cmd) in procs.items():
                argv = cmd.rstrip("\x00").split("\x00")
                raylet = worker_raylet_above(procs, pid) if self.is_task(argv) else None
                if raylet is None:
                    continue
                if time.monotonic() - seen.setdefault(pid, time.monotonic()) < self.after:
                    continue
                os.kill(raylet, signal.SIGKILL)
                for child in descendants(procs, raylet):
                    try:
                        os.kill(child, signal.SIGKILL)
                    except ProcessLookupError:
                        pass
                self.killed = argv
                return
            time.sleep(0.1)


def binary_is(name: str, *words: str) -> TaskTest:
    """A TaskTest: the binary ``name`` (its file name) with ``words`` among its arguments."""
    return lambda argv: os.path.basename(argv[0]) == name and all(w in argv[1:] for w in words)


def option(argv: List[str], name: str) -> str:
    """The value after option ``name`` in ``argv``."""
    return argv[argv.index(name) + 1]


#: A driver's snippet: waits until the cluster has argv[2] live nodes or argv[3] seconds are
#: over, and prints the count of live nodes.
_ALIVE = """
import sys, time, ray
ray.init(address=sys.argv[1], logging_level="ERROR", log_to_driver=False)
deadline = time.monotonic() + float(sys.argv[3])
while True:
    alive = sum(1 for n in ray.nodes() if n["Alive"])
    if alive == int(sys.argv[2]) or time.monotonic() >= deadline:
        break
    time.sleep(0.5)
print(alive)
"""


def alive_nodes(address: str, until: int, within: float) -> int:
    """The cluster's live nodes, once there are ``until`` or after ``within`` seconds."""
    done = subprocess.run([sys.executable, "-c", _ALIVE, address, str(until), str(within)],
                          capture_output=True, text=True, timeout=within + 120)
    if done.returncode != 0:
        raise AssertionError(f"counting the nodes failed: {done.stderr[-2000:]}")
    return int(done.stdout.split()[-1])


def two_nodes(address: str, ray_cli: str, worker_args: List[str], log: Path) -> None:
    """Makes sure the cluster has its two nodes: after a fault test killed the worker, waits
    until the head has declared it dead, then starts another worker node as
    tests/ray/cluster.sh started the first (``worker_args``) and waits until it has joined."""
    if alive_nodes(address, 2, 0) == 2:
        return
    if alive_nodes(address, 1, 30) != 1:
        raise AssertionError("the killed worker node was not declared dead in 30 s")
    with open(log, "ab") as out:
        subprocess.run([ray_cli, "start", *worker_args], stdout=out, stderr=subprocess.STDOUT, check=True,
                       timeout=180)
    if alive_nodes(address, 2, 60) != 2:
        raise AssertionError(f"the new worker node did not join in 60 s (see {log})")
