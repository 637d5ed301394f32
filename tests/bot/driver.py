#!/usr/bin/env python3
"""End-to-end checks of `vorpal bot` against the real pychess-variants server (the fixture in
shared/pychess-variants, started by tests/bot/run.sh). The human side is the fixture's human.py
(the browser's protocol) playing random legal moves found with pyffish_alice, the site's own
Alice rules.

usage: VENV/bin/python driver.py --url http://127.0.0.1:PORT --vorpal target/release/vorpal
                                 --fixture DIR --work DIR

Prints one line per check ("ok: ..." or "FAIL: ...") and a closing "N passed, M failed" line;
exit status 0 when every check passed.
"""

import argparse
import asyncio
import os
import random
import re
import signal
import subprocess
import sys
import time

import cases
import cases_end

ARGS = None
BOTS = []  # every bot process started, ended at exit whatever happens
TOKEN = "vorpal-test-token"
HUMANS = ("tester", "tester2", "tester3", "tester4", "tester5", "tester6")
# The site's texts for the decline reasons the checks provoke (seek.py DECLINE_REASON_MESSAGES).
TOO_SLOW = "This time control is too slow for me, please challenge again with a faster game."
LATER = "This is not the right time for me, please ask again later."


def say(*parts):
    print("[driver]", *parts, file=sys.stderr, flush=True)


class Bot:
    """One `vorpal bot` process; its log (stderr) is appended to WORK/`tag`.log, its games to
    WORK/`tag`.pgn (its running games in WORK/`tag`.games); it plays on the server at `url`
    (the main one unless told). The servers' game ids repeat from one server to the next, so
    the bots of each server keep files of their own. With `log_file` the bot writes its log
    itself (--log WORK/`tag`.log) and its stderr goes to WORK/`tag`.stderr."""

    def __init__(self, *extra, token=TOKEN, tag="bot", url=None, log_file=False):
        self.log_path = os.path.join(ARGS.work, f"{tag}.log")
        self.stderr_path = os.path.join(ARGS.work, f"{tag}.stderr") if log_file else self.log_path
        self.pgn = os.path.join(ARGS.work, f"{tag}.pgn")
        self.start_offset = os.path.getsize(self.log_path) if os.path.exists(self.log_path) else 0
        env = dict(os.environ, VORPAL_BOT_TOKEN=token, RUST_LOG="warn,vorpal_protocol::bot=info")
        # The defaults below unless `extra` sets them.
        defaults = [("--server", url or ARGS.url), ("--max-move-time", "1500"), ("--max-games", "2")]
        cmd = [ARGS.vorpal, "bot", "--pgn", self.pgn, *extra] + (["--log", self.log_path] if log_file else [])
        for flag, value in defaults:
            if flag not in extra:
                cmd += [flag, value]
        self.log = open(self.stderr_path, "ab")
        self.proc = subprocess.Popen(cmd, env=env, stdout=self.log, stderr=self.log, cwd=ARGS.work)
        BOTS.append(self.proc)

    def text(self):
        with open(self.log_path, "rb") as f:
            f.seek(self.start_offset)
            return f.read().decode(errors="replace")

    def wait_for(self, pattern, timeout):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if re.search(pattern, self.text()):
                return True
            if self.proc.poll() is not None:
                return bool(re.search(pattern, self.text()))
            time.sleep(0.1)
        return False

    def stop(self, sig=signal.SIGTERM, timeout=20):
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return None
        finally:
            self.log.close()


def random_mover(seed):
    import pyffish_alice as sf
    rng = random.Random(seed)

    def on_turn(board):
        moves = sf.legal_moves("alice", board["fen"], [])
        return rng.choice(moves) if moves else None
    return on_turn


async def play(user, human_color, seed, **kw):
    import human
    return await human.play_vs_bot(
        ARGS.url, user=user, color=human_color, minutes=1, increment=2, on_turn=random_mover(seed),
        wait_end=30, opponent_timeout=60, log=lambda *a: say(user, *a), **kw)


def bot_won(outcome, bot_color):
    want = "1-0" if bot_color == "white" else "0-1"
    return outcome.status_name == "mate" and outcome.result == want


def check_times(log_text):
    """Every move the bot logged was made within the time it had."""
    late = []
    for m in re.finditer(r"game (\w+): ply (\d+): \S+ \(\w+\) after (\d+) ms, (\d+) ms left", log_text):
        if int(m.group(3)) >= int(m.group(4)):
            late.append(m.group(0))
    return late


RESULTS = []


def check(name, ok, detail=""):
    RESULTS.append(ok)
    print(("ok: " if ok else "FAIL: ") + name + (f" ({detail})" if detail else ""), flush=True)


