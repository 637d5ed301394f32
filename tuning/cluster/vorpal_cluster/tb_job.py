"""``vorpal-cluster tb``: ``vorpal tb generate`` as a graph of tasks, one per material, each
submitted once the materials it converts into are made (the plan and the successors are
``vorpal tb plan --json``'s); a task gets its successors' files through Ray and sends its own
back, and the driver writes every file into ``--dir`` (and reads the successors' from there
for the tasks that need them: Ray ships them to the task's node with its arguments)."""

from __future__ import annotations

import argparse
import json
import os
from typing import Dict, List, Optional, Set, Tuple

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
    p.add_argument("--force", action="store_true", help="make the tables present in --dir again")
    p.add_argument("--json", action="store_true")
    return p.parse_args(args)


def plan(vorpal: str, materials: List[str], all_men: str, present_in: str = "") -> Tuple[Dict[str, List[str]], Set[str]]:
    """Each material of the plan (in generation order) with its successors, and the materials
    whose tables are present and sound in ``present_in`` (none without it)."""
    argv = [vorpal, "tb", "plan", *materials, *(["--all", all_men] if all_men else []), "--json"]
    argv += ["--dir", present_in] if present_in else []
    graph: Dict[str, List[str]] = {}
    present: Set[str] = set()
    for line in binaries.run(argv, timeout=600).stdout.splitlines():
        o = json.loads(line)
        graph[o["material"]] = list(o["successors"])
        if o.get("present"):
            present.add(o["material"])
    return graph, present


def table_files(folder: str, material: str) -> List[str]:
    """The files of ``material``'s table in ``folder``."""
    return sorted(n for n in os.listdir(folder) if n.startswith(material + ".") and not n.endswith(".part"))


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


def run(bin_dir: str, args: List[str], attempts: int, shipped_from: Optional[str] = None) -> int:
    """Makes the tables over the cluster into ``--dir``; prints each table's report (as
    generate prints it) with the node that made it; returns the exit code.
    ``shipped_from``: ``bin_dir`` when the job shipped the binaries (``--ship-bins``)."""
    o = parse(args)
    vorpal = binaries.binary(bin_dir, "vorpal")
    os.makedirs(o.dir, exist_ok=True)
    graph, present = plan(vorpal, o.materials, o.all, "" if o.force else o.dir)
    # Tables present and sound are kept, as generate keeps them: an interrupted run resumes.
    files: Dict[str, List[str]] = {m: table_files(o.dir, m) for m in present}
    made: Set[str] = set(present)
    if present and not o.json:
        say(f"kept (present): {' '.join(m for m in graph if m in present)}")
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
        return run_in_scratch.options(num_cpus=o.threads).remote(argv, inputs, None, None, shipped_from)

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
        count = len(made) - len(present)
        say(f"{count} table{'' if count == 1 else 's'} made on the cluster in {report.seconds:.1f}s into {o.dir}")
        for node, ms in sorted(per_node.items()):
            say(f"  node {node}: {' '.join(ms)}")
        for line in report.retry_lines():
            say(f"  retried table {line}")
    return 0

