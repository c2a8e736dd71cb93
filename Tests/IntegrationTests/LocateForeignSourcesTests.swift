import Foundation
import Testing
import Vocabulary

@testable import IntegrationSupport
@testable import MQTTTransport

/// `beacon2mqtt locate` reading an ESPresense node and an OpenMQTTGateway through a real mosquitto
/// (`locator.foreign_sources`, docs/locator.md, "Foreign receivers"): their readings place the
/// beacon, the node's will takes it out, and bad messages leave a debug line and nothing else.
@Suite(.serialized) struct LocateForeignSourcesTests {
    static let uuid = "e2c56db5-dffb-48d2-b060-d0f5a71096e0"
    static let beacon = "beacons/\(uuid)/1/1"
    static let esp = "espresense/devices/iBeacon:\(uuid)-1-1/kitchen"
    static let omg = "home/OMG_hall/BTtoMQTT/C0FFEE000001"

    static func espresense(_ metres: Double) -> String {
        #"{"mac":"c0ffee000001","id":"iBeacon:\#(uuid)-1-1","rssi@1m":-59,"rssi":-64.00,"rxAdj":0,"distance":\#(metres),"var":0.10,"int":1000}"#
    }

    static func openMQTTGateway(_ metres: Double) -> String {
        #"{"id":"C0:FF:EE:00:00:01","mac_type":0,"rssi":-75,"distance":\#(metres),"brand":"GENERIC","model":"iBeacon","model_id":"IBEACON","mfid":"4c00","uuid":"\#(uuid.replacingOccurrences(of: "-", with: ""))","major":1,"minor":1,"txpower":-59}"#
    }

    @Test func foreignNodesPlaceTheBeaconAndTheirWillTakesThemOut() throws {
        let broker = try MosquittoBroker()
        let metrics = try MosquittoBroker.freePort()
        let workspace = try Workspace(
            port: broker.port, gateway: "loc1",
            extra: """
                log_level: debug
                metrics:
                  listen: 127.0.0.1:1
                  locator_listen: 127.0.0.1:\(metrics)
                locator:
                  engine: nearest
                  foreign_sources:
                    - format: espresense
                      nodes:
                        - {node: kitchen, gateway: esp-kitchen, floor: "1", room: kitchen}
                    - format: openmqttgateway
                      nodes:
                        - {node: OMG_hall, gateway: omg-hall, floor: "1", room: hall}
                """)
        let watcher = try TestSubscriber(port: broker.port, pattern: "beacons/#")
        let locator = try ChildProcess(
            PackagePaths.binary, ["locate", "--config", workspace.config], output: workspace.log)
        defer {
            locator.signal(SIGTERM)
            _ = locator.wait(timeout: 10)
        }
        #expect(
            watcher.waitFor { $0.contains { $0.topic == "beacons/locators/loc1/status" && $0.payload == "online" } })
        Thread.sleep(forTimeInterval: 0.5)  // its subscriptions
        let nodes = try LocateBridgeTests.gatewayClient("nodes", port: broker.port)
        defer { nodes.stop(timeout: .seconds(1)) }
        func send(_ topic: String, _ payload: String, retain: Bool = false) {
            _ = nodes.publish(topic: topic, payload: Array(payload.utf8), qos: 1, retain: retain)
        }
        func feed(kitchen: Bool = true, until condition: @escaping ([TestSubscriber.Received]) -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(15)
            while Date() < deadline {
                if kitchen { send(Self.esp, Self.espresense(0.9)) }
                send(Self.omg, Self.openMQTTGateway(4.2))
                if condition(watcher.messages) { return true }
                Thread.sleep(forTimeInterval: 0.25)
            }
            return false
        }
        func room(_ m: TestSubscriber.Received) -> Bool { m.topic == "\(Self.beacon)/location" }
        #expect(
            feed {
                $0.contains {
                    room($0) && $0.payload.contains(#""gateway":"esp-kitchen","floor":"1","room":"kitchen""#)
                }
            },
            "\(workspace.logText)")
        // Bad input on both sources: debug lines, no new location, the locator goes on.
        let before = watcher.messages(on: "\(Self.beacon)/location").count
        send(Self.esp, #"{"id":"iBeacon:\#(Self.uuid)-1-1","distance":"near"}"#)
        send("home/OMG_garage/BTtoMQTT/C0FFEE000001", Self.openMQTTGateway(0.1))
        send(
            "espresense/devices/apple:1005:26/kitchen",
            #"{"mac":"6d8e9fa0b1c2","id":"apple:1005:26","rssi":-50.00,"distance":0.20}"#)
        Thread.sleep(forTimeInterval: 2.5)
        #expect(watcher.messages(on: "\(Self.beacon)/location").count == before)
        for reason in [
            "reason=\"espresense message from node kitchen: distance is not a number in 0.0…1000.0\"",
            "reason=\"node OMG_garage is not mapped\"",
            "reason=\"espresense message from node kitchen: no beacon or configured device\"",
        ] {
            #expect(workspace.logText.contains("foreign message ignored"), "\(workspace.logText)")
            #expect(workspace.logText.contains(reason), "\(reason) not in \(workspace.logText)")
        }
        // Each counted on /metrics by outcome.
        let text = HTTPProbe.get(port: metrics, "/metrics").body
        func outcome(_ name: String) -> Double? {
            HTTPProbe.sample(text, "beacon2mqtt_locator_foreign_messages_total{outcome=\"\(name)\"}")
        }
        #expect(
            outcome("malformed") == 1 && outcome("unmapped_node") == 1 && outcome("unknown_identity") == 1, "\(text)")
        #expect((outcome("reading") ?? 0) > 0)
        // The ESPresense node's will, and it sends no more: the hall's OpenMQTTGateway owns the beacon
        // at once, long before the kitchen's last reading is stale_after (35 s) old.
        send("espresense/rooms/kitchen/status", "offline", retain: true)
        let offline = Date()
        #expect(
            feed(kitchen: false) {
                $0.contains { room($0) && $0.payload.contains(#""gateway":"omg-hall","floor":"1","room":"hall""#) }
            },
            "\(workspace.logText)")
        #expect(Date().timeIntervalSince(offline) < 10)
        #expect(locator.isRunning)
        watcher.stop()
    }
}
