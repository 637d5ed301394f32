#!/usr/bin/env bash
# The WebAssembly tier: builds the package (protocol/wasm/build.sh DIR) and the native
# release binary, then runs tests/wasm/package.test.mjs under node against both: UCI
# through the fairy-stockfish-style factory and the bin, stop during go infinite, the rules
# API against the native engine, bench equal to native in both modules, and the speed at
# depth 12 (printed; at least a third of native's); then the static site (DIR/site) in
# headless Chromium (tests/gui/site.test.mjs). Installs Debian's nodejs, chromium and the
# browser tests' npm packages when missing. Usage: bash tests/wasm/run.sh [DIR] (default: a new temporary directory).
set -euo pipefail
cd "$(dirname "$0")/../.."
dir="${1:-$(mktemp -d /tmp/vorpal-wasm.XXXXXX)}"
started=$(date +%s)
if ! command -v node >/dev/null 2>&1; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo=sudo
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq nodejs
fi
bash protocol/wasm/build.sh "$dir"
# The exports (ffi.rs) compile only for wasm32: lint them there where rustup's target is.
if command -v rustup >/dev/null 2>&1 && rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    cargo clippy -p vorpal-wasm --target wasm32-unknown-unknown --no-deps -- -D warnings
fi
cargo build --release -p vorpal
VORPAL_BIN=target/release/vorpal node tests/wasm/package.test.mjs "$dir/npm"
# The static site in headless Chromium (tests/gui/site.test.mjs), served as plain files.
bash tests/gui/setup.sh
(cd tests/gui && VORPAL_SITE="$dir/site" SCREENSHOT_DIR="$dir" node --test site.test.mjs)
echo "wasm tier: $(($(date +%s) - started)) s (package in $dir/npm)"
