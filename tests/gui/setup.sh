#!/usr/bin/env bash
# What the browser tests need, installed when missing: Debian's chromium, node and npm, and
# the npm packages of tests/gui/package-lock.json (playwright-core). Used by browser.sh and
# by the WebAssembly tier (tests/wasm/run.sh), whose static site is tested in Chromium too.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
if [ ! -x /usr/bin/chromium ]; then
  apt-get update -q
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium
fi
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  apt-get update -q
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q nodejs npm
fi
if [ ! -d "$here/node_modules/playwright-core" ]; then
  (cd "$here" && npm ci --no-audit --no-fund)
fi
