/// The windowed RSSI statistics a ranging tick applies to a beacon's recent samples.
///
/// Windowed filters run at ranging ticks, not per sighting: a sighting only appends to a bounded
/// ring, so the hot path stays O(1), and the statistics cost ≤ 32 samples once per interval.
/// Samples stay the controller's whole dBm (`Int8`): counting or sorting bytes through one buffer
/// pointer cost a sixth of sorting `[Double]` with a bounds check per access, and the results are
/// the same to the bit (sums of ≤ 32 whole dBm values are exact in a `Double`).
package enum RSSIFilter {
    /// Counts `v` into bins on the stack, one per dBm from the lowest sample, and calls `body` with
    /// them, the lowest value and the number of bins in use; nil, without calling it, when the
    /// samples span more than `countingBins` dB (then the caller sorts). A beacon's window (n ≤ 32)
    /// usually lies within a few dB, so its statistics are read off the bins in linear time with
    /// nothing written back (sorting the window through them cost about 560 instructions a tick).
    static func withBins<R>(
        _ v: UnsafeMutableBufferPointer<Int8>,
        _ body: (_ bins: UnsafeMutableBufferPointer<UInt8>, _ low: Int, _ span: Int) -> R
    ) -> R? {
        guard !v.isEmpty, v.count < 256 else { return nil }
        var low = v[0]
        var high = v[0]
        for x in v {
            low = min(low, x)
            high = max(high, x)
        }
        let span = Int(high) &- Int(low) &+ 1
        guard span <= countingBins else { return nil }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: countingBins) { bins in
            // Bins past `span` are never read.
            UnsafeMutableBufferPointer(rebasing: bins[0..<span]).initialize(repeating: 0)
            for x in v { bins[Int(x) &- Int(low)] &+= 1 }
            return body(bins, Int(low), span)
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

    /// The sum of the samples at sorted ranks `lower..<upper`, read off the bins.
    static func sum(ranks lower: Int, _ upper: Int, bins: UnsafeMutableBufferPointer<UInt8>, low: Int, span: Int) -> Int
    {
        var sum = 0
        var rank = 0
        for b in 0..<span where bins[b] > 0 {
            let next = rank &+ Int(bins[b])
            let overlap = min(next, upper) &- max(rank, lower)
            if overlap > 0 { sum &+= overlap &* (low &+ b) }
            rank = next
            if rank >= upper { break }
        }
        return sum
    }

    /// Median (mean of the middle two for an even count); nil when empty. May reorder `v`.
    package static func median(_ v: UnsafeMutableBufferPointer<Int8>) -> Double? {
        guard !v.isEmpty else { return nil }
        let n = v.count
        // The middle one is ranks (n − 1)/2 ..< n/2 + 1: one sample when n is odd, two when even;
        // their sum halved is what the sorted form computes, to the bit (whole dBm are exact).
        if let middle = withBins(v, { sum(ranks: (n &- 1) / 2, n / 2 &+ 1, bins: $0, low: $1, span: $2) }) {
            return n % 2 == 1 ? Double(middle) : Double(middle) / 2
        }
        insertionSort(v)
        return n % 2 == 1 ? Double(v[n / 2]) : (Double(v[n / 2 - 1]) + Double(v[n / 2])) / 2
    }

    /// Mean after dropping ⌊n·trim⌋ samples from each end; nil when empty. May reorder `v`.
    ///
    /// AltBeacon's RunningAverageRssiFilter sorts and averages the middle (it drops ⌊n/10⌋+1 per
    /// end when n > 2); here the fraction is configurable and at least one sample is always kept.
    package static func trimmedMean(_ v: UnsafeMutableBufferPointer<Int8>, trim: Double) -> Double? {
        guard !v.isEmpty else { return nil }
        let n = v.count
        var k = Int((Double(n) * max(0, min(trim, 0.5))).rounded(.down))
        if n - 2 * k < 1 { k = (n - 1) / 2 }
        let middle =
            withBins(v, { sum(ranks: k, n &- k, bins: $0, low: $1, span: $2) })
            ?? {
                insertionSort(v)
                var sum = 0
                for i in k..<(n - k) { sum &+= Int(v[i]) }
                return sum
            }()
        return Double(middle) / Double(n - 2 * k)
    }
}
