import BeaconCore
import BeaconWire
import Foundation
import Settings
import Testing

@testable import BeaconConfig

/// `etc/beacon2mqtt.yaml` is documentation: it must parse to exactly the defaults, and show every
/// key the loader accepts.
@Suite struct ExampleFileTests {
    static let path = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("etc/beacon2mqtt.yaml").path

    private func text() throws -> String { try String(contentsOfFile: Self.path, encoding: .utf8) }

    /// The commented example blocks: the lines after each `# Example:` line up to the first line
    /// that is not a comment, with the leading `# ` removed.
    private func examples() throws -> String {
        var out: [String] = []
        var inside = false
        for line in try text().split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "# Example:" {
                inside = true
            } else if inside, line.hasPrefix("#") {
                out.append(String(line.dropFirst(line.hasPrefix("# ") ? 2 : 1)))
            } else {
                inside = false
            }
        }
        return out.joined(separator: "\n") + "\n"
    }

    @Test func parsesToExactlyTheDefaultsWithoutWarnings() throws {
        var found: [ConfigWarning] = []
        let config = try ConfigLoader.parse(yaml: try text(), file: Self.path, defaults: testDefaults, warnings: &found)
        var expected = Configuration()
        expected.gateway.id = "pi-hall"  // `id:` is left empty: the host name.
        #expect(config == expected)
        #expect(found.isEmpty, "\(found)")
    }

    @Test func loadReadsTheExampleFile() throws {
        let config = try ConfigLoader.load(path: Self.path, defaultGatewayID: "gw-7")
        #expect(config.gateway.id == "gw-7")
        #expect(config.mqtt == MQTTSettings())
    }

    @Test func commentedExamplesAreValidConfiguration() throws {
        // The example's irk_file, made real for the test.
        let irkFile = FileManager.default.temporaryDirectory.appendingPathComponent(
            "alice-phone-\(UUID().uuidString).irk")
        try "c408ac77728161d428a7a226be49b140\n".write(to: irkFile, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: irkFile) }
        let yaml = try examples().replacingOccurrences(of: "/etc/beacon2mqtt/alice-phone.irk", with: irkFile.path)
        let config = try ConfigLoader.parse(yaml: yaml, file: "examples", defaults: testDefaults)
        #expect(config.regions.map(\.name) == ["lobby", "warehouse"])
        #expect(config.regions.map(\.scheme) == [.uuid, .eddystone])
        #expect(config.beacons.map(\.name) == ["Keys", "Cart 7"])
        #expect(config.beacons[0].measuredPower == -61)
        #expect(config.devices.map(\.name) == ["alice-phone", "bobs-watch", "keys"])
        #expect(config.devices[0].irkFile == irkFile.path)
        #expect(
            config.devices[0].identification == .irk(IdentityResolvingKey(text: "c408ac77728161d428a7a226be49b140")!))
        // bobs-watch's base64 is the Core Spec's sample key, octets reversed.
        #expect(
            config.devices[1].identification == .irk(IdentityResolvingKey(text: "ec0234a357c8ad05341010a60a397d9b")!))
        #expect(config.devices[2].identification == .address(BluetoothAddress("c1:02:03:04:05:06")!))
        #expect(
            config.locator.foreignSources == [
                ForeignSource(
                    format: .espresense,
                    nodes: [
                        "kitchen": .init(
                            gateway: "esp-kitchen", floor: "1", room: "kitchen",
                            position: SitePosition(x: 4.5, y: 2, z: 1))
                    ])
            ])
    }

    @Test func everyAcceptedKeyAppearsInTheExampleFile() throws {
        let trees = [
            try YAMLDocumentParser(file: "etc").parse(Array(try text().utf8)),
            try YAMLDocumentParser(file: "examples").parse(Array(try examples().utf8)),
        ].compactMap { $0 }
        let paths = ConfigKeys.allPaths
        #expect(paths.count > 80)  // the table itself is walked, not a copy of it
        for path in paths {
            let components = path.split(separator: ".").map(String.init)
            #expect(
                trees.contains { Self.contains($0, components[...]) }, "\(path) is missing from etc/beacon2mqtt.yaml")
        }
    }

    /// Whether `node` has the key path; a `name[]` component matches any item of the list `name`.
    private static func contains(_ node: YAMLNode, _ path: ArraySlice<String>) -> Bool {
        guard let first = path.first else { return true }
        guard case .mapping(let pairs) = node.kind else { return false }
        let isList = first.hasSuffix("[]")
        let key = isList ? String(first.dropLast(2)) : first
        guard let value = pairs.first(where: { $0.key == key })?.value else { return false }
        guard isList else { return contains(value, path.dropFirst()) }
        guard case .sequence(let items) = value.kind else { return false }
        return items.contains { contains($0, path.dropFirst()) }
    }

    @Test func unknownKeysAreRefusedSoTheTableIsTheWholeTruth() {
        // Every section in the table rejects a key it does not list.
        // (Sections in a list are not reached by this nesting of mappings.)
        for section in ConfigKeys.sections.keys where !section.contains("[]") && !section.isEmpty {
            var yaml = ""
            var indent = ""
            for part in section.split(separator: ".") {
                yaml += "\(indent)\(part):\n"
                indent += "  "
            }
            yaml += "\(indent)zzz_not_a_key: 1\n"
            #expect(failure(yaml)?.contains("\(section).zzz_not_a_key: unknown key") == true, "\(section)")
        }
    }

    /// The other direction: a key listed in the table but never read would be silently ignored.
    /// Setting each key to a list of lists, which no key accepts, must fail at exactly that key.
    @Test func everyKeyInTheTableIsReadAndValidated() {
        let uuid = "e2c56db5dffb48d2b060d0f5a71096e0"
        let items: [String: [(String, String)]] = [
            "regions": [("name", "a"), ("uuid", uuid)],
            "beacons": [("uuid", uuid), ("major", "1"), ("minor", "2")],
            "devices": [("name", "p"), ("irk", "ec0234a357c8ad05341010a60a397d9b")],
            "foreign_sources": [("format", "espresense"), ("nodes", "[]")],
            "nodes": [("node", "n1")],
            "fingerprints": [("room", "hall"), ("rssi", "{a: [-50, 3, 0.5]}")],
        ]
        for path in ConfigKeys.allPaths {
            let parts = path.split(separator: ".").map(String.init)
            var yaml = "[[1]]"
            var expectedKey = path
            for part in parts.reversed() {
                if part.hasSuffix("[]"), let base = items[String(part.dropLast(2))] {
                    // `yaml` is `{key: [[1]]}` here; merge the item's identifying keys into it.
                    let key = String(yaml.dropFirst().prefix { $0 != ":" })
                    let others = base.filter { $0.0 != key }.map { "\($0.0): \($0.1)" }
                    yaml = "[{" + (others + [String(yaml.dropFirst().dropLast())]).joined(separator: ", ") + "}]"
                    expectedKey = expectedKey.replacingOccurrences(of: "[]", with: "[0]")
                    yaml = "{\(part.dropLast(2)): \(yaml)}"
                } else {
                    yaml = "{\(part): \(yaml)}"
                }
            }
            do {
                _ = try parse(yaml)
                Issue.record("\(path): [[1]] was accepted (\(yaml))")
            } catch {
                // A list key reports its first item, which is not a mapping.
                #expect([expectedKey, expectedKey + "[0]"].contains(error.key), "\(yaml) → \(error)")
            }
        }
    }
}
