import BeaconWire
import Foundation
import Testing
import Vocabulary

@testable import IntegrationSupport

/// Beacon telemetry through a real mosquitto: `run --replay` of a capture written here (btsnoop),
/// with an Eddystone beacon sending UID and TLM frames from one address, an iBeacon without TLM,
/// and a TLM from an address that never sends an identity.
@Suite(.serialized) struct RunTelemetryTests {
    static let t0 = Timestamp(microseconds: 1_714_564_800_000_000)  // 2024-05-01T12:00:00Z
    static let eddystone: [UInt8] = [0xC1, 0x7C, 0x1C, 0xCB, 0xB1, 0xEB]  // eb:b1:cb:1c:7c:c1, little-endian
    static let ibeacon: [UInt8] = [0x02, 0x00, 0x00, 0xEE, 0xFF, 0xC0]  // c0:ff:ee:00:00:02
    static let stranger: [UInt8] = [0x03, 0x00, 0x00, 0xEE, 0xFF, 0xC0]  // c0:ff:ee:00:00:03
    static let uidTopic = "beacons/eddystone/edd1ebeac04e5defa017/ebb1cb1c7cc1/tlm/telemetry"
    static let ibeaconTopic = "beacons/e2c56db5-dffb-48d2-b060-d0f5a71096e0/1/2/tlm/telemetry"

    static func report(_ address: [UInt8], _ ad: [UInt8], at seconds: Double) -> CapturedPacket {
        let body: [UInt8] = [0x01, 0x03, 0x01] + address + [UInt8(ad.count)] + ad + [0xCE]  // RSSI −50
        let event: [UInt8] = [0x04, 0x3E, UInt8(body.count + 1), 0x02] + body
        return CapturedPacket(timestamp: t0 + TimeSpan(microseconds: Int64(seconds * 1e6)), bytes: event)
    }

    static let uid: [UInt8] = [
        0x03, 0x03, 0xAA, 0xFE, 0x15, 0x16, 0xAA, 0xFE, 0x00, 0xEB, 0xED, 0xD1, 0xEB, 0xEA, 0xC0, 0x4E, 0x5D, 0xEF,
        0xA0, 0x17, 0xEB, 0xB1, 0xCB, 0x1C, 0x7C, 0xC1,
    ]
    static let iBeaconAD: [UInt8] = [
        0x02, 0x01, 0x06, 0x1A, 0xFF, 0x4C, 0x00, 0x02, 0x15, 0xE2, 0xC5, 0x6D, 0xB5, 0xDF, 0xFB, 0x48, 0xD2, 0xB0,
        0x60, 0xD0, 0xF5, 0xA7, 0x10, 0x96, 0xE0, 0x00, 0x01, 0x00, 0x02, 0xC5,
    ]

    static func tlm(_ millivolts: UInt16) -> [UInt8] {
        [
            0x03, 0x03, 0xAA, 0xFE, 0x11, 0x16, 0xAA, 0xFE, 0x20, 0x00, UInt8(millivolts >> 8),
            UInt8(millivolts & 0xFF),
            0x14, 0x80, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x27, 0x10,
        ]
    }

    /// `seconds` of capture: the Eddystone beacon's UID every 100 ms, with `tlms` (capture second,
    /// battery mV) from its address.
    static func capture(seconds: Int, tlms: [(Double, UInt16)]) throws -> String {
        var packets = (0..<(seconds * 10)).map { report(eddystone, uid, at: Double($0) / 10) }
        for (s, mv) in tlms { packets.append(report(eddystone, tlm(mv), at: s)) }
        packets.sort { $0.timestamp < $1.timestamp }
        return try write(packets)
    }

