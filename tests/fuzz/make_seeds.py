#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets (seeds/<target>/*): a few small inputs per
door, made from the project's own test data and protocol examples. Run from anywhere; the
output is committed, so run it again only to change the seeds."""
import os, pathlib, struct, hashlib

here = pathlib.Path(__file__).resolve().parent
root = here.parent.parent
shared = root.parent / "shared" / "data" / "pgn"
seeds = here / "seeds"

def put(target, name, data):
    d = seeds / target
    d.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    (d / name).write_bytes(data)

pgns = {p.name: p.read_bytes() for p in sorted(shared.glob("*.pgn"))} if shared.exists() else {}
pgns["yearout-gui.pgn"] = (root / "tests/gui/yearout-jelliss-1996.pgn").read_bytes()
pgns["issue32-bracket.pgn"] = b'[Event "Casual game [Alice]"]\n\n1. e4 d5 *\n'
pgns["issue32-stray.pgn"] = b"1. e4 ] e5 } 2. Nf3 *\n"
for name, data in pgns.items():
    put("gui_pgn", name, data)
    put("client_pgn", name, data)

fens = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqk1nr/pppp1|Npp/4|p3/2|b5/8/8/PPPPPPPP/RNBQKB1R b KQkq - 0 3",
    "4k3/8/8/8/3|p|P3/8/8/4K3 b - e3 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | 8/8/8/8/8/8/8/8 w - - 0 1",
    "rnbqkbnr8/pppppppp8/16/16/16/16/PPPPPPPP8/RNBQKBNR8 w KQkq - 0 1",
    "rnbk/pppp/4/4/4/4/PPPP/RNBK w - - 0 1",
]
for i, f in enumerate(fens):
    put("fen", f"fen{i}", bytes([i * 7 % 256]) + f.encode())
put("fen", "minialice", bytes([3 * 6]) + b"rnbk/pppp/4/4/4/4/PPPP/RNBK w - - 0 1")
book = "\n".join(fens[:3]) + "\n"
put("opening_book", "fens", b"\x00" + book.encode())
epd = (root / "tests/data/perft.epd").read_text().splitlines()[:4]
put("opening_book", "epd", b"\x00" + "\n".join(epd).encode())
put("opening_book", "pgn", b"\x00" + pgns["yearout-gui.pgn"])

put("move_text", "uci", b"\x00\x00e2e4 e7e5 g1f3")
put("move_text", "san", b"\x00\x00e4 d5 exd5/A Qxd5 Nc3")
put("move_text", "wide", b"\x00\x01e2m4 Qh4 Nf3/A")
put("move_text", "castle", b"\x00\x02O-O-O e1c1 O-O")

popeye = (root / "tests/data/popeye-alice-examples.inp").read_bytes()
put("popeye", "examples", b"\x00" + popeye)
put("popeye", "twins", b"\x00" + (root / "tests/data/solve-popeye-twins.inp").read_bytes())
put("popeye", "small", b"\x00begin pieces white ke1 qd1 black AliceB ke8 stip #2 end")

put("uci", "session", "uci\nisready\nucinewgame\nposition startpos moves e2e4 e7e5\ngo depth 2\nstop\nd\nfen\nmoves\neval\nresult\n")
put("uci", "variant", "setoption name UCI_Variant value minialice\nposition startpos\ngo nodes 100\nperft 2\n")
put("uci", "fen", "position fen rnbqk1nr/pppp1|Npp/4|p3/2|b5/8/8/PPPPPPPP/RNBQKB1R b KQkq - 0 3 moves Qh4\ngo depth 2\nflip\nd\n")
put("uci", "options", "setoption name MultiPV value 3\nsetoption name AliceEnPassant value double\nsetoption name UCI_Chess960 value true\nsetoption name Skill Level value 3\ngo depth 2\n")

put("cecp", "game", "new\nforce\nusermove e2e4\nusermove e7e5\nundo\nremove\nsetboard rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\nhint\nresult 1-0 {x}\n")
put("cecp", "variant", "variant alice\nnew\nforce\ne2m4\nlift e2\nput m4\npost\nnopost\neval\n?\n")
put("cecp", "play", "new\nusermove e2e4\n")

put("bot_page", "finished", b'<main data-gameid="iqSgPqOc" data-board="{&#34;status&#34;: 6, &#34;steps&#34;: [{&#34;fen&#34;: &#34;x&#34;}, {&#34;move&#34;: &#34;e2e4&#34;}]}" data-result="0-1" data-status="6" data-wplayer="tester" data-bplayer="Vorpal" data-initialfen=""></main>')
bot_doc = (root / "docs" / "bot.md").read_text()
start = bot_doc.index("```toml\n") + 8
put("bot_config", "documented", bot_doc[start:bot_doc.index("```", start)])
put("bot_config", "refused", 'server = "http://example.org"\n[policy]\nvariants = ["alice", "standard"]\nmax_games = 0\n')
put("http_head", "get", b"GET /api/state?sid=ab12&since=3 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nCookie: vorpal=abc\r\nSec-Fetch-Site: same-origin\r\n\r\n")
put("http_head", "post", b"POST /api/cmd?sid=x HTTP/1.1\r\nHost: localhost\r\nOrigin: http://localhost\r\nContent-Type: application/json\r\nContent-Length: 17\r\nAuthorization: token abc\r\n\r\n")
put("http_head", "old", b"GET / HTTP/1.0\nConnection: keep-alive\n\n")

put("gui_json", "moves", '{"cmd":"move","uci":"e2e4"}\n{"cmd":"move","san":"d5"}\n{"cmd":"goto","ply":1}\n{"cmd":"move","uci":"d2d4"}\n{"cmd":"promote","node":3}\n{"cmd":"comment","node":1,"text":"hi"}\n{"cmd":"delete","node":2}\n{"cmd":"undo"}\n')
put("gui_json", "pgn", '{"cmd":"pgn","text":"[Event \\"Casual game [Alice]\\"]\\n\\n1. e4 d5 *"}\n{"cmd":"goto","node":1}\n')
put("gui_json", "new", '{"cmd":"new","variant":"alice","chess960":true,"number":12}\n{"cmd":"fen","fen":"4k3/8/8/8/8/8/8/4K3 w - - 0 1"}\n{"cmd":"settings","mode":"analysis","multipv":3}\n{"cmd":"review"}\n')
put("browser_page", "analysis", '{"cmd":"settings","mode":"analysis","multipv":2}\nid name Vorpal\noption name UCI_Variant type combo default alice var alice\noption name MultiPV type spin default 1 min 1 max 5\nuciok\nreadyok\ninfo depth 1 multipv 1 score cp 12 nodes 20 pv e2e4\ninfo depth 1 multipv 2 score cp 3 pv d2d4\n{"cmd":"move","uci":"e2e4"}\nbestmove e2e4\n')
put("browser_page", "play", '{"cmd":"settings","mode":"play","color":"black","limit":"depth","depth":2}\nuciok\nreadyok\nbestmove e2e4\n{"cmd":"move","san":"d5"}\ninfo depth 2 score mate 3 pv g1f3\nbestmove zzzz\n{"cmd":"stop"}\n')

# A network header: mode 1 (valid header, weights from the input), small qa/qb/scale.
put("network_file", "header", bytes([1, 0, 0, 64, 1, 1, 1, 2, 3]))
put("network_file", "raw", b"\x00VORPALNN\x01\x00\x00\x00")

put("tablebase_file", "rle", bytes([1 | 0x10]) + bytes([1, 0x80, 0, 0x80, 0]))
put("tablebase_file", "raw", bytes([0]) + b"VORPALTB\x01\x00\x00\x00")
put("tablebase_file", "checkpoint", bytes([9]) + bytes(64))

nnue = root.parent / "shared" / "nnue-data" / "net1-selfplay-seed90001.bin"
if nnue.exists():
    data = nnue.read_bytes()[: 32 + 32 * 8]
    put("packed_data", "records", b"\x00" + data)
put("packed_data", "header-only", b"\x01")

put("engine_output", "info", b"\x00id name Vorpal\noption name Hash type spin default 16 min 1 max 1024\nuciok\ninfo depth 3 seldepth 4 multipv 1 score cp 20 nodes 400 nps 1000 time 4 pv e2e4 e7e5 g1f3\ninfo depth 3 multipv 2 score mate -3 upperbound pv d2d4\ninfo string tablebase: mate in 12\nbestmove e2e4 ponder e7e5\n")
put("engine_output", "board-b", b"\x01info depth 2 score cp -10 pv d8h4 e1e2\n")
print("seeds written to", seeds)
