// libsystemd's service-manager notification API: sd_notify(3), sd_watchdog_enabled(3).
#include <systemd/sd-daemon.h>
#include <sys/stat.h>

// The device and inode of an open file, as systemd writes them into JOURNAL_STREAM
// (systemd.exec(5)). A C helper because Swift's member lookup of `struct stat` differs between
// debug and release builds under MemberImportVisibility.
static inline int csystemd_fd_identity(int fd, unsigned long long *device, unsigned long long *inode) {
    struct stat info;
    if (fstat(fd, &info) != 0) return -1;
    *device = (unsigned long long)info.st_dev;
    *inode = (unsigned long long)info.st_ino;
    return 0;
}
