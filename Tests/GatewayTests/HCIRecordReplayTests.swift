import BeaconWire
import Foundation
import Testing

@testable import Gateway

/// `record` writes what a live session delivered; reading the file back gives the same packets,
/// and so the same reports and beacons (the input `replay` feeds to the pipeline).
@Suite struct HCIRecordReplayTests {
    @Test func recordingOfALiveSessionReadsBackAsTheSamePacketsAndBeacons() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("hci-record-\(UUID().uuidString).btsnoop").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let sink = RecordSink(try BtsnoopFile(path: path))
        let live = SourceRecorder()
        let h = SourceHarness(ScanConfiguration(mode: .passive), tee: { sink.handle($0); live.record($0) })
        h.fake.answerLegacySetUp()
        #expect(h.awaitHealth(count: 1))
        for _ in 0..<3 {
            h.fake.advertise()
            h.clock.advance(.milliseconds(250))
        }
        h.fake.send([0x04, 0x3E, 0x02, 0x01, 0x00])  // an LE Meta event without reports: kept, not a beacon
        #expect(waitUntil { live.packets(incoming: true).count == 4 + 3 + 1 })
        #expect(h.stopLegacyScan())
        let summary = sink.finish()
        #expect(summary.error == nil)

        let (packets, error) = CaptureReader.readAll(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(error == nil)
        #expect(summary.packets == packets.count)
        let delivered = live.allPackets
        #expect(packets == delivered, "same bytes, directions and timestamps")
        #expect(packets.filter { !$0.incoming }.count == 5, "4 set-up commands and the disable")
        let beacons = packets.flatMap(ScanSightings.decode)
        #expect(beacons == delivered.flatMap(ScanSightings.decode))
        #expect(beacons.count == 3)
    }

    @Test func sightingsComeFromIdentifiedBeaconsWithAnRSSI() throws {
        let packet = CapturedPacket(timestamp: Timestamp(microseconds: 0), bytes: HCIFakeController.iBeaconReport)
        let uuid = BeaconID128(uuidString: "e2c56db5-dffb-48d2-b060-d0f5a71096e0")!
        #expect(ScanSightings.decode(packet) == [.init(identity: .uuid(uuid, major: 1, minor: 2), rssi: -64)])
        var noRSSI = HCIFakeController.iBeaconReport
        noRSSI[noRSSI.count - 1] = 127
        #expect(ScanSightings.decode(CapturedPacket(timestamp: Timestamp(microseconds: 0), bytes: noRSSI)).isEmpty)
        let command = CapturedPacket(timestamp: Timestamp(microseconds: 0), bytes: HCICommand.reset.packet, incoming: false)
        #expect(ScanSightings.decode(command).isEmpty)
    }
}
