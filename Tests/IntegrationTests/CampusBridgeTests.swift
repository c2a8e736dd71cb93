import BeaconWire
import Foundation
import MessageContract
import Testing
import Vocabulary

@testable import CLI
@testable import IntegrationSupport
@testable import Simulation

/// A generated campus through a bridged broker tree, all real processes: two floor mosquittos
/// running the example bridge (etc/bridge/mosquitto-bridge.conf) to a central one, the six
/// gateways of a 2 floors × 3 rooms plan as `beacon2mqtt run --simulate --floor-plan FILE
/// --as-gateway ID` publishing to their floor's broker, and `beacon2mqtt locate` on the central
/// broker. Every enter/exit published on a floor reaches the centre, and the locator places every
/// beacon on the floor the walk has it on.
@Suite(.serialized) struct CampusBridgeTests {
    @Test func eventsCrossTheBridgesAndTheCentralLocatorPlacesEveryBeacon() throws {
        var generator = FloorPlanGenerator()
        generator.floors = 2
        generator.gatewaysPerFloor = 3
        generator.beaconsPerGateway = 1
        generator.seed = 5
        generator.dwell = 6...10
        generator.walk = 3
        generator.stairs = 0.3
        generator.duration = 120
        let plan = generator.plan()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("campus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let planFile = directory.appendingPathComponent("campus.yaml").path
        try plan.yamlText.write(toFile: planFile, atomically: true, encoding: .utf8)

        let central = try MosquittoBroker()
        let floors = try [1, 2].map { try LocateBridgeTests.FloorBroker(bridgedTo: central.port, floor: $0) }
        let centre = try TestSubscriber(port: central.port, pattern: "beacons/#")
        let atFloors = try floors.map { try TestSubscriber(port: $0.port, pattern: "beacons/+/+/+/+/event") }
        #expect(
            centre.waitFor { m in
                [1, 2].allSatisfy { n in
                    m.contains { $0.topic == "beacons/bridges/floor\(n)/state" && $0.payload == "1" }
                }
            })

        let locatorConfig = directory.appendingPathComponent("central.yaml").path
        try """
        gateway:
          id: central
        mqtt:
          host: 127.0.0.1
          port: \(central.port)
        locator:
          min_dwell: 3s
          settle: 3s
        """.write(toFile: locatorConfig, atomically: true, encoding: .utf8)
        let locate = try ChildProcess(
            PackagePaths.binary, ["locate", "--config", locatorConfig],
            output: directory.appendingPathComponent("locate.log").path)
        var gateways: [ChildProcess] = []
        for (i, floor) in floors.enumerated() {
            let config = directory.appendingPathComponent("floor\(i + 1).yaml").path
            try "mqtt:\n  host: 127.0.0.1\n  port: \(floor.port)\n".write(
                toFile: config, atomically: true, encoding: .utf8)
            for g in plan.gateways where g.floor == String(i + 1) {
                gateways.append(
                    try ChildProcess(
                        PackagePaths.binary,
                        ["run", "--config", config, "--simulate", "--floor-plan", planFile, "--as-gateway", g.id],
                        output: directory.appendingPathComponent("\(g.id).log").path))
            }
        }
        // Every gateway's status came up through its floor's bridge.
        #expect(
            centre.waitFor(timeout: 20) { m in
                plan.gateways.allSatisfy { g in
                    m.contains { $0.topic == "beacons/gateways/\(g.id)/status" && $0.payload == "online" }
                }
            })
        let minors = plan.minors
        let located = centre.waitFor(timeout: 40) { m in
            let decided = Set(m.filter { $0.topic.hasSuffix("/location") }.compactMap { Self.minor(of: $0.topic) })
            return Set(minors).isSubset(of: decided)
                && m.contains { $0.topic.hasSuffix("/event") && $0.payload.contains("\"previous_gateway\":\"") }
        }
        #expect(located, "every beacon located and at least one hand-over")
        for g in gateways { g.signal(SIGTERM) }
        for g in gateways { #expect(g.wait(timeout: 20) == 0) }

        // The same enter/exit events at the centre as on the floors, none lost on a bridge.
        func events(_ s: TestSubscriber) -> Set<String> {
            Set(
                s.messages.filter { $0.topic.split(separator: "/").count == 6 && $0.topic.hasSuffix("/event") }
                    .map { "\($0.topic) \($0.payload)" })
        }
        let published = atFloors.reduce(into: Set<String>()) { $0.formUnion(events($1)) }
        #expect(published.count >= minors.count)
        #expect(waitUntil(timeout: 10) { published.isSubset(of: events(centre)) })

        // Each decision names a gateway of the plan with its floor and room, on the floor the
        // walk has the beacon on at that tick or a few seconds before (the locator confirms a floor).
        // Under a loaded machine a reading can reach the locator late, through two brokers and a
        // bridge (hence `settle: 3s`, the allowance for late messages of docs/locator.md), and a stall of the
        // machine can leave one tick short of readings for several beacons at once: so the decisions
        // off the walk may come from one tick in ten (one tick, when there are fewer than twenty
        // decisions); a wrong rule would put decisions off at most ticks.
        var checked = 0
        var trailing: [String] = []
        var trailingTicks = Set<Int64>()
        for m in centre.messages where m.topic.split(separator: "/").count == 5 && m.topic.hasSuffix("/event") {
            guard m.payload.contains("\"event\":\"location\""), let minor = Self.minor(of: m.topic),
                let gatewayID = Self.field("gateway", m.payload),
                let stamp = Self.field("timestamp", m.payload).flatMap(RetainedAttributes.timestamp(rfc3339:))
            else { continue }
            let gateway = try #require(plan.gateways.first { $0.id == gatewayID })
            #expect(Self.field("floor", m.payload) == gateway.floor)
            #expect(Self.field("room", m.payload) == gateway.room)
            let simulator = try FloorPlanSimulator(plan: plan, gateway: gatewayID)
            let period = max(plan.duration, 1)
            let t = (Double(stamp.microseconds) / 1e6).truncatingRemainder(dividingBy: period)
            let floorsThen = Set(
                stride(from: t - 12, through: t, by: 1).compactMap {
                    simulator.position(minor: minor, at: $0 < 0 ? $0 + period : $0).map { String($0.level) }
                })
            if !floorsThen.contains(gateway.floor) {
                trailing.append("beacon \(minor) on floor \(gateway.floor) at \(t) s")
                trailingTicks.insert(stamp.microseconds)
            }
            checked += 1
        }
        #expect(checked >= minors.count)
        #expect(
            trailingTicks.count <= max(1, checked / 10),
            "\(trailing.count) of \(checked) decisions off the walk, at \(trailingTicks.count) ticks: \(trailing)")
        locate.signal(SIGTERM)
        #expect(locate.wait(timeout: 10) == 0)
        centre.stop()
        for s in atFloors { s.stop() }
    }

    static func minor(of topic: String) -> UInt16? {
        let levels = topic.split(separator: "/")
        return levels.count >= 4 ? UInt16(levels[3]) : nil
    }

    /// The text of `"key":"…"` in a payload.
    static func field(_ key: String, _ json: String) -> String? {
        guard let r = json.firstRange(of: "\"\(key)\":\"") else { return nil }
        return String(json[r.upperBound...].prefix { $0 != "\"" })
    }
}
