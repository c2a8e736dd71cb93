import CSystemd

/// Tells systemd how the service is doing, through libsystemd's `sd_notify(3)`.
///
/// With `Type=notify` (packaging/systemd/beacon2mqtt.service) systemd considers the unit started
/// only after `READY=1`, shows the latest `STATUS=` line in `systemctl status`, and, with
/// `WatchdogSec=`, kills and restarts the process when `WATCHDOG=1` stops arriving. Outside
/// systemd (`NOTIFY_SOCKET` unset) every call is a cheap no-op, so callers never need to check.
package struct SystemdNotifier: Sendable {
    /// True when the service manager gave us a notification socket.
    package let isActive: Bool

    package init(environment: [String: String]) {
        isActive = !(environment["NOTIFY_SOCKET"] ?? "").isEmpty
    }

    /// Sends newline-separated `KEY=value` assignments; true when the manager received them.
    /// The environment is kept (`unset_environment` 0) so later calls still find the socket.
    @discardableResult
    package func notify(_ assignments: String) -> Bool {
        guard isActive else { return false }
        return sd_notify(0, assignments) > 0
    }

    /// `READY=1`: the config is loaded and the source and the MQTT session are started.
    @discardableResult
    package func ready(status: String) -> Bool { notify("READY=1\nSTATUS=\(Self.oneLine(status))") }

    /// `STATUS=`: the one-line health summary `systemctl status` shows.
    @discardableResult
    package func status(_ summary: String) -> Bool { notify("STATUS=\(Self.oneLine(summary))") }

    /// `RELOADING=1` while a SIGHUP reload runs; follow it with `ready(status:)`.
    @discardableResult
    package func reloading() -> Bool { notify("RELOADING=1") }

    /// `STOPPING=1`: shutdown has begun (outbox flush, `offline`, disconnect).
    @discardableResult
    package func stopping(status: String = "stopping") -> Bool {
        notify("STOPPING=1\nSTATUS=\(Self.oneLine(status))")
    }

    /// `WATCHDOG=1`: keep-alive. Send it only when the pipeline made progress (see `PipelineWatchdog`).
    @discardableResult
    package func watchdog() -> Bool { notify("WATCHDOG=1") }

    /// The keep-alive deadline systemd enforces for this process (`WatchdogSec=`, passed as
    /// `WATCHDOG_USEC` for our pid), or nil when the watchdog is off. Ping at half of it.
    package static func watchdogTimeout() -> Duration? {
        var usec: UInt64 = 0
        guard sd_watchdog_enabled(0, &usec) > 0, usec > 0 else { return nil }
        return .microseconds(Int64(clamping: usec))
    }

    /// A `STATUS=` value must stay on one line: a newline would start a new assignment.
    static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }
}
