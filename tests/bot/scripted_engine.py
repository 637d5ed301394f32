#!/usr/bin/env python3
"""A scripted UCI engine for the bot tier (run with the fixture's venv, for pyffish_alice, the
site's own Alice rules), so that `vorpal bot --engine cmd=PYTHON --engine arg=THIS --engine
arg=MODE` plays what a case needs from the bot's side:

  shuffle   the knights out and back (Ng8-f6-g8 as Black, Ng1-f3-g1 as White: in Alice the
            knight crosses to board B and back, so the start position comes again every four
            plies); otherwise the first legal move
  stall:N   the first legal move until N plies have been played, then no answer at all (the
            bot's clock runs out)

Only games from the start position; every other command is ignored.
"""

import sys

import pyffish_alice as sf

SHUFFLE = {"w": ("g1f3", "f3g1"), "b": ("g8f6", "f6g8")}


def choose(mode, moves):
    legal = sf.legal_moves("alice", sf.start_fen("alice"), moves)
    if not legal:
        return "(none)"
    if mode == "shuffle":
        side = "w" if len(moves) % 2 == 0 else "b"
        for mv in SHUFFLE[side]:
            if mv in legal:
                return mv
    if mode.startswith("stall:") and len(moves) >= int(mode.split(":")[1]):
        return None
    return legal[0]


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "shuffle"
    moves = []
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "uci":
            print("id name scripted-" + mode + "\nuciok", flush=True)
        elif words[0] == "isready":
            print("readyok", flush=True)
        elif words[0] == "position":
            moves = words[words.index("moves") + 1:] if "moves" in words else []
        elif words[0] == "go":
            mv = choose(mode, moves)
            if mv is not None:
                print(f"info depth 1\nbestmove {mv}", flush=True)
        elif words[0] == "quit":
            return


if __name__ == "__main__":
    main()
