#!/usr/bin/env bash
# `make test-ha`: beacon2mqtt against a real Home Assistant (docs/testing.md, "Home Assistant").
# Home Assistant $HA_VERSION runs in a Debian testing ("forky") root with Debian's Python 3.14 and a
# venv holding that release and its integrations' requirements, built once and cached under
# .build/ha-root (Tests/homeassistant/ha-root.sh); the host's Python is not used for it. The test's
# driver (Tests/homeassistant/test_ha.py: the scenario, mosquitto, the agents, Chromium) runs on the
# host from a small venv (.build/ha-driver-venv: aiohttp, paho-mqtt). Its last line is
# "test-ha: N passed, M failed".
#   HA_SCREENSHOT=docs/images/ha-device-keys.png make test-ha   also keeps the device-page screenshot
set -euo pipefail
cd "$(dirname "$0")/.."
t0=$SECONDS
# The newest Home Assistant release on PyPI (pip index versions homeassistant --python-version 3.14.8).
HA_VERSION=${HA_VERSION:-2026.11.0}
say() { echo "test-ha: $*" >&2; }
fail() { say "$*"; echo "test-ha: 0 passed, 1 failed"; exit 1; }
[ "$(id -u)" -eq 0 ] || fail "needs root (debootstrap, and chroot to run Home Assistant); run it with sudo"

scripts/install-deps.sh debootstrap python3-venv chromium
root=$(Tests/homeassistant/ha-root.sh "$HA_VERSION") || fail "the Home Assistant root did not build"
say "Home Assistant $HA_VERSION in $root ($((SECONDS - t0)) s so far)"

driver=.build/ha-driver-venv
if [ ! -f "$driver/.complete" ]; then
    rm -rf "$driver"
    /usr/bin/python3 -m venv "$driver"
    "$driver/bin/pip" install -q aiohttp==3.11.18 paho-mqtt==2.1.0
    touch "$driver/.complete"
fi

swift build --product beacon2mqtt >&2 || fail "beacon2mqtt did not build"
say "set-up took $((SECONDS - t0)) s"
extra=()
[ -n "${HA_SCREENSHOT:-}" ] && extra=(--screenshot "$HA_SCREENSHOT")
# The summary line stays the last line.
exec "$driver/bin/python" Tests/homeassistant/test_ha.py --beacon2mqtt .build/debug/beacon2mqtt \
    --plan Tests/homeassistant/floor-plan.yaml --root "$root" --venv "/opt/ha/venv-$HA_VERSION" \
    "${extra[@]}" "$@"
