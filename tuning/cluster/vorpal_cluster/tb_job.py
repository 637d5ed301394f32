"""``vorpal-cluster tb``: ``vorpal tb generate`` as a graph of tasks, one per material, each
submitted once the materials it converts into are made (the plan and the successors are
``vorpal tb plan --json``'s); a task gets its successors' files through Ray and sends its own
back, and the driver writes every file into ``--dir`` (and reads the successors' from there
for the tasks that need them: Ray ships them to the task's node with its arguments)."""

from __future__ import annotations

import argparse
import json
import os
from typing import Dict, List, Set, Tuple

from . import binaries
from .report import say
from .cluster import node_label
from .runner import run_tasks
from .tasks import run_in_scratch


def parse(args: List[str]) -> argparse.Namespace:
    """The options of ``vorpal tb generate``."""
    p = argparse.ArgumentParser(prog="vorpal-cluster tb", allow_abbrev=False)
    p.add_argument("materials", nargs="*")
    p.add_argument("--all")
    p.add_argument("--dir", required=True)
    p.add_argument("--threads", type=int, default=1, help="threads (and Ray CPUs) per table [default: 1]")
    p.add_argument("--force", action="store_true", help="accepted; the cluster makes every table of the plan")
    p.add_argument("--json", action="store_true")
    return p.parse_args(args)


def plan(vorpal: str, materials: List[str], all_men: str) -> Dict[str, List[str]]:
    """Each material of the plan (in generation order) with its successors."""
    argv = [vorpal, "tb", "plan", *materials, *(["--all", all_men] if all_men else []), "--json"]
    out: Dict[str, List[str]] = {}
    for line in binaries.run(argv, timeout=60).stdout.splitlines():
        o = json.loads(line)
        out[o["material"]] = list(o["successors"])
    return out


def closure(graph: Dict[str, List[str]], material: str) -> Set[str]:
    """Every material that ``material`` converts into, directly or not."""
    seen: Set[str] = set()
    todo = list(graph[material])
    while todo:
        m = todo.pop()
        if m not in seen:
            seen.add(m)
            todo.extend(graph[m])
    return seen


def run(bin_dir: str, args: List[str], attempts: int) -> int:
    """Makes the tables over the cluster into ``--dir``; prints each table's report (as
    generate prints it) with the node that made it; returns the exit code."""
    o = parse(args)
    vorpal = binaries.binary(bin_dir, "vorpal")
    graph = plan(vorpal, o.materials, o.all)
    os.makedirs(o.dir, exist_ok=True)
    files: Dict[str, List[str]] = {}
    made: Set[str] = set()
    per_node: Dict[str, List[str]] = {}

    def ready() -> List[str]:
        return [m for m in graph if m not in made and all(s in made for s in graph[m])]

    def submit(m: str):
        inputs: Dict[str, bytes] = {}
        for s in closure(graph, m):
            for name in files[s]:
                with open(os.path.join(o.dir, name), "rb") as f:
                    inputs[name] = f.read()
        argv = [vorpal, "tb", "generate", m, "--dir", ".", "--threads", str(o.threads)]
        argv += ["--json"] if o.json else []
        return run_in_scratch.options(num_cpus=o.threads).remote(argv, inputs, None)

    def on_result(m: str, result: Dict) -> Tuple[List[str], bool]:
        own = {n: b for n, b in result["files"].items() if n.startswith(m + ".")}
        for name, data in own.items():
            tmp = os.path.join(o.dir, name + ".part")
            with open(tmp, "wb") as f:
                f.write(data)
            os.replace(tmp, os.path.join(o.dir, name))
        files[m] = sorted(own)
        made.add(m)
        label = node_label(result["node"])
        per_node.setdefault(label, []).append(m)
        say(result["stdout"].rstrip() + ("" if o.json else f"\n  made on node {label}"))
        submitted = set(pending)
        new = [k for k in ready() if k not in submitted]
        pending.update(new)
        return new, False

    pending: Set[str] = set(ready())
    report = run_tasks(submit, sorted(pending), on_result, attempts=attempts)
    if not o.json:
        say(f"{len(made)} tables made on the cluster in {report.seconds:.1f}s into {o.dir}")
        for node, ms in sorted(per_node.items()):
            say(f"  node {node}: {' '.join(ms)}")
        for line in report.retry_lines():
            say(f"  retried table {line}")
    return 0

