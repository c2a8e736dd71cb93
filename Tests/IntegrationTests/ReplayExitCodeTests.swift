import Foundation
import Testing

@testable import IntegrationSupport
@testable import Platform

/// `replay FILE` and `run --replay FILE` give one file one exit code, the one the man page's
/// EXIT STATUS names: 66 a file that cannot be read or is not a capture (no container header is
/// recognised), 65 a capture damaged after its header.
@Suite struct ReplayExitCodeTests {
    /// Bytes the reader recognises no capture in, or only the start of a container's header.
    static let notCaptures: [(name: String, bytes: [UInt8])] = [
        ("text", Array("hello\n".utf8)),
        ("half-btsnoop-header", Array("btsnoop\0".utf8) + [0, 0]),
    ]

    static func exitCodes(_ path: String) throws -> (replay: Int32?, run: Int32?) {
        let workspace = try Workspace(port: try MosquittoBroker.freePort())
        let replay = try ChildProcess(PackagePaths.binary, ["replay", path, "--output", "none"])
        let run = try workspace.start(["--replay", path, "--speed", "max"])
        return (replay.wait(timeout: 20), run.wait(timeout: 20))
    }

    @Test(arguments: notCaptures.map(\.name))
    func aFileThatIsNotACaptureExits66FromBothCommands(name: String) throws {
        let bytes = Self.notCaptures.first { $0.name == name }!.bytes
        let path = NSTemporaryDirectory() + "b2m-not-a-capture-\(UUID().uuidString)"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let codes = try Self.exitCodes(path)
        #expect(codes.replay == ExitCode.noInput.rawValue)
        #expect(codes.run == ExitCode.noInput.rawValue)
    }

    @Test func aMissingFileExits66AndADamagedOneExits65FromBothCommands() throws {
        let missing = try Self.exitCodes("/nonexistent/b2m-\(UUID().uuidString).log")
        #expect(missing.replay == ExitCode.noInput.rawValue)
        #expect(missing.run == ExitCode.noInput.rawValue)

        let source = PackagePaths.captures.appendingPathComponent(
            "csacca-horizon74_legacy-scanrsp-ibeacon_btsnoop_hci.log")
        let bytes = try Data(contentsOf: source)
        let path = NSTemporaryDirectory() + "b2m-damaged-\(UUID().uuidString).log"
        try bytes.prefix(20_003).write(to: URL(fileURLWithPath: path))  // 3 bytes into record 374
        defer { try? FileManager.default.removeItem(atPath: path) }
        let damaged = try Self.exitCodes(path)
        #expect(damaged.replay == ExitCode.dataError.rawValue)
        #expect(damaged.run == ExitCode.dataError.rawValue)
    }
}
