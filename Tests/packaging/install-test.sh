#!/usr/bin/env bash
# Installs a beacon2mqtt .deb into a fresh minimal Debian bookworm root and checks what an operator
# relies on: the binary runs (static Swift runtime, Depends complete), check-config accepts the
# shipped conffile, postinst made the user and enabled (not started) the unit, purge cleans up.
# Usage: Tests/packaging/install-test.sh path/to/beacon2mqtt_*.deb
# Exit 0 pass, 1 fail, 77 skip (no root or no debootstrap; reason on stderr).
set -euo pipefail
deb=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
cache=$("$here/debian-root.sh")
work=$(mktemp -d /tmp/b2m-debroot.XXXXXX)
trap 'rm -rf "$work"' EXIT
# A throwaway copy, so every run starts from the pristine cached root.
cp -a "$cache/." "$work/"
# Each command runs in a private mount namespace with /proc mounted (a statically linked Swift
# runtime reads its arguments from /proc/self/cmdline); the mount vanishes with the namespace.
in_root() {
    unshare --mount --fork /bin/sh -c 'root=$1; shift; mount -t proc proc "$root/proc" &&
        exec chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LC_ALL=C.UTF-8 "$@"' sh "$work" "$@"
}
fail() { echo "install-test: FAIL: $*" >&2; exit 1; }

cp "$deb" "$work/tmp/beacon2mqtt.deb"
in_root dpkg -i /tmp/beacon2mqtt.deb >"$work/tmp/dpkg.log" 2>&1 || { cat "$work/tmp/dpkg.log" >&2; fail "dpkg -i"; }

version=$(in_root beacon2mqtt --version) || fail "beacon2mqtt --version did not run"
[[ $version == "beacon2mqtt "* ]] || fail "--version printed '$version'"
echo "install-test: $version"
out=$(in_root beacon2mqtt check-config /etc/beacon2mqtt/beacon2mqtt.yaml 2>&1) || fail "check-config: $out"
[[ $out == "/etc/beacon2mqtt/beacon2mqtt.yaml: OK"* ]] || fail "check-config printed '$out'"
echo "install-test: $out"

in_root dpkg-query -W -f='${Depends}\n' beacon2mqtt | grep -q 'libmicrohttpd12' ||
    fail "Depends lacks libmicrohttpd12, which metrics.listen loads"
in_root getent passwd beacon2mqtt >/dev/null || fail "postinst did not create the beacon2mqtt user"
in_root dpkg-query -W -f='${Conffiles}\n' beacon2mqtt | grep -q '/etc/beacon2mqtt/beacon2mqtt.yaml' ||
    fail "the config is not a conffile"
perm=$(in_root stat -c '%a %U:%G' /etc/beacon2mqtt/beacon2mqtt.yaml)
[ "$perm" = "640 root:beacon2mqtt" ] || fail "config is $perm, expected 640 root:beacon2mqtt"
[ -L "$work/etc/systemd/system/multi-user.target.wants/beacon2mqtt.service" ] || fail "the unit is not enabled"
[ -f "$work/usr/share/man/man1/beacon2mqtt.1.gz" ] || fail "no man page"
[ -f "$work/usr/share/doc/beacon2mqtt/copyright" ] || fail "no copyright"

in_root dpkg --purge beacon2mqtt >"$work/tmp/purge.log" 2>&1 || { cat "$work/tmp/purge.log" >&2; fail "dpkg --purge"; }
! in_root getent passwd beacon2mqtt >/dev/null || fail "purge left the beacon2mqtt user"
[ ! -e "$work/var/lib/beacon2mqtt" ] || fail "purge left /var/lib/beacon2mqtt"
[ ! -e "$work/etc/beacon2mqtt" ] || fail "purge left /etc/beacon2mqtt"
[ ! -e "$work/etc/systemd/system/multi-user.target.wants/beacon2mqtt.service" ] || fail "purge left the unit enabled"
echo "install-test: PASS (install, --version, check-config, user, conffile, enabled, purge)"
