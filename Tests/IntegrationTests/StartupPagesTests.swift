import Foundation
import Testing

@testable import IntegrationSupport

/// `run` unmaps the read-only file pages only its start-up read (Sources/beacon2mqtt/StartupPages.swift).
@Suite struct StartupPagesTests {
    /// Resident and mapped KiB of the code of `pid`'s libraries whose file name begins with `library`.
    static func residentKiB(of library: String, pid: pid_t) -> (resident: Int, mapped: Int) {
        let smaps = BrokerSocket.procFile("/proc/\(pid)/smaps")
        var counting = false
        var result = (resident: 0, mapped: 0)
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ")
            if fields.count >= 5, fields[0].contains("-"), fields[1].count == 4 {
                counting = fields[1] == "r-xp" && (fields.last?.contains("/" + library) ?? false)
            } else if counting, fields.count >= 2, let kib = Int(fields[1]) {
                if fields[0] == "Rss:" { result.resident += kib }
                if fields[0] == "Size:" { result.mapped += kib }
            }
        }
        return result
    }

    /// libyaml's code runs once, to read the configuration: two seconds on, none of it is resident
    /// (its symbol tables may come back, for the loader's lazy binding), and the daemon runs on and
    /// stops cleanly.
    @Test func theConfigurationParserLeavesTheResidentSet() throws {
        let running = try Running()
        defer { running.subscriber.stop() }
        let library = "libyaml-0.so"
        Thread.sleep(forTimeInterval: 3)
        let after = Self.residentKiB(of: library, pid: running.agent.pid)
        #expect(after.mapped > 0, "\(library) is not mapped")
        #expect(after.resident == 0, "\(after.resident) KiB of \(library) resident")
        running.agent.signal(SIGTERM)
        #expect(running.agent.wait(timeout: 20) == 0, "\(running.workspace.logText.suffix(2000))")
    }

    /// The thread that unmaps them starts before `run` blocks its signals: a SIGTERM in the daemon's
    /// first second still ends it through the agent's shutdown (exit 0), not the signal's default.
    @Test func aSignalInTheFirstSecondsStopsTheAgentCleanly() throws {
        let running = try Running()
        defer { running.subscriber.stop() }
        running.agent.signal(SIGTERM)
        #expect(running.agent.wait(timeout: 20) == 0, "\(running.workspace.logText.suffix(2000))")
    }
}
