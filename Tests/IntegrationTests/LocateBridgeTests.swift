import AgentCore
import BeaconCore
import BeaconWire
import CLI
import Foundation
import MessageContract
import Settings
import Synchronization
import Testing
import Vocabulary

@testable import IntegrationSupport
@testable import MQTTTransport
@testable import Platform
@testable import Runtime
@testable import Simulation

/// The issue's acceptance test on real brokers: a floor broker (running the example bridge
/// configuration of etc/bridge/mosquitto-bridge.conf) bridged to a central broker; gateway A on
/// floor 1 publishes to the floor broker, B and C on floor 2 to the central one; the locator runs on
/// the central broker. The beacon walks A → B → C → B → A (FloorPlanExample) with the simulator's
/// RSSI noise, replayed through the real gateway engine as fast as the brokers carry it.
@Suite(.serialized) struct LocateBridgeTests {
    /// mosquitto with the example bridge section, its address pointed at `centralPort`; floor `n`
    /// other than 1 gets its own connection name, bridge client id and notification topic.
    final class FloorBroker: @unchecked Sendable {
        let port: Int
        let directory: URL
        private var process: ChildProcess?

        init(bridgedTo centralPort: Int, floor n: Int = 1) throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("floor-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            port = try MosquittoBroker.freePort()
            let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("etc/bridge/mosquitto-bridge.conf")
            let text = try String(contentsOf: example, encoding: .utf8)
            let bridge = text.split(separator: "\n").map(String.init).drop { !$0.hasPrefix("connection ") }
                .filter { !$0.hasPrefix("#") }
                .map { $0.hasPrefix("address ") ? "address 127.0.0.1:\(centralPort)" : $0 }
                .map { $0.replacingOccurrences(of: "floor1", with: "floor\(n)") }
            var lines = [
                "listener \(port) 127.0.0.1", "allow_anonymous true", "persistence false",
                "log_dest file \(directory.path)/mosquitto.log",
            ]
            if getuid() == 0 { lines.append("user root") }
            let config = directory.appendingPathComponent("mosquitto.conf")
            try ((lines + bridge).joined(separator: "\n") + "\n").write(to: config, atomically: true, encoding: .utf8)
            process = try ChildProcess("/usr/sbin/mosquitto", ["-c", config.path])
            guard waitUntil(timeout: 10, { MosquittoBroker.accepts(port: self.port) }) else {
                throw MosquittoBroker.BrokerError("floor broker did not listen on \(port)")
            }
        }

        deinit {
            process?.signal(SIGKILL)
            _ = process?.wait(timeout: 5)
            try? FileManager.default.removeItem(at: directory)
        }
    }

    /// A gateway's MQTT session: retained online/offline status like a real `run`.
    static func gatewayClient(_ id: String, port: Int) throws -> MosquittoClient {
        let connected = Mutex(false)
        let client = MosquittoClient(
            options: MQTTConnectionOptions(
                host: "127.0.0.1", port: port, clientID: "gw-\(id)-\(UUID().uuidString.prefix(6))",
                statusTopic: "beacons/gateways/\(id)/status", cleanSession: true,
                reconnectMin: .milliseconds(100), reconnectMax: .milliseconds(300)),
            logger: Logger(level: .critical) { _ in }
        ) { event in
            if case .connected = event { connected.withLock { $0 = true } }
        }
        client.start()
        guard waitUntil(timeout: 10, { connected.withLock { $0 } }) else {
            throw MosquittoBroker.BrokerError("gateway \(id) did not connect")
        }
        return client
    }

    @Test func theCentralLocatorReportsTheWalkFloorByFloorThroughTheBridge() throws {
        let central = try MosquittoBroker()
        let floor = try FloorBroker(bridgedTo: central.port)
        let watcher = try TestSubscriber(port: central.port, pattern: "beacons/#")
        let plan = try FloorPlan.parse(FloorPlanExample.threeGateways)
        let ports = ["A": floor.port, "B": central.port, "C": central.port]
        let clients = try plan.gateways.map { try Self.gatewayClient($0.id, port: ports[$0.id]!) }
        // A's status reaching the central broker proves the bridge is up.
        #expect(watcher.waitFor { $0.contains { $0.topic == "beacons/gateways/A/status" && $0.payload == "online" } })

        var settings = LocatorSettings()
        settings.settle = .seconds(10)  // virtual seconds pass every 25 ms here: 250 ms for bridge latency
        let service = LocateService(
            locator: Locator(settings: settings),
            connection: MQTTConnectionOptions(
                host: "127.0.0.1", port: central.port, clientID: "locator-test",
                statusTopic: "beacons/locators/test/status", cleanSession: true),
            clock: .messages, logger: Logger(level: .critical) { _ in }, tick: .milliseconds(20))
        service.start()
        defer { service.stop() }
        #expect(
            watcher.waitFor { $0.contains { $0.topic == "beacons/locators/test/status" && $0.payload == "online" } })
        Thread.sleep(forTimeInterval: 0.3)  // its subscriptions

        let start = Timestamp(microseconds: Int64(Date().timeIntervalSince1970 * 1_000_000))
        var gateways = try plan.gateways.map {
            try FloorPlanGateway(plan: plan, gateway: $0.id, configuration: Configuration(), start: start)
        }
        var refused = 0
        for second in 1...295 {
            for i in gateways.indices {
                var out: [OutboundMessage] = []
                gateways[i].run(until: Double(second), into: &out)
                for m in out {
                    if case .sent = clients[i].publish(
                        topic: m.topic, payload: Array(m.payload.text.utf8), qos: m.qos, retain: m.retain)
                    {
                    } else {
                        refused += 1
                    }
                }
            }
            Thread.sleep(forTimeInterval: 0.025)
        }
        #expect(refused == 0)

        let eventTopic = "beacons/e2c56db5-dffb-48d2-b060-d0f5a71096e0/1/1/event"
        #expect(watcher.waitFor(timeout: 15) { $0.filter { $0.topic == eventTopic }.count >= 5 })
        Thread.sleep(forTimeInterval: 0.5)  // anything extra would show up now
        let events = watcher.messages(on: eventTopic).map(\.payload)
        func field(_ key: String, _ json: String) -> String {
            guard let r = json.firstRange(of: "\"\(key)\":\"") else { return "-" }
            return String(json[r.upperBound...].prefix { $0 != "\"" })
        }
        #expect(events.map { field("gateway", $0) } == ["A", "B", "C", "B", "A"])
        #expect(events.map { field("floor", $0) } == ["1", "2", "2", "2", "1"])
        #expect(events.map { field("room", $0) } == ["hall", "office", "lab", "office", "hall"])
        // Each hand-over during its move or within 15 s after it.
        let times = events.map { json in
            RetainedAttributes.timestamp(rfc3339: field("timestamp", json)).map { ($0 - start).seconds } ?? -1
        }
        for (move, t) in zip(FloorPlanExample.moves, times.dropFirst()) {
            #expect(t >= move.during.lowerBound && t <= move.during.upperBound + 15, "hand-over at \(t) for \(move)")
        }
        // The retained location, as a newcomer (Home Assistant, a late locator) reads it.
        let late = try TestSubscriber(port: central.port, pattern: "beacons/+/+/+/location")
        #expect(late.waitFor { $0.contains { $0.retained } })
        #expect(late.messages.first { $0.retained }.map { field("room", $0.payload) } == "hall")
        late.stop()
        watcher.stop()
        for c in clients { c.stop(timeout: .seconds(1)) }
    }
}
