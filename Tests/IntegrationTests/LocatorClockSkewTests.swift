import BeaconCore
import BeaconWire
import CLI
import MessageContract
import Settings
import Simulation
import Testing
import Vocabulary

@testable import IntegrationSupport

/// The walk (A → B → C → B → A) in virtual time with gateway B's clock off: the locator
/// that checks clocks against its receive clock decides as with B's clock right, and says so on
/// B's clock topic (docs/locator.md, "Gateway clocks").
@Suite struct LocatorClockSkewTests {
    static let plan = try! FloorPlan.parse(FloorPlanExample.threeGateways)
    /// 2024-05-01T12:00:00Z.
    static let start = Timestamp(microseconds: 1_714_564_800_000_000)
    static let beacon = BeaconIdentity.uuid(plan.uuid, major: 1, minor: 1)

    /// The walk with B's clock `skew` off; every second's messages are received at that second
    /// (`checked`) or read as they are. Returns each location event (seconds after the start, gateway)
    /// and the locator.
    static func walk(skew: TimeSpan, checked: Bool = true) throws -> ([(Double, String)], Locator) {
        var gateways = try plan.gateways.map {
            try FloorPlanGateway(
                plan: plan, gateway: $0.id, configuration: Configuration(), start: start + ($0.id == "B" ? skew : .zero)
            )
        }
        var locator = Locator()
        var events: [(Double, String)] = []
        for second in 1...290 {
            let now = start + .seconds(Int64(second))
            var published: [OutboundMessage] = []
            for i in gateways.indices { gateways[i].run(until: Double(second), into: &published) }
            for m in published {
                locator.handle(topic: m.topic, payload: m.payload.text, received: checked ? now : nil)
            }
            var out: [OutboundMessage] = []
            locator.advance(to: now, into: &out)
            for m in out where m.topic.hasSuffix("/event") {
                let l = locator.location(of: beacon)
                events.append(((l!.since - start).seconds, l?.gateway ?? "-"))
            }
        }
        return (events, locator)
    }

    @Test(arguments: [5, 60, 365 * 86_400, -5, -60, -365 * 86_400] as [Int64])
    func aSkewedGatewayLeavesTheDecisionsOfARightClock(seconds: Int64) throws {
        let (reference, _) = try Self.walk(skew: .zero)
        #expect(reference.map(\.1) == ["A"] + FloorPlanExample.moves.map(\.to))
        let (events, locator) = try Self.walk(skew: .seconds(seconds))
        #expect(events.map(\.1) == reference.map(\.1))
        for (e, r) in zip(events, reference) { #expect(abs(e.0 - r.0) <= 2, "\(e) against \(r)") }
        let clocks = Dictionary(uniqueKeysWithValues: locator.clocks.all.map { ($0.gateway, $0.clock) })
        #expect(clocks["B"]?.state == (seconds > 0 ? .ahead : .behind))
        #expect(abs(Double(clocks["B"]!.offset.microseconds) / 1e6 - Double(seconds)) < 1.1)
        #expect(clocks["A"]?.state == .ok && clocks["C"]?.state == .ok)
    }

    /// The same skews read without the check: B's readings count at the wrong time, and the walk is
    /// followed wrongly — what the check is for.
    @Test(arguments: [60, -60] as [Int64])
    func uncheckedASkewedGatewayMisplacesTheBeacon(seconds: Int64) throws {
        let (reference, _) = try Self.walk(skew: .zero, checked: false)
        let (events, _) = try Self.walk(skew: .seconds(seconds), checked: false)
        #expect(
            events.map(\.1) != reference.map(\.1)
                || zip(events, reference).contains { abs($0.0 - $1.0) > 2 })
    }

    /// B's clock topic: retained, `ahead` with its offset once it is known.
    @Test func theClockTopicSaysWhatTheLocatorFound() throws {
        var locator = Locator()
        var out: [OutboundMessage] = []
        let now = Self.start + .seconds(100)
        let reading = { (gw: String, at: Timestamp) in
            "{\"timestamp\":\"\(at.rfc3339)\",\"accuracy\":1.5,\"rssi_filtered\":-60,\"measured_power\":-59}"
        }
        let topic = { (gw: String) in TopicTree(base: "beacons", gateway: gw).beacon(Self.beacon, .proximity) }
        var handled = locator.handle(topic: topic("A"), payload: reading("A", now), received: now)
        handled = locator.handle(topic: topic("B"), payload: reading("B", now + .seconds(60)), received: now) && handled
        #expect(handled)
        locator.advance(to: now, into: &out)
        let clock = out.filter { $0.topic.hasSuffix("/clock") }
        #expect(clock.map(\.topic) == ["beacons/gateways/A/clock", "beacons/gateways/B/clock"])
        #expect(clock.allSatisfy { $0.retain })
        let b = try JSONObject(clock[1].payload.text)
        #expect(b.string("state") == "ahead" && b.number("offset") == 60)
        #expect(try JSONObject(clock[0].payload.text).string("state") == "ok")
        // Nothing new to say: no report at the next tick.
        out.removeAll()
        handled = locator.handle(
            topic: topic("B"), payload: reading("B", now + .seconds(61)), received: now + .seconds(1))
        #expect(handled)
        locator.advance(to: now + .seconds(1), into: &out)
        #expect(!out.contains { $0.topic.hasSuffix("/clock") })
    }
}
