"""The Ray tier's checks (run by tests/ray/cluster.sh inside the tier's namespace, with a head
and a worker node of one CPU each): every vorpal-cluster command against the same work done
by the binaries on one machine, a wrong address and a missing binary, and for each command a
worker node killed mid-run (tests/ray/faults.py)."""

from __future__ import annotations

import ast
import filecmp
import os
import re
import shutil
import socket
import sys
import subprocess
import time
import unittest
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import List, Set, Tuple

from faults import TaskTest, WorkerKill, alive_nodes, binary_is, kill_while_writing, nodes_up, option

ADDRESS = os.environ["RAY_ADDRESS_FOR_TESTS"]
BIN = os.environ["VORPAL_BIN_DIR"]
WORK = Path(os.environ["TIER_WORK"])
CLUSTER = os.environ["VORPAL_CLUSTER"]
VORPAL = os.path.join(BIN, "vorpal")
RAY = os.path.join(os.path.dirname(CLUSTER), "ray")
WORKER_ARGS = os.environ["RAY_WORKER_ARGS"].split()

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
#: The datagen runs' options besides --games and --seed: quick games, and for the fault
#: test slower ones (a shard of two games takes seconds, so the worker is killed mid-shard).
DATAGEN = ["--nodes", "200", "--random-plies", "6"]
SLOW_DATAGEN = ["--nodes", "3000", "--random-plies", "6"]


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


def local_datagen(args: List[str], shards: List[Tuple[int, int]], name: str) -> Tuple[Path, int]:
    """The shards (seed, games) of ``vorpal-datagen args`` run here at once, one thread each,
    merged into ``name``.bin as the driver merges them; the file and its record count."""
    def shard(k: int) -> str:
        seed, games = shards[k]
        base = WORK / f"{name}-{k}"
        local("vorpal-datagen", *args, "--games", str(games), "--seed", str(seed), "--threads", "1",
              "--format", "packed", "--out", str(base))
        return str(base) + ".bin"

    with ThreadPoolExecutor(len(shards)) as pool:
        parts = list(pool.map(shard, range(len(shards))))
    merged = WORK / f"{name}.bin"
    out = local("vorpal-datagen", "merge", str(merged), *parts).stdout
    return merged, int(re.search(r"merged (\d+) records", out).group(1))


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
        from vorpal_cluster.binaries import build_of, on_node
        from vorpal_cluster.cluster import split_address
        from vorpal_cluster.errors import ClusterError
        from vorpal_cluster.match_job import played_games
        from vorpal_cluster.tb_job import closure

        self.assertEqual(played_games("# games\t4\nid\tpair\n2\t1\tA\n3\t1\tB\n"), [3, 4])
        argv = ["/opt/v/vorpal-match", "--engine", "cmd=/opt/v/vorpal", "--dir", "/opt/vv"]
        self.assertEqual(on_node(argv, None), argv)
        here = os.getcwd()
        self.assertEqual(on_node(argv, "/opt/v/"),
                         [f"{here}/vorpal-match", "--engine", f"cmd={here}/vorpal", "--dir", "/opt/vv"])
        self.assertEqual(closure({"KPvK": ["KQvK"], "KQvK": [], "KPvKP": ["KPvK"]}, "KPvKP"), {"KPvK", "KQvK"})
        self.assertEqual(build_of("Vorpal 0.1.0 (build 53bfacd+dirty-1f)"), "53bfacd+dirty-1f")
        self.assertEqual(split_address("10.0.0.1:6379"), ("10.0.0.1", 6379))
        with self.assertRaises(ClusterError):
            split_address("10.0.0.1")


