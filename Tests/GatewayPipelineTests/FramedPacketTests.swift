import BeaconWire
import GatewayPipeline
import MessageContract
import TestFixtures
import Testing
import Vocabulary

/// Each packet is framed once. The live source frames every event for its scan procedure and
/// marks an LE Meta event that framed (`PacketView.isFramedLEMetaEvent`); the pipeline reads a
/// marked packet's reports without framing it again, and frames an unmarked one (a replay's)
/// itself, counting what is malformed.
@Suite struct FramedPacketTests {
    /// `packets` through one batch into a pipeline, each marked as `marked` says.
    static func ingest(
        _ packets: [CapturedPacket], marked: (CapturedPacket) -> Bool
    ) -> (counters: PipelineCounters, messages: [OutboundMessage]) {
        var batch = PacketBatch()
        for p in packets {
            p.bytes.withUnsafeBytes {
                batch.append(timestamp: p.timestamp, incoming: p.incoming, bytes: $0, framedLEMetaEvent: marked(p))
            }
        }
        var pipeline = Pipeline(configuration: TelemetryMessageTests.config())
        var out: [OutboundMessage] = []
        batch.withPackets(from: 0) { cursor in
            while let packet = cursor.next() { pipeline.ingest(packet, into: &out) }
        }
        pipeline.finish(into: &out)
        return (pipeline.counters, out)
    }

    /// The live source's rule: what `controllerEvent` frames as an LE Meta event.
    static func framesAsLEMeta(_ packet: CapturedPacket) -> Bool {
        guard packet.incoming, case .leMeta? = try? HCIPacketDecoder.controllerEvent(packet.bytes) else { return false }
        return true
    }

    @Test func aMarkedPacketIsNotFramedAgain() {
        // Its indicator spoiled: framed again, it would be no H4 packet at all.
        var packet = TelemetryMessageTests.packet(TelemetryMessageTests.uid, at: 0)
        packet.bytes[0] = 0xFF
        let marked = Self.ingest([packet]) { _ in true }.counters
        #expect(marked.beacons == 1 && marked.advertisingEvents == 1 && marked.malformed == 0)
        let unmarked = Self.ingest([packet]) { _ in false }.counters
        #expect(unmarked.beacons == 0 && unmarked.advertisingEvents == 0 && unmarked.malformed == 1)
    }

    /// A live stream, marked as the source marks it, gives the messages and counters its replay
    /// gives: malformed packets are counted and skipped alike.
    @Test func markedPacketsPublishAndCountAsTheirReplay() {
        let uid = TelemetryMessageTests.uid
        let tlm = TelemetryMessageTests.tlm(millivolts: 2400, temperature: 0x1500)
        var truncated = TelemetryMessageTests.packet(uid, at: 0.3)
        truncated.bytes[2] += 1
        var overlong = TelemetryMessageTests.packet(uid, at: 0.4)
        overlong.bytes[2] -= 1
        let packets = [
            TelemetryMessageTests.packet(uid, at: 0),
            TelemetryMessageTests.packet(uid, at: 0.1),
            TelemetryMessageTests.packet(tlm, at: 0.2),
            truncated, overlong,
            // An LE Meta event with no reports (subevent 0x14), a command complete, a command sent.
            CapturedPacket(timestamp: Fixtures.at(0.5), bytes: [0x04, 0x3E, 0x01, 0x14]),
            CapturedPacket(timestamp: Fixtures.at(0.6), bytes: [0x04, 0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00]),
            CapturedPacket(timestamp: Fixtures.at(0.7), bytes: [0x01, 0x03, 0x0C, 0x00], incoming: false),
            TelemetryMessageTests.packet(uid, at: 61),
        ]
        #expect(packets.map(Self.framesAsLEMeta) == [true, true, true, false, false, true, false, false, true])
        let live = Self.ingest(packets, marked: Self.framesAsLEMeta)
        let replay = Self.ingest(packets) { _ in false }
        #expect(live.counters == replay.counters)
        #expect(live.messages == replay.messages)
        #expect(live.counters.malformed == 2 && live.counters.otherPackets == 2 && live.counters.beacons == 4)
        #expect(!live.messages.of(.telemetry).isEmpty)
    }
}
