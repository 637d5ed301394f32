"""The Ray tier's checks (run by tests/ray/cluster.sh inside the tier's namespace, with a head
and a worker node of one CPU each): every vorpal-cluster command against the same work done
by the binaries on one machine, a wrong address and a missing binary, and a worker node killed
mid-run."""

from __future__ import annotations

import ast
import filecmp
import os
import re
import signal
import socket
import sys
import subprocess
import threading
import time
import unittest
from pathlib import Path
from typing import Dict, List, Set, Tuple

ADDRESS = os.environ["RAY_ADDRESS_FOR_TESTS"]
BIN = os.environ["VORPAL_BIN_DIR"]
WORK = Path(os.environ["TIER_WORK"])
CLUSTER = os.environ["VORPAL_CLUSTER"]
VORPAL = os.path.join(BIN, "vorpal")

BOOK = WORK / "book.epd"


def match_args(nodes: int, games: int) -> List[str]:
    """A node-limited match of Vorpal against itself (distinct hash sizes) from the openings
    of a book made by vorpal-match openings, in seeded random order."""
    return [
        "--engine", f"cmd={VORPAL}", "name=A", "option.Hash=8",
        "--engine", f"cmd={VORPAL}", "name=B", "option.Hash=4",
        "--tc", f"nodes={nodes}", "--games", str(games), "--seed", "7", "--order", "random",
        "--maxmoves", "60", "--openings", str(BOOK),
    ]


#: The 40-game match: quick games.
MATCH = match_args(300, 40)
#: The fault test's match: slower games (a pair takes seconds), so that the worker is killed
#: while it plays one.
SLOW = match_args(3000, 16)
#: The 4-man tables of the tier (with their successors and every 3-man table).
TABLES = ["KNNvK", "KBvKN"]


def timed(what: str, argv: List[str], timeout: float) -> subprocess.CompletedProcess:
    """Runs ``argv``; prints its wall time on stderr (the figures of docs/cluster.md, "Cost")."""
    start = time.monotonic()
    done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
    print(f"\n  timing: {what}: {time.monotonic() - start:.1f} s", file=sys.stderr, flush=True)
    return done


def cluster(*args: str, timeout: float = 400) -> subprocess.CompletedProcess:
    """Runs vorpal-cluster with the tier's address and binaries."""
    argv = [CLUSTER, args[0], "--address", ADDRESS, "--bin-dir", BIN, *args[1:]]
    done = timed(f"vorpal-cluster {args[0]}", argv, timeout)
    with open(WORK / "cluster-runs.log", "a") as log:
        log.write(f"$ {' '.join(argv)}\n{done.stdout}{done.stderr}\n")
    return done


def local(name: str, *args: str, timeout: float = 400) -> subprocess.CompletedProcess:
    """Runs a binary on this machine, outside the cluster; it must succeed."""
    done = timed(f"{name} {args[0]}", [os.path.join(BIN, name), *args], timeout)
    assert done.returncode == 0, done.stderr
    return done


def game_lines(results: Path) -> List[str]:
    """A results file's game lines (without the header), sorted by game number."""
    lines = [ln for ln in results.read_text().splitlines() if ln[:1].isdigit()]
    return sorted(lines, key=lambda ln: int(ln.split()[0]))


def plan_lines(text: str) -> List[str]:
    """The lines of ``vorpal tb plan``'s text output."""
    return [ln for ln in text.splitlines() if ln.strip()]


def pgn_games(pgn: Path) -> List[str]:
    """A PGN file's games (tags and moves, without the comments: they hold search times), in
    file order."""
    text = re.sub(r"\s*\{[^}]*\}", "", pgn.read_text())
    return [" ".join(g.split()) for g in re.split(r"\n(?=\[Event )", text) if g.strip()]


