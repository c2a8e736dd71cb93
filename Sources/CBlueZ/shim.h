#pragma once
// BlueZ libbluetooth (GPL-2.0-or-later). Only the raw HCI socket layer uses it.
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <bluetooth/bluetooth.h>
#include <bluetooth/hci.h>
#include <bluetooth/hci_lib.h>

// ioctl request numbers are _IOR/_IOW macros, which Swift cannot import.
static const unsigned long cbluez_HCIGETDEVLIST = HCIGETDEVLIST;
static const unsigned long cbluez_HCIGETDEVINFO = HCIGETDEVINFO;
static const unsigned long cbluez_HCIDEVUP = HCIDEVUP;
static const unsigned long cbluez_HCIDEVDOWN = HCIDEVDOWN;
static const unsigned long cbluez_HCIDEVRESET = HCIDEVRESET;

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

// sockaddr_hci is easier to fill in C than through Swift's sockaddr casts.
// Binds a raw HCI socket to one controller (HCI_CHANNEL_RAW: the kernel keeps driving it).
static inline int cbluez_bind_raw(int fd, uint16_t dev_id) {
    struct sockaddr_hci addr;
    memset(&addr, 0, sizeof(addr));
    addr.hci_family = AF_BLUETOOTH;
    addr.hci_dev = dev_id;
    addr.hci_channel = HCI_CHANNEL_RAW;
    return bind(fd, (struct sockaddr *)&addr, sizeof(addr));
}

// hci_dev_list_req ends in a flexible array, which Swift cannot allocate.
// Fills ids[0..<max] with controller indexes; returns the count, or -1 with errno set.
static inline int cbluez_device_list(int fd, uint16_t *ids, int max) {
    if (max <= 0 || max > HCI_MAX_DEV) max = HCI_MAX_DEV;
    struct hci_dev_list_req *req = calloc(1, sizeof(*req) + HCI_MAX_DEV * sizeof(struct hci_dev_req));
    if (!req) { errno = ENOMEM; return -1; }
    req->dev_num = HCI_MAX_DEV;
    if (ioctl(fd, HCIGETDEVLIST, (void *)req) < 0) { int e = errno; free(req); errno = e; return -1; }
    int n = req->dev_num < max ? req->dev_num : max;
    for (int i = 0; i < n; i++) ids[i] = req->dev_req[i].dev_id;
    free(req);
    return n;
}

// HCIGETDEVINFO is an _IOR macro; this keeps the ioctl in one typed place.
static inline int cbluez_device_info(int fd, uint16_t dev_id, struct hci_dev_info *info) {
    memset(info, 0, sizeof(*info));
    info->dev_id = dev_id;
    return ioctl(fd, HCIGETDEVINFO, (void *)info);
}

// hci_test_bit takes a non-const void *; HCI_UP is an enum bit index into hci_dev_info.flags.
static inline int cbluez_device_is_up(struct hci_dev_info *info) {
    return hci_test_bit(HCI_UP, &info->flags) != 0;
}

// HCIDEVUP takes the index as the ioctl argument itself (not a pointer). Needs CAP_NET_ADMIN.
static inline int cbluez_device_up(int fd, uint16_t dev_id) {
    return ioctl(fd, HCIDEVUP, (unsigned long)dev_id);
}

// getsockopt/setsockopt of HCI_FILTER, so the saved filter keeps the kernel's exact struct size.
static inline int cbluez_get_filter(int fd, struct hci_filter *filter) {
    socklen_t len = sizeof(*filter);
    return getsockopt(fd, SOL_HCI, HCI_FILTER, filter, &len);
}

static inline int cbluez_set_filter(int fd, const struct hci_filter *filter) {
    return setsockopt(fd, SOL_HCI, HCI_FILTER, filter, sizeof(*filter));
}

#include <stdint.h>
#include <sys/uio.h>

// HCI_TIME_STAMP: the kernel attaches each packet's receive time (HCI_CMSG_TSTAMP), so a reader that
// drains the socket every few tens of milliseconds still stamps every report when it arrived.
static inline int cbluez_enable_timestamps(int fd) {
    int on = 1;
    return setsockopt(fd, SOL_HCI, HCI_TIME_STAMP, &on, sizeof(on));
}

// read() that also returns the receive time the kernel attached as a (level, type) control message,
// in µs since the epoch (CLOCK_REALTIME); *usec is -1 when the packet carried none. CMSG_* are
// macros, which Swift cannot import. The payload is a timeval of two longs (the kernel's old
// timeval, also on 32-bit ARM with a 64-bit time_t) or of two 64-bit fields (SO_TIMESTAMP_NEW).
static inline ssize_t cbluez_read_stamped(int fd, void *buf, size_t len, int level, int type, int64_t *usec) {
    struct iovec iov = { buf, len };
    union { char bytes[CMSG_SPACE(2 * sizeof(int64_t)) + 32]; struct cmsghdr align; } control;
    struct msghdr msg;
    memset(&msg, 0, sizeof(msg));
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control.bytes;
    msg.msg_controllen = sizeof(control.bytes);
    *usec = -1;
    ssize_t n = recvmsg(fd, &msg, 0);
    if (n < 0) return n;
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c != NULL; c = CMSG_NXTHDR(&msg, c)) {
        if (c->cmsg_level != level || c->cmsg_type != type) continue;
        size_t size = c->cmsg_len - CMSG_LEN(0);
        if (size == 2 * sizeof(long)) {
            long t[2];
            memcpy(t, CMSG_DATA(c), sizeof(t));
            *usec = (int64_t)t[0] * 1000000 + t[1];
        } else if (size == 2 * sizeof(int64_t)) {
            int64_t t[2];
            memcpy(t, CMSG_DATA(c), sizeof(t));
            *usec = t[0] * 1000000 + t[1];
        }
    }
    return n;
}

// SO_TIMESTAMP and SCM_TIMESTAMP pick the old or new timeval form in a macro expression (by the
// size of time_t), which Swift cannot import. For sockets other than HCI (a test's socketpair).
static const int cbluez_SO_TIMESTAMP = SO_TIMESTAMP;
static const int cbluez_SCM_TIMESTAMP = SCM_TIMESTAMP;
