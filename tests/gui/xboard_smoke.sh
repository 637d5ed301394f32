#!/usr/bin/env bash
# GUI smoke test: XBoard (Debian package `xboard`) under Xvfb plays Alice chess with Vorpal
# against itself (Two Machines mode, one second per move), draws both boards side by side as
# one 16x8 board, and a screenshot is saved as PNG.
#
#   tests/gui/xboard_smoke.sh [output-dir]      (default: a new directory under /tmp)
#
# Environment: VORPAL_BIN (default: build `vorpal` with the test profile), XBOARD_PLIES (plies
# to wait for, default 12), XBOARD_TIMEOUT (seconds, default 120), XBOARD_SHOT (the PNG;
# default <output-dir>/xboard-shot.png), XBOARD_SIZE (XBoard's -size, default Medium).
#
# Checks: both engines moved (no illegal move, no forfeit in XBoard's debug log), and the PNG
# exists, is at least 300 pixels wide and has more than 50 colours. Exits 0 with a line
# starting "xboard_smoke: skipped" when xboard, Xvfb or ImageMagick cannot be had (e.g. not
# root, no package archive), 1 on a failed check.
set -uo pipefail
cd "$(dirname "$0")/../.."

out=${1:-$(mktemp -d /tmp/vorpal-xboard.XXXXXX)}
mkdir -p "$out"
out=$(cd "$out" && pwd)
shot=${XBOARD_SHOT:-$out/xboard-shot.png}
plies=${XBOARD_PLIES:-12}
limit=${XBOARD_TIMEOUT:-120}
size=${XBOARD_SIZE:-Medium}

skip() { echo "xboard_smoke: skipped: $*"; exit 0; }
fail() { echo "xboard_smoke: FAILED: $*"; [ -f "$out/xboard.debug" ] && tail -20 "$out/xboard.debug"; exit 1; }

find_xboard() { command -v xboard || { [ -x /usr/games/xboard ] && echo /usr/games/xboard; }; }

# 1. The packages (Debian's), installed when missing and possible.
if [ -z "$(find_xboard)" ] || ! command -v Xvfb >/dev/null || ! command -v import >/dev/null; then
    command -v apt-get >/dev/null || skip "no apt-get to install xboard, xvfb and imagemagick"
    [ "$(id -u)" = 0 ] || skip "not root: cannot install xboard, xvfb and imagemagick"
    echo "xboard_smoke: installing xboard xvfb imagemagick (apt-get)"
    export DEBIAN_FRONTEND=noninteractive
    timeout 180 apt-get update -qq >"$out/apt.log" 2>&1 &&
        timeout 300 apt-get install -y -qq --no-install-recommends xboard xvfb imagemagick >>"$out/apt.log" 2>&1 ||
        skip "apt-get could not install xboard xvfb imagemagick (see $out/apt.log)"
fi
xboard=$(find_xboard)
[ -n "$xboard" ] && command -v Xvfb >/dev/null && command -v import >/dev/null ||
    skip "xboard, Xvfb or ImageMagick's import still missing"

# 2. The engine.
bin=${VORPAL_BIN:-}
if [ -z "$bin" ]; then
    cargo build --quiet -p vorpal --bin vorpal --profile test || fail "cargo build -p vorpal"
    bin="${CARGO_TARGET_DIR:-$PWD/target}/debug/vorpal"
fi
[ -x "$bin" ] || fail "no engine binary at $bin"
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")

# 3. A virtual screen on a free display number.
display=""
for n in $(seq 90 130); do
    if [ ! -e "/tmp/.X$n-lock" ] && [ ! -e "/tmp/.X11-unix/X$n" ]; then display=":$n"; break; fi
done
[ -n "$display" ] || skip "no free X display number"
Xvfb "$display" -screen 0 1600x1000x24 -nolisten tcp >"$out/xvfb.log" 2>&1 &
xvfb_pid=$!
xboard_pid=""
cleanup() {
    [ -n "$xboard_pid" ] && kill "$xboard_pid" 2>/dev/null
    sleep 0.5
    kill "$xvfb_pid" 2>/dev/null
    wait 2>/dev/null
}
trap cleanup EXIT
for _ in $(seq 50); do [ -e "/tmp/.X11-unix/X${display#:}" ] && break; sleep 0.1; done
kill -0 "$xvfb_pid" 2>/dev/null || skip "Xvfb did not start (see $out/xvfb.log)"

# 4. XBoard: Vorpal against itself. The engine defines the variant and referees the moves,
# so XBoard's own chess legality test is off (-xlegal).
(
    cd "$out" || exit 1
    exec env DISPLAY="$display" "$xboard" \
        -fcp "$bin xboard" -fd "$out" -scp "$bin xboard" -sd "$out" \
        -variant alice -xlegal -mode TwoMachines -searchTime 0:01 \
        -size "$size" -showCoords true -showThinking true -xponder \
        -xexit -xpopup -popUpErrors false \
        -saveGameFile "$out/game.pgn" -debug -nameOfDebugFile "$out/xboard.debug"
) >"$out/xboard.log" 2>&1 &
xboard_pid=$!

# 5. Wait for the plies (engine `move` lines in XBoard's debug log).
moves() {
    local n
    n=$(grep -cE "^[0-9]+ <(first|second) ?: move " "$out/xboard.debug" 2>/dev/null)
    echo "${n:-0}"
}
start=$SECONDS
while [ "$(moves)" -lt "$plies" ]; do
    kill -0 "$xboard_pid" 2>/dev/null || fail "xboard exited (see $out/xboard.log)"
    [ $((SECONDS - start)) -lt "$limit" ] || fail "only $(moves) of $plies plies within ${limit}s"
    sleep 1
done
sleep 0.5

# 6. The screenshot (the black rest of the screen trimmed away).
import -display "$display" -window root "$out/root.png" || fail "import could not take a screenshot"
convert "$out/root.png" -trim +repage "$shot" || cp "$out/root.png" "$shot"
read -r width height colours < <(identify -format '%w %h %k\n' "$shot") || fail "no PNG at $shot"
[ "$width" -ge 300 ] && [ "$colours" -gt 50 ] || fail "the screenshot looks empty (${width}x$height, $colours colours)"

# 7. The dialogue: no illegal move, no forfeit, both engines moved.
grep -E "Illegal move|Forfeit|Error \(" "$out/xboard.debug" && fail "XBoard or an engine refused a move"
grep -qE "<first ?: move " "$out/xboard.debug" && grep -qE "<second ?: move " "$out/xboard.debug" ||
    fail "not both engines moved"

echo "xboard_smoke: ok: $(moves) plies played; screenshot $shot (${width}x$height, $colours colours)"
echo "xboard_smoke: moves:" $(grep -oE "<(first|second) ?: move [^ ]+" "$out/xboard.debug" | awk '{print $NF}')
