import BeaconCore
import Foundation
import Testing

@Suite struct PathLossCalibrationTests {
    /// Gateways on a 12 × 8 m floor, every one hearing every other.
    static let places: [(String, SitePosition)] = [
        ("A", SitePosition(x: 0, y: 0)), ("B", SitePosition(x: 12, y: 0)), ("C", SitePosition(x: 0, y: 8)),
        ("D", SitePosition(x: 12, y: 8)), ("E", SitePosition(x: 5, y: 3, z: 1)),
    ]
    static let bias: [String: Double] = ["A": 6, "B": -4, "C": 0, "D": 3, "E": -7]

    /// Readings of every pair: power −59, exponent `n`, each receiver `bias` dB hot, plus `noise(i)`.
    static func readings(n: Double, noise: (Int) -> Double) -> [PathLossCalibration.Observation] {
        var out: [PathLossCalibration.Observation] = []
        for (r, a) in places {
            for (t, b) in places where t != r {
                let d = a.distance(to: b)
                let rssi = -59 + bias[r]! - 10 * n * log10(d) + noise(out.count)
                out.append(.init(receiver: r, distance: d, rssi: rssi, measuredPower: -59))
            }
        }
        return out
    }

    @Test func recoversTheBiasesAndTheExponentItWasGiven() throws {
        for n in [1.8, 2.7, 3.5] {
            // Deterministic ±1.5 dB noise.
            let fit = try #require(PathLossCalibration.fit(Self.readings(n: n) { [1.5, -1.5, 0.7, -0.7][$0 % 4] }))
            #expect(fit.exponentFitted)
            #expect(abs(fit.exponent - n) < 0.2, "exponent \(fit.exponent) for \(n)")
            // The exponent's error shifts every offset alike (times the mean log distance): the
            // differences between gateways, which decide rooms, are held tighter than the level.
            let common = Self.bias.map { fit.offsets[$0]! + $1 }.reduce(0, +) / Double(Self.bias.count)
            #expect(abs(common) < 2.5)
            for (g, b) in Self.bias {
                #expect(abs(fit.offsets[g]! + b - common) < 0.7, "\(g): offset \(fit.offsets[g]!) for a bias of \(b)")
            }
            #expect(fit.observations == 20)
        }
    }

    @Test func oneWildReadingDoesNotMoveTheFit() throws {
        let clean = try #require(PathLossCalibration.fit(Self.readings(n: 2.5) { _ in 0 }))
        // A reflection: one pair reads 20 dB hot.
        let wild = try #require(PathLossCalibration.fit(Self.readings(n: 2.5) { $0 == 5 ? 20 : 0 }))
        #expect(abs(wild.exponent - clean.exponent) < 0.1)
        for g in Self.bias.keys { #expect(abs(wild.offsets[g]! - clean.offsets[g]!) < 1, "\(g)") }
        #expect(abs(clean.exponent - 2.5) < 1e-6 && clean.residual < 1e-6)
    }

    @Test func oneDistanceKeepsThePriorExponent() throws {
        // Two gateways 4 m apart: each hears the other at one distance, so only offsets can be fitted.
        let obs: [PathLossCalibration.Observation] = [
            .init(receiver: "A", distance: 4, rssi: -59 + 5 - 20 * log10(4.0), measuredPower: -59),
            .init(receiver: "B", distance: 4, rssi: -59 - 3 - 20 * log10(4.0), measuredPower: -59),
        ]
        let fit = try #require(PathLossCalibration.fit(obs))
        #expect(!fit.exponentFitted && fit.exponent == PathLossCalibration.priorExponent)
        #expect(abs(fit.offsets["A"]! - -5) < 1e-9 && abs(fit.offsets["B"]! - 3) < 1e-9)
        #expect(PathLossCalibration.fit([]) == nil)
    }

    @Test func anImplausibleSlopeKeepsThePrior() throws {
        // RSSI rising with distance (a receiver behind a wall next to it): no exponent is fitted.
        let fit = try #require(PathLossCalibration.fit(Self.readings(n: -1) { _ in 0 }))
        #expect(!fit.exponentFitted && fit.exponent == PathLossCalibration.priorExponent)
    }
}
