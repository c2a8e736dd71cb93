import BeaconCore
import BeaconWire
import Foundation
import MessageContract
import Testing
import Vocabulary

@testable import IntegrationSupport
@testable import MQTTTransport

/// `locator.shard` with real processes: two `locate` processes on one mosquitto, shards 1/2 and
/// 2/2, decide each beacon exactly once between them (the broker's log names the publisher of
/// every location), and publish the locations and events one unsharded `locate` does from the
/// same gateway messages on a second broker.
@Suite(.serialized) struct LocateShardTests {
    static let uuid = "e2c56db5-dffb-48d2-b060-d0f5a71096e0"
    static let gateways: [(id: String, floor: String, room: String)] = [
        ("A", "1", "hall"), ("B", "1", "kitchen"), ("C", "2", "office"),
    ]
    static let beacons = 1...12

    /// Every beacon heard by the three gateways once a second for 26 s: first nearest gateway
    /// minor % 3, from 12 s on the next one, so each beacon is located and then moves once.
    static func gatewayMessages() -> [(topic: String, payload: String)] {
        let t0 = Timestamp(microseconds: 1_714_564_800_000_000)
        var out: [(String, String)] = []
        for second in 0..<26 {
            for minor in beacons {
                let near = (minor + (second >= 12 ? 1 : 0)) % 3
                for (i, g) in gateways.enumerated() {
                    let at = t0 + TimeSpan(microseconds: Int64(second) * 1_000_000 + Int64(i) * 100_000 + 50_000)
                    let metres = i == near ? 1.0 : 6.0 + Double(i)
                    out.append(
                        (
                            "beacons/\(uuid)/1/\(minor)/\(g.id)/proximity",
                            #"{"uuid":"\#(uuid)","major":1,"minor":\#(minor),"gateway":"\#(g.id)","floor":"\#(g.floor)","room":"\#(g.room)","rssi":-65,"rssi_filtered":null,"measured_power":-59,"accuracy":\#(metres),"proximity":"near","timestamp":"\#(at.rfc3339)"}"#
                        ))
                }
            }
        }
        return out
    }

    static func locate(
        _ broker: MosquittoBroker, id: String, shard: String?
    ) throws -> (
        Workspace, ChildProcess
    ) {
        let workspace = try Workspace(
            port: broker.port, gateway: id,
            extra: "  client_id: \(id)\n" + (shard.map { "locator:\n  shard: \($0)\n" } ?? ""))
        let process = try ChildProcess(
            PackagePaths.binary, ["locate", "--config", workspace.config, "--clock", "messages"],
            output: workspace.log)
        return (workspace, process)
    }

