import Glibc
import Vocabulary

/// The clock a live source's packets and the pipeline's deadlines share: the wall clock read once,
/// at the first use, then moved on by CLOCK_MONOTONIC. A step of the wall clock (NTP at boot, an
/// operator's `date -s`) so moves no exit timeout and no ranging tick; payloads still carry the
/// wall clock, which the agent core adds back as an offset when it stamps them.
package enum SteadyWallClock {
    /// Read together, once: the first caller (the shell, before the source thread starts) fixes it.
    private static let origin = (wall: WallClock.now(), monotonic: MonotonicClock.now())

    package static var originWall: Timestamp { origin.wall }
    package static var originMonotonic: MonotonicInstant { origin.monotonic }

    /// Now on the steady timeline, in seconds since the epoch (what the simulators schedule by).
    package static func seconds() -> Double { Double(now().microseconds) / 1e6 }

    /// Now on the steady timeline.
    package static func now() -> Timestamp {
        origin.wall + TimeSpan(microseconds: (MonotonicClock.now().nanoseconds - origin.monotonic.nanoseconds) / 1000)
    }
}
