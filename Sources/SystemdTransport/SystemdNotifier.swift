import Glibc

/// Tells systemd how the service is doing: the `sd_notify(3)` protocol, one datagram of
/// newline-separated `KEY=value` assignments to the AF_UNIX socket `NOTIFY_SOCKET` names. Spoken
/// here rather than through libsystemd, whose library and the six it links (libgcrypt, libzstd,
/// liblzma, …) were 0.8 MiB of a gateway's resident memory for these few lines.
///
/// With `Type=notify` (packaging/systemd/beacon2mqtt.service) systemd considers the unit started
/// only after `READY=1`, shows the latest `STATUS=` line in `systemctl status`, and, with
/// `WatchdogSec=`, kills and restarts the process when `WATCHDOG=1` stops arriving. Outside
/// systemd (`NOTIFY_SOCKET` unset) every call is a cheap no-op, so callers never need to check.
package struct SystemdNotifier: Sendable {
    /// The notification socket: a path, or `@name` in the abstract namespace.
    private let socketPath: String

    /// True when the service manager gave us a notification socket.
    package var isActive: Bool { !socketPath.isEmpty }

    package init(environment: [String: String]) {
        socketPath = environment["NOTIFY_SOCKET"] ?? ""
    }

    /// Sends newline-separated `KEY=value` assignments; true when the manager received them.
    @discardableResult
    package func notify(_ assignments: String) -> Bool {
        guard isActive else { return false }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var path = Array(socketPath.utf8)
        // `@name`: the abstract namespace, whose address starts with a NUL and has no terminator.
        if path.first == UInt8(ascii: "@") { path[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard path.count < capacity else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path) }
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \sockaddr_un.sun_path)! + path.count)
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        let message = Array(assignments.utf8)
        let sent = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { target in
                message.withUnsafeBytes { sendto(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL), target, length) }
            }
        }
        return sent == message.count
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
    /// `WATCHDOG_USEC`, and `WATCHDOG_PID` if set naming this process: sd_watchdog_enabled(3)), or
    /// nil when the watchdog is off. Ping at half of it.
    package static func watchdogTimeout() -> Duration? {
        guard let text = getenv("WATCHDOG_USEC").map({ String(cString: $0) }), let usec = Int64(text), usec > 0
        else { return nil }
        if let pid = getenv("WATCHDOG_PID").map({ String(cString: $0) }), Int32(pid) != getpid() { return nil }
        return .microseconds(usec)
    }

    /// A `STATUS=` value must stay on one line: a newline would start a new assignment.
    static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }
}
