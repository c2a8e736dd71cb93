import BeaconCore
import Testing

/// The surveyed radio map on two rooms side by side, west and east, each 5 m × 4 m: gateway `b`
/// stands in the east room behind a partition that takes 10 dB off everything it hears from that
/// room, which the path-loss model cannot know.
@Suite struct RadioMapTests {
    static let plan = westAndEast([
        .init(id: "a", floor: "1", room: "west", position: .init(x: 0.5, y: 2, z: 2)),
        .init(id: "b", floor: "1", room: "east", position: .init(x: 9.5, y: 2, z: 2)),
        .init(id: "c", floor: "1", room: "west", position: .init(x: 4.8, y: 0.2, z: 2)),
        .init(id: "d", floor: "1", room: "east", position: .init(x: 5.2, y: 3.8, z: 2)),
    ])

    /// Two rooms of floor 1 side by side, west and east, each 5 m × 4 m, and `gateways`.
    static func westAndEast(_ gateways: [SitePlan.Gateway]) -> SitePlan {
        var p = SitePlan()
        p.rooms = [
            .init(
                floor: "1", name: "west",
                outline: [.init(x: 0, y: 0), .init(x: 5, y: 0), .init(x: 5, y: 4), .init(x: 0, y: 4)]),
            .init(
                floor: "1", name: "east",
                outline: [.init(x: 5, y: 0), .init(x: 10, y: 0), .init(x: 10, y: 4), .init(x: 5, y: 4)]),
        ]
        p.gateways = gateways
        return p
    }

    /// What each gateway publishes of a −59 dBm beacon at (x, y), exponent 2; `wall` dB off `b`
    /// in the east room.
    static func readings(x: Double, y: Double, wall: Double = 10) -> [String: Double] {
        var out: [String: Double] = [:]
        for g in plan.gateways {
            let d = g.position.distance(to: SitePosition(x: x, y: y, z: 1))
            out[g.id] = -59 - 20 * PositionEstimatorTests.log10(d) - (g.id == "b" && x > 5 ? wall : 0)
        }
        return out
    }

    /// Survey points 0.5 m apart over the rooms, read as `readings` gives them.
    static func surveyed(wall: Double = 10) -> SitePlan {
        var p = plan
        for x in stride(from: 0.25, to: 10, by: 0.5) {
            for y in stride(from: 0.25, to: 4, by: 0.5) {
                p.survey.append(.init(floor: "1", point: .init(x: x, y: y), rssi: readings(x: x, y: y, wall: wall)))
            }
        }
        return p
    }

    static func signals(_ readings: [String: Double], offsets: [String: Double] = [:]) -> [PositionEstimator.Signal] {
        readings.keys.sorted().map { .init(gateway: $0, rssi: readings[$0]! + (offsets[$0] ?? 0)) }
    }

