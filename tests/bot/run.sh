#!/usr/bin/env bash
# The bot tier: `vorpal bot` against the real pychess-variants server (the fixture in
# shared/pychess-variants), outside `cargo test --workspace`. It sets up the fixture's Python
# venv once in a cache directory, builds `vorpal` (the `test` profile, opt-level 3, which CI has
# already built: a cold LTO release build alone can take most of the 8 minutes on 2 cores),
# starts the server with three human accounts, and runs tests/bot/driver.py: games won by mate as White and as Black (two at once),
# declines with the site's reasons, a restart in the middle of a game, a wrong token, SIGTERM.
#
# Then the month-long operator's cases (tests/bot/cases.py, issue 46): a person waiting 140 s
# before the first move, a 25 s network cut, the site's results in the PGN once per game, a line
# adding 400 ms each way at 1+0, a rematch beyond max_games, unwritable outputs, level 1 against
# full strength (vorpal-match, built beside vorpal); and the ends of games (tests/bot/cases_end.py):
# a repetition, the bot's loss on time, a game ended while the bot was down, pondering, --log.
#
# usage: tests/bot/run.sh [WORK_DIR]
#   PV_FIXTURE   the fixture (default: ../shared/pychess-variants beside the checkout)
#   BOT_CACHE    where the venv is kept (default: ~/.cache/vorpal-bot-tier)
#   VORPAL_BIN   the vorpal binary to test, vorpal-match beside it (default: build both;
#                BOT_PROFILE=release for release)
# Bounded to 14 minutes in all; prints the driver's "N passed, M failed" line.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
FIXTURE="$(cd "${PV_FIXTURE:-$ROOT/../shared/pychess-variants}" && pwd)"
CACHE="${BOT_CACHE:-${HOME:-/tmp}/.cache/vorpal-bot-tier}"
WORK="${1:-$(mktemp -d /tmp/vorpal-bot-tier.XXXXXX)}"
mkdir -p "$CACHE" "$WORK"
START=$(date +%s)
# Everything below runs under one deadline: 14 minutes from here.
DEADLINE=$((START + 840))
left() { echo $((DEADLINE - $(date +%s))); }

VENV="$CACHE/venv"
if ! "$VENV/bin/python" -c 'import aiohttp, pyffish_alice' >/dev/null 2>&1; then
    rm -rf "$VENV"
    timeout "$(left)" "$FIXTURE/setup.sh" "$VENV" >"$WORK/setup.log" 2>&1 || {
        cat "$WORK/setup.log" >&2
        echo "bot tier: the fixture's setup failed (log above)" >&2
        exit 1
    }
fi
echo "bot tier: venv ready after $(( $(date +%s) - START )) s"

BIN="${VORPAL_BIN:-}"
if [ -z "$BIN" ]; then
    PROFILE="${BOT_PROFILE:-test}"
    (cd "$ROOT" && timeout "$(left)" cargo build --quiet -p vorpal --bin vorpal -p vorpal-tuning \
        --bin vorpal-match --profile "$PROFILE")
    [ "$PROFILE" = test ] && PROFILE_DIR=debug || PROFILE_DIR="$PROFILE"
    BIN="${CARGO_TARGET_DIR:-$ROOT/target}/$PROFILE_DIR/vorpal"
fi
BIN="$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")"
echo "bot tier: $BIN ready after $(( $(date +%s) - START )) s"

SERVER_PID=""
cleanup() {
    if [ -n "$SERVER_PID" ]; then
        kill -TERM "$SERVER_PID" 2>/dev/null || true
        wait "$SERVER_PID" 2>/dev/null || true
    fi
}
trap cleanup EXIT
"$VENV/bin/python" "$FIXTURE/run-server.py" 0 --human-name tester,tester2,tester3,tester4,tester5,tester6 --log-level WARNING \
    >"$WORK/server.out" 2>"$WORK/server.log" &
SERVER_PID=$!
PORT=""
for _ in $(seq 1 600); do
    PORT="$(sed -n 's/^listening on \([0-9]*\)$/\1/p' "$WORK/server.out" 2>/dev/null || true)"
    [ -n "$PORT" ] && break
    kill -0 "$SERVER_PID" 2>/dev/null || break
    sleep 0.1
done
if [ -z "$PORT" ]; then
    cat "$WORK/server.log" >&2
    echo "bot tier: the fixture server did not start (log above)" >&2
    exit 1
fi
echo "bot tier: server on port $PORT after $(( $(date +%s) - START )) s; logs in $WORK"

STATUS=0
timeout "$(left)" "$VENV/bin/python" "$HERE/driver.py" --url "http://127.0.0.1:$PORT" \
    --vorpal "$BIN" --fixture "$FIXTURE" --work "$WORK" 2>"$WORK/driver.log" || STATUS=$?
echo "bot tier: done in $(( $(date +%s) - START )) s (status $STATUS); bot logs $WORK/bot*.log, games $WORK/bot*.pgn"
if [ "$STATUS" -ne 0 ]; then
    tail -n 40 "$WORK/driver.log" >&2
    tail -n 40 "$WORK/bot.log" >&2
fi
exit "$STATUS"
