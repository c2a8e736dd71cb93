#!/usr/bin/env bash
# Installs the Debian packages beacon2mqtt builds, tests and demos with, if any are missing.
# Usage: scripts/install-deps.sh [extra-package ...]
set -euo pipefail
pkgs=(pkg-config libyaml-dev libmosquitto-dev libbluetooth-dev libssl-dev libmicrohttpd-dev mosquitto
      mosquitto-clients openssl python3 python3-venv dpkg-dev debootstrap systemd valgrind "$@")
missing=()
for p in "${pkgs[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
    echo "install-deps: installing ${missing[*]}" >&2
    SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
command -v swift >/dev/null || { echo "install-deps: swift 6.2+ is required on PATH (https://swift.org/install)" >&2; exit 1; }
