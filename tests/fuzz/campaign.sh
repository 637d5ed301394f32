#!/usr/bin/env bash
# A long campaign: every target (or those named) for SECONDS each, JOBS at a time, from
# copies of the built binaries (so the tree may change meanwhile), continuing the corpus in
# tests/fuzz/corpus/<target>. Prints one line per target: executions, coverage, features,
# corpus size, and crashes found.   bash tests/fuzz/campaign.sh SECONDS JOBS [TARGET ...]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here"
seconds="${1:-600}"
jobs="${2:-2}"
shift 2 || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    mapfile -t targets < <(ls fuzz_targets | sed 's/\.rs$//')
fi
cargo +nightly fuzz build -a >&2
bins="$(mktemp -d /tmp/vorpal-campaign.XXXXXX)"
for t in "${targets[@]}"; do
    cp "target/x86_64-unknown-linux-gnu/release/$t" "$bins/"
    mkdir -p "corpus/$t" "artifacts/$t"
done
echo "campaign: binaries and logs in $bins" >&2
run_one() {
    t="$1"
    "$bins/$t" "$here/corpus/$t" "$here/seeds/$t" -max_total_time="$seconds" -rss_limit_mb=2048 \
        -malloc_limit_mb=2048 -timeout=10 -max_len=65536 -print_final_stats=1 \
        -artifact_prefix="$here/artifacts/$t/" >"$bins/$t.log" 2>&1
    status=$?
    runs=$(grep -ao 'stat::number_of_executed_units: *[0-9]*' "$bins/$t.log" | grep -o '[0-9]*$' || echo '?')
    last=$(grep -aE '^#[0-9]+' "$bins/$t.log" | tail -1)
    cov=$(echo "$last" | grep -o 'cov: [0-9]*' || true)
    ft=$(echo "$last" | grep -o 'ft: [0-9]*' || true)
    echo "campaign: $t: exit $status, $runs runs in $seconds s, $cov, $ft, corpus $(ls "$here/corpus/$t" | wc -l)"
}
export -f run_one
export bins here seconds
printf '%s\n' "${targets[@]}" | xargs -P "$jobs" -I{} bash -c 'run_one {}'