def check_wrong_token():
    start = time.monotonic()
    proc = subprocess.run([ARGS.vorpal, "bot", "--server", ARGS.url], capture_output=True, text=True,
                          env=dict(os.environ, VORPAL_BOT_TOKEN="not-the-token"), timeout=30, cwd=ARGS.work)
    took = time.monotonic() - start
    check("a wrong token exits non-zero within 10 s with a clear message",
          proc.returncode != 0 and took < 10 and "token was refused" in proc.stderr,
          f"status {proc.returncode} after {took:.1f} s: {proc.stderr.strip()[-160:]}")


async def check_two_games_and_declines(bot):
    """The bot plays White against tester and Black against tester2 at once and mates both;
    meanwhile tester3 is told 'later' (two games is the limit) and a 45-minute challenge is
    'too slow'."""
    import human
    games = asyncio.gather(play("tester", "b", 1), play("tester2", "w", 2), return_exceptions=True)

    async def refused(user, minutes, reason):
        try:
            await human.play_vs_bot(ARGS.url, user=user, minutes=minutes, increment=0, moves=["e2e4"],
                                    log=lambda *a: say(user, *a))
        except human.HumanError as e:
            return str(e) == f"BOT declined: {reason}", str(e)
        return False, "accepted"

    await asyncio.to_thread(bot.wait_for, r"(accepted[\s\S]*){2}", 30)
    ok, text = await refused("tester3", 1, LATER)
    check("a third game while two run is declined: later", ok, text)
    white, black = await games
    for outcome, color, user in ((white, "white", "tester"), (black, "black", "tester2")):
        if isinstance(outcome, BaseException):
            check(f"the bot wins as {color} by mate", False, f"{type(outcome).__name__}: {outcome}")
        else:
            check(f"the bot wins as {color} by mate against {user} (1+2)", bot_won(outcome, color),
                  f"{outcome.status_name} {outcome.result} after {outcome.ply} plies")
    ok, text = await refused("tester3", 45, TOO_SLOW)
    check("a 45+0 challenge is declined: tooSlow", ok, text)


async def check_restart():
    """The bot is killed in the middle of a game and started again: it finishes the game."""
    bot = Bot()
    if not bot.wait_for("event stream open", 10):
        check("the bot restarted mid-game finishes it", False, "the bot did not come online")
        return
    game = asyncio.create_task(play("tester", "w", 3))
    # Killed at its first move (a random mover may be mated within a few moves).
    killed = await asyncio.to_thread(bot.wait_for, r"ply 2: ", 60)
    bot.stop(signal.SIGKILL)
    say("bot killed at its first move" if killed else "the game did not reach ply 2")
    second = Bot()
    outcome = await game
    check("the bot killed at its first move and restarted finishes the game with a mate",
          killed and bot_won(outcome, "black") and "picking it up" in second.text(),
          f"{outcome.status_name} {outcome.result} after {outcome.ply} plies")
    rc = second.stop(signal.SIGTERM)
    check("SIGTERM stops an idle bot with status 0", rc == 0, f"status {rc}")


async def check_stop_with_abort():
    """With --on-stop abort, SIGTERM in the middle of a game aborts it and exits with 0."""
    bot = Bot("--on-stop", "abort")
    if not bot.wait_for("event stream open", 10):
        check("SIGTERM with --on-stop abort aborts the game", False, "the bot did not come online")
        return
    # The human plays one move and then waits, so the game cannot end before the signal.
    import human
    game = asyncio.create_task(human.play_vs_bot(
        ARGS.url, user="tester2", color="w", minutes=1, increment=2, moves=["e2e3"], wait_end=30,
        log=lambda *a: say("tester2", *a)))
    await asyncio.to_thread(bot.wait_for, r"ply 2: ", 30)
    rc = await asyncio.to_thread(bot.stop, signal.SIGTERM)
    outcome = await game
    check("SIGTERM with --on-stop abort aborts the running game and exits with 0",
          rc == 0 and outcome.status_name == "aborted", f"status {rc}; the human saw {outcome.status_name}")


async def check_external_engine():
    """With --engine cmd=..., a UCI engine (Vorpal itself over pipes) plays the game."""
    bot = Bot("--engine", f"cmd={ARGS.vorpal}", "--engine", "option.Hash=16")
    if not bot.wait_for("event stream open", 10):
        check("an external UCI engine plays", False, "the bot did not come online")
        return
    outcome = await play("tester", "w", 5)
    rc = await asyncio.to_thread(bot.stop, signal.SIGTERM)
    check("with --engine cmd=vorpal (UCI over pipes) the bot wins by mate and stops with 0",
          bot_won(outcome, "black") and "external UCI engine" in bot.text() and rc == 0,
          f"{outcome.status_name} {outcome.result} after {outcome.ply} plies; status {rc}")


