import BeaconCore
import BeaconWire
import MessageContract
import TestFixtures
import Testing
import Vocabulary

/// Several locators, one answer: decisions depend only on the readings and their timestamps.
@Suite struct LocatorAgreementTests {
    typealias H = LocatorHarness

    /// A noisy walk along a corridor: A at x = 0 on floor 1, B at x = 8 and C at x = 16 on floor 2
    /// (3 m up). The beacon (1 m off the corridor) rests 30 s at A, B, C, B, A and walks 30 s between
    /// them, climbing the stairs between A and B. Every gateway reports once a second; distances
    /// are doubled through a floor and get ±50 % multiplicative noise (about ±4 dB at n = 2.7) from
    /// a fixed LCG, so the B/C and A/B cross-overs are ambiguous for several seconds.
    static let moves: [ClosedRange<Double>] = [30...60, 90...120, 150...180, 210...240]

    static func walk(seconds: Int = 280) -> [LocatorReading] {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func noise() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return 0.5 + Double(state >> 11) / Double(1 << 53)
        }
        let stops: [(x: Double, z: Double)] = [(0, 0), (8, 3), (16, 3), (8, 3), (0, 0)]
        let gateways: [(id: String, x: Double, z: Double)] = [("A", 0, 0), ("B", 8, 3), ("C", 16, 3)]
        var out: [LocatorReading] = []
        for s in 0..<seconds {
            let leg = min(s / 60, 4)
            let into = Double(s - leg * 60)
            let f = leg == 4 ? 0 : max(0, min(1, (into - 30) / 30))
            let from = stops[leg]
            let to = stops[min(leg + 1, 4)]
            let x = from.x + (to.x - from.x) * f
            let z = from.z + (to.z - from.z) * f
            for (i, g) in gateways.enumerated() {
                let d = ((x - g.x) * (x - g.x) + 1 + (z - g.z) * (z - g.z)).squareRoot()
                let throughFloor = (z < 1.5) != (g.z < 1.5)
                out.append(H.reading(g.id, d * (throughFloor ? 2 : 1) * noise(), at: Double(s) + 0.1 + Double(i) * 0.2))
            }
        }
        return out
    }

    static func feed(_ h: inout LocatorHarness, _ readings: [LocatorReading], until end: Double, step: Double) {
        var next = 0
        var now = step
        while now <= end {
            while next < readings.count, readings[next].timestamp <= Fixtures.at(now) {
                h.locator.observe(readings[next])
                next += 1
            }
            h.advance(now)
            now += step
        }
    }

    static func settings(_ engine: LocatorSettings.Engine) -> LocatorSettings {
        var s = LocatorSettings()
        s.engine = engine
        return s
    }

    @Test(arguments: LocatorSettings.Engine.allCases)
    func aNoisyWalkFlipsOncePerRealMove(engine: LocatorSettings.Engine) {
        var h = H(Self.settings(engine))
        Self.feed(&h, Self.walk(), until: 285, step: 1)
        #expect(h.owners == ["A", "B", "C", "B", "A"])
        // Each hand-over comes during its move or within 15 s after it.
        let times = h.eventTimes
        #expect(times.count == 5)
        for (move, t) in zip(Self.moves, times.dropFirst()) {
            #expect(t >= move.lowerBound && t <= move.upperBound + 15, "hand-over at \(t) for move \(move)")
        }
        // The same walk without hysteresis flaps: the scenario is noisy enough to test it.
        var bare = LocatorSettings.nearest
        bare.handOver.switchOutright = 0
        bare.handOver.switchSustained = 0
        bare.handOver.minDwell = .zero
        var flappy = H(bare)
        Self.feed(&flappy, Self.walk(), until: 285, step: 1)
        #expect(flappy.owners.count > 7)
    }

    @Test(arguments: LocatorSettings.Engine.allCases)
    func twoLocatorsFedInDifferentOrderAndPacePublishTheSameLocations(engine: LocatorSettings.Engine) {
        let readings = Self.walk()
        var first = H(Self.settings(engine))
        Self.feed(&first, readings, until: 285, step: 1)
        // The second receives each second's readings reversed and late by up to 0.7 s, and its
        // clock ticks at another pace.
        var second = H(Self.settings(engine))
        var shuffled: [LocatorReading] = []
        for s in 0..<280 {
            shuffled += readings.filter { Int(($0.timestamp - Fixtures.t0).seconds) == s }.reversed()
        }
        var next = 0
        var now = 0.3
        while now <= 285 {
            while next < shuffled.count, shuffled[next].timestamp + .milliseconds(700) <= Fixtures.at(now) {
                second.locator.observe(shuffled[next])
                next += 1
            }
            second.advance(now)
            now += 0.35
        }
        // Five moves, a location and an event each (the belief engine's locations again for new
        // confidence bands besides).
        #expect(first.out.count(where: { $0.topic == H.eventTopic }) == 5)
        #expect(engine == .belief || first.out.count == 10)
        #expect(first.out == second.out)
    }

    /// The nearest engine holds nothing but the location: a late locator that adopts it decides as
    /// the first one does from then on.
    @Test func aLocatorStartedLateAdoptsTheRetainedLocationAndConverges() {
        let readings = Self.walk()
        var first = H(.nearest)
        Self.feed(&first, readings.filter { $0.timestamp < Fixtures.at(100) }, until: 100, step: 1)
        #expect(first.owners == ["A", "B"])
        // The late one reads the retained location the first published, then both get the same stream.
        let retained = first.out.last { $0.retain }!
        var late = H(.nearest)
        let adopted = late.locator.handle(topic: retained.topic, payload: retained.payload.text)
        #expect(adopted)
        #expect(late.locator.location(of: H.beacon) == first.locator.location(of: H.beacon))
        let rest = readings.filter { $0.timestamp >= Fixtures.at(100) }
        let before = first.out.count
        var next = 0
        var now = 101.0
        while now <= 285 {
            while next < rest.count, rest[next].timestamp <= Fixtures.at(now) {
                first.locator.observe(rest[next])
                late.locator.observe(rest[next])
                next += 1
            }
            first.advance(now)
            late.advance(now)
            now += 1
        }
        #expect(Array(first.out[before...]) == late.out)  // no spurious start-up event, same hand-overs
        #expect(late.owners == ["C", "B", "A"])
    }

    /// The nearest engine gives a restored owner `stale_after` to report.
    @Test func aRestoredOwnerThatNeverReportsAgainIsReplacedAfterStaleAfter() {
        var late = H(.nearest)
        let home = LocatorLocation(
            gateway: "A", floor: "1", room: "hall", accuracy: 1, since: Fixtures.at(0), confidence: 1,
            lastSeen: Fixtures.at(0))
        late.locator.restore(H.beacon, home)
        late.advance(101)  // first tick 100 starts the grace
        for s in stride(from: 100.5, to: 140, by: 1) {
            late.see("B", 3, at: s)
            late.advance(s + 1.5)
        }
        #expect(late.owners == ["B"])
        #expect(late.eventTimes == [135])  // 100 + stale_after 35 s
    }

    @Test func retainedLocationsRoundTripThroughTheirPayload() {
        let l = LocatorLocation(
            gateway: "B", floor: "2", room: "office", accuracy: 1.25, since: Fixtures.at(3), confidence: 0.5,
            lastSeen: Fixtures.at(2.5))
        let topic = "beacons/e2c56db5-dffb-48d2-b060-d0f5a71096e0/1/1/location"
        let back = LocatorLocation.retained(topic: topic, payload: l.json, baseTopic: "beacons")
        #expect(back?.0 == H.beacon)
        #expect(back?.1 == l)
        let away = LocatorLocation(
            gateway: nil, floor: nil, room: nil, accuracy: nil, since: Fixtures.at(9), confidence: nil,
            lastSeen: Fixtures.at(2.5))
        #expect(LocatorLocation.retained(topic: topic, payload: away.json, baseTopic: "beacons")?.1 == away)
        #expect(LocatorLocation.retained(topic: topic, payload: "", baseTopic: "beacons") == nil)
        #expect(LocatorLocation.retained(topic: "other/" + topic, payload: l.json, baseTopic: "beacons") == nil)
    }

    @Test func proximityMessagesOfTheContractParseIntoReadings() {
        // The proximity example of docs/topics.md, "Payloads", published by gateway gw1.
        let payload =
            #"{"uuid":"e2c56db5-dffb-48d2-b060-d0f5a71096e0","major":1,"minor":1,"name":"keys","gateway":"gw1","floor":"1","room":"kitchen","address":"c0:ff:ee:00:00:01","rssi":-59,"rssi_filtered":-59.5,"measured_power":-59,"accuracy":1.01,"proximity":"near","timestamp":"2024-05-01T12:00:01.000Z"}"#
        let r = LocatorReading(
            topic: "beacons/e2c56db5-dffb-48d2-b060-d0f5a71096e0/1/1/gw1/proximity", payload: payload,
            baseTopic: "beacons")
        #expect(
            r
                == LocatorReading(
                    beacon: H.beacon, name: "keys", gateway: "gw1", floor: "1", room: "kitchen", filteredRSSI: -59.5,
                    rssi: -59, measuredPower: -59, accuracy: 1.01, timestamp: Fixtures.at(1)))
        let eddystone = LocatorReading(
            topic: "beacons/eddystone/00112233445566778899/aabbccddeeff/gw2/proximity",
            payload:
                #"{"floor":null,"room":null,"rssi_filtered":null,"accuracy":-1,"timestamp":"2024-05-01T12:00:01.000Z"}"#,
            baseTopic: "beacons")
        #expect(eddystone?.beacon == .eddystone(BeaconID128(uuidString: "00112233-4455-6677-8899-aabbccddeeff")!))
        #expect(eddystone?.floor == nil && eddystone?.filteredRSSI == nil && eddystone?.accuracy == -1)
        #expect(
            LocatorReading(
                topic: "beacons/e2c56db5-dffb-48d2-b060-d0f5a71096e0/1/1/gw1/state", payload: payload,
                baseTopic: "beacons") == nil)
    }

    /// Nearest: B at the first settled tick; belief: at the third tick of evidence. Both: C once B's
    /// exit event (10.5 s) takes its readings away.
    @Test(arguments: [(LocatorSettings.Engine.nearest, [1.0, 11]), (.belief, [3, 11])])
    func exitEventsAndStatusMessagesAreRouted(engine: LocatorSettings.Engine, times: [Double]) {
        var h = H(Self.settings(engine))
        h.see("B", 1, at: 0.5)
        h.see("C", 5, at: 0.5)
        h.advance(4)
        let exit =
            #"{"event":"exit","uuid":"e2c56db5-dffb-48d2-b060-d0f5a71096e0","major":1,"minor":1,"name":null,"gateway":"B","floor":"2","room":"office","address":"c0:ff:ee:00:00:01","rssi":-70,"timestamp":"2024-05-01T12:00:10.500Z","last_seen":"2024-05-01T12:00:00.500Z"}"#
        let handled = h.locator.handle(topic: "beacons/e2c56db5-dffb-48d2-b060-d0f5a71096e0/1/1/B/event", payload: exit)
        #expect(handled)
        h.advance(12)
        #expect(h.owners == ["B", "C"])
        #expect(h.eventTimes == times)
        let unknown = h.locator.handle(topic: "beacons/regions/office/B/state", payload: "inside")
        #expect(!unknown)
    }
}
