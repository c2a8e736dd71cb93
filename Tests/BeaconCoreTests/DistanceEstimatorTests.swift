import BeaconCore
import Testing

@Suite struct DistanceEstimatorTests {
    let curve = DistanceSettings()
    var logDistance: DistanceSettings {
        var s = DistanceSettings()
        s.model = .logDistance
        return s
    }

    @Test func curveFitAtTheMeasuredPowerIsA_plus_C() {
        // ratio = 1 → 0.89976·1 + 0.111 = 1.01076 (by hand).
        let a = DistanceEstimator.accuracy(rssi: -59, measuredPower: -59, settings: curve)
        #expect(abs(a - 1.01076) < 1e-12)
    }

    @Test func curveFitMatchesIndependentComputation() {
        // Python: 0.89976*(70/59)**7.7095+0.111, 0.89976*(80/59)**7.7095+0.111, (50/59)**10.
        #expect(
            abs(DistanceEstimator.accuracy(rssi: -70, measuredPower: -59, settings: curve) - 3.472448313889541) < 1e-9)
        #expect(
            abs(DistanceEstimator.accuracy(rssi: -80, measuredPower: -59, settings: curve) - 9.521557509550805) < 1e-9)
        #expect(
            abs(DistanceEstimator.accuracy(rssi: -50, measuredPower: -59, settings: curve) - 0.19106446691360568)
                < 1e-12)
    }

    @Test func logDistanceMatchesHandComputedValues() {
        // n = 2.7: 10^((−59 − rssi)/27): rssi −59 → 1 m, −86 → 10 m, −72.5 → √10 m.
        #expect(abs(DistanceEstimator.accuracy(rssi: -59, measuredPower: -59, settings: logDistance) - 1) < 1e-12)
        #expect(abs(DistanceEstimator.accuracy(rssi: -86, measuredPower: -59, settings: logDistance) - 10) < 1e-11)
        #expect(
            abs(DistanceEstimator.accuracy(rssi: -72.5, measuredPower: -59, settings: logDistance) - 10.0.squareRoot())
                < 1e-11)
        var n2 = logDistance
        n2.exponent = 2
        // n = 2, 20 dB below the 1 m power → 10 m (free-space rule of thumb).
        #expect(abs(DistanceEstimator.accuracy(rssi: -79, measuredPower: -59, settings: n2) - 10) < 1e-11)
        // David Young's worked example (stackoverflow.com/a/20434019): power −59, RSSI −72,
        // inverse-square law → r = √(10^(13/10)) = 10^0.65 ≈ 4.4668 m.
        #expect(
            abs(DistanceEstimator.accuracy(rssi: -72, measuredPower: -59, settings: n2) - 4.466835921509632) < 1e-12)
    }

    @Test func unknownRSSIGivesNegativeAccuracy() {
        #expect(DistanceEstimator.accuracy(rssi: nil, measuredPower: -59, settings: curve) == -1)
        #expect(DistanceEstimator.accuracy(rssi: 0, measuredPower: -59, settings: curve) == -1)
        #expect(DistanceEstimator.accuracy(rssi: -60, measuredPower: 0, settings: logDistance) == -1)
    }

    @Test func proximityThresholdsFollowRadiusNetworks() {
        let t = ProximityThresholds()
        #expect(Proximity(accuracy: -1, thresholds: t) == .unknown)
        #expect(Proximity(accuracy: 0, thresholds: t) == .immediate)
        #expect(Proximity(accuracy: 0.4999, thresholds: t) == .immediate)
        #expect(Proximity(accuracy: 0.5, thresholds: t) == .near)
        #expect(Proximity(accuracy: 4.0, thresholds: t) == .near)
        #expect(Proximity(accuracy: 4.0001, thresholds: t) == .far)
        #expect(Proximity(accuracy: .nan, thresholds: t) == .unknown)
    }
}
