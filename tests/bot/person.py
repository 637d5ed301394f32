"""A person on pychess-variants for the bot tier, as the browser plays: the session cookie, the
BOT challenge on the lobby socket /wsl, the answer on the SSE /api/bot-challenges/{id}, then
the round socket /wsr/{id} kept open (the "/n" keep-alive every 2.5 s) for the whole game.
Unlike the fixture's human.py it can wait before a move for as long as the test says, stop
moving (to lose on time), resign, and offer a rematch, without ever closing its socket.

    p = Person(url, "tester4", log)
    game_id = await p.challenge(minutes=1, increment=0, color="w")
    end = await p.play(game_id, turn)   # turn(board) -> awaitable: uci | "resign" | "wait" | None
"""

import asyncio
import json
import time

import aiohttp

STATUS = {0: "aborted", 1: "mate", 2: "resign", 3: "stalemate", 4: "timeout", 5: "draw", 6: "flag",
          7: "abandon", 10: "invalidmove", 13: "claim"}


class PersonError(Exception):
    pass


class Person:
    def __init__(self, url, user, log):
        self.url = url.rstrip("/")
        self.user = user
        self.log = lambda *a: log(user, *a)
        self.http = None

    async def __aenter__(self):
        jar = aiohttp.CookieJar(unsafe=True)
        cookie = json.dumps({"session": {"user_name": self.user}, "created": int(time.time())})
        jar.update_cookies({"AIOHTTP_SESSION": cookie})
        self.http = aiohttp.ClientSession(cookie_jar=jar)
        return self

    async def __aexit__(self, *exc):
        await self.http.close()

    async def challenge(self, minutes, increment, color, bot="Vorpal"):
        """Challenges the BOT; the game id once it accepts (PersonError when it declines)."""
        async with self.http.ws_connect(f"{self.url}/wsl") as wsl:
            await wsl.send_json({
                "type": "create_bot_challenge", "user": self.user, "target": "BOT_challenge",
                "profileid": bot, "variant": "alice", "fen": "", "minutes": minutes,
                "increment": increment, "byoyomiPeriod": 0, "rated": False, "chess960": False,
                "color": color})
            async with asyncio.timeout(10):
                while True:
                    msg = await wsl.receive_json()
                    if msg.get("type") == "bot_challenge_created":
                        game_id = msg["gameId"]
                        break
                    if msg.get("type") in ("error", "game_in_progress"):
                        raise PersonError(f"challenge refused: {msg}")
        async with asyncio.timeout(15):
            async with self.http.get(f"{self.url}/api/bot-challenges/{game_id}") as resp:
                async for raw in resp.content:
                    line = raw.decode().strip()
                    if line.startswith("data:"):
                        data = json.loads(line[5:])
                        if data.get("accept") is True:
                            self.log("accepted", game_id)
                            return game_id
                        if data.get("accept") is False:
                            raise PersonError(f"declined: {data.get('declineReason')}")
        raise PersonError("no answer to the challenge")

    async def play(self, game_id, turn, limit=600, on_board=None, linger=0.0):
        """Plays game_id: on each of the person's turns `await turn(board)` (the board message
        with the game's moves so far as `uci_moves`) gives a UCI move,
        "resign", "wait" (do nothing this turn: the clock runs) or None (stop moving). Returns
        {"status", "name", "result", "moves", "chat"} once the site ends the game ("chat": the
        lines the opponent said in the game's chat, as the page shows them, and for `linger`
        seconds after the end)."""
        async with self.http.ws_connect(f"{self.url}/wsr/{game_id}") as ws:
            keepalive = asyncio.create_task(self._keepalive(ws))
            try:
                async with asyncio.timeout(limit):
                    return await self._play(ws, game_id, turn, on_board, linger)
            finally:
                keepalive.cancel()

    @staticmethod
    async def _keepalive(ws):
        while not ws.closed:
            await asyncio.sleep(2.5)
            await ws.send_str("/n")

    async def _play(self, ws, game_id, turn, on_board, linger):
        await ws.send_json({"type": "ready", "gameId": game_id})
        moves, answered, moving, chat = [], -1, True, []
        while True:
            try:
                msg = await asyncio.wait_for(ws.receive(), 2.5)
            except TimeoutError:
                await ws.send_json({"type": "board", "gameId": game_id})
                continue
            if msg.type != aiohttp.WSMsgType.TEXT:
                raise PersonError(f"the round socket closed ({msg.type.name})")
            if msg.data == "/n":
                continue
            data = json.loads(msg.data)
            if data.get("gameId", game_id) != game_id:
                continue
            if data.get("type") == "roundchat" and data.get("user") not in ("", self.user):
                chat.append(data.get("message", ""))
                continue
            if data.get("type") == "gameEnd":
                await ws.send_json({"type": "board", "gameId": game_id})
                continue
            if data.get("type") != "board":
                continue
            steps = data.get("steps", [])
            if len(steps) > 1 or data["ply"] == 0:
                moves = [s["move"] for s in steps if s.get("move")]
            elif data["ply"] == len(moves) + 1 and steps and steps[-1].get("move"):
                moves.append(steps[-1]["move"])
            if on_board:
                on_board(data)
            if data["status"] > -1:
                self.log("over", STATUS.get(data["status"]), data["result"], f"{data['ply']} plies")
                await self._listen(ws, chat, linger)
                return {"status": data["status"], "name": STATUS.get(data["status"], str(data["status"])),
                        "result": data["result"], "moves": moves, "chat": chat}
            if data["tp"] != self.user or not moving or answered == data["ply"]:
                continue
            mv = await turn(dict(data, uci_moves=list(moves)))
            if mv is None:
                moving = False
            elif mv == "wait":
                pass
            elif mv == "resign":
                self.log("resigns")
                await ws.send_json({"type": "resign", "gameId": game_id})
                moving = False
            else:
                answered = data["ply"]
                await ws.send_json({"type": "move", "gameId": game_id, "move": mv, "clocks": data["clocks"],
                                    "ply": data["ply"] + 1, "positionId": data.get("positionId")})

    async def _listen(self, ws, chat, seconds):
        """Collects the opponent's chat lines for `seconds` more."""
        try:
            async with asyncio.timeout(seconds):
                while True:
                    msg = await ws.receive()
                    if msg.type != aiohttp.WSMsgType.TEXT:
                        return
                    if msg.data == "/n":
                        continue
                    data = json.loads(msg.data)
                    if data.get("type") == "roundchat" and data.get("user") not in ("", self.user):
                        chat.append(data.get("message", ""))
        except TimeoutError:
            pass

    async def rematch(self, game_id):
        """Offers a rematch of the finished game_id, as the button after a game does."""
        async with self.http.ws_connect(f"{self.url}/wsr/{game_id}") as ws:
            await ws.send_json({"type": "ready", "gameId": game_id})
            await ws.send_json({"type": "rematch", "gameId": game_id, "handicap": False})
            async with asyncio.timeout(10):
                while True:
                    msg = await ws.receive()
                    if msg.type != aiohttp.WSMsgType.TEXT or msg.data == "/n":
                        continue
                    data = json.loads(msg.data)
                    if data.get("type") in ("new_game", "view_rematch", "error"):
                        self.log("rematch", data)
                        return data


def random_turn(seed, first_wait=0.0, resign_at=None, stop_at=None):
    """A person making random legal moves (the site's own Alice rules, pyffish_alice); waiting
    `first_wait` seconds before the first move, resigning at ply `resign_at`, or no longer
    moving from ply `stop_at` on (so that the clock runs out)."""
    import random

    import pyffish_alice as sf
    rng = random.Random(seed)
    state = {"waited": first_wait <= 0}

    async def turn(board):
        if not state["waited"]:
            state["waited"] = True
            await asyncio.sleep(first_wait)
        if resign_at is not None and board["ply"] >= resign_at:
            return "resign"
        if stop_at is not None and board["ply"] >= stop_at:
            return None
        moves = sf.legal_moves("alice", board["fen"], [])
        return rng.choice(moves) if moves else None
    return turn
