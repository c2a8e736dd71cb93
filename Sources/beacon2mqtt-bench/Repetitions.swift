/// Runs a timed body several times and keeps the median, the usual defence against a noisy,
/// shared machine: one slowed repetition moves the mean but not the median. Time is the calling
/// thread's CPU time (`BenchClock.threadCPUNow`), so being descheduled does not count.
struct Repetitions {
    /// Seconds one repetition should last at least; short runs are dominated by clock noise.
    var minimumSeconds: Double
    var count: Int

    /// The per-repetition CPU times and the wrapping sum of every checksum the body returned.
    struct Outcome {
        var seconds: [Double]
        var checksum: UInt64
        /// How many times the body ran per repetition (the work unit count multiplier).
        var iterations: Int

        var median: Double { Self.median(seconds) }
        var best: Double { seconds.min() ?? 0 }

        static func median(_ values: [Double]) -> Double {
            guard !values.isEmpty else { return 0 }
            let sorted = values.sorted()
            let mid = sorted.count / 2
            return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
        }
    }

    /// Calibrates how many calls of `body` fill `minimumSeconds`, then times `count` repetitions.
    /// `body` returns a checksum of what it computed, so the optimiser cannot drop the work.
    func run(_ body: () -> UInt64) -> Outcome {
        var checksum: UInt64 = 0
        var iterations = 1
        while true {
            let start = BenchClock.threadCPUNow()
            for _ in 0..<iterations { checksum &+= body() }
            let elapsed = Double(BenchClock.threadCPUNow() &- start) / 1e9
            if elapsed >= minimumSeconds / 4 || iterations >= 1 << 20 {
                iterations = max(1, Int((Double(iterations) * minimumSeconds / max(elapsed, 1e-9)).rounded(.up)))
                break
            }
            iterations *= 4
        }
        var seconds: [Double] = []
        for _ in 0..<count {
            let start = BenchClock.threadCPUNow()
            for _ in 0..<iterations { checksum &+= body() }
            seconds.append(Double(BenchClock.threadCPUNow() &- start) / 1e9)
        }
        return Outcome(seconds: seconds, checksum: checksum, iterations: iterations)
    }
}