class Parts(unittest.TestCase):
    """The driver's own small functions (no cluster needed)."""

    def test_shards_split_the_games_and_get_distinct_seeds(self) -> None:
        from vorpal_cluster.datagen_job import shard_games, shard_seed

        self.assertEqual(shard_games(7, 3), [3, 2, 2])
        self.assertEqual(shard_games(2, 4), [1, 1])
        self.assertEqual(len({shard_seed(5, k) for k in range(100)}), 100)

    def test_the_build_check_names_the_odd_node(self) -> None:
        from vorpal_cluster.cluster import odd_node

        want = {"vorpal": "53bfacd30ff6", "vorpal-match": "53bfacd30ff6"}

        def node(ip: str, match_line: str) -> dict:
            versions = {"vorpal": "Vorpal 0.1.0 (build 53bfacd30ff6)", "vorpal-match": match_line}
            return {"node": {"ip": ip, "node_id": "3fa2c1d0" + "0" * 48, "host": "h"}, "versions": versions}

        same = node("10.0.0.6", "vorpal-match 0.1.0 (build 53bfacd30ff6)")
        self.assertIsNone(odd_node("/opt/vorpal", want, [same, same]))
        other = node("10.0.0.7", "vorpal-match 0.1.0 (build 1a2b3c4d5e6f)")
        self.assertEqual(
            odd_node("/opt/vorpal", want, [same, other]),
            "node 10.0.0.7 (3fa2c1d0): vorpal-match is build 1a2b3c4d5e6f, the head's is 53bfacd30ff6",
        )
        gone = node("10.0.0.8", "missing: /opt/vorpal/vorpal-match: not found")
        self.assertEqual(
            odd_node("/opt/vorpal", want, [gone]),
            "node 10.0.0.8 (3fa2c1d0): /opt/vorpal/vorpal-match: not found (--bin-dir /opt/vorpal)",
        )

    def test_the_sprt_is_read_often_then_every_few_pairs(self) -> None:
        from vorpal_cluster.match_job import sprt_due

        self.assertTrue(all(sprt_due(n) for n in range(1, 65)))
        reads = [n for n in range(1, 2001) if sprt_due(n)]
        self.assertLess(len(reads), 400)
        self.assertTrue(all(b - a <= max(1, b // 32) for a, b in zip(reads, reads[1:])))

    def test_reading_outputs(self) -> None:
        from vorpal_cluster.binaries import build_of
        from vorpal_cluster.cluster import split_address
        from vorpal_cluster.errors import ClusterError
        from vorpal_cluster.match_job import played_games
        from vorpal_cluster.tb_job import closure

        self.assertEqual(played_games("# games\t4\nid\tpair\n2\t1\tA\n3\t1\tB\n"), [3, 4])
        self.assertEqual(closure({"KPvK": ["KQvK"], "KQvK": [], "KPvKP": ["KPvK"]}, "KPvKP"), {"KPvK", "KQvK"})
        self.assertEqual(build_of("Vorpal 0.1.0 (build 53bfacd+dirty-1f)"), "53bfacd+dirty-1f")
        self.assertEqual(split_address("10.0.0.1:6379"), ("10.0.0.1", 6379))
        with self.assertRaises(ClusterError):
            split_address("10.0.0.1")


class Cluster(unittest.TestCase):
    """The checks, in the order they run (the worker node is killed in the last)."""

    reference: Path

    @classmethod
    def setUpClass(cls) -> None:
        local("vorpal-match", "openings", "--count", "20", "--plies", "6", "--nodes", "100", "--out", str(BOOK))
        cls.reference = WORK / "match-local"
        cls.reference.mkdir(exist_ok=True)
        local("vorpal-match", *MATCH, "--concurrency", "2", "--quiet", "--pgn", str(cls.reference / "m.pgn"))
        local("vorpal-match", *SLOW, "--concurrency", "2", "--quiet", "--pgn", str(cls.reference / "slow.pgn"))

    def test_0_the_package_has_no_import_circle(self) -> None:
        package = Path(__file__).resolve().parents[2] / "tuning" / "cluster" / "vorpal_cluster"
        imports = {}
        for module in package.glob("*.py"):
            tree = ast.parse(module.read_text())
            names = set()
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom) and node.level == 1:
                    names.update([node.module] if node.module else [a.name for a in node.names])
            imports[module.stem] = names
        self.assertIn("cli", imports)
        done: Set[str] = set()

        def visit(name: str, path: List[str]) -> None:
            self.assertNotIn(name, path, f"import circle: {' -> '.join(path + [name])}")
            if name not in done:
                for other in imports.get(name, ()):
                    visit(other, path + [name])
                done.add(name)

        for name in imports:
            visit(name, [])

    def test_1_errors_are_quick_and_clear(self) -> None:
        start = time.monotonic()
        bad = subprocess.run([CLUSTER, "tb", "--address", "127.0.0.1:1", "--bin-dir", BIN, "KQvK", "--dir", "x"],
                             capture_output=True, text=True, timeout=60)
        self.assertEqual(bad.returncode, 2)
        self.assertIn("no Ray cluster answers at 127.0.0.1:1", bad.stderr)
        with socket.socket() as not_ray:
            not_ray.bind(("127.0.0.1", 0))
            not_ray.listen(8)
            port = not_ray.getsockname()[1]
            start_wait = time.monotonic()
            wrong = subprocess.run([CLUSTER, "tb", "--address", f"127.0.0.1:{port}", "--connect-timeout", "5",
                                    "--bin-dir", BIN, "KQvK", "--dir", "x"], capture_output=True, text=True, timeout=60)
            self.assertEqual(wrong.returncode, 2, wrong.stderr)
            self.assertIn(f"127.0.0.1:{port} answers but no Ray cluster joined in 5 s", wrong.stderr)
            self.assertLess(time.monotonic() - start_wait, 30)
        missing = subprocess.run([CLUSTER, "tb", "--address", ADDRESS, "--bin-dir", str(WORK / "nothing"),
                                  "KQvK", "--dir", "x"], capture_output=True, text=True, timeout=120)
        self.assertEqual(missing.returncode, 2, missing.stderr)
        self.assertIn("vorpal", missing.stderr)
        self.assertIn("not found", missing.stderr)
        self.assertLess(time.monotonic() - start, 90)

    def test_2_tables_equal_a_local_run(self) -> None:
        here, there = WORK / "tb-local", WORK / "tb-cluster"
        local("vorpal", "tb", "generate", *TABLES, "--all", "3", "--dir", str(here), "--threads", "2", timeout=600)
        run = cluster("tb", *TABLES, "--all", "3", "--dir", str(there), timeout=600)
        self.assertEqual(run.returncode, 0, run.stderr)
        names = sorted(os.listdir(here))
        self.assertEqual(names, sorted(os.listdir(there)))
        plan = local("vorpal", "tb", "plan", *TABLES, "--all", "3").stdout.split()
        for table in TABLES + ["KNvK", "KBvK", "KQvK", "KRvK"]:
            self.assertTrue(any(n.startswith(table + ".") for n in names), f"{table} in {names}")
            self.assertIn(table, plan)
        _, mismatch, errors = filecmp.cmpfiles(here, there, names, shallow=False)
        self.assertEqual((mismatch, errors), ([], []))
        tables = [ln.split()[0] for ln in plan_lines(local("vorpal", "tb", "plan", *TABLES, "--all", "3").stdout)]
        self.assertEqual(run.stdout.count("made on node "), len(tables), run.stdout)
        self.assertEqual(len(set(re.findall(r"made on node (\S+ \(\w+\))", run.stdout))), 2, run.stdout)
        # A run over the same folder keeps every table; one whose files are gone is made again.
        for name in names:
            if name.startswith("KNNvK."):
                os.remove(there / name)
        again = cluster("tb", *TABLES, "--all", "3", "--dir", str(there), timeout=600)
        self.assertEqual(again.returncode, 0, again.stderr)
        self.assertEqual(again.stdout.count("made on node "), 1, again.stdout)
        self.assertIn("KNNvK: ", again.stdout)
        self.assertIn("1 table made on the cluster", again.stdout)
        self.assertRegex(again.stdout, r"kept \(present\): .*KBvKN")
        _, mismatch, errors = filecmp.cmpfiles(here, there, names, shallow=False)
        self.assertEqual((mismatch, errors), ([], []))

    def test_3_match_equals_a_local_run(self) -> None:
        out = WORK / "match-cluster"
        out.mkdir(exist_ok=True)
        run = cluster("match", *MATCH, "--pgn", str(out / "m.pgn"))
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertEqual(game_lines(out / "m.results"), game_lines(self.reference / "m.results"))
        self.assertEqual(len(game_lines(out / "m.results")), 40)
        local_games = sorted(pgn_games(self.reference / "m.pgn"))
        self.assertEqual(sorted(pgn_games(out / "m.pgn")), local_games)
        summary = local("vorpal-match", *MATCH, "--pgn", str(self.reference / "m.pgn"), "--resume").stdout
        self.assertIn("Results of A vs B (nodes=300, 40 games):", run.stdout)
        for line in summary.splitlines():
            if not line.startswith("Played "):
                self.assertIn(line, run.stdout)
        self.assertIn("Played 40 of 40 games on the cluster", run.stdout)
        self.assertEqual(len(re.findall(r"^  node .*: (\d+) games", run.stdout, re.M)), 2, run.stdout)

    def test_4_sprt_stops_the_match(self) -> None:
        out = WORK / "match-sprt"
        out.mkdir(exist_ok=True)
        run = cluster("match", *MATCH, "--pgn", str(out / "m.pgn"), "--sprt", "elo0=0", "elo1=1000", "alpha=0.3",
                      "beta=0.3")
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertIn("accepted", run.stdout)
        played = len(game_lines(out / "m.results"))
        self.assertLess(played, 40, run.stdout)
        self.assertIn("cancelled", run.stdout)

    def test_5_datagen_equals_local_shards(self) -> None:
        out = WORK / "dg-cluster"
        args = ["--games", "6", "--nodes", "200", "--seed", "11", "--random-plies", "6"]
        run = cluster("datagen", *args, "--out", str(out))
        self.assertEqual(run.returncode, 0, run.stderr)
        parts = []
        for shard, (seed, games) in enumerate([(11, 3), (12, 3)]):
            base = WORK / f"dg-local-{shard}"
            local("vorpal-datagen", *args[2:4], *args[6:], "--games", str(games), "--seed", str(seed),
                  "--threads", "1", "--format", "packed", "--out", str(base))
            parts.append(str(base) + ".bin")
        merged = local("vorpal-datagen", "merge", str(WORK / "dg-local.bin"), *parts).stdout
        self.assertTrue(filecmp.cmp(WORK / "dg-local.bin", str(out) + ".bin", shallow=False))
        count = int(re.search(r"merged (\d+) records", merged).group(1))
        self.assertGreater(count, 0)
        self.assertIn(f"merged {count} records of 2 shards", run.stdout)
        dumped = local("vorpal-datagen", "dump", str(out) + ".bin").stdout.splitlines()
        self.assertEqual(len(dumped), count)
        self.assertTrue(all(line.count(" | ") == 2 for line in dumped), dumped[:3])

    def test_6_a_worker_node_dies_mid_match(self) -> None:
        out = WORK / "match-fault"
        out.mkdir(exist_ok=True)
        argv = [CLUSTER, "match", "--address", ADDRESS, "--bin-dir", BIN, *SLOW, "--pgn", str(out / "m.pgn")]
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        killed = threading.Event()
        threading.Thread(target=kill_worker_mid_task, args=(proc, killed), daemon=True).start()
        stdout, stderr = proc.communicate(timeout=400)
        with open(WORK / "cluster-runs.log", "a") as log:
            log.write(f"$ {' '.join(argv)}\n{stdout}{stderr}\n")
        self.assertTrue(killed.is_set(), "the worker's raylet was not killed during a task")
        self.assertEqual(proc.returncode, 0, stderr)
        self.assertRegex(stdout, r"retried pair \d+: 1 retry", stdout)
        lines = game_lines(out / "m.results")
        self.assertEqual([int(ln.split()[0]) for ln in lines], list(range(16)))
        self.assertEqual(lines, game_lines(self.reference / "slow.results"))
        self.assertEqual(sorted(pgn_games(out / "m.pgn")), sorted(pgn_games(self.reference / "slow.pgn")))
        self.assertIn("Played 16 of 16 games on the cluster", stdout)
        # The report alone on stdout: Ray's notice of the node's death went to stderr.
        self.assertTrue(stdout.startswith("Results of A vs B (nodes=3000, 16 games):"), stdout)
        self.assertNotIn("(raylet)", stdout)


def processes() -> Dict[int, Tuple[int, str]]:
    """This namespace's processes: pid to (parent pid, command line)."""
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


def kill_worker_mid_task(driver: subprocess.Popen, killed: threading.Event) -> None:
    """Kills the worker node as a machine dies: SIGKILL to its raylet (its socket is raylet.1,
    the head's raylet) and then to every process under it (its Ray workers and their
    vorpal-match), as soon as a vorpal-match shard runs there, after the first two seconds.
    (The raylet alone is not enough: a worker whose raylet died still finishes its task and
    hands the result to the driver, so nothing would be lost.)"""
    time.sleep(2)
    while driver.poll() is None:
        procs = processes()
        raylets = [p for p, (_, cmd) in procs.items() if "raylet/raylet" in cmd and re.search(r"sockets/raylet\.1\x00", cmd)]
        for pid, (ppid, cmd) in procs.items():
            if "vorpal-match" not in cmd or "--shard" not in cmd:
                continue
            up = ppid
            for _ in range(6):
                if up in raylets:
                    os.kill(up, signal.SIGKILL)
                    for child in descendants(procs, up):
                        try:
                            os.kill(child, signal.SIGKILL)
                        except ProcessLookupError:
                            pass
                    killed.set()
                    return
                up = procs.get(up, (0, ""))[0]
        time.sleep(0.1)

if __name__ == "__main__":
    unittest.main()
