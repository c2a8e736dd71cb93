import CLI
import Foundation
import Testing

@testable import IntegrationSupport

/// `beacon2mqtt run` as a real child process under a fake service manager: `NOTIFY_SOCKET` is a
/// datagram socket bound by the test and `WATCHDOG_USEC` asks for keep-alives, as systemd sets
/// them for `Type=notify` with `WatchdogSec=`.
@Suite(.serialized) struct SystemdRunTests {
    @Test func runNotifiesReadyFeedsTheWatchdogAndSaysStopping() throws {
        let broker = try MosquittoBroker()
        let workspace = try Workspace(port: broker.port, gateway: "notify")
        let socket = try NotifySocket()
        var environment = ProcessInfo.processInfo.environment
        environment["NOTIFY_SOCKET"] = socket.path
        // 2 s: pings every second. WATCHDOG_PID is left unset, so it applies to the child.
        environment["WATCHDOG_USEC"] = "2000000"
        environment.removeValue(forKey: "WATCHDOG_PID")
        let agent = try ChildProcess(
            PackagePaths.binary, ["run", "--config", workspace.config, "--simulate"], output: workspace.log,
            environment: environment)

        var seen: [String] = []
        // Bounded: each receive waits at most 5 s, and at most 20 datagrams are read.
        for _ in 0..<20 {
            guard let datagram = socket.receive() else { break }
            seen.append(datagram)
            if seen.contains(where: { $0.hasPrefix("READY=1") }), seen.filter({ $0 == "WATCHDOG=1" }).count >= 2 {
                break
            }
        }
        let ready = try #require(seen.first { $0.hasPrefix("READY=1") }, "\(seen)\n\(workspace.logText)")
        #expect(ready.contains("\nSTATUS=scanning;"))
        #expect(seen.filter { $0 == "WATCHDOG=1" }.count >= 2, "\(seen)")

        agent.signal(SIGTERM)
        // Everything sent until the process has ended: STOPPING=1 exactly once (issue 17: twice).
        var afterSignal: [String] = []
        for _ in 0..<50 {
            guard let datagram = socket.receive() else { break }
            afterSignal.append(datagram)
            if datagram.hasPrefix("STOPPING=1") { break }
        }
        #expect(agent.wait(timeout: 15) == 0)
        while let datagram = socket.receiveNow() { afterSignal.append(datagram) }
        #expect(afterSignal.filter { $0.hasPrefix("STOPPING=1") }.count == 1, "\(afterSignal)")
    }
}
