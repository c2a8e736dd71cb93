import TestFixtures
import Testing

@testable import BeaconCore

/// The position estimator on a plan of two rooms, the hall with four gateways and the store with
/// none, and readings from the log-distance model it assumes (with noise where it says so).
@Suite struct PositionEstimatorTests {
    static let plan: SitePlan = {
        var p = SitePlan()
        p.rooms = [
            .init(
                floor: "1", name: "hall",
                outline: [.init(x: 0, y: 0), .init(x: 5, y: 0), .init(x: 5, y: 4), .init(x: 0, y: 4)]),
            .init(
                floor: "1", name: "store",
                outline: [.init(x: 5, y: 0), .init(x: 10, y: 0), .init(x: 10, y: 4), .init(x: 5, y: 4)]),
        ]
        p.gateways = [
            .init(id: "a", floor: "1", room: "hall", position: .init(x: 0.5, y: 0.5, z: 2)),
            .init(id: "b", floor: "1", room: "hall", position: .init(x: 4.5, y: 3.5, z: 2)),
            .init(id: "c", floor: "1", room: "hall", position: .init(x: 0.5, y: 3.5, z: 2)),
            .init(id: "d", floor: "1", room: "hall", position: .init(x: 4.8, y: 0.2, z: 2)),
        ]
        return p
    }()

    /// What each gateway hears of a beacon at (x, y), −59 dBm at 1 m, exponent 2.
    static func signals(x: Double, y: Double, noise: inout UInt64, amplitude: Double = 0) -> [PositionEstimator.Signal]
    {
        plan.gateways.map { g in
            noise = noise &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let jitter = (Double(noise >> 11) / Double(1 << 53) * 2 - 1) * amplitude
            let d = g.position.distance(to: SitePosition(x: x, y: y, z: 1))
            return .init(gateway: g.id, rssi: -59 - 20 * log10(d) + jitter)
        }
    }

    static func log10(_ x: Double) -> Double {
        var (m, e) = (x, 0.0)
        while m >= 10 { (m, e) = (m / 10, e + 1) }
        while m < 1 { (m, e) = (m * 10, e - 1) }
        // ln via atanh series on [1, 10): enough digits for a test's model.
        let z = (m - 1) / (m + 1)
        var (term, sum) = (z, 0.0)
        for k in stride(from: 1.0, to: 200, by: 2) {
            sum += term / k
            term *= z * z
        }
        return e + 2 * sum / 2.302585092994046
    }

    @Test func aBeaconInARoomWithNoGatewayIsPlacedThere() throws {
        let estimator = PositionEstimator(plan: Self.plan)
        var noise: UInt64 = 1
        let e = try #require(
            estimator.estimate(
                floor: "1", signals: Self.signals(x: 8, y: 2, noise: &noise), measuredPower: -59, exponent: 2,
                previous: nil, elapsed: 0))
        // Every gateway stands on one side, so the distance across is known worse than along.
        #expect(abs(e.x - 8) < 1.5 && abs(e.y - 2) < 1)
        #expect((e.rooms.first { $0.room == "store" }?.probability ?? 0) > 0.7)
        #expect(e.radius > 0 && e.radius < 3)
        // Nothing heard on the floor: no position.
        #expect(
            estimator.estimate(floor: "1", signals: [], measuredPower: -59, exponent: 2, previous: nil, elapsed: 0)
                == nil)
        #expect(
            estimator.estimate(
                floor: "2", signals: Self.signals(x: 8, y: 2, noise: &noise), measuredPower: -59, exponent: 2,
                previous: nil, elapsed: 0) == nil)
    }

    @Test func theMotionModelHoldsAStillBeacon() throws {
        let estimator = PositionEstimator(plan: Self.plan)
        func scatter(motion: Bool) -> Double {
            var noise: UInt64 = 7
            var previous: PositionEstimator.Estimate?
            var worst = 0.0
            for tick in 0..<60 {
                let e = estimator.estimate(
                    floor: "1", signals: Self.signals(x: 2.5, y: 2, noise: &noise, amplitude: 8), measuredPower: -59,
                    exponent: 2, previous: motion ? previous : nil, elapsed: 1)!
                if tick >= 10 { worst = max(worst, ((e.x - 2.5) * (e.x - 2.5) + (e.y - 2) * (e.y - 2)).squareRoot()) }
                previous = e
            }
            return worst
        }
        let held = scatter(motion: true)
        let free = scatter(motion: false)
        #expect(held < free)
        #expect(held < 1.5)
    }

    @Test func aGatewayThatHearsNothingPushesThePositionAway() throws {
        let estimator = PositionEstimator(plan: Self.plan)
        var noise: UInt64 = 3
        // Only a and c hear the beacon: b and d, which would hear it near them, say it is not there.
        let heard = Self.signals(x: 2.5, y: 2, noise: &noise).filter { $0.gateway == "a" || $0.gateway == "c" }
        let missed = try #require(
            estimator.estimate(floor: "1", signals: heard, measuredPower: -59, exponent: 2, previous: nil, elapsed: 0))
        let ignored = try #require(
            estimator.estimate(
                floor: "1", signals: heard, measuredPower: -59, exponent: 2, offline: ["b", "d"], previous: nil,
                elapsed: 0))
        #expect(missed.x < ignored.x)
    }
}

