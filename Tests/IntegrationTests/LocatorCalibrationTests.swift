import BeaconCore
import BeaconWire
import CLI
import MessageContract
import Settings
import Testing
import Vocabulary

@testable import IntegrationSupport
@testable import Simulation

/// Gateways calibrate each other in the simulator: five gateways advertise (each an iBeacon of the
/// plan's UUID, minor 100 + its index) at known positions, every gateway's real engine hears the
/// others, and the locator fits the receive offsets and the path-loss exponent from what they
/// publish. The gateways' biases are set with `gateway.rssi_offset` (what a hot or deaf receiver
/// adds to everything it publishes) and the fit must give them back.
@Suite struct LocatorCalibrationTests {
    /// 2024-05-01T12:00:00Z.
    static let start = Timestamp(microseconds: 1_714_564_800_000_000)
    static let bias: [String: Double] = ["A": 6, "B": -4, "C": 0, "D": 3, "E": -7]

    static func plan() throws -> FloorPlan {
        let places = [("A", 0.0, 0.0), ("B", 14, 0), ("C", 0, 9), ("D", 14, 9), ("E", 5, 3)]
        var yaml = "seed: 11\npath_loss_exponent: 2.7\nnoise_db: 4\nloss: 0.1\ngateways:\n"
        for (id, x, y) in places { yaml += "  - {id: \(id), floor: 1, room: r\(id), x: \(x), y: \(y)}\n" }
        yaml += "waypoints:\n"
        for (i, (_, x, y)) in places.enumerated() {
            yaml += "  - {minor: \(100 + i), at: 0, x: \(x), y: \(y), floor: 1}\n"
            yaml += "  - {minor: \(100 + i), at: 600, x: \(x), y: \(y), floor: 1}\n"
        }
        return try FloorPlan.parse(yaml)
    }

    /// What gateway `g` announces: its position and its advertisement.
    static func configuration(_ g: FloorPlan.Gateway, index: Int, plan: FloorPlan) -> Configuration {
        var c = Configuration()
        c.gateway.id = g.id
        c.gateway.rssiOffset = bias[g.id]!
        c.gateway.position = SitePosition(x: g.x, y: g.y)
        c.bluetooth.advertise = AdvertiseSettings(
            beacon: .iBeacon(
                IBeacon(
                    uuid: plan.uuid, major: plan.major, minor: UInt16(100 + index),
                    measuredPower: Int8(plan.measuredPower))))
        return c
    }

    @Test func theLocatorRecoversTheBiasesItWasNotTold() throws {
        let plan = try Self.plan()
        let configurations = plan.gateways.enumerated().map { Self.configuration($1, index: $0, plan: plan) }
        var gateways = try zip(plan.gateways, configurations).map {
            try FloorPlanGateway(plan: plan, gateway: $0.id, configuration: $1, start: Self.start)
        }
        var locator = Locator()
        locator.calibrationTopic = "beacons/locators/L/calibration"
        for c in configurations {
            let m = AdvertisingAnnouncement.message(c)
            locator.handle(topic: m.topic, payload: m.payload.text)
        }
        var retained: String?
        for second in stride(from: 10, through: 300, by: 10) {
            var published: [OutboundMessage] = []
            for i in gateways.indices { gateways[i].run(until: Double(second), into: &published) }
            for m in published { locator.handle(topic: m.topic, payload: m.payload.text) }
            var out: [OutboundMessage] = []
            locator.advance(to: Self.start + .seconds(Int64(second)), into: &out)
            for m in out where m.topic == locator.calibrationTopic {
                #expect(m.retain)
                retained = m.payload.text
            }
        }
        let fit = try #require(locator.site.calibrator.fit)
        #expect(fit.exponentFitted)
        #expect(abs(fit.exponent - plan.pathLossExponent) < 0.3, "exponent \(fit.exponent)")
        // What the locator's decisions depend on is how the gateways differ: a shift common to all
        // of them (the exponent's error times the mean log distance, extrapolated to 1 m) moves no
        // room. So the spread is checked tightly, the absolute level loosely.
        let offsets = try Self.bias.keys.map { g in (g, try #require(locator.offset(of: g))) }
        let common = offsets.map { $1 + Self.bias[$0]! }.reduce(0, +) / Double(offsets.count)
        for (g, offset) in offsets {
            let b = Self.bias[g]!
            #expect(abs(offset + b - common) < 1, "\(g): fitted offset \(offset) for a bias of \(b), common \(common)")
        }
        #expect(abs(common) < 3, "common shift \(common)")
        #expect(fit.observations == 20)
        let payload = try #require(retained)
        #expect(payload.contains("\"offsets\":{\"A\":") && payload.contains("\"exponent_fitted\":true"))
    }

    @Test func aConfiguredOffsetWinsOverTheFittedOne() throws {
        let plan = try Self.plan()
        var settings = LocatorSettings()
        settings.rssiOffsets = ["B": 1.5]
        var locator = Locator(settings: settings)
        for (i, g) in plan.gateways.enumerated() {
            let m = AdvertisingAnnouncement.message(Self.configuration(g, index: i, plan: plan))
            locator.handle(topic: m.topic, payload: m.payload.text)
        }
        var gateways = try plan.gateways.enumerated().map {
            try FloorPlanGateway(
                plan: plan, gateway: $1.id, configuration: Self.configuration($1, index: $0, plan: plan),
                start: Self.start)
        }
        var published: [OutboundMessage] = []
        for i in gateways.indices { gateways[i].run(until: 120, into: &published) }
        for m in published { locator.handle(topic: m.topic, payload: m.payload.text) }
        var out: [OutboundMessage] = []
        locator.advance(to: Self.start + .seconds(120), into: &out)
        #expect(locator.offset(of: "B") == 1.5)
        #expect(abs((locator.offset(of: "A") ?? 0) + 6) < 2)
        // An announcement withdrawn (the gateway no longer advertises nor has a position) drops its pairs.
        locator.handle(topic: "beacons/gateways/A/advertising", payload: "")
        locator.advance(to: Self.start + .seconds(121), into: &out)
        #expect(locator.offset(of: "A") == nil)
    }
}
