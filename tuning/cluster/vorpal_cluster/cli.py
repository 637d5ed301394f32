"""The command line: ``vorpal-cluster {match,datagen,tb} --address HOST:PORT [--bin-dir DIR]
[--ship-bins] [--connect-timeout S] [--attempts N] OPTIONS...``, where OPTIONS are those of
``vorpal-match``, ``vorpal-datagen`` or ``vorpal tb generate``. Errors are one line on stderr
and exit status 2."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from typing import List, Optional

from . import binaries, cluster, datagen_job, match_job, tb_job
from .errors import ClusterError
from .report import say

USAGE = """vorpal-cluster {match,datagen,tb} --address HOST:PORT [--bin-dir DIR] [OPTIONS of the binary]

  match    the games of a vorpal-match run, one pair of games per CPU, one report (SPRT stops it)
  datagen  vorpal-datagen shards with distinct seeds, one per CPU, merged into --out.bin
  tb       vorpal tb generate, one task per table after the tables it converts into

Driver options: --address HOST:PORT (the Ray head; required), --bin-dir DIR (where vorpal,
vorpal-match and vorpal-datagen are, the same path on every node; default: vorpal's folder on
the PATH), --ship-bins (send the three binaries of --bin-dir to every node with the job, in
Ray's runtime environment, instead), --connect-timeout S (default 15; shipping adds 300),
--attempts N (tries of a task lost with its node, default 3). See docs/cluster.md."""


def driver_options(argv: List[str]) -> tuple:
    """The driver's own options and the rest (the binary's options)."""
    p = argparse.ArgumentParser(prog="vorpal-cluster", allow_abbrev=False, add_help=False)
    p.add_argument("--address", required=True)
    p.add_argument("--bin-dir")
    p.add_argument("--ship-bins", action="store_true")
    p.add_argument("--connect-timeout", type=float, default=15.0)
    p.add_argument("--attempts", type=int, default=3)
    return p.parse_known_args(argv)


def run(argv: List[str]) -> int:
    """Runs one command line; returns the exit code (ClusterError is the caller's)."""
    if not argv or argv[0] in ("-h", "--help", "help"):
        say(USAGE)
        return 0
    command, rest = argv[0], argv[1:]
    if command not in ("match", "datagen", "tb"):
        raise ClusterError(f"unknown command {command!r} (match, datagen or tb)")
    try:
        own, rest = driver_options(rest)
    except SystemExit:
        raise ClusterError(f"{command}: --address HOST:PORT is required") from None
    bin_dir = binaries.resolve_bin_dir(own.bin_dir)
    if own.ship_bins:
        # Ray zips the folder and uploads it as the driver joins; every node unpacks it.
        with tempfile.TemporaryDirectory(prefix="vorpal-cluster-bins-") as staged:
            env = {"working_dir": binaries.stage(bin_dir, staged)}
            cluster.connect(own.address, own.connect_timeout + 300.0, env)
    else:
        cluster.connect(own.address, own.connect_timeout)
    checked = cluster.check_builds(bin_dir, timeout=max(own.connect_timeout, 60.0), shipped=own.ship_bins)
    cpus = cluster.cpus()
    shipped = " (shipped with the job)" if own.ship_bins else ""
    print(
        f"Cluster at {own.address}: {checked['nodes']} nodes, {cpus} CPUs, build {checked['build']} on every node"
        + shipped,
        file=sys.stderr,
        flush=True,
    )
    ship_from = bin_dir if own.ship_bins else None
    if command == "match":
        return match_job.run(bin_dir, rest, own.attempts, ship_from)
    if command == "datagen":
        return datagen_job.run(bin_dir, rest, own.attempts, cpus, ship_from)
    return tb_job.run(bin_dir, rest, own.attempts, ship_from)


def main(argv: Optional[List[str]] = None) -> int:
    """The console script's entry point."""
    # Ray's notices go to sys.stdout: stderr for them, the real stdout for the report.
    sys.stdout = sys.stderr
    try:
        code = run(list(sys.argv[1:] if argv is None else argv))
    except ClusterError as e:
        print(f"vorpal-cluster: {e}", file=sys.stderr)
        # Ray's threads (a connection still being tried) must not hold the exit.
        sys.stderr.flush()
        os._exit(2)
    except KeyboardInterrupt:
        print("vorpal-cluster: interrupted", file=sys.stderr)
        code = 130
    sys.exit(code)
