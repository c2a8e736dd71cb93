import BeaconWire
import Foundation
import Testing

@testable import CLI
@testable import IntegrationSupport
@testable import Platform
@testable import Simulation

/// `beacon2mqtt advertise`: the dry run's bytes, their round trip through `decode --ad`, and usage errors.
@Suite struct AdvertiseCommandTests {
    static let iBeacon = [
        "advertise", "ibeacon", "--uuid", "e2c56db5-dffb-48d2-b060-d0f5a71096e0", "--major", "1", "--minor", "2",
    ]

    /// The dry run's advertising data and command packets.
    static func dryRun(_ arguments: [String]) throws -> (data: String, commands: [[UInt8]]) {
        let run = CapturedRun(arguments + ["--dry-run"])
        #expect(run.code == .success, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        let first = try #require(lines.first)
        #expect(first.hasPrefix("advertising_data: "))
        return (String(first.dropFirst("advertising_data: ".count)), lines.dropFirst().map { Hex.bytes($0) ?? [] })
    }

    /// `decode --ad <hex>`'s first beacon, as JSON.
    static func decoded(_ hex: String) throws -> [String: Any] {
        let run = CapturedRun(["decode", "--ad", hex])
        #expect(run.code == .success)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let beacons = try #require(object["beacons"] as? [[String: Any]])
        return try #require(beacons.first)
    }

