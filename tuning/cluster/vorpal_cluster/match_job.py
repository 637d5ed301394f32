"""``vorpal-cluster match``: the games of a ``vorpal-match`` run, one task per pair of games
(one engine pair per CPU), merged with ``vorpal-match merge`` and summed up by ``vorpal-match``
itself (a ``--resume`` of the merged outputs, which plays nothing and prints the report as a
local run does); the run stops when the SPRT decides."""

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
    """The options the driver handles itself, and the rest (passed to every shard)."""
    p = argparse.ArgumentParser(prog="vorpal-cluster match", allow_abbrev=False, add_help=False)
    p.add_argument("--pgn", "--pgnout")
    p.add_argument("--results")
    p.add_argument("--sprt", nargs="*")
    p.add_argument("--concurrency")
    p.add_argument("--quiet", action="store_true")
    p.add_argument("--shard")
    p.add_argument("--resume", action="store_true")
    own, rest = p.parse_known_args(args)
    if own.shard or own.resume:
        raise ClusterError("match: --shard and --resume are the driver's own (every game is played once)")
    return own, rest


def schedule(vm: str, rest: List[str]) -> Tuple[int, int]:
    """The match's games and pairs, from ``vorpal-match --list-games``."""
    first = binaries.run([vm, *rest, "--list-games"], timeout=60).stdout.splitlines()[0].split()
    return int(first[1]), int(first[3])


def sprt_decided(vm: str, files: List[str], sprt: List[str]) -> Optional[str]:
    """The SPRT verdict of the games in ``files`` (``H0 accepted``/``H1 accepted``) or None."""
    out = binaries.run([vm, "merge", *files, "--sprt", *sprt], timeout=120).stdout
    for line in out.splitlines():
        if line.startswith("LLR:") and line.endswith("accepted"):
            return line.rsplit(": ", 1)[1]
    return None


def sprt_due(pairs: int) -> bool:
    """Whether the SPRT is read after ``pairs`` finished pairs: after each of the first 64,
    then whenever the count has grown by about 1/32 since the last reading (so a long match
    reads it a few hundred times, not once per pair, and stops at most about 3 % late)."""
    if pairs <= 64:
        return True
    step = max(1, pairs // 32)
    return pairs % step == 0


def played_games(results_text: str) -> List[int]:
    """The game numbers (from 1, as the progress lines count) in a results file's text: each
    game line starts with the game's id (from 0), tab-separated."""
    games = []
    for line in results_text.splitlines():
        word = line.split("\t", 1)[0]
        if word.isdigit():
            games.append(int(word) + 1)
    return games


def run(bin_dir: str, args: List[str], attempts: int, shipped_from: Optional[str] = None) -> int:
    """Runs the match of ``args`` over the cluster; prints vorpal-match's summary and the
    driver's lines (games per node, retries, cancelled pairs); returns the exit code.
    ``shipped_from``: ``bin_dir`` when the job shipped the binaries (``--ship-bins``)."""
    own, rest = parse(args)
    vm = binaries.binary(bin_dir, "vorpal-match")
    total, pairs = schedule(vm, rest)
    with tempfile.TemporaryDirectory(prefix="vorpal-cluster-match-") as scratch:
        pgn = own.pgn or os.path.join(scratch, "match.pgn")
        results = own.results or (os.path.splitext(pgn)[0] + ".results")
        written: List[str] = []
        per_node: Dict[str, List[int]] = {}

        def submit(pair: int):
            argv = [vm, *rest, "--shard", f"{pair}/{pairs}", "--pgn", "g.pgn", "--results", "g.results", "--quiet"]
            return run_in_scratch.options(num_cpus=1).remote(argv, {}, ["g.pgn", "g.results"], None, shipped_from)

        def on_result(pair: int, result: Dict) -> Tuple[List[int], bool]:
            base = os.path.join(scratch, f"pair-{pair:06}")
            for ext in ("pgn", "results"):
                with open(f"{base}.{ext}", "wb") as f:
                    f.write(result["files"][f"g.{ext}"])
            written.append(f"{base}.results")
            games = played_games(result["files"]["g.results"].decode())
            per_node.setdefault(node_label(result["node"]), []).extend(games)
            verdict = own.sprt is not None and sprt_due(len(written)) and sprt_decided(vm, written, own.sprt)
            if verdict and not own.quiet:
                say(f"SPRT: {verdict} after {len(written)} pairs; the other pairs are cancelled")
            return [], bool(verdict)

        report = run_tasks(submit, range(pairs), on_result, attempts=attempts)
        binaries.run([vm, "merge", *sorted(written), "--pgn", pgn, "--results", results], timeout=300)
        sprt = ["--sprt", *own.sprt] if own.sprt is not None else []
        summary = binaries.run([vm, *rest, "--pgn", pgn, "--results", results, "--resume", *sprt], timeout=300)
        lines = [ln for ln in summary.stdout.splitlines() if not ln.startswith("Played ")]
        say("\n".join(lines))
        played = sum(len(g) for g in per_node.values())
        say(f"Played {played} of {total} games on the cluster in {report.seconds:.1f}s, one task per pair of games")
        for node, games in sorted(per_node.items()):
            say(f"  node {node}: {len(games)} games: {' '.join(str(g) for g in sorted(games))}")
        for line in report.retry_lines():
            say(f"  retried pair {line}")
        if report.cancelled:
            say(f"  cancelled: {len(report.cancelled)} pairs (the SPRT had decided)")
    return 0
