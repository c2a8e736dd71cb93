import Foundation
import CLI
import Testing

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

    @Test func aBadValueExits78NamingFileLineColumnAndKey() throws {
        let path = try Self.temporaryFile("mqtt:\n  host: broker\n  port: 99999\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = CapturedRun(["check-config", path])
        #expect(run.code == .config)
        #expect(run.code.rawValue == 78)
        #expect(run.stderr.hasPrefix("\(path):3:9: mqtt.port: "))
        #expect(run.stdout.isEmpty)
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

    @Test func missingOrExtraArgumentsAreUsageErrors() {
        #expect(CapturedRun(["check-config"]).code == .usage)
        #expect(CapturedRun(["check-config", "a", "b"]).code == .usage)
    }

    /// check-config warns about a world-readable secret as run does (issue 17: it said OK silently).
    @Test func aWorldReadablePasswordOrKeyFileIsWarnedAboutLikeRunDoes() throws {
        let directory = NSTemporaryDirectory() + "b2m-secrets-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let password = directory + "/password"
        try "s3cr3t\n".write(toFile: password, atomically: true, encoding: .utf8)
        let config = try Self.temporaryFile("mqtt:\n  username: gw\n  password_file: \(password)\n")
        defer { try? FileManager.default.removeItem(atPath: config) }

        chmod(password, 0o644)
        let open = CapturedRun(["check-config", config])
        #expect(open.code == .success)
        #expect(open.stderr.contains("warning: secret file is world-readable; chmod 600 it"), "\(open.stderr)")
        #expect(open.stderr.contains(password))
        #expect(!open.stderr.contains("s3cr3t"))

        chmod(password, 0o600)
        let closed = CapturedRun(["check-config", config])
        #expect(closed.code == .success)
        #expect(!closed.stderr.contains("world-readable"), "\(closed.stderr)")
    }
}
