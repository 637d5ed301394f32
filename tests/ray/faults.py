"""The Ray tier's faults (tests/ray/test_cluster.py): worker nodes killed as machines die while
they run chosen tasks, new worker nodes started for the next fault test, and the driver killed
while it (or a binary it runs) writes an output file."""

from __future__ import annotations

import os
import re
import shutil
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
    """Kills worker nodes as machines die, in a thread of its own: once a task binary chosen by
    ``is_task`` has run ``after`` seconds on a worker node, it is held there (SIGSTOP, so it is
    still mid-run when its node dies), and once ``nodes`` distinct worker nodes hold one (or the
    first has waited ``hold`` seconds: then the nodes held so far die, and the next are waited
    for) each of them dies: SIGKILL to its raylet and then to every process under it (its Ray
    workers and their binaries). The raylet alone is not enough: a worker whose raylet died
    still finishes its task and hands the result to the driver, so nothing would be lost.
    ``killed`` is then the arguments of the binary held on each node, in the order they died."""

    def __init__(self, driver: subprocess.Popen, is_task: TaskTest, after: float, nodes: int = 1,
                 hold: float = 5.0) -> None:
        self.driver, self.is_task, self.after, self.nodes, self.hold = driver, is_task, after, nodes, hold
        self.killed: List[List[str]] = []
        self.thread = threading.Thread(target=self._watch, daemon=True)
        self.thread.start()

    def _watch(self) -> None:
        seen: Dict[int, float] = {}
        held: Dict[int, List[str]] = {}
        held_since = 0.0
        while self.driver.poll() is None and len(self.killed) < self.nodes:
            procs = processes()
            for pid, (_, cmd) in procs.items():
                argv = cmd.rstrip("\x00").split("\x00")
                raylet = worker_raylet_above(procs, pid) if self.is_task(argv) else None
                if raylet is None or raylet in held or len(held) + len(self.killed) >= self.nodes:
                    continue
                if time.monotonic() - seen.setdefault(pid, time.monotonic()) < self.after:
                    continue
                try:
                    os.kill(pid, signal.SIGSTOP)
                except ProcessLookupError:
                    continue
                held[raylet] = argv
                held_since = held_since or time.monotonic()
            if held and (len(held) + len(self.killed) >= self.nodes or time.monotonic() - held_since > self.hold):
                for raylet, argv in held.items():
                    kill_node(processes(), raylet)
                    self.killed.append(argv)
                held, held_since = {}, 0.0
            time.sleep(0.1)


def kill_node(procs: Dict[int, Tuple[int, str]], raylet: int) -> None:
    """SIGKILL to a worker node's raylet, then to every process under it."""
    for pid in [raylet, *descendants(procs, raylet)]:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


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


def nodes_up(address: str, ray_cli: str, worker_args: List[str], log: Path, nodes: int) -> None:
    """Makes sure the cluster has ``nodes`` live nodes: starts the missing worker nodes one
    after the other (``ray start``s at once collide on this machine's ports) as
    tests/ray/cluster.sh started the first (``worker_args``) and waits until they have joined.
    A fault test waits until its killed nodes are declared dead before the next calls this."""
    alive = alive_nodes(address, nodes, 0)
    with open(log, "ab") as out:
        for _ in range(nodes - alive):
            subprocess.run([ray_cli, "start", *worker_args], stdout=out, stderr=subprocess.STDOUT, check=True,
                           timeout=180)
    if alive < nodes and alive_nodes(address, nodes, 60) != nodes:
        raise AssertionError(f"the new worker nodes did not join in 60 s (see {log})")


#: x86-64's number of the write system call (the first field of /proc/TID/syscall).
WRITE = 1


def writing(root: int, path: str) -> Optional[int]:
    """The process under ``root`` (or ``root``) held in a write to ``path``, if any."""
    for pid in [root, *descendants(processes(), root)]:
        try:
            for tid in os.listdir(f"/proc/{pid}/task"):
                fields = Path(f"/proc/{pid}/task/{tid}/syscall").read_text().split()
                if fields[:1] == [str(WRITE)] and os.readlink(f"/proc/{pid}/fd/{int(fields[1], 16)}") == path:
                    return pid
        except (OSError, ValueError, IndexError):
            continue
    return None


def kill_while_writing(argv: List[str], path: str, within: float = 120) -> subprocess.CompletedProcess:
    """Runs ``argv`` (a vorpal-cluster run) under strace, which holds the first write to
    ``path`` by the driver or a binary it runs (fault injection: the write waits a minute);
    once one is held there, the driver and every process under it die by SIGKILL, as the
    driver's machine dies mid-write. The run's output; an AssertionError when nothing wrote
    ``path`` or a process of the run lives on."""
    strace = shutil.which("strace")
    if strace is None:
        raise AssertionError("strace is needed to hold a write (apt install strace)")
    hold = ["-f", "--seccomp-bpf", "-qq", "-o", "/dev/null", "-e", "trace=write", "-e", "signal=none",
            "-e", "inject=write:delay_enter=60000000", "-P", path]
    proc = subprocess.Popen([strace, *hold, "--", *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    deadline = time.monotonic() + within
    held = None
    while held is None and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
        held = writing(proc.pid, path)
    run = descendants(processes(), proc.pid)
    for pid in run:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    # A killed process that strace holds dies when strace lets it go, its write not made.
    proc.kill()
    out, err = proc.communicate(timeout=30)
    deadline = time.monotonic() + 10
    while living(run) and time.monotonic() < deadline:
        time.sleep(0.05)
    procs = processes()
    left = {pid: procs.get(pid) for pid in living(run)}
    if held is None:
        raise AssertionError(f"the run wrote no {path} in {within:.0f} s: {out}{err[-3000:]}")
    if left:
        raise AssertionError(f"processes of the run live on: {left}")
    return subprocess.CompletedProcess(argv, -signal.SIGKILL, out, err)


def living(pids: List[int]) -> List[int]:
    """Those of ``pids`` that still run (neither gone nor zombies)."""
    out = []
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue
        if state not in ("Z", "X"):
            out.append(pid)
    return out
