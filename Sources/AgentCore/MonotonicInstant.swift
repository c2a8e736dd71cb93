/// A reading of a monotonic clock (CLOCK_MONOTONIC in the shell), in nanoseconds from an arbitrary
/// origin. Deadlines and timers use it, so a wall-clock step (NTP, an operator's `date -s`) moves
/// neither an exit nor a tick; wall time only stamps payloads.
package struct MonotonicInstant: Comparable, Hashable, Sendable {
    package var nanoseconds: Int64

    package init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    /// This instant moved on by `seconds` (negative: back).
    package func adding(seconds: Double) -> MonotonicInstant {
        MonotonicInstant(nanoseconds: nanoseconds &+ Int64((seconds * 1e9).rounded()))
    }

    /// Seconds from `earlier` to this instant (negative when `earlier` is later).
    package func seconds(since earlier: MonotonicInstant) -> Double { Double(nanoseconds &- earlier.nanoseconds) / 1e9 }

    package static func < (a: MonotonicInstant, b: MonotonicInstant) -> Bool { a.nanoseconds < b.nanoseconds }
}
