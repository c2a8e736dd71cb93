import BeaconCore
import BeaconWire
import CLI
import Foundation
import Testing
import Vocabulary

@testable import IntegrationSupport

/// `run --replay FILE --speed max` publishes, through a real broker, exactly the messages that
/// `replay FILE --output jsonl` prints; and a restarted agent emits no spurious events.
@Suite(.serialized) struct RunReplayTests {
    static let captures = PackagePaths.root.appendingPathComponent("Tests/Fixtures/captures")

    /// One message as comparable text: topic, QoS, retain, and the payload (JSON re-serialised with
    /// sorted keys so formatting cannot matter).
    static func canonical(topic: String, payload: Any, qos: Int, retain: Bool) -> String {
        let text: String
        if let string = payload as? String {
            text = "\"\(string)\""
        } else {
            let data = try! JSONSerialization.data(withJSONObject: payload, options: [.sortedKeys, .fragmentsAllowed])
            text = String(decoding: data, as: UTF8.self)
        }
        return "\(topic) qos=\(qos) retain=\(retain) \(text)"
    }

    static func jsonlMessages(_ capture: String, config: String) throws -> [String] {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("jsonl-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let replay = try ChildProcess(
            PackagePaths.binary, ["replay", capture, "--config", config, "--output", "jsonl"], output: out)
        #expect(replay.wait(timeout: 30) == 0)
        let lines = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").filter { $0.hasPrefix("{") }
        return try lines.map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            return canonical(
                topic: object["topic"] as! String, payload: object["payload"]!, qos: object["qos"] as! Int,
                retain: object["retain"] as! Bool)
        }
    }

    static func received(_ message: TestSubscriber.Received) -> String {
        let payload =
            (try? JSONSerialization.jsonObject(with: Data(message.payload.utf8), options: .fragmentsAllowed))
            .flatMap { $0 is String ? nil : $0 } ?? message.payload
        return canonical(topic: message.topic, payload: payload, qos: message.qos, retain: message.retained)
    }

    @Test(arguments: [
        "csacca-horizon74_legacy-scanrsp-ibeacon_btsnoop_hci.log", "wangdalian-btsnooper_ext-adv_btsnoop_hci.log",
    ])
    func aReplayAtMaxSpeedPublishesExactlyTheJSONLMessages(capture: String) throws {
        try checkReplay(capture, speed: "max")
    }

    /// At a multiple of capture speed, timers move the capture's clock between packets; the
    /// messages must still be the same (147 s of capture at 60×: about 2.5 s).
    @Test func aReplayAtSixtyTimesCaptureSpeedPublishesTheSameMessages() throws {
        try checkReplay("csacca-horizon74_legacy-scanrsp-ibeacon_btsnoop_hci.log", speed: "60")
    }

    /// Real radio replayed faster than capture speed: the first 200 s of one receiver of the
    /// recorded flat (bench/realdata/kolakowski_flat, receiver 2, a reading every third of a second,
    /// many of them a few ms of replay time before a ranging tick) at 20×. Every message, each
    /// proximity message among them, must be what `replay` computes: a reading stamped before a tick
    /// counts before it, however the replay's hand-overs and the agent's timers fall.
    @Test func realRadioAtTwentyTimesCaptureSpeedPublishesWhatReplayComputes() throws {
        let csv = try String(
            contentsOf: PackagePaths.root.appendingPathComponent("bench/realdata/kolakowski_flat/calibration_df.csv"),
            encoding: .utf8)
        var packets: [CapturedPacket] = []
        for line in csv.split(separator: "\n").dropFirst().prefix(600) {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            guard let ns = Double(fields[1]), let rssi = Double(fields[6]) else { continue }  // ts, rssi_2
            let event = AdvertisingReportEvent.bytes(
                address: BluetoothAddress(rawValue: 0xC0FF_EE00_0002), addressType: 1, eventType: 3,
                data: RunTelemetryTests.iBeaconAD, rssi: Int8(rssi.rounded()))
            packets.append(
                CapturedPacket(timestamp: Timestamp(microseconds: Int64((ns / 1000).rounded())), bytes: event))
        }
        #expect(packets.count > 500)
        let path = try RunTelemetryTests.write(packets)
        defer { try? FileManager.default.removeItem(atPath: path) }
        try checkReplay(path: path, speed: "20")
    }

    func checkReplay(_ capture: String, speed: String) throws {
        try checkReplay(path: Self.captures.appendingPathComponent(capture).path, speed: speed)
    }

    func checkReplay(path: String, speed: String) throws {
        let broker = try MosquittoBroker()
        let subscriber = try TestSubscriber(port: broker.port, pattern: "beacons/#", retainAsPublished: true)
        defer { subscriber.stop() }
        let workspace = try Workspace(port: broker.port, gateway: "gateway")
        let expected = try Self.jsonlMessages(path, config: workspace.config)
        #expect(!expected.isEmpty)
        let agent = try workspace.start(["--replay", path, "--speed", speed])
        #expect(agent.wait(timeout: 30) == 0)
        #expect(
            subscriber.waitFor {
                $0.contains { $0.topic == "beacons/gateways/gateway/status" && $0.payload == "offline" }
            })
        let seen = subscriber.messages.filter { !$0.topic.hasPrefix("beacons/gateways/") }.map(Self.received)
        // Same messages; and per topic, the same order (MQTT orders each topic, not across QoS levels).
        #expect(seen.count == expected.count)
        #expect(Set(seen).symmetricDifference(expected).sorted() == [])
        #expect(seen.sorted() == expected.sorted())
        let topics = Set(expected.map { String($0.split(separator: " ")[0]) })
        let reordered = topics.filter { topic in
            seen.filter { $0.hasPrefix(topic + " ") } != expected.filter { $0.hasPrefix(topic + " ") }
        }
        #expect(reordered.sorted() == [])
    }
}
