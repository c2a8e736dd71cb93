import BeaconCore
import Testing

@Suite struct RSSIFilterTests {
    @Test func medianOfOddAndEvenCounts() {
        var odd: [Double] = [-70, -60, -65, -90, -61]
        #expect(RSSIFilter.median(&odd) == -65)  // sorted −90 −70 −65 −61 −60
        var even: [Double] = [-70, -60, -66, -90]
        #expect(RSSIFilter.median(&even) == -68)  // (−70 + −66) / 2
        var empty: [Double] = []
        #expect(RSSIFilter.median(&empty) == nil)
    }

    @Test func trimmedMeanDropsTheConfiguredFractionFromEachEnd() {
        // 10 samples, trim 0.1 → drop one from each end: mean of −69…−62 = −65.5.
        var v: [Double] = [-62, -99, -63, -64, -65, -66, -67, -68, -69, -40]
        #expect(RSSIFilter.trimmedMean(&v, trim: 0.1) == -65.5)
        // trim 0 → the plain mean: −663 / 10.
        var w: [Double] = [-62, -99, -63, -64, -65, -66, -67, -68, -69, -40]
        #expect(abs((RSSIFilter.trimmedMean(&w, trim: 0) ?? 0) - -66.3) < 1e-12)
        var few: [Double] = [-60, -70]
        #expect(RSSIFilter.trimmedMean(&few, trim: 0.5) == -65)  // keeps at least one pair
    }

    @Test func kalmanFollowsTheHandComputedRecursion() {
        var k = KalmanFilter(processNoise: 0.008, measurementNoise: 4)
        #expect(k.update(-60) == -60)  // first sample initialises, covariance 4
        // p' = 4.008, K = 4.008/8.008, x = −60 + K·(−70 + 60).
        let gain = 4.008 / 8.008
        let x1 = -60 + gain * -10
        #expect(abs(k.update(-70) - x1) < 1e-12)
        let p1 = 4.008 - gain * 4.008
        let gain2 = (p1 + 0.008) / (p1 + 0.008 + 4)
        #expect(abs(k.update(-60) - (x1 + gain2 * (-60 - x1))) < 1e-12)
    }
}
