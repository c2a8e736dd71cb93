/// The windowed RSSI statistics a ranging tick applies to a beacon's recent samples.
///
/// Windowed filters run at ranging ticks, not per sighting: a sighting only appends to a bounded
/// ring, so the hot path stays O(1), and the sort costs ≤ 32 samples once per interval. Samples
/// stay the controller's whole dBm (`Int8`): sorting bytes through one buffer pointer cost a
/// sixth of sorting `[Double]` with a bounds check per access, and the results are the same to the
/// bit (sums of ≤ 32 whole dBm values are exact in a `Double`).
package enum RSSIFilter {
    /// Sorts in place: n ≤ 32 here, and it never allocates. Samples within 64 dB of each other (a
    /// beacon's usual spread) are counted into bins on the stack, which is linear; a wider window
    /// falls back to insertion sort.
    static func sortSmall(_ v: UnsafeMutableBufferPointer<Int8>) {
        guard v.count > 1 else { return }
        var low = v[0]
        var high = v[0]
        for x in v {
            low = min(low, x)
            high = max(high, x)
        }
        let span = Int(high) &- Int(low) &+ 1
        guard span <= countingBins, v.count < 256 else { return insertionSort(v) }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: countingBins) { bins in
            bins.initialize(repeating: 0)
            for x in v { bins[Int(x) &- Int(low)] &+= 1 }
            var k = 0
            for b in 0..<span {
                let value = Int8(truncatingIfNeeded: Int(low) &+ b)
                for _ in 0..<Int(bins[b]) {
                    v[k] = value
                    k &+= 1
                }
            }
        }
    }

    static let countingBins = 64

    static func insertionSort(_ v: UnsafeMutableBufferPointer<Int8>) {
        for i in 1..<v.count {
            let x = v[i]
            var j = i &- 1
            while j >= 0 && v[j] > x {
                v[j &+ 1] = v[j]
                j &-= 1
            }
            v[j &+ 1] = x
        }
    }

    /// Median (mean of the middle two for an even count); nil when empty. Sorts `v` in place.
    package static func median(_ v: UnsafeMutableBufferPointer<Int8>) -> Double? {
        guard !v.isEmpty else { return nil }
        sortSmall(v)
        let n = v.count
        return n % 2 == 1 ? Double(v[n / 2]) : (Double(v[n / 2 - 1]) + Double(v[n / 2])) / 2
    }

    /// Mean after dropping ⌊n·trim⌋ samples from each end; nil when empty. Sorts `v` in place.
    ///
    /// AltBeacon's RunningAverageRssiFilter sorts and averages the middle (it drops ⌊n/10⌋+1 per
    /// end when n > 2); here the fraction is configurable and at least one sample is always kept.
    package static func trimmedMean(_ v: UnsafeMutableBufferPointer<Int8>, trim: Double) -> Double? {
        guard !v.isEmpty else { return nil }
        sortSmall(v)
        let n = v.count
        var k = Int((Double(n) * max(0, min(trim, 0.5))).rounded(.down))
        if n - 2 * k < 1 { k = (n - 1) / 2 }
        var sum = 0
        for i in k..<(n - k) { sum &+= Int(v[i]) }
        return Double(sum) / Double(n - 2 * k)
    }
}
