import Glibc

/// Test-only: `BEACON2MQTT_TEST_WALL_STEPS="5=3600,12=-3600"` steps the wall clock the daemon reads
/// (`WallClock`) by +1 h 5 s after the process first read it and back 12 s after, as NTP or
/// `date -s` would, without touching the host's clock (`make test-chaos`; libfaketime loses the
/// Swift runtime's arguments). Unset, it costs one load per read.
enum WallClockSteps {
    /// (monotonic nanoseconds at which it applies, cumulative offset in nanoseconds), in order.
    static let steps: [(at: Int64, offset: Int64)] = parse(
        getenv("BEACON2MQTT_TEST_WALL_STEPS").map { String(cString: $0) })

    static func parse(_ text: String?) -> [(at: Int64, offset: Int64)] {
        guard let text, !text.isEmpty else { return [] }
        let start = SystemClock.nanoseconds(CLOCK_MONOTONIC)
        var total: Int64 = 0
        var steps: [(at: Int64, offset: Int64)] = []
        for item in text.split(separator: ",") {
            let parts = item.split(separator: "=")
            guard parts.count == 2, let after = Double(parts[0]), let by = Double(parts[1]) else { continue }
            total += Int64(by * 1e9)
            steps.append((start + Int64(after * 1e9), total))
        }
        return steps.sorted { $0.at < $1.at }
    }

    /// What to add to CLOCK_REALTIME now.
    @inline(__always)
    static func offset() -> Int64 {
        let steps = Self.steps
        guard !steps.isEmpty else { return 0 }
        let now = SystemClock.nanoseconds(CLOCK_MONOTONIC)
        return steps.last(where: { $0.at <= now })?.offset ?? 0
    }
}
