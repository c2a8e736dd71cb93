#!/bin/busybox sh
# PID 1 of the kernel-test initramfs (busybox). Loads the virtio, 9p, overlay and Bluetooth modules,
# mounts the read-only 9p root under a tmpfs overlay and the read-write 9p job folder at /job, then
# hands over to /job/guest-init.sh on the new root. Every boot starts from the same clean root.
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
fail() {
    echo "initramfs: $*"
    echo 125 > /newroot/job/exit-code 2>/dev/null
    poweroff -f
}
for m in $(cat /modules.order); do
    insmod "/lib/modules/$m" 2>/dev/null || echo "initramfs: insmod $m failed"
done
mkdir -p /ro /rw /newroot
mount -t 9p -o trans=virtio,version=9p2000.L,ro,cache=loose rootfs /ro || fail "cannot mount the 9p root"
mount -t tmpfs -o size=256m tmpfs /rw || fail "cannot mount tmpfs"
mkdir -p /rw/upper /rw/work
mount -t overlay -o lowerdir=/ro,upperdir=/rw/upper,workdir=/rw/work overlay /newroot || fail "cannot mount the overlay"
mkdir -p /newroot/job
mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 job /newroot/job || fail "cannot mount the job folder"
# busybox switch_root does not move mounts: move them by hand first.
for d in dev proc sys; do
    mkdir -p "/newroot/$d"
    mount --move "/$d" "/newroot/$d"
done
exec switch_root /newroot /bin/sh /job/guest-init.sh
