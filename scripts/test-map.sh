#!/usr/bin/env bash
# `make test-map`: the live map in a real browser (docs/testing.md, "The live map"). Debian's
# chromium (installed here if missing, after apt-get update) loads /map from `beacon2mqtt locate`
# fed by three simulated gateways walking Tests/map/site-plan.yaml through a private mosquitto;
# Tests/map/test_map.py drives it over the DevTools protocol with Python's standard library and
# saves the screenshot docs/locator.md shows (MAP_SCREENSHOT to write it elsewhere). Its last line
# is "test-map: N passed, M failed".
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh chromium
swift build --product beacon2mqtt >&2
exec python3 Tests/map/test_map.py --beacon2mqtt .build/debug/beacon2mqtt \
    --screenshot "${MAP_SCREENSHOT:-docs/images/live-map.png}" "$@"
