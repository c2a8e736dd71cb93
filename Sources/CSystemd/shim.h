// libsystemd's service-manager notification API: sd_notify(3), sd_watchdog_enabled(3).
#include <systemd/sd-daemon.h>
