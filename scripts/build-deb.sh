#!/usr/bin/env bash
# Builds the beacon2mqtt .deb: a release binary with the Swift runtime linked statically (no
# dependency on a toolchain under /opt), the systemd unit, the config as a conffile, the man page
# generated from the CLI help, README and machine-readable copyright. Then runs lintian.
# Usage: scripts/build-deb.sh [--no-lintian]      Output: .build/deb/beacon2mqtt_<version>_<arch>.deb
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
lintian=1
[ "${1:-}" = "--no-lintian" ] && lintian=0
mkdir -p .build
# One build at a time (`make deb` and the install test may both ask for it): they share the stage.
exec 8>.build/deb.lock
flock 8

upstream=$(sed -n 's/.*static let string = "\(.*\)".*/\1/p' Sources/Gateway/CLI/Version.swift)
debian_revision=$(sed -n '1s/^beacon2mqtt (\(.*\)).*/\1/p' packaging/debian/changelog)
[ "${debian_revision%-*}" = "$upstream" ] ||
    { echo "build-deb: packaging/debian/changelog ($debian_revision) does not match Version.swift ($upstream)" >&2; exit 1; }
version=$debian_revision
arch=$(dpkg --print-architecture)
# Reproducible: every timestamp in the package comes from the last commit.
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}

# A scratch path of its own: the release build never fights `swift test` for the .build lock.
scratch=.build/deb-build
swift build -c release --static-swift-stdlib --product beacon2mqtt --scratch-path "$scratch" >&2
binary=$(swift build -c release --static-swift-stdlib --scratch-path "$scratch" --show-bin-path)/beacon2mqtt

out=.build/deb
stage=$out/root
rm -rf "$stage"
mkdir -p "$stage/DEBIAN" "$stage/usr/bin" "$stage/etc/beacon2mqtt" "$stage/lib/systemd/system" \
    "$stage/usr/share/man/man1" "$stage/usr/share/doc/beacon2mqtt"

install -m 0755 "$binary" "$stage/usr/bin/beacon2mqtt"
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$stage/usr/bin/beacon2mqtt"
install -m 0644 etc/beacon2mqtt.yaml "$stage/etc/beacon2mqtt/beacon2mqtt.yaml"
install -m 0644 packaging/systemd/beacon2mqtt.service "$stage/lib/systemd/system/beacon2mqtt.service"
"$stage/usr/bin/beacon2mqtt" manpage | gzip -9n >"$stage/usr/share/man/man1/beacon2mqtt.1.gz"
install -m 0644 README.md "$stage/usr/share/doc/beacon2mqtt/README.md"
install -m 0644 packaging/debian/copyright "$stage/usr/share/doc/beacon2mqtt/copyright"
gzip -9n <packaging/debian/changelog >"$stage/usr/share/doc/beacon2mqtt/changelog.Debian.gz"
chmod 0644 "$stage"/usr/share/man/man1/*.gz "$stage"/usr/share/doc/beacon2mqtt/*.gz

install -m 0755 packaging/debian/postinst packaging/debian/prerm packaging/debian/postrm "$stage/DEBIAN/"
install -m 0644 packaging/debian/conffiles "$stage/DEBIAN/conffiles"

# Depends: what the binary links (dpkg-shlibdeps reads the shlibs/symbols files of the installed
# libraries), plus adduser for postinst.
shlib=$(mktemp -d)
trap 'rm -rf "$shlib"' EXIT
mkdir -p "$shlib/debian"
printf 'Source: beacon2mqtt\n\nPackage: beacon2mqtt\nArchitecture: any\n' >"$shlib/debian/control"
depends=$(cd "$shlib" && dpkg-shlibdeps -O -e"$repo/$stage/usr/bin/beacon2mqtt" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || { echo "build-deb: dpkg-shlibdeps found no dependencies" >&2; exit 1; }
depends="adduser, $depends"
size=$(du -sk --exclude=DEBIAN "$stage" | cut -f1)
sed -e "s/@VERSION@/$version/" -e "s/@ARCH@/$arch/" -e "s/@SIZE@/$size/" -e "s/@DEPENDS@/$depends/" \
    packaging/debian/control.in >"$stage/DEBIAN/control"
(cd "$stage" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | sort -z | xargs -0 md5sum) >"$stage/DEBIAN/md5sums"
chmod 0644 "$stage/DEBIAN/md5sums"
find "$stage" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +

deb=$out/beacon2mqtt_${version}_${arch}.deb
dpkg-deb --root-owner-group -Zxz --build "$stage" "$deb" >&2
echo "build-deb: $deb ($(du -h "$deb" | cut -f1)); Depends: $depends" >&2

if [ "$lintian" = 1 ]; then
    command -v lintian >/dev/null || scripts/install-deps.sh lintian
    # Errors fail the build; warnings are shown.
    lintian --fail-on error --suppress-tags-from-file packaging/debian/lintian-overrides.txt "$deb" >&2 ||
        { echo "build-deb: lintian reported errors" >&2; exit 1; }
fi
echo "$deb"