    @Test func twoShardsTogetherPublishWhatOneLocatorDoesEachBeaconByItsOwnShard() throws {
        let shared = try MosquittoBroker()
        let single = try MosquittoBroker()
        let watchShared = try TestSubscriber(port: shared.port, pattern: "beacons/#")
        let watchSingle = try TestSubscriber(port: single.port, pattern: "beacons/#")
        defer {
            watchShared.stop()
            watchSingle.stop()
        }
        let (w1, shard1) = try Self.locate(shared, id: "shard1", shard: "1/2")
        let (w2, shard2) = try Self.locate(shared, id: "shard2", shard: "2/2")
        let (w0, whole) = try Self.locate(single, id: "whole", shard: nil)
        for (watcher, id) in [(watchShared, "shard1"), (watchShared, "shard2"), (watchSingle, "whole")] {
            #expect(
                watcher.waitFor {
                    $0.contains { $0.topic == "beacons/locators/\(id)/status" && $0.payload == "online" }
                })
        }
        // Every subscription acknowledged (the broker logs each SUBACK): a locator that missed the
        // first readings would start deciding a tick later.
        let subscriptions = TopicTree(base: "beacons").locatorSubscriptions.count
        for (broker, id) in [(shared, "shard1"), (shared, "shard2"), (single, "whole")] {
            #expect(
                waitUntil(timeout: 10) {
                    broker.logText.components(separatedBy: "Sending SUBACK to \(id)-locator").count > subscriptions
                }, "\(id)")
        }
        let gatewayShared = try LocateBridgeTests.gatewayClient("A", port: shared.port)
        let gatewaySingle = try LocateBridgeTests.gatewayClient("A", port: single.port)
        // All 26 s of messages at once: a messages-clock locator decides each tick as its clock
        // passes it, however far ahead of its decisions the messages have been read.
        for (topic, payload) in Self.gatewayMessages() {
            for gateway in [gatewayShared, gatewaySingle] {
                _ = gateway.publish(topic: topic, payload: Array(payload.utf8), qos: 1, retain: false)
            }
        }
        // Each beacon is located, then moves once: two events each.
        let events = Self.beacons.count * 2
        let isEvent = { (m: TestSubscriber.Received) in m.topic.hasSuffix("/event") && !m.topic.contains("/proximity") }
        #expect(watchSingle.waitFor(timeout: 30) { $0.count(where: isEvent) >= events }, "\(w0.logText)")
        #expect(watchShared.waitFor(timeout: 30) { $0.count(where: isEvent) >= events }, "\(w1.logText)\(w2.logText)")
        Thread.sleep(forTimeInterval: 0.5)  // nothing more may come

        // The same locations and events, topic by topic, in the same order.
        let published = { (w: TestSubscriber) in
            Dictionary(
                grouping: w.messages.filter { $0.topic.hasSuffix("/location") || isEvent($0) }.map {
                    ($0.topic, $0.payload)
                },
                by: \.0
            ).mapValues { $0.map(\.1) }
        }
        let fromShards = published(watchShared)
        #expect(fromShards.count == Self.beacons.count * 2)
        let fromSingle = published(watchSingle)
        let differing = Set(fromShards.keys).union(fromSingle.keys).filter { fromShards[$0] != fromSingle[$0] }.sorted()
        #expect(
            differing.isEmpty,
            "\(differing.prefix(2).map { "\($0): shards \(fromShards[$0] ?? []) single \(fromSingle[$0] ?? [])" })")

        // Who published each beacon's location: the broker logs every PUBLISH with its client id.
        let log = shared.logText
        var perShard = [0, 0]
        for minor in Self.beacons {
            let beacon = BeaconIdentity.uuid(BeaconID128(uuidString: Self.uuid)!, major: 1, minor: UInt16(minor))
            let topic = "'beacons/\(Self.uuid)/1/\(minor)/location'"
            let publishers = Set(
                log.split(separator: "\n").filter { $0.contains("Received PUBLISH from") && $0.contains(topic) }.map {
                    $0.split(separator: " ").drop { $0 != "from" }.dropFirst().first.map(String.init) ?? "?"
                })
            let owner = LocatorShard(index: 1, count: 2)!.owns(beacon) ? 0 : 1
            #expect(publishers == ["shard\(owner + 1)-locator"], "minor \(minor): \(publishers)")
            perShard[owner] += 1
        }
        // Both shards had beacons to decide.
        #expect(perShard.allSatisfy { $0 > 0 }, "\(perShard)")

        for process in [shard1, shard2, whole] {
            process.signal(SIGTERM)
            #expect(process.wait(timeout: 10) == 0)
        }
        gatewayShared.stop(timeout: .seconds(1))
        gatewaySingle.stop(timeout: .seconds(1))
        _ = (w1, w2, w0)
    }

    @Test func aBadShardNamesItsLineAndExits78() throws {
        let broker = try MosquittoBroker()
        let (workspace, process) = try Self.locate(broker, id: "bad", shard: "3/2")
        #expect(process.wait(timeout: 10) == 78)
        #expect(workspace.logText.contains("beacon2mqtt.yaml:10:10: locator.shard:"), "\(workspace.logText)")
        #expect(workspace.logText.contains("k must be between 1 and 2"), "\(workspace.logText)")
    }
}
