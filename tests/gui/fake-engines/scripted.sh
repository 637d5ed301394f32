#!/usr/bin/env bash
# A UCI engine that answers every search with the move given as its argument, after 4 s of
# "thinking" (the premove tests: a reply known in advance, and time to premove).
# Usage: scripted.sh MOVE
while read -r line; do
  case "$line" in
    uci) echo "id name Scripted"; echo "uciok" ;;
    isready) echo "readyok" ;;
    go*)
      sleep 4
      echo "info depth 1 score cp 0 pv $1"
      echo "bestmove $1" ;;
    quit) exit 0 ;;
  esac
done
