"""The bot tier's checks of how games end and what the operator reads (issue 46), run by
driver.py against the fixture server: a threefold repetition made by the bot's own move and
the bot losing on time (its side played by tests/bot/scripted_engine.py), a game that ended
while the bot was down, and pondering with the log in a file. Each check reports through
`check(name, ok, detail)`.
"""

import asyncio
import os
import re
import signal
import sys

from cases import UciPerson, pgn_games, same_as_site
from person import Person, random_turn

SCRIPTED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "scripted_engine.py")


def scripted(mode):
    """The bot's --engine flags for the scripted engine in `mode`."""
    return ("--engine", f"cmd={sys.executable}", "--engine", f"arg={SCRIPTED}", "--engine", f"arg={mode}")


def scripted_turn(moves):
    """A person playing `moves` in turn (then stopping)."""
    it = iter(moves)

    async def turn(board):
        return next(it, None)
    return turn


async def play_one(url, user, log, minutes, increment, color, turn, limit=300):
    async with Person(url, user, log) as p:
        gid = await p.challenge(minutes, increment, color)
        return gid, await p.play(gid, turn, limit=limit)


async def check_repetition_and_flag(args, bot_cls, check, log):
    """The bot (Black) repeats the start position with its knights: the site ends the game as
    a draw at the bot's own move (ply 8); then the bot (White) stops answering at its fourth
    move of a 1+0 game (after 6 plies: the site deletes a game of under 3) and the site flags
    it. Each is in the PGN once with the site's result,
    termination and moves."""
    bot = bot_cls("--max-games", "1", *scripted("shuffle"))
    if not await asyncio.to_thread(bot.wait_for, "event stream open", 15):
        check("a threefold repetition is the site's draw in the PGN", False, "the bot did not come online")
        return
    try:
        gid, end = await play_one(args.url, "tester", log, 1, 2, "w", scripted_turn(["g1f3", "f3g1"] * 4))
        await asyncio.to_thread(bot.wait_for, rf"game {gid}: (recorded|already)", 15)
        ok, detail = same_as_site(*pgn_games(bot.pgn), gid, end)
        check("a threefold repetition made by the bot's move: the site's 1/2-1/2 and termination in the PGN",
              ok and end["result"] == "1/2-1/2" and len(end["moves"]) == 8, detail)
    finally:
        await asyncio.to_thread(bot.stop)
    bot = bot_cls("--max-games", "1", "--max-move-time", "0", *scripted("stall:6"))
    if not await asyncio.to_thread(bot.wait_for, "event stream open", 15):
        check("the bot losing on time: the site's result in the PGN", False, "the bot did not come online")
        return
    try:
        gid, end = await play_one(args.url, "tester2", log, 1, 0, "b", random_turn(51), limit=200)
        await asyncio.to_thread(bot.wait_for, rf"game {gid}: (recorded|already)", 30)
        ok, detail = same_as_site(*pgn_games(bot.pgn), gid, end)
        games, _ = pgn_games(bot.pgn)
        check("the bot losing on time at 1+0: the site's 0-1 and termination in the PGN, only the site's moves",
              ok and end["name"] == "flag" and end["result"] == "0-1"
              and "White ran out of time" in games.get(gid, ("", "", 0))[1], detail)
    finally:
        await asyncio.to_thread(bot.stop)


