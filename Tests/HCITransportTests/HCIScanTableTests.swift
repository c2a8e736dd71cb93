import BeaconCore
import BeaconWire
import Foundation
import GatewayPipeline
import MessageContract
import Settings
import Testing
import Vocabulary

@testable import CLI
@testable import IntegrationSupport

@Suite struct HCIScanTableTests {
    static let uuid = BeaconID128(uuidString: "e2c56db5-dffb-48d2-b060-d0f5a71096e0")!
    static let t0 = Timestamp(microseconds: 1_714_564_800_000_000)  // 2024-05-01T12:00:00Z

    /// The engine's tracked beacons, fed with the fake controller's iBeacon (1/2, RSSI −64, power −59).
    @Test func viewTakesEngineFieldsAndMeasuresSightingsPerSecond() {
        var config = Configuration()
        let keys = BeaconIdentity.uuid(Self.uuid, major: 1, minor: 2)
        config.beacons = [BeaconOverride(identity: keys, name: "Keys")]
        var pipeline = Pipeline(configuration: config)
        var messages: [OutboundMessage] = []
        for i in 0..<20 {
            let packet = CapturedPacket(
                timestamp: Self.t0 + .milliseconds(500) * Int64(i), bytes: HCIFakeController.iBeaconReport)
            pipeline.ingest(packet, into: &messages)
        }
        pipeline.advance(to: Self.t0 + .seconds(10), into: &messages)
        var view = ScanView(rateWindow: .seconds(10), staleAfter: .seconds(5))
        let rows = view.rows(pipeline.trackedBeacons, now: Self.t0 + .seconds(10))
        #expect(rows.count == 1)
        #expect(rows.first?.identity == keys)
        #expect(rows.first?.name == "Keys")
        #expect(rows.first?.rssi == -64)
        #expect(rows.first?.seenPerSecond == 2.0, "20 sightings since first seen 10 s ago")
        let accuracy = rows.first?.accuracy ?? -1
        #expect(accuracy > 0)
        #expect(rows.first?.proximity == Proximity(accuracy: accuracy, thresholds: config.ranging.proximity).rawValue)
        // Two more sightings in the next second: the rate follows the growth of the count.
        for i in 0..<2 {
            let packet = CapturedPacket(
                timestamp: Self.t0 + .seconds(10) + .milliseconds(500) * Int64(i),
                bytes: HCIFakeController.iBeaconReport)
            pipeline.ingest(packet, into: &messages)
        }
        pipeline.advance(to: Self.t0 + .seconds(11), into: &messages)
        #expect(view.rows(pipeline.trackedBeacons, now: Self.t0 + .seconds(11)).first?.seenPerSecond == 2.0)
        // Silent beyond stale_after: out of the table.
        pipeline.advance(to: Self.t0 + .seconds(17), into: &messages)
        #expect(view.rows(pipeline.trackedBeacons, now: Self.t0 + .seconds(17)).isEmpty)
    }

    @Test func textTableAlignsColumnsAndShowsDashesForWhatIsUnknown() {
        let row = ScanTableRow(
            identity: .uuid(Self.uuid, major: 1, minor: 2), name: "desk", rssi: -61, filteredRSSI: -62.25,
            accuracy: 1.2,
            proximity: "near", batteryMillivolts: 2925, seenPerSecond: 3, lastSeen: Self.t0)
        let bare = ScanTableRow(
            identity: .eddystone(BeaconID128(high: 0x0102_0304_0506_0708, low: 0x090A_0B0C_0D0E_0F10)),
            rssi: -90, seenPerSecond: 0.5, lastSeen: Self.t0 - .milliseconds(1500))
        let text = ScanTable.text([row, bare], now: Self.t0 + .milliseconds(200), title: "T")
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines[0] == "T")
        #expect(lines[1].hasPrefix("ID "))
        #expect(lines[2].hasPrefix("e2c56db5-dffb-48d2-b060-d0f5a71096e0  1/2"))
        #expect(
            lines[2].contains("desk") && lines[2].contains("-62.3") && lines[2].contains("1.2 m")
                && lines[2].contains("near"))
        #expect(lines[2].hasSuffix("0.2 s ago"))
        let batteryEnd = lines[1].range(of: "BATTERY")!.upperBound.utf16Offset(in: lines[1])
        #expect(String(lines[2].prefix(batteryEnd)).hasSuffix(" 2925 mV"), "right-aligned under BATTERY")
        #expect(String(lines[3].prefix(batteryEnd)).hasSuffix(" -"), "no TLM: a dash")
        // The ID column is as wide as the UUID; the Eddystone namespace is padded to it.
        #expect(lines[3].hasPrefix("0102030405060708090a" + String(repeating: " ", count: 18) + "0b0c0d0e0f10  -"))
        #expect(lines[3].hasSuffix("1.7 s ago"))
        // Numbers are right-aligned under their header.
        let rssiEnd = lines[1].range(of: "RSSI")!.upperBound.utf16Offset(in: lines[1])
        #expect(String(lines[2].prefix(rssiEnd)).hasSuffix(" -61"))
        #expect(String(lines[3].prefix(rssiEnd)).hasSuffix(" -90"))
        #expect(ScanTable.text([], now: Self.t0, title: "T").contains("(no beacons in range yet)"))
    }

    /// The battery column comes from the TLM the pipeline attached to the beacon by address.
    @Test func batteryComesFromTheTLMOfTheBeaconsAddress() {
        var pipeline = Pipeline(configuration: Configuration())
        var messages: [OutboundMessage] = []
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/captures/goodystone-estimote-eddystone_hcidump-raw.txt")
        let bytes = Array((try? Data(contentsOf: fixtures)) ?? Data())
        guard var reader = try? CaptureReader(bytes) else {
            Issue.record("capture unreadable")
            return
        }
        var last = Self.t0
        while let packet = try? reader.next() {
            // Re-timed to now: the hcidump text carries no times.
            last = Self.t0 + (packet.timestamp - Timestamp(microseconds: 0))
            pipeline.ingest(CapturedPacket(timestamp: last, bytes: packet.bytes), into: &messages)
        }
        var view = ScanView()
        let tracked = pipeline.trackedBeacons
        let rows = view.rows(tracked, batteries: pipeline.batteries(of: tracked.map(\.identity)), now: last)
        #expect(rows.count == 1)
        #expect(rows.first?.batteryMillivolts == 2925)
        #expect(ScanTable.text(rows, now: last, title: "T").contains("2925 mV"))
    }

    @Test func jsonLinesCarryOneObjectPerBeacon() {
        let row = ScanTableRow(
            identity: .uuid(Self.uuid, major: 1, minor: 2), rssi: -61, seenPerSecond: 3, lastSeen: Self.t0)
        let noRSSI = ScanTableRow(
            identity: .uuid(Self.uuid, major: 1, minor: 3), rssi: nil, seenPerSecond: 0.5, lastSeen: Self.t0)
        #expect(ScanTable.jsonLines([noRSSI], now: Self.t0).contains(#""rssi":null"#))
        #expect(
            ScanTable.jsonLines([row], now: Self.t0) == """
                {"time":"2024-05-01T12:00:00.000Z","uuid":"e2c56db5-dffb-48d2-b060-d0f5a71096e0","major":1,"minor":2,\
                "name":null,"rssi":-61,"rssi_filtered":null,"accuracy":null,"proximity":null,"battery_mv":null,"seen_per_second":3,\
                "last_seen":"2024-05-01T12:00:00.000Z"}

                """)
    }
}
