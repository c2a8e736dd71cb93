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
    @Test func aStillBeaconsPositionSettles() {
        let site = SitePlacement(
            estimator: PositionEstimator(plan: PositionEstimatorTests.plan), exponent: 2, deadband: 1)
        var track = LocatorTrack()
        var noise: UInt64 = 1
        let signals = PositionEstimatorTests.signals(x: 2.5, y: 2, noise: &noise)
        var settledAt: Int?
        var positions: [PositionEstimator.Estimate] = []
        for tick in 0..<60 {
            let t = Fixtures.at(Double(tick))
            for s in signals {
                track.insert(
                    .init(timestamp: t, distance: 2, floor: "1", room: "hall", signal: s.rssi), gateway: s.gateway,
                    keep: 5, decided: tick == 0 ? nil : Fixtures.at(Double(tick - 1)))
            }
            _ = track.decide(at: t, LocatorSettings(), offline: [], site: site)
            positions.append(track.position.estimate!)
            if settledAt == nil, track.nextDecision != nil { settledAt = tick }
        }
        let settled = try! #require(settledAt)
        #expect(settled < 30)
        // From then on the position stands.
        #expect(Set(positions[settled...].map { "\($0.x) \($0.y) \($0.radius)" }).count == 1)
    }
}
