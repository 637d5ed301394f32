#!/usr/bin/env bash
# The Ray tier: `vorpal-cluster` (tuning/cluster, docs/cluster.md) on a real two-node Ray
# cluster on this machine. It builds vorpal, vorpal-match and vorpal-datagen (the `test`
# profile, which CI has built already), installs Ray and the driver into a venv under target/
# (kept between runs), then enters a network and PID namespace of its own (`unshare`: Ray binds
# 127.0.0.1 there and nothing leaves the machine; every Ray process ends with the namespace) and
# runs tests/ray/cluster.sh: a head and a worker node of one CPU each, and the checks of
# tests/ray/test_cluster.py (tables, a 40-game match, datagen equal to local runs; worker
# nodes killed mid-run in each of the three commands, two of three at once in a match and a
# table run; the driver killed while it writes, held there by strace; --ship-bins to a node
# without the binaries; tests/ray/faults.py).
#
# usage: tests/ray/run.sh [WORK_DIR]
#   RAY_TIER_VENV  the venv (default: target/ray-venv)
#   RAY_TIER_TESTS the checks to run (default all), e.g. "Cluster.test_3_match_equals_a_local_run"
# Bounded to 8 minutes in all.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
WORK="${1:-$(mktemp -d /tmp/vorpal-ray-tier.XXXXXX)}"
VENV="${RAY_TIER_VENV:-$ROOT/target/ray-venv}"
mkdir -p "$WORK"
START=$(date +%s)
DEADLINE=$((START + 480))
left() { echo $((DEADLINE - $(date +%s))); }

# strace holds the driver's write in the killed-driver checks (Debian's package when missing).
if ! command -v strace >/dev/null; then
    apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q strace
fi
echo "ray tier: building the binaries" >&2
(cd "$ROOT" && timeout "$(left)" cargo build -q --profile test -p vorpal -p vorpal-tuning \
    --bin vorpal --bin vorpal-match --bin vorpal-datagen)
BIN="$ROOT/target/debug"

echo "ray tier: installing Ray and vorpal-cluster into $VENV (+$(( $(date +%s) - START )) s)" >&2
if ! "$VENV/bin/python" -c 'import ray' >/dev/null 2>&1; then
    rm -rf "$VENV"
    python3 -m venv "$VENV"
fi
# The driver from the checkout (ray itself is installed once and kept).
timeout "$(left)" "$VENV/bin/pip" install -q --disable-pip-version-check ./tuning/cluster >"$WORK/pip.log" 2>&1 \
    || { cat "$WORK/pip.log" >&2; echo "ray tier: pip install failed" >&2; exit 1; }
rm -rf "$ROOT/tuning/cluster/build"

# Root enters the namespaces directly; anyone else through a user namespace of their own.
NS=(unshare -n -p -f --mount-proc)
[ "$(id -u)" = 0 ] || NS=(unshare -r -n -p -f --mount-proc)
echo "ray tier: the cluster (+$(( $(date +%s) - START )) s)" >&2
status=0
VENV="$VENV" BIN="$BIN" WORK="$WORK" timeout "$(left)" "${NS[@]}" bash "$HERE/cluster.sh" || status=$?
echo "ray tier: done in $(( $(date +%s) - START )) s, status $status" >&2
exit $status
