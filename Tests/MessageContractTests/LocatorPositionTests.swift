import BeaconCore
import BeaconWire
import Foundation
import MessageContract
import TestFixtures
import Testing
import Vocabulary

/// The locator with a site plan (`locator.site_plan`): positions in the location message, a room
/// with no gateway named, the deadband; without a plan, no position at all.
@Suite struct LocatorPositionTests {
    /// Floor 2 of the harness: office (gateways B, D), lab (C) and a kitchen with no gateway.
    static let plan: SitePlan = {
        func box(_ x0: Double, _ x1: Double) -> [SitePlan.Point] {
            [.init(x: x0, y: 0), .init(x: x1, y: 0), .init(x: x1, y: 4), .init(x: x0, y: 4)]
        }
        var p = SitePlan()
        p.rooms = [
            .init(floor: "2", name: "office", outline: box(0, 5)), .init(floor: "2", name: "lab", outline: box(5, 10)),
            .init(floor: "2", name: "kitchen", outline: box(10, 15)),
        ]
        p.gateways = [
            .init(id: "B", floor: "2", room: "office", position: .init(x: 1, y: 2, z: 1)),
            .init(id: "D", floor: "2", room: "office", position: .init(x: 4, y: 0.5, z: 1)),
            .init(id: "C", floor: "2", room: "lab", position: .init(x: 7, y: 3.5, z: 1)),
        ]
        return p
    }()

    static func settings(plan: SitePlan?, deadband: Double = 1) -> LocatorSettings {
        var s = LocatorSettings()
        s.positions.plan = plan
        s.positions.deadband = deadband
        return s
    }

    /// The beacon at (x, y) from `from` to `to` seconds: each gateway's model reading every second.
    static func walk(_ h: inout LocatorHarness, x: (Double) -> Double, y: Double, from: Int, to: Int) {
        for t in from..<to {
            for g in plan.gateways {
                let d = g.position.distance(to: SitePosition(x: x(Double(t)), y: y, z: 1))
                let rssi = -59 - 20 * Foundation.log10(d)
                h.locator.observe(LocatorHarness.reading(g.id, d, at: Double(t), rssi: rssi))
            }
            h.advance(Double(t) + 1.5)
        }
    }

    static func locations(_ h: LocatorHarness) -> [[String: Any]] {
        h.out.filter { $0.topic == LocatorHarness.locationTopic }.compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.payload.text.utf8)) as? [String: Any]
        }
    }

    @Test func aRoomWithNoGatewayIsNamedFromThePosition() throws {
        var h = LocatorHarness(Self.settings(plan: Self.plan))
        Self.walk(&h, x: { _ in 2.5 }, y: 2, from: 0, to: 10)
        Self.walk(&h, x: { t in min(2.5 + (t - 10), 12.5) }, y: 2, from: 10, to: 40)
        let rooms = Self.locations(h).compactMap { $0["room"] as? String }
        #expect(rooms.first == "office")
        #expect(rooms.last == "kitchen")
        let last = try #require(Self.locations(h).last)
        let x = try #require(last["x"] as? Double)
        #expect(abs(x - 12.5) < 1.5)
        #expect((last["error_radius"] as? Double).map { $0 > 0 } == true)
        #expect(last["position_at"] is String)
        // The kitchen has no gateway of its own: the location names the strongest as its gateway.
        #expect(last["gateway"] as? String == "C")
    }

    @Test func aStillBeaconIsPublishedOnceItsPositionSettles() {
        var h = LocatorHarness(Self.settings(plan: Self.plan))
        Self.walk(&h, x: { _ in 2.5 }, y: 2, from: 0, to: 60)
        // The first positions settle within the deadband; then nothing more for a still beacon.
        let late = h.out.filter { $0.topic == LocatorHarness.locationTopic }.count
        Self.walk(&h, x: { _ in 2.5 }, y: 2, from: 60, to: 120)
        #expect(h.out.filter { $0.topic == LocatorHarness.locationTopic }.count == late)
        // With no deadband, every move of the estimate is published.
        var every = LocatorHarness(Self.settings(plan: Self.plan, deadband: 0))
        Self.walk(&every, x: { t in 2 + t / 30 }, y: 2, from: 0, to: 60)
        #expect(every.out.filter { $0.topic == LocatorHarness.locationTopic }.count > late + 20)
    }

    @Test func aPlanLoadedOnReloadPlacesTheBeaconFromTheNextTick() {
        var h = LocatorHarness(Self.settings(plan: nil))
        Self.walk(&h, x: { _ in 2.5 }, y: 2, from: 0, to: 10)
        #expect(Self.locations(h).allSatisfy { $0["x"] == nil })
        var o: [OutboundMessage] = []
        h.locator.reconfigure(
            settings: Self.settings(plan: Self.plan), qos: 1, distance: DistanceSettings(), publishesRoom: false,
            into: &o)
        Self.walk(&h, x: { _ in 2.5 }, y: 2, from: 10, to: 14)
        #expect(Self.locations(h).last?["x"] is Double)
        #expect(Self.locations(h).last?["room"] as? String == "office")
    }

    /// C stands behind a partition that takes 10 dB off what it hears from the lab; it also reads
    /// 3 dB cold, which `locator.rssi_offset` corrects. A survey of the lab (what C published,
    /// without the offset) puts the beacon back where it is.
    @Test func aSurveyedPlanCorrectsAGatewayBehindAWall() throws {
        func still(_ plan: SitePlan) throws -> Double {
            var settings = Self.settings(plan: plan, deadband: 0)
            settings.rssiOffsets = ["C": 3]
            var h = LocatorHarness(settings)
            for t in 0..<40 {
                for g in Self.plan.gateways {
                    h.locator.observe(
                        LocatorHarness.reading(g.id, 1, at: Double(t), rssi: Self.published(g, x: 7.5, y: 2)))
                }
                h.advance(Double(t) + 1.5)
            }
            let last = try #require(Self.locations(h).last)
            let (x, y) = (try #require(last["x"] as? Double), try #require(last["y"] as? Double))
            return ((x - 7.5) * (x - 7.5) + (y - 2) * (y - 2)).squareRoot()
        }
        var surveyed = Self.plan
        for x in stride(from: 5.25, to: 10, by: 0.5) {
            for y in stride(from: 0.25, to: 4, by: 0.5) {
                surveyed.survey.append(
                    .init(
                        floor: "2", point: .init(x: x, y: y),
                        rssi: Dictionary(
                            uniqueKeysWithValues: Self.plan.gateways.map { ($0.id, Self.published($0, x: x, y: y)) })
                    ))
            }
        }
        let model = try still(Self.plan)
        let mapped = try still(surveyed)
        #expect(model > 1.5)
        #expect(mapped < 0.7)
    }

    /// What gateway `g` publishes of a beacon at (x, y) in the lab: C 10 dB weaker and 3 dB cold.
    static func published(_ g: SitePlan.Gateway, x: Double, y: Double) -> Double {
        let d = g.position.distance(to: SitePosition(x: x, y: y, z: 1))
        return -59 - 20 * Foundation.log10(d) - (g.id == "C" ? 13 : 0)
    }

    @Test func withoutAPlanTheLocationHasNoPosition() {
        var h = LocatorHarness(Self.settings(plan: nil))
        Self.walk(&h, x: { _ in 2.5 }, y: 2, from: 0, to: 10)
        let all = Self.locations(h)
        #expect(!all.isEmpty)
        #expect(all.allSatisfy { $0["x"] == nil && $0["error_radius"] == nil })
    }
}
