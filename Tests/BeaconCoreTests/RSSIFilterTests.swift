import BeaconCore
import Testing

@Suite struct RSSIFilterTests {
    /// The filter over a copy of `samples`, as the table hands them over (a buffer it may sort).
    static func apply(_ samples: [Int8], _ filter: (UnsafeMutableBufferPointer<Int8>) -> Double?) -> Double? {
        var copy = samples
        return copy.withUnsafeMutableBufferPointer { filter($0) }
    }

    @Test func medianOfOddAndEvenCounts() {
        #expect(Self.apply([-70, -60, -65, -90, -61], RSSIFilter.median) == -65)  // sorted −90 −70 −65 −61 −60
        #expect(Self.apply([-70, -60, -66, -90], RSSIFilter.median) == -68)  // (−70 + −66) / 2
        #expect(Self.apply([], RSSIFilter.median) == nil)
        // The same to the bit as the median of the samples as Doubles, at every count up to the ring's.
        // Spreads of 81 dB (insertion sort) and 13 dB (counted into bins), unordered, with repeats.
        for spread in [81, 13] {
            for n in 1...32 {
                let samples = (0..<n).map { Int8(-30 - ($0 * 37 + n * 11) % spread) }
                let sorted = samples.map(Double.init).sorted()
                let expected = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2
                #expect(Self.apply(samples, RSSIFilter.median) == expected)
                // trim 0.25 averages the sorted middle half: only a correct sort gives the reference.
                let k = n / 4
                let middle = sorted[k..<(n - k)]
                #expect(
                    Self.apply(samples) { RSSIFilter.trimmedMean($0, trim: 0.25) } == middle.reduce(0, +)
                        / Double(middle.count))
            }
        }
        // The bins' edges: the extremes of Int8 alone, and a spread of exactly 64.
        #expect(Self.apply([-128, 127, -128], RSSIFilter.median) == -128)
        #expect(Self.apply([-100, -37, -37, -100, -99], RSSIFilter.median) == -99)
    }

    /// Read off the bins (spreads up to 64 dB) or sorted (wider), the median and the trimmed mean
    /// are the sorted samples' to the bit, for random windows of every length and trim.
    @Test func statisticsFromTheBinsAgreeWithSortedSamples() {
        var x: UInt64 = 0x9E37_79B9_7F4A_7C15
        var mismatches = 0
        for round in 0..<5_000 {
            x = x &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let n = Int(x % 32) + 1
            let spread = [3, 20, 63, 64, 65, 200][round % 6]
            let low = Int(x >> 8 % 64) - 128
            var samples: [Int8] = []
            for _ in 0..<n {
                x = x &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                samples.append(Int8(clamping: low + Int(x >> 33) % spread))
            }
            let sorted = samples.map(Double.init).sorted()
            let median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2
            if Self.apply(samples, RSSIFilter.median) != median { mismatches += 1 }
            let trim = Double(x >> 50 % 60) / 100
            var k = Int((Double(n) * min(trim, 0.5)).rounded(.down))
            if n - 2 * k < 1 { k = (n - 1) / 2 }
            let middle = sorted[k..<(n - k)]
            let mean = middle.reduce(0, +) / Double(middle.count)
            if Self.apply(samples, { RSSIFilter.trimmedMean($0, trim: trim) }) != mean { mismatches += 1 }
        }
        #expect(mismatches == 0)
    }

    @Test func trimmedMeanDropsTheConfiguredFractionFromEachEnd() {
        // 10 samples, trim 0.1 → drop one from each end: mean of −69…−62 = −65.5.
        let v: [Int8] = [-62, -99, -63, -64, -65, -66, -67, -68, -69, -40]
        #expect(Self.apply(v) { RSSIFilter.trimmedMean($0, trim: 0.1) } == -65.5)
        // trim 0 → the plain mean: −663 / 10.
        #expect(abs((Self.apply(v) { RSSIFilter.trimmedMean($0, trim: 0) } ?? 0) - -66.3) < 1e-12)
        #expect(Self.apply([-60, -70]) { RSSIFilter.trimmedMean($0, trim: 0.5) } == -65)  // keeps at least one pair
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