    static func write(_ packets: [CapturedPacket]) throws -> String {
        var bytes = BtsnoopWriter.fileHeader()
        for p in packets { bytes += BtsnoopWriter.record(p) }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tlm-\(UUID().uuidString).log").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// 4 s of capture: UID and iBeacon every 100 ms; TLMs at 0.25 (3000 mV), 1.25 (2900), 2.25 (2400,
    /// below the 2500 mV threshold) and 3.25 s (2390); a stranger's TLM at 0.5 s.
    static func capture() throws -> String {
        var packets: [CapturedPacket] = []
        for i in 0..<40 {
            let s = Double(i) / 10
            packets.append(report(eddystone, uid, at: s))
            packets.append(report(ibeacon, iBeaconAD, at: s + 0.01))
        }
        let tlms: [(Double, UInt16)] = [(0.25, 3000), (1.25, 2900), (2.25, 2400), (3.25, 2390)]
        for (s, mv) in tlms { packets.append(report(eddystone, tlm(mv), at: s)) }
        packets.append(report(stranger, tlm(2000), at: 0.5))
        packets.sort { $0.timestamp < $1.timestamp }
        return try write(packets)
    }

    static func json(_ m: TestSubscriber.Received) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(m.payload.utf8))) as? [String: Any] ?? [:]
    }

    /// The TLM is attached by address; the crossing goes at once (its capture instant, and long before
    /// the window's end in wall time); the rate limit holds back the TLMs between; the window's end
    /// publishes the rest; retained at QoS 1; nothing for the stranger.
    @Test func telemetryIsAttachedByAddressRateLimitedAndACrossingGoesAtOnce() throws {
        let path = try Self.capture()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let broker = try MosquittoBroker()
        let subscriber = try TestSubscriber(port: broker.port, pattern: "beacons/#", retainAsPublished: true)
        defer { subscriber.stop() }
        let workspace = try Workspace(
            port: broker.port, gateway: "tlm", extra: "telemetry:\n  interval: 30s\n  low_battery_mv: 2500")
        // At capture speed the crossing comes 2 s after the first TLM; held for the window it would
        // come with the drain after the last packet, at least 3.75 s after the first.
        let agent = try workspace.start(["--replay", path, "--speed", "1"])
        let uid = { subscriber.messages(on: Self.uidTopic) }
        #expect(subscriber.waitFor(timeout: 20) { _ in uid().count >= 1 })
        let first = Date()
        #expect(subscriber.waitFor(timeout: 20) { _ in uid().count >= 2 })
        let crossingDelay = Date().timeIntervalSince(first)
        #expect(crossingDelay < 3.2, "the crossing waited \(crossingDelay) s: it must not wait for the window")
        #expect(agent.wait(timeout: 60) == 0, "\(workspace.logText)")
        #expect(
            subscriber.waitFor {
                $0.contains { $0.topic == "beacons/gateways/tlm/status" && $0.payload == "offline" }
            })

        let messages = uid()
        try #require(messages.count == 3, "\(messages)")
        for m in messages {
            #expect(m.retained && m.qos == 1)
        }
        let payloads = messages.map(Self.json)
        #expect(payloads.map { $0["battery_mv"] as? Int } == [3000, 2400, 2390])
        #expect(payloads.map { $0["low_battery"] as? Bool } == [false, true, true])
        #expect(
            payloads.map { $0["timestamp"] as? String } == [
                "2024-05-01T12:00:00.250Z", "2024-05-01T12:00:02.250Z", "2024-05-01T12:00:32.250Z",
            ])
        #expect(
            payloads.allSatisfy { $0["address"] as? String == "eb:b1:cb:1c:7c:c1" && $0["interval_ms"] as? Int == 100 })
        #expect(payloads.allSatisfy { $0["temperature"] as? Double == 20.5 && $0["tx_power"] as? Int == -21 })

        // The iBeacon sends no TLM: one message at the end of its first window, battery null.
        let ibeacon = subscriber.messages(on: Self.ibeaconTopic).map(Self.json)
        #expect(ibeacon.count == 1)
        #expect(ibeacon.first?["battery_mv"] is NSNull)
        #expect(ibeacon.first?["tx_power"] as? Int == -59 && ibeacon.first?["tx_power_at_m"] as? Int == 1)
        #expect(ibeacon.first?["timestamp"] as? String == "2024-05-01T12:00:30.010Z")

        // No identity ever came from the stranger's address: its TLM belongs to no beacon.
        let telemetryTopics = Set(subscriber.messages.map(\.topic).filter { $0.hasSuffix("/telemetry") })
        #expect(telemetryTopics == [Self.uidTopic, Self.ibeaconTopic])

        // Retained: a client arriving later gets the latest.
        let late = try TestSubscriber(port: broker.port, pattern: Self.uidTopic)
        defer { late.stop() }
        #expect(late.waitFor { !$0.isEmpty })
        #expect(late.messages.first.map(Self.json)?["battery_mv"] as? Int == 2390)
        #expect(late.messages.first?.retained == true)
    }

    /// A broker restarted without persistence has lost every retained message: the agent publishes
    /// the beacon's latest telemetry again on reconnecting, long before its next window (an hour).
    @Test func afterABrokerThatLostItsRetainedMessagesTheTelemetryIsRepublished() throws {
        let path = try Self.capture(seconds: 60, tlms: [(0.25, 3000)])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let broker = try MosquittoBroker()  // no persistence: a restart forgets every retained message
        let workspace = try Workspace(
            port: broker.port, gateway: "tlm", extra: "telemetry:\n  interval: 3600s\n  low_battery_mv: 2500")
        let agent = try workspace.start(["--replay", path, "--speed", "1"])
        let before = try TestSubscriber(port: broker.port, pattern: Self.uidTopic)
        #expect(before.waitFor(timeout: 20) { !$0.isEmpty }, "\(workspace.logText)")
        before.stop()
        try broker.restart()
        // Only what the agent sent after reconnecting can reach a subscriber now.
        let after = try TestSubscriber(port: broker.port, pattern: Self.uidTopic, retainAsPublished: true)
        defer { after.stop() }
        #expect(after.waitFor(timeout: 20) { !$0.isEmpty }, "\(workspace.logText)")
        let late = try TestSubscriber(port: broker.port, pattern: Self.uidTopic, retainAsPublished: true)
        defer { late.stop() }
        #expect(late.waitFor { !$0.isEmpty })
        let republished = try #require(late.messages.first)
        #expect(republished.retained && republished.qos == 1)
        #expect(Self.json(republished)["battery_mv"] as? Int == 3000)
        agent.signal(SIGTERM)
        #expect(agent.wait(timeout: 20) == 0, "\(workspace.logText)")
    }
}