async def check_restart_after_end(args, bot_cls, check, log):
    """The bot (max_games = 1, White) is killed after its second move; the person resigns
    while it is down; started again, the bot records the game from the site's page at once
    and accepts a new challenge straight away (its one slot free)."""
    bot = bot_cls("--max-games", "1")
    if not await asyncio.to_thread(bot.wait_for, "event stream open", 15):
        check("a game that ended while the bot was down is recorded on restart", False, "not online")
        return
    moves = random_turn(61)

    async def turn(board):
        if board["ply"] >= 3:
            await asyncio.to_thread(bot.stop, signal.SIGKILL)
            log("tester4", "the bot is killed; resigning")
            return "resign"
        return await moves(board)
    gid, end = await play_one(args.url, "tester4", log, 1, 2, "b", turn)
    second = bot_cls("--max-games", "1")
    try:
        online = await asyncio.to_thread(second.wait_for, "event stream open", 15)
        accepted = False
        if online:
            try:
                async with Person(args.url, "tester4", log) as p:
                    again = await p.challenge(1, 2, "w")
                    accepted = True
                    await p.play(again, scripted_turn(["e2e3", "resign"]), limit=60)
            except Exception as e:  # noqa: BLE001 - reported as the check's detail
                log("tester4", f"second challenge: {e}")
        text = second.text()
        recorded = text.find(f"game {gid}: recorded")
        new_game = text.find("accepted")
        ok, detail = same_as_site(*pgn_games(second.pgn), gid, end)
        check("a game ended (resigned) while the bot was down: recorded on restart with the site's result, "
              "its slot free at once (a new challenge accepted at max_games = 1)",
              ok and end["name"] == "resign" and "picking it up" in text and 0 <= recorded < new_game
              and accepted, detail + f"; recorded at {recorded}, accepted at {new_game}")
    finally:
        await asyncio.to_thread(second.stop)


async def check_pondering(args, bot_cls, check, log):
    """The bot ponders (--ponder) against Vorpal at full strength (200 ms a move, resigning at
    ply 40), its log in a file (--log): the log names ponder hits and misses, the game is in
    the PGN as the site has it, the log file is owner-only and stderr carries no events; the
    person reads the greeting and the goodbye in the game's chat."""
    config = os.path.join(args.work, "ponder.toml")
    with open(config, "w") as f:
        f.write('[chat]\ngreeting = "Good luck"\ngoodbye = "Thanks for the game"\n')
    bot = bot_cls("--max-games", "1", "--ponder", "--config", config, log_file=True)
    if not await asyncio.to_thread(bot.wait_for, "event stream open", 15):
        check("pondering: the log names the ponder hits", False, "the bot did not come online")
        return
    try:
        async with UciPerson(args.vorpal, {"Hash": 8}, 200) as engine, Person(args.url, "tester5", log) as p:
            gid = await p.challenge(1, 2, "w")
            end = await p.play(gid, engine.turn(resign_at=40), limit=300, linger=5)
        await asyncio.to_thread(bot.wait_for, rf"game {gid}: pondering: \d+ hits", 30)
    finally:
        rc = await asyncio.to_thread(bot.stop)
    text = bot.text()
    moves = re.findall(rf"game {gid}: ply \d+: \S+ \(\w+\) after (\d+) ms.*?, depth (\d+)(, ponder hit)?", text)
    hits = [(int(ms), int(d)) for ms, d, hit in moves if hit]
    plain = [(int(ms), int(d)) for ms, d, hit in moves if not hit]
    summary = re.search(rf"game {gid}: pondering: (\d+) hits, (\d+) misses", text)
    ok, detail = same_as_site(*pgn_games(bot.pgn), gid, end)

    def mean(xs):
        return sum(xs) / len(xs) if xs else 0.0
    check("pondering: the log names each hit and miss, the game is in the PGN as the site has it",
          ok and rc == 0 and summary is not None and int(summary.group(1)) == len(hits) >= 1
          and int(summary.group(2)) == text.count(f"game {gid}: ponder miss"),
          detail + f"; {len(hits)} hits (mean {mean([h[0] for h in hits]):.0f} ms, depth "
          f"{mean([h[1] for h in hits]):.1f}), {len(plain)} other moves (mean "
          f"{mean([p[0] for p in plain]):.0f} ms, depth {mean([p[1] for p in plain]):.1f})")
    mode = os.stat(bot.log_path).st_mode & 0o777
    with open(bot.stderr_path, errors="replace") as f:
        stderr = f.read()
    check("the person reads the greeting once (after its first move) with the level, and the goodbye",
          end["chat"] == ["Good luck (Vorpal at level 8 of 8, full strength)", "Thanks for the game"],
          f"chat {end['chat']}")
    check("--log FILE: the log goes to the file, owner-only (600), no events on stderr",
          mode == 0o600 and "event stream open" in text and " ply " not in stderr and "INFO" not in stderr,
          f"mode {mode:o}; {len(stderr)} bytes on stderr")
