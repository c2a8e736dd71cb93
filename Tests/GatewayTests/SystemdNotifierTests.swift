import Foundation
import CLI
import Synchronization
import Testing

@testable import SystemdTransport

/// sd_notify(3) against a real AF_UNIX datagram socket bound by the test, the way systemd's
/// `NOTIFY_SOCKET` works. libsystemd reads `NOTIFY_SOCKET` and `WATCHDOG_*` from the process
/// environment, so these tests set it and run one at a time.
@Suite(.serialized) struct SystemdNotifierTests {
    @Test func readyStatusWatchdogAndStoppingReachTheNotifySocket() throws {
        try NotifySocket.with { socket, notifier in
            #expect(notifier.isActive)
            #expect(notifier.ready(status: "scanning hci0, broker connected"))
            #expect(socket.receive() == "READY=1\nSTATUS=scanning hci0, broker connected")
            #expect(notifier.status("degraded: adapter gone"))
            #expect(socket.receive() == "STATUS=degraded: adapter gone")
            #expect(notifier.watchdog())
            #expect(socket.receive() == "WATCHDOG=1")
            #expect(notifier.stopping())
            #expect(socket.receive() == "STOPPING=1\nSTATUS=stopping")
        }
    }

    @Test func aStatusLineWithNewlinesStaysOneAssignment() throws {
        try NotifySocket.with { socket, notifier in
            notifier.status("two\nlines")
            #expect(socket.receive() == "STATUS=two lines")
        }
    }

    @Test func withoutNotifySocketNothingIsSent() {
        let notifier = SystemdNotifier(environment: [:])
        #expect(!notifier.isActive)
        #expect(!notifier.ready(status: "x"))
        #expect(!notifier.watchdog())
    }

    @Test func theWatchdogPingsOnlyAfterPipelineProgress() throws {
        try NotifySocket.with { socket, notifier in
            let watchdog = PipelineWatchdog(notifier: notifier, timeout: .seconds(20))
            #expect(watchdog.pingInterval == .seconds(10))
            // A wedged pipeline (no turn) must not keep systemd's watchdog happy.
            #expect(!watchdog.pingIfProgressed())
            #expect(socket.receiveNow() == nil)
            watchdog.noteProgress()
            watchdog.noteProgress()
            #expect(watchdog.pingIfProgressed())
            #expect(socket.receive() == "WATCHDOG=1")
            #expect(!watchdog.pingIfProgressed())
            #expect(socket.receiveNow() == nil)
            watchdog.noteProgress()
            #expect(watchdog.pingIfProgressed())
            #expect(socket.receive() == "WATCHDOG=1")
        }
    }

    @Test func aLoopThatTurnsPingsOncePerPingInterval() throws {
        try NotifySocket.with { socket, notifier in
            let watchdog = PipelineWatchdog(notifier: notifier, timeout: .seconds(20))
            let t0 = ContinuousClock.now
            #expect(watchdog.loopTurned(at: t0))  // the first turn pings at once
            #expect(socket.receive() == "WATCHDOG=1")
            #expect(!watchdog.loopTurned(at: t0 + .seconds(1)))
            #expect(!watchdog.loopTurned(at: t0 + .seconds(9)))
            #expect(socket.receiveNow() == nil)
            #expect(watchdog.loopTurned(at: t0 + .seconds(10)))
            #expect(socket.receive() == "WATCHDOG=1")
        }
    }

    @Test func watchdogTimeoutComesFromWatchdogUsecForThisProcessOnly() throws {
        try NotifySocket.with { _, notifier in
            setenv("WATCHDOG_USEC", "30000000", 1)
            setenv("WATCHDOG_PID", String(getpid()), 1)
            defer {
                unsetenv("WATCHDOG_USEC")
                unsetenv("WATCHDOG_PID")
            }
            #expect(SystemdNotifier.watchdogTimeout() == .seconds(30))
            #expect(PipelineWatchdog(notifier: notifier)?.pingInterval == .seconds(15))
            // WATCHDOG_PID names another process (e.g. inherited by a child): not ours to feed.
            setenv("WATCHDOG_PID", String(getpid() + 1), 1)
            #expect(SystemdNotifier.watchdogTimeout() == nil)
            #expect(PipelineWatchdog(notifier: notifier) == nil)
        }
    }
}

/// A bound AF_UNIX SOCK_DGRAM socket standing in for systemd's notification socket.
final class NotifySocket {
    let fd: Int32
    let path: String

    /// Serializes the tests that point the process-wide `NOTIFY_SOCKET` at their own socket.
    static let environmentLock = Mutex(())

    init() throws {
        path = NSTemporaryDirectory() + "b2m-notify-\(UUID().uuidString.prefix(8)).sock"
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: path.utf8.prefix(raw.count - 1))
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        // A bound on the wait, so a missing datagram fails the test instead of hanging it.
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit {
        close(fd)
        unlink(path)
    }

    /// Runs `body` with `NOTIFY_SOCKET` pointing at a fresh socket.
    static func with(_ body: (NotifySocket, SystemdNotifier) throws -> Void) throws {
        try environmentLock.withLock { _ in
            let socket = try NotifySocket()
            setenv("NOTIFY_SOCKET", socket.path, 1)
            defer { unsetenv("NOTIFY_SOCKET") }
            try body(socket, SystemdNotifier(environment: ["NOTIFY_SOCKET": socket.path]))
        }
    }

    /// The next datagram, waiting up to the receive timeout.
    func receive() -> String? { read(flags: 0) }

    /// A datagram already queued, or nil without waiting.
    func receiveNow() -> String? { read(flags: Int32(MSG_DONTWAIT)) }

    private func read(flags: Int32) -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = recv(fd, &buffer, buffer.count, flags)
        guard n > 0 else { return nil }
        return String(decoding: buffer[..<n], as: UTF8.self)
    }
}
