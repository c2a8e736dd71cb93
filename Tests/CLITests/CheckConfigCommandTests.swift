import CLI
import Foundation
import Testing

@testable import IntegrationSupport
@testable import Platform

@Suite struct CheckConfigCommandTests {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func temporaryFile(_ text: String) throws -> String {
        let path = NSTemporaryDirectory() + "b2m-config-\(UUID().uuidString).yaml"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func theShippedExampleConfigIsValid() {
        let path = Self.repo.appendingPathComponent("etc/beacon2mqtt.yaml").path
        let run = CapturedRun(["check-config", path])
        #expect(run.code == .success, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("\(path): OK"))
    }

    /// The summary names every broker the daemons try, the failover ones after `mqtt.host`.
    @Test func theSummaryNamesTheFailoverBrokers() throws {
        let path = try Self.temporaryFile(
            "mqtt:\n  host: one.lan\n  port: 1884\n  failover: [\"two.lan\", \"three.lan:1885\"]\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = CapturedRun(["check-config", path])
        #expect(run.code == .success, "\(run.stderr)")
        #expect(run.stdout.contains("broker one.lan:1884 (failover two.lan:1884, three.lan:1885), "), "\(run.stdout)")
    }

    @Test func aBadValueExits78NamingFileLineColumnAndKey() throws {
        let path = try Self.temporaryFile("mqtt:\n  host: broker\n  port: 99999\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = CapturedRun(["check-config", path])
        #expect(run.code == .config)
        #expect(run.code.rawValue == 78)
        #expect(run.stderr.hasPrefix("\(path):3:9: mqtt.port: "))
        #expect(run.stdout.isEmpty)
    }

    /// A mistake in the site plan the configuration names is the configuration's: exit 78, the
    /// plan's file and line.
    @Test func aBadSitePlanExits78NamingThePlansLine() throws {
        let plan = try Self.temporaryFile(
            "gateways:\n  - {id: a, floor: \"1\", x: 0, y: 0}\nrooms:\n  - {floor: \"1\", name: hall, points: [[0, 0], [1, 0]]}\n"
        )
        let config = try Self.temporaryFile("locator:\n  site_plan: \(plan)\n")
        defer { for p in [plan, config] { try? FileManager.default.removeItem(atPath: p) } }
        let run = CapturedRun(["check-config", config])
        #expect(run.code.rawValue == 78)
        #expect(run.stderr.hasPrefix("\(plan):4:38: rooms[0].points: expected at least 3 points"), "\(run.stderr)")
        let example = Self.repo.appendingPathComponent("bench/realdata/kolakowski_flat/site-plan.yaml").path
        let good = try Self.temporaryFile("locator:\n  site_plan: \(example)\n")
        defer { try? FileManager.default.removeItem(atPath: good) }
        #expect(CapturedRun(["check-config", good]).code == .success)
    }

    @Test func aMissingFileExits78() {
        let run = CapturedRun(["check-config", "/nonexistent/beacon2mqtt.yaml"])
        #expect(run.code == .config)
        #expect(run.stderr.contains("/nonexistent/beacon2mqtt.yaml: cannot read"))
    }

    @Test func warningsArePrintedButTheFileIsValid() throws {
        let path = try Self.temporaryFile("mqtt:\n  tls:\n    enabled: true\n    insecure: true\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = CapturedRun(["check-config", path])
        #expect(run.code == .success)
        #expect(run.stderr.contains("warning: \(path):4:"))
    }

    @Test func extraArgumentsAreUsageErrors() {
        #expect(CapturedRun(["check-config", "a", "b"]).code == .usage)
        #expect(CapturedRun(["check-config", "a", "--as-user"]).code == .usage)
    }

    /// Without a file it checks the one run and locate read (issue 34); where that is absent, it
    /// says run starts with the built-in defaults, as run does.
    @Test func withoutAFileItChecksTheDefaultPath() {
        let run = CapturedRun(["check-config"])
        if FileManager.default.fileExists(atPath: "/etc/beacon2mqtt/beacon2mqtt.yaml") {
            #expect(
                run.stdout.hasPrefix("/etc/beacon2mqtt/beacon2mqtt.yaml: ") || run.code != .success, "\(run.stderr)")
        } else {
            #expect(run.code == .success, "\(run.stderr)")
            #expect(
                run.stdout.hasPrefix(
                    "/etc/beacon2mqtt/beacon2mqtt.yaml: no such file; run uses the built-in defaults — gateway "),
                "\(run.stdout)")
        }
    }
}
