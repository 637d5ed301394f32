#!/usr/bin/env bash
# Runs every fuzz target (or the ones named) for SECONDS each with libFuzzer through cargo fuzz:
#   bash tests/fuzz/run.sh [SECONDS] [TARGET ...]        (default 30 s, every target)
# Installs what it needs when missing (cargo-fuzz from crates.io; the nightly toolchain must be
# there, as on the project's machines). Each run starts from the committed seeds
# (tests/fuzz/seeds/<target>) and the corpus kept in tests/fuzz/corpus/<target> (not
# committed), under a 2 GB memory limit and a 10 s limit per input. A crash, a leak, a timeout
# or an out-of-memory fails the script; the input is left in tests/fuzz/artifacts/<target>/.
# The last line of each target's log (executions, coverage, features) is printed.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here"
seconds="${1:-30}"
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    mapfile -t targets < <(ls fuzz_targets | sed 's/\.rs$//')
fi
if ! command -v cargo-fuzz >/dev/null 2>&1; then
    echo "fuzz: installing cargo-fuzz" >&2
    cargo install cargo-fuzz --locked >&2 || cargo install cargo-fuzz >&2
fi
if ! rustup run nightly rustc --version >/dev/null 2>&1; then
    echo "fuzz: installing the nightly toolchain" >&2
    rustup toolchain install nightly --profile minimal >&2
fi
# -a: debug assertions and overflow checks (the engine's consistency checks run after every
# make/undo); address sanitizer (cargo fuzz's default).
cargo +nightly fuzz build -a >&2
logs="$(mktemp -d /tmp/vorpal-fuzz.XXXXXX)"
failed=0
for t in "${targets[@]}"; do
    mkdir -p "corpus/$t" "artifacts/$t"
    if cargo +nightly fuzz run -a "$t" "corpus/$t" "seeds/$t" -- \
        -max_total_time="$seconds" -rss_limit_mb=2048 -malloc_limit_mb=2048 -timeout=10 \
        -max_len=65536 -print_final_stats=1 -artifact_prefix="artifacts/$t/" >"$logs/$t.log" 2>&1; then
        runs=$(grep -ao 'stat::number_of_executed_units: *[0-9]*' "$logs/$t.log" | grep -o '[0-9]*$' || echo '?')
        cov=$(grep -aE '^#[0-9]+' "$logs/$t.log" | tail -1 | grep -o 'cov: [0-9]*' || true)
        ft=$(grep -aE '^#[0-9]+' "$logs/$t.log" | tail -1 | grep -o 'ft: [0-9]*' || true)
        corpus=$(ls "corpus/$t" | wc -l)
        echo "fuzz: $t: ok: $runs runs in ${seconds} s, $cov, $ft, corpus $corpus"
    else
        failed=1
        echo "fuzz: $t: FAILED (log $logs/$t.log; input in tests/fuzz/artifacts/$t/)"
        grep -aE 'panicked|ERROR|SUMMARY|Test unit written' "$logs/$t.log" | head -8 || true
    fi
done
if [ "$failed" -ne 0 ]; then
    echo "fuzz: at least one target failed"
    exit 1
fi
echo "fuzz: ${#targets[@]} passed, 0 failed"
