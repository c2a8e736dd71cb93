#!/usr/bin/env bash
# `make test-ha`: beacon2mqtt against a real Home Assistant (docs/testing.md, "Home Assistant").
# Installs Home Assistant from PyPI once into a venv under $HA_CACHE (default ~/.cache/beacon2mqtt-ha),
# pinned to the newest release the machine's newest Python (pyenv's 3.13.0) satisfies, with the
# requirements of the integrations the test loads installed up front (HA then runs with --skip-pip).
# Then Tests/homeassistant/test_ha.py runs the scenario; its last line is "test-ha: N passed, M failed".
#   HA_VERSION=2026.2.3 make test-ha   the newest release on PyPI here, which asks for Python 3.13.2:
#                                      installed with --ignore-requires-python and started with that one
#                                      version check lowered (HA_IGNORE_PYTHON_VERSION, see ha_harness.py)
#   HA_SCREENSHOT=docs/images/ha-device-keys.png make test-ha   also keeps the device-page screenshot
set -euo pipefail
cd "$(dirname "$0")/.."
HA_VERSION=${HA_VERSION:-2025.4.4}
# From that release's manifests: mqtt (paho-mqtt), recorder (SQLAlchemy, fnv-hash-fast,
# psutil-home-assistant) and frontend, which HA always loads (without it, it starts in recovery mode).
pip_flags=()
case "$HA_VERSION" in
    2025.4.4) HA_REQUIREMENTS=(paho-mqtt==2.1.0 SQLAlchemy==2.0.39 fnv-hash-fast==1.4.0 psutil-home-assistant==0.0.1
                  home-assistant-frontend==20250411.0) ;;
    2026.2.3) HA_REQUIREMENTS=(paho-mqtt==2.1.0 SQLAlchemy==2.0.41 fnv-hash-fast==1.6.0 psutil-home-assistant==0.0.1
                  home-assistant-frontend==20260128.6 hassil==3.5.0 home-assistant-intents==2026.1.28)
              pip_flags=(--ignore-requires-python)
              export HA_IGNORE_PYTHON_VERSION=1 ;;
    *) echo "test-ha: no requirement list for Home Assistant $HA_VERSION (add it here)" >&2; exit 1 ;;
esac
cache=${HA_CACHE:-$HOME/.cache/beacon2mqtt-ha}
venv="$cache/venv-$HA_VERSION"

python=${HA_PYTHON:-}
if [ -z "$python" ]; then
    for candidate in "$HOME"/.pyenv/versions/3.13.*/bin/python3 /usr/bin/python3.13; do
        [ -x "$candidate" ] && python=$candidate
    done
fi
if [ -z "$python" ]; then
    echo "test-ha: Home Assistant $HA_VERSION needs Python 3.13 (pyenv install 3.13.0, or set HA_PYTHON)" >&2
    exit 1
fi

if [ ! -f "$venv/.installed" ]; then
    echo "test-ha: installing Home Assistant $HA_VERSION into $venv (once)" >&2
    mkdir -p "$cache"
    rm -rf "$venv"
    "$python" -m venv "$venv"
    "$venv/bin/pip" install -q --upgrade pip
    "$venv/bin/pip" install -q "${pip_flags[@]}" "homeassistant==$HA_VERSION" "${HA_REQUIREMENTS[@]}"
    touch "$venv/.installed"
fi

command -v mosquitto >/dev/null || [ -x /usr/sbin/mosquitto ] || scripts/install-deps.sh
# Headless Chromium takes the device-page screenshot from HA's own frontend (once, from Debian).
if ! command -v chromium >/dev/null; then
    echo "test-ha: installing Debian's chromium (once)" >&2
    sudo_=""; [ "$(id -u)" = 0 ] || sudo_=sudo
    $sudo_ apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo_ apt-get install -y -qq --no-install-recommends chromium
fi
swift build --product beacon2mqtt
extra=()
[ -n "${HA_SCREENSHOT:-}" ] && extra=(--screenshot "$HA_SCREENSHOT")
exec "$venv/bin/python" Tests/homeassistant/test_ha.py --beacon2mqtt .build/debug/beacon2mqtt \
    --plan Tests/homeassistant/floor-plan.yaml "${extra[@]}" "$@"
