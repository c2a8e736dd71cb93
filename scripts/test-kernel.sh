#!/usr/bin/env bash
# The kernel test (make test-kernel): beacon2mqtt on a real Linux Bluetooth stack, in a qemu guest
# with hci_vhci and a scripted virtual controller. See docs/testing.md, “Kernel tests”.
#
# Installs the host packages, builds the agent (release, static Swift stdlib), builds or reuses the
# cached guest image, boots the guest once for all scenarios and asserts on the host. The last line
# is "kernel tests: N passed, M failed, K skipped"; the exit status is non-zero on any failure.
#
# Environment: BEACON2MQTT_BIN=path uses a prebuilt agent instead of building one;
# KERNEL_TEST_ACCEL=tcg|kvm|auto (default auto); KERNEL_TEST_TIMEOUT=seconds for the boot (900);
# KERNEL_TEST_PHASES="phase ..." runs only those phases.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
t0=$SECONDS
say() { echo "test-kernel: $*" >&2; }
fail() { say "$*"; echo "kernel tests: 0 passed, 1 failed, 0 skipped"; exit 1; }

[ "$(id -u)" -eq 0 ] || fail "needs root (debootstrap, chroot and qemu's 9p passthrough); run it with sudo"
scripts/install-deps.sh qemu-system-x86 debootstrap busybox-static cpio kmod xz-utils

agent=${BEACON2MQTT_BIN:-}
if [ -z "$agent" ]; then
    say "building the agent (release, static Swift stdlib)"
    swift build -c release --static-swift-stdlib --product beacon2mqtt >&2 || fail "the agent did not build"
    agent="$repo/.build/release/beacon2mqtt"
fi
[ -x "$agent" ] || fail "no agent binary at $agent"

image=$(Tests/kernel/build-image.sh) || fail "the guest image did not build"
say "image $image ($((SECONDS - t0)) s so far)"

job="$repo/.build/kernel-job"
rm -rf "$job"
mkdir -p "$job/bin" "$job/out"
cp Tests/kernel/guest-init.sh Tests/kernel/guest-job.sh Tests/kernel/vhci_controller.py "$job/"
cp -r Tests/kernel/scenarios "$job/scenarios"
# KERNEL_TEST_PHASES="listen unplug" runs only those phases (while working on one scenario).
[ -n "${KERNEL_TEST_PHASES:-}" ] && printf '%s\n' $KERNEL_TEST_PHASES > "$job/scenarios/phases"
cp "$agent" "$job/bin/beacon2mqtt"

# Does 'run' scan a live adapter in this build? The interim build says so when asked to.
probe=$(timeout 10 "$agent" run --config Tests/kernel/scenarios/legacy.yaml 2>&1 || true)
if grep -q "not available in this build" <<<"$probe"; then
    echo "LIVE_RUN=0" > "$job/features"
    say "'run' has no live HCI source in this build: MQTT checks are skipped, 'record' drives the scans"
else
    echo "LIVE_RUN=1" > "$job/features"
fi

status=0
Tests/kernel/boot.sh "$image" "$job" "${KERNEL_TEST_TIMEOUT:-900}" || status=$?
say "guest finished with status $status ($((SECONDS - t0)) s so far)"
result=0
python3 Tests/kernel/check.py "$job" "$agent" "$job/scenarios" || result=$?
say "total $((SECONDS - t0)) s; everything the guest left is in $job"
exit "$result"
