#!/usr/bin/env bash
# A UCI engine that misbehaves in one way, for the GUI's security tests (tests/tests/gui_security.rs).
# Usage: misbehaving.sh MODE [FILE]
#   bad-bytes         sends bytes that are not UTF-8 in its name and in its info lines
#   long-line         answers every search with one 1 MiB info line first
#   multipv-flood     answers every search with 30,000 MultiPV lines
#   instant-bestmove  answers even `go infinite` at once with bestmove (appends each go to FILE)
#   stubborn          ignores quit, the end of its input, SIGINT, SIGTERM and SIGHUP
mode="$1"
log="${2:-/dev/null}"
if [ "$mode" = stubborn ]; then
  trap '' TERM INT HUP
fi
name="Misbehaving $mode"
[ "$mode" = bad-bytes ] && name=$'Bad\xff\xfeBytes'
while read -r line; do
  case "$line" in
    uci)
      echo "id name $name"
      echo "option name MultiPV type spin default 1 min 1 max 500"
      echo "uciok" ;;
    isready) echo "readyok" ;;
    go*)
      case "$mode" in
        bad-bytes) printf 'info depth 1 score cp 5 string \xc3\x28\xa0\xa1\n' ;;
        long-line) head -c 1048576 /dev/zero | tr '\0' 'x'; echo ;;
        multipv-flood) seq 1 30000 | sed 's/.*/info depth 1 multipv & score cp 0 pv e2e4/' ;;
        instant-bestmove) echo "$line" >> "$log"; echo "bestmove e2e4"; continue ;;
      esac
      echo "info depth 1 multipv 1 score cp 12 pv e2e4"
      # A timed search ends at once; infinite analysis waits for stop.
      [ "$line" != "go infinite" ] && echo "bestmove e2e4" ;;
    stop) echo "bestmove e2e4" ;;
    quit) [ "$mode" = stubborn ] || exit 0 ;;
  esac
done
# End of input: a stubborn engine stays (as the same process, still ignoring the signals).
[ "$mode" = stubborn ] && exec sleep 600
exit 0
