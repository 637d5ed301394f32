#!/usr/bin/env bash
# Browser tests of `vorpal gui`: installs headless Chromium (Debian) and the npm packages of
# package-lock.json when missing, builds vorpal, and runs the tests with node's test runner.
# Usage: tests/gui/browser.sh [SCREENSHOT_DIR]   (default: target/gui-screenshots)
# UPDATE_README_SHOT=1 copies the analysis screenshot over docs/img/gui.png (the README's picture)
# and the screens test's pictures that docs/gui.md shows over docs/img/screen-*.png.
# GUI_TESTS="review.test.mjs" runs some of the test files only.
# VORPAL_BIN=path skips the build (default: build `vorpal` with the test profile, which
# `cargo test --workspace` has already built, so CI pays nothing extra).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
shots="${1:-$root/target/gui-screenshots}"
mkdir -p "$shots"
shots="$(cd "$shots" && pwd)"

bash "$here/setup.sh"

if [ -z "${VORPAL_BIN:-}" ]; then
  (cd "$root" && cargo build -q --profile test -p vorpal --bin vorpal)
  VORPAL_BIN="${CARGO_TARGET_DIR:-$root/target}/debug/vorpal"
fi
export VORPAL_BIN SCREENSHOT_DIR="$shots"
cd "$here"
timeout 900 node --test --test-concurrency=1 ${GUI_TESTS:-gui.test.mjs ux.test.mjs habits.test.mjs review.test.mjs tablebase.test.mjs screens.test.mjs lichess.test.mjs premove.test.mjs panels.test.mjs}
if [ "${UPDATE_README_SHOT:-}" = 1 ]; then
  mkdir -p "$root/docs/img"
  cp "$shots/08-analysis-line-played.png" "$root/docs/img/gui.png"
  echo "docs/img/gui.png updated from $shots/08-analysis-line-played.png"
  for shot in analysis-dark-1400x900 review-light-1024x700 play-dark-390x844 analysis-light-844x390; do
    if [ -f "$shots/screens/$shot.png" ]; then cp "$shots/screens/$shot.png" "$root/docs/img/screen-$shot.png"; fi
  done
fi
