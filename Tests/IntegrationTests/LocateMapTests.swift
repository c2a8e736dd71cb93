import Foundation
import Testing
import Vocabulary

@testable import IntegrationSupport
@testable import MQTTTransport

/// `beacon2mqtt locate` serving the live map (`metrics.map`) through a real mosquitto: gateways'
/// readings of a beacon walking from the hall into the lab show on `/map.json` with its position,
/// room and track, behind the password file; a configuration that would expose the map, or a bad
/// password file, stops it with exit 78 naming the key.
@Suite(.serialized) struct LocateMapTests {
    static let uuid = "e2c56db5-dffb-48d2-b060-d0f5a71096e0"
    static let plan = """
        gateways:
          - {id: A, floor: "1", room: hall, x: 1, y: 2, z: 1}
          - {id: B, floor: "1", room: lab, x: 9, y: 2, z: 1}
        rooms:
          - {floor: "1", name: hall, points: [[0, 0], [5, 0], [5, 4], [0, 4]]}
          - {floor: "1", name: lab, points: [[5, 0], [10, 0], [10, 4], [5, 4]]}
        """
    static let authorization = "Basic " + Data("viewer:map-secret".utf8).base64EncodedString()

    static func workspace(_ broker: Int, metrics: Int, extra: String = "") throws -> Workspace {
        let w = try Workspace(port: broker, gateway: "loc1")
        let plan = w.directory.appendingPathComponent("site-plan.yaml").path
        let passwords = w.directory.appendingPathComponent("map-passwords").path
        try Self.plan.write(toFile: plan, atomically: true, encoding: .utf8)
        try "# who may see the map\nviewer:map-secret\n".write(toFile: passwords, atomically: true, encoding: .utf8)
        chmod(passwords, 0o600)
        try w.write(
            port: broker, gateway: "loc1",
            extra: """
                metrics:
                  listen: 127.0.0.1:1
                  locator_listen: 127.0.0.1:\(metrics)
                  map: true
                  map_password_file: \(passwords)
                \(extra)
                locator:
                  site_plan: \(plan)
                  position_deadband: 0
                """)
        return w
    }

    @Test func theMapFollowsABeaconIntoAnotherRoom() throws {
        let broker = try MosquittoBroker()
        let metrics = try MosquittoBroker.freePort()
        let workspace = try Self.workspace(broker.port, metrics: metrics)
        let watcher = try TestSubscriber(port: broker.port, pattern: "beacons/locators/#")
        let locator = try ChildProcess(
            PackagePaths.binary, ["locate", "--config", workspace.config], output: workspace.log)
        defer {
            locator.signal(SIGTERM)
            _ = locator.wait(timeout: 10)
        }
        #expect(
            watcher.waitFor { $0.contains { $0.topic == "beacons/locators/loc1/status" && $0.payload == "online" } })
        Thread.sleep(forTimeInterval: 0.5)
        let gateways = try LocateBridgeTests.gatewayClient("walk", port: broker.port)
        defer { gateways.stop(timeout: .seconds(1)) }
        func map() -> [String: Any]? {
            let answer = MapEndpointTests.get(metrics, "/map.json", authorization: Self.authorization)
            guard answer.status == 200 else { return nil }
            return try? JSONSerialization.jsonObject(with: Data(answer.body.utf8)) as? [String: Any]
        }
        func beacon() -> [String: Any]? { (map()?["beacons"] as? [[String: Any]])?.first }
        /// Both gateways' readings of the beacon at (x, 2), stamped now.
        func send(x: Double) {
            let format = ISO8601DateFormatter()
            format.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            let stamp = format.string(from: Date())
            for (gateway, gx, room) in [("A", 1.0, "hall"), ("B", 9.0, "lab")] {
                let d = ((x - gx) * (x - gx) + 1).squareRoot()
                let rssi = -59 - 20 * log10(d)
                let payload =
                    #"{"accuracy":\#(d),"rssi":\#(rssi),"filtered_rssi":\#(rssi),"measured_power":-59,"floor":"1","room":"\#(room)","timestamp":"\#(stamp)"}"#
                _ = gateways.publish(
                    topic: "beacons/\(Self.uuid)/1/1/\(gateway)/proximity", payload: Array(payload.utf8), qos: 1,
                    retain: false)
            }
        }
        func walk(to x: Double, until condition: ([String: Any]) -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(20)
            while Date() < deadline {
                send(x: x)
                if let b = beacon(), condition(b) { return true }
                Thread.sleep(forTimeInterval: 0.25)
            }
            return false
        }
        #expect(walk(to: 1.5) { $0["room"] as? String == "hall" }, "\(workspace.logText)")
        #expect(walk(to: 8.5) { $0["room"] as? String == "lab" && ($0["x"] as? Double ?? 0) > 5 }, "\(map() ?? [:])")
        let b = try #require(beacon())
        #expect(b["id"] as? String == "\(Self.uuid)/1/1" && b["floor"] as? String == "1")
        #expect(b["error_radius"] is Double && b["confidence"] is Double && b["color"] as? String == "#f28e2b")
        let track = try #require(b["track"] as? [[String: Any]])
        #expect(track.count >= 2 && (track.first?["x"] as? Double ?? 9) < 5, "\(track)")
        let listed = try #require(map()?["gateways"] as? [[String: Any]])
        #expect(
            listed.map { $0["id"] as? String } == ["A", "B"] && listed.allSatisfy { $0["online"] as? Bool == true })
        // The map is behind the password file; the metrics are not.
        #expect(MapEndpointTests.get(metrics, "/map.json").status == 401)
        #expect(MapEndpointTests.get(metrics, "/map").status == 401)
        #expect(MapEndpointTests.get(metrics, "/metrics").status == 200)
        #expect(workspace.logText.contains("/map /map.json /map/events"), "\(workspace.logText)")
    }

    @Test func aMapThatWouldReachTheNetworkOrABadPasswordFileStopsTheStart() throws {
        let metrics = try MosquittoBroker.freePort()
        let open = try Self.workspace(1, metrics: metrics, extra: "  listen: 0.0.0.0:\(metrics + 1)")
        // The workspace's `listen` is replaced: written again with every interface.
        let yaml = try String(contentsOfFile: open.config, encoding: .utf8).replacingOccurrences(
            of: "  listen: 127.0.0.1:1\n", with: "")
        try yaml.write(toFile: open.config, atomically: true, encoding: .utf8)
        let refused = try ChildProcess(PackagePaths.binary, ["locate", "--config", open.config], output: open.log)
        #expect(refused.wait(timeout: 10) == 78)
        #expect(
            open.logText.contains("metrics.map: would show positions beyond this host on 0.0.0.0:"), "\(open.logText)")

        let bad = try Self.workspace(1, metrics: metrics)
        let passwords = bad.directory.appendingPathComponent("map-passwords").path
        try "viewer:map-secret\nnobody\n".write(toFile: passwords, atomically: true, encoding: .utf8)
        let stopped = try ChildProcess(PackagePaths.binary, ["locate", "--config", bad.config], output: bad.log)
        #expect(stopped.wait(timeout: 10) == 78)
        #expect(
            bad.logText.contains("metrics.map_password_file: '\(passwords)' line 2: expected user:password"),
            "\(bad.logText)")
    }
}
