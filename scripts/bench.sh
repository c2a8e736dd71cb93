#!/usr/bin/env bash
# `make bench`: release-builds beacon2mqtt and beacon2mqtt-bench, prepares the Python peer
# (bluetooth-data-tools in bench/.venv) and runs the benchmark sections.
# Usage: scripts/bench.sh [decode|pipeline|json|locator|messages|e2e|footprint|campus|location|map|peer|all ...] [bench options]
# Results: a table on stdout, JSON in bench/results/ (<section>-<UTC>.json and latest.json).
set -euo pipefail
cd "$(dirname "$0")/.."

# python3-venv: Debian's python3 cannot make a venv without it.
scripts/install-deps.sh python3-venv

PEER_VERSION="${BENCH_PEER_VERSION:-1.29.24}"
VENV=bench/.venv
if ! "$VENV/bin/python" -c "import bluetooth_data_tools" 2>/dev/null; then
    echo "bench: creating $VENV with bluetooth-data-tools $PEER_VERSION" >&2
    rm -rf "$VENV"
    if python3 -m venv "$VENV" && "$VENV/bin/pip" install -q --disable-pip-version-check \
        "bluetooth-data-tools==$PEER_VERSION"; then :; else
        echo "bench: WARNING: the peer venv could not be set up; the peer section will report it" >&2
    fi
fi

echo "bench: building release binaries" >&2
mkdir -p .build
for product in beacon2mqtt beacon2mqtt-bench; do
    if ! swift build -c release --product "$product" >.build/bench-build.log 2>&1; then
        grep -E "error" .build/bench-build.log >&2 || tail -20 .build/bench-build.log >&2
        echo "bench: release build of $product failed (see .build/bench-build.log)" >&2
        exit 1
    fi
done
BIN="$(swift build -c release --show-bin-path)"

export BENCH_COMMIT="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
exec "$BIN/beacon2mqtt-bench" --agent "$BIN/beacon2mqtt" --python "$VENV/bin/python" \
    --peer-script scripts/bench_peer.py --results bench/results "${@:-all}"