    @Test func iBeaconDryRunPrintsTheDataAndTheLegacyCommandsTheDecoderReadsBack() throws {
        let (data, commands) = try Self.dryRun(Self.iBeacon + ["--measured-power", "-60", "--interval", "250ms"])
        #expect(data == "0201061aff4c000215e2c56db5dffb48d2b060d0f5a71096e0" + "0001" + "0002" + "c4")
        let beacon = try Self.decoded(data)
        #expect(beacon["type"] as? String == "ibeacon")
        #expect(beacon["uuid"] as? String == "e2c56db5-dffb-48d2-b060-d0f5a71096e0")
        #expect(beacon["major"] as? Int == 1 && beacon["minor"] as? Int == 2)
        #expect(beacon["measured_power"] as? Int == -60)
        // H4 type 01 first; supported commands, disable, parameters (400 × 0.625 ms), data, enable, then the stop.
        #expect(
            commands.map { Array($0.prefix(3)) } == [
                [0x01, 0x02, 0x10], [0x01, 0x0A, 0x20], [0x01, 0x06, 0x20], [0x01, 0x08, 0x20], [0x01, 0x0A, 0x20],
                [0x01, 0x0A, 0x20],
            ])
        #expect(
            commands[2] == [
                0x01, 0x06, 0x20, 0x0F, 0x90, 0x01, 0x90, 0x01, 0x03, 0x00, 0x00, 0, 0, 0, 0, 0, 0, 0x07, 0x00,
            ])
        #expect(commands[3].count == 4 + 32)
        #expect(commands[4] == [0x01, 0x0A, 0x20, 0x01, 0x01])
        #expect(commands[5] == [0x01, 0x0A, 0x20, 0x01, 0x00])
    }

    @Test func extendedDryRunUsesTheExtendedSetAndRemovesIt() throws {
        let (_, commands) = try Self.dryRun(
            Self.iBeacon + ["--extended", "--tx-power", "-8", "--address", "random-static"])
        #expect(
            commands.map { UInt16($0[1]) | UInt16($0[2]) << 8 } == [
                0x1002, 0x2039, 0x203C, 0x2036, 0x2035, 0x2037, 0x2039, 0x2039, 0x203C,
            ])
        // Own address type random, TX power −8 (0xF8).
        #expect(commands[3][4 + 10] == 0x01)
        #expect(commands[3][4 + 19] == 0xF8)
        // The random static address has its two top bits set (the last octet little-endian).
        #expect(commands[4][4 + 6] & 0xC0 == 0xC0)
    }

    /// Under 100 ms, the legacy set-up reads the controller's version first (a pre-5.0 controller
    /// gets 100 ms); connectable, or the extended set, does not.
    @Test func aShortNonConnectableIntervalReadsTheVersionFirst() throws {
        let opcodes = { (extra: [String]) throws -> [UInt16] in
            try Self.dryRun(Self.iBeacon + extra).commands.map { UInt16($0[1]) | UInt16($0[2]) << 8 }
        }
        #expect(try opcodes(["--interval", "20ms"]) == [0x1002, 0x1001, 0x200A, 0x2006, 0x2008, 0x200A, 0x200A])
        #expect(try !opcodes(["--interval", "20ms", "--connectable"]).contains(0x1001))
        #expect(try !opcodes(["--interval", "20ms", "--extended"]).contains(0x1001))
        #expect(try !opcodes(["--interval", "100ms"]).contains(0x1001))
    }

    @Test func everyFormatRoundTripsThroughDecode() throws {
        let alt = try Self.dryRun([
            "advertise", "altbeacon", "--id1", "2f234454-cf6d-4a0f-adf2-f4911ba9ffa6", "--id2", "0x0001", "--id3",
            "65535",
            "--company-id", "0x0118", "--reference-rssi", "-70",
        ])
        let altBeacon = try Self.decoded(alt.data)
        #expect(altBeacon["type"] as? String == "altbeacon")
        #expect(altBeacon["id1"] as? String == "2f234454-cf6d-4a0f-adf2-f4911ba9ffa6")
        #expect(
            altBeacon["id2"] as? Int == 1 && altBeacon["id3"] as? Int == 65535
                && altBeacon["reference_rssi"] as? Int == -70)
        #expect(alt.data.hasPrefix("0201061bff1801beac"))

        let uid = try Self.dryRun([
            "advertise", "eddystone-uid", "--namespace", "00112233445566778899", "--instance", "aabbccddeeff",
        ])
        #expect(uid.data == "0201060303aafe1716aafe00" + "ee" + "00112233445566778899aabbccddeeff0000")
        #expect(try Self.decoded(uid.data)["namespace"] as? String == "00112233445566778899")

        let url = try Self.dryRun(["advertise", "eddystone-url", "--url", "https://www.example.com/"])
        #expect(url.data == "0201060303aafe0e16aafe10" + "ee" + "01" + "6578616d706c65" + "00")
        let beacon = try Self.decoded(url.data)
        #expect(beacon["url"] as? String == "https://www.example.com/")
    }

    @Test(arguments: [
        [],
        ["ibeacon"],
        ["beacon", "--uuid", "x"],
        ["ibeacon", "--uuid", "not-a-uuid", "--major", "1", "--minor", "2"],
        ["ibeacon", "--uuid", "e2c56db5-dffb-48d2-b060-d0f5a71096e0", "--major", "65536", "--minor", "2"],
        ["ibeacon", "--uuid", "e2c56db5-dffb-48d2-b060-d0f5a71096e0", "--major", "-1", "--minor", "2"],
        ["ibeacon", "--uuid", "e2c56db5-dffb-48d2-b060-d0f5a71096e0", "--major", "1"],
        [
            "ibeacon", "--uuid", "e2c56db5-dffb-48d2-b060-d0f5a71096e0", "--major", "1", "--minor", "2",
            "--measured-power", "-129",
        ],
        [
            "ibeacon", "--uuid", "e2c56db5-dffb-48d2-b060-d0f5a71096e0", "--major", "1", "--minor", "2", "--url",
            "https://x",
        ],
        [
            "ibeacon", "--uuid", "e2c56db5-dffb-48d2-b060-d0f5a71096e0", "--major", "1", "--minor", "2", "--interval",
            "19ms",
        ],
        [
            "ibeacon", "--uuid", "e2c56db5-dffb-48d2-b060-d0f5a71096e0", "--major", "1", "--minor", "2", "--interval",
            "10.25s",
        ],
        [
            "ibeacon", "--uuid", "e2c56db5-dffb-48d2-b060-d0f5a71096e0", "--major", "1", "--minor", "2", "--interval",
            "100",
        ],
        [
            "ibeacon", "--uuid", "e2c56db5-dffb-48d2-b060-d0f5a71096e0", "--major", "1", "--minor", "2", "--tx-power",
            "21",
        ],
        [
            "ibeacon", "--uuid", "e2c56db5-dffb-48d2-b060-d0f5a71096e0", "--major", "1", "--minor", "2", "--address",
            "static",
        ],
        [
            "ibeacon", "--uuid", "e2c56db5-dffb-48d2-b060-d0f5a71096e0", "--major", "1", "--minor", "2", "--adapter",
            "usb0",
        ],
        ["ibeacon", "--uuid", "e2c56db5-dffb-48d2-b060-d0f5a71096e0", "--major", "1", "--minor", "2", "extra"],
        ["ibeacon", "--uuid", "e2c56db5-dffb-48d2-b060-d0f5a71096e0", "--major", "1", "--minor", "2", "--bogus"],
        [
            "altbeacon", "--id1", "2f234454-cf6d-4a0f-adf2-f4911ba9ffa6", "--id2", "1", "--id3", "2",
            "--measured-power", "-59",
        ],
        ["eddystone-uid", "--namespace", "0011223344556677889", "--instance", "aabbccddeeff"],
        ["eddystone-uid", "--namespace", "00112233445566778899", "--instance", "aabbccddeefg"],
        [
            "eddystone-uid", "--namespace", "00112233445566778899", "--instance", "aabbccddeeff", "--measured-power",
            "100",
        ],
        ["eddystone-url", "--url", "ftp://example.com"],
        ["eddystone-url", "--url", "https://an-address-far-too-long-for-eddystone.org"],
        ["eddystone-url", "--url", "https://exa mple.com"],
        ["eddystone-url"],
    ])
    func invalidArgumentsAreUsageErrors(arguments: [String]) {
        let run = CapturedRun(["advertise"] + arguments + ["--dry-run"])
        #expect(run.code == .usage, "\(arguments): \(run.stdout)")
        #expect(run.code.rawValue == 64)
        #expect(run.stderr.hasPrefix("Error: "))
        #expect(run.stderr.contains("Usage: beacon2mqtt advertise"))
        #expect(run.stdout.isEmpty)
    }

    @Test func extendedWithoutADryRunIsAUsageError() {
        let run = CapturedRun(Self.iBeacon + ["--extended"])
        #expect(run.code == .usage)
        #expect(run.stderr.contains("'--extended' only applies to --dry-run"))
    }

    /// Random arguments (seeded, so a failure reproduces): never a crash, always 0 or 64.
    @Test func fuzzedArgumentsEndInSuccessOrAUsageError() {
        var rng = SplitMix64(seed: 13)
        let words = [
            "ibeacon", "altbeacon", "eddystone-uid", "eddystone-url", "--uuid", "--major", "--minor",
            "--measured-power",
            "--id1", "--id2", "--id3", "--company-id", "--reference-rssi", "--namespace", "--instance", "--url",
            "--interval",
            "--tx-power", "--address", "--connectable", "--extended", "e2c56db5-dffb-48d2-b060-d0f5a71096e0", "1", "-1",
            "65535", "0x10000", "100ms", "20ms", "10.24s", "0", "public", "random-static", "https://a.com/", "ffff",
            "00112233445566778899", "aabbccddeeff", "", "=", "--", "-128", "127", "\u{0}", "é",
        ]
        for _ in 0..<400 {
            let count = Int(rng.next() % 9)
            let arguments = (0..<count).map { _ in words[Int(rng.next() % UInt64(words.count))] }
            let run = CapturedRun(["advertise"] + arguments + ["--dry-run"])
            #expect(run.code == .success || run.code == .usage, "\(arguments)")
            if run.code == .success { #expect(run.stdout.hasPrefix("advertising_data: 020106")) }
        }
    }
}