class Cluster(unittest.TestCase):
    """The checks, in the order they run (the worker node is killed in the last three, a new
    one started before each)."""

    reference: Path

    @classmethod
    def setUpClass(cls) -> None:
        local("vorpal-match", "openings", "--count", "20", "--plies", "6", "--nodes", "100", "--out", str(BOOK))
        cls.reference = WORK / "match-local"
        cls.reference.mkdir(exist_ok=True)
        local("vorpal-match", *MATCH, "--concurrency", "2", "--quiet", "--pgn", str(cls.reference / "m.pgn"))
        local("vorpal-match", *SLOW, "--concurrency", "2", "--quiet", "--pgn", str(cls.reference / "slow.pgn"))

    def setUp(self) -> None:
        self.started = time.monotonic()

    def tearDown(self) -> None:
        took = time.monotonic() - self.started
        print(f"\n  timing: {self.id().rsplit('.', 1)[1]}: {took:.1f} s", file=sys.stderr, flush=True)

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
        # First the driver is killed while vorpal-match merge writes the PGN (PGN.tmp, then a
        # rename) over an earlier match's files: they are left as they were.
        old = {ext: (self.reference / f"slow.{ext}").read_bytes() for ext in ("pgn", "results")}
        for ext, data in old.items():
            (out / f"m.{ext}").write_bytes(data)
        self.killed_while_writing(["match", *MATCH, "--pgn", str(out / "m.pgn")], out / "m.pgn.tmp")
        self.assertEqual({ext: (out / f"m.{ext}").read_bytes() for ext in old}, old)
        # The rerun.
        run = cluster("match", *MATCH, "--pgn", str(out / "m.pgn"))
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertFalse((out / "m.pgn.tmp").exists())
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
        args = ["datagen", *DATAGEN, "--games", "6", "--seed", "11", "--out", str(out)]
        # First the driver is killed while vorpal-datagen merge writes OUT.bin.tmp: no OUT.bin.
        self.killed_while_writing(args, Path(f"{out}.bin.tmp"))
        self.assertFalse(Path(f"{out}.bin").exists())
        # The rerun.
        run = cluster(*args)
        self.assertEqual(run.returncode, 0, run.stderr)
        here, count = local_datagen(DATAGEN, [(11, 3), (12, 3)], "dg-local")
        self.assertTrue(filecmp.cmp(here, str(out) + ".bin", shallow=False))
        self.assertGreater(count, 0)
        self.assertIn(f"merged {count} records of 2 shards", run.stdout)
        dumped = local("vorpal-datagen", "dump", str(out) + ".bin").stdout.splitlines()
        self.assertEqual(len(dumped), count)
        self.assertTrue(all(line.count(" | ") == 2 for line in dumped), dumped[:3])
        # Its output is never overwritten: refused before any shard runs.
        refused = cluster(*args)
        self.assertEqual(refused.returncode, 2, refused.stderr)
        self.assertIn(f"{out}.bin exists", refused.stderr)
        self.assertTrue(filecmp.cmp(here, str(out) + ".bin", shallow=False))

    def run_killing_workers(self, args: List[str], is_task: TaskTest, after: float, nodes: int = 2,
                            kills: int = 1) -> Tuple[str, List[List[str]]]:
        """Runs ``vorpal-cluster args`` on ``nodes`` nodes (the head and worker nodes) and kills
        ``kills`` worker nodes, each once a task binary (``is_task``) has run there ``after``
        seconds (tests/ray/faults.py); the run must still succeed. Its stdout (the report) and
        the killed binaries' arguments, once the head has declared their nodes dead."""
        nodes_up(ADDRESS, RAY, WORKER_ARGS, WORK / "workers.log", nodes)
        argv = [CLUSTER, args[0], "--address", ADDRESS, "--bin-dir", BIN, *args[1:]]
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        kill = WorkerKill(proc, is_task, after, kills)
        start = time.monotonic()
        stdout, stderr = proc.communicate(timeout=400)
        print(f"\n  timing: vorpal-cluster {args[0]}, {kills} of {nodes - 1} worker nodes killed: "
              f"{time.monotonic() - start:.1f} s", file=sys.stderr, flush=True)
        with open(WORK / "cluster-runs.log", "a") as log:
            log.write(f"$ {' '.join(argv)}\n{stdout}{stderr}\n")
        kill.thread.join(5)
        self.assertEqual(len(kill.killed), kills, f"{kill.killed}: not {kills} nodes killed mid-task: {stdout}{stderr}")
        self.assertEqual(proc.returncode, 0, stderr)
        # The report alone on stdout: Ray's notice of the node's death went to stderr.
        self.assertNotIn("(raylet)", stdout)
        self.assertEqual(alive_nodes(ADDRESS, nodes - kills, 30), nodes - kills, "the killed nodes live on")
        return stdout, kill.killed

    def assert_retried(self, stdout: str, what: str, keys: List[str]) -> None:
        """The report names each of ``keys`` (the tasks killed, a key once per kill) as retried
        at least that often (a task lost with its node before its binary ran may be too)."""
        retried = dict(re.findall(rf"^  retried {what} (\S+): (\d+) retr", stdout, re.M))
        for key in set(keys):
            self.assertGreaterEqual(int(retried.get(key, 0)), keys.count(key), stdout)

    def test_6_worker_nodes_die_mid_match(self) -> None:
        out = WORK / "match-fault"
        out.mkdir(exist_ok=True)
        # Two of three worker nodes die at once, each while it plays a pair.
        stdout, killed = self.run_killing_workers(["match", *SLOW, "--pgn", str(out / "m.pgn")],
                                                  binary_is("vorpal-match", "--shard"), 0.5, nodes=4, kills=2)
        self.assert_retried(stdout, "pair", [option(argv, "--shard").split("/")[0] for argv in killed])
        lines = game_lines(out / "m.results")
        self.assertEqual([int(ln.split()[0]) for ln in lines], list(range(16)))
        self.assertEqual(lines, game_lines(self.reference / "slow.results"))
        self.assertEqual(sorted(pgn_games(out / "m.pgn")), sorted(pgn_games(self.reference / "slow.pgn")))
        self.assertIn("Played 16 of 16 games on the cluster", stdout)
        self.assertTrue(stdout.startswith("Results of A vs B (nodes=3000, 16 games):"), stdout)

    def test_7_worker_nodes_die_mid_table(self) -> None:
        # Two of three worker nodes die, each while it makes a table (held from its start: a
        # 3-man table takes under a second); the local files are test_2's.
        here, there = WORK / "tb-local", WORK / "tb-fault"
        if not here.is_dir():
            local("vorpal", "tb", "generate", *TABLES, "--all", "3", "--dir", str(here), "--threads", "2", timeout=600)
        stdout, killed = self.run_killing_workers(["tb", *TABLES, "--all", "3", "--dir", str(there)],
                                                  binary_is("vorpal", "generate"), 0.0, nodes=4, kills=2)
        self.assert_retried(stdout, "table", [argv[argv.index("generate") + 1] for argv in killed])
        # Every table once, into the folder, byte for byte; no file left half-written.
        names = sorted(os.listdir(here))
        self.assertEqual(names, sorted(os.listdir(there)))
        _, mismatch, errors = filecmp.cmpfiles(here, there, names, shallow=False)
        self.assertEqual((mismatch, errors), ([], []))
        tables = [ln.split()[0] for ln in plan_lines(local("vorpal", "tb", "plan", *TABLES, "--all", "3").stdout)]
        self.assertEqual(stdout.count("made on node "), len(tables), stdout)
        self.assertIn(f"{len(tables)} tables made on the cluster", stdout)
        per_node = [m for ms in re.findall(r"^  node [^:]*: (.+)$", stdout, re.M) for m in ms.split()]
        self.assertEqual(sorted(per_node), sorted(tables), stdout)

    def test_8_a_worker_node_dies_mid_datagen_shard(self) -> None:
        out = WORK / "dg-fault"
        args = ["datagen", *SLOW_DATAGEN, "--games", "4", "--seed", "21", "--shards", "2", "--out", str(out)]
        stdout, [killed] = self.run_killing_workers(args, binary_is("vorpal-datagen", "--out", "part"), 1.0)
        shard = int(option(killed, "--seed")) - 21
        self.assertRegex(stdout, rf"retried shard {shard}: 1 retry \(\w+", stdout)
        # Each shard merged once: the same file and count as the two shards run here.
        here, count = local_datagen(SLOW_DATAGEN, [(21, 2), (22, 2)], "dg-fault-local")
        self.assertTrue(filecmp.cmp(here, str(out) + ".bin", shallow=False))
        self.assertIn(f"merged {count} records of 2 shards", stdout)
        shards = sorted(int(k) for ks in re.findall(r"^  node .*: shards ([\d ]+)$", stdout, re.M) for k in ks.split())
        self.assertEqual(shards, [0, 1], stdout)


    def killed_while_writing(self, args: List[str], part: Path) -> None:
        """Runs ``vorpal-cluster args`` and kills the driver while it (or the merge it runs)
        writes ``part``, the temporary file of an output (tests/ray/faults.py)."""
        argv = [CLUSTER, args[0], "--address", ADDRESS, "--bin-dir", BIN, *args[1:]]
        start = time.monotonic()
        done = kill_while_writing(argv, str(part))
        print(f"\n  timing: vorpal-cluster {args[0]}, killed while writing {part.name}: "
              f"{time.monotonic() - start:.1f} s", file=sys.stderr, flush=True)
        with open(WORK / "cluster-runs.log", "a") as log:
            log.write(f"$ strace ... {' '.join(argv)} (killed)\n{done.stdout}{done.stderr}\n")
        self.assertTrue(part.is_file(), f"{part}: {os.listdir(part.parent)}")

    def test_9_a_driver_killed_mid_table_write_leaves_whole_files(self) -> None:
        # The driver writes a table under TABLE.vtb.part and renames it (test_3 and test_5 kill
        # it while the merges it runs write a match's PGN and datagen's file).
        here, there = WORK / "tb-local", WORK / "tb-killed"
        if not here.is_dir():
            local("vorpal", "tb", "generate", "KQvK", "KRvK", "--dir", str(here), timeout=600)
        args = ["tb", "KQvK", "KRvK", "--dir", str(there)]
        self.killed_while_writing(args, there / "KRvK.vtb.part")
        self.assertFalse((there / "KRvK.vtb").exists())
        self.assertLess((there / "KRvK.vtb.part").stat().st_size, (here / "KRvK.vtb").stat().st_size)
        for name in [n for n in os.listdir(there) if n.endswith(".vtb")]:
            self.assertTrue(filecmp.cmp(here / name, there / name, shallow=False), name)
        again = cluster(*args)
        self.assertEqual(again.returncode, 0, again.stderr)
        self.assertEqual(sorted(os.listdir(there)), ["KQvK.vtb", "KRvK.vtb"])
        _, mismatch, errors = filecmp.cmpfiles(here, there, ["KQvK.vtb", "KRvK.vtb"], shallow=False)
        self.assertEqual((mismatch, errors), ([], []))


    def test_9_b_binaries_shipped_to_a_node_without_them(self) -> None:
        # The binaries (stripped copies: a release build's size) in a folder that a new worker
        # node does not see: a tmpfs over it in the node's own mount namespace.
        bins, there = WORK / "bins", WORK / "tb-shipped"
        bins.mkdir(exist_ok=True)
        for name in ("vorpal", "vorpal-match", "vorpal-datagen"):
            if shutil.which("strip"):
                subprocess.run(["strip", "-o", str(bins / name), os.path.join(BIN, name)], check=True)
            else:
                shutil.copy2(os.path.join(BIN, name), bins / name)
        alive = alive_nodes(ADDRESS, 0, 0)
        hide = 'mount -t tmpfs none "$0" && exec "$@"'
        with open(WORK / "workers.log", "ab") as log:
            subprocess.run(["unshare", "-m", "sh", "-c", hide, str(bins), RAY, "start", *WORKER_ARGS], stdout=log,
                           stderr=subprocess.STDOUT, check=True, timeout=180)
        self.assertEqual(alive_nodes(ADDRESS, alive + 1, 60), alive + 1)
        tables = ["KQvK", "KRvK", "KBvK", "KNvK"]
        args = ["tb", "--address", ADDRESS, "--bin-dir", str(bins), *tables, "--dir", str(there)]
        missing = timed("vorpal-cluster tb, a node without the binaries", [CLUSTER, *args], 120)
        self.assertEqual(missing.returncode, 2, missing.stderr)
        odd = rf"vorpal-cluster: node (\S+ \(\w+\)): {re.escape(str(bins))}/vorpal\S*: not found"
        hidden = re.search(odd, missing.stderr)
        self.assertIsNotNone(hidden, missing.stderr)
        self.assertFalse(there.exists())
        # With --ship-bins Ray's runtime environment brings them to every node.
        shipped = timed("vorpal-cluster tb --ship-bins", [CLUSTER, *args, "--ship-bins"], 300)
        self.assertEqual(shipped.returncode, 0, shipped.stderr)
        # The build check runs the shipped binaries on each node, pinned to it (hard node
        # affinity): the node without them ran them too. Which node makes which table is Ray's
        # choice, so the tables are not asserted to be made there.
        self.assertIn(f": {alive + 1} nodes,", shipped.stderr)
        self.assertIn("on every node (shipped with the job)", shipped.stderr)
        here = WORK / "tb-local"
        if not here.is_dir():
            local("vorpal", "tb", "generate", *tables, "--dir", str(here), timeout=600)
        names = [f"{t}.vtb" for t in tables]
        self.assertEqual(sorted(os.listdir(there)), sorted(names))
        _, mismatch, errors = filecmp.cmpfiles(here, there, names, shallow=False)
        self.assertEqual((mismatch, errors), ([], []))

if __name__ == "__main__":
    unittest.main()
