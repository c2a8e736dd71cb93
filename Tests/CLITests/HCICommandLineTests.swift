import BeaconWire
import Foundation
import Testing
import Vocabulary

@testable import CLI
@testable import IntegrationSupport

/// The built binary on this machine's kernel, which has no AF_BLUETOOTH: every HCI command must
/// fail cleanly (a message, no stack trace, no hang) with exit 69.
@Suite struct HCICommandLineTests {
    static var kernelHasNoBluetooth: Bool {
        let fd = socket(AF_BLUETOOTH, Int32(SOCK_RAW.rawValue), 1)
        if fd >= 0 { close(fd) }
        return fd < 0 && errno == EAFNOSUPPORT
    }

    @Test(
        .enabled(if: kernelHasNoBluetooth, "needs a kernel without Bluetooth"),
        arguments: [
            ["adapters"], ["scan"], ["scan", "--adapter", "hci0", "--format", "jsonl"], ["record", "capture.btsnoop"],
        ])
    func failsWithExit69AndTheNoBluetoothMessage(arguments: [String]) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hci-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let args = arguments.map { $0.hasSuffix(".btsnoop") ? directory.appendingPathComponent($0).path : $0 }
        let result = try PackagePaths.run(args)
        #expect(result.code == 69)
        #expect(result.stderr.hasPrefix("Error: this kernel has no Bluetooth support"))
        #expect(result.stderr.split(separator: "\n").count == 1, "one clear line, no stack trace")
        #expect(result.stdout.isEmpty)
        // record must not leave an empty capture behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    @Test func badAdapterIsAUsageError() throws {
        let result = try PackagePaths.run(["scan", "--adapter", "bluetooth0"])
        #expect(result.code == 64)
        #expect(result.stderr.contains("'--adapter' takes hciN"))
    }

    @Test func recordParsesDurations() {
        #expect(RecordCommand.parseDuration("500ms") == .milliseconds(500))
        #expect(RecordCommand.parseDuration("30s") == .seconds(30))
        #expect(RecordCommand.parseDuration("5m") == .seconds(300))
        #expect(RecordCommand.parseDuration("2") == .seconds(2))
        #expect(RecordCommand.parseDuration("soon") == nil)
    }
}
