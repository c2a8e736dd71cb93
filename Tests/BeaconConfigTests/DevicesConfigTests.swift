import BeaconCore
import BeaconWire
import Foundation
import Settings
import Testing
import Vocabulary

@testable import BeaconConfig

/// `devices:`: a name that is a topic level, and one of irk, irk_file or address; mistakes are
/// named file:line:column and never quote a key back.
@Suite struct DevicesConfigTests {
    static let hex = "ec0234a357c8ad05341010a60a397d9b"

    @Test func eachFormIsRead() throws {
        let c = try parse(
            """
            devices:
              - name: alice-phone
                irk: \(Self.hex)
                measured_power: -65
                exit_timeout: 45s
              - name: bobs-watch
                irk: "irk:QLFJviaipyjUYYFyd6wIxA=="
              - name: keys
                address: C1:02:03:04:05:06
            """)
        #expect(c.devices.count == 3)
        #expect(
            c.devices[0]
                == DeviceSettings(
                    name: "alice-phone", identification: .irk(IdentityResolvingKey(text: Self.hex)!),
                    measuredPower: -65,
                    exitTimeout: .seconds(45)))
        #expect(c.devices[1].identification == .irk(IdentityResolvingKey(text: "c408ac77728161d428a7a226be49b140")!))
        #expect(c.devices[2].identification == .address(BluetoothAddress("c1:02:03:04:05:06")!))
        #expect(c.devices[2].kind == .address && c.devices[0].kind == .irk)
    }

    @Test func theKeyCanComeFromAFile() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("irk-\(UUID().uuidString)")
        try "  \(Self.hex)  \nanything else\n".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let c = try parse("devices:\n  - name: p\n    irk_file: \(file.path)\n")
        #expect(c.devices.first?.identification == .irk(IdentityResolvingKey(text: Self.hex)!))
        #expect(c.devices.first?.irkFile == file.path)

        try "not a key\n".write(to: file, atomically: true, encoding: .utf8)
        let bad = failure("devices:\n  - name: p\n    irk_file: \(file.path)\n")
        #expect(
            bad?.hasPrefix("test.yaml:3:15: devices[0].irk_file: '\(file.path)' must hold an identity resolving key")
                == true, "\(bad ?? "")")
        let missing = failure("devices:\n  - name: p\n    irk_file: \(file.path).absent\n")
        #expect(
            missing
                == "test.yaml:3:15: devices[0].irk_file: cannot read '\(file.path).absent': No such file or directory")
    }

    @Test func mistakesNameTheirPlace() {
        let cases: [(String, String)] = [
            (
                "devices:\n  - irk: \(Self.hex)\n",
                "test.yaml:2:5: devices[0].name: is required (it names the device in topics)"
            ),
            ("devices:\n  - name: a/b\n    irk: \(Self.hex)\n", "test.yaml:2:11: devices[0].name:"),
            (
                "devices:\n  - name: p\n",
                "test.yaml:2:5: devices[0]: needs irk (its identity resolving key), irk_file or address"
            ),
            (
                "devices:\n  - name: p\n    irk: \(Self.hex)\n    address: c1:02:03:04:05:06\n",
                "test.yaml:4:14: devices[0].address: cannot be combined with irk"
            ),
            (
                "devices:\n  - name: p\n    irk: 0123\n",
                "test.yaml:3:10: devices[0].irk: must be an identity resolving key: 32 hex digits"
            ),
            (
                "devices:\n  - name: p\n    address: c1:02:03\n",
                "test.yaml:3:14: devices[0].address: must be a Bluetooth address like c1:02:03:04:05:06, found 'c1:02:03'"
            ),
            (
                "devices:\n  - name: p\n    irk: \(Self.hex)\n  - name: p\n    address: c1:02:03:04:05:06\n",
                "test.yaml:4:11: devices[1].name: 'p' is already used by devices[0] (line 2)"
            ),
            (
                "devices:\n  - name: p\n    irk: \(Self.hex)\n  - name: q\n    irk: irk:\(Self.hex)\n",
                "test.yaml:5:10: devices[1].irk: the same key as devices[0].irk (line 3)"
            ),
            (
                "devices:\n  - name: p\n    irk: \(Self.hex)\n    measured_power: 5\n",
                "test.yaml:4:21: devices[0].measured_power:"
            ),
            ("devices:\n  - name: p\n    irk: \(Self.hex)\n    key: x\n", "test.yaml:4:5: devices[0].key: unknown key"),
        ]
        for (yaml, expected) in cases {
            let found = failure(yaml)
            #expect(found?.hasPrefix(expected) == true, "\(found ?? "parsed")  ≠  \(expected)")
        }
    }

    @Test func aBadKeyIsNeverQuotedBack() {
        let almost = String(Self.hex.dropLast())
        let found = failure("devices:\n  - name: p\n    irk: \(almost)\n") ?? ""
        #expect(!found.contains(almost) && !found.isEmpty)
    }
}
