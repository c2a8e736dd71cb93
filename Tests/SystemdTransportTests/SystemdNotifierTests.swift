import CLI
import Foundation
import Synchronization
import Testing

@testable import IntegrationSupport
@testable import SystemdTransport

/// sd_notify(3) against a real AF_UNIX datagram socket bound by the test, the way systemd's
/// `NOTIFY_SOCKET` works. `WATCHDOG_*` are read from the process
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

    /// `NOTIFY_SOCKET=@name`: a socket in the abstract namespace, as systemd may hand one over.
    @Test func anAbstractNotifySocketIsReached() throws {
        let name = "b2m-notify-abstract-\(getpid())"
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #expect(fd >= 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let path = [0] + Array(name.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path) }
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \sockaddr_un.sun_path)! + path.count)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        #expect(bound == 0)
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        #expect(SystemdNotifier(environment: ["NOTIFY_SOCKET": "@" + name]).ready(status: "up"))
        var buffer = [UInt8](repeating: 0, count: 256)
        let n = recv(fd, &buffer, buffer.count, 0)
        #expect(n > 0 && String(decoding: buffer[..<max(0, n)], as: UTF8.self) == "READY=1\nSTATUS=up")
        // A socket nobody bound: the notification is not received, and says so.
        #expect(!SystemdNotifier(environment: ["NOTIFY_SOCKET": "@" + name + "-absent"]).watchdog())
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
