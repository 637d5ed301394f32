#!/usr/bin/env bash
# A UCI engine that answers every search with an illegal move (for the GUI's referee test).
while read -r line; do
  case "$line" in
    uci) echo "id name IllegalMover"; echo "uciok" ;;
    isready) echo "readyok" ;;
    go*) echo "info depth 1 score cp 0 pv e1e8"; echo "bestmove e1e8" ;;
    quit) exit 0 ;;
  esac
done
