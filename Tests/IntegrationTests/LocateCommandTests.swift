import BeaconCore
import BeaconWire
import CLI
import Foundation
import Testing
import Vocabulary

@testable import IntegrationSupport
@testable import MQTTTransport

/// `beacon2mqtt locate` as a real process against a real mosquitto.
@Suite(.serialized) struct LocateCommandTests {
    static let uuid = "e2c56db5-dffb-48d2-b060-d0f5a71096e0"

    /// A proximity payload as a gateway publishes it (docs/topics.md, "Payloads").
    static func proximity(
        _ gw: String, floor: String, room: String, accuracy: Double, rssi: Int = -65, at t: Timestamp
    ) -> String {
        #"{"uuid":"\#(uuid)","major":1,"minor":1,"name":"keys","gateway":"\#(gw)","floor":"\#(floor)","room":"\#(room)","address":"c0:ff:ee:00:00:01","rssi":\#(rssi),"rssi_filtered":\#(rssi),"measured_power":-59,"accuracy":\#(accuracy),"proximity":"near","timestamp":"\#(t.rfc3339)"}"#
    }

    @Test func locatePublishesTheRetainedLocationAndStopsCleanlyOnSIGTERM() throws {
        let broker = try MosquittoBroker()
        let workspace = try Workspace(port: broker.port, gateway: "loc1")
        let watcher = try TestSubscriber(port: broker.port, pattern: "beacons/#")
        let locator = try ChildProcess(
            PackagePaths.binary, ["locate", "--config", workspace.config, "--clock", "messages"],
            output: workspace.log)
        #expect(
            watcher.waitFor { $0.contains { $0.topic == "beacons/locators/loc1/status" && $0.payload == "online" } })
        Thread.sleep(forTimeInterval: 0.5)  // its subscriptions
        let gateway = try LocateBridgeTests.gatewayClient("A", port: broker.port)
        let t0 = Timestamp(microseconds: 1_714_564_800_000_000)
        let beacon = "beacons/\(Self.uuid)/1/1"
        // Three seconds of readings: the belief engine names a room at its third tick of evidence.
        for s in 0..<3 {
            for (gw, floor, room, metres, rssi) in [("A", "1", "hall", 2.0, -65), ("B", "2", "office", 5.0, -73)] {
                let at = t0 + .milliseconds(500) + .seconds(Int64(s))
                _ = gateway.publish(
                    topic: "\(beacon)/\(gw)/proximity",
                    payload: Array(
                        Self.proximity(gw, floor: floor, room: room, accuracy: metres, rssi: rssi, at: at).utf8),
                    qos: 0, retain: false)
            }
        }
        // A later reading moves the message clock past tick t0 + 3 s and its 1 s settle.
        _ = gateway.publish(
            topic: "\(beacon)/A/proximity",
            payload: Array(Self.proximity("A", floor: "1", room: "hall", accuracy: 2.1, at: t0 + .seconds(5)).utf8),
            qos: 0, retain: false)
        #expect(watcher.waitFor { $0.contains { $0.topic == "\(beacon)/location" } }, "\(workspace.logText)")
        let location = try JSONObject(try #require(watcher.messages(on: "\(beacon)/location").first).payload)
        #expect(
            location.string("gateway") == "A" && location.string("floor") == "1" && location.string("room") == "hall")
        #expect(location.string("since") == "2024-05-01T12:00:03.000Z" && location.string("state") == "home")
        #expect(location.string("last_seen") == "2024-05-01T12:00:02.500Z")
        #expect((location.number("confidence") ?? 0) >= 0.9, "the hall is 8 dB stronger on three ticks")
        // The event follows its location: wait for it too, then check there is only the one.
        #expect(watcher.waitFor { $0.contains { $0.topic == "\(beacon)/event" } })
        #expect(watcher.messages(on: "\(beacon)/event").count == 1)

        locator.signal(SIGTERM)
        #expect(locator.wait(timeout: 10) == 0)
        // The signal by name, as run logs it (issue 17: locate logged signal=15).
        #expect(workspace.logText.contains("info: locator stopping signal=SIGTERM "), "\(workspace.logText)")
        #expect(
            watcher.waitFor { $0.contains { $0.topic == "beacons/locators/loc1/status" && $0.payload == "offline" } })
        gateway.stop(timeout: .seconds(1))
        watcher.stop()
    }

    @Test func usageErrorsExit64() throws {
        let bad = try ChildProcess(PackagePaths.binary, ["locate", "--clock", "sundial"], output: "/dev/null")
        #expect(bad.wait(timeout: 10) == 64)
    }
}
