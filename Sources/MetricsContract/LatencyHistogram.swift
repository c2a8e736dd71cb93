/// A Prometheus histogram of seconds with fixed buckets: per-bucket counts (not cumulative; the
/// writer accumulates), the total and the sum. Observing is an index search and two additions,
/// so the pipeline thread can afford it per published message.
package struct LatencyHistogram: Sendable, Equatable {
    /// Upper bounds (`le`), seconds: 100 µs … 10 s, for a path that is normally well under a
    /// millisecond and stretches to seconds only under back-pressure.
    package static let bounds: [Double] = [
        0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10,
    ]

    /// Observations per bucket (the last: above every bound, only in `+Inf`).
    package private(set) var counts = [Int](repeating: 0, count: LatencyHistogram.bounds.count)
    package private(set) var count = 0
    package private(set) var sum = 0.0

    package init() {}

    /// Adds `times` observations of `seconds` (a negative duration counts as zero).
    package mutating func observe(_ seconds: Double, times: Int = 1) {
        guard times > 0 else { return }
        let value = max(seconds, 0)
        count += times
        sum += value * Double(times)
        if let index = Self.bounds.firstIndex(where: { value <= $0 }) { counts[index] += times }
    }
}