async def basics():
    check_wrong_token()
    bot = Bot()
    started = time.monotonic()
    online = bot.wait_for("event stream open", 10)
    check("the event stream is open within 3 s of the start", online and time.monotonic() - started < 3,
          f"{time.monotonic() - started:.1f} s")
    if online:
        await check_two_games_and_declines(bot)
    rc = bot.stop(signal.SIGTERM)
    check("SIGTERM after the games: status 0", rc == 0, f"status {rc}")
    await check_restart()
    await check_stop_with_abort()
    await check_external_engine()
    with open(os.path.join(ARGS.work, "bot.log"), errors="replace") as f:
        log_text = f.read()
    late = check_times(log_text)
    moves = len(re.findall(r": ply \d+: ", log_text))
    check("no bot move took longer than the bot's clock allowed", moves > 0 and not late,
          f"{moves} moves; late: {late[:3]}")
    with open(os.path.join(ARGS.work, "bot.pgn"), errors="replace") as f:
        pgn = f.read()
    check("the PGN file has the won games with the site's results",
          pgn.count('[Termination "the site: checkmate"]') >= 4 and "/A" in pgn,
          f"{pgn.count('[Event ')} games")


async def second_server(tag):
    """Another fixture server (its own BOT account and people), so that the cases of several
    bots run at once; the namespace of its URL and port."""
    out_path = os.path.join(ARGS.work, f"server-{tag}.out")
    with open(out_path, "w") as out, open(os.path.join(ARGS.work, f"server-{tag}.log"), "w") as err:
        proc = subprocess.Popen([sys.executable, os.path.join(ARGS.fixture, "run-server.py"), "0",
                                 "--human-name", ",".join(HUMANS), "--log-level", "WARNING"],
                                stdout=out, stderr=err)
    BOTS.append(proc)
    for _ in range(300):
        with open(out_path) as f:
            m = re.search(r"^listening on (\d+)$", f.read(), re.M)
        if m:
            port = int(m.group(1))
            return argparse.Namespace(**dict(vars(ARGS), url=f"http://127.0.0.1:{port}", port=port))
        await asyncio.sleep(0.1)
    raise RuntimeError(f"the {tag} server did not start")


def on(server, tag):
    """Bots on `server` with files bot-{tag}.*."""
    return lambda *extra, **kw: Bot(*extra, tag=f"bot-{tag}", url=server.url, **kw)


async def rematch_then_stop():
    server = await second_server("rematch")
    await cases.check_rematch_beyond_max_games(server, on(server, "rematch"), check, say)
    await cases.check_second_signal(server, on(server, "rematch"), check, say)
    await cases_end.check_restart_after_end(server, on(server, "rematch"), check, say)
    await cases_end.check_pondering(server, on(server, "rematch"), check, say)


async def ends():
    server = await second_server("ends")
    await cases_end.check_repetition_and_flag(server, on(server, "ends"), check, say)


async def slow():
    server = await second_server("slow")
    await cases.check_slow_line(server, on(server, "slow"), check, say)


# The phases: the first two in turn, then the others at once, each on a server of its own;
# "levels" (vorpal-match, no server) runs beside them all.
PHASES = {
    "basics": basics,
    "refusals": lambda: asyncio.to_thread(cases.check_start_refusals, ARGS, check),
    "results": lambda: cases.check_long_wait_cut_and_results(ARGS, on(ARGS, "results"), check, say),
    "rematch": rematch_then_stop,
    "slow": slow,
    "ends": ends,
}


async def guarded(name, phase):
    """Runs a phase; an exception fails it (as a check) instead of ending the driver."""
    try:
        await phase()
    except Exception as e:  # noqa: BLE001 - reported as a failed check
        check(f"phase {name} ran to its end", False, f"{type(e).__name__}: {e}")


async def main_async():
    only = ARGS.only.split(",") if ARGS.only else ["levels", *PHASES]
    levels = None
    if "levels" in only:
        levels = asyncio.create_task(asyncio.to_thread(cases.check_levels, ARGS, check))
    for name in ("basics", "refusals"):
        if name in only:
            say(f"phase {name}")
            await guarded(name, PHASES[name])
    await asyncio.gather(*(guarded(name, PHASES[name]) for name in ("results", "rematch", "slow", "ends")
                           if name in only))
    if levels:
        await levels


def main():
    global ARGS
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--url", required=True)
    p.add_argument("--vorpal", required=True)
    p.add_argument("--fixture", required=True)
    p.add_argument("--work", required=True)
    p.add_argument("--only", default="", help="comma-separated phases: levels," + ",".join(PHASES))
    ARGS = p.parse_args()
    sys.path.insert(0, ARGS.fixture)
    ARGS.port = int(ARGS.url.rsplit(":", 1)[1])
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("driver: terminated"))
    try:
        asyncio.run(main_async())
    finally:
        for proc in BOTS:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    passed = sum(RESULTS)
    print(f"{passed} passed, {len(RESULTS) - passed} failed", flush=True)
    return 0 if RESULTS and all(RESULTS) else 1


if __name__ == "__main__":
    sys.exit(main())
