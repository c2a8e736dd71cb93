import CLI
import Foundation
import Testing

@testable import IntegrationSupport

/// `run` with `homeassistant.discovery: true`: retained discovery for the configured beacons and
/// regions on connect, announced again when Home Assistant's birth message says `online`.
@Suite(.serialized) struct RunHomeAssistantTests {
    @Test func discoveryIsRetainedOnConnectAndRepublishedOnHomeAssistantsBirth() throws {
        let broker = try MosquittoBroker()
        let subscriber = try TestSubscriber(port: broker.port, pattern: "homeassistant/+/+/+/config")
        defer { subscriber.stop() }
        let workspace = try Workspace(port: broker.port, gateway: "hall")
        let yaml = """
            gateway:
              id: hall
            mqtt:
              host: 127.0.0.1
              port: \(broker.port)
            homeassistant:
              discovery: true
            regions:
              - name: lobby
                uuid: e2c56db5-dffb-48d2-b060-d0f5a71096e0
            beacons:
              - uuid: e2c56db5-dffb-48d2-b060-d0f5a71096e0
                major: 1
                minor: 1
                name: Keys
            """
        try yaml.write(toFile: workspace.config, atomically: true, encoding: .utf8)
        let agent = try workspace.start(["--simulate", "--beacons", "1"])
        defer {
            agent.signal(SIGTERM)
            _ = agent.wait(timeout: 10)
        }
        // The gateway's 9 diagnostics, the beacon's 4 entities from this gateway and its 3 telemetry
        // entities (battery, temperature, low battery), the region's 4.
        let configs = { (all: [TestSubscriber.Received]) in all.filter { !$0.payload.isEmpty } }
        #expect(subscriber.waitFor(timeout: 20) { Set(configs($0).map(\.topic)).count >= 20 }, "\(workspace.logText)")
        let first = configs(subscriber.messages)
        #expect(Set(first.map(\.topic)).count == 20)
        let components = Set(first.map { String($0.topic.split(separator: "/")[1]) })
        #expect(components == ["binary_sensor", "device_tracker", "sensor", "event"])
        // The gateway's device is announced before the beacon that names it as via_device.
        let connectivity = try #require(first.firstIndex { $0.topic.hasSuffix("/connectivity/config") })
        let beaconTracker = try #require(first.firstIndex { $0.topic.hasSuffix("_1_1_tracker/config") })
        #expect(connectivity < beaconTracker)
        for message in first {
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(message.payload.utf8)) as? [String: Any])
            #expect(object["unique_id"] is String)
            // Connectivity is the status itself; every other entity is unavailable while it is offline.
            if message.topic.hasSuffix("/connectivity/config") { continue }
            let availability = try #require(object["availability"] as? [[String: Any]], "\(message.topic)")
            #expect(availability.first?["topic"] as? String == "beacons/gateways/hall/status")
        }
        let tracker = try #require(
            first.first { $0.topic.hasPrefix("homeassistant/device_tracker/") && $0.payload.contains("Keys") })
        #expect(tracker.payload.contains(#""source_type":"bluetooth_le""#))

        // Retained: a subscriber that comes later gets them too.
        let late = try TestSubscriber(port: broker.port, pattern: "homeassistant/+/+/+/config")
        defer { late.stop() }
        #expect(late.waitFor { Set(configs($0).map(\.topic)) == Set(first.map(\.topic)) })

        // Home Assistant restarts: its birth message makes the agent announce everything again.
        let before = subscriber.messages.count
        let publish = try ChildProcess(
            "/usr/bin/mosquitto_pub",
            ["-h", "127.0.0.1", "-p", "\(broker.port)", "-t", "homeassistant/status", "-m", "online"],
            output: workspace.directory.appendingPathComponent("pub.log").path)
        #expect(publish.wait(timeout: 10) == 0)
        #expect(subscriber.waitFor { $0.count >= before + Set(first.map(\.topic)).count })
    }
}
