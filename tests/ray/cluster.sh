#!/usr/bin/env bash
# Inside the tier's network and PID namespace (tests/ray/run.sh): the loopback up, a Ray head
# and a worker node of one CPU each on 127.0.0.1, then tests/ray/test_cluster.py. The head
# declares a node dead after about 3 s without an answer (the fault tests kill worker nodes, and
# start others with the same `ray start` arguments, RAY_WORKER_ARGS, before the next).
# RAY_TIER_TESTS: the checks to run (unittest names; default all).
set -euo pipefail
ip link set lo up
export RAY_USAGE_STATS_ENABLED=0 RAY_health_check_initial_delay_ms=0 RAY_health_check_period_ms=1000 \
    RAY_health_check_timeout_ms=1000 RAY_health_check_failure_threshold=3
RAY_TMP="$WORK/ray"
# The tasks' scratch folders (and the driver's) under the tier's folder: a killed task's stays.
export TMPDIR="$WORK/tmp"
mkdir -p "$RAY_TMP" "$TMPDIR"
MEM=300000000
"$VENV/bin/ray" start --head --num-cpus 1 --port 6399 --node-ip-address 127.0.0.1 --temp-dir "$RAY_TMP" \
    --include-dashboard=false --object-store-memory $MEM --disable-usage-stats >"$WORK/head.log" 2>&1 \
    || { cat "$WORK/head.log" >&2; exit 1; }
WORKER=(--address 127.0.0.1:6399 --num-cpus 1 --node-ip-address 127.0.0.1 --object-store-memory $MEM
    --disable-usage-stats)
"$VENV/bin/ray" start "${WORKER[@]}" >"$WORK/worker.log" 2>&1 || { cat "$WORK/worker.log" >&2; exit 1; }
export RAY_ADDRESS_FOR_TESTS=127.0.0.1:6399 VORPAL_BIN_DIR="$BIN" TIER_WORK="$WORK" RAY_WORKER_ARGS="${WORKER[*]}"
export VORPAL_CLUSTER="$VENV/bin/vorpal-cluster"
# Every Ray process ends with this namespace's first process (this shell).
"$VENV/bin/python" "$(dirname "$0")/test_cluster.py" -v ${RAY_TIER_TESTS:-}
