import AgentCore
import BeaconCore
import BeaconWire
import Foundation
import GatewayPipeline
import MessageContract
import Settings
import Testing
import Vocabulary

@testable import CLI
@testable import CaptureTransport
@testable import IntegrationSupport
@testable import Platform

/// `record` writes what a live session delivered; reading the file back gives the same packets,
/// and `replay` of the file prints the messages the live session produced.
@Suite struct HCIRecordReplayTests {
    @Test func recordingOfALiveSessionReadsBackAsTheSamePacketsAndBeacons() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "hci-record-\(UUID().uuidString).btsnoop"
        ).path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let sink = RecordSink(try BtsnoopFile(path: path))
        let live = SourceRecorder()
        let h = SourceHarness(
            ScanConfiguration(mode: .passive),
            tee: {
                sink.handle($0)
                live.record($0)
            })
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

        // The messages the live session would have published (same engine, same gateway id as
        // `replay` without --config) equal what `replay --output jsonl` prints for the file.
        var config = Configuration()
        config.gateway.id = HostName.gatewayID()
        var pipeline = Pipeline(configuration: config)
        var messages: [OutboundMessage] = []
        for packet in delivered { pipeline.ingest(packet, into: &messages) }
        pipeline.finish(into: &messages)
        #expect(messages.contains { $0.kind == .event }, "the iBeacon entered")
        let replay = CapturedRun(["replay", path, "--output", "jsonl"])
        #expect(replay.code == .success)
        #expect(replay.stdout == messages.map { $0.jsonLine + "\n" }.joined())
    }
}
