#!/usr/bin/env bash
# Builds the release binary and prints the benchmark figures: perft speed (single- and
# multi-threaded, start position depth 6) and the search bench (nodes, nodes/second).
set -euo pipefail
cd "$(dirname "$0")"
cargo build --release -p vorpal >&2
bin=target/release/vorpal
threads=$(nproc)
echo "== perft 6, start position, 1 thread"
"$bin" perft 6 threads 1 2>&1 >/dev/null
echo "== perft 6, start position, $threads threads"
"$bin" perft 6 threads "$threads" 2>&1 >/dev/null
echo "== search bench (1 thread, fixed depth)"
"$bin" bench 2>/dev/null
