import BeaconCore
import BeaconWire
import Foundation
import Settings
import Synchronization
import Testing
import Vocabulary

@testable import CLI
@testable import HCITransport
@testable import IntegrationSupport
@testable import Platform

/// `scan`/`record` settings: command line over configuration file over defaults.
@Suite struct HCILiveScanOptionsTests {
    /// Collects what a command prints on stderr.
    final class ErrorText: Sendable {
        private let text = Mutex("")
        var value: String { text.withLock { $0 } }
        var context: CommandContext {
            CommandContext(environment: [:], stdout: { _ in }, stderr: { line in self.text.withLock { $0 += line } })
        }
    }

    static func options(_ args: [String]) throws -> LiveScanOptions {
        var arguments = Arguments(args)
        let options = try LiveScanOptions(&arguments)
        try arguments.finish()
        return options
    }

    @Test func defaultsWithoutAConfigurationUseTheCommandsMode() throws {
        let errors = ErrorText()
        let resolved = try #require(try Self.options([]).resolve(defaultMode: .active, context: errors.context))
        #expect(resolved.selection == .auto)
        #expect(resolved.scan.mode == .active)
        #expect(resolved.configuration.beacons.isEmpty)
        #expect(resolved.configuration.gateway.id == HostName.gatewayID())
    }

    @Test func configurationSuppliesAdapterModeAndNamesAndTheCommandLineWins() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "hci-options-\(UUID().uuidString).yaml"
        ).path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let yaml = """
            scanner:
              adapter: 00:1a:7d:da:71:13
              mode: listen
              watchdog: 45s
            beacons:
              - uuid: e2c56db5-dffb-48d2-b060-d0f5a71096e0
                major: 1
                minor: 2
                name: Keys

            """
        try yaml.write(toFile: path, atomically: true, encoding: .utf8)
        let errors = ErrorText()
        let fromFile = try #require(
            try Self.options(["--config", path]).resolve(defaultMode: .active, context: errors.context))
        #expect(fromFile.selection == .address(BluetoothAddress("00:1a:7d:da:71:13")!))
        #expect(fromFile.scan.mode == .listen)
        #expect(fromFile.scan.watchdog == .seconds(45))
        let uuid = BeaconID128(uuidString: "e2c56db5-dffb-48d2-b060-d0f5a71096e0")!
        #expect(fromFile.configuration.beacons.map(\.identity) == [.uuid(uuid, major: 1, minor: 2)])
        #expect(fromFile.configuration.beacons.map(\.name) == ["Keys"])

        let overridden = try #require(
            try Self.options(["--config", path, "--adapter", "hci1", "--mode", "passive"])
                .resolve(defaultMode: .active, context: errors.context))
        #expect(overridden.selection == .index(1))
        #expect(overridden.scan.mode == .passive)
        #expect(errors.value.isEmpty)
    }

    @Test func unreadableConfigurationIsReportedAndRefused() throws {
        let errors = ErrorText()
        let resolved = try Self.options(["--config", "/nonexistent/beacon2mqtt.yaml"])
            .resolve(defaultMode: .active, context: errors.context)
        #expect(resolved == nil)
        #expect(errors.value.contains("/nonexistent/beacon2mqtt.yaml"))
    }

    @Test func badAdapterAndModeAreUsageErrors() {
        #expect(throws: UsageError.self) { try Self.options(["--adapter", "usb0"]) }
        #expect(throws: UsageError.self) { try Self.options(["--mode", "aggressive"]) }
    }
}