/// A track placed on the plan stops estimating once the same evidence leaves its position where it
/// was: a still beacon costs its tick nothing more.
@Suite struct LocatorTrackPositionTests {
    /// The track's tick `tick` (a second apart) with `signals` heard again, reported from `room`;
    /// whether its next decision waits for a message (its position settled).
    static func tick(
        _ tick: Int, _ track: inout LocatorTrack, _ signals: [PositionEstimator.Signal], room: String,
        _ site: SitePlacement
    ) -> Bool {
        let t = Fixtures.at(Double(tick))
        for s in signals {
            track.insert(
                .init(timestamp: t, distance: 2, floor: "1", room: room, signal: s.rssi), gateway: s.gateway,
                keep: 5, decided: tick == 0 ? nil : Fixtures.at(Double(tick - 1)))
        }
        _ = track.decide(at: t, LocatorSettings(), offline: [], site: site)
        return track.nextDecision != nil
    }

    @Test func aStillBeaconsPositionSettles() {
        let site = SitePlacement(
            estimator: PositionEstimator(plan: PositionEstimatorTests.plan), exponent: 2, deadband: 1)
        var track = LocatorTrack()
        var noise: UInt64 = 1
        let signals = PositionEstimatorTests.signals(x: 2.5, y: 2, noise: &noise)
        var settledAt: Int?
        var positions: [PositionEstimator.Estimate] = []
        for tick in 0..<60 {
            let settles = Self.tick(tick, &track, signals, room: "hall", site)
            positions.append(track.position.estimate!)
            if settledAt == nil, settles { settledAt = tick }
        }
        let settled = try! #require(settledAt)
        #expect(settled < 30)
        // From then on the position stands.
        #expect(Set(positions[settled...].map { "\($0.x) \($0.y) \($0.radius)" }).count == 1)
    }

    /// The plan says which gateways stand on the floor: a first room is named as soon as each of
    /// them heard the beacon (or is offline), and after `firstTicks` of evidence when one is silent.
    @Test func aFirstRoomOnThePlanWaitsOnlyForTheFloorsGateways() {
        let site = SitePlacement(
            estimator: PositionEstimator(plan: PositionEstimatorTests.plan), exponent: 2, deadband: 1)
        var noise: UInt64 = 1
        let all = PositionEstimatorTests.signals(x: 2.5, y: 2, noise: &noise)
        for (silent, offline, named) in [(nil, [], 0), ("d", [], 2), ("d", ["d"], 0)] as [(String?, Set<String>, Int)] {
            var track = LocatorTrack()
            let first = (0..<5).first { tick in
                let t = Fixtures.at(Double(tick))
                for s in all where s.gateway != silent {
                    track.insert(
                        .init(timestamp: t, distance: 2, floor: "1", room: "hall", signal: s.rssi),
                        gateway: s.gateway, keep: 5, decided: tick == 0 ? nil : Fixtures.at(Double(tick - 1)))
                }
                _ = track.decide(at: t, LocatorSettings(), offline: offline, site: site)
                return track.location?.room == "hall"
            }
            #expect(first == named, "silent: \(silent ?? "none"), offline: \(offline)")
        }
    }

    /// A position stops where the same evidence would take it within a few of its last steps: no
    /// more than a tenth of its error radius from where estimating on and on leads.
    @Test func aSettledPositionStandsNearWhereItsEvidenceLeads() throws {
        let estimator = PositionEstimator(plan: PositionEstimatorTests.plan)
        let site = SitePlacement(estimator: estimator, exponent: 2, deadband: 1)
        var track = LocatorTrack()
        var noise: UInt64 = 1
        // In the store, which has no gateway: the posterior is wide and moves slowly.
        let signals = PositionEstimatorTests.signals(x: 7.5, y: 2, noise: &noise)
        let settled = try #require((0..<60).first { Self.tick($0, &track, signals, room: "store", site) })
        let stood = try #require(track.position.estimate)
        var on = stood
        for _ in 0..<100 {
            on = try #require(
                estimator.estimate(
                    floor: "1", signals: signals, measuredPower: -59, exponent: 2, previous: on, elapsed: 1))
        }
        let (dx, dy) = (on.x - stood.x, on.y - stood.y)
        #expect((dx * dx + dy * dy).squareRoot() < stood.radius / 10)
        #expect(abs(on.radius - stood.radius) < stood.radius / 10)
        #expect(settled < 15)
    }
}

