"""``vorpal-cluster datagen``: ``vorpal-datagen`` shards with distinct seeds, one per CPU (one
worker thread each), their packed records merged into one file by ``vorpal-datagen merge``."""

from __future__ import annotations

import argparse
import os
import tempfile
from typing import Dict, List, Optional, Tuple

from . import binaries
from .report import say
from .cluster import node_label
from .errors import ClusterError
from .runner import run_tasks
from .tasks import run_in_scratch


def parse(args: List[str]) -> Tuple[argparse.Namespace, List[str]]:
    """The options the driver sets per shard, and the rest (passed to every shard)."""
    p = argparse.ArgumentParser(prog="vorpal-cluster datagen", allow_abbrev=False, add_help=False)
    p.add_argument("--out", required=True)
    p.add_argument("--games", type=int)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--threads")
    p.add_argument("--format", default="packed")
    p.add_argument("--shards", type=int)
    own, rest = p.parse_known_args(args)
    if own.format not in ("packed", "both"):
        raise ClusterError("datagen: the cluster merges packed records (--format packed or both)")
    return own, rest


def shard_games(games: int, shards: int) -> List[int]:
    """``games`` split into ``shards`` near-equal counts (no shard without a game)."""
    return [n for n in (games // shards + (1 if k < games % shards else 0) for k in range(shards)) if n > 0]


def shard_seed(seed: int, shard: int) -> int:
    """Shard ``shard``'s seed: distinct for every shard (datagen mixes it with the game index)."""
    return (seed + shard) % (1 << 64)


def run(bin_dir: str, args: List[str], attempts: int, cpus: int, shipped_from: Optional[str] = None) -> int:
    """Runs the shards over the cluster and merges them into ``--out``.bin; returns the exit
    code after printing the merge's line (the record count) and the shards per node.
    ``shipped_from``: ``bin_dir`` when the job shipped the binaries (``--ship-bins``)."""
    own, rest = parse(args)
    vd = binaries.binary(bin_dir, "vorpal-datagen")
    timed = any(a == "--max-seconds" or a.startswith("--max-seconds=") for a in rest)
    shards = own.shards or max(cpus, 1)
    if own.games is not None:
        counts = shard_games(own.games, shards)
    elif timed:
        counts = [0] * shards
    else:
        counts = shard_games(100, shards)  # vorpal-datagen's default
    out = os.path.abspath(own.out + ".bin")
    if os.path.exists(out):
        # vorpal-datagen merge would refuse it at the end, after every shard had run.
        raise ClusterError(f"datagen: {out} exists; refusing to overwrite it")
    with tempfile.TemporaryDirectory(prefix="vorpal-cluster-datagen-") as scratch:
        parts: Dict[int, str] = {}
        per_node: Dict[str, List[int]] = {}

        def submit(shard: int):
            games = ["--games", str(counts[shard])] if counts[shard] else []
            argv = [vd, *rest, *games, "--out", "part", "--seed", str(shard_seed(own.seed, shard))]
            argv += ["--threads", "1", "--format", "packed"]
            return run_in_scratch.options(num_cpus=1).remote(argv, {}, ["part.bin"], None, shipped_from)

        def on_result(shard: int, result: Dict) -> Tuple[List[int], bool]:
            path = os.path.join(scratch, f"shard-{shard:04}.bin")
            with open(path, "wb") as f:
                f.write(result["files"]["part.bin"])
            parts[shard] = path
            per_node.setdefault(node_label(result["node"]), []).append(shard)
            return [], False

        report = run_tasks(submit, range(len(counts)), on_result, attempts=attempts)
        merged = binaries.run([vd, "merge", out, *(parts[k] for k in sorted(parts))], timeout=600)
        say(merged.stdout.strip())
        say(f"{len(parts)} shards (seeds {own.seed}..{shard_seed(own.seed, len(counts) - 1)}) in {report.seconds:.1f}s")
        for node, ks in sorted(per_node.items()):
            say(f"  node {node}: shards {' '.join(str(k) for k in sorted(ks))}")
        for line in report.retry_lines():
            say(f"  retried shard {line}")
    return 0
