import Glibc

/// A moment on the wall clock (CLOCK_REALTIME) in seconds since the Unix epoch, replacing
/// Foundation's `Date` in the gateway (Foundation costs the daemon ~10 MB of RSS). It keeps the
/// names of the few `Date` members the gateway used, so the two read the same.
///
/// The clock is read in `SystemClock`.
public struct WallTime: Comparable, Hashable, Sendable {
    public var timeIntervalSince1970: Double

    /// Now.
    public init() {
        let (seconds, nanoseconds) = SystemClock.nanoseconds(CLOCK_REALTIME).quotientAndRemainder(dividingBy: 1_000_000_000)
        timeIntervalSince1970 = Double(seconds) + Double(nanoseconds) / 1e9
    }

    public init(timeIntervalSince1970: Double) { self.timeIntervalSince1970 = timeIntervalSince1970 }

    public func addingTimeInterval(_ seconds: Double) -> WallTime {
        WallTime(timeIntervalSince1970: timeIntervalSince1970 + seconds)
    }

    /// Seconds from `other` to this moment (negative when `other` is later).
    public func timeIntervalSince(_ other: WallTime) -> Double { timeIntervalSince1970 - other.timeIntervalSince1970 }

    public static func < (a: WallTime, b: WallTime) -> Bool { a.timeIntervalSince1970 < b.timeIntervalSince1970 }
}
