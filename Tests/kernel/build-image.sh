#!/usr/bin/env bash
# Builds (or reuses) the kernel-test guest: a Debian bookworm root from debootstrap, the stock 6.1 kernel
# as an uncompressed vmlinux (qemu boots it through its PVH entry, faster than the bzImage under TCG),
# and a busybox initramfs with the virtio, 9p, overlay and Bluetooth modules.
#
# Usage: Tests/kernel/build-image.sh [--print-dir]
# The image lives in .build/kernel-image/<key>/, where <key> hashes this script and the initramfs init,
# so editing either rebuilds it and older images are removed. Prints the image folder on stdout.
# Needs root (debootstrap, chroot) and the host packages debootstrap busybox-static cpio kmod xz-utils.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
base="$repo/.build/kernel-image"
key=$(cat "$here/build-image.sh" "$here/initramfs-init.sh" | sha256sum | cut -c1-16)
image="$base/$key"
mkdir -p "$base"
exec 9> "$base/.lock"
flock 9  # one builder at a time; a second caller waits and then reuses the image
if [ -f "$image/ready" ]; then
    echo "$image"
    exit 0
fi
log() { echo "build-image: $*" >&2; }
[ "$(id -u)" -eq 0 ] || { log "needs root (debootstrap and chroot)"; exit 1; }
for old in "$base"/*; do
    [ "$old" = "$image" ] || [ ! -d "$old" ] || { log "removing stale image $(basename "$old")"; rm -rf "$old"; }
done
rm -rf "$image"
mkdir -p "$image"
work="$image/tmp"
mkdir -p "$work"
start=$SECONDS

# The kernel: whatever linux-image-amd64 points at today in bookworm (6.1.0-NN).
kpkg=$(apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-6/ {print $2; exit}')
[ -n "$kpkg" ] || { log "cannot resolve linux-image-amd64 (run apt-get update)"; exit 1; }
log "kernel package $kpkg"
(cd "$work" && apt-get download -qq -o APT::Sandbox::User=root "$kpkg" >/dev/null)
dpkg -x "$work"/linux-image-*.deb "$work/kernel"
kver=${kpkg#linux-image-}
python3 - "$work/kernel/boot/vmlinuz-$kver" "$image/vmlinux" <<'PY'
# The bzImage carries the kernel ELF as one compressed stream: find it and inflate it.
import lzma, sys, zlib
data = open(sys.argv[1], "rb").read()
def try_xz(offset):
    d = lzma.LZMADecompressor(format=lzma.FORMAT_XZ)
    return d.decompress(data[offset:])
def try_gzip(offset):
    return zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(data[offset:])
for magic, inflate in ((b"\xfd7zXZ\x00", try_xz), (b"\x1f\x8b\x08\x00", try_gzip)):
    at = data.find(magic)
    while at >= 0:
        try:
            elf = inflate(at)
        except Exception:
            elf = b""
        if elf[:4] == b"\x7fELF":
            open(sys.argv[2], "wb").write(elf)
            sys.exit(0)
        at = data.find(magic, at + 1)
sys.exit("no xz or gzip kernel ELF found in " + sys.argv[1])
PY
echo "$kver" > "$image/kernel-version"

# The initramfs: busybox plus the modules (and what they depend on, from modules.dep) in load order.
moddir="$work/kernel/lib/modules/$kver"
depmod -b "$work/kernel" "$kver"  # the package leaves modules.dep to its postinst
initrd="$work/initrd"
mkdir -p "$initrd"/{bin,dev,proc,sys,lib/modules}
cp /bin/busybox "$initrd/bin/busybox"
cp "$here/initramfs-init.sh" "$initrd/init"
chmod +x "$initrd/init"
wanted=(virtio_ring virtio_pci_modern_dev virtio_pci_legacy_dev virtio virtio_pci
    9pnet 9pnet_virtio netfs fscache 9p overlay
    ecc ecdh_generic rfkill crc16 bluetooth hci_vhci cmac)
python3 - "$moddir" "$initrd" "${wanted[@]}" <<'PY'
import lzma, os, shutil, sys
moddir, initrd, wanted = sys.argv[1], sys.argv[2], sys.argv[3:]
deps, paths = {}, {}
for line in open(os.path.join(moddir, "modules.dep")):
    path, _, rest = line.partition(":")
    name = os.path.basename(path).split(".")[0].replace("-", "_")
    paths[name] = path
    deps[name] = [os.path.basename(p).split(".")[0].replace("-", "_") for p in rest.split()]
builtin = {os.path.basename(l.strip()).split(".")[0].replace("-", "_")
           for l in open(os.path.join(moddir, "modules.builtin"))}
order = []
def visit(name):
    if name in order or name in builtin:
        return
    if name not in paths:
        sys.exit("module %s is neither in modules.dep nor built in" % name)
    for dep in reversed(deps[name]):  # modules.dep lists the deepest dependency last
        visit(dep)
    order.append(name)
for name in wanted:
    visit(name)
with open(os.path.join(initrd, "modules.order"), "w") as out:
    for name in order:
        src = os.path.join(moddir, paths[name])
        dst = os.path.join(initrd, "lib/modules", name + ".ko")
        if src.endswith(".xz"):
            open(dst, "wb").write(lzma.open(src).read())
        else:
            shutil.copyfile(src, dst)
        out.write(name + ".ko\n")
PY
(cd "$initrd" && find . | cpio -o -H newc --quiet > "$image/initramfs.cpio")
log "kernel and initramfs ready ($((SECONDS - start)) s)"

# The root: debootstrap minbase with BlueZ, mosquitto, python3 and the agent's shared libraries (each
# library the binary links: a missing one makes every phase fail with exit 127).
# dbus must be named explicitly or debootstrap cannot resolve bluez's dependency.
pkgs=bluez,dbus,mosquitto,mosquitto-clients,libbluetooth3,libmosquitto1,libyaml-0-2,libsystemd0,libmicrohttpd12,libssl3,python3,procps,libcap2-bin
rootfs="$image/rootfs"
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
if ! debootstrap --variant=minbase --include="$pkgs" bookworm "$rootfs" "$mirror" > "$work/debootstrap.log" 2>&1; then
    tail -n 30 "$work/debootstrap.log" >&2
    log "debootstrap failed (log above)"
    exit 1
fi
# Units and services never start by themselves here: guest-init.sh starts what a job needs.
chroot "$rootfs" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin sh -c '
    echo beacon-guest > /etc/hostname
    apt-get clean
    rm -rf /var/lib/apt/lists/* /usr/share/doc/* /usr/share/man/* /usr/share/locale/*
'
log "root ready ($((SECONDS - start)) s, $(du -sm "$rootfs" | cut -f1) MB)"
rm -rf "$work"
touch "$image/ready"
echo "$image"