/// The belief carried between ticks is the whole posterior on the grid (`PositionEstimator.Belief`):
/// what a Gaussian summary would lose, and its bound.
@Suite struct PositionBeliefTests {
    /// Two rooms either side of a wall with one gateway on the wall: its reading says how far, not
    /// which side.
    static let plan = RadioMapTests.westAndEast([
        .init(id: "wall", floor: "1", room: "west", position: .init(x: 5, y: 2, z: 2))
    ])

    /// The belief of a beacon at (x, y) on the estimator's grid, one square each, equal weights.
    static func belief(_ estimator: PositionEstimator, at points: [(x: Double, y: Double)]) -> PositionEstimator.Belief
    {
        let f = estimator.floors["1"]!
        let squares = points.map { p in
            Int32(
                Int(((p.y - f.origin.y) / estimator.model.cell).rounded()) * f.columns
                    + Int(((p.x - f.origin.x) / estimator.model.cell).rounded()))
        }
        return .init(grid: f.grid, squares: squares.sorted(), weights: squares.map { _ in 1 })
    }

    static func share(_ e: PositionEstimator.Estimate, _ room: String) -> Double {
        e.rooms.first { $0.room == room }?.probability ?? 0
    }

    @Test func aBeliefEitherSideOfAWallKeepsBothSides() throws {
        let estimator = PositionEstimator(plan: Self.plan)
        // Heard as 3 m away: as likely 3 m west as 3 m east.
        let d = SitePosition(x: 2, y: 2, z: 1).distance(to: Self.plan.gateways[0].position)
        let signals = [PositionEstimator.Signal(gateway: "wall", rssi: -59 - 20 * PositionEstimatorTests.log10(d))]
        var e = PositionEstimator.Estimate(
            floor: "1", x: 5, y: 2, radius: 3, belief: Self.belief(estimator, at: [(2.25, 1.75), (7.75, 1.75)]))
        for _ in 0..<30 {
            e = try #require(
                estimator.estimate(
                    floor: "1", signals: signals, measuredPower: -59, exponent: 2, previous: e, elapsed: 1))
        }
        #expect(Self.share(e, "west") > 0.4 && Self.share(e, "east") > 0.4, "\(e.rooms)")
        // Two modes, not one blob about the mean on the wall: the likeliest squares lie either side,
        // and those by the wall are well below them.
        let f = estimator.floors["1"]!
        let belief = try #require(e.belief)
        let x = belief.squares.map { f.origin.x + Double(Int($0) % f.columns) * estimator.model.cell }
        func heaviest(_ within: (Double) -> Bool) -> Float {
            zip(x, belief.weights).filter { within($0.0) }.map(\.1).max() ?? 0
        }
        #expect(heaviest { $0 < 4 } > 0.8 && heaviest { $0 > 6 } > 0.8)
        #expect(heaviest { abs($0 - 5) < 1 } < 0.5, "\(zip(x, belief.weights).map { ($0, $1) })")
    }

    /// A walk stays within the rooms: a square in the plan's corner spreads all its weight over
    /// the rooms' squares, as one in the middle does, rather than losing what falls beyond the
    /// outline (which placed a still beacon by an outer wall inwards, tick after tick).
    @Test func aWalkStaysWithinTheRooms() throws {
        let estimator = PositionEstimator(plan: Self.plan)
        let f = estimator.floors["1"]!
        func spread(from point: (x: Double, y: Double)) throws -> Double {
            let prior = try #require(estimator.spread(Self.belief(estimator, at: [point]), on: f, elapsed: 1))
            var inRooms = 0.0
            for row in prior.rows {
                for column in prior.columns where f.squares[row * f.columns + column] >= 0 {
                    inRooms +=
                        prior.weights[
                            (row - prior.rows.lowerBound) * prior.columns.count + column
                                - prior.columns.lowerBound]
                }
            }
            return inRooms
        }
        let corner = try spread(from: (0.25, 0.25))
        let middle = try spread(from: (2.25, 1.75))
        #expect(abs(corner / middle - 1) < 1e-9, "\(corner) \(middle)")
    }

    @Test func aSplitBeliefIsAnsweredInItsHeavierPartNotOnTheWall() throws {
        let estimator = PositionEstimator(plan: Self.plan)
        let d = SitePosition(x: 2, y: 2, z: 1).distance(to: Self.plan.gateways[0].position)
        let signals = [PositionEstimator.Signal(gateway: "wall", rssi: -59 - 20 * PositionEstimatorTests.log10(d))]
        // Three times as likely west as east: the mean (x ≈ 3.5) lies between the two parts.
        let previous = PositionEstimator.Estimate(
            floor: "1", x: 3.6, y: 2, radius: 3,
            belief: Self.belief(estimator, at: [(1.75, 1.75), (2.25, 1.75), (2.25, 2.25), (7.75, 1.75)]))
        let e = try #require(
            estimator.estimate(
                floor: "1", signals: signals, measuredPower: -59, exponent: 2, previous: previous, elapsed: 1))
        #expect(Self.share(e, "west") > 0.6 && Self.share(e, "east") > 0.1, "\(e.rooms)")
        // The geometric median: in the heavier part, where the beacon is more often nearest.
        #expect(e.x < 3, "\(e.x)")
    }

    @Test func aStillBeaconsPosteriorConverges() throws {
        let estimator = PositionEstimator(plan: PositionEstimatorTests.plan)
        var noise: UInt64 = 5
        let signals = PositionEstimatorTests.signals(x: 3, y: 1.5, noise: &noise)
        var e = try #require(
            estimator.estimate(floor: "1", signals: signals, measuredPower: -59, exponent: 2, previous: nil, elapsed: 0)
        )
        var steps: [Double] = []
        for _ in 0..<40 {
            let next = try #require(
                estimator.estimate(
                    floor: "1", signals: signals, measuredPower: -59, exponent: 2, previous: e, elapsed: 1))
            steps.append(((next.x - e.x) * (next.x - e.x) + (next.y - e.y) * (next.y - e.y)).squareRoot())
            e = next
        }
        // The steps shrink to nothing: the same evidence reaches a fixed point, near the beacon.
        #expect(steps.last! < 1e-4, "\(steps)")
        #expect(steps.suffix(10).max()! < steps.prefix(3).max()! || steps.prefix(3).max()! < 1e-4)
        #expect(abs(e.x - 3) < 0.6 && abs(e.y - 1.5) < 0.6, "\(e.x) \(e.y)")
        // Sharper than one tick's evidence alone, which the prior adds to.
        let alone = try #require(
            estimator.estimate(floor: "1", signals: signals, measuredPower: -59, exponent: 2, previous: nil, elapsed: 0)
        )
        #expect(e.radius < alone.radius)
    }

    @Test func theCarriedBeliefIsBounded() throws {
        // One gateway of the flat plan heard: a ring over most of the floor.
        var model = PositionEstimator.Model()
        let wide = PositionEstimator(plan: Self.plan, model: model)
        let signals = [PositionEstimator.Signal(gateway: "wall", rssi: -70)]
        let e = try #require(
            wide.estimate(floor: "1", signals: signals, measuredPower: -59, exponent: 2, previous: nil, elapsed: 0))
        let all = try #require(e.belief)
        #expect(all.count > 40 && all.count <= model.beliefCells)
        #expect(all.weights.allSatisfy { Double($0) >= model.prune } && all.weights.max() == 1)
        #expect(all.squares == all.squares.sorted())
        model.beliefCells = 16
        let bounded = PositionEstimator(plan: Self.plan, model: model)
        let few = try #require(
            bounded.estimate(floor: "1", signals: signals, measuredPower: -59, exponent: 2, previous: nil, elapsed: 0)?
                .belief)
        #expect(few.count <= 16 && few.weights.contains(1))
        // The heaviest are kept: none left out outweighs one kept.
        let kept = Dictionary(uniqueKeysWithValues: zip(few.squares, few.weights))
        let dropped = zip(all.squares, all.weights).filter { kept[$0.0] == nil }.map(\.1)
        #expect(dropped.max()! <= few.weights.min()!)
        #expect(few.squares.allSatisfy { kept[$0] == all.weights[all.squares.firstIndex(of: $0)!] })
    }

    @Test func aBeliefOnAnotherGridIsNoPrior() throws {
        let estimator = PositionEstimator(plan: Self.plan)
        let signals = [PositionEstimator.Signal(gateway: "wall", rssi: -66)]
        var stale = Self.belief(estimator, at: [(2.25, 1.75)])
        stale.grid.columns += 2
        let previous = PositionEstimator.Estimate(floor: "1", x: 2.25, y: 1.75, radius: 0.25, belief: stale)
        let afresh = estimator.estimate(
            floor: "1", signals: signals, measuredPower: -59, exponent: 2, previous: nil, elapsed: 0)
        #expect(
            estimator.estimate(
                floor: "1", signals: signals, measuredPower: -59, exponent: 2, previous: previous, elapsed: 1) == afresh
        )
        // On its own grid the same belief holds the beacon west.
        stale.grid.columns -= 2
        let held = try #require(
            estimator.estimate(
                floor: "1", signals: signals, measuredPower: -59, exponent: 2,
                previous: .init(floor: "1", x: 2.25, y: 1.75, radius: 0.25, belief: stale), elapsed: 1))
        let whole = try #require(afresh)
        #expect(Self.share(held, "west") > 0.9 && abs(whole.x - 5) < 0.5)
    }
}
