#!/bin/sh
# PID 1 of the kernel-test guest after switch_root (the root is a tmpfs overlay on the read-only
# image; /job is the host's read-write job folder). Sets up the few mounts and the broker a job
# needs, runs /job/guest-job.sh, stores its exit code in /job/exit-code and powers off.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8
mount -t tmpfs tmpfs /run
mount -t tmpfs tmpfs /tmp
mkdir -p /dev/pts /run/mosquitto /run/dbus
mount -t devpts devpts /dev/pts
hostname beacon-guest
# No network device, but the broker listens on loopback, which starts down (no iproute2 in minbase).
python3 -c '
import fcntl, socket, struct
s = socket.socket()
flags = struct.unpack_from("16sh", fcntl.ioctl(s, 0x8913, struct.pack("16sh22x", b"lo", 0)))[1]  # SIOCGIFFLAGS
fcntl.ioctl(s, 0x8914, struct.pack("16sh22x", b"lo", flags | 1))  # SIOCSIFFLAGS: IFF_UP
' || echo "guest: cannot bring lo up"
echo "guest: kernel $(uname -r) up after $(cut -d' ' -f1 /proc/uptime) s"
cd /job
sh /job/guest-job.sh > /job/job.log 2>&1
code=$?
echo "guest: job exit code $code after $(cut -d' ' -f1 /proc/uptime) s"
echo "$code" > /job/exit-code
sync
echo 1 > /proc/sys/kernel/sysrq
echo o > /proc/sysrq-trigger
sleep 10