    static func place(
        _ estimator: PositionEstimator, _ signals: [PositionEstimator.Signal],
        previous: PositionEstimator.Estimate? = nil
    ) throws -> PositionEstimator.Estimate {
        try #require(
            estimator.estimate(
                floor: "1", signals: signals, measuredPower: -59, exponent: 2, previous: previous, elapsed: 0))
    }

    /// Where a still beacon settles: 20 ticks a second apart with the same evidence.
    static func settle(
        _ estimator: PositionEstimator, _ signals: [PositionEstimator.Signal]
    ) throws
        -> PositionEstimator.Estimate
    {
        var e = try place(estimator, signals)
        for _ in 1..<20 {
            e = try #require(
                estimator.estimate(
                    floor: "1", signals: signals, measuredPower: -59, exponent: 2, previous: e, elapsed: 1))
        }
        return e
    }

    static func east(_ e: PositionEstimator.Estimate) -> Double {
        e.rooms.first { $0.room == "east" }?.probability ?? 0
    }

    @Test func aSurveyCorrectsTheGatewayBehindTheWall() throws {
        let signals = Self.signals(Self.readings(x: 7, y: 2))
        let model = try Self.settle(PositionEstimator(plan: Self.plan), signals)
        // The model reads b's 10 dB as distance and places the beacon 2 m west, on the wall.
        #expect(Self.east(model) < 0.6, "\(model)")
        #expect(model.x < 5.5)
        var estimator = PositionEstimator(plan: Self.surveyed())
        #expect(estimator.surveyed == ["a", "b", "c", "d"])
        // Not built yet: the model alone.
        #expect(try Self.settle(estimator, signals) == model)
        estimator.map(offsets: [0, 0, 0, 0], exponent: 2)
        let mapped = try Self.settle(estimator, signals)
        #expect(Self.east(mapped) > 0.8, "\(mapped)")
        #expect(abs(mapped.x - 7) < 0.6 && abs(mapped.y - 2) < 0.3)
        // A map built for another exponent is not used with this one.
        estimator.map(offsets: [0, 0, 0, 0], exponent: 2.5)
        #expect(try Self.settle(estimator, signals) == model)
    }

    @Test func theMapTakesTheLocatorsOffsets() throws {
        // The survey has what b published; the locator adds its offset, +10 dB, to b's readings.
        let signals = Self.signals(Self.readings(x: 7, y: 2), offsets: ["b": 10])
        var estimator = PositionEstimator(plan: Self.surveyed())
        estimator.map(offsets: [0, 10, 0, 0], exponent: 2)
        let offset = try Self.settle(estimator, signals)
        estimator.map(offsets: [0, 0, 0, 0], exponent: 2)
        let none = try Self.settle(estimator, signals)
        #expect(abs(offset.x - 7) < 0.6 && abs(offset.y - 2) < 0.3)
        #expect(abs(none.x - 7) > abs(offset.x - 7))
    }

    /// A point that averages many readings moves the map further than a single reading there.
    @Test func aPointWeighsAsTheReadingsItStandsFor() throws {
        let signals = Self.signals(Self.readings(x: 2, y: 2, wall: 0))
        let plain = try Self.place(PositionEstimator(plan: Self.plan), signals)
        func shift(_ readings: Int) throws -> Double {
            var plan = Self.plan
            var rssi = Self.readings(x: 2, y: 2, wall: 0)
            rssi["a"]! += 10
            plan.survey = [.init(floor: "1", point: .init(x: 2, y: 2), rssi: rssi, readings: readings)]
            var estimator = PositionEstimator(plan: plan)
            estimator.map(offsets: [0, 0, 0, 0], exponent: 2)
            let e = try Self.place(estimator, signals)
            return ((e.x - plain.x) * (e.x - plain.x) + (e.y - plain.y) * (e.y - plain.y)).squareRoot()
        }
        #expect(try shift(1) > 0)
        #expect(try shift(30) > 2 * shift(1))
    }

    /// A survey that agrees with the model moves no level, so the beacon is placed about where the
    /// model places it; but there a reading scatters by `surveyScatter`, not the model's
    /// `shadowing`, so the posterior is tighter.
    @Test func aSurveyThatAgreesWithTheModelNarrowsTheRadius() throws {
        let plain = PositionEstimator(plan: Self.plan)
        var estimator = PositionEstimator(plan: Self.surveyed(wall: 0))
        estimator.map(offsets: [0, 0, 0, 0], exponent: 2)
        for (x, y) in [(1.0, 1.0), (4.2, 3.1), (6.0, 2.0), (9.0, 0.5)] {
            let signals = Self.signals(Self.readings(x: x, y: y, wall: 0))
            let a = try Self.settle(plain, signals)
            let b = try Self.settle(estimator, signals)
            #expect(abs(b.x - a.x) < 0.25 && abs(b.y - a.y) < 0.25, "\(a) \(b)")
            #expect(b.radius < 0.95 * a.radius, "\(a.radius) \(b.radius)")
        }
    }

    /// A reading the survey explains at one place outweighs one the model explains as well at
    /// another: the model's level there is uncertain by its `shadowing`, the surveyed one only by
    /// its `surveyScatter`, so the surveyed place is the likelier. Here the west room's survey reads
    /// (a mirror, a reflection) what the model expects at the mirror place in the east room.
    @Test func aPlaceTheSurveyExplainsOutweighsOneTheModelExplains() throws {
        var plan = Self.plan
        for x in stride(from: 1.75, to: 3.5, by: 0.5) {
            for y in stride(from: 0.75, to: 3.5, by: 0.5) {
                let rssi = Self.readings(x: 10 - x, y: 4 - y, wall: 0)
                plan.survey.append(.init(floor: "1", point: .init(x: x, y: y), rssi: rssi, readings: 10))
            }
        }
        var estimator = PositionEstimator(plan: plan)
        estimator.map(offsets: [0, 0, 0, 0], exponent: 2)
        for (x, y) in [(2.75, 2.25), (2.25, 1.25)] {
            let e = try Self.place(estimator, Self.signals(Self.readings(x: 10 - x, y: 4 - y, wall: 0)))
            // With one width for both, the two places weigh alike (east ≈ 0.5) and the answer is between them.
            #expect(Self.east(e) < 0.35 && e.x < 4, "\(e)")
        }
    }

    @Test func farFromEverySurveyPointTheModelHolds() throws {
        // Points in the west third only, where b reads 10 dB hot.
        var plan = Self.plan
        for x in stride(from: 0.25, to: 3, by: 0.5) {
            for y in stride(from: 0.25, to: 4, by: 0.5) {
                var rssi = Self.readings(x: x, y: y)
                rssi["b"]! += 10
                plan.survey.append(.init(floor: "1", point: .init(x: x, y: y), rssi: rssi))
            }
        }
        var estimator = PositionEstimator(plan: plan)
        estimator.map(offsets: [0, 0, 0, 0], exponent: 2)
        let plain = PositionEstimator(plan: Self.plan)
        let signals = Self.signals(Self.readings(x: 9, y: 2, wall: 0))
        // A beacon held by its belief about (9, 2): the cells the prior reaches are all far from the points.
        let previous = PositionEstimator.Estimate(
            floor: "1", x: 9, y: 2, radius: 0.5, belief: PositionBeliefTests.belief(plain, at: [(9.25, 1.75)]))
        #expect(
            try Self.place(estimator, signals, previous: previous) == Self.place(plain, signals, previous: previous))
        // Near the points it does not.
        let west = Self.signals(Self.readings(x: 1.5, y: 2, wall: 0))
        let near = PositionEstimator.Estimate(floor: "1", x: 1.5, y: 2, radius: 0.5)
        #expect(try Self.place(estimator, west, previous: near) != Self.place(plain, west, previous: near))
    }
}
