import Glibc

/// A moment on the wall clock (CLOCK_REALTIME) in seconds since the Unix epoch, replacing
/// Foundation's `Date` in the gateway (Foundation costs the daemon ~10 MB of RSS). It keeps the
/// names of the few `Date` members the gateway used, so the two read the same.
///
/// The clock is read in `SystemClock` (plus a test's steps, `WallClockSteps`). Deadlines use
/// `MonotonicClock`, and a live source's packets `SteadyWallClock`.
package struct WallTime: Comparable, Hashable, Sendable {
    package var timeIntervalSince1970: Double

    /// Now.
    package init() {
        let now = SystemClock.nanoseconds(CLOCK_REALTIME) &+ WallClockSteps.offset()
        let (seconds, nanoseconds) = now.quotientAndRemainder(dividingBy: 1_000_000_000)
        timeIntervalSince1970 = Double(seconds) + Double(nanoseconds) / 1e9
    }

    package init(timeIntervalSince1970: Double) { self.timeIntervalSince1970 = timeIntervalSince1970 }

    package func addingTimeInterval(_ seconds: Double) -> WallTime {
        WallTime(timeIntervalSince1970: timeIntervalSince1970 + seconds)
    }

    /// Seconds from `other` to this moment (negative when `other` is later).
    package func timeIntervalSince(_ other: WallTime) -> Double { timeIntervalSince1970 - other.timeIntervalSince1970 }

    package static func < (a: WallTime, b: WallTime) -> Bool { a.timeIntervalSince1970 < b.timeIntervalSince1970 }
}
