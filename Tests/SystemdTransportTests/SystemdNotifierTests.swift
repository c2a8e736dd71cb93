import CLI
import Foundation
import Synchronization
import Testing

@testable import IntegrationSupport
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
