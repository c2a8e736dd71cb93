#!/usr/bin/env bash
# Boots the kernel-test guest once: the image's vmlinux (PVH entry) and initramfs, its root shared
# read-only over 9p, and JOB shared read-write at /job, where guest-init.sh runs guest-job.sh and
# leaves exit-code. The serial console goes to JOB/console.log. No network device.
#
# Usage: Tests/kernel/boot.sh IMAGE_DIR JOB_DIR [TIMEOUT_SECONDS]
# Acceleration: KERNEL_TEST_ACCEL=tcg|kvm|auto (default auto: KVM only when the CPU has vmx/svm,
# /dev/kvm opens and a probe boot works; else TCG with -cpu max, since a paravirtual /dev/kvm
# cannot run a stock kernel). Exit status: the job's, or 124 on timeout, 125 without exit-code.
set -euo pipefail
image=$1 job=$2 limit=${3:-600}
here=$(cd "$(dirname "$0")" && pwd)

qemu() { # accel job-dir timeout
    local accel=$1 dir=$2 seconds=$3 cpu=max
    [ "$accel" = kvm ] && cpu=host
    rm -f "$dir/exit-code" "$dir/console.log"
    timeout --kill-after=5 "$seconds" qemu-system-x86_64 \
        -machine pc -accel "$accel" -cpu "$cpu" -smp 2 -m 1024 \
        -nodefaults -display none -no-reboot \
        -serial "file:$dir/console.log" \
        -kernel "$image/vmlinux" -initrd "$image/initramfs.cpio" \
        -append "console=ttyS0 panic=-1 loglevel=4 rdinit=/init" \
        -fsdev "local,id=root,path=$image/rootfs,security_model=passthrough,readonly=on" \
        -device virtio-9p-pci,fsdev=root,mount_tag=rootfs \
        -fsdev "local,id=job,path=$dir,security_model=passthrough" \
        -device virtio-9p-pci,fsdev=job,mount_tag=job
}

accel=${KERNEL_TEST_ACCEL:-auto}
if [ "$accel" = auto ]; then
    accel=tcg
    if grep -qwE 'vmx|svm' /proc/cpuinfo && [ -w /dev/kvm ]; then
        probe=$(mktemp -d)
        cp "$here/guest-init.sh" "$probe/"
        echo 'exit 0' > "$probe/guest-job.sh"
        if qemu kvm "$probe" 60 >/dev/null 2>&1 && [ "$(cat "$probe/exit-code" 2>/dev/null)" = 0 ]; then
            accel=kvm
        fi
        rm -rf "$probe"
    fi
fi
echo "boot: accel $accel, timeout ${limit}s" >&2
start=$SECONDS
status=0
qemu "$accel" "$job" "$limit" || status=$?
echo "boot: guest ran $((SECONDS - start)) s (qemu status $status)" >&2
[ "$status" = 124 ] && exit 124
[ -f "$job/exit-code" ] || exit 125
exit "$(cat "$job/exit-code")"
