/// A reading of a monotonic clock (CLOCK_MONOTONIC in the shell), in nanoseconds from an arbitrary
/// origin: the one monotonic instant. Deadlines and timers use it, so a wall-clock step (NTP, an
/// operator's `date -s`) moves neither an exit nor a tick; wall time (`Timestamp`) only stamps payloads.
public struct MonotonicInstant: Comparable, Hashable, Sendable {
    public var nanoseconds: Int64

    @inlinable
    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    /// Seconds from `earlier` to this instant (negative when `earlier` is later).
    @inlinable
    public func seconds(since earlier: MonotonicInstant) -> Double { Double(nanoseconds &- earlier.nanoseconds) / 1e9 }

    @inlinable
    public static func < (a: MonotonicInstant, b: MonotonicInstant) -> Bool { a.nanoseconds < b.nanoseconds }
    @inlinable
    public static func + (lhs: Self, rhs: TimeSpan) -> Self {
        Self(nanoseconds: lhs.nanoseconds &+ rhs.microseconds &* 1000)
    }
    @inlinable
    public static func - (lhs: Self, rhs: TimeSpan) -> Self {
        Self(nanoseconds: lhs.nanoseconds &- rhs.microseconds &* 1000)
    }
    /// The span between two instants, to the microsecond (truncated toward zero).
    @inlinable
    public static func - (lhs: Self, rhs: Self) -> TimeSpan {
        TimeSpan(microseconds: (lhs.nanoseconds &- rhs.nanoseconds) / 1000)
    }
}
