#!/usr/bin/env bash
# Prints the path of a cached Debian testing ("forky") root that holds Debian's Python 3.14 and, in
# /opt/ha/venv-VERSION, Home Assistant VERSION with the requirements of every integration `make test-ha`
# loads; creates it the first time (debootstrap, then pip from PyPI inside the root: a few minutes).
# Home Assistant runs in this root (chroot), so neither its Python nor its packages touch the host.
#
# Usage: Tests/homeassistant/ha-root.sh VERSION   (root; DEBIAN_MIRROR as for the other Debian roots)
# The root lives in .build/ha-root/forky-<key>/ (<key> hashes its package list: another list builds
# another root, and older roots are removed); the venv is /opt/ha/venv-VERSION in it, made again when
# ha_requirements.py changes.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
version=${1:?usage: ha-root.sh HOME_ASSISTANT_VERSION}
base="$repo/.build/ha-root"
# Debian testing: python3.14 (with venv's ensurepip), the CA list pip trusts, time zones and the JPEG
# library for HA (camera, a base platform, loads it), and
# a C++ compiler with Python's headers: the release pins pymicro-vad 1.0.1 and pyspeex-noise 1.0.2
# (assist_pipeline, which every HA sets up), which PyPI has as source only for Python 3.14.
pkgs=python3.14,python3.14-venv,python3.14-dev,g++,make,ca-certificates,tzdata,libturbojpeg0
root="$base/forky-$(echo "$pkgs" | sha256sum | cut -c1-16)"
venv="/opt/ha/venv-$version"
stamp=$(cat "$here/ha_requirements.py" | sha256sum | cut -c1-16)
log() { echo "ha-root: $*" >&2; }
mkdir -p "$base"
exec 9> "$base/.lock"
flock 9  # one builder at a time; a second caller waits and then reuses the root
if [ "$(cat "$root$venv/.complete" 2>/dev/null)" = "$stamp" ]; then
    echo "$root"
    exit 0
fi
[ "$(id -u)" -eq 0 ] || { log "needs root (debootstrap and chroot)"; exit 1; }
start=$SECONDS
if [ ! -f "$root/.complete" ]; then
    command -v debootstrap >/dev/null || "$repo/scripts/install-deps.sh" debootstrap
    for old in "$base"/*; do
        [ "$old" = "$root" ] || [ ! -d "$old" ] || { log "removing stale root $(basename "$old")"; rm -rf "$old"; }
    done
    rm -rf "$root"
    mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
    log "debootstrap forky ($pkgs) from $mirror (once)"
    # Bookworm's debootstrap has no script named forky; testing's (sid's) is the one for it.
    if ! debootstrap --variant=minbase --include="$pkgs" forky "$root" "$mirror" /usr/share/debootstrap/scripts/sid \
        > "$base/debootstrap.log" 2>&1; then
        tail -n 30 "$base/debootstrap.log" >&2
        log "debootstrap failed (log above)"
        exit 1
    fi
    chroot "$root" sh -c 'apt-get clean; rm -rf /var/lib/apt/lists/* /usr/share/doc/* /usr/share/man/*'
    touch "$root/.complete"
    log "Debian root ready ($((SECONDS - start)) s)"
fi

# pip inside the root reaches PyPI as the host does: the host's resolver and CA list.
cp /etc/resolv.conf "$root/etc/resolv.conf"
cp /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/host-ca-certificates.crt"
in_root() {
    chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 \
        PIP_CERT=/etc/ssl/certs/host-ca-certificates.crt PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_DEFAULT_TIMEOUT=180 "$@"
}
in_root python3.14 --version >&2
log "Home Assistant $version into $venv (once)"
rm -rf "$root/opt/ha"
mkdir -p "$root/opt/ha"
in_root python3.14 -m venv "$venv"
in_root "$venv/bin/pip" install -q "homeassistant==$version"
# The requirements of the integrations the test loads, read from the installed release's manifests,
# installed within the release's own constraints (HA then starts with --skip-pip).
cp "$here/ha_requirements.py" "$root/opt/ha/ha_requirements.py"
mapfile -t reqs < <(in_root "$venv/bin/python" /opt/ha/ha_requirements.py)
log "requirements: ${reqs[*]}"
in_root "$venv/bin/pip" install -q -c "$(echo "$root$venv"/lib/python3.*/site-packages/homeassistant/package_constraints.txt | sed "s|^$root||")" "${reqs[@]}"
in_root "$venv/bin/python" -c 'import homeassistant.const as c; print("Home Assistant", c.__version__)' >&2
rm -rf "$root/root/.cache"
echo "$stamp" > "$root$venv/.complete"
log "Home Assistant $version ready in $root ($((SECONDS - start)) s, $(du -sm "$root" | cut -f1) MB)"
echo "$root"
