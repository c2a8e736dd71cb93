#!/usr/bin/env bash
# Prints the path of a cached minimal Debian bookworm root (debootstrap --variant=minbase) holding the
# runtime libraries beacon2mqtt depends on, creating it the first time (~1-3 min, then cached).
# Usage: Tests/packaging/debian-root.sh [cache-dir]   (default: .build/debroot)
# Exit 77 (skip) with a reason when debootstrap cannot run here.
set -euo pipefail
cache=${1:-"$(cd "$(dirname "$0")/../.." && pwd)/.build/debroot"}
# The runtime Depends of the package, preinstalled so the install test needs no network after this.
include=adduser,init-system-helpers,libbluetooth3,libmosquitto1,libyaml-0-2,libsystemd0,libmicrohttpd12
# A root per list, so a cached root made before a dependency was added is not reused.
root="$cache/bookworm-$(echo "$include" | cksum | cut -d' ' -f1)"
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
if [ -f "$root/.complete" ]; then echo "$root"; exit 0; fi
[ "$(id -u)" -eq 0 ] || { echo "skip: building a Debian root needs root (debootstrap, chroot)" >&2; exit 77; }
if ! command -v debootstrap >/dev/null; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap >/dev/null 2>&1 ||
        { echo "skip: debootstrap is not installed and apt-get could not install it" >&2; exit 77; }
fi
mkdir -p "$cache"
exec 9>"$cache/.lock"
flock 9
if [ -f "$root/.complete" ]; then echo "$root"; exit 0; fi
rm -rf "$root"
if ! debootstrap --variant=minbase --include="$include" bookworm "$root" "$mirror" >"$cache/debootstrap.log" 2>&1; then
    echo "skip: debootstrap failed (no network?), see $cache/debootstrap.log" >&2
    exit 77
fi
touch "$root/.complete"
echo "$root"
