import BeaconCore
import BeaconWire
import Foundation
import IdentityCrypto
import Platform
import Testing
import Vocabulary

@testable import IntegrationSupport

/// A synthetic capture (Tests/Fixtures/synthetic, PROVENANCE.md there): a phone with a known IRK
/// rotates its resolvable private address three times among strangers' RPAs; `replay` must see one
/// enter, no exit at a rotation, and one exit at the end on the capture's clock.
@Suite struct DeviceCaptureTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/synthetic")
    static let capture = directory.appendingPathComponent("irk-rotation_btsnoop.log")
    /// The phone's key: the Core Spec's `ah` sample IRK.
    static let phoneKey = IdentityResolvingKey(text: "ec0234a357c8ad05341010a60a397d9b")!
    /// Its four addresses in turn (prand fixed, so the file is reproducible).
    static let phonePrands: [UInt32] = [0x70_8194, 0x5A_11C3, 0x4F_E002, 0x63_2B9D]
    /// 2026-12-01T12:00:00Z.
    static let start = Timestamp(microseconds: 1_796_126_400_000_000)

    /// The capture's packets: the phone every second for 30 s per address (120 s), and each second
    /// two reports from strangers (five keys nobody configured, a fresh address each), in time order.
    static func packets() -> [CapturedPacket] {
        let strangers = (0..<5).map { i in
            IdentityResolvingKey(high: 0x1111_1111_1111_1111 &* UInt64(i + 1), low: 0xABCD &+ UInt64(i))
        }
        let ad: [UInt8] = [0x02, 0x01, 0x1A, 0x07, 0xFF, 0x4C, 0x00, 0x10, 0x02, 0x0B, 0x00]
        var out: [CapturedPacket] = []
        for second in 0..<120 {
            let t = start + TimeSpan(microseconds: Int64(second) * 1_000_000)
            let phone = ResolvablePrivateAddress.make(key: phoneKey, prand: phonePrands[second / 30])
            out.append(
                CapturedPacket(
                    timestamp: t,
                    bytes: AdvertisingReportEvent.bytes(
                        address: phone, addressType: 1, eventType: 0, data: ad, rssi: Int8(-55 - second % 7))))
            for k in 0..<2 {
                let key = strangers[(second + k) % strangers.count]
                let stranger = ResolvablePrivateAddress.make(
                    key: key, prand: UInt32(second * 2 + k) &* 0x9E37 & 0x3F_FFFF)
                out.append(
                    CapturedPacket(
                        timestamp: t + TimeSpan(microseconds: Int64(k + 1) * 250_000),
                        bytes: AdvertisingReportEvent.bytes(
                            address: stranger, addressType: 1, eventType: 0, data: ad, rssi: -80)))
            }
        }
        return out
    }

    static func fileBytes() -> [UInt8] { BtsnoopWriter.fileHeader() + packets().flatMap(BtsnoopWriter.record) }

    /// The committed file is what the generator above writes (regenerate: BEACON2MQTT_WRITE_FIXTURES=1).
    @Test func theCommittedCaptureIsTheGeneratedOne() throws {
        if ProcessInfo.processInfo.environment["BEACON2MQTT_WRITE_FIXTURES"] == "1" {
            try Data(Self.fileBytes()).write(to: Self.capture)
        }
        #expect(Array(try Data(contentsOf: Self.capture)) == Self.fileBytes())
    }

    @Test func thePhoneEntersOnceAndExitsOnceOnTheCapturesClock() throws {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("irk-\(UUID().uuidString).yaml")
        try """
        gateway:
          id: gw1
        devices:
          - name: alice-phone
            irk: \(Self.phoneKey.hex)
            exit_timeout: 15s
        """.write(to: config, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: config) }

        let run = CapturedRun(["replay", Self.capture.path, "--config", config.path, "--output", "jsonl"])
        #expect(run.code == .success, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        let events = lines.filter { $0.contains(#""topic":"beacons/devices/alice-phone/gw1/event""#) }
        #expect(events.count == 2, "\(events)")
        #expect(events.first?.contains(#""event":"enter""#) == true)
        #expect(events.first?.contains(#""address":"70:81:94:0d:fb:aa""#) == true)
        #expect(events.first?.contains(#""timestamp":"2026-12-01T12:00:00.000Z""#) == true)
        // The last report is at 12:01:59 from the fourth address; the exit 15 s after it.
        let last = ResolvablePrivateAddress.make(key: Self.phoneKey, prand: Self.phonePrands[3])
        #expect(events.last?.contains(#""event":"exit""#) == true)
        #expect(events.last?.contains(#""address":"\#(last)""#) == true)
        #expect(events.last?.contains(#""timestamp":"2026-12-01T12:02:14.000Z""#) == true)
        // Nothing of the strangers: every topic is the phone's (or the gateway's).
        #expect(lines.allSatisfy { $0.contains(#""topic":"beacons/devices/alice-phone/gw1/"#) }, "\(lines.prefix(3))")
        #expect(run.stderr.contains("120 device reports, 240 unresolved private addresses"), "\(run.stderr)")
        #expect(run.stderr.contains("(1 enter, 1 exit,"), "\(run.stderr)")
    }
}
